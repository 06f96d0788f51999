/*
 * The one reader (see reader.h): the format is picked once at open, and
 * from then on every call goes through that format's const table of
 * functions.  One section per format below (exacct, pacct, streams),
 * then the calls that go through the table, then the damage formatter.
 *
 * Each format's next() does the same three things: read with the
 * format's reader, say where it got to (r->off), and hand out the item
 * in fixed form: a record filled (records.c), a stream sample
 * normalised, or the damaged range the format reader skipped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"

static void	fill(struct reader_item *it, const struct ex_rec *rec);
static void	header_fill(struct reader_header *h, const struct ex_rec *rec);
static void	damaged(struct reader *r, uint64_t from, uint64_t to,
		    int torn, int zeros, int writing);

/* ---------------------------------------------------------------- exacct */

/*
 * The fast path's memo (rec_skim, rec_skim_fill), unless the objects
 * themselves are asked for.  None (out of memory): every object is
 * decoded, which gives the same items.
 */
static void
exacct_tally(struct reader *r)
{
	if ((r->flags & READER_TALLY) || (r->flags & READER_OBJECTS) == 0)
		r->memo = calloc(1, sizeof(*r->memo));
}

static void
exacct_open_fn(struct reader *r, const char *path, const struct source *src)
{
	exacct_reader_adopt(&r->fmt.ex, path, src);
	exacct_tally(r);
}

static void
exacct_open_mem_fn(struct reader *r, const char *path, const uint8_t *bytes,
    size_t len)
{
	exacct_reader_init_mem(&r->fmt.ex, path, bytes, len);
	exacct_tally(r);
}

static int
exacct_next_fn(struct reader *r, struct ex_err *err)
{
	struct exacct_reader *x = &r->fmt.ex;
	struct reader_item *it = &r->item;
	const struct ex_rec *rec;
	const uint8_t *p;
	uint64_t len;
	size_t avail;
	int rc;

	/*
	 * A plain record group is checked and tallied (validating only) or
	 * filled straight from the window, without building its item
	 * list: the decoder and the filler took a third of `text`'s
	 * instructions each.  Any other object, good or bad,
	 * takes the decoder.
	 */
	if (r->memo != NULL && (avail = exacct_peek(x, &p)) != 0 &&
	    (r->flags & READER_TALLY ? rec_skim(p, avail, r->memo, &it->kind,
	    &it->counts, &len) : rec_skim_fill(p, avail, r->memo, x->off,
	    &it->kind, &it->u.proc, &it->u.task, &it->counts, &len))) {
		exacct_took(x, len);
		r->off = x->off;
		it->what = RD_RECORD;
		it->obj = &x->rec;
		it->off = x->rec.off;
		it->end = x->rec.off + len;
		return EXR_OK;
	}
	rc = exacct_next(x, &rec, err);
	r->off = x->off;
	if (rc == EXR_DAMAGED)
		damaged(r, x->skip_from, x->skip_to, 0, x->zeros, !x->zeros);
	if (rc != EXR_OK)
		return rc;
	it->what = RD_RECORD;
	it->obj = rec;
	it->off = rec->off;
	it->end = rec->off + rec->len;
	it->kind = rec_kind(rec);
	if ((r->flags & READER_OBJECTS) == 0)
		fill(it, rec);
	return EXR_OK;
}

static int
exacct_seek_fn(struct reader *r, uint64_t off, struct ex_err *err)
{
	(void)err;
	exacct_seek(&r->fmt.ex, off);
	return EXR_OK;
}

static void
exacct_release_fn(struct reader *r)
{
	exacct_reader_release(&r->fmt.ex);
}

static const struct reader_ops exacct_ops = {
	"exacct", exacct_open_fn, exacct_open_mem_fn, exacct_next_fn,
	exacct_seek_fn, exacct_release_fn
};

/*
 * The fixed record of a decoded object, and what filling it skipped.
 * The snapshot kinds are zeroed first: their fillers set only what the
 * object holds, and the store binds whole records.
 */
