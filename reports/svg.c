/*
 * Drawing a struct chart (chart.h) as SVG: a stacked area over time, a
 * line chart with a reference line, or horizontal bars, each with a
 * title, axes with units, ticks at round values and a legend.
 *
 * Plain SVG 1.1 and nothing else: no script, no external font or
 * style, so a browser, an image viewer or a mail client shows it the
 * same.  Every name in it came from a log (a command, a host): it is
 * written as XML text, escaped and made valid UTF-8, so no name can
 * break the file.  Coordinates are printed with one decimal, and
 * nothing depends on the clock or the locale's numbers: the same chart
 * gives the same bytes.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "chart.h"

/* The canvas of a time chart, and the plot inside it. */
#define W	960
#define H	440
#define PX0	80		/* plot left */
#define PX1	(W - 230)	/* plot right; the legend is beyond */
#define PY0	72		/* plot top */
#define PY1	(H - 70)	/* plot bottom; tick labels below */
#define LEGEND_X	(W - 210)
#define NAME_CHARS	26	/* legend and bar names are cut here */

/* Bars: one row each, the names to the left of the bars. */
#define BAR_ROW	26
#define BX0	240
#define BX1	(W - 150)

/*
 * Tableau's ten colours, in an order where neighbours differ in hue and
 * lightness; "other" is grey, set apart from all of them.
 */
static const char *const palette[] = {
	"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
	"#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#2f4b7c",
};
#define NPALETTE	(sizeof(palette) / sizeof(palette[0]))
#define OTHER_COLOUR	"#a0a0a0"

static const char *const bar_colour[3] = { "#4e79a7", "#f28e2b",
    OTHER_COLOUR };

static void	head(FILE *fp, const struct chart *c, int height,
		    int standalone);
static void	empty_box(FILE *fp, const struct chart *c);
static void	stacked(FILE *fp, const struct chart *c);
static void	lines(FILE *fp, const struct chart *c);
static void	bars(FILE *fp, const struct chart *c);
static double	y_axis(FILE *fp, const struct chart *c, double max);
static void	x_axis(FILE *fp, const struct chart *c);
static void	legend(FILE *fp, const struct chart *c);
static double	x_of(const struct chart *c, int64_t t);
static const char *series_colour(const struct chart *c, size_t s);

void
svg_chart(FILE *fp, const struct chart *c, int standalone)
{
	int empty = c->ns == 0 || (c->kind != CHART_BARS && c->nb == 0);
	int height = c->kind == CHART_BARS && !empty ?
	    PY0 + BAR_ROW * (int)c->ns + 90 : H;

	head(fp, c, height, standalone);
	if (empty)
		empty_box(fp, c);
	else if (c->kind == CHART_STACKED)
		stacked(fp, c);
	else if (c->kind == CHART_LINES)
		lines(fp, c);
	else
		bars(fp, c);
	fputs("</svg>\n", fp);
}

/*
 * The length of the valid UTF-8 sequence at p that is an XML character
 * (RFC 3629: no overlong form, no surrogate, at most U+10FFFF; XML 1.0
 * has no U+FFFE, U+FFFF or control character but tab and newlines), or
 * 0.
 */
static size_t
xml_char_len(const unsigned char *p)
{
	unsigned long cp;
	size_t n, i;

	if (p[0] < 0x80)
		return p[0] >= 0x20 && p[0] != 0x7f ? 1 : 0;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, cp = p[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)	/* also stops at the NUL */
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ||
	    cp == 0xfffe || cp == 0xffff || (cp >= 0x80 && cp <= 0x9f))
		return 0;
	return n;
}

void
svg_text(FILE *fp, const char *s, size_t max_chars)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n, chars = 0;

	for (; *p != '\0'; chars++) {
		if (max_chars > 0 && chars == max_chars) {
			fputs("\xe2\x80\xa6", fp);	/* U+2026 ... */
			return;
		}
		n = xml_char_len(p);
		/* What no XML text may hold, as fmt_escape writes it. */
		if (n == 0 || *p == '\\') {
			fprintf(fp, "\\%03o", *p++);
			continue;
		}
		switch (*p) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		case '\'': fputs("&apos;", fp); break;
		default: fwrite(p, 1, n, fp); break;
		}
		p += n;
	}
}

