/*
 * Differencing (see diff.h for the rules).
 */
#include <string.h>

#include "diff.h"

#define BIT(f)	(1ULL << (f))

void
proc_state_begin(struct proc_state *st, int64_t proc_id,
    const struct ex_proc *obs)
{
	memset(st, 0, sizeof(*st));
	st->proc_id = proc_id;
	st->start_ns = obs->v[PROC_START_NS];
	st->t_ns = st->row_t_ns = st->start_ns;
	st->unseen = 1;
	/* Every counter starts at zero at the start. */
	for (int f = PROC_FIRST_COUNTER; f <= PROC_LAST_COUNTER; f++)
		st->present |= BIT(f);
}

/* Time-weighted interval mean of a since-start mean (docs/schema.md). */
static uint64_t
interval_mean(uint64_t a_prev, uint64_t t_prev, uint64_t a_now,
    uint64_t t_now)
{
	unsigned __int128 now = (unsigned __int128)a_now * t_now;
	unsigned __int128 prev = (unsigned __int128)a_prev * t_prev;

	if (t_now <= t_prev || now < prev)
		return a_now;
	return (uint64_t)((now - prev + (t_now - t_prev) / 2) /
	    (t_now - t_prev));
}

/*
 * Linux splits a process's CPU time into user and system differently in
 * /proc (scaled to the sampled ratio) and in its exit records (pacct,
 * taskstats), so one half can go down between a snapshot and the exit
 * while the total still grows.  The total is what must add up: keep it,
 * giving the decrease to zero and the whole increase to the other half.
 */
static void
cpu_split(const struct proc_state *st, const struct ex_proc *obs,
    struct proc_interval *out)
{
	const int u = PROC_CPU_USER_NS, s = PROC_CPU_SYS_NS;
	uint64_t pu, ps;

	if (!REC_HAS(obs, u) || !REC_HAS(obs, s) ||
	    !((st->present >> u) & 1) || !((st->present >> s) & 1))
		return;
	pu = st->v[u];
	ps = st->v[s];
	if ((obs->v[u] >= pu && obs->v[s] >= ps) ||
	    obs->v[u] + obs->v[s] < pu + ps)
		return;		/* nothing to rebalance, or a real anomaly */
	out->d[u] = obs->v[u] >= pu ? obs->v[u] + obs->v[s] - pu - ps : 0;
	out->d[s] = obs->v[s] >= ps ? obs->v[u] + obs->v[s] - pu - ps : 0;
	out->present |= BIT(u) | BIT(s);
	out->anomalies &= ~(BIT(u) | BIT(s));
}

/*
 * Tick samples and the scheduler's runtime are two counters, not one
 * (records.h: cpu_source): between an observation by each there is no
 * CPU figure.  Where either side does not say, they are taken as one.
 */
static int
cpu_source_changed(const struct proc_state *st, const struct ex_proc *obs)
{
	return REC_HAS(obs, PROC_CPU_SOURCE) && REC_HAS(st, PROC_CPU_SOURCE) &&
	    obs->v[PROC_CPU_SOURCE] != st->v[PROC_CPU_SOURCE];
}

