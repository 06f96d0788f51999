/*
 * Result codes and the error record shared by every layer.
 *
 * Library code (parsers/, store/, reports/) never prints and never exits:
 * it returns one of the EXR_* codes and, where the caller passed one, fills
 * a struct ex_err saying where (file, byte offset) and why.  Only
 * extract/main.c turns codes into exit statuses.
 */
#ifndef EXERR_H
#define EXERR_H

#include <stdint.h>

/*
 * The result codes, one row each: X(code, exit status, rank, meaning).
 * The exit status is what extracct exits with (docs/extracct.8, EXIT
 * STATUS, says the same); when a command meets several codes it keeps
 * the one of highest rank (ex_worst): a local runtime failure outranks
 * a usage error, which outranks a build without PostgreSQL, a central
 * server that failed, a database busy with another writer, and damaged
 * input, in that order.
 */
#define EX_RESULTS(X) \
	X(EXR_OK,	0, 0, "ok") \
	X(EXR_DAMAGED,	1, 1, "damaged input") \
	X(EXR_USAGE,	2, 5, "usage error") \
	X(EXR_IO,	3, 6, "i/o error") \
	X(EXR_DB,	3, 6, "database error") \
	X(EXR_NOMEM,	3, 6, "out of memory") \
	X(EXR_LOCKED,	3, 6, "locked by another run") \
	X(EXR_BUSY,	4, 2, "database busy with another writer") \
	X(EXR_EOF,	0, 0, "end of input") \
	X(EXR_CENTRAL,	5, 3, "the central server failed") \
	X(EXR_NOPG,	6, 4, "built without PostgreSQL support")

#define EX_RESULT_ENUM(code, status, rank, meaning)	code,
enum { EX_RESULTS(EX_RESULT_ENUM) EXR_NCODES };
#undef EX_RESULT_ENUM

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

/* The exit status of a code (EX_RESULTS). */
int	ex_exit_status(int code);

/* Of two codes, the one to report (the higher rank; a tie: a, if set). */
int	ex_worst(int a, int b);

#endif
