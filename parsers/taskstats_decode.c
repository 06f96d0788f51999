/*
 * The taskstats byte decoder (see taskstats_decode.h).
 *
 * The kernel's struct taskstats is read at byte offsets written down
 * here from the kernel's struct taskstats (version 8 and later), never
 * through <linux/taskstats.h>: this file builds where there is no Linux header
 * (make portable), and a struct of another version than the header's
 * is read by its own version.  Numbers are in the host's byte order,
 * as the kernel sends them.  It also says how far below the truth an
 * exit record it made may read (ts_exit_slack): the store allows for
 * that against a snapshot of the process.  Workload: one call per
 * thread exit (acctd) or per live process asked (snap).
 */
#include <string.h>

#include "taskstats_decode.h"

#define NS_PER_US	1000u
/*
 * The kernel cuts the I/O counts it sends (read_char, write_char, the
 * syscall counts, read_bytes, write_bytes) down to a multiple of a KiB
 * (KB_MASK in kernel/tsacct.c), below what /proc said.
 */
#define KIB		1024u
#define AGROUP_FLAG	0x20	/* ac_flag: the process's last thread (v12) */
#define FLAG_MASK	0x1f	/* AFORK ASU ACOMPAT ACORE AXSIG: as exacct */

/*
 * Offsets in the layout every version but 15 shares (fields are only
 * ever appended), and the version that added each field.  Where the
 * history between v3 and v8 is not certain, the field is read from v8
 * on: a field missed is absent, a field misread would be wrong.
 */
enum {
	OFF_EXITCODE = 4, OFF_FLAG = 8, OFF_CPU_COUNT = 16,
	OFF_CPU_DELAY = 24, OFF_BLKIO_DELAY = 40, OFF_SWAPIN_DELAY = 56,
	OFF_RUN_REAL = 64, OFF_RUN_VIRTUAL = 72, OFF_COMM = 80, OFF_UID = 120,
	OFF_GID = 124,
	OFF_PID = 128, OFF_PPID = 132, OFF_ETIME = 144, OFF_UTIME = 152,
	OFF_STIME = 160, OFF_MINFLT = 168, OFF_MAJFLT = 176,
	OFF_HIWATER_RSS = 200, OFF_READ_CHAR = 216, OFF_WRITE_CHAR = 224,
	OFF_READ_SYSCALLS = 232, OFF_WRITE_SYSCALLS = 240,
	OFF_READ_BYTES = 248, OFF_WRITE_BYTES = 256, OFF_NVCSW = 272,
	OFF_NIVCSW = 280, OFF_FREEPAGES_DELAY = 320,
	OFF_THRASHING_DELAY = 336, OFF_COMPACT_DELAY = 360, OFF_TGID = 368,
	OFF_WPCOPY_DELAY = 408, OFF_IRQ_DELAY = 424
};

/*
 * Version 15 put a max and a min after each delay total, moving every
 * later field; version 16 moved them to the end again.  So in v15 a
 * field sits 16 bytes further on for each delay total before it.
 */
static size_t
offset_in(uint16_t version, size_t off)
{
	static const size_t totals[] = {
		OFF_CPU_DELAY, OFF_BLKIO_DELAY, OFF_SWAPIN_DELAY,
		OFF_FREEPAGES_DELAY, OFF_THRASHING_DELAY, OFF_COMPACT_DELAY,
		OFF_WPCOPY_DELAY, OFF_IRQ_DELAY
	};
	size_t i, shift = 0;

	if (version != 15)
		return off;
	for (i = 0; i < sizeof(totals) / sizeof(totals[0]); i++)
		if (totals[i] < off)
			shift += 16;
	return off + shift;
}

struct view {
	const uint8_t	*buf;
	size_t		 len;
	uint16_t	 version;
};

/* Field at off (common layout) of width n, if the version has it. */
static int
get(const struct view *v, size_t off, size_t n, uint16_t since, void *out)
{
	size_t at = offset_in(v->version, off);

	if (v->version < since || at + n > v->len)
		return 0;
	memcpy(out, v->buf + at, n);
	return 1;
}

static int
get64(const struct view *v, size_t off, uint16_t since, uint64_t *out)
{
	return get(v, off, 8, since, out);
}

static int
get32(const struct view *v, size_t off, uint16_t since, uint32_t *out)
{
	return get(v, off, 4, since, out);
}

static void
set(struct ex_proc *p, int f, uint64_t v)
{
	p->v[f] = v;
	p->present |= 1ULL << f;
}

