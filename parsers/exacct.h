/*
 * The exacct container: Solaris/illumos extended accounting files.
 *
 * Format facts: docs/formats.md and illumos's libexacct (<sys/exacct.h>,
 * <sys/exacct_impl.h>).
 * A file is a header group followed by top-level objects, all big-endian,
 * no padding; every object ends with a 4-byte backskip equal to its own
 * length (0 for the header and for objects over 4 GiB).
 *
 * The reader decodes one top-level object at a time into a flat list of
 * items (depth-first, groups before their members) that point into the
 * input bytes: nothing is copied.  Every size, count and backskip is
 * checked against the bytes that enclose it before it is used.  A bad
 * object is reported (offset and reason) and the reader resynchronises at
 * the next offset where a whole valid record group starts.
 *
 * Workload: proc logs of 10^5..10^6 records of ~35 items (~550 bytes);
 * exacct_next() and the record fillers (records.c) are the hot path.
 */
#ifndef EXACCT_H
#define EXACCT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "catalog.h"
#include "exerr.h"
#include "source.h"

/* Tag fields (illumos <sys/exacct.h>). */
#define EXT_TYPE_MASK		0xF0000000u
#define EXC_CATALOG_MASK	0x0F000000u
#define EXD_DATA_MASK		0x00FFFFFFu

#define EXT_NONE		0x00000000u
#define EXT_UINT8		0x10000000u
#define EXT_UINT16		0x20000000u
#define EXT_UINT32		0x30000000u
#define EXT_UINT64		0x40000000u
#define EXT_DOUBLE		0x50000000u
#define EXT_STRING		0x60000000u
#define EXT_EXACCT_OBJECT	0x70000000u
#define EXT_RAW			0x80000000u
#define EXT_GROUP		0xF0000000u

#define EXC_DEFAULT		0x00000000u
#define EXC_LOCAL		0x01000000u

/* Group and item ids (§5): the EXD_* of catalog.h. */

#define EXACCT_VERSION		1
#define EXACCT_HEADER_TAG	(EXT_GROUP | EXC_DEFAULT | EXD_GROUP_HEADER)

#define EX_TYPE(tag)		((tag) & EXT_TYPE_MASK)
#define EX_CATALOG(tag)		((tag) & EXC_CATALOG_MASK)
#define EX_ID(tag)		((tag) & EXD_DATA_MASK)

/* Groups nest at most this deep; deeper input is reported as damaged. */
#define EXACCT_MAX_DEPTH	32

/*
 * The largest top-level object read, in bytes.  The kernel's records are
 * at most 64 KiB (EXACCT_MAX_BUFSIZE, illumos <sys/exacct_impl.h>); a
 * size field claiming more than this is damage, so no object can make the reader
 * buffer more (docs/formats.md).
 */
#define EXACCT_MAX_OBJECT	(1024 * 1024)

/*
 * A run of at least this many zero bytes ends a damaged range and is
 * reported as a range of its own: no record holds that many in a row.
 */
#define EXACCT_ZERO_RUN		64

/*
 * One decoded object.  Numbers are already in host order; variable
 * payloads point into the input and stay valid while it is mapped.
 */
struct ex_item {
	uint32_t	 tag;		/* full catalog tag */
	uint16_t	 depth;		/* 0 = top level */
	uint16_t	 flags;		/* EXI_* */
	uint32_t	 nobjs;		/* groups: member count */
	uint64_t	 off;		/* byte offset of the object in input */
	uint64_t	 u;		/* UINT*: value; DOUBLE: bit pattern */
	const uint8_t	*p;		/* STRING/RAW/OBJECT payload */
	size_t		 n;		/* payload length (STRING: with NUL) */
};

#define EXI_ZERO_BACKSKIP	0x0001	/* trailing backskip was 0 */
#define EXI_OPAQUE		0x0002	/* OBJECT payload did not decode */

/* One top-level object: its items, first one the object itself. */
struct ex_rec {
	struct ex_item	*items;		/* owned by the reader */
	size_t		 nitems;
	size_t		 cap;
	uint64_t	 off;		/* offset of the object */
	uint64_t	 len;		/* its encoded length */
};

/* The file header (§1.2), as found. */
struct ex_header {
	int		 found;		/* a header group was at offset 0 */
	uint32_t	 version;	/* 0 when absent */
	char		 filetype[16];
	char		 creator[64];
	char		 hostname[256];
};

/* Per-file tallies, stored by the ledger and printed by check. */
struct ex_counts {
	uint64_t	 objects;	/* top-level objects decoded */
	uint64_t	 damaged;	/* damaged byte ranges */
	uint64_t	 damaged_bytes;	/* bytes in those ranges */
};

struct exacct_reader {
	const char	*path;		/* not owned */
	struct source	 src;		/* the input window */
	uint64_t	 off;		/* input offset of the next object */
	int		 started;	/* header looked at */
	struct ex_header hdr;
	struct ex_rec	 rec;		/* reused for every object */
	struct ex_counts counts;
	uint64_t	 skip_from;	/* last damaged range, [from, to) */
	uint64_t	 skip_to;
	int		 zeros;		/* that range is all zero bytes */
	uint64_t	 zeros_to;	/* resync found zeros [off, zeros_to):
					   the next range (0: none) */
};

/*
 * Read path ("-": standard input).  Returns EXR_OK, or EXR_IO with err
 * filled (then r needs no release).
 */
int	exacct_reader_open(struct exacct_reader *r, const char *path,
	    struct ex_err *err);
/* Read on from src, an open source still at offset 0 (from sniff):
 * r takes it over (release r, not src). */
