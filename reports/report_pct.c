/*
 * --percentiles (report_int.h): per key group, the p50, p95 and the
 * largest of its series of --every buckets, CPU seconds and utilisation
 * of the host's CPUs: what a machine is sized by.  The series has a
 * value for every bucket of the window, 0 where the group used nothing
 * (a quiet night is part of the load).  Percentiles are nearest-rank:
 * the smallest value with at least p% of the buckets at or below it, a
 * value that occurred, never an interpolation.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "report_int.h"

/* The sort's context. */
static int
cmp_i128(const void *a, const void *b)
{
	__int128 x = *(const __int128 *)a, y = *(const __int128 *)b;

	return (x > y) - (x < y);
}

static int
cmp_ld(const void *a, const void *b)
{
	long double x = *(const long double *)a, y = *(const long double *)b;

	return (x > y) - (x < y);
}

/* Nearest rank of p% among n sorted values. */
static size_t
rank(size_t n, int p)
{
	size_t r = (n * (size_t)p + 99) / 100;

	return r == 0 ? 0 : r - 1;
}

#define NSTAT	7	/* buckets, cpu p50 p95 max, util p50 p95 max */
static const char *const stat_names[NSTAT] = {
	"buckets", "cpu_s_p50", "cpu_s_p95", "cpu_s_max",
	"util_pct_p50", "util_pct_p95", "util_pct_max",
};

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

/* A group's figures, and its CPU in all, to rank the groups by. */
struct group {
	size_t		 lead;		/* its first row */
	__int128	 total;
	char		 cell[NSTAT][64];
};

static int
cmp_groups(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return x->lead < y->lead ? -1 : x->lead > y->lead;
}

int
report_percentiles(FILE *fp, const struct report_opts *o,
    const struct report_set *s, struct ex_err *err)
{
	static struct report_col all[REPORT_MAXCOLS];
	struct report_col kc[REPORT_MAXCOLS];
	struct group *gr = NULL;
	__int128 *cpu = NULL;
	long double *util = NULL;
	size_t *idx = NULL, nidx = 0, ng = 0, i, j0, g, nb = s->nb;
	struct rtab t;
	char b[256];
	int na, nk = 0, j, utilok, keyless = report_nkeys(o) == 0;

	na = report_cols(o, all);
	for (j = 0; j < na; j++)
		if (all[j].key)
			kc[nk++] = all[j];
	if ((idx = calloc(s->n + 1, sizeof(*idx))) == NULL ||
	    (cpu = calloc(nb + 1, sizeof(*cpu))) == NULL ||
	    (util = calloc(nb + 1, sizeof(*util))) == NULL)
		goto nomem;
	/* The rows of keys (an empty bucket's zero row is no key's). */
	for (i = 0; i < s->n; i++)
		if (keyless || !s->rows[i].fill)
			idx[nidx++] = i;
	if (!keyless)
		report_sort_keys(o, s, idx, nidx);
	/* A group is a run of rows of the same keys. */
	for (i = 0, g = 0; i < nidx; i++)
		if (i == 0 || (!keyless && !report_same_keys(o,
		    &s->rows[idx[i - 1]], &s->rows[idx[i]])))
			g++;
	if ((gr = calloc(g + 1, sizeof(*gr))) == NULL)
		goto nomem;
	for (i = 0; i < nidx; i = j0) {
		struct group *x = &gr[ng++];
		const struct report_row *l = &s->rows[idx[i]];
		size_t bi;

		memset(cpu, 0, (nb + 1) * sizeof(*cpu));
		memset(util, 0, (nb + 1) * sizeof(*util));
		x->lead = idx[i];
		for (j0 = i; j0 < nidx && (keyless ||
		    report_same_keys(o, l, &s->rows[idx[j0]])); j0++) {
			const struct report_row *r = &s->rows[idx[j0]];
			long bx = report_bucket_of(s, r->bucket);

			if (bx >= 0)
				cpu[bx] += r->v[RM_USER_NS] + r->v[RM_SYS_NS];
			x->total += r->v[RM_USER_NS] + r->v[RM_SYS_NS];
		}
		utilok = nb > 0 && report_ncpu(o, s, l) > 0;
		for (bi = 0; bi < nb && utilok; bi++) {
			struct report_row at = *l;

			at.bucket = s->edge[bi];
			util[bi] = (long double)cpu[bi] * 100 /
			    ((long double)report_ncpu(o, s, &at) *
			    (long double)report_span(o, s, &at) * 1e9L);
		}
		qsort(cpu, nb, sizeof(*cpu), cmp_i128);
		qsort(util, nb, sizeof(*util), cmp_ld);
		snprintf(x->cell[0], sizeof(x->cell[0]), "%zu", nb);
		if (nb == 0)
			continue;
		fmt_secs128(x->cell[1], sizeof(x->cell[1]), cpu[rank(nb, 50)]);
		fmt_secs128(x->cell[2], sizeof(x->cell[2]), cpu[rank(nb, 95)]);
		fmt_secs128(x->cell[3], sizeof(x->cell[3]), cpu[nb - 1]);
		if (!utilok)
			continue;
		snprintf(x->cell[4], sizeof(x->cell[4]), "%.2Lf",
		    util[rank(nb, 50)]);
		snprintf(x->cell[5], sizeof(x->cell[5]), "%.2Lf",
		    util[rank(nb, 95)]);
		snprintf(x->cell[6], sizeof(x->cell[6]), "%.2Lf", util[nb - 1]);
	}
	/* The groups that used the most first, as the rows are. */
	if (ng > 1)
		qsort(gr, ng, sizeof(*gr), cmp_groups);

	/* Print: key columns, then the statistics (absent: not known). */
	rtab_init(&t);
	for (j = 0; j < nk; j++)
		rtab_col(&t, kc[j].name, kc[j].kind, kc[j].formats, 0, 0);
	rtab_col(&t, "tz", COL_TEXT, COLF_CSV, 0, 0);
	for (j = 0; j < NSTAT; j++)
		rtab_col(&t, stat_names[j], COL_NUM, COLF_ALL, 0, 0);
	for (g = 0; g < ng; g++) {
		rtab_row(&t);
		for (j = 0; j < nk; j++) {
			const char *v = report_value(o, s, &kc[j],
			    &s->rows[gr[g].lead], o->format, b, sizeof(b));

			rtab_put(&t, j, v == NULL && o->format == FMT_TABLE ?
			    "-" : v);
		}
		rtab_put(&t, nk, o->tz);
		for (j = 0; j < NSTAT; j++)
			rtab_put(&t, nk + 1 + j, gr[g].cell[j][0] != '\0' ?
			    gr[g].cell[j] : NULL);
	}
	report_title(&t, o);
	rtab_head(&t, "# p50, p95, max: nearest rank over the %zu "
	    "buckets, 0 where nothing ran\n", nb);
	rtab_meta(&t, "every", COL_TEXT, report_every_names[o->every]);
	rtab_meta(&t, "tz", COL_TEXT, o->tz);
	t.rows_name = "percentiles";
	j = rtab_print(fp, &t, o->format);
	rtab_free(&t);
	if (j != 0)
		goto nomem;
	free(idx);
	free(gr);
	free(cpu);
	free(util);
	return EXR_OK;
nomem:
	free(idx);
	free(gr);
	free(cpu);
	free(util);
	return ex_fail(err, EXR_NOMEM, 0, "no memory");
}
