/*
 * rdb on SQLite (see rdb.h): a thin layer over the statement API, and
 * the SQL function local_hour(ns) the reports group hours by.
 */
#include <stdlib.h>
#include <time.h>

#include "../parsers/records.h"
#include "rdb_int.h"

struct rdb_sqlite {
	struct rdb	 base;
	sqlite3		*db;
};

struct rdb_sqlite_q {
	struct rdb_q	 base;
	sqlite3_stmt	*st;
};

#define DB(d)	((struct rdb_sqlite *)(d))
#define ST(q)	(((struct rdb_sqlite_q *)(q))->st)

/* local_hour(ns): the epoch second of the local hour's start (TZ). */
static void
local_hour(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	time_t t;
	struct tm tm;

	(void)argc;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
		sqlite3_result_null(ctx);
		return;
	}
	t = (time_t)(sqlite3_value_int64(argv[0]) / NS_I64);
	if (localtime_r(&t, &tm) == NULL) {
		sqlite3_result_null(ctx);
		return;
	}
	tm.tm_min = tm.tm_sec = 0;
	tm.tm_isdst = -1;
	sqlite3_result_int64(ctx, (int64_t)mktime(&tm));
}

static void
s_close(struct rdb *d)
{
	free(d);
}

static const char *
s_errmsg(const struct rdb *d)
{
	return sqlite3_errmsg(DB(d)->db);
}

static const struct rdb_ops sqlite_ops;

static int
s_prepare(struct rdb *d, const char *sql, struct rdb_q **qp)
{
	struct rdb_sqlite_q *q;

	if ((q = calloc(1, sizeof(*q))) == NULL)
		return -1;
	q->base.ops = &sqlite_ops;
	if (sqlite3_prepare_v2(DB(d)->db, sql, -1, &q->st, NULL) !=
	    SQLITE_OK) {
		free(q);
		return -1;
	}
	*qp = &q->base;
	return 0;
}

static void
s_bind_int64(struct rdb_q *q, int i, int64_t v)
{
	sqlite3_bind_int64(ST(q), i, v);
}

static void
s_bind_text(struct rdb_q *q, int i, const char *v)
{
	sqlite3_bind_text(ST(q), i, v, -1, SQLITE_TRANSIENT);
}

static enum rdb_step
s_step(struct rdb_q *q)
{
	switch (sqlite3_step(ST(q))) {
	case SQLITE_ROW:
		return RDB_ROW;
	case SQLITE_DONE:
		return RDB_DONE;
	default:
		return RDB_ERROR;
	}
}

static void
s_reset(struct rdb_q *q)
{
	sqlite3_reset(ST(q));
}

static void
s_finalize(struct rdb_q *q)
{
	sqlite3_finalize(ST(q));
	free(q);
}

static int
s_isnull(struct rdb_q *q, int col)
{
	return sqlite3_column_type(ST(q), col) == SQLITE_NULL;
}

static int64_t
s_int64(struct rdb_q *q, int col)
{
	return sqlite3_column_int64(ST(q), col);
}

static double
s_double(struct rdb_q *q, int col)
{
	return sqlite3_column_double(ST(q), col);
}

static const char *
s_text(struct rdb_q *q, int col)
{
	return (const char *)sqlite3_column_text(ST(q), col);
}

static const struct rdb_ops sqlite_ops = {
	RDB_SQLITE, s_close, s_errmsg, s_prepare, s_bind_int64, s_bind_text,
	s_step, s_reset, s_finalize, s_isnull, s_int64, s_double, s_text,
};

struct rdb *
rdb_sqlite(sqlite3 *handle)
{
	struct rdb_sqlite *d;

	if (sqlite3_create_function(handle, "local_hour", 1, SQLITE_UTF8 |
	    SQLITE_DETERMINISTIC, NULL, local_hour, NULL, NULL) != SQLITE_OK)
		return NULL;
	if ((d = calloc(1, sizeof(*d))) == NULL)
		return NULL;
	d->base.ops = &sqlite_ops;
	d->db = handle;
	return &d->base;
}
