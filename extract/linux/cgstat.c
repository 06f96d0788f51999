/*
 * Reading the cgroup totals (see cgstat.h).
 *
 * Which cgroups: the tree under each mount is walked, and a cgroup is
 * taken when its cgroup.procs is not empty or a cgroup under it is
 * taken.  That costs a read per cgroup, not per process: snap's walk of
 * the processes stays as it was.  The figures of a cgroup are read
 * after the walk; one removed meanwhile reads ENOENT or ENODEV, and is
 * skipped (its processes are gone with it).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgstat.h"

/* A cgroup's path, relative to its mount: "" for the mount's root. */
struct paths {
	char		**p;
	size_t		 n, cap;
};

static int
paths_add(struct paths *ps, const char *rel)
{
	char **np;

	if (ps->n == ps->cap) {
		size_t cap = ps->cap ? ps->cap * 2 : 64;

		if ((np = realloc(ps->p, cap * sizeof(*np))) == NULL)
			return -1;
		ps->p = np;
		ps->cap = cap;
	}
	if ((ps->p[ps->n] = strdup(rel)) == NULL)
		return -1;
	ps->n++;
	return 0;
}

static void
paths_free(struct paths *ps)
{
	size_t i;

	for (i = 0; i < ps->n; i++)
		free(ps->p[i]);
	free(ps->p);
	ps->p = NULL;
	ps->n = ps->cap = 0;
}

static int
cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether the cgroup at dfd holds a process: one byte of cgroup.procs. */
static int
holds_procs(int dfd)
{
	char c;
	ssize_t got;
	int fd;

	if ((fd = openat(dfd, "cgroup.procs", O_RDONLY | O_CLOEXEC)) == -1)
		return 0;
	do
		got = read(fd, &c, 1);
	while (got == -1 && errno == EINTR);
	close(fd);
	return got == 1;
}

/*
 * Walk the cgroup at dfd (its path rel[rl]; rel has room for
 * CG_PATH_MAX), adding it to ps if it or one under it holds a process.
 * 1: taken; 0: not; -1: no memory.  dfd is closed.
 */
static int
walk(int dfd, char *rel, size_t rl, struct paths *ps)
{
	struct dirent *de;
	DIR *d;
	int taken = holds_procs(dfd), fd, r;
	size_t nl;

	if ((fd = dup(dfd)) == -1 || (d = fdopendir(fd)) == NULL) {
		if (fd != -1)
			close(fd);
		close(dfd);
		return taken && paths_add(ps, rel) == -1 ? -1 : taken;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_type != DT_DIR || strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		nl = strlen(de->d_name);
		if (rl + 1 + nl >= CG_PATH_MAX)
			continue;	/* longer than a path the kernel gives */
		/* Removed since the listing, or too deep for our fds. */
		if ((fd = openat(dfd, de->d_name, O_RDONLY | O_DIRECTORY |
		    O_CLOEXEC)) == -1)
			continue;
		rel[rl] = '/';
		memcpy(rel + rl + 1, de->d_name, nl + 1);
		r = walk(fd, rel, rl + 1 + nl, ps);
		rel[rl] = '\0';
		if (r == -1) {
			closedir(d);
			close(dfd);
			return -1;
		}
		taken |= r;
	}
	closedir(d);
	close(dfd);
	return taken && paths_add(ps, rel) == -1 ? -1 : taken;
}

/* The cgroups of the hierarchy at dir into ps; -1: no memory. */
static int
collect(const char *dir, struct paths *ps)
{
	char rel[CG_PATH_MAX];
	int fd;

	rel[0] = '\0';
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return 0;
	return walk(fd, rel, 0, ps) == -1 ? -1 : 0;
}

/*
 * dir, rel and file into buf[n] (NUL-terminated), what one read gave
 * (every file read here is made whole by one: seq_file), -1 if unread:
 * absent, or the cgroup removed (ENOENT, ENODEV).
 */
