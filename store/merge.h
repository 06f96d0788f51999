/*
 * merge: copy the facts of one local database into another (a fleet's)
 * with the same schema, exactly once (docs/schema.md "Merging").
 *
 * Hosts are matched by their identity (hostid.h), never by name or by
 * id: a host in two sources is one host, two hosts of one name stay two.
 * Every other row is matched by its natural key (a process by host, start
 * and pid; an interval by its process and end; a file of the ledger by
 * when it was first ingested), so a source merged twice, or under another
 * file name, adds nothing, and a later copy of it adds only what is new
 * and brings what changed (a process that has exited since, a file read
 * further) up to date.  The per-database numbers (proc_id, file_id, ...)
 * are remapped.  One transaction per source: a failure leaves the
 * destination as it was.
 */
#ifndef MERGE_H
#define MERGE_H

#include <stdint.h>

#include "../parsers/exerr.h"

struct store;

struct merge_stats {
	uint64_t	 hosts;		/* hosts the source holds */
	uint64_t	 rows;		/* rows read from it */
	uint64_t	 added;		/* rows added or brought up to date */
};

/*
 * Merge the database at src (opened read-only; its schema must be this
 * extracct's) into the store s, in one transaction, and record a mark per
 * source host (table merge_marks).  EXR_OK with *st filled, or EXR_DB /
 * EXR_NOMEM / EXR_USAGE (a host with no identity yet) with err filled and
 * s's database unchanged.
 */
int	store_merge(struct store *s, const char *src, struct merge_stats *st,
	    struct ex_err *err);

#endif
