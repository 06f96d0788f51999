/*
 * report: usage totals from the database, sa-style: by one or several
 * of user, group, command, project, zone, host and hour, over a time
 * window, optionally per local time bucket (--every), sorted by CPU
 * (hours and buckets in time order) or by a column, the rest past a
 * limit lumped as ***other.
 *
 * Each interval is split over the UTC hours it covers, in proportion to
 * time (store/rollup.h); the window (and a bucket) counts the hours
 * that start in [from, to).  The totals come from the rollups
 * (report_query.c), or with scan from the intervals, split the same
 * way: the same figures.  calls: the processes that ended (their last
 * interval ends) in the hours counted.  Columns carry their units, one
 * name in every format; a value never recorded is blank (null), never
 * 0; every output says its time zone and that split values are
 * apportioned.  The parts: report_int.h.
 */
#ifndef REPORT_H
#define REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "../parsers/exerr.h"
#include "rdb.h"

enum report_by {
	BY_USER, BY_COMMAND, BY_PROJECT, BY_ZONE, BY_HOST, BY_HOUR, BY_GROUP,
	BY_CGROUP, BY_UNIT, BY_CONTAINER,	/* Linux: the store's cgroups */
	BY_NKEYS
};

enum report_format { FMT_TABLE, FMT_CSV, FMT_JSON };

/* --every: the time buckets, local time (EVERY_NONE: no buckets). */
enum report_every { EVERY_NONE, EVERY_HOUR, EVERY_DAY, EVERY_WEEK,
	EVERY_MONTH };

#define REPORT_MAXKEYS	4	/* --by a,b,c,d */

/* What is reported: usage (the default), --capture, --energy. */
enum report_kind { REPORT_USAGE, REPORT_CAPTURE, REPORT_ENERGY };

/* --format svg (a chart of the kind) and html (the page of them all). */
enum report_chart { REPORT_TEXT, REPORT_SVG, REPORT_HTML };

struct idnames;

/*
 * --user, --gid, --command, --host (report_filter.c): the values of
 * each, alternatives; the options together all hold.
 */
enum report_filter_kind {
	RF_USER, RF_GROUP, RF_COMMAND, RF_HOST, RF_UNIT, RF_CONTAINER, RF_N
};
#define REPORT_MAXFILTER	16	/* values of one option */
struct report_filter {
	const char	*v[RF_N][REPORT_MAXFILTER];
	int		 n[RF_N];
};

struct report_opts {
	enum report_kind kind;
	enum report_by	 by;		/* the first key (energy: the only) */
	enum report_format format;	/* REPORT_TEXT's */
	enum report_chart chart;
	/*
	 * The window [from, to).  An end not given is open (a bit in
	 * open): the data's first or last time within the range times can
	 * be in (1970 to 2200, store/rollup.h), which report_window puts
	 * in from and to before any query.
	 */
	int64_t		 from_ns;
	int64_t		 to_ns;
	int		 open;		/* REPORT_OPEN_FROM | REPORT_OPEN_TO */
	const char	*tz;		/* name printed; TZ is already set */
	double		 tolerance;	/* --capture: a ratio outside 1 +- this
					   names the window's processes (< 0:
					   not given; report_check: 0.05) */
	int		 scan;		/* add up the intervals, not rollups */
	enum report_by	 keys[REPORT_MAXKEYS];	/* --by, in order */
	int		 nkeys;		/* 0: keys[0] = by alone */
	int		 keyless;	/* --every without --by: totals only */
	enum report_every every;
	const char	*sort;		/* --sort COLUMN; NULL: the default */
	int64_t		 limit;		/* --limit N; 0: every row */
	int		 averages;	/* --averages: per-call columns */
	int		 percentiles;	/* --percentiles: p50/p95/max */
	struct idnames	*names;		/* --passwd/--group/--project; NULL */
	int		 names_local;	/* FILE mode: a kind with no file named
					   from this machine's databases, as
					   sa(8) does */
	int		 numeric;	/* --numeric: ids, never names */
	int		 files;		/* FILE mode: the exits' own figures
					   the rollups lack (avg_mem_kib) */
	int		 forecast;	/* --forecast: the daily peaks' trend */
	double		 threshold;	/* --threshold PCT (0: not given;
					   report_check: 80) */
	struct report_filter filter;	/* --user, --gid, --command, --host */
};

#define REPORT_OPEN_FROM	1	/* no --from */
#define REPORT_OPEN_TO		2	/* no --to */

/* How many processes a window out of tolerance names. */
#define CAPTURE_TOP	3

/*
 * The measures of a row.  Each is a sum over the row's intervals, except
 * the levels RM_RSS_MAX and RM_THREADS, the largest.  A measure no
 * interval recorded (NULL in every one) is absent: printed blank, or
 * null, never 0.  RM_MEM_KB sums pacct's memory (KiB) over the RM_MEM_N
 * exits that had it: their mean is avg_mem_kib, sa's k.
 */
