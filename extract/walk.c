/*
 * The shared read loop (see walk.h).
 */
#include <stdio.h>

#include "../parsers/sniff.h"
#include "extracct.h"
#include "walk.h"

static void
default_damage(const char *path, uint64_t from, uint64_t to,
    const struct ex_err *err)
{
	if (to > from)
		fprintf(stderr, "extracct: %s: offset %llu: %s (skipped bytes "
		    "%llu-%llu)\n", path, (unsigned long long)err->off,
		    err->reason, (unsigned long long)from,
		    (unsigned long long)to - 1);
	else
		fprintf(stderr, "extracct: %s: offset %llu: %s\n", path,
		    (unsigned long long)err->off, err->reason);
}

static void
damage(const struct walk_ops *ops, void *arg, const char *path,
    uint64_t from, uint64_t to, const struct ex_err *err)
{
	if (ops->damage != NULL)
		ops->damage(arg, path, from, to, err);
	else
		default_damage(path, from, to, err);
}

static int
walk_pacct(const char *path, const struct walk_ops *ops, void *arg,
    struct ex_counts *counts)
{
	static struct ex_proc p;
	struct pacct_reader r;
	struct ex_err err = { .path = path };
	int rc, status = EXR_OK;

	if ((rc = pacct_reader_open(&r, path, &err)) != EXR_OK) {
		complain(rc, "%s: %s", path, err.reason);
		return rc;
	}
	while ((rc = pacct_next(&r, &p, &err)) != EXR_EOF) {
		if (rc == EXR_OK) {
			if (ops->pacct != NULL &&
			    (rc = ops->pacct(arg, &r, &p)) != EXR_OK) {
				status = worst(status, rc);
				break;
			}
			continue;
		}
		if (rc != EXR_DAMAGED) {
			report_err(&err);
			status = worst(status, rc);
			break;
		}
		damage(ops, arg, path, r.skip_from, r.skip_to, &err);
		status = worst(status, EXR_DAMAGED);
	}
	if (counts != NULL)
		*counts = r.counts;
	pacct_reader_release(&r);
	return status;
}

int
walk_file(const char *path, const struct walk_ops *ops, void *arg,
    struct ex_counts *counts)
{
	struct exacct_reader r;
	struct ex_err err = { .path = path };
	const struct ex_rec *rec;
	enum input_kind kind;
	int rc, status = EXR_OK;

	if ((rc = sniff_file(path, &kind, &err)) != EXR_OK) {
		complain(rc, "%s: %s", path, err.reason);
		return rc;
	}
	if (kind == INPUT_PACCT)
		return walk_pacct(path, ops, arg, counts);
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
			damage(ops, arg, path, r.skip_from, r.skip_to, &err);
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
