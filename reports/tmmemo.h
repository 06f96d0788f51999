/*
 * localtime_r and gmtime_r, remembered per minute.  Text and CSV print a
 * time on every record; localtime_r costs ~500 instructions a call, a
 * hit here a few dozen.
 *
 * A minute is remembered only after checking that its first second lo
 * reads as second 0 and lo + 59 as second 59 of the same minute (so the
 * UTC offset, leap correction included, is the same at both ends); it
 * then answers for lo..lo+59.  This assumes no zone changes its offset
 * twice within one minute, which no tz database zone does.  A minute it
 * cannot check (a leap second, a skipped second, an out-of-range time)
 * is converted afresh every time.
 *
 * The memo is per thread and is not told about tzset(): a program that
 * changes TZ (cmd_report does, before any output) must do it before the
 * first record is written, or call tm_memo_forget().
 */
#ifndef TMMEMO_H
#define TMMEMO_H

#include <stdint.h>

/* The fields of a broken-down time that text and CSV print. */
struct civil {
	int64_t	year;			/* 2005, not 105 as in struct tm */
	int	mon;			/* 1..12 */
	int	mday;			/* 1..31 */
	int	hour;			/* 0..23 */
	int	min;			/* 0..59 */
	int	sec;			/* 0..60 (60: a leap second) */
};

/*
 * *c = local (utc == 0) or UTC (utc != 0) time of epoch_s, as
 * localtime_r / gmtime_r give it.  Returns 0, or -1 if there is none
 * (*c undefined).
 */
int	tm_memo(int64_t epoch_s, int utc, struct civil *c);

/* Drop what is remembered (after a change of TZ). */
void	tm_memo_forget(void);

#endif
