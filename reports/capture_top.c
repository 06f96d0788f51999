/*
 * What is behind a capture window out of tolerance (see report.h): its
 * top processes, and the exits that closed processes in it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../parsers/records.h"
#include "fmt.h"
#include "report_int.h"

int
capture_out_of_tolerance(int64_t proc_ns, int64_t busy_ns, double tolerance)
{
	double r;

	/* Nothing busy and nothing counted: nothing to explain. */
	if (busy_ns <= 0)
		return proc_ns > 0;
	r = (double)proc_ns / (double)busy_ns;
	return r < 1.0 - tolerance || r > 1.0 + tolerance;
}

int
capture_top(struct rdb *db, struct rtab *t, const char *host, int64_t t0_ns,
    int64_t t1_ns, int n, struct ex_err *err)
{
	/* The intervals the capture view counts in the window. */
	static const char sql[] =
	    "SELECT pid, command, start_ns,"
	    "   sum(coalesce(cpu_user_ns, 0) + coalesce(cpu_sys_ns, 0)) AS c"
	    " FROM v_proc_usage"
	    " WHERE host = ?1 AND t1_ns > ?2 AND t1_ns <= ?3"
	    "   AND t0_ns >= ?2 - " NS_SQL
	    /* Grouped by all it shows, summed again: as PostgreSQL asks. */
	    " GROUP BY proc_id, pid, command, start_ns"
	    " HAVING sum(coalesce(cpu_user_ns, 0) + coalesce(cpu_sys_ns, 0)) > 0"
	    " ORDER BY c DESC, pid, start_ns LIMIT ?4";
	char cmd[4 * 64], start[40], cpu[32];
	struct rdb_q *st;
	int rc;

	if (rdb_prepare(db, sql, &st) != 0)
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	rdb_bind_text(st, 1, host);
	rdb_bind_int64(st, 2, t0_ns);
	rdb_bind_int64(st, 3, t1_ns);
	rdb_bind_int64(st, 4, n);
	while ((rc = rdb_step(st)) == RDB_ROW) {
		const char *c = rdb_text(st, 1);

		/* Commands come from the logs: escape them. */
		fmt_escape(cmd, sizeof(cmd), c != NULL ? c : "-",
		    ESC_SPACE);
		fmt_datetime(start, sizeof(start),
		    rdb_int64(st, 2) / NS_I64);
		fmt_secs(cpu, sizeof(cpu), rdb_int64(st, 3));
		rtab_note(t, "  top: pid %" PRId64 " %s, started %s: %s s\n",
		    (int64_t)rdb_int64(st, 0), cmd, start, cpu);
	}
	rdb_finalize(st);
	if (rc != RDB_DONE)
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	return EXR_OK;
}

int
capture_exits(struct rdb_q *q, const char *host, int64_t t0_ns,
    int64_t t1_ns, struct capture_exits *x)
{
	int rc;

	memset(x, 0, sizeof(*x));
	rdb_bind_text(q, 1, host);
	rdb_bind_int64(q, 2, t0_ns);
	rdb_bind_int64(q, 3, t1_ns);
	if ((rc = rdb_step(q)) == RDB_ROW) {
		x->n = rdb_int64(q, 0);
		x->cpu_ns = rdb_int64(q, 1);
		x->zero = rdb_int64(q, 2);
	}
	rdb_reset(q);
	return rc == RDB_ROW ? 0 : -1;
}
