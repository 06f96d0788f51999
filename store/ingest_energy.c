/*
 * The energy sink: energy snapshots into energy_procs, energy_intervals
 * and energy_last (see ingest_int.h, docs/schema.md):
 * per process (host, pid, start) and pair of consecutive snapshots, the
 * growth of each cumulative counter; the first snapshot of a process
 * gives an interval from its start.  CPU ticks are converted to ns by
 * the writer's rule (energy_tick_ns) before anything is differenced.
 * The last state of every process is kept in energy_last, so a log split
 * over several runs gives the same intervals as one.
 */
#include <stdlib.h>
#include <string.h>

#include "ingest_int.h"

enum { Q_SEL_EPROC, Q_INS_EPROC, Q_SEL_ELAST, Q_INS_EINT, Q_PUT_ELAST, Q_N };

static const char *const q_sql[Q_N] = {
	[Q_SEL_EPROC] = "SELECT eproc_id FROM energy_procs WHERE host_id = ?1 "
	    "AND start_ns BETWEEN ?2 - ?4 AND ?2 + ?4 AND pid = ?3 "
	    "ORDER BY abs(start_ns - ?2) LIMIT 1",
	[Q_INS_EPROC] = "INSERT INTO energy_procs (host_id, pid, start_ns, "
	    "ppid, uid, command, translated) VALUES (?,?,?,?,?,?,?)",
	[Q_SEL_ELAST] = "SELECT t_ns, present, " ENERGY_COUNTERS
	    " FROM energy_last WHERE eproc_id = ?",
	[Q_INS_EINT] = "INSERT INTO energy_intervals (eproc_id, t0_ns, t1_ns, "
	    "first, " ENERGY_COUNTERS ", footprint, max_footprint, anomalies) "
	    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	[Q_PUT_ELAST] = "INSERT OR REPLACE INTO energy_last (eproc_id, t_ns, "
	    "present, " ENERGY_COUNTERS ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
};

struct energy_sink {
	sqlite3_stmt	*q[Q_N];
};

static int
energy_prepare(struct store *s, struct ex_err *err)
{
	if ((s->energy = calloc(1, sizeof(*s->energy))) == NULL)
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	return stmts_prepare(s->db, q_sql, s->energy->q, Q_N, err);
}

static void
energy_finalize(struct store *s)
{
	if (s->energy == NULL)
		return;
	stmts_finalize(s->energy->q, Q_N);
	free(s->energy);
	s->energy = NULL;
}

/* The differenced counters, in column order (ENERGY_COUNTERS). */
enum { EC_CPU, EC_PCPU, EC_ENERGY, EC_PENERGY, EC_INSTR, EC_CYCLES,
    EC_READ, EC_WRITTEN, EC_INT, EC_IDLE, EC_N };

static const int ec_field[EC_N] = {
	-1, -1, EN_ENERGY_NJ, EN_PENERGY_NJ, EN_INSTRUCTIONS, EN_CYCLES,
	EN_DISK_READ, EN_DISK_WRITTEN, EN_INT_WAKEUPS, EN_IDLE_WAKEUPS
};

/* user + system ticks, in ns; 0 with *ns set, or -1 if not known. */
static int
cpu_ns(const struct ex_energy *e, int user, int sys, uint64_t *ns)
{
	uint64_t u, s;

	if (!REC_HAS(e, user) || !REC_HAS(e, sys) ||
	    energy_tick_ns(e, e->v[user], &u) != 0 ||
	    energy_tick_ns(e, e->v[sys], &s) != 0)
		return -1;
	*ns = u + s;
	return 0;
}

/* The record's counters, normalised, and which are present. */
static uint64_t
counters(const struct ex_energy *e, uint64_t c[EC_N])
{
	uint64_t present = 0;
	int i;

	if (cpu_ns(e, EN_USER_TICKS, EN_SYS_TICKS, &c[EC_CPU]) == 0)
		present |= 1u << EC_CPU;
	if (cpu_ns(e, EN_USER_PTICKS, EN_SYS_PTICKS, &c[EC_PCPU]) == 0)
		present |= 1u << EC_PCPU;
	for (i = EC_ENERGY; i < EC_N; i++)
		if (REC_HAS(e, ec_field[i])) {
			c[i] = e->v[ec_field[i]];
			present |= 1u << i;
		}
	return present;
}

