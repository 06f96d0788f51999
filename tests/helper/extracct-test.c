/*
 * extracct-test: a test-only tool exposing internals to the shell tests,
 * like git's test-tool.  Built by "make check" only.
 *
 *   extracct-test encode SPEC OUT     write exacct bytes from a text spec
 *   extracct-test roundtrip IN OUT    decode every object, encode it again
 *   extracct-test offsets IN          "offset length tag" per top-level object
 *   extracct-test split IN N PREFIX   N files PREFIX.1..N: the header, then
 *                                     consecutive runs of the records
 *   extracct-test spool-name KIND HOST EPOCH   the spool's name for a log
 *   extracct-test finals IN           "pid|start_ns|counters..." for each
 *                                     final process record (absent: empty);
 *                                     "taskid|start_ns|..." for tasks
 *   extracct-test fields FILE         read FILE, sleep, burn 300 ms, print
 *                                     "pid user_us sys_us", exit 3
 *   extracct-test threads N MS        N threads and main burn MS ms each
 *   extracct-test spin S              alive S seconds, busy a quarter
 *   extracct-test hold-db DB S        take DB's writer lock, say "held",
 *                                     keep it S seconds
 *   extracct-test rotate KERNEL EPOCH SPOOL PACCT [leave|manage|start]
 *                                     rotate's Linux path at time EPOCH,
 *                                     with a stand-in kernel: KERNEL holds
 *                                     the file accounting writes to (acct
 *                                     puts it there; empty: off), and each
 *                                     exit appends a pacct v3 record to it;
 *                                     manage: pacct: manage, start: --start
 *   extracct-test run KERNEL CONFIG|- [OPTION...]
 *                                     extracct run with that kernel
 *   extracct-test schema DB N         make DB (or bring it) to schema
 *                                     version N, no further: a database
 *                                     as an older extracct left it
 *
 * Spec lines (one object each; '#' starts a comment):
 *   header kernel|library CREATOR HOSTNAME   (rest of the line; \xNN)
 *   group TAG            ... end
 *   object TAG           ... end     (an EXACCT_OBJECT of the objects inside)
 *   uint TAG VALUE                   (width from the type in TAG)
 *   double TAG VALUE
 *   string TAG TEXT                  (rest of the line; \xNN escapes)
 *   raw TAG HEXBYTES
 * TAG is the full 32-bit catalog tag in hex, e.g. 0x30001000.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../parsers/exacct.h"
#include "../../parsers/records.h"
#include "../../extract/cmd.h"
#include "../../extract/config.h"
#include "../../extract/spool/rotate.h"
#include "../../extract/spool/spool.h"
#include "../../extract/util.h"
#include "../../store/db.h"
#include "../../store/dblock.h"
#include "workload.h"

struct spec {
	FILE		*fp;
	const char	*path;
	unsigned long	 line;
	char		*buf;
	size_t		 cap;
};

static int	encode_until_end(struct spec *s, struct exw *w, int nested);

static int
fail(struct spec *s, const char *why)
{
	fprintf(stderr, "extracct-test: %s:%lu: %s\n", s->path, s->line, why);
	return -1;
}

static int
parse_tag(const char *word, uint32_t *tag)
{
	char *end;
	unsigned long v;

	if (word == NULL)
		return -1;
	errno = 0;
	v = strtoul(word, &end, 16);
	if (errno != 0 || *end != '\0' || v > 0xffffffffUL)
		return -1;
	*tag = (uint32_t)v;
	return 0;
}

/* Decode \xNN escapes in place; returns the length. */
static size_t
unescape(char *s)
{
	size_t i, o = 0;

	for (i = 0; s[i] != '\0'; i++) {
		if (s[i] == '\\' && s[i + 1] == 'x' && s[i + 2] != '\0' &&
		    s[i + 3] != '\0') {
			char hex[3] = { s[i + 2], s[i + 3], '\0' };

			s[o++] = (char)strtoul(hex, NULL, 16);
			i += 3;
		} else
			s[o++] = s[i];
	}
	s[o] = '\0';
	return o;
}

