/*
 * bucket (see bucket.h): row signatures, and a table's buckets in an
 * open-addressing map.
 */
#include <stdlib.h>
#include <string.h>

#include "bucket.h"

static uint64_t
mix(uint64_t h, uint64_t v)
{
	h = (h ^ v) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 31);
}

/*
 * Column by column, with their types (5 and '5' differ).  Not of a
 * row's COPY line: formatting every row twice cost more than the COPY
 * itself.
 */
uint64_t
row_sig(sqlite3_stmt *st, int skip, int opt)
{
	uint64_t h = 0xcbf29ce484222325ull, f;
	const unsigned char *p;
	double d;
	int i, n = sqlite3_column_count(st), len;

	for (i = 0; i < n; i++) {
		if (i == skip)
			continue;
		switch (sqlite3_column_type(st, i)) {
		case SQLITE_NULL:
			if (opt >= 0 && i >= opt)
				break;
			h = mix(h, 0x6e756c6c);
			break;
		case SQLITE_INTEGER:
			h = mix(mix(h, 1), (uint64_t)sqlite3_column_int64(st, i));
			break;
		case SQLITE_FLOAT:
			d = sqlite3_column_double(st, i);
			memcpy(&f, &d, sizeof(f));
			h = mix(mix(h, 2), f);
			break;
		default:
			p = sqlite3_column_text(st, i);
			len = sqlite3_column_bytes(st, i);
			f = 0xcbf29ce484222325ull;
			while (len-- > 0)
				f = (f ^ *p++) * 0x100000001b3ull;
			h = mix(mix(h, 3), f);
			break;
		}
	}
	return h;
}

int64_t
floor_div(int64_t v, int64_t w)
{
	return v >= 0 ? v / w : (v + 1) / w - 1;
}

static size_t
slot(int64_t b, size_t mask)
{
	return (size_t)((uint64_t)b * 0x9e3779b97f4a7c15ull >> 17) & mask;
}

struct bucket *
bmap_get(struct bmap *m, int64_t b)
{
	size_t i, k, mask;

	if (m->n * 2 >= m->cap) {
		struct bmap g = { 0 };

		g.cap = m->cap != 0 ? m->cap * 2 : 64;
		if ((g.a = calloc(g.cap, sizeof(*g.a))) == NULL)
			return NULL;
		for (k = 0; k < m->cap; k++) {
			if (!IN_USE(&m->a[k]))
				continue;
			for (i = slot(m->a[k].b, g.cap - 1); IN_USE(&g.a[i]);
			    i = (i + 1) & (g.cap - 1))
				;
			g.a[i] = m->a[k];
			g.n++;
		}
		free(m->a);
		*m = g;
	}
	mask = m->cap - 1;
	for (i = slot(b, mask); IN_USE(&m->a[i]); i = (i + 1) & mask)
		if (m->a[i].b == b)
			return &m->a[i];
	memset(&m->a[i], 0, sizeof(m->a[i]));
	m->a[i].b = b;
	m->n++;
	return &m->a[i];
}

struct bucket *
bmap_find(const struct bmap *m, int64_t b)
{
	size_t i, mask;

	if (m->cap == 0)
		return NULL;
	mask = m->cap - 1;
	for (i = slot(b, mask); IN_USE(&m->a[i]); i = (i + 1) & mask)
		if (m->a[i].b == b)
			return &m->a[i];
	return NULL;
}

void
bmap_reset(struct bmap *m)
{
	free(m->a);
	memset(m, 0, sizeof(*m));
}
