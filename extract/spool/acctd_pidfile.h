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

/*
 * Open path (creating it, and its directory if that is missing: acctd
 * started by hand, not by its unit's RuntimeDirectory=) and lock it,
 * never through a symbolic link.  Returns the descriptor, or -1 after a
 * message: EXR_IO, or EXR_LOCKED when another acctd holds it (*code).
 */
int	acctd_pidfile_take(const char *path, int *code);

/* Say that this process (pid) now writes log. */
void	acctd_pidfile_write(int fd, pid_t pid, const char *log);

/* At exit: remove path and close fd (the lock goes with it). */
void	acctd_pidfile_remove(const char *path, int fd);

/*
 * Is acctd running (it holds path locked)?  Then *pid and log (the log
 * it writes; "" if the pidfile names none yet) are set.
 */
int	acctd_pidfile_running(const char *path, pid_t *pid, char *log,
	    size_t n);

#endif
