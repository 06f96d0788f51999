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
		int esc = *s < 0x20 || *s >= 0x7f || *s == '\\' ||
		    ((flags & ESC_SPACE) && *s == ' ') ||
		    ((flags & ESC_QUOTE) && *s == '"');

		if (esc) {
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

char *
fmt_fixed(char *dst, size_t n, uint64_t value, uint64_t divisor,
    int decimals)
{
	static const uint64_t pow10[] = { 1, 10, 100, 1000, 10000, 100000,
	    1000000 };
	unsigned __int128 scaled;
	uint64_t whole, frac, p;

	if (decimals < 0)
		decimals = 0;
	if (decimals > 6)
		decimals = 6;
	p = pow10[decimals];
	if (divisor == 0)
		divisor = 1;
	/* round(value * p / divisor), half up */
	scaled = ((unsigned __int128)value * p * 2 + divisor) /
	    ((unsigned __int128)divisor * 2);
	whole = (uint64_t)(scaled / p);
	frac = (uint64_t)(scaled % p);
	if (decimals == 0)
		snprintf(dst, n, "%llu", (unsigned long long)whole);
	else
		snprintf(dst, n, "%llu.%0*llu", (unsigned long long)whole,
		    decimals, (unsigned long long)frac);
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
json_str(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c < 0x20)
			fprintf(fp, "\\u%04x", c);
		else
			fputc(c, fp);
	}
	fputc('"', fp);
}
