/*
 * push (see push.h): the local database, read in one read transaction,
 * into the central one, one transaction per host.
 *
 * Buckets and their signatures are bucket.h's; the rows go by COPY
 * (pgcopy.h).  In the host's transaction, after central's signatures are read, a table
 * central has nothing of (the host's first push) is sent in one pass,
 * each bucket signed on the way; any other table is read twice: once to
 * sign its buckets (pass 1), once for the rows of the buckets that
 * differ (pass 2, only over the span of those buckets).  Central keeps
 * the signatures in push_buckets, so the local database is never
 * written, and a central database made again from nothing gets
 * everything.
 *
 * Replacing whole buckets is exact where the local database loses no
 * fact row.  A bucket gone from the local database (a conversation
 * paired again into another hour does that) is deleted centrally too:
 * central mirrors each host's database, but for what local expiry
 * (store/expire.c) removed, which central keeps: the fleet's history
 * is central's.  The cuts are read from the local v_expiry; by what
 * expiry removes (pexps[]), a bucket of a table touching the expired
 * range that differs from what central recorded is
 *   - frozen where nothing local is left of it, and for the rollups
 *     (every hour and day before their cut): neither sent nor deleted,
 *     its central signature kept;
 *   - else sent by its rows: central's rows of the (id, bcol) pairs it
 *     holds here are deleted, then those rows copied, and its local
 *     signature recorded.  Intervals and system records before the
 *     intervals cut (all of them expired: what is here came since, from
 *     an old log ingested late); processes that started a day before
 *     it (those that ended a day before it expired), so one that
 *     started before the cut and exits after it is brought up to date
 *     and the expired ones stay; alternate exits, by process.
 * Rollup rows an old log adds to hours before the rollups cut are not
 * sent (central's rows of those hours are whole; the local ones would
 * be a part).
 * Expiry runs only after a push that succeeded (hourly.c, step 6), so
 * what it removes central has.
 *
 * Partitions are made before the transactions that fill them (a new
 * partition locks its parent, which another host's transaction may be
 * writing: made inside, two hosts could deadlock), for every month the
 * local rows end in.
 */
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libpq-fe.h>
#include <sqlite3.h>

#include "../parsers/records.h"
#include "../store/db.h"
#include "bucket.h"
#include "central_schema.h"
#include "pgconn.h"
#include "pgcopy.h"
#include "push.h"

#define HOUR_NS		INT64_C(3600000000000)

/*
 * One local fact table.  Its rows of host ?1 are "SELECT cols FROM "
 * from (cols NULL: x.*); bcol (a column of x, never changed once
 * written) cut by width makes the buckets; part: partitioned centrally
 * by month of bcol, which is in ns (unit 1), or in s (unit NS_I64:
 * part 2 only).  Parents before children, as the central key of a
 * child names its parent's local id.
 */
struct ptab {
	const char	*name;
	const char	*from;
	const char	*bcol;
	int64_t		 width;
	int		 part;		/* 2: and an index leads with bcol */
	int64_t		 unit;		/* ns in one unit of bcol */
	const char	*cols;
};


/*
 * procs without the exit interval it carries locally for a process seen
 * only at its exit (schema 16: exit_cpu_user_ns .. exit_threads): that
 * interval is a row of the local view proc_intervals, which push reads,
 * so central keeps proc_intervals a table with every interval and
 * procs its columns, and the central views stay as they are.  The
 * local order, so a row signs as it did before schema 16.
 */
#define PROCS_COLS \
	"x.proc_id, x.host_id, x.pid, x.start_ns, x.ppid, x.uid, x.gid," \
	" x.projid, x.taskid, x.command, x.zone, x.finish_ns," \
	" x.wait_status, x.acctflags, x.exit_source, x.base_cpu_ns," \
	" x.delay_cpu_ns, x.delay_blkio_ns, x.delay_swapin_ns," \
	" x.delay_freepages_ns, x.delay_thrashing_ns, x.delay_compact_ns," \
	" x.delay_wpcopy_ns, x.delay_irq_ns, x.cpu_run_ns," \
	" x.cgroup_id, x.cgroup_from, x.mem_kb"

#define OF_HOST(t)	t " x WHERE x.host_id = ?1"
#define OF(t, p, id)	t " x JOIN " p " p USING (" id ") WHERE p.host_id = ?1"

