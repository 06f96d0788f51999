/*
 * Formatting: fixed-point rounding in integers, escaping.
 */
#include <string.h>

#include "../../reports/fmt.h"
#include "check.h"

void
suite_fmt(void)
{
	char b[64];

	/* real-records.md: 15105 chars -> rwKB 15.11 (a double gives 15.10) */
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
}
