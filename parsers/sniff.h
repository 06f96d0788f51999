/*
 * Which format is this file?  Decided by content, never by name, past
 * any zero bytes it starts with (a crash can zero a log's first blocks,
 * and the kernel then appends after them): an exacct file starts with
 * its header group tag, or, headerless, with a record group tag; a
 * pacct file is 64-byte records whose version byte is one we read and
 * whose flags use only the low five bits; a metric-provider stream is
 * text lines that start with a microsecond timestamp and a blank (blank
 * lines before the first are allowed).
 *
 * A file that is none of these is refused with what it is, where that
 * can be told: empty, shorter than any record, pacct version 1, or text
 * that is not a stream (GMT's tcpdump or proxy logs).  Any other binary
 * file is read as exacct, whose reader reports the damage and keeps the
 * records it finds behind it.
 */
#ifndef SNIFF_H
#define SNIFF_H

#include "exerr.h"
#include "source.h"

enum input_kind {
	INPUT_EXACCT,	/* also the answer for unrecognised binary */
	INPUT_PACCT,
	INPUT_STREAM,
	INPUT_REFUSED	/* not a log extracct reads (err says what it is) */
};

/*
 * Look at the start of path ("-" is standard input, taken as exacct: a
 * pipe cannot be read twice).  Returns EXR_OK with *kind set; EXR_DAMAGED
 * with *kind INPUT_REFUSED and err saying what the file is and why it is
 * not read; or EXR_IO (a file that cannot be opened, or is not a regular
 * file: see source_open) or EXR_NOMEM.
 */
int	sniff_file(const char *path, enum input_kind *kind, struct ex_err *err);

/* The same for a source read from its start (tests, fuzzing). */
int	sniff_source(struct source *s, enum input_kind *kind,
	    struct ex_err *err);

#endif
