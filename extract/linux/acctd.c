/*
 * acctd (acctd.h): the Linux counterpart of the Solaris kernel writing
 * an exacct record at every process exit, a small daemon that registers
 * for taskstats exit notifications on every CPU and appends one
 * group-proc record (creator "extracct") per process to its log in the
 * spool, acctd-HOST-YYYYMMDD-HHMM.  Unlike pacct's 10 ms units, cut per
 * process, the CPU times are microseconds (taskstats.c says which of
 * the kernel's two figures), so short processes are not lost.
 *
 * Threads are summed into their process (tgroups.h).  Every record is
 * one write(2) to an O_APPEND file.  When the kernel drops notifications
 * (the socket buffer overflowed), or the log cannot be written (a full
 * disk), a loss record says when and how many, as soon as it can.
 * SIGHUP: switch to the acctd log rotate has created and recorded as
 * live in the spool (spool.h; exits queue in the socket meanwhile,
 * none is lost).
 * SIGTERM, SIGINT: write what is queued and exit.  The pidfile is locked
 * while acctd runs, so a second one refuses to start; its second line
 * names the log being written (acctd_pidfile.h).
 *
 * Linux only (taskstats): in LINUX_EXTRACT, and nolinux.c stands in for
 * the command elsewhere.  Exits come at up to a few thousand a second
 * on a busy host; each is one record, one write(2).
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../parsers/recwrite.h"
#include "acctd.h"
#include "cgroup.h"
#include "../spool/acctd_pidfile.h"
#include "../util.h"
#include "../spool/spool.h"
#include "taskstats.h"
#include "tgroups.h"

#define SWEEP_NS	(10 * NS)	/* look for lost last threads */

struct acctd {
	const char	*spool;
	char		 host[256];	/* in log names */
	char		 log_host[256];	/* in log headers: as snap writes */
	char		 log[256];	/* the log being written */
	int		 logfd;
	int		 pidfd;
	int		 delayacct;	/* kernel.task_delayacct is on */
	struct ts_conn	 ts;
	struct tgroups	 tg;
	struct exw	 w;		/* the record being written */
	struct exw	 lw;		/* a loss record for unwritten ones */
	uint64_t	 written, lost;
	uint64_t	 unwritten;	/* exits not written since the log
					   last took a write */
	int		 cg_hier;	/* the cgroup hierarchy read (cgroup.h) */
	uint64_t	 cg_from[4];	/* exits by whose cgroup they took: own,
					   CGROUP_FROM_LEADER, _PARENT; [3]
					   none (ingest takes the snapshot's) */
};

static volatile sig_atomic_t got_term, got_hup;

static void
on_signal(int sig)
{
	if (sig == SIGHUP)
		got_hup = 1;
	else
		got_term = 1;
}

static uint64_t
clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * NS + (uint64_t)ts.tv_nsec;
}

/*
 * Is delay accounting on?  Without it the kernel still fills the CPU
 * delay (from the scheduler's own statistics) but leaves the others
 * zero: then they are absent, not zero.
 */
static int
delayacct_on(void)
{
	char c = '0';
	int fd = open("/proc/sys/kernel/task_delayacct", O_RDONLY | O_CLOEXEC);

	if (fd != -1) {
		if (read(fd, &c, 1) != 1)
			c = '0';
		close(fd);
	}
	return c == '1';
}

/* Encode a loss record of count exits into w. */
static void
encode_lost(struct exw *w, uint64_t count)
{
	struct ex_lost l = { 0 };

	l.v[LOST_TIME_NS] = clock_ns(CLOCK_REALTIME);
	l.v[LOST_COUNT] = count;
	l.present = (1ULL << LOST_NFIELDS) - 1;
	exw_reset(w);
	lost_write(w, &l);
}

/*
 * Write the record in a->w, which stands for n exits.  A log that cannot
 * be written (a full disk) does not stop acctd, and loses nothing
 * silently: it counts the exits it could not write and, as soon as the
 * log takes a write again, first writes a loss record with that count.
 * Returns 1 if the record was written.
 */
