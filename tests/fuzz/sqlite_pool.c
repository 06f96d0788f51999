/*
 * A memory allocator for SQLite inside a fuzz target (fuzz_ingest).
 *
 * Debian's libsqlite3 is built without lookaside (SQLITE_OMIT_LOOKASIDE)
 * and without memsys5, so every parse node, page and string is one
 * malloc: under ASan and libFuzzer's malloc hooks that was 40% of each
 * input's time.  SQLite lets a program supply its allocator
 * (SQLITE_CONFIG_MALLOC); this one keeps freed blocks on one list per
 * power-of-two size and never returns memory, which suits a process
 * that does the same small ingest a million times.  The target is one
 * thread, so SQLite is told so, and keeps no memory statistics: both
 * cost a mutex per call.
 *
 * ASan still watches it: a block is poisoned while it is free, so code
 * that reads a column's text after the row moved on is still caught (no
 * quarantine: a block is reused at once, as a real malloc may).
 */
#include <sanitizer/asan_interface.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sqlite_pool.h"

#define MIN_SHIFT	4			/* 16 bytes */
#define MAX_SHIFT	17			/* 128 KiB: larger is malloc */
#define HEADER		16			/* keeps 16-byte alignment */
#define ARENA		(4u << 20)

struct block {
	struct block	*next;			/* on a free list */
};

static struct block *free_list[MAX_SHIFT + 1];
static char *arena;
static size_t arena_left;

/* The size class holding n bytes and the header. */
static int
class_of(size_t n)
{
	size_t need = n + HEADER - 1;

	/* The smallest c with 2^c >= n + HEADER, at least MIN_SHIFT. */
	return need < ((size_t)1 << MIN_SHIFT) ? MIN_SHIFT :
	    (int)(sizeof(long) * 8) - __builtin_clzl(need);
}

static void *
carve(size_t size)
{
	void *p;

	if (arena_left < size) {
		/* The arena's tail is left unused: at most one block. */
		if ((arena = malloc(ARENA)) == NULL)
			return NULL;
		ASAN_POISON_MEMORY_REGION(arena, ARENA);
		arena_left = ARENA;
	}
	p = arena;
	arena += size;
	arena_left -= size;
	return p;
}

static void *
pool_malloc(int n)
{
	int c = class_of((size_t)n);
	char *p;

	if (c > MAX_SHIFT) {
		if ((p = malloc((size_t)n + HEADER)) == NULL)
			return NULL;
	} else if (free_list[c] != NULL) {
		p = (char *)free_list[c];
		ASAN_UNPOISON_MEMORY_REGION(p, sizeof(struct block));
		free_list[c] = free_list[c]->next;
	} else if ((p = carve((size_t)1 << c)) == NULL)
		return NULL;
	ASAN_UNPOISON_MEMORY_REGION(p, (size_t)n + HEADER);
	*(int64_t *)p = n;
	return p + HEADER;
}

static int
pool_size(void *q)
{
	return q == NULL ? 0 : (int)*(int64_t *)((char *)q - HEADER);
}

static void
pool_free(void *q)
{
	char *p = (char *)q - HEADER;
	int c;

	if (q == NULL)
		return;
	c = class_of((size_t)pool_size(q));
	if (c > MAX_SHIFT) {
		free(p);
		return;
	}
	ASAN_POISON_MEMORY_REGION(p, (size_t)1 << c);
	ASAN_UNPOISON_MEMORY_REGION(p, sizeof(struct block));
	((struct block *)p)->next = free_list[c];
	ASAN_POISON_MEMORY_REGION(p, sizeof(struct block));
	free_list[c] = (struct block *)p;
}

static void *
pool_realloc(void *q, int n)
{
	int old = pool_size(q);
	void *p;

	if (q != NULL && class_of((size_t)old) == class_of((size_t)n) &&
	    class_of((size_t)n) <= MAX_SHIFT) {
		ASAN_UNPOISON_MEMORY_REGION((char *)q - HEADER,
		    (size_t)n + HEADER);
		*(int64_t *)((char *)q - HEADER) = n;
		return q;
	}
	if ((p = pool_malloc(n)) == NULL)
		return NULL;
	if (q != NULL) {
		memcpy(p, q, (size_t)(old < n ? old : n));
		pool_free(q);
	}
	return p;
}

static int
pool_roundup(int n)
{
	return n;	/* the exact size, so ASan sees any overrun */
}

static int
pool_init(void *arg)
{
	(void)arg;
	return SQLITE_OK;
}

static void
pool_shutdown(void *arg)
{
	(void)arg;
}

int
sqlite_pool_install(void)
{
	static const sqlite3_mem_methods methods = {
		pool_malloc, pool_free, pool_realloc, pool_size, pool_roundup,
		pool_init, pool_shutdown, NULL
	};

	int rc;

	/* One thread: no mutex around every call and allocation. */
	if ((rc = sqlite3_config(SQLITE_CONFIG_SINGLETHREAD)) != SQLITE_OK ||
	    (rc = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0)) != SQLITE_OK)
		return rc;
	return sqlite3_config(SQLITE_CONFIG_MALLOC, &methods);
}
