/*
 * The split of an interval over the hours it covers (store/rollup.h),
 * on worked examples: which hours, each part, and that the parts add
 * up to the value exactly, at the edges of the arithmetic.
 */
#include <stdint.h>

#include "../../store/rollup.h"
#include "check.h"

#define S	1000000000LL
#define H	(3600 * S)

/* The parts of v over the hours of t0..t1 add up to v. */
static int
adds_up(int64_t t0, int64_t t1, int64_t v)
{
	int64_t h0, h1, h, sum = 0;

	rollup_hours(t0, t1, &h0, &h1);
	for (h = h0; h <= h1; h++) {
		int64_t p = rollup_split(t0, t1, h, v);

		if (p < 0 || p > v)
			return 0;
		sum += p;
	}
	return sum == v;
}

static void
test_hours(void)
{
	int64_t h0, h1;

	rollup_hours(10 * H + 5 * S, 11 * H, &h0, &h1);
	CHECK("ends on the hour: that hour is not covered",
	    h0 == 10 && h1 == 10);
	rollup_hours(10 * H + 5 * S, 11 * H + 5 * S, &h0, &h1);
	CHECK("a snapshot's hour, a little past: two hours",
	    h0 == 10 && h1 == 11);
	rollup_hours(10 * H, 10 * H, &h0, &h1);
	CHECK("no length: the hour it ends", h0 == 10 && h1 == 10);
	rollup_hours(12 * H, 11 * H, &h0, &h1);
	CHECK("ends before it starts: the hour it ends", h0 == 11 && h1 == 11);
	rollup_hours(0, 11 * 366 * 24 * H, &h0, &h1);
	CHECK("longer than ten years: not split", h0 == h1);
}

static void
test_split(void)
{
	/* 00:30 to 02:30: 1200 s of CPU is 300, 600, 300. */
	int64_t t0 = 1800 * S, t1 = 9000 * S, v = 1200 * S;

	CHECK("first half hour", rollup_split(t0, t1, 0, v) == 300 * S);
	CHECK("the whole hour", rollup_split(t0, t1, 1, v) == 600 * S);
	CHECK("last half hour", rollup_split(t0, t1, 2, v) == 300 * S);
	/* 7 over 3 equal hours: 2, 2, 3 (floor of the cumulative). */
	CHECK("remainder to the last: 2", rollup_split(0, 3 * H, 0, 7) == 2);
	CHECK("remainder to the last: 2", rollup_split(0, 3 * H, 1, 7) == 2);
	CHECK("remainder to the last: 3", rollup_split(0, 3 * H, 2, 7) == 3);
	CHECK("one hour: the whole", rollup_split(5 * S, 60 * S, 0, 7) == 7);
	CHECK("parts add up: 46 days, odd value",
	    adds_up(1700000000 * S + 123456789, 1703995411 * S + 987654321,
	    9223372036854775807LL));
	CHECK("parts add up: weights in seconds past 2^31 ms",
	    adds_up(1000 * S, 1000 * S + 30LL * 24 * H, 4611686018427387903LL));
	CHECK("parts add up: a nanosecond each side of an hour",
	    adds_up(H - 1, H + 1, 3));
	CHECK("parts add up: 0", adds_up(H - 1, 5 * H + 1, 0));
	CHECK("parts add up: ten years", adds_up(S,
	    S + ROLLUP_MAX_SPLIT_NS, 1000000007));
}

void
suite_rollup(void)
{
	test_hours();
	test_split();
}
