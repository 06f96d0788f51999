/*
 * pgcopy (see pgcopy.h): SQLite rows into PostgreSQL's COPY, binary or
 * text, a chunk at a time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>
#include <sqlite3.h>

#include "pgconn.h"
#include "pgcopy.h"

/*
 * Bytes of COPY data per write.  Well under what a socket holds (some
 * 200 KiB on Linux): in blocking mode libpq returns only once a write
 * is all in the socket, so a chunk larger than that makes push wait
 * for the server to drain it, and the server then waits for push to
 * make the next: the two took turns (0.64x of psql's \copy at 256 KiB,
 * 1.0x at 32 KiB; bench/push.sh).
 */
#define COPY_CHUNK	(32 * 1024)

static int
grow(struct pgbuf *b, size_t more, struct ex_err *err)
{
	size_t cap = b->cap != 0 ? b->cap : 4096;
	char *p;

	if (b->len + more <= b->cap)
		return EXR_OK;
	while (cap < b->len + more)
		cap *= 2;
	if ((p = realloc(b->p, cap)) == NULL)
		return ex_fail(err, EXR_NOMEM, 0, "out of memory");
	b->p = p;
	b->cap = cap;
	return EXR_OK;
}

int
pgbuf_add(struct pgbuf *b, const char *s, size_t n, struct ex_err *err)
{
	if (grow(b, n, err) != EXR_OK)
		return EXR_NOMEM;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	return EXR_OK;
}

/* The length of the valid UTF-8 sequence at s (n bytes left), or 0. */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	size_t k, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		k = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		k = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		k = 4;
	else
		return 0;
	if (n < k)
		return 0;
	for (i = 1; i < k; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* Overlong, surrogates, past U+10FFFF. */
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
		return 0;
	return k;
}

static void
put16(char *p, uint16_t v)
{
	p[0] = (char)(v >> 8);
	p[1] = (char)v;
}

