/*
 * Rollups (see rollup.h, rollup_sql.h, docs/schema.md): the split of an
 * interval over the hours it covers, and the rollup rows ingest and
 * merge keep up to date.
 *
 * Ingest hands each interval row it writes to rollup_add, which adds
 * its parts, one per hour, into accumulators in memory, one per rollup
 * row it touches (hour, day, host and hour), each keyed by its process's
 * rollup key (rollup_know, or the procs row, which is written first);
 * at each commit rollup_flush adds each accumulator into its row by an
 * upsert, in the tables' key order, many rows to a statement.  So the
 * rollups move in the transaction that writes the intervals, and a
 * chunk rolled back takes them with it (the store's reset calls
 * rollup_forget).  Adding up in SQL instead (a temporary
 * table of parts, grouped at the commit) made ingest 8 times slower:
 * 28 aggregates a part, and a sort of all of them.  Merge's parts come
 * from SQL (rollup_add_since) and take that way, which is rarer.
 */
#include <stdlib.h>
#include <string.h>

#include "../parsers/compat.h"
#include "../parsers/records.h"
#include "db.h"
#include "rollup.h"
#include "rollup_sql.h"

/* An upsert's SET for a sum that stays NULL only while every part is
 * (the sum where both are there, else the one that is). */
#define ADD(c)	c " = coalesce(" c " + excluded." c ", " c ", excluded." c ")"
/* And for the largest of the parts. */
#define MAX(c)	c " = CASE WHEN " c " IS NULL OR excluded." c " > " c \
	" THEN excluded." c " ELSE " c " END"
#define ADD1(c)	ADD(c "_g") ", " ADD(c "_r")
#define ADDN(c)	", " ADD1(c)
#define ADD_ALL \
	"calls = calls + excluded.calls, " RU_GR(ADD1, ADDN) ", " \
	MAX("rss_max_kb") ", " MAX("threads")

#define PENDING	"temp.rollup_pending"

enum { Q_HOUR, Q_DAY, Q_HOST, Q_CLEAR, Q_N };

/* The levels of rollup rows, each with its table. */
enum { RL_HOUR, RL_DAY, RL_HOST, RL_N };

#define Q37	"?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?," \
	"?,?,?,?,?"
#define Q31	"?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?"

/*
 * Each level's upsert: its table's columns (key, then values) and the
 * parameters of one row.  OR FAIL, as ingest's other batches
 * (store/ingest_procs.c): under ABORT a statement of many rows keeps a
 * statement journal, and an error rolls the whole chunk back anyway.
 */
static const struct {
	const char	*head, *row;
} up_sql[RL_N] = {
	[RL_HOUR] = { "INSERT OR FAIL INTO rollup_hour ("
	    RU_KEY_COLS("hour_s") ", " RU_TABLE_COLS ") VALUES ",
	    "(" Q37 ")" },
	[RL_DAY] = { "INSERT OR FAIL INTO rollup_day ("
	    RU_KEY_COLS("day_s") ", " RU_TABLE_COLS ") VALUES ",
	    "(" Q37 ")" },
	[RL_HOST] = { "INSERT OR FAIL INTO rollup_host (host_id, hour_s, "
	    RU_TABLE_COLS ") VALUES ", "(" Q31 ")" },
};
#define UP_TAIL	" ON CONFLICT DO UPDATE SET " ADD_ALL

/*
 * Accumulators of one level go RU_BATCH to an upsert: one statement of
 * many rows costs less than as many statements.  Ingest's CPU against
 * one row a statement in the order made, medians of paired runs:
 * sorted (struct acc_order) 0.93 on 1M generated records, sorted and
 * batched 0.84 (100,000 records: 0.86, 0.76).  That needs schema 18: a
 * NOT NULL calls made SQLite keep a statement journal for each.
 */
#define RU_BATCH	32

static const char *const q_sql[Q_N] = {
	[Q_HOUR] = RU_INSERT_HOUR(PENDING) " ON CONFLICT DO UPDATE SET "
	    ADD_ALL,
	[Q_DAY] = RU_INSERT_DAY(PENDING) " ON CONFLICT DO UPDATE SET "
	    ADD_ALL,
	[Q_HOST] = RU_INSERT_HOST(PENDING) " ON CONFLICT DO UPDATE SET "
	    ADD_ALL,
	[Q_CLEAR] = ("DELETE FROM " PENDING),	/* () for -Wstring-concatenation */
};

/*
 * Accumulators before they are written, inside the transaction, even
 * before its commit: memory stays bounded (~36 MB) whatever the chunk.
 * When they are this many, the half touched least recently is written
 * (rollup_spill) and the rest kept: a row written twice in one chunk
 * costs an upsert that updates, dearer than the insert, and the rows a
 * chunk keeps coming back to (the hours of now, and those that the
 * first intervals of long-lived processes spread over) stay in memory.
 */
