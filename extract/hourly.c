/*
 * The hourly job (hourly.h), the steps run takes in order:
 *
 *   1. snap: a snapshot into the live snapshot log (a new one if none);
 *   2. rotate: accounting, the snapshot log and acctd on to new logs;
 *   3. ingest every closed log of the spool (the ledger skips what it
 *      already has; oldest first, snapshots before the exits that close
 *      their processes), then the operands, writing each one's .txt and
 *      .csv into the output directory;
 *   4. retention: the gaps rotate found into the database, then the
 *      closed logs the database holds whole, and old text outputs;
 *   5. push, when the configuration names a central server: the
 *      database's facts that central lacks (fleet/push.h).  A server
 *      that is down fails this step (exit status 5): the facts stay in
 *      the database, and the next run sends them;
 *   6. the database's own retention (keep_intervals_days,
 *      keep_rollups_months: store/expire.h), with a central server
 *      only after the push of this run succeeded, still under the
 *      spool's lock (no ingest comes between): so expiry never deletes
 *      a fact central has not got.  After a failed push it is skipped,
 *      and says so.
 *
 * The systemd units split the job (hourly.h, HOURLY_PUSH_*): the run's
 * sandbox has no network, so its run --no-push leaves steps 5 and 6 to
 * the push unit's run --push-only, which takes the same lock.
 *
 * Accounting that rotate moved into the spool from the pacct file (the
 * first run; accounting started by the acct package) leaves what it
 * wrote there in that file, closed: it is ingested with the spool's
 * closed logs, or those exits would never be read.
 *
 * A log is closed unless extracct switched its kind to it (spool.h),
 * whatever its name; acctd's is the one its pidfile names while it
 * runs.  The spool is listed once, before the first step, and the
 * snapshot and rotation change that listing as they change the spool
 * (a log rotate closes is ingested in the same run); the store is
 * opened once, for ingest and retention both.
 */
#include <sys/file.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../parsers/records.h"
#include "../store/ingest.h"
#include "../store/outfile.h"
#include "spool/acctd_pidfile.h"
#include "config.h"
#include "cmd.h"
#include "util.h"
#include "hourly.h"
#include "ingest_logs.h"
#include "paths.h"
#include "spool/retention.h"
#include "spool/rotate.h"
#include "linux/snapshot.h"
#include "spool/solaris.h"
#include "spool/spool.h"

static int	take_lock(const char *spool);
static int	step_snap(struct spool *sp, const struct ctx *ctx);
static int	find_live(struct spool *sp, const char *acctd_pidfile);
static char	**closed_logs(const struct spool *sp, char *const *files,
		    int nfiles, int *npaths, int *nclosed);
static int	store_gaps(struct store *s, const char *spool,
		    const char *host);
static int	push_only(const struct hourly *h, const struct ctx *ctx);

