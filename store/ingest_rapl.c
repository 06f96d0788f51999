/*
 * The RAPL sink: zone readings into rapl_zones and rapl_intervals (see
 * ingest_int.h, docs/schema.md): per zone and pair of consecutive
 * snapshots, the growth of its energy counter, unwrapped once at the
 * zone's range (the rapl_wrap policy: unwrap, or drop, which leaves a
 * wrapped interval's energy unknown).  A reboot between two readings
 * restarted the counter, and an interval long enough for two wraps
 * cannot be unwrapped: their energy is unknown.  The zone's last reading
 * is kept in rapl_zones, so logs read over several runs give the same
 * intervals as one.
 */
#include <stdlib.h>

#include "ingest_int.h"

enum { Q_SEL_RZONE, Q_INS_RZONE, Q_UPD_RZONE, Q_INS_RINT, Q_N };

static const char *const q_sql[Q_N] = {
	[Q_SEL_RZONE] = "SELECT zone_id, max_uj, last_t_ns, last_uj, boot_s "
	    "FROM rapl_zones WHERE host_id = ? AND zone = ?",
	[Q_INS_RZONE] = "INSERT INTO rapl_zones (host_id, zone, name, max_uj, "
	    "last_t_ns, last_uj, boot_s) VALUES (?,?,?,?,?,?,?)",
	[Q_UPD_RZONE] = "UPDATE rapl_zones SET name = coalesce(?, name), "
	    "max_uj = coalesce(?, max_uj), last_t_ns = ?, last_uj = ?, "
	    "boot_s = coalesce(?, boot_s) WHERE zone_id = ?",
	[Q_INS_RINT] = "INSERT OR IGNORE INTO rapl_intervals (zone_id, t0_ns, "
	    "t1_ns, energy_uj, wrapped, ambiguous) VALUES (?,?,?,?,?,?)",
};

struct rapl_sink {
	sqlite3_stmt	*q[Q_N];
};

static int
rapl_prepare(struct store *s, struct ex_err *err)
{
	if ((s->rapl = calloc(1, sizeof(*s->rapl))) == NULL)
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	return stmts_prepare(s->db, q_sql, s->rapl->q, Q_N, err);
}

static void
rapl_finalize(struct store *s)
{
	if (s->rapl == NULL)
		return;
	stmts_finalize(s->rapl->q, Q_N);
	free(s->rapl);
	s->rapl = NULL;
}

/*
 * How far the boot time may move without a reboot: /proc/stat's btime
 * is the real time less the time since boot, so a step of the clock
 * moves it.  A real reboot takes longer than this.
 */
#define BOOT_SLACK_S	5

/*
 * Could the counter have wrapped more than once since the last reading?
 * Over a long interval a zone's average power stays under its long-term
 * limit (PL1; 10% more for the bursts PL2 allows), so it cannot have
 * used a whole range in less than range / limit.  Unknown without a
 * limit or a range: then one wrap is assumed, as everyone does.
 */
static int
may_wrap_twice(const struct ex_rapl *z, uint64_t max, uint64_t dt_ns)
{
	unsigned __int128 bound;

	if (!REC_HAS(z, RAPL_LIMIT_UW) || max == 0)
		return 0;
	bound = (unsigned __int128)z->v[RAPL_LIMIT_UW] * dt_ns / 1000000000u;
	return bound + bound / 10 >= max;
}

/* Did the host boot between the stored reading and this one? */
static int
rebooted(sqlite3_stmt *q, const struct ex_rapl *z)
{
	uint64_t was;

	if (!REC_HAS(z, RAPL_BOOT_S) || sqlite3_column_type(q, 4) == SQLITE_NULL)
		return 0;
	was = (uint64_t)sqlite3_column_int64(q, 4);
	return z->v[RAPL_BOOT_S] > was + BOOT_SLACK_S ||
	    was > z->v[RAPL_BOOT_S] + BOOT_SLACK_S;
}

