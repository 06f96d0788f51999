/*
 * Files that are not what they claim: format
 * detection of what is no log, runs of zero bytes in each reader, the
 * bound on what one exacct object can make the reader buffer, and the
 * stream rules for blank first lines and readings below resolution.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../parsers/exacct.h"
#include "../../parsers/pacct.h"
#include "../../parsers/sniff.h"
#include "../../parsers/stream.h"
#include "check.h"

/* Sniff bytes in memory; the kind, or -1 on an error other than refusal. */
static int
sniff_mem(const void *p, size_t n, struct ex_err *err)
{
	struct source s;
	enum input_kind k;
	int rc;

	source_init_mem(&s, "t", p, n);
	rc = sniff_source(&s, &k, err);
	if (rc != EXR_OK && !(rc == EXR_DAMAGED && k == INPUT_REFUSED))
		return -1;
	return (int)k;
}

static void
test_zero_run(void)
{
	uint8_t b[300] = { 0 };
	struct source s;
	uint64_t end;

	b[200] = 7;
	source_init_mem(&s, "t", b, sizeof(b));
	CHECK("zero run, bytes", source_zero_run(&s, 0, 1, &end) == EXR_OK &&
	    end == 200);
	source_init_mem(&s, "t", b, sizeof(b));
	CHECK("zero run, 64-byte grains stop at the grain holding 7",
	    source_zero_run(&s, 0, 64, &end) == EXR_OK && end == 192);
	source_init_mem(&s, "t", b, sizeof(b));
	CHECK("no zero run", source_zero_run(&s, 200, 1, &end) == EXR_OK &&
	    end == 200);
	source_init_mem(&s, "t", b, 150);
	CHECK("a part grain at the end is not counted",
	    source_zero_run(&s, 0, 64, &end) == EXR_OK && end == 128);
	CHECK("zero_span", zero_span(b, sizeof(b)) == 200 &&
	    zero_span(b + 200, 100) == 0);
}

static void
test_sniff(void)
{
	static uint8_t pacct[8192 + 64];
	uint8_t v1[64] = { 0, 1 };
	struct ex_err err;
	const char *text = "tcpdump: listening on eth0, link-type EN10MB\n"
	    "1735295414.719551 IP 192.0.2.1.22 > 192.0.2.2.5000\n";
	const char *blank = "\n\n1700000000000000 42 Package_0\n";

	CHECK("empty file", sniff_mem("", 0, &err) == INPUT_REFUSED &&
	    strcmp(err.reason, "empty file") == 0);
	CHECK("12 bytes", sniff_mem("abcdefghijkl", 12, &err) ==
	    INPUT_REFUSED && strcmp(err.reason, "12 bytes: shorter than one "
	    "pacct record (64) and not an exacct file") == 0);
	CHECK("text", sniff_mem(text, strlen(text), &err) == INPUT_REFUSED &&
	    strncmp(err.reason, "a text file, not a log", 22) == 0 &&
	    strstr(err.reason, "line 1 ") != NULL);
	CHECK("pacct v1", sniff_mem(v1, sizeof(v1), &err) == INPUT_REFUSED &&
	    strncmp(err.reason, "pacct version 1", 15) == 0);
	v1[1] = 0x81;		/* m68k is big-endian */
	CHECK("pacct v1, big-endian", sniff_mem(v1, sizeof(v1), &err) ==
	    INPUT_REFUSED);
	CHECK("a stream after blank lines", sniff_mem(blank, strlen(blank),
	    &err) == INPUT_STREAM);
	CHECK("an indented first sample is no stream",
	    !stream_sniff((const uint8_t *)"\n 1700000000000000 1\n", 21));
	/* A pacct log the kernel appended to after a crash zeroed it. */
	pacct[8192] = 0x02;	/* flags */
	pacct[8193] = 0x03;	/* version 3 */
	CHECK("pacct after zeros", sniff_mem(pacct, sizeof(pacct), &err) ==
	    INPUT_PACCT);
	CHECK("nothing but zeros: the exacct reader reports them",
	    sniff_mem(pacct, 8192, &err) == INPUT_EXACCT);
}

static void
test_pacct_zeros(void)
{
	static uint8_t b[64 * 6 + 10];
	struct pacct_reader r;
	struct ex_proc p;
	struct ex_err err;

	b[1] = 3;			/* record 0: v3 */
	b[64 * 4 + 1] = 3;		/* records 1-3 zeros, record 4 v3 */
	pacct_reader_init_mem(&r, "t", b, sizeof(b));
	CHECK("record 0", pacct_next(&r, &p, &err) == EXR_OK);
	CHECK("zero records: one range", pacct_next(&r, &p, &err) ==
	    EXR_DAMAGED && r.zeros && r.skip_from == 64 &&
	    r.skip_to == 256 && strncmp(err.reason, "192 zero bytes", 14) == 0);
	CHECK("record 4", pacct_next(&r, &p, &err) == EXR_OK && p.off == 256);
	CHECK("record 5 is zeros", pacct_next(&r, &p, &err) == EXR_DAMAGED &&
	    r.zeros && r.skip_to == 384);
	CHECK("the torn tail stays a torn tail (the grid holds)",
	    pacct_next(&r, &p, &err) == EXR_DAMAGED && !r.zeros &&
	    r.skip_from == 384 && r.skip_to == 394);
	CHECK("end", pacct_next(&r, &p, &err) == EXR_EOF);
	pacct_reader_release(&r);
}