static int
encode_line(struct spec *s, struct exw *w, char *line, int *ended)
{
	char *kw, *tagw, *rest;
	uint32_t tag;

	line[strcspn(line, "\n")] = '\0';
	kw = line + strspn(line, " \t");
	if (*kw == '\0' || *kw == '#')
		return 0;
	tagw = kw + strcspn(kw, " \t");
	if (*tagw != '\0')
		*tagw++ = '\0';
	tagw += strspn(tagw, " \t");
	rest = tagw + strcspn(tagw, " \t");
	if (*rest != '\0')
		*rest++ = '\0';

	if (strcmp(kw, "end") == 0) {
		*ended = 1;
		return 0;
	}
	if (strcmp(kw, "header") == 0) {
		char *creator = rest, *host = rest + strcspn(rest, " \t");

		if (*host != '\0')
			*host++ = '\0';
		unescape(host);
		exw_header(w, creator, *host != '\0' ? host : NULL,
		    strcmp(tagw, "library") == 0 ? EXW_HEADER_LIBRARY :
		    EXW_HEADER_KERNEL);
		return 0;
	}
	if (parse_tag(tagw, &tag) != 0)
		return fail(s, "bad tag");
	if (strcmp(kw, "group") == 0) {
		exw_group_begin(w, tag);
		if (encode_until_end(s, w, 1) != 0)
			return -1;
		exw_group_end(w, 0);
	} else if (strcmp(kw, "object") == 0) {
		struct exw sub;
		int rc;

		exw_init(&sub);
		rc = encode_until_end(s, &sub, 1);
		if (rc == 0)
			exw_bytes(w, tag, sub.buf, sub.len);
		exw_release(&sub);
		return rc;
	} else if (strcmp(kw, "uint") == 0) {
		exw_uint(w, tag, strtoull(rest, NULL, 0));
	} else if (strcmp(kw, "double") == 0) {
		exw_double(w, tag, strtod(rest, NULL));
	} else if (strcmp(kw, "string") == 0) {
		size_t n = unescape(rest);

		exw_bytes(w, tag, rest, n + 1);
	} else if (strcmp(kw, "raw") == 0) {
		uint8_t bytes[4096];
		size_t n = 0;
		char *p = rest;

		while (*p != '\0' && n < sizeof(bytes)) {
			char hex[3];

			p += strspn(p, " \t:");
			if (p[0] == '\0' || p[1] == '\0')
				break;
			hex[0] = p[0];
			hex[1] = p[1];
			hex[2] = '\0';
			bytes[n++] = (uint8_t)strtoul(hex, NULL, 16);
			p += 2;
		}
		exw_bytes(w, tag, bytes, n);
	} else
		return fail(s, "unknown keyword");
	return exw_error(w) == EXR_USAGE && w->depth == 0 ?
	    fail(s, "writer refused the object") : 0;
}

static int
encode_until_end(struct spec *s, struct exw *w, int nested)
{
	int ended = 0;

	while (getline(&s->buf, &s->cap, s->fp) != -1) {
		s->line++;
		if (encode_line(s, w, s->buf, &ended) != 0)
			return -1;
		if (ended)
			return nested ? 0 : fail(s, "'end' without a group");
	}
	return nested ? fail(s, "missing 'end'") : 0;
}

static int
write_file(const char *path, const uint8_t *p, size_t n)
{
	FILE *fp = fopen(path, "wbe");

	if (fp == NULL || fwrite(p, 1, n, fp) != n || fclose(fp) != 0) {
		fprintf(stderr, "extracct-test: %s: %s\n", path,
		    strerror(errno));
		return 1;
	}
	return 0;
}

static int
cmd_encode(const char *in, const char *out)
{
	struct spec s = { NULL, in, 0, NULL, 0 };
	struct exw w;
	int rc = 1;

	if ((s.fp = fopen(in, "re")) == NULL) {
		fprintf(stderr, "extracct-test: %s: %s\n", in, strerror(errno));
		return 1;
	}
	exw_init(&w);
	if (encode_until_end(&s, &w, 0) == 0) {
		if (exw_error(&w) != EXR_OK)
			fprintf(stderr, "extracct-test: %s: writer error %d\n",
			    in, exw_error(&w));
		else
			rc = write_file(out, w.buf, w.len);
	}
	exw_release(&w);
	free(s.buf);
	fclose(s.fp);
	return rc;
}

