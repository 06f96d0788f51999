/*
 * Linux taskstats exit notifications (generic netlink family "TASKSTATS"),
 * the source acctd reads.  Facts: ../shared/docs/linux-sources.md §4.
 *
 * The kernel sends one message per exiting thread, carrying that
 * thread's struct taskstats; when the last thread of a multi-threaded
 * process exits, the same message also carries the process aggregate.
 * The struct grows by version: ts_decode() reads the version the kernel
 * wrote and only the fields that version has, at that version's offsets
 * (v15 had its own layout), so an older or newer kernel is never misread.
 */
#ifndef TASKSTATS_H
#define TASKSTATS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../parsers/exerr.h"
#include "../parsers/records.h"

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

/* Called for each exit a message carries. */
typedef int (*ts_exit_fn)(void *arg, const struct ts_exit *e);

/*
 * Walk one netlink datagram of len bytes from family: every
 * TASKSTATS_CMD_NEW in it goes to fn; an error or ack for seq goes to
 * *acked and *ack_errno.  Returns the first non-zero fn result, else 0.
 */
int	ts_parse(const uint8_t *buf, size_t len, uint16_t family,
	    uint32_t seq, int *acked, int *ack_errno, ts_exit_fn fn,
	    void *arg);

struct ts_conn {
	int		 fd;
	uint16_t	 family;
	uint32_t	 seq;
	ino_t		 ino;		/* of the socket: its line in
					   /proc/net/netlink */
	uint64_t	 drops;		/* the kernel's drop count, last read */
	char		 cpus[256];	/* the cpulist registered */
};

/*
 * Open the socket, size its receive buffer (rcvbuf bytes; root may
 * exceed rmem_max), and resolve the family.  EXR_OK, or EXR_IO with a
 * reason that says what the kernel lacks.
 */
int	ts_open(struct ts_conn *c, size_t rcvbuf, struct ex_err *err);

/*
 * Register for the exits of every possible CPU (or deregister).  Exits
 * that arrive before the kernel's answer go to fn.  EXR_OK, or EXR_IO
 * with a reason (CAP_NET_ADMIN, namespaces).
 */
int	ts_register(struct ts_conn *c, int on, ts_exit_fn fn, void *arg,
	    struct ex_err *err);

/*
 * Read and hand on what is queued, without blocking.  Returns 0, the
 * first non-zero fn result, or -1 with errno (ENOBUFS: the kernel
 * dropped notifications; the socket goes on working).
 */
int	ts_drain(struct ts_conn *c, ts_exit_fn fn, void *arg);

/*
 * Notifications dropped since the last call, from the socket's line in
 * /proc/net/netlink; 0 if it cannot tell.
 */
uint64_t ts_dropped(struct ts_conn *c);

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
 * Ask for process tgid's figures.  Returns 0, or -1 with errno (ESRCH:
 * it is gone; EPERM; EAGAIN: no answer within the socket's timeout).
 */
int	ts_query_tgid(struct ts_conn *c, uint32_t tgid, struct ts_tgid *t);

void	ts_close(struct ts_conn *c);

#endif
