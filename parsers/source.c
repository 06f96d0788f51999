/*
 * The input window (see source.h).
 */
#include <sys/stat.h>

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

int
source_open(struct source *s, const char *path, struct ex_err *err)
{
	struct stat st;
	int fd;

	memset(s, 0, sizeof(*s));
	s->path = path;
	s->fd = -1;
	if (strcmp(path, "-") == 0)
		fd = dup(STDIN_FILENO);
	else
		fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd == -1) {
		int rc = ex_fail(err, EXR_IO, 0, "%s", strerror(errno));

		if (err != NULL)
			err->sys_errno = errno;
		return rc;
	}
	if (fstat(fd, &st) == -1 || S_ISDIR(st.st_mode)) {
		int e = S_ISDIR(st.st_mode) ? EISDIR : errno;

		close(fd);
		if (err != NULL)
			err->sys_errno = e;
		return ex_fail(err, EXR_IO, 0, "%s", strerror(e));
	}
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
