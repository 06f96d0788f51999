/*
 * --user, --group, --command, --host, --unit, --container: which
 * processes (and hosts) a report counts.  Several values of one option are alternatives, the options
 * together all hold.  A value is a number (users and groups), a name
 * or a shell glob (*, ?, [...], [!...]; a backslash quotes the next
 * character).  The test is made in SQL, in the WHERE of the query that
 * reads the rows, so that SQLite and PostgreSQL count the same rows:
 * SQLite matches with GLOB, PostgreSQL (which has no GLOB) with ~ and
 * the glob translated to an anchored regular expression here; both are
 * case-sensitive, as command names are.  The values are bound as
 * parameters, never written into the SQL.
 *
 * A user or group name is a name some host gives an id: it matches a
 * row when the row's host names the row's id so (v_host_names), so one
 * name is uid 1000 on one host and 1001 on another; with --passwd or
 * --group FILE the file's ids instead.  A command is matched as the
 * process named itself: the mark of a fork without exec (a trailing *
 * in the rollups' command key) is not part of it, so --command awk
 * counts awk's forks too.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../parsers/records.h"
#include "fmt.h"
#include "idnames.h"
#include "report_int.h"

const char *const report_filter_names[] = {
	[RF_USER] = "user", [RF_GROUP] = "group", [RF_COMMAND] = "command",
	[RF_HOST] = "host", [RF_UNIT] = "unit", [RF_CONTAINER] = "container",
};

/* The kind of names (v_host_names) of a filter; -1: not ids. */
static int
id_kind(enum report_filter_kind f)
{
	return f == RF_USER ? ID_USER : f == RF_GROUP ? ID_GROUP : -1;
}

/* Whether the names of kind are a file's (--passwd, --group FILE). */
static int
from_file(const struct report_opts *o, int kind)
{
	return o->names != NULL && o->names->from_file[kind];
}

/* Whether s is a decimal number (an id), into *id. */
static int
number(const char *s, int64_t *id)
{
	const char *p;

	if (*s == '\0' || strlen(s) > 10)
		return 0;
	for (p = s; *p != '\0'; p++)
		if (!isdigit((unsigned char)*p))
			return 0;
	*id = strtoll(s, NULL, 10);
	return *id <= UINT32_MAX;
}

/* Whether s has a glob's special characters (else: a name). */
static int
is_glob(const char *s)
{
	return strpbrk(s, "*?[\\") != NULL;
}

int
report_filter_add(struct report_opts *o, enum report_filter_kind f,
    const char *v, struct ex_err *err)
{
	struct report_filter *r = &o->filter;

	if (*v == '\0')
		return ex_fail(err, EXR_USAGE, 0, "--%s '': an empty %s "
		    "matches nothing", report_filter_names[f],
		    report_filter_names[f]);
	if (r->n[f] == REPORT_MAXFILTER)
		return ex_fail(err, EXR_USAGE, 0, "--%s: at most %d of them "
		    "(a glob matches many)", report_filter_names[f],
		    REPORT_MAXFILTER);
	r->v[f][r->n[f]++] = v;
	return EXR_OK;
}

int
report_filtered(const struct report_opts *o, int procs)
{
	return o->filter.n[RF_USER] + o->filter.n[RF_GROUP] +
	    o->filter.n[RF_COMMAND] + report_cgroup_filtered(o) +
	    (procs ? 0 : o->filter.n[RF_HOST]) > 0;
}

int
report_cgroup_filtered(const struct report_opts *o)
{
	return o->filter.n[RF_UNIT] + o->filter.n[RF_CONTAINER] > 0;
}

void
report_filter_text(char *b, size_t n, const struct report_opts *o)
{
	size_t at = 0;
	int f, i;

	if (n > 0)
		b[0] = '\0';
	for (f = 0; f < RF_N; f++)
		for (i = 0; i < o->filter.n[f] && at < n; i++)
			at += (size_t)snprintf(b + at, n - at, "%s%s=%s",
			    at > 0 ? "," : "", report_filter_names[f],
			    o->filter.v[f][i]);
}

/*
 * The glob g as an SQLite GLOB pattern (rx 0) or an anchored POSIX
 * regular expression for PostgreSQL's ~ (rx 1) into b[n]; marked: the
 * fork mark may follow.  0, or -1: too long.
 */
