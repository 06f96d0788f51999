/*
 * The one table of exacct formats: every default-catalog data id
 * extracct knows, and every field of the fixed records (records.h), one
 * row each.  Everything else is made from these rows, so that an id or
 * a column is written down once:
 *
 *   - the EXD_* and EXL_* ids (enums), and the names dump prints for
 *     them (exacct_names.c);
 *   - the field enums (enum proc_field, task_field, flow_field), their
 *     names, kinds and units (proc_fields[] ...);
 *   - the decode maps from data id to field (records.c), and the
 *     encoder's tags and types (recwrite.c);
 *   - the SQL column lists of the store (store/ingest_int.h).
 *
 * Facts: illumos <sys/exacct_catalog.h>, laid out as illumos'
 * sys/exacct_catalog.h names them; extracct's own catalog (EXC_LOCAL,
 * local.h) has its rows here too.  Never renumber an id: files carry
 * them.
 *
 * Id rows: X(macro, data id, name as the illumos exdump prints it),
 * sorted by id (exacct_id_name() looks them up by binary search).
 */
#ifndef CATALOG_H
#define CATALOG_H

#define EXD_CATALOG(X) \
	/* The file header (§5.1) and the top-level groups (§5.2). */ \
	X(EXD_VERSION,			0x000001, "version") \
	X(EXD_FILETYPE,			0x000002, "filetype") \
	X(EXD_CREATOR,			0x000003, "creator") \
	X(EXD_HOSTNAME,			0x000004, "hostname") \
	X(EXD_GROUP_HEADER,		0x0000ff, "group-header") \
	X(EXD_GROUP_PROC,		0x000100, "group-proc") \
	X(EXD_GROUP_TASK,		0x000101, "group-task") \
	X(EXD_GROUP_LWP,		0x000102, "group-lwp") \
	X(EXD_GROUP_PROC_TAG,		0x000103, "group-proc-tag") \
	X(EXD_GROUP_TASK_TAG,		0x000104, "group-task-tag") \
	X(EXD_GROUP_LWP_TAG,		0x000105, "group-lwp-tag") \
	X(EXD_GROUP_PROC_PARTIAL,	0x000106, "group-proc-partial") \
	X(EXD_GROUP_TASK_PARTIAL,	0x000107, "group-task-partial") \
	X(EXD_GROUP_TASK_INTERVAL,	0x000108, "group-task-interval") \
	X(EXD_GROUP_FLOW,		0x000109, "group-flow") \
	X(EXD_GROUP_RFMA,		0x00010a, "group-rfma") \
	X(EXD_GROUP_FMA,		0x00010b, "group-fma") \
	X(EXD_GROUP_NET_LINK_DESC,	0x00010c, "group-net-link-desc") \
	X(EXD_GROUP_NET_FLOW_DESC,	0x00010d, "group-net-flow-desc") \
	X(EXD_GROUP_NET_LINK_STATS,	0x00010e, "group-net-link-stats") \
	X(EXD_GROUP_NET_FLOW_STATS,	0x00010f, "group-net-flow-stats") \
	/* Process items (§5.3), in id order (the kernel writes another). */ \
	X(EXD_PROC_PID,			0x001000, "pid") \
	X(EXD_PROC_UID,			0x001001, "uid") \
	X(EXD_PROC_GID,			0x001002, "gid") \
	X(EXD_PROC_TASKID,		0x001003, "taskid") \
	X(EXD_PROC_PROJID,		0x001004, "projid") \
	X(EXD_PROC_HOSTNAME,		0x001005, "hostname") \
	X(EXD_PROC_COMMAND,		0x001006, "command") \
	X(EXD_PROC_START_SEC,		0x001007, "start-sec") \
	X(EXD_PROC_START_NSEC,		0x001008, "start-nsec") \
	X(EXD_PROC_FINISH_SEC,		0x001009, "finish-sec") \
	X(EXD_PROC_FINISH_NSEC,		0x00100a, "finish-nsec") \
	X(EXD_PROC_CPU_USER_SEC,	0x00100b, "cpu-user-sec") \
	X(EXD_PROC_CPU_USER_NSEC,	0x00100c, "cpu-user-nsec") \
	X(EXD_PROC_CPU_SYS_SEC,		0x00100d, "cpu-sys-sec") \
	X(EXD_PROC_CPU_SYS_NSEC,	0x00100e, "cpu-sys-nsec") \
	X(EXD_PROC_TTY_MAJOR,		0x00100f, "tty-major") \
	X(EXD_PROC_TTY_MINOR,		0x001010, "tty-minor") \
	X(EXD_PROC_FAULTS_MAJOR,	0x001011, "faults-major") \
	X(EXD_PROC_FAULTS_MINOR,	0x001012, "faults-minor") \
	X(EXD_PROC_MESSAGES_RCV,	0x001013, "msgs-recv") \
	X(EXD_PROC_MESSAGES_SND,	0x001014, "msgs-snd") \
	X(EXD_PROC_BLOCKS_IN,		0x001015, "blocks-in") \
	X(EXD_PROC_BLOCKS_OUT,		0x001016, "blocks-out") \
	X(EXD_PROC_CHARS_RDWR,		0x001017, "chars-rdwr") \
	X(EXD_PROC_CONTEXT_VOL,		0x001018, "ctxt-vol") \
	X(EXD_PROC_CONTEXT_INV,		0x001019, "ctxt-inv") \
	X(EXD_PROC_SIGNALS,		0x00101a, "signals") \
	X(EXD_PROC_SWAPS,		0x00101b, "swaps") \
	X(EXD_PROC_SYSCALLS,		0x00101c, "syscalls") \
	X(EXD_PROC_ACCT_FLAGS,		0x00101d, "acctflags") \
	X(EXD_PROC_TAG,			0x00101e, "proc-tag") \
	X(EXD_PROC_ANCPID,		0x00101f, "ppid") \
	X(EXD_PROC_WAIT_STATUS,		0x001020, "wait-status") \
	X(EXD_PROC_ZONENAME,		0x001021, "zone") \
	X(EXD_PROC_MEM_RSS_AVG_K,	0x001022, "memory-rss-avg-k") \
	X(EXD_PROC_MEM_RSS_MAX_K,	0x001023, "memory-rss-max-k") \
	/* Task items (§5.4). */ \
	X(EXD_TASK_TASKID,		0x002000, "taskid") \
	X(EXD_TASK_PROJID,		0x002001, "projid") \
	X(EXD_TASK_HOSTNAME,		0x002002, "hostname") \
	X(EXD_TASK_START_SEC,		0x002003, "start-sec") \
	X(EXD_TASK_START_NSEC,		0x002004, "start-nsec") \
	X(EXD_TASK_FINISH_SEC,		0x002005, "finish-sec") \
	X(EXD_TASK_FINISH_NSEC,		0x002006, "finish-nsec") \
	X(EXD_TASK_CPU_USER_SEC,	0x002007, "cpu-user-sec") \
	X(EXD_TASK_CPU_USER_NSEC,	0x002008, "cpu-user-nsec") \
	X(EXD_TASK_CPU_SYS_SEC,		0x002009, "cpu-sys-sec") \
	X(EXD_TASK_CPU_SYS_NSEC,	0x00200a, "cpu-sys-nsec") \
	X(EXD_TASK_FAULTS_MAJOR,	0x00200b, "faults-major") \
	X(EXD_TASK_FAULTS_MINOR,	0x00200c, "faults-minor") \
	X(EXD_TASK_MESSAGES_RCV,	0x00200d, "msgs-recv") \
	X(EXD_TASK_MESSAGES_SND,	0x00200e, "msgs-snd") \
	X(EXD_TASK_BLOCKS_IN,		0x00200f, "blocks-in") \
	X(EXD_TASK_BLOCKS_OUT,		0x002010, "blocks-out") \
	X(EXD_TASK_CHARS_RDWR,		0x002011, "chars-rdwr") \
	X(EXD_TASK_CONTEXT_VOL,		0x002012, "ctxt-vol") \
	X(EXD_TASK_CONTEXT_INV,		0x002013, "ctxt-inv") \
	X(EXD_TASK_SIGNALS,		0x002014, "signals") \
	X(EXD_TASK_SWAPS,		0x002015, "swaps") \
	X(EXD_TASK_SYSCALLS,		0x002016, "syscalls") \
	X(EXD_TASK_TAG,			0x002017, "task-tag") \
	X(EXD_TASK_ANCTASKID,		0x002018, "anctaskid") \
	X(EXD_TASK_ZONENAME,		0x002019, "zone") \
	/* Flow items (§5.6). */ \
	X(EXD_FLOW_V4_SADDR,		0x003000, "src-addr-v4") \
	X(EXD_FLOW_V4_DADDR,		0x003001, "dest-addr-v4") \
	X(EXD_FLOW_V6_SADDR,		0x003002, "src-addr-v6") \
	X(EXD_FLOW_V6_DADDR,		0x003003, "dest-addr-v6") \
	X(EXD_FLOW_SPORT,		0x003004, "src-port") \
	X(EXD_FLOW_DPORT,		0x003005, "dest-port") \
	X(EXD_FLOW_PROTOCOL,		0x003006, "protocol") \
	X(EXD_FLOW_DSFIELD,		0x003007, "diffserv-field") \
	X(EXD_FLOW_NBYTES,		0x003008, "total-bytes") \
	X(EXD_FLOW_NPKTS,		0x003009, "total-packets") \
	X(EXD_FLOW_CTIME,		0x00300a, "creation-time") \
	X(EXD_FLOW_LSEEN,		0x00300b, "last-seen") \
	X(EXD_FLOW_PROJID,		0x00300c, "projid") \
	X(EXD_FLOW_UID,			0x00300d, "uid") \
	X(EXD_FLOW_ANAME,		0x00300e, "action-name") \
	/* FMA items (§5.8): fmd logs are exacct files too. */ \
	X(EXD_FMA_LABEL,		0x004000, "fma-label") \
	X(EXD_FMA_VERSION,		0x004001, "fma-version") \
	X(EXD_FMA_OSREL,		0x004002, "fma-osrel") \
	X(EXD_FMA_OSVER,		0x004003, "fma-osver") \
	X(EXD_FMA_PLAT,			0x004004, "fma-plat") \
	X(EXD_FMA_TODSEC,		0x004005, "fma-todsec") \
	X(EXD_FMA_TODNSEC,		0x004006, "fma-todnsec") \
	X(EXD_FMA_NVLIST,		0x004007, "fma-nvlist") \
	X(EXD_FMA_MAJOR,		0x004008, "fma-major") \
	X(EXD_FMA_MINOR,		0x004009, "fma-minor") \
	X(EXD_FMA_INODE,		0x00400a, "fma-inode") \
	X(EXD_FMA_OFFSET,		0x00400b, "fma-offset") \
	X(EXD_FMA_UUID,			0x00400c, "fma-uuid") \
	/* Net items (§5.7), unnamed by exdump: ours are the macro names. */ \
	X(EXD_NET_DESC_NAME,		0x005001, "net-desc-name") \
	X(EXD_NET_DESC_EHOST,		0x005002, "net-desc-ehost") \
	X(EXD_NET_DESC_EDEST,		0x005003, "net-desc-edest") \
	X(EXD_NET_DESC_VLAN_TPID,	0x005004, "net-desc-vlan-tpid") \
	X(EXD_NET_DESC_VLAN_TCI,	0x005005, "net-desc-vlan-tci") \
	X(EXD_NET_DESC_SAP,		0x005006, "net-desc-sap") \
	X(EXD_NET_DESC_PRIORITY,	0x005007, "net-desc-priority") \
	X(EXD_NET_DESC_BWLIMIT,		0x005008, "net-desc-bwlimit") \
	X(EXD_NET_DESC_DEVNAME,		0x005009, "net-desc-devname") \
	X(EXD_NET_DESC_V4_SADDR,	0x00500a, "net-desc-v4-saddr") \
	X(EXD_NET_DESC_V4_DADDR,	0x00500b, "net-desc-v4-daddr") \
	X(EXD_NET_DESC_V6_SADDR,	0x00500c, "net-desc-v6-saddr") \
	X(EXD_NET_DESC_V6_DADDR,	0x00500d, "net-desc-v6-daddr") \
	X(EXD_NET_DESC_SPORT,		0x00500e, "net-desc-sport") \
	X(EXD_NET_DESC_DPORT,		0x00500f, "net-desc-dport") \
	X(EXD_NET_DESC_PROTOCOL,	0x005010, "net-desc-protocol") \
	X(EXD_NET_DESC_DSFIELD,		0x005011, "net-desc-dsfield") \
	X(EXD_NET_STATS_NAME,		0x006000, "net-stats-name") \
	X(EXD_NET_STATS_CURTIME,	0x006001, "net-stats-curtime") \
	X(EXD_NET_STATS_IBYTES,		0x006002, "net-stats-ibytes") \
	X(EXD_NET_STATS_OBYTES,		0x006003, "net-stats-obytes") \
	X(EXD_NET_STATS_IPKTS,		0x006004, "net-stats-ipkts") \
	X(EXD_NET_STATS_OPKTS,		0x006005, "net-stats-opkts") \
	X(EXD_NET_STATS_IERRPKTS,	0x006006, "net-stats-ierrpkts") \
	X(EXD_NET_STATS_OERRPKTS,	0x006007, "net-stats-oerrpkts")

