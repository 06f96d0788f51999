/*
 * The usage report as CSV (RFC 4180): the columns of report_cols.c, a
 * name per column, an empty cell for a value never recorded.  Names are
 * written as they are, not escaped for a terminal: quoted when they
 * hold a comma, a quote or a line end, and guarded against formula
 * injection, as every CSV cell is (csv.h's csv_field).
 */
#include <string.h>

#include "csv.h"
#include "report_int.h"

void
report_csv(FILE *fp, const struct report_opts *o, const struct report_set *s)
{
	static struct report_col c[REPORT_MAXCOLS];
	char b[256];
	size_t i;
	int j, nc, first;

	nc = report_cols(o, c);
	for (j = 0, first = 1; j < nc; j++)
		if (c[j].formats & COLF_CSV) {
			fprintf(fp, "%s%s", first ? "" : ",", c[j].name);
			first = 0;
		}
	fputs("\r\n", fp);
	for (i = 0; i < s->n; i++) {
		for (j = 0, first = 1; j < nc; j++) {
			const char *v;

			if (!(c[j].formats & COLF_CSV))
				continue;
			if (!first)
				fputc(',', fp);
			first = 0;
			v = report_value(o, s, &c[j], &s->rows[i], FMT_CSV, b,
			    sizeof(b));
			if (v == NULL)
				continue;
			if (c[j].kind == COL_TEXT)
				csv_field(fp, v);
			else
				fputs(v, fp);
		}
		fputs("\r\n", fp);
	}
}
