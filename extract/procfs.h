/*
 * Reading /proc: a partial process record per live process and one
 * system record per snapshot (linux-sources.md §6).  What snap writes.
 */
#ifndef PROCFS_H
#define PROCFS_H

#include <stdint.h>

#include "../parsers/exerr.h"
#include "../parsers/records.h"

struct procfs {
	const char	*root;		/* "/proc", or a test tree */
	long		 clk_tck;	/* sysconf(_SC_CLK_TCK) */
	uint64_t	 btime_s;	/* boot time, s since the epoch */
	uint64_t	 boot_ns;	/* the same to the ns (see procfs.c) */
	long		 ncpu;
};

/* Read btime and the constants; EXR_OK or EXR_IO with err. */
int	procfs_init(struct procfs *pf, const char *root, struct ex_err *err);

/* The system record at now_ns; EXR_OK or EXR_IO. */
int	procfs_sysload(const struct procfs *pf, uint64_t now_ns,
	    struct ex_sysload *s, struct ex_err *err);

/*
 * The partial record of process pid at now_ns.  Returns 0, or -1 when
 * the process vanished, is a zombie, or its stat file cannot be read
 * (skip it quietly: a process that exits writes its own exit record).  Fields that cannot
 * be read (io of another user's process without privilege) are absent.
 */
int	procfs_proc(const struct procfs *pf, const char *pid, uint64_t now_ns,
	    struct ex_proc *p);

#endif
