/*
 * Process and task intervals for ingest (see ingest.h, diff.h): matching
 * records to live processes, differencing, batched interval rows, and the
 * live state kept in proc_last and task_last between runs.
 *
 * Hot path: one process record is one live-table lookup, one proc_diff
 * and one row in the batch (plus a procs row for a process seen for the
 * first time).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parsers/pacct.h"
#include "../parsers/taskstats_decode.h"
#include "ingest_int.h"

/* The multi-row form of S_INS_PINT. */
int
pints_prepare(struct store *s, struct ex_err *err)
{
	static const char head[] = "INSERT INTO proc_intervals (proc_id, "
	    "t0_ns, t1_ns, final, heartbeat, " PROC_COLUMNS ", anomalies) "
	    "VALUES ";
	static const char row[] = "(?,?,?,?,?," Q22 ",?)";
	char sql[sizeof(head) + PINT_BATCH * sizeof(row)];
	size_t i, o;

	o = (size_t)snprintf(sql, sizeof(sql), "%s", head);
	for (i = 0; i < PINT_BATCH; i++)
		o += (size_t)snprintf(sql + o, sizeof(sql) - o, "%s%s",
		    i > 0 ? "," : "", row);
	return db_prepare(s->db, sql, &s->pint_batch, err);
}

static void
bind_pint(sqlite3_stmt *st, int base, const struct pint_row *p)
{
	const struct proc_interval *iv = &p->iv;

	sqlite3_bind_int64(st, base + 1, p->proc_id);
	sqlite3_bind_int64(st, base + 2, (int64_t)iv->t0_ns);
	sqlite3_bind_int64(st, base + 3, (int64_t)iv->t1_ns);
	sqlite3_bind_int(st, base + 4, iv->final);
	sqlite3_bind_int(st, base + 5, iv->heartbeat);
	bind_counters(st, base + 6, PROC_FIRST_COUNTER, PROC_LAST_LEVEL,
	    iv->present, iv->d);
	sqlite3_bind_int64(st, base + PINT_COLS, (int64_t)iv->anomalies);
}

/* Write the pending interval rows: a full batch, or one by one. */
int
pints_flush(struct run *r)
{
	struct store *s = r->s;
	size_t i;
	int rc;

	if (s->npending == PINT_BATCH) {
		for (i = 0; i < PINT_BATCH; i++)
			bind_pint(s->pint_batch, (int)i * PINT_COLS,
			    &s->pending[i]);
		rc = sqlite3_step(s->pint_batch);
		sqlite3_reset(s->pint_batch);
		s->npending = 0;
		return rc == SQLITE_DONE ? EXR_OK :
		    db_fail(s->db, r->err, "proc_intervals");
	}
	for (i = 0; i < s->npending; i++) {
		bind_pint(s->st[S_INS_PINT], 0, &s->pending[i]);
		if ((rc = store_step(s, S_INS_PINT, r->err)) != EXR_OK)
			return rc;
	}
	s->npending = 0;
	return EXR_OK;
}

static int
store_proc_row(struct run *r, int64_t proc_id, const struct proc_interval *iv)
{
	struct store *s = r->s;

	s->pending[s->npending].proc_id = proc_id;
	s->pending[s->npending].iv = *iv;
	r->stats->rows++;
	r->stats->anomalies += (uint64_t)__builtin_popcountll(iv->anomalies);
	if (++s->npending == PINT_BATCH)
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
}

