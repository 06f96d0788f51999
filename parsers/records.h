/*
 * Fixed records: the normalised form of exacct process, task and flow
 * groups (and, in later layers, of pacct and snapshot records).
 *
 * Each record keeps its numbers in an array indexed by a field enum, plus
 * a bitmask of the fields that were present in the input: absent is not
 * zero.  The array form lets later stages (differencing, CSV, SQL) walk
 * every counter with one loop driven by the field tables below, which
 * (with the enums) are made from the rows of catalog.h: a field's id,
 * name, kind and unit are written there once.
 *
 * Members are matched by data id, never by position: real files differ
 * in order (the 2005 task record lists CPU user-first, the kernel source
 * writes system-first).  Unknown ids and nested groups are skipped and
 * counted.  Times are normalised to nanoseconds since the epoch, CPU to
 * nanoseconds.
 */
#ifndef RECORDS_H
#define RECORDS_H

#include <stdint.h>

#include "exacct.h"

/*
 * Nanoseconds in a second: every time and CPU field is in ns.  NS for
 * the unsigned counters, NS_I64 for times, which may precede 1970, and
 * NS_SQL inside the text of a query.
 */
#define NS	1000000000ull
#define NS_I64	INT64_C(1000000000)
#define NS_SQL	"1000000000"
/*
 * The largest time (or CPU) a record may carry, in ns: the store's
 * columns are signed 64-bit, so 2^63 ns (2262-04-11) and later would
 * read back negative (a year-2300 start as 1715).  A field past it is
 * refused, not clamped: a clamped time would still be a wrong one, and
 * one at 2262 nothing downstream (rollups, reports: from 2200 on is out
 * of range) could use.  The field is left absent and counted as a bad
 * value.
 */
#define REC_MAX_NS	((uint64_t)INT64_MAX)

enum rec_kind {
	REC_OTHER = 0,		/* any other object: skipped, counted */
	REC_HEADER,
	REC_PROC,		/* group-proc, group-proc-partial */
	REC_TASK,		/* group-task, -partial, -interval */
	REC_FLOW,		/* group-flow */
	REC_SYSLOAD,		/* extracct's group-sysload (local.h) */
	REC_LOST,		/* extracct's group-lost (local.h) */
	REC_ENERGY,		/* an energy snapshot, group-energy (local.h) */
	REC_RAPL,		/* a RAPL zone reading, group-rapl (local.h) */
	REC_CGROUP		/* a cgroup's totals, group-cgroup (local.h) */
};

enum field_kind {
	FK_ID,			/* identity or attribute: never differenced */
	FK_TIME,		/* ns since the epoch (flows: s) */
	FK_COUNTER,		/* cumulative since start: differenced */
	FK_LEVEL,		/* a level or high-water mark: taken as is */
	FK_STRING		/* text, kept in the record's buffers */
};

struct field_info {
	const char	*name;		/* column name, with its unit */
	enum field_kind	 kind;
	const char	*unit;		/* of the value: "ns", "" for a count */
};

/* The fields, in column order: catalog.h's rows. */
#define PROC_ENUM_ROW(m, ...)	PROC_##m,
#define TASK_ENUM_ROW(m, ...)	TASK_##m,
#define FLOW_ENUM_ROW(m, ...)	FLOW_##m,

enum proc_field { PROC_FIELD_ROWS(PROC_ENUM_ROW) PROC_NFIELDS };
enum task_field { TASK_FIELD_ROWS(TASK_ENUM_ROW) TASK_NFIELDS };
enum flow_field { FLOW_FIELD_ROWS(FLOW_ENUM_ROW) FLOW_NFIELDS };

enum sys_field {
	SYS_TIME_NS, SYS_USER, SYS_NICE, SYS_SYSTEM, SYS_IDLE, SYS_IOWAIT,
	SYS_IRQ, SYS_SOFTIRQ, SYS_STEAL, SYS_CLK_TCK, SYS_BTIME, SYS_NCPU,
	SYS_NFIELDS
};

/*
 * What a record's CPU user and system times measure.  Two measures of
 * one process differ by far more than rounding (a kernel thread that
 * runs in short bursts is sampled by a third of its runtime), so they
 * are never differenced against each other (store/diff.c).  Absent:
 * not known (Solaris, older snap logs): differenced as before.
 */
