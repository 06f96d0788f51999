/*
 * bench/loader: the SQLite limit for ingest, as a fair peer.
 *
 *   usage: loader [-b] SRC.db DST.db
 *
 * Takes the rows an ingest stored in SRC.db, holds them in memory, then
 * creates DST.db with SRC's schema (every table, index and trigger, in
 * the order ingest made them) and extracct's PRAGMAs (store/db.c: 64
 * KiB pages, WAL, synchronous NORMAL, a 64 MB cache), and inserts the
 * same rows with one prepared INSERT per table in one transaction.  It
 * prints the rows and the seconds the inserts and the commit took, wall
 * and CPU: what storing ingest's output costs with nothing decoded,
 * differenced or looked up.  bench/ingest.sh divides ingest's time by
 * this.
 *
 * -b (bare): the tables alone, no index and no UNIQUE constraint (so
 * no automatic index either): the most any schema that stores these
 * rows one by one could take them in, the ceiling for a schema that
 * needs no secondary index.
 */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct value {
	int		 type;		/* SQLITE_INTEGER, _FLOAT, _TEXT, _NULL */
	int		 len;		/* of text */
	union {
		int64_t	 i;
		double	 d;
		char	*s;
	} u;
};

struct table {
	char		*name;
	int		 ncols;
	size_t		 nrows;
	struct value	*v;		/* nrows * ncols */
};

static void
die(sqlite3 *db, const char *what)
{
	fprintf(stderr, "loader: %s: %s\n", what,
	    db != NULL ? sqlite3_errmsg(db) : "failed");
	exit(1);
}

static void
exec(sqlite3 *db, const char *sql)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		die(db, sql);
}

/* Every row of table t of src, into memory. */
static void
take_rows(sqlite3 *src, struct table *t)
{
	sqlite3_stmt *st;
	char sql[256];
	size_t cap = 0;
	int c;

	snprintf(sql, sizeof(sql), "SELECT * FROM \"%s\"", t->name);
	if (sqlite3_prepare_v2(src, sql, -1, &st, NULL) != SQLITE_OK)
		die(src, sql);
	t->ncols = sqlite3_column_count(st);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct value *row;

		if (t->nrows == cap) {
			cap = cap == 0 ? 1024 : cap * 2;
			if ((t->v = realloc(t->v, cap * (size_t)t->ncols *
			    sizeof(*t->v))) == NULL)
				die(NULL, "memory");
		}
		row = t->v + t->nrows++ * (size_t)t->ncols;
		for (c = 0; c < t->ncols; c++) {
			row[c].type = sqlite3_column_type(st, c);
			switch (row[c].type) {
			case SQLITE_INTEGER:
				row[c].u.i = sqlite3_column_int64(st, c);
				break;
			case SQLITE_FLOAT:
				row[c].u.d = sqlite3_column_double(st, c);
				break;
			case SQLITE_NULL:
				break;
			default:	/* text (ingest stores no blobs) */
				row[c].type = SQLITE_TEXT;
				row[c].len = sqlite3_column_bytes(st, c);
				if ((row[c].u.s = malloc((size_t)row[c].len +
				    1)) == NULL)
					die(NULL, "memory");
				memcpy(row[c].u.s, sqlite3_column_text(st, c),
				    (size_t)row[c].len + 1);
				break;
			}
		}
	}
	sqlite3_finalize(st);
}

