/*
 * The usage report as a table for a terminal: text escaped (spaces too,
 * so columns still split on whitespace), each column as wide as its
 * widest value, and a column no row has a value for left out (a pacct
 * host has no read_bytes: the table does not show a column of blanks).
 */
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "report_int.h"

/* Column c's text in row r, escaped for a terminal; NULL if absent. */
static const char *
cell(const struct report_opts *o, const struct report_set *s,
    const struct report_col *c, const struct report_row *r, char *b,
    size_t n)
{
	char raw[256];
	const char *v = report_value(o, s, c, r, FMT_TABLE, raw, sizeof(raw));

	if (v == NULL)
		return NULL;
	return fmt_escape(b, n, v, ESC_SPACE);
}

/*
 * Column j of nc, width w, onto line l[n] at *at: text to the left,
 * numbers to the right.
 */
static void
put(char *l, size_t n, size_t *at, const struct report_col *c, int j,
    size_t w, const char *v)
{
	int k;

	if (*at >= n)
		return;
	k = snprintf(l + *at, n - *at, c->kind == COL_TEXT ? "%s%-*s" :
	    "%s%*s", j > 0 ? " " : "", (int)w, v);
	if (k > 0)
		*at += (size_t)k;
}

/* The line, without the blanks a last empty column leaves. */
static void
put_line(FILE *fp, char *l, size_t n, size_t at)
{
	if (at >= n)
		at = n - 1;
	while (at > 0 && l[at - 1] == ' ')
		at--;
	fwrite(l, 1, at, fp);
	fputc('\n', fp);
}

void
report_table(FILE *fp, const struct report_opts *o,
    const struct report_set *s)
{
	static struct report_col all[REPORT_MAXCOLS], c[REPORT_MAXCOLS];
	static char line[REPORT_MAXCOLS * 1100];
	size_t w[REPORT_MAXCOLS], i, l, at;
	char b[1024];
	int na, nc = 0, j;

	na = report_cols(o, all);
	for (j = 0; j < na; j++) {
		int keep = all[j].kind == COL_TEXT || strcmp(all[j].name,
		    "calls") == 0;

		if (!(all[j].formats & COLF_TABLE))
			continue;
		for (i = 0; !keep && i < s->n; i++)
			keep = cell(o, s, &all[j], &s->rows[i], b,
			    sizeof(b)) != NULL;
		if (keep)
			c[nc++] = all[j];
	}
	for (j = 0; j < nc; j++) {
		w[j] = strlen(c[j].name);
		for (i = 0; i < s->n; i++) {
			const char *v = cell(o, s, &c[j], &s->rows[i], b,
			    sizeof(b));

			if (v != NULL && (l = strlen(v)) > w[j])
				w[j] = l;
		}
	}
	report_title(fp, o);
	at = 0;
	for (j = 0; j < nc; j++)
		put(line, sizeof(line), &at, &c[j], j, w[j], c[j].name);
	put_line(fp, line, sizeof(line), at);
	for (i = 0; i < s->n; i++) {
		at = 0;
		for (j = 0; j < nc; j++) {
			const char *v = cell(o, s, &c[j], &s->rows[i], b,
			    sizeof(b));

			put(line, sizeof(line), &at, &c[j], j, w[j],
			    v != NULL ? v : "");
		}
		put_line(fp, line, sizeof(line), at);
	}
}
