/*
 * The ingest loop (see ingest.h): ledger, differencing, flow pairing and
 * SQL, one transaction per chunk.
 *
 * Hot path: one process record is one live-table lookup, one proc_diff
 * and one INSERT of a prepared statement (plus one more for a process
 * seen for the first time).  proc_last is written back once per chunk,
 * only for entries that changed.
 */
#include <sys/stat.h>

#include <arpa/inet.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "db.h"
#include "diff.h"
#include "flows.h"
#include "ingest.h"
#include "ledger.h"
#include "../parsers/sniff.h"
#include "live.h"

#define NS	1000000000ull

enum {
	S_INS_HOST, S_SEL_HOST, S_INS_PROC, S_UPD_PROC, S_INS_PINT,
	S_PUT_PLAST, S_DEL_PLAST, S_INS_TASK, S_UPD_TASK, S_INS_TINT,
	S_PUT_TLAST, S_DEL_TLAST, S_UPS_FLOW, S_SEL_FLOWS, S_DEL_FLOWS,
	S_INS_FLOWS, S_INS_FILE, S_UPD_FILE, S_INS_DAMAGE, S_INS_SYSLOAD,
	S_NSTMTS
};

#define COUNTERS "cpu_user_ns, cpu_sys_ns, faults_major, faults_minor, " \
	"msgs_snd, msgs_rcv, blocks_in, blocks_out, chars_rdwr, ctxt_vol, " \
	"ctxt_inv, signals, swaps, syscalls"
#define Q14 "?,?,?,?,?,?,?,?,?,?,?,?,?,?"
/* Process counters and levels, in enum order (PROC_FIRST_COUNTER on). */
#define PROC_COLUMNS COUNTERS ", read_bytes, write_bytes, syscalls_r, " \
	"syscalls_w, rss_avg_kb, rss_max_kb, rss_kb, threads"
#define Q22 Q14 ",?,?,?,?,?,?,?,?"