static void
put32(char *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

static void
put64(char *p, uint64_t v)
{
	put32(p, (uint32_t)(v >> 32));
	put32(p + 4, (uint32_t)v);
}

static int
is_hex(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F');
}

/*
 * Text for the server, appended to b: it takes only UTF-8 (and no
 * NUL), so a byte that is not (a command or host name is whatever
 * bytes it had) is sent as the four characters \xNN, as extracct text
 * shows it; and so is a backslash that would read as such an escape,
 * so that central's reports (reports/rdb_pg.c) read back the bytes
 * exactly.
 */
int
pgbuf_text(struct pgbuf *b, const unsigned char *s, size_t n,
    struct ex_err *err)
{
	size_t i = 0, k;

	while (i < n) {
		if ((k = utf8_len(s + i, n - i)) != 0 && s[i] != '\0' &&
		    !(s[i] == '\\' && n - i >= 4 && s[i + 1] == 'x' &&
		    is_hex(s[i + 2]) && is_hex(s[i + 3]))) {
			if (pgbuf_add(b, (const char *)s + i, k, err) != EXR_OK)
				return EXR_NOMEM;
			i += k;
			continue;
		}
		if (grow(b, 5, err) != EXR_OK)
			return EXR_NOMEM;
		snprintf(b->p + b->len, 5, "\\x%02x", s[i]);
		b->len += 4;
		i++;
	}
	return EXR_OK;
}

/* A text field of binary COPY: its length, then its bytes, escaped. */
static int
add_text(struct pgbuf *b, const unsigned char *s, size_t n,
    struct ex_err *err)
{
	size_t at;

	if (grow(b, 4 + n, err) != EXR_OK)
		return EXR_NOMEM;
	at = b->len;
	b->len += 4;
	if (pgbuf_text(b, s, n, err) != EXR_OK)
		return EXR_NOMEM;
	put32(b->p + at, (uint32_t)(b->len - at - 4));
	return EXR_OK;
}

/*
 * The current row of st as a tuple of binary COPY, appended to b: the
 * central host id, then every column but skip (the local host_id; -1:
 * none).  An integer is a bigint, a real a double precision, text
 * text: the central columns' types.
 */
static int
format_row(struct pgbuf *b, sqlite3_stmt *st, int skip, int64_t host,
    struct ex_err *err)
{
	double d;
	uint64_t f;
	int i, n = sqlite3_column_count(st);

	if (grow(b, 2 + 12 * ((size_t)n + 1), err) != EXR_OK)
		return EXR_NOMEM;
	put16(b->p + b->len, (uint16_t)(n + 1 - (skip >= 0)));
	put32(b->p + b->len + 2, 8);
	put64(b->p + b->len + 6, (uint64_t)host);
	b->len += 14;
	for (i = 0; i < n; i++) {
		if (i == skip)
			continue;
		switch (sqlite3_column_type(st, i)) {
		case SQLITE_NULL:
			put32(b->p + b->len, UINT32_MAX);	/* -1 */
			b->len += 4;
			break;
		case SQLITE_INTEGER:
			put32(b->p + b->len, 8);
			put64(b->p + b->len + 4,
			    (uint64_t)sqlite3_column_int64(st, i));
			b->len += 12;
			break;
		case SQLITE_FLOAT:
			d = sqlite3_column_double(st, i);
			memcpy(&f, &d, sizeof(f));
			put32(b->p + b->len, 8);
			put64(b->p + b->len + 4, f);
			b->len += 12;
			break;
		default:
			if (add_text(b, sqlite3_column_text(st, i),
			    (size_t)sqlite3_column_bytes(st, i), err) != EXR_OK)
				return EXR_NOMEM;
			/* What is left of the 12 bytes a column was given. */
			if (grow(b, 12 * ((size_t)(n - i)), err) != EXR_OK)
				return EXR_NOMEM;
			break;
		}
	}
	return EXR_OK;
}

/* Send c's bytes to the COPY in progress. */
static int
flush(struct pgcopy *c, const char *what)
{
	char msg[160];

	if (c->buf.len == 0)
		return EXR_OK;
	if (PQputCopyData(c->conn, c->buf.p, (int)c->buf.len) != 1)
		return ex_fail(c->err, EXR_CENTRAL, 0, "central server: %s: "
		    "%s", what, pg_msg(c->conn, NULL, msg, sizeof(msg)));
	c->buf.len = 0;
	return EXR_OK;
}

int
pgcopy_row(struct pgcopy *c, sqlite3_stmt *st, int skip, int64_t host,
    const char *what)
{
	if (format_row(&c->buf, st, skip, host, c->err) != EXR_OK)
		return EXR_NOMEM;
	return c->buf.len >= COPY_CHUNK ? flush(c, what) : EXR_OK;
}

int
pgcopy_end(struct pgcopy *c, int rc, const char *what, int binary)
{
	PGresult *res;
	char msg[160];
	int end;

	if (rc == EXR_OK && binary)	/* the trailer */
		rc = pgbuf_add(&c->buf, "\377\377", 2, c->err);
	if (rc == EXR_OK)
		rc = flush(c, what);
	end = PQputCopyEnd(c->conn, rc == EXR_OK ? NULL : "push failed");
	while ((res = PQgetResult(c->conn)) != NULL) {
		if (rc == EXR_OK && (end != 1 ||
		    PQresultStatus(res) != PGRES_COMMAND_OK))
			rc = ex_fail(c->err, EXR_CENTRAL, 0, "central server: "
			    "%s: %s", what, pg_msg(c->conn, res, msg,
			    sizeof(msg)));
		PQclear(res);
	}
	return rc;
}

/* The signature and header of binary COPY (no flags, no extension). */
static const char copy_header[19] = "PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0";

int
pgcopy_begin(struct pgcopy *c, const char *sql, const char *what, int binary)
{
	PGresult *res = PQexec(c->conn, sql);
	char msg[160];
	int rc = EXR_OK;

	if (PQresultStatus(res) != PGRES_COPY_IN)
		rc = ex_fail(c->err, EXR_CENTRAL, 0, "central server: %s: %s",
		    what, pg_msg(c->conn, res, msg, sizeof(msg)));
	PQclear(res);
	c->buf.len = 0;
	if (rc == EXR_OK && binary)
		rc = pgbuf_add(&c->buf, copy_header, sizeof(copy_header),
		    c->err);
	return rc;
}

int
pgcopy_sql(struct pgbuf *sql, const char *table, sqlite3_stmt *st, int skip,
    struct ex_err *err)
{
	int i, n = sqlite3_column_count(st);
	const char *c;

	sql->len = 0;
	if (pgbuf_add(sql, "COPY ", 5, err) != EXR_OK ||
	    pgbuf_add(sql, table, strlen(table), err) != EXR_OK ||
	    pgbuf_add(sql, " (host_id", 9, err) != EXR_OK)
		return EXR_NOMEM;
	for (i = 0; i < n; i++) {
		if (i == skip)
			continue;
		c = sqlite3_column_name(st, i);
		if (pgbuf_add(sql, ", \"", 3, err) != EXR_OK ||
		    pgbuf_add(sql, c, strlen(c), err) != EXR_OK ||
		    pgbuf_add(sql, "\"", 1, err) != EXR_OK)
			return EXR_NOMEM;
	}
	return pgbuf_add(sql, ") FROM STDIN (FORMAT binary)\0", 29, err);
}
