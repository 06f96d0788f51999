/*
 * Taskstats over generic netlink (see taskstats.h).
 */
#include <sys/socket.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "taskstats.h"

#define NS_PER_US	1000u
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

/* The attributes of a netlink payload, walked safely. */
#define NLA_NEXT(a)	((const struct nlattr *)((const uint8_t *)(a) + \
			    NLA_ALIGN((a)->nla_len)))
#define NLA_OK(a, end)	((const uint8_t *)(a) + NLA_HDRLEN <= (end) && \
			    (a)->nla_len >= NLA_HDRLEN && \
			    (const uint8_t *)(a) + (a)->nla_len <= (end))
#define NLA_DATA(a)	((const uint8_t *)(a) + NLA_HDRLEN)
#define NLA_LEN(a)	((size_t)(a)->nla_len - NLA_HDRLEN)

/*
 * One AGGR_PID or AGGR_TGID nest: its id and its stats.  Returns 1
 * with *stats set if it has both.
 */
static int
aggr(const struct nlattr *nest, uint32_t *id, const struct nlattr **stats)
{
	const uint8_t *end = NLA_DATA(nest) + NLA_LEN(nest);
	const struct nlattr *a = (const struct nlattr *)NLA_DATA(nest);
	int have_id = 0;

	*stats = NULL;
	for (; NLA_OK(a, end); a = NLA_NEXT(a)) {
		int type = a->nla_type & NLA_TYPE_MASK;

		if ((type == TASKSTATS_TYPE_PID ||
		    type == TASKSTATS_TYPE_TGID) && NLA_LEN(a) >= 4) {
			memcpy(id, NLA_DATA(a), 4);
			have_id = 1;
		} else if (type == TASKSTATS_TYPE_STATS)
			*stats = a;
	}
	return have_id && *stats != NULL;
}

/* One TASKSTATS_CMD_NEW: the thread's record, and whether it ended the
 * process (the aggregate comes along only then). */
static int
on_new(const struct nlmsghdr *n, ts_exit_fn fn, void *arg)
{
	const uint8_t *end = (const uint8_t *)n + n->nlmsg_len;
	const struct nlattr *a, *stats, *pid_stats = NULL;
	struct ts_exit e;
	uint32_t id, pid = 0, tgid = 0;

	if (n->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN))
		return 0;
	a = (const struct nlattr *)((const uint8_t *)NLMSG_DATA(n) +
	    GENL_HDRLEN);
	for (; NLA_OK(a, end); a = NLA_NEXT(a)) {
		int type = a->nla_type & NLA_TYPE_MASK;

		if (type == TASKSTATS_TYPE_AGGR_PID && aggr(a, &id, &stats)) {
			pid = id;
			pid_stats = stats;
		} else if (type == TASKSTATS_TYPE_AGGR_TGID &&
		    aggr(a, &id, &stats))
			tgid = id;
	}
	if (pid_stats == NULL ||
	    ts_decode(NLA_DATA(pid_stats), NLA_LEN(pid_stats), &e) != 0)
		return 0;
	/* The message's ids are the kernel's own: trust them over the
	 * struct's (absent before v2 and v12). */
	e.pid = pid;
	e.p.v[PROC_PID] = pid;
	e.p.present |= 1ULL << PROC_PID;
	if (e.tgid == 0 || e.version < 12)
		e.tgid = pid;
	/*
	 * Before v12 a thread's record names no process and has no
	 * AGROUP: each stands alone (a multi-threaded process's threads
	 * then count as processes of their own, its CPU still once).
	 */
	if (e.version < 12)
		e.group_dead = 1;
	if (tgid != 0) {
		e.tgid = tgid;
		e.group_dead = 1;
	}
	return fn(arg, &e);
}

int
ts_parse(const uint8_t *buf, size_t len, uint16_t family, uint32_t seq,
    int *acked, int *ack_errno, ts_exit_fn fn, void *arg)
{
	const struct nlmsghdr *n = (const struct nlmsghdr *)buf;
	int rc;
	int left = len > (size_t)INT32_MAX ? INT32_MAX : (int)len;

	for (; NLMSG_OK(n, left); n = NLMSG_NEXT(n, left)) {
		if (n->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *me = NLMSG_DATA(n);

			if (n->nlmsg_len >= NLMSG_LENGTH(sizeof(*me)) &&
			    n->nlmsg_seq == seq) {
				*acked = 1;
				*ack_errno = -me->error;
			}
			continue;
		}
		if (n->nlmsg_type != family)
			continue;
		if (n->nlmsg_len >= NLMSG_LENGTH(GENL_HDRLEN) &&
		    ((const struct genlmsghdr *)NLMSG_DATA(n))->cmd ==
		    TASKSTATS_CMD_NEW && (rc = on_new(n, fn, arg)) != 0)
			return rc;
	}
	return 0;
}

/* A request: header, generic header, one attribute. */
struct request {
	struct nlmsghdr	 n;
	struct genlmsghdr g;
	uint8_t		 attrs[512];
};

