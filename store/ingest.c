/*
 * The ingest loop (see ingest.h): the store, the input (any log, read
 * through parsers/reader.h, which hands out each record filled), the
 * ledger rows, and the chunk commit that writes it all in one
 * transaction.  Records go to ingest_procs.c (processes, tasks) and
 * ingest_flows.c (flows); the state they share is in ingest_int.h.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../parsers/reader.h"
#include "dblock.h"
#include "ingest_int.h"
#include "ledger.h"

const char *const stmt_sql[S_NSTMTS] = {
	[S_INS_HOST] = "INSERT OR IGNORE INTO hosts (name) VALUES (?)",
	[S_SEL_HOST] = "SELECT host_id, exit_sources FROM hosts WHERE name = ?",
	[S_UPD_HOSTSRC] = "UPDATE hosts SET exit_sources = exit_sources | ? "
	    "WHERE host_id = ?",
	/*
	 * A process already known is a repeat; a proc_id already taken
	 * is not, and must fail rather than drop the process: so only
	 * the identity's conflict is ignored (the same for tasks).
	 */
	[S_INS_PROC] = "INSERT INTO procs (proc_id, host_id, pid, "
	    "start_ns, ppid, uid, gid, projid, taskid, command, zone, "
	    "finish_ns, wait_status, acctflags, exit_source, base_cpu_ns, "
	    EXIT_EXTRAS ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?," Q9 ") "
	    "ON CONFLICT (host_id, start_ns, pid) DO NOTHING",
	[S_UPD_PROC] = "UPDATE procs SET (finish_ns, wait_status, acctflags, "
	    "exit_source, base_cpu_ns, " EXIT_EXTRAS ") = (?,?,?,?,?," Q9 ") "
	    "WHERE proc_id = ?",
	[S_SEL_CLOSED] = "SELECT proc_id, exit_source FROM procs "
	    "WHERE host_id = ?1 AND start_ns BETWEEN ?2 - ?4 AND ?2 + ?4 "
	    "AND pid = ?3 AND finish_ns IS NOT NULL "
	    "ORDER BY abs(start_ns - ?2) LIMIT 1",
	[S_INS_ALT] = "INSERT OR IGNORE INTO proc_alt_exits (proc_id, source, "
	    "finish_ns, cpu_user_ns, cpu_sys_ns) VALUES (?,?,?,?,?)",
	[S_INS_LOST] = "INSERT OR IGNORE INTO lost (host_id, t_ns, records) "
	    "VALUES (?,?,?)",
	[S_SEL_EPROC] = "SELECT eproc_id FROM energy_procs WHERE host_id = ?1 "
	    "AND start_ns BETWEEN ?2 - ?4 AND ?2 + ?4 AND pid = ?3 "
	    "ORDER BY abs(start_ns - ?2) LIMIT 1",
	[S_INS_EPROC] = "INSERT INTO energy_procs (host_id, pid, start_ns, "
	    "ppid, uid, command, translated) VALUES (?,?,?,?,?,?,?)",
	[S_SEL_ELAST] = "SELECT t_ns, present, " ENERGY_COUNTERS
	    " FROM energy_last WHERE eproc_id = ?",
	[S_INS_EINT] = "INSERT INTO energy_intervals (eproc_id, t0_ns, t1_ns, "
	    "first, " ENERGY_COUNTERS ", footprint, max_footprint, anomalies) "
	    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	[S_PUT_ELAST] = "INSERT OR REPLACE INTO energy_last (eproc_id, t_ns, "
	    "present, " ENERGY_COUNTERS ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
	[S_SEL_RZONE] = "SELECT zone_id, max_uj, last_t_ns, last_uj, boot_s "
	    "FROM rapl_zones WHERE host_id = ? AND zone = ?",
	[S_INS_RZONE] = "INSERT INTO rapl_zones (host_id, zone, name, max_uj, "
	    "last_t_ns, last_uj, boot_s) VALUES (?,?,?,?,?,?,?)",
	[S_UPD_RZONE] = "UPDATE rapl_zones SET name = coalesce(?, name), "
	    "max_uj = coalesce(?, max_uj), last_t_ns = ?, last_uj = ?, "
	    "boot_s = coalesce(?, boot_s) WHERE zone_id = ?",
	[S_INS_RINT] = "INSERT OR IGNORE INTO rapl_intervals (zone_id, t0_ns, "
	    "t1_ns, energy_uj, wrapped, ambiguous) VALUES (?,?,?,?,?,?)",
	[S_UPD_CARBON] = "UPDATE hosts SET carbon_g_per_kwh = ?, "
	    "carbon_source = ? WHERE host_id = ?",
	[S_INS_PINT] = "INSERT INTO proc_intervals (proc_id, t0_ns, t1_ns, "
	    "final, heartbeat, " PROC_COLUMNS ", anomalies) "
	    "VALUES (?,?,?,?,?," Q22 ",?)",
	[S_PUT_PLAST] = "INSERT OR REPLACE INTO proc_last (proc_id, t_ns, "
	    "row_t_ns, present, " PROC_COLUMNS ", cpu_source) "
	    "VALUES (?,?,?,?," Q22 ",?)",
	[S_DEL_PLAST] = "DELETE FROM proc_last WHERE proc_id = ?",
	[S_INS_TASK] = "INSERT INTO tasks (task_id, host_id, "
	    "taskid, start_ns, projid, anctaskid, zone) "
	    "VALUES (?,?,?,?,?,?,?) "
	    "ON CONFLICT (host_id, taskid, start_ns) DO NOTHING",
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
	/* A chunk of no records names no host: keep the one the file has. */
	[S_UPD_FILE] = "UPDATE files SET host_id = coalesce(?, host_id), "
	    "path = ?, size = ?, "
	    "head_len = ?, head_hash = ?, tail_hash = ?, ingested_to = ?, "
	    "records = records + ?, duplicates = duplicates + ?, "
	    "late = late + ?, other_objects = other_objects + ?, "
	    "unknown_items = unknown_items + ?, "
	    "bad_values = bad_values + ?, "
	    "damaged_ranges = damaged_ranges + ?, "
	    "damaged_bytes = damaged_bytes + ?, last_ingest_ns = ? "
	    /* Only from where this ingest found it: see commit_chunk. */
	    "WHERE file_id = ? AND ingested_to = ?",
	[S_CLOSE_FILE] = "UPDATE files SET closed = 1 WHERE file_id = ?",
	[S_INS_DAMAGE] = "INSERT INTO damage (file_id, off_from, off_to, "
	    "off_bad, reason) VALUES (?,?,?,?,?)",
	[S_INS_SYSLOAD] = "INSERT OR IGNORE INTO sysload (host_id, t_ns, "
	    "user_ticks, nice_ticks, system_ticks, idle_ticks, iowait_ticks, "
	    "irq_ticks, softirq_ticks, steal_ticks, clk_tck, btime_s, ncpu) "
	    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
};