#define RU_MAX_ACCS	131072

/* The sums of a rollup row: real_ns, then enum rollup_value's. */
#define RU_NV	(1 + RV_N)

/* A rollup key, interned: its process's host, ids, zone and command. */
struct ru_key {
	int64_t		 host_id, uid, gid, projid;
	int		 nulls;		/* as the tables' (rollup_sql.h) */
	char		*zone, *command;	/* "" where absent */
	uint64_t	 hash;
};

/*
 * What the parts added since the last flush make of one rollup row:
 * the sums of each part's value / 10^9 (g) and % 10^9 (r), as the
 * rebuild's SQL adds them up, so both make the same rows.
 */
struct ru_acc {
	int		 level;		/* RL_* */
	int32_t		 key;		/* keys[]; RL_HOST: -1 */
	int64_t		 host_id;	/* its key's (RL_HOST: the key) */
	int64_t		 t;		/* hour_s, or day_s */
	int64_t		 calls;
	int64_t		 g[RU_NV], r[RU_NV];
	uint32_t	 have;		/* bit k: a part had value k */
	int64_t		 rss, threads;	/* the largest */
	int		 has_rss, has_threads;
	uint64_t	 touched;	/* struct rollup's clock, when last */
};

/*
 * An accumulator's place in its table: the level, then the key's first
 * columns (the hour or day, the host), then its key's place in keys[].
 * Written in this order, a chunk's upserts go through each table's
 * B-tree from one end to the other and touch each page once: in the
 * order the accumulators were made (a long-lived process's first
 * interval makes one an hour, over weeks) they land all over it.
 */
struct acc_order {
	int64_t		 t, host_id;
	int32_t		 level, key;
	size_t		 i;		/* in accs[] */
};

/* A process and its key. */
struct ru_proc {
	int64_t		 proc_id;
	int32_t		 key;		/* keys[] */
};

/* An open-addressed table of indexes (-1: empty), by a hash. */
struct ru_map {
	int32_t		*slot;
	size_t		 cap;		/* a power of 2, or 0 */
};

struct rollup {
	sqlite3		*db;
	sqlite3_stmt	*q[Q_N];
	sqlite3_stmt	*up[RL_N];	/* each level's upsert of one row */
	sqlite3_stmt	*upb[RL_N];	/* and of RU_BATCH rows */
	sqlite3_stmt	*key_q;		/* a process's key from procs */
	uint64_t	 npending;	/* parts in the temporary table */
	struct ru_key	*keys;
	size_t		 nkeys, capkeys;
	struct ru_map	 keymap;	/* keys[] by content */
	struct ru_proc	*procs;		/* the processes known */
	size_t		 nprocs, capprocs;
	struct ru_map	 procmap;	/* procs[] by proc_id */
	struct ru_acc	*accs;
	size_t		 naccs, capaccs;
	uint64_t	 clock;		/* accumulators touched so far */
	uint64_t	*stamps;	/* rollup_spill's scratch */
	struct acc_order *order;	/* the accumulators to write */
	struct ru_map	 accmap;	/* accs[] by level, key and t */
};

/* The field of each enum rollup_value in a process interval. */
static const int rv_field[RV_N] = {
	[RV_CPU_USER] = PROC_CPU_USER_NS, [RV_CPU_SYS] = PROC_CPU_SYS_NS,
	[RV_CHARS] = PROC_CHARS_RDWR, [RV_BLOCKS_IN] = PROC_BLOCKS_IN,
	[RV_BLOCKS_OUT] = PROC_BLOCKS_OUT, [RV_READ] = PROC_READ_BYTES,
	[RV_WRITE] = PROC_WRITE_BYTES, [RV_FAULTS_MAJOR] = PROC_FAULTS_MAJOR,
	[RV_FAULTS_MINOR] = PROC_FAULTS_MINOR, [RV_SYSCALLS] = PROC_SYSCALLS,
	[RV_CTXT_VOL] = PROC_CTXT_VOL, [RV_CTXT_INV] = PROC_CTXT_INV,
};

static int
split_ok(int64_t t0, int64_t t1)
{
	return t0 >= 0 && t1 > t0 && t1 <= ROLLUP_MAX_T_NS &&
	    t1 - t0 <= ROLLUP_MAX_SPLIT_NS;
}

void
rollup_hours(int64_t t0, int64_t t1, int64_t *h0, int64_t *h1)
{
	if (split_ok(t0, t1)) {
		*h0 = t0 / ROLLUP_HOUR_NS;
		*h1 = (t1 - 1) / ROLLUP_HOUR_NS;
	} else
		*h0 = *h1 = t1 / ROLLUP_HOUR_NS;
}

/* The weight unit: ms, or s where ms would reach 2^31 (rollup_sql.h). */
static int64_t
weight_unit(int64_t t0, int64_t t1)
{
	return t1 / 1000000 - t0 / 1000000 < 2147483648LL ? 1000000 :
	    NS_I64;
}