int
hourly_run(const struct hourly *h, const struct ctx *ctx)
{
	char host[256];
	char **paths;
	int i, lock, rc, status = EXR_OK, npaths, nclosed, expire;
	struct ingest_opts io;
	struct ex_err err = { 0 };
	struct store *s = NULL;
	struct spool sp;
	size_t j;
	time_t now;

	config_hostname(ctx->cfg, host, sizeof(host));
	if ((rc = spool_check(h->spool, &err)) != EXR_OK ||
	    (h->outdir != NULL && (rc = outfile_dir_check("output directory",
	    h->outdir, &err)) != EXR_OK))
		return complain(rc, "%s", err.reason);
	if ((lock = take_lock(h->spool)) < 0)
		return lock == -2 ? EXR_LOCKED : EXR_IO;
	if (h->push == HOURLY_PUSH_ONLY) {
		rc = push_only(h, ctx);
		close(lock);
		return rc;
	}
	if ((rc = spool_open(&sp, h->spool, host, SPOOL_LIST, &err)) !=
	    EXR_OK) {
		close(lock);
		return complain(rc, "%s", err.reason);
	}

	/* 1. snap; 2. rotate. */
	if (h->snap)
		status = ex_worst(status, step_snap(&sp, ctx));
	if (h->rotate)
		status = ex_worst(status, rotate_spool(&sp, h->pacct,
		    PATH_ACCTADM_CONF, ctx->cfg->acctd_pidfile, time(NULL),
		    run_kernel, ctx->cfg->pacct_manage ? ROTATE_MANAGE : 0));

	/* 3. ingest every closed log, then the operands; a link or FIFO
	 * with a log's name is named and left out. */
	for (j = 0; j < sp.nodd; j++)
		say(stderr, "extracct: %s/%s: %s, not a log; skipped",
		    h->spool, sp.odd[j].name, sp.odd[j].what);
	if (sp.nodd > 0)
		status = ex_worst(status, EXR_DAMAGED);
	status = ex_worst(status, find_live(&sp, ctx->cfg->acctd_pidfile));
	if ((paths = closed_logs(&sp, h->files, h->nfiles, &npaths,
	    &nclosed)) == NULL) {
		spool_close(&sp);
		close(lock);
		return complain(EXR_NOMEM, "no memory");
	}
	if (npaths > 0) {
		ingest_opts_config(&io, ctx);
		io.host = host;
		io.own_host = 1;	/* the spool is this machine's */
		if ((rc = ingest_open(&s, h->db, h->wait_s, ctx)) == EXR_OK)
			rc = ingest_logs(s, h->db, h->outdir, &io, paths,
			    npaths, nclosed);
		status = ex_worst(status, rc);
	}
	for (i = 0; i < nclosed; i++)
		free(paths[i]);
	free(paths);

	/*
	 * 4. retention.  Not of the logs if another writer kept the
	 * database past the wait: the ledger cannot be asked without
	 * waiting as long again, and a log kept is never a loss.  With
	 * nothing to ingest the store is opened here; where ingest's open
	 * failed otherwise (no store was opened), once more, as run always
	 * has: the second message is retention's.
	 */
	now = time(NULL);
	expire = 0;
	if (status == EXR_BUSY)
		printf("retention: logs kept: the database is busy\n");
	else if (s == NULL && (rc = store_open(&s, h->db, h->wait_s * 1000,
	    &err)) != EXR_OK)
		status = ex_worst(status, complain(rc, "%s: %s", h->db,
		    err.reason));
	else {
		ingest_self(s, ctx);
		status = ex_worst(status, store_gaps(s, h->spool, host));
		status = ex_worst(status, retention_logs(s, &sp, (int)h->keep_days,
		    now));
		expire = h->keep_intervals_days > 0 || h->keep_rollups_months > 0;
	}
	status = ex_worst(status, retention_text(h->outdir,
	    (int)h->keep_text_days, now));
	/* 5. push, still under the spool's lock: one run's at a time. */
	rc = EXR_OK;
	if (ctx->cfg->central[0] != '\0' && h->push == HOURLY_NO_PUSH) {
		/* The run's unit has no network: the push unit's run
		 * --push-only pushes, then expires. */
		printf("push: left to run --push-only, and with it the "
		    "database's expiry\n");
		expire = 0;
	} else if (ctx->cfg->central[0] != '\0')
		status = ex_worst(status, rc = push_run(h->db, ctx->cfg->central,
		    ctx->cfg->private_file));
	/* 6. expiry: only what central has (the comment at the top). */
	if (expire && rc != EXR_OK)
		printf("retention: %s: nothing expired: the push failed, and "
		    "only what the central server has may expire\n", h->db);
	else if (expire)
		status = ex_worst(status, retention_db(s, h->db,
		    h->keep_intervals_days, h->keep_rollups_months, now));
	store_close(s);
	spool_close(&sp);
	close(lock);
	return status;
}

