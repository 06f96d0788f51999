/*
 * Finding the cgroup mounts (see cgmount.h).  A mountinfo line:
 *
 *   36 35 98:0 /root /mnt1 rw,noatime master:1 - ext3 /dev/root rw,errors=continue
 *   (1)(2)(3)   (4)   (5)      (6)      (7)   (8) (9)    (10)         (11)
 *
 * with any number of optional fields (7) before the "-".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgmount.h"

/* The v1 controller each kind is, as the super options name it. */
static const char *const controller[CGM_N] = {
	[CGM_CPUACCT] = "cpuacct", [CGM_MEMORY] = "memory",
	[CGM_BLKIO] = "blkio",
};

/*
 * A field as the kernel escapes it (show_path's " \t\n\\" as octal) into
 * dst[n]; -1 if it does not fit.
 */
static int
unescape(const char *s, size_t len, char *dst, size_t n)
{
	size_t i, o = 0;

	for (i = 0; i < len; i++) {
		char c = s[i];

		if (c == '\\' && i + 3 < len &&
		    s[i + 1] >= '0' && s[i + 1] <= '3' &&
		    s[i + 2] >= '0' && s[i + 2] <= '7' &&
		    s[i + 3] >= '0' && s[i + 3] <= '7') {
			c = (char)((s[i + 1] - '0') << 6 |
			    (s[i + 2] - '0') << 3 | (s[i + 3] - '0'));
			i += 3;
		}
		if (o + 1 >= n)
			return -1;
		dst[o++] = c;
	}
	dst[o] = '\0';
	return 0;
}

/* Whether the comma-separated list opts[len] has the word w. */
static int
has_option(const char *opts, size_t len, const char *w)
{
	size_t wl = strlen(w), i = 0, e;

	while (i < len) {
		for (e = i; e < len && opts[e] != ','; e++)
			;
		if (e - i == wl && memcmp(opts + i, w, wl) == 0)
			return 1;
		i = e + 1;
	}
	return 0;
}

/* One line's mount into cm, if it is one that was looked for. */
static void
take_line(const char *s, size_t len, struct cgmounts *cm)
{
	const char *f[16];
	size_t fl[16], i = 0, nf = 0, dash = 0;
	int k;

	/* Fields are separated by one space; none holds one unescaped. */
	while (i < len && nf < 16) {
		size_t e;

		for (e = i; e < len && s[e] != ' '; e++)
			;
		f[nf] = s + i;
		fl[nf] = e - i;
		if (dash == 0 && nf >= 6 && fl[nf] == 1 && s[i] == '-')
			dash = nf;
		nf++;
		i = e + 1;
	}
	/* The fields after "-": type, source, super options. */
	if (dash == 0 || nf < dash + 4)
		return;
	for (k = 0; k < CGM_N; k++) {
		const char *type = f[dash + 1], *sopts = f[dash + 3];
		size_t tl = fl[dash + 1], sl = fl[dash + 3];
		struct cgm *m = &cm->m[k];

		if (m->found)
			continue;
		if (k == CGM_V2 ? !(tl == 7 && memcmp(type, "cgroup2", 7) == 0) :
		    !(tl == 6 && memcmp(type, "cgroup", 6) == 0 &&
		    has_option(sopts, sl, controller[k])))
			continue;
		if (unescape(f[3], fl[3], m->root, sizeof(m->root)) != 0 ||
		    unescape(f[4], fl[4], m->dir, sizeof(m->dir)) != 0)
			continue;
		m->found = 1;
	}
}

int
cgmount_parse(const char *text, size_t len, struct cgmounts *cm)
{
	size_t i = 0, e;
	int k, n = 0;

	for (k = 0; k < CGM_N; k++)
		cm->m[k].found = 0;
	while (i < len) {
		for (e = i; e < len && text[e] != '\n'; e++)
			;
		take_line(text + i, e - i, cm);
		i = e + 1;
	}
	for (k = 0; k < CGM_N; k++)
		n += cm->m[k].found;
	return n;
}

int
cgmount_read(const char *path, struct cgmounts *cm, struct ex_err *err)
{
	char *buf = NULL, *nb;
	size_t len = 0, cap = 0;
	ssize_t got;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return ex_fail(err, EXR_IO, 0, "%s: %s", path,
		    strerror(errno));
	for (;;) {
		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 16384;
			if ((nb = realloc(buf, cap)) == NULL) {
				free(buf);
				close(fd);
				return ex_fail(err, EXR_NOMEM, 0, "no memory");
			}
			buf = nb;
		}
		got = read(fd, buf + len, cap - len);
		if (got == -1 && errno == EINTR)
			continue;
		if (got == -1) {
			int e = errno;

			free(buf);
			close(fd);
			return ex_fail(err, EXR_IO, 0, "%s: %s", path,
			    strerror(e));
		}
		if (got == 0)
			break;
		len += (size_t)got;
	}
	close(fd);
	cgmount_parse(buf, len, cm);
	free(buf);
	return EXR_OK;
}
