/*
 * report_check: each pair of report options that cannot go together is
 * refused with a message naming them; the ones that can pass, and
 * --every alone totals without keys.
 */
#include <string.h>

#include "../../reports/report.h"
#include "check.h"

static struct report_opts
usage_opts(void)
{
	struct report_opts o;

	memset(&o, 0, sizeof(o));
	o.by = BY_USER;
	o.tolerance = -1;
	return o;
}

/* Refused, with a message holding what. */
static int
refused(struct report_opts o, int nfiles, const char *what)
{
	struct ex_err err = { 0 };

	return report_check(&o, nfiles, 1, &err) == EXR_USAGE &&
	    strstr(err.reason, what) != NULL;
}

void
suite_report_check(void)
{
	struct report_opts o = usage_opts();
	struct ex_err err = { 0 };

	CHECK("usage by user", report_check(&o, 0, 1, &err) == EXR_OK &&
	    !o.keyless);
	o = usage_opts();
	o.every = EVERY_DAY;
	CHECK("--every without --by: totals alone",
	    report_check(&o, 0, 0, &err) == EXR_OK && o.keyless);

	o = usage_opts();
	o.chart = REPORT_SVG;
	o.by = BY_HOUR;
	CHECK("a chart by hour", refused(o, 0, "--format svg|html"));
	o.by = BY_USER;
	CHECK("a chart of files", refused(o, 2, "charts read the database"));
	o.chart = REPORT_HTML;
	o.kind = REPORT_CAPTURE;
	CHECK("html of the capture", refused(o, 0, "draws every chart"));

	o = usage_opts();
	o.kind = REPORT_CAPTURE;
	CHECK("capture of files", refused(o, 1, "--capture reads the "
	    "database"));
	o.limit = 3;
	CHECK("capture --limit", refused(o, 0, "not --capture"));

	o = usage_opts();
	o.kind = REPORT_ENERGY;
	o.by = BY_ZONE;
	CHECK("energy by zone", refused(o, 0, "--energy: --by user, command "
	    "or host"));
	o.by = BY_HOST;
	CHECK("energy by host", report_check(&o, 0, 1, &err) == EXR_OK);
	o.percentiles = 1;
	CHECK("energy --percentiles", refused(o, 0, "not --energy"));

	o = usage_opts();
	o.percentiles = 1;
	CHECK("--percentiles without --every", refused(o, 0, "--every"));
	o = usage_opts();
	o.every = EVERY_HOUR;
	CHECK("files --every", refused(o, 1, "report FILE..."));
	o = usage_opts();
	o.tolerance = 0.1;
	CHECK("--tolerance without --capture", refused(o, 0, "--capture "
	    "only"));
	o.kind = REPORT_CAPTURE;
	CHECK("--tolerance with --capture", report_check(&o, 0, 1, &err) ==
	    EXR_OK && o.tolerance == 0.1);
	o = usage_opts();
	o.kind = REPORT_CAPTURE;
	CHECK("the default tolerance", report_check(&o, 0, 1, &err) ==
	    EXR_OK && o.tolerance == 0.05);

	o = usage_opts();
	o.forecast = 1;
	CHECK("a forecast is of hosts by default, at 80%",
	    report_check(&o, 0, 0, &err) == EXR_OK && o.by == BY_HOST &&
	    o.threshold == 80 && !o.keyless);
	o = usage_opts();
	o.forecast = 1;
	o.chart = REPORT_SVG;
	CHECK("a forecast's chart", report_check(&o, 0, 0, &err) == EXR_OK &&
	    o.by == BY_HOST);
	o.nkeys = 2;
	o.keys[0] = BY_HOST;
	o.keys[1] = BY_USER;
	CHECK("a forecast's chart of two keys", refused(o, 0,
	    "--format svg|html"));
	o.nkeys = 0;
	o.chart = REPORT_TEXT;
	o.every = EVERY_DAY;
	CHECK("a forecast --every", refused(o, 0, "--forecast reads"));
	o.every = EVERY_NONE;
	CHECK("a forecast of files", refused(o, 1, "--forecast reads"));
	o.by = BY_HOUR;
	CHECK("a forecast by hour", refused(o, 0, "not --by hour"));
	o = usage_opts();
	o.threshold = 70;
	CHECK("--threshold without --forecast", refused(o, 0, "--forecast "
	    "only"));
	o.forecast = 1;
	CHECK("--threshold with --forecast", report_check(&o, 0, 1, &err) ==
	    EXR_OK && o.threshold == 70);
}
