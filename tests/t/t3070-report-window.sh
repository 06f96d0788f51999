#!/bin/sh
# report's window and observed time in the charts and tables:
#   - the charts' default window is the tables' (first to last hour of
#     usage), not from the first interval's end;
#   - hosts whose data are years apart: the default window is the last
#     cluster of data, and the chart names the host left out;
#   - a bucket observed in part: util_pct and CPUs busy are over the
#     time the host's snapshots cover, and the coverage is shown.
. "$(dirname "$0")/../lib.sh"

B=1767258000	# 2026-01-01 09:00:00 UTC
S=000000000	# seconds to ns

test_expect_success 'setup: 22 days of generated data, a pacct host' '
	extracct gen --kind proc --records 200000 -o p.exacct &&
	extracct gen --kind pacct --records 2000 -o k.pacct &&
	extracct ingest --db a.db p.exacct >out &&
	extracct ingest --db a.db --host pk k.pacct >out
'

test_expect_success 'the chart spans the tables window, first and last day' '
	extracct report --db a.db --every day --tz UTC --format csv >days.csv &&
	first=$(sed -n 2p days.csv | cut -d, -f1) &&
	last=$(tail -n 1 days.csv | cut -d, -f1) &&
	test "$(wc -l <days.csv)" -gt 20 &&
	extracct report --db a.db --tz UTC --format svg >a.svg &&
	sub=$(sed -n "s/.*class=\"subtitle\">\([^<]*\)<.*/\1/p" a.svg) &&
	echo "tables: $first to $last; chart: $sub" &&
	case "$sub" in *"; $first "*" to $last "*) ;; *) false ;; esac &&
	grep "class=\"xtick\"" a.svg >/dev/null
'

test_expect_success 'setup: two hosts 18 years apart (make run)' '
	extracct ingest --db r.db "$SRC/sample-data/proc.exacct" >out &&
	extracct ingest --db r.db "$SRC"/sample-data/real/*.exacct >out &&
	extracct report --db r.db --by host --format csv >hosts.csv &&
	test "$(wc -l <hosts.csv)" -eq 3
'

test_expect_success 'hosts years apart: the one left out is named with its span' '
	extracct report --db r.db --by host --tz UTC --format svg >r.svg &&
	note=$(sed -n "s/.*class=\"note\">\([^<]*\)<.*/\1/p" r.svg) &&
	echo "note: $note" &&
	case "$note" in *"host crun, its data 2005-03-03"*) ;; *) false ;; esac &&
	sub=$(sed -n "s/.*class=\"subtitle\">\([^<]*\)<.*/\1/p" r.svg) &&
	echo "subtitle: $sub" &&
	case "$sub" in *"; 2023-"*" to 2023-"*) ;; *) false ;; esac
'

test_expect_success 'setup: one CPU saturated for one minute of snapshots' '
	: >empty.pacct &&
	test_expect_code 1 extracct ingest --db m.db empty.pacct 2>err &&
	sqlite3 m.db "INSERT INTO hosts (host_id, name, ident)
	        VALUES (1, '\''m'\'', '\''name:m'\'');
	    INSERT INTO sysload (host_id, t_ns, user_ticks, nice_ticks,
	        system_ticks, idle_ticks, clk_tck, ncpu)
	        VALUES (1, $B$S, 0, 0, 0, 0, 100, 1),
	        (1, $((B + 60))$S, 6000, 0, 0, 0, 100, 1);
	    INSERT INTO procs (proc_id, host_id, pid, start_ns, uid, gid,
	        command, zone)
	        VALUES (1, 1, 101, $B$S, 1000, 100, '\''spin'\'', '\''global'\'');
	    INSERT INTO proc_intervals (proc_id, t0_ns, t1_ns, final,
	        heartbeat, cpu_user_ns, cpu_sys_ns, anomalies)
	        VALUES (1, $B$S, $((B + 60))$S, 1, 0, 60$S, 0, 0)" &&
	extracct rollup --rebuild --db m.db >out
'

# The value of column $2 of the CSV's row 2 ($1).
csv_col() {
	awk -F, -v c="$2" "NR == 1 { for (i = 1; i <= NF; i++) if (\$i == c) n = i }
	    NR == 2 { print \$n }" "$1"
}

test_expect_success 'util_pct is over the minute observed, coverage shown' '
	extracct report --db m.db --every hour --tz UTC --format csv >m.csv &&
	cat m.csv &&
	test "$(csv_col m.csv util_pct)" = 100.00 &&
	test "$(csv_col m.csv observed_s)" = 60.000 &&
	test "$(csv_col m.csv coverage_pct)" = 1.67 &&
	extracct report --db m.db --by hour,host --tz UTC --format json >m.json &&
	grep "\"util_pct\": 100.00" m.json &&
	grep "\"observed_s\": 60.000" m.json &&
	extracct report --db m.db --every hour --tz UTC >m.txt &&
	awk "\$1 == \"2026-01-01T09:00\" { print; ok = \$8 == \"100.00\" && \$9 == \"60.000\" && \$10 == \"1.67\" } END { exit !ok }" m.txt
'

test_expect_success 'the chart: 1 CPU busy, the hour marked observed 1 min of 60' '
	extracct report --db m.db --tz UTC --format svg >m.svg &&
	grep "class=\"ytick\">1.0<" m.svg &&
	grep -v "class=\"ytick\">[2-9]" m.svg >/dev/null &&
	grep "class=\"coverage\".*data-observed-s=\"60\" data-bucket-s=\"3600\"><title>observed 1 min of 60</title>" m.svg
'

test_done
