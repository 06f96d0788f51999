/*
 * The central schema (docs/schema.md "The central store"): the tables of
 * the local facts, each with host_id (the central hosts row, found by
 * hosts.ident) leading its key, the local ids kept and scoped by it; the
 * interval and sample tables range-partitioned by month of their end;
 * and push's own bookkeeping.  Versioned as the local schema is: the
 * version is in extracct_meta, migrations run oldest first, in one
 * transaction under an advisory lock, so that hosts arriving at once
 * migrate it once and the others wait, then find it done.
 */
#ifndef CENTRAL_SCHEMA_H
#define CENTRAL_SCHEMA_H

#include <stdint.h>

#include <libpq-fe.h>

#include "../parsers/exerr.h"

#define CENTRAL_SCHEMA_VERSION	8

/*
 * Bring the central database to this extracct's schema and views.
 * EXR_OK; EXR_CENTRAL with err filled (a server error, or a schema newer
 * than this extracct's: nothing is changed then).
 */
int	central_migrate(PGconn *conn, struct ex_err *err);

/*
 * Make sure table (one of the partitioned ones) has the partition of the
 * month holding t_ns: proc_intervals_2026_11 for [2026-11-01, 2026-12-01)
 * UTC, its bounds in units of unit_ns (1: ns; 10^9: the rollups' s).
 * A time out of range (before 1970, or from 2200 on: store/rollup.h)
 * goes to the table's DEFAULT partition, proc_intervals_default: a log
 * of nonsense times would otherwise make four tables a month of them,
 * each pushed, indexed and vacuumed, for rows no report reads (their
 * default window leaves them out).  So a table has at most one
 * partition for each month from 1970 to 2200, and one more.
 * Run outside the transaction of the data (it takes the parent's lock,
 * which must not wait on another host's rows), under an advisory lock
 * of its own.  EXR_OK or EXR_CENTRAL.
 */
int	central_partition(PGconn *conn, const char *table, int64_t t_ns,
	    int64_t unit_ns, struct ex_err *err);

/* Whether t_ns has a month's partition (else: the default one). */
int	central_in_range(int64_t t_ns);

/* The name of that partition, into name[n]. */
void	central_partition_name(char *name, size_t n, const char *table,
	    int64_t t_ns);

/* UTC ns of the start of the month holding t_ns, and of the next. */
void	central_month(int64_t t_ns, int64_t *from, int64_t *to, int *year,
	    int *month);

#endif
