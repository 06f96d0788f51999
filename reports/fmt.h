/*
 * Small formatting helpers shared by the text outputs: escaping untrusted
 * strings, fixed-point numbers computed in integers (so 15105 / 1000 to
 * two places is 15.11, not a binary-rounding 15.10), and local times.
 */
#ifndef FMT_H
#define FMT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* fmt_escape() flags. */
#define ESC_SPACE	0x1	/* also escape ' ' (whitespace-split columns) */
#define ESC_QUOTE	0x2	/* also escape '"' (quoted strings) */

/*
 * Copy src into dst[n], turning control characters, bytes >= 0x7f and
 * backslashes (and, per flags, space and '"') into \ooo octal, so that a
 * command name cannot move the cursor or split a column.  Always
 * terminates dst; truncates at a whole escape.  Returns dst.
 */
char	*fmt_escape(char *dst, size_t n, const char *src, int flags);

/* Does byte c print as \ooo under flags?  Inline: asked of every byte. */
static inline int
fmt_needs_escape(unsigned char c, int flags)
{
	return c < 0x20 || c >= 0x7f || c == '\\' ||
	    ((flags & ESC_SPACE) && c == ' ') ||
	    ((flags & ESC_QUOTE) && c == '"');
}

/* The same escape written straight to fp, never truncated. */
void	fmt_escape_fp(FILE *fp, const char *src, int flags);

/*
 * Write value / divisor rounded half up to `decimals` places (0..6) into
 * dst[n].  Exact for every uint64_t value.  Returns dst.
 */
char	*fmt_fixed(char *dst, size_t n, uint64_t value, uint64_t divisor,
	    int decimals);

/*
 * The same for 128-bit values (totals of many 64-bit counters): exact
 * for every value and any divisor below 2^106.  Returns dst.
 */
char	*fmt_fixed128(char *dst, size_t n, unsigned __int128 value,
	    unsigned __int128 divisor, int decimals);

/* v in decimal, sign included.  Returns dst. */
char	*fmt_int128(char *dst, size_t n, __int128 v);

/* "HH:MM:SS" or "YYYY-MM-DD HH:MM:SS" of an epoch second, local time. */
char	*fmt_clock(char *dst, size_t n, int64_t epoch_s);
char	*fmt_datetime(char *dst, size_t n, int64_t epoch_s);

/* ns as seconds with 3 places ("1.234"); negative prints as 0. */
void	fmt_secs(char *dst, size_t n, int64_t ns);
void	fmt_secs128(char *dst, size_t n, __int128 ns);

/*
 * A JSON string of s as fmt_escape(s, 0) writes it (control bytes,
 * bytes >= 0x7f and backslashes as \ooo), then JSON-escaped: printable
 * ASCII, valid JSON for any bytes, and the same text as the CSV cell.
 */
void	json_str(FILE *fp, const char *s);

#endif
