/*
 * The second filler: process and task records (and the local groups)
 * filled straight from a group's bytes, with no decode into items, for
 * speed (reader.c's fast path for check, text and ingest).  It must
 * give what the decoder and records.c's filler give for every group
 * (the same fields, the same counts, damage left to the decoder): it
 * takes a member only where classify (records_int.h) says the filler
 * would, and hands any group it does not fully understand back to the
 * decoder.  tests/unit/test_skim.c holds the two to each other on
 * generated, real and damaged records, and the fuzz target
 * fuzz_exacct does on any bytes.
 */
#include <stddef.h>
#include <string.h>

#include "bytes.h"
#include "exacct.h"
#include "local.h"
#include "records.h"
#include "records_int.h"

/* The widths of the fixed-size types, UINT8..DOUBLE. */
static const uint8_t fixed_width[16] = {
	[1] = 1, [2] = 2, [3] = 4, [4] = 8, [5] = 8
};

/*
 * One member of a group at q, e - q bytes left in the group, as
 * decode_object checks it: its length (0 if decode_object would not take
 * it as a plain item: damaged, a nested group, an embedded object) and,
 * for a STRING or RAW, its payload length in *n (0 for a number).
 */
static inline size_t
skim_member(const uint8_t *q, size_t rest, size_t *n)
{
	uint32_t type;
	uint64_t isize, bs;

	if (rest < 4)
		return 0;
	type = q[0] >> 4;
	if (type >= 1 && type <= 5) {
		*n = 0;
		if (rest < 8u + fixed_width[type])
			return 0;
		bs = be32(q + 4 + fixed_width[type]);
		return bs == 8u + fixed_width[type] || bs == 0 ?
		    8u + fixed_width[type] : 0;
	}
	if (type != 6 && type != 8)	/* an object (7), a group: decode */
		return 0;
	if (rest < 16)
		return 0;
	isize = be64(q + 4);
	if (isize < 4 || isize > rest - 12)
		return 0;
	bs = be32(q + 8 + isize);
	if (bs != 12 + isize && bs != 0)
		return 0;
	*n = (size_t)isize - 4;
	return 12 + (size_t)isize;
}

/*
 * A member's class in a memo (struct rec_memo): what classify() said.
 * The numbers first: their value goes to the class's array (struct
 * skim_acc), with no branch on the class.  Then what counting keeps
 * with no more ado, SK_WHOLE to SK_ADDR, in a row.
 */
enum { SK_SEC, SK_NSEC, SK_WHOLE, SK_NUMBERS, SK_STR = SK_NUMBERS, SK_ADDR,
	SK_UNKNOWN };

/*
 * What a skim gathers over a record's members: each number class's
 * values (the whole ones into the record being filled) and which fields
 * it set; s: the record (NULL: counting only, which keeps no whole
 * number or string).
 */
struct skim_acc {
	const struct fillspec *s;
	uint64_t	*val[SK_NUMBERS];
	uint64_t	 has[SK_NUMBERS];
	uint64_t	 unknown;
	uint64_t	 bad;		/* times no ns holds, found by a shape */
	uint64_t	 sec[64], nsec[64];
};

/*
 * The class of member tag (raw: its 4 bytes as in the file) at index i of
 * a record of kind k, from the memo when the last record of the kind had
 * the same tag there, else from classify() (and remembered).  A RAW
 * member's class also depends on its length, so it is never remembered
 * (an all-zero tag is never looked up: type 0 is damage).
 */
static unsigned
skim_class(const struct kindmap *k, struct rec_memo_kind *mk, uint32_t i,
    uint32_t raw, uint32_t tag, size_t n, uint8_t *field)
{
	static const uint8_t of_part[] = { [WHOLE] = SK_WHOLE,
	    [SEC] = SK_SEC, [NSEC] = SK_NSEC, [STR] = SK_STR,
	    [ADDR4] = SK_ADDR, [ADDR6] = SK_ADDR };
	const struct idmap *m;
	unsigned cls;

	if (i < REC_MEMO_MEMBERS && mk->m[i].tag == raw) {
		*field = mk->m[i].field;
		return mk->m[i].cls;
	}
	cls = (m = classify(k, tag, n)) == NULL ? SK_UNKNOWN : of_part[m->part];
	*field = m != NULL ? m->field : 0;
	if (i < REC_MEMO_MEMBERS) {
		struct rec_memo_member *mm = &mk->m[i];
		unsigned w = fixed_width[tag >> 28];

		mm->tag = EX_TYPE(tag) == EXT_RAW ? 0 : raw;
		mm->len = (uint8_t)(w != 0 ? 8 + w : 0);
		mm->shift = (uint8_t)(64 - 8 * w);
		mm->cls = (uint8_t)cls;
		mm->field = *field;
	}
	return cls;
}

