/*
 * The writers of rtab.h, one per format: a table for a terminal, CSV
 * (RFC 4180) and JSON.  rtab.h's table says how each spells a cell.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "fmt.h"
#include "rtab.h"

/* Cell (i, j)'s text, or NULL when absent. */
static const char *
cell(const struct rtab *t, size_t i, int j)
{
	size_t off = t->cell[i * (size_t)t->ncol + (size_t)j];

	return off == SIZE_MAX ? NULL : t->arena + off;
}

/* v as the table shows it in column c: data escaped, so columns split
 * on blanks; numbers and extracct's own text as they are. */
static const char *
shown(const struct rtab_col *c, const char *v, char *b, size_t n)
{
	if (v == NULL)
		return "";
	if (c->kind != COL_TEXT || (c->flags & RTC_OURS))
		return v;
	return fmt_escape(b, n, v, ESC_SPACE);
}

/* The notes before row i (RTAB_HEAD: above the names). */
static void
notes(FILE *fp, const struct rtab *t, size_t i)
{
	size_t k;

	for (k = 0; k < t->nnote; k++)
		if (t->note[k].before == i)
			fputs(t->arena + t->note[k].off, fp);
}

/*
 * One line of the table: each column padded to its width, text to the
 * left, numbers to the right, without the blanks a last column leaves.
 */
static void
line(FILE *fp, const struct rtab *t, const int *cols, int nc,
    const size_t *w, size_t row, char *l)
{
	char b[4096];
	size_t at = 0;
	int k;

	for (k = 0; k < nc; k++) {
		const struct rtab_col *c = &t->col[cols[k]];
		const char *v = row == SIZE_MAX ? (c->tname[0] != '\0' ?
		    c->tname : c->name) : shown(c, cell(t, row, cols[k]), b,
		    sizeof(b));
		size_t n = strlen(v), pad = w[k] > n ? w[k] - n : 0;

		if (k > 0)
			l[at++] = ' ';
		if (c->kind == COL_NUM) {
			memset(l + at, ' ', pad);
			at += pad;
		}
		memcpy(l + at, v, n);
		at += n;
		if (c->kind != COL_NUM) {
			memset(l + at, ' ', pad);
			at += pad;
		}
	}
	while (at > 0 && l[at - 1] == ' ')
		at--;
	fwrite(l, 1, at, fp);
	fputc('\n', fp);
}

static int
table(FILE *fp, const struct rtab *t)
{
	int cols[RTAB_MAXCOLS], nc = 0, j;
	size_t w[RTAB_MAXCOLS], i, len = 1;
	char b[4096], *l;

	for (j = 0; j < t->ncol; j++) {
		const struct rtab_col *c = &t->col[j];
		int keep = !t->drop_empty || c->kind == COL_TEXT ||
		    (c->flags & RTC_KEEP);

		if (!(c->formats & COLF_TABLE))
			continue;
		for (i = 0; !keep && i < t->nrow; i++)
			keep = cell(t, i, j) != NULL;
		if (!keep)
			continue;
		w[nc] = strlen(c->tname[0] != '\0' ? c->tname : c->name);
		if (w[nc] < (size_t)c->minw)
			w[nc] = (size_t)c->minw;
		for (i = 0; i < t->nrow; i++) {
			size_t n = strlen(shown(c, cell(t, i, j), b,
			    sizeof(b)));

			if (n > w[nc])
				w[nc] = n;
		}
		len += w[nc] + 1;
		cols[nc++] = j;
	}
	if ((l = malloc(len)) == NULL)
		return -1;
	notes(fp, t, RTAB_HEAD);
	line(fp, t, cols, nc, w, SIZE_MAX, l);
	for (i = 0; i < t->nrow; i++) {
		notes(fp, t, i);
		line(fp, t, cols, nc, w, i, l);
	}
	notes(fp, t, t->nrow);
	free(l);
	return 0;
}

static void
csv(FILE *fp, const struct rtab *t)
{
	size_t i;
	int j, first;

	for (j = 0, first = 1; j < t->ncol; j++)
		if (t->col[j].formats & COLF_CSV) {
			fprintf(fp, "%s%s", first ? "" : ",", t->col[j].name);
			first = 0;
		}
	fputs("\r\n", fp);
	for (i = 0; i < t->nrow; i++) {
		if (i == t->total)
			continue;	/* a spreadsheet sums for itself */
		for (j = 0, first = 1; j < t->ncol; j++) {
			const char *v = cell(t, i, j);

			if (!(t->col[j].formats & COLF_CSV))
				continue;
			if (!first)
				fputc(',', fp);
			first = 0;
			if (v == NULL)
				continue;
			if (t->col[j].kind == COL_NUM)
				fputs(v, fp);
			else
				csv_field(fp, v);
		}
		fputs("\r\n", fp);
	}
}

