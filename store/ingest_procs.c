/*
 * The process sink (see ingest_int.h, diff.h): process records into
 * procs, proc_interval_rows (the view proc_intervals is both: schema 16)
 * and proc_alt_exits, and the live state of every
 * process kept in memory and in proc_last between runs.
 *
 * A record goes through four steps: match (the live process it belongs
 * to, by host, pid and a start that may move a little), correct (what
 * its source is known to get wrong against the last snapshot), diff
 * (the interval since that snapshot) and write (the procs row: first
 * sight, or the exit that closes it).
 *
 * Hot path: one process record is one live-table lookup, one proc_diff
 * and one row in a batch: an interval row, or (schema 16) for a process
 * seen only at its exit, which most are, its procs row with the interval
 * in it.  A process seen before its exit has a procs row of its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parsers/cgpath.h"
#include "../parsers/pacct.h"
#include "../parsers/taskstats_decode.h"
#include "ingest_int.h"
#include "rollup.h"

enum {
	Q_INS_PROC, Q_UPD_PROC, Q_SEL_CLOSED, Q_INS_ALT, Q_INS_PINT,
	Q_PUT_PLAST, Q_DEL_PLAST, Q_HAS_PROC, Q_N
};

static const char *const q_sql[Q_N] = {
	/*
	 * A process already known is a repeat; a proc_id already taken
	 * is not, and must fail rather than drop the process: so only
	 * the identity's conflict is ignored.
	 */
	[Q_INS_PROC] = "INSERT INTO procs (proc_id, host_id, pid, "
	    "start_ns, ppid, uid, gid, projid, taskid, command, zone, "
	    "finish_ns, wait_status, acctflags, exit_source, base_cpu_ns, "
	    EXIT_EXTRAS ", cgroup_id, cgroup_from) VALUES "
	    "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?," Q9 ",?,?) "
	    "ON CONFLICT (host_id, start_ns, pid) DO NOTHING",
	/* An exit with no cgroup known keeps the one first seen. */
	[Q_UPD_PROC] = "UPDATE procs SET (finish_ns, wait_status, acctflags, "
	    "exit_source, base_cpu_ns, " EXIT_EXTRAS ", cgroup_id, "
	    "cgroup_from) = (?,?,?,?,?," Q9 ", coalesce(?, cgroup_id), ?) "
	    "WHERE proc_id = ?",
	[Q_SEL_CLOSED] = "SELECT proc_id, exit_source FROM procs "
	    "WHERE host_id = ?1 AND start_ns BETWEEN ?2 - ?4 AND ?2 + ?4 "
	    "AND pid = ?3 AND finish_ns IS NOT NULL "
	    "ORDER BY abs(start_ns - ?2) LIMIT 1",
	[Q_INS_ALT] = "INSERT OR IGNORE INTO proc_alt_exits (proc_id, source, "
	    "finish_ns, cpu_user_ns, cpu_sys_ns) VALUES (?,?,?,?,?)",
	[Q_INS_PINT] = "INSERT INTO proc_interval_rows (proc_id, t0_ns, t1_ns, "
	    "final, heartbeat, " PROC_COLUMNS ", anomalies, cgroup_id) "
	    "VALUES (?,?,?,?,?," Q22 ",?,?)",
	[Q_PUT_PLAST] = "INSERT OR REPLACE INTO proc_last (proc_id, t_ns, "
	    "row_t_ns, present, " PROC_COLUMNS ", cpu_source, cgroup_id) "
	    "VALUES (?,?,?,?," Q22 ",?,?)",
	[Q_DEL_PLAST] = "DELETE FROM proc_last WHERE proc_id = ?",
	[Q_HAS_PROC] = "SELECT 1 FROM procs WHERE proc_id = ?",
};

/* The columns of Q_UPD_PROC: the exit's facts, then the process. */
enum { UPD_FINISH = 1, UPD_WAIT, UPD_FLAGS, UPD_EXIT,
    /* after base_cpu_ns and the exit facts, PROC_EXIT_ROWS' */
    UPD_CGROUP = UPD_EXIT + 2 + EXIT_EXTRA_N,
    UPD_PROC_ID = UPD_CGROUP + 2 };

/* The columns of Q_INS_PROC from the exit's facts on. */
enum { INS_FINISH = 12, INS_WAIT, INS_FLAGS, INS_EXIT,
    INS_CGROUP = INS_EXIT + 2 + EXIT_EXTRA_N };

/*
 * Interval rows go in batches: one INSERT of PINT_BATCH rows costs much
 * less than PINT_BATCH statements (measured: ~15% of ingest time).
 */
#define PINT_BATCH	32
#define PINT_COLS	29	/* the columns of one Q_INS_PINT row */

/*
 * A process seen only at its exit is one procs row that carries the
 * exit's interval (schema 16): most processes are, and one row in one
 * table (and its identity index) costs half of a procs row and an
 * interval row.  Those rows go in batches too, as the same upsert as
 * Q_INS_PROC: a repeat (the identity known) is found at the flush, by
 * the count of rows added.
 */
#define EXIT_BATCH	32
#define EXIT_COLS	51	/* the columns of one exit row */
_Static_assert(EXIT_COLS == 16 + EXIT_EXTRA_N +
    PROC_LAST_LEVEL - PROC_FIRST_COUNTER + 1 + 1 + 2, "exits_prepare's row");

struct pint_row {
	int64_t		 proc_id;
	int64_t		 cgroup_id;	/* 0: NULL */
	struct proc_interval iv;
};

struct exit_row {
	int64_t		 proc_id;
	int64_t		 host_id;
	enum exit_source source;
	int64_t		 cgroup_id;	/* 0: NULL */
	int		 cgroup_from;	/* enum cgroup_from; 0: NULL */
	struct ex_proc	 p;
	struct proc_interval iv;
};

/*
 * The cgroups rows known, by host, hierarchy and path: the processes of
 * a host share a few dozen, so a lookup is a hash and a compare, not a
 * statement.  Direct-mapped; a slot taken by another path is replaced.
 */
#define CG_SLOTS	512
struct cg_slot {
	int64_t		 host_id;
	int64_t		 cgroup_id;	/* 0: empty */
	int		 hier;
	char		*path;
};

