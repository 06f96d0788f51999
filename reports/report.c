/*
 * The usage report (see report.h): report_query.c fetches the rows,
 * report_table.c, report_csv.c and report_json.c print them.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "fmt.h"
#include "report_int.h"

const char *const report_by_names[] = {
	"user", "command", "project", "zone", "host", "hour"
};

const char *const report_key_names[] = {
	[BY_USER] = "uid", [BY_COMMAND] = "command", [BY_PROJECT] = "projid",
	[BY_ZONE] = "zone", [BY_HOST] = "host", [BY_HOUR] = "hour_start",
};

int
report_print(FILE *fp, const struct report_opts *o,
    const struct report_row *rows, size_t n, struct ex_err *err)
{
	char from[40], to[40];
	__int128 cpu_total = 0;
	size_t i;

	for (i = 0; i < n; i++)
		cpu_total += rows[i].user_ns + rows[i].sys_ns;
	switch (o->format) {
	case FMT_TABLE:
		fprintf(fp, "# usage by %s, ", report_by_names[o->by]);
		if (o->from_ns == INT64_MIN)
			fputs("from the start", fp);
		else
			fprintf(fp, "from %s", fmt_datetime(from, sizeof(from),
			    o->from_ns / 1000000000));
		if (o->to_ns == INT64_MAX)
			fputs(" to the end", fp);
		else
			fprintf(fp, " to %s", fmt_datetime(to, sizeof(to),
			    o->to_ns / 1000000000));
		fputs("; time zone ", fp);
		fmt_escape_fp(fp, o->tz, 0);
		fputc('\n', fp);
		report_table(fp, o, rows, n, cpu_total);
		break;
	case FMT_CSV:
		report_csv(fp, o, rows, n);
		break;
	case FMT_JSON:
		report_json(fp, o, rows, n);
		break;
	}
	return ferror(fp) ? ex_fail(err, EXR_IO, 0, "write error") : EXR_OK;
}

int
report_run(struct rdb *db, FILE *fp, const struct report_opts *o,
    struct ex_err *err)
{
	struct report_row *rows;
	size_t n;
	int rc;

	if ((rc = report_query(db, o, &rows, &n, err)) != EXR_OK)
		return rc;
	rc = report_print(fp, o, rows, n, err);
	free(rows);
	return rc;
}