/*
 * A JSON string of s as it is (the name, not a terminal's escape of
 * it): '"', '\' and control bytes as JSON escapes, UTF-8 as \u escapes
 * (so the output stays ASCII), and a byte that is not UTF-8 as the
 * Latin-1 character of its value (\u00e9 for 0xe9): JSON must be
 * Unicode, and a command name may be any bytes.
 */
void
json_raw(FILE *fp, const char *src)
{
	const unsigned char *s = (const unsigned char *)src;
	unsigned long cp;
	int len, k;

	putc('"', fp);
	while (*s != '\0') {
		len = *s < 0x80 ? 1 : (*s & 0xe0) == 0xc0 ? 2 :
		    (*s & 0xf0) == 0xe0 ? 3 : (*s & 0xf8) == 0xf0 ? 4 : 0;
		cp = len == 1 ? *s : len == 2 ? *s & 0x1fu : len == 3 ?
		    *s & 0x0fu : *s & 0x07u;
		for (k = 1; k < len; k++) {
			if ((s[k] & 0xc0) != 0x80)
				break;
			cp = cp << 6 | (s[k] & 0x3fu);
		}
		/* Not UTF-8 (short, overlong, a surrogate, too big). */
		if (len == 0 || k < len || (len == 2 && cp < 0x80) ||
		    (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
		    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) {
			cp = *s;
			len = 1;
		}
		s += len;
		if (cp == '"' || cp == '\\')
			fprintf(fp, "\\%c", (int)cp);
		else if (cp >= 0x20 && cp < 0x7f)
			putc((int)cp, fp);
		else if (cp < 0x10000)
			fprintf(fp, "\\u%04lx", cp);
		else {
			cp -= 0x10000;
			fprintf(fp, "\\u%04lx\\u%04lx", 0xd800 + (cp >> 10),
			    0xdc00 + (cp & 0x3ff));
		}
	}
	putc('"', fp);
}

/* A JSON value of kind k: a string, a number ("-": not known) or JSON. */
static void
json_value(FILE *fp, enum col_kind k, const char *v)
{
	if (v == NULL || (k == COL_NUM && strcmp(v, "-") == 0))
		fputs("null", fp);
	else if (k == COL_TEXT)
		json_raw(fp, v);
	else
		fputs(v, fp);
}

/* Row i's members; the total's leave out what it has no value for. */
static void
json_members(FILE *fp, const struct rtab *t, size_t i)
{
	int j, first = 1;

	for (j = 0; j < t->ncol; j++) {
		const char *v = cell(t, i, j);

		if (!(t->col[j].formats & COLF_JSON) ||
		    (i == t->total && v == NULL))
			continue;
		fprintf(fp, "%s\"%s\": ", first ? "" : ", ", t->col[j].name);
		first = 0;
		json_value(fp, t->col[j].kind, v);
	}
}

static void
json(FILE *fp, const struct rtab *t)
{
	size_t i, n = 0;
	int m;

	fputc('{', fp);
	for (m = 0; m < t->nmeta; m++) {
		fprintf(fp, "%s\"%s\": ", m > 0 ? ", " : "", t->meta[m].name);
		json_value(fp, t->meta[m].kind, t->meta[m].off == SIZE_MAX ?
		    NULL : t->arena + t->meta[m].off);
	}
	fprintf(fp, "%s\"%s\": [", t->nmeta > 0 ? ", " : "", t->rows_name);
	for (i = 0; i < t->nrow; i++) {
		if (i == t->total)
			continue;
		fprintf(fp, "%s\n  {", n++ > 0 ? "," : "");
		json_members(fp, t, i);
		fputc('}', fp);
	}
	fputs("\n]", fp);
	if (t->total != SIZE_MAX) {
		fputs(", \"total\": {", fp);
		json_members(fp, t, t->total);
		fputc('}', fp);
	}
	fputs("}\n", fp);
}

int
rtab_print(FILE *fp, const struct rtab *t, enum report_format fmt)
{
	if (t->nomem)
		return -1;
	switch (fmt) {
	case FMT_TABLE:
		return table(fp, t);
	case FMT_CSV:
		csv(fp, t);
		break;
	case FMT_JSON:
		json(fp, t);
		break;
	}
	return 0;
}