static const char *const stmt_sql[S_NSTMTS] = {
	[S_INS_HOST] = "INSERT OR IGNORE INTO hosts (name) VALUES (?)",
	[S_SEL_HOST] = "SELECT host_id FROM hosts WHERE name = ?",
	[S_INS_PROC] = "INSERT OR IGNORE INTO procs (proc_id, host_id, pid, "
	    "start_ns, ppid, uid, gid, projid, taskid, command, zone, "
	    "finish_ns, wait_status, acctflags) "
	    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	[S_UPD_PROC] = "UPDATE procs SET finish_ns = ?, wait_status = ?, "
	    "acctflags = ? WHERE proc_id = ?",
	[S_INS_PINT] = "INSERT INTO proc_intervals (proc_id, t0_ns, t1_ns, "
	    "final, heartbeat, " PROC_COLUMNS ", anomalies) "
	    "VALUES (?,?,?,?,?," Q22 ",?)",
	[S_PUT_PLAST] = "INSERT OR REPLACE INTO proc_last (proc_id, t_ns, "
	    "row_t_ns, present, " PROC_COLUMNS ") VALUES (?,?,?,?," Q22 ")",
	[S_DEL_PLAST] = "DELETE FROM proc_last WHERE proc_id = ?",
	[S_INS_TASK] = "INSERT OR IGNORE INTO tasks (task_id, host_id, "
	    "taskid, start_ns, projid, anctaskid, zone) "
	    "VALUES (?,?,?,?,?,?,?)",
	[S_UPD_TASK] = "UPDATE tasks SET finish_ns = ? WHERE task_id = ?",
	[S_INS_TINT] = "INSERT INTO task_intervals (task_id, t0_ns, t1_ns, "
	    "kind, " COUNTERS ", anomalies) VALUES (?,?,?,?," Q14 ",?)",
	[S_PUT_TLAST] = "INSERT OR REPLACE INTO task_last (task_id, t_ns, "
	    "present, " COUNTERS ") VALUES (?,?,?," Q14 ")",
	[S_DEL_TLAST] = "DELETE FROM task_last WHERE task_id = ?",
	[S_UPS_FLOW] = "INSERT INTO flow_records (host_id, protocol, "
	    "src_addr, src_port, dst_addr, dst_port, ctime_s, uid_key, "
	    "projid_key, uid, projid, lseen_s, bytes, packets, dsfield, "
	    "action, ckey) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) "
	    /* A later record of the same flow holds the totals so far. */
	    "ON CONFLICT DO UPDATE SET lseen_s = excluded.lseen_s, "
	    "bytes = excluded.bytes, packets = excluded.packets "
	    "WHERE excluded.lseen_s > lseen_s OR (excluded.lseen_s = "
	    "lseen_s AND excluded.bytes > bytes)",
	[S_SEL_FLOWS] = "SELECT protocol, src_addr, src_port, dst_addr, "
	    "dst_port, ctime_s, lseen_s, bytes, packets, uid, projid "
	    "FROM flow_records WHERE host_id = ? AND ckey = ?",
	[S_DEL_FLOWS] = "DELETE FROM flows WHERE host_id = ? AND ckey = ?",
	[S_INS_FLOWS] = "INSERT INTO flows (host_id, protocol, local_addr, "
	    "local_port, remote_addr, remote_port, uid, projid, first_s, "
	    "last_s, bytes_out, packets_out, bytes_in, packets_in, paired, "
	    "ckey) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	[S_INS_FILE] = "INSERT INTO files (kind, path, head_len, head_hash, "
	    "tail_hash, ingested_to, size, first_ingest_ns, last_ingest_ns) "
	    "VALUES (?7, ?1, ?2, ?3, 0, 0, ?4, ?5, ?6)",
	[S_UPD_FILE] = "UPDATE files SET host_id = ?, path = ?, size = ?, "
	    "head_len = ?, head_hash = ?, tail_hash = ?, ingested_to = ?, "
	    "records = records + ?, duplicates = duplicates + ?, "
	    "late = late + ?, other_objects = other_objects + ?, "
	    "unknown_items = unknown_items + ?, "
	    "bad_values = bad_values + ?, "
	    "damaged_ranges = damaged_ranges + ?, "
	    "damaged_bytes = damaged_bytes + ?, last_ingest_ns = ? "
	    "WHERE file_id = ?",
	[S_INS_DAMAGE] = "INSERT INTO damage (file_id, off_from, off_to, "
	    "off_bad, reason) VALUES (?,?,?,?,?)",
	[S_INS_SYSLOAD] = "INSERT OR IGNORE INTO sysload (host_id, t_ns, "
	    "user_ticks, nice_ticks, system_ticks, idle_ticks, iowait_ticks, "
	    "irq_ticks, softirq_ticks, steal_ticks, clk_tck, btime_s, ncpu) "
	    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
};

struct task_live {
	struct task_state st;
	uint64_t	 start_ns;
};

struct flow_key {
	int64_t		 host_id;
	char		 ckey[3 * FLOW_ADDRLEN];
};

/*
 * Interval rows go in batches: one INSERT of PINT_BATCH rows costs much
 * less than PINT_BATCH statements (measured: ~15% of ingest time).
 */
#define PINT_BATCH	32
#define PINT_COLS	28

struct pint_row {
	int64_t		 proc_id;
	struct proc_interval iv;
};

struct store {
	sqlite3		*db;
	sqlite3_stmt	*st[S_NSTMTS];
	sqlite3_stmt	*pint_batch;	/* PINT_BATCH rows at once */
	struct pint_row	 pending[PINT_BATCH];
	size_t		 npending;
	struct live	 procs;		/* struct proc_state, key host|pid */
	struct live	 tasks;		/* struct task_live, key host|taskid */
	int64_t		 next_proc_id;
	int64_t		 next_task_id;
	struct flow_key	*fkeys;		/* 5-tuples touched this chunk */
	size_t		 nfkeys, capfkeys;
	struct flow_half *halves;	/* scratch for pairing */
	struct flow_conv *convs;
	size_t		 caphalves;
};

/* The state of one ingest_file() call. */
struct run {
	struct store	*s;
	const struct ingest_opts *o;
	struct ingest_stats *stats;
	struct ingest_stats committed;	/* stats at the last commit */
	struct ex_err	*err;
	const char	*path;
	int		 fd;
	int64_t		 file_id;
	int64_t		 host_id;
	const char	*host;
	struct diff_opts dopts;
	uint64_t	 since_commit;
};

static int	load_live(struct store *s, struct ex_err *err);
static int	prepare_batch(struct store *s, struct ex_err *err);

/* Step a statement that returns no rows; reset it. */
static int
step(struct store *s, int which, struct ex_err *err)
{
	sqlite3_stmt *st = s->st[which];
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return db_fail(s->db, err, "store");
	return EXR_OK;
}

/* Bind a value, or NULL when absent. */
static void
bind_opt(sqlite3_stmt *st, int i, int has, uint64_t v)
{
	if (has)
		sqlite3_bind_int64(st, i, (int64_t)v);
	else
		sqlite3_bind_null(st, i);
}

static void
bind_str(sqlite3_stmt *st, int i, int has, const char *v)
{
	if (has)
		sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * NS + (uint64_t)ts.tv_nsec;
}

int
store_open(struct store **sp, const char *path, struct ex_err *err)
{
	struct store *s;
	int i, rc;

	*sp = NULL;
	if ((s = calloc(1, sizeof(*s))) == NULL)
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	live_init(&s->procs, sizeof(struct proc_state));
	live_init(&s->tasks, sizeof(struct task_live));
	if ((rc = db_open(path, &s->db, err)) != EXR_OK)
		goto fail;
	for (i = 0; i < S_NSTMTS; i++)
		if ((rc = db_prepare(s->db, stmt_sql[i], &s->st[i], err)) !=
		    EXR_OK)
			goto fail;
	if ((rc = prepare_batch(s, err)) != EXR_OK)
		goto fail;
	if ((rc = load_live(s, err)) != EXR_OK)
		goto fail;
	*sp = s;
	return EXR_OK;
fail:
	store_close(s);
	return rc;
}

void
store_close(struct store *s)
{
	int i;

	if (s == NULL)
		return;
	for (i = 0; i < S_NSTMTS; i++)
		sqlite3_finalize(s->st[i]);
	sqlite3_finalize(s->pint_batch);
	if (s->db != NULL)
		db_close(s->db);
	live_release(&s->procs);
	live_release(&s->tasks);
	free(s->fkeys);
	free(s->halves);
	free(s->convs);
	free(s);
}

/* The state of live processes and tasks, as the last commit left it. */
static int
load_live(struct store *s, struct ex_err *err)
{
	static const char procs_sql[] =
	    "SELECT l.proc_id, p.host_id, p.pid, p.start_ns, l.t_ns, "
	    "l.row_t_ns, l.present, " PROC_COLUMNS " "
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

static int
host_id(struct run *r, const char *name)
{
	struct store *s = r->s;
	int rc;

	sqlite3_bind_text(s->st[S_INS_HOST], 1, name, -1, SQLITE_STATIC);
	if ((rc = step(s, S_INS_HOST, r->err)) != EXR_OK)
		return rc;
	sqlite3_bind_text(s->st[S_SEL_HOST], 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(s->st[S_SEL_HOST]) == SQLITE_ROW)
		r->host_id = sqlite3_column_int64(s->st[S_SEL_HOST], 0);
	sqlite3_reset(s->st[S_SEL_HOST]);
	return r->host_id > 0 ? EXR_OK : db_fail(s->db, r->err, "hosts");
}

/*
 * The host of the records being read: the log's own name for it, else
 * --host (the machine ingesting), else "unknown".
 */
static int
ensure_host(struct run *r, const char *from_log)
{
	if (r->host_id != 0)
		return EXR_OK;
	r->host = from_log[0] != '\0' ? from_log :
	    r->o->host != NULL ? r->o->host : "unknown";
	return host_id(r, r->host);
}

/* Bind counters f0..f1 of v/present starting at column i. */
static void
bind_counters(sqlite3_stmt *st, int i, int f0, int f1, uint64_t present,
    const uint64_t *v)
{
	int f;

	for (f = f0; f <= f1; f++)
		bind_opt(st, i++, (present >> f) & 1, v[f]);
}

/* The multi-row form of S_INS_PINT. */
static int
prepare_batch(struct store *s, struct ex_err *err)
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
static int
flush_pints(struct run *r)
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
		if ((rc = step(s, S_INS_PINT, r->err)) != EXR_OK)
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
		return flush_pints(r);
	return EXR_OK;
}

static int
count_result(struct run *r, enum diff_result d)
{
	switch (d) {
	case DIFF_DUP:		r->stats->duplicates++; break;
	case DIFF_LATE:		r->stats->late++; break;
	case DIFF_IDLE:		r->stats->idle++; break;
	case DIFF_UNTIMED:	r->stats->untimed++; break;
	case DIFF_ROW:		break;
	}
	return EXR_OK;
}

static int
on_proc(struct run *r, const struct ex_proc *p)
{
	struct store *s = r->s;
	static struct ex_proc shifted;
	struct proc_state *st = NULL, *e, fresh;
	struct proc_interval iv;
	enum diff_result d;
	uint64_t key, best = UINT64_MAX, start;
	int32_t it = -1;
	int final = p->group == EXD_GROUP_PROC, rc;

	if (!REC_HAS(p, PROC_PID) || !REC_HAS(p, PROC_START_NS))
		return count_result(r, DIFF_UNTIMED);
	start = p->v[PROC_START_NS];
	key = (uint64_t)r->host_id << 32 | (uint32_t)p->v[PROC_PID];
	/*
	 * Identity is (host, pid, start).  The kernel derives start from
	 * the current time minus the elapsed time, so it may move by a
	 * little between records: match the live process within 1 s.  A
	 * pid reused within that second gives two candidates: prefer the
	 * one last seen before this record, then the closest start.
	 */
	while ((e = live_next_of(&s->procs, key, &it)) != NULL) {
		uint64_t diff = e->start_ns > start ? e->start_ns - start :
		    start - e->start_ns;

		if (diff > NS)
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
		 * What the kernel measured is the elapsed time; a pacct start
		 * is cut to whole seconds.  Place the record on the start
		 * the process is known by, so its finish is not up to a
		 * second early (and older than the last snapshot).
		 */
		if (st->start_ns != start && REC_HAS(p, PROC_FINISH_NS) &&
		    p->v[PROC_FINISH_NS] >= start) {
			shifted = *p;
			shifted.v[PROC_START_NS] = st->start_ns;
			shifted.v[PROC_FINISH_NS] = st->start_ns +
			    (p->v[PROC_FINISH_NS] - start);
			p = &shifted;
		}
		d = proc_diff(st, p, &r->dopts, &iv);
		if (d == DIFF_ROW || d == DIFF_IDLE)
			*live_dirty(st) = 1;
		if (d == DIFF_ROW &&
		    (rc = store_proc_row(r, st->proc_id, &iv)) != EXR_OK)
			return rc;
		if (d != DIFF_ROW || !final)
			return count_result(r, d);
		/* The exit record closes the process. */
		sqlite3_stmt *u = s->st[S_UPD_PROC];

		sqlite3_bind_int64(u, 1, (int64_t)p->v[PROC_FINISH_NS]);
		bind_opt(u, 2, REC_HAS(p, PROC_WAIT_STATUS),
		    p->v[PROC_WAIT_STATUS]);
		bind_opt(u, 3, REC_HAS(p, PROC_ACCTFLAGS),
		    p->v[PROC_ACCTFLAGS]);
		sqlite3_bind_int64(u, 4, st->proc_id);
		if ((rc = step(s, S_UPD_PROC, r->err)) != EXR_OK)
			return rc;
		sqlite3_bind_int64(s->st[S_DEL_PLAST], 1, st->proc_id);
		if ((rc = step(s, S_DEL_PLAST, r->err)) != EXR_OK)
			return rc;
		live_remove(&s->procs, st);
		return EXR_OK;
	}

	/* First sight of this process. */
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
	if ((rc = step(s, S_INS_PROC, r->err)) != EXR_OK)
		return rc;
	if (sqlite3_changes(s->db) == 0) {
		/* Known and already closed: a repeat of an old record. */
		return count_result(r, final ? DIFF_DUP : DIFF_LATE);
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
	return count_result(r, d);
}

static int
on_task(struct run *r, const struct ex_task *t)
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
		return count_result(r, DIFF_UNTIMED);
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
		if ((rc = step(s, S_INS_TASK, r->err)) != EXR_OK)
			return rc;
		if (sqlite3_changes(s->db) == 0)
			return count_result(r, final ? DIFF_DUP : DIFF_LATE);
		if ((tl = live_add(&s->tasks, key)) == NULL)
			return ex_fail(r->err, EXR_NOMEM, 0, "no memory");
		task_state_begin(&tl->st, s->next_task_id++,
		    t->v[TASK_START_NS]);
		tl->start_ns = t->v[TASK_START_NS];
	}
	d = task_diff(&tl->st, t, &iv);
	if (d != DIFF_ROW)
		return count_result(r, d);
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
	if ((rc = step(s, S_INS_TINT, r->err)) != EXR_OK)
		return rc;
	if (!final)
		return EXR_OK;
	sqlite3_bind_int64(s->st[S_UPD_TASK], 1, (int64_t)iv.t1_ns);
	sqlite3_bind_int64(s->st[S_UPD_TASK], 2, tl->st.task_id);
	if ((rc = step(s, S_UPD_TASK, r->err)) != EXR_OK)
		return rc;
	sqlite3_bind_int64(s->st[S_DEL_TLAST], 1, tl->st.task_id);
	if ((rc = step(s, S_DEL_TLAST, r->err)) != EXR_OK)
		return rc;
	live_remove(&s->tasks, tl);
	return EXR_OK;
}

