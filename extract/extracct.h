/*
 * The command layer: one cmd_<name>() per command (extract/cmd_*.c),
 * dispatched from the table in main.c.  Commands parse their own options,
 * print to stdout/stderr, and return an EXR_* code; only main() turns it
 * into an exit status (design.md §8) and exits.
 */
#ifndef EXTRACCT_H
#define EXTRACCT_H

#include <sys/types.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "../parsers/exerr.h"
#include "rotate.h"		/* for the test helper, which drives it */

struct cmddoc;
struct config;

/* Shared state handed to every command. */
struct ctx {
	const char	*progname;	/* "extracct" */
	const struct config *cfg;	/* defaults for options; never NULL */
};

int	cmd_dump(int argc, char **argv, struct ctx *ctx);
int	cmd_text(int argc, char **argv, struct ctx *ctx);
int	cmd_check(int argc, char **argv, struct ctx *ctx);
int	cmd_gen(int argc, char **argv, struct ctx *ctx);
int	cmd_ingest(int argc, char **argv, struct ctx *ctx);
int	cmd_report(int argc, char **argv, struct ctx *ctx);
int	cmd_snap(int argc, char **argv, struct ctx *ctx);
int	cmd_rotate(int argc, char **argv, struct ctx *ctx);
int	cmd_run(int argc, char **argv, struct ctx *ctx);
int	cmd_config(int argc, char **argv, struct ctx *ctx);
int	cmd_acctd(int argc, char **argv, struct ctx *ctx);
int	cmd_merge(int argc, char **argv, struct ctx *ctx);
int	cmd_push(int argc, char **argv, struct ctx *ctx);

/*
 * Push the database db to the central server to (cmd_push.c; run calls
 * it too), saying what it sent or why not.  allow_password: to came
 * from a configuration file only its owner can read.  EXR_OK,
 * EXR_CENTRAL (the server), EXR_NOPG (no libpq in this build), ...
 */
int	push_run(const char *db, const char *to, int allow_password);
int	cmd_rollup(int argc, char **argv, struct ctx *ctx);

/* Each command's options, usage line and --help (cmdopt.h), beside it. */
extern const struct cmddoc cmd_dump_doc, cmd_text_doc, cmd_check_doc,
    cmd_gen_doc, cmd_ingest_doc, cmd_report_doc, cmd_snap_doc,
    cmd_rotate_doc, cmd_run_doc, cmd_config_doc, cmd_acctd_doc,
    cmd_merge_doc, cmd_push_doc, cmd_rollup_doc;

/* How long ingest and run wait for another writer of the database. */
#define DB_WAIT_DEFAULT_S	600

/* --wait SECONDS: into *wait_s (ingest, run; in ingest_logs.c); EXR_OK
 * or EXR_USAGE. */
int	parse_wait(const char *arg, uint64_t *wait_s);

/* This machine's name (gethostname), or "unknown". */
void	local_hostname(char *buf, size_t n);

/* The configured host name, else this machine's. */
void	config_hostname(const struct ctx *ctx, char *buf, size_t n);

/*
 * Append one encoded record with one write(2) (retried only for EINTR),
 * so a reader of the O_APPEND log never sees half of it.  EXR_OK or
 * EXR_IO (errno set).
 */
struct exw;
int	write_record(int fd, const struct exw *w);

/*
 * Append one encoded record whole or not at all: the rest of a short
 * write is written, and if that fails (a full disk, the file size
 * limit) what was written is cut off again (ftruncate to *end), so the
 * log still ends at a record boundary.  *end is the file's size before,
 * and after on success; the caller must be the only one appending (snap
 * holds the log's lock).  EXR_OK or EXR_IO (errno set).
 */
int	append_record(int fd, const struct exw *w, uint64_t *end);

/*
 * Before ingest or run creates a database: the default is the same
 * everywhere (the configuration's database), so where its directory is
 * missing, say how to choose another (report's db_open_readonly says
 * so of a missing database).  EXR_OK, or EXR_DB after a message naming
 * the path.
 */
int	db_locate(const char *db);

/* "extracct: <path>: offset <n>: <reason>" on stderr. */
void	report_err(const struct ex_err *err);

/* "extracct: <cmd>: <message>" on stderr; returns code. */
int	complain(int code, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/*
 * One message line on fp (a newline is added): prefix, then fmt's text
 * with control bytes, bytes >= 0x7f and backslashes as \ooo, so that a
 * hostile file name or value cannot drive the terminal or forge a line.
 */
void	say(FILE *fp, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
void	vsay(FILE *fp, const char *prefix, const char *fmt, va_list ap)
	    __attribute__((format(printf, 3, 0)));

/*
 * Strict unsigned parse: decimal (or 0x hex), no sign, no junk, in
 * [min, max].  On failure prints "<flag> <s>: <why>" and returns
 * EXR_USAGE.
 */
int	parse_u64(const char *flag, const char *s, uint64_t min, uint64_t max,
	    uint64_t *out);

#endif
