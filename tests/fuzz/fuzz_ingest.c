/*
 * libFuzzer target: the whole ingest path ("make fuzz").
 *
 * Each input is a log (exacct, pacct or a metric-provider stream, told
 * apart by content as ingest does) ingested into an in-memory database,
 * with its records written as .txt and .csv lines (to /dev/null).  The
 * oracle is exactly once: ingesting the same bytes again must leave
 * every table as the first ingest left it.
 * Where the first ingest read to the end, the second must find in the
 * ledger that it did and change no row at all; where it left a tail for
 * the next run, the second reads that tail again, and the tables are
 * compared as a canonical dump (every row of every table, sorted), less
 * the three columns that say when and under which name a file was read
 * (files.path, first_ingest_ns, last_ingest_ns).  One input in eight is
 * also read as a log that grew between two runs (a prefix, then all of
 * it), which must give the same tables as reading it at once (but for
 * where and why a damaged range was found bad).  And
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
 * The size chooses the records per transaction (1, 3 or many, so chunk
 * commits fall everywhere), the last byte the metric provider a stream
 * is read as, and idle_rows; one input in three is read as a closed log
 * (as run reads one: damage at its end stored, the log done).
 */
#include <sys/mman.h>

#include <sqlite3.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../parsers/sniff.h"
#include "../../parsers/source.h"
#include "../../parsers/stream.h"
#include "../../reports/csv.h"
#include "../../reports/text.h"
#include "../../store/ingest.h"
#include "sqlite_pool.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_TABLES	64
#define MAX_COLS	64	/* procs has 48 (schema 16) */

