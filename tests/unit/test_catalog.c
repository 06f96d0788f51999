/*
 * The one field table (parsers/catalog.h) against what it must agree
 * with: the id rows sorted for the name lookup, the encoder writing
 * every field in the kernel's order (the kernel catalog order, its tags
 * written out here by hand, not taken from the table), a full record
 * round trip, the store's frozen schema having every column the lists
 * name, and the source quirks the parsers now state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../parsers/exacct.h"
#include "../../parsers/local.h"
#include "../../parsers/pacct.h"
#include "../../parsers/records.h"
#include "../../parsers/recwrite.h"
#include "../../parsers/taskstats_decode.h"
#include "../../store/db.h"
#include "../../store/diff.h"
#include "check.h"

#define ID_ROW(macro, id, name)			id,
#define NAME_ROW(macro, id, name)		name,
#define LOCAL_ID_ROW(macro, id, type, name)	id,
#define LOCAL_NAME_ROW(macro, id, type, name)	name,
#define LOCAL_TYPE_ROW(macro, id, type, name)	EXT_##type,

static void
test_ids(void)
{
	static const uint32_t ids[] = { EXD_CATALOG(ID_ROW) };
	static const char *const names[] = { EXD_CATALOG(NAME_ROW) };
	static const uint32_t lids[] = { EXL_CATALOG(LOCAL_ID_ROW) };
	static const char *const lnames[] = { EXL_CATALOG(LOCAL_NAME_ROW) };
	static const uint32_t ltypes[] = { EXL_CATALOG(LOCAL_TYPE_ROW) };
	size_t i, n = sizeof(ids) / sizeof(ids[0]);
	int sorted = 1, named = 1, lnamed = 1;

	for (i = 1; i < n; i++)
		if (ids[i - 1] >= ids[i])
			sorted = 0;
	CHECK("id rows sorted, none twice", sorted);
	for (i = 0; i < n; i++) {
		const char *nm = exacct_id_name(ids[i]);

		if (nm == NULL || strcmp(nm, names[i]) != 0)
			named = 0;
	}
	CHECK("every id row named", named);
	for (i = 0; i < sizeof(lids) / sizeof(lids[0]); i++) {
		const char *nm = exacct_id_name(EXC_LOCAL | lids[i]);

		if (nm == NULL || strcmp(nm, lnames[i]) != 0 ||
		    local_id_type(lids[i]) != ltypes[i])
			lnamed = 0;
	}
	CHECK("every local row named and typed", lnamed);
	CHECK("pid", EXD_PROC_PID == 0x1000 &&
	    strcmp(exacct_id_name(0x30001000), "pid") == 0);
	CHECK("group-proc-partial", EXD_GROUP_PROC_PARTIAL == 0x106);
	CHECK("zone", EXD_PROC_ZONENAME == 0x1021 &&
	    EXD_TASK_ZONENAME == 0x2019);
	CHECK("flow v6 two on", EXD_FLOW_V6_SADDR == 0x3002 &&
	    EXD_FLOW_V6_DADDR == 0x3003);
	CHECK("unknown id", exacct_id_name(0x1fff) == NULL &&
	    local_id_name(0x999) == NULL && local_id_type(0x999) == 0);
	CHECK("local read-bytes", EXL_PROC_READ_BYTES == 0x101 &&
	    strcmp(exacct_id_name(0x41000101), "read-bytes") == 0);
	CHECK("local energy first", EXL_EN_FIRST == 0x401 &&
	    EXL_EN_COMMAND == EXL_EN_FIRST + EN_COMMAND);
}

/* A record with every field, each a value of its own. */
static void
full_proc(struct ex_proc *p)
{
	int f;

	memset(p, 0, sizeof(*p));
	p->group = EXD_GROUP_PROC;
	for (f = 0; f < PROC_NFIELDS; f++) {
		p->v[f] = 1000 + (uint64_t)f;
		p->present |= 1ULL << f;
	}
	p->v[PROC_START_NS] = 1700000000123456789ull;
	p->v[PROC_FINISH_NS] = 1700000100000000001ull;
	p->v[PROC_CPU_USER_NS] = 2500000001ull;
	p->v[PROC_CPU_SYS_NS] = 999999999ull;
	p->v[PROC_COMMAND] = p->v[PROC_HOSTNAME] = p->v[PROC_ZONE] = 0;
	snprintf(p->command, sizeof(p->command), "cmd");
	snprintf(p->hostname, sizeof(p->hostname), "host");
	snprintf(p->zone, sizeof(p->zone), "global");
	p->v[PROC_CGROUP] = 0;
	p->v[PROC_CGROUP_HIER] = CGROUP_UNIFIED;
	p->v[PROC_CGROUP_FROM] = CGROUP_FROM_PARENT;
	snprintf(p->cgroup, sizeof(p->cgroup), "/system.slice/a\tb.service");
}

