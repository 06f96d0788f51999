/*
 * Flow records and conversations for ingest (see ingest.h, flows.h): each
 * one-way record is upserted (a later record of a flow replaces the
 * earlier), and at each commit every 5-tuple touched is paired again from
 * all its records, so the result never depends on how the records were
 * split into files.
 */
#include <arpa/inet.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parsers/compat.h"
#include "ingest_int.h"

static void
addr_text(char *buf, size_t n, int family, const uint8_t *a, int has)
{
	if (!has)
		snprintf(buf, n, "-");
	else if (family == 6)
		inet_ntop(AF_INET6, a, buf, (socklen_t)n);
	else
		snprintf(buf, n, "%u.%u.%u.%u", a[0], a[1], a[2], a[3]);
}

/* Remember a 5-tuple whose conversations must be rebuilt. */
static int
touch_flow_key(struct store *s, int64_t host, const char *ckey)
{
	if (s->nfkeys == s->capfkeys) {
		size_t ncap = s->capfkeys == 0 ? 256 : s->capfkeys * 2;
		struct flow_key *k = ex_reallocarray(s->fkeys, ncap, sizeof(*k));

		if (k == NULL)
			return EXR_NOMEM;
		s->fkeys = k;
		s->capfkeys = ncap;
	}
	s->fkeys[s->nfkeys].host_id = host;
	snprintf(s->fkeys[s->nfkeys].ckey, sizeof(s->fkeys[0].ckey), "%s",
	    ckey);
	s->nfkeys++;
	return EXR_OK;
}

int
ingest_flow(struct run *r, const struct ex_flow *f)
{
	struct flow_half h;
	sqlite3_stmt *st = r->s->st[S_UPS_FLOW];
	char ckey[3 * FLOW_ADDRLEN];

	if (!REC_HAS(f, FLOW_CTIME_S))
		return run_count(r, DIFF_UNTIMED);
	memset(&h, 0, sizeof(h));
	h.protocol = REC_HAS(f, FLOW_PROTOCOL) ?
	    (uint32_t)f->v[FLOW_PROTOCOL] : 0;
	addr_text(h.src, sizeof(h.src), f->family, f->saddr,
	    REC_HAS(f, FLOW_SADDR));
	addr_text(h.dst, sizeof(h.dst), f->family, f->daddr,
	    REC_HAS(f, FLOW_DADDR));
	h.sport = REC_HAS(f, FLOW_SPORT) ? (uint32_t)f->v[FLOW_SPORT] : 0;
	h.dport = REC_HAS(f, FLOW_DPORT) ? (uint32_t)f->v[FLOW_DPORT] : 0;
	flow_ckey(&h, ckey, sizeof(ckey));

	sqlite3_bind_int64(st, 1, r->host_id);
	sqlite3_bind_int64(st, 2, h.protocol);
	sqlite3_bind_text(st, 3, h.src, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, h.sport);
	sqlite3_bind_text(st, 5, h.dst, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, h.dport);
	sqlite3_bind_int64(st, 7, (int64_t)f->v[FLOW_CTIME_S]);
	/* NULL is never equal in a key: -1 stands for "no owner". */
	sqlite3_bind_int64(st, 8, REC_HAS(f, FLOW_UID) ?
	    (int64_t)f->v[FLOW_UID] : -1);
	sqlite3_bind_int64(st, 9, REC_HAS(f, FLOW_PROJID) ?
	    (int64_t)f->v[FLOW_PROJID] : -1);
	bind_opt(st, 10, REC_HAS(f, FLOW_UID), f->v[FLOW_UID]);
	bind_opt(st, 11, REC_HAS(f, FLOW_PROJID), f->v[FLOW_PROJID]);
	sqlite3_bind_int64(st, 12, (int64_t)(REC_HAS(f, FLOW_LSEEN_S) ?
	    f->v[FLOW_LSEEN_S] : f->v[FLOW_CTIME_S]));
	sqlite3_bind_int64(st, 13, REC_HAS(f, FLOW_NBYTES) ?
	    (int64_t)f->v[FLOW_NBYTES] : 0);
	sqlite3_bind_int64(st, 14, REC_HAS(f, FLOW_NPKTS) ?
	    (int64_t)f->v[FLOW_NPKTS] : 0);
	bind_opt(st, 15, REC_HAS(f, FLOW_DSFIELD), f->v[FLOW_DSFIELD]);
	bind_str(st, 16, REC_HAS(f, FLOW_ACTION), f->action);
	sqlite3_bind_text(st, 17, ckey, -1, SQLITE_STATIC);
	r->stats->flows++;
	if (store_step(r->s, S_UPS_FLOW, r->err) != EXR_OK)
		return EXR_DB;
	return touch_flow_key(r->s, r->host_id, ckey) == EXR_OK ? EXR_OK :
	    ex_fail(r->err, EXR_NOMEM, 0, "no memory");
}

static int
fkey_cmp(const void *a, const void *b)
{
	const struct flow_key *x = a, *y = b;

	if (x->host_id != y->host_id)
		return x->host_id < y->host_id ? -1 : 1;
	return strcmp(x->ckey, y->ckey);
}

