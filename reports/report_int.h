/*
 * The usage report's parts, one job each:
 *   report_query.c	the SQL for o's keys, buckets and window; the rows
 *   report_bucket.c	--every: the local bucket edges
 *   report_shape.c	empty buckets as zero rows, --sort, --limit
 *   report_cols.c	the columns every format prints, and their values
 *   report_out.c	the rows as an rtab (rtab.h), printed by its writers
 *   report_pct.c	--percentiles: p50/p95/max of the bucketed series
 *   report.c		ties them up
 * Internal to reports/: callers use report.h.
 */
#ifndef REPORT_INT_H
/* What every usage report says of split values (store/rollup.h). */
#define REPORT_APPORTIONED "values of an interval spanning several hours " \
	"are apportioned to each hour in proportion to its time in it"

#define REPORT_INT_H

#include <stddef.h>
#include <stdio.h>

#include "report.h"
#include "rtab.h"

/* Most buckets one report makes (a year of hours is 8,784). */
#define REPORT_MAXBUCKETS	100000

/* A host's CPUs, for utilisation (v_sysload's ncpu, else cpus:). */
struct report_host {
	char		 host[128];
	int64_t		 ncpu;		/* 0: not known */
	char		 ncpu_source[16];	/* "snap", "config"; "" */
	int64_t		(*span)[2];	/* observed [t0, t1) ns, in order
					   (report_obs_load) */
	size_t		 nspan;
	int		 watched;	/* has two consecutive system
					   snapshots that make a span
					   (report_capacity): its spans are
					   what was observed */
};

/*
 * The longest time between two system snapshots that counts as
 * observed, ns: the snapshot timer runs every 5 minutes and the hourly
 * run snaps too, so a longer gap is a host that was off or a job that
 * stopped (the forecast's rule).
 */
#define REPORT_MAXGAP_NS	7200000000000LL

/* Epoch seconds as ns, held at the int64 ends (edges past 2262). */
static inline int64_t
report_s_ns(int64_t s)
{
	if (s > INT64_MAX / 1000000000)
		return INT64_MAX;
	if (s < INT64_MIN / 1000000000)
		return INT64_MIN;
	return s * 1000000000;
}


/* What a report prints: its rows and what the columns need. */
struct report_set {
	struct report_row *rows;
	size_t		 n, cap;
	int64_t		*edge;		/* --every: nb + 1 bucket edges (s) */
	size_t		 nb;
	struct report_host *hosts;	/* every host in the database */
	size_t		 nhosts;
	__int128	 cpu_total;	/* the rows' CPU, for cpu_share_pct */
	__int128	*btotal;	/* --every: each bucket's CPU */
	struct report_name *names;	/* the hosts' names (v_host_names) */
	size_t		 nnames;
};

/* A name a host's passwd, group or project file gave an id. */
struct report_name {
	char		 host[128];
	int		 kind;		/* enum idkind */
	int64_t		 id;
	char		 name[128];
};

/* The column name of each key, indexed by enum report_by. */
extern const char *const report_key_names[];

/* The keys of o: o->keys, or o->by alone. */
int	report_nkeys(const struct report_opts *o);
enum report_by report_key(const struct report_opts *o, int k);

/* A new zeroed row at the end of s; NULL when out of memory. */
struct report_row *report_add(struct report_set *s);
void	report_set_release(struct report_set *s);

/*
 * --every: the edges of the local buckets from the window's start (or
 * the first interval's end) to its end (or the last's) into s.
 * EXR_OK, or EXR_DB/EXR_USAGE/EXR_NOMEM with err.
 */
int	report_buckets(struct rdb *db, const struct report_opts *o,
	    struct report_set *s, struct ex_err *err);
/* The index of the bucket holding epoch second t, or -1. */
long	report_bucket_of(const struct report_set *s, int64_t t);
/* The bucket start as local text: hour, day, week (its Monday), month. */
void	report_bucket_text(char *b, size_t n, enum report_every e,
	    int64_t epoch);

/*
 * Fetch the totals for o's keys (and buckets) over o's window from db
 * into s, unsorted.  EXR_OK, or EXR_DB/EXR_NOMEM with err.
 */
int	report_query(struct rdb *db, const struct report_opts *o,
	    struct report_set *s, struct ex_err *err);

/* Every host's CPUs (for util_pct).  EXR_OK or EXR_DB with err. */
int	report_capacity(struct rdb *db, struct report_set *s,
	    struct ex_err *err);

/*
 * The time each host of s (report_capacity's) was observed in [from_ns,
 * to_ns): the spans between consecutive system snapshots of one boot,
 * at most REPORT_MAXGAP_NS apart (report_observed.c).  A host without
 * such a pair (not watched) has none: its coverage is not known.  EXR_OK, or
 * EXR_DB/EXR_NOMEM with err.
 */
