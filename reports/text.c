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
#include "outbuf.h"
#include "text.h"

static void	dash(struct outbuf *ob);
static void	uint_col(struct outbuf *ob, int has, uint64_t v);
static void	secs_col(struct outbuf *ob, int has, uint64_t ns, int dec);
static void	kilo_col(struct outbuf *ob, int has, uint64_t v, int dec);
static void	mib_col(struct outbuf *ob, int has, uint64_t kb);
static void	addr_col(struct outbuf *ob, int family, const uint8_t *addr,
		    int has_addr, int has_port, uint64_t port);

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
when_cols(struct outbuf *ob, int has_start, uint64_t start_ns,
    int has_finish, uint64_t finish_ns, int partial)
{
	if (has_start) {
		ob_u64(ob, start_ns / 1000000000u);
		ob_char(ob, ' ');
		ob_clock(ob, (int64_t)(start_ns / 1000000000u));
	} else
		ob_mem(ob, "- -", 3);
	ob_char(ob, ' ');
	if (partial)
		ob_mem(ob, "-1.0000", 7);
	else if (has_start && has_finish && finish_ns >= start_ns)
		ob_fixed(ob, finish_ns - start_ns, 1000000000u, 4);
	else
		dash(ob);
}

/* The command, zone or action column: escaped, "-" if absent or empty. */
static void
name_col(struct outbuf *ob, int has, const char *s)
{
	ob_char(ob, ' ');
	if (has && s[0] != '\0')
		ob_escape(ob, s, ESC_SPACE);
	else
		dash(ob);
}


void
text_proc(FILE *fp, const struct ex_proc *p)
{
	struct outbuf ob;

	ob_init(&ob, fp);
	when_cols(&ob, REC_HAS(p, PROC_START_NS), p->v[PROC_START_NS],
	    REC_HAS(p, PROC_FINISH_NS), p->v[PROC_FINISH_NS],
	    p->group == EXD_GROUP_PROC_PARTIAL);
	uint_col(&ob, REC_HAS(p, PROC_PID), p->v[PROC_PID]);
	uint_col(&ob, REC_HAS(p, PROC_PPID), p->v[PROC_PPID]);
	uint_col(&ob, REC_HAS(p, PROC_UID), p->v[PROC_UID]);
	secs_col(&ob, REC_HAS(p, PROC_CPU_USER_NS), p->v[PROC_CPU_USER_NS], 3);
	secs_col(&ob, REC_HAS(p, PROC_CPU_SYS_NS), p->v[PROC_CPU_SYS_NS], 3);
	uint_col(&ob, REC_HAS(p, PROC_FAULTS_MAJOR), p->v[PROC_FAULTS_MAJOR]);
	kilo_col(&ob, REC_HAS(p, PROC_CHARS_RDWR), p->v[PROC_CHARS_RDWR], 2);
	kilo_col(&ob, REC_HAS(p, PROC_CTXT_VOL), p->v[PROC_CTXT_VOL], 2);
	kilo_col(&ob, REC_HAS(p, PROC_CTXT_INV), p->v[PROC_CTXT_INV], 2);
	kilo_col(&ob, REC_HAS(p, PROC_SIGNALS), p->v[PROC_SIGNALS], 2);
	kilo_col(&ob, REC_HAS(p, PROC_SYSCALLS), p->v[PROC_SYSCALLS], 1);
	mib_col(&ob, REC_HAS(p, PROC_RSS_AVG_KB), p->v[PROC_RSS_AVG_KB]);
	mib_col(&ob, REC_HAS(p, PROC_RSS_MAX_KB), p->v[PROC_RSS_MAX_KB]);
	name_col(&ob, REC_HAS(p, PROC_COMMAND), p->command);
	ob_char(&ob, '\n');
	ob_flush(&ob);
}

void
text_task(FILE *fp, const struct ex_task *t)
{
	struct outbuf ob;

	ob_init(&ob, fp);
	when_cols(&ob, REC_HAS(t, TASK_START_NS), t->v[TASK_START_NS],
	    REC_HAS(t, TASK_FINISH_NS), t->v[TASK_FINISH_NS],
	    t->group == EXD_GROUP_TASK_PARTIAL);
	uint_col(&ob, REC_HAS(t, TASK_TASKID), t->v[TASK_TASKID]);
	uint_col(&ob, REC_HAS(t, TASK_PROJID), t->v[TASK_PROJID]);
	secs_col(&ob, REC_HAS(t, TASK_CPU_USER_NS), t->v[TASK_CPU_USER_NS], 3);
	secs_col(&ob, REC_HAS(t, TASK_CPU_SYS_NS), t->v[TASK_CPU_SYS_NS], 3);
	uint_col(&ob, REC_HAS(t, TASK_FAULTS_MAJOR), t->v[TASK_FAULTS_MAJOR]);
	kilo_col(&ob, REC_HAS(t, TASK_CHARS_RDWR), t->v[TASK_CHARS_RDWR], 2);
	kilo_col(&ob, REC_HAS(t, TASK_CTXT_VOL), t->v[TASK_CTXT_VOL], 2);
	kilo_col(&ob, REC_HAS(t, TASK_CTXT_INV), t->v[TASK_CTXT_INV], 2);
	kilo_col(&ob, REC_HAS(t, TASK_SIGNALS), t->v[TASK_SIGNALS], 2);
	kilo_col(&ob, REC_HAS(t, TASK_SYSCALLS), t->v[TASK_SYSCALLS], 1);
	name_col(&ob, REC_HAS(t, TASK_ZONE), t->zone);
	ob_char(&ob, '\n');
	ob_flush(&ob);
}

