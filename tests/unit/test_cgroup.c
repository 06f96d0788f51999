/*
 * The cgroup readers: the mounts found in mountinfo text (unified only,
 * v1 only, hybrid, none, escaped mount points), the parsers of the
 * counter files, and a walk of a made-up tree: which cgroups are taken
 * (those holding processes and their ancestors), one removed before it
 * is read skipped, a path with a newline kept as it is.
 */
#include <sys/stat.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../extract/linux/cgmount.h"
#include "../../extract/linux/cgstat.h"
#include "check.h"

static const char v2_only[] =
    "22 1 0:21 / /proc rw,nosuid - proc proc rw\n"
    "25 22 0:22 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 "
    "- cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n";

static const char v1_only[] =
    "30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
    "31 30 0:28 / /sys/fs/cgroup/cpu,cpuacct rw,relatime shared:9 - cgroup "
    "cgroup rw,cpu,cpuacct\n"
    "34 30 0:31 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup "
    "rw,memory\n"
    "37 30 0:34 / /sys/fs/cgroup/blkio rw,relatime - cgroup cgroup rw,blkio\n"
    "39 30 0:36 / /sys/fs/cgroup/systemd rw - cgroup cgroup "
    "rw,xattr,name=systemd\n";

static const char hybrid[] =
    "31 30 0:28 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
    "32 30 0:29 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup "
    "rw,cpuacct\n"
    "40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";

static const char none[] =
    "22 1 0:21 / /proc rw,nosuid - proc proc rw\n"
    "23 1 0:5 / /dev rw - devtmpfs udev rw,size=1k\n"
    "bad line\n";

/* A mount point with a space and a tab, and a subtree as root. */
static const char escaped[] =
    "50 22 0:40 /a\\040b /mnt/cg\\040two\\011x rw master:1 shared:2 - "
    "cgroup2 none rw\n";

static void
test_mounts(void)
{
	static struct cgmounts cm;

	CHECK("v2 only: one kind", cgmount_parse(v2_only, strlen(v2_only),
	    &cm) == 1 && cm.m[CGM_V2].found &&
	    strcmp(cm.m[CGM_V2].dir, "/sys/fs/cgroup") == 0 &&
	    strcmp(cm.m[CGM_V2].root, "/") == 0 && !cm.m[CGM_CPUACCT].found);
	CHECK("v1 only: cpuacct co-mounted with cpu, memory, blkio",
	    cgmount_parse(v1_only, strlen(v1_only), &cm) == 3 &&
	    !cm.m[CGM_V2].found &&
	    strcmp(cm.m[CGM_CPUACCT].dir, "/sys/fs/cgroup/cpu,cpuacct") == 0 &&
	    strcmp(cm.m[CGM_MEMORY].dir, "/sys/fs/cgroup/memory") == 0 &&
	    strcmp(cm.m[CGM_BLKIO].dir, "/sys/fs/cgroup/blkio") == 0);
	CHECK("hybrid: the unified one and cpuacct, not cpu",
	    cgmount_parse(hybrid, strlen(hybrid), &cm) == 2 &&
	    strcmp(cm.m[CGM_V2].dir, "/sys/fs/cgroup/unified") == 0 &&
	    strcmp(cm.m[CGM_CPUACCT].dir, "/sys/fs/cgroup/cpuacct") == 0);
	CHECK("none", cgmount_parse(none, strlen(none), &cm) == 0);
	CHECK("escaped: \\040 and \\011 unescaped, optional fields skipped",
	    cgmount_parse(escaped, strlen(escaped), &cm) == 1 &&
	    strcmp(cm.m[CGM_V2].dir, "/mnt/cg two\tx") == 0 &&
	    strcmp(cm.m[CGM_V2].root, "/a b") == 0);
	CHECK("the text's end need not be a newline's",
	    cgmount_parse(v2_only, strlen(v2_only) - 1, &cm) == 1);
}

static void
test_parsers(void)
{
	struct ex_cgroup g;

	memset(&g, 0, sizeof(g));
	CHECK("cpu.stat: usec to ns", cgstat_parse_cpu_stat("usage_usec 1500\n"
	    "user_usec 1000\nsystem_usec 500\nnr_periods 0\n", &g) == 0 &&
	    g.v[CG_CPU_NS] == 1500000 && g.v[CG_USER_NS] == 1000000 &&
	    g.v[CG_SYSTEM_NS] == 500000 && REC_HAS(&g, CG_SYSTEM_NS));
	memset(&g, 0, sizeof(g));
	CHECK("cpu.stat: nothing of ours", cgstat_parse_cpu_stat("x 1\n", &g)
	    == -1 && g.present == 0);
	memset(&g, 0, sizeof(g));
	CHECK("io.stat: summed over devices", cgstat_parse_io_stat("8:0 "
	    "rbytes=10 wbytes=20 rios=1 wios=2 dbytes=0 dios=0\n"
	    "259:0 rbytes=5 wbytes=7 rios=3 wios=4 dbytes=9 dios=9\n", &g) == 0
	    && g.v[CG_IO_RBYTES] == 15 && g.v[CG_IO_WBYTES] == 27 &&
	    g.v[CG_IO_RIOS] == 4 && g.v[CG_IO_WIOS] == 6);
	memset(&g, 0, sizeof(g));
	CHECK("io.stat: empty is zeros, present", cgstat_parse_io_stat("", &g)
	    == 0 && REC_HAS(&g, CG_IO_RBYTES) && g.v[CG_IO_RBYTES] == 0);
	memset(&g, 0, sizeof(g));
	CHECK("cpuacct.stat: USER_HZ ticks to ns", cgstat_parse_cpuacct_stat(
	    "user 250\nsystem 3\n", 100, &g) == 0 &&
	    g.v[CG_USER_NS] == 2500000000ull && g.v[CG_SYSTEM_NS] == 30000000);
	memset(&g, 0, sizeof(g));
	CHECK("blkio: Read and Write summed, Total not a device",
	    cgstat_parse_blkio("8:0 Read 100\n8:0 Write 5\n8:0 Sync 105\n"
	    "8:16 Read 1\n8:16 Write 2\nTotal 108\n", CG_IO_RBYTES,
	    CG_IO_WBYTES, &g) == 0 && g.v[CG_IO_RBYTES] == 101 &&
	    g.v[CG_IO_WBYTES] == 7);
}

