/*
 * pgconn: a connection to the central PostgreSQL server (docs/fleet.md),
 * opened as libpq opens any: a connection string or URI (--to, central:
 * in the configuration), or, when that is empty, what libpq finds by
 * itself (PGHOST, PGSERVICE and pg_service.conf, ...).  Passwords come
 * from ~/.pgpass (or PGPASSFILE), never from a command line: a password
 * in the string is refused before anything is sent.  Built only with
 * libpq (HAVE_LIBPQ).
 */
#ifndef PGCONN_H
#define PGCONN_H

#include <libpq-fe.h>

#include "../parsers/exerr.h"

/*
 * Is conninfo well formed and (unless allow_password) free of a
 * password?  0 if so; else -1 with why[n] saying what is wrong (a parse
 * error, or a password).
 */
int	pg_conninfo_check(const char *conninfo, int allow_password, char *why,
	    size_t n);

/*
 * Open a connection from conninfo ("" or NULL: libpq's environment and
 * defaults), refusing a password in it unless allow_password.  EXR_OK
 * with *conn set (the caller PQfinish()es it), or EXR_USAGE (a bad
 * string, a password in it) or EXR_CENTRAL (the server cannot be reached
 * or refused us), with err->reason saying why in one line.  The
 * connection's client encoding is UTF8, its time zone UTC, it has no
 * statement timeout, and a connection attempt gives up after 10 s
 * unless conninfo sets connect_timeout.
 */
int	pg_open(const char *conninfo, int allow_password, PGconn **conn,
	    struct ex_err *err);

/*
 * The one-line form of the server's last message (libpq's carry a
 * newline and sometimes a second line), into buf[n]; returns buf.
 */
char	*pg_msg(PGconn *conn, const PGresult *res, char *buf, size_t n);

/*
 * Run sql (no parameters; may be several statements).  EXR_OK, or
 * EXR_CENTRAL with err saying what failed and why (what names the step).
 */
int	pg_exec(PGconn *conn, const char *sql, const char *what,
	    struct ex_err *err);

#endif
