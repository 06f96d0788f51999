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
	/* Asking for ourselves tells whether the kernel will answer. */
	if (ts_open(&sc->ts, 65536, err) == EXR_OK) {
		(void)setsockopt(sc->ts.fd, SOL_SOCKET, SO_RCVTIMEO, &tv,
		    sizeof(tv));
		if (ts_query_tgid(&sc->ts, (uint32_t)getpid(), &self) == 0) {
			sc->measure = SNAPCPU_TICKS;
			return EXR_OK;
		}
		ex_fail(err, EXR_IO, 0, "taskstats: %s%s", strerror(errno),
		    errno == EPERM ? " (asking needs CAP_NET_ADMIN: root)" :
		    "");
		ts_close(&sc->ts);
	}
	if (want == SNAPCPU_AUTO)
		return EXR_OK;
	return EXR_IO;
}

void
snapcpu_ticks(const struct ts_tgid *t, struct ex_proc *p)
{
	uint64_t live = t->live_user_ns + t->live_sys_ns, gone = 0, gone_sys;
	uint64_t pu = p->v[PROC_CPU_USER_NS], ps = p->v[PROC_CPU_SYS_NS];
	uint64_t u, s;

	if (t->has_samples && t->samples_ns > live)
		gone = t->samples_ns - live;
	/*
	 * Exited threads are known by their sum only: split it as /proc
	 * splits the whole process (both are the samples' proportion).
	 */
	gone_sys = 0;
	if (REC_HAS(p, PROC_CPU_USER_NS) && REC_HAS(p, PROC_CPU_SYS_NS) &&
	    pu + ps != 0)
		gone_sys = (uint64_t)((unsigned __int128)gone * ps / (pu + ps));
	u = t->live_user_ns + gone - gone_sys;
	s = t->live_sys_ns + gone_sys;
	p->v[PROC_CPU_USER_NS] = u - u % ACCT_UNIT_NS;
	p->v[PROC_CPU_SYS_NS] = s - s % ACCT_UNIT_NS;
	p->present |= 1ULL << PROC_CPU_USER_NS | 1ULL << PROC_CPU_SYS_NS;
	if (t->has_runtime) {
		p->v[PROC_CPU_RUN_NS] = t->runtime_ns;
		p->present |= 1ULL << PROC_CPU_RUN_NS;
	}
}

int
snapcpu_apply(struct snapcpu *sc, struct ex_proc *p)
{
	struct ts_tgid t;

	if (sc->measure != SNAPCPU_TICKS)
		return 0;
	if (ts_query_tgid(&sc->ts, (uint32_t)p->v[PROC_PID], &t) == -1) {
		/*
		 * Gone, or no answer: skip it rather than record the other
		 * measure, which would not difference against the rest.
		 */
		if (errno != ESRCH)
			sc->unanswered++;
		return -1;
	}
	snapcpu_ticks(&t, p);
	return 0;
}

void
snapcpu_close(struct snapcpu *sc)
{
	if (sc->ts.fd != -1)
		ts_close(&sc->ts);
}
