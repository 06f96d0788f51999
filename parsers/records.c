/*
 * Fill fixed records (records.h) from decoded exacct groups.
 *
 * One map per record kind takes a data id (offset from the kind's first
 * id) to a field, and says whether the item is a whole value or the
 * seconds or nanoseconds half of a time; the halves are joined into
 * nanoseconds once the whole group has been seen, since members may come
 * in any order.  The process, task and flow maps, and the fields' names,
 * are made from the field rows of catalog.h; the local groups' (system,
 * loss, energy, RAPL) have their ids in field order, one map row each.
 * Ids: illumos <sys/exacct_catalog.h> (proc, task and flow).  The
 * maps and the rule of what a filler keeps are records_int.h's, shared
 * with the second filler, skim.c, which fills from a group's bytes.
 */
#include <stddef.h>
#include <string.h>

#include "bytes.h"
#include "exacct.h"
#include "local.h"
#include "records.h"
#include "records_int.h"



#define INFO_ROW(m, col, kind, unit, ...)	{ col, kind, unit },

/* Rows in enum order, so each lands on its own field. */
const struct field_info proc_fields[PROC_NFIELDS] = {
	PROC_FIELD_ROWS(INFO_ROW)
};

const struct field_info task_fields[TASK_NFIELDS] = {
	TASK_FIELD_ROWS(INFO_ROW)
};

/*
 * The maps, indexed by data id less the kind's first id: each row puts
 * its item (and a time's nanoseconds, an address's IPv6 form) where the
 * filler looks it up.  A row lands in the map of its catalog only.  An
 * id given twice is a duplicate initialiser, which the build rejects
 * (-Woverride-init).
 */
#define PART_WHOLE(f, i)	[i] = { f, WHOLE },
#define PART_STR(f, i)		[i] = { f, STR },
#define PART_SEC(f, i)		[i] = { f, SEC }, [(i) + 1] = { f, NSEC },
#define PART_ADDR(f, i)		[i] = { f, ADDR4 }, [(i) + 2] = { f, ADDR6 },
#define IN_D_D(f, part, id, base)	PART_##part(f, (id) - (base))
#define IN_D_L(f, part, id, base)
#define IN_L_D(f, part, id, base)
#define IN_L_L(f, part, id, base)	PART_##part(f, (id) - (base))

#define PROC_MAP_ROW(m, col, kind, unit, type, part, cat, id) \
	IN_D_##cat(PROC_##m, part, id, PROC_BASE)
#define PROC_LMAP_ROW(m, col, kind, unit, type, part, cat, id) \
	IN_L_##cat(PROC_##m, part, id, PROC_LBASE)
#define TASK_MAP_ROW(m, col, kind, unit, type, part, cat, id) \
	IN_D_##cat(TASK_##m, part, id, TASK_BASE)
#define FLOW_MAP_ROW(m, col, kind, unit, type, part, cat, id) \
	IN_D_##cat(FLOW_##m, part, id, FLOW_BASE)

/* The first id of each kind (§5.3, §5.4, §5.6; local.h). */
#define PROC_BASE	EXD_PROC_PID
#define PROC_LBASE	EXL_PROC_READ_BYTES
#define TASK_BASE	EXD_TASK_TASKID
#define FLOW_BASE	EXD_FLOW_V4_SADDR

static const struct idmap proc_map[] = { PROC_FIELD_ROWS(PROC_MAP_ROW) };
static const struct idmap proc_local_map[] = {
	PROC_FIELD_ROWS(PROC_LMAP_ROW)
};
static const struct idmap task_map[] = { TASK_FIELD_ROWS(TASK_MAP_ROW) };
static const struct idmap flow_map[] = { FLOW_FIELD_ROWS(FLOW_MAP_ROW) };

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

