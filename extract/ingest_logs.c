/*
 * Ingest of a list of logs (ingest_logs.h): what ingest does for its
 * operands and run for the spool's closed logs.  Each log goes to the
 * store (store/ingest.c) with its .txt and .csv written beside, when
 * asked, from the records as they are stored; damage is reported as
 * found, and one line per log says what it added.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../reports/csv.h"
#include "../reports/fmt.h"
#include "../reports/idnames.h"
#include "../reports/text.h"
#include "../store/hostid.h"
#include "../store/ingest.h"
#include "../store/outfile.h"
#include "config.h"
#include "cmd.h"
#include "util.h"
#include "ingest_logs.h"
#include "paths.h"
#include "walk.h"

struct outputs {
	const char	*outdir;	/* NULL: no .txt/.csv */
	const char	*input;		/* the log being read */
	const struct ingest_stats *stats;
	FILE		*txt;
	FILE		*csv;
	enum rec_kind	 csv_kind;	/* the kind BASE.csv holds */
	int		 header_done[REC_FLOW + 1];
	int		 fresh;		/* new files: headers still due */
	int		 failed;
	char		 buf[2][1 << 16];	/* stdio's 4 KB: 4x the syscalls */
};

/*
 * Open DIR/BASE.EXT to write: created 0640, or an existing regular file
 * of ours with one link (outfile.h), emptied unless appending.  Never
 * through a symbolic link, into a hard link or a file another user
 * made, and never waiting on a FIFO.
 */
