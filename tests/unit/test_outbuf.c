/*
 * The output buffer (reports/outbuf.c): every writer against the printf
 * or fmt.c call it replaces, at the edges (0, UINT64_MAX, INT64_MIN,
 * rounding carries, lines longer than the buffer), and the hour memo
 * of local and UTC times against localtime_r / strftime across DST.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../reports/csv.h"
#include "../../reports/fmt.h"
#include "../../reports/outbuf.h"
#include "../../reports/tmmemo.h"
#include "check.h"

/* A buffer onto a memory stream; out() ends it and returns the text. */
struct capture {
	FILE		*fp;
	char		*text;
	size_t		 n;
	struct outbuf	 ob;
};

static void
cap_start(struct capture *c)
{
	c->text = NULL;
	c->n = 0;
	c->fp = open_memstream(&c->text, &c->n);
	ob_init(&c->ob, c->fp);
}

/* The bytes written (freed by cap_start's next call or the caller). */
static char *
cap_end(struct capture *c)
{
	ob_flush(&c->ob);
	fclose(c->fp);
	return c->text;
}

/* Is what c holds equal to want?  Frees it. */
static int
cap_is(struct capture *c, const char *want)
{
	char *got = cap_end(c);
	int ok = got != NULL && strcmp(got, want) == 0;

	if (!ok)
		fprintf(stderr, "  wrote [%s], want [%s]\n", got, want);
	free(got);
	return ok;
}

static int
u64_as_printf(uint64_t v)
{
	struct capture c;
	char want[32];

	snprintf(want, sizeof(want), "%" PRIu64, v);
	cap_start(&c);
	ob_u64(&c.ob, v);
	return cap_is(&c, want);
}

static int
i64_as_printf(int64_t v)
{
	struct capture c;
	char want[32];

	snprintf(want, sizeof(want), "%" PRId64, v);
	cap_start(&c);
	ob_i64(&c.ob, v);
	return cap_is(&c, want);
}

static int
fixed_as_fmt(uint64_t v, uint64_t div, int dec)
{
	struct capture c;
	char want[64];

	fmt_fixed(want, sizeof(want), v, div, dec);
	cap_start(&c);
	ob_fixed(&c.ob, v, div, dec);
	return cap_is(&c, want);
}

/* ob_clock and ob_utc (or csv_utc where it declines) as the old calls. */
static int
times_as_strftime(int64_t t)
{
	struct capture c;
	char want[64], utc[64];
	int ok;

	fmt_clock(want, sizeof(want), t);
	cap_start(&c);
	ob_clock(&c.ob, t);
	ok = cap_is(&c, want);
	csv_utc(utc, sizeof(utc), t);
	cap_start(&c);
	if (ob_utc(&c.ob, t) != 0)
		ob_str(&c.ob, utc);
	return cap_is(&c, utc) && ok;
}

/* Every second of [t0 - span, t0 + span) and a few far ones. */
static int
times_around(int64_t t0, int64_t span)
{
	int64_t t;
	int ok = 1;

	for (t = t0 - span; t < t0 + span; t++)
		ok &= times_as_strftime(t);
	/* Out of order, as partial records come: the memo's slots. */
	for (t = t0 - span; t < t0 + span; t += 3607)
		ok &= times_as_strftime(t) & times_as_strftime(t0 - t);
	return ok;
}

