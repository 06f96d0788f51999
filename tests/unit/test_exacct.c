/*
 * The exacct reader and writer on hand-written bytes: a worked example
 * (tests/fixtures), every truncation of it, and each kind of
 * inconsistency the reader must catch.
 */
#include <stdlib.h>
#include <string.h>

#include "../../parsers/bytes.h"
#include "../../parsers/exacct.h"
#include "check.h"

/* §3.5: group-proc { pid 1234, command "ls" }, 55 bytes. */
static const uint8_t proc_ls[] = {
	0xf0, 0x00, 0x01, 0x00, 0, 0, 0, 0, 0, 0, 0, 0x27, 0, 0, 0, 2,
	0, 0, 0, 0x14, 0x30, 0x00, 0x10, 0x00, 0, 0, 0x04, 0xd2, 0, 0, 0, 0x0c,
	0x60, 0x00, 0x10, 0x06, 0, 0, 0, 0, 0, 0, 0, 7, 0x6c, 0x73, 0x00,
	0, 0, 0, 0x13, 0, 0, 0, 0x37
};

static int
decode(const uint8_t *p, size_t n, struct ex_rec *rec, struct ex_err *err,
    size_t *used)
{
	rec->nitems = 0;
	return exacct_decode(rec, p, n, 0, used, err);
}

static void
test_example(void)
{
	struct ex_rec rec = { 0 };
	struct ex_err err;
	size_t used = 0;

	CHECK("decode §3.5", decode(proc_ls, sizeof(proc_ls), &rec, &err,
	    &used) == EXR_OK);
	CHECK("used all", used == sizeof(proc_ls));
	CHECK("3 items", rec.nitems == 3);
	CHECK("group", rec.items[0].tag == 0xf0000100 &&
	    rec.items[0].nobjs == 2 && rec.items[0].depth == 0);
	CHECK("pid", rec.items[1].tag == 0x30001000 &&
	    rec.items[1].u == 1234 && rec.items[1].depth == 1);
	CHECK("command", rec.items[2].n == 3 &&
	    memcmp(rec.items[2].p, "ls", 3) == 0);
	CHECK("offsets", rec.items[1].off == 20 && rec.items[2].off == 32);
	ex_rec_release(&rec);
}

/* Every proper prefix is damaged, never read past, never accepted. */
static void
test_truncations(void)
{
	struct ex_rec rec = { 0 };
	struct ex_err err;
	size_t n, used, bad = 0;

	for (n = 0; n < sizeof(proc_ls); n++) {
		uint8_t *copy = malloc(n + 1);	/* exact size for ASan */

		memcpy(copy, proc_ls, n);
		if (decode(copy, n, &rec, &err, &used) != EXR_DAMAGED)
			bad++;
		free(copy);
	}
	CHECK("every truncation damaged", bad == 0);
	ex_rec_release(&rec);
}

static int
damaged_with(const uint8_t *p, size_t n, const char *reason_part,
    uint64_t off)
{
	struct ex_rec rec = { 0 };
	struct ex_err err = { 0 };
	size_t used;
	int ok;

	ok = decode(p, n, &rec, &err, &used) == EXR_DAMAGED &&
	    strstr(err.reason, reason_part) != NULL && err.off == off;
	if (!ok)
		fprintf(stderr, "  got offset %llu: %s\n",
		    (unsigned long long)err.off, err.reason);
	ex_rec_release(&rec);
	return ok;
}

