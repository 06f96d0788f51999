/*
 * The usage report (see report.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../parsers/compat.h"
#include "csv.h"
#include "fmt.h"
#include "report.h"
#include "../store/rollup_sql.h"

/* What every usage report says of split values. */
#define APPORTIONED "values of an interval spanning several hours are " \
	"apportioned to each hour in proportion to its time in it"

const char *const report_by_names[] = {
	"user", "command", "project", "zone", "host", "hour"
};

/* The grouping expression for each --by. */
static const char *const key_sql[] = {
	[BY_USER] = "i.uid",
	[BY_COMMAND] = "i.command",
	[BY_PROJECT] = "i.projid",
	[BY_ZONE] = "i.zone",
	[BY_HOST] = "i.host",
	[BY_HOUR] = "local_hour(i.hour_s * 1000000000)",
};

static const char *const key_name[] = {
	[BY_USER] = "uid", [BY_COMMAND] = "command", [BY_PROJECT] = "projid",
	[BY_ZONE] = "zone", [BY_HOST] = "host", [BY_HOUR] = "hour_start",
};


static void
hour_text(char *b, size_t n, int64_t epoch)
{
	struct tm tm;
	time_t t = (time_t)epoch;

	if (localtime_r(&t, &tm) == NULL ||
	    strftime(b, n, "%Y-%m-%d %H:00", &tm) == 0)
		snprintf(b, n, "?");
}

/* The table's key column: spaces escaped too, so columns still split. */
static const char *
table_key(char *b, size_t n, const struct report_row *r)
{
	return fmt_escape(b, n, r->key, ESC_SPACE);
}

static void
print_table(FILE *fp, const struct report_opts *o, const struct report_row *r,
    size_t n, __int128 cpu_total)
{
	char k[4 * sizeof(r->key)], u[48], s[48], c[48], re[48], pct[48],
	    ch[48];
	size_t i;

	fprintf(fp, "%-24s %8s %12s %12s %12s %12s %6s %16s %12s %10s %12s\n",
	    key_name[o->by], "calls", "cpu_user_s", "cpu_sys_s", "cpu_s",
	    "real_s", "cpu%", "chars_rdwr_B", "rss_max_kb", "majflt",
	    "syscalls");
	for (i = 0; i < n; i++) {
		__int128 cpu = r[i].user_ns + r[i].sys_ns;

		fmt_secs128(u, sizeof(u), r[i].user_ns);
		fmt_secs128(s, sizeof(s), r[i].sys_ns);
		fmt_secs128(c, sizeof(c), cpu);
		fmt_secs128(re, sizeof(re), r[i].real_ns);
		fmt_fixed128(pct, sizeof(pct), cpu_total > 0 && cpu > 0 ?
		    (unsigned __int128)cpu * 100 : 0, cpu_total > 0 ?
		    (unsigned __int128)cpu_total : 1, 2);
		fprintf(fp, "%-24s %8" PRId64 " %12s %12s %12s %12s %6s %16s"
		    " %12" PRId64 " %10" PRId64 " %12" PRId64 "\n",
		    table_key(k, sizeof(k), &r[i]), r[i].calls, u, s, c, re,
		    pct, fmt_int128(ch, sizeof(ch), r[i].chars),
		    r[i].rss_max_kb, r[i].faults_major, r[i].syscalls);
	}
}

static void
print_csv(FILE *fp, const struct report_opts *o, const struct report_row *r,
    size_t n)
{
	char u[48], s[48], re[48], ch[48], utc[40];
	size_t i;

	if (o->by == BY_HOUR)
		fputs("hour_start_local,hour_start_utc,hour_start_epoch_s,", fp);
	else
		fprintf(fp, "%s,", key_name[o->by]);
	fputs("tz,calls,cpu_user_s,cpu_sys_s,real_s,chars_rdwr_bytes,"
	    "rss_max_kb,faults_major,syscalls,apportioned\r\n", fp);
	for (i = 0; i < n; i++) {
		fmt_secs128(u, sizeof(u), r[i].user_ns);
		fmt_secs128(s, sizeof(s), r[i].sys_ns);
		fmt_secs128(re, sizeof(re), r[i].real_ns);
		csv_text(fp, r[i].key);
		if (o->by == BY_HOUR)
			fprintf(fp, ",%s,%" PRId64, csv_utc(utc, sizeof(utc),
			    r[i].hour_epoch), r[i].hour_epoch);
		fputc(',', fp);
		csv_text(fp, o->tz);
		fprintf(fp, ",%" PRId64 ",%s,%s,%s,%s,%" PRId64 ",%" PRId64
		    ",%" PRId64 ",hourly\r\n", r[i].calls, u, s, re,
		    fmt_int128(ch, sizeof(ch), r[i].chars), r[i].rss_max_kb,
		    r[i].faults_major, r[i].syscalls);
	}
}


