/*
 * The ledger's file identity (see ledger.h).  The rows themselves are
 * written by ingest.c, in the same transaction as the data they cover.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "ledger.h"

int
ledger_hash(int fd, uint64_t off, uint64_t len, uint64_t *hash,
    struct ex_err *err)
{
	uint8_t buf[LEDGER_HASH_SPAN];
	uint64_t h = 0xcbf29ce484222325ULL;
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
			h *= 0x100000001b3ULL;
		}
		off += (uint64_t)n;
		len -= (uint64_t)n;
	}
	*hash = h;
	return EXR_OK;
}

int
ledger_lookup(sqlite3 *db, sqlite3_stmt **stp, int fd, uint64_t size,
    struct ledger_entry *e, struct ex_err *err)
{
	static const char sql[] =
	    "SELECT file_id, head_len, head_hash, tail_hash, ingested_to "
	    "FROM files WHERE head_hash = ?1 OR head_len < ?2 "
	    "ORDER BY ingested_to DESC, file_id";
	sqlite3_stmt *st;
	uint64_t head, h;
	int rc;

	memset(e, 0, sizeof(*e));
	e->size = size;
	e->head_len = size < LEDGER_HASH_SPAN ? size : LEDGER_HASH_SPAN;
	if ((rc = ledger_hash(fd, 0, e->head_len, &head, err)) != EXR_OK)
		return rc;
	e->head_hash = head;
	if (*stp == NULL && db_prepare(db, sql, stp, err) != EXR_OK)
		return EXR_DB;
	st = *stp;
	sqlite3_bind_int64(st, 1, (int64_t)head);
	sqlite3_bind_int64(st, 2, LEDGER_HASH_SPAN);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		uint64_t hlen = (uint64_t)sqlite3_column_int64(st, 1);
		uint64_t hhash = (uint64_t)sqlite3_column_int64(st, 2);
		uint64_t thash = (uint64_t)sqlite3_column_int64(st, 3);
		uint64_t to = (uint64_t)sqlite3_column_int64(st, 4);
		uint64_t span = to < LEDGER_HASH_SPAN ? to : LEDGER_HASH_SPAN;

		if (hlen > size || to > size)
			continue;	/* truncated, or another file */
		/* A row for a smaller file: does this one start the same? */
		if (hlen != e->head_len) {
			if (ledger_hash(fd, 0, hlen, &h, err) != EXR_OK)
				goto fail;
			if (h != hhash)
				continue;
		}
		if (ledger_hash(fd, to - span, span, &h, err) != EXR_OK)
			goto fail;
		if (h != thash)
			continue;	/* replaced: the same start, not the rest */
		e->file_id = sqlite3_column_int64(st, 0);
		e->ingested_to = to;
		break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		db_fail(db, err, "ledger");
		goto fail;
	}
	sqlite3_reset(st);
	return EXR_OK;
fail:
	sqlite3_reset(st);
	return err != NULL ? err->code : EXR_IO;
}