static int
read_cg(const char *dir, const char *rel, const char *file, char *buf,
    size_t n)
{
	char path[CG_PATH_MAX + 4096 + 64];
	size_t len = 0;
	ssize_t got;
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s%s/%s", dir, rel, file) >=
	    sizeof(path))
		return -1;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	for (;;) {
		got = read(fd, buf + len, n - 1 - len);
		if (got == -1 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		len += (size_t)got;
		if (len == n - 1)
			break;
	}
	close(fd);
	if (got == -1)
		return -1;
	buf[len] = '\0';
	return 0;
}

static void
set(struct ex_cgroup *g, int f, uint64_t v)
{
	g->v[f] = v;
	g->present |= 1ULL << f;
}

/* A decimal u64 at s, and nothing but a newline after; -1 if not. */
static int
parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno == 0 && (*end == '\0' || *end == '\n') ? 0 : -1;
}

/* "key value" lines: the value of key, -1 if none. */
static int
keyed(const char *text, const char *key, uint64_t *v)
{
	size_t kl = strlen(key);
	const char *s;

	for (s = text; s != NULL && *s != '\0'; s = strchr(s, '\n'),
	    s = s ? s + 1 : NULL)
		if (strncmp(s, key, kl) == 0 && s[kl] == ' ')
			return parse_u64(s + kl + 1, v);
	return -1;
}

int
cgstat_parse_cpu_stat(const char *text, struct ex_cgroup *g)
{
	static const struct { const char *key; int f; } k[] = {
		{ "usage_usec", CG_CPU_NS }, { "user_usec", CG_USER_NS },
		{ "system_usec", CG_SYSTEM_NS },
	};
	uint64_t v;
	size_t i;
	int any = 0;

	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		if (keyed(text, k[i].key, &v) == 0 && v <= REC_MAX_NS / 1000) {
			set(g, k[i].f, v * 1000);
			any = 1;
		}
	return any ? 0 : -1;
}

/*
 * io.stat: a line a device, "MAJ:MIN rbytes=N wbytes=N rios=N wios=N
 * dbytes=N dios=N"; summed.  A file with no line (no I/O yet) is zeros.
 */
int
cgstat_parse_io_stat(const char *text, struct ex_cgroup *g)
{
	static const struct { const char *key; int f; } k[] = {
		{ "rbytes=", CG_IO_RBYTES }, { "wbytes=", CG_IO_WBYTES },
		{ "rios=", CG_IO_RIOS }, { "wios=", CG_IO_WIOS },
	};
	const char *s = text, *e, *w;
	uint64_t v;
	size_t i;
	char *end;

	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		set(g, k[i].f, 0);
	while (*s != '\0') {
		e = s + strcspn(s, "\n");
		for (w = s; w < e; w += strcspn(w, " \n"), w += *w == ' ')
			for (i = 0; i < sizeof(k) / sizeof(k[0]); i++)
				if (strncmp(w, k[i].key, strlen(k[i].key))
				    == 0) {
					errno = 0;
					v = strtoull(w + strlen(k[i].key),
					    &end, 10);
					if (errno == 0)
						g->v[k[i].f] += v;
				}
		s = *e == '\n' ? e + 1 : e;
	}
	return 0;
}

/* cpuacct.stat: "user N" and "system N", in USER_HZ ticks. */
int
cgstat_parse_cpuacct_stat(const char *text, long clk_tck,
    struct ex_cgroup *g)
{
	uint64_t v;
	int any = 0;

	if (clk_tck <= 0)
		return -1;
	if (keyed(text, "user", &v) == 0 && v <= REC_MAX_NS / NS) {
		set(g, CG_USER_NS, v * NS / (uint64_t)clk_tck);
		any = 1;
	}
	if (keyed(text, "system", &v) == 0 && v <= REC_MAX_NS / NS) {
		set(g, CG_SYSTEM_NS, v * NS / (uint64_t)clk_tck);
		any = 1;
	}
	return any ? 0 : -1;
}

