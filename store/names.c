/*
 * host_names (docs/schema.md): the names a host gives its user, group
 * and project ids, from its own files, so that a report read on another
 * machine shows them (reports/report_names.c).  Stored for a host that
 * has rows already (ingest adds no host for its names alone), a kind's
 * names replaced whole in one transaction: a user deleted from the
 * host's passwd loses its name here too.
 */
#include <string.h>

#include "hostid.h"
#include "ingest_int.h"

int
store_host_names(struct store *s, const char *host, const char *kind,
    const struct store_name *names, size_t n, struct ex_err *err)
{
	static const char sel_sql[] =
	    "SELECT host_id FROM hosts WHERE ident = ?";
	static const char del_sql[] =
	    "DELETE FROM host_names WHERE host_id = ? AND kind = ?";
	static const char ins_sql[] =
	    "INSERT OR REPLACE INTO host_names (host_id, kind, id, name) "
	    "VALUES (?, ?, ?, ?)";
	sqlite3_stmt *sel = NULL, *del = NULL, *ins = NULL;
	char buf[HOSTID_MAX];
	const char *ident;
	int64_t id = 0;
	size_t i;
	int rc;

	ident = s->has_self && strcmp(host, s->self_name) == 0 ?
	    s->self_ident : hostid_name(host, buf, sizeof(buf));
	if (db_prepare(s->db, sel_sql, &sel, err) != EXR_OK)
		return EXR_DB;
	sqlite3_bind_text(sel, 1, ident, -1, SQLITE_STATIC);
	if (sqlite3_step(sel) == SQLITE_ROW)
		id = sqlite3_column_int64(sel, 0);
	sqlite3_finalize(sel);
	if (id == 0)
		return EXR_OK;	/* the host has no rows: nothing to name */
	if ((rc = db_exec(s->db, "BEGIN IMMEDIATE", err)) != EXR_OK)
		return rc;
	if (db_prepare(s->db, del_sql, &del, err) != EXR_OK ||
	    db_prepare(s->db, ins_sql, &ins, err) != EXR_OK) {
		rc = EXR_DB;
		goto out;
	}
	sqlite3_bind_int64(del, 1, id);
	sqlite3_bind_text(del, 2, kind, -1, SQLITE_STATIC);
	if ((rc = store_step(s, del, err)) != EXR_OK)
		goto out;
	for (i = 0; i < n; i++) {
		sqlite3_bind_int64(ins, 1, id);
		sqlite3_bind_text(ins, 2, kind, -1, SQLITE_STATIC);
		sqlite3_bind_int64(ins, 3, names[i].id);
		sqlite3_bind_text(ins, 4, names[i].name, -1, SQLITE_STATIC);
		if ((rc = store_step(s, ins, err)) != EXR_OK)
			goto out;
	}
out:
	sqlite3_finalize(del);
	sqlite3_finalize(ins);
	if (rc == EXR_OK)
		return db_exec(s->db, "COMMIT", err);
	{
		struct ex_err ignored = { 0 };

		db_exec(s->db, "ROLLBACK", &ignored);
	}
	return rc;
}
