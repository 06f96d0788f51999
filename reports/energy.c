/*
 * report --energy: energy per command, user or host (docs/schema.md),
 * largest first.  Joules, average watts over the span the group was
 * sampled, the peak watts of one process over one interval, CPU seconds,
 * joules per CPU-second, the group's share, and grams CO2e from each
 * host's configured carbon intensity.  Ranked by energy, not CPU: a
 * process at 101% CPU can draw less power than one at 37%.
 *
 * Two bases, never mixed in one row: "measured" is the per-process
 * energy counter of energy snapshots (energy_intervals); "estimate" is a
 * host's RAPL energy shared out by CPU time (v_energy_estimate).  A
 * measured row's share is of all measured energy in the window; an
 * estimate's is of the hosts' RAPL energy, idle included.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parsers/records.h"
#include "fmt.h"
#include "report_int.h"
#include "rtab.h"

enum basis { MEASURED, ESTIMATE };

static const char *const basis_names[] = { "measured", "estimate" };

/*
 * Energy is summed as REAL: a fleet's nanojoules pass 2^63 (9.2 GJ,
 * 2.6 MWh) within months.
 */
struct erow {
	enum basis	 basis;
	char		 key[128];	/* as stored; escaped in print */
	int		 keynull;	/* the key is NULL (key "-") */
	int64_t		 procs;
	double		 energy_nj;	/* < 0: no energy known */
	int64_t		 span_ns;
	double		 peak_w;	/* the group's, at one instant */
	double		 peak_proc_w;	/* one process's, one interval */
	__int128	 cpu_ns;	/* exact: report.c's split sum */
	double		 grams;		/* < 0: an intensity is missing */
	char		 sources[256];	/* of the intensities */
};

struct erows {
	struct erow	*v;
	size_t		 n, cap;
};

/*
 * One query per basis, after "SELECT key, ": processes, nJ, rows with
 * energy, span, one process's peak W, the group's peak W (the most its
 * rows ending at one instant drew together: a window partitioned by key
 * and t1_ns, so the group's processes sampled at one snapshot), g CO2e
 * (NULL unless every row's host has an intensity; 1 kWh = 3.6e15 nJ),
 * the intensities' sources, then CPU ns
 * as whole seconds and remainders (summed apart: one sum of ns would
 * overflow at 292 CPU-years, as in report.c).  Written so that SQLite
 * and PostgreSQL compute the same: nJ as a double by CAST (x * 1.0 is a
 * double in SQLite, an exact decimal in PostgreSQL), a NULL key first.
 */
static const struct basis_sql {
	const char	*cols;		/* after "SELECT key, " */
	const char	*from;		/* then the partition key, */
	const char	*from_end;	/* then the filters, */
	const char	*from_close;	/* then the name join (NAME_JOIN) */
	const char	*host;		/* the rows' host label, for it */
	const char	*rest;
	struct report_filter_cols filter;
} measured_sql = {
    "count(DISTINCT eproc_id), sum(CAST(i.energy_nj AS DOUBLE PRECISION)),"
    " count(i.energy_nj), max(i.t1_ns) - min(i.t0_ns), "
    "max(CAST(i.energy_nj AS DOUBLE PRECISION) / (i.t1_ns - i.t0_ns)), "
    "max(i.group_w), CASE WHEN count(i.energy_nj) = count(i.energy_nj * "
    "i.carbon_g_per_kwh) THEN sum(i.energy_nj * i.carbon_g_per_kwh) / "
    "3.6e15 END, group_concat(DISTINCT i.carbon_source), "
    "coalesce(sum(i.cpu_ns / " NS_SQL "), 0), "
    "coalesce(sum(i.cpu_ns % " NS_SQL "), 0)",
    "FROM (SELECT i.*, sum(CAST(i.energy_nj AS DOUBLE PRECISION) / "
    "(i.t1_ns - i.t0_ns)) OVER (PARTITION BY ", ", i.t1_ns) AS group_w "
    "FROM v_energy_usage i WHERE i.t1_ns >= ?1 AND i.t1_ns < ?2 "
    "AND i.t1_ns > i.t0_ns", ") i", "i.host",
    "WHERE i.t1_ns >= ?1 AND i.t1_ns < ?2 AND i.t1_ns > i.t0_ns "
    "GROUP BY 1 ORDER BY 3 DESC NULLS LAST, 1 NULLS FIRST",
    { "i.uid", NULL, "i.command", "i.host", 0, NULL, NULL }
}, estimate_sql = {
    "count(DISTINCT e.proc_id), sum(e.energy_nj), "
    "count(e.energy_nj), max(e.t1_ns) - min(e.t0_ns), "
    "max(e.energy_nj / (e.t1_ns - e.t0_ns)), max(e.group_w), "
    "CASE WHEN count(e.energy_nj) = count(e.energy_nj * "
    "h.carbon_g_per_kwh) THEN sum(e.energy_nj * h.carbon_g_per_kwh) / "
    "3.6e15 END, group_concat(DISTINCT h.carbon_source), "
    "coalesce(sum(e.cpu_ns / " NS_SQL "), 0), "
    "coalesce(sum(e.cpu_ns % " NS_SQL "), 0)",
    "FROM (SELECT e.*, sum(e.energy_nj / (e.t1_ns - e.t0_ns)) OVER "
    "(PARTITION BY ", ", e.t1_ns) AS group_w FROM v_energy_estimate e "
    "JOIN v_hosts h USING (host_id) WHERE e.t1_ns >= ?1 AND e.t1_ns < ?2",
    ") e JOIN v_hosts h USING (host_id)", "h.host",
    "WHERE e.t1_ns >= ?1 AND e.t1_ns < ?2 "
    "GROUP BY 1 ORDER BY 3 DESC NULLS LAST, 1 NULLS FIRST",
    { "e.uid", NULL, "e.command", "h.host", 0, NULL, NULL }
};

