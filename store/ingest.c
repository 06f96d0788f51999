/*
 * The ingest loop (see ingest.h): reads a log (exacct, pacct or a
 * metric-provider stream), hands each record to the sink of its kind
 * through sinks[] (store.c), and ends each chunk by flushing every sink
 * and moving the file's ledger row (ledger.c) in the same transaction.
 * It holds no SQL of its own but BEGIN, COMMIT and ROLLBACK: the sinks
 * (ingest_*.c) own the statements of their tables, ledger.c those of
 * files and damage, hosts.c those of hosts (see ingest_int.h).
 */
#include <sys/stat.h>

#include <errno.h>
#include <string.h>

#include "../parsers/sniff.h"
#include "ingest_int.h"

/* At a commit: every sink's flush, in table order; the first error. */
static int
sinks_flush(struct run *r)
{
	int k, rc;

	for (k = 0; k < SINK_N; k++)
		if (sinks[k] != NULL && sinks[k]->flush != NULL &&
		    (rc = sinks[k]->flush(r)) != EXR_OK)
			return rc;
	return EXR_OK;
}

/* Before a file's first record: every sink's begin; the first error. */
static int
sinks_begin(struct run *r)
{
	int k, rc;

	for (k = 0; k < SINK_N; k++)
		if (sinks[k] != NULL && sinks[k]->begin != NULL &&
		    (rc = sinks[k]->begin(r)) != EXR_OK)
			return rc;
	return EXR_OK;
}

/* After a file, whatever happened (after a failed begin too). */
static void
sinks_end(struct run *r)
{
	int k;

	for (k = 0; k < SINK_N; k++)
		if (sinks[k] != NULL && sinks[k]->end != NULL)
			sinks[k]->end(r);
}

/*
 * End a chunk: every sink writes what it holds back (batched rows, live
 * states, pairings), the ledger moves to `upto`, and it all commits at
 * once.
 */
static int
commit_chunk(struct run *r, uint64_t upto, uint64_t size, int more)
{
	struct store *s = r->s;
	struct ingest_stats *n = r->stats, *o = &r->committed;
	struct ledger_chunk c;
	int rc;

	if ((rc = sinks_flush(r)) != EXR_OK)
		return rc;
	memset(&c, 0, sizeof(c));
	c.file_id = r->file_id;
	c.host_id = r->host_id;
	c.path = r->path;
	c.fd = r->fd;
	c.size = size;
	c.from = n->to;
	c.upto = upto;
	c.records = n->records - o->records;
	c.duplicates = n->duplicates - o->duplicates;
	c.late = n->late - o->late;
	c.other_objects = n->other - o->other;
	c.unknown_items = n->counts.unknown_items + n->counts.unknown_groups -
	    o->counts.unknown_items - o->counts.unknown_groups;
	c.bad_values = n->counts.bad_values - o->counts.bad_values;
	c.damaged_ranges = n->damaged - o->damaged;
	c.damaged_bytes = n->damaged_bytes - o->damaged_bytes;
	if ((rc = ledger_advance(&s->ledger, &c, r->err)) != EXR_OK ||
	    (rc = db_exec(s->db, "COMMIT", r->err)) != EXR_OK)
		return rc;
	*o = *n;
	n->to = upto;
	r->since_commit = 0;
	return more ? db_exec(s->db, "BEGIN IMMEDIATE", r->err) : EXR_OK;
}

/* A record of kind k, filled: to its sink. */
static int
sink_write(struct run *r, int k, const char *host, const void *rec)
{
	return sinks[k]->write(r, host, rec);
}

/* A system record from snap: kept as it is, for the capture ratio. */
static int
on_sysload(struct run *r, const struct exacct_reader *rd,
    const struct ex_rec *rec)
{
	struct ex_sysload sl;

	memset(&sl, 0, sizeof(sl));
	sysload_fill(&sl, rec, &r->stats->counts);
	return sink_write(r, REC_SYSLOAD, rd->hdr.hostname, &sl);
}

/* A loss record from acctd: exits dropped or not written, per host. */
static int
on_lost(struct run *r, const struct exacct_reader *rd,
    const struct ex_rec *rec)
{
	struct ex_lost l;

	memset(&l, 0, sizeof(l));
	lost_fill(&l, rec, &r->stats->counts);
	return sink_write(r, REC_LOST, rd->hdr.hostname, &l);
}

