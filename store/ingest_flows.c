/*
 * The flow sink (see ingest_int.h, flows.h): flow records into
 * flow_records and conversations into flows.  Each one-way record is
 * upserted (a later record of a flow replaces the earlier), and at each
 * commit every 5-tuple touched is paired again from all its records, so
 * the result never depends on how the records were split into files.
 */
#include <arpa/inet.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parsers/compat.h"
#include "ingest_int.h"

enum { Q_UPS_FLOW, Q_SEL_FLOWS, Q_DEL_FLOWS, Q_INS_FLOWS, Q_N };

static const char *const q_sql[Q_N] = {
	[Q_UPS_FLOW] = "INSERT INTO flow_records (host_id, protocol, "
	    "src_addr, src_port, dst_addr, dst_port, ctime_s, uid_key, "
	    "projid_key, uid, projid, lseen_s, bytes, packets, dsfield, "
	    "action, ckey) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) "
	    /* A later record of the same flow holds the totals so far. */
	    "ON CONFLICT DO UPDATE SET lseen_s = excluded.lseen_s, "
	    "bytes = excluded.bytes, packets = excluded.packets "
	    "WHERE excluded.lseen_s > lseen_s OR (excluded.lseen_s = "
	    "lseen_s AND excluded.bytes > bytes)",
	[Q_SEL_FLOWS] = "SELECT protocol, src_addr, src_port, dst_addr, "
	    "dst_port, ctime_s, lseen_s, bytes, packets, uid, projid "
	    "FROM flow_records WHERE host_id = ? AND ckey = ?",
	[Q_DEL_FLOWS] = "DELETE FROM flows WHERE host_id = ? AND ckey = ?",
	[Q_INS_FLOWS] = "INSERT INTO flows (host_id, protocol, local_addr, "
	    "local_port, remote_addr, remote_port, uid, projid, first_s, "
	    "last_s, bytes_out, packets_out, bytes_in, packets_in, paired, "
	    "ckey) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
};

struct flow_key {
	int64_t		 host_id;
	char		 ckey[3 * FLOW_ADDRLEN];
};

struct flow_sink {
	sqlite3_stmt	*q[Q_N];
	struct flow_key	*fkeys;		/* 5-tuples touched this chunk */
	size_t		 nfkeys, capfkeys;
	struct flow_half *halves;	/* scratch for pairing */
	struct flow_conv *convs;
	size_t		 caphalves;
};

static int
flows_prepare(struct store *s, struct ex_err *err)
{
	if ((s->flows = calloc(1, sizeof(*s->flows))) == NULL)
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	return stmts_prepare(s->db, q_sql, s->flows->q, Q_N, err);
}

static void
flows_finalize(struct store *s)
{
	struct flow_sink *fs = s->flows;

	if (fs == NULL)
		return;
	stmts_finalize(fs->q, Q_N);
	free(fs->fkeys);
	free(fs->halves);
	free(fs->convs);
	free(fs);
	s->flows = NULL;
}

/* The 5-tuples touched since the last commit are the rollback's. */
static void
flows_reset(struct store *s, int keep)
{
	(void)keep;		/* the memory is scratch: always kept */
	s->flows->nfkeys = 0;
}

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
touch_flow_key(struct flow_sink *s, int64_t host, const char *ckey)
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

static int
ingest_flow(struct run *r, const char *host, const void *rec)
{
	const struct ex_flow *f = rec;
	struct flow_half h;
	sqlite3_stmt *st = r->s->flows->q[Q_UPS_FLOW];
	char ckey[3 * FLOW_ADDRLEN];
	int rc;

	if (!REC_HAS(f, FLOW_CTIME_S))
		return run_count(r, DIFF_UNTIMED);
	if ((rc = run_host(r, host)) != EXR_OK)
		return rc;
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
	if (store_step(r->s, st, r->err) != EXR_OK)
		return EXR_DB;
	return touch_flow_key(r->s->flows, r->host_id, ckey) == EXR_OK ?
	    EXR_OK : ex_fail(r->err, EXR_NOMEM, 0, "no memory");
}

