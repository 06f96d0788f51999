/*
 * The usage report's columns (report_int.h): one list, one name per
 * column in every format.  The table puts CPU beside its parts for the
 * eye; CSV and JSON keep the order spreadsheets already read and add
 * the rest after it.  A value never recorded is absent, never 0.
 */
#include <inttypes.h>
#include <string.h>

#include "../parsers/records.h"
#include "csv.h"
#include "fmt.h"
#include "report_int.h"

enum {
	W_BUCKET, W_BUCKET_UTC, W_BUCKET_EPOCH,	/* --every */
	W_KEY, W_KEY_ID, W_KEY_UTC, W_KEY_EPOCH,	/* arg: key index */
	W_TZ, W_APPORTIONED, W_CALLS, W_SECS, W_COUNT, W_CPU, W_CPU_PCT, W_UTIL_PCT,
	W_OBSERVED, W_COVERAGE,
	W_CPU_CALL, W_REAL_CALL, W_CHARS_CALL, W_AVG_MEM
};

static int
add(struct report_col *c, int n, const char *name, enum col_kind kind,
    unsigned formats, int what, int arg)
{
	if (n >= REPORT_MAXCOLS)
		return n;
	snprintf(c[n].name, sizeof(c[n].name), "%s", name);
	c[n].kind = kind;
	c[n].formats = formats;
	c[n].what = what;
	c[n].arg = arg;
	c[n].key = what == W_KEY || what == W_KEY_ID || what == W_KEY_UTC ||
	    what == W_KEY_EPOCH;
	return n + 1;
}

int
report_rows_timed(const struct report_opts *o)
{
	int k;

	if (o->every != EVERY_NONE || o->open == 0)
		return 1;
	for (k = 0; k < report_nkeys(o); k++)
		if (report_key(o, k) == BY_HOUR)
			return 1;
	return 0;
}