/* An energy snapshot: into energy intervals. */
static int
on_energy(struct run *r, const struct exacct_reader *rd,
    const struct ex_rec *rec)
{
	struct ex_energy e;

	memset(&e, 0, sizeof(e));
	energy_fill(&e, rec, &r->stats->counts);
	return sink_write(r, REC_ENERGY, rd->hdr.hostname, &e);
}

/* A RAPL zone reading from snap: into RAPL intervals. */
static int
on_rapl(struct run *r, const struct exacct_reader *rd,
    const struct ex_rec *rec)
{
	struct ex_rapl z;

	memset(&z, 0, sizeof(z));
	rapl_fill(&z, rec, &r->stats->counts);
	return sink_write(r, REC_RAPL, rd->hdr.hostname, &z);
}

/*
 * A decoded process, task or flow record: count it, hand it to the
 * outputs, then store it (its host is known: the outputs name it).
 */
static int
on_record(struct run *r, enum rec_kind k, const void *fixed, uint64_t off)
{
	int rc;

	r->stats->records++;
	if (r->o->on_record != NULL &&
	    (rc = r->o->on_record(r->o->arg, r->host, k, fixed)) != EXR_OK)
		return ex_fail(r->err, rc, off, "writing outputs");
	return sink_write(r, k, r->host, fixed);
}

/* A stream line: a stream names no host (the one it was written on). */
static int
ingest_stream_line(struct run *r, const struct stream_line *ln)
{
	return sink_write(r, SINK_STREAM, "", ln);
}

/* One decoded object: fill its record and apply it. */
static int
on_object(struct run *r, const struct exacct_reader *rd,
    const struct ex_rec *rec)
{
	union {
		struct ex_proc	 p;
		struct ex_task	 t;
		struct ex_flow	 f;
	} u;
	enum rec_kind k = rec_kind(rec);
	int rc;

	if (k == REC_HEADER)
		return EXR_OK;
	if (k == REC_SYSLOAD)
		return on_sysload(r, rd, rec);
	if (k == REC_LOST)
		return on_lost(r, rd, rec);
	if (k == REC_ENERGY)
		return on_energy(r, rd, rec);
	if (k == REC_RAPL)
		return on_rapl(r, rd, rec);
	if (k == REC_OTHER) {
		r->stats->other++;
		return EXR_OK;
	}
	if ((rc = run_host(r, rd->hdr.hostname)) != EXR_OK)
		return rc;
	/* Once per file: extracct writes exit records only from acctd
	 * (snap writes partials); any other creator is a kernel's. */
	if (r->source == 0)
		r->source = strcmp(rd->hdr.creator, "extracct") == 0 ?
		    EXIT_ACCTD : EXIT_EXACCT;
	if (k == REC_PROC)
		proc_fill(&u.p, rec, &r->stats->counts);
	else if (k == REC_TASK)
		task_fill(&u.t, rec, &r->stats->counts);
	else
		flow_fill(&u.f, rec, &r->stats->counts);
	return on_record(r, k, &u, rec->off);
}

/* One pacct record: always a final process record. */
static int
on_pacct(struct run *r, const struct ex_proc *p)
{
	int rc;

	/* pacct names no host: it is the one it was written on. */
	if ((rc = run_host(r, "")) != EXR_OK)
		return rc;
	r->source = EXIT_PACCT;
	return on_record(r, REC_PROC, p, p->off);
}

/* Any reader, behind one next(). */
struct input {
	enum input_kind	 kind;
	struct exacct_reader ex;
	struct pacct_reader pa;
	struct stream_reader sr;
	uint64_t	 off;		/* after the last record */
	uint64_t	 skip_from, skip_to;
	int		 torn;		/* the damage is a partial last line */
	int		 zeros;		/* the damage is a run of zero bytes */
};