static void
addr_text(char *buf, size_t n, int family, const uint8_t *a, int has)
{
	if (!has)
		snprintf(buf, n, "-");
	else if (family == 6)
		inet_ntop(AF_INET6, a, buf, (socklen_t)n);
	else
		snprintf(buf, n, "%u.%u.%u.%u", a[0], a[1], a[2], a[3]);
}

/* Remember a 5-tuple whose conversations must be rebuilt. */
static int
touch_flow_key(struct store *s, int64_t host, const char *ckey)
{
	if (s->nfkeys == s->capfkeys) {
		size_t ncap = s->capfkeys == 0 ? 256 : s->capfkeys * 2;
		struct flow_key *k = reallocarray(s->fkeys, ncap, sizeof(*k));

		if (k == NULL)
			return EXR_NOMEM;
		s->fkeys = k;
		s->capfkeys = ncap;
	}
	s->fkeys[s->nfkeys].host_id = host;
	snprintf(s->fkeys[s->nfkeys].ckey, sizeof(s->fkeys[0].ckey), "%s",
	    ckey);
	s->nfkeys++;
	return EXR_OK;
}

static int
on_flow(struct run *r, const struct ex_flow *f)
{
	struct flow_half h;
	sqlite3_stmt *st = r->s->st[S_UPS_FLOW];
	char ckey[3 * FLOW_ADDRLEN];

	if (!REC_HAS(f, FLOW_CTIME_S))
		return count_result(r, DIFF_UNTIMED);
	memset(&h, 0, sizeof(h));
	h.protocol = REC_HAS(f, FLOW_PROTOCOL) ?
	    (uint32_t)f->v[FLOW_PROTOCOL] : 0;
	addr_text(h.src, sizeof(h.src), f->family, f->saddr,
	    REC_HAS(f, FLOW_SADDR));
	addr_text(h.dst, sizeof(h.dst), f->family, f->daddr,
	    REC_HAS(f, FLOW_DADDR));
	h.sport = REC_HAS(f, FLOW_SPORT) ? (uint32_t)f->v[FLOW_SPORT] : 0;
	h.dport = REC_HAS(f, FLOW_DPORT) ? (uint32_t)f->v[FLOW_DPORT] : 0;
	flow_ckey(&h, ckey, sizeof(ckey));

	sqlite3_bind_int64(st, 1, r->host_id);
	sqlite3_bind_int64(st, 2, h.protocol);
	sqlite3_bind_text(st, 3, h.src, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, h.sport);
	sqlite3_bind_text(st, 5, h.dst, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, h.dport);
	sqlite3_bind_int64(st, 7, (int64_t)f->v[FLOW_CTIME_S]);
	/* NULL is never equal in a key: -1 stands for "no owner". */
	sqlite3_bind_int64(st, 8, REC_HAS(f, FLOW_UID) ?
	    (int64_t)f->v[FLOW_UID] : -1);
	sqlite3_bind_int64(st, 9, REC_HAS(f, FLOW_PROJID) ?
	    (int64_t)f->v[FLOW_PROJID] : -1);
	bind_opt(st, 10, REC_HAS(f, FLOW_UID), f->v[FLOW_UID]);
	bind_opt(st, 11, REC_HAS(f, FLOW_PROJID), f->v[FLOW_PROJID]);
	sqlite3_bind_int64(st, 12, (int64_t)(REC_HAS(f, FLOW_LSEEN_S) ?
	    f->v[FLOW_LSEEN_S] : f->v[FLOW_CTIME_S]));
	sqlite3_bind_int64(st, 13, REC_HAS(f, FLOW_NBYTES) ?
	    (int64_t)f->v[FLOW_NBYTES] : 0);
	sqlite3_bind_int64(st, 14, REC_HAS(f, FLOW_NPKTS) ?
	    (int64_t)f->v[FLOW_NPKTS] : 0);
	bind_opt(st, 15, REC_HAS(f, FLOW_DSFIELD), f->v[FLOW_DSFIELD]);
	bind_str(st, 16, REC_HAS(f, FLOW_ACTION), f->action);
	sqlite3_bind_text(st, 17, ckey, -1, SQLITE_STATIC);
	r->stats->flows++;
	if (step(r->s, S_UPS_FLOW, r->err) != EXR_OK)
		return EXR_DB;
	return touch_flow_key(r->s, r->host_id, ckey) == EXR_OK ? EXR_OK :
	    ex_fail(r->err, EXR_NOMEM, 0, "no memory");
}

