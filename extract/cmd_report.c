/*
 * extracct report [--db FILE|CONNINFO] [--by KEY[,KEY...]] [--every PERIOD]
 *     [--from TIME] [--to TIME] [--sort COLUMN] [--limit N] [--averages]
 *     [--percentiles] [--format table|csv|json|svg|html] [--tz ZONE]
 *     [--passwd FILE] [--group FILE] [--project FILE]
 *     [--capture] [--energy] [FILE...]
 *
 * Usage totals from the database (reports/report*.c), the capture ratio
 * (--capture), or, given log files, totals of their exit records with no
 * database (reports/summary.c).  --format svg draws one of them as a
 * chart, --format html a page of all the charts (reports/chart.h).
 * TIME is YYYY-MM-DD[THH:MM[:SS]] in the
 * report's time zone, or @EPOCH seconds.
 */
#include <sys/stat.h>

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>
#ifdef HAVE_LIBPQ
#include <libpq-fe.h>

#include "../fleet/pgconn.h"
#include "../parsers/records.h"
#endif

#include "../parsers/sniff.h"
#include "../reports/chart.h"
#include "../reports/idnames.h"
#include "../reports/report.h"
#include "../store/db.h"
#include "../reports/summary.h"
#include "cmdopt.h"
#include "config.h"
#include "cmd.h"
#include "util.h"
#include "paths.h"
#include "walk.h"

static const struct cmdopt report_options[] = {
	{ 'd', "db", "FILE|CONNINFO", 0,
	    "the database, which must exist; not with FILE operands; or the "
	    "fleet's central PostgreSQL server: postgresql://..., "
	    "service=NAME, host=... dbname=... (default: the configuration's "
	    "database, " PATH_DB ")" },
	{ 'b', "by", "KEY[,KEY...]", 0,
	    "what to total by: up to 4 of user, group, command, project, "
	    "zone, host, hour, comma-separated, each row one set of them "
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
	    "seconds and utilisation, instead of the rows (default: the "
	    "rows)" },
	{ 'I', "scan", NULL, 0,
	    "add up the intervals themselves, not the rollups (the same "
	    "figures, slower; default: the rollups)" },
	{ 'F', "format", "table|csv|json|svg|html", 0,
	    "the output format; svg: a chart of CPU over time by --by (of "
	    "the capture ratio with --capture, of energy with --energy); "
	    "html: a page of all the charts (default: table)" },
	{ 'z', "tz", "ZONE", 0,
	    "the time zone of TIME, hours and times printed: local, UTC or a "
	    "zoneinfo name such as Europe/Paris (default: timezone, local)" },
	{ 'U', "passwd", "FILE", 0,
	    "user names from this passwd file, for logs from another host "
	    "(default: the names ingest stored from the host's own)" },
	{ 'G', "group", "FILE", 0,
	    "group names from this group file (default: the host's, as "
	    "stored)" },
	{ 'J', "project", "FILE", 0,
	    "project names from this project file, Solaris's "
	    "name:projid:... (default: the host's, as stored)" },
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
    "Usage totals by user, group, command, project, zone, host or hour, "
    "or several at once, over time buckets, from "
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
		status = ex_worst(status, rc);
		if (rc == EXR_NOMEM)
			break;
	}
	summary_sort(&f.sum);
	rc = report_print(stdout, o, f.sum.rows, f.sum.n, &err);
	if (rc != EXR_OK)
		complain(rc, "%s", err.reason);
	summary_release(&f.sum);
	return ex_worst(status, rc);
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

/*
 * Does --db name a PostgreSQL server rather than an SQLite file?  A URI
 * (postgresql://, postgres://), or libpq's keyword=value form (host=...
 * dbname=..., service=NAME), unless a file of that name exists.
 */
static int
is_conninfo(const char *db)
{
	size_t n = strspn(db, "abcdefghijklmnopqrstuvwxyz_");

	if (strncmp(db, "postgresql://", 13) == 0 ||
	    strncmp(db, "postgres://", 11) == 0)
		return 1;
	return n > 0 && db[n] == '=' && access(db, F_OK) != 0;
}

/*
 * The report the options ask for, on either engine: a chart (1: svg,
 * 2: the html page), the capture ratio, energy, or usage.
 */
