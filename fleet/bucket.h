/*
 * bucket: what push compares.  A local fact table is cut into buckets
 * (an hour of a time column, a range of ids); a bucket's signature is
 * the sum of its rows' (row_sig: a 64-bit hash of a row's values with
 * their types), so the order rows are read in does not matter, with
 * their count.  A bmap holds a table's buckets, the local and central
 * signatures of each side by side.
 */
#ifndef BUCKET_H
#define BUCKET_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

/* A bucket: what the local database holds in it, what central does. */
struct bucket {
	int64_t		 b;
	uint64_t	 n, sig;	/* local; n 0: none here */
	uint64_t	 cn, csig;	/* central; have_c 0: none there */
	int		 have_c;
	int		 send;		/* differs: replace it centrally */
	int		 ids;		/* by the ids it holds here only */
};

/* A table's buckets: an open-addressing map on b, then sorted. */
struct bmap {
	struct bucket	*a;
	size_t		 n, cap;	/* used, slots (a power of two) */
};

#define IN_USE(e)	((e)->n != 0 || (e)->have_c)

/*
 * The signature of st's current row, every column but skip (-1: none);
 * from column opt on (-1: none), a NULL counts as no column at all, so
 * columns added there (the cgroups, local schema 20) leave the
 * signature of a row that has none as it was: no bucket is sent again
 * for them.
 */
uint64_t	 row_sig(sqlite3_stmt *st, int skip, int opt);

/* v / w rounded toward minus infinity: the bucket of a value. */
int64_t		 floor_div(int64_t v, int64_t w);

/* The bucket b of m, added (zeroed) if new; NULL: out of memory. */
struct bucket	*bmap_get(struct bmap *m, int64_t b);
/* The bucket b of m, or NULL. */
struct bucket	*bmap_find(const struct bmap *m, int64_t b);
void		 bmap_reset(struct bmap *m);

#endif