static int
fkey_cmp(const void *a, const void *b)
{
	const struct flow_key *x = a, *y = b;

	if (x->host_id != y->host_id)
		return x->host_id < y->host_id ? -1 : 1;
	return strcmp(x->ckey, y->ckey);
}

/* Re-pair every 5-tuple touched this chunk from all its records. */
static int
rebuild_flows(struct run *r)
{
	struct store *s = r->s;
	size_t i, n, k, rows;
	int rc;

	if (s->nfkeys == 0)
		return EXR_OK;
	qsort(s->fkeys, s->nfkeys, sizeof(*s->fkeys), fkey_cmp);
	for (i = 0; i < s->nfkeys; i++) {
		const struct flow_key *fk = &s->fkeys[i];
		sqlite3_stmt *sel = s->st[S_SEL_FLOWS], *ins;

		if (i > 0 && fkey_cmp(fk, fk - 1) == 0)
			continue;
		sqlite3_bind_int64(s->st[S_DEL_FLOWS], 1, fk->host_id);
		sqlite3_bind_text(s->st[S_DEL_FLOWS], 2, fk->ckey, -1,
		    SQLITE_STATIC);
		if ((rc = step(s, S_DEL_FLOWS, r->err)) != EXR_OK)
			return rc;
		sqlite3_bind_int64(sel, 1, fk->host_id);
		sqlite3_bind_text(sel, 2, fk->ckey, -1, SQLITE_STATIC);
		for (n = 0; (rc = sqlite3_step(sel)) == SQLITE_ROW; n++) {
			struct flow_half *h;

			if (n == s->caphalves) {
				size_t ncap = n == 0 ? 64 : 2 * n;
				void *a = reallocarray(s->halves, ncap,
				    sizeof(*s->halves));
				void *b = a == NULL ? NULL :
				    reallocarray(s->convs, ncap,
				    sizeof(*s->convs));

				if (a != NULL)
					s->halves = a;
				if (b == NULL) {
					sqlite3_reset(sel);
					return ex_fail(r->err, EXR_NOMEM, 0,
					    "no memory");
				}
				s->convs = b;
				s->caphalves = ncap;
			}
			h = &s->halves[n];
			memset(h, 0, sizeof(*h));
			h->protocol = (uint32_t)sqlite3_column_int64(sel, 0);
			snprintf(h->src, sizeof(h->src), "%s",
			    (const char *)sqlite3_column_text(sel, 1));
			h->sport = (uint32_t)sqlite3_column_int64(sel, 2);
			snprintf(h->dst, sizeof(h->dst), "%s",
			    (const char *)sqlite3_column_text(sel, 3));
			h->dport = (uint32_t)sqlite3_column_int64(sel, 4);
			h->ctime_s = (uint64_t)sqlite3_column_int64(sel, 5);
			h->lseen_s = (uint64_t)sqlite3_column_int64(sel, 6);
			h->bytes = (uint64_t)sqlite3_column_int64(sel, 7);
			h->packets = (uint64_t)sqlite3_column_int64(sel, 8);
			h->has_uid = sqlite3_column_type(sel, 9) != SQLITE_NULL;
			h->uid = (uint32_t)sqlite3_column_int64(sel, 9);
			h->has_projid = sqlite3_column_type(sel, 10) !=
			    SQLITE_NULL;
			h->projid = (uint32_t)sqlite3_column_int64(sel, 10);
		}
		sqlite3_reset(sel);
		if (rc != SQLITE_DONE)
			return db_fail(s->db, r->err, "flow_records");
		rows = flow_pair(s->halves, n, s->convs);
		ins = s->st[S_INS_FLOWS];
		for (k = 0; k < rows; k++) {
			const struct flow_conv *c = &s->convs[k];

			sqlite3_bind_int64(ins, 1, fk->host_id);
			sqlite3_bind_int64(ins, 2, c->protocol);
			sqlite3_bind_text(ins, 3, c->local, -1, SQLITE_STATIC);
			sqlite3_bind_int64(ins, 4, c->local_port);
			sqlite3_bind_text(ins, 5, c->remote, -1,
			    SQLITE_STATIC);
			sqlite3_bind_int64(ins, 6, c->remote_port);
			bind_opt(ins, 7, c->has_uid, c->uid);
			bind_opt(ins, 8, c->has_projid, c->projid);
			sqlite3_bind_int64(ins, 9, (int64_t)c->first_s);
			sqlite3_bind_int64(ins, 10, (int64_t)c->last_s);
			sqlite3_bind_int64(ins, 11, (int64_t)c->bytes_out);
			sqlite3_bind_int64(ins, 12, (int64_t)c->packets_out);
			sqlite3_bind_int64(ins, 13, (int64_t)c->bytes_in);
			sqlite3_bind_int64(ins, 14, (int64_t)c->packets_in);
			sqlite3_bind_int(ins, 15, c->paired);
			sqlite3_bind_text(ins, 16, fk->ckey, -1,
			    SQLITE_STATIC);
			if ((rc = step(s, S_INS_FLOWS, r->err)) != EXR_OK)
				return rc;
		}
	}
	s->nfkeys = 0;
	return EXR_OK;
}