enum diff_result
proc_diff(struct proc_state *st, const struct ex_proc *obs,
    const struct diff_opts *o, struct proc_interval *out)
{
	const uint64_t cpu = BIT(PROC_CPU_USER_NS) | BIT(PROC_CPU_SYS_NS);
	uint64_t t = obs->v[PROC_FINISH_NS], moved = 0, kept;
	uint64_t high[PROC_NFIELDS];	/* the baseline before this */
	int f, final = obs->group == EXD_GROUP_PROC, changed;
	int first = st->unseen;

	/* Only the first call is first: a state in the live table, as one
	 * loaded from proc_last, has always been seen. */
	st->unseen = 0;
	if (!REC_HAS(obs, PROC_FINISH_NS))
		return DIFF_UNTIMED;
	if (t < st->t_ns)
		return DIFF_LATE;
	/*
	 * A second observation at the time of the last is a repeat, or
	 * late; even at the start (the first may be there: a process seen
	 * the instant it began), or it would be a second interval ending
	 * there.
	 */
	if (t == st->t_ns && !first) {
		for (f = PROC_FIRST_COUNTER; f <= PROC_LAST_LEVEL; f++)
			if (REC_HAS(obs, f) != ((st->present >> f) & 1) ||
			    (REC_HAS(obs, f) && obs->v[f] != st->v[f]))
				return DIFF_LATE;
		return DIFF_DUP;
	}

	memset(out, 0, sizeof(*out));
	out->t0_ns = st->t_ns;
	out->t1_ns = t;
	out->final = final;
	out->forked = final && REC_HAS(obs, PROC_ACCTFLAGS) &&
	    (obs->v[PROC_ACCTFLAGS] & PROC_AFORK) != 0;
	changed = cpu_source_changed(st, obs);
	for (f = PROC_FIRST_COUNTER; f <= PROC_LAST_COUNTER; f++) {
		uint64_t prev;

		if (!REC_HAS(obs, f))
			continue;
		prev = (st->present >> f) & 1 ? st->v[f] : 0;
		if (obs->v[f] < prev || (changed && (BIT(f) & cpu))) {
			out->anomalies |= BIT(f);
			continue;
		}
		out->d[f] = obs->v[f] - prev;
		out->present |= BIT(f);
		moved |= out->d[f];
	}
	/*
	 * A counter that went down keeps its old value as the baseline: a
	 * lower reading is a fault of the reading (a process's counters
	 * only grow), and differencing the next reading against it would
	 * count the way back up as usage.  A change of CPU measure starts
	 * the CPU baseline anew from this observation instead.
	 */
	if (changed) {
		out->anomalies |= BIT(PROC_CPU_SOURCE);
		kept = out->anomalies & ~(cpu | BIT(PROC_CPU_SOURCE));
	} else {
		cpu_split(st, obs, out);
		kept = out->anomalies;
	}
	for (f = PROC_FIRST_COUNTER; f <= PROC_LAST_COUNTER; f++)
		high[f] = st->v[f];

	/* Levels and high-water marks: taken as they are. */
	for (f = PROC_RSS_MAX_KB; f <= PROC_LAST_LEVEL; f++)
		if (REC_HAS(obs, f)) {
			out->d[f] = obs->v[f];
			out->present |= BIT(f);
		}
	if (REC_HAS(obs, PROC_RSS_AVG_KB)) {
		uint64_t a_prev = (st->present >> PROC_RSS_AVG_KB) & 1 ?
		    st->v[PROC_RSS_AVG_KB] : 0;

		out->d[PROC_RSS_AVG_KB] = interval_mean(a_prev,
		    st->t_ns - st->start_ns, obs->v[PROC_RSS_AVG_KB],
		    t - st->start_ns);
		out->present |= BIT(PROC_RSS_AVG_KB);
	}

	/* The new baseline: this observation, but for what went down. */
	st->t_ns = t;
	st->present = obs->present;
	memcpy(st->v, obs->v, sizeof(st->v));
	for (f = PROC_FIRST_COUNTER; f <= PROC_LAST_COUNTER; f++)
		if ((kept >> f) & 1)
			st->v[f] = high[f];

	if (!final && moved == 0 && out->anomalies == 0 && !o->idle_always) {
		if (o->heartbeat_ns == 0 || t - st->row_t_ns < o->heartbeat_ns)
			return DIFF_IDLE;
		out->heartbeat = 1;
	}
	st->row_t_ns = t;
	return DIFF_ROW;
}

void
task_state_begin(struct task_state *st, int64_t task_id, uint64_t start_ns)
{
	memset(st, 0, sizeof(*st));
	st->task_id = task_id;
	st->t_ns = start_ns;
	for (int f = TASK_FIRST_COUNTER; f <= TASK_LAST_COUNTER; f++)
		st->present |= BIT(f);
}

enum diff_result
task_diff(struct task_state *st, const struct ex_task *obs,
    struct task_interval *out)
{
	uint64_t t = obs->v[TASK_FINISH_NS];
	int f, delta = obs->group == EXD_GROUP_TASK_INTERVAL;

	if (!REC_HAS(obs, TASK_FINISH_NS))
		return DIFF_UNTIMED;
	if (t < st->t_ns)
		return DIFF_LATE;
	if (t == st->t_ns && delta)
		return DIFF_DUP;	/* an interval repeated */
	if (t == st->t_ns) {
		for (f = TASK_FIRST_COUNTER; f <= TASK_LAST_COUNTER; f++)
			if (REC_HAS(obs, f) && obs->v[f] != st->v[f])
				return DIFF_LATE;
		return DIFF_DUP;
	}
	memset(out, 0, sizeof(*out));
	out->group = obs->group;
	out->t0_ns = delta && REC_HAS(obs, TASK_START_NS) ?
	    obs->v[TASK_START_NS] : st->t_ns;
	out->t1_ns = t;
	for (f = TASK_FIRST_COUNTER; f <= TASK_LAST_COUNTER; f++) {
		uint64_t prev = (st->present >> f) & 1 ? st->v[f] : 0;

		if (!REC_HAS(obs, f))
			continue;
		if (delta) {
			/* Already a delta: store it, and keep the total. */
			out->d[f] = obs->v[f];
			out->present |= BIT(f);
			if (st->v[f] > UINT64_MAX - obs->v[f])
				out->anomalies |= BIT(f);
			else
				st->v[f] = prev + obs->v[f];
			continue;
		}
		if (obs->v[f] < prev) {
			out->anomalies |= BIT(f);
			st->v[f] = obs->v[f];
			continue;
		}
		out->d[f] = obs->v[f] - prev;
		out->present |= BIT(f);
		st->v[f] = obs->v[f];
	}
	st->t_ns = t;
	return DIFF_ROW;
}

int
counter_unwrap(uint64_t prev, uint64_t cur, uint64_t max, uint64_t *d,
    int *wrapped)
{
	*wrapped = cur < prev;
	if (!*wrapped) {
		*d = cur - prev;
		return 0;
	}
	if (max == 0 || prev > max)
		return -1;
	*d = (max - prev) + cur;
	return 0;
}
