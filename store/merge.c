/*
 * merge (see merge.h): one source database into the store, through the
 * tables docs/schema.md publishes.
 *
 * The source is opened read-only and read in one read transaction (one
 * snapshot, even while its own ingest commits); the destination takes
 * one write transaction for the whole source.  Hosts come first, matched
 * by identity; then, host by host, each table of mtabs[] in order, parents
 * before children.  A parent row (a file, process, task, energy process,
 * series, RAPL zone, cgroup) is looked up by its natural key: found, it is
 * brought up to date where the source knows more (an exit, a file read
 * further), else it is added; either way its source id is mapped to its
 * id here in a temporary table, which the children's inserts read.  A
 * child row is inserted unless its key is there already (OR IGNORE, or an
 * upsert that keeps the newer of two states).  Conversations (flows) are
 * not copied: they are paired again from the merged flow_records of every
 * 5-tuple that changed, as ingest does, so the result is what one ingest
 * of every host's logs would have made.
 *
 * Exactly once rests on those keys, not on the marks: a source's ids say
 * nothing across databases (two databases may hold one host, numbered
 * apart, and SQLite may reuse a rowid), so a high-water mark of them could
 * skip rows never copied.  The marks (merge_marks) record, per source
 * host, when and from where it was merged and what that added.
 *
 * Cost: each merge reads the whole source, a B-tree lookup per row; the
 * ledger's rows are found by a scan of files (no index on when a file was
 * first ingested: the local schema needs none).
 */
#include <sys/stat.h>

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ingest_int.h"
#include "merge.h"
#include "rollup.h"

#define MAXCOLS	64	/* columns of one table, and then some */

/*
 * How one table is copied.  Source rows are "SELECT x.* FROM " from,
 * ?1 being the source host's id (NULL: rows of no host).  The insert is
 * built from the table's columns (PRAGMA table_info): own (the table's
 * id, which the destination gives) is left out, host_id becomes the
 * destination host's id, a column of fk[] the id its map gives; every
 * other column is bound by name (:column) from the source row.
 */
struct mtab {
	const char	*name;
	const char	*from;
	const char	*own;		/* its own id column; NULL: none */
	const char	*map;		/* temp table of own ids, src -> dst */
	const char	*fk[2][2];	/* { column, map } */
	const char	*verb;		/* "INSERT" or "INSERT OR IGNORE" */
	const char	*cond;		/* the insert's WHERE; NULL: always */
	const char	*conflict;	/* appended; %SET% = every column from
					   excluded */
	const char	*find;		/* parents: the id here, by natural key
					   (:column, :dst_host) */
	const char	*upd;		/* parents, when found (:dst_id) */
	const char	*changed;	/* leaves: run when a row changed */
};

/*
 * The exit columns of procs, set when a live process is seen closed;
 * and (schema 16) the interval a source's row carries when the source
 * saw the process only at its exit.
 */
#define PROC_EXIT_COLS "finish_ns, wait_status, acctflags, exit_source, " \
	"base_cpu_ns, delay_cpu_ns, delay_blkio_ns, delay_swapin_ns, " \
	"delay_freepages_ns, delay_thrashing_ns, delay_compact_ns, " \
	"delay_wpcopy_ns, delay_irq_ns, cpu_run_ns, mem_kb, " EXIT_COLUMNS ", " \
	"exit_anomalies"
#define PROC_EXIT_VALS ":finish_ns, :wait_status, :acctflags, " \
	":exit_source, :base_cpu_ns, :delay_cpu_ns, :delay_blkio_ns, " \
	":delay_swapin_ns, :delay_freepages_ns, :delay_thrashing_ns, " \
	":delay_compact_ns, :delay_wpcopy_ns, :delay_irq_ns, :cpu_run_ns, " \
	":mem_kb, " \
	EXIT_VALUES ", :exit_anomalies"

/* Rows of a child table whose parent is of the source host. */
#define OF_PROC(t)	t " x JOIN procs p USING (proc_id) WHERE p.host_id = ?1"
#define OF_TASK(t)	t " x JOIN tasks p USING (task_id) WHERE p.host_id = ?1"
#define OF_EPROC(t)	t " x JOIN energy_procs p USING (eproc_id) " \
	"WHERE p.host_id = ?1"
#define OF_SERIES(t)	t " x JOIN metric_series p USING (series_id) " \
	"WHERE p.host_id = ?1"
#define OF_HOST(t)	t " x WHERE x.host_id = ?1"
#define OF_CGROUP(t)	t " x JOIN cgroups p USING (cgroup_id) " \
	"WHERE p.host_id = ?1"

/* The tables without a host of their own: files and damage, first. */
#define NHOSTLESS	2

