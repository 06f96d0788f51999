/*
 * Which CPU time snap records for a process (config snap_cpu, snap
 * --cpu).  Conservation needs a process's snapshots and its exit record
 * to count CPU the same way: its last interval is the exit record less
 * the last snapshot, and cannot go below zero.
 *
 *   ticks    the kernel's tick samples, all threads, exited ones
 *            included, each of user and system cut to pacct's 10 ms
 *            unit: the figure pacct writes at exit, as of the
 *            snapshot (taskstats, root only).  The default, unless
 *            acctd runs.
 *   runtime  /proc/PID/stat: the scheduler's runtime, split in the
 *            samples' proportion, in 10 ms units: what acctd's exit
 *            records hold (for threads of 100 ms or more).  Chosen
 *            when acctd runs, or when taskstats cannot be asked.
 *
 * With ticks, the scheduler's runtime goes in cpu_run_ns beside them.
 * Either way the record says which (cpu_source, records.h), so that
 * the store never differences one measure against the other.
 *
 * Wherever taskstats answers, with either measure, the context
 * switches are the kernel's sum over all threads, exited ones
 * included; /proc has only the live threads' (procfs.c).
 */
#ifndef SNAPCPU_H
#define SNAPCPU_H

#include <stdint.h>

#include "../../parsers/exerr.h"
#include "../../parsers/records.h"
#include "taskstats.h"

enum snapcpu_measure { SNAPCPU_AUTO, SNAPCPU_TICKS, SNAPCPU_RUNTIME };

struct snapcpu {
	enum snapcpu_measure measure;	/* TICKS or RUNTIME, once open */
	struct ts_conn	 ts;
	uint64_t	 unanswered;	/* processes skipped: no answer */
	int		 stalled;	/* a query timed out: ask no more */
	int		 asked;		/* taskstats answers: its context
					   switches are taken, either measure */
};

/*
 * Settle the measure, once for the whole snapshot: want, or for
 * SNAPCPU_AUTO runtime if acctd runs (acctd_pidfile is locked), ticks
 * if taskstats answers about process 1 with the all-thread totals,
 * else runtime.  EXR_OK, or EXR_IO with err when ticks were asked for
 * and cannot be had.
 */
int	snapcpu_open(struct snapcpu *sc, int want, const char *acctd_pidfile,
	    struct ex_err *err);

/*
 * Put the chosen measure, its cpu_source, and where taskstats answers
 * the all-thread context switches into p, read from /proc for its pid;
 * and, where taskstats answers for its main thread, that thread's uid,
 * gid, peak RSS and own context switches: what /proc/PID/status says,
 * a third of what reading /proc cost a process.
 * For n processes (1 to SNAPCPU_BATCH), asked at once; res[i] says of
 * p[i]: 1 when its context switches are now the kernel's all-thread
 * figures (both at least the main thread's own), 0 when they may still
 * want /proc's threads, or -1 to skip the process (it is gone, or with
 * ticks taskstats did not answer for it: counted in unanswered; after a
 * timeout, no more are asked).
 */
#define SNAPCPU_BATCH	TS_QUERY_MAX
void	snapcpu_apply_batch(struct snapcpu *sc, struct ex_proc *p, int n,
	    int *res);

/* Whether taskstats is asked (snapcpu_apply_batch fills in what status
 * would): 1, or 0 when it cannot be or no longer is (a timeout). */
int	snapcpu_answers(const struct snapcpu *sc);

/* The tick figures of one process into p, whose /proc times give the
 * user/system proportion where the kernel does not (a pure function). */
void	snapcpu_ticks(const struct ts_tgid *t, struct ex_proc *p);

void	snapcpu_close(struct snapcpu *sc);

#endif
