/*
 * The exacct reader: validate and flatten one top-level object at a time,
 * report damage, resynchronise.
 *
 * Follows illumos libexacct's encodings and header (docs/formats.md)
 * and §7 (walking).  Forward reading only; backskips are checked, not
 * followed.  Items point into the caller's bytes (zero copy).
 *
 * Damage: the first inconsistency inside a top-level object makes the
 * whole object damaged (its members cannot be trusted once one size is
 * wrong).  The reader then scans forward byte by byte for the next offset
 * where a complete, valid record group decodes, and resumes there.  The
 * scan only tries offsets whose first bytes look like a record group tag,
 * so random bytes cost one comparison each.
 */
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "exacct.h"

struct dec {
	const uint8_t	*base;		/* start of the buffer being decoded */
	uint64_t	 base_off;	/* its offset in the input file */
	struct ex_rec	*rec;
	struct ex_err	*err;
};

static int	decode_object(struct dec *d, size_t off, size_t end,
		    unsigned depth, size_t *next);
static int	decode_members(struct dec *d, size_t off, size_t end,
		    unsigned depth, uint32_t nobjs, size_t *next);
static int	decode_at(struct exacct_reader *r, uint64_t at, uint64_t *next,
		    struct ex_err *err);
static inline struct ex_item *push_item(struct dec *d);
static int	grow_items(struct ex_rec *rec);
static inline int check_backskip(struct dec *d, size_t at, uint64_t total,
		    struct ex_item *it);
static int	bad_backskip(struct dec *d, size_t at, uint32_t bs,
		    uint64_t total);
static int	plausible_record_start(const uint8_t *p, size_t left);
static int	zero_run(struct exacct_reader *r, uint64_t at,
		    struct ex_err *err);
static int	resync(struct exacct_reader *r, uint64_t at, uint64_t *out,
		    struct ex_err *err);
static int	start_file(struct exacct_reader *r, struct ex_err *err);
static int	header_problem(const struct exacct_reader *r, uint32_t tag0,
		    size_t avail, char *buf, size_t n);
static void	copy_string(char *dst, size_t dstlen, const struct ex_item *);

static const uint8_t fixed_width[16] = {
	[1] = 1, [2] = 2, [3] = 4, [4] = 8, [5] = 8
};

#define SCAN_CHUNK	(64 * 1024)	/* bytes looked at per resync step */
#define NO_ZEROS	UINT64_MAX

int
exacct_reader_open(struct exacct_reader *r, const char *path,
    struct ex_err *err)
{
	memset(r, 0, sizeof(*r));
	r->path = path;
	return source_open(&r->src, path, err);
}

void
exacct_reader_adopt(struct exacct_reader *r, const char *path,
    const struct source *src)
{
	memset(r, 0, sizeof(*r));
	r->path = path;
	r->src = *src;
}

void
exacct_reader_init_mem(struct exacct_reader *r, const char *path,
    const uint8_t *bytes, size_t len)
{
	memset(r, 0, sizeof(*r));
	r->path = path;
	source_init_mem(&r->src, path, bytes, len);
}

void
exacct_reader_release(struct exacct_reader *r)
{
	ex_rec_release(&r->rec);
	source_release(&r->src);
}

void
exacct_seek(struct exacct_reader *r, uint64_t off)
{
	r->off = off;	/* start_file looks at offset 0 whatever this is */
}

void
ex_rec_release(struct ex_rec *rec)
{
	free(rec->items);
	memset(rec, 0, sizeof(*rec));
}

int
exacct_decode(struct ex_rec *rec, const uint8_t *bytes, size_t len,
    uint64_t base_off, size_t *used, struct ex_err *err)
{
	struct dec d = { bytes, base_off, rec, err };
	size_t first = rec->nitems;
	int rc;

	rc = decode_object(&d, 0, len, 0, used);
	if (rc != EXR_OK)
		rec->nitems = first;
	return rc;
}

