/*
 * Helpers of every part of extract/ (util.h): messages in the house
 * format, strict numbers, this machine's name, where a database goes.
 *
 * Every message line goes out through vsay(), which escapes the whole
 * line as text output escapes a command name (fmt.h): file names,
 * configuration values and reasons quoting input can hold terminal
 * escapes, and no byte of them reaches a terminal or a log raw.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../reports/fmt.h"
#include "util.h"

void
local_hostname(char *buf, size_t n)
{
	if (gethostname(buf, n) != 0)
		snprintf(buf, n, "unknown");
	buf[n - 1] = '\0';
}

void
report_err(const struct ex_err *err)
{
	if (err->path != NULL)
		say(stderr, "extracct: %s: offset %llu: %s", err->path,
		    (unsigned long long)err->off, err->reason);
	else
		say(stderr, "extracct: %s", err->reason);
}

int
complain(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(stderr, "extracct: ", fmt, ap);
	va_end(ap);
	return code;
}

void
say(FILE *fp, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fp, "", fmt, ap);
	va_end(ap);
}

void
vsay(FILE *fp, const char *prefix, const char *fmt, va_list ap)
{
	char buf[1024], *p = buf;
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(buf, sizeof(buf), fmt, aq);
	va_end(aq);
	/* A long message (a long path) whole if memory allows, else cut. */
	if (n >= (int)sizeof(buf) && (p = malloc((size_t)n + 1)) != NULL)
		vsnprintf(p, (size_t)n + 1, fmt, ap);
	else if (n < 0)
		snprintf(buf, sizeof(buf), "(message lost: %s)",
		    strerror(errno));
	if (p == NULL)
		p = buf;
	fputs(prefix, fp);
	fmt_escape_fp(fp, p, 0);
	putc('\n', fp);
	if (p != buf)
		free(p);
}

int
parse_u64(const char *flag, const char *s, uint64_t min, uint64_t max,
    uint64_t *out)
{
	unsigned long long v;
	const char *digits = s;
	char *end;
	int base = 10;

	/* Decimal, or hex with 0x; never octal (a leading 0 is decimal). */
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		digits = s + 2;
		base = 16;
	}
	if (s[0] == '-' && isdigit((unsigned char)s[1]))
		return complain(EXR_USAGE, "%s '%s': too small (at least %llu, "
		    "no sign)", flag, s, (unsigned long long)min);
	if (!isxdigit((unsigned char)digits[0]))
		return complain(EXR_USAGE, "%s '%s': not a number", flag, s);
	errno = 0;
	v = strtoull(digits, &end, base);
	if (*end != '\0')
		return complain(EXR_USAGE, "%s '%s': not a number", flag, s);
	if (errno == ERANGE || v > max)
		return complain(EXR_USAGE, "%s '%s': too large (at most %llu)",
		    flag, s, (unsigned long long)max);
	if (v < min)
		return complain(EXR_USAGE, "%s '%s': too small (at least %llu)",
		    flag, s, (unsigned long long)min);
	*out = v;
	return EXR_OK;
}

int
db_locate(const char *db)
{
	char dir[4096], *slash;
	struct stat st;

	if (stat(db, &st) == 0 || errno != ENOENT)
		return EXR_OK;	/* there, or the open tells what is amiss */
	snprintf(dir, sizeof(dir), "%s", db);
	if ((slash = strrchr(dir, '/')) == NULL)
		return EXR_OK;	/* the current directory */
	if (slash == dir)
		slash[1] = '\0';	/* "/x.db": in "/" */
	else
		*slash = '\0';
	if (stat(dir, &st) == -1 && errno == ENOENT)
		return complain(EXR_DB, "%s: directory %s does not exist "
		    "(create it, or name another database with --db FILE, or "
		    "database: in the configuration)", db, dir);
	return EXR_OK;
}