/* A number member's value (classify said it is one). */
static inline uint64_t
skim_uint(const uint8_t *q)
{
	switch (q[0] >> 4) {
	case 1: return q[4];
	case 2: return be16(q + 4);
	case 3: return be32(q + 4);
	default: return be64(q + 4);
	}
}

/*
 * Member q of class cls into a, what fill() does with the decoded item;
 * used: its length (a string's payload is its bytes less 16).  0, or -1
 * for a member only the decoder's way fills (an address).
 */
static int
skim_take(struct skim_acc *a, unsigned cls, uint8_t f, const uint8_t *q,
    size_t used)
{
	if (cls < SK_NUMBERS) {
		if (cls != SK_WHOLE || a->s != NULL) {
			a->val[cls][f] = skim_uint(q);
			a->has[cls] |= 1ULL << f;
		}
		return 0;
	}
	switch (cls) {
	case SK_UNKNOWN:
		a->unknown++;
		return 0;
	case SK_STR:
		if (a->s != NULL) {
			rec_copy_string(a->s->str[f].buf, a->s->str[f].size,
			    q + 12, used - 16);
			a->has[SK_WHOLE] |= 1ULL << f;
		}
		return 0;
	default:			/* SK_ADDR: kept, or the decoder's */
		return a->s != NULL ? -1 : 0;
	}
}

/*
 * Member i at q (rest bytes left in its group) the long way: checked by
 * skim_member, classed, taken.  Returns its length, 0 to give up.
 */
static __attribute__((noinline)) size_t
skim_other(const struct kindmap *k, struct rec_memo_kind *mk, uint32_t i,
    const uint8_t *q, size_t rest, struct skim_acc *a)
{
	size_t n = 0, used;
	uint32_t raw;
	unsigned cls;
	uint8_t f;

	if ((used = skim_member(q, rest, &n)) == 0)
		return 0;
	if (k == NULL)
		return used;	/* a kind with no filler */
	memcpy(&raw, q, sizeof(raw));
	cls = skim_class(k, mk, i, raw, be32(q), n, &f);
	return skim_take(a, cls, f, q, used) == 0 ? used : 0;
}

/* The bits where the 8 bytes at q + at differ from want's. */
static inline uint64_t
word_diff(const uint8_t *q, uint16_t at, uint64_t want)
{
	uint64_t w;

	memcpy(&w, q + at, sizeof(w));
	return w ^ want;
}

/*
 * The record at p, ending at mend, by its kind's shape (struct
 * rec_shape): its members taken into a (filling: with a->s set, filled
 * too) as taking them one by one and joining the times would take them,
 * and 1; 0, a untouched, where anything differs: the members' way then
 * decides.  A run's numbers are in the group when its bytes are; a
 * string is checked as skim() checks one, with 16 bytes behind its
 * start.  Inline in skim, with filling a constant.
 */
static inline __attribute__((always_inline)) int
shape_take(const struct rec_shape *sh, const uint8_t *p, size_t mend,
    struct skim_acc *a, int filling)
{
	const uint16_t *at = sh->word_at;
	const uint64_t *want = sh->word;
	size_t base = 20, runbase[REC_SHAPE_RUNS], strsize[REC_SHAPE_RUNS];
	uint64_t bad = 0, isize, present = 0, val[REC_SHAPE_NONE + 1];
	uint32_t v, j;
	unsigned r;

