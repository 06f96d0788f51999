/*
 * Reading /proc: a partial process record per live process and one
 * system record per snapshot (proc(5)).  What snap writes.
 */
#ifndef PROCFS_H
#define PROCFS_H

#include <stdint.h>

#include "../../parsers/exerr.h"
#include "../../parsers/records.h"

struct procfs {
	const char	*root;		/* "/proc", or a test tree */
	long		 clk_tck;	/* sysconf(_SC_CLK_TCK) */
	uint64_t	 btime_s;	/* boot time, s since the epoch */
	uint64_t	 boot_ns;	/* the same to the ns (see procfs.c) */
	long		 ncpu;
	long		 page_kb;	/* a page, KiB: stat's rss unit */
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
 * The I/O is the live threads' own, never a reaped child's (procfs.c).
 */
int	procfs_proc(const struct procfs *pf, const char *pid, uint64_t now_ns,
	    struct ex_proc *p);

/*
 * The same with its main thread's context switches only (what its
 * status says), for a caller that gets the all-thread figures
 * elsewhere (taskstats), or else adds them with procfs_thread_switches:
 * the sum over the live threads in /proc/PID/task, a read each, never
 * less than the main thread's (nothing for a single thread).
 */
int	procfs_proc_own(const struct procfs *pf, const char *pid,
	    uint64_t now_ns, struct ex_proc *p);
void	procfs_thread_switches(const struct procfs *pf, const char *pid,
	    struct ex_proc *p);

/*
 * stat and io only, for a caller that has taskstats say what status
 * would (snapcpu.h): status was a third of a process's reading.  And
 * status alone, adding to p only what it still lacks, for a process
 * taskstats did not answer for.
 */
int	procfs_proc_stat_io(const struct procfs *pf, const char *pid,
	    uint64_t now_ns, struct ex_proc *p);
void	procfs_status(const struct procfs *pf, const char *pid,
	    struct ex_proc *p);

/*
 * The parsers behind them, on one file's text (NUL-terminated, as read;
 * any bytes): no file is touched.  procfs_parse_stat resets p and fills
 * it from /proc/PID/stat: 0, or -1 (a zombie or a process inside
 * do_exit, or not a stat line); procfs_stat_reaped: whether the stat
 * line says the process has reaped a child (its child counters; 1 when
 * it cannot tell);
 * procfs_parse_io adds what it finds to p, procfs_parse_status what p
 * does not yet have (stat's rss, taskstats's figures stay).
 * procfs_parse_cpu: the cpu line of /proc/stat into s, 0 or -1;
 * procfs_parse_btime: its btime, 0 or -1.
 */
int	procfs_parse_stat(const struct procfs *pf, const char *pid,
	    const char *buf, uint64_t now_ns, struct ex_proc *p);
int	procfs_stat_reaped(const char *buf);
void	procfs_parse_status(const char *buf, struct ex_proc *p);
void	procfs_parse_io(const char *buf, struct ex_proc *p);
int	procfs_parse_cpu(const struct procfs *pf, const char *buf,
	    uint64_t now_ns, struct ex_sysload *s);
int	procfs_parse_btime(const char *buf, uint64_t *btime_s);

#endif
