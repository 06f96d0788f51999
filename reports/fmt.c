/*
 * Formatting helpers for text outputs (see fmt.h).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fmt.h"

char *
fmt_escape(char *dst, size_t n, const char *src, int flags)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t o = 0;

	if (n == 0)
		return dst;
	for (; *s != '\0'; s++) {
		if (fmt_needs_escape(*s, flags)) {
			if (n - o < 5)
				break;
			dst[o++] = '\\';
			dst[o++] = (char)('0' + ((*s >> 6) & 7));
			dst[o++] = (char)('0' + ((*s >> 3) & 7));
			dst[o++] = (char)('0' + (*s & 7));
		} else {
			if (n - o < 2)
				break;
			dst[o++] = (char)*s;
		}
	}
	dst[o] = '\0';
	return dst;
}

void
fmt_escape_fp(FILE *fp, const char *src, int flags)
{
	const unsigned char *s = (const unsigned char *)src;

	for (; *s != '\0'; s++)
		if (fmt_needs_escape(*s, flags))
			fprintf(fp, "\\%03o", *s);
		else
			putc(*s, fp);
}

/* The decimal digits of v into dst[n]; returns dst. */
static char *
u128_text(char *dst, size_t n, unsigned __int128 v)
{
	char tmp[40];
	size_t i = sizeof(tmp);

	tmp[--i] = '\0';
	do {
		tmp[--i] = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v != 0);
	snprintf(dst, n, "%s", tmp + i);
	return dst;
}

char *
fmt_fixed(char *dst, size_t n, uint64_t value, uint64_t divisor,
    int decimals)
{
	return fmt_fixed128(dst, n, value, divisor, decimals);
}

char *
fmt_fixed128(char *dst, size_t n, unsigned __int128 value,
    unsigned __int128 divisor, int decimals)
{
	static const uint64_t pow10[] = { 1, 10, 100, 1000, 10000, 100000,
	    1000000 };
	unsigned __int128 whole, rem, frac;
	uint64_t p;
	char w[40];

	if (decimals < 0)
		decimals = 0;
	if (decimals > 6)
		decimals = 6;
	p = pow10[decimals];
	if (divisor == 0)
		divisor = 1;
	/*
	 * round(value * p / divisor), half up, without forming value * p:
	 * the whole part first, then the remainder (< divisor < 2^106, so
	 * rem * p * 2 stays below 2^128).  Text output calls this for every
	 * column of every record: values and divisors that fit stay in 64
	 * bits (rem < 2^32 and p * 2 < 2^21, so no product overflows).
	 */
	if (value <= UINT64_MAX && divisor <= UINT32_MAX) {
		uint64_t v = (uint64_t)value, d = (uint64_t)divisor;
		uint64_t w64 = v / d, f64 = (v % d * p * 2 + d) / (d * 2);

		/* No wrap: a carry needs d >= 2, so w64 <= UINT64_MAX / 2. */
		if (f64 == p) {
			w64++;
			f64 = 0;
		}
		whole = w64;
		frac = f64;
	} else {
		whole = value / divisor;
		rem = value % divisor;
		frac = (rem * p * 2 + divisor) / (divisor * 2);
		if (frac == p) {
			whole++;
			frac = 0;
		}
	}
	if (whole <= UINT64_MAX) {
		if (decimals == 0)
			snprintf(dst, n, "%llu", (unsigned long long)whole);
		else
			snprintf(dst, n, "%llu.%0*llu",
			    (unsigned long long)whole, decimals,
			    (unsigned long long)frac);
		return dst;
	}
	u128_text(w, sizeof(w), whole);
	if (decimals == 0)
		snprintf(dst, n, "%s", w);
	else
		snprintf(dst, n, "%s.%0*llu", w, decimals,
		    (unsigned long long)frac);
	return dst;
}

/* Local broken-down time of an epoch second; 0, or -1 if out of range. */
static int
local_tm(int64_t epoch_s, struct tm *tm)
{
	time_t t = (time_t)epoch_s;

	return localtime_r(&t, tm) == NULL ? -1 : 0;
}

char *
fmt_clock(char *dst, size_t n, int64_t epoch_s)
{
	struct tm tm;

	if (local_tm(epoch_s, &tm) != 0 ||
	    strftime(dst, n, "%H:%M:%S", &tm) == 0)
		snprintf(dst, n, "?");
	return dst;
}

char *
fmt_datetime(char *dst, size_t n, int64_t epoch_s)
{
	struct tm tm;

	if (local_tm(epoch_s, &tm) != 0 ||
	    strftime(dst, n, "%Y-%m-%d %H:%M:%S", &tm) == 0)
		snprintf(dst, n, "?");
	return dst;
}

void
fmt_secs(char *b, size_t n, int64_t ns)
{
	fmt_fixed(b, n, ns < 0 ? 0 : (uint64_t)ns, 1000000000u, 3);
}

void
fmt_secs128(char *b, size_t n, __int128 ns)
{
	fmt_fixed128(b, n, ns < 0 ? 0 : (unsigned __int128)ns, 1000000000u,
	    3);
}

char *
fmt_int128(char *dst, size_t n, __int128 v)
{
	if (v >= 0)
		return u128_text(dst, n, (unsigned __int128)v);
	if (n > 1) {
		dst[0] = '-';
		u128_text(dst + 1, n - 1, -(unsigned __int128)v);
	}
	return dst;
}

void
json_str(FILE *fp, const char *src)
{
	const unsigned char *s = (const unsigned char *)src;

	/*
	 * The house escape first, so a key reads the same in JSON as in
	 * CSV (\033, \134 for a backslash); then what JSON itself needs:
	 * that backslash written as \\, and '"' as \".  The result is
	 * printable ASCII: valid JSON whatever the bytes were.
	 */
	putc('"', fp);
	for (; *s != '\0'; s++)
		if (fmt_needs_escape(*s, 0))
			fprintf(fp, "\\\\%03o", *s);
		else if (*s == '"')
			fputs("\\\"", fp);
		else
			putc(*s, fp);
	putc('"', fp);
}
