/*
 * Outputs and their directories, checked before writing (see outfile.h).
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "outfile.h"

const char *
outfile_kind(mode_t mode)
{
	if (S_ISLNK(mode))
		return "a symbolic link";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "a device";
	return S_ISREG(mode) ? "a regular file" : "not a regular file";
}

int
outfile_owned(const struct stat *st, struct ex_err *err)
{
	uid_t me = geteuid();

	if (!S_ISREG(st->st_mode))
		return ex_fail(err, EXR_IO, 0, "%s, not a regular file; "
		    "refusing to write to it", outfile_kind(st->st_mode));
	if (st->st_nlink != 1)
		return ex_fail(err, EXR_IO, 0, "has %ju hard links; refusing "
		    "to write to it (the other names would change too)",
		    (uintmax_t)st->st_nlink);
	if (st->st_uid != me)
		return ex_fail(err, EXR_IO, 0, "owned by uid %ju, not by us "
		    "(uid %ju); refusing to write to it",
		    (uintmax_t)st->st_uid, (uintmax_t)me);
	return EXR_OK;
}

/* Ours, but an older extracct (or a umask) may have left it 0644. */
static int
too_open(const struct stat *st)
{
	return (st->st_mode & 07777 & ~(mode_t)OUTFILE_MODE) != 0;
}

int
outfile_check(int fd, struct stat *st, struct ex_err *err)
{
	int rc;

	if (fstat(fd, st) == -1)
		return ex_fail(err, EXR_IO, 0, "%s", strerror(errno));
	if ((rc = outfile_owned(st, err)) != EXR_OK)
		return rc;
	if (too_open(st)) {
		if (fchmod(fd, st->st_mode & OUTFILE_MODE) == -1)
			return ex_fail(err, EXR_IO, 0, "cannot make it mode "
			    "0%o: %s", OUTFILE_MODE, strerror(errno));
		st->st_mode &= ~(mode_t)07777 | OUTFILE_MODE;
	}
	return EXR_OK;
}

/* Why open(path) failed, saying what is there where that is the reason. */
static int
open_failed(const char *path, int e, struct ex_err *err)
{
	struct stat st;

	/* ELOOP: O_NOFOLLOW met a link; ENXIO: a FIFO with no reader. */
	if ((e == ELOOP || e == ENXIO || e == EISDIR) &&
	    lstat(path, &st) == 0)
		return ex_fail(err, EXR_IO, 0, "%s, not a regular file; "
		    "refusing to write to it", outfile_kind(st.st_mode));
	return ex_fail(err, EXR_IO, 0, "%s", strerror(e));
}

int
outfile_open(const char *path, int flags, struct stat *st,
    struct ex_err *err)
{
	struct stat sb;
	int fd, acc = (flags & O_ACCMODE) == O_RDWR ? O_RDWR : O_WRONLY;