/* "a/b" to 3 places, or "-" (doubles: energy is REAL, see above). */
static void
ratio3(char *buf, size_t n, double a, double b)
{
	if (a < 0 || b <= 0)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.3f", a / b);
}

/*
 * The columns after the key, one name in every format (the table has no
 * carbon_sources: its comment lines say them), and the table's widths.
 */
static const char *const cols[] = { "basis", "processes", "joules",
    "avg_watts", "peak_watts", "peak_proc_watts", "cpu_s",
    "joules_per_cpu_s", "share", "g_co2e" };
static const int widths[] = { 8, 9, 12, 9, 10, 15, 12, 16, 6, 10 };
#define NCOLS	(sizeof(cols) / sizeof(cols[0]))

/* Row r's cells; an unknown figure is "-" (JSON: null). */
static void
put_row(struct rtab *t, enum report_format fmt, const struct erow *r,
    double total_nj)
{
	int known = r->energy_nj >= 0;
	char b[48];

	rtab_row(t);
	/* A NULL key: "-" in a table, empty in CSV, null in JSON. */
	rtab_put(t, 0, r->keynull && fmt != FMT_TABLE ? NULL : r->key);
	rtab_put(t, 1, basis_names[r->basis]);
	rtab_putf(t, 2, "%" PRId64, r->procs);
	ratio3(b, sizeof(b), r->energy_nj, 1e9);
	rtab_put(t, 3, b);
	ratio3(b, sizeof(b), r->energy_nj, (double)r->span_ns);
	rtab_put(t, 4, b);
	rtab_putf(t, 5, known ? "%.3f" : "-", r->peak_w);
	rtab_putf(t, 6, known ? "%.3f" : "-", r->peak_proc_w);
	fmt_secs128(b, sizeof(b), r->cpu_ns);
	rtab_put(t, 7, b);
	ratio3(b, sizeof(b), r->energy_nj, (double)r->cpu_ns);
	rtab_put(t, 8, b);
	ratio3(b, sizeof(b), r->energy_nj, total_nj);
	rtab_put(t, 9, b);
	rtab_putf(t, 10, known && r->grams >= 0 ? "%.3f" : "-", r->grams);
	rtab_put(t, 11, r->sources);
}