#define EXD_ENUM_ROW(macro, id, name)	macro = id,
enum exd_id { EXD_CATALOG(EXD_ENUM_ROW) };

/*
 * extracct's own catalog (EXC_LOCAL): the ids of what Linux has and
 * Solaris records do not, written by snap and acctd in files whose
 * creator is "extracct" (docs/formats.md).  Rows are X(macro, id,
 * type, name), the type the one the writers give (GROUP: a top-level
 * group), in any order: local_id_name() is a switch, which rejects an
 * id given twice.
 */
#define EXL_CATALOG(X) \
	/* Items in group-proc and group-proc-partial: */ \
	X(EXL_PROC_READ_BYTES, 0x000101, UINT64, "read-bytes") /* bytes */ \
	X(EXL_PROC_WRITE_BYTES, 0x000102, UINT64, "write-bytes") /* bytes */ \
	X(EXL_PROC_SYSCALLS_R, 0x000103, UINT64, "syscalls-read") \
	X(EXL_PROC_SYSCALLS_W, 0x000104, UINT64, "syscalls-write") \
	X(EXL_PROC_THREADS, 0x000105, UINT32, "threads") /* now */ \
	X(EXL_PROC_RSS_K, 0x000106, UINT64, "memory-rss-k") /* KiB, now */ \
	/* \
	 * Delay accounting totals from taskstats (acctd), UINT64 ns spent \
	 * waiting: for a CPU, synchronous block I/O, swap-in, memory \
	 * reclaim, thrashing, memory compaction, write-protect copy, \
	 * IRQ/softirq handling.  Written only when the kernel filled them \
	 * (kernel.task_delayacct=1 and a struct version that has the field). \
	 */ \
	X(EXL_PROC_DELAY_CPU, 0x000107, UINT64, "delay-cpu-ns") \
	X(EXL_PROC_DELAY_BLKIO, 0x000108, UINT64, "delay-blkio-ns") \
	X(EXL_PROC_DELAY_SWAPIN, 0x000109, UINT64, "delay-swapin-ns") \
	X(EXL_PROC_DELAY_FREEPAGES, 0x00010a, UINT64, "delay-freepages-ns") \
	X(EXL_PROC_DELAY_THRASHING, 0x00010b, UINT64, "delay-thrashing-ns") \
	X(EXL_PROC_DELAY_COMPACT, 0x00010c, UINT64, "delay-compact-ns") \
	X(EXL_PROC_DELAY_WPCOPY, 0x00010d, UINT64, "delay-wpcopy-ns") \
	X(EXL_PROC_DELAY_IRQ, 0x00010e, UINT64, "delay-irq-ns") \
	/* \
	 * The scheduler's runtime of the process at its exit (taskstats \
	 * cpu_run_virtual_total), UINT64 ns: exact as of the last scheduler \
	 * update, so it lags by up to one tick (2 ms on average at HZ=250). \
	 * acctd's user and system CPU are the kernel's tick samples. \
	 */ \
	X(EXL_PROC_CPU_RUN_NS, 0x00010f, UINT64, "cpu-run-ns") \
	/* \
	 * What the record's user and system CPU times measure, UINT32 (enum \
	 * cpu_source in records.h: 1 the kernel's tick samples, 2 the \
	 * scheduler's runtime as /proc splits it).  snap writes it in every \
	 * partial record, so a process's snapshots taken by different \
	 * measures are never differenced against each other. \
	 */ \
	X(EXL_PROC_CPU_SOURCE, 0x000110, UINT32, "cpu-source") \
	/* \
	 * The process's cgroup on Linux, as /proc/PID/cgroup gives it: \
	 * the path (STRING, exact bytes, up to 4095), which hierarchy it \
	 * is of (UINT8: 2 the unified (v2) "0::" line, 1 the v1 cpuacct \
	 * hierarchy on a host with no unified one mounted), and for an \
	 * exit whose own /proc was gone whose cgroup it is (UINT8: 1 its \
	 * thread group leader's, 2 its parent's; absent: its own). \
	 */ \
	X(EXL_PROC_CGROUP, 0x000111, STRING, "cgroup") \
	X(EXL_PROC_CGROUP_HIER, 0x000112, UINT8, "cgroup-hierarchy") \
	X(EXL_PROC_CGROUP_FROM, 0x000113, UINT8, "cgroup-from") \
	/* \
	 * pacct's ac_mem, UINT64 KiB: what Linux calls the average memory \
	 * usage and fills with the address space's size (the sum of the \
	 * mappings) when the last thread exits.  Read from pacct only; \
	 * written when a record carrying it is written as exacct. \
	 */ \
	X(EXL_PROC_MEM_K, 0x000114, UINT64, "memory-k") \
	/* \
	 * The system record, one per snapshot: a top-level group of \
	 * /proc/stat's cpu line and what is needed to read it. \
	 */ \
	X(EXL_GROUP_SYSLOAD, 0x000001, GROUP, "group-sysload") \
	X(EXL_SYS_TIME_NS, 0x000201, UINT64, "snapshot-time-ns") /* ns UTC */ \
	X(EXL_SYS_USER, 0x000202, UINT64, "cpu-user-ticks") \
	X(EXL_SYS_NICE, 0x000203, UINT64, "cpu-nice-ticks") \
	X(EXL_SYS_SYSTEM, 0x000204, UINT64, "cpu-system-ticks") \
	X(EXL_SYS_IDLE, 0x000205, UINT64, "cpu-idle-ticks") \
	X(EXL_SYS_IOWAIT, 0x000206, UINT64, "cpu-iowait-ticks") \
	X(EXL_SYS_IRQ, 0x000207, UINT64, "cpu-irq-ticks") \
	X(EXL_SYS_SOFTIRQ, 0x000208, UINT64, "cpu-softirq-ticks") \
	X(EXL_SYS_STEAL, 0x000209, UINT64, "cpu-steal-ticks") \
	X(EXL_SYS_CLK_TCK, 0x00020a, UINT32, "clk-tck") /* per second */ \
	X(EXL_SYS_BTIME, 0x00020b, UINT64, "boot-time") /* s */ \
	X(EXL_SYS_NCPU, 0x00020c, UINT32, "cpus") /* online */ \
	/* \
	 * A loss record, written by acctd when the kernel dropped exit \
	 * records (its socket buffer overflowed): when it noticed (UINT64, \
	 * ns UTC), and how many (UINT64).  A top-level group. \
	 */ \
	X(EXL_GROUP_LOST, 0x000002, GROUP, "group-lost") \
	X(EXL_LOST_TIME_NS, 0x000301, UINT64, "lost-time-ns") \
	X(EXL_LOST_COUNT, 0x000302, UINT64, "lost-records") \
	/* \
	 * An energy snapshot: one per process per snapshot, a top-level \
	 * group, written by a per-process energy sampler (macOS \
	 * proc_pid_rusage, rusage_info_v6 of <sys/resource.h>).  CPU \
	 * times are in the writer's Mach ticks, with the timebase needed to \
	 * read them in every record (numer/denom and hw.tbfrequency, and \
	 * whether the writer ran translated under Rosetta, where the \
	 * timebase it sees is 1/1 but the ticks are native).  Energy is \
	 * absent when the writer had no energy counting \
	 * (kern.pervasive_energy).  Ids 0x401.. in enum energy_field order \
	 * (records.h). \
	 */ \
	X(EXL_GROUP_ENERGY, 0x000003, GROUP, "group-energy") \
	X(EXL_EN_PID, 0x000401, UINT32, "energy-pid") \
	X(EXL_EN_PPID, 0x000402, UINT32, "energy-ppid") \
	X(EXL_EN_UID, 0x000403, UINT32, "energy-uid") \
	X(EXL_EN_START_NS, 0x000404, UINT64, "energy-start-ns") /* ns UTC */ \
	X(EXL_EN_TIME_NS, 0x000405, UINT64, "energy-time-ns") /* ns UTC */ \
	/* ri_user_time, ri_system_time, ri_user_ptime, ri_system_ptime: */ \
	X(EXL_EN_USER_TICKS, 0x000406, UINT64, "cpu-user-ticks-mach") \
	X(EXL_EN_SYS_TICKS, 0x000407, UINT64, "cpu-sys-ticks-mach") \
	X(EXL_EN_USER_PTICKS, 0x000408, UINT64, "cpu-user-pcore-ticks") \
	X(EXL_EN_SYS_PTICKS, 0x000409, UINT64, "cpu-sys-pcore-ticks") \
	X(EXL_EN_ENERGY_NJ, 0x00040a, UINT64, "energy-nj") /* ri_energy_nj */ \
	X(EXL_EN_PENERGY_NJ, 0x00040b, UINT64, "energy-pcore-nj") \
	X(EXL_EN_INSTRUCTIONS, 0x00040c, UINT64, "instructions") \
	X(EXL_EN_CYCLES, 0x00040d, UINT64, "cycles") \
	X(EXL_EN_DISK_READ, 0x00040e, UINT64, "disk-read-bytes") \
	X(EXL_EN_DISK_WRITTEN, 0x00040f, UINT64, "disk-written-bytes") \
	X(EXL_EN_FOOTPRINT, 0x000410, UINT64, "phys-footprint") \
	X(EXL_EN_MAX_FOOTPRINT, 0x000411, UINT64, "phys-footprint-max") \
	X(EXL_EN_INT_WAKEUPS, 0x000412, UINT64, "interrupt-wakeups") \
	X(EXL_EN_IDLE_WAKEUPS, 0x000413, UINT64, "idle-wakeups") \
	/* mach_timebase_info (UINT32 each), hw.tbfrequency: */ \
	X(EXL_EN_TB_NUMER, 0x000414, UINT32, "timebase-numer") \
	X(EXL_EN_TB_DENOM, 0x000415, UINT32, "timebase-denom") \
	X(EXL_EN_TB_HZ, 0x000416, UINT64, "timebase-hz") \
	X(EXL_EN_TRANSLATED, 0x000417, UINT8, "translated") /* 1: Rosetta */ \
	X(EXL_EN_HAS_ENERGY, 0x000418, UINT8, "energy-counted") \
	X(EXL_EN_COMMAND, 0x000419, STRING, "energy-command") \
	/* \
	 * A RAPL reading, written by snap once per powercap zone per \
	 * snapshot where /sys/class/powercap is readable (the kernel's powercap \
	 * §3.1): the zone's cumulative energy counter and the range it wraps \
	 * at; the time is the snapshot's, the same as its system record's. \
	 * The boot time (s) tells a reboot, which resets the counters; the \
	 * limit is the long-term one (constraint_0). \
	 */ \
	X(EXL_GROUP_RAPL, 0x000004, GROUP, "group-rapl") \
	X(EXL_RAPL_TIME_NS, 0x000501, UINT64, "rapl-time-ns") /* ns UTC */ \
	X(EXL_RAPL_ZONE, 0x000502, STRING, "rapl-zone") /* intel-rapl:0 */ \
	X(EXL_RAPL_NAME, 0x000503, STRING, "rapl-zone-name") /* package-0 */ \
	X(EXL_RAPL_ENERGY_UJ, 0x000504, UINT64, "rapl-energy-uj") \
	X(EXL_RAPL_MAX_UJ, 0x000505, UINT64, "rapl-max-energy-range-uj") \
	X(EXL_RAPL_BOOT_S, 0x000506, UINT64, "rapl-boot-time") \
	X(EXL_RAPL_LIMIT_UW, 0x000507, UINT64, "rapl-power-limit-uw") /* uW */ \
	/* \
	 * A cgroup's totals, written by snap once per snapshot for every \
	 * cgroup that holds processes and every ancestor of one: what the \
	 * kernel has counted for the cgroup and its descendants since it \
	 * was made, exited processes included.  The hierarchy is 2 (the \
	 * unified one: cpu.stat, memory.current, memory.peak, io.stat) or \
	 * 1 (the version 1 controllers cpuacct, memory and blkio, whose \
	 * cgroups of one path are one record); the path is the cgroup's, \
	 * as /proc/PID/cgroup names it, its bytes as the kernel gives \
	 * them.  CPU in ns; memory in bytes, a level and its high-water \
	 * mark; I/O summed over devices.  A figure the cgroup does not \
	 * have (its controller is elsewhere or off) is absent. \
	 */ \
	X(EXL_GROUP_CGROUP, 0x000005, GROUP, "group-cgroup") \
	X(EXL_CG_TIME_NS, 0x000601, UINT64, "cgroup-time-ns") /* ns UTC */ \
	X(EXL_CG_HIERARCHY, 0x000602, UINT32, "cgroup-hierarchy") /* 2, 1 */ \
	X(EXL_CG_PATH, 0x000603, STRING, "cgroup-path") \
	X(EXL_CG_CPU_NS, 0x000604, UINT64, "cgroup-cpu-usage-ns") \
	X(EXL_CG_USER_NS, 0x000605, UINT64, "cgroup-cpu-user-ns") \
	X(EXL_CG_SYSTEM_NS, 0x000606, UINT64, "cgroup-cpu-system-ns") \
	X(EXL_CG_MEM_CURRENT, 0x000607, UINT64, "cgroup-memory-current") \
	X(EXL_CG_MEM_PEAK, 0x000608, UINT64, "cgroup-memory-peak") \
	X(EXL_CG_IO_RBYTES, 0x000609, UINT64, "cgroup-io-read-bytes") \
	X(EXL_CG_IO_WBYTES, 0x00060a, UINT64, "cgroup-io-write-bytes") \
	X(EXL_CG_IO_RIOS, 0x00060b, UINT64, "cgroup-io-read-ops") \
	X(EXL_CG_IO_WIOS, 0x00060c, UINT64, "cgroup-io-write-ops")

