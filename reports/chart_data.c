/*
 * The series the charts draw (chart.h), read through rdb from the
 * published views only: v_usage_rollup, v_proc_usage, capture, v_hosts,
 * v_energy_usage and v_energy_estimate.  The SQL is portable (no SQLite
 * date functions): rows are grouped by UTC hour (the rollups' hour_s) or
 * local_hour(), and hours are folded into days here, where the bucket
 * edges are computed once in TZ.
 *
 * CPU comes from the rollups, where every interval is split over the
 * UTC hours it covers (as in the tables), when every bucket edge is a
 * UTC hour (zones with whole-hour offsets); the hours before the first
 * bucket are outside the window.  Elsewhere (Asia/Kolkata) a UTC hour
 * would straddle two buckets, so each interval counts in the bucket
 * it ends in, and the axis says so.  Energy is not in the rollups: it
 * counts in the bucket an interval ends in, and its axis says so.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../parsers/compat.h"
#include "../parsers/records.h"
#include "chart.h"
#include "fmt.h"
#include "report_int.h"
#include "../store/rollup_sql.h"

/* More buckets than this (274 years of days) is no picture. */
#define MAX_BUCKETS	100000

/* Lines beyond this many hosts are not drawn (the subtitle says so). */
#define MAX_LINES	10

/*
 * A sum of ns as REAL seconds that cannot overflow (report.c's split
 * sum: seconds and remainders apart).  For a printf format: %%.
 */
#define SPLIT_SECS(x) \
	"(coalesce(sum((" x ") / " NS_SQL "), 0) + " \
	"coalesce(sum((" x ") %% " NS_SQL "), 0) / 1e9)"

#define CPU_NS	"coalesce(i.cpu_user_ns, 0) + coalesce(i.cpu_sys_ns, 0)"

/* The CPU seconds of rollup rows (each sum as _g seconds, _r ns). */
#define ROLLUP_CPU_SECS \
	"(coalesce(sum(coalesce(i.cpu_user_ns_g, 0) + " \
	"coalesce(i.cpu_sys_ns_g, 0)), 0) + coalesce(sum(" \
	"coalesce(i.cpu_user_ns_r, 0) + coalesce(i.cpu_sys_ns_r, 0)), 0) / 1e9)"

/* The axis notes: how an interval's amount is put into buckets. */
#define NOTE_SPLIT	"values apportioned over the hours intervals span"

static int	db_fail(struct rdb *db, struct rdb_q *q, struct ex_err *err);
static int	make_buckets(struct chart *c, const struct chart_window *w,
		    const char *tz, struct ex_err *err);
static size_t	bucket_of(const struct chart *c, int64_t epoch_s);
static int	alloc_series(struct chart *c, size_t ns, struct ex_err *err);
static int	series(struct rdb *db, const struct report_opts *o,
		    const struct report_filter_cols *fc, int64_t a, int64_t b1,
		    size_t n, size_t nkeys, const char *what,
		    const char *hour_sql, struct chart *c,
		    struct report_set *obs, struct ex_err *err);
static int	describe(struct rdb *db, const struct report_opts *o,
		    const struct chart_window *w, struct chart *c,
		    struct ex_err *err);

void
chart_init(struct chart *c, enum chart_kind kind)
{
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->ref = NAN;
	c->scale = 1;
}

void
chart_release(struct chart *c)
{
	free(c->edge);
	free(c->name);
	free(c->v);
	free(c->bar_class);
	free(c->cover);
	chart_init(c, c->kind);
}

/* min(t1_ns), max(t1_ns) of one view over o's window, into lo/hi. */
static int
extent(struct rdb *db, const char *view, const struct report_opts *o,
    int64_t *lo, int64_t *hi, int *any, struct ex_err *err)
{
	char sql[256];
	struct rdb_q *q;

	snprintf(sql, sizeof(sql), "SELECT min(t1_ns), max(t1_ns) FROM %s"
	    " WHERE t1_ns >= ?1 AND t1_ns < ?2", view);
	if (rdb_prepare(db, sql, &q) != 0)
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	rdb_bind_int64(q, 1, o->from_ns);
	rdb_bind_int64(q, 2, o->to_ns);
	if (rdb_step(q) != RDB_ROW)
		return db_fail(db, q, err);
	if (!rdb_isnull(q, 0)) {
		if (!*any || rdb_int64(q, 0) < *lo)
			*lo = rdb_int64(q, 0);
		if (!*any || rdb_int64(q, 1) > *hi)
			*hi = rdb_int64(q, 1);
		*any = 1;
	}
	rdb_finalize(q);
	return EXR_OK;
}

/*
 * The usage's extent as the tables see it (report_bucket.c): the
 * rollups' hours, [first hour, last hour + 1 h), into lo/hi (hi the
 * last ns in).  With the window open at both ends, only the last
 * cluster of hours: those after the last empty stretch longer than
 * CHART_GAP_S, with a note naming the hosts left out.
 */
