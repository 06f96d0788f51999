/*
 * The one-line text tables (see text.h).
 *
 * Column formats follow the hourly extracct output of 2005: epoch start,
 * local clock time, duration in seconds (4 places), CPU seconds (3
 * places), counts in thousands (2 places; syscalls 1 place), RSS in MiB
 * (1 place).  Numbers are rounded in integer arithmetic (fmt_fixed).
 */
#include <arpa/inet.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "dump.h"
#include "fmt.h"
#include "text.h"


static char	*dash(char *buf);
static char	*fixed_col(char *buf, size_t n, int has, uint64_t v,
		    uint64_t div, int dec);
static char	*uint_col(char *buf, size_t n, int has, uint64_t v);
static char	*addr_col(char *buf, size_t n, int family,
		    const uint8_t *addr, int has_addr, int has_port,
		    uint64_t port);

void
text_header(FILE *fp, enum rec_kind kind)
{
	switch (kind) {
	case REC_PROC:
		fputs("timestamp locltime duration procid ppid uid usr sys "
		    "majf rwKB vcxK icxK sigK sycK arMB mrMB command\n", fp);
		break;
	case REC_TASK:
		fputs("timestamp locltime duration taskid projid usr sys "
		    "majf rwKB vcxK icxK sigK sycK zone\n", fp);
		break;
	case REC_FLOW:
		fputs("timestamp locltime dur uid proj prot srcip:port "
		    "dstip:port npkts nbytes aname\n", fp);
		break;
	default:
		break;
	}
}

/*
 * Start time (epoch and local clock) and duration, shared by processes
 * and tasks.  A partial record's duration is -1, as in the original.
 */
static void
when_cols(char *ts, char *clock, char *dur, size_t n, int has_start,
    uint64_t start_ns, int has_finish, uint64_t finish_ns, int partial)
{
	if (has_start) {
		snprintf(ts, n, "%" PRIu64, start_ns / 1000000000u);
		fmt_clock(clock, n, (int64_t)(start_ns / 1000000000u));
	} else {
		dash(ts);
		dash(clock);
	}
	if (partial)
		snprintf(dur, n, "-1.0000");
	else if (has_start && has_finish && finish_ns >= start_ns)
		fmt_fixed(dur, n, finish_ns - start_ns, 1000000000u, 4);
	else
		dash(dur);
}

void
text_proc(FILE *fp, const struct ex_proc *p)
{
	char ts[32], clk[32], dur[32], pid[24], ppid[24], uid[24], usr[32],
	    sys[32], majf[24], rw[32], vcx[32], icx[32], sig[32], syc[32],
	    ar[32], mr[32], cmd[4 * sizeof(p->command)];

	when_cols(ts, clk, dur, sizeof(ts), REC_HAS(p, PROC_START_NS),
	    p->v[PROC_START_NS], REC_HAS(p, PROC_FINISH_NS),
	    p->v[PROC_FINISH_NS], p->group == EXD_GROUP_PROC_PARTIAL);
	fprintf(fp, "%s %s %s %s %s %s %s %s %s %s %s %s %s %s %s %s %s\n",
	    ts, clk, dur,
	    uint_col(pid, sizeof(pid), REC_HAS(p, PROC_PID), p->v[PROC_PID]),
	    uint_col(ppid, sizeof(ppid), REC_HAS(p, PROC_PPID),
	    p->v[PROC_PPID]),
	    uint_col(uid, sizeof(uid), REC_HAS(p, PROC_UID), p->v[PROC_UID]),
	    fixed_col(usr, sizeof(usr), REC_HAS(p, PROC_CPU_USER_NS),
	    p->v[PROC_CPU_USER_NS], 1000000000u, 3),
	    fixed_col(sys, sizeof(sys), REC_HAS(p, PROC_CPU_SYS_NS),
	    p->v[PROC_CPU_SYS_NS], 1000000000u, 3),
	    uint_col(majf, sizeof(majf), REC_HAS(p, PROC_FAULTS_MAJOR),
	    p->v[PROC_FAULTS_MAJOR]),
	    fixed_col(rw, sizeof(rw), REC_HAS(p, PROC_CHARS_RDWR),
	    p->v[PROC_CHARS_RDWR], 1000, 2),
	    fixed_col(vcx, sizeof(vcx), REC_HAS(p, PROC_CTXT_VOL),
	    p->v[PROC_CTXT_VOL], 1000, 2),
	    fixed_col(icx, sizeof(icx), REC_HAS(p, PROC_CTXT_INV),
	    p->v[PROC_CTXT_INV], 1000, 2),
	    fixed_col(sig, sizeof(sig), REC_HAS(p, PROC_SIGNALS),
	    p->v[PROC_SIGNALS], 1000, 2),
	    fixed_col(syc, sizeof(syc), REC_HAS(p, PROC_SYSCALLS),
	    p->v[PROC_SYSCALLS], 1000, 1),
	    fixed_col(ar, sizeof(ar), REC_HAS(p, PROC_RSS_AVG_KB),
	    p->v[PROC_RSS_AVG_KB], 1024, 1),
	    fixed_col(mr, sizeof(mr), REC_HAS(p, PROC_RSS_MAX_KB),
	    p->v[PROC_RSS_MAX_KB], 1024, 1),
	    REC_HAS(p, PROC_COMMAND) && p->command[0] != '\0' ?
	    fmt_escape(cmd, sizeof(cmd), p->command, ESC_SPACE) : "-");
}