static int
report_on(struct rdb *r, int chart, int capture, int energy,
    const struct report_opts *opts, struct ex_err *err)
{
	struct report_opts w = *opts, *o = &w;
	int64_t out;
	int rc;

	if ((rc = report_window(r, &w, energy, &out, err)) != EXR_OK)
		return rc;
	/* Said apart from the report, whatever its format. */
	if (out > 0)
		say(stderr, "extracct: report: %" PRId64 " interval%s out of "
		    "range (before 1970 or from 2200 on) left out of the "
		    "window; --from and --to take %s in", out, out == 1 ? "" :
		    "s", out == 1 ? "it" : "them");
	if (chart == 2)
		return report_html(r, stdout, o, err);
	if (chart)
		return report_svg(r, stdout, o, capture ? CHART_CAPTURE :
		    energy ? CHART_ENERGY : CHART_CPU, err);
	return capture ? report_capture(r, stdout, o, err) :
	    energy ? report_energy(r, stdout, o, err) :
	    report_run(r, stdout, o, err);
}

#ifdef HAVE_LIBPQ
/*
 * The report's zone by a name the server knows, into buf[n]: its hours
 * (local_hour) must be the ones the client prints.  tz is --tz or the
 * configuration's (NULL or "local": the TZ variable, else the zone
 * /etc/localtime links to, else Debian's /etc/timezone).  0, or -1 if
 * no name can be found.
 */
static int
zone_name(const char *tz, char *buf, size_t n)
{
	static const char marker[] = "zoneinfo/";
	const char *env = getenv("TZ"), *z;
	char link[512];
	ssize_t len;
	FILE *fp;

	if (tz != NULL && strcmp(tz, "local") != 0) {
		snprintf(buf, n, "%s", tz);
		return 0;
	}
	if (env != NULL && env[0] == ':')
		env++;
	/* Set but empty: glibc reads it as UTC. */
	if (env != NULL && env[0] == '\0' && getenv("TZ")[0] == '\0') {
		snprintf(buf, n, "UTC");
		return 0;
	}
	if (env != NULL && env[0] != '\0' && strcmp(env,
	    "/etc/localtime") != 0) {
		/* A path into the zoneinfo tree names its zone. */
		z = strstr(env, marker);
		snprintf(buf, n, "%s", env[0] == '/' && z != NULL ?
		    z + sizeof(marker) - 1 : env);
		return env[0] == '/' && z == NULL ? -1 : 0;
	}
	if ((len = readlink("/etc/localtime", link, sizeof(link) - 1)) > 0) {
		link[len] = '\0';
		if ((z = strstr(link, marker)) != NULL) {
			snprintf(buf, n, "%s", z + sizeof(marker) - 1);
			return 0;
		}
	}
	if ((fp = fopen("/etc/timezone", "r")) != NULL) {
		if (fgets(buf, (int)n, fp) != NULL) {
			buf[strcspn(buf, "\n")] = '\0';
			if (buf[0] != '\0') {
				fclose(fp);
				return 0;
			}
		}
		fclose(fp);
	}
	return -1;
}

/*
 * The same report on the fleet's central server: its published views
 * are the SQLite ones (fleet/central_views.c), read by the same report
 * layer; the session's TimeZone is the report's, so hours bucket alike.
 */
static int
report_central(const char *conninfo, const char *tz, int chart,
    int capture, int energy, const struct report_opts *o)
{
	const char *vals[1];
	char zone[1024], msg[512];
	struct ex_err err = { 0 };
	PGconn *conn;
	PGresult *res;
	struct rdb *r;
	int rc;

	if (zone_name(tz, zone, sizeof(zone)) != 0)
		return complain(EXR_USAGE, "report: the local time zone has no "
		    "name the server could know (TZ, /etc/localtime): give "
		    "--tz ZONE");
	/* A password on the command line is refused: ~/.pgpass has it. */
	if ((rc = pg_open(conninfo, 0, &conn, &err)) != EXR_OK)
		return complain(rc, "report: %s", err.reason);
	vals[0] = zone;
	res = PQexecParams(conn, "SELECT set_config('TimeZone', $1, false)",
	    1, NULL, vals, NULL, NULL, 0);
	if (PQresultStatus(res) != PGRES_TUPLES_OK) {
		pg_msg(conn, res, msg, sizeof(msg));
		PQclear(res);
		PQfinish(conn);
		return complain(EXR_USAGE, "report: central server: time zone "
		    "'%s': %s", zone, msg);
	}
	PQclear(res);
	if ((r = rdb_postgresql(conn)) == NULL) {
		PQfinish(conn);
		return complain(EXR_NOMEM, "report: no memory");
	}
	rc = report_on(r, chart, capture, energy, o, &err);
	/* A usage error is the options', not the server's. */
	if (rc == EXR_USAGE)
		complain(rc, "%s", err.reason);
	else if (rc != EXR_OK)
		complain(rc, "report: central server: %s", err.reason);
	rdb_close(r);
	PQfinish(conn);
	return rc;
}
#endif

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

