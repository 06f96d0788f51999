/*
 * Usage totals straight from log files, with no database: what sa(8)
 * gives for pacct.  Only exit records count (final process records; a
 * pacct record is always one), so nothing is counted twice; partial
 * records are left to ingest, which differences them.
 */
#ifndef SUMMARY_H
#define SUMMARY_H

#include <stddef.h>

#include "../parsers/records.h"
#include "report.h"

struct summary {
	enum report_by	 by;
	int64_t		 from_ns, to_ns;	/* exits counted in [from, to) */
	struct report_row *rows;
	size_t		 n, cap;
	int32_t		*slots;			/* hash of rows by key, -1 empty */
	size_t		 nslots;		/* power of two */
};

void	summary_init(struct summary *s, enum report_by by, int64_t from_ns,
	    int64_t to_ns);
void	summary_release(struct summary *s);

/* Count one record (ignored unless it is an exit record in the window).
 * Returns EXR_OK or EXR_NOMEM. */
int	summary_add(struct summary *s, const struct ex_proc *p,
	    const char *host);

/* Sort the rows: by CPU, largest first (hours: in time order). */
void	summary_sort(struct summary *s);

#endif
