/*
 * The rollups' SQL (rollup.h), shared by the migration that made them
 * (db.c, schema 15: frozen with it; a later change is a new migration),
 * by rollup.c and by the report that scans the intervals.
 *
 * RU_PARTS is rollup_split in SQL: the hours an interval covers (a
 * recursive CTE, one row per hour) and each value's part of it, in the
 * same integer arithmetic as rollup.c, so both make the same rows.  The
 * weights are the interval's time in each hour in ms (in seconds past
 * 2^31 ms, 24.8 days), so that (v % d) * c stays below 2^62; hour
 * boundaries fall on whole ms and seconds, so the weights of the hours
 * add up to d exactly, and the parts, differences of floor(v * c / d)
 * at consecutive cumulative weights c, add up to v.  Portable SQL (no
 * min() or max() of two values): PostgreSQL runs it too.
 */
#ifndef ROLLUP_SQL_H
#define ROLLUP_SQL_H

#include "../parsers/records.h"	/* NS_SQL */

#define RU_H		"3600000000000"
/*
 * Keeps SQLite from flattening a subquery into the one around it, where
 * each use of a column would become its whole expression again (the
 * parts use d, cb and ce 96 times): an OFFSET is never flattened.
 * PostgreSQL's fence is "OFFSET 0" alone (rdb.h: one query that must
 * differ).
 */
#ifndef RU_FENCE
#define RU_FENCE	"LIMIT -1 OFFSET 0"
#endif
#define RU_MAXSPLIT	"315576000000000000"
#define RU_MAXT		"7258118400000000000"	/* ROLLUP_MAX_T_NS */
/* An interval's real time, 0 for times out of range (rollup.h). */
#define RU_REAL	"(CASE WHEN t0_ns >= 0 AND t1_ns >= 0 AND t1_ns <= " \
	RU_MAXT " THEN t1_ns - t0_ns ELSE 0 END)"

/* The values summed, in enum rollup_value order. */
#define RU_SUM_COLS \
	"cpu_user_ns, cpu_sys_ns, chars_rdwr, blocks_in, blocks_out, " \
	"read_bytes, write_bytes, faults_major, faults_minor, syscalls, " \
	"ctxt_vol, ctxt_inv"
#define RU_VS "v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11"
/* Every value column of a rollup table (and of the pending parts). */
#define RU_VALUE_COLS "calls, real_ns, " RU_SUM_COLS ", rss_max_kb, threads"

/*
 * An interval's first and last hour (hour numbers), its weight unit and
 * its total weight, from t0_ns and t1_ns: rollup_hours and rollup_split
 * in rollup.c.  Written out where used, so that no CTE is materialized
 * (a copy of every interval).
 */
#define RU_SP	"(t0_ns >= 0 AND t1_ns > t0_ns AND t1_ns <= " RU_MAXT \
	" AND t1_ns - t0_ns <= " RU_MAXSPLIT ")"
#define RU_H0	"(CASE WHEN " RU_SP " THEN t0_ns / " RU_H " ELSE t1_ns / " \
	RU_H " END)"
#define RU_H1	"(CASE WHEN " RU_SP " THEN (t1_ns - 1) / " RU_H \
	" ELSE t1_ns / " RU_H " END)"
#define RU_U	"(CASE WHEN t1_ns / 1000000 - t0_ns / 1000000 < 2147483648 " \
	"THEN 1000000 ELSE " NS_SQL " END)"
#define RU_D	"(t1_ns / " RU_U " - t0_ns / " RU_U ")"

/* Part of value x in hour h of an interval of several (pc below). */
#define RU_P(x) \
	x " / d * ce + " x " % d * ce / d - " x " / d * cb - " x " % d * cb / d"

/*
 * The parts of the intervals of src (a table, view or subquery with
 * proc_intervals' column names), one row per interval and hour: K, a
 * column list ending in ", " carried through (or ""), then hour_s and
 * RU_VALUE_COLS.  src is read four times: the intervals within one
 * hour, the first and the last hours of the others, and the hours
 * between of those that cover three or more (a recursion): most cover
 * one or two (an hourly snapshot's, a little past the hour).
 */
