/*
 * --percentiles (report_int.h): per key group, the p50, p95 and the
 * largest of its series of --every buckets, CPU seconds and utilisation
 * of the host's CPUs: what a machine is sized by.
 *
 * The series holds the buckets in which the group's hosts were
 * observed, no other: a bucket in which a host kept no record is not
 * known, and counting it as 0 would size a machine by the days it was
 * not watched (2 days of data in a 22-day window gave p50 = p95 = 0).
 * A host is observed in a UTC hour when any interval of any of its
 * processes lies in it (the hour has a v_usage_rollup_host row: usage
 * was put in it), and in a bucket when in any hour that starts in it.
 * The group's hosts are its key's host, or, with no host key, the
 * hosts it ran on in the window (with no key at all, every host with
 * usage).  An observed bucket in which the group used nothing counts as
 * 0: a quiet night on a watched host is part of the load.
 *
 * Percentiles are nearest-rank: the smallest value with at least p% of
 * the observed buckets at or below it, a value that occurred, never an
 * interpolation.
 *
 * The rows come straight from the rollups (report_cpu_query), CPU
 * alone, and are added up here by key and bucket in a hash table: no
 * sort of the rows in SQL, nor a report_row (2 KB) a bucket and key,
 * which is where the time of the usage report's path went (its sorter's
 * temporary files, and copying rows that were mostly zeros).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../parsers/compat.h"
#include "../parsers/records.h"
#include "fmt.h"
#include "report_int.h"

/*
 * The figures of a row after window_buckets (every bucket of the
 * window, the same in each row): observed_buckets, those the
 * percentiles are over, in which the group's hosts were observed.
 */
#define NSTAT	7
static const char *const stat_names[NSTAT] = {
	"observed_buckets", "cpu_s_p50", "cpu_s_p95", "cpu_s_max",
	"util_pct_p50", "util_pct_p95", "util_pct_max",
};

/* One bucket of a group's series: its index and CPU (ns). */
struct pent {
	__int128	 cpu;
	uint32_t	 b;
};

/* A key group: its keys, its series and its hosts. */
struct pgroup {
	struct report_row *row;		/* its keys, for report_value */
	char		*key;		/* the keys as hashed */
	size_t		 klen;
	__int128	 total;
	struct pent	*ent;		/* in the order the rows came */
	size_t		 n, cap;
	uint32_t	*host;		/* indices into s->hosts */
	size_t		 nhost, hcap;
	uint32_t	 lasthost;	/* host of the last row, or UINT32_MAX */
	char		 cell[NSTAT][64];
};

/* A table of uint32 indices by a hash (open addressing, linear). */
struct htab {
	uint32_t	*slot;		/* UINT32_MAX: empty */
	size_t		 mask;		/* size - 1 (a power of 2) */
	size_t		 n;
};

/* FNV-1a. */
static uint64_t
hash_bytes(const void *p, size_t n)
{
	const unsigned char *c = p;
	uint64_t h = 0xcbf29ce484222325ULL;

	while (n-- > 0)
		h = (h ^ *c++) * 0x100000001b3ULL;
	return h;
}

static int
ht_init(struct htab *t, size_t size)
{
	t->n = 0;
	t->mask = size - 1;
	if ((t->slot = malloc(size * sizeof(*t->slot))) == NULL)
		return -1;
	memset(t->slot, 0xff, size * sizeof(*t->slot));
	return 0;
}

/* The state of a build: the groups, the host table, scratch. */
struct pct {
	const struct report_opts *o;
	const struct report_set *s;
	struct pgroup	*g;
	size_t		 ng, gcap;
	struct htab	 gt;		/* groups by key */
	struct htab	 ht;		/* hosts by label */
	uint64_t	*obs;		/* nhosts bitmaps of nb bits */
	size_t		 words;		/* a bitmap's uint64s */
	char		*kb;		/* the key being looked up */
	size_t		 kcap;
};