/* Write back the live states that changed this chunk. */
static int
flush_live(struct run *r)
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
		if ((rc = step(s, S_PUT_PLAST, r->err)) != EXR_OK)
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
		if ((rc = step(s, S_PUT_TLAST, r->err)) != EXR_OK)
			return rc;
	}
	return EXR_OK;
}

/*
 * End a chunk: write back state, re-pair flows, move the ledger to
 * `upto`, and commit it all at once.
 */
static int
commit_chunk(struct run *r, uint64_t upto, uint64_t size, int more)
{
	struct store *s = r->s;
	struct ingest_stats *n = r->stats, *o = &r->committed;
	sqlite3_stmt *st = s->st[S_UPD_FILE];
	uint64_t span = upto < LEDGER_HASH_SPAN ? upto : LEDGER_HASH_SPAN;
	uint64_t tail, head, head_len;
	int rc;

	if ((rc = flush_pints(r)) != EXR_OK || (rc = flush_live(r)) != EXR_OK ||
	    (rc = rebuild_flows(r)) != EXR_OK)
		return rc;
	head_len = size < LEDGER_HASH_SPAN ? size : LEDGER_HASH_SPAN;
	if ((rc = ledger_hash(r->fd, upto - span, span, &tail, r->err)) !=
	    EXR_OK ||
	    (rc = ledger_hash(r->fd, 0, head_len, &head, r->err)) != EXR_OK)
		return rc;
	bind_opt(st, 1, r->host_id > 0, (uint64_t)r->host_id);
	sqlite3_bind_text(st, 2, r->path, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, (int64_t)size);
	sqlite3_bind_int64(st, 4, (int64_t)head_len);
	sqlite3_bind_int64(st, 5, (int64_t)head);
	sqlite3_bind_int64(st, 6, (int64_t)tail);
	sqlite3_bind_int64(st, 7, (int64_t)upto);
	sqlite3_bind_int64(st, 8, (int64_t)(n->records - o->records));
	sqlite3_bind_int64(st, 9, (int64_t)(n->duplicates - o->duplicates));
	sqlite3_bind_int64(st, 10, (int64_t)(n->late - o->late));
	sqlite3_bind_int64(st, 11, (int64_t)(n->other - o->other));
	sqlite3_bind_int64(st, 12, (int64_t)(n->counts.unknown_items +
	    n->counts.unknown_groups - o->counts.unknown_items -
	    o->counts.unknown_groups));
	sqlite3_bind_int64(st, 13, (int64_t)(n->counts.bad_values -
	    o->counts.bad_values));
	sqlite3_bind_int64(st, 14, (int64_t)(n->damaged - o->damaged));
	sqlite3_bind_int64(st, 15, (int64_t)(n->damaged_bytes -
	    o->damaged_bytes));
	sqlite3_bind_int64(st, 16, (int64_t)now_ns());
	sqlite3_bind_int64(st, 17, r->file_id);
	if ((rc = step(s, S_UPD_FILE, r->err)) != EXR_OK)
		return rc;
	if ((rc = db_exec(s->db, "COMMIT", r->err)) != EXR_OK)
		return rc;
	*o = *n;
	n->to = upto;
	r->since_commit = 0;
	return more ? db_exec(s->db, "BEGIN IMMEDIATE", r->err) : EXR_OK;
}