int
exacct_next(struct exacct_reader *r, const struct ex_rec **out,
    struct ex_err *err)
{
	uint64_t at, scan = 0, next;
	int rc;

	if (!r->started) {
		r->started = 1;
		if ((rc = start_file(r, err)) != EXR_OK)
			return rc;
	}
	at = r->off;
	if (r->zeros_to > at) {
		/* The window has moved past them: report, do not reread. */
		r->zeros = 1;
		r->skip_from = at;
		r->skip_to = r->off = r->zeros_to;
		r->zeros_to = 0;
		r->counts.damaged++;
		r->counts.damaged_bytes += r->skip_to - at;
		return ex_fail(err, EXR_DAMAGED, at, "%llu " SOURCE_ZEROS_WHY,
		    (unsigned long long)(r->skip_to - at));
	}
	rc = decode_at(r, at, &next, err);
	if (rc == EXR_OK) {
		r->rec.off = at;
		r->rec.len = next - at;
		r->off = next;
		r->counts.objects++;
		*out = &r->rec;
		return EXR_OK;
	}
	if (rc != EXR_DAMAGED)
		return rc;
	/* Damaged: a run of zeros, or up to the next whole record. */
	if ((rc = zero_run(r, at, err)) != EXR_OK)
		return rc;
	if (r->zeros)
		return EXR_DAMAGED;
	if ((rc = resync(r, at, &scan, err)) != EXR_OK)
		return rc;
	r->rec.nitems = 0;
	r->skip_from = at;
	r->skip_to = scan;
	r->off = scan;
	r->counts.damaged++;
	r->counts.damaged_bytes += scan - at;
	return EXR_DAMAGED;
}

/*
 * A damaged object at `at` that starts with zero bytes (a tag is never
 * 0): the damaged range is the run of them, and err says so.  Sets
 * r->zeros if it was one; EXR_OK, or EXR_NOMEM/EXR_IO.
 */
static int
zero_run(struct exacct_reader *r, uint64_t at, struct ex_err *err)
{
	const uint8_t *p;
	uint64_t end;
	size_t avail;
	int rc;

	r->zeros = 0;
	avail = source_get(&r->src, at, 4, &p);
	if (avail == (size_t)-1)
		return ex_fail(err, EXR_NOMEM, at, "no memory");
	if (avail == 0 || zero_span(p, avail) < avail)
		return EXR_OK;
	if ((rc = source_zero_run(&r->src, at, 1, &end)) != EXR_OK) {
		rc = ex_fail(err, rc, at, "%s", rc == EXR_NOMEM ? "no memory" :
		    strerror(r->src.sys_errno));
		if (err != NULL && rc == EXR_IO)
			err->sys_errno = r->src.sys_errno;
		return rc;
	}
	r->zeros = 1;
	r->rec.nitems = 0;
	r->skip_from = at;
	r->skip_to = r->off = end;
	r->counts.damaged++;
	r->counts.damaged_bytes += end - at;
	(void)ex_fail(err, EXR_DAMAGED, at, "%llu " SOURCE_ZEROS_WHY,
	    (unsigned long long)(end - at));
	return EXR_OK;
}

/*
 * After a damaged object at `at`: the next offset where a whole record
 * group decodes, or the end of input, into *out.  Only bytes that can
 * start a group (0xF0, 0xF1) are tried; zero bytes are passed over fast
 * (holes unread), and if the range would end in a run of EXACCT_ZERO_RUN
 * or more, it ends where they begin, and r->zeros_to keeps where they
 * end for the next call to report.  EXR_OK, or EXR_NOMEM/EXR_IO.
 */
static int
resync(struct exacct_reader *r, uint64_t at, uint64_t *out,
    struct ex_err *err)
{
	const uint8_t *p;
	uint64_t scan, next, zfrom = NO_ZEROS;
	size_t avail, i, lim;
	int rc;

