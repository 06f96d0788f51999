/*
 * Opening the store and bringing its schema up to date (see db.h,
 * docs/schema.md); the migrations themselves are migrations.c's.
 */
#include <sys/resource.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../parsers/records.h"
#include "db.h"
#include "db_int.h"
#include "dblock.h"
#include "outfile.h"

/* How long a reader waits for a writer's migration (db_open_readonly). */
#define MIGRATE_WAIT_MS	60000

#define NMIGRATIONS	DB_SCHEMA_VERSION


/*
 * A write SQLite could not make (a full disk, a quota, the file size
 * limit) says so: SQLite's own message is a bare "disk I/O error" for
 * all but ENOSPC, and it keeps the errno of few failed writes, so what
 * may be the reason is said too.  Returns EXR_DB if it was one (err
 * filled), else EXR_OK.
 */
static int
write_failed(sqlite3 *db, struct ex_err *err)
{
	struct rlimit rl;
	char limit[96] = "";
	int x = sqlite3_extended_errcode(db), e = sqlite3_system_errno(db);

	if ((x & 0xff) != SQLITE_FULL && x != SQLITE_IOERR_WRITE &&
	    x != SQLITE_IOERR_FSYNC && x != SQLITE_IOERR_TRUNCATE &&
	    x != SQLITE_IOERR_SHMSIZE)
		return EXR_OK;
	if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		snprintf(limit, sizeof(limit), ", or over the %ju-byte file "
		    "size limit", (uintmax_t)rl.rlim_cur);
	return ex_fail(err, EXR_DB, 0, "write failed: %s (disk full%s?)",
	    e != 0 ? strerror(e) : sqlite3_errmsg(db), limit);
}

int
db_fail(sqlite3 *db, struct ex_err *err, const char *what)
{
	if (db != NULL && write_failed(db, err) != EXR_OK)
		return EXR_DB;
	return ex_fail(err, EXR_DB, 0, "%s: %s", what,
	    db != NULL ? sqlite3_errmsg(db) : "cannot open");
}

int
db_exec(sqlite3 *db, const char *sql, struct ex_err *err)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		if (write_failed(db, err) == EXR_OK)
			ex_fail(err, EXR_DB, 0, "%s", msg != NULL ? msg :
			    sqlite3_errmsg(db));
		sqlite3_free(msg);
		return EXR_DB;
	}
	return EXR_OK;
}

int
db_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **st,
    struct ex_err *err)
{
	if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, st,
	    NULL) != SQLITE_OK)
		return db_fail(db, err, "prepare");
	return EXR_OK;
}

int
db_prepare_rows(sqlite3 *db, const char *head, const char *row, size_t n,
    const char *tail, sqlite3_stmt **st, struct ex_err *err)
{
	size_t len = strlen(head) + n * (strlen(row) + 1) + strlen(tail) + 1;
	size_t i, o;
	char *sql;
	int rc;

	if ((sql = malloc(len)) == NULL)
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	o = (size_t)snprintf(sql, len, "%s", head);
	for (i = 0; i < n; i++)
		o += (size_t)snprintf(sql + o, len - o, "%s%s", i > 0 ? "," : "",
		    row);
	snprintf(sql + o, len - o, "%s", tail);
	rc = db_prepare(db, sql, st, err);
	free(sql);
	return rc;
}

static int
user_version(sqlite3 *db, int *v, struct ex_err *err)
{
	sqlite3_stmt *st;
	int rc;

	if (db_prepare(db, "PRAGMA user_version", &st, err) != EXR_OK)
		return EXR_DB;
	rc = sqlite3_step(st);
	*v = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? EXR_OK : db_fail(db, err, "user_version");
}

/* path's own file (0), its -wal (1) and -shm (2), into p. */
static int
db_file(char *p, size_t n, const char *path, int i)
{
	static const char *const sfx[3] = { "", "-wal", "-shm" };

	return snprintf(p, n, "%s%s", path, sfx[i]) < (int)n ? 0 : -1;
}

/*
 * The database and its -wal and -shm are outputs like the others
 * (outfile.h): a link, a FIFO (SQLite's open would wait for ever), a
 * hard link or a file another user made in their place is refused
 * before SQLite opens them.  A new database is created here, mode 0640:
 * SQLite gives its -wal and -shm the database's mode.  at[] gets what
 * was there (st_nlink 0: nothing).  Not for ":memory:" or a URI.
 */
