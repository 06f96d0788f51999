/*
 * Which format is this file?  Decided by content, never by name: an
 * exacct file starts with its header group tag (or, headerless, with a
 * valid exacct type code); a pacct file is 64-byte records whose version
 * byte is one we read and whose flags use only the low five bits; a
 * metric-provider stream is text lines that start with a microsecond
 * timestamp and a blank.
 */
#ifndef SNIFF_H
#define SNIFF_H

#include <stddef.h>
#include <stdint.h>

#include "exerr.h"

enum input_kind {
	INPUT_EXACCT,	/* also the answer for anything unrecognised */
	INPUT_PACCT,
	INPUT_STREAM
};

/*
 * Look at the start of path ("-" is standard input, taken as exacct: a
 * pipe cannot be read twice).  Returns EXR_OK with *kind set, or EXR_IO.
 */
int	sniff_file(const char *path, enum input_kind *kind, struct ex_err *err);

/* The bytes sniff_file looks at: the start of the file, at most this
 * many (four pacct records). */
#define SNIFF_HEAD	256

/* The same decision on the n bytes at buf (the file's first bytes, as
 * many as sniff_file would read). */
enum input_kind sniff_mem(const uint8_t *buf, size_t n);

#endif
