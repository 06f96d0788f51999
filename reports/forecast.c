/*
 * report --forecast: when does a host (or a key group) run out of CPU?
 *
 * The series is the group's daily peak: each local day, the p95
 * (nearest rank) of its hourly utilisation over the hours of that day
 * it was observed.  An hour's utilisation is its CPU seconds (the
 * rollups', as the usage report's) over the CPU seconds its hosts had:
 * each host's CPUs (max(ncpu) of v_sysload, as util_pct's) times the
 * seconds of the hour its snapshots cover (the time between two
 * consecutive snapshots of one boot, at most 2 hours apart).  An hour no snapshot covers is
 * not observed, and a day with no observed hour is left out of the
 * series, never counted as 0: a host that was not watched was not idle.
 *
 * A line is fitted to the series by least squares on the day number.
 * With n days, s the residuals' standard deviation (n - 2 degrees of
 * freedom) and se the slope's standard error, s / sqrt(Sxx):
 *   - fewer than 3 days: "too few days" (no spread to measure);
 *   - the line's level on the last day at or above the threshold:
 *     "already above";
 *   - |slope| <= t x se, t the two-sided 95% point of Student's t with
 *     n - 2 degrees of freedom (about 2): "no trend";
 *   - a significant slope that is negative: "no crossing";
 *   - else "crosses": the first day on which the line is at or above
 *     the threshold, and the 95% interval of that day (Fieller's: the
 *     days where the line's 95% confidence band holds the threshold).
 * A straight line is all it is: a step (a new service), a weekly cycle
 * or saturation (a host at 100% cannot grow) is not modelled.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../parsers/compat.h"
#include "../parsers/records.h"
#include "chart.h"
#include "fmt.h"
#include "report_int.h"

enum fstatus { F_ABOVE, F_CROSSES, F_NOTREND, F_NOCROSS, F_FEW, F_NODATA };

static const char *const status_names[] = {
	[F_ABOVE] = "already above", [F_CROSSES] = "crosses",
	[F_NOTREND] = "no trend", [F_NOCROSS] = "no crossing",
	[F_FEW] = "too few days", [F_NODATA] = "no data",
};

/* One group's series and fit. */
struct fgroup {
	size_t		 lead;		/* its first row (its keys) */
	enum fstatus	 status;
	size_t		 ndays;
	long		 day0, dayn;	/* first and last day (day numbers) */
	double		 last_peak;	/* the last day's peak, % */
	double		 level;		/* the line on the last day, % */
	double		 slope, se;	/* points a day, and its error */
	double		 cross, lo, hi;	/* days from day0; hi < 0: none */
	double		 a;		/* the line's level on day0 */
	double		*x, *y;		/* the series: days from day0, % */
};

/* A forecast's groups, and the rows whose keys they carry. */
struct forecast {
	struct report_set s;
	struct fgroup	*gr;
	size_t		 ng;
};

/* Days since 1970-01-01 of a civil date (Howard Hinnant's). */
static long
days_from_civil(long y, unsigned m, unsigned d)
{
	long era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (long)doe - 719468;
}

/* The local day number of epoch second t. */
static long
local_day(int64_t t)
{
	struct tm tm;
	time_t x = (time_t)t;

	if (localtime_r(&x, &tm) == NULL)
		return 0;
	return days_from_civil(tm.tm_year + 1900L, (unsigned)tm.tm_mon + 1,
	    (unsigned)tm.tm_mday);
}

/* Day number z as YYYY-MM-DD. */
static void
day_text(char *b, size_t n, long z)
{
	long era, y;
	unsigned doe, yoe, doy, mp, d, m;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = (unsigned)(z - era * 146097);
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	y = (long)yoe + era * 400;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	d = doy - (153 * mp + 2) / 5 + 1;
	m = mp < 10 ? mp + 3 : mp - 9;
	snprintf(b, n, "%04ld-%02u-%02u", y + (m <= 2), m, d);
}

