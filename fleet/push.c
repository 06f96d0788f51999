/* push (see push.h). */
#include <libpq-fe.h>

#include "central_schema.h"
#include "pgconn.h"
#include "push.h"

int
push_db(const char *db, const char *conninfo, int allow_password,
    struct push_stats *st, struct ex_err *err)
{
	PGconn *conn;
	int rc;

	(void)db; (void)st;
	if ((rc = pg_open(conninfo, allow_password, &conn, err)) != EXR_OK)
		return rc;
	rc = central_migrate(conn, err);
	PQfinish(conn);
	return rc;
}