static int
fkey_cmp(const void *a, const void *b)
{
	const struct flow_key *x = a, *y = b;

	if (x->host_id != y->host_id)
		return x->host_id < y->host_id ? -1 : 1;
	return strcmp(x->ckey, y->ckey);
}

int
flows_repair(struct store *st, int64_t host_id, const char *ckey,
    struct ex_err *err)
{
	struct flow_sink *s = st->flows;
	sqlite3_stmt *sel = s->q[Q_SEL_FLOWS], *del = s->q[Q_DEL_FLOWS];
	sqlite3_stmt *ins = s->q[Q_INS_FLOWS];
	size_t n, k, rows;
	int rc;

	sqlite3_bind_int64(del, 1, host_id);
	sqlite3_bind_text(del, 2, ckey, -1, SQLITE_STATIC);
	if ((rc = store_step(st, del, err)) != EXR_OK)
		return rc;
	sqlite3_bind_int64(sel, 1, host_id);
	sqlite3_bind_text(sel, 2, ckey, -1, SQLITE_STATIC);
	for (n = 0; (rc = sqlite3_step(sel)) == SQLITE_ROW; n++) {
		struct flow_half *h;

		if (n == s->caphalves) {
			size_t ncap = n == 0 ? 64 : 2 * n;
			void *a = ex_reallocarray(s->halves, ncap,
			    sizeof(*s->halves));
			void *b = a == NULL ? NULL :
			    ex_reallocarray(s->convs, ncap, sizeof(*s->convs));

			if (a != NULL)
				s->halves = a;
			if (b == NULL) {
				sqlite3_reset(sel);
				return ex_fail(err, EXR_NOMEM, 0, "no memory");
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
		h->has_projid = sqlite3_column_type(sel, 10) != SQLITE_NULL;
		h->projid = (uint32_t)sqlite3_column_int64(sel, 10);
	}
	sqlite3_reset(sel);
	if (rc != SQLITE_DONE)
		return db_fail(st->db, err, "flow_records");
	rows = flow_pair(s->halves, n, s->convs);
	for (k = 0; k < rows; k++) {
		const struct flow_conv *c = &s->convs[k];

		sqlite3_bind_int64(ins, 1, host_id);
		sqlite3_bind_int64(ins, 2, c->protocol);
		sqlite3_bind_text(ins, 3, c->local, -1, SQLITE_STATIC);
		sqlite3_bind_int64(ins, 4, c->local_port);
		sqlite3_bind_text(ins, 5, c->remote, -1, SQLITE_STATIC);
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
		sqlite3_bind_text(ins, 16, ckey, -1, SQLITE_STATIC);
		if ((rc = store_step(st, ins, err)) != EXR_OK)
			return rc;
	}
	return EXR_OK;
}

/* At a commit: re-pair every 5-tuple touched from all its records. */
static int
flows_rebuild(struct run *r)
{
	struct flow_sink *s = r->s->flows;
	size_t i;
	int rc;

	if (s->nfkeys == 0)
		return EXR_OK;
	qsort(s->fkeys, s->nfkeys, sizeof(*s->fkeys), fkey_cmp);
	for (i = 0; i < s->nfkeys; i++) {
		const struct flow_key *fk = &s->fkeys[i];

		if (i > 0 && fkey_cmp(fk, fk - 1) == 0)
			continue;
		if ((rc = flows_repair(r->s, fk->host_id, fk->ckey,
		    r->err)) != EXR_OK)
			return rc;
	}
	s->nfkeys = 0;
	return EXR_OK;
}

const struct sink flow_sink = {
	.name = "flows",
	.prepare = flows_prepare,
	.write = ingest_flow,
	.flush = flows_rebuild,
	.reset = flows_reset,
	.finalize = flows_finalize,
};