/* Step a statement that returns no rows; reset it. */
int
store_step(struct store *s, int which, struct ex_err *err)
{
	sqlite3_stmt *st = s->st[which];
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return db_fail(s->db, err, "store");
	return EXR_OK;
}

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * NS + (uint64_t)ts.tv_nsec;
}

int
store_open(struct store **sp, const char *path, uint64_t wait_ms,
    struct ex_err *err)
{
	struct store *s;
	int i, rc;

	*sp = NULL;
	if ((s = calloc(1, sizeof(*s))) == NULL)
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	s->lockfd = -1;
	live_init(&s->procs, sizeof(struct proc_state));
	live_init(&s->tasks, sizeof(struct task_live));
	/*
	 * The writer's lock first: everything read from here on (the
	 * schema, the live processes, the next ids, each file's ledger
	 * row) stays true until store_close, because no other writer can
	 * change it meanwhile.
	 */
	if ((rc = dblock_take(path, wait_ms, &s->lockfd, err)) != EXR_OK ||
	    (rc = db_open(path, &s->db, err)) != EXR_OK)
		goto fail;
	for (i = 0; i < S_NSTMTS; i++)
		if ((rc = db_prepare(s->db, stmt_sql[i], &s->st[i], err)) !=
		    EXR_OK)
			goto fail;
	if ((rc = pints_prepare(s, err)) != EXR_OK)
		goto fail;
	if ((rc = states_load(s, err)) != EXR_OK)
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
	sqlite3_finalize(s->ledger_lookup);
	if (s->db != NULL)
		db_close(s->db);
	dblock_release(s->lockfd);	/* after the close's checkpoint */
	live_release(&s->procs);
	live_release(&s->tasks);
	free(s->fkeys);
	free(s->halves);
	free(s->convs);
	free(s);
}

