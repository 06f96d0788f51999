/*
 * Rollups: usage per host, UTC hour, user, command, project and zone,
 * kept by ingest in the transaction that writes the intervals, so a
 * report over months reads hours or days, not every interval
 * (docs/schema.md, Rollups).
 *
 * An interval that spans several hours is apportioned to the hours it
 * covers, in proportion to its time in each, in integers: the parts of
 * a counter add up to the interval's value exactly (rollup_split).  The
 * same arithmetic is written once more in SQL (rollup_sql.h), for the
 * migration that builds the rollups of an existing database, for
 * rollup_rebuild and for the report that scans the intervals; a test
 * compares what ingest kept with what the rebuild makes.
 */
#ifndef ROLLUP_H
#define ROLLUP_H

#include <sqlite3.h>
#include <stdint.h>

#include "../parsers/exerr.h"
#include "../parsers/records.h"
#include "diff.h"

/* An interval longer than this (ns; ten years) is not split: it counts
 * in the hour it ends, as a time that cannot be right would. */
#define ROLLUP_MAX_SPLIT_NS	315576000000000000LL
/*
 * Times out of range (before 1970, or from 2200 on: a log's nonsense,
 * or an unsigned time past 2^63 ns read back negative) are not split,
 * and such an interval's real time counts as 0: (t1 - t0) could be
 * past 2^63, and the hour after t1 past the largest time.
 */
#define ROLLUP_MAX_T_NS		7258118400000000000LL
#define ROLLUP_HOUR_NS		3600000000000LL

/* The values of one interval that rollups add up (NULL: absent). */
enum rollup_value {
	RV_CPU_USER, RV_CPU_SYS, RV_CHARS, RV_BLOCKS_IN, RV_BLOCKS_OUT,
	RV_READ, RV_WRITE, RV_FAULTS_MAJOR, RV_FAULTS_MINOR, RV_SYSCALLS,
	RV_CTXT_VOL, RV_CTXT_INV, RV_N
};

/*
 * The hours [*h0, *h1] (hour numbers: epoch seconds / 3600) an interval
 * from t0 to t1 (ns) is split over: one hour, t1's, unless
 * 0 <= t0 < t1 <= ROLLUP_MAX_T_NS and it is at most ROLLUP_MAX_SPLIT_NS
 * long.
 */
void	rollup_hours(int64_t t0, int64_t t1, int64_t *h0, int64_t *h1);

/*
 * Hour h's part of value v (>= 0) of the interval t0..t1 (h in the
 * range rollup_hours gave).  The parts over every hour add up to v.
 */
int64_t	rollup_split(int64_t t0, int64_t t1, int64_t h, int64_t v);

struct rollup;

/* The pending parts of one store (a temporary table); EXR_OK or EXR_DB. */
int	rollup_prepare(sqlite3 *db, struct rollup **rp, struct ex_err *err);
void	rollup_finalize(struct rollup *ru);

/*
 * Process proc_id, of host host_id, has the rollup key of record p (its
 * first, which its procs row holds): so rollup_add need not read the
 * row.  For a process seen for the first time (and, with exit-only
 * rows, for one whose procs row is written later).  EXR_OK or
 * EXR_NOMEM.
 */
int	rollup_know(struct rollup *ru, int64_t proc_id, int64_t host_id,
	    const struct ex_proc *p, struct ex_err *err);

/*
 * Add the parts of interval iv of process proc_id (rollup_know'n, else
 * its procs row is read): called for each interval row written,
 * exactly once, before the commit's rollup_flush.  EXR_OK, or EXR_DB or
 * EXR_NOMEM with err.
 */
int	rollup_add(struct rollup *ru, int64_t proc_id,
	    const struct proc_interval *iv, struct ex_err *err);

/*
 * Add the pending parts into the rollup tables, in the caller's
 * transaction, and forget them.  EXR_OK, or EXR_DB with err.
 */
int	rollup_flush(struct rollup *ru, struct ex_err *err);

/* Drop what was added since the last flush (a rollback). */
void	rollup_forget(struct rollup *ru);

/*
 * Add the parts of the rows of temp.m_new_pi (proc_intervals' columns:
 * the intervals a merge just added, merge.c) into the pending parts.
 * EXR_OK, or EXR_DB with err.
 */
int	rollup_add_merged(struct rollup *ru, struct ex_err *err);

/*
 * Build the rollups again from the intervals (v_proc_usage), in one
 * transaction of the caller's: every hour from from_s on (the first
 * hour whose intervals are all still there: retention.h) is deleted and
 * made again; older hours are kept as they are.  EXR_OK or EXR_DB.
 */
int	rollup_rebuild(sqlite3 *db, int64_t from_s, struct ex_err *err);

#endif