/*
 * Which parameters of the batched statements hold NULL now (1; indexed
 * by parameter number): bindings outlive a reset, so a NULL is bound
 * again only where a value was.  A bind costs ~100 instructions, and
 * most of a row's are NULL (measured: a fifth of ingest's instructions
 * went on binding).
 */
struct nulls {
	unsigned char	 pint[PINT_BATCH * PINT_COLS + 1];
	unsigned char	 pint1[PINT_COLS + 1];
	unsigned char	 exits[EXIT_BATCH * EXIT_COLS + 1];
	unsigned char	 exit1[EXIT_COLS + 1];
};

struct proc_sink {
	sqlite3_stmt	*q[Q_N];
	struct nulls	 nul;
	sqlite3_stmt	*pint_batch;	/* PINT_BATCH rows at once */
	struct pint_row	 pending[PINT_BATCH];
	size_t		 npending;
	sqlite3_stmt	*exit_one;	/* one exit row */
	sqlite3_stmt	*exit_batch;	/* EXIT_BATCH of them */
	struct exit_row	 exits[EXIT_BATCH];
	size_t		 nexits;
	struct live	 live;		/* struct proc_state, key host|pid */
	struct rollup	*rollup;	/* the rollups' pending parts */
	struct cg_slot	 cg[CG_SLOTS];
	sqlite3_stmt	*cg_ins, *cg_sel;
	int64_t		 next_id;	/* the next proc_id */
};

/* Empty the cgroups cache. */
static void
cg_forget(struct proc_sink *ps)
{
	size_t i;

	for (i = 0; i < CG_SLOTS; i++) {
		free(ps->cg[i].path);
		ps->cg[i].path = NULL;
		ps->cg[i].cgroup_id = 0;
	}
}

/*
 * The cgroups row of p's cgroup on this host (*id; 0: p names none),
 * made the first time the path is seen, with the keys it names
 * (parsers/cgpath.h), and whose cgroup it is (*from, enum cgroup_from;
 * 0: its own).  The path is stored as its bytes, whatever they are.
 */
static int
cgroup_of(struct run *r, const struct ex_proc *p, int64_t *id, int *from)
{
	struct proc_sink *ps = r->s->procs;
	struct cgpath_keys k;
	struct cg_slot *slot;
	uint64_t h = 1469598103934665603ull;
	const unsigned char *c;
	int hier, rc;

	*id = 0;
	*from = REC_HAS(p, PROC_CGROUP_FROM) ?
	    (int)p->v[PROC_CGROUP_FROM] : 0;
	if (!REC_HAS(p, PROC_CGROUP) || p->cgroup[0] == '\0')
		return EXR_OK;
	hier = REC_HAS(p, PROC_CGROUP_HIER) ? (int)p->v[PROC_CGROUP_HIER] : 0;
	h = (h ^ (uint64_t)r->host_id) * 1099511628211ull;
	h = (h ^ (uint64_t)hier) * 1099511628211ull;
	for (c = (const unsigned char *)p->cgroup; *c != '\0'; c++)
		h = (h ^ *c) * 1099511628211ull;
	slot = &ps->cg[h % CG_SLOTS];
	if (slot->cgroup_id != 0 && slot->host_id == r->host_id &&
	    slot->hier == hier && strcmp(slot->path, p->cgroup) == 0) {
		*id = slot->cgroup_id;
		return EXR_OK;
	}
	cgpath_keys(p->cgroup, &k);
	sqlite3_bind_int64(ps->cg_ins, 1, r->host_id);
	sqlite3_bind_int(ps->cg_ins, 2, hier);
	sqlite3_bind_text(ps->cg_ins, 3, p->cgroup, -1, SQLITE_STATIC);
	bind_str(ps->cg_ins, 4, k.unit[0] != '\0', k.unit);
	bind_str(ps->cg_ins, 5, k.container[0] != '\0', k.container);
	bind_str(ps->cg_ins, 6, k.pod[0] != '\0', k.pod);
	if ((rc = store_step(r->s, ps->cg_ins, r->err)) != EXR_OK)
		return rc;
	sqlite3_bind_int64(ps->cg_sel, 1, r->host_id);
	sqlite3_bind_int(ps->cg_sel, 2, hier);
	sqlite3_bind_text(ps->cg_sel, 3, p->cgroup, -1, SQLITE_STATIC);
	if (sqlite3_step(ps->cg_sel) == SQLITE_ROW)
		*id = sqlite3_column_int64(ps->cg_sel, 0);
	sqlite3_reset(ps->cg_sel);
	if (*id == 0)
		return db_fail(r->s->db, r->err, "cgroups");
	free(slot->path);
	if ((slot->path = strdup(p->cgroup)) == NULL) {
		slot->cgroup_id = 0;
		return ex_fail(r->err, EXR_NOMEM, 0, "no memory");
	}
	slot->host_id = r->host_id;
	slot->hier = hier;
	slot->cgroup_id = *id;
	return EXR_OK;
}

/* An exit's cgroup, counted by the rule that gave it (ingest's line). */
static void
cg_count(struct run *r, int64_t cg, int from)
{
	r->stats->cg_exits[cg == 0 ? 4 : from >= 1 && from <= 3 ? from : 0]++;
}

/* The insert of n exit rows (OR FAIL: see procs_prepare). */
static int
exits_prepare(sqlite3 *db, size_t n, sqlite3_stmt **st, struct ex_err *err)
{
	static const char head[] = "INSERT OR FAIL INTO procs (proc_id, "
	    "host_id, pid, start_ns, ppid, uid, gid, projid, taskid, command, "
	    "zone, finish_ns, wait_status, acctflags, exit_source, "
	    "base_cpu_ns, " EXIT_EXTRAS ", " EXIT_COLUMNS ", exit_anomalies, "
	    "cgroup_id, cgroup_from) VALUES ";
	static const char row[] = "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?," Q9 ","
	    Q22 ",?,?,?)";
	static const char tail[] = " ON CONFLICT (host_id, start_ns, pid) "
	    "DO NOTHING";

	return db_prepare_rows(db, head, row, n, tail, st, err);
}

