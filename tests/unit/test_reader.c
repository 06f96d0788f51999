/*
 * The one reader (parsers/reader.h) over each format, from memory: what
 * reader_next hands out (records already filled, samples, notes,
 * damaged ranges), resuming at an offset, the options, and the one
 * formatter of damage messages, byte for byte as the commands print.
 */
#include <stdio.h>
#include <string.h>

#include "../../parsers/reader.h"
#include "check.h"

/* Items of a proc record: pid 42, command "ls", one unknown id. */
static void
put_proc(struct exw *w, uint32_t pid)
{
	exw_group_begin(w, 0xf0000100);			/* group-proc */
	exw_uint(w, 0x30001000, pid);			/* pid */
	exw_string(w, 0x60001006, "ls");		/* command */
	exw_uint(w, 0x30001fff, 1);			/* unknown id */
	exw_group_end(w, 0);
}

static void
test_exacct(void)
{
	struct exw w;
	struct reader r;
	const struct reader_item *it;
	struct ex_err err;
	uint64_t second;
	int rc;

	exw_init(&w);
	exw_header(&w, "SunOS", "myhost", EXW_HEADER_KERNEL);
	put_proc(&w, 42);
	second = w.len;
	put_proc(&w, 43);
	CHECK("exacct opens", reader_open_mem(&r, "t", w.buf, w.len, NULL,
	    &err) == EXR_OK && r.kind == INPUT_EXACCT &&
	    strcmp(reader_format(&r), "exacct") == 0);
	rc = reader_next(&r, &it, &err);
	CHECK("the header, with its host", rc == EXR_OK &&
	    it->what == RD_RECORD && it->kind == REC_HEADER &&
	    it->u.header.has_hostname &&
	    strcmp(it->u.header.hostname, "myhost") == 0);
	CHECK("the file's header", reader_log_header(&r) != NULL &&
	    strcmp(reader_log_header(&r)->hostname, "myhost") == 0 &&
	    strcmp(reader_log_header(&r)->creator, "SunOS") == 0);
	rc = reader_next(&r, &it, &err);
	CHECK("a proc record, filled", rc == EXR_OK && it->kind == REC_PROC &&
	    REC_HAS(&it->u.proc, PROC_PID) && it->u.proc.v[PROC_PID] == 42 &&
	    strcmp(it->u.proc.command, "ls") == 0 && it->obj != NULL);
	CHECK("what filling skipped is the item's",
	    it->counts.unknown_items == 1 && it->counts.bad_values == 0);
	CHECK("its bytes, and where to resume", it->end == second &&
	    it->end - it->off == it->obj->len &&
	    reader_offset(&r) == second);
	CHECK("the second", reader_next(&r, &it, &err) == EXR_OK &&
	    it->u.proc.v[PROC_PID] == 43);
	CHECK("end", reader_next(&r, &it, &err) == EXR_EOF &&
	    reader_offset(&r) == w.len);
	CHECK("tallies", reader_counts(&r).objects == 3 &&
	    reader_counts(&r).damaged == 0);
	reader_release(&r);

	/* Resumed at the second record: the header is still read first. */
	reader_open_mem(&r, "t", w.buf, w.len, NULL, &err);
	CHECK("seek", reader_seek(&r, second, &err) == EXR_OK &&
	    reader_offset(&r) == second);
	CHECK("on from there, the header known",
	    reader_next(&r, &it, &err) == EXR_OK && it->off == second &&
	    it->u.proc.v[PROC_PID] == 43 &&
	    strcmp(reader_log_header(&r)->hostname, "myhost") == 0);
	reader_release(&r);

	/* Objects only: decoded, nothing filled. */
	{
		struct reader_opts o = { NULL, READER_OBJECTS };

		reader_open_mem(&r, "t", w.buf, w.len, &o, &err);
		reader_next(&r, &it, &err);
		rc = reader_next(&r, &it, &err);
		CHECK("READER_OBJECTS: the object, its kind, no fill",
		    rc == EXR_OK && it->kind == REC_PROC && it->obj != NULL &&
		    it->obj->nitems == 4 && it->counts.unknown_items == 0);
		reader_release(&r);
	}
	exw_release(&w);
}

