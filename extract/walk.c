/*
 * The shared read loop (see walk.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parsers/sniff.h"
#include "extracct.h"
#include "walk.h"

static void
default_damage(const char *path, uint64_t from, uint64_t to,
    const struct ex_err *err)
{
	if (to > from)
		say(stderr, "extracct: %s: offset %llu: %s (skipped bytes "
		    "%llu-%llu)", path, (unsigned long long)err->off,
		    err->reason, (unsigned long long)from,
		    (unsigned long long)to - 1);
	else
		say(stderr, "extracct: %s: offset %llu: %s", path,
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

static int
walk_pacct(const char *path, const struct walk_ops *ops, void *arg,
    struct ex_counts *counts)
{
	struct ex_proc p;
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

/* The series of a detail, for one file (Package_0, DRAM_0...). */
struct walk_series {
	char		 detail[STREAM_DETAIL];
	struct stream_series st;
};

struct walk_all_series {
	struct walk_series *v;
	size_t		 n, cap;
};

static int
walk_stream_line(const char *path, const struct stream_provider *p,
    const struct stream_line *ln, const struct walk_ops *ops, void *arg,
    struct walk_all_series *ser, struct ex_counts *c)
{
	struct stream_sample x;
	struct ex_err err = { .path = path };
	enum stream_verdict v;
	struct walk_series *s = NULL;
	uint64_t last;
	size_t i;

	for (i = 0; i < ser->n && s == NULL; i++)
		if (strcmp(ser->v[i].detail, ln->detail) == 0)
			s = &ser->v[i];
	if (s == NULL) {
		if (ser->n == ser->cap) {
			size_t cap = ser->cap ? ser->cap * 2 : 8;
			struct walk_series *more = realloc(ser->v,
			    cap * sizeof(*more));

			if (more == NULL)
				return complain(EXR_NOMEM, "no memory");
			ser->v = more;
			ser->cap = cap;
		}
		s = &ser->v[ser->n++];
		memset(s, 0, sizeof(*s));
		snprintf(s->detail, sizeof(s->detail), "%s", ln->detail);
	}
	last = s->st.last_ts_ns;
	switch ((v = stream_apply(p, &s->st, ln, &x))) {
	case SV_SAMPLE: {
		char msg[256];

		if (stream_underflow(p, &s->st, ln, msg, sizeof(msg)) &&
		    msg[0] != '\0')
			note(ops, arg, path, ln->off, msg);
		return ops->sample(arg, p, ln, &x);
	}
	case SV_OPENS:
		return EXR_OK;
	default:
		stream_dropped(&err, ln, v, last);
		damage(ops, arg, path, ln->off, ln->end, &err);
		c->damaged++;
		c->damaged_bytes += ln->end - ln->off;
		return EXR_DAMAGED;
	}
}

static int
walk_stream(const char *path, const struct walk_ops *ops, void *arg,
    struct ex_counts *counts)
{
	struct walk_all_series ser = { NULL, 0, 0 };
	const struct stream_provider *p;
	struct stream_reader r;
	struct stream_line ln;
	struct ex_err err = { .path = path };
	struct ex_counts c = { 0 };
	int rc, status = EXR_OK;

	if (ops->sample == NULL)
		return complain(EXR_USAGE, "%s: a metric-provider stream: "
		    "text, check and ingest read these", path);
	if ((p = stream_provider_for(path, ops->provider, &err)) == NULL)
		return complain(EXR_USAGE, "%s: %s", path, err.reason);
	if ((rc = stream_reader_open(&r, path, &err)) != EXR_OK) {
		complain(rc, "%s: %s", path, err.reason);
		return rc;
	}
	while ((rc = stream_next(&r, &ln, &err)) != EXR_EOF) {
		if (rc == EXR_OK) {
			rc = walk_stream_line(path, p, &ln, ops, arg, &ser,
			    &c);
			status = worst(status, rc);
			if (rc != EXR_OK && rc != EXR_DAMAGED)
				break;
			continue;
		}
		if (rc != EXR_DAMAGED) {
			report_err(&err);
			status = worst(status, rc);
			break;
		}
		damage(ops, arg, path, r.skip_from, r.skip_to, &err);
		c.damaged++;
		c.damaged_bytes += r.skip_to - r.skip_from;
		status = worst(status, EXR_DAMAGED);
	}
	if (counts != NULL)
		*counts = c;
	free(ser.v);
	stream_reader_release(&r);
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
		if (kind != INPUT_REFUSED) {
			complain(rc, "%s: %s", path, err.reason);
			return rc;
		}
		/* Not a log we read: one problem, no bytes skipped. */
		damage(ops, arg, path, 0, 0, &err);
		if (counts != NULL)
			*counts = (struct ex_counts){ 0, 1, 0 };
		return rc;
	}
	if (kind == INPUT_PACCT)
		return walk_pacct(path, ops, arg, counts);
	if (kind == INPUT_STREAM)
		return walk_stream(path, ops, arg, counts);
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
