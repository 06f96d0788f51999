/*
 * The central store's pure parts (fleet/): the month of a time, which
 * names and bounds a partition, and the connection-string check that
 * keeps passwords off command lines.  Built with libpq only.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

#ifdef HAVE_LIBPQ
#include "../../fleet/central_schema.h"
#include "../../fleet/pgconn.h"

#define NS	INT64_C(1000000000)

/* t_ns's month is y-m, [from, to) in ns since the epoch. */
static int
month_is(int64_t t_ns, int y, int m, int64_t from_s, int64_t to_s)
{
	int64_t from, to;
	int yy, mm;

	central_month(t_ns, &from, &to, &yy, &mm);
	return yy == y && mm == m && from == from_s * NS && to == to_s * NS;
}

void
suite_fleet(void)
{
	char why[200];

	/* 2026-11-15 12:00 UTC; 2026-11-01 and 2026-12-01. */
	CHECK("a month", month_is(1794744000 * NS, 2026, 11, 1793491200,
	    1796083200));
	/* Its first and last nanosecond. */
	CHECK("first ns", month_is(1793491200 * NS, 2026, 11, 1793491200,
	    1796083200));
	CHECK("last ns", month_is(1796083200 * NS - 1, 2026, 11, 1793491200,
	    1796083200));
	/* A leap February: 2024-02-29 ends on 2024-03-01. */
	CHECK("leap february", month_is(1709164800 * NS, 2024, 2, 1706745600,
	    1709251200));
	/* December into the next year. */
	CHECK("december", month_is(1703980800 * NS, 2023, 12, 1701388800,
	    1704067200));
	/* Before the epoch: 1969-12-31 23:59:59.999999999. */
	CHECK("before the epoch", month_is(-1, 1969, 12, -2678400, 0));
	CHECK("the epoch", month_is(0, 1970, 1, 0, 2678400));

	/* Out of range (before 1970, from 2200 on): the default partition. */
	{
		char name[96];

		central_partition_name(name, sizeof(name), "t", 0);
		CHECK("1970-01: a month's", strcmp(name, "t_1970_01") == 0);
		central_partition_name(name, sizeof(name), "t",
		    7258118400 * NS - 1);
		CHECK("2199-12: a month's", strcmp(name, "t_2199_12") == 0);
		central_partition_name(name, sizeof(name), "t", 7258118400 * NS);
		CHECK("2200-01: the default", strcmp(name, "t_default") == 0);
		central_partition_name(name, sizeof(name), "t", -1);
		CHECK("1969-12: the default", strcmp(name, "t_default") == 0);
	}

	CHECK("no password", pg_conninfo_check("host=/tmp dbname=x", 0, why,
	    sizeof(why)) == 0);
	CHECK("empty: libpq's environment", pg_conninfo_check("", 0, why,
	    sizeof(why)) == 0);
	CHECK("a password", pg_conninfo_check("host=h password=s", 0, why,
	    sizeof(why)) == -1 && strstr(why, "password") != NULL);
	CHECK("a password in a URI", pg_conninfo_check(
	    "postgresql://u:secret@h/db", 0, why, sizeof(why)) == -1);
	CHECK("a URI without one", pg_conninfo_check("postgresql://u@h/db", 0,
	    why, sizeof(why)) == 0);
	CHECK("a password allowed", pg_conninfo_check("host=h password=s", 1,
	    why, sizeof(why)) == 0);
	CHECK("unparsable", pg_conninfo_check("host='x", 0, why,
	    sizeof(why)) == -1 && strncmp(why, "cannot be parsed: ", 18) == 0);
	CHECK("an unknown keyword", pg_conninfo_check("nokey=1", 1, why,
	    sizeof(why)) == -1);
}
#else
void
suite_fleet(void)
{
}
#endif
