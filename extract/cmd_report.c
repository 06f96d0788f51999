/*
 * extracct report [--db FILE|CONNINFO] [--by KEY[,KEY...]] [--every PERIOD]
 *     [--from TIME] [--to TIME] [--sort COLUMN] [--limit N] [--averages]
 *     [--percentiles] [--format table|csv|json|svg|html] [--tz ZONE]
 *     [--passwd FILE] [--group FILE] [--project FILE] [--numeric]
 *     [--user U] [--group G] [--command C] [--host H] [--unit U]
 *     [--container C]
 *     [--capture] [--energy] [--forecast [--threshold PCT]] [FILE...]
 *
 * Usage totals from the database (reports/report*.c), the capture ratio
 * (--capture), a capacity forecast (--forecast), or, given log files,
 * totals of their exit records with no database (report_files.c).  --format svg draws one of them as a
 * chart, --format html a page of all the charts (reports/chart.h).
 * TIME is YYYY-MM-DD[THH:MM[:SS]] in the report's time zone, or @EPOCH
 * seconds.  The options only: which options go together is
 * report_check's (reports/), the database report_db's.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../parsers/records.h"
#include "../reports/idnames.h"
#include "../reports/report.h"
#include "cmd.h"
#include "cmdopt.h"
#include "config.h"
#include "paths.h"
#include "report_db.h"
#include "report_files.h"
#include "util.h"

static const struct cmdopt report_options[] = {
	{ 'd', "db", "FILE|CONNINFO", 0,
	    "the database, which must exist; not with FILE operands; or the "
	    "fleet's central PostgreSQL server: postgresql://..., "
	    "service=NAME, host=... dbname=... (default: the configuration's "
	    "database, " PATH_DB ")" },
	{ 'C', "central", "CONNINFO", 0,
	    "the fleet's central PostgreSQL server instead of the database, "
	    "as push's --central names it (default: --db; --db takes a "
	    "CONNINFO too)" },
	{ 'b', "by", "KEY[,KEY...]", 0,
	    "what to total by: up to 4 of user, group, command, project, "
	    "zone, host, hour, cgroup, unit, container (Linux cgroups), "
	    "comma-separated, each row one set of them "
	    "(default: user; with --every and no --by: totals alone)" },
	{ 'E', "every", "hour|day|week|month", 0,
	    "a row per local time bucket (weeks from Monday) and key, every "
	    "bucket of the window shown, an empty one as a zero row "
	    "(default: one row per key for the whole window)" },
	{ 'f', "from", "TIME", 0,
	    "count only the hours that start at or after TIME: "
	    "YYYY-MM-DD[THH:MM[:SS]] in the report's zone, or @EPOCH seconds "
	    "(default: from the start)" },
	{ 't', "to", "TIME", 0,
	    "count only the hours that start before TIME, which must be after "
	    "--from (default: to the end)" },
	{ 'S', "sort", "COLUMN", 0,
	    "order the rows by this column of the CSV header: measures "
	    "largest first, keys in order, blanks last (default: cpu_s; "
	    "hours and buckets in time order)" },
	{ 'n', "limit", "N", 0,
	    "the first N rows (of each bucket), the rest added up into one "
	    "row keyed ***other (default: every row)" },
	{ 'a', "averages", NULL, 0,
	    "add per-call averages: cpu_s_per_call, real_s_per_call, "
	    "chars_rdwr_bytes_per_call (default: totals only)" },
	{ 'P', "percentiles", NULL, 0,
	    "with --every: per key, the p50, p95 and largest bucket of CPU "
	    "seconds and utilisation over the buckets its hosts were "
	    "observed in, instead of the rows (default: the rows)" },
	{ 'I', "scan", NULL, 0,
	    "add up the intervals themselves, not the rollups (the same "
	    "figures, slower; default: the rollups)" },
	{ 'F', "format", "table|csv|json|svg|html", 0,
	    "the output format; svg: a chart of CPU over time by --by (of "
	    "the capture ratio with --capture, of energy with --energy, of "
	    "the trend with --forecast); html: a page of all the charts "
	    "(default: table)" },
	{ 'z', "tz", "ZONE", 0,
	    "the time zone of TIME, hours and times printed: local, UTC or a "
	    "zoneinfo name such as Europe/Paris (default: timezone, "
	    CONFIG_TIMEZONE ")" },
	{ 'U', "passwd", "FILE", 0,
	    "user names from this passwd file, for logs from another host "
	    "(default: the names ingest stored from the host's own; from "
	    "log files, this machine's, as sa does)" },
	{ 'G', "group-file", "FILE", 0,
	    "group names from this group file (default: the host's, as "
	    "stored)" },
	{ 'J', "project", "FILE", 0,
	    "project names from this project file, Solaris's "
	    "name:projid:... (default: the host's, as stored)" },
	{ 'N', "numeric", NULL, 0,
	    "users, groups and projects by number, never by name (default: "
	    "names where known)" },
	{ 'u', "user", "U", 0,
	    "count only the processes of user U: a name (the uid each "
	    "host gives it), a number or a glob (*, ?, [...]); again: "
	    "either user (default: every user)" },
	{ 'g', "group", "G", 0,
	    "count only the processes whose group is G: a name, a number "
	    "or a glob, as --user (default: every group)" },
	{ 'm', "command", "C", 0,
	    "count only the processes of command C, a name or a glob "
	    "(case-sensitive; its forks without exec too); again: either "
	    "(default: every command)" },
	{ 'H', "host", "H", 0,
	    "count only host H, a name or a glob; again: either; the "
	    "filters together all hold (default: every host)" },
	{ 'y', "unit", "U", 0,
	    "count only the processes in systemd unit U (Linux: the "
	    "innermost .service, .scope or .slice of their cgroup), a name "
	    "or a glob; again: either (default: every unit)" },
	{ 'x', "container", "C", 0,
	    "count only the processes in container C (its short id, from "
	    "their cgroup), or a glob; again: either (default: every "
	    "container)" },
	{ 'K', "capture", NULL, 0,
	    "the capture ratio, process CPU / busy CPU per snapshot interval, "
	    "instead of usage (default: usage totals)" },
	{ 'T', "tolerance", "R", CO_INSIDE,
	    "with --capture: how far from 1 a ratio may be before its top "
	    "processes are shown, a fraction from 0 up to 1 (default: 0.05)" },
	{ 'e', "energy", NULL, 0,
	    "energy (joules, watts, grams CO2e) instead of usage, by user, "
	    "command or host (default: usage totals)" },
	{ 'W', "forecast", NULL, 0,
	    "per host (or --by group): the trend of its daily peak "
	    "utilisation over the window and the day it crosses the "
	    "threshold, instead of usage (default: usage totals)" },
	{ 'L', "threshold", "PCT", CO_INSIDE,
	    "with --forecast: the utilisation to forecast, a percentage "
	    "above 0 up to 100 (default: 80)" },
	{ 0, NULL, NULL, 0, NULL }
};

const struct cmddoc cmd_report_doc = { "report",
    "usage by user, command, host...; capture, energy, forecast", "[FILE...]",
    "Usage totals by user, group, command, project, zone, host or hour, "
    "or several at once, over time buckets, from "
    "the database, or, given log files, from their exit records with no "
    "database.", report_options };


/*
 * The option parsers below return EXR_OK, or an EXR_* code after a
 * message.
 */

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
	return EXR_OK;
}

