/*
 * pgcopy: rows of SQLite statements sent to PostgreSQL by COPY FROM
 * STDIN, binary (each row's columns as bigint, double precision and
 * text, the central columns' types) or text (lines the caller writes).
 * Text the server cannot hold is escaped on the way (pgbuf_text).
 * Functions return EXR_OK, EXR_NOMEM or EXR_CENTRAL, with err filled.
 */
#ifndef PGCOPY_H
#define PGCOPY_H

#include <stddef.h>
#include <stdint.h>

#include <libpq-fe.h>
#include <sqlite3.h>

#include "../parsers/exerr.h"

/* A growing byte buffer. */
struct pgbuf {
	char		*p;
	size_t		 len, cap;
};

int	pgbuf_add(struct pgbuf *b, const char *s, size_t n,
	    struct ex_err *err);

/*
 * s (n bytes) appended as text the server holds: UTF-8 as it is; a
 * byte that is not UTF-8, or NUL, as the four characters \xNN; and a
 * backslash that would read as such an escape as \x5c, so that reading
 * every \xNN back as its byte (reports/rdb_pg.c) gives s exactly.
 */
int	pgbuf_text(struct pgbuf *b, const unsigned char *s, size_t n,
	    struct ex_err *err);

/* "COPY table (host_id, c1, ...) FROM STDIN (FORMAT binary)", with a
 * NUL, into sql: st's columns but skip (-1: none). */
int	pgcopy_sql(struct pgbuf *sql, const char *table, sqlite3_stmt *st,
	    int skip, struct ex_err *err);

/* A COPY in progress on conn; buf holds what is not sent yet. */
struct pgcopy {
	PGconn		*conn;
	struct ex_err	*err;
	struct pgbuf	 buf;
};

/* Start the COPY of sql (what: for messages); binary: its header. */
int	pgcopy_begin(struct pgcopy *c, const char *sql, const char *what,
	    int binary);

/* st's current row as a binary tuple led by host, columns but skip;
 * sent a chunk at a time. */
int	pgcopy_row(struct pgcopy *c, sqlite3_stmt *st, int skip,
	    int64_t host, const char *what);

/* Send what is left and end the COPY (rc: how it went so far; other
 * than EXR_OK, the server is told to drop it). */
int	pgcopy_end(struct pgcopy *c, int rc, const char *what, int binary);

#endif
