/*
 * One snapshot into a log (snapshot.c; Linux only, nolinux.c stands in
 * elsewhere): what snap and run's first step write.
 */
#ifndef SNAPSHOT_H
#define SNAPSHOT_H

#include <stdint.h>

/*
 * Append one snapshot (a system record, a RAPL record for every zone
 * under powercap_dir, unless cgroups is 0 a record for every cgroup
 * that holds processes and each of its ancestors (cgstat.h), then a
 * partial record for every process under proc_root) to path; *nprocs
 * gets the count.  cpu is the CPU measure
 * asked for (snapcpu.h; acctd_pidfile tells whether acctd runs).
 * Messages are printed; returns EXR_OK or EXR_IO.
 */
int	snap_write(const char *path, const char *proc_root,
	    const char *powercap_dir, int cpu, int cgroups,
	    const char *acctd_pidfile, uint64_t *nprocs);

#endif
