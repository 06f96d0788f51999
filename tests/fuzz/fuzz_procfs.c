/*
 * libFuzzer target: the /proc readers ("make fuzz").
 *
 * An input is up to four files' text, NUL-separated: /proc/PID/stat,
 * /proc/PID/status, /proc/PID/io and /proc/stat, each handed to its
 * parser (procfs_parse_*) from memory, in a buffer of exactly its size
 * so that a read past its end is a sanitizer report.  The oracle: what
 * snap would write of it (proc_write, sysload_write) reads back
 * (exacct_decode, proc_fill, sysload_fill) as the same record, field
 * for field: nothing the parsers accept is cut or lost on the way to
 * the log.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../extract/linux/procfs.h"
#include "../../parsers/exacct.h"
#include "../../parsers/recwrite.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NOW_NS	1700000000123456789ull

static void
fail(const char *what, int f)
{
	fprintf(stderr, "fuzz_procfs: %s (field %d)\n", what, f);
	abort();
}

/* The one record in w, decoded into rec. */
static void
decode(struct exw *w, struct ex_rec *rec)
{
	struct ex_err err;
	size_t used;

	if (exw_error(w) != EXR_OK)
		fail("the writer failed", -1);
	rec->nitems = 0;
	if (exacct_decode(rec, w->buf, w->len, 0, &used, &err) != EXR_OK ||
	    used != w->len)
		fail(err.reason, -1);
}

static void
proc_roundtrip(const struct ex_proc *p, struct exw *w, struct ex_rec *rec)
{
	static struct ex_proc q;
	struct rec_counts c = { 0 };
	int f;

	exw_reset(w);
	proc_write(w, p);
	decode(w, rec);
	if (rec_kind(rec) != REC_PROC)
		fail("not a process record", -1);
	memset(&q, 0, sizeof(q));
	proc_fill(&q, rec, &c);
	if (q.group != p->group)
		fail("group", -1);
	for (f = 0; f < PROC_NFIELDS; f++) {
		if (REC_HAS(p, f) != REC_HAS(&q, f))
			fail("present", f);
		if (REC_HAS(p, f) && p->v[f] != q.v[f])
			fail("value", f);
	}
	if (strcmp(p->command, q.command) != 0)
		fail("command", PROC_COMMAND);
}

static void
sysload_roundtrip(const struct ex_sysload *s, struct exw *w,
    struct ex_rec *rec)
{
	struct ex_sysload t;
	struct rec_counts c = { 0 };
	int f;

	exw_reset(w);
	sysload_write(w, s);
	decode(w, rec);
	if (rec_kind(rec) != REC_SYSLOAD)
		fail("not a system record", -1);
	memset(&t, 0, sizeof(t));
	sysload_fill(&t, rec, &c);
	for (f = 0; f < SYS_NFIELDS; f++) {
		if (REC_HAS(s, f) != REC_HAS(&t, f))
			fail("sysload present", f);
		if (REC_HAS(s, f) && s->v[f] != t.v[f])
			fail("sysload value", f);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct exw w;
	static struct ex_rec rec;
	static struct ex_proc p;
	static int ready;
	struct procfs pf = { "/proc", 100, 1700000000, 1700000000ull *
	    1000000000, 2, 4 };
	struct ex_sysload s;
	char *text[4] = { NULL };
	size_t at = 0, n;
	uint64_t btime;
	int i;

	if (!ready) {
		exw_init(&w);
		ready = 1;
	}
	/* Each file in a buffer of its own size, NUL-terminated. */
	for (i = 0; i < 4 && at <= size; i++) {
		const uint8_t *end = memchr(data + at, '\0', size - at);

		n = end != NULL ? (size_t)(end - (data + at)) : size - at;
		if ((text[i] = malloc(n + 1)) == NULL)
			abort();
		memcpy(text[i], data + at, n);
		text[i][n] = '\0';
		at += n + 1;
		if (end == NULL)
			break;
	}
	if (text[0] != NULL &&
	    procfs_parse_stat(&pf, "4242", text[0], NOW_NS, &p) == 0) {
		if (text[1] != NULL)
			procfs_parse_status(text[1], &p);
		if (text[2] != NULL)
			procfs_parse_io(text[2], &p);
		proc_roundtrip(&p, &w, &rec);
	}
	if (text[3] != NULL) {
		(void)procfs_parse_btime(text[3], &btime);
		if (procfs_parse_cpu(&pf, text[3], NOW_NS, &s) == 0)
			sysload_roundtrip(&s, &w, &rec);
	}
	for (i = 0; i < 4; i++)
		free(text[i]);
	return 0;
}
