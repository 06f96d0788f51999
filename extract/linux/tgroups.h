/*
 * Thread groups for acctd: taskstats reports each exiting thread on its
 * own, and a process is written once, when its last thread exits, with
 * the sum of all its threads (see docs/formats.md, "acctd").
 *
 * The rule: counters (CPU, faults, context switches, I/O, delays) are
 * summed over the process's threads; the high-water RSS is the largest;
 * identity (ppid, uid, gid, command, start) comes from the thread-group
 * leader's record when it came, else from the earliest thread seen; the
 * exit status is the last thread's; the accounting flags are or-ed.
 * The kernel's own process aggregate (TASKSTATS_TYPE_AGGR_TGID) is not
 * used: at exit it carries only the delay-accounting sums, not the CPU.
 * PROC_THREADS of the result is the number of thread records summed.
 */
#ifndef TGROUPS_H
#define TGROUPS_H

#include <stddef.h>

#include "taskstats.h"

struct tgroup {
	uint32_t	 tgid;
	int		 have_leader;
	struct ex_proc	 sum;
};

struct tgroups {
	struct tgroup	*g;		/* processes with threads gone, alive */
	size_t		 n, cap;
};

/* Called with each complete process; non-zero stops and is returned. */
typedef int (*tg_emit_fn)(void *arg, const struct ex_proc *p);

/*
 * Take one thread's exit (start and finish already set in e->p).  A
 * process whose last thread this is goes to emit.  Returns the emit
 * result, or -1 (errno ENOMEM).
 */
int	tgroups_add(struct tgroups *t, const struct ts_exit *e,
	    tg_emit_fn emit, void *arg);

/*
 * Write out, as they are, the processes gone(tgid) says have ended: the
 * record of their last thread was lost (or acctd started after it).
 * *n gets the count.  Returns 0 or the first non-zero emit result.
 */
int	tgroups_sweep(struct tgroups *t, int (*gone)(uint32_t tgid),
	    tg_emit_fn emit, void *arg, size_t *n);

void	tgroups_release(struct tgroups *t);

#endif
