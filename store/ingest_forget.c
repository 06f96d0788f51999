/*
 * The store seen from outside (see ingest.h): its database handle, and
 * forgetting what it holds in memory after the tables were emptied
 * behind its back.  For tests and the fuzzer, which reads every table
 * after an ingest and empties them between inputs: building the schema
 * afresh for each input would cost more than ingesting it.
 */
#include "ingest_int.h"

struct sqlite3 *
store_db(struct store *s)
{
	return s->db;
}

void
store_forget(struct store *s)
{
	live_clear(&s->procs);
	live_clear(&s->tasks);
	s->nfkeys = 0;
	s->npending = 0;
	/* What states_load reads from empty tables. */
	s->next_proc_id = 1;
	s->next_task_id = 1;
	s->broken = 0;
}
