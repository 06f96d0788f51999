/*
 * RAPL energy counters from the powercap sysfs tree (the kernel's
 * Documentation/power/powercap): one reading per zone, for snap to
 * write beside its process records.
 */
#ifndef POWERCAP_H
#define POWERCAP_H

#include <stdint.h>

#include "../../parsers/records.h"

#define POWERCAP_MAX_ZONES	64

/*
 * Read every RAPL zone under dir (normally /sys/class/powercap) into
 * zones, stamped now.  Returns how many were read: 0 where there is no
 * powercap tree (a VM, another CPU).  A zone whose energy_uj cannot be
 * read (root only since Linux 5.10) is counted in *unreadable.
 */
int	powercap_read(const char *dir, uint64_t now, struct ex_rapl *zones,
	    int max, int *unreadable);

/* The files of a zone that are read. */
enum powercap_file {
	PC_ENERGY_UJ, PC_NAME, PC_MAX_ENERGY_RANGE_UJ, PC_CONSTRAINT_0_NAME,
	PC_CONSTRAINT_0_POWER_LIMIT_UW, PC_NFILES
};

/*
 * The reading of the zone named zone from the text of its files (what
 * one read(2) gave, NUL-terminated; NULL: not readable), stamped now: no
 * file is touched (the fuzzer calls it).  Returns 0, or -1 if energy_uj
 * holds no reading (the zone is unreadable).
 */
int	powercap_zone(const char *zone, const char *const text[PC_NFILES],
	    uint64_t now, struct ex_rapl *z);

#endif
