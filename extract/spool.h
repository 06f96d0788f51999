/*
 * The spool: the directory of rotating logs that run and rotate manage.
 * Names are KIND-HOST-YYYYMMDD-HHMM (design.md §5): the newest of a kind
 * is the live one, every older one is closed.
 */
#ifndef SPOOL_H
#define SPOOL_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "../parsers/exerr.h"

#define SPOOL_MAX_LOGS	4096

struct spool_log {
	char		 name[256];	/* the file name, in the spool */
	char		 kind[16];	/* snap, acctd, pacct; Solaris: proc,
					   task, flow */
	char		 stamp[16];	/* "YYYYMMDD-HHMM" */
};

/*
 * Refuse a spool that is not a directory, is a symbolic link, is owned
 * by neither us nor root, or can be written by group or others (a
 * planted file or link could redirect what rotate creates), or whose
 * parents would let another user swap it (outfile_dir_check).  Returns
 * EXR_OK or EXR_USAGE with err filled.
 */
int	spool_check(const char *dir, struct ex_err *err);

/*
 * "KIND-HOST-YYYYMMDD-HHMM" for time t, rounded up to the next minute in
 * the last 10 s of one (cron jobs run on the hour a little early or late:
 * they still get the hour's name).
 */
void	spool_name(char *buf, size_t n, const char *kind, const char *host,
	    time_t t);

/*
 * The logs of host in dir, sorted oldest first (by stamp, then snap,
 * acctd, the rest: snapshots must be ingested before the exits that
 * close their processes, and acctd's exits are preferred to pacct's).
 * Only regular files: a symbolic link, FIFO or directory with a log's
 * name is left out.  Returns the count, or -1 (errno set).
 */
int	spool_list(const char *dir, const char *host, struct spool_log *logs,
	    int max);

/* The same, saying on stderr which names it leaves out and why, and
 * counting them in *skipped (run, before ingesting). */
int	spool_list_warn(const char *dir, const char *host,
	    struct spool_log *logs, int max, int *skipped);

/*
 * Create dir/name, empty, never through a link and never an existing
 * file (O_EXCL | O_NOFOLLOW), mode 0640.  Returns EXR_OK or EXR_IO
 * (err->sys_errno says why: EEXIST for a name taken).
 */
int	spool_create(const char *dir, const char *name, struct ex_err *err);

#endif
