/*
 * Keys from a cgroup path (cgpath.h).  The path is taken element by
 * element from the root; an inner element's key replaces an outer one's,
 * so the innermost unit, container and pod win.  The layouts:
 *
 *   unit       an element ending ".service", ".scope" or ".slice"
 *              (systemd's unit types that hold processes or units)
 *   container  docker-<id>.scope, libpod-<id>.scope,
 *              cri-containerd-<id>.scope, crio-<id>.scope (the systemd
 *              cgroup driver), or <id> under "docker" or under a pod
 *              element (the cgroupfs driver); <id> 64 lowercase hex,
 *              kept as its first 12 (what docker ps shows)
 *   pod        kubepods[-<qos>]-pod<uid>.slice, its '_' back to '-'
 *              (systemd escapes a '-' in a unit name), or pod<uid> under
 *              "kubepods" (cgroupfs); <uid> 8-4-4-4-12 hex
 *
 * A near miss (libpod-conmon-<id>.scope, podman's monitor, not the
 * container) matches none.
 */
#include <stdio.h>
#include <string.h>

#include "cgpath.h"

#define ID_HEX	64
#define UID_LEN	36

static int
is_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

static int
ends_with(const char *s, size_t n, const char *suf)
{
	size_t l = strlen(suf);

	return n > l && memcmp(s + n - l, suf, l) == 0;
}

/* A pod uid at s (36 bytes), dash (or, dash '_') between its groups. */
static int
is_uid(const char *s, size_t n, char dash)
{
	size_t i;

	if (n != UID_LEN)
		return 0;
	for (i = 0; i < n; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (s[i] != dash)
				return 0;
		} else if (!is_hex(s + i, 1))
			return 0;
	}
	return 1;
}

/* The container id of element e[0..n) with the prefix and ".scope". */
static int
scoped_id(const char *e, size_t n, const char *prefix, char *out)
{
	size_t l = strlen(prefix);

	if (n != l + ID_HEX + 6 || memcmp(e, prefix, l) != 0 ||
	    !ends_with(e, n, ".scope") || !is_hex(e + l, ID_HEX))
		return 0;
	memcpy(out, e + l, 12);
	out[12] = '\0';
	return 1;
}

void
cgpath_keys(const char *path, struct cgpath_keys *k)
{
	static const char *const scopes[] = { "docker-", "libpod-",
	    "cri-containerd-", "crio-" };
	const char *e = path, *end;
	size_t n, i;
	int under_docker = 0, under_kubepods = 0, under_pod = 0;

	k->unit[0] = k->container[0] = k->pod[0] = '\0';
	for (; *e != '\0'; e = *end == '\0' ? end : end + 1) {
		if ((end = strchr(e, '/')) == NULL)
			end = e + strlen(e);
		n = (size_t)(end - e);
		if (n == 0)
			continue;
		if ((ends_with(e, n, ".service") || ends_with(e, n, ".scope") ||
		    ends_with(e, n, ".slice")) && n < sizeof(k->unit)) {
			memcpy(k->unit, e, n);
			k->unit[n] = '\0';
		}
		for (i = 0; i < sizeof(scopes) / sizeof(scopes[0]); i++)
			if (scoped_id(e, n, scopes[i], k->container))
				break;
		if ((under_docker || under_pod) && n == ID_HEX &&
		    is_hex(e, n)) {
			memcpy(k->container, e, 12);
			k->container[12] = '\0';
		}
		under_pod = 0;
		if (n >= 9 + 3 + UID_LEN + 6 && memcmp(e, "kubepods-", 9) == 0 &&
		    ends_with(e, n, ".slice") &&
		    memcmp(e + n - 6 - UID_LEN - 3, "pod", 3) == 0 &&
		    e[n - 6 - UID_LEN - 4] == '-' &&
		    is_uid(e + n - 6 - UID_LEN, UID_LEN, '_')) {
			memcpy(k->pod, e + n - 6 - UID_LEN, UID_LEN);
			for (i = 0; i < UID_LEN; i++)
				if (k->pod[i] == '_')
					k->pod[i] = '-';
			k->pod[UID_LEN] = '\0';
		} else if (under_kubepods && n == 3 + UID_LEN &&
		    memcmp(e, "pod", 3) == 0 && is_uid(e + 3, UID_LEN, '-')) {
			memcpy(k->pod, e + 3, UID_LEN);
			k->pod[UID_LEN] = '\0';
			under_pod = 1;
		}
		under_docker = n == 6 && memcmp(e, "docker", 6) == 0;
		if (n == 8 && memcmp(e, "kubepods", 8) == 0)
			under_kubepods = 1;
	}
}
