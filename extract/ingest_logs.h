/*
 * Ingest of a list of logs into one open store, printing what each
 * added (ingest_logs.c): ingest's operands, run's closed logs.
 */
#ifndef INGEST_LOGS_H
#define INGEST_LOGS_H

#include <stdint.h>

struct ctx;
struct ingest_opts;
struct store;

/* Ingest options as the configuration sets them, messages included. */
void	ingest_opts_config(struct ingest_opts *io, const struct ctx *ctx);

/*
 * Open db to write, waiting up to wait_s for another writer (EXR_BUSY
 * after it); a database whose directory is missing is said so
 * (db_locate), and tell it which host is this machine (ingest_self).
 * EXR_OK with *s to store_close, or the code after a message, *s NULL.
 */
int	ingest_open(struct store **s, const char *db, uint64_t wait_s,
	    const struct ctx *ctx);

/* Tell s which host is this machine, and its identity (store_self):
 * the configuration's host_id, else /etc/machine-id and the name. */
void	ingest_self(struct store *s, const struct ctx *ctx);

/*
 * Ingest paths[0..npaths) into s (opened on db, which messages name),
 * writing each one's .txt and .csv into outdir unless it is NULL (a
 * directory the caller has checked: outfile_dir_check), and print what
 * each added.  io starts from ingest_opts_config(); it is copied, never
 * changed.  The first nclosed paths are closed logs (run's spool:
 * ingest_opts.closed).  Returns the worst EXR_* code; s stays open.
 */
int	ingest_logs(struct store *s, const char *db, const char *outdir,
	    const struct ingest_opts *io, char *const *paths, int npaths,
	    int nclosed);

#endif
