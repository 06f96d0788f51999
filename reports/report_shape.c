/*
 * Shaping the rows for print (report_int.h): every bucket of --every
 * gets a row (an empty one a zero row, keys blank: a planner reading a
 * series must see the quiet hours, not a gap); rows are sorted; rows
 * past --limit in each bucket are lumped into one, as sa's ***other.
 */
#include <stdlib.h>
#include <string.h>

#include "../parsers/compat.h"
#include "report_int.h"

struct skey {
	size_t		 i;		/* the row */
	long		 bucket;	/* its bucket's index (or -1) */
	int		 have;		/* the sort column has a value */
	long double	 num;
	char		 text[256];
};

/* The sort's context: qsort passes none. */
static const struct report_opts *sort_o;
static const struct report_set *sort_s;
static int sort_hour;			/* the default: time order first */
static const struct report_col *sort_col;	/* NULL: by CPU */

static int
cmp_keys(const struct report_row *x, const struct report_row *y)
{
	int k, c, nk = report_nkeys(sort_o);

	for (k = 0; k < nk; k++) {
		int nx = x->keynull >> k & 1, ny = y->keynull >> k & 1;

		if (nx != ny)
			return nx - ny;
		switch (report_key(sort_o, k)) {
		case BY_USER:
		case BY_GROUP:
		case BY_PROJECT:
			if (x->id[k] != y->id[k])
				return x->id[k] < y->id[k] ? -1 : 1;
			break;
		case BY_HOUR:
			if (x->hour_epoch != y->hour_epoch)
				return x->hour_epoch < y->hour_epoch ? -1 : 1;
			break;
		default:
			if ((c = strcmp(x->key[k], y->key[k])) != 0)
				return c;
		}
	}
	return 0;
}

static int
cmp(const void *a, const void *b)
{
	const struct skey *p = a, *q = b;
	const struct report_row *x = &sort_s->rows[p->i];
	const struct report_row *y = &sort_s->rows[q->i];

	if (p->bucket != q->bucket)
		return p->bucket < q->bucket ? -1 : 1;
	if (x->other != y->other)
		return x->other - y->other;
	if (sort_hour && sort_col == NULL && x->hour_epoch != y->hour_epoch)
		return x->hour_epoch < y->hour_epoch ? -1 : 1;
	/*
	 * Absent values last; measures largest first, keys (ids, names,
	 * times) in order.
	 */
	if (p->have != q->have)
		return q->have - p->have;
	if (p->have && (sort_col == NULL || sort_col->kind == COL_NUM) &&
	    p->num != q->num)
		return (p->num > q->num) == (sort_col == NULL ||
		    !sort_col->key) ? -1 : 1;
	if (p->have && sort_col != NULL && sort_col->kind == COL_TEXT) {
		int c = strcmp(p->text, q->text);

		if (c != 0)
			return c;
	}
	return cmp_keys(x, y);
}

/* Add row y into x (the lumped row): sums, and the levels' highest. */
static void
lump(struct report_row *x, const struct report_row *y)
{
	int m;

	/* Two rows of one key: a name only if both have it. */
	for (m = 0; m < REPORT_MAXKEYS; m++)
		if (x->name[m] != y->name[m])
			x->name[m] = 0;
	x->calls += y->calls;
	for (m = 0; m < RM_N; m++) {
		if (!(y->have >> m & 1))
			continue;
		if (m == RM_RSS_MAX || m == RM_THREADS) {
			if (!(x->have >> m & 1) || y->v[m] > x->v[m])
				x->v[m] = y->v[m];
		} else
			x->v[m] += y->v[m];
		x->have |= 1u << m;
	}
}

/* Rows of one bucket and keys together: the repeated hour (below). */
static int
cmp_bucket_keys(const void *a, const void *b)
{
	const struct report_row *x = a, *y = b;

	if (x->bucket != y->bucket)
		return x->bucket < y->bucket ? -1 : 1;
	return cmp_keys(x, y);
}

/*
 * local_hour() gives the hour that DST's end repeats two starts (or one,
 * as mktime chooses), the edges one: its rows may come twice for the
 * same keys.  Each pair becomes one row (its calls may count a process
 * of both halves twice: a planner's hour of two hours, once a year).
 */
static void
join_repeats(const struct report_opts *o, struct report_set *s)
{
	size_t i, n = 0;

	if (s->n < 2)
		return;
	sort_o = o;
	qsort(s->rows, s->n, sizeof(*s->rows), cmp_bucket_keys);
	for (i = 0; i < s->n; i++) {
		if (n > 0 && s->rows[n - 1].bucket == s->rows[i].bucket &&
		    cmp_keys(&s->rows[n - 1], &s->rows[i]) == 0) {
			lump(&s->rows[n - 1], &s->rows[i]);
			continue;
		}
		s->rows[n++] = s->rows[i];
	}
	s->n = n;
}

