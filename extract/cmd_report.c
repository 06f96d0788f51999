/*
 * extracct report [--db FILE] [--by user|command|project|zone|host|hour]
 *     [--from TIME] [--to TIME] [--format table|csv|json] [--tz ZONE]
 *     [--capture] [--energy] [FILE...]
 *
 * Usage totals from the database (reports/report.c), the capture ratio
 * (--capture), or, given log files, totals of their exit records with no
 * database (reports/summary.c).  TIME is YYYY-MM-DD[THH:MM[:SS]] in the
 * report's time zone, or @EPOCH seconds.
 */
#include <sys/stat.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "../parsers/sniff.h"
#include "../reports/report.h"
#include "../store/db.h"
#include "../reports/summary.h"
#include "cmdopt.h"
#include "config.h"
#include "extracct.h"
#include "paths.h"
#include "walk.h"

static const struct cmdopt report_options[] = {
	{ 'd', "db", "FILE", 0,
	    "the database, which must exist; not with FILE operands "
	    "(default: the configuration's database, " PATH_DB ")" },
	{ 'b', "by", "user|command|project|zone|host|hour", 0,
	    "what to total by (default: user)" },
	{ 'f', "from", "TIME", 0,
	    "count only the hours that start at or after TIME: "
	    "YYYY-MM-DD[THH:MM[:SS]] in the report's zone, or @EPOCH seconds "
	    "(default: from the start)" },
	{ 't', "to", "TIME", 0,
	    "count only the hours that start before TIME, which must be after "
	    "--from (default: to the end)" },
	{ 'S', "scan", NULL, 0,
	    "add up the intervals themselves, not the rollups (the same "
	    "figures, slower; default: the rollups)" },
	{ 'F', "format", "table|csv|json", 0,
	    "the output format (default: table)" },
	{ 'z', "tz", "ZONE", 0,
	    "the time zone of TIME, hours and times printed: local, UTC or a "
	    "zoneinfo name such as Europe/Paris (default: timezone, local)" },
	{ 'c', "capture", NULL, 0,
	    "the capture ratio, process CPU / busy CPU per snapshot interval, "
	    "instead of usage (default: usage totals)" },
	{ 'T', "tolerance", "R", CO_INSIDE,
	    "with --capture: how far from 1 a ratio may be before its top "
	    "processes are shown, a fraction from 0 up to 1 (default: 0.05)" },
	{ 'e', "energy", NULL, 0,
	    "energy (joules, watts, grams CO2e) instead of usage, by user, "
	    "command or host (default: usage totals)" },
	{ 0, NULL, NULL, 0, NULL }
};

const struct cmddoc cmd_report_doc = { "report", "[FILE...]",
    "Usage totals by user, command, project, zone, host or hour, from "
    "the database, or, given log files, from their exit records with no "
    "database.", report_options };

/* Log files given: totals of their exit records, no database. */
struct from_files {
	struct summary	 sum;
	char		 host[256];	/* the current file's */
	int		 rc;
};

static int
file_item(void *arg, const struct reader *r, const struct reader_item *it)
{
	struct from_files *f = arg;

	(void)r;
	switch (it->kind) {
	case REC_HEADER:
		/* A log's header names its host; pacct names none. */
		if (it->u.header.has_hostname)
			snprintf(f->host, sizeof(f->host), "%s",
			    it->u.header.hostname);
		return EXR_OK;
	case REC_PROC:
		return summary_add(&f->sum, &it->u.proc, f->host);
	default:
		return EXR_OK;
	}
}

static int
report_files(int argc, char **argv, const struct report_opts *o)
{
	static struct from_files f;
	struct walk_ops ops = { file_item, NULL, NULL, NULL,
	    READER_NO_STREAMS };
	struct ex_err err = { 0 };
	int i, rc, status = EXR_OK;

	summary_init(&f.sum, o->by, o->from_ns, o->to_ns);
	for (i = 0; i < argc; i++) {
		/* pacct names no host: it is this one's, presumably. */
		if (gethostname(f.host, sizeof(f.host)) != 0)
			snprintf(f.host, sizeof(f.host), "unknown");
		f.host[sizeof(f.host) - 1] = '\0';
		rc = walk_file(argv[i], &ops, &f, NULL);
		status = worst(status, rc);
		if (rc == EXR_NOMEM)
			break;
	}
	summary_sort(&f.sum);
	rc = report_print(stdout, o, f.sum.rows, f.sum.n, &err);
	summary_release(&f.sum);
	return worst(status, rc);
}

