/*
 * Fill fixed records (records.h) from decoded exacct groups.
 *
 * One table per record kind maps a data id (offset from the kind's first
 * id) to a field, and says whether the item is a whole value or the
 * seconds or nanoseconds half of a time; the halves are joined into
 * nanoseconds once the whole group has been seen, since members may come
 * in any order.  Ids: ../shared/docs/exacct-format.md §5.3, §5.4, §5.6.
 */
#include <string.h>

#include "exacct.h"
#include "local.h"
#include "records.h"

enum part { WHOLE = 1, SEC, NSEC, STR, ADDR4, ADDR6 };

struct idmap {
	uint8_t		 field;
	uint8_t		 part;		/* 0: unknown id */
};

const struct field_info proc_fields[PROC_NFIELDS] = {
	[PROC_PID] = { "pid", FK_ID },
	[PROC_PPID] = { "ppid", FK_ID },
	[PROC_UID] = { "uid", FK_ID },
	[PROC_GID] = { "gid", FK_ID },
	[PROC_PROJID] = { "projid", FK_ID },
	[PROC_TASKID] = { "taskid", FK_ID },
	[PROC_START_NS] = { "start_ns", FK_TIME },
	[PROC_FINISH_NS] = { "finish_ns", FK_TIME },
	[PROC_CPU_USER_NS] = { "cpu_user_ns", FK_COUNTER },
	[PROC_CPU_SYS_NS] = { "cpu_sys_ns", FK_COUNTER },
	[PROC_FAULTS_MAJOR] = { "faults_major", FK_COUNTER },
	[PROC_FAULTS_MINOR] = { "faults_minor", FK_COUNTER },
	[PROC_MSGS_SND] = { "msgs_snd", FK_COUNTER },
	[PROC_MSGS_RCV] = { "msgs_rcv", FK_COUNTER },
	[PROC_BLOCKS_IN] = { "blocks_in", FK_COUNTER },
	[PROC_BLOCKS_OUT] = { "blocks_out", FK_COUNTER },
	[PROC_CHARS_RDWR] = { "chars_rdwr", FK_COUNTER },
	[PROC_CTXT_VOL] = { "ctxt_vol", FK_COUNTER },
	[PROC_CTXT_INV] = { "ctxt_inv", FK_COUNTER },
	[PROC_SIGNALS] = { "signals", FK_COUNTER },
	[PROC_SWAPS] = { "swaps", FK_COUNTER },
	[PROC_SYSCALLS] = { "syscalls", FK_COUNTER },
	[PROC_READ_BYTES] = { "read_bytes", FK_COUNTER },
	[PROC_WRITE_BYTES] = { "write_bytes", FK_COUNTER },
	[PROC_SYSCALLS_R] = { "syscalls_r", FK_COUNTER },
	[PROC_SYSCALLS_W] = { "syscalls_w", FK_COUNTER },
	[PROC_RSS_AVG_KB] = { "rss_avg_kb", FK_LEVEL },
	[PROC_RSS_MAX_KB] = { "rss_max_kb", FK_LEVEL },
	[PROC_RSS_KB] = { "rss_kb", FK_LEVEL },
	[PROC_THREADS] = { "threads", FK_LEVEL },
	[PROC_TTY_MAJOR] = { "tty_major", FK_ID },
	[PROC_TTY_MINOR] = { "tty_minor", FK_ID },
	[PROC_ACCTFLAGS] = { "acctflags", FK_ID },
	[PROC_WAIT_STATUS] = { "wait_status", FK_ID },
	[PROC_COMMAND] = { "command", FK_STRING },
	[PROC_HOSTNAME] = { "hostname", FK_STRING },
	[PROC_ZONE] = { "zone", FK_STRING },
	[PROC_DELAY_CPU_NS] = { "delay_cpu_ns", FK_COUNTER },
	[PROC_DELAY_BLKIO_NS] = { "delay_blkio_ns", FK_COUNTER },
	[PROC_DELAY_SWAPIN_NS] = { "delay_swapin_ns", FK_COUNTER },
	[PROC_DELAY_FREEPAGES_NS] = { "delay_freepages_ns", FK_COUNTER },
	[PROC_DELAY_THRASHING_NS] = { "delay_thrashing_ns", FK_COUNTER },
	[PROC_DELAY_COMPACT_NS] = { "delay_compact_ns", FK_COUNTER },
	[PROC_DELAY_WPCOPY_NS] = { "delay_wpcopy_ns", FK_COUNTER },
	[PROC_DELAY_IRQ_NS] = { "delay_irq_ns", FK_COUNTER },
	[PROC_CPU_RUN_NS] = { "cpu_run_ns", FK_COUNTER },
	[PROC_CPU_SOURCE] = { "cpu_source", FK_ID },
};

