/*
 * Metric-provider streams (parsers/stream.c): the line grammar, the
 * reader's framing (blank, long and torn lines), and the normaliser's
 * conventions per provider: start- or end-stamped intervals, the
 * since-boot first line, power times the interval, missing samples,
 * backwards and repeated timestamps.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../parsers/stream.h"
#include "check.h"

static struct stream_line
line(uint64_t ts_us, uint64_t reading)
{
	struct stream_line ln;

	memset(&ln, 0, sizeof(ln));
	ln.ts_us = ts_us;
	ln.reading = reading;
	return ln;
}

#define T0	1700000000000000ull	/* us */
#define MS	1000000ull		/* ns */

static void
reader_checks(void)
{
	static const char text[] =
	    "1700000000000000 5000\n"
	    "\n"
	    "1700000000100000  6000 \r\n"
	    "1700000000200000 12x\n"
	    "1700000000300000 -5\n"
	    "1700000000400000 7 Package_0 extra\n"
	    "1700000000500000 8 Package_0\n"
	    "1700000000600000 9 Pack";
	struct stream_reader r;
	struct stream_line ln;
	struct ex_err err;
	int rc;

	memset(&r, 0, sizeof(r));
	source_init_mem(&r.src, "t", (const uint8_t *)text, strlen(text));
	rc = stream_next(&r, &ln, &err);
	CHECK("line 1", rc == EXR_OK && ln.line == 1 && ln.ts_us == T0 &&
	    ln.reading == 5000 && ln.detail[0] == '\0');
	rc = stream_next(&r, &ln, &err);
	CHECK("blank line skipped, CR and blanks allowed", rc == EXR_OK &&
	    ln.line == 3 && ln.reading == 6000);
	rc = stream_next(&r, &ln, &err);
	CHECK("non-numeric reading", rc == EXR_DAMAGED &&
	    strstr(err.reason, "line 4: the reading is not a whole") != NULL &&
	    r.skip_to - r.skip_from == 21);
	rc = stream_next(&r, &ln, &err);
	CHECK("negative reading", rc == EXR_DAMAGED &&
	    strstr(err.reason, "line 5: the reading is negative") != NULL);
	rc = stream_next(&r, &ln, &err);
	CHECK("four fields", rc == EXR_DAMAGED &&
	    strstr(err.reason, "more than three") != NULL);
	rc = stream_next(&r, &ln, &err);
	CHECK("detail", rc == EXR_OK && strcmp(ln.detail, "Package_0") == 0);
	rc = stream_next(&r, &ln, &err);
	CHECK("torn last line", rc == EXR_DAMAGED && r.torn &&
	    r.skip_to == strlen(text) && strstr(err.reason, "line 8: "
	    "partial last line") != NULL);
	CHECK("then the end", stream_next(&r, &ln, &err) == EXR_EOF);

	memset(&r, 0, sizeof(r));
	source_init_mem(&r.src, "t", (const uint8_t *)text, strlen(text));
	CHECK("seek counts lines", stream_seek(&r, 23, &err) == EXR_OK &&
	    stream_next(&r, &ln, &err) == EXR_OK && ln.line == 3);
	{
		static char longtail[STREAM_MAXLINE + 100];
		static const char big[] = "1700000000000000 9300000000000000000\n";

		memset(longtail, '7', sizeof(longtail) - 1);
		memset(&r, 0, sizeof(r));
		source_init_mem(&r.src, "t", (const uint8_t *)longtail,
		    sizeof(longtail) - 1);
		CHECK("a long line still being written is torn, not skipped",
		    stream_next(&r, &ln, &err) == EXR_DAMAGED && r.torn &&
		    r.skip_from == 0 && r.skip_to == sizeof(longtail) - 1);
		memset(&r, 0, sizeof(r));
		source_init_mem(&r.src, "t", (const uint8_t *)big,
		    strlen(big));
		CHECK("a reading past INT64_MAX is damage",
		    stream_next(&r, &ln, &err) == EXR_DAMAGED &&
		    strstr(err.reason, "out of range") != NULL);
	}
	CHECK("sniff", stream_sniff((const uint8_t *)text, 20) &&
	    !stream_sniff((const uint8_t *)"12345 1\n", 8) &&
	    !stream_sniff((const uint8_t *)"\xf0\0\0\xff", 4));
}

