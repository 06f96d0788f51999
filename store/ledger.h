/*
 * The ledger (table files): what makes ingest exactly once.
 *
 * A file is known by its content, not its name: a hash of its first
 * bytes (up to 4 KiB) and a hash of the 4 KiB before the offset it was
 * read up to.  So the same file again, renamed or copied, adds nothing; a
 * file that grew (a live log) is read from where the last run stopped; a
 * file truncated or replaced under the same name no longer matches and
 * is read as new.
 */
#ifndef LEDGER_H
#define LEDGER_H

#include <sqlite3.h>
#include <stdint.h>

#include "../parsers/exerr.h"

#define LEDGER_HASH_SPAN	4096

struct ledger_entry {
	int64_t		 file_id;	/* 0: not in the ledger yet */
	uint64_t	 size;		/* the file's size now */
	uint64_t	 head_len;	/* bytes hashed at the start */
	uint64_t	 head_hash;
	uint64_t	 ingested_to;	/* read up to here (0: new) */
};

/*
 * Identify the open file fd (size bytes) against the ledger.  On return
 * e->file_id is the matching row (0 if none) and e->ingested_to where to
 * resume: 0 for a new file, e->size when nothing is new.  The query is
 * prepared on the first call and kept in *st, for the caller to
 * finalize with the database.
 */
int	ledger_lookup(sqlite3 *db, sqlite3_stmt **st, int fd, uint64_t size,
	    struct ledger_entry *e, struct ex_err *err);

/* Hash of len bytes of fd at off (FNV-1a, 64 bits). */
int	ledger_hash(int fd, uint64_t off, uint64_t len, uint64_t *hash,
	    struct ex_err *err);

#endif