static void
print_json(FILE *fp, const struct report_opts *o, const struct report_row *r,
    size_t n)
{
	char u[48], s[48], re[48], ch[48];
	size_t i;

	fprintf(fp, "{\"by\": \"%s\", \"tz\": ", report_by_names[o->by]);
	json_str(fp, o->tz);
	fputs(", \"apportioned\": \"" APPORTIONED "\"", fp);
	fputs(", \"rows\": [", fp);
	for (i = 0; i < n; i++) {
		fmt_secs128(u, sizeof(u), r[i].user_ns);
		fmt_secs128(s, sizeof(s), r[i].sys_ns);
		fmt_secs128(re, sizeof(re), r[i].real_ns);
		fprintf(fp, "%s\n  {\"%s\": ", i > 0 ? "," : "",
		    key_name[o->by]);
		json_str(fp, r[i].key);
		if (o->by == BY_HOUR)
			fprintf(fp, ", \"hour_start_epoch_s\": %" PRId64,
			    r[i].hour_epoch);
		fprintf(fp, ", \"calls\": %" PRId64 ", \"cpu_user_s\": %s, "
		    "\"cpu_sys_s\": %s, \"real_s\": %s, \"chars_rdwr_bytes\": "
		    "%s, \"rss_max_kb\": %" PRId64 ", \"faults_major\": %"
		    PRId64 ", \"syscalls\": %" PRId64 "}", r[i].calls, u, s, re,
		    fmt_int128(ch, sizeof(ch), r[i].chars), r[i].rss_max_kb,
		    r[i].faults_major, r[i].syscalls);
	}
	fputs("\n]}\n", fp);
}

/* "a/b" as a ratio with 3 places, or "-" when b is 0. */
static void
ratio_text(char *buf, size_t n, int64_t a, int64_t b)
{
	if (b <= 0 || a < 0)
		snprintf(buf, n, "-");
	else
		fmt_fixed(buf, n, (uint64_t)a, (uint64_t)b, 3);
}

/*
 * Exit sources other than the one that closed the processes (acctd and
 * pacct both on): what each would have made of a window's process CPU.
 * Each final interval ending in the window is recomputed from that
 * source's exit record and the process's CPU at its last observation;
 * processes it did not record keep the figure they have.
 */
#define MAX_ALT	4

struct alt {
	char	 source[16];
	int64_t	 delta_ns;	/* to add to the window's process CPU */
};

static int
alt_deltas(struct rdb_q *q, const char *host, int64_t t0,
    int64_t t1, struct alt *alt, int *nalt)
{
	int rc;

	*nalt = 0;
	rdb_bind_text(q, 1, host);
	rdb_bind_int64(q, 2, t0);
	rdb_bind_int64(q, 3, t1);
	while ((rc = rdb_step(q)) == RDB_ROW && *nalt < MAX_ALT) {
		const char *src = rdb_text(q, 0);

		snprintf(alt[*nalt].source, sizeof(alt[*nalt].source), "%s",
		    src != NULL ? src : "?");
		alt[(*nalt)++].delta_ns = rdb_int64(q, 1);
	}
	rdb_reset(q);
	return rc == RDB_ROW || rc == RDB_DONE ? 0 : -1;
}

/* "pacct=0.130 ..." for the alternates of one window, or "-". */
static void
alt_text(char *buf, size_t n, const struct alt *alt, int nalt, int64_t pc,
    int64_t bu)
{
	char r[16];
	size_t o = 0;
	int k;

	buf[0] = '\0';
	for (k = 0; k < nalt && o < n; k++) {
		ratio_text(r, sizeof(r), pc + alt[k].delta_ns, bu);
		o += (size_t)snprintf(buf + o, n - o, "%s%s=%s", k ? " " : "",
		    alt[k].source, r);
	}
	if (nalt == 0)
		snprintf(buf, n, "-");
}

