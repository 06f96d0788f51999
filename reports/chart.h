/*
 * chart: the pictures of report --format svg|html, as
 * sadf -g draws sar's data.  Three charts, each one struct chart that a
 * query fills (chart_data.c) and the SVG writer draws (svg.c):
 *
 *   CPU over time: the mean CPUs busy in each time bucket, stacked, for
 *     the top N users or commands of the window and "other";
 *   the capture ratio over time: process CPU over busy CPU per bucket,
 *     one line per host, against the 1.0 line;
 *   energy by application: joules per command (or user, or host), one
 *     bar each, measured and estimated apart;
 *   energy over time (the page only): mean watts per bucket, stacked as
 *     the CPU, of one basis (measured where there is any, else the
 *     estimate);
 *   the capacity forecast (filled by forecast.c): each group's daily
 *     peaks and their dashed trend, against the threshold, on an axis
 *     of days that runs ahead to the crossing.
 *
 * The time axis is cut into local hours when the window is at most 3
 * days long, else into local days; an interval counts in the bucket it
 * ends in, as in the tables.  Output is a function of the data alone
 * (no clock, no randomness), so the same database gives the same bytes.
 */
#ifndef CHART_H
#define CHART_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../parsers/exerr.h"
#include "rdb.h"
#include "report.h"

/* Series drawn by name; the rest are lumped into "other". */
#define CHART_TOP	8

/* Windows up to this long are cut into hours, longer ones into days. */
#define CHART_HOURLY_MAX_S	(3 * 86400)

enum chart_kind { CHART_STACKED, CHART_LINES, CHART_BARS };

/*
 * One chart.  Time charts (STACKED, LINES) have nb buckets, bucket b
 * from edge[b] to edge[b + 1] (epoch seconds, local bucket starts), and
 * ns series of nb values each, v[s * nb + b]; a LINES value may be NaN
 * (no value: a gap in the line).  BARS has ns bars, one value each in
 * v[s], with a colour class in bar_class[s].  All strings are as stored
 * (untrusted): the writer escapes them.
 */
struct chart {
	enum chart_kind	 kind;
	char		 title[160];
	char		 subtitle[320];	/* hosts, window, time zone */
	char		 xlabel[160];
	char		 ylabel[160];
	char		 empty[160];	/* why there is nothing to draw */
	char		 legend[64];	/* the legend's heading: what a
					   series is (uid, command, host) */
	size_t		 nb;		/* time buckets */
	int64_t		*edge;		/* nb + 1 bucket edges, epoch s */
	int		 daily;		/* buckets are days (else hours) */
	size_t		 ns;		/* series, or bars */
	char		(*name)[128];	/* ns names */
	double		*v;		/* values (see above) */
	int		 has_other;	/* the last series is "other" */
	double		 ref;		/* LINES: a reference line, or NaN */
	char		 ref_label[64];
	int		*bar_class;	/* BARS: 0, 1 or 2 (other), a colour
					   each */
	char		 class_name[3][64];	/* BARS: the classes' legend */
	int		 paired;	/* LINES: series 2k and 2k + 1 are a
					   series and its trend, one colour,
					   the trend dashed */
	char		 note[320];	/* what the window leaves out */
	double		*cover;		/* time charts: the part of each
					   bucket the hosts' snapshots cover
					   (0 to 1), NaN: not known */
	double		 scale;		/* values are divided by this ... */
	char		 unit[16];	/* ... to read in this unit */
};

/* The time window of a chart, resolved: [lo_ns, hi_ns). */
struct chart_window {
	int64_t		 lo_ns, hi_ns;
	int		 empty;		/* no row in the window at all */
	int		 daily;		/* --every: 0 hours, 1 days; -1: by
					   the window's length */
	char		 note[320];	/* hosts with no data in it */
};

/*
 * The default window ends at the latest data; data before an empty
 * stretch longer than this is left out of it, and the chart names the
 * hosts that have no data in it, with their own data's span.
 */
#define CHART_GAP_S	(30 * 86400)

/* Most series a chart tells apart (svg.c's palette; --limit). */
#define CHART_MAXTOP	10

void	chart_init(struct chart *c, enum chart_kind kind);
void	chart_release(struct chart *c);

/*
 * The window of o (its open ends closed by the extent of the data in
 * the usage, capture and energy views, those named in mask), or
 * w->empty when the data has no row in it.  EXR_OK or EXR_DB.
 */
#define CW_USAGE	0x1
#define CW_CAPTURE	0x2
#define CW_ENERGY	0x4
int	chart_window(struct rdb *db, const struct report_opts *o, int mask,
	    struct chart_window *w, struct ex_err *err);

/*
 * Fill c (chart_init'ed) from db over w: the CPU chart by o->by (user,
 * command, project, zone or host), top n; the capture chart; the
 * energy chart by o->by (user, command or host; others read as
 * command), top n bars.  EXR_OK, or EXR_DB/EXR_NOMEM with err; on error
 * c still needs chart_release.
 */
int	chart_cpu(struct rdb *db, const struct report_opts *o,
	    const struct chart_window *w, size_t n, struct chart *c,
	    struct ex_err *err);
int	chart_capture(struct rdb *db, const struct report_opts *o,
	    const struct chart_window *w, struct chart *c, struct ex_err *err);
int	chart_energy(struct rdb *db, const struct report_opts *o,
	    const struct chart_window *w, size_t n, struct chart *c,
	    struct ex_err *err);
/* Energy over time, stacked as the CPU: mean watts per bucket. */
int	chart_energy_time(struct rdb *db, const struct report_opts *o,
	    const struct chart_window *w, size_t n, struct chart *c,
	    struct ex_err *err);

/*
 * The capacity forecast (reports/forecast.c): per host, or by o's key
 * with o->forecast, the daily peaks and their trend to the threshold.
 */
int	chart_forecast(struct rdb *db, const struct report_opts *o,
	    struct chart *c, struct ex_err *err);

/*
 * Write c as one <svg> element into fp (svg.c); with standalone, as a
 * whole SVG file (an XML declaration first).  Never fails on the data:
 * an empty chart says so in the picture.  fp's errors are the caller's.
 */
void	svg_chart(FILE *fp, const struct chart *c, int standalone);

/* Write s as XML character data: escaped, valid UTF-8 (svg.c). */
void	svg_text(FILE *fp, const char *s, size_t max_chars);

/* The report's charts. */
enum chart_which { CHART_CPU, CHART_CAPTURE, CHART_ENERGY,
	CHART_ENERGY_TIME, CHART_FORECAST };

/*
 * report --format svg: one chart (which) as an SVG file into fp.
 * report --format html: a self-contained page with all four (html.c).
 * EXR_OK, or EXR_DB/EXR_NOMEM/EXR_IO with err.
 */
int	report_svg(struct rdb *db, FILE *fp, const struct report_opts *o,
	    enum chart_which which, struct ex_err *err);
int	report_html(struct rdb *db, FILE *fp, const struct report_opts *o,
	    struct ex_err *err);

#endif