enum cpu_source {
	CPU_SOURCE_TICKS = 1,	/* tick samples: pacct, snap --cpu ticks */
	CPU_SOURCE_RUNTIME = 2	/* runtime: /proc, acctd, snap --cpu runtime */
};

_Static_assert(PROC_NFIELDS <= 64, "present is one 64-bit word");

#define REC_HAS(r, f)	(((r)->present >> (f)) & 1)

/*
 * PROC_ACCTFLAGS' bit for a process that forked and never exec'd: AFORK
 * in pacct, acctd's taskstats and illumos exacct alike.  sa(8) counts
 * such a process apart, as its command with a '*' after it; so do the
 * reports' command keys (PROC_FORKED_MARK).
 */
#define PROC_AFORK		0x01
#define PROC_FORKED_MARK	"*"

struct ex_proc {
	uint32_t	 group;		/* EXD_GROUP_PROC or _PROC_PARTIAL */
	uint64_t	 present;	/* bit f set: v[f] / string f present */
	uint64_t	 v[PROC_NFIELDS];	/* units as in proc_fields[] */
	char		 command[64];	/* escaped only when printed */
	char		 hostname[256];
	char		 zone[64];
	uint64_t	 off;		/* byte offset of the record */
	/*
	 * The cgroup path (Linux; PROC_CGROUP): a path may be 4095 bytes,
	 * and a truncated one would name another cgroup, so the whole of
	 * it is kept.  That is most of the record (4.9 KiB in all), but
	 * records are filled one at a time into one buffer (the reader,
	 * snap's batch of 16), never held by the thousand.
	 */
	char		 cgroup[4096];
};

/* The cgroup hierarchy a path is of (PROC_CGROUP_HIER). */
enum cgroup_hier { CGROUP_V1_CPUACCT = 1, CGROUP_UNIFIED = 2 };
/* Whose cgroup an exit's is, when not its own (PROC_CGROUP_FROM). */
enum cgroup_from { CGROUP_FROM_LEADER = 1, CGROUP_FROM_PARENT = 2,
	CGROUP_FROM_SNAPSHOT = 3 };

struct ex_task {
	uint32_t	 group;		/* _TASK, _TASK_PARTIAL, _TASK_INTERVAL */
	uint64_t	 present;
	uint64_t	 v[TASK_NFIELDS];
	char		 hostname[256];
	char		 zone[64];
	uint64_t	 off;
};

struct ex_flow {
	uint64_t	 present;
	uint64_t	 v[FLOW_NFIELDS];
	int		 family;	/* 4 or 6; 0 when no address */
	uint8_t		 saddr[16];	/* network order; v4 in first 4 */
	uint8_t		 daddr[16];
	char		 action[64];
	uint64_t	 off;
};

/* A system snapshot: /proc/stat's cpu line, in ticks of clk_tck. */
struct ex_sysload {
	uint64_t	 present;
	uint64_t	 v[SYS_NFIELDS];
	uint64_t	 off;
};

/* Exit records the kernel dropped, as acctd noticed them. */
enum lost_field { LOST_TIME_NS, LOST_COUNT, LOST_NFIELDS };

struct ex_lost {
	uint64_t	 present;
	uint64_t	 v[LOST_NFIELDS];
	uint64_t	 off;
};

/* A powercap (RAPL) zone's cumulative counter, read by snap. */
enum rapl_field {
	RAPL_TIME_NS, RAPL_ZONE, RAPL_NAME, RAPL_ENERGY_UJ, RAPL_MAX_UJ,
	RAPL_BOOT_S, RAPL_LIMIT_UW, RAPL_NFIELDS
};

struct ex_rapl {
	uint64_t	 present;
	uint64_t	 v[RAPL_NFIELDS];
	char		 zone[64];
	char		 name[64];
	uint64_t	 off;
};

/*
 * A cgroup's cumulative totals, read by snap (catalog.h, group-cgroup):
 * fields in local-id order.  The path is as long as the kernel allows
 * one (PATH_MAX), its bytes as they are.
 */
enum cgroup_field {
	CG_TIME_NS, CG_HIERARCHY, CG_PATH, CG_CPU_NS, CG_USER_NS,
	CG_SYSTEM_NS, CG_MEM_CURRENT, CG_MEM_PEAK, CG_IO_RBYTES,
	CG_IO_WBYTES, CG_IO_RIOS, CG_IO_WIOS, CG_NFIELDS
};

