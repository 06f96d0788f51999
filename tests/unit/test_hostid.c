/*
 * Host identity (store/hostid.h) and schema 12: the configured id wins,
 * then /etc/machine-id (a 32-hex-digit first line) and the name, then
 * the name alone; a host that a log names is known by name only.  A
 * database from before schema 12 keeps its hosts and their ids, gets no
 * identities from the migration, and gets them at the store's first
 * use of its hosts; two hosts may then share a name.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../store/db.h"
#include "../../store/hostid.h"
#include "../../store/ingest.h"
#include "check.h"

static int
write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");
	int ok = f != NULL && fputs(s, f) >= 0;

	if (f != NULL && fclose(f) != 0)
		ok = 0;
	return ok;
}

/* The one text value of sql, into buf[n] ("" if none). */
static const char *
one_text(sqlite3 *db, const char *sql, char *buf, size_t n)
{
	sqlite3_stmt *st;

	buf[0] = '\0';
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return buf;
	if (sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_text(st, 0) != NULL)
		snprintf(buf, n, "%s",
		    (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return buf;
}

static void
identities(void)
{
	char path[] = "/tmp/extracct-unit-mid.XXXXXX";
	char buf[HOSTID_MAX], why[128];
	int fd = mkstemp(path);

	CHECK("temp file", fd != -1);
	if (fd == -1)
		return;
	close(fd);
	CHECK("configured: as written", strcmp(hostid_self("web-01", path,
	    "h", buf, sizeof(buf)), "web-01") == 0);
	CHECK("machine-id and name", write_file(path,
	    "3D1219C7c4c5404aaa1f6d2a48adfda4\n") &&
	    strcmp(hostid_self("", path, "h1", buf, sizeof(buf)),
	    "3d1219c7c4c5404aaa1f6d2a48adfda4:h1") == 0);
	CHECK("without a newline", write_file(path,
	    "3d1219c7c4c5404aaa1f6d2a48adfda4") &&
	    strcmp(hostid_self(NULL, path, "h1", buf, sizeof(buf)),
	    "3d1219c7c4c5404aaa1f6d2a48adfda4:h1") == 0);
	CHECK("not 32 hex digits: the name", write_file(path,
	    "3d1219c7c4c5404aaa1f6d2a48adfda\n") &&
	    strcmp(hostid_self(NULL, path, "h1", buf, sizeof(buf)),
	    "name:h1") == 0);
	CHECK("too long: the name", write_file(path,
	    "3d1219c7c4c5404aaa1f6d2a48adfda4ff\n") &&
	    strcmp(hostid_self(NULL, path, "h1", buf, sizeof(buf)),
	    "name:h1") == 0);
	CHECK("not hex: the name", write_file(path,
	    "3d1219c7c4c5404aaa1f6d2a48adfdaz\n") &&
	    strcmp(hostid_self(NULL, path, "h1", buf, sizeof(buf)),
	    "name:h1") == 0);
	unlink(path);
	CHECK("no file: the name", strcmp(hostid_self(NULL, path, "h1", buf,
	    sizeof(buf)), "name:h1") == 0);
	CHECK("a log's host", strcmp(hostid_name("far", buf, sizeof(buf)),
	    "name:far") == 0);
	CHECK("check: ok", hostid_check("a.b_c-9", why, sizeof(why)) == 0);
	CHECK("check: empty", hostid_check("", why, sizeof(why)) == -1);
	CHECK("check: colon", hostid_check("a:b", why, sizeof(why)) == -1);
	CHECK("check: blank", hostid_check("a b", why, sizeof(why)) == -1);
	CHECK("check: control", hostid_check("a\tb", why, sizeof(why)) == -1);
	memset(buf, 'x', 256);
	buf[256] = '\0';
	CHECK("check: 256 bytes", hostid_check(buf, why, sizeof(why)) == -1);
	buf[255] = '\0';
	CHECK("check: 255 bytes", hostid_check(buf, why, sizeof(why)) == 0);
}

static void
migration(void)
{
	char path[] = "/tmp/extracct-unit-hid.XXXXXX";
	char p2[64], buf[HOSTID_MAX];
	struct ex_err err = { 0 };
	struct store *s;
	sqlite3 *db = NULL;
	int fd = mkstemp(path);

	CHECK("temp file", fd != -1);
	if (fd == -1)
		return;
	close(fd);
	unlink(path);
	CHECK("open at v11", db_open_at(path, 11, &db, &err) == EXR_OK);
	CHECK("v11 hosts", db_exec(db, "INSERT INTO hosts (host_id, name, "
	    "exit_sources) VALUES (3, 'me', 2), (7, 'far', 0);"
	    "INSERT INTO procs (proc_id, host_id, pid, start_ns, command) "
	    "VALUES (1, 7, 42, 1000, 'x');", &err) == EXR_OK);
	CHECK("v11: a name is unique", db_exec(db, "INSERT INTO hosts (name) "
	    "VALUES ('far')", &err) != EXR_OK);
	db_close(db);

	CHECK("migrate", db_open(path, &db, &err) == EXR_OK);
	CHECK("ids and columns kept", strcmp(one_text(db, "SELECT group_concat("
	    "host_id || name || exit_sources || coalesce(ident, '-'), ',') "
	    "FROM (SELECT * FROM hosts ORDER BY host_id)", buf, sizeof(buf)),
	    "3me2-,7far0-") == 0);
	CHECK("the views still read hosts", db_exec(db, "SELECT * FROM "
	    "v_proc_usage; SELECT * FROM v_energy; SELECT * FROM "
	    "v_pacct_gaps; SELECT * FROM v_energy_usage", &err) == EXR_OK &&
	    strcmp(one_text(db, "SELECT group_concat(host, ',') FROM "
	    "(SELECT host FROM v_hosts ORDER BY host_id)", buf, sizeof(buf)),
	    "me,far") == 0);
	CHECK("v_hosts has ident", db_exec(db, "SELECT ident FROM v_hosts",
	    &err) == EXR_OK);
	db_close(db);

	CHECK("store", store_open(&s, path, 0, &err) == EXR_OK);
	if (s != NULL) {
		store_self(s, "me", "0123456789abcdef0123456789abcdef:me");
		/* The first use of the hosts fills every identity. */
		CHECK("a gap of this host", store_pacct_gap(s, "me", 10, 20,
		    "off", &err) == EXR_OK);
		db = store_db(s);
		CHECK("this machine's", strcmp(one_text(db, "SELECT ident FROM "
		    "hosts WHERE host_id = 3", buf, sizeof(buf)),
		    "0123456789abcdef0123456789abcdef:me") == 0);
		CHECK("another's: its name", strcmp(one_text(db, "SELECT ident "
		    "FROM hosts WHERE host_id = 7", buf, sizeof(buf)),
		    "name:far") == 0);
		CHECK("the gap on the old row", strcmp(one_text(db, "SELECT "
		    "host_id FROM pacct_gaps", buf, sizeof(buf)), "3") == 0);
		CHECK("no new host", strcmp(one_text(db, "SELECT count(*) FROM "
		    "hosts", buf, sizeof(buf)), "2") == 0);
		CHECK("v12: a name may repeat", db_exec(db, "INSERT INTO hosts "
		    "(name, ident) VALUES ('far', 'far-2')", &err) == EXR_OK);
		CHECK("an identity may not", db_exec(db, "INSERT INTO hosts "
		    "(name, ident) VALUES ('x', 'far-2')", &err) != EXR_OK);
		store_close(s);
	}
	unlink(path);
	snprintf(p2, sizeof(p2), "%s-wal", path);
	unlink(p2);
	snprintf(p2, sizeof(p2), "%s-shm", path);
	unlink(p2);
	snprintf(p2, sizeof(p2), "%s-lock", path);
	unlink(p2);
}

void
suite_hostid(void)
{
	identities();
	migration();
}