	for (r = 0; r < sh->nruns; r++) {
		const struct rec_shape_run *run = &sh->run[r];
		const uint8_t *q = p + base;

		if (run->len > mend - base)
			return 0;
		runbase[r] = base;
		if (run->len != 0) {
			memcpy(&v, q, sizeof(v));
			bad |= v ^ run->first_tag;
			memcpy(&v, q + run->len - 4, sizeof(v));
			bad |= v ^ run->last_bs;
		}
		for (j = 0; j + 2 <= run->nwords; j += 2)	/* two at a time */
			bad |= word_diff(q, at[j], want[j]) |
			    word_diff(q, at[j + 1], want[j + 1]);
		if (j < run->nwords)
			bad |= word_diff(q, at[j], want[j]);
		at += run->nwords;
		want += run->nwords;
		base += run->len;
		if (run->str_tag == 0)
			break;
		if (mend - base < 16)
			return 0;
		memcpy(&v, p + base, sizeof(v));
		bad |= v ^ run->str_tag;
		isize = be64(p + base + 4);
		if (isize < 4 || isize > mend - base - 12 ||
		    be32(p + base + 8 + isize) != 12 + isize)
			return 0;
		strsize[r] = (size_t)isize - 4;
		base += 12 + (size_t)isize;
	}
	if (bad != 0 || base != mend)
		return 0;
	for (j = 0; filling && j < sh->nwholes; j++) {
		const struct rec_shape_num *n = &sh->whole[j];

		a->s->v[n->field] = be64(p + runbase[n->run] + n->at + 4) >>
		    n->shift;
	}
	for (j = 0; j < sh->ntimes; j++) {
		const struct rec_shape_num *n = &sh->time[j];

		val[j] = be64(p + runbase[n->run] + n->at + 4) >> n->shift;
	}
	val[REC_SHAPE_NONE] = 0;
	for (j = 0; j < sh->npairs; j++) {
		const struct rec_shape_pair *pr = &sh->pair[j];
		uint64_t sec = val[pr->sec], ns = val[pr->nsec];

		if (bad_time(sec, ns))
			a->bad++;
		else if (filling) {
			a->s->v[pr->field] = sec * 1000000000u + ns;
			present |= 1ULL << pr->field;
		}
	}
	for (r = 0; filling && r + 1 < sh->nruns; r++) {
		const struct strdst *d;

		if (sh->run[r].str_field == REC_SHAPE_NONE)
			continue;
		d = &a->s->str[sh->run[r].str_field];
		rec_copy_string(d->buf, d->size, p + runbase[r] +
		    sh->run[r].len + 12, strsize[r]);
	}
	a->has[SK_WHOLE] = sh->present | present;
	a->unknown = sh->unknown;
	return 1;
}

/*
 * The shape of the group at p (nobjs members, ending at mend), which the
 * members' way has just taken (filling or counting), from the memo that
 * way left: nobjs 0 where there is none to be had (a member the memo
 * does not keep, such as raw bytes; a zero backskip; a time twice; too
 * many members or strings; filling, an address, or a number too near
 * the end to be read as 8 bytes).
 */
static void
shape_build(struct rec_shape *sh, const struct rec_memo_kind *mk,
    const uint8_t *p, uint32_t nobjs, size_t mend, int filling)
{
	struct rec_shape_run *run = sh->run;
	size_t off = 20, start = 20, used = 0, prev = 0;
	uint64_t has[2] = { 0, 0 };
	uint8_t which[2][64];		/* a field's time */
	size_t reach = 0;		/* the run's last value's 8 bytes */
	unsigned nwords = 0;
	uint32_t i, raw;

	memset(sh, 0, offsetof(struct rec_shape, run));
	if (nobjs > REC_MEMO_MEMBERS)
		return;
	memset(run, 0, sizeof(*run));
	for (i = 0; i < nobjs; i++, prev = used, off += used) {
		const struct rec_memo_member *mm = &mk->m[i];

		memcpy(&raw, p + off, sizeof(raw));
		if (mm->tag == 0 || mm->tag != raw ||
		    (filling && mm->cls == SK_ADDR))
			return;
		sh->unknown += mm->cls == SK_UNKNOWN;
		if (mm->len == 0) {		/* a string ends the run */
			if (run == &sh->run[REC_SHAPE_RUNS - 1])
				return;
			run->len = (uint16_t)(off - start);
			run->str_tag = raw;
			run->str_field = REC_SHAPE_NONE;
			if (filling && mm->cls == SK_STR) {
				run->str_field = mm->field;
				sh->present |= 1ULL << mm->field;
			}
			memset(++run, 0, sizeof(*run));
			start = off += 12 + (size_t)be64(p + off + 4);
			used = reach = 0;	/* no number before the next */
			continue;
		}
		used = mm->len;
		if (be32(p + off + used - 4) != used)
			return;		/* a zero backskip */
		if (prev == 0)
			run->first_tag = raw;
		else {			/* where the last number meets it */
			sh->word_at[nwords] = (uint16_t)(off - 4 - start);
			memcpy(&sh->word[nwords++], p + off - 4, 8);
			run->nwords++;
		}
		memcpy(&run->last_bs, p + off + used - 4, 4);
		if (mm->cls == SK_SEC || mm->cls == SK_NSEC ||
		    (filling && mm->cls == SK_WHOLE)) {
			struct rec_shape_num *n;

			if (mm->cls == SK_WHOLE) {
				n = &sh->whole[sh->nwholes++];
				sh->present |= 1ULL << mm->field;
			} else if ((has[mm->cls] >> mm->field) & 1)
				return;	/* twice: the members' way */
			else {
				has[mm->cls] |= 1ULL << mm->field;
				which[mm->cls][mm->field] = sh->ntimes;
				n = &sh->time[sh->ntimes++];
			}
			n->at = (uint16_t)(off - start);
			n->run = (uint8_t)(run - sh->run);
			n->field = mm->field;
			n->shift = mm->shift;
			reach = n->at + 12u;
		}
	}
	for (; has[SK_SEC] != 0; has[SK_SEC] &= has[SK_SEC] - 1) {
		unsigned f = (unsigned)__builtin_ctzll(has[SK_SEC]);
		struct rec_shape_pair *pr = &sh->pair[sh->npairs++];

		pr->sec = which[SK_SEC][f];
		pr->nsec = (has[SK_NSEC] >> f) & 1 ? which[SK_NSEC][f] :
		    REC_SHAPE_NONE;
		pr->field = (uint8_t)f;
	}
	run->len = (uint16_t)(mend - start);
	sh->nruns = (uint8_t)(run - sh->run + 1);
	/*
	 * Each number is read as the 8 bytes after its head: a run before
	 * a string has the string's 16 bytes behind it, the last run needs
	 * them in itself.
	 */
	if (reach > run->len)
		return;
	sh->nobjs = nobjs;
}

