/*
 * localtime_r and gmtime_r, remembered per hour.  Text and CSV print a
 * time on every record; localtime_r costs ~500 instructions a call, a
 * hit here a few dozen.
 *
 * An hour is remembered only after checking that its first second lo
 * reads as :00:00 and lo + 3599 as :59:59 of the same hour (so the UTC
 * offset, leap correction included, is the same at both ends); it then
 * answers for lo..lo+3599.  This assumes no zone changes its offset
 * twice within one hour, which no tz database zone does (Lord Howe's
 * half-hour shift is one change).  An hour it cannot check (a leap
 * second, a change of offset, an out-of-range time) is converted
 * afresh every time.
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