static void
fill(struct reader_item *it, const struct ex_rec *rec)
{
	struct rec_counts *c = &it->counts;

	memset(c, 0, sizeof(*c));
	switch (it->kind) {
	case REC_PROC:
		proc_fill(&it->u.proc, rec, c);
		break;
	case REC_TASK:
		task_fill(&it->u.task, rec, c);
		break;
	case REC_FLOW:
		flow_fill(&it->u.flow, rec, c);
		break;
	case REC_SYSLOAD:
		memset(&it->u.sysload, 0, sizeof(it->u.sysload));
		sysload_fill(&it->u.sysload, rec, c);
		break;
	case REC_LOST:
		memset(&it->u.lost, 0, sizeof(it->u.lost));
		lost_fill(&it->u.lost, rec, c);
		break;
	case REC_ENERGY:
		memset(&it->u.energy, 0, sizeof(it->u.energy));
		energy_fill(&it->u.energy, rec, c);
		break;
	case REC_RAPL:
		memset(&it->u.rapl, 0, sizeof(it->u.rapl));
		rapl_fill(&it->u.rapl, rec, c);
		break;
	case REC_CGROUP:
		memset(&it->u.cgroup, 0, sizeof(it->u.cgroup));
		cgroup_fill(&it->u.cgroup, rec, c);
		break;
	case REC_HEADER:
		header_fill(&it->u.header, rec);
		break;
	case REC_OTHER:
		break;
	}
}

/*
 * A header group anywhere in the file (cat of two logs has two): the
 * host it names, its last hostname item at any depth.  The file's own
 * header, checked, is reader_log_header's.
 */
static void
header_fill(struct reader_header *h, const struct ex_rec *rec)
{
	size_t i;

	h->has_hostname = 0;
	h->hostname[0] = '\0';
	for (i = 1; i < rec->nitems; i++)
		if (rec->items[i].tag == (EXT_STRING | EXD_HOSTNAME)) {
			rec_copy_string(h->hostname, sizeof(h->hostname),
			    rec->items[i].p, rec->items[i].n);
			h->has_hostname = 1;
		}
}

/* ----------------------------------------------------------------- pacct */

/* Every pacct record is a process record, decoded (no object). */
static void
pacct_items(struct reader *r)
{
	r->item.kind = REC_PROC;
	r->item.obj = NULL;
	r->item.nrec = 1;
}

static void
pacct_open_fn(struct reader *r, const char *path, const struct source *src)
{
	pacct_items(r);
	pacct_reader_adopt(&r->fmt.pa, path, src);
}

static void
pacct_open_mem_fn(struct reader *r, const char *path, const uint8_t *bytes,
    size_t len)
{
	pacct_items(r);
	pacct_reader_init_mem(&r->fmt.pa, path, bytes, len);
}

/* A pacct record is decoded straight into its fixed form. */
static int
pacct_next_fn(struct reader *r, struct ex_err *err)
{
	struct pacct_reader *pa = &r->fmt.pa;
	struct reader_item *it = &r->item;
	int rc;

	rc = pacct_next(pa, (r->flags & READER_TALLY) ? NULL : &it->u.proc,
	    err);
	r->off = pa->off;
	if (rc == EXR_DAMAGED)
		damaged(r, pa->skip_from, pa->skip_to, 0, pa->zeros,
		    !pa->zeros);
	if (rc != EXR_OK)
		return rc;
	/*
	 * kind, obj and counts (0: nothing filled) are set once, at open.
	 * Validating only, the good records behind this one in the window
	 * go with it, checked as pacct_next checks them: a record costs a
	 * few instructions, not a trip through the read loop each.
	 */
	it->what = RD_RECORD;
	it->off = pa->off - PACCT_RECORD_SIZE;
	if (r->flags & READER_TALLY) {
		it->nrec = 1 + pacct_run(pa);
		r->off = pa->off;
	}
	it->end = pa->off;
	it->pacct_version = pa->version;
	it->big_endian = pa->big_endian;
	return EXR_OK;
}

static int
pacct_seek_fn(struct reader *r, uint64_t off, struct ex_err *err)
{
	(void)err;
	pacct_seek(&r->fmt.pa, off);
	return EXR_OK;
}

static void
pacct_release_fn(struct reader *r)
{
	pacct_reader_release(&r->fmt.pa);
}

static const struct reader_ops pacct_ops = {
	"pacct", pacct_open_fn, pacct_open_mem_fn, pacct_next_fn,
	pacct_seek_fn, pacct_release_fn
};

/* --------------------------------------------------------------- streams */

static void
stream_open_fn(struct reader *r, const char *path, const struct source *src)
{
	(void)path;
	stream_reader_adopt(&r->fmt.sr, src);
}

static void
stream_open_mem_fn(struct reader *r, const char *path, const uint8_t *bytes,
    size_t len)
{
	stream_reader_init_mem(&r->fmt.sr, path, bytes, len);
}