	for (scan = at + 1;;) {
		avail = source_get(&r->src, scan, SCAN_CHUNK, &p);
		if (avail == (size_t)-1)
			return ex_fail(err, EXR_NOMEM, scan, "no memory");
		if (avail < 24) {	/* too short for any group */
			for (i = 0; i < avail; i++)
				if (p[i] != 0)
					zfrom = NO_ZEROS;
				else if (zfrom == NO_ZEROS)
					zfrom = scan + i;
			scan += avail;
			break;
		}
		/* Offsets with the 24 bytes of a group's start behind them. */
		lim = avail - 23;
		for (i = 0; i < lim; i++) {
			/* A zero alone (records are full of them) is no run
			 * to look for the end of; i + 1 < avail here. */
			if (p[i] == 0 && p[i + 1] != 0) {
				if (zfrom == NO_ZEROS)
					zfrom = scan + i;
				continue;
			}
			if (p[i] == 0 || ((p[i] == 0xF0 || p[i] == 0xF1) &&
			    plausible_record_start(p + i, avail - i)))
				break;
			zfrom = NO_ZEROS;
		}
		scan += i;
		if (i == lim)
			continue;
		if (p[i] == 0) {
			if (zfrom == NO_ZEROS)
				zfrom = scan;
			if ((rc = source_zero_run(&r->src, scan, 1, &next)) !=
			    EXR_OK)
				return ex_fail(err, rc, scan, "%s",
				    ex_strcode(rc));
			scan = next;
			continue;
		}
		rc = decode_at(r, scan, &next, NULL);
		if (rc == EXR_OK)
			break;
		if (rc != EXR_DAMAGED)
			return ex_fail(err, rc, scan, "%s", ex_strcode(rc));
		zfrom = NO_ZEROS;
		scan++;
	}
	if (zfrom != NO_ZEROS && scan - zfrom >= EXACCT_ZERO_RUN) {
		r->zeros_to = scan;
		scan = zfrom;
	}
	*out = scan;
	return EXR_OK;
}

/*
 * Bring the object at input offset `at` into the window, whole as far as
 * its size field says: *p and *avail are what the window holds from
 * `at`.  Returns EXR_OK, EXR_EOF at the end of input, EXR_DAMAGED for a
 * size past EXACCT_MAX_OBJECT, or EXR_IO/EXR_NOMEM.
 */
static int
window_at(struct exacct_reader *r, uint64_t at, const uint8_t **p,
    size_t *avail, struct ex_err *err)
{
	uint64_t need = 0;
	size_t n;
	int rc;

	/*
	 * Most objects are in the window already, whole: a group there
	 * with its size in range needs nothing read.  What the window has
	 * is cut to the object's length, as source_get cuts it below, so
	 * that the decoder's messages ("truncated group: 16 bytes left")
	 * do not depend on where the window happens to end.
	 */
	if ((n = source_have(&r->src, at, p)) >= 16 && (*p)[0] >> 4 == 15 &&
	    be64(*p + 4) <= EXACCT_MAX_OBJECT - 16 && 16 + be64(*p + 4) <= n) {
		*avail = 16 + (size_t)be64(*p + 4);
		return EXR_OK;
	}
	n = source_get(&r->src, at, 16, p);
	if (n == (size_t)-1)
		return ex_fail(err, EXR_NOMEM, at, "no memory");
	if (n == 0) {
		if (r->src.sys_errno != 0) {
			rc = ex_fail(err, EXR_IO, at, "%s",
			    strerror(r->src.sys_errno));
			if (err != NULL)
				err->sys_errno = r->src.sys_errno;
			return rc;
		}
		return EXR_EOF;
	}
	/*
	 * Bring the whole object into the window: its length from its
	 * size field.  A size past EXACCT_MAX_OBJECT is damage, not a
	 * request to buffer gigabytes; decode_object checks it all again.
	 */
	if (n >= 12) {
		uint32_t type = (*p)[0] >> 4;

		if (type >= 1 && type <= 5)
			need = 8 + fixed_width[type];
		else if ((type >= 6 && type <= 8) || type == 15) {
			uint64_t size = be64(*p + 4), hdr = type == 15 ? 16 : 12;

			if (size > EXACCT_MAX_OBJECT - hdr)
				return ex_fail(err, EXR_DAMAGED, at, "%s size "
				    "%llu: larger than any accounting record "
				    "(objects of up to %d KiB are read)",
				    type == 15 ? "group" :
				    exacct_type_name(be32(*p)),
				    (unsigned long long)size,
				    EXACCT_MAX_OBJECT / 1024);
			need = hdr + size;
		}
		if (need > r->src.size)
			need = r->src.size;
		if (need > n) {
			n = source_get(&r->src, at, (size_t)need, p);
			if (n == (size_t)-1)
				return ex_fail(err, EXR_NOMEM, at,
				    "no memory for a %llu-byte object",
				    (unsigned long long)need);
		}
	}
	*avail = n;
	return EXR_OK;
}