static void
normaliser_checks(void)
{
	const struct stream_provider *procfs, *mach, *rapl, *mcp, *ipmi;
	struct stream_series s;
	struct stream_sample x;
	struct stream_line ln;

	procfs = stream_provider("cpu_utilization_procfs_system");
	mach = stream_provider_of_path("/x/cpu_utilization_mach_system.log");
	rapl = stream_provider("cpu_energy_rapl_msr_component");
	mcp = stream_provider("psu_energy_ac_mcp_machine");
	ipmi = stream_provider("psu_energy_ac_ipmi_machine");
	CHECK("providers", procfs && mach && rapl && mcp && ipmi &&
	    stream_provider("nope") == NULL);
	if (!procfs || !mach || !rapl || !mcp || !ipmi)
		return;

	/* Start-stamped: a line starts its interval; the next ends it. */
	memset(&s, 0, sizeof(s));
	ln = line(T0, 5000);
	CHECK("procfs first", stream_apply(procfs, &s, &ln, &x) ==
	    SV_SAMPLE && x.has_t0 && x.t0_ns == T0 * 1000 && !x.has_t1 &&
	    x.prev_t1_ns == 0 && x.value == 5000);
	ln = line(T0 + 100000, 6000);
	CHECK("procfs closes the previous", stream_apply(procfs, &s, &ln,
	    &x) == SV_SAMPLE && x.prev_t1_ns == (T0 + 100000) * 1000);

	/* The mach provider's first line is a since-boot average. */
	memset(&s, 0, sizeof(s));
	ln = line(T0, 1234);
	CHECK("mach since-boot line", stream_apply(mach, &s, &ln, &x) ==
	    SV_OPENS);
	ln = line(T0 + 100000, 5000);
	CHECK("mach end-stamped", stream_apply(mach, &s, &ln, &x) ==
	    SV_SAMPLE && x.t0_ns == T0 * 1000 && x.t1_ns == x.ts_ns &&
	    x.value == 5000);
	s.seen = 0;			/* a new file: a new since-boot line */
	ln = line(T0 + 900000, 1);
	CHECK("mach: every file's first", stream_apply(mach, &s, &ln, &x) ==
	    SV_OPENS);

	/* RAPL: end-stamped energy; a dropped (wrapped) sample is a gap. */
	memset(&s, 0, sizeof(s));
	ln = line(T0, 100);
	CHECK("rapl first: start not known", stream_apply(rapl, &s, &ln,
	    &x) == SV_SAMPLE && !x.has_t0 && x.has_t1 && x.value == 100);
	ln = line(T0 + 100000, 110);
	CHECK("rapl second", stream_apply(rapl, &s, &ln, &x) == SV_SAMPLE &&
	    x.has_t0 && x.t0_ns == T0 * 1000 && x.missing == 0);
	ln = line(T0 + 200000, 120);
	(void)stream_apply(rapl, &s, &ln, &x);
	ln = line(T0 + 400000, 130);
	CHECK("rapl: one sample missing", stream_apply(rapl, &s, &ln, &x) ==
	    SV_SAMPLE && x.missing == 1 && x.gap_from_ns ==
	    (T0 + 200000) * 1000 && x.t0_ns == (T0 + 300000) * 1000 &&
	    x.value == 130);
	ln = line(T0 + 510000, 140);
	CHECK("rapl: jitter is no gap", stream_apply(rapl, &s, &ln, &x) ==
	    SV_SAMPLE && x.missing == 0 && x.t0_ns == (T0 + 400000) * 1000);
	ln = line(T0 + 510000, 150);
	CHECK("repeated timestamp", stream_apply(rapl, &s, &ln, &x) ==
	    SV_DUPLICATE);
	ln = line(T0 + 450000, 150);
	CHECK("backwards timestamp", stream_apply(rapl, &s, &ln, &x) ==
	    SV_BACKWARDS && s.last_ts_ns == (T0 + 510000) * 1000);

	/* Power: uW (MCP) or W (IPMI) times the time since the last. */
	memset(&s, 0, sizeof(s));
	ln = line(T0, 2000000);
	CHECK("mcp first: no interval, no energy", stream_apply(mcp, &s,
	    &ln, &x) == SV_SAMPLE && !x.has_value);
	ln = line(T0 + 250000, 2000000);
	CHECK("mcp: 2 W for 0.25 s = 0.5 J", stream_apply(mcp, &s, &ln,
	    &x) == SV_SAMPLE && x.has_value && x.value == 500000);
	memset(&s, 0, sizeof(s));
	ln = line(T0, 150);
	(void)stream_apply(ipmi, &s, &ln, &x);
	ln = line(T0 + 1000000, 150);
	CHECK("ipmi: 150 W for 1 s = 150 J", stream_apply(ipmi, &s, &ln,
	    &x) == SV_SAMPLE && x.value == 150000000);
	ln = line(T0 + 2000000, UINT64_MAX / 10);
	CHECK("power that does not fit is not known", stream_apply(ipmi,
	    &s, &ln, &x) == SV_SAMPLE && !x.has_value);
}

/* A file is read to the size it had when opened: a line appended
 * while it is read is the next run's (the ledger recorded that size). */
static void
growing_file_checks(void)
{
	char path[] = "/tmp/extracct-unit-stream.XXXXXX";
	struct stream_reader r;
	struct stream_line ln;
	struct ex_err err;
	int fd, n = 0, rc;

	if ((fd = mkstemp(path)) == -1) {
		CHECK("mkstemp", 0);
		return;
	}
	CHECK("write", write(fd, "1700000000000000 1\n1700000000100000 2\n",
	    38) == 38);
	rc = stream_reader_open(&r, path, &err);
	CHECK("open", rc == EXR_OK);
	CHECK("append", write(fd, "1700000000200000 3\n", 19) == 19);
	if (rc == EXR_OK) {
		while ((rc = stream_next(&r, &ln, &err)) == EXR_OK)
			n++;
		CHECK("only the lines there at open", rc == EXR_EOF && n == 2 &&
		    r.off == 38);
		stream_reader_release(&r);
	}
	close(fd);
	unlink(path);
}

void
suite_stream(void)
{
	reader_checks();
	normaliser_checks();
	growing_file_checks();
}
