/*
 * The ledger (see ledger.h): a file's identity by its content, and its
 * rows, tables files and damage.  The rows are written in the ingest
 * loop's transaction, each chunk's with the data it covers: a run
 * killed at any moment leaves the row where its data ends.
 */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../parsers/records.h"
#include "db.h"
#include "ledger.h"

enum { L_LOOKUP, L_SMALL, L_VERSION, L_INSERT, L_ADVANCE, L_CLOSE, L_DAMAGE,
    L_N };

_Static_assert(L_N == LEDGER_NSTMTS, "struct ledger holds them all");

/* FNV-1a, 64 bits. */
#define FNV_BASIS	0xcbf29ce484222325ULL
#define FNV_PRIME	0x100000001b3ULL

static const char *const l_sql[L_N] = {
	/* By the index on head_hash: the rows of one head. */
	[L_LOOKUP] = "SELECT file_id, tail_hash, ingested_to FROM files "
	    "WHERE head_hash = ?1 AND head_len = ?2 "
	    "ORDER BY ingested_to DESC, file_id",
	[L_SMALL] = "SELECT DISTINCT head_len FROM files WHERE head_len < ?",
	[L_VERSION] = "PRAGMA data_version",
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

int
ledger_prepare(struct ledger *l, sqlite3 *db, struct ex_err *err)
{
	int i;

	l->db = db;
	l->small_loaded = 0;
	for (i = 0; i < L_N; i++)
		if (db_prepare(db, l_sql[i], &l->st[i], err) != EXR_OK)
			return EXR_DB;
	return EXR_OK;
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

/* Read the first n bytes of fd into l->head and hash every prefix. */
static int
read_head(struct ledger *l, int fd, size_t n, struct ex_err *err)
{
	uint64_t h = FNV_BASIS;
	size_t got = 0, i;
	ssize_t r;

	while (got < n) {
		r = pread(fd, l->head + got, n - got, (off_t)got);
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)
			return ex_fail(err, EXR_IO, got, "%s",
			    r == 0 ? "file shrank while being read" :
			    strerror(errno));
		got += (size_t)r;
	}
	l->prefix[0] = h;
	for (i = 0; i < n; i++) {
		h ^= l->head[i];
		h *= FNV_PRIME;
		l->prefix[i + 1] = h;
	}
	return EXR_OK;
}

/*
 * The set of short head lengths, read again if another connection has
 * committed since it was read (the writer's lock should make that
 * impossible; a lock that does not work must not make a file new).
 */
static int
small_lengths(struct ledger *l, struct ex_err *err)
{
	sqlite3_stmt *st = l->st[L_VERSION];
	int64_t v = 0;
	int rc;

	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (rc != SQLITE_ROW)
		return db_fail(l->db, err, "ledger");
	if (l->small_loaded && v == l->data_version)
		return EXR_OK;
	st = l->st[L_SMALL];
	memset(l->small, 0, sizeof(l->small));
	sqlite3_bind_int64(st, 1, LEDGER_HASH_SPAN);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t len = sqlite3_column_int64(st, 0);

		if (len >= 0 && len < LEDGER_HASH_SPAN)
			l->small[len / 8] |= (uint8_t)(1u << (len % 8));
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return db_fail(l->db, err, "ledger");
	l->small_loaded = 1;
	l->data_version = v;
	return EXR_OK;
}

/* A row now has head length len: lookups must probe it. */
static void
small_note(struct ledger *l, uint64_t len)
{
	if (len < LEDGER_HASH_SPAN)
		l->small[len / 8] |= (uint8_t)(1u << (len % 8));
}

/*
 * The rows whose first len bytes are the file's (e->size bytes, its
 * head in l->head): the first one whose tail matches too, in the order
 * ingested_to descending, file_id, if it comes before e's best so far,
 * becomes it.
 */
static int
probe(struct ledger *l, int fd, uint64_t len, struct ledger_entry *e,
    int *found, struct ex_err *err)
{
	sqlite3_stmt *st = l->st[L_LOOKUP];
	uint64_t h;
	int rc;

	sqlite3_bind_int64(st, 1, (int64_t)l->prefix[len]);
	sqlite3_bind_int64(st, 2, (int64_t)len);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		uint64_t thash = (uint64_t)sqlite3_column_int64(st, 1);
		uint64_t to = (uint64_t)sqlite3_column_int64(st, 2);

		if (to > e->size)
			continue;	/* truncated, or another file */
		if (*found && (to < e->ingested_to ||
		    (to == e->ingested_to && id > e->file_id)))
			break;		/* the rest come after the best */
		/* The 4 KiB before the offset: within the head, or read. */
		if (to <= e->head_len)
			h = l->prefix[to];
		else if (ledger_hash(fd, to - LEDGER_HASH_SPAN,
		    LEDGER_HASH_SPAN, &h, err) != EXR_OK) {
			sqlite3_reset(st);
			return err != NULL ? err->code : EXR_IO;
		}
		if (h != thash)
			continue;	/* replaced: the same start, not the rest */
		e->file_id = id;
		e->ingested_to = to;
		*found = 1;
		break;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_fail(l->db, err, "ledger");
	return EXR_OK;
}

/*
 * A row matches when its head_len bytes are the file's first (hashed
 * alike), its offset is within the file and its tail hash is the
 * file's there; the one read furthest wins (then the oldest).  Such a
 * row's head_len is the file's own (min(size, 4 KiB)) or, for a row
 * entered when its file was shorter, a length under 4 KiB: every row
 * with the file's own head is probed, then each shorter length the
 * ledger holds, longest first, until none can be read further than the
 * best (a row's offset is at most its head_len under 4 KiB).  A file
 * with nothing new is found by its own head, with no second probe; no
 * row is read but those of a probed head, nor any file but this one.
 */
int
ledger_lookup(struct ledger *l, int fd, uint64_t size,
    struct ledger_entry *e, struct ex_err *err)
{
	uint64_t len;
	int found = 0, rc;

	memset(e, 0, sizeof(*e));
	e->size = size;
	e->head_len = size < LEDGER_HASH_SPAN ? size : LEDGER_HASH_SPAN;
	if ((rc = read_head(l, fd, (size_t)e->head_len, err)) != EXR_OK)
		return rc;
	e->head_hash = l->prefix[e->head_len];
	if ((rc = probe(l, fd, e->head_len, e, &found, err)) != EXR_OK)
		return rc;
	if (found && e->ingested_to >= e->head_len)
		return EXR_OK;	/* no shorter head can be read further */
	if ((rc = small_lengths(l, err)) != EXR_OK)
		return rc;
	for (len = e->head_len; len-- > 0;) {
		if (found && len < e->ingested_to)
			break;
		if ((l->small[len / 8] & (1u << (len % 8))) != 0 &&
		    (rc = probe(l, fd, len, e, &found, err)) != EXR_OK)
			return rc;
	}
	return EXR_OK;
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
	small_note(l, e->head_len);
	*file_id = sqlite3_last_insert_rowid(l->db);
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
	/*
	 * A range of a file is entered once: if the ledger no longer says
	 * what this ingest read at its start, someone else has stored
	 * this range (the writer's lock makes that impossible; a lock
	 * that does not work, as on some network file systems, does not).
	 */
	if (sqlite3_changes(l->db) == 1)
		small_note(l, head_len);
	else
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