/* <text> at (x, y) with attributes extra, then s escaped. */
static void
text(FILE *fp, double x, double y, const char *extra, const char *s,
    size_t max_chars)
{
	fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\"%s%s>", x, y, extra[0] ?
	    " " : "", extra);
	svg_text(fp, s, max_chars);
	fputs("</text>\n", fp);
}

static void
head(FILE *fp, const struct chart *c, int height, int standalone)
{
	if (standalone)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", fp);
	fprintf(fp, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\""
	    " width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
	    " font-family=\"DejaVu Sans, Liberation Sans, Arial, sans-serif\""
	    " font-size=\"12\" role=\"img\">\n", W, height, W, height);
	fputs("<title>", fp);
	svg_text(fp, c->title, 0);
	fputs("</title>\n", fp);
	fprintf(fp, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\""
	    " fill=\"#ffffff\"/>\n", W, height);
	text(fp, PX0, 26, "font-size=\"17\" font-weight=\"bold\""
	    " class=\"title\"", c->title, 0);
	text(fp, PX0, 46, "fill=\"#444444\" class=\"subtitle\"", c->subtitle,
	    0);
	if (c->note[0] != '\0')
		text(fp, PX0, 62, "font-size=\"11\" fill=\"#a33a2a\""
		    " class=\"note\"", c->note, 0);
}

/*
 * The buckets the hosts' snapshots cover only in part, greyed over the
 * plot's height: their values are over the part observed, which the
 * tooltip gives ("observed 1 min of 60").
 */
static void
coverage(FILE *fp, const struct chart *c)
{
	size_t b;
	double x0, x1, len, seen;
	const char *unit;

	for (b = 0; c->cover != NULL && b < c->nb; b++) {
		if (isnan(c->cover[b]) || c->cover[b] >= 0.9995)
			continue;
		len = (double)(c->edge[b + 1] - c->edge[b]);
		seen = c->cover[b] * len;
		x0 = x_of(c, c->edge[b]);
		x1 = x_of(c, c->edge[b + 1]);
		unit = c->daily ? "h" : "min";
		fprintf(fp, "<rect class=\"coverage\" x=\"%.1f\" y=\"%d\""
		    " width=\"%.1f\" height=\"%d\" fill=\"#000000\""
		    " fill-opacity=\"0.10\" data-observed-s=\"%.0f\""
		    " data-bucket-s=\"%.0f\"><title>observed %.*f %s of %.0f"
		    "</title></rect>\n", x0, PY0, x1 - x0 > 0.5 ? x1 - x0 : 0.5,
		    PY1 - PY0, seen, len, c->daily ? 1 : 0, c->daily ?
		    seen / 3600 : seen / 60, unit, c->daily ? len / 3600 :
		    len / 60);
	}
}

static void
empty_box(FILE *fp, const struct chart *c)
{
	fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\""
	    " fill=\"#f4f4f4\" stroke=\"#999999\"/>\n", PX0, PY0, W - 40 - PX0,
	    PY1 - PY0);
	text(fp, (PX0 + W - 40) / 2.0, (PY0 + PY1) / 2.0,
	    "font-size=\"16\" text-anchor=\"middle\" fill=\"#555555\""
	    " class=\"empty\"",
	    c->empty[0] ? c->empty : "no data in this window", 0);
}

