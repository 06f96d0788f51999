/*
 * The usage report (see report.h and report_int.h for its parts): the
 * driver, from the query to the printed rows.
 */
#include "../parsers/records.h"
#include "report_int.h"

/* Shape and print s in o's format. */
static int
print_set(FILE *fp, const struct report_opts *o, struct report_set *s,
    struct ex_err *err)
{
	int rc;

	if ((rc = report_shape(o, s, err)) != EXR_OK)
		return rc;
	if (report_out(fp, o, s) != 0)
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	return ferror(fp) ? ex_fail(err, EXR_IO, 0, "write error") : EXR_OK;
}

int
report_print(FILE *fp, const struct report_opts *o,
    const struct report_row *rows, size_t n, struct ex_err *err)
{
	struct report_set s = { 0 };
	size_t i;
	int rc;

	for (i = 0; i < n; i++) {
		struct report_row *r = report_add(&s);

		if (r == NULL) {
			report_set_release(&s);
			return ex_fail(err, EXR_NOMEM, 0, "no memory");
		}
		*r = rows[i];
	}
	rc = print_set(fp, o, &s, err);
	report_set_release(&s);
	return rc;
}

/*
 * The hosts' observed time over what the rows span (their buckets, or
 * the window given): util_pct divides by it.  Nothing to load for a
 * report whose rows span no known time.
 */
static int
load_observed(struct rdb *db, const struct report_opts *o,
    struct report_set *s, struct ex_err *err)
{
	int k, hourly = 0;

	if (o->every != EVERY_NONE)
		return s->nb == 0 ? EXR_OK : report_obs_load(db, s,
		    report_s_ns(s->edge[0]), report_s_ns(s->edge[s->nb]),
		    err);
	for (k = 0; k < report_nkeys(o); k++)
		if (report_key(o, k) == BY_HOUR)
			hourly = 1;
	if (!hourly && o->open != 0)
		return EXR_OK;
	return report_obs_load(db, s, o->from_ns, o->to_ns, err);
}

int
report_run(struct rdb *db, FILE *fp, const struct report_opts *o,
    struct ex_err *err)
{
	struct report_set s = { 0 };
	int rc;

	/* The names first: the query's rows refer to them. */
	if (o->percentiles) {
		/* Buckets (--every is required), then a query of its own. */
		if ((rc = report_names_load(db, &s, err)) == EXR_OK &&
		    (rc = report_buckets(db, o, &s, err)) == EXR_OK &&
		    (rc = report_capacity(db, &s, err)) == EXR_OK &&
		    (rc = report_percentiles(db, fp, o, &s, err)) == EXR_OK &&
		    ferror(fp))
			rc = ex_fail(err, EXR_IO, 0, "write error");
		report_set_release(&s);
		return rc;
	}
	if ((rc = report_names_load(db, &s, err)) == EXR_OK &&
	    (o->every == EVERY_NONE ||
	    (rc = report_buckets(db, o, &s, err)) == EXR_OK) &&
	    (rc = report_query(db, o, &s, err)) == EXR_OK &&
	    (rc = report_capacity(db, &s, err)) == EXR_OK &&
	    (rc = load_observed(db, o, &s, err)) == EXR_OK)
		rc = print_set(fp, o, &s, err);
	report_set_release(&s);
	return rc;
}
