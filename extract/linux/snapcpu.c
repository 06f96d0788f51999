/*
 * The CPU figure snap records (see snapcpu.h).
 */
#include <sys/socket.h>
#include <sys/time.h>

#include <errno.h>
#include <string.h>

#include "../spool/acctd_pidfile.h"
#include "snapcpu.h"

/*
 * pacct's unit: AHZ = 100 in the version 3 records Linux writes.  The
 * kernel cuts each of user and system time to it, so a snapshot that
 * did not would read up to 10 ms more than the exit record says.
 */
#define ACCT_UNIT_NS	10000000ull

/* A process's answer comes in microseconds; a second is no answer. */
#define QUERY_TIMEOUT_S	1

int
snapcpu_open(struct snapcpu *sc, int want, const char *acctd_pidfile,
    struct ex_err *err)
{
	struct timeval tv = { QUERY_TIMEOUT_S, 0 };
	struct ts_tgid init;
	struct ex_err quiet;
	char current[8];
	pid_t pid;
	int ticks;

	memset(sc, 0, sizeof(*sc));
	sc->ts.fd = -1;
	sc->measure = SNAPCPU_RUNTIME;
	/* A pidfile not to be believed (rotate says why): ticks. */
	ticks = want == SNAPCPU_TICKS || (want == SNAPCPU_AUTO &&
	    acctd_pidfile_running(acctd_pidfile, &pid, current,
	    sizeof(current), &quiet) != 1);
	/* With the runtime, taskstats is asked for context switches only:
	 * not being able to is no error. */
	if (!ticks)
		err = &quiet;
	if (ts_open(&sc->ts, 65536, err) != EXR_OK)
		goto unusable;
	/* Without a timeout a kernel that never answers would hang us. */
	if (setsockopt(sc->ts.fd, SOL_SOCKET, SO_RCVTIMEO, &tv,
	    sizeof(tv)) == -1) {
		ex_fail(err, EXR_IO, 0, "taskstats: %s", strerror(errno));
		goto unusable;
	}
	/*
	 * Asking about a process tells whether the kernel will answer, and
	 * whether it fills the all-thread totals.  Not ourselves: a process
	 * that has not yet been switched out or ticked has a runtime of 0
	 * (the scheduler adds it up only then), and in about two of three
	 * fresh snaps that read as "no totals", so the measure flipped
	 * from one snapshot to the next.  Init has run.
	 */
	if (ts_query_tgid(&sc->ts, 1, &init) == -1) {
		ex_fail(err, EXR_IO, 0, "taskstats: %s%s", strerror(errno),
		    errno == EPERM ? " (asking needs CAP_NET_ADMIN: root)" :
		    "");
		goto unusable;
	}
	sc->asked = 1;
	if (!ticks)
		return EXR_OK;
	if (!init.has_totals) {
		ex_fail(err, EXR_IO, 0, "taskstats: this kernel fills in a "
		    "process's all-thread CPU totals only with delay "
		    "accounting on (sysctl kernel.task_delayacct=1)");
		goto unusable;
	}
	sc->measure = SNAPCPU_TICKS;
	return EXR_OK;
unusable:
	if (!sc->asked)
		snapcpu_close(sc);
	return want == SNAPCPU_TICKS ? EXR_IO : EXR_OK;
}

void
snapcpu_ticks(const struct ts_tgid *t, struct ex_proc *p)
{
	uint64_t pu = p->v[PROC_CPU_USER_NS], ps = p->v[PROC_CPU_SYS_NS];
	uint64_t split = t->user_ns + t->sys_ns, total = t->samples_ns;
	uint64_t u, s;

	/*
	 * Where the kernel splits only the live threads' samples, the
	 * rest of the total is its exited threads', known by their sum.
	 * The whole process's split is /proc's proportion (cputime_adjust
	 * scales by the samples' own), held between what the split
	 * samples prove: no less system time than they show, no more than
	 * they show plus all the unsplit rest.
	 */
	if (total < split)
		total = split;
	s = t->sys_ns;
	/* In 128 bits: pu + ps can pass 2^64 (and wrap to 0). */
	if (REC_HAS(p, PROC_CPU_USER_NS) && REC_HAS(p, PROC_CPU_SYS_NS) &&
	    (unsigned __int128)pu + ps != 0)
		s = (uint64_t)((unsigned __int128)total * ps /
		    ((unsigned __int128)pu + ps));
	if (s < t->sys_ns)
		s = t->sys_ns;
	if (s > t->sys_ns + (total - split))
		s = t->sys_ns + (total - split);
	u = total - s;
	p->v[PROC_CPU_USER_NS] = u - u % ACCT_UNIT_NS;
	p->v[PROC_CPU_SYS_NS] = s - s % ACCT_UNIT_NS;
	p->v[PROC_CPU_RUN_NS] = t->runtime_ns;
	p->v[PROC_CPU_SOURCE] = CPU_SOURCE_TICKS;
	p->present |= 1ULL << PROC_CPU_USER_NS | 1ULL << PROC_CPU_SYS_NS |
	    1ULL << PROC_CPU_RUN_NS | 1ULL << PROC_CPU_SOURCE;
}

