/*
 * What every part of the usage report shares (report_int.h): the names
 * of the keys, the set of rows, the title.  The driver (report.c) and
 * the printers call these; these call none of them back.
 */
#include <stdlib.h>
#include <string.h>

#include "../parsers/compat.h"
#include "../parsers/records.h"
#include "../store/rollup.h"
#include "fmt.h"
#include "report_int.h"

const char *const report_by_names[] = {
	[BY_USER] = "user", [BY_COMMAND] = "command",
	[BY_PROJECT] = "project", [BY_ZONE] = "zone", [BY_HOST] = "host",
	[BY_HOUR] = "hour", [BY_GROUP] = "group", [BY_CGROUP] = "cgroup",
	[BY_UNIT] = "unit", [BY_CONTAINER] = "container",
};

const char *const report_key_names[] = {
	[BY_USER] = "uid", [BY_COMMAND] = "command", [BY_PROJECT] = "projid",
	[BY_ZONE] = "zone", [BY_HOST] = "host", [BY_HOUR] = "hour_start",
	[BY_GROUP] = "gid", [BY_CGROUP] = "cgroup", [BY_UNIT] = "unit",
	[BY_CONTAINER] = "container",
};

int
report_nkeys(const struct report_opts *o)
{
	return o->keyless ? 0 : o->nkeys > 0 ? o->nkeys : 1;
}

enum report_by
report_key(const struct report_opts *o, int k)
{
	return o->nkeys > 0 ? o->keys[k] : o->by;
}

struct report_row *
report_add(struct report_set *s)
{
	struct report_row *nr;

	if (s->n == s->cap) {
		size_t cap = s->cap == 0 ? 64 : s->cap * 2;

		if ((nr = ex_reallocarray(s->rows, cap, sizeof(*nr))) == NULL)
			return NULL;
		s->rows = nr;
		s->cap = cap;
	}
	memset(&s->rows[s->n], 0, sizeof(s->rows[0]));
	return &s->rows[s->n++];
}

void
report_set_release(struct report_set *s)
{
	free(s->rows);
	free(s->edge);
	report_obs_release(s);
	free(s->hosts);
	free(s->btotal);
	free(s->names);
	memset(s, 0, sizeof(*s));
}

int
report_window(struct rdb *db, struct report_opts *o, int energy,
    int64_t *out, struct ex_err *err)
{
	char sql[256];
	const char *view = energy ? "v_energy_usage" : "v_proc_usage";
	struct rdb_q *q;
	int64_t lo = INT64_MIN, hi = INT64_MAX;

	*out = 0;
	/* An end given past the range keeps the other one open. */
	if ((o->open & REPORT_OPEN_FROM) && ((o->open & REPORT_OPEN_TO) ||
	    o->to_ns > 0))
		o->from_ns = lo = 0;
	if ((o->open & REPORT_OPEN_TO) && ((o->open & REPORT_OPEN_FROM) ||
	    o->from_ns < ROLLUP_MAX_T_NS))
		o->to_ns = hi = ROLLUP_MAX_T_NS;
	if (lo == INT64_MIN && hi == INT64_MAX)
		return EXR_OK;
	/* Two ranges of the time index (an OR could read every row). */
	snprintf(sql, sizeof(sql), "SELECT (SELECT count(*) FROM %s WHERE "
	    "t1_ns < ?1) + (SELECT count(*) FROM %s WHERE t1_ns >= ?2)",
	    view, view);
	if (rdb_prepare(db, sql, &q) != 0)
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	rdb_bind_int64(q, 1, lo);
	rdb_bind_int64(q, 2, hi);
	if (rdb_step(q) != RDB_ROW) {
		ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
		rdb_finalize(q);
		return EXR_DB;
	}
	*out = rdb_int64(q, 0);
	rdb_finalize(q);
	return EXR_OK;
}
