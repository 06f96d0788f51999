/*
 * Linux taskstats exit notifications (generic netlink family "TASKSTATS"),
 * the source acctd reads.  Facts: <linux/taskstats.h>.
 *
 * The kernel sends one message per exiting thread, carrying that
 * thread's struct taskstats; when the last thread of a multi-threaded
 * process exits, the same message also carries the process aggregate.
 * The struct it carries is decoded in parsers/taskstats_decode.h; this
 * is the socket and the messages around it (Linux only).
 */
#ifndef TASKSTATS_H
#define TASKSTATS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../../parsers/exerr.h"
#include "../../parsers/records.h"
#include "../../parsers/taskstats_decode.h"

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
 * Ask for process tgid's figures.  Returns 0, or -1 with errno (ESRCH:
 * it is gone; EPERM; EAGAIN: no answer within the socket's timeout).
 */
int	ts_query_tgid(struct ts_conn *c, uint32_t tgid, struct ts_tgid *t);

/*
 * Ask for n processes' figures at once (n at most TS_QUERY_MAX): one
 * send, then the answers.  err[i] is 0 with t[i] filled, or an errno
 * as above.  With leader (and leader_err) not NULL, each process's main
 * thread (pid = tgid) is asked about too, in the same send: leader[i] is
 * its own record (its uid, gid, peak RSS, its own context switches),
 * leader_err[i] as err[i].  Returns 0, or -1 with errno when the socket
 * failed before every answer came (EAGAIN: the timeout), the
 * unanswered ones' errors set to it.  The answers wait in the socket's
 * receive buffer meanwhile, 1,280 bytes each on Linux 6.18: 32 take
 * 40 KiB of the 128 KiB the kernel gives the 64 KiB snap asks for (one
 * that found it full would be lost, and the wait for it end in EAGAIN).
 */
#define TS_QUERY_MAX	16
int	ts_query_tgids(struct ts_conn *c, const uint32_t *tgid, size_t n,
	    struct ts_tgid *t, int *err, struct ts_exit *leader, int *leader_err);

void	ts_close(struct ts_conn *c);

#endif