static int
put(struct acctd *a, uint64_t n)
{
	if (a->unwritten > 0) {
		encode_lost(&a->lw, a->unwritten);
		if (write_record(a->logfd, &a->lw) == EXR_OK) {
			fprintf(stderr, "extracct: acctd: %s/%s takes writes "
			    "again; a loss record counts the %llu exit records "
			    "not written\n", a->spool, a->log,
			    (unsigned long long)a->unwritten);
			a->lost += a->unwritten;
			a->unwritten = 0;
		}
	}
	if (a->unwritten == 0 && a->w.error == EXR_OK &&
	    write_record(a->logfd, &a->w) == EXR_OK)
		return 1;
	if (a->unwritten == 0)
		fprintf(stderr, "extracct: acctd: %s/%s: %s; counting the exit "
		    "records not written until it takes writes again\n",
		    a->spool, a->log, strerror(errno));
	a->unwritten += n;
	return 0;
}

/* One process record to the log. */
static int
emit(void *arg, const struct ex_proc *p)
{
	struct acctd *a = arg;

	exw_reset(&a->w);
	proc_write(&a->w, p);
	a->written += (uint64_t)put(a, 1);
	return 0;
}

/*
 * The cgroup the thread was in as it exited, read as its message
 * arrives: it is a zombie then, or about to be reaped, and (on the
 * unified hierarchy) still shows its cgroup.  Reaped already: its
 * thread group leader's (threads share a cgroup but in the threaded
 * mode, which accounting does not use), else its parent's (a child
 * mostly lives where it was forked); else none, and ingest takes the
 * one the last snapshot saw.  Each rule's exits are counted.
 */
static void
exit_cgroup(struct acctd *a, struct ts_exit *x)
{
	char id[16];
	int from = 0;

	snprintf(id, sizeof(id), "%lu", (unsigned long)x->pid);
	if (cgroup_read("/proc", id, a->cg_hier, &x->p) != 0) {
		snprintf(id, sizeof(id), "%lu", (unsigned long)x->tgid);
		from = CGROUP_FROM_LEADER;
		if (x->tgid == x->pid ||
		    cgroup_read("/proc", id, a->cg_hier, &x->p) != 0) {
			from = CGROUP_FROM_PARENT;
			snprintf(id, sizeof(id), "%lu",
			    (unsigned long)x->p.v[PROC_PPID]);
			if (!REC_HAS(&x->p, PROC_PPID) ||
			    x->p.v[PROC_PPID] == 0 ||
			    cgroup_read("/proc", id, a->cg_hier, &x->p) != 0)
				from = 3;
		}
	}
	if (from == CGROUP_FROM_LEADER || from == CGROUP_FROM_PARENT) {
		x->p.v[PROC_CGROUP_FROM] = (uint64_t)from;
		x->p.present |= 1ULL << PROC_CGROUP_FROM;
	}
	if (x->group_dead)
		a->cg_from[from]++;
}

/*
 * One thread's exit, as it arrives: finish is the time it arrived,
 * start that less the elapsed time the kernel measured (so it agrees
 * with the snapshots' starts, and with pacct's, to well within 1 s).
 */
static int
on_exit_record(void *arg, const struct ts_exit *e)
{
	struct acctd *a = arg;
	struct ts_exit x = *e;
	uint64_t now = clock_ns(CLOCK_REALTIME);
	int rc;

	if (!a->delayacct)
		for (int f = PROC_DELAY_BLKIO_NS; f <= PROC_DELAY_IRQ_NS; f++)
			x.p.present &= ~(1ULL << f);
	x.p.v[PROC_FINISH_NS] = now;
	x.p.present |= 1ULL << PROC_FINISH_NS;
	if (x.has_etime && x.etime_us * 1000u <= now) {
		x.p.v[PROC_START_NS] = now - x.etime_us * 1000u;
		x.p.present |= 1ULL << PROC_START_NS;
	}
	if (a->cg_hier != 0)
		exit_cgroup(a, &x);
	if ((rc = tgroups_add(&a->tg, &x, emit, a)) == -1)
		return complain(EXR_NOMEM, "no memory");
	return rc;		/* a write error stops acctd */
}

/* The kernel dropped count exits: a loss record says so. */
static void
write_lost(struct acctd *a, uint64_t count)
{
	fprintf(stderr, "extracct: acctd: the kernel dropped %llu exit "
	    "record%s (socket buffer full); a loss record says so\n",
	    (unsigned long long)count, count == 1 ? "" : "s");
	encode_lost(&a->w, count);
	if (put(a, count))
		a->lost += count;
}

/*
 * Open the log to write: at start, one named for now (a new one unless
 * it exists); on SIGHUP, the one rotate has just created and recorded
 * as acctd's live log in the spool (spool.h), or with no record (an
 * older rotate) the newest acctd log.  The old one is closed only once
 * the new one is open, and records go to one or the other, never
 * neither.
 */
