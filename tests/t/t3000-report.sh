#!/bin/sh
# report: totals by user, command, project, zone, host and hour, over a
# window, as a table, CSV or JSON, always naming the time zone.
. "$(dirname "$0")/../lib.sh"

test_expect_success 'setup' '
	extracct ingest --db r.db "$SAMPLES/proc.exacct" "$SAMPLES/real/proc.exacct" >out
'

test_expect_success 'by user: the totals are the sums of the intervals' '
	extracct report --db r.db --by user --format csv >out.csv &&
	head -n 1 out.csv | grep "^uid,user,tz,calls,cpu_user_s,cpu_sys_s,real_s,chars_rdwr_bytes" &&
	sqlite3 r.db "SELECT p.uid, sum(final),
	    printf(\"%.3f\", sum(cpu_user_ns) / 1e9), sum(chars_rdwr)
	    FROM proc_intervals JOIN procs p USING (proc_id)
	    GROUP BY p.uid" | sort >expect &&
	tr -d "\\r" <out.csv | awk -F, "NR > 1 { print \$1 \"|\" \$4 \"|\" \$5 \"|\" \$8 }" | sort >actual &&
	test_cmp expect actual
'

test_expect_success 'sorted by CPU, largest first' '
	extracct report --db r.db --by command --format csv >c.csv &&
	tr -d "\\r" <c.csv | awk -F, "NR > 1 { print \$4 + \$5 }" >cpu &&
	sort -rn cpu >sorted &&
	test_cmp sorted cpu
'

test_expect_success 'table names the zone and the window; --tz changes it' '
	extracct report --db r.db --by user --tz UTC >t &&
	grep "^# usage by user, from the start to the end; time zone UTC$" t &&
	extracct report --db r.db --by hour --tz UTC --format csv >u.csv &&
	extracct report --db r.db --by hour --tz Asia/Kolkata --format csv >k.csv &&
	grep ",UTC," u.csv && grep ",Asia/Kolkata," k.csv &&
	head -n 2 u.csv | tail -n 1 | grep "^2005-03-0[0-9] [0-9][0-9]:00,2005-" &&
	test "$(line_count u.csv)" -ge 3
'

test_expect_success '--from/--to select the hours that start in the window' '
	extracct report --db r.db --by command --tz UTC --from 2005-01-01 --to 2006-01-01 --format csv >w.csv &&
	tr -d "\\r" <w.csv | cut -d, -f1 | sort >cmds &&
	printf "acctadm\ncommand\nrun-mozilla.sh\n" >expect &&
	test_cmp expect cmds &&
	extracct report --db r.db --by command --from @1109811600 --to @1109815200 --format csv >x.csv &&
	test "$(line_count x.csv)" -eq 3 &&
	extracct report --db r.db --by command --from @1109813617 --to @1109813618 --format csv >x.csv &&
	test "$(line_count x.csv)" -eq 1
'

test_expect_success 'JSON output' '
	extracct report --db r.db --by zone --tz UTC --format json >j &&
	grep "^{\"by\": \"zone\", \"tz\": \"UTC\", \"apportioned\": \"values of an interval spanning several hours are apportioned to each hour in proportion to its time in it\", \"rows\": \\[" j &&
	grep "{\"zone\": \"global\", \"calls\": " j &&
	if command -v python3 >/dev/null; then python3 -m json.tool j >/dev/null; fi
'

test_expect_success 'bad options: exit 2 with the reason' '
	test_expect_code 2 extracct report --db r.db --by colour 2>err &&
	grep "not one of user, group, command" err &&
	test_expect_code 2 extracct report --db r.db --from yesterday 2>err &&
	grep "not YYYY-MM-DD" err &&
	test_expect_code 3 extracct report --db missing.db 2>err
'

test_expect_success 'report FILE...: exit records totalled without a database' '
	extracct gen --kind pacct --records 300 --seed 12 -o p.pacct &&
	extracct report --by command --format csv p.pacct >f.csv &&
	extracct ingest --db f.db --host h p.pacct >out &&
	extracct report --db f.db --by command --format csv >d.csv &&
	# The logs'"'"' own avg_mem_kib (pacct'"'"'s memory) aside: a database
	# keeps each exit'"'"'s figure, but its rollups no sum of them.
	tr -d "\r" <f.csv | awk -F, -v OFS=, "NR == 1 { for (i = 1; i <= NF; i++)
	    if (\$i == \"avg_mem_kib\") m = i } m == 0 { exit 1 }
	    { s = \"\"; for (i = 1; i <= NF; i++) if (i != m) s = s (s == \"\" && i == 1 ? \"\" : \",\") \$i; print s }" |
	    sort >a && tr -d "\r" <d.csv | sort >b &&
	test_cmp b a &&
	test "$(tr -d "\r" <f.csv | awk -F, "NR > 1 { n += \$3 } END { print n }")" -eq 300
'

test_expect_success 'report FILE...: partial records are not counted' '
	extracct report --by command --format csv "$SAMPLES/proc.exacct" >f.csv &&
	n=$(tr -d "\r" <f.csv | awk -F, "NR > 1 { n += \$3 } END { print n }") &&
	finals=$(extracct text -H -k proc "$SAMPLES/proc.exacct" | awk "\$3 != \"-1.0000\"" | wc -l) &&
	test "$n" -eq "$finals"
'

test_expect_success '--capture with no snapshots: refused, saying why' '
	test_expect_code 2 extracct report --db r.db --capture --tz UTC \
	    >c 2>err &&
	test ! -s c &&
	grep "^extracct: --capture: no snapshots in the database: the ratio needs the busy CPU that snap records" err
'

# Sums past 2^63 ns (292 years): one host's daemons reach that in a year.
# Four intervals of ~127 years on host "big", uid 7, command daemon,
# ending an hour and a bit apart, with the totals worked out by hand:
#   real  4 x 4e18 + (1+2+3+4) x 3600250000001 = 16000036002.500000010 s
#   user  4 x 3e18 + (1+2+3+4) x 123456789     = 12000000001.234567890 s
#   sys   4 x (2.5e18 + 999999999)             = 10000000003.999999996 s
#   cpu   user + sys                           = 22000000005.234567886 s
#   chars 4 x 3e18                             = 12000000000000000000 B
test_expect_success 'setup: a database whose sums pass 2^63' '
	extracct ingest --db big.db "$SAMPLES/real/proc.exacct" >out &&
	sqlite3 big.db "INSERT INTO hosts (name) VALUES (\"big\");
	    WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k
	        WHERE n < 4)
	    INSERT INTO procs (host_id, pid, start_ns, uid, command, zone)
	    SELECT (SELECT host_id FROM hosts WHERE name = \"big\"), 1000 + n,
	        0, 7, \"daemon\", \"global\" FROM k;
	    INSERT INTO proc_intervals (proc_id, t0_ns, t1_ns, final,
	        heartbeat, cpu_user_ns, cpu_sys_ns, chars_rdwr, anomalies)
	    SELECT proc_id, 0, 4000000000000000000 + (pid - 1000) * 3600250000001,
	        1, 0, 3000000000000000000 + (pid - 1000) * 123456789,
	        2500000000999999999, 3000000000000000000, 0
	    FROM procs WHERE command = \"daemon\";
	    INSERT INTO energy_procs (host_id, pid, start_ns, uid, command)
	    SELECT host_id, pid, 0, 7, \"edaemon\" FROM procs
	    WHERE command = \"daemon\";
	    INSERT INTO energy_intervals (eproc_id, t0_ns, t1_ns, first,
	        cpu_ns, energy_nj, anomalies)
	    SELECT eproc_id, 0, 4000000000000000000 + pid, 1,
	        4000000000000000000, 1000000000000000, 0 FROM energy_procs
	    WHERE command = \"edaemon\";" &&
	test "$(sqlite3 big.db "SELECT total(t1_ns - t0_ns) > 9.3e18
	    FROM proc_intervals")" -eq 1 &&
	extracct rollup --rebuild --db big.db >out
'

test_expect_success 'sums past 2^63 ns: exact totals, table, CSV, JSON' '
	for by in host user command; do
		for f in table csv json; do
			extracct report --db big.db --by $by --format $f \
			    >big.$by.$f || return 1
		done
	done &&
	# The user key: the uid (a number in JSON) and its name, none here.
	for by in host user command; do
		case $by in
		host) csv=big tab=big json="\"host\": \"big\"" ;;
		user) csv=7, tab=7 json="\"uid\": 7, \"user\": null" ;;
		command) csv=daemon tab=daemon json="\"command\": \"daemon\"" ;;
		esac &&
		grep "^$csv,UTC,4,12000000001.235,10000000004.000,16000036002.500,12000000000000000000,,,,22000000005.235," big.$by.csv &&
		grep "^$tab  *4  *12000000001.235  *10000000004.000  *22000000005.235  *16000036002.500  *100.00  *12000000000000000000\( \|$\)" big.$by.table &&
		grep "{$json, \"calls\": 4, \"cpu_user_s\": 12000000001.235, \"cpu_sys_s\": 10000000004.000, \"real_s\": 16000036002.500, \"chars_rdwr_bytes\": 12000000000000000000, \"rss_max_kb\": null, \"faults_major\": null, \"syscalls\": null," big.$by.json ||
		return 1
	done &&
	grep "^acctadm  *1 .* 0.00 " big.command.table &&
	if command -v python3 >/dev/null; then
		python3 -m json.tool big.user.json >/dev/null
	fi