static int
procs_prepare(struct store *s, struct ex_err *err)
{
	/*
	 * OR FAIL, not the default ABORT: a statement that writes many
	 * rows and may abort has SQLite copy every page it touches into a
	 * statement journal, to undo that statement alone (1.4 GB of temp
	 * writes for a 300,000-record pacct log).  Ingest never needs
	 * that: an error rolls the whole chunk back.
	 */
	static const char head[] = "INSERT OR FAIL INTO proc_interval_rows "
	    "(proc_id, t0_ns, t1_ns, final, heartbeat, " PROC_COLUMNS
	    ", anomalies, cgroup_id) VALUES ";
	static const char row[] = "(?,?,?,?,?," Q22 ",?,?)";
	struct proc_sink *ps;
	int rc;

	if ((ps = s->procs = calloc(1, sizeof(*ps))) == NULL)
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	live_init(&ps->live, sizeof(struct proc_state));
	memset(&ps->nul, 1, sizeof(ps->nul));	/* as prepared: all NULL */
	if ((rc = stmts_prepare(s->db, q_sql, ps->q, Q_N, err)) != EXR_OK ||
	    (rc = rollup_prepare(s->db, &ps->rollup, err)) != EXR_OK ||
	    (rc = db_prepare(s->db, "INSERT INTO cgroups (host_id, "
	    "hierarchy, path, unit, container, pod) VALUES (?,?,?,?,?,?) "
	    "ON CONFLICT (host_id, hierarchy, path) DO NOTHING", &ps->cg_ins,
	    err)) != EXR_OK ||
	    (rc = db_prepare(s->db, "SELECT cgroup_id FROM cgroups WHERE "
	    "host_id = ? AND hierarchy = ? AND path = ?", &ps->cg_sel, err)) !=
	    EXR_OK)
		return rc;
	/* The multi-row form of Q_INS_PINT. */
	if ((rc = db_prepare_rows(s->db, head, row, PINT_BATCH, "",
	    &ps->pint_batch, err)) != EXR_OK ||
	    (rc = exits_prepare(s->db, 1, &ps->exit_one, err)) != EXR_OK)
		return rc;
	return exits_prepare(s->db, EXIT_BATCH, &ps->exit_batch, err);
}

static void
procs_finalize(struct store *s)
{
	struct proc_sink *ps = s->procs;

	if (ps == NULL)
		return;
	stmts_finalize(ps->q, Q_N);
	sqlite3_finalize(ps->cg_ins);
	sqlite3_finalize(ps->cg_sel);
	cg_forget(ps);
	sqlite3_finalize(ps->pint_batch);
	sqlite3_finalize(ps->exit_one);
	sqlite3_finalize(ps->exit_batch);
	rollup_finalize(ps->rollup);
	live_release(&ps->live);
	free(ps);
	s->procs = NULL;
}

static void
procs_reset(struct store *s, int keep)
{
	struct proc_sink *ps = s->procs;

	if (keep)
		live_clear(&ps->live);
	else {
		live_release(&ps->live);
		live_init(&ps->live, sizeof(struct proc_state));
	}
	ps->npending = 0;
	ps->nexits = 0;
	cg_forget(ps);		/* rows a rollback took away */
	rollup_forget(ps->rollup);
	ps->next_id = 1;		/* what procs_load reads from nothing */
}

/* The state of live processes, as the last commit left it. */
static int
procs_load(struct store *s, struct ex_err *err)
{
	static const char sql[] =
	    "SELECT l.proc_id, p.host_id, p.pid, p.start_ns, l.t_ns, "
	    "l.row_t_ns, l.present, " PROC_COLUMNS ", l.cpu_source, "
	    "l.cgroup_id "
	    "FROM proc_last l JOIN procs p USING (proc_id) ORDER BY proc_id";
	struct proc_sink *ps = s->procs;
	sqlite3_stmt *st;
	int rc, f;

	if (db_prepare(s->db, sql, &st, err) != EXR_OK)
		return EXR_DB;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		uint64_t key = (uint64_t)sqlite3_column_int64(st, 1) << 32 |
		    (uint32_t)sqlite3_column_int64(st, 2);
		struct proc_state *p = live_add(&ps->live, key);

		if (p == NULL) {
			sqlite3_finalize(st);
			return ex_fail(err, EXR_NOMEM, 0, "no memory");
		}
		p->proc_id = sqlite3_column_int64(st, 0);
		p->start_ns = (uint64_t)sqlite3_column_int64(st, 3);
		p->t_ns = (uint64_t)sqlite3_column_int64(st, 4);
		p->row_t_ns = (uint64_t)sqlite3_column_int64(st, 5);
		p->present = (uint64_t)sqlite3_column_int64(st, 6);
		for (f = PROC_FIRST_COUNTER; f <= PROC_LAST_LEVEL; f++)
			p->v[f] = (uint64_t)sqlite3_column_int64(st,
			    7 + f - PROC_FIRST_COUNTER);
		/* Schema 5 kept no measure: not known. */
		f = 7 + PROC_LAST_LEVEL - PROC_FIRST_COUNTER + 1;
		p->present &= ~(1ULL << PROC_CPU_SOURCE);
		if (sqlite3_column_type(st, f) != SQLITE_NULL) {
			p->v[PROC_CPU_SOURCE] =
			    (uint64_t)sqlite3_column_int64(st, f);
			p->present |= 1ULL << PROC_CPU_SOURCE;
		}
		p->cgroup_id = sqlite3_column_int64(st, f + 1);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(s->db, err, "proc_last");
	if (db_prepare(s->db, "SELECT coalesce(max(proc_id), 0) + 1 "
	    "FROM procs", &st, err) != EXR_OK)
		return EXR_DB;
	if (sqlite3_step(st) == SQLITE_ROW)
		ps->next_id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return EXR_OK;
}

/* bind_opt, bind_counters and bind_str for nul's parameters. */
static inline void
bindn_opt(sqlite3_stmt *st, unsigned char *nul, int i, int has, uint64_t v)
{
	if (has) {
		sqlite3_bind_int64(st, i, (int64_t)v);
		nul[i] = 0;
	} else if (!nul[i]) {
		sqlite3_bind_null(st, i);
		nul[i] = 1;
	}
}

