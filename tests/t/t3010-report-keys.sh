#!/bin/sh
# report: several keys, local time buckets with
# their empty ones, --sort, --limit and ***other, per-call averages,
# utilisation of the host's CPUs, percentiles; names; blanks, not 0,
# for what was never recorded; CSV and JSON with the same columns.
#
# The data, host fx (2 CPUs), 2026-01-01 UTC, worked by hand:
#   proc 1 web  uid 1000 gid 100: 00:00-00:30 600 s user, 4 threads
#                                 00:30-02:30 1200 s user, 6 threads
#   proc 2 db   uid 1001 gid 100: 00:00-00:45 300 s user + 300 s sys,
#                                 rss_max 5000 KiB, read 1000 B
#   proc 3 web  uid 1000 gid 200: 02:00-02:10 60 s user, 42 B rdwr
# Hours, each interval split over those it covers (schema.md, Rollups):
#   00: 600 + 300 (proc 1) + 600 (proc 2) = 1500 s, 6300 s real, 1 call
#   01: 600 s (proc 1), 3600 s real; 02: 300 + 60 = 360 s, 2400 s real,
#   2 calls (procs 1 and 3); 03: none.
. "$(dirname "$0")/../lib.sh"

B=1767225600	# 2026-01-01 00:00:00 UTC
S=000000000	# seconds to ns