/*
 * After a record the members' way took: its shape for the next.  Not
 * where shapes do not pay: records with raw bytes (flows' IPv6
 * addresses) have none, and a writer that gives each number the fewest
 * bytes it needs (generated flows) lays out each record its own way.
 * Making a shape after each took half as long again as checking it, so
 * a shape that missed, or none to be had, doubles the records to wait
 * (with no shape) before the next try, up to 1024; a hit starts afresh.
 */
static void
shape_learn(struct rec_memo_shape *ms, const struct rec_memo_kind *mk,
    const uint8_t *p, uint32_t nobjs, size_t mend, int filling)
{
	int missed = ms->shape.nobjs != 0;	/* we are here: it did */

	if (ms->wait > 0) {
		ms->wait--;
		ms->shape.nobjs = 0;
		return;
	}
	shape_build(&ms->shape, mk, p, nobjs, mend, filling);
	if (ms->shape.nobjs == 0 || missed) {
		ms->backoff = ms->backoff == 0 ? 1 : ms->backoff < 1024 ?
		    ms->backoff * 2 : 1024;
		ms->wait = ms->backoff;
	}
}

/*
 * rec_skim and rec_skim_fill: the group of this kind at p checked, its
 * members classed and taken into a (filling, with a->s set: filled
 * too); *len set.  Inline in each with filling a constant, so that
 * counting skips what it keeps with no test of filling a member.
 */