static int
glob_to(const char *g, int rx, int marked, char *b, size_t n)
{
	size_t at = 0, j;
	const char *p;

#define PUT(c)	do { if (at + 1 >= n) return -1; b[at++] = (c); } while (0)
	if (rx)
		PUT('^');
	for (p = g; *p != '\0'; p++) {
		if (*p == '*') {
			if (rx)
				PUT('.');
			PUT('*');
			continue;
		}
		if (*p == '?') {
			PUT(rx ? '.' : '?');
			continue;
		}
		if (*p == '[') {
			/* The set's end: a ] first in it is its own. */
			j = 1;
			if (p[j] == '!' || p[j] == '^')
				j++;
			if (p[j] == ']')
				j++;
			while (p[j] != '\0' && p[j] != ']')
				j++;
			if (p[j] == ']') {
				size_t k = 1;

				PUT('[');
				if (p[k] == '!' || p[k] == '^') {
					PUT('^');
					k++;
				}
				for (; k < j; k++) {
					if (rx && p[k] == '\\')
						PUT('\\');
					PUT(p[k]);
				}
				PUT(']');
				p += j;
				continue;
			}
			/* No end: a plain [, as the shell takes it. */
		} else if (*p == '\\' && p[1] != '\0')
			p++;
		/* A character that stands for itself. */
		if (rx && strchr(".^$*+?()[]{}|\\", *p) != NULL)
			PUT('\\');
		if (!rx && strchr("*?[", *p) != NULL) {
			PUT('[');
			PUT(*p);
			PUT(']');
		} else
			PUT(*p);
	}
	if (rx && marked) {
		PUT('\\');
		PUT(*PROC_FORKED_MARK);
		PUT('?');
	}
	if (rx)
		PUT('$');
	b[at] = '\0';
	return 0;
#undef PUT
}

/* The output of the walk: SQL text, or the binding of its values. */
struct walk {
	enum rdb_engine	 engine;
	struct rdb_q	*q;		/* NULL: write the SQL */
	char		*b;
	size_t		 n, at;
	int		 p;		/* the next parameter */
	int		 full;		/* b was too small, or a glob */
};

