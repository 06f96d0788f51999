/*
 * Fixed records to exacct groups (see recwrite.h).
 */
#include "local.h"
#include "recwrite.h"


static void
u32(struct exw *w, const struct ex_proc *p, int f, uint32_t id)
{
	if (REC_HAS(p, f))
		exw_uint(w, EXT_UINT32 | id, p->v[f]);
}

static void
u64(struct exw *w, const struct ex_proc *p, int f, uint32_t tag)
{
	if (REC_HAS(p, f))
		exw_uint(w, EXT_UINT64 | tag, p->v[f]);
}

/* A nanosecond field as the seconds and nanoseconds items. */
static void
sec_nsec(struct exw *w, const struct ex_proc *p, int f, uint32_t sec_id)
{
	if (!REC_HAS(p, f))
		return;
	exw_uint(w, EXT_UINT64 | sec_id, p->v[f] / NS);
	exw_uint(w, EXT_UINT64 | (sec_id + 1), p->v[f] % NS);
}

static void
str(struct exw *w, const struct ex_proc *p, int f, uint32_t id,
    const char *s)
{
	if (REC_HAS(p, f))
		exw_string(w, EXT_STRING | id, s);
}

void
proc_write(struct exw *w, const struct ex_proc *p)
{
	exw_group_begin(w, EXT_GROUP | p->group);
	u32(w, p, PROC_PID, 0x1000);
	u32(w, p, PROC_UID, 0x1001);
	u32(w, p, PROC_GID, 0x1002);
	u32(w, p, PROC_PROJID, 0x1004);
	u32(w, p, PROC_TASKID, 0x1003);
	sec_nsec(w, p, PROC_CPU_USER_NS, 0x100b);
	sec_nsec(w, p, PROC_CPU_SYS_NS, 0x100d);
	sec_nsec(w, p, PROC_START_NS, 0x1007);
	sec_nsec(w, p, PROC_FINISH_NS, 0x1009);
	str(w, p, PROC_COMMAND, 0x1006, p->command);
	u32(w, p, PROC_TTY_MAJOR, 0x100f);
	u32(w, p, PROC_TTY_MINOR, 0x1010);
	str(w, p, PROC_HOSTNAME, 0x1005, p->hostname);
	u64(w, p, PROC_FAULTS_MAJOR, 0x1011);
	u64(w, p, PROC_FAULTS_MINOR, 0x1012);
	u64(w, p, PROC_MSGS_SND, 0x1014);
	u64(w, p, PROC_MSGS_RCV, 0x1013);
	u64(w, p, PROC_BLOCKS_IN, 0x1015);
	u64(w, p, PROC_BLOCKS_OUT, 0x1016);
	u64(w, p, PROC_CHARS_RDWR, 0x1017);
	u64(w, p, PROC_CTXT_VOL, 0x1018);
	u64(w, p, PROC_CTXT_INV, 0x1019);
	u64(w, p, PROC_SIGNALS, 0x101a);
	u64(w, p, PROC_SWAPS, 0x101b);
	u64(w, p, PROC_SYSCALLS, 0x101c);
	u32(w, p, PROC_ACCTFLAGS, 0x101d);
	u32(w, p, PROC_PPID, 0x101f);
	u32(w, p, PROC_WAIT_STATUS, 0x1020);
	str(w, p, PROC_ZONE, 0x1021, p->zone);
	u64(w, p, PROC_RSS_AVG_KB, 0x1022);
	u64(w, p, PROC_RSS_MAX_KB, 0x1023);
	u64(w, p, PROC_READ_BYTES, EXC_LOCAL | EXL_PROC_READ_BYTES);
	u64(w, p, PROC_WRITE_BYTES, EXC_LOCAL | EXL_PROC_WRITE_BYTES);
	u64(w, p, PROC_SYSCALLS_R, EXC_LOCAL | EXL_PROC_SYSCALLS_R);
	u64(w, p, PROC_SYSCALLS_W, EXC_LOCAL | EXL_PROC_SYSCALLS_W);
	u32(w, p, PROC_THREADS, EXC_LOCAL | EXL_PROC_THREADS);
	u64(w, p, PROC_RSS_KB, EXC_LOCAL | EXL_PROC_RSS_K);
	u64(w, p, PROC_DELAY_CPU_NS, EXC_LOCAL | EXL_PROC_DELAY_CPU);
	u64(w, p, PROC_DELAY_BLKIO_NS, EXC_LOCAL | EXL_PROC_DELAY_BLKIO);
	u64(w, p, PROC_DELAY_SWAPIN_NS, EXC_LOCAL | EXL_PROC_DELAY_SWAPIN);
	u64(w, p, PROC_DELAY_FREEPAGES_NS,
	    EXC_LOCAL | EXL_PROC_DELAY_FREEPAGES);
	u64(w, p, PROC_DELAY_THRASHING_NS,
	    EXC_LOCAL | EXL_PROC_DELAY_THRASHING);
	u64(w, p, PROC_DELAY_COMPACT_NS, EXC_LOCAL | EXL_PROC_DELAY_COMPACT);
	u64(w, p, PROC_DELAY_WPCOPY_NS, EXC_LOCAL | EXL_PROC_DELAY_WPCOPY);
	u64(w, p, PROC_DELAY_IRQ_NS, EXC_LOCAL | EXL_PROC_DELAY_IRQ);
	u64(w, p, PROC_CPU_RUN_NS, EXC_LOCAL | EXL_PROC_CPU_RUN_NS);
	u32(w, p, PROC_CPU_SOURCE, EXC_LOCAL | EXL_PROC_CPU_SOURCE);
	exw_group_end(w, 0);
}