int
report_cols(const struct report_opts *o, struct report_col *c)
{
	char name[40];
	int k, n = 0, nk = report_nkeys(o), timed = report_rows_timed(o);
	const unsigned T = COLF_TABLE, D = COLF_CSV | COLF_JSON;

	if (o->every != EVERY_NONE) {
		const char *e = report_every_names[o->every];

		snprintf(name, sizeof(name), "%s_start", e);
		n = add(c, n, name, COL_TEXT, COLF_ALL, W_BUCKET, 0);
		snprintf(name, sizeof(name), "%s_start_utc", e);
		n = add(c, n, name, COL_TEXT, COLF_CSV, W_BUCKET_UTC, 0);
		snprintf(name, sizeof(name), "%s_start_epoch_s", e);
		n = add(c, n, name, COL_NUM, D, W_BUCKET_EPOCH, 0);
	}
	for (k = 0; k < nk; k++) {
		enum report_by by = report_key(o, k);

		switch (by) {
		case BY_USER:
		case BY_GROUP:
		case BY_PROJECT:
			/* The id, the name beside it (the table: either). */
			n = add(c, n, report_key_names[by], COL_NUM, D,
			    W_KEY_ID, k);
			n = add(c, n, report_by_names[by], COL_TEXT, COLF_ALL,
			    W_KEY, k);
			break;
		case BY_HOUR:
			n = add(c, n, "hour_start", COL_TEXT, COLF_ALL, W_KEY,
			    k);
			n = add(c, n, "hour_start_utc", COL_TEXT, COLF_CSV,
			    W_KEY_UTC, k);
			n = add(c, n, "hour_start_epoch_s", COL_NUM, D,
			    W_KEY_EPOCH, k);
			break;
		default:
			n = add(c, n, report_key_names[by], COL_TEXT, COLF_ALL,
			    W_KEY, k);
		}
	}
	n = add(c, n, "tz", COL_TEXT, COLF_CSV, W_TZ, 0);
	n = add(c, n, "calls", COL_NUM, COLF_ALL, W_CALLS, 0);
	n = add(c, n, "cpu_user_s", COL_NUM, COLF_ALL, W_SECS, RM_USER_NS);
	n = add(c, n, "cpu_sys_s", COL_NUM, COLF_ALL, W_SECS, RM_SYS_NS);
	n = add(c, n, "cpu_s", COL_NUM, T, W_CPU, 0);
	n = add(c, n, "real_s", COL_NUM, COLF_ALL, W_SECS, RM_REAL_NS);
	n = add(c, n, "cpu_share_pct", COL_NUM, T, W_CPU_PCT, 0);
	n = add(c, n, "util_pct", COL_NUM, T, W_UTIL_PCT, 0);
	if (timed) {
		n = add(c, n, "observed_s", COL_NUM, T, W_OBSERVED, 0);
		n = add(c, n, "coverage_pct", COL_NUM, T, W_COVERAGE, 0);
	}
	n = add(c, n, "chars_rdwr_bytes", COL_NUM, COLF_ALL, W_COUNT,
	    RM_CHARS);
	n = add(c, n, "read_bytes", COL_NUM, T, W_COUNT, RM_READ);
	n = add(c, n, "write_bytes", COL_NUM, T, W_COUNT, RM_WRITE);
	n = add(c, n, "blocks_in", COL_NUM, T, W_COUNT, RM_BLKIN);
	n = add(c, n, "blocks_out", COL_NUM, T, W_COUNT, RM_BLKOUT);
	n = add(c, n, "rss_max_kb", COL_NUM, COLF_ALL, W_COUNT, RM_RSS_MAX);
	/* From the logs only: a database keeps each exit's, no sum. */
	if (o->files)
		n = add(c, n, "avg_mem_kib", COL_NUM, T, W_AVG_MEM, 0);
	n = add(c, n, "threads_max", COL_NUM, T, W_COUNT, RM_THREADS);
	n = add(c, n, "faults_major", COL_NUM, COLF_ALL, W_COUNT, RM_MAJFLT);
	n = add(c, n, "syscalls", COL_NUM, COLF_ALL, W_COUNT, RM_SYSCALLS);
	/* CSV and JSON: the new columns after the ones they had. */
	n = add(c, n, "cpu_s", COL_NUM, D, W_CPU, 0);
	n = add(c, n, "cpu_share_pct", COL_NUM, D, W_CPU_PCT, 0);
	n = add(c, n, "util_pct", COL_NUM, D, W_UTIL_PCT, 0);
	n = add(c, n, "read_bytes", COL_NUM, D, W_COUNT, RM_READ);
	n = add(c, n, "write_bytes", COL_NUM, D, W_COUNT, RM_WRITE);
	n = add(c, n, "blocks_in", COL_NUM, D, W_COUNT, RM_BLKIN);
	n = add(c, n, "blocks_out", COL_NUM, D, W_COUNT, RM_BLKOUT);
	n = add(c, n, "threads_max", COL_NUM, D, W_COUNT, RM_THREADS);
	if (o->files)
		n = add(c, n, "avg_mem_kib", COL_NUM, D, W_AVG_MEM, 0);
	if (o->averages) {
		n = add(c, n, "cpu_s_per_call", COL_NUM, COLF_ALL, W_CPU_CALL,
		    0);
		n = add(c, n, "real_s_per_call", COL_NUM, COLF_ALL,
		    W_REAL_CALL, 0);
		n = add(c, n, "chars_rdwr_bytes_per_call", COL_NUM, COLF_ALL,
		    W_CHARS_CALL, 0);
	}
	if (timed) {
		n = add(c, n, "observed_s", COL_NUM, D, W_OBSERVED, 0);
		n = add(c, n, "coverage_pct", COL_NUM, D, W_COVERAGE, 0);
	}
	/* CSV has no header lines: it says split values are, per row. */
	n = add(c, n, "apportioned", COL_TEXT, COLF_CSV, W_APPORTIONED, 0);
	return n;
}

#define HAVE(r, m)	(((r)->have >> (m)) & 1)

/* The row's CPU, and whether either half was recorded. */
static int
cpu_of(const struct report_row *r, __int128 *cpu)
{
	*cpu = r->v[RM_USER_NS] + r->v[RM_SYS_NS];
	return HAVE(r, RM_USER_NS) || HAVE(r, RM_SYS_NS);
}

/*
 * The CPUs behind a row: its host's when host is a key, else every
 * host's, if each is known.  0: not known.
 */
/* Whether o keys its rows by host. */
static int
has_host_key(const struct report_opts *o)
{
	int k;

	for (k = 0; k < report_nkeys(o); k++)
		if (report_key(o, k) == BY_HOST)
			return 1;
	return 0;
}

/*
 * Row r's host, where o keys by host: NULL for the other row, a NULL
 * key, a host not in s, or no host key.
 */
static const struct report_host *
row_host(const struct report_opts *o, const struct report_set *s,
    const struct report_row *r)
{
	size_t i;
	int k;

	for (k = 0; k < report_nkeys(o); k++) {
		if (report_key(o, k) != BY_HOST)
			continue;
		if (r->other || (r->keynull >> k & 1))
			return NULL;
		for (i = 0; i < s->nhosts; i++)
			if (strcmp(s->hosts[i].host, r->key[k]) == 0)
				return &s->hosts[i];
		return NULL;
	}
	return NULL;
}

