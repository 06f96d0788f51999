/*
 * The usage report as JSON: one object naming the keys, buckets and
 * zone, a row object per row with the columns of report_cols.c: ids and
 * measures as numbers, a value never recorded as null.
 */
#include <string.h>

#include "report_int.h"

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

void
report_json(FILE *fp, const struct report_opts *o,
    const struct report_set *s)
{
	static struct report_col c[REPORT_MAXCOLS];
	char b[256];
	size_t i;
	int j, k, nc, first;

	nc = report_cols(o, c);
	fputs("{\"by\": \"", fp);
	for (k = 0; k < report_nkeys(o); k++)
		fprintf(fp, "%s%s", k > 0 ? "," : "",
		    report_by_names[report_key(o, k)]);
	fputc('"', fp);
	if (o->every != EVERY_NONE)
		fprintf(fp, ", \"every\": \"%s\"",
		    report_every_names[o->every]);
	fputs(", \"tz\": ", fp);
	json_raw(fp, o->tz);
	fputs(", \"apportioned\": \"" REPORT_APPORTIONED "\"", fp);
	fputs(", \"rows\": [", fp);
	for (i = 0; i < s->n; i++) {
		fprintf(fp, "%s\n  {", i > 0 ? "," : "");
		for (j = 0, first = 1; j < nc; j++) {
			const char *v;

			if (!(c[j].formats & COLF_JSON))
				continue;
			fprintf(fp, "%s\"%s\": ", first ? "" : ", ", c[j].name);
			first = 0;
			v = report_value(o, s, &c[j], &s->rows[i], FMT_JSON, b,
			    sizeof(b));
			if (v == NULL)
				fputs("null", fp);
			else if (c[j].kind == COL_TEXT)
				json_raw(fp, v);
			else
				fputs(v, fp);
		}
		fputc('}', fp);
	}
	fputs("\n]}\n", fp);
}
