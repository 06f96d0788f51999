/*
 * push: send a local database's facts to the central store, exactly once
 * (docs/schema.md "The central store", "Push").
 *
 * Each local fact table (ptabs[] in push.c) is cut into buckets (an hour
 * of its time column, or a range of its ids) and each bucket summed to a
 * count and a signature of its rows' values.  The central
 * database keeps, per host, the signature of every bucket it was last
 * sent (push_buckets), in the transaction that sent it.  A push sends
 * the buckets whose signature differs, each whole: the central rows of
 * that host in that bucket are deleted and the local ones copied in
 * (COPY), so a row updated locally since (a process's exit, a file read
 * further, a conversation paired again) is updated centrally, and a
 * bucket that did not change is not sent.  One transaction per host:
 * killed at any moment, a push leaves central as it was, or as one
 * clean push; run again it sends what is left; a second push sends
 * nothing.
 */
#ifndef PUSH_H
#define PUSH_H

#include <stdint.h>

#include "../parsers/exerr.h"

struct push_stats {
	uint64_t	 hosts;		/* hosts pushed */
	uint64_t	 buckets;	/* buckets sent */
	uint64_t	 rows;		/* rows sent */
};

/*
 * Push the local database at db (opened read-only, as a report opens
 * it) to the server conninfo names (pgconn.h; allow_password: it may
 * hold one, having come from a file only its owner reads).  EXR_OK
 * with *st filled; EXR_USAGE (a bad connection string, a host with no
 * identity, or one another database pushes), EXR_DB (the local
 * database), EXR_CENTRAL (the server: down, refused, failed),
 * EXR_NOMEM, with err filled.  The hosts pushed before a failure stay
 * pushed.
 */
int	push_db(const char *db, const char *conninfo, int allow_password,
	    struct push_stats *st, struct ex_err *err);

#endif