static int
store_damage(struct run *r, uint64_t from, uint64_t to,
    const struct ex_err *e)
{
	sqlite3_stmt *st = r->s->st[S_INS_DAMAGE];

	sqlite3_bind_int64(st, 1, r->file_id);
	sqlite3_bind_int64(st, 2, (int64_t)from);
	sqlite3_bind_int64(st, 3, (int64_t)to);
	sqlite3_bind_int64(st, 4, (int64_t)e->off);
	sqlite3_bind_text(st, 5, e->reason, -1, SQLITE_TRANSIENT);
	return step(r->s, S_INS_DAMAGE, r->err);
}

/* A system record from snap: kept as it is, for the capture ratio. */
static int
on_sysload(struct run *r, const struct exacct_reader *rd,
    const struct ex_rec *rec)
{
	struct ex_sysload sl;
	sqlite3_stmt *st = r->s->st[S_INS_SYSLOAD];
	int f, rc;

	memset(&sl, 0, sizeof(sl));
	sysload_fill(&sl, rec, &r->stats->counts);
	if (!REC_HAS(&sl, SYS_TIME_NS) || !REC_HAS(&sl, SYS_CLK_TCK) ||
	    sl.v[SYS_CLK_TCK] == 0)
		return count_result(r, DIFF_UNTIMED);
	if ((rc = ensure_host(r, rd->hdr.hostname)) != EXR_OK)
		return rc;
	sqlite3_bind_int64(st, 1, r->host_id);
	for (f = 0; f < SYS_NFIELDS; f++)
		bind_opt(st, 2 + f, REC_HAS(&sl, f), sl.v[f]);
	return step(r->s, S_INS_SYSLOAD, r->err);
}