void
text_flow(FILE *fp, const struct ex_flow *f)
{
	struct outbuf ob;
	const char *pn;

	ob_init(&ob, fp);
	if (REC_HAS(f, FLOW_CTIME_S) && f->v[FLOW_CTIME_S] <= INT64_MAX) {
		ob_u64(&ob, f->v[FLOW_CTIME_S]);
		ob_char(&ob, ' ');
		ob_clock(&ob, (int64_t)f->v[FLOW_CTIME_S]);
	} else
		ob_mem(&ob, "- -", 3);
	uint_col(&ob, REC_HAS(f, FLOW_CTIME_S) && REC_HAS(f, FLOW_LSEEN_S) &&
	    f->v[FLOW_LSEEN_S] >= f->v[FLOW_CTIME_S],
	    f->v[FLOW_LSEEN_S] - f->v[FLOW_CTIME_S]);
	uint_col(&ob, REC_HAS(f, FLOW_UID), f->v[FLOW_UID]);
	uint_col(&ob, REC_HAS(f, FLOW_PROJID), f->v[FLOW_PROJID]);
	if (REC_HAS(f, FLOW_PROTOCOL) &&
	    (pn = dump_proto_name((unsigned)f->v[FLOW_PROTOCOL])) != NULL) {
		ob_char(&ob, ' ');
		ob_str(&ob, pn);
	} else
		uint_col(&ob, REC_HAS(f, FLOW_PROTOCOL), f->v[FLOW_PROTOCOL]);
	addr_col(&ob, f->family, f->saddr, REC_HAS(f, FLOW_SADDR),
	    REC_HAS(f, FLOW_SPORT), f->v[FLOW_SPORT]);
	addr_col(&ob, f->family, f->daddr, REC_HAS(f, FLOW_DADDR),
	    REC_HAS(f, FLOW_DPORT), f->v[FLOW_DPORT]);
	uint_col(&ob, REC_HAS(f, FLOW_NPKTS), f->v[FLOW_NPKTS]);
	uint_col(&ob, REC_HAS(f, FLOW_NBYTES), f->v[FLOW_NBYTES]);
	name_col(&ob, REC_HAS(f, FLOW_ACTION), f->action);
	ob_char(&ob, '\n');
	ob_flush(&ob);
}

/* An absent field prints "-": missing is not zero. */
static void
dash(struct outbuf *ob)
{
	ob_char(ob, '-');
}

/*
 * The column helpers below write the separating space, then the value
 * or "-".  Each has its divisor as a constant, so that ob_fixed divides
 * by multiplying.
 */
static void
uint_col(struct outbuf *ob, int has, uint64_t v)
{
	ob_char(ob, ' ');
	if (has)
		ob_u64(ob, v);
	else
		dash(ob);
}

/* Nanoseconds as seconds. */
static void
secs_col(struct outbuf *ob, int has, uint64_t ns, int dec)
{
	ob_char(ob, ' ');
	if (has)
		ob_fixed(ob, ns, 1000000000u, dec);
	else
		dash(ob);
}

/* A count in thousands. */
static void
kilo_col(struct outbuf *ob, int has, uint64_t v, int dec)
{
	ob_char(ob, ' ');
	if (has)
		ob_fixed(ob, v, 1000, dec);
	else
		dash(ob);
}

/* KiB as MiB, 1 place. */
static void
mib_col(struct outbuf *ob, int has, uint64_t kb)
{
	ob_char(ob, ' ');
	if (has)
		ob_fixed(ob, kb, 1024, 1);
	else
		dash(ob);
}

/* " a.b.c.d:port" or " [v6]:port"; "-" for an absent part. */
static void
addr_col(struct outbuf *ob, int family, const uint8_t *addr, int has_addr,
    int has_port, uint64_t port)
{
	char v6[INET6_ADDRSTRLEN];
	int i;

	ob_char(ob, ' ');
	if (!has_addr)
		dash(ob);
	else if (family == 6) {
		ob_char(ob, '[');
		ob_str(ob, inet_ntop(AF_INET6, addr, v6, sizeof(v6)) != NULL ?
		    v6 : "?");
		ob_char(ob, ']');
	} else
		for (i = 0; i < 4; i++) {
			if (i > 0)
				ob_char(ob, '.');
			ob_u64(ob, addr[i]);
		}
	ob_char(ob, ':');
	if (has_port)
		ob_u64(ob, port);
	else
		dash(ob);
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
	struct outbuf ob;
	char detail[2 * STREAM_DETAIL];

	/* Escaped into a buffer of its own: it truncates a long detail. */
	fmt_escape(detail, sizeof(detail), ln->detail[0] ? ln->detail : "-",
	    ESC_SPACE);
	ob_init(&ob, fp);
	ob_u64(&ob, ln->ts_us);
	uint_col(&ob, x->has_t0, x->t0_ns / 1000);
	uint_col(&ob, x->has_t1, x->t1_ns / 1000);
	ob_char(&ob, ' ');
	ob_str(&ob, p->name);
	ob_char(&ob, ' ');
	ob_str(&ob, detail);
	uint_col(&ob, x->has_value, x->value);
	ob_char(&ob, ' ');
	ob_str(&ob, p->unit);
	ob_char(&ob, ' ');
	ob_u64(&ob, ln->reading);
	ob_char(&ob, '\n');
	ob_flush(&ob);
}
