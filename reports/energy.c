/*
 * report --energy: energy per command, user or host from the energy
 * intervals (docs/schema.md), largest first.  Joules, average watts over
 * the span the group was sampled, the peak watts of one process over one
 * interval, CPU seconds, joules per CPU-second, and the group's share of
 * all the energy in the window.  Ranked by energy, not CPU: a process at
 * 101% CPU can draw less power than one at 37%.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "csv.h"
#include "fmt.h"
#include "report.h"

struct erow {
	char		 key[128];
	int64_t		 procs;
	int64_t		 energy_nj;	/* -1: no energy measured */
	int64_t		 span_ns;
	double		 peak_w;
	int64_t		 cpu_ns;
};

#define MAX_EROWS	4096

/* "a/b" to 3 places, or "-". */
static void
ratio3(char *buf, size_t n, int64_t a, int64_t b)
{
	if (a < 0 || b <= 0)
		snprintf(buf, n, "-");
	else
		fmt_fixed(buf, n, (uint64_t)a, (uint64_t)b, 3);
}

static void
print_row(FILE *fp, const struct report_opts *o, const struct erow *r,
    int64_t total_nj, int first)
{
	char j[32], avg[32], peak[32], cpu[32], jpc[32], share[32];

	ratio3(j, sizeof(j), r->energy_nj, 1000000000);
	ratio3(avg, sizeof(avg), r->energy_nj, r->span_ns);
	if (r->energy_nj < 0)
		snprintf(peak, sizeof(peak), "-");
	else
		snprintf(peak, sizeof(peak), "%.3f", r->peak_w);
	fmt_secs(cpu, sizeof(cpu), r->cpu_ns);
	ratio3(jpc, sizeof(jpc), r->energy_nj, r->cpu_ns);
	ratio3(share, sizeof(share), r->energy_nj, total_nj);
	switch (o->format) {
	case FMT_TABLE:
		fprintf(fp, "%-24s %6" PRId64 " %12s %9s %9s %12s %11s %6s\n",
		    r->key, r->procs, j, avg, peak, cpu, jpc, share);
		break;
	case FMT_CSV:
		csv_field(fp, r->key);
		fprintf(fp, ",%" PRId64 ",%s,%s,%s,%s,%s,%s\r\n", r->procs,
		    j, avg, peak, cpu, jpc, share);
		break;
	case FMT_JSON:
		fprintf(fp, "%s\n  {\"key\": ", first ? "" : ",");
		json_str(fp, r->key);
		fprintf(fp, ", \"processes\": %" PRId64 ", \"joules\": %s, "
		    "\"avg_watts\": %s, \"peak_watts\": %s, \"cpu_s\": %s, "
		    "\"joules_per_cpu_s\": %s, \"share\": %s}", r->procs,
		    r->energy_nj < 0 ? "null" : j,
		    r->energy_nj < 0 ? "null" : avg,
		    r->energy_nj < 0 ? "null" : peak, cpu,
		    r->energy_nj < 0 ? "null" : jpc,
		    r->energy_nj < 0 ? "null" : share);
		break;
	}
}

int
report_energy(sqlite3 *db, FILE *fp, const struct report_opts *o,
    struct ex_err *err)
{
	static const char *const keys[] = {
		[BY_USER] = "p.uid", [BY_COMMAND] = "p.command",
		[BY_HOST] = "h.name",
	};
	static struct erow rows[MAX_EROWS];
	char sql[1024];
	sqlite3_stmt *st;
	int64_t total = 0;
	size_t n = 0, i;
	int rc;

	if (o->by != BY_USER && o->by != BY_COMMAND && o->by != BY_HOST)
		return ex_fail(err, EXR_USAGE, 0, "--energy: --by user, "
		    "command or host");
	snprintf(sql, sizeof(sql), "SELECT %s, count(DISTINCT eproc_id), "
	    "sum(i.energy_nj), count(i.energy_nj), max(i.t1_ns) - "
	    "min(i.t0_ns), max(i.energy_nj * 1.0 / (i.t1_ns - i.t0_ns)), "
	    "coalesce(sum(i.cpu_ns), 0) "
	    "FROM energy_intervals i JOIN energy_procs p USING (eproc_id) "
	    "JOIN hosts h USING (host_id) "
	    "WHERE i.t1_ns >= ?1 AND i.t1_ns < ?2 AND i.t1_ns > i.t0_ns "
	    "GROUP BY 1 ORDER BY 3 DESC NULLS LAST, 1", keys[o->by]);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return ex_fail(err, EXR_DB, 0, "%s", sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, o->from_ns);
	sqlite3_bind_int64(st, 2, o->to_ns);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < MAX_EROWS) {
		struct erow *r = &rows[n++];
		const unsigned char *k = sqlite3_column_text(st, 0);

		fmt_escape(r->key, sizeof(r->key), k != NULL ?
		    (const char *)k : "-", ESC_SPACE);
		r->procs = sqlite3_column_int64(st, 1);
		r->energy_nj = sqlite3_column_int64(st, 3) > 0 ?
		    sqlite3_column_int64(st, 2) : -1;
		r->span_ns = sqlite3_column_int64(st, 4);
		r->peak_w = sqlite3_column_double(st, 5);
		r->cpu_ns = sqlite3_column_int64(st, 6);
		if (r->energy_nj > 0)
			total += r->energy_nj;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return ex_fail(err, EXR_DB, 0, "%s", sqlite3_errmsg(db));
	switch (o->format) {
	case FMT_TABLE:
		fprintf(fp, "# energy by %s; time zone %s; ranked by joules\n"
		    "%-24s %6s %12s %9s %9s %12s %11s %6s\n",
		    report_by_names[o->by], o->tz, report_by_names[o->by],
		    "procs", "joules", "avg_W", "peak_W", "cpu_s",
		    "J_per_cpu_s", "share");
		break;
	case FMT_CSV:
		fprintf(fp, "%s,processes,joules,avg_watts,peak_watts,cpu_s,"
		    "joules_per_cpu_s,share\r\n", report_by_names[o->by]);
		break;
	case FMT_JSON:
		fprintf(fp, "{\"by\": \"%s\", \"tz\": ",
		    report_by_names[o->by]);
		json_str(fp, o->tz);
		fputs(", \"rows\": [", fp);
		break;
	}
	for (i = 0; i < n; i++)
		print_row(fp, o, &rows[i], total, i == 0);
	if (o->format == FMT_JSON)
		fputs("\n]}\n", fp);
	return ferror(fp) ? ex_fail(err, EXR_IO, 0, "write error") : EXR_OK;
}
