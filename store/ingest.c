/*
 * The ingest loop (see ingest.h): reads a log through parsers/reader.h
 * (exacct, pacct or a metric-provider stream, its format told once and
 * each record handed out filled), hands each record to the sink of its
 * kind through sinks[] (store.c), and ends each chunk by flushing every
 * sink and moving the file's ledger row (ledger.c) in the same
 * transaction.  It holds no SQL of its own but BEGIN, COMMIT and
 * ROLLBACK: the sinks (ingest_*.c) own the statements of their tables,
 * ledger.c those of files and damage, hosts.c those of hosts (see
 * ingest_int.h).
 */
#include <sys/stat.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../parsers/reader.h"
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

/*
 * Add what filling a record skipped to the file's tallies.  A time
 * refused (records.h, REC_MAX_NS) is said where it is, once a record:
 * the record is stored without it (one without its start or finish is
 * dropped, counted as without time), and the rest of the file is read.
 */
static void
add_counts(struct run *r, const struct rec_counts *c, uint64_t off)
{
	char msg[256];

	r->stats->counts.unknown_items += c->unknown_items;
	r->stats->counts.unknown_groups += c->unknown_groups;
	r->stats->counts.bad_values += c->bad_values;
	if (c->bad_values > 0 && r->o->on_note != NULL) {
		snprintf(msg, sizeof(msg), "%" PRIu64 " time%s refused (from "
		    "2262-04-11 23:47:16 UTC on, which 64-bit nanoseconds "
		    "cannot hold, or nanoseconds of 10^9 or more): left out "
		    "of the record", c->bad_values, c->bad_values == 1 ?
		    "" : "s");
		r->o->on_note(r->o->arg, r->path, off, msg);
	}
}