static int
db_files_check(const char *path, struct stat at[3], struct ex_err *err)
{
	char p[4096], why[sizeof(err->reason)];
	int i, fd, rc;

	for (i = 0; i < 3; i++) {
		if (db_file(p, sizeof(p), path, i) != 0)
			return ex_fail(err, EXR_DB, 0, "name too long");
		if ((rc = outfile_existing(p, &at[i], err)) != EXR_OK)
			goto refused;
	}
	if (at[0].st_nlink > 0)
		return EXR_OK;
	/* O_EXCL: nothing (link, FIFO) is followed or opened. */
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	    OUTFILE_MODE);
	if (fd == -1 && errno == EEXIST) {
		/* Another extracct made it first. */
		i = 0;
		if ((rc = outfile_existing(path, &at[0], err)) != EXR_OK)
			goto refused;
		return EXR_OK;
	}
	/* New, so no connection of ours holds locks on it to lose. */
	rc = fd == -1 || fstat(fd, &at[0]) == -1 ? ex_fail(err, EXR_DB, 0,
	    "%s", strerror(errno)) : EXR_OK;
	if (fd != -1)
		close(fd);
	return rc;
refused:
	/* Name the -wal or -shm; the caller names the database. */
	if (i > 0 && err != NULL) {
		snprintf(why, sizeof(why), "%s", err->reason);
		ex_fail(err, rc, 0, "%s: %s", p, why);
	}
	return rc;
}

/*
 * After SQLite has opened the files: the database is still the file
 * checked (none was swapped in meanwhile), and its -wal and -shm, which
 * SQLite may just have made, pass the same checks.
 */
static int
db_files_recheck(const char *path, const struct stat at[3],
    struct ex_err *err)
{
	struct stat now[3];
	int rc;

	if ((rc = db_files_check(path, now, err)) != EXR_OK)
		return rc;
	if (now[0].st_dev != at[0].st_dev || now[0].st_ino != at[0].st_ino)
		return ex_fail(err, EXR_DB, 0, "replaced by another file "
		    "while it was opened; refusing it");
	return EXR_OK;
}

int
db_open(const char *path, sqlite3 **dbp, struct ex_err *err)
{
	return db_open_at(path, (int)NMIGRATIONS, dbp, err);
}

int
db_open_at(const char *path, int version, sqlite3 **dbp, struct ex_err *err)
{
	struct stat at[3];
	sqlite3 *db = NULL;
	char sql[64];
	int v, rc, ondisk, fresh;

	*dbp = NULL;
	/* Never open a database through a link someone else planted. */
	ondisk = path[0] != '\0' && strcmp(path, ":memory:") != 0 &&
	    strncmp(path, "file:", 5) != 0;
	if (ondisk && (rc = db_files_check(path, at, err)) != EXR_OK)
		return rc;
	/* One connection, one thread: no SQLite mutexes. */
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX,
	    NULL) != SQLITE_OK) {
		rc = db_fail(db, err, "open");
		sqlite3_close(db);
		return rc;
	}
	sqlite3_busy_timeout(db, 10000);
	/*
	 * WAL: readers (reports) never block the hourly ingest.  NORMAL
	 * sync is crash safe in WAL mode (a power cut may lose the last
	 * transaction, never corrupt the database); the ledger then
	 * re-reads what that transaction had.  Foreign keys are declared
	 * for readers but not enforced: ingest writes parents first, and
	 * the check cost a B-tree lookup per row (a fifth of ingest time).
	 */
	/*
	 * Large pages: ingest appends rows in time order, and each page is
	 * one write(2) to the WAL and one to the database.  page_size only
	 * takes effect on a new database (before WAL mode is set).  One
	 * not on disk (the fuzzer's) keeps SQLite's default: it writes
	 * nothing, and 64 KiB pages cost it twice the time per input.
	 */
	/*
	 * Incremental auto-vacuum, likewise only on a new database, so
	 * that retention's deletes give the file back (retention.h; an
	 * older database is switched by one VACUUM there).
	 */
	if (ondisk && db_exec(db, "PRAGMA page_size=65536; "
	    "PRAGMA auto_vacuum=INCREMENTAL", err) != EXR_OK)
		goto fail;
	if (db_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
	    "PRAGMA cache_size=-65536;", err) !=
	    EXR_OK)
		goto fail;
	/*
	 * A new database (version 0) takes every migration in turn, and
	 * their statement journals went to temporary files: 13 MB written
	 * to make an empty database.  With nothing in it to sort or copy,
	 * they fit in memory.  An older database's migrations may sort
	 * millions of rows, so they keep the files.
	 */
	if (user_version(db, &v, err) != EXR_OK)
		goto fail;
	fresh = v == 0;
	if (fresh && db_exec(db, "PRAGMA temp_store=MEMORY", err) != EXR_OK)
		goto fail;
	/*
	 * One migration per transaction; the version is read inside it, so
	 * two runs opening a new database at once migrate it once.
	 */
	for (;;) {
		if (db_exec(db, "BEGIN IMMEDIATE", err) != EXR_OK)
			goto fail;
		if (user_version(db, &v, err) != EXR_OK)
			goto rollback;
		if (v > (int)NMIGRATIONS) {
			ex_fail(err, EXR_DB, 0, "schema version %d is newer "
			    "than this extracct knows (%d)", v,
			    (int)NMIGRATIONS);
			goto rollback;
		}
		if (v >= version) {
			if (db_exec(db, "COMMIT", err) != EXR_OK)
				goto rollback;
			break;
		}
		snprintf(sql, sizeof(sql), "PRAGMA user_version=%d", v + 1);
		if (db_exec(db, db_migrations[v], err) != EXR_OK ||
		    db_exec(db, sql, err) != EXR_OK ||
		    db_exec(db, "COMMIT", err) != EXR_OK)
			goto rollback;
	}
	if (fresh && db_exec(db, "PRAGMA temp_store=DEFAULT", err) != EXR_OK)
		goto fail;
	/* SQLite has made its -wal and -shm by now: check them too. */
	if (ondisk && db_files_recheck(path, at, err) != EXR_OK)
		goto fail;
	*dbp = db;
	return EXR_OK;
