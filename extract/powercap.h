/*
 * RAPL energy counters from the powercap sysfs tree (energy-sources.md
 * §3.1): one reading per zone, for snap to write beside its process
 * records.
 */
#ifndef POWERCAP_H
#define POWERCAP_H

#include <stdint.h>

#include "../parsers/records.h"

#define POWERCAP_MAX_ZONES	64

/*
 * Read every RAPL zone under dir (normally /sys/class/powercap) into
 * zones, stamped now.  Returns how many were read: 0 where there is no
 * powercap tree (a VM, another CPU).  A zone whose energy_uj cannot be
 * read (root only since Linux 5.10) is counted in *unreadable.
 */
int	powercap_read(const char *dir, uint64_t now, struct ex_rapl *zones,
	    int max, int *unreadable);

#endif