static int
host_id(struct run *r, const char *name)
{
	struct store *s = r->s;
	int rc;

	sqlite3_bind_text(s->st[S_INS_HOST], 1, name, -1, SQLITE_STATIC);
	if ((rc = store_step(s, S_INS_HOST, r->err)) != EXR_OK)
		return rc;
	sqlite3_bind_text(s->st[S_SEL_HOST], 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(s->st[S_SEL_HOST]) == SQLITE_ROW) {
		r->host_id = sqlite3_column_int64(s->st[S_SEL_HOST], 0);
		r->host_sources = (unsigned)sqlite3_column_int(
		    s->st[S_SEL_HOST], 1);
	}
	sqlite3_reset(s->st[S_SEL_HOST]);
	if (r->host_id <= 0)
		return db_fail(s->db, r->err, "hosts");
	/* A host's configuration says its own electricity's intensity. */
	if (r->o->carbon_intensity >= 0 && r->o->host != NULL &&
	    strcmp(name, r->o->host) == 0) {
		sqlite3_stmt *st = s->st[S_UPD_CARBON];

		sqlite3_bind_double(st, 1, r->o->carbon_intensity);
		bind_str(st, 2, r->o->carbon_source != NULL &&
		    r->o->carbon_source[0] != '\0', r->o->carbon_source);
		sqlite3_bind_int64(st, 3, r->host_id);
		return store_step(s, S_UPD_CARBON, r->err);
	}
	return EXR_OK;
}

/*
 * The host of the records being read: the log's own name for it, else
 * --host (the machine ingesting), else "unknown".
 */
int
run_host(struct run *r, const char *from_log)
{
	if (r->host_id != 0)
		return EXR_OK;
	r->host = from_log[0] != '\0' ? from_log :
	    r->o->host != NULL ? r->o->host : "unknown";
	return host_id(r, r->host);
}

int
run_count(struct run *r, enum diff_result d)
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

	if ((rc = pints_flush(r)) != EXR_OK || (rc = states_flush(r)) != EXR_OK ||
	    (rc = series_flush(r)) != EXR_OK ||
	    (rc = flows_rebuild(r)) != EXR_OK)
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
	sqlite3_bind_int64(st, 18, (int64_t)n->to);
	if ((rc = store_step(s, S_UPD_FILE, r->err)) != EXR_OK)
		return rc;
	/*
	 * A range of a file is entered once: if the ledger no longer says
	 * what this ingest read at its start, someone else has stored
	 * this range (the writer's lock makes that impossible; a lock
	 * that does not work, as on some network file systems, does not).
	 */
	if (sqlite3_changes(s->db) != 1)
		return ex_fail(r->err, EXR_DB, upto, "the ledger of this file "
		    "moved while it was read (another writer without the "
		    "lock?): bytes %llu-%llu not stored",
		    (unsigned long long)n->to, (unsigned long long)upto);
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
	return store_step(r->s, S_INS_DAMAGE, r->err);
}

/*
 * Is the damaged range [from, to) of this file stored already?  A rare
 * question (no statement is kept for it); a database that cannot answer
 * gets "no", and the insert that follows reports its error.
 */
