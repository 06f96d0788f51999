/*
 * The usage report as JSON: one object, the key and zone named, a row
 * object per key.
 */
#include <inttypes.h>

#include "fmt.h"
#include "report_int.h"

void
report_json(FILE *fp, const struct report_opts *o, const struct report_row *r,
    size_t n)
{
	char u[48], s[48], re[48], ch[48];
	size_t i;

	fprintf(fp, "{\"by\": \"%s\", \"tz\": ", report_by_names[o->by]);
	json_str(fp, o->tz);
	fputs(", \"rows\": [", fp);
	for (i = 0; i < n; i++) {
		fmt_secs128(u, sizeof(u), r[i].user_ns);
		fmt_secs128(s, sizeof(s), r[i].sys_ns);
		fmt_secs128(re, sizeof(re), r[i].real_ns);
		fprintf(fp, "%s\n  {\"%s\": ", i > 0 ? "," : "",
		    report_key_names[o->by]);
		json_str(fp, r[i].key);
		if (o->by == BY_HOUR)
			fprintf(fp, ", \"hour_start_epoch_s\": %" PRId64,
			    r[i].hour_epoch);
		fprintf(fp, ", \"calls\": %" PRId64 ", \"cpu_user_s\": %s, "
		    "\"cpu_sys_s\": %s, \"real_s\": %s, \"chars_rdwr_bytes\": "
		    "%s, \"rss_max_kb\": %" PRId64 ", \"faults_major\": %"
		    PRId64 ", \"syscalls\": %" PRId64 "}", r[i].calls, u, s, re,
		    fmt_int128(ch, sizeof(ch), r[i].chars), r[i].rss_max_kb,
		    r[i].faults_major, r[i].syscalls);
	}
	fputs("\n]}\n", fp);
}
