/*
 * The collectors of extract/linux/ where there is no Linux: built in
 * their place by "make portable" and on illumos, the BSDs and macOS.
 * snap and acctd read what only Linux has (/proc/PID/stat and its
 * siblings, taskstats over netlink, powercap), so there they say so
 * instead of failing to build; their commands (cmd_snap.c, cmd_acctd.c)
 * and so their --help are the same on every system.  Everything else
 * (decoding, ingest, reports, rotate, which on illumos has the kernel
 * write partial records with wracct) is the same code on every system.
 */
#include <stdio.h>

#include "../parsers/exerr.h"
#include "linux/acctd.h"
#include "linux/snapshot.h"

static int
linux_only(const char *what, const char *reads)
{
	fprintf(stderr, "extracct %s: Linux only, not in this build: it "
	    "reads %s\n", what, reads);
	return EXR_USAGE;
}

int
acctd_run(const char *spool, const char *host, const char *log_host,
    const char *pidfile, uint64_t rcvbuf)
{
	(void)spool;
	(void)host;
	(void)log_host;
	(void)pidfile;
	(void)rcvbuf;
	return linux_only("acctd", "taskstats");
}

int
snap_write(const char *path, const char *proc_root,
    const char *powercap_dir, int cpu, int cgroups,
    const char *acctd_pidfile, uint64_t *nprocs)
{
	(void)path;
	(void)proc_root;
	(void)powercap_dir;
	(void)cpu;
	(void)cgroups;
	(void)acctd_pidfile;
	*nprocs = 0;
	return linux_only("snap", "/proc");
}