static int
usage_extent(struct rdb *db, const struct report_opts *o,
    struct chart_window *w, int64_t *lo, int64_t *hi, int *any,
    int64_t *cut, struct ex_err *err)
{
	struct rdb_q *q;
	int64_t h, prev = 0, first = 0, start = 0, last = 0, a, b;
	int n = 0, rc;
	size_t len = 0;
	char d0[40], d1[40];

	if (rdb_prepare(db, "SELECT DISTINCT hour_s FROM v_usage_rollup_host"
	    " WHERE hour_s * " NS_SQL " >= ?1 AND hour_s * " NS_SQL " < ?2"
	    " ORDER BY hour_s", &q) != 0)
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	rdb_bind_int64(q, 1, o->from_ns);
	rdb_bind_int64(q, 2, o->to_ns);
	while ((rc = rdb_step(q)) == RDB_ROW) {
		h = rdb_int64(q, 0);
		if (n++ == 0)
			first = start = h;
		else if (h - prev > CHART_GAP_S &&
		    o->open == (REPORT_OPEN_FROM | REPORT_OPEN_TO))
			start = h;
		prev = last = h;
	}
	if (rc != RDB_DONE)
		return db_fail(db, q, err);
	rdb_finalize(q);
	if (n == 0)
		return EXR_OK;
	if (!*any || start * NS_I64 < *lo)
		*lo = start * NS_I64;
	if (!*any || (last + 3600) * NS_I64 - 1 > *hi)
		*hi = (last + 3600) * NS_I64 - 1;
	*any = 1;
	if (start == first)
		return EXR_OK;
	*cut = start * NS_I64;
	/* The hosts whose data all lie before the cluster drawn. */
	len = (size_t)snprintf(w->note, sizeof(w->note), "data before %s "
	    "(after more than %d days without any) not drawn:",
	    fmt_datetime(d0, sizeof(d0), start), CHART_GAP_S / 86400);
	if (rdb_prepare(db, "SELECT host, min(hour_s), max(hour_s) FROM "
	    "v_usage_rollup_host GROUP BY host ORDER BY host", &q) != 0)
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	while ((rc = rdb_step(q)) == RDB_ROW) {
		a = rdb_int64(q, 1);
		b = rdb_int64(q, 2);
		if (b >= start || len >= sizeof(w->note))
			continue;
		len += (size_t)snprintf(w->note + len, sizeof(w->note) - len,
		    " host %s, its data %s to %s;", rdb_text(q, 0) != NULL ?
		    rdb_text(q, 0) : "-", fmt_datetime(d0, sizeof(d0), a),
		    fmt_datetime(d1, sizeof(d1), b + 3600));
	}
	if (rc != RDB_DONE)
		return db_fail(db, q, err);
	rdb_finalize(q);
	if (len < sizeof(w->note) && len > 0 && w->note[len - 1] == ';')
		w->note[len - 1] = '\0';
	return EXR_OK;
}

int
chart_window(struct rdb *db, const struct report_opts *o, int mask,
    struct chart_window *w, struct ex_err *err)
{
	int64_t lo = 0, hi = 0, cut = INT64_MIN;
	int any = 0, rc;

	w->note[0] = '\0';
	if (((mask & CW_USAGE) && (rc = usage_extent(db, o, w, &lo, &hi,
	    &any, &cut, err)) != EXR_OK) ||
	    ((mask & CW_CAPTURE) && (rc = extent(db, "capture", o, &lo, &hi,
	    &any, err)) != EXR_OK) ||
	    ((mask & CW_ENERGY) && ((rc = extent(db, "v_energy_usage", o,
	    &lo, &hi, &any, err)) != EXR_OK || (rc = extent(db,
	    "v_energy_estimate", o, &lo, &hi, &any, err)) != EXR_OK)))
		return rc;
	w->empty = !any;
	w->daily = o->every == EVERY_HOUR ? 0 : o->every == EVERY_DAY ? 1 :
	    -1;
	/*
	 * A window given is drawn whole; an open end stops at the data,
	 * as the tables' does: the first and last hour of usage.
	 */
	w->lo_ns = !(o->open & REPORT_OPEN_FROM) ? o->from_ns : lo;
	w->hi_ns = !(o->open & REPORT_OPEN_TO) ? o->to_ns : hi + 1;
	if (w->lo_ns < cut)
		w->lo_ns = cut;	/* the last cluster only (usage_extent) */
	if (w->hi_ns <= w->lo_ns)
		w->hi_ns = w->lo_ns + 1;
	return EXR_OK;
}

/*
 * The name column and join (NAME_OF, NAME_JOIN) of a key of kind (-1:
 * not an id) over rows whose host label is host and id is id, when the
 * names come from the database; else both empty.
 */
static int
name_sql(const struct report_opts *o, int kind, const char *host,
    const char *id, char *col, size_t ncol, char *join, size_t njoin)
{
	col[0] = join[0] = '\0';
	if (kind < 0 || !report_names_stored(o, kind))
		return 0;
	snprintf(col, ncol, ", " NAME_OF("n"));
	snprintf(join, njoin, NAME_JOIN("n", "%s", "%s", "%s"), host,
	    report_name_kinds[kind], id);
	return 1;
}

/*
 * A series' or bar's text: the name of the id key (kind >= 0), by the
 * report's rule (report_id_name; stored: the query's NAME_OF), else
 * the key itself.
 */
static void
key_label(const struct report_opts *o, int kind, const char *key,
    const char *stored, char *b, size_t n)
{
	const char *name = NULL;
	char *end;
	long long id;

	if (kind >= 0 && key[0] >= '0' && key[0] <= '9') {
		id = strtoll(key, &end, 10);
		if (*end == '\0')
			name = report_id_name(o, kind, id, stored);
	}
	snprintf(b, n, "%s", name != NULL ? name : key);
}

/*
 * c's series for nkeys keys, the first n shown, the rest one "other (N
 * whats)": *top is how many are keys of their own.
 */
static int
series_alloc(struct chart *c, size_t n, size_t nkeys, const char *what,
    size_t *top, struct ex_err *err)
{
	int rc;

	c->has_other = nkeys > n;
	if (nkeys > n) {
		snprintf(c->name[n], sizeof(c->name[0]), "other (%zu %ss)",
		    nkeys - n, what);
		nkeys = n + 1;
	}
	if ((rc = alloc_series(c, nkeys, err)) != EXR_OK)
		return rc;
	*top = c->has_other ? c->ns - 1 : c->ns;
	return EXR_OK;
}

/* The series of key name (NULL: "-"), the other one if not of the top. */
static size_t
series_of(const struct chart *c, size_t top, const char *name)
{
	size_t k;

	if (name == NULL)
		name = "-";
	for (k = 0; k < top; k++)
		if (strncmp(c->name[k], name, sizeof(c->name[k]) - 1) == 0)
			break;
	return k;
}

/*
 * The keys of top_sql (?1, ?2 the window a, b1; the filters after), the
 * largest first: the first n into c->name, their labels into *label (n
 * + 1 of them, the caller's to free), how many there are in *nkeys.
 */
