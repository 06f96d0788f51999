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

/* {"pacct": 0.130, ...}'s members for the alternates of one window. */
static void
json_alts(FILE *fp, const struct alt *alt, int nalt, int64_t pc, int64_t bu)
{
	char r[16];
	int k;

	for (k = 0; k < nalt; k++) {
		ratio_text(r, sizeof(r), pc + alt[k].delta_ns, bu);
		fprintf(fp, "%s", k > 0 ? ", " : "");
		json_raw(fp, alt[k].source);
		fprintf(fp, ": %s", strcmp(r, "-") == 0 ? "null" : r);
	}
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
			    rdb_int64(st, 1) / NS_I64);
		fmt_datetime(t1, sizeof(t1), rdb_int64(st, 2) /
		    NS_I64);
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
	char t0[40], t1[40], cpu[32], busy[32], ratio[16], alts[128];
	struct alt alt[MAX_ALT], tot[MAX_ALT];
	int64_t sum_cpu = 0, sum_busy = 0, sum_lost = 0;
	struct rdb_q *st, *q;
	int rc, nalt, ntot = 0, csv = o->format == FMT_CSV;
	int json = o->format == FMT_JSON, nrow = 0;

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
	else if (json) {
		fputs("{\"report\": \"capture\", \"tz\": ", fp);
		json_raw(fp, o->tz);
		fprintf(fp, ", \"tolerance\": %g, \"windows\": [",
		    o->tolerance);
	} else
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
	if (!csv && !json && capture_gaps(db, fp, o, err) != EXR_OK) {
		rdb_finalize(st);
		rdb_finalize(q);
		return EXR_DB;
	}
	while ((rc = rdb_step(st)) == RDB_ROW) {
		char host[128];
		const char *src = rdb_text(st, 5);
		int64_t t0n = rdb_int64(st, 1);
		int64_t t1n = rdb_int64(st, 2);
		int64_t a = t0n / NS_I64, b = t1n / NS_I64;
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
			csv_field(fp, rdb_text(st, 0) != NULL ? rdb_text(st, 0) :
			    "");
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
		} else if (json) {
			fprintf(fp, "%s\n  {\"host\": ", nrow++ > 0 ? "," : "");
			json_raw(fp, rdb_text(st, 0) != NULL ? rdb_text(st, 0) :
			    "");
			fprintf(fp, ", \"t0_epoch_s\": %" PRId64 ", "
			    "\"t1_epoch_s\": %" PRId64 ", \"proc_cpu_s\": %s, "
			    "\"busy_cpu_s\": %s, \"capture_ratio\": %s, "
			    "\"exit_sources\": ", a, b, cpu, busy,
			    strcmp(ratio, "-") == 0 ? "null" : ratio);
			if (src != NULL)
				json_raw(fp, src);
			else
				fputs("null", fp);
			fprintf(fp, ", \"lost_exits\": %" PRId64 ", "
			    "\"other_sources\": {", lost);
			json_alts(fp, alt, nalt, pc, bu);
			fputs("}}", fp);
		} else
			fprintf(fp, "%-16s %-19s %-19s %12s %12s %7s %-11s "
			    "%5" PRId64 " %s\n", host,
			    fmt_datetime(t0, sizeof(t0), a),
			    fmt_datetime(t1, sizeof(t1), b), cpu, busy, ratio,
			    src != NULL ? src : "-", lost, alts);
		if (!csv && !json &&
		    capture_out_of_tolerance(pc, bu, o->tolerance) &&
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
	if (json) {
		fmt_secs(cpu, sizeof(cpu), sum_cpu);
		fmt_secs(busy, sizeof(busy), sum_busy);
		ratio_text(ratio, sizeof(ratio), sum_cpu, sum_busy);
		fprintf(fp, "\n], \"total\": {\"proc_cpu_s\": %s, "
		    "\"busy_cpu_s\": %s, \"capture_ratio\": %s, "
		    "\"lost_exits\": %" PRId64 ", \"other_sources\": {", cpu,
		    busy, strcmp(ratio, "-") == 0 ? "null" : ratio, sum_lost);
		json_alts(fp, tot, ntot, sum_cpu, sum_busy);
		fputs("}}}\n", fp);
	} else if (!csv) {
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

