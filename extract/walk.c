/*
 * The read loop of the commands that read logs without the store (see
 * walk.h), and the printing of damage messages.
 */
#include <stdio.h>
#include <stdlib.h>

#include "util.h"
#include "walk.h"

void
say_damage(FILE *fp, enum damage_form form, const char *path, uint64_t from,
    uint64_t to, const struct ex_err *err)
{
	char buf[1024], *p = buf;
	int n;

	n = reader_damage_msg(buf, sizeof(buf), form, path, from, to, err);
	/* A long path whole if memory allows, else cut, as say() does. */
	if (n >= (int)sizeof(buf) && (p = malloc((size_t)n + 1)) != NULL)
		reader_damage_msg(p, (size_t)n + 1, form, path, from, to, err);
	if (p == NULL)
		p = buf;
	say(fp, "%s", p);
	if (p != buf)
		free(p);
}

static void
damage(const struct walk_ops *ops, void *arg, const char *path,
    uint64_t from, uint64_t to, const struct ex_err *err)
{
	if (ops->damage != NULL)
		ops->damage(arg, path, from, to, err);
	else
		say_damage(stderr, DF_LOG, path, from, to, err);
}

static void
note(const struct walk_ops *ops, void *arg, const char *path, uint64_t off,
    const char *msg)
{
	if (ops->note != NULL)
		ops->note(arg, path, off, msg);
	else
		say(stderr, "extracct: %s: offset %llu: %s", path,
		    (unsigned long long)off, msg);
}

/* The file could not be opened as a log: say why; EXR_* as walk_file. */
static int
open_failed(const char *path, const struct walk_ops *ops, void *arg,
    const struct reader *r, int rc, const struct ex_err *err,
    struct ex_counts *counts)
{
	if (r->kind == INPUT_REFUSED) {
		/* Not a log we read: one problem, no bytes skipped. */
		damage(ops, arg, path, 0, 0, err);
		if (counts != NULL)
			*counts = (struct ex_counts){ 0, 1, 0 };
		return rc;
	}
	if (r->kind == INPUT_STREAM && (ops->flags & READER_NO_STREAMS))
		return complain(rc, "%s: %s: text, check and ingest read these",
		    path, err->reason);
	return complain(rc, "%s: %s", path, err->reason);
}

int
walk_file(const char *path, const struct walk_ops *ops, void *arg,
    struct ex_counts *counts)
{
	struct reader_opts o = { ops->provider, ops->flags };
	struct reader r;
	struct ex_err err = { .path = path };
	const struct reader_item *it;
	int rc, status = EXR_OK;

	if ((rc = reader_open(&r, path, &o, &err)) != EXR_OK)
		return open_failed(path, ops, arg, &r, rc, &err, counts);
	while ((rc = reader_next(&r, &it, &err)) != EXR_EOF) {
		if (rc == EXR_OK && it->what == RD_NOTE) {
			note(ops, arg, path, it->off, it->note);
			continue;
		}
		if (rc == EXR_OK) {
			if ((rc = ops->item(arg, &r, it)) != EXR_OK) {
				status = ex_worst(status, rc);
				break;
			}
			continue;
		}
		if (rc != EXR_DAMAGED) {
			report_err(&err);
			status = ex_worst(status, rc);
			break;
		}
		damage(ops, arg, path, it->damage.from, it->damage.to, &err);
		status = ex_worst(status, EXR_DAMAGED);
	}
	if (counts != NULL)
		*counts = reader_counts(&r);
	reader_release(&r);
	return status;
}