static inline void
bindn_counters(sqlite3_stmt *st, unsigned char *nul, int i, int f0, int f1,
    uint64_t present, const uint64_t *v)
{
	int f;

	for (f = f0; f <= f1; f++)
		bindn_opt(st, nul, i++, (present >> f) & 1, v[f]);
}

/* SQLITE_STATIC: v is the pending row's, which outlives the step. */
static inline void
bindn_str(sqlite3_stmt *st, unsigned char *nul, int i, int has,
    const char *v)
{
	if (has) {
		sqlite3_bind_text(st, i, v, -1, SQLITE_STATIC);
		nul[i] = 0;
	} else if (!nul[i]) {
		sqlite3_bind_null(st, i);
		nul[i] = 1;
	}
}

static void
bind_pint(sqlite3_stmt *st, unsigned char *nul, int base,
    const struct pint_row *p)
{
	const struct proc_interval *iv = &p->iv;

	sqlite3_bind_int64(st, base + 1, p->proc_id);
	sqlite3_bind_int64(st, base + 2, (int64_t)iv->t0_ns);
	sqlite3_bind_int64(st, base + 3, (int64_t)iv->t1_ns);
	sqlite3_bind_int(st, base + 4, iv->final);
	sqlite3_bind_int(st, base + 5, iv->heartbeat);
	bindn_counters(st, nul, base + 6, PROC_FIRST_COUNTER, PROC_LAST_LEVEL,
	    iv->present, iv->d);
	sqlite3_bind_int64(st, base + PINT_COLS - 1, (int64_t)iv->anomalies);
	bindn_opt(st, nul, base + PINT_COLS, p->cgroup_id != 0,
	    (uint64_t)p->cgroup_id);
}

/* Write the pending interval rows: a full batch, or one by one. */
static int
pints_flush(struct run *r)
{
	struct proc_sink *ps = r->s->procs;
	size_t i;
	int rc;

	if (ps->npending == PINT_BATCH) {
		for (i = 0; i < PINT_BATCH; i++)
			bind_pint(ps->pint_batch, ps->nul.pint,
			    (int)i * PINT_COLS, &ps->pending[i]);
		rc = sqlite3_step(ps->pint_batch);
		sqlite3_reset(ps->pint_batch);
		ps->npending = 0;
		return rc == SQLITE_DONE ? EXR_OK :
		    db_fail(r->s->db, r->err, "proc_intervals");
	}
	for (i = 0; i < ps->npending; i++) {
		bind_pint(ps->q[Q_INS_PINT], ps->nul.pint1, 0,
		    &ps->pending[i]);
		if ((rc = store_step(r->s, ps->q[Q_INS_PINT], r->err)) !=
		    EXR_OK)
			return rc;
	}
	ps->npending = 0;
	return EXR_OK;
}

/*
 * Bind exit row e from column base + 1 on: the columns of Q_INS_PROC,
 * the exit's facts as proc_insert and bind_exit bind them for a final
 * record seen first (no earlier observation: base_cpu_ns 0), then its
 * interval's values and anomalies.
 */
static void
bind_exit_row(sqlite3_stmt *st, unsigned char *nul, int base,
    const struct exit_row *e)
{
	const struct ex_proc *p = &e->p;
	const struct proc_interval *iv = &e->iv;
	int i = base + 1;

	sqlite3_bind_int64(st, i++, e->proc_id);
	sqlite3_bind_int64(st, i++, e->host_id);
	sqlite3_bind_int64(st, i++, (int64_t)p->v[PROC_PID]);
	sqlite3_bind_int64(st, i++, (int64_t)p->v[PROC_START_NS]);
	bindn_opt(st, nul, i++, REC_HAS(p, PROC_PPID), p->v[PROC_PPID]);
	bindn_opt(st, nul, i++, REC_HAS(p, PROC_UID), p->v[PROC_UID]);
	bindn_opt(st, nul, i++, REC_HAS(p, PROC_GID), p->v[PROC_GID]);
	bindn_opt(st, nul, i++, REC_HAS(p, PROC_PROJID), p->v[PROC_PROJID]);
	bindn_opt(st, nul, i++, REC_HAS(p, PROC_TASKID), p->v[PROC_TASKID]);
	bindn_str(st, nul, i++, REC_HAS(p, PROC_COMMAND), p->command);
	bindn_str(st, nul, i++, REC_HAS(p, PROC_ZONE), p->zone);
	bindn_opt(st, nul, i++, REC_HAS(p, PROC_FINISH_NS),
	    p->v[PROC_FINISH_NS]);
	bindn_opt(st, nul, i++, REC_HAS(p, PROC_WAIT_STATUS),
	    p->v[PROC_WAIT_STATUS]);
	bindn_opt(st, nul, i++, REC_HAS(p, PROC_ACCTFLAGS),
	    p->v[PROC_ACCTFLAGS]);
	sqlite3_bind_text(st, i++, exit_source_name(e->source), -1,
	    SQLITE_STATIC);
	sqlite3_bind_int64(st, i++, 0);
	bindn_counters(st, nul, i, PROC_DELAY_CPU_NS, PROC_CPU_RUN_NS,
	    p->present, p->v);
	bindn_counters(st, nul, i + EXIT_EXTRA_N - 1, PROC_MEM_KB,
	    PROC_MEM_KB, p->present, p->v);
	i += EXIT_EXTRA_N;
	bindn_counters(st, nul, i, PROC_FIRST_COUNTER, PROC_LAST_LEVEL,
	    iv->present, iv->d);
	i += PROC_LAST_LEVEL - PROC_FIRST_COUNTER + 1;
	sqlite3_bind_int64(st, i++, (int64_t)iv->anomalies);
	bindn_opt(st, nul, i++, e->cgroup_id != 0, (uint64_t)e->cgroup_id);
	bindn_opt(st, nul, i++, e->cgroup_from != 0,
	    (uint64_t)e->cgroup_from);
}

/*
 * An exit row written: its interval into the rollups, with the key of
 * the record the row was made of (the rollups count what the view
 * proc_intervals holds, and the row is one of its intervals).  Not at
 * the queueing: a row the identity's conflict leaves out is a repeat,
 * already counted.
 */
