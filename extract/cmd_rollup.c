/*
 * extracct rollup --rebuild [--db FILE] [--wait SECONDS]
 *
 * Build the rollups (store/rollup.h) again from the intervals, in one
 * transaction behind the writer's lock.  Ingest keeps them up to date,
 * so this is for a rollup thought wrong, or after an interval table was
 * changed by hand.  Hours whose intervals retention has deleted
 * (v_expiry) keep their rollup rows: nothing is left to build them from.
 */
#include <stdint.h>
#include <stdio.h>

#include "../store/db.h"
#include "../store/expire.h"
#include "../store/ingest.h"
#include "../store/rollup.h"
#include "cmdopt.h"
#include "config.h"
#include "extracct.h"
#include "ingest_logs.h"
#include "paths.h"

static const struct cmdopt rollup_options[] = {
	{ 'r', "rebuild", NULL, CO_REQUIRED,
	    "build every rollup row again from the intervals (required)" },
	CMDOPT_DB_WRITE,
	CMDOPT_WAIT,
	{ 0, NULL, NULL, 0, NULL }
};

const struct cmddoc cmd_rollup_doc = { "rollup", NULL,
    "Build the hourly and daily rollups again from the intervals, "
    "identically to what ingest kept.", rollup_options };

int
cmd_rollup(int argc, char **argv, struct ctx *ctx)
{
	struct cmdopt_parser op = { .doc = &cmd_rollup_doc };
	struct ex_err err = { 0 };
	struct store *s;
	const char *db = ctx->cfg->database;
	uint64_t wait_s = DB_WAIT_DEFAULT_S;
	int64_t from_s;
	int ch, rc, rebuild = 0;

	while ((ch = cmdopt_next(&op, argc, argv)) != -1) {
		switch (ch) {
		case 'r':	/* the only action there is */
			rebuild = 1;
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
	if (optind != argc || !rebuild)
		return cmdopt_bad(&cmd_rollup_doc);
	if ((rc = ingest_open(&s, db, wait_s, ctx)) != EXR_OK)
		return rc;
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
