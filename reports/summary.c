/*
 * Totals from log files (see summary.h).  The rows live in one array; a
 * small open-addressing hash on the key text finds a record's row.  Keys
 * are few (commands, users), records many: the hot path is one hash and
 * a few adds.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../parsers/cgpath.h"
#include "../parsers/compat.h"
#include "outbuf.h"
#include "summary.h"


void
summary_init(struct summary *s, enum report_by by, int64_t from_ns,
    int64_t to_ns)
{
	memset(s, 0, sizeof(*s));
	s->by = by;
	s->from_ns = from_ns;
	s->to_ns = to_ns;
}

void
summary_release(struct summary *s)
{
	free(s->rows);
	free(s->slots);
	memset(s, 0, sizeof(*s));
}

static uint64_t
hash(const char *k)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *k != '\0'; k++) {
		h ^= (unsigned char)*k;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static int
grow_slots(struct summary *s)
{
	size_t n = s->nslots == 0 ? 256 : s->nslots * 2, i;
	int32_t *t = malloc(n * sizeof(*t));

	if (t == NULL)
		return EXR_NOMEM;
	for (i = 0; i < n; i++)
		t[i] = -1;
	for (i = 0; i < s->n; i++) {
		size_t k = hash(s->rows[i].key[0]) & (n - 1);

		while (t[k] >= 0)
			k = (k + 1) & (n - 1);
		t[k] = (int32_t)i;
	}
	free(s->slots);
	s->slots = t;
	s->nslots = n;
	return EXR_OK;
}

/* Add field f of p into measure m of r, if p has it. */
static void
add(struct report_row *r, enum report_measure m, const struct ex_proc *p,
    int f)
{
	if (REC_HAS(p, f)) {
		r->v[m] += p->v[f];
		r->have |= 1u << m;
	}
}

/*
 * src into dst[n], cut to fit, as snprintf's "%s" writes it.  A key a
 * record: snprintf was a third of `report`'s instructions on a pacct
 * file (it formats through a string FILE).
 */
static void
key_copy(char *dst, size_t n, const char *src)
{
	size_t len = strnlen(src, n - 1);

	memcpy(dst, src, len);
	dst[len] = '\0';
}

_Static_assert(sizeof(((struct report_row *)0)->key[0]) >= 21,
    "a key holds any 64-bit number");

/* v in decimal into dst (21 bytes or more), as "%" PRIu64 writes it. */
static void
key_u64(char *dst, uint64_t v)
{
	size_t n = ob_ndigits(v);

	ob_digits(dst + n, v);
	dst[n] = '\0';
}

/*
 * A process that forked and never exec'd (PROC_AFORK) ran its parent's
 * program under its parent's name, as a shell's subshells and a
 * daemon's forked workers do: sa(8) counts it apart, as the name with a
 * '*' after it, and so does this key (as the database's: rollup.h).
 */
static void
key_forked(char *key, size_t n, const struct ex_proc *p)
{
	size_t len;

	if (!REC_HAS(p, PROC_ACCTFLAGS) ||
	    !(p->v[PROC_ACCTFLAGS] & PROC_AFORK))
		return;
	len = strlen(key);
	if (len + sizeof(PROC_FORKED_MARK) <= n)
		memcpy(key + len, PROC_FORKED_MARK, sizeof(PROC_FORKED_MARK));
}

/* The row for key, created if new; NULL when out of memory. */
static struct report_row *
row_for(struct summary *s, const char *key, int64_t hour)
{
	size_t k;

	if (s->n + 1 > s->nslots / 2 && grow_slots(s) != EXR_OK)
		return NULL;
	for (k = hash(key) & (s->nslots - 1); s->slots[k] >= 0;
	    k = (k + 1) & (s->nslots - 1))
		if (strcmp(s->rows[s->slots[k]].key[0], key) == 0)
			return &s->rows[s->slots[k]];
	if (s->n == s->cap) {
		size_t ncap = s->cap == 0 ? 64 : s->cap * 2;
		struct report_row *r = ex_reallocarray(s->rows, ncap,
		    sizeof(*r));

		if (r == NULL)
			return NULL;
		s->rows = r;
		s->cap = ncap;
	}
	memset(&s->rows[s->n], 0, sizeof(s->rows[0]));
	key_copy(s->rows[s->n].key[0], sizeof(s->rows[0].key[0]), key);
	s->rows[s->n].hour_epoch = hour;
	s->slots[k] = (int32_t)s->n;
	return &s->rows[s->n++];
}