static int
top_keys(struct rdb *db, const struct report_opts *o, int kind,
    const struct report_filter_cols *fc, int64_t a, int64_t b1, size_t n,
    const char *top_sql, struct chart *c, char (**label)[128],
    size_t *nkeys, struct ex_err *err)
{
	struct rdb_q *q;
	int rc, named = kind >= 0 && report_names_stored(o, kind);

	*label = NULL;
	*nkeys = 0;
	if (rdb_prepare(db, top_sql, &q) != 0)
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	rdb_bind_int64(q, 1, a);
	rdb_bind_int64(q, 2, b1);
	report_filter_bind(q, o, rdb_engine(db), fc, 3);
	if ((c->name = calloc(n + 1, sizeof(*c->name))) == NULL ||
	    (*label = calloc(n + 1, sizeof(**label))) == NULL) {
		rdb_finalize(q);
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	}
	while ((rc = rdb_step(q)) == RDB_ROW) {
		/* The key to match the hours by, the text to show. */
		if (*nkeys < n) {
			snprintf(c->name[*nkeys], sizeof(c->name[0]), "%s",
			    rdb_text(q, 0) != NULL ? rdb_text(q, 0) : "-");
			key_label(o, kind, c->name[*nkeys], named ?
			    rdb_text(q, 2) : NULL, (*label)[*nkeys],
			    sizeof((*label)[0]));
		}
		(*nkeys)++;
	}
	if (rc != RDB_DONE) {
		free(*label);
		*label = NULL;
		return db_fail(db, q, err);
	}
	rdb_finalize(q);
	return EXR_OK;
}

/*
 * The stacked series of c from two queries, each with ?1, ?2 the
 * window (a, b: ns, or the rollups' hours in s): top_sql gives "key,
 * total" for every key, largest first, and the key's name (name_sql)
 * where the names of kind come from the database; hour_sql "local hour,
 * key, amount" per hour and key.  The first n keys are series, shown by
 * their names (key_label), the rest one "other (N whats)"; each
 * bucket's amount is divided by its seconds (a mean rate).
 */
static int
time_series(struct rdb *db, const struct report_opts *o, int kind,
    const struct report_filter_cols *fc, int64_t a, int64_t b1, size_t n,
    const char *what, const char *top_sql, const char *hour_sql,
    struct chart *c, struct report_set *obs, struct ex_err *err)
{
	char (*label)[128];
	size_t nkeys, k;
	int rc;

	if ((rc = top_keys(db, o, kind, fc, a, b1, n, top_sql, c, &label,
	    &nkeys, err)) != EXR_OK)
		return rc;
	rc = nkeys == 0 ? EXR_OK : series(db, o, fc, a, b1, n, nkeys, what,
	    hour_sql, c, obs, err);
	for (k = 0; rc == EXR_OK && k < n && k < nkeys; k++)
		memcpy(c->name[k], label[k], sizeof(label[k]));
	free(label);
	return rc;
}

/*
 * The seconds a row of host (obs: hosts with their observed spans) in
 * bucket b is divided by: the time its snapshots cover, or the bucket
 * where the host has no snapshots (not known) or none cover it.
 */
static double
divisor(const struct chart *c, const struct report_set *obs,
    const char *host, size_t b)
{
	size_t i;
	int64_t ns;

	for (i = 0; obs != NULL && host != NULL && i < obs->nhosts; i++)
		if (strcmp(obs->hosts[i].host, host) == 0) {
			if (obs->hosts[i].watched && (ns = report_obs_ns(
			    &obs->hosts[i], c->edge[b] * NS_I64,
			    c->edge[b + 1] * NS_I64)) > 0)
				return (double)ns / 1e9;
			break;
		}
	return (double)(c->edge[b + 1] - c->edge[b]);
}

/*
 * Each bucket's coverage (chart.h): of the hosts with snapshots, the
 * best covered one's part of the bucket; NaN where none has any.
 */
static int
coverage(struct chart *c, const struct report_set *obs, struct ex_err *err)
{
	size_t b, i;
	double f;

	if ((c->cover = calloc(c->nb + 1, sizeof(*c->cover))) == NULL)
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	for (b = 0; b < c->nb; b++) {
		c->cover[b] = NAN;
		for (i = 0; i < obs->nhosts; i++) {
			if (!obs->hosts[i].watched)
				continue;
			f = (double)report_obs_ns(&obs->hosts[i], c->edge[b] *
			    NS_I64, c->edge[b + 1] * NS_I64) / 1e9 /
			    (double)(c->edge[b + 1] - c->edge[b]);
			if (isnan(c->cover[b]) || f > c->cover[b])
				c->cover[b] = f;
		}
	}
	return EXR_OK;
}

/*
 * time_series' second part: the hours' amounts of the top keys, each
 * over its bucket's seconds; with obs, the rows have the host in a
 * fourth column and are over the time the host was observed.
 */
static int
series(struct rdb *db, const struct report_opts *o,
    const struct report_filter_cols *fc, int64_t a, int64_t b1, size_t n,
    size_t nkeys, const char *what, const char *hour_sql, struct chart *c,
    struct report_set *obs, struct ex_err *err)
{
	struct rdb_q *q;
	size_t s, b, k, top;
	int rc;

	if ((rc = series_alloc(c, n, nkeys, what, &top, err)) != EXR_OK)
		return rc;

	if (rdb_prepare(db, hour_sql, &q) != 0)
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	rdb_bind_int64(q, 1, a);
	rdb_bind_int64(q, 2, b1);
	report_filter_bind(q, o, rdb_engine(db), fc, 3);
	while ((rc = rdb_step(q)) == RDB_ROW) {
		b = bucket_of(c, rdb_int64(q, 0));
		k = series_of(c, top, rdb_text(q, 1));
		if (b < c->nb && k < c->ns)
			c->v[k * c->nb + b] += obs == NULL ? rdb_double(q, 2) :
			    rdb_double(q, 2) / divisor(c, obs, rdb_text(q, 3),
			    b);
	}
	if (rc != RDB_DONE)
		return db_fail(db, q, err);
	rdb_finalize(q);
	if (obs != NULL)
		return coverage(c, obs, err);
	for (s = 0; s < c->ns; s++)
		for (b = 0; b < c->nb; b++)
			c->v[s * c->nb + b] /= (double)(c->edge[b + 1] -
			    c->edge[b]);
	return EXR_OK;
}

/*
 * time_series for CPU: each host's CPU over the time it was observed
 * in the bucket (report_obs_load), and the buckets' coverage.
 */
static int
cpu_series(struct rdb *db, const struct report_opts *o, int kind,
    const struct report_filter_cols *fc, int64_t a, int64_t b1, size_t n,
    const char *what, const char *top_sql, const char *hour_sql,
    struct chart *c, struct ex_err *err)
{
	struct report_set obs = { 0 };
	int rc;

