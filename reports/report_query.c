/*
 * The usage report's query (report_int.h): one SELECT over v_proc_usage
 * grouped by the keys (and the bucket), with sums that cannot overflow
 * and NULL kept apart from 0: SQL's sum() over only NULLs is NULL, so a
 * measure no interval recorded comes back absent, not as 0.  Written
 * once for both engines (rdb.h): no function but local_hour, buckets as
 * a CASE over edges computed here in local time.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../parsers/compat.h"
#include "report_int.h"

/* The grouping expression for each key. */
static const char *const key_sql[] = {
	[BY_USER] = "i.uid",
	[BY_GROUP] = "i.gid",
	[BY_COMMAND] = "i.command",
	[BY_PROJECT] = "i.projid",
	[BY_ZONE] = "i.zone",
	[BY_HOST] = "i.host",
	[BY_HOUR] = "local_hour(i.t1_ns)",
};

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
#define SPLIT_SUM(x) \
	"sum((" x ") / 1000000000), sum((" x ") % 1000000000)"

/* The measures, after the keys and calls: split sums take 2 columns. */
static const struct {
	enum report_measure m;
	int	 split;
	const char *sql;
} measures[] = {
	{ RM_USER_NS, 1, SPLIT_SUM("i.cpu_user_ns") },
	{ RM_SYS_NS, 1, SPLIT_SUM("i.cpu_sys_ns") },
	{ RM_REAL_NS, 1, SPLIT_SUM("i.t1_ns - i.t0_ns") },
	{ RM_CHARS, 1, SPLIT_SUM("i.chars_rdwr") },
	{ RM_READ, 1, SPLIT_SUM("i.read_bytes") },
	{ RM_WRITE, 1, SPLIT_SUM("i.write_bytes") },
	{ RM_BLKIN, 0, "sum(i.blocks_in)" },
	{ RM_BLKOUT, 0, "sum(i.blocks_out)" },
	{ RM_RSS_MAX, 0, "max(i.rss_max_kb)" },
	{ RM_THREADS, 0, "max(i.threads)" },
	{ RM_MAJFLT, 0, "sum(i.faults_major)" },
	{ RM_SYSCALLS, 0, "sum(i.syscalls)" },
};
#define NMEASURES	(sizeof(measures) / sizeof(measures[0]))

/* A growing SQL text. */
struct sqlbuf {
	char	*b;
	size_t	 len, cap;
	int	 nomem;
};

static void
sb_add(struct sqlbuf *q, const char *s)
{
	size_t l = strlen(s);
	char *nb;

	if (q->nomem)
		return;
	if (q->len + l + 1 > q->cap) {
		size_t ncap = q->cap == 0 ? 1024 : q->cap;

		while (q->len + l + 1 > ncap)
			ncap *= 2;
		if ((nb = realloc(q->b, ncap)) == NULL) {
			q->nomem = 1;
			return;
		}
		q->b = nb;
		q->cap = ncap;
	}
	memcpy(q->b + q->len, s, l + 1);
	q->len += l;
}

static void
sb_int(struct sqlbuf *q, int64_t v)
{
	char b[32];

	snprintf(b, sizeof(b), "%" PRId64, v);
	sb_add(q, b);
}

/* Epoch seconds as ns, held within int64 (an edge past 2262). */
static int64_t
ns_of(int64_t sec)
{
	if (sec > INT64_MAX / 1000000000)
		return INT64_MAX;
	if (sec < INT64_MIN / 1000000000)
		return INT64_MIN;
	return sec * 1000000000;
}

/*
 * The start of the bucket of edges [lo, hi) holding i.t1_ns, as a
 * balanced CASE: log2 of the buckets comparisons a row, whatever the
 * engine.  Edges are epoch seconds; the rows are all in [edge[0],
 * edge[nb]) (the window is cut to them).
 */
static void
bucket_case(struct sqlbuf *q, const int64_t *edge, size_t lo, size_t hi)
{
	size_t mid;

	if (hi - lo == 1) {
		sb_int(q, edge[lo]);
		return;
	}
	mid = lo + (hi - lo) / 2;
	sb_add(q, "CASE WHEN i.t1_ns < ");
	sb_int(q, ns_of(edge[mid]));
	sb_add(q, " THEN ");
	bucket_case(q, edge, lo, mid);
	sb_add(q, " ELSE ");
	bucket_case(q, edge, mid, hi);
	sb_add(q, " END");
}

/* The split sum in columns col and col + 1; 0 if absent (*have 0). */
static __int128
split_get(struct rdb_q *st, int col, int *have)
{
	*have = !rdb_isnull(st, col);
	return (__int128)rdb_int64(st, col) * 1000000000 +
	    rdb_int64(st, col + 1);
}

static void
hour_text(char *b, size_t n, int64_t epoch)
{
	report_bucket_text(b, n, EVERY_HOUR, epoch);
}