static const struct ptab ptabs[] = {
	{ "files", OF_HOST("files"), "file_id", 256, 0, 1, NULL },
	{ "damage", OF("damage", "files", "file_id"), "file_id", 256, 0, 1,
	    NULL },
	/* Before procs, whose rows name them (local schema 20). */
	{ "cgroups", OF_HOST("cgroups"), "cgroup_id", 4096, 0, 1, NULL },
	{ "procs", OF_HOST("procs"), "start_ns", HOUR_NS, 0, 1, PROCS_COLS },
	/* A view locally (schema 16), of both places intervals are. */
	{ "proc_intervals", OF("proc_intervals", "procs", "proc_id"), "t1_ns",
	    HOUR_NS, 2, 1, NULL },
	{ "proc_alt_exits", OF("proc_alt_exits", "procs", "proc_id"),
	    "proc_id", 4096, 0, 1, NULL },
	{ "tasks", OF_HOST("tasks"), "start_ns", HOUR_NS, 0, 1, NULL },
	{ "task_intervals", OF("task_intervals", "tasks", "task_id"), "t1_ns",
	    HOUR_NS, 1, 1, NULL },
	{ "flow_records", OF_HOST("flow_records"), "ctime_s", 3600, 0, 1,
	    NULL },
	{ "flows", OF_HOST("flows"), "first_s", 3600, 0, 1, NULL },
	{ "sysload", OF_HOST("sysload"), "t_ns", HOUR_NS, 0, 1, NULL },
	{ "lost", OF_HOST("lost"), "t_ns", HOUR_NS, 0, 1, NULL },
	{ "pacct_gaps", OF_HOST("pacct_gaps"), "t1_ns", HOUR_NS, 0, 1, NULL },
	{ "energy_procs", OF_HOST("energy_procs"), "start_ns", HOUR_NS, 0, 1,
	    NULL },
	{ "energy_intervals", OF("energy_intervals", "energy_procs",
	    "eproc_id"), "t1_ns", HOUR_NS, 2, 1, NULL },
	{ "metric_series", OF_HOST("metric_series"), "series_id", 4096, 0, 1,
	    NULL },
	{ "metric_samples", OF("metric_samples", "metric_series",
	    "series_id"), "ts_ns", HOUR_NS, 1, 1, NULL },
	{ "metric_gaps", OF("metric_gaps", "metric_series", "series_id"),
	    "to_ns", HOUR_NS, 0, 1, NULL },
	{ "rapl_zones", OF_HOST("rapl_zones"), "zone_id", 4096, 0, 1, NULL },
	{ "rapl_intervals", OF("rapl_intervals", "rapl_zones", "zone_id"),
	    "t1_ns", HOUR_NS, 1, 1, NULL },
	{ "cgroup_intervals", OF("cgroup_intervals", "cgroups", "cgroup_id"),
	    "t1_ns", HOUR_NS, 1, 1, NULL },
	/* Rewritten in place by each ingest: the bucket's signature
	 * carries a renamed or removed id. */
	{ "host_names", OF_HOST("host_names"), "id", 4096, 0, 1, NULL },
	/* Rows of an hour or day grow as ingest adds to them: the bucket
	 * is sent again. */
	{ "rollup_hour", OF_HOST("rollup_hour"), "hour_s", 3600, 2,
	    NS_I64, NULL },
	{ "rollup_day", OF_HOST("rollup_day"), "day_s", 86400, 2, NS_I64,
	    NULL },
	{ "rollup_host", OF_HOST("rollup_host"), "hour_s", 3600, 2,
	    NS_I64, NULL },
};

#define NPTABS	(sizeof(ptabs) / sizeof(ptabs[0]))

/*
 * What local expiry removes of a table (store/expire.c), by name so
 * ptabs[] need not say: the tables not here lose no row.
 */
enum { X_NONE, X_IV, X_RU, X_PROCS, X_IDS };
static const struct pexp {
	const char	*name;
	int		 how;	/* X_IV: rows of bcol before the intervals
				 * cut; X_RU: of bcol before the rollups
				 * cut; X_PROCS: some of bcol (ns) before the
				 * intervals cut less a day; X_IDS: some of any
				 * bucket once the intervals were cut */
	const char	*key;	/* with bcol, a row's key (NULL: bcol) */
} pexps[] = {
	{ "proc_intervals", X_IV, "proc_id" },
	{ "task_intervals", X_IV, "task_id" },
	{ "energy_intervals", X_IV, "eproc_id" },
	{ "sysload", X_IV, NULL },
	{ "procs", X_PROCS, "proc_id" },
	{ "proc_alt_exits", X_IDS, "proc_id" },
	{ "rollup_hour", X_RU, NULL },
	{ "rollup_day", X_RU, NULL },
	{ "rollup_host", X_RU, NULL },
};

#define DAY_NS		(24 * HOUR_NS)

static const struct pexp *
pexp_of(const struct ptab *t)
{
	size_t i;

	for (i = 0; i < sizeof(pexps) / sizeof(pexps[0]); i++)
		if (strcmp(pexps[i].name, t->name) == 0)
			return &pexps[i];
	return NULL;
}

struct push {
	sqlite3		*db;
	PGconn		*conn;
	struct ex_err	*err;
	struct bmap	 maps[NPTABS];
	struct pgcopy	 copy;		/* the COPY in progress */
	char		 origin[32];	/* this database, for central */
	char		 origin_min[32];	/* the earliest first ingest */
	uint64_t	 rows, buckets;	/* of the host being pushed */
	int		 one_host;	/* the database holds one host */
	int64_t		 cut_iv, cut_ru;	/* v_expiry, ns (INT64_MIN: none) */
};

/* The local statement of t's rows for host, with optional range. */
static int
local_rows(struct push *pp, const struct ptab *t, sqlite3_int64 host,
    const int64_t *range, sqlite3_stmt **st, int *bcol, int *skip,
    int *opt)
{
	char sql[1024], bare[80];
	const char *from = t->from;
	const char *cols = t->cols != NULL ? t->cols : "x.*";
	int i, n;

	/* One host: a child's rows are all its rows (a parent is never
	 * missing), and a join per row is a fifth of a first push.  Not
	 * damage: that of a file with no host yet is no host's. */
	if (pp->one_host && strstr(from, " JOIN ") != NULL &&
	    strcmp(t->name, "damage") != 0) {
		snprintf(bare, sizeof(bare), "%s x WHERE ?1 IS NOT NULL",
		    t->name);
		from = bare;
	}
	if (range != NULL)
		snprintf(sql, sizeof(sql), "SELECT %s FROM %s AND x.%s "
		    "BETWEEN ?2 AND ?3", cols, from, t->bcol);
	else
		snprintf(sql, sizeof(sql), "SELECT %s FROM %s", cols, from);
	if (db_prepare(pp->db, sql, st, pp->err) != EXR_OK)
		return EXR_DB;
	sqlite3_bind_int64(*st, 1, host);
	if (range != NULL) {
		sqlite3_bind_int64(*st, 2, range[0]);
		sqlite3_bind_int64(*st, 3, range[1]);
	}
	*bcol = *skip = *opt = -1;
	n = sqlite3_column_count(*st);
	for (i = 0; i < n; i++) {
		const char *c = sqlite3_column_name(*st, i);

		if (strcmp(c, t->bcol) == 0)
			*bcol = i;
		else if (strcmp(c, "host_id") == 0)
			*skip = i;
		/* procs' cgroup columns, last (row_sig). */
		if (*opt < 0 && strcmp(t->name, "procs") == 0 &&
		    strcmp(c, "cgroup_id") == 0)
			*opt = i;
	}
	assert(*bcol >= 0);	/* ptabs[]: bcol is a column of the table */
	return EXR_OK;
}

