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
	const unsigned char *s = (const unsigned char *)src;
	/* Escaped, the cell holds no control byte: only these need quotes. */
	int quote = strpbrk(src, ",\"") != NULL;

	if (quote)
		putc('"', fp);
	if (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@')
		putc('\'', fp);
	for (; *s != '\0'; s++)
		if (fmt_needs_escape(*s, 0))
			fprintf(fp, "\\%03o", *s);
		else if (*s == '"')
			fputs("\"\"", fp);
		else
			putc(*s, fp);
	if (quote)
		putc('"', fp);
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
col_u(FILE *fp, int has, uint64_t v)
{
	if (has)
		fprintf(fp, ",%" PRIu64, v);
	else
		fputc(',', fp);
}

static void
col_fixed(FILE *fp, int has, uint64_t v, uint64_t div, int dec)
{
	char b[48];

	fputc(',', fp);
	if (has)
		fputs(fmt_fixed(b, sizeof(b), v, div, dec), fp);
}

/* A text cell; control bytes escaped as in text output. */
static void
col_s(FILE *fp, int has, const char *s)
{
	fputc(',', fp);
	if (has)
		csv_text(fp, s);
}

/* start/finish as UTC text and epoch seconds (µs), the zone, duration. */
static void
col_times(FILE *fp, int has_start, uint64_t start_ns, int has_finish,
    uint64_t finish_ns)
{
	char b[48];

	col_s(fp, has_start, csv_utc(b, sizeof(b),
	    (int64_t)(start_ns / 1000000000u)));
	col_fixed(fp, has_start, start_ns, 1000000000u, 6);
	col_s(fp, has_finish, csv_utc(b, sizeof(b),
	    (int64_t)(finish_ns / 1000000000u)));
	col_fixed(fp, has_finish, finish_ns, 1000000000u, 6);
	fputs(",UTC", fp);
	col_fixed(fp, has_start && has_finish && finish_ns >= start_ns,
	    finish_ns - start_ns, 1000000000u, 6);
}

void
csv_proc(FILE *fp, const char *host, const struct ex_proc *p)
{
	int f;

	fputs(p->group == EXD_GROUP_PROC ? "final" : "partial", fp);
	col_s(fp, 1, host);
	col_u(fp, REC_HAS(p, PROC_PID), p->v[PROC_PID]);
	col_u(fp, REC_HAS(p, PROC_PPID), p->v[PROC_PPID]);
	col_u(fp, REC_HAS(p, PROC_UID), p->v[PROC_UID]);
	col_u(fp, REC_HAS(p, PROC_GID), p->v[PROC_GID]);
	col_u(fp, REC_HAS(p, PROC_PROJID), p->v[PROC_PROJID]);
	col_u(fp, REC_HAS(p, PROC_TASKID), p->v[PROC_TASKID]);
	col_times(fp, REC_HAS(p, PROC_START_NS), p->v[PROC_START_NS],
	    REC_HAS(p, PROC_FINISH_NS), p->v[PROC_FINISH_NS]);
	col_fixed(fp, REC_HAS(p, PROC_CPU_USER_NS), p->v[PROC_CPU_USER_NS],
	    1000000000u, 6);
	col_fixed(fp, REC_HAS(p, PROC_CPU_SYS_NS), p->v[PROC_CPU_SYS_NS],
	    1000000000u, 6);
	for (f = PROC_FAULTS_MAJOR; f <= PROC_SYSCALLS; f++)
		if (f != PROC_MSGS_SND && f != PROC_MSGS_RCV)
			col_u(fp, REC_HAS(p, f), p->v[f]);
	col_u(fp, REC_HAS(p, PROC_RSS_AVG_KB), p->v[PROC_RSS_AVG_KB]);
	col_u(fp, REC_HAS(p, PROC_RSS_MAX_KB), p->v[PROC_RSS_MAX_KB]);
	col_u(fp, REC_HAS(p, PROC_WAIT_STATUS) && p->group == EXD_GROUP_PROC,
	    p->v[PROC_WAIT_STATUS]);
	col_s(fp, REC_HAS(p, PROC_COMMAND), p->command);
	col_s(fp, REC_HAS(p, PROC_ZONE), p->zone);
	fputs("\r\n", fp);
}

void
csv_task(FILE *fp, const char *host, const struct ex_task *t)
{
	int f;

	fputs(t->group == EXD_GROUP_TASK ? "final" :
	    t->group == EXD_GROUP_TASK_PARTIAL ? "partial" : "interval", fp);
	col_s(fp, 1, host);
	col_u(fp, REC_HAS(t, TASK_TASKID), t->v[TASK_TASKID]);
	col_u(fp, REC_HAS(t, TASK_PROJID), t->v[TASK_PROJID]);
	col_times(fp, REC_HAS(t, TASK_START_NS), t->v[TASK_START_NS],
	    REC_HAS(t, TASK_FINISH_NS), t->v[TASK_FINISH_NS]);
	col_fixed(fp, REC_HAS(t, TASK_CPU_USER_NS), t->v[TASK_CPU_USER_NS],
	    1000000000u, 6);
	col_fixed(fp, REC_HAS(t, TASK_CPU_SYS_NS), t->v[TASK_CPU_SYS_NS],
	    1000000000u, 6);
	for (f = TASK_FAULTS_MAJOR; f <= TASK_SYSCALLS; f++)
		if (f != TASK_MSGS_SND && f != TASK_MSGS_RCV)
			col_u(fp, REC_HAS(t, f), t->v[f]);
	col_s(fp, REC_HAS(t, TASK_ZONE), t->zone);
	fputs("\r\n", fp);
}

static void
col_addr(FILE *fp, int has, int family, const uint8_t *a)
{
	char b[INET6_ADDRSTRLEN];

	if (family == 6)
		inet_ntop(AF_INET6, a, b, sizeof(b));
	else
		snprintf(b, sizeof(b), "%u.%u.%u.%u", a[0], a[1], a[2], a[3]);
	col_s(fp, has, b);
}

void
csv_flow(FILE *fp, const char *host, const struct ex_flow *f)
{
	const char *pn = REC_HAS(f, FLOW_PROTOCOL) ?
	    dump_proto_name((unsigned)f->v[FLOW_PROTOCOL]) : NULL;
	char b[48];

	csv_text(fp, host);
	if (pn != NULL)
		col_s(fp, 1, pn);
	else
		col_u(fp, REC_HAS(f, FLOW_PROTOCOL), f->v[FLOW_PROTOCOL]);
	col_addr(fp, REC_HAS(f, FLOW_SADDR), f->family, f->saddr);
	col_u(fp, REC_HAS(f, FLOW_SPORT), f->v[FLOW_SPORT]);
	col_addr(fp, REC_HAS(f, FLOW_DADDR), f->family, f->daddr);
	col_u(fp, REC_HAS(f, FLOW_DPORT), f->v[FLOW_DPORT]);
	col_s(fp, REC_HAS(f, FLOW_CTIME_S), csv_utc(b, sizeof(b),
	    (int64_t)f->v[FLOW_CTIME_S]));
	col_u(fp, REC_HAS(f, FLOW_CTIME_S), f->v[FLOW_CTIME_S]);
	col_s(fp, REC_HAS(f, FLOW_LSEEN_S), csv_utc(b, sizeof(b),
	    (int64_t)f->v[FLOW_LSEEN_S]));
	col_u(fp, REC_HAS(f, FLOW_LSEEN_S), f->v[FLOW_LSEEN_S]);
	fputs(",UTC", fp);
	col_u(fp, REC_HAS(f, FLOW_CTIME_S) && REC_HAS(f, FLOW_LSEEN_S) &&
	    f->v[FLOW_LSEEN_S] >= f->v[FLOW_CTIME_S],
	    f->v[FLOW_LSEEN_S] - f->v[FLOW_CTIME_S]);
	col_u(fp, REC_HAS(f, FLOW_NBYTES), f->v[FLOW_NBYTES]);
	col_u(fp, REC_HAS(f, FLOW_NPKTS), f->v[FLOW_NPKTS]);
	col_u(fp, REC_HAS(f, FLOW_UID), f->v[FLOW_UID]);
	col_u(fp, REC_HAS(f, FLOW_PROJID), f->v[FLOW_PROJID]);
	col_s(fp, REC_HAS(f, FLOW_ACTION), f->action);
	fputs("\r\n", fp);
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
	csv_text(fp, host);
	fprintf(fp, ",%s,", p->name);
	csv_text(fp, ln->detail);
	fprintf(fp, ",%" PRIu64, ln->ts_us);
	col_u(fp, x->has_t0, x->t0_ns / 1000);
	col_u(fp, x->has_t1, x->t1_ns / 1000);
	col_u(fp, x->has_value, x->value);
	fprintf(fp, ",%s,%" PRIu64 "\r\n", p->unit, ln->reading);
}
