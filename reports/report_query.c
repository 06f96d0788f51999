/*
 * The usage report's query (report_int.h): one SELECT over v_proc_usage
 * grouped by the key, with sums that cannot overflow.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../parsers/compat.h"
#include "report_int.h"

/* The grouping expression for each --by. */
static const char *const key_sql[] = {
	[BY_USER] = "i.uid",
	[BY_COMMAND] = "i.command",
	[BY_PROJECT] = "i.projid",
	[BY_ZONE] = "i.zone",
	[BY_HOST] = "i.host",
	[BY_HOUR] = "local_hour(i.t1_ns)",
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

/*
 * An exact sum of a column of nanoseconds (or bytes) that cannot
 * overflow: SQLite's sum() of integers stops with "integer overflow" at
 * 2^63 (292 years of ns, passed by a host's daemons in a year), and
 * total() is a double, exact only to 2^53 ns (104 days).  So the whole
 * seconds and the remainders are summed apart (each stays far below
 * 2^63: 2^63 s, or 9e9 rows of remainders) and joined in 128 bits
 * (split_get).  Integer division truncates toward zero and % keeps the
 * dividend's sign, so x = (x / 1e9) * 1e9 + x % 1e9 for every x.
 */
#define SPLIT_SUM(x)	/* for a printf format: %% */ \
	"sum((" x ") / 1000000000), sum((" x ") %% 1000000000)"

/* The split sum in columns col and col + 1. */
static __int128
split_get(struct rdb_q *st, int col)
{
	return (__int128)rdb_int64(st, col) * 1000000000 +
	    rdb_int64(st, col + 1);
}

int
report_query(struct rdb *db, const struct report_opts *o,
    struct report_row **rowsp, size_t *np, struct ex_err *err)
{
	char sql[1024];
	struct rdb_q *st;
	struct report_row *rows = NULL, *nr;
	size_t n = 0, cap = 0;
	int rc;

	*rowsp = NULL;
	*np = 0;
	snprintf(sql, sizeof(sql),
	    "SELECT %s AS k, count(DISTINCT i.proc_id), "
	    SPLIT_SUM("i.cpu_user_ns") ", " SPLIT_SUM("i.cpu_sys_ns") ", "
	    SPLIT_SUM("i.t1_ns - i.t0_ns") ", " SPLIT_SUM("i.chars_rdwr") ","
	    " max(i.rss_max_kb), sum(i.faults_major), sum(i.syscalls)"
	    " FROM v_proc_usage i"
	    " WHERE i.t1_ns >= ?1 AND i.t1_ns < ?2"
	    " GROUP BY k ORDER BY %s", key_sql[o->by],
	    /*
	     * Hours read best in time order; everything else by CPU: the
	     * split sums above (SQLite computes each once), joined as a
	     * double, as the seconds cannot be times 1e9 in 64 bits.  So
	     * groups within 1 us of each other beyond 2^53 ns (104 days)
	     * may come in key order instead.
	     */
	    o->by == BY_HOUR ? "k" : "(coalesce(sum(i.cpu_user_ns / "
	    "1000000000), 0) + coalesce(sum(i.cpu_sys_ns / 1000000000), 0))"
	    " * 1e9 + coalesce(sum(i.cpu_user_ns % 1000000000), 0) + "
	    "coalesce(sum(i.cpu_sys_ns % 1000000000), 0) DESC, k");
	if (rdb_prepare(db, sql, &st) != 0)
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	rdb_bind_int64(st, 1, o->from_ns);
	rdb_bind_int64(st, 2, o->to_ns);
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
		r->faults_major = rdb_int64(st, 11);
		r->syscalls = rdb_int64(st, 12);
	}
	rdb_finalize(st);
	if (rc != RDB_DONE) {
		free(rows);
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	}
	*rowsp = rows;
	*np = n;
	return EXR_OK;
}
