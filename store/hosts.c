/*
 * The hosts table (see docs/schema.md): every sink's rows name a host,
 * found or added once per file (host_find) by its identity (hostid.h:
 * this machine's for the store's own name, store_self, else the name
 * alone), with the host's electricity as configured and the exit
 * sources it has had; and pacct_gaps, the times a host's process
 * accounting was off.  Called by the sinks, the ingest loop and merge;
 * calls nothing of theirs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostid.h"
#include "ingest_int.h"

enum { H_INS, H_SEL, H_UPD_SOURCES, H_UPD_CARBON, H_UPD_CPUS, H_FILL,
    H_N };

static const char *const h_sql[H_N] = {
	[H_INS] = "INSERT OR IGNORE INTO hosts (name, ident) VALUES (?, ?)",
	[H_SEL] = "SELECT host_id, exit_sources FROM hosts WHERE ident = ?",
	[H_UPD_SOURCES] = "UPDATE hosts SET exit_sources = exit_sources | ? "
	    "WHERE host_id = ?",
	[H_UPD_CARBON] = "UPDATE hosts SET carbon_g_per_kwh = ?, "
	    "carbon_source = ? WHERE host_id = ?",
	[H_UPD_CPUS] = "UPDATE hosts SET cpus = ?, cpus_source = 'config' "
	    "WHERE host_id = ?",
	/*
	 * Rows from before schema 12 have none: this machine's name gets
	 * its identity, any other name hostid_name's "name:NAME".  OR
	 * IGNORE: a row whose identity another row already has (only one
	 * added by hand) keeps none, and is never found again.
	 */
	[H_FILL] = "UPDATE OR IGNORE hosts SET ident = CASE WHEN name = ?1 "
	    "THEN ?2 ELSE 'name:' || name END WHERE ident IS NULL",
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

void
store_self(struct store *s, const char *name, const char *ident)
{
	snprintf(s->self_name, sizeof(s->self_name), "%s", name);
	snprintf(s->self_ident, sizeof(s->self_ident), "%s", ident);
	s->has_self = name[0] != '\0' && ident[0] != '\0';
}

/* The identity of the host called name, into buf[HOSTID_MAX]. */
static const char *
host_ident(const struct store *s, const char *name, char *buf)
{
	if (s->has_self && strcmp(name, s->self_name) == 0)
		return s->self_ident;
	return hostid_name(name, buf, HOSTID_MAX);
}

int
hosts_fill(struct store *s, struct ex_err *err)
{
	sqlite3_stmt *st = s->hosts->st[H_FILL];

	if (s->has_self) {
		sqlite3_bind_text(st, 1, s->self_name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, s->self_ident, -1, SQLITE_STATIC);
	} else {
		sqlite3_bind_null(st, 1);
		sqlite3_bind_null(st, 2);
	}
	return store_step(s, st, err);
}

/*
 * The row of the host called name, added if new (found by its
 * identity, host_ident): its id into *id, and its exit sources into
 * *sources unless NULL.  EXR_OK or EXR_DB.
 */
static int
host_row(struct store *s, const char *name, int64_t *id, unsigned *sources,
    struct ex_err *err)
{
	sqlite3_stmt *ins = s->hosts->st[H_INS], *sel = s->hosts->st[H_SEL];
	char buf[HOSTID_MAX];
	const char *ident = host_ident(s, name, buf);
	int rc;

	*id = 0;
	if ((rc = hosts_fill(s, err)) != EXR_OK)
		return rc;
	sqlite3_bind_text(ins, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(ins, 2, ident, -1, SQLITE_STATIC);
	if ((rc = store_step(s, ins, err)) != EXR_OK)
		return rc;
	sqlite3_bind_text(sel, 1, ident, -1, SQLITE_STATIC);
	if (sqlite3_step(sel) == SQLITE_ROW) {
		*id = sqlite3_column_int64(sel, 0);
		if (sources != NULL)
			*sources = (unsigned)sqlite3_column_int(sel, 1);
	}
	sqlite3_reset(sel);
	return *id > 0 ? EXR_OK : db_fail(s->db, err, "hosts");
}

/* The host's row, added if new: its id and exit sources into r. */
static int
host_id(struct run *r, const char *name)
{
	struct store *s = r->s;
	int rc;

	if ((rc = host_row(s, name, &r->host_id, &r->host_sources,
	    r->err)) != EXR_OK)
		return rc;
	if (r->o->host == NULL || strcmp(name, r->o->host) != 0)
		return EXR_OK;
	/* A host's configuration says its own CPUs (cpus:), ... */
	if (r->o->cpus > 0) {
		sqlite3_stmt *st = s->hosts->st[H_UPD_CPUS];

		sqlite3_bind_int64(st, 1, r->o->cpus);
		sqlite3_bind_int64(st, 2, r->host_id);
		if ((rc = store_step(s, st, r->err)) != EXR_OK)
			return rc;
	}
	/* ... and its own electricity's intensity. */
	if (r->o->carbon_intensity >= 0) {
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
	    "VALUES (?, ?, ?, ?)";
	sqlite3_stmt *st;
	int64_t id;
	int rc;

	if ((rc = host_row(s, host, &id, NULL, err)) != EXR_OK)
		return rc;
	if (db_prepare(s->db, sql, &st, err) != EXR_OK)
		return EXR_DB;
	sqlite3_bind_int64(st, 1, id);
	if (t0_ns >= 0)
		sqlite3_bind_int64(st, 2, t0_ns);
	sqlite3_bind_int64(st, 3, t1_ns);
	sqlite3_bind_text(st, 4, reason, -1, SQLITE_STATIC);
	rc = sqlite3_step(st) == SQLITE_DONE ? EXR_OK :
	    db_fail(s->db, err, "pacct_gaps");
	sqlite3_finalize(st);
	return rc;
}
