/*
 * The fast paths against the ordinary one: check's (READER_TALLY:
 * rec_skim, exacct_peek, pacct_next with no record, pacct_run) and the
 * reader's own (rec_skim_fill: a process or task record filled straight
 * from the bytes) against the decoder and the kind's filler.  Over the
 * same bytes, the same items, kinds, offsets, tallies, damaged ranges
 * and messages, and the same records filled, for logs made to exercise
 * each rule of the fillers and the decoder, and for every one-byte
 * change of a small log.
 */
#include <stdio.h>
#include <string.h>

#include "../../parsers/reader.h"
#include "check.h"

/* One item as compared: what check (and any tally) can see of it. */
struct seen {
	int		 rc;
	enum reader_what what;
	enum rec_kind	 kind;
	uint64_t	 off, end;
	struct rec_counts counts;
	uint64_t	 err_off;
	char		 reason[256];
	/* A process or task record as filled, absent fields zeroed. */
	struct ex_proc	 proc;
	struct ex_task	 task;
};

/*
 * The record of item it into s: from it->u as the reader filled it, or
 * (decoded: a READER_OBJECTS reader's) filled here from the object by
 * the kind's filler, with its counts (pacct has no object: the
 * reader's record).
 */
static void
take_record(struct seen *s, const struct reader_item *it, int decoded)
{
	int f;

	if (it->kind == REC_PROC) {
		if (decoded && it->obj != NULL)	/* pacct: no object */
			proc_fill(&s->proc, it->obj, &s->counts);
		else
			s->proc = it->u.proc;
		for (f = 0; f < PROC_NFIELDS; f++)
			if (!REC_HAS(&s->proc, f))
				s->proc.v[f] = 0;
	} else if (it->kind == REC_TASK) {
		if (decoded && it->obj != NULL)
			task_fill(&s->task, it->obj, &s->counts);
		else
			s->task = it->u.task;
		for (f = 0; f < TASK_NFIELDS; f++)
			if (!REC_HAS(&s->task, f))
				s->task.v[f] = 0;
	}
}

/*
 * A reader and, of a run of pacct records handed out as one item
 * (READER_TALLY), the records still to be looked at one by one.
 */
struct walker {
	struct reader	 r;
	uint64_t	 left;		/* records of the run after this */
	uint64_t	 next;		/* the next one's offset */
};

/* The next item, reduced to what the paths must agree on; decoded: w's
 * reader hands out objects (READER_OBJECTS), filled here. */
static void
look(struct walker *w, struct seen *s, int decoded)
{
	const struct reader_item *it;
	struct ex_err err = { .path = "t" };

	memset(s, 0, sizeof(*s));
	if (w->left > 0) {		/* the run's next record */
		w->left--;
		s->rc = EXR_OK;
		s->what = RD_RECORD;
		s->kind = REC_PROC;
		s->off = w->next;
		s->end = w->next += PACCT_RECORD_SIZE;
		return;
	}
	s->rc = reader_next(&w->r, &it, &err);
	if (s->rc == EXR_EOF)
		return;
	s->what = it->what;
	s->off = it->off;
	s->end = it->end;
	if (s->rc == EXR_OK && it->what == RD_RECORD && it->obj == NULL) {
		if (it->nrec == 0 || it->end - it->off != it->nrec *
		    PACCT_RECORD_SIZE) {
			s->rc = -1;	/* cannot be: a run is whole records */
			return;
		}
		w->left = it->nrec - 1;
		s->end = w->next = it->off + PACCT_RECORD_SIZE;
	}
	if (s->rc == EXR_OK && it->what == RD_RECORD) {
		s->kind = it->kind;
		/* What check tallies: the filled kinds' counts. */
		if (it->kind == REC_PROC || it->kind == REC_TASK ||
		    it->kind == REC_FLOW || it->kind == REC_ENERGY ||
		    it->kind == REC_SYSLOAD || it->kind == REC_LOST ||
		    it->kind == REC_RAPL || it->kind == REC_CGROUP)
			s->counts = it->counts;
		take_record(s, it, decoded);
	} else if (s->rc != EXR_OK) {
		s->err_off = err.off;
		snprintf(s->reason, sizeof(s->reason), "%s", err.reason);
	}
}