static int
open_log(struct acctd *a, int at_start)
{
	char name[256], path[4096], live[256];
	const char *newest;
	struct ex_err err = { 0 };
	struct spool sp;
	struct stat st;
	int i, fd;

	if ((i = spool_open(&sp, a->spool, a->host, SPOOL_LIST, &err)) !=
	    EXR_OK)
		return complain(i, "%s", err.reason);
	newest = spool_newest(&sp, SPOOL_ACCTD, 0);
	if (!at_start && spool_live_get(&sp, SPOOL_ACCTD, live, sizeof(live),
	    NULL) == 1)
		newest = live;
	if (at_start) {
		spool_name(name, sizeof(name), "acctd", a->host, time(NULL));
		if ((newest == NULL || strcmp(newest, name) != 0) &&
		    spool_create(&sp, name, &err) != EXR_OK &&
		    err.sys_errno != EEXIST) {
			spool_close(&sp);
			return complain(EXR_IO, "%s", err.reason);
		}
	} else if (newest == NULL || strcmp(newest, a->log) == 0) {
		spool_close(&sp);
		printf("acctd: no newer log in %s; still writing %s\n",
		    a->spool, a->log);
		fflush(stdout);
		return EXR_OK;
	} else
		snprintf(name, sizeof(name), "%.255s", newest);
	spool_close(&sp);
	snprintf(path, sizeof(path), "%.3800s/%.255s", a->spool, name);
	/* O_NONBLOCK: a FIFO in its place fails instead of hanging. */
	fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC);
	if (fd == -1 || fstat(fd, &st) == -1 || !S_ISREG(st.st_mode)) {
		i = complain(EXR_IO, "%s: %s", path, fd == -1 ? strerror(errno) :
		    "not a regular file");
		if (fd != -1)
			close(fd);
		return i;
	}
	if (st.st_size == 0) {
		exw_reset(&a->w);
		exw_header(&a->w, "extracct", a->log_host, EXW_HEADER_LIBRARY);
		if (write_record(fd, &a->w) != EXR_OK) {
			close(fd);
			return complain(EXR_IO, "%s: %s", path,
			    strerror(errno));
		}
	}
	if (a->logfd != -1)
		close(a->logfd);
	a->logfd = fd;
	snprintf(a->log, sizeof(a->log), "%s", name);
	acctd_pidfile_write(a->pidfd, getpid(), a->log);
	printf("acctd: writing exit records to %s\n", path);
	fflush(stdout);
	return EXR_OK;
}

/* Does no process tgid exist any more? */
static int
gone(uint32_t tgid)
{
	return kill((pid_t)tgid, 0) == -1 && errno == ESRCH;
}

/* Write what the socket holds; a drop becomes a loss record. */
static int
drain(struct acctd *a)
{
	uint64_t d;
	int rc;

	while ((rc = ts_drain(&a->ts, on_exit_record, a)) == -1 &&
	    errno == ENOBUFS) {
		d = ts_dropped(&a->ts);
		write_lost(a, d > 0 ? d : 1);
	}
	if (rc == -1)
		return complain(EXR_IO, "taskstats: %s", strerror(errno));
	return rc;
}

/* Every SWEEP_NS: drops the kernel counted without an ENOBUFS reaching
 * us, and processes whose last thread's record never came. */
static int
sweep(struct acctd *a)
{
	uint64_t d = ts_dropped(&a->ts);
	size_t n;

	a->delayacct = delayacct_on();
	if (d > 0)
		write_lost(a, d);
	return tgroups_sweep(&a->tg, gone, emit, a, &n);
}

/*
 * SIGTERM, SIGINT and SIGHUP are caught from the start (a rotate may
 * send SIGHUP as soon as the pidfile names a log) and blocked except
 * inside ppoll, so none is missed between a check and the wait.
 * *during is the mask for ppoll.
 */
static void
catch_signals(sigset_t *during)
{
	struct sigaction sa;
	sigset_t block;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: ppoll returns */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* A log over the file size limit: write(2) fails (counted, see
	 * put()) instead of the signal killing acctd. */
	signal(SIGXFSZ, SIG_IGN);
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, during);
	sigdelset(during, SIGTERM);
	sigdelset(during, SIGINT);
	sigdelset(during, SIGHUP);
}

