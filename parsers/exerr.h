/*
 * Result codes and the error record shared by every layer.
 *
 * Library code (parsers/, store/, reports/) never prints and never exits:
 * it returns one of the EXR_* codes and, where the caller passed one, fills
 * a struct ex_err saying where (file, byte offset) and why.  Only
 * extract/main.c turns codes into exit statuses (design.md §8).
 */
#ifndef EXERR_H
#define EXERR_H

#include <stdint.h>

enum {
	EXR_OK = 0,		/* success */
	EXR_DAMAGED,		/* input bytes are not what the format allows */
	EXR_USAGE,		/* bad arguments or configuration */
	EXR_IO,			/* a system call failed; errno in ex_err */
	EXR_DB,			/* the database failed */
	EXR_NOMEM,		/* out of memory */
	EXR_LOCKED,		/* another run holds the lock */
	EXR_BUSY,		/* another writer held the database past
				   the wait (exit status 4) */
	EXR_EOF,		/* clean end of input (not an error) */
	EXR_CENTRAL,		/* the central server could not be reached
				   or refused the push (exit status 5) */
	EXR_NOPG		/* built without PostgreSQL (exit status 6) */
};

struct ex_err {
	const char	*path;		/* input file, not owned; may be NULL */
	uint64_t	 off;		/* byte offset of the bad object */
	int		 code;		/* EXR_* */
	int		 sys_errno;	/* errno for EXR_IO, else 0 */
	int		 src_line;	/* __LINE__ that detected it */
	char		 reason[192];	/* "group size 40 past end of file" */
};

/*
 * Record an error and return its code, so call sites read
 * "return ex_fail(err, EXR_DAMAGED, off, "...", ...)".  err may be NULL.
 */
#define ex_fail(err, code, off, ...) \
	ex_fail_at((err), (code), (off), __LINE__, __VA_ARGS__)

int	ex_fail_at(struct ex_err *, int code, uint64_t off, int line,
	    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* One-line meaning of a code, for messages. */
const char *ex_strcode(int code);

/*
 * Exit status for a code: 0 ok, 1 damaged, 2 usage, 3 runtime, 4 the
 * database stayed busy (try again later: nothing is wrong with it).
 */
int	ex_exit_status(int code);

#endif