void	exacct_reader_adopt(struct exacct_reader *r, const char *path,
	    const struct source *src);

/* Read bytes[0..len) (not copied; must outlive the reader). */
void	exacct_reader_init_mem(struct exacct_reader *r, const char *path,
	    const uint8_t *bytes, size_t len);
void	exacct_reader_release(struct exacct_reader *r);

/*
 * Go on from off, a record boundary an earlier read of the same file
 * stopped at (the ledger's offset).  Before the first exacct_next, which
 * still reads the header first (r->hdr, and its damage).
 */
void	exacct_seek(struct exacct_reader *r, uint64_t off);

/*
 * Decode the next top-level object into r->rec (valid until the next
 * call).  Returns:
 *   EXR_OK       *rec is the object (the header group is returned too);
 *   EXR_EOF      no more input;
 *   EXR_DAMAGED  err says where and why; the bytes [r->skip_from,
 *                r->skip_to) were skipped (an empty range for a bad or
 *                missing header) and the next call resumes at the next
 *                valid record group (or end of input);
 *   EXR_IO       a read failed (err filled); EXR_NOMEM likewise.  The
 *                reader cannot go on after these.
 */
int	exacct_next(struct exacct_reader *r, const struct ex_rec **rec,
	    struct ex_err *err);

/*
 * A fast path over the next object for a caller that only validates
 * (check: records.h, rec_skim).  exacct_peek brings the next top-level
 * object into the window, whole as far as its size field says, and
 * returns how many bytes from *p the window holds; 0 when exacct_next
 * must take this one (the header not read yet, zeros to report, the
 * end, a read error, any size it would call damage).  If the caller
 * finds the object good, exacct_took(r, len) goes past its len bytes,
 * as exacct_next does after a good object, with r->rec at its offset
 * and length but no items; else the caller calls exacct_next, which
 * decodes (or reports) it as ever.  The window is not moved between
 * the two, so nothing is read twice.
 */
size_t	exacct_peek(struct exacct_reader *r, const uint8_t **p);
void	exacct_took(struct exacct_reader *r, uint64_t len);

/*
 * Decode one object at bytes[0..len) into rec (appending), as exacct_next
 * does without resync.  For unpacking embedded objects and tests.
 * Returns EXR_OK and sets *used, or EXR_DAMAGED/EXR_NOMEM with err.
 */
int	exacct_decode(struct ex_rec *rec, const uint8_t *bytes, size_t len,
	    uint64_t base_off, size_t *used, struct ex_err *err);
void	ex_rec_release(struct ex_rec *rec);

/* Name of a data id as exdump prints it ("pid", "group-proc"), or NULL. */
const char *exacct_id_name(uint32_t tag);

/* Name of a type field ("uint32"), for messages. */
const char *exacct_type_name(uint32_t tag);

/*
 * The writer: objects are packed into one growing buffer so that a whole
 * record can go out in one write(2) (the kernel does the same, §1.1).
 * Calls after a failure are no-ops; exw_error() reports the first one.
 */
struct exw {
	uint8_t		*buf;
	size_t		 len;
	size_t		 cap;
	int		 depth;
	size_t		 open[EXACCT_MAX_DEPTH];	/* offsets of open groups */
	uint32_t	 count[EXACCT_MAX_DEPTH];	/* members so far */
	int		 error;		/* first EXR_* failure */
};

enum exw_header_order {
	EXW_HEADER_KERNEL,	/* version, filetype, creator, hostname */
	EXW_HEADER_LIBRARY	/* version, creator, filetype, hostname */
};

void	exw_init(struct exw *w);
void	exw_release(struct exw *w);
void	exw_reset(struct exw *w);	/* empty the buffer, keep memory */
int	exw_error(const struct exw *w);

/*
 * Append w's record to the log open on fd with one write(2) (retried
 * only for EINTR), so a reader of the O_APPEND log never sees half of
 * it.  EXR_OK or EXR_IO (errno set).
 */
int	write_record(int fd, const struct exw *w);

/*
 * Append w's record whole or not at all: the rest of a short write is
 * written, and if that fails (a full disk, the file size limit) what
 * was written is cut off again (ftruncate to *end), so the log still
 * ends at a record boundary.  *end is the file's size before, and after
 * on success; the caller must be the only one appending (snap holds the
 * log's lock).  EXR_OK or EXR_IO (errno set).
 */
int	append_record(int fd, const struct exw *w, uint64_t *end);

/* A header group with its trailing backskip forced to 0 (§1.2). */
void	exw_header(struct exw *w, const char *creator, const char *hostname,
	    enum exw_header_order order);

void	exw_group_begin(struct exw *w, uint32_t tag);
/* Close the innermost group; zero_backskip for header-style groups. */
void	exw_group_end(struct exw *w, int zero_backskip);

/* Fixed-size item; the type in tag picks the width (UINT8..DOUBLE). */
void	exw_uint(struct exw *w, uint32_t tag, uint64_t v);
void	exw_double(struct exw *w, uint32_t tag, double v);
/* STRING: s and its NUL. */
void	exw_string(struct exw *w, uint32_t tag, const char *s);
/* Variable item of any type (STRING with an explicit payload, RAW, OBJECT). */
void	exw_bytes(struct exw *w, uint32_t tag, const void *p, size_t n);

/*
 * Re-encode a decoded object (all its items).  Byte-identical to the
 * input for every object the reader accepts (the round-trip property).
 */
void	exw_rec(struct exw *w, const struct ex_rec *rec);

#endif
