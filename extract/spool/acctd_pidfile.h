/*
 * acctd's pidfile: "PID\nLOG\n", the daemon's pid and the name of the
 * log in the spool it writes, held locked (flock) while it runs.  acctd
 * takes and writes it; rotate, run and snap read it to know whether
 * acctd runs and where its exits go.  Both sides are here, so the
 * format is written down once.
 */
#ifndef ACCTD_PIDFILE_H
#define ACCTD_PIDFILE_H

#include <sys/types.h>

#include <stddef.h>

#include "../../parsers/exerr.h"

/*
 * Open path (creating it, and its directory if that is missing: acctd
 * started by hand, not by its unit's RuntimeDirectory=) and lock it.
 * Its directory must be one the spool could be (outfile.h: ours or
 * root's, writable by no one else), and the file is never followed
 * through a symbolic link, nor a FIFO, a hard link or another user's
 * file.  Returns the descriptor, or -1 after a message: EXR_USAGE (the
 * directory), EXR_IO, or EXR_LOCKED when another acctd holds it
 * (*code).
 */
int	acctd_pidfile_take(const char *path, int *code);

/* Say that this process (pid) now writes log. */
void	acctd_pidfile_write(int fd, pid_t pid, const char *log);

/* At exit: remove path and close fd (the lock goes with it). */
void	acctd_pidfile_remove(const char *path, int fd);

/*
 * Is acctd running (it holds path locked)?  1 if so, with *pid and log
 * (the log it writes; "" if the pidfile names none yet) set; 0 if not.
 * -1 with err filled when a locked pidfile is not one acctd could have
 * written (a symbolic link counts as absent): not a regular file, a
 * hard link, owned by neither us nor root, writable by group or
 * others, or in a directory acctd_pidfile_take refuses.  Anyone who
 * can make such a file could have rotate signal any process.
 */
int	acctd_pidfile_running(const char *path, pid_t *pid, char *log,
	    size_t n, struct ex_err *err);

#endif
