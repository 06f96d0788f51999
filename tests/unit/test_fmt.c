/*
 * Formatting: fixed-point rounding in integers, escaping, and the CSV
 * and JSON strings built on the escape.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../reports/csv.h"
#include "../../reports/fmt.h"
#include "../../reports/report_int.h"
#include "check.h"

/* What fn writes for s, as a string (freed by the caller). */
static char *
written(void (*fn)(FILE *, const char *), const char *s)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&buf, &n);

	if (fp == NULL)
		return NULL;
	fn(fp, s);
	fclose(fp);
	return buf;
}

/* Does fn write want for s? */
static int
writes(void (*fn)(FILE *, const char *), const char *s, const char *want)
{
	char *got = written(fn, s);
	int ok = got != NULL && strcmp(got, want) == 0;

	if (!ok)
		fprintf(stderr, "  wrote [%s], want [%s]\n", got, want);
	free(got);
	return ok;
}

/* fmt_escape_fp with flags 0, as a writer. */
static void
escape0(FILE *fp, const char *s)
{
	fmt_escape_fp(fp, s, 0);
}

void
suite_fmt(void)
{
	char b[64];

	/* The real records: 15105 chars -> rwKB 15.11 (a double gives 15.10) */
	CHECK("rwKB", strcmp(fmt_fixed(b, sizeof(b), 15105, 1000, 2),
	    "15.11") == 0);
	CHECK("mrMB", strcmp(fmt_fixed(b, sizeof(b), 27004, 1024, 1),
	    "26.4") == 0);
	CHECK("sycK", strcmp(fmt_fixed(b, sizeof(b), 586, 1000, 1),
	    "0.6") == 0);
	CHECK("half up", strcmp(fmt_fixed(b, sizeof(b), 5, 1000, 2),
	    "0.01") == 0);
	CHECK("below half", strcmp(fmt_fixed(b, sizeof(b), 4, 1000, 2),
	    "0.00") == 0);
	CHECK("carry", strcmp(fmt_fixed(b, sizeof(b), 999999, 1000000, 2),
	    "1.00") == 0);
	CHECK("zero places", strcmp(fmt_fixed(b, sizeof(b), 1500, 1000, 0),
	    "2") == 0);
	CHECK("max", strcmp(fmt_fixed(b, sizeof(b), UINT64_MAX, 1, 2),
	    "18446744073709551615.00") == 0);
	CHECK("duration", strcmp(fmt_fixed(b, sizeof(b), 416930155384074ull,
	    1000000000u, 2), "416930.16") == 0);

	CHECK("plain", strcmp(fmt_escape(b, sizeof(b), "ls", 0), "ls") == 0);
	CHECK("escape ESC", strcmp(fmt_escape(b, sizeof(b), "a\033[2Jb", 0),
	    "a\\033[2Jb") == 0);
	CHECK("escape space", strcmp(fmt_escape(b, sizeof(b), "tmux: s",
	    ESC_SPACE), "tmux:\\040s") == 0);
	CHECK("keep space", strcmp(fmt_escape(b, sizeof(b), "a b", 0),
	    "a b") == 0);
	CHECK("backslash", strcmp(fmt_escape(b, sizeof(b), "a\\b", 0),
	    "a\\134b") == 0);
	CHECK("high byte", strcmp(fmt_escape(b, sizeof(b), "\xff", 0),
	    "\\377") == 0);
	CHECK("quote", strcmp(fmt_escape(b, sizeof(b), "\"", ESC_QUOTE),
	    "\\042") == 0);
	/* Truncation stops at a whole escape and always terminates. */
	CHECK("truncate", strcmp(fmt_escape(b, 6, "ab\033cd", 0), "ab") == 0);

	/* 128-bit totals: past 2^64, and the remainder rounded exactly. */
	CHECK("128 past 2^64", strcmp(fmt_fixed128(b, sizeof(b),
	    (unsigned __int128)1 << 64, 1000000000u, 3),
	    "18446744073.710") == 0);
	CHECK("128 max", strcmp(fmt_fixed128(b, sizeof(b),
	    ~(unsigned __int128)0, 1, 0),
	    "340282366920938463463374607431768211455") == 0);
	/* 2^64 + 0.999 to 2 places: the fraction carries into the whole. */
	CHECK("128 carry", strcmp(fmt_fixed128(b, sizeof(b),
	    ((unsigned __int128)1 << 64) * 1000 + 999, 1000, 2),
	    "18446744073709551617.00") == 0);
	CHECK("128 half below", strcmp(fmt_fixed128(b, sizeof(b),
	    (unsigned __int128)20000000000 * 1000000000 + 499999,
	    1000000000u, 3), "20000000000.000") == 0);
	CHECK("128 half up", strcmp(fmt_fixed128(b, sizeof(b),
	    (unsigned __int128)20000000000 * 1000000000 + 500000,
	    1000000000u, 3), "20000000000.001") == 0);
	CHECK("128 big divisor", strcmp(fmt_fixed128(b, sizeof(b),
	    (unsigned __int128)3 << 90, (unsigned __int128)1 << 92, 2),
	    "0.75") == 0);
	fmt_secs128(b, sizeof(b), -5);
	CHECK("secs128 negative", strcmp(b, "0.000") == 0);
	CHECK("int128", strcmp(fmt_int128(b, sizeof(b),
	    -((__int128)1 << 100)), "-1267650600228229401496703205376") == 0);
	CHECK("int128 zero", strcmp(fmt_int128(b, sizeof(b), 0), "0") == 0);

	/* One escape for every output: stream, CSV cell, JSON string. */
	CHECK("escape_fp", writes(escape0, "a\033[2J\r\n\b\"q,\\ \351",
	    "a\\033[2J\\015\\012\\010\"q,\\134 \\351"));
	CHECK("csv plain", writes(csv_text, "ls", "ls"));
	CHECK("csv quoted", writes(csv_text, "a,\"b\"", "\"a,\"\"b\"\"\""));
	CHECK("csv escaped", writes(csv_text, "x\r\ny\033",
	    "x\\015\\012y\\033"));
	CHECK("csv guard", writes(csv_text, "=cmd|' /C calc'!A0",
	    "'=cmd|' /C calc'!A0"));
	CHECK("csv tab", writes(csv_text, "\tx", "\\011x"));
	/* Each rule alone, and the plain cells (one copy) around them. */
	CHECK("csv empty", writes(csv_text, "", ""));
	CHECK("csv guards", writes(csv_text, "-x", "'-x") &&
	    writes(csv_text, "+1", "'+1") && writes(csv_text, "@a", "'@a") &&
	    writes(csv_text, "x-", "x-"));
	CHECK("csv guard and quote", writes(csv_text, "-a,b", "\"'-a,b\""));
	CHECK("csv spaces and backslash", writes(csv_text, "a b", "a b") &&
	    writes(csv_text, "a\\b", "a\\134b") &&
	    writes(csv_text, "\377", "\\377"));
	CHECK("csv quote last", writes(csv_text, "ab\"", "\"ab\"\"\""));
	CHECK("json plain", writes(json_str, "global", "\"global\""));
	CHECK("json as csv", writes(json_str, "e\033[2J\"q\\\377",
	    "\"e\\\\033[2J\\\"q\\\\134\\\\377\""));

	/* The report's CSV and JSON: names as they are. */
	CHECK("csv raw space", writes(csv_field, "a b", "a b"));
	CHECK("csv raw quoted", writes(csv_field, "e\033\r\n\"q,",
	    "\"e\033\r\n\"\"q,\""));
	CHECK("csv raw guard", writes(csv_field, "=1+2", "'=1+2"));
	CHECK("json raw", writes(json_raw, "a \"b\"\\", "\"a \\\"b\\\"\\\\\""));
	CHECK("json raw controls", writes(json_raw, "\033\r\n\177",
	    "\"\\u001b\\u000d\\u000a\\u007f\""));
	CHECK("json raw utf-8", writes(json_raw, "Jos\303\251 \342\202\254",
	    "\"Jos\\u00e9 \\u20ac\""));
	CHECK("json raw astral", writes(json_raw, "\360\237\230\200",
	    "\"\\ud83d\\ude00\""));
	CHECK("json raw not utf-8", writes(json_raw, "\351\377x",
	    "\"\\u00e9\\u00ffx\""));
	CHECK("json raw overlong", writes(json_raw, "\300\257",
	    "\"\\u00c0\\u00af\""));
	CHECK("json raw short", writes(json_raw, "\342\202",
	    "\"\\u00e2\\u0082\""));
	CHECK("json raw surrogate", writes(json_raw, "\355\240\200",
	    "\"\\u00ed\\u00a0\\u0080\""));
}