/* --by KEY[,KEY...] into o's keys; 0, or -1 after a message. */
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
			    "hour", arg, p), -1;
		for (k = 0; k < o->nkeys; k++)
			if (o->keys[k] == (enum report_by)i)
				return complain(EXR_USAGE, "--by '%s': %s "
				    "twice", arg, p), -1;
		if (o->nkeys == REPORT_MAXKEYS)
			return complain(EXR_USAGE, "--by '%s': at most %d "
			    "keys", arg, REPORT_MAXKEYS), -1;
		o->keys[o->nkeys++] = (enum report_by)i;
	}
	o->by = o->keys[0];
	return 0;
}

/*
 * The name of the local zone, for the outputs that say it: TZ's, else
 * the zoneinfo name /etc/localtime links to, else /etc/timezone's,
 * else the zone's abbreviation ("UTC").
 */
static void
local_zone(char *buf, size_t n)
{
	const char *env = getenv("TZ"), *z;
	char link[512];
	ssize_t l;
	FILE *fp;

	if (env != NULL && env[0] != '\0') {
		snprintf(buf, n, "%s", env[0] == ':' ? env + 1 : env);
		return;
	}
	if ((l = readlink("/etc/localtime", link, sizeof(link) - 1)) > 0) {
		link[l] = '\0';
		if ((z = strstr(link, "zoneinfo/")) != NULL) {
			snprintf(buf, n, "%s", z + strlen("zoneinfo/"));
			return;
		}
	}
	if ((fp = fopen("/etc/timezone", "r")) != NULL) {
		if (fgets(buf, (int)n, fp) != NULL) {
			buf[strcspn(buf, " \t\r\n")] = '\0';
			if (buf[0] != '\0') {
				fclose(fp);
				return;
			}
		}
		fclose(fp);
	}
	snprintf(buf, n, "%s", tzname[0]);
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

int
cmd_report(int argc, char **argv, struct ctx *ctx)
{
	struct cmdopt_parser op = { .doc = &cmd_report_doc };
	struct report_opts o = { .by = BY_USER, .format = FMT_TABLE,
	    .from_ns = INT64_MIN, .to_ns = INT64_MAX, .tolerance = 0.05 };
	/* The same default as ingest's and run's: the configuration's. */
	const char *db = ctx->cfg->database, *from = NULL, *to = NULL;
	const char *tz = strcmp(ctx->cfg->timezone, "local") != 0 ?
	    ctx->cfg->timezone : NULL;
	static struct idnames names;
	struct ex_err err = { 0 };
	sqlite3 *h = NULL;
	struct rdb *r;
	char zone[256], why[256];
	uint64_t limit;
	int ch, i, rc, capture = 0, energy = 0, db_given = 0, by_given = 0;

	idnames_init(&names);
	int chart = 0;		/* 1: --format svg, 2: --format html */

	while ((ch = cmdopt_next(&op, argc, argv)) != -1) {
		switch (ch) {
		case 'd':	/* the database */
			db = optarg;
			db_given = 1;
			break;
		case 'b':	/* what to total by */
			if (parse_keys(optarg, &o) != 0)
				return EXR_USAGE;
			by_given = 1;
			break;
		case 'E':	/* time buckets */
			for (i = EVERY_HOUR; i <= EVERY_MONTH; i++)
				if (strcmp(optarg, report_every_names[i]) == 0)
					break;
			if (i > EVERY_MONTH)
				return complain(EXR_USAGE, "--every '%s': not "
				    "hour, day, week or month", optarg);
			o.every = (enum report_every)i;
			break;
		case 'S':	/* the column to sort by */
			o.sort = optarg;
			break;
		case 'n':	/* rows before ***other */
			if (parse_u64("--limit", optarg, 1, INT64_MAX,
			    &limit) != EXR_OK)
				return EXR_USAGE;
			o.limit = (int64_t)limit;
			break;
		case 'a':	/* per-call averages */
			o.averages = 1;
			break;
		case 'P':	/* p50/p95/max of the buckets */
			o.percentiles = 1;
			break;
		case 'U':	/* names from files */
		case 'G':
		case 'J':
			rc = idnames_load(&names, ch == 'U' ? ID_USER :
			    ch == 'G' ? ID_GROUP : ID_PROJECT, optarg, &err);
			if (rc != EXR_OK) {
				idnames_release(&names);
				return complain(rc, "%s: %s", optarg,
				    err.reason);
			}
			o.names = &names;
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
			else if (strcmp(optarg, "svg") == 0 ||
			    strcmp(optarg, "html") == 0)
				chart = optarg[0] == 's' ? 1 : 2;
			else
				return complain(EXR_USAGE, "--format '%s': not "
				    "table, csv, json, svg or html", optarg);
			if (optarg[0] != 's' && optarg[0] != 'h')
				chart = 0;
			break;
		case 'c':	/* the capture ratio instead of usage */
			capture = 1;
			break;
		case 'I':	/* the intervals, not the rollups */
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
	if (chart && (optind != argc || o.nkeys > 1 || o.by == BY_HOUR))
		return complain(EXR_USAGE, "--format svg|html: charts read the "
		    "database, --by user, command, project, zone or host");
	if (chart == 2 && (capture || energy))
		return complain(EXR_USAGE, "--format html draws every chart: "
		    "no --capture or --energy");
	if (capture && optind != argc)
		return complain(EXR_USAGE, "--capture reads the database, not "
		    "files");
	if (energy && (capture || optind != argc))
		return complain(EXR_USAGE, "--energy reads the database, and "
		    "not with --capture");
	if (energy && (o.nkeys > 1 || (o.by != BY_USER && o.by != BY_COMMAND &&
	    o.by != BY_HOST)))
		return complain(EXR_USAGE, "--energy: --by user, command or "
		    "host");
	if ((capture || energy) && (o.every != EVERY_NONE || o.percentiles ||
	    o.sort != NULL || o.limit > 0 || o.averages))
		return complain(EXR_USAGE, "--every, --percentiles, --sort, "
		    "--limit and --averages are for usage, not --%s",
		    capture ? "capture" : "energy");
	if (o.percentiles && o.every == EVERY_NONE)
		return complain(EXR_USAGE, "--percentiles: of a series of "
		    "buckets; name them with --every");
	if (optind != argc && (o.nkeys > 1 || o.every != EVERY_NONE))
		return complain(EXR_USAGE, "report FILE...: one --by key, and "
		    "no --every (those need a database)");
	if (o.every != EVERY_NONE && !by_given)
		o.keyless = 1;
	/* An unknown zone would read as UTC, and say it was that zone. */
	if (tz != NULL && config_zone_check(tz, why, sizeof(why)) != 0)
		return complain(EXR_USAGE, "--tz '%s': %s", tz, why);
	/* Every time below, parsed or printed, is in this zone. */
	if (tz != NULL && strcmp(tz, "local") != 0)
		setenv("TZ", tz, 1);
	tzset();
	if (tz == NULL || strcmp(tz, "local") == 0) {
		local_zone(zone, sizeof(zone));
		o.tz = zone;
	} else
		o.tz = tz;
	o.open = (from == NULL ? REPORT_OPEN_FROM : 0) |
	    (to == NULL ? REPORT_OPEN_TO : 0);
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
	if (optind < argc) {
		rc = report_files(argc - optind, argv + optind, &o);
		idnames_release(&names);
		return rc;
	}

	if (is_conninfo(db)) {
#ifdef HAVE_LIBPQ
		rc = report_central(db, tz, chart, capture, energy, &o);
		idnames_release(&names);
		return rc;
#else
		return complain(EXR_NOPG, "report: --db postgresql://... "
		    "(or service=, host=...) reads a PostgreSQL server, and "
		    "this extracct was built without libpq: build it with "
		    "libpq-dev installed, and not NO_LIBPQ=1");
#endif
	}
	memset(&err, 0, sizeof(err));
	if ((rc = db_open_readonly(db, &h, &err)) != EXR_OK)
		return complain(rc, "%s: %s", db, err.reason);
	if ((r = rdb_sqlite(h)) == NULL) {
		db_close(h);
		return complain(EXR_NOMEM, "%s: no memory", db);
	}
	rc = report_on(r, chart, capture, energy, &o, &err);
	/* A usage error is the options', not the database's. */
	if (rc == EXR_USAGE)
		complain(rc, "%s", err.reason);
	else if (rc != EXR_OK)
		complain(rc, "%s: %s", db, err.reason);
	rdb_close(r);
	db_close(h);
	idnames_release(&names);
	return rc;
}
