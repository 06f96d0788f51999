/*
 * extracct rotate [--spool DIR] [--pacct FILE] [--acctd-pidfile FILE]
 *     [--start]
 *
 * acctadm -f for Linux: switch kernel process accounting to a new
 * date-stamped file in the spool with acct(2) (the kernel swaps files
 * atomically: no record is lost), start a new snapshot log, and move
 * acctd (if it runs) to a new log; each new log is recorded as the live
 * one of its kind (spool.h), which is what the next rotate, snap, run
 * and acctd go by.  Only moves accounting that is already on, unless
 * the configuration says pacct: manage and it went off since the last
 * rotate (a reboot, the acct package's restart), or --start is given
 * (the boot unit, extracct-accton.service).  Where acctadm and
 * wracct are on PATH (Solaris, illumos), it drives them instead
 * (solaris.c).
 */
#include <sys/file.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmdopt.h"
#include "config.h"
#include "extracct.h"
#include "paths.h"
#include "solaris.h"
#include "spool.h"

/* acct(2) is in no standard: Linux, illumos and the BSDs all declare it
 * in <unistd.h>, which hides it from a strict POSIX build. */
int	acct(const char *);

static const struct cmdopt rotate_options[] = {
	CMDOPT_SPOOL,
	CMDOPT_PACCT,
	{ 'a', "acctadm-conf", "FILE", 0,
	    "Solaris and illumos: the active exacct types and files, as "
	    "before SMF (default: " PATH_ACCTADM_CONF "; without it, what "
	    "acctadm prints)" },
	{ 'P', "acctd-pidfile", "FILE", 0,
	    "the pidfile of acctd, moved to a new log if it runs (default: "
	    "acctd_pidfile, " PATH_ACCTD_PID ")" },
	{ 'S', "start", NULL, 0,
	    "at boot: point process accounting at the spool's live pacct log, "
	    "or a new one, and record the gap since the last (the "
	    "extracct-accton unit; default: do not)" },
	{ 0, NULL, NULL, 0, NULL }
};

const struct cmddoc cmd_rotate_doc = { "rotate", NULL,
    "Move process accounting, the snapshot log and acctd on to new logs "
    "in the spool, as acctadm -f does on Solaris (where it drives wracct "
    "and acctadm).", rotate_options };

/* Size of path, or -1. */
static off_t
size_of(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? st.st_size : -1;
}

/* The live log, the spool's newest, the --pacct file. */
#define PROBE_MAX	3

/*
 * Which of files (at most PROBE_MAX) is the kernel writing process
 * accounting to?  Nothing
 * says so directly: run a process and see which one its exit record
 * lands in.  Returns the index, or -1 for none.
 */
static int
accounting_to(const struct rotate_kernel *k, char files[][4096], int n)
{
	off_t before[PROBE_MAX];
	pid_t pid;
	int i, status;

	for (i = 0; i < n; i++)
		before[i] = size_of(files[i]);
	if ((pid = fork()) == -1)
		return -1;
	if (pid == 0)
		_exit(0);
	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
	if (k != NULL)
		k->exited(pid);
	for (i = 0; i < n; i++)
		if (before[i] >= 0 && size_of(files[i]) > before[i])
			return i;
	return -1;
}

/*
 * The spool's record of kind's live log in name (empty if none).  A
 * state file that holds no log name is reported and taken as none: the
 * next switch writes it again.
 */
static void
live_log(const char *spool, const char *kind, const char *host, char *name,
    size_t n)
{
	struct ex_err err = { 0 };

	if (spool_live_get(spool, kind, host, name, n, &err) < 0) {
		complain(err.code, "%s; taken as no %s log live", err.reason,
		    kind);
		name[0] = '\0';
	}
}

/*
 * Is acctd running (it holds its pidfile locked)?  Then *pid and
 * current (the log it writes, the pidfile's second line) are set.
 */
