/*
 * libFuzzer target: format detection ("make fuzz").
 *
 * sniff_mem decides what a file is from its first SNIFF_HEAD bytes; the
 * oracles: the decision depends on those bytes only, and the reader it
 * picks accepts what the sniffer promised (a file called pacct decodes
 * its first record; one called a stream yields a first line, good or
 * damaged, at offset 0).  One input in 64 is also
 * sniffed as a file (a memfd, through sniff_file), which must decide
 * the same: the one file system call per 64 inputs keeps the file path
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

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static unsigned count;
	size_t head = size < SNIFF_HEAD ? size : SNIFF_HEAD;
	enum input_kind kind = sniff_mem(data, head);

	if (sniff_mem(data, head) != kind)
		fail("not deterministic");
	if (kind == INPUT_PACCT) {
		struct pacct_reader pr;
		struct ex_proc p;
		struct ex_err err;

		pacct_reader_init_mem(&pr, "fuzz", data, size);
		if (pacct_next(&pr, &p, &err) != EXR_OK)
			fail("pacct by content, but its first record is not");
		pacct_reader_release(&pr);
	}
	if (kind == INPUT_STREAM) {
		struct stream_reader sr;
		struct stream_line ln;
		struct ex_err err;
		int rc;

		memset(&sr, 0, sizeof(sr));
		source_init_mem(&sr.src, "fuzz", data, size);
		rc = stream_next(&sr, &ln, &err);
		if (rc != EXR_OK && rc != EXR_DAMAGED)
			fail("a stream by content, but no first line");
		if (rc == EXR_OK && ln.off != 0)
			fail("a stream's first line not at its start");
		stream_reader_release(&sr);
	}
	if (count++ % 64 == 0) {
		struct ex_err err;
		enum input_kind fkind;
		char path[64];

		if (fd == -1 && (fd = memfd_create("fuzz_sniff", 0)) == -1)
			abort();
		if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) !=
		    (ssize_t)size)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		if (sniff_file(path, &fkind, &err) != EXR_OK)
			fail(err.reason);
		if (fkind != kind)
			fail("sniff_file and sniff_mem disagree");
	}
	return 0;
}
