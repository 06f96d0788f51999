/*
 * Differencing and flow pairing on hand-made observations.
 */
#include <string.h>

#include "../../store/diff.h"
#include "../../store/flows.h"
#include "check.h"

#define S	1000000000ull

static void
obs(struct ex_proc *p, uint32_t group, uint64_t start_s, uint64_t t_s,
    uint64_t cpu_ns, uint64_t avg_kb)
{
	memset(p, 0, sizeof(*p));
	p->group = group;
	p->v[PROC_START_NS] = start_s * S;
	p->v[PROC_FINISH_NS] = t_s * S;
	p->v[PROC_CPU_USER_NS] = cpu_ns;
	p->v[PROC_RSS_AVG_KB] = avg_kb;
	p->present = 1ULL << PROC_START_NS | 1ULL << PROC_FINISH_NS |
	    1ULL << PROC_CPU_USER_NS | 1ULL << PROC_RSS_AVG_KB;
}

static void
test_proc_diff(void)
{
	struct diff_opts o = { 0, 24 * 3600 * S };
	struct proc_state st;
	struct proc_interval iv;
	struct ex_proc p;

	obs(&p, EXD_GROUP_PROC_PARTIAL, 100, 200, 5 * S, 1000);
	proc_state_begin(&st, 1, &p);
	CHECK("first row", proc_diff(&st, &p, &o, &iv) == DIFF_ROW &&
	    iv.t0_ns == 100 * S && iv.t1_ns == 200 * S &&
	    iv.d[PROC_CPU_USER_NS] == 5 * S && iv.d[PROC_RSS_AVG_KB] == 1000);
	CHECK("only present counters", (iv.present >> PROC_CPU_SYS_NS & 1) == 0);
	CHECK("duplicate", proc_diff(&st, &p, &o, &iv) == DIFF_DUP);
	obs(&p, EXD_GROUP_PROC_PARTIAL, 100, 150, 1 * S, 1000);
	CHECK("late", proc_diff(&st, &p, &o, &iv) == DIFF_LATE);
	/* RSS mean 1000 over 100 s, then 2000 over 200 s: 3000 in the
	 * second 100 s. */
	obs(&p, EXD_GROUP_PROC_PARTIAL, 100, 300, 7 * S, 2000);
	CHECK("second row", proc_diff(&st, &p, &o, &iv) == DIFF_ROW &&
	    iv.t0_ns == 200 * S && iv.d[PROC_CPU_USER_NS] == 2 * S &&
	    iv.d[PROC_RSS_AVG_KB] == 3000);
	obs(&p, EXD_GROUP_PROC_PARTIAL, 100, 400, 7 * S, 2000);
	CHECK("idle", proc_diff(&st, &p, &o, &iv) == DIFF_IDLE);
	obs(&p, EXD_GROUP_PROC_PARTIAL, 100, 400 + 24 * 3600, 7 * S, 2000);
	CHECK("heartbeat", proc_diff(&st, &p, &o, &iv) == DIFF_ROW &&
	    iv.heartbeat && iv.d[PROC_CPU_USER_NS] == 0);
	obs(&p, EXD_GROUP_PROC_PARTIAL, 100, 500 + 24 * 3600, 6 * S, 2000);
	CHECK("backwards", proc_diff(&st, &p, &o, &iv) == DIFF_ROW &&
	    (iv.anomalies >> PROC_CPU_USER_NS & 1) &&
	    !(iv.present >> PROC_CPU_USER_NS & 1));
	obs(&p, EXD_GROUP_PROC, 100, 600 + 24 * 3600, 6 * S, 2000);
	CHECK("final without change still a row",
	    proc_diff(&st, &p, &o, &iv) == DIFF_ROW && iv.final &&
	    iv.d[PROC_CPU_USER_NS] == 0);
	p.present &= ~(1ULL << PROC_FINISH_NS);
	CHECK("untimed", proc_diff(&st, &p, &o, &iv) == DIFF_UNTIMED);
}

/*
 * A process seen the instant it began: that first observation is an
 * interval [start, start]; a second one at that instant must not be
 * another interval ending there (one row per interval, schema 6), in a
 * state just begun or one loaded from the store.
 */