/* A u64 field into p, times scale; absent if that does not fit (no
 * kernel counts 584,000 years of CPU: it would be a wrapped value). */
static void
take64(const struct view *v, struct ex_proc *p, int f, size_t off,
    uint16_t since, uint64_t scale)
{
	uint64_t x;

	if (get64(v, off, since, &x) && !__builtin_mul_overflow(x, scale, &x))
		set(p, f, x);
}

/*
 * Which CPU time a thread's record gives.  ac_utime and ac_stime are
 * tick samples (4 ms apart at HZ=250): unbiased over many threads (they
 * are what /proc/stat's busy time is made of), but a tick or two off for
 * any one.  The scheduler's runtime is exact, but as of its last update
 * before the exit, so it lags by up to a tick: nothing, relatively, for
 * a long thread; most of a short one (a /bin/true reads 0).  So: from
 * RUNTIME_FROM_NS of runtime on (where the lag is under 4%), the runtime,
 * split between user and system in the samples' proportion, as the
 * kernel does for /proc and getrusage (cputime_adjust); below, the
 * samples.
 */
#define RUNTIME_FROM_NS	100000000ull

static void
split_runtime(struct ex_proc *p, uint64_t runtime)
{
	uint64_t u = p->v[PROC_CPU_USER_NS], s = p->v[PROC_CPU_SYS_NS];

	/* u + s may not fit in 64 bits (it wrapped to 0 once: a division
	 * by zero the fuzzer found); the quotient is at most runtime. */
	if (s == 0)
		u = runtime;
	else if (u == 0)
		s = runtime;
	else {
		s = (uint64_t)((unsigned __int128)runtime * s /
		    ((unsigned __int128)u + s));
		u = runtime - s;
	}
	p->v[PROC_CPU_USER_NS] = u;
	p->v[PROC_CPU_SYS_NS] = s;
}

int
ts_decode(const uint8_t *buf, size_t len, struct ts_exit *e)
{
	static const struct { int f; size_t off; uint16_t since; } delays[] = {
		{ PROC_DELAY_CPU_NS, OFF_CPU_DELAY, 1 },
		{ PROC_DELAY_BLKIO_NS, OFF_BLKIO_DELAY, 1 },
		{ PROC_DELAY_SWAPIN_NS, OFF_SWAPIN_DELAY, 1 },
		{ PROC_DELAY_FREEPAGES_NS, OFF_FREEPAGES_DELAY, 8 },
		{ PROC_DELAY_THRASHING_NS, OFF_THRASHING_DELAY, 9 },
		{ PROC_DELAY_COMPACT_NS, OFF_COMPACT_DELAY, 11 },
		{ PROC_DELAY_WPCOPY_NS, OFF_WPCOPY_DELAY, 13 },
		{ PROC_DELAY_IRQ_NS, OFF_IRQ_DELAY, 14 },
	};
	struct view v = { buf, len, 0 };
	struct ex_proc *p = &e->p;
	uint64_t a, b;
	uint32_t u;
	uint8_t flag;
	size_t i, at;

	memset(e, 0, sizeof(*e));
	p->group = EXD_GROUP_PROC;
	if (len < 2)
		return -1;
	memcpy(&e->version, buf, 2);
	v.version = e->version;

	if (get32(&v, OFF_PID, 2, &u)) {
		e->pid = e->tgid = u;
		set(p, PROC_PID, u);
	}
	if (get32(&v, OFF_TGID, 12, &u) && u != 0)
		e->tgid = u;
	if (get(&v, OFF_FLAG, 1, 1, &flag)) {
		set(p, PROC_ACCTFLAGS, flag & FLAG_MASK);
		e->group_dead = v.version >= 12 && (flag & AGROUP_FLAG);
	}
	if (get32(&v, OFF_EXITCODE, 1, &u))
		set(p, PROC_WAIT_STATUS, u);
	if (get32(&v, OFF_PPID, 2, &u))
		set(p, PROC_PPID, u);
	if (get32(&v, OFF_UID, 2, &u))
		set(p, PROC_UID, u);
	if (get32(&v, OFF_GID, 2, &u))
		set(p, PROC_GID, u);
	at = offset_in(v.version, OFF_COMM);
	if (v.version >= 2 && at + 32 <= len) {
		rec_copy_string(p->command, sizeof(p->command), buf + at, 32);
		set(p, PROC_COMMAND, 0);
	}
	e->has_etime = get64(&v, OFF_ETIME, 2, &e->etime_us);
	take64(&v, p, PROC_CPU_USER_NS, OFF_UTIME, 2, NS_PER_US);
	take64(&v, p, PROC_CPU_SYS_NS, OFF_STIME, 2, NS_PER_US);
	take64(&v, p, PROC_FAULTS_MINOR, OFF_MINFLT, 2, 1);
	take64(&v, p, PROC_FAULTS_MAJOR, OFF_MAJFLT, 2, 1);
	take64(&v, p, PROC_RSS_MAX_KB, OFF_HIWATER_RSS, 2, 1);
	if (get64(&v, OFF_READ_CHAR, 2, &a) &&
	    get64(&v, OFF_WRITE_CHAR, 2, &b))
		set(p, PROC_CHARS_RDWR, a + b);
	take64(&v, p, PROC_SYSCALLS_R, OFF_READ_SYSCALLS, 2, 1);
	take64(&v, p, PROC_SYSCALLS_W, OFF_WRITE_SYSCALLS, 2, 1);
	take64(&v, p, PROC_READ_BYTES, OFF_READ_BYTES, 3, 1);
	take64(&v, p, PROC_WRITE_BYTES, OFF_WRITE_BYTES, 3, 1);
	take64(&v, p, PROC_CTXT_VOL, OFF_NVCSW, 8, 1);
	take64(&v, p, PROC_CTXT_INV, OFF_NIVCSW, 8, 1);

	/*
	 * Delay accounting off leaves every delay field zero, including
	 * the run count and runtime it also fills: then the totals are
	 * absent, not zero.
	 */
	if ((get64(&v, OFF_CPU_COUNT, 1, &a) && a != 0) ||
	    (get64(&v, OFF_RUN_VIRTUAL, 1, &b) && b != 0)) {
		for (i = 0; i < sizeof(delays) / sizeof(delays[0]); i++)
			take64(&v, p, delays[i].f, delays[i].off,
			    delays[i].since, 1);
		e->has_runtime = get64(&v, OFF_RUN_VIRTUAL, 1,
		    &e->runtime_ns);
	}
	if (e->has_runtime)
		set(p, PROC_CPU_RUN_NS, e->runtime_ns);
	if (e->has_runtime && e->runtime_ns >= RUNTIME_FROM_NS &&
	    REC_HAS(p, PROC_CPU_USER_NS) && REC_HAS(p, PROC_CPU_SYS_NS))
		split_runtime(p, e->runtime_ns);
	return 0;
}

