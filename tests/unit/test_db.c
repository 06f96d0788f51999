/*
 * Schema migrations: a database built at version 2, with rows in it, is
 * brought to the current version by db_open, and keeps its rows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../store/db.h"
#include "../../store/dblock.h"
#include "check.h"

/* The first column of sql's first row, as text ("(null)" for NULL). */
static int
one_text(sqlite3 *db, const char *sql, char *buf, size_t n)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		snprintf(buf, n, "%s", sqlite3_column_text(st, 0) != NULL ?
		    (const char *)sqlite3_column_text(st, 0) : "(null)");
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

static int
one_int(sqlite3 *db, const char *sql, long long *out)
{
	char buf[32];

	if (one_text(db, sql, buf, sizeof(buf)) != 0)
		return -1;
	*out = strtoll(buf, NULL, 10);
	return 0;
}

static uint64_t
ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/*
 * The writer's lock: a second writer waits as long as it is told, then
 * gives up naming the holder; the lock is free again once released.
 * (flock is per open file: two takes in one process conflict, as two
 * processes do.)
 */
static void
test_dblock(const char *path)
{
	struct ex_err err = { 0 };
	char lock[80], want[64];
	uint64_t t0;
	int a = -1, b = -1;

	snprintf(lock, sizeof(lock), "%s-lock", path);
	snprintf(want, sizeof(want), "pid %ld", (long)getpid());
	CHECK("lock taken", dblock_take(path, 0, &a, &err) == EXR_OK &&
	    a != -1);
	CHECK("held: busy at once", dblock_take(path, 0, &b, &err) ==
	    EXR_BUSY && b == -1 && strstr(err.reason, want) != NULL &&
	    strstr(err.reason, lock) != NULL);
	t0 = ms_now();
	CHECK("held: busy after the wait", dblock_take(path, 300, &b, &err) ==
	    EXR_BUSY && ms_now() - t0 >= 300 && ms_now() - t0 < 3000);
	dblock_release(a);
	CHECK("released: free", dblock_take(path, 0, &b, &err) == EXR_OK);
	dblock_release(b);
	CHECK("memory: no lock", dblock_take(":memory:", 0, &b, &err) ==
	    EXR_OK && b == -1);
	unlink(lock);
	CHECK("a link in its place refused", symlink("/dev/null", lock) == 0 &&
	    dblock_take(path, 0, &b, &err) == EXR_IO && b == -1);
	unlink(lock);
}

/*
 * Host labels (schema 17, hostlabel_sql.h): the edge cases of the rule,
 * kept by the triggers through inserts and deletes.  A configured id
 * that is another host's 8 hex digits, or "name", takes step 3 with it;
 * a row with no identity yet is NAME@:ID.
 */
static void
test_labels(const char *path)
{
	static const char all[] = "SELECT group_concat(label, ' ') FROM "
	    "(SELECT label FROM hosts ORDER BY host_id)";
	struct ex_err err = { 0 };
	sqlite3 *db = NULL;
	char buf[512];
	long long n = -1;

	CHECK("labels: open", db_open(path, &db, &err) == EXR_OK);
	if (db == NULL)
		return;
	CHECK("labels: hosts", db_exec(db, "INSERT INTO hosts (name, ident) "
	    "VALUES ('w', '0123abcd'),"
	    "  ('w', '0123abcd00000000000000000000000f:w'),"
	    "  ('w', 'name'), ('w', 'name:w'), ('x', NULL), ('y', NULL),"
	    "  ('y', 'name:y');", &err) == EXR_OK);
	CHECK("labels: the rule", one_text(db, all, buf, sizeof(buf)) == 0 &&
	    strcmp(buf, "w@0123abcd w@0123abcd00000000000000000000000f:w "
	    "w@name w@name:w x y@:6 y@name") == 0);
	CHECK("labels: distinct", one_int(db, "SELECT count(DISTINCT label) "
	    "FROM hosts", &n) == 0 && n == 7);
	CHECK("labels: as the views say", one_text(db, "SELECT group_concat("
	    "host, ' ') FROM (SELECT host FROM v_hosts ORDER BY host_id)",
	    buf, sizeof(buf)) == 0 && strcmp(buf, "w@0123abcd "
	    "w@0123abcd00000000000000000000000f:w w@name w@name:w x y@:6 "
	    "y@name") == 0);
	CHECK("labels: a namesake goes", db_exec(db, "DELETE FROM hosts "
	    "WHERE host_id IN (2, 3, 4, 7)", &err) == EXR_OK &&
	    one_text(db, all, buf, sizeof(buf)) == 0 &&
	    strcmp(buf, "w x y") == 0);
	CHECK("labels: a rename", db_exec(db, "UPDATE hosts SET name = 'w' "
	    "WHERE host_id = 5", &err) == EXR_OK &&
	    one_text(db, all, buf, sizeof(buf)) == 0 &&
	    strcmp(buf, "w@0123abcd w@:5 y") == 0);
	CHECK("labels: no work left", one_int(db, "SELECT count(*) FROM "
	    "host_label_work", &n) == 0 && n == 0);
	db_close(db);
}

