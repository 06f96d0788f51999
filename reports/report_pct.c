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

/* Do rows a and b hold the same keys? */
static int
same_keys(const struct report_opts *o, const struct report_row *a,
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

int
report_percentiles(FILE *fp, const struct report_opts *o,
    const struct report_set *s, struct ex_err *err)
{
	static struct report_col all[REPORT_MAXCOLS];
	struct report_col kc[REPORT_MAXCOLS];
	__int128 *cpu = NULL;
	long double *util = NULL;
	size_t *lead = NULL, ng = 0, i, g, nb = s->nb;
	char (*cell)[NSTAT][64] = NULL, b[256], e[1024];
	int na, nk = 0, j, utilok;
	size_t w[REPORT_MAXCOLS + NSTAT];

	na = report_cols(o, all);
	for (j = 0; j < na; j++)
		if (all[j].key && (all[j].formats & (o->format == FMT_TABLE ?
		    COLF_TABLE : o->format == FMT_CSV ? COLF_CSV : COLF_JSON)))
			kc[nk++] = all[j];
	/* The groups: the first row of each set of keys, fills left out. */
	if ((lead = calloc(s->n + 1, sizeof(*lead))) == NULL ||
	    (cell = calloc(s->n + 1, sizeof(*cell))) == NULL ||
	    (cpu = calloc(nb + 1, sizeof(*cpu))) == NULL ||
	    (util = calloc(nb + 1, sizeof(*util))) == NULL)
		goto nomem;
	for (i = 0; i < s->n; i++) {
		if (s->rows[i].fill)
			continue;
		for (g = 0; g < ng; g++)
			if (same_keys(o, &s->rows[lead[g]], &s->rows[i]))
				break;
		if (g == ng)
			lead[ng++] = i;
	}
	if (ng == 0 && report_nkeys(o) == 0 && nb > 0)
		lead[ng++] = 0;		/* keyless, all quiet: one group */
	for (g = 0; g < ng; g++) {
		const struct report_row *l = &s->rows[lead[g]];
		size_t bi;

		memset(cpu, 0, (nb + 1) * sizeof(*cpu));
		memset(util, 0, (nb + 1) * sizeof(*util));
		utilok = nb > 0 && report_ncpu(o, s, l) > 0;
		for (i = 0; i < s->n; i++) {
			const struct report_row *r = &s->rows[i];
			long x;

			if ((r->fill && report_nkeys(o) > 0) ||
			    (!r->fill && !same_keys(o, l, r)) ||
			    (x = report_bucket_of(s, r->bucket)) < 0)
				continue;
			cpu[x] += r->v[RM_USER_NS] + r->v[RM_SYS_NS];
		}
		for (bi = 0; bi < nb && utilok; bi++) {
			struct report_row t = *l;

			t.bucket = s->edge[bi];
			util[bi] = (long double)cpu[bi] * 100 /
			    ((long double)report_ncpu(o, s, &t) *
			    (long double)report_span(o, s, &t) * 1e9L);
		}
		qsort(cpu, nb, sizeof(*cpu), cmp_i128);
		qsort(util, nb, sizeof(*util), cmp_ld);
		snprintf(cell[g][0], sizeof(cell[g][0]), "%zu", nb);
		if (nb == 0)
			continue;
		fmt_secs128(cell[g][1], sizeof(cell[g][1]), cpu[rank(nb, 50)]);
		fmt_secs128(cell[g][2], sizeof(cell[g][2]), cpu[rank(nb, 95)]);
		fmt_secs128(cell[g][3], sizeof(cell[g][3]), cpu[nb - 1]);
		if (!utilok)
			continue;
		snprintf(cell[g][4], sizeof(cell[g][4]), "%.2Lf",
		    util[rank(nb, 50)]);
		snprintf(cell[g][5], sizeof(cell[g][5]), "%.2Lf",
		    util[rank(nb, 95)]);
		snprintf(cell[g][6], sizeof(cell[g][6]), "%.2Lf", util[nb - 1]);
	}

	/* Print: key columns, then the statistics (blank: not known). */
#define KEYVAL(g, j) report_value(o, s, &kc[j], &s->rows[lead[g]], \
	o->format, b, sizeof(b))
	if (o->format == FMT_TABLE) {
		for (j = 0; j < nk; j++) {
			w[j] = strlen(kc[j].name);
			for (g = 0; g < ng; g++) {
				const char *v = KEYVAL(g, j);

				fmt_escape(e, sizeof(e), v != NULL ? v : "-",
				    ESC_SPACE);
				if (strlen(e) > w[j])
					w[j] = strlen(e);
			}
		}
		for (j = 0; j < NSTAT; j++) {
			w[nk + j] = strlen(stat_names[j]);
			for (g = 0; g < ng; g++)
				if (strlen(cell[g][j]) > w[nk + j])
					w[nk + j] = strlen(cell[g][j]);
		}
		report_title(fp, o);
		fprintf(fp, "# p50, p95, max: nearest rank over the %zu "
		    "buckets, 0 where nothing ran\n", nb);
		for (g = 0; g <= ng; g++) {
			char line[4096];
			size_t at = 0;

			/* g == 0: the names; then group g - 1. */
			for (j = 0; j < nk + NSTAT; j++) {
				const char *v;
				int left = j < nk;

				if (g == 0)
					v = j < nk ? kc[j].name : stat_names[j - nk];
				else if (j < nk) {
					v = KEYVAL(g - 1, j);
					v = fmt_escape(e, sizeof(e), v != NULL ? v :
					    "-", ESC_SPACE);
				} else
					v = cell[g - 1][j - nk];
				if (at < sizeof(line))
					at += (size_t)snprintf(line + at,
					    sizeof(line) - at, left ? "%s%-*s" :
					    "%s%*s", j > 0 ? " " : "",
					    (int)w[j], v);
			}
			if (at >= sizeof(line))
				at = sizeof(line) - 1;
			while (at > 0 && line[at - 1] == ' ')
				at--;
			fprintf(fp, "%.*s\n", (int)at, line);
		}
	} else if (o->format == FMT_CSV) {
		for (j = 0; j < nk; j++)
			fprintf(fp, "%s,", kc[j].name);
		fputs("tz", fp);
		for (j = 0; j < NSTAT; j++)
			fprintf(fp, ",%s", stat_names[j]);
		fputs("\r\n", fp);
		for (g = 0; g < ng; g++) {
			for (j = 0; j < nk; j++) {
				const char *v = KEYVAL(g, j);

				if (v != NULL) {
					if (kc[j].kind == COL_TEXT)
						csv_raw(fp, v);
					else
						fputs(v, fp);
				}
				fputc(',', fp);
			}
			csv_raw(fp, o->tz);
			for (j = 0; j < NSTAT; j++)
				fprintf(fp, ",%s", cell[g][j]);
			fputs("\r\n", fp);
		}
	} else {
		fprintf(fp, "{\"every\": \"%s\", \"tz\": ",
		    report_every_names[o->every]);
		json_raw(fp, o->tz);
		fputs(", \"percentiles\": [", fp);
		for (g = 0; g < ng; g++) {
			fprintf(fp, "%s\n  {", g > 0 ? "," : "");
			for (j = 0; j < nk; j++) {
				const char *v = KEYVAL(g, j);

				fprintf(fp, "\"%s\": ", kc[j].name);
				if (v == NULL)
					fputs("null", fp);
				else if (kc[j].kind == COL_TEXT)
					json_raw(fp, v);
				else
					fputs(v, fp);
				fputs(", ", fp);
			}
			for (j = 0; j < NSTAT; j++)
				fprintf(fp, "%s\"%s\": %s", j > 0 ? ", " : "",
				    stat_names[j], cell[g][j][0] != '\0' ?
				    cell[g][j] : "null");
			fputc('}', fp);
		}
		fputs("\n]}\n", fp);
	}
#undef KEYVAL
	free(lead);
	free(cell);
	free(cpu);
	free(util);
	return EXR_OK;
nomem:
	free(lead);
	free(cell);
	free(cpu);
	free(util);
	return ex_fail(err, EXR_NOMEM, 0, "no memory");
}