/* Pass 1: sign every bucket of t for host into m. */
static int
sign_table(struct push *pp, const struct ptab *t, sqlite3_int64 host,
    struct bmap *m)
{
	sqlite3_stmt *st;
	struct bucket *e;
	int bcol, skip, opt, step, rc = EXR_OK;

	if ((rc = local_rows(pp, t, host, NULL, &st, &bcol, &skip, &opt)) !=
	    EXR_OK)
		return rc;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t b = floor_div(sqlite3_column_int64(st, bcol),
		    t->width);

		if ((e = bmap_get(m, b)) == NULL) {
			rc = ex_fail(pp->err, EXR_NOMEM, 0, "out of memory");
			break;
		}
		e->n++;
		e->sig += row_sig(st, skip, opt);
	}
	if (rc == EXR_OK && step != SQLITE_DONE)
		rc = db_fail(pp->db, pp->err, t->name);
	sqlite3_finalize(st);
	return rc;
}

/* Run a query with text parameters; the result, or NULL with err set. */
static PGresult *
pq(struct push *pp, const char *sql, int n, const char *const *v,
    ExecStatusType want, const char *what)
{
	PGresult *res = PQexecParams(pp->conn, sql, n, NULL, v, NULL, NULL, 0);
	char msg[160];

	if (PQresultStatus(res) != want) {
		ex_fail(pp->err, EXR_CENTRAL, 0, "central server: %s: %s",
		    what, pg_msg(pp->conn, res, msg, sizeof(msg)));
		PQclear(res);
		return NULL;
	}
	return res;
}

static int
pq_cmd(struct push *pp, const char *sql, int n, const char *const *v,
    const char *what)
{
	PGresult *res = pq(pp, sql, n, v, PGRES_COMMAND_OK, what);

	if (res == NULL)
		return EXR_CENTRAL;
	PQclear(res);
	return EXR_OK;
}


static int
cmp_bucket(const void *a, const void *b)
{
	const struct bucket *x = a, *y = b;

	return x->b < y->b ? -1 : x->b > y->b;
}

/*
 * Copy t's local rows of host into central: those of the buckets marked
 * to send, over their span (range); or, with all (central has none of
 * host's in t: its first push, or a new table), every row, each bucket
 * signed on the way into m and marked to send.  Rows counted in pp.
 */
static int
copy_rows(struct push *pp, const struct ptab *t, sqlite3_int64 lhost,
    int64_t chost, struct bmap *m, const int64_t *range, int all)
{
	struct pgbuf sql = { 0 };
	sqlite3_stmt *st = NULL;
	struct bucket *e;
	int rc, step, bcol, skip, opt;

	if ((rc = local_rows(pp, t, lhost, all ? NULL : range, &st, &bcol,
	    &skip, &opt)) != EXR_OK)
		goto out;
	if ((rc = pgcopy_sql(&sql, t->name, st, skip, pp->err)) != EXR_OK ||
	    (rc = pgcopy_begin(&pp->copy, sql.p, t->name, 1)) != EXR_OK)
		goto out;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t b = floor_div(sqlite3_column_int64(st, bcol),
		    t->width);

		if (all) {
			if ((e = bmap_get(m, b)) == NULL) {
				rc = ex_fail(pp->err, EXR_NOMEM, 0,
				    "out of memory");
				break;
			}
			e->n++;
			e->sig += row_sig(st, skip, opt);
			e->send = 1;
		} else if ((e = bmap_find(m, b)) == NULL || !e->send)
			continue;
		if ((rc = pgcopy_row(&pp->copy, st, skip, chost, t->name)) !=
		    EXR_OK)
			break;
		pp->rows++;
	}
	if (rc == EXR_OK && step != SQLITE_DONE)
		rc = db_fail(pp->db, pp->err, t->name);
	rc = pgcopy_end(&pp->copy, rc, t->name, 1);
out:
	sqlite3_finalize(st);
	free(sql.p);
	return rc;
}

/* The buckets of m to send, sorted, into *list (*n of them). */
static int
send_list(struct push *pp, const struct bmap *m, struct bucket **list,
    size_t *n)
{
	size_t i, j;

	*list = NULL;
	for (i = *n = 0; i < m->cap; i++)
		if (IN_USE(&m->a[i]) && m->a[i].send)
			(*n)++;
	if (*n == 0)
		return EXR_OK;
	if ((*list = malloc(*n * sizeof(**list))) == NULL)
		return ex_fail(pp->err, EXR_NOMEM, 0, "out of memory");
	for (i = j = 0; i < m->cap; i++)
		if (IN_USE(&m->a[i]) && m->a[i].send)
			(*list)[j++] = m->a[i];
	qsort(*list, *n, sizeof(**list), cmp_bucket);
	return EXR_OK;
}