static void
test_exacct_damage(void)
{
	struct exw w;
	struct reader r;
	const struct reader_item *it;
	struct ex_err err;
	uint8_t b[4096];
	size_t n1, n;
	int rc;

	exw_init(&w);
	exw_header(&w, "SunOS", "h", EXW_HEADER_KERNEL);
	put_proc(&w, 1);
	n1 = w.len;
	memcpy(b, w.buf, n1);
	memset(b + n1, 0xAB, 10);			/* junk */
	exw_reset(&w);
	put_proc(&w, 2);
	memcpy(b + n1 + 10, w.buf, w.len);
	n = n1 + 10 + w.len;
	exw_release(&w);

	reader_open_mem(&r, "t", b, n, NULL, &err);
	reader_next(&r, &it, &err);
	reader_next(&r, &it, &err);
	rc = reader_next(&r, &it, &err);
	CHECK("the junk is a damaged range", rc == EXR_DAMAGED &&
	    it->what == RD_DAMAGE && it->damage.from == n1 &&
	    it->damage.to == n1 + 10 && !it->damage.zeros &&
	    err.off == n1);
	CHECK("then the record behind it", reader_next(&r, &it, &err) ==
	    EXR_OK && it->u.proc.v[PROC_PID] == 2);
	CHECK("tallied", reader_counts(&r).damaged == 1 &&
	    reader_counts(&r).damaged_bytes == 10);
	reader_release(&r);

	/* Zeros at the end are what a crash left, never a record. */
	memset(b + n, 0, 100);
	reader_open_mem(&r, "t", b, n + 100, NULL, &err);
	while ((rc = reader_next(&r, &it, &err)) == EXR_OK ||
	    (rc == EXR_DAMAGED && !it->damage.zeros))
		;
	CHECK("a zero tail is not being written", rc == EXR_DAMAGED &&
	    it->damage.from == n && it->damage.to == n + 100 &&
	    !it->damage.writing);
	reader_release(&r);
}

static void
test_pacct(void)
{
	static uint8_t b[64 * 3 + 5];
	struct reader r;
	const struct reader_item *it;
	struct ex_err err;

	b[1] = 3;
	b[16] = 7;				/* pid 7 */
	b[64 + 1] = 0x83;			/* v3, big-endian */
	b[64 + 19] = 8;				/* pid 8 */
	b[128 + 1] = 3;
	CHECK("pacct opens", reader_open_mem(&r, "t", b, sizeof(b), NULL,
	    &err) == EXR_OK && r.kind == INPUT_PACCT &&
	    strcmp(reader_format(&r), "pacct") == 0 &&
	    reader_log_header(&r) == NULL);
	CHECK("a final proc record", reader_next(&r, &it, &err) == EXR_OK &&
	    it->what == RD_RECORD && it->kind == REC_PROC &&
	    it->obj == NULL && it->u.proc.v[PROC_PID] == 7 &&
	    it->pacct_version == 3 && !it->big_endian && it->end == 64);
	CHECK("its layout", reader_next(&r, &it, &err) == EXR_OK &&
	    it->u.proc.v[PROC_PID] == 8 && it->big_endian);
	CHECK("third", reader_next(&r, &it, &err) == EXR_OK &&
	    reader_offset(&r) == 192);
	CHECK("the torn tail, maybe a record still being written",
	    reader_next(&r, &it, &err) == EXR_DAMAGED &&
	    it->damage.from == 192 && it->damage.to == 197 &&
	    it->damage.writing);
	CHECK("end", reader_next(&r, &it, &err) == EXR_EOF);
	reader_release(&r);

	reader_open_mem(&r, "t", b, sizeof(b), NULL, &err);
	reader_limit(&r, 128);
	CHECK("seek", reader_seek(&r, 64, &err) == EXR_OK);
	CHECK("on from 64", reader_next(&r, &it, &err) == EXR_OK &&
	    it->off == 64);
	CHECK("nothing past the limit", reader_next(&r, &it, &err) ==
	    EXR_EOF);
	reader_release(&r);
}

