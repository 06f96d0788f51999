/*
 * The charts' SVG writer: names from logs become XML text that no byte
 * can break (escaped, valid UTF-8, no character XML forbids), cut to a
 * length at a whole character; a chart with nothing in it still is a
 * whole SVG that says so.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../reports/chart.h"
#include "check.h"

/* What svg_text writes for s, cut at max (freed by the caller). */
static char *
text_of(const char *s, size_t max)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&buf, &n);

	if (fp == NULL)
		return NULL;
	svg_text(fp, s, max);
	fclose(fp);
	return buf;
}

static int
writes(const char *s, size_t max, const char *want)
{
	char *got = text_of(s, max);
	int ok = got != NULL && strcmp(got, want) == 0;

	if (!ok)
		fprintf(stderr, "  wrote [%s], want [%s]\n", got, want);
	free(got);
	return ok;
}

/*
 * Is s XML character data as written here: printable ASCII but the
 * markup characters (which only come as the five entities), or a
 * well-formed UTF-8 sequence of a character from U+00A0 up that is not
 * a surrogate, U+FFFE or U+FFFF?  Written apart from svg.c's decoder,
 * by code points.
 */
static int
xml_clean(const char *str)
{
	static const char *const ent[] = { "&amp;", "&lt;", "&gt;",
	    "&quot;", "&apos;" };
	const unsigned char *s = (const unsigned char *)str;
	unsigned long cp, min;
	size_t i, n, k;

	while (*s != '\0') {
		if (*s == '&') {
			for (k = 0; k < 5; k++)
				if (strncmp((const char *)s, ent[k],
				    strlen(ent[k])) == 0)
					break;
			if (k == 5)
				return 0;
			s += strlen(ent[k]);
			continue;
		}
		if (*s < 0x80) {
			if (*s < 0x20 || *s == 0x7f || *s == '<' || *s == '>' ||
			    *s == '"' || *s == '\'')
				return 0;
			s++;
			continue;
		}
		if ((*s & 0xe0) == 0xc0)
			n = 2, cp = *s & 0x1f, min = 0x80;
		else if ((*s & 0xf0) == 0xe0)
			n = 3, cp = *s & 0x0f, min = 0x800;
		else if ((*s & 0xf8) == 0xf0)
			n = 4, cp = *s & 0x07, min = 0x10000;
		else
			return 0;
		for (i = 1; i < n; i++) {
			if ((s[i] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (s[i] & 0x3f);
		}
		if (cp < min || cp < 0xa0 || cp > 0x10ffff ||
		    (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe ||
		    cp == 0xffff)
			return 0;
		s += n;
	}
	return 1;
}

static void
svg_text_cases(void)
{
	CHECK("markup", writes("<b>&\"'", 0, "&lt;b&gt;&amp;&quot;&apos;"));
	CHECK("control and DEL", writes("a\001\t\177", 0, "a\\001\\011\\177"));
	CHECK("backslash, as in the tables", writes("a\\b", 0, "a\\134b"));
	CHECK("UTF-8 kept", writes("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
	    0, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
	CHECK("a lone byte >= 0x80", writes("\xff" "a\x80", 0,
	    "\\377a\\200"));
	CHECK("overlong", writes("\xc0\xaf\xe0\x80\xaf", 0,
	    "\\300\\257\\340\\200\\257"));
	CHECK("surrogate", writes("\xed\xa0\x80", 0, "\\355\\240\\200"));
	CHECK("U+FFFE", writes("\xef\xbf\xbe", 0, "\\357\\277\\276"));
	CHECK("U+FFFF", writes("\xef\xbf\xbf", 0, "\\357\\277\\277"));
	CHECK("C1 control", writes("\xc2\x85", 0, "\\302\\205"));
	CHECK("past U+10FFFF", writes("\xf4\x90\x80\x80", 0,
	    "\\364\\220\\200\\200"));
	CHECK("cut short at the end", writes("x\xe2\x82", 0, "x\\342\\202"));
	CHECK("cut at max characters", writes("abcdef", 3,
	    "abc\xe2\x80\xa6"));
	CHECK("not cut at max", writes("abc", 3, "abc"));
	CHECK("cut counts characters, not bytes",
	    writes("\xc3\xa9\xc3\xa9\xc3\xa9", 2,
	    "\xc3\xa9\xc3\xa9\xe2\x80\xa6"));
}

/* 200,000 strings of random bytes: all written as clean XML text. */
static void
svg_text_random(void)
{
	unsigned long x = 12345;
	char in[12], *out;
	int i, j, bad = 0;

	for (i = 0; i < 200000 && bad < 5; i++) {
		int len = 1 + i % 11;

		for (j = 0; j < len; j++) {
			x = x * 6364136223846793005UL + 1442695040888963407UL;
			/* Bias towards UTF-8 lead and continuation bytes. */
			in[j] = (char)((x >> 33) % 3 == 0 ? 0x80 | (x >> 40 &
			    0x3f) : (x >> 41) & 0xff);
			if (in[j] == '\0')
				in[j] = 'z';
		}
		in[len] = '\0';
		out = text_of(in, (size_t)(i % 7));
		if (out == NULL || !xml_clean(out)) {
			bad++;
			fprintf(stderr, "  not clean: [%s]\n", out);
		}
		free(out);
	}
	CHECK("random bytes give clean XML text", bad == 0);
}

/* What svg_chart writes for c (freed by the caller). */
static char *
chart_of(const struct chart *c)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&buf, &n);

	if (fp == NULL)
		return NULL;
	svg_chart(fp, c, 1);
	fclose(fp);
	return buf;
}

static int
count(const char *s, const char *what)
{
	int n = 0;

	while ((s = strstr(s, what)) != NULL) {
		n++;
		s++;
	}
	return n;
}

static void
svg_chart_cases(void)
{
	int64_t edge[3] = { 1700000000, 1700003600, 1700007200 };
	double v[4] = { 1.5, 0.5, 0.25, 0 };
	char name[2][128] = { "<x>", "other (3 commands)" };
	struct chart c;
	char *s;

	chart_init(&c, CHART_STACKED);
	snprintf(c.title, sizeof(c.title), "CPU by command");
	s = chart_of(&c);
	CHECK("empty: a whole SVG", s != NULL && strncmp(s, "<?xml", 5) == 0 &&
	    strstr(s, "</svg>\n") != NULL &&
	    strstr(s, "no data in this window") != NULL &&
	    strstr(s, "class=\"series\"") == NULL);
	free(s);

	c.nb = 2;
	c.edge = edge;
	c.ns = 2;
	c.name = name;
	c.v = v;
	c.has_other = 1;
	s = chart_of(&c);
	CHECK("two series", s != NULL &&
	    strstr(s, "class=\"legend\">&lt;x&gt;<") != NULL &&
	    strstr(s, "fill=\"#a0a0a0\"") != NULL &&	/* other: grey */
	    strstr(s, "no data") == NULL);
	/* 1.75 CPUs at most: the axis tops at 2, ticks at 0.5 apart. */
	CHECK("round ticks", s != NULL &&
	    strstr(s, "class=\"ytick\">2.0<") != NULL &&
	    strstr(s, "class=\"ytick\">0.5<") != NULL &&
	    strstr(s, "class=\"ytick\">2.5<") == NULL);
	free(s);

	c.kind = CHART_LINES;
	c.has_other = 0;
	c.ref = 1.0;
	v[1] = NAN;
	s = chart_of(&c);
	CHECK("lines: a point per value, none for the gap", s != NULL &&
	    count(s, "class=\"point\"") == 3 && strstr(s, "nan") == NULL &&
	    count(s, "class=\"series\"") == 2 &&
	    strstr(s, "stroke-dasharray") != NULL);
	free(s);
}

void
suite_chart(void)
{
	svg_text_cases();
	svg_text_random();
	svg_chart_cases();
}
