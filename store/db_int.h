/*
 * Between db.c, which opens the store and migrates it, and
 * migrations.c, which holds the migrations.
 */
#ifndef DB_INT_H
#define DB_INT_H

/* db_migrations[i] takes the schema from version i to i + 1: SQL run
 * in one transaction, DB_SCHEMA_VERSION of them. */
extern const char *const db_migrations[];

#endif