int	report_obs_load(struct rdb *db, struct report_set *s, int64_t from_ns,
	    int64_t to_ns, struct ex_err *err);
/* The ns of [a, b) (ns) that h's spans cover. */
int64_t	report_obs_ns(const struct report_host *h, int64_t a, int64_t b);
void	report_obs_release(struct report_set *s);

/*
 * Shape s for printing: the zero rows of empty buckets, the order (o's
 * --sort, else buckets and hours in time order, then CPU, largest
 * first), and the rows past --limit (in each bucket) lumped into one.
 * EXR_OK, EXR_USAGE (an unknown --sort) or EXR_NOMEM, with err.
 */
int	report_shape(const struct report_opts *o, struct report_set *s,
	    struct ex_err *err);

/*
 * The columns.  Each has one name in every format; a value is text, or
 * absent (blank in tables and CSV, null in JSON).  Kinds and formats
 * are rtab.h's.
 */
struct report_col {
	char		 name[40];
	enum col_kind	 kind;
	unsigned	 formats;	/* COLF_* */
	int		 what;		/* report_cols.c's own */
	int		 arg;		/* key index or measure */
	int		 key;		/* 1: a key's column */
};

#define REPORT_MAXCOLS	48

/* The columns o prints; returns how many. */
int	report_cols(const struct report_opts *o, struct report_col *c);

/*
 * Column c's value in row r as text into b[n]: for the format fmt
 * (FMT_TABLE: names where known, ids otherwise).  Returns b, or NULL
 * when absent.
 */
const char *report_value(const struct report_opts *o,
	    const struct report_set *s, const struct report_col *c,
	    const struct report_row *r, enum report_format fmt, char *b,
	    size_t n);

/*
 * The name of a uid, gid or projid over a group of rows that may come
 * from several hosts, in SQL for both engines: each row (alias a) LEFT
 * JOINed to the name its host gives the id (kind: 'user', 'group' or
 * 'project'; host: the rows' host label), and the group's name the one
 * every row has, else NULL: a host that gives the id no name, or two
 * hosts that give it two, leave the number.  So --by user shows what
 * every row of --by host,user under it shows, or the number.  A host's
 * names never name another host's ids.
 */
#define NAME_JOIN(a, host, kind, id) \
	" LEFT JOIN v_host_names " a " ON " a ".host = " host " AND " a \
	".kind = '" kind "' AND " a ".id = " id
#define NAME_OF(a) \
	"CASE WHEN count(*) = count(" a ".name) AND min(" a ".name) = " \
	"max(" a ".name) THEN min(" a ".name) END"

/*
 * The columns of a query's rows the filters test (NULL: the rows do not
 * record it, and a filter of it matches none); marked: the command is
 * the rollups' key, with the fork mark (RU_COMMAND).
 */
struct report_filter_cols {
	const char	*uid, *gid, *command, *host;
	int		 marked;
	const char	*unit, *container;	/* NULL: rows have none */
};

/*
 * o's filters over c as SQL, " AND (...)" for each filter given (""
 * with none), the parameters numbered from p0, into b[n]: EXR_OK, or
 * EXR_USAGE with err when b is too small.  report_filter_bind binds
 * the same parameters in q.
 */
#define REPORT_FILTER_SQL	4096
int	report_filter_sql(const struct report_opts *o, enum rdb_engine e,
	    const struct report_filter_cols *c, int p0, char *b, size_t n,
	    struct ex_err *err);
void	report_filter_bind(struct rdb_q *q, const struct report_opts *o,
	    enum rdb_engine e, const struct report_filter_cols *c, int p0);

/* The table's note of o's filters: "; filtered: user=root" or "". */
void	report_filter_head(struct rtab *t, const struct report_opts *o);

/* The kinds' names in v_host_names, indexed by enum idkind. */
extern const char *const report_name_kinds[];

/* The kind of names (enum idkind) of a key; -1: not an id. */
int	report_name_kind(enum report_by by);

/*
 * Whether the names of kind come from the database (NAME_JOIN): not
 * with --numeric, nor from a file (--passwd...), nor in FILE mode.
 */
int	report_names_stored(const struct report_opts *o, int kind);

/*
 * The name of id of kind, by o: NULL with --numeric; from --passwd,
 * --group, --project, or in FILE mode this machine's databases; else
 * stored, the database's name (NAME_OF) or NULL.  The text lives as
 * long as o's names or stored.
 */
const char *report_id_name(const struct report_opts *o, int kind,
	    int64_t id, const char *stored);

/* The name of key k (a uid, gid or projid) of row r, or NULL. */
const char *report_name(const struct report_opts *o,
	    const struct report_set *s, int k, const struct report_row *r);

/* The stored names (v_host_names) into s.  EXR_OK or EXR_DB. */
int	report_names_load(struct rdb *db, struct report_set *s,
	    struct ex_err *err);

/* The first of s's names of (kind, id), or where it would be. */
size_t	report_names_first(const struct report_set *s, int kind, int64_t id);

