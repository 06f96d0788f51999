/*
 * The time a host was observed (report_int.h): the spans between two
 * consecutive system snapshots of one boot, at most REPORT_MAXGAP_NS
 * apart, as the forecast counts them.  A host with no such pair of
 * snapshots anywhere (pacct, Solaris exacct, a single snapshot, or
 * snapshots hours apart) has no spans: its coverage is unknown, and the
 * callers divide by the whole bucket as before.
 *
 * A bucket of which a host's snapshots cover one minute holds one
 * minute's CPU: over the bucket's hour it would read as 1/60 of what
 * the host did, so the utilisation and the charts divide by the time
 * observed instead, and say how much that was.
 */
#include <stdlib.h>
#include <string.h>

#include "../parsers/compat.h"
#include "../parsers/records.h"
#include "report_int.h"

#define SPANS_SQL \
	"SELECT host, p, t_ns FROM (SELECT host, t_ns, btime_s," \
	" lag(t_ns) OVER w AS p, lag(btime_s) OVER w AS pb" \
	" FROM v_sysload WINDOW w AS (PARTITION BY host_id ORDER BY t_ns))" \
	" x WHERE p IS NOT NULL AND t_ns > ?1 AND p < ?2" \
	" AND t_ns - p <= %lld" \
	" AND (btime_s IS NULL OR pb IS NULL OR btime_s = pb)" \
	" ORDER BY host, t_ns"

static struct report_host *
find_host(struct report_set *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nhosts; i++)
		if (strcmp(s->hosts[i].host, name) == 0)
			return &s->hosts[i];
	return NULL;
}

int
report_obs_load(struct rdb *db, struct report_set *s, int64_t from_ns,
    int64_t to_ns, struct ex_err *err)
{
	char sql[512];
	struct rdb_q *st;
	struct report_host *h = NULL;
	int rc;

	snprintf(sql, sizeof(sql), SPANS_SQL, (long long)REPORT_MAXGAP_NS);
	if (rdb_prepare(db, sql, &st) != 0)
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	rdb_bind_int64(st, 1, from_ns);
	rdb_bind_int64(st, 2, to_ns);
	while ((rc = rdb_step(st)) == RDB_ROW) {
		const char *name = rdb_text(st, 0);
		int64_t (*ns)[2];

		if (name == NULL)
			continue;
		if (h == NULL || strcmp(h->host, name) != 0)
			h = find_host(s, name);
		if (h == NULL)
			continue;
		if (h->nspan > 0 && h->span[h->nspan - 1][1] >=
		    rdb_int64(st, 1)) {
			/* Consecutive: one span (ordered by t_ns). */
			if (rdb_int64(st, 2) > h->span[h->nspan - 1][1])
				h->span[h->nspan - 1][1] = rdb_int64(st, 2);
			continue;
		}
		if ((ns = ex_reallocarray(h->span, h->nspan + 1,
		    sizeof(*ns))) == NULL) {
			rdb_finalize(st);
			return ex_fail(err, EXR_NOMEM, 0, "no memory");
		}
		h->span = ns;
		h->span[h->nspan][0] = rdb_int64(st, 1);
		h->span[h->nspan++][1] = rdb_int64(st, 2);
	}
	rdb_finalize(st);
	return rc == RDB_DONE ? EXR_OK :
	    ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
}

int64_t
report_obs_ns(const struct report_host *h, int64_t a, int64_t b)
{
	size_t lo = 0, hi = h->nspan, mid;
	int64_t sum = 0, x, y;

	/* The first span that ends after a: they are sorted, apart. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (h->span[mid][1] <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < h->nspan && h->span[lo][0] < b; lo++) {
		x = h->span[lo][0] > a ? h->span[lo][0] : a;
		y = h->span[lo][1] < b ? h->span[lo][1] : b;
		if (y > x)
			sum += y - x;
	}
	return sum;
}

void
report_obs_release(struct report_set *s)
{
	size_t i;

	for (i = 0; i < s->nhosts; i++) {
		free(s->hosts[i].span);
		s->hosts[i].span = NULL;
		s->hosts[i].nspan = 0;
	}
}
