/*
 * rdb on PostgreSQL (see rdb.h), through libpq: the fleet's central
 * database (docs/fleet.md), whose published views are the SQLite ones.
 *
 * A statement is the report's SQL with its ?N parameters rewritten as
 * PostgreSQL's $N (outside quotes), run whole by PQexecParams at the
 * first step with text results; the steps then walk the rows.  Reports
 * read aggregates, a few hundred rows at most, so holding a result in
 * memory costs nothing.  Parameters are sent typed (int8, text): an
 * untyped one in "?2 - 1000000000" would be guessed an int4 and refuse
 * the report's INT64_MAX "to the end".  Columns come back as text and
 * are parsed here as the report asks: integers exactly (a sum of bigint
 * is a numeric, but an integral one), doubles with strtod, which reads
 * PostgreSQL's shortest exact form of a float8 back to the same double.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "rdb_int.h"

#define PG_MAXPARAM	128	/* the filters' values and the windows' */

struct rdb_pg {
	struct rdb	 base;
	PGconn		*conn;
	char		 msg[512];	/* the last error, one line */
};

struct rdb_pg_q {
	struct rdb_q	 base;
	struct rdb_pg	*db;
	char		*sql;		/* with $N */
	int		 nparam;	/* the highest N */
	Oid		 types[PG_MAXPARAM];
	char		*vals[PG_MAXPARAM];
	PGresult	*res;		/* NULL before the first step */
	int		 row;		/* the current row, -1 before */
	char		**bytes;	/* cells of res unescaped, or NULL */
};

#define DB(d)	((struct rdb_pg *)(d))
#define Q(q)	((struct rdb_pg_q *)(q))

#define OID_INT8	20	/* pg_type.h: int8 */
#define OID_TEXT	25	/* pg_type.h: text */

static const struct rdb_ops pg_ops;

/* Keep msg's first line, as the engine's error (libpq adds "\n"). */
static void
set_msg(struct rdb_pg *d, const char *msg)
{
	size_t n;

	snprintf(d->msg, sizeof(d->msg), "%s", msg != NULL && msg[0] != '\0' ?
	    msg : "PostgreSQL: unknown error");
	n = strcspn(d->msg, "\n");
	d->msg[n] = '\0';
}

/*
 * sql with each ?N outside a quoted string or identifier made $N, into
 * a new string (NULL: out of memory); *nparam gets the highest N.  A ?
 * not followed by digits is left as it is (PostgreSQL's jsonb operators
 * are spelt so; the reports use none).
 */
char *
rdb_pg_sql(const char *sql, int *nparam)
{
	char *out, *o, quote = 0;
	const char *s;

	*nparam = 0;
	if ((out = malloc(strlen(sql) + 1)) == NULL)
		return NULL;
	for (s = sql, o = out; *s != '\0'; s++) {
		if (quote != 0) {
			/* A doubled quote inside is the quote itself. */
			if (*s == quote)
				quote = 0;
			*o++ = *s;
		} else if (*s == '\'' || *s == '"') {
			quote = *s;
			*o++ = *s;
		} else if (*s == '?' && s[1] >= '0' && s[1] <= '9') {
			int n = 0;

			*o++ = '$';
			while (s[1] >= '0' && s[1] <= '9') {
				if (n < 10000)
					n = n * 10 + (s[1] - '0');
				*o++ = *++s;
			}
			if (n > *nparam)
				*nparam = n;
		} else
			*o++ = *s;
	}
	*o = '\0';
	return out;
}

static void
p_close(struct rdb *d)
{
	free(d);
}

static const char *
p_errmsg(const struct rdb *d)
{
	return DB(d)->msg;
}

static int
p_prepare(struct rdb *d, const char *sql, struct rdb_q **qp)
{
	struct rdb_pg_q *q;

	if ((q = calloc(1, sizeof(*q))) == NULL) {
		set_msg(DB(d), "no memory");
		return -1;
	}
	q->base.ops = &pg_ops;
	q->db = DB(d);
	q->row = -1;
	if ((q->sql = rdb_pg_sql(sql, &q->nparam)) == NULL) {
		free(q);
		set_msg(DB(d), "no memory");
		return -1;
	}
	if (q->nparam > PG_MAXPARAM) {
		snprintf(DB(d)->msg, sizeof(DB(d)->msg), "?%d: more than %d "
		    "parameters", q->nparam, PG_MAXPARAM);
		free(q->sql);
		free(q);
		return -1;
	}
	*qp = &q->base;
	return 0;
}

/* Parameter i (from 1) becomes v, sent as type; NULL v: out of memory. */
static void
bind(struct rdb_pg_q *q, int i, Oid type, const char *v)
{
	if (i < 1 || i > PG_MAXPARAM)
		return;
	free(q->vals[i - 1]);
	q->vals[i - 1] = v != NULL ? strdup(v) : NULL;
	q->types[i - 1] = type;
}

static void
p_bind_int64(struct rdb_q *q, int i, int64_t v)
{
	char b[24];

	snprintf(b, sizeof(b), "%" PRId64, v);
	bind(Q(q), i, OID_INT8, b);
}

static void
p_bind_text(struct rdb_q *q, int i, const char *v)
{
	bind(Q(q), i, OID_TEXT, v);
}

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Text as push stored it: a byte the server cannot hold (not UTF-8, or
 * NUL) is the four characters \xNN there, and a backslash that would
 * read as one is \x5c (fleet/push.c); the same bytes as the host's own
 * database, so that a report reads the same names from either.
 */
