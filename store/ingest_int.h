/*
 * The ingest module's insides, shared by its files (not an interface:
 * only store/ includes it).  The shape, top down; no file calls one
 * above it:
 *
 *	ingest.c	the chunk loop: reads a log, hands each record to
 *			its sink, commits each chunk with the ledger's row
 *	store.c		the store: open and close, the sink table, the
 *			reload after a rollback
 *	ingest_*.c	the sinks, one per record kind, each with its SQL
 *			beside its binds and its own state
 *	hosts.c		the hosts table, which every sink's rows name
 *	ledger.c	the files and damage tables (ledger.h)
 *
 * Below them db.c, diff.c, flows.c and live.c, which call none of these.
 */
#ifndef INGEST_INT_H
#define INGEST_INT_H

#include <sqlite3.h>
#include <stdint.h>

#include "../parsers/exacct.h"
#include "../parsers/records.h"
#include "../parsers/stream.h"
#include "db.h"
#include "diff.h"
#include "flows.h"
#include "hostid.h"
#include "ingest.h"
#include "ledger.h"
#include "live.h"


/*
 * How far apart two records' starts may be and still name one process:
 * 1 s, plus 20 ms because a pacct start is whole seconds of the
 * kernel's coarse clock, which lags the real time by up to a tick (a
 * process that ended within a tick after a second boundary is dated a
 * second early: measured, 1.0004 s from its taskstats start).
 */
#define START_SLACK_NS	(NS + 20000000ull)

/*
 * Two exit sources' starts for one process carry both their errors: a
 * pacct start is up to 1 s and a tick early (above), an acctd start (the
 * time acctd read the exit, less the elapsed time) late by however long
 * acctd took to read it.  Measured over 1,242 processes under load:
 * pacct - acctd from -0.9992 s to +0.74 s, and once past -1.02 s.  So
 * another source's record of a closed process is looked for 2 s either
 * side, the closest start first.
 */
#define ALT_SLACK_NS	(2 * NS)

/*
 * How long /proc may still show a process after its exit record is
 * made: taskstats (acctd) and pacct make it in do_exit, before
 * exit_notify makes the process a zombie, which snap skips.  So a
 * snapshot begun after acctd read the exit can still read the process
 * (seen: 1 ms after; a loaded machine stretches the exit path).
 */
#define EXIT_PATH_NS	(100 * 1000000ull)

/* Column lists from the field table (parsers/catalog.h), in enum order. */
#define COUNTERS \
	COUNTER_ROWS(FIELD_COL, FIELD_NEXT_COL, FIELD_PROC_ID)
#define Q14	COUNTER_ROWS(FIELD_Q, FIELD_NEXT_Q, FIELD_PROC_ID)
/* Process counters and levels, in enum order (PROC_FIRST_COUNTER on). */
#define PROC_COLUMNS \
	COUNTERS PROC_EXTRA_ROWS(FIELD_NEXT_COL, FIELD_NEXT_COL)
#define Q22	Q14 PROC_EXTRA_ROWS(FIELD_NEXT_Q, FIELD_NEXT_Q)
/*
 * The same, as procs names them (schema 16): the interval of a process
 * seen only at its exit, exit_cpu_user_ns on; and as named parameters.
 */
#define FIELD_XCOL(m, col, ...)		"exit_" col
#define FIELD_NEXT_XCOL(m, col, ...)	", exit_" col
#define FIELD_XVAL(m, col, ...)		":exit_" col
#define FIELD_NEXT_XVAL(m, col, ...)	", :exit_" col
#define EXIT_COLUMNS \
	COUNTER_ROWS(FIELD_XCOL, FIELD_NEXT_XCOL, FIELD_PROC_ID) \
	PROC_EXTRA_ROWS(FIELD_NEXT_XCOL, FIELD_NEXT_XCOL)
#define EXIT_VALUES \
	COUNTER_ROWS(FIELD_XVAL, FIELD_NEXT_XVAL, FIELD_PROC_ID) \
	PROC_EXTRA_ROWS(FIELD_NEXT_XVAL, FIELD_NEXT_XVAL)
/* As many NULLs, and one for exit_anomalies (an interval taken away). */
#define FIELD_NUL(m, col, ...)		"NULL"
#define FIELD_NEXT_NUL(m, col, ...)	", NULL"
#define EXIT_NULLS \
	COUNTER_ROWS(FIELD_NUL, FIELD_NEXT_NUL, FIELD_PROC_ID) \
	PROC_EXTRA_ROWS(FIELD_NEXT_NUL, FIELD_NEXT_NUL) ", NULL"