/* Remember that the host has exits from this run's source. */
static int
note_source(struct run *r)
{
	sqlite3_stmt *u = r->s->st[S_UPD_HOSTSRC];

	if (r->host_sources & r->source)
		return EXR_OK;
	r->host_sources |= r->source;
	sqlite3_bind_int(u, 1, (int)r->source);
	sqlite3_bind_int64(u, 2, r->host_id);
	return store_step(r->s, S_UPD_HOSTSRC, r->err);
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
	struct store *s = r->s;
	sqlite3_stmt *q = s->st[S_SEL_CLOSED], *ins = s->st[S_INS_ALT];
	const char *mine = exit_source_name(r->source), *theirs;
	int64_t proc_id = 0;

	*taken = 0;
	if ((r->host_sources & ~(unsigned)r->source) == 0)
		return EXR_OK;
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
	return store_step(s, S_INS_ALT, r->err);
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

int
ingest_proc(struct run *r, const struct ex_proc *p)
{
	struct store *s = r->s;
	struct ex_proc shifted;
	struct proc_state *st = NULL, *e, fresh;
	struct proc_interval iv;
	enum diff_result d;
	uint64_t key, best = UINT64_MAX, start, base;
	int32_t it = -1;
	int final = p->group == EXD_GROUP_PROC, rc, has_base, taken;

	if (!REC_HAS(p, PROC_PID) || !REC_HAS(p, PROC_START_NS))
		return run_count(r, DIFF_UNTIMED);
	if (final && (rc = note_source(r)) != EXR_OK)
		return rc;
	start = p->v[PROC_START_NS];
	key = (uint64_t)r->host_id << 32 | (uint32_t)p->v[PROC_PID];
	/*
	 * Identity is (host, pid, start).  The kernel derives start from
	 * the current time minus the elapsed time, so it may move by a
	 * little between records: match the live process within 1 s
	 * (START_SLACK_NS).  A pid reused within that second gives two
	 * candidates: prefer the one last seen before this record, then
	 * the closest start.
	 */
	while ((e = live_next_of(&s->procs, key, &it)) != NULL) {
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
	if (st != NULL) {
		/*
		 * What pacct measured is the elapsed time; its start is
		 * cut to whole seconds.  Place its record on the start the
		 * process is known by, so its finish is not up to a second
		 * early (and older than the last snapshot).  Other records
		 * carry their finish as measured: never move it (a
		 * snapshot's is the snapshot's time, to the nanosecond).
		 */
		if (r->source == EXIT_PACCT && st->start_ns != start &&
		    REC_HAS(p, PROC_FINISH_NS) &&
		    p->v[PROC_FINISH_NS] >= start) {
			shifted = *p;
			shifted.v[PROC_START_NS] = st->start_ns;
			shifted.v[PROC_FINISH_NS] = st->start_ns +
			    (p->v[PROC_FINISH_NS] - start);
			p = &shifted;
		}
		if (final && (r->source == EXIT_ACCTD ||
		    r->source == EXIT_PACCT)) {
			if (p != &shifted) {
				shifted = *p;
				p = &shifted;
			}
			exit_floor(st, &shifted, r->source == EXIT_ACCTD ?
			    ts_exit_slack : pacct_exit_slack);
			exit_cpu_source(r, &shifted);
		}
		/* The CPU it had when last seen, before the exit moves it. */
		has_base = REC_HAS(st, PROC_CPU_USER_NS) &&
		    REC_HAS(st, PROC_CPU_SYS_NS);
		base = st->v[PROC_CPU_USER_NS] + st->v[PROC_CPU_SYS_NS];
		d = proc_diff(st, p, &r->dopts, &iv);
		if (d == DIFF_ROW || d == DIFF_IDLE)
			*live_dirty(st) = 1;
		if (d == DIFF_ROW &&
		    (rc = store_proc_row(r, st->proc_id, &iv)) != EXR_OK)
			return rc;
		if (d != DIFF_ROW || !final)
			return run_count(r, d);
		/* The exit record closes the process. */
		sqlite3_stmt *u = s->st[S_UPD_PROC];

		sqlite3_bind_int64(u, 1, (int64_t)p->v[PROC_FINISH_NS]);
		bind_opt(u, 2, REC_HAS(p, PROC_WAIT_STATUS),
		    p->v[PROC_WAIT_STATUS]);
		bind_opt(u, 3, REC_HAS(p, PROC_ACCTFLAGS),
		    p->v[PROC_ACCTFLAGS]);
		bind_exit(u, 4, r, p, has_base, base);
		sqlite3_bind_int64(u, 15, st->proc_id);
		if ((rc = store_step(s, S_UPD_PROC, r->err)) != EXR_OK)
			return rc;
		sqlite3_bind_int64(s->st[S_DEL_PLAST], 1, st->proc_id);
		if ((rc = store_step(s, S_DEL_PLAST, r->err)) != EXR_OK)
			return rc;
		live_remove(&s->procs, st);
		return EXR_OK;
	}

	/* First sight of this process, unless another source closed it. */
	if (final && (rc = alt_exit(r, p, &taken)) != EXR_OK)
		return rc;
	if (final && taken)
		return EXR_OK;
	sqlite3_stmt *ins = s->st[S_INS_PROC];

	sqlite3_bind_int64(ins, 1, s->next_proc_id);
	sqlite3_bind_int64(ins, 2, r->host_id);
	sqlite3_bind_int64(ins, 3, (int64_t)p->v[PROC_PID]);
	sqlite3_bind_int64(ins, 4, (int64_t)start);
	bind_opt(ins, 5, REC_HAS(p, PROC_PPID), p->v[PROC_PPID]);
	bind_opt(ins, 6, REC_HAS(p, PROC_UID), p->v[PROC_UID]);
	bind_opt(ins, 7, REC_HAS(p, PROC_GID), p->v[PROC_GID]);
	bind_opt(ins, 8, REC_HAS(p, PROC_PROJID), p->v[PROC_PROJID]);
	bind_opt(ins, 9, REC_HAS(p, PROC_TASKID), p->v[PROC_TASKID]);
	bind_str(ins, 10, REC_HAS(p, PROC_COMMAND), p->command);
	bind_str(ins, 11, REC_HAS(p, PROC_ZONE), p->zone);
	bind_opt(ins, 12, final && REC_HAS(p, PROC_FINISH_NS),
	    p->v[PROC_FINISH_NS]);
	bind_opt(ins, 13, final && REC_HAS(p, PROC_WAIT_STATUS),
	    p->v[PROC_WAIT_STATUS]);
	bind_opt(ins, 14, final && REC_HAS(p, PROC_ACCTFLAGS),
	    p->v[PROC_ACCTFLAGS]);
	bind_exit(ins, 15, r, p, 1, 0);		/* all of it is new */
	if ((rc = store_step(s, S_INS_PROC, r->err)) != EXR_OK)
		return rc;
	if (sqlite3_changes(s->db) == 0) {
		/* Known and already closed: a repeat of an old record. */
		return run_count(r, final ? DIFF_DUP : DIFF_LATE);
	}
	proc_state_begin(&fresh, s->next_proc_id++, p);
	d = proc_diff(&fresh, p, &r->dopts, &iv);
	if (d == DIFF_ROW && (rc = store_proc_row(r, fresh.proc_id, &iv)) !=
	    EXR_OK)
		return rc;
	if (final && d == DIFF_ROW)
		return EXR_OK;
	if ((st = live_add(&s->procs, key)) == NULL)
		return ex_fail(r->err, EXR_NOMEM, 0, "no memory");
	*st = fresh;
	*live_dirty(st) = 1;
	return run_count(r, d);
}

int
ingest_task(struct run *r, const struct ex_task *t)
{
	static const char *const kinds[] = { "final", "partial", "interval" };
	struct store *s = r->s;
	struct task_live *tl;
	struct task_interval iv;
	enum diff_result d;
	uint64_t key;
	int32_t it = -1;
	int rc, final = t->group == EXD_GROUP_TASK;
	const char *kind = kinds[t->group == EXD_GROUP_TASK_PARTIAL ? 1 :
	    t->group == EXD_GROUP_TASK_INTERVAL ? 2 : 0];
	sqlite3_stmt *st;

	if (!REC_HAS(t, TASK_TASKID) || !REC_HAS(t, TASK_START_NS))
		return run_count(r, DIFF_UNTIMED);
	key = (uint64_t)r->host_id << 32 | (uint32_t)t->v[TASK_TASKID];
	/* Interval records start where the last one ended, not at the
	 * task's creation: a live task is found by its id alone. */
	tl = live_next_of(&s->tasks, key, &it);
	if (tl == NULL) {
		st = s->st[S_INS_TASK];
		sqlite3_bind_int64(st, 1, s->next_task_id);
		sqlite3_bind_int64(st, 2, r->host_id);
		sqlite3_bind_int64(st, 3, (int64_t)t->v[TASK_TASKID]);
		sqlite3_bind_int64(st, 4, (int64_t)t->v[TASK_START_NS]);
		bind_opt(st, 5, REC_HAS(t, TASK_PROJID), t->v[TASK_PROJID]);
		bind_opt(st, 6, REC_HAS(t, TASK_ANCTASKID),
		    t->v[TASK_ANCTASKID]);
		bind_str(st, 7, REC_HAS(t, TASK_ZONE), t->zone);
		if ((rc = store_step(s, S_INS_TASK, r->err)) != EXR_OK)
			return rc;
		if (sqlite3_changes(s->db) == 0)
			return run_count(r, final ? DIFF_DUP : DIFF_LATE);
		if ((tl = live_add(&s->tasks, key)) == NULL)
			return ex_fail(r->err, EXR_NOMEM, 0, "no memory");
		task_state_begin(&tl->st, s->next_task_id++,
		    t->v[TASK_START_NS]);
		tl->start_ns = t->v[TASK_START_NS];
	}
	d = task_diff(&tl->st, t, &iv);
	if (d != DIFF_ROW)
		return run_count(r, d);
	*live_dirty(tl) = 1;
	st = s->st[S_INS_TINT];
	sqlite3_bind_int64(st, 1, tl->st.task_id);
	sqlite3_bind_int64(st, 2, (int64_t)iv.t0_ns);
	sqlite3_bind_int64(st, 3, (int64_t)iv.t1_ns);
	sqlite3_bind_text(st, 4, kind, -1, SQLITE_STATIC);
	bind_counters(st, 5, TASK_FIRST_COUNTER, TASK_LAST_COUNTER,
	    iv.present, iv.d);
	sqlite3_bind_int64(st, 19, (int64_t)iv.anomalies);
	r->stats->rows++;
	r->stats->anomalies += (uint64_t)__builtin_popcountll(iv.anomalies);
	if ((rc = store_step(s, S_INS_TINT, r->err)) != EXR_OK)
		return rc;
	if (!final)
		return EXR_OK;
	sqlite3_bind_int64(s->st[S_UPD_TASK], 1, (int64_t)iv.t1_ns);
	sqlite3_bind_int64(s->st[S_UPD_TASK], 2, tl->st.task_id);
	if ((rc = store_step(s, S_UPD_TASK, r->err)) != EXR_OK)
		return rc;
	sqlite3_bind_int64(s->st[S_DEL_TLAST], 1, tl->st.task_id);
	if ((rc = store_step(s, S_DEL_TLAST, r->err)) != EXR_OK)
		return rc;
	live_remove(&s->tasks, tl);
	return EXR_OK;
}

/* The state of live processes and tasks, as the last commit left it. */
int
states_load(struct store *s, struct ex_err *err)
{
	static const char procs_sql[] =
	    "SELECT l.proc_id, p.host_id, p.pid, p.start_ns, l.t_ns, "
	    "l.row_t_ns, l.present, " PROC_COLUMNS ", l.cpu_source "
	    "FROM proc_last l JOIN procs p USING (proc_id) ORDER BY proc_id";
	static const char tasks_sql[] =
	    "SELECT l.task_id, t.host_id, t.taskid, t.start_ns, l.t_ns, "
	    "l.present, " COUNTERS " FROM task_last l JOIN tasks t "
	    "USING (task_id) ORDER BY task_id";
	sqlite3_stmt *st;
	int rc, f;

	if (db_prepare(s->db, procs_sql, &st, err) != EXR_OK)
		return EXR_DB;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		uint64_t key = (uint64_t)sqlite3_column_int64(st, 1) << 32 |
		    (uint32_t)sqlite3_column_int64(st, 2);
		struct proc_state *p = live_add(&s->procs, key);

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
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(s->db, err, "proc_last");

	if (db_prepare(s->db, tasks_sql, &st, err) != EXR_OK)
		return EXR_DB;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		uint64_t key = (uint64_t)sqlite3_column_int64(st, 1) << 32 |
		    (uint32_t)sqlite3_column_int64(st, 2);
		struct task_live *t = live_add(&s->tasks, key);

		if (t == NULL) {
			sqlite3_finalize(st);
			return ex_fail(err, EXR_NOMEM, 0, "no memory");
		}
		t->st.task_id = sqlite3_column_int64(st, 0);
		t->start_ns = (uint64_t)sqlite3_column_int64(st, 3);
		t->st.t_ns = (uint64_t)sqlite3_column_int64(st, 4);
		t->st.present = (uint64_t)sqlite3_column_int64(st, 5);
		for (f = TASK_FIRST_COUNTER; f <= TASK_LAST_COUNTER; f++)
			t->st.v[f] = (uint64_t)sqlite3_column_int64(st,
			    6 + f - TASK_FIRST_COUNTER);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(s->db, err, "task_last");

	if (db_prepare(s->db, "SELECT coalesce(max(proc_id), 0) + 1, "
	    "(SELECT coalesce(max(task_id), 0) + 1 FROM tasks) FROM procs",
	    &st, err) != EXR_OK)
		return EXR_DB;
	if (sqlite3_step(st) == SQLITE_ROW) {
		s->next_proc_id = sqlite3_column_int64(st, 0);
		s->next_task_id = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return EXR_OK;
}

/* Write back the live states that changed this chunk. */
int
states_flush(struct run *r)
{
	struct store *s = r->s;
	struct proc_state *p;
	struct task_live *t;
	int32_t it = -1;
	int rc;

	while ((p = live_next(&s->procs, &it)) != NULL) {
		sqlite3_stmt *st = s->st[S_PUT_PLAST];

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
		if ((rc = store_step(s, S_PUT_PLAST, r->err)) != EXR_OK)
			return rc;
	}
	it = -1;
	while ((t = live_next(&s->tasks, &it)) != NULL) {
		sqlite3_stmt *st = s->st[S_PUT_TLAST];

		if (!*live_dirty(t))
			continue;
		*live_dirty(t) = 0;
		sqlite3_bind_int64(st, 1, t->st.task_id);
		sqlite3_bind_int64(st, 2, (int64_t)t->st.t_ns);
		sqlite3_bind_int64(st, 3, (int64_t)t->st.present);
		bind_counters(st, 4, TASK_FIRST_COUNTER, TASK_LAST_COUNTER,
		    t->st.present, t->st.v);
		if ((rc = store_step(s, S_PUT_TLAST, r->err)) != EXR_OK)
			return rc;
	}
	return EXR_OK;
}