static void
test_at_start(void)
{
	struct diff_opts o = { 1, 0 };		/* idle_rows: always */
	struct proc_state st, loaded;
	struct proc_interval iv;
	struct ex_proc p;

	obs(&p, EXD_GROUP_PROC_PARTIAL, 100, 100, 0, 0);
	proc_state_begin(&st, 1, &p);
	CHECK("at start: a row", proc_diff(&st, &p, &o, &iv) == DIFF_ROW &&
	    iv.t0_ns == 100 * S && iv.t1_ns == 100 * S);
	loaded = st;
	CHECK("at start again: duplicate", proc_diff(&st, &p, &o, &iv) ==
	    DIFF_DUP);
	obs(&p, EXD_GROUP_PROC, 100, 100, 1, 0);
	CHECK("at start, other counters: late", proc_diff(&st, &p, &o,
	    &iv) == DIFF_LATE);
	CHECK("loaded state: the same", proc_diff(&loaded, &p, &o, &iv) ==
	    DIFF_LATE);
	obs(&p, EXD_GROUP_PROC, 100, 101, 1, 0);
	CHECK("then on", proc_diff(&st, &p, &o, &iv) == DIFF_ROW &&
	    iv.t0_ns == 100 * S && iv.t1_ns == 101 * S);
}

static void
test_cpu_split(void)
{
	struct diff_opts o = { 0, 0 };
	struct proc_state st;
	struct proc_interval iv;
	struct ex_proc p;

	obs(&p, EXD_GROUP_PROC_PARTIAL, 0, 10, 5 * S, 0);
	p.v[PROC_CPU_SYS_NS] = 3 * S;
	p.present |= 1ULL << PROC_CPU_SYS_NS;
	proc_state_begin(&st, 1, &p);
	(void)proc_diff(&st, &p, &o, &iv);
	/* Exit: user 4 s (down), system 5 s: total 9 > 8. */
	obs(&p, EXD_GROUP_PROC, 0, 20, 4 * S, 0);
	p.v[PROC_CPU_SYS_NS] = 5 * S;
	p.present |= 1ULL << PROC_CPU_SYS_NS;
	CHECK("split rebalanced", proc_diff(&st, &p, &o, &iv) == DIFF_ROW &&
	    iv.d[PROC_CPU_USER_NS] == 0 && iv.d[PROC_CPU_SYS_NS] == 1 * S &&
	    iv.anomalies == 0);
	/* Both down: a real anomaly. */
	obs(&p, EXD_GROUP_PROC, 0, 30, 1 * S, 0);
	p.v[PROC_CPU_SYS_NS] = 1 * S;
	p.present |= 1ULL << PROC_CPU_SYS_NS;
	CHECK("total down is an anomaly", proc_diff(&st, &p, &o, &iv) ==
	    DIFF_ROW && (iv.anomalies >> PROC_CPU_USER_NS & 1) &&
	    (iv.anomalies >> PROC_CPU_SYS_NS & 1));
}

/* A partial at t_s with system CPU cs centiseconds, by measure src. */
static void
flip_obs(struct ex_proc *p, uint64_t t_s, uint64_t cs, int src)
{
	obs(p, EXD_GROUP_PROC_PARTIAL, 0, t_s, 0, 0);
	p->v[PROC_CPU_SYS_NS] = cs * 10000000ull;
	p->v[PROC_CPU_SOURCE] = (uint64_t)src;
	p->present |= 1ULL << PROC_CPU_SYS_NS | 1ULL << PROC_CPU_SOURCE;
}

/*
 * A kernel thread's CPU read 21.74, 6.81, 21.74, 21.75 s in
 * one-second snapshots.  The way back up is no usage; a change of
 * measure is never differenced.
 */