static int
cmd_roundtrip(const char *in, const char *out)
{
	struct exacct_reader r;
	struct ex_err err = { .path = in };
	const struct ex_rec *rec;
	struct exw w;
	int rc;

	if (exacct_reader_open(&r, in, &err) != EXR_OK) {
		fprintf(stderr, "extracct-test: %s: %s\n", in, err.reason);
		return 1;
	}
	exw_init(&w);
	while ((rc = exacct_next(&r, &rec, &err)) != EXR_EOF) {
		if (rc != EXR_OK) {
			fprintf(stderr, "extracct-test: %s: offset %llu: %s\n",
			    in, (unsigned long long)err.off, err.reason);
			break;
		}
		exw_rec(&w, rec);
	}
	if (rc == EXR_EOF)
		rc = exw_error(&w) == EXR_OK ? write_file(out, w.buf, w.len) :
		    1;
	else
		rc = 1;
	exw_release(&w);
	exacct_reader_release(&r);
	return rc;
}

/* Every top-level object of IN, with a callback; 0 or 1. */
static int
each_object(const char *in, void (*fn)(void *, const struct ex_rec *),
    void *arg)
{
	struct exacct_reader r;
	struct ex_err err = { .path = in };
	const struct ex_rec *rec;
	int rc;

	if (exacct_reader_open(&r, in, &err) != EXR_OK) {
		fprintf(stderr, "extracct-test: %s: %s\n", in, err.reason);
		return 1;
	}
	while ((rc = exacct_next(&r, &rec, &err)) != EXR_EOF)
		if (rc == EXR_OK)
			fn(arg, rec);
	exacct_reader_release(&r);
	return 0;
}

static void
offset_one(void *arg, const struct ex_rec *rec)
{
	(void)arg;
	printf("%llu %llu 0x%08x\n", (unsigned long long)rec->off,
	    (unsigned long long)rec->len, rec->items[0].tag);
}

struct splitter {
	struct exw	 header;
	struct exw	 body;
	size_t		 records, per, part, nparts;
	const char	*prefix;
	int		 rc;
};

static void
split_flush(struct splitter *s)
{
	char path[4096];
	FILE *fp;

	snprintf(path, sizeof(path), "%s.%zu", s->prefix, ++s->part);
	if ((fp = fopen(path, "wbe")) == NULL ||
	    fwrite(s->header.buf, 1, s->header.len, fp) != s->header.len ||
	    fwrite(s->body.buf, 1, s->body.len, fp) != s->body.len ||
	    fclose(fp) != 0)
		s->rc = 1;
	exw_reset(&s->body);
}

static void
split_one(void *arg, const struct ex_rec *rec)
{
	struct splitter *s = arg;

	if (rec_kind(rec) == REC_HEADER) {
		exw_rec(&s->header, rec);
		return;
	}
	exw_rec(&s->body, rec);
	if (++s->records % s->per == 0 && s->part + 1 < s->nparts)
		split_flush(s);
}

static void
count_one(void *arg, const struct ex_rec *rec)
{
	if (rec_kind(rec) != REC_HEADER)
		(*(size_t *)arg)++;
}

static int
cmd_split(const char *in, const char *n, const char *prefix)
{
	struct splitter s;
	size_t total = 0;

	memset(&s, 0, sizeof(s));
	s.nparts = strtoul(n, NULL, 10);
	s.prefix = prefix;
	if (s.nparts == 0 || each_object(in, count_one, &total) != 0)
		return 1;
	s.per = (total + s.nparts - 1) / s.nparts;
	if (s.per == 0)
		s.per = 1;
	exw_init(&s.header);
	exw_init(&s.body);
	if (each_object(in, split_one, &s) != 0)
		s.rc = 1;
	while (s.part < s.nparts)
		split_flush(&s);
	exw_release(&s.header);
	exw_release(&s.body);
	return s.rc;
}