/* The cgroup record's items (local catalog), in enum order. */
static const struct idmap cgroup_map[] = {
	{ CG_TIME_NS, WHOLE }, { CG_HIERARCHY, WHOLE }, { CG_PATH, STR },
	{ CG_CPU_NS, WHOLE }, { CG_USER_NS, WHOLE }, { CG_SYSTEM_NS, WHOLE },
	{ CG_MEM_CURRENT, WHOLE }, { CG_MEM_PEAK, WHOLE },
	{ CG_IO_RBYTES, WHOLE }, { CG_IO_WBYTES, WHOLE },
	{ CG_IO_RIOS, WHOLE }, { CG_IO_WIOS, WHOLE },
};

/* The system record's items (local catalog). */
static const struct idmap sys_map[] = {
	{ SYS_TIME_NS, WHOLE }, { SYS_USER, WHOLE }, { SYS_NICE, WHOLE },
	{ SYS_SYSTEM, WHOLE }, { SYS_IDLE, WHOLE }, { SYS_IOWAIT, WHOLE },
	{ SYS_IRQ, WHOLE }, { SYS_SOFTIRQ, WHOLE }, { SYS_STEAL, WHOLE },
	{ SYS_CLK_TCK, WHOLE }, { SYS_BTIME, WHOLE }, { SYS_NCPU, WHOLE },
};




#define NMAP(m)		(sizeof(m) / sizeof((m)[0]))

static const struct kindmap proc_kind = { EXC_DEFAULT, PROC_BASE, proc_map,
	NMAP(proc_map), PROC_LBASE, proc_local_map, NMAP(proc_local_map), 0 };
static const struct kindmap task_kind = { EXC_DEFAULT, TASK_BASE, task_map,
	NMAP(task_map), 0, NULL, 0, 0 };
static const struct kindmap flow_kind = { EXC_DEFAULT, FLOW_BASE, flow_map,
	NMAP(flow_map), 0, NULL, 0, 1 };
static const struct kindmap sys_kind = { EXC_LOCAL, EXL_SYS_TIME_NS,
	sys_map, NMAP(sys_map), 0, NULL, 0, 0 };
static const struct kindmap lost_kind = { EXC_LOCAL, EXL_LOST_TIME_NS,
	lost_map, NMAP(lost_map), 0, NULL, 0, 0 };
static const struct kindmap energy_kind = { EXC_LOCAL, EXL_EN_FIRST,
	energy_map, NMAP(energy_map), 0, NULL, 0, 0 };
static const struct kindmap rapl_kind = { EXC_LOCAL, EXL_RAPL_TIME_NS,
	rapl_map, NMAP(rapl_map), 0, NULL, 0, 0 };

static const struct kindmap cgroup_kind = { EXC_LOCAL, EXL_CG_TIME_NS,
	cgroup_map, NMAP(cgroup_map), 0, NULL, 0, 0 };

const struct kindmap *const rec_kind_maps[REC_CGROUP + 1] = {
	[REC_PROC] = &proc_kind, [REC_TASK] = &task_kind,
	[REC_FLOW] = &flow_kind, [REC_SYSLOAD] = &sys_kind,
	[REC_LOST] = &lost_kind, [REC_ENERGY] = &energy_kind,
	[REC_RAPL] = &rapl_kind, [REC_CGROUP] = &cgroup_kind,
};


static void	fill(const struct fillspec *s, const struct ex_rec *rec,
		    struct rec_counts *c);

enum rec_kind
rec_kind(const struct ex_rec *rec)
{
	return rec->nitems == 0 ? REC_OTHER : rec_kind_of(rec->items[0].tag);
}

