/*
 * report --format svg and --format html (chart.h): one chart as an SVG
 * file, or a page holding all of them.
 *
 * The page is self-contained, for mail, a web server's directory or a
 * file manager alike: the charts are inline SVG, the style is inline,
 * nothing is fetched and no script runs.  It is also well-formed XML
 * (XHTML served as HTML), so each chart inside it can be checked as the
 * SVG file would be.  The charts share one window, so their time
 * axes line up.
 */
#include <stdio.h>

#include "chart.h"

static int	build(struct rdb *db, const struct report_opts *o,
		    const struct chart_window *w, enum chart_which which,
		    struct chart *c, struct ex_err *err);
static void	head(FILE *fp, const char *about);

static const int window_mask[] = {
	[CHART_CPU] = CW_USAGE, [CHART_CAPTURE] = CW_CAPTURE,
	[CHART_ENERGY] = CW_ENERGY, [CHART_ENERGY_TIME] = CW_ENERGY,
	[CHART_FORECAST] = CW_USAGE,
};

int
report_svg(struct rdb *db, FILE *fp, const struct report_opts *o,
    enum chart_which which, struct ex_err *err)
{
	struct chart_window w;
	struct chart c;
	int rc;

	chart_init(&c, CHART_STACKED);
	if ((rc = chart_window(db, o, window_mask[which], &w, err)) ==
	    EXR_OK && (rc = build(db, o, &w, which, &c, err)) == EXR_OK)
		svg_chart(fp, &c, 1);
	chart_release(&c);
	if (rc == EXR_OK && ferror(fp))
		rc = ex_fail(err, EXR_IO, 0, "write error");
	return rc;
}

int
report_html(struct rdb *db, FILE *fp, const struct report_opts *o,
    struct ex_err *err)
{
	static const enum chart_which order[] = { CHART_CPU, CHART_CAPTURE,
	    CHART_ENERGY, CHART_ENERGY_TIME, CHART_FORECAST };
	struct chart_window w;
	struct chart c;
	size_t i;
	int rc;

	if ((rc = chart_window(db, o, CW_USAGE | CW_CAPTURE | CW_ENERGY, &w,
	    err)) != EXR_OK)
		return rc;
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		chart_init(&c, CHART_STACKED);
		if ((rc = build(db, o, &w, order[i], &c, err)) != EXR_OK) {
			chart_release(&c);
			return rc;
		}
		/* The first chart's hosts and window name the page. */
		if (i == 0)
			head(fp, c.subtitle);
		fputs("<div class=\"chart\">\n", fp);
		svg_chart(fp, &c, 0);
		fputs("</div>\n", fp);
		chart_release(&c);
	}
	fputs("</body>\n</html>\n", fp);
	return ferror(fp) ? ex_fail(err, EXR_IO, 0, "write error") : EXR_OK;
}

static int
build(struct rdb *db, const struct report_opts *o,
    const struct chart_window *w, enum chart_which which, struct chart *c,
    struct ex_err *err)
{
	/* --limit: the series (bars) drawn apart, the rest one "other". */
	size_t top = o->limit > 0 ? (size_t)o->limit : CHART_TOP;

	switch (which) {
	case CHART_CAPTURE:
		chart_init(c, CHART_LINES);
		return chart_capture(db, o, w, c, err);
	case CHART_ENERGY:
		chart_init(c, CHART_BARS);
		return chart_energy(db, o, w, top, c, err);
	case CHART_ENERGY_TIME:
		chart_init(c, CHART_STACKED);
		return chart_energy_time(db, o, w, top, c, err);
	case CHART_FORECAST:
		/* Its own days: those observed, and ahead to the crossing. */
		(void)w;
		chart_init(c, CHART_LINES);
		return chart_forecast(db, o, c, err);
	case CHART_CPU:
	default:
		chart_init(c, CHART_STACKED);
		return chart_cpu(db, o, w, top, c, err);
	}
}

/* The page up to its first chart, about it the hosts and window. */
static void
head(FILE *fp, const char *about)
{
	fputs("<!DOCTYPE html>\n"
	    "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n"
	    "<head>\n<meta charset=\"utf-8\"/>\n<title>extracct report: ", fp);
	svg_text(fp, about, 0);
	fputs("</title>\n"
	    "<style>\n"
	    "body { font-family: \"DejaVu Sans\", \"Liberation Sans\", Arial,"
	    " sans-serif; color: #222222; background: #ffffff;"
	    " margin: 24px; }\n"
	    "h1 { font-size: 22px; margin: 0 0 4px 0; }\n"
	    "p.sub { color: #444444; margin: 0 0 20px 0; }\n"
	    "div.chart { margin: 0 0 28px 0; }\n"
	    "svg { max-width: 100%; height: auto;"
	    " border: 1px solid #dddddd; }\n"
	    "</style>\n</head>\n<body>\n"
	    "<h1>extracct report</h1>\n<p class=\"sub\">", fp);
	svg_text(fp, about, 0);
	fputs("</p>\n", fp);
}