int
acctd_running(const char *pidfile, pid_t *pid, char *current, size_t n)
{
	char buf[320];
	ssize_t got;
	int fd, running = 0;

	if ((fd = open(pidfile, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) == -1)
		return 0;
	if (flock(fd, LOCK_SH | LOCK_NB) == -1 && errno == EWOULDBLOCK &&
	    (got = pread(fd, buf, sizeof(buf) - 1, 0)) > 0) {
		buf[got] = '\0';
		*pid = (pid_t)strtol(buf, NULL, 10);
		snprintf(current, n, "%s", strchr(buf, '\n') != NULL ?
		    strchr(buf, '\n') + 1 : "");
		current[strcspn(current, "\n")] = '\0';
		running = *pid > 0;
	}
	close(fd);
	return running;
}

/*
 * Switch acctd to a new log: create it, SIGHUP acctd (it opens the
 * newest acctd log; exits queue in its socket meanwhile), and wait until
 * its pidfile names the new log, so the old one is closed when run
 * ingests it.
 */
static int
rotate_acctd(const char *spool, const char *host, const char *pidfile,
    time_t now)
{
	char current[256], name[256];
	struct ex_err err = { 0 };
	pid_t pid;
	int i, rc;

	if (!acctd_running(pidfile, &pid, current, sizeof(current)))
		return EXR_OK;
	spool_name(name, sizeof(name), "acctd", host, now);
	if (strcmp(current, name) == 0) {
		printf("rotate: acctd already writes %s/%s\n", spool, name);
		return EXR_OK;
	}
	if ((rc = spool_create(spool, name, &err)) != EXR_OK &&
	    err.sys_errno != EEXIST)
		return complain(rc, "%s", err.reason);
	/* acctd opens the log the state names (cmd_acctd.c). */
	if ((rc = spool_live_set(spool, "acctd", host, name, &err)) != EXR_OK)
		return complain(rc, "%s", err.reason);
	if (kill(pid, SIGHUP) == -1)
		return complain(EXR_IO, "acctd (pid %ld): %s", (long)pid,
		    strerror(errno));
	for (i = 0; i < 500; i++) {	/* 5 s */
		if (acctd_running(pidfile, &pid, current, sizeof(current)) &&
		    strcmp(current, name) == 0) {
			printf("rotate: acctd moved to %s/%s\n", spool, name);
			return EXR_OK;
		}
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	}
	return complain(EXR_IO, "acctd (pid %ld) did not move to %s/%s "
	    "within 5 s; its old log stays open", (long)pid, spool, name);
}

/*
 * Switch accounting on into spool/name (path): a new log, acct(2), the
 * state.  EXR_OK or EXR_IO (complained).
 */
static int
switch_to(const char *spool, const char *host, char *name, char *path,
    const struct rotate_kernel *k, int fresh, time_t now)
{
	struct ex_err err = { 0 };
	int i, rc;

	/*
	 * fresh: the log accounting just left may have the name for now
	 * (it went off within the minute it was switched): the next
	 * minute's name, then the next, rather than no log at all.
	 */
	for (i = 1; (rc = spool_create(spool, name, &err)) != EXR_OK &&
	    fresh && err.sys_errno == EEXIST && i < 60; i++) {
		spool_name(name, 256, "pacct", host, now + 60 * i);
		snprintf(path, 4096, "%.3800s/%.255s", spool, name);
	}
	if (rc != EXR_OK)
		return complain(rc, "%s", err.reason);
	if ((k != NULL ? k->acct(path) : acct(path)) == -1) {
		int e = errno;

		/* Leave no empty log to be taken for the live one. */
		(void)unlink(path);
		return complain(EXR_IO, "acct %s: %s", path, strerror(e));
	}
	/* If this fails, the next rotate still finds the new log: the
	 * newest of the spool, named for now. */
	if ((rc = spool_live_set(spool, "pacct", host, name, &err)) != EXR_OK)
		return complain(rc, "%s", err.reason);
	return EXR_OK;
}

/*
 * Accounting was in the spool's live log at the last rotate, and the
 * probe finds it writing there no more: a reboot, or the acct package's
 * restart.  The log is closed (its state goes, so run ingests it).
 * Unmanaged, that is said in one line and is an error; managed (pacct:
 * manage, rotate --start), accounting is switched back on into a new
 * log and the gap kept in the spool for run to store (spool.h).
 */
static int
pacct_lost(const char *spool, const char *host, const char *live,
    const char *where, char *name, char *path, int manage, time_t now,
    const struct rotate_kernel *k)
{
	char old[4096];
	struct spool_gap g;
	struct ex_err err = { 0 };
	struct stat st;
	int rc;

	snprintf(old, sizeof(old), "%.3800s/%.255s", spool, live);
	if (where != NULL)
		snprintf(g.reason, sizeof(g.reason), "writing to %.480s",
		    where);
	else
		snprintf(g.reason, sizeof(g.reason), "off");
	/* The kernel's last write to the old log: its last record. */
	g.t0_ns = stat(old, &st) == 0 && st.st_size > 0 ?
	    (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec : -1;
	g.t1_ns = (int64_t)now * 1000000000;
	if ((rc = spool_live_clear(spool, "pacct", host, &err)) != EXR_OK)
		return complain(rc, "%s", err.reason);
	if (!manage)
		return complain(EXR_IO, "process accounting was on in %s at "
		    "the last run and is now %s (a reboot, or the acct "
		    "package's restart?): exits are not collected; turn it "
		    "back on into the spool, or set pacct: manage", old,
		    g.reason);
	if ((rc = switch_to(spool, host, name, path, k, 1, now)) != EXR_OK)
		return rc;
	printf("rotate: process accounting was %s, not in %s; switched "
	    "back on into %s (the gap is recorded)\n", g.reason, old, path);
	if ((rc = spool_gap_add(spool, host, &g, &err)) != EXR_OK)
		return complain(rc, "%s", err.reason);
	return EXR_OK;
}

int
rotate_logs(const char *spool, const char *pacct, const char *host,
    const char *acctadm_conf, const char *acctd_pidfile, time_t now,
    const struct rotate_kernel *k, int manage)
{
	static struct spool_log logs[SPOOL_MAX_LOGS];
	char cand[PROBE_MAX][4096], path[4096], name[256], live[256];
	char snap[256];
	const char *newest = NULL;
	struct ex_err err = { 0 };
	int i, n, ncand = 0, rc, at, status = EXR_OK, elsewhere = -1;

	if ((rc = spool_check(spool, &err)) != EXR_OK)
		return complain(rc, "%s", err.reason);
	/* Solaris and illumos: their own tools switch their own logs. */
	if (solaris_tools_present())
		return solaris_rotate(spool, acctadm_conf, host, now);
	if ((n = spool_list(spool, host, logs, SPOOL_MAX_LOGS)) < 0)
		return complain(EXR_IO, "%s: %s", spool, strerror(errno));
	live_log(spool, "pacct", host, live, sizeof(live));

	/*
	 * Where process accounting may go now: the log rotate last moved
	 * it to; then the newest pacct log of the spool not named in the
	 * future, which accounting was moved to by hand (or by an extracct
	 * that kept no state); with neither, where it goes before the
	 * first rotate.  The probe says which, if any, it is.
	 */
	for (i = 0; i < n; i++) {
		if (strcmp(logs[i].kind, "pacct") != 0)
			continue;
		if (!spool_in_future(logs[i].stamp, now))
			newest = logs[i].name;
		else if (live[0] == '\0')
			printf("rotate: %s/%s is named for a time ahead of the "
			    "clock; not taken for the live log\n", spool,
			    logs[i].name);
	}
	if (live[0] != '\0')
		snprintf(cand[ncand++], sizeof(cand[0]), "%.3800s/%.255s",
		    spool, live);
	if (newest != NULL && strcmp(live, newest) != 0)
		snprintf(cand[ncand++], sizeof(cand[0]), "%.3800s/%.255s",
		    spool, newest);
	if (ncand == 0)
		snprintf(cand[ncand++], sizeof(cand[0]), "%s", pacct);
	else if (live[0] != '\0') {
		/* Was it put back where it went before the spool? */
		elsewhere = ncand;
		snprintf(cand[ncand++], sizeof(cand[0]), "%s", pacct);
	}
	spool_name(name, sizeof(name), "pacct", host, now);
	snprintf(path, sizeof(path), "%.3800s/%.255s", spool, name);
	at = accounting_to(k, cand, ncand);
	if (live[0] != '\0' && (at < 0 || at == elsewhere))
		status = pacct_lost(spool, host, live, at < 0 ? NULL :
		    cand[at], name, path, manage, now, k);
	else if (at < 0 && (manage & ROTATE_START)) {
		if ((rc = switch_to(spool, host, name, path, k, 1, now)) !=
		    EXR_OK)
			return rc;
		printf("rotate: process accounting started in %s\n", path);
	} else if (at < 0)
		printf("rotate: process accounting is not writing to %s; "
		    "left alone (rotate never starts it)\n", cand[0]);
	else if (strcmp(cand[at], path) == 0) {
		printf("rotate: accounting already in %s\n", path);
		if (strcmp(live, name) != 0 && (rc = spool_live_set(spool,
		    "pacct", host, name, &err)) != EXR_OK)
			return complain(rc, "%s", err.reason);
	} else {
		if ((rc = switch_to(spool, host, name, path, k, 0, now)) !=
		    EXR_OK)
			return rc;
		printf("rotate: process accounting moved from %s to %s\n",
		    cand[at], path);
	}

	/* The snapshot log: a new one for the snapshots to come, unless
	 * the live one is still empty (closing it would close nothing). */
	live_log(spool, "snap", host, snap, sizeof(snap));
	spool_name(name, sizeof(name), "snap", host, now);
	snprintf(path, sizeof(path), "%.3800s/%.255s", spool, snap);
	if (snap[0] == '\0' || (strcmp(snap, name) != 0 &&
	    size_of(path) > 0)) {
		/* (A log of that name already there is taken as it is.) */
		if ((rc = spool_create(spool, name, &err)) != EXR_OK &&
		    err.sys_errno != EEXIST)
			return complain(rc, "%s", err.reason);
		if ((rc = spool_live_set(spool, "snap", host, name, &err)) !=
		    EXR_OK)
			return complain(rc, "%s", err.reason);
		printf("rotate: snapshots now go to %s/%s\n", spool, name);
	}
	return worst(status, rotate_acctd(spool, host, acctd_pidfile, now));
}

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
	config_hostname(ctx, host, sizeof(host));
	return rotate_logs(spool, pacct, host, conf, acctd_pid, time(NULL),
	    NULL, manage);
}