struct table {
	char		 name[64];
	sqlite3_stmt	*select;	/* SELECT * */
	sqlite3_stmt	*delete;	/* DELETE FROM */
	int		 ncols;
	int		 skip[MAX_COLS];	/* 1: left out of the dump */
	int		 how[MAX_COLS];	/* 1: damage.off_bad, reason */
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
static int fd = -1;

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

/* A tag and a signed decimal, as putf(b, " %c%lld", tag, v) but without
 * printf, which was a third of the dump's time. */
static void
put_int(struct buf *b, char tag, int64_t v)
{
	char tmp[24], *p = tmp + sizeof(tmp);
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;

	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		*--p = '-';
	*--p = tag;
	*--p = ' ';
	put(b, p, (size_t)(tmp + sizeof(tmp) - p));
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
		if (t->ncols > MAX_COLS)
			fail(t->name, "too many columns");
		for (i = 0; i < t->ncols; i++) {
			const char *c = sqlite3_column_name(t->select, i);

			t->how[i] = strcmp(t->name, "damage") == 0 &&
			    (strcmp(c, "off_bad") == 0 ||
			    strcmp(c, "reason") == 0);

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

/*
 * Every row of every table, sorted within its table, into out; without
 * where and why the reader found each damaged range bad if !how: that
 * describes the file as the run saw it (an object that ran past the end
 * of a shorter file, "N bytes left"), which differs between a log read
 * at once and one read as it grew.
 */
static void
dump(struct buf *out, int how)
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

				if (t->skip[c] || (!how && t->how[c]))
					continue;
				switch (sqlite3_column_type(st, c)) {
				case SQLITE_INTEGER:
					put_int(&rows, 'i',
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
					put_int(&rows, 's', len);
					put(&rows, ":", 1);
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

/* Two dumps must be the same; if not, show both and stop. */
static void
same(const struct buf *a, const struct buf *b, const char *what)
{
	if (a->len == b->len && memcmp(a->p, b->p, a->len) == 0)
		return;
	fprintf(stderr, "fuzz_ingest: %s\n--- expected:\n", what);
	fwrite(a->p, 1, a->len, stderr);
	fprintf(stderr, "--- got:\n");
	fwrite(b->p, 1, b->len, stderr);
	abort();
}

/* What ingest takes the first n bytes at data for. */
static enum input_kind
sniff(const uint8_t *data, size_t n)
{
	struct source src;
	enum input_kind kind;

	source_init_mem(&src, "fuzz", data, n);
	(void)sniff_source(&src, &kind, NULL);
	return kind;
}

/* Is a header problem (an empty range at offset 0) stored? */
static int
header_damage(sqlite3 *db)
{
	static sqlite3_stmt *st;
	int n;

	if (st == NULL && sqlite3_prepare_v2(db, "SELECT count(*) FROM "
	    "damage WHERE off_from = 0 AND off_to = 0", -1, &st, NULL) !=
	    SQLITE_OK)
		fail("header_damage", sqlite3_errmsg(db));
	n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_reset(st);
	return n > 0;
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

	if (sqlite_pool_install() != SQLITE_OK)
		fail("sqlite_pool_install", "refused");
	if ((devnull = fopen("/dev/null", "w")) == NULL)
		abort();
	if ((fd = memfd_create("fuzz_ingest", 0)) == -1)
		abort();
	if (store_open(&store, ":memory:", 0, &err) != EXR_OK)
		fail("store_open", err.reason);
	/* Debian builds SQLite to zero every page it frees, which is most
	 * of what emptying the tables between inputs costs. */
	if (sqlite3_exec(store_db(store), "PRAGMA secure_delete = 0", NULL,
	    NULL, NULL) != SQLITE_OK)
		fail("secure_delete", sqlite3_errmsg(store_db(store)));
	/* A small read window: the 256 KiB that suits a year of logs
	 * would cost each input an allocation of that size, twice. */
	source_test_max_read = 8192;
	setup_tables(store_db(store));
}

/* Ingest the bytes held in the memfd; the result code. */
static int
ingest(const struct ingest_opts *o, struct ingest_stats *st)
{
	struct ex_err err = { 0 };
	char path[64];
	int rc;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
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
	 * ledger's head and tail): an eighth of the inputs, and an eighth
	 * commit every third record. */
	static const uint64_t chunks[8] = { 1, 3, 1000000, 1000000, 1000000,
	    1000000, 1000000, 1000000 };
	static struct buf first, second;
	struct ingest_opts o;
	struct ingest_stats st;
	sqlite3 *db;
	sqlite3_int64 changes;
	enum input_kind kind;
	size_t cut;
	uint8_t last;
	int reread, grown;

	if (store == NULL)
		setup();
	db = store_db(store);
	if (size == 0)
		return 0;	/* ingest refuses an empty file up front */
	if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) !=
	    (ssize_t)size)
		abort();
	last = data[size - 1];
	memset(&o, 0, sizeof(o));
	o.chunk_records = chunks[size & 7];
	o.provider = prov[(last >> 2) % 6];
	o.idle_always = (last >> 5) & 1;
	o.closed = size % 3 == 0;	/* what run reads: a log done with */
	o.heartbeat_ns = 3600 * 1000000000ull;
	o.host = "fuzzhost";
	o.carbon_intensity = -1;
	o.on_record = on_record;
	o.on_sample = on_sample;

	(void)ingest(&o, &st);
	/*
	 * Read to the end, the second ingest must find the ledger says
	 * so and write nothing (no row changed at all).  A tail left for
	 * the next run is read again: then the tables must come out as
	 * they were.
	 */
	reread = st.to < size;
	grown = size > 1 && (last >> 5) == 7 && !o.closed;
	cut = size > 1 ? 1 + ((size_t)data[0] << 8 | data[size / 2]) %
	    (size - 1) : 0;
	if (reread)
		dump(&first, 1);
	changes = sqlite3_total_changes64(db);
	(void)ingest(&o, &st);
	if (!reread && (!st.already || sqlite3_total_changes64(db) !=
	    changes))
		fail("second ingest", "the ledger did not know the file");
	if (reread) {
		dump(&second, 1);
		same(&first, &second, "a second ingest of the same bytes "
		    "changed the database");
	}
	if (st.records != 0 || st.rows != 0)
		fail("second ingest", "read records again");

	/*
	 * One input in eight is also read as a log that grew between two
	 * runs: its first `cut` bytes, then all of it (the second run
	 * reads on from the ledger's offset).  The tables must come out
	 * as one ingest of the whole left them: what a run reads of a
	 * growing log, and where it stops, must not change the result.
	 */
	/*
	 * Known, and reported (tests/fuzz/README.md): each run sniffs the
	 * file anew, and a prefix may pass for another format than the
	 * whole (one good pacct record, then garbage): the runs then read
	 * it as two formats.  And a stream's sampling interval is the
	 * median of its latest gaps, of which a later run gets only the
	 * stored interval back: it may come out otherwise.  Neither is
	 * tried here.
	 */
	kind = sniff(data, size);
	if (grown && (kind == INPUT_STREAM || kind != sniff(data, cut)))
		grown = 0;
	/*
	 * By design, not tried either: zeros at the end of a log are what
	 * a crash left (no writer writes them), stored as damage and read
	 * past, not left for the next run as a record being written is.
	 */
	if (grown && data[cut - 1] == 0)
		grown = 0;
	if (grown) {
		dump(&first, 0);
		empty(db);
		if (ftruncate(fd, (off_t)cut) != 0)
			abort();
		(void)ingest(&o, &st);
		/*
		 * Known, and left to the header checks: a prefix too
		 * short for its header is stored as a
		 * header problem at offset 0, not left for the next run.
		 */
		if (header_damage(db)) {
			empty(db);
			return 0;
		}
		if (pwrite(fd, data + cut, size - cut, (off_t)cut) !=
		    (ssize_t)(size - cut))
			abort();
		(void)ingest(&o, &st);
		dump(&second, 0);
		same(&first, &second, "read as a log that grew, the bytes "
		    "gave another database than read at once");
	}
	empty(db);
	return 0;
}