static inline __attribute__((always_inline)) int
skim(const uint8_t *p, size_t left, struct rec_memo *memo,
    enum rec_kind kind, struct skim_acc *a, struct rec_counts *c,
    uint64_t *len, int filling)
{
	struct rec_memo_kind *mk = &memo->kind[kind];
	struct rec_memo_shape *ms = &memo->shape[kind];
	int shaped = kind == REC_PROC || kind == REC_TASK;
	const struct kindmap *k = rec_kind_maps[kind];
	const uint8_t *q;
	uint64_t size, bs;
	size_t mend, hot, off, used;
	uint32_t raw, nobjs, i;

	size = be64(p + 4);
	if (size < 8 || size > left - 16 || size > EXACCT_MAX_OBJECT - 16 ||
	    be32(p + 16) != 20)
		return 0;
	nobjs = be32(p + 12);
	mend = 12 + (size_t)size;
	a->val[SK_WHOLE] = a->s != NULL ? a->s->v : NULL;
	a->val[SK_SEC] = a->sec;
	a->val[SK_NSEC] = a->nsec;
	a->has[SK_WHOLE] = a->has[SK_SEC] = a->has[SK_NSEC] = a->unknown = 0;
	a->bad = 0;
	/*
	 * A record laid out as the last one of its kind: by its shape.
	 * Processes' and tasks' only: the generated flows' halves take
	 * turns with 11 and 13 members, and trying shapes on them made
	 * check 20% slower.
	 */
	if (shaped && ms->shape.nobjs == nobjs &&
	    shape_take(&ms->shape, p, mend, a, filling)) {
		ms->backoff = 0;
		goto taken;
	}
	/*
	 * Each member at off, the group's members ending at mend.  The hot
	 * case inline: a member whose tag the memo knows at this index,
	 * with room behind it for any number (a number's or string's
	 * head), a number or a string with its sizes and backskip right.
	 * All else (a new tag, zero backskips, raw bytes, the last bytes,
	 * damage) is skim_other's, which checks and classes it afresh.
	 * The record's shape is made of what this way leaves.
	 */
	hot = mend - 16;	/* mend >= 20 */
	for (off = 20, i = 0; i < nobjs; i++, off += used) {
		q = p + off;
		if (off <= hot && i < REC_MEMO_MEMBERS &&
		    (memcpy(&raw, q, sizeof(raw)), mk->m[i].tag == raw)) {
			const struct rec_memo_member *mm = &mk->m[i];

			if ((used = mm->len) != 0) {
				if (be32(q + used - 4) != used)
					goto other;
			} else {	/* a STRING: RAW is never in the memo */
				uint64_t isize = be64(q + 4);

				/*
				 * Nor is an all-zero tag (damage), but a
				 * slot with nothing in it has one.
				 */
				if (raw == 0 || isize < 4 ||
				    isize > mend - off - 12 ||
				    be32(q + 8 + isize) != 12 + isize)
					goto other;
				used = 12 + (size_t)isize;
			}
			/* Counting, what is kept needs nothing more. */
			if (!filling && (unsigned)(mm->cls - SK_WHOLE) <=
			    SK_ADDR - SK_WHOLE)
				continue;
			/*
			 * A number in full: off <= hot leaves 16 bytes, so
			 * 8 can be read at q + 4 whatever its width.
			 */
			if (mm->cls < SK_NUMBERS) {
				a->val[mm->cls][mm->field] = be64(q + 4) >>
				    mm->shift;
				a->has[mm->cls] |= 1ULL << mm->field;
				continue;
			}
			if (skim_take(a, mm->cls, mm->field, q, used) != 0)
				return 0;
			continue;
		}
other:
		if ((used = skim_other(k, mk, i, q, mend - off, a)) == 0)
			return 0;
	}
	if (off != mend)
		return 0;
	if (shaped)
		shape_learn(ms, mk, p, nobjs, mend, filling);
taken:
	bs = be32(p + mend);
	if (bs != 16 + size && bs != 0)
		return 0;
	memset(c, 0, sizeof(*c));
	c->unknown_items = a->unknown;
	c->bad_values = a->bad;
	a->has[SK_WHOLE] |= join_times(a->has[SK_SEC], a->has[SK_NSEC],
	    a->sec, a->nsec, a->s != NULL ? a->s->v : NULL, c);
	if (a->s != NULL)
		*a->s->present = a->has[SK_WHOLE];
	*len = 16 + size;
	return 1;
}

/* The group's head, as decode_object checks it; its kind, or REC_HEADER
 * where the skim does not go (the header's fill reads its host). */
static enum rec_kind
skim_head(const uint8_t *p, size_t left)
{
	if (left < 24 || p[0] >> 4 != 15)
		return REC_HEADER;
	return rec_kind_of(be32(p));
}

int
rec_skim(const uint8_t *p, size_t left, struct rec_memo *memo,
    enum rec_kind *kindp, struct rec_counts *c, uint64_t *len)
{
	struct skim_acc a;
	enum rec_kind kind;

	if ((kind = skim_head(p, left)) == REC_HEADER)
		return 0;
	a.s = NULL;
	if (!skim(p, left, memo, kind, &a, c, len, 0))
		return 0;
	*kindp = kind;
	return 1;
}

int
rec_skim_fill(const uint8_t *p, size_t left, struct rec_memo *memo,
    uint64_t off, enum rec_kind *kindp, struct ex_proc *proc,
    struct ex_task *task, struct rec_counts *c, uint64_t *len)
{
	struct strdst str[64];		/* no kind has more fields */
	struct fillspec s;
	struct skim_acc a;
	enum rec_kind kind = skim_head(p, left);

	if (kind == REC_PROC)
		rec_proc_start(proc, be32(p), off, str, &s);
	else if (kind == REC_TASK)
		rec_task_start(task, be32(p), off, str, &s);
	else
		return 0;	/* the others: the decoder's way */
	a.s = &s;
	if (!skim(p, left, memo, kind, &a, c, len, 1))
		return 0;
	*kindp = kind;
	return 1;
}