/*
 * Decode the object at input offset `at` into r->rec.  Returns EXR_OK
 * with *next set, EXR_EOF at the end of input, EXR_DAMAGED, or
 * EXR_IO/EXR_NOMEM.
 */
static int
decode_at(struct exacct_reader *r, uint64_t at, uint64_t *next,
    struct ex_err *err)
{
	const uint8_t *p;
	size_t avail, used;
	int rc;

	if ((rc = window_at(r, at, &p, &avail, err)) != EXR_OK)
		return rc;
	r->rec.nitems = 0;
	{
		struct dec d = { p, at, &r->rec, err };

		rc = decode_object(&d, 0, avail, 0, &used);
	}
	if (rc == EXR_OK)
		*next = at + used;
	return rc;
}

size_t
exacct_peek(struct exacct_reader *r, const uint8_t **p)
{
	size_t avail;

	if (!r->started || r->zeros_to > r->off ||
	    window_at(r, r->off, p, &avail, NULL) != EXR_OK)
		return 0;
	return avail;
}

void
exacct_took(struct exacct_reader *r, uint64_t len)
{
	r->rec.nitems = 0;
	r->rec.off = r->off;
	r->rec.len = len;
	r->off += len;
	r->counts.objects++;
}

/*
 * Decode the object at base[off], which must end by end.  Appends its
 * items; sets *next to the offset after it.
 */