#define RU_PARTS(K, src) \
	"WITH RECURSIVE pr AS (" RU_IN(K, src, "(" RU_H0 " + 1)", \
	    RU_H1 " - " RU_H0 " >= 2") \
	"  UNION ALL SELECT " K "t0, t1, fin, " RU_VS ", rm, th, h0, h1, u, " \
	"  d, " \
	"  h + 1 FROM pr WHERE h < h1 - 1) " \
	"SELECT " K RU_H0 " * 3600 AS hour_s, final AS calls, " \
	"  " RU_REAL " AS real_ns, " RU_SUM_COLS ", rss_max_kb, threads " \
	"  FROM (SELECT * FROM " src ") s WHERE " RU_H0 " = " RU_H1 \
	" UNION ALL " RU_OUT(K, RU_IN(K, src, RU_H0, RU_H0 " < " RU_H1)) \
	" UNION ALL " RU_OUT(K, RU_IN(K, src, RU_H1, RU_H0 " < " RU_H1)) \
	" UNION ALL " RU_OUT(K, "SELECT * FROM pr")

/*
 * The intervals of src where cond holds, each with the hour h (SQL) and
 * what its parts are computed from.
 */
#define RU_IN(K, src, h, cond) \
	"SELECT " K "t0_ns AS t0, t1_ns AS t1, final AS fin, " \
	"  cpu_user_ns AS v0, cpu_sys_ns AS v1, chars_rdwr AS v2, " \
	"  blocks_in AS v3, blocks_out AS v4, read_bytes AS v5, " \
	"  write_bytes AS v6, faults_major AS v7, faults_minor AS v8, " \
	"  syscalls AS v9, ctxt_vol AS v10, ctxt_inv AS v11, " \
	"  rss_max_kb AS rm, threads AS th, " RU_H0 " AS h0, " RU_H1 \
	" AS h1, " RU_U \
	"  AS u, " RU_D " AS d, " h " AS h " \
	"  FROM (SELECT * FROM " src ") s WHERE " cond

/* The parts of the rows of in (RU_IN's columns), one hour each. */
#define RU_OUT(K, in) \
	"SELECT " K "h * 3600, CASE WHEN h = h1 THEN fin ELSE 0 END, " \
	"  (CASE WHEN t1 < (h + 1) * " RU_H " THEN t1 " \
	"    ELSE (h + 1) * " RU_H " END) - " \
	"  (CASE WHEN t0 > h * " RU_H " THEN t0 ELSE h * " RU_H " END), " \
	RU_P("v0") ", " RU_P("v1") ", " RU_P("v2") ", " RU_P("v3") ", " \
	RU_P("v4") ", " RU_P("v5") ", " RU_P("v6") ", " RU_P("v7") ", " \
	RU_P("v8") ", " RU_P("v9") ", " RU_P("v10") ", " RU_P("v11") ", " \
	"  CASE WHEN h = h1 THEN rm END, CASE WHEN h = h1 THEN th END " \
	"FROM (SELECT *, CASE WHEN h = h0 THEN 0 " \
	"    ELSE h * " RU_H " / u - t0 / u END AS cb, " \
	"  CASE WHEN h = h1 THEN d " \
	"    ELSE (h + 1) * " RU_H " / u - t0 / u END AS ce " \
	"  FROM (" in " " RU_FENCE ") b " RU_FENCE ") c"

/*
 * A rollup row holds each sum in two columns, NAME_g and NAME_r: the
 * sums of each part's value / 10^9 and value % 10^9, so that the value
 * is NAME_g * 10^9 + NAME_r.  Neither can pass 2^63 (nor can a report's
 * sum of them over every row: docs/schema.md, Sums of nanoseconds
 * overflow), where one sum of ns could, from intervals a log got wrong,
 * and stop ingest with "integer overflow".  Remainders are never
 * carried into NAME_g, so ingest's rows and a rebuild's are the same.
 */
#define RU_GR(X, Y) \
	X("real_ns") Y("cpu_user_ns") Y("cpu_sys_ns") Y("chars_rdwr") \
	Y("blocks_in") Y("blocks_out") Y("read_bytes") Y("write_bytes") \
	Y("faults_major") Y("faults_minor") Y("syscalls") Y("ctxt_vol") \
	Y("ctxt_inv")