/* Add one window's alternates into the running totals. */
static void
alt_sum(struct alt *tot, int *ntot, const struct alt *alt, int nalt)
{
	int k, m;

	for (k = 0; k < nalt; k++) {
		for (m = 0; m < *ntot; m++)
			if (strcmp(tot[m].source, alt[k].source) == 0)
				break;
		if (m == *ntot) {
			if (*ntot == MAX_ALT)
				continue;
			tot[m] = alt[k];
			tot[m].delta_ns = 0;
			(*ntot)++;
		}
		tot[m].delta_ns += alt[k].delta_ns;
	}
}

/*
 * The stretches process accounting was found off (v_pacct_gaps, issue
 * 15) that overlap the report's window, a comment line each: exits in
 * them were never written, whatever the ratio says.
 */
static int
capture_gaps(struct rdb *db, FILE *fp, const struct report_opts *o,
    struct ex_err *err)
{
	static const char sql[] =
	    "SELECT host, t0_ns, t1_ns, reason FROM v_pacct_gaps"
	    " WHERE t1_ns > ?1 AND coalesce(t0_ns, 0) <= ?2"
	    " ORDER BY host, t1_ns";
	char host[128], t0[40], t1[40], why[600];
	struct rdb_q *st;
	int rc;

	if (rdb_prepare(db, sql, &st) != 0)
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	rdb_bind_int64(st, 1, o->from_ns);
	rdb_bind_int64(st, 2, o->to_ns);
	while ((rc = rdb_step(st)) == RDB_ROW) {
		fmt_escape(host, sizeof(host), 
		    rdb_text(st, 0), ESC_SPACE);
		fmt_escape(why, sizeof(why), 
		    rdb_text(st, 3), 0);
		if (rdb_isnull(st, 1))
			snprintf(t0, sizeof(t0), "an unknown time");
		else
			fmt_datetime(t0, sizeof(t0),
			    rdb_int64(st, 1) / 1000000000);
		fmt_datetime(t1, sizeof(t1), rdb_int64(st, 2) /
		    1000000000);
		fprintf(fp, "# %s: accounting was off from %s to %s (%s): "
		    "exits then were not recorded\n", host, t0, t1, why);
	}
	rdb_finalize(st);
	return rc == RDB_DONE ? EXR_OK :
	    ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
}

int
report_capture(struct rdb *db, FILE *fp, const struct report_opts *o,
    struct ex_err *err)
{
	static const char sql[] =
	    "SELECT h.host, c.t0_ns, c.t1_ns, c.proc_cpu_ns, c.busy_ns,"
	    " c.exit_sources, c.lost"
	    " FROM capture c JOIN v_hosts h USING (host_id)"
	    " WHERE c.t1_ns > ?1 AND c.t0_ns >= ?1 AND c.t1_ns <= ?2"
	    " ORDER BY h.host, c.t0_ns";
	static const char alt_sql[] =
	    "SELECT x.source, sum(max(coalesce(x.cpu_user_ns, 0) +"
	    "   coalesce(x.cpu_sys_ns, 0) - coalesce(x.base_cpu_ns, 0), 0) -"
	    "   coalesce(i.cpu_user_ns, 0) - coalesce(i.cpu_sys_ns, 0))"
	    " FROM v_proc_usage i JOIN v_alt_exits x USING (proc_id)"
	    " WHERE i.host = ?1 AND i.final = 1 AND i.t1_ns > ?2"
	    "   AND i.t1_ns <= ?3 AND i.t0_ns >= ?2 - 1000000000"
	    " GROUP BY x.source ORDER BY x.source";
	char t0[40], t1[40], cpu[32], busy[32], ratio[16], alts[128];
	struct alt alt[MAX_ALT], tot[MAX_ALT];
	int64_t sum_cpu = 0, sum_busy = 0, sum_lost = 0;
	struct rdb_q *st, *q;
	int rc, nalt, ntot = 0, csv = o->format == FMT_CSV;

