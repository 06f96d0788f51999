/*
 * Input format detection (see sniff.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "bytes.h"
#include "exacct.h"
#include "pacct.h"
#include "sniff.h"
#include "stream.h"

_Static_assert(SNIFF_HEAD == 4 * PACCT_RECORD_SIZE, "pacct_sniff checks 4");

int
sniff_file(const char *path, enum input_kind *kind, struct ex_err *err)
{
	uint8_t buf[SNIFF_HEAD];
	ssize_t n;
	int fd, rc;

	*kind = INPUT_EXACCT;
	if (strcmp(path, "-") == 0)
		return EXR_OK;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		goto fail;
	do
		n = pread(fd, buf, sizeof(buf), 0);
	while (n == -1 && errno == EINTR);
	if (n == -1) {
		int e = errno;

		close(fd);
		errno = e;
		goto fail;
	}
	close(fd);
	*kind = sniff_mem(buf, (size_t)n);
	return EXR_OK;
fail:
	rc = ex_fail(err, EXR_IO, 0, "%s", strerror(errno));
	if (err != NULL)
		err->sys_errno = errno;
	return rc;
}

enum input_kind
sniff_mem(const uint8_t *buf, size_t n)
{
	/* An exacct file (tag type 0xF, 1..8) never starts with a byte
	 * whose high nibble is 0; pacct records start with ac_flag < 0x20. */
	if (n >= 4 && be32(buf) == EXACCT_HEADER_TAG)
		return INPUT_EXACCT;
	if (pacct_sniff(buf, n))
		return INPUT_PACCT;
	if (n > 0 && stream_sniff(buf, n))
		return INPUT_STREAM;
	return INPUT_EXACCT;
}
