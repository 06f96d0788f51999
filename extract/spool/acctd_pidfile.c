/*
 * acctd's pidfile (see acctd_pidfile.h).  Built on every system: rotate
 * and run ask it wherever they run, and find no acctd where there is
 * none.
 */
#include <sys/file.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../store/outfile.h"
#include "acctd_pidfile.h"
#include "../util.h"

/* A pidfile's first line (the pid) into pid, its second (the log) into
 * log, each cut at its size; what follows is never read. */
static void
read_lines(int fd, char *pid, size_t npid, char *log, size_t nlog)
{
	char buf[320];
	const char *nl;
	ssize_t got;

	pid[0] = '\0';
	if (log != NULL)
		log[0] = '\0';
	if ((got = pread(fd, buf, sizeof(buf) - 1, 0)) <= 0)
		return;
	buf[got] = '\0';
	snprintf(pid, npid, "%.*s", (int)strcspn(buf, "\n"), buf);
	if (log != NULL && (nl = strchr(buf, '\n')) != NULL)
		snprintf(log, nlog, "%.*s", (int)strcspn(nl + 1, "\n"), nl + 1);
}

/* The directory path is in ("." for a bare name), into dir[n]. */
static void
dir_of(const char *path, char *dir, size_t n)
{
	char *slash;

	snprintf(dir, n, "%s", path);
	if ((slash = strrchr(dir, '/')) == NULL)
		snprintf(dir, n, ".");
	else
		slash[slash == dir ? 1 : 0] = '\0';
}

/*
 * Is the pidfile's directory one only we (or root) can write?  Else
 * another user could put their own file, or a link to one of ours, in
 * its place: acctd would write through it, and rotate signal the pid
 * it holds.  The spool's rule (outfile.h).
 */
static int
dir_ok(const char *path, struct ex_err *err)
{
	char dir[4096];

	dir_of(path, dir, sizeof(dir));
	return outfile_dir_check("pidfile directory", dir, err);
}

int
acctd_pidfile_take(const char *path, int *code)
{
	char pid[32], dir[4096];
	struct ex_err err = { 0 };
	struct stat st;
	int fd, rc;

	/* Started by hand, not by its unit (RuntimeDirectory=): the
	 * pidfile's own directory (/run/extracct) may not exist yet. */
	dir_of(path, dir, sizeof(dir));
	if (stat(dir, &st) == -1 && mkdir(dir, 0755) == -1 &&
	    errno != EEXIST) {
		*code = complain(EXR_IO, "%s: %s", dir, strerror(errno));
		return -1;
	}
	if ((rc = dir_ok(path, &err)) != EXR_OK) {
		*code = complain(rc, "%s", err.reason);
		return -1;
	}
	/*
	 * Never through a link, and not a FIFO (O_NONBLOCK: no wait), a
	 * hard link (writing the pid would overwrite the file it shares)
	 * or a file of another user: an output's checks.  An existing own
	 * file is a stale pidfile, taken over.
	 */
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
	    0644);
	if (fd == -1) {
		*code = complain(EXR_IO, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) == -1)
		rc = ex_fail(&err, EXR_IO, 0, "%s", strerror(errno));
	else if ((rc = outfile_owned(&st, &err)) == EXR_OK &&
	    (st.st_mode & 022) != 0 && fchmod(fd, 0644) == -1)
		rc = ex_fail(&err, EXR_IO, 0, "cannot make it mode 0644: %s",
		    strerror(errno));
	if (rc != EXR_OK) {
		close(fd);
		*code = complain(rc, "%s: %s", path, err.reason);
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) == -1) {
		read_lines(fd, pid, sizeof(pid), NULL, 0);
		close(fd);
		*code = complain(EXR_LOCKED, "acctd is already running (pid %s,"
		    " %s); exiting", pid[0] != '\0' ? pid : "?", path);
		return -1;
	}
	return fd;
}

void
acctd_pidfile_write(int fd, pid_t pid, const char *log)
{
	char buf[320];
	int n = snprintf(buf, sizeof(buf), "%ld\n%s\n", (long)pid, log);

	/* Readers stop at the second newline: should the truncation fail,
	 * what stays of a longer old content is harmless.  (Tested, not
	 * cast to void: glibc's _FORTIFY_SOURCE insists.) */
	if (pwrite(fd, buf, (size_t)n, 0) == n && ftruncate(fd, n) == -1)
		return;
}

void
acctd_pidfile_remove(const char *path, int fd)
{
	/* At exit, and nothing to do about a failure but exit anyway. */
	(void)unlink(path);
	close(fd);
}

/*
 * May the pidfile open at fd (st) be believed?  Only if acctd could
 * have written it: a regular file with one link, owned by us or root,
 * writable by neither group nor others, in a directory acctd takes.
 */
static int
trusted(const char *path, int fd, struct ex_err *err)
{
	struct stat st;
	int rc;

	if (fstat(fd, &st) == -1)
		return ex_fail(err, EXR_IO, 0, "%s: %s", path,
		    strerror(errno));
	if (!S_ISREG(st.st_mode))
		return ex_fail(err, EXR_IO, 0, "acctd pidfile %s is %s, not a "
		    "regular file; not believed", path,
		    outfile_kind(st.st_mode));
	if (st.st_nlink != 1)
		return ex_fail(err, EXR_IO, 0, "acctd pidfile %s has %ju hard "
		    "links; not believed (acctd never makes one)", path,
		    (uintmax_t)st.st_nlink);
	if ((st.st_mode & S_IWGRP) != 0)
		return ex_fail(err, EXR_USAGE, 0, "acctd pidfile %s is "
		    "writable by its group (mode %04o); not believed", path,
		    (unsigned)st.st_mode & 07777);
	if ((rc = dir_ok(path, err)) != EXR_OK)
		return rc;
	return outfile_trusted("acctd pidfile", path, &st, err);
}

int
acctd_pidfile_running(const char *path, pid_t *pid, char *log, size_t n,
    struct ex_err *err)
{
	char first[320];
	int fd, running = 0;

	/* Absent, or a link (acctd makes none): no acctd runs. */
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC)) == -1)
		return 0;
	/* Locked by someone: acctd runs (a lock we can take: it does not).
	 * Anyone who can open a file can lock it: only then is it asked
	 * who could have written the pid. */
	if (flock(fd, LOCK_SH | LOCK_NB) == -1 && errno == EWOULDBLOCK) {
		if (trusted(path, fd, err) != EXR_OK) {
			close(fd);
			return -1;
		}
		read_lines(fd, first, sizeof(first), log, n);
		if (first[0] != '\0') {
			*pid = (pid_t)strtol(first, NULL, 10);
			running = *pid > 0;
		}
	}
	close(fd);
	return running;
}