/* The series of a detail (Package_0, DRAM_0...) in this file, or NULL. */
static struct reader_series *
series_of(struct reader *r, const char *detail)
{
	struct reader_series *s;
	size_t i;

	for (i = 0; i < r->nseries; i++)
		if (strcmp(r->series[i].detail, detail) == 0)
			return &r->series[i];
	if (r->nseries == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 8;
		struct reader_series *more = realloc(r->series,
		    cap * sizeof(*more));

		if (more == NULL)
			return NULL;
		r->series = more;
		r->cap = cap;
	}
	s = &r->series[r->nseries++];
	memset(s, 0, sizeof(*s));
	snprintf(s->detail, sizeof(s->detail), "%s", detail);
	return s;
}

/*
 * The next line, as a sample of its series: a line that only dates the
 * next (since boot) is passed over, one its series drops is damage (the
 * line is the range), and a reading below resolution is told first, as
 * a note, with the sample kept for the next call.
 */
static int
stream_next_fn(struct reader *r, struct ex_err *err)
{
	struct stream_reader *sr = &r->fmt.sr;
	struct reader_item *it = &r->item;
	const struct stream_line *ln = &it->line;
	struct reader_series *s;
	enum stream_verdict v;
	uint64_t last;
	int rc;

	if (r->pending) {
		r->pending = 0;
		it->what = RD_SAMPLE;
		return EXR_OK;
	}
	for (;;) {
		rc = stream_next(sr, &it->line, err);
		r->off = sr->off;
		if (rc == EXR_DAMAGED) {
			/* A complete line is never still being written. */
			damaged(r, sr->skip_from, sr->skip_to, sr->torn,
			    sr->zeros, sr->torn && !sr->zeros);
			r->counts.damaged++;
			r->counts.damaged_bytes += sr->skip_to - sr->skip_from;
		}
		if (rc != EXR_OK)
			return rc;
		it->off = ln->off;
		it->end = ln->end;
		if (r->flags & READER_LINES) {
			it->what = RD_LINE;
			return EXR_OK;
		}
		if ((s = series_of(r, ln->detail)) == NULL)
			return ex_fail(err, EXR_NOMEM, ln->off, "no memory");
		last = s->st.last_ts_ns;
		switch ((v = stream_apply(r->provider, &s->st, ln,
		    &it->sample))) {
		case SV_SAMPLE:
			it->what = RD_SAMPLE;
			if (stream_underflow(r->provider, &s->st, ln, it->note,
			    sizeof(it->note)) && it->note[0] != '\0') {
				it->what = RD_NOTE;
				r->pending = 1;
			}
			return EXR_OK;
		case SV_OPENS:
			continue;
		default:
			damaged(r, ln->off, ln->end, 0, 0, 0);
			r->counts.damaged++;
			r->counts.damaged_bytes += ln->end - ln->off;
			return stream_dropped(err, ln, v, last);
		}
	}
}

static int
stream_seek_fn(struct reader *r, uint64_t off, struct ex_err *err)
{
	int rc = stream_seek(&r->fmt.sr, off, err);

	r->off = r->fmt.sr.off;
	return rc;
}

static void
stream_release_fn(struct reader *r)
{
	stream_reader_release(&r->fmt.sr);
}

static const struct reader_ops stream_ops = {
	"stream", stream_open_fn, stream_open_mem_fn, stream_next_fn,
	stream_seek_fn, stream_release_fn
};

/* ------------------------------------------------------------ the reader */

/*
 * A damaged range.  writing: at the end of the input it may be a record
 * still being written (the next read finds it whole).  Never zeros:
 * every writer writes a record whole and never zeros, so a zero tail is
 * what a crash left; and of a stream, only a line with no newline yet.
 */
static void
damaged(struct reader *r, uint64_t from, uint64_t to, int torn, int zeros,
    int writing)
{
	struct reader_item *it = &r->item;

	it->what = RD_DAMAGE;
	it->off = from;
	it->end = to;
	it->damage.from = from;
	it->damage.to = to;
	it->damage.torn = torn;
	it->damage.zeros = zeros;
	it->damage.writing = writing;
}

/*
 * After sniffing: the format's table, the provider of a stream, and
 * where the format's reader keeps its window, tallies and header (so no
 * later call asks which format this is).
 */
