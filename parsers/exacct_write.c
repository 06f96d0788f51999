/*
 * The exacct writer: packs objects into one growing buffer, big-endian,
 * with sizes and backskips exactly as the Solaris packer writes them
 * (illumos libexacct's encoding; docs/formats.md).
 *
 * Groups are written open-ended: the head goes out with a zero size, the
 * members follow, and exw_group_end() patches size and count in place and
 * appends the trailing backskip.  The caller decides when the buffer goes
 * to a file, so one record can be one write(2).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bytes.h"
#include "exacct.h"

static uint8_t	*reserve(struct exw *w, size_t n);
static void	 counted(struct exw *w);
static void	 backskip(struct exw *w, uint64_t total);

void
exw_init(struct exw *w)
{
	memset(w, 0, sizeof(*w));
}

void
exw_release(struct exw *w)
{
	free(w->buf);
	memset(w, 0, sizeof(*w));
}

void
exw_reset(struct exw *w)
{
	w->len = 0;
	w->depth = 0;
	w->error = EXR_OK;
}

int
exw_error(const struct exw *w)
{
	if (w->error == EXR_OK && w->depth != 0)
		return EXR_USAGE;	/* a group left open */
	return w->error;
}

void
exw_header(struct exw *w, const char *creator, const char *hostname,
    enum exw_header_order order)
{
	exw_group_begin(w, EXACCT_HEADER_TAG);
	exw_uint(w, EXT_UINT32 | EXD_VERSION, EXACCT_VERSION);
	if (order == EXW_HEADER_KERNEL) {
		exw_string(w, EXT_STRING | EXD_FILETYPE, "exacct");
		exw_string(w, EXT_STRING | EXD_CREATOR, creator);
	} else {
		exw_string(w, EXT_STRING | EXD_CREATOR, creator);
		exw_string(w, EXT_STRING | EXD_FILETYPE, "exacct");
	}
	if (hostname != NULL)
		exw_string(w, EXT_STRING | EXD_HOSTNAME, hostname);
	exw_group_end(w, 1);
}

void
exw_group_begin(struct exw *w, uint32_t tag)
{
	uint8_t *p;

	if (w->error != EXR_OK)
		return;
	if (EX_TYPE(tag) != EXT_GROUP || w->depth == EXACCT_MAX_DEPTH) {
		w->error = EXR_USAGE;
		return;
	}
	if ((p = reserve(w, 20)) == NULL)
		return;
	counted(w);
	put_be32(p, tag);
	put_be64(p + 4, 0);		/* patched by exw_group_end */
	put_be32(p + 12, 0);
	put_be32(p + 16, 20);		/* the small backskip is always 20 */
	w->open[w->depth] = w->len - 20;
	w->count[w->depth] = 0;
	w->depth++;
}

void
exw_group_end(struct exw *w, int zero_backskip)
{
	size_t start;
	uint64_t members;

	if (w->error != EXR_OK)
		return;
	if (w->depth == 0) {
		w->error = EXR_USAGE;
		return;
	}
	w->depth--;
	start = w->open[w->depth];
	members = w->len - start - 20;
	/* The size counts count, small backskip and members, not the tag,
	 * the size field or the group's own trailing backskip (§3.3). */
	put_be64(w->buf + start + 4, 8 + members);
	put_be32(w->buf + start + 12, w->count[w->depth]);
	backskip(w, zero_backskip ? 0 : 24 + members);
}

void
exw_uint(struct exw *w, uint32_t tag, uint64_t v)
{
	uint8_t *p;
	size_t n;

	if (w->error != EXR_OK)
		return;
	switch (EX_TYPE(tag)) {
	case EXT_UINT8:		n = 1; break;
	case EXT_UINT16:	n = 2; break;
	case EXT_UINT32:	n = 4; break;
	case EXT_UINT64:
	case EXT_DOUBLE:	n = 8; break;
	default:
		w->error = EXR_USAGE;
		return;
	}
	if ((p = reserve(w, 4 + n)) == NULL)
		return;
	counted(w);
	put_be32(p, tag);
	switch (n) {
	case 1: p[4] = (uint8_t)v; break;
	case 2: put_be16(p + 4, (uint16_t)v); break;
	case 4: put_be32(p + 4, (uint32_t)v); break;
	default: put_be64(p + 4, v); break;
	}
	backskip(w, 8 + n);
}

void
exw_double(struct exw *w, uint32_t tag, double v)
{
	uint64_t bits;

	memcpy(&bits, &v, sizeof(bits));
	exw_uint(w, (tag & ~EXT_TYPE_MASK) | EXT_DOUBLE, bits);
}

void
exw_string(struct exw *w, uint32_t tag, const char *s)
{
	exw_bytes(w, tag, s, strlen(s) + 1);
}