static const struct mtab mtabs[] = {
	{ "files", "files x WHERE x.host_id IS ?1", "file_id", "m_file",
	    { { NULL, NULL } }, "INSERT", NULL, NULL,
	    /* A file's row is born when it is first read: that time is
	     * its identity (head and path change as it grows, moves). */
	    "SELECT file_id FROM files WHERE first_ingest_ns = "
	    ":first_ingest_ns AND kind = :kind",
	    /* A copy read further (or closed since) is the newer. */
	    "UPDATE files SET host_id = coalesce(host_id, :dst_host), "
	    "path = :path, size = :size, head_len = :head_len, "
	    "head_hash = :head_hash, tail_hash = :tail_hash, "
	    "ingested_to = :ingested_to, records = :records, "
	    "duplicates = :duplicates, late = :late, "
	    "other_objects = :other_objects, unknown_items = :unknown_items, "
	    "bad_values = :bad_values, damaged_ranges = :damaged_ranges, "
	    "damaged_bytes = :damaged_bytes, "
	    "last_ingest_ns = :last_ingest_ns, closed = :closed "
	    "WHERE file_id = :dst_id AND (ingested_to < :ingested_to OR "
	    "(ingested_to = :ingested_to AND (closed < :closed OR "
	    "last_ingest_ns < :last_ingest_ns)))", NULL },
	{ "damage", "damage x JOIN files f USING (file_id) "
	    "WHERE f.host_id IS ?1", NULL, NULL,
	    { { "file_id", "m_file" } }, "INSERT",
	    /* A range is stored once (ledger.h); damage has no key. */
	    "NOT EXISTS (SELECT 1 FROM damage d WHERE d.file_id = "
	    "(SELECT dst FROM temp.m_file WHERE src = :file_id) AND "
	    "d.off_from = :off_from AND d.off_to = :off_to)", NULL,
	    NULL, NULL, NULL },
	/* A host's cgroup is its path (schema 20): the row here, or new. */
	{ "cgroups", OF_HOST("cgroups"), "cgroup_id", "m_cgroup",
	    { { NULL, NULL } }, "INSERT", NULL, NULL,
	    "SELECT cgroup_id FROM cgroups WHERE host_id = :dst_host AND "
	    "hierarchy = :hierarchy AND path = :path", NULL, NULL },
	{ "procs", OF_HOST("procs"), "proc_id", "m_proc",
	    { { "cgroup_id", "m_cgroup" } }, "INSERT", NULL, NULL,
	    "SELECT proc_id FROM procs WHERE host_id = :dst_host AND "
	    "start_ns = :start_ns AND pid = :pid",
	    "UPDATE procs SET (" PROC_EXIT_COLS ") = (" PROC_EXIT_VALS ") "
	    "WHERE proc_id = :dst_id AND finish_ns IS NULL AND "
	    ":finish_ns IS NOT NULL", NULL },
	/*
	 * One row per process and end, whichever of the two places holds
	 * it here: not one that the process's procs row carries.
	 */
	{ "proc_interval_rows", OF_PROC("proc_interval_rows"), NULL, NULL,
	    { { "proc_id", "m_proc" }, { "cgroup_id", "m_cgroup" } },
	    "INSERT OR IGNORE",
	    "NOT EXISTS (SELECT 1 FROM procs q WHERE q.proc_id = "
	    "(SELECT dst FROM temp.m_proc WHERE src = :proc_id) AND "
	    "q.exit_anomalies IS NOT NULL AND q.finish_ns = :t1_ns)", NULL,
	    NULL, NULL, NULL },
	{ "proc_alt_exits", OF_PROC("proc_alt_exits"), NULL, NULL,
	    { { "proc_id", "m_proc" } }, "INSERT OR IGNORE", NULL, NULL,
	    NULL, NULL, NULL },
	{ "proc_last", OF_PROC("proc_last"), NULL, NULL,
	    { { "proc_id", "m_proc" }, { "cgroup_id", "m_cgroup" } },
	    "INSERT", NULL,
	    "ON CONFLICT (proc_id) DO UPDATE SET %SET% "
	    "WHERE excluded.t_ns > t_ns", NULL, NULL, NULL },
	{ "tasks", OF_HOST("tasks"), "task_id", "m_task",
	    { { NULL, NULL } }, "INSERT", NULL, NULL,
	    "SELECT task_id FROM tasks WHERE host_id = :dst_host AND "
	    "taskid = :taskid AND start_ns = :start_ns",
	    "UPDATE tasks SET finish_ns = :finish_ns WHERE task_id = :dst_id "
	    "AND finish_ns IS NULL AND :finish_ns IS NOT NULL", NULL },
	{ "task_intervals", OF_TASK("task_intervals"), NULL, NULL,
	    { { "task_id", "m_task" } }, "INSERT OR IGNORE", NULL, NULL,
	    NULL, NULL, NULL },
	{ "task_last", OF_TASK("task_last"), NULL, NULL,
	    { { "task_id", "m_task" } }, "INSERT", NULL,
	    "ON CONFLICT (task_id) DO UPDATE SET %SET% "
	    "WHERE excluded.t_ns > t_ns", NULL, NULL, NULL },
	{ "flow_records", OF_HOST("flow_records"), NULL, NULL,
	    { { NULL, NULL } }, "INSERT", NULL,
	    /* As ingest: a later record of a flow holds the totals. */
	    "ON CONFLICT DO UPDATE SET lseen_s = excluded.lseen_s, "
	    "bytes = excluded.bytes, packets = excluded.packets "
	    "WHERE excluded.lseen_s > lseen_s OR (excluded.lseen_s = "
	    "lseen_s AND excluded.bytes > bytes)", NULL, NULL,
	    "INSERT OR IGNORE INTO temp.m_ckey (host_id, ckey) "
	    "VALUES (:dst_host, :ckey)" },
	{ "sysload", OF_HOST("sysload"), NULL, NULL, { { NULL, NULL } },
	    "INSERT OR IGNORE", NULL, NULL, NULL, NULL, NULL },
	{ "lost", OF_HOST("lost"), NULL, NULL, { { NULL, NULL } },
	    "INSERT OR IGNORE", NULL, NULL, NULL, NULL, NULL },
	{ "pacct_gaps", OF_HOST("pacct_gaps"), NULL, NULL,
	    { { NULL, NULL } }, "INSERT",
	    /* UNIQUE (host_id, t1_ns, t0_ns) lets NULL t0s repeat. */
	    "NOT EXISTS (SELECT 1 FROM pacct_gaps g WHERE g.host_id = "
	    ":dst_host AND g.t1_ns = :t1_ns AND g.t0_ns IS :t0_ns)", NULL,
	    NULL, NULL, NULL },
	/* A host's names (schema 13): the source's, the newer, win. */
	{ "host_names", OF_HOST("host_names"), NULL, NULL, { { NULL, NULL } },
	    "INSERT", NULL,
	    "ON CONFLICT (host_id, kind, id) DO UPDATE SET name = "
	    "excluded.name WHERE name <> excluded.name", NULL, NULL, NULL },
	{ "energy_procs", OF_HOST("energy_procs"), "eproc_id", "m_eproc",
	    { { NULL, NULL } }, "INSERT", NULL, NULL,
	    "SELECT eproc_id FROM energy_procs WHERE host_id = :dst_host "
	    "AND start_ns = :start_ns AND pid = :pid", NULL, NULL },
	{ "energy_intervals", OF_EPROC("energy_intervals"), NULL, NULL,
	    { { "eproc_id", "m_eproc" } }, "INSERT OR IGNORE", NULL, NULL,
	    NULL, NULL, NULL },
	{ "energy_last", OF_EPROC("energy_last"), NULL, NULL,
	    { { "eproc_id", "m_eproc" } }, "INSERT", NULL,
	    "ON CONFLICT (eproc_id) DO UPDATE SET %SET% "
	    "WHERE excluded.t_ns > t_ns", NULL, NULL, NULL },
	{ "metric_series", OF_HOST("metric_series"), "series_id", "m_series",
	    { { NULL, NULL } }, "INSERT", NULL, NULL,
	    "SELECT series_id FROM metric_series WHERE host_id = :dst_host "
	    "AND metric = :metric AND detail = :detail",
	    "UPDATE metric_series SET last_ts_ns = :last_ts_ns, "
	    "gap_ns = :gap_ns WHERE series_id = :dst_id AND "
	    ":last_ts_ns IS NOT NULL AND (last_ts_ns IS NULL OR "
	    "last_ts_ns < :last_ts_ns)", NULL },
	{ "metric_samples", OF_SERIES("metric_samples"), NULL, NULL,
	    { { "series_id", "m_series" } }, "INSERT", NULL,
	    /* A start-stamped sample gets its end when the next line
	     * comes: the copy that has it is the newer. */
	    "ON CONFLICT (series_id, ts_ns) DO UPDATE SET %SET% "
	    "WHERE t1_ns IS NULL AND excluded.t1_ns IS NOT NULL", NULL,
	    NULL, NULL },
	{ "metric_gaps", OF_SERIES("metric_gaps"), NULL, NULL,
	    { { "series_id", "m_series" } }, "INSERT OR IGNORE", NULL, NULL,
	    NULL, NULL, NULL },
	{ "rapl_zones", OF_HOST("rapl_zones"), "zone_id", "m_zone",
	    { { NULL, NULL } }, "INSERT", NULL, NULL,
	    "SELECT zone_id FROM rapl_zones WHERE host_id = :dst_host AND "
	    "zone = :zone",
	    "UPDATE rapl_zones SET name = coalesce(:name, name), "
	    "max_uj = coalesce(:max_uj, max_uj), last_t_ns = :last_t_ns, "
	    "last_uj = :last_uj, boot_s = coalesce(:boot_s, boot_s) "
	    "WHERE zone_id = :dst_id AND :last_t_ns IS NOT NULL AND "
	    "(last_t_ns IS NULL OR last_t_ns < :last_t_ns)", NULL },
	{ "rapl_intervals", "rapl_intervals x JOIN rapl_zones p "
	    "USING (zone_id) WHERE p.host_id = ?1", NULL, NULL,
	    { { "zone_id", "m_zone" } }, "INSERT OR IGNORE", NULL, NULL,
	    NULL, NULL, NULL },
	/* A cgroup's last reading: the newer of the two. */
	{ "cgroup_last", OF_CGROUP("cgroup_last"), NULL, NULL,
	    { { "cgroup_id", "m_cgroup" } }, "INSERT", NULL,
	    "ON CONFLICT (cgroup_id) DO UPDATE SET %SET% "
	    "WHERE excluded.t_ns > t_ns", NULL, NULL, NULL },
	{ "cgroup_intervals", OF_CGROUP("cgroup_intervals"), NULL, NULL,
	    { { "cgroup_id", "m_cgroup" } }, "INSERT OR IGNORE", NULL, NULL,
	    NULL, NULL, NULL },
};

