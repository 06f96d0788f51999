/*
 * The ingest loop's insides, shared by its files: ingest.c (the loop, the
 * store, the ledger rows), ingest_procs.c (process and task intervals,
 * live state), ingest_flows.c (flow records and conversations).  Not an
 * interface: only store/ingest*.c include it.
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
#include "ingest.h"
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

enum {
	S_INS_HOST, S_SEL_HOST, S_INS_PROC, S_UPD_PROC, S_INS_PINT,
	S_PUT_PLAST, S_DEL_PLAST, S_INS_TASK, S_UPD_TASK, S_INS_TINT,
	S_PUT_TLAST, S_DEL_TLAST, S_UPS_FLOW, S_SEL_FLOWS, S_DEL_FLOWS,
	S_INS_FLOWS, S_INS_FILE, S_UPD_FILE, S_CLOSE_FILE, S_INS_DAMAGE,
	S_INS_SYSLOAD,
	S_UPD_HOSTSRC, S_SEL_CLOSED, S_INS_ALT, S_INS_LOST,
	S_SEL_EPROC, S_INS_EPROC, S_SEL_ELAST, S_INS_EINT, S_PUT_ELAST,
	S_SEL_RZONE, S_INS_RZONE, S_UPD_RZONE, S_INS_RINT, S_UPD_CARBON,
	S_NSTMTS
};

/* Column lists from the field table (parsers/catalog.h), in enum order. */
#define COUNTERS \
	COUNTER_ROWS(FIELD_COL, FIELD_NEXT_COL, FIELD_PROC_ID)
#define Q14	COUNTER_ROWS(FIELD_Q, FIELD_NEXT_Q, FIELD_PROC_ID)
/* Process counters and levels, in enum order (PROC_FIRST_COUNTER on). */
#define PROC_COLUMNS \
	COUNTERS PROC_EXTRA_ROWS(FIELD_NEXT_COL, FIELD_NEXT_COL)
#define Q22	Q14 PROC_EXTRA_ROWS(FIELD_NEXT_Q, FIELD_NEXT_Q)
/* The delay totals and runtime of an exit, PROC_DELAY_CPU_NS on. */
#define EXIT_EXTRAS	PROC_EXIT_ROWS(FIELD_COL, FIELD_NEXT_COL)
#define Q9		PROC_EXIT_ROWS(FIELD_Q, FIELD_NEXT_Q)

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
	int		 lockfd;	/* the writer's lock (dblock.h) */
	sqlite3_stmt	*st[S_NSTMTS];
	sqlite3_stmt	*pint_batch;	/* PINT_BATCH rows at once */
	sqlite3_stmt	*ledger_lookup;	/* ledger_lookup()'s, once prepared */
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
	int		 broken;	/* after a rollback the live states could
					   not be read back: no more ingests */
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
	unsigned	 host_sources;	/* exit sources the host has had */
	enum exit_source source;	/* of the records being read; 0 until
					   the first record says */
	struct diff_opts dopts;
	uint64_t	 since_commit;
	struct stream_run *stream;	/* a metric-provider stream's state */
};

extern const char *const stmt_sql[S_NSTMTS];

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

/* ingest.c */
int	store_step(struct store *s, int which, struct ex_err *err);
int	run_count(struct run *r, enum diff_result d);
int	run_host(struct run *r, const char *from_log);

/* ingest_procs.c */
int	pints_prepare(struct store *s, struct ex_err *err);
int	pints_flush(struct run *r);
int	ingest_proc(struct run *r, const struct ex_proc *p);

/* ingest_energy.c */
#define ENERGY_COUNTERS "cpu_ns, pcpu_ns, energy_nj, penergy_nj, " \
	"instructions, cycles, disk_read, disk_written, int_wakeups, " \
	"idle_wakeups"
int	ingest_energy(struct run *r, const struct ex_energy *e);

/* ingest_rapl.c */
int	ingest_rapl(struct run *r, const struct ex_rapl *z);
int	ingest_task(struct run *r, const struct ex_task *t);
int	states_load(struct store *s, struct ex_err *err);
int	states_flush(struct run *r);

/* ingest_stream.c */
int	series_run_open(struct run *r, const struct stream_provider *p,
	    int resumed);
void	series_run_close(struct run *r);
int	ingest_stream_line(struct run *r, const struct stream_line *ln);
int	series_flush(struct run *r);

/* ingest_flows.c */
int	ingest_flow(struct run *r, const struct ex_flow *f);
int	flows_rebuild(struct run *r);

#endif