/* One (id, bcol) pair more into the arrays k, c (text). */
static int
add_pair(struct push *pp, struct pgbuf *k, struct pgbuf *c, int64_t id,
    int64_t bv)
{
	char v[2][24];

	snprintf(v[0], sizeof(v[0]), "%s%" PRId64, k->len == 0 ? "{" : ",", id);
	snprintf(v[1], sizeof(v[1]), "%s%" PRId64, c->len == 0 ? "{" : ",", bv);
	if (pgbuf_add(k, v[0], strlen(v[0]), pp->err) != EXR_OK ||
	    pgbuf_add(c, v[1], strlen(v[1]), pp->err) != EXR_OK)
		return EXR_NOMEM;
	return EXR_OK;
}

/* Central's rows of host of the pairs in k, c, within range; reset. */
static int
delete_pairs(struct push *pp, const struct ptab *t, const char *key,
    const char *hid, const int64_t *range, struct pgbuf *k, struct pgbuf *c)
{
	char q[320], lo[24], hi[24];
	const char *v[5] = { hid, NULL, NULL, lo, hi };

	if (k->len == 0)
		return EXR_OK;
	if (pgbuf_add(k, "}", 2, pp->err) != EXR_OK ||
	    pgbuf_add(c, "}", 2, pp->err) != EXR_OK)
		return EXR_NOMEM;
	snprintf(lo, sizeof(lo), "%" PRId64, range[0]);
	snprintf(hi, sizeof(hi), "%" PRId64, range[1]);
	snprintf(q, sizeof(q), "DELETE FROM %s WHERE host_id = $1 AND %s "
	    "BETWEEN $4 AND $5 AND (%s, %s) IN (SELECT * FROM unnest("
	    "$2::bigint[], $3::bigint[]))", t->name, t->bcol, key, t->bcol);
	v[1] = k->p, v[2] = c->p;
	k->len = c->len = 0;
	return pq_cmd(pp, q, 5, v, t->name);
}

/*
 * The buckets of list to send by their rows (local expiry removed rows
 * of theirs, which central keeps): central's rows of the (id, bcol)
 * pairs they hold here deleted, a few thousand a statement (no row's
 * pair is another's, but for rows expired together).
 */
static int
delete_ids(struct push *pp, const struct ptab *t, sqlite3_int64 lhost,
    const char *hid, const struct bmap *m, const struct bucket *list,
    size_t n)
{
	const struct pexp *x = pexp_of(t);
	const char *kname;
	struct pgbuf k = { 0 }, c = { 0 };
	sqlite3_stmt *st = NULL;
	const struct bucket *e;
	int64_t range[2];
	size_t lo, hi;
	int i, rc, step, bcol, skip, opt, key = -1;

	if (x == NULL)
		return EXR_OK;	/* expiry removes none of its rows */
	kname = x->key != NULL ? x->key : t->bcol;
	for (lo = 0; lo < n && !list[lo].ids; lo++)
		;
	if (lo == n)
		return EXR_OK;
	for (hi = n - 1; !list[hi].ids; hi--)
		;
	range[0] = list[lo].b * t->width;
	range[1] = list[hi].b * t->width + (t->width - 1);
	if ((rc = local_rows(pp, t, lhost, range, &st, &bcol, &skip,
	    &opt)) != EXR_OK)
		goto out;
	for (i = 0; i < sqlite3_column_count(st); i++)
		if (strcmp(sqlite3_column_name(st, i), kname) == 0)
			key = i;
	assert(key >= 0);	/* pexps[]: key is a column of the table */
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t bv = sqlite3_column_int64(st, bcol);

		e = bmap_find(m, floor_div(bv, t->width));
		if (e == NULL || !e->send || !e->ids)
			continue;
		if ((rc = add_pair(pp, &k, &c, sqlite3_column_int64(st, key),
		    bv)) != EXR_OK)
			break;
		if (k.len >= 64 * 1024 && (rc = delete_pairs(pp, t, kname, hid,
		    range, &k, &c)) != EXR_OK)
			break;
	}
	if (rc == EXR_OK && step != SQLITE_DONE)
		rc = db_fail(pp->db, pp->err, t->name);
	if (rc == EXR_OK)
		rc = delete_pairs(pp, t, kname, hid, range, &k, &c);
out:
	sqlite3_finalize(st);
	free(k.p);
	free(c.p);
	return rc;
}

/*
 * t into central for one host.  all: central has nothing of it, so
 * every row goes in one pass (signed as it goes); else the buckets
 * pass 1 found changed: central's rows of them deleted, runs of
 * buckets at a time, and the local ones copied in.  Then the new
 * signatures replace the old.
 */