static int
decode_object(struct dec *d, size_t off, size_t end, unsigned depth,
    size_t *next)
{
	const uint8_t *p = d->base + off;
	uint64_t fileoff = d->base_off + off;
	size_t left = end - off, n;
	struct ex_item *it;
	uint32_t tag, type;
	uint64_t size, total;
	int rc;

	if (left < 4)
		return ex_fail(d->err, EXR_DAMAGED, fileoff,
		    "truncated object: %zu bytes left, a tag needs 4", left);
	tag = be32(p);
	type = tag >> 28;
	if ((it = push_item(d)) == NULL)
		return ex_fail(d->err, EXR_NOMEM, fileoff, "no memory");
	it->tag = tag;
	it->depth = (uint16_t)depth;
	it->off = fileoff;

	switch (type) {
	case 1: case 2: case 3: case 4: case 5:
		n = fixed_width[type];
		total = 8 + n;
		if (left < total)
			return ex_fail(d->err, EXR_DAMAGED, fileoff,
			    "truncated %s item: needs %llu bytes, %zu left",
			    exacct_type_name(tag), (unsigned long long)total,
			    left);
		switch (n) {
		case 1: it->u = p[4]; break;
		case 2: it->u = be16(p + 4); break;
		case 4: it->u = be32(p + 4); break;
		default: it->u = be64(p + 4); break;
		}
		rc = check_backskip(d, off + 4 + n, total, it);
		break;
	case 6: case 7: case 8:
		if (left < 16)
			return ex_fail(d->err, EXR_DAMAGED, fileoff,
			    "truncated %s item: %zu bytes left, needs 16 or more",
			    exacct_type_name(tag), left);
		size = be64(p + 4);
		if (size < 4)
			return ex_fail(d->err, EXR_DAMAGED, fileoff,
			    "%s size %llu is less than 4",
			    exacct_type_name(tag), (unsigned long long)size);
		if (size > left - 12)
			return ex_fail(d->err, EXR_DAMAGED, fileoff,
			    "%s size %llu runs past the end (%zu bytes left)",
			    exacct_type_name(tag), (unsigned long long)size,
			    left - 12);
		total = 12 + size;
		it->p = p + 12;
		it->n = (size_t)size - 4;
		rc = check_backskip(d, off + 12 + it->n, total, it);
		if (rc == EXR_OK && type == 7) {
			size_t i = (size_t)(it - d->rec->items), used;
			size_t first = d->rec->nitems;
			struct dec sub = { it->p, fileoff + 12, d->rec, NULL };
			size_t o = 0;

			/*
			 * An embedded object is a packed buffer of whole
			 * objects.  Nobody checks what putacct(2) stores,
			 * so one that does not decode stays opaque bytes
			 * rather than damaging the record around it.
			 */
			if (depth + 1 >= EXACCT_MAX_DEPTH)
				o = (size_t)-1;
			while (o != (size_t)-1 && o < d->rec->items[i].n) {
				int r2 = decode_object(&sub, o,
				    d->rec->items[i].n, depth + 1, &used);

				if (r2 == EXR_NOMEM)
					return ex_fail(d->err, EXR_NOMEM,
					    fileoff, "no memory");
				o = r2 == EXR_OK ? used : (size_t)-1;
			}
			if (o == (size_t)-1) {
				d->rec->nitems = first;
				d->rec->items[i].flags |= EXI_OPAQUE;
			}
			*next = off + (size_t)total;
			return EXR_OK;
		}
		break;
	case 15:
		if (depth >= EXACCT_MAX_DEPTH)
			return ex_fail(d->err, EXR_DAMAGED, fileoff,
			    "groups nested deeper than %d", EXACCT_MAX_DEPTH);
		if (left < 24)
			return ex_fail(d->err, EXR_DAMAGED, fileoff,
			    "truncated group: %zu bytes left, needs 24 or more",
			    left);
		size = be64(p + 4);
		if (size < 8)
			return ex_fail(d->err, EXR_DAMAGED, fileoff,
			    "group size %llu is less than 8",
			    (unsigned long long)size);
		if (size > left - 16)
			return ex_fail(d->err, EXR_DAMAGED, fileoff,
			    "group size %llu runs past the end (%zu bytes left)",
			    (unsigned long long)size, left - 16);
		it->nobjs = be32(p + 12);
		if (be32(p + 16) != 20)
			return ex_fail(d->err, EXR_DAMAGED, fileoff + 16,
			    "group small backskip %u, expected 20",
			    be32(p + 16));
		total = 16 + size;
		{
			size_t i = (size_t)(it - d->rec->items);
			size_t mend = off + 12 + (size_t)size, after;

			rc = decode_members(d, off + 20, mend, depth + 1,
			    it->nobjs, &after);
			if (rc != EXR_OK)
				return rc;
			rc = check_backskip(d, mend, total,
			    &d->rec->items[i]);
		}
		break;
	default:
		return ex_fail(d->err, EXR_DAMAGED, fileoff,
		    "unknown type code 0x%x in tag 0x%08x", type, tag);
	}
	if (rc == EXR_OK)
		*next = off + (size_t)total;
	return rc;
}

