/*
 * libFuzzer target: the whole ingest path ("make fuzz").
 *
 * Each input is a log (exacct, pacct or a metric-provider stream, told
 * apart by content as ingest does) ingested into an in-memory database,
 * with its records written as .txt and .csv lines (to /dev/null).  The
 * oracle is exactly once: ingesting the same bytes again, under another
 * name (a copy), must leave every table as the first ingest left it.
 * Where the first ingest read to the end, the second must find in the
 * ledger that it did and change no row at all; where it left a tail for
 * the next run, the second reads that tail again, and the tables are
 * compared as a canonical dump (every row of every table, sorted), less
 * the three columns that say when and under which name a file was read
 * (files.path, first_ingest_ns, last_ingest_ns).  And
 * ingest must answer OK or DAMAGED: a constraint that fails (EXR_DB) or
 * any other error on a well-formed memory file is a bug.
 *
 * The input lives in a memfd, written once per input: ingest needs a
 * regular file (it checks with fstat and hashes the ledger's head and
 * tail through the descriptor), and a memfd is one that never touches a
 * file system.  The store is opened once; between inputs its tables are
 * emptied and it forgets its live state (store_forget), which costs far
 * less than building the schema again.
 *
 * The last byte chooses the options: records per transaction (1, 3 or
 * many, so chunk commits fall everywhere), the metric provider a stream
 * is read as, and idle_rows.
 */
#include <sys/mman.h>

#include <sqlite3.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../parsers/source.h"
#include "../../parsers/stream.h"
#include "../../reports/csv.h"
#include "../../reports/text.h"
#include "../../store/ingest.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_TABLES	64

struct table {
	char		 name[64];
	sqlite3_stmt	*select;	/* SELECT * */
	sqlite3_stmt	*delete;	/* DELETE FROM */
	int		 ncols;
	int		 skip[32];	/* 1: a column left out of the dump */
};

/* A growing byte buffer. */
struct buf {
	char		*p;
	size_t		 len, cap;
};

/* Where a row's text starts and ends in the dump being built. */
struct span {
	const char	*base;
	size_t		 off, len;
};

static struct store *store;
static struct table tables[MAX_TABLES];
static int ntables;
static FILE *devnull;
static int fds[2] = { -1, -1 };

static void
fail(const char *what, const char *why)
{
	fprintf(stderr, "fuzz_ingest: %s: %s\n", what, why);
	abort();
}

static void
put(struct buf *b, const void *p, size_t n)
{
	if (n == 0)
		return;		/* p may be NULL (an empty blob) */
	if (b->cap - b->len < n) {
		size_t ncap = b->cap == 0 ? 4096 : b->cap;

		while (ncap - b->len < n)
			ncap *= 2;
		if ((b->p = realloc(b->p, ncap)) == NULL)
			abort();
		b->cap = ncap;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void
putf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
putf(struct buf *b, const char *fmt, ...)
{
	char tmp[64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	put(b, tmp, (size_t)n);
}

/* Every user table, its statements, and the columns left out. */
static void
setup_tables(sqlite3 *db)
{
	sqlite3_stmt *st;
	char sql[160];
	int i;

	if (sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE "
	    "type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name", -1,
	    &st, NULL) != SQLITE_OK)
		fail("tables", sqlite3_errmsg(db));
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct table *t = &tables[ntables++];

		if (ntables == MAX_TABLES)
			fail("tables", "too many");
		snprintf(t->name, sizeof(t->name), "%s",
		    (const char *)sqlite3_column_text(st, 0));
		snprintf(sql, sizeof(sql), "SELECT * FROM \"%s\"", t->name);
		if (sqlite3_prepare_v2(db, sql, -1, &t->select, NULL) !=
		    SQLITE_OK)
			fail(sql, sqlite3_errmsg(db));
		snprintf(sql, sizeof(sql), "DELETE FROM \"%s\"", t->name);
		if (sqlite3_prepare_v2(db, sql, -1, &t->delete, NULL) !=
		    SQLITE_OK)
			fail(sql, sqlite3_errmsg(db));
		t->ncols = sqlite3_column_count(t->select);
		if (t->ncols > 32)
			fail(t->name, "too many columns");
		for (i = 0; i < t->ncols; i++) {
			const char *c = sqlite3_column_name(t->select, i);

			t->skip[i] = strcmp(t->name, "files") == 0 &&
			    (strcmp(c, "path") == 0 ||
			    strcmp(c, "first_ingest_ns") == 0 ||
			    strcmp(c, "last_ingest_ns") == 0);
		}
	}
	sqlite3_finalize(st);
	if (ntables == 0)
		fail("tables", "none");
}

static int
span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->base + x->off, y->base + y->off, n);

	return c != 0 ? c : (x->len > y->len) - (x->len < y->len);
}