static int
alike(const struct seen *a, const struct seen *b)
{
	return a->rc == b->rc && a->what == b->what && a->kind == b->kind &&
	    a->off == b->off && a->end == b->end &&
	    a->counts.unknown_items == b->counts.unknown_items &&
	    a->counts.unknown_groups == b->counts.unknown_groups &&
	    a->counts.bad_values == b->counts.bad_values &&
	    a->err_off == b->err_off && strcmp(a->reason, b->reason) == 0;
}

/* The reader's record against the decoder's: every field, the
 * strings up to their ends (the reader's buffers are reused). */
static int
same_record(const struct seen *a, const struct seen *d)
{
	const struct ex_proc *p = &a->proc, *q = &d->proc;
	const struct ex_task *t = &a->task, *u = &d->task;

	if (a->kind == REC_PROC)
		return alike(a, d) && p->group == q->group &&
		    p->present == q->present && p->off == q->off &&
		    memcmp(p->v, q->v, sizeof(p->v)) == 0 &&
		    strcmp(p->command, q->command) == 0 &&
		    strcmp(p->hostname, q->hostname) == 0 &&
		    strcmp(p->zone, q->zone) == 0;
	if (a->kind == REC_TASK)
		return alike(a, d) && t->group == u->group &&
		    t->present == u->present && t->off == u->off &&
		    memcmp(t->v, u->v, sizeof(t->v)) == 0 &&
		    strcmp(t->hostname, u->hostname) == 0 &&
		    strcmp(t->zone, u->zone) == 0;
	/* Other kinds: the decoded reader does not fill them. */
	return a->rc == d->rc && a->what == d->what && a->kind == d->kind &&
	    a->off == d->off && a->end == d->end && a->err_off == d->err_off &&
	    strcmp(a->reason, d->reason) == 0;
}

/*
 * Read b[0..n) three ways, item by item: the reader's (its fast fill),
 * check's and the decoder's; 1 if they agree throughout.  *fast: how
 * many records check's fast path took without decoding, *filled those
 * the reader's did (exacct).
 */
static int
same3(const uint8_t *b, size_t n, unsigned *fast, unsigned *filled)
{
	struct reader_opts full = { NULL, 0 }, tally = { NULL, READER_TALLY },
	    objects = { NULL, READER_OBJECTS };
	struct walker a = { 0 }, t = { 0 }, d = { 0 };
	struct ex_err err;
	static struct seen sa, st, sd;
	int ra, rt, rd, ok = 1, steps = 0;

	ra = reader_open_mem(&a.r, "t", b, n, &full, &err);
	rt = reader_open_mem(&t.r, "t", b, n, &tally, &err);
	rd = reader_open_mem(&d.r, "t", b, n, &objects, &err);
	if (ra != rt || ra != rd)
		ok = 0;
	if (ra != EXR_OK || rt != EXR_OK || rd != EXR_OK) {
		reader_release(&a.r);	/* also after a failed open */
		reader_release(&t.r);
		reader_release(&d.r);
		return ok;
	}
	do {
		look(&a, &sa, 0);
		look(&t, &st, 0);
		look(&d, &sd, 1);
		if (st.rc == EXR_OK && st.what == RD_RECORD && t.left == 0 &&
		    (t.r.kind == INPUT_PACCT ? t.r.item.nrec > 1 :
		    t.r.item.obj->nitems == 0))
			(*fast)++;
		if (sa.rc == EXR_OK && sa.what == RD_RECORD &&
		    a.r.kind != INPUT_PACCT && a.r.item.obj->nitems == 0)
			(*filled)++;
		if (!alike(&sa, &st) || !same_record(&sa, &sd))
			ok = 0;
	} while (ok && sa.rc != EXR_EOF && ++steps < 100000);
	if (ok && (reader_counts(&a.r).objects !=
	    reader_counts(&t.r).objects ||
	    reader_counts(&a.r).objects != reader_counts(&d.r).objects ||
	    reader_offset(&a.r) != reader_offset(&d.r) ||
	    reader_counts(&a.r).damaged != reader_counts(&t.r).damaged ||
	    reader_counts(&a.r).damaged_bytes !=
	    reader_counts(&t.r).damaged_bytes ||
	    reader_offset(&a.r) != reader_offset(&t.r)))
		ok = 0;
	reader_release(&a.r);
	reader_release(&t.r);
	reader_release(&d.r);
	return ok;
}