#define NMTABS	(sizeof(mtabs) / sizeof(mtabs[0]))

/* The maps of one source (temporary: this connection's alone). */
static const char temp_sql[] =
    "CREATE TEMP TABLE IF NOT EXISTS m_file (src INTEGER PRIMARY KEY, "
    "  dst INTEGER NOT NULL);"
    "CREATE TEMP TABLE IF NOT EXISTS m_proc (src INTEGER PRIMARY KEY, "
    "  dst INTEGER NOT NULL);"
    "CREATE TEMP TABLE IF NOT EXISTS m_task (src INTEGER PRIMARY KEY, "
    "  dst INTEGER NOT NULL);"
    "CREATE TEMP TABLE IF NOT EXISTS m_eproc (src INTEGER PRIMARY KEY, "
    "  dst INTEGER NOT NULL);"
    "CREATE TEMP TABLE IF NOT EXISTS m_series (src INTEGER PRIMARY KEY, "
    "  dst INTEGER NOT NULL);"
    "CREATE TEMP TABLE IF NOT EXISTS m_zone (src INTEGER PRIMARY KEY, "
    "  dst INTEGER NOT NULL);"
    "CREATE TEMP TABLE IF NOT EXISTS m_cgroup (src INTEGER PRIMARY KEY, "
    "  dst INTEGER NOT NULL);"
    "CREATE TEMP TABLE IF NOT EXISTS m_ckey (host_id INTEGER NOT NULL, "
    "  ckey TEXT NOT NULL, PRIMARY KEY (host_id, ckey));"
    "DELETE FROM temp.m_file; DELETE FROM temp.m_proc;"
    "DELETE FROM temp.m_task; DELETE FROM temp.m_eproc;"
    "DELETE FROM temp.m_series; DELETE FROM temp.m_zone;"
    "DELETE FROM temp.m_cgroup; DELETE FROM temp.m_ckey;"
    /* In the merged database only: a local one never has it. */
    "CREATE TABLE IF NOT EXISTS merge_marks ("
    "  ident TEXT PRIMARY KEY,"
    "  host_id INTEGER NOT NULL REFERENCES hosts,"
    "  merges INTEGER NOT NULL,"
    "  first_ns INTEGER NOT NULL,"
    "  last_ns INTEGER NOT NULL,"
    "  last_path TEXT NOT NULL,"
    "  last_rows INTEGER NOT NULL,"
    "  last_added INTEGER NOT NULL,"
    "  added INTEGER NOT NULL) WITHOUT ROWID;";

