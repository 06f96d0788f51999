/*
 * The inside of rdb (see rdb.h): each engine is a table of operations.
 */
#ifndef RDB_INT_H
#define RDB_INT_H

#include "rdb.h"

struct rdb_ops {
	enum rdb_engine	 engine;
	void		 (*close)(struct rdb *);
	const char	*(*errmsg)(const struct rdb *);
	int		 (*prepare)(struct rdb *, const char *, struct rdb_q **);
	void		 (*bind_int64)(struct rdb_q *, int, int64_t);
	void		 (*bind_text)(struct rdb_q *, int, const char *);
	enum rdb_step	 (*step)(struct rdb_q *);
	void		 (*reset)(struct rdb_q *);
	void		 (*finalize)(struct rdb_q *);
	int		 (*isnull)(struct rdb_q *, int);
	int64_t		 (*int64)(struct rdb_q *, int);
	double		 (*dbl)(struct rdb_q *, int);
	const char	*(*text)(struct rdb_q *, int);
};

/* Every engine's handles start with these. */
struct rdb {
	const struct rdb_ops	*ops;
};

struct rdb_q {
	const struct rdb_ops	*ops;
};

#ifdef HAVE_LIBPQ
/*
 * rdb_pg.c: sql with each ?N outside quotes made $N, in a string the
 * caller frees (NULL: no memory); *nparam gets the highest N.
 */
char	*rdb_pg_sql(const char *sql, int *nparam);
#endif

#endif