/* Every row of every table, sorted within its table, into out. */
static void
dump(struct buf *out)
{
	static struct buf rows;
	static struct span *spans;
	static size_t capspans;
	int i, c;

	out->len = 0;
	for (i = 0; i < ntables; i++) {
		struct table *t = &tables[i];
		size_t n = 0, k;

		rows.len = 0;
		while (sqlite3_step(t->select) == SQLITE_ROW) {
			size_t start = rows.len;

			for (c = 0; c < t->ncols; c++) {
				sqlite3_stmt *st = t->select;
				int len;

				if (t->skip[c])
					continue;
				switch (sqlite3_column_type(st, c)) {
				case SQLITE_INTEGER:
					putf(&rows, " i%lld", (long long)
					    sqlite3_column_int64(st, c));
					break;
				case SQLITE_FLOAT:
					putf(&rows, " f%.17g",
					    sqlite3_column_double(st, c));
					break;
				case SQLITE_NULL:
					put(&rows, " N", 2);
					break;
				default:	/* text, blob: length, bytes */
					len = sqlite3_column_bytes(st, c);
					putf(&rows, " s%d:", len);
					put(&rows, sqlite3_column_blob(st, c),
					    (size_t)len);
					break;
				}
			}
			put(&rows, "\n", 1);
			if (n == capspans) {
				capspans = capspans == 0 ? 256 : capspans * 2;
				if ((spans = reallocarray(spans, capspans,
				    sizeof(*spans))) == NULL)
					abort();
			}
			spans[n].off = start;
			spans[n].len = rows.len - start;
			n++;
		}
		sqlite3_reset(t->select);
		for (k = 0; k < n; k++)
			spans[k].base = rows.p;
		if (n > 1)
			qsort(spans, n, sizeof(*spans), span_cmp);
		putf(out, "== %s %zu\n", t->name, n);
		for (k = 0; k < n; k++)
			put(out, rows.p + spans[k].off, spans[k].len);
	}
}

/* Empty every table, and the store's memory of them. */
static void
empty(sqlite3 *db)
{
	int i;

	if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
		fail("begin", sqlite3_errmsg(db));
	for (i = 0; i < ntables; i++) {
		if (sqlite3_step(tables[i].delete) != SQLITE_DONE)
			fail(tables[i].name, sqlite3_errmsg(db));
		sqlite3_reset(tables[i].delete);
	}
	if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		fail("commit", sqlite3_errmsg(db));
	store_forget(store);
}

/* Records and samples as ingest --outdir writes them. */
static int
on_record(void *arg, const char *host, enum rec_kind kind, const void *rec)
{
	(void)arg;
	switch (kind) {
	case REC_PROC:
		text_proc(devnull, rec);
		csv_proc(devnull, host, rec);
		break;
	case REC_TASK:
		text_task(devnull, rec);
		csv_task(devnull, host, rec);
		break;
	default:
		text_flow(devnull, rec);
		csv_flow(devnull, host, rec);
		break;
	}
	return EXR_OK;
}

