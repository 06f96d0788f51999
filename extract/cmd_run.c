/*
 * extracct run [--spool DIR] [--db FILE] [--outdir DIR] [--pacct FILE]
 *     [--retention-days N] [--text-retention-days N] [--no-snap]
 *     [--no-rotate] [--wait SECONDS] [FILE...]
 *
 * The hourly job: snap, rotate, hand every closed log in the spool to
 * ingest (the ledger skips what it already has; oldest first, snapshots
 * before the exits that close their processes), write each one's .txt
 * and .csv into the output directory, then retention.  A log is closed
 * unless extracct switched its kind to it (spool.h), whatever its name.
 * One run at a time: a second finds the spool's lock taken and exits 3.
 *
 * Retention deletes a closed log older than --retention-days only when
 * the ledger says every byte of it is in the database; a text output
 * older than --text-retention-days goes by age alone.
 */
#include <sys/file.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../store/ingest.h"
#include "../store/outfile.h"
#include "cmdopt.h"
#include "config.h"
#include "extracct.h"
#include "paths.h"
#include "solaris.h"
#include "spool.h"

const struct rotate_kernel *run_kernel;

static const struct cmdopt run_options[] = {
	CMDOPT_SPOOL,
	CMDOPT_DB_WRITE,
	{ 'o', "outdir", "DIR", 0,
	    "write the .txt and .csv of each log stored to DIR (default: "
	    "output_dir; none)" },
	CMDOPT_PACCT,
	{ 'R', "retention-days", "N", 0,
	    "delete a closed log N days old once the database holds all of "
	    "it; 0 to 36500 days (default: retention_days, 14)" },
	{ 'T', "text-retention-days", "N", 0,
	    "delete the .txt and .csv of --outdir N days old; 0 to 36500 days "
	    "(default: text_retention_days, 90)" },
	{ 'S', "no-snap", NULL, 0,
	    "take no snapshot (default: take one)" },
	{ 'N', "no-rotate", NULL, 0,
	    "do not rotate (default: rotate)" },
	CMDOPT_WAIT,
	{ 0, NULL, NULL, 0, NULL }
};

const struct cmddoc cmd_run_doc = { "run", "[FILE...]",
    "The hourly job: snap, rotate, ingest every closed log of the spool "
    "and each FILE, then delete what retention allows.", run_options };

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

/*
 * The live logs: per kind, the one extracct switched to (the spool's
 * state); acctd's, the one its pidfile names while it runs.  Every
 * other log is closed, whatever its name says (spool.h).
 */
struct live {
	char		 name[6][256];	/* five kinds' states, acctd's */
	int		 n;
};

static void
live_find(struct live *lv, const char *spool, const char *host,
    const char *acctd_pidfile)
{
	static const char *const kinds[] = { "snap", "pacct", "proc", "task",
	    "flow" };
	struct ex_err err = { 0 };
	size_t i;
	pid_t pid;
	int rc;

	lv->n = 0;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		rc = spool_live_get(spool, kinds[i], host, lv->name[lv->n],
		    sizeof(lv->name[0]), &err);
		if (rc < 0)
			complain(err.code, "%s; taken as no %s log live",
			    err.reason, kinds[i]);
		if (rc == 1)
			lv->n++;
	}
	/* acctd writes what its pidfile says, even if it did not move to
	 * the log rotate recorded for it; while it does not run, none. */
	if (acctd_running(acctd_pidfile, &pid, lv->name[lv->n],
	    sizeof(lv->name[0])) && lv->name[lv->n][0] != '\0')
		lv->n++;
}

static int
is_live(const struct live *lv, const struct spool_log *l)
{
	int i;

	for (i = 0; i < lv->n; i++)
		if (strcmp(lv->name[i], l->name) == 0)
			return 1;
	return 0;
}

/* Delete dir/name if older than days; only_if_ingested asks the ledger. */
static int
retire(struct store *s, const char *dir, const char *name, int days,
    int only_if_ingested, time_t now)
{
	char path[4096];
	struct ex_err err = { 0 };
	struct stat st;
	int done = 1;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (lstat(path, &st) == -1 || !S_ISREG(st.st_mode) ||
	    now - st.st_mtime < (time_t)days * 86400)
		return EXR_OK;
	if (only_if_ingested &&
	    (store_fully_ingested(s, path, &done, &err) != EXR_OK || !done)) {
		printf("retention: keeping %s: not fully ingested\n", path);
		return EXR_OK;
	}
	if (unlink(path) == -1)
		return complain(EXR_IO, "%s: %s", path, strerror(errno));
	printf("retention: removed %s\n", path);
	return EXR_OK;
}