	if (rdb_prepare(db, sql, &st) != 0)
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	if (rdb_prepare(db, alt_sql, &q) != 0) {
		rdb_finalize(st);
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	}
	rdb_bind_int64(st, 1, o->from_ns);
	rdb_bind_int64(st, 2, o->to_ns);
	if (csv)
		fputs("host,t0_utc,t0_epoch_s,t1_utc,t1_epoch_s,tz,"
		    "proc_cpu_s,busy_cpu_s,capture_ratio,exit_sources,"
		    "lost_exits,other_sources\r\n", fp);
	else
		fprintf(fp, "# capture ratio: process CPU / busy CPU "
		    "(user+nice+system); time zone %s\n"
		    "# exits: the exit source that closed the window's "
		    "processes; lost: exit records lost (dropped by the kernel,"
		    " or not written);\n"
		    "# other: the ratio had another source that recorded the "
		    "same exits closed them\n"
		    "# top: under a window whose ratio is outside %g..%g, "
		    "the %d processes with the most CPU in it\n"
		    "%-16s %-19s %-19s "
		    "%12s %12s %7s %-11s %5s %s\n", o->tz, 1 - o->tolerance,
		    1 + o->tolerance, CAPTURE_TOP, "host", "from", "to",
		    "proc_cpu_s", "busy_cpu_s", "ratio", "exits", "lost",
		    "other");
	if (!csv && capture_gaps(db, fp, o, err) != EXR_OK) {
		rdb_finalize(st);
		rdb_finalize(q);
		return EXR_DB;
	}
	while ((rc = rdb_step(st)) == RDB_ROW) {
		char host[128];
		const char *src = rdb_text(st, 5);
		int64_t t0n = rdb_int64(st, 1);
		int64_t t1n = rdb_int64(st, 2);
		int64_t a = t0n / 1000000000, b = t1n / 1000000000;
		int64_t pc = rdb_int64(st, 3);
		int64_t bu = rdb_int64(st, 4);
		int64_t lost = rdb_int64(st, 6);

		if (alt_deltas(q, rdb_text(st, 0), t0n, t1n, alt,
		    &nalt) != 0) {
			rc = RDB_ERROR;
			break;
		}
		alt_text(alts, sizeof(alts), alt, nalt, pc, bu);
		/* Host names come from log headers: escape them. */
		fmt_escape(host, sizeof(host), rdb_text(st, 0) !=
		    NULL ? rdb_text(st, 0) : "-",
		    ESC_SPACE);
		fmt_secs(cpu, sizeof(cpu), pc);
		fmt_secs(busy, sizeof(busy), bu);
		ratio_text(ratio, sizeof(ratio), pc, bu);
		if (csv) {
			csv_field(fp, host);
			fprintf(fp, ",%s,%" PRId64 ",", csv_utc(t0, sizeof(t0),
			    a), a);
			fprintf(fp, "%s,%" PRId64 ",", csv_utc(t1, sizeof(t1),
			    b), b);
			csv_field(fp, o->tz);
			fprintf(fp, ",%s,%s,%s,", cpu, busy, ratio);
			csv_field(fp, src != NULL ? src : "");
			fprintf(fp, ",%" PRId64 ",", lost);
			csv_field(fp, nalt > 0 ? alts : "");
			fputs("\r\n", fp);
		} else
			fprintf(fp, "%-16s %-19s %-19s %12s %12s %7s %-11s "
			    "%5" PRId64 " %s\n", host,
			    fmt_datetime(t0, sizeof(t0), a),
			    fmt_datetime(t1, sizeof(t1), b), cpu, busy, ratio,
			    src != NULL ? src : "-", lost, alts);
		if (!csv && capture_out_of_tolerance(pc, bu, o->tolerance) &&
		    capture_top(db, fp, rdb_text(st, 0), t0n, t1n,
		    CAPTURE_TOP, err) != EXR_OK) {
			rdb_finalize(st);
			rdb_finalize(q);
			return EXR_DB;
		}
		sum_cpu += pc;
		sum_busy += bu;
		sum_lost += lost;
		alt_sum(tot, &ntot, alt, nalt);
	}
	rdb_finalize(st);
	rdb_finalize(q);
	if (rc != RDB_DONE)
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	if (!csv) {
		fmt_secs(cpu, sizeof(cpu), sum_cpu);
		fmt_secs(busy, sizeof(busy), sum_busy);
		ratio_text(ratio, sizeof(ratio), sum_cpu, sum_busy);
		alt_text(alts, sizeof(alts), tot, ntot, sum_cpu, sum_busy);
		fprintf(fp, "%-16s %-19s %-19s %12s %12s %7s %-11s %5" PRId64
		    " %s\n", "total", "", "", cpu, busy, ratio, "", sum_lost,
		    alts);
	}
	return ferror(fp) ? ex_fail(err, EXR_IO, 0, "write error") : EXR_OK;
}