static int
same(const uint8_t *b, size_t n, unsigned *fast)
{
	unsigned filled = 0;

	return same3(b, n, fast, &filled);
}

/* A proc record of the usual members, the times' nanoseconds given. */
static void
put_proc(struct exw *w, uint32_t pid, uint64_t nsec)
{
	exw_group_begin(w, 0xf0000100);			/* group-proc */
	exw_uint(w, 0x30001000, pid);			/* pid */
	exw_uint(w, 0x30001001, 100);			/* uid */
	exw_uint(w, 0x4000100b, 3);			/* cpu-user-sec */
	exw_uint(w, 0x4000100c, nsec);			/* cpu-user-nsec */
	exw_uint(w, 0x40001007, 1700000000);		/* start-sec */
	exw_uint(w, 0x40001008, 5);			/* start-nsec */
	exw_string(w, 0x60001006, "ls");		/* command */
	exw_uint(w, 0x41000101, 4096);			/* local: read-bytes */
	exw_group_end(w, 0);
}

/* The same members in another order, and others besides. */
static void
put_proc_odd(struct exw *w)
{
	exw_group_begin(w, 0xf0000106);			/* group-proc-partial */
	exw_string(w, 0x60001006, "a longer command name");
	exw_uint(w, 0x4000100c, 7);			/* nsec before sec */
	exw_uint(w, 0x4000100b, 1);
	exw_uint(w, 0x30001fff, 1);			/* unknown id */
	exw_double(w, 0x50001000, 1.5);			/* pid, mistyped */
	exw_string(w, 0x60001001, "uid?");		/* uid, mistyped */
	exw_uint(w, 0x10001010, 5);			/* tty-minor, uint8 */
	exw_uint(w, 0x2000100f, 4);			/* tty-major, uint16 */
	exw_uint(w, 0x40001009, UINT64_MAX);		/* finish-sec: too big */
	exw_uint(w, 0x4000100d, 2);			/* sys-sec, twice: */
	exw_uint(w, 0x4000100e, 2000000000u);		/* first bad, */
	exw_uint(w, 0x4000100e, 3);			/* then good */
	exw_uint(w, 0x4000100d, 4);
	exw_uint(w, 0x31000105, 8);			/* local: threads */
	exw_uint(w, 0x31000fff, 8);			/* local: unknown */
	exw_bytes(w, 0x80001017, "\1\2\3", 3);		/* raw where a number */
	exw_group_end(w, 0);
}

static void
put_task(struct exw *w, uint32_t id)
{
	exw_group_begin(w, 0xf0000101);			/* group-task */
	exw_uint(w, 0x30002000, id);			/* taskid: index 0, as
							   pid in a proc */
	exw_uint(w, 0x40002007, 9);			/* cpu-user-sec */
	exw_uint(w, 0x40002008, 1000000000u);		/* nsec: too big */
	exw_string(w, 0x6000200f, "host");
	exw_group_end(w, 0);
}

static void
put_flow(struct exw *w, size_t v6len)
{
	static const uint8_t a6[17] = { 0x20, 0x01, 0x0d, 0xb8, 1 };

	exw_group_begin(w, 0xf0000109);			/* group-flow */
	exw_uint(w, 0x30003000, 0x0a000001);		/* v4 saddr */
	exw_bytes(w, 0x80003002, a6, v6len);		/* v6 saddr */
	exw_uint(w, 0x40003000, 1);			/* v4 saddr, mistyped */
	exw_group_end(w, 0);
}

/* A record whose members are not all plain: the decoder's. */
static void
put_nested(struct exw *w)
{
	exw_group_begin(w, 0xf0000100);
	exw_uint(w, 0x30001000, 9);
	exw_group_begin(w, 0xf0000103);			/* group-proc-tag */
	exw_uint(w, 0x30001000, 10);
	exw_group_end(w, 0);
	exw_bytes(w, 0x70001000, "\0\0\0\0", 4);	/* embedded object */
	exw_group_end(w, 0);
}