/* A group's slot for key bytes kb[0..kl), made if new (-1: no memory). */
static long
group_of(struct pct *p, struct rdb_q *st, const char *kb, size_t kl,
    uint64_t h)
{
	struct htab *t = &p->gt;
	size_t i;
	uint32_t x;
	struct pgroup *g;
	int k;

	for (i = h & t->mask; (x = t->slot[i]) != UINT32_MAX;
	    i = (i + 1) & t->mask)
		if (p->g[x].klen == kl && memcmp(p->g[x].key, kb, kl) == 0)
			return x;
	if (p->ng == p->gcap) {
		size_t cap = p->gcap == 0 ? 64 : p->gcap * 2;
		struct pgroup *ng;

		if ((ng = ex_reallocarray(p->g, cap, sizeof(*ng))) == NULL)
			return -1;
		p->g = ng;
		p->gcap = cap;
	}
	g = &p->g[p->ng];
	memset(g, 0, sizeof(*g));
	g->lasthost = UINT32_MAX;
	if ((g->key = malloc(kl + 1)) == NULL ||
	    (g->row = calloc(1, sizeof(*g->row))) == NULL) {
		free(g->key);
		return -1;
	}
	memcpy(g->key, kb, kl);
	g->klen = kl;
	for (k = 0; k < report_nkeys(p->o); k++)
		report_read_key(st, p->o, k, 2 + k, g->row);
	t->slot[i] = (uint32_t)p->ng;
	x = (uint32_t)p->ng++;
	/* Kept at most half full: grown, every group hashed again. */
	if (++t->n * 2 > t->mask + 1) {
		struct htab nt;
		size_t j;

		if (ht_init(&nt, (t->mask + 1) * 2) != 0)
			return -1;
		for (j = 0; j < p->ng; j++) {
			size_t at = hash_bytes(p->g[j].key,
			    p->g[j].klen) & nt.mask;

			while (nt.slot[at] != UINT32_MAX)
				at = (at + 1) & nt.mask;
			nt.slot[at] = (uint32_t)j;
		}
		nt.n = t->n;
		free(t->slot);
		*t = nt;
	}
	return x;
}

/* The index of host label h in s->hosts, or UINT32_MAX. */
static uint32_t
host_of(const struct pct *p, const char *h)
{
	const struct htab *t = &p->ht;
	size_t i;
	uint32_t x;

	if (h == NULL)
		return UINT32_MAX;
	for (i = hash_bytes(h, strlen(h)) & t->mask;
	    (x = t->slot[i]) != UINT32_MAX; i = (i + 1) & t->mask)
		if (strcmp(p->s->hosts[x].host, h) == 0)
			return x;
	return UINT32_MAX;
}

static int
hosts_index(struct pct *p)
{
	size_t size = 16, i, at;

	while (size < p->s->nhosts * 2)
		size *= 2;
	if (ht_init(&p->ht, size) != 0)
		return -1;
	for (i = 0; i < p->s->nhosts; i++) {
		const char *h = p->s->hosts[i].host;

		at = hash_bytes(h, strlen(h)) &
		    p->ht.mask;
		while (p->ht.slot[at] != UINT32_MAX)
			at = (at + 1) & p->ht.mask;
		p->ht.slot[at] = (uint32_t)i;
	}
	return 0;
}

/* Host x of group g (once). */
static int
group_host(struct pgroup *g, uint32_t x)
{
	size_t i;

	g->lasthost = x;
	for (i = 0; i < g->nhost; i++)
		if (g->host[i] == x)
			return 0;
	if (g->nhost == g->hcap) {
		size_t cap = g->hcap == 0 ? 4 : g->hcap * 2;
		uint32_t *nh;

		if ((nh = ex_reallocarray(g->host, cap, sizeof(*nh))) == NULL)
			return -1;
		g->host = nh;
		g->hcap = cap;
	}
	g->host[g->nhost++] = x;
	return 0;
}

/*
 * The name of each id key of g, as the usage report's rule has it: the
 * one every host of the group gives the id, else none (the number).
 */
