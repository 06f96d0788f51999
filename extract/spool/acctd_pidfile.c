/*
 * acctd's pidfile (see acctd_pidfile.h).  Built on every system: rotate
 * and run ask it wherever they run, and find no acctd where there is
 * none.
 */
#include <sys/file.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

int
acctd_pidfile_take(const char *path, int *code)
{
	char pid[32];
	int fd;

	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	/* Started by hand, not by its unit (RuntimeDirectory=): the
	 * pidfile's own directory (/run/extracct) may not exist yet. */
	if (fd == -1 && errno == ENOENT) {
		char dir[4096], *slash;

		snprintf(dir, sizeof(dir), "%s", path);
		if ((slash = strrchr(dir, '/')) != NULL && slash != dir) {
			*slash = '\0';
			if (mkdir(dir, 0755) == 0 || errno == EEXIST)
				fd = open(path, O_RDWR | O_CREAT |
				    O_NOFOLLOW | O_CLOEXEC, 0644);
		}
	}
	if (fd == -1) {
		*code = complain(EXR_IO, "%s: %s", path, strerror(errno));
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

int
acctd_pidfile_running(const char *path, pid_t *pid, char *log, size_t n)
{
	char first[320];
	int fd, running = 0;

	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) == -1)
		return 0;
	/* Locked by someone: acctd runs (a lock we can take: it does not). */
	if (flock(fd, LOCK_SH | LOCK_NB) == -1 && errno == EWOULDBLOCK) {
		read_lines(fd, first, sizeof(first), log, n);
		if (first[0] != '\0') {
			*pid = (pid_t)strtol(first, NULL, 10);
			running = *pid > 0;
		}
	}
	close(fd);
	return running;
}
