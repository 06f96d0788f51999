/*
 * Host identity (see hostid.h): this machine's, from the configuration
 * or /etc/machine-id and the name, and that of a host known by name only.
 * Reads one small file; no SQL.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "hostid.h"

int
hostid_check(const char *s, char *why, size_t n)
{
	size_t i, len = strlen(s);

	if (len == 0 || len > HOSTID_CONFIG_MAX) {
		snprintf(why, n, "must be 1 to %d bytes", HOSTID_CONFIG_MAX);
		return -1;
	}
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c <= ' ' || c >= 0x7f || c == ':') {
			snprintf(why, n, "only printable ASCII, no blank and "
			    "no ':'");
			return -1;
		}
	}
	return 0;
}

/*
 * The machine id from path into id[33]: its first line, which must be
 * 32 hex digits (machine-id(5)); anything else counts as no id.  0 or -1.
 */
static int
machine_id(const char *path, char id[33])
{
	char buf[64];
	ssize_t got;
	int fd, i;

	/* Non-blocking: a FIFO in its place must not hang an ingest. */
	if (path == NULL ||
	    (fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1)
		return -1;
	do
		got = read(fd, buf, sizeof(buf) - 1);
	while (got == -1 && errno == EINTR);
	close(fd);
	if (got < 32)
		return -1;
	for (i = 0; i < 32; i++)
		if (strchr("0123456789abcdefABCDEF", buf[i]) == NULL ||
		    buf[i] == '\0')
			return -1;
	if (got > 32 && buf[32] != '\n')
		return -1;
	for (i = 0; i < 32; i++)
		id[i] = (char)(buf[i] >= 'A' && buf[i] <= 'F' ?
		    buf[i] - 'A' + 'a' : buf[i]);
	id[32] = '\0';
	return 0;
}

char *
hostid_self(const char *configured, const char *machine_id_path,
    const char *name, char *buf, size_t n)
{
	char id[33];

	if (configured != NULL && configured[0] != '\0')
		snprintf(buf, n, "%s", configured);
	else if (machine_id(machine_id_path, id) == 0)
		snprintf(buf, n, "%s:%s", id, name);
	else
		hostid_name(name, buf, n);
	return buf;
}

char *
hostid_name(const char *name, char *buf, size_t n)
{
	snprintf(buf, n, "name:%s", name);
	return buf;
}
