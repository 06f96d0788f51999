/*
 * The processes behind a capture window out of tolerance (see report.h).
 */
#include <inttypes.h>
#include <stdio.h>

#include "fmt.h"
#include "report.h"

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
capture_top(sqlite3 *db, FILE *fp, const unsigned char *host, int64_t t0_ns,
    int64_t t1_ns, int n, struct ex_err *err)
{
	/* The intervals the capture view counts in the window. */
	static const char sql[] =
	    "SELECT pid, command, start_ns,"
	    "   sum(coalesce(cpu_user_ns, 0) + coalesce(cpu_sys_ns, 0)) AS c"
	    " FROM v_proc_usage"
	    " WHERE host = ?1 AND t1_ns > ?2 AND t1_ns <= ?3"
	    "   AND t0_ns >= ?2 - 1000000000"
	    " GROUP BY proc_id HAVING c > 0 ORDER BY c DESC, pid LIMIT ?4";
	char cmd[4 * 64], start[40], cpu[32];
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return ex_fail(err, EXR_DB, 0, "%s", sqlite3_errmsg(db));
	sqlite3_bind_text(st, 1, (const char *)host, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, t0_ns);
	sqlite3_bind_int64(st, 3, t1_ns);
	sqlite3_bind_int(st, 4, n);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *c = sqlite3_column_text(st, 1);

		/* Commands come from the logs: escape them. */
		fmt_escape(cmd, sizeof(cmd), c != NULL ? (const char *)c : "-",
		    ESC_SPACE);
		fmt_datetime(start, sizeof(start),
		    sqlite3_column_int64(st, 2) / 1000000000);
		fmt_secs(cpu, sizeof(cpu), sqlite3_column_int64(st, 3));
		fprintf(fp, "  top: pid %" PRId64 " %s, started %s: %s s\n",
		    (int64_t)sqlite3_column_int64(st, 0), cmd, start, cpu);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return ex_fail(err, EXR_DB, 0, "%s", sqlite3_errmsg(db));
	return EXR_OK;
}
