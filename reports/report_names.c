/*
 * Names for the uid, gid and projid keys (report_int.h).  A report may
 * run far from the host that wrote the logs, where the local passwd
 * means nothing: the names are the host's, stored by ingest from its
 * own files (v_host_names), or given with --passwd, --group and
 * --project for logs from elsewhere.  The local databases are never
 * asked.
 */
#include <stdlib.h>
#include <string.h>

#include "../parsers/compat.h"
#include "idnames.h"
#include "report_int.h"

static int
by_id(const void *a, const void *b)
{
	const struct report_name *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind - y->kind;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return strcmp(x->host, y->host);
}

int
report_names_load(struct rdb *db, struct report_set *s, struct ex_err *err)
{
	static const char sql[] =
	    "SELECT host, kind, id, name FROM v_host_names";
	static const char *const kinds[] = {
		[ID_USER] = "user", [ID_GROUP] = "group",
		[ID_PROJECT] = "project",
	};
	struct rdb_q *st;
	size_t cap = 0;
	int rc, k;

	if (rdb_prepare(db, sql, &st) != 0)
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	while ((rc = rdb_step(st)) == RDB_ROW) {
		const char *h = rdb_text(st, 0), *kind = rdb_text(st, 1);
		const char *name = rdb_text(st, 3);
		struct report_name *x;

		for (k = 0; k < ID_NKINDS; k++)
			if (kind != NULL && strcmp(kind, kinds[k]) == 0)
				break;
		if (k == ID_NKINDS || h == NULL || name == NULL)
			continue;
		if (s->nnames == cap) {
			cap = cap == 0 ? 256 : cap * 2;
			if ((x = ex_reallocarray(s->names, cap,
			    sizeof(*x))) == NULL) {
				rdb_finalize(st);
				return ex_fail(err, EXR_NOMEM, 0, "no memory");
			}
			s->names = x;
		}
		x = &s->names[s->nnames++];
		snprintf(x->host, sizeof(x->host), "%s", h);
		x->kind = k;
		x->id = rdb_int64(st, 2);
		snprintf(x->name, sizeof(x->name), "%s", name);
	}
	rdb_finalize(st);
	if (rc != RDB_DONE)
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	if (s->nnames > 0)
		qsort(s->names, s->nnames, sizeof(*s->names), by_id);
	return EXR_OK;
}

const char *
report_name(const struct report_opts *o, const struct report_set *s,
    enum report_by by, int64_t id, const struct report_row *r)
{
	int kind = by == BY_USER ? ID_USER : by == BY_GROUP ? ID_GROUP :
	    ID_PROJECT;
	const char *host = NULL, *name = NULL;
	size_t lo = 0, hi = s->nnames, i;
	int j;

	if (o->names != NULL && o->names->from_file[kind])
		return id < 0 || id > UINT32_MAX ? NULL :
		    idnames_get(o->names, (enum idkind)kind, (uint32_t)id);
	for (j = 0; j < report_nkeys(o); j++)
		if (report_key(o, j) == BY_HOST && !(r->keynull >> j & 1))
			host = r->key[j];
	/* The first entry of (kind, id). */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct report_name *x = &s->names[mid];

		if (x->kind < kind || (x->kind == kind && x->id < id))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < s->nnames && s->names[i].kind == kind &&
	    s->names[i].id == id; i++) {
		if (host != NULL) {
			if (strcmp(s->names[i].host, host) == 0)
				return s->names[i].name;
			continue;
		}
		/* No host key: a name only if every host agrees on it. */
		if (name != NULL && strcmp(name, s->names[i].name) != 0)
			return NULL;
		name = s->names[i].name;
	}
	return host != NULL ? NULL : name;
}
