/*
 * The task sink (see ingest_int.h, diff.h): Solaris task records into
 * tasks and task_intervals, and the live state of every task kept in
 * memory and in task_last between runs.  A few records an hour (one per
 * task and interval), against millions of process records.
 */
#include <stdlib.h>

#include "ingest_int.h"

enum { Q_INS_TASK, Q_UPD_TASK, Q_INS_TINT, Q_PUT_TLAST, Q_DEL_TLAST, Q_N };

static const char *const q_sql[Q_N] = {
	/* As procs: only the identity's conflict is a repeat. */
	[Q_INS_TASK] = "INSERT INTO tasks (task_id, host_id, "
	    "taskid, start_ns, projid, anctaskid, zone) "
	    "VALUES (?,?,?,?,?,?,?) "
	    "ON CONFLICT (host_id, taskid, start_ns) DO NOTHING",
	[Q_UPD_TASK] = "UPDATE tasks SET finish_ns = ? WHERE task_id = ?",
	[Q_INS_TINT] = "INSERT INTO task_intervals (task_id, t0_ns, t1_ns, "
	    "kind, " COUNTERS ", anomalies) VALUES (?,?,?,?," Q14 ",?)",
	[Q_PUT_TLAST] = "INSERT OR REPLACE INTO task_last (task_id, t_ns, "
	    "present, " COUNTERS ") VALUES (?,?,?," Q14 ")",
	[Q_DEL_TLAST] = "DELETE FROM task_last WHERE task_id = ?",
};

struct task_live {
	struct task_state st;
	uint64_t	 start_ns;
};

struct task_sink {
	sqlite3_stmt	*q[Q_N];
	struct live	 live;		/* struct task_live, key host|taskid */
	int64_t		 next_id;	/* the next task_id */
};

static int
tasks_prepare(struct store *s, struct ex_err *err)
{
	struct task_sink *ts;

	if ((ts = s->tasks = calloc(1, sizeof(*ts))) == NULL)
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	live_init(&ts->live, sizeof(struct task_live));
	return stmts_prepare(s->db, q_sql, ts->q, Q_N, err);
}

static void
tasks_finalize(struct store *s)
{
	struct task_sink *ts = s->tasks;

	if (ts == NULL)
		return;
	stmts_finalize(ts->q, Q_N);
	live_release(&ts->live);
	free(ts);
	s->tasks = NULL;
}

static void
tasks_reset(struct store *s, int keep)
{
	struct task_sink *ts = s->tasks;

	if (keep)
		live_clear(&ts->live);
	else {
		live_release(&ts->live);
		live_init(&ts->live, sizeof(struct task_live));
	}
	ts->next_id = 1;		/* what tasks_load reads from nothing */
}

/* The state of live tasks, as the last commit left it. */
static int
tasks_load(struct store *s, struct ex_err *err)
{
	static const char sql[] =
	    "SELECT l.task_id, t.host_id, t.taskid, t.start_ns, l.t_ns, "
	    "l.present, " COUNTERS " FROM task_last l JOIN tasks t "
	    "USING (task_id) ORDER BY task_id";
	struct task_sink *ts = s->tasks;
	sqlite3_stmt *st;
	int rc, f;

	if (db_prepare(s->db, sql, &st, err) != EXR_OK)
		return EXR_DB;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		uint64_t key = (uint64_t)sqlite3_column_int64(st, 1) << 32 |
		    (uint32_t)sqlite3_column_int64(st, 2);
		struct task_live *t = live_add(&ts->live, key);

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
	if (db_prepare(s->db, "SELECT coalesce(max(task_id), 0) + 1 "
	    "FROM tasks", &st, err) != EXR_OK)
		return EXR_DB;
	if (sqlite3_step(st) == SQLITE_ROW)
		ts->next_id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return EXR_OK;
}

/* Write back the live states that changed this chunk. */
static int
tasks_flush(struct run *r)
{
	struct task_sink *ts = r->s->tasks;
	sqlite3_stmt *st = ts->q[Q_PUT_TLAST];
	struct task_live *t;
	int32_t it = -1;
	int rc;

	while ((t = live_next(&ts->live, &it)) != NULL) {
		if (!*live_dirty(t))
			continue;
		*live_dirty(t) = 0;
		sqlite3_bind_int64(st, 1, t->st.task_id);
		sqlite3_bind_int64(st, 2, (int64_t)t->st.t_ns);
		sqlite3_bind_int64(st, 3, (int64_t)t->st.present);
		bind_counters(st, 4, TASK_FIRST_COUNTER, TASK_LAST_COUNTER,
		    t->st.present, t->st.v);
		if ((rc = store_step(r->s, st, r->err)) != EXR_OK)
			return rc;
	}
	return EXR_OK;
}