static void
put_rows(sqlite3 *dst, const struct table *t)
{
	sqlite3_stmt *st;
	char sql[8192];
	size_t r, n;
	int c;

	n = (size_t)snprintf(sql, sizeof(sql), "INSERT INTO \"%s\" VALUES (",
	    t->name);
	for (c = 0; c < t->ncols && n < sizeof(sql) - 4; c++)
		n += (size_t)snprintf(sql + n, sizeof(sql) - n, "%s?",
		    c > 0 ? "," : "");
	snprintf(sql + n, sizeof(sql) - n, ")");
	if (sqlite3_prepare_v2(dst, sql, -1, &st, NULL) != SQLITE_OK)
		die(dst, sql);
	for (r = 0; r < t->nrows; r++) {
		const struct value *row = t->v + r * (size_t)t->ncols;

		for (c = 0; c < t->ncols; c++)
			switch (row[c].type) {
			case SQLITE_INTEGER:
				sqlite3_bind_int64(st, c + 1, row[c].u.i);
				break;
			case SQLITE_FLOAT:
				sqlite3_bind_double(st, c + 1, row[c].u.d);
				break;
			case SQLITE_TEXT:
				sqlite3_bind_text(st, c + 1, row[c].u.s,
				    row[c].len, SQLITE_STATIC);
				break;
			default:
				sqlite3_bind_null(st, c + 1);
				break;
			}
		if (sqlite3_step(st) != SQLITE_DONE)
			die(dst, t->name);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
}

/*
 * sql (a CREATE TABLE) without its UNIQUE table constraints, in place:
 * from the comma before each "UNIQUE (" through its closing parenthesis.
 */
static void
strip_unique(char *sql)
{
	char *u, *comma, *end;
	int depth;

	while ((u = strstr(sql, "UNIQUE (")) != NULL) {
		for (comma = u; comma > sql && *comma != ','; comma--)
			;
		for (end = u + strlen("UNIQUE "), depth = 0; *end != '\0';
		    end++)
			if (*end == '(')
				depth++;
			else if (*end == ')' && --depth == 0)
				break;
		if (*comma != ',' || *end == '\0')
			return;		/* not a table constraint: keep it */
		memmove(comma, end + 1, strlen(end + 1) + 1);
	}
}

static double
clock_s(clockid_t which)
{
	struct timespec ts;

	clock_gettime(which, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	sqlite3 *src, *dst;
	sqlite3_stmt *st;
	struct table *tables = NULL;
	size_t ntables = 0, i, rows = 0;
	double t0, t1, c0, c1;
	int bare = 0;

	if (argc > 1 && strcmp(argv[1], "-b") == 0) {
		bare = 1;
		argc--;
		argv++;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: loader [-b] SRC.db DST.db\n");
		return 2;
	}
	if (sqlite3_open_v2(argv[1], &src, SQLITE_OPEN_READONLY, NULL) !=
	    SQLITE_OK)
		die(src, argv[1]);
	if (sqlite3_open(argv[2], &dst) != SQLITE_OK)
		die(dst, argv[2]);
	exec(dst, "PRAGMA page_size=65536; PRAGMA journal_mode=WAL; "
	    "PRAGMA synchronous=NORMAL; PRAGMA cache_size=-65536;");

	/* The schema as ingest made it (tables, then what hangs on them). */
	if (sqlite3_prepare_v2(src, "SELECT type, name, sql FROM "
	    "sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE "
	    "'sqlite_%' ORDER BY type <> 'table', rowid", -1, &st, NULL) !=
	    SQLITE_OK)
		die(src, "schema");
	exec(dst, "BEGIN");
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *type = (const char *)sqlite3_column_text(st, 0);
		char *sql;

		if (bare && strcmp(type, "index") == 0)
			continue;
		if ((sql = strdup((const char *)sqlite3_column_text(st, 2))) ==
		    NULL)
			die(NULL, "memory");
		if (bare && strcmp(type, "table") == 0)
			strip_unique(sql);
		exec(dst, sql);
		free(sql);
		if (strcmp(type, "table") != 0)
			continue;
		if ((tables = realloc(tables, (ntables + 1) *
		    sizeof(*tables))) == NULL)
			die(NULL, "memory");
		memset(&tables[ntables], 0, sizeof(*tables));
		if ((tables[ntables].name = strdup((const char *)
		    sqlite3_column_text(st, 1))) == NULL)
			die(NULL, "memory");
		ntables++;
	}
	sqlite3_finalize(st);
	exec(dst, "COMMIT");
	for (i = 0; i < ntables; i++) {
		take_rows(src, &tables[i]);
		rows += tables[i].nrows;
	}

	t0 = clock_s(CLOCK_MONOTONIC);
	c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	exec(dst, "BEGIN");
	for (i = 0; i < ntables; i++)
		put_rows(dst, &tables[i]);
	exec(dst, "COMMIT");
	t1 = clock_s(CLOCK_MONOTONIC);
	c1 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	printf("%zu rows in %.6f s, CPU %.6f s\n", rows, t1 - t0, c1 - c0);
	sqlite3_close(dst);
	sqlite3_close(src);
	return 0;
}
