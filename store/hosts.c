/*
 * The hosts table (see docs/schema.md): every sink's rows name a host,
 * found or added once per file (host_find), with the host's electricity
 * as configured and the exit sources it has had; and pacct_gaps, the
 * times a host's process accounting was off.  Called by the sinks and
 * the ingest loop; calls nothing of theirs.
 */
#include <stdlib.h>
#include <string.h>

#include "ingest_int.h"

enum { H_INS, H_SEL, H_UPD_SOURCES, H_UPD_CARBON, H_N };

static const char *const h_sql[H_N] = {
	[H_INS] = "INSERT OR IGNORE INTO hosts (name) VALUES (?)",
	[H_SEL] = "SELECT host_id, exit_sources FROM hosts WHERE name = ?",
	[H_UPD_SOURCES] = "UPDATE hosts SET exit_sources = exit_sources | ? "
	    "WHERE host_id = ?",
	[H_UPD_CARBON] = "UPDATE hosts SET carbon_g_per_kwh = ?, "
	    "carbon_source = ? WHERE host_id = ?",
};

struct hosts {
	sqlite3_stmt	*st[H_N];
};

int
hosts_prepare(struct store *s, struct ex_err *err)
{
	if ((s->hosts = calloc(1, sizeof(*s->hosts))) == NULL)
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	return stmts_prepare(s->db, h_sql, s->hosts->st, H_N, err);
}

void
hosts_finalize(struct store *s)
{
	if (s->hosts == NULL)
		return;
	stmts_finalize(s->hosts->st, H_N);
	free(s->hosts);
	s->hosts = NULL;
}

/* The host's row, added if new: its id and exit sources into r. */
static int
host_id(struct run *r, const char *name)
{
	struct store *s = r->s;
	sqlite3_stmt *ins = s->hosts->st[H_INS], *sel = s->hosts->st[H_SEL];
	int rc;

	sqlite3_bind_text(ins, 1, name, -1, SQLITE_STATIC);
	if ((rc = store_step(s, ins, r->err)) != EXR_OK)
		return rc;
	sqlite3_bind_text(sel, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(sel) == SQLITE_ROW) {
		r->host_id = sqlite3_column_int64(sel, 0);
		r->host_sources = (unsigned)sqlite3_column_int(sel, 1);
	}
	sqlite3_reset(sel);
	if (r->host_id <= 0)
		return db_fail(s->db, r->err, "hosts");
	/* A host's configuration says its own electricity's intensity. */
	if (r->o->carbon_intensity >= 0 && r->o->host != NULL &&
	    strcmp(name, r->o->host) == 0) {
		sqlite3_stmt *st = s->hosts->st[H_UPD_CARBON];

		sqlite3_bind_double(st, 1, r->o->carbon_intensity);
		bind_str(st, 2, r->o->carbon_source != NULL &&
		    r->o->carbon_source[0] != '\0', r->o->carbon_source);
		sqlite3_bind_int64(st, 3, r->host_id);
		return store_step(s, st, r->err);
	}
	return EXR_OK;
}

/*
 * The host of the records being read: the log's own name for it, else
 * --host (the machine ingesting), else "unknown".
 */
int
host_find(struct run *r, const char *from_log)
{
	r->host = from_log[0] != '\0' ? from_log :
	    r->o->host != NULL ? r->o->host : "unknown";
	return host_id(r, r->host);
}

int
host_note_source(struct run *r)
{
	sqlite3_stmt *u = r->s->hosts->st[H_UPD_SOURCES];

	if (r->host_sources & r->source)
		return EXR_OK;
	r->host_sources |= r->source;
	sqlite3_bind_int(u, 1, (int)r->source);
	sqlite3_bind_int64(u, 2, r->host_id);
	return store_step(r->s, u, r->err);
}

int
store_pacct_gap(struct store *s, const char *host, int64_t t0_ns,
    int64_t t1_ns, const char *reason, struct ex_err *err)
{
	/*
	 * Once per switch (t1 and t0 together): a run that stored it but
	 * could not then remove it from the spool stores it again as
	 * nothing.
	 */
	static const char sql[] =
	    "INSERT OR IGNORE INTO pacct_gaps (host_id, t0_ns, t1_ns, reason) "
	    "SELECT host_id, ?, ?, ? FROM hosts WHERE name = ?";
	sqlite3_stmt *st, *ins = s->hosts->st[H_INS];
	int rc;

	sqlite3_bind_text(ins, 1, host, -1, SQLITE_STATIC);
	if ((rc = store_step(s, ins, err)) != EXR_OK)
		return rc;
	if (db_prepare(s->db, sql, &st, err) != EXR_OK)
		return EXR_DB;
	if (t0_ns >= 0)
		sqlite3_bind_int64(st, 1, t0_ns);
	sqlite3_bind_int64(st, 2, t1_ns);
	sqlite3_bind_text(st, 3, reason, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, host, -1, SQLITE_STATIC);
	rc = sqlite3_step(st) == SQLITE_DONE ? EXR_OK :
	    db_fail(s->db, err, "pacct_gaps");
	sqlite3_finalize(st);
	return rc;
}
