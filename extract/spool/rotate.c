/*
 * Rotation (rotate.h): acctadm -f for Linux.  Switch kernel process
 * accounting to a new date-stamped file in the spool with acct(2) (the
 * kernel swaps files atomically: no record is lost), start a new
 * snapshot log, and move acctd (if it runs) to a new log; each new log
 * is recorded as the live one of its kind (spool.h), which is what the
 * next rotate, snap, run and acctd go by.  Only moves accounting that
 * is already on, unless the configuration says pacct: manage and it
 * went off since the last rotate (a reboot, the acct package's
 * restart), or --start is given (the boot unit,
 * extracct-accton.service).  Where acctadm and wracct are on PATH
 * (Solaris, illumos), it drives them instead (solaris.c).
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../parsers/records.h"
#include "acctd_pidfile.h"
#include "../util.h"
#include "rotate.h"
#include "solaris.h"
#include "spool.h"

/* acct(2) is in no standard: Linux, illumos and the BSDs all declare it
 * in <unistd.h>, which hides it from a strict POSIX build. */
int	acct(const char *);

/* The stand-in kernel of extracct-test run; NULL: the real one. */
const struct rotate_kernel *run_kernel;

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
live_log(const struct spool *sp, enum spool_kind k, char *name, size_t n)
{
	struct ex_err err = { 0 };

	if (spool_live_get(sp, k, name, n, &err) < 0) {
		complain(err.code, "%s; taken as no %s log live", err.reason,
		    spool_kind_names[k]);
		name[0] = '\0';
	}
}

/*
 * Switch acctd to a new log: create it, SIGHUP acctd (it opens the
 * newest acctd log; exits queue in its socket meanwhile), and wait until
 * its pidfile names the new log, so the old one is closed when run
 * ingests it.
 */
