/*
 * The SQLite store: opening, pragmas, the schema and its migrations.
 *
 * The schema version is PRAGMA user_version; db_open() applies every
 * migration the file has not seen, in one transaction each, so an old
 * database is brought forward and a new one is built from nothing.  The
 * tables are documented column by column in docs/schema.md.
 */
#ifndef DB_H
#define DB_H

#include <sqlite3.h>
#include <stdint.h>

#include "../parsers/exerr.h"

#define DB_SCHEMA_VERSION	23

/*
 * Open (creating if needed) the database at path, in WAL mode, and bring
 * its schema up to date.  Returns EXR_OK with *dbp set, or EXR_DB with err
 * filled (*dbp is NULL).  The file is opened with O_NOFOLLOW semantics:
 * a symbolic link is refused.
 */
int	db_open(const char *path, sqlite3 **dbp, struct ex_err *err);

/*
 * Open the database at path to read it (reports): never created, never
 * migrated, a symbolic link or anything but a regular file refused, and
 * its schema version must be this extracct's.  EXR_OK with *dbp set, or
 * EXR_DB with err filled.
 */
int	db_open_readonly(const char *path, sqlite3 **dbp, struct ex_err *err);

/* The same, migrating no further than version (tests of migrations). */
int	db_open_at(const char *path, int version, sqlite3 **dbp,
	    struct ex_err *err);
void	db_close(sqlite3 *db);

/* Run SQL with no result rows; EXR_OK or EXR_DB with err filled. */
int	db_exec(sqlite3 *db, const char *sql, struct ex_err *err);

/* Prepare a statement; EXR_OK or EXR_DB with err filled. */
int	db_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **st,
	    struct ex_err *err);

/* Prepare head, then n copies of row separated by commas, then tail
 * (an INSERT of n rows at once); as db_prepare, EXR_NOMEM too. */
int	db_prepare_rows(sqlite3 *db, const char *head, const char *row,
	    size_t n, const char *tail, sqlite3_stmt **st, struct ex_err *err);

/* Record the database's current error in err; returns EXR_DB. */
int	db_fail(sqlite3 *db, struct ex_err *err, const char *what);

/* The wall clock, in ns since the epoch: when the store records that
 * something happened (a file ingested, a host merged or pushed). */
uint64_t	db_now_ns(void);

#endif