/* ns as "YYYY-MM-DD HH:MM:SS UTC"; < 0: not known. */
static void
utc(char *buf, size_t n, int64_t ns)
{
	time_t t = (time_t)(ns / 1000000000);
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
		if ((rc = store_pacct_gap(s, host, g[i].t0_ns, g[i].t1_ns,
		    g[i].reason, &err)) != EXR_OK)
			return complain(rc, "%s", err.reason);
		char t0[32], t1[32];

		utc(t0, sizeof(t0), g[i].t0_ns);
		utc(t1, sizeof(t1), g[i].t1_ns);
		say(stdout, "pacct: accounting was %s from %s to %s: recorded",
		    g[i].reason, t0, t1);
	}
	if (n > 0 && (rc = spool_gaps_done(spool, host, &err)) != EXR_OK)
		return complain(rc, "%s", err.reason);
	return EXR_OK;
}

/* Text outputs (.txt, .csv) in outdir older than days. */
static int
retire_text(const char *outdir, int days, time_t now)
{
	DIR *d;
	struct dirent *de;
	int status = EXR_OK;

	if (outdir == NULL || (d = opendir(outdir)) == NULL)
		return EXR_OK;
	while ((de = readdir(d)) != NULL) {
		size_t n = strlen(de->d_name);

		if (n > 4 && (strcmp(de->d_name + n - 4, ".txt") == 0 ||
		    strcmp(de->d_name + n - 4, ".csv") == 0))
			status = worst(status, retire(NULL, outdir,
			    de->d_name, days, 0, now));
	}
	closedir(d);
	return status;
}