/*
 * A group claiming 1.5 GB in a sparse file that size: damage at once,
 * and the window never grows past what a real record needs.
 */
static void
test_exacct_bound(void)
{
	static const uint8_t claim[24] = {
		0xf0, 0x00, 0x01, 0x00, 0, 0, 0, 0, 0x60, 0, 0, 0,
		0, 0, 0, 1, 0, 0, 0, 0x14, 0, 0, 0, 0
	};
	char path[] = "/tmp/extracct-unit-XXXXXX";
	struct exacct_reader r;
	const struct ex_rec *rec;
	struct ex_err err;
	int fd, rc;

	if ((fd = mkstemp(path)) == -1 ||
	    write(fd, claim, sizeof(claim)) != (ssize_t)sizeof(claim) ||
	    ftruncate(fd, (off_t)1700 << 20) != 0) {
		CHECK("sparse file", 0);
		if (fd != -1)
			close(fd);
		unlink(path);
		return;
	}
	close(fd);
	if (exacct_reader_open(&r, path, &err) != EXR_OK) {
		CHECK("open", 0);
		unlink(path);
		return;
	}
	rc = exacct_next(&r, &rec, &err);	/* no header: reported */
	if (rc == EXR_DAMAGED && r.skip_from == r.skip_to)
		rc = exacct_next(&r, &rec, &err);
	CHECK("a 1.5 GB group is damage", rc == EXR_DAMAGED &&
	    r.skip_from == 0 && strstr(err.reason, "group size 1610612736: "
	    "larger than any accounting record") != NULL);
	CHECK("the window stays bounded", r.src.cap <= EXACCT_MAX_OBJECT);
	CHECK("then the zeros, as one range", exacct_next(&r, &rec, &err) ==
	    EXR_DAMAGED && r.zeros && r.skip_to == (uint64_t)1700 << 20);
	CHECK("end", exacct_next(&r, &rec, &err) == EXR_EOF);
	CHECK("the window still bounded", r.src.cap <= EXACCT_MAX_OBJECT);
	exacct_reader_release(&r);
	unlink(path);
}

static void
test_stream_inputs(void)
{
	const char *log = "1700000000000000 40000 Package_0\n"
	    "1700000000100000 1 Package_0\n"
	    "1700000000200000 0 Package_0\n"
	    "1700000000300000 0 DRAM_0\n";
	const struct stream_provider *rapl =
	    stream_provider("cpu_energy_rapl_msr_component");
	const struct stream_provider *procfs =
	    stream_provider("cpu_utilization_procfs_system");
	struct stream_reader r;
	struct stream_series pkg = { 0 }, dram = { 0 };
	struct stream_line ln;
	struct ex_err err;
	char msg[256];
	uint8_t z[40] = "1700000000000000 4";

	memset(&r, 0, sizeof(r));
	source_init_mem(&r.src, "t", (const uint8_t *)log, strlen(log));
	CHECK("line 1", stream_next(&r, &ln, &err) == EXR_OK &&
	    !stream_underflow(rapl, &pkg, &ln, msg, sizeof(msg)));
	CHECK("1 uJ: an underflow, noted", stream_next(&r, &ln, &err) ==
	    EXR_OK && stream_underflow(rapl, &pkg, &ln, msg, sizeof(msg)) &&
	    strncmp(msg, "line 2: a reading of 1 uJ, at or below", 38) == 0);
	CHECK("0 uJ: counted, not noted again", stream_next(&r, &ln, &err) ==
	    EXR_OK && stream_underflow(rapl, &pkg, &ln, msg, sizeof(msg)) &&
	    msg[0] == '\0' && pkg.underflows == 2);
	CHECK("another series is noted on its own", stream_next(&r, &ln,
	    &err) == EXR_OK && stream_underflow(rapl, &dram, &ln, msg,
	    sizeof(msg)) && msg[0] != '\0');
	CHECK("only energy providers underflow",
	    !stream_underflow(procfs, &dram, &ln, msg, sizeof(msg)));
	memset(&r, 0, sizeof(r));
	source_init_mem(&r.src, "t", z, sizeof(z));
	CHECK("a line cut by zeros", stream_next(&r, &ln, &err) ==
	    EXR_DAMAGED && !r.torn && !r.zeros && r.skip_from == 0 &&
	    r.skip_to == 18);
	CHECK("then the zeros, not torn", stream_next(&r, &ln, &err) ==
	    EXR_DAMAGED && !r.torn && r.zeros && r.skip_to == sizeof(z) &&
	    strncmp(err.reason, "line 1: 22 zero bytes", 21) == 0);
	CHECK("end", stream_next(&r, &ln, &err) == EXR_EOF);
}

void
suite_inputs(void)
{
	test_zero_run();
	test_sniff();
	test_pacct_zeros();
	test_exacct_bound();
	test_stream_inputs();
}