/* The process's id, inserting it if new; *fresh says which. */
static int
eproc_id(struct run *r, const struct ex_energy *e, int64_t *id, int *fresh)
{
	struct store *s = r->s;
	sqlite3_stmt *q = s->energy->q[Q_SEL_EPROC];
	sqlite3_stmt *ins = s->energy->q[Q_INS_EPROC];
	int rc;

	*id = 0;
	sqlite3_bind_int64(q, 1, r->host_id);
	sqlite3_bind_int64(q, 2, (int64_t)e->v[EN_START_NS]);
	sqlite3_bind_int64(q, 3, (int64_t)e->v[EN_PID]);
	/* A sampler computes the start from the time now and the ticks
	 * since it: it moves by microseconds between snapshots. */
	sqlite3_bind_int64(q, 4, (int64_t)START_SLACK_NS);
	if (sqlite3_step(q) == SQLITE_ROW)
		*id = sqlite3_column_int64(q, 0);
	sqlite3_reset(q);
	*fresh = *id == 0;
	if (!*fresh)
		return EXR_OK;
	sqlite3_bind_int64(ins, 1, r->host_id);
	sqlite3_bind_int64(ins, 2, (int64_t)e->v[EN_PID]);
	sqlite3_bind_int64(ins, 3, (int64_t)e->v[EN_START_NS]);
	bind_opt(ins, 4, REC_HAS(e, EN_PPID), e->v[EN_PPID]);
	bind_opt(ins, 5, REC_HAS(e, EN_UID), e->v[EN_UID]);
	bind_str(ins, 6, REC_HAS(e, EN_COMMAND), e->command);
	bind_opt(ins, 7, REC_HAS(e, EN_TRANSLATED), e->v[EN_TRANSLATED]);
	if ((rc = store_step(s, ins, r->err)) != EXR_OK)
		return rc;
	*id = sqlite3_last_insert_rowid(s->db);
	return EXR_OK;
}

static int
ingest_energy(struct run *r, const char *host, const void *rec)
{
	const struct ex_energy *e = rec;
	struct store *s = r->s;
	sqlite3_stmt *q = s->energy->q[Q_SEL_ELAST], *st;
	uint64_t c[EC_N] = { 0 }, last[EC_N] = { 0 }, present, last_present = 0;
	uint64_t t0, t1 = e->v[EN_TIME_NS], anomalies = 0;
	int64_t id;
	int fresh, have_last = 0, i, rc;

	if ((rc = run_host(r, host)) != EXR_OK)
		return rc;
	r->stats->records++;
	if (!REC_HAS(e, EN_PID) || !REC_HAS(e, EN_START_NS) ||
	    !REC_HAS(e, EN_TIME_NS) || t1 < e->v[EN_START_NS])
		return run_count(r, DIFF_UNTIMED);
	present = counters(e, c);
	if ((rc = eproc_id(r, e, &id, &fresh)) != EXR_OK)
		return rc;
	t0 = e->v[EN_START_NS];
	if (!fresh) {
		sqlite3_bind_int64(q, 1, id);
		if (sqlite3_step(q) == SQLITE_ROW) {
			have_last = 1;
			t0 = (uint64_t)sqlite3_column_int64(q, 0);
			last_present = (uint64_t)sqlite3_column_int64(q, 1);
			for (i = 0; i < EC_N; i++)
				last[i] = (uint64_t)sqlite3_column_int64(q,
				    2 + i);
		}
		sqlite3_reset(q);
		if (have_last && t1 <= t0)	/* seen already, or older */
			return run_count(r, t1 == t0 ? DIFF_DUP : DIFF_LATE);
	}
	st = s->energy->q[Q_INS_EINT];
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, (int64_t)t0);
	sqlite3_bind_int64(st, 3, (int64_t)t1);
	sqlite3_bind_int(st, 4, !have_last);
	for (i = 0; i < EC_N; i++) {
		int has = (present >> i) & 1;
		uint64_t d = c[i];

		if (has && have_last) {
			if (!((last_present >> i) & 1))
				has = 0;
			else if (c[i] < last[i]) {
				has = 0;	/* went backwards */
				anomalies |= 1u << i;
			} else
				d = c[i] - last[i];
		}
		bind_opt(st, 5 + i, has, d);
	}
	bind_opt(st, 5 + EC_N, REC_HAS(e, EN_FOOTPRINT), e->v[EN_FOOTPRINT]);
	bind_opt(st, 6 + EC_N, REC_HAS(e, EN_MAX_FOOTPRINT),
	    e->v[EN_MAX_FOOTPRINT]);
	sqlite3_bind_int64(st, 7 + EC_N, (int64_t)anomalies);
	if ((rc = store_step(s, st, r->err)) != EXR_OK)
		return rc;
	r->stats->rows++;
	r->stats->anomalies += (uint64_t)__builtin_popcountll(anomalies);

	/* A counter that went backwards restarts from its new value. */
	st = s->energy->q[Q_PUT_ELAST];
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, (int64_t)t1);
	sqlite3_bind_int64(st, 3, (int64_t)present);
	for (i = 0; i < EC_N; i++)
		sqlite3_bind_int64(st, 4 + i, (int64_t)c[i]);
	return store_step(s, st, r->err);
}

const struct sink energy_sink = {
	.name = "energy",
	.prepare = energy_prepare,
	.write = ingest_energy,
	.finalize = energy_finalize,
};
