/*
 * The error record: formatting and the code-to-exit-status map.
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

const char *
ex_strcode(int code)
{
	switch (code) {
	case EXR_OK:		return "ok";
	case EXR_DAMAGED:	return "damaged input";
	case EXR_USAGE:		return "usage error";
	case EXR_IO:		return "i/o error";
	case EXR_DB:		return "database error";
	case EXR_NOMEM:		return "out of memory";
	case EXR_LOCKED:	return "locked by another run";
	case EXR_BUSY:		return "database busy with another writer";
	case EXR_EOF:		return "end of input";
	}
	return "unknown error";
}

int
ex_exit_status(int code)
{
	switch (code) {
	case EXR_OK:
	case EXR_EOF:
		return 0;
	case EXR_DAMAGED:
		return 1;
	case EXR_USAGE:
		return 2;
	case EXR_BUSY:
		return 4;
	case EXR_CENTRAL:
		return 5;
	case EXR_NOPG:
		return 6;
	default:
		return 3;
	}
}