/* The two-sided 95% point of Student's t with df degrees of freedom. */
static double
t975(size_t df)
{
	static const double tab[] = { 0, 12.706, 4.303, 3.182, 2.776, 2.571,
	    2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
	    2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
	    2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042 };
	const double z = 1.959964, v = (double)df;

	if (df < sizeof(tab) / sizeof(tab[0]))
		return tab[df];
	/* Cornish-Fisher past 30: within 0.001 of the exact point. */
	return z + (z * z * z + z) / (4 * v) + (5 * pow(z, 5) +
	    16 * z * z * z + 3 * z) / (96 * v * v);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The p95, nearest rank, of n values (sorted here). */
static double
p95(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[report_rank(n, 95)];
}

/* The index of host name in s->hosts, or -1. */
static long
host_index(const struct report_set *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nhosts; i++)
		if (strcmp(s->hosts[i].host, name) == 0)
			return (long)i;
	return -1;
}

/*
 * The longest time between two snapshots that counts as observed, ns:
 * the snapshot timer runs every 5 minutes and the hourly run snaps too,
 * so a longer gap is a host that was off or a job that stopped.
 */
#define FORECAST_MAXGAP	"7200000000000"

/*
 * The ns of each hour bucket each host's snapshots cover, into
 * obs[host * nb + bucket]: the time between consecutive snapshots of
 * one boot, FORECAST_MAXGAP apart at most (a reboot or a longer gap
 * between two leaves it unobserved).
 */
static int
load_observed(struct rdb *db, const struct report_set *s, int64_t *obs,
    struct ex_err *err)
{
	static const char sql[] =
	    "SELECT host, p, t_ns FROM (SELECT host, t_ns, btime_s,"
	    " lag(t_ns) OVER w AS p, lag(btime_s) OVER w AS pb"
	    " FROM v_sysload WINDOW w AS (PARTITION BY host_id ORDER BY t_ns))"
	    " x WHERE p IS NOT NULL AND t_ns > ?1 AND p < ?2"
	    " AND t_ns - p <= " FORECAST_MAXGAP
	    " AND (btime_s IS NULL OR pb IS NULL OR btime_s = pb)"
	    " ORDER BY host";
	struct rdb_q *st;
	char last[128] = "";
	long h = -1;
	int rc;

	if (s->nb == 0)
		return EXR_OK;
	if (rdb_prepare(db, sql, &st) != 0)
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	rdb_bind_int64(st, 1, s->edge[0] * NS_I64);
	rdb_bind_int64(st, 2, s->edge[s->nb] * NS_I64);
	while ((rc = rdb_step(st)) == RDB_ROW) {
		const char *name = rdb_text(st, 0);
		int64_t t0 = rdb_int64(st, 1), t1 = rdb_int64(st, 2);
		long b;

		if (name == NULL)
			continue;
		if (h < 0 || strcmp(name, last) != 0) {
			snprintf(last, sizeof(last), "%s", name);
			h = host_index(s, name);
		}
		if (h < 0)
			continue;
		if (t0 < s->edge[0] * NS_I64)
			t0 = s->edge[0] * NS_I64;
		if ((b = report_bucket_of(s, t0 / NS_I64)) < 0)
			continue;
		for (; (size_t)b < s->nb && s->edge[b] * NS_I64 < t1; b++) {
			int64_t a = s->edge[b] * NS_I64, e = s->edge[b + 1] *
			    NS_I64;

			obs[(size_t)h * s->nb + (size_t)b] +=
			    (t1 < e ? t1 : e) - (t0 > a ? t0 : a);
		}
	}
	rdb_finalize(st);
	return rc == RDB_DONE ? EXR_OK :
	    ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
}

/*
 * Fit g's series (x days from day0, y peaks %) and say what it tells
 * against threshold.
 */
