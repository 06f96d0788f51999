/*
 * The acctd daemon (acctd.c; Linux only): an exacct record for every
 * process that exits, from taskstats, to its log in the spool.
 */
#ifndef ACCTD_H
#define ACCTD_H

#include <stdint.h>

/*
 * Serve until SIGTERM or SIGINT: take pidfile (a second acctd finds it
 * locked: EXR_LOCKED), open a log named for host in spool (log_host in
 * its header), register for every CPU's exits with a socket buffer of
 * rcvbuf bytes, and write each exit; SIGHUP moves to the log rotate
 * recorded as live.  Messages printed; the worst EXR_* code.
 */
int	acctd_run(const char *spool, const char *host, const char *log_host,
	    const char *pidfile, uint64_t rcvbuf);

#endif
