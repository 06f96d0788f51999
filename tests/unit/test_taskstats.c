/*
 * Taskstats decoding by struct version, and threads summed into
 * processes.  The buffers are built here field by field at the offsets
 * of linux/taskstats.h (v8, v13, v15 with its moved fields, v16), so a
 * field read at the wrong offset or from a version that lacks it shows.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../../extract/config.h"
#include "../../extract/linux/snapcpu.h"
#include "../../extract/linux/taskstats.h"
#include "../../extract/linux/tgroups.h"
#include "check.h"

static uint8_t buf[1024];

static void
put(size_t off, const void *v, size_t n)
{
	memcpy(buf + off, v, n);
}

static void
put64(size_t off, uint64_t v)
{
	put(off, &v, 8);
}

static void
put32(size_t off, uint32_t v)
{
	put(off, &v, 4);
}

/*
 * A struct of the given version and size; common-layout offsets, which
 * v15 moves by 16 bytes per delay total before them (shift[]).
 */
static void
build(uint16_t version, int v15)
{
	/* offsets before which 1..8 delay totals lie, for v15 */
#define AT(off) ((off) + (v15 ? 16 * ((off) > 24) + 16 * ((off) > 40) + \
	16 * ((off) > 56) + 16 * ((off) > 320) + 16 * ((off) > 336) + \
	16 * ((off) > 360) + 16 * ((off) > 408) + 16 * ((off) > 424) : 0))
	uint8_t flag = 0x20 | 0x02;	/* AGROUP | ASU */

	memset(buf, 0xee, sizeof(buf));	/* what is not set is garbage */
	put(0, &version, 2);
	put32(4, 3 << 8);			/* exit 3 */
	put(8, &flag, 1);
	put64(AT(16), 7);			/* cpu_count: delays on */
	put64(AT(24), 1111);			/* cpu_delay_total */
	put64(AT(40), 2222);			/* blkio */
	put64(AT(56), 3333);			/* swapin */
	put64(AT(72), 123456789);		/* cpu_run_virtual_total */
	memset(buf + AT(80), 0, 32);
	memcpy(buf + AT(80), "worker", 6);
	put32(AT(120), 1000);			/* uid */
	put32(AT(124), 100);			/* gid */
	put32(AT(128), 4242);			/* pid */
	put32(AT(132), 1);			/* ppid */
	put64(AT(144), 5000000);		/* etime, us */
	put64(AT(152), 300000);			/* utime, us */
	put64(AT(160), 40000);			/* stime, us */
	put64(AT(168), 55);			/* minflt */
	put64(AT(176), 2);			/* majflt */
	put64(AT(200), 2048);			/* hiwater_rss, KB */
	put64(AT(216), 4096);			/* read_char */
	put64(AT(224), 1024);			/* write_char */
	put64(AT(232), 3072);			/* read_syscalls */
	put64(AT(240), 1024);			/* write_syscalls */
	put64(AT(248), 8192);			/* read_bytes */
	put64(AT(256), 0);			/* write_bytes */
	put64(AT(272), 9);			/* nvcsw */
	put64(AT(280), 4);			/* nivcsw */
	put64(AT(320), 4444);			/* freepages */
	put64(AT(336), 5555);			/* thrashing */
	put64(AT(360), 6666);			/* compact */
	put32(AT(368), 4240);			/* tgid */
	put64(AT(408), 7777);			/* wpcopy */
	put64(AT(424), 8888);			/* irq */
#undef AT
}

