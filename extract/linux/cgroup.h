/*
 * Which cgroup a process is in (cgroups(7)): snap reads it for every
 * live process, acctd for every exit as its message arrives.
 *
 * The hierarchy read is the unified (v2) one when it is mounted (its
 * "0::" line; a hybrid host has it beside the v1 controllers), else the
 * v1 hierarchy holding the cpuacct controller: the one CPU is accounted
 * by.  Which is mounted is found from mountinfo, never from a fixed
 * path.  With neither, processes have no cgroup recorded.
 */
#ifndef CGROUP_H
#define CGROUP_H

#include "../../parsers/records.h"

/*
 * The hierarchy to read (enum cgroup_hier), from the mount table at
 * mountinfo (proc(5)'s /proc/self/mountinfo); 0: none mounted, or the
 * table unreadable.
 */
int	cgroup_hier_of(const char *mountinfo);

/*
 * The cgroup path for hier in text (a /proc/PID/cgroup, NUL-terminated)
 * into out[n]: 0, or -1 when no line is of that hierarchy or the path
 * does not fit.  " (deleted)", which the kernel adds after the path of a
 * cgroup removed since, is taken off: the process ran in that path.
 */
int	cgroup_parse(const char *text, int hier, char *out, size_t n);

/*
 * Process (or thread) pid's cgroup under root ("/proc") into p (its
 * PROC_CGROUP and PROC_CGROUP_HIER): 0, or -1 with p unchanged (gone,
 * no such line, or on v1 a task already exiting, which the kernel
 * shows as in "/").
 */
int	cgroup_read(const char *root, const char *pid, int hier,
	    struct ex_proc *p);

#endif
