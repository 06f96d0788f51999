/*
 * extracct merge -o FILE [--wait SECONDS] DB...
 *
 * Merge local databases into one (a small fleet's, with no server):
 * store/merge.c does the work, one transaction per source; a source that
 * fails is named and leaves the output as it was before it, and the
 * next source is merged all the same.  The output is written as ingest
 * writes a database: created if missing, behind its writer's lock.
 */
#include <sys/stat.h>

#include <stdio.h>
#include <string.h>

#include "../store/ingest.h"
#include "../store/merge.h"
#include "cmdopt.h"
#include "config.h"
#include "cmd.h"
#include "util.h"
#include "ingest_logs.h"
#include "paths.h"

static const struct cmdopt merge_options[] = {
	{ 'o', "output", "FILE", CO_SHORT | CO_SHOW_SHORT | CO_REQUIRED,
	    "the merged database, created if it does not exist (required)" },
	CMDOPT_WAIT,
	{ 0, NULL, NULL, 0, NULL }
};

const struct cmddoc cmd_merge_doc = { "merge",
    "merge several hosts' databases into one, exactly once", "DB...",
    "Merge the databases of several hosts into one, exactly once: hosts "
    "matched by their identity, every row by its own key.", merge_options };

/* Is path the file out is (a database cannot be merged into itself)? */
static int
same_file(const char *path, const char *out)
{
	struct stat a, b;

	return stat(path, &a) == 0 && stat(out, &b) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int
cmd_merge(int argc, char **argv, struct ctx *ctx)
{
	struct cmdopt_parser op = { .doc = &cmd_merge_doc };
	struct merge_stats ms;
	struct ex_err err;
	struct store *s;
	const char *out = NULL;
	uint64_t wait_s = DB_WAIT_DEFAULT_S;
	int ch, i, rc, status = EXR_OK;

	while ((ch = cmdopt_next(&op, argc, argv)) != -1) {
		switch (ch) {
		case 'o':	/* the merged database */
			out = optarg;
			break;
		case 'W':	/* for another writer of the output */
			if (parse_wait(optarg, &wait_s) != EXR_OK)
				return EXR_USAGE;
			break;
		case 'h':
			return cmdopt_help(&cmd_merge_doc);
		default:
			return cmdopt_bad(&cmd_merge_doc);
		}
	}
	argc -= optind;
	argv += optind;
	if (out == NULL || argc == 0)
		return cmdopt_bad(&cmd_merge_doc);
	if ((rc = ingest_open(&s, out, wait_s, ctx)) != EXR_OK)
		return rc;
	for (i = 0; i < argc; i++) {
		memset(&err, 0, sizeof(err));
		if (same_file(argv[i], out)) {
			status = ex_worst(status, complain(EXR_USAGE, "%s: is the "
			    "output: a database is not merged into itself",
			    argv[i]));
			continue;
		}
		if ((rc = store_merge(s, argv[i], &ms, &err)) != EXR_OK) {
			status = ex_worst(status, complain(rc, "%s: %s; nothing "
			    "of it merged", argv[i], err.reason));
			continue;
		}
		say(stdout, "merge: %s: %llu host%s, %llu rows read, %llu "
		    "added or brought up to date", argv[i],
		    (unsigned long long)ms.hosts, ms.hosts == 1 ? "" : "s",
		    (unsigned long long)ms.rows, (unsigned long long)ms.added);
	}
	store_close(s);
	return status;
}