#define CG_PATH_MAX	4096

struct ex_cgroup {
	uint64_t	 present;
	uint64_t	 v[CG_NFIELDS];
	char		 path[CG_PATH_MAX];
	uint64_t	 off;
};

/*
 * An energy snapshot of one process (local.h, group-energy), in the
 * writer's units: CPU in Mach ticks (energy_tick_ns() converts), energy
 * in nJ, sizes in bytes.  Fields in local-id order.
 */
enum energy_field {
	EN_PID, EN_PPID, EN_UID, EN_START_NS, EN_TIME_NS,
	EN_USER_TICKS, EN_SYS_TICKS, EN_USER_PTICKS, EN_SYS_PTICKS,
	EN_ENERGY_NJ, EN_PENERGY_NJ, EN_INSTRUCTIONS, EN_CYCLES,
	EN_DISK_READ, EN_DISK_WRITTEN, EN_FOOTPRINT, EN_MAX_FOOTPRINT,
	EN_INT_WAKEUPS, EN_IDLE_WAKEUPS,
	EN_TB_NUMER, EN_TB_DENOM, EN_TB_HZ, EN_TRANSLATED, EN_HAS_ENERGY,
	EN_COMMAND,
	EN_NFIELDS
};

struct ex_energy {
	uint64_t	 present;
	uint64_t	 v[EN_NFIELDS];
	char		 command[64];
	uint64_t	 off;
};

/*
 * Mach ticks to ns, by the rule the record's writer needs: a translated
 * (Rosetta) writer saw a timebase of 1/1 while the ticks are native, so
 * its ticks are converted with hw.tbfrequency (1e9 / Hz); a native one
 * with numer / denom.  Exact integer arithmetic (128-bit), so a year of
 * ticks cannot overflow.  Returns 0 with *ns set, or -1 when the record
 * lacks what its rule needs (a zero denominator or frequency).
 */
int	energy_tick_ns(const struct ex_energy *e, uint64_t ticks,
	    uint64_t *ns);

/* Skipped while filling: counted per file. */
struct rec_counts {
	uint64_t	 unknown_items;	/* ids we do not know, or mistyped */
	uint64_t	 unknown_groups;/* nested or top-level groups skipped */
	uint64_t	 bad_values;	/* nsec >= 10^9, past REC_MAX_NS */
};

extern const struct field_info proc_fields[PROC_NFIELDS];
extern const struct field_info task_fields[TASK_NFIELDS];

/* What kind of record a decoded top-level object is. */
enum rec_kind	rec_kind(const struct ex_rec *rec);
/* The same from the object's tag. */
enum rec_kind	rec_kind_of(uint32_t tag);

/*
 * What rec_skim learnt of the last record of each kind: the class of
 * the member at each index, by its tag.  Records of one writer list the
 * same members in the same order, so a member's tag compared with the
 * last one's there replaces looking it up.  Zeroed: empty.
 */
#define REC_MEMO_MEMBERS	64
struct rec_memo_member {
	uint32_t	 tag;		/* as in the file; 0: none */
	uint8_t		 len;		/* a number's length; 0: a string */
	uint8_t		 cls;		/* what classify() said */
	uint8_t		 field;		/* where it goes */
	uint8_t		 shift;		/* a number: 64 less its bits */
};

/*
 * What the last record of a kind that the memo knew member by member
 * leaves for the next (rec_skim's and rec_skim_fill's fastest path): the
 * record cut at its strings into runs of numbers, and at fixed places in
 * each run the bytes that say which members are there: the first one's
 * tag, the 8 bytes where one number's backskip meets the next one's tag,
 * the last one's backskip.  Then the values to take (filling: every
 * number and string; counting: the time halves), the times paired by
 * field, and what the record counted.  A record with as many members,
 * whose strings check out and whose bytes agree at every one of those
 * places, holds the same members classed the same, so it is checked by
 * comparing words, with no member taken in turn.  nobjs 0: none.
 */