void
suite_db(void)
{
	char path[] = "/tmp/extracct-unit-db.XXXXXX";
	char wal[64], shm[64];
	struct ex_err err = { 0 };
	sqlite3 *db = NULL;
	long long v = -1, n = -1;
	int fd = mkstemp(path);

	CHECK("temp file", fd != -1);
	if (fd == -1)
		return;
	close(fd);
	unlink(path);
	snprintf(wal, sizeof(wal), "%s-wal", path);
	snprintf(shm, sizeof(shm), "%s-shm", path);

	/* Version 2, as the previous release left it, with a process. */
	CHECK("open at v2", db_open_at(path, 2, &db, &err) == EXR_OK);
	CHECK("v2", one_int(db, "PRAGMA user_version", &v) == 0 && v == 2);
	CHECK("v2 rows", db_exec(db,
	    "INSERT INTO hosts (name) VALUES ('h');"
	    "INSERT INTO procs (proc_id, host_id, pid, start_ns, finish_ns)"
	    "  VALUES (1, 1, 42, 1000, 2000);"
	    "INSERT INTO proc_intervals (proc_id, t0_ns, t1_ns, final,"
	    "  heartbeat, cpu_user_ns, anomalies) VALUES (1, 1000, 2000, 1,"
	    "  0, 5, 0);"
	    "INSERT INTO sysload (host_id, t_ns, user_ticks, nice_ticks,"
	    "  system_ticks, clk_tck) VALUES (1, 500, 0, 0, 0, 100),"
	    "  (1, 3000, 1, 0, 0, 100);", &err) == EXR_OK);
	CHECK("v2 has no exit_source", db_exec(db,
	    "SELECT exit_source FROM procs", &err) != EXR_OK);
	db_close(db);

	/* The current version opens it and migrates. */
	CHECK("reopen", db_open(path, &db, &err) == EXR_OK);
	CHECK("now current", one_int(db, "PRAGMA user_version", &v) == 0 &&
	    v == DB_SCHEMA_VERSION);
	CHECK("rows kept", one_int(db, "SELECT count(*) FROM procs p JOIN "
	    "proc_intervals i USING (proc_id) WHERE p.pid = 42 AND "
	    "i.cpu_user_ns = 5", &n) == 0 && n == 1);
	CHECK("old rows: exit source NULL", one_int(db, "SELECT count(*) "
	    "FROM procs WHERE exit_source IS NULL", &n) == 0 && n == 1);
	CHECK("host sources 0", one_int(db, "SELECT exit_sources FROM hosts",
	    &n) == 0 && n == 0);
	CHECK("new tables", one_int(db, "SELECT count(*) FROM proc_alt_exits",
	    &n) == 0 && one_int(db, "SELECT count(*) FROM lost", &n) == 0);
	CHECK("capture view, new columns", one_int(db, "SELECT lost FROM "
	    "capture", &n) == 0 && n == 0 && one_int(db, "SELECT proc_cpu_ns "
	    "FROM capture", &v) == 0 && v == 5);
	db_close(db);

	/*
	 * Version 5 with an interval stored twice (two ingests at once):
	 * version 6 keeps the first, and refuses another copy.
	 */
	unlink(path);
	unlink(wal);
	unlink(shm);
	CHECK("open at v5", db_open_at(path, 5, &db, &err) == EXR_OK);
	CHECK("v5 twice", db_exec(db,
	    "INSERT INTO hosts (name) VALUES ('h');"
	    "INSERT INTO procs (proc_id, host_id, pid, start_ns)"
	    "  VALUES (1, 1, 42, 1000);"
	    "INSERT INTO proc_intervals (proc_id, t0_ns, t1_ns, final,"
	    "  heartbeat, cpu_user_ns, anomalies) VALUES"
	    "  (1, 1000, 2000, 0, 0, 5, 0), (1, 1000, 2000, 0, 0, 7, 0),"
	    "  (1, 2000, 3000, 0, 0, 1, 0);"
	    "INSERT INTO tasks (task_id, host_id, taskid, start_ns)"
	    "  VALUES (1, 1, 9, 1000);"
	    "INSERT INTO task_intervals (task_id, t0_ns, t1_ns, kind,"
	    "  anomalies) VALUES (1, 1000, 2000, 'final', 0),"
	    "  (1, 1000, 2000, 'final', 0);"
	    "INSERT INTO energy_procs (eproc_id, host_id, pid, start_ns)"
	    "  VALUES (1, 1, 42, 1000);"
	    "INSERT INTO energy_intervals (eproc_id, t0_ns, t1_ns, first,"
	    "  anomalies) VALUES (1, 1000, 2000, 1, 0), (1, 1000, 2000, 1, 0);",
	    &err) == EXR_OK);
	db_close(db);
	CHECK("to v6", db_open(path, &db, &err) == EXR_OK);
	CHECK("first copy kept", one_int(db, "SELECT sum(cpu_user_ns) FROM "
	    "proc_intervals", &n) == 0 && n == 6);
	CHECK("one task row", one_int(db, "SELECT count(*) FROM "
	    "task_intervals", &n) == 0 && n == 1);
	CHECK("one energy row", one_int(db, "SELECT count(*) FROM "
	    "energy_intervals", &n) == 0 && n == 1);
	CHECK("proc interval twice refused", db_exec(db, "INSERT INTO "
	    "proc_intervals (proc_id, t0_ns, t1_ns, final, heartbeat, "
	    "anomalies) VALUES (1, 0, 3000, 1, 0, 0)", &err) == EXR_DB &&
	    strstr(err.reason, "UNIQUE") != NULL);
	CHECK("task interval twice refused", db_exec(db, "INSERT INTO "
	    "task_intervals (task_id, t0_ns, t1_ns, kind, anomalies) "
	    "VALUES (1, 1500, 2000, 'partial', 0)", &err) == EXR_DB);
	CHECK("energy interval twice refused", db_exec(db, "INSERT INTO "
	    "energy_intervals (eproc_id, t0_ns, t1_ns, first, anomalies) "
	    "VALUES (1, 1500, 2000, 0, 0)", &err) == EXR_DB);
	CHECK("another process, same end: fine", db_exec(db, "INSERT INTO "
	    "procs (proc_id, host_id, pid, start_ns) VALUES (2, 1, 43, 1000);"
	    "INSERT INTO proc_intervals (proc_id, t0_ns, t1_ns, final, "
	    "heartbeat, anomalies) VALUES (2, 1000, 2000, 1, 0, 0)", &err) ==
	    EXR_OK);
	db_close(db);

	/* A newer database than this extracct is refused. */
	CHECK("reopen for the future", db_open(path, &db, &err) == EXR_OK &&
	    db_exec(db, "PRAGMA user_version = 99", &err) == EXR_OK);
	db_close(db);
	CHECK("newer refused", db_open(path, &db, &err) == EXR_DB &&
	    db == NULL && strstr(err.reason, "newer") != NULL);
	unlink(path);
	unlink(wal);
	unlink(shm);
	test_labels(path);
	unlink(path);
	unlink(wal);
	unlink(shm);
	test_dblock(path);
}
