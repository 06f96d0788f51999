/*
 * pgconn (see pgconn.h): libpq's own rules for where a connection goes
 * and how it authenticates, with two of ours: no password in the string
 * (it would be seen in ps(1) or in a file others can read), and a
 * connect timeout, so that a run whose server is down ends.
 */
#include <stdio.h>
#include <string.h>

#include "pgconn.h"

int
pg_conninfo_check(const char *conninfo, int allow_password, char *why,
    size_t n)
{
	PQconninfoOption *opts, *o;
	char *msg = NULL;
	int rc = 0;

	if (conninfo == NULL || *conninfo == '\0')
		return 0;
	if ((opts = PQconninfoParse(conninfo, &msg)) == NULL) {
		snprintf(why, n, "cannot be parsed: %s", msg != NULL ? msg :
		    "out of memory");
		if (msg != NULL) {
			why[strcspn(why, "\n")] = '\0';
			PQfreemem(msg);
		}
		return -1;
	}
	for (o = opts; o->keyword != NULL; o++)
		if (!allow_password && strcmp(o->keyword, "password") == 0 &&
		    o->val != NULL &&
		    *o->val != '\0') {
			snprintf(why, n, "holds a password: put it in "
			    "~/.pgpass (or PGPASSFILE), or in a "
			    "configuration file only its owner can read");
			rc = -1;
		}
	PQconninfoFree(opts);
	return rc;
}

char *
pg_msg(PGconn *conn, const PGresult *res, char *buf, size_t n)
{
	const char *m = res != NULL ? PQresultErrorMessage(res) : "";
	char *p;

	if (*m == '\0' && conn != NULL)
		m = PQerrorMessage(conn);
	if (*m == '\0')
		m = "unknown error";
	snprintf(buf, n, "%s", m);
	/* The first line says it ("ERROR:  x", "connection to server ...
	 * failed: Connection refused"); hints follow on others. */
	buf[strcspn(buf, "\n")] = '\0';
	for (p = buf; *p != '\0'; p++)
		if (*p == '\t')
			*p = ' ';
	return buf;
}

static void
quiet(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

int
pg_open(const char *conninfo, int allow_password, PGconn **conn,
    struct ex_err *err)
{
	/* Later keywords override earlier ones, and the expanded dbname
	 * overrides what comes before it: the string has the last word. */
	const char *keys[] = { "connect_timeout",
	    "fallback_application_name", "client_encoding", "options",
	    "dbname", NULL };
	const char *vals[] = { "10", "extracct", "UTF8",
	    "-c TimeZone=UTC -c statement_timeout=0", conninfo, NULL };
	char why[160], msg[160];

	*conn = NULL;
	if (pg_conninfo_check(conninfo, allow_password, why,
	    sizeof(why)) == -1)
		return ex_fail(err, EXR_USAGE, 0, "central server: the "
		    "connection string %s", why);
	if (conninfo == NULL || *conninfo == '\0')
		keys[4] = vals[4] = NULL;
	*conn = PQconnectdbParams(keys, vals, 1);
	if (*conn == NULL)
		return ex_fail(err, EXR_NOMEM, 0, "out of memory");
	if (PQstatus(*conn) != CONNECTION_OK) {
		pg_msg(*conn, NULL, msg, sizeof(msg));
		PQfinish(*conn);
		*conn = NULL;
		return ex_fail(err, EXR_CENTRAL, 0, "central server: %s",
		    msg);
	}
	/* NOTICEs (a view dropped that did not exist) are not ours. */
	PQsetNoticeProcessor(*conn, quiet, NULL);
	return EXR_OK;
}

int
pg_exec(PGconn *conn, const char *sql, const char *what,
    struct ex_err *err)
{
	PGresult *res = PQexec(conn, sql);
	char msg[160];
	int rc = EXR_OK;

	if (PQresultStatus(res) != PGRES_COMMAND_OK &&
	    PQresultStatus(res) != PGRES_TUPLES_OK)
		rc = ex_fail(err, EXR_CENTRAL, 0, "central server: %s: %s",
		    what, pg_msg(conn, res, msg, sizeof(msg)));
	PQclear(res);
	return rc;
}