rollback:
	(void)sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
fail:
	sqlite3_close(db);
	return EXR_DB;
}

int
db_open_readonly(const char *path, sqlite3 **dbp, struct ex_err *err)
{
	struct stat st;
	sqlite3 *db = NULL;
	int v, waited;

	*dbp = NULL;
	/* A report must neither create a database nor wait on a FIFO. */
	if (lstat(path, &st) == -1)
		return ex_fail(err, EXR_DB, 0, "%s%s", strerror(errno),
		    errno == ENOENT ? " (no database there: name one with "
		    "--db FILE, or database: in the configuration)" : "");
	if (!S_ISREG(st.st_mode))
		return ex_fail(err, EXR_DB, 0, "%s, not a database",
		    outfile_kind(st.st_mode));
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY |
	    SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		v = db_fail(db, err, "open");
		sqlite3_close(db);
		return v;
	}
	/* An ingest commits in chunks: wait for one, not for ever. */
	sqlite3_busy_timeout(db, 10000);
	if (user_version(db, &v, err) != EXR_OK)
		goto fail;
	/*
	 * Older while a writer holds the lock: an ingest is migrating it
	 * (a new database takes every migration in turn, each committed,
	 * and a report between two saw a version of the middle).  Wait
	 * for it as writers wait for the lock, up to a minute; an older
	 * database no writer is at is refused at once.
	 */
	for (waited = 0; v < (int)NMIGRATIONS && waited < MIGRATE_WAIT_MS &&
	    dblock_held(path); waited += 20) {
		(void)nanosleep(&(struct timespec){ 0, 20 * 1000000 }, NULL);
		if (user_version(db, &v, err) != EXR_OK)
			goto fail;
	}
	if (v != (int)NMIGRATIONS) {
		ex_fail(err, EXR_DB, 0, v > (int)NMIGRATIONS ? "schema version "
		    "%d is newer than this extracct knows (%d)" : "schema "
		    "version %d, older than this extracct's %d: an ingest (or "
		    "the hourly run) brings it up to date", v,
		    (int)NMIGRATIONS);
		goto fail;
	}
	*dbp = db;
	return EXR_OK;
fail:
	sqlite3_close(db);
	return EXR_DB;
}

void
db_close(sqlite3 *db)
{
	sqlite3_close(db);
}

uint64_t
db_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * NS + (uint64_t)ts.tv_nsec;
}
