/*
 * The live table (see live.h).
 */
#include <stdlib.h>
#include <string.h>

#include "live.h"

struct slot_head {
	uint64_t	 key;
	int32_t		 next;		/* chain, or free list */
	int32_t		 in_use;
	int		 dirty;
	int		 pad;
};

#define HEAD(t, i)	((struct slot_head *)((t)->slots + (size_t)(i) * \
			    (sizeof(struct slot_head) + (t)->slot_size)))
#define STATE(h)	((void *)((struct slot_head *)(h) + 1))
#define HEAD_OF(s)	((struct slot_head *)(s) - 1)

static size_t
bucket_of(const struct live *t, uint64_t key)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (size_t)key & (t->nbuckets - 1);
}

void
live_init(struct live *t, size_t slot_size)
{
	memset(t, 0, sizeof(*t));
	/* Keep states aligned for uint64_t members. */
	t->slot_size = (slot_size + 7) & ~(size_t)7;
	t->free_head = -1;
}

void
live_release(struct live *t)
{
	free(t->slots);
	free(t->buckets);
	memset(t, 0, sizeof(*t));
	t->free_head = -1;
}

void
live_clear(struct live *t)
{
	/* -1 in every bucket: all bits set. */
	if (t->nbuckets > 0)
		memset(t->buckets, 0xff, t->nbuckets * sizeof(*t->buckets));
	t->nslots = 0;
	t->count = 0;
	t->free_head = -1;
}

static int
rehash(struct live *t, size_t nbuckets)
{
	int32_t *b = malloc(nbuckets * sizeof(*b));
	size_t i;

	if (b == NULL)
		return -1;
	for (i = 0; i < nbuckets; i++)
		b[i] = -1;
	free(t->buckets);
	t->buckets = b;
	t->nbuckets = nbuckets;
	for (i = 0; i < t->nslots; i++) {
		struct slot_head *h = HEAD(t, i);
		size_t k;

		if (!h->in_use)
			continue;
		k = bucket_of(t, h->key);
		h->next = b[k];
		b[k] = (int32_t)i;
	}
	return 0;
}

void *
live_add(struct live *t, uint64_t key)
{
	struct slot_head *h;
	size_t i, k, stride = sizeof(struct slot_head) + t->slot_size;

	if (t->free_head >= 0) {
		i = (size_t)t->free_head;
		t->free_head = HEAD(t, i)->next;
	} else {
		if (t->nslots == t->capslots) {
			size_t ncap = t->capslots == 0 ? 1024 : t->capslots * 2;
			uint8_t *ns;

			if (ncap > INT32_MAX ||
			    (ns = realloc(t->slots, ncap * stride)) == NULL)
				return NULL;
			t->slots = ns;
			t->capslots = ncap;
		}
		i = t->nslots++;
		HEAD(t, i)->in_use = 0;	/* not in a chain yet: rehash skips it */
	}
	if (t->count + 1 > t->nbuckets / 2 &&
	    rehash(t, t->nbuckets == 0 ? 2048 : t->nbuckets * 2) != 0) {
		HEAD(t, i)->in_use = 0;
		HEAD(t, i)->next = t->free_head;
		t->free_head = (int32_t)i;
		return NULL;
	}
	h = HEAD(t, i);
	memset(h, 0, stride);
	h->key = key;
	h->in_use = 1;
	k = bucket_of(t, key);
	h->next = t->buckets[k];
	t->buckets[k] = (int32_t)i;
	t->count++;
	return STATE(h);
}

void *
live_next_of(struct live *t, uint64_t key, int32_t *it)
{
	int32_t i;

	if (t->nbuckets == 0)
		return NULL;
	i = *it < 0 ? t->buckets[bucket_of(t, key)] : HEAD(t, *it)->next;
	for (; i >= 0; i = HEAD(t, i)->next)
		if (HEAD(t, i)->key == key) {
			*it = i;
			return STATE(HEAD(t, i));
		}
	return NULL;
}

void *
live_next(struct live *t, int32_t *it)
{
	size_t i;

	for (i = (size_t)(*it + 1); i < t->nslots; i++)
		if (HEAD(t, i)->in_use) {
			*it = (int32_t)i;
			return STATE(HEAD(t, i));
		}
	return NULL;
}

void
live_remove(struct live *t, void *state)
{
	struct slot_head *h = HEAD_OF(state);
	size_t stride = sizeof(struct slot_head) + t->slot_size;
	int32_t i = (int32_t)(((uint8_t *)h - t->slots) / stride), *pp;

	for (pp = &t->buckets[bucket_of(t, h->key)]; *pp >= 0;
	    pp = &HEAD(t, *pp)->next)
		if (*pp == i) {
			*pp = h->next;
			break;
		}
	h->in_use = 0;
	h->next = t->free_head;
	t->free_head = i;
	t->count--;
}

int *
live_dirty(void *state)
{
	return &HEAD_OF(state)->dirty;
}
