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

int
sniff_file(const char *path, enum input_kind *kind, struct ex_err *err)
{
	uint8_t buf[4 * PACCT_RECORD_SIZE];
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
	/* An exacct file (tag type 0xF, 1..8) never starts with a byte
	 * whose high nibble is 0; pacct records start with ac_flag < 0x20. */
	if (n >= 4 && be32(buf) == EXACCT_HEADER_TAG)
		return EXR_OK;
	if (pacct_sniff(buf, (size_t)n))
		*kind = INPUT_PACCT;
	else if (n > 0 && stream_sniff(buf, (size_t)n))
		*kind = INPUT_STREAM;
	return EXR_OK;
fail:
	rc = ex_fail(err, EXR_IO, 0, "%s", strerror(errno));
	if (err != NULL)
		err->sys_errno = errno;
	return rc;
}