static void
test_inconsistencies(void)
{
	uint8_t b[sizeof(proc_ls)];

	memcpy(b, proc_ls, sizeof(b));
	b[20] = 0x90;			/* pid tag type 9: unassigned */
	CHECK("unknown type", damaged_with(b, sizeof(b), "unknown type code",
	    20));

	memcpy(b, proc_ls, sizeof(b));
	b[15] = 3;			/* group count 3, 2 members */
	CHECK("count too high", damaged_with(b, sizeof(b),
	    "group count 3, but its size holds only 2", 51));

	memcpy(b, proc_ls, sizeof(b));
	b[15] = 1;			/* group count 1 */
	CHECK("count too low", damaged_with(b, sizeof(b),
	    "bytes of its size are left", 32));

	memcpy(b, proc_ls, sizeof(b));
	b[11] = 0x23;			/* size 4 short: last member overruns */
	CHECK("size too small", damaged_with(b, sizeof(b),
	    "truncated string item", 32));

	memcpy(b, proc_ls, sizeof(b));
	b[11] = 0xff;			/* size far past the buffer */
	CHECK("size too large", damaged_with(b, sizeof(b),
	    "group size 255 runs past the end", 0));

	memcpy(b, proc_ls, sizeof(b));
	b[31] = 0x0d;			/* pid backskip 13 */
	CHECK("bad backskip", damaged_with(b, sizeof(b), "backskip 13", 28));

	memcpy(b, proc_ls, sizeof(b));
	b[19] = 0x15;			/* small backskip 21 */
	CHECK("small backskip", damaged_with(b, sizeof(b),
	    "small backskip 21", 16));

	memcpy(b, proc_ls, sizeof(b));
	b[43] = 3;			/* string size 3 < 4 */
	CHECK("string size", damaged_with(b, sizeof(b), "less than 4", 32));

	memcpy(b, proc_ls, sizeof(b));
	b[54] = 0;			/* group backskip 0: allowed (§3.4) */
	{
		struct ex_rec rec = { 0 };
		struct ex_err err;
		size_t used;

		CHECK("zero backskip ok", decode(b, sizeof(b), &rec, &err,
		    &used) == EXR_OK &&
		    (rec.items[0].flags & EXI_ZERO_BACKSKIP));
		ex_rec_release(&rec);
	}
}

static void
test_nesting_limit(void)
{
	struct exw w;
	struct ex_rec rec = { 0 };
	struct ex_err err;
	size_t used;
	int i;

	exw_init(&w);
	for (i = 0; i < EXACCT_MAX_DEPTH; i++)
		exw_group_begin(&w, 0xf1000001);
	CHECK("writer refuses depth", w.error == EXR_OK);
	exw_group_begin(&w, 0xf1000001);
	CHECK("writer refuses depth+1", w.error == EXR_USAGE);
	exw_release(&w);

	/* The writer's deepest nesting decodes... */
	exw_init(&w);
	for (i = 0; i < EXACCT_MAX_DEPTH; i++)
		exw_group_begin(&w, 0xf1000001);
	for (i = 0; i < EXACCT_MAX_DEPTH; i++)
		exw_group_end(&w, 0);
	CHECK("deepest decodes", decode(w.buf, w.len, &rec, &err, &used) ==
	    EXR_OK && rec.nitems == EXACCT_MAX_DEPTH);
	/* ...one more level around it, built by hand, does not. */
	{
		size_t n = w.len + 24;
		uint8_t *b = malloc(n);

		put_be32(b, 0xf1000001);
		put_be64(b + 4, 8 + w.len);
		put_be32(b + 12, 1);
		put_be32(b + 16, 20);
		memcpy(b + 20, w.buf, w.len);
		put_be32(b + n - 4, (uint32_t)n);
		CHECK("reader depth limit", decode(b, n, &rec, &err, &used) ==
		    EXR_DAMAGED && strstr(err.reason, "nested deeper") != NULL);
		free(b);
	}
	exw_release(&w);
	ex_rec_release(&rec);
}