static void
fit(struct fgroup *g, const double *x, const double *y, size_t n,
    double threshold)
{
	double xbar = 0, ybar = 0, sxx = 0, sxy = 0, ssr = 0, s2, t, d, a, bq,
	    c, disc, u1, u2, xl;
	size_t i;

	g->hi = -1;
	g->ndays = n;
	if (n == 0) {
		g->status = F_NODATA;
		return;
	}
	g->last_peak = y[n - 1];
	g->level = y[n - 1];
	if (n < 3) {
		g->status = F_FEW;
		return;
	}
	for (i = 0; i < n; i++) {
		xbar += x[i];
		ybar += y[i];
	}
	xbar /= (double)n;
	ybar /= (double)n;
	for (i = 0; i < n; i++) {
		sxx += (x[i] - xbar) * (x[i] - xbar);
		sxy += (x[i] - xbar) * (y[i] - ybar);
	}
	g->slope = sxy / sxx;
	for (i = 0; i < n; i++) {
		double r = y[i] - ybar - g->slope * (x[i] - xbar);

		ssr += r * r;
	}
	s2 = ssr / (double)(n - 2);
	g->se = sqrt(s2 / sxx);
	xl = x[n - 1];
	g->level = ybar + g->slope * (xl - xbar);
	g->a = ybar - g->slope * xbar;
	t = t975(n - 2);
	if (g->level >= threshold) {
		g->status = F_ABOVE;
		return;
	}
	if (fabs(g->slope) <= t * g->se) {
		g->status = F_NOTREND;
		return;
	}
	if (g->slope < 0) {
		g->status = F_NOCROSS;
		return;
	}
	g->status = F_CROSSES;
	/* u from xbar: where ybar + slope u meets the threshold. */
	d = ybar - threshold;
	g->cross = xbar - d / g->slope;
	/*
	 * Fieller: (d + slope u)^2 <= t^2 (s2/n + se^2 u^2), a quadratic
	 * in u whose leading term is positive: the slope is significant.
	 */
	a = g->slope * g->slope - t * t * g->se * g->se;
	bq = 2 * d * g->slope;
	c = d * d - t * t * s2 / (double)n;
	disc = bq * bq - 4 * a * c;
	if (a > 0 && disc >= 0) {
		u1 = (-bq - sqrt(disc)) / (2 * a);
		u2 = (-bq + sqrt(disc)) / (2 * a);
		g->lo = xbar + u1;
		g->hi = xbar + u2;
	} else
		g->lo = g->cross;
}

/* Urgent first: above, then the soonest crossing; else in key order. */
static int
cmp_fgroups(const void *a, const void *b)
{
	const struct fgroup *x = a, *y = b;

	if (x->status != y->status)
		return x->status < y->status ? -1 : 1;
	if (x->status == F_CROSSES && x->day0 + x->cross != y->day0 + y->cross)
		return x->day0 + x->cross < y->day0 + y->cross ? -1 : 1;
	return x->lead < y->lead ? -1 : x->lead > y->lead;
}

/* A day of g (days from day0, rounded up to the whole day it is in). */
static void
put_day(struct rtab *t, int j, const struct fgroup *g, double days)
{
	char b[32];

	/* Past a century the date says nothing a "far" does not. */
	if (!(days - (g->dayn - g->day0) < 36525)) {
		rtab_put(t, j, NULL);
		return;
	}
	day_text(b, sizeof(b), g->day0 + (long)ceil(days - 1e-9));
	rtab_put(t, j, b);
}