/*
 * What /proc/PID/status would have given, from the main thread's own
 * record: its uid and gid (the real ones, as status's first), the
 * process's peak RSS (the address space's, whichever thread is asked)
 * and the main thread's context switches.
 */
static void
take_leader(struct ex_proc *p, const struct ts_exit *leader)
{
	static const int f[] = { PROC_UID, PROC_GID, PROC_RSS_MAX_KB,
	    PROC_CTXT_VOL, PROC_CTXT_INV };
	size_t i;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (REC_HAS(&leader->p, f[i])) {
			p->v[f[i]] = leader->p.v[f[i]];
			p->present |= 1ULL << f[i];
		}
}

/* What taskstats's answer t (or e, the errno of asking) makes of p:
 * snapcpu_apply_batch's res for it. */
static int
take(struct snapcpu *sc, struct ex_proc *p, const struct ts_tgid *t, int e)
{
	int ticks = sc->measure == SNAPCPU_TICKS, took = 0;

	/*
	 * Gone, or no answer: with ticks, skip it rather than record the
	 * other measure, which would not difference against the rest (with
	 * the runtime, keep /proc's switches).  After a timeout, ask no
	 * more: a second each would hang the job.
	 */
	if (e != 0) {
		if (e == ESRCH)
			return ticks ? -1 : 0;
		if (e == EAGAIN || e == EWOULDBLOCK)
			sc->stalled = 1;
		if (!ticks)
			return 0;
		sc->unanswered++;
		return -1;
	}
	/* No live thread: it exited after /proc was read, and a zombie's
	 * figures are zeros. */
	if (!t->live)
		return -1;
	if (ticks)
		snapcpu_ticks(t, p);
	/* The kernel's context switches of every thread, exited ones too
	 * (those are not in /proc), never below what /proc read. */
	if (!t->has_ctxt)
		return 0;
	if (!REC_HAS(p, PROC_CTXT_VOL) || t->nvcsw >= p->v[PROC_CTXT_VOL]) {
		p->v[PROC_CTXT_VOL] = t->nvcsw;
		took++;
	}
	if (!REC_HAS(p, PROC_CTXT_INV) || t->nivcsw >= p->v[PROC_CTXT_INV]) {
		p->v[PROC_CTXT_INV] = t->nivcsw;
		took++;
	}
	p->present |= 1ULL << PROC_CTXT_VOL | 1ULL << PROC_CTXT_INV;
	/* Below the main thread's own count the kernel's figure is not
	 * every thread's: leave the rest to /proc. */
	return took == 2;
}

void
snapcpu_apply_batch(struct snapcpu *sc, struct ex_proc *p, int n, int *res)
{
	uint32_t tgid[SNAPCPU_BATCH];
	struct ts_tgid t[SNAPCPU_BATCH];
	struct ts_exit leader[SNAPCPU_BATCH];
	int e[SNAPCPU_BATCH], le[SNAPCPU_BATCH], i;
	int ticks = sc->measure == SNAPCPU_TICKS;

	if (n < 1 || n > SNAPCPU_BATCH)
		return;
	for (i = 0; i < n; i++) {
		res[i] = 0;
		if (!ticks) {
			/* /proc's figure, as procfs read it. */
			p[i].v[PROC_CPU_SOURCE] = CPU_SOURCE_RUNTIME;
			p[i].present |= 1ULL << PROC_CPU_SOURCE;
		}
	}
	if (!ticks && (!sc->asked || sc->stalled))
		return;
	if (sc->stalled) {
		for (i = 0; i < n; i++) {
			sc->unanswered++;
			res[i] = -1;
		}
		return;
	}
	/*
	 * One send for the batch: a send a process was a third of what
	 * asking cost.  A process's answer comes at most 15 others'
	 * reading after its own (a few hundred microseconds), about what
	 * the walk of a multi-threaded process's threads delayed it
	 * before; one that exits meanwhile is skipped, as one that exited
	 * after its reading always was.
	 */
	for (i = 0; i < n; i++)
		tgid[i] = (uint32_t)p[i].v[PROC_PID];
	(void)ts_query_tgids(&sc->ts, tgid, (size_t)n, t, e, leader, le);
	for (i = 0; i < n; i++) {
		/* First: take() compares with the main thread's switches. */
		if (le[i] == 0)
			take_leader(&p[i], &leader[i]);
		res[i] = take(sc, &p[i], &t[i], e[i]);
	}
}

int
snapcpu_answers(const struct snapcpu *sc)
{
	return sc->asked && !sc->stalled;
}

void
snapcpu_close(struct snapcpu *sc)
{
	if (sc->ts.fd != -1)
		ts_close(&sc->ts);
	sc->ts.fd = -1;
}
