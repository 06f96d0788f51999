/*
 * The input window (see source.h).
 */
#include <sys/stat.h>

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "source.h"

#define SOURCE_CHUNK	(256 * 1024)	/* read size; fits in L2 */

size_t source_test_max_read;

void
source_init_mem(struct source *s, const char *path, const uint8_t *p,
    size_t n)
{
	memset(s, 0, sizeof(*s));
	s->path = path;
	s->fd = -1;
	s->eof = 1;
	s->buf = (uint8_t *)p;
	s->len = s->cap = n;
	s->size = n;
}

/* What a file that is not a regular one is, for messages. */
static const char *
file_kind(mode_t m)
{
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "a special file";
}

static int
open_failed(struct ex_err *err, int fd, int e)
{
	if (fd != -1)
		close(fd);
	(void)ex_fail(err, EXR_IO, 0, "%s", strerror(e));
	if (err != NULL)
		err->sys_errno = e;
	return EXR_IO;
}

int
source_open(struct source *s, const char *path, struct ex_err *err)
{
	struct stat st;
	int fd, fl, is_stdin = strcmp(path, "-") == 0;

	memset(s, 0, sizeof(*s));
	s->path = path;
	s->fd = -1;
	if (is_stdin)
		fd = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0);
	else
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd == -1)
		return open_failed(err, -1, errno);
	if (fstat(fd, &st) == -1)
		return open_failed(err, fd, errno);
	if (S_ISDIR(st.st_mode))
		return open_failed(err, fd, EISDIR);
	/* Standard input may be a pipe: the caller chose to feed it. */
	if (!S_ISREG(st.st_mode) && !(is_stdin && S_ISFIFO(st.st_mode))) {
		close(fd);
		return ex_fail(err, EXR_IO, 0, "%s, not a regular file: not "
		    "read (it could block, or never end)",
		    file_kind(st.st_mode));
	}
	/* A regular file: reads may block again (they never wait). */
	if (!is_stdin && ((fl = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == -1))
		return open_failed(err, fd, errno);
	s->fd = fd;
	/* A regular file's size bounds what one object can claim. */
	s->size = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : UINT64_MAX;
	return EXR_OK;
}

void
source_release(struct source *s)
{
	if (s->fd != -1) {
		close(s->fd);
		free(s->buf);
	}
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

size_t
source_get(struct source *s, uint64_t at, size_t n, const uint8_t **p)
{
	size_t skip, want;
	ssize_t got;

	if (at < s->off)		/* forward only: a caller bug */
		return 0;
	if (at - s->off <= s->len && s->len - (at - s->off) >= n)
		goto done;
	if (s->fd == -1 || s->eof)
		goto done;

	/* Slide the window to start at `at`, keeping what is still due. */
	skip = at - s->off <= s->len ? (size_t)(at - s->off) : s->len;
	if (s->len > skip)
		memmove(s->buf, s->buf + skip, s->len - skip);
	s->len -= skip;
	s->off += skip;
	if (s->off < at) {
		/* The caller skipped past the window: read and drop. */
		uint64_t gap = at - s->off;

		while (gap > 0 && !s->eof) {
			uint8_t sink[4096];
			size_t chunk = gap < sizeof(sink) ? (size_t)gap :
			    sizeof(sink);

			got = read(s->fd, sink, chunk);
			if (got == -1 && errno == EINTR)
				continue;
			if (got <= 0) {
				if (got == -1)
					s->sys_errno = errno;
				s->eof = 1;
				break;
			}
			gap -= (uint64_t)got;
			s->off += (uint64_t)got;
		}
		if (s->off < at)
			goto done;
	}
	want = source_test_max_read != 0 ? source_test_max_read : SOURCE_CHUNK;
	if (want < n)
		want = n;
	if (s->cap < want) {
		uint8_t *nbuf = realloc(s->buf, want);

		if (nbuf == NULL)
			return (size_t)-1;
		s->buf = nbuf;
		s->cap = want;
	}
	/*
	 * Read until the n bytes are here and the buffer is at least half
	 * full (fewer, larger reads); a short read is not the end.
	 */
	while (s->len < s->cap) {
		size_t ask = s->cap - s->len;

		if (source_test_max_read != 0 && ask > source_test_max_read)
			ask = source_test_max_read;
		got = read(s->fd, s->buf + s->len, ask);
		if (got == -1 && errno == EINTR)
			continue;
		if (got <= 0) {
			if (got == -1)
				s->sys_errno = errno;
			s->eof = 1;
			break;
		}
		s->len += (size_t)got;
		if (s->len >= n && s->len >= s->cap / 2)
			break;
	}
done:
	/* A file is read to the size it had: what grows after belongs to
	 * the next reading (the ledger recorded that size). */
	if (at < s->off || at - s->off >= s->len || at >= s->size) {
		*p = s->buf;
		return 0;
	}
	*p = s->buf + (at - s->off);
	skip = s->len - (size_t)(at - s->off);
	if (skip > s->size - at)
		skip = (size_t)(s->size - at);
	return skip < n ? skip : n;
}

size_t
zero_span(const uint8_t *p, size_t n)
{
	static const uint8_t zeros[256];
	size_t i = 0;

	while (n - i >= sizeof(zeros) && memcmp(p + i, zeros,
	    sizeof(zeros)) == 0)
		i += sizeof(zeros);
	while (i < n && p[i] == 0)
		i++;
	return i;
}

/*
 * The window is used up at *pos, in a regular file: if a hole starts
 * there, go on at the next data (down to the grain), or at the end,
 * without reading the zeros.  A 4 GB sparse file is then one lseek.
 */
static void
skip_hole(struct source *s, uint64_t at, size_t grain, uint64_t *pos)
{
#ifdef SEEK_DATA
	off_t d;
	uint64_t to;

	if (s->fd == -1 || s->eof || s->size == UINT64_MAX ||
	    *pos != s->off + s->len || *pos >= s->size)
		return;
	d = lseek(s->fd, (off_t)*pos, SEEK_DATA);
	if (d == -1 && errno != ENXIO)
		return;		/* not known here: read the zeros */
	/* ENXIO: no data after *pos, the rest is a hole. */
	to = d == -1 || (uint64_t)d > s->size ? s->size : (uint64_t)d;
	to = at + (to - at) / grain * grain;
	/* Where the next read starts: the data, or back where it was. */
	if (to <= *pos)
		to = *pos;
	if (lseek(s->fd, (off_t)to, SEEK_SET) == -1) {
		s->sys_errno = errno;
		s->eof = 1;
		return;
	}
	s->off = to;
	s->len = 0;
	*pos = to;
#else
	(void)s;
	(void)at;
	(void)grain;
	(void)pos;
#endif
}

int
source_zero_run(struct source *s, uint64_t at, size_t grain, uint64_t *end)
{
	const uint8_t *p;
	uint64_t pos = at;
	size_t n, have, z;

	assert(grain > 0);
	for (;;) {
		n = source_get(s, pos, grain, &p);
		if (n == (size_t)-1)
			return EXR_NOMEM;
		if (n == 0 && s->sys_errno != 0)
			return EXR_IO;
		if (n < grain)		/* the end, or a part of a grain */
			break;
		/* All the window holds from pos, in whole grains. */
		have = s->len - (size_t)(pos - s->off);
		if (have > s->size - pos)
			have = (size_t)(s->size - pos);
		have -= have % grain;
		z = zero_span(p, have);
		pos += z - z % grain;
		if (z < have)
			break;
		skip_hole(s, at, grain, &pos);
	}
	*end = pos;
	return EXR_OK;
}