static int
damage_stored(struct run *r, uint64_t from, uint64_t to)
{
	sqlite3_stmt *st;
	int found;

	if (db_prepare(r->s->db, "SELECT 1 FROM damage WHERE file_id = ? "
	    "AND off_from = ? AND off_to = ?", &st, NULL) != EXR_OK)
		return 0;
	sqlite3_bind_int64(st, 1, r->file_id);
	sqlite3_bind_int64(st, 2, (int64_t)from);
	sqlite3_bind_int64(st, 3, (int64_t)to);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

/* The file is a closed log read to its end (ingest_opts.closed). */
static int
store_mark_closed(struct run *r)
{
	sqlite3_stmt *st = r->s->st[S_CLOSE_FILE];

	sqlite3_bind_int64(st, 1, r->file_id);
	return store_step(r->s, S_CLOSE_FILE, r->err);
}

/* A system record from snap: kept as it is, for the capture ratio. */
static int
on_sysload(struct run *r, const struct ex_header *h,
    const struct ex_sysload *sl)
{
	sqlite3_stmt *st = r->s->st[S_INS_SYSLOAD];
	int f, rc;

	if (!REC_HAS(sl, SYS_TIME_NS) || !REC_HAS(sl, SYS_CLK_TCK) ||
	    sl->v[SYS_CLK_TCK] == 0)
		return run_count(r, DIFF_UNTIMED);
	if ((rc = run_host(r, h->hostname)) != EXR_OK)
		return rc;
	sqlite3_bind_int64(st, 1, r->host_id);
	for (f = 0; f < SYS_NFIELDS; f++)
		bind_opt(st, 2 + f, REC_HAS(sl, f), sl->v[f]);
	return store_step(r->s, S_INS_SYSLOAD, r->err);
}

/* A loss record from acctd: exits dropped or not written, per host. */
static int
on_lost(struct run *r, const struct ex_header *h, const struct ex_lost *l)
{
	sqlite3_stmt *st = r->s->st[S_INS_LOST];
	int rc;

	if (!REC_HAS(l, LOST_TIME_NS) || !REC_HAS(l, LOST_COUNT))
		return run_count(r, DIFF_UNTIMED);
	if ((rc = run_host(r, h->hostname)) != EXR_OK)
		return rc;
	r->stats->lost += l->v[LOST_COUNT];
	sqlite3_bind_int64(st, 1, r->host_id);
	sqlite3_bind_int64(st, 2, (int64_t)l->v[LOST_TIME_NS]);
	sqlite3_bind_int64(st, 3, (int64_t)l->v[LOST_COUNT]);
	return store_step(r->s, S_INS_LOST, r->err);
}

/* An energy snapshot: into energy intervals. */
static int
on_energy(struct run *r, const struct ex_header *h,
    const struct ex_energy *e)
{
	int rc;

	if ((rc = run_host(r, h->hostname)) != EXR_OK)
		return rc;
	r->stats->records++;
	return ingest_energy(r, e);
}

/* A RAPL zone reading from snap: into RAPL intervals. */
static int
on_rapl(struct run *r, const struct ex_header *h, const struct ex_rapl *z)
{
	int rc;

	if ((rc = run_host(r, h->hostname)) != EXR_OK)
		return rc;
	return ingest_rapl(r, z);
}

/* A decoded record: count it, hand it to the outputs, then store it. */
static int
on_record(struct run *r, enum rec_kind k, const void *fixed, uint64_t off)
{
	int rc;

	r->stats->records++;
	if (r->o->on_record != NULL &&
	    (rc = r->o->on_record(r->o->arg, r->host, k, fixed)) != EXR_OK)
		return ex_fail(r->err, rc, off, "writing outputs");
	switch (k) {
	case REC_PROC:
		return ingest_proc(r, fixed);
	case REC_TASK:
		return ingest_task(r, fixed);
	default:
		return ingest_flow(r, fixed);
	}
}

/* Add what filling a record skipped to the file's tallies. */
static void
add_counts(struct run *r, const struct rec_counts *c)
{
	r->stats->counts.unknown_items += c->unknown_items;
	r->stats->counts.unknown_groups += c->unknown_groups;
	r->stats->counts.bad_values += c->bad_values;
}

/* One exacct record, in its fixed form: apply it. */
static int
on_object(struct run *r, const struct ex_header *h,
    const struct reader_item *it)
{
	int rc;

	if (it->kind == REC_PROC || it->kind == REC_TASK ||
	    it->kind == REC_FLOW) {
		if ((rc = run_host(r, h->hostname)) != EXR_OK)
			return rc;
		add_counts(r, &it->counts);
		/* Once per file: extracct writes exit records only from
		 * acctd (snap writes partials); any other creator is a
		 * kernel's. */
		if (r->source == 0)
			r->source = strcmp(h->creator, "extracct") == 0 ?
			    EXIT_ACCTD : EXIT_EXACCT;
		return on_record(r, it->kind, &it->u, it->off);
	}
	/* A snapshot's skipped items count whether it is stored or not. */
	add_counts(r, &it->counts);
	switch (it->kind) {
	case REC_SYSLOAD:
		return on_sysload(r, h, &it->u.sysload);
	case REC_LOST:
		return on_lost(r, h, &it->u.lost);
	case REC_ENERGY:
		return on_energy(r, h, &it->u.energy);
	case REC_RAPL:
		return on_rapl(r, h, &it->u.rapl);
	case REC_OTHER:
		r->stats->other++;
		return EXR_OK;
	default:
		return EXR_OK;		/* a header */
	}
}

/* One pacct record: always a final process record. */
static int
on_pacct(struct run *r, const struct ex_proc *p)
{
	int rc;

	/* pacct names no host: it is the one it was written on. */
	if ((rc = run_host(r, "")) != EXR_OK)
		return rc;
	r->source = EXIT_PACCT;
	return on_record(r, REC_PROC, p, p->off);
}

/*
 * Apply the item the reader read: a record (the file's own exacct
 * header names its host), or a stream line, whose series this store
 * keeps (EXR_DAMAGED: the series dropped it, the line is the range).
 */
static int
apply(struct run *r, const struct reader *rd, const struct reader_item *it)
{
	const struct ex_header *h = reader_log_header(rd);

	if (it->what == RD_LINE)
		return ingest_stream_line(r, &it->line);
	if (h == NULL)			/* pacct: no header, no host named */
		return on_pacct(r, &it->u.proc);
	return on_object(r, h, it);
}

int
ingest_file(struct store *s, const char *path, const struct ingest_opts *o,
    struct ingest_stats *stats, struct ex_err *err)
{
	struct reader rd;
	struct reader_opts ro = { o->provider, READER_LINES };
	const struct reader_item *it;
	struct reader_damage d;
	struct ledger_entry le;
	struct run r;
	struct stat sb;
	uint64_t upto;
	int rc, status = EXR_OK, first = 1;

	memset(stats, 0, sizeof(*stats));
	if (s->broken)
		return ex_fail(err, EXR_DB, 0, "after a rollback the live "
		    "processes could not be read back from the database: "
		    "stopped, nothing more stored (run again)");
	memset(&r, 0, sizeof(r));
	r.s = s;
	r.o = o;
	r.stats = stats;
	r.err = err;
	r.path = path;
	r.dopts.idle_always = o->idle_always;
	r.dopts.heartbeat_ns = o->heartbeat_ns;

	if ((rc = reader_open(&rd, path, &ro, err)) != EXR_OK) {
		stats->empty = rd.kind == INPUT_REFUSED;
		return rc;
	}
	r.fd = reader_fd(&rd);
	if (fstat(r.fd, &sb) == -1 || !S_ISREG(sb.st_mode)) {
		reader_release(&rd);
		return ex_fail(err, EXR_IO, 0, "%s", S_ISREG(sb.st_mode) ?
		    strerror(errno) : "not a regular file (the ledger needs "
		    "one to know what was read)");
	}
	/* Read to this size and no further: the ledger records it, and a
	 * log still growing (a live pacct, a provider's stream) is read on
	 * from there next time, never twice. */
	reader_limit(&rd, (uint64_t)sb.st_size);
	if (sb.st_size == 0) {
		reader_release(&rd);
		stats->empty = 1;
		return ex_fail(err, EXR_DAMAGED, 0, "empty file");
	}
	if ((rc = ledger_lookup(s->db, &s->ledger_lookup, r.fd,
	    (uint64_t)sb.st_size, &le, err)) != EXR_OK)
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
		sqlite3_bind_text(st, 7, reader_format(&rd), -1,
		    SQLITE_STATIC);
		if ((rc = store_step(s, S_INS_FILE, err)) != EXR_OK)
			goto rollback;
		r.file_id = sqlite3_last_insert_rowid(s->db);
	}
	if ((rd.provider != NULL && (rc = series_run_open(&r, rd.provider,
	    le.ingested_to > 0)) != EXR_OK) ||
	    (rc = reader_seek(&rd, le.ingested_to, err)) != EXR_OK)
		goto rollback;
	upto = (uint64_t)sb.st_size;
	for (;;) {
		rc = reader_next(&rd, &it, err);
		if (rc == EXR_EOF)
			break;
		if (rc == EXR_OK && (rc = apply(&r, &rd, it)) == EXR_OK) {
			if (++r.since_commit >= o->chunk_records &&
			    (rc = commit_chunk(&r, reader_offset(&rd), upto,
			    1)) != EXR_OK)
				goto rollback;
			first = 0;
			continue;
		}
		if (rc != EXR_DAMAGED)
			goto rollback;
		/* The reader's range, or the line a series dropped. */
		d = it->what == RD_DAMAGE ? it->damage :
		    (struct reader_damage){ it->off, it->end, 0, 0, 0 };
		/*
		 * A header problem an earlier run stored (that run may
		 * have got no further: the ledger still at 0) is not
		 * stored again.  One it left as an incomplete tail is.
		 */
		if (first && le.file_id != 0 && d.to == d.from &&
		    damage_stored(&r, d.from, d.to)) {
			first = 0;
			continue;
		}
		first = 0;
		status = EXR_DAMAGED;
		if (d.to >= upto && d.to > d.from && d.writing && !o->closed) {
			/*
			 * Damage that runs to the end of the file may be a
			 * record still being written (the reader says which
			 * can be): do not move past it; the next run reads
			 * it again.  Any other is stored and passed.
			 */
			if (o->on_damage != NULL)
				o->on_damage(o->arg, path, d.from, d.to, err,
				    1);
			upto = d.from;
			stats->torn = d.torn;
			break;
		}
		stats->damaged++;
		stats->damaged_bytes += d.to - d.from;
		if (o->on_damage != NULL)
			o->on_damage(o->arg, path, d.from, d.to, err, 0);
		if ((rc = store_damage(&r, d.from, d.to, err)) != EXR_OK)
			goto rollback;
	}
	/* Read to its end with nothing left for later: done, whatever
	 * the damage (issue 15). */
	if (o->closed && upto == (uint64_t)sb.st_size &&
	    (rc = store_mark_closed(&r)) != EXR_OK)
		goto rollback;
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
	/* Without them the next file would difference against nothing. */
	if (states_load(s, NULL) != EXR_OK)
		s->broken = 1;
out:
	series_run_close(&r);
	reader_release(&rd);
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
	rc = ledger_lookup(s->db, &s->ledger_lookup, fd, (uint64_t)sb.st_size,
	    &le, err);
	close(fd);
	if (rc == EXR_OK)
		*yes = le.file_id != 0 && le.ingested_to == (uint64_t)sb.st_size;
	return rc;
}

