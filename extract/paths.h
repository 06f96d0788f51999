/*
 * Default paths, in one place (OpenBSD's pathnames.h habit).
 */
#ifndef PATHS_H
#define PATHS_H

#define PATH_DEFAULT_DB		"extracct.db"	/* in the current directory */
#define PATH_PROC		"/proc"

#endif
