/*
 * extracct's own exacct catalog (EXC_LOCAL): the ids of what Linux has
 * and Solaris records do not, written by snap (and acctd) in files whose
 * creator is "extracct".  Documented in docs/formats.md; never renumber
 * an id once written.
 *
 * Inside group-proc / group-proc-partial (default catalog groups):
 */
#ifndef LOCAL_H
#define LOCAL_H

#include <stdint.h>

#define EXL_PROC_READ_BYTES	0x000101u	/* UINT64, storage read, bytes */
#define EXL_PROC_WRITE_BYTES	0x000102u	/* UINT64, storage write, bytes */
#define EXL_PROC_SYSCALLS_R	0x000103u	/* UINT64, read syscalls */
#define EXL_PROC_SYSCALLS_W	0x000104u	/* UINT64, write syscalls */
#define EXL_PROC_THREADS	0x000105u	/* UINT32, threads now */
#define EXL_PROC_RSS_K		0x000106u	/* UINT64, resident now, KiB */
/*
 * Delay accounting totals from taskstats (acctd), ns spent waiting: for a
 * CPU, synchronous block I/O, swap-in, memory reclaim, thrashing, memory
 * compaction, write-protect copy, IRQ/softirq handling.  Written only
 * when the kernel filled them (kernel.task_delayacct=1 and a struct
 * version that has the field).
 */
#define EXL_PROC_DELAY_CPU	0x000107u	/* UINT64, ns */
#define EXL_PROC_DELAY_BLKIO	0x000108u	/* UINT64, ns */
#define EXL_PROC_DELAY_SWAPIN	0x000109u	/* UINT64, ns */
#define EXL_PROC_DELAY_FREEPAGES 0x00010au	/* UINT64, ns */
#define EXL_PROC_DELAY_THRASHING 0x00010bu	/* UINT64, ns */
#define EXL_PROC_DELAY_COMPACT	0x00010cu	/* UINT64, ns */
#define EXL_PROC_DELAY_WPCOPY	0x00010du	/* UINT64, ns */
#define EXL_PROC_DELAY_IRQ	0x00010eu	/* UINT64, ns */
/*
 * The scheduler's runtime of the process at its exit (taskstats
 * cpu_run_virtual_total), ns: exact to the nanosecond as of the last
 * scheduler update, so it lags by up to one tick (2 ms on average at
 * HZ=250).  acctd's user and system CPU are the kernel's tick samples.
 */
#define EXL_PROC_CPU_RUN_NS	0x00010fu	/* UINT64, ns */
/*
 * What the record's user and system CPU times measure (enum cpu_source
 * in records.h: 1 the kernel's tick samples, 2 the scheduler's runtime
 * as /proc splits it).  snap writes it in every partial record, so a
 * process's snapshots taken by different measures are never
 * differenced against each other.
 */
#define EXL_PROC_CPU_SOURCE	0x000110u	/* UINT32 */

/*
 * The system record, one per snapshot: a local-catalog top-level group
 * of /proc/stat's cpu line and what is needed to read it.
 */
#define EXL_GROUP_SYSLOAD	0x000001u	/* group-sysload */
#define EXL_SYS_TIME_NS		0x000201u	/* UINT64, snapshot time, ns UTC */
#define EXL_SYS_USER		0x000202u	/* UINT64, cpu user, ticks */
#define EXL_SYS_NICE		0x000203u	/* UINT64, cpu nice, ticks */
#define EXL_SYS_SYSTEM		0x000204u	/* UINT64, cpu system, ticks */
#define EXL_SYS_IDLE		0x000205u	/* UINT64, cpu idle, ticks */
#define EXL_SYS_IOWAIT		0x000206u	/* UINT64, cpu iowait, ticks */
#define EXL_SYS_IRQ		0x000207u	/* UINT64, cpu irq, ticks */
#define EXL_SYS_SOFTIRQ		0x000208u	/* UINT64, cpu softirq, ticks */
#define EXL_SYS_STEAL		0x000209u	/* UINT64, cpu steal, ticks */
#define EXL_SYS_CLK_TCK		0x00020au	/* UINT32, ticks per second */
#define EXL_SYS_BTIME		0x00020bu	/* UINT64, boot time, s */
#define EXL_SYS_NCPU		0x00020cu	/* UINT32, online CPUs */

/*
 * A loss record, written by acctd when the kernel dropped exit records
 * (its socket buffer overflowed): when it noticed, and how many.  A
 * local-catalog top-level group, like the system record.
 */
