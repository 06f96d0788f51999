/*
 * Differencing cumulative observations into intervals (docs/schema.md).
 *
 * Pure logic, no SQL: the state of one live process (or task) and one new
 * observation in; the interval row and the updated state out.  The
 * process and task sinks (ingest_procs.c, ingest_tasks.c) own the
 * states and write the rows.
 *
 * Rules:
 *   - an observation is a partial (snapshot) or the final (exit) record,
 *     placed at its finish time; the first interval runs from the start;
 *   - counters: interval = this - previous; a counter lower than before is
 *     an anomaly: NULL in the row, a bit in `anomalies` (never a negative
 *     or made-up value), and the previous value stays the baseline, so
 *     a reading that dips and comes back counts no usage for the way
 *     back (a process's counters only grow; a lower one was misread);
 *   - CPU measured two ways (cpu_source, records.h) between the last
 *     observation and this one: the CPU columns are NULL, their bits
 *     and bit PROC_CPU_SOURCE are set in `anomalies`, and this
 *     observation is the new CPU baseline;
 *   - a counter absent now is NULL; absent before but present now counts
 *     from the start (the earlier rows had NULL for it);
 *   - CPU user and system: when one half goes down but the total does
 *     not (Linux sources split the total differently), the total is kept
 *     (cpu_split in diff.c);
 *   - rss_max_kb is a high-water mark, taken as it is; rss_avg_kb is a
 *     time-weighted mean since start, so the interval mean is
 *     (A_i T_i - A_(i-1) T_(i-1)) / (T_i - T_(i-1)), T = time since start;
 *   - an identical repeat of the last observation is a duplicate, an
 *     observation older than the last is late: both make no row;
 *   - a partial whose counters did not move makes no row (idle), unless
 *     idle_always, or heartbeat_ns has passed since the last row.
 */
#ifndef DIFF_H
#define DIFF_H

#include <stdint.h>

#include "../parsers/records.h"

#define PROC_FIRST_COUNTER	PROC_CPU_USER_NS
#define PROC_LAST_COUNTER	PROC_SYSCALLS_W
#define PROC_LAST_LEVEL		PROC_THREADS
#define TASK_FIRST_COUNTER	TASK_CPU_USER_NS
#define TASK_LAST_COUNTER	TASK_SYSCALLS

/* The last cumulative observation of a live process (table proc_last). */
struct proc_state {
	int64_t		 proc_id;
	uint64_t	 start_ns;
	uint64_t	 t_ns;		/* time of the last observation */
	uint64_t	 row_t_ns;	/* end of the last stored row */
	uint64_t	 present;	/* fields present in it (REC_HAS bits) */
	uint64_t	 v[PROC_NFIELDS];	/* its cumulative values */
	int		 unseen;	/* proc_state_begin'd, proc_diff not
					   called yet (a loaded state: 0) */
	int64_t		 cgroup_id;	/* its last snapshot's cgroup (the
					   store's cgroups row); 0: none */
};

/* One proc_intervals row. */
struct proc_interval {
	uint64_t	 t0_ns, t1_ns;
	int		 final;
	int		 forked;	/* final, of a process that forked and
					 * never exec'd (AFORK) */
	int		 heartbeat;
	uint64_t	 present;	/* bit f: d[f] is not NULL */
	uint64_t	 anomalies;	/* bit f: counter f went backwards */
	uint64_t	 d[PROC_NFIELDS];	/* deltas; levels for RSS */
};

enum diff_result {
	DIFF_ROW,		/* *out holds a row to store */
	DIFF_IDLE,		/* counters did not move: no row */
	DIFF_DUP,		/* identical to the last observation */
	DIFF_LATE,		/* older than the last observation */
	DIFF_UNTIMED		/* no finish time: cannot be placed */
};

struct diff_opts {
	int		 idle_always;	/* idle_rows: always */
	uint64_t	 heartbeat_ns;	/* heartbeat_hours, in ns */
};

/*
 * Start the state of a process first seen in obs (no earlier
 * observation): baseline zero at its start time.
 */
void	proc_state_begin(struct proc_state *st, int64_t proc_id,
	    const struct ex_proc *obs);

/* Apply obs to st; see the rules above.  st is updated unless DUP/LATE. */
enum diff_result proc_diff(struct proc_state *st, const struct ex_proc *obs,
	    const struct diff_opts *o, struct proc_interval *out);

/* The last cumulative observation of a live task (table task_last). */
struct task_state {
	int64_t		 task_id;
	uint64_t	 t_ns;
	uint64_t	 present;
	uint64_t	 v[TASK_NFIELDS];	/* cumulative since creation */
};

struct task_interval {
	uint64_t	 t0_ns, t1_ns;
	uint32_t	 group;		/* the record's group id */
	uint64_t	 present;
	uint64_t	 anomalies;
	uint64_t	 d[TASK_NFIELDS];
};

void	task_state_begin(struct task_state *st, int64_t task_id,
	    uint64_t start_ns);

/*
 * Tasks: partial and final records are cumulative (differenced against
 * the state); interval records are already deltas (stored as they are,
 * and added to the state's totals).
 */
enum diff_result task_diff(struct task_state *st, const struct ex_task *obs,
	    struct task_interval *out);

/*
 * The growth of a counter that wraps at max (RAPL's energy_uj wraps at
 * max_energy_range_uj): cur - prev, or, when it went down, (max - prev)
 * + cur, taken as exactly one wrap; more than one between two readings
 * cannot be seen (the powercap documentation: read it several times per wrap
 * period).  Returns 0 with *d set (*wrapped says whether it wrapped), or
 * -1 when it went down and cannot be a wrap (no max, or prev above it).
 */
int	counter_unwrap(uint64_t prev, uint64_t cur, uint64_t max, uint64_t *d,
	    int *wrapped);

#endif
