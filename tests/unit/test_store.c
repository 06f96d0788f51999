/*
 * The store's sinks (store/ingest_int.h): the table has a row with a
 * write hook for every kind of record that is stored, and a rollback
 * reloads every sink's state from the database: the next file is
 * differenced against what the database holds, and a store that cannot
 * read it back is broken (no more ingests) rather than differencing
 * against nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../parsers/recwrite.h"
#include "../../store/ingest_int.h"
#include "check.h"

/* A log of one partial record of process pid at time t_s. */
static int
write_log(const char *path, uint64_t pid, uint64_t t_s, uint64_t cpu_ns)
{
	struct ex_proc p;
	struct exw w;
	FILE *f;
	int ok;

	memset(&p, 0, sizeof(p));
	p.group = EXD_GROUP_PROC_PARTIAL;
	p.v[PROC_PID] = pid;
	p.v[PROC_START_NS] = 1000 * NS;
	p.v[PROC_FINISH_NS] = t_s * NS;
	p.v[PROC_CPU_USER_NS] = cpu_ns;
	p.present = 1ULL << PROC_PID | 1ULL << PROC_START_NS |
	    1ULL << PROC_FINISH_NS | 1ULL << PROC_CPU_USER_NS;
	exw_init(&w);
	exw_header(&w, "extracct", "unit-host", EXW_HEADER_KERNEL);
	proc_write(&w, &p);
	ok = exw_error(&w) == EXR_OK && (f = fopen(path, "w")) != NULL;
	if (ok) {
		ok = fwrite(w.buf, 1, w.len, f) == w.len;
		ok = fclose(f) == 0 && ok;
	}
	exw_release(&w);
	return ok ? 0 : -1;
}

static long long
count(struct store *s, const char *sql)
{
	sqlite3_stmt *st;
	long long n = -1;

	if (sqlite3_prepare_v2(store_db(s), sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

static void
test_table(void)
{
	static const int kinds[] = { REC_PROC, REC_TASK, REC_FLOW,
	    REC_SYSLOAD, REC_LOST, REC_ENERGY, REC_RAPL, REC_CGROUP,
	    SINK_STREAM };
	size_t i;
	int ok = 1;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		ok = ok && sinks[kinds[i]] != NULL &&
		    sinks[kinds[i]]->write != NULL;
	CHECK("a sink with a write hook for every stored kind", ok);
	CHECK("no sink for headers and other objects",
	    sinks[REC_OTHER] == NULL && sinks[REC_HEADER] == NULL);
}

static void
test_rollback(void)
{
	char dir[] = "/tmp/extracct-unit-store.XXXXXX";
	char db[64], a[64], b[64], c[64], rm[128];
	struct ingest_opts o;
	struct ingest_stats st;
	struct ex_err err;
	struct store *s = NULL;

	if (mkdtemp(dir) == NULL) {
		CHECK("mkdtemp", 0);
		return;
	}
	snprintf(db, sizeof(db), "%s/db", dir);
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	snprintf(c, sizeof(c), "%s/c", dir);
	memset(&o, 0, sizeof(o));
	o.chunk_records = 1000;
	o.carbon_intensity = -1;
	CHECK("logs", write_log(a, 42, 2000, 1000) == 0 &&
	    write_log(b, 42, 3000, 5000) == 0 &&
	    write_log(c, 42, 4000, 9000) == 0);
	CHECK("open", store_open(&s, db, 0, &err) == EXR_OK);
	if (s == NULL)
		goto out;
	CHECK("a", ingest_file(s, a, &o, &st, &err) == EXR_OK &&
	    count(s, "SELECT count(*) FROM proc_last") == 1);

	/* A chunk that fails rolls back; the state is read back. */
	CHECK("a failing insert", sqlite3_exec(store_db(s), "CREATE TRIGGER "
	    "t BEFORE INSERT ON proc_interval_rows BEGIN SELECT RAISE(ABORT, "
	    "'no'); END", NULL, NULL, NULL) == SQLITE_OK);
	CHECK("b fails", ingest_file(s, b, &o, &st, &err) == EXR_DB);
	CHECK("b left nothing", count(s, "SELECT count(*) FROM files") == 1);
	sqlite3_exec(store_db(s), "DROP TRIGGER t", NULL, NULL, NULL);
	CHECK("b again, from the state a left (cpu 5000 - 1000)",
	    ingest_file(s, b, &o, &st, &err) == EXR_OK && st.rows == 1 &&
	    count(s, "SELECT cpu_user_ns FROM proc_intervals "
	    "ORDER BY t1_ns DESC LIMIT 1") == 4000);

	/* One whose state cannot be read back breaks the store. */
	CHECK("no proc_last", sqlite3_exec(store_db(s), "DROP TABLE proc_last",
	    NULL, NULL, NULL) == SQLITE_OK);
	CHECK("c fails", ingest_file(s, c, &o, &st, &err) == EXR_DB);
	CHECK("then the store is broken", ingest_file(s, c, &o, &st, &err) ==
	    EXR_DB && strncmp(err.reason, "after a rollback the live "
	    "processes could not be read back", 52) == 0);
	store_close(s);
out:
	snprintf(rm, sizeof(rm), "rm -rf '%s'", dir);
	if (system(rm) != 0)
		CHECK("rm", 0);
}

void
suite_store(void)
{
	test_table();
	test_rollback();
}
