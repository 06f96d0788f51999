/*
 * Expiry (see expire.h).  It asks nothing of a central store: its
 * callers expire only what central has (run: after a push that
 * succeeded, under the spool's lock; rollup --expire refuses when a
 * central server is configured), and push never deletes centrally what
 * expiry removed here (fleet/push.c).  The interval cutoff is a whole UTC hour, so
 * every interval left ends in or after it and every hour from it on has
 * all its intervals: those hours can still be rebuilt (rollup_rebuild),
 * older ones keep the rollup rows they had.  Workload: once an hour
 * (run); a delete by the time index, mostly of nothing.
 */
#include <sys/stat.h>

#include <string.h>

#include "../parsers/records.h"
#include "db.h"
#include "expire.h"
#include "ingest_int.h"

static int64_t
file_size(const char *path)
{
	struct stat sb;

	return path != NULL && stat(path, &sb) == 0 ? (int64_t)sb.st_size : 0;
}

/* Run sql with ?1 = a; the rows it changed into *n. */
static int
run1(sqlite3 *db, const char *sql, int64_t a, uint64_t *n,
    struct ex_err *err)
{
	sqlite3_stmt *st;
	int rc;

	if (db_prepare(db, sql, &st, err) != EXR_OK)
		return EXR_DB;
	sqlite3_bind_int64(st, 1, a);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(db, err, "expiry");
	if (n != NULL)
		*n += (uint64_t)sqlite3_changes(db);
	return EXR_OK;
}

static int
intervals_expire(sqlite3 *db, int64_t before, uint64_t *n,
    struct ex_err *err)
{
	/*
	 * ?1: the cutoff, ns.  Exited processes a day before it (their
	 * intervals all end by their exit) go with their alternates, but
	 * for the newest: ingest numbers the next from the largest id, and
	 * an id is never given to another process (a central store keys
	 * rows by it).
	 */
	static const char *const sql[] = {
	    "DELETE FROM proc_interval_rows WHERE t1_ns < ?1",
	    /* An exit interval a procs row carries (schema 16) goes, the
	     * row stays, as a process whose intervals have gone. */
	    "UPDATE procs SET (" EXIT_COLUMNS ", exit_anomalies) = "
	    "(" EXIT_NULLS ") WHERE exit_anomalies IS NOT NULL AND "
	    "finish_ns < ?1",
	    "DELETE FROM proc_alt_exits WHERE proc_id IN (SELECT proc_id "
	    "FROM procs WHERE finish_ns < ?1 - 86400000000000)",
	    "DELETE FROM procs WHERE finish_ns < ?1 - 86400000000000 AND "
	    "proc_id NOT IN (SELECT proc_id FROM proc_last) AND "
	    "proc_id < (SELECT max(proc_id) FROM procs)",
	    "DELETE FROM task_intervals WHERE t1_ns < ?1",
	    "DELETE FROM energy_intervals WHERE t1_ns < ?1",
	    "DELETE FROM sysload WHERE t_ns < ?1",
	    "INSERT INTO expiry VALUES ('intervals', ?1) ON CONFLICT (what) "
	    "DO UPDATE SET before_ns = excluded.before_ns "
	    "WHERE excluded.before_ns > before_ns",
	};
	size_t i;

	for (i = 0; i < sizeof(sql) / sizeof(sql[0]); i++)
		if (run1(db, sql[i], before, i <= 1 ? n : NULL, err) != EXR_OK)
			return EXR_DB;
	return EXR_OK;
}

static int
rollups_expire(sqlite3 *db, int64_t before_s, uint64_t *n,
    struct ex_err *err)
{
	/* ?1: the first hour kept (a day's start: so is the first day). */
	static const char *const sql[] = {
	    "DELETE FROM rollup_hour WHERE hour_s < ?1",
	    "DELETE FROM rollup_day WHERE day_s < ?1",
	    "DELETE FROM rollup_host WHERE hour_s < ?1",
	    "INSERT INTO expiry VALUES ('rollups', ?1 * " NS_SQL ") "
	    "ON CONFLICT (what) DO UPDATE SET before_ns = excluded.before_ns "
	    "WHERE excluded.before_ns > before_ns",
	};
	size_t i;

