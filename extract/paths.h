/*
 * Default paths, in one place (OpenBSD's pathnames.h habit).
 */
#ifndef PATHS_H
#define PATHS_H

#define PATH_PROC		"/proc"
#define PATH_POWERCAP		"/sys/class/powercap"	/* RAPL zones */
#define PATH_SPOOL		"/var/spool/extracct"	/* rotating logs */
/* The one default database of ingest, report and run (configurable). */
#define PATH_DB			"/var/lib/extracct/extracct.db"
#define PATH_PACCT		"/var/log/account/pacct"	/* Debian's */
#define PATH_CONFIG		"/etc/extracct.yml"
#define PATH_MACHINE_ID		"/etc/machine-id"	/* host identity */
#define PATH_PASSWD		"/etc/passwd"	/* the host's names (ingest) */
#define PATH_GROUP		"/etc/group"
#define PATH_PROJECT		"/etc/project"	/* Solaris */
#define PATH_ACCTD_PID		"/run/extracct/acctd.pid"
#define PATH_ACCTADM_CONF	"/etc/acctadm.conf"	/* Solaris, pre-SMF */
#if defined(__sun)
#define PATH_ZONEINFO		"/usr/share/lib/zoneinfo"
#else
#define PATH_ZONEINFO		"/usr/share/zoneinfo"
#endif

#endif
