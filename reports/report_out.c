/*
 * The usage report as an rtab (rtab.h): the columns of report_cols.c,
 * the values of report_value, the title above a table and, for JSON,
 * the keys, buckets and zone around the rows.  rtab_print writes it.
 */
#include <string.h>

#include "../parsers/records.h"
#include "fmt.h"
#include "report_int.h"

void
report_title(struct rtab *t, const struct report_opts *o, const char *more)
{
	char from[40], to[40], tz[256];
	int k;

	rtab_head(t, "# usage");
	for (k = 0; k < report_nkeys(o); k++)
		rtab_head(t, "%s%s", k > 0 ? ", " : " by ",
		    report_by_names[report_key(o, k)]);
	if (o->every != EVERY_NONE)
		rtab_head(t, " every %s", report_every_names[o->every]);
	if (o->open & REPORT_OPEN_FROM)
		rtab_head(t, ", from the start");
	else
		rtab_head(t, ", from %s", fmt_datetime(from, sizeof(from),
		    o->from_ns / NS_I64));
	if (o->open & REPORT_OPEN_TO)
		rtab_head(t, " to the end");
	else
		rtab_head(t, " to %s", fmt_datetime(to, sizeof(to),
		    o->to_ns / NS_I64));
	report_filter_head(t, o);
	rtab_head(t, "; time zone %s\n# " REPORT_APPORTIONED
	    "; calls: processes that ended%s\n",
	    fmt_escape(tz, sizeof(tz), o->tz, 0), more != NULL ? more : "");
}

/*
 * What util_pct divides by, for the header, where util_pct has a value
 * and a host's snapshots say how long it was observed; NULL elsewhere
 * (the whole span, as it always was).
 */
static const char *
util_note(const struct report_set *s, int shown)
{
	size_t i;
	int watched = 0, not = 0;

	for (i = 0; i < s->nhosts; i++) {
		if (s->hosts[i].watched)
			watched = 1;
		else if (s->hosts[i].ncpu > 0)
			not = 1;
	}
	if (!shown || !watched)
		return NULL;
	return not ? "; util_pct: CPU over the time each host was observed"
	    " (observed_s), the whole span where that is not known" :
	    "; util_pct: CPU over the time each host was observed"
	    " (observed_s)";
}

/*
 * Why util_pct is blank: the hosts whose CPU count nothing says (only
 * snap's records carry one; else the host's cpus: key), the first few.
 */
static void
report_cpus_note(struct rtab *t, const struct report_set *s)
{
	char b[256];
	size_t i, n = 0;

	for (i = 0; i < s->nhosts; i++) {
		if (s->hosts[i].ncpu > 0)
			continue;
		if (n < 8)
			rtab_head(t, "%s%s", n == 0 ? "# util_pct: blank for "
			    "hosts " : ", ", fmt_escape(b, sizeof(b),
			    s->hosts[i].host, 0));
		n++;
	}
	if (n > 8)
		rtab_head(t, " and %zu more", n - 8);
	if (n > 0)
		rtab_head(t, ": CPU count unknown (set cpus: in the "
		    "config)\n");
}

/* JSON: the keys, buckets and zone around the rows. */
static void
report_meta(struct rtab *t, const struct report_opts *o)
{
	char by[256];
	size_t at = 0;
	int k;

	by[0] = '\0';
	for (k = 0; k < report_nkeys(o) && at < sizeof(by); k++)
		at += (size_t)snprintf(by + at, sizeof(by) - at, "%s%s",
		    k > 0 ? "," : "", report_by_names[report_key(o, k)]);
	rtab_meta(t, "by", COL_TEXT, by);
	if (o->every != EVERY_NONE)
		rtab_meta(t, "every", COL_TEXT, report_every_names[o->every]);
	rtab_meta(t, "tz", COL_TEXT, o->tz);
}

int
report_out(FILE *fp, const struct report_opts *o, const struct report_set *s)
{
	struct report_col c[REPORT_MAXCOLS];
	struct rtab t;
	char b[256];
	size_t i;
	int j, nc, rc, util = 0;
	const char *v;

	rtab_init(&t);
	nc = report_cols(o, c);
	for (j = 0; j < nc; j++)
		rtab_col(&t, c[j].name, c[j].kind, c[j].formats,
		    strcmp(c[j].name, "calls") == 0 ? RTC_KEEP : 0, 0);
	/* A pacct host has no read_bytes: no column of blanks for it. */
	t.drop_empty = 1;
	for (i = 0; i < s->n; i++) {
		rtab_row(&t);
		for (j = 0; j < nc; j++) {
			v = report_value(o, s, &c[j], &s->rows[i], o->format,
			    b, sizeof(b));
			if (v != NULL && strcmp(c[j].name, "util_pct") == 0)
				util = 1;
			rtab_put(&t, j, v);
		}
	}
	report_title(&t, o, util_note(s, util));
	if (report_rows_timed(o))
		report_cpus_note(&t, s);
	report_meta(&t, o);
	rtab_meta(&t, "apportioned", COL_TEXT, REPORT_APPORTIONED);
	rc = rtab_print(fp, &t, o->format);
	rtab_free(&t);
	return rc;
}
