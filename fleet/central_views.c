/*
 * The central database's published views (docs/fleet.md): the views of
 * the host's SQLite store (store/db.c, docs/schema.md), over the central
 * tables, with the same names, columns and values, so that the one
 * report layer (reports/, through rdb) reads either engine and prints
 * the same bytes.  The migration runner (central_schema.c) creates them
 * after the tables.
 *
 * The central tables are the local ones with host_id in every row and
 * the local surrogate ids (proc_id, eproc_id, ...) scoped by it.  What
 * had to be written differently, and why:
 *
 * - Process ids.  A report counts processes (count(DISTINCT proc_id))
 *   and joins views on proc_id, which on one host, or in a merged
 *   SQLite database, name one process.  Here two hosts have a proc_id 1,
 *   so the views give each process the fleet-wide id host_id * 2^40 +
 *   proc_id (a host may make 10^12 processes, a fleet have 8 million
 *   hosts): the same SQL then counts and joins the same processes.
 * - Text sorts as bytes, as SQLite's BINARY does: every text column a
 *   report may sort or group by is COLLATE "C" here, whatever the
 *   database's own collation.
 * - SQLite's arithmetic.  An INTEGER over a REAL is a double in SQLite,
 *   a numeric (an exact decimal) here: such columns cast to float8
 *   first, so the same IEEE operations run in the same order.  A sum of
 *   bigint is a numeric here; where SQLite's is an integer the view
 *   casts it back (and, as in SQLite, fails past 2^63 rather than lie).
 *   A division by zero is NULL in SQLite and an error here: NULLIF.
 *   SQLite's max(a, b) is GREATEST (which, unlike it, skips a NULL;
 *   where it is used a NULL operand makes the whole NULL anyway).
 * - group_concat exists here as an aggregate of text joined with ",".
 *   With DISTINCT, PostgreSQL sorts what it joins; SQLite joins in the
 *   order it meets the values.  The capture view's exit sources are
 *   listed by their first exit, as SQLite's scan of the time index
 *   meets them; the carbon sources of one report key (several hosts of
 *   different sources) may still come in another order.
 * - LIKE is case-blind for ASCII in SQLite: ILIKE.
 * - The host column.  SQLite keeps each host's label (hostlabel_sql.h)
 *   in hosts.label, by triggers; here hosts_labelled computes it from
 *   the same SQL whenever a view is read (a window over the hosts, a
 *   few rows), so pushes of hosts of one name, at once, need no lock
 *   and no write of the other hosts' rows.
 * - local_hour(ns), the epoch second of the start of the local hour
 *   holding ns, in the session's TimeZone (report sets it to the
 *   report's zone), as rdb_sqlite.c's is in TZ.
 *
 * The runner runs this string again whenever it changes: every view is
 * dropped first (CASCADE: they read one another), functions replaced.
 */
#include "../parsers/records.h"
#include "../store/hostlabel_sql.h"
#include "../store/rollup_sql.h"
#include "central_views.h"

/* A process's fleet-wide id: see above (2^40). */
#define PROC_ID(t, c)	"(" t ".host_id * 1099511627776 + " t "." c ")"