/* --threshold PCT: 0 < PCT <= 100. */
static int
parse_threshold(const char *s, double *pct)
{
	char *end;

	errno = 0;
	*pct = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || !(*pct > 0 &&
	    *pct <= 100))
		return complain(EXR_USAGE, "--threshold '%s': a percentage "
		    "of the CPUs, above 0 up to 100", s);
	return EXR_OK;
}

/* --by KEY[,KEY...] into o's keys. */
static int
parse_keys(const char *arg, struct report_opts *o)
{
	char list[256], *p, *next;
	int i, k;

	snprintf(list, sizeof(list), "%s", arg);
	o->nkeys = 0;
	for (p = list; p != NULL; p = next) {
		if ((next = strchr(p, ',')) != NULL)
			*next++ = '\0';
		for (i = 0; i < BY_NKEYS; i++)
			if (strcmp(p, report_by_names[i]) == 0)
				break;
		if (i == BY_NKEYS)
			return complain(EXR_USAGE, "--by '%s': '%s' is not one "
			    "of user, group, command, project, zone, host, "
			    "hour, cgroup, unit, container", arg, p);
		for (k = 0; k < o->nkeys; k++)
			if (o->keys[k] == (enum report_by)i)
				return complain(EXR_USAGE, "--by '%s': %s "
				    "twice", arg, p);
		if (o->nkeys == REPORT_MAXKEYS)
			return complain(EXR_USAGE, "--by '%s': at most %d "
			    "keys", arg, REPORT_MAXKEYS);
		o->keys[o->nkeys++] = (enum report_by)i;
	}
	o->by = o->keys[0];
	return EXR_OK;
}