static void
group_names(const struct pct *p, struct pgroup *g)
{
	const struct report_set *s = p->s;
	int k;

	for (k = 0; k < report_nkeys(p->o); k++) {
		int kind = report_name_kind(report_key(p->o, k));
		uint32_t ref = 0;
		size_t h, i;

		if (kind < 0 || g->nhost == 0 || (g->row->keynull >> k & 1))
			continue;
		for (h = 0; h < g->nhost; h++) {
			const char *host = s->hosts[g->host[h]].host;
			uint32_t at = 0;

			/* The names are sorted by kind and id. */
			for (i = report_names_first(s, kind, g->row->id[k]);
			    i < s->nnames && at == 0 && s->names[i].kind ==
			    kind && s->names[i].id == g->row->id[k]; i++)
				if (strcmp(s->names[i].host, host) == 0)
					at = (uint32_t)i + 1;
			if (at == 0 || (ref != 0 && strcmp(s->names[ref -
			    1].name, s->names[at - 1].name) != 0)) {
				ref = 0;
				break;
			}
			ref = at;
		}
		g->row->name[k] = ref;
	}
}

/* CPU cpu in bucket b of group g: the last bucket's again, or a new one. */
static int
group_add(struct pgroup *g, uint32_t b, __int128 cpu)
{
	g->total += cpu;
	if (g->n > 0 && g->ent[g->n - 1].b == b) {
		g->ent[g->n - 1].cpu += cpu;
		return 0;
	}
	if (g->n == g->cap) {
		size_t cap = g->cap == 0 ? 16 : g->cap * 2;
		struct pent *ne;

		if ((ne = ex_reallocarray(g->ent, cap, sizeof(*ne))) == NULL)
			return -1;
		g->ent = ne;
		g->cap = cap;
	}
	g->ent[g->n].b = b;
	g->ent[g->n++].cpu = cpu;
	return 0;
}

/* The rows of the query into groups.  EXR_OK, EXR_DB or EXR_NOMEM. */
static int
load_rows(struct pct *p, struct rdb *db, struct ex_err *err)
{
	struct rdb_q *st;
	int rc, k, nk = report_nkeys(p->o);

	if ((rc = report_cpu_query(db, p->o, p->s, &st, err)) != EXR_OK)
		return rc;
	while ((rc = rdb_step(st)) == RDB_ROW) {
		size_t kl = 0;
		long bx, gx;
		uint32_t hx;
		struct pgroup *g;
		__int128 cpu;

		if ((bx = report_bucket_of(p->s, rdb_int64(st, 0))) < 0)
			continue;
		/* The keys as bytes: a NULL apart from every text. */
		for (k = 0; k < nk; k++) {
			const char *t = rdb_isnull(st, 2 + k) ? NULL :
			    rdb_text(st, 2 + k);
			size_t l = t != NULL ? strlen(t) : 0;

			if (kl + l + 2 > p->kcap) {
				size_t cap = (kl + l + 2) * 2;
				char *nb;

				if ((nb = realloc(p->kb, cap)) == NULL)
					goto nomem;
				p->kb = nb;
				p->kcap = cap;
			}
			p->kb[kl++] = t != NULL;
			if (t != NULL)
				memcpy(p->kb + kl, t, l);
			kl += l;
			p->kb[kl++] = '\0';
		}
		gx = group_of(p, st, p->kb, kl, hash_bytes(p->kb, kl));
		if (gx < 0)
			goto nomem;
		g = &p->g[gx];
		hx = host_of(p, rdb_text(st, 1));
		if (hx != UINT32_MAX && hx != g->lasthost &&
		    group_host(g, hx) != 0)
			goto nomem;
		cpu = (__int128)rdb_int64(st, 2 + nk) * NS_I64 +
		    rdb_int64(st, 3 + nk) +
		    (__int128)rdb_int64(st, 4 + nk) * NS_I64 +
		    rdb_int64(st, 5 + nk);
		if (group_add(g, (uint32_t)bx, cpu) != 0)
			goto nomem;
	}
	rdb_finalize(st);
	return rc == RDB_DONE ? EXR_OK :
	    ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
nomem:
	rdb_finalize(st);
	return ex_fail(err, EXR_NOMEM, 0, "no memory");
}