enum report_measure {
	RM_USER_NS, RM_SYS_NS, RM_REAL_NS, RM_CHARS, RM_READ, RM_WRITE,
	RM_BLKIN, RM_BLKOUT, RM_RSS_MAX, RM_THREADS, RM_MAJFLT, RM_SYSCALLS,
	RM_MEM_KB, RM_MEM_N,
	RM_N
};

/*
 * One output row: totals for one set of keys (and time bucket).  Sums
 * of nanoseconds and bytes are 128-bit: 2^63 ns is only 292 years,
 * which one host's daemons pass in a year.
 */
struct report_row {
	char		 key[REPORT_MAXKEYS][256]; /* text keys as stored:
					   escaped only when printed */
	int64_t		 id[REPORT_MAXKEYS];	/* uid, gid, projid keys */
	unsigned	 keynull;	/* bit k: key k is NULL */
	uint32_t	 name[REPORT_MAXKEYS];	/* uid, gid, projid keys: 1 + the
					   index of its stored name in the
					   set's names; 0: none */
	int		 other;		/* 1: the rows past --limit, lumped */
	int		 fill;		/* 1: an empty bucket's zero row */
	int64_t		 hour_epoch;	/* BY_HOUR: start of the local hour */
	int64_t		 bucket;	/* --every: start of the bucket (s) */
	int64_t		 calls;		/* processes that ended */
	__int128	 v[RM_N];
	unsigned	 have;		/* bit m: v[m] was recorded */
};

/* Names for --by values, indexed by enum report_by. */
extern const char *const report_by_names[];
/* Names for --every values ("hour"), indexed by enum report_every. */
extern const char *const report_every_names[];

/*
 * The capture ratio per snapshot interval and over the whole window, per
 * host: process CPU over the busy CPU /proc/stat counted (the view
 * capture in docs/schema.md), with the sources of exit records.
 */
int	report_capture(struct rdb *db, FILE *fp, const struct report_opts *o,
	    struct ex_err *err);

/* Whether a window's ratio is outside 1 +- tolerance (capture_top.c). */
int	capture_out_of_tolerance(int64_t proc_ns, int64_t busy_ns,
	    double tolerance);


/*
 * Energy per command, user or host from the energy intervals, ranked by
 * joules (reports/energy.c).  EXR_USAGE for another --by.
 */
int	report_energy(struct rdb *db, FILE *fp, const struct report_opts *o,
	    struct ex_err *err);

/*
 * --forecast (reports/forecast.c): per key group (default: per host),
 * the trend of its daily peak utilisation over the window and the day
 * it crosses o->threshold.
 */
int	report_forecast(struct rdb *db, FILE *fp, const struct report_opts *o,
	    struct ex_err *err);

/*
 * Print rows (already sorted) in o's format, with the window and zone.
 * Returns EXR_OK, or EXR_IO with err when fp failed.
 */
int	report_print(FILE *fp, const struct report_opts *o,
	    const struct report_row *rows, size_t n, struct ex_err *err);

/*
 * Bound o's open ends (o->open) to the range times can be in, 1970 to
 * 2200 (store/rollup.h): a log's nonsense time, or one an older version
 * stored wrapped (1715 for 2300), is left out, and does not stretch the
 * window to hundreds of years of empty buckets.  How many intervals it
 * left out (of energy's intervals if energy, else of the processes')
 * into *out.  An end given is the user's: not bounded.  EXR_OK, or
 * EXR_DB with err.
 */
int	report_window(struct rdb *db, struct report_opts *o, int energy,
	    int64_t *out, struct ex_err *err);

/*
 * Whether o's options go together, for a report of nfiles log files (0:
 * the database); by_given: --by was (--every alone then totals without
 * keys: o->keyless set).  EXR_OK, or EXR_USAGE with err saying which
 * options and why (report_check.c).
 */
int	report_check(struct report_opts *o, int nfiles, int by_given,
	    struct ex_err *err);

/* The option names of the filters ("user"), by enum report_filter_kind. */
extern const char *const report_filter_names[];

/* Value v of filter f into o.  EXR_OK, or EXR_USAGE with err. */
int	report_filter_add(struct report_opts *o, enum report_filter_kind f,
	    const char *v, struct ex_err *err);

/* Whether o filters anything (procs: by user, group or command). */
int	report_filtered(const struct report_opts *o, int procs);

/*
 * Whether o has --unit or --container: the rollups keep no cgroup, so
 * such a report reads the intervals (as --by unit does).
 */
int	report_cgroup_filtered(const struct report_opts *o);

/* The filters as "user=root,command=post*" into b[n] ("": none). */
void	report_filter_text(char *b, size_t n, const struct report_opts *o);

/*
 * Whether every user and group name of o's filters (not a number, not
 * a glob) is one some host's stored names, or o's file, have.  EXR_OK,
 * EXR_USAGE with err naming the one unknown, or EXR_DB.
 */
int	report_filter_check(struct rdb *db, const struct report_opts *o,
	    struct ex_err *err);

/* Run the report on db into fp.  EXR_OK, or EXR_DB/EXR_IO with err. */
int	report_run(struct rdb *db, FILE *fp, const struct report_opts *o,
	    struct ex_err *err);

#endif