/* "id|start|v[f0]|...|v[f1]", absent values empty. */
static void
print_final(uint64_t id, uint64_t start, uint64_t present,
    const uint64_t *v, int f0, int f1)
{
	int f;

	printf("%llu|%llu", (unsigned long long)id, (unsigned long long)start);
	for (f = f0; f <= f1; f++) {
		if ((present >> f) & 1)
			printf("|%llu", (unsigned long long)v[f]);
		else
			printf("|");
	}
	printf("\n");
}

static void
final_one(void *arg, const struct ex_rec *rec)
{
	struct rec_counts c = { 0 };
	struct ex_proc p;
	struct ex_task t;

	(void)arg;
	if (rec_kind(rec) == REC_TASK && EX_ID(rec->items[0].tag) ==
	    EXD_GROUP_TASK) {
		task_fill(&t, rec, &c);
		print_final(t.v[TASK_TASKID], t.v[TASK_START_NS], t.present,
		    t.v, TASK_CPU_USER_NS, TASK_SYSCALLS);
	} else if (rec_kind(rec) == REC_PROC && EX_ID(rec->items[0].tag) ==
	    EXD_GROUP_PROC) {
		proc_fill(&p, rec, &c);
		print_final(p.v[PROC_PID], p.v[PROC_START_NS], p.present,
		    p.v, PROC_CPU_USER_NS, PROC_SYSCALLS);
	}
}

/*
 * The stand-in kernel of "rotate": the file accounting writes to is
 * named in fake_kernel; every exit appends a record to it, as acct(2)
 * has the kernel do.  No real accounting is touched.
 */
static const char *fake_kernel;
static time_t fake_now;

static int
fake_acct(const char *path)
{
	FILE *fp = fopen(fake_kernel, "w");

	if (fp == NULL)
		return -1;
	fprintf(fp, "%s\n", path);
	return fclose(fp) == 0 ? 0 : -1;
}

static void
put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v & 0xff;
	p[1] = v >> 8 & 0xff;
	p[2] = v >> 16 & 0xff;
	p[3] = v >> 24 & 0xff;
}

static void
fake_exited(pid_t pid)
{
	char file[4096];
	uint8_t rec[64] = { 0 };
	FILE *fp = fopen(fake_kernel, "r");

	if (fp == NULL)
		return;
	if (fgets(file, sizeof(file), fp) == NULL) {
		fclose(fp);
		return;
	}
	fclose(fp);
	file[strcspn(file, "\n")] = '\0';
	rec[1] = 3;				/* v3 */
	put_le32(rec + 16, (uint32_t)pid);
	put_le32(rec + 20, (uint32_t)getpid());
	put_le32(rec + 24, (uint32_t)fake_now);	/* btime */
	memcpy(rec + 48, "probe", 5);		/* comm */
	if ((fp = fopen(file, "r+")) != NULL) {	/* never creates it */
		if (fseek(fp, 0, SEEK_END) != 0 ||
		    fwrite(rec, sizeof(rec), 1, fp) != 1)
			fprintf(stderr, "extracct-test: %s: write failed\n",
			    file);
		fclose(fp);
	}
}

static const struct rotate_kernel fake_k = { fake_acct, fake_exited };

/* MODE: absent or "leave", "manage" (pacct: manage), "start" (--start). */
static int
cmd_rotate_fake(char *argv[], const char *mode)
{
	char host[256];
	int manage = 0;

	fake_kernel = argv[2];
	fake_now = (time_t)strtoll(argv[3], NULL, 10);
	if (mode != NULL && strcmp(mode, "manage") == 0)
		manage = ROTATE_MANAGE;
	else if (mode != NULL && strcmp(mode, "start") == 0)
		manage = ROTATE_MANAGE | ROTATE_START;
	else if (mode != NULL && strcmp(mode, "leave") != 0)
		return 2;
	local_hostname(host, sizeof(host));
	return ex_exit_status(rotate_logs(argv[4], argv[5], host,
	    "/nonexistent/acctadm.conf", "/nonexistent/acctd.pid", fake_now,
	    &fake_k, manage));
}