static int
exit_rollup(struct run *r, const struct exit_row *e)
{
	struct rollup *ru = r->s->procs->rollup;
	int rc;

	if ((rc = rollup_know(ru, e->proc_id, e->host_id, &e->p, r->err)) !=
	    EXR_OK)
		return rc;
	return rollup_add(ru, e->proc_id, &e->iv, r->err);
}

/*
 * Write the pending exit rows: a full batch, or one by one.  A row the
 * identity's conflict left out was a repeat of a process already
 * stored: it was counted as a row when queued, and is a duplicate (as
 * proc_insert counts one).
 */
static int
exits_flush(struct run *r)
{
	struct proc_sink *ps = r->s->procs;
	sqlite3_stmt *has = ps->q[Q_HAS_PROC];
	size_t i, n = ps->nexits;
	int64_t added = 0;
	int rc;

	if (n == 0)
		return EXR_OK;
	ps->nexits = 0;
	if (n == EXIT_BATCH) {
		for (i = 0; i < n; i++)
			bind_exit_row(ps->exit_batch, ps->nul.exits,
			    (int)i * EXIT_COLS, &ps->exits[i]);
		if ((rc = store_step(r->s, ps->exit_batch, r->err)) != EXR_OK)
			return rc;
		added = sqlite3_changes(r->s->db);
	} else
		for (i = 0; i < n; i++) {
			bind_exit_row(ps->exit_one, ps->nul.exit1, 0,
			    &ps->exits[i]);
			if ((rc = store_step(r->s, ps->exit_one, r->err)) !=
			    EXR_OK)
				return rc;
			added += sqlite3_changes(r->s->db);
		}
	if (added == (int64_t)n) {
		for (i = 0; i < n; i++)
			if ((rc = exit_rollup(r, &ps->exits[i])) != EXR_OK)
				return rc;
		return EXR_OK;
	}
	for (i = 0; i < n; i++) {
		sqlite3_bind_int64(has, 1, ps->exits[i].proc_id);
		rc = sqlite3_step(has);
		sqlite3_reset(has);
		if (rc == SQLITE_ROW) {
			if ((rc = exit_rollup(r, &ps->exits[i])) != EXR_OK)
				return rc;
			continue;
		}
		if (rc != SQLITE_DONE)
			return db_fail(r->s->db, r->err, "procs");
		r->stats->rows--;
		r->stats->anomalies -= (uint64_t)__builtin_popcountll(
		    ps->exits[i].iv.anomalies);
		run_count(r, DIFF_DUP);
	}
	return EXR_OK;
}

/*
 * Before a statement that reads procs for a process of this host and
 * pid (or could conflict with one): the pending exit rows of that
 * process go first, so it sees them.
 */
static int
exits_before(struct run *r, int64_t host_id, uint64_t pid)
{
	struct proc_sink *ps = r->s->procs;
	size_t i;

	for (i = 0; i < ps->nexits; i++)
		if (ps->exits[i].host_id == host_id &&
		    ps->exits[i].p.v[PROC_PID] == pid)
			return exits_flush(r);
	return EXR_OK;
}

/* At a commit: the pending rows, then the live states that changed. */
static int
procs_flush(struct run *r)
{
	struct proc_sink *ps = r->s->procs;
	sqlite3_stmt *st = ps->q[Q_PUT_PLAST];
	struct proc_state *p;
	int32_t it = -1;
	int rc;

	/* The rollups last: the exit rows add theirs as they are written. */
	if ((rc = pints_flush(r)) != EXR_OK ||
	    (rc = exits_flush(r)) != EXR_OK ||
	    (rc = rollup_flush(ps->rollup, r->err)) != EXR_OK)
		return rc;
	while ((p = live_next(&ps->live, &it)) != NULL) {
		if (!*live_dirty(p))
			continue;
		*live_dirty(p) = 0;
		sqlite3_bind_int64(st, 1, p->proc_id);
		sqlite3_bind_int64(st, 2, (int64_t)p->t_ns);
		sqlite3_bind_int64(st, 3, (int64_t)p->row_t_ns);
		sqlite3_bind_int64(st, 4, (int64_t)p->present);
		bind_counters(st, 5, PROC_FIRST_COUNTER, PROC_LAST_LEVEL,
		    p->present, p->v);
		bind_opt(st, 5 + PROC_LAST_LEVEL - PROC_FIRST_COUNTER + 1,
		    REC_HAS(p, PROC_CPU_SOURCE), p->v[PROC_CPU_SOURCE]);
		bind_opt(st, 5 + PROC_LAST_LEVEL - PROC_FIRST_COUNTER + 2,
		    p->cgroup_id != 0, (uint64_t)p->cgroup_id);
		if ((rc = store_step(r->s, st, r->err)) != EXR_OK)
			return rc;
	}
	return EXR_OK;
}

/* Queue an interval row; the batch is written when full. */
static int
pint_queue(struct run *r, int64_t proc_id, int64_t cgroup_id,
    const struct proc_interval *iv)
{
	struct proc_sink *ps = r->s->procs;
	int rc;

	/* Every row queued is written, or the chunk rolls back. */
	if ((rc = rollup_add(ps->rollup, proc_id, iv, r->err)) != EXR_OK)
		return rc;
	ps->pending[ps->npending].proc_id = proc_id;
	ps->pending[ps->npending].cgroup_id = cgroup_id;
	ps->pending[ps->npending].iv = *iv;
	r->stats->rows++;
	r->stats->anomalies += (uint64_t)__builtin_popcountll(iv->anomalies);
	if (++ps->npending == PINT_BATCH)
		return pints_flush(r);
	return EXR_OK;
}

/*
 * Bind an exit's facts from column i on: its source, the process's CPU
 * at its last observation before it (NULL: unknown), the delay totals
 * and the scheduler's runtime.  For a record that is not an exit, all NULL.
 */