/* A rollup table's value columns, in its order. */
#define RU_COL1(c)	c "_g, " c "_r"
#define RU_COLN(c)	", " RU_COL1(c)
#define RU_TABLE_COLS	"calls, " RU_GR(RU_COL1, RU_COLN) ", rss_max_kb, threads"

/* Those of parts x, from their values. */
#define RU_AGG1(c)	"sum(x." c " / " NS_SQL "), sum(x." c " % " NS_SQL ")"
#define RU_AGGN(c)	", " RU_AGG1(c)
#define RU_AGG	"sum(x.calls), " RU_GR(RU_AGG1, RU_AGGN) ", max(x.rss_max_kb), " \
	"max(x.threads)"

/* Those of rollup rows, from theirs. */
#define RU_SUM1(c)	"sum(" c "_g), sum(" c "_r)"
#define RU_SUMN(c)	", " RU_SUM1(c)
#define RU_SUMS	"sum(calls), " RU_GR(RU_SUM1, RU_SUMN) ", max(rss_max_kb), " \
	"max(threads)"

/* The parts' own values (g and r) under the rollups' names. */
#define RU_PGR1(c)	c " / " NS_SQL " AS " c "_g, " c " % " NS_SQL " AS " \
	c "_r"
#define RU_PGRN(c)	", " RU_PGR1(c)
#define RU_PART_GR	"calls, " RU_GR(RU_PGR1, RU_PGRN) ", rss_max_kb, " \
	"threads"

/*
 * The command key of an interval of command c (a column or NULL) whose
 * final is f and whose process's exit flags are a: c, with
 * PROC_FORKED_MARK after it for the exit interval of a process that
 * forked and never exec'd (PROC_AFORK, bit 0x01), as rollup_add keys it
 * and as sa(8) counts such a process.  NULL where c is.
 */
#define RU_COMMAND(c, f, a) \
	"(" c " || CASE WHEN " f " = 1 AND " a " % 2 = 1 THEN '" \
	PROC_FORKED_MARK "' ELSE '' END)"

/*
 * A rollup row's key from the parts x of process p: an absent uid,
 * projid, zone, command or gid is bit 1, 2, 4, 8 or 16 of nulls, its
 * column 0 or '' (a key column of a primary key cannot be NULL and
 * still match).  The parts carry their interval's final (RU_PARTS'
 * K), for the command key.
 */
#define RU_KEY_IDS(hour) \
	"p.host_id, " hour ", (p.uid IS NULL) + 2 * (p.projid IS NULL) + " \
	"4 * (p.zone IS NULL) + 8 * (p.command IS NULL) + " \
	"16 * (p.gid IS NULL), coalesce(p.uid, 0), coalesce(p.gid, 0), " \
	"coalesce(p.projid, 0), coalesce(p.zone, ''), "
#define RU_KEY(hour) \
	RU_KEY_IDS(hour) "coalesce(" RU_COMMAND("p.command", "x.final", \
	"p.acctflags") ", '')"
#define RU_KEY_COLS(t) \
	"host_id, " t ", nulls, uid, gid, projid, zone, command"

/* The rollup rows of parts (a subquery named x, with proc_id and
 * final). */
#define RU_INSERT_HOUR(parts) \
	"INSERT INTO rollup_hour (" RU_KEY_COLS("hour_s") ", " \
	RU_TABLE_COLS ") SELECT " RU_KEY("x.hour_s") ", " RU_AGG \
	" FROM " parts " x JOIN procs p USING (proc_id) WHERE true " \
	"GROUP BY 1, 2, 3, 4, 5, 6, 7, 8"
#define RU_INSERT_DAY(parts) \
	"INSERT INTO rollup_day (" RU_KEY_COLS("day_s") ", " \
	RU_TABLE_COLS ") SELECT " RU_KEY("x.hour_s / 86400 * 86400") ", " \
	RU_AGG " FROM " parts " x JOIN procs p USING (proc_id) WHERE true " \
	"GROUP BY 1, 2, 3, 4, 5, 6, 7, 8"
#define RU_INSERT_HOST(parts) \
	"INSERT INTO rollup_host (host_id, hour_s, " RU_TABLE_COLS ") " \
	"SELECT p.host_id, x.hour_s, " RU_AGG \
	" FROM " parts " x JOIN procs p USING (proc_id) WHERE true " \
	"GROUP BY 1, 2"