static int
serve(struct acctd *a, const sigset_t *during)
{
	struct pollfd pfd;
	struct timespec tmo = { 1, 0 };
	uint64_t last_sweep = clock_ns(CLOCK_MONOTONIC);
	int rc, r;

	for (;;) {
		pfd.fd = a->ts.fd;
		pfd.events = POLLIN;
		r = ppoll(&pfd, 1, &tmo, during);
		if (r == -1 && errno != EINTR)
			return complain(EXR_IO, "poll: %s", strerror(errno));
		if ((rc = drain(a)) != 0)
			return rc;
		if (got_hup) {
			got_hup = 0;
			if ((rc = open_log(a, 0)) != EXR_OK)
				return rc;
		}
		if (got_term)
			return EXR_OK;
		if (clock_ns(CLOCK_MONOTONIC) - last_sweep >= SWEEP_NS) {
			if ((rc = sweep(a)) != 0)
				return rc;
			last_sweep = clock_ns(CLOCK_MONOTONIC);
		}
	}
}

static int
serve_all(struct acctd *a, const char *pidfile, uint64_t rcvbuf)
{
	struct ex_err err = { 0 };
	sigset_t during;
	int rc, rc2;

	catch_signals(&during);
	if ((rc = spool_check(a->spool, &err)) != EXR_OK)
		return complain(rc, "%s", err.reason);
	a->delayacct = delayacct_on();
	a->cg_hier = cgroup_hier_of("/proc/self/mountinfo");
	if ((a->pidfd = acctd_pidfile_take(pidfile, &rc)) == -1)
		return rc;
	if ((rc = ts_open(&a->ts, rcvbuf, &err)) != EXR_OK) {
		complain(rc, "%s", err.reason);
		goto out;
	}
	if ((rc = open_log(a, 1)) != EXR_OK)
		goto out;
	if ((rc = ts_register(&a->ts, 1, on_exit_record, a, &err)) !=
	    EXR_OK) {
		complain(rc, "%s", err.reason);
		goto out;
	}
	printf("acctd: exit records of CPUs %s (pid %ld)\n", a->ts.cpus,
	    (long)getpid());
	fflush(stdout);
	rc = serve(a, &during);
	/* What is queued still counts; then stop the kernel sending. */
	if ((rc2 = drain(a)) != 0 && rc == EXR_OK)
		rc = rc2;
	(void)ts_register(&a->ts, 0, on_exit_record, a, &err);
	(void)drain(a);
	if (a->tg.n > 0)
		fprintf(stderr, "extracct: acctd: %zu running process%s had "
		    "threads exit; those threads' figures are not written\n",
		    a->tg.n, a->tg.n == 1 ? "" : "es");
	printf("acctd: %llu process records, %llu lost, in %s/%s\n",
	    (unsigned long long)a->written, (unsigned long long)a->lost,
	    a->spool, a->log);
	if (a->cg_hier != 0)
		printf("acctd: cgroups of exits: %llu their own, %llu their "
		    "leader's, %llu their parent's, %llu not read (ingest "
		    "takes the last snapshot's)\n",
		    (unsigned long long)a->cg_from[0],
		    (unsigned long long)a->cg_from[CGROUP_FROM_LEADER],
		    (unsigned long long)a->cg_from[CGROUP_FROM_PARENT],
		    (unsigned long long)a->cg_from[3]);
	if (a->unwritten > 0 && rc == EXR_OK)
		rc = complain(EXR_IO, "%s/%s: %llu exit records could not be "
		    "written", a->spool, a->log,
		    (unsigned long long)a->unwritten);
out:
	ts_close(&a->ts);
	if (a->logfd != -1 && close(a->logfd) != 0 && rc == EXR_OK)
		rc = complain(EXR_IO, "%s/%s: %s", a->spool, a->log,
		    strerror(errno));
	if (a->pidfd != -1)
		acctd_pidfile_remove(pidfile, a->pidfd);
	return rc;
}

int
acctd_run(const char *spool, const char *host, const char *log_host,
    const char *pidfile, uint64_t rcvbuf)
{
	struct acctd a;
	int rc;

	memset(&a, 0, sizeof(a));
	a.spool = spool;
	a.logfd = a.pidfd = -1;
	a.ts.fd = -1;
	snprintf(a.host, sizeof(a.host), "%s", host);
	snprintf(a.log_host, sizeof(a.log_host), "%s", log_host);
	exw_init(&a.w);
	exw_init(&a.lw);
	rc = serve_all(&a, pidfile, rcvbuf);
	exw_release(&a.w);
	exw_release(&a.lw);
	tgroups_release(&a.tg);
	return rc;
}