static void
put_local(struct exw *w, uint32_t group, uint32_t first, int n)
{
	int i;

	exw_group_begin(w, 0xf1000000 | group);
	for (i = 0; i < n; i++)
		exw_uint(w, 0x41000000 | (first + (uint32_t)i), (uint64_t)i);
	exw_string(w, 0x61000000 | (first + 1), "s");	/* mistyped? */
	exw_uint(w, 0x41000000 | (first + 40), 1);	/* unknown */
	exw_group_end(w, 0);
}

/* A proc record of many members: past the memo's REC_MEMO_MEMBERS. */
static void
put_wide(struct exw *w)
{
	int i;

	exw_group_begin(w, 0xf0000100);
	for (i = 0; i < 80; i++)
		exw_uint(w, i % 3 == 0 ? 0x4000100c : 0x40001000 |
		    (uint32_t)(i % 50), (uint64_t)i * 100000000u);
	exw_group_end(w, 0);
}

/*
 * A member whose tag is all zeros (type 0: damage) where the memo has
 * nothing yet (index 8: the usual record has 8), sized and backskipped
 * as a string: once taken as one, and the record counted good.
 */
static void
put_proc_zero_tag(struct exw *w)
{
	size_t at;
	int i;

	exw_group_begin(w, 0xf0000100);
	for (i = 0; i < 8; i++)
		exw_uint(w, 0x30001000, (uint64_t)i);	/* pid */
	at = w->len;
	exw_string(w, 0x60001006, "abcd");
	memset(w->buf + at, 0, 4);
	exw_group_end(w, 0);
}

/* Strings side by side, first and last: runs with no numbers. */
static void
put_proc_strings(struct exw *w, const char *command)
{
	exw_group_begin(w, 0xf0000100);
	exw_string(w, 0x60001006, command);
	exw_string(w, 0x60001021, "global");		/* zone */
	exw_uint(w, 0x30001000, 11);			/* pid */
	exw_uint(w, 0x40001007, 1700000000);		/* start-sec */
	exw_uint(w, 0x1000100a, 9);			/* finish-nsec, uint8 */
	exw_uint(w, 0x40001009, 1700000001);		/* finish-sec */
	exw_string(w, 0x60001fff, "x");			/* unknown, last */
	exw_group_end(w, 0);
}

/* A time last, in one byte: fewer than 8 bytes behind its head. */
static void
put_proc_short_time(struct exw *w)
{
	exw_group_begin(w, 0xf0000100);
	exw_uint(w, 0x30001000, 12);			/* pid */
	exw_uint(w, 0x40001007, 1700000000);		/* start-sec */
	exw_uint(w, 0x10001008, 5);			/* start-nsec, uint8 */
	exw_group_end(w, 0);
}

/* More strings than a shape has runs for. */
static void
put_proc_many_strings(struct exw *w)
{
	int i;

	exw_group_begin(w, 0xf0000100);
	for (i = 0; i <= REC_SHAPE_RUNS; i++) {
		exw_uint(w, 0x30001000, (uint64_t)i);	/* pid */
		exw_string(w, 0x60001006, "c");		/* command */
	}
	exw_group_end(w, 0);
}

/* The 4 bytes that end the last object written: its backskip. */
static void
zero_backskip(struct exw *w, size_t at)
{
	memset(w->buf + at, 0, 4);
}

