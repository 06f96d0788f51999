#!/bin/sh
# rollups: kept by ingest and merge exactly once, the same as
# rollup --rebuild makes from the intervals; intervals split over the
# hours they cover, exactly; reports from rollups equal to the scan;
# retention shrinks the file and leaves the rollup reports as they were.
. "$(dirname "$0")/../lib.sh"

# Every rollup row of database $1, sorted.
rollups() {
	for t in rollup_hour rollup_day rollup_host; do
		echo "== $t" &&
		sqlite3 "$1" "SELECT * FROM $t" | sort || return 1
	done
}

# The sum of a rollup value (its _g and _r columns), as SQL.
v() {
	echo "sum($1_g) * 1000000000 + sum($1_r)"
}

# The rollups of $1 against what a rebuild makes of its intervals.
rebuilt_same() {
	rollups "$1" >kept &&
	extracct rollup --rebuild --db "$1" >/dev/null &&
	rollups "$1" >rebuilt &&
	test_cmp kept rebuilt &&
	test $(wc -l <kept) -gt 3
}

test_expect_success 'setup: logs with snapshots, exits and long intervals' '
	extracct gen --kind proc --records 3000 --seed 7 --jitter -o g1.ex &&
	extracct gen --kind proc --records 2000 --seed 8 --daemons 5 \
	    -o g2.ex
'

test_expect_success 'ingest keeps what a rebuild makes (several ingests, small chunks)' '
	extracct ingest --db a.db --chunk 50 g1.ex >out &&
	extracct ingest --db a.db "$SAMPLES/real/proc.exacct" >out &&
	extracct ingest --db a.db --chunk 7 g2.ex "$SAMPLES/proc.exacct" >out &&
	rebuilt_same a.db
'


test_expect_success 're-ingest adds nothing to the rollups' '
	rollups a.db >before &&
	extracct ingest --db a.db g1.ex g2.ex "$SAMPLES/proc.exacct" >out &&
	rollups a.db >after &&
	test_cmp before after
'

test_expect_success 'the rollups hold every interval once: sums equal' '
	sqlite3 a.db "SELECT sum(final), sum(t1_ns - t0_ns), sum(cpu_user_ns),
	    sum(cpu_sys_ns), sum(chars_rdwr), max(rss_max_kb)
	    FROM v_proc_usage" >expect &&
	for t in rollup_hour rollup_day rollup_host; do
		sqlite3 a.db "SELECT sum(calls), $(v real_ns), $(v cpu_user_ns),
		    $(v cpu_sys_ns), $(v chars_rdwr), max(rss_max_kb)
		    FROM $t" >actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success 'merge keeps them exactly once, merged twice' '
	extracct merge -o m.db a.db >out &&
	extracct merge -o m.db a.db >out &&
	rollups a.db | sed "/^==/!s/^[0-9]*|//" >src &&
	rollups m.db | sed "/^==/!s/^[0-9]*|//" >dst &&
	test_cmp src dst &&
	rebuilt_same m.db
'