/* The buckets each host was observed in, as bitmaps. */
static int
load_observed(struct pct *p, struct rdb *db, struct ex_err *err)
{
	static const char sql[] = "SELECT host, hour_s FROM "
	    "v_usage_rollup_host WHERE hour_s >= ?1 AND hour_s < ?2";
	struct rdb_q *st;
	int64_t h0, h1;
	int rc;

	report_hours(p->o, p->s, &h0, &h1);
	if (rdb_prepare(db, sql, &st) != 0)
		return ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
	rdb_bind_int64(st, 1, h0);
	rdb_bind_int64(st, 2, h1);
	while ((rc = rdb_step(st)) == RDB_ROW) {
		uint32_t hx = host_of(p, rdb_text(st, 0));
		long bx = report_bucket_of(p->s, rdb_int64(st, 1));

		if (hx != UINT32_MAX && bx >= 0)
			p->obs[hx * p->words + (size_t)bx / 64] |=
			    (uint64_t)1 << (bx % 64);
	}
	rdb_finalize(st);
	return rc == RDB_DONE ? EXR_OK :
	    ex_fail(err, EXR_DB, 0, "%s", rdb_errmsg(db));
}

size_t
report_rank(size_t n, int p)
{
	size_t r = (n * (size_t)p + 99) / 100;

	return r == 0 ? 0 : r - 1;
}

static int
cmp_i128(const void *a, const void *b)
{
	__int128 x = *(const __int128 *)a, y = *(const __int128 *)b;

	return (x > y) - (x < y);
}

static int
cmp_ld(const void *a, const void *b)
{
	long double x = *(const long double *)a, y = *(const long double *)b;

	return (x > y) - (x < y);
}

/*
 * Element i of the sorted series: the n sorted values v with z zeros
 * among them (the observed buckets the group used nothing in).
 */
static __int128
nth_i128(const __int128 *v, size_t n, size_t z, size_t i)
{
	size_t neg = 0;

	while (neg < n && v[neg] < 0)
		neg++;
	return i < neg ? v[i] : i < neg + z ? 0 : v[i - z];
}

static long double
nth_ld(const long double *v, size_t n, size_t z, size_t i)
{
	size_t neg = 0;

	while (neg < n && v[neg] < 0)
		neg++;
	return i < neg ? v[i] : i < neg + z ? 0 : v[i - z];
}

/* Scratch of nb each, for one group at a time. */
struct scratch {
	uint64_t	*bits;		/* the buckets observed */
	__int128	*cpu;		/* a bucket's CPU, in the order met */
	long double	*util;
	uint32_t	*bk;		/* the bucket of cpu[i] */
	uint32_t	*pos;		/* bucket b's i, if stamp[b] is gen */
	uint32_t	*stamp;
};

/* Group g's figures into its cells (gen: a stamp of its own, not 0). */
static void
figures(struct pct *p, struct pgroup *g, struct scratch *x, uint32_t gen)
{
	const struct report_set *s = p->s;
	__int128 *cpu;
	long double *util;
	size_t i, w, n = 0, obs = 0, z;
	int64_t ncpu;

	/* The buckets any of its hosts was observed in. */
	memset(x->bits, 0, p->words * sizeof(*x->bits));
	for (i = 0; i < g->nhost; i++)
		for (w = 0; w < p->words; w++)
			x->bits[w] |= p->obs[g->host[i] * p->words + w];
	/*
	 * Its buckets of usage, each once (rows of one bucket need not
	 * come together); usage is an observation too.
	 */
	for (i = 0; i < g->n; i++) {
		uint32_t b = g->ent[i].b;

		if (x->stamp[b] == gen) {
			x->cpu[x->pos[b]] += g->ent[i].cpu;
			continue;
		}
		x->stamp[b] = gen;
		x->pos[b] = (uint32_t)n;
		x->bk[n] = b;
		x->cpu[n++] = g->ent[i].cpu;
		x->bits[b / 64] |= (uint64_t)1 << (b % 64);
	}
	for (w = 0; w < p->words; w++)
		obs += (size_t)__builtin_popcountll(x->bits[w]);
	snprintf(g->cell[0], sizeof(g->cell[0]), "%zu", obs);
	if (obs == 0)
		return;
	z = obs - n;
	cpu = x->cpu;
	util = x->util;
	/* Utilisation: each bucket's CPU over its CPUs' seconds. */
	ncpu = report_ncpu(p->o, s, g->row);
	for (i = 0; i < n && ncpu > 0; i++) {
		size_t b = x->bk[i];

		util[i] = (long double)cpu[i] * 100 / ((long double)ncpu *
		    (long double)(s->edge[b + 1] - s->edge[b]) * 1e9L);
	}
	qsort(cpu, n, sizeof(*cpu), cmp_i128);
	fmt_secs128(g->cell[1], sizeof(g->cell[1]),
	    nth_i128(cpu, n, z, report_rank(obs, 50)));
	fmt_secs128(g->cell[2], sizeof(g->cell[2]),
	    nth_i128(cpu, n, z, report_rank(obs, 95)));
	fmt_secs128(g->cell[3], sizeof(g->cell[3]),
	    nth_i128(cpu, n, z, obs - 1));
	if (ncpu <= 0)
		return;
	qsort(util, n, sizeof(*util), cmp_ld);
	snprintf(g->cell[4], sizeof(g->cell[4]), "%.2Lf",
	    nth_ld(util, n, z, report_rank(obs, 50)));
	snprintf(g->cell[5], sizeof(g->cell[5]), "%.2Lf",
	    nth_ld(util, n, z, report_rank(obs, 95)));
	snprintf(g->cell[6], sizeof(g->cell[6]), "%.2Lf",
	    nth_ld(util, n, z, obs - 1));
}

