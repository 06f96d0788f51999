/*
 * Rotation (rotate.c): moving process accounting, the snapshot log and
 * acctd on to new logs in the spool, as acctadm -f does on Solaris
 * (where it drives acctadm and wracct instead: solaris.c).  What rotate
 * and run's second step do.
 */
#ifndef ROTATE_H
#define ROTATE_H

#include <sys/types.h>

#include <time.h>

struct spool;

/*
 * The kernel's part in rotate, for the test helper to stand in for:
 * switching process accounting to a file (acct(2): 0 or -1), and
 * writing the exit record of a process that exited (the probe's).
 */
struct rotate_kernel {
	int	(*acct)(const char *path);
	void	(*exited)(pid_t pid);
};

/*
 * Switch accounting (if on), the snapshot log and acctd (if it runs) to
 * new files in the spool sp, named for now, and record them as the live
 * logs (spool.h), in sp too.  k is NULL but in tests.  manage: 0, or
 * ROTATE_MANAGE (pacct: manage) to switch accounting back on into the
 * spool when it went off since the last rotate, with ROTATE_START
 * (rotate --start, the boot unit) also when it never was.  Accounting
 * moved from pacct (where it went before the spool) leaves that file's
 * path in sp->pacct_from.  sp must be
 * listed (SPOOL_LIST) and checked (spool_check).  Messages printed;
 * EXR_OK, EXR_USAGE or EXR_IO (accounting found off and left so, among
 * others).
 */
#define ROTATE_MANAGE	1
#define ROTATE_START	2
int	rotate_spool(struct spool *sp, const char *pacct,
	    const char *acctadm_conf, const char *acctd_pidfile, time_t now,
	    const struct rotate_kernel *k, int manage);

/* The same for the spool dir of host, checked and listed first. */
int	rotate_logs(const char *dir, const char *pacct, const char *host,
	    const char *acctadm_conf, const char *acctd_pidfile, time_t now,
	    const struct rotate_kernel *k, int manage);

/* The stand-in kernel run's rotate uses (extracct-test); NULL: acct(2). */
extern const struct rotate_kernel *run_kernel;

#endif
