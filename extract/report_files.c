/*
 * report FILE... (see report_files.h): the logs walked (walk.c), their
 * exit records added up (reports/summary.c), printed as a report is.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../parsers/sniff.h"
#include "../reports/summary.h"
#include "report_files.h"
#include "util.h"
#include "walk.h"

/* Log files given: totals of their exit records, no database. */
struct from_files {
	struct summary	 sum;
	char		 host[256];	/* the current file's */
	int		 rc;
};

static int
file_item(void *arg, const struct reader *r, const struct reader_item *it)
{
	struct from_files *f = arg;

	(void)r;
	switch (it->kind) {
	case REC_HEADER:
		/* A log's header names its host; pacct names none. */
		if (it->u.header.has_hostname)
			snprintf(f->host, sizeof(f->host), "%s",
			    it->u.header.hostname);
		return EXR_OK;
	case REC_PROC:
		return summary_add(&f->sum, &it->u.proc, f->host);
	default:
		return EXR_OK;
	}
}

static int
totals(int argc, char **argv, const struct report_opts *o)
{
	static struct from_files f;
	struct walk_ops ops = { file_item, NULL, NULL, NULL,
	    READER_NO_STREAMS };
	struct ex_err err = { 0 };
	struct report_opts fo = *o;
	int i, rc, status = EXR_OK;

	fo.files = 1;

	summary_init(&f.sum, o->by, o->from_ns, o->to_ns);
	for (i = 0; i < argc; i++) {
		/* pacct names no host: it is this one's, presumably. */
		if (gethostname(f.host, sizeof(f.host)) != 0)
			snprintf(f.host, sizeof(f.host), "unknown");
		f.host[sizeof(f.host) - 1] = '\0';
		rc = walk_file(argv[i], &ops, &f, NULL);
		status = ex_worst(status, rc);
		if (rc == EXR_NOMEM)
			break;
	}
	summary_sort(&f.sum);
	rc = report_print(stdout, &fo, f.sum.rows, f.sum.n, &err);
	if (rc != EXR_OK)
		complain(rc, "%s", err.reason);
	summary_release(&f.sum);
	return ex_worst(status, rc);
}

/*
 * A FILE operand must be a log: a stray word ("report --by user today")
 * would otherwise be read as a log, found missing, and give an empty
 * table and exit 3.  Refused here, before any output: EXR_USAGE after a
 * message, or EXR_OK.  An empty log, and damage inside one, are still
 * the reader's to report (exit 1); a file that cannot be read, too.
 */
static int
operand_check(const char *path)
{
	struct ex_err err = { 0 };
	enum input_kind kind;
	struct stat st;

	if (strcmp(path, "-") == 0)
		return EXR_OK;
	if (stat(path, &st) == -1)
		return errno == ENOENT ? complain(EXR_USAGE, "report: FILE "
		    "mode takes log files; '%s' does not exist", path) :
		    EXR_OK;
	if (!S_ISREG(st.st_mode))
		return complain(EXR_USAGE, "report: FILE mode takes log files; "
		    "'%s' is not a regular file", path);
	if (st.st_size == 0 || sniff_file(path, &kind, &err) == EXR_IO)
		return EXR_OK;
	if (kind == INPUT_REFUSED)
		return complain(EXR_USAGE, "report: FILE mode takes log files; "
		    "'%s' is not one: %s", path, err.reason);
	if (kind == INPUT_STREAM)
		return complain(EXR_USAGE, "report: FILE mode takes exacct and "
		    "pacct logs; '%s' is a metric-provider stream (ingest it, "
		    "then report --energy)", path);
	return EXR_OK;
}

int
report_files(int n, char **paths, const struct report_opts *o)
{
	int i;

	for (i = 0; i < n; i++)
		if (operand_check(paths[i]) != EXR_OK)
			return EXR_USAGE;
	return totals(n, paths, o);
}