static void
decode_versions(void)
{
	struct ts_exit e;

	/* v16: every field, at the common offsets. */
	build(16, 0);
	CHECK("v16 decodes", ts_decode(buf, 560, &e) == 0);
	CHECK("v16 pid", e.pid == 4242 && e.p.v[PROC_PID] == 4242);
	CHECK("v16 tgid", e.tgid == 4240);
	CHECK("v16 last thread", e.group_dead == 1);
	CHECK("v16 flags without AGROUP", e.p.v[PROC_ACCTFLAGS] == 0x02);
	CHECK("v16 exit status", e.p.v[PROC_WAIT_STATUS] == 768);
	CHECK("v16 command", strcmp(e.p.command, "worker") == 0);
	CHECK("v16 uid gid ppid", e.p.v[PROC_UID] == 1000 &&
	    e.p.v[PROC_GID] == 100 && e.p.v[PROC_PPID] == 1);
	/* runtime 123,456,789 ns >= 100 ms: it is the CPU, split 300:40. */
	CHECK("v16 cpu from runtime", e.p.v[PROC_CPU_USER_NS] +
	    e.p.v[PROC_CPU_SYS_NS] == 123456789ull &&
	    e.p.v[PROC_CPU_SYS_NS] == 123456789ull * 40 / 340);
	CHECK("v16 runtime", REC_HAS(&e.p, PROC_CPU_RUN_NS) &&
	    e.p.v[PROC_CPU_RUN_NS] == 123456789);
	CHECK("v16 etime", e.has_etime && e.etime_us == 5000000);
	CHECK("v16 chars", e.p.v[PROC_CHARS_RDWR] == 5120);
	CHECK("v16 syscalls", e.p.v[PROC_SYSCALLS_R] == 3072 &&
	    e.p.v[PROC_SYSCALLS_W] == 1024);
	CHECK("v16 storage", e.p.v[PROC_READ_BYTES] == 8192 &&
	    REC_HAS(&e.p, PROC_WRITE_BYTES) && e.p.v[PROC_WRITE_BYTES] == 0);
	CHECK("v16 ctxt", e.p.v[PROC_CTXT_VOL] == 9 &&
	    e.p.v[PROC_CTXT_INV] == 4);
	CHECK("v16 rss", e.p.v[PROC_RSS_MAX_KB] == 2048);
	CHECK("v16 delays", e.p.v[PROC_DELAY_CPU_NS] == 1111 &&
	    e.p.v[PROC_DELAY_FREEPAGES_NS] == 4444 &&
	    e.p.v[PROC_DELAY_COMPACT_NS] == 6666 &&
	    e.p.v[PROC_DELAY_IRQ_NS] == 8888);

	/* v15: the same values, 16 bytes further per delay total. */
	build(15, 1);
	CHECK("v15 decodes", ts_decode(buf, 560, &e) == 0);
	CHECK("v15 moved fields", e.tgid == 4240 &&
	    strcmp(e.p.command, "worker") == 0 &&
	    e.p.v[PROC_CPU_RUN_NS] == 123456789ull &&
	    e.p.v[PROC_RSS_MAX_KB] == 2048 &&
	    e.p.v[PROC_DELAY_THRASHING_NS] == 5555 &&
	    e.p.v[PROC_DELAY_WPCOPY_NS] == 7777 &&
	    e.p.v[PROC_DELAY_IRQ_NS] == 8888);

	/* v13: no irq delay (v14), even where the bytes are there. */
	build(13, 0);
	CHECK("v13 decodes", ts_decode(buf, 560, &e) == 0);
	CHECK("v13 has wpcopy", e.p.v[PROC_DELAY_WPCOPY_NS] == 7777);
	CHECK("v13 has no irq", !REC_HAS(&e.p, PROC_DELAY_IRQ_NS));

	/* v8: no tgid, no AGROUP (v12), no thrashing (v9), no compact. */
	build(8, 0);
	CHECK("v8 decodes", ts_decode(buf, 328, &e) == 0);
	CHECK("v8 tgid is the pid", e.tgid == 4242);
	CHECK("v8 AGROUP not read", e.group_dead == 0);
	CHECK("v8 no later delays", !REC_HAS(&e.p, PROC_DELAY_THRASHING_NS) &&
	    !REC_HAS(&e.p, PROC_DELAY_COMPACT_NS));
	CHECK("v8 freepages", e.p.v[PROC_DELAY_FREEPAGES_NS] == 4444);

	/* A payload cut short: what it does not hold is absent. */
	build(16, 0);
	CHECK("short decodes", ts_decode(buf, 160, &e) == 0);
	CHECK("short: user in, sys out", REC_HAS(&e.p, PROC_CPU_USER_NS) &&
	    !REC_HAS(&e.p, PROC_CPU_SYS_NS) && !REC_HAS(&e.p, PROC_FAULTS_MINOR));
	CHECK("too short for a version", ts_decode(buf, 1, &e) == -1);

	/* A short thread (runtime under 100 ms): the tick samples. */
	build(16, 0);
	put64(72, 1300000);
	CHECK("short decodes", ts_decode(buf, 560, &e) == 0);
	CHECK("short thread: tick samples", e.p.v[PROC_CPU_USER_NS] ==
	    300000000ull && e.p.v[PROC_CPU_SYS_NS] == 40000000ull &&
	    e.p.v[PROC_CPU_RUN_NS] == 1300000);

	/*
	 * CPU times whose sum passes 2^64 (the fuzzer's: 2^60 us each
	 * is 2^63 ns each, which summed wrapped to 0, a division by
	 * zero).  Times that do not fit in ns are absent; times that fit
	 * but sum past 2^64 still split the runtime in their proportion.
	 */
	build(16, 0);
	put64(152, 1ull << 60);
	put64(160, 1ull << 60);
	CHECK("wrapped cpu decodes", ts_decode(buf, 560, &e) == 0);
	CHECK("wrapped cpu: absent, not wrapped", !REC_HAS(&e.p,
	    PROC_CPU_USER_NS) && !REC_HAS(&e.p, PROC_CPU_SYS_NS) &&
	    e.p.v[PROC_CPU_RUN_NS] == 123456789);
	put64(152, 10000000000000000ull);	/* 1e19 ns each */
	put64(160, 10000000000000000ull);
	CHECK("huge cpu decodes", ts_decode(buf, 560, &e) == 0);
	CHECK("huge cpu: runtime split 1:1", e.p.v[PROC_CPU_SYS_NS] ==
	    123456789 / 2 && e.p.v[PROC_CPU_USER_NS] == 123456789 -
	    123456789 / 2);

	/* Delay accounting off: every delay field zero, so absent. */
	build(16, 0);
	put64(16, 0);
	put64(72, 0);
	CHECK("no delayacct decodes", ts_decode(buf, 560, &e) == 0);
	CHECK("no delayacct: delays absent", !REC_HAS(&e.p, PROC_DELAY_CPU_NS) &&
	    !REC_HAS(&e.p, PROC_CPU_RUN_NS));
	CHECK("no runtime: tick samples", e.p.v[PROC_CPU_USER_NS] ==
	    300000000ull);
}

