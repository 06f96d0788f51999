/*
 * The usage report's query (report_int.h): one SELECT grouped by the
 * keys (and the bucket), with sums that cannot overflow and NULL kept
 * apart from 0: SQL's sum() over only NULLs is NULL, so a measure no
 * interval recorded comes back absent, not as 0.  Written once for both
 * engines (rdb.h): no function but local_hour, buckets as a CASE over
 * edges computed here in local time.
 *
 * The rows come from the rollups (store/rollup.h) wherever they can
 * answer: per host and hour for keys among host and hour, else per day
 * for the whole UTC days of the window (when no key or bucket needs a
 * finer grain) and per hour for the rest.  Every interval is split over
 * the UTC hours it covers; the window counts the hours that start in
 * it, and a bucket holds the hours that start in it.  Where a bucket's
 * edge is not on a UTC hour (a zone whose offset is not whole hours),
 * or with --scan, the intervals are split here instead, the same way
 * (rollup_sql.h): the same figures, slower.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../parsers/compat.h"
#include "../parsers/records.h"
#include "report_int.h"
#include "../store/rollup_sql.h"

/* The grouping expression for each key. */
static const char *const key_sql[] = {
	[BY_USER] = "i.uid",
	[BY_GROUP] = "i.gid",
	[BY_COMMAND] = "i.command",
	[BY_PROJECT] = "i.projid",
	[BY_ZONE] = "i.zone",
	[BY_HOST] = "i.host",
	[BY_HOUR] = "local_hour(i.hour_s * " NS_SQL ")",
	[BY_CGROUP] = "i.cgroup",
	[BY_UNIT] = "i.unit",
	[BY_CONTAINER] = "i.container",
};

/*
 * Whether a key is one the rollups do not keep (the cgroup's): its
 * report scans the intervals (v_proc_usage names each one's cgroup
 * and the keys of its path).
 */
static int
unrolled(enum report_by by)
{
	return by == BY_CGROUP || by == BY_UNIT || by == BY_CONTAINER;
}

/*
 * An exact sum that cannot overflow: SQLite's sum() of integers stops
 * with "integer overflow" at 2^63 (292 years of ns, passed by a host's
 * daemons in a year), and total() is a double, exact only to 2^53 ns
 * (104 days).  So the rows hold each value as its whole 10^9s and the
 * remainder, NAME_g and NAME_r (rollup_sql.h), summed apart (each stays
 * far below 2^63) and joined in 128 bits (split_get).
 */
#define GR_SUM(x)	"sum(i." x "_g), sum(i." x "_r)"

/* The measures, after the keys and calls: split sums take 2 columns. */
static const struct {
	enum report_measure m;
	int	 split;
	const char *sql;
} measures[] = {
	{ RM_USER_NS, 1, GR_SUM("cpu_user_ns") },
	{ RM_SYS_NS, 1, GR_SUM("cpu_sys_ns") },
	{ RM_REAL_NS, 1, GR_SUM("real_ns") },
	{ RM_CHARS, 1, GR_SUM("chars_rdwr") },
	{ RM_READ, 1, GR_SUM("read_bytes") },
	{ RM_WRITE, 1, GR_SUM("write_bytes") },
	{ RM_BLKIN, 1, GR_SUM("blocks_in") },
	{ RM_BLKOUT, 1, GR_SUM("blocks_out") },
	{ RM_RSS_MAX, 0, "max(i.rss_max_kb)" },
	{ RM_THREADS, 0, "max(i.threads)" },
	{ RM_MAJFLT, 1, GR_SUM("faults_major") },
	{ RM_SYSCALLS, 1, GR_SUM("syscalls") },
};
#define NMEASURES	(sizeof(measures) / sizeof(measures[0]))

/* An interval's command key, as the rollups' (rollup_sql.h). */
#define SCAN_COMMAND \
	RU_COMMAND("command", "final", "acctflags") " AS command"

/*
 * The scan: the intervals split over hours, every key carried, for
 * each engine (the fence differs: rollup_sql.h).  ?1: the earliest end
 * (ns), ?2, ?3: the first hour counted and the end (s).
 */
#define SCAN_SQL "(SELECT uid, gid, " SCAN_COMMAND ", projid, zone, host, " \
	"cgroup, unit, container, " \
	"hour_s, " RU_PART_GR " FROM (" RU_PARTS("uid, gid, command, " \
	"acctflags, final, projid, zone, host, cgroup, unit, container, ", \
	"v_proc_usage WHERE " \
	"t1_ns >= ?1") ") x WHERE x.hour_s >= ?2 AND x.hour_s < ?3)"
