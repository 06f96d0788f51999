/*
 * extracct snap [-o FILE] [--spool DIR] [--powercap DIR] [--cpu MEASURE]
 *
 * wracct for Linux: append a cumulative partial record for every live
 * process, one system record and a RAPL record per powercap zone, to an
 * exacct snapshot log (creator "extracct").  Every record is one write(2)
 * to an O_APPEND file, so a reader never sees half of one (the kernel's
 * own rule for exacct, exacct-format.md §1.1), and one the disk (or the
 * file size limit) cuts short is cut off again: snap holds the log's
 * lock, so nothing else appends meanwhile.  Processes that vanish while
 * being read are skipped: they write their own exit record.  Which CPU
 * time a partial holds: snapcpu.h.
 */
#include <sys/file.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../parsers/recwrite.h"
#include "../store/outfile.h"
#include "cmdopt.h"
#include "config.h"
#include "extracct.h"
#include "paths.h"
#include "powercap.h"
#include "procfs.h"
#include "snapcpu.h"
#include "spool.h"

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
	{ 0, NULL, NULL, 0, NULL }
};

const struct cmddoc cmd_snap_doc = { "snap", NULL,
    "Linux: append a snapshot of the system and of every live process "
    "from /proc to an exacct log, as Solaris's wracct has the kernel "
    "write partial records.", snap_options };

/*
 * One record per RAPL zone, at the snapshot's time, with the boot time
 * (a reboot resets the counters: that is no wrap).
 */
static int
write_rapl(int fd, struct exw *w, const char *dir, uint64_t now,
    const struct ex_sysload *sl, uint64_t *end)
{
	static struct ex_rapl zones[POWERCAP_MAX_ZONES];
	int i, n, unreadable;

	n = powercap_read(dir, now, zones, POWERCAP_MAX_ZONES, &unreadable);
	if (n == 0 && unreadable > 0)
		say(stderr, "extracct: %s: no RAPL zone's energy_uj is "
		    "readable (root only since Linux 5.10): no energy "
		    "readings", dir);
	for (i = 0; i < n; i++) {
		if (REC_HAS(sl, SYS_BTIME)) {
			zones[i].v[RAPL_BOOT_S] = sl->v[SYS_BTIME];
			zones[i].present |= 1ULL << RAPL_BOOT_S;
		}
		exw_reset(w);
		rapl_write(w, &zones[i]);
		if (append_record(fd, w, end) != EXR_OK)
			return EXR_IO;
	}
	return EXR_OK;
}

/*
 * Lock the log: two snaps at once (the timer's and the hourly run's)
 * take turns, so a cut-off record is never another's, and only one
 * writes a new log's header.  A snapshot takes a second or two; 60 s
 * without the lock is an error.  0, or -1 with errno set.
 */
static int
lock_log(int fd)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int i;

	for (i = 0; i < 6000; i++) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return 0;
		if (errno != EWOULDBLOCK && errno != EINTR)
			return -1;
		nanosleep(&ts, NULL);
	}
	errno = EWOULDBLOCK;
	return -1;
}