static struct ex_proc out[8];
static int nout;

static int
collect(void *arg, const struct ex_proc *p)
{
	(void)arg;
	if (nout < 8)
		out[nout++] = *p;
	return 0;
}

static void
thread_exit(struct ts_exit *e, uint32_t pid, uint32_t tgid, int last,
    uint64_t user, uint64_t start)
{
	memset(e, 0, sizeof(*e));
	e->pid = pid;
	e->tgid = tgid;
	e->group_dead = last;
	e->p.group = EXD_GROUP_PROC;
	e->p.v[PROC_PID] = pid;
	e->p.v[PROC_CPU_USER_NS] = user;
	e->p.v[PROC_CPU_SYS_NS] = 1;
	e->p.v[PROC_START_NS] = start;
	e->p.v[PROC_FINISH_NS] = start + 100;
	e->p.v[PROC_RSS_MAX_KB] = user / 10;
	e->p.present = 1ULL << PROC_PID | 1ULL << PROC_CPU_USER_NS |
	    1ULL << PROC_CPU_SYS_NS | 1ULL << PROC_START_NS |
	    1ULL << PROC_FINISH_NS | 1ULL << PROC_RSS_MAX_KB;
	snprintf(e->p.command, sizeof(e->p.command), pid == tgid ? "main" :
	    "worker");
	e->p.present |= 1ULL << PROC_COMMAND;
}

static int
never_gone(uint32_t tgid)
{
	(void)tgid;
	return 0;
}

static int
always_gone(uint32_t tgid)
{
	(void)tgid;
	return 1;
}