/*
 * A FILE operand must be a log: a stray word ("report --by user today")
 * would otherwise be read as a log, found missing, and give an empty
 * table and exit 3.  Refused here, before any output: EXR_USAGE after a
 * message, or EXR_OK.  An empty log, and damage inside one, are still
 * the reader's to report (exit 1); a file that cannot be read, too.
 */
static int
operand_check(const char *path)
{
	struct ex_err err = { 0 };
	enum input_kind kind;
	struct stat st;

	if (strcmp(path, "-") == 0)
		return EXR_OK;
	if (stat(path, &st) == -1)
		return errno == ENOENT ? complain(EXR_USAGE, "report: FILE "
		    "mode takes log files; '%s' does not exist", path) :
		    EXR_OK;
	if (!S_ISREG(st.st_mode))
		return complain(EXR_USAGE, "report: FILE mode takes log files; "
		    "'%s' is not a regular file", path);
	if (st.st_size == 0 || sniff_file(path, &kind, &err) == EXR_IO)
		return EXR_OK;
	if (kind == INPUT_REFUSED)
		return complain(EXR_USAGE, "report: FILE mode takes log files; "
		    "'%s' is not one: %s", path, err.reason);
	if (kind == INPUT_STREAM)
		return complain(EXR_USAGE, "report: FILE mode takes exacct and "
		    "pacct logs; '%s' is a metric-provider stream (ingest it, "
		    "then report --energy)", path);
	return EXR_OK;
}

/* --tolerance R: a fraction, 0 <= R < 1 (0.05: ratios of 0.95-1.05). */
static int
parse_tolerance(const char *s, double *r)
{
	char *end;

	errno = 0;
	*r = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || !(*r >= 0 && *r < 1))
		return complain(EXR_USAGE, "--tolerance '%s': a fraction from "
		    "0 up to 1 (0.05: ratios of 0.95 to 1.05)", s);
	return 0;
}

/* Parse TIME (see above) in the current TZ into ns; 0 or -1. */
static int
parse_time(const char *flag, const char *s, int64_t *ns)
{
	static const char *const formats[] = { "%Y-%m-%dT%H:%M:%S",
	    "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M",
	    "%Y-%m-%d" };
	struct tm tm;
	uint64_t epoch;
	size_t i;
	const char *end;
	time_t t;

	if (s[0] == '@') {
		if (parse_u64(flag, s + 1, 0, INT64_MAX / 1000000000,
		    &epoch) != EXR_OK)
			return -1;
		*ns = (int64_t)epoch * 1000000000;
		return 0;
	}
	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		memset(&tm, 0, sizeof(tm));
		end = strptime(s, formats[i], &tm);
		if (end == NULL || *end != '\0')
			continue;
		tm.tm_isdst = -1;
		if ((t = mktime(&tm)) == (time_t)-1)
			break;
		*ns = (int64_t)t * 1000000000;
		return 0;
	}
	complain(EXR_USAGE, "%s '%s': not YYYY-MM-DD[THH:MM[:SS]] or @EPOCH",
	    flag, s);
	return -1;
}