static void
test_encoder(void)
{
	/* §5.3's order, then the local items (type | catalog | id). */
	static const uint32_t want[] = {
		0x30001000, 0x30001001, 0x30001002, 0x30001004, 0x30001003,
		0x4000100b, 0x4000100c, 0x4000100d, 0x4000100e,
		0x40001007, 0x40001008, 0x40001009, 0x4000100a,
		0x60001006, 0x3000100f, 0x30001010, 0x60001005,
		0x40001011, 0x40001012, 0x40001014, 0x40001013, 0x40001015,
		0x40001016, 0x40001017, 0x40001018, 0x40001019, 0x4000101a,
		0x4000101b, 0x4000101c, 0x3000101d, 0x3000101f, 0x30001020,
		0x60001021, 0x40001022, 0x40001023,
		0x41000101, 0x41000102, 0x41000103, 0x41000104, 0x31000105,
		0x41000106, 0x41000107, 0x41000108, 0x41000109, 0x4100010a,
		0x4100010b, 0x4100010c, 0x4100010d, 0x4100010e, 0x4100010f,
		0x31000110, 0x61000111, 0x11000112, 0x11000113,
		0x41000114,
	};
	size_t i, n = sizeof(want) / sizeof(want[0]), used;
	struct ex_rec rec = { 0 };
	struct rec_counts c = { 0 };
	struct ex_proc p, q;
	struct ex_err err;
	struct exw w;
	int order = 1, same = 1;

	full_proc(&p);
	exw_init(&w);
	proc_write(&w, &p);
	CHECK("encoded", exw_error(&w) == EXR_OK &&
	    exacct_decode(&rec, w.buf, w.len, 0, &used, &err) == EXR_OK &&
	    used == w.len);
	CHECK("one item per id", rec.nitems == n + 1);
	for (i = 0; i < n && i + 1 < rec.nitems; i++)
		if (rec.items[i + 1].tag != want[i])
			order = 0;
	CHECK("kernel order, tags and types", order);
	CHECK("sec and nsec items", rec.nitems > 7 && rec.items[6].u == 2 &&
	    rec.items[7].u == 500000001);
	memset(&q, 0xa5, sizeof(q));
	proc_fill(&q, &rec, &c);
	CHECK("round trip: present", q.present == p.present);
	for (i = 0; i < PROC_NFIELDS; i++)
		if (proc_fields[i].kind != FK_STRING && q.v[i] != p.v[i])
			same = 0;
	CHECK("round trip: values", same);
	CHECK("round trip: strings", strcmp(q.command, "cmd") == 0 &&
	    strcmp(q.hostname, "host") == 0 && strcmp(q.zone, "global") == 0 &&
	    strcmp(q.cgroup, "/system.slice/a\tb.service") == 0);
	CHECK("nothing skipped", c.unknown_items == 0 &&
	    c.unknown_groups == 0 && c.bad_values == 0);
	ex_rec_release(&rec);
	exw_release(&w);
}

