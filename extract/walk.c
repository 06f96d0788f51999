/*
 * The shared read loop (see walk.h).
 */
#include <stdio.h>

#include "extracct.h"
#include "walk.h"

static void
default_damage(const struct exacct_reader *r, const struct ex_err *err)
{
	if (r->skip_to > r->skip_from)
		fprintf(stderr, "extracct: %s: offset %llu: %s (skipped bytes "
		    "%llu-%llu)\n", r->path, (unsigned long long)err->off,
		    err->reason, (unsigned long long)r->skip_from,
		    (unsigned long long)r->skip_to - 1);
	else
		fprintf(stderr, "extracct: %s: offset %llu: %s\n", r->path,
		    (unsigned long long)err->off, err->reason);
}

int
walk_file(const char *path, const struct walk_ops *ops, void *arg,
    struct ex_counts *counts)
{
	struct exacct_reader r;
	struct ex_err err = { .path = path };
	const struct ex_rec *rec;
	int rc, status = EXR_OK;

	if ((rc = exacct_reader_open(&r, path, &err)) != EXR_OK) {
		complain(rc, "%s: %s", path, err.reason);
		return rc;
	}
	for (;;) {
		rc = exacct_next(&r, &rec, &err);
		if (rc == EXR_EOF)
			break;
		if (rc == EXR_OK) {
			if ((rc = ops->object(arg, rec)) != EXR_OK) {
				status = worst(status, rc);
				break;
			}
			continue;
		}
		if (rc == EXR_DAMAGED) {
			if (ops->damage != NULL)
				ops->damage(arg, &r, &err);
			else
				default_damage(&r, &err);
			status = worst(status, EXR_DAMAGED);
			continue;
		}
		report_err(&err);
		status = worst(status, rc);
		break;
	}
	if (counts != NULL)
		*counts = r.counts;
	exacct_reader_release(&r);
	return status;
}