static void
test_logs(void)
{
	struct exw w;
	unsigned fast = 0, filled = 0;
	size_t a, b;
	int i;

	exw_init(&w);
	exw_header(&w, "SunOS", "h", EXW_HEADER_KERNEL);
	for (i = 0; i < 3; i++)
		put_proc(&w, (uint32_t)i, 100);
	put_proc_zero_tag(&w);
	put_proc(&w, 3, 1000000000u);			/* bad nsec, memo hit */
	put_proc_odd(&w);
	put_proc(&w, 4, 1);				/* back to the usual */
	put_task(&w, 1);
	put_proc(&w, 5, 2);				/* tasks' memo apart */
	put_task(&w, 2);
	put_flow(&w, 16);
	put_flow(&w, 17);				/* not an address */
	put_flow(&w, 16);
	put_nested(&w);
	put_local(&w, 0x000001, 0x000201, 12);		/* sysload */
	put_local(&w, 0x000002, 0x000301, 2);		/* lost */
	put_local(&w, 0x000003, 0x000401, 25);		/* energy */
	put_local(&w, 0x000004, 0x000501, 7);		/* rapl */
	put_local(&w, 0x0000ff, 0x000601, 3);		/* other local group */
	exw_group_begin(&w, 0xf000010b);		/* group-fma: other */
	exw_uint(&w, 0x30001000, 1);
	exw_group_end(&w, 0);
	put_wide(&w);
	put_wide(&w);
	put_proc_strings(&w, "a");
	put_proc_strings(&w, "a longer one");		/* the same shape */
	put_proc_short_time(&w);
	put_proc_short_time(&w);
	put_proc_many_strings(&w);
	put_proc_many_strings(&w);
	a = w.len;
	put_proc(&w, 6, 3);				/* member backskip 0 */
	zero_backskip(&w, a + 20 + 12 - 4);
	b = w.len;
	put_proc(&w, 7, 3);				/* group backskip 0 */
	zero_backskip(&w, w.len - 4);
	(void)b;
	exw_header(&w, "SunOS", "second", EXW_HEADER_KERNEL);	/* a cat */
	put_proc(&w, 8, 4);
	exw_uint(&w, 0x30001000, 1);			/* a top-level item */
	put_proc(&w, 9, 4);
	CHECK("the writer", exw_error(&w) == EXR_OK);
	CHECK("every rule: the same items and records three ways",
	    same3(w.buf, w.len, &fast, &filled));
	CHECK("and check's fast path took most records", fast >= 15);
	CHECK("and the reader's filled the process and task records",
	    filled >= 10);

	/* Every one-byte change of a short log: the same damage. */
	exw_reset(&w);
	exw_header(&w, "SunOS", "h", EXW_HEADER_KERNEL);
	put_proc(&w, 1, 1);
	put_proc(&w, 2, 2);
	put_task(&w, 3);
	put_proc_odd(&w);
	put_proc(&w, 4, 4);
	put_proc_strings(&w, "a");
	put_proc_strings(&w, "bc");
	{
		static const uint8_t vals[] = { 0x00, 0x01, 0x0f, 0x10, 0x14,
		    0x30, 0x60, 0x70, 0x80, 0xf0, 0xff };
		uint8_t buf[4096];
		size_t n = w.len, pos, v, bad = 0, cases = 0;

		memcpy(buf, w.buf, n);
		for (pos = 0; pos < n && n <= sizeof(buf); pos++) {
			for (v = 0; v < sizeof(vals); v++) {
				uint8_t keep = buf[pos];

				if (vals[v] == keep)
					continue;
				buf[pos] = vals[v];
				cases++;
				if (!same(buf, n, &fast))
					bad++;
				buf[pos] = keep;
			}
			/* Cut there too: every torn tail. */
			if (!same(buf, pos, &fast))
				bad++;
		}
		CHECK("every one-byte change: the same items", bad == 0 &&
		    cases > 5000);
	}
	exw_release(&w);
}

/*
 * Of a log of what put() writes: the members of the shape for process
 * records after reading it (struct rec_shape; 0: none), counting
 * (check's) or filling (the reader's).
 */
static uint32_t
shape_after(void (*put)(struct exw *), int filling)
{
	struct reader_opts tally = { NULL, filling ? 0 : READER_TALLY };
	const struct reader_item *it;
	struct ex_err err;
	struct reader r;
	struct exw w;
	uint32_t n = UINT32_MAX;

	exw_init(&w);
	exw_header(&w, "SunOS", "h", EXW_HEADER_KERNEL);
	put(&w);
	put(&w);
	if (reader_open_mem(&r, "t", w.buf, w.len, &tally, &err) == EXR_OK) {
		while (reader_next(&r, &it, &err) == EXR_OK)
			;
		if (r.memo != NULL)
			n = r.memo->shape[REC_PROC].shape.nobjs;
	}
	reader_release(&r);
	exw_release(&w);
	return n;
}

static void
put_usual(struct exw *w)
{
	put_proc(w, 1, 2);
}

static void
put_strings(struct exw *w)
{
	put_proc_strings(w, "sh");
}