static void
test_writer(void)
{
	struct exw w;
	struct ex_rec rec = { 0 };
	struct ex_err err;
	size_t used;
	static const uint8_t v6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };

	exw_init(&w);
	exw_group_begin(&w, 0xf0000100);
	exw_uint(&w, 0x30001000, 1234);
	exw_string(&w, 0x60001006, "ls");
	exw_group_end(&w, 0);
	CHECK("writer §3.5 bytes", exw_error(&w) == EXR_OK &&
	    w.len == sizeof(proc_ls) &&
	    memcmp(w.buf, proc_ls, sizeof(proc_ls)) == 0);

	/* All nine types, an embedded object, a nested group: round trip. */
	exw_reset(&w);
	exw_group_begin(&w, 0xf1000010);
	exw_uint(&w, 0x11000001, 0xff);
	exw_uint(&w, 0x21000002, 0xffff);
	exw_uint(&w, 0x31000003, 0xffffffffu);
	exw_uint(&w, 0x41000004, UINT64_MAX);
	exw_double(&w, 0x51000005, -2.25);
	exw_string(&w, 0x61000006, "s");
	exw_bytes(&w, 0x81000008, v6, 16);
	exw_bytes(&w, 0x71000007, proc_ls, sizeof(proc_ls));
	exw_group_begin(&w, 0xf1000011);
	exw_bytes(&w, 0x71000009, "junk", 4);	/* undecodable object */
	exw_group_end(&w, 0);
	exw_group_end(&w, 0);
	CHECK("writer all types", exw_error(&w) == EXR_OK);
	CHECK("decode all types", decode(w.buf, w.len, &rec, &err, &used) ==
	    EXR_OK && used == w.len);
	/* group + 8 items + 3 embedded + group + object = 14 */
	CHECK("items", rec.nitems == 14);
	CHECK("embedded depth", rec.items[9].tag == 0xf0000100 &&
	    rec.items[9].depth == 2 && rec.items[10].u == 1234);
	CHECK("opaque object", rec.items[13].flags & EXI_OPAQUE);
	CHECK("uint64 max", rec.items[4].u == UINT64_MAX);
	{
		struct exw w2;

		exw_init(&w2);
		exw_rec(&w2, &rec);
		CHECK("round trip", w2.len == w.len &&
		    memcmp(w2.buf, w.buf, w.len) == 0);
		exw_release(&w2);
	}
	exw_reset(&w);
	exw_uint(&w, 0x60000001, 1);
	CHECK("uint with string tag refused", exw_error(&w) == EXR_USAGE);
	exw_reset(&w);
	exw_group_end(&w, 0);
	CHECK("unbalanced end refused", exw_error(&w) == EXR_USAGE);
	exw_reset(&w);
	exw_group_begin(&w, 0xf0000100);
	CHECK("open group reported", exw_error(&w) == EXR_USAGE);
	exw_release(&w);
	ex_rec_release(&rec);
}

/* The reader resynchronises after damage and reports the range. */
static void
test_resync(void)
{
	struct exw w;
	struct exacct_reader r;
	struct ex_err err;
	const struct ex_rec *rec;
	size_t hdr, rec1;
	int rc, ok = 0, damaged = 0;

	exw_init(&w);
	exw_header(&w, "SunOS", "h", EXW_HEADER_KERNEL);
	hdr = w.len;
	exw_group_begin(&w, 0xf0000100);
	exw_uint(&w, 0x30001000, 1);
	exw_group_end(&w, 0);
	rec1 = w.len;
	exw_group_begin(&w, 0xf0000100);
	exw_uint(&w, 0x30001000, 2);
	exw_group_end(&w, 0);
	exw_group_begin(&w, 0xf0000100);
	exw_uint(&w, 0x30001000, 3);
	exw_group_end(&w, 0);
	w.buf[rec1 + 20] = 0xe0;	/* record 2's pid: type 0xe */

	exacct_reader_init_mem(&r, "t", w.buf, w.len);
	while ((rc = exacct_next(&r, &rec, &err)) != EXR_EOF) {
		if (rc == EXR_OK && rec->nitems == 2)
			ok += (int)rec->items[1].u;
		else if (rc == EXR_DAMAGED) {
			damaged++;
			CHECK("range", r.skip_from == rec1 &&
			    r.skip_to == rec1 + (rec1 - hdr));
			CHECK("offset", err.off == rec1 + 20);
		}
	}
	CHECK("records 1 and 3 kept", ok == 4 && damaged == 1);
	exacct_reader_release(&r);
	exw_release(&w);
}

void
suite_exacct(void)
{
	test_example();
	test_truncations();
	test_inconsistencies();
	test_nesting_limit();
	test_writer();
	test_resync();
	CHECK("names", strcmp(exacct_id_name(0x30001000), "pid") == 0 &&
	    strcmp(exacct_id_name(0x40001023), "memory-rss-max-k") == 0 &&
	    exacct_id_name(0x31001000) == NULL &&
	    exacct_id_name(0x30001fff) == NULL);
}