/* floor(v * c / d) without overflow: c <= d < 2^31. */
static int64_t
scaled(int64_t v, int64_t c, int64_t d)
{
	return v / d * c + v % d * c / d;
}

/* Hour h's weights: before it (*cb), through it (*ce), of *d. */
static void
weights(int64_t t0, int64_t t1, int64_t h0, int64_t h1, int64_t h,
    int64_t *cb, int64_t *ce, int64_t *d)
{
	int64_t u = weight_unit(t0, t1);

	*d = t1 / u - t0 / u;
	*cb = h == h0 ? 0 : h * ROLLUP_HOUR_NS / u - t0 / u;
	*ce = h == h1 ? *d : (h + 1) * ROLLUP_HOUR_NS / u - t0 / u;
}

int64_t
rollup_split(int64_t t0, int64_t t1, int64_t h, int64_t v)
{
	int64_t h0, h1, d, cb, ce;

	rollup_hours(t0, t1, &h0, &h1);
	if (h0 == h1)
		return v;
	weights(t0, t1, h0, h1, h, &cb, &ce, &d);
	return scaled(v, ce, d) - scaled(v, cb, d);
}

int
rollup_prepare(sqlite3 *db, struct rollup **rp, struct ex_err *err)
{
	struct rollup *ru;
	int i;

	*rp = NULL;
	/* No key: a part is added as often as its interval is written. */
	if (db_exec(db, "CREATE TEMP TABLE IF NOT EXISTS rollup_pending ("
	    "proc_id INTEGER NOT NULL, final INTEGER NOT NULL, "
	    "hour_s INTEGER NOT NULL, " RU_VALUE_COLS ")", err) != EXR_OK)
		return EXR_DB;
	if ((ru = calloc(1, sizeof(*ru))) == NULL)
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	ru->db = db;
	for (i = 0; i < Q_N; i++)
		if (db_prepare(db, q_sql[i], &ru->q[i], err) != EXR_OK)
			goto fail;
	for (i = 0; i < RL_N; i++)
		if (db_prepare_rows(db, up_sql[i].head, up_sql[i].row, 1,
		    UP_TAIL, &ru->up[i], err) != EXR_OK ||
		    db_prepare_rows(db, up_sql[i].head, up_sql[i].row,
		    RU_BATCH, UP_TAIL, &ru->upb[i], err) != EXR_OK)
			goto fail;
	if (db_prepare(db, "SELECT host_id, uid, gid, projid, zone, command "
	    "FROM procs WHERE proc_id = ?", &ru->key_q, err) != EXR_OK)
		goto fail;
	*rp = ru;
	return EXR_OK;
fail:
	rollup_finalize(ru);
	return EXR_DB;
}

void
rollup_finalize(struct rollup *ru)
{
	int i;

	if (ru == NULL)
		return;
	for (i = 0; i < Q_N; i++)
		sqlite3_finalize(ru->q[i]);
	for (i = 0; i < RL_N; i++) {
		sqlite3_finalize(ru->up[i]);
		sqlite3_finalize(ru->upb[i]);
	}
	sqlite3_finalize(ru->key_q);
	rollup_forget(ru);
	free(ru->keys);
	free(ru->keymap.slot);
	free(ru->procs);
	free(ru->procmap.slot);
	free(ru->accs);
	free(ru->stamps);
	free(ru->order);
	free(ru->accmap.slot);
	free(ru);
}

static int
step(struct rollup *ru, sqlite3_stmt *st, struct ex_err *err)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE ? EXR_OK : db_fail(ru->db, err, "rollups");
}

/* FNV-1a over n bytes, on from h. */
static uint64_t
fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n-- > 0)
		h = (h ^ *c++) * 0x100000001b3ULL;
	return h;
}

static uint64_t
fnv64(uint64_t h, int64_t v)
{
	return fnv(h, &v, sizeof(v));
}

#define FNV0	0xcbf29ce484222325ULL

/*
 * The slot of m where hash h's entry is or would go: eq(ctx, i) says
 * whether entry i is the one looked for.  m has a free slot.
 */
static int32_t *
map_find(struct ru_map *m, uint64_t h, int (*eq)(const struct rollup *,
    int32_t, const void *), const struct rollup *ru, const void *what)
{
	size_t i = (size_t)h & (m->cap - 1);

	while (m->slot[i] != -1 && !eq(ru, m->slot[i], what))
		i = (i + 1) & (m->cap - 1);
	return &m->slot[i];
}

/* Place entries 0..n-1 in m anew, by hash(ctx, i): after it grew, or
 * after a compaction. */
static void
map_refill(struct ru_map *m, size_t n, uint64_t (*hash)(const struct rollup *,
    int32_t), const struct rollup *ru)
{
	size_t i, j;

	memset(m->slot, 0xff, m->cap * sizeof(int32_t));
	for (i = 0; i < n; i++) {
		j = (size_t)hash(ru, (int32_t)i) & (m->cap - 1);
		while (m->slot[j] != -1)
			j = (j + 1) & (m->cap - 1);
		m->slot[j] = (int32_t)i;
	}
}