void
sysload_write(struct exw *w, const struct ex_sysload *s)
{
	static const uint32_t ids[SYS_NFIELDS] = {
		EXL_SYS_TIME_NS, EXL_SYS_USER, EXL_SYS_NICE, EXL_SYS_SYSTEM,
		EXL_SYS_IDLE, EXL_SYS_IOWAIT, EXL_SYS_IRQ, EXL_SYS_SOFTIRQ,
		EXL_SYS_STEAL, EXL_SYS_CLK_TCK, EXL_SYS_BTIME, EXL_SYS_NCPU
	};
	int f;

	exw_group_begin(w, EXT_GROUP | EXC_LOCAL | EXL_GROUP_SYSLOAD);
	for (f = 0; f < SYS_NFIELDS; f++) {
		uint32_t type = f == SYS_CLK_TCK || f == SYS_NCPU ?
		    EXT_UINT32 : EXT_UINT64;

		if (REC_HAS(s, f))
			exw_uint(w, type | EXC_LOCAL | ids[f], s->v[f]);
	}
	exw_group_end(w, 0);
}

void
energy_write(struct exw *w, const struct ex_energy *e)
{
	int f;

	exw_group_begin(w, EXT_GROUP | EXC_LOCAL | EXL_GROUP_ENERGY);
	for (f = 0; f < EN_NFIELDS; f++) {
		uint32_t id = EXC_LOCAL | (EXL_EN_FIRST + (uint32_t)f);
		uint32_t type = f <= EN_UID || f == EN_TB_NUMER ||
		    f == EN_TB_DENOM ? EXT_UINT32 : f == EN_TRANSLATED ||
		    f == EN_HAS_ENERGY ? EXT_UINT8 : EXT_UINT64;

		if (!REC_HAS(e, f))
			continue;
		if (f == EN_COMMAND)
			exw_string(w, EXT_STRING | id, e->command);
		else
			exw_uint(w, type | id, e->v[f]);
	}
	exw_group_end(w, 0);
}

/* Ids 0x301.. in lost_field order, all UINT64. */
void
lost_write(struct exw *w, const struct ex_lost *l)
{
	int f;

	exw_group_begin(w, EXT_GROUP | EXC_LOCAL | EXL_GROUP_LOST);
	for (f = 0; f < LOST_NFIELDS; f++)
		if (REC_HAS(l, f))
			exw_uint(w, EXT_UINT64 | EXC_LOCAL |
			    (EXL_LOST_TIME_NS + (uint32_t)f), l->v[f]);
	exw_group_end(w, 0);
}

/* Ids 0x501.. in rapl_field order: the zone and its name are strings. */
void
rapl_write(struct exw *w, const struct ex_rapl *z)
{
	int f;

	exw_group_begin(w, EXT_GROUP | EXC_LOCAL | EXL_GROUP_RAPL);
	for (f = 0; f < RAPL_NFIELDS; f++) {
		uint32_t id = EXC_LOCAL | (EXL_RAPL_TIME_NS + (uint32_t)f);

		if (!REC_HAS(z, f))
			continue;
		if (f == RAPL_ZONE || f == RAPL_NAME)
			exw_string(w, EXT_STRING | id, f == RAPL_ZONE ?
			    z->zone : z->name);
		else
			exw_uint(w, EXT_UINT64 | id, z->v[f]);
	}
	exw_group_end(w, 0);
}