#define EXL_ENUM_ROW(macro, id, type, name)	macro = id,
enum exl_id { EXL_CATALOG(EXL_ENUM_ROW) };

/*
 * Field rows, in the order of the field enums (which is the order of
 * the store's columns: docs/schema.md):
 *
 *   X(member, column, kind, unit, type, part, catalog, id)
 *
 *   member   the field is PROC_<member> (TASK_, FLOW_) in records.h
 *   column   its name in CSV, dump and the store, with its unit
 *   kind     FK_*: how the store treats it (differenced or not)
 *   unit     of the value in the fixed record ("" for a count)
 *   type     EXT_<type> the writers give the item (the reader takes
 *            any integer width)
 *   part     how the item is read: WHOLE, STR, SEC (a time: the item
 *            is its seconds, the next id its nanoseconds, §5.3), ADDR
 *            (flows: the id is the IPv4 UINT32; two ids on, the IPv6
 *            RAW of 16 bytes, §5.6)
 *   catalog  D: the default catalog (the ids above), L: extracct's
 *            (EXC_LOCAL, local.h)
 *   id       the data id
 *
 * Rows in the store's column lists come in runs whose first row is
 * given to X and the rest to Y, so a list is joined with ", " without
 * a trailing one (SQL has none).  The counters process and task
 * records share are one run, with the process id and the task id of
 * each picked by S (FIELD_PROC_ID or FIELD_TASK_ID).
 */