static int
send_request(struct ts_conn *c, uint16_t type, uint8_t cmd, uint16_t atype,
    const void *data, size_t dlen, int ack)
{
	struct request r;
	struct nlattr *a = (struct nlattr *)r.attrs;
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };
	ssize_t sent;

	if (NLA_HDRLEN + dlen > sizeof(r.attrs)) {
		errno = EINVAL;
		return -1;
	}
	memset(&r, 0, sizeof(r));
	a->nla_type = atype;
	a->nla_len = (uint16_t)(NLA_HDRLEN + dlen);
	memcpy(r.attrs + NLA_HDRLEN, data, dlen);
	r.n.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN + NLA_ALIGN(a->nla_len));
	r.n.nlmsg_type = type;
	r.n.nlmsg_flags = NLM_F_REQUEST | (ack ? NLM_F_ACK : 0);
	r.n.nlmsg_seq = ++c->seq;
	r.g.cmd = cmd;
	r.g.version = 1;
	do
		sent = sendto(c->fd, &r, r.n.nlmsg_len, 0,
		    (struct sockaddr *)&to, sizeof(to));
	while (sent == -1 && errno == EINTR);
	return sent == (ssize_t)r.n.nlmsg_len ? 0 : -1;
}

/* Datagrams are at most a page or two; 64 KiB covers any. */
static uint8_t rxbuf[65536];

static ssize_t
receive(struct ts_conn *c, int flags)
{
	ssize_t n;

	do
		n = recv(c->fd, rxbuf, sizeof(rxbuf), flags);
	while (n == -1 && errno == EINTR);
	return n;
}

/* The family id from a CTRL_CMD_NEWFAMILY reply, or 0. */
static uint16_t
family_id(const uint8_t *buf, size_t len)
{
	const struct nlmsghdr *n = (const struct nlmsghdr *)buf;
	const struct nlattr *a;
	const uint8_t *end;
	uint16_t id = 0;

	if (len < NLMSG_LENGTH(GENL_HDRLEN) || n->nlmsg_len > len ||
	    n->nlmsg_type != GENL_ID_CTRL)
		return 0;
	end = buf + n->nlmsg_len;
	a = (const struct nlattr *)((const uint8_t *)NLMSG_DATA(n) +
	    GENL_HDRLEN);
	for (; NLA_OK(a, end); a = NLA_NEXT(a))
		if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID &&
		    NLA_LEN(a) >= 2)
			memcpy(&id, NLA_DATA(a), 2);
	return id;
}

int
ts_open(struct ts_conn *c, size_t rcvbuf, struct ex_err *err)
{
	struct sockaddr_nl me = { .nl_family = AF_NETLINK };
	static const char name[] = TASKSTATS_GENL_NAME;
	struct stat st;
	int size = rcvbuf > INT32_MAX ? INT32_MAX : (int)rcvbuf;
	ssize_t n;

	memset(c, 0, sizeof(*c));
	c->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (c->fd == -1)
		return ex_fail(err, EXR_IO, 0, "netlink socket: %s",
		    strerror(errno));
	/* Past rmem_max needs CAP_NET_ADMIN, which acctd has anyway. */
	if (setsockopt(c->fd, SOL_SOCKET, SO_RCVBUFFORCE, &size,
	    sizeof(size)) == -1)
		(void)setsockopt(c->fd, SOL_SOCKET, SO_RCVBUF, &size,
		    sizeof(size));
	if (bind(c->fd, (struct sockaddr *)&me, sizeof(me)) == -1)
		goto fail;
	if (fstat(c->fd, &st) == 0)
		c->ino = st.st_ino;
	if (send_request(c, GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
	    CTRL_ATTR_FAMILY_NAME, name, sizeof(name), 1) == -1)
		goto fail;
	if ((n = receive(c, 0)) <= 0)
		goto fail;
	if ((c->family = family_id(rxbuf, (size_t)n)) == 0) {
		ts_close(c);
		return ex_fail(err, EXR_IO, 0, "the kernel has no taskstats "
		    "family (CONFIG_TASKSTATS off?)");
	}
	(void)receive(c, MSG_DONTWAIT);		/* the ack */
	(void)ts_dropped(c);
	return EXR_OK;
fail:
	ex_fail(err, EXR_IO, 0, "taskstats: %s", strerror(errno));
	ts_close(c);
	return EXR_IO;
}

/* The kernel's list of possible CPUs ("0-7"), else 0..nconf-1. */
static void
possible_cpus(char *buf, size_t n)
{
	long nconf = sysconf(_SC_NPROCESSORS_CONF);
	ssize_t got = -1;
	int fd;

	if ((fd = open("/sys/devices/system/cpu/possible",
	    O_RDONLY | O_CLOEXEC)) != -1) {
		got = read(fd, buf, n - 1);
		close(fd);
	}
	if (got > 0) {
		buf[got] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		return;
	}
	snprintf(buf, n, "0-%ld", nconf > 0 ? nconf - 1 : 0);
}

int
ts_register(struct ts_conn *c, int on, ts_exit_fn fn, void *arg,
    struct ex_err *err)
{
	int acked = 0, e = 0;
	ssize_t n;