int
report_print(FILE *fp, const struct report_opts *o,
    const struct report_row *rows, size_t n, struct ex_err *err)
{
	char from[40], to[40];
	__int128 cpu_total = 0;
	size_t i;

	for (i = 0; i < n; i++)
		cpu_total += rows[i].user_ns + rows[i].sys_ns;
	switch (o->format) {
	case FMT_TABLE:
		fprintf(fp, "# usage by %s, ", report_by_names[o->by]);
		if (o->from_ns == INT64_MIN)
			fputs("from the start", fp);
		else
			fprintf(fp, "from %s", fmt_datetime(from, sizeof(from),
			    o->from_ns / 1000000000));
		if (o->to_ns == INT64_MAX)
			fputs(" to the end", fp);
		else
			fprintf(fp, " to %s", fmt_datetime(to, sizeof(to),
			    o->to_ns / 1000000000));
		fputs("; time zone ", fp);
		fmt_escape_fp(fp, o->tz, 0);
		fputs("\n# " APPORTIONED "; calls: processes that "
		    "ended\n", fp);
		print_table(fp, o, rows, n, cpu_total);
		break;
	case FMT_CSV:
		print_csv(fp, o, rows, n);
		break;
	case FMT_JSON:
		print_json(fp, o, rows, n);
		break;
	}
	return ferror(fp) ? ex_fail(err, EXR_IO, 0, "write error") : EXR_OK;
}

/*
 * An exact sum of a column of nanoseconds (or bytes) that cannot
 * overflow: SQLite's sum() of integers stops with "integer overflow" at
 * 2^63 (292 years of ns, passed by a host's daemons in a year), and
 * total() is a double, exact only to 2^53 ns (104 days).  So the rows
 * hold each value as whole 10^9s and the remainder (NAME_g, NAME_r:
 * store/rollup_sql.h), summed apart (each stays far below 2^63: 2^63
 * s, or 9e9 rows of remainders) and joined in 128 bits (split_get).
 */
#define GR_SUM(x)	"sum(i." x "_g), sum(i." x "_r)"

/* The split sum in columns col and col + 1. */
static __int128
split_get(struct rdb_q *st, int col)
{
	return (__int128)rdb_int64(st, col) * 1000000000 +
	    rdb_int64(st, col + 1);
}

/* The hour and day (epoch s) at or after t, and at or before. */
static int64_t
up_to(int64_t t, int64_t unit)
{
	int64_t r = (t % unit + unit) % unit;

	return r == 0 ? t : t + (unit - r);
}

static int64_t
down_to(int64_t t, int64_t unit)
{
	return t - (t % unit + unit) % unit;
}

/*
 * Where the rows come from, as a subquery named i with the key columns
 * and the rollups' values, and its window: the parameters it takes go
 * into p[], *np of them (each used, so that every engine can type it).
 * The window: the first hour counted and the end (s, h0 and h1), the
 * first and the end of the whole days among them (d0, d1), read from
 * the daily rollups; the scan reads the intervals ending from from_ns.
 */
/*
 * The scan: every key through the split, for each engine (the fence
 * differs: rollup_sql.h).  Not formats: SQL's % is in them.
 */
#define SCAN_SQL "(SELECT uid, command, projid, zone, host, hour_s, " \
	RU_PART_GR " FROM (" RU_PARTS("uid, command, projid, zone, host, ", \
	"v_proc_usage WHERE t1_ns >= ?1") ") x WHERE x.hour_s >= ?2 AND " \
	"x.hour_s < ?3)"
static const char scan_sqlite[] = SCAN_SQL;
#undef RU_FENCE
#define RU_FENCE "OFFSET 0"
static const char scan_pg[] = SCAN_SQL;

static void
rows_from(char *b, size_t n, const struct report_opts *o,
    enum rdb_engine engine, int64_t *p, int *np)
{
	static const char *const col[] = {
		[BY_USER] = "uid", [BY_COMMAND] = "command",
		[BY_PROJECT] = "projid", [BY_ZONE] = "zone",
		[BY_HOST] = "host", [BY_HOUR] = "host",
	};
	int64_t h0, h1;