static int
rotate_acctd(struct spool *sp, const char *pidfile, time_t now)
{
	const char *spool = sp->dir;
	char current[256], name[256];
	struct ex_err err = { 0 };
	pid_t pid;
	int i, rc;

	switch (acctd_pidfile_running(pidfile, &pid, current,
	    sizeof(current), &err)) {
	case -1:
		return complain(err.code, "%s; no signal sent", err.reason);
	case 0:
		return EXR_OK;
	}
	spool_name(name, sizeof(name), "acctd", sp->host, now);
	if (strcmp(current, name) == 0) {
		printf("rotate: acctd already writes %s/%s\n", spool, name);
		return EXR_OK;
	}
	if ((rc = spool_create(sp, name, &err)) != EXR_OK &&
	    err.sys_errno != EEXIST)
		return complain(rc, "%s", err.reason);
	/* acctd opens the log the state names (cmd_acctd.c). */
	if ((rc = spool_live_set(sp, SPOOL_ACCTD, name, &err)) != EXR_OK)
		return complain(rc, "%s", err.reason);
	if (kill(pid, SIGHUP) == -1)
		return complain(EXR_IO, "acctd (pid %ld): %s", (long)pid,
		    strerror(errno));
	for (i = 0; i < 500; i++) {	/* 5 s */
		if (acctd_pidfile_running(pidfile, &pid, current,
		    sizeof(current), &err) == 1 &&
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
switch_to(struct spool *sp, char *name, char *path,
    const struct rotate_kernel *k, int fresh, time_t now)
{
	struct ex_err err = { 0 };
	int i, rc;

	/*
	 * fresh: the log accounting just left may have the name for now
	 * (it went off within the minute it was switched): the next
	 * minute's name, then the next, rather than no log at all.
	 */
	for (i = 1; (rc = spool_create(sp, name, &err)) != EXR_OK &&
	    fresh && err.sys_errno == EEXIST && i < 60; i++) {
		spool_name(name, 256, "pacct", sp->host, now + 60 * i);
		spool_path(sp, name, path, 4096);
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
	if ((rc = spool_live_set(sp, SPOOL_PACCT, name, &err)) != EXR_OK)
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
pacct_lost(struct spool *sp, const char *live, const char *where,
    char *name, char *path, int manage, time_t now,
    const struct rotate_kernel *k)
{
	char old[4096];
	struct spool_gap g;
	struct ex_err err = { 0 };
	struct stat st;
	int rc;

	spool_path(sp, live, old, sizeof(old));
	if (where != NULL)
		snprintf(g.reason, sizeof(g.reason), "writing to %.480s",
		    where);
	else
		snprintf(g.reason, sizeof(g.reason), "off");
	/* The kernel's last write to the old log: its last record. */
	g.t0_ns = stat(old, &st) == 0 && st.st_size > 0 ?
	    (int64_t)st.st_mtim.tv_sec * NS_I64 + st.st_mtim.tv_nsec : -1;
	g.t1_ns = (int64_t)now * NS_I64;
	if ((rc = spool_live_clear(sp, SPOOL_PACCT, &err)) != EXR_OK)
		return complain(rc, "%s", err.reason);
	if (!manage)
		return complain(EXR_IO, "process accounting was on in %s at "
		    "the last run and is now %s (a reboot, or the acct "
		    "package's restart?): exits are not collected; turn it "
		    "back on into the spool, or set pacct: manage", old,
		    g.reason);
	if ((rc = switch_to(sp, name, path, k, 1, now)) != EXR_OK)
		return rc;
	printf("rotate: process accounting was %s, not in %s; switched "
	    "back on into %s (the gap is recorded)\n", g.reason, old, path);
	if ((rc = spool_gap_add(sp->dir, sp->host, &g, &err)) != EXR_OK)
		return complain(rc, "%s", err.reason);
	return EXR_OK;
}

int
rotate_logs(const char *dir, const char *pacct, const char *host,
    const char *acctadm_conf, const char *acctd_pidfile, time_t now,
    const struct rotate_kernel *k, int manage)
{
	struct spool sp;
	struct ex_err err = { 0 };
	int rc;

	if ((rc = spool_check(dir, &err)) != EXR_OK ||
	    (rc = spool_open(&sp, dir, host, SPOOL_LIST, &err)) != EXR_OK)
		return complain(rc, "%s", err.reason);
	rc = rotate_spool(&sp, pacct, acctadm_conf, acctd_pidfile, now, k,
	    manage);
	spool_close(&sp);
	return rc;
}

int
rotate_spool(struct spool *sp, const char *pacct, const char *acctadm_conf,
    const char *acctd_pidfile, time_t now, const struct rotate_kernel *k,
    int manage)
{
	const char *spool = sp->dir, *newest;
	char cand[PROBE_MAX][4096], path[4096], name[256], live[256];
	char snap[256];
	struct ex_err err = { 0 };
	size_t i;
	int ncand = 0, rc, at, status = EXR_OK, elsewhere = -1;

	/* Solaris and illumos: their own tools switch their own logs. */
	if (solaris_tools_present())
		return solaris_rotate(sp, acctadm_conf, now);
	live_log(sp, SPOOL_PACCT, live, sizeof(live));

	/*
	 * Where process accounting may go now: the log rotate last moved
	 * it to; then the newest pacct log of the spool not named in the
	 * future, which accounting was moved to by hand (or by an extracct
	 * that kept no state); with neither, where it goes before the
	 * first rotate.  The probe says which, if any, it is.
	 */
	for (i = 0; live[0] == '\0' && i < sp->nlogs; i++)
		if (sp->logs[i].k == SPOOL_PACCT &&
		    spool_in_future(sp->logs[i].stamp, now))
			printf("rotate: %s/%s is named for a time ahead of the "
			    "clock; not taken for the live log\n", spool,
			    sp->logs[i].name);
	newest = spool_newest(sp, SPOOL_PACCT, now);
	if (live[0] != '\0')
		spool_path(sp, live, cand[ncand++], sizeof(cand[0]));
	/* (newest points into sp: used before the switch changes it.) */
	if (newest != NULL && strcmp(live, newest) != 0)
		spool_path(sp, newest, cand[ncand++], sizeof(cand[0]));
	newest = NULL;
	if (ncand == 0)
		snprintf(cand[ncand++], sizeof(cand[0]), "%s", pacct);
	else if (live[0] != '\0') {
		/* Was it put back where it went before the spool? */
		elsewhere = ncand;
		snprintf(cand[ncand++], sizeof(cand[0]), "%s", pacct);
	}
	spool_name(name, sizeof(name), "pacct", sp->host, now);
	spool_path(sp, name, path, sizeof(path));
	at = accounting_to(k, cand, ncand);
	if (live[0] != '\0' && (at < 0 || at == elsewhere))
		status = pacct_lost(sp, live, at < 0 ? NULL : cand[at], name,
		    path, manage, now, k);
	else if (at < 0 && (manage & ROTATE_START)) {
		if ((rc = switch_to(sp, name, path, k, 1, now)) != EXR_OK)
			return rc;
		printf("rotate: process accounting started in %s\n", path);
	} else if (at < 0)
		printf("rotate: process accounting is not writing to %s; "
		    "left alone (rotate never starts it)\n", cand[0]);
	else if (strcmp(cand[at], path) == 0) {
		printf("rotate: accounting already in %s\n", path);
		if (strcmp(live, name) != 0 && (rc = spool_live_set(sp,
		    SPOOL_PACCT, name, &err)) != EXR_OK)
			return complain(rc, "%s", err.reason);
	} else {
		if ((rc = switch_to(sp, name, path, k, 0, now)) != EXR_OK)
			return rc;
		printf("rotate: process accounting moved from %s to %s\n",
		    cand[at], path);
		/* From where it went before the spool: what it wrote there
		 * is closed now, and run reads it too. */
		if (strcmp(cand[at], pacct) == 0)
			snprintf(sp->pacct_from, sizeof(sp->pacct_from), "%s",
			    pacct);
	}

	/* The snapshot log: a new one for the snapshots to come, unless
	 * the live one is still empty (closing it would close nothing). */
	live_log(sp, SPOOL_SNAP, snap, sizeof(snap));
	spool_name(name, sizeof(name), "snap", sp->host, now);
	spool_path(sp, snap, path, sizeof(path));
	if (snap[0] == '\0' || (strcmp(snap, name) != 0 &&
	    size_of(path) > 0)) {
		/* (A log of that name already there is taken as it is.) */
		if ((rc = spool_create(sp, name, &err)) != EXR_OK &&
		    err.sys_errno != EEXIST)
			return complain(rc, "%s", err.reason);
		if ((rc = spool_live_set(sp, SPOOL_SNAP, name, &err)) !=
		    EXR_OK)
			return complain(rc, "%s", err.reason);
		printf("rotate: snapshots now go to %s/%s\n", spool, name);
	}
	return ex_worst(status, rotate_acctd(sp, acctd_pidfile, now));
}
