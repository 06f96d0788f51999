/*
 * The stream sink: metric-provider streams into metric_series,
 * metric_samples and metric_gaps (see ingest_int.h, docs/schema.md).
 * Each series (host, provider, detail) keeps its last time and sampling
 * interval in metric_series, written once per chunk, so a stream read
 * over several runs, or continued in a new file, gives the same samples
 * as one read.  Statements are prepared per file (the sink's begin
 * hook): streams are thousands of lines an hour, not millions.
 */
#include <stdlib.h>
#include <string.h>

#include "ingest_int.h"

enum {
	Q_SEL_SERIES, Q_INS_SERIES, Q_PUT_SERIES, Q_INS_SAMPLE, Q_CLOSE_PREV,
	Q_INS_GAP, Q_N
};

static const char *const q_sql[Q_N] = {
	[Q_SEL_SERIES] = "SELECT series_id, last_ts_ns, gap_ns FROM "
	    "metric_series WHERE host_id = ? AND metric = ? AND detail = ?",
	[Q_INS_SERIES] = "INSERT INTO metric_series (host_id, metric, "
	    "detail, unit, stamp) VALUES (?,?,?,?,?)",
	[Q_PUT_SERIES] = "UPDATE metric_series SET last_ts_ns = ?, "
	    "gap_ns = ? WHERE series_id = ?",
	[Q_INS_SAMPLE] = "INSERT INTO metric_samples (series_id, ts_ns, "
	    "t0_ns, t1_ns, value, reading) VALUES (?,?,?,?,?,?)",
	/* A start-stamped sample ends where the next one starts. */
	[Q_CLOSE_PREV] = "UPDATE metric_samples SET t1_ns = ?2 "
	    "WHERE series_id = ?1 AND ts_ns = ?3 AND t1_ns IS NULL",
	[Q_INS_GAP] = "INSERT OR IGNORE INTO metric_gaps (series_id, "
	    "from_ns, to_ns, missing) VALUES (?,?,?,?)",
};

struct series {
	char		 detail[STREAM_DETAIL];
	int64_t		 id;
	struct stream_series st;
	int		 dirty;		/* changed since the last commit */
};

struct stream_run {
	const struct stream_provider *p;
	int		 resumed;	/* read on from where a run stopped */
	sqlite3_stmt	*q[Q_N];
	struct series	*series;
	size_t		 nseries, cap;
};

/* A file's begin: the statements, for a stream (r->prov) only. */
static int
series_run_open(struct run *r)
{
	struct stream_run *sr;
	int i;

	if (r->prov == NULL)
		return EXR_OK;
	if ((sr = calloc(1, sizeof(*sr))) == NULL)
		return ex_fail(r->err, EXR_NOMEM, 0, "no memory");
	sr->p = r->prov;
	sr->resumed = r->resumed;
	r->stream = sr;
	for (i = 0; i < Q_N; i++)
		if (sqlite3_prepare_v2(r->s->db, q_sql[i], -1, &sr->q[i],
		    NULL) != SQLITE_OK)
			return db_fail(r->s->db, r->err, "prepare");
	return EXR_OK;
}

static void
series_run_close(struct run *r)
{
	struct stream_run *sr = r->stream;
	int i;

	if (sr == NULL)
		return;
	for (i = 0; i < Q_N; i++)
		sqlite3_finalize(sr->q[i]);
	free(sr->series);
	free(sr);
	r->stream = NULL;
}

static int
step(struct run *r, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? EXR_OK :
	    db_fail(r->s->db, r->err, "metric samples");
}

/* The series of this detail, from the database or new. */
static int
series_of(struct run *r, const char *detail, struct series **out)
{
	struct stream_run *sr = r->stream;
	sqlite3_stmt *q = sr->q[Q_SEL_SERIES];
	struct series *s;
	size_t i;
	int rc;

	for (i = 0; i < sr->nseries; i++)
		if (strcmp(sr->series[i].detail, detail) == 0) {
			*out = &sr->series[i];
			return EXR_OK;
		}
	if (sr->nseries == sr->cap) {
		size_t cap = sr->cap ? sr->cap * 2 : 8;
		struct series *n = realloc(sr->series, cap * sizeof(*n));

		if (n == NULL)
			return ex_fail(r->err, EXR_NOMEM, 0, "no memory");
		sr->series = n;
		sr->cap = cap;
	}
	s = &sr->series[sr->nseries];
	memset(s, 0, sizeof(*s));
	snprintf(s->detail, sizeof(s->detail), "%s", detail);
	sqlite3_bind_int64(q, 1, r->host_id);
	sqlite3_bind_text(q, 2, sr->p->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 3, detail, -1, SQLITE_STATIC);
	if (sqlite3_step(q) == SQLITE_ROW) {
		s->id = sqlite3_column_int64(q, 0);
		s->st.last_ts_ns = (uint64_t)sqlite3_column_int64(q, 1);
		s->st.gap_ns = (uint64_t)sqlite3_column_int64(q, 2);
		/* The same file read on: its lines so far were this series'
		 * (no since-boot line again; a gap across runs is a gap). */
		if (sr->resumed)
			stream_series_resume(&s->st);
	}
	sqlite3_reset(q);
	if (s->id == 0) {
		q = sr->q[Q_INS_SERIES];
		sqlite3_bind_int64(q, 1, r->host_id);
		sqlite3_bind_text(q, 2, sr->p->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 3, detail, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 4, sr->p->unit, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 5, sr->p->end_stamped ? "end" : "start",
		    -1, SQLITE_STATIC);
		if ((rc = step(r, q)) != EXR_OK)
			return rc;
		s->id = sqlite3_last_insert_rowid(r->s->db);
	}
	sr->nseries++;
	*out = s;
	return EXR_OK;
}

