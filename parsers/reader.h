/*
 * One reader for every log extracct reads: the format is told once, by
 * content (sniff.h), and from then on the caller sees one loop,
 *
 *	reader_open(&r, path, &opts, &err);
 *	while ((rc = reader_next(&r, &it, &err)) != EXR_EOF)
 *		...it is a fixed record, a stream sample or a damaged range...
 *	reader_release(&r);
 *
 * whatever the file is.  Each format is a const table of functions
 * (struct reader_ops, one per format in reader.c, the way redis' rio.c
 * keeps its backends), over the format's own reader (exacct.h, pacct.h,
 * stream.h), which stays the one that knows the bytes.
 *
 * What reader_next hands out is already in the form every command and
 * the store use: a fixed record of records.h (proc, task, flow, sysload,
 * lost, energy, RAPL), filled once here and nowhere else, with what the
 * filling skipped; a metric-provider stream's sample, normalised; or a
 * damaged range with its reason.  Resuming where an earlier run stopped
 * (the ledger's offset) and stopping at a size are the reader's own
 * operations, so no caller writes a format reader's fields.
 *
 * Not here: printing (reader_damage_msg formats, the caller prints), and
 * a stream's series when the caller keeps them itself (ingest: its
 * series go on across runs and files from the database, so it asks for
 * lines, READER_LINES, and applies them in store/ingest_stream.c).
 *
 * Workload: the loop of every reading command; per record one indirect
 * call and the filler (records.c), as the format readers cost before.
 */
#ifndef READER_H
#define READER_H

#include <stddef.h>
#include <stdint.h>

#include "exacct.h"
#include "pacct.h"
#include "records.h"
#include "sniff.h"
#include "source.h"
#include "stream.h"

/* reader_opts.flags */
#define READER_OBJECTS		0x1	/* exacct objects as decoded (it->obj)
					   only: nothing filled (dump) */
#define READER_NO_STREAMS	0x2	/* refuse a metric-provider stream
					   (EXR_USAGE) before opening it */
#define READER_LINES		0x4	/* a stream's lines (RD_LINE), not
					   samples: the caller keeps series */
#define READER_TALLY		0x8	/* validate and count only (check):
					   it->kind and it->counts are set,
					   it->u may not be filled and
					   it->obj may have no items */

struct reader_opts {
	const char	*provider;	/* of streams; NULL: from the name */
	unsigned	 flags;		/* READER_* */
};

enum reader_what {
	RD_RECORD,	/* it->kind: a fixed record in it->u (REC_HEADER:
			   it->u.header; REC_OTHER: nothing, skipped) */
	RD_SAMPLE,	/* a stream sample: it->line, it->sample */
	RD_LINE,	/* a stream line, as read (READER_LINES): it->line */
	RD_NOTE,	/* a remark at it->off that is not damage: it->note */
	RD_DAMAGE	/* a damaged range: it->damage, and reader_next's err */
};

/* A header group met in an exacct file (logs may be concatenated). */
struct reader_header {
	int		 has_hostname;	/* it names a host */
	char		 hostname[256];
};

struct reader_damage {
	uint64_t	 from, to;	/* bytes skipped, [from, to); empty
					   for a problem that skips none (a
					   header) */
	int		 torn;		/* a stream's last line, no newline */
	int		 zeros;		/* a run of zero bytes */
	int		 writing;	/* if it runs to the end of the input,
					   it may be a record still being
					   written (see damaged(), reader.c) */
};

struct reader_item {
	enum reader_what what;
	enum rec_kind	 kind;		/* RD_RECORD */
	uint64_t	 off;		/* byte offset of the item */
	uint64_t	 end;		/* after it */
	const struct ex_rec *obj;	/* exacct: the object as decoded, valid
					   until the next call; else NULL */
	int		 pacct_version;	/* pacct: its layout (0, 2 or 3) */
	int		 big_endian;	/* pacct: its byte order */
	uint64_t	 nrec;		/* pacct: the records [off, end)
					   holds, all checked: more than 1
					   only with READER_TALLY (a run of
					   good ones; version and byte order
					   the last one's) */
	struct rec_counts counts;	/* what filling this record skipped */
	union {
		struct ex_proc	 proc;		/* REC_PROC (exacct, pacct) */
		struct ex_task	 task;		/* REC_TASK */
		struct ex_flow	 flow;		/* REC_FLOW */
		struct ex_sysload sysload;	/* REC_SYSLOAD */
		struct ex_lost	 lost;		/* REC_LOST */
		struct ex_energy energy;	/* REC_ENERGY */
		struct ex_rapl	 rapl;		/* REC_RAPL */
		struct ex_cgroup cgroup;	/* REC_CGROUP */
		struct reader_header header;	/* REC_HEADER */
	} u;
	struct stream_line line;	/* RD_SAMPLE, RD_LINE */
	struct stream_sample sample;	/* RD_SAMPLE */
	struct reader_damage damage;	/* RD_DAMAGE */
	char		 note[256];	/* RD_NOTE */
};

/* A stream's series (detail), as the reader normalises them. */
struct reader_series {
	char		 detail[STREAM_DETAIL];
	struct stream_series st;
};

struct reader;

/*
 * One format.  next() fills r->item and sets r->off; the others do what
 * the reader_* function of the same name says.
 */