/* The groups, the most CPU first; ties by their keys, NULL first. */
static const struct report_opts *cmp_o;

static int
cmp_groups(const void *a, const void *b)
{
	const struct pgroup *x = a, *y = b;
	int k, c;

	if (x->row->other != y->row->other)
		return x->row->other - y->row->other;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	for (k = 0; k < report_nkeys(cmp_o); k++) {
		int nx = x->row->keynull >> k & 1, ny = y->row->keynull >> k & 1;

		if (nx != ny)
			return ny - nx;
		if (x->row->id[k] != y->row->id[k])
			return x->row->id[k] < y->row->id[k] ? -1 : 1;
		if (x->row->hour_epoch != y->row->hour_epoch)
			return x->row->hour_epoch < y->row->hour_epoch ? -1 : 1;
		if ((c = strcmp(x->row->key[k], y->row->key[k])) != 0)
			return c;
	}
	return 0;
}

/*
 * --limit N: the groups past the first N added up into one, keyed
 * ***other: their CPU a bucket summed, their hosts together.
 */
static int
lump(struct pct *p)
{
	struct pgroup *o;
	size_t i, j;

	if (p->o->limit <= 0 || p->ng <= (size_t)p->o->limit + 1)
		return 0;
	o = &p->g[p->o->limit];
	o->row->other = 1;
	o->lasthost = UINT32_MAX;
	for (i = (size_t)p->o->limit + 1; i < p->ng; i++) {
		struct pgroup *x = &p->g[i];

		for (j = 0; j < x->nhost; j++)
			if (group_host(o, x->host[j]) != 0)
				return -1;
		for (j = 0; j < x->n; j++)
			if (group_add(o, x->ent[j].b, x->ent[j].cpu) != 0)
				return -1;
		free(x->row);
		free(x->key);
		free(x->ent);
		free(x->host);
	}
	p->ng = (size_t)p->o->limit + 1;
	return 0;
}

static void
pct_free(struct pct *p)
{
	size_t i;

	for (i = 0; i < p->ng; i++) {
		free(p->g[i].row);
		free(p->g[i].key);
		free(p->g[i].ent);
		free(p->g[i].host);
	}
	free(p->g);
	free(p->gt.slot);
	free(p->ht.slot);
	free(p->obs);
	free(p->kb);
}

