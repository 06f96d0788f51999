/*
 * The sysload sink: snap's system records (/proc/stat's cpu line) into
 * sysload, kept as they are, for the capture ratio (see ingest_int.h,
 * docs/schema.md).  One row per snapshot; a repeat is ignored.
 */
#include <stdlib.h>

#include "ingest_int.h"

enum { Q_INS_SYSLOAD, Q_N };

static const char *const q_sql[Q_N] = {
	[Q_INS_SYSLOAD] = "INSERT OR IGNORE INTO sysload (host_id, t_ns, "
	    "user_ticks, nice_ticks, system_ticks, idle_ticks, iowait_ticks, "
	    "irq_ticks, softirq_ticks, steal_ticks, clk_tck, btime_s, ncpu) "
	    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
};

struct sysload_sink {
	sqlite3_stmt	*q[Q_N];
};

static int
sysload_prepare(struct store *s, struct ex_err *err)
{
	if ((s->sysload = calloc(1, sizeof(*s->sysload))) == NULL)
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	return stmts_prepare(s->db, q_sql, s->sysload->q, Q_N, err);
}

static void
sysload_finalize(struct store *s)
{
	if (s->sysload == NULL)
		return;
	stmts_finalize(s->sysload->q, Q_N);
	free(s->sysload);
	s->sysload = NULL;
}

static int
ingest_sysload(struct run *r, const char *host, const void *rec)
{
	const struct ex_sysload *sl = rec;
	sqlite3_stmt *st = r->s->sysload->q[Q_INS_SYSLOAD];
	int f, rc;

	if (!REC_HAS(sl, SYS_TIME_NS) || !REC_HAS(sl, SYS_CLK_TCK) ||
	    sl->v[SYS_CLK_TCK] == 0)
		return run_count(r, DIFF_UNTIMED);
	if ((rc = run_host(r, host)) != EXR_OK)
		return rc;
	sqlite3_bind_int64(st, 1, r->host_id);
	/* The columns after host_id are the fields, in enum order. */
	for (f = 0; f < SYS_NFIELDS; f++)
		bind_opt(st, 2 + f, REC_HAS(sl, f), sl->v[f]);
	return store_step(r->s, st, r->err);
}

const struct sink sysload_sink = {
	.name = "sysload",
	.prepare = sysload_prepare,
	.write = ingest_sysload,
	.finalize = sysload_finalize,
};
