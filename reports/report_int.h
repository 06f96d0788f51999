/*
 * The usage report's parts, one job each: report_query.c builds the SQL
 * for o's key and window and fetches the rows; report_table.c,
 * report_csv.c and report_json.c print them; report.c ties them up.
 * Internal to reports/: callers use report.h.
 */
#ifndef REPORT_INT_H
#define REPORT_INT_H

#include <stddef.h>
#include <stdio.h>

#include "report.h"

/* The column name of each key, indexed by enum report_by. */
extern const char *const report_key_names[];

/*
 * Fetch the totals for o's key over o's window from db, sorted (hours
 * in time order, everything else by CPU, largest first), into *rows
 * (malloc'd, the caller frees) and *n.  EXR_OK, or EXR_DB/EXR_NOMEM
 * with err (then *rows is NULL).
 */
int	report_query(struct rdb *db, const struct report_opts *o,
	    struct report_row **rows, size_t *n, struct ex_err *err);

/* Print rows in one format; cpu_total is the rows' CPU, for cpu%. */
void	report_table(FILE *fp, const struct report_opts *o,
	    const struct report_row *r, size_t n, __int128 cpu_total);
void	report_csv(FILE *fp, const struct report_opts *o,
	    const struct report_row *r, size_t n);
void	report_json(FILE *fp, const struct report_opts *o,
	    const struct report_row *r, size_t n);

#endif
