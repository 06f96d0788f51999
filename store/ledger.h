/*
 * The ledger (tables files and damage): what makes ingest exactly once.
 *
 * A file is known by its content, not its name: a hash of its first
 * bytes (up to 4 KiB) and a hash of the 4 KiB before the offset it was
 * read up to.  So the same file again, renamed or copied, adds nothing; a
 * file that grew (a live log) is read from where the last run stopped; a
 * file truncated or replaced under the same name no longer matches and
 * is read as new.
 *
 * ledger.c owns the rows; the ingest loop calls it inside its chunk's
 * transaction, so a file's row moves with the data it covers.
 */
#ifndef LEDGER_H
#define LEDGER_H

#include <sqlite3.h>
#include <stdint.h>

#include "../parsers/exerr.h"

#define LEDGER_HASH_SPAN	4096
#define LEDGER_NSTMTS		7

/* The ledger's statements, prepared once per store, and lookup's state. */
struct ledger {
	sqlite3		*db;		/* not owned */
	sqlite3_stmt	*st[LEDGER_NSTMTS];
	/*
	 * The head_len values under LEDGER_HASH_SPAN the rows hold (a
	 * superset: a row that moved on leaves its old length set), read
	 * from the table at the first lookup that needs them, kept as
	 * rows are written, and read again if another connection has
	 * committed since (data_version).
	 */
	uint8_t		 small[LEDGER_HASH_SPAN / 8];
	int		 small_loaded;
	int64_t		 data_version;
	/* The file being looked up: its first bytes, and the hash of each
	 * prefix of them (prefix[i]: of the first i bytes). */
	uint8_t		 head[LEDGER_HASH_SPAN];
	uint64_t	 prefix[LEDGER_HASH_SPAN + 1];
};

struct ledger_entry {
	int64_t		 file_id;	/* 0: not in the ledger yet */
	uint64_t	 size;		/* the file's size now */
	uint64_t	 head_len;	/* bytes hashed at the start */
	uint64_t	 head_hash;
	uint64_t	 ingested_to;	/* read up to here (0: new) */
};

/* What one chunk moves a file's row by (see ledger_advance). */
struct ledger_chunk {
	int64_t		 file_id;
	int64_t		 host_id;	/* <= 0: keep the row's */
	const char	*path;		/* the name it is read by now */
	int		 fd;		/* the file, to hash */
	uint64_t	 size;		/* its size now */
	uint64_t	 from;		/* ingested_to as this ingest found */
	uint64_t	 upto;		/* read up to here now */
	/* Added to the row's counting columns of the same names. */
	uint64_t	 records, duplicates, late, other_objects;
	uint64_t	 unknown_items, bad_values;
	uint64_t	 damaged_ranges, damaged_bytes;
};

/* Prepare the ledger's statements on db; EXR_OK or EXR_DB. */
int	ledger_prepare(struct ledger *l, sqlite3 *db, struct ex_err *err);
/* Finalize them (also after a failed or no ledger_prepare: zeroed). */
void	ledger_finalize(struct ledger *l);

/*
 * Identify the open file fd (size bytes) against the ledger.  On return
 * e->file_id is the matching row (0 if none) and e->ingested_to where to
 * resume: 0 for a new file, e->size when nothing is new.  One read of
 * the file's first 4 KiB (and of the 4 KiB before a row's offset past
 * them), then indexed probes by (head_len, head_hash): one for a file
 * with nothing new, one for each shorter head length the ledger holds
 * for a file new or grown (at most 4095, whatever the number of rows).
 */
int	ledger_lookup(struct ledger *l, int fd, uint64_t size,
	    struct ledger_entry *e, struct ex_err *err);

/*
 * A row for the new file e (from ledger_lookup) of kind ("exacct",
 * "pacct", "stream") read by path, with nothing read yet; *file_id gets
 * its id.  EXR_OK or EXR_DB.
 */
int	ledger_insert(struct ledger *l, const struct ledger_entry *e,
	    const char *kind, const char *path, int64_t *file_id,
	    struct ex_err *err);

/*
 * Move the row of c->file_id from c->from to c->upto, with the hashes
 * that identify the file at that offset and the chunk's counts.  A row
 * no longer at c->from (another writer moved it) is EXR_DB: the chunk
 * must not commit.  EXR_OK, EXR_IO (hashing) or EXR_DB.
 */
int	ledger_advance(struct ledger *l, const struct ledger_chunk *c,
	    struct ex_err *err);

/* The file is a closed log read to its end (files.closed). */
int	ledger_mark_closed(struct ledger *l, int64_t file_id,
	    struct ex_err *err);

/* A damaged range [from, to) of the file, why in e (its off, reason). */
int	ledger_damage(struct ledger *l, int64_t file_id, uint64_t from,
	    uint64_t to, const struct ex_err *e, struct ex_err *err);

/*
 * Is the damaged range [from, to) of this file stored already?  A rare
 * question (no statement is kept for it); a database that cannot answer
 * gets "no", and the insert that follows reports its error.
 */
int	ledger_damage_stored(struct ledger *l, int64_t file_id, uint64_t from,
	    uint64_t to);

/* Hash of len bytes of fd at off (FNV-1a, 64 bits). */
int	ledger_hash(int fd, uint64_t off, uint64_t len, uint64_t *hash,
	    struct ex_err *err);

#endif
