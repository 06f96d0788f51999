/*
 * An output buffer for the one-line-per-record writers (text.c, csv.c):
 * numbers, fixed-point values, escaped strings and times are formatted
 * straight into it, and it goes to its FILE with one fwrite when full or
 * flushed.  printf parsed a format string and went through a string FILE
 * for every column of every record: 63-74% of `text`'s instructions
 *.  Each function writes what the printf call it
 * replaces wrote, byte for byte; tests/unit/test_outbuf.c compares them.
 *
 * Nothing here fails: a write error is left in ferror(fp), as fprintf
 * leaves it, for the caller to check after the record.
 */
#ifndef OUTBUF_H
#define OUTBUF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define OUTBUF_SIZE	1024	/* a text or CSV line fits; longer ones
				   go out in pieces */

struct outbuf {
	FILE	*fp;			/* where ob_flush writes */
	size_t	 len;			/* bytes held in buf */
	char	 buf[OUTBUF_SIZE];
};

/* Start an empty buffer for fp (nothing is allocated). */
void	ob_init(struct outbuf *ob, FILE *fp);

/* Write what the buffer holds to its FILE and empty it. */
void	ob_flush(struct outbuf *ob);

/* n bytes of s; any length. */
void	ob_mem(struct outbuf *ob, const char *s, size_t n);

/* A NUL-terminated string, as fputs writes it. */
void	ob_str(struct outbuf *ob, const char *s);

/* v in decimal, as "%" PRId64 writes it (ob_u64 below: PRIu64). */
void	ob_i64(struct outbuf *ob, int64_t v);

/* fmt_fixed() for divisors it cannot do in 64 bits (see ob_fixed). */
void	ob_fixed_wide(struct outbuf *ob, uint64_t value, uint64_t divisor,
	    int decimals);

/* c as \ooo (three octal digits). */
void	ob_octal(struct outbuf *ob, unsigned char c);

/*
 * src as fmt_escape_fp(fp, src, flags) writes it: control bytes, bytes
 * >= 0x7f and backslashes (and, per flags, ' ' and '"') as \ooo.
 */
void	ob_escape(struct outbuf *ob, const char *src, int flags);

/*
 * "HH:MM:SS" of an epoch second in local time, as fmt_clock(); "?" if
 * it has none.  Uses the per-hour memo of tmmemo.h.
 */
void	ob_clock(struct outbuf *ob, int64_t epoch_s);

/*
 * "2005-03-03T01:33:37Z" (UTC), as csv_utc() writes it, for the years
 * 1000 to 9999; returns 0.  Any other time writes nothing and returns
 * -1: csv_utc() has the rules for those ("?", strftime's own years).
 */
int	ob_utc(struct outbuf *ob, int64_t epoch_s);

/*
 * The rest is inline: CSV and text write ~45 numbers a record, and a
 * call each was a fifth of their time.
 */

extern const char ob_digits2[201];	/* "00" "01" ... "99" */

/* v (0..99) as two digits at dst. */
static inline void
ob_two(char *dst, unsigned v)
{
	memcpy(dst, ob_digits2 + 2 * v, 2);
}

/* How many decimal digits v has. */
static inline size_t
ob_ndigits(uint64_t v)
{
	static const uint64_t p10[20] = { 1, 10, 100, 1000, 10000, 100000,
	    1000000, 10000000, 100000000, 1000000000, 10000000000u,
	    100000000000u, 1000000000000u, 10000000000000u,
	    100000000000000u, 1000000000000000u, 10000000000000000u,
	    100000000000000000u, 1000000000000000000u,
	    10000000000000000000u };
	uint64_t x = v | 1;		/* 0 has one digit, as 1 has */
	/* log10 from the bit length (1233 / 4096 ~ log10 2), then exact. */
	unsigned t = (unsigned)(64 - __builtin_clzll(x)) * 1233 >> 12;

	return t - (x < p10[t]) + 1;
}

/* The ob_ndigits(v) decimal digits of v, ending just before end. */
static inline void
ob_digits(char *end, uint64_t v)
{
	char *p = end;
	uint32_t w;

	while (v > UINT32_MAX) {
		p -= 2;
		ob_two(p, (unsigned)(v % 100));
		v /= 100;
	}
	/*
	 * Most values fit 32 bits, where dividing is cheaper; four digits
	 * a step, so that the two halves do not wait on each other.
	 */
	w = (uint32_t)v;
	while (w >= 10000) {
		uint32_t r = w % 10000;

		w /= 10000;
		p -= 4;
		ob_two(p, r / 100);
		ob_two(p + 2, r % 100);
	}
	if (w >= 100) {
		p -= 2;
		ob_two(p, w % 100);
		w /= 100;
	}
	if (w >= 10)
		ob_two(p - 2, w);
	else
		p[-1] = (char)('0' + w);
}

/* v in decimal, as "%" PRIu64 writes it. */
static inline void
ob_u64(struct outbuf *ob, uint64_t v)
{
	size_t n = ob_ndigits(v);

	/* In place: the line buffer always has room for a number. */
	if (OUTBUF_SIZE - ob->len < n)
		ob_flush(ob);
	ob_digits(ob->buf + ob->len + n, v);
	ob->len += n;
}

/*
 * whole, then (if decimals > 0) '.' and frac zero-padded to decimals
 * digits: "%llu.%0*llu".  frac < 10^decimals, decimals 0..6.
 */
static inline void
ob_point(struct outbuf *ob, uint64_t whole, uint64_t frac, int decimals)
{
	size_t n;
	char *end;
	int i;

	if (decimals > 6)		/* the contract; 10^6 > any frac */
		decimals = 6;
	n = ob_ndigits(whole) + (decimals > 0 ? 1 + (size_t)decimals : 0);
	if (OUTBUF_SIZE - ob->len < n)
		ob_flush(ob);
	/* Right to left: frac padded to decimals, '.', whole. */
	end = ob->buf + ob->len + n;
	if (decimals > 0) {
		for (i = decimals; i >= 2; i -= 2) {
			end -= 2;
			ob_two(end, (unsigned)(frac % 100));
			frac /= 100;
		}
		if (i == 1)
			*--end = (char)('0' + frac);
		*--end = '.';
	}
	ob_digits(end, whole);
	ob->len += n;
}

/* One byte. */
static inline void
ob_char(struct outbuf *ob, char c)
{
	if (ob->len == OUTBUF_SIZE)
		ob_flush(ob);
	ob->buf[ob->len++] = c;
}

/*
 * value / divisor rounded half up to decimals places (0..6), exactly as
 * fmt_fixed() writes it.  Inline so that the constant divisors of the
 * callers (10^9, 1000, 1024) become multiplications: the same formula
 * as fmt_fixed128's 64-bit path (rem < 2^32 and 2 * 10^6 < 2^21, so no
 * product wraps).
 */
static inline void
ob_fixed(struct outbuf *ob, uint64_t value, uint64_t divisor, int decimals)
{
	uint64_t p = 1, whole, frac;
	int i;

	if (divisor == 0 || divisor > UINT32_MAX || decimals < 0 ||
	    decimals > 6) {
		ob_fixed_wide(ob, value, divisor, decimals);
		return;
	}
	for (i = 0; i < decimals; i++)
		p *= 10;
	whole = value / divisor;
	frac = (value % divisor * p * 2 + divisor) / (divisor * 2);
	/* No wrap: a carry needs divisor >= 2, so whole <= UINT64_MAX / 2. */
	if (frac == p) {
		whole++;
		frac = 0;
	}
	ob_point(ob, whole, frac, decimals);
}

#endif
