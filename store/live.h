/*
 * The live table: in-memory state of every live process or task, found by
 * (host, pid) or (host, taskid).  This is what keeps memory bounded by
 * the number of live processes rather than the size of the input: an
 * entry is added when a process is first seen and removed at its exit.
 *
 * A chained hash over a growing array of fixed-size slots; several
 * entries may share a key (a pid reused while the old process's exit
 * record is still to come), and callers pick among them by start time.
 */
#ifndef LIVE_H
#define LIVE_H

#include <stddef.h>
#include <stdint.h>

struct live {
	size_t		 slot_size;	/* bytes of caller state per entry */
	uint8_t		*slots;		/* entries: header + state */
	size_t		 nslots, capslots;
	int32_t		*buckets;	/* heads of chains, -1: empty */
	size_t		 nbuckets;	/* power of two */
	int32_t		 free_head;	/* recycled slots, -1: none */
	size_t		 count;		/* entries in use */
};

void	live_init(struct live *t, size_t slot_size);
void	live_release(struct live *t);

/* Remove every entry, keeping the memory (for a table refilled at once). */
void	live_clear(struct live *t);

/* A new entry for key; returns its state (zeroed) or NULL (no memory).
 * Pointers into the table stay valid until the next live_add. */
void	*live_add(struct live *t, uint64_t key);

/* Iterate the entries of key: start with *it = -1; NULL at the end. */
void	*live_next_of(struct live *t, uint64_t key, int32_t *it);

/* Iterate all entries: start with *it = -1; NULL at the end. */
void	*live_next(struct live *t, int32_t *it);

/* Remove the entry whose state is `state`. */
void	live_remove(struct live *t, void *state);

/* Per-entry flag the ingest loop uses to find what to write back. */
int	*live_dirty(void *state);

#endif
