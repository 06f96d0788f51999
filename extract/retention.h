/*
 * Retention (retention.c): what run deletes, once it has ingested.
 */
#ifndef RETENTION_H
#define RETENTION_H

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

#endif