test_expect_success 'setup: the fixed database' '
	: >empty.pacct &&
	test_expect_code 1 extracct ingest --db fx.db empty.pacct 2>err &&
	sqlite3 fx.db "
	    INSERT INTO hosts (host_id, name, ident) VALUES (1, \"fx\", \"name:fx\");
	    INSERT INTO sysload (host_id, t_ns, user_ticks, nice_ticks,
	        system_ticks, idle_ticks, clk_tck, ncpu)
	        VALUES (1, $B$S, 0, 0, 0, 0, 100, 2),
	               (1, $((B + 14400))$S, 246000, 0, 0, 474000, 100, 2);
	    INSERT INTO procs (proc_id, host_id, pid, start_ns, uid, gid,
	        projid, command, zone) VALUES
	        (1, 1, 101, $B$S, 1000, 100, 3, \"web\", \"global\"),
	        (2, 1, 102, $B$S, 1001, 100, 3, \"db\", \"global\"),
	        (3, 1, 103, $((B + 7200))$S, 1000, 200, 10, \"web\", \"global\");
	    INSERT INTO proc_intervals (proc_id, t0_ns, t1_ns, final,
	        heartbeat, cpu_user_ns, cpu_sys_ns, chars_rdwr, rss_max_kb,
	        read_bytes, threads, anomalies) VALUES
	        (1, $B$S, $((B + 1800))$S, 0, 0, 600$S, 0, NULL, NULL, NULL, 4, 0),
	        (1, $((B + 1800))$S, $((B + 9000))$S, 1, 0, 1200$S, 0, NULL, NULL, NULL, 6, 0),
	        (2, $B$S, $((B + 2700))$S, 1, 0, 300$S, 300$S, NULL, 5000, 1000, NULL, 0),
	        (3, $((B + 7200))$S, $((B + 7800))$S, 1, 0, 60$S, 0, 42, NULL, NULL, NULL, 0);" &&
	extracct rollup --rebuild --db fx.db >out &&
	printf "alice:x:1000:100::/home/alice:/bin/sh\nbob:x:1001:100::/home/bob:/bin/sh\n" >pw &&
	printf "staff:x:100:\nweb:x:200:\n" >gr &&
	printf "default:3::::\nshop:10:the shop:::\n" >pj
'

csv() {
	tr -d "\r" <"$1"
}

# fx's two system snapshots are 4 h apart, more than the 2 h that count
# as observed: its coverage is not known, so util_pct is over the whole
# hour (2 CPUs x 3600 s: 1500 s is 20.83%) and observed_s, coverage_pct
# are blank.
test_expect_success '--every hour: every hour of the window, the empty ones as zero rows' '
	extracct report --db fx.db --every hour --from 2026-01-01 --to 2026-01-01T04:00 --tz UTC --format csv >h.csv &&
	cat >expect <<-\EOF &&
	hour_start,hour_start_utc,hour_start_epoch_s,tz,calls,cpu_user_s,cpu_sys_s,real_s,chars_rdwr_bytes,rss_max_kb,faults_major,syscalls,cpu_s,cpu_share_pct,util_pct,read_bytes,write_bytes,blocks_in,blocks_out,threads_max,observed_s,coverage_pct,apportioned
	2026-01-01 00:00,2026-01-01T00:00:00Z,1767225600,UTC,1,1200.000,300.000,6300.000,,5000,,,1500.000,100.00,20.83,1000,,,,4,,,hourly
	2026-01-01 01:00,2026-01-01T01:00:00Z,1767229200,UTC,0,600.000,0.000,3600.000,,,,,600.000,100.00,8.33,,,,,,,,hourly
	2026-01-01 02:00,2026-01-01T02:00:00Z,1767232800,UTC,2,360.000,0.000,2400.000,42,,,,360.000,100.00,5.00,,,,,6,,,hourly
	2026-01-01 03:00,2026-01-01T03:00:00Z,1767236400,UTC,0,0.000,0.000,0.000,,,,,0.000,0.00,0.00,,,,,,,,hourly
	EOF
	csv h.csv >actual && test_cmp expect actual
'

test_expect_success '--by user,command: one row per pair, ids numeric, blanks for what was not recorded' '
	extracct report --db fx.db --by user,command --tz UTC --format csv >uc.csv &&
	cat >expect <<-\EOF &&
	uid,user,command,tz,calls,cpu_user_s,cpu_sys_s,real_s,chars_rdwr_bytes,rss_max_kb,faults_major,syscalls,cpu_s,cpu_share_pct,util_pct,read_bytes,write_bytes,blocks_in,blocks_out,threads_max,apportioned
	1000,,web,UTC,2,1860.000,0.000,9600.000,42,,,,1860.000,75.61,,,,,,6,hourly
	1001,,db,UTC,1,300.000,300.000,2700.000,,5000,,,600.000,24.39,,1000,,,,,hourly
	EOF
	csv uc.csv >actual && test_cmp expect actual &&
	extracct report --db fx.db --by user,command --tz UTC --format json >uc.json &&
	grep "{\"uid\": 1000, \"user\": null, \"command\": \"web\", \"calls\": 2, \"cpu_user_s\": 1860.000, \"cpu_sys_s\": 0.000, \"real_s\": 9600.000, \"chars_rdwr_bytes\": 42, \"rss_max_kb\": null," uc.json &&
	if command -v python3 >/dev/null; then
		python3 -c "import csv, json, sys
j = json.load(open(\"uc.json\"))
c = list(csv.DictReader(open(\"uc.csv\", newline=\"\")))
assert j[\"by\"] == \"user,command\", j[\"by\"]
for a, b in zip(j[\"rows\"], c):
    assert set(a) == set(b) - {\"tz\", \"apportioned\"}, (sorted(a), sorted(b))
    for k in a:
        assert (\"\" if a[k] is None else str(a[k])) == b[k] or \
            float(a[k]) == float(b[k]), (k, a[k], b[k])
"
	fi
'

test_expect_success '--by host,hour: the hours that have usage (intervals split over the hours they cover), per host, their utilisation' '
	extracct report --db fx.db --by host,hour --tz UTC --format csv >hh.csv &&
	csv hh.csv | cut -d, -f1,2,6,14-16 >actual &&
	cat >expect <<-\EOF &&
	host,hour_start,calls,cpu_s,cpu_share_pct,util_pct
	fx,2026-01-01 00:00,1,1500.000,60.98,20.83
	fx,2026-01-01 01:00,0,600.000,24.39,8.33
	fx,2026-01-01 02:00,2,360.000,14.63,5.00
	EOF
	test_cmp expect actual
'

# A snapshot at 00:30 makes 00:00-00:30 observed (the rest is still
# 3.5 h between snapshots): hour 00 is 1500 s over 2 CPUs x 1800 s,
# 41.67%, half of it seen; the later hours were not seen at all.
test_expect_success 'snapshots 30 min apart: util_pct over the time observed, and the header says so' '
	cp fx.db w.db &&
	sqlite3 w.db "INSERT INTO sysload (host_id, t_ns, user_ticks,
	        nice_ticks, system_ticks, idle_ticks, clk_tck, ncpu)
	        VALUES (1, $((B + 1800))$S, 0, 0, 0, 0, 100, 2)" &&
	extracct report --db w.db --every hour --from 2026-01-01 --to 2026-01-01T04:00 --tz UTC --format csv >w.csv &&
	csv w.csv | cut -d, -f1,13,15,21,22 >actual &&
	cat >expect <<-\EOF &&
	hour_start,cpu_s,util_pct,observed_s,coverage_pct
	2026-01-01 00:00,1500.000,41.67,1800.000,50.00
	2026-01-01 01:00,600.000,,0.000,0.00
	2026-01-01 02:00,360.000,,0.000,0.00
	2026-01-01 03:00,0.000,,0.000,0.00
	EOF
	test_cmp expect actual &&
	extracct report --db w.db --every hour --from 2026-01-01 --to 2026-01-01T04:00 --tz UTC >w.table &&
	sed -n 2p w.table >note &&
	cat note &&
	grep "; calls: processes that ended; util_pct: CPU over the time each host was observed (observed_s)$" note &&
	extracct report --db fx.db --every hour --from 2026-01-01 --to 2026-01-01T04:00 --tz UTC >fx.table &&
	sed -n 2p fx.table | grep "; calls: processes that ended$" &&
	extracct report --db w.db --by command --tz UTC >c.table &&
	! grep util_pct c.table
'

test_expect_success '--passwd, --group, --project: names beside the ids' '
	extracct report --db fx.db --by user,group --passwd pw --group-file gr --tz UTC --format csv >n.csv &&
	csv n.csv | cut -d, -f1-5 >actual &&
	cat >expect <<-\EOF &&
	uid,user,gid,group,tz
	1000,alice,100,staff,UTC
	1001,bob,100,staff,UTC
	1000,alice,200,web,UTC
	EOF
	test_cmp expect actual &&
	extracct report --db fx.db --by project --project pj --tz UTC >p.table &&
	grep "^shop  *1 " p.table && grep "^default  *2 " p.table &&
	extracct report --db fx.db --by user --passwd pw --tz UTC --format json >n.json &&
	grep "{\"uid\": 1000, \"user\": \"alice\", \"calls\": 2," n.json
'

test_expect_success 'a names file that is a FIFO is refused, without waiting' '
	mkfifo fifo &&
	timeout 10 "$EXTRACCT" report --db fx.db --passwd fifo 2>err; rc=$? &&
	test $rc -eq 3 && grep "fifo: not a regular file" err &&
	timeout 10 "$EXTRACCT" ingest --db fifo.db --host fx --group fifo \
	    empty.pacct 2>err; rc=$? &&
	test $rc -eq 3 && grep "fifo: not a regular file" err
'

test_expect_success '--limit: the rest as one ***other row; --averages per call' '
	extracct report --db fx.db --by command --limit 1 --averages --tz UTC --format csv >l.csv &&
	csv l.csv | cut -d, -f1,3-6,11,19- >actual &&
	cat >expect <<-\EOF &&
	command,calls,cpu_user_s,cpu_sys_s,real_s,cpu_s,cpu_s_per_call,real_s_per_call,chars_rdwr_bytes_per_call,apportioned
	web,2,1860.000,0.000,9600.000,1860.000,930.000,4800.000,21,hourly
	***other,1,300.000,300.000,2700.000,600.000,600.000,2700.000,,hourly
	EOF
	test_cmp expect actual
'

test_expect_success '--sort COLUMN; an unknown one is refused' '
	extracct report --db fx.db --by command --sort command --tz UTC --format csv >s.csv &&
	test "$(csv s.csv | cut -d, -f1 | tr "\n" " ")" = "command db web " &&
	extracct report --db fx.db --by user,group --sort gid --tz UTC --format csv >g.csv &&
	test "$(csv g.csv | cut -d, -f3 | tr "\n" " ")" = "gid 100 100 200 " &&
	extracct report --db fx.db --by command --sort real_s --tz UTC --format csv >r.csv &&
	test "$(csv r.csv | cut -d, -f6 | tr "\n" " ")" = "real_s 9600.000 2700.000 " &&
	test_expect_code 2 extracct report --db fx.db --sort colour 2>err &&
	grep "^extracct: --sort .colour.: no such column" err &&
	test_expect_code 2 extracct report --sort colour "$SAMPLES/proc.exacct" 2>err &&
	grep "^extracct: --sort .colour.: no such column" err
'

test_expect_success '--every day, week, month: local buckets, utilisation of the day' '
	extracct report --db fx.db --every day --by user --from 2026-01-01 --to 2026-01-02 --tz UTC --format csv >d.csv &&
	csv d.csv | cut -d, -f1,3,4,7,15,16 >actual &&
	cat >expect <<-\EOF &&
	day_start,day_start_epoch_s,uid,calls,cpu_s,cpu_share_pct
	2026-01-01,1767225600,1000,2,1860.000,75.61
	2026-01-01,1767225600,1001,1,600.000,24.39
	EOF
	test_cmp expect actual &&
	test "$(csv d.csv | cut -d, -f17 | tr "\n" " ")" = "util_pct 1.08 0.35 " &&
	extracct report --db fx.db --every week --from 2026-01-01 --to 2026-01-02 --tz UTC --format csv >w.csv &&
	test "$(csv w.csv | sed -n 2p | cut -d, -f1-5)" = "2025-12-29,2025-12-29T00:00:00Z,1766966400,UTC,3" &&
	extracct report --db fx.db --every month --tz UTC >m.table &&
	grep "^# usage every month, from the start to the end; time zone UTC" m.table &&
	grep "^2026-01  *3 " m.table
'

test_expect_success '--every day in Europe/Paris: 23 hours the day summer time starts' '
	extracct report --db fx.db --every day --from 2026-03-29 --to 2026-03-31 --tz Europe/Paris --format csv >dst.csv &&
	csv dst.csv | cut -d, -f1,3,5 >actual &&
	cat >expect <<-\EOF &&
	day_start,day_start_epoch_s,calls
	2026-03-29,1774738800,0
	2026-03-30,1774821600,0
	EOF
	test_cmp expect actual
'

# 2026-10-25 in Paris: 02:00-03:00 comes twice (CEST, then CET).  Two
# processes of web end in it, one in each: one bucket, one row.
test_expect_success '--every hour in Europe/Paris: the repeated hour is one bucket' '
	cp fx.db dst.db &&
	sqlite3 dst.db "INSERT INTO procs (proc_id, host_id, pid, start_ns,
	        uid, command) VALUES
	        (10, 1, 201, 1792886400$S, 1000, \"web\"),
	        (11, 1, 202, 1792890000$S, 1000, \"web\");
	    INSERT INTO proc_intervals (proc_id, t0_ns, t1_ns, final,
	        heartbeat, cpu_user_ns, anomalies) VALUES
	        (10, 1792886400$S, 1792888200$S, 1, 0, 10$S, 0),
	        (11, 1792890000$S, 1792891800$S, 1, 0, 20$S, 0);" &&
	extracct rollup --rebuild --db dst.db >out &&
	extracct report --db dst.db --every hour --by command --tz Europe/Paris \
	    --from @1792882800 --to @1792897200 --format csv >rep.csv &&
	csv rep.csv | cut -d, -f1-4,6,7 >actual &&
	cat >expect <<-\EOF &&
	hour_start,hour_start_utc,hour_start_epoch_s,command,calls,cpu_user_s
	2026-10-25 01:00,2026-10-24T23:00:00Z,1792882800,,0,0.000
	2026-10-25 02:00,2026-10-25T00:00:00Z,1792886400,web,2,30.000
	2026-10-25 03:00,2026-10-25T02:00:00Z,1792893600,,0,0.000
	EOF
	test_cmp expect actual
'

# The last buckets a window can have (ns end in 2262): no overflow.
test_expect_success '--every: edges past 2262 held in int64 ns; a window of no interval' '
	extracct report --db fx.db --every month --from 2262-01-01 --to @9223372036 --tz UTC --format csv >e.csv &&
	test "$(csv e.csv | cut -d, -f1 | tr "\n" " ")" = "month_start 2262-01 2262-02 2262-03 2262-04 " &&
	# Hours with no interval at all: zero rows only (was UB: qsort(NULL)).
	extracct report --db fx.db --every hour --from 2030-01-01 --to 2030-01-01T03:00 --tz UTC --format csv >z.csv &&
	test "$(csv z.csv | cut -d, -f1,5 | tr "\n" " ")" = "hour_start,calls 2030-01-01 00:00,0 2030-01-01 01:00,0 2030-01-01 02:00,0 "
'

# Hour 03 has no interval of any process: the host was not observed
# then, so the percentiles are over hours 00-02 (t3020 has two hosts).
test_expect_success '--percentiles: nearest rank over the observed buckets, quiet ones as 0' '
	extracct report --db fx.db --every hour --percentiles --from 2026-01-01 --to 2026-01-01T04:00 --tz UTC --format csv >pc.csv &&
	cat >expect <<-\EOF &&
	tz,window_buckets,observed_buckets,cpu_s_p50,cpu_s_p95,cpu_s_max,util_pct_p50,util_pct_p95,util_pct_max
	UTC,4,3,600.000,1500.000,1500.000,8.33,20.83,20.83
	EOF
	csv pc.csv >actual && test_cmp expect actual &&
	extracct report --db fx.db --every hour --by user --percentiles --from 2026-01-01 --to 2026-01-01T04:00 --tz UTC --format csv >pu.csv &&
	cat >expect <<-\EOF &&
	uid,user,tz,window_buckets,observed_buckets,cpu_s_p50,cpu_s_p95,cpu_s_max,util_pct_p50,util_pct_p95,util_pct_max
	1000,,UTC,4,3,600.000,900.000,900.000,8.33,12.50,12.50
	1001,,UTC,4,3,0.000,600.000,600.000,0.00,8.33,8.33
	EOF
	csv pu.csv >actual && test_cmp expect actual &&
	extracct report --db fx.db --every hour --percentiles --tz UTC --format json >pc.json &&
	if command -v python3 >/dev/null; then python3 -m json.tool pc.json >/dev/null; fi &&
	test_expect_code 2 extracct report --db fx.db --percentiles 2>err &&
	grep "name them with --every" err
'

test_expect_success 'the table: columns as wide as their values, blank columns left out' '
	extracct report --db fx.db --by command --tz UTC >t &&
	cat >expect <<-\EOF &&
	# usage by command, from the start to the end; time zone UTC
	# values of an interval spanning several hours are apportioned to each hour in proportion to its time in it; calls: processes that ended
	command calls cpu_user_s cpu_sys_s    cpu_s   real_s cpu_share_pct chars_rdwr_bytes read_bytes rss_max_kb threads_max
	web         2   1860.000     0.000 1860.000 9600.000         75.61               42                                 6
	db          1    300.000   300.000  600.000 2700.000         24.39                        1000       5000
	EOF
	test_cmp expect t &&
	cp fx.db long.db &&
	L=a-command-name-of-forty-characters-123456 &&
	sqlite3 long.db "UPDATE procs SET command = \"$L\" WHERE proc_id = 2" &&
	extracct rollup --rebuild --db long.db >out &&
	extracct report --db long.db --by command --tz UTC >lt &&
	test "$(sed -n 3p lt | cut -c 1-47)" = "command                                   calls" &&
	test "$(sed -n 5p lt | cut -c 1-47)" = "$L     1"
'

test_expect_success '--capture: CSV and JSON too, the host as it is' '
	extracct report --db fx.db --capture --tz UTC --format json >c.json &&
	grep "{\"host\": \"fx\", \"t0_epoch_s\": 1767225600, \"t1_epoch_s\": 1767240000, \"proc_cpu_s\": 2460.000, \"busy_cpu_s\": 2460.000, \"capture_ratio\": 1.000," c.json &&
	grep "\"total\": {\"proc_cpu_s\": 2460.000, \"busy_cpu_s\": 2460.000, \"capture_ratio\": 1.000," c.json &&
	if command -v python3 >/dev/null; then python3 -m json.tool c.json >/dev/null; fi &&
	sqlite3 fx.db "UPDATE hosts SET name = \"f x\" WHERE host_id = 1" &&
	extracct report --db fx.db --capture --tz UTC --format csv >c.csv &&
	csv c.csv | sed -n 2p | grep "^f x,2026-01-01T00:00:00Z,1767225600," &&
	extracct report --db fx.db --capture --tz UTC >c.table &&
	grep "^f\\\\040x " c.table &&
	sqlite3 fx.db "UPDATE hosts SET name = \"fx\" WHERE host_id = 1"
'

test_expect_success 'the CSV zone is a zone name, not "local (...)"' '
	TZ=Asia/Kolkata extracct report --db fx.db --format csv >z.csv &&
	csv z.csv | sed -n 2p | cut -d, -f3 >zone &&
	echo Asia/Kolkata >expect && test_cmp expect zone &&
	# No TZ: the zone /etc/localtime is, as a name (it was "local (UTC)").
	env -u TZ "$EXTRACCT" report --db fx.db --format csv >l.csv &&
	csv l.csv | sed -n 2p | cut -d, -f3 >zone &&
	cat zone &&
	! grep "^local" zone &&
	if test -L /etc/localtime; then
		readlink /etc/localtime | sed "s|.*zoneinfo/||" >expect &&
		test_cmp expect zone
	fi
'

test_expect_success 'ingest stores the host names; report shows them elsewhere' '
	extracct gen --kind pacct --records 30 --seed 5 -o g.pacct &&
	extracct ingest --db g.db --host gh --passwd pw --group gr g.pacct >out &&
	sqlite3 g.db "SELECT host, kind, id, name FROM v_host_names ORDER BY kind, id" >names &&
	cat >expect <<-\EOF &&
	gh|group|100|staff
	gh|group|200|web
	gh|user|1000|alice
	gh|user|1001|bob
	EOF
	test_cmp expect names &&
	sqlite3 g.db "UPDATE procs SET uid = 1001 WHERE proc_id = 1" &&
	extracct rollup --rebuild --db g.db >out &&
	extracct report --db g.db --by host,user --format csv >gu.csv &&
	csv gu.csv | grep "^gh,1001,bob," &&
	printf "carol:x:1001:100::/:/bin/sh\n" >pw2 &&
	extracct report --db g.db --by user --passwd pw2 --format csv >gu2.csv &&
	csv gu2.csv | grep "^1001,carol," &&
	printf "dave:x:1001:100::/:/bin/sh\n" >pw3 &&
	extracct ingest --db g.db --host gh --passwd pw3 g.pacct >out &&
	test "$(sqlite3 g.db "SELECT name FROM v_host_names WHERE kind = \"user\"")" = dave &&
	extracct merge -o fleet.db g.db >out &&
	test "$(sqlite3 fleet.db "SELECT host, kind, id, name FROM v_host_names
	    WHERE kind = \"user\"")" = "gh|user|1001|dave" &&
	extracct report --db fleet.db --by user --format csv >f.csv &&
	csv f.csv | grep "^1001,dave,"
'

test_done
