/*
 * The per-hour memo of localtime_r / gmtime_r (see tmmemo.h).
 */
#include <limits.h>
#include <string.h>
#include <time.h>

#include "tmmemo.h"

/* A checked hour: 16 bytes, so that many fit. */
struct hour {
	int64_t		 lo;		/* epoch second read as :00:00 */
	int32_t		 year;		/* INT32_MIN: slot empty */
	uint8_t		 mon, mday, hour;
};

/*
 * Hours by epoch hour modulo MEMO_HOURS.  Records arrive roughly in
 * time order, but start times jitter (processes end in exit order), and
 * each hour's partial records repeat the start times of every live
 * process, days old some of them.  Minutes were remembered first: `text`
 * of 200,000 generated records (4,668 distinct minutes over 20 days)
 * missed 29,000 times with 4096 minutes, and a miss is three
 * conversions; 100,000 records cost 334 instructions a time.  4096
 * hours are 170 days.  64 KB a memo.  The slot is only a hint; hit()
 * checks the range.
 */
#define MEMO_HOURS	4096

struct memo {
	int		 ready;		/* slots marked empty */
	struct hour	 m[MEMO_HOURS];
};

/* [0] local time, [1] UTC.  Per thread: text and CSV may run anywhere. */
static _Thread_local struct memo memo[2];

static uint64_t	slot(int64_t epoch_s);
static int	hit(const struct hour *m, int64_t epoch_s,
		    struct civil *c);
static int	convert(int64_t epoch_s, int utc, struct tm *tm);
static int	same_hour(const struct tm *a, const struct tm *b);

int
tm_memo(int64_t epoch_s, int utc, struct civil *c)
{
	struct memo *mo = &memo[utc != 0];
	struct hour *m;
	struct tm tm, a, b;
	uint64_t k = slot(epoch_s);
	int64_t lo;
	unsigned i;

	if (!mo->ready) {
		for (i = 0; i < MEMO_HOURS; i++)
			mo->m[i].year = INT32_MIN;
		mo->ready = 1;
	}
	/*
	 * An hour is kept in the slot of its first second lo, and
	 * epoch_s's slot is lo's or the next (lo need not be a multiple
	 * of 3600: offsets of half hours, with seconds, leap seconds).
	 */
	if (hit(&mo->m[k], epoch_s, c) ||
	    hit(&mo->m[(k + MEMO_HOURS - 1) % MEMO_HOURS], epoch_s, c))
		return 0;
	if (convert(epoch_s, utc, &tm) != 0)
		return -1;
	c->year = (int64_t)tm.tm_year + 1900;
	c->mon = tm.tm_mon + 1;
	c->mday = tm.tm_mday;
	c->hour = tm.tm_hour;
	c->min = tm.tm_min;
	c->sec = tm.tm_sec;
	/*
	 * Remember this hour only if both its ends read as :00:00 and
	 * :59:59 of it, and its fields fit a slot (tm_sec is 0..60; the
	 * ends of int64 are left out so that lo and lo + 3599 cannot wrap
	 * where time_t is narrower).
	 */
	if (epoch_s < INT64_MIN + 3600 || epoch_s > INT64_MAX - 3600 ||
	    c->year <= INT32_MIN || c->year > INT32_MAX || tm.tm_mon < 0 ||
	    tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_mday > 31 ||
	    tm.tm_hour < 0 || tm.tm_hour > 23 || tm.tm_min < 0 ||
	    tm.tm_min > 59 || tm.tm_sec < 0 || tm.tm_sec > 60)
		return 0;
	lo = epoch_s - tm.tm_min * 60 - tm.tm_sec;
	if (convert(lo, utc, &a) == 0 && a.tm_min == 0 && a.tm_sec == 0 &&
	    same_hour(&a, &tm) && convert(lo + 3599, utc, &b) == 0 &&
	    b.tm_min == 59 && b.tm_sec == 59 && same_hour(&b, &tm)) {
		m = &mo->m[slot(lo)];
		m->lo = lo;
		m->year = (int32_t)c->year;
		m->mon = (uint8_t)c->mon;
		m->mday = (uint8_t)c->mday;
		m->hour = (uint8_t)c->hour;
	}
	return 0;
}

void
tm_memo_forget(void)
{
	memset(memo, 0, sizeof(memo));
}

/* The slot of epoch_s's hour (any map will do: a hint). */
static uint64_t
slot(int64_t epoch_s)
{
	return (uint64_t)epoch_s / 3600 % MEMO_HOURS;
}

/* Does m hold epoch_s?  Then *c is its time. */
static int
hit(const struct hour *m, int64_t epoch_s, struct civil *c)
{
	int d;

	if (m->year == INT32_MIN || epoch_s < m->lo || epoch_s - m->lo >= 3600)
		return 0;
	d = (int)(epoch_s - m->lo);
	c->year = m->year;
	c->mon = m->mon;
	c->mday = m->mday;
	c->hour = m->hour;
	c->min = d / 60;
	c->sec = d % 60;
	return 1;
}

static int
convert(int64_t epoch_s, int utc, struct tm *tm)
{
	time_t t = (time_t)epoch_s;

	if (utc)
		return gmtime_r(&t, tm) == NULL ? -1 : 0;
	return localtime_r(&t, tm) == NULL ? -1 : 0;
}

/* Every field but tm_min and tm_sec the same? */
static int
same_hour(const struct tm *a, const struct tm *b)
{
	return a->tm_hour == b->tm_hour &&
	    a->tm_mday == b->tm_mday && a->tm_mon == b->tm_mon &&
	    a->tm_year == b->tm_year && a->tm_wday == b->tm_wday &&
	    a->tm_yday == b->tm_yday && a->tm_isdst == b->tm_isdst;
}
