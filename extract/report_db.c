/*
 * report_db (see report_db.h): one way into a report's database, for
 * either engine, and the report the options ask for.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>
#ifdef HAVE_LIBPQ
#include <libpq-fe.h>

#include "../fleet/pgconn.h"
#endif

#include "../reports/chart.h"
#include "../store/db.h"
#include "config.h"
#include "report_db.h"
#include "util.h"

/*
 * Does db name a PostgreSQL server rather than an SQLite file?  A URI
 * (postgresql://, postgres://), or libpq's keyword=value form (host=...
 * dbname=..., service=NAME), unless a file of that name exists.
 */
static int
is_conninfo(const char *db)
{
	size_t n = strspn(db, "abcdefghijklmnopqrstuvwxyz_");

	if (strncmp(db, "postgresql://", 13) == 0 ||
	    strncmp(db, "postgres://", 11) == 0)
		return 1;
	return n > 0 && db[n] == '=' && access(db, F_OK) != 0;
}

#ifdef HAVE_LIBPQ
/* The server, its session in the report's zone. */
static int
open_central(struct report_db *d, const char *conninfo, const char *tz)
{
	const char *vals[1];
	char zone[1024], msg[512];
	struct ex_err err = { 0 };
	PGconn *conn;
	PGresult *res;
	int rc;

	if (config_zone_name(tz, zone, sizeof(zone)) != 0)
		return complain(EXR_USAGE, "report: the local time zone has no "
		    "name the server could know (TZ, /etc/localtime): give "
		    "--tz ZONE");
	/* A password on the command line is refused: ~/.pgpass has it. */
	if ((rc = pg_open(conninfo, 0, &conn, &err)) != EXR_OK)
		return complain(rc, "report: %s", err.reason);
	vals[0] = zone;
	res = PQexecParams(conn, "SELECT set_config('TimeZone', $1, false)",
	    1, NULL, vals, NULL, NULL, 0);
	if (PQresultStatus(res) != PGRES_TUPLES_OK) {
		pg_msg(conn, res, msg, sizeof(msg));
		PQclear(res);
		PQfinish(conn);
		return complain(EXR_USAGE, "report: central server: time zone "
		    "'%s': %s", zone, msg);
	}
	PQclear(res);
	if ((d->r = rdb_postgresql(conn)) == NULL) {
		PQfinish(conn);
		return complain(EXR_NOMEM, "report: no memory");
	}
	d->pg = conn;
	return EXR_OK;
}
#endif

int
report_db_open(struct report_db *d, const char *db, int central,
    const char *tz)
{
	struct ex_err err = { 0 };
	sqlite3 *h;
	int rc;

	memset(d, 0, sizeof(*d));
	d->name = db;
	if (central || is_conninfo(db)) {
#ifdef HAVE_LIBPQ
		return open_central(d, db, tz);
#else
		(void)tz;
		return complain(EXR_NOPG, "report: --central (or --db "
		    "postgresql://..., service=, host=...) reads a PostgreSQL "
		    "server, and "
		    "this extracct was built without libpq: build it with "
		    "libpq-dev installed, and not NO_LIBPQ=1");
#endif
	}
	if ((rc = db_open_readonly(db, &h, &err)) != EXR_OK)
		return complain(rc, "%s: %s", db, err.reason);
	if ((d->r = rdb_sqlite(h)) == NULL) {
		db_close(h);
		return complain(EXR_NOMEM, "%s: no memory", db);
	}
	d->lite = h;
	return EXR_OK;
}

void
report_db_close(struct report_db *d)
{
	if (d->r != NULL)
		rdb_close(d->r);
	if (d->lite != NULL)
		db_close(d->lite);
#ifdef HAVE_LIBPQ
	if (d->pg != NULL)
		PQfinish(d->pg);
#endif
	memset(d, 0, sizeof(*d));
}

int
report_db_run(struct report_db *d, const struct report_opts *opts)
{
	struct report_opts w = *opts, *o = &w;
	struct ex_err err = { 0 };
	int64_t out;
	int rc;

	/* An unknown name is a typo, not an empty report. */
	if ((rc = report_filter_check(d->r, o, &err)) != EXR_OK ||
	    (rc = report_window(d->r, &w, o->kind == REPORT_ENERGY, &out,
	    &err)) != EXR_OK)
		goto fail;
	/* Said apart from the report, whatever its format. */
	if (out > 0)
		say(stderr, "extracct: report: %" PRId64 " interval%s out of "
		    "range (before 1970 or from 2200 on) left out of the "
		    "window; --from and --to take %s in", out, out == 1 ? "" :
		    "s", out == 1 ? "it" : "them");
	if (o->chart == REPORT_HTML)
		rc = report_html(d->r, stdout, o, &err);
	else if (o->chart == REPORT_SVG)
		rc = report_svg(d->r, stdout, o, o->forecast ? CHART_FORECAST :
		    o->kind == REPORT_CAPTURE ? CHART_CAPTURE :
		    o->kind == REPORT_ENERGY ? CHART_ENERGY : CHART_CPU, &err);
	else
		rc = o->forecast ? report_forecast(d->r, stdout, o, &err) :
		    o->kind == REPORT_CAPTURE ? report_capture(d->r, stdout,
		    o, &err) : o->kind == REPORT_ENERGY ? report_energy(d->r,
		    stdout, o, &err) : report_run(d->r, stdout, o, &err);
	if (rc == EXR_OK)
		return EXR_OK;
fail:
	/* A usage error is the options', not the database's. */
	if (rc == EXR_USAGE)
		return complain(rc, "%s", err.reason);
	if (d->pg != NULL)
		return complain(rc, "report: central server: %s", err.reason);
	return complain(rc, "%s: %s", d->name, err.reason);
}