static int
ingest_rapl(struct run *r, const char *host, const void *rec)
{
	const struct ex_rapl *z = rec;
	struct store *s = r->s;
	sqlite3_stmt *q = s->rapl->q[Q_SEL_RZONE], *st;
	uint64_t t = z->v[RAPL_TIME_NS], cur = z->v[RAPL_ENERGY_UJ];
	uint64_t max = 0, last_t = 0, last = 0, d = 0;
	int64_t id = 0;
	int rc, wrapped = 0, known, boot = 0, ambiguous;

	if ((rc = run_host(r, host)) != EXR_OK)
		return rc;
	r->stats->records++;
	if (!REC_HAS(z, RAPL_TIME_NS) || !REC_HAS(z, RAPL_ZONE) ||
	    !REC_HAS(z, RAPL_ENERGY_UJ))
		return run_count(r, DIFF_UNTIMED);
	sqlite3_bind_int64(q, 1, r->host_id);
	sqlite3_bind_text(q, 2, z->zone, -1, SQLITE_STATIC);
	if (sqlite3_step(q) == SQLITE_ROW) {
		id = sqlite3_column_int64(q, 0);
		max = (uint64_t)sqlite3_column_int64(q, 1);
		last_t = (uint64_t)sqlite3_column_int64(q, 2);
		last = (uint64_t)sqlite3_column_int64(q, 3);
		boot = rebooted(q, z);
	}
	sqlite3_reset(q);
	if (id == 0) {
		st = s->rapl->q[Q_INS_RZONE];
		sqlite3_bind_int64(st, 1, r->host_id);
		sqlite3_bind_text(st, 2, z->zone, -1, SQLITE_STATIC);
		bind_str(st, 3, REC_HAS(z, RAPL_NAME), z->name);
		bind_opt(st, 4, REC_HAS(z, RAPL_MAX_UJ), z->v[RAPL_MAX_UJ]);
		sqlite3_bind_int64(st, 5, (int64_t)t);
		sqlite3_bind_int64(st, 6, (int64_t)cur);
		bind_opt(st, 7, REC_HAS(z, RAPL_BOOT_S), z->v[RAPL_BOOT_S]);
		return store_step(s, st, r->err);
	}
	if (t <= last_t)			/* seen already, or older */
		return run_count(r, t == last_t ? DIFF_DUP : DIFF_LATE);
	if (REC_HAS(z, RAPL_MAX_UJ))
		max = z->v[RAPL_MAX_UJ];
	known = counter_unwrap(last, cur, max, &d, &wrapped) == 0;
	ambiguous = may_wrap_twice(z, max, t - last_t);
	if (boot)
		wrapped = 0;	/* it restarted */
	known = known && !boot && !ambiguous;
	if (!known)
		r->stats->anomalies++;
	else if (wrapped && r->o->rapl_drop_wrapped)
		known = 0;
	st = s->rapl->q[Q_INS_RINT];
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, (int64_t)last_t);
	sqlite3_bind_int64(st, 3, (int64_t)t);
	bind_opt(st, 4, known, d);
	sqlite3_bind_int(st, 5, wrapped);
	sqlite3_bind_int(st, 6, ambiguous);
	if ((rc = store_step(s, st, r->err)) != EXR_OK)
		return rc;
	r->stats->rows++;
	st = s->rapl->q[Q_UPD_RZONE];
	bind_str(st, 1, REC_HAS(z, RAPL_NAME), z->name);
	bind_opt(st, 2, REC_HAS(z, RAPL_MAX_UJ), z->v[RAPL_MAX_UJ]);
	sqlite3_bind_int64(st, 3, (int64_t)t);
	sqlite3_bind_int64(st, 4, (int64_t)cur);
	bind_opt(st, 5, REC_HAS(z, RAPL_BOOT_S), z->v[RAPL_BOOT_S]);
	sqlite3_bind_int64(st, 6, id);
	return store_step(s, st, r->err);
}

const struct sink rapl_sink = {
	.name = "rapl",
	.prepare = rapl_prepare,
	.write = ingest_rapl,
	.finalize = rapl_finalize,
};
