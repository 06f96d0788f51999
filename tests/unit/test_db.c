/*
 * Schema migrations: a database built at version 2, with rows in it, is
 * brought to the current version by db_open, and keeps its rows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../store/db.h"
#include "check.h"

static int
one_int(sqlite3 *db, const char *sql, long long *out)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : -1;
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

	/* A newer database than this extracct is refused. */
	CHECK("reopen for the future", db_open(path, &db, &err) == EXR_OK &&
	    db_exec(db, "PRAGMA user_version = 99", &err) == EXR_OK);
	db_close(db);
	CHECK("newer refused", db_open(path, &db, &err) == EXR_DB &&
	    db == NULL && strstr(err.reason, "newer") != NULL);
	unlink(path);
	unlink(wal);
	unlink(shm);
}