#define REC_SHAPE_RUNS	8
#define REC_SHAPE_NONE	0xff
struct rec_shape_run {
	uint16_t	 len;		/* its numbers' bytes; 0: none */
	uint16_t	 nwords;	/* the joins between them */
	uint32_t	 first_tag;	/* as in the file */
	uint32_t	 last_bs;
	uint32_t	 str_tag;	/* the string after them; 0: none, the
					   record ends */
	uint8_t		 str_field;	/* that string's field;
					   REC_SHAPE_NONE: not kept */
};
struct rec_shape_num {
	uint16_t	 at;		/* the member, in its run */
	uint8_t		 run, field;
	uint8_t		 shift;		/* 64 less its bits */
};
struct rec_shape_pair {
	uint8_t		 sec, nsec;	/* times; nsec REC_SHAPE_NONE: none */
	uint8_t		 field;
};
struct rec_shape {
	uint32_t	 nobjs;
	uint32_t	 unknown;	/* members of no field */
	uint64_t	 present;	/* filling: the fields set, but times */
	uint8_t		 nruns, ntimes, nwholes, npairs;
	struct rec_shape_run run[REC_SHAPE_RUNS];
	uint16_t	 word_at[REC_MEMO_MEMBERS];	/* in its run */
	uint64_t	 word[REC_MEMO_MEMBERS];	/* as in the file */
	struct rec_shape_num time[REC_MEMO_MEMBERS];	/* halves */
	struct rec_shape_num whole[REC_MEMO_MEMBERS];	/* filling */
	struct rec_shape_pair pair[REC_MEMO_MEMBERS];
};
struct rec_memo_kind {
	struct rec_memo_member m[REC_MEMO_MEMBERS];
};
struct rec_memo_shape {
	struct rec_shape shape;
	uint16_t	 wait;		/* records to go before trying again
					   to make a shape (none was had) */
	uint16_t	 backoff;	/* the last wait */
};
struct rec_memo {
	struct rec_memo_kind kind[REC_CGROUP + 1];	/* by enum rec_kind */
	struct rec_memo_shape shape[REC_CGROUP + 1];
};

/*
 * Validate and tally without decoding (check's fast path, see
 * exacct_peek): if p[0..left) starts with a top-level group whose members
 * are all plain items (numbers, strings, raw bytes) and which
 * decode_object would accept as it stands, set its kind, what filling it
 * would skip (*c, exactly as the kind's filler counts it) and its length
 * (*len), and return 1.  Anything else (damage, nested groups, embedded
 * objects, the header) returns 0, and the caller decodes the object the
 * ordinary way, which says what is wrong with it.  memo: the caller's,
 * kept from one call to the next over a file.
 */
int	rec_skim(const uint8_t *p, size_t left, struct rec_memo *memo,
	    enum rec_kind *kind, struct rec_counts *c, uint64_t *len);

/*
 * rec_skim, and the record filled as decoding it and proc_fill or
 * task_fill would fill it (the reader's fast path): a process record
 * into *proc, a task record into *task, off its offset in the file.
 * Any other kind returns 0, as all that rec_skim refuses does, for the
 * decoder; what was filled before a 0 is for the decoder's way to fill
 * again.
 */
int	rec_skim_fill(const uint8_t *p, size_t left, struct rec_memo *memo,
	    uint64_t off, enum rec_kind *kind, struct ex_proc *proc,
	    struct ex_task *task, struct rec_counts *c, uint64_t *len);

/*
 * Fill a fixed record from a decoded group of the matching kind.
 * Never fails: what does not fit is skipped and counted in *c.
 */
void	proc_fill(struct ex_proc *p, const struct ex_rec *rec,
	    struct rec_counts *c);
void	task_fill(struct ex_task *t, const struct ex_rec *rec,
	    struct rec_counts *c);
void	flow_fill(struct ex_flow *f, const struct ex_rec *rec,
	    struct rec_counts *c);
void	sysload_fill(struct ex_sysload *s, const struct ex_rec *rec,
	    struct rec_counts *c);
void	lost_fill(struct ex_lost *l, const struct ex_rec *rec,
	    struct rec_counts *c);
void	energy_fill(struct ex_energy *e, const struct ex_rec *rec,
	    struct rec_counts *c);
void	rapl_fill(struct ex_rapl *z, const struct ex_rec *rec,
	    struct rec_counts *c);
void	cgroup_fill(struct ex_cgroup *g, const struct ex_rec *rec,
	    struct rec_counts *c);

/*
 * Copy a STRING payload into dst[dstlen], stopping at the first NUL and
 * truncating to fit; dst is always terminated.
 */
void	rec_copy_string(char *dst, size_t dstlen, const uint8_t *p, size_t n);

#endif