/*
 * Room in m for one more of n entries (at most half full), every entry
 * placed again by hash(ctx, i).  0, or -1 out of memory (m unchanged).
 */
static int
map_room(struct ru_map *m, size_t n, uint64_t (*hash)(const struct rollup *,
    int32_t), const struct rollup *ru)
{
	size_t cap;
	int32_t *slot;

	if (m->cap != 0 && n + 1 <= m->cap / 2)
		return 0;
	cap = m->cap == 0 ? 1024 : m->cap * 2;
	if ((slot = ex_reallocarray(NULL, cap, sizeof(int32_t))) == NULL)
		return -1;
	free(m->slot);
	m->slot = slot;
	m->cap = cap;
	map_refill(m, n, hash, ru);
	return 0;
}

/* Room for one more element of size sz in *a (of *cap). */
static int
grow(void *ap, size_t n, size_t *cap, size_t sz)
{
	void **a = ap, *na;

	if (n < *cap)
		return 0;
	if ((na = ex_reallocarray(*a, *cap == 0 ? 256 : *cap * 2, sz)) ==
	    NULL)
		return -1;
	*a = na;
	*cap = *cap == 0 ? 256 : *cap * 2;
	return 0;
}

static uint64_t
key_hash(const struct ru_key *k)
{
	uint64_t h = FNV0;

	h = fnv64(h, k->host_id);
	h = fnv64(h, k->uid);
	h = fnv64(h, k->gid);
	h = fnv64(h, k->projid);
	h = fnv64(h, k->nulls);
	h = fnv(h, k->zone, strlen(k->zone) + 1);
	return fnv(h, k->command, strlen(k->command) + 1);
}

static uint64_t
key_rehash(const struct rollup *ru, int32_t i)
{
	return ru->keys[i].hash;
}

static int
key_eq(const struct rollup *ru, int32_t i, const void *what)
{
	const struct ru_key *a = &ru->keys[i], *b = what;

	return a->hash == b->hash && a->host_id == b->host_id &&
	    a->uid == b->uid && a->gid == b->gid && a->projid == b->projid &&
	    a->nulls == b->nulls && strcmp(a->zone, b->zone) == 0 &&
	    strcmp(a->command, b->command) == 0;
}

/* The index of key k in keys[], added (strings copied) if new; -1. */
static int32_t
key_intern(struct rollup *ru, struct ru_key *k)
{
	struct ru_key *nk;
	int32_t *slot;

	k->hash = key_hash(k);
	if (map_room(&ru->keymap, ru->nkeys, key_rehash, ru) != 0)
		return -1;
	slot = map_find(&ru->keymap, k->hash, key_eq, ru, k);
	if (*slot != -1)
		return *slot;
	if (grow(&ru->keys, ru->nkeys, &ru->capkeys, sizeof(*ru->keys)) != 0)
		return -1;
	nk = &ru->keys[ru->nkeys];
	*nk = *k;
	nk->zone = strdup(k->zone);
	nk->command = strdup(k->command);
	if (nk->zone == NULL || nk->command == NULL) {
		free(nk->zone);
		free(nk->command);
		return -1;
	}
	*slot = (int32_t)ru->nkeys;
	return (int32_t)ru->nkeys++;
}

static uint64_t
proc_rehash(const struct rollup *ru, int32_t i)
{
	return fnv64(FNV0, ru->procs[i].proc_id);
}

static int
proc_eq(const struct rollup *ru, int32_t i, const void *what)
{
	return ru->procs[i].proc_id == *(const int64_t *)what;
}

/* Process proc_id has key k (interned); 0, or -1 out of memory. */
static int
proc_set(struct rollup *ru, int64_t proc_id, struct ru_key *k)
{
	int32_t ki, *slot;

	if ((ki = key_intern(ru, k)) < 0 ||
	    map_room(&ru->procmap, ru->nprocs, proc_rehash, ru) != 0)
		return -1;
	slot = map_find(&ru->procmap, fnv64(FNV0, proc_id), proc_eq, ru,
	    &proc_id);
	if (*slot != -1) {
		ru->procs[*slot].key = ki;
		return 0;
	}
	if (grow(&ru->procs, ru->nprocs, &ru->capprocs,
	    sizeof(*ru->procs)) != 0)
		return -1;
	ru->procs[ru->nprocs].proc_id = proc_id;
	ru->procs[ru->nprocs].key = ki;
	*slot = (int32_t)ru->nprocs++;
	return 0;
}