const struct field_info task_fields[TASK_NFIELDS] = {
	[TASK_TASKID] = { "taskid", FK_ID },
	[TASK_PROJID] = { "projid", FK_ID },
	[TASK_ANCTASKID] = { "anctaskid", FK_ID },
	[TASK_START_NS] = { "start_ns", FK_TIME },
	[TASK_FINISH_NS] = { "finish_ns", FK_TIME },
	[TASK_CPU_USER_NS] = { "cpu_user_ns", FK_COUNTER },
	[TASK_CPU_SYS_NS] = { "cpu_sys_ns", FK_COUNTER },
	[TASK_FAULTS_MAJOR] = { "faults_major", FK_COUNTER },
	[TASK_FAULTS_MINOR] = { "faults_minor", FK_COUNTER },
	[TASK_MSGS_SND] = { "msgs_snd", FK_COUNTER },
	[TASK_MSGS_RCV] = { "msgs_rcv", FK_COUNTER },
	[TASK_BLOCKS_IN] = { "blocks_in", FK_COUNTER },
	[TASK_BLOCKS_OUT] = { "blocks_out", FK_COUNTER },
	[TASK_CHARS_RDWR] = { "chars_rdwr", FK_COUNTER },
	[TASK_CTXT_VOL] = { "ctxt_vol", FK_COUNTER },
	[TASK_CTXT_INV] = { "ctxt_inv", FK_COUNTER },
	[TASK_SIGNALS] = { "signals", FK_COUNTER },
	[TASK_SWAPS] = { "swaps", FK_COUNTER },
	[TASK_SYSCALLS] = { "syscalls", FK_COUNTER },
	[TASK_HOSTNAME] = { "hostname", FK_STRING },
	[TASK_ZONE] = { "zone", FK_STRING },
};

const struct field_info flow_fields[FLOW_NFIELDS] = {
	[FLOW_SADDR] = { "src_addr", FK_STRING },
	[FLOW_DADDR] = { "dst_addr", FK_STRING },
	[FLOW_SPORT] = { "src_port", FK_ID },
	[FLOW_DPORT] = { "dst_port", FK_ID },
	[FLOW_PROTOCOL] = { "protocol", FK_ID },
	[FLOW_DSFIELD] = { "dsfield", FK_ID },
	[FLOW_CTIME_S] = { "ctime_s", FK_TIME },
	[FLOW_LSEEN_S] = { "lseen_s", FK_TIME },
	[FLOW_NBYTES] = { "bytes", FK_COUNTER },
	[FLOW_NPKTS] = { "packets", FK_COUNTER },
	[FLOW_PROJID] = { "projid", FK_ID },
	[FLOW_UID] = { "uid", FK_ID },
	[FLOW_ACTION] = { "action", FK_STRING },
};

/* Process ids 0x1000..0x1023 (§5.3). */
static const struct idmap proc_map[] = {
	[0x00] = { PROC_PID, WHOLE },
	[0x01] = { PROC_UID, WHOLE },
	[0x02] = { PROC_GID, WHOLE },
	[0x03] = { PROC_TASKID, WHOLE },
	[0x04] = { PROC_PROJID, WHOLE },
	[0x05] = { PROC_HOSTNAME, STR },
	[0x06] = { PROC_COMMAND, STR },
	[0x07] = { PROC_START_NS, SEC },
	[0x08] = { PROC_START_NS, NSEC },
	[0x09] = { PROC_FINISH_NS, SEC },
	[0x0a] = { PROC_FINISH_NS, NSEC },
	[0x0b] = { PROC_CPU_USER_NS, SEC },
	[0x0c] = { PROC_CPU_USER_NS, NSEC },
	[0x0d] = { PROC_CPU_SYS_NS, SEC },
	[0x0e] = { PROC_CPU_SYS_NS, NSEC },
	[0x0f] = { PROC_TTY_MAJOR, WHOLE },
	[0x10] = { PROC_TTY_MINOR, WHOLE },
	[0x11] = { PROC_FAULTS_MAJOR, WHOLE },
	[0x12] = { PROC_FAULTS_MINOR, WHOLE },
	[0x13] = { PROC_MSGS_RCV, WHOLE },
	[0x14] = { PROC_MSGS_SND, WHOLE },
	[0x15] = { PROC_BLOCKS_IN, WHOLE },
	[0x16] = { PROC_BLOCKS_OUT, WHOLE },
	[0x17] = { PROC_CHARS_RDWR, WHOLE },
	[0x18] = { PROC_CTXT_VOL, WHOLE },
	[0x19] = { PROC_CTXT_INV, WHOLE },
	[0x1a] = { PROC_SIGNALS, WHOLE },
	[0x1b] = { PROC_SWAPS, WHOLE },
	[0x1c] = { PROC_SYSCALLS, WHOLE },
	[0x1d] = { PROC_ACCTFLAGS, WHOLE },
	[0x1f] = { PROC_PPID, WHOLE },
	[0x20] = { PROC_WAIT_STATUS, WHOLE },
	[0x21] = { PROC_ZONE, STR },
	[0x22] = { PROC_RSS_AVG_KB, WHOLE },
	[0x23] = { PROC_RSS_MAX_KB, WHOLE },
};

