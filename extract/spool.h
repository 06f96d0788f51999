/*
 * The spool: the directory of rotating logs that run and rotate manage.
 * Names are KIND-HOST-YYYYMMDD-HHMM (design.md §5).
 *
 * Which log of a kind is live (still written) is what extracct itself
 * switched it to, kept in the spool in a state file per kind and host,
 * .live-KIND-HOST, holding the log's name: rotate writes it when it
 * moves accounting (or acctadm) to a new log, and snap when it starts
 * the first snapshot log.  Never the newest name: a clock that was
 * once wrong leaves a log named in the future, which would be "newest"
 * for good (issue 12).  Every other log is closed.
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

/*
 * Is stamp ("YYYYMMDD-HHMM") ahead of the clock at now, by more than a
 * daylight-saving change (an hour) and the minute's rounding?
 */
int	spool_in_future(const char *stamp, time_t now);

/*
 * The live log of kind for host, from the spool's state: returns 1 with
 * name set, 0 if none is recorded, -1 with err when the state file is
 * unreadable (EXR_IO) or holds no such log's name (EXR_DAMAGED).
 */
int	spool_live_get(const char *dir, const char *kind, const char *host,
	    char *name, size_t n, struct ex_err *err);

/*
 * Record name as the live log of kind for host, atomically (a new file,
 * fsync, rename over the old one, fsync of the spool).  EXR_OK or
 * EXR_IO with err.
 */
int	spool_live_set(const char *dir, const char *kind, const char *host,
	    const char *name, struct ex_err *err);

/*
 * The live snapshot log's path (dir/name) in path: the state's, or if
 * none is recorded a new one named for now, recorded as live.  EXR_OK,
 * or an error code with err (a state that holds no log name included:
 * snapshots are not put just anywhere).
 */
int	spool_snap_live(const char *dir, const char *host, time_t now,
	    char *path, size_t n, struct ex_err *err);

/* Forget kind's live log for host: the log it named is closed (rotate,
 * when process accounting is found off).  EXR_OK or EXR_IO. */
int	spool_live_clear(const char *dir, const char *kind, const char *host,
	    struct ex_err *err);

/*
 * A stretch process accounting was off, found by rotate and waiting in
 * the spool (.gaps-pacct-HOST, a line each) for run to store it in the
 * database (table pacct_gaps).  Kept in the spool because rotate has no
 * database, and so a run that cannot write the database loses none.
 */
struct spool_gap {
	int64_t		 t0_ns;		/* last record before; -1: none */
	int64_t		 t1_ns;		/* switched back on */
	char		 reason[512];	/* "off", "writing to PATH" */
};

#define SPOOL_MAX_GAPS	256

int	spool_gap_add(const char *dir, const char *host,
	    const struct spool_gap *g, struct ex_err *err);
/* Up to max gaps into g: the count, or -1 with err. */
int	spool_gaps_read(const char *dir, const char *host,
	    struct spool_gap *g, int max, struct ex_err *err);
/* The gaps read are stored: remove them.  EXR_OK or EXR_IO. */
int	spool_gaps_done(const char *dir, const char *host,
	    struct ex_err *err);

#endif