#define FIELD_PROC_ID(proc, task)	proc
#define FIELD_TASK_ID(proc, task)	task

#define PROC_ID_ROWS(X) \
	X(PID,		"pid",		FK_ID,	"",	UINT32,	WHOLE,	D, \
	    EXD_PROC_PID) \
	X(PPID,		"ppid",		FK_ID,	"",	UINT32,	WHOLE,	D, \
	    EXD_PROC_ANCPID) \
	X(UID,		"uid",		FK_ID,	"",	UINT32,	WHOLE,	D, \
	    EXD_PROC_UID) \
	X(GID,		"gid",		FK_ID,	"",	UINT32,	WHOLE,	D, \
	    EXD_PROC_GID) \
	X(PROJID,	"projid",	FK_ID,	"",	UINT32,	WHOLE,	D, \
	    EXD_PROC_PROJID) \
	X(TASKID,	"taskid",	FK_ID,	"",	UINT32,	WHOLE,	D, \
	    EXD_PROC_TASKID) \
	X(START_NS,	"start_ns",	FK_TIME, "ns",	UINT64,	SEC,	D, \
	    EXD_PROC_START_SEC) \
	X(FINISH_NS,	"finish_ns",	FK_TIME, "ns",	UINT64,	SEC,	D, \
	    EXD_PROC_FINISH_SEC)

