/*
 * A process's cgroup (cgroup.h), from /proc/PID/cgroup: lines of
 * "hierarchy-id:controllers:path", the unified hierarchy's "0::path".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgmount.h"
#include "cgroup.h"

/*
 * Whether the comma-separated list s[0..n) has word w.  The v1 line's
 * controllers, and a mount's super options, are such lists.
 */
static int
has_word(const char *s, size_t n, const char *w)
{
	size_t wl = strlen(w);
	const char *e = s + n, *c;

	while (s < e) {
		if ((c = memchr(s, ',', (size_t)(e - s))) == NULL)
			c = e;
		if ((size_t)(c - s) == wl && memcmp(s, w, wl) == 0)
			return 1;
		s = c + 1;
	}
	return 0;
}

int
cgroup_hier_of(const char *mountinfo)
{
	struct cgmounts cm;
	struct ex_err err = { 0 };

	if (cgmount_read(mountinfo, &cm, &err) != EXR_OK)
		return 0;
	if (cm.m[CGM_V2].found)
		return CGROUP_UNIFIED;
	return cm.m[CGM_CPUACCT].found ? CGROUP_V1_CPUACCT : 0;
}

int
cgroup_parse(const char *text, int hier, char *out, size_t n)
{
	static const char deleted[] = " (deleted)";
	const char *l, *c1, *c2, *end;
	size_t len;

	for (l = text; *l != '\0'; l = *end == '\0' ? end : end + 1) {
		if ((end = strchr(l, '\n')) == NULL)
			end = l + strlen(l);
		if ((c1 = memchr(l, ':', (size_t)(end - l))) == NULL ||
		    (c2 = memchr(c1 + 1, ':', (size_t)(end - c1 - 1))) ==
		    NULL)
			continue;
		if (hier == CGROUP_UNIFIED ? !(c1 - l == 1 && l[0] == '0' &&
		    c2 == c1 + 1) : !has_word(c1 + 1, (size_t)(c2 - c1 - 1),
		    "cpuacct"))
			continue;
		len = (size_t)(end - c2 - 1);
		if (len > sizeof(deleted) - 1 && memcmp(end -
		    (sizeof(deleted) - 1), deleted, sizeof(deleted) - 1) == 0)
			len -= sizeof(deleted) - 1;
		if (len == 0 || len >= n)
			return -1;
		memcpy(out, c2 + 1, len);
		out[len] = '\0';
		return 0;
	}
	return -1;
}

int
cgroup_read(const char *root, const char *pid, int hier, struct ex_proc *p)
{
	/* A line a hierarchy (a dozen on a v1 host), each to 4 KiB. */
	static char text[64 * 1024];
	char path[256];
	ssize_t got;
	size_t total = 0;
	int fd;

	if (hier == 0)
		return -1;
	snprintf(path, sizeof(path), "%s/%s/cgroup", root, pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	while (total < sizeof(text) - 1) {
		got = read(fd, text + total, sizeof(text) - 1 - total);
		if (got == -1 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		total += (size_t)got;
	}
	close(fd);
	text[total] = '\0';
	if (cgroup_parse(text, hier, p->cgroup, sizeof(p->cgroup)) != 0)
		return -1;
	/*
	 * v1 shows a task inside do_exit (PF_EXITING in its stat flags)
	 * as in the root: that is no cgroup it ran in.
	 */
	if (hier == CGROUP_V1_CPUACCT && strcmp(p->cgroup, "/") == 0) {
		char stat[1024], st;
		unsigned long flags;
		ssize_t sn;
		char *rp;

		snprintf(path, sizeof(path), "%s/%s/stat", root, pid);
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
			return -1;
		sn = read(fd, stat, sizeof(stat) - 1);
		close(fd);
		stat[sn > 0 ? sn : 0] = '\0';
		if ((rp = strrchr(stat, ')')) == NULL ||
		    sscanf(rp + 1, " %c %*d %*d %*d %*d %*d %lu", &st,
		    &flags) != 2 || (flags & 0x4) != 0)
			return -1;
	}
	p->present |= 1ULL << PROC_CGROUP | 1ULL << PROC_CGROUP_HIER;
	p->v[PROC_CGROUP] = 0;
	p->v[PROC_CGROUP_HIER] = (uint64_t)hier;
	return 0;
}