/* A round step near range / ticks: 1, 2 or 5 times a power of ten. */
static double
nice_step(double range, int ticks)
{
	double raw = range / ticks, mag = pow(10, floor(log10(raw))),
	    norm = raw / mag;

	return (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * mag;
}

/* An axis from 0 past max: its tick step, its top (a whole number of
 * steps) and the decimals its labels need. */
struct ticks {
	double	 step, top;
	int	 decimals;
};

static struct ticks
axis_ticks(double max)
{
	struct ticks t;

	if (!(max > 0))
		max = 1;
	t.step = nice_step(max, 5);
	t.top = ceil(max / t.step - 1e-9) * t.step;
	t.decimals = t.step >= 1 ? 0 : (int)ceil(-log10(t.step) - 1e-9);
	return t;
}

/*
 * The y axis from 0 to a round value at or above max: grid lines, tick
 * labels in c's scale, the axis label.  Returns the axis top value.
 */
static double
y_axis(FILE *fp, const struct chart *c, double max)
{
	struct ticks t = axis_ticks(max);
	double v, y;
	int i;
	char label[48];

	for (i = 0; (v = i * t.step) <= t.top + t.step / 2; i++) {
		y = PY1 - v / t.top * (PY1 - PY0);
		fprintf(fp, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\""
		    " stroke=\"%s\"/>\n", PX0, y, PX1, y, i == 0 ? "#333333" :
		    "#e0e0e0");
		snprintf(label, sizeof(label), "%.*f", t.decimals, v);
		text(fp, PX0 - 6, y + 4, "text-anchor=\"end\" class=\"ytick\"",
		    label, 0);
	}
	fprintf(fp, "<text transform=\"translate(22 %.1f) rotate(-90)\""
	    " text-anchor=\"middle\" class=\"ylabel\">", (PY0 + PY1) / 2.0);
	svg_text(fp, c->ylabel, 0);
	fputs("</text>\n", fp);
	return t.top;
}

static double
x_of(const struct chart *c, int64_t t)
{
	return PX0 + (double)(t - c->edge[0]) * (PX1 - PX0) /
	    (double)(c->edge[c->nb] - c->edge[0]);
}

/* Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm). */
static long
days_of(int y, int m, int d)
{
	long era, yoe, doy;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153L * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
}

/* The tick steps, smallest first: hours, days, months. */
struct xstep {
	int	 hours, days, months;
	int64_t	 approx_s;
};

static const struct xstep xsteps[] = {
	{ 1, 0, 0, 3600 }, { 2, 0, 0, 7200 }, { 3, 0, 0, 10800 },
	{ 6, 0, 0, 21600 }, { 12, 0, 0, 43200 },
	{ 0, 1, 0, 86400 }, { 0, 2, 0, 172800 }, { 0, 7, 0, 604800 },
	{ 0, 14, 0, 1209600 },
	{ 0, 0, 1, 2629746 }, { 0, 0, 2, 5259492 }, { 0, 0, 3, 7889238 },
	{ 0, 0, 6, 15778476 }, { 0, 0, 12, 31556952 },
	{ 0, 0, 24, 63113904 }, { 0, 0, 60, 157784760 },
	{ 0, 0, 120, 315569520 }, { 0, 0, 600, 1577847600 },
};

/* One tick at t with its label (and, for hours, a date beneath). */
static void
tick(FILE *fp, const struct chart *c, int64_t t, const char *label,
    const char *date)
{
	double x = x_of(c, t);

	fprintf(fp, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\""
	    " stroke=\"#333333\"/>\n", x, PY1, x, PY1 + 5);
	fprintf(fp, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\""
	    " stroke=\"#eeeeee\"/>\n", x, PY0, x, PY1);
	text(fp, x, PY1 + 18, "text-anchor=\"middle\" class=\"xtick\"", label,
	    0);
	if (date != NULL)
		text(fp, x, PY1 + 32, "text-anchor=\"middle\" fill=\"#555555\""
		    " class=\"xdate\"", date, 0);
}

/*
 * Ticks at round local times, at most 8: whole hours (every 1 to 12),
 * midnights (every day, 2 days, Monday, other Monday), month starts (1
 * to 600 months, counted from year 0).  Walked in local time, so a tick
 * is where a wall clock shows that time, DST or not.
 */
static void
x_axis(FILE *fp, const struct chart *c)
{
	int64_t t0 = c->edge[0], t1 = c->edge[c->nb], t;
	const struct xstep *st = &xsteps[0];
	char label[32], date[32];
	struct tm tm;
	time_t tt;
	size_t i;
	int first = 1;

	for (i = 0; i < sizeof(xsteps) / sizeof(xsteps[0]); i++) {
		st = &xsteps[i];
		if ((t1 - t0) / st->approx_s <= 8)
			break;
	}
	if (st->hours > 0) {
		/* Edges are local hour starts, 3,600 s apart. */
		for (t = t0; t <= t1; t += 3600) {
			tt = (time_t)t;
			if (localtime_r(&tt, &tm) == NULL ||
			    tm.tm_hour % st->hours != 0)
				continue;
			strftime(label, sizeof(label), "%H:%M", &tm);
			strftime(date, sizeof(date), "%Y-%m-%d", &tm);
			tick(fp, c, t, label, first || tm.tm_hour == 0 ? date :
			    NULL);
			first = 0;
		}
	} else {
		tt = (time_t)t0;
		if (localtime_r(&tt, &tm) == NULL)
			return;
		/* From the local midnight (or month start) at or before t0. */
		tm.tm_hour = 12;
		tm.tm_min = tm.tm_sec = 0;
		if (st->months > 0)
			tm.tm_mday = 1;
		for (;;) {
			struct tm mid = tm, at;
			long day;

			mid.tm_isdst = -1;
			tt = mktime(&mid);	/* noon: normalises the date */
			if (tt == (time_t)-1 ||
			    localtime_r(&tt, &at) == NULL)
				return;
			at.tm_hour = at.tm_min = at.tm_sec = 0;
			at.tm_isdst = -1;
			if ((t = (int64_t)mktime(&at)) > t1)
				break;
			day = days_of(at.tm_year + 1900, at.tm_mon + 1,
			    at.tm_mday);
			/* 1970-01-05 was a Monday: weeks start on Mondays. */
			if (t >= t0 && (st->months > 0 ?
			    ((at.tm_year + 1900) * 12 + at.tm_mon) %
			    st->months == 0 : st->days < 7 ? day % st->days ==
			    0 : (day - 4) % st->days == 0)) {
				strftime(label, sizeof(label),
				    st->months >= 12 ? "%Y" : st->months > 0 ?
				    "%Y-%m" : "%Y-%m-%d", &at);
				tick(fp, c, t, label, NULL);
			}
			tm = mid;
			if (st->months > 0)
				tm.tm_mon++;
			else
				tm.tm_mday++;
		}
	}
	fprintf(fp, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\""
	    " stroke=\"#333333\"/>\n", PX0, PY1, PX1, PY1);
	text(fp, (PX0 + PX1) / 2.0, H - 16, "text-anchor=\"middle\""
	    " class=\"xlabel\"", c->xlabel, 0);
}

static const char *
series_colour(const struct chart *c, size_t s)
{
	if (c->has_other && s == c->ns - 1)
		return OTHER_COLOUR;
	return palette[(c->paired ? s / 2 : s) % NPALETTE];
}

/* A paired chart's trend: the odd series, drawn dashed. */
static int
is_trend(const struct chart *c, size_t s)
{
	return c->paired && s % 2 == 1;
}

/* A legend entry: a swatch (a box, or a dashed line) and a name. */
static void
legend_entry(FILE *fp, int i, const char *colour, int dashed,
    const char *name)
{
	double y = PY0 + 22 + i * 20;

	if (dashed)
		fprintf(fp, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\""
		    " stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"5 3\""
		    "/>\n", LEGEND_X, y - 4, LEGEND_X + 14, y - 4, colour);
	else
		fprintf(fp, "<rect x=\"%d\" y=\"%.1f\" width=\"14\""
		    " height=\"14\" fill=\"%s\"/>\n", LEGEND_X, y - 11,
		    colour);
	text(fp, LEGEND_X + 20, y, "class=\"legend\"", name, NAME_CHARS);
}

static void
legend(FILE *fp, const struct chart *c)
{
	size_t s;
	int i = 0;

	text(fp, LEGEND_X, PY0 + 2,
	    "font-weight=\"bold\" class=\"legend-head\"", c->legend, 0);
	/* Top to bottom as the stack reads: the last series drawn on top. */
	for (s = 0; s < c->ns; s++) {
		size_t k = c->kind == CHART_STACKED ? c->ns - 1 - s : s;

		legend_entry(fp, i++, series_colour(c, k), is_trend(c, k),
		    c->name[k]);
	}
	if (!isnan(c->ref))
		legend_entry(fp, i, "#222222", 1, c->ref_label);
}

/* The height of the series below s in bucket b, stacked. */
static double
below(const struct chart *c, size_t s, size_t b)
{
	double sum = 0;
	size_t k;

	for (k = 0; k < s; k++)
		sum += c->v[k * c->nb + b];
	return sum;
}

/*
 * Each series a filled outline: its top (the sum of it and the series
 * below) then its base backwards, one flat step per bucket, as the
 * values are totals over the bucket.  H and V moves keep it short: a
 * run of equal buckets is one move.
 */
static void
stacked(FILE *fp, const struct chart *c)
{
	double max = 0, top, sum, y, cur;
	size_t s, b, k;

	for (b = 0; b < c->nb; b++) {
		for (sum = 0, s = 0; s < c->ns; s++)
			sum += c->v[s * c->nb + b];
		if (sum > max)
			max = sum;
	}
	top = y_axis(fp, c, max);
	for (s = 0; s < c->ns; s++) {
		cur = PY1 - below(c, s, 0) / top * (PY1 - PY0);
		fprintf(fp, "<path class=\"series\" fill=\"%s\" d=\"M%.1f %.1f",
		    series_colour(c, s), x_of(c, c->edge[0]), cur);
		/* The top, left to right: a move where the height changes. */
		for (b = 0; b < c->nb; b++) {
			y = PY1 - below(c, s + 1, b) / top * (PY1 - PY0);
			if (fabs(y - cur) < 0.05)	/* the same, printed */
				continue;
			if (b > 0)
				fprintf(fp, "H%.1f", x_of(c, c->edge[b]));
			fprintf(fp, "V%.1f", y);
			cur = y;
		}
		fprintf(fp, "H%.1f", x_of(c, c->edge[c->nb]));
		/* The base, right to left. */
		for (k = c->nb; k-- > 0;) {
			y = PY1 - below(c, s, k) / top * (PY1 - PY0);
			if (fabs(y - cur) < 0.05)
				continue;
			if (k < c->nb - 1)
				fprintf(fp, "H%.1f", x_of(c, c->edge[k + 1]));
			fprintf(fp, "V%.1f", y);
			cur = y;
		}
		fprintf(fp, "H%.1f", x_of(c, c->edge[0]));
		fputs("Z\"><title>", fp);
		svg_text(fp, c->name[s], 0);
		fputs("</title></path>\n", fp);
	}
	coverage(fp, c);
	x_axis(fp, c);
	legend(fp, c);
}

/*
 * One line per series through the buckets' middles, broken where a
 * bucket has no value; a dot at each value while there are few, so a
 * lone bucket still shows.  The reference line is dashed.
 */
static void
lines(FILE *fp, const struct chart *c)
{
	double max = isnan(c->ref) ? 0 : c->ref * 1.2, top, v, x, y;
	size_t s, b;
	int pen;

	for (b = 0; b < c->ns * c->nb; b++)
		if (!isnan(c->v[b]) && c->v[b] > max)
			max = c->v[b];
	top = y_axis(fp, c, max);
	if (!isnan(c->ref)) {
		y = PY1 - c->ref / top * (PY1 - PY0);
		fprintf(fp, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\""
		    " stroke=\"#222222\" stroke-width=\"1.5\""
		    " stroke-dasharray=\"6 4\"/>\n", PX0, y, PX1, y);
	}
	for (s = 0; s < c->ns; s++) {
		const char *colour = series_colour(c, s);

		fprintf(fp, "<path class=\"series\" fill=\"none\" stroke=\"%s\""
		    " stroke-width=\"2\"%s d=\"", colour, is_trend(c, s) ?
		    " stroke-dasharray=\"8 4\"" : "");
		for (pen = 0, b = 0; b < c->nb; b++) {
			if (isnan(v = c->v[s * c->nb + b])) {
				pen = 0;
				continue;
			}
			x = (x_of(c, c->edge[b]) + x_of(c, c->edge[b + 1])) / 2;
			y = PY1 - v / top * (PY1 - PY0);
			fprintf(fp, "%s%.1f %.1f", pen ? "L" : "M", x, y);
			pen = 1;
		}
		fputs("\"><title>", fp);
		svg_text(fp, c->name[s], 0);
		fputs("</title></path>\n", fp);
		if (c->nb > 120 || is_trend(c, s))
			continue;
		for (b = 0; b < c->nb; b++) {
			if (isnan(v = c->v[s * c->nb + b]))
				continue;
			fprintf(fp, "<circle class=\"point\" cx=\"%.1f\""
			    " cy=\"%.1f\" r=\"3\""
			    " fill=\"%s\"/>\n", (x_of(c, c->edge[b]) +
			    x_of(c, c->edge[b + 1])) / 2, PY1 - v / top *
			    (PY1 - PY0), colour);
		}
	}
	x_axis(fp, c);
	legend(fp, c);
}

/*
 * Horizontal bars, largest first, the name to the left and the value
 * to the right; the axis below reads in c's unit.
 */
static void
bars(FILE *fp, const struct chart *c)
{
	struct ticks t;
	double max = 0, v, x;
	int bottom = PY0 + BAR_ROW * (int)c->ns, i, used[3] = { 0 };
	char label[64];
	size_t s;

	for (s = 0; s < c->ns; s++)
		if (c->v[s] / c->scale > max)
			max = c->v[s] / c->scale;
	t = axis_ticks(max);
	for (i = 0; (v = i * t.step) <= t.top + t.step / 2; i++) {
		x = BX0 + v / t.top * (BX1 - BX0);
		fprintf(fp, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\""
		    " stroke=\"%s\"/>\n", x, PY0 - 4, x, bottom, i == 0 ?
		    "#333333" : "#e0e0e0");
		snprintf(label, sizeof(label), "%.*f", t.decimals, v);
		text(fp, x, bottom + 16,
		    "text-anchor=\"middle\" class=\"xtick\"", label, 0);
	}
	text(fp, (BX0 + BX1) / 2.0, bottom + 34, "text-anchor=\"middle\""
	    " class=\"xlabel\"", c->xlabel, 0);
	text(fp, BX0 - 8, PY0 - 8, "text-anchor=\"end\" font-weight=\"bold\""
	    " class=\"legend-head\"", c->legend, 0);
	for (s = 0; s < c->ns; s++) {
		int cls = c->bar_class[s] >= 0 && c->bar_class[s] < 3 ?
		    c->bar_class[s] : 2;
		double y = PY0 + BAR_ROW * (double)s;

		used[cls] = 1;
		v = c->v[s] / c->scale;
		fprintf(fp, "<rect class=\"bar\" x=\"%d\" y=\"%.1f\""
		    " width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>", BX0,
		    y + 3, v / t.top * (BX1 - BX0), BAR_ROW - 6,
		    bar_colour[cls]);
		svg_text(fp, c->name[s], 0);
		fputs("</title></rect>\n", fp);
		text(fp, BX0 - 8, y + BAR_ROW / 2.0 + 4, "text-anchor=\"end\""
		    " class=\"legend\"", c->name[s], NAME_CHARS);
		snprintf(label, sizeof(label), "%.*f %s", v >= 100 ? 0 :
		    v >= 10 ? 1 : 2, v, c->unit);
		text(fp, BX0 + v / t.top * (BX1 - BX0) + 6, y + BAR_ROW / 2.0 +
		    4, "class=\"value\"", label, 0);
	}
	/* The classes' legend, in a row under the axis label. */
	for (i = 0, x = BX0; i < 3; i++) {
		if (!used[i])
			continue;
		fprintf(fp, "<rect x=\"%.1f\" y=\"%d\" width=\"14\""
		    " height=\"14\" fill=\"%s\"/>\n", x, bottom + 46,
		    bar_colour[i]);
		text(fp, x + 20, bottom + 58, "class=\"class\"",
		    c->class_name[i], 0);
		x += 40 + 7.0 * (double)strlen(c->class_name[i]);
	}
}