/* Take the spool's lock, or say who has it; returns the fd or -1. */
static int
take_lock(const char *spool)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/.lock", spool);
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd == -1) {
		complain(EXR_IO, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) == -1) {
		complain(EXR_LOCKED, "another extracct run holds %s; exiting",
		    path);
		close(fd);
		return -2;
	}
	return fd;
}

/* 1. A snapshot into the live snapshot log (a new one if none). */
static int
step_snap(struct spool *sp, const struct ctx *ctx)
{
	char snaplog[4096];
	struct ex_err err = { 0 };
	uint64_t n;
	int rc;

	/* Solaris and illumos: rotate's wracct writes the partial records,
	 * and there is no Linux /proc/stat to read. */
	if (solaris_tools_present()) {
		printf("snap: none (Solaris or illumos: rotate has wracct "
		    "write the partial records)\n");
		return EXR_OK;
	}
	if ((rc = spool_snap_live(sp, time(NULL), snaplog, sizeof(snaplog),
	    &err)) != EXR_OK)
		return complain(rc, "%s", err.reason);
	rc = snap_write(snaplog, PATH_PROC, ctx->cfg->powercap_dir,
	    ctx->cfg->snap_cpu, 1, ctx->cfg->acctd_pidfile, &n);
	/* The log snap_write created, if it did: rotate may close it. */
	if (spool_add(sp, sp->live[SPOOL_SNAP]) != EXR_OK)
		rc = ex_worst(rc, complain(EXR_NOMEM, "no memory"));
	if (rc == EXR_OK)
		printf("snap: %" PRIu64 " processes into %s\n", n, snaplog);
	return rc;
}

/*
 * The live logs, per kind the one extracct switched to (the spool's
 * state, as rotate left it); acctd's, the one its pidfile names while
 * it runs: acctd writes that, even if it did not move to the log rotate
 * recorded for it, and while it does not run, none.  EXR_OK, or the
 * code of a pidfile not believed (complained).
 */
static int
find_live(struct spool *sp, const char *acctd_pidfile)
{
	static const enum spool_kind kinds[] = { SPOOL_SNAP, SPOOL_PACCT,
	    SPOOL_PROC, SPOOL_TASK, SPOOL_FLOW };
	char name[256], current[256];
	struct ex_err err;
	size_t i;
	pid_t pid;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (spool_live_get(sp, kinds[i], name, sizeof(name), &err) < 0)
			complain(err.code, "%s; taken as no %s log live",
			    err.reason, spool_kind_names[kinds[i]]);
	switch (acctd_pidfile_running(acctd_pidfile, &pid, current,
	    sizeof(current), &err)) {
	case -1:
		/* The log rotate last moved acctd to stays unread. */
		return complain(err.code, "%s; acctd's live log taken from "
		    "the spool's state", err.reason);
	case 0:
		current[0] = '\0';
		break;
	}
	spool_live_note(sp, SPOOL_ACCTD, current);
	return EXR_OK;
}

/*
 * The paths to ingest: the spool's closed logs that hold something
 * (*nclosed of them, allocated), then files (not copied).  NULL: no
 * memory.
 */
