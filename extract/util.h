/*
 * util: what every part of extract/ uses (the commands, spool/ and
 * linux/ alike): messages in the house format, strict numbers, this
 * machine's name.  It uses nothing of theirs.
 */
#ifndef UTIL_H
#define UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../parsers/exerr.h"

/* This machine's name (gethostname), or "unknown". */
void	local_hostname(char *buf, size_t n);

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