	if (on)
		possible_cpus(c->cpus, sizeof(c->cpus));
	if (send_request(c, c->family, TASKSTATS_CMD_GET, on ?
	    TASKSTATS_CMD_ATTR_REGISTER_CPUMASK :
	    TASKSTATS_CMD_ATTR_DEREGISTER_CPUMASK, c->cpus,
	    strlen(c->cpus) + 1, 1) == -1)
		return ex_fail(err, EXR_IO, 0, "taskstats: %s",
		    strerror(errno));
	while (!acked) {
		if ((n = receive(c, 0)) == -1) {
			if (errno == ENOBUFS)
				continue;	/* counted by ts_dropped */
			return ex_fail(err, EXR_IO, 0, "taskstats: %s",
			    strerror(errno));
		}
		(void)ts_parse(rxbuf, (size_t)n, c->family, c->seq, &acked,
		    &e, fn, arg);
	}
	if (e == EPERM || e == EACCES)
		return ex_fail(err, EXR_IO, 0, "registering for exit records "
		    "needs CAP_NET_ADMIN (run acctd as root): %s",
		    strerror(e));
	if (e == EINVAL && on)
		return ex_fail(err, EXR_IO, 0, "the kernel refused CPUs %s "
		    "(acctd must run in the initial user and pid namespace): "
		    "%s", c->cpus, strerror(e));
	if (e != 0)
		return ex_fail(err, EXR_IO, 0, "taskstats register: %s",
		    strerror(e));
	return EXR_OK;
}

int
ts_drain(struct ts_conn *c, ts_exit_fn fn, void *arg)
{
	int acked = 0, e = 0, rc;
	ssize_t n;

	for (;;) {
		if ((n = receive(c, MSG_DONTWAIT)) == -1)
			return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
		if ((rc = ts_parse(rxbuf, (size_t)n, c->family, 0, &acked,
		    &e, fn, arg)) != 0)
			return rc;
	}
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

/* The AGGR_TGID nest of a TASKSTATS_CMD_GET reply, if it is for tgid. */
static int
tgid_reply(const struct nlmsghdr *n, uint32_t tgid, struct ts_tgid *t)
{
	const uint8_t *end = (const uint8_t *)n + n->nlmsg_len;
	const struct nlattr *a, *stats = NULL;
	uint32_t id;

	if (n->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN))
		return -1;
	a = (const struct nlattr *)((const uint8_t *)NLMSG_DATA(n) +
	    GENL_HDRLEN);
	for (; NLA_OK(a, end); a = NLA_NEXT(a))
		if ((a->nla_type & NLA_TYPE_MASK) == TASKSTATS_TYPE_AGGR_TGID &&
		    aggr(a, &id, &stats) && id == tgid)
			return ts_decode_tgid(NLA_DATA(stats), NLA_LEN(stats),
			    t);
	return -1;
}

int
ts_query_tgid(struct ts_conn *c, uint32_t tgid, struct ts_tgid *t)
{
	const struct nlmsghdr *n;
	ssize_t len;
	int left;

	/* No ack asked: the reply, or an error, is the whole answer. */
	if (send_request(c, c->family, TASKSTATS_CMD_GET,
	    TASKSTATS_CMD_ATTR_TGID, &tgid, sizeof(tgid), 0) == -1)
		return -1;
	for (;;) {
		if ((len = receive(c, 0)) == -1)
			return -1;	/* EAGAIN: no answer within the timeout */
		n = (const struct nlmsghdr *)rxbuf;
		for (left = (int)len; NLMSG_OK(n, left);
		    n = NLMSG_NEXT(n, left)) {
			if (n->nlmsg_seq != c->seq)
				continue;	/* an old answer */
			if (n->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *me = NLMSG_DATA(n);

				errno = n->nlmsg_len >=
				    NLMSG_LENGTH(sizeof(*me)) && me->error < 0 ?
				    -me->error : EPROTO;
				return -1;
			}
			if (n->nlmsg_type == c->family)
				return tgid_reply(n, tgid, t) == 0 ? 0 :
				    (errno = EPROTO, -1);
		}
	}
}

uint64_t
ts_dropped(struct ts_conn *c)
{
	char line[512];
	unsigned long long drops, ino;
	uint64_t d = 0;
	FILE *fp;

	if (c->ino == 0 || (fp = fopen("/proc/net/netlink", "re")) == NULL)
		return 0;
	while (fgets(line, sizeof(line), fp) != NULL) {
		/* sk Eth Pid Groups Rmem Wmem Dump Locks Drops Inode */
		if (sscanf(line, "%*s %*d %*u %*x %*d %*d %*d %*d %llu %llu",
		    &drops, &ino) != 2 || ino != (unsigned long long)c->ino)
			continue;
		if (drops >= c->drops)
			d = drops - c->drops;
		c->drops = drops;
		break;
	}
	fclose(fp);
	return d;
}

void
ts_close(struct ts_conn *c)
{
	if (c->fd > 0)
		close(c->fd);
	c->fd = -1;
}
