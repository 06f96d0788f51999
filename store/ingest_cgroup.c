/*
 * The cgroup sink: snap's cgroup records (the kernel's totals per
 * cgroup) into cgroups, cgroup_last and cgroup_intervals (see
 * ingest_int.h, docs/schema.md).  Per cgroup, known by host, hierarchy
 * and path, and pair of consecutive readings: the growth of its CPU and
 * I/O counters, and its memory as the later reading has it.  A counter
 * below its last reading means the cgroup was removed and made again
 * with the same path: the new one counted from zero after the last
 * reading, so the interval has what it counted (restarted = 1), never a
 * negative figure; what the old one counted after the last reading is
 * not known.  The last reading is kept in cgroup_last, so logs read
 * over several runs give the same intervals as one.
 */
#include <stdlib.h>
#include <string.h>

#include "../parsers/cgpath.h"
#include "ingest_int.h"

enum { Q_SEL_CG, Q_INS_CG, Q_SEL_LAST, Q_SET_LAST, Q_INS_CINT, Q_N };

static const char *const q_sql[Q_N] = {
	[Q_SEL_CG] = "SELECT cgroup_id FROM cgroups WHERE host_id = ? AND "
	    "hierarchy = ? AND path = ?",
	[Q_INS_CG] = "INSERT INTO cgroups (host_id, path, hierarchy, unit, "
	    "container, pod) VALUES (?,?,?,?,?,?)",
	[Q_SEL_LAST] = "SELECT t_ns, cpu_ns, user_ns, system_ns, "
	    "io_read_bytes, io_write_bytes, io_read_ops, io_write_ops "
	    "FROM cgroup_last WHERE cgroup_id = ?",
	[Q_SET_LAST] = "INSERT OR REPLACE INTO cgroup_last (cgroup_id, t_ns, "
	    "cpu_ns, user_ns, system_ns, io_read_bytes, io_write_bytes, "
	    "io_read_ops, io_write_ops) VALUES (?,?,?,?,?,?,?,?,?)",
	[Q_INS_CINT] = "INSERT OR IGNORE INTO cgroup_intervals (cgroup_id, "
	    "t0_ns, t1_ns, cpu_ns, user_ns, system_ns, mem_current, "
	    "mem_peak, io_read_bytes, io_write_bytes, io_read_ops, "
	    "io_write_ops, restarted) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
};

/* The counters, in the order of cgroup_last's columns after t_ns. */
static const int counters[] = {
	CG_CPU_NS, CG_USER_NS, CG_SYSTEM_NS, CG_IO_RBYTES, CG_IO_WBYTES,
	CG_IO_RIOS, CG_IO_WIOS,
};
#define NCOUNTERS	(sizeof(counters) / sizeof(counters[0]))

struct cgroup_sink {
	sqlite3_stmt	*q[Q_N];
};

static int
cgroup_prepare(struct store *s, struct ex_err *err)
{
	if ((s->cgroup = calloc(1, sizeof(*s->cgroup))) == NULL)
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	return stmts_prepare(s->db, q_sql, s->cgroup->q, Q_N, err);
}

static void
cgroup_finalize(struct store *s)
{
	if (s->cgroup == NULL)
		return;
	stmts_finalize(s->cgroup->q, Q_N);
	free(s->cgroup);
	s->cgroup = NULL;
}

/* The cgroup's row, made if new: its id, or 0 with r->err set. */
static int64_t
cgroup_id(struct run *r, const struct ex_cgroup *g)
{
	sqlite3_stmt *q = r->s->cgroup->q[Q_SEL_CG];
	struct cgpath_keys k;
	int64_t id = 0;
	int len = (int)strlen(g->path);

	/* The path's bytes as the kernel gave them (not always UTF-8). */
	sqlite3_bind_int64(q, 1, r->host_id);
	sqlite3_bind_int64(q, 2, (int64_t)g->v[CG_HIERARCHY]);
	sqlite3_bind_text(q, 3, g->path, len, SQLITE_STATIC);
	if (sqlite3_step(q) == SQLITE_ROW)
		id = sqlite3_column_int64(q, 0);
	sqlite3_reset(q);
	if (id != 0)
		return id;
	/* With the keys its path names, as a process's cgroup has. */
	cgpath_keys(g->path, &k);
	q = r->s->cgroup->q[Q_INS_CG];
	sqlite3_bind_int64(q, 1, r->host_id);
	sqlite3_bind_text(q, 2, g->path, len, SQLITE_STATIC);
	sqlite3_bind_int64(q, 3, (int64_t)g->v[CG_HIERARCHY]);
	bind_str(q, 4, k.unit[0] != '\0', k.unit);
	bind_str(q, 5, k.container[0] != '\0', k.container);
	bind_str(q, 6, k.pod[0] != '\0', k.pod);
	if (store_step(r->s, q, r->err) != EXR_OK)
		return 0;
	return sqlite3_last_insert_rowid(r->s->db);
}