/* The groups as an rtab, in o's format. */
static int
print_groups(FILE *fp, const struct report_opts *o,
    const struct report_set *s, const struct fgroup *gr, size_t ng)
{
	struct report_col all[REPORT_MAXCOLS];
	struct report_col kc[REPORT_MAXCOLS];
	static const char *const cols[] = { "days", "first_day", "last_day",
	    "last_peak_pct", "level_pct", "slope_pct_per_day", "slope_se",
	    "threshold_pct", "crossing_day", "crossing_day_lo",
	    "crossing_day_hi", "days_to_cross", "status" };
	struct rtab t;
	char b[256], from[40], to[40];
	size_t g;
	int j, c, na, nk = 0, rc;

	na = report_cols(o, all);
	for (j = 0; j < na; j++)
		if (all[j].key)
			kc[nk++] = all[j];
	rtab_init(&t);
	for (j = 0; j < nk; j++)
		rtab_col(&t, kc[j].name, kc[j].kind, kc[j].formats, 0, 0);
	rtab_col(&t, "tz", COL_TEXT, COLF_CSV, 0, 0);
	for (c = 0; c < (int)(sizeof(cols) / sizeof(cols[0])); c++)
		rtab_col(&t, cols[c], c == 1 || c == 2 || c == 8 || c == 9 ||
		    c == 10 || c == 12 ? COL_TEXT : COL_NUM, COLF_ALL,
		    c == 12 ? RTC_OURS | RTC_KEEP : c >= 8 ? RTC_KEEP : 0, 0);
	for (g = 0; g < ng; g++) {
		const struct fgroup *x = &gr[g];
		int at = nk + 1, fitted = x->status <= F_NOCROSS;

		rtab_row(&t);
		for (j = 0; j < nk; j++) {
			const char *v = report_value(o, s, &kc[j],
			    &s->rows[x->lead], o->format, b, sizeof(b));

			rtab_put(&t, j, v == NULL && o->format == FMT_TABLE ?
			    "-" : v);
		}
		rtab_put(&t, nk, o->tz);
		rtab_putf(&t, at++, "%zu", x->ndays);
		if (x->ndays > 0) {
			day_text(b, sizeof(b), x->day0);
			rtab_put(&t, at++, b);
			day_text(b, sizeof(b), x->dayn);
			rtab_put(&t, at++, b);
			rtab_putf(&t, at++, "%.2f", x->last_peak);
		} else
			at += 3;
		if (fitted) {
			rtab_putf(&t, at++, "%.2f", x->level);
			rtab_putf(&t, at++, "%.3f", x->slope);
			rtab_putf(&t, at++, "%.3f", x->se);
		} else
			at += 3;
		rtab_putf(&t, at++, "%g", o->threshold);
		if (x->status == F_CROSSES) {
			put_day(&t, at++, x, x->cross);
			put_day(&t, at++, x, x->lo);
			if (x->hi >= 0)
				put_day(&t, at, x, x->hi);
			at++;
			rtab_putf(&t, at++, "%.1f", x->cross -
			    (double)(x->dayn - x->day0));
		} else
			at += 4;
		rtab_put(&t, at, status_names[x->status]);
	}
	rtab_head(&t, "# forecast");
	for (j = 0; j < report_nkeys(o); j++)
		rtab_head(&t, "%s%s", j > 0 ? ", " : " by ",
		    report_by_names[report_key(o, j)]);
	report_filter_head(&t, o);
	rtab_head(&t, ", from %s to %s; time zone %s; threshold %g%%\n",
	    (o->open & REPORT_OPEN_FROM) ? "the start" : fmt_datetime(from,
	    sizeof(from), o->from_ns / NS_I64), (o->open & REPORT_OPEN_TO) ?
	    "the end" : fmt_datetime(to, sizeof(to), o->to_ns / NS_I64),
	    fmt_escape(b, sizeof(b), o->tz, 0), o->threshold);
	rtab_head(&t, "# a day's peak: p95 of its observed hours' "
	    "utilisation; a least-squares line over the days; no trend: "
	    "|slope| <= t(95%%) x slope_se; crossing interval: 95%%\n");
	rtab_meta(&t, "tz", COL_TEXT, o->tz);
	snprintf(b, sizeof(b), "%g", o->threshold);
	rtab_meta(&t, "threshold_pct", COL_NUM, b);
	t.rows_name = "forecast";
	rc = rtab_print(fp, &t, o->format);
	rtab_free(&t);
	return rc;
}