/*
 * blkio.throttle.io_service_bytes (or io_serviced): "MAJ:MIN Read N"
 * and "MAJ:MIN Write N" lines summed into f_read and f_write; the
 * "Total" line is not a device's.
 */
int
cgstat_parse_blkio(const char *text, int f_read, int f_write,
    struct ex_cgroup *g)
{
	const char *s = text, *sp;
	uint64_t v;

	set(g, f_read, 0);
	set(g, f_write, 0);
	while (*s != '\0') {
		if ((sp = strchr(s, ' ')) != NULL && sp < s + strcspn(s, "\n")) {
			sp++;
			if (strncmp(sp, "Read ", 5) == 0 &&
			    parse_u64(sp + 5, &v) == 0)
				g->v[f_read] += v;
			else if (strncmp(sp, "Write ", 6) == 0 &&
			    parse_u64(sp + 6, &v) == 0)
				g->v[f_write] += v;
		}
		s += strcspn(s, "\n");
		s += *s == '\n';
	}
	return 0;
}

/* io.stat can be a line for each of many devices. */
static char text[65536];

/* The unified hierarchy's figures of the cgroup at rel under m. */
static void
read_v2(const struct cgm *m, const char *rel, struct ex_cgroup *g)
{
	uint64_t v;

	if (read_cg(m->dir, rel, "cpu.stat", text, sizeof(text)) == 0)
		(void)cgstat_parse_cpu_stat(text, g);
	if (read_cg(m->dir, rel, "memory.current", text, sizeof(text)) == 0 &&
	    parse_u64(text, &v) == 0)
		set(g, CG_MEM_CURRENT, v);
	if (read_cg(m->dir, rel, "memory.peak", text, sizeof(text)) == 0 &&
	    parse_u64(text, &v) == 0)
		set(g, CG_MEM_PEAK, v);
	if (read_cg(m->dir, rel, "io.stat", text, sizeof(text)) == 0)
		(void)cgstat_parse_io_stat(text, g);
}

/*
 * The v1 controllers' figures of the cgroups at rel: cpuacct's usage is
 * in ns, its user and system split in USER_HZ ticks; memory's usage and
 * its high-water mark; blkio's throttle counts (which count every
 * request, whatever the I/O scheduler), the recursive ones where the
 * kernel has them, as v2's are.  Each is absent where its controller
 * is not mounted or has no cgroup of that path.
 */
static void
read_v1(const struct cgmounts *cm, const char *rel, long clk_tck,
    struct ex_cgroup *g)
{
	const struct cgm *m;
	uint64_t v;

	m = &cm->m[CGM_CPUACCT];
	if (m->found) {
		if (read_cg(m->dir, rel, "cpuacct.usage", text,
		    sizeof(text)) == 0 && parse_u64(text, &v) == 0 &&
		    v <= REC_MAX_NS)
			set(g, CG_CPU_NS, v);
		if (read_cg(m->dir, rel, "cpuacct.stat", text,
		    sizeof(text)) == 0)
			(void)cgstat_parse_cpuacct_stat(text, clk_tck, g);
	}
	m = &cm->m[CGM_MEMORY];
	if (m->found) {
		if (read_cg(m->dir, rel, "memory.usage_in_bytes", text,
		    sizeof(text)) == 0 && parse_u64(text, &v) == 0)
			set(g, CG_MEM_CURRENT, v);
		if (read_cg(m->dir, rel, "memory.max_usage_in_bytes", text,
		    sizeof(text)) == 0 && parse_u64(text, &v) == 0)
			set(g, CG_MEM_PEAK, v);
	}
	m = &cm->m[CGM_BLKIO];
	if (m->found) {
		if (read_cg(m->dir, rel,
		    "blkio.throttle.io_service_bytes_recursive", text,
		    sizeof(text)) == 0 || read_cg(m->dir, rel,
		    "blkio.throttle.io_service_bytes", text,
		    sizeof(text)) == 0)
			(void)cgstat_parse_blkio(text, CG_IO_RBYTES,
			    CG_IO_WBYTES, g);
		if (read_cg(m->dir, rel, "blkio.throttle.io_serviced_recursive",
		    text, sizeof(text)) == 0 || read_cg(m->dir, rel,
		    "blkio.throttle.io_serviced", text, sizeof(text)) == 0)
			(void)cgstat_parse_blkio(text, CG_IO_RIOS,
			    CG_IO_WIOS, g);
	}
}

