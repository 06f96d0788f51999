/*
 * The synthetic log generator (see gen.h).
 *
 * It simulates a host hour by hour and writes what the Solaris kernel
 * would: for processes, short-lived commands with one final record each,
 * long-lived daemons with an hourly partial record (wracct) and a final
 * record when they exit, pid reuse (pids wrap, and some commands get the
 * pid of one that just exited), and the three identical sched partials
 * seen in real data; for tasks, final, partial and interval records; for
 * flows, both one-way halves of each conversation with the owner only on
 * the outbound half, IPv6 conversations, a second owner on the same
 * 5-tuple, and later records of the same flow.  Members are written in
 * the kernel's resource order (illumos <sys/exacct_catalog.h>).
 *
 * Cumulative counters only ever grow, so the records obey the invariants
 * the differencing layer checks (a process's final record is the sum of
 * its intervals).
 */
#include <stdlib.h>
#include <string.h>

#include "../parsers/exacct.h"
#include "../parsers/pacct.h"
#include "gen.h"

#define T0_S		1699999200u	/* 2023-11-14 22:00:00 UTC, on the hour */
#define MAX_DAEMONS	2000

struct sim_proc {
	uint32_t	 pid, ppid, uid, gid, projid, taskid;
	uint64_t	 start_ns;
	uint64_t	 cpu_user_ns, cpu_sys_ns;
	uint64_t	 mstate[12];	/* in res# order, §5.3 */
	uint64_t	 rss_avg_kb, rss_max_kb;
	uint32_t	 acctflags, tty_major, tty_minor, wait_status;
	const char	*command;
	const char	*zone;
};

struct gen {
	FILE		*fp;
	struct exw	 w;
	uint64_t	 rng;
	uint64_t	 left;		/* records still to write */
	uint32_t	 next_pid;
	uint32_t	 last_exited_pid;
	uint64_t	 last_exit_ns;	/* when last_exited_pid exited */
	uint32_t	 last_exited_pid_taken;	/* new_pid just reused it */
	const char	*hostname;
	int		 jitter;
	uint64_t	 daemons;	/* as asked; 0: from the records */
	uint32_t	 pid_wrap;	/* pids run from 300 to this */
	int		 error;
};

static const char *const commands[] = {
	"ls", "bash", "grep", "sed", "awk", "cat", "sort", "tar", "gzip",
	"make", "cc1", "ld", "find", "perl", "python3", "ssh", "cp", "date",
	"tmux: server", "(sd-pam)",
};
static const char *const daemons[] = {
	"init", "sshd", "cron", "nscd", "syslogd", "httpd", "java", "oracle",
	"sendmail", "inetd", "automountd", "nfsmapid",
};