/* One merge: the two connections and what it counted. */
struct merge {
	struct store	*s;
	sqlite3		*src;
	struct ex_err	*err;
	uint64_t	 rows, added;	/* of the host being merged */
};

/* A destination statement and where each source column binds in it. */
struct bound {
	sqlite3_stmt	*st;
	int		 at[MAXCOLS];	/* 0: not a parameter of st */
	int		 dst_host, dst_id;
};

static int
bound_prepare(struct merge *m, struct bound *b, const char *sql,
    sqlite3_stmt *src)
{
	char name[80];
	int i, n = sqlite3_column_count(src);

	memset(b, 0, sizeof(*b));
	if (sql == NULL)
		return EXR_OK;
	if (n > MAXCOLS)
		return ex_fail(m->err, EXR_DB, 0, "a table of %d columns", n);
	if (db_prepare(m->s->db, sql, &b->st, m->err) != EXR_OK)
		return EXR_DB;
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), ":%s",
		    sqlite3_column_name(src, i));
		b->at[i] = sqlite3_bind_parameter_index(b->st, name);
	}
	b->dst_host = sqlite3_bind_parameter_index(b->st, ":dst_host");
	b->dst_id = sqlite3_bind_parameter_index(b->st, ":dst_id");
	return EXR_OK;
}

/*
 * Run b for the current row of src: its columns, the destination host
 * and dst_id bound.  *changed gets the rows it changed (NULL: not
 * wanted).  EXR_OK or EXR_DB.
 */