static FILE *
open_output(const struct outputs *out, const char *ext, int append)
{
	char path[4096], base[4096];
	struct ex_err err = { 0 };
	int fd;
	FILE *fp;

	snprintf(base, sizeof(base), "%s", out->input);
	snprintf(path, sizeof(path), "%s/%s.%s", out->outdir, basename(base),
	    ext);
	if ((fd = outfile_open(path, O_APPEND, NULL, &err)) == -1) {
		complain(EXR_IO, "%s: %s", path, err.reason);
		return NULL;
	}
	if ((!append && ftruncate(fd, 0) == -1) ||
	    (fp = fdopen(fd, "a")) == NULL) {
		complain(EXR_IO, "%s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	return fp;
}

/*
 * BASE.txt and BASE.csv, at the first record of an input: new (headers
 * to write) when the input is read from its start, else appended to.
 */
static int
open_outputs(struct outputs *o)
{
	int append = o->stats->from > 0;

	o->fresh = !append;
	if ((o->txt = open_output(o, "txt", append)) == NULL ||
	    (o->csv = open_output(o, "csv", append)) == NULL) {
		o->failed = 1;
		return EXR_IO;
	}
	setvbuf(o->txt, o->buf[0], _IOFBF, sizeof(o->buf[0]));
	setvbuf(o->csv, o->buf[1], _IOFBF, sizeof(o->buf[1]));
	return EXR_OK;
}

static int
output_record(void *arg, const char *host, enum rec_kind kind,
    const void *rec)
{
	struct outputs *o = arg;

	if (o->outdir == NULL)
		return EXR_OK;
	if (o->txt == NULL) {
		if (open_outputs(o) != EXR_OK)
			return EXR_IO;
		o->csv_kind = kind;
		if (o->fresh)
			csv_header(o->csv, kind);
	}
	if (!o->header_done[kind] && o->fresh) {
		text_header(o->txt, kind);
		o->header_done[kind] = 1;
	}
	switch (kind) {
	case REC_PROC:
		text_proc(o->txt, rec);
		if (kind == o->csv_kind)
			csv_proc(o->csv, host, rec);
		break;
	case REC_TASK:
		text_task(o->txt, rec);
		if (kind == o->csv_kind)
			csv_task(o->csv, host, rec);
		break;
	default:
		text_flow(o->txt, rec);
		if (kind == o->csv_kind)
			csv_flow(o->csv, host, rec);
		break;
	}
	return ferror(o->txt) || ferror(o->csv) ? EXR_IO : EXR_OK;
}

/* A stream's sample into BASE.txt and BASE.csv, as text does. */
static int
output_sample(void *arg, const char *host, const struct stream_provider *p,
    const struct stream_line *ln, const struct stream_sample *x)
{
	struct outputs *o = arg;

	if (o->outdir == NULL)
		return EXR_OK;
	if (o->txt == NULL && open_outputs(o) != EXR_OK)
		return EXR_IO;
	if (o->fresh) {
		text_sample_header(o->txt);
		csv_sample_header(o->csv);
		o->fresh = 0;
	}
	text_sample(o->txt, p, ln, x);
	csv_sample(o->csv, host, p, ln, x);
	return ferror(o->txt) || ferror(o->csv) ? EXR_IO : EXR_OK;
}

static void
report_damage(void *arg, const char *path, uint64_t from, uint64_t to,
    const struct ex_err *err, int tail)
{
	(void)arg;
	say_damage(stderr, tail ? DF_TAIL : DF_INGEST, path, from, to, err);
}

static void
report_note(void *arg, const char *path, uint64_t off, const char *msg)
{
	(void)arg;
	say(stderr, "extracct: %s: offset %" PRIu64 ": %s", path, off, msg);
}

static int
close_outputs(struct outputs *o)
{
	int rc = EXR_OK;

	if (o->txt != NULL && fclose(o->txt) != 0)
		rc = EXR_IO;
	if (o->csv != NULL && fclose(o->csv) != 0)
		rc = EXR_IO;
	o->txt = o->csv = NULL;
	memset(o->header_done, 0, sizeof(o->header_done));
	return rc;
}

/* Ingest options as the configuration sets them. */
void
ingest_opts_config(struct ingest_opts *io, const struct ctx *ctx)
{
	memset(io, 0, sizeof(*io));
	io->idle_always = ctx->cfg->idle_always;
	io->heartbeat_ns = ctx->cfg->heartbeat_hours * 3600 * 1000000000ull;
	io->chunk_records = 50000;
	io->on_damage = report_damage;
	io->on_note = report_note;
	io->rapl_drop_wrapped = ctx->cfg->rapl_drop_wrapped;
	io->carbon_intensity = ctx->cfg->carbon_intensity;
	io->carbon_source = ctx->cfg->carbon_source;
	io->cpus = (int64_t)ctx->cfg->cpus;
}

int
parse_wait(const char *arg, uint64_t *wait_s)
{
	return parse_u64("--wait", arg, 0, 86400, wait_s);
}

void
ingest_self(struct store *s, const struct ctx *ctx)
{
	char name[512], ident[HOSTID_MAX];

	config_hostname(ctx->cfg, name, sizeof(name));
	store_self(s, name, hostid_self(ctx->cfg->host_id, PATH_MACHINE_ID,
	    name, ident, sizeof(ident)));
}

int
ingest_open(struct store **s, const char *db, uint64_t wait_s,
    const struct ctx *ctx)
{
	struct ex_err err = { 0 };
	int rc;

	*s = NULL;
	if ((rc = db_locate(db)) != EXR_OK)
		return rc;
	if ((rc = store_open(s, db, wait_s * 1000, &err)) != EXR_OK)
		return complain(rc, "%s: %s", db, err.reason);
	ingest_self(*s, ctx);
	return EXR_OK;
}

/*
 * The names the host gives its ids, from its passwd, group and project
 * files (given, or this machine's own when the logs are its), stored
 * for it (store_host_names) after its logs: a report elsewhere then
 * names the host's users as the host does.  A default file missing
 * (no /etc/project on Linux) is no error; a file given and missing is.
 */
static int
ingest_names(struct store *s, const char *db, const struct ingest_opts *io)
{
	static const char *const defaults[3] = { PATH_PASSWD, PATH_GROUP,
	    PATH_PROJECT };
	static const char *const kinds[3] = { "user", "group", "project" };
	static const enum idkind ik[3] = { ID_USER, ID_GROUP, ID_PROJECT };
	struct idnames m;
	struct store_name *v;
	struct ex_err err;
	size_t i;
	int k, rc, status = EXR_OK;

	for (k = 0; k < 3; k++) {
		const char *path = io->names[k] != NULL ? io->names[k] :
		    io->own_host ? defaults[k] : NULL;

		if (path == NULL || (io->names[k] == NULL &&
		    access(path, R_OK) != 0))
			continue;
		memset(&err, 0, sizeof(err));
		idnames_init(&m);
		if ((rc = idnames_load(&m, ik[k], path, &err)) != EXR_OK) {
			idnames_release(&m);
			status = ex_worst(status, complain(rc, "%s: %s", path,
			    err.reason));
			continue;
		}
		if ((v = calloc(m.n[ik[k]] + 1, sizeof(*v))) == NULL) {
			idnames_release(&m);
			return complain(EXR_NOMEM, "no memory");
		}
		for (i = 0; i < m.n[ik[k]]; i++) {
			v[i].id = m.e[ik[k]][i].id;
			v[i].name = m.e[ik[k]][i].name != NULL ?
			    m.e[ik[k]][i].name : "";
		}
		rc = store_host_names(s, io->host, kinds[k], v, m.n[ik[k]],
		    &err);
		free(v);
		idnames_release(&m);
		if (rc != EXR_OK)
			status = ex_worst(status, complain(rc, "%s: %s", db,
			    err.reason));
	}
	return status;
}

int
ingest_logs(struct store *s, const char *db, const char *outdir,
    const struct ingest_opts *opts, char *const *paths, int npaths,
    int nclosed)
{
	/*
	 * A copy: the callbacks' argument (out) lives in this frame only,
	 * and so must every pointer to it (the caller's opts never holds
	 * one).
	 */
	struct ingest_opts o = *opts, *io = &o;
	struct outputs out;
	struct ingest_stats st;
	struct ex_err err;
	int i, rc, status = EXR_OK;

	memset(&out, 0, sizeof(out));
	out.outdir = outdir;
	out.stats = &st;
	io->on_record = output_record;
	io->on_sample = output_sample;
	io->arg = &out;
	io->hold_read = 1;
	for (i = 0; i < npaths; i++) {
		memset(&err, 0, sizeof(err));
		err.path = paths[i];
		out.input = paths[i];
		io->closed = i < nclosed;
		rc = ingest_file(s, paths[i], io, &st, &err);
		if (close_outputs(&out) != EXR_OK && rc == EXR_OK)
			rc = complain(EXR_IO, "%s: writing outputs failed",
			    paths[i]);
		/*
		 * Damaged ranges were reported as found; the rest here.  A
		 * database failure is the database's, not at an offset of
		 * the input: what was not committed is read again next time.
		 */
		if (rc == EXR_DB)
			complain(rc, "%s: %s; %s: what was not stored is read "
			    "again by the next ingest", db, err.reason,
			    paths[i]);
		else if ((rc != EXR_OK && rc != EXR_DAMAGED) || st.empty)
			report_err(&err);
		status = ex_worst(status, rc);
		if (st.empty)
			continue;
		if (st.already) {
			say(stdout, "%s: already ingested (%" PRIu64
			    " bytes)", paths[i], st.from);
			continue;
		}
		if (rc != EXR_OK && rc != EXR_DAMAGED)
			continue;
		/* The name as messages print it (say()); then numbers. */
		fmt_escape_fp(stdout, paths[i], 0);
		printf(": bytes %" PRIu64 "-%" PRIu64 ": %" PRIu64
		    " records, %" PRIu64 " rows, %" PRIu64 " duplicates, %"
		    PRIu64 " late, %" PRIu64 " idle, %" PRIu64 " flows, %"
		    PRIu64 " damaged ranges, %" PRIu64 " without pid or "
		    "time", st.from, st.to, st.records, st.rows,
		    st.duplicates, st.late, st.idle, st.flows, st.damaged,
		    st.untimed);
		/* Times refused, each said where it was (add_counts). */
		if (st.counts.bad_values > 0)
			printf(", %" PRIu64 " times refused",
			    st.counts.bad_values);
		/* Only where acctd and pacct both ran, or acctd lost some. */
		if (st.alt_exits > 0)
			printf(", %" PRIu64 " exits another source had",
			    st.alt_exits);
		if (st.lost > 0)
			printf(", %" PRIu64 " exits lost",
			    st.lost);
		/*
		 * Linux cgroups, where any exit had one: whose cgroup each
		 * exit took (its own; its leader's or parent's, its own
		 * /proc gone when acctd read it; its last snapshot's).
		 */
		if (st.cg_exits[0] + st.cg_exits[1] + st.cg_exits[2] +
		    st.cg_exits[3] > 0)
			printf(", exit cgroups: %" PRIu64 " own, %" PRIu64
			    " leader's, %" PRIu64 " parent's, %" PRIu64
			    " last snapshot's, %" PRIu64 " none",
			    st.cg_exits[0], st.cg_exits[1], st.cg_exits[2],
			    st.cg_exits[3], st.cg_exits[4]);
		/* Streams only. */
		if (st.gaps > 0)
			printf(", %" PRIu64 " gaps", st.gaps);
		if (st.excluded > 0)
			printf(", %" PRIu64 " since-boot lines excluded",
			    st.excluded);
		if (st.underflows > 0)
			printf(", %" PRIu64 " readings of at most 1 uJ",
			    st.underflows);
		if (st.torn)
			printf(", 1 partial last line left for the next run");
		putchar('\n');
	}
	memset(&err, 0, sizeof(err));
	if ((rc = store_settle(s, &err)) != EXR_OK)
		status = ex_worst(status, complain(rc, "%s: %s", db,
		    err.reason));
	if (io->host != NULL)
		status = ex_worst(status, ingest_names(s, db, io));
	return status;
}
