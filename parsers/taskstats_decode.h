/*
 * The struct taskstats the kernel sends (generic netlink family
 * "TASKSTATS"), decoded into fixed-record fields: what acctd writes for
 * each exit, and the figures snap asks of a live process.  Facts:
 * <linux/taskstats.h> (struct taskstats, version 8 and later).
 *
 * The struct grows by version: ts_decode() reads the version the kernel
 * wrote and only the fields that version has, at that version's offsets
 * (v15 had its own layout), so an older or newer kernel is never misread.
 * The netlink around it is extract/taskstats.c's; this part has no
 * Linux header, so it builds everywhere and is fuzzed with the other
 * parsers.
 */
#ifndef TASKSTATS_DECODE_H
#define TASKSTATS_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "records.h"

/* One thread's exit, decoded.  p holds the thread's own figures. */
struct ts_exit {
	uint32_t	 pid;		/* the thread */
	uint32_t	 tgid;		/* its process; = pid when unknown */
	uint16_t	 version;	/* of the struct the kernel wrote */
	int		 group_dead;	/* the process's last thread */
	int		 has_etime;
	uint64_t	 etime_us;	/* elapsed since the thread started */
	int		 has_runtime;
	uint64_t	 runtime_ns;	/* the scheduler's runtime: see
					   PROC_CPU_RUN_NS */
	struct ex_proc	 p;		/* no start, finish: see acctd */
};

/*
 * Decode a struct taskstats payload of len bytes into e (pid, tgid and
 * group_dead from the struct where the version has them).  Fields the
 * version lacks, or that the payload is too short for, are absent;
 * delay totals are absent unless delay accounting filled them.
 * Returns 0, or -1 for a payload too short to hold even the version.
 */
int	ts_decode(const uint8_t *buf, size_t len, struct ts_exit *e);

/*
 * A live process's CPU as the kernel's own accounting counts it, from
 * a TASKSTATS_CMD_GET by tgid (needs CAP_NET_ADMIN).  The samples are
 * the tick samples pacct and getrusage start from.  samples_ns is every
 * thread's, exited ones included (the kernel adds an exiting thread's
 * into its process's totals).  user_ns and sys_ns are the live threads'
 * only, unless the kernel also keeps its exited threads' there (Linux
 * 6.18 does; older ones do not).
 */
struct ts_tgid {
	uint64_t	 user_ns;	/* samples, user */
	uint64_t	 sys_ns;	/* and system */
	int		 live;		/* a thread of it still runs */
	int		 has_totals;	/* the two below are filled in */
	uint64_t	 samples_ns;	/* all threads', user + system */
	uint64_t	 runtime_ns;	/* the scheduler's runtime, all
					   threads */
	int		 has_ctxt;	/* the two below are filled in */
	uint64_t	 nvcsw, nivcsw;	/* context switches, all threads */
};

/*
 * Decode the struct taskstats of a reply by tgid (version-aware, as
 * ts_decode).  Returns 0, or -1 if it lacks the times.
 */
int	ts_decode_tgid(const uint8_t *buf, size_t len, struct ts_tgid *t);

/*
 * How far below the truth field f of an acctd exit record (taskstats)
 * may read, where a snapshot of the process saw more: the kernel cuts
 * the I/O counts to whole KiB, and a thread's CPU is tick samples below
 * 100 ms of runtime (ts_decode).  0 for a field read exactly.
 */
uint64_t ts_exit_slack(int f, uint64_t v);

#endif