# The older database: schema 14, made as such, holding a.db's facts (its
# processes without the exit interval of schema 16, which its intervals
# are: proc_intervals, the view, gives them all).
test_expect_success 'migration 15 builds the rollups of an older database' '
	extracct_test schema old.db 14 &&
	sqlite3 old.db "ATTACH '\''a.db'\'' AS a;
	    INSERT INTO hosts SELECT $(sqlite3 old.db "SELECT group_concat(name)
		FROM pragma_table_info('\''hosts'\'')") FROM a.hosts;
	    INSERT INTO files SELECT * FROM a.files;
	    INSERT INTO procs SELECT $(sqlite3 old.db "SELECT group_concat(name)
		FROM pragma_table_info('\''procs'\'')") FROM a.procs;
	    INSERT INTO proc_intervals SELECT * FROM a.proc_intervals;
	    INSERT INTO proc_alt_exits SELECT * FROM a.proc_alt_exits;
	    INSERT INTO proc_last SELECT $(sqlite3 old.db "SELECT group_concat(name)
		FROM pragma_table_info('\''proc_last'\'')") FROM a.proc_last" &&
	test "$(sqlite3 old.db "PRAGMA user_version")" = 14 &&
	extracct ingest --db old.db "$SAMPLES/proc.exacct" >out &&
	rollups a.db >expect &&
	rollups old.db >actual &&
	test_cmp expect actual
'

test_expect_success 'an interval of days is split over its hours, exactly' '
	extracct ingest --db real.db "$SAMPLES/real/proc.exacct" >out &&
	extracct report --db real.db --by hour --tz UTC --format csv >h.csv &&
	tr -d "\\r" <h.csv | head -n 4 | cut -d, -f1,5-8 >actual &&
	cat >expect <<-\EOF &&
	hour_start,calls,cpu_user_s,cpu_sys_s,real_s
	2005-03-03 00:00,0,0.000,0.000,888.187
	2005-03-03 01:00,1,0.000,0.001,3600.012
	2005-03-03 02:00,0,0.000,0.000,3600.000
	EOF
	test_cmp expect actual &&
	sqlite3 real.db "SELECT sum(t1_ns - t0_ns), sum(cpu_user_ns),
	    sum(chars_rdwr), max(t1_ns - t0_ns) > 3600000000000
	    FROM proc_intervals" >expect &&
	sqlite3 real.db "SELECT $(v real_ns), $(v cpu_user_ns),
	    $(v chars_rdwr), 1 FROM rollup_host" >actual &&
	test_cmp expect actual &&
	sqlite3 real.db "SELECT count(*) FROM rollup_host
	    WHERE real_ns_g * 1000000000 + real_ns_r > 2 * 3600000000000" >actual &&
	echo 0 >expect &&
	test_cmp expect actual
'

# Process exit records (extracct's catalog: pid, start s/ns, finish s/ns,
# user and system CPU ns, command): a finish past 2^63 ns (read back
# negative), one in the last hour before 2^63 ns, and one in range.
exit_rec() {
	echo "group 0xf0000100" &&
	echo "  uint 0x30001000 $1" &&
	echo "  uint 0x40001007 $2" && echo "  uint 0x40001008 0" &&
	echo "  uint 0x40001009 $3" && echo "  uint 0x4000100a $4" &&
	echo "  uint 0x4000100b $5" && echo "  uint 0x4000100c 5000000" &&
	echo "  string 0x60001006 $6" && echo "end"
}

# A finish past 2^63 ns is refused at ingest (the process dropped, not
# stored wrapped round); the last ns that fits is kept, out of range: in
# a window that holds its hour, counted unsplit; left out of the default.
test_expect_success 'times out of range: counted unsplit, no overflow' '
	{ echo "header library extracct hostile" &&
	  exit_rec 4242 1 18446744073 0 0 absurd &&
	  exit_rec 4243 9223372035 9223372036 854775807 7 late &&
	  exit_rec 4244 1700000000 1700010000 0 0 fine; } >h.spec &&
	extracct_test encode h.spec h.exacct &&
	test_expect_code 1 extracct ingest --db h.db h.exacct >out 2>err &&
	grep "^extracct: h.exacct: offset [0-9]*: 1 time refused" err &&
	grep ", 1 without pid or time, 1 times refused$" out &&
	rebuilt_same h.db &&
	extracct report --db h.db --by command --tz UTC --format csv \
	    --from 1970-01-01 --to @9223372036 >c.csv &&
	tr -d "\r" <c.csv | cut -d, -f1,3,6 | sort >actual &&
	cat >expect <<-\EOF &&
	command,calls,real_s
	fine,1,10000.000
	late,1,0.000
	EOF
	test_cmp expect actual &&
	extracct report --db h.db --by command --tz UTC --format csv >c.csv 2>err &&
	grep "^extracct: report: 1 interval out of range" err &&
	tr -d "\r" <c.csv | cut -d, -f1,3,6 | sort >actual &&
	printf "command,calls,real_s\nfine,1,10000.000\n" >expect &&
	test_cmp expect actual &&
	extracct report --db h.db --by hour --scan --tz UTC >/dev/null 2>&1
'

# Four processes of five years each: 43,831 hours apiece, more rollup
# rows in one chunk than ingest holds (131,072), so it writes the ones
# touched least recently before the chunk ends, and the processes after
# add to rows already written.
test_expect_success 'one chunk of more rollup rows than ingest holds in memory' '
	{ echo "header library extracct long" &&
	  for i in 1 2 3 4; do
		exit_rec 500$i 150000000$i 165778800$i 0 $((i * 7919)) w$i ||
		    return 1
	  done; } >long.spec &&
	extracct_test encode long.spec long.exacct &&
	extracct gen --kind proc --records 20000 --seed 9 -o g3.ex &&
	extracct ingest --db big.db --chunk 1000000 long.exacct g3.ex >out &&
	test $(sqlite3 big.db "SELECT count(*) FROM rollup_hour
	    WHERE command LIKE \"w_\"") -eq $((4 * 43831)) &&
	rebuilt_same big.db
'

test_expect_success 'the header, CSV and JSON say values are apportioned' '
	extracct report --db real.db --by hour --tz UTC >t &&
	grep "^# values of an interval spanning several hours are apportioned" t &&
	head -n 1 h.csv | grep ",apportioned" &&
	extracct report --db real.db --by hour --format json >j &&
	grep "\"apportioned\": \"values of an interval" j
'

test_expect_success 'reports from the rollups equal the scan of the intervals' '
	for by in user command project zone host hour; do
		for w in "" "--from 2005-03-03T03:30 --to 2023-11-15T01:00" \
		    "--from 2023-11-14T22:00 --to 2023-11-14T23:00"; do
			extracct report --db a.db --tz UTC --by $by $w \
			    --format csv >ro &&
			extracct report --db a.db --tz UTC --by $by $w \
			    --format csv --scan >sc &&
			test_cmp sc ro || return 1
		done
	done
'

test_expect_success 'retention keys: shown by config, out of range refused' '
	printf "keep_intervals_days: 30\nkeep_rollups_months: 24\n" >k.yaml &&
	extracct -c k.yaml config >out &&
	grep "^keep_intervals_days: 30$" out &&
	grep "^keep_rollups_months: 24$" out &&
	echo "keep_intervals_days: 36501" >bad.yaml &&
	test_expect_code 2 extracct -c bad.yaml config 2>err &&
	grep "keep_intervals_days" err &&
	test_expect_code 2 extracct rollup --db a.db 2>err &&
	test_expect_code 2 extracct rollup --rebuild --expire --db a.db 2>err
'

test_expect_success 'retention: file smaller, rollup reports unchanged' '
	cp a.db e.db &&
	for by in command hour user; do
		extracct report --db e.db --by $by >before.$by || return 1
	done &&
	before=$(wc -c <e.db) &&
	echo "keep_intervals_days: 30" >keep.yaml &&
	extracct -c keep.yaml rollup --expire --db e.db >out &&
	grep "^retention: e.db: [1-9][0-9]* interval rows and 0 rollup rows" out &&
	test $(wc -c <e.db) -lt $before &&
	test $(sqlite3 e.db "SELECT count(*) FROM proc_intervals") = 0 &&
	for by in command hour user; do
		extracct report --db e.db --by $by >after.$by &&
		test_cmp before.$by after.$by || return 1
	done &&
	extracct rollup --rebuild --db e.db >out &&
	extracct report --db e.db --by command >after.command &&
	test_cmp before.command after.command
'

test_expect_success 'retention switches an older database to incremental vacuum' '
	cp a.db nv.db &&
	sqlite3 nv.db "PRAGMA auto_vacuum = NONE; VACUUM" >/dev/null &&
	test "$(sqlite3 nv.db "PRAGMA auto_vacuum")" = 0 &&
	extracct report --db nv.db --by command >before &&
	before=$(wc -c <nv.db) &&
	extracct -c keep.yaml rollup --expire --db nv.db >out &&
	test "$(sqlite3 nv.db "PRAGMA auto_vacuum")" = 2 &&
	test $(wc -c <nv.db) -lt $before &&
	extracct report --db nv.db --by command >after &&
	test_cmp before after
'

test_expect_success 'retention of rollups: months before the limit go' '
	echo "keep_rollups_months: 1" >keep2.yaml &&
	extracct -c keep2.yaml rollup --expire --db e.db >out &&
	grep "^retention: e.db: 0 interval rows and [1-9][0-9]* rollup rows" out &&
	test $(sqlite3 e.db "SELECT count(*) FROM rollup_hour") = 0
'

test_done