static void
test_cpu_flip(void)
{
	static const uint64_t cs[] = { 2174, 681, 2174, 2175, 681, 2175 };
	struct diff_opts o = { 1, 0 };
	struct proc_state st;
	struct proc_interval iv;
	struct ex_proc p;
	uint64_t sum = 0, most = 0;
	size_t i;
	int dips = 0;

	flip_obs(&p, 10, cs[0], CPU_SOURCE_TICKS);
	proc_state_begin(&st, 1, &p);
	(void)proc_diff(&st, &p, &o, &iv);
	for (i = 1; i < sizeof(cs) / sizeof(cs[0]); i++) {
		flip_obs(&p, 10 + i, cs[i], CPU_SOURCE_TICKS);
		if (proc_diff(&st, &p, &o, &iv) != DIFF_ROW)
			continue;
		if (iv.anomalies >> PROC_CPU_SYS_NS & 1)
			dips++;
		else if (iv.present >> PROC_CPU_SYS_NS & 1) {
			sum += iv.d[PROC_CPU_SYS_NS];
			if (iv.d[PROC_CPU_SYS_NS] > most)
				most = iv.d[PROC_CPU_SYS_NS];
		}
	}
	CHECK("dips are anomalies", dips == 2);
	CHECK("the way back up is no usage: 0.01 s in all",
	    sum == 10000000ull && most == 10000000ull);
	CHECK("the baseline is the highest reading",
	    st.v[PROC_CPU_SYS_NS] == 2175 * 10000000ull);

	/* The same process read by the other measure: no CPU figure. */
	flip_obs(&p, 20, 7000, CPU_SOURCE_RUNTIME);
	CHECK("measure changed: CPU is NULL, flagged",
	    proc_diff(&st, &p, &o, &iv) == DIFF_ROW &&
	    !(iv.present >> PROC_CPU_SYS_NS & 1) &&
	    (iv.anomalies >> PROC_CPU_SYS_NS & 1) &&
	    (iv.anomalies >> PROC_CPU_SOURCE & 1));
	flip_obs(&p, 21, 7001, CPU_SOURCE_RUNTIME);
	CHECK("then differenced within the new measure",
	    proc_diff(&st, &p, &o, &iv) == DIFF_ROW && iv.anomalies == 0 &&
	    iv.d[PROC_CPU_SYS_NS] == 10000000ull);
	flip_obs(&p, 22, 2180, CPU_SOURCE_TICKS);
	CHECK("and back: a lower figure by the other measure is no dip",
	    proc_diff(&st, &p, &o, &iv) == DIFF_ROW &&
	    (iv.anomalies >> PROC_CPU_SOURCE & 1) &&
	    st.v[PROC_CPU_SYS_NS] == 2180 * 10000000ull);
	/* Without a measure on either side: one counter, as before. */
	flip_obs(&p, 23, 2181, CPU_SOURCE_TICKS);
	p.present &= ~(1ULL << PROC_CPU_SOURCE);
	CHECK("unknown measure: differenced",
	    proc_diff(&st, &p, &o, &iv) == DIFF_ROW && iv.anomalies == 0 &&
	    iv.d[PROC_CPU_SYS_NS] == 10000000ull);
}

static void
test_task_diff(void)
{
	struct task_state st;
	struct task_interval iv;
	struct ex_task t;

	memset(&t, 0, sizeof(t));
	t.present = 1ULL << TASK_START_NS | 1ULL << TASK_FINISH_NS |
	    1ULL << TASK_CPU_USER_NS;
	task_state_begin(&st, 1, 10 * S);
	t.group = EXD_GROUP_TASK_INTERVAL;
	t.v[TASK_START_NS] = 10 * S;
	t.v[TASK_FINISH_NS] = 20 * S;
	t.v[TASK_CPU_USER_NS] = 4;
	CHECK("interval 1", task_diff(&st, &t, &iv) == DIFF_ROW &&
	    iv.d[TASK_CPU_USER_NS] == 4 && iv.t0_ns == 10 * S);
	t.v[TASK_START_NS] = 20 * S;
	t.v[TASK_FINISH_NS] = 30 * S;
	t.v[TASK_CPU_USER_NS] = 3;
	CHECK("interval 2 is a delta", task_diff(&st, &t, &iv) == DIFF_ROW &&
	    iv.d[TASK_CPU_USER_NS] == 3 && iv.t0_ns == 20 * S);
	CHECK("interval repeated", task_diff(&st, &t, &iv) == DIFF_DUP);
	t.group = EXD_GROUP_TASK;
	t.v[TASK_START_NS] = 10 * S;
	t.v[TASK_FINISH_NS] = 40 * S;
	t.v[TASK_CPU_USER_NS] = 9;
	CHECK("final minus totals", task_diff(&st, &t, &iv) == DIFF_ROW &&
	    iv.d[TASK_CPU_USER_NS] == 2 && iv.t0_ns == 30 * S);
}