static int
pick(struct reader *r, const char *path, const struct reader_opts *o,
    struct ex_err *err)
{
	switch (r->kind) {
	case INPUT_PACCT:
		r->ops = &pacct_ops;
		r->src = &r->fmt.pa.src;
		r->tally = &r->fmt.pa.counts;
		return EXR_OK;
	case INPUT_STREAM:
		if (r->flags & READER_NO_STREAMS)
			return ex_fail(err, EXR_USAGE, 0, "a metric-provider "
			    "stream");
		r->provider = stream_provider_for(path,
		    o != NULL ? o->provider : NULL, err);
		if (r->provider == NULL)
			return EXR_USAGE;
		r->ops = &stream_ops;
		r->src = &r->fmt.sr.src;
		r->tally = &r->counts;	/* the stream reader keeps none */
		return EXR_OK;
	default:
		r->ops = &exacct_ops;
		r->src = &r->fmt.ex.src;
		r->tally = &r->fmt.ex.counts;
		r->hdr = &r->fmt.ex.hdr;
		return EXR_OK;
	}
}

static void
start(struct reader *r, const char *path, const struct reader_opts *o)
{
	memset(r, 0, sizeof(*r));
	r->path = path;
	r->flags = o != NULL ? o->flags : 0;
}

int
reader_open(struct reader *r, const char *path, const struct reader_opts *o,
    struct ex_err *err)
{
	struct source s;
	int rc;

	/*
	 * One open: the format is told from the window the format reader
	 * then reads on from (standard input is exacct, unread).  Where
	 * sniff moved the window off the start (past a leading run of
	 * zeros), the file is opened again at 0.
	 */
	start(r, path, o);
	r->kind = INPUT_EXACCT;
	if ((rc = source_open(&s, path, err)) != EXR_OK)
		return rc;
	if ((strcmp(path, "-") != 0 &&
	    (rc = sniff_source(&s, &r->kind, err)) != EXR_OK) ||
	    (rc = pick(r, path, o, err)) != EXR_OK) {
		source_release(&s);
		r->ops = NULL;
		return rc;
	}
	if (s.off != 0) {
		source_release(&s);
		if ((rc = source_open(&s, path, err)) != EXR_OK) {
			r->ops = NULL;
			return rc;
		}
	}
	r->ops->open(r, path, &s);
	return EXR_OK;
}

int
reader_open_mem(struct reader *r, const char *path, const uint8_t *bytes,
    size_t len, const struct reader_opts *o, struct ex_err *err)
{
	struct source s;
	int rc;

	start(r, path, o);
	source_init_mem(&s, path, bytes, len);
	if ((rc = sniff_source(&s, &r->kind, err)) != EXR_OK ||
	    (rc = pick(r, path, o, err)) != EXR_OK) {
		r->ops = NULL;
		return rc;
	}
	r->ops->open_mem(r, path, bytes, len);
	return EXR_OK;
}

void
reader_release(struct reader *r)
{
	if (r->ops != NULL)
		r->ops->release(r);
	free(r->series);
	free(r->memo);
	r->memo = NULL;
	r->series = NULL;
	r->nseries = r->cap = 0;
	r->ops = NULL;
}

int
reader_seek(struct reader *r, uint64_t off, struct ex_err *err)
{
	r->off = off;
	return r->ops->seek(r, off, err);
}

void
reader_limit(struct reader *r, uint64_t size)
{
	r->src->size = size;
}

int
reader_fd(const struct reader *r)
{
	return r->src->fd;
}

uint64_t
reader_offset(const struct reader *r)
{
	return r->off;
}

struct ex_counts
reader_counts(const struct reader *r)
{
	return *r->tally;
}

const char *
reader_format(const struct reader *r)
{
	return r->ops->name;
}

const struct ex_header *
reader_log_header(const struct reader *r)
{
	return r->hdr;
}

/* ----------------------------------------------------- damage messages */

int
reader_damage_msg(char *buf, size_t n, enum damage_form form,
    const char *path, uint64_t from, uint64_t to, const struct ex_err *err)
{
	unsigned long long off = err->off, f = from,
	    l = to > from ? to - 1 : to;

	switch (form) {
	case DF_CHECK:
		if (to > from)
			return snprintf(buf, n, "%s: bytes %llu-%llu damaged: "
			    "offset %llu: %s", path, f, l, off, err->reason);
		return snprintf(buf, n, "%s: offset %llu: %s", path, off,
		    err->reason);
	case DF_INGEST:
	case DF_TAIL:
		return snprintf(buf, n, "extracct: %s: offset %llu: %s (%s "
		    "%llu-%llu)", path, off, err->reason, form == DF_TAIL ?
		    "incomplete tail, left for the next run: bytes" :
		    "skipped bytes", f, l);
	case DF_LOG:
		break;
	}
	if (to > from)
		return snprintf(buf, n, "extracct: %s: offset %llu: %s "
		    "(skipped bytes %llu-%llu)", path, off, err->reason, f, l);
	return snprintf(buf, n, "extracct: %s: offset %llu: %s", path, off,
	    err->reason);
}