/* --every PERIOD into o. */
static int
parse_every(const char *arg, struct report_opts *o)
{
	int i;

	for (i = EVERY_HOUR; i <= EVERY_MONTH; i++)
		if (strcmp(arg, report_every_names[i]) == 0) {
			o->every = (enum report_every)i;
			return EXR_OK;
		}
	return complain(EXR_USAGE, "--every '%s': not hour, day, week or "
	    "month", arg);
}

/* --format FORMAT into o. */
static int
parse_format(const char *arg, struct report_opts *o)
{
	static const char *const names[] = { "table", "csv", "json", "svg",
	    "html" };
	int i;

	for (i = 0; i < 5; i++)
		if (strcmp(arg, names[i]) == 0) {
			o->format = i < 3 ? (enum report_format)i : FMT_TABLE;
			o->chart = i < 3 ? REPORT_TEXT : i == 3 ? REPORT_SVG :
			    REPORT_HTML;
			return EXR_OK;
		}
	return complain(EXR_USAGE, "--format '%s': not table, csv, json, svg "
	    "or html", arg);
}

/* --capture or --energy into o. */
static int
parse_kind(enum report_kind k, struct report_opts *o)
{
	if (o->kind != REPORT_USAGE && o->kind != k)
		return complain(EXR_USAGE, "--energy reads the database, and "
		    "not with --capture");
	o->kind = k;
	return EXR_OK;
}

/* --user, --group, --command, --host V into o. */
static int
add_filter(struct report_opts *o, enum report_filter_kind f, const char *v)
{
	struct ex_err err = { 0 };
	int rc;

	if ((rc = report_filter_add(o, f, v, &err)) != EXR_OK)
		return complain(rc, "%s", err.reason);
	return EXR_OK;
}

/* --passwd, --group, --project FILE: o's names from it, not the
 * database's. */
static int
load_names(struct report_opts *o, struct idnames *names, enum idkind k,
    const char *path)
{
	struct ex_err err = { 0 };
	int rc;

	if ((rc = idnames_load(names, k, path, &err)) != EXR_OK)
		return complain(rc, "%s: %s", path, err.reason);
	o->names = names;
	return EXR_OK;
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
		if (parse_u64(flag, s + 1, 0, INT64_MAX / NS_I64,
		    &epoch) != EXR_OK)
			return -1;
		*ns = (int64_t)epoch * NS_I64;
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
		/* ns of int64_t: 1677-09-21 to 2262-04-11. */
		if (t > INT64_MAX / NS_I64 || t < INT64_MIN / NS_I64) {
			complain(EXR_USAGE, "%s '%s': past what 64-bit "
			    "nanoseconds hold (1677-09-21 to 2262-04-11)",
			    flag, s);
			return -1;
		}
		*ns = (int64_t)t * NS_I64;
		return 0;
	}
	complain(EXR_USAGE, "%s '%s': not YYYY-MM-DD[THH:MM[:SS]] or @EPOCH",
	    flag, s);
	return -1;
}

/*
 * The window and the zone, once the options are read: every time
 * parsed or printed after this is in the report's zone.
 */
static int
set_window(struct report_opts *o, const char *tz, const char *from,
    const char *to, char *zone, size_t n)
{
	char why[256];

	/* An unknown zone would read as UTC, and say it was that zone. */
	if (tz != NULL && config_zone_check(tz, why, sizeof(why)) != 0)
		return complain(EXR_USAGE, "--tz '%s': %s", tz, why);
	if (tz != NULL && strcmp(tz, "local") != 0)
		setenv("TZ", tz, 1);
	tzset();
	(void)config_zone_name(tz, zone, n);
	o->tz = zone;
	o->open = (from == NULL ? REPORT_OPEN_FROM : 0) |
	    (to == NULL ? REPORT_OPEN_TO : 0);
	if ((from != NULL && parse_time("--from", from, &o->from_ns) != 0) ||
	    (to != NULL && parse_time("--to", to, &o->to_ns) != 0))
		return EXR_USAGE;
	if (from != NULL && to != NULL && o->from_ns >= o->to_ns)
		return complain(EXR_USAGE, "--from %s is not before --to %s: "
		    "the window would be empty", from, to);
	return EXR_OK;
}