int
snap_write(const char *path, const char *proc_root, const char *powercap_dir,
    int cpu, const char *acctd_pidfile, uint64_t *nprocs)
{
	char host[256], self[24];
	struct procfs pf;
	struct ex_err err = { 0 };
	struct ex_sysload sl;
	struct ex_proc p;
	struct timespec ts;
	struct stat st;
	struct dirent *de;
	struct snapcpu sc;
	struct exw w;
	uint64_t now, end;
	DIR *d;
	int fd, rc = EXR_OK;

	*nprocs = 0;
	if ((rc = procfs_init(&pf, proc_root, &err)) != EXR_OK)
		return complain(rc, "%s", err.reason);
	/* The kernel's samples are of this machine's processes only. */
	if (strcmp(proc_root, PATH_PROC) != 0)
		cpu = SNAPCPU_RUNTIME;
	if ((rc = snapcpu_open(&sc, cpu, acctd_pidfile, &err)) != EXR_OK)
		return complain(rc, "snap: CPU time as tick samples: %s",
		    err.reason);
	if (gethostname(host, sizeof(host)) != 0)
		snprintf(host, sizeof(host), "unknown");
	host[sizeof(host) - 1] = '\0';
	/* Appended to, so an existing log is taken if it is ours. */
	if ((fd = outfile_open(path, O_APPEND, NULL, &err)) == -1) {
		snapcpu_close(&sc);
		return complain(EXR_IO, "%s: %s", path, err.reason);
	}
	if (lock_log(fd) == -1 || fstat(fd, &st) == -1) {
		rc = complain(EXR_IO, "%s: %s", path, errno == EWOULDBLOCK ?
		    "another snap has held its lock for 60 s" :
		    strerror(errno));
		close(fd);
		snapcpu_close(&sc);
		return rc;
	}
	end = (uint64_t)st.st_size;
	exw_init(&w);
	if (st.st_size == 0) {
		exw_header(&w, "extracct", host, EXW_HEADER_LIBRARY);
		if (append_record(fd, &w, &end) != EXR_OK)
			goto ioerr;
	}
	/* One time for the whole snapshot: the intervals of all processes
	 * and the system record end at the same instant. */
	clock_gettime(CLOCK_REALTIME, &ts);
	now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	if ((rc = procfs_sysload(&pf, now, &sl, &err)) != EXR_OK) {
		complain(rc, "%s", err.reason);
		goto out;
	}
	exw_reset(&w);
	sysload_write(&w, &sl);
	if (append_record(fd, &w, &end) != EXR_OK ||
	    write_rapl(fd, &w, powercap_dir, now, &sl, &end) != EXR_OK)
		goto ioerr;
	if ((d = opendir(proc_root)) == NULL) {
		rc = complain(EXR_IO, "%s: %s", proc_root, strerror(errno));
		goto out;
	}
	snprintf(self, sizeof(self), "%ld", (long)getpid());
	while ((de = readdir(d)) != NULL) {
		/* Not ourselves: our exit comes milliseconds after this. */
		if (de->d_name[0] < '1' || de->d_name[0] > '9' ||
		    strcmp(de->d_name, self) == 0)
			continue;
		if (procfs_proc(&pf, de->d_name, now, &p) != 0 ||
		    snapcpu_apply(&sc, &p) != 0)
			continue;	/* gone: its exit record has it */
		exw_reset(&w);
		proc_write(&w, &p);
		if (append_record(fd, &w, &end) != EXR_OK) {
			closedir(d);
			goto ioerr;
		}
		(*nprocs)++;
	}
	closedir(d);
	goto out;
ioerr:
	rc = complain(EXR_IO, "%s: %s; the snapshot stops there (no record "
	    "is left half written)", path, strerror(errno));
out:
	if (sc.unanswered > 0)
		say(stderr, "extracct: %s: taskstats did not answer for "
		    "%llu processes: not in this snapshot", path,
		    (unsigned long long)sc.unanswered);
	snapcpu_close(&sc);
	exw_release(&w);
	if (close(fd) != 0 && rc == EXR_OK)
		rc = complain(EXR_IO, "%s: %s", path, strerror(errno));
	return rc;
}

int
cmd_snap(int argc, char **argv, struct ctx *ctx)
{
	struct cmdopt_parser op = { .doc = &cmd_snap_doc };
	const char *out = NULL, *root = PATH_PROC, *spool = ctx->cfg->spool_dir;
	const char *powercap = ctx->cfg->powercap_dir;
	char host[256], path[4096];
	struct ex_err err = { 0 };
	uint64_t n;
	int ch, rc, cpu = ctx->cfg->snap_cpu;

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
		config_hostname(ctx, host, sizeof(host));
		if ((rc = spool_snap_live(spool, host, time(NULL), path,
		    sizeof(path), &err)) != EXR_OK)
			return complain(rc, "%s", err.reason);
		out = path;
	}
	return snap_write(out, root, powercap, cpu, ctx->cfg->acctd_pidfile,
	    &n);
}
