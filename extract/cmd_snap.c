/*
 * extracct snap [-o FILE] [--spool DIR] [--powercap DIR] [--cpu MEASURE]
 *     [--no-cgroups]
 *
 * wracct for Linux: append a snapshot of the system and of every live
 * process to an exacct log, by default the spool's live snapshot log
 * (spool.h).  The options only: the snapshot itself is snapshot.c's.
 */
#include <getopt.h>
#include <stdio.h>
#include <time.h>

#include "cmdopt.h"
#include "config.h"
#include "cmd.h"
#include "util.h"
#include "paths.h"
#include "linux/snapcpu.h"
#include "linux/snapshot.h"
#include "spool/spool.h"

static const struct cmdopt snap_options[] = {
	{ 'o', "output", "FILE", CO_SHORT | CO_SHOW_SHORT,
	    "the log to append to (default: the spool's live snapshot log)" },
	{ 's', "spool", "DIR", 0,
	    "without -o, the spool whose live snapshot log to append to "
	    "(default: spool_dir, " PATH_SPOOL ")" },
	{ 'P', "powercap", "DIR", 0,
	    "where the RAPL zones are (default: powercap_dir, "
	    PATH_POWERCAP ")" },
	{ 'C', "cpu", "auto|ticks|runtime", 0,
	    "which CPU time to record: the kernel's tick samples (taskstats), "
	    "the runtime of /proc/PID/stat, or ticks where taskstats answers "
	    "and acctd does not run (default: snap_cpu, auto)" },
	{ 'G', "no-cgroups", NULL, 0,
	    "no cgroup records: the kernel's CPU, memory and I/O totals of "
	    "every cgroup that holds processes are not read (to measure "
	    "what reading them costs; default: read them)" },
	{ 0, NULL, NULL, 0, NULL }
};

const struct cmddoc cmd_snap_doc = { "snap",
    "Linux: a snapshot of every live process, the CPU, RAPL and cgroups",
    NULL,
    "Linux: append a snapshot of the system and of every live process "
    "from /proc to an exacct log, as Solaris's wracct has the kernel "
    "write partial records.", snap_options };

int
cmd_snap(int argc, char **argv, struct ctx *ctx)
{
	struct cmdopt_parser op = { .doc = &cmd_snap_doc };
	const char *out = NULL, *root = PATH_PROC, *spool = ctx->cfg->spool_dir;
	const char *powercap = ctx->cfg->powercap_dir;
	char host[256], path[4096];
	struct ex_err err = { 0 };
	struct spool sp;
	uint64_t n;
	int ch, rc, cpu = ctx->cfg->snap_cpu, cgroups = 1;

	while ((ch = cmdopt_next(&op, argc, argv)) != -1) {
		switch (ch) {
		case 'o':	/* the snapshot log to append to */
			out = optarg;
			break;
		case 's':	/* the spool whose live snapshot log to use */
			spool = optarg;
			break;
		case 'P':	/* where the RAPL zones are */
			powercap = optarg;
			break;
		case 'C':	/* which CPU time: snapcpu.h */
			if ((cpu = snapcpu_parse(optarg)) < 0)
				return complain(EXR_USAGE, "snap --cpu: \"%s\" "
				    "is not auto, ticks or runtime", optarg);
			break;
		case 'G':	/* no cgroup records */
			cgroups = 0;
			break;
		case 'h':
			return cmdopt_help(&cmd_snap_doc);
		default:
			return cmdopt_bad(&cmd_snap_doc);
		}
	}
	if (optind != argc)
		return cmdopt_bad(&cmd_snap_doc);
	if (out == NULL) {
		/* The spool's live snapshot log, or a new one (spool.h). */
		if ((rc = spool_check(spool, &err)) != EXR_OK)
			return complain(rc, "%s", err.reason);
		config_hostname(ctx->cfg, host, sizeof(host));
		/* Its states only: snap lists no logs. */
		if ((rc = spool_open(&sp, spool, host, 0, &err)) != EXR_OK ||
		    (rc = spool_snap_live(&sp, time(NULL), path, sizeof(path),
		    &err)) != EXR_OK)
			return complain(rc, "%s", err.reason);
		spool_close(&sp);
		out = path;
	}
	return snap_write(out, root, powercap, cpu, cgroups,
	    ctx->cfg->acctd_pidfile, &n);
}