static const char scan_sqlite[] = SCAN_SQL;
#undef RU_FENCE
#define RU_FENCE "OFFSET 0"
static const char scan_pg[] = SCAN_SQL;

/* The key columns of the rollups by key and day. */
#define RU_KEYS	"host, uid, gid, command, projid, zone"

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
	char b[64];

	snprintf(b, sizeof(b), "%" PRId64, v);
	sb_add(q, b);
}

/* Epoch seconds as ns, held within int64 (an edge past 2262). */
static int64_t
ns_of(int64_t sec)
{
	if (sec > INT64_MAX / NS_I64)
		return INT64_MAX;
	if (sec < INT64_MIN / NS_I64)
		return INT64_MIN;
	return sec * NS_I64;
}

/*
 * The start of the bucket of edges [lo, hi) holding i.hour_s, as a
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
	sb_add(q, "CASE WHEN i.hour_s < ");
	sb_int(q, edge[mid]);
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
	return (__int128)rdb_int64(st, col) * NS_I64 +
	    rdb_int64(st, col + 1);
}

static void
hour_text(char *b, size_t n, int64_t epoch)
{
	report_bucket_text(b, n, EVERY_HOUR, epoch);
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

/* Whether every bucket edge of s is a multiple of unit (s). */
static int
edges_on(const struct report_opts *o, const struct report_set *s,
    int64_t unit)
{
	size_t i;

	if (o->every == EVERY_NONE)
		return 1;
	for (i = 0; i <= s->nb; i++)
		if (s->edge[i] % unit != 0)
			return 0;
	return 1;
}

/*
 * The rows' source, as a subquery with the key columns, hour_s and the
 * rollups' values, for the window [from, to) (ns); its parameters into
 * p[], *np of them (each used once at least, so that every engine can
 * type it).
 */
static void
source(struct sqlbuf *q, const struct report_opts *o,
    const struct report_set *s, enum rdb_engine engine, int64_t from,
    int64_t to, int64_t *p, int *np)
{
	int64_t h0, h1;
	int k, coarse = 1, hourly = 0, scan = o->scan;

	/* The hours that start in the window. */
	h0 = up_to(from / NS_I64 + (from % NS_I64 > 0), 3600);
	h1 = to / NS_I64 + (to % NS_I64 > 0);
	for (k = 0; k < report_nkeys(o); k++) {
		enum report_by by = report_key(o, k);

		if (by != BY_HOST && by != BY_HOUR)
			coarse = 0;
		/* The host rollups have no user, group or command. */
		if (report_filtered(o, 1))
			coarse = 0;
		if (by == BY_HOUR)
			hourly = 1;
		if (unrolled(by))
			scan = 1;
	}
	if (report_cgroup_filtered(o))
		scan = 1;
	if (scan && !hourly && o->every == EVERY_NONE &&
	    o->open == (REPORT_OPEN_FROM | REPORT_OPEN_TO)) {
		/*
		 * Every hour of the range counted, none apart: the parts
		 * of each interval add up to it, so it is summed whole.
		 * An interval out of the range is one part, in its end's
		 * hour (rollup_hours): the window takes it by its end.
		 */
		sb_add(q, "(SELECT uid, gid, command, projid, zone, host, "
		    "cgroup, unit, container, "
		    "0 AS hour_s, " RU_PART_GR " FROM (SELECT uid, gid, "
		    SCAN_COMMAND ", projid, zone, host, cgroup, unit, "
		    "container, final AS calls, "
		    RU_REAL " AS real_ns, " RU_SUM_COLS ", rss_max_kb, "
		    "threads FROM v_proc_usage WHERE t1_ns >= ?1 AND "
		    "t1_ns < ?2) x)");
		p[0] = from;
		p[1] = to;
		*np = 2;
	} else if (scan || !edges_on(o, s, 3600)) {
		sb_add(q, engine == RDB_POSTGRESQL ? scan_pg : scan_sqlite);
		p[0] = from;
		p[1] = h0;
		p[2] = h1;
		*np = 3;
	} else if (coarse) {
		sb_add(q, "(SELECT host, hour_s, " RU_TABLE_COLS " FROM "
		    "v_usage_rollup_host WHERE hour_s >= ?1 AND hour_s < ?2)");
		p[0] = h0;
		p[1] = h1;
		*np = 2;
	} else if (hourly || !edges_on(o, s, 86400)) {
		sb_add(q, "(SELECT " RU_KEYS ", hour_s, " RU_TABLE_COLS
		    " FROM v_usage_rollup WHERE hour_s >= ?1 AND hour_s < ?2)");
		p[0] = h0;
		p[1] = h1;
		*np = 2;
	} else {
		/*
		 * The whole days [d0, d1) from the day rows, the hours
		 * before and after them from the hour rows: two ranges of
		 * the time index, never a test of every hour row.
		 */
		int64_t d0 = up_to(h0, 86400), d1 = down_to(h1, 86400);

		sb_add(q, "(SELECT " RU_KEYS ", day_s AS hour_s, "
		    RU_TABLE_COLS " FROM v_usage_rollup_day WHERE day_s >= ?1 "
		    "AND day_s < ?2 UNION ALL SELECT " RU_KEYS ", hour_s, "
		    RU_TABLE_COLS " FROM v_usage_rollup WHERE hour_s >= ?3 AND "
		    "hour_s < ?4 UNION ALL SELECT " RU_KEYS ", hour_s, "
		    RU_TABLE_COLS " FROM v_usage_rollup WHERE hour_s >= ?5 AND "
		    "hour_s < ?6)");
		if (d0 >= d1)		/* no whole day: every hour */
			d0 = d1 = h1;
		p[0] = d0;
		p[1] = d1;
		p[2] = h0;
		p[3] = d0 < h1 ? d0 : h1;
		p[4] = d1 > h0 ? d1 : h0;
		p[5] = h1;
		*np = 6;
	}
}