static int
has_column(sqlite3 *db, const char *table, const char *col)
{
	char sql[128];
	sqlite3_stmt *st;
	int found = 0;

	snprintf(sql, sizeof(sql), "SELECT 1 FROM pragma_table_info('%s') "
	    "WHERE name = ?", table);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, col, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

/*
 * The store's first tables are frozen migrations, written out in
 * store/db.c; the column lists come from the field table.  Every name
 * a list binds must be a column there.
 */
static void
test_schema(void)
{
	char path[] = "/tmp/extracct-unit-catalog.XXXXXX";
	char side[64];
	struct ex_err err = { 0 };
	sqlite3 *db = NULL;
	int fd = mkstemp(path), f, pint = 1, plast = 1, tint = 1, tlast = 1;
	int extras = 1;

	CHECK("temp file", fd != -1);
	if (fd == -1)
		return;
	close(fd);
	unlink(path);
	CHECK("open", db_open(path, &db, &err) == EXR_OK);
	if (db == NULL)
		return;
	for (f = PROC_FIRST_COUNTER; f <= PROC_LAST_LEVEL; f++) {
		pint &= has_column(db, "proc_intervals", proc_fields[f].name);
		plast &= has_column(db, "proc_last", proc_fields[f].name);
	}
	for (f = TASK_FIRST_COUNTER; f <= TASK_LAST_COUNTER; f++) {
		tint &= has_column(db, "task_intervals", task_fields[f].name);
		tlast &= has_column(db, "task_last", task_fields[f].name);
	}
	for (f = PROC_DELAY_CPU_NS; f <= PROC_CPU_RUN_NS; f++)
		extras &= has_column(db, "procs", proc_fields[f].name);
	CHECK("proc_intervals has the process columns", pint);
	CHECK("proc_last has them", plast);
	CHECK("task_intervals has the counters", tint);
	CHECK("task_last has them", tlast);
	CHECK("procs has the exit extras", extras);
	CHECK("counters shared by name", strcmp(task_fields[
	    TASK_CPU_USER_NS].name, proc_fields[PROC_CPU_USER_NS].name) == 0 &&
	    strcmp(task_fields[TASK_SYSCALLS].name,
	    proc_fields[PROC_SYSCALLS].name) == 0);
	db_close(db);
	unlink(path);
	snprintf(side, sizeof(side), "%s-wal", path);
	unlink(side);
	snprintf(side, sizeof(side), "%s-shm", path);
	unlink(side);
}

/* What the parsers say of their exit records' imprecision. */
static void
test_slack(void)
{
	CHECK("pacct: exact below 81.92 s",
	    pacct_exit_slack(PROC_CPU_USER_NS, 81910000000ull) == 0);
	CHECK("pacct: 80 ms steps above",
	    pacct_exit_slack(PROC_CPU_SYS_NS, 100000000000ull) == 80000000);
	CHECK("pacct: 640 ms further on",
	    pacct_exit_slack(PROC_CPU_USER_NS, 700000000000ull) == 640000000);
	CHECK("pacct: only CPU",
	    pacct_exit_slack(PROC_FAULTS_MINOR, 100000000000ull) == 0);
	CHECK("taskstats: KiB cut", ts_exit_slack(PROC_READ_BYTES, 0) == 1024 &&
	    ts_exit_slack(PROC_SYSCALLS_W, 5) == 1024);
	CHECK("taskstats: read + write cut",
	    ts_exit_slack(PROC_CHARS_RDWR, 0) == 2048);
	CHECK("taskstats: tick-sampled CPU",
	    ts_exit_slack(PROC_CPU_USER_NS, 0) == 100000000);
	CHECK("taskstats: exact", ts_exit_slack(PROC_PID, 0) == 0 &&
	    ts_exit_slack(PROC_FAULTS_MAJOR, 7) == 0);
}

void
suite_catalog(void)
{
	test_ids();
	test_encoder();
	test_schema();
	test_slack();
}