static int
send_table(struct push *pp, const struct ptab *t, sqlite3_int64 lhost,
    int64_t chost, struct bmap *m, int all)
{
	struct bucket *list = NULL;
	char hid[24], lo[24], hi[24], q[256], *arr = NULL;
	const char *v[3];
	int64_t range[2];
	size_t i, j, n = 0, alen;
	int rc = EXR_OK;

	snprintf(hid, sizeof(hid), "%" PRId64, chost);
	if (all && (rc = copy_rows(pp, t, lhost, chost, m, NULL, 1)) != EXR_OK)
		return rc;
	if ((rc = send_list(pp, m, &list, &n)) != EXR_OK || n == 0)
		return rc;
	if (!all) {
		if ((rc = delete_ids(pp, t, lhost, hid, m, list, n)) != EXR_OK)
			goto out;
		/* Runs of adjacent buckets central holds whole, each a
		 * run of its own from a bucket that is one: a bucket new
		 * to central (a late log's) breaks a run, never ends it
		 * unseen. */
		for (i = 0; i < n; i = j) {
			j = i + 1;
			if (!list[i].have_c || list[i].ids)
				continue;
			while (j < n && list[j].have_c && !list[j].ids &&
			    list[j].b == list[j - 1].b + 1)
				j++;
			snprintf(lo, sizeof(lo), "%" PRId64,
			    list[i].b * t->width);
			snprintf(hi, sizeof(hi), "%" PRId64,
			    list[j - 1].b * t->width + (t->width - 1));
			snprintf(q, sizeof(q), "DELETE FROM %s WHERE host_id = "
			    "$1 AND %s BETWEEN $2 AND $3", t->name, t->bcol);
			v[0] = hid, v[1] = lo, v[2] = hi;
			if ((rc = pq_cmd(pp, q, 3, v, t->name)) != EXR_OK)
				goto out;
		}
		range[0] = list[0].b * t->width;
		range[1] = list[n - 1].b * t->width + (t->width - 1);
		if ((rc = copy_rows(pp, t, lhost, chost, m, range, 0)) !=
		    EXR_OK)
			goto out;
	}

	/* The signatures: the old ones out, the new in. */
	if ((arr = malloc(n * 24 + 3)) == NULL) {
		rc = ex_fail(pp->err, EXR_NOMEM, 0, "out of memory");
		goto out;
	}
	alen = 0;
	arr[alen++] = '{';
	for (i = 0; i < n; i++)
		if (list[i].have_c)
			alen += (size_t)snprintf(arr + alen, 24, "%s%" PRId64,
			    alen > 1 ? "," : "", list[i].b);
	arr[alen++] = '}';
	arr[alen] = '\0';
	v[0] = hid, v[1] = t->name, v[2] = arr;
	if (alen > 2 && (rc = pq_cmd(pp, "DELETE FROM push_buckets WHERE "
	    "host_id = $1 AND tab = $2 AND bucket = ANY ($3::bigint[])", 3, v,
	    "push_buckets")) != EXR_OK)
		goto out;
	if ((rc = pgcopy_begin(&pp->copy, "COPY push_buckets (host_id, tab, bucket, "
	    "n, sig) FROM STDIN", "push_buckets", 0)) != EXR_OK)
		goto out;
	for (i = 0; rc == EXR_OK && i < n; i++) {
		char row[160];
		int len;

		if (list[i].n == 0)
			continue;	/* gone here: gone there */
		pp->buckets++;
		len = snprintf(row, sizeof(row), "%s\t%s\t%" PRId64 "\t%"
		    PRIu64 "\t%" PRId64 "\n", hid, t->name, list[i].b,
		    list[i].n, (int64_t)list[i].sig);
		rc = pgbuf_add(&pp->copy.buf, row, (size_t)len, pp->err);
	}
	rc = pgcopy_end(&pp->copy, rc, "push_buckets", 0);
out:
	free(list);
	free(arr);
	return rc;
}

/*
 * Central's signatures of host into the maps; nc[k]: how many of
 * ptabs[k]'s it has.
 */
static int
central_buckets(struct push *pp, const char *hid, size_t *nc)
{
	const char *v[1] = { hid };
	PGresult *res;
	struct bucket *e;
	size_t k;
	int i, rows;

	memset(nc, 0, NPTABS * sizeof(*nc));
	if ((res = pq(pp, "SELECT tab, bucket, n, sig FROM push_buckets "
	    "WHERE host_id = $1", 1, v, PGRES_TUPLES_OK, "push_buckets")) ==
	    NULL)
		return EXR_CENTRAL;
	rows = PQntuples(res);
	for (i = 0; i < rows; i++) {
		const char *tab = PQgetvalue(res, i, 0);

		for (k = 0; k < NPTABS && strcmp(ptabs[k].name, tab) != 0; k++)
			;
		if (k == NPTABS)
			continue;	/* a table this extracct lacks */
		if ((e = bmap_get(&pp->maps[k], strtoll(PQgetvalue(res,
		    i, 1), NULL, 10))) == NULL) {
			PQclear(res);
			return ex_fail(pp->err, EXR_NOMEM, 0, "out of memory");
		}
		e->have_c = 1;
		e->cn = strtoull(PQgetvalue(res, i, 2), NULL, 10);
		e->csig = (uint64_t)strtoll(PQgetvalue(res, i, 3), NULL, 10);
		nc[k]++;
	}
	PQclear(res);
	return EXR_OK;
}

/*
 * What local expiry did to bucket b of t: X_NONE (nothing), X_RU (it
 * is frozen) or X_IDS (rows of it gone: sent by its rows).
 */
static int
expired(const struct push *pp, const struct ptab *t, const struct pexp *x,
    int64_t b)
{
	int64_t last = b * t->width + (t->width - 1);	/* in b, bcol's unit */

	switch (x != NULL ? x->how : X_NONE) {
	case X_IV:
		return pp->cut_iv != INT64_MIN &&
		    last < pp->cut_iv / t->unit ? X_IDS : X_NONE;
	case X_RU:
		return pp->cut_ru != INT64_MIN &&
		    last < pp->cut_ru / t->unit ? X_RU : X_NONE;
	case X_PROCS:
		return pp->cut_iv != INT64_MIN &&
		    b * t->width < pp->cut_iv - DAY_NS ? X_IDS : X_NONE;
	case X_IDS:
		return pp->cut_iv != INT64_MIN ? X_IDS : X_NONE;
	}
	return X_NONE;
}

/*
 * After pass 1: a bucket goes if central lacks it or holds another;
 * but for what local expiry removed (the header comment).
 */
