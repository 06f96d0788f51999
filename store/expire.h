/*
 * Expiry: the database's own retention (docs/schema.md, Retention).
 * Raw intervals older than a cutoff go; rollups stay until their own,
 * longer cutoff; nothing goes that a central store has not got yet (the
 * callers' part: expire.c); and the file gives the freed pages back
 * (incremental auto-vacuum).
 */
#ifndef EXPIRE_H
#define EXPIRE_H

#include <sqlite3.h>
#include <stdint.h>

#include "../parsers/exerr.h"

struct expire_stats {
	int64_t		 intervals_before_ns;	/* the cutoffs applied */
	int64_t		 rollups_before_s;	/* (INT64_MIN: none) */
	uint64_t	 intervals;		/* rows deleted */
	uint64_t	 rollups;
	int64_t		 size_before, size_after;	/* bytes */
};

/*
 * Delete the intervals (process, task and energy intervals, system
 * records, and processes that ended a day before) that end before
 * intervals_ns, rounded down to a UTC hour, and the rollup rows of
 * hours before rollups_s (INT64_MIN: none); then give the space back.  In its own transaction.  path: the
 * database's file, for the sizes.  EXR_OK or EXR_DB.
 */
int	expire_db(sqlite3 *db, const char *path, int64_t intervals_ns,
	    int64_t rollups_s, struct expire_stats *st, struct ex_err *err);

/*
 * The first hour (epoch s) rollup_rebuild can build from what expiry
 * left: where the intervals were cut (v_expiry), else the beginning.
 */
int	expire_rebuild_from(sqlite3 *db, int64_t *from_s, struct ex_err *err);

#endif