int
rollup_know(struct rollup *ru, int64_t proc_id, int64_t host_id,
    const struct ex_proc *p, struct ex_err *err)
{
	struct ru_key k;

	memset(&k, 0, sizeof(k));
	k.host_id = host_id;
	k.nulls = (REC_HAS(p, PROC_UID) ? 0 : 1) |
	    (REC_HAS(p, PROC_PROJID) ? 0 : 2) |
	    (REC_HAS(p, PROC_ZONE) ? 0 : 4) |
	    (REC_HAS(p, PROC_COMMAND) ? 0 : 8) |
	    (REC_HAS(p, PROC_GID) ? 0 : 16);
	k.uid = REC_HAS(p, PROC_UID) ? (int64_t)p->v[PROC_UID] : 0;
	k.gid = REC_HAS(p, PROC_GID) ? (int64_t)p->v[PROC_GID] : 0;
	k.projid = REC_HAS(p, PROC_PROJID) ? (int64_t)p->v[PROC_PROJID] : 0;
	k.zone = REC_HAS(p, PROC_ZONE) ? (char *)p->zone : (char *)"";
	k.command = REC_HAS(p, PROC_COMMAND) ? (char *)p->command :
	    (char *)"";
	return proc_set(ru, proc_id, &k) == 0 ? EXR_OK :
	    ex_fail(err, EXR_NOMEM, 0, "no memory");
}

/* A column of the key query: its integer, or 0 with its nulls bit. */
static int64_t
key_int(sqlite3_stmt *st, int col, int bit, int *nulls)
{
	if (sqlite3_column_type(st, col) == SQLITE_NULL) {
		*nulls |= bit;
		return 0;
	}
	return sqlite3_column_int64(st, col);
}

static const char *
key_text(sqlite3_stmt *st, int col, int bit, int *nulls)
{
	const unsigned char *t = sqlite3_column_text(st, col);

	if (sqlite3_column_type(st, col) == SQLITE_NULL || t == NULL) {
		*nulls |= bit;
		return "";
	}
	return (const char *)t;
}

/* The key of process proc_id: known, else from its procs row. */
static int
key_find(struct rollup *ru, int64_t proc_id, int32_t *ki,
    struct ex_err *err)
{
	sqlite3_stmt *st = ru->key_q;
	struct ru_key k;
	int32_t *slot;
	int rc;

	if (ru->procmap.cap != 0) {
		slot = map_find(&ru->procmap, fnv64(FNV0, proc_id), proc_eq,
		    ru, &proc_id);
		if (*slot != -1) {
			*ki = ru->procs[*slot].key;
			return EXR_OK;
		}
	}
	memset(&k, 0, sizeof(k));
	sqlite3_bind_int64(st, 1, proc_id);
	if ((rc = sqlite3_step(st)) != SQLITE_ROW) {
		sqlite3_reset(st);
		return rc == SQLITE_DONE ? ex_fail(err, EXR_DB, 0, "rollups: "
		    "no process %lld", (long long)proc_id) :
		    db_fail(ru->db, err, "rollups");
	}
	k.host_id = sqlite3_column_int64(st, 0);
	k.uid = key_int(st, 1, 1, &k.nulls);
	k.gid = key_int(st, 2, 16, &k.nulls);
	k.projid = key_int(st, 3, 2, &k.nulls);
	k.zone = (char *)key_text(st, 4, 4, &k.nulls);
	k.command = (char *)key_text(st, 5, 8, &k.nulls);
	rc = proc_set(ru, proc_id, &k);
	sqlite3_reset(st);		/* the texts were copied */
	if (rc != 0)
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	return key_find(ru, proc_id, ki, err);
}

/*
 * *ki made the key of the exit interval of a process that forked and
 * never exec'd: its command with PROC_FORKED_MARK after it (RU_KEY), as
 * sa(8) counts such a process.  Only that interval's: the process's
 * earlier ones were added, as they came, before its exit told.
 */
static int
key_forked(struct rollup *ru, int32_t *ki, struct ex_err *err)
{
	struct ru_key k = ru->keys[*ki];
	size_t len = strlen(k.command);
	char *c;
	int32_t fk;

	if (k.nulls & 8)		/* no command: none to mark */
		return EXR_OK;
	if ((c = malloc(len + sizeof(PROC_FORKED_MARK))) == NULL)
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	memcpy(c, k.command, len);
	memcpy(c + len, PROC_FORKED_MARK, sizeof(PROC_FORKED_MARK));
	k.command = c;
	fk = key_intern(ru, &k);
	free(c);
	if (fk < 0)
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	*ki = fk;
	return EXR_OK;
}

struct acc_id {
	int		 level;
	int32_t		 key;
	int64_t		 host_id, t;
};

/* A multiply-xorshift mix (splitmix64's): hot, so not byte-wise. */
static uint64_t
mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static uint64_t
acc_hash(int level, int32_t key, int64_t host_id, int64_t t)
{
	return mix((uint64_t)t * 31 + (uint64_t)(level == RL_HOST ? host_id :
	    key) * 4 + (uint64_t)level);
}

