/*
 * What the two fillers of records share (records.c: a decoded group's
 * items; skim.c: a group's bytes, with no decode): the maps from ids to
 * fields, and the one rule of what a filler keeps (classify) and how
 * time halves are joined.  Internal to parsers/.
 */
#ifndef RECORDS_INT_H
#define RECORDS_INT_H

#include <stddef.h>
#include <stdint.h>

#include "exacct.h"
#include "records.h"

enum part { WHOLE = 1, SEC, NSEC, STR, ADDR4, ADDR6 };

struct idmap {
	uint8_t		 field;
	uint8_t		 part;		/* 0: unknown id */
};

/* Where a string field goes. */
struct strdst {
	char		*buf;
	size_t		 size;
};

/* Where the address fields go (flows only). */
struct addrdst {
	uint8_t		*addr[2];	/* FLOW_SADDR, FLOW_DADDR */
	int		*family;
};

/* What one record kind's members are: its maps. */
struct kindmap {
	uint32_t		 catalog;	/* of the ids in map */
	uint32_t		 base;		/* first data id */
	const struct idmap	*map;
	size_t			 nmap;
	uint32_t		 lbase;		/* local-catalog extras, or 0 */
	const struct idmap	*lmap;
	size_t			 nlmap;
	int			 addr;		/* the kind has addresses */
};

/* Everything the generic filler needs to know about one record kind. */
struct fillspec {
	const struct kindmap	*k;
	uint64_t		*v;
	uint64_t		*present;
	const struct strdst	*str;		/* indexed by field */
	const struct addrdst	*addr;		/* NULL if the kind has none */
};

/* Each kind's map (NULL: a kind with no filler), by enum rec_kind. */
extern const struct kindmap *const rec_kind_maps[REC_CGROUP + 1];

/*
 * A process (task) record about to be filled from the group with this
 * tag at off: its strings empty, and where each member goes (str:
 * PROC_NFIELDS, TASK_NFIELDS entries, of which the string fields' are
 * set).  proc_fill's and rec_skim_fill's.
 */
void	rec_proc_start(struct ex_proc *p, uint32_t tag, uint64_t off,
	    struct strdst *str, struct fillspec *s);
void	rec_task_start(struct ex_task *t, uint32_t tag, uint64_t off,
	    struct strdst *str, struct fillspec *s);

/* The types each part takes, a bit a type (UINT8 is 1). */
static const uint16_t part_types[] = {
	[WHOLE] = 0x1e, [SEC] = 0x1e, [NSEC] = 0x1e,	/* UINT8..UINT64 */
	[STR] = 1 << 6, [ADDR4] = 1 << 3, [ADDR6] = 1 << 8
};

/*
 * Where the member with this tag goes in kind k, or NULL: an id the kind
 * does not have, or one of the wrong type (n: a RAW payload's length).
 * The one rule of what a filler keeps, shared by fill() and rec_skim().
 * The catalog and the id are matched at once: tag & 0x0fffffff less the
 * map's first (catalog | id) is below the map's length only for the
 * map's own ids.
 */
static inline const struct idmap *
classify(const struct kindmap *k, uint32_t tag, size_t n)
{
	uint32_t cid = tag & (EXC_CATALOG_MASK | EXD_DATA_MASK);
	const struct idmap *m;

	if (cid - (k->catalog | k->base) < k->nmap)
		m = &k->map[cid - (k->catalog | k->base)];
	else if (k->lmap != NULL && cid - (EXC_LOCAL | k->lbase) < k->nlmap)
		m = &k->lmap[cid - (EXC_LOCAL | k->lbase)];
	else
		return NULL;
	if (((part_types[m->part] >> (tag >> 28)) & 1) == 0)
		return NULL;	/* part 0 (no such id), or mistyped */
	if (m->part >= ADDR4 && (!k->addr || (m->part == ADDR6 && n != 16)))
		return NULL;
	return m;
}

/* A time of seconds and nanoseconds past REC_MAX_NS, or not one. */
static inline int
bad_time(uint64_t sec, uint64_t ns)
{
	return ns >= 1000000000u || sec > REC_MAX_NS / 1000000000u ||
	    sec * 1000000000u > REC_MAX_NS - ns;
}

/*
 * Join the time halves collected: sec required, nsec optional but <
 * 10^9.  Each good one into v (if not NULL); returns their present bits.
 */
static inline uint64_t
join_times(uint64_t has_sec, uint64_t has_nsec, const uint64_t *sec,
    const uint64_t *nsec, uint64_t *v, struct rec_counts *c)
{
	uint64_t present = 0;

	while (has_sec != 0) {
		int f = __builtin_ctzll(has_sec);
		uint64_t ns = (has_nsec >> f) & 1 ? nsec[f] : 0;

		has_sec &= has_sec - 1;
		if (bad_time(sec[f], ns)) {
			c->bad_values++;
			continue;
		}
		if (v != NULL)
			v[f] = sec[f] * 1000000000u + ns;
		present |= 1ULL << f;
	}
	return present;
}

#endif
