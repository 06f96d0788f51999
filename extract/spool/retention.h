/*
 * Retention (retention.c): what run deletes, once it has ingested.
 */
#ifndef RETENTION_H
#define RETENTION_H

#include <stdint.h>
#include <time.h>

struct spool;
struct store;

/*
 * Delete each closed log of sp whose file is days old (by mtime) at now
 * and which the ledger of s says is in the database to its last byte;
 * one line each, removed or kept.  EXR_OK or EXR_IO (complained).
 */
int	retention_logs(struct store *s, const struct spool *sp, int days,
	    time_t now);

/* Delete the .txt and .csv in outdir (NULL: none) days old, by age
 * alone.  EXR_OK or EXR_IO. */
int	retention_text(const char *outdir, int days, time_t now);

/*
 * The database's own retention (store/expire.h): intervals older than
 * intervals_days, rollups of the months before the last rollups_months
 * (0: for ever, each), then the space given back; one line saying what
 * went.  EXR_OK or EXR_DB (complained).
 */
int	retention_db(struct store *s, const char *db, uint64_t intervals_days,
	    uint64_t rollups_months, time_t now);

#endif