/* One decoded object: fill its record and apply it. */
static int
on_object(struct run *r, const struct exacct_reader *rd,
    const struct ex_rec *rec)
{
	static struct ex_proc p;
	static struct ex_task t;
	static struct ex_flow f;
	enum rec_kind k = rec_kind(rec);
	const void *fixed;
	int rc;

	if (k == REC_HEADER)
		return EXR_OK;
	if (k == REC_SYSLOAD)
		return on_sysload(r, rd, rec);
	if (k == REC_OTHER) {
		r->stats->other++;
		return EXR_OK;
	}
	if ((rc = ensure_host(r, rd->hdr.hostname)) != EXR_OK)
		return rc;
	r->stats->records++;
	switch (k) {
	case REC_PROC:
		proc_fill(&p, rec, &r->stats->counts);
		fixed = &p;
		break;
	case REC_TASK:
		task_fill(&t, rec, &r->stats->counts);
		fixed = &t;
		break;
	default:
		flow_fill(&f, rec, &r->stats->counts);
		fixed = &f;
		break;
	}
	if (r->o->on_record != NULL &&
	    (rc = r->o->on_record(r->o->arg, r->host, k, fixed)) != EXR_OK)
		return ex_fail(r->err, rc, rec->off, "writing outputs");
	switch (k) {
	case REC_PROC:
		return on_proc(r, &p);
	case REC_TASK:
		return on_task(r, &t);
	default:
		return on_flow(r, &f);
	}
}

/* One pacct record: always a final process record. */
static int
on_pacct(struct run *r, const struct ex_proc *p)
{
	int rc;

	/* pacct names no host: it is the one it was written on. */
	if ((rc = ensure_host(r, "")) != EXR_OK)
		return rc;
	r->stats->records++;
	if (r->o->on_record != NULL &&
	    (rc = r->o->on_record(r->o->arg, r->host, REC_PROC, p)) != EXR_OK)
		return ex_fail(r->err, rc, p->off, "writing outputs");
	return on_proc(r, p);
}

/* Either reader, behind one next(). */
struct input {
	enum input_kind	 kind;
	struct exacct_reader ex;
	struct pacct_reader pa;
	uint64_t	 off;		/* after the last record */
	uint64_t	 skip_from, skip_to;
};

static int
input_open(struct input *in, const char *path, struct ex_err *err)
{
	int rc;

	memset(in, 0, sizeof(*in));
	if ((rc = sniff_file(path, &in->kind, err)) != EXR_OK)
		return rc;
	if (in->kind == INPUT_PACCT)
		return pacct_reader_open(&in->pa, path, err);
	return exacct_reader_open(&in->ex, path, err);
}

static int
input_fd(const struct input *in)
{
	return in->kind == INPUT_PACCT ? in->pa.src.fd : in->ex.src.fd;
}

static void
input_seek(struct input *in, uint64_t off)
{
	if (in->kind == INPUT_PACCT)
		in->pa.off = off;
	else
		in->ex.off = off;	/* the header is still read first */
}

static void
input_release(struct input *in)
{
	if (in->kind == INPUT_PACCT)
		pacct_reader_release(&in->pa);
	else
		exacct_reader_release(&in->ex);
}

/* Read the next record and apply it; EXR_OK, EXR_EOF, EXR_DAMAGED... */
static int
input_next(struct input *in, struct run *r, struct ex_err *err)
{
	static struct ex_proc p;
	const struct ex_rec *rec;
	int rc;

	if (in->kind == INPUT_PACCT) {
		rc = pacct_next(&in->pa, &p, err);
		in->off = in->pa.off;
		in->skip_from = in->pa.skip_from;
		in->skip_to = in->pa.skip_to;
		return rc == EXR_OK ? on_pacct(r, &p) : rc;
	}
	rc = exacct_next(&in->ex, &rec, err);
	in->off = in->ex.off;
	in->skip_from = in->ex.skip_from;
	in->skip_to = in->ex.skip_to;
	return rc == EXR_OK ? on_object(r, &in->ex, rec) : rc;
}

int
ingest_file(struct store *s, const char *path, const struct ingest_opts *o,
    struct ingest_stats *stats, struct ex_err *err)
{
	struct input in;
	struct ledger_entry le;
	struct run r;
	struct stat sb;
	uint64_t upto;
	int rc, status = EXR_OK, first = 1;

