/*
 * The store (see ingest.h): the database behind its writer's lock, the
 * ledger's and hosts' statements, and the sinks, one per record kind,
 * reached only through the table below.  Opening prepares every sink and
 * loads what the last commit left (the live processes and tasks); a
 * rollback reloads it, since memory then runs ahead of the database.
 *
 * Also the store seen from outside, for tests and the fuzzer: its
 * database handle, and forgetting what it holds in memory after the
 * tables were emptied behind its back (the fuzzer reads every table
 * after an ingest and empties them between inputs: building the schema
 * afresh for each input would cost more than ingesting it).
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dblock.h"
#include "ingest_int.h"

/*
 * One row per record kind, in the order their flush hooks run at a
 * commit (each writes only its own tables: the order changes no row).
 */
const struct sink *const sinks[SINK_N] = {
	[REC_PROC] = &proc_sink,
	[REC_TASK] = &task_sink,
	[REC_FLOW] = &flow_sink,
	[REC_SYSLOAD] = &sysload_sink,
	[REC_LOST] = &lost_sink,
	[REC_ENERGY] = &energy_sink,
	[REC_RAPL] = &rapl_sink,
	[REC_CGROUP] = &cgroup_sink,
	[SINK_STREAM] = &stream_sink,
};

/* Each sink's load hook, in table order: EXR_OK or the first error. */
static int
sinks_load(struct store *s, struct ex_err *err)
{
	int k, rc;

	for (k = 0; k < SINK_N; k++)
		if (sinks[k] != NULL && sinks[k]->load != NULL &&
		    (rc = sinks[k]->load(s, err)) != EXR_OK)
			return rc;
	return EXR_OK;
}

static void
sinks_reset(struct store *s, int keep)
{
	int k;

	for (k = 0; k < SINK_N; k++)
		if (sinks[k] != NULL && sinks[k]->reset != NULL)
			sinks[k]->reset(s, keep);
}

int
store_open(struct store **sp, const char *path, uint64_t wait_ms,
    struct ex_err *err)
{
	struct store *s;
	int k, rc;

	*sp = NULL;
	if ((s = calloc(1, sizeof(*s))) == NULL)
		return ex_fail(err, EXR_NOMEM, 0, "no memory");
	s->lockfd = -1;
	/*
	 * The writer's lock first: everything read from here on (the
	 * schema, the live processes, the next ids, each file's ledger
	 * row) stays true until store_close, because no other writer can
	 * change it meanwhile.
	 */
	if ((rc = dblock_take(path, wait_ms, &s->lockfd, err)) != EXR_OK ||
	    (rc = db_open(path, &s->db, err)) != EXR_OK ||
	    (rc = hosts_prepare(s, err)) != EXR_OK ||
	    (rc = ledger_prepare(&s->ledger, s->db, err)) != EXR_OK)
		goto fail;
	for (k = 0; k < SINK_N; k++)
		if (sinks[k] != NULL && sinks[k]->prepare != NULL &&
		    (rc = sinks[k]->prepare(s, err)) != EXR_OK)
			goto fail;
	if ((rc = sinks_load(s, err)) != EXR_OK)
		goto fail;
	*sp = s;
	return EXR_OK;
fail:
	store_close(s);
	return rc;
}

void
store_close(struct store *s)
{
	int k;

	if (s == NULL)
		return;
	for (k = 0; k < SINK_N; k++)
		if (sinks[k] != NULL && sinks[k]->finalize != NULL)
			sinks[k]->finalize(s);
	hosts_finalize(s);
	ledger_finalize(&s->ledger);
	(void)store_settle(s, NULL);
	if (s->db != NULL)
		db_close(s->db);
	dblock_release(s->lockfd);	/* after the close's checkpoint */
	free(s);
}

/*
 * After a rollback: memory runs ahead of the database, so every sink
 * drops what it holds and reads back what the last commit left.
 * Without it the next file would difference against nothing: a store
 * that cannot read it back is broken, and takes no more ingests.
 */
void
store_reload(struct store *s)
{
	sinks_reset(s, 0);
	if (sinks_load(s, NULL) != EXR_OK)
		s->broken = 1;
}

struct sqlite3 *
store_db(struct store *s)
{
	return s->db;
}

void
store_forget(struct store *s)
{
	sinks_reset(s, 1);
	s->broken = 0;
}

int
store_settle(struct store *s, struct ex_err *err)
{
	if (s->db == NULL || sqlite3_get_autocommit(s->db))
		return EXR_OK;
	return db_exec(s->db, "COMMIT", err);
}

int
store_fully_ingested(struct store *s, const char *path, int *yes,
    struct ex_err *err)
{
	struct ledger_entry le;
	struct stat sb;
	int fd, rc;

	*yes = 0;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) == -1)
		return ex_fail(err, EXR_IO, 0, "%s: %s", path, strerror(errno));
	if (fstat(fd, &sb) == -1) {
		rc = ex_fail(err, EXR_IO, 0, "%s: %s", path, strerror(errno));
		close(fd);
		return rc;
	}
	if (sb.st_size == 0) {
		close(fd);
		*yes = 1;		/* empty: nothing in it to lose */
		return EXR_OK;
	}
	rc = ledger_lookup(&s->ledger, fd, (uint64_t)sb.st_size, &le, err);
	close(fd);
	if (rc == EXR_OK)
		*yes = le.file_id != 0 && le.ingested_to == (uint64_t)sb.st_size;
	return rc;
}
