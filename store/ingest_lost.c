/*
 * The loss sink: acctd's loss records (exit records the kernel dropped,
 * or acctd could not write) into lost, per host and time (see
 * ingest_int.h, docs/schema.md).  A repeat is ignored.
 */
#include <stdlib.h>

#include "ingest_int.h"

enum { Q_INS_LOST, Q_N };

static const char *const q_sql[Q_N] = {
	[Q_INS_LOST] = "INSERT OR IGNORE INTO lost (host_id, t_ns, records) "
	    "VALUES (?,?,?)",
};

struct lost_sink {
	sqlite3_stmt	*q[Q_N];
};

static int
lost_prepare(struct store *s, struct ex_err *err)
{
	if ((s->lost = calloc(1, sizeof(*s->lost))) == NULL)
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	return stmts_prepare(s->db, q_sql, s->lost->q, Q_N, err);
}

static void
lost_finalize(struct store *s)
{
	if (s->lost == NULL)
		return;
	stmts_finalize(s->lost->q, Q_N);
	free(s->lost);
	s->lost = NULL;
}

static int
ingest_lost(struct run *r, const char *host, const void *rec)
{
	const struct ex_lost *l = rec;
	sqlite3_stmt *st = r->s->lost->q[Q_INS_LOST];
	int rc;

	if (!REC_HAS(l, LOST_TIME_NS) || !REC_HAS(l, LOST_COUNT))
		return run_count(r, DIFF_UNTIMED);
	if ((rc = run_host(r, host)) != EXR_OK)
		return rc;
	r->stats->lost += l->v[LOST_COUNT];
	sqlite3_bind_int64(st, 1, r->host_id);
	sqlite3_bind_int64(st, 2, (int64_t)l->v[LOST_TIME_NS]);
	sqlite3_bind_int64(st, 3, (int64_t)l->v[LOST_COUNT]);
	return store_step(r->s, st, r->err);
}

const struct sink lost_sink = {
	.name = "lost",
	.prepare = lost_prepare,
	.write = ingest_lost,
	.finalize = lost_finalize,
};