/* The Solaris counters: COUNTERS in the store. */
#define COUNTER_ROWS(X, Y, S) \
	X(CPU_USER_NS,	"cpu_user_ns",	FK_COUNTER, "ns", UINT64, SEC, D, \
	    S(EXD_PROC_CPU_USER_SEC, EXD_TASK_CPU_USER_SEC)) \
	Y(CPU_SYS_NS,	"cpu_sys_ns",	FK_COUNTER, "ns", UINT64, SEC, D, \
	    S(EXD_PROC_CPU_SYS_SEC, EXD_TASK_CPU_SYS_SEC)) \
	Y(FAULTS_MAJOR,	"faults_major",	FK_COUNTER, "", UINT64, WHOLE, D, \
	    S(EXD_PROC_FAULTS_MAJOR, EXD_TASK_FAULTS_MAJOR)) \
	Y(FAULTS_MINOR,	"faults_minor",	FK_COUNTER, "", UINT64, WHOLE, D, \
	    S(EXD_PROC_FAULTS_MINOR, EXD_TASK_FAULTS_MINOR)) \
	Y(MSGS_SND,	"msgs_snd",	FK_COUNTER, "", UINT64, WHOLE, D, \
	    S(EXD_PROC_MESSAGES_SND, EXD_TASK_MESSAGES_SND)) \
	Y(MSGS_RCV,	"msgs_rcv",	FK_COUNTER, "", UINT64, WHOLE, D, \
	    S(EXD_PROC_MESSAGES_RCV, EXD_TASK_MESSAGES_RCV)) \
	Y(BLOCKS_IN,	"blocks_in",	FK_COUNTER, "", UINT64, WHOLE, D, \
	    S(EXD_PROC_BLOCKS_IN, EXD_TASK_BLOCKS_IN)) \
	Y(BLOCKS_OUT,	"blocks_out",	FK_COUNTER, "", UINT64, WHOLE, D, \
	    S(EXD_PROC_BLOCKS_OUT, EXD_TASK_BLOCKS_OUT)) \
	Y(CHARS_RDWR,	"chars_rdwr",	FK_COUNTER, "bytes", UINT64, WHOLE, \
	    D, S(EXD_PROC_CHARS_RDWR, EXD_TASK_CHARS_RDWR)) \
	Y(CTXT_VOL,	"ctxt_vol",	FK_COUNTER, "", UINT64, WHOLE, D, \
	    S(EXD_PROC_CONTEXT_VOL, EXD_TASK_CONTEXT_VOL)) \
	Y(CTXT_INV,	"ctxt_inv",	FK_COUNTER, "", UINT64, WHOLE, D, \
	    S(EXD_PROC_CONTEXT_INV, EXD_TASK_CONTEXT_INV)) \
	Y(SIGNALS,	"signals",	FK_COUNTER, "", UINT64, WHOLE, D, \
	    S(EXD_PROC_SIGNALS, EXD_TASK_SIGNALS)) \
	Y(SWAPS,	"swaps",	FK_COUNTER, "", UINT64, WHOLE, D, \
	    S(EXD_PROC_SWAPS, EXD_TASK_SWAPS)) \
	Y(SYSCALLS,	"syscalls",	FK_COUNTER, "", UINT64, WHOLE, D, \
	    S(EXD_PROC_SYSCALLS, EXD_TASK_SYSCALLS))

