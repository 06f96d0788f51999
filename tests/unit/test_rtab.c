/*
 * rtab: how each writer spells a cell (rtab.h's table), the table's
 * widths, escapes and left-out columns, notes between rows, and the
 * total row (a table row, JSON's "total", not in CSV).
 */
#include <stdlib.h>
#include <string.h>

#include "../../reports/rtab.h"
#include "check.h"

/* t printed in fmt, as a string to free. */
static char *
printed(const struct rtab *t, enum report_format fmt)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&buf, &n);

	if (fp == NULL)
		return NULL;
	rtab_print(fp, t, fmt);
	fclose(fp);
	return buf;
}

static int
prints(const struct rtab *t, enum report_format fmt, const char *want)
{
	char *got = printed(t, fmt);
	int ok = got != NULL && strcmp(got, want) == 0;

	if (!ok)
		fprintf(stderr, "rtab: want\n%s\ngot\n%s\n", want,
		    got != NULL ? got : "(null)");
	free(got);
	return ok;
}

/* Two rows and a total: a name with a space, an unknown ratio. */
static void
sample(struct rtab *t)
{
	int j;

	rtab_init(t);
	rtab_col(t, "host", COL_TEXT, COLF_ALL, 0, 0);
	rtab_col(t, "when", COL_TEXT, COLF_TABLE, RTC_OURS, 0);
	rtab_col(t, "cpu_s", COL_NUM, COLF_ALL, 0, 6);
	j = rtab_col(t, "capture_ratio", COL_NUM, COLF_ALL, 0, 0);
	snprintf(t->col[j].tname, sizeof(t->col[j].tname), "ratio");
	rtab_col(t, "bytes", COL_NUM, COLF_ALL, 0, 0);	/* never a value */
	rtab_col(t, "tz", COL_TEXT, COLF_CSV, 0, 0);
	rtab_head(t, "# title\n");
	rtab_note(t, "# before the rows\n");
	rtab_row(t);
	rtab_put(t, 0, "a b");
	rtab_put(t, 1, "2023-11-10 00:00");
	rtab_put(t, 2, "1.500");
	rtab_put(t, 3, "-");
	rtab_put(t, 5, "UTC");
	rtab_note(t, "  top: after a b\n");
	rtab_row(t);
	rtab_put(t, 0, "=x,\"y\"");
	rtab_putf(t, 2, "%d.%03d", 12, 250);
	rtab_put(t, 3, "0.500");
	rtab_put(t, 5, "UTC");
	rtab_total(t);
	rtab_put(t, 2, "13.750");
	rtab_meta(t, "tz", COL_TEXT, "UTC");
	rtab_meta(t, "tolerance", COL_NUM, "0.05");
	t->rows_name = "windows";
}

void
suite_rtab(void)
{
	struct rtab t;

	sample(&t);
	CHECK("table: widths, escapes, notes, total", prints(&t, FMT_TABLE,
	    "# title\n"
	    "host   when              cpu_s ratio bytes\n"
	    "# before the rows\n"
	    "a\\040b 2023-11-10 00:00  1.500     -\n"
	    "  top: after a b\n"
	    "=x,\"y\"                  12.250 0.500\n"
	    "                        13.750\n"));
	t.drop_empty = 1;
	CHECK("table: an empty number column left out", prints(&t,
	    FMT_TABLE,
	    "# title\n"
	    "host   when              cpu_s ratio\n"
	    "# before the rows\n"
	    "a\\040b 2023-11-10 00:00  1.500     -\n"
	    "  top: after a b\n"
	    "=x,\"y\"                  12.250 0.500\n"
	    "                        13.750\n"));
	CHECK("csv: quoted, guarded, no total, no notes", prints(&t,
	    FMT_CSV,
	    "host,cpu_s,capture_ratio,bytes,tz\r\n"
	    "a b,1.500,-,,UTC\r\n"
	    "\"'=x,\"\"y\"\"\",12.250,0.500,,UTC\r\n"));
	CHECK("json: null for absent and '-', total apart", prints(&t,
	    FMT_JSON,
	    "{\"tz\": \"UTC\", \"tolerance\": 0.05, \"windows\": [\n"
	    "  {\"host\": \"a b\", \"cpu_s\": 1.500, \"capture_ratio\": null, "
	    "\"bytes\": null},\n"
	    "  {\"host\": \"=x,\\\"y\\\"\", \"cpu_s\": 12.250, "
	    "\"capture_ratio\": 0.500, \"bytes\": null}\n"
	    "], \"total\": {\"cpu_s\": 13.750}}\n"));
	rtab_free(&t);

	rtab_init(&t);
	rtab_col(&t, "x", COL_NUM, COLF_ALL, 0, 0);
	CHECK("json: no rows", prints(&t, FMT_JSON, "{\"rows\": [\n]}\n"));
	CHECK("table: no rows, the names", prints(&t, FMT_TABLE, "x\n"));
	t.nomem = 1;
	CHECK("out of memory: nothing printed", rtab_print(stdout, &t,
	    FMT_CSV) == -1);
	rtab_free(&t);
}
