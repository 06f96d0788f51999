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
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "../reports/report.h"
#include "../store/db.h"
#include "../reports/summary.h"
#include "config.h"
#include "extracct.h"
#include "paths.h"
#include "walk.h"

static const char usage_report[] =
    "usage: extracct report [--db FILE] "
    "[--by user|command|project|zone|host|hour] [--from TIME] [--to TIME] "
    "[--format table|csv|json] [--tz ZONE] [--capture [--tolerance R]] "
    "[--energy] [FILE...]";

/* Log files given: totals of their exit records, no database. */
struct from_files {
	struct summary	 sum;
	struct ex_proc	 p;
	char		 host[256];	/* the current file's */
	int		 rc;
};

static int
file_object(void *arg, const struct ex_rec *rec)
{
	struct from_files *f = arg;
	struct rec_counts c = { 0 };
	size_t i;

	switch (rec_kind(rec)) {
	case REC_HEADER:
		for (i = 1; i < rec->nitems; i++)
			if (rec->items[i].tag == (EXT_STRING | EXD_HOSTNAME))
				rec_copy_string(f->host, sizeof(f->host),
				    rec->items[i].p, rec->items[i].n);
		return EXR_OK;
	case REC_PROC:
		proc_fill(&f->p, rec, &c);
		return summary_add(&f->sum, &f->p, f->host);
	default:
		return EXR_OK;
	}
}

static int
file_pacct(void *arg, const struct pacct_reader *r, const struct ex_proc *p)
{
	struct from_files *f = arg;

	(void)r;
	return summary_add(&f->sum, p, f->host);
}

static int
report_files(int argc, char **argv, const struct report_opts *o)
{
	static struct from_files f;
	struct walk_ops ops = { file_object, file_pacct, NULL, NULL, NULL,
	    NULL };
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

/* Parse TIME (see above) in the current TZ into ns; 0 or -1. */
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
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "by", required_argument, NULL, 'b' },
		{ "from", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 't' },
		{ "format", required_argument, NULL, 'F' },
		{ "tz", required_argument, NULL, 'z' },
		{ "capture", no_argument, NULL, 'c' },
		{ "energy", no_argument, NULL, 'e' },
		{ "tolerance", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct report_opts o = { BY_USER, FMT_TABLE, INT64_MIN, INT64_MAX,
	    NULL, 0.05 };
	const char *db = ctx->cfg->path[0] != '\0' ? ctx->cfg->database :
	    PATH_DEFAULT_DB, *from = NULL, *to = NULL;
	const char *tz = strcmp(ctx->cfg->timezone, "local") != 0 ?
	    ctx->cfg->timezone : NULL;
	struct ex_err err;
	sqlite3 *h = NULL;
	char zone[64], why[256];
	int ch, i, rc, capture = 0, energy = 0;

	while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'd':	/* the database */
			db = optarg;
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
			puts(usage_report);
			return EXR_OK;
		default:
			return complain(EXR_USAGE, "%s", usage_report);
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
	if (optind < argc)
		return report_files(argc - optind, argv + optind, &o);

	memset(&err, 0, sizeof(err));
	if ((rc = db_open_readonly(db, &h, &err)) != EXR_OK)
		return complain(rc, "%s: %s", db, err.reason);
	rc = capture ? report_capture(h, stdout, &o, &err) :
	    energy ? report_energy(h, stdout, &o, &err) :
	    report_run(h, stdout, &o, &err);
	if (rc != EXR_OK)
		complain(rc, "%s: %s", db, err.reason);
	db_close(h);
	return rc;
}