/* The Linux counters and the levels: PROC_COLUMNS goes on with them. */
#define PROC_EXTRA_ROWS(X, Y) \
	X(READ_BYTES,	"read_bytes",	FK_COUNTER, "bytes", UINT64, WHOLE, \
	    L, EXL_PROC_READ_BYTES) \
	Y(WRITE_BYTES,	"write_bytes",	FK_COUNTER, "bytes", UINT64, WHOLE, \
	    L, EXL_PROC_WRITE_BYTES) \
	Y(SYSCALLS_R,	"syscalls_r",	FK_COUNTER, "", UINT64, WHOLE, L, \
	    EXL_PROC_SYSCALLS_R) \
	Y(SYSCALLS_W,	"syscalls_w",	FK_COUNTER, "", UINT64, WHOLE, L, \
	    EXL_PROC_SYSCALLS_W) \
	Y(RSS_AVG_KB,	"rss_avg_kb",	FK_LEVEL, "KiB", UINT64, WHOLE, D, \
	    EXD_PROC_MEM_RSS_AVG_K) \
	Y(RSS_MAX_KB,	"rss_max_kb",	FK_LEVEL, "KiB", UINT64, WHOLE, D, \
	    EXD_PROC_MEM_RSS_MAX_K) \
	Y(RSS_KB,	"rss_kb",	FK_LEVEL, "KiB", UINT64, WHOLE, L, \
	    EXL_PROC_RSS_K) \
	Y(THREADS,	"threads",	FK_LEVEL, "", UINT32, WHOLE, L, \
	    EXL_PROC_THREADS)