/* Group g's series, from its rows idx[i0..i1) of s, fitted; -1: no
 * memory. */
static int
series(const struct report_opts *o, const struct report_set *s,
    const int64_t *obs, const double *allcap, const long *day,
    const size_t *idx, size_t i0,
    size_t i1, struct fgroup *g, double *cpu, double *hour, double *x,
    double *y)
{
	const struct report_row *l = &s->rows[idx[i0]];
	int64_t ncpu = report_ncpu(o, s, l);
	long h = -1;
	size_t i, b, n = 0, nh = 0;
	int k;

	g->lead = idx[i0];
	memset(cpu, 0, s->nb * sizeof(*cpu));
	for (i = i0; i < i1; i++) {
		const struct report_row *r = &s->rows[idx[i]];
		long bx = report_bucket_of(s, r->bucket);

		if (bx >= 0)
			cpu[bx] += (double)(r->v[RM_USER_NS] +
			    r->v[RM_SYS_NS]);
	}
	for (k = 0; k < report_nkeys(o); k++)
		if (report_key(o, k) == BY_HOST)
			h = (l->keynull >> k & 1) ? -2 : host_index(s,
			    l->key[k]);
	for (b = 0; b < s->nb && ncpu > 0 && h != -2; b++) {
		double cap;	/* CPU-ns the hour had */

		if (h >= 0)
			cap = (double)s->hosts[h].ncpu *
			    (double)obs[(size_t)h * s->nb + b];
		else
			cap = allcap[b];
		if (cap > 0)
			hour[nh++] = cpu[b] * 100 / cap;
		/* The day ends: its peak, if any hour of it was seen. */
		if (b + 1 == s->nb || day[b + 1] != day[b]) {
			if (nh > 0) {
				if (n == 0)
					g->day0 = day[b];
				g->dayn = day[b];
				x[n] = (double)(day[b] - g->day0);
				y[n++] = p95(hour, nh);
			}
			nh = 0;
		}
	}
	fit(g, x, y, n, o->threshold);
	if (n == 0)
		return 0;
	if ((g->x = calloc(n, sizeof(*g->x))) == NULL ||
	    (g->y = calloc(n, sizeof(*g->y))) == NULL)
		return -1;
	memcpy(g->x, x, n * sizeof(*x));
	memcpy(g->y, y, n * sizeof(*y));
	return 0;
}

static void
forecast_release(struct forecast *f)
{
	size_t g;

	for (g = 0; g < f->ng; g++) {
		free(f->gr[g].x);
		free(f->gr[g].y);
	}
	free(f->gr);
	report_set_release(&f->s);
	memset(f, 0, sizeof(*f));
}

/* The groups of opts's keys, fitted and most urgent first, into f. */
static int
forecast_run(struct rdb *db, const struct report_opts *opts,
    struct forecast *f, struct ex_err *err)
{
	struct report_opts hourly = *opts, *o = &hourly;
	struct report_set *s = &f->s;
	int64_t *obs = NULL;
	long *day = NULL;
	double *cpu = NULL, *hour = NULL, *x = NULL, *y = NULL, *allcap = NULL;
	size_t *idx = NULL, i, j, nb;
	int rc;

