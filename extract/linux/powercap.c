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

static const char *const zone_files[PC_NFILES] = {
	[PC_ENERGY_UJ] = "energy_uj",
	[PC_NAME] = "name",
	[PC_MAX_ENERGY_RANGE_UJ] = "max_energy_range_uj",
	[PC_CONSTRAINT_0_NAME] = "constraint_0_name",
	[PC_CONSTRAINT_0_POWER_LIMIT_UW] = "constraint_0_power_limit_uw",
};

/* dir/zone/file into buf (n > 1 bytes, NUL-terminated); -1 if unread. */
static int
read_file(const char *dir, const char *zone, const char *file, char *buf,
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
	return 0;
}

/* The first line of text, as a string in buf[n]; -1 if it is longer. */
static int
first_line(const char *text, char *buf, size_t n)
{
	size_t len = strcspn(text, "\n");

	if (len >= n)
		return -1;
	memcpy(buf, text, len);
	buf[len] = '\0';
	return 0;
}

/* The first line of text as a decimal u64 and nothing else. */
static int
parse_u64(const char *text, uint64_t *v)
{
	char buf[32], *end;

	if (text == NULL || first_line(text, buf, sizeof(buf)) != 0 ||
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
long_term_limit(const char *const text[PC_NFILES], uint64_t *uw)
{
	char name[32];

	if (text[PC_CONSTRAINT_0_NAME] == NULL ||
	    first_line(text[PC_CONSTRAINT_0_NAME], name, sizeof(name)) != 0 ||
	    strcmp(name, "long_term") != 0 ||
	    parse_u64(text[PC_CONSTRAINT_0_POWER_LIMIT_UW], uw) != 0)
		return -1;
	return *uw > 0 ? 0 : -1;
}

int
powercap_zone(const char *zone, const char *const text[PC_NFILES],
    uint64_t now, struct ex_rapl *z)
{
	memset(z, 0, sizeof(*z));
	if (parse_u64(text[PC_ENERGY_UJ], &z->v[RAPL_ENERGY_UJ]) != 0)
		return -1;
	z->present = 1ULL << RAPL_TIME_NS | 1ULL << RAPL_ZONE |
	    1ULL << RAPL_ENERGY_UJ;
	z->v[RAPL_TIME_NS] = now;
	snprintf(z->zone, sizeof(z->zone), "%.63s", zone);
	if (text[PC_NAME] != NULL) {
		/* A name too long for z->name is cut, as it always was. */
		snprintf(z->name, sizeof(z->name), "%.*s",
		    (int)strcspn(text[PC_NAME], "\n"), text[PC_NAME]);
		z->present |= 1ULL << RAPL_NAME;
	}
	if (parse_u64(text[PC_MAX_ENERGY_RANGE_UJ], &z->v[RAPL_MAX_UJ]) == 0)
		z->present |= 1ULL << RAPL_MAX_UJ;
	if (long_term_limit(text, &z->v[RAPL_LIMIT_UW]) == 0)
		z->present |= 1ULL << RAPL_LIMIT_UW;
	return 0;
}

int
powercap_read(const char *dir, uint64_t now, struct ex_rapl *zones,
    int max, int *unreadable)
{
	char bufs[PC_NFILES][64];
	const char *text[PC_NFILES];
	struct dirent *de;
	DIR *d;
	int f, n = 0;

	*unreadable = 0;
	if ((d = opendir(dir)) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL && n < max) {
		if (strncmp(de->d_name, "intel-rapl:", 11) != 0)
			continue;
		for (f = 0; f < PC_NFILES; f++) {
			text[f] = read_file(dir, de->d_name, zone_files[f],
			    bufs[f], sizeof(bufs[f])) == 0 ? bufs[f] : NULL;
			/* Without energy_uj (root only since Linux 5.10)
			 * the rest is not needed. */
			if (f == PC_ENERGY_UJ && text[f] == NULL)
				break;
		}
		if (text[PC_ENERGY_UJ] == NULL ||
		    powercap_zone(de->d_name, text, now, &zones[n]) != 0) {
			(*unreadable)++;
			continue;
		}
		n++;
	}
	closedir(d);
	return n;
}
