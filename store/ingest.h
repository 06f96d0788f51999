/*
 * ingest: decode a log (exacct, pacct or a metric-provider stream, told
 * apart by content), difference and pair its records, and store the
 * results and the ledger in SQLite, exactly once and crash safe.
 *
 * Records are applied in chunks; each chunk's interval rows, proc_last
 * and task_last changes, flow conversations and the ledger's new offset
 * commit in one transaction.  A run killed at any moment leaves the
 * database at the end of its last chunk, and the next run resumes from
 * the ledger's offset with the state that chunk left: the same database
 * as one uninterrupted run.
 */
#ifndef INGEST_H
#define INGEST_H

#include <stdint.h>

#include "../parsers/exacct.h"
#include "../parsers/pacct.h"
#include "../parsers/records.h"
#include "../parsers/stream.h"

struct sqlite3;
struct store;

struct ingest_opts {
	int		 idle_always;	/* idle_rows: always */
	uint64_t	 heartbeat_ns;	/* heartbeat_hours in ns; 0: none */
	uint64_t	 chunk_records;	/* records per transaction */
	/* Each record as decoded (for .txt/.csv outputs); may be NULL. */
	int		(*on_record)(void *arg, const char *host,
			    enum rec_kind kind, const void *rec);
	/* Each sample of a metric-provider stream; may be NULL. */
	int		(*on_sample)(void *arg, const char *host,
			    const struct stream_provider *p,
			    const struct stream_line *ln,
			    const struct stream_sample *x);
	/* Each damaged range [from, to); tail: left for the next run. */
	void		(*on_damage)(void *arg, const char *path, uint64_t from,
			    uint64_t to, const struct ex_err *err, int tail);
	/* Something worth knowing about the input at byte off (a gap in a
	 * stream); may be NULL. */
	void		(*on_note)(void *arg, const char *path, uint64_t off,
			    const char *msg);
	/* Host of logs that do not name one (pacct): gethostname(). */
	const char	*host;
	/* The host's passwd, group and project files, whose names ingest
	 * stores for it (host_names); NULL: this machine's own, when host
	 * is this machine (own_host), else none. */
	const char	*names[3];
	int		 own_host;
	/* The provider of metric-provider streams; NULL: from the file's
	 * name (GMT writes PROVIDER.log). */
	const char	*provider;
	/* rapl_wrap: drop (a wrapped interval's energy is not known). */
	int		 rapl_drop_wrapped;
	/* The carbon intensity of host's electricity, g CO2e/kWh (< 0:
	 * not configured), and where the figure comes from. */
	double		 carbon_intensity;
	const char	*carbon_source;
	/* host's CPUs as configured (0: not), for when no snap record
	 * says how many are online. */
	int64_t		 cpus;
	/* The log is closed (nothing writes it any more, run): damage at
	 * its end is not a record still being written but final, stored
	 * as damage like any other, and the ledger marks the file done
	 * (files.closed), so it is reported once and may be retired. */
	int		 closed;
	/*
	 * Keep a read transaction open after a file with nothing new, for
	 * the next file's lookup: SQLite then takes its locks once for a
	 * run of known logs, not a dozen fcntl calls each (half a run's
	 * system calls at 20,000 logs).  The caller ends it: store_settle.
	 */
	int		 hold_read;
	void		*arg;
};

struct ingest_stats {
	int		 already;	/* the ledger says nothing is new */
	int		 empty;		/* nothing to read: an empty file, or
					   not a log (err says what it is) */
	uint64_t	 from, to;	/* byte range read this time */
	uint64_t	 records;	/* proc, task and flow records */
	uint64_t	 rows;		/* interval rows stored */
	uint64_t	 duplicates;	/* identical repeats dropped */
	uint64_t	 late;		/* older than what is stored: dropped */
	uint64_t	 idle;		/* idle intervals not stored */
	uint64_t	 untimed;	/* no pid, start or finish: dropped */
	uint64_t	 anomalies;	/* counters that went backwards */
	uint64_t	 other;		/* other objects, skipped */
	uint64_t	 flows;		/* one-way flow records */
	uint64_t	 alt_exits;	/* exits of processes another source
					   had already closed */
	uint64_t	 lost;		/* exit records the kernel dropped */
	uint64_t	 cg_exits[5];	/* exits by whose cgroup they took:
					   their own, CGROUP_FROM_LEADER,
					   _PARENT, _SNAPSHOT; [4] none */
	uint64_t	 gaps;		/* stream samples missing (runs of) */
	uint64_t	 excluded;	/* stream lines that only date the next
					   (a since-boot average) */
	uint64_t	 underflows;	/* stream energy readings <= 1 uJ
					   (kept) */
	int		 torn;		/* a partial last line, left */
	struct rec_counts counts;	/* unknown items, bad values */
	uint64_t	 damaged, damaged_bytes;
};

/*
 * Has every byte of path been ingested (per the ledger)?  *yes gets the
 * answer (an empty file: yes, it holds nothing).  Retention asks before
 * it deletes a log.  EXR_OK or EXR_IO/DB.
 */
/* End the read transaction ingest_opts.hold_read left open, if any. */
int	store_settle(struct store *s, struct ex_err *err);

int	store_fully_ingested(struct store *s, const char *path, int *yes,
	    struct ex_err *err);

/*
 * Open the store (creating it) for writing.  First takes the database's
 * writer lock (dblock.h), waiting up to wait_ms for another writer to
 * finish; it is held until store_close.  EXR_OK, or EXR_BUSY (the wait
 * ran out), EXR_IO or EXR_DB with err.
 */
int	store_open(struct store **sp, const char *path, uint64_t wait_ms,
	    struct ex_err *err);
void	store_close(struct store *s);

/*
 * For tests and the fuzzer (store/store.c): the store's database
 * (owned by the store), and store_forget, which drops the state the
 * store keeps in memory (live processes and tasks, the next ids) once
 * the caller has emptied every table, outside any ingest.
 */
struct sqlite3 *store_db(struct store *s);

/*
 * Which host is this machine: the host called name (the configured host
 * name, else gethostname) has identity ident (hostid_self), any other
 * host named in a log is known by its name only (hostid.h).  Without a
 * call, every host is known by name only.  Both strings are copied.
 */
void	store_self(struct store *s, const char *name, const char *ident);
void	store_forget(struct store *s);

/*
 * Ingest path into the store.  Returns EXR_OK, EXR_DAMAGED (some bytes
 * skipped, reported through on_damage; everything else stored), EXR_IO,
 * EXR_DB or EXR_NOMEM (err filled; what was committed stays).
 */
int	ingest_file(struct store *s, const char *path,
	    const struct ingest_opts *o, struct ingest_stats *st,
	    struct ex_err *err);

/*
 * Record that process accounting on host was off from t0_ns (the last
 * record before; < 0: not known) until t1_ns, when rotate switched it
 * back on (table pacct_gaps).  EXR_OK or EXR_DB.
 */
int	store_pacct_gap(struct store *s, const char *host, int64_t t0_ns,
	    int64_t t1_ns, const char *reason, struct ex_err *err);

/* One id's name, from a host's passwd, group or project file. */
struct store_name {
	int64_t		 id;
	const char	*name;
};

/*
 * Replace the names of kind ("user", "group", "project") that host
 * gives its ids with names[n] (table host_names, store/names.c), in one
 * transaction; nothing when the database has no row for host.  EXR_OK
 * or EXR_DB.
 */
int	store_host_names(struct store *s, const char *host, const char *kind,
	    const struct store_name *names, size_t n, struct ex_err *err);

#endif