/* The rows of one basis, appended to rows; *total gets their nJ. */
static int
query_rows(struct rdb *db, const struct basis_sql *q, const char *key,
    const char *part, const struct report_opts *o, enum basis b, struct erows *rows,
    double *total, struct ex_err *err)
{
	char sql[2048 + REPORT_FILTER_SQL], from[512 + REPORT_FILTER_SQL];
	char ncol[256] = "", njoin[256] = "", where[REPORT_FILTER_SQL];
	struct rdb_q *st;
	struct erow *r;
	int rc, kind = report_name_kind(o->by);
	int named = o->format == FMT_TABLE && kind >= 0 &&
	    report_names_stored(o, kind);

	/* Users by name in the table, as the usage table shows them. */
	if (named) {
		snprintf(ncol, sizeof(ncol), ", " NAME_OF("n"));
		snprintf(njoin, sizeof(njoin), NAME_JOIN("n", "%s", "%s",
		    "%s"), q->host, report_name_kinds[kind], key);
	}
	if ((rc = report_filter_sql(o, rdb_engine(db), &q->filter, 3, where,
	    sizeof(where), err)) != EXR_OK)
		return rc;
	/*
	 * The group's instants: its rows partitioned by key and end, of
	 * the rows the filters keep (a group's peak is theirs alone).
	 */
	snprintf(from, sizeof(from), "%s%s%s%s%s", q->from, part, q->from_end,
	    where, q->from_close);
	snprintf(sql, sizeof(sql), "SELECT %s, %s%s %s%s %s", key, q->cols,
	    ncol, from, njoin, q->rest);
	if (rdb_prepare(db, sql, &st) != 0)
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	rdb_bind_int64(st, 1, o->from_ns);
	rdb_bind_int64(st, 2, o->to_ns);
	report_filter_bind(st, o, rdb_engine(db), &q->filter, 3);
	*total = 0;
	while ((rc = rdb_step(st)) == RDB_ROW) {
		const char *k = rdb_text(st, 0), *name;
		const char *src = rdb_text(st, 8);

		if (rows->n == rows->cap) {
			size_t cap = rows->cap ? rows->cap * 2 : 64;
			struct erow *v = realloc(rows->v, cap * sizeof(*v));

			if (v == NULL) {
				rdb_finalize(st);
				return ex_fail(err, EXR_NOMEM, 0, "no memory");
			}
			rows->v = v;
			rows->cap = cap;
		}
		r = &rows->v[rows->n++];
		r->basis = b;
		if (k != NULL && o->format == FMT_TABLE && kind >= 0 &&
		    (name = report_id_name(o, kind, rdb_int64(st, 0), named ?
		    rdb_text(st, 11) : NULL)) != NULL)
			k = name;
		snprintf(r->key, sizeof(r->key), "%s", k != NULL ?
		    k : "-");
		r->keynull = k == NULL;
		r->procs = rdb_int64(st, 1);
		r->energy_nj = rdb_int64(st, 3) > 0 ?
		    rdb_double(st, 2) : -1;
		r->span_ns = rdb_int64(st, 4);
		r->peak_proc_w = rdb_double(st, 5);
		r->peak_w = rdb_double(st, 6);
		r->grams = rdb_isnull(st, 7) ? -1 :
		    rdb_double(st, 7);
		r->cpu_ns = (__int128)rdb_int64(st, 9) *
		    NS_I64 + rdb_int64(st, 10);
		snprintf(r->sources, sizeof(r->sources), "%s", src != NULL ?
		    src : "");
		if (r->energy_nj > 0)
			*total += r->energy_nj;
	}
	rdb_finalize(st);
	if (rc != RDB_DONE && rc != RDB_ROW)
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	return EXR_OK;
}

/* All hosts' RAPL energy in the window, nJ: what estimates share out. */
static int
rapl_total(struct rdb *db, const struct report_opts *o, double *nj,
    struct ex_err *err)
{
	/* The hosts --host names: the energy the rows' hosts had. */
	static const struct report_filter_cols hosts = { .host = "h.host" };
	struct report_opts ho = *o;
	char sql[256 + REPORT_FILTER_SQL], where[REPORT_FILTER_SQL];
	struct rdb_q *st;
	int rc;

	ho.filter.n[RF_USER] = ho.filter.n[RF_GROUP] =
	    ho.filter.n[RF_COMMAND] = ho.filter.n[RF_UNIT] =
	    ho.filter.n[RF_CONTAINER] = 0;
	if ((rc = report_filter_sql(&ho, rdb_engine(db), &hosts, 3, where,
	    sizeof(where), err)) != EXR_OK)
		return rc;
	snprintf(sql, sizeof(sql), "SELECT coalesce(sum(r.energy_uj), 0) * "
	    "1e3 FROM v_rapl_host r JOIN v_hosts h USING (host_id) WHERE "
	    "r.t1_ns >= ?1 AND r.t1_ns < ?2%s", where);
	if (rdb_prepare(db, sql, &st) != 0)
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	rdb_bind_int64(st, 1, o->from_ns);
	rdb_bind_int64(st, 2, o->to_ns);
	report_filter_bind(st, &ho, rdb_engine(db), &hosts, 3);
	rc = rdb_step(st);
	*nj = rc == RDB_ROW ? rdb_double(st, 0) : 0;
	rdb_finalize(st);
	return rc == RDB_ROW ? EXR_OK :
	    ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
}