static int
bound_step(struct merge *m, struct bound *b, sqlite3_stmt *src,
    sqlite3_int64 host, sqlite3_int64 dst_id, int *changed)
{
	int i, n = sqlite3_column_count(src), rc;

	for (i = 0; i < n; i++)
		if (b->at[i] > 0)
			sqlite3_bind_value(b->st, b->at[i],
			    sqlite3_column_value(src, i));
	if (b->dst_host > 0) {
		if (host > 0)
			sqlite3_bind_int64(b->st, b->dst_host, host);
		else
			sqlite3_bind_null(b->st, b->dst_host);
	}
	if (b->dst_id > 0)
		sqlite3_bind_int64(b->st, b->dst_id, dst_id);
	rc = sqlite3_step(b->st);
	if (rc == SQLITE_DONE && changed != NULL)
		*changed = sqlite3_changes(m->s->db);
	sqlite3_reset(b->st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? EXR_OK :
	    db_fail(m->s->db, m->err, "merge");
}

/*
 * The insert of t, from the destination's columns (the same schema
 * version as the source's, so the same columns): into *sql, which the
 * caller frees with sqlite3_free.  EXR_OK, EXR_DB or EXR_NOMEM.
 */
static int
insert_sql(struct merge *m, const struct mtab *t, char **sql)
{
	sqlite3_stmt *info;
	sqlite3_str *cols = sqlite3_str_new(m->s->db);
	sqlite3_str *vals = sqlite3_str_new(m->s->db);
	sqlite3_str *set = sqlite3_str_new(m->s->db);
	sqlite3_str *q = sqlite3_str_new(m->s->db);
	char *c = NULL, *v = NULL, *e = NULL;
	const char *p;
	int rc, n = 0, k;

	*sql = NULL;
	if ((rc = db_prepare(m->s->db, "SELECT name FROM pragma_table_info(?)",
	    &info, m->err)) != EXR_OK)
		goto out;
	sqlite3_bind_text(info, 1, t->name, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(info)) == SQLITE_ROW) {
		const char *col = (const char *)sqlite3_column_text(info, 0);
		const char *map = NULL;

		if (t->own != NULL && strcmp(col, t->own) == 0)
			continue;
		for (k = 0; k < 2; k++)
			if (t->fk[k][0] != NULL &&
			    strcmp(col, t->fk[k][0]) == 0)
				map = t->fk[k][1];
		sqlite3_str_appendf(cols, "%s%s", n > 0 ? ", " : "", col);
		sqlite3_str_appendf(set, "%sexcluded.%s", n > 0 ? ", " : "",
		    col);
		if (strcmp(col, "host_id") == 0)
			sqlite3_str_appendf(vals, "%s:dst_host",
			    n > 0 ? ", " : "");
		else if (map != NULL)
			sqlite3_str_appendf(vals, "%s(SELECT dst FROM temp.%s "
			    "WHERE src = :%s)", n > 0 ? ", " : "", map, col);
		else
			sqlite3_str_appendf(vals, "%s:%s", n > 0 ? ", " : "",
			    col);
		n++;
	}
	sqlite3_finalize(info);
	if (rc != SQLITE_DONE) {
		rc = db_fail(m->s->db, m->err, "table_info");
		goto out;
	}
	c = sqlite3_str_finish(cols);
	v = sqlite3_str_finish(vals);
	e = sqlite3_str_finish(set);
	cols = vals = set = NULL;
	if (c == NULL || v == NULL || e == NULL) {
		rc = ex_fail(m->err, EXR_NOMEM, 0, "no memory");
		goto out;
	}
	sqlite3_str_appendf(q, "%s INTO main.%s (%s) SELECT %s WHERE %s",
	    t->verb, t->name, c, v, t->cond != NULL ? t->cond : "1");
	if (t->conflict != NULL) {
		sqlite3_str_appendall(q, " ");
		/* The conflict clause, with %SET% made the column list. */
		if ((p = strstr(t->conflict, "%SET%")) != NULL)
			sqlite3_str_appendf(q, "%.*s(%s) = (%s)%s",
			    (int)(p - t->conflict), t->conflict, c, e, p + 5);
		else
			sqlite3_str_appendall(q, t->conflict);
	}
	*sql = sqlite3_str_finish(q);
	q = NULL;
	rc = *sql != NULL ? EXR_OK : ex_fail(m->err, EXR_NOMEM, 0,
	    "no memory");
out:
	sqlite3_free(sqlite3_str_finish(cols));
	sqlite3_free(sqlite3_str_finish(vals));
	sqlite3_free(sqlite3_str_finish(set));
	sqlite3_free(sqlite3_str_finish(q));
	sqlite3_free(c);
	sqlite3_free(v);
	sqlite3_free(e);
	return rc;
}

/*
 * Copy table t's rows of source host src_host (0: rows of no host) to
 * destination host dst_host (0: none).  EXR_OK, or an error in m->err.
 */
