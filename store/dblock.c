/*
 * The writer's lock of a database (see dblock.h).  Held for a whole
 * ingest, so waiting is polling: a writer holds it for seconds or
 * minutes, and a waiter that looks every 100 ms at most costs nothing.
 */
#include <sys/file.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dblock.h"
#include "outfile.h"

static uint64_t
mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* The pid the holder wrote into the lock file, or 0 if unreadable. */
static long
holder_pid(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

int
dblock_take(const char *path, uint64_t wait_ms, int *fdp,
    struct ex_err *err)
{
	char lock[4096], pid[32];
	struct ex_err why = { 0 };
	struct stat st;
	uint64_t start, nap_ms = 5;
	int fd, n;

	*fdp = -1;
	if (path[0] == '\0' || strcmp(path, ":memory:") == 0)
		return EXR_OK;
	if ((size_t)snprintf(lock, sizeof(lock), "%s-lock", path) >=
	    sizeof(lock))
		return ex_fail(err, EXR_IO, 0, "%s: name too long", path);
	/*
	 * An output like the database's -wal and -shm (outfile.h): never
	 * through a planted link, a FIFO must not hang us, and a lock file
	 * another user made is refused: they could hold it locked for
	 * ever, keeping every writer out.
	 */
	if ((fd = outfile_open(lock, O_RDWR, &st, &why)) == -1)
		return ex_fail(err, why.code, 0, "%s: %s", lock, why.reason);
	/* 0600, not the 0640 of outputs: flock needs only a descriptor
	 * open for reading, so whoever can open it can hold it. */
	if ((st.st_mode & 077) != 0 && fchmod(fd, 0600) == -1) {
		n = errno;
		close(fd);
		return ex_fail(err, EXR_IO, 0, "%s: cannot make it mode 0600: "
		    "%s", lock, strerror(n));
	}
	start = mono_ms();
	while (flock(fd, LOCK_EX | LOCK_NB) == -1) {
		uint64_t waited = mono_ms() - start;

		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK) {
			n = errno;
			close(fd);
			return ex_fail(err, EXR_IO, 0, "%s: %s", lock,
			    strerror(n));
		}
		if (waited >= wait_ms) {
			long holder = holder_pid(fd);

			close(fd);
			if (holder > 0)
				return ex_fail(err, EXR_BUSY, 0, "another "
				    "writer (pid %ld) holds %s; gave up after "
				    "waiting %llu s (--wait)", holder, lock,
				    (unsigned long long)(wait_ms / 1000));
			return ex_fail(err, EXR_BUSY, 0, "another writer "
			    "holds %s; gave up after waiting %llu s (--wait)",
			    lock, (unsigned long long)(wait_ms / 1000));
		}
		if (nap_ms > wait_ms - waited)
			nap_ms = wait_ms - waited;
		(void)nanosleep(&(struct timespec){ (time_t)(nap_ms / 1000),
		    (long)(nap_ms % 1000) * 1000000 }, NULL);	/* EINTR: ok */
		if (nap_ms < 100)
			nap_ms *= 2;
	}
	/* Who holds it, for the message of whoever waits. */
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) == -1 || pwrite(fd, pid, (size_t)n, 0) != n) {
		n = errno;
		close(fd);
		return ex_fail(err, EXR_IO, 0, "%s: %s", lock, strerror(n));
	}
	*fdp = fd;
	return EXR_OK;
}

int
dblock_held(const char *path)
{
	char lock[4096];
	int fd, held;

	if ((size_t)snprintf(lock, sizeof(lock), "%s-lock", path) >=
	    sizeof(lock))
		return 0;
	fd = open(lock, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd == -1)
		return 0;
	while ((held = flock(fd, LOCK_SH | LOCK_NB)) == -1 && errno == EINTR)
		;
	held = held == -1 && errno == EWOULDBLOCK;
	close(fd);
	return held;
}

void
dblock_release(int fd)
{
	/* Closing the descriptor releases the flock; the file stays, so
	 * the next writer locks the same inode. */
	if (fd != -1)
		close(fd);
}