#define PROC_ATTR_ROWS(X) \
	X(TTY_MAJOR,	"tty_major",	FK_ID,	"",	UINT32,	WHOLE,	D, \
	    EXD_PROC_TTY_MAJOR) \
	X(TTY_MINOR,	"tty_minor",	FK_ID,	"",	UINT32,	WHOLE,	D, \
	    EXD_PROC_TTY_MINOR) \
	X(ACCTFLAGS,	"acctflags",	FK_ID,	"",	UINT32,	WHOLE,	D, \
	    EXD_PROC_ACCT_FLAGS) \
	X(WAIT_STATUS,	"wait_status",	FK_ID,	"",	UINT32,	WHOLE,	D, \
	    EXD_PROC_WAIT_STATUS) \
	X(COMMAND,	"command",	FK_STRING, "",	STRING,	STR,	D, \
	    EXD_PROC_COMMAND) \
	X(HOSTNAME,	"hostname",	FK_STRING, "",	STRING,	STR,	D, \
	    EXD_PROC_HOSTNAME) \
	X(ZONE,		"zone",		FK_STRING, "",	STRING,	STR,	D, \
	    EXD_PROC_ZONENAME)

/*
 * Delay accounting totals (acctd): exit facts, not differenced, and the
 * scheduler's runtime (acctd's at exit is stored; snap's stays in the
 * log).  EXIT_EXTRAS in the store.
 */
#define PROC_EXIT_ROWS(X, Y) \
	X(DELAY_CPU_NS,	"delay_cpu_ns",	FK_COUNTER, "ns", UINT64, WHOLE, L, \
	    EXL_PROC_DELAY_CPU) \
	Y(DELAY_BLKIO_NS, "delay_blkio_ns", FK_COUNTER, "ns", UINT64, WHOLE, \
	    L, EXL_PROC_DELAY_BLKIO) \
	Y(DELAY_SWAPIN_NS, "delay_swapin_ns", FK_COUNTER, "ns", UINT64, \
	    WHOLE, L, EXL_PROC_DELAY_SWAPIN) \
	Y(DELAY_FREEPAGES_NS, "delay_freepages_ns", FK_COUNTER, "ns", \
	    UINT64, WHOLE, L, EXL_PROC_DELAY_FREEPAGES) \
	Y(DELAY_THRASHING_NS, "delay_thrashing_ns", FK_COUNTER, "ns", \
	    UINT64, WHOLE, L, EXL_PROC_DELAY_THRASHING) \
	Y(DELAY_COMPACT_NS, "delay_compact_ns", FK_COUNTER, "ns", UINT64, \
	    WHOLE, L, EXL_PROC_DELAY_COMPACT) \
	Y(DELAY_WPCOPY_NS, "delay_wpcopy_ns", FK_COUNTER, "ns", UINT64, \
	    WHOLE, L, EXL_PROC_DELAY_WPCOPY) \
	Y(DELAY_IRQ_NS,	"delay_irq_ns",	FK_COUNTER, "ns", UINT64, WHOLE, L, \
	    EXL_PROC_DELAY_IRQ) \
	Y(CPU_RUN_NS,	"cpu_run_ns",	FK_COUNTER, "ns", UINT64, WHOLE, L, \
	    EXL_PROC_CPU_RUN_NS)

