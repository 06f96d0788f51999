#!/bin/sh
# report --capture says what it cannot answer, and where a window's CPU
# went: without snapshots there is no busy CPU to hold processes
# against, so the report refuses instead of printing a total of 0;
# under a window out of tolerance the table names the exits that ended
# in it (count, CPU in their records, how many recorded 0 s), and CSV
# and JSON give those for every window.  The logs are t2720's: exacct
# processes, pacct exits, acctd exits with pacct alternates, and five
# sysload rows standing for snapshots.
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/lib-handlogs.sh"

test_expect_success 'logs of one host, exits from pacct and acctd' '
	extracct gen --kind proc --records 300 --seed 11 --jitter --host alpha -o a.proc &&
	extracct gen --kind pacct --records 150 --seed 12 -o a.pacct &&
	acctd_log alpha 40 &&
	pacct_recs 40 >alt.pacct &&
	extracct ingest --db c.db --host alpha a.proc a.pacct acctd.exacct \
	    alt.pacct >out
'

test_expect_success 'no snapshots: refused, saying snap is needed' '
	test_expect_code 2 extracct report --db c.db --capture --tz UTC \
	    >out 2>err &&
	test ! -s out &&
	grep "no snapshots in the database" err &&
	grep "snap" err
'

test_expect_success 'snapshots: the windows' '
	sqlite3 c.db "INSERT INTO sysload (host_id, t_ns, user_ticks,
	    nice_ticks, system_ticks, idle_ticks, clk_tck, ncpu)
	  SELECT host_id, t * 1000000000, u, 0, u / 3, 100000, 100, 2 FROM hosts,
	    (SELECT 1699999000 AS t, 1000 AS u UNION ALL SELECT 1700000010, 3000
	     UNION ALL SELECT 1700003600, 90000 UNION ALL SELECT 1700030000, 400000
	     UNION ALL SELECT 1700060000, 900000) WHERE name = '\''alpha'\''" &&
	extracct report --db c.db --capture --tz UTC --format csv >c.csv &&
	extracct report --db c.db --capture --tz UTC --format json >c.json &&
	extracct report --db c.db --capture --tz UTC >c.table &&
	test "$(wc -l <c.csv)" -eq 5
'

# The exits ending in (t0, t1] of host alpha, counted in SQL apart from
# the report, from the documented view: "n cpu_ns zero".
exits_in() {
	sqlite3 -separator " " c.db "SELECT count(*),
	    coalesce(sum(coalesce(cpu_user_ns, 0) + coalesce(cpu_sys_ns, 0)), 0),
	    coalesce(sum(coalesce(cpu_user_ns, 0) + coalesce(cpu_sys_ns, 0) = 0), 0)
	  FROM v_proc_usage WHERE host = 'alpha' AND final = 1
	    AND t1_ns > $1 * 1000000000 AND t1_ns <= $2 * 1000000000"
}

test_expect_success 'CSV: each window its exits, as SQL counts them' '
	# (exit_sources is quoted with commas: the last three from the end)
	tr -d "\r" <c.csv | tail -n +2 |
	    awk -F, "{ print \$3, \$5, \$(NF-2), \$(NF-1), \$NF }" >w &&
	while read -r t0 t1 ended cpu zero; do
		set -- $(exits_in "$t0" "$t1") &&
		want_cpu=$(awk -v n="$2" "BEGIN { printf \"%.3f\", n / 1e9 }") &&
		echo "$t0 $t1: $ended $cpu $zero, SQL $1 $want_cpu $3" &&
		test "$ended" = "$1" && test "$cpu" = "$want_cpu" &&
		test "$zero" = "$3" || return 1
	done <w &&
	test "$(awk "{ s += \$3 } END { print s }" w)" -gt 0
'

test_expect_success 'JSON: the total is the windows summed' '
	total=$(awk "{ s += \$3 } END { print s }" w) &&
	grep "\"total\": {.*\"ended\": $total," c.json
'

test_expect_success 'table: under each window out of tolerance, its exits' '
	n=$(grep -c "^  ended: " c.table) &&
	tops=$(grep -c "^alpha" c.table) &&
	echo "ended notes $n, windows $tops" &&
	test "$n" -ge 1 &&
	awk "/^alpha/ { w = \$0 } /^  ended: / { print w; print }" c.table >pairs &&
	cat pairs &&
	grep -E "^  ended: [0-9]+ processes, [0-9.]+ s CPU in their exit records, [0-9]+ of them 0 s" pairs
'

# The view finds a window's exits by host and finish time: the (host,
# start) key it took before made each window read every process
# started since it began, to the end of history (the report's cost
# grew as the square of the history).
test_expect_success 'capture view: exits by host and finish, not by start' '
	sqlite3 c.db "EXPLAIN QUERY PLAN SELECT * FROM capture" >plan &&
	cat plan &&
	! grep "sqlite_autoindex_procs" plan &&
	test "$(grep -c "USING INDEX procs_host_t1 (host_id=? AND finish_ns>? AND finish_ns<?)" plan)" -eq 2
'

test_done