/* Empty buckets: a zero row each, its keys blank. */
static int
zero_rows(const struct report_opts *o, struct report_set *s)
{
	unsigned char *seen;
	size_t i, n = s->n;

	if ((seen = calloc(s->nb + 1, 1)) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		long b = report_bucket_of(s, s->rows[i].bucket);

		if (b >= 0) {
			s->rows[i].bucket = s->edge[b];	/* local_hour's */
			seen[b] = 1;
		}
	}
	if (o->every == EVERY_HOUR)
		join_repeats(o, s);
	n = s->n;
	for (i = 0; i < s->nb; i++) {
		struct report_row *r;

		if (seen[i])
			continue;
		if ((r = report_add(s)) == NULL) {
			free(seen);
			return -1;
		}
		r->bucket = s->edge[i];
		r->fill = 1;
		r->keynull = (1u << report_nkeys(o)) - 1;
		r->have = 1u << RM_USER_NS | 1u << RM_SYS_NS |
		    1u << RM_REAL_NS;
	}
	free(seen);
	return 0;
}

/* The column called name, or NULL. */
static const struct report_col *
find_col(const struct report_col *c, int nc, const char *name)
{
	int i;

	for (i = 0; i < nc; i++)
		if (strcmp(c[i].name, name) == 0)
			return &c[i];
	return NULL;
}

int
report_shape(const struct report_opts *o, struct report_set *s,
    struct ex_err *err)
{
	struct report_col cols[REPORT_MAXCOLS];
	struct report_row *out;
	struct skey *sk;
	char buf[256];
	size_t i, j, nout, kept;
	int nc, k;

	nc = report_cols(o, cols);
	sort_col = NULL;
	if (o->sort != NULL && (sort_col = find_col(cols, nc, o->sort)) ==
	    NULL)
		return ex_fail(err, EXR_USAGE, 0, "--sort '%s': no such "
		    "column (--sort takes a column name of the CSV header)",
		    o->sort);
	if (o->every != EVERY_NONE && zero_rows(o, s) != 0)
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	s->cpu_total = 0;
	if (s->nb > 0 && (s->btotal = calloc(s->nb, sizeof(*s->btotal))) ==
	    NULL)
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	for (i = 0; i < s->n; i++) {
		__int128 c = s->rows[i].v[RM_USER_NS] + s->rows[i].v[RM_SYS_NS];
		long b = report_bucket_of(s, s->rows[i].bucket);

		s->cpu_total += c;
		if (s->btotal != NULL && b >= 0)
			s->btotal[b] += c;
	}
	if (s->n == 0)
		return EXR_OK;
	if ((sk = calloc(s->n, sizeof(*sk))) == NULL)
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	sort_o = o;
	sort_s = s;
	sort_hour = 0;
	for (k = 0; k < report_nkeys(o); k++)
		if (report_key(o, k) == BY_HOUR)
			sort_hour = 1;
	for (i = 0; i < s->n; i++) {
		const struct report_row *r = &s->rows[i];
		const char *v;

		sk[i].i = i;
		sk[i].bucket = s->nb > 0 ? report_bucket_of(s, r->bucket) : 0;
		if (sort_col == NULL) {
			sk[i].have = 1;
			sk[i].num = (long double)(r->v[RM_USER_NS] +
			    r->v[RM_SYS_NS]);
			continue;
		}
		v = report_value(o, s, sort_col, r, FMT_CSV, buf, sizeof(buf));
		if ((sk[i].have = v != NULL)) {
			snprintf(sk[i].text, sizeof(sk[i].text), "%s", v);
			sk[i].num = strtold(v, NULL);
		}
	}
	qsort(sk, s->n, sizeof(*sk), cmp);
	if ((out = ex_reallocarray(NULL, s->n, sizeof(*out))) == NULL) {
		free(sk);
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	}
	/* Keep --limit rows a bucket; lump the rest into its last. */
	for (i = 0, nout = 0; i < s->n; i = j) {
		for (j = i; j < s->n && sk[j].bucket == sk[i].bucket; j++)
			;
		for (kept = 0; i < j; i++, kept++) {
			const struct report_row *r = &s->rows[sk[i].i];

			if (o->limit <= 0 || kept < (size_t)o->limit) {
				out[nout++] = *r;
				continue;
			}
			if (kept == (size_t)o->limit) {
				memset(&out[nout], 0, sizeof(out[0]));
				out[nout].other = 1;
				out[nout].bucket = r->bucket;
				nout++;
			}
			lump(&out[nout - 1], r);
		}
	}
	free(sk);
	free(s->rows);
	s->rows = out;
	s->n = s->cap = nout;
	return EXR_OK;
}