/* Decode exactly nobjs members filling [off, end) exactly. */
static int
decode_members(struct dec *d, size_t off, size_t end, unsigned depth,
    uint32_t nobjs, size_t *next)
{
	uint32_t i;
	int rc;

	for (i = 0; i < nobjs; i++) {
		const uint8_t *p = d->base + off;
		uint32_t type;

		if (off >= end)
			return ex_fail(d->err, EXR_DAMAGED,
			    d->base_off + off,
			    "group count %u, but its size holds only %u "
			    "members", nobjs, i);
		/*
		 * The hot path: a whole fixed-size item with a correct
		 * backskip (records are mostly these).  Anything else,
		 * damage included, takes the general path, which says
		 * what is wrong.
		 */
		type = end - off >= 16 ? p[0] >> 4 : 0;
		if (type >= 1 && type <= 5) {
			size_t n = fixed_width[type];
			struct ex_item *it;

			if (be32(p + 4 + n) == 8 + n) {
				if ((it = push_item(d)) == NULL)
					return ex_fail(d->err, EXR_NOMEM,
					    d->base_off + off, "no memory");
				it->tag = be32(p);
				it->depth = (uint16_t)depth;
				it->off = d->base_off + off;
				it->u = n == 8 ? be64(p + 4) : n == 4 ?
				    be32(p + 4) : n == 2 ? be16(p + 4) : p[4];
				off += 8 + n;
				continue;
			}
		}
		if ((rc = decode_object(d, off, end, depth, &off)) != EXR_OK)
			return rc;
	}
	if (off != end)
		return ex_fail(d->err, EXR_DAMAGED, d->base_off + off,
		    "group count %u, but %zu bytes of its size are left "
		    "after the last member", nobjs, end - off);
	*next = off;
	return EXR_OK;
}

/*
 * The 4 bytes at base[at] end the object that started at base[obj]; they
 * must hold its total length, or 0 (the header's forced zero, §1.2, and
 * objects over 4 GiB, §3.4).
 */
static inline int
check_backskip(struct dec *d, size_t at, uint64_t total, struct ex_item *it)
{
	uint32_t bs = be32(d->base + at);

	if (bs == total)
		return EXR_OK;
	if (bs == 0) {
		it->flags |= EXI_ZERO_BACKSKIP;
		return EXR_OK;
	}
	return bad_backskip(d, at, bs, total);
}

static int
bad_backskip(struct dec *d, size_t at, uint32_t bs, uint64_t total)
{
	return ex_fail(d->err, EXR_DAMAGED, d->base_off + at,
	    "backskip %u, expected %llu (the object's length)", bs,
	    (unsigned long long)total);
}

/* The next free item, zeroed; NULL if the list cannot grow. */
static inline struct ex_item *
push_item(struct dec *d)
{
	struct ex_rec *rec = d->rec;
	struct ex_item *it;

	if (rec->nitems == rec->cap && grow_items(rec) != 0)
		return NULL;
	it = &rec->items[rec->nitems++];
	*it = (struct ex_item){ 0 };
	return it;
}

static int
grow_items(struct ex_rec *rec)
{
	size_t ncap = rec->cap == 0 ? 64 : rec->cap * 2;
	struct ex_item *items;

	if (ncap > SIZE_MAX / sizeof(*items))
		return -1;
	if ((items = realloc(rec->items, ncap * sizeof(*items))) == NULL)
		return -1;
	rec->items = items;
	rec->cap = ncap;
	return 0;
}

/*
 * Resync candidates: a group tag in the default catalog with a record
 * group id (0xff..0x10f), or any local-catalog group; and the small
 * backskip 20 where it belongs.
 */
static int
plausible_record_start(const uint8_t *p, size_t left)
{
	uint32_t tag;

	if (left < 24 || (p[0] != 0xF0 && p[0] != 0xF1))
		return 0;
	if (be32(p + 16) != 20)
		return 0;
	tag = be32(p);
	if (EX_CATALOG(tag) == EXC_LOCAL)
		return 1;
	return EX_ID(tag) >= EXD_GROUP_HEADER &&
	    EX_ID(tag) <= EXD_GROUP_NET_FLOW_STATS;
}

/*
 * Look at the start of the input: report an empty file, a missing or a
 * wrong header (once; the records behind it are still read), and fill
 * r->hdr.
 */
