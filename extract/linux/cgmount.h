/*
 * Where the cgroup hierarchies are mounted, from /proc/self/mountinfo
 * (the kernel's Documentation/filesystems/proc.rst, 3.5): never a fixed
 * path, since distributions mount the unified hierarchy at
 * /sys/fs/cgroup, at /sys/fs/cgroup/unified beside the version 1
 * controllers (hybrid), or not at all.
 */
#ifndef CGMOUNT_H
#define CGMOUNT_H

#include <stddef.h>

#include "../../parsers/exerr.h"

/* The hierarchies snap reads: the unified one, and three v1 controllers. */
enum cgm_kind { CGM_V2, CGM_CPUACCT, CGM_MEMORY, CGM_BLKIO, CGM_N };

struct cgm {
	int		 found;
	char		 dir[4096];	/* where it is mounted, unescaped */
	char		 root[4096];	/* the cgroup at dir: "/" unless a
					   subtree is mounted */
};

struct cgmounts {
	struct cgm	 m[CGM_N];
};

/*
 * The mounts in mountinfo's text (len bytes, not NUL-terminated): for
 * each kind the first mount of it (cgroup2; cgroup with the controller
 * in its super options), its fields unescaped (\040 a space, \011 a tab,
 * \012 a newline, \134 a backslash).  Lines that do not parse are
 * skipped.  Returns how many kinds were found.
 */
int	cgmount_parse(const char *text, size_t len, struct cgmounts *cm);

/* The same from the file at path (normally /proc/self/mountinfo):
 * EXR_OK, or EXR_IO with err. */
int	cgmount_read(const char *path, struct cgmounts *cm,
	    struct ex_err *err);

#endif