/* Task ids 0x2000..0x2019 (§5.4). */
static const struct idmap task_map[] = {
	[0x00] = { TASK_TASKID, WHOLE },
	[0x01] = { TASK_PROJID, WHOLE },
	[0x02] = { TASK_HOSTNAME, STR },
	[0x03] = { TASK_START_NS, SEC },
	[0x04] = { TASK_START_NS, NSEC },
	[0x05] = { TASK_FINISH_NS, SEC },
	[0x06] = { TASK_FINISH_NS, NSEC },
	[0x07] = { TASK_CPU_USER_NS, SEC },
	[0x08] = { TASK_CPU_USER_NS, NSEC },
	[0x09] = { TASK_CPU_SYS_NS, SEC },
	[0x0a] = { TASK_CPU_SYS_NS, NSEC },
	[0x0b] = { TASK_FAULTS_MAJOR, WHOLE },
	[0x0c] = { TASK_FAULTS_MINOR, WHOLE },
	[0x0d] = { TASK_MSGS_RCV, WHOLE },
	[0x0e] = { TASK_MSGS_SND, WHOLE },
	[0x0f] = { TASK_BLOCKS_IN, WHOLE },
	[0x10] = { TASK_BLOCKS_OUT, WHOLE },
	[0x11] = { TASK_CHARS_RDWR, WHOLE },
	[0x12] = { TASK_CTXT_VOL, WHOLE },
	[0x13] = { TASK_CTXT_INV, WHOLE },
	[0x14] = { TASK_SIGNALS, WHOLE },
	[0x15] = { TASK_SWAPS, WHOLE },
	[0x16] = { TASK_SYSCALLS, WHOLE },
	[0x18] = { TASK_ANCTASKID, WHOLE },
	[0x19] = { TASK_ZONE, STR },
};

/* Flow ids 0x3000..0x300e (§5.6). */
static const struct idmap flow_map[] = {
	[0x00] = { FLOW_SADDR, ADDR4 },
	[0x01] = { FLOW_DADDR, ADDR4 },
	[0x02] = { FLOW_SADDR, ADDR6 },
	[0x03] = { FLOW_DADDR, ADDR6 },
	[0x04] = { FLOW_SPORT, WHOLE },
	[0x05] = { FLOW_DPORT, WHOLE },
	[0x06] = { FLOW_PROTOCOL, WHOLE },
	[0x07] = { FLOW_DSFIELD, WHOLE },
	[0x08] = { FLOW_NBYTES, WHOLE },
	[0x09] = { FLOW_NPKTS, WHOLE },
	[0x0a] = { FLOW_CTIME_S, WHOLE },
	[0x0b] = { FLOW_LSEEN_S, WHOLE },
	[0x0c] = { FLOW_PROJID, WHOLE },
	[0x0d] = { FLOW_UID, WHOLE },
	[0x0e] = { FLOW_ACTION, STR },
};

