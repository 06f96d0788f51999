/*
 * extracct run [--spool DIR] [--db FILE] [--outdir DIR] [--pacct FILE]
 *     [--retention-days N] [--text-retention-days N] [--no-snap]
 *     [--no-rotate] [--no-push | --push-only] [--wait SECONDS] [FILE...]
 *
 * The hourly job: snap, rotate, hand every closed log in the spool to
 * ingest, write each one's .txt and .csv into the output directory,
 * then retention, then (with central: in the configuration) push.  One
 * run at a time: a second finds the spool's lock
 * taken and exits 3.  --no-push and --push-only split the job in two
 * for the units: the sandboxed run without the network, the push (and
 * the expiry that waits on it) in a unit that may reach the server.
 * The options only: the steps are hourly.c's.
 *
 * Retention deletes a closed log older than --retention-days only when
 * the ledger says every byte of it is in the database; a text output
 * older than --text-retention-days goes by age alone (retention.c).
 */
#include <getopt.h>
#include <stdio.h>

#include "cmdopt.h"
#include "config.h"
#include "cmd.h"
#include "util.h"
#include "hourly.h"
#include "paths.h"

static const struct cmdopt run_options[] = {
	CMDOPT_SPOOL,
	CMDOPT_DB_WRITE,
	{ 'o', "outdir", "DIR", 0,
	    "write the .txt and .csv of each log stored to DIR (default: "
	    "output_dir; none)" },
	CMDOPT_PACCT,
	{ 'R', "retention-days", "N", 0,
	    "delete a closed log N days old once the database holds all of "
	    "it; 0 to " CMDOPT_STR(CONFIG_DAYS_MAX) " days (default: "
	    "retention_days, " CONFIG_RETENTION_DAYS ")" },
	{ 'T', "text-retention-days", "N", 0,
	    "delete the .txt and .csv of --outdir N days old; 0 to "
	    CMDOPT_STR(CONFIG_DAYS_MAX) " days (default: text_retention_days, "
	    CONFIG_TEXT_RETENTION_DAYS ")" },
	{ 'S', "no-snap", NULL, 0,
	    "take no snapshot (default: take one)" },
	{ 'N', "no-rotate", NULL, 0,
	    "do not rotate (default: rotate)" },
	{ 'P', "no-push", NULL, 0,
	    "with a central server, leave the push, and the database's "
	    "expiry that waits on it, to run --push-only (default: push)" },
	{ 'O', "push-only", NULL, 0,
	    "only push to the central server, then expire the database: "
	    "the network's half of run --no-push (default: the whole job)" },
	CMDOPT_WAIT,
	{ 0, NULL, NULL, 0, NULL }
};

const struct cmddoc cmd_run_doc = { "run",
    "the hourly job: snap, rotate, ingest, retention, push", "[FILE...]",
    "The hourly job: snap, rotate, ingest every closed log of the spool "
    "and each FILE, delete what retention allows, then push to the "
    "configuration's central server, if any.", run_options };

int
cmd_run(int argc, char **argv, struct ctx *ctx)
{
	struct cmdopt_parser op = { .doc = &cmd_run_doc };
	struct hourly h = {
		.spool = ctx->cfg->spool_dir,
		.db = ctx->cfg->database,
		.pacct = ctx->cfg->pacct_file,
		.outdir = ctx->cfg->output_dir[0] != '\0' ?
		    ctx->cfg->output_dir : NULL,
		.keep_days = ctx->cfg->retention_days,
		.keep_text_days = ctx->cfg->text_retention_days,
		.keep_intervals_days = ctx->cfg->keep_intervals_days,
		.keep_rollups_months = ctx->cfg->keep_rollups_months,
		.wait_s = DB_WAIT_DEFAULT_S,
		.snap = 1,
		.rotate = 1,
	};
	int ch;

	while ((ch = cmdopt_next(&op, argc, argv)) != -1) {
		switch (ch) {
		case 's':	/* the spool directory */
			h.spool = optarg;
			break;
		case 'd':	/* the database */
			h.db = optarg;
			break;
		case 'o':	/* .txt and .csv outputs */
			h.outdir = optarg;
			break;
		case 'p':	/* accounting's file before the first rotate */
			h.pacct = optarg;
			break;
		case 'R':	/* keep ingested logs this many days */
			if (parse_u64("--retention-days", optarg, 0,
			    CONFIG_DAYS_MAX, &h.keep_days) != EXR_OK)
				return EXR_USAGE;
			break;
		case 'T':	/* keep text outputs this many days */
			if (parse_u64("--text-retention-days", optarg, 0,
			    CONFIG_DAYS_MAX, &h.keep_text_days) != EXR_OK)
				return EXR_USAGE;
			break;
		case 'S':	/* no snapshot this time */
			h.snap = 0;
			break;
		case 'N':	/* no rotation this time */
			h.rotate = 0;
			break;
		case 'P':	/* the push unit pushes */
			if (h.push == HOURLY_PUSH_ONLY)
				return complain(EXR_USAGE, "run: --no-push "
				    "and --push-only: one or the other");
			h.push = HOURLY_NO_PUSH;
			break;
		case 'O':	/* the push unit: push, then expiry */
			if (h.push == HOURLY_NO_PUSH)
				return complain(EXR_USAGE, "run: --no-push "
				    "and --push-only: one or the other");
			h.push = HOURLY_PUSH_ONLY;
			break;
		case 'W':	/* for another writer of the database */
			if (parse_wait(optarg, &h.wait_s) != EXR_OK)
				return EXR_USAGE;
			break;
		case 'h':
			return cmdopt_help(&cmd_run_doc);
		default:
			return cmdopt_bad(&cmd_run_doc);
		}
	}
	h.files = argv + optind;
	h.nfiles = argc - optind;
	if (h.push == HOURLY_PUSH_ONLY && h.nfiles > 0)
		return complain(EXR_USAGE, "run: --push-only takes no FILE: "
		    "it ingests nothing");
	return hourly_run(&h, ctx);
}
