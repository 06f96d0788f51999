/*
 * The error record: formatting, and the table of result codes
 * (EX_RESULTS) read three ways: meaning, exit status, rank.
 */
#include <stdarg.h>
#include <stdio.h>

#include "exerr.h"

int
ex_fail_at(struct ex_err *err, int code, uint64_t off, int line,
    const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return code;
	err->code = code;
	err->off = off;
	err->src_line = line;
	err->sys_errno = 0;
	va_start(ap, fmt);
	vsnprintf(err->reason, sizeof(err->reason), fmt, ap);
	va_end(ap);
	return code;
}

static const struct {
	int		 status, rank;
	const char	*meaning;
} results[] = {
#define EX_RESULT_ROW(code, status, rank, meaning) \
	[code] = { status, rank, meaning },
	EX_RESULTS(EX_RESULT_ROW)
#undef EX_RESULT_ROW
};

const char *
ex_strcode(int code)
{
	if (code < 0 || code >= EXR_NCODES)
		return "unknown error";
	return results[code].meaning;
}

int
ex_exit_status(int code)
{
	if (code < 0 || code >= EXR_NCODES)
		return 3;
	return results[code].status;
}

int
ex_worst(int a, int b)
{
	int ra = a == EXR_EOF ? EXR_OK : a, rb = b == EXR_EOF ? EXR_OK : b;
	/* A code not in the table counts as a runtime failure. */
	int ka = results[ra >= 0 && ra < EXR_NCODES ? ra : EXR_IO].rank;
	int kb = results[rb >= 0 && rb < EXR_NCODES ? rb : EXR_IO].rank;

	if (ka != kb)
		return ka > kb ? ra : rb;
	return ra != EXR_OK ? ra : rb;
}