static char **
closed_logs(const struct spool *sp, char *const *files, int nfiles,
    int *npaths, int *nclosed)
{
	char path[4096];
	char **paths;
	struct stat st;
	time_t now = time(NULL);
	size_t i;
	int j;

	*npaths = *nclosed = 0;
	if ((paths = calloc(sp->nlogs + (size_t)nfiles + 2,
	    sizeof(*paths))) == NULL)
		return NULL;
	for (i = 0; i < sp->nlogs; i++) {
		const struct spool_log *l = &sp->logs[i];

		if (spool_is_live(sp, l))
			continue;
		spool_path(sp, l->name, path, sizeof(path));
		/* A clock that was wrong named it: no reason to keep it. */
		if (spool_in_future(l->stamp, now))
			complain(EXR_OK, "%s: named for a time ahead of the "
			    "clock, and not a log extracct writes to: read as "
			    "a closed log", path);
		if (lstat(path, &st) == 0 && st.st_size == 0)
			continue;	/* an empty log: nothing to read */
		if ((paths[*nclosed] = strdup(path)) != NULL)
			(*nclosed)++;
	}
	/* Where accounting wrote before rotate moved it into the spool
	 * (the first run, or the acct package's file): closed now, and
	 * never read otherwise.  The ledger reads only what is new. */
	if (sp->pacct_from[0] != '\0' && lstat(sp->pacct_from, &st) == 0 &&
	    S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (paths[*nclosed] = strdup(sp->pacct_from)) != NULL)
		(*nclosed)++;
	*npaths = *nclosed;
	for (j = 0; j < nfiles; j++)
		paths[(*npaths)++] = files[j];
	return paths;
}

/* ns as "YYYY-MM-DD HH:MM:SS UTC"; < 0: not known. */
static void
utc(char *buf, size_t n, int64_t ns)
{
	time_t t = (time_t)(ns / NS_I64);
	struct tm tm;

	if (ns < 0 || gmtime_r(&t, &tm) == NULL ||
	    strftime(buf, n, "%Y-%m-%d %H:%M:%S UTC", &tm) == 0)
		snprintf(buf, n, "an unknown time");
}

/*
 * The stretches rotate found process accounting off and switched it
 * back on (spool.h): into the database, then out of the spool.
 */
static int
store_gaps(struct store *s, const char *spool, const char *host)
{
	static struct spool_gap g[SPOOL_MAX_GAPS];
	struct ex_err err = { 0 };
	int i, n, rc;

	if ((n = spool_gaps_read(spool, host, g, SPOOL_MAX_GAPS, &err)) < 0)
		return complain(err.code, "%s", err.reason);
	for (i = 0; i < n; i++) {
		char t0[32], t1[32];

		if ((rc = store_pacct_gap(s, host, g[i].t0_ns, g[i].t1_ns,
		    g[i].reason, &err)) != EXR_OK)
			return complain(rc, "%s", err.reason);
		utc(t0, sizeof(t0), g[i].t0_ns);
		utc(t1, sizeof(t1), g[i].t1_ns);
		say(stdout, "pacct: accounting was %s from %s to %s: recorded",
		    g[i].reason, t0, t1);
	}
	if (n > 0 && (rc = spool_gaps_done(spool, host, &err)) != EXR_OK)
		return complain(rc, "%s", err.reason);
	return EXR_OK;
}

/*
 * run --push-only, under the spool's lock: steps 5 and 6 alone, for
 * the unit that may reach the network (extracct-push.service) after
 * the sandboxed run --no-push.  Without a central server there is
 * nothing to do: that run expired.
 */
static int
push_only(const struct hourly *h, const struct ctx *ctx)
{
	struct ex_err err = { 0 };
	struct store *s = NULL;
	int rc;

	if (ctx->cfg->central[0] == '\0') {
		printf("push: no central server configured; nothing to do\n");
		return EXR_OK;
	}
	if ((rc = push_run(h->db, ctx->cfg->central,
	    ctx->cfg->private_file)) != EXR_OK) {
		if (h->keep_intervals_days > 0 || h->keep_rollups_months > 0)
			printf("retention: %s: nothing expired: the push "
			    "failed, and only what the central server has may "
			    "expire\n", h->db);
		return rc;
	}
	if (h->keep_intervals_days == 0 && h->keep_rollups_months == 0)
		return EXR_OK;
	if ((rc = store_open(&s, h->db, h->wait_s * 1000, &err)) != EXR_OK)
		return complain(rc, "%s: %s", h->db, err.reason);
	rc = retention_db(s, h->db, h->keep_intervals_days,
	    h->keep_rollups_months, time(NULL));
	store_close(s);
	return rc;
}
