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
 * Open path ("-": standard input) for reading.  Only a regular file is
 * read (standard input may also be a pipe): a FIFO, a device or a socket
 * could block for ever or never end (/dev/zero), so it is refused before
 * anything is read.  The open itself is non-blocking, since opening a
 * FIFO waits for a writer.  Returns EXR_OK, or EXR_IO with err filled
 * (then s needs no release).
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

/*
 * What the window already holds at offset `at` (as source_get would
 * give, up to the input's size), without reading: the count, 0 if none,
 * and *p.  The readers' per-record fast path; source_get does the rest.
 */
static inline size_t
source_have(const struct source *s, uint64_t at, const uint8_t **p)
{
	uint64_t end = s->off + s->len;

	if (end > s->size)
		end = s->size;
	if (at < s->off || at >= end)
		return 0;
	*p = s->buf + (at - s->off);
	return (size_t)(end - at);
}

/*
 * The run of zero bytes at offset `at`, in whole grains of `grain` bytes
 * (1, or a record size): *end is the offset after its last all-zero
 * grain (`at` if the first grain is not all zero).  The window then
 * holds *end.  A hole in a sparse file is skipped without reading it.
 * Returns EXR_OK, EXR_NOMEM, or EXR_IO (s->sys_errno says why).
 */
int	source_zero_run(struct source *s, uint64_t at, size_t grain,
	    uint64_t *end);

/*
 * Why a run of zero bytes is damage, in every reader's message (after the
 * count): no record of any format is all zeros, and a crash can leave
 * zeros where a log's last data was never written.
 */
#define SOURCE_ZEROS_WHY "zero bytes: not records (a crash can leave zeros " \
	"where data was never written)"

/* How many of p[0..n) are zero bytes before the first that is not. */
size_t	zero_span(const uint8_t *p, size_t n);

#endif