/* The columns of source()'s rows the filters test. */
static const struct report_filter_cols filter_cols = {
	"i.uid", "i.gid", "i.command", "i.host", 1, "i.unit", "i.container"
};

/* o's filters as the WHERE of the rows, numbered after source()'s. */
static int
where(struct sqlbuf *q, const struct report_opts *o, enum rdb_engine e,
    int np, struct ex_err *err)
{
	char w[REPORT_FILTER_SQL];
	int rc;

	if ((rc = report_filter_sql(o, e, &filter_cols, np + 1, w, sizeof(w),
	    err)) != EXR_OK)
		return rc;
	if (w[0] != '\0') {
		sb_add(q, " WHERE 1 = 1");
		sb_add(q, w);
	}
	return EXR_OK;
}

/* Whether key k is an id whose name the query finds (NAME_OF). */
static int
named(const struct report_opts *o, int k)
{
	int kind = report_name_kind(report_key(o, k));

	return kind >= 0 && report_names_stored(o, kind);
}

/* ", NAME_OF" and " NAME_JOIN" (report_int.h) for key k, as nK. */
static void
sb_name_of(struct sqlbuf *q, int k)
{
	char b[256];

	snprintf(b, sizeof(b), ", " NAME_OF("n%d"), k, k, k, k);
	sb_add(q, b);
}

static void
sb_name_join(struct sqlbuf *q, int k, enum report_by by)
{
	char b[256];

	snprintf(b, sizeof(b), NAME_JOIN("n%d", "i.host", "%s", "%s"), k, k,
	    k, report_name_kinds[report_name_kind(by)], k, key_sql[by]);
	sb_add(q, b);
}

/* The SQL for o (and s's buckets) into q, its parameters into p. */
static int
build(struct sqlbuf *q, const struct report_opts *o,
    const struct report_set *s, enum rdb_engine engine, int64_t from,
    int64_t to, int64_t *p, int *np, struct ex_err *err)
{
	char b[64];
	size_t m;
	int k, nk = report_nkeys(o);

	sb_add(q, "SELECT ");
	if (o->every == EVERY_HOUR)
		sb_add(q, "local_hour(i.hour_s * " NS_SQL ")");
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
	sb_add(q, ", sum(i.calls)");
	for (m = 0; m < NMEASURES; m++) {
		sb_add(q, ", ");
		sb_add(q, measures[m].sql);
	}
	/* The names of the id keys, after the measures (NAME_OF). */
	for (k = 0; k < nk; k++)
		if (named(o, k))
			sb_name_of(q, k);
	sb_add(q, " FROM ");
	source(q, o, s, engine, from, to, p, np);
	sb_add(q, " i");
	for (k = 0; k < nk; k++)
		if (named(o, k))
			sb_name_join(q, k, report_key(o, k));
	if (where(q, o, engine, *np, err) != EXR_OK)
		return err->code;
	sb_add(q, " GROUP BY b");
	for (k = 0; k < nk; k++) {
		snprintf(b, sizeof(b), ", k%d", k);
		sb_add(q, b);
	}
	return EXR_OK;
}