static int
ingest_cgroup(struct run *r, const char *host, const void *rec)
{
	const struct ex_cgroup *g = rec;
	struct store *s = r->s;
	sqlite3_stmt *q, *st;
	uint64_t t = g->v[CG_TIME_NS], last_t = 0;
	uint64_t last[NCOUNTERS], d[NCOUNTERS];
	int has_last[NCOUNTERS], have[NCOUNTERS];
	int64_t id;
	size_t i;
	int rc, seen = 0, restarted = 0;

	if ((rc = run_host(r, host)) != EXR_OK)
		return rc;
	r->stats->records++;
	if (!REC_HAS(g, CG_TIME_NS) || !REC_HAS(g, CG_PATH) ||
	    !REC_HAS(g, CG_HIERARCHY))
		return run_count(r, DIFF_UNTIMED);
	if ((id = cgroup_id(r, g)) == 0)
		return EXR_DB;
	q = s->cgroup->q[Q_SEL_LAST];
	sqlite3_bind_int64(q, 1, id);
	if (sqlite3_step(q) == SQLITE_ROW) {
		seen = 1;
		last_t = (uint64_t)sqlite3_column_int64(q, 0);
		for (i = 0; i < NCOUNTERS; i++) {
			has_last[i] = sqlite3_column_type(q, 1 + (int)i) !=
			    SQLITE_NULL;
			last[i] = (uint64_t)sqlite3_column_int64(q,
			    1 + (int)i);
		}
	}
	sqlite3_reset(q);
	if (seen && t <= last_t)		/* seen already, or older */
		return run_count(r, t == last_t ? DIFF_DUP : DIFF_LATE);
	if (seen) {
		/* One counter below its last reading: a new cgroup, all of
		 * whose counters started from zero. */
		for (i = 0; i < NCOUNTERS; i++)
			if (REC_HAS(g, counters[i]) && has_last[i] &&
			    g->v[counters[i]] < last[i])
				restarted = 1;
		for (i = 0; i < NCOUNTERS; i++) {
			have[i] = REC_HAS(g, counters[i]) &&
			    (has_last[i] || restarted);
			d[i] = !have[i] ? 0 : restarted ? g->v[counters[i]] :
			    g->v[counters[i]] - last[i];
		}
		if (restarted)
			r->stats->anomalies++;
		st = s->cgroup->q[Q_INS_CINT];
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int64(st, 2, (int64_t)last_t);
		sqlite3_bind_int64(st, 3, (int64_t)t);
		for (i = 0; i < 3; i++)
			bind_opt(st, 4 + (int)i, have[i], d[i]);
		bind_opt(st, 7, REC_HAS(g, CG_MEM_CURRENT),
		    g->v[CG_MEM_CURRENT]);
		bind_opt(st, 8, REC_HAS(g, CG_MEM_PEAK), g->v[CG_MEM_PEAK]);
		for (i = 3; i < NCOUNTERS; i++)
			bind_opt(st, 6 + (int)i, have[i], d[i]);
		sqlite3_bind_int(st, 13, restarted);
		if ((rc = store_step(s, st, r->err)) != EXR_OK)
			return rc;
		r->stats->rows++;
	}
	st = s->cgroup->q[Q_SET_LAST];
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, (int64_t)t);
	for (i = 0; i < NCOUNTERS; i++)
		bind_opt(st, 3 + (int)i, REC_HAS(g, counters[i]),
		    g->v[counters[i]]);
	return store_step(s, st, r->err);
}

const struct sink cgroup_sink = {
	.name = "cgroup",
	.prepare = cgroup_prepare,
	.write = ingest_cgroup,
	.finalize = cgroup_finalize,
};