/* Schema 15's, frozen with it: the command as it is. */
#define RU_INSERT_HOUR_15(parts) \
	"INSERT INTO rollup_hour (" RU_KEY_COLS("hour_s") ", " \
	RU_TABLE_COLS ") SELECT " RU_KEY_IDS("x.hour_s") \
	"coalesce(p.command, ''), " RU_AGG \
	" FROM " parts " x JOIN procs p USING (proc_id) WHERE true " \
	"GROUP BY 1, 2, 3, 4, 5, 6, 7, 8"

/* The day and host rows from the hour rows, from hour (SQL) on. */
#define RU_DAY_FROM_HOURS(from) \
	"INSERT INTO rollup_day (" RU_KEY_COLS("day_s") ", " RU_TABLE_COLS \
	") SELECT host_id, hour_s / 86400 * 86400, nulls, uid, gid, " \
	"projid, zone, command, " RU_SUMS " FROM rollup_hour " \
	"WHERE hour_s >= " from " GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;"
#define RU_HOST_FROM_HOURS(from) \
	"INSERT INTO rollup_host (host_id, hour_s, " RU_TABLE_COLS ") " \
	"SELECT host_id, hour_s, " RU_SUMS " FROM rollup_hour " \
	"WHERE hour_s >= " from " GROUP BY 1, 2;"

/* A rollup table's value columns (after its key). */
#define RU_TDEF1(c)	"  " c "_g INTEGER, " c "_r INTEGER,"
#define RU_TABLE_VALUES \
	"  calls INTEGER NOT NULL," RU_GR(RU_TDEF1, RU_TDEF1) \
	"  rss_max_kb INTEGER, threads INTEGER,"
/* Schema 18's: calls may be NULL (store/db.c, 17 -> 18). */
#define RU_TABLE_VALUES_18 \
	"  calls INTEGER," RU_GR(RU_TDEF1, RU_TDEF1) \
	"  rss_max_kb INTEGER, threads INTEGER,"

/* A rollup table keyed by host, time t (hour_s or day_s) and the rest
 * of the rollup key; v its value columns. */
#define RU_KEYED_TABLE(name, t, v) \
	"CREATE TABLE " name " (" \
	"  host_id INTEGER NOT NULL, " t " INTEGER NOT NULL," \
	"  nulls INTEGER NOT NULL, uid INTEGER NOT NULL, gid INTEGER NOT NULL," \
	"  projid INTEGER NOT NULL, zone TEXT NOT NULL, command TEXT NOT NULL," \
	v \
	"  PRIMARY KEY (" t ", host_id, nulls, uid, gid, projid, zone," \
	"    command)) WITHOUT ROWID;"
/* And one keyed by hour and host alone. */
#define RU_HOST_TABLE(name, v) \
	"CREATE TABLE " name " (" \
	"  host_id INTEGER NOT NULL, hour_s INTEGER NOT NULL," \
	v \
	"  PRIMARY KEY (hour_s, host_id)) WITHOUT ROWID;"

/* A view's columns of a rollup table r, keys decoded. */
#define RU_VIEW_KEYS \
	"CASE WHEN r.nulls % 2 = 1 THEN NULL ELSE r.uid END AS uid, " \
	"CASE WHEN r.nulls / 16 % 2 = 1 THEN NULL ELSE r.gid END AS gid, " \
	"CASE WHEN r.nulls / 2 % 2 = 1 THEN NULL ELSE r.projid END " \
	"  AS projid, " \
	"CASE WHEN r.nulls / 4 % 2 = 1 THEN NULL ELSE r.zone END AS zone, " \
	"CASE WHEN r.nulls / 8 % 2 = 1 THEN NULL ELSE r.command END " \
	"  AS command, "
#define RU_VCOL1(c)	"r." c "_g, r." c "_r"
#define RU_VCOLN(c)	", " RU_VCOL1(c)
#define RU_VIEW_VALUES \
	"r.calls, " RU_GR(RU_VCOL1, RU_VCOLN) ", r.rss_max_kb, r.threads"

#endif
