/*
 * The store's schema: every migration, oldest first (db_migrations[i]
 * takes a database from version i to i + 1; see db_int.h).  The tables,
 * views and triggers each version made are docs/schema.md's, with the
 * why of each change beside it.  Opening and running them is db.c's.
 */
#include "../parsers/records.h"
#include "db.h"
#include "db_int.h"
#include "hostlabel_sql.h"
#include "rollup_sql.h"

/* The cumulative counters, as columns of the interval and state tables. */
#define COUNTER_COLUMNS \
	"  cpu_user_ns INTEGER, cpu_sys_ns INTEGER," \
	"  faults_major INTEGER, faults_minor INTEGER," \
	"  msgs_snd INTEGER, msgs_rcv INTEGER," \
	"  blocks_in INTEGER, blocks_out INTEGER, chars_rdwr INTEGER," \
	"  ctxt_vol INTEGER, ctxt_inv INTEGER, signals INTEGER," \
	"  swaps INTEGER, syscalls INTEGER,"

/*
 * The capture view's windows (pairs of consecutive system records) and
 * their process and busy CPU; version 3 adds columns after these.
 */
#define CAPTURE_WINDOWS \
	"CREATE VIEW capture AS" \
	"  WITH s AS (SELECT host_id, t_ns," \
	"      user_ticks + nice_ticks + system_ticks AS busy, clk_tck," \
	"      lag(t_ns) OVER w AS prev_t," \
	"      lag(user_ticks + nice_ticks + system_ticks) OVER w AS prev_busy" \
	"    FROM sysload WINDOW w AS (PARTITION BY host_id ORDER BY t_ns))" \
	"  SELECT s.host_id, s.prev_t AS t0_ns, s.t_ns AS t1_ns," \
	"    (SELECT coalesce(sum(coalesce(i.cpu_user_ns, 0) +" \
	"        coalesce(i.cpu_sys_ns, 0)), 0)" \
	"      FROM proc_intervals i JOIN procs p USING (proc_id)" \
	"      WHERE p.host_id = s.host_id AND i.t1_ns > s.prev_t" \
	"        AND i.t1_ns <= s.t_ns" \
	"        AND i.t0_ns >= s.prev_t - " NS_SQL ") AS proc_cpu_ns," \
	"    (s.busy - s.prev_busy) * " NS_SQL " / s.clk_tck AS busy_ns"

/*
 * Migrations, oldest first: db_migrations[i] takes a database from version
 * i to i + 1.  Never edit one that has shipped; add the next.
 */
/*
 * The energy view (schema 4), which schema 5 makes again with grams
 * CO2e: its columns up to joules_per_cpu_s, then its tables.
 */
#define V_ENERGY_SELECT \
	"CREATE VIEW v_energy AS" \
	"  SELECT h.name AS host, p.pid, p.start_ns, p.uid, p.command," \
	"    i.t0_ns, i.t1_ns, i.first," \
	"    i.energy_nj / 1e9 AS joules," \
	"    i.energy_nj * 1.0 / (i.t1_ns - i.t0_ns) AS watts," \
	"    i.cpu_ns / 1e9 AS cpu_s," \
	"    CASE WHEN i.cpu_ns > 0 THEN i.energy_nj * 1.0 / i.cpu_ns END" \
	"      AS joules_per_cpu_s"
#define V_ENERGY_FROM \
	"  FROM energy_intervals i JOIN energy_procs p USING (eproc_id)" \
	"  JOIN hosts h USING (host_id)"

/*
 * The value columns of an interval (schema 16: proc_interval_rows, and
 * a procs row that carries its exit's interval), in proc_intervals'
 * order: as they are, as the trigger's NEW.x, and as procs names
 * them (exit_x, p.exit_x).
 */
#define PI_VALUES \
	"cpu_user_ns, cpu_sys_ns, faults_major, faults_minor, msgs_snd," \
	" msgs_rcv, blocks_in, blocks_out, chars_rdwr, ctxt_vol, ctxt_inv," \
	" signals, swaps, syscalls, rss_avg_kb, rss_max_kb, anomalies," \
	" read_bytes, write_bytes, syscalls_r, syscalls_w, rss_kb, threads"
#define PI_NEW \
	"NEW.cpu_user_ns, NEW.cpu_sys_ns, NEW.faults_major," \
	" NEW.faults_minor, NEW.msgs_snd, NEW.msgs_rcv, NEW.blocks_in," \
	" NEW.blocks_out, NEW.chars_rdwr, NEW.ctxt_vol, NEW.ctxt_inv," \
	" NEW.signals, NEW.swaps, NEW.syscalls, NEW.rss_avg_kb," \
	" NEW.rss_max_kb, NEW.anomalies, NEW.read_bytes, NEW.write_bytes," \
	" NEW.syscalls_r, NEW.syscalls_w, NEW.rss_kb, NEW.threads"
#define PI_OF_P \
	"p.exit_cpu_user_ns, p.exit_cpu_sys_ns, p.exit_faults_major," \
	" p.exit_faults_minor, p.exit_msgs_snd, p.exit_msgs_rcv," \
	" p.exit_blocks_in, p.exit_blocks_out, p.exit_chars_rdwr," \
	" p.exit_ctxt_vol, p.exit_ctxt_inv, p.exit_signals," \
	" p.exit_swaps, p.exit_syscalls, p.exit_rss_avg_kb," \
	" p.exit_rss_max_kb, p.exit_anomalies, p.exit_read_bytes," \
	" p.exit_write_bytes, p.exit_syscalls_r, p.exit_syscalls_w," \
	" p.exit_rss_kb, p.exit_threads"
#define PI_EXIT \
	"exit_cpu_user_ns, exit_cpu_sys_ns, exit_faults_major," \
	" exit_faults_minor, exit_msgs_snd, exit_msgs_rcv," \
	" exit_blocks_in, exit_blocks_out, exit_chars_rdwr," \
	" exit_ctxt_vol, exit_ctxt_inv, exit_signals, exit_swaps," \
	" exit_syscalls, exit_rss_avg_kb, exit_rss_max_kb," \
	" exit_anomalies, exit_read_bytes, exit_write_bytes," \
	" exit_syscalls_r, exit_syscalls_w, exit_rss_kb, exit_threads"

/*
 * Schema 17: hosts.label made what host_labels says, where it differs
 * (every host's, for a label depends on the others').  Through a table,
 * which the view fills once: read in the correlated subqueries, the
 * view is run as a co-routine for each host looked up (2000 hosts added
 * one by one took 19 s so, 9 s this way, on a busy 2-core machine), and
 * UPDATE ... FROM needs SQLite 3.33.  host_label_work is empty between
 * changes.
 */
#define HOST_RELABEL \
	"INSERT INTO host_label_work SELECT host_id, label FROM host_labels;" \
	"UPDATE hosts SET label = (SELECT w.label FROM host_label_work w" \
	"    WHERE w.host_id = hosts.host_id)" \
	"  WHERE label IS NOT (SELECT w.label FROM host_label_work w" \
	"    WHERE w.host_id = hosts.host_id);" \
	"DELETE FROM host_label_work;"

/*
 * Delete the rows of table t that repeat an earlier row's (a, b): one
 * sort of the table, however large, and no index needed.
 */
#define DEDUP(t, a, b) \
	"DELETE FROM " t " WHERE rowid NOT IN" \
	"  (SELECT min(rowid) FROM " t " GROUP BY " a ", " b ");"

/* The rollup tables' views, as schema 17 made them (labels for hosts). */
#define V_USAGE_ROLLUPS_DROP \
	"DROP VIEW v_usage_rollup;" \
	"DROP VIEW v_usage_rollup_day;" \
	"DROP VIEW v_usage_rollup_host;"
#define V_USAGE_ROLLUPS \
	"CREATE VIEW v_usage_rollup AS" \
	"  SELECT h.label AS host, r.host_id, r.hour_s, " RU_VIEW_KEYS \
	RU_VIEW_VALUES " FROM rollup_hour r JOIN hosts h USING (host_id);" \
	"CREATE VIEW v_usage_rollup_day AS" \
	"  SELECT h.label AS host, r.host_id, r.day_s, " RU_VIEW_KEYS \
	RU_VIEW_VALUES " FROM rollup_day r JOIN hosts h USING (host_id);" \
	"CREATE VIEW v_usage_rollup_host AS" \
	"  SELECT h.label AS host, r.host_id, r.hour_s, " RU_VIEW_VALUES \
	"  FROM rollup_host r JOIN hosts h USING (host_id);"

