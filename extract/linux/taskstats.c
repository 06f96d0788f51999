/*
 * Taskstats over generic netlink (see taskstats.h): the socket, the
 * messages and their attributes.  The struct taskstats each message
 * carries is decoded by parsers/taskstats_decode.c, which needs no
 * Linux header (and is fuzzed with the other parsers).
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

/* The attributes of a netlink payload, walked safely. */
#define NLA_NEXT(a)	((const struct nlattr *)((const uint8_t *)(a) + \
			    NLA_ALIGN((a)->nla_len)))
#define NLA_OK(a, end)	((const uint8_t *)(a) + NLA_HDRLEN <= (end) && \
			    (a)->nla_len >= NLA_HDRLEN && \
			    (const uint8_t *)(a) + (a)->nla_len <= (end))
#define NLA_DATA(a)	((const uint8_t *)(a) + NLA_HDRLEN)
#define NLA_LEN(a)	((size_t)(a)->nla_len - NLA_HDRLEN)

/* NLMSG_OK, its unsigned length held against the signed rest with a
 * cast the kernel's macro lacks (clang -Wsign-compare warns in it). */
static int
msg_ok(const struct nlmsghdr *n, int left)
{
	return left >= (int)sizeof(*n) && n->nlmsg_len >= sizeof(*n) &&
	    n->nlmsg_len <= (unsigned)left;
}

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

	for (; msg_ok(n, left); n = NLMSG_NEXT(n, left)) {
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

/*
 * The struct taskstats of a TASKSTATS_CMD_GET reply, if the reply is
 * the nest (AGGR_TGID or AGGR_PID) for id; NULL if not.
 */
static const struct nlattr *
reply_stats(const struct nlmsghdr *n, int nest, uint32_t id)
{
	const uint8_t *end = (const uint8_t *)n + n->nlmsg_len;
	const struct nlattr *a, *stats = NULL;
	uint32_t got;

	if (n->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN))
		return NULL;
	a = (const struct nlattr *)((const uint8_t *)NLMSG_DATA(n) +
	    GENL_HDRLEN);
	for (; NLA_OK(a, end); a = NLA_NEXT(a))
		if ((a->nla_type & NLA_TYPE_MASK) == nest &&
		    aggr(a, &got, &stats) && got == id)
			return stats;
	return NULL;
}

/* One reply decoded into question k's answer: 0, or EPROTO. */
static int
take_reply(const struct nlmsghdr *m, size_t k, size_t n,
    const uint32_t *tgid, struct ts_tgid *t, struct ts_exit *leader)
{
	const struct nlattr *stats;

	if (k < n) {
		stats = reply_stats(m, TASKSTATS_TYPE_AGGR_TGID, tgid[k]);
		return stats != NULL && ts_decode_tgid(NLA_DATA(stats),
		    NLA_LEN(stats), &t[k]) == 0 ? 0 : EPROTO;
	}
	stats = reply_stats(m, TASKSTATS_TYPE_AGGR_PID, tgid[k - n]);
	return stats != NULL && ts_decode(NLA_DATA(stats), NLA_LEN(stats),
	    &leader[k - n]) == 0 ? 0 : EPROTO;
}

/* A question by tgid or pid, as send_request builds it; an array of
 * them is a run of netlink messages (each a multiple of NLMSG_ALIGNTO). */
struct id_request {
	struct nlmsghdr	 n;
	struct genlmsghdr g;
	struct nlattr	 a;
	uint32_t	 id;
};
_Static_assert(sizeof(struct id_request) % NLMSG_ALIGNTO == 0,
    "questions must follow each other in one datagram");

int
ts_query_tgids(struct ts_conn *c, const uint32_t *tgid, size_t n,
    struct ts_tgid *t, int *err, struct ts_exit *leader, int *leader_err)
{
	struct id_request r[2 * TS_QUERY_MAX];
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };
	const struct nlmsghdr *m;
	uint32_t first;
	size_t i, k, left, asked;
	ssize_t len;
	int rest, e, *answer;

	if (n == 0 || n > TS_QUERY_MAX) {
		errno = EINVAL;
		return -1;
	}
	/*
	 * One datagram of the questions: the kernel answers each in turn
	 * as it takes the datagram, before sendto returns.  No ack asked:
	 * the reply, or an error, is each one's whole answer.  Question k
	 * is about tgid[k] as a process, then (with leader) question n + k
	 * about the same id as a thread: the main thread.
	 */
	asked = leader != NULL ? 2 * n : n;
	memset(r, 0, sizeof(r));
	first = c->seq + 1;
	for (k = 0; k < asked; k++) {
		r[k].n.nlmsg_len = sizeof(r[k]);
		r[k].n.nlmsg_type = c->family;
		r[k].n.nlmsg_flags = NLM_F_REQUEST;
		r[k].n.nlmsg_seq = ++c->seq;
		r[k].g.cmd = TASKSTATS_CMD_GET;
		r[k].g.version = 1;
		r[k].a.nla_type = k < n ? TASKSTATS_CMD_ATTR_TGID :
		    TASKSTATS_CMD_ATTR_PID;
		r[k].a.nla_len = NLA_HDRLEN + sizeof(r[k].id);
		r[k].id = tgid[k < n ? k : k - n];
	}
	for (i = 0; i < n; i++) {
		err[i] = -1;		/* not answered yet */
		if (leader != NULL)
			leader_err[i] = -1;
	}
	do
		len = sendto(c->fd, r, asked * sizeof(r[0]), 0,
		    (struct sockaddr *)&to, sizeof(to));
	while (len == -1 && errno == EINTR);
	if (len != (ssize_t)(asked * sizeof(r[0])))
		goto unanswered;
	for (left = asked; left > 0; ) {
		if ((len = receive(c, 0)) == -1)
			goto unanswered;	/* EAGAIN: past the timeout */
		m = (const struct nlmsghdr *)rxbuf;
		for (rest = (int)len; msg_ok(m, rest);
		    m = NLMSG_NEXT(m, rest)) {
			/* An old answer (one that came too late), or one
			 * had twice. */
			if ((k = m->nlmsg_seq - first) >= asked)
				continue;
			answer = k < n ? &err[k] : &leader_err[k - n];
			if (*answer != -1)
				continue;
			if (m->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *me = NLMSG_DATA(m);

				*answer = m->nlmsg_len >=
				    NLMSG_LENGTH(sizeof(*me)) && me->error < 0 ?
				    -me->error : EPROTO;
			} else if (m->nlmsg_type == c->family)
				*answer = take_reply(m, k, n, tgid, t, leader);
			else
				continue;
			left--;
		}
	}
	return 0;
unanswered:
	e = errno;
	for (i = 0; i < n; i++) {
		if (err[i] == -1)
			err[i] = e;
		if (leader != NULL && leader_err[i] == -1)
			leader_err[i] = e;
	}
	errno = e;
	return -1;
}

int
ts_query_tgid(struct ts_conn *c, uint32_t tgid, struct ts_tgid *t)
{
	int e;

	if (ts_query_tgids(c, &tgid, 1, t, &e, NULL, NULL) == -1)
		return -1;
	if (e != 0) {
		errno = e;
		return -1;
	}
	return 0;
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
