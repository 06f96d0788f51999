/*
 * The output buffer (see outbuf.h).  Hot path: a proc record's text line
 * is ~16 columns, its CSV line ~30; each column is one or two calls here
 * with no format string, no locale and no intermediate FILE.
 */
#include <string.h>
#include <time.h>

#include "fmt.h"
#include "outbuf.h"
#include "tmmemo.h"

/* "00" "01" ... "99": two digits per division by 100. */
const char ob_digits2[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

static int	civil_ok(const struct civil *c);

void
ob_init(struct outbuf *ob, FILE *fp)
{
	ob->fp = fp;
	ob->len = 0;
}

void
ob_flush(struct outbuf *ob)
{
	/* A short write sets ferror(fp), which the caller checks. */
	if (ob->len > 0)
		(void)fwrite(ob->buf, 1, ob->len, ob->fp);
	ob->len = 0;
}

void
ob_mem(struct outbuf *ob, const char *s, size_t n)
{
	if (OUTBUF_SIZE - ob->len < n) {
		ob_flush(ob);
		if (n > OUTBUF_SIZE) {
			(void)fwrite(s, 1, n, ob->fp);	/* as ob_flush */
			return;
		}
	}
	memcpy(ob->buf + ob->len, s, n);
	ob->len += n;
}

void
ob_str(struct outbuf *ob, const char *s)
{
	ob_mem(ob, s, strlen(s));
}

void
ob_i64(struct outbuf *ob, int64_t v)
{
	/* The magnitude in unsigned arithmetic: -INT64_MIN does not fit. */
	if (v < 0) {
		ob_char(ob, '-');
		ob_u64(ob, -(uint64_t)v);
	} else
		ob_u64(ob, (uint64_t)v);
}

void
ob_fixed_wide(struct outbuf *ob, uint64_t value, uint64_t divisor,
    int decimals)
{
	char b[48];

	ob_str(ob, fmt_fixed(b, sizeof(b), value, divisor, decimals));
}

void
ob_octal(struct outbuf *ob, unsigned char c)
{
	char e[4];

	e[0] = '\\';
	e[1] = (char)('0' + ((c >> 6) & 7));
	e[2] = (char)('0' + ((c >> 3) & 7));
	e[3] = (char)('0' + (c & 7));
	ob_mem(ob, e, sizeof(e));
}

void
ob_escape(struct outbuf *ob, const char *src, int flags)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t n;

	/* The usual name needs no escape: one copy of the whole run. */
	for (;;) {
		for (n = 0; s[n] != '\0' && !fmt_needs_escape(s[n], flags); n++)
			;
		ob_mem(ob, (const char *)s, n);
		if (s[n] == '\0')
			return;
		ob_octal(ob, s[n]);
		s += n + 1;
	}
}

void
ob_clock(struct outbuf *ob, int64_t epoch_s)
{
	struct civil c;
	char b[8], f[32];

	/* strftime's %H:%M:%S; fmt_clock for what ob_two() cannot write. */
	if (tm_memo(epoch_s, 0, &c) != 0) {
		ob_char(ob, '?');
		return;
	}
	if (!civil_ok(&c)) {
		ob_str(ob, fmt_clock(f, sizeof(f), epoch_s));
		return;
	}
	ob_two(b, (unsigned)c.hour);
	b[2] = ':';
	ob_two(b + 3, (unsigned)c.min);
	b[5] = ':';
	ob_two(b + 6, (unsigned)c.sec);
	ob_mem(ob, b, sizeof(b));
}

int
ob_utc(struct outbuf *ob, int64_t epoch_s)
{
	struct civil c;
	char b[20];

	/*
	 * Only four-digit years: strftime's padding and sign rules for
	 * other years are its own.
	 */
	if (tm_memo(epoch_s, 1, &c) != 0 || c.year < 1000 || c.year > 9999 ||
	    !civil_ok(&c))
		return -1;
	ob_two(b, (unsigned)(c.year / 100));
	ob_two(b + 2, (unsigned)(c.year % 100));
	b[4] = '-';
	ob_two(b + 5, (unsigned)c.mon);
	b[7] = '-';
	ob_two(b + 8, (unsigned)c.mday);
	b[10] = 'T';
	ob_two(b + 11, (unsigned)c.hour);
	b[13] = ':';
	ob_two(b + 14, (unsigned)c.min);
	b[16] = ':';
	ob_two(b + 17, (unsigned)c.sec);
	b[19] = 'Z';
	ob_mem(ob, b, sizeof(b));
	return 0;
}

/* Fields in the ranges of tmmemo.h (libc promises them; ob_two() needs). */
static int
civil_ok(const struct civil *c)
{
	return c->mon >= 1 && c->mon <= 12 && c->mday >= 1 &&
	    c->mday <= 31 && c->hour >= 0 && c->hour <= 23 && c->min >= 0 &&
	    c->min <= 59 && c->sec >= 0 && c->sec <= 60;
}