/*
 * extracct run, configured by CONFIG ("-": the defaults), with rotate's
 * kernel the stand-in: the whole hourly job, no real accounting touched.
 */
static int
cmd_run_fake(int argc, char *argv[])
{
	static struct config cfg;
	struct ctx ctx = { "extracct", &cfg };
	struct ex_err err = { 0 };

	fake_kernel = argv[2];
	fake_now = time(NULL);
	config_defaults(&cfg);
	if (strcmp(argv[3], "-") != 0 &&
	    config_load(&cfg, argv[3], &err) != EXR_OK) {
		fprintf(stderr, "extracct-test: %s\n", err.reason);
		return ex_exit_status(err.code);
	}
	run_kernel = &fake_k;
	argv[3] = (char *)"run";
	return ex_exit_status(cmd_run(argc - 3, argv + 3, &ctx));
}

int
main(int argc, char *argv[])
{
	int rc;

	if ((rc = workload_main(argc, argv)) != -1)
		return rc;
	if (argc == 4 && strcmp(argv[1], "encode") == 0)
		return cmd_encode(argv[2], argv[3]);
	if (argc == 4 && strcmp(argv[1], "roundtrip") == 0)
		return cmd_roundtrip(argv[2], argv[3]);
	if (argc == 3 && strcmp(argv[1], "offsets") == 0)
		return each_object(argv[2], offset_one, NULL);
	if (argc == 5 && strcmp(argv[1], "split") == 0)
		return cmd_split(argv[2], argv[3], argv[4]);
	if (argc == 5 && strcmp(argv[1], "spool-name") == 0) {
		char name[256];

		spool_name(name, sizeof(name), argv[2], argv[3],
		    (time_t)strtoll(argv[4], NULL, 10));
		puts(name);
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "finals") == 0)
		return each_object(argv[2], final_one, NULL);
	if ((argc == 6 || argc == 7) && strcmp(argv[1], "rotate") == 0)
		return cmd_rotate_fake(argv, argc == 7 ? argv[6] : NULL);
	if (argc >= 4 && strcmp(argv[1], "run") == 0)
		return cmd_run_fake(argc, argv);
	if (argc == 4 && strcmp(argv[1], "schema") == 0) {
		struct ex_err err = { 0 };
		sqlite3 *db;

		if (db_open_at(argv[2], atoi(argv[3]), &db, &err) != EXR_OK) {
			fprintf(stderr, "extracct-test: %s\n", err.reason);
			return 1;
		}
		db_close(db);
		return 0;
	}
	if (argc == 4 && strcmp(argv[1], "hold-db") == 0) {
		struct ex_err err = { 0 };
		int fd;

		if (dblock_take(argv[2], 0, &fd, &err) != EXR_OK) {
			fprintf(stderr, "extracct-test: %s\n", err.reason);
			return 1;
		}
		printf("held\n");
		fflush(stdout);
		sleep((unsigned)strtoul(argv[3], NULL, 10));
		dblock_release(fd);
		return 0;
	}
	fprintf(stderr, "usage: extracct-test encode SPEC OUT\n"
	    "       extracct-test roundtrip IN OUT\n"
	    "       extracct-test offsets IN\n"
	    "       extracct-test split IN N PREFIX\n"
	    "       extracct-test finals IN\n"
	    "       extracct-test hold-db DB S\n"
	    "       extracct-test rotate KERNEL EPOCH SPOOL PACCT "
	    "[leave|manage|start]\n"
	    "       extracct-test run KERNEL CONFIG|- [RUN-OPTION...]\n"
	    "       extracct-test schema DB N\n"
	    "       extracct-test fields FILE | threads N MS [MS] | spin S\n"
	    "       extracct-test switches N K S | io FILE N S | "
	    "io-exits FILE N S\n");
	return 2;
}
