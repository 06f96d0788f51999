/*
 * The ledger (see ledger.h): a file's identity by its content, and its
 * rows, tables files and damage.  The rows are written in the ingest
 * loop's transaction, each chunk's with the data it covers: a run
 * killed at any moment leaves the row where its data ends.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../parsers/records.h"
#include "db.h"
#include "ledger.h"

enum { L_LOOKUP, L_INSERT, L_ADVANCE, L_CLOSE, L_DAMAGE, L_N };

/* FNV-1a, 64 bits: a file's head and tail hashes. */
#define FNV_BASIS	0xcbf29ce484222325ULL
#define FNV_PRIME	0x100000001b3ULL


_Static_assert(L_N == LEDGER_NSTMTS, "struct ledger holds them all");

static const char *const l_sql[L_N] = {
	[L_LOOKUP] = "SELECT file_id, tail_hash, ingested_to FROM files "
	    "WHERE head_hash = ?1 AND head_len = ?2",
	[L_INSERT] = "INSERT INTO files (kind, path, head_len, head_hash, "
	    "tail_hash, ingested_to, size, first_ingest_ns, last_ingest_ns) "
	    "VALUES (?7, ?1, ?2, ?3, 0, 0, ?4, ?5, ?6)",
	/* A chunk of no records names no host: keep the one the file has. */
	[L_ADVANCE] = "UPDATE files SET host_id = coalesce(?, host_id), "
	    "path = ?, size = ?, "
	    "head_len = ?, head_hash = ?, tail_hash = ?, ingested_to = ?, "
	    "records = records + ?, duplicates = duplicates + ?, "
	    "late = late + ?, other_objects = other_objects + ?, "
	    "unknown_items = unknown_items + ?, "
	    "bad_values = bad_values + ?, "
	    "damaged_ranges = damaged_ranges + ?, "
	    "damaged_bytes = damaged_bytes + ?, last_ingest_ns = ? "
	    /* Only from where this ingest found it: see ledger_advance. */
	    "WHERE file_id = ? AND ingested_to = ?",
	[L_CLOSE] = "UPDATE files SET closed = 1 WHERE file_id = ?",
	[L_DAMAGE] = "INSERT INTO damage (file_id, off_from, "
	    "off_to, off_bad, reason) "
	    "VALUES (?,?,?,?,?)",
};

/* Step a statement that returns no rows; reset it. */
static int
step(struct ledger *l, sqlite3_stmt *st, struct ex_err *err)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return db_fail(l->db, err, "store");
	return EXR_OK;
}

static void
short_head(struct ledger *l, uint64_t len)
{
	if (len < LEDGER_HASH_SPAN)
		l->short_heads[len / 64] |= UINT64_C(1) << (len % 64);
}

static int
is_short_head(const struct ledger *l, uint64_t len)
{
	return len < LEDGER_HASH_SPAN &&
	    (l->short_heads[len / 64] >> (len % 64) & 1);
}

int
ledger_prepare(struct ledger *l, sqlite3 *db, struct ex_err *err)
{
	sqlite3_stmt *st;
	int i, rc;

	l->db = db;
	memset(l->short_heads, 0, sizeof(l->short_heads));
	for (i = 0; i < L_N; i++)
		if (db_prepare(db, l_sql[i], &l->st[i], err) != EXR_OK)
			return EXR_DB;
	if (db_prepare(db, "SELECT DISTINCT head_len FROM files WHERE "
	    "head_len < " LEDGER_SPAN_SQL, &st, err) != EXR_OK)
		return EXR_DB;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		short_head(l, (uint64_t)sqlite3_column_int64(st, 0));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? EXR_OK : db_fail(db, err, "ledger");
}

void
ledger_finalize(struct ledger *l)
{
	int i;

	for (i = 0; i < L_N; i++) {
		sqlite3_finalize(l->st[i]);
		l->st[i] = NULL;
	}
}

int
ledger_hash(int fd, uint64_t off, uint64_t len, uint64_t *hash,
    struct ex_err *err)
{
	uint8_t buf[LEDGER_HASH_SPAN];
	uint64_t h = FNV_BASIS;
	ssize_t n;
	size_t i;

	while (len > 0) {
		size_t want = len < sizeof(buf) ? (size_t)len : sizeof(buf);

		n = pread(fd, buf, want, (off_t)off);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			return ex_fail(err, EXR_IO, off, "%s",
			    n == 0 ? "file shrank while being read" :
			    strerror(errno));
		for (i = 0; i < (size_t)n; i++) {
			h ^= buf[i];
			h *= FNV_PRIME;
		}
		off += (uint64_t)n;
		len -= (uint64_t)n;
	}
	*hash = h;
	return EXR_OK;
}

