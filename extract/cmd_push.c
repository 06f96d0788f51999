/*
 * extracct push [--db FILE] [--central CONNINFO]
 *
 * Send the local database's facts to the central PostgreSQL server,
 * exactly once (fleet/push.h): what central lacks, and what changed
 * here since the last push.  The server is the configuration's central:
 * or --central; without either, libpq's own (PGHOST, PGSERVICE, ...).  A
 * server that cannot be reached is exit status 5, and nothing here is
 * changed: the next push catches up.  An extracct built without libpq
 * says so, with exit status 6.
 */
#include <stdio.h>
#include <string.h>

#include "cmdopt.h"
#include "config.h"
#include "cmd.h"
#include "util.h"
#include "paths.h"
#ifdef HAVE_LIBPQ
#include "../fleet/push.h"
#endif

static const struct cmdopt push_options[] = {
	{ 'd', "db", "FILE", 0,
	    "the local database, which must exist (default: the "
	    "configuration's database, " PATH_DB ")" },
	{ 'C', "central", "CONNINFO", 0,
	    "the central server: a libpq connection string or URI, with no "
	    "password in it (default: the configuration's central, else "
	    "libpq's environment)" },
	{ 't', "to", "CONNINFO", CO_ALIAS, "the older name of --central" },
	{ 0, NULL, NULL, 0, NULL }
};

const struct cmddoc cmd_push_doc = { "push",
    "send this database's new facts to the central PostgreSQL store", NULL,
    "Send this database's facts to the central PostgreSQL store, exactly "
    "once: what it lacks, and what changed here since.", push_options };

int
push_run(const char *db, const char *to, int allow_password)
{
#ifdef HAVE_LIBPQ
	struct push_stats ps;
	struct ex_err err = { 0 };
	int rc;

	if ((rc = push_db(db, to, allow_password, &ps, &err)) != EXR_OK) {
		if (rc == EXR_CENTRAL)
			return complain(rc, "push: %s; nothing lost: the "
			    "database keeps its facts, and the next push "
			    "sends them", err.reason);
		return complain(rc, "push: %s: %s", db, err.reason);
	}
	say(stdout, "push: %s: %llu host%s, %llu buckets, %llu rows sent",
	    db, (unsigned long long)ps.hosts, ps.hosts == 1 ? "" : "s",
	    (unsigned long long)ps.buckets, (unsigned long long)ps.rows);
	return EXR_OK;
#else
	(void)db;
	(void)to;
	(void)allow_password;
	return complain(EXR_NOPG, "push: this extracct was built without "
	    "PostgreSQL support (libpq): it cannot push");
#endif
}

int
cmd_push(int argc, char **argv, struct ctx *ctx)
{
	struct cmdopt_parser op = { .doc = &cmd_push_doc };
	const char *db = ctx->cfg->database, *to = ctx->cfg->central;
	int ch, from_config = 1;

	while ((ch = cmdopt_next(&op, argc, argv)) != -1) {
		switch (ch) {
		case 'd':	/* the local database */
			db = optarg;
			break;
		case 'C':	/* the central server */
		case 't':
			to = optarg;
			from_config = 0;
			break;
		case 'h':
			return cmdopt_help(&cmd_push_doc);
		default:
			return cmdopt_bad(&cmd_push_doc);
		}
	}
	if (optind != argc)
		return cmdopt_bad(&cmd_push_doc);
	/* A password may be only in a configuration file none but its
	 * owner can read; never on the command line. */
	return push_run(db, to, from_config && ctx->cfg->private_file);
}
