/*
 * CSV outputs (see csv.h).  Absent fields are empty cells: missing is not
 * zero.
 */
#include <arpa/inet.h>

#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "csv.h"
#include "dump.h"
#include "fmt.h"
#include "outbuf.h"

static void	cell_text(struct outbuf *ob, const char *src);

void
csv_field(FILE *fp, const char *s)
{
	int quote = strpbrk(s, ",\"\r\n") != NULL;
	int guard = s[0] == '=' || s[0] == '+' || s[0] == '-' ||
	    s[0] == '@' || s[0] == '\t' || s[0] == '\r';

	if (quote)
		fputc('"', fp);
	if (guard)
		fputc('\'', fp);
	for (; *s != '\0'; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	if (quote)
		fputc('"', fp);
}

void
csv_text(FILE *fp, const char *src)
{
	struct outbuf ob;

	ob_init(&ob, fp);
	cell_text(&ob, src);
	ob_flush(&ob);
}

char *
csv_utc(char *dst, size_t n, int64_t epoch_s)
{
	struct tm tm;
	time_t t = (time_t)epoch_s;

	if (gmtime_r(&t, &tm) == NULL ||
	    strftime(dst, n, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(dst, n, "?");
	return dst;
}

void
csv_header(FILE *fp, enum rec_kind kind)
{
	switch (kind) {
	case REC_PROC:
		fputs("record,host,pid,ppid,uid,gid,projid,taskid,"
		    "start_utc,start_epoch_s,finish_utc,finish_epoch_s,tz,"
		    "duration_s,cpu_user_s,cpu_sys_s,faults_major,"
		    "faults_minor,blocks_in,blocks_out,chars_rdwr_bytes,"
		    "ctxt_vol,ctxt_inv,signals,swaps,syscalls,rss_avg_kb,"
		    "rss_max_kb,wait_status,command,zone\r\n", fp);
		break;
	case REC_TASK:
		fputs("record,host,taskid,projid,start_utc,start_epoch_s,"
		    "finish_utc,finish_epoch_s,tz,duration_s,cpu_user_s,"
		    "cpu_sys_s,faults_major,faults_minor,blocks_in,blocks_out,"
		    "chars_rdwr_bytes,ctxt_vol,ctxt_inv,signals,swaps,"
		    "syscalls,zone\r\n", fp);
		break;
	case REC_FLOW:
		fputs("host,protocol,src_addr,src_port,dst_addr,dst_port,"
		    "ctime_utc,ctime_epoch_s,lseen_utc,lseen_epoch_s,tz,"
		    "duration_s,bytes,packets,uid,projid,action\r\n", fp);
		break;
	default:
		break;
	}
}

/* ",value" or "," when absent. */
static void
col_u(struct outbuf *ob, int has, uint64_t v)
{
	ob_char(ob, ',');
	if (has)
		ob_u64(ob, v);
}

/* Nanoseconds as seconds to the microsecond (a constant divisor). */
static void
col_secs(struct outbuf *ob, int has, uint64_t ns)
{
	ob_char(ob, ',');
	if (has)
		ob_fixed(ob, ns, 1000000000u, 6);
}

/* A text cell; control bytes escaped as in text output. */
static void
col_s(struct outbuf *ob, int has, const char *s)
{
	ob_char(ob, ',');
	if (has)
		cell_text(ob, s);
}

/* An epoch second as a UTC text cell. */
static void
col_utc(struct outbuf *ob, int has, int64_t epoch_s)
{
	char b[48];

	ob_char(ob, ',');
	/*
	 * ob_utc writes digits, '-', 'T', ':' and 'Z' starting with a
	 * digit: the cell as cell_text would write it.  Where it has no
	 * such form, the long way.
	 */
	if (has && ob_utc(ob, epoch_s) != 0)
		cell_text(ob, csv_utc(b, sizeof(b), epoch_s));
}

/* start/finish as UTC text and epoch seconds (µs), the zone, duration. */
static void
col_times(struct outbuf *ob, int has_start, uint64_t start_ns,
    int has_finish, uint64_t finish_ns)
{
	col_utc(ob, has_start, (int64_t)(start_ns / 1000000000u));
	col_secs(ob, has_start, start_ns);
	col_utc(ob, has_finish, (int64_t)(finish_ns / 1000000000u));
	col_secs(ob, has_finish, finish_ns);
	ob_mem(ob, ",UTC", 4);
	col_secs(ob, has_start && has_finish && finish_ns >= start_ns,
	    finish_ns - start_ns);
}

void
csv_proc(FILE *fp, const char *host, const struct ex_proc *p)
{
	struct outbuf ob;
	int f;

	ob_init(&ob, fp);
	ob_str(&ob, p->group == EXD_GROUP_PROC ? "final" : "partial");
	col_s(&ob, 1, host);
	col_u(&ob, REC_HAS(p, PROC_PID), p->v[PROC_PID]);
	col_u(&ob, REC_HAS(p, PROC_PPID), p->v[PROC_PPID]);
	col_u(&ob, REC_HAS(p, PROC_UID), p->v[PROC_UID]);
	col_u(&ob, REC_HAS(p, PROC_GID), p->v[PROC_GID]);
	col_u(&ob, REC_HAS(p, PROC_PROJID), p->v[PROC_PROJID]);
	col_u(&ob, REC_HAS(p, PROC_TASKID), p->v[PROC_TASKID]);
	col_times(&ob, REC_HAS(p, PROC_START_NS), p->v[PROC_START_NS],
	    REC_HAS(p, PROC_FINISH_NS), p->v[PROC_FINISH_NS]);
	col_secs(&ob, REC_HAS(p, PROC_CPU_USER_NS), p->v[PROC_CPU_USER_NS]);
	col_secs(&ob, REC_HAS(p, PROC_CPU_SYS_NS), p->v[PROC_CPU_SYS_NS]);
	for (f = PROC_FAULTS_MAJOR; f <= PROC_SYSCALLS; f++)
		if (f != PROC_MSGS_SND && f != PROC_MSGS_RCV)
			col_u(&ob, REC_HAS(p, f), p->v[f]);
	col_u(&ob, REC_HAS(p, PROC_RSS_AVG_KB), p->v[PROC_RSS_AVG_KB]);
	col_u(&ob, REC_HAS(p, PROC_RSS_MAX_KB), p->v[PROC_RSS_MAX_KB]);
	col_u(&ob, REC_HAS(p, PROC_WAIT_STATUS) && p->group == EXD_GROUP_PROC,
	    p->v[PROC_WAIT_STATUS]);
	col_s(&ob, REC_HAS(p, PROC_COMMAND), p->command);
	col_s(&ob, REC_HAS(p, PROC_ZONE), p->zone);
	ob_mem(&ob, "\r\n", 2);
	ob_flush(&ob);
}

void
csv_task(FILE *fp, const char *host, const struct ex_task *t)
{
	struct outbuf ob;
	int f;

	ob_init(&ob, fp);
	ob_str(&ob, t->group == EXD_GROUP_TASK ? "final" :
	    t->group == EXD_GROUP_TASK_PARTIAL ? "partial" : "interval");
	col_s(&ob, 1, host);
	col_u(&ob, REC_HAS(t, TASK_TASKID), t->v[TASK_TASKID]);
	col_u(&ob, REC_HAS(t, TASK_PROJID), t->v[TASK_PROJID]);
	col_times(&ob, REC_HAS(t, TASK_START_NS), t->v[TASK_START_NS],
	    REC_HAS(t, TASK_FINISH_NS), t->v[TASK_FINISH_NS]);
	col_secs(&ob, REC_HAS(t, TASK_CPU_USER_NS), t->v[TASK_CPU_USER_NS]);
	col_secs(&ob, REC_HAS(t, TASK_CPU_SYS_NS), t->v[TASK_CPU_SYS_NS]);
	for (f = TASK_FAULTS_MAJOR; f <= TASK_SYSCALLS; f++)
		if (f != TASK_MSGS_SND && f != TASK_MSGS_RCV)
			col_u(&ob, REC_HAS(t, f), t->v[f]);
	col_s(&ob, REC_HAS(t, TASK_ZONE), t->zone);
	ob_mem(&ob, "\r\n", 2);
	ob_flush(&ob);
}

static void
col_addr(struct outbuf *ob, int has, int family, const uint8_t *a)
{
	char b[INET6_ADDRSTRLEN];

	if (!has) {
		ob_char(ob, ',');
		return;
	}
	if (family == 6)
		inet_ntop(AF_INET6, a, b, sizeof(b));
	else
		snprintf(b, sizeof(b), "%u.%u.%u.%u", a[0], a[1], a[2], a[3]);
	col_s(ob, 1, b);
}

void
csv_flow(FILE *fp, const char *host, const struct ex_flow *f)
{
	const char *pn = REC_HAS(f, FLOW_PROTOCOL) ?
	    dump_proto_name((unsigned)f->v[FLOW_PROTOCOL]) : NULL;
	struct outbuf ob;

	ob_init(&ob, fp);
	cell_text(&ob, host);
	if (pn != NULL)
		col_s(&ob, 1, pn);
	else
		col_u(&ob, REC_HAS(f, FLOW_PROTOCOL), f->v[FLOW_PROTOCOL]);
	col_addr(&ob, REC_HAS(f, FLOW_SADDR), f->family, f->saddr);
	col_u(&ob, REC_HAS(f, FLOW_SPORT), f->v[FLOW_SPORT]);
	col_addr(&ob, REC_HAS(f, FLOW_DADDR), f->family, f->daddr);
	col_u(&ob, REC_HAS(f, FLOW_DPORT), f->v[FLOW_DPORT]);
	col_utc(&ob, REC_HAS(f, FLOW_CTIME_S), (int64_t)f->v[FLOW_CTIME_S]);
	col_u(&ob, REC_HAS(f, FLOW_CTIME_S), f->v[FLOW_CTIME_S]);
	col_utc(&ob, REC_HAS(f, FLOW_LSEEN_S), (int64_t)f->v[FLOW_LSEEN_S]);
	col_u(&ob, REC_HAS(f, FLOW_LSEEN_S), f->v[FLOW_LSEEN_S]);
	ob_mem(&ob, ",UTC", 4);
	col_u(&ob, REC_HAS(f, FLOW_CTIME_S) && REC_HAS(f, FLOW_LSEEN_S) &&
	    f->v[FLOW_LSEEN_S] >= f->v[FLOW_CTIME_S],
	    f->v[FLOW_LSEEN_S] - f->v[FLOW_CTIME_S]);
	col_u(&ob, REC_HAS(f, FLOW_NBYTES), f->v[FLOW_NBYTES]);
	col_u(&ob, REC_HAS(f, FLOW_NPKTS), f->v[FLOW_NPKTS]);
	col_u(&ob, REC_HAS(f, FLOW_UID), f->v[FLOW_UID]);
	col_u(&ob, REC_HAS(f, FLOW_PROJID), f->v[FLOW_PROJID]);
	col_s(&ob, REC_HAS(f, FLOW_ACTION), f->action);
	ob_mem(&ob, "\r\n", 2);
	ob_flush(&ob);
}

void
csv_sample_header(FILE *fp)
{
	fputs("host,metric,detail,ts_us,t0_us,t1_us,value,unit,reading\r\n",
	    fp);
}

void
csv_sample(FILE *fp, const char *host, const struct stream_provider *p,
    const struct stream_line *ln, const struct stream_sample *x)
{
	struct outbuf ob;

	ob_init(&ob, fp);
	cell_text(&ob, host);
	ob_char(&ob, ',');
	ob_str(&ob, p->name);
	col_s(&ob, 1, ln->detail);
	col_u(&ob, 1, ln->ts_us);
	col_u(&ob, x->has_t0, x->t0_ns / 1000);
	col_u(&ob, x->has_t1, x->t1_ns / 1000);
	col_u(&ob, x->has_value, x->value);
	ob_char(&ob, ',');
	ob_str(&ob, p->unit);
	col_u(&ob, 1, ln->reading);
	ob_mem(&ob, "\r\n", 2);
	ob_flush(&ob);
}

/* A cell starting with c could be read as a formula: guard it. */
static int
formula_start(unsigned char c)
{
	return c == '=' || c == '+' || c == '-' || c == '@';
}

/*
 * csv_text's cell: escaped as text output escapes (fmt.h), then quoted
 * (RFC 4180) if it holds ',' or '"', and guarded against formulas.
 */
static void
cell_text(struct outbuf *ob, const char *src)
{
	const unsigned char *s = (const unsigned char *)src;
	int quote;
	size_t n;

	/*
	 * Most cells (host, command, zone) need nothing: one pass to see
	 * that, and one copy.  strpbrk and the run loop below were a
	 * seventh of a CSV line's instructions.
	 */
	for (n = 0; s[n] != '\0' && s[n] != ',' && s[n] != '"' &&
	    !fmt_needs_escape(s[n], 0); n++)
		;
	if (s[n] == '\0' && !formula_start(s[0])) {
		ob_mem(ob, src, n);
		return;
	}
	/* Escaped, the cell holds no control byte: only these need quotes. */
	quote = strpbrk(src, ",\"") != NULL;

	if (quote)
		ob_char(ob, '"');
	if (formula_start(s[0]))
		ob_char(ob, '\'');
	/* Runs that need nothing go out in one copy each. */
	for (;;) {
		for (n = 0; s[n] != '\0' && s[n] != '"' &&
		    !fmt_needs_escape(s[n], 0); n++)
			;
		ob_mem(ob, (const char *)s, n);
		s += n;
		if (*s == '\0')
			break;
		if (*s == '"')
			ob_mem(ob, "\"\"", 2);
		else
			ob_octal(ob, *s);
		s++;
	}
	if (quote)
		ob_char(ob, '"');
}