/*
 * What the CPU times measure (enum cpu_source): never differenced.  The
 * cgroup (Linux): kept apart in the store (a cgroups row, referred to).
 */
#define PROC_TAIL_ROWS(X) \
	X(CPU_SOURCE,	"cpu_source",	FK_ID,	"",	UINT32,	WHOLE,	L, \
	    EXL_PROC_CPU_SOURCE) \
	X(CGROUP,	"cgroup",	FK_STRING, "",	STRING,	STR,	L, \
	    EXL_PROC_CGROUP) \
	X(CGROUP_HIER,	"cgroup_hierarchy", FK_ID, "",	UINT8,	WHOLE,	L, \
	    EXL_PROC_CGROUP_HIER) \
	X(CGROUP_FROM,	"cgroup_from",	FK_ID,	"",	UINT8,	WHOLE,	L, \
	    EXL_PROC_CGROUP_FROM)

/*
 * pacct's memory at exit (ac_mem), stored with the exit.  Last, as every
 * new field: a field's index is its bit in the store's anomaly masks,
 * so the fields before keep theirs.
 */
#define PROC_MEM_ROWS(X) \
	X(MEM_KB,	"mem_kb",	FK_LEVEL, "KiB", UINT64, WHOLE, L, \
	    EXL_PROC_MEM_K)

#define PROC_FIELD_ROWS(X) \
	PROC_ID_ROWS(X) \
	COUNTER_ROWS(X, X, FIELD_PROC_ID) \
	PROC_EXTRA_ROWS(X, X) \
	PROC_ATTR_ROWS(X) \
	PROC_EXIT_ROWS(X, X) \
	PROC_TAIL_ROWS(X) \
	PROC_MEM_ROWS(X)

#define TASK_FIELD_ROWS(X) \
	X(TASKID,	"taskid",	FK_ID,	"",	UINT32,	WHOLE,	D, \
	    EXD_TASK_TASKID) \
	X(PROJID,	"projid",	FK_ID,	"",	UINT32,	WHOLE,	D, \
	    EXD_TASK_PROJID) \
	X(ANCTASKID,	"anctaskid",	FK_ID,	"",	UINT32,	WHOLE,	D, \
	    EXD_TASK_ANCTASKID) \
	X(START_NS,	"start_ns",	FK_TIME, "ns",	UINT64,	SEC,	D, \
	    EXD_TASK_START_SEC) \
	X(FINISH_NS,	"finish_ns",	FK_TIME, "ns",	UINT64,	SEC,	D, \
	    EXD_TASK_FINISH_SEC) \
	COUNTER_ROWS(X, X, FIELD_TASK_ID) \
	X(HOSTNAME,	"hostname",	FK_STRING, "",	STRING,	STR,	D, \
	    EXD_TASK_HOSTNAME) \
	X(ZONE,		"zone",		FK_STRING, "",	STRING,	STR,	D, \
	    EXD_TASK_ZONENAME)

/* Flow times are whole seconds (§5.6), as the record has them. */
#define FLOW_FIELD_ROWS(X) \
	X(SADDR,	"src_addr",	FK_STRING, "",	UINT32,	ADDR,	D, \
	    EXD_FLOW_V4_SADDR) \
	X(DADDR,	"dst_addr",	FK_STRING, "",	UINT32,	ADDR,	D, \
	    EXD_FLOW_V4_DADDR) \
	X(SPORT,	"src_port",	FK_ID,	"",	UINT16,	WHOLE,	D, \
	    EXD_FLOW_SPORT) \
	X(DPORT,	"dst_port",	FK_ID,	"",	UINT16,	WHOLE,	D, \
	    EXD_FLOW_DPORT) \
	X(PROTOCOL,	"protocol",	FK_ID,	"",	UINT8,	WHOLE,	D, \
	    EXD_FLOW_PROTOCOL) \
	X(DSFIELD,	"dsfield",	FK_ID,	"",	UINT8,	WHOLE,	D, \
	    EXD_FLOW_DSFIELD) \
	X(CTIME_S,	"ctime_s",	FK_TIME, "s",	UINT64,	WHOLE,	D, \
	    EXD_FLOW_CTIME) \
	X(LSEEN_S,	"lseen_s",	FK_TIME, "s",	UINT64,	WHOLE,	D, \
	    EXD_FLOW_LSEEN) \
	X(NBYTES,	"bytes",	FK_COUNTER, "bytes", UINT32, WHOLE, D, \
	    EXD_FLOW_NBYTES) \
	X(NPKTS,	"packets",	FK_COUNTER, "",	UINT32,	WHOLE,	D, \
	    EXD_FLOW_NPKTS) \
	X(PROJID,	"projid",	FK_ID,	"",	UINT32,	WHOLE,	D, \
	    EXD_FLOW_PROJID) \
	X(UID,		"uid",		FK_ID,	"",	UINT32,	WHOLE,	D, \
	    EXD_FLOW_UID) \
	X(ACTION,	"action",	FK_STRING, "",	STRING,	STR,	D, \
	    EXD_FLOW_ANAME)

/*
 * The store's column lists, as string literals ("cpu_user_ns,
 * cpu_sys_ns, ..."), and their placeholders ("?,?,...").
 */
#define FIELD_COL(m, col, ...)		col
#define FIELD_NEXT_COL(m, col, ...)	", " col
#define FIELD_Q(m, ...)			"?"
#define FIELD_NEXT_Q(m, ...)		",?"

#endif
