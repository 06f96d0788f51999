/*
 * report: usage totals from the database, sa-style: by user, command,
 * project, zone, host or hour, over a time window, sorted by CPU (hours
 * in time order).
 *
 * Each interval is split over the UTC hours it covers, in proportion to
 * time (store/rollup.h); the window counts the hours that start in
 * [from, to).  The totals come from the rollups (v_usage_rollup_day and
 * v_usage_rollup for --by all but hour, v_usage_rollup_host for hour),
 * or with scan from the intervals, split the same way: the same figures.
 * calls: the processes that ended (their last interval ends) in the
 * hours counted.  Columns carry their units; every output says its time
 * zone and that split values are apportioned.
 */
#ifndef REPORT_H
#define REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "../parsers/exerr.h"
#include "rdb.h"

enum report_by {
	BY_USER, BY_COMMAND, BY_PROJECT, BY_ZONE, BY_HOST, BY_HOUR
};

enum report_format { FMT_TABLE, FMT_CSV, FMT_JSON };

struct report_opts {
	enum report_by	 by;
	enum report_format format;
	int64_t		 from_ns;	/* INT64_MIN: open */
	int64_t		 to_ns;		/* INT64_MAX: open */
	const char	*tz;		/* name printed; TZ is already set */
	double		 tolerance;	/* --capture: a ratio outside 1 +- this
					   names the window's processes */
	int		 scan;		/* add up the intervals, not rollups */
};

/* How many processes a window out of tolerance names. */
#define CAPTURE_TOP	3

/*
 * One output row: totals for one key.  Sums of nanoseconds and bytes are
 * 128-bit: 2^63 ns is only 292 years, which one host's daemons pass in
 * a year; counts of faults and calls stay far below 2^63.
 */
struct report_row {
	char		 key[128];	/* the key as stored: escaped only
					   when printed */
	int64_t		 hour_epoch;	/* BY_HOUR: start of the local hour */
	int64_t		 calls;		/* processes that ended */
	__int128	 user_ns, sys_ns, real_ns;
	__int128	 chars;		/* bytes */
	int64_t		 rss_max_kb, faults_major, syscalls;
};

/* Names for --by values, indexed by enum report_by. */
extern const char *const report_by_names[];

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
 * One line per process, the n that put the most CPU into the capture
 * window (t0_ns, t1_ns] of host, with pid, command, start and CPU:
 * what an admin looks at first when a window's ratio is off.
 */
int	capture_top(struct rdb *db, FILE *fp, const char *host,
	    int64_t t0_ns, int64_t t1_ns, int n, struct ex_err *err);

/*
 * Energy per command, user or host from the energy intervals, ranked by
 * joules (reports/energy.c).  EXR_USAGE for another --by.
 */
int	report_energy(struct rdb *db, FILE *fp, const struct report_opts *o,
	    struct ex_err *err);

/*
 * Print rows (already sorted) in o's format, with the window and zone.
 * Returns EXR_OK, or EXR_IO with err when fp failed.
 */
int	report_print(FILE *fp, const struct report_opts *o,
	    const struct report_row *rows, size_t n, struct ex_err *err);

/* Run the report on db into fp.  EXR_OK, or EXR_DB/EXR_IO with err. */
int	report_run(struct rdb *db, FILE *fp, const struct report_opts *o,
	    struct ex_err *err);

#endif
