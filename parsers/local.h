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

/* Name of a local-catalog data id, or NULL. */
const char *local_id_name(uint32_t id);

#endif
