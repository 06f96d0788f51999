/*
 * A forward-only window over an input: a file read with large read(2)
 * calls into one reused buffer, or bytes already in memory.
 *
 * Why not mmap: on this class of machine the first touch of each mapped
 * page costs more than copying it (measured on a 108 MB log: 40 ms to
 * touch every page of the mapping, 16 ms to read(2) and scan it through a
 * 256 KiB buffer), and the buffer stays in the CPU cache.  Decoders still
 * work zero-copy on the window: what they hand out points into it and is
 * valid until the window moves.
 */
#ifndef SOURCE_H
#define SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "exerr.h"

struct source {
	const char	*path;		/* not owned */
	int		 fd;		/* -1 for a memory source */
	int		 eof;		/* nothing more to read */
	uint8_t		*buf;		/* window; owned unless fd == -1 */
	size_t		 cap;		/* bytes allocated */
	size_t		 len;		/* bytes valid in buf */
	uint64_t	 off;		/* input offset of buf[0] */
	uint64_t	 size;		/* input size (nothing past it is read);
					   UINT64_MAX: a stream */
	int		 sys_errno;	/* first read error, 0 if none */
};

/*
 * Test hook (fault injection, the sqlite3FaultSim habit): when not 0,
 * every read(2) asks for at most this many bytes and the window starts
 * this small, so tests and the fuzzer drive the refill and short-read
 * paths with small inputs.  Never set outside tests.
 */
extern size_t source_test_max_read;

/* Bytes the caller owns (tests, fuzzing); must outlive the source. */
void	source_init_mem(struct source *s, const char *path, const uint8_t *p,
	    size_t n);

/*
 * Open path ("-": standard input) for reading.  Returns EXR_OK, or
 * EXR_IO with err filled (then s needs no release).
 */
int	source_open(struct source *s, const char *path, struct ex_err *err);

void	source_release(struct source *s);

/*
 * Make the n bytes at input offset `at` (>= the window start) available,
 * or as many as the input has.  *p points at offset `at`.  Returns the
 * count available (< n only at end of input or on a read error, which
 * s->sys_errno records), or (size_t)-1 if memory ran out.  Moving the
 * window invalidates every pointer into it.
 */
size_t	source_get(struct source *s, uint64_t at, size_t n, const uint8_t **p);

#endif
