/*
 * extracct rotate [--spool DIR] [--pacct FILE] [--acctd-pidfile FILE]
 *     [--start]
 *
 * acctadm -f for Linux: move process accounting, the snapshot log and
 * acctd on to new logs in the spool.  The options only: rotation is
 * rotate.c's.
 */
#include <getopt.h>
#include <stdio.h>
#include <time.h>

#include "cmdopt.h"
#include "config.h"
#include "cmd.h"
#include "paths.h"
#include "spool/rotate.h"

static const struct cmdopt rotate_options[] = {
	CMDOPT_SPOOL,
	CMDOPT_PACCT,
	{ 'a', "acctadm-conf", "FILE", 0,
	    "Solaris and illumos: the active exacct types and files, as "
	    "before SMF (default: " PATH_ACCTADM_CONF "; without it, what "
	    "acctadm prints)" },
	CMDOPT_ACCTD_PIDFILE,
	{ 'S', "start", NULL, 0,
	    "at boot: point process accounting at the spool's live pacct log, "
	    "or a new one, and record the gap since the last (the "
	    "extracct-accton unit; default: do not)" },
	{ 0, NULL, NULL, 0, NULL }
};

const struct cmddoc cmd_rotate_doc = { "rotate",
    "move accounting, snapshots and acctd on to new logs", NULL,
    "Move process accounting, the snapshot log and acctd on to new logs "
    "in the spool, as acctadm -f does on Solaris (where it drives wracct "
    "and acctadm).", rotate_options };

int
cmd_rotate(int argc, char **argv, struct ctx *ctx)
{
	struct cmdopt_parser op = { .doc = &cmd_rotate_doc };
	const char *spool = ctx->cfg->spool_dir, *pacct = ctx->cfg->pacct_file;
	const char *conf = PATH_ACCTADM_CONF;
	const char *acctd_pid = ctx->cfg->acctd_pidfile;
	char host[256];
	int ch, manage = ctx->cfg->pacct_manage ? ROTATE_MANAGE : 0;

	while ((ch = cmdopt_next(&op, argc, argv)) != -1) {
		switch (ch) {
		case 's':	/* the spool directory */
			spool = optarg;
			break;
		case 'p':	/* where accounting goes before the first rotate */
			pacct = optarg;
			break;
		case 'a':	/* Solaris: the active exacct files */
			conf = optarg;
			break;
		case 'P':	/* where acctd says it runs */
			acctd_pid = optarg;
			break;
		case 'S':	/* switch accounting on if off (at boot) */
			manage = ROTATE_MANAGE | ROTATE_START;
			break;
		case 'h':
			return cmdopt_help(&cmd_rotate_doc);
		default:
			return cmdopt_bad(&cmd_rotate_doc);
		}
	}
	if (optind != argc)
		return cmdopt_bad(&cmd_rotate_doc);
	config_hostname(ctx->cfg, host, sizeof(host));
	return rotate_logs(spool, pacct, host, conf, acctd_pid, time(NULL),
	    NULL, manage);
}