void
report_read_key(struct rdb_q *st, const struct report_opts *o, int k,
    int col, struct report_row *r)
{
	const char *t = rdb_text(st, col);

	if (rdb_isnull(st, col)) {
		r->keynull |= 1u << k;
		snprintf(r->key[k], sizeof(r->key[k]), "-");
		return;
	}
	switch (report_key(o, k)) {
	case BY_HOUR:
		r->hour_epoch = rdb_int64(st, col);
		hour_text(r->key[k], sizeof(r->key[k]), r->hour_epoch);
		break;
	case BY_USER:
	case BY_GROUP:
	case BY_PROJECT:
		r->id[k] = rdb_int64(st, col);
		snprintf(r->key[k], sizeof(r->key[k]), "%" PRId64, r->id[k]);
		break;
	default:
		snprintf(r->key[k], sizeof(r->key[k]), "%s", t != NULL ? t :
		    "-");
	}
}

/* The window cut to s's buckets, [*from, *to) in ns. */
static void
cut_window(const struct report_opts *o, const struct report_set *s,
    int64_t *from, int64_t *to)
{
	*from = o->from_ns;
	*to = o->to_ns;
	if (o->every == EVERY_NONE || s->nb == 0)
		return;
	if (*from < ns_of(s->edge[0]))
		*from = ns_of(s->edge[0]);
	if (*to > ns_of(s->edge[s->nb]))
		*to = ns_of(s->edge[s->nb]);
}

void
report_hours(const struct report_opts *o, const struct report_set *s,
    int64_t *h0, int64_t *h1)
{
	int64_t from, to;

	cut_window(o, s, &from, &to);
	*h0 = up_to(from / NS_I64 + (from % NS_I64 > 0), 3600);
	*h1 = to / NS_I64 + (to % NS_I64 > 0);
}

int
report_cpu_query(struct rdb *db, const struct report_opts *o,
    const struct report_set *s, struct rdb_q **qp, struct ex_err *err)
{
	struct sqlbuf q = { 0 };
	int64_t from, to, p[6];
	char b[64];
	int i, k, np, rc, nk = report_nkeys(o);
	int grouped = rdb_engine(db) == RDB_POSTGRESQL;

	cut_window(o, s, &from, &to);
	/*
	 * SQLite hands the rows over as they lie (report_pct.c adds them
	 * up by key and bucket without a sort); a server adds them up
	 * first, for what crosses the network.
	 */
	sb_add(&q, "SELECT ");
	if (grouped && o->every != EVERY_HOUR)
		bucket_case(&q, s->edge, 0, s->nb);
	else
		sb_add(&q, "i.hour_s");
	sb_add(&q, " AS b, i.host AS h");
	for (k = 0; k < nk; k++) {
		snprintf(b, sizeof(b), ", %s AS k%d", key_sql[report_key(o,
		    k)], k);
		sb_add(&q, b);
	}
	sb_add(&q, grouped ? ", sum(i.cpu_user_ns_g), sum(i.cpu_user_ns_r), "
	    "sum(i.cpu_sys_ns_g), sum(i.cpu_sys_ns_r)" : ", i.cpu_user_ns_g, "
	    "i.cpu_user_ns_r, i.cpu_sys_ns_g, i.cpu_sys_ns_r");
	sb_add(&q, " FROM ");
	source(&q, o, s, rdb_engine(db), from, to, p, &np);
	sb_add(&q, " i");
	if ((rc = where(&q, o, rdb_engine(db), np, err)) != EXR_OK) {
		free(q.b);
		return rc;
	}
	if (grouped) {
		sb_add(&q, " GROUP BY b, h");
		for (k = 0; k < nk; k++) {
			snprintf(b, sizeof(b), ", k%d", k);
			sb_add(&q, b);
		}
	}
	if (q.nomem) {
		free(q.b);
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	}
	rc = rdb_prepare(db, q.b, qp);
	free(q.b);
	if (rc != 0)
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	for (i = 0; i < np; i++)
		rdb_bind_int64(*qp, i + 1, p[i]);
	report_filter_bind(*qp, o, rdb_engine(db), &filter_cols, np + 1);
	return EXR_OK;
}