int
report_percentiles(struct rdb *db, FILE *fp, const struct report_opts *o,
    const struct report_set *s, struct ex_err *err)
{
	struct report_col all[REPORT_MAXCOLS], kc[REPORT_MAXCOLS];
	struct pct p = { 0 };
	struct scratch x = { 0 };
	size_t g, nb = s->nb;
	struct rtab t;
	char b[256];
	int na, nk = 0, j, rc = EXR_NOMEM;

	p.o = o;
	p.s = s;
	p.words = (nb + 63) / 64;
	na = report_cols(o, all);
	for (j = 0; j < na; j++)
		if (all[j].key)
			kc[nk++] = all[j];
	p.kcap = 256;
	if ((p.kb = malloc(p.kcap)) == NULL || ht_init(&p.gt, 64) != 0 ||
	    hosts_index(&p) != 0 ||
	    (p.obs = calloc(s->nhosts * p.words + 1, sizeof(*p.obs))) ==
	    NULL || (x.bits = calloc(p.words + 1, sizeof(*x.bits))) == NULL ||
	    (x.cpu = calloc(nb + 1, sizeof(*x.cpu))) == NULL ||
	    (x.util = calloc(nb + 1, sizeof(*x.util))) == NULL ||
	    (x.bk = calloc(nb + 1, sizeof(*x.bk))) == NULL ||
	    (x.pos = calloc(nb + 1, sizeof(*x.pos))) == NULL ||
	    (x.stamp = calloc(nb + 1, sizeof(*x.stamp))) == NULL)
		goto fail;
	if (nb > 0 && ((rc = load_observed(&p, db, err)) != EXR_OK ||
	    (rc = load_rows(&p, db, err)) != EXR_OK))
		goto done;
	rc = EXR_NOMEM;
	/* With no key, one row even when nothing was observed. */
	if (report_nkeys(o) == 0 && p.ng == 0 && nb > 0) {
		if ((p.g = calloc(1, sizeof(*p.g))) == NULL ||
		    (p.g->row = calloc(1, sizeof(*p.g->row))) == NULL)
			goto fail;
		p.ng = 1;
	}
	cmp_o = o;
	if (p.ng > 1)
		qsort(p.g, p.ng, sizeof(*p.g), cmp_groups);
	if (lump(&p) != 0)
		goto fail;
	for (g = 0; g < p.ng; g++) {
		figures(&p, &p.g[g], &x, (uint32_t)g + 1);
		group_names(&p, &p.g[g]);
	}

	/* Print: key columns, then the statistics (absent: not known). */
	rtab_init(&t);
	for (j = 0; j < nk; j++)
		rtab_col(&t, kc[j].name, kc[j].kind, kc[j].formats, 0, 0);
	rtab_col(&t, "tz", COL_TEXT, COLF_CSV, 0, 0);
	rtab_col(&t, "window_buckets", COL_NUM, COLF_ALL, 0, 0);
	for (j = 0; j < NSTAT; j++)
		rtab_col(&t, stat_names[j], COL_NUM, COLF_ALL, 0, 0);
	for (g = 0; g < p.ng; g++) {
		rtab_row(&t);
		for (j = 0; j < nk; j++) {
			const char *v = report_value(o, s, &kc[j], p.g[g].row,
			    o->format, b, sizeof(b));

			rtab_put(&t, j, v == NULL && o->format == FMT_TABLE ?
			    "-" : v);
		}
		rtab_put(&t, nk, o->tz);
		rtab_putf(&t, nk + 1, "%zu", nb);
		for (j = 0; j < NSTAT; j++)
			rtab_put(&t, nk + 2 + j, p.g[g].cell[j][0] != '\0' ?
			    p.g[g].cell[j] : NULL);
	}
	report_title(&t, o, NULL);
	rtab_head(&t, "# p50, p95, max: nearest rank over the observed "
	    "buckets (of the window's %zu), those in which the key's hosts\n"
	    "# kept records; 0 where they did and the key used nothing\n",
	    nb);
	rtab_meta(&t, "every", COL_TEXT, report_every_names[o->every]);
	rtab_meta(&t, "tz", COL_TEXT, o->tz);
	t.rows_name = "percentiles";
	j = rtab_print(fp, &t, o->format);
	rtab_free(&t);
	if (j != 0)
		goto fail;
	rc = EXR_OK;
	goto done;
fail:
	rc = ex_fail(err, EXR_NOMEM, 0, "no memory");
done:
	pct_free(&p);
	free(x.bits);
	free(x.cpu);
	free(x.util);
	free(x.bk);
	free(x.pos);
	free(x.stamp);
	return rc;
}