static void
w_sql(struct walk *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
w_sql(struct walk *w, const char *fmt, ...)
{
	va_list ap;
	int l;

	if (w->q != NULL || w->full)
		return;
	va_start(ap, fmt);
	l = vsnprintf(w->b + w->at, w->n - w->at, fmt, ap);
	va_end(ap);
	if (l < 0 || (size_t)l >= w->n - w->at)
		w->full = 1;
	else
		w->at += (size_t)l;
}

/* A text parameter: v as the engine's pattern (a glob), or as it is. */
static void
w_text(struct walk *w, const char *v, int glob, int marked)
{
	char pat[1024];

	if (glob && glob_to(v, w->engine == RDB_POSTGRESQL, marked, pat,
	    sizeof(pat)) != 0) {
		w->full = 1;
		return;
	}
	if (w->q != NULL)
		rdb_bind_text(w->q, w->p, glob ? pat : v);
	w->p++;
}

/* "col matches ?N" for a glob of v (marked: the fork mark may follow). */
static void
w_match(struct walk *w, const char *col, const char *v, int marked)
{
	if (w->engine == RDB_POSTGRESQL) {
		w_sql(w, "%s ~ ?%d", col, w->p);
		w_text(w, v, 1, marked);
		return;
	}
	w_sql(w, "%s GLOB ?%d", col, w->p);
	w_text(w, v, 1, 0);
	if (marked) {
		char m[1024];

		/* The same, then a literal mark: GLOB has no "maybe". */
		snprintf(m, sizeof(m), "%s\\%s", v, PROC_FORKED_MARK);
		w_sql(w, " OR %s GLOB ?%d", col, w->p);
		w_text(w, m, 1, 0);
	}
}

/* The ids of the names a --passwd or --group file gives that match. */
static void
w_file_ids(struct walk *w, const struct report_opts *o, int kind,
    const char *col, const char *v, int *any)
{
	const struct idnames *m = o->names;
	size_t i;

	for (i = 0; i < m->n[kind]; i++) {
		const struct idname_entry *e = &m->e[kind][i];

		if (e->name == NULL || fnmatch(v, e->name, 0) != 0)
			continue;
		/* Numbers the file gave, not the user's text. */
		w_sql(w, "%s%s = %" PRIu32, *any ? " OR " : "", col, e->id);
		*any = 1;
	}
}

/* The test of filter f (its values: alternatives) over cols. */
static void
w_filter(struct walk *w, const struct report_opts *o,
    enum report_filter_kind f, const struct report_filter_cols *c)
{
	const char *col = f == RF_USER ? c->uid : f == RF_GROUP ? c->gid :
	    f == RF_COMMAND ? c->command : f == RF_UNIT ? c->unit :
	    f == RF_CONTAINER ? c->container : c->host;
	int kind = id_kind(f), any = 0, names = 0, i;
	int64_t id;

	if (o->filter.n[f] == 0)
		return;
	w_sql(w, " AND (");
	if (col == NULL) {
		/* Rows that do not record it: none can match. */
		w_sql(w, "1 = 0)");
		return;
	}
	for (i = 0; i < o->filter.n[f]; i++) {
		const char *v = o->filter.v[f][i];

		if (kind >= 0 && number(v, &id)) {
			w_sql(w, "%s%s = ?%d", any ? " OR " : "", col, w->p);
			if (w->q != NULL)
				rdb_bind_int64(w->q, w->p, id);
			w->p++;
			any = 1;
		} else if (kind >= 0 && from_file(o, kind))
			w_file_ids(w, o, kind, col, v, &any);
		else if (kind >= 0)
			names = 1;
		else {
			w_sql(w, "%s(", any ? " OR " : "");
			w_match(w, col, v, f == RF_COMMAND && c->marked);
			w_sql(w, ")");
			any = 1;
		}
	}
	if (names) {
		/* The names each row's host gives its ids. */
		w_sql(w, "%sEXISTS (SELECT 1 FROM v_host_names fn WHERE "
		    "fn.host = %s AND fn.kind = '%s' AND fn.id = %s AND (",
		    any ? " OR " : "", c->host, report_name_kinds[kind], col);
		for (i = 0, any = 0; i < o->filter.n[f]; i++) {
			if (number(o->filter.v[f][i], &id))
				continue;
			w_sql(w, "%s", any ? " OR " : "");
			w_match(w, "fn.name", o->filter.v[f][i], 0);
			any = 1;
		}
		w_sql(w, "))");
	}
	w_sql(w, "%s)", any ? "" : "1 = 0");
}

int
report_filter_sql(const struct report_opts *o, enum rdb_engine e,
    const struct report_filter_cols *c, int p0, char *b, size_t n,
    struct ex_err *err)
{
	struct walk w = { .engine = e, .b = b, .n = n, .p = p0 };
	int f;

	b[0] = '\0';
	for (f = 0; f < RF_N; f++)
		w_filter(&w, o, (enum report_filter_kind)f, c);
	if (w.full)
		return ex_fail(err, EXR_USAGE, 0, "--user, --group, --command, "
		    "--host, --unit, --container: too many or too long to "
		    "test");
	return EXR_OK;
}

void
report_filter_bind(struct rdb_q *q, const struct report_opts *o,
    enum rdb_engine e, const struct report_filter_cols *c, int p0)
{
	struct walk w = { .engine = e, .q = q, .p = p0 };
	int f;

	for (f = 0; f < RF_N; f++)
		w_filter(&w, o, (enum report_filter_kind)f, c);
}

/* Whether some host (or o's file) names an id of kind name. */
static int
known(struct rdb *db, const struct report_opts *o, int kind,
    const char *name, struct ex_err *err)
{
	struct rdb_q *q;
	size_t i;
	int rc;

	if (from_file(o, kind)) {
		for (i = 0; i < o->names->n[kind]; i++)
			if (o->names->e[kind][i].name != NULL &&
			    strcmp(o->names->e[kind][i].name, name) == 0)
				return 1;
		return 0;
	}
	if (rdb_prepare(db, "SELECT count(*) FROM v_host_names WHERE "
	    "kind = ?1 AND name = ?2", &q) != 0) {
		ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
		return -1;
	}
	rdb_bind_text(q, 1, report_name_kinds[kind]);
	rdb_bind_text(q, 2, name);
	if ((rc = rdb_step(q)) != RDB_ROW) {
		ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
		rdb_finalize(q);
		return -1;
	}
	rc = rdb_int64(q, 0) > 0;
	rdb_finalize(q);
	return rc;
}

int
report_filter_check(struct rdb *db, const struct report_opts *o,
    struct ex_err *err)
{
	int f, i, rc;
	int64_t id;

	for (f = RF_USER; f <= RF_GROUP; f++)
		for (i = 0; i < o->filter.n[f]; i++) {
			const char *v = o->filter.v[f][i];

			/* A glob that matches nothing is an empty report. */
			if (number(v, &id) || is_glob(v))
				continue;
			if ((rc = known(db, o, id_kind((enum
			    report_filter_kind)f), v, err)) < 0)
				return EXR_DB;
			if (rc == 0)
				return ex_fail(err, EXR_USAGE, 0, "unknown %s "
				    "'%s': no host's names have it, and it is "
				    "not a number", f == RF_USER ? "user" :
				    "group", v);
		}
	return EXR_OK;
}

void
report_filter_head(struct rtab *t, const struct report_opts *o)
{
	char b[1024], e[2048];

	report_filter_text(b, sizeof(b), o);
	if (b[0] == '\0')
		return;
	rtab_head(t, "; filtered: %s", fmt_escape(e, sizeof(e), b, 0));
	rtab_meta(t, "filtered", COL_TEXT, b);
}
