/*
 * Names of exacct data ids, as the illumos exdump demo prints them
 * (../shared/docs/exacct-format.md §5).  Ids exdump does not know (net,
 * FMA) get names built from their macro names, lower case.
 *
 * Lookup is by the data id within the default catalog; local-catalog ids
 * (EXC_LOCAL) are extracct's own (local.h).
 */
#include <stddef.h>

#include "exacct.h"
#include "local.h"

struct idname {
	uint32_t	 id;
	const char	*name;
};

/* Sorted by id: looked up by binary search. */
static const struct idname default_names[] = {
	{ 0x000001, "version" },
	{ 0x000002, "filetype" },
	{ 0x000003, "creator" },
	{ 0x000004, "hostname" },
	{ 0x0000ff, "group-header" },
	{ 0x000100, "group-proc" },
	{ 0x000101, "group-task" },
	{ 0x000102, "group-lwp" },
	{ 0x000103, "group-proc-tag" },
	{ 0x000104, "group-task-tag" },
	{ 0x000105, "group-lwp-tag" },
	{ 0x000106, "group-proc-partial" },
	{ 0x000107, "group-task-partial" },
	{ 0x000108, "group-task-interval" },
	{ 0x000109, "group-flow" },
	{ 0x00010a, "group-rfma" },
	{ 0x00010b, "group-fma" },
	{ 0x00010c, "group-net-link-desc" },
	{ 0x00010d, "group-net-flow-desc" },
	{ 0x00010e, "group-net-link-stats" },
	{ 0x00010f, "group-net-flow-stats" },
	{ 0x001000, "pid" },
	{ 0x001001, "uid" },
	{ 0x001002, "gid" },
	{ 0x001003, "taskid" },
	{ 0x001004, "projid" },
	{ 0x001005, "hostname" },
	{ 0x001006, "command" },
	{ 0x001007, "start-sec" },
	{ 0x001008, "start-nsec" },
	{ 0x001009, "finish-sec" },
	{ 0x00100a, "finish-nsec" },
	{ 0x00100b, "cpu-user-sec" },
	{ 0x00100c, "cpu-user-nsec" },
	{ 0x00100d, "cpu-sys-sec" },
	{ 0x00100e, "cpu-sys-nsec" },
	{ 0x00100f, "tty-major" },
	{ 0x001010, "tty-minor" },
	{ 0x001011, "faults-major" },
	{ 0x001012, "faults-minor" },
	{ 0x001013, "msgs-recv" },
	{ 0x001014, "msgs-snd" },
	{ 0x001015, "blocks-in" },
	{ 0x001016, "blocks-out" },
	{ 0x001017, "chars-rdwr" },
	{ 0x001018, "ctxt-vol" },
	{ 0x001019, "ctxt-inv" },
	{ 0x00101a, "signals" },
	{ 0x00101b, "swaps" },
	{ 0x00101c, "syscalls" },
	{ 0x00101d, "acctflags" },
	{ 0x00101e, "proc-tag" },
	{ 0x00101f, "ppid" },
	{ 0x001020, "wait-status" },
	{ 0x001021, "zone" },
	{ 0x001022, "memory-rss-avg-k" },
	{ 0x001023, "memory-rss-max-k" },
	{ 0x002000, "taskid" },
	{ 0x002001, "projid" },
	{ 0x002002, "hostname" },
	{ 0x002003, "start-sec" },
	{ 0x002004, "start-nsec" },
	{ 0x002005, "finish-sec" },
	{ 0x002006, "finish-nsec" },
	{ 0x002007, "cpu-user-sec" },
	{ 0x002008, "cpu-user-nsec" },
	{ 0x002009, "cpu-sys-sec" },
	{ 0x00200a, "cpu-sys-nsec" },
	{ 0x00200b, "faults-major" },
	{ 0x00200c, "faults-minor" },
	{ 0x00200d, "msgs-recv" },
	{ 0x00200e, "msgs-snd" },
	{ 0x00200f, "blocks-in" },
	{ 0x002010, "blocks-out" },
	{ 0x002011, "chars-rdwr" },
	{ 0x002012, "ctxt-vol" },
	{ 0x002013, "ctxt-inv" },
	{ 0x002014, "signals" },
	{ 0x002015, "swaps" },
	{ 0x002016, "syscalls" },
	{ 0x002017, "task-tag" },
	{ 0x002018, "anctaskid" },
	{ 0x002019, "zone" },
	{ 0x003000, "src-addr-v4" },
	{ 0x003001, "dest-addr-v4" },
	{ 0x003002, "src-addr-v6" },
	{ 0x003003, "dest-addr-v6" },
	{ 0x003004, "src-port" },
	{ 0x003005, "dest-port" },
	{ 0x003006, "protocol" },
	{ 0x003007, "diffserv-field" },
	{ 0x003008, "total-bytes" },
	{ 0x003009, "total-packets" },
	{ 0x00300a, "creation-time" },
	{ 0x00300b, "last-seen" },
	{ 0x00300c, "projid" },
	{ 0x00300d, "uid" },
	{ 0x00300e, "action-name" },
	{ 0x004000, "fma-label" },
	{ 0x004001, "fma-version" },
	{ 0x004002, "fma-osrel" },
	{ 0x004003, "fma-osver" },
	{ 0x004004, "fma-plat" },
	{ 0x004005, "fma-todsec" },
	{ 0x004006, "fma-todnsec" },
	{ 0x004007, "fma-nvlist" },
	{ 0x004008, "fma-major" },
	{ 0x004009, "fma-minor" },
	{ 0x00400a, "fma-inode" },
	{ 0x00400b, "fma-offset" },
	{ 0x00400c, "fma-uuid" },
	{ 0x005001, "net-desc-name" },
	{ 0x005002, "net-desc-ehost" },
	{ 0x005003, "net-desc-edest" },
	{ 0x005004, "net-desc-vlan-tpid" },
	{ 0x005005, "net-desc-vlan-tci" },
	{ 0x005006, "net-desc-sap" },
	{ 0x005007, "net-desc-priority" },
	{ 0x005008, "net-desc-bwlimit" },
	{ 0x005009, "net-desc-devname" },
	{ 0x00500a, "net-desc-v4-saddr" },
	{ 0x00500b, "net-desc-v4-daddr" },
	{ 0x00500c, "net-desc-v6-saddr" },
	{ 0x00500d, "net-desc-v6-daddr" },
	{ 0x00500e, "net-desc-sport" },
	{ 0x00500f, "net-desc-dport" },
	{ 0x005010, "net-desc-protocol" },
	{ 0x005011, "net-desc-dsfield" },
	{ 0x006000, "net-stats-name" },
	{ 0x006001, "net-stats-curtime" },
	{ 0x006002, "net-stats-ibytes" },
	{ 0x006003, "net-stats-obytes" },
	{ 0x006004, "net-stats-ipkts" },
	{ 0x006005, "net-stats-opkts" },
	{ 0x006006, "net-stats-ierrpkts" },
	{ 0x006007, "net-stats-oerrpkts" },
};