const char central_views_sql[] =
	"DROP VIEW IF EXISTS v_hosts, v_proc_usage, v_usage_hourly, v_by_user,"
	"  v_alt_exits, v_pacct_gaps, capture, v_energy_usage, v_energy,"
	"  v_metric_energy, v_rapl_host, v_energy_estimate, v_host_names,"
	"  v_sysload, v_usage_rollup, v_usage_rollup_day, v_usage_rollup_host,"
	"  v_cgroup_usage, hosts_labelled, host_labels CASCADE;"
	/*
	 * The hour repeated when summer time ends is one local hour, at
	 * its first instant, as rdb_sqlite.c's mktime (tm_isdst -1) makes
	 * it: date_trunc alone gives each of its two instants.
	 */
	"CREATE OR REPLACE FUNCTION local_hour_first(e bigint) RETURNS bigint"
	"  LANGUAGE sql STABLE PARALLEL SAFE"
	"  RETURN CASE WHEN to_timestamp(e - 3600)::timestamp ="
	"    to_timestamp(e)::timestamp THEN e - 3600 ELSE e END;"
	"CREATE OR REPLACE FUNCTION local_hour(ns bigint) RETURNS bigint"
	"  LANGUAGE sql STABLE PARALLEL SAFE"
	"  RETURN local_hour_first(extract(epoch FROM date_trunc('hour',"
	"    to_timestamp(ns / " NS_SQL ")))::bigint);"
	"CREATE OR REPLACE FUNCTION group_concat_step(acc text, v text)"
	"  RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE"
	"  RETURN CASE WHEN v IS NULL THEN acc WHEN acc IS NULL THEN v"
	"    ELSE acc || ',' || v END;"
	"CREATE OR REPLACE AGGREGATE group_concat(text)"
	"  (SFUNC = group_concat_step, STYPE = text);"

	"CREATE VIEW host_labels AS " HOST_LABELS_SQL ";"
	"CREATE VIEW hosts_labelled AS"
	"  SELECT h.*, l.label FROM hosts h JOIN host_labels l USING (host_id);"

	"CREATE VIEW v_hosts AS"
	"  SELECT host_id, label COLLATE \"C\" AS host, exit_sources,"
	"    carbon_g_per_kwh, carbon_source COLLATE \"C\" AS carbon_source,"
	"    ident COLLATE \"C\" AS ident, name COLLATE \"C\" AS name,"
	"    cpus, cpus_source COLLATE \"C\" AS cpus_source"
	"  FROM hosts_labelled;"

	"CREATE VIEW v_host_names AS"
	"  SELECT h.label COLLATE \"C\" AS host, n.host_id,"
	"    n.kind COLLATE \"C\" AS kind, n.id, n.name COLLATE \"C\" AS name"
	"  FROM host_names n JOIN hosts_labelled h USING (host_id);"

	"CREATE VIEW v_sysload AS"
	"  SELECT h.label COLLATE \"C\" AS host, s.host_id, s.t_ns,"
	"    s.user_ticks, s.nice_ticks, s.system_ticks, s.idle_ticks,"
	"    s.iowait_ticks, s.irq_ticks, s.softirq_ticks, s.steal_ticks,"
	"    s.clk_tck, s.btime_s, s.ncpu"
	"  FROM sysload s JOIN hosts_labelled h USING (host_id);"

	/* store/migrations.c's schema 20: a cgroup's kernel totals. */
	"CREATE VIEW v_cgroup_usage AS"
	"  SELECT h.label COLLATE \"C\" AS host, c.host_id, c.cgroup_id,"
	"    c.path COLLATE \"C\" AS path, c.hierarchy, i.t0_ns, i.t1_ns,"
	"    i.cpu_ns, i.user_ns, i.system_ns, i.mem_current, i.mem_peak,"
	"    i.io_read_bytes, i.io_write_bytes, i.io_read_ops,"
	"    i.io_write_ops, i.restarted"
	"  FROM cgroup_intervals i JOIN cgroups c USING (host_id, cgroup_id)"
	"  JOIN hosts_labelled h USING (host_id);"

	/* store/db.c's schema 15; zone and command are "C" in the tables. */
	"CREATE VIEW v_usage_rollup AS"
	"  SELECT h.label COLLATE \"C\" AS host, r.host_id, r.hour_s, "
	RU_VIEW_KEYS RU_VIEW_VALUES
	"  FROM rollup_hour r JOIN hosts_labelled h USING (host_id);"
	"CREATE VIEW v_usage_rollup_day AS"
	"  SELECT h.label COLLATE \"C\" AS host, r.host_id, r.day_s, "
	RU_VIEW_KEYS RU_VIEW_VALUES
	"  FROM rollup_day r JOIN hosts_labelled h USING (host_id);"
	"CREATE VIEW v_usage_rollup_host AS"
	"  SELECT h.label COLLATE \"C\" AS host, r.host_id, r.hour_s, "
	RU_VIEW_VALUES
	"  FROM rollup_host r JOIN hosts_labelled h USING (host_id);"

	"CREATE VIEW v_proc_usage AS"
	"  SELECT h.label COLLATE \"C\" AS host, p.pid, p.start_ns, p.uid,"
	"    p.gid, p.projid, p.zone COLLATE \"C\" AS zone,"
	"    p.command COLLATE \"C\" AS command, p.acctflags,"
	"    " PROC_ID("i", "proc_id") " AS proc_id, i.t0_ns, i.t1_ns,"
	"    i.final, i.heartbeat, i.cpu_user_ns, i.cpu_sys_ns,"
	"    i.faults_major, i.faults_minor, i.msgs_snd, i.msgs_rcv,"
	"    i.blocks_in, i.blocks_out, i.chars_rdwr, i.ctxt_vol, i.ctxt_inv,"
	"    i.signals, i.swaps, i.syscalls, i.rss_avg_kb, i.rss_max_kb,"
	"    i.anomalies, i.read_bytes, i.write_bytes, i.syscalls_r,"
	"    i.syscalls_w, i.rss_kb, i.threads, i.host_id,"
	/* The interval's cgroup, else (push does not carry it yet) its
	 * process's, at its exit. */
	"    coalesce(i.cgroup_id, p.cgroup_id) AS cgroup_id,"
	"    c.path COLLATE \"C\" AS cgroup, c.unit COLLATE \"C\" AS unit,"
	"    c.container COLLATE \"C\" AS container, c.pod"
	"  FROM proc_intervals i JOIN procs p USING (host_id, proc_id)"
	"  JOIN hosts_labelled h USING (host_id)"
	"  LEFT JOIN cgroups c ON c.host_id = i.host_id"
	"    AND c.cgroup_id = coalesce(i.cgroup_id, p.cgroup_id);"

	"CREATE VIEW v_usage_hourly AS"
	"  SELECT host, (t1_ns / 3600000000000) * 3600 AS hour_epoch_s,"
	"    count(DISTINCT proc_id) AS processes,"
	"    sum(cpu_user_ns / " NS_SQL ")::float8 +"
	"      sum(cpu_user_ns % " NS_SQL ")::float8 / 1e9 AS cpu_user_s,"
	"    sum(cpu_sys_ns / " NS_SQL ")::float8 +"
	"      sum(cpu_sys_ns % " NS_SQL ")::float8 / 1e9 AS cpu_sys_s,"
	"    sum(chars_rdwr)::bigint AS chars_rdwr"
	"  FROM v_proc_usage GROUP BY host, hour_epoch_s;"

	"CREATE VIEW v_by_user AS"
	"  SELECT host, uid, count(DISTINCT proc_id) AS processes,"
	"    sum(cpu_user_ns / " NS_SQL ")::float8 +"
	"      sum(cpu_user_ns % " NS_SQL ")::float8 / 1e9 AS cpu_user_s,"
	"    sum(cpu_sys_ns / " NS_SQL ")::float8 +"
	"      sum(cpu_sys_ns % " NS_SQL ")::float8 / 1e9 AS cpu_sys_s"
	"  FROM v_proc_usage GROUP BY host, uid;"

	"CREATE VIEW v_alt_exits AS"
	"  SELECT " PROC_ID("x", "proc_id") " AS proc_id,"
	"    x.source COLLATE \"C\" AS source, x.finish_ns, x.cpu_user_ns,"
	"    x.cpu_sys_ns, p.base_cpu_ns, x.host_id"
	"  FROM proc_alt_exits x JOIN procs p USING (host_id, proc_id);"

	"CREATE VIEW v_pacct_gaps AS"
	"  SELECT h.label COLLATE \"C\" AS host, g.host_id, g.t0_ns, g.t1_ns,"
	"    g.reason COLLATE \"C\" AS reason"
	"  FROM pacct_gaps g JOIN hosts_labelled h USING (host_id);"

	/* store/db.c's CAPTURE_WINDOWS and schema 3's columns. */
	"CREATE VIEW capture AS"
	"  WITH s AS (SELECT host_id, t_ns,"
	"      user_ticks + nice_ticks + system_ticks AS busy, clk_tck,"
	"      lag(t_ns) OVER w AS prev_t,"
	"      lag(user_ticks + nice_ticks + system_ticks) OVER w AS prev_busy"
	"    FROM sysload WINDOW w AS (PARTITION BY host_id ORDER BY t_ns))"
	"  SELECT s.host_id, s.prev_t AS t0_ns, s.t_ns AS t1_ns,"
	"    (SELECT coalesce(sum(coalesce(i.cpu_user_ns, 0) +"
	"        coalesce(i.cpu_sys_ns, 0)), 0)::bigint"
	"      FROM proc_intervals i"
	"      WHERE i.host_id = s.host_id AND i.t1_ns > s.prev_t"
	"        AND i.t1_ns <= s.t_ns"
	"        AND i.t0_ns >= s.prev_t - " NS_SQL ") AS proc_cpu_ns,"
	"    (s.busy - s.prev_busy) * " NS_SQL " / NULLIF(s.clk_tck, 0)"
	"      AS busy_ns,"
	/*
	 * SQLite's group_concat(DISTINCT) lists the sources in the order
	 * its scan meets them, which is by the time index: by the first
	 * exit of each, here too.
	 */
	"    (SELECT string_agg(f.src, ',' ORDER BY f.t, f.id)"
	"      FROM (SELECT DISTINCT ON (p.exit_source)"
	"          p.exit_source AS src, i.t1_ns AS t, i.proc_id AS id"
	"        FROM proc_intervals i JOIN procs p USING (host_id, proc_id)"
	"        WHERE i.host_id = s.host_id AND i.final = 1"
	"          AND i.t1_ns > s.prev_t AND i.t1_ns <= s.t_ns"
	"          AND p.exit_source IS NOT NULL"
	"        ORDER BY p.exit_source, i.t1_ns, i.proc_id) AS f)"
	"      AS exit_sources,"
	"    (SELECT coalesce(sum(l.records), 0)::bigint FROM lost l"
	"      WHERE l.host_id = s.host_id AND l.t_ns > s.prev_t"
	"        AND l.t_ns <= s.t_ns) AS lost"
	"  FROM s WHERE s.prev_t IS NOT NULL;"

	"CREATE VIEW v_energy_usage AS"
	"  SELECT h.label COLLATE \"C\" AS host, h.carbon_g_per_kwh,"
	"    h.carbon_source COLLATE \"C\" AS carbon_source,"
	"    p.pid, p.start_ns, p.uid, p.command COLLATE \"C\" AS command,"
	"    " PROC_ID("i", "eproc_id") " AS eproc_id, i.t0_ns, i.t1_ns,"
	"    i.first, i.cpu_ns, i.pcpu_ns, i.energy_nj, i.penergy_nj,"
	"    i.instructions, i.cycles, i.disk_read, i.disk_written,"
	"    i.int_wakeups, i.idle_wakeups, i.footprint, i.max_footprint,"
	"    i.anomalies, i.host_id"
	"  FROM energy_intervals i JOIN energy_procs p USING (host_id, eproc_id)"
	"  JOIN hosts_labelled h USING (host_id);"

	"CREATE VIEW v_energy AS"
	"  SELECT h.label COLLATE \"C\" AS host, p.pid, p.start_ns, p.uid,"
	"    p.command COLLATE \"C\" AS command, i.t0_ns, i.t1_ns, i.first,"
	"    i.energy_nj::float8 / 1e9 AS joules,"
	"    i.energy_nj::float8 / NULLIF(i.t1_ns - i.t0_ns, 0) AS watts,"
	"    i.cpu_ns::float8 / 1e9 AS cpu_s,"
	"    CASE WHEN i.cpu_ns > 0 THEN i.energy_nj::float8 / i.cpu_ns END"
	"      AS joules_per_cpu_s,"
	"    i.energy_nj * h.carbon_g_per_kwh / 3.6e15 AS g_co2e"
	"  FROM energy_intervals i JOIN energy_procs p USING (host_id, eproc_id)"
	"  JOIN hosts_labelled h USING (host_id);"

	"CREATE VIEW v_metric_energy AS"
	"  SELECT h.label COLLATE \"C\" AS host,"
	"    s.metric COLLATE \"C\" AS metric,"
	"    s.detail COLLATE \"C\" AS detail, m.t0_ns, m.t1_ns,"
	"    m.value::float8 / 1e6 AS joules,"
	"    m.value::float8 * 1000.0 / NULLIF(m.t1_ns - m.t0_ns, 0) AS watts,"
	"    m.value * h.carbon_g_per_kwh / 3.6e12 AS g_co2e"
	"  FROM metric_samples m JOIN metric_series s USING (host_id, series_id)"
	"  JOIN hosts_labelled h USING (host_id)"
	"  WHERE s.unit = 'uJ';"

	"CREATE VIEW v_rapl_host AS"
	"  WITH q AS (SELECT z.zone_id, z.host_id FROM rapl_zones z"
	"    WHERE CASE WHEN EXISTS (SELECT 1 FROM rapl_zones y"
	"        WHERE y.host_id = z.host_id AND y.name ILIKE 'psys%')"
	"      THEN z.name ILIKE 'psys%'"
	"      ELSE z.name ILIKE 'package%' OR z.name ILIKE 'dram%' END)"
	"  SELECT q.host_id, i.t0_ns, i.t1_ns,"
	"    CASE WHEN count(i.energy_uj) ="
	"      (SELECT count(*) FROM q AS a WHERE a.host_id = q.host_id)"
	"      THEN sum(i.energy_uj)::bigint END AS energy_uj"
	"  FROM rapl_intervals i JOIN q USING (host_id, zone_id)"
	"  GROUP BY q.host_id, i.t0_ns, i.t1_ns;"

	"CREATE VIEW v_energy_estimate AS"
	"  SELECT host_id, t0_ns, t1_ns, proc_id, uid, command, cpu_ns,"
	"    energy_uj::float8 * 1000.0 * cpu_ns /"
	"      NULLIF(GREATEST(capacity_ns, total_ns), 0) AS energy_nj"
	"  FROM (SELECT r.host_id, r.t0_ns, r.t1_ns,"
	"      " PROC_ID("p", "proc_id") " AS proc_id, p.uid,"
	"      p.command COLLATE \"C\" AS command,"
	"      pi.cpu_user_ns + pi.cpu_sys_ns AS cpu_ns,"
	"      r.energy_uj, s.ncpu * (r.t1_ns - r.t0_ns) AS capacity_ns,"
	"      sum(pi.cpu_user_ns + pi.cpu_sys_ns) OVER"
	"        (PARTITION BY r.host_id, r.t1_ns) AS total_ns"
	"    FROM v_rapl_host r"
	"    JOIN sysload s ON s.host_id = r.host_id AND s.t_ns = r.t1_ns"
	"    JOIN proc_intervals pi ON pi.host_id = r.host_id"
	"      AND pi.t1_ns > r.t0_ns AND pi.t1_ns <= r.t1_ns"
	"    JOIN procs p ON p.host_id = pi.host_id AND p.proc_id = pi.proc_id"
	"    WHERE s.ncpu > 0 AND r.t1_ns > r.t0_ns) AS x;";