static int
on_sample(void *arg, const char *host, const struct stream_provider *p,
    const struct stream_line *ln, const struct stream_sample *x)
{
	(void)arg;
	text_sample(devnull, p, ln, x);
	csv_sample(devnull, host, p, ln, x);
	return EXR_OK;
}

static void
setup(void)
{
	struct ex_err err = { 0 };
	int i;

	if ((devnull = fopen("/dev/null", "w")) == NULL)
		abort();
	for (i = 0; i < 2; i++)
		if ((fds[i] = memfd_create("fuzz_ingest", 0)) == -1)
			abort();
	if (store_open(&store, ":memory:", &err) != EXR_OK)
		fail("store_open", err.reason);
	/* A small read window: the 256 KiB that suits a year of logs
	 * would cost each input an allocation of that size, twice. */
	source_test_max_read = 8192;
	setup_tables(store_db(store));
}

/* Ingest the bytes held in fds[which]; the result code. */
static int
ingest(int which, const struct ingest_opts *o, struct ingest_stats *st)
{
	struct ex_err err = { 0 };
	char path[64];
	int rc;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fds[which]);
	rc = ingest_file(store, path, o, st, &err);
	if (rc != EXR_OK && rc != EXR_DAMAGED)
		fail(ex_strcode(rc), err.reason);
	return rc;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const prov[] = {
		"cpu_utilization_procfs_system",
		"cpu_utilization_mach_system",
		"cpu_energy_rapl_msr_component",
		"psu_energy_ac_mcp_machine",
		"psu_energy_ac_ipmi_machine",
		"memory_used_procfs_system",
	};
	/* Commits after every record cost the most (each hashes the
	 * ledger's head and tail): a quarter of the inputs. */
	static const uint64_t chunks[] = { 1, 3, 1000000, 1000000 };
	static struct buf first, second;
	struct ingest_opts o;
	struct ingest_stats st;
	sqlite3 *db;
	sqlite3_int64 changes;
	uint8_t last;
	int i, reread;

	if (store == NULL)
		setup();
	db = store_db(store);
	if (size == 0)
		return 0;	/* ingest refuses an empty file up front */
	for (i = 0; i < 2; i++)
		if (ftruncate(fds[i], 0) != 0 ||
		    pwrite(fds[i], data, size, 0) != (ssize_t)size)
			abort();
	last = data[size - 1];
	memset(&o, 0, sizeof(o));
	o.chunk_records = chunks[last & 3];
	o.provider = prov[(last >> 2) % 6];
	o.idle_always = (last >> 5) & 1;
	o.heartbeat_ns = 3600 * 1000000000ull;
	o.host = "fuzzhost";
	o.carbon_intensity = -1;
	o.on_record = on_record;
	o.on_sample = on_sample;

	(void)ingest(0, &o, &st);
	/*
	 * Read to the end, the second ingest must find the ledger says
	 * so and write nothing (no row changed at all).  A tail left for
	 * the next run is read again: then the tables must come out as
	 * they were.
	 */
	reread = st.to < size;
	if (reread)
		dump(&first);
	changes = sqlite3_total_changes64(db);
	(void)ingest(1, &o, &st);
	if (!reread && (!st.already || sqlite3_total_changes64(db) !=
	    changes))
		fail("second ingest", "the ledger did not know the file");
	if (reread)
		dump(&second);
	if (reread && (first.len != second.len ||
	    memcmp(first.p, second.p, first.len) != 0)) {
		fprintf(stderr, "fuzz_ingest: a second ingest of the same "
		    "bytes changed the database\n--- after the first:\n");
		fwrite(first.p, 1, first.len, stderr);
		fprintf(stderr, "--- after the second:\n");
		fwrite(second.p, 1, second.len, stderr);
		abort();
	}
	if (st.records != 0 || st.rows != 0)
		fail("second ingest", "read records again");
	empty(db);
	return 0;
}