static int
input_open(struct input *in, const char *path, const struct ingest_opts *o,
    const struct stream_provider **prov, struct ex_err *err)
{
	int rc;

	memset(in, 0, sizeof(*in));
	if ((rc = sniff_file(path, &in->kind, err)) != EXR_OK)
		return rc;
	if (in->kind == INPUT_PACCT)
		return pacct_reader_open(&in->pa, path, err);
	if (in->kind == INPUT_EXACCT)
		return exacct_reader_open(&in->ex, path, err);
	if ((*prov = stream_provider_for(path, o->provider, err)) == NULL)
		return EXR_USAGE;
	return stream_reader_open(&in->sr, path, err);
}

static struct source *
input_source(struct input *in)
{
	return in->kind == INPUT_PACCT ? &in->pa.src :
	    in->kind == INPUT_STREAM ? &in->sr.src : &in->ex.src;
}

static int
input_seek(struct input *in, uint64_t off, struct ex_err *err)
{
	if (in->kind == INPUT_PACCT)
		in->pa.off = off;
	else if (in->kind == INPUT_STREAM)
		return stream_seek(&in->sr, off, err);
	else
		in->ex.off = off;	/* the header is still read first */
	return EXR_OK;
}

static void
input_release(struct input *in)
{
	if (in->kind == INPUT_PACCT)
		pacct_reader_release(&in->pa);
	else if (in->kind == INPUT_STREAM)
		stream_reader_release(&in->sr);
	else
		exacct_reader_release(&in->ex);
}

static int
stream_next_line(struct input *in, struct run *r, struct ex_err *err)
{
	struct stream_line ln;
	int rc;

	rc = stream_next(&in->sr, &ln, err);
	in->off = in->sr.off;
	in->skip_from = in->sr.skip_from;
	in->skip_to = in->sr.skip_to;
	in->torn = in->sr.torn;
	in->zeros = in->sr.zeros;
	if (rc != EXR_OK)
		return rc;
	if ((rc = ingest_stream_line(r, &ln)) == EXR_DAMAGED) {
		in->skip_from = ln.off;	/* dropped: the line is the range */
		in->skip_to = ln.end;
	}
	return rc;
}

/* Read the next record and apply it; EXR_OK, EXR_EOF, EXR_DAMAGED... */
static int
input_next(struct input *in, struct run *r, struct ex_err *err)
{
	struct ex_proc p;
	const struct ex_rec *rec;
	int rc;

	if (in->kind == INPUT_STREAM)
		return stream_next_line(in, r, err);
	if (in->kind == INPUT_PACCT) {
		rc = pacct_next(&in->pa, &p, err);
		in->off = in->pa.off;
		in->skip_from = in->pa.skip_from;
		in->skip_to = in->pa.skip_to;
		in->zeros = in->pa.zeros;
		return rc == EXR_OK ? on_pacct(r, &p) : rc;
	}
	rc = exacct_next(&in->ex, &rec, err);
	in->off = in->ex.off;
	in->skip_from = in->ex.skip_from;
	in->skip_to = in->ex.skip_to;
	in->zeros = in->ex.zeros;
	return rc == EXR_OK ? on_object(r, &in->ex, rec) : rc;
}

int
ingest_file(struct store *s, const char *path, const struct ingest_opts *o,
    struct ingest_stats *stats, struct ex_err *err)
{
	struct input in;
	struct ledger_entry le;
	struct run r;
	struct stat sb;
	uint64_t upto;
	const struct stream_provider *prov = NULL;
	int rc, status = EXR_OK, first = 1;

	memset(stats, 0, sizeof(*stats));
	if (s->broken)
		return ex_fail(err, EXR_DB, 0, "after a rollback the live "
		    "processes could not be read back from the database: "
		    "stopped, nothing more stored (run again)");
	memset(&r, 0, sizeof(r));
	r.s = s;
	r.o = o;
	r.stats = stats;
	r.err = err;
	r.path = path;
	r.dopts.idle_always = o->idle_always;
	r.dopts.heartbeat_ns = o->heartbeat_ns;