static uint64_t
acc_rehash(const struct rollup *ru, int32_t i)
{
	const struct ru_acc *a = &ru->accs[i];

	return acc_hash(a->level, a->key, a->host_id, a->t);
}

static int
acc_eq(const struct rollup *ru, int32_t i, const void *what)
{
	const struct ru_acc *a = &ru->accs[i];
	const struct acc_id *b = what;

	return a->level == b->level && a->t == b->t && (b->level == RL_HOST ?
	    a->host_id == b->host_id : a->key == b->key);
}

/* The accumulator of a rollup row, made if new; NULL out of memory. */
static struct ru_acc *
acc_get(struct rollup *ru, int level, int32_t key, int64_t host_id,
    int64_t t)
{
	struct acc_id id = { level, level == RL_HOST ? -1 : key, host_id, t };
	struct ru_acc *a;
	int32_t *slot;

	if (map_room(&ru->accmap, ru->naccs, acc_rehash, ru) != 0)
		return NULL;
	slot = map_find(&ru->accmap, acc_hash(level, id.key, host_id, t),
	    acc_eq, ru, &id);
	if (*slot != -1) {
		ru->accs[*slot].touched = ru->clock++;
		return &ru->accs[*slot];
	}
	if (grow(&ru->accs, ru->naccs, &ru->capaccs, sizeof(*ru->accs)) != 0)
		return NULL;
	a = &ru->accs[ru->naccs];
	memset(a, 0, sizeof(*a));
	a->level = level;
	a->key = id.key;
	a->host_id = host_id;
	a->t = t;
	a->touched = ru->clock++;
	*slot = (int32_t)ru->naccs++;
	return a;
}

/* A level's largest (present: the part has it). */
static void
acc_level(int64_t *m, int *has, int present, int64_t v)
{
	if (present && (!*has || v > *m)) {
		*m = v;
		*has = 1;
	}
}

static int	rollup_spill(struct rollup *, struct ex_err *);

int
rollup_add(struct rollup *ru, int64_t proc_id,
    const struct proc_interval *iv, struct ex_err *err)
{
	int64_t t0 = (int64_t)iv->t0_ns, t1 = (int64_t)iv->t1_ns, h0, h1, h;
	int64_t x[RV_N], q[RV_N], m[RV_N], before[RV_N], d = 1, u = 1;
	int has[RU_NV];
	int32_t ki;
	int k, l, rc;

	if ((rc = key_find(ru, proc_id, &ki, err)) != EXR_OK ||
	    (iv->forked && (rc = key_forked(ru, &ki, err)) != EXR_OK))
		return rc;
	rollup_hours(t0, t1, &h0, &h1);
	/*
	 * rollup_split over every hour at once: scaled(x, c, d) is
	 * x / d * c + x % d * c / d, and an hour's weight before it is the
	 * one through the hour before, so each value costs one division an
	 * hour (a long-lived process's first interval covers weeks).
	 */
	has[0] = 1;
	for (k = 0; k < RV_N; k++) {
		int f = rv_field[k];

		has[k + 1] = (iv->present >> f) & 1;
		x[k] = has[k + 1] ? (int64_t)iv->d[f] : 0;
		before[k] = 0;
	}
	if (h0 != h1) {
		u = weight_unit(t0, t1);
		d = t1 / u - t0 / u;
		for (k = 0; k < RV_N; k++) {
			q[k] = x[k] / d;
			m[k] = x[k] % d;
		}
	}
	for (h = h0; h <= h1; h++) {
		int64_t hour_s = h * 3600, g[RU_NV], r[RU_NV], v;
		/* The weight through hour h (weights()'s ce). */
		int64_t ce = h == h1 ? d :
		    (h + 1) * ROLLUP_HOUR_NS / u - t0 / u;

		if (!split_ok(t0, t1))		/* one part: as it is */
			v = t0 >= 0 && t1 >= 0 && t1 <= ROLLUP_MAX_T_NS ?
			    t1 - t0 : 0;
		else {
			/* In range: no product here passes 2^63. */
			int64_t a = h * ROLLUP_HOUR_NS, b = a + ROLLUP_HOUR_NS;

			v = (t1 < b ? t1 : b) - (t0 > a ? t0 : a);
		}
		g[0] = v / NS_I64;
		r[0] = v % NS_I64;
		for (k = 0; k < RV_N; k++) {
			/* One hour: all of it, no division. */
			int64_t through = h0 == h1 ? x[k] :
			    q[k] * ce + m[k] * ce / d;

			v = through - before[k];
			before[k] = through;
			g[k + 1] = v / NS_I64;
			r[k + 1] = v % NS_I64;
		}
		for (l = 0; l < RL_N; l++) {
			struct ru_acc *ac = acc_get(ru, l, ki,
			    ru->keys[ki].host_id, l == RL_DAY ?
			    hour_s / 86400 * 86400 : hour_s);

			if (ac == NULL)
				return ex_fail(err, EXR_NOMEM, 0, "no memory");
			ac->calls += h == h1 ? iv->final : 0;
			for (k = 0; k < RU_NV; k++)
				if (has[k]) {
					ac->g[k] += g[k];
					ac->r[k] += r[k];
					ac->have |= 1u << k;
				}
			/* Levels, not counters: in the hour they were read. */
			if (h != h1)
				continue;
			acc_level(&ac->rss, &ac->has_rss,
			    (iv->present >> PROC_RSS_MAX_KB) & 1,
			    (int64_t)iv->d[PROC_RSS_MAX_KB]);
			acc_level(&ac->threads, &ac->has_threads,
			    (iv->present >> PROC_THREADS) & 1,
			    (int64_t)iv->d[PROC_THREADS]);
		}
	}
	return ru->naccs >= RU_MAX_ACCS ? rollup_spill(ru, err) : EXR_OK;
}

