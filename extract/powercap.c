/*
 * Reading the powercap tree (see powercap.h).
 *
 * Only the intel-rapl:* zones are read (AMD's RAPL shows under the same
 * name): intel-rapl-mmio:* is a second way into the same package
 * counters on some Intel chips, and reading both would count a package
 * twice.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "powercap.h"

/* The first line of dir/zone/file, without its newline; -1 if none. */
static int
read_line(const char *dir, const char *zone, const char *file, char *buf,
    size_t n)
{
	char path[4096];
	ssize_t got;
	int fd;

	snprintf(path, sizeof(path), "%s/%s/%s", dir, zone, file);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	do
		got = read(fd, buf, n - 1);
	while (got == -1 && errno == EINTR);
	close(fd);
	if (got <= 0)
		return -1;
	buf[got] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int
read_u64(const char *dir, const char *zone, const char *file, uint64_t *v)
{
	char buf[32], *end;

	if (read_line(dir, zone, file, buf, sizeof(buf)) != 0 ||
	    buf[0] < '0' || buf[0] > '9')
		return -1;
	errno = 0;
	*v = strtoull(buf, &end, 10);
	return *end == '\0' && errno == 0 ? 0 : -1;
}

/*
 * The zone's long-term power limit (PL1), uW: over a long interval its
 * average power stays under it, so it bounds how often the counter can
 * have wrapped.  Only a constraint named long_term, and never 0.
 */
static int
long_term_limit(const char *dir, const char *zone, uint64_t *uw)
{
	char name[32];

	if (read_line(dir, zone, "constraint_0_name", name,
	    sizeof(name)) != 0 || strcmp(name, "long_term") != 0 ||
	    read_u64(dir, zone, "constraint_0_power_limit_uw", uw) != 0)
		return -1;
	return *uw > 0 ? 0 : -1;
}

int
powercap_read(const char *dir, uint64_t now, struct ex_rapl *zones,
    int max, int *unreadable)
{
	struct dirent *de;
	struct ex_rapl *z;
	DIR *d;
	int n = 0;

	*unreadable = 0;
	if ((d = opendir(dir)) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL && n < max) {
		if (strncmp(de->d_name, "intel-rapl:", 11) != 0)
			continue;
		z = &zones[n];
		memset(z, 0, sizeof(*z));
		if (read_u64(dir, de->d_name, "energy_uj",
		    &z->v[RAPL_ENERGY_UJ]) != 0) {
			(*unreadable)++;
			continue;
		}
		z->present = 1ULL << RAPL_TIME_NS | 1ULL << RAPL_ZONE |
		    1ULL << RAPL_ENERGY_UJ;
		z->v[RAPL_TIME_NS] = now;
		snprintf(z->zone, sizeof(z->zone), "%.63s", de->d_name);
		if (read_line(dir, de->d_name, "name", z->name,
		    sizeof(z->name)) == 0)
			z->present |= 1ULL << RAPL_NAME;
		if (read_u64(dir, de->d_name, "max_energy_range_uj",
		    &z->v[RAPL_MAX_UJ]) == 0)
			z->present |= 1ULL << RAPL_MAX_UJ;
		if (long_term_limit(dir, de->d_name, &z->v[RAPL_LIMIT_UW]) == 0)
			z->present |= 1ULL << RAPL_LIMIT_UW;
		n++;
	}
	closedir(d);
	return n;
}