	/* The hours that start in the window, and the whole days. */
	h0 = up_to(o->from_ns / 1000000000 + (o->from_ns % 1000000000 > 0),
	    3600);
	h1 = o->to_ns / 1000000000 + (o->to_ns % 1000000000 > 0);
	if (o->scan) {
		snprintf(b, n, "%s", engine == RDB_POSTGRESQL ? scan_pg :
		    scan_sqlite);
		p[0] = o->from_ns;
		p[1] = h0;
		p[2] = h1;
		*np = 3;
	} else if (o->by == BY_HOUR) {
		snprintf(b, n, "(SELECT * FROM v_usage_rollup_host WHERE "
		    "hour_s >= ?1 AND hour_s < ?2)");
		p[0] = h0;
		p[1] = h1;
		*np = 2;
	} else {
		snprintf(b, n, "(SELECT %s, " RU_TABLE_COLS " FROM "
		    "v_usage_rollup_day WHERE day_s >= ?3 AND day_s < ?4 "
		    "UNION ALL SELECT %s, " RU_TABLE_COLS " FROM v_usage_rollup "
		    "WHERE hour_s >= ?1 AND hour_s < ?2 AND "
		    "(hour_s < ?3 OR hour_s >= ?4))", col[o->by], col[o->by]);
		p[0] = h0;
		p[1] = h1;
		p[2] = up_to(h0, 86400);
		p[3] = down_to(h1, 86400);
		*np = 4;
	}
}

/* A count from its split sum, held at INT64_MAX past it. */
static int64_t
count_get(struct rdb_q *st, int col)
{
	__int128 v = split_get(st, col);

	return v > INT64_MAX ? INT64_MAX : v < 0 ? 0 : (int64_t)v;
}

int
report_run(struct rdb *db, FILE *fp, const struct report_opts *o,
    struct ex_err *err)
{
	char sql[16384], from[12288];
	struct rdb_q *st;
	struct report_row *rows = NULL, *nr;
	size_t n = 0, cap = 0;
	int64_t p[4];
	int i, rc, np;

	rows_from(from, sizeof(from), o, rdb_engine(db), p, &np);
	snprintf(sql, sizeof(sql),
	    "SELECT %s AS k, sum(i.calls), "
	    GR_SUM("cpu_user_ns") ", " GR_SUM("cpu_sys_ns") ", "
	    GR_SUM("real_ns") ", " GR_SUM("chars_rdwr") ","
	    " max(i.rss_max_kb), " GR_SUM("faults_major") ", "
	    GR_SUM("syscalls") " FROM %s i GROUP BY k ORDER BY %s",
	    key_sql[o->by], from,
	    /*
	     * Hours read best in time order; everything else by CPU: the
	     * split sums above (SQLite computes each once), joined as a
	     * double, as the seconds cannot be times 1e9 in 64 bits.  So
	     * groups within 1 us of each other beyond 2^53 ns (104 days)
	     * may come in key order instead.
	     */
	    o->by == BY_HOUR ? "k" : "(coalesce(sum(i.cpu_user_ns_g), 0) + "
	    "coalesce(sum(i.cpu_sys_ns_g), 0)) * 1e9 + "
	    "coalesce(sum(i.cpu_user_ns_r), 0) + "
	    "coalesce(sum(i.cpu_sys_ns_r), 0) DESC, k");
	if (rdb_prepare(db, sql, &st) != 0)
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	for (i = 0; i < np; i++)
		rdb_bind_int64(st, i + 1, p[i]);
	while ((rc = rdb_step(st)) == RDB_ROW) {
		struct report_row *r;
		const char *k = rdb_text(st, 0);

		if (n == cap) {
			cap = cap == 0 ? 64 : cap * 2;
			if ((nr = ex_reallocarray(rows, cap, sizeof(*rows))) ==
			    NULL) {
				free(rows);
				rdb_finalize(st);
				return ex_fail(err, EXR_NOMEM, 0, "no memory");
			}
			rows = nr;
		}
		r = &rows[n++];
		memset(r, 0, sizeof(*r));
		if (o->by == BY_HOUR) {
			r->hour_epoch = rdb_int64(st, 0);
			hour_text(r->key, sizeof(r->key), r->hour_epoch);
		} else
			snprintf(r->key, sizeof(r->key), "%s", k != NULL ?
			    k : "-");
		r->calls = rdb_int64(st, 1);
		r->user_ns = split_get(st, 2);
		r->sys_ns = split_get(st, 4);
		r->real_ns = split_get(st, 6);
		r->chars = split_get(st, 8);
		r->rss_max_kb = rdb_int64(st, 10);
		r->faults_major = count_get(st, 11);
		r->syscalls = count_get(st, 13);
	}
	rdb_finalize(st);
	if (rc != RDB_DONE) {
		free(rows);
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	}
	rc = report_print(fp, o, rows, n, err);
	free(rows);
	return rc;
}