/* extracct's local items inside process groups (local.h). */
static const struct idmap proc_local_map[] = {
	[EXL_PROC_READ_BYTES - EXL_PROC_READ_BYTES] = { PROC_READ_BYTES, WHOLE },
	[EXL_PROC_WRITE_BYTES - EXL_PROC_READ_BYTES] = { PROC_WRITE_BYTES,
	    WHOLE },
	[EXL_PROC_SYSCALLS_R - EXL_PROC_READ_BYTES] = { PROC_SYSCALLS_R, WHOLE },
	[EXL_PROC_SYSCALLS_W - EXL_PROC_READ_BYTES] = { PROC_SYSCALLS_W, WHOLE },
	[EXL_PROC_THREADS - EXL_PROC_READ_BYTES] = { PROC_THREADS, WHOLE },
	[EXL_PROC_RSS_K - EXL_PROC_READ_BYTES] = { PROC_RSS_KB, WHOLE },
	[EXL_PROC_DELAY_CPU - EXL_PROC_READ_BYTES] = { PROC_DELAY_CPU_NS,
	    WHOLE },
	[EXL_PROC_DELAY_BLKIO - EXL_PROC_READ_BYTES] = { PROC_DELAY_BLKIO_NS,
	    WHOLE },
	[EXL_PROC_DELAY_SWAPIN - EXL_PROC_READ_BYTES] = {
	    PROC_DELAY_SWAPIN_NS, WHOLE },
	[EXL_PROC_DELAY_FREEPAGES - EXL_PROC_READ_BYTES] = {
	    PROC_DELAY_FREEPAGES_NS, WHOLE },
	[EXL_PROC_DELAY_THRASHING - EXL_PROC_READ_BYTES] = {
	    PROC_DELAY_THRASHING_NS, WHOLE },
	[EXL_PROC_DELAY_COMPACT - EXL_PROC_READ_BYTES] = {
	    PROC_DELAY_COMPACT_NS, WHOLE },
	[EXL_PROC_DELAY_WPCOPY - EXL_PROC_READ_BYTES] = {
	    PROC_DELAY_WPCOPY_NS, WHOLE },
	[EXL_PROC_DELAY_IRQ - EXL_PROC_READ_BYTES] = { PROC_DELAY_IRQ_NS,
	    WHOLE },
	[EXL_PROC_CPU_RUN_NS - EXL_PROC_READ_BYTES] = { PROC_CPU_RUN_NS,
	    WHOLE },
	[EXL_PROC_CPU_SOURCE - EXL_PROC_READ_BYTES] = { PROC_CPU_SOURCE,
	    WHOLE },
};

/* The energy snapshot's items (local catalog), in enum order. */
static const struct idmap energy_map[] = {
	{ EN_PID, WHOLE }, { EN_PPID, WHOLE }, { EN_UID, WHOLE },
	{ EN_START_NS, WHOLE }, { EN_TIME_NS, WHOLE },
	{ EN_USER_TICKS, WHOLE }, { EN_SYS_TICKS, WHOLE },
	{ EN_USER_PTICKS, WHOLE }, { EN_SYS_PTICKS, WHOLE },
	{ EN_ENERGY_NJ, WHOLE }, { EN_PENERGY_NJ, WHOLE },
	{ EN_INSTRUCTIONS, WHOLE }, { EN_CYCLES, WHOLE },
	{ EN_DISK_READ, WHOLE }, { EN_DISK_WRITTEN, WHOLE },
	{ EN_FOOTPRINT, WHOLE }, { EN_MAX_FOOTPRINT, WHOLE },
	{ EN_INT_WAKEUPS, WHOLE }, { EN_IDLE_WAKEUPS, WHOLE },
	{ EN_TB_NUMER, WHOLE }, { EN_TB_DENOM, WHOLE }, { EN_TB_HZ, WHOLE },
	{ EN_TRANSLATED, WHOLE }, { EN_HAS_ENERGY, WHOLE },
	{ EN_COMMAND, STR },
};

/* The loss record's items (local catalog). */
static const struct idmap lost_map[] = {
	{ LOST_TIME_NS, WHOLE }, { LOST_COUNT, WHOLE },
};

/* The RAPL record's items (local catalog). */
static const struct idmap rapl_map[] = {
	{ RAPL_TIME_NS, WHOLE }, { RAPL_ZONE, STR }, { RAPL_NAME, STR },
	{ RAPL_ENERGY_UJ, WHOLE }, { RAPL_MAX_UJ, WHOLE },
	{ RAPL_BOOT_S, WHOLE }, { RAPL_LIMIT_UW, WHOLE },
};

