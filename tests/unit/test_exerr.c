/*
 * The result codes' table: every code has a meaning and an exit status,
 * and of several codes the gravest is kept, whatever their order.
 */
#include <string.h>

#include "../../parsers/exerr.h"
#include "check.h"

void
suite_exerr(void)
{
	static const int order[] = {	/* least grave first */
		EXR_OK, EXR_DAMAGED, EXR_BUSY, EXR_CENTRAL, EXR_NOPG,
		EXR_USAGE, EXR_DB
	};
	size_t i, j;
	int c;

	for (c = 0; c < EXR_NCODES; c++)
		CHECK("every code has a meaning",
		    strcmp(ex_strcode(c), "unknown error") != 0);
	CHECK("unknown code", strcmp(ex_strcode(EXR_NCODES),
	    "unknown error") == 0 && ex_exit_status(EXR_NCODES) == 3);
	CHECK("central", ex_exit_status(EXR_CENTRAL) == 5 &&
	    strcmp(ex_strcode(EXR_CENTRAL), "the central server failed") == 0);
	CHECK("no PostgreSQL", ex_exit_status(EXR_NOPG) == 6);
	CHECK("busy", ex_exit_status(EXR_BUSY) == 4);
	CHECK("eof is success", ex_exit_status(EXR_EOF) == 0 &&
	    ex_worst(EXR_EOF, EXR_OK) == EXR_OK);
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		for (j = 0; j < sizeof(order) / sizeof(order[0]); j++) {
			int want = order[i > j ? i : j];

			CHECK("the gravest of two", ex_worst(order[i],
			    order[j]) == want);
		}
	CHECK("a runtime failure outranks central's", ex_worst(EXR_CENTRAL,
	    EXR_IO) == EXR_IO && ex_worst(EXR_IO, EXR_CENTRAL) == EXR_IO);
	CHECK("a tie keeps the first", ex_worst(EXR_IO, EXR_DB) == EXR_IO);
}