/*
 * The delay totals and runtime of an exit (PROC_DELAY_CPU_NS to
 * PROC_CPU_RUN_NS), then its memory (PROC_MEM_KB): EXIT_EXTRA_N columns.
 */
#define EXIT_EXTRAS	PROC_EXIT_ROWS(FIELD_COL, FIELD_NEXT_COL) \
	PROC_MEM_ROWS(FIELD_NEXT_COL)
#define Q9		PROC_EXIT_ROWS(FIELD_Q, FIELD_NEXT_Q) \
	PROC_MEM_ROWS(FIELD_NEXT_Q)
#define EXIT_EXTRA_N	(PROC_CPU_RUN_NS - PROC_DELAY_CPU_NS + 2)

/*
 * Where exit records come from (hosts.exit_sources is a mask of them):
 * a kernel's exacct, Linux pacct, extracct acctd.
 */
enum exit_source { EXIT_EXACCT = 1, EXIT_PACCT = 2, EXIT_ACCTD = 4 };

static inline const char *
exit_source_name(enum exit_source e)
{
	return e == EXIT_ACCTD ? "acctd" : e == EXIT_PACCT ? "pacct" :
	    "exacct";
}

struct hosts;
struct proc_sink;
struct task_sink;
struct flow_sink;
struct sysload_sink;
struct lost_sink;
struct energy_sink;
struct rapl_sink;
struct cgroup_sink;

/*
 * The store: the database, the writer's lock, the ledger's and hosts'
 * statements, and each sink's state (its statements, and for processes,
 * tasks and flows what they hold in memory between records).  Each
 * pointer is its sink's own: nothing else reads what it points to.
 */
struct store {
	sqlite3		*db;
	int		 lockfd;	/* the writer's lock (dblock.h) */
	struct ledger	 ledger;	/* files, damage (ledger.h) */
	struct hosts	*hosts;		/* hosts.c */
	struct proc_sink *procs;	/* ingest_procs.c */
	struct task_sink *tasks;	/* ingest_tasks.c */
	struct flow_sink *flows;	/* ingest_flows.c */
	struct sysload_sink *sysload;	/* ingest_sysload.c */
	struct lost_sink *lost;		/* ingest_lost.c */
	struct energy_sink *energy;	/* ingest_energy.c */
	struct rapl_sink *rapl;		/* ingest_rapl.c */
	struct cgroup_sink *cgroup;	/* ingest_cgroup.c */
	int		 broken;	/* after a rollback the live states could
					   not be read back: no more ingests */
	/* This machine (store_self): its name and identity (hostid.h);
	 * has_self 0: every host is known by name only. */
	int		 has_self;
	char		 self_name[512];
	char		 self_ident[HOSTID_MAX];
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
	int64_t		 host_id;	/* 0 until the first record names it */
	const char	*host;
	unsigned	 host_sources;	/* exit sources the host has had */
	enum exit_source source;	/* of the records being read; 0 until
					   the first record says */
	struct diff_opts dopts;
	uint64_t	 since_commit;
	/* A metric-provider stream's provider (NULL: not a stream), whether
	 * the file is read on from where a run stopped, and the stream
	 * sink's state for this file (ingest_stream.c). */
	const struct stream_provider *prov;
	int		 resumed;
	struct stream_run *stream;
};

/*
 * A sink: what stores one kind of record.  Its SQL, its binds and its
 * state are in its own file; the rest of the store reaches it only
 * through its row of sinks[].  Every hook may be NULL (nothing to do).
 *
 * prepare	store_open: allocate the state, prepare the statements.
 * load		store_open, and after a rollback: read back the state the
 *		last commit left (after reset).
 * begin, end	each file: begin before its first record (r->prov and
 *		r->resumed set); end once whatever happened, even if begin
 *		was not called or failed.
 * write	one record, rec of the kind's fixed struct (records.h; for
 *		streams a struct stream_line).  host is the log's name for
 *		the host of its records ("": it names none); the sink
 *		resolves it (run_host) before it stores a row, not before it
 *		drops the record.  EXR_OK, or an error in r->err (EXR_DAMAGED
 *		from a stream: the line is dropped, the loop reports it).
 * flush	each commit, before the ledger's row moves: write what the
 *		sink holds back (batched rows, live states, pairings).
 * reset	forget what the state holds in memory (a rollback, or the
 *		tables emptied: store_forget); keep: keep its memory, for a
 *		table refilled at once.
 * finalize	store_close (also after a failed prepare: the state may be
 *		partly built, or NULL).
 */