/* The table's comment lines: each host's intensity and its source. */
static void
print_intensities(struct rdb *db, struct rtab *t)
{
	char host[512], src[1024];
	struct rdb_q *st;

	if (rdb_prepare(db, "SELECT host, carbon_g_per_kwh, "
	    "coalesce(carbon_source, 'no source given') FROM v_hosts "
	    "WHERE carbon_g_per_kwh IS NOT NULL ORDER BY host", &st) != 0)
		return;
	/* Host names come from log headers: escaped, as is the source. */
	while (rdb_step(st) == RDB_ROW)
		rtab_head(t, "# carbon intensity of %s: %g g CO2e/kWh (%s)\n",
		    fmt_escape(host, sizeof(host), rdb_text(st, 0), 0),
		    rdb_double(st, 1), fmt_escape(src, sizeof(src),
		    rdb_text(st, 2), 0));
	rdb_finalize(st);
}

int
report_energy(struct rdb *db, FILE *fp, const struct report_opts *o,
    struct ex_err *err)
{
	static const char *const keys[][3] = {
		[BY_USER] = { "i.uid", "e.uid", "e.uid" },
		[BY_COMMAND] = { "i.command", "e.command", "e.command" },
		[BY_HOST] = { "i.host", "h.host", "e.host_id" },
	};
	struct erows rows = { NULL, 0, 0 };
	double measured, estimated, rapl;	/* nJ */
	struct rtab t;
	char tz[256];
	size_t nmeasured, i, c;
	int rc;

	if (o->by != BY_USER && o->by != BY_COMMAND && o->by != BY_HOST)
		return ex_fail(err, EXR_USAGE, 0, "--energy: --by user, "
		    "command or host");
	if ((rc = query_rows(db, &measured_sql, keys[o->by][0],
	    keys[o->by][0], o, MEASURED,
	    &rows, &measured, err)) != EXR_OK)
		goto out;
	nmeasured = rows.n;
	if ((rc = query_rows(db, &estimate_sql, keys[o->by][1],
	    keys[o->by][2], o, ESTIMATE,
	    &rows, &estimated, err)) != EXR_OK ||
	    (rc = rapl_total(db, o, &rapl, err)) != EXR_OK)
		goto out;
	rtab_init(&t);
	/* A uid is a number in JSON; the table puts every key left. */
	rtab_col(&t, report_key_names[o->by], o->by == BY_USER &&
	    o->format != FMT_TABLE ? COL_NUM : COL_TEXT, COLF_ALL, 0, 0);
	/* The table's key shows names: headed "user", as usage's is. */
	snprintf(t.col[0].tname, sizeof(t.col[0].tname), "%s",
	    report_by_names[o->by]);
	for (c = 0; c < NCOLS; c++)
		rtab_col(&t, cols[c], c == 0 ? COL_TEXT : COL_NUM, COLF_ALL,
		    0, widths[c]);
	rtab_col(&t, "carbon_sources", COL_TEXT, COLF_CSV | COLF_JSON, 0, 0);
	/* Estimates share out all the RAPL energy, idle CPUs' too. */
	if (rapl < estimated)
		rapl = estimated;
	for (i = 0; i < rows.n; i++)
		put_row(&t, o->format, &rows.v[i], i < nmeasured ? measured :
		    rapl);
	rtab_head(&t, "# energy by %s", report_by_names[o->by]);
	report_filter_head(&t, o);
	rtab_head(&t, "; time zone %s; ranked by joules; "
	    "estimate = a host's RAPL energy shared by CPU time\n",
	    fmt_escape(tz, sizeof(tz), o->tz, 0));
	rtab_head(&t, "# avg_watts: the %s's joules over the time observed "
	    "(first interval's start to last one's end); peak_watts: its "
	    "highest total power at one sampling instant; peak_proc_watts: "
	    "one process's highest over one interval\n",
	    report_by_names[o->by]);
	print_intensities(db, &t);
	rtab_meta(&t, "by", COL_TEXT, report_by_names[o->by]);
	rtab_meta(&t, "tz", COL_TEXT, o->tz);
	if (rtab_print(fp, &t, o->format) != 0) {
		rtab_free(&t);
		rc = ex_fail(err, EXR_NOMEM, 0, "no memory");
		goto out;
	}
	rtab_free(&t);
	rc = ferror(fp) ? ex_fail(err, EXR_IO, 0, "write error") : EXR_OK;
out:
	free(rows.v);
	return rc;
}