/* A row's reference to name (NAME_OF's) for id in s; 0: none. */
uint32_t report_name_ref(const struct report_set *s, int kind,
	    int64_t id, const char *name);

/*
 * The CPUs behind row r (its host's, or with no host key every host's,
 * if all are known) and the seconds it covers (its bucket, its hour, or
 * a closed window).  0: not known.
 */
int64_t	report_ncpu(const struct report_opts *o,
	    const struct report_set *s, const struct report_row *r);
int64_t	report_span(const struct report_opts *o,
	    const struct report_set *s, const struct report_row *r);
/*
 * Whether o's rows span a known time (a bucket, an hour, the window
 * given), as report_span has it: where util_pct can have a value, and
 * so where the time observed is worth columns.  Totals over an open
 * window have neither.
 */
int	report_rows_timed(const struct report_opts *o);
/*
 * The time row r was observed, ns (its hosts' snapshots over its span,
 * weighted by their CPUs; a host not watched counts the whole span),
 * and the CPU ns its hosts had in it (CPUs x observed); 0 when the
 * hosts' CPUs or the span are not known.  *known: every host was
 * watched (the figure is a measure, not the span).
 */
int64_t	report_observed(const struct report_opts *o,
	    const struct report_set *s, const struct report_row *r,
	    __int128 *capacity_ns, int *known);

/*
 * The table's title above the names: key(s), window and zone; more
 * (if not NULL) ends its second line.
 */
void	report_title(struct rtab *t, const struct report_opts *o,
	    const char *more);

/* Print s in o's format (report_out.c).  0, or -1: no memory. */
int	report_out(FILE *fp, const struct report_opts *o,
	    const struct report_set *s);

/*
 * Rows by their keys (report_keys.c): whether a and b hold the same
 * keys, and idx (n indices into s's rows) sorted so that the rows of a
 * key group are together.
 */
int	report_same_keys(const struct report_opts *o,
	    const struct report_row *a, const struct report_row *b);
void	report_sort_keys(const struct report_opts *o,
	    const struct report_set *s, size_t *idx, size_t n);

/*
 * The index of the nearest rank of p% among n sorted values: the
 * smallest with at least p% at or below it (--percentiles, --forecast).
 */
size_t	report_rank(size_t n, int p);

/*
 * --percentiles: a row per key group over the buckets of s (made by
 * report_buckets, with report_capacity's hosts and the names), from
 * its own query of db, in o's format.
 */
int	report_percentiles(struct rdb *db, FILE *fp,
	    const struct report_opts *o, const struct report_set *s,
	    struct ex_err *err);

/* Key k of o from column col of a row of st into r. */
void	report_read_key(struct rdb_q *st, const struct report_opts *o,
	    int k, int col, struct report_row *r);

/*
 * --percentiles' query: per row the bucket (or the UTC hour in it, as
 * epoch s), the host, o's keys, then cpu_user_ns and cpu_sys_ns as
 * split sums (4 columns); several rows may share a bucket, host and
 * keys.  The UTC hours of the window the rows come from: [*h0, *h1).
 */
int	report_cpu_query(struct rdb *db, const struct report_opts *o,
	    const struct report_set *s, struct rdb_q **qp,
	    struct ex_err *err);
void	report_hours(const struct report_opts *o, const struct report_set *s,
	    int64_t *h0, int64_t *h1);

/*
 * A table note per process, the n that put the most CPU into the capture
 * window (t0_ns, t1_ns] of host, with pid, command, start and CPU:
 * what an admin looks at first when a window's ratio is off.
 */
int	capture_top(struct rdb *db, struct rtab *t, const char *host,
	    int64_t t0_ns, int64_t t1_ns, int n, struct ex_err *err);

/*
 * The exits of a capture window: processes whose last interval ends in
 * (t0_ns, t1_ns], the CPU their exit records gave those intervals, and
 * how many recorded none (pacct counts in 10 ms ticks: a short process
 * is 0).  q is prepared from CAPTURE_EXITS_SQL.  0, or -1 (database).
 */
#define CAPTURE_EXITS_SQL \
	"SELECT count(*), coalesce(sum(coalesce(cpu_user_ns, 0) +" \
	"   coalesce(cpu_sys_ns, 0)), 0), coalesce(sum(CASE WHEN" \
	"   coalesce(cpu_user_ns, 0) + coalesce(cpu_sys_ns, 0) = 0" \
	"   THEN 1 ELSE 0 END), 0)" \
	" FROM v_proc_usage WHERE host = ?1 AND final = 1" \
	"   AND t1_ns > ?2 AND t1_ns <= ?3"
struct capture_exits {
	int64_t		 n, cpu_ns, zero;
};
int	capture_exits(struct rdb_q *q, const char *host, int64_t t0_ns,
	    int64_t t1_ns, struct capture_exits *x);

#endif
