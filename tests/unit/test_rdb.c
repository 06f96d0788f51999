/*
 * rdb: the report layer's database interface.  On SQLite, binding and
 * reading columns, NULLs and local_hour(ns); the PostgreSQL engine's
 * parameter rewriting (?N to $N outside quotes), which needs no server.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "../../reports/rdb_int.h"
#include "check.h"

static void
sqlite_engine(void)
{
	sqlite3 *h;
	struct rdb *db;
	struct rdb_q *q;
	const char *tz = getenv("TZ");
	char *old = tz != NULL ? strdup(tz) : NULL;

	if (sqlite3_open(":memory:", &h) != SQLITE_OK)
		return;
	db = rdb_sqlite(h);
	CHECK("rdb_sqlite", db != NULL && rdb_engine(db) == RDB_SQLITE);
	setenv("TZ", "Asia/Kolkata", 1);	/* +05:30: half-hour offset */
	tzset();
	CHECK("prepare", rdb_prepare(db, "SELECT ?1 + 1, ?2, NULL,"
	    " local_hour(?1 * 1000000000), ?1 / 2.0", &q) == 0);
	rdb_bind_int64(q, 1, 1700000000);
	rdb_bind_text(q, 2, "x'y");
	CHECK("row", rdb_step(q) == RDB_ROW);
	CHECK("int64", rdb_int64(q, 0) == 1700000001);
	CHECK("text", strcmp(rdb_text(q, 1), "x'y") == 0);
	CHECK("null", rdb_isnull(q, 2) && rdb_text(q, 2) == NULL &&
	    rdb_int64(q, 2) == 0 && !rdb_isnull(q, 0));
	/* 1700000000 is 03:43:20 in Kolkata; its hour began 03:00 there. */
	CHECK("local_hour", rdb_int64(q, 3) == 1700000000 - 43 * 60 - 20);
	CHECK("double", rdb_double(q, 4) == 850000000.0);
	CHECK("done", rdb_step(q) == RDB_DONE);
	rdb_reset(q);
	CHECK("reset keeps the bindings", rdb_step(q) == RDB_ROW &&
	    rdb_int64(q, 0) == 1700000001);
	rdb_finalize(q);
	CHECK("an error says why", rdb_prepare(db, "SELECT nosuch()",
	    &q) == -1 && q == NULL && strstr(rdb_errmsg(db), "nosuch"));
	if (old != NULL)
		setenv("TZ", old, 1);
	else
		unsetenv("TZ");
	tzset();
	free(old);
	rdb_close(db);
	sqlite3_close(h);
}

#ifdef HAVE_LIBPQ
static void
pg_params(void)
{
	static const struct {
		const char	*in, *out;
		int		 n;
	} t[] = {
		{ "SELECT 1", "SELECT 1", 0 },
		{ "WHERE a = ?1 AND b < ?2 - 1", "WHERE a = $1 AND b < $2 - 1",
		    2 },
		{ "SELECT ?12, ?3", "SELECT $12, $3", 12 },
		/* Quoted: a literal, an identifier, a doubled quote. */
		{ "SELECT '?1', \"?2\", 'it''s ?3', ?4",
		    "SELECT '?1', \"?2\", 'it''s ?3', $4", 4 },
		/* A ? with no number is not a parameter. */
		{ "SELECT a ? b, ?", "SELECT a ? b, ?", 0 },
	};
	size_t i;
	char *s;
	int n;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		s = rdb_pg_sql(t[i].in, &n);
		CHECK(t[i].in, s != NULL && strcmp(s, t[i].out) == 0 &&
		    n == t[i].n);
		free(s);
	}
}
#endif

void
suite_rdb(void)
{
	sqlite_engine();
#ifdef HAVE_LIBPQ
	pg_params();
#endif
}