int
cmd_report(int argc, char **argv, struct ctx *ctx)
{
	struct cmdopt_parser op = { .doc = &cmd_report_doc };
	struct report_opts o = { .by = BY_USER, .format = FMT_TABLE,
	    .from_ns = INT64_MIN, .to_ns = INT64_MAX, .tolerance = -1 };
	/* The same default as ingest's and run's: the configuration's. */
	const char *db = ctx->cfg->database, *from = NULL, *to = NULL;
	const char *tz = strcmp(ctx->cfg->timezone, "local") != 0 ?
	    ctx->cfg->timezone : NULL;
	static struct idnames names;
	struct report_db d;
	struct ex_err err = { 0 };
	char zone[256];
	uint64_t limit;
	int ch, db_given = 0, central = 0, by_given = 0, rc = EXR_OK;

	idnames_init(&names);
	/* One line an option: what each does is in report_options[]. */
	while (rc == EXR_OK && (ch = cmdopt_next(&op, argc, argv)) != -1) {
		switch (ch) {
		case 'd': db = optarg; db_given++; break;
		case 'C': db = optarg; db_given++; central = 1; break;
		case 'b': rc = parse_keys(optarg, &o); by_given = 1; break;
		case 'E': rc = parse_every(optarg, &o); break;
		case 'S': o.sort = optarg; break;
		case 'n':
			rc = parse_u64("--limit", optarg, 1, INT64_MAX,
			    &limit);
			o.limit = (int64_t)limit;
			break;
		case 'a': o.averages = 1; break;
		case 'P': o.percentiles = 1; break;
		case 'U': rc = load_names(&o, &names, ID_USER, optarg); break;
		case 'G': rc = load_names(&o, &names, ID_GROUP, optarg); break;
		case 'J': rc = load_names(&o, &names, ID_PROJECT, optarg); break;
		case 'N': o.numeric = 1; break;
		case 'f': from = optarg; break;
		case 't': to = optarg; break;
		case 'F': rc = parse_format(optarg, &o); break;
		case 'K': rc = parse_kind(REPORT_CAPTURE, &o); break;
		case 'e': rc = parse_kind(REPORT_ENERGY, &o); break;
		case 'I': o.scan = 1; break;
		case 'T': rc = parse_tolerance(optarg, &o.tolerance); break;
		case 'W': o.forecast = 1; break;
		case 'L': rc = parse_threshold(optarg, &o.threshold); break;
		case 'z': tz = optarg; break;
		case 'u': rc = add_filter(&o, RF_USER, optarg); break;
		case 'g': rc = add_filter(&o, RF_GROUP, optarg); break;
		case 'm': rc = add_filter(&o, RF_COMMAND, optarg); break;
		case 'H': rc = add_filter(&o, RF_HOST, optarg); break;
		case 'y': rc = add_filter(&o, RF_UNIT, optarg); break;
		case 'x': rc = add_filter(&o, RF_CONTAINER, optarg); break;
		case 'h': idnames_release(&names);
			return cmdopt_help(&cmd_report_doc);
		default: idnames_release(&names);
			return cmdopt_bad(&cmd_report_doc);
		}
	}
	if (rc == EXR_OK && (rc = report_check(&o, argc - optind, by_given,
	    &err)) != EXR_OK)
		complain(rc, "%s", err.reason);
	if (rc == EXR_OK && db_given > 1)
		rc = complain(EXR_USAGE, "report: one of --db and --central, "
		    "once: a report reads one store");
	if (rc == EXR_OK && optind < argc && db_given)
		rc = complain(EXR_USAGE, "report: --db or --central and FILE "
		    "operands: FILE mode totals the logs themselves, with no "
		    "database");
	if (rc == EXR_OK)
		rc = set_window(&o, tz, from, to, zone, sizeof(zone));
	if (rc != EXR_OK) {
		idnames_release(&names);
		return rc;
	}
	if (optind < argc) {
		/*
		 * Logs read here are presumably this machine's: their ids
		 * named by its databases where no file is given, as sa
		 * names them.
		 */
		o.names = &names;
		o.names_local = 1;
		rc = report_files(argc - optind, argv + optind, &o);
	} else if ((rc = report_db_open(&d, db, central, tz)) ==
	    EXR_OK) {
		rc = report_db_run(&d, &o);
		report_db_close(&d);
	}
	idnames_release(&names);
	return rc;
}
