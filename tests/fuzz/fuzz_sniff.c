/*
 * libFuzzer target: format detection ("make fuzz").
 *
 * sniff_source decides what a file is from its start, here from memory.
 * The oracles: it answers the same twice; the reader it picks accepts
 * what it promised (a file called pacct yields its first record or a
 * damaged range, never an error; one called a stream yields a first
 * line, good or damaged); a refusal says why.  One input in 64 is also
 * sniffed as a file (a memfd, through sniff_file), which must decide
 * the same: one file system call per 64 inputs keeps the file path
 * honest without slowing the rest.
 */
#include <sys/mman.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../parsers/pacct.h"
#include "../../parsers/sniff.h"
#include "../../parsers/source.h"
#include "../../parsers/stream.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fail(const char *why)
{
	fprintf(stderr, "fuzz_sniff: %s\n", why);
	abort();
}

/* sniff_source on the bytes; its result code, *kind, err. */
static int
sniff_mem(const uint8_t *data, size_t size, enum input_kind *kind,
    struct ex_err *err)
{
	struct source src;
	int rc;

	source_init_mem(&src, "fuzz", data, size);
	rc = sniff_source(&src, kind, err);
	source_release(&src);
	return rc;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static unsigned count;
	struct ex_err err = { 0 }, err2 = { 0 };
	enum input_kind kind, again;
	int rc, rc2;

	rc = sniff_mem(data, size, &kind, &err);
	rc2 = sniff_mem(data, size, &again, &err2);
	if (rc != rc2 || kind != again || strcmp(err.reason, err2.reason) != 0)
		fail("not deterministic");
	if (rc != EXR_OK && rc != EXR_DAMAGED)
		fail("an error sniffing memory");
	if ((rc == EXR_DAMAGED) != (kind == INPUT_REFUSED))
		fail("refused without saying so, or said so and read it");
	if (kind == INPUT_REFUSED && err.reason[0] == '\0')
		fail("refused with no reason");
	if (kind == INPUT_PACCT) {
		struct pacct_reader pr;
		struct ex_proc p;
		struct ex_err perr;

		pacct_reader_init_mem(&pr, "fuzz", data, size);
		rc2 = pacct_next(&pr, &p, &perr);
		if (rc2 != EXR_OK && rc2 != EXR_DAMAGED)
			fail("pacct by content, but no first record");
		pacct_reader_release(&pr);
	}
	if (kind == INPUT_STREAM) {
		struct stream_reader sr;
		struct stream_line ln;
		struct ex_err serr;

		memset(&sr, 0, sizeof(sr));
		source_init_mem(&sr.src, "fuzz", data, size);
		rc2 = stream_next(&sr, &ln, &serr);
		if (rc2 != EXR_OK && rc2 != EXR_DAMAGED)
			fail("a stream by content, but no first line");
		stream_reader_release(&sr);
	}
	if (count++ % 64 == 0) {
		enum input_kind fkind;
		char path[64];

		if (fd == -1 && (fd = memfd_create("fuzz_sniff", 0)) == -1)
			abort();
		if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) !=
		    (ssize_t)size)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		rc2 = sniff_file(path, &fkind, &err2);
		if (rc2 != rc || fkind != kind)
			fail("sniff_file and sniff_source disagree");
	}
	return 0;
}