static void
bind_exit(sqlite3_stmt *st, int i, const struct run *r,
    const struct ex_proc *p, int has_base, uint64_t base)
{
	int final = p->group == EXD_GROUP_PROC;

	if (final)
		sqlite3_bind_text(st, i, exit_source_name(r->source), -1,
		    SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
	bind_opt(st, i + 1, final && has_base, base);
	bind_counters(st, i + 2, PROC_DELAY_CPU_NS, PROC_CPU_RUN_NS,
	    final ? p->present : 0, p->v);
	bind_counters(st, i + 1 + EXIT_EXTRA_N, PROC_MEM_KB, PROC_MEM_KB,
	    final ? p->present : 0, p->v);
}

/*
 * An exit record for a process no live state knows: did another exit
 * source already close it (acctd and pacct both on)?  Then keep it as
 * that process's alternate exit, never as a second process.  Only asked
 * on hosts that have had more than one exit source.
 */
static int
alt_exit(struct run *r, const struct ex_proc *p, int *taken)
{
	struct proc_sink *ps = r->s->procs;
	sqlite3_stmt *q = ps->q[Q_SEL_CLOSED], *ins = ps->q[Q_INS_ALT];
	const char *mine = exit_source_name(r->source), *theirs;
	int64_t proc_id = 0;
	int rc;

	*taken = 0;
	if ((r->host_sources & ~(unsigned)r->source) == 0)
		return EXR_OK;
	if ((rc = exits_before(r, r->host_id, p->v[PROC_PID])) != EXR_OK)
		return rc;
	sqlite3_bind_int64(q, 1, r->host_id);
	sqlite3_bind_int64(q, 2, (int64_t)p->v[PROC_START_NS]);
	sqlite3_bind_int64(q, 3, (int64_t)p->v[PROC_PID]);
	sqlite3_bind_int64(q, 4, (int64_t)ALT_SLACK_NS);
	if (sqlite3_step(q) == SQLITE_ROW) {
		theirs = (const char *)sqlite3_column_text(q, 1);
		if (theirs == NULL || strcmp(theirs, mine) != 0)
			proc_id = sqlite3_column_int64(q, 0);
	}
	sqlite3_reset(q);
	if (proc_id == 0)
		return EXR_OK;
	*taken = 1;
	r->stats->alt_exits++;
	sqlite3_bind_int64(ins, 1, proc_id);
	sqlite3_bind_text(ins, 2, mine, -1, SQLITE_STATIC);
	bind_opt(ins, 3, REC_HAS(p, PROC_FINISH_NS), p->v[PROC_FINISH_NS]);
	bind_opt(ins, 4, REC_HAS(p, PROC_CPU_USER_NS),
	    p->v[PROC_CPU_USER_NS]);
	bind_opt(ins, 5, REC_HAS(p, PROC_CPU_SYS_NS), p->v[PROC_CPU_SYS_NS]);
	return store_step(r->s, ins, r->err);
}

/*
 * An exit record against the last snapshot of its process: an exit may
 * read a little below what the snapshot already saw, by the record's
 * own imprecision, which its source's parser states (slack: pacct's
 * comp_t rounding, acctd's whole-KiB I/O and tick-sampled CPU).  Where
 * the snapshot proves more by less than that, its figure stands (the
 * interval is then 0, not an anomaly); a larger gap is left for
 * proc_diff to flag.
 */
static void
exit_floor(const struct proc_state *st, struct ex_proc *p,
    uint64_t (*slack)(int, uint64_t))
{
	int f;

	for (f = 0; f < PROC_NFIELDS; f++)
		if (REC_HAS(st, f) && REC_HAS(p, f) && p->v[f] < st->v[f] &&
		    st->v[f] - p->v[f] < slack(f, p->v[f]))
			p->v[f] = st->v[f];
}

/*
 * What an exit record's CPU measures, where the record does not say:
 * pacct holds the tick samples, acctd the runtime (for threads of
 * 100 ms or more; exit_floor allows for the rest).  Solaris: unknown.
 */
static void
exit_cpu_source(const struct run *r, struct ex_proc *p)
{
	if (REC_HAS(p, PROC_CPU_SOURCE))
		return;
	p->v[PROC_CPU_SOURCE] = r->source == EXIT_ACCTD ?
	    CPU_SOURCE_RUNTIME : CPU_SOURCE_TICKS;
	p->present |= 1ULL << PROC_CPU_SOURCE;
}

/*
 * Whether the exit p of a Linux source reads before the last snapshot
 * that saw its process alive by no more than the snapshot reading it in
 * its exit path (EXIT_PATH_NS) and, for pacct, its times cut to ticks
 * once placed on the known start (proc_correct).  It exited after it was
 * seen, so it is put a nanosecond after; taken for a late record, it was
 * dropped and the process left open (CI: an acctd exit 1 ms before such
 * a snapshot, a pacct exit 8 ms).  Further before, it is late
 * (proc_diff).
 */
static int
exit_read_in_exit_path(const struct run *r, const struct proc_state *st,
    const struct ex_proc *p)
{
	uint64_t finish = p->v[PROC_FINISH_NS], slack = EXIT_PATH_NS;

	if (!REC_HAS(p, PROC_FINISH_NS) || finish >= st->t_ns ||
	    finish < p->v[PROC_START_NS])
		return 0;
	if (r->source == EXIT_PACCT)
		slack += pacct_finish_slack(finish - p->v[PROC_START_NS]);
	return st->t_ns - finish <= slack;
}

/*
 * Match: the live process a record of key (host|pid) belongs to, or
 * NULL.  Identity is (host, pid, start).  The kernel derives start from
 * the current time minus the elapsed time, so it may move by a little
 * between records: match the live process within 1 s (START_SLACK_NS).
 * A pid reused within that second gives two candidates: prefer the one
 * last seen before this record, then the closest start.
 */
static struct proc_state *
proc_match(struct proc_sink *ps, uint64_t key, const struct ex_proc *p)
{
	struct proc_state *st = NULL, *e;
	uint64_t best = UINT64_MAX, start = p->v[PROC_START_NS];
	int32_t it = -1;

	while ((e = live_next_of(&ps->live, key, &it)) != NULL) {
		uint64_t diff = e->start_ns > start ? e->start_ns - start :
		    start - e->start_ns;

		if (diff > START_SLACK_NS)
			continue;
		if (REC_HAS(p, PROC_FINISH_NS) &&
		    e->t_ns > p->v[PROC_FINISH_NS] + NS)
			diff += 2 * NS;		/* seen after this: unlikely */
		if (diff < best) {
			best = diff;
			st = e;
		}
	}
	return st;
}

/*
 * Correct: the record p of the live process st as its source should
 * have written it.  Returns p, or shifted (the caller's) holding the
 * corrected copy.
 */
static const struct ex_proc *
proc_correct(const struct run *r, const struct proc_state *st,
    const struct ex_proc *p, struct ex_proc *shifted)
{
	uint64_t start = p->v[PROC_START_NS];
	int final = p->group == EXD_GROUP_PROC;

	/*
	 * What pacct measured is the elapsed time; its start is cut to
	 * whole seconds.  Place its record on the start the process is
	 * known by, so its finish is not up to a second early (and older
	 * than the last snapshot).  Other records carry their finish as
	 * measured (a snapshot's is the snapshot's time, to the
	 * nanosecond): an exit is moved only to after the last sighting
	 * of its process (exit_read_in_exit_path).
	 */
	if (r->source == EXIT_PACCT && st->start_ns != start &&
	    REC_HAS(p, PROC_FINISH_NS) && p->v[PROC_FINISH_NS] >= start) {
		*shifted = *p;
		shifted->v[PROC_START_NS] = st->start_ns;
		shifted->v[PROC_FINISH_NS] = st->start_ns +
		    (p->v[PROC_FINISH_NS] - start);
		p = shifted;
	}
	/* Each exit source's imprecision against the snapshot. */
	if (final && (r->source == EXIT_ACCTD ||
	    r->source == EXIT_PACCT)) {
		if (p != shifted) {
			*shifted = *p;
			p = shifted;
		}
		if (exit_read_in_exit_path(r, st, shifted))
			shifted->v[PROC_FINISH_NS] = st->t_ns + 1;
		exit_floor(st, shifted, r->source == EXIT_ACCTD ?
		    ts_exit_slack : pacct_exit_slack);
		exit_cpu_source(r, shifted);
	}
	return p;
}

/*
 * Diff: the interval from st's last observation to p, queued if it is
 * a row; st moves on to p (unless p is a repeat or older).
 */
static int
proc_step(struct run *r, struct proc_state *st, const struct ex_proc *p,
    int64_t cgroup_id, enum diff_result *d)
{
	struct proc_interval iv;

	*d = proc_diff(st, p, &r->dopts, &iv);
	if (*d == DIFF_ROW)
		return pint_queue(r, st->proc_id, cgroup_id, &iv);
	return EXR_OK;
}

/*
 * Write: the exit record p closes the process st, whose CPU when last
 * seen was base (has_base: known).  Its live state goes.
 */
static int
proc_close(struct run *r, struct proc_state *st, const struct ex_proc *p,
    int has_base, uint64_t base, int64_t cg, int from)
{
	struct proc_sink *ps = r->s->procs;
	sqlite3_stmt *u = ps->q[Q_UPD_PROC], *del = ps->q[Q_DEL_PLAST];
	int rc;

	sqlite3_bind_int64(u, UPD_FINISH, (int64_t)p->v[PROC_FINISH_NS]);
	bind_opt(u, UPD_WAIT, REC_HAS(p, PROC_WAIT_STATUS),
	    p->v[PROC_WAIT_STATUS]);
	bind_opt(u, UPD_FLAGS, REC_HAS(p, PROC_ACCTFLAGS),
	    p->v[PROC_ACCTFLAGS]);
	bind_exit(u, UPD_EXIT, r, p, has_base, base);
	bind_opt(u, UPD_CGROUP, cg != 0, (uint64_t)cg);
	bind_opt(u, UPD_CGROUP + 1, cg != 0 && from != 0, (uint64_t)from);
	sqlite3_bind_int64(u, UPD_PROC_ID, st->proc_id);
	if ((rc = store_step(r->s, u, r->err)) != EXR_OK)
		return rc;
	sqlite3_bind_int64(del, 1, st->proc_id);
	if ((rc = store_step(r->s, del, r->err)) != EXR_OK)
		return rc;
	live_remove(&ps->live, st);
	return EXR_OK;
}

/* A record of a live process: correct, diff, and close it at its exit. */
static int
proc_seen(struct run *r, struct proc_state *st, const struct ex_proc *p)
{
	struct ex_proc shifted;
	enum diff_result d;
	uint64_t base;
	int64_t cg;
	int rc, has_base, from, final = p->group == EXD_GROUP_PROC;

	if ((rc = cgroup_of(r, p, &cg, &from)) != EXR_OK)
		return rc;
	/* An exit with none (pacct's): its last snapshot's. */
	if (final && cg == 0 && st->cgroup_id != 0) {
		cg = st->cgroup_id;
		from = CGROUP_FROM_SNAPSHOT;
	}
	p = proc_correct(r, st, p, &shifted);
	/* The CPU it had when last seen, before the exit moves it. */
	has_base = REC_HAS(st, PROC_CPU_USER_NS) &&
	    REC_HAS(st, PROC_CPU_SYS_NS);
	base = st->v[PROC_CPU_USER_NS] + st->v[PROC_CPU_SYS_NS];
	rc = proc_step(r, st, p, cg, &d);
	if (d == DIFF_ROW || d == DIFF_IDLE) {
		*live_dirty(st) = 1;
		if (!final && cg != 0)
			st->cgroup_id = cg;
	}
	if (rc != EXR_OK)
		return rc;
	if (d != DIFF_ROW || !final)
		return run_count(r, d);
	cg_count(r, cg, from);
	return proc_close(r, st, p, has_base, base, cg, from);
}

/*
 * Write: the procs row of a process seen for the first time, unless
 * another source closed it.  *added: the row is new (0: known and
 * already closed, a repeat of an old record, or taken as an alternate
 * exit).
 */
static int
proc_insert(struct run *r, const struct ex_proc *p, int64_t cg, int from,
    int *added)
{
	struct proc_sink *ps = r->s->procs;
	sqlite3_stmt *ins = ps->q[Q_INS_PROC];
	int final = p->group == EXD_GROUP_PROC, rc, taken;

	*added = 0;
	if (final && (rc = alt_exit(r, p, &taken)) != EXR_OK)
		return rc;
	if (final && taken)
		return EXR_OK;
	if ((rc = exits_before(r, r->host_id, p->v[PROC_PID])) != EXR_OK)
		return rc;
	sqlite3_bind_int64(ins, 1, ps->next_id);
	sqlite3_bind_int64(ins, 2, r->host_id);
	sqlite3_bind_int64(ins, 3, (int64_t)p->v[PROC_PID]);
	sqlite3_bind_int64(ins, 4, (int64_t)p->v[PROC_START_NS]);
	bind_opt(ins, 5, REC_HAS(p, PROC_PPID), p->v[PROC_PPID]);
	bind_opt(ins, 6, REC_HAS(p, PROC_UID), p->v[PROC_UID]);
	bind_opt(ins, 7, REC_HAS(p, PROC_GID), p->v[PROC_GID]);
	bind_opt(ins, 8, REC_HAS(p, PROC_PROJID), p->v[PROC_PROJID]);
	bind_opt(ins, 9, REC_HAS(p, PROC_TASKID), p->v[PROC_TASKID]);
	bind_str(ins, 10, REC_HAS(p, PROC_COMMAND), p->command);
	bind_str(ins, 11, REC_HAS(p, PROC_ZONE), p->zone);
	bind_opt(ins, INS_FINISH, final && REC_HAS(p, PROC_FINISH_NS),
	    p->v[PROC_FINISH_NS]);
	bind_opt(ins, INS_WAIT, final && REC_HAS(p, PROC_WAIT_STATUS),
	    p->v[PROC_WAIT_STATUS]);
	bind_opt(ins, INS_FLAGS, final && REC_HAS(p, PROC_ACCTFLAGS),
	    p->v[PROC_ACCTFLAGS]);
	bind_exit(ins, INS_EXIT, r, p, 1, 0);	/* all of it is new */
	bind_opt(ins, INS_CGROUP, cg != 0, (uint64_t)cg);
	bind_opt(ins, INS_CGROUP + 1, cg != 0 && from != 0, (uint64_t)from);
	if ((rc = store_step(r->s, ins, r->err)) != EXR_OK)
		return rc;
	if (sqlite3_changes(r->s->db) == 0)
		return run_count(r, final ? DIFF_DUP : DIFF_LATE);
	*added = 1;
	return EXR_OK;
}

/*
 * An exit record of a process seen for the first time: unless another
 * source closed it, one procs row with its interval, queued (*done;
 * 0: its interval is no row, as a finish before the start, and it goes
 * the way of other records).
 */
static int
exit_only(struct run *r, const struct ex_proc *p, int64_t cg, int from,
    int *done)
{
	struct proc_sink *ps = r->s->procs;
	struct proc_state fresh;
	struct exit_row *e;
	int rc, taken;

	*done = 0;
	if ((rc = alt_exit(r, p, &taken)) != EXR_OK)
		return rc;
	if (taken) {
		*done = 1;
		return EXR_OK;
	}
	e = &ps->exits[ps->nexits];
	proc_state_begin(&fresh, ps->next_id, p);
	if (proc_diff(&fresh, p, &r->dopts, &e->iv) != DIFF_ROW)
		return EXR_OK;
	*done = 1;
	e->proc_id = ps->next_id++;
	e->host_id = r->host_id;
	e->source = r->source;
	e->cgroup_id = cg;
	e->cgroup_from = cg != 0 ? from : 0;
	cg_count(r, cg, from);
	e->p = *p;
	r->stats->rows++;
	r->stats->anomalies += (uint64_t)__builtin_popcountll(
	    e->iv.anomalies);
	if (++ps->nexits == EXIT_BATCH)
		return exits_flush(r);
	return EXR_OK;
}

/* A process seen for the first time: its row, and its live state. */
static int
proc_new(struct run *r, uint64_t key, const struct ex_proc *p)
{
	struct proc_sink *ps = r->s->procs;
	struct proc_state fresh, *st;
	enum diff_result d;
	int64_t cg;
	int rc, added, done, from;

	if ((rc = cgroup_of(r, p, &cg, &from)) != EXR_OK)
		return rc;
	if (p->group == EXD_GROUP_PROC &&
	    ((rc = exit_only(r, p, cg, from, &done)) != EXR_OK || done))
		return rc;
	if ((rc = proc_insert(r, p, cg, from, &added)) != EXR_OK || !added)
		return rc;
	/* Its rollup key is that of the row just written. */
	if ((rc = rollup_know(ps->rollup, ps->next_id, r->host_id, p,
	    r->err)) != EXR_OK)
		return rc;
	proc_state_begin(&fresh, ps->next_id++, p);
	fresh.cgroup_id = cg;
	if ((rc = proc_step(r, &fresh, p, cg, &d)) != EXR_OK)
		return rc;
	if (p->group == EXD_GROUP_PROC && d == DIFF_ROW) {
		cg_count(r, cg, from);
		return EXR_OK;
	}
	if ((st = live_add(&ps->live, key)) == NULL)
		return ex_fail(r->err, EXR_NOMEM, 0, "no memory");
	*st = fresh;
	*live_dirty(st) = 1;
	return run_count(r, d);
}

static int
ingest_proc(struct run *r, const char *host, const void *rec)
{
	const struct ex_proc *p = rec;
	struct proc_state *st;
	uint64_t key;
	int rc;

	if (!REC_HAS(p, PROC_PID) || !REC_HAS(p, PROC_START_NS))
		return run_count(r, DIFF_UNTIMED);
	if ((rc = run_host(r, host)) != EXR_OK)
		return rc;
	if (p->group == EXD_GROUP_PROC && (rc = host_note_source(r)) != EXR_OK)
		return rc;
	key = (uint64_t)r->host_id << 32 | (uint32_t)p->v[PROC_PID];
	if ((st = proc_match(r->s->procs, key, p)) == NULL)
		return proc_new(r, key, p);
	return proc_seen(r, st, p);
}

const struct sink proc_sink = {
	.name = "procs",
	.prepare = procs_prepare,
	.load = procs_load,
	.write = ingest_proc,
	.flush = procs_flush,
	.reset = procs_reset,
	.finalize = procs_finalize,
};