int
store_pacct_gap(struct store *s, const char *host, int64_t t0_ns,
    int64_t t1_ns, const char *reason, struct ex_err *err)
{
	/*
	 * Once per switch (t1 and t0 together): a run that stored it but
	 * could not then remove it from the spool stores it again as
	 * nothing.
	 */
	static const char sql[] =
	    "INSERT OR IGNORE INTO pacct_gaps (host_id, t0_ns, t1_ns, reason) "
	    "SELECT host_id, ?, ?, ? FROM hosts WHERE name = ?";
	sqlite3_stmt *st;
	int rc;

	sqlite3_bind_text(s->st[S_INS_HOST], 1, host, -1, SQLITE_STATIC);
	if ((rc = store_step(s, S_INS_HOST, err)) != EXR_OK)
		return rc;
	if (db_prepare(s->db, sql, &st, err) != EXR_OK)
		return EXR_DB;
	if (t0_ns >= 0)
		sqlite3_bind_int64(st, 1, t0_ns);
	sqlite3_bind_int64(st, 2, t1_ns);
	sqlite3_bind_text(st, 3, reason, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, host, -1, SQLITE_STATIC);
	rc = sqlite3_step(st) == SQLITE_DONE ? EXR_OK :
	    db_fail(s->db, err, "pacct_gaps");
	sqlite3_finalize(st);
	return rc;
}
