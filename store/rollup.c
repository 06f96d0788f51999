/*
 * Rollups (see rollup.h, rollup_sql.h, docs/schema.md): the split of an
 * interval over the hours it covers, and the rollup rows ingest and
 * merge keep up to date.
 *
 * Ingest hands each interval row it writes to rollup_add, which puts
 * its parts, one per hour, in a temporary table; at each commit
 * rollup_flush adds them, grouped by their rollup key (read from the
 * procs row, which is written first), into the hour, day and host
 * tables: so the rollups move in the transaction that writes the
 * intervals, and a chunk rolled back takes its parts with it.  Most
 * intervals of hourly snapshots lie in one hour: one part each.
 */
#include <stdlib.h>
#include <string.h>

#include "../parsers/records.h"
#include "db.h"
#include "rollup.h"
#include "rollup_sql.h"

/* An upsert's SET for a sum that stays NULL only while every part is. */
#define ADD(c)	c " = CASE WHEN excluded." c " IS NULL THEN " c \
	" WHEN " c " IS NULL THEN excluded." c " ELSE " c " + excluded." c \
	" END"
/* And for the largest of the parts. */
#define MAX(c)	c " = CASE WHEN " c " IS NULL OR excluded." c " > " c \
	" THEN excluded." c " ELSE " c " END"
#define ADD1(c)	ADD(c "_g") ", " ADD(c "_r")
#define ADDN(c)	", " ADD1(c)
#define ADD_ALL \
	"calls = calls + excluded.calls, " RU_GR(ADD1, ADDN) ", " \
	MAX("rss_max_kb") ", " MAX("threads")

#define PENDING	"temp.rollup_pending"

enum { Q_ADD, Q_HOUR, Q_DAY, Q_HOST, Q_CLEAR, Q_N };

static const char *const q_sql[Q_N] = {
	[Q_ADD] = "INSERT INTO " PENDING " (proc_id, hour_s, " RU_VALUE_COLS
	    ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	[Q_HOUR] = RU_INSERT_HOUR(PENDING) " ON CONFLICT DO UPDATE SET "
	    ADD_ALL,
	[Q_DAY] = RU_INSERT_DAY(PENDING) " ON CONFLICT DO UPDATE SET "
	    ADD_ALL,
	[Q_HOST] = RU_INSERT_HOST(PENDING) " ON CONFLICT DO UPDATE SET "
	    ADD_ALL,
	[Q_CLEAR] = "DELETE FROM " PENDING,
};

struct rollup {
	sqlite3		*db;
	sqlite3_stmt	*q[Q_N];
	uint64_t	 npending;	/* parts since the last flush */
};

/* The field of each enum rollup_value in a process interval. */
static const int rv_field[RV_N] = {
	[RV_CPU_USER] = PROC_CPU_USER_NS, [RV_CPU_SYS] = PROC_CPU_SYS_NS,
	[RV_CHARS] = PROC_CHARS_RDWR, [RV_BLOCKS_IN] = PROC_BLOCKS_IN,
	[RV_BLOCKS_OUT] = PROC_BLOCKS_OUT, [RV_READ] = PROC_READ_BYTES,
	[RV_WRITE] = PROC_WRITE_BYTES, [RV_FAULTS_MAJOR] = PROC_FAULTS_MAJOR,
	[RV_FAULTS_MINOR] = PROC_FAULTS_MINOR, [RV_SYSCALLS] = PROC_SYSCALLS,
	[RV_CTXT_VOL] = PROC_CTXT_VOL, [RV_CTXT_INV] = PROC_CTXT_INV,
};

static int
split_ok(int64_t t0, int64_t t1)
{
	return t0 >= 0 && t1 > t0 && t1 - t0 <= ROLLUP_MAX_SPLIT_NS;
}

void
rollup_hours(int64_t t0, int64_t t1, int64_t *h0, int64_t *h1)
{
	if (split_ok(t0, t1)) {
		*h0 = t0 / ROLLUP_HOUR_NS;
		*h1 = (t1 - 1) / ROLLUP_HOUR_NS;
	} else
		*h0 = *h1 = t1 / ROLLUP_HOUR_NS;
}

/* The weight unit: ms, or s where ms would reach 2^31 (rollup_sql.h). */
static int64_t
weight_unit(int64_t t0, int64_t t1)
{
	return t1 / 1000000 - t0 / 1000000 < 2147483648LL ? 1000000 :
	    1000000000;
}

/* floor(v * c / d) without overflow: c <= d < 2^31. */
static int64_t
scaled(int64_t v, int64_t c, int64_t d)
{
	return v / d * c + v % d * c / d;
}

int64_t
rollup_split(int64_t t0, int64_t t1, int64_t h, int64_t v)
{
	int64_t h0, h1, u, d, cb, ce;

	rollup_hours(t0, t1, &h0, &h1);
	if (h0 == h1)
		return v;
	u = weight_unit(t0, t1);
	d = t1 / u - t0 / u;
	cb = h == h0 ? 0 : h * ROLLUP_HOUR_NS / u - t0 / u;
	ce = h == h1 ? d : (h + 1) * ROLLUP_HOUR_NS / u - t0 / u;
	return scaled(v, ce, d) - scaled(v, cb, d);
}