/* Bind accumulator a into st from parameter i on; the next one. */
static int
acc_bind(struct rollup *ru, sqlite3_stmt *st, int i, const struct ru_acc *a)
{
	int k;

	if (a->level == RL_HOST) {
		sqlite3_bind_int64(st, i++, a->host_id);
		sqlite3_bind_int64(st, i++, a->t);
	} else {
		const struct ru_key *key = &ru->keys[a->key];

		sqlite3_bind_int64(st, i++, key->host_id);
		sqlite3_bind_int64(st, i++, a->t);
		sqlite3_bind_int64(st, i++, key->nulls);
		sqlite3_bind_int64(st, i++, key->uid);
		sqlite3_bind_int64(st, i++, key->gid);
		sqlite3_bind_int64(st, i++, key->projid);
		sqlite3_bind_text(st, i++, key->zone, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, i++, key->command, -1, SQLITE_STATIC);
	}
	sqlite3_bind_int64(st, i++, a->calls);
	for (k = 0; k < RU_NV; k++) {
		if ((a->have >> k) & 1) {
			sqlite3_bind_int64(st, i++, a->g[k]);
			sqlite3_bind_int64(st, i++, a->r[k]);
		} else {
			sqlite3_bind_null(st, i++);
			sqlite3_bind_null(st, i++);
		}
	}
	if (a->has_rss)
		sqlite3_bind_int64(st, i++, a->rss);
	else
		sqlite3_bind_null(st, i++);
	if (a->has_threads)
		sqlite3_bind_int64(st, i++, a->threads);
	else
		sqlite3_bind_null(st, i++);
	return i;
}

static int
cmp_stamp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int
cmp_order(const void *pa, const void *pb)
{
	const struct acc_order *a = pa, *b = pb;

	if (a->level != b->level)
		return a->level < b->level ? -1 : 1;
	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	if (a->host_id != b->host_id)
		return a->host_id < b->host_id ? -1 : 1;
	return a->key < b->key ? -1 : a->key > b->key;
}

/* Room in ru->order for every accumulator; -1 out of memory. */
static int
order_room(struct rollup *ru)
{
	struct acc_order *o;

	if ((o = ex_reallocarray(ru->order, ru->naccs > 0 ? ru->naccs : 1,
	    sizeof(*o))) == NULL)
		return -1;
	ru->order = o;
	return 0;
}

static void
order_add(struct rollup *ru, size_t n, size_t i)
{
	const struct ru_acc *a = &ru->accs[i];
	struct acc_order *o = &ru->order[n];

	o->t = a->t;
	o->host_id = a->host_id;
	o->level = a->level;
	o->key = a->key;
	o->i = i;
}

/*
 * Write the n accumulators ru->order names, in their tables' order:
 * RU_BATCH of one level to a statement while there are, then one.
 */
static int
write_in_order(struct rollup *ru, size_t n, struct ex_err *err)
{
	const struct acc_order *o = ru->order;
	sqlite3_stmt *st;
	size_t i, j, k;
	int rc, p;

	qsort(ru->order, n, sizeof(*ru->order), cmp_order);
	for (i = 0; i < n; i += k) {
		for (k = 1; k < RU_BATCH && i + k < n &&
		    o[i + k].level == o[i].level; k++)
			;
		if (k < RU_BATCH)
			k = 1;
		st = k == RU_BATCH ? ru->upb[o[i].level] : ru->up[o[i].level];
		for (j = 0, p = 1; j < k; j++)
			p = acc_bind(ru, st, p, &ru->accs[o[i + j].i]);
		if ((rc = step(ru, st, err)) != EXR_OK)
			return rc;
	}
	return EXR_OK;
}

/*
 * Write the half of the accumulators touched least recently and keep
 * the rest; what is known of keys and processes stays, as the chunk
 * goes on.  A failure leaves the chunk to be rolled back (and
 * rollup_forget called), as any other.
 */