/*
 * The record's path: the mount's root (a subtree mounted alone) and
 * rel, as /proc/PID/cgroup names the cgroup.  -1 if too long.
 */
static int
full_path(const char *root, const char *rel, char *dst)
{
	int n;

	if (strcmp(root, "/") == 0)
		root = "";
	n = snprintf(dst, CG_PATH_MAX, "%s%s", root, rel);
	if (n < 0 || n >= CG_PATH_MAX)
		return -1;
	if (n == 0)
		memcpy(dst, "/", 2);
	return 0;
}

/* Give the cgroups of ps, of hierarchy h, to emit. */
static int
emit_all(const struct cgmounts *cm, int h, const char *root,
    struct paths *ps, uint64_t now, long clk_tck,
    int (*emit)(void *, const struct ex_cgroup *), void *arg, uint64_t *ncg)
{
	static struct ex_cgroup g;
	size_t i;
	int rc;

	for (i = 0; i < ps->n; i++) {
		if (i > 0 && strcmp(ps->p[i], ps->p[i - 1]) == 0)
			continue;	/* in two v1 controllers */
		memset(&g, 0, sizeof(g));
		if (full_path(root, ps->p[i], g.path) != 0)
			continue;
		if (h == 2)
			read_v2(&cm->m[CGM_V2], ps->p[i], &g);
		else
			read_v1(cm, ps->p[i], clk_tck, &g);
		if (g.present == 0)
			continue;	/* removed since the walk */
		set(&g, CG_TIME_NS, now);
		set(&g, CG_HIERARCHY, (uint64_t)h);
		g.present |= 1ULL << CG_PATH;
		if ((rc = emit(arg, &g)) != EXR_OK)
			return rc;
		(*ncg)++;
	}
	return EXR_OK;
}

int
cgstat_collect(const struct cgmounts *cm, uint64_t now,
    int (*emit)(void *arg, const struct ex_cgroup *g), void *arg,
    uint64_t *ncg)
{
	struct paths ps = { 0 };
	const char *root = NULL;
	long clk_tck = sysconf(_SC_CLK_TCK);
	int k, j, dup, rc = EXR_OK;

	*ncg = 0;
	if (cm->m[CGM_V2].found) {
		if (collect(cm->m[CGM_V2].dir, &ps) == -1)
			goto nomem;
		qsort(ps.p, ps.n, sizeof(*ps.p), cmp_path);
		rc = emit_all(cm, 2, cm->m[CGM_V2].root, &ps, now, clk_tck,
		    emit, arg, ncg);
		paths_free(&ps);
		if (rc != EXR_OK)
			return rc;
	}
	/*
	 * The v1 controllers' trees, each walked once (co-mounted ones
	 * share a directory), their paths one list.  The root named is
	 * the first controller's: they are mounted whole, but for a
	 * container's.
	 */
	for (k = CGM_CPUACCT; k < CGM_N; k++) {
		if (!cm->m[k].found)
			continue;
		for (dup = 0, j = CGM_CPUACCT; j < k; j++)
			dup |= cm->m[j].found &&
			    strcmp(cm->m[j].dir, cm->m[k].dir) == 0;
		if (dup)
			continue;
		if (root == NULL)
			root = cm->m[k].root;
		if (collect(cm->m[k].dir, &ps) == -1)
			goto nomem;
	}
	if (root != NULL) {
		qsort(ps.p, ps.n, sizeof(*ps.p), cmp_path);
		rc = emit_all(cm, 1, root, &ps, now, clk_tck, emit, arg, ncg);
	}
	paths_free(&ps);
	return rc;
nomem:
	paths_free(&ps);
	return EXR_NOMEM;
}