	if ((rc = report_capacity(db, &obs, err)) == EXR_OK &&
	    (rc = report_obs_load(db, &obs, c->edge[0] * NS_I64,
	    c->edge[c->nb] * NS_I64, err)) == EXR_OK)
		rc = time_series(db, o, kind, fc, a, b1, n, what, top_sql,
		    hour_sql, c, &obs, err);
	report_set_release(&obs);
	return rc;
}

int
chart_cpu(struct rdb *db, const struct report_opts *o,
    const struct chart_window *w, size_t n, struct chart *c,
    struct ex_err *err)
{
	static const char *const key_sql[BY_NKEYS] = {
		[BY_USER] = "i.uid", [BY_COMMAND] = "i.command",
		[BY_PROJECT] = "i.projid", [BY_ZONE] = "i.zone",
		[BY_HOST] = "i.host", [BY_HOUR] = "i.command",
		[BY_GROUP] = "i.gid", [BY_CGROUP] = "i.cgroup",
		[BY_UNIT] = "i.unit", [BY_CONTAINER] = "i.container",
	};
	enum report_by by = o->by == BY_HOUR ? BY_COMMAND : o->by;
	const char *key = key_sql[by];
	/* The intervals' command key, as the rollups' (rollup_sql.h). */
	const char *ikey = by == BY_COMMAND ? RU_COMMAND("i.command",
	    "i.final", "i.acctflags") : key;
	/* The filters' columns: the intervals', the rollups'. */
	static const struct report_filter_cols scan = { "i.uid", "i.gid",
	    "i.command", "i.host", 0, "i.unit", "i.container" }, rolled = { "i.uid", "i.gid",
	    "i.command", "i.host", 1, NULL, NULL };
	char top_sql[1024 + REPORT_FILTER_SQL];
	char hour_sql[768 + REPORT_FILTER_SQL], ncol[256], njoin[256];
	char where[REPORT_FILTER_SQL];
	size_t b;
	int rc, scanned, kind = report_name_kind(by);

	snprintf(c->title, sizeof(c->title), "CPU by %s",
	    report_by_names[by]);
	if ((rc = describe(db, o, w, c, err)) != EXR_OK ||
	    (rc = make_buckets(c, w, o->tz, err)) != EXR_OK)
		return rc;
	snprintf(c->ylabel, sizeof(c->ylabel), "CPUs busy (mean over each "
	    "%s)", c->daily ? "day" : "hour");
	snprintf(c->unit, sizeof(c->unit), "CPUs");
	/* Users and projects by name where known, as in the table. */
	snprintf(c->legend, sizeof(c->legend), "%s", report_by_names[by]);
	snprintf(c->empty, sizeof(c->empty), "no data in this window");
	if (w->empty)
		return EXR_OK;
	name_sql(o, kind, "i.host", key, ncol, sizeof(ncol), njoin,
	    sizeof(njoin));
	for (b = 0; b <= c->nb; b++)
		if (c->edge[b] % 3600 != 0)
			break;
	/* The cgroup keys are in no rollup: by end hour, too. */
	scanned = b <= c->nb || by == BY_CGROUP || by == BY_UNIT ||
	    by == BY_CONTAINER || report_cgroup_filtered(o);
	if ((rc = report_filter_sql(o, rdb_engine(db), scanned ? &scan :
	    &rolled, 3, where, sizeof(where), err)) != EXR_OK)
		return rc;
	if (scanned) {
		/* A bucket edge inside a UTC hour: by end hour. */
		snprintf(c->xlabel, sizeof(c->xlabel), "time in %s; intervals "
		    "count in the %s they end in (local hours are not "
		    "UTC hours)", o->tz, c->daily ? "day" : "hour");
		snprintf(top_sql, sizeof(top_sql), "SELECT coalesce(CAST(%s AS"
		    " TEXT), '-') AS k, " SPLIT_SECS(CPU_NS) "%s FROM "
		    "v_proc_usage i%s WHERE i.t1_ns >= ?1 AND i.t1_ns < ?2%s "
		    "GROUP BY k ORDER BY 2 DESC, 1", ikey, ncol, njoin, where);
		snprintf(hour_sql, sizeof(hour_sql), "SELECT local_hour("
		    "i.t1_ns) AS h, coalesce(CAST(%s AS TEXT), '-') AS k, "
		    SPLIT_SECS(CPU_NS) ", i.host AS hh FROM v_proc_usage i "
		    "WHERE i.t1_ns >= ?1 AND i.t1_ns < ?2%s GROUP BY h, k, hh",
		    ikey, where);
		return cpu_series(db, o, kind, &scan, w->lo_ns, w->hi_ns, n,
		    report_by_names[by], top_sql, hour_sql, c, err);
	}
	/* The rollups' hours that start in the buckets. */
	snprintf(c->xlabel, sizeof(c->xlabel), "time in %s; " NOTE_SPLIT,
	    o->tz);
	snprintf(top_sql, sizeof(top_sql), "SELECT coalesce(CAST(%s AS TEXT),"
	    " '-') AS k, " ROLLUP_CPU_SECS "%s FROM v_usage_rollup i%s"
	    " WHERE i.hour_s >= ?1 AND i.hour_s < ?2%s GROUP BY k"
	    " ORDER BY 2 DESC, 1", key, ncol, njoin, where);
	snprintf(hour_sql, sizeof(hour_sql), "SELECT i.hour_s AS h,"
	    " coalesce(CAST(%s AS TEXT), '-') AS k, " ROLLUP_CPU_SECS
	    ", i.host AS hh FROM v_usage_rollup i WHERE i.hour_s >= ?1 AND"
	    " i.hour_s < ?2%s GROUP BY h, k, hh", key, where);
	return cpu_series(db, o, kind, &rolled, c->edge[0], c->edge[c->nb], n,
	    report_by_names[by], top_sql, hour_sql, c, err);
}

/*
 * The energy of one basis, after "SELECT ...": FROM and WHERE (_NAMED:
 * with a "%s" between them for the name join of name_sql).
 */
#define MEASURED_TABLE	" FROM v_energy_usage i"
#define MEASURED_WHERE \
	" WHERE i.t1_ns >= ?1 AND i.t1_ns < ?2 AND i.t1_ns > i.t0_ns" \
	" AND i.energy_nj IS NOT NULL"
#define ESTIMATE_TABLE \
	" FROM v_energy_estimate e JOIN v_hosts h USING (host_id)"