/* Re-pair every 5-tuple touched this chunk from all its records. */
int
flows_rebuild(struct run *r)
{
	struct store *s = r->s;
	size_t i, n, k, rows;
	int rc;

	if (s->nfkeys == 0)
		return EXR_OK;
	qsort(s->fkeys, s->nfkeys, sizeof(*s->fkeys), fkey_cmp);
	for (i = 0; i < s->nfkeys; i++) {
		const struct flow_key *fk = &s->fkeys[i];
		sqlite3_stmt *sel = s->st[S_SEL_FLOWS], *ins;

		if (i > 0 && fkey_cmp(fk, fk - 1) == 0)
			continue;
		sqlite3_bind_int64(s->st[S_DEL_FLOWS], 1, fk->host_id);
		sqlite3_bind_text(s->st[S_DEL_FLOWS], 2, fk->ckey, -1,
		    SQLITE_STATIC);
		if ((rc = store_step(s, S_DEL_FLOWS, r->err)) != EXR_OK)
			return rc;
		sqlite3_bind_int64(sel, 1, fk->host_id);
		sqlite3_bind_text(sel, 2, fk->ckey, -1, SQLITE_STATIC);
		for (n = 0; (rc = sqlite3_step(sel)) == SQLITE_ROW; n++) {
			struct flow_half *h;

			if (n == s->caphalves) {
				size_t ncap = n == 0 ? 64 : 2 * n;
				void *a = ex_reallocarray(s->halves, ncap,
				    sizeof(*s->halves));
				void *b = a == NULL ? NULL :
				    ex_reallocarray(s->convs, ncap,
				    sizeof(*s->convs));

				if (a != NULL)
					s->halves = a;
				if (b == NULL) {
					sqlite3_reset(sel);
					return ex_fail(r->err, EXR_NOMEM, 0,
					    "no memory");
				}
				s->convs = b;
				s->caphalves = ncap;
			}
			h = &s->halves[n];
			memset(h, 0, sizeof(*h));
			h->protocol = (uint32_t)sqlite3_column_int64(sel, 0);
			snprintf(h->src, sizeof(h->src), "%s",
			    (const char *)sqlite3_column_text(sel, 1));
			h->sport = (uint32_t)sqlite3_column_int64(sel, 2);
			snprintf(h->dst, sizeof(h->dst), "%s",
			    (const char *)sqlite3_column_text(sel, 3));
			h->dport = (uint32_t)sqlite3_column_int64(sel, 4);
			h->ctime_s = (uint64_t)sqlite3_column_int64(sel, 5);
			h->lseen_s = (uint64_t)sqlite3_column_int64(sel, 6);
			h->bytes = (uint64_t)sqlite3_column_int64(sel, 7);
			h->packets = (uint64_t)sqlite3_column_int64(sel, 8);
			h->has_uid = sqlite3_column_type(sel, 9) != SQLITE_NULL;
			h->uid = (uint32_t)sqlite3_column_int64(sel, 9);
			h->has_projid = sqlite3_column_type(sel, 10) !=
			    SQLITE_NULL;
			h->projid = (uint32_t)sqlite3_column_int64(sel, 10);
		}
		sqlite3_reset(sel);
		if (rc != SQLITE_DONE)
			return db_fail(s->db, r->err, "flow_records");
		rows = flow_pair(s->halves, n, s->convs);
		ins = s->st[S_INS_FLOWS];
		for (k = 0; k < rows; k++) {
			const struct flow_conv *c = &s->convs[k];

			sqlite3_bind_int64(ins, 1, fk->host_id);
			sqlite3_bind_int64(ins, 2, c->protocol);
			sqlite3_bind_text(ins, 3, c->local, -1, SQLITE_STATIC);
			sqlite3_bind_int64(ins, 4, c->local_port);
			sqlite3_bind_text(ins, 5, c->remote, -1,
			    SQLITE_STATIC);
			sqlite3_bind_int64(ins, 6, c->remote_port);
			bind_opt(ins, 7, c->has_uid, c->uid);
			bind_opt(ins, 8, c->has_projid, c->projid);
			sqlite3_bind_int64(ins, 9, (int64_t)c->first_s);
			sqlite3_bind_int64(ins, 10, (int64_t)c->last_s);
			sqlite3_bind_int64(ins, 11, (int64_t)c->bytes_out);
			sqlite3_bind_int64(ins, 12, (int64_t)c->packets_out);
			sqlite3_bind_int64(ins, 13, (int64_t)c->bytes_in);
			sqlite3_bind_int64(ins, 14, (int64_t)c->packets_in);
			sqlite3_bind_int(ins, 15, c->paired);
			sqlite3_bind_text(ins, 16, fk->ckey, -1,
			    SQLITE_STATIC);
			if ((rc = store_step(s, S_INS_FLOWS, r->err)) != EXR_OK)
				return rc;
		}
	}
	s->nfkeys = 0;
	return EXR_OK;
}