static void
thread_groups(void)
{
	struct tgroups t = { 0 };
	struct ts_exit e;
	size_t n;

	/* One thread: straight through. */
	nout = 0;
	thread_exit(&e, 10, 10, 1, 500, 1000);
	tgroups_add(&t, &e, collect, NULL);
	CHECK("single thread written", nout == 1 &&
	    out[0].v[PROC_PID] == 10 && out[0].v[PROC_THREADS] == 1);

	/* Two workers, then the leader last: one record, all CPU. */
	nout = 0;
	thread_exit(&e, 21, 20, 0, 300, 1005);
	tgroups_add(&t, &e, collect, NULL);
	thread_exit(&e, 22, 20, 0, 200, 1006);
	tgroups_add(&t, &e, collect, NULL);
	CHECK("workers held", nout == 0 && t.n == 1);
	thread_exit(&e, 20, 20, 1, 100, 1000);
	tgroups_add(&t, &e, collect, NULL);
	CHECK("one process record", nout == 1 && t.n == 0);
	CHECK("pid is the tgid", out[0].v[PROC_PID] == 20);
	CHECK("CPU summed", out[0].v[PROC_CPU_USER_NS] == 600 &&
	    out[0].v[PROC_CPU_SYS_NS] == 3);
	CHECK("leader names it", strcmp(out[0].command, "main") == 0 &&
	    out[0].v[PROC_START_NS] == 1000);
	CHECK("largest rss", out[0].v[PROC_RSS_MAX_KB] == 30);
	CHECK("latest finish", out[0].v[PROC_FINISH_NS] == 1106);
	CHECK("threads counted", out[0].v[PROC_THREADS] == 3);

	/* The leader first (pthread_exit), a worker last. */
	nout = 0;
	thread_exit(&e, 30, 30, 0, 100, 2000);
	tgroups_add(&t, &e, collect, NULL);
	thread_exit(&e, 31, 30, 1, 700, 2001);
	tgroups_add(&t, &e, collect, NULL);
	CHECK("leader first: one record", nout == 1 &&
	    out[0].v[PROC_PID] == 30 && out[0].v[PROC_CPU_USER_NS] == 800 &&
	    strcmp(out[0].command, "main") == 0);

	/* A process whose last record never came: swept once it is gone. */
	nout = 0;
	thread_exit(&e, 41, 40, 0, 50, 3000);
	tgroups_add(&t, &e, collect, NULL);
	CHECK("sweep keeps the living", tgroups_sweep(&t, never_gone, collect,
	    NULL, &n) == 0 && n == 0 && t.n == 1);
	CHECK("sweep writes the gone", tgroups_sweep(&t, always_gone, collect,
	    NULL, &n) == 0 && n == 1 && nout == 1 && t.n == 0 &&
	    out[0].v[PROC_PID] == 40);
	tgroups_release(&t);
}

/*
 * A live process asked for by tgid: its user and system tick samples,
 * elapsed time (0: no live thread) and the all-thread totals
 * (cpu_run_real_total at 64, cpu_run_virtual_total at 72, which v15
 * moves past three delay totals' max and min).
 */
static void
live_process(void)
{
	struct ts_tgid t;

	build(16, 0);
	put64(64, 352000000);			/* samples, all threads */
	CHECK("tgid v16 decodes", ts_decode_tgid(buf, 560, &t) == 0);
	CHECK("tgid v16 user", t.user_ns == 300000000);
	CHECK("tgid v16 system", t.sys_ns == 40000000);
	CHECK("tgid v16 live", t.live);
	CHECK("tgid v16 totals", t.has_totals &&
	    t.samples_ns == 352000000 && t.runtime_ns == 123456789);

	build(15, 1);
	put64(64 + 48, 352000000);
	CHECK("tgid v15 decodes", ts_decode_tgid(buf, 560 + 128, &t) == 0);
	CHECK("tgid v15 moved fields", t.user_ns == 300000000 &&
	    t.samples_ns == 352000000 && t.runtime_ns == 123456789);

	build(16, 0);
	put64(64, 0);				/* left to delay accounting */
	put64(72, 0);
	CHECK("tgid without totals", ts_decode_tgid(buf, 560, &t) == 0 &&
	    !t.has_totals && t.user_ns == 300000000);
	put64(144, 0);				/* a zombie's zeros */
	CHECK("tgid no live thread", ts_decode_tgid(buf, 560, &t) == 0 &&
	    !t.live);
	CHECK("tgid too short for the times", ts_decode_tgid(buf, 150,
	    &t) == -1);
	CHECK("tgid no version", ts_decode_tgid(buf, 1, &t) == -1);
}