#define ESTIMATE_WHERE \
	" WHERE e.t1_ns >= ?1 AND e.t1_ns < ?2 AND e.energy_nj IS NOT NULL"
#define MEASURED_FROM		MEASURED_TABLE MEASURED_WHERE
#define ESTIMATE_FROM		ESTIMATE_TABLE ESTIMATE_WHERE
/* The same with "%s" for the filters (report_filter_sql) after WHERE. */
#define MEASURED_FILTERED	MEASURED_TABLE MEASURED_WHERE "%s"
#define ESTIMATE_FILTERED	ESTIMATE_TABLE ESTIMATE_WHERE "%s"
#define MEASURED_NAMED		MEASURED_TABLE "%s" MEASURED_WHERE "%s"
#define ESTIMATE_NAMED		ESTIMATE_TABLE "%s" ESTIMATE_WHERE "%s"
/* The filters' columns of each basis: energy records no group. */
static const struct report_filter_cols energy_cols[2] = {
	{ "i.uid", NULL, "i.command", "i.host", 0, NULL, NULL },
	{ "e.uid", NULL, "e.command", "h.host", 0, NULL, NULL },
};

/*
 * The energy over time: as time_series, but the joules in a bucket are
 * divided by the time observed there (from the start of the first
 * interval ending in it to the end of the last, as report --energy
 * divides a group's joules), not by the bucket's length: snapshots taken
 * for 210 s of an hour drew 1/17 of the watts the table printed.  One
 * span a bucket, every series': the stack is then the mean power of all
 * of them over that time, each band its share.
 * hour_sql gives hour, key, joules, min(t0_ns), max(t1_ns).
 */
static int
watts_series(struct rdb *db, const struct report_opts *o, int kind,
    const struct report_filter_cols *fc, int64_t a, int64_t b1, size_t n,
    const char *what, const char *top_sql, const char *hour_sql,
    struct chart *c, struct ex_err *err)
{
	struct rdb_q *q;
	char (*label)[128];
	int64_t *lo = NULL, *hi = NULL;
	size_t nkeys, k, b, top, i;
	int rc;

	if ((rc = top_keys(db, o, kind, fc, a, b1, n, top_sql, c, &label,
	    &nkeys, err)) != EXR_OK)
		return rc;
	if (nkeys == 0) {
		free(label);
		return EXR_OK;
	}
	if ((rc = series_alloc(c, n, nkeys, what, &top, err)) != EXR_OK) {
		free(label);
		return rc;
	}
	if (c->nb > 0 && ((lo = calloc(c->nb, sizeof(*lo))) == NULL ||
	    (hi = calloc(c->nb, sizeof(*hi))) == NULL)) {
		rc = ex_fail(err, EXR_NOMEM, 0, "no memory");
		goto out;
	}
	if (rdb_prepare(db, hour_sql, &q) != 0) {
		rc = ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
		goto out;
	}
	rdb_bind_int64(q, 1, a);
	rdb_bind_int64(q, 2, b1);
	report_filter_bind(q, o, rdb_engine(db), fc, 3);
	while ((rc = rdb_step(q)) == RDB_ROW) {
		int64_t t0 = rdb_int64(q, 3), t1 = rdb_int64(q, 4);

		b = bucket_of(c, rdb_int64(q, 0));
		k = series_of(c, top, rdb_text(q, 1));
		if (b >= c->nb)
			continue;
		/* hi == 0: nothing in this bucket yet. */
		if (hi[b] == 0 || t0 < lo[b])
			lo[b] = t0;
		if (hi[b] == 0 || t1 > hi[b])
			hi[b] = t1;
		if (k < c->ns)
			c->v[k * c->nb + b] += rdb_double(q, 2);
	}
	if (rc != RDB_DONE) {
		rc = db_fail(db, q, err);
		goto out;
	}
	rdb_finalize(q);
	for (k = 0; k < c->ns; k++)
		for (b = 0; b < c->nb; b++) {
			i = k * c->nb + b;
			c->v[i] = hi[b] > lo[b] ? c->v[i] * 1e9 /
			    (double)(hi[b] - lo[b]) : 0;
		}
	for (k = 0; k < n && k < c->ns; k++)
		memcpy(c->name[k], label[k], sizeof(label[k]));
	rc = EXR_OK;
out:
	free(lo);
	free(hi);
	free(label);
	return rc;
}

int
chart_energy_time(struct rdb *db, const struct report_opts *o,
    const struct chart_window *w, size_t n, struct chart *c,
    struct ex_err *err)
{
	enum report_by by = o->by == BY_USER || o->by == BY_HOST ? o->by :
	    BY_COMMAND;
	const char *key[2] = {
	    by == BY_USER ? "i.uid" : by == BY_HOST ? "i.host" : "i.command",
	    by == BY_USER ? "e.uid" : by == BY_HOST ? "h.host" : "e.command" };
	char top_sql[1024 + REPORT_FILTER_SQL];
	char hour_sql[512 + REPORT_FILTER_SQL], ncol[256], njoin[256];
	char where[REPORT_FILTER_SQL];
	struct rdb_q *q;
	int rc, measured, kind = report_name_kind(by);