static void
mark_send(const struct push *pp, const struct ptab *t, struct bmap *m)
{
	const struct pexp *x = pexp_of(t);
	struct bucket *e;
	size_t i;
	int how;

	for (i = 0; i < m->cap; i++) {
		if (!IN_USE(e = &m->a[i]))
			continue;
		e->send = !e->have_c || e->n != e->cn || e->sig != e->csig;
		if (!e->send || !e->have_c ||
		    (how = expired(pp, t, x, e->b)) == X_NONE)
			continue;
		if (how == X_RU || e->n == 0)
			e->send = 0;	/* frozen: central's stays */
		else
			e->ids = 1;
	}
}

/*
 * The partition of t's month from (out of range: the default one), made
 * unless parts lists it.
 */
static int
month_partition(struct push *pp, const struct ptab *t, int64_t t_ns,
    const PGresult *parts)
{
	char name[96];
	int p;

	central_partition_name(name, sizeof(name), t->name, t_ns);
	for (p = 0; p < PQntuples(parts); p++)
		if (strcmp(PQgetvalue(parts, p, 0), name) == 0)
			return EXR_OK;
	return central_partition(pp->conn, t->name, t_ns, t->unit, pp->err);
}

/*
 * Every monthly partition the local rows need, made before any data
 * goes (each in its own short transaction), over every host of the
 * database.  Where an index leads with the column, one probe a month
 * (the first row at or after the month's end); else the days the rows
 * end on, each month once.  Rows out of range share the default
 * partition (central_partition): it is made once, and the probes jump
 * over the months out of range.
 */
static int
make_partitions(struct push *pp)
{
	const int64_t day = 86400 * NS_I64;
	char sql[256];
	PGresult *parts;
	sqlite3_stmt *st;
	int64_t from, to, last;
	size_t k;
	int rc = EXR_OK, step, y, mo, dflt;

	if ((parts = pq(pp, "SELECT c.relname FROM pg_inherits i JOIN pg_class "
	    "c ON c.oid = i.inhrelid", 0, NULL, PGRES_TUPLES_OK,
	    "partitions")) == NULL)
		return EXR_CENTRAL;
	for (k = 0; rc == EXR_OK && k < NPTABS; k++) {
		const struct ptab *t = &ptabs[k];

		if (t->part == 0)
			continue;
		if (t->part == 2)
			snprintf(sql, sizeof(sql), "SELECT min(%s) FROM %s "
			    "WHERE %s >= ?", t->bcol, t->name, t->bcol);
		else
			snprintf(sql, sizeof(sql), "SELECT DISTINCT CASE WHEN "
			    "%s >= 0 THEN %s / %" PRId64 " ELSE (%s + 1) / %"
			    PRId64 " - 1 END AS d FROM %s ORDER BY d", t->bcol,
			    t->bcol, day, t->bcol, day, t->name);
		if (db_prepare(pp->db, sql, &st, pp->err) != EXR_OK) {
			rc = EXR_DB;
			break;
		}
		last = INT64_MIN;
		dflt = 0;
		if (t->part == 2) {
			for (;;) {
				sqlite3_bind_int64(st, 1, last);
				step = sqlite3_step(st);
				if (step != SQLITE_ROW ||
				    sqlite3_column_type(st, 0) == SQLITE_NULL)
					break;
				central_month(sqlite3_column_int64(st, 0) *
				    t->unit, &from, &to, &y, &mo);
				sqlite3_reset(st);
				/* Out of range: the default partition, once. */
				if ((central_in_range(from) || dflt++ == 0) &&
				    (rc = month_partition(pp, t, from, parts)) !=
				    EXR_OK)
					break;
				if (from >= 0 && !central_in_range(from))
					break;	/* the rest is from 2200 on */
				/* Before 1970: on from 1970 at once. */
				last = from < 0 ? 0 : to / t->unit;
			}
			if (step == SQLITE_ROW)
				step = SQLITE_DONE;
		} else
			while ((step = sqlite3_step(st)) == SQLITE_ROW) {
				central_month(sqlite3_column_int64(st, 0) * day,
				    &from, &to, &y, &mo);
				if (from == last)
					continue;	/* days in order */
				last = from;
				if ((central_in_range(from) || dflt++ == 0) &&
				    (rc = month_partition(pp, t, from, parts)) !=
				    EXR_OK)
					break;
			}
		if (rc == EXR_OK && step != SQLITE_DONE)
			rc = db_fail(pp->db, pp->err, t->name);
		sqlite3_finalize(st);
	}
	PQclear(parts);
	return rc;
}

/*
 * The central row of the host (hs: name, ident, exit_sources,
 * carbon_g_per_kwh, carbon_source, cpus, cpus_source), added or brought up to date and
 * locked for the transaction: its id into hid.  A host another database
 * pushes is refused: its local ids are not this database's.
 */