static int
copy_table(struct merge *m, const struct mtab *t, sqlite3_int64 src_host,
    sqlite3_int64 dst_host)
{
	struct bound ins, find, upd, chg, map;
	sqlite3_stmt *src = NULL;
	char *sql = NULL, *q;
	int rc, step, own = -1, i, changed;

	memset(&ins, 0, sizeof(ins));
	find = upd = chg = map = ins;
	if ((q = sqlite3_mprintf("SELECT x.* FROM %s", t->from)) == NULL)
		return ex_fail(m->err, EXR_NOMEM, 0, "no memory");
	rc = db_prepare(m->src, q, &src, m->err);
	sqlite3_free(q);
	if (rc != EXR_OK)
		return rc;
	if (src_host > 0)
		sqlite3_bind_int64(src, 1, src_host);
	for (i = 0; t->own != NULL && i < sqlite3_column_count(src); i++)
		if (strcmp(sqlite3_column_name(src, i), t->own) == 0)
			own = i;
	if ((rc = insert_sql(m, t, &sql)) != EXR_OK ||
	    (rc = bound_prepare(m, &ins, sql, src)) != EXR_OK ||
	    (rc = bound_prepare(m, &find, t->find, src)) != EXR_OK ||
	    (rc = bound_prepare(m, &upd, t->upd, src)) != EXR_OK ||
	    (rc = bound_prepare(m, &chg, t->changed, src)) != EXR_OK)
		goto out;
	if (t->map != NULL) {
		if ((q = sqlite3_mprintf("INSERT OR REPLACE INTO temp.%s "
		    "(src, dst) VALUES (?, ?)", t->map)) == NULL) {
			rc = ex_fail(m->err, EXR_NOMEM, 0, "no memory");
			goto out;
		}
		rc = db_prepare(m->s->db, q, &map.st, m->err);
		sqlite3_free(q);
		if (rc != EXR_OK)
			goto out;
	}
	while ((step = sqlite3_step(src)) == SQLITE_ROW) {
		sqlite3_int64 id = 0;

		m->rows++;
		changed = 0;
		if (find.st != NULL) {
			/* A parent: found, or added; mapped either way. */
			for (i = 0; i < sqlite3_column_count(src); i++)
				if (find.at[i] > 0)
					sqlite3_bind_value(find.st, find.at[i],
					    sqlite3_column_value(src, i));
			if (find.dst_host > 0)
				sqlite3_bind_int64(find.st, find.dst_host,
				    dst_host);
			if ((rc = sqlite3_step(find.st)) == SQLITE_ROW)
				id = sqlite3_column_int64(find.st, 0);
			sqlite3_reset(find.st);
			if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
				rc = db_fail(m->s->db, m->err, t->name);
				goto out;
			}
			if (id > 0 && upd.st != NULL)
				rc = bound_step(m, &upd, src, dst_host, id,
				    &changed);
			else if (id > 0)
				rc = EXR_OK;
			else if ((rc = bound_step(m, &ins, src, dst_host, 0,
			    &changed)) == EXR_OK)
				id = sqlite3_last_insert_rowid(m->s->db);
			if (rc != EXR_OK)
				goto out;
			assert(own >= 0);	/* mtabs[]: a parent's id is read */
			sqlite3_bind_value(map.st, 1,
			    sqlite3_column_value(src, own));
			sqlite3_bind_int64(map.st, 2, id);
			if ((rc = store_step(m->s, map.st, m->err)) != EXR_OK)
				goto out;
		} else {
			if ((rc = bound_step(m, &ins, src, dst_host, 0,
			    &changed)) != EXR_OK)
				goto out;
			if (changed > 0 && chg.st != NULL &&
			    (rc = bound_step(m, &chg, src, dst_host, 0,
			    NULL)) != EXR_OK)
				goto out;
		}
		m->added += (uint64_t)changed;
	}
	rc = step == SQLITE_DONE ? EXR_OK : db_fail(m->src, m->err, t->name);
out:
	sqlite3_finalize(src);
	sqlite3_finalize(ins.st);
	sqlite3_finalize(find.st);
	sqlite3_finalize(upd.st);
	sqlite3_finalize(chg.st);
	sqlite3_finalize(map.st);
	sqlite3_free(sql);
	return rc;
}

/*
 * After a host's tables: what the copy made stale.  The live state of a
 * process or task that has exited goes (ingest deletes it at the exit),
 * and the conversations of every 5-tuple whose records changed are
 * paired again.
 */
static int
host_tidy(struct merge *m, sqlite3_int64 host)
{
	static const char *const del[] = {
		"DELETE FROM proc_last WHERE proc_id IN (SELECT proc_id "
		"FROM procs WHERE host_id = ? AND finish_ns IS NOT NULL)",
		"DELETE FROM task_last WHERE task_id IN (SELECT task_id "
		"FROM tasks WHERE host_id = ? AND finish_ns IS NOT NULL)",
	};
	sqlite3_stmt *st;
	size_t i;
	int rc, step = SQLITE_DONE;

	for (i = 0; i < 2; i++) {
		if (db_prepare(m->s->db, del[i], &st, m->err) != EXR_OK)
			return EXR_DB;
		sqlite3_bind_int64(st, 1, host);
		rc = store_step(m->s, st, m->err);
		sqlite3_finalize(st);
		if (rc != EXR_OK)
			return rc;
	}
	if (db_prepare(m->s->db, "SELECT host_id, ckey FROM temp.m_ckey",
	    &st, m->err) != EXR_OK)
		return EXR_DB;
	rc = EXR_OK;
	while (rc == EXR_OK && (step = sqlite3_step(st)) == SQLITE_ROW)
		rc = flows_repair(m->s, sqlite3_column_int64(st, 0),
		    (const char *)sqlite3_column_text(st, 1), m->err);
	if (rc == EXR_OK && step != SQLITE_DONE)
		rc = db_fail(m->s->db, m->err, "flows");
	sqlite3_finalize(st);
	if (rc == EXR_OK)
		rc = db_exec(m->s->db, "DELETE FROM temp.m_ckey", m->err);
	return rc;
}

/* The mark of a source host: when, from where, what it added. */
static int
host_mark(struct merge *m, const char *ident, sqlite3_int64 host,
    const char *path)
{
	static const char sql[] =
	    "INSERT INTO merge_marks VALUES (?1, ?2, 1, ?3, ?3, ?4, ?5, ?6, "
	    "?6) ON CONFLICT (ident) DO UPDATE SET host_id = ?2, "
	    "merges = merges + 1, last_ns = ?3, last_path = ?4, "
	    "last_rows = ?5, last_added = ?6, added = added + ?6";
	sqlite3_stmt *st;
	int rc;

	if (db_prepare(m->s->db, sql, &st, m->err) != EXR_OK)
		return EXR_DB;
	sqlite3_bind_text(st, 1, ident, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, host);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)db_now_ns());
	sqlite3_bind_text(st, 4, path, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, (sqlite3_int64)m->rows);
	sqlite3_bind_int64(st, 6, (sqlite3_int64)m->added);
	rc = store_step(m->s, st, m->err);
	sqlite3_finalize(st);
	return rc;
}