	for (i = 0; i < sizeof(sql) / sizeof(sql[0]); i++)
		if (run1(db, sql[i], before_s, i < 3 ? n : NULL, err) != EXR_OK)
			return EXR_DB;
	return EXR_OK;
}

static int
pragma_int(sqlite3 *db, const char *sql, int *v, struct ex_err *err)
{
	sqlite3_stmt *st;
	int rc;

	if (db_prepare(db, sql, &st, err) != EXR_OK)
		return EXR_DB;
	rc = sqlite3_step(st);
	*v = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? EXR_OK : db_fail(db, err, "pragma");
}

/*
 * Give the freed pages back to the file system.  A database made before
 * schema 15 has no auto-vacuum, and switching it needs one VACUUM (a
 * copy of the whole file, outside any transaction: not in a migration,
 * which runs in one): done here, the first time expiry deleted rows.
 * The WAL is checkpointed, since in WAL mode the file shrinks only then.
 */
static int
give_back(sqlite3 *db, struct ex_err *err)
{
	int mode;

	if (pragma_int(db, "PRAGMA auto_vacuum", &mode, err) != EXR_OK)
		return EXR_DB;
	if (mode != 2 && db_exec(db, "PRAGMA auto_vacuum=INCREMENTAL; "
	    "VACUUM", err) != EXR_OK)
		return EXR_DB;
	if (mode == 2 && db_exec(db, "PRAGMA incremental_vacuum", err) !=
	    EXR_OK)
		return EXR_DB;
	return db_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", err);
}

int
expire_db(sqlite3 *db, const char *path, int64_t intervals_ns,
    int64_t rollups_s, struct expire_stats *st, struct ex_err *err)
{
	int rc = EXR_OK;

	memset(st, 0, sizeof(*st));
	st->size_before = st->size_after = file_size(path);
	/* Whole hours and days (times before 1970 are not expired). */
	intervals_ns = intervals_ns > 0 ? intervals_ns - intervals_ns %
	    3600000000000LL : INT64_MIN;
	rollups_s = rollups_s > 0 ? rollups_s - rollups_s % 86400 : INT64_MIN;
	st->intervals_before_ns = intervals_ns;
	st->rollups_before_s = rollups_s;
	if (intervals_ns == INT64_MIN && rollups_s == INT64_MIN)
		return EXR_OK;
	if ((rc = db_exec(db, "BEGIN IMMEDIATE", err)) != EXR_OK)
		return rc;
	if (intervals_ns != INT64_MIN)
		rc = intervals_expire(db, intervals_ns, &st->intervals, err);
	if (rc == EXR_OK && rollups_s != INT64_MIN)
		rc = rollups_expire(db, rollups_s, &st->rollups, err);
	if (rc == EXR_OK)
		rc = db_exec(db, "COMMIT", err);
	if (rc != EXR_OK) {
		(void)sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	if (st->intervals + st->rollups > 0 &&
	    (rc = give_back(db, err)) != EXR_OK)
		return rc;
	st->size_after = file_size(path);
	return EXR_OK;
}

int
expire_rebuild_from(sqlite3 *db, int64_t *from_s, struct ex_err *err)
{
	sqlite3_stmt *st;
	int rc;

	*from_s = -(INT64_C(1) << 62);
	if (db_prepare(db, "SELECT before_ns FROM expiry WHERE what = "
	    "'intervals'", &st, err) != EXR_OK)
		return EXR_DB;
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		*from_s = sqlite3_column_int64(st, 0) / NS_I64;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? EXR_OK :
	    db_fail(db, err, "expiry");
}