int
cmd_run(int argc, char **argv, struct ctx *ctx)
{
	struct cmdopt_parser op = { .doc = &cmd_run_doc };
	static struct spool_log logs[SPOOL_MAX_LOGS];
	const char *spool = ctx->cfg->spool_dir, *db = ctx->cfg->database;
	const char *pacct = ctx->cfg->pacct_file;
	const char *outdir = ctx->cfg->output_dir[0] != '\0' ?
	    ctx->cfg->output_dir : NULL;
	uint64_t keep = ctx->cfg->retention_days;
	uint64_t keep_text = ctx->cfg->text_retention_days, n;
	uint64_t wait_s = DB_WAIT_DEFAULT_S;
	int ch, i, nlogs, lock, rc, status = EXR_OK, do_snap = 1;
	int do_rotate = 1;
	char host[256], path[4096], snaplog[4096];
	char **paths;
	int npaths, nspooled = 0, nodd;
	struct ingest_opts io;
	struct ex_err err = { 0 };
	struct store *s;
	struct stat st;
	struct live live;
	time_t now;

	while ((ch = cmdopt_next(&op, argc, argv)) != -1) {
		switch (ch) {
		case 's':	/* the spool directory */
			spool = optarg;
			break;
		case 'd':	/* the database */
			db = optarg;
			break;
		case 'o':	/* .txt and .csv outputs */
			outdir = optarg;
			break;
		case 'p':	/* accounting's file before the first rotate */
			pacct = optarg;
			break;
		case 'R':	/* keep ingested logs this many days */
			if (parse_u64("--retention-days", optarg, 0, 36500,
			    &keep) != EXR_OK)
				return EXR_USAGE;
			break;
		case 'T':	/* keep text outputs this many days */
			if (parse_u64("--text-retention-days", optarg, 0,
			    36500, &keep_text) != EXR_OK)
				return EXR_USAGE;
			break;
		case 'S':	/* no snapshot this time */
			do_snap = 0;
			break;
		case 'N':	/* no rotation this time */
			do_rotate = 0;
			break;
		case 'W':	/* for another writer of the database */
			if (parse_wait(optarg, &wait_s) != EXR_OK)
				return EXR_USAGE;
			break;
		case 'h':
			return cmdopt_help(&cmd_run_doc);
		default:
			return cmdopt_bad(&cmd_run_doc);
		}
	}
	argc -= optind;
	argv += optind;
	config_hostname(ctx, host, sizeof(host));
	if ((rc = spool_check(spool, &err)) != EXR_OK ||
	    (outdir != NULL && (rc = outfile_dir_check("output directory",
	    outdir, &err)) != EXR_OK))
		return complain(rc, "%s", err.reason);
	if ((lock = take_lock(spool)) < 0)
		return lock == -2 ? EXR_LOCKED : EXR_IO;

	/* 1. snap: into the live snapshot log (a new one if none). */
	/* Solaris and illumos: rotate's wracct writes the partial records,
	 * and there is no Linux /proc/stat to read. */
	if (do_snap && solaris_tools_present()) {
		do_snap = 0;
		printf("snap: none (Solaris or illumos: rotate has wracct "
		    "write the partial records)\n");
	}
	if (do_snap) {
		if ((rc = spool_snap_live(spool, host, time(NULL), snaplog,
		    sizeof(snaplog), &err)) != EXR_OK)
			complain(rc, "%s", err.reason);
		else
			rc = snap_write(snaplog, PATH_PROC,
			    ctx->cfg->powercap_dir, ctx->cfg->snap_cpu,
			    ctx->cfg->acctd_pidfile, &n);
		status = worst(status, rc);
		if (rc == EXR_OK)
			printf("snap: %" PRIu64 " processes into %s\n", n,
			    snaplog);
	}
	/* 2. rotate */
	if (do_rotate)
		status = worst(status, rotate_logs(spool, pacct, host,
		    PATH_ACCTADM_CONF, ctx->cfg->acctd_pidfile, time(NULL),
		    run_kernel, ctx->cfg->pacct_manage ? ROTATE_MANAGE : 0));

	/* 3. ingest every closed log, then the operands; a link or FIFO
	 * with a log's name is named and left out. */
	nlogs = spool_list_warn(spool, host, logs, SPOOL_MAX_LOGS, &nodd);
	if (nodd > 0)
		status = worst(status, EXR_DAMAGED);
	live_find(&live, spool, host, ctx->cfg->acctd_pidfile);
	now = time(NULL);
	if ((paths = calloc((size_t)(nlogs > 0 ? nlogs : 0) + (size_t)argc +
	    1, sizeof(*paths))) == NULL) {
		close(lock);
		return complain(EXR_NOMEM, "no memory");
	}
	for (i = 0; i < nlogs; i++) {
		if (is_live(&live, &logs[i]))
			continue;
		snprintf(path, sizeof(path), "%.3800s/%.255s", spool,
		    logs[i].name);
		/* A clock that was wrong named it: no reason to keep it. */
		if (spool_in_future(logs[i].stamp, now))
			complain(EXR_OK, "%s: named for a time ahead of the "
			    "clock, and not a log extracct writes to: read as "
			    "a closed log", path);
		if (lstat(path, &st) == 0 && st.st_size == 0)
			continue;	/* an empty log: nothing to read */
		if ((paths[nspooled] = strdup(path)) != NULL)
			nspooled++;
	}
	npaths = nspooled;
	for (i = 0; i < argc; i++)
		paths[npaths++] = argv[i];
	if (npaths > 0) {
		ingest_opts_config(&io, ctx);
		io.host = host;
		status = worst(status, ingest_logs(db, wait_s, outdir, &io,
		    paths, npaths, nspooled));
	}
	for (i = 0; i < nspooled; i++)
		free(paths[i]);
	free(paths);

	/*
	 * 4. retention.  Not of the logs if another writer kept the
	 * database past the wait: the ledger cannot be asked without
	 * waiting as long again, and a log kept is never a loss.
	 */
	now = time(NULL);
	if (status == EXR_BUSY)
		printf("retention: logs kept: the database is busy\n");
	else if ((rc = store_open(&s, db, wait_s * 1000, &err)) != EXR_OK) {
		status = worst(status, complain(rc, "%s: %s", db, err.reason));
	} else {
		status = worst(status, store_gaps(s, spool, host));
		for (i = 0; i < nlogs; i++)
			if (!is_live(&live, &logs[i]))
				status = worst(status, retire(s, spool,
				    logs[i].name, (int)keep, 1, now));
		store_close(s);
	}
	status = worst(status, retire_text(outdir, (int)keep_text, now));
	close(lock);
	return status;
}