	memset(f, 0, sizeof(*f));
	/* The rows per hour, as --every hour has them. */
	hourly.every = EVERY_HOUR;
	if ((rc = report_buckets(db, o, s, err)) != EXR_OK ||
	    (rc = report_query(db, o, s, err)) != EXR_OK ||
	    (rc = report_capacity(db, s, err)) != EXR_OK ||
	    (rc = report_names_load(db, s, err)) != EXR_OK)
		goto out;
	nb = s->nb;
	rc = ex_fail(err, EXR_NOMEM, 0, "no memory");
	if ((obs = calloc(s->nhosts * nb + 1, sizeof(*obs))) == NULL ||
	    (day = calloc(nb + 1, sizeof(*day))) == NULL ||
	    (cpu = calloc(nb + 1, sizeof(*cpu))) == NULL ||
	    (hour = calloc(nb + 1, sizeof(*hour))) == NULL ||
	    (x = calloc(nb + 1, sizeof(*x))) == NULL ||
	    (y = calloc(nb + 1, sizeof(*y))) == NULL ||
	    (allcap = calloc(nb + 1, sizeof(*allcap))) == NULL ||
	    (idx = calloc(s->n + 1, sizeof(*idx))) == NULL ||
	    (f->gr = calloc(s->n + 1, sizeof(*f->gr))) == NULL)
		goto out;
	if ((rc = load_observed(db, s, obs, err)) != EXR_OK)
		goto out;
	/* Every host's CPU-ns each hour: a group without a host key's. */
	for (i = 0; i < nb; i++) {
		day[i] = local_day(s->edge[i]);
		for (j = 0; j < s->nhosts; j++)
			allcap[i] += (double)s->hosts[j].ncpu *
			    (double)obs[j * nb + i];
	}
	for (i = 0; i < s->n; i++)
		idx[i] = i;
	/* The groups' keys are the report's, not the hours'. */
	report_sort_keys(opts, s, idx, s->n);
	for (i = 0; i < s->n; i = j) {
		for (j = i + 1; j < s->n && report_same_keys(opts,
		    &s->rows[idx[i]], &s->rows[idx[j]]); j++)
			;
		if (series(opts, s, obs, allcap, day, idx, i, j,
		    &f->gr[f->ng++],
		    cpu, hour, x, y) != 0) {
			rc = ex_fail(err, EXR_NOMEM, 0, "no memory");
			goto out;
		}
	}
	if (f->ng > 1)
		qsort(f->gr, f->ng, sizeof(*f->gr), cmp_fgroups);
	rc = EXR_OK;
out:
	free(obs);
	free(day);
	free(cpu);
	free(hour);
	free(x);
	free(y);
	free(allcap);
	free(idx);
	if (rc != EXR_OK)
		forecast_release(f);
	return rc;
}

int
report_forecast(struct rdb *db, FILE *fp, const struct report_opts *o,
    struct ex_err *err)
{
	struct forecast f;
	int rc;

	if ((rc = forecast_run(db, o, &f, err)) != EXR_OK)
		return rc;
	if (print_groups(fp, o, &f.s, f.gr, f.ng) != 0)
		rc = ex_fail(err, EXR_NOMEM, 0, "no memory");
	else
		rc = ferror(fp) ? ex_fail(err, EXR_IO, 0, "write error") :
		    EXR_OK;
	forecast_release(&f);
	return rc;
}

