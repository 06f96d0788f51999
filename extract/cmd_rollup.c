/*
 * extracct rollup --rebuild|--expire [--db FILE] [--wait SECONDS]
 *
 * Build the rollups (store/rollup.h) again from the intervals, in one
 * transaction behind the writer's lock.  Ingest keeps them up to date,
 * so this is for a rollup thought wrong, or after an interval table was
 * changed by hand.  Hours whose intervals retention has deleted
 * (v_expiry) keep their rollup rows: nothing is left to build them from.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "../store/db.h"
#include "../store/expire.h"
#include "../store/ingest.h"
#include "../store/rollup.h"
#include "cmdopt.h"
#include "config.h"
#include "cmd.h"
#include "util.h"
#include "ingest_logs.h"
#include "paths.h"
#include "spool/retention.h"

static const struct cmdopt rollup_options[] = {
	{ 'r', "rebuild", NULL, 0,
	    "build every rollup row again from the intervals (this or "
	    "--expire is required)" },
	{ 'x', "expire", NULL, 0,
	    "apply the database's retention now, as run does "
	    "(keep_intervals_days, keep_rollups_months; this or --rebuild is required)" },
	{ 'd', "db", "FILE", 0,
	    "the database, which must exist (default: the configuration's "
	    "database, " PATH_DB ")" },
	CMDOPT_WAIT,
	{ 0, NULL, NULL, 0, NULL }
};

const struct cmddoc cmd_rollup_doc = { "rollup",
    "rebuild the rollups (--rebuild), or apply retention (--expire)", NULL,
    "Build the hourly and daily rollups again from the intervals, "
    "identically to what ingest kept (--rebuild), or apply the database's "
    "retention (--expire).", rollup_options };

int
cmd_rollup(int argc, char **argv, struct ctx *ctx)
{
	struct cmdopt_parser op = { .doc = &cmd_rollup_doc };
	struct ex_err err = { 0 };
	struct store *s;
	const char *db = ctx->cfg->database;
	uint64_t wait_s = DB_WAIT_DEFAULT_S;
	int64_t from_s;
	int ch, rc, rebuild = 0, expire = 0;

	while ((ch = cmdopt_next(&op, argc, argv)) != -1) {
		switch (ch) {
		case 'r':	/* build again */
			rebuild = 1;
			break;
		case 'x':	/* retention, as run applies it */
			expire = 1;
			break;
		case 'd':	/* the database */
			db = optarg;
			break;
		case 'W':	/* for another writer */
			if (parse_wait(optarg, &wait_s) != EXR_OK)
				return EXR_USAGE;
			break;
		case 'h':
			return cmdopt_help(&cmd_rollup_doc);
		default:
			return cmdopt_bad(&cmd_rollup_doc);
		}
	}
	if (optind != argc || rebuild == expire)
		return cmdopt_bad(&cmd_rollup_doc);
	/* run expires only after its push; alone, nothing would keep an
	 * ingest from coming between a push and the expiry. */
	if (expire && ctx->cfg->central[0] != '\0')
		return complain(EXR_USAGE, "rollup --expire: a central server "
		    "is configured: run expires the database, after its push "
		    "(only what the central server has may expire)");
	/* It works on what ingest made: a name mistyped creates nothing. */
	if (access(db, F_OK) != 0 && errno == ENOENT)
		return complain(EXR_DB, "rollup: %s: no such database (rollup "
		    "rebuilds or expires a database ingest made; --db FILE "
		    "names it): nothing created", db);
	if ((rc = ingest_open(&s, db, wait_s, ctx)) != EXR_OK)
		return rc;
	if (expire) {
		rc = retention_db(s, db, ctx->cfg->keep_intervals_days,
		    ctx->cfg->keep_rollups_months, time(NULL));
		store_close(s);
		return rc;
	}
	if ((rc = expire_rebuild_from(store_db(s), &from_s, &err)) ==
	    EXR_OK && (rc = db_exec(store_db(s), "BEGIN IMMEDIATE", &err)) ==
	    EXR_OK) {
		if ((rc = rollup_rebuild(store_db(s), from_s, &err)) == EXR_OK)
			rc = db_exec(store_db(s), "COMMIT", &err);
		if (rc != EXR_OK)
			(void)sqlite3_exec(store_db(s), "ROLLBACK", NULL, NULL,
			    NULL);
	}
	store_close(s);
	if (rc != EXR_OK)
		return complain(rc, "%s: %s", db, err.reason);
	say(stdout, "rollup: %s: rebuilt from the intervals", db);
	return EXR_OK;
}