/*
 * The destination's row of a source host (the current row of hs: id,
 * name, ident, exit_sources, carbon_g_per_kwh, carbon_source, cpus,
 * cpus_source), added if its identity is new, else given the exit
 * sources and the carbon and CPU figures the source knows.  Its id into
 * *id.
 */
static int
host_merge(struct merge *m, sqlite3_stmt *hs, sqlite3_int64 *id)
{
	static const char find[] = "SELECT host_id FROM hosts WHERE ident = ?";
	static const char ins[] = "INSERT INTO hosts (name, ident, "
	    "exit_sources, carbon_g_per_kwh, carbon_source, cpus, "
	    "cpus_source) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
	static const char upd[] = "UPDATE hosts SET "
	    "exit_sources = exit_sources | ?3, "
	    "carbon_g_per_kwh = coalesce(?4, carbon_g_per_kwh), "
	    "carbon_source = CASE WHEN ?4 IS NULL THEN carbon_source "
	    "ELSE ?5 END, cpus = coalesce(?6, cpus), "
	    "cpus_source = CASE WHEN ?6 IS NULL THEN cpus_source "
	    "ELSE ?7 END WHERE host_id = ?8 AND "
	    "(exit_sources | ?3 <> exit_sources OR (?4 IS NOT NULL AND "
	    "(carbon_g_per_kwh IS NOT ?4 OR carbon_source IS NOT ?5)) OR "
	    "(?6 IS NOT NULL AND (cpus IS NOT ?6 OR cpus_source IS NOT ?7)))";
	sqlite3_stmt *st;
	int rc, i;

	*id = 0;
	if (db_prepare(m->s->db, find, &st, m->err) != EXR_OK)
		return EXR_DB;
	sqlite3_bind_value(st, 1, sqlite3_column_value(hs, 2));
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_fail(m->s->db, m->err, "hosts");
	if (db_prepare(m->s->db, *id > 0 ? upd : ins, &st, m->err) != EXR_OK)
		return EXR_DB;
	for (i = 1; i <= 7; i++)
		sqlite3_bind_value(st, i, sqlite3_column_value(hs, i));
	if (*id > 0)
		sqlite3_bind_int64(st, 8, *id);
	rc = sqlite3_step(st) == SQLITE_DONE ? EXR_OK :
	    db_fail(m->s->db, m->err, "hosts");
	sqlite3_finalize(st);
	if (rc == EXR_OK) {
		m->added += (uint64_t)sqlite3_changes(m->s->db);
		if (*id == 0)
			*id = sqlite3_last_insert_rowid(m->s->db);
	}
	return rc;
}

/*
 * The interval rows the merge adds, as they are added, into
 * temp.m_new_pi (proc_intervals' columns), by temporary triggers: an
 * interval is a row of proc_interval_rows, or (schema 16) the exit
 * interval of a procs row, inserted with it or set on a process seen
 * closed.  A row INSERT OR IGNORE leaves out (already there) fires
 * nothing, so each interval added is there once.  Neither table has a
 * rowid to mark the copy's start with (one is WITHOUT ROWID, and the
 * other's rows are not new when updated).
 */
#define NEW_COL(m, col, ...)		"NEW." col
#define NEW_NEXT_COL(m, col, ...)	", NEW." col
#define NEW_XCOL(m, col, ...)		"NEW.exit_" col
#define NEW_NEXT_XCOL(m, col, ...)	", NEW.exit_" col
#define NEW_PI_VALUES \
	COUNTER_ROWS(NEW_COL, NEW_NEXT_COL, FIELD_PROC_ID) \
	PROC_EXTRA_ROWS(NEW_NEXT_COL, NEW_NEXT_COL)
#define NEW_EXIT_VALUES \
	COUNTER_ROWS(NEW_XCOL, NEW_NEXT_XCOL, FIELD_PROC_ID) \
	PROC_EXTRA_ROWS(NEW_NEXT_XCOL, NEW_NEXT_XCOL)
#define NEW_PI_INTO \
	"INSERT INTO m_new_pi (proc_id, t0_ns, t1_ns, final, " \
	"heartbeat, " PROC_COLUMNS ", anomalies) VALUES "

static const char new_pi_sql[] =
    "CREATE TEMP TABLE IF NOT EXISTS m_new_pi AS SELECT * FROM "
    "  main.proc_intervals WHERE 0;"
    "DELETE FROM temp.m_new_pi;"
    "CREATE TEMP TRIGGER IF NOT EXISTS m_new_pi_rows AFTER INSERT ON "
    "  main.proc_interval_rows BEGIN " NEW_PI_INTO "(NEW.proc_id, "
    "  NEW.t0_ns, NEW.t1_ns, NEW.final, NEW.heartbeat, " NEW_PI_VALUES
    ", NEW.anomalies); END;"
    "CREATE TEMP TRIGGER IF NOT EXISTS m_new_pi_exit AFTER INSERT ON "
    "  main.procs WHEN NEW.exit_anomalies IS NOT NULL BEGIN "
    NEW_PI_INTO "(NEW.proc_id, NEW.start_ns, NEW.finish_ns, 1, 0, "
    NEW_EXIT_VALUES ", NEW.exit_anomalies); END;"
    "CREATE TEMP TRIGGER IF NOT EXISTS m_new_pi_closed AFTER UPDATE OF "
    "  exit_anomalies ON main.procs WHEN NEW.exit_anomalies IS NOT NULL "
    "  AND OLD.exit_anomalies IS NULL BEGIN "
    NEW_PI_INTO "(NEW.proc_id, NEW.start_ns, NEW.finish_ns, 1, 0, "
    NEW_EXIT_VALUES ", NEW.exit_anomalies); END;";