/* Local midnight of day number z, epoch s. */
static int64_t
day_start(long z)
{
	char b[32];
	struct tm tm;

	day_text(b, sizeof(b), z);
	memset(&tm, 0, sizeof(tm));
	if (sscanf(b, "%d-%d-%d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday) != 3)
		return 0;
	tm.tm_year -= 1900;
	tm.tm_mon--;
	tm.tm_isdst = -1;
	return (int64_t)mktime(&tm);
}

int
chart_forecast(struct rdb *db, const struct report_opts *opts,
    struct chart *c, struct ex_err *err)
{
	struct report_opts w = *opts;
	struct report_col all[REPORT_MAXCOLS], *kc = NULL;
	struct forecast f;
	long first = 0, last = 0, end = 0, z;
	size_t g, n, b, i;
	char v[256];
	int rc, j, na;

	/* The page's forecast is of hosts, the svg's of its --by. */
	if (!opts->forecast) {
		w.by = BY_HOST;
		w.nkeys = 0;
		w.keyless = 0;
	}
	if (w.threshold <= 0)
		w.threshold = 80;
	snprintf(c->title, sizeof(c->title), "Capacity forecast by %s",
	    report_by_names[w.by]);
	snprintf(c->ylabel, sizeof(c->ylabel), "daily peak utilisation, %% "
	    "(p95 of the hours observed)");
	snprintf(c->empty, sizeof(c->empty), "no day observed in this window "
	    "(a forecast needs snap's snapshots)");
	snprintf(c->legend, sizeof(c->legend), "%s", report_by_names[w.by]);
	snprintf(c->ref_label, sizeof(c->ref_label), "threshold %g%%",
	    w.threshold);
	snprintf(c->xlabel, sizeof(c->xlabel), "days in %s; dashed: the "
	    "least-squares trend", w.tz);
	c->ref = w.threshold;
	c->paired = 1;
	c->daily = 1;
	if ((rc = forecast_run(db, &w, &f, err)) != EXR_OK)
		return rc;
	na = report_cols(&w, all);
	for (j = 0; j < na; j++)
		if (all[j].key && (all[j].formats & COLF_TABLE) &&
		    kc == NULL)
			kc = &all[j];
	/* The most urgent groups with days, and how far ahead to draw. */
	for (g = 0, n = 0; g < f.ng && n < CHART_TOP / 2; g++) {
		const struct fgroup *x = &f.gr[g];
		long to = x->dayn;

		if (x->ndays == 0)
			continue;
		if (x->status == F_CROSSES)
			to = x->day0 + (long)ceil(x->cross) + 1;
		if (n == 0 || x->day0 < first)
			first = x->day0;
		if (n == 0 || x->dayn > last)
			last = x->dayn;
		if (n == 0 || to > end)
			end = to;
		n++;
	}
	snprintf(c->subtitle, sizeof(c->subtitle), "%s; time zone %s",
	    (opts->open & (REPORT_OPEN_FROM | REPORT_OPEN_TO)) ?
	    "the days of the data" : "the days of the window", w.tz);
	if (n == 0)
		goto done;
	/* Ahead no further than the data goes back. */
	if (end < last)
		end = last;
	if (end - last > last - first + 1)
		end = last + (last - first + 1);
	c->nb = (size_t)(end - first + 1);
	rc = ex_fail(err, EXR_NOMEM, 0, "no memory");
	if ((c->edge = calloc(c->nb + 1, sizeof(*c->edge))) == NULL ||
	    (c->name = calloc(2 * n, sizeof(*c->name))) == NULL ||
	    (c->v = calloc(2 * n * c->nb, sizeof(*c->v))) == NULL)
		goto out;
	for (b = 0; b <= c->nb; b++)
		c->edge[b] = day_start(first + (long)b);
	for (g = 0, c->ns = 0; g < f.ng && c->ns < 2 * n; g++) {
		const struct fgroup *x = &f.gr[g];
		double *peak = &c->v[c->ns * c->nb], *line = peak + c->nb;
		const char *k;

		if (x->ndays == 0)
			continue;
		k = kc == NULL ? NULL : report_value(&w, &f.s, kc,
		    &f.s.rows[x->lead], FMT_TABLE, v, sizeof(v));
		snprintf(c->name[c->ns], sizeof(c->name[0]), "%s",
		    k != NULL ? k : "-");
		snprintf(c->name[c->ns + 1], sizeof(c->name[0]), "%s: %s",
		    k != NULL ? k : "-", status_names[x->status]);
		for (b = 0; b < c->nb; b++)
			peak[b] = line[b] = NAN;
		for (i = 0; i < x->ndays; i++)
			peak[x->day0 + (long)x->x[i] - first] = x->y[i];
		for (z = x->day0; x->status <= F_NOCROSS && z <= end; z++)
			line[z - first] = x->a + x->slope * (double)(z -
			    x->day0);
		c->ns += 2;
	}
done:
	rc = EXR_OK;
out:
	forecast_release(&f);
	return rc;
}
