/*
 * report --capture: the capture ratio per snapshot interval and over the
 * window, per host (see report.h), with the stretches accounting was off
 * and, under a window out of tolerance, its top processes.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../parsers/records.h"
#include "csv.h"
#include "fmt.h"
#include "report_int.h"

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

/* {"pacct": 0.130, ...}: the alternates of one window as JSON. */
static void
json_alts(char *buf, size_t n, const struct alt *alt, int nalt, int64_t pc,
    int64_t bu)
{
	char r[16], *m = NULL;
	size_t ml = 0;
	FILE *fp = open_memstream(&m, &ml);
	int k;

	if (fp == NULL) {
		snprintf(buf, n, "{}");
		return;
	}
	fputc('{', fp);
	for (k = 0; k < nalt; k++) {
		ratio_text(r, sizeof(r), pc + alt[k].delta_ns, bu);
		/* A source is a name from the database: JSON-escaped. */
		fputs(k > 0 ? ", " : "", fp);
		json_raw(fp, alt[k].source);
		fprintf(fp, ": %s", strcmp(r, "-") == 0 ? "null" : r);
	}
	fputc('}', fp);
	fclose(fp);
	snprintf(buf, n, "%s", m != NULL ? m : "{}");
	free(m);
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
capture_gaps(struct rdb *db, struct rtab *t, const struct report_opts *o,
    struct ex_err *err)
{
	static const struct report_filter_cols cols = { .host = "host" };
	char sql[256 + REPORT_FILTER_SQL], where[REPORT_FILTER_SQL];
	char host[128], t0[40], t1[40], why[600];
	struct rdb_q *st;
	int rc;

	if ((rc = report_filter_sql(o, rdb_engine(db), &cols, 3, where,
	    sizeof(where), err)) != EXR_OK)
		return rc;
	snprintf(sql, sizeof(sql), "SELECT host, t0_ns, t1_ns, reason FROM "
	    "v_pacct_gaps WHERE t1_ns > ?1 AND coalesce(t0_ns, 0) <= ?2%s"
	    " ORDER BY host, t1_ns", where);
	if (rdb_prepare(db, sql, &st) != 0)
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	rdb_bind_int64(st, 1, o->from_ns);
	rdb_bind_int64(st, 2, o->to_ns);
	report_filter_bind(st, o, rdb_engine(db), &cols, 3);
	while ((rc = rdb_step(st)) == RDB_ROW) {
		fmt_escape(host, sizeof(host), 
		    rdb_text(st, 0), ESC_SPACE);
		fmt_escape(why, sizeof(why), 
		    rdb_text(st, 3), 0);
		if (rdb_isnull(st, 1))
			snprintf(t0, sizeof(t0), "an unknown time");
		else
			fmt_datetime(t0, sizeof(t0),
			    rdb_int64(st, 1) / NS_I64);
		fmt_datetime(t1, sizeof(t1), rdb_int64(st, 2) /
		    NS_I64);
		rtab_note(t, "# %s: accounting was off from %s to %s (%s): "
		    "exits then were not recorded\n", host, t0, t1, why);
	}
	rdb_finalize(st);
	return rc == RDB_DONE ? EXR_OK :
	    ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
}

/* The columns: one list, each in the formats it has a value in. */
enum { C_HOST, C_FROM, C_TO, C_T0_UTC, C_T0, C_T1_UTC, C_T1, C_TZ, C_PROC,
	C_BUSY, C_RATIO, C_EXITS, C_LOST, C_OTHER, C_ENDED, C_ENDED_CPU,
	C_ENDED_ZERO };

static void
capture_cols(struct rtab *t, enum report_format fmt)
{
	static const struct {
		const char	*name, *tname;
		enum col_kind	 kind;
		unsigned	 formats, flags;
		int		 minw;
	} c[] = {
		[C_HOST] = { "host", NULL, COL_TEXT, COLF_ALL, 0, 16 },
		[C_FROM] = { "from", NULL, COL_TEXT, COLF_TABLE, RTC_OURS, 19 },
		[C_TO] = { "to", NULL, COL_TEXT, COLF_TABLE, RTC_OURS, 19 },
		[C_T0_UTC] = { "t0_utc", NULL, COL_TEXT, COLF_CSV, 0, 0 },
		[C_T0] = { "t0_epoch_s", NULL, COL_NUM, COLF_CSV | COLF_JSON,
		    0, 0 },
		[C_T1_UTC] = { "t1_utc", NULL, COL_TEXT, COLF_CSV, 0, 0 },
		[C_T1] = { "t1_epoch_s", NULL, COL_NUM, COLF_CSV | COLF_JSON,
		    0, 0 },
		[C_TZ] = { "tz", NULL, COL_TEXT, COLF_CSV, 0, 0 },
		[C_PROC] = { "proc_cpu_s", NULL, COL_NUM, COLF_ALL, 0, 12 },
		[C_BUSY] = { "busy_cpu_s", NULL, COL_NUM, COLF_ALL, 0, 12 },
		[C_RATIO] = { "capture_ratio", "ratio", COL_NUM, COLF_ALL, 0,
		    7 },
		[C_EXITS] = { "exit_sources", "exits", COL_TEXT, COLF_ALL,
		    RTC_OURS, 11 },
		[C_LOST] = { "lost_exits", "lost", COL_NUM, COLF_ALL, 0, 5 },
		[C_OTHER] = { "other_sources", "other", COL_TEXT, COLF_ALL,
		    RTC_OURS, 0 },
		/* Processes that ended in the window: the table says them
		 * under a window out of tolerance. */
		[C_ENDED] = { "ended", NULL, COL_NUM, COLF_CSV | COLF_JSON,
		    0, 0 },
		[C_ENDED_CPU] = { "ended_cpu_s", NULL, COL_NUM,
		    COLF_CSV | COLF_JSON, 0, 0 },
		[C_ENDED_ZERO] = { "ended_zero_cpu", NULL, COL_NUM,
		    COLF_CSV | COLF_JSON, 0, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		int j = rtab_col(t, c[i].name, i == C_OTHER &&
		    fmt == FMT_JSON ? COL_JSON : c[i].kind, c[i].formats,
		    c[i].flags, c[i].minw);

		if (j >= 0 && c[i].tname != NULL)
			snprintf(t->col[j].tname, sizeof(t->col[j].tname),
			    "%s", c[i].tname);
	}
}

/* The exits of a window (or all windows'), and the table's note. */
static void
put_exits(struct rtab *t, const struct capture_exits *x, int note)
{
	char cpu[32];

	fmt_secs(cpu, sizeof(cpu), x->cpu_ns);
	rtab_putf(t, C_ENDED, "%" PRId64, x->n);
	rtab_put(t, C_ENDED_CPU, cpu);
	rtab_putf(t, C_ENDED_ZERO, "%" PRId64, x->zero);
	if (note && x->n == 0)
		rtab_note(t, "  ended: no exit recorded in it\n");
	else if (note)
		rtab_note(t, "  ended: %" PRId64 " processes, %s s CPU in "
		    "their exit records, %" PRId64 " of them 0 s (pacct "
		    "counts 10 ms ticks: a short process is 0)\n", x->n, cpu,
		    x->zero);
}

/*
 * Whether the view (or table) named has any row: 1, 0, or -1
 * (database).  Without a capture window there is no busy CPU to hold
 * the processes against; without an alternate exit no window has other
 * sources, and the query per window that looks for them is skipped.
 */
static int
has_rows(struct rdb *db, const char *view)
{
	char sql[128];
	struct rdb_q *q;
	int n = -1;

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM (SELECT 1 FROM %s "
	    "LIMIT 1) x", view);
	if (rdb_prepare(db, sql, &q) != 0)
		return -1;
	if (rdb_step(q) == RDB_ROW)
		n = rdb_int64(q, 0) > 0;
	rdb_finalize(q);
	return n;
}

/* The figures a window and the total share: CPU, ratio, alternates. */
static void
put_figures(struct rtab *t, enum report_format fmt, int64_t pc,
    int64_t bu, int64_t lost, const struct alt *alt, int nalt)
{
	char b[256];

	fmt_secs(b, sizeof(b), pc);
	rtab_put(t, C_PROC, b);
	fmt_secs(b, sizeof(b), bu);
	rtab_put(t, C_BUSY, b);
	ratio_text(b, sizeof(b), pc, bu);
	rtab_put(t, C_RATIO, b);
	rtab_putf(t, C_LOST, "%" PRId64, lost);
	if (fmt == FMT_JSON)
		json_alts(b, sizeof(b), alt, nalt, pc, bu);
	else
		alt_text(b, sizeof(b), alt, nalt, pc, bu);
	/* CSV: no alternates is an empty cell. */
	rtab_put(t, C_OTHER, fmt == FMT_CSV && nalt == 0 ? "" : b);
}

int
report_capture(struct rdb *db, FILE *fp, const struct report_opts *o,
    struct ex_err *err)
{
	/* Only --host narrows it (report_check). */
	static const struct report_filter_cols cols = { .host = "h.host" };
	char sql[512 + REPORT_FILTER_SQL], where[REPORT_FILTER_SQL];
	static const char alt_sql[] =
	    /* max(a, 0) as a CASE: PostgreSQL's max takes one. */
	    "SELECT x.source, sum(CASE WHEN coalesce(x.cpu_user_ns, 0) +"
	    "   coalesce(x.cpu_sys_ns, 0) - coalesce(x.base_cpu_ns, 0) > 0"
	    "   THEN coalesce(x.cpu_user_ns, 0) + coalesce(x.cpu_sys_ns, 0) -"
	    "   coalesce(x.base_cpu_ns, 0) ELSE 0 END -"
	    "   coalesce(i.cpu_user_ns, 0) - coalesce(i.cpu_sys_ns, 0))"
	    " FROM v_proc_usage i JOIN v_alt_exits x USING (proc_id)"
	    " WHERE i.host = ?1 AND i.final = 1 AND i.t1_ns > ?2"
	    "   AND i.t1_ns <= ?3 AND i.t0_ns >= ?2 - " NS_SQL
	    " GROUP BY x.source ORDER BY x.source";
	char b[40], tz[256];
	struct capture_exits x, xsum = { 0, 0, 0 };
	struct alt alt[MAX_ALT], tot[MAX_ALT];
	int64_t sum_cpu = 0, sum_busy = 0, sum_lost = 0;
	struct rdb_q *st = NULL, *q = NULL, *qx = NULL;
	struct rtab t;
	int rc, nalt = 0, ntot = 0, alts, table = o->format == FMT_TABLE;

	rtab_init(&t);
	if ((rc = has_rows(db, "capture")) <= 0) {
		if (rc < 0)
			return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
		return ex_fail(err, EXR_USAGE, 0, "--capture: no snapshots "
		    "in the database: the ratio needs the busy CPU that snap "
		    "records (extracct snap, or the hourly job)");
	}
	capture_cols(&t, o->format);
	rtab_head(&t, "# capture ratio: process CPU / busy CPU "
	    "(user+nice+system)");
	report_filter_head(&t, o);
	rtab_head(&t, "; time zone %s\n"
	    "# exits: the exit source that closed the window's "
	    "processes; lost: exit records lost (dropped by the kernel,"
	    " or not written);\n"
	    "# other: the ratio had another source that recorded the "
	    "same exits closed them\n"
	    "# top: under a window whose ratio is outside %g..%g, "
	    "the %d processes with the most CPU in it\n",
	    fmt_escape(tz, sizeof(tz), o->tz, 0), 1 - o->tolerance,
	    1 + o->tolerance, CAPTURE_TOP);
	rtab_meta(&t, "report", COL_TEXT, "capture");
	rtab_meta(&t, "tz", COL_TEXT, o->tz);
	snprintf(b, sizeof(b), "%g", o->tolerance);
	rtab_meta(&t, "tolerance", COL_NUM, b);
	t.rows_name = "windows";
	if ((rc = report_filter_sql(o, rdb_engine(db), &cols, 3, where,
	    sizeof(where), err)) != EXR_OK)
		goto out;
	snprintf(sql, sizeof(sql), "SELECT h.host, c.t0_ns, c.t1_ns, "
	    "c.proc_cpu_ns, c.busy_ns, c.exit_sources, c.lost FROM capture c "
	    "JOIN v_hosts h USING (host_id) WHERE c.t1_ns > ?1 AND "
	    "c.t0_ns >= ?1 AND c.t1_ns <= ?2%s ORDER BY h.host, c.t0_ns",
	    where);
	if ((alts = has_rows(db, "v_alt_exits")) < 0 ||
	    rdb_prepare(db, sql, &st) != 0 ||
	    (alts && rdb_prepare(db, alt_sql, &q) != 0) ||
	    rdb_prepare(db, CAPTURE_EXITS_SQL, &qx) != 0) {
		rc = ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
		goto out;
	}
	if (table && (rc = capture_gaps(db, &t, o, err)) != EXR_OK)
		goto out;
	rdb_bind_int64(st, 1, o->from_ns);
	rdb_bind_int64(st, 2, o->to_ns);
	report_filter_bind(st, o, rdb_engine(db), &cols, 3);
	while ((rc = rdb_step(st)) == RDB_ROW) {
		const char *host = rdb_text(st, 0);
		const char *src = rdb_text(st, 5);
		int64_t t0n = rdb_int64(st, 1), t1n = rdb_int64(st, 2);
		int64_t a = t0n / NS_I64, z = t1n / NS_I64;
		int64_t pc = rdb_int64(st, 3), bu = rdb_int64(st, 4);
		int64_t lost = rdb_int64(st, 6);

		int off;

		if ((alts && alt_deltas(q, host, t0n, t1n, alt, &nalt) != 0) ||
		    capture_exits(qx, host, t0n, t1n, &x) != 0) {
			rc = RDB_ERROR;
			break;
		}
		off = capture_out_of_tolerance(pc, bu, o->tolerance);
		rtab_row(&t);
		rtab_put(&t, C_HOST, host != NULL ? host : table ? "-" : "");
		rtab_put(&t, C_FROM, fmt_datetime(b, sizeof(b), a));
		rtab_put(&t, C_TO, fmt_datetime(b, sizeof(b), z));
		rtab_put(&t, C_T0_UTC, csv_utc(b, sizeof(b), a));
		rtab_putf(&t, C_T0, "%" PRId64, a);
		rtab_put(&t, C_T1_UTC, csv_utc(b, sizeof(b), z));
		rtab_putf(&t, C_T1, "%" PRId64, z);
		rtab_put(&t, C_TZ, o->tz);
		rtab_put(&t, C_EXITS, src != NULL ? src : table ? "-" : NULL);
		put_figures(&t, o->format, pc, bu, lost, alt, nalt);
		/* Under a window out of tolerance: where its CPU went. */
		put_exits(&t, &x, table && off);
		if (table && off && (rc = capture_top(db, &t, host, t0n, t1n,
		    CAPTURE_TOP, err)) != EXR_OK)
			goto out;
		xsum.n += x.n;
		xsum.cpu_ns += x.cpu_ns;
		xsum.zero += x.zero;
		sum_cpu += pc;
		sum_busy += bu;
		sum_lost += lost;
		alt_sum(tot, &ntot, alt, nalt);
	}
	if (rc != RDB_DONE) {
		rc = ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
		goto out;
	}
	rtab_total(&t);
	if (table)
		rtab_put(&t, C_HOST, "total");
	put_figures(&t, o->format, sum_cpu, sum_busy, sum_lost, tot, ntot);
	put_exits(&t, &xsum, 0);
	rc = rtab_print(fp, &t, o->format) != 0 ? ex_fail(err, EXR_NOMEM, 0,
	    "no memory") : ferror(fp) ? ex_fail(err, EXR_IO, 0,
	    "write error") : EXR_OK;
out:
	rdb_finalize(st);
	rdb_finalize(q);
	rdb_finalize(qx);
	rtab_free(&t);
	return rc;
}
