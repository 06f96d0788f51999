/*
 * Files and directories extracct writes, checked against what someone
 * else may have put in their place.
 *
 * An output (the database and its -wal, -shm and -lock, a snapshot log,
 * the .txt and .csv of --outdir, acctd's pidfile) is written only if it is a regular file
 * with one link, owned by the effective user: never through a symbolic
 * link, never a FIFO (an open or a write would wait for a reader for
 * ever), never a hard link to a file elsewhere (writing would change
 * that file) and never a file another user made (they could read what
 * is written, or have linked it).  A new output is created mode 0640,
 * and an existing one's mode is cut to 0640 at most: they hold users'
 * commands.
 *
 * A directory that outputs go into (the spool, --outdir) is refused if
 * it is a symbolic link, is owned by neither us nor root, or can be
 * written by group or others; and so is it when one of its parents up
 * to / is owned by neither, or is world-writable without the sticky bit
 * (its users could swap the directory for their own).  Parents may be
 * group-writable: Ubuntu's /var/log is root:syslog 0775.  acctd's
 * pidfile goes in such a directory too.
 *
 * What root obeys rather than writes (the configuration, the pid in
 * acctd's pidfile) must be no other user's either: see outfile_trusted.
 */
#ifndef OUTFILE_H
#define OUTFILE_H

#include <sys/types.h>
#include <sys/stat.h>

#include "../parsers/exerr.h"

#define OUTFILE_MODE	0640	/* new outputs; existing ones at most this */

/*
 * Open path for writing, creating it (mode 0640) if absent: flags are
 * added to O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC (O_APPEND,
 * O_EXCL, or O_RDWR in place of O_WRONLY).  The open does not wait on a
 * FIFO, and the file is checked (outfile_check) before anything is
 * written.  Returns the descriptor, with *st filled if st is not NULL,
 * or -1 with err filled (EXR_IO; the reason does not repeat path).
 */
int	outfile_open(const char *path, int flags, struct stat *st,
	    struct ex_err *err);

/*
 * Is the open fd a regular file with one link, owned by us?  Then its
 * mode is cut to 0640 at most.  Returns EXR_OK with *st filled, or
 * EXR_IO with err filled.
 */
int	outfile_check(int fd, struct stat *st, struct ex_err *err);

/*
 * What outfile_check checks of a file's stat: EXR_OK if a regular file
 * with one link owned by us, else EXR_IO with err filled (the mode is
 * not looked at).
 */
int	outfile_owned(const struct stat *st, struct ex_err *err);

/*
 * A file another program opens and writes (the SQLite database, its
 * -wal and -shm): EXR_OK if it does not exist (st->st_nlink is then 0)
 * or is, by lstat, a regular file with one link owned by us (*st
 * filled; its mode cut to 0640 at most); EXR_IO with err filled
 * otherwise.  Checked by name and never opened: SQLite holds POSIX
 * locks on these files, and closing any descriptor of ours on one would
 * drop them.
 */
int	outfile_existing(const char *path, struct stat *st,
	    struct ex_err *err);

/*
 * Refuse a directory to write in, as above; what names it in messages
 * ("spool", "output directory").  Returns EXR_OK, or EXR_USAGE (a
 * configuration to fix) with err filled.
 */
int	outfile_dir_check(const char *what, const char *dir,
	    struct ex_err *err);

/*
 * A file whose content we obey rather than write (the configuration,
 * acctd's pidfile), st its fstat: refused unless owned by us or root
 * and not writable by anyone (a device, only root can make, excepted);
 * a regular file also unless each of its parents up to / is owned by
 * us or root and is not world-writable without the sticky bit (who can
 * write a directory can swap the file for theirs).  path and what
 * ("configuration") name it in messages.  EXR_OK, or EXR_USAGE (a
 * setup to fix) with err filled.
 */
int	outfile_trusted(const char *what, const char *path,
	    const struct stat *st, struct ex_err *err);

/* What a file of this mode is, for messages: "a symbolic link", ... */
const char *outfile_kind(mode_t mode);

#endif