/* A /proc record with user and system CPU, in ns. */
static void
proc_cpu(struct ex_proc *p, uint64_t user, uint64_t sys)
{
	memset(p, 0, sizeof(*p));
	p->v[PROC_CPU_USER_NS] = user;
	p->v[PROC_CPU_SYS_NS] = sys;
	p->present = 1ULL << PROC_CPU_USER_NS | 1ULL << PROC_CPU_SYS_NS;
}

/* snapcpu_ticks of samples split into user and sys of total, against
 * /proc's pu and ps: 1 if it gives want_u and want_s. */
static int
ticks_are(uint64_t user, uint64_t sys, uint64_t total, uint64_t pu,
    uint64_t ps, uint64_t want_u, uint64_t want_s)
{
	struct ts_tgid t = { 0 };
	struct ex_proc p;

	t.user_ns = user;
	t.sys_ns = sys;
	t.samples_ns = total;
	t.runtime_ns = 1261234567;
	t.live = t.has_totals = 1;
	proc_cpu(&p, pu, ps);
	snapcpu_ticks(&t, &p);
	return p.v[PROC_CPU_USER_NS] == want_u &&
	    p.v[PROC_CPU_SYS_NS] == want_s && REC_HAS(&p, PROC_CPU_RUN_NS) &&
	    p.v[PROC_CPU_RUN_NS] == 1261234567;
}

/*
 * snap's tick figures: cut to pacct's 10 ms as pacct cuts them; where
 * the kernel splits only live threads' samples, the whole split from
 * /proc's proportion, held within what the split samples prove.
 */
static void
tick_figures(void)
{
	const uint64_t S = 1000000000;		/* a second, in ns */

	/* All split (one thread, or a kernel that splits exited threads'
	 * too): as they are, cut (pacct would say 1.23 and 0.01), whatever
	 * /proc says. */
	CHECK("ticks: cut to 10 ms", ticks_are(1238000000, 16000000,
	    1254000000, 1250000000, 10000000, 1230000000, 10000000));
	CHECK("ticks: all split, /proc disagrees", ticks_are(S * 7 / 10,
	    S * 3 / 10, S, S / 2, S / 2, S * 7 / 10, S * 3 / 10));
	/* 0.4 s unsplit, /proc's 3:1 for the whole. */
	CHECK("ticks: exited threads", ticks_are(S / 2, S / 10, S,
	    S * 3 / 4, S / 4, S * 3 / 4, S / 4));
	/* An exited thread's 1 s of system time, then a live thread's user
	 * time grows: the split stays right, nothing goes back. */
	CHECK("ticks: exited system time, first", ticks_are(S, 0, 2 * S,
	    S, S, S, S));
	CHECK("ticks: exited system time, later", ticks_are(9 * S, 0,
	    10 * S, 9 * S, S, 9 * S, S));
	/* /proc more system than the samples allow: held to them. */
	CHECK("ticks: held to the samples", ticks_are(S / 2, S / 10, S,
	    0, S, S / 2, S / 2));
	/* /proc's times summing past 2^64 (to 0 in 64 bits): still its
	 * proportion, 1:1, held to the samples. */
	CHECK("ticks: /proc sum past 2^64", ticks_are(S / 2, S / 10, S,
	    1ull << 63, 1ull << 63, S / 2, S / 2));
	/* /proc has nothing to split by: the live split, the rest user. */
	CHECK("ticks: no proportion", ticks_are(S / 2, S / 10, S, 0, 0,
	    S * 9 / 10, S / 10));

	CHECK("measure names", snapcpu_parse("ticks") == SNAPCPU_TICKS &&
	    snapcpu_parse("runtime") == SNAPCPU_RUNTIME &&
	    snapcpu_parse("auto") == SNAPCPU_AUTO &&
	    snapcpu_parse("samples") == -1 &&
	    strcmp(snapcpu_name(SNAPCPU_TICKS), "ticks") == 0);
}

void
suite_taskstats(void)
{
	live_process();
	tick_figures();
	decode_versions();
	thread_groups();
}