int
cmd_report(int argc, char **argv, struct ctx *ctx)
{
	struct cmdopt_parser op = { .doc = &cmd_report_doc };
	struct report_opts o = { BY_USER, FMT_TABLE, INT64_MIN, INT64_MAX,
	    NULL, 0.05, 0 };
	/* The same default as ingest's and run's: the configuration's. */
	const char *db = ctx->cfg->database, *from = NULL, *to = NULL;
	const char *tz = strcmp(ctx->cfg->timezone, "local") != 0 ?
	    ctx->cfg->timezone : NULL;
	struct ex_err err;
	sqlite3 *h = NULL;
	struct rdb *r;
	char zone[64], why[256];
	int ch, i, rc, capture = 0, energy = 0, db_given = 0;

	while ((ch = cmdopt_next(&op, argc, argv)) != -1) {
		switch (ch) {
		case 'd':	/* the database */
			db = optarg;
			db_given = 1;
			break;
		case 'b':	/* what to total by */
			for (i = 0; i <= BY_HOUR; i++)
				if (strcmp(optarg, report_by_names[i]) == 0)
					break;
			if (i > BY_HOUR)
				return complain(EXR_USAGE, "--by '%s': not one "
				    "of user, command, project, zone, host, "
				    "hour", optarg);
			o.by = (enum report_by)i;
			break;
		case 'f':	/* window start (inclusive) */
			from = optarg;
			break;
		case 't':	/* window end (exclusive) */
			to = optarg;
			break;
		case 'F':	/* output format */
			if (strcmp(optarg, "table") == 0)
				o.format = FMT_TABLE;
			else if (strcmp(optarg, "csv") == 0)
				o.format = FMT_CSV;
			else if (strcmp(optarg, "json") == 0)
				o.format = FMT_JSON;
			else
				return complain(EXR_USAGE, "--format '%s': not "
				    "table, csv or json", optarg);
			break;
		case 'c':	/* the capture ratio instead of usage */
			capture = 1;
			break;
		case 'S':	/* the intervals, not the rollups */
			o.scan = 1;
			break;
		case 'e':	/* energy instead of usage */
			energy = 1;
			break;
		case 'T':	/* --capture: how far from 1 a ratio may be */
			if (parse_tolerance(optarg, &o.tolerance) != 0)
				return EXR_USAGE;
			break;
		case 'z':	/* time zone: local, UTC or a zone name */
			tz = optarg;
			break;
		case 'h':
			return cmdopt_help(&cmd_report_doc);
		default:
			return cmdopt_bad(&cmd_report_doc);
		}
	}
	if (capture && optind != argc)
		return complain(EXR_USAGE, "--capture reads the database, not "
		    "files");
	if (capture && o.format == FMT_JSON)
		return complain(EXR_USAGE, "--capture: --format table or csv");
	if (energy && (capture || optind != argc))
		return complain(EXR_USAGE, "--energy reads the database, and "
		    "not with --capture");
	if (energy && o.by != BY_USER && o.by != BY_COMMAND &&
	    o.by != BY_HOST)
		return complain(EXR_USAGE, "--energy: --by user, command or "
		    "host");
	/* An unknown zone would read as UTC, and say it was that zone. */
	if (tz != NULL && config_zone_check(tz, why, sizeof(why)) != 0)
		return complain(EXR_USAGE, "--tz '%s': %s", tz, why);
	/* Every time below, parsed or printed, is in this zone. */
	if (tz != NULL && strcmp(tz, "local") != 0)
		setenv("TZ", tz, 1);
	tzset();
	if (tz == NULL || strcmp(tz, "local") == 0) {
		const char *env = getenv("TZ");

		if (env != NULL && env[0] != '\0')
			snprintf(zone, sizeof(zone), "%s", env);
		else
			snprintf(zone, sizeof(zone), "local (%s)", tzname[0]);
		o.tz = zone;
	} else
		o.tz = tz;
	if ((from != NULL && parse_time("--from", from, &o.from_ns) != 0) ||
	    (to != NULL && parse_time("--to", to, &o.to_ns) != 0))
		return EXR_USAGE;
	if (from != NULL && to != NULL && o.from_ns >= o.to_ns)
		return complain(EXR_USAGE, "--from %s is not before --to %s: "
		    "the window would be empty", from, to);
	if (optind < argc && db_given)
		return complain(EXR_USAGE, "report: --db and FILE operands: "
		    "FILE mode totals the logs themselves, with no database");
	for (i = optind; i < argc; i++)
		if (operand_check(argv[i]) != EXR_OK)
			return EXR_USAGE;
	if (optind < argc)
		return report_files(argc - optind, argv + optind, &o);

	memset(&err, 0, sizeof(err));
	if ((rc = db_open_readonly(db, &h, &err)) != EXR_OK)
		return complain(rc, "%s: %s", db, err.reason);
	if ((r = rdb_sqlite(h)) == NULL) {
		db_close(h);
		return complain(EXR_NOMEM, "%s: no memory", db);
	}
	rc = capture ? report_capture(r, stdout, &o, &err) :
	    energy ? report_energy(r, stdout, &o, &err) :
	    report_run(r, stdout, &o, &err);
	if (rc != EXR_OK)
		complain(rc, "%s: %s", db, err.reason);
	rdb_close(r);
	db_close(h);
	return rc;
}
