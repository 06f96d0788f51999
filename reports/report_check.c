/*
 * report_check (see report.h): the options of a report that cannot go
 * together, each refused with what to do instead.
 */
#include "chart.h"
#include "report.h"

int
report_check(struct report_opts *o, int nfiles, int by_given,
    struct ex_err *err)
{
	int capture = o->kind == REPORT_CAPTURE;
	int energy = o->kind == REPORT_ENERGY;
	int k;

	if (o->forecast && (o->kind != REPORT_USAGE || nfiles > 0 ||
	    o->every != EVERY_NONE || o->percentiles || o->sort != NULL ||
	    o->limit > 0 || o->averages))
		return ex_fail(err, EXR_USAGE, 0, "--forecast reads the "
		    "database's hours itself: no --capture, --energy, FILE, "
		    "--every, --percentiles, --sort, --limit or --averages");
	for (k = 0; o->forecast && k < (o->nkeys > 0 ? o->nkeys : 1); k++)
		if ((o->nkeys > 0 ? o->keys[k] : o->by) == BY_HOUR && by_given)
			return ex_fail(err, EXR_USAGE, 0, "--forecast: a "
			    "series of days per group; not --by hour");
	/* A forecast is of hosts unless --by says otherwise. */
	if (o->forecast && !by_given)
		o->by = BY_HOST;
	if (o->chart != REPORT_TEXT && (nfiles > 0 || o->nkeys > 1 ||
	    o->by == BY_HOUR))
		return ex_fail(err, EXR_USAGE, 0, "--format svg|html: charts "
		    "read the database, --by user, command, project, zone or "
		    "host");
	/* What a chart cannot draw is refused, never silently dropped. */
	if (o->chart != REPORT_TEXT && (o->sort != NULL || o->percentiles ||
	    o->averages))
		return ex_fail(err, EXR_USAGE, 0, "--format svg|html: a chart "
		    "has no --sort, --percentiles or --averages; use a table, "
		    "CSV or JSON");
	if (o->chart != REPORT_TEXT && o->every != EVERY_NONE &&
	    o->every != EVERY_HOUR && o->every != EVERY_DAY)
		return ex_fail(err, EXR_USAGE, 0, "--format svg|html: charts "
		    "draw hours or days: --every hour or day");
	if (o->chart != REPORT_TEXT && o->limit > CHART_MAXTOP)
		return ex_fail(err, EXR_USAGE, 0, "--format svg|html: --limit "
		    "%d at most (the colours a chart tells apart)",
		    CHART_MAXTOP);
	if (o->chart == REPORT_HTML && o->kind != REPORT_USAGE)
		return ex_fail(err, EXR_USAGE, 0, "--format html draws every "
		    "chart: no --capture or --energy");
	/* A ratio of some processes' CPU to all the CPU means nothing. */
	if (capture && report_filtered(o, 1))
		return ex_fail(err, EXR_USAGE, 0, "--capture: the ratio of "
		    "all processes' CPU to the busy CPU of a host; only "
		    "--host narrows it, not --user, --group, --command, "
		    "--unit or --container");
	if (energy && (o->filter.n[RF_GROUP] > 0 ||
	    report_cgroup_filtered(o)))
		return ex_fail(err, EXR_USAGE, 0, "--energy: energy intervals "
		    "record no group and no cgroup; not --group, --unit or "
		    "--container");
	if (nfiles > 0 && report_filtered(o, 0))
		return ex_fail(err, EXR_USAGE, 0, "report FILE...: no --user, "
		    "--group, --command, --host, --unit or --container "
		    "(filters read the database)");
	if (capture && nfiles > 0)
		return ex_fail(err, EXR_USAGE, 0, "--capture reads the "
		    "database, not files");
	if (energy && nfiles > 0)
		return ex_fail(err, EXR_USAGE, 0, "--energy reads the "
		    "database, and not with --capture");
	if (energy && (o->nkeys > 1 || (o->by != BY_USER &&
	    o->by != BY_COMMAND && o->by != BY_HOST)))
		return ex_fail(err, EXR_USAGE, 0, "--energy: --by user, "
		    "command or host");
	if ((capture || energy) && (o->every != EVERY_NONE || o->percentiles ||
	    o->sort != NULL || o->limit > 0 || o->averages))
		return ex_fail(err, EXR_USAGE, 0, "--every, --percentiles, "
		    "--sort, --limit and --averages are for usage, not --%s",
		    capture ? "capture" : "energy");
	if (o->percentiles && o->every == EVERY_NONE)
		return ex_fail(err, EXR_USAGE, 0, "--percentiles: of a series "
		    "of buckets; name them with --every");
	if (nfiles > 0 && (o->nkeys > 1 || o->every != EVERY_NONE))
		return ex_fail(err, EXR_USAGE, 0, "report FILE...: one --by "
		    "key, and no --every (those need a database)");
	/* Not given: < 0 (the capture's default then). */
	if (o->tolerance >= 0 && !capture)
		return ex_fail(err, EXR_USAGE, 0, "--tolerance: how far from 1 "
		    "a capture ratio may be; it goes with --capture only");
	if (o->tolerance < 0)
		o->tolerance = 0.05;
	/* Not given: 0, which no --threshold is (the default then). */
	if (o->threshold > 0 && !o->forecast)
		return ex_fail(err, EXR_USAGE, 0, "--threshold: the "
		    "utilisation --forecast looks for; it goes with "
		    "--forecast only");
	if (o->threshold <= 0)
		o->threshold = 80;
	o->keyless = o->every != EVERY_NONE && !by_given;
	return EXR_OK;
}
