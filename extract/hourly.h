/*
 * The hourly job (hourly.c): what run does, step by step.
 */
#ifndef HOURLY_H
#define HOURLY_H

#include <stdint.h>

struct ctx;

/* What run was asked to do (its options, the configuration's defaults). */
struct hourly {
	const char	*spool;		/* the spool directory */
	const char	*db;		/* the database */
	const char	*pacct;		/* accounting's file before the first
					   rotate */
	const char	*outdir;	/* .txt and .csv; NULL: none */
	uint64_t	 keep_days;	/* ingested closed logs, days */
	uint64_t	 keep_text_days;	/* .txt and .csv, days */
	uint64_t	 keep_intervals_days;	/* the database's: 0, for ever */
	uint64_t	 keep_rollups_months;
	uint64_t	 wait_s;	/* for another writer of db */
	int		 snap;		/* take a snapshot first */
	int		 rotate;	/* then rotate */
	int		 push;		/* HOURLY_PUSH_*: the push, and the
					   expiry that waits on it */
	char *const	*files;		/* operands: ingested after the spool */
	int		 nfiles;
};

/* What run does of the push (steps 5 and 6): all of it, or with a
 * central server leaves it (and expiry) to a later run --push-only, or
 * does nothing else (the network's unit, extracct-push.service). */
#define HOURLY_PUSH	0
#define HOURLY_NO_PUSH	1
#define HOURLY_PUSH_ONLY	2

/*
 * Snap, rotate, ingest every closed log of the spool and each file,
 * then retention, holding the spool's lock throughout (a second run
 * finds it taken: EXR_LOCKED).  The spool is listed once, the store
 * opened once.  Messages printed; returns the worst EXR_* code of the
 * steps.
 */
int	hourly_run(const struct hourly *h, const struct ctx *ctx);

#endif