	if ((rc = input_open(&in, path, o, &prov, err)) != EXR_OK) {
		stats->empty = in.kind == INPUT_REFUSED;
		return rc;
	}
	r.fd = input_source(&in)->fd;
	if (fstat(r.fd, &sb) == -1 || !S_ISREG(sb.st_mode)) {
		input_release(&in);
		return ex_fail(err, EXR_IO, 0, "%s", S_ISREG(sb.st_mode) ?
		    strerror(errno) : "not a regular file (the ledger needs "
		    "one to know what was read)");
	}
	/* Read to this size and no further: the ledger records it, and a
	 * log still growing (a live pacct, a provider's stream) is read on
	 * from there next time, never twice. */
	input_source(&in)->size = (uint64_t)sb.st_size;
	if (sb.st_size == 0) {
		input_release(&in);
		stats->empty = 1;
		return ex_fail(err, EXR_DAMAGED, 0, "empty file");
	}
	if ((rc = ledger_lookup(&s->ledger, r.fd, (uint64_t)sb.st_size, &le,
	    err)) != EXR_OK)
		goto out;
	stats->from = stats->to = le.ingested_to;
	if (le.file_id != 0 && le.ingested_to == (uint64_t)sb.st_size) {
		stats->already = 1;
		goto out;
	}
	if ((rc = db_exec(s->db, "BEGIN IMMEDIATE", err)) != EXR_OK)
		goto out;
	r.file_id = le.file_id;
	if (r.file_id == 0 && (rc = ledger_insert(&s->ledger, &le,
	    in.kind == INPUT_PACCT ? "pacct" : in.kind == INPUT_STREAM ?
	    "stream" : "exacct", path, &r.file_id, err)) != EXR_OK)
		goto rollback;
	r.prov = prov;
	r.resumed = le.ingested_to > 0;
	if ((rc = sinks_begin(&r)) != EXR_OK ||
	    (rc = input_seek(&in, le.ingested_to, err)) != EXR_OK)
		goto rollback;
	upto = (uint64_t)sb.st_size;
	for (;;) {
		rc = input_next(&in, &r, err);
		if (rc == EXR_EOF)
			break;
		if (rc == EXR_OK) {
			if (++r.since_commit >= o->chunk_records &&
			    (rc = commit_chunk(&r, in.off, upto, 1)) != EXR_OK)
				goto rollback;
			first = 0;
			continue;
		}
		if (rc != EXR_DAMAGED)
			goto rollback;
		/*
		 * A header problem an earlier run stored (that run may
		 * have got no further: the ledger still at 0) is not
		 * stored again.  One it left as an incomplete tail is.
		 */
		if (first && le.file_id != 0 && in.skip_to == in.skip_from &&
		    ledger_damage_stored(&s->ledger, r.file_id, in.skip_from,
		    in.skip_to)) {
			first = 0;
			continue;
		}
		first = 0;
		status = EXR_DAMAGED;
		/* (A stream's complete line is never still being written.) */
		if (in.skip_to >= upto && in.skip_to > in.skip_from &&
		    (in.kind != INPUT_STREAM || in.torn) && !in.zeros &&
		    !o->closed) {
			/*
			 * Damage that runs to the end of the file may be a
			 * record still being written: do not move past it;
			 * the next run reads it again.  Zeros are not: every
			 * writer writes a record whole, and never zeros, so
			 * a zero tail is what a crash left (stored, passed).
			 */
			if (o->on_damage != NULL)
				o->on_damage(o->arg, path, in.skip_from,
				    in.skip_to, err, 1);
			upto = in.skip_from;
			stats->torn = in.torn;
			break;
		}
		stats->damaged++;
		stats->damaged_bytes += in.skip_to - in.skip_from;
		if (o->on_damage != NULL)
			o->on_damage(o->arg, path, in.skip_from, in.skip_to,
			    err, 0);
		if ((rc = ledger_damage(&s->ledger, r.file_id, in.skip_from,
		    in.skip_to, err, err)) != EXR_OK)
			goto rollback;
	}
	/* Read to its end with nothing left for later: done, whatever
	 * the damage (issue 15). */
	if (o->closed && upto == (uint64_t)sb.st_size &&
	    (rc = ledger_mark_closed(&s->ledger, r.file_id, err)) != EXR_OK)
		goto rollback;
	if ((rc = commit_chunk(&r, upto, (uint64_t)sb.st_size, 0)) != EXR_OK)
		goto rollback;
	rc = status;
	goto out;
rollback:
	(void)sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	/* Memory now runs ahead of the database: reload what it holds
	 * (a store that cannot is broken: no more ingests). */
	store_reload(s);
out:
	sinks_end(&r);
	input_release(&in);
	return rc;
}

