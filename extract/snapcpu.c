/*
 * The CPU figure snap records (see snapcpu.h).
 */
#include <sys/socket.h>
#include <sys/time.h>

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "extracct.h"
#include "snapcpu.h"

/*
 * pacct's unit: AHZ = 100 in the version 3 records Linux writes.  The
 * kernel cuts each of user and system time to it, so a snapshot that
 * did not would read up to 10 ms more than the exit record says.
 */
#define ACCT_UNIT_NS	10000000ull

/* A process's answer comes in microseconds; a second is no answer. */
#define QUERY_TIMEOUT_S	1

static const char *const names[] = { "auto", "ticks", "runtime" };

int
snapcpu_parse(const char *s)
{
	int i;

	for (i = 0; i < 3; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

const char *
snapcpu_name(int measure)
{
	return measure >= 0 && measure < 3 ? names[measure] : "?";
}

int
snapcpu_open(struct snapcpu *sc, int want, const char *acctd_pidfile,
    struct ex_err *err)
{
	struct timeval tv = { QUERY_TIMEOUT_S, 0 };
	struct ts_tgid self;
	char current[8];
	pid_t pid;

	memset(sc, 0, sizeof(*sc));
	sc->ts.fd = -1;
	sc->measure = SNAPCPU_RUNTIME;
	if (want == SNAPCPU_RUNTIME || (want == SNAPCPU_AUTO &&
	    acctd_running(acctd_pidfile, &pid, current, sizeof(current))))
		return EXR_OK;
	if (ts_open(&sc->ts, 65536, err) != EXR_OK)
		goto unusable;
	/* Without a timeout a kernel that never answers would hang us. */
	if (setsockopt(sc->ts.fd, SOL_SOCKET, SO_RCVTIMEO, &tv,
	    sizeof(tv)) == -1) {
		ex_fail(err, EXR_IO, 0, "taskstats: %s", strerror(errno));
		goto unusable;
	}
	/* Asking about ourselves tells whether the kernel will answer,
	 * and whether it fills the all-thread totals. */
	if (ts_query_tgid(&sc->ts, (uint32_t)getpid(), &self) == -1) {
		ex_fail(err, EXR_IO, 0, "taskstats: %s%s", strerror(errno),
		    errno == EPERM ? " (asking needs CAP_NET_ADMIN: root)" :
		    "");
		goto unusable;
	}
	if (!self.has_totals) {
		ex_fail(err, EXR_IO, 0, "taskstats: this kernel fills in a "
		    "process's all-thread CPU totals only with delay "
		    "accounting on (sysctl kernel.task_delayacct=1)");
		goto unusable;
	}
	sc->measure = SNAPCPU_TICKS;
	return EXR_OK;
unusable:
	snapcpu_close(sc);
	return want == SNAPCPU_AUTO ? EXR_OK : EXR_IO;
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
	p->present |= 1ULL << PROC_CPU_USER_NS | 1ULL << PROC_CPU_SYS_NS |
	    1ULL << PROC_CPU_RUN_NS;
}

int
snapcpu_apply(struct snapcpu *sc, struct ex_proc *p)
{
	struct ts_tgid t;

	if (sc->measure != SNAPCPU_TICKS)
		return 0;
	/*
	 * Gone, or no answer: skip it rather than record the other
	 * measure, which would not difference against the rest.  After a
	 * timeout, skip the rest too: a second each would hang the job.
	 */
	if (sc->stalled) {
		sc->unanswered++;
		return -1;
	}
	if (ts_query_tgid(&sc->ts, (uint32_t)p->v[PROC_PID], &t) == -1) {
		if (errno == ESRCH)
			return -1;
		sc->unanswered++;
		sc->stalled = errno == EAGAIN || errno == EWOULDBLOCK;
		return -1;
	}
	/* No live thread: it exited after /proc was read, and a zombie's
	 * figures are zeros. */
	if (!t.live)
		return -1;
	snapcpu_ticks(&t, p);
	return 0;
}

void
snapcpu_close(struct snapcpu *sc)
{
	if (sc->ts.fd != -1)
		ts_close(&sc->ts);
	sc->ts.fd = -1;
}
