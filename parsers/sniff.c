/*
 * Input format detection (see sniff.h).
 */
#include <stdio.h>
#include <string.h>

#include "bytes.h"
#include "exacct.h"
#include "pacct.h"
#include "sniff.h"
#include "stream.h"

#define SNIFF_HEAD	512	/* bytes looked at (four pacct records: 256) */

int
sniff_file(const char *path, enum input_kind *kind, struct ex_err *err)
{
	struct source s;
	int rc;

	*kind = INPUT_EXACCT;
	if (strcmp(path, "-") == 0)
		return EXR_OK;
	if ((rc = source_open(&s, path, err)) != EXR_OK)
		return rc;
	rc = sniff_source(&s, kind, err);
	source_release(&s);
	return rc;
}

/* Text: no control bytes but tab, newline, CR and form feed (UTF-8 is). */
static int
looks_text(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((p[i] < 0x20 && p[i] != '\t' && p[i] != '\n' &&
		    p[i] != '\r' && p[i] != '\f') || p[i] == 0x7f)
			return 0;
	return n > 0;
}

/* The line number of the first line in p that is not blank. */
static unsigned long long
first_line(const uint8_t *p, size_t n)
{
	unsigned long long line = 1;
	size_t i;

	for (i = 0; i < n && (p[i] == '\n' || p[i] == '\r' || p[i] == ' ' ||
	    p[i] == '\t'); i++)
		line += p[i] == '\n';
	return line;
}

static int
refuse(enum input_kind *kind, struct ex_err *err, uint64_t off,
    const char *why)
{
	*kind = INPUT_REFUSED;
	return ex_fail(err, EXR_DAMAGED, off, "%s", why);
}

static int
read_failed(struct source *s, size_t n, uint64_t off, struct ex_err *err)
{
	int rc;

	if (n == (size_t)-1)
		return ex_fail(err, EXR_NOMEM, off, "no memory");
	rc = ex_fail(err, EXR_IO, off, "%s", strerror(s->sys_errno));
	if (err != NULL)
		err->sys_errno = s->sys_errno;
	return rc;
}

int
sniff_source(struct source *s, enum input_kind *kind, struct ex_err *err)
{
	const uint8_t *p, *h;
	uint64_t zr;
	size_t n, z, hn;
	char why[160];
	int rc;

	*kind = INPUT_EXACCT;
	n = source_get(s, 0, 1, &p);
	if (n == (size_t)-1 || (n == 0 && s->sys_errno != 0))
		return read_failed(s, n, 0, err);
	if (n == 0)
		return refuse(kind, err, 0, "empty file");
	/* Past whole zero records (on the pacct grid); a file of nothing
	 * but zeros goes to the exacct reader, which reports them. */
	if ((rc = source_zero_run(s, 0, PACCT_RECORD_SIZE, &zr)) != EXR_OK)
		return read_failed(s, rc == EXR_NOMEM ? (size_t)-1 : 0, 0,
		    err);
	n = source_get(s, zr, SNIFF_HEAD, &p);
	if (n == (size_t)-1 || (n == 0 && s->sys_errno != 0))
		return read_failed(s, n, zr, err);
	z = zero_span(p, n);
	if (z == n)
		return EXR_OK;
	h = p + z;		/* from the first byte that is not zero */
	hn = n - z;
	/* An exacct file's first byte is 0xF0 (the header group) or 0xF1
	 * (a local group); a pacct record's flags are below 0x20. */
	if ((hn >= 4 && be32(h) == EXACCT_HEADER_TAG) || h[0] == 0xF0 ||
	    h[0] == 0xF1)
		return EXR_OK;
	if (pacct_sniff(p, n)) {
		*kind = INPUT_PACCT;
		return EXR_OK;
	}
	if (stream_sniff(h, hn)) {
		*kind = INPUT_STREAM;
		return EXR_OK;
	}
	/* Version 1 is struct acct without ac_ahz, as m68k kernels write
	 * it (acct(5)). */
	if (n >= 2 && (p[0] & 0xe0) == 0 && (p[1] & 0x7f) == 1)
		return refuse(kind, err, zr, "pacct version 1 (the layout "
		    "m68k kernels write): not supported (versions 0, 2 and 3 "
		    "are read)");
	if (zr == 0 && s->size < PACCT_RECORD_SIZE) {
		snprintf(why, sizeof(why), "%llu bytes: shorter than one "
		    "pacct record (%d) and not an exacct file",
		    (unsigned long long)s->size, PACCT_RECORD_SIZE);
		return refuse(kind, err, 0, why);
	}
	if (looks_text(h, hn)) {
		snprintf(why, sizeof(why), "a text file, not a log extracct "
		    "reads: line %llu is not TIMESTAMP READING [DETAIL], as "
		    "GMT's metric providers write", first_line(h, hn));
		return refuse(kind, err, zr + z, why);
	}
	return EXR_OK;
}
