/*
 * What the code needs beyond POSIX.1-2008, for the systems it builds on
 * (Linux with glibc, illumos, the BSDs): each here once, in portable C,
 * so "make portable" (a strict POSIX build) compiles the same files.
 */
#ifndef COMPAT_H
#define COMPAT_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

/* realloc(p, n * size), failing (ENOMEM) where the product overflows:
 * OpenBSD's reallocarray, which glibc hides from a strict build. */
static inline void *
ex_reallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(p, n * size);
}

#endif