void
exw_bytes(struct exw *w, uint32_t tag, const void *src, size_t n)
{
	uint8_t *p;

	if (w->error != EXR_OK)
		return;
	if (EX_TYPE(tag) != EXT_STRING && EX_TYPE(tag) != EXT_RAW &&
	    EX_TYPE(tag) != EXT_EXACCT_OBJECT) {
		w->error = EXR_USAGE;
		return;
	}
	if (n > SIZE_MAX - 16 || (p = reserve(w, 12 + n)) == NULL) {
		w->error = EXR_NOMEM;
		return;
	}
	counted(w);
	put_be32(p, tag);
	put_be64(p + 4, (uint64_t)n + 4);	/* payload plus backskip */
	if (n > 0)
		memcpy(p + 12, src, n);
	backskip(w, 16 + (uint64_t)n);
}

void
exw_rec(struct exw *w, const struct ex_rec *rec)
{
	const struct ex_item *open[EXACCT_MAX_DEPTH + 1];
	unsigned depth = 0;
	size_t i;

	for (i = 0; i < rec->nitems; i++) {
		const struct ex_item *it = &rec->items[i];

		/* Close the groups that ended before this item. */
		while (depth > it->depth) {
			depth--;
			exw_group_end(w,
			    (open[depth]->flags & EXI_ZERO_BACKSKIP) != 0);
		}
		if (EX_TYPE(it->tag) == EXT_GROUP) {
			exw_group_begin(w, it->tag);
			if (depth > EXACCT_MAX_DEPTH - 1) {
				w->error = EXR_USAGE;
				return;
			}
			open[depth++] = it;
			continue;
		}
		if (EX_TYPE(it->tag) == EXT_STRING ||
		    EX_TYPE(it->tag) == EXT_RAW ||
		    EX_TYPE(it->tag) == EXT_EXACCT_OBJECT) {
			exw_bytes(w, it->tag, it->p, it->n);
			/* Embedded objects travel as their packed bytes. */
			while (i + 1 < rec->nitems &&
			    rec->items[i + 1].depth > it->depth)
				i++;
		} else {
			exw_uint(w, it->tag, it->u);
		}
		if ((it->flags & EXI_ZERO_BACKSKIP) && w->error == EXR_OK)
			put_be32(w->buf + w->len - 4, 0);
	}
	while (depth > 0) {
		depth--;
		exw_group_end(w, (open[depth]->flags & EXI_ZERO_BACKSKIP) != 0);
	}
}

/* Append space for n bytes; NULL (and w->error) if it cannot grow. */
static uint8_t *
reserve(struct exw *w, size_t n)
{
	if (w->cap - w->len < n) {
		size_t ncap = w->cap == 0 ? 4096 : w->cap;
		uint8_t *nbuf;

		while (ncap - w->len < n) {
			if (ncap > SIZE_MAX / 2) {
				w->error = EXR_NOMEM;
				return NULL;
			}
			ncap *= 2;
		}
		if ((nbuf = realloc(w->buf, ncap)) == NULL) {
			w->error = EXR_NOMEM;
			return NULL;
		}
		w->buf = nbuf;
		w->cap = ncap;
	}
	w->len += n;
	return w->buf + w->len - n;
}

static void
counted(struct exw *w)
{
	if (w->depth > 0)
		w->count[w->depth - 1]++;
}

/* Append the trailing backskip: the object's length, 0 if over 4 GiB. */
static void
backskip(struct exw *w, uint64_t total)
{
	uint8_t *p;

	if ((p = reserve(w, 4)) == NULL)
		return;
	put_be32(p, total > 0xFFFFFFFFu ? 0 : (uint32_t)total);
}

int
append_record(int fd, const struct exw *w, uint64_t *end)
{
	size_t done = 0;
	ssize_t n;
	int e;

	while (done < w->len) {
		n = write(fd, w->buf + done, w->len - done);
		if (n > 0) {
			done += (size_t)n;
			continue;
		}
		if (n == -1 && errno == EINTR)
			continue;
		/* A short write's rest gets the reason (ENOSPC, EFBIG). */
		e = n == 0 ? ENOSPC : errno;
		if (done > 0 && ftruncate(fd, (off_t)*end) == -1)
			e = errno;	/* half a record is left: say why */
		errno = e;
		return EXR_IO;
	}
	*end += done;
	return EXR_OK;
}

int
write_record(int fd, const struct exw *w)
{
	ssize_t n;

	do
		n = write(fd, w->buf, w->len);
	while (n == -1 && errno == EINTR);
	if (n >= 0 && n < (ssize_t)w->len)
		errno = ENOSPC;	/* short: the disk, or the size limit, is full */
	return n == (ssize_t)w->len ? EXR_OK : EXR_IO;
}