/* The system record's items (local catalog). */
static const struct idmap sys_map[] = {
	{ SYS_TIME_NS, WHOLE }, { SYS_USER, WHOLE }, { SYS_NICE, WHOLE },
	{ SYS_SYSTEM, WHOLE }, { SYS_IDLE, WHOLE }, { SYS_IOWAIT, WHOLE },
	{ SYS_IRQ, WHOLE }, { SYS_SOFTIRQ, WHOLE }, { SYS_STEAL, WHOLE },
	{ SYS_CLK_TCK, WHOLE }, { SYS_BTIME, WHOLE }, { SYS_NCPU, WHOLE },
};

/* Where a string field goes. */
struct strdst {
	char		*buf;
	size_t		 size;
};

/* Where the address fields go (flows only). */
struct addrdst {
	uint8_t		*addr[2];	/* FLOW_SADDR, FLOW_DADDR */
	int		*family;
};

/* Everything the generic filler needs to know about one record kind. */
struct fillspec {
	uint32_t		 catalog;	/* of the ids in map */
	uint32_t		 base;		/* first data id */
	const struct idmap	*map;
	size_t			 nmap;
	uint32_t		 lbase;		/* local-catalog extras, or 0 */
	const struct idmap	*lmap;
	size_t			 nlmap;
	uint64_t		*v;
	uint64_t		*present;
	const struct strdst	*str;		/* indexed by field */
	const struct addrdst	*addr;		/* NULL if the kind has none */
};

static void	fill(const struct fillspec *s, const struct ex_rec *rec,
		    struct rec_counts *c);
static int	is_int_type(uint32_t tag);

enum rec_kind
rec_kind(const struct ex_rec *rec)
{
	uint32_t tag;

	if (rec->nitems == 0)
		return REC_OTHER;
	tag = rec->items[0].tag;
	if (tag == (EXT_GROUP | EXC_LOCAL | EXL_GROUP_SYSLOAD))
		return REC_SYSLOAD;
	if (tag == (EXT_GROUP | EXC_LOCAL | EXL_GROUP_LOST))
		return REC_LOST;
	if (tag == (EXT_GROUP | EXC_LOCAL | EXL_GROUP_ENERGY))
		return REC_ENERGY;
	if (tag == (EXT_GROUP | EXC_LOCAL | EXL_GROUP_RAPL))
		return REC_RAPL;
	if (EX_TYPE(tag) != EXT_GROUP || EX_CATALOG(tag) != EXC_DEFAULT)
		return REC_OTHER;
	switch (EX_ID(tag)) {
	case EXD_GROUP_HEADER:
		return REC_HEADER;
	case EXD_GROUP_PROC:
	case EXD_GROUP_PROC_PARTIAL:
		return REC_PROC;
	case EXD_GROUP_TASK:
	case EXD_GROUP_TASK_PARTIAL:
	case EXD_GROUP_TASK_INTERVAL:
		return REC_TASK;
	case EXD_GROUP_FLOW:
		return REC_FLOW;
	}
	return REC_OTHER;
}

void
proc_fill(struct ex_proc *p, const struct ex_rec *rec, struct rec_counts *c)
{
	struct strdst str[PROC_NFIELDS] = {
		[PROC_COMMAND] = { p->command, sizeof(p->command) },
		[PROC_HOSTNAME] = { p->hostname, sizeof(p->hostname) },
		[PROC_ZONE] = { p->zone, sizeof(p->zone) },
	};
	struct fillspec s = { EXC_DEFAULT, 0x1000, proc_map,
	    sizeof(proc_map) / sizeof(proc_map[0]), EXL_PROC_READ_BYTES,
	    proc_local_map, sizeof(proc_local_map) / sizeof(proc_local_map[0]),
	    p->v, &p->present, str, NULL };

	p->group = EX_ID(rec->items[0].tag);
	p->off = rec->off;
	p->command[0] = p->hostname[0] = p->zone[0] = '\0';
	fill(&s, rec, c);
}

void
task_fill(struct ex_task *t, const struct ex_rec *rec, struct rec_counts *c)
{
	struct strdst str[TASK_NFIELDS] = {
		[TASK_HOSTNAME] = { t->hostname, sizeof(t->hostname) },
		[TASK_ZONE] = { t->zone, sizeof(t->zone) },
	};
	struct fillspec s = { EXC_DEFAULT, 0x2000, task_map,
	    sizeof(task_map) / sizeof(task_map[0]), 0, NULL, 0, t->v,
	    &t->present, str, NULL };

	t->group = EX_ID(rec->items[0].tag);
	t->off = rec->off;
	t->hostname[0] = t->zone[0] = '\0';
	fill(&s, rec, c);
}

