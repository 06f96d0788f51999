#!/bin/sh
# Schema 16: a database of schema 12 migrates and keeps its
# facts.  tests/fixtures/migrate12/v12.sql is the dump of a database
# that extracct at schema 12 made from the logs built below (exacct
# processes with hourly partial records, pacct exits, acctd exits with
# pacct alternates) and five sysload rows (sys.sql below), and
# v12.reports what extracct at schema 15 (before exit-only rows)
# reported of it, once migrated to 15 (since schema 19 with the exits of
# processes that forked and never exec'd apart, as COMMAND*: the rows
# by command split, their sums as before).  Migrated to 16, the
# same reports must say the same; so must a fresh ingest of the same
# logs at schema 16, where most processes are one procs row.
. "$(dirname "$0")/../lib.sh"

M=$SRC/tests/fixtures/migrate12

. "$SRC/tests/lib-handlogs.sh"

# The logs v12.sql was made from (gen gives the same bytes).
make_logs() {
	extracct gen --kind proc --records 300 --seed 11 --jitter --host alpha -o a.proc &&
	extracct gen --kind pacct --records 150 --seed 12 -o a.pacct &&
	acctd_log alpha 40 &&
	pacct_recs 40 >alt.pacct
}

sysload() {
	sqlite3 "$1" "INSERT INTO sysload (host_id, t_ns, user_ticks,
	    nice_ticks, system_ticks, idle_ticks, clk_tck, ncpu)
	  SELECT host_id, t * 1000000000, u, 0, u / 3, 100000, 100, 2 FROM hosts,
	    (SELECT 1699999000 AS t, 1000 AS u UNION ALL SELECT 1700000010, 3000
	     UNION ALL SELECT 1700003600, 90000 UNION ALL SELECT 1700030000, 400000
	     UNION ALL SELECT 1700060000, 900000) WHERE name = 'alpha'"
}

# The reports of v12.reports, in its order.
reports() {
	for by in user command hour host; do
		echo "== --by $by" &&
		extracct report --db "$1" --by $by --tz UTC --format csv ||
		    return 1
	done &&
	echo "== window" &&
	extracct report --db "$1" --by command --tz UTC --format csv \
	    --from @1700000000 --to @1700030000 &&
	echo "== capture" &&
	extracct report --db "$1" --capture --tz UTC --format csv &&
	echo "== capture table" &&
	extracct report --db "$1" --capture --tz UTC
}

# Every interval with its process's identity, and the processes, sorted.
facts() {
	sqlite3 "$1" "SELECT host, pid, start_ns, command, t0_ns, t1_ns,
	    final, heartbeat, cpu_user_ns, cpu_sys_ns, faults_minor,
	    chars_rdwr, rss_max_kb, anomalies FROM v_proc_usage" | sort &&
	sqlite3 "$1" "SELECT pid, start_ns, finish_ns, exit_source,
	    base_cpu_ns, wait_status FROM procs" | sort &&
	sqlite3 "$1" "SELECT p.pid, x.source, x.cpu_user_ns FROM v_alt_exits x
	    JOIN procs p USING (proc_id)" | sort
}

test_expect_success 'setup: the schema-12 database, and the logs' '
	sqlite3 old.db <"$M/v12.sql" &&
	sqlite3 old.db "PRAGMA user_version = 12" &&
	make_logs &&
	cp old.db v12.db
'

test_expect_success 'schema 12 has the interval table, no exit columns' '
	test "$(sqlite3 old.db "SELECT type FROM sqlite_master
	    WHERE name = '\''proc_intervals'\''")" = table &&
	test_must_fail sqlite3 old.db "SELECT exit_anomalies FROM procs"
'

test_expect_success 'an ingest migrates it: the logs are already in' '
	extracct ingest --db old.db --host alpha a.proc a.pacct acctd.exacct \
	    alt.pacct >out 2>&1 &&
	test "$(grep -c "already ingested" out)" -eq 4 &&
	test "$(sqlite3 old.db "PRAGMA user_version")" -eq "$(schema_now)" &&
	test "$(sqlite3 old.db "SELECT type FROM sqlite_master
	    WHERE name = '\''proc_intervals'\''")" = view
'

test_expect_success 'the migrated database reports what schema 12 did' '
	reports old.db >actual 2>&1 &&
	test_cmp "$M/v12.reports" actual
'

test_expect_success 'a fresh ingest at schema 16: one row per exit-only process' '
	extracct ingest --db new.db --host alpha a.proc a.pacct acctd.exacct \
	    alt.pacct >out &&
	sysload new.db &&
	n=$(sqlite3 new.db "SELECT count(*) FROM procs
	    WHERE exit_anomalies IS NOT NULL") &&
	test "$n" -gt 150 &&
	test "$(sqlite3 new.db "SELECT count(*) FROM proc_interval_rows i
	    JOIN procs p USING (proc_id) WHERE p.exit_anomalies IS NOT NULL")" -eq 0 &&
	test "$(sqlite3 new.db "SELECT count(*) FROM proc_intervals")" -eq \
	    "$(sqlite3 v12.db "SELECT count(*) FROM proc_intervals")"
'

test_expect_success 'the fresh database reports the same, and holds the same facts' '
	reports new.db >actual 2>&1 &&
	test_cmp "$M/v12.reports" actual &&
	facts v12.db >expect &&
	facts new.db >actual &&
	test_cmp expect actual &&
	facts old.db >actual &&
	test_cmp expect actual
'

test_expect_success 'the proc_intervals view takes an insert, and keeps one row per end' '
	p=$(sqlite3 new.db "SELECT proc_id FROM proc_interval_rows LIMIT 1") &&
	t=$(sqlite3 new.db "SELECT t1_ns FROM proc_interval_rows LIMIT 1") &&
	sqlite3 new.db "INSERT INTO proc_intervals (proc_id, t0_ns, t1_ns,
	    final, heartbeat, cpu_user_ns, anomalies)
	    VALUES ($p, $t, $t + 1, 0, 0, 7, 0)" &&
	test "$(sqlite3 new.db "SELECT cpu_user_ns FROM proc_intervals
	    WHERE proc_id = $p AND t1_ns = $t + 1")" -eq 7 &&
	test_must_fail sqlite3 new.db "INSERT INTO proc_intervals (proc_id,
	    t0_ns, t1_ns, final, heartbeat, anomalies)
	    VALUES ($p, 0, $t, 0, 0, 0)"
'

test_done