/* One exacct record, in its fixed form: apply it. */
static int
on_object(struct run *r, const struct ex_header *h,
    const struct reader_item *it)
{
	int rc;

	if (it->kind == REC_PROC || it->kind == REC_TASK ||
	    it->kind == REC_FLOW) {
		if ((rc = run_host(r, h->hostname)) != EXR_OK)
			return rc;
		add_counts(r, &it->counts, it->off);
		/* Once per file: extracct writes exit records only from
		 * acctd (snap writes partials); any other creator is a
		 * kernel's. */
		if (r->source == 0)
			r->source = strcmp(h->creator, "extracct") == 0 ?
			    EXIT_ACCTD : EXIT_EXACCT;
		return on_record(r, it->kind, &it->u, it->off);
	}
	/* A snapshot's skipped items count whether it is stored or not. */
	add_counts(r, &it->counts, it->off);
	switch (it->kind) {
	case REC_SYSLOAD:	/* snap's system record, for the capture ratio */
	case REC_LOST:		/* acctd's count of exits lost */
	case REC_ENERGY:	/* an energy snapshot */
	case REC_RAPL:		/* snap's RAPL zone reading */
	case REC_CGROUP:	/* snap's reading of a cgroup's totals */
		return sink_write(r, it->kind, h->hostname, &it->u);
	case REC_OTHER:
		r->stats->other++;
		return EXR_OK;
	default:
		return EXR_OK;		/* a header */
	}
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

/*
 * Apply the item the reader read: a record (the file's own exacct
 * header names its host), or a stream line, whose series this store
 * keeps (EXR_DAMAGED: the series dropped it, the line is the range).
 */
static int
apply(struct run *r, const struct reader *rd, const struct reader_item *it)
{
	const struct ex_header *h = reader_log_header(rd);

	if (it->what == RD_LINE)
		return ingest_stream_line(r, &it->line);
	if (h == NULL) {		/* pacct: no header, no host named */
		/* Its finish, the one time pacct_decode can refuse. */
		struct rec_counts c = { 0, 0,
		    !REC_HAS(&it->u.proc, PROC_FINISH_NS) };

		add_counts(r, &c, it->off);
		return on_pacct(r, &it->u.proc);
	}
	return on_object(r, h, it);
}

int
ingest_file(struct store *s, const char *path, const struct ingest_opts *o,
    struct ingest_stats *stats, struct ex_err *err)
{
	struct reader rd;
	struct reader_opts ro = { o->provider, READER_LINES };
	const struct reader_item *it;
	struct reader_damage d;
	struct ledger_entry le;
	struct run r;
	struct stat sb;
	uint64_t upto;
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

	if ((rc = reader_open(&rd, path, &ro, err)) != EXR_OK) {
		stats->empty = rd.kind == INPUT_REFUSED;
		return rc;
	}
	r.fd = reader_fd(&rd);
	if (fstat(r.fd, &sb) == -1) {
		int saved = errno;

		reader_release(&rd);
		return ex_fail(err, EXR_IO, 0, "%s", strerror(saved));
	}
	if (!S_ISREG(sb.st_mode)) {
		reader_release(&rd);
		return ex_fail(err, EXR_IO, 0, "not a regular file (the ledger "
		    "needs one to know what was read)");
	}
	/* Read to this size and no further: the ledger records it, and a
	 * log still growing (a live pacct, a provider's stream) is read on
	 * from there next time, never twice. */
	reader_limit(&rd, (uint64_t)sb.st_size);
	if (sb.st_size == 0) {
		reader_release(&rd);
		stats->empty = 1;
		return ex_fail(err, EXR_DAMAGED, 0, "empty file");
	}
	if (o->hold_read && sqlite3_get_autocommit(s->db) &&
	    (rc = db_exec(s->db, "BEGIN", err)) != EXR_OK)
		goto out;
	if ((rc = ledger_lookup(&s->ledger, r.fd, (uint64_t)sb.st_size, &le,
	    err)) != EXR_OK)
		goto out;
	stats->from = stats->to = le.ingested_to;
	if (le.file_id != 0 && le.ingested_to == (uint64_t)sb.st_size) {
		stats->already = 1;
		goto out;
	}
	/* A read transaction held for the lookups ends here: nothing
	 * else writes (the writer's lock), so what it read still holds. */
	if ((rc = store_settle(s, err)) != EXR_OK ||
	    (rc = db_exec(s->db, "BEGIN IMMEDIATE", err)) != EXR_OK)
		goto out;
	r.file_id = le.file_id;
	if (r.file_id == 0 && (rc = ledger_insert(&s->ledger, &le,
	    reader_format(&rd), path, &r.file_id, err)) != EXR_OK)
		goto rollback;
	r.prov = rd.provider;
	r.resumed = le.ingested_to > 0;
	if ((rc = sinks_begin(&r)) != EXR_OK ||
	    (rc = reader_seek(&rd, le.ingested_to, err)) != EXR_OK)
		goto rollback;
	upto = (uint64_t)sb.st_size;
	for (;;) {
		rc = reader_next(&rd, &it, err);
		if (rc == EXR_EOF)
			break;
		if (rc == EXR_OK && (rc = apply(&r, &rd, it)) == EXR_OK) {
			if (++r.since_commit >= o->chunk_records &&
			    (rc = commit_chunk(&r, reader_offset(&rd), upto,
			    1)) != EXR_OK)
				goto rollback;
			first = 0;
			continue;
		}
		if (rc != EXR_DAMAGED)
			goto rollback;
		/* The reader's range, or the line a series dropped. */
		d = it->what == RD_DAMAGE ? it->damage :
		    (struct reader_damage){ it->off, it->end, 0, 0, 0 };
		/*
		 * A header problem an earlier run stored (that run may
		 * have got no further: the ledger still at 0) is not
		 * stored again.  One it left as an incomplete tail is.
		 */
		if (first && le.file_id != 0 && d.to == d.from &&
		    ledger_damage_stored(&s->ledger, r.file_id, d.from,
		    d.to)) {
			first = 0;
			continue;
		}
		first = 0;
		status = EXR_DAMAGED;
		if (d.to >= upto && d.to > d.from && d.writing && !o->closed) {
			/*
			 * Damage that runs to the end of the file may be a
			 * record still being written (the reader says which
			 * can be): do not move past it; the next run reads
			 * it again.  Any other is stored and passed.
			 */
			if (o->on_damage != NULL)
				o->on_damage(o->arg, path, d.from, d.to, err,
				    1);
			upto = d.from;
			stats->torn = d.torn;
			break;
		}
		stats->damaged++;
		stats->damaged_bytes += d.to - d.from;
		if (o->on_damage != NULL)
			o->on_damage(o->arg, path, d.from, d.to, err, 0);
		if ((rc = ledger_damage(&s->ledger, r.file_id, d.from,
		    d.to, err, err)) != EXR_OK)
			goto rollback;
	}
	/* A time refused is damage in a record kept: said, exit 1. */
	if (stats->counts.bad_values > 0)
		status = EXR_DAMAGED;
	/* Read to its end with nothing left for later: done, whatever
	 * the damage. */
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
	reader_release(&rd);
	return rc;
}