#define EXL_GROUP_LOST		0x000002u	/* group-lost */
#define EXL_LOST_TIME_NS	0x000301u	/* UINT64, noticed at, ns UTC */
#define EXL_LOST_COUNT		0x000302u	/* UINT64, records dropped */

/*
 * An energy snapshot: one per process per snapshot, a local-catalog
 * top-level group, written by a per-process energy sampler (macOS
 * proc_pid_rusage, rusage_info_v6; energy-sources.md §2).  CPU times are
 * in the writer's Mach ticks, with the timebase needed to read them in
 * every record (numer/denom and hw.tbfrequency, and whether the writer
 * ran translated under Rosetta, where the timebase it sees is 1/1 but
 * the ticks are native).  Energy is absent when the writer had no
 * energy counting (kern.pervasive_energy).  Ids 0x401.. in enum
 * energy_field order (records.h).
 */
#define EXL_GROUP_ENERGY	0x000003u	/* group-energy */
#define EXL_EN_FIRST		0x000401u
#define EXL_EN_PID		0x000401u	/* UINT32 */
#define EXL_EN_PPID		0x000402u	/* UINT32 */
#define EXL_EN_UID		0x000403u	/* UINT32 */
#define EXL_EN_START_NS		0x000404u	/* UINT64, ns UTC */
#define EXL_EN_TIME_NS		0x000405u	/* UINT64, snapshot, ns UTC */
#define EXL_EN_USER_TICKS	0x000406u	/* UINT64, ri_user_time */
#define EXL_EN_SYS_TICKS	0x000407u	/* UINT64, ri_system_time */
#define EXL_EN_USER_PTICKS	0x000408u	/* UINT64, ri_user_ptime */
#define EXL_EN_SYS_PTICKS	0x000409u	/* UINT64, ri_system_ptime */
#define EXL_EN_ENERGY_NJ	0x00040au	/* UINT64, ri_energy_nj */
#define EXL_EN_PENERGY_NJ	0x00040bu	/* UINT64, ri_penergy_nj */
#define EXL_EN_INSTRUCTIONS	0x00040cu	/* UINT64 */
#define EXL_EN_CYCLES		0x00040du	/* UINT64 */
#define EXL_EN_DISK_READ	0x00040eu	/* UINT64, bytes */
#define EXL_EN_DISK_WRITTEN	0x00040fu	/* UINT64, bytes */
#define EXL_EN_FOOTPRINT	0x000410u	/* UINT64, bytes, now */
#define EXL_EN_MAX_FOOTPRINT	0x000411u	/* UINT64, bytes, lifetime max */
#define EXL_EN_INT_WAKEUPS	0x000412u	/* UINT64 */
#define EXL_EN_IDLE_WAKEUPS	0x000413u	/* UINT64, ri_pkg_idle_wkups */
#define EXL_EN_TB_NUMER		0x000414u	/* UINT32, mach_timebase_info */
#define EXL_EN_TB_DENOM		0x000415u	/* UINT32 */
#define EXL_EN_TB_HZ		0x000416u	/* UINT64, hw.tbfrequency */
#define EXL_EN_TRANSLATED	0x000417u	/* UINT8, 1: ran under Rosetta */
#define EXL_EN_HAS_ENERGY	0x000418u	/* UINT8, kern.pervasive_energy */
#define EXL_EN_COMMAND		0x000419u	/* STRING */

/*
 * A RAPL reading, written by snap once per powercap zone per snapshot
 * where /sys/class/powercap is readable (energy-sources.md §3.1): the
 * zone's cumulative energy counter and the range it wraps at.  The time
 * is the snapshot's, the same as its system record's.
 */
#define EXL_GROUP_RAPL		0x000004u	/* group-rapl */
#define EXL_RAPL_TIME_NS	0x000501u	/* UINT64, snapshot time, ns UTC */
#define EXL_RAPL_ZONE		0x000502u	/* STRING, "intel-rapl:0" */
#define EXL_RAPL_NAME		0x000503u	/* STRING, "package-0" */
#define EXL_RAPL_ENERGY_UJ	0x000504u	/* UINT64, energy_uj */
#define EXL_RAPL_MAX_UJ		0x000505u	/* UINT64, max_energy_range_uj */
#define EXL_RAPL_BOOT_S		0x000506u	/* UINT64, boot time, s: a reboot
						   resets the counters */
#define EXL_RAPL_LIMIT_UW	0x000507u	/* UINT64, the long-term power
						   limit (constraint_0), uW */

/* Name of a local-catalog data id, or NULL. */
const char *local_id_name(uint32_t id);

#endif