	if ((rc = describe(db, o, w, c, err)) != EXR_OK ||
	    (rc = make_buckets(c, w, o->tz, err)) != EXR_OK)
		return rc;
	snprintf(c->ylabel, sizeof(c->ylabel), "watts (joules in each %s over "
	    "the time observed in it)", c->daily ? "day" : "hour");
	snprintf(c->unit, sizeof(c->unit), "W");
	snprintf(c->legend, sizeof(c->legend), "%s", report_by_names[by]);
	snprintf(c->empty, sizeof(c->empty), "no data in this window "
	    "(energy needs energy snapshots or RAPL)");
	/*
	 * One basis, never both in one stack: measured where there is
	 * any, else the estimate, else none (nothing to draw).
	 */
	snprintf(c->title, sizeof(c->title), "Energy over time by %s",
	    report_by_names[by]);
	if (w->empty)
		return EXR_OK;
	for (measured = 1; measured >= 0; measured--) {
		if (rdb_prepare(db, measured ? "SELECT count(*)" MEASURED_FROM :
		    "SELECT count(*)" ESTIMATE_FROM, &q) != 0)
			return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
		rdb_bind_int64(q, 1, w->lo_ns);
		rdb_bind_int64(q, 2, w->hi_ns);
		if (rdb_step(q) != RDB_ROW)
			return db_fail(db, q, err);
		rc = rdb_int64(q, 0) > 0;
		rdb_finalize(q);
		if (rc)
			break;
	}
	if (measured < 0)
		return EXR_OK;
	snprintf(c->title + strlen(c->title), sizeof(c->title) -
	    strlen(c->title), " (%s; watts over observed time)", measured ?
	    "measured" : "estimate: RAPL shared by CPU time");
	name_sql(o, kind, measured ? "i.host" : "h.host", key[!measured], ncol,
	    sizeof(ncol), njoin, sizeof(njoin));
	if ((rc = report_filter_sql(o, rdb_engine(db), &energy_cols[!measured],
	    3, where, sizeof(where), err)) != EXR_OK)
		return rc;
	if (measured) {
		snprintf(top_sql, sizeof(top_sql), "SELECT coalesce(CAST(%s AS"
		    " TEXT), '-') AS k, sum(i.energy_nj * 1.0) / 1e9%s"
		    MEASURED_NAMED " GROUP BY k ORDER BY 2 DESC, 1", key[0],
		    ncol, njoin, where);
		snprintf(hour_sql, sizeof(hour_sql), "SELECT local_hour("
		    "i.t1_ns) AS hr, coalesce(CAST(%s AS TEXT), '-') AS k,"
		    " sum(i.energy_nj * 1.0) / 1e9, min(i.t0_ns),"
		    " max(i.t1_ns)" MEASURED_FILTERED " GROUP BY hr, k", key[0],
		    where);
	} else {
		snprintf(top_sql, sizeof(top_sql), "SELECT coalesce(CAST(%s AS"
		    " TEXT), '-') AS k, sum(e.energy_nj) / 1e9%s"
		    ESTIMATE_NAMED " GROUP BY k ORDER BY 2 DESC, 1", key[1],
		    ncol, njoin, where);
		snprintf(hour_sql, sizeof(hour_sql), "SELECT local_hour("
		    "e.t1_ns) AS hr, coalesce(CAST(%s AS TEXT), '-') AS k,"
		    " sum(e.energy_nj) / 1e9, min(e.t0_ns), max(e.t1_ns)"
		    ESTIMATE_FILTERED " GROUP BY hr, k", key[1], where);
	}
	return watts_series(db, o, kind, &energy_cols[!measured], w->lo_ns,
	    w->hi_ns, n, report_by_names[by], top_sql, hour_sql, c, err);
}

int
chart_capture(struct rdb *db, const struct report_opts *o,
    const struct chart_window *w, struct chart *c, struct ex_err *err)
{
	/* Of all processes: --host narrows it, nothing else can. */
	static const struct report_filter_cols cols = { .host = "h.host" };
	struct report_opts ho = *o;
	char sql[256 + REPORT_FILTER_SQL], where[REPORT_FILTER_SQL];
	struct rdb_q *q;
	double *busy = NULL;
	char last[128];
	size_t more = 0, s, b;
	int rc;

	snprintf(c->title, sizeof(c->title), "Capture ratio");
	if ((rc = describe(db, o, w, c, err)) != EXR_OK ||
	    (rc = make_buckets(c, w, o->tz, err)) != EXR_OK)
		return rc;
	snprintf(c->ylabel, sizeof(c->ylabel), "process CPU / busy CPU (per "
	    "%s)", c->daily ? "day" : "hour");
	snprintf(c->empty, sizeof(c->empty), "no data in this window "
	    "(the capture ratio needs snap's snapshots)");
	c->ref = 1.0;
	snprintf(c->legend, sizeof(c->legend), "host");
	snprintf(c->ref_label, sizeof(c->ref_label), "1.0: all CPU "
	    "accounted");
	if (w->empty)
		return EXR_OK;

	/*
	 * One pass, in host order: a host's line is made when its first
	 * row comes (room for MAX_LINES, so nothing moves), and the
	 * process and busy CPU of its rows are summed per bucket.
	 */
	if ((c->name = calloc(MAX_LINES, sizeof(*c->name))) == NULL ||
	    (rc = alloc_series(c, MAX_LINES, err)) != EXR_OK ||
	    (busy = calloc(MAX_LINES * c->nb, sizeof(*busy))) == NULL)
		return rc != EXR_OK ? rc : ex_fail(err, EXR_NOMEM, 0,
		    "no memory");
	c->ns = 0;
	ho.filter.n[RF_USER] = ho.filter.n[RF_GROUP] =
	    ho.filter.n[RF_COMMAND] = ho.filter.n[RF_UNIT] =
	    ho.filter.n[RF_CONTAINER] = 0;
	if ((rc = report_filter_sql(&ho, rdb_engine(db), &cols, 3, where,
	    sizeof(where), err)) != EXR_OK) {
		free(busy);
		return rc;
	}
	snprintf(sql, sizeof(sql), "SELECT h.host, c.t1_ns, c.proc_cpu_ns, "
	    "c.busy_ns FROM capture c JOIN v_hosts h USING (host_id) WHERE "
	    "c.t1_ns >= ?1 AND c.t1_ns < ?2%s ORDER BY h.host, c.t1_ns",
	    where);
	if (rdb_prepare(db, sql, &q) != 0) {
		free(busy);
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	}
	rdb_bind_int64(q, 1, w->lo_ns);
	rdb_bind_int64(q, 2, w->hi_ns);
	report_filter_bind(q, &ho, rdb_engine(db), &cols, 3);
	last[0] = '\0';
	s = MAX_LINES;		/* the current row's line; none yet */
	while ((rc = rdb_step(q)) == RDB_ROW) {
		const char *h = rdb_text(q, 0) != NULL ? rdb_text(q, 0) : "-";

		/* Sorted by host: a name unlike the last one is new. */
		if (c->ns + more == 0 || strncmp(last, h, sizeof(last) - 1) !=
		    0) {
			snprintf(last, sizeof(last), "%s", h);
			if (c->ns < MAX_LINES) {
				s = c->ns++;
				memcpy(c->name[s], last, sizeof(last));
			} else {
				s = MAX_LINES;
				more++;
			}
		}
		b = bucket_of(c, rdb_int64(q, 1) / NS_I64);
		if (s == MAX_LINES || b >= c->nb)
			continue;
		c->v[s * c->nb + b] += (double)rdb_int64(q, 2);
		busy[s * c->nb + b] += (double)rdb_int64(q, 3);
	}
	if (rc != RDB_DONE) {
		free(busy);
		return db_fail(db, q, err);
	}
	rdb_finalize(q);
	if (more > 0) {
		size_t len = strlen(c->subtitle);

		snprintf(c->subtitle + len, sizeof(c->subtitle) - len,
		    "; %zu more hosts not drawn", more);
	}
	for (s = 0; s < c->ns * c->nb; s++)
		c->v[s] = busy[s] > 0 ? c->v[s] / busy[s] : NAN;
	free(busy);
	return EXR_OK;
}