static void
put(const char *dir, const char *rel, const char *text)
{
	char path[1024];
	FILE *fp;

	snprintf(path, sizeof(path), "%s%s", dir, rel);
	if ((fp = fopen(path, "w")) != NULL) {
		fputs(text, fp);
		fclose(fp);
	}
}

static void
mk(const char *dir, const char *rel)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s%s", dir, rel);
	mkdir(path, 0700);
}

struct got {
	int		 n;
	char		 path[8][64];
	uint64_t	 cpu[8];
	int		 h[8];
};

static int
take(void *arg, const struct ex_cgroup *g)
{
	struct got *got = arg;

	if (got->n < 8) {
		size_t l = strlen(g->path);

		if (l >= sizeof(got->path[0]))
			l = sizeof(got->path[0]) - 1;
		memcpy(got->path[got->n], g->path, l);
		got->path[got->n][l] = '\0';
		got->cpu[got->n] = g->v[CG_CPU_NS];
		got->h[got->n] = (int)g->v[CG_HIERARCHY];
	}
	got->n++;
	return EXR_OK;
}

static void
test_walk(void)
{
	char dir[] = "/tmp/extracct-unit-cg.XXXXXX", cmd[64];
	static struct cgmounts cm;
	struct got got = { 0 };
	uint64_t n;

	if (mkdtemp(dir) == NULL) {
		CHECK("mkdtemp", 0);
		return;
	}
	/* / holds a process; /a does not, /a/b does; /c is empty; /a/gone
	 * holds one but has no counters (removed after the walk); a path
	 * with a newline holds one. */
	put(dir, "/cgroup.procs", "1\n");
	put(dir, "/cpu.stat", "usage_usec 9\n");
	mk(dir, "/a");
	put(dir, "/a/cgroup.procs", "");
	put(dir, "/a/cpu.stat", "usage_usec 7\n");
	mk(dir, "/a/b");
	put(dir, "/a/b/cgroup.procs", "42\n");
	put(dir, "/a/b/cpu.stat", "usage_usec 5\n");
	mk(dir, "/a/gone");
	put(dir, "/a/gone/cgroup.procs", "43\n");
	mk(dir, "/c");
	put(dir, "/c/cgroup.procs", "");
	put(dir, "/c/cpu.stat", "usage_usec 1\n");
	mk(dir, "/n\nl");
	put(dir, "/n\nl/cgroup.procs", "44\n");
	put(dir, "/n\nl/cpu.stat", "usage_usec 3\n");
	memset(&cm, 0, sizeof(cm));
	cm.m[CGM_V2].found = 1;
	snprintf(cm.m[CGM_V2].dir, sizeof(cm.m[CGM_V2].dir), "%s", dir);
	snprintf(cm.m[CGM_V2].root, sizeof(cm.m[CGM_V2].root), "/");
	CHECK("walk", cgstat_collect(&cm, 1, take, &got, &n) == EXR_OK);
	CHECK("four cgroups: /, /a, /a/b, the newline's", n == 4 &&
	    got.n == 4);
	CHECK("in path order, their counters", got.n == 4 &&
	    strcmp(got.path[0], "/") == 0 && got.cpu[0] == 9000 &&
	    strcmp(got.path[1], "/a") == 0 && got.cpu[1] == 7000 &&
	    strcmp(got.path[2], "/a/b") == 0 && got.cpu[2] == 5000 &&
	    strcmp(got.path[3], "/n\nl") == 0 && got.cpu[3] == 3000 &&
	    got.h[0] == 2);
	/* The same tree as v1's cpuacct: hierarchy 1, ns as they are. */
	memset(&got, 0, sizeof(got));
	put(dir, "/a/b/cpuacct.usage", "123\n");
	cm.m[CGM_CPUACCT] = cm.m[CGM_V2];
	cm.m[CGM_V2].found = 0;
	CHECK("v1: the one cgroup with cpuacct.usage",
	    cgstat_collect(&cm, 1, take, &got, &n) == EXR_OK && n == 1 &&
	    strcmp(got.path[0], "/a/b") == 0 && got.cpu[0] == 123 &&
	    got.h[0] == 1);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		CHECK("rm -rf", 0);
}

void
suite_cgroup(void)
{
	test_mounts();
	test_parsers();
	test_walk();
}