/* Rollup table t made again (made: its CREATE, as t_new), its rows kept. */
#define RU_REMAKE(t, made) \
	made \
	"INSERT INTO " t "_new SELECT * FROM " t ";" \
	"DROP TABLE " t ";" \
	"ALTER TABLE " t "_new RENAME TO " t ";"

const char *const db_migrations[] = {
	/* 0 -> 1: the first schema. */
	"CREATE TABLE hosts ("
	"  host_id INTEGER PRIMARY KEY,"
	"  name TEXT NOT NULL UNIQUE);"

	"CREATE TABLE files ("
	"  file_id INTEGER PRIMARY KEY,"
	"  host_id INTEGER REFERENCES hosts,"
	"  kind TEXT NOT NULL,"
	"  path TEXT NOT NULL,"
	"  head_len INTEGER NOT NULL,"
	"  head_hash INTEGER NOT NULL,"
	"  tail_hash INTEGER NOT NULL,"
	"  ingested_to INTEGER NOT NULL,"
	"  size INTEGER NOT NULL,"
	"  records INTEGER NOT NULL DEFAULT 0,"
	"  duplicates INTEGER NOT NULL DEFAULT 0,"
	"  late INTEGER NOT NULL DEFAULT 0,"
	"  other_objects INTEGER NOT NULL DEFAULT 0,"
	"  unknown_items INTEGER NOT NULL DEFAULT 0,"
	"  bad_values INTEGER NOT NULL DEFAULT 0,"
	"  damaged_ranges INTEGER NOT NULL DEFAULT 0,"
	"  damaged_bytes INTEGER NOT NULL DEFAULT 0,"
	"  first_ingest_ns INTEGER NOT NULL,"
	"  last_ingest_ns INTEGER NOT NULL);"
	"CREATE INDEX files_head ON files (head_hash);"

	"CREATE TABLE damage ("
	"  file_id INTEGER NOT NULL REFERENCES files,"
	"  off_from INTEGER NOT NULL,"
	"  off_to INTEGER NOT NULL,"
	"  off_bad INTEGER NOT NULL,"
	"  reason TEXT NOT NULL);"

	"CREATE TABLE procs ("
	"  proc_id INTEGER PRIMARY KEY,"
	"  host_id INTEGER NOT NULL REFERENCES hosts,"
	"  pid INTEGER NOT NULL,"
	"  start_ns INTEGER NOT NULL,"
	"  ppid INTEGER, uid INTEGER, gid INTEGER, projid INTEGER,"
	"  taskid INTEGER, command TEXT, zone TEXT,"
	"  finish_ns INTEGER, wait_status INTEGER, acctflags INTEGER,"
	/* Start first: new processes then append to the index. */
	"  UNIQUE (host_id, start_ns, pid));"

	"CREATE TABLE proc_intervals ("
	"  proc_id INTEGER NOT NULL REFERENCES procs,"
	"  t0_ns INTEGER NOT NULL,"
	"  t1_ns INTEGER NOT NULL,"
	"  final INTEGER NOT NULL,"
	"  heartbeat INTEGER NOT NULL,"
	COUNTER_COLUMNS
	"  rss_avg_kb INTEGER, rss_max_kb INTEGER,"
	"  anomalies INTEGER NOT NULL);"
	"CREATE INDEX proc_intervals_t1 ON proc_intervals (t1_ns);"

	"CREATE TABLE proc_last ("
	"  proc_id INTEGER PRIMARY KEY REFERENCES procs,"
	"  t_ns INTEGER NOT NULL,"
	"  row_t_ns INTEGER NOT NULL,"
	"  present INTEGER NOT NULL,"
	COUNTER_COLUMNS
	"  rss_avg_kb INTEGER, rss_max_kb INTEGER);"

	"CREATE TABLE tasks ("
	"  task_id INTEGER PRIMARY KEY,"
	"  host_id INTEGER NOT NULL REFERENCES hosts,"
	"  taskid INTEGER NOT NULL,"
	"  start_ns INTEGER NOT NULL,"
	"  projid INTEGER, anctaskid INTEGER, zone TEXT,"
	"  finish_ns INTEGER,"
	"  UNIQUE (host_id, taskid, start_ns));"

	"CREATE TABLE task_intervals ("
	"  task_id INTEGER NOT NULL REFERENCES tasks,"
	"  t0_ns INTEGER NOT NULL,"
	"  t1_ns INTEGER NOT NULL,"
	"  kind TEXT NOT NULL,"
	COUNTER_COLUMNS
	"  anomalies INTEGER NOT NULL);"

	"CREATE TABLE task_last ("
	"  task_id INTEGER PRIMARY KEY REFERENCES tasks,"
	"  t_ns INTEGER NOT NULL,"
	"  present INTEGER NOT NULL,"
	"  cpu_user_ns INTEGER, cpu_sys_ns INTEGER,"
	"  faults_major INTEGER, faults_minor INTEGER,"
	"  msgs_snd INTEGER, msgs_rcv INTEGER,"
	"  blocks_in INTEGER, blocks_out INTEGER, chars_rdwr INTEGER,"
	"  ctxt_vol INTEGER, ctxt_inv INTEGER, signals INTEGER,"
	"  swaps INTEGER, syscalls INTEGER);"

	"CREATE TABLE flow_records ("
	"  host_id INTEGER NOT NULL REFERENCES hosts,"
	"  protocol INTEGER NOT NULL,"
	"  src_addr TEXT NOT NULL, src_port INTEGER NOT NULL,"
	"  dst_addr TEXT NOT NULL, dst_port INTEGER NOT NULL,"
	"  ctime_s INTEGER NOT NULL,"
	"  uid_key INTEGER NOT NULL, projid_key INTEGER NOT NULL,"
	"  uid INTEGER, projid INTEGER,"
	"  lseen_s INTEGER NOT NULL,"
	"  bytes INTEGER NOT NULL, packets INTEGER NOT NULL,"
	"  dsfield INTEGER, action TEXT,"
	"  ckey TEXT NOT NULL,"
	"  PRIMARY KEY (host_id, protocol, src_addr, src_port, dst_addr,"
	"    dst_port, ctime_s, uid_key, projid_key)) WITHOUT ROWID;"
	"CREATE INDEX flow_records_ckey ON flow_records (ckey);"

	"CREATE TABLE flows ("
	"  host_id INTEGER NOT NULL REFERENCES hosts,"
	"  protocol INTEGER NOT NULL,"
	"  local_addr TEXT NOT NULL, local_port INTEGER NOT NULL,"
	"  remote_addr TEXT NOT NULL, remote_port INTEGER NOT NULL,"
	"  uid INTEGER, projid INTEGER,"
	"  first_s INTEGER NOT NULL, last_s INTEGER NOT NULL,"
	"  bytes_out INTEGER NOT NULL, packets_out INTEGER NOT NULL,"
	"  bytes_in INTEGER NOT NULL, packets_in INTEGER NOT NULL,"
	"  paired INTEGER NOT NULL,"
	"  ckey TEXT NOT NULL);"
	"CREATE INDEX flows_ckey ON flows (ckey);"

	"CREATE VIEW v_proc_usage AS"
	"  SELECT h.name AS host, p.pid, p.start_ns, p.uid, p.gid,"
	"    p.projid, p.zone, p.command, i.*"
	"  FROM proc_intervals i JOIN procs p USING (proc_id)"
	"  JOIN hosts h USING (host_id);"
	"CREATE VIEW v_usage_hourly AS"
	"  SELECT host, (t1_ns / 3600000000000) * 3600 AS hour_epoch_s,"
	"    count(DISTINCT proc_id) AS processes,"
	"    sum(cpu_user_ns) / 1e9 AS cpu_user_s,"
	"    sum(cpu_sys_ns) / 1e9 AS cpu_sys_s,"
	"    sum(chars_rdwr) AS chars_rdwr"
	"  FROM v_proc_usage GROUP BY host, hour_epoch_s;"
	"CREATE VIEW v_by_user AS"
	"  SELECT host, uid, count(DISTINCT proc_id) AS processes,"
	"    sum(cpu_user_ns) / 1e9 AS cpu_user_s,"
	"    sum(cpu_sys_ns) / 1e9 AS cpu_sys_s"
	"  FROM v_proc_usage GROUP BY host, uid;",

	/* 1 -> 2: Linux extras from snapshots (and later acctd). */
	"ALTER TABLE proc_intervals ADD COLUMN read_bytes INTEGER;"
	"ALTER TABLE proc_intervals ADD COLUMN write_bytes INTEGER;"
	"ALTER TABLE proc_intervals ADD COLUMN syscalls_r INTEGER;"
	"ALTER TABLE proc_intervals ADD COLUMN syscalls_w INTEGER;"
	"ALTER TABLE proc_intervals ADD COLUMN rss_kb INTEGER;"
	"ALTER TABLE proc_intervals ADD COLUMN threads INTEGER;"
	"ALTER TABLE proc_last ADD COLUMN read_bytes INTEGER;"
	"ALTER TABLE proc_last ADD COLUMN write_bytes INTEGER;"
	"ALTER TABLE proc_last ADD COLUMN syscalls_r INTEGER;"
	"ALTER TABLE proc_last ADD COLUMN syscalls_w INTEGER;"
	"ALTER TABLE proc_last ADD COLUMN rss_kb INTEGER;"
	"ALTER TABLE proc_last ADD COLUMN threads INTEGER;"

	"CREATE TABLE sysload ("
	"  host_id INTEGER NOT NULL REFERENCES hosts,"
	"  t_ns INTEGER NOT NULL,"
	"  user_ticks INTEGER, nice_ticks INTEGER, system_ticks INTEGER,"
	"  idle_ticks INTEGER, iowait_ticks INTEGER, irq_ticks INTEGER,"
	"  softirq_ticks INTEGER, steal_ticks INTEGER,"
	"  clk_tck INTEGER NOT NULL, btime_s INTEGER, ncpu INTEGER,"
	"  PRIMARY KEY (host_id, t_ns)) WITHOUT ROWID;"

	/*
	 * Capture ratio per snapshot interval: the CPU of the process
	 * intervals that end inside it over the busy CPU (user + nice +
	 * system) /proc/stat counted in it.  An interval that starts
	 * before the window (the first observation of a process that was
	 * already running) belongs to no window; 1 s of slack lets in the
	 * pacct exit records, whose start is cut to whole seconds.
	 */
	CAPTURE_WINDOWS
	"  FROM s WHERE s.prev_t IS NOT NULL;",

	/*
	 * 2 -> 3: exit sources and what acctd adds.  A Linux host may have
	 * two exit sources for the same processes (acctd and pacct): the
	 * first exit ingested closes the process (procs.exit_source), the
	 * other is kept in proc_alt_exits, so the capture ratio can be
	 * shown for both without counting a process twice.
	 */
	"ALTER TABLE hosts ADD COLUMN exit_sources INTEGER NOT NULL"
	"  DEFAULT 0;"
	"ALTER TABLE procs ADD COLUMN exit_source TEXT;"
	"ALTER TABLE procs ADD COLUMN base_cpu_ns INTEGER;"
	"ALTER TABLE procs ADD COLUMN delay_cpu_ns INTEGER;"
	"ALTER TABLE procs ADD COLUMN delay_blkio_ns INTEGER;"
	"ALTER TABLE procs ADD COLUMN delay_swapin_ns INTEGER;"
	"ALTER TABLE procs ADD COLUMN delay_freepages_ns INTEGER;"
	"ALTER TABLE procs ADD COLUMN delay_thrashing_ns INTEGER;"
	"ALTER TABLE procs ADD COLUMN delay_compact_ns INTEGER;"
	"ALTER TABLE procs ADD COLUMN delay_wpcopy_ns INTEGER;"
	"ALTER TABLE procs ADD COLUMN delay_irq_ns INTEGER;"
	"ALTER TABLE procs ADD COLUMN cpu_run_ns INTEGER;"

	"CREATE TABLE proc_alt_exits ("
	"  proc_id INTEGER NOT NULL REFERENCES procs,"
	"  source TEXT NOT NULL,"
	"  finish_ns INTEGER,"
	"  cpu_user_ns INTEGER, cpu_sys_ns INTEGER,"
	"  PRIMARY KEY (proc_id, source)) WITHOUT ROWID;"

	"CREATE TABLE lost ("
	"  host_id INTEGER NOT NULL REFERENCES hosts,"
	"  t_ns INTEGER NOT NULL,"
	"  records INTEGER NOT NULL,"
	"  PRIMARY KEY (host_id, t_ns)) WITHOUT ROWID;"

	/*
	 * The capture view again, now with the exit sources that closed
	 * the processes of each window and the exit records acctd noticed
	 * were dropped in it.  (What the ratio would be with an alternate
	 * source is in report.c: docs/schema.md gives the query.)
	 */
	"DROP VIEW capture;"
	CAPTURE_WINDOWS ","
	"    (SELECT group_concat(DISTINCT p.exit_source)"
	"      FROM proc_intervals i JOIN procs p USING (proc_id)"
	"      WHERE p.host_id = s.host_id AND i.final = 1"
	"        AND i.t1_ns > s.prev_t AND i.t1_ns <= s.t_ns) AS exit_sources,"
	"    (SELECT coalesce(sum(l.records), 0) FROM lost l"
	"      WHERE l.host_id = s.host_id AND l.t_ns > s.prev_t"
	"        AND l.t_ns <= s.t_ns) AS lost"
	"  FROM s WHERE s.prev_t IS NOT NULL;",

	/*
	 * 3 -> 4: energy snapshots.  Processes as
	 * the energy sampler saw them, the growth of their counters per
	 * snapshot interval (CPU in ns after the writer's timebase,
	 * energy in nJ: nJ per ns is watts), and the last state of each.
	 */
	"CREATE TABLE energy_procs ("
	"  eproc_id INTEGER PRIMARY KEY,"
	"  host_id INTEGER NOT NULL REFERENCES hosts,"
	"  pid INTEGER NOT NULL,"
	"  start_ns INTEGER NOT NULL,"
	"  ppid INTEGER, uid INTEGER, command TEXT, translated INTEGER,"
	"  UNIQUE (host_id, start_ns, pid));"
	"CREATE TABLE energy_intervals ("
	"  eproc_id INTEGER NOT NULL REFERENCES energy_procs,"
	"  t0_ns INTEGER NOT NULL,"
	"  t1_ns INTEGER NOT NULL,"
	"  first INTEGER NOT NULL,"
	"  cpu_ns INTEGER, pcpu_ns INTEGER,"
	"  energy_nj INTEGER, penergy_nj INTEGER,"
	"  instructions INTEGER, cycles INTEGER,"
	"  disk_read INTEGER, disk_written INTEGER,"
	"  int_wakeups INTEGER, idle_wakeups INTEGER,"
	"  footprint INTEGER, max_footprint INTEGER,"
	"  anomalies INTEGER NOT NULL);"
	"CREATE INDEX energy_intervals_t1 ON energy_intervals (t1_ns);"
	"CREATE TABLE energy_last ("
	"  eproc_id INTEGER PRIMARY KEY REFERENCES energy_procs,"
	"  t_ns INTEGER NOT NULL,"
	"  present INTEGER NOT NULL,"
	"  cpu_ns INTEGER, pcpu_ns INTEGER,"
	"  energy_nj INTEGER, penergy_nj INTEGER,"
	"  instructions INTEGER, cycles INTEGER,"
	"  disk_read INTEGER, disk_written INTEGER,"
	"  int_wakeups INTEGER, idle_wakeups INTEGER);"
	V_ENERGY_SELECT V_ENERGY_FROM ";",

	/*
	 * 4 -> 5: metric-provider streams, RAPL zones read by snap, and
	 * the carbon intensity of each host's electricity.
	 *
	 * A stream's samples keep the time written (ts_ns) and the
	 * interval it covers by the provider's convention; a bound not
	 * known (the first sample of an end-stamped series, the newest
	 * of a start-stamped one) is NULL.  value is in the series' unit:
	 * uJ for energy and power providers (power times the interval),
	 * a ratio x 10000 for utilisation, bytes for a memory level.
	 */
	"CREATE TABLE metric_series ("
	"  series_id INTEGER PRIMARY KEY,"
	"  host_id INTEGER NOT NULL REFERENCES hosts,"
	"  metric TEXT NOT NULL,"
	"  detail TEXT NOT NULL,"
	"  unit TEXT NOT NULL,"
	"  stamp TEXT NOT NULL,"
	"  last_ts_ns INTEGER,"
	"  gap_ns INTEGER,"
	"  UNIQUE (host_id, metric, detail));"
	"CREATE TABLE metric_samples ("
	"  series_id INTEGER NOT NULL REFERENCES metric_series,"
	"  ts_ns INTEGER NOT NULL,"
	"  t0_ns INTEGER, t1_ns INTEGER,"
	"  value INTEGER,"
	"  reading INTEGER NOT NULL,"
	"  PRIMARY KEY (series_id, ts_ns)) WITHOUT ROWID;"
	"CREATE TABLE metric_gaps ("
	"  series_id INTEGER NOT NULL REFERENCES metric_series,"
	"  from_ns INTEGER NOT NULL,"
	"  to_ns INTEGER NOT NULL,"
	"  missing INTEGER NOT NULL,"
	"  PRIMARY KEY (series_id, to_ns)) WITHOUT ROWID;"

	/*
	 * RAPL: each powercap zone's counter as snap read it, unwrapped
	 * once per interval (energy_uj NULL where the policy drops a
	 * wrapped interval, after a reboot, and where the interval was
	 * long enough to wrap more than once: ambiguous).
	 */
	"CREATE TABLE rapl_zones ("
	"  zone_id INTEGER PRIMARY KEY,"
	"  host_id INTEGER NOT NULL REFERENCES hosts,"
	"  zone TEXT NOT NULL,"
	"  name TEXT,"
	"  max_uj INTEGER,"
	"  last_t_ns INTEGER, last_uj INTEGER, boot_s INTEGER,"
	"  UNIQUE (host_id, zone));"
	"CREATE TABLE rapl_intervals ("
	"  zone_id INTEGER NOT NULL REFERENCES rapl_zones,"
	"  t0_ns INTEGER NOT NULL,"
	"  t1_ns INTEGER NOT NULL,"
	"  energy_uj INTEGER,"
	"  wrapped INTEGER NOT NULL,"
	"  ambiguous INTEGER NOT NULL,"
	"  PRIMARY KEY (zone_id, t1_ns)) WITHOUT ROWID;"

	/*
	 * A host's energy per interval: PSYS (the whole platform) where
	 * there is one, else its packages and DRAM.  Core and uncore are
	 * inside a package and never added.  Unknown (NULL) unless every
	 * one of those zones has a known interval there: a partial sum
	 * would read as the whole.
	 */
	"CREATE VIEW v_rapl_host AS"
	"  WITH q AS (SELECT z.zone_id, z.host_id FROM rapl_zones z"
	"    WHERE CASE WHEN EXISTS (SELECT 1 FROM rapl_zones y"
	"        WHERE y.host_id = z.host_id AND y.name LIKE 'psys%')"
	"      THEN z.name LIKE 'psys%'"
	"      ELSE z.name LIKE 'package%' OR z.name LIKE 'dram%' END)"
	"  SELECT q.host_id, i.t0_ns, i.t1_ns,"
	"    CASE WHEN count(i.energy_uj) ="
	"      (SELECT count(*) FROM q AS a WHERE a.host_id = q.host_id)"
	"      THEN sum(i.energy_uj) END AS energy_uj"
	"  FROM rapl_intervals i JOIN q USING (zone_id)"
	"  GROUP BY q.host_id, i.t0_ns, i.t1_ns;"

	/*
	 * An estimate, not a measurement: a process's share of its host's
	 * RAPL energy in an interval is its CPU time over the host's CPU
	 * capacity then (online CPUs x the interval, from snap's system
	 * record of the same instant); what idle CPUs drew goes to no
	 * process.  Its CPU is that of its intervals ending in the RAPL
	 * interval.
	 */
	"CREATE VIEW v_energy_estimate AS"
	"  SELECT r.host_id, r.t0_ns, r.t1_ns, p.proc_id, p.uid, p.command,"
	"    pi.cpu_user_ns + pi.cpu_sys_ns AS cpu_ns,"
	"    r.energy_uj * 1000.0 * (pi.cpu_user_ns + pi.cpu_sys_ns)"
	"      / (s.ncpu * (r.t1_ns - r.t0_ns)) AS energy_nj"
	"  FROM v_rapl_host r"
	"  JOIN sysload s ON s.host_id = r.host_id AND s.t_ns = r.t1_ns"
	"  JOIN proc_intervals pi ON pi.t1_ns > r.t0_ns"
	"    AND pi.t1_ns <= r.t1_ns"
	"  JOIN procs p ON p.proc_id = pi.proc_id AND p.host_id = r.host_id"
	"  WHERE s.ncpu > 0 AND r.t1_ns > r.t0_ns;"

	/*
	 * Carbon: a host's intensity (g CO2e per kWh, from its
	 * configuration) and where the figure comes from.  Grams per
	 * interval = kWh x intensity; 1 kWh = 3.6e15 nJ = 3.6e12 uJ.
	 */
	"ALTER TABLE hosts ADD COLUMN carbon_g_per_kwh REAL;"
	"ALTER TABLE hosts ADD COLUMN carbon_source TEXT;"
	"DROP VIEW v_energy;"
	V_ENERGY_SELECT ","
	"    i.energy_nj * h.carbon_g_per_kwh / 3.6e15 AS g_co2e"
	V_ENERGY_FROM ";"
	"CREATE VIEW v_metric_energy AS"
	"  SELECT h.name AS host, s.metric, s.detail, m.t0_ns, m.t1_ns,"
	"    m.value / 1e6 AS joules,"
	"    m.value * 1000.0 / (m.t1_ns - m.t0_ns) AS watts,"
	"    m.value * h.carbon_g_per_kwh / 3.6e12 AS g_co2e"
	"  FROM metric_samples m JOIN metric_series s USING (series_id)"
	"  JOIN hosts h USING (host_id)"
	"  WHERE s.unit = 'uJ';",

	/*
	 * 5 -> 6: what a live process's CPU baseline measures (records.h:
	 * cpu_source), so a snapshot by the other measure is not
	 * differenced against it in a later run.  NULL: not known.
	 */
	"ALTER TABLE proc_last ADD COLUMN cpu_source INTEGER;",

	/*
	 * 6 -> 7: the views' CPU seconds without sum() of ns, which stops
	 * with "integer overflow" past 2^63 ns (292 CPU-years: one host's
	 * root daemons in a year).  Whole seconds and remainders are summed
	 * apart, as reports/report.c does, then joined as a REAL (NULL if
	 * no row had the counter, as before).
	 */
	"DROP VIEW v_usage_hourly;"
	"DROP VIEW v_by_user;"
	"CREATE VIEW v_usage_hourly AS"
	"  SELECT host, (t1_ns / 3600000000000) * 3600 AS hour_epoch_s,"
	"    count(DISTINCT proc_id) AS processes,"
	"    sum(cpu_user_ns / " NS_SQL ") +"
	"      sum(cpu_user_ns % " NS_SQL ") / 1e9 AS cpu_user_s,"
	"    sum(cpu_sys_ns / " NS_SQL ") +"
	"      sum(cpu_sys_ns % " NS_SQL ") / 1e9 AS cpu_sys_s,"
	"    sum(chars_rdwr) AS chars_rdwr"
	"  FROM v_proc_usage GROUP BY host, hour_epoch_s;"
	"CREATE VIEW v_by_user AS"
	"  SELECT host, uid, count(DISTINCT proc_id) AS processes,"
	"    sum(cpu_user_ns / " NS_SQL ") +"
	"      sum(cpu_user_ns % " NS_SQL ") / 1e9 AS cpu_user_s,"
	"    sum(cpu_sys_ns / " NS_SQL ") +"
	"      sum(cpu_sys_ns % " NS_SQL ") / 1e9 AS cpu_sys_s"
	"  FROM v_proc_usage GROUP BY host, uid;",

	/*
	 * 7 -> 8: one row per interval, made a rule.  Two
	 * ingests that ran into one database at once could store an
	 * interval twice; now that a writer holds the database alone
	 * (dblock.h), these keys make a second copy an error whatever
	 * writes it.  A row that repeats an earlier one's key can only be
	 * such a copy: it goes, the first written stays.  The time indexes
	 * gain the row's owner as a second column, so they stay the ones
	 * reports use for a time window.
	 */
	DEDUP("proc_intervals", "t1_ns", "proc_id")
	"DROP INDEX proc_intervals_t1;"
	"CREATE UNIQUE INDEX proc_intervals_t1 ON proc_intervals"
	"  (t1_ns, proc_id);"
	DEDUP("energy_intervals", "t1_ns", "eproc_id")
	"DROP INDEX energy_intervals_t1;"
	"CREATE UNIQUE INDEX energy_intervals_t1 ON energy_intervals"
	"  (t1_ns, eproc_id);"
	DEDUP("task_intervals", "task_id", "t1_ns")
	"CREATE UNIQUE INDEX task_intervals_key ON task_intervals"
	"  (task_id, t1_ns);",

	/*
	 * 8 -> 9: the views the reports read, so that they read no table
	 * (the published interface, docs/schema.md; the same report layer
	 * can then run on another engine): the hosts, each alternate exit
	 * with the CPU its process had when last seen, and the energy
	 * intervals with their process and host, in their own units.
	 */
	"CREATE VIEW v_hosts AS"
	"  SELECT host_id, name AS host, exit_sources, carbon_g_per_kwh,"
	"    carbon_source FROM hosts;"
	"CREATE VIEW v_alt_exits AS"
	"  SELECT x.proc_id, x.source, x.finish_ns, x.cpu_user_ns,"
	"    x.cpu_sys_ns, p.base_cpu_ns"
	"  FROM proc_alt_exits x JOIN procs p USING (proc_id);"
	"CREATE VIEW v_energy_usage AS"
	"  SELECT h.name AS host, h.carbon_g_per_kwh, h.carbon_source,"
	"    p.pid, p.start_ns, p.uid, p.command, i.*"
	"  FROM energy_intervals i JOIN energy_procs p USING (eproc_id)"
	"  JOIN hosts h USING (host_id);",

	/*
	 * 9 -> 10: the pacct lifecycle.  files.closed: a log
	 * run read to its end once nothing wrote it any more; damage at
	 * its end was stored, not left for a next run that never comes,
	 * so it is done and retention may delete it.  pacct_gaps: the
	 * stretches process accounting was off (a reboot, the acct
	 * package's restart) that rotate found and switched back on, from
	 * the last record before (NULL: none) to the switch.
	 */
	"ALTER TABLE files ADD COLUMN closed INTEGER NOT NULL DEFAULT 0;"
	"CREATE TABLE pacct_gaps ("
	"  host_id INTEGER NOT NULL REFERENCES hosts,"
	"  t0_ns INTEGER,"
	"  t1_ns INTEGER NOT NULL,"
	"  reason TEXT NOT NULL,"
	"  UNIQUE (host_id, t1_ns, t0_ns));"
	"CREATE VIEW v_pacct_gaps AS"
	"  SELECT h.name AS host, g.host_id, g.t0_ns, g.t1_ns, g.reason"
	"  FROM pacct_gaps g JOIN hosts h USING (host_id);",

	/*
	 * 10 -> 11: an estimate never shares out more energy than the host
	 * used.  Process CPU in a window can exceed the CPUs' capacity by
	 * the time snap takes to read every process (each is read a little
	 * later than the snapshot's time), more so on a loaded host: the
	 * shares are then of the processes' total, not of the capacity.
	 */
	"DROP VIEW v_energy_estimate;"
	"CREATE VIEW v_energy_estimate AS"
	"  SELECT host_id, t0_ns, t1_ns, proc_id, uid, command, cpu_ns,"
	"    energy_uj * 1000.0 * cpu_ns / max(capacity_ns, total_ns)"
	"      AS energy_nj"
	"  FROM (SELECT r.host_id, r.t0_ns, r.t1_ns, p.proc_id, p.uid,"
	"      p.command, pi.cpu_user_ns + pi.cpu_sys_ns AS cpu_ns,"
	"      r.energy_uj, s.ncpu * (r.t1_ns - r.t0_ns) AS capacity_ns,"
	"      sum(pi.cpu_user_ns + pi.cpu_sys_ns) OVER"
	"        (PARTITION BY r.host_id, r.t1_ns) AS total_ns"
	"    FROM v_rapl_host r"
	"    JOIN sysload s ON s.host_id = r.host_id AND s.t_ns = r.t1_ns"
	"    JOIN proc_intervals pi ON pi.t1_ns > r.t0_ns"
	"      AND pi.t1_ns <= r.t1_ns"
	"    JOIN procs p ON p.proc_id = pi.proc_id AND p.host_id = r.host_id"
	"    WHERE s.ncpu > 0 AND r.t1_ns > r.t0_ns);",

	/*
	 * 11 -> 12: host identity across a fleet.
	 * hosts.ident is unique and the name no longer is: a merged
	 * database holds two hosts of one name when their identities
	 * differ.  SQLite drops no constraint, so the table is built
	 * again with the same ids; the legacy rename leaves the views,
	 * which name "hosts", as they are (the modern one checks them and
	 * refuses while the old table is gone).  Existing rows get their
	 * identity at the next ingest (hosts.c: hosts_fill).
	 */
	"CREATE TABLE hosts_v12 ("
	"  host_id INTEGER PRIMARY KEY,"
	"  name TEXT NOT NULL,"
	"  exit_sources INTEGER NOT NULL DEFAULT 0,"
	"  carbon_g_per_kwh REAL,"
	"  carbon_source TEXT,"
	"  ident TEXT UNIQUE);"
	"INSERT INTO hosts_v12 (host_id, name, exit_sources,"
	"    carbon_g_per_kwh, carbon_source)"
	"  SELECT host_id, name, exit_sources, carbon_g_per_kwh,"
	"    carbon_source FROM hosts;"
	"DROP TABLE hosts;"
	"PRAGMA legacy_alter_table=ON;"
	"ALTER TABLE hosts_v12 RENAME TO hosts;"
	"PRAGMA legacy_alter_table=OFF;"
	"CREATE INDEX hosts_name ON hosts (name);"
	"DROP VIEW v_hosts;"
	"CREATE VIEW v_hosts AS"
	"  SELECT host_id, name AS host, exit_sources, carbon_g_per_kwh,"
	"    carbon_source, ident FROM hosts;",

	/*
	 * 12 -> 13: the names each host
	 * gives its ids, from its own passwd, group and project files at
	 * ingest, so a report read on another machine shows the host's
	 * names and not that machine's; and sysload as a view, for the
	 * CPUs utilisation is measured against.
	 */
	"CREATE TABLE host_names ("
	"  host_id INTEGER NOT NULL REFERENCES hosts,"
	"  kind TEXT NOT NULL,"
	"  id INTEGER NOT NULL,"
	"  name TEXT NOT NULL,"
	"  PRIMARY KEY (host_id, kind, id)) WITHOUT ROWID;"
	"CREATE VIEW v_host_names AS"
	"  SELECT h.name AS host, n.host_id, n.kind, n.id, n.name"
	"  FROM host_names n JOIN hosts h USING (host_id);"
	"CREATE VIEW v_sysload AS"
	"  SELECT h.name AS host, s.* FROM sysload s JOIN hosts h"
	"  USING (host_id);",

	/*
	 * 13 -> 14: nothing.  Two changes were made at once, numbered 14
	 * and 15 apart; the one given 14 (exit-only processes) came in
	 * after 15 and is 16.  Kept, so that every database's version
	 * names the same schema.
	 */
	"SELECT 1;",

	/*
	 * 14 -> 15: rollups: usage per host, UTC
	 * hour, user, project, zone and command, per UTC day likewise, and
	 * per host and hour, each interval split over the hours it covers;
	 * kept by ingest and merge, built here from the intervals there
	 * are.  expiry: how far retention has deleted (retention.h).  Time
	 * first in each key: ingest adds rows in time order (appends), and
	 * reports and retention read and delete time ranges.
	 */
	RU_KEYED_TABLE("rollup_hour", "hour_s", RU_TABLE_VALUES)
	RU_KEYED_TABLE("rollup_day", "day_s", RU_TABLE_VALUES)
	RU_HOST_TABLE("rollup_host", RU_TABLE_VALUES)
	"CREATE TABLE expiry ("
	"  what TEXT PRIMARY KEY,"
	"  before_ns INTEGER NOT NULL);"
	"CREATE VIEW v_usage_rollup AS"
	"  SELECT h.name AS host, r.host_id, r.hour_s, " RU_VIEW_KEYS
	RU_VIEW_VALUES " FROM rollup_hour r JOIN hosts h USING (host_id);"
	"CREATE VIEW v_usage_rollup_day AS"
	"  SELECT h.name AS host, r.host_id, r.day_s, " RU_VIEW_KEYS
	RU_VIEW_VALUES " FROM rollup_day r JOIN hosts h USING (host_id);"
	"CREATE VIEW v_usage_rollup_host AS"
	"  SELECT h.name AS host, r.host_id, r.hour_s, " RU_VIEW_VALUES
	"  FROM rollup_host r JOIN hosts h USING (host_id);"
	"CREATE VIEW v_expiry AS SELECT what, before_ns FROM expiry;"
	RU_INSERT_HOUR_15("(" RU_PARTS("proc_id, ", "v_proc_usage") ")") ";"
	RU_DAY_FROM_HOURS("-9223372036854775807")
	RU_HOST_FROM_HOURS("-9223372036854775807"),

	/*
	 * 15 -> 16: one row for a
	 * process seen only at its exit, and one B-tree for the
	 * intervals.  Most processes are seen
	 * once, at their exit: their procs row now carries the exit's
	 * interval (its counters and anomalies as exit_cpu_user_ns ..
	 * exit_anomalies; t0 is the start, t1 the finish), and
	 * exit_anomalies IS NOT NULL marks such a row.  The other
	 * intervals go into proc_interval_rows, keyed by time: rows arrive
	 * in time order, so the key appends and the time index is the
	 * table (it was a table and an index).  proc_intervals is now the
	 * view of both, the same rows as before, so nothing that reads it
	 * changes; writes into it go to proc_interval_rows.  The views
	 * that look for a time window read the two parts apart, each by
	 * its time index (procs_t1 finds the exits that carry an
	 * interval).  Existing rows keep their place: both give the same
	 * view.
	 */
	"CREATE TABLE proc_interval_rows ("
	"  proc_id INTEGER NOT NULL REFERENCES procs,"
	"  t0_ns INTEGER NOT NULL,"
	"  t1_ns INTEGER NOT NULL,"
	"  final INTEGER NOT NULL,"
	"  heartbeat INTEGER NOT NULL,"
	COUNTER_COLUMNS
	"  rss_avg_kb INTEGER, rss_max_kb INTEGER,"
	"  anomalies INTEGER NOT NULL,"
	"  read_bytes INTEGER, write_bytes INTEGER, syscalls_r INTEGER,"
	"  syscalls_w INTEGER, rss_kb INTEGER, threads INTEGER,"
	"  PRIMARY KEY (t1_ns, proc_id)) WITHOUT ROWID;"
	"INSERT INTO proc_interval_rows (proc_id, t0_ns, t1_ns, final,"
	"    heartbeat, " PI_VALUES ")"
	"  SELECT proc_id, t0_ns, t1_ns, final, heartbeat, " PI_VALUES
	"  FROM proc_intervals ORDER BY t1_ns, proc_id;"
	"DROP TABLE proc_intervals;"
	"ALTER TABLE procs ADD COLUMN exit_cpu_user_ns INTEGER;"
	"ALTER TABLE procs ADD COLUMN exit_cpu_sys_ns INTEGER;"
	"ALTER TABLE procs ADD COLUMN exit_faults_major INTEGER;"
	"ALTER TABLE procs ADD COLUMN exit_faults_minor INTEGER;"
	"ALTER TABLE procs ADD COLUMN exit_msgs_snd INTEGER;"
	"ALTER TABLE procs ADD COLUMN exit_msgs_rcv INTEGER;"
	"ALTER TABLE procs ADD COLUMN exit_blocks_in INTEGER;"
	"ALTER TABLE procs ADD COLUMN exit_blocks_out INTEGER;"
	"ALTER TABLE procs ADD COLUMN exit_chars_rdwr INTEGER;"
	"ALTER TABLE procs ADD COLUMN exit_ctxt_vol INTEGER;"
	"ALTER TABLE procs ADD COLUMN exit_ctxt_inv INTEGER;"
	"ALTER TABLE procs ADD COLUMN exit_signals INTEGER;"
	"ALTER TABLE procs ADD COLUMN exit_swaps INTEGER;"
	"ALTER TABLE procs ADD COLUMN exit_syscalls INTEGER;"
	"ALTER TABLE procs ADD COLUMN exit_rss_avg_kb INTEGER;"
	"ALTER TABLE procs ADD COLUMN exit_rss_max_kb INTEGER;"
	"ALTER TABLE procs ADD COLUMN exit_anomalies INTEGER;"
	"ALTER TABLE procs ADD COLUMN exit_read_bytes INTEGER;"
	"ALTER TABLE procs ADD COLUMN exit_write_bytes INTEGER;"
	"ALTER TABLE procs ADD COLUMN exit_syscalls_r INTEGER;"
	"ALTER TABLE procs ADD COLUMN exit_syscalls_w INTEGER;"
	"ALTER TABLE procs ADD COLUMN exit_rss_kb INTEGER;"
	"ALTER TABLE procs ADD COLUMN exit_threads INTEGER;"
	"CREATE INDEX procs_t1 ON procs (finish_ns)"
	"  WHERE exit_anomalies IS NOT NULL;"
	"CREATE VIEW proc_intervals AS"
	"  SELECT proc_id, t0_ns, t1_ns, final, heartbeat, " PI_VALUES
	"  FROM proc_interval_rows"
	"  UNION ALL"
	"  SELECT proc_id, start_ns, finish_ns, 1, 0, " PI_EXIT
	"  FROM procs WHERE exit_anomalies IS NOT NULL;"
	"CREATE TRIGGER proc_intervals_insert INSTEAD OF INSERT"
	"  ON proc_intervals BEGIN"
	"  INSERT INTO proc_interval_rows (proc_id, t0_ns, t1_ns, final,"
	"    heartbeat, " PI_VALUES ")"
	"  VALUES (NEW.proc_id, NEW.t0_ns, NEW.t1_ns, NEW.final,"
	"    NEW.heartbeat, " PI_NEW "); END;"
	"DROP VIEW v_proc_usage;"
	"CREATE VIEW v_proc_usage AS"
	"  SELECT h.name AS host, p.pid, p.start_ns, p.uid, p.gid,"
	"    p.projid, p.zone, p.command, i.*"
	"  FROM proc_interval_rows i JOIN procs p USING (proc_id)"
	"  JOIN hosts h USING (host_id)"
	"  UNION ALL"
	"  SELECT h.name, p.pid, p.start_ns, p.uid, p.gid, p.projid,"
	"    p.zone, p.command, p.proc_id, p.start_ns, p.finish_ns, 1, 0, "
	PI_OF_P
	"  FROM procs p JOIN hosts h USING (host_id)"
	"  WHERE p.exit_anomalies IS NOT NULL;"
	/* The capture view and the estimate, as in 3 and 11, by part. */
	"DROP VIEW capture;"
	"CREATE VIEW capture AS"
	"  WITH s AS (SELECT host_id, t_ns,"
	"      user_ticks + nice_ticks + system_ticks AS busy, clk_tck,"
	"      lag(t_ns) OVER w AS prev_t,"
	"      lag(user_ticks + nice_ticks + system_ticks) OVER w AS prev_busy"
	"    FROM sysload WINDOW w AS (PARTITION BY host_id ORDER BY t_ns))"
	"  SELECT s.host_id, s.prev_t AS t0_ns, s.t_ns AS t1_ns,"
	"    (SELECT coalesce(sum(coalesce(i.cpu_user_ns, 0) +"
	"        coalesce(i.cpu_sys_ns, 0)), 0)"
	"      FROM proc_interval_rows i JOIN procs p USING (proc_id)"
	"      WHERE p.host_id = s.host_id AND i.t1_ns > s.prev_t"
	"        AND i.t1_ns <= s.t_ns"
	"        AND i.t0_ns >= s.prev_t - " NS_SQL ") +"
	"    (SELECT coalesce(sum(coalesce(p.exit_cpu_user_ns, 0) +"
	"        coalesce(p.exit_cpu_sys_ns, 0)), 0)"
	"      FROM procs p WHERE p.exit_anomalies IS NOT NULL"
	"        AND p.host_id = s.host_id AND p.finish_ns > s.prev_t"
	"        AND p.finish_ns <= s.t_ns"
	"        AND p.start_ns >= s.prev_t - " NS_SQL ") AS proc_cpu_ns,"
	"    (s.busy - s.prev_busy) * " NS_SQL " / s.clk_tck AS busy_ns,"
	/* In time order, as the time index gave them before. */
	"    (SELECT group_concat(DISTINCT x) FROM"
	"      (SELECT i.t1_ns AS t, i.proc_id AS id, p.exit_source AS x"
	"        FROM proc_interval_rows i JOIN procs p USING (proc_id)"
	"        WHERE p.host_id = s.host_id AND i.final = 1"
	"          AND i.t1_ns > s.prev_t AND i.t1_ns <= s.t_ns"
	"      UNION ALL"
	"      SELECT p.finish_ns, p.proc_id, p.exit_source FROM procs p"
	"        WHERE p.exit_anomalies IS NOT NULL AND p.host_id = s.host_id"
	"          AND p.finish_ns > s.prev_t AND p.finish_ns <= s.t_ns"
	"      ORDER BY 1, 2)) AS exit_sources,"
	"    (SELECT coalesce(sum(l.records), 0) FROM lost l"
	"      WHERE l.host_id = s.host_id AND l.t_ns > s.prev_t"
	"        AND l.t_ns <= s.t_ns) AS lost"
	"  FROM s WHERE s.prev_t IS NOT NULL;"
	"DROP VIEW v_energy_estimate;"
	"CREATE VIEW v_energy_estimate AS"
	"  SELECT host_id, t0_ns, t1_ns, proc_id, uid, command, cpu_ns,"
	"    energy_uj * 1000.0 * cpu_ns / max(capacity_ns, total_ns)"
	"      AS energy_nj"
	"  FROM (SELECT *, sum(cpu_ns) OVER"
	"      (PARTITION BY host_id, t1_ns) AS total_ns"
	"    FROM (SELECT r.host_id, r.t0_ns, r.t1_ns, p.proc_id, p.uid,"
	"        p.command, pi.cpu_user_ns + pi.cpu_sys_ns AS cpu_ns,"
	"        r.energy_uj, s.ncpu * (r.t1_ns - r.t0_ns) AS capacity_ns"
	"      FROM v_rapl_host r"
	"      JOIN sysload s ON s.host_id = r.host_id AND s.t_ns = r.t1_ns"
	"      JOIN proc_interval_rows pi ON pi.t1_ns > r.t0_ns"
	"        AND pi.t1_ns <= r.t1_ns"
	"      JOIN procs p ON p.proc_id = pi.proc_id"
	"        AND p.host_id = r.host_id"
	"      WHERE s.ncpu > 0 AND r.t1_ns > r.t0_ns"
	"      UNION ALL"
	"      SELECT r.host_id, r.t0_ns, r.t1_ns, p.proc_id, p.uid,"
	"        p.command, p.exit_cpu_user_ns + p.exit_cpu_sys_ns,"
	"        r.energy_uj, s.ncpu * (r.t1_ns - r.t0_ns)"
	"      FROM v_rapl_host r"
	"      JOIN sysload s ON s.host_id = r.host_id AND s.t_ns = r.t1_ns"
	"      JOIN procs p ON p.exit_anomalies IS NOT NULL"
	"        AND p.finish_ns > r.t0_ns AND p.finish_ns <= r.t1_ns"
	"        AND p.host_id = r.host_id"
	"      WHERE s.ncpu > 0 AND r.t1_ns > r.t0_ns));",

	/*
	 * 16 -> 17: every view's host column names one host: the name
	 * where it is the only host of
	 * that name, else the name and a short form of its identity
	 * (hostlabel_sql.h).  A label depends on the other hosts, so it
	 * is kept in hosts.label by triggers, whichever writer (ingest,
	 * merge, the sqlite3 shell) adds, renames or deletes a host; the
	 * views read it as they read the name, at no cost per row.  The
	 * views are the same but for host (and v_hosts' new name: the
	 * name alone).
	 */
	"ALTER TABLE hosts ADD COLUMN label TEXT;"
	"CREATE VIEW host_labels AS " HOST_LABELS_SQL ";"
	"CREATE TABLE host_label_work ("
	"  host_id INTEGER PRIMARY KEY,"
	"  label TEXT NOT NULL);"
	HOST_RELABEL
	"CREATE TRIGGER hosts_label_insert AFTER INSERT ON hosts"
	"  BEGIN " HOST_RELABEL " END;"
	"CREATE TRIGGER hosts_label_update AFTER UPDATE OF name, ident"
	"  ON hosts BEGIN " HOST_RELABEL " END;"
	"CREATE TRIGGER hosts_label_delete AFTER DELETE ON hosts"
	"  BEGIN " HOST_RELABEL " END;"
	"DROP VIEW v_hosts;"
	"CREATE VIEW v_hosts AS"
	"  SELECT host_id, label AS host, exit_sources, carbon_g_per_kwh,"
	"    carbon_source, ident, name FROM hosts;"
	"DROP VIEW v_host_names;"
	"CREATE VIEW v_host_names AS"
	"  SELECT h.label AS host, n.host_id, n.kind, n.id, n.name"
	"  FROM host_names n JOIN hosts h USING (host_id);"
	"DROP VIEW v_sysload;"
	"CREATE VIEW v_sysload AS"
	"  SELECT h.label AS host, s.* FROM sysload s JOIN hosts h"
	"  USING (host_id);"
	V_USAGE_ROLLUPS_DROP
	V_USAGE_ROLLUPS
	"DROP VIEW v_proc_usage;"
	"CREATE VIEW v_proc_usage AS"
	"  SELECT h.label AS host, p.pid, p.start_ns, p.uid, p.gid,"
	"    p.projid, p.zone, p.command, i.*"
	"  FROM proc_interval_rows i JOIN procs p USING (proc_id)"
	"  JOIN hosts h USING (host_id)"
	"  UNION ALL"
	"  SELECT h.label, p.pid, p.start_ns, p.uid, p.gid, p.projid,"
	"    p.zone, p.command, p.proc_id, p.start_ns, p.finish_ns, 1, 0, "
	PI_OF_P
	"  FROM procs p JOIN hosts h USING (host_id)"
	"  WHERE p.exit_anomalies IS NOT NULL;"
	"DROP VIEW v_energy_usage;"
	"CREATE VIEW v_energy_usage AS"
	"  SELECT h.label AS host, h.carbon_g_per_kwh, h.carbon_source,"
	"    p.pid, p.start_ns, p.uid, p.command, i.*"
	"  FROM energy_intervals i JOIN energy_procs p USING (eproc_id)"
	"  JOIN hosts h USING (host_id);"
	"DROP VIEW v_energy;"
	"CREATE VIEW v_energy AS"
	"  SELECT h.label AS host, p.pid, p.start_ns, p.uid, p.command,"
	"    i.t0_ns, i.t1_ns, i.first,"
	"    i.energy_nj / 1e9 AS joules,"
	"    i.energy_nj * 1.0 / (i.t1_ns - i.t0_ns) AS watts,"
	"    i.cpu_ns / 1e9 AS cpu_s,"
	"    CASE WHEN i.cpu_ns > 0 THEN i.energy_nj * 1.0 / i.cpu_ns END"
	"      AS joules_per_cpu_s,"
	"    i.energy_nj * h.carbon_g_per_kwh / 3.6e15 AS g_co2e"
	V_ENERGY_FROM ";"
	"DROP VIEW v_metric_energy;"
	"CREATE VIEW v_metric_energy AS"
	"  SELECT h.label AS host, s.metric, s.detail, m.t0_ns, m.t1_ns,"
	"    m.value / 1e6 AS joules,"
	"    m.value * 1000.0 / (m.t1_ns - m.t0_ns) AS watts,"
	"    m.value * h.carbon_g_per_kwh / 3.6e12 AS g_co2e"
	"  FROM metric_samples m JOIN metric_series s USING (series_id)"
	"  JOIN hosts h USING (host_id)"
	"  WHERE s.unit = 'uJ';"
	"DROP VIEW v_pacct_gaps;"
	"CREATE VIEW v_pacct_gaps AS"
	"  SELECT h.label AS host, g.host_id, g.t0_ns, g.t1_ns, g.reason"
	"  FROM pacct_gaps g JOIN hosts h USING (host_id);",

	/*
	 * 17 -> 18: the rollup tables' calls may be NULL (no writer
	 * stores one).  Ingest upserts rollup rows many to a
	 * statement, and SQLite keeps a statement journal (a copy of each
	 * page the statement touches, to undo it alone) for a statement of
	 * many rows whose upsert sets a NOT NULL column: 918 MB of
	 * temporary files for 100,000 generated records.  Each table is
	 * made again and its rows copied, in key order; its view goes
	 * first (a table a view reads cannot be renamed into place) and
	 * comes back as it was.
	 */
	V_USAGE_ROLLUPS_DROP
	RU_REMAKE("rollup_hour", RU_KEYED_TABLE("rollup_hour_new", "hour_s",
	    RU_TABLE_VALUES_18))
	RU_REMAKE("rollup_day", RU_KEYED_TABLE("rollup_day_new", "day_s",
	    RU_TABLE_VALUES_18))
	RU_REMAKE("rollup_host", RU_HOST_TABLE("rollup_host_new",
	    RU_TABLE_VALUES_18))
	V_USAGE_ROLLUPS,

	/*
	 * 18 -> 19: the exit interval of a process that forked and never
	 * exec'd is rolled up under its command with a '*' after it, as
	 * sa(8) counts such a process (rollup_sql.h, RU_COMMAND), and
	 * v_proc_usage shows each process's exit flags (acctflags), for
	 * the report that scans the intervals.  The rollup rows of the
	 * hours from the first such interval on are made again, where the
	 * intervals are all still there (from the intervals' expiry cut,
	 * as rollup --rebuild); older hours keep the keys they had.  The
	 * host rows have no command: they stay.
	 */
	"DROP VIEW v_proc_usage;"
	"CREATE VIEW v_proc_usage AS"
	"  SELECT h.label AS host, p.pid, p.start_ns, p.uid, p.gid,"
	"    p.projid, p.zone, p.command, p.acctflags, i.*"
	"  FROM proc_interval_rows i JOIN procs p USING (proc_id)"
	"  JOIN hosts h USING (host_id)"
	"  UNION ALL"
	"  SELECT h.label, p.pid, p.start_ns, p.uid, p.gid, p.projid,"
	"    p.zone, p.command, p.acctflags, p.proc_id, p.start_ns,"
	"    p.finish_ns, 1, 0, "
	PI_OF_P
	"  FROM procs p JOIN hosts h USING (host_id)"
	"  WHERE p.exit_anomalies IS NOT NULL;"
	"CREATE TEMP TABLE m19_from AS SELECT max(f.h * 3600,"
	"  coalesce((SELECT before_ns / " NS_SQL " FROM expiry"
	"    WHERE what = 'intervals'), f.h * 3600)) AS h"
	"  FROM (SELECT min(" RU_H0 ") AS h FROM v_proc_usage"
	"    WHERE final = 1 AND acctflags % 2 = 1 AND command IS NOT NULL) f;"
	"DELETE FROM rollup_hour WHERE hour_s >= (SELECT h FROM m19_from);"
	RU_INSERT_HOUR("(SELECT * FROM (" RU_PARTS("proc_id, final, ",
	"v_proc_usage WHERE t1_ns >= (SELECT h FROM m19_from) * " NS_SQL) ") "
	"WHERE hour_s >= (SELECT h FROM m19_from))") ";"
	"UPDATE m19_from SET h = h - (h % 86400 + 86400) % 86400;"
	"DELETE FROM rollup_day WHERE day_s >= (SELECT h FROM m19_from);"
	RU_DAY_FROM_HOURS("(SELECT h FROM m19_from)")
	"DROP TABLE m19_from;",

	/*
	 * 19 -> 20: the cgroup each process ran in (Linux): a row per
	 * host and path in cgroups, with the keys the path names
	 * (parsers/cgpath.h), and the process (at its exit), each
	 * interval (the cgroup of the record at its end) and the live
	 * state (for an exit that has none, as pacct's) referring to it.
	 * NULL: not known, never the root.  v_proc_usage shows an
	 * interval's cgroup and its keys.
	 */
	"CREATE TABLE cgroups ("
	"  cgroup_id INTEGER PRIMARY KEY,"
	"  host_id INTEGER NOT NULL REFERENCES hosts,"
	"  hierarchy INTEGER NOT NULL,"
	"  path TEXT NOT NULL,"
	"  unit TEXT, container TEXT, pod TEXT,"
	"  UNIQUE (host_id, hierarchy, path));"
	"ALTER TABLE procs ADD COLUMN cgroup_id INTEGER REFERENCES cgroups;"
	"ALTER TABLE procs ADD COLUMN cgroup_from INTEGER;"
	"ALTER TABLE proc_interval_rows ADD COLUMN cgroup_id INTEGER;"
	"ALTER TABLE proc_last ADD COLUMN cgroup_id INTEGER;"
	"DROP VIEW v_proc_usage;"
	"CREATE VIEW v_proc_usage AS"
	"  SELECT h.label AS host, p.pid, p.start_ns, p.uid, p.gid,"
	"    p.projid, p.zone, p.command, p.acctflags, i.*,"
	"    c.path AS cgroup, c.unit, c.container, c.pod"
	"  FROM proc_interval_rows i JOIN procs p USING (proc_id)"
	"  JOIN hosts h USING (host_id)"
	"  LEFT JOIN cgroups c ON c.cgroup_id = i.cgroup_id"
	"  UNION ALL"
	"  SELECT h.label, p.pid, p.start_ns, p.uid, p.gid, p.projid,"
	"    p.zone, p.command, p.acctflags, p.proc_id, p.start_ns,"
	"    p.finish_ns, 1, 0, "
	PI_OF_P
	", p.cgroup_id, c.path, c.unit, c.container, c.pod"
	"  FROM procs p JOIN hosts h USING (host_id)"
	"  LEFT JOIN cgroups c ON c.cgroup_id = p.cgroup_id"
	"  WHERE p.exit_anomalies IS NOT NULL;",

	/*
	 * 20 -> 21: the kernel's totals per cgroup, as snap read them
	 * (cgroup records), for the cgroups of the table above (known by
	 * host, hierarchy and path): cgroup_last keeps a cgroup's last
	 * reading, cgroup_intervals the growth between two.
	 */
	"CREATE TABLE cgroup_last ("
	"  cgroup_id INTEGER PRIMARY KEY REFERENCES cgroups,"
	"  t_ns INTEGER NOT NULL,"
	"  cpu_ns INTEGER, user_ns INTEGER, system_ns INTEGER,"
	"  io_read_bytes INTEGER, io_write_bytes INTEGER,"
	"  io_read_ops INTEGER, io_write_ops INTEGER);"
	"CREATE TABLE cgroup_intervals ("
	"  cgroup_id INTEGER NOT NULL REFERENCES cgroups,"
	"  t0_ns INTEGER NOT NULL,"
	"  t1_ns INTEGER NOT NULL,"
	"  cpu_ns INTEGER, user_ns INTEGER, system_ns INTEGER,"
	"  mem_current INTEGER, mem_peak INTEGER,"
	"  io_read_bytes INTEGER, io_write_bytes INTEGER,"
	"  io_read_ops INTEGER, io_write_ops INTEGER,"
	"  restarted INTEGER NOT NULL,"
	"  PRIMARY KEY (cgroup_id, t1_ns)) WITHOUT ROWID;"
	/* What reports read: a cgroup's kernel totals per interval. */
	"CREATE VIEW v_cgroup_usage AS"
	"  SELECT h.label AS host, c.host_id, c.cgroup_id, c.path,"
	"    c.hierarchy, i.t0_ns, i.t1_ns, i.cpu_ns, i.user_ns, i.system_ns,"
	"    i.mem_current, i.mem_peak, i.io_read_bytes, i.io_write_bytes,"
	"    i.io_read_ops, i.io_write_ops, i.restarted"
	"  FROM cgroup_intervals i JOIN cgroups c USING (cgroup_id)"
	"  JOIN hosts h USING (host_id);",

	/*
	 * 21 -> 22: the exits that carry their interval, found by host
	 * and finish.  The capture view looks for a window's exits by
	 * host and finish time; with only the (host, start) key and the
	 * finish index that spans every host, SQLite took the key: each
	 * window read every process started since it began (to the end
	 * of history), and its exit sources every process of the host,
	 * sorted.  With this index each window reads its own exits: the
	 * view's cost is one pass over the history, not its square.
	 */
	"CREATE INDEX procs_host_t1 ON procs (host_id, finish_ns)"
	"  WHERE exit_anomalies IS NOT NULL;",

	/*
	 * 22 -> 23: a host's CPUs where no snap record says how many are
	 * online (util_pct needs them; pacct, acctd, exacct and energy
	 * logs carry none), and where the figure comes from ('config':
	 * the host's cpus: key); and pacct's ac_mem of each process, KiB
	 * (the address space's size at exit), the memory sa(8) averages.
	 */
	"ALTER TABLE hosts ADD COLUMN cpus INTEGER;"
	"ALTER TABLE hosts ADD COLUMN cpus_source TEXT;"
	"ALTER TABLE procs ADD COLUMN mem_kb INTEGER;"
	"DROP VIEW v_hosts;"
	"CREATE VIEW v_hosts AS"
	"  SELECT host_id, label AS host, exit_sources, carbon_g_per_kwh,"
	"    carbon_source, ident, name, cpus, cpus_source FROM hosts;",
};

_Static_assert(sizeof(db_migrations) / sizeof(db_migrations[0]) ==
    DB_SCHEMA_VERSION, "one migration a version");