/* splitmix64: small, fast, good enough for test data. */
static uint64_t
rnd(struct gen *g)
{
	uint64_t z = (g->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [lo, hi]. */
static uint64_t
between(struct gen *g, uint64_t lo, uint64_t hi)
{
	return lo + rnd(g) % (hi - lo + 1);
}

static int
chance(struct gen *g, unsigned percent)
{
	return rnd(g) % 100 < percent;
}

static uint32_t
new_pid(struct gen *g)
{
	/* Sometimes take the pid of a process that just exited. */
	if (g->last_exited_pid != 0 && chance(g, 5)) {
		uint32_t p = g->last_exited_pid;

		g->last_exited_pid = 0;
		g->last_exited_pid_taken = p;
		return p;
	}
	g->last_exited_pid_taken = 0;
	if (++g->next_pid >= g->pid_wrap)
		g->next_pid = 300;
	return g->next_pid;
}

/* Write the buffered record; counts it. */
static void
flush_record(struct gen *g)
{
	if (g->error == EXR_OK && exw_error(&g->w) != EXR_OK)
		g->error = exw_error(&g->w);
	if (g->error == EXR_OK &&
	    fwrite(g->w.buf, 1, g->w.len, g->fp) != g->w.len)
		g->error = EXR_IO;
	exw_reset(&g->w);
	if (g->left > 0)
		g->left--;
}

/* A time as its two UINT64 items: seconds at sec_id, ns at the next. */
static void
put_time(struct exw *w, uint32_t sec_id, uint64_t ns)
{
	exw_uint(w, EXT_UINT64 | sec_id, ns / NS);
	exw_uint(w, EXT_UINT64 | (sec_id + 1), ns % NS);
}

/* One group-proc or group-proc-partial, "extended" resources (§5.3). */
static void
put_proc(struct gen *g, const struct sim_proc *p, uint32_t group,
    uint64_t finish_ns)
{
	static const uint32_t mstate_ids[12] = { EXD_PROC_FAULTS_MAJOR,
	    EXD_PROC_FAULTS_MINOR, EXD_PROC_MESSAGES_SND,
	    EXD_PROC_MESSAGES_RCV, EXD_PROC_BLOCKS_IN, EXD_PROC_BLOCKS_OUT,
	    EXD_PROC_CHARS_RDWR, EXD_PROC_CONTEXT_VOL, EXD_PROC_CONTEXT_INV,
	    EXD_PROC_SIGNALS, EXD_PROC_SWAPS, EXD_PROC_SYSCALLS };
	struct exw *w = &g->w;
	int i;

	exw_group_begin(w, EXT_GROUP | group);
	exw_uint(w, EXT_UINT32 | EXD_PROC_PID, p->pid);
	exw_uint(w, EXT_UINT32 | EXD_PROC_UID, p->uid);
	exw_uint(w, EXT_UINT32 | EXD_PROC_GID, p->gid);
	exw_uint(w, EXT_UINT32 | EXD_PROC_PROJID, p->projid);
	exw_uint(w, EXT_UINT32 | EXD_PROC_TASKID, p->taskid);
	put_time(w, EXD_PROC_CPU_USER_SEC, p->cpu_user_ns);
	put_time(w, EXD_PROC_CPU_SYS_SEC, p->cpu_sys_ns);
	put_time(w, EXD_PROC_START_SEC, p->start_ns);
	put_time(w, EXD_PROC_FINISH_SEC, finish_ns);
	exw_string(w, EXT_STRING | EXD_PROC_COMMAND, p->command);
	exw_uint(w, EXT_UINT32 | EXD_PROC_TTY_MAJOR, p->tty_major);
	exw_uint(w, EXT_UINT32 | EXD_PROC_TTY_MINOR, p->tty_minor);
	for (i = 0; i < 12; i++)
		exw_uint(w, EXT_UINT64 | mstate_ids[i], p->mstate[i]);
	exw_uint(w, EXT_UINT32 | EXD_PROC_ACCT_FLAGS, p->acctflags);
	exw_uint(w, EXT_UINT32 | EXD_PROC_ANCPID, p->ppid);
	exw_uint(w, EXT_UINT32 | EXD_PROC_WAIT_STATUS,
	    group == EXD_GROUP_PROC ? p->wait_status : 0);
	exw_string(w, EXT_STRING | EXD_PROC_ZONENAME, p->zone);
	exw_uint(w, EXT_UINT64 | EXD_PROC_MEM_RSS_AVG_K, p->rss_avg_kb);
	exw_uint(w, EXT_UINT64 | EXD_PROC_MEM_RSS_MAX_K, p->rss_max_kb);
	exw_group_end(w, 0);
	flush_record(g);
}

/* Add usage worth `busy` (0..1000 per mille of the span) over span_ns. */
static void
grow(struct gen *g, struct sim_proc *p, uint64_t span_ns, unsigned busy)
{
	uint64_t cpu = span_ns / 1000 * busy;		/* ns */
	uint64_t user = cpu / 100 * between(g, 30, 95);
	int i;

	p->cpu_user_ns += user;
	p->cpu_sys_ns += cpu - user;
	for (i = 0; i < 12; i++) {
		static const unsigned scale[12] = { 2, 50, 0, 0, 5, 5, 40000,
		    30, 5, 1, 0, 400 };

		if (scale[i] != 0)
			p->mstate[i] += between(g, 0, scale[i]) *
			    (1 + cpu / 10000000);
	}
	if (p->rss_max_kb < p->rss_avg_kb + between(g, 0, 4096))
		p->rss_max_kb = p->rss_avg_kb + between(g, 0, 4096);
	p->rss_avg_kb += between(g, 0, 64);
	if (p->rss_avg_kb > p->rss_max_kb)
		p->rss_max_kb = p->rss_avg_kb;
}

static void
new_process(struct gen *g, struct sim_proc *p, uint64_t start_ns,
    const char *command, uint32_t ppid)
{
	static const uint32_t uids[] = { 0, 0, 1, 100, 100, 1001, 60001 };
	static const uint32_t projs[] = { 1, 3, 10, 10, 0 };

	memset(p, 0, sizeof(*p));
	p->pid = new_pid(g);
	p->ppid = ppid;
	p->uid = uids[between(g, 0, sizeof(uids) / sizeof(uids[0]) - 1)];
	p->gid = p->uid == 0 ? 0 : 10;
	p->projid = projs[between(g, 0, sizeof(projs) / sizeof(projs[0]) - 1)];
	p->taskid = (uint32_t)between(g, 1, 400);
	p->start_ns = start_ns;
	p->command = command;
	p->zone = chance(g, 85) ? "global" : "web1";
	p->rss_avg_kb = between(g, 100, 4000);
	p->rss_max_kb = p->rss_avg_kb + between(g, 0, 30000);
	p->acctflags = p->uid == 0 ? 2 : (chance(g, 10) ? 1 : 0);
	if (chance(g, 30)) {
		p->tty_major = 24;
		p->tty_minor = (uint32_t)between(g, 0, 9);
	} else {
		p->tty_major = p->tty_minor = 0xffffffffu;
	}
	if (chance(g, 90))
		p->wait_status = 0;
	else if (chance(g, 50))
		p->wait_status = (uint32_t)between(g, 1, 127) << 8;
	else
		p->wait_status = chance(g, 20) ? 0x80 | 11 : 15;
}

static int
by_finish(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return (*x > *y) - (*x < *y);
}

static void
gen_proc(struct gen *g)
{
	struct sim_proc *d, sched, shortp;
	uint64_t ndaemons, hour, hstart, hend, snap, (*ev)[2];
	size_t i, nev;

	ndaemons = g->left / 40;
	if (ndaemons < 3)
		ndaemons = 3;
	if (ndaemons > MAX_DAEMONS)
		ndaemons = MAX_DAEMONS;
	if (g->daemons != 0)		/* as many live as asked (a bench) */
		ndaemons = g->daemons;
	if ((d = calloc(ndaemons, sizeof(*d))) == NULL) {
		g->error = EXR_NOMEM;
		return;
	}
	memset(&sched, 0, sizeof(sched));
	sched.command = "sched";
	sched.zone = "global";
	sched.start_ns = (T0_S - 86400 * 20) * NS;
	sched.tty_major = sched.tty_minor = 0xffffffffu;
	sched.acctflags = 2;
	for (i = 0; i < ndaemons; i++) {
		new_process(g, &d[i], (T0_S - between(g, 3600, 86400 * 20)) * NS
		    + between(g, 0, NS - 1), daemons[i % (sizeof(daemons) /
		    sizeof(daemons[0]))], 1);
		grow(g, &d[i], T0_S * NS - d[i].start_ns, (unsigned)between(g,
		    0, 20));
	}
	/* At most 2 * ndaemons + 6 short commands and ndaemons exits. */
	if ((ev = calloc(3 * ndaemons + 6, sizeof(*ev))) == NULL) {
		free(d);
		g->error = EXR_NOMEM;
		return;
	}
	for (hour = 0; g->left > 0; hour++) {
		hstart = (T0_S + hour * 3600) * NS;
		hend = hstart + 3600 * NS;

		/* Exits this hour: short commands and a few daemons. */
		nev = (size_t)(between(g, ndaemons / 2, 2 * ndaemons) +
		    between(g, 2, 6));
		for (i = 0; i < nev; i++) {
			ev[i][0] = between(g, hstart + NS, hend - NS);
			ev[i][1] = UINT64_MAX;		/* a short command */
		}
		for (i = 0; i < ndaemons; i++)
			if (chance(g, 2)) {
				ev[nev][0] = between(g, hstart + NS, hend - NS);
				ev[nev++][1] = i;
			}
		qsort(ev, nev, sizeof(ev[0]), by_finish);
		for (i = 0; i < nev && g->left > 0; i++) {
			uint64_t fin = ev[i][0], life;

			if (ev[i][1] == UINT64_MAX) {
				life = between(g, 1000000, 90 * NS);
				new_process(g, &shortp, fin - life,
				    commands[between(g, 0, sizeof(commands) /
				    sizeof(commands[0]) - 1)],
				    (uint32_t)between(g, 300, 30000));
				/* A reused pid: born after the last owner died. */
				if (shortp.pid == g->last_exited_pid_taken &&
				    shortp.start_ns <= g->last_exit_ns)
					shortp.start_ns = g->last_exit_ns +
					    (fin - g->last_exit_ns) / 2;
				grow(g, &shortp, fin - shortp.start_ns,
				    (unsigned)between(g, 1, 900));
				put_proc(g, &shortp, EXD_GROUP_PROC, fin);
				g->last_exited_pid = shortp.pid;
				g->last_exit_ns = fin;
			} else {
				struct sim_proc *p = &d[ev[i][1]];
				uint64_t since = p->start_ns > hstart ?
				    p->start_ns : hstart;

				grow(g, p, fin - since, 5);
				put_proc(g, p, EXD_GROUP_PROC, fin);
				g->last_exited_pid = p->pid;
				g->last_exit_ns = fin;
				/* A new instance takes its place. */
				new_process(g, p, fin + NS / 10, p->command, 1);
			}
		}

		/*
		 * The hourly wracct: a partial for every live process, on
		 * the hour or (jitter) at a random moment in its second
		 * half, never before a process's start.
		 */
		snap = g->jitter ? hend - between(g, 0, 1800 * NS) : hend;
		grow(g, &sched, 3600 * NS, 1);
		for (i = 0; i < (hour == 0 ? 3u : 1u) && g->left > 0; i++)
			put_proc(g, &sched, EXD_GROUP_PROC_PARTIAL, snap);
		for (i = 0; i < ndaemons && g->left > 0; i++) {
			uint64_t since = d[i].start_ns > hstart ?
			    d[i].start_ns : hstart;
			uint64_t t = snap > d[i].start_ns ? snap :
			    d[i].start_ns + NS / 10;

			grow(g, &d[i], t - since, (unsigned)between(g, 0,
			    30));
			put_proc(g, &d[i], EXD_GROUP_PROC_PARTIAL, t);
		}
	}
	free(ev);
	free(d);
}

struct sim_task {
	uint32_t	 taskid, projid, anctaskid;
	uint64_t	 start_ns, last_ns;
	uint64_t	 cpu_user_ns, cpu_sys_ns, mstate[12];
	uint64_t	 base_user_ns, base_sys_ns, base_mstate[12];
	int		 interval_mode, intervals;
	const char	*zone;
};

/* One task record; interval records carry deltas after the first. */
static void
put_task(struct gen *g, struct sim_task *t, uint32_t group, uint64_t now)
{
	static const uint32_t mstate_ids[12] = { EXD_TASK_FAULTS_MAJOR,
	    EXD_TASK_FAULTS_MINOR, EXD_TASK_MESSAGES_SND,
	    EXD_TASK_MESSAGES_RCV, EXD_TASK_BLOCKS_IN, EXD_TASK_BLOCKS_OUT,
	    EXD_TASK_CHARS_RDWR, EXD_TASK_CONTEXT_VOL, EXD_TASK_CONTEXT_INV,
	    EXD_TASK_SIGNALS, EXD_TASK_SWAPS, EXD_TASK_SYSCALLS };
	struct exw *w = &g->w;
	int delta = group == EXD_GROUP_TASK_INTERVAL && t->intervals > 0;
	uint64_t start = delta ? t->last_ns : t->start_ns;
	int i;

	exw_group_begin(w, EXT_GROUP | group);
	exw_uint(w, EXT_UINT32 | EXD_TASK_TASKID, t->taskid);
	exw_uint(w, EXT_UINT32 | EXD_TASK_PROJID, t->projid);
	/* The kernel writes task CPU system-first (§5.4). */
	put_time(w, EXD_TASK_CPU_SYS_SEC,
	    t->cpu_sys_ns - (delta ? t->base_sys_ns : 0));
	put_time(w, EXD_TASK_CPU_USER_SEC,
	    t->cpu_user_ns - (delta ? t->base_user_ns : 0));
	put_time(w, EXD_TASK_START_SEC, start);
	put_time(w, EXD_TASK_FINISH_SEC, now);
	exw_string(w, EXT_STRING | EXD_TASK_HOSTNAME, g->hostname);
	for (i = 0; i < 12; i++)
		exw_uint(w, EXT_UINT64 | mstate_ids[i], t->mstate[i] -
		    (delta ? t->base_mstate[i] : 0));
	exw_uint(w, EXT_UINT32 | EXD_TASK_ANCTASKID, t->anctaskid);
	exw_string(w, EXT_STRING | EXD_TASK_ZONENAME, t->zone);
	exw_group_end(w, 0);
	flush_record(g);
	if (group == EXD_GROUP_TASK_INTERVAL) {
		t->intervals++;
		t->last_ns = now;
		t->base_user_ns = t->cpu_user_ns;
		t->base_sys_ns = t->cpu_sys_ns;
		memcpy(t->base_mstate, t->mstate, sizeof(t->mstate));
	}
}

static void
new_task(struct gen *g, struct sim_task *t, uint32_t id, uint64_t start)
{
	memset(t, 0, sizeof(*t));
	t->taskid = id;
	t->projid = (uint32_t)between(g, 0, 12);
	t->anctaskid = (uint32_t)between(g, 0, id);
	t->start_ns = t->last_ns = start;
	t->interval_mode = chance(g, 40);
	t->zone = chance(g, 80) ? "global" : "web1";
}

static void
task_grow(struct gen *g, struct sim_task *t)
{
	int i;

	t->cpu_user_ns += between(g, 0, 50 * NS);
	t->cpu_sys_ns += between(g, 0, 10 * NS);
	for (i = 0; i < 12; i++)
		if (i != 2 && i != 3 && i != 10)
			t->mstate[i] += between(g, 0, 1000);
}

static void
gen_task(struct gen *g)
{
	struct sim_task live[64];
	uint32_t next_id = 100;
	uint64_t hour, now;
	size_t i, n = 16;

	for (i = 0; i < n; i++)
		new_task(g, &live[i], next_id++, (T0_S - between(g, 60,
		    86400)) * NS);
	for (hour = 0; g->left > 0; hour++) {
		now = (T0_S + (hour + 1) * 3600) * NS;
		for (i = 0; i < n && g->left > 0; i++) {
			struct sim_task *t = &live[i];

			task_grow(g, t);
			if (chance(g, 15)) {
				uint64_t end = now - between(g, NS, 3000 * NS);

				put_task(g, t, EXD_GROUP_TASK, end);
				new_task(g, t, next_id++, end + NS);
			} else {
				put_task(g, t, t->interval_mode ?
				    EXD_GROUP_TASK_INTERVAL :
				    EXD_GROUP_TASK_PARTIAL, now);
			}
		}
	}
}

/* One group-flow.  v6 addresses go as RAW in network order. */
static void
put_flow(struct gen *g, int v6, const uint8_t *src, const uint8_t *dst,
    uint32_t sport, uint32_t dport, uint32_t proto, uint64_t ctime,
    uint64_t lseen, uint64_t bytes, uint64_t pkts, int64_t projid,
    int64_t uid)
{
	struct exw *w = &g->w;

	exw_group_begin(w, EXT_GROUP | EXD_GROUP_FLOW);
	if (v6) {
		exw_bytes(w, EXT_RAW | EXD_FLOW_V6_SADDR, src, 16);
		exw_bytes(w, EXT_RAW | EXD_FLOW_V6_DADDR, dst, 16);
	} else {
		exw_uint(w, EXT_UINT32 | EXD_FLOW_V4_SADDR, (uint64_t)src[0] << 24 |
		    (uint64_t)src[1] << 16 | (uint64_t)src[2] << 8 | src[3]);
		exw_uint(w, EXT_UINT32 | EXD_FLOW_V4_DADDR, (uint64_t)dst[0] << 24 |
		    (uint64_t)dst[1] << 16 | (uint64_t)dst[2] << 8 | dst[3]);
	}
	exw_uint(w, EXT_UINT16 | EXD_FLOW_SPORT, sport);
	exw_uint(w, EXT_UINT16 | EXD_FLOW_DPORT, dport);
	exw_uint(w, EXT_UINT8 | EXD_FLOW_PROTOCOL, proto);
	exw_uint(w, EXT_UINT8 | EXD_FLOW_DSFIELD, 0);
	exw_uint(w, EXT_UINT64 | EXD_FLOW_CTIME, ctime);
	exw_uint(w, EXT_UINT64 | EXD_FLOW_LSEEN, lseen);
	exw_uint(w, EXT_UINT32 | EXD_FLOW_NBYTES, bytes);
	exw_uint(w, EXT_UINT32 | EXD_FLOW_NPKTS, pkts);
	/* Negative project or user: the item is left out (§5.6). */
	if (projid >= 0)
		exw_uint(w, EXT_UINT32 | EXD_FLOW_PROJID, (uint64_t)projid);
	if (uid >= 0)
		exw_uint(w, EXT_UINT32 | EXD_FLOW_UID, (uint64_t)uid);
	exw_string(w, EXT_STRING | EXD_FLOW_ANAME, "acct");
	exw_group_end(w, 0);
	flush_record(g);
}

static void
gen_flow(struct gen *g)
{
	static const uint8_t here4[16] = { 10, 0, 0, 5 };
	static const uint8_t here6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0,
	    0, 0, 0, 0, 0, 0, 0, 0, 5 };
	uint8_t there[16];
	uint64_t t = T0_S, out_b, in_b, out_p, in_p, dur;
	uint32_t lport, rport, proto;
	int64_t uid, proj;
	int v6, i;

	while (g->left > 0) {
		v6 = chance(g, 20);
		memset(there, 0, sizeof(there));
		if (v6) {
			memcpy(there, here6, 16);
			there[14] = (uint8_t)between(g, 0, 255);
			there[15] = (uint8_t)between(g, 1, 254);
		} else {
			there[0] = 192;
			there[1] = 0;
			there[2] = 2;
			there[3] = (uint8_t)between(g, 1, 254);
		}
		proto = chance(g, 80) ? 6 : 17;
		lport = (uint32_t)between(g, 32768, 60999);
		rport = chance(g, 70) ? 80 : (chance(g, 50) ? 443 : 53);
		t += between(g, 0, 30);
		dur = between(g, 0, 120);
		out_p = between(g, 1, 40);
		in_p = between(g, 1, 60);
		out_b = out_p * between(g, 40, 1500);
		in_b = in_p * between(g, 40, 1500);
		uid = chance(g, 10) ? -1 : (int64_t)between(g, 100, 110);
		proj = uid < 0 ? -1 : 10;
		/* Inbound half: no owner.  Outbound half: the owner. */
		put_flow(g, v6, there, v6 ? here6 : here4, rport, lport, proto,
		    t, t + dur, in_b, in_p, -1, -1);
		if (g->left == 0)
			break;
		put_flow(g, v6, v6 ? here6 : here4, there, lport, rport, proto,
		    t, t + dur, out_b, out_p, proj, uid);
		/* The same direction again under another owner. */
		if (g->left > 0 && chance(g, 5))
			put_flow(g, v6, v6 ? here6 : here4, there, lport,
			    rport, proto, t, t + dur, 240, 6, 0, 0);
		/* A later record of the same flow: totals so far. */
		for (i = 0; i < 2 && g->left > 0 && chance(g, 10); i++) {
			dur += between(g, 1, 60);
			out_b += between(g, 40, 5000);
			out_p += between(g, 1, 5);
			put_flow(g, v6, v6 ? here6 : here4, there, lport,
			    rport, proto, t, t + dur, out_b, out_p, proj, uid);
		}
	}
}

static void
put16(uint8_t *p, uint16_t v, int be)
{
	p[be ? 0 : 1] = (uint8_t)(v >> 8);
	p[be ? 1 : 0] = (uint8_t)v;
}

static void
put32(uint8_t *p, uint32_t v, int be)
{
	put16(p + (be ? 0 : 2), (uint16_t)(v >> 16), be);
	put16(p + (be ? 2 : 0), (uint16_t)v, be);
}

/*
 * Linux process accounting records (pacct.h has the layouts): short
 * commands, a few long ones, some killed by signals, in exit order.
 */
static void
gen_pacct(struct gen *g, int version, int be)
{
	uint64_t t = (uint64_t)T0_S * 100;	/* exit time, 1/100 s ticks */
	uint32_t ahz = version == 2 ? 1000 : 100;	/* v2 says its AHZ */

	while (g->left > 0) {
		uint8_t r[64];
		uint64_t etime, utime, stime;
		const char *cmd = commands[between(g, 0, sizeof(commands) /
		    sizeof(commands[0]) - 1)];
		uint32_t uid = chance(g, 30) ? 0 : (uint32_t)between(g, 1000,
		    1010), exitcode, btime;
		uint8_t flag = (uint8_t)((uid == 0 ? 0x02 : 0) |
		    (chance(g, 10) ? 0x01 : 0));

		t += between(g, 0, 50);
		etime = chance(g, 5) ? between(g, 100, 360000) :
		    between(g, 0, 300);
		utime = between(g, 0, etime);
		stime = between(g, 0, etime - utime);
		btime = (uint32_t)((t - etime) / 100);
		if (chance(g, 5)) {
			exitcode = (uint32_t)between(g, 1, 15);
			flag |= 0x10;
		} else
			exitcode = chance(g, 90) ? 0 :
			    (uint32_t)between(g, 1, 255) << 8;
		memset(r, 0, sizeof(r));
		r[0] = flag;
		r[1] = (uint8_t)(version | (be ? 0x80 : 0));
		if (version == 3) {
			float fe = (float)etime;
			uint32_t bits;

			memcpy(&bits, &fe, sizeof(bits));
			put16(r + 2, chance(g, 20) ? 0x8801 : 0, be);
			put32(r + 4, exitcode, be);
			put32(r + 8, uid, be);
			put32(r + 12, uid == 0 ? 0 : 100, be);
			put32(r + 16, new_pid(g), be);
			put32(r + 20, (uint32_t)between(g, 1, 29999), be);
			put32(r + 24, btime, be);
			put32(r + 28, bits, be);
			put16(r + 32, pacct_encode_comp_t(utime), be);
			put16(r + 34, pacct_encode_comp_t(stime), be);
			put16(r + 36, pacct_encode_comp_t(between(g, 1000,
			    900000)), be);
			put16(r + 42, pacct_encode_comp_t(between(g, 50,
			    90000)), be);
			put16(r + 44, pacct_encode_comp_t(between(g, 0, 40)),
			    be);
			memcpy(r + 48, cmd, strnlen(cmd, 16));
		} else {
			uint64_t scale = version == 2 ? ahz / 100 : 1;
			uint32_t e2 = pacct_encode_comp2_t(etime * scale);

			put16(r + 2, (uint16_t)uid, be);
			put16(r + 4, uid == 0 ? 0 : 100, be);
			put16(r + 6, chance(g, 20) ? 0x8801 : 0, be);
			put32(r + 8, btime, be);
			put16(r + 12, pacct_encode_comp_t(utime * scale), be);
			put16(r + 14, pacct_encode_comp_t(stime * scale), be);
			put16(r + 16, pacct_encode_comp_t(etime * scale), be);
			put16(r + 18, pacct_encode_comp_t(between(g, 1000,
			    900000)), be);
			put16(r + 24, pacct_encode_comp_t(between(g, 50,
			    90000)), be);
			put16(r + 26, pacct_encode_comp_t(between(g, 0, 40)),
			    be);
			put32(r + 32, exitcode, be);
			memcpy(r + 36, cmd, strnlen(cmd, 16));
			if (version == 2) {
				put16(r + 30, (uint16_t)ahz, be);
				r[53] = (uint8_t)(e2 >> 16);
				put16(r + 54, (uint16_t)e2, be);
				put32(r + 56, uid, be);
				put32(r + 60, uid == 0 ? 0 : 100, be);
			}
		}
		if (fwrite(r, 1, sizeof(r), g->fp) != sizeof(r))
			g->error = EXR_IO;
		g->left--;
	}
}

int
gen_write(FILE *fp, const struct gen_opts *o)
{
	struct gen g;

	memset(&g, 0, sizeof(g));
	g.fp = fp;
	g.rng = o->seed;
	g.left = o->records;
	g.next_pid = 300;
	g.hostname = o->hostname != NULL ? o->hostname : "genhost";
	g.jitter = o->jitter;
	g.daemons = o->daemons;
	/* Room for every daemon and the commands around them to have
	 * pids of their own (30,000, as a default Linux, otherwise). */
	g.pid_wrap = o->daemons > 7000 ? (uint32_t)(4 * o->daemons) : 30000;
	if (o->kind == GEN_PACCT) {
		/* No header: a pacct file is records from its first byte. */
		gen_pacct(&g, o->pacct_version, o->big_endian);
		return g.error;
	}
	exw_init(&g.w);
	if (o->kind == GEN_ENERGY) {
		/* Not a kernel's log: the sampler's own, creator extracct. */
		exw_header(&g.w, "extracct", g.hostname, EXW_HEADER_LIBRARY);
		g.error = exw_error(&g.w);
		if (g.error == EXR_OK)
			g.error = gen_energy(fp, o, &g.w);
		exw_release(&g.w);
		return g.error;
	}
	exw_header(&g.w, "SunOS", g.hostname, EXW_HEADER_KERNEL);
	g.error = exw_error(&g.w);
	if (g.error == EXR_OK &&
	    fwrite(g.w.buf, 1, g.w.len, fp) != g.w.len)
		g.error = EXR_IO;
	exw_reset(&g.w);
	switch (o->kind) {
	case GEN_PROC:
		gen_proc(&g);
		break;
	case GEN_TASK:
		gen_task(&g);
		break;
	case GEN_FLOW:
		gen_flow(&g);
		break;
	case GEN_PACCT:
	case GEN_ENERGY:
		break;
	}
	exw_release(&g.w);
	return g.error;
}