int64_t
report_ncpu(const struct report_opts *o, const struct report_set *s,
    const struct report_row *r)
{
	const struct report_host *one = row_host(o, s, r);
	int64_t sum = 0;
	size_t i;

	if (has_host_key(o))
		return one != NULL ? one->ncpu : 0;
	for (i = 0; i < s->nhosts; i++) {
		if (s->hosts[i].ncpu <= 0)
			return 0;
		sum += s->hosts[i].ncpu;
	}
	return sum;
}

/* The seconds a row covers: its bucket, its hour, or the window; 0. */
int64_t
report_span(const struct report_opts *o, const struct report_set *s,
    const struct report_row *r)
{
	long b;
	int k, nk = report_nkeys(o);

	if (o->every != EVERY_NONE)
		return (b = report_bucket_of(s, r->bucket)) < 0 ? 0 :
		    s->edge[b + 1] - s->edge[b];
	for (k = 0; k < nk; k++)
		if (report_key(o, k) == BY_HOUR)
			return r->other ? 0 : 3600;
	if (o->open == 0)
		return o->to_ns / NS_I64 - o->from_ns / NS_I64;
	return 0;
}

/* The row's span as [*a, *b) ns; 0 when it has none. */
static int
row_range(const struct report_opts *o, const struct report_set *s,
    const struct report_row *r, int64_t *a, int64_t *b)
{
	long i;
	int k, nk = report_nkeys(o);

	if (o->every != EVERY_NONE) {
		if ((i = report_bucket_of(s, r->bucket)) < 0)
			return 0;
		*a = report_s_ns(s->edge[i]);
		*b = report_s_ns(s->edge[i + 1]);
		return 1;
	}
	for (k = 0; k < nk; k++)
		if (report_key(o, k) == BY_HOUR) {
			if (r->other || (r->keynull >> k & 1))
				return 0;
			*a = r->hour_epoch * NS_I64;
			*b = *a + 3600 * NS_I64;
			return 1;
		}
	if (o->open != 0)
		return 0;
	*a = o->from_ns;
	*b = o->to_ns;
	return 1;
}

/* The ns of [a, b) h was observed: the whole if not watched. */
static int64_t
host_observed(const struct report_host *h, int64_t a, int64_t b, int *known)
{
	if (!h->watched) {
		*known = 0;
		return b - a;
	}
	return report_obs_ns(h, a, b);
}

int64_t
report_observed(const struct report_opts *o, const struct report_set *s,
    const struct report_row *r, __int128 *capacity_ns, int *known)
{
	int64_t a, b, ncpu = 0;
	size_t i;
	const struct report_host *one = row_host(o, s, r);

	*capacity_ns = 0;
	*known = 1;
	if (!row_range(o, s, r, &a, &b))
		return 0;
	if (has_host_key(o)) {
		if (one == NULL || one->ncpu <= 0)
			return 0;
		a = host_observed(one, a, b, known);
		*capacity_ns = (__int128)one->ncpu * a;
		return a;
	}
	/* Every host: their CPUs' observed time, over their CPUs. */
	for (i = 0; i < s->nhosts; i++) {
		if (s->hosts[i].ncpu <= 0) {
			*capacity_ns = 0;
			return 0;
		}
		ncpu += s->hosts[i].ncpu;
		*capacity_ns += (__int128)s->hosts[i].ncpu *
		    host_observed(&s->hosts[i], a, b, known);
	}
	return ncpu > 0 ? (int64_t)(*capacity_ns / ncpu) : 0;
}

/* The CPU of the row's bucket (or of the report), for cpu_share_pct. */
static __int128
total_of(const struct report_set *s, const struct report_row *r)
{
	long b;

	if (s->btotal == NULL)
		return s->cpu_total;
	return (b = report_bucket_of(s, r->bucket)) < 0 ? 0 : s->btotal[b];
}

/*
 * An hour as a table shows it: "2023-11-10T00:00", one word, so the
 * columns still split on blanks without an escape in the date.
 */
static const char *
table_hour(char *b, size_t n, const char *hour, enum report_format fmt)
{
	char *sp;

	if (fmt != FMT_TABLE)
		return hour;
	if (hour != b)
		snprintf(b, n, "%s", hour);
	if ((sp = strchr(b, ' ')) != NULL)
		*sp = 'T';
	return b;
}

const char *
report_value(const struct report_opts *o, const struct report_set *s,
    const struct report_col *c, const struct report_row *r,
    enum report_format fmt, char *b, size_t n)
{
	__int128 cpu, tot;
	int64_t ncpu, span;
	int k = c->arg, known;
	const char *name;

