/*
 * The writer's lock of a database: one writer at a time, from before it
 * reads any state to after its last commit.
 *
 * SQLite's own locks serialise transactions, not what a writer does
 * between them: ingest reads the ledger, the live processes and the
 * next free ids, then commits chunk after chunk from what it read.  Two
 * writers interleaving their chunks each work from stale state (issue
 * 12: processes lost, files counted twice).  So a writer first takes an
 * exclusive flock(2) on DB-lock, beside the database, and holds it until
 * it has closed the database.  Readers (report, sqlite3) never take it:
 * WAL mode lets them read while a writer works.
 *
 * A separate file, not the database: SQLite's POSIX locks on the
 * database would be dropped by any close of another descriptor of it,
 * and where flock is built on POSIX locks (NFS) the two would mix.
 */
#ifndef DBLOCK_H
#define DBLOCK_H

#include <stdint.h>

#include "../parsers/exerr.h"

/*
 * Take the writer's lock of the database at path, waiting up to wait_ms
 * milliseconds while another process holds it.  Returns EXR_OK with
 * *fdp the lock's descriptor (for dblock_release), EXR_BUSY when the
 * wait ran out (err names the holder's pid), or EXR_IO (also a lock
 * file that is a link, a FIFO, a hard link or another user's, refused
 * as outputs are: outfile.h).  ":memory:" and
 * "" (private databases nobody else can open) take no lock: *fdp is -1.
 */
int	dblock_take(const char *path, uint64_t wait_ms, int *fdp,
	    struct ex_err *err);

/*
 * Whether a writer holds the lock of the database at path now, for a
 * reader that must wait for a writer's migration: a shared lock tried
 * and dropped at once, never waited for, the lock file never created.
 * A writer that wants the lock meanwhile waits one of its polls more.
 * 0 where there is no lock file (no writer has been).
 */
int	dblock_held(const char *path);

/* Release a lock dblock_take gave (fd -1: nothing to release). */
void	dblock_release(int fd);

#endif