'

test_expect_success 'views past 2^63 ns: v_by_user, v_usage_hourly' '
	test "$(sqlite3 big.db "SELECT printf(\"%.3f %.3f\", cpu_user_s,
	    cpu_sys_s) FROM v_by_user WHERE host = \"big\"")" = \
	    "12000000001.235 10000000004.000" &&
	test "$(sqlite3 big.db "SELECT printf(\"%.3f\", sum(cpu_user_s))
	    FROM v_usage_hourly WHERE host = \"big\"")" = "12000000001.235" &&
	test "$(sqlite3 big.db "SELECT count(*) FROM v_by_user
	    WHERE cpu_user_s IS NULL")" -eq 0
'

test_expect_success 'energy CPU past 2^63 ns: exact' '
	for f in table csv; do
		extracct report --db big.db --energy --by command --format $f \
		    >bige.$f || return 1
	done &&
	grep "^edaemon,measured,4,4000000.000,.*,16000000000.000," bige.csv
'

test_expect_success 'report FILE...: exit records past 2^63 ns of real time' '
	for pid in 1 2 3; do
		printf "group 0xf0000100\n  uint 0x30001000 %s\n" $pid &&
		printf "  uint 0x40001007 0\n  uint 0x40001008 0\n" &&
		printf "  uint 0x40001009 4000000000\n  uint 0x4000100a 1\n" &&
		printf "  string 0x60001006 long\nend\n" || return 1
	done >long.spec &&
	sed -i "1i header kernel SunOS big" long.spec &&
	extracct_test encode long.spec long.exacct &&
	extracct report --by command --format csv long.exacct >l.csv &&
	grep "^long,UTC,3,,,12000000000.000,,,,,,," l.csv
