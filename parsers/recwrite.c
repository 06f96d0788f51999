/*
 * Fixed records to exacct groups (see recwrite.h).  A process record's
 * tags and types come from the field table (catalog.h); only the order
 * the kernel writes them in is written down here.
 */
#include "local.h"
#include "recwrite.h"

/* Each field's item tag (catalog, type and id) and how it is written. */
struct item {
	uint32_t	 tag;
	uint8_t		 part;		/* PART_SEC: two items, tag's id and
					   the next */
};

enum { PART_WHOLE, PART_SEC, PART_STR };

#define CAT_D	EXC_DEFAULT
#define CAT_L	EXC_LOCAL
#define ITEM_ROW(m, col, kind, unit, type, part, cat, id) \
	[PROC_##m] = { EXT_##type | CAT_##cat | (id), PART_##part },

static const struct item proc_items[PROC_NFIELDS] = {
	PROC_FIELD_ROWS(ITEM_ROW)
};

/*
 * The kernel's order (§5.3: by acctadm resource, not by id), then
 * extracct's local items in id order.
 */
static const uint8_t proc_order[] = {
	PROC_PID, PROC_UID, PROC_GID, PROC_PROJID, PROC_TASKID,
	PROC_CPU_USER_NS, PROC_CPU_SYS_NS, PROC_START_NS, PROC_FINISH_NS,
	PROC_COMMAND, PROC_TTY_MAJOR, PROC_TTY_MINOR, PROC_HOSTNAME,
	PROC_FAULTS_MAJOR, PROC_FAULTS_MINOR, PROC_MSGS_SND, PROC_MSGS_RCV,
	PROC_BLOCKS_IN, PROC_BLOCKS_OUT, PROC_CHARS_RDWR, PROC_CTXT_VOL,
	PROC_CTXT_INV, PROC_SIGNALS, PROC_SWAPS, PROC_SYSCALLS,
	PROC_ACCTFLAGS, PROC_PPID, PROC_WAIT_STATUS, PROC_ZONE,
	PROC_RSS_AVG_KB, PROC_RSS_MAX_KB,
	PROC_READ_BYTES, PROC_WRITE_BYTES, PROC_SYSCALLS_R, PROC_SYSCALLS_W,
	PROC_THREADS, PROC_RSS_KB, PROC_DELAY_CPU_NS, PROC_DELAY_BLKIO_NS,
	PROC_DELAY_SWAPIN_NS, PROC_DELAY_FREEPAGES_NS,
	PROC_DELAY_THRASHING_NS, PROC_DELAY_COMPACT_NS,
	PROC_DELAY_WPCOPY_NS, PROC_DELAY_IRQ_NS, PROC_CPU_RUN_NS,
	PROC_CPU_SOURCE, PROC_CGROUP, PROC_CGROUP_HIER, PROC_CGROUP_FROM,
	PROC_MEM_KB
};

_Static_assert(sizeof(proc_order) == PROC_NFIELDS, "every field written");

void
proc_write(struct exw *w, const struct ex_proc *p)
{
	size_t i;

	exw_group_begin(w, EXT_GROUP | p->group);
	for (i = 0; i < sizeof(proc_order); i++) {
		int f = proc_order[i];
		const struct item *it = &proc_items[f];

		if (!REC_HAS(p, f))
			continue;
		if (it->part == PART_SEC) {
			exw_uint(w, it->tag, p->v[f] / NS);
			exw_uint(w, it->tag + 1, p->v[f] % NS);
		} else if (it->part == PART_STR)
			exw_string(w, it->tag, f == PROC_COMMAND ? p->command :
			    f == PROC_HOSTNAME ? p->hostname :
			    f == PROC_CGROUP ? p->cgroup : p->zone);
		else
			exw_uint(w, it->tag, p->v[f]);
	}
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
	for (f = 0; f < SYS_NFIELDS; f++)
		if (REC_HAS(s, f))
			exw_uint(w, local_id_type(ids[f]) | EXC_LOCAL | ids[f],
			    s->v[f]);
	exw_group_end(w, 0);
}

void
energy_write(struct exw *w, const struct ex_energy *e)
{
	int f;

	exw_group_begin(w, EXT_GROUP | EXC_LOCAL | EXL_GROUP_ENERGY);
	for (f = 0; f < EN_NFIELDS; f++) {
		uint32_t id = EXL_EN_FIRST + (uint32_t)f;

		if (!REC_HAS(e, f))
			continue;
		if (f == EN_COMMAND)
			exw_string(w, EXT_STRING | EXC_LOCAL | id, e->command);
		else
			exw_uint(w, local_id_type(id) | EXC_LOCAL | id,
			    e->v[f]);
	}
	exw_group_end(w, 0);
}

/* Ids from EXL_LOST_TIME_NS on, in lost_field order, all UINT64. */
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

/* Ids from EXL_RAPL_TIME_NS on, in rapl_field order: two strings. */
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

/* Ids from EXL_CG_TIME_NS on, in cgroup_field order: the path a string,
 * the hierarchy a UINT32. */
void
cgroup_write(struct exw *w, const struct ex_cgroup *g)
{
	int f;

	exw_group_begin(w, EXT_GROUP | EXC_LOCAL | EXL_GROUP_CGROUP);
	for (f = 0; f < CG_NFIELDS; f++) {
		uint32_t id = EXC_LOCAL | (EXL_CG_TIME_NS + (uint32_t)f);

		if (!REC_HAS(g, f))
			continue;
		if (f == CG_PATH)
			exw_string(w, EXT_STRING | id, g->path);
		else if (f == CG_HIERARCHY)
			exw_uint(w, EXT_UINT32 | id, g->v[f]);
		else
			exw_uint(w, EXT_UINT64 | id, g->v[f]);
	}
	exw_group_end(w, 0);
}