int
rollup_prepare(sqlite3 *db, struct rollup **rp, struct ex_err *err)
{
	struct rollup *ru;
	int i;

	*rp = NULL;
	/* No key: a part is added as often as its interval is written. */
	if (db_exec(db, "CREATE TEMP TABLE IF NOT EXISTS rollup_pending ("
	    "proc_id INTEGER NOT NULL, hour_s INTEGER NOT NULL, "
	    RU_VALUE_COLS ")", err) != EXR_OK)
		return EXR_DB;
	if ((ru = calloc(1, sizeof(*ru))) == NULL)
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	ru->db = db;
	for (i = 0; i < Q_N; i++)
		if (db_prepare(db, q_sql[i], &ru->q[i], err) != EXR_OK) {
			rollup_finalize(ru);
			return EXR_DB;
		}
	*rp = ru;
	return EXR_OK;
}

void
rollup_finalize(struct rollup *ru)
{
	int i;

	if (ru == NULL)
		return;
	for (i = 0; i < Q_N; i++)
		sqlite3_finalize(ru->q[i]);
	free(ru);
}

static int
step(struct rollup *ru, sqlite3_stmt *st, struct ex_err *err)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE ? EXR_OK : db_fail(ru->db, err, "rollups");
}

int
rollup_add(struct rollup *ru, int64_t proc_id,
    const struct proc_interval *iv, struct ex_err *err)
{
	sqlite3_stmt *st = ru->q[Q_ADD];
	int64_t t0 = (int64_t)iv->t0_ns, t1 = (int64_t)iv->t1_ns, h0, h1, h;
	int k, rc;

	rollup_hours(t0, t1, &h0, &h1);
	for (h = h0; h <= h1; h++) {
		int64_t a = h * ROLLUP_HOUR_NS, b = a + ROLLUP_HOUR_NS;

		sqlite3_bind_int64(st, 1, proc_id);
		sqlite3_bind_int64(st, 2, h * 3600);
		sqlite3_bind_int64(st, 3, h == h1 ? iv->final : 0);
		sqlite3_bind_int64(st, 4, h0 == h1 && !split_ok(t0, t1) ?
		    t1 - t0 : (t1 < b ? t1 : b) - (t0 > a ? t0 : a));
		for (k = 0; k < RV_N; k++) {
			int f = rv_field[k];

			if ((iv->present >> f) & 1)
				sqlite3_bind_int64(st, 5 + k, rollup_split(t0,
				    t1, h, (int64_t)iv->d[f]));
			else
				sqlite3_bind_null(st, 5 + k);
		}
		for (k = 0; k < 2; k++) {
			int f = k == 0 ? PROC_RSS_MAX_KB : PROC_THREADS;

			/* Levels, not counters: in the hour they were read. */
			if (h == h1 && ((iv->present >> f) & 1))
				sqlite3_bind_int64(st, 5 + RV_N + k,
				    (int64_t)iv->d[f]);
			else
				sqlite3_bind_null(st, 5 + RV_N + k);
		}
		if ((rc = step(ru, st, err)) != EXR_OK)
			return rc;
		ru->npending++;
	}
	return EXR_OK;
}

int
rollup_flush(struct rollup *ru, struct ex_err *err)
{
	int i, rc;

	if (ru->npending == 0)
		return EXR_OK;
	for (i = Q_HOUR; i <= Q_CLEAR; i++)
		if ((rc = step(ru, ru->q[i], err)) != EXR_OK)
			return rc;
	ru->npending = 0;
	return EXR_OK;
}

int
rollup_add_since(struct rollup *ru, int64_t mark, struct ex_err *err)
{
	static const char sql[] = "INSERT INTO " PENDING " (proc_id, "
	    "hour_s, " RU_VALUE_COLS ") " RU_PARTS("proc_id, ",
	    "proc_intervals WHERE rowid > ?1");
	sqlite3_stmt *st;
	int rc;

	if (db_prepare(ru->db, sql, &st, err) != EXR_OK)
		return EXR_DB;
	sqlite3_bind_int64(st, 1, mark);
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE)
		ru->npending += (uint64_t)sqlite3_changes(ru->db);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? EXR_OK : db_fail(ru->db, err, "rollups");
}

int
rollup_rebuild(sqlite3 *db, int64_t from_s, struct ex_err *err)
{
	/* ?1: the first hour rebuilt, ?2: the first day. */
	static const char *const sql[] = {
	    "DELETE FROM rollup_hour WHERE hour_s >= ?1",
	    RU_INSERT_HOUR("(SELECT * FROM (" RU_PARTS("proc_id, ",
	    "v_proc_usage WHERE t1_ns >= ?1 * 1000000000") ") "
	    "WHERE hour_s >= ?1)"),
	    "DELETE FROM rollup_day WHERE day_s >= ?2",
	    RU_DAY_FROM_HOURS("?2"),
	    "DELETE FROM rollup_host WHERE hour_s >= ?1",
	    RU_HOST_FROM_HOURS("?1"),
	};
	sqlite3_stmt *st;
	int64_t day = from_s - (from_s % 86400 + 86400) % 86400;
	size_t i;
	int rc;

	/* The hour rows rebuilt are those of whole hours from from_s. */
	from_s -= (from_s % 3600 + 3600) % 3600;
	for (i = 0; i < sizeof(sql) / sizeof(sql[0]); i++) {
		if (db_prepare(db, sql[i], &st, err) != EXR_OK)
			return EXR_DB;
		if (sqlite3_bind_parameter_count(st) >= 1)
			sqlite3_bind_int64(st, 1, from_s);
		if (sqlite3_bind_parameter_count(st) >= 2)
			sqlite3_bind_int64(st, 2, day);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return db_fail(db, err, "rollups");
	}
	return EXR_OK;
}