static void
test_stream(void)
{
	const char *log = "1700000000000000 100 Package_0\n"
	    "1700000001000000 1 Package_0\n"
	    "1700000001000000 5 Package_0\n"
	    "1700000002000000 300 Package_0\n";
	const uint8_t *p = (const uint8_t *)log;
	struct reader_opts o = { "cpu_energy_rapl_msr_component", 0 };
	struct reader r;
	const struct reader_item *it;
	struct ex_err err;
	int rc;

	CHECK("stream opens", reader_open_mem(&r, "t", p, strlen(log), &o,
	    &err) == EXR_OK && r.kind == INPUT_STREAM && r.provider != NULL &&
	    strcmp(reader_format(&r), "stream") == 0);
	CHECK("a sample", reader_next(&r, &it, &err) == EXR_OK &&
	    it->what == RD_SAMPLE && it->line.reading == 100 &&
	    strcmp(it->line.detail, "Package_0") == 0);
	rc = reader_next(&r, &it, &err);
	CHECK("a reading below resolution: the note first", rc == EXR_OK &&
	    it->what == RD_NOTE && it->off == 31 &&
	    strncmp(it->note, "line 2: a reading of 1 uJ", 25) == 0);
	CHECK("then its sample", reader_next(&r, &it, &err) == EXR_OK &&
	    it->what == RD_SAMPLE && it->line.reading == 1 &&
	    it->sample.has_value && it->sample.value == 1);
	rc = reader_next(&r, &it, &err);
	CHECK("a repeated time: the line is the damaged range",
	    rc == EXR_DAMAGED && it->damage.from == 60 &&
	    it->damage.to == 89 && strstr(err.reason, "sample dropped") &&
	    !it->damage.writing);
	CHECK("and on", reader_next(&r, &it, &err) == EXR_OK &&
	    it->line.reading == 300);
	CHECK("end", reader_next(&r, &it, &err) == EXR_EOF &&
	    reader_counts(&r).damaged == 1 &&
	    reader_counts(&r).damaged_bytes == 29);
	reader_release(&r);

	/* Lines, for a caller that keeps the series: nothing dropped. */
	o.flags = READER_LINES;
	reader_open_mem(&r, "t", p, strlen(log), &o, &err);
	CHECK("seek keeps line numbers", reader_seek(&r, 60, &err) ==
	    EXR_OK && reader_next(&r, &it, &err) == EXR_OK &&
	    it->what == RD_LINE && it->line.line == 3 && it->off == 60);
	reader_release(&r);

	/* A last line with no newline may still be being written. */
	reader_open_mem(&r, "t", p, strlen(log) - 1, &o, &err);
	reader_seek(&r, 89, &err);
	CHECK("torn", reader_next(&r, &it, &err) == EXR_DAMAGED &&
	    it->damage.torn && it->damage.writing &&
	    it->damage.to == strlen(log) - 1);
	reader_release(&r);

	o.flags = READER_NO_STREAMS;
	CHECK("refused where streams are not read", reader_open_mem(&r, "t",
	    p, strlen(log), &o, &err) == EXR_USAGE &&
	    r.kind == INPUT_STREAM &&
	    strcmp(err.reason, "a metric-provider stream") == 0);
	o.provider = NULL;
	o.flags = 0;
	CHECK("no provider: usage", reader_open_mem(&r, "t", p, strlen(log),
	    &o, &err) == EXR_USAGE);
	CHECK("not a log", reader_open_mem(&r, "t", (const uint8_t *)"hi "
	    "there\n", 9, NULL, &err) == EXR_DAMAGED &&
	    r.kind == INPUT_REFUSED);
}

static void
test_damage_msg(void)
{
	struct ex_err err = { .off = 7 };
	char buf[256];
	int n;

	snprintf(err.reason, sizeof(err.reason), "bad");
	n = reader_damage_msg(buf, sizeof(buf), DF_LOG, "f", 5, 9, &err);
	CHECK("log", strcmp(buf, "extracct: f: offset 7: bad (skipped bytes "
	    "5-8)") == 0 && n == (int)strlen(buf));
	reader_damage_msg(buf, sizeof(buf), DF_LOG, "f", 0, 0, &err);
	CHECK("log, no bytes", strcmp(buf, "extracct: f: offset 7: bad") ==
	    0);
	reader_damage_msg(buf, sizeof(buf), DF_CHECK, "f", 5, 9, &err);
	CHECK("check", strcmp(buf, "f: bytes 5-8 damaged: offset 7: bad") ==
	    0);
	reader_damage_msg(buf, sizeof(buf), DF_CHECK, "f", 0, 0, &err);
	CHECK("check, no bytes", strcmp(buf, "f: offset 7: bad") == 0);
	reader_damage_msg(buf, sizeof(buf), DF_INGEST, "f", 3, 3, &err);
	CHECK("ingest, the range even empty", strcmp(buf, "extracct: f: "
	    "offset 7: bad (skipped bytes 3-3)") == 0);
	reader_damage_msg(buf, sizeof(buf), DF_TAIL, "f", 5, 9, &err);
	CHECK("tail", strcmp(buf, "extracct: f: offset 7: bad (incomplete "
	    "tail, left for the next run: bytes 5-8)") == 0);
	n = reader_damage_msg(buf, 8, DF_LOG, "f", 5, 9, &err);
	CHECK("cut, and the length it needs", strlen(buf) == 7 && n == 46);
}

void
suite_reader(void)
{
	test_exacct();
	test_exacct_damage();
	test_pacct();
	test_stream();
	test_damage_msg();
}