static int
central_host(struct push *pp, sqlite3_stmt *hs, char *hid, size_t n)
{
	const char *v[9];
	const unsigned char *t;
	struct pgbuf text[7] = { { 0 } };
	PGresult *res = NULL;
	int i, rc = EXR_OK;

	/* The row's text escaped as COPY's is: a parameter is not. */
	for (i = 0; i < 7 && rc == EXR_OK; i++) {
		v[i] = NULL;
		if ((t = sqlite3_column_text(hs, i + 1)) == NULL)
			continue;
		if ((rc = pgbuf_text(&text[i], t, (size_t)
		    sqlite3_column_bytes(hs, i + 1), pp->err)) == EXR_OK)
			rc = pgbuf_add(&text[i], "", 1, pp->err);
		v[i] = text[i].p;
	}
	v[7] = pp->origin;
	v[8] = pp->origin_min;
	if (rc == EXR_OK && (res = pq(pp, "INSERT INTO hosts (name, ident, "
	    "exit_sources, carbon_g_per_kwh, carbon_source, cpus, cpus_source, "
	    "origin) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT "
	    "(ident) DO UPDATE SET name = excluded.name, exit_sources = "
	    "excluded.exit_sources, carbon_g_per_kwh = "
	    "excluded.carbon_g_per_kwh, carbon_source = excluded.carbon_source, "
	    "cpus = excluded.cpus, cpus_source = excluded.cpus_source, "
	    "origin = excluded.origin WHERE "
	    "hosts.origin IN (excluded.origin, $9, '0') RETURNING host_id", 9,
	    v, PGRES_TUPLES_OK, "hosts")) == NULL)
		rc = EXR_CENTRAL;
	if (rc == EXR_OK && PQntuples(res) != 1)
		rc = ex_fail(pp->err, EXR_USAGE, 0, "host '%s' (%s) is "
		    "pushed to the central server from another database: a "
		    "host is pushed from one database only (merge them "
		    "first)", v[0], v[1]);
	if (rc == EXR_OK)
		snprintf(hid, n, "%s", PQgetvalue(res, 0, 0));
	PQclear(res);
	for (i = 0; i < 7; i++)
		free(text[i].p);
	return rc;
}

/*
 * Central's newest file of the host must be here, as the same file
 * (ledger ids only grow, and each file keeps the time it was first
 * ingested): else this database is older than the one that pushed
 * last, a backup or a snapshot restored, and replacing central's
 * buckets by its own would delete the facts it lacks.  A database goes
 * back in time only by such a copy; central keeps the fleet's history,
 * so the push is refused, not merged.
 */
static int
central_ahead(struct push *pp, sqlite3_stmt *hs, const char *hid)
{
	const char *v[1] = { hid };
	sqlite3_stmt *st;
	PGresult *res;
	struct tm tm;
	time_t secs;
	char when[40];
	int64_t id, first;
	int rc;

	if ((res = pq(pp, "SELECT file_id, first_ingest_ns FROM files WHERE "
	    "host_id = $1 ORDER BY file_id DESC LIMIT 1", 1, v,
	    PGRES_TUPLES_OK, "files")) == NULL)
		return EXR_CENTRAL;
	if (PQntuples(res) == 0) {
		PQclear(res);
		return EXR_OK;
	}
	id = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
	first = strtoll(PQgetvalue(res, 0, 1), NULL, 10);
	PQclear(res);
	if (db_prepare(pp->db, "SELECT 1 FROM files WHERE file_id = ? AND "
	    "first_ingest_ns = ?", &st, pp->err) != EXR_OK)
		return EXR_DB;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, first);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return EXR_OK;
	if (rc != SQLITE_DONE)
		return db_fail(pp->db, pp->err, "files");
	secs = (time_t)(first / NS_I64);
	if (gmtime_r(&secs, &tm) == NULL ||
	    strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm) == 0)
		snprintf(when, sizeof(when), "%" PRId64 " ns", first);
	return ex_fail(pp->err, EXR_USAGE, 0, "host '%s': older than central "
	    "(its log %" PRId64 ", first ingested %s, is not here): a restored "
	    "copy? refused, to keep central's facts; push the newest copy",
	    (const char *)sqlite3_column_text(hs, 1), id, when);
}

static int
push_mark(struct push *pp, const char *hid)
{
	char now[24], rows[24], bk[24];
	const char *v[4] = { hid, now, rows, bk };

	snprintf(now, sizeof(now), "%" PRIu64, db_now_ns());
	snprintf(rows, sizeof(rows), "%" PRIu64, pp->rows);
	snprintf(bk, sizeof(bk), "%" PRIu64, pp->buckets);
	return pq_cmd(pp, "INSERT INTO push_marks VALUES ($1, 1, $2, $2, $3, "
	    "$4, $3) ON CONFLICT (host_id) DO UPDATE SET pushes = "
	    "push_marks.pushes + 1, last_ns = $2, last_rows = $3, "
	    "last_buckets = $4, rows = push_marks.rows + $3", 4, v,
	    "push_marks");
}

/*
 * One host, in one central transaction: its row locked, central's
 * signatures read, then table by table, parents first, what differs.
 */
static int
push_host(struct push *pp, sqlite3_stmt *hs)
{
	sqlite3_int64 lhost = sqlite3_column_int64(hs, 0);
	size_t nc[NPTABS], k;
	char hid[24];
	int64_t chost;
	int rc;

	pp->rows = pp->buckets = 0;
	for (k = 0; k < NPTABS; k++)
		bmap_reset(&pp->maps[k]);
	if ((rc = pg_exec(pp->conn, "BEGIN", "push", pp->err)) != EXR_OK)
		return rc;
	if ((rc = central_host(pp, hs, hid, sizeof(hid))) != EXR_OK ||
	    (rc = central_ahead(pp, hs, hid)) != EXR_OK ||
	    (rc = central_buckets(pp, hid, nc)) != EXR_OK)
		goto fail;
	chost = strtoll(hid, NULL, 10);
	for (k = 0; k < NPTABS; k++) {
		if (nc[k] > 0) {
			if ((rc = sign_table(pp, &ptabs[k], lhost,
			    &pp->maps[k])) != EXR_OK)
				goto fail;
			mark_send(pp, &ptabs[k], &pp->maps[k]);
		}
		if ((rc = send_table(pp, &ptabs[k], lhost, chost,
		    &pp->maps[k], nc[k] == 0)) != EXR_OK)
			goto fail;
	}
	if ((rc = push_mark(pp, hid)) != EXR_OK)
		goto fail;
	return pg_exec(pp->conn, "COMMIT", "push", pp->err);
fail:
	PQclear(PQexec(pp->conn, "ROLLBACK"));
	return rc;
}