void
text_task(FILE *fp, const struct ex_task *t)
{
	char ts[32], clk[32], dur[32], tid[24], proj[24], usr[32], sys[32],
	    majf[24], rw[32], vcx[32], icx[32], sig[32], syc[32],
	    zone[4 * sizeof(t->zone)];

	when_cols(ts, clk, dur, sizeof(ts), REC_HAS(t, TASK_START_NS),
	    t->v[TASK_START_NS], REC_HAS(t, TASK_FINISH_NS),
	    t->v[TASK_FINISH_NS], t->group == EXD_GROUP_TASK_PARTIAL);
	fprintf(fp, "%s %s %s %s %s %s %s %s %s %s %s %s %s %s\n",
	    ts, clk, dur,
	    uint_col(tid, sizeof(tid), REC_HAS(t, TASK_TASKID),
	    t->v[TASK_TASKID]),
	    uint_col(proj, sizeof(proj), REC_HAS(t, TASK_PROJID),
	    t->v[TASK_PROJID]),
	    fixed_col(usr, sizeof(usr), REC_HAS(t, TASK_CPU_USER_NS),
	    t->v[TASK_CPU_USER_NS], 1000000000u, 3),
	    fixed_col(sys, sizeof(sys), REC_HAS(t, TASK_CPU_SYS_NS),
	    t->v[TASK_CPU_SYS_NS], 1000000000u, 3),
	    uint_col(majf, sizeof(majf), REC_HAS(t, TASK_FAULTS_MAJOR),
	    t->v[TASK_FAULTS_MAJOR]),
	    fixed_col(rw, sizeof(rw), REC_HAS(t, TASK_CHARS_RDWR),
	    t->v[TASK_CHARS_RDWR], 1000, 2),
	    fixed_col(vcx, sizeof(vcx), REC_HAS(t, TASK_CTXT_VOL),
	    t->v[TASK_CTXT_VOL], 1000, 2),
	    fixed_col(icx, sizeof(icx), REC_HAS(t, TASK_CTXT_INV),
	    t->v[TASK_CTXT_INV], 1000, 2),
	    fixed_col(sig, sizeof(sig), REC_HAS(t, TASK_SIGNALS),
	    t->v[TASK_SIGNALS], 1000, 2),
	    fixed_col(syc, sizeof(syc), REC_HAS(t, TASK_SYSCALLS),
	    t->v[TASK_SYSCALLS], 1000, 1),
	    REC_HAS(t, TASK_ZONE) && t->zone[0] != '\0' ?
	    fmt_escape(zone, sizeof(zone), t->zone, ESC_SPACE) : "-");
}

