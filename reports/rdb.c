/*
 * rdb (see rdb.h): the calls, through the engine's table.
 */
#include <stddef.h>

#include "rdb_int.h"

void
rdb_close(struct rdb *db)
{
	if (db != NULL)
		db->ops->close(db);
}

enum rdb_engine
rdb_engine(const struct rdb *db)
{
	return db->ops->engine;
}

const char *
rdb_errmsg(const struct rdb *db)
{
	return db->ops->errmsg(db);
}

int
rdb_prepare(struct rdb *db, const char *sql, struct rdb_q **qp)
{
	*qp = NULL;
	return db->ops->prepare(db, sql, qp);
}

void
rdb_bind_int64(struct rdb_q *q, int i, int64_t v)
{
	q->ops->bind_int64(q, i, v);
}

void
rdb_bind_text(struct rdb_q *q, int i, const char *v)
{
	q->ops->bind_text(q, i, v);
}

enum rdb_step
rdb_step(struct rdb_q *q)
{
	return q->ops->step(q);
}

void
rdb_reset(struct rdb_q *q)
{
	q->ops->reset(q);
}

void
rdb_finalize(struct rdb_q *q)
{
	if (q != NULL)
		q->ops->finalize(q);
}

int
rdb_isnull(struct rdb_q *q, int col)
{
	return q->ops->isnull(q, col);
}

int64_t
rdb_int64(struct rdb_q *q, int col)
{
	return q->ops->int64(q, col);
}

double
rdb_double(struct rdb_q *q, int col)
{
	return q->ops->dbl(q, col);
}

const char *
rdb_text(struct rdb_q *q, int col)
{
	return q->ops->text(q, col);
}