void
flow_fill(struct ex_flow *f, const struct ex_rec *rec, struct rec_counts *c)
{
	struct strdst str[FLOW_NFIELDS] = {
		[FLOW_ACTION] = { f->action, sizeof(f->action) },
	};
	struct addrdst addr = { { f->saddr, f->daddr }, &f->family };
	struct fillspec s = { EXC_DEFAULT, 0x3000, flow_map,
	    sizeof(flow_map) / sizeof(flow_map[0]), 0, NULL, 0, f->v,
	    &f->present, str, &addr };

	f->off = rec->off;
	f->family = 0;
	f->action[0] = '\0';
	memset(f->saddr, 0, sizeof(f->saddr));
	memset(f->daddr, 0, sizeof(f->daddr));
	fill(&s, rec, c);
}

void
sysload_fill(struct ex_sysload *sl, const struct ex_rec *rec,
    struct rec_counts *c)
{
	struct strdst str[1] = { { NULL, 0 } };
	struct fillspec s = { EXC_LOCAL, EXL_SYS_TIME_NS, sys_map,
	    sizeof(sys_map) / sizeof(sys_map[0]), 0, NULL, 0, sl->v,
	    &sl->present, str, NULL };

	sl->off = rec->off;
	fill(&s, rec, c);
}

void
lost_fill(struct ex_lost *l, const struct ex_rec *rec, struct rec_counts *c)
{
	struct strdst str[1] = { { NULL, 0 } };
	struct fillspec s = { EXC_LOCAL, EXL_LOST_TIME_NS, lost_map,
	    sizeof(lost_map) / sizeof(lost_map[0]), 0, NULL, 0, l->v,
	    &l->present, str, NULL };

	l->off = rec->off;
	fill(&s, rec, c);
}

void
energy_fill(struct ex_energy *e, const struct ex_rec *rec,
    struct rec_counts *c)
{
	struct strdst str[EN_NFIELDS] = {
		[EN_COMMAND] = { e->command, sizeof(e->command) },
	};
	struct fillspec s = { EXC_LOCAL, EXL_EN_FIRST, energy_map,
	    sizeof(energy_map) / sizeof(energy_map[0]), 0, NULL, 0, e->v,
	    &e->present, str, NULL };

	e->off = rec->off;
	e->command[0] = '\0';
	fill(&s, rec, c);
	/* A writer without energy counting reads zeros: absent, not 0. */
	if (REC_HAS(e, EN_HAS_ENERGY) && e->v[EN_HAS_ENERGY] == 0)
		e->present &= ~(1ULL << EN_ENERGY_NJ | 1ULL << EN_PENERGY_NJ);
}

void
rapl_fill(struct ex_rapl *z, const struct ex_rec *rec, struct rec_counts *c)
{
	struct strdst str[RAPL_NFIELDS] = {
		[RAPL_ZONE] = { z->zone, sizeof(z->zone) },
		[RAPL_NAME] = { z->name, sizeof(z->name) },
	};
	struct fillspec s = { EXC_LOCAL, EXL_RAPL_TIME_NS, rapl_map,
	    sizeof(rapl_map) / sizeof(rapl_map[0]), 0, NULL, 0, z->v,
	    &z->present, str, NULL };

	z->off = rec->off;
	z->zone[0] = z->name[0] = '\0';
	fill(&s, rec, c);
}

int
energy_tick_ns(const struct ex_energy *e, uint64_t ticks, uint64_t *ns)
{
	unsigned __int128 t = ticks;

	if (REC_HAS(e, EN_TRANSLATED) && e->v[EN_TRANSLATED] != 0) {
		if (!REC_HAS(e, EN_TB_HZ) || e->v[EN_TB_HZ] == 0)
			return -1;
		t = t * 1000000000u / e->v[EN_TB_HZ];
	} else {
		if (!REC_HAS(e, EN_TB_NUMER) || !REC_HAS(e, EN_TB_DENOM) ||
		    e->v[EN_TB_DENOM] == 0)
			return -1;
		t = t * e->v[EN_TB_NUMER] / e->v[EN_TB_DENOM];
	}
	if (t > UINT64_MAX)
		return -1;
	*ns = (uint64_t)t;
	return 0;
}