/* The live task of key, added (with its tasks row) if new; *tl NULL:
 * a repeat of a task already closed (counted). */
static int
task_find(struct run *r, uint64_t key, const struct ex_task *t,
    struct task_live **tl)
{
	struct task_sink *ts = r->s->tasks;
	sqlite3_stmt *st = ts->q[Q_INS_TASK];
	int32_t it = -1;
	int rc;

	/* Interval records start where the last one ended, not at the
	 * task's creation: a live task is found by its id alone. */
	if ((*tl = live_next_of(&ts->live, key, &it)) != NULL)
		return EXR_OK;
	sqlite3_bind_int64(st, 1, ts->next_id);
	sqlite3_bind_int64(st, 2, r->host_id);
	sqlite3_bind_int64(st, 3, (int64_t)t->v[TASK_TASKID]);
	sqlite3_bind_int64(st, 4, (int64_t)t->v[TASK_START_NS]);
	bind_opt(st, 5, REC_HAS(t, TASK_PROJID), t->v[TASK_PROJID]);
	bind_opt(st, 6, REC_HAS(t, TASK_ANCTASKID), t->v[TASK_ANCTASKID]);
	bind_str(st, 7, REC_HAS(t, TASK_ZONE), t->zone);
	if ((rc = store_step(r->s, st, r->err)) != EXR_OK)
		return rc;
	if (sqlite3_changes(r->s->db) == 0)
		return run_count(r, t->group == EXD_GROUP_TASK ? DIFF_DUP :
		    DIFF_LATE);
	if ((*tl = live_add(&ts->live, key)) == NULL)
		return ex_fail(r->err, EXR_NOMEM, 0, "no memory");
	task_state_begin(&(*tl)->st, ts->next_id++, t->v[TASK_START_NS]);
	(*tl)->start_ns = t->v[TASK_START_NS];
	return EXR_OK;
}

static int
ingest_task(struct run *r, const char *host, const void *rec)
{
	static const char *const kinds[] = { "final", "partial", "interval" };
	const struct ex_task *t = rec;
	struct task_sink *ts = r->s->tasks;
	struct task_live *tl;
	struct task_interval iv;
	enum diff_result d;
	int rc, final = t->group == EXD_GROUP_TASK;
	const char *kind = kinds[t->group == EXD_GROUP_TASK_PARTIAL ? 1 :
	    t->group == EXD_GROUP_TASK_INTERVAL ? 2 : 0];
	sqlite3_stmt *st;

	if (!REC_HAS(t, TASK_TASKID) || !REC_HAS(t, TASK_START_NS))
		return run_count(r, DIFF_UNTIMED);
	if ((rc = run_host(r, host)) != EXR_OK ||
	    (rc = task_find(r, (uint64_t)r->host_id << 32 |
	    (uint32_t)t->v[TASK_TASKID], t, &tl)) != EXR_OK || tl == NULL)
		return rc;
	d = task_diff(&tl->st, t, &iv);
	if (d != DIFF_ROW)
		return run_count(r, d);
	*live_dirty(tl) = 1;
	st = ts->q[Q_INS_TINT];
	sqlite3_bind_int64(st, 1, tl->st.task_id);
	sqlite3_bind_int64(st, 2, (int64_t)iv.t0_ns);
	sqlite3_bind_int64(st, 3, (int64_t)iv.t1_ns);
	sqlite3_bind_text(st, 4, kind, -1, SQLITE_STATIC);
	bind_counters(st, 5, TASK_FIRST_COUNTER, TASK_LAST_COUNTER,
	    iv.present, iv.d);
	sqlite3_bind_int64(st, 19, (int64_t)iv.anomalies);
	r->stats->rows++;
	r->stats->anomalies += (uint64_t)__builtin_popcountll(iv.anomalies);
	if ((rc = store_step(r->s, st, r->err)) != EXR_OK)
		return rc;
	if (!final)
		return EXR_OK;
	st = ts->q[Q_UPD_TASK];
	sqlite3_bind_int64(st, 1, (int64_t)iv.t1_ns);
	sqlite3_bind_int64(st, 2, tl->st.task_id);
	if ((rc = store_step(r->s, st, r->err)) != EXR_OK)
		return rc;
	st = ts->q[Q_DEL_TLAST];
	sqlite3_bind_int64(st, 1, tl->st.task_id);
	if ((rc = store_step(r->s, st, r->err)) != EXR_OK)
		return rc;
	live_remove(&ts->live, tl);
	return EXR_OK;
}

const struct sink task_sink = {
	.name = "tasks",
	.prepare = tasks_prepare,
	.load = tasks_load,
	.write = ingest_task,
	.flush = tasks_flush,
	.reset = tasks_reset,
	.finalize = tasks_finalize,
};
