/*
 * The kernel's totals per cgroup (cgroup v2 cpu.stat, memory.current,
 * memory.peak, io.stat; v1 cpuacct.usage, cpuacct.stat, memory and
 * blkio): a record for every cgroup that holds processes and every
 * ancestor of one, for snap to write beside its process records.  What
 * the kernel counts there includes every process that ever ran in the
 * cgroup, exited ones too, so no process walk can add up to it.
 */
#ifndef CGSTAT_H
#define CGSTAT_H

#include <stdint.h>

#include "../../parsers/records.h"
#include "cgmount.h"

/*
 * Read every cgroup of the hierarchies in cm that holds processes or is
 * an ancestor of one, stamped now, and give each to emit (its return
 * value, not EXR_OK, stops the walk and is returned).  The unified
 * hierarchy's records have hierarchy 2; the v1 controllers' cgroups of
 * one path are one record with hierarchy 1.  A cgroup removed while it
 * is read is skipped; so is a directory that cannot be opened.  *ncg
 * gets the count of records given.
 */
int	cgstat_collect(const struct cgmounts *cm, uint64_t now,
	    int (*emit)(void *arg, const struct ex_cgroup *g), void *arg,
	    uint64_t *ncg);

/*
 * The parsers, on a file's text (NUL-terminated): a pure function each,
 * for the unit tests.  0, or -1 if the text holds none of the figures.
 */
int	cgstat_parse_cpu_stat(const char *text, struct ex_cgroup *g);
int	cgstat_parse_io_stat(const char *text, struct ex_cgroup *g);
int	cgstat_parse_cpuacct_stat(const char *text, long clk_tck,
	    struct ex_cgroup *g);
int	cgstat_parse_blkio(const char *text, int f_read, int f_write,
	    struct ex_cgroup *g);

#endif
