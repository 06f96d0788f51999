/*
 * The configuration: /etc/extracct.yml, or the file given with -c.
 * A flat YAML mapping; every key has a default, an unknown key or a value
 * of the wrong type is an error naming its line and column, as is a key
 * given twice, a second document, an alias, an anchor or a tag.  Command-line
 * options override it.  docs/extracct.yml.example lists every key; the
 * key table in config.c is where each key's name, type, range, default
 * and printed form are written, once.
 */
#ifndef CONFIG_H
#define CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../parsers/exerr.h"

#define CONFIG_STR	512

struct config {
	char		 path[CONFIG_STR];	/* where it came from, or "" */
	char		 spool_dir[CONFIG_STR];
	char		 database[CONFIG_STR];
	char		 output_dir[CONFIG_STR];	/* "" : none */
	char		 pacct_file[CONFIG_STR];
	int		 pacct_manage;			/* pacct: manage */
	char		 host[CONFIG_STR];		/* "" : gethostname */
	char		 host_id[CONFIG_STR];		/* "" : derived (hostid.h) */
	char		 timezone[CONFIG_STR];		/* "local" or a zone */
	uint64_t	 retention_days;
	uint64_t	 text_retention_days;
	uint64_t	 keep_intervals_days;		/* 0: for ever */
	uint64_t	 keep_rollups_months;		/* 0: for ever */
	int		 idle_always;			/* idle_rows */
	uint64_t	 heartbeat_hours;
	char		 counter_wrap[16];		/* "none" */
	char		 acctd_pidfile[CONFIG_STR];
	uint64_t	 acctd_rcvbuf;			/* bytes */
	char		 powercap_dir[CONFIG_STR];
	int		 rapl_drop_wrapped;		/* rapl_wrap: drop */
	int		 snap_cpu;			/* snapcpu.h */
	double		 carbon_intensity;		/* g CO2e/kWh; < 0: none */
	char		 carbon_source[CONFIG_STR];
	uint64_t	 cpus;				/* 0: not configured */
	char		 central[CONFIG_STR];		/* "" : no push */
	int		 private_file;			/* path: no group or
							   other access */
};

/*
 * Defaults and limits that --help texts restate, defaults as a file
 * says them: config.c's key table has the same, so the two cannot
 * disagree.  (Plain literals, for CMDOPT_STR.)  The paths are paths.h's.
 */
#define CONFIG_TIMEZONE			"local"
#define CONFIG_RETENTION_DAYS		"14"
#define CONFIG_TEXT_RETENTION_DAYS	"90"
#define CONFIG_IDLE_ROWS		"heartbeat"
#define CONFIG_HEARTBEAT_HOURS		"24"
#define CONFIG_ACCTD_RCVBUF		"16777216"	/* 16 MiB */
#define CONFIG_DAYS_MAX			36500	/* the *_days keys */
#define CONFIG_HOURS_MAX		87600	/* heartbeat_hours */
/* acctd's socket receive buffer, bytes: acctd_rcvbuf and --rcvbuf. */
#define ACCTD_RCVBUF_MIN		4096
#define ACCTD_RCVBUF_MAX		1073741824	/* 1 GiB */

/* The defaults: every key's, from its row of the key table. */
void	config_defaults(struct config *c);

/*
 * The i-th key of the table, in the order config_print prints them, and
 * its default as a file says it into *def (if def is not NULL); NULL
 * past the last.  For the unit tests, which walk the table.
 */
const char *config_key(size_t i, const char **def);

/*
 * Set key name to value as the file's "name: value" would: 0, or -1
 * with why[n] saying why not, the key's name first.
 */
int	config_set(struct config *c, const char *name, const char *value,
	    char *why, size_t n);

/*
 * Read path into c (on top of the defaults).  Returns EXR_OK, EXR_USAGE
 * with err naming line and column, or EXR_IO.
 */
int	config_load(struct config *c, const char *path, struct ex_err *err);

/* The same from an open stream (fmemopen in the fuzzer), named path in
 * messages; fp stays open. */
int	config_read(struct config *c, FILE *fp, const char *path,
	    struct ex_err *err);

/*
 * Is zone one reports can use: "local", "UTC", or a name whose file in
 * the zoneinfo database ($TZDIR, else PATH_ZONEINFO) is a TZif file?
 * 0, or -1 with why[n] saying what is wrong.  (An unknown zone would
 * silently read as UTC.)
 */
int	config_zone_check(const char *zone, char *why, size_t n);

/* snap_cpu's words, "auto", "ticks", "runtime": the measure of
 * linux/snapcpu.h, or -1; and back.  A configured value, so here,
 * built on every system. */
int	snapcpu_parse(const char *s);
const char *snapcpu_name(int measure);

/*
 * The name of the report's zone into buf[n]: tz (--tz or timezone:)
 * unless NULL or "local"; else the TZ variable's (a path into the
 * zoneinfo tree names its zone; set and empty is UTC, as glibc reads
 * it), else the zone /etc/localtime links to, else /etc/timezone's.
 * 0, or -1 where no zoneinfo name was found (buf then holds what TZ
 * says, or the zone's abbreviation): good enough to print, not to
 * give a server, whose hours must be the client's.
 */
int	config_zone_name(const char *tz, char *buf, size_t n);

/* The configured host name, else this machine's. */
void	config_hostname(const struct config *cfg, char *buf, size_t n);

/* Print the effective configuration as YAML. */
void	config_print(FILE *fp, const struct config *c);

#endif
