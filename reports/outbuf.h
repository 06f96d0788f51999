/*
 * An output buffer for the one-line-per-record writers (text.c, csv.c):
 * numbers, fixed-point values, escaped strings and times are formatted
 * straight into it, and it goes to its FILE with one fwrite when full or
 * flushed.  printf parsed a format string and went through a string FILE
 * for every column of every record: 63-74% of `text`'s instructions
 * (issue 14, point 4).  Each function writes what the printf call it
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

/* v in decimal, as "%" PRIu64 / "%" PRId64 write it. */
void	ob_u64(struct outbuf *ob, uint64_t v);
void	ob_i64(struct outbuf *ob, int64_t v);

/*
 * whole, then (if decimals > 0) '.' and frac zero-padded to decimals
 * digits: "%llu.%0*llu".  frac < 10^decimals, decimals 0..6.
 */
void	ob_point(struct outbuf *ob, uint64_t whole, uint64_t frac,
	    int decimals);

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
 * it has none.  Uses the per-minute memo of tmmemo.h.
 */
void	ob_clock(struct outbuf *ob, int64_t epoch_s);

/*
 * "2005-03-03T01:33:37Z" (UTC), as csv_utc() writes it, for the years
 * 1000 to 9999; returns 0.  Any other time writes nothing and returns
 * -1: csv_utc() has the rules for those ("?", strftime's own years).
 */
int	ob_utc(struct outbuf *ob, int64_t epoch_s);

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