/* One bar of the energy chart before the top n are picked. */
struct ebar {
	char	 key[128];
	char	 label[128];	/* shown: the key, or its name */
	int	 basis;		/* 0 measured, 1 estimate */
	double	 joules;
};

static int
ebar_cmp(const void *a, const void *b)
{
	const struct ebar *x = a, *y = b;
	int k;

	if (x->joules != y->joules)
		return x->joules > y->joules ? -1 : 1;
	if ((k = strcmp(x->key, y->key)) != 0)
		return k;
	return x->basis - y->basis;
}

int
chart_energy(struct rdb *db, const struct report_opts *o,
    const struct chart_window *w, size_t n, struct chart *c,
    struct ex_err *err)
{
#define MEASURED_SQL \
	    "SELECT coalesce(CAST(%s AS TEXT), '-') AS k," \
	    " sum(i.energy_nj * 1.0) / 1e9%s" MEASURED_NAMED " GROUP BY k"
#define ESTIMATE_SQL \
	    "SELECT coalesce(CAST(%s AS TEXT), '-') AS k," \
	    " sum(e.energy_nj) / 1e9%s" ESTIMATE_NAMED " GROUP BY k"
	enum report_by by = o->by == BY_USER || o->by == BY_HOST ? o->by :
	    BY_COMMAND;
	const char *keys[2] = {
	    by == BY_USER ? "i.uid" : by == BY_HOST ? "i.host" : "i.command",
	    by == BY_USER ? "e.uid" : by == BY_HOST ? "h.host" : "e.command" };
	struct ebar *bars = NULL, *nbars;
	size_t nbar = 0, cap = 0, i, shown;
	double max = 0, other = 0;
	char sql[1024 + REPORT_FILTER_SQL], ncol[256], njoin[256];
	char where[REPORT_FILTER_SQL];
	struct rdb_q *q;
	int rc = EXR_OK, basis, named, kind = report_name_kind(by);

	snprintf(c->title, sizeof(c->title), "Energy by %s",
	    report_by_names[by]);
	if ((rc = describe(db, o, w, c, err)) != EXR_OK)
		return rc;
	snprintf(c->class_name[0], sizeof(c->class_name[0]), "measured");
	snprintf(c->class_name[1], sizeof(c->class_name[1]), "estimate "
	    "(RAPL shared by CPU time)");
	snprintf(c->class_name[2], sizeof(c->class_name[2]), "other");
	snprintf(c->legend, sizeof(c->legend), "%s", report_by_names[by]);
	snprintf(c->empty, sizeof(c->empty), "no data in this window "
	    "(energy needs energy snapshots or RAPL)");
	if (w->empty)
		return EXR_OK;
	for (basis = 0; basis < 2; basis++) {
		named = name_sql(o, kind, basis == 0 ? "i.host" : "h.host",
		    keys[basis], ncol, sizeof(ncol), njoin, sizeof(njoin));
		if ((rc = report_filter_sql(o, rdb_engine(db),
		    &energy_cols[basis], 3, where, sizeof(where), err)) !=
		    EXR_OK) {
			free(bars);
			return rc;
		}
		if (basis == 0)
			snprintf(sql, sizeof(sql), MEASURED_SQL, keys[0], ncol,
			    njoin, where);
		else
			snprintf(sql, sizeof(sql), ESTIMATE_SQL, keys[1], ncol,
			    njoin, where);
		if (rdb_prepare(db, sql, &q) != 0) {
			free(bars);
			return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
		}
		rdb_bind_int64(q, 1, w->lo_ns);
		rdb_bind_int64(q, 2, w->hi_ns);
		report_filter_bind(q, o, rdb_engine(db), &energy_cols[basis], 3);
		while ((rc = rdb_step(q)) == RDB_ROW) {
			if (nbar == cap) {
				cap = cap ? cap * 2 : 64;
				if ((nbars = ex_reallocarray(bars, cap,
				    sizeof(*bars))) == NULL) {
					free(bars);
					rdb_finalize(q);
					return ex_fail(err, EXR_NOMEM, 0,
					    "no memory");
				}
				bars = nbars;
			}
			snprintf(bars[nbar].key, sizeof(bars[0].key), "%s",
			    rdb_text(q, 0));
			key_label(o, kind, bars[nbar].key, named ?
			    rdb_text(q, 2) : NULL, bars[nbar].label,
			    sizeof(bars[0].label));
			bars[nbar].basis = basis;
			bars[nbar++].joules = rdb_double(q, 1);
		}
		if (rc != RDB_DONE) {
			free(bars);
			return db_fail(db, q, err);
		}
		rdb_finalize(q);
	}
	if (nbar == 0)
		return EXR_OK;
	qsort(bars, nbar, sizeof(*bars), ebar_cmp);
	shown = nbar > n ? n : nbar;
	for (i = shown; i < nbar; i++)
		other += bars[i].joules;
	c->has_other = nbar > n;
	c->ns = shown + (size_t)c->has_other;
	if ((c->name = calloc(c->ns, sizeof(*c->name))) == NULL ||
	    (c->v = calloc(c->ns, sizeof(*c->v))) == NULL ||
	    (c->bar_class = calloc(c->ns, sizeof(*c->bar_class))) == NULL) {
		free(bars);
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	}
	for (i = 0; i < shown; i++) {
		memcpy(c->name[i], bars[i].label, sizeof(c->name[i]));
		c->v[i] = bars[i].joules;
		c->bar_class[i] = bars[i].basis;
	}
	if (c->has_other) {
		snprintf(c->name[shown], sizeof(c->name[0]), "other (%zu)",
		    nbar - shown);
		c->v[shown] = other;
		c->bar_class[shown] = 2;
	}
	free(bars);
	/* Read in the unit that keeps the largest bar under 10,000. */
	for (i = 0; i < c->ns; i++)
		if (c->v[i] > max)
			max = c->v[i];
	c->scale = max < 1e4 ? 1 : max < 1e7 ? 1e3 : max < 1e10 ? 1e6 : 1e9;
	snprintf(c->unit, sizeof(c->unit), "%s", c->scale == 1 ? "J" :
	    c->scale == 1e3 ? "kJ" : c->scale == 1e6 ? "MJ" : "GJ");
	snprintf(c->xlabel, sizeof(c->xlabel), "energy (%s) in the window",
	    c->unit);
	return EXR_OK;
}