static void
half(struct flow_half *h, const char *src, uint32_t sp, const char *dst,
    uint32_t dp, uint64_t bytes, int uid)
{
	memset(h, 0, sizeof(*h));
	h->protocol = 6;
	snprintf(h->src, sizeof(h->src), "%s", src);
	snprintf(h->dst, sizeof(h->dst), "%s", dst);
	h->sport = sp;
	h->dport = dp;
	h->ctime_s = 100;
	h->lseen_s = 102;
	h->bytes = bytes;
	h->packets = 1;
	if (uid >= 0) {
		h->has_uid = h->has_projid = 1;
		h->uid = (uint32_t)uid;
		h->projid = 10;
	}
}

static void
test_flows(void)
{
	struct flow_half h[4];
	struct flow_conv c[4];
	char k1[160], k2[160];
	size_t n;

	half(&h[0], "192.0.2.80", 80, "198.51.100.7", 43727, 3447, -1);
	half(&h[1], "198.51.100.7", 43727, "192.0.2.80", 80, 4561, 100);
	flow_ckey(&h[0], k1, sizeof(k1));
	flow_ckey(&h[1], k2, sizeof(k2));
	CHECK("same key both ways", strcmp(k1, k2) == 0);
	n = flow_pair(h, 2, c);
	CHECK("one conversation", n == 1 && c[0].paired &&
	    c[0].uid == 100 && c[0].bytes_out == 4561 &&
	    c[0].bytes_in == 3447 && c[0].local_port == 43727);

	/* Two owners outbound: inbound to the bigger one only. */
	half(&h[0], "192.0.2.80", 80, "198.51.100.7", 5, 4148, -1);
	half(&h[1], "198.51.100.7", 5, "192.0.2.80", 80, 15082, 100);
	half(&h[2], "198.51.100.7", 5, "192.0.2.80", 80, 240, 0);
	n = flow_pair(h, 3, c);
	CHECK("two rows", n == 2);
	CHECK("bytes once", c[0].bytes_in + c[1].bytes_in == 4148 &&
	    c[0].bytes_out + c[1].bytes_out == 15322);
	CHECK("inbound to the dominant owner",
	    (c[0].uid == 100 ? c[0].bytes_in : c[1].bytes_in) == 4148);

	/* Not overlapping in time: two conversations, one-sided each. */
	half(&h[0], "192.0.2.80", 80, "198.51.100.7", 6, 10, -1);
	half(&h[1], "198.51.100.7", 6, "192.0.2.80", 80, 20, 7);
	h[1].ctime_s = 500;
	h[1].lseen_s = 510;
	n = flow_pair(h, 2, c);
	CHECK("apart in time", n == 2 && !c[0].paired && !c[1].paired);
	CHECK("inbound only: host is the destination",
	    strcmp(c[0].local, "198.51.100.7") == 0 && c[0].bytes_in == 10 &&
	    !c[0].has_uid);
}

/* RAPL's counter wraps at max_energy_range_uj. */
static void
test_unwrap(void)
{
	const uint64_t max = 262143328850ull;	/* a real package range */
	uint64_t d = 0;
	int w = -1;

	CHECK("wrap: (max - prev) + cur", counter_unwrap(max - 1000, 500,
	    max, &d, &w) == 0 && w == 1 && d == 1500);
	CHECK("no wrap", counter_unwrap(1000, 2500, max, &d, &w) == 0 &&
	    w == 0 && d == 1500);
	CHECK("unchanged", counter_unwrap(7, 7, max, &d, &w) == 0 && d == 0);
	CHECK("down without a range: not a wrap", counter_unwrap(10, 5, 0,
	    &d, &w) == -1);
	CHECK("prev above the range: not a wrap", counter_unwrap(max + 9, 5,
	    max, &d, &w) == -1);
}

void
suite_diff(void)
{
	test_unwrap();
	test_proc_diff();
	test_at_start();
	test_cpu_split();
	test_cpu_flip();
	test_task_diff();
	test_flows();
}