'

# one way into the database.  report opens it read-only
# through the store, and reads the published views, never a table.
test_expect_success 'report reads views only, never a table' '
	sqlite3 r.db "SELECT name FROM sqlite_master WHERE type = '\''table'\''" >tables &&
	test "$(line_count tables)" -gt 10 &&
	for t in $(cat tables); do
		if grep -nwE "(FROM|JOIN) $t" "$SRC"/reports/*.c; then
			echo "reports read table $t"; return 1
		fi
	done
'

test_expect_success 'report: a missing database is named, not created' '
	test_expect_code 3 extracct report --db nowhere.db 2>err &&
	cat err &&
	grep "nowhere.db: .*no database there: name one with --db FILE" err &&
	test ! -e nowhere.db
'

test_expect_success 'report: a FIFO as the database is refused, without waiting' '
	mkfifo fifo.db &&
	timeout 10 "$EXTRACCT" report --db fifo.db 2>err; rc=$? &&
	cat err && test $rc -eq 3 &&
	grep "fifo.db: a FIFO, not a database" err
'

test_expect_success 'report: another schema version is refused, and says what to do' '
	cp r.db old.db &&
	sqlite3 old.db "PRAGMA user_version = 5" &&
	test_expect_code 3 extracct report --db old.db 2>err &&
	cat err &&
	grep "old.db: schema version 5, older than this extracct.s [0-9]*: an ingest" err &&
	sqlite3 old.db "PRAGMA user_version = 99" &&
	test_expect_code 3 extracct report --db old.db 2>err &&
	grep "schema version 99 is newer than this extracct knows" err
'

# A log of three processes, pid|start_s each, 5 s long: farlog OUT PID|S...
farlog() {
	out=$1
	shift
	for x in "$@"; do
		printf "group 0xf0000100\n  uint 0x30001000 %s\n  uint 0x40001007 %s\n  uint 0x40001009 %s\n  string 0x60001006 p%s\nend\n" \
		    "${x%|*}" "${x#*|}" "$((${x#*|} + 5))" "${x%|*}"
	done >"$out.body" &&
	{ echo "header kernel SunOS hostA" && cat "$out.body"; } >"$out.spec" &&
	extracct_test encode "$out.spec" "$out"
}

test_expect_success 'default window: a process of 2250 is left out, and said' '
	farlog far.exacct "10|1700000000" "11|8836128000" "12|1700000010" &&
	extracct ingest --db far.db far.exacct >out &&
	extracct report --db far.db --tz UTC --every day --format csv >d.csv 2>err &&
	cat err &&
	tr -d "\\r" <d.csv | cut -d, -f1,5 >actual &&
	printf "day_start,calls\n2023-11-14,2\n" >expect &&
	test_cmp expect actual &&
	echo "extracct: report: 1 interval out of range (before 1970 or from 2200 on) left out of the window; --from and --to take it in" >expect &&
	test_cmp expect err &&
	extracct report --db far.db --tz UTC --format csv >t.csv 2>err &&
	test_cmp expect err &&
	test "$(tr -d "\\r" <t.csv | sed -n 2p | cut -d, -f4)" = 2 &&
	extracct report --db far.db --tz UTC --scan --format csv >s.csv 2>err &&
	test_cmp expect err && test_cmp t.csv s.csv &&
	# A window given takes it in, and says nothing.
	extracct report --db far.db --tz UTC --from 2000-01-01 --to 2260-01-01 \
	    --format csv >g.csv 2>err &&
	test ! -s err &&
	test "$(tr -d "\\r" <g.csv | sed -n 2p | cut -d, -f4)" = 3
'

test_expect_success '--to past 2262 (64-bit ns) is refused, not wrapped' '
	test_expect_code 2 extracct report --db far.db --from 2000-01-01 --to 2300-01-01 2>err &&
	grep "^extracct: --to .2300-01-01.: past what 64-bit nanoseconds hold (1677-09-21 to 2262-04-11)$" err
'

test_done