static int
store_sample(struct run *r, struct series *s, const struct stream_line *ln,
    const struct stream_sample *x, uint64_t prev_ts)
{
	struct stream_run *sr = r->stream;
	sqlite3_stmt *q;
	int rc;

	if (x->prev_t1_ns != 0) {
		q = sr->q[Q_CLOSE_PREV];
		sqlite3_bind_int64(q, 1, s->id);
		sqlite3_bind_int64(q, 2, (int64_t)x->prev_t1_ns);
		sqlite3_bind_int64(q, 3, (int64_t)prev_ts);
		if ((rc = step(r, q)) != EXR_OK)
			return rc;
	}
	q = sr->q[Q_INS_SAMPLE];
	sqlite3_bind_int64(q, 1, s->id);
	sqlite3_bind_int64(q, 2, (int64_t)x->ts_ns);
	bind_opt(q, 3, x->has_t0, x->t0_ns);
	bind_opt(q, 4, x->has_t1, x->t1_ns);
	bind_opt(q, 5, x->has_value, x->value);
	sqlite3_bind_int64(q, 6, (int64_t)ln->reading);
	if ((rc = step(r, q)) != EXR_OK)
		return rc;
	r->stats->rows++;
	if (x->missing == 0)
		return EXR_OK;
	q = sr->q[Q_INS_GAP];
	sqlite3_bind_int64(q, 1, s->id);
	sqlite3_bind_int64(q, 2, (int64_t)x->gap_from_ns);
	sqlite3_bind_int64(q, 3, (int64_t)x->ts_ns);
	sqlite3_bind_int64(q, 4, (int64_t)x->missing);
	if ((rc = step(r, q)) != EXR_OK)
		return rc;
	r->stats->gaps++;
	if (r->o->on_note != NULL) {
		char msg[512];

		snprintf(msg, sizeof(msg), "line %llu: %llu us since the last "
		    "sample of %s%s%s: about %llu missing before it%s",
		    (unsigned long long)ln->line,
		    (unsigned long long)((x->ts_ns - x->gap_from_ns) / 1000),
		    sr->p->name, s->detail[0] ? " " : "", s->detail,
		    (unsigned long long)x->missing,
		    sr->p->conv == SC_ENERGY ? " (GMT's RAPL reader drops a "
		    "sample whose counter wrapped); their energy is not known" :
		    sr->p->conv == SC_RATIO || sr->p->conv == SC_GAUGE ? "" :
		    "; their energy is not known");
		r->o->on_note(r->o->arg, r->path, ln->off, msg);
	}
	return EXR_OK;
}

/* A line; EXR_DAMAGED: dropped (a repeat, or older than the last). */
static int
ingest_series(struct run *r, const char *host, const void *rec)
{
	const struct stream_line *ln = rec;
	struct stream_run *sr = r->stream;
	struct stream_sample x;
	enum stream_verdict v;
	struct series *s = NULL;
	uint64_t prev_ts;
	int rc;

	if ((rc = run_host(r, host)) != EXR_OK ||
	    (rc = series_of(r, ln->detail, &s)) != EXR_OK)
		return rc;
	r->stats->records++;
	prev_ts = s->st.last_ts_ns;
	/* A line dropped is damage: the loop stores and reports it. */
	switch ((v = stream_apply(sr->p, &s->st, ln, &x))) {
	case SV_BACKWARDS:
		r->stats->late++;
		return stream_dropped(r->err, ln, v, prev_ts);
	case SV_DUPLICATE:
		r->stats->duplicates++;
		return stream_dropped(r->err, ln, v, prev_ts);
	case SV_OPENS:
		r->stats->excluded++;	/* it only dates the next line */
		break;
	case SV_SAMPLE: {
		char msg[256];

		if (stream_underflow(sr->p, &s->st, ln, msg, sizeof(msg))) {
			r->stats->underflows++;
			if (msg[0] != '\0' && r->o->on_note != NULL)
				r->o->on_note(r->o->arg, r->path, ln->off, msg);
		}
		if ((rc = store_sample(r, s, ln, &x, prev_ts)) != EXR_OK)
			return rc;
		if (r->o->on_sample != NULL && (rc = r->o->on_sample(r->o->arg,
		    r->host, sr->p, ln, &x)) != EXR_OK)
			return ex_fail(r->err, rc, ln->off, "writing outputs");
		break;
	}
	}
	s->dirty = 1;
	return EXR_OK;
}

/* Each changed series' state, written with the chunk that changed it. */
static int
series_flush(struct run *r)
{
	struct stream_run *sr = r->stream;
	sqlite3_stmt *q;
	size_t i;
	int rc;

	if (sr == NULL)
		return EXR_OK;
	q = sr->q[Q_PUT_SERIES];
	for (i = 0; i < sr->nseries; i++) {
		struct series *s = &sr->series[i];

		if (!s->dirty)
			continue;
		sqlite3_bind_int64(q, 1, (int64_t)s->st.last_ts_ns);
		bind_opt(q, 2, s->st.gap_ns != 0, s->st.gap_ns);
		sqlite3_bind_int64(q, 3, s->id);
		if ((rc = step(r, q)) != EXR_OK)
			return rc;
		s->dirty = 0;
	}
	return EXR_OK;
}

/* Statements prepared per file (above): no store-wide state. */
const struct sink stream_sink = {
	.name = "streams",
	.begin = series_run_open,
	.write = ingest_series,
	.flush = series_flush,
	.end = series_run_close,
};