	switch (c->what) {
	case W_BUCKET:
		report_bucket_text(b, n, o->every, r->bucket);
		return table_hour(b, n, b, fmt);
	case W_BUCKET_UTC:
		return csv_utc(b, n, r->bucket);
	case W_BUCKET_EPOCH:
		snprintf(b, n, "%" PRId64, r->bucket);
		return b;
	case W_KEY:
		if (r->other)
			return "***other";
		if (r->keynull >> k & 1)
			return fmt == FMT_TABLE ? "-" : NULL;
		switch (report_key(o, k)) {
		case BY_USER:
		case BY_GROUP:
		case BY_PROJECT:
			name = report_name(o, s, k, r);
			if (name != NULL)
				return name;
			return fmt == FMT_TABLE ? r->key[k] : NULL;
		case BY_HOUR:
			return table_hour(b, n, r->key[k], fmt);
		default:
			return r->key[k];
		}
	case W_KEY_ID:
		if (r->other || (r->keynull >> k & 1))
			return NULL;
		snprintf(b, n, "%" PRId64, r->id[k]);
		return b;
	case W_KEY_UTC:
		if (r->other || (r->keynull >> k & 1))
			return NULL;
		return csv_utc(b, n, r->hour_epoch);
	case W_KEY_EPOCH:
		if (r->other || (r->keynull >> k & 1))
			return NULL;
		snprintf(b, n, "%" PRId64, r->hour_epoch);
		return b;
	case W_TZ:
		return o->tz;
	case W_APPORTIONED:
		return "hourly";
	case W_CALLS:
		snprintf(b, n, "%" PRId64, r->calls);
		return b;
	case W_SECS:
		if (!HAVE(r, k))
			return NULL;
		fmt_secs128(b, n, r->v[k]);
		return b;
	case W_COUNT:
		return HAVE(r, k) ? fmt_int128(b, n, r->v[k]) : NULL;
	case W_CPU:
		if (!cpu_of(r, &cpu))
			return NULL;
		fmt_secs128(b, n, cpu);
		return b;
	case W_CPU_PCT:
		if (!cpu_of(r, &cpu))
			return NULL;
		tot = total_of(s, r);
		return fmt_fixed128(b, n, tot > 0 && cpu > 0 ?
		    (unsigned __int128)cpu * 100 : 0, tot > 0 ?
		    (unsigned __int128)tot : 1, 2);
	case W_UTIL_PCT:
		/* Over the time observed, not the whole span. */
		if (!cpu_of(r, &cpu) || (ncpu = report_ncpu(o, s, r)) <= 0 ||
		    (span = report_span(o, s, r)) <= 0 ||
		    report_observed(o, s, r, &tot, &known) <= 0 || tot <= 0)
			return NULL;
		return fmt_fixed128(b, n, cpu > 0 ?
		    (unsigned __int128)cpu * 100 : 0,
		    (unsigned __int128)tot, 2);
	case W_OBSERVED:
		if (report_ncpu(o, s, r) <= 0 || report_span(o, s, r) <= 0 ||
		    (ncpu = report_observed(o, s, r, &tot, &known), !known))
			return NULL;
		fmt_secs128(b, n, ncpu);
		return b;
	case W_COVERAGE:
		if (report_ncpu(o, s, r) <= 0 ||
		    (span = report_span(o, s, r)) <= 0 ||
		    (ncpu = report_observed(o, s, r, &tot, &known), !known))
			return NULL;
		return fmt_fixed128(b, n, (unsigned __int128)ncpu * 100,
		    (unsigned __int128)span * NS_I64, 2);
	case W_AVG_MEM:
		/* pacct's memory, KiB, over the exits that had it. */
		if (!HAVE(r, RM_MEM_N) || r->v[RM_MEM_N] <= 0)
			return NULL;
		return fmt_fixed128(b, n, (unsigned __int128)r->v[RM_MEM_KB],
		    (unsigned __int128)r->v[RM_MEM_N], 0);
	case W_CPU_CALL:
		if (!cpu_of(r, &cpu) || r->calls <= 0)
			return NULL;
		fmt_secs128(b, n, cpu / r->calls);
		return b;
	case W_REAL_CALL:
		if (!HAVE(r, RM_REAL_NS) || r->calls <= 0)
			return NULL;
		fmt_secs128(b, n, r->v[RM_REAL_NS] / r->calls);
		return b;
	case W_CHARS_CALL:
		if (!HAVE(r, RM_CHARS) || r->calls <= 0)
			return NULL;
		return fmt_int128(b, n, r->v[RM_CHARS] / r->calls);
	}
	return NULL;
}