static void
put_zero_member_backskip(struct exw *w)
{
	size_t at = w->len;

	put_proc(w, 1, 2);
	zero_backskip(w, at + 20 + 12 - 4);
}

/*
 * check's shape: made of a record the memo knew member by member, and
 * not where one cannot stand for the record (what it counts is compared
 * with the other ways in test_logs).
 */
static void
test_shape(void)
{
	static const struct {
		const char	*what;
		void		(*put)(struct exw *);
		uint32_t	 members;
	} cases[] = {
		{ "a shape of the usual record", put_usual, 8 },
		{ "a shape of strings side by side and last", put_strings, 7 },
		{ "none with a short time last", put_proc_short_time, 0 },
		{ "none with more strings than runs", put_proc_many_strings,
		    0 },
		{ "none with a member's backskip 0", put_zero_member_backskip,
		    0 },
		{ "none with raw bytes, or a time twice", put_proc_odd, 0 },
	};
	size_t i;
	int f;

	for (f = 0; f < 2; f++)
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
			CHECK(cases[i].what, shape_after(cases[i].put, f) ==
			    cases[i].members);
}

/*
 * A group whose size field says 0, in the middle of a log: the message
 * is the one the decoder gives a group cut to its 16 bytes, whatever
 * else the window holds behind it (the window's fast path once gave
 * "group size 0 is less than 8" instead).
 */
static void
test_short_group(void)
{
	static const char want[] = "truncated group: 16 bytes left, needs "
	    "24 or more";
	struct reader_opts o[2] = { { NULL, 0 }, { NULL, READER_TALLY } };
	const struct reader_item *it;
	struct ex_err err;
	struct reader r;
	struct exw w;
	size_t at;
	int i, rc;

	exw_init(&w);
	exw_header(&w, "SunOS", "h", EXW_HEADER_KERNEL);
	put_proc(&w, 1, 1);
	at = w.len;
	put_proc(&w, 2, 2);
	memset(w.buf + at + 4, 0, 8);			/* its size: 0 */
	put_proc(&w, 3, 3);
	for (i = 0; i < 2; i++) {
		reader_open_mem(&r, "t", w.buf, w.len, &o[i], &err);
		while ((rc = reader_next(&r, &it, &err)) == EXR_OK)
			;
		CHECK("a group of size 0: cut to its 16 bytes",
		    rc == EXR_DAMAGED && err.off == at &&
		    strcmp(err.reason, want) == 0);
		reader_release(&r);
	}
	exw_release(&w);
}

/* pacct, checked only: the same records and damage as decoded. */
static void
test_pacct(void)
{
	uint8_t b[64 * 12 + 10];
	unsigned fast = 0;
	size_t i;

	memset(b, 0, sizeof(b));
	for (i = 0; i < 12; i++) {
		b[i * 64] = (uint8_t)(i & 1);		/* flags */
		b[i * 64 + 1] = 3;			/* v3 */
		b[i * 64 + 48] = 'x';
	}
	b[2 * 64 + 1] = 0x83;				/* big-endian v3 */
	b[3 * 64 + 1] = 0x02;				/* v2 */
	memset(b + 5 * 64, 0, 64 * 2);			/* zero records */
	b[7 * 64 + 1] = 0x09;				/* unknown version */
	b[8 * 64 + 1] = 0x00;				/* v0, flag 0, but not */
	b[8 * 64] = 0;					/* all zeros: comm */
	memset(b + 9 * 64, 0, 64);			/* v0 of zeros */
	b[sizeof(b) - 3] = 1;				/* torn tail */
	CHECK("pacct: the same records and damage", same(b, sizeof(b),
	    &fast));
	CHECK("pacct: runs of good records went as one item", fast >= 2);
	/* Every one-byte change: the same records and damage. */
	{
		size_t pos, bad = 0;
		int v;

		for (pos = 0; pos < sizeof(b); pos++)
			for (v = 0; v < 256; v += 51) {
				uint8_t keep = b[pos];

				b[pos] = (uint8_t)v;
				if (!same(b, sizeof(b), &fast))
					bad++;
				b[pos] = keep;
			}
		CHECK("pacct: every one-byte change, the same", bad == 0);
	}
}

void
suite_skim(void)
{
	test_logs();
	test_shape();
	test_short_group();
	test_pacct();
}