int
ts_decode_tgid(const uint8_t *buf, size_t len, struct ts_tgid *t)
{
	struct view v = { buf, len, 0 };
	uint64_t u, s, etime;

	memset(t, 0, sizeof(*t));
	if (len < 2)
		return -1;
	memcpy(&v.version, buf, 2);
	if (!get64(&v, OFF_UTIME, 2, &u) || !get64(&v, OFF_STIME, 2, &s) ||
	    !get64(&v, OFF_ETIME, 2, &etime))
		return -1;
	t->user_ns = u * NS_PER_US;
	t->sys_ns = s * NS_PER_US;
	t->live = etime != 0;
	/*
	 * The all-thread totals come from delay accounting's code; a
	 * kernel that leaves them to delay accounting, off, leaves both 0,
	 * and a live process always has some runtime.
	 */
	t->has_ctxt = get64(&v, OFF_NVCSW, 8, &t->nvcsw) &&
	    get64(&v, OFF_NIVCSW, 8, &t->nivcsw);
	if (get64(&v, OFF_RUN_REAL, 1, &t->samples_ns) &&
	    get64(&v, OFF_RUN_VIRTUAL, 1, &t->runtime_ns) &&
	    t->runtime_ns != 0)
		t->has_totals = 1;
	return 0;
}

uint64_t
ts_exit_slack(int f, uint64_t v)
{
	(void)v;	/* the cut does not depend on the figure */
	switch (f) {
	case PROC_CHARS_RDWR:
		return 2 * KIB;		/* read + write, each cut */
	case PROC_SYSCALLS_R:
	case PROC_SYSCALLS_W:
	case PROC_READ_BYTES:
	case PROC_WRITE_BYTES:
		return KIB;
	case PROC_CPU_USER_NS:
	case PROC_CPU_SYS_NS:
		return RUNTIME_FROM_NS;	/* samples below it: split_runtime */
	}
	return 0;
}