void
text_flow(FILE *fp, const struct ex_flow *f)
{
	char ts[32], clk[32], dur[32], uid[24], proj[24], prot[24],
	    src[80], dst[80], pk[24], by[24], act[4 * sizeof(f->action)];
	const char *pn;

	if (REC_HAS(f, FLOW_CTIME_S) && f->v[FLOW_CTIME_S] <= INT64_MAX) {
		snprintf(ts, sizeof(ts), "%" PRIu64, f->v[FLOW_CTIME_S]);
		fmt_clock(clk, sizeof(clk), (int64_t)f->v[FLOW_CTIME_S]);
	} else {
		dash(ts);
		dash(clk);
	}
	if (REC_HAS(f, FLOW_CTIME_S) && REC_HAS(f, FLOW_LSEEN_S) &&
	    f->v[FLOW_LSEEN_S] >= f->v[FLOW_CTIME_S])
		snprintf(dur, sizeof(dur), "%" PRIu64,
		    f->v[FLOW_LSEEN_S] - f->v[FLOW_CTIME_S]);
	else
		dash(dur);
	if (!REC_HAS(f, FLOW_PROTOCOL))
		dash(prot);
	else if ((pn = dump_proto_name((unsigned)f->v[FLOW_PROTOCOL])) != NULL)
		snprintf(prot, sizeof(prot), "%s", pn);
	else
		snprintf(prot, sizeof(prot), "%" PRIu64, f->v[FLOW_PROTOCOL]);
	fprintf(fp, "%s %s %s %s %s %s %s %s %s %s %s\n", ts, clk, dur,
	    uint_col(uid, sizeof(uid), REC_HAS(f, FLOW_UID), f->v[FLOW_UID]),
	    uint_col(proj, sizeof(proj), REC_HAS(f, FLOW_PROJID),
	    f->v[FLOW_PROJID]),
	    prot,
	    addr_col(src, sizeof(src), f->family, f->saddr,
	    REC_HAS(f, FLOW_SADDR), REC_HAS(f, FLOW_SPORT), f->v[FLOW_SPORT]),
	    addr_col(dst, sizeof(dst), f->family, f->daddr,
	    REC_HAS(f, FLOW_DADDR), REC_HAS(f, FLOW_DPORT), f->v[FLOW_DPORT]),
	    uint_col(pk, sizeof(pk), REC_HAS(f, FLOW_NPKTS), f->v[FLOW_NPKTS]),
	    uint_col(by, sizeof(by), REC_HAS(f, FLOW_NBYTES),
	    f->v[FLOW_NBYTES]),
	    REC_HAS(f, FLOW_ACTION) && f->action[0] != '\0' ?
	    fmt_escape(act, sizeof(act), f->action, ESC_SPACE) : "-");
}

static char *
fixed_col(char *buf, size_t n, int has, uint64_t v, uint64_t div, int dec)
{
	return has ? fmt_fixed(buf, n, v, div, dec) : dash(buf);
}

/* An absent field prints "-": missing is not zero. */
static char *
dash(char *buf)
{
	buf[0] = '-';
	buf[1] = '\0';
	return buf;
}

static char *
uint_col(char *buf, size_t n, int has, uint64_t v)
{
	if (has)
		snprintf(buf, n, "%" PRIu64, v);
	else
		dash(buf);
	return buf;
}

/* "a.b.c.d:port" or "[v6]:port"; "-" for an absent part. */
static char *
addr_col(char *buf, size_t n, int family, const uint8_t *addr,
    int has_addr, int has_port, uint64_t port)
{
	char a[64], p[24];

	char v6[INET6_ADDRSTRLEN];

	if (!has_addr)
		dash(a);
	else if (family == 6)
		snprintf(a, sizeof(a), "[%s]", inet_ntop(AF_INET6, addr, v6,
		    sizeof(v6)) != NULL ? v6 : "?");
	else
		snprintf(a, sizeof(a), "%u.%u.%u.%u", addr[0], addr[1],
		    addr[2], addr[3]);
	uint_col(p, sizeof(p), has_port, port);
	snprintf(buf, n, "%s:%s", a, p);
	return buf;
}

void
text_sample_header(FILE *fp)
{
	fputs("ts_us t0_us t1_us metric detail value unit reading\n", fp);
}

void
text_sample(FILE *fp, const struct stream_provider *p,
    const struct stream_line *ln, const struct stream_sample *x)
{
	char t0[24], t1[24], v[24], detail[2 * STREAM_DETAIL];

	uint_col(t0, sizeof(t0), x->has_t0, x->t0_ns / 1000);
	uint_col(t1, sizeof(t1), x->has_t1, x->t1_ns / 1000);
	uint_col(v, sizeof(v), x->has_value, x->value);
	fmt_escape(detail, sizeof(detail), ln->detail[0] ? ln->detail : "-",
	    ESC_SPACE);
	fprintf(fp, "%" PRIu64 " %s %s %s %s %s %s %" PRIu64 "\n", ln->ts_us,
	    t0, t1, p->name, detail, v, p->unit, ln->reading);
}