struct sink {
	const char	*name;
	int		(*prepare)(struct store *s, struct ex_err *err);
	int		(*load)(struct store *s, struct ex_err *err);
	int		(*begin)(struct run *r);
	int		(*write)(struct run *r, const char *host,
			    const void *rec);
	int		(*flush)(struct run *r);
	void		(*end)(struct run *r);
	void		(*reset)(struct store *s, int keep);
	void		(*finalize)(struct store *s);
};

/* Rows of sinks[]: by enum rec_kind, and the streams'. */
enum { SINK_STREAM = REC_CGROUP + 1, SINK_N };

/* store.c: one row per record kind (REC_OTHER and REC_HEADER: none). */
extern const struct sink *const sinks[SINK_N];

extern const struct sink proc_sink, task_sink, flow_sink, sysload_sink,
	lost_sink, energy_sink, rapl_sink, cgroup_sink, stream_sink;

/* Bind a value, or NULL when absent. */
static inline void
bind_opt(sqlite3_stmt *st, int i, int has, uint64_t v)
{
	if (has)
		sqlite3_bind_int64(st, i, (int64_t)v);
	else
		sqlite3_bind_null(st, i);
}

static inline void
bind_str(sqlite3_stmt *st, int i, int has, const char *v)
{
	if (has)
		sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

/* Bind counters f0..f1 of v/present starting at column i. */
static inline void
bind_counters(sqlite3_stmt *st, int i, int f0, int f1, uint64_t present,
    const uint64_t *v)
{
	int f;

	for (f = f0; f <= f1; f++)
		bind_opt(st, i++, (present >> f) & 1, v[f]);
}

/* Step a statement that returns no rows (or one not read); reset it. */
static inline int
store_step(struct store *s, sqlite3_stmt *st, struct ex_err *err)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return db_fail(s->db, err, "store");
	return EXR_OK;
}

/* Prepare n statements of sql[] into st[]; EXR_OK or EXR_DB. */
static inline int
stmts_prepare(sqlite3 *db, const char *const *sql, sqlite3_stmt **st,
    int n, struct ex_err *err)
{
	int i;

	for (i = 0; i < n; i++)
		if (db_prepare(db, sql[i], &st[i], err) != EXR_OK)
			return EXR_DB;
	return EXR_OK;
}

static inline void
stmts_finalize(sqlite3_stmt **st, int n)
{
	int i;

	for (i = 0; i < n; i++)
		sqlite3_finalize(st[i]);
}

/* Count a record that gave no row, by why. */
static inline int
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

/* store.c: after a rollback, every sink's state read back again; a
 * failure marks the store broken. */
void	store_reload(struct store *s);

/* hosts.c */
int	hosts_prepare(struct store *s, struct ex_err *err);
void	hosts_finalize(struct store *s);
/* The host of the run's records, first found (or added) by host_find:
 * from_log (the log's name for it), else --host, else "unknown".  EXR_OK
 * or EXR_DB. */
int	host_find(struct run *r, const char *from_log);

/* Every record asks; the first of a file finds it. */
static inline int
run_host(struct run *r, const char *from_log)
{
	return r->host_id != 0 ? EXR_OK : host_find(r, from_log);
}
/* Give the hosts from before schema 12 their identity (hosts.c: from
 * store_self, else the name); EXR_OK or EXR_DB. */
int	hosts_fill(struct store *s, struct ex_err *err);
/* Remember that the run's host has exits from r->source. */
int	host_note_source(struct run *r);

/* ingest_flows.c: rebuild the conversations of one unordered 5-tuple
 * of a host from all its flow_records (ingest at each commit, merge);
 * EXR_OK, EXR_DB or EXR_NOMEM. */
int	flows_repair(struct store *s, int64_t host_id, const char *ckey,
	    struct ex_err *err);

/* ingest_energy.c */
#define ENERGY_COUNTERS "cpu_ns, pcpu_ns, energy_nj, penergy_nj, " \
	"instructions, cycles, disk_read, disk_written, int_wakeups, " \
	"idle_wakeups"

#endif
