/*
 * snap and acctd, and the snapshot run takes (snapshot.c's snap_write),
 * where there is no Linux: built in their place by "make portable" and
 * on illumos, the BSDs and macOS.  They read what
 * only Linux has (/proc/PID/stat and its siblings, taskstats over
 * netlink, powercap), so there they say so instead of failing to
 * build.  Everything else (decoding, ingest, reports, rotate, which on
 * illumos has the kernel write partial records with wracct) is the same
 * code on every system.
 */
#include <stdio.h>

#include "cmdopt.h"
#include "extracct.h"
#include "snapshot.h"

static const struct cmdopt no_options[] = { { 0 } };

const struct cmddoc cmd_snap_doc = { "snap", NULL,
    "Linux only: not in this build (it reads /proc and taskstats).",
    no_options };

const struct cmddoc cmd_acctd_doc = { "acctd", NULL,
    "Linux only: not in this build (it reads taskstats).", no_options };

static int
linux_only(const char *what, const char *reads)
{
	fprintf(stderr, "extracct %s: Linux only, not in this build: it "
	    "reads %s\n", what, reads);
	return EXR_USAGE;
}

int
cmd_snap(int argc, char **argv, struct ctx *ctx)
{
	(void)argc;
	(void)argv;
	(void)ctx;
	return linux_only("snap", "/proc and taskstats");
}

int
cmd_acctd(int argc, char **argv, struct ctx *ctx)
{
	(void)argc;
	(void)argv;
	(void)ctx;
	return linux_only("acctd", "taskstats");
}

int
snap_write(const char *path, const char *proc_root,
    const char *powercap_dir, int cpu, const char *acctd_pidfile,
    uint64_t *nprocs)
{
	(void)path;
	(void)proc_root;
	(void)powercap_dir;
	(void)cpu;
	(void)acctd_pidfile;
	*nprocs = 0;
	linux_only("run: snap", "/proc");
	return EXR_IO;
}