static int
rollup_spill(struct rollup *ru, struct ex_err *err)
{
	uint64_t *st, cut;
	size_t i, n, w;
	int rc;

	/* One interval can add many (an hour each), so naccs, not MAX. */
	if ((st = ex_reallocarray(ru->stamps, ru->naccs, sizeof(*st))) ==
	    NULL)
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	ru->stamps = st;
	if (order_room(ru) != 0)
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	for (i = 0; i < ru->naccs; i++)
		st[i] = ru->accs[i].touched;
	qsort(st, ru->naccs, sizeof(*st), cmp_stamp);
	cut = st[ru->naccs / 2];		/* stamps are unique */
	for (i = w = 0; i < ru->naccs; i++)
		if (ru->accs[i].touched < cut)
			order_add(ru, w++, i);
	if ((rc = write_in_order(ru, w, err)) != EXR_OK)
		return rc;
	for (i = n = 0; i < ru->naccs; i++)
		if (ru->accs[i].touched >= cut)
			ru->accs[n++] = ru->accs[i];
	ru->naccs = n;
	map_refill(&ru->accmap, n, acc_rehash, ru);
	return EXR_OK;
}

void
rollup_forget(struct rollup *ru)
{
	size_t i;

	for (i = 0; i < ru->nkeys; i++) {
		free(ru->keys[i].zone);
		free(ru->keys[i].command);
	}
	ru->nkeys = ru->nprocs = ru->naccs = 0;
	if (ru->keymap.slot != NULL)
		memset(ru->keymap.slot, 0xff, ru->keymap.cap * sizeof(int32_t));
	if (ru->procmap.slot != NULL)
		memset(ru->procmap.slot, 0xff,
		    ru->procmap.cap * sizeof(int32_t));
	if (ru->accmap.slot != NULL)
		memset(ru->accmap.slot, 0xff, ru->accmap.cap * sizeof(int32_t));
	ru->npending = 0;
}

int
rollup_flush(struct rollup *ru, struct ex_err *err)
{
	size_t i;
	int rc;

	if (order_room(ru) != 0)
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	for (i = 0; i < ru->naccs; i++)
		order_add(ru, i, i);
	if ((rc = write_in_order(ru, ru->naccs, err)) != EXR_OK)
		return rc;
	/* Merge's parts, from SQL. */
	if (ru->npending > 0)
		for (i = Q_HOUR; i <= Q_CLEAR; i++)
			if ((rc = step(ru, ru->q[i], err)) != EXR_OK)
				return rc;
	/* What was known of the processes is kept no longer than a chunk:
	 * a rollback (rollup_forget) must find nothing stale. */
	rollup_forget(ru);
	return EXR_OK;
}

int
rollup_add_merged(struct rollup *ru, struct ex_err *err)
{
	static const char sql[] = "INSERT INTO " PENDING " (proc_id, "
	    "final, hour_s, " RU_VALUE_COLS ") " RU_PARTS("proc_id, final, ",
	    "temp.m_new_pi");
	sqlite3_stmt *st;
	int rc;

	if (db_prepare(ru->db, sql, &st, err) != EXR_OK)
		return EXR_DB;
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE)
		ru->npending += (uint64_t)sqlite3_changes(ru->db);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? EXR_OK : db_fail(ru->db, err, "rollups");
}

int
rollup_rebuild(sqlite3 *db, int64_t from_s, struct ex_err *err)
{
	/* ?1: the first hour rebuilt, ?2: the first day. */
	static const char *const sql[] = {
	    "DELETE FROM rollup_hour WHERE hour_s >= ?1",
	    RU_INSERT_HOUR("(SELECT * FROM (" RU_PARTS("proc_id, final, ",
	    "v_proc_usage WHERE t1_ns >= ?1 * " NS_SQL) ") "
	    "WHERE hour_s >= ?1)"),
	    "DELETE FROM rollup_day WHERE day_s >= ?2",
	    RU_DAY_FROM_HOURS("?2"),
	    "DELETE FROM rollup_host WHERE hour_s >= ?1",
	    RU_HOST_FROM_HOURS("?1"),
	};
	sqlite3_stmt *st;
	int64_t day = from_s - (from_s % 86400 + 86400) % 86400;
	size_t i;
	int rc;

	/* The hour rows rebuilt are those of whole hours from from_s. */
	from_s -= (from_s % 3600 + 3600) % 3600;
	for (i = 0; i < sizeof(sql) / sizeof(sql[0]); i++) {
		if (db_prepare(db, sql[i], &st, err) != EXR_OK)
			return EXR_DB;
		if (sqlite3_bind_parameter_count(st) >= 1)
			sqlite3_bind_int64(st, 1, from_s);
		if (sqlite3_bind_parameter_count(st) >= 2)
			sqlite3_bind_int64(st, 2, day);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return db_fail(db, err, "rollups");
	}
	return EXR_OK;
}