void
suite_outbuf(void)
{
	static const int64_t odd[] = { 0, 1, -1, 59, 60, -60, -61,
	    INT64_MIN, INT64_MIN + 59, INT64_MAX, INT64_MAX - 59,
	    253402300799, 253402300800, -62135596800, -62135596801,
	    -30610224000, 67768036191676799, 67768036191676800 };
	struct capture c;
	char long_line[3 * OUTBUF_SIZE + 1];
	const char *tz = getenv("TZ");
	char *saved = tz != NULL ? strdup(tz) : NULL;
	uint64_t v;
	size_t i;
	int ok;

	CHECK("u64 0", u64_as_printf(0));
	CHECK("u64 9", u64_as_printf(9));
	CHECK("u64 10", u64_as_printf(10));
	CHECK("u64 99", u64_as_printf(99));
	CHECK("u64 100", u64_as_printf(100));
	CHECK("u64 2^32-1", u64_as_printf(UINT32_MAX));
	CHECK("u64 2^32", u64_as_printf((uint64_t)UINT32_MAX + 1));
	CHECK("u64 max", u64_as_printf(UINT64_MAX));
	for (ok = 1, i = 0; i < 64; i++)
		ok &= u64_as_printf((uint64_t)1 << i) &
		    u64_as_printf(((uint64_t)1 << i) - 1);
	CHECK("u64 powers of two", ok);
	for (ok = 1, v = 1, i = 0; i < 20; i++, v *= 10)
		ok &= u64_as_printf(v) & u64_as_printf(v - 1) &
		    u64_as_printf(v + 1);
	CHECK("u64 powers of ten", ok);
	CHECK("i64 0", i64_as_printf(0));
	CHECK("i64 -1", i64_as_printf(-1));
	CHECK("i64 min", i64_as_printf(INT64_MIN));
	CHECK("i64 max", i64_as_printf(INT64_MAX));

	/* Rounding half up in integers, carries into the whole part. */
	CHECK("fixed 15105/1000 2", fixed_as_fmt(15105, 1000, 2));
	CHECK("fixed half up", fixed_as_fmt(5, 1000, 2));
	CHECK("fixed carry", fixed_as_fmt(999995, 1000000000u, 3) &&
	    fixed_as_fmt(999999999, 1000000000u, 4));
	CHECK("fixed 0", fixed_as_fmt(0, 1000000000u, 6) &&
	    fixed_as_fmt(0, 1024, 1) && fixed_as_fmt(0, 1000, 0));
	CHECK("fixed max", fixed_as_fmt(UINT64_MAX, 1000000000u, 6) &&
	    fixed_as_fmt(UINT64_MAX, 1024, 1) &&
	    fixed_as_fmt(UINT64_MAX, 1, 6) &&
	    fixed_as_fmt(UINT64_MAX, 3, 0));
	CHECK("fixed wide divisor", fixed_as_fmt(UINT64_MAX,
	    (uint64_t)UINT32_MAX + 2, 4) && fixed_as_fmt(UINT64_MAX,
	    UINT64_MAX, 6) && fixed_as_fmt(12345, 0, 2) &&
	    fixed_as_fmt(12345, 1000, 9) && fixed_as_fmt(12345, 1000, -1));
	cap_start(&c);
	ob_fixed(&c.ob, 1500000000u, 1000000000u, 4);
	CHECK("fixed 1.5000", cap_is(&c, "1.5000"));
	for (ok = 1, i = 0; i < 20000; i++)
		ok &= fixed_as_fmt(i * 7919, 1000, 2) &
		    fixed_as_fmt(i * 104729, 1024, 1) &
		    fixed_as_fmt(i * 999983, 1000000000u, (int)(i % 7));
	CHECK("fixed sweep", ok);

	/* Escapes as fmt_escape_fp; CSV cells as csv_text. */
	cap_start(&c);
	ob_escape(&c.ob, "a b\\c\033\377\"", ESC_SPACE);
	CHECK("escape", cap_is(&c, "a\\040b\\134c\\033\\377\""));
	cap_start(&c);
	ob_escape(&c.ob, "\"q\"", ESC_QUOTE);
	CHECK("escape quote", cap_is(&c, "\\042q\\042"));
	cap_start(&c);
	ob_octal(&c.ob, 0);
	CHECK("octal 0", cap_is(&c, "\\000"));

	/* Longer than the buffer: flushed in pieces, nothing lost. */
	memset(long_line, 'x', sizeof(long_line) - 1);
	long_line[sizeof(long_line) - 1] = '\0';
	cap_start(&c);
	ob_char(&c.ob, '<');
	ob_str(&c.ob, long_line);
	for (i = 0; i < OUTBUF_SIZE; i++)
		ob_char(&c.ob, 'y');
	ob_u64(&c.ob, UINT64_MAX);
	{
		char *got = cap_end(&c);
		size_t n = 1 + strlen(long_line) + OUTBUF_SIZE + 20;

		CHECK("long line", got != NULL && strlen(got) == n &&
		    got[0] == '<' && strncmp(got + 1, long_line,
		    strlen(long_line)) == 0 && strcmp(got + n - 20,
		    "18446744073709551615") == 0);
		free(got);
	}

	/* Times: UTC, then zones with DST and with leap seconds. */
	setenv("TZ", "UTC", 1);
	tzset();
	tm_memo_forget();
	for (ok = 1, i = 0; i < sizeof(odd) / sizeof(odd[0]); i++)
		ok &= times_as_strftime(odd[i]);
	CHECK("times odd values", ok);
	CHECK("times UTC", times_around(1699999116, 4000));
	setenv("TZ", "Europe/Berlin", 1);
	tzset();
	tm_memo_forget();
	CHECK("times Berlin DST on", times_around(1679792400, 4000));
	CHECK("times Berlin DST off", times_around(1698541200, 4000));
	for (ok = 1, i = 0; i < sizeof(odd) / sizeof(odd[0]); i++)
		ok &= times_as_strftime(odd[i]);
	CHECK("times Berlin odd values", ok);
	setenv("TZ", "America/New_York", 1);
	tzset();
	tm_memo_forget();
	CHECK("times New York DST", times_around(1678604400, 4000) &&
	    times_around(1699164000, 4000));
	/* Local mean time before 1883: an offset with seconds. */
	CHECK("times New York LMT", times_around(-2717650800, 4000));
	setenv("TZ", "right/Europe/Berlin", 1);
	tzset();
	tm_memo_forget();
	/* The leap second at the end of 2016 (epoch 1483228800 + 26). */
	CHECK("times leap second", times_around(1483228826, 400));
	/* A half-hour shift: 02:00 becomes 01:30 (April 2023). */
	setenv("TZ", "Australia/Lord_Howe", 1);
	tzset();
	tm_memo_forget();
	CHECK("times Lord Howe half-hour DST", times_around(1680361200, 8000) &&
	    times_around(1696087800, 8000));
	setenv("TZ", "<+0530>-5:30", 1);
	tzset();
	tm_memo_forget();
	CHECK("times POSIX TZ", times_around(1699999116, 400));
	if (saved != NULL)
		setenv("TZ", saved, 1);
	else
		unsetenv("TZ");
	tzset();
	tm_memo_forget();
	free(saved);
}