	/* O_NONBLOCK: a FIFO in the way fails at once (ENXIO) or is open
	 * without waiting, and is then refused by the check. */
	fd = open(path, acc | (flags & ~O_ACCMODE) | O_CREAT | O_NOFOLLOW |
	    O_NONBLOCK | O_CLOEXEC, OUTFILE_MODE);
	if (fd == -1) {
		open_failed(path, errno, err);
		return -1;
	}
	if (outfile_check(fd, st != NULL ? st : &sb, err) != EXR_OK) {
		close(fd);
		return -1;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == -1) {
		ex_fail(err, EXR_IO, 0, "%s", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

int
outfile_existing(const char *path, struct stat *st, struct ex_err *err)
{
	int rc;

	if (lstat(path, st) == -1) {
		if (errno != ENOENT)
			return ex_fail(err, EXR_IO, 0, "%s", strerror(errno));
		memset(st, 0, sizeof(*st));
		return EXR_OK;
	}
	if ((rc = outfile_owned(st, err)) != EXR_OK)
		return rc;
	/* By name, never following a link (one swapped in meanwhile). */
	if (too_open(st)) {
		if (fchmodat(AT_FDCWD, path, st->st_mode & OUTFILE_MODE,
		    AT_SYMLINK_NOFOLLOW) == -1)
			return ex_fail(err, EXR_IO, 0, "cannot make it mode "
			    "0%o: %s", OUTFILE_MODE, strerror(errno));
		st->st_mode &= ~(mode_t)07777 | OUTFILE_MODE;
	}
	return EXR_OK;
}

/* Refuse dir's parent p: owned by another user, or open to all. */
static int
parent_check(const char *what, const char *dir, const char *p,
    struct ex_err *err)
{
	struct stat st;
	uid_t me = geteuid();

	if (lstat(p, &st) == -1)
		return ex_fail(err, EXR_USAGE, 0, "%s %s: %s: %s", what, dir, p,
		    strerror(errno));
	if (st.st_uid != me && st.st_uid != 0)
		return ex_fail(err, EXR_USAGE, 0, "%s %s: its parent %s is "
		    "owned by uid %ju, neither us nor root; refusing it", what,
		    dir, p, (uintmax_t)st.st_uid);
	if ((st.st_mode & S_IWOTH) != 0 && (st.st_mode & S_ISVTX) == 0)
		return ex_fail(err, EXR_USAGE, 0, "%s %s: its parent %s is "
		    "writable by anyone and not sticky (mode %04o); refusing "
		    "it", what, dir, p, (unsigned)st.st_mode & 07777);
	return EXR_OK;
}

/* Each parent of name up to /, as the kernel resolves it. */
static int
parents_check(const char *what, const char *name, struct ex_err *err)
{
	char *real, *slash;
	int rc = EXR_OK;

	if ((real = realpath(name, NULL)) == NULL)
		return ex_fail(err, EXR_USAGE, 0, "%s %s: %s", what, name,
		    strerror(errno));
	while (rc == EXR_OK && (slash = strrchr(real, '/')) != NULL &&
	    real[1] != '\0') {
		slash[slash == real ? 1 : 0] = '\0';
		rc = parent_check(what, name, real, err);
	}
	free(real);
	return rc;
}

int
outfile_trusted(const char *what, const char *path, const struct stat *st,
    struct ex_err *err)
{
	uid_t me = geteuid();

	if (st->st_uid != me && st->st_uid != 0)
		return ex_fail(err, EXR_USAGE, 0, "%s %s is owned by uid %ju, "
		    "neither us (uid %ju) nor root; refusing it", what, path,
		    (uintmax_t)st->st_uid, (uintmax_t)me);
	/* Only root makes devices: /dev/null (-c /dev/null) is 0666. */
	if ((st->st_mode & S_IWOTH) != 0 && !S_ISCHR(st->st_mode))
		return ex_fail(err, EXR_USAGE, 0, "%s %s is writable by anyone "
		    "(mode %04o); refusing it", what, path,
		    (unsigned)st->st_mode & 07777);
	/* What a directory's writers could put in place of a regular
	 * file; a pipe (-c <(...)) is the invoker's own. */
	return S_ISREG(st->st_mode) ? parents_check(what, path, err) : EXR_OK;
}

int
outfile_dir_check(const char *what, const char *dir, struct ex_err *err)
{
	struct stat st;
	uid_t me = geteuid();

	if (lstat(dir, &st) == -1)
		return ex_fail(err, EXR_USAGE, 0, "%s %s: %s", what, dir,
		    strerror(errno));
	if (S_ISLNK(st.st_mode))
		return ex_fail(err, EXR_USAGE, 0, "%s %s is a symbolic "
		    "link; refusing it", what, dir);
	if (!S_ISDIR(st.st_mode))
		return ex_fail(err, EXR_USAGE, 0, "%s %s is not a directory",
		    what, dir);
	if (st.st_uid != me && st.st_uid != 0)
		return ex_fail(err, EXR_USAGE, 0, "%s %s is owned by uid %ju, "
		    "neither us (uid %ju) nor root; refusing it", what, dir,
		    (uintmax_t)st.st_uid, (uintmax_t)me);
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return ex_fail(err, EXR_USAGE, 0, "%s %s is writable by "
		    "group or others (mode %04o); refusing it", what, dir,
		    (unsigned)st.st_mode & 07777);
	return parents_check(what, dir, err);
}