/* The merge's triggers go with it: ingest on this connection adds its
 * rollups itself. */
static const char new_pi_done_sql[] =
    "DROP TRIGGER IF EXISTS temp.m_new_pi_rows;"
    "DROP TRIGGER IF EXISTS temp.m_new_pi_exit;"
    "DROP TRIGGER IF EXISTS temp.m_new_pi_closed;"
    "DROP TABLE IF EXISTS temp.m_new_pi;";

/*
 * The rollups of the interval rows the merge added (temp.m_new_pi),
 * exactly once: a row already there was not copied (INSERT OR IGNORE)
 * and is not counted again.
 */
static int
merge_rollups(struct merge *m)
{
	struct rollup *ru;
	int rc;

	if ((rc = rollup_prepare(m->s->db, &ru, m->err)) != EXR_OK)
		return rc;
	if ((rc = rollup_add_merged(ru, m->err)) == EXR_OK)
		rc = rollup_flush(ru, m->err);
	rollup_finalize(ru);
	if (rc == EXR_OK)
		rc = db_exec(m->s->db, new_pi_done_sql, m->err);
	return rc;
}

/* Everything of the source, inside the two transactions. */
static int
merge_all(struct merge *m, const char *path, struct merge_stats *st)
{
	sqlite3_stmt *hs;
	size_t k;
	int rc = EXR_OK, step;

	if ((rc = db_exec(m->s->db, temp_sql, m->err)) != EXR_OK ||
	    (rc = hosts_fill(m->s, m->err)) != EXR_OK ||
	    (rc = db_exec(m->s->db, new_pi_sql, m->err)) != EXR_OK)
		return rc;
	if (db_prepare(m->src, "SELECT host_id, name, ident, exit_sources, "
	    "carbon_g_per_kwh, carbon_source, cpus, cpus_source FROM hosts "
	    "ORDER BY host_id",
	    &hs, m->err) != EXR_OK)
		return EXR_DB;
	while (rc == EXR_OK && (step = sqlite3_step(hs)) == SQLITE_ROW) {
		sqlite3_int64 src_host = sqlite3_column_int64(hs, 0), id;
		const char *ident = (const char *)sqlite3_column_text(hs, 2);

		st->hosts++;
		if (ident == NULL) {
			rc = ex_fail(m->err, EXR_USAGE, 0, "host '%s' has no "
			    "identity yet: an ingest into that database gives "
			    "it one", (const char *)sqlite3_column_text(hs, 1));
			break;
		}
		m->rows = 1;
		m->added = 0;
		if ((rc = host_merge(m, hs, &id)) != EXR_OK)
			break;
		for (k = 0; rc == EXR_OK && k < NMTABS; k++)
			rc = copy_table(m, &mtabs[k], src_host, id);
		if (rc == EXR_OK)
			rc = host_tidy(m, id);
		if (rc == EXR_OK)
			rc = host_mark(m, ident, id, path);
		st->rows += m->rows;
		st->added += m->added;
	}
	if (rc == EXR_OK && step != SQLITE_DONE)
		rc = db_fail(m->src, m->err, "hosts");
	sqlite3_finalize(hs);
	if (rc == EXR_OK)
		rc = merge_rollups(m);
	/* Then the ledger's files of no host (no record read yet). */
	m->rows = m->added = 0;
	for (k = 0; rc == EXR_OK && k < NHOSTLESS; k++)
		rc = copy_table(m, &mtabs[k], 0, 0);
	st->rows += m->rows;
	st->added += m->added;
	return rc;
}

int
store_merge(struct store *s, const char *path, struct merge_stats *st,
    struct ex_err *err)
{
	struct merge m;
	struct stat sb;
	int rc;

	memset(st, 0, sizeof(*st));
	memset(&m, 0, sizeof(m));
	m.s = s;
	m.err = err;
	if (s->broken)
		return ex_fail(err, EXR_DB, 0, "the store could not be read "
		    "back after a rollback");
	/* Said plainly: db_open_readonly's advice is a report's. */
	if (lstat(path, &sb) == -1)
		return ex_fail(err, EXR_DB, 0, "%s", strerror(errno));
	if ((rc = db_open_readonly(path, &m.src, err)) != EXR_OK)
		return rc;
	/* One snapshot of the source, one transaction here. */
	if ((rc = db_exec(m.src, "BEGIN", err)) != EXR_OK)
		goto out;
	if ((rc = db_exec(s->db, "BEGIN IMMEDIATE", err)) != EXR_OK)
		goto out;
	if ((rc = merge_all(&m, path, st)) == EXR_OK)
		rc = db_exec(s->db, "COMMIT", err);
	if (rc != EXR_OK)
		(void)sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	/* The ids and live states ingest keeps in memory moved (or were
	 * rolled back): read them again. */
	store_reload(s);
out:
	/* A read transaction: ending it can lose nothing. */
	(void)sqlite3_exec(m.src, "ROLLBACK", NULL, NULL, NULL);
	db_close(m.src);
	return rc;
}