/* Finalize q and fail with the engine's message. */
static int
db_fail(struct rdb *db, struct rdb_q *q, struct ex_err *err)
{
	int rc = ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));

	rdb_finalize(q);
	return rc;
}

/* ns series of nb zeroes each. */
static int
alloc_series(struct chart *c, size_t ns, struct ex_err *err)
{
	c->ns = ns;
	if (c->nb > 0 && (c->v = calloc(ns * c->nb, sizeof(*c->v))) == NULL)
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	return EXR_OK;
}

/* The start of the local day (daily) or hour holding t, epoch s. */
static int64_t
bucket_start(int64_t t, int daily)
{
	struct tm tm;
	time_t tt = (time_t)t;

	if (localtime_r(&tt, &tm) == NULL)
		return t - t % 3600;
	tm.tm_min = tm.tm_sec = 0;
	if (daily)
		tm.tm_hour = 0;
	tm.tm_isdst = -1;
	return (int64_t)mktime(&tm);
}

/*
 * Local hours follow each other every 3,600 s (a zone's offset moves by
 * whole hours or half hours, and bucket_start floors to the local
 * hour).  Days are 23 to 25 hours long where clocks change: each edge
 * is the next local midnight, found by mktime.
 */
static int64_t
next_edge(int64_t t, int daily)
{
	struct tm tm;
	time_t tt = (time_t)t;
	int64_t n;

	if (!daily)
		return t + 3600;
	if (localtime_r(&tt, &tm) == NULL)
		return t + 86400;
	tm.tm_mday++;
	tm.tm_hour = 12;	/* noon exists every day: no DST edge */
	tm.tm_min = tm.tm_sec = 0;
	tm.tm_isdst = -1;
	n = bucket_start((int64_t)mktime(&tm), 1);
	return n > t ? n : t + 86400;
}

static int
make_buckets(struct chart *c, const struct chart_window *w, const char *tz,
    struct ex_err *err)
{
	int64_t lo = w->lo_ns / NS_I64, hi, t;
	size_t n = 0;

	/* The last second of the window, rounded up: [lo, hi]. */
	hi = (w->hi_ns - 1) / NS_I64;
	c->daily = w->daily >= 0 ? w->daily : hi - lo > CHART_HOURLY_MAX_S;
	snprintf(c->xlabel, sizeof(c->xlabel), "time in %s; intervals count in "
	    "the %s they end in", tz, c->daily ? "day" : "hour");
	if (w->empty)
		return EXR_OK;
	for (t = bucket_start(lo, c->daily); t <= hi; t = next_edge(t,
	    c->daily))
		if (++n > MAX_BUCKETS)
			return ex_fail(err, EXR_USAGE, 0, "the window is too "
			    "long to draw (more than %d %ss): give a shorter "
			    "--from and --to", MAX_BUCKETS, c->daily ? "day" :
			    "hour");
	if ((c->edge = calloc(n + 1, sizeof(*c->edge))) == NULL)
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	c->nb = n;
	t = bucket_start(lo, c->daily);
	for (n = 0; n <= c->nb; n++, t = next_edge(t, c->daily))
		c->edge[n] = t;
	return EXR_OK;
}

/* The bucket holding epoch second t, or c->nb if none does. */
static size_t
bucket_of(const struct chart *c, int64_t t)
{
	size_t lo = 0, hi = c->nb, mid;

	if (c->nb == 0 || t < c->edge[0] || t >= c->edge[c->nb])
		return c->nb;
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (c->edge[mid] <= t)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The subtitle: the hosts of the database (up to 4 named), the window
 * and the time zone.
 */
static int
describe(struct rdb *db, const struct report_opts *o,
    const struct chart_window *w, struct chart *c, struct ex_err *err)
{
	char from[40], to[40];
	struct rdb_q *q;
	size_t len = 0, nh = 0;
	int rc;

	snprintf(c->note, sizeof(c->note), "%s", w->note);
	if (rdb_prepare(db, "SELECT host FROM v_hosts ORDER BY host", &q) !=
	    0)
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	while ((rc = rdb_step(q)) == RDB_ROW) {
		const char *h = rdb_text(q, 0) != NULL ? rdb_text(q, 0) : "-";

		if (nh < 4 && len < sizeof(c->subtitle))
			len += (size_t)snprintf(c->subtitle + len,
			    sizeof(c->subtitle) - len, "%s%s", nh ? ", " :
			    "host ", h);
		nh++;
	}
	if (rc != RDB_DONE)
		return db_fail(db, q, err);
	rdb_finalize(q);
	if (len >= sizeof(c->subtitle))
		len = sizeof(c->subtitle) - 1;
	if (nh > 4)
		len += (size_t)snprintf(c->subtitle + len,
		    sizeof(c->subtitle) - len, " and %zu more", nh - 4);
	else if (nh == 0)
		len += (size_t)snprintf(c->subtitle + len,
		    sizeof(c->subtitle) - len, "no host");
	if (len >= sizeof(c->subtitle))
		return EXR_OK;
	if (w->empty && o->open == (REPORT_OPEN_FROM | REPORT_OPEN_TO))
		snprintf(c->subtitle + len, sizeof(c->subtitle) - len,
		    "; all of the data; time zone %s", o->tz);
	else
		snprintf(c->subtitle + len, sizeof(c->subtitle) - len,
		    "; %s to %s; time zone %s", fmt_datetime(from,
		    sizeof(from), w->lo_ns / NS_I64), fmt_datetime(to,
		    sizeof(to), w->hi_ns / NS_I64), o->tz);
	return EXR_OK;
}