void
rec_copy_string(char *dst, size_t dstlen, const uint8_t *p, size_t n)
{
	const void *nul = memchr(p, '\0', n);

	if (nul != NULL)
		n = (size_t)((const uint8_t *)nul - p);
	if (n >= dstlen)
		n = dstlen - 1;
	memcpy(dst, p, n);
	dst[n] = '\0';
}

/*
 * The generic filler: one pass over the direct members.  Time halves are
 * collected first and joined at the end.
 */
static void
fill(const struct fillspec *s, const struct ex_rec *rec,
    struct rec_counts *c)
{
	uint64_t sec[64], nsec[64], has_sec = 0, has_nsec = 0, present = 0;
	size_t i;

	for (i = 1; i < rec->nitems; i++) {
		const struct ex_item *it = &rec->items[i];
		uint32_t id = EX_ID(it->tag) - s->base;
		const struct idmap *m;

		if (it->depth != 1)
			continue;	/* inside a nested group or object */
		if (EX_TYPE(it->tag) == EXT_GROUP) {
			c->unknown_groups++;
			continue;
		}
		if (EX_CATALOG(it->tag) == s->catalog &&
		    EX_ID(it->tag) >= s->base && id < s->nmap &&
		    s->map[id].part != 0)
			m = &s->map[id];
		else if (EX_CATALOG(it->tag) == EXC_LOCAL && s->lmap != NULL &&
		    EX_ID(it->tag) >= s->lbase &&
		    EX_ID(it->tag) - s->lbase < s->nlmap &&
		    s->lmap[EX_ID(it->tag) - s->lbase].part != 0)
			m = &s->lmap[EX_ID(it->tag) - s->lbase];
		else {
			c->unknown_items++;
			continue;
		}
		switch (m->part) {
		case WHOLE:
		case SEC:
		case NSEC:
			if (!is_int_type(it->tag))
				goto mistyped;
			if (m->part == SEC) {
				sec[m->field] = it->u;
				has_sec |= 1ULL << m->field;
			} else if (m->part == NSEC) {
				nsec[m->field] = it->u;
				has_nsec |= 1ULL << m->field;
			} else {
				s->v[m->field] = it->u;
				present |= 1ULL << m->field;
			}
			break;
		case STR:
			if (EX_TYPE(it->tag) != EXT_STRING)
				goto mistyped;
			rec_copy_string(s->str[m->field].buf,
			    s->str[m->field].size, it->p, it->n);
			present |= 1ULL << m->field;
			break;
		case ADDR4: {
			uint8_t *a;

			if (EX_TYPE(it->tag) != EXT_UINT32 || s->addr == NULL)
				goto mistyped;
			/* The value is the address read as a big-endian
			 * number: store it back in network order. */
			a = s->addr->addr[m->field == FLOW_DADDR];
			memset(a, 0, 16);
			a[0] = (uint8_t)(it->u >> 24);
			a[1] = (uint8_t)(it->u >> 16);
			a[2] = (uint8_t)(it->u >> 8);
			a[3] = (uint8_t)it->u;
			*s->addr->family = 4;
			present |= 1ULL << m->field;
			break;
		}
		case ADDR6:
			if (EX_TYPE(it->tag) != EXT_RAW || it->n != 16 ||
			    s->addr == NULL)
				goto mistyped;
			memcpy(s->addr->addr[m->field == FLOW_DADDR], it->p,
			    16);
			*s->addr->family = 6;
			present |= 1ULL << m->field;
			break;
		}
		continue;
mistyped:
		c->unknown_items++;
	}

	/* Join time halves: sec required, nsec optional but < 10^9. */
	while (has_sec != 0) {
		int f = __builtin_ctzll(has_sec);
		uint64_t ns = (has_nsec >> f) & 1 ? nsec[f] : 0;

		has_sec &= has_sec - 1;
		if (ns >= 1000000000u || sec[f] > UINT64_MAX / 1000000000u ||
		    sec[f] * 1000000000u > UINT64_MAX - ns) {
			c->bad_values++;
			continue;
		}
		s->v[f] = sec[f] * 1000000000u + ns;
		present |= 1ULL << f;
	}
	*s->present = present;
}

static int
is_int_type(uint32_t tag)
{
	uint32_t t = EX_TYPE(tag);

	return t == EXT_UINT8 || t == EXT_UINT16 || t == EXT_UINT32 ||
	    t == EXT_UINT64;
}