/*
 * This database to central: the time its first file was first
 * ingested, which no other database has (a copy of the file is the
 * same database).  The first file by ledger id, not the earliest
 * ingest: a merge adds files ingested earlier elsewhere, and must not
 * change who the database is.  Central may still hold the earliest
 * ingest (origin_min, what pushes sent before): it is taken as this
 * database too, and replaced.  "0" while it has read no file: a
 * database that has pushed nothing but its host, which the first
 * database with a file may take over.
 */
static int
local_origin(struct push *pp)
{
	sqlite3_stmt *st;
	int rc;

	if (db_prepare(pp->db, "SELECT coalesce((SELECT first_ingest_ns FROM "
	    "files ORDER BY file_id LIMIT 1), 0), coalesce(min("
	    "first_ingest_ns), 0) FROM files", &st, pp->err) != EXR_OK)
		return EXR_DB;
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		snprintf(pp->origin, sizeof(pp->origin), "%lld",
		    (long long)sqlite3_column_int64(st, 0));
		snprintf(pp->origin_min, sizeof(pp->origin_min), "%lld",
		    (long long)sqlite3_column_int64(st, 1));
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? EXR_OK : db_fail(pp->db, pp->err, "files");
}

/* Where local expiry cut (v_expiry), into pp->cut_iv and cut_ru. */
static int
local_cuts(struct push *pp)
{
	sqlite3_stmt *st;
	int rc;

	pp->cut_iv = pp->cut_ru = INT64_MIN;
	/* A database older than schema 15 has expired nothing. */
	if (db_prepare(pp->db, "SELECT 1 FROM sqlite_master WHERE name = "
	    "'v_expiry'", &st, pp->err) != EXR_OK)
		return EXR_DB;
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return rc == SQLITE_DONE ? EXR_OK : db_fail(pp->db, pp->err,
		    "v_expiry");
	if (db_prepare(pp->db, "SELECT what, before_ns FROM v_expiry", &st,
	    pp->err) != EXR_OK)
		return EXR_DB;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *w = (const char *)sqlite3_column_text(st, 0);

		if (w != NULL && strcmp(w, "intervals") == 0)
			pp->cut_iv = sqlite3_column_int64(st, 1);
		else if (w != NULL && strcmp(w, "rollups") == 0)
			pp->cut_ru = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? EXR_OK : db_fail(pp->db, pp->err,
	    "v_expiry");
}

int
push_db(const char *db, const char *conninfo, int allow_password,
    struct push_stats *st, struct ex_err *err)
{
	struct push pp;
	sqlite3_stmt *hs = NULL;
	size_t k;
	int rc, step;

	memset(st, 0, sizeof(*st));
	memset(&pp, 0, sizeof(pp));
	pp.err = err;
	if ((rc = db_open_readonly(db, &pp.db, err)) != EXR_OK)
		return rc;
	/* One snapshot of the local database for the whole push. */
	if ((rc = db_exec(pp.db, "BEGIN", err)) != EXR_OK ||
	    (rc = local_origin(&pp)) != EXR_OK ||
	    (rc = local_cuts(&pp)) != EXR_OK)
		goto out;
	if ((rc = pg_open(conninfo, allow_password, &pp.conn, err)) != EXR_OK)
		goto out;
	pp.copy.conn = pp.conn;
	pp.copy.err = err;
	if ((rc = central_migrate(pp.conn, err)) != EXR_OK ||
	    (rc = make_partitions(&pp)) != EXR_OK)
		goto out;
	if (db_prepare(pp.db, "SELECT count(*) FROM hosts", &hs, err) !=
	    EXR_OK) {
		rc = EXR_DB;
		goto out;
	}
	pp.one_host = sqlite3_step(hs) == SQLITE_ROW &&
	    sqlite3_column_int64(hs, 0) == 1;
	sqlite3_finalize(hs);
	if (db_prepare(pp.db, "SELECT host_id, name, ident, exit_sources, "
	    "carbon_g_per_kwh, carbon_source, cpus, cpus_source FROM hosts "
	    "ORDER BY host_id",
	    &hs, err) != EXR_OK) {
		rc = EXR_DB;
		goto out;
	}
	while ((step = sqlite3_step(hs)) == SQLITE_ROW) {
		if (sqlite3_column_type(hs, 2) == SQLITE_NULL) {
			rc = ex_fail(err, EXR_USAGE, 0, "host '%s' has no "
			    "identity yet: an ingest into that database gives "
			    "it one", (const char *)sqlite3_column_text(hs, 1));
			break;
		}
		if ((rc = push_host(&pp, hs)) != EXR_OK)
			break;
		st->hosts++;
		st->rows += pp.rows;
		st->buckets += pp.buckets;
	}
	if (rc == EXR_OK && step != SQLITE_DONE)
		rc = db_fail(pp.db, err, "hosts");
out:
	sqlite3_finalize(hs);
	if (pp.conn != NULL)
		PQfinish(pp.conn);
	(void)sqlite3_exec(pp.db, "ROLLBACK", NULL, NULL, NULL);
	db_close(pp.db);
	for (k = 0; k < NPTABS; k++)
		bmap_reset(&pp.maps[k]);
	free(pp.copy.buf.p);
	return rc;
}
