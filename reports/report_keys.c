/*
 * Rows by their keys (report_int.h): whether two rows hold the same
 * keys, and row indices sorted so that each key group's rows are
 * together, as --forecast groups them.
 */
#include <stdlib.h>
#include <string.h>

#include "report_int.h"

int
report_same_keys(const struct report_opts *o, const struct report_row *a,
    const struct report_row *b)
{
	int k;

	if (a->other != b->other || a->keynull != b->keynull)
		return 0;
	for (k = 0; k < report_nkeys(o); k++)
		if (!(a->keynull >> k & 1) && (a->id[k] != b->id[k] ||
		    strcmp(a->key[k], b->key[k]) != 0))
			return 0;
	return 1;
}

/* Sorting rows by their keys, to find the groups in one pass. */
static const struct report_opts *key_o;
static const struct report_set *key_s;

static int
cmp_keys(const void *a, const void *b)
{
	const struct report_row *x = &key_s->rows[*(const size_t *)a];
	const struct report_row *y = &key_s->rows[*(const size_t *)b];
	int k, c;

	if (x->other != y->other)
		return x->other - y->other;
	if (x->keynull != y->keynull)
		return x->keynull < y->keynull ? -1 : 1;
	for (k = 0; k < report_nkeys(key_o); k++) {
		if (x->id[k] != y->id[k])
			return x->id[k] < y->id[k] ? -1 : 1;
		if ((c = strcmp(x->key[k], y->key[k])) != 0)
			return c;
	}
	return 0;
}

void
report_sort_keys(const struct report_opts *o, const struct report_set *s,
    size_t *idx, size_t n)
{
	key_o = o;
	key_s = s;
	if (n > 1)
		qsort(idx, n, sizeof(*idx), cmp_keys);
}