struct reader_ops {
	const char	*name;		/* "exacct", "pacct", "stream": the
					   ledger's files.kind */
	void		(*open)(struct reader *r, const char *path,
			    const struct source *src);	/* takes src over */
	void		(*open_mem)(struct reader *r, const char *path,
			    const uint8_t *bytes, size_t len);
	int		(*next)(struct reader *r, struct ex_err *err);
	int		(*seek)(struct reader *r, uint64_t off,
			    struct ex_err *err);
	void		(*release)(struct reader *r);
};

struct reader {
	enum input_kind	 kind;		/* what sniff said (also on failure) */
	const struct reader_ops *ops;	/* NULL until opened */
	const char	*path;		/* not owned */
	unsigned	 flags;
	const struct stream_provider *provider;	/* streams */
	uint64_t	 off;		/* after the last item read */
	/* Into fmt, so a reader is never copied once open: */
	struct source	*src;		/* the format reader's window */
	const struct ex_counts *tally;	/* its tallies */
	const struct ex_header *hdr;	/* exacct: the file's header */
	union {
		struct exacct_reader ex;
		struct pacct_reader pa;
		struct stream_reader sr;
	} fmt;				/* the format's own reader */
	struct ex_counts counts;	/* streams (the others keep theirs) */
	struct reader_series *series;	/* streams, normalised here */
	size_t		 nseries, cap;
	int		 pending;	/* a sample waits behind its note */
	struct rec_memo	*memo;		/* exacct's fast path (rec_skim,
					   rec_skim_fill); NULL: none */
	struct reader_item item;	/* reused for every item */
};

/*
 * Tell path's format and open it ("-": standard input, read as exacct).
 * Returns EXR_OK; or, with r->kind set and err filled, and r needing no
 * release: EXR_DAMAGED with r->kind INPUT_REFUSED (not a log extracct
 * reads, err says what it is), EXR_USAGE (a stream whose provider is not
 * known, or any stream with READER_NO_STREAMS: err.reason "a
 * metric-provider stream"), EXR_IO or EXR_NOMEM.
 */
int	reader_open(struct reader *r, const char *path,
	    const struct reader_opts *o, struct ex_err *err);

/* The same over bytes[0..len), which must outlive r (tests, fuzzing). */
int	reader_open_mem(struct reader *r, const char *path,
	    const uint8_t *bytes, size_t len, const struct reader_opts *o,
	    struct ex_err *err);

void	reader_release(struct reader *r);

/*
 * The next item into *it (r's own, valid until the next call).  Returns
 * EXR_OK (a record, sample, line or note); EXR_DAMAGED (an RD_DAMAGE
 * item: err says where and why, and the next call goes on after the
 * range); EXR_EOF; or EXR_IO/EXR_NOMEM with err (the reader cannot go
 * on).
 */
static inline int
reader_next(struct reader *r, const struct reader_item **it,
    struct ex_err *err)
{
	*it = &r->item;
	return r->ops->next(r, err);	/* inline: the loop's one call */
}

/*
 * Go on from byte off, where an earlier read of the same file stopped
 * after an item (the ledger's offset).  Before the first reader_next.
 * An exacct file's header is still read first (reader_log_header); a
 * stream counts the lines before off, so messages keep their numbers.
 */
int	reader_seek(struct reader *r, uint64_t off, struct ex_err *err);

/* Read nothing past byte size (a log still growing is read to where it
 * was when looked at).  Before the first reader_next. */
void	reader_limit(struct reader *r, uint64_t size);

/* The descriptor read (-1 for bytes in memory); the reader owns it. */
int	reader_fd(const struct reader *r);

/* The offset after the last item read: where to resume. */
uint64_t reader_offset(const struct reader *r);

/* The file's tallies so far (objects, damaged ranges and bytes). */
struct ex_counts reader_counts(const struct reader *r);

/* "exacct", "pacct" or "stream". */
const char *reader_format(const struct reader *r);

/*
 * An exacct file's own header (found at offset 0: hostname, creator),
 * once the first item is read; NULL for the other formats.
 */
const struct ex_header *reader_log_header(const struct reader *r);

/*
 * How a damaged range is told: the one formatter of these messages.
 *   DF_LOG	"extracct: PATH: offset N: WHY (skipped bytes F-L)", or with
 *		no bytes skipped "extracct: PATH: offset N: WHY" (text,
 *		dump, report on stderr);
 *   DF_CHECK	"PATH: bytes F-L damaged: offset N: WHY", or
 *		"PATH: offset N: WHY" (check, on stdout);
 *   DF_INGEST	"extracct: PATH: offset N: WHY (skipped bytes F-L)", the
 *		range even when empty (ingest);
 *   DF_TAIL	the same for a tail left for the next run: "(incomplete
 *		tail, left for the next run: bytes F-L)".
 * L is the last byte, to - 1.
 */
enum damage_form { DF_LOG, DF_CHECK, DF_INGEST, DF_TAIL };

/*
 * Format the message of the damaged range [from, to) of path, whose
 * offset and reason are err's, into buf[n] (always terminated).
 * Returns the length the whole message needs, as snprintf does.
 */
int	reader_damage_msg(char *buf, size_t n, enum damage_form form,
	    const char *path, uint64_t from, uint64_t to,
	    const struct ex_err *err);

#endif
