/*
 * --every: time buckets in the report's zone (TZ is set).  A day is
 * local midnight to midnight, 23 or 25 hours across a DST change; a
 * week starts on Monday (ISO 8601); a month on its first.  The edges
 * are made here, with mktime, and handed to the SQL as numbers, so the
 * engines need no calendar of their own.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../parsers/compat.h"
#include "../parsers/records.h"
#include "report_int.h"

const char *const report_every_names[] = {
	[EVERY_NONE] = "", [EVERY_HOUR] = "hour", [EVERY_DAY] = "day",
	[EVERY_WEEK] = "week", [EVERY_MONTH] = "month",
};

/* The start of the bucket holding epoch second t; steps after it. */
static int64_t
floor_at(enum report_every e, int64_t t, int steps)
{
	struct tm tm;
	time_t x = (time_t)t;

	if (localtime_r(&x, &tm) == NULL)
		return t;
	tm.tm_min = tm.tm_sec = 0;
	switch (e) {
	case EVERY_NONE:
	case EVERY_HOUR:
		tm.tm_hour += steps;
		break;
	case EVERY_DAY:
		tm.tm_hour = 0;
		tm.tm_mday += steps;
		break;
	case EVERY_WEEK:
		tm.tm_hour = 0;
		tm.tm_mday -= (tm.tm_wday + 6) % 7;
		tm.tm_mday += 7 * steps;
		break;
	case EVERY_MONTH:
		tm.tm_hour = 0;
		tm.tm_mday = 1;
		tm.tm_mon += steps;
		break;
	}
	tm.tm_isdst = -1;
	return (int64_t)mktime(&tm);
}

/* ns to whole seconds, rounding down (the window's ends may be any ns). */
static int64_t
secs_floor(int64_t ns)
{
	return ns / NS_I64 - (ns % NS_I64 < 0);
}

int
report_buckets(struct rdb *db, const struct report_opts *o,
    struct report_set *s, struct ex_err *err)
{
	/*
	 * The hours there is usage in (the rollups': each interval split
	 * over the hours it covers), from the host-hour rows: a few per
	 * hour, where the intervals are many.
	 */
	static const char sql[] =
	    "SELECT min(i.hour_s) * " NS_SQL ", max(i.hour_s) * " NS_SQL
	    " FROM v_usage_rollup_host i WHERE i.hour_s * " NS_SQL " >= ?1"
	    " AND i.hour_s * " NS_SQL " < ?2";
	struct rdb_q *st;
	int64_t first, last, e, next;
	size_t cap = 0;
	int rc;

	s->nb = 0;
	if (rdb_prepare(db, sql, &st) != 0)
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	rdb_bind_int64(st, 1, o->from_ns);
	rdb_bind_int64(st, 2, o->to_ns);
	rc = rdb_step(st);
	if (rc != RDB_ROW) {
		rdb_finalize(st);
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	}
	/* The window as given, else as far as the intervals go. */
	if (rdb_isnull(st, 0) && o->open != 0) {
		rdb_finalize(st);
		return EXR_OK;	/* no interval, no bound: no bucket */
	}
	first = !(o->open & REPORT_OPEN_FROM) ? secs_floor(o->from_ns) :
	    secs_floor(rdb_int64(st, 0));
	/* The last second of the window: to is exclusive. */
	last = !(o->open & REPORT_OPEN_TO) ? secs_floor(o->to_ns - 1) :
	    secs_floor(rdb_int64(st, 1));
	rdb_finalize(st);
	for (e = floor_at(o->every, first, 0); e <= last; e = next) {
		if (s->nb + 1 >= cap) {
			int64_t *ne;

			cap = cap == 0 ? 64 : cap * 2;
			if ((ne = ex_reallocarray(s->edge, cap,
			    sizeof(*ne))) == NULL)
				return ex_fail(err, EXR_NOMEM, 0, "no memory");
			s->edge = ne;
		}
		if (s->nb == REPORT_MAXBUCKETS)
			return ex_fail(err, EXR_USAGE, 0, "--every %s: more "
			    "than %d buckets; narrow the window with --from "
			    "and --to", report_every_names[o->every],
			    REPORT_MAXBUCKETS);
		s->edge[s->nb++] = e;
		/* A repeated local hour (DST's end) is one bucket. */
		next = floor_at(o->every, e, 1);
		if (next <= e)
			next = floor_at(o->every, e + 3600, 1);
	}
	s->edge[s->nb] = e;
	return EXR_OK;
}

long
report_bucket_of(const struct report_set *s, int64_t t)
{
	size_t lo = 0, hi = s->nb;

	if (s->nb == 0 || t < s->edge[0] || t >= s->edge[s->nb])
		return -1;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (t < s->edge[mid])
			hi = mid;
		else
			lo = mid;
	}
	return (long)lo;
}

void
report_bucket_text(char *b, size_t n, enum report_every e, int64_t epoch)
{
	struct tm tm;
	time_t t = (time_t)epoch;
	size_t l;

	if (localtime_r(&t, &tm) == NULL) {
		snprintf(b, n, "?");
		return;
	}
	switch (e) {
	case EVERY_DAY:
	case EVERY_WEEK:
		l = strftime(b, n, "%Y-%m-%d", &tm);
		break;
	case EVERY_MONTH:
		l = strftime(b, n, "%Y-%m", &tm);
		break;
	default:
		l = strftime(b, n, "%Y-%m-%d %H:00", &tm);
	}
	if (l == 0)
		snprintf(b, n, "?");
}