int
summary_add(struct summary *s, const struct ex_proc *p, const char *host)
{
	char key[sizeof(((struct report_row *)0)->key[0])];
	struct report_row *r;
	int64_t hour = 0;
	int idf;

	if (p->group != EXD_GROUP_PROC || !REC_HAS(p, PROC_FINISH_NS) ||
	    (int64_t)p->v[PROC_FINISH_NS] < s->from_ns ||
	    (int64_t)p->v[PROC_FINISH_NS] >= s->to_ns)
		return EXR_OK;
	idf = s->by == BY_USER ? PROC_UID : s->by == BY_GROUP ? PROC_GID :
	    PROC_PROJID;
	switch (s->by) {
	case BY_USER:
	case BY_GROUP:
	case BY_PROJECT:
		if (!REC_HAS(p, idf))
			key_copy(key, sizeof(key), "-");
		else
			key_u64(key, p->v[idf]);
		break;
	/* Keys as the records hold them: report_print escapes them. */
	case BY_COMMAND:
		key_copy(key, sizeof(key), REC_HAS(p, PROC_COMMAND) ?
		    p->command : "-");
		if (REC_HAS(p, PROC_COMMAND))
			key_forked(key, sizeof(key), p);
		break;
	case BY_ZONE:
		key_copy(key, sizeof(key), REC_HAS(p, PROC_ZONE) ?
		    p->zone : "-");
		break;
	/* The cgroup a record names, and the keys of its path. */
	case BY_CGROUP:
	case BY_UNIT:
	case BY_CONTAINER: {
		struct cgpath_keys ck;

		if (!REC_HAS(p, PROC_CGROUP) || p->cgroup[0] == '\0') {
			key_copy(key, sizeof(key), "-");
			break;
		}
		cgpath_keys(p->cgroup, &ck);
		key_copy(key, sizeof(key), s->by == BY_CGROUP ? p->cgroup :
		    s->by == BY_UNIT ? ck.unit : ck.container);
		if (key[0] == '\0')
			key_copy(key, sizeof(key), "-");
		break;
	}
	case BY_HOST:
	case BY_NKEYS:
		key_copy(key, sizeof(key), host);
		break;
	case BY_HOUR: {
		struct tm tm;
		time_t t = (time_t)(p->v[PROC_FINISH_NS] / NS);

		localtime_r(&t, &tm);
		tm.tm_min = tm.tm_sec = 0;
		tm.tm_isdst = -1;
		hour = (int64_t)mktime(&tm);
		localtime_r(&(time_t){ (time_t)hour }, &tm);
		strftime(key, sizeof(key), "%Y-%m-%d %H:00", &tm);
		break;
	}
	}
	if ((r = row_for(s, key, hour)) == NULL)
		return EXR_NOMEM;
	if (s->by == BY_USER || s->by == BY_GROUP || s->by == BY_PROJECT) {
		if (!REC_HAS(p, idf))
			r->keynull |= 1;
		else
			r->id[0] = (int64_t)p->v[idf];
	}
	/* 128-bit sums of 64-bit values: no overflow (report.h). */
	r->calls++;
	r->have |= 1u << RM_REAL_NS;
	add(r, RM_USER_NS, p, PROC_CPU_USER_NS);
	add(r, RM_SYS_NS, p, PROC_CPU_SYS_NS);
	if (REC_HAS(p, PROC_START_NS) &&
	    p->v[PROC_FINISH_NS] >= p->v[PROC_START_NS])
		r->v[RM_REAL_NS] += p->v[PROC_FINISH_NS] -
		    p->v[PROC_START_NS];
	add(r, RM_CHARS, p, PROC_CHARS_RDWR);
	add(r, RM_READ, p, PROC_READ_BYTES);
	add(r, RM_WRITE, p, PROC_WRITE_BYTES);
	add(r, RM_BLKIN, p, PROC_BLOCKS_IN);
	add(r, RM_BLKOUT, p, PROC_BLOCKS_OUT);
	add(r, RM_MAJFLT, p, PROC_FAULTS_MAJOR);
	add(r, RM_SYSCALLS, p, PROC_SYSCALLS);
	if (REC_HAS(p, PROC_MEM_KB)) {
		add(r, RM_MEM_KB, p, PROC_MEM_KB);
		r->v[RM_MEM_N]++;
		r->have |= 1u << RM_MEM_N;
	}
	if (REC_HAS(p, PROC_RSS_MAX_KB) && (!(r->have & 1u << RM_RSS_MAX) ||
	    (__int128)p->v[PROC_RSS_MAX_KB] > r->v[RM_RSS_MAX])) {
		r->v[RM_RSS_MAX] = p->v[PROC_RSS_MAX_KB];
		r->have |= 1u << RM_RSS_MAX;
	}
	if (REC_HAS(p, PROC_THREADS) && (!(r->have & 1u << RM_THREADS) ||
	    (__int128)p->v[PROC_THREADS] > r->v[RM_THREADS])) {
		r->v[RM_THREADS] = p->v[PROC_THREADS];
		r->have |= 1u << RM_THREADS;
	}
	return EXR_OK;
}

static int
by_cpu(const void *a, const void *b)
{
	const struct report_row *x = a, *y = b;
	__int128 cx = x->v[RM_USER_NS] + x->v[RM_SYS_NS];
	__int128 cy = y->v[RM_USER_NS] + y->v[RM_SYS_NS];

	if (cx != cy)
		return cx > cy ? -1 : 1;
	return strcmp(x->key[0], y->key[0]);
}

static int
by_hour(const void *a, const void *b)
{
	const struct report_row *x = a, *y = b;

	return (x->hour_epoch > y->hour_epoch) - (x->hour_epoch < y->hour_epoch);
}

void
summary_sort(struct summary *s)
{
	if (s->n > 0)
		qsort(s->rows, s->n, sizeof(s->rows[0]),
		    s->by == BY_HOUR ? by_hour : by_cpu);
	free(s->slots);		/* the hash is stale once rows move */
	s->slots = NULL;
	s->nslots = 0;
}
