/*
 * The spool: the directory of rotating logs that run and rotate manage.
 * Names are KIND-HOST-YYYYMMDD-HHMM (extracct(8), THE SPOOL).
 *
 * Which log of a kind is live (still written) is what extracct itself
 * switched it to, kept in the spool in a state file per kind and host,
 * .live-KIND-HOST, holding the log's name: rotate writes it when it
 * moves accounting (or acctadm) to a new log, and snap when it starts
 * the first snapshot log.  Never the newest name: a clock that was
 * once wrong leaves a log named in the future, which would be "newest"
 * for good.  Every other log is closed.
 *
 * A struct spool is that, read once: each run lists the spool one time,
 * and rotate and snap change it through the struct, so that what run
 * then ingests and retires is what they left (a log rotate closed is
 * ingested in the same run).  No limit on the number of logs: a spool
 * of thousands is listed whole, and one that cannot be listed is an
 * error.
 */
#ifndef SPOOL_H
#define SPOOL_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "../../parsers/exerr.h"

/* The kinds of log, in the order a minute's logs are read (spool.c). */
enum spool_kind { SPOOL_SNAP, SPOOL_ACCTD, SPOOL_PACCT, SPOOL_PROC,
    SPOOL_TASK, SPOOL_FLOW, SPOOL_NKINDS };

struct spool_log {
	char		 name[256];	/* the file name, in the spool */
	char		 kind[16];	/* snap, acctd, pacct; Solaris: proc,
					   task, flow */
	char		 stamp[16];	/* "YYYYMMDD-HHMM" */
	enum spool_kind	 k;		/* kind, as a number */
};

/* A name with a log's form that is no regular file: left out. */
struct spool_odd {
	char		 name[256];
	const char	*what;		/* "a symbolic link", ... (static) */
};

/*
 * One host's view of the spool, read once by each run, rotate, snap
 * and acctd's switch, and kept true by the changes they make through
 * it (a log created, a live log switched).  Which log of each kind is
 * live comes from the state files; every other log is closed.
 */
struct spool {
	const char	*dir;		/* not owned */
	const char	*host;		/* not owned */
	int		 listed;	/* logs[] was read (SPOOL_LIST) */
	struct spool_log *logs;		/* sorted as spool_open says */
	size_t		 nlogs, alloc;
	struct spool_odd *odd;		/* in the order readdir gave them */
	size_t		 nodd, oddalloc;
	/* Per kind, the live log ("": none), and why its state could not
	 * be read (code EXR_OK: it could; else live is ""). */
	char		 live[SPOOL_NKINDS][256];
	struct ex_err	 live_err[SPOOL_NKINDS];
	/* The file outside the spool that rotate moved process accounting
	 * from, now closed ("": none): the exits accounting wrote there
	 * before (the acct package's file, before the first run), which run
	 * ingests with the closed logs. */
	char		 pacct_from[4096];
};

#define SPOOL_LIST	1		/* spool_open: also list the logs */

/* "snap", "acctd", ...: the kind's name in file names. */
extern const char *const spool_kind_names[SPOOL_NKINDS];

/*
 * Read the live log of every kind for host from dir's state files (an
 * unreadable one is kept in live_err, not an error here), and with
 * SPOOL_LIST the logs of host, sorted oldest first (by stamp, then
 * snap, acctd, the rest: snapshots must be ingested before the exits
 * that close their processes, and acctd's exits are preferred to
 * pacct's), however many.  Only regular files are logs: a symbolic
 * link, FIFO or directory with a log's name goes into odd[].  dir and
 * host must outlive sp.  EXR_OK, or EXR_IO / EXR_NOMEM with err when
 * the spool cannot be listed (sp then holds nothing to release).
 */
int	spool_open(struct spool *sp, const char *dir, const char *host,
	    int flags, struct ex_err *err);
void	spool_close(struct spool *sp);

/* "DIR/NAME" into buf. */
void	spool_path(const struct spool *sp, const char *name, char *buf,
	    size_t n);

/* Is l the live log of its kind, as sp knows it? */
int	spool_is_live(const struct spool *sp, const struct spool_log *l);

/*
 * The newest listed log of kind, leaving out those named ahead of the
 * clock at now (spool_in_future) unless now is 0; NULL if none.  The
 * pointer is into sp, good until the next change through sp.
 */
const char *spool_newest(const struct spool *sp, enum spool_kind k,
	    time_t now);

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
 * Create the log name in the spool, empty, never through a link and
 * never an existing file (O_EXCL | O_NOFOLLOW), mode 0640, and list
 * it.  Returns EXR_OK or EXR_IO (err->sys_errno says why: EEXIST for a
 * name taken).
 */
int	spool_create(struct spool *sp, const char *name, struct ex_err *err);

/* A log something else created (snap, acctadm): list it, if it is a
 * regular file and not listed yet.  EXR_OK or EXR_NOMEM. */
int	spool_add(struct spool *sp, const char *name);

/*
 * Is stamp ("YYYYMMDD-HHMM") ahead of the clock at now, by more than a
 * daylight-saving change (an hour) and the minute's rounding?
 */
int	spool_in_future(const char *stamp, time_t now);

/*
 * The live log of kind, as read and changed since: returns 1 with name
 * set, 0 if none is recorded, -1 with *err a copy of why the state
 * could not be read (EXR_IO, or EXR_DAMAGED: it holds no such log's
 * name).
 */
int	spool_live_get(const struct spool *sp, enum spool_kind k, char *name,
	    size_t n, struct ex_err *err);

/*
 * Record name as the live log of kind, atomically (a new file, fsync,
 * rename over the old one, fsync of the spool), and in sp.  EXR_OK or
 * EXR_IO with err.
 */
int	spool_live_set(struct spool *sp, enum spool_kind k, const char *name,
	    struct ex_err *err);

/* Forget kind's live log: the log it named is closed (rotate, when
 * process accounting is found off).  EXR_OK or EXR_IO. */
int	spool_live_clear(struct spool *sp, enum spool_kind k,
	    struct ex_err *err);

/*
 * Take name ("": none) as the live log of kind in sp only, leaving the
 * state as it is: run takes acctd's from its pidfile (the log acctd
 * writes) rather than from the state (the one rotate asked it to move
 * to).
 */
void	spool_live_note(struct spool *sp, enum spool_kind k,
	    const char *name);

/*
 * The live snapshot log's path (DIR/NAME) in path: the state's, or if
 * none is recorded a new one named for now, recorded as live (the file
 * is snap's to create).  EXR_OK, or an error code with err (a state
 * that holds no log name included: snapshots are not put just
 * anywhere).
 */
int	spool_snap_live(struct spool *sp, time_t now, char *path, size_t n,
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
