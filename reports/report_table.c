/*
 * The usage report as a table for a terminal: keys escaped (spaces too,
 * so columns still split on whitespace), seconds with 3 places.
 */
#include <inttypes.h>

#include "fmt.h"
#include "report_int.h"

/* The table's key column: spaces escaped too, so columns still split. */
static const char *
table_key(char *b, size_t n, const struct report_row *r)
{
	return fmt_escape(b, n, r->key, ESC_SPACE);
}

void
report_table(FILE *fp, const struct report_opts *o,
    const struct report_row *r, size_t n, __int128 cpu_total)
{
	char k[4 * sizeof(r->key)], u[48], s[48], c[48], re[48], pct[48],
	    ch[48];
	size_t i;

	fprintf(fp, "%-24s %8s %12s %12s %12s %12s %6s %16s %12s %10s %12s\n",
	    report_key_names[o->by], "calls", "cpu_user_s", "cpu_sys_s",
	    "cpu_s", "real_s", "cpu%", "chars_rdwr_B", "rss_max_kb", "majflt",
	    "syscalls");
	for (i = 0; i < n; i++) {
		__int128 cpu = r[i].user_ns + r[i].sys_ns;

		fmt_secs128(u, sizeof(u), r[i].user_ns);
		fmt_secs128(s, sizeof(s), r[i].sys_ns);
		fmt_secs128(c, sizeof(c), cpu);
		fmt_secs128(re, sizeof(re), r[i].real_ns);
		fmt_fixed128(pct, sizeof(pct), cpu_total > 0 && cpu > 0 ?
		    (unsigned __int128)cpu * 100 : 0, cpu_total > 0 ?
		    (unsigned __int128)cpu_total : 1, 2);
		fprintf(fp, "%-24s %8" PRId64 " %12s %12s %12s %12s %6s %16s"
		    " %12" PRId64 " %10" PRId64 " %12" PRId64 "\n",
		    table_key(k, sizeof(k), &r[i]), r[i].calls, u, s, c, re,
		    pct, fmt_int128(ch, sizeof(ch), r[i].chars),
		    r[i].rss_max_kb, r[i].faults_major, r[i].syscalls);
	}
}