static int
start_file(struct exacct_reader *r, struct ex_err *err)
{
	const uint8_t *p;
	uint64_t next;
	size_t avail, i;
	uint32_t tag0 = 0;
	char why[160];
	int rc;

	avail = source_get(&r->src, 0, 4, &p);
	if (avail == (size_t)-1)
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	if (avail == 0 && r->src.sys_errno != 0) {
		rc = ex_fail(err, EXR_IO, 0, "%s", strerror(r->src.sys_errno));
		if (err != NULL)
			err->sys_errno = r->src.sys_errno;
		return rc;
	}
	if (avail == 0) {
		r->counts.damaged++;
		return ex_fail(err, EXR_DAMAGED, 0, "empty file");
	}
	/* Zeros where the header was: the zero run at offset 0 is the
	 * damage, and says so. */
	if (zero_span(p, avail) == avail)
		return EXR_OK;
	if (avail == 4)
		tag0 = be32(p);
	if (tag0 == EXACCT_HEADER_TAG &&
	    decode_at(r, 0, &next, NULL) == EXR_OK) {
		r->hdr.found = 1;
		for (i = 1; i < r->rec.nitems; i++) {
			const struct ex_item *it = &r->rec.items[i];

			if (it->depth != 1)
				continue;
			/* Matched on the full tag, as libexacct does (§7.2). */
			switch (it->tag) {
			case EXT_UINT32 | EXD_VERSION:
				r->hdr.version = (uint32_t)it->u;
				break;
			case EXT_STRING | EXD_FILETYPE:
				copy_string(r->hdr.filetype,
				    sizeof(r->hdr.filetype), it);
				break;
			case EXT_STRING | EXD_CREATOR:
				copy_string(r->hdr.creator,
				    sizeof(r->hdr.creator), it);
				break;
			case EXT_STRING | EXD_HOSTNAME:
				copy_string(r->hdr.hostname,
				    sizeof(r->hdr.hostname), it);
				break;
			}
		}
		r->rec.nitems = 0;
	}
	if (header_problem(r, tag0, avail, why, sizeof(why))) {
		r->skip_from = r->skip_to = 0;
		r->counts.damaged++;
		return ex_fail(err, EXR_DAMAGED, 0, "%s", why);
	}
	return EXR_OK;
}

/*
 * Describe what is wrong with the header into buf; 0 if nothing.  A
 * header group that does not decode is left to the ordinary damage path,
 * which says exactly where.
 */
static int
header_problem(const struct exacct_reader *r, uint32_t tag0, size_t avail,
    char *buf, size_t n)
{
	if (!r->hdr.found) {
		if (tag0 == EXACCT_HEADER_TAG)
			return 0;
		if (avail >= 4)
			snprintf(buf, n, "no exacct header: the file starts "
			    "with tag 0x%08x, not 0x%08x", tag0,
			    EXACCT_HEADER_TAG);
		else
			snprintf(buf, n, "no exacct header: only %zu bytes",
			    avail);
		return 1;
	}
	if (r->hdr.version != EXACCT_VERSION) {
		snprintf(buf, n, "exacct header version %u, expected %d",
		    r->hdr.version, EXACCT_VERSION);
		return 1;
	}
	if (strcmp(r->hdr.filetype, "exacct") != 0) {
		snprintf(buf, n, "exacct header filetype \"%s\", expected "
		    "\"exacct\"", r->hdr.filetype);
		return 1;
	}
	if (r->hdr.creator[0] == '\0') {
		snprintf(buf, n, "exacct header has no creator");
		return 1;
	}
	return 0;
}

/* Copy a STRING payload into a fixed buffer, stopping at NUL, truncating. */
static void
copy_string(char *dst, size_t dstlen, const struct ex_item *it)
{
	size_t n = it->n;
	const void *nul = memchr(it->p, '\0', n);

	if (nul != NULL)
		n = (size_t)((const uint8_t *)nul - it->p);
	if (n >= dstlen)
		n = dstlen - 1;
	memcpy(dst, it->p, n);
	dst[n] = '\0';
}