/* extracct's local catalog (local.h), sorted by id. */
static const struct idname local_names[] = {
	{ EXL_GROUP_SYSLOAD, "group-sysload" },
	{ EXL_GROUP_LOST, "group-lost" },
	{ EXL_GROUP_ENERGY, "group-energy" },
	{ EXL_GROUP_RAPL, "group-rapl" },
	{ EXL_PROC_READ_BYTES, "read-bytes" },
	{ EXL_PROC_WRITE_BYTES, "write-bytes" },
	{ EXL_PROC_SYSCALLS_R, "syscalls-read" },
	{ EXL_PROC_SYSCALLS_W, "syscalls-write" },
	{ EXL_PROC_THREADS, "threads" },
	{ EXL_PROC_RSS_K, "memory-rss-k" },
	{ EXL_PROC_DELAY_CPU, "delay-cpu-ns" },
	{ EXL_PROC_DELAY_BLKIO, "delay-blkio-ns" },
	{ EXL_PROC_DELAY_SWAPIN, "delay-swapin-ns" },
	{ EXL_PROC_DELAY_FREEPAGES, "delay-freepages-ns" },
	{ EXL_PROC_DELAY_THRASHING, "delay-thrashing-ns" },
	{ EXL_PROC_DELAY_COMPACT, "delay-compact-ns" },
	{ EXL_PROC_DELAY_WPCOPY, "delay-wpcopy-ns" },
	{ EXL_PROC_DELAY_IRQ, "delay-irq-ns" },
	{ EXL_PROC_CPU_RUN_NS, "cpu-run-ns" },
	{ EXL_PROC_CPU_SOURCE, "cpu-source" },
	{ EXL_SYS_TIME_NS, "snapshot-time-ns" },
	{ EXL_SYS_USER, "cpu-user-ticks" },
	{ EXL_SYS_NICE, "cpu-nice-ticks" },
	{ EXL_SYS_SYSTEM, "cpu-system-ticks" },
	{ EXL_SYS_IDLE, "cpu-idle-ticks" },
	{ EXL_SYS_IOWAIT, "cpu-iowait-ticks" },
	{ EXL_SYS_IRQ, "cpu-irq-ticks" },
	{ EXL_SYS_SOFTIRQ, "cpu-softirq-ticks" },
	{ EXL_SYS_STEAL, "cpu-steal-ticks" },
	{ EXL_SYS_CLK_TCK, "clk-tck" },
	{ EXL_SYS_BTIME, "boot-time" },
	{ EXL_SYS_NCPU, "cpus" },
	{ EXL_LOST_TIME_NS, "lost-time-ns" },
	{ EXL_LOST_COUNT, "lost-records" },
	{ EXL_EN_PID, "energy-pid" },
	{ EXL_EN_PPID, "energy-ppid" },
	{ EXL_EN_UID, "energy-uid" },
	{ EXL_EN_START_NS, "energy-start-ns" },
	{ EXL_EN_TIME_NS, "energy-time-ns" },
	{ EXL_EN_USER_TICKS, "cpu-user-ticks-mach" },
	{ EXL_EN_SYS_TICKS, "cpu-sys-ticks-mach" },
	{ EXL_EN_USER_PTICKS, "cpu-user-pcore-ticks" },
	{ EXL_EN_SYS_PTICKS, "cpu-sys-pcore-ticks" },
	{ EXL_EN_ENERGY_NJ, "energy-nj" },
	{ EXL_EN_PENERGY_NJ, "energy-pcore-nj" },
	{ EXL_EN_INSTRUCTIONS, "instructions" },
	{ EXL_EN_CYCLES, "cycles" },
	{ EXL_EN_DISK_READ, "disk-read-bytes" },
	{ EXL_EN_DISK_WRITTEN, "disk-written-bytes" },
	{ EXL_EN_FOOTPRINT, "phys-footprint" },
	{ EXL_EN_MAX_FOOTPRINT, "phys-footprint-max" },
	{ EXL_EN_INT_WAKEUPS, "interrupt-wakeups" },
	{ EXL_EN_IDLE_WAKEUPS, "idle-wakeups" },
	{ EXL_EN_TB_NUMER, "timebase-numer" },
	{ EXL_EN_TB_DENOM, "timebase-denom" },
	{ EXL_EN_TB_HZ, "timebase-hz" },
	{ EXL_EN_TRANSLATED, "translated" },
	{ EXL_EN_HAS_ENERGY, "energy-counted" },
	{ EXL_EN_COMMAND, "energy-command" },
	{ EXL_RAPL_TIME_NS, "rapl-time-ns" },
	{ EXL_RAPL_ZONE, "rapl-zone" },
	{ EXL_RAPL_NAME, "rapl-zone-name" },
	{ EXL_RAPL_ENERGY_UJ, "rapl-energy-uj" },
	{ EXL_RAPL_MAX_UJ, "rapl-max-energy-range-uj" },
	{ EXL_RAPL_BOOT_S, "rapl-boot-time" },
	{ EXL_RAPL_LIMIT_UW, "rapl-power-limit-uw" },
};

static const char *
lookup(const struct idname *t, size_t n, uint32_t id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t[mid].id == id)
			return t[mid].name;
		if (t[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *
local_id_name(uint32_t id)
{
	return lookup(local_names, sizeof(local_names) /
	    sizeof(local_names[0]), id);
}

const char *
exacct_id_name(uint32_t tag)
{
	if (EX_CATALOG(tag) == EXC_LOCAL)
		return local_id_name(EX_ID(tag));
	if (EX_CATALOG(tag) != EXC_DEFAULT)
		return NULL;
	return lookup(default_names,
	    sizeof(default_names) / sizeof(default_names[0]), EX_ID(tag));
}

const char *
exacct_type_name(uint32_t tag)
{
	switch (EX_TYPE(tag)) {
	case EXT_UINT8:		return "uint8";
	case EXT_UINT16:	return "uint16";
	case EXT_UINT32:	return "uint32";
	case EXT_UINT64:	return "uint64";
	case EXT_DOUBLE:	return "double";
	case EXT_STRING:	return "string";
	case EXT_EXACCT_OBJECT:	return "object";
	case EXT_RAW:		return "raw";
	case EXT_GROUP:		return "group";
	}
	return "unknown-type";
}
