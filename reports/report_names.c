/*
 * Names for the uid, gid and projid keys (report_int.h).  A report may
 * run far from the host that wrote the logs, where the local passwd
 * means nothing: the names are the host's, stored by ingest from its
 * own files (v_host_names), or given with --passwd, --group and
 * --project for logs from elsewhere.  A host's names are its own ids'
 * only: a row's name is the one every host behind it gives (NAME_OF),
 * computed by the query with the sums.  The local databases are asked
 * only in FILE mode, where the logs are presumably this machine's, as
 * sa(8) asks them.
 */
#include <stdlib.h>
#include <string.h>

#include "../parsers/compat.h"
#include "idnames.h"
#include "report_int.h"

const char *const report_name_kinds[] = {
	[ID_USER] = "user", [ID_GROUP] = "group", [ID_PROJECT] = "project",
};

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
			if (kind != NULL && strcmp(kind, report_name_kinds[k]) == 0)
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

int
report_name_kind(enum report_by by)
{
	switch (by) {
	case BY_USER:
		return ID_USER;
	case BY_GROUP:
		return ID_GROUP;
	case BY_PROJECT:
		return ID_PROJECT;
	default:
		return -1;
	}
}

int
report_names_stored(const struct report_opts *o, int kind)
{
	if (o->numeric || o->names_local)
		return 0;
	return o->names == NULL || !o->names->from_file[kind];
}

const char *
report_id_name(const struct report_opts *o, int kind, int64_t id,
    const char *stored)
{
	if (o->numeric)
		return NULL;
	if (!report_names_stored(o, kind))
		return o->names == NULL || id < 0 || id > UINT32_MAX ? NULL :
		    idnames_get(o->names, (enum idkind)kind, (uint32_t)id);
	return stored;
}

const char *
report_name(const struct report_opts *o, const struct report_set *s,
    int k, const struct report_row *r)
{
	uint32_t ref = r->name[k];

	return report_id_name(o, report_name_kind(report_key(o, k)), r->id[k],
	    ref > 0 && ref <= s->nnames ? s->names[ref - 1].name : NULL);
}

size_t
report_names_first(const struct report_set *s, int kind, int64_t id)
{
	size_t lo = 0, hi = s->nnames;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct report_name *x = &s->names[mid];

		if (x->kind < kind || (x->kind == kind && x->id < id))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

uint32_t
report_name_ref(const struct report_set *s, int kind, int64_t id,
    const char *name)
{
	size_t i;

	if (name == NULL)
		return 0;
	/* The first entry of (kind, id): one name, one reference. */
	for (i = report_names_first(s, kind, id); i < s->nnames && s->names[i].kind == kind &&
	    s->names[i].id == id; i++)
		if (strcmp(s->names[i].name, name) == 0)
			return i + 1 <= UINT32_MAX ? (uint32_t)(i + 1) : 0;
	return 0;
}
