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
 * Column j of nc, width w: text to the left (the last one unpadded, so
 * no line ends in blanks), numbers to the right.
 */
static void
put(FILE *fp, const struct report_col *c, int j, int nc, size_t w,
    const char *v)
{
	if (j > 0)
		fputc(' ', fp);
	if (c->kind == COL_TEXT && j + 1 == nc)
		fputs(v, fp);
	else if (c->kind == COL_TEXT)
		fprintf(fp, "%-*s", (int)w, v);
	else
		fprintf(fp, "%*s", (int)w, v);
}

void
report_table(FILE *fp, const struct report_opts *o,
    const struct report_set *s)
{
	static struct report_col all[REPORT_MAXCOLS], c[REPORT_MAXCOLS];
	size_t w[REPORT_MAXCOLS], i, l;
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
	for (j = 0; j < nc; j++)
		put(fp, &c[j], j, nc, w[j], c[j].name);
	fputc('\n', fp);
	for (i = 0; i < s->n; i++) {
		for (j = 0; j < nc; j++) {
			const char *v = cell(o, s, &c[j], &s->rows[i], b,
			    sizeof(b));

			put(fp, &c[j], j, nc, w[j], v != NULL ? v : "");
		}
		fputc('\n', fp);
	}
}