static char *
unescape(const char *s)
{
	char *d, *out = malloc(strlen(s) + 1);
	int hi, lo;

	if (out == NULL)
		return NULL;
	for (d = out; *s != '\0'; s++) {
		if (s[0] == '\\' && s[1] == 'x' && (hi = hexval(s[2])) >= 0 &&
		    (lo = hexval(s[3])) >= 0) {
			*d++ = (char)(hi << 4 | lo);
			s += 3;
		} else
			*d++ = *s;
	}
	*d = '\0';	/* a NUL byte ends the name, as SQLite's text does */
	return out;
}

static void
free_bytes(struct rdb_pg_q *q)
{
	int i, n;

	if (q->bytes == NULL)
		return;
	n = PQntuples(q->res) * PQnfields(q->res);
	for (i = 0; i < n; i++)
		free(q->bytes[i]);
	free(q->bytes);
	q->bytes = NULL;
}

/* The cells of a new result with an escape in them, unescaped. */
static int
unescape_result(struct rdb_pg_q *q)
{
	int r, c, nf = PQnfields(q->res), nt = PQntuples(q->res);
	const char *v;

	for (r = 0; r < nt; r++)
		for (c = 0; c < nf; c++) {
			v = PQgetvalue(q->res, r, c);
			if (strstr(v, "\\x") == NULL)
				continue;
			if (q->bytes == NULL && (q->bytes = calloc((size_t)nt *
			    (size_t)nf, sizeof(*q->bytes))) == NULL)
				return -1;
			if ((q->bytes[r * nf + c] = unescape(v)) == NULL)
				return -1;
		}
	return 0;
}

static enum rdb_step
p_step(struct rdb_q *rq)
{
	struct rdb_pg_q *q = Q(rq);

	if (q->res == NULL) {
		q->res = PQexecParams(q->db->conn, q->sql, q->nparam,
		    q->types, (const char *const *)q->vals, NULL, NULL, 0);
		if (q->res == NULL) {
			set_msg(q->db, PQerrorMessage(q->db->conn));
			return RDB_ERROR;
		}
		if (PQresultStatus(q->res) != PGRES_TUPLES_OK) {
			set_msg(q->db, PQresultErrorMessage(q->res));
			PQclear(q->res);
			q->res = NULL;
			return RDB_ERROR;
		}
		if (unescape_result(q) != 0) {
			set_msg(q->db, "out of memory");
			free_bytes(q);
			PQclear(q->res);
			q->res = NULL;
			return RDB_ERROR;
		}
		q->row = -1;
	}
	if (q->row + 1 >= PQntuples(q->res)) {
		q->row = PQntuples(q->res);
		return RDB_DONE;
	}
	q->row++;
	return RDB_ROW;
}

static void
p_reset(struct rdb_q *q)
{
	free_bytes(Q(q));
	PQclear(Q(q)->res);
	Q(q)->res = NULL;
	Q(q)->row = -1;
}

static void
p_finalize(struct rdb_q *q)
{
	int i;

	free_bytes(Q(q));
	PQclear(Q(q)->res);
	for (i = 0; i < PG_MAXPARAM; i++)
		free(Q(q)->vals[i]);
	free(Q(q)->sql);
	free(q);
}

/* The current row's column col as text; NULL for a NULL or no such. */
static const char *
cell(struct rdb_pg_q *q, int col)
{
	if (q->res == NULL || q->row < 0 || q->row >= PQntuples(q->res) ||
	    col < 0 || col >= PQnfields(q->res) ||
	    PQgetisnull(q->res, q->row, col))
		return NULL;
	if (q->bytes != NULL && q->bytes[q->row * PQnfields(q->res) + col] !=
	    NULL)
		return q->bytes[q->row * PQnfields(q->res) + col];
	return PQgetvalue(q->res, q->row, col);
}

static int
p_isnull(struct rdb_q *q, int col)
{
	return cell(Q(q), col) == NULL;
}

/*
 * An integer: exact when the text is one (bigint, an integral numeric);
 * else (a float8, a numeric with a fraction) truncated toward zero, as
 * SQLite reads a REAL as an integer; booleans as 1 and 0.
 */
static int64_t
p_int64(struct rdb_q *q, int col)
{
	const char *s = cell(Q(q), col);
	char *end;
	long long v;
	double d;

	if (s == NULL)
		return 0;
	if (s[0] == 't' && s[1] == '\0')
		return 1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno == 0 && end != s && *end == '\0')
		return v;
	d = strtod(s, NULL);
	if (!(d == d))
		return 0;
	if (d >= 9223372036854775807.0)
		return INT64_MAX;
	if (d <= -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)d;
}

static double
p_double(struct rdb_q *q, int col)
{
	const char *s = cell(Q(q), col);

	if (s == NULL)
		return 0;
	if (s[0] == 't' && s[1] == '\0')
		return 1;
	return strtod(s, NULL);
}

static const char *
p_text(struct rdb_q *q, int col)
{
	return cell(Q(q), col);
}

static const struct rdb_ops pg_ops = {
	RDB_POSTGRESQL, p_close, p_errmsg, p_prepare, p_bind_int64,
	p_bind_text, p_step, p_reset, p_finalize, p_isnull, p_int64,
	p_double, p_text,
};

struct rdb *
rdb_postgresql(struct pg_conn *handle)
{
	struct rdb_pg *d;

	if ((d = calloc(1, sizeof(*d))) == NULL)
		return NULL;
	d->base.ops = &pg_ops;
	d->conn = handle;
	return &d->base;
}
