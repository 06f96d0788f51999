/* SQLite's allocator for fuzz targets (sqlite_pool.c). */
#ifndef SQLITE_POOL_H
#define SQLITE_POOL_H

/* SQLite for one thread, with this allocator: before any other
 * sqlite3_ call.  SQLITE_OK or SQLite's error. */
int	sqlite_pool_install(void);

#endif