/* A row whose head is the file's: tried newest offset first. */
struct candidate {
	int64_t		 file_id;
	uint64_t	 tail_hash, to;
};

/* A lookup's candidates (a few: one a copy of the file's start). */
struct candidates {
	struct candidate *a;
	size_t		 n, cap;
};

static int
cmp_candidate(const void *a, const void *b)
{
	const struct candidate *x = a, *y = b;

	if (x->to != y->to)
		return x->to > y->to ? -1 : 1;
	return x->file_id < y->file_id ? -1 : x->file_id > y->file_id;
}

/* The rows with head (len bytes, hash) that fit a file of size bytes. */
static int
probe(struct ledger *l, uint64_t len, uint64_t hash, uint64_t size,
    struct candidates *c, struct ex_err *err)
{
	sqlite3_stmt *st = l->st[L_LOOKUP];
	struct candidate *a;
	int rc;

	sqlite3_bind_int64(st, 1, (int64_t)hash);
	sqlite3_bind_int64(st, 2, (int64_t)len);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		uint64_t to = (uint64_t)sqlite3_column_int64(st, 2);

		if (to > size)
			continue;	/* truncated, or another file */
		if (c->n == c->cap) {
			c->cap = c->cap != 0 ? 2 * c->cap : 8;
			if ((a = realloc(c->a, c->cap * sizeof(*a))) == NULL) {
				sqlite3_reset(st);
				return ex_fail(err, EXR_NOMEM, 0, "out of memory");
			}
			c->a = a;
		}
		c->a[c->n].file_id = sqlite3_column_int64(st, 0);
		c->a[c->n].tail_hash = (uint64_t)sqlite3_column_int64(st, 1);
		c->a[c->n++].to = to;
	}
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? EXR_OK : db_fail(l->db, err, "ledger");
}

int
ledger_lookup(struct ledger *l, int fd, uint64_t size,
    struct ledger_entry *e, struct ex_err *err)
{
	uint8_t buf[LEDGER_HASH_SPAN];
	struct candidates c = { NULL, 0, 0 };
	uint64_t h = FNV_BASIS, span, tail;
	size_t i;
	ssize_t got;
	int rc = EXR_OK;

	memset(e, 0, sizeof(*e));
	e->size = size;
	e->head_len = size < LEDGER_HASH_SPAN ? size : LEDGER_HASH_SPAN;
	/*
	 * The head, read once: the hash of every prefix is on the way
	 * (FNV-1a runs byte by byte), so a row of the file when it was
	 * shorter, whose head was all of it then, is found by its length
	 * and that prefix's hash, with no read more.
	 */
	do
		got = pread(fd, buf, (size_t)e->head_len, 0);
	while (got == -1 && errno == EINTR);
	if (got != (ssize_t)e->head_len)
		return ex_fail(err, EXR_IO, 0, "%s", got >= 0 ? "file shrank "
		    "while being read" : strerror(errno));
	for (i = 0; i < e->head_len && rc == EXR_OK; i++) {
		if (is_short_head(l, i))
			rc = probe(l, i, h, size, &c, err);
		h = (h ^ buf[i]) * FNV_PRIME;
	}
	e->head_hash = h;
	if (rc == EXR_OK)
		rc = probe(l, e->head_len, h, size, &c, err);
	/* Then the same file, or one replaced: the same start only. */
	if (c.n > 1)
		qsort(c.a, c.n, sizeof(c.a[0]), cmp_candidate);
	for (i = 0; i < c.n && rc == EXR_OK; i++) {
		span = c.a[i].to < LEDGER_HASH_SPAN ? c.a[i].to :
		    LEDGER_HASH_SPAN;
		if ((rc = ledger_hash(fd, c.a[i].to - span, span, &tail,
		    err)) == EXR_OK && tail == c.a[i].tail_hash) {
			e->file_id = c.a[i].file_id;
			e->ingested_to = c.a[i].to;
			break;
		}
	}
	free(c.a);
	return rc;
}

int
ledger_insert(struct ledger *l, const struct ledger_entry *e,
    const char *kind, const char *path, int64_t *file_id,
    struct ex_err *err)
{
	sqlite3_stmt *st = l->st[L_INSERT];
	uint64_t t = db_now_ns();
	int rc;

	sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (int64_t)e->head_len);
	sqlite3_bind_int64(st, 3, (int64_t)e->head_hash);
	sqlite3_bind_int64(st, 4, (int64_t)e->size);
	sqlite3_bind_int64(st, 5, (int64_t)t);
	sqlite3_bind_int64(st, 6, (int64_t)t);
	sqlite3_bind_text(st, 7, kind, -1, SQLITE_STATIC);
	if ((rc = step(l, st, err)) != EXR_OK)
		return rc;
	*file_id = sqlite3_last_insert_rowid(l->db);
	short_head(l, e->head_len);
	return EXR_OK;
}

int
ledger_advance(struct ledger *l, const struct ledger_chunk *c,
    struct ex_err *err)
{
	sqlite3_stmt *st = l->st[L_ADVANCE];
	uint64_t span = c->upto < LEDGER_HASH_SPAN ? c->upto : LEDGER_HASH_SPAN;
	uint64_t tail, head, head_len;
	int rc;

	head_len = c->size < LEDGER_HASH_SPAN ? c->size : LEDGER_HASH_SPAN;
	if ((rc = ledger_hash(c->fd, c->upto - span, span, &tail, err)) !=
	    EXR_OK ||
	    (rc = ledger_hash(c->fd, 0, head_len, &head, err)) != EXR_OK)
		return rc;
	if (c->host_id > 0)
		sqlite3_bind_int64(st, 1, c->host_id);
	else
		sqlite3_bind_null(st, 1);
	sqlite3_bind_text(st, 2, c->path, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, (int64_t)c->size);
	sqlite3_bind_int64(st, 4, (int64_t)head_len);
	sqlite3_bind_int64(st, 5, (int64_t)head);
	sqlite3_bind_int64(st, 6, (int64_t)tail);
	sqlite3_bind_int64(st, 7, (int64_t)c->upto);
	sqlite3_bind_int64(st, 8, (int64_t)c->records);
	sqlite3_bind_int64(st, 9, (int64_t)c->duplicates);
	sqlite3_bind_int64(st, 10, (int64_t)c->late);
	sqlite3_bind_int64(st, 11, (int64_t)c->other_objects);
	sqlite3_bind_int64(st, 12, (int64_t)c->unknown_items);
	sqlite3_bind_int64(st, 13, (int64_t)c->bad_values);
	sqlite3_bind_int64(st, 14, (int64_t)c->damaged_ranges);
	sqlite3_bind_int64(st, 15, (int64_t)c->damaged_bytes);
	sqlite3_bind_int64(st, 16, (int64_t)db_now_ns());
	sqlite3_bind_int64(st, 17, c->file_id);
	sqlite3_bind_int64(st, 18, (int64_t)c->from);
	if ((rc = step(l, st, err)) != EXR_OK)
		return rc;
	short_head(l, head_len);
	/*
	 * A range of a file is entered once: if the ledger no longer says
	 * what this ingest read at its start, someone else has stored
	 * this range (the writer's lock makes that impossible; a lock
	 * that does not work, as on some network file systems, does not).
	 */
	if (sqlite3_changes(l->db) != 1)
		return ex_fail(err, EXR_DB, c->upto, "the ledger of this file "
		    "moved while it was read (another writer without the "
		    "lock?): bytes %llu-%llu not stored",
		    (unsigned long long)c->from, (unsigned long long)c->upto);
	return EXR_OK;
}

int
ledger_mark_closed(struct ledger *l, int64_t file_id, struct ex_err *err)
{
	sqlite3_stmt *st = l->st[L_CLOSE];

	sqlite3_bind_int64(st, 1, file_id);
	return step(l, st, err);
}

int
ledger_damage(struct ledger *l, int64_t file_id, uint64_t from, uint64_t to,
    const struct ex_err *e, struct ex_err *err)
{
	sqlite3_stmt *st = l->st[L_DAMAGE];

	sqlite3_bind_int64(st, 1, file_id);
	sqlite3_bind_int64(st, 2, (int64_t)from);
	sqlite3_bind_int64(st, 3, (int64_t)to);
	sqlite3_bind_int64(st, 4, (int64_t)e->off);
	sqlite3_bind_text(st, 5, e->reason, -1, SQLITE_TRANSIENT);
	return step(l, st, err);
}

int
ledger_damage_stored(struct ledger *l, int64_t file_id, uint64_t from,
    uint64_t to)
{
	sqlite3_stmt *st;
	int found;

	if (db_prepare(l->db, "SELECT 1 FROM damage WHERE file_id = ? "
	    "AND off_from = ? AND off_to = ?", &st, NULL) != EXR_OK)
		return 0;
	sqlite3_bind_int64(st, 1, file_id);
	sqlite3_bind_int64(st, 2, (int64_t)from);
	sqlite3_bind_int64(st, 3, (int64_t)to);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}