enum rec_kind
rec_kind_of(uint32_t tag)
{
	if (tag == (EXT_GROUP | EXC_LOCAL | EXL_GROUP_SYSLOAD))
		return REC_SYSLOAD;
	if (tag == (EXT_GROUP | EXC_LOCAL | EXL_GROUP_LOST))
		return REC_LOST;
	if (tag == (EXT_GROUP | EXC_LOCAL | EXL_GROUP_ENERGY))
		return REC_ENERGY;
	if (tag == (EXT_GROUP | EXC_LOCAL | EXL_GROUP_RAPL))
		return REC_RAPL;
	if (tag == (EXT_GROUP | EXC_LOCAL | EXL_GROUP_CGROUP))
		return REC_CGROUP;
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

/*
 * The string fields (part STR) of each kind, counted: only those of str
 * are ever looked at (a string member goes to its field's buffer), so
 * the starts below set theirs and leave the rest unset.  Zeroing all
 * 47 entries of a process record's (752 bytes) took 29% of filling one
 * from its shape (perf, `text` of generated records).  A string
 * field added to the catalog stops the build here until its start gives
 * it a buffer.
 */
#define IS_STR_WHOLE	0
#define IS_STR_SEC	0
#define IS_STR_ADDR	0
#define IS_STR_STR	1
#define COUNT_STR_ROW(m, col, kind, unit, type, part, cat, id) \
	+ IS_STR_##part
_Static_assert(0 PROC_FIELD_ROWS(COUNT_STR_ROW) == 4,
    "proc_start gives each string field its buffer");
_Static_assert(0 TASK_FIELD_ROWS(COUNT_STR_ROW) == 2,
    "task_start gives each string field its buffer");

/* A process record about to be filled (records_int.h). */
void
rec_proc_start(struct ex_proc *p, uint32_t tag, uint64_t off, struct strdst *str,
    struct fillspec *s)
{
	str[PROC_COMMAND] = (struct strdst){ p->command, sizeof(p->command) };
	str[PROC_HOSTNAME] = (struct strdst){ p->hostname, sizeof(p->hostname) };
	str[PROC_ZONE] = (struct strdst){ p->zone, sizeof(p->zone) };
	str[PROC_CGROUP] = (struct strdst){ p->cgroup, sizeof(p->cgroup) };
	*s = (struct fillspec){ &proc_kind, p->v, &p->present, str, NULL };
	p->group = EX_ID(tag);
	p->off = off;
	p->command[0] = p->hostname[0] = p->zone[0] = p->cgroup[0] = '\0';
}

/* A task record about to be filled (records_int.h). */
void
rec_task_start(struct ex_task *t, uint32_t tag, uint64_t off, struct strdst *str,
    struct fillspec *s)
{
	str[TASK_HOSTNAME] = (struct strdst){ t->hostname, sizeof(t->hostname) };
	str[TASK_ZONE] = (struct strdst){ t->zone, sizeof(t->zone) };
	*s = (struct fillspec){ &task_kind, t->v, &t->present, str, NULL };
	t->group = EX_ID(tag);
	t->off = off;
	t->hostname[0] = t->zone[0] = '\0';
}

void
proc_fill(struct ex_proc *p, const struct ex_rec *rec, struct rec_counts *c)
{
	struct strdst str[PROC_NFIELDS];
	struct fillspec s;

	rec_proc_start(p, rec->items[0].tag, rec->off, str, &s);
	fill(&s, rec, c);
}

void
task_fill(struct ex_task *t, const struct ex_rec *rec, struct rec_counts *c)
{
	struct strdst str[TASK_NFIELDS];
	struct fillspec s;

	rec_task_start(t, rec->items[0].tag, rec->off, str, &s);
	fill(&s, rec, c);
}

void
flow_fill(struct ex_flow *f, const struct ex_rec *rec, struct rec_counts *c)
{
	struct strdst str[FLOW_NFIELDS] = {
		[FLOW_ACTION] = { f->action, sizeof(f->action) },
	};
	struct addrdst addr = { { f->saddr, f->daddr }, &f->family };
	struct fillspec s = { &flow_kind, f->v, &f->present, str, &addr };

	f->off = rec->off;
	f->family = 0;
	f->action[0] = '\0';
	memset(f->saddr, 0, sizeof(f->saddr));
	memset(f->daddr, 0, sizeof(f->daddr));
	fill(&s, rec, c);
}

/* A whole-ns time past REC_MAX_NS: refused, as bad_time's are. */
static void
drop_late(uint64_t *v, uint64_t *present, int f, struct rec_counts *c)
{
	if ((*present >> f & 1) && v[f] > REC_MAX_NS) {
		*present &= ~(1ULL << f);
		c->bad_values++;
	}
}

void
sysload_fill(struct ex_sysload *sl, const struct ex_rec *rec,
    struct rec_counts *c)
{
	struct strdst str[1] = { { NULL, 0 } };
	struct fillspec s = { &sys_kind, sl->v, &sl->present, str, NULL };

	sl->off = rec->off;
	fill(&s, rec, c);
	drop_late(sl->v, &sl->present, SYS_TIME_NS, c);
}

void
lost_fill(struct ex_lost *l, const struct ex_rec *rec, struct rec_counts *c)
{
	struct strdst str[1] = { { NULL, 0 } };
	struct fillspec s = { &lost_kind, l->v, &l->present, str, NULL };

	l->off = rec->off;
	fill(&s, rec, c);
	drop_late(l->v, &l->present, LOST_TIME_NS, c);
}

void
energy_fill(struct ex_energy *e, const struct ex_rec *rec,
    struct rec_counts *c)
{
	struct strdst str[EN_NFIELDS] = {
		[EN_COMMAND] = { e->command, sizeof(e->command) },
	};
	struct fillspec s = { &energy_kind, e->v, &e->present, str, NULL };

	e->off = rec->off;
	e->command[0] = '\0';
	fill(&s, rec, c);
	drop_late(e->v, &e->present, EN_START_NS, c);
	drop_late(e->v, &e->present, EN_TIME_NS, c);
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
	struct fillspec s = { &rapl_kind, z->v, &z->present, str, NULL };

	z->off = rec->off;
	z->zone[0] = z->name[0] = '\0';
	fill(&s, rec, c);
	drop_late(z->v, &z->present, RAPL_TIME_NS, c);
}

void
cgroup_fill(struct ex_cgroup *g, const struct ex_rec *rec,
    struct rec_counts *c)
{
	struct strdst str[CG_NFIELDS] = {
		[CG_PATH] = { g->path, sizeof(g->path) },
	};
	struct fillspec s = { &cgroup_kind, g->v, &g->present, str, NULL };

	g->off = rec->off;
	g->path[0] = '\0';
	fill(&s, rec, c);
	drop_late(g->v, &g->present, CG_TIME_NS, c);
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
	if (t > REC_MAX_NS)
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

/* The types a part takes (bit EX_TYPE >> 28); 0: an unknown id. */

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
		const struct idmap *m;

		if (it->depth != 1)
			continue;	/* inside a nested group or object */
		if (EX_TYPE(it->tag) == EXT_GROUP) {
			c->unknown_groups++;
			continue;
		}
		if ((m = classify(s->k, it->tag, it->n)) == NULL) {
			c->unknown_items++;	/* unknown, or mistyped */
			continue;
		}
		switch (m->part) {
		case SEC:
			sec[m->field] = it->u;
			has_sec |= 1ULL << m->field;
			break;
		case NSEC:
			nsec[m->field] = it->u;
			has_nsec |= 1ULL << m->field;
			break;
		case WHOLE:
			s->v[m->field] = it->u;
			present |= 1ULL << m->field;
			break;
		case STR:
			rec_copy_string(s->str[m->field].buf,
			    s->str[m->field].size, it->p, it->n);
			present |= 1ULL << m->field;
			break;
		case ADDR4: {
			/* The value is the address read as a big-endian
			 * number: store it back in network order. */
			uint8_t *a = s->addr->addr[m->field == FLOW_DADDR];

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
			memcpy(s->addr->addr[m->field == FLOW_DADDR], it->p,
			    16);
			*s->addr->family = 6;
			present |= 1ULL << m->field;
			break;
		}
	}
	*s->present = present | join_times(has_sec, has_nsec, sec, nsec, s->v,
	    c);
}