	memset(stats, 0, sizeof(*stats));
	memset(&r, 0, sizeof(r));
	r.s = s;
	r.o = o;
	r.stats = stats;
	r.err = err;
	r.path = path;
	r.dopts.idle_always = o->idle_always;
	r.dopts.heartbeat_ns = o->heartbeat_ns;

	if ((rc = input_open(&in, path, err)) != EXR_OK)
		return rc;
	r.fd = input_fd(&in);
	if (fstat(r.fd, &sb) == -1 || !S_ISREG(sb.st_mode)) {
		input_release(&in);
		return ex_fail(err, EXR_IO, 0, "%s", S_ISREG(sb.st_mode) ?
		    strerror(errno) : "not a regular file (the ledger needs "
		    "one to know what was read)");
	}
	if (sb.st_size == 0) {
		input_release(&in);
		stats->empty = 1;
		return ex_fail(err, EXR_DAMAGED, 0,
		    "empty file: no exacct header");
	}
	if ((rc = ledger_lookup(s->db, r.fd, (uint64_t)sb.st_size, &le,
	    err)) != EXR_OK)
		goto out;
	stats->from = stats->to = le.ingested_to;
	if (le.file_id != 0 && le.ingested_to == (uint64_t)sb.st_size) {
		stats->already = 1;
		goto out;
	}
	if ((rc = db_exec(s->db, "BEGIN IMMEDIATE", err)) != EXR_OK)
		goto out;
	r.file_id = le.file_id;
	if (r.file_id == 0) {
		sqlite3_stmt *st = s->st[S_INS_FILE];
		uint64_t t = now_ns();

		sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, (int64_t)le.head_len);
		sqlite3_bind_int64(st, 3, (int64_t)le.head_hash);
		sqlite3_bind_int64(st, 4, (int64_t)sb.st_size);
		sqlite3_bind_int64(st, 5, (int64_t)t);
		sqlite3_bind_int64(st, 6, (int64_t)t);
		sqlite3_bind_text(st, 7, in.kind == INPUT_PACCT ? "pacct" :
		    "exacct", -1, SQLITE_STATIC);
		if ((rc = step(s, S_INS_FILE, err)) != EXR_OK)
			goto rollback;
		r.file_id = sqlite3_last_insert_rowid(s->db);
	}
	input_seek(&in, le.ingested_to);
	upto = (uint64_t)sb.st_size;
	for (;;) {
		rc = input_next(&in, &r, err);
		if (rc == EXR_EOF)
			break;
		if (rc == EXR_OK) {
			if (++r.since_commit >= o->chunk_records &&
			    (rc = commit_chunk(&r, in.off, upto, 1)) != EXR_OK)
				goto rollback;
			first = 0;
			continue;
		}
		if (rc != EXR_DAMAGED)
			goto rollback;
		if (first && le.ingested_to > 0 && in.skip_to == in.skip_from) {
			first = 0;	/* a header problem, reported before */
			continue;
		}
		first = 0;
		status = EXR_DAMAGED;
		if (in.skip_to >= upto && in.skip_to > in.skip_from) {
			/*
			 * Damage that runs to the end of the file may be a
			 * record still being written: do not move past it;
			 * the next run reads it again.
			 */
			if (o->on_damage != NULL)
				o->on_damage(o->arg, path, in.skip_from,
				    in.skip_to, err, 1);
			upto = in.skip_from;
			break;
		}
		stats->damaged++;
		stats->damaged_bytes += in.skip_to - in.skip_from;
		if (o->on_damage != NULL)
			o->on_damage(o->arg, path, in.skip_from, in.skip_to,
			    err, 0);
		if ((rc = store_damage(&r, in.skip_from, in.skip_to, err)) !=
		    EXR_OK)
			goto rollback;
	}
	if ((rc = commit_chunk(&r, upto, (uint64_t)sb.st_size, 0)) != EXR_OK)
		goto rollback;
	rc = status;
	goto out;
rollback:
	(void)sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	/* Memory now runs ahead of the database: reload what it holds. */
	live_release(&s->procs);
	live_release(&s->tasks);
	live_init(&s->procs, sizeof(struct proc_state));
	live_init(&s->tasks, sizeof(struct task_live));
	s->nfkeys = 0;
	s->npending = 0;
	(void)load_live(s, NULL);
out:
	input_release(&in);
	return rc;
}

int
store_fully_ingested(struct store *s, const char *path, int *yes,
    struct ex_err *err)
{
	struct ledger_entry le;
	struct stat sb;
	int fd, rc;

	*yes = 0;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) == -1)
		return ex_fail(err, EXR_IO, 0, "%s: %s", path, strerror(errno));
	if (fstat(fd, &sb) == -1) {
		rc = ex_fail(err, EXR_IO, 0, "%s: %s", path, strerror(errno));
		close(fd);
		return rc;
	}
	if (sb.st_size == 0) {
		close(fd);
		*yes = 1;		/* empty: nothing in it to lose */
		return EXR_OK;
	}
	rc = ledger_lookup(s->db, fd, (uint64_t)sb.st_size, &le, err);
	close(fd);
	if (rc == EXR_OK)
		*yes = le.file_id != 0 && le.ingested_to == (uint64_t)sb.st_size;
	return rc;
}
