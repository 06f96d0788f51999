/*
 * Fixed records: members matched by id in any order, absent is not zero,
 * unknown and mistyped items counted, time halves joined and checked.
 */
#include <string.h>

#include "../../parsers/exacct.h"
#include "../../parsers/records.h"
#include "check.h"

static void
build(struct exw *w, struct ex_rec *rec)
{
	struct ex_err err;
	size_t used;

	rec->nitems = 0;
	if (exacct_decode(rec, w->buf, w->len, 0, &used, &err) != EXR_OK)
		fprintf(stderr, "  decode: %s\n", err.reason);
}

static void
test_proc(void)
{
	struct exw w;
	struct ex_rec rec = { 0 };
	struct rec_counts c = { 0 };
	struct ex_proc p;

	exw_init(&w);
	exw_group_begin(&w, 0xf0000106);		/* partial */
	exw_uint(&w, 0x4000100c, 5);			/* nsec before sec */
	exw_uint(&w, 0x4000100b, 2);
	exw_uint(&w, 0x30001000, 42);
	exw_string(&w, 0x60001006, "a-command-name-longer-than-sixty-four-"
	    "bytes-is-truncated-safely-here");
	exw_uint(&w, 0x40001009, 100);			/* finish, no nsec */
	exw_uint(&w, 0x40001007, 7);			/* start sec */
	exw_uint(&w, 0x40001008, 1000000000);		/* nsec out of range */
	exw_uint(&w, 0x30001fff, 1);			/* unknown id */
	exw_string(&w, 0x60001000, "x");		/* pid as a string */
	exw_uint(&w, 0x31001001, 9);			/* local catalog */
	exw_group_begin(&w, 0xf0000100);		/* nested group */
	exw_uint(&w, 0x30001001, 77);
	exw_group_end(&w, 0);
	exw_group_end(&w, 0);
	build(&w, &rec);
	memset(&p, 0xa5, sizeof(p));
	proc_fill(&p, &rec, &c);

	CHECK("rec kind", rec_kind(&rec) == REC_PROC);
	CHECK("group", p.group == 0x106);
	CHECK("pid", REC_HAS(&p, PROC_PID) && p.v[PROC_PID] == 42);
	CHECK("cpu joined", REC_HAS(&p, PROC_CPU_USER_NS) &&
	    p.v[PROC_CPU_USER_NS] == 2000000005ull);
	CHECK("finish without nsec", REC_HAS(&p, PROC_FINISH_NS) &&
	    p.v[PROC_FINISH_NS] == 100000000000ull);
	CHECK("bad nsec: start absent", !REC_HAS(&p, PROC_START_NS));
	CHECK("absent is not zero", !REC_HAS(&p, PROC_UID) &&
	    !REC_HAS(&p, PROC_CPU_SYS_NS) && !REC_HAS(&p, PROC_ZONE));
	CHECK("nested uid ignored", !REC_HAS(&p, PROC_UID));
	CHECK("command truncated", strlen(p.command) == 63 &&
	    strncmp(p.command, "a-command", 9) == 0);
	CHECK("counts", c.unknown_items == 3 && c.unknown_groups == 1 &&
	    c.bad_values == 1);

	/* Overflowing seconds are a bad value, not a wrapped time. */
	exw_reset(&w);
	exw_group_begin(&w, 0xf0000100);
	exw_uint(&w, 0x40001007, UINT64_MAX / 1000000000u + 1);
	exw_group_end(&w, 0);
	build(&w, &rec);
	memset(&c, 0, sizeof(c));
	proc_fill(&p, &rec, &c);
	CHECK("overflow", !REC_HAS(&p, PROC_START_NS) && c.bad_values == 1);

	/*
	 * Past 2^63 ns (a year-2300 start, 10413792000 s) fits 64 unsigned
	 * bits but not the store's signed ones: refused too, not stored to
	 * read back as 1715.  The last second that fits is kept.
	 */
	exw_reset(&w);
	exw_group_begin(&w, 0xf0000100);
	exw_uint(&w, 0x40001007, 10413792000ull);
	exw_uint(&w, 0x40001009, INT64_MAX / 1000000000);
	exw_uint(&w, 0x4000100a, INT64_MAX % 1000000000);
	exw_group_end(&w, 0);
	build(&w, &rec);
	memset(&c, 0, sizeof(c));
	proc_fill(&p, &rec, &c);
	CHECK("year 2300 refused", !REC_HAS(&p, PROC_START_NS) &&
	    c.bad_values == 1);
	CHECK("2^63 - 1 ns kept", REC_HAS(&p, PROC_FINISH_NS) &&
	    p.v[PROC_FINISH_NS] == (uint64_t)INT64_MAX);
	exw_release(&w);
	ex_rec_release(&rec);
}

static void
test_task_and_flow(void)
{
	static const uint8_t v6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 9 };
	struct exw w;
	struct ex_rec rec = { 0 };
	struct rec_counts c = { 0 };
	struct ex_task t;
	struct ex_flow f;

	exw_init(&w);
	exw_group_begin(&w, 0xf0000108);
	exw_uint(&w, 0x30002000, 61);
	exw_uint(&w, 0x40002009, 1);			/* sys first */
	exw_uint(&w, 0x4000200a, 2);
	exw_uint(&w, 0x40002007, 3);
	exw_uint(&w, 0x40002008, 4);
	exw_string(&w, 0x60002019, "global");
	exw_group_end(&w, 0);
	build(&w, &rec);
	task_fill(&t, &rec, &c);
	CHECK("task kind", rec_kind(&rec) == REC_TASK && t.group == 0x108);
	CHECK("task cpu by id", t.v[TASK_CPU_SYS_NS] == 1000000002ull &&
	    t.v[TASK_CPU_USER_NS] == 3000000004ull);
	CHECK("task zone", REC_HAS(&t, TASK_ZONE) &&
	    strcmp(t.zone, "global") == 0 && !REC_HAS(&t, TASK_PROJID));

	exw_reset(&w);
	exw_group_begin(&w, 0xf0000109);
	exw_uint(&w, 0x30003000, 0xc0a80001);
	exw_bytes(&w, 0x80003003, v6, 16);
	exw_uint(&w, 0x20003004, 443);
	exw_uint(&w, 0x10003006, 6);
	exw_uint(&w, 0x30003008, 4561);
	exw_bytes(&w, 0x80003002, v6, 15);		/* wrong length */
	exw_group_end(&w, 0);
	build(&w, &rec);
	memset(&c, 0, sizeof(c));
	flow_fill(&f, &rec, &c);
	CHECK("flow kind", rec_kind(&rec) == REC_FLOW);
	CHECK("v4 in network order", f.saddr[0] == 192 && f.saddr[1] == 168 &&
	    f.saddr[3] == 1);
	CHECK("v6 dest", f.family == 6 && memcmp(f.daddr, v6, 16) == 0);
	CHECK("flow values", f.v[FLOW_SPORT] == 443 &&
	    f.v[FLOW_NBYTES] == 4561 && !REC_HAS(&f, FLOW_UID) &&
	    !REC_HAS(&f, FLOW_DPORT));
	CHECK("short v6 counted", c.unknown_items == 1);
	exw_release(&w);
	ex_rec_release(&rec);
}

void
suite_records(void)
{
	test_proc();
	test_task_and_flow();
}