int
report_query(struct rdb *db, const struct report_opts *o,
    struct report_set *s, struct ex_err *err)
{
	struct sqlbuf q = { 0 };
	struct rdb_q *st;
	int64_t from = o->from_ns, to = o->to_ns, p[6];
	int rc, i, k, np, nk = report_nkeys(o);

	if (o->every != EVERY_NONE) {
		/* The buckets cover the window: cut it to them. */
		if (s->nb == 0)
			return EXR_OK;
		if (from < ns_of(s->edge[0]))
			from = ns_of(s->edge[0]);
		if (to > ns_of(s->edge[s->nb]))
			to = ns_of(s->edge[s->nb]);
	}
	if ((rc = build(&q, o, s, rdb_engine(db), from, to, p, &np,
	    err)) != EXR_OK) {
		free(q.b);
		return rc;
	}
	if (q.nomem) {
		free(q.b);
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	}
	rc = rdb_prepare(db, q.b, &st);
	free(q.b);
	if (rc != 0)
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	for (i = 0; i < np; i++)
		rdb_bind_int64(st, i + 1, p[i]);
	report_filter_bind(st, o, rdb_engine(db), &filter_cols, np + 1);
	while ((rc = rdb_step(st)) == RDB_ROW) {
		struct report_row *r;
		size_t m;
		int col, have;

		if ((r = report_add(s)) == NULL) {
			rdb_finalize(st);
			return ex_fail(err, EXR_NOMEM, 0, "no memory");
		}
		r->bucket = rdb_int64(st, 0);
		for (k = 0; k < nk; k++)
			report_read_key(st, o, k, 1 + k, r);
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
		for (k = 0; k < nk; k++)
			if (named(o, k) && !(r->keynull >> k & 1))
				r->name[k] = report_name_ref(s,
				    report_name_kind(report_key(o, k)),
				    r->id[k], rdb_text(st, col++));
			else if (named(o, k))
				col++;
	}
	rdb_finalize(st);
	return rc == RDB_DONE ? EXR_OK :
	    ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
}

int
report_capacity(struct rdb *db, struct report_set *s, struct ex_err *err)
{
	/*
	 * One pass over sysload, not a subquery a host: on the server
	 * each would label every host again (O(hosts^2)).  n: the pairs
	 * of consecutive snapshots that make an observed span
	 * (report_observed.c's rule).  The CPUs: snap's count of online
	 * CPUs, else the configured one (cpus:).
	 */
	static const char fmt[] =
	    "SELECT h.host, coalesce(l.ncpu, h.cpus), l.n,"
	    " CASE WHEN l.ncpu IS NOT NULL THEN 'snap' ELSE h.cpus_source END"
	    " FROM v_hosts h LEFT JOIN"
	    " (SELECT host_id, max(CASE WHEN ncpu > 0 THEN ncpu END) AS ncpu,"
	    "   sum(CASE WHEN p IS NOT NULL"
	    "   AND t_ns - p <= %lld AND (btime_s IS NULL OR pb IS NULL OR"
	    "   btime_s = pb) THEN 1 ELSE 0 END) AS n"
	    "  FROM (SELECT host_id, ncpu, t_ns, btime_s, lag(t_ns) OVER w AS p,"
	    "   lag(btime_s) OVER w AS pb FROM v_sysload"
	    "   WINDOW w AS (PARTITION BY host_id ORDER BY t_ns)) x"
	    "  GROUP BY host_id) l ON l.host_id = h.host_id"
	    " ORDER BY h.host";
	char sql[sizeof(fmt) + 24];
	struct rdb_q *st;
	int rc;

	snprintf(sql, sizeof(sql), fmt, (long long)REPORT_MAXGAP_NS);
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
		memset(h, 0, sizeof(*h));
		snprintf(h->host, sizeof(h->host), "%s", name != NULL ? name :
		    "");
		h->ncpu = rdb_isnull(st, 1) ? 0 : rdb_int64(st, 1);
		/*
		 * Two snapshots close enough make a span observed; a host
		 * without such a pair (one snapshot, or snapshots hours
		 * apart beside its accounting) has unknown coverage.
		 */
		h->watched = !rdb_isnull(st, 2) && rdb_int64(st, 2) >= 1;
		snprintf(h->ncpu_source, sizeof(h->ncpu_source), "%s",
		    h->ncpu > 0 && rdb_text(st, 3) != NULL ? rdb_text(st, 3) :
		    "");
	}
	rdb_finalize(st);
	return rc == RDB_DONE ? EXR_OK :
	    ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
}
