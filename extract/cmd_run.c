/*
 * extracct run [--spool DIR] [--db FILE] [--outdir DIR] [--pacct FILE]
 *     [--retention-days N] [--text-retention-days N] [--no-snap]
 *     [--no-rotate] [FILE...]
 *
 * The hourly job: snap, rotate, hand every closed log in the spool to
 * ingest (the ledger skips what it already has; oldest first, snapshots
 * before the exits that close their processes), write each one's .txt
 * and .csv into the output directory, then retention.  One run at a time: a second
 * finds the spool's lock taken and exits 3.
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
#include "config.h"
#include "extracct.h"
#include "paths.h"
#include "solaris.h"
#include "spool.h"

static const char usage_run[] =
    "usage: extracct run [--spool DIR] [--db FILE] [--outdir DIR] "
    "[--pacct FILE] [--retention-days N] [--text-retention-days N] "
    "[--no-snap] [--no-rotate] [FILE...]";

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

/* The newest log of its kind is live (still written); the others closed. */
static int
is_live(const struct spool_log *logs, int nlogs, int i)
{
	int j;

	for (j = i + 1; j < nlogs; j++)
		if (strcmp(logs[j].kind, logs[i].kind) == 0)
			return 0;
	return 1;
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
	static const struct option longopts[] = {
		{ "spool", required_argument, NULL, 's' },
		{ "db", required_argument, NULL, 'd' },
		{ "outdir", required_argument, NULL, 'o' },
		{ "pacct", required_argument, NULL, 'p' },
		{ "retention-days", required_argument, NULL, 'R' },
		{ "text-retention-days", required_argument, NULL, 'T' },
		{ "no-snap", no_argument, NULL, 'S' },
		{ "no-rotate", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static struct spool_log logs[SPOOL_MAX_LOGS];
	const char *spool = ctx->cfg->spool_dir, *db = ctx->cfg->database;
	const char *pacct = ctx->cfg->pacct_file;
	const char *outdir = ctx->cfg->output_dir[0] != '\0' ?
	    ctx->cfg->output_dir : NULL;
	uint64_t keep = ctx->cfg->retention_days;
	uint64_t keep_text = ctx->cfg->text_retention_days, n;
	int ch, i, nlogs, lock, rc, status = EXR_OK, do_snap = 1;
	int do_rotate = 1;
	char host[256], path[4096], snaplog[4096];
	char **paths;
	int npaths, nspooled = 0, nodd;
	struct ingest_opts io;
	struct ex_err err = { 0 };
	struct store *s;
	struct stat st;
	time_t now;

	while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
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
		case 'h':
			puts(usage_run);
			return EXR_OK;
		default:
			return complain(EXR_USAGE, "%s", usage_run);
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

	/* 1. snap: into the live snapshot log (the newest; one if none). */
	nlogs = spool_list(spool, host, logs, SPOOL_MAX_LOGS);
	/* Solaris and illumos: rotate's wracct writes the partial records,
	 * and there is no Linux /proc/stat to read. */
	if (do_snap && solaris_tools_present()) {
		do_snap = 0;
		printf("snap: none (Solaris or illumos: rotate has wracct "
		    "write the partial records)\n");
	}
	if (do_snap) {
		snaplog[0] = '\0';
		for (i = 0; i < nlogs; i++)
			if (strcmp(logs[i].kind, "snap") == 0)
				snprintf(snaplog, sizeof(snaplog), "%.3800s/%.255s",
				    spool, logs[i].name);
		if (snaplog[0] == '\0') {
			char name[256];

			spool_name(name, sizeof(name), "snap", host,
			    time(NULL));
			snprintf(snaplog, sizeof(snaplog), "%.3800s/%.255s", spool,
			    name);
		}
		rc = snap_write(snaplog, PATH_PROC, ctx->cfg->powercap_dir,
		    ctx->cfg->snap_cpu, ctx->cfg->acctd_pidfile, &n);
		status = worst(status, rc);
		if (rc == EXR_OK)
			printf("snap: %" PRIu64 " processes into %s\n", n,
			    snaplog);
	}
	/* 2. rotate */
	if (do_rotate)
		status = worst(status, rotate_logs(spool, pacct, host,
		    PATH_ACCTADM_CONF, ctx->cfg->acctd_pidfile));

	/* 3. ingest every closed log, then the operands; a link or FIFO
	 * with a log's name is named and left out. */
	nlogs = spool_list_warn(spool, host, logs, SPOOL_MAX_LOGS, &nodd);
	if (nodd > 0)
		status = worst(status, EXR_DAMAGED);
	if ((paths = calloc((size_t)(nlogs > 0 ? nlogs : 0) + (size_t)argc +
	    1, sizeof(*paths))) == NULL) {
		close(lock);
		return complain(EXR_NOMEM, "no memory");
	}
	for (i = 0; i < nlogs; i++) {
		if (is_live(logs, nlogs, i))
			continue;
		snprintf(path, sizeof(path), "%.3800s/%.255s", spool,
		    logs[i].name);
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
		status = worst(status, ingest_logs(db, outdir, &io, paths,
		    npaths));
	}
	for (i = 0; i < nspooled; i++)
		free(paths[i]);
	free(paths);

	/* 4. retention */
	now = time(NULL);
	if ((rc = store_open(&s, db, &err)) != EXR_OK) {
		status = worst(status, complain(rc, "%s: %s", db, err.reason));
	} else {
		for (i = 0; i < nlogs; i++)
			if (!is_live(logs, nlogs, i))
				status = worst(status, retire(s, spool,
				    logs[i].name, (int)keep, 1, now));
		store_close(s);
	}
	status = worst(status, retire_text(outdir, (int)keep_text, now));
	close(lock);
	return status;
}
