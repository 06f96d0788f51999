/*
 * The usage report as CSV (csv.h's rules): one row per key, the zone in
 * every row, hours as local text, UTC and epoch seconds.
 */
#include <inttypes.h>

#include "csv.h"
#include "fmt.h"
#include "report_int.h"

void
report_csv(FILE *fp, const struct report_opts *o, const struct report_row *r,
    size_t n)
{
	char u[48], s[48], re[48], ch[48], utc[40];
	size_t i;

	if (o->by == BY_HOUR)
		fputs("hour_start_local,hour_start_utc,hour_start_epoch_s,", fp);
	else
		fprintf(fp, "%s,", report_key_names[o->by]);
	fputs("tz,calls,cpu_user_s,cpu_sys_s,real_s,chars_rdwr_bytes,"
	    "rss_max_kb,faults_major,syscalls\r\n", fp);
	for (i = 0; i < n; i++) {
		fmt_secs128(u, sizeof(u), r[i].user_ns);
		fmt_secs128(s, sizeof(s), r[i].sys_ns);
		fmt_secs128(re, sizeof(re), r[i].real_ns);
		csv_text(fp, r[i].key);
		if (o->by == BY_HOUR)
			fprintf(fp, ",%s,%" PRId64, csv_utc(utc, sizeof(utc),
			    r[i].hour_epoch), r[i].hour_epoch);
		fputc(',', fp);
		csv_text(fp, o->tz);
		fprintf(fp, ",%" PRId64 ",%s,%s,%s,%s,%" PRId64 ",%" PRId64
		    ",%" PRId64 "\r\n", r[i].calls, u, s, re,
		    fmt_int128(ch, sizeof(ch), r[i].chars), r[i].rss_max_kb,
		    r[i].faults_major, r[i].syscalls);
	}
}
