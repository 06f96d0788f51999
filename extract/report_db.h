/*
 * The database a report reads: an SQLite file, or the fleet's central
 * PostgreSQL server (docs/fleet.md), the engine told by the name
 * (postgresql://..., postgres://..., service=..., host=... dbname=...).
 * Either way the report layer reads it through rdb (reports/rdb.h).
 */
#ifndef REPORT_DB_H
#define REPORT_DB_H

#include "../reports/report.h"

struct report_db {
	const char	*name;		/* as given, for messages */
	struct rdb	*r;
	void		*lite;		/* sqlite3, or NULL */
	void		*pg;		/* PGconn, or NULL */
};

/*
 * Open db read-only (never created): an SQLite file, or a server's
 * CONNINFO when central is set or db has a server's form.  On a server the session's time
 * zone is the report's (tz: --tz or timezone:; its name from
 * config_zone_name), so that its hours are the ones printed.  Messages
 * printed; EXR_OK, or an EXR_* code (EXR_NOPG without libpq).
 */
int	report_db_open(struct report_db *d, const char *db, int central,
	    const char *tz);
void	report_db_close(struct report_db *d);

/*
 * The report o asks for on d, to stdout: a chart (svg, or the html
 * page), the capture ratio, energy, or usage; over o's window, its open
 * ends bounded to the range times can be in (what that leaves out is
 * said on stderr).  Messages printed; an EXR_* code.
 */
int	report_db_run(struct report_db *d, const struct report_opts *o);

#endif