/* The SQL for o (and s's buckets) into q. */
static void
build(struct sqlbuf *q, const struct report_opts *o,
    const struct report_set *s)
{
	char b[32];
	size_t m;
	int k, nk = report_nkeys(o);

	sb_add(q, "SELECT ");
	if (o->every == EVERY_HOUR)
		sb_add(q, "local_hour(i.t1_ns)");
	else if (o->every != EVERY_NONE)
		bucket_case(q, s->edge, 0, s->nb);
	else
		sb_add(q, "0");
	sb_add(q, " AS b");
	for (k = 0; k < nk; k++) {
		snprintf(b, sizeof(b), ", %s AS k%d", key_sql[report_key(o,
		    k)], k);
		sb_add(q, b);
	}
	sb_add(q, ", count(DISTINCT i.proc_id)");
	for (m = 0; m < NMEASURES; m++) {
		sb_add(q, ", ");
		sb_add(q, measures[m].sql);
	}
	sb_add(q, " FROM v_proc_usage i WHERE i.t1_ns >= ?1 AND i.t1_ns < ?2"
	    " GROUP BY b");
	for (k = 0; k < nk; k++) {
		snprintf(b, sizeof(b), ", k%d", k);
		sb_add(q, b);
	}
}

int
report_query(struct rdb *db, const struct report_opts *o,
    struct report_set *s, struct ex_err *err)
{
	struct sqlbuf q = { 0 };
	struct rdb_q *st;
	int64_t from = o->from_ns, to = o->to_ns;
	int rc, k, nk = report_nkeys(o);

	if (o->every != EVERY_NONE) {
		/* The buckets cover the window: cut it to them. */
		if (s->nb == 0)
			return EXR_OK;
		if (from < ns_of(s->edge[0]))
			from = ns_of(s->edge[0]);
		if (to > ns_of(s->edge[s->nb]))
			to = ns_of(s->edge[s->nb]);
	}
	build(&q, o, s);
	if (q.nomem) {
		free(q.b);
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	}
	rc = rdb_prepare(db, q.b, &st);
	free(q.b);
	if (rc != 0)
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	rdb_bind_int64(st, 1, from);
	rdb_bind_int64(st, 2, to);
	while ((rc = rdb_step(st)) == RDB_ROW) {
		struct report_row *r;
		size_t m;
		int col, have;

		if ((r = report_add(s)) == NULL) {
			rdb_finalize(st);
			return ex_fail(err, EXR_NOMEM, 0, "no memory");
		}
		r->bucket = rdb_int64(st, 0);
		for (k = 0; k < nk; k++) {
			enum report_by by = report_key(o, k);
			const char *t = rdb_text(st, 1 + k);

			if (rdb_isnull(st, 1 + k)) {
				r->keynull |= 1u << k;
				snprintf(r->key[k], sizeof(r->key[k]), "-");
				continue;
			}
			switch (by) {
			case BY_HOUR:
				r->hour_epoch = rdb_int64(st, 1 + k);
				hour_text(r->key[k], sizeof(r->key[k]),
				    r->hour_epoch);
				break;
			case BY_USER:
			case BY_GROUP:
			case BY_PROJECT:
				r->id[k] = rdb_int64(st, 1 + k);
				snprintf(r->key[k], sizeof(r->key[k]),
				    "%" PRId64, r->id[k]);
				break;
			default:
				snprintf(r->key[k], sizeof(r->key[k]), "%s",
				    t != NULL ? t : "-");
			}
		}
		col = 1 + nk;
		r->calls = rdb_int64(st, col++);
		for (m = 0; m < NMEASURES; m++) {
			enum report_measure x = measures[m].m;

			if (measures[m].split) {
				r->v[x] = split_get(st, col, &have);
				col += 2;
			} else {
				have = !rdb_isnull(st, col);
				r->v[x] = rdb_int64(st, col++);
			}
			if (have)
				r->have |= 1u << x;
		}
	}
	rdb_finalize(st);
	return rc == RDB_DONE ? EXR_OK :
	    ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
}

int
report_capacity(struct rdb *db, struct report_set *s, struct ex_err *err)
{
	static const char sql[] =
	    "SELECT h.host, (SELECT max(l.ncpu) FROM v_sysload l"
	    "   WHERE l.host_id = h.host_id)"
	    " FROM v_hosts h ORDER BY h.host";
	struct rdb_q *st;
	int rc;

	if (rdb_prepare(db, sql, &st) != 0)
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	while ((rc = rdb_step(st)) == RDB_ROW) {
		struct report_host *h, *nh;
		const char *name = rdb_text(st, 0);

		if ((nh = ex_reallocarray(s->hosts, s->nhosts + 1,
		    sizeof(*nh))) == NULL) {
			rdb_finalize(st);
			return ex_fail(err, EXR_NOMEM, 0, "no memory");
		}
		s->hosts = nh;
		h = &s->hosts[s->nhosts++];
		snprintf(h->host, sizeof(h->host), "%s", name != NULL ? name :
		    "");
		h->ncpu = rdb_isnull(st, 1) ? 0 : rdb_int64(st, 1);
	}
	rdb_finalize(st);
	return rc == RDB_DONE ? EXR_OK :
	    ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
}
