/*
 * rdb: the database a report reads.  Reports read only the published
 * views (docs/schema.md), and the same views exist in the host's SQLite
 * store and in the fleet's PostgreSQL server (docs/fleet.md), so one
 * report layer serves both through this small interface, shaped like
 * SQLite's own: prepare, bind, step, read columns, finalize.
 *
 * SQL is written once, with numbered parameters ?1, ?2 ... (the
 * PostgreSQL engine rewrites them as $1, $2 ...).  A column is read as
 * the type the report wants; NULL reads as 0 (or a NULL text) and
 * rdb_isnull tells it apart.  The SQL function local_hour(ns), the epoch
 * second of the start of the local hour (in TZ) holding ns, exists in
 * both engines.
 */
#ifndef RDB_H
#define RDB_H

#include <stdint.h>

#include <sqlite3.h>

struct rdb;
struct rdb_q;
struct pg_conn;		/* libpq's PGconn */

enum rdb_step { RDB_ERROR = -1, RDB_DONE = 0, RDB_ROW = 1 };

/* The engines, for the rare query that must differ (none today). */
enum rdb_engine { RDB_SQLITE, RDB_POSTGRESQL };

/*
 * A report database on a handle the caller opened (extract/ opens it:
 * the store's checks for an SQLite file, fleet/'s credential rules for a
 * server) and closes after rdb_close.  NULL when out of memory.
 */
struct rdb	*rdb_sqlite(sqlite3 *handle);
#ifdef HAVE_LIBPQ
struct rdb	*rdb_postgresql(struct pg_conn *handle);	/* rdb_pg.c */
#endif
void		 rdb_close(struct rdb *db);
enum rdb_engine	 rdb_engine(const struct rdb *db);

/* The last error, as the engine said it. */
const char	*rdb_errmsg(const struct rdb *db);

/* 0, or -1 (rdb_errmsg says why). */
int		 rdb_prepare(struct rdb *db, const char *sql,
		    struct rdb_q **qp);
void		 rdb_bind_int64(struct rdb_q *q, int i, int64_t v);
void		 rdb_bind_text(struct rdb_q *q, int i, const char *v);
enum rdb_step	 rdb_step(struct rdb_q *q);
/* Back to before the first step, keeping the bindings. */
void		 rdb_reset(struct rdb_q *q);
void		 rdb_finalize(struct rdb_q *q);

int		 rdb_isnull(struct rdb_q *q, int col);
int64_t		 rdb_int64(struct rdb_q *q, int col);
double		 rdb_double(struct rdb_q *q, int col);
/* Valid until the next step or finalize; NULL for a NULL. */
const char	*rdb_text(struct rdb_q *q, int col);

#endif
