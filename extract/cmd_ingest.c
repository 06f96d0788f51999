/*
 * extracct ingest [--db FILE] [--outdir DIR] [--idle-rows heartbeat|always]
 *     [--heartbeat-hours N] [--chunk N] [--host NAME] [--provider NAME]
 *     [--wait SECONDS] FILE...
 *
 * Decode, difference, pair and store each log (store/ingest.c), exactly
 * once.  One writer of a database at a time: another waits up to
 * --wait seconds for it (store/dblock.h), then exits 4.  With --outdir,
 * also write each input's one-line text table (BASE.txt) and CSV
 * (BASE.csv).  The options only: the work is ingest_logs.c's.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../store/ingest.h"
#include "../store/outfile.h"
#include "cmdopt.h"
#include "config.h"
#include "cmd.h"
#include "util.h"
#include "ingest_logs.h"
#include "paths.h"

static const struct cmdopt ingest_options[] = {
	CMDOPT_DB_WRITE,
	{ 'o', "outdir", "DIR", 0,
	    "also write each log's records to DIR/BASE.txt and DIR/BASE.csv "
	    "(default: none)" },
	{ 'I', "idle-rows", "heartbeat|always", 0,
	    "rows for intervals in which a process used nothing: only those "
	    "due as heartbeats, or every one (default: idle_rows, "
	    CONFIG_IDLE_ROWS ")" },
	{ 'B', "heartbeat-hours", "N", 0,
	    "store an idle process's interval when N hours have passed since "
	    "its last row; 0 to " CMDOPT_STR(CONFIG_HOURS_MAX) " hours, 0: "
	    "never (default: heartbeat_hours, " CONFIG_HEARTBEAT_HOURS ")" },
	{ 'C', "chunk", "N", 0,
	    "commit every N records, 1 to 10000000 (default: 50000)" },
	{ 'H', "host", "NAME", 0,
	    "host of the records of logs that name none: pacct files, "
	    "streams (default: the configuration's host, else this host's "
	    "name)" },
	{ 'U', "passwd", "FILE", 0,
	    "the host's passwd file: its user names, stored for the "
	    "reports (default: /etc/passwd, when the logs are this "
	    "machine's: no --host)" },
	{ 'G', "group-file", "FILE", 0,
	    "the host's group file (default: /etc/group, as --passwd)" },
	{ 'g', "group", "FILE", CO_ALIAS, "the older name of --group-file" },
	{ 'J', "project", "FILE", 0,
	    "the host's project file, name:projid:... (default: "
	    "/etc/project, as --passwd)" },
	{ 'P', "provider", "NAME", 0,
	    "what the metric-provider streams among the files hold (default: "
	    "from each file's name, PROVIDER.log)" },
	CMDOPT_WAIT,
	{ 0, NULL, NULL, 0, NULL }
};

const struct cmddoc cmd_ingest_doc = { "ingest",
    "store each log's records in the database, exactly once", "FILE...",
    "Store the records of each log in the database, exactly once: usage "
    "per process and interval, tasks, conversations, snapshots and "
    "energy.", ingest_options };

int
cmd_ingest(int argc, char **argv, struct ctx *ctx)
{
	struct cmdopt_parser op = { .doc = &cmd_ingest_doc };
	struct ingest_opts io;
	char hostname[256];
	/* The same default as report's and run's: the configuration's. */
	const char *db = ctx->cfg->database;
	const char *outdir = NULL;
	uint64_t n, wait_s = DB_WAIT_DEFAULT_S;
	struct ex_err err = { 0 };
	struct store *s;
	int ch, rc;

	ingest_opts_config(&io, ctx);
	while ((ch = cmdopt_next(&op, argc, argv)) != -1) {
		switch (ch) {
		case 'd': db = optarg; break;
		case 'o': outdir = optarg; break;	/* .txt and .csv */
		case 'I':	/* rows for idle intervals */
			if (strcmp(optarg, "always") == 0)
				io.idle_always = 1;
			else if (strcmp(optarg, "heartbeat") != 0)
				return complain(EXR_USAGE, "--idle-rows '%s': "
				    "not heartbeat or always", optarg);
			break;
		case 'B':	/* an idle process's row at least this often */
			if (parse_u64("--heartbeat-hours", optarg, 0,
			    CONFIG_HOURS_MAX, &n) != EXR_OK)
				return EXR_USAGE;
			io.heartbeat_ns = n * 3600 * 1000000000ull;
			break;
		case 'C':	/* records per transaction */
			if (parse_u64("--chunk", optarg, 1, 10000000,
			    &io.chunk_records) != EXR_OK)
				return EXR_USAGE;
			break;
		case 'H':	/* host of logs that name none (pacct) */
			io.host = optarg;
			break;
		case 'U': io.names[0] = optarg; break;	/* the host's names */
		case 'G': case 'g': io.names[1] = optarg; break;
		case 'J': io.names[2] = optarg; break;
		case 'P':	/* what a metric-provider stream holds */
			io.provider = optarg;
			break;
		case 'W':	/* for another writer of the database */
			if (parse_wait(optarg, &wait_s) != EXR_OK)
				return EXR_USAGE;
			break;
		case 'h':
			return cmdopt_help(&cmd_ingest_doc);
		default:
			return cmdopt_bad(&cmd_ingest_doc);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0)
		return cmdopt_bad(&cmd_ingest_doc);
	if (io.host == NULL) {
		config_hostname(ctx->cfg, hostname, sizeof(hostname));
		io.host = hostname;
		io.own_host = 1;	/* the logs are this machine's */
	}
	if (outdir != NULL && (rc = outfile_dir_check("output directory",
	    outdir, &err)) != EXR_OK)
		return complain(rc, "%s", err.reason);
	if ((rc = ingest_open(&s, db, wait_s, ctx)) != EXR_OK)
		return rc;
	rc = ingest_logs(s, db, outdir, &io, argv, argc, 0);
	store_close(s);
	return rc;
}
