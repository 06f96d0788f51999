#!/bin/sh
# report --percentiles: over the buckets in which the key's hosts were
# observed, not every bucket of the window; an observed bucket the key
# used nothing in counts as 0.  Exact figures, worked by hand, and the
# same bytes from the fleet's PostgreSQL server.
#
# Two hosts, 2026-01-01 UTC, the window 00:00-10:00, --every hour:
#   host a (4 CPUs), observed every hour:
#     proc 1 web   uid 1000: [h, h+1) for h = 0..9, (h+1)*10 s user
#     proc 2 batch uid 1001: [02, 03) 300 s, [03, 04) 600 s
#   host b (2 CPUs), observed 06:00-08:00 only (its logs cover no more):
#     proc 3 batch uid 1001: [06, 07) 120 s, [07, 08) 240 s
#     proc 4 web   uid 1000: [06:00, 06:30) 30 s
#     proc 5 cron  uid 1002: [06, 07) 60 s, [07, 08) 90 s
# Hours: a 10 20 330 640 50 60 70 80 90 100; b (06, 07) 210 330.
# Nearest rank of n values: p50 the ceil(n/2)-th, p95 the
# ceil(0.95 n)-th (of 10: the 5th and the 10th; of 2: the 1st and 2nd).
. "$(dirname "$0")/../lib.sh"

B=1767225600	# 2026-01-01 00:00:00 UTC
S=000000000	# seconds to ns
W="--from 2026-01-01 --to 2026-01-01T10:00 --tz UTC"

# An empty database of one host, id 1, named $2, with $3 CPUs.
host_db() {
	: >empty.pacct &&
	test_expect_code 1 extracct ingest --db "$1" empty.pacct 2>err &&
	sqlite3 "$1" "INSERT INTO hosts (host_id, name, ident)
	        VALUES (1, '$2', 'name:$2');
	    INSERT INTO sysload (host_id, t_ns, user_ticks, nice_ticks,
	        system_ticks, idle_ticks, clk_tck, ncpu)
	        VALUES (1, $((B + 21600))$S, 0, 0, 0, 0, 100, $3)"
}

# An interval of proc $1 over [$2, $3) s after B, $4 s user, final $5.
iv() {
	echo "($1, $((B + $2))$S, $((B + $3))$S, $5, 0, $4$S, 0, 0),"
}

test_expect_success 'setup: host a watched all day, host b two hours' '
	host_db a.db a 4 &&
	host_db b.db b 2 &&
	{
		echo "INSERT INTO procs (proc_id, host_id, pid, start_ns, uid,
		    gid, command, zone) VALUES
		    (1, 1, 101, $B$S, 1000, 100, \"web\", \"global\"),
		    (2, 1, 102, $B$S, 1001, 100, \"batch\", \"global\");
		    INSERT INTO proc_intervals (proc_id, t0_ns, t1_ns, final,
		    heartbeat, cpu_user_ns, cpu_sys_ns, anomalies) VALUES" &&
		for h in 0 1 2 3 4 5 6 7 8; do
			iv 1 $((h * 3600)) $((h * 3600 + 3600)) $(((h + 1) * 10)) 0
		done &&
		iv 2 7200 10800 300 0 &&
		iv 2 10800 14400 600 1 &&
		echo "(1, $((B + 32400))$S, $((B + 36000))$S, 1, 0, 100$S, 0, 0);"
	} >a.sql &&
	sqlite3 a.db <a.sql &&
	{
		echo "INSERT INTO procs (proc_id, host_id, pid, start_ns, uid,
		    gid, command, zone) VALUES
		    (3, 1, 201, $((B + 21600))$S, 1001, 100, \"batch\", \"global\"),
		    (4, 1, 202, $((B + 21600))$S, 1000, 100, \"web\", \"global\"),
		    (5, 1, 203, $((B + 21600))$S, 1002, 100, \"cron\", \"global\");
		    INSERT INTO proc_intervals (proc_id, t0_ns, t1_ns, final,
		    heartbeat, cpu_user_ns, cpu_sys_ns, anomalies) VALUES" &&
		iv 3 21600 25200 120 0 &&
		iv 3 25200 28800 240 1 &&
		iv 4 21600 23400 30 1 &&
		iv 5 21600 25200 60 0 &&
		echo "(5, $((B + 25200))$S, $((B + 28800))$S, 1, 0, 90$S, 0, 0);"
	} >b.sql &&
	sqlite3 b.db <b.sql &&
	extracct rollup --rebuild --db a.db >out &&
	extracct rollup --rebuild --db b.db >out &&
	extracct merge -o fleet.db a.db b.db >out &&
	test "$(sqlite3 fleet.db "SELECT group_concat(host || \":\" || n, \" \")
	    FROM (SELECT host, count(*) AS n FROM v_usage_rollup_host
	    GROUP BY host ORDER BY host)")" = "a:10 b:2"
'

csv() {
	tr -d "\r" <"$1"
}

# report $@ over the window as CSV against expect: the values compared
# shown on a difference.
pct() {
	extracct report --db "${DB:-fleet.db}" --every hour --percentiles $W \
	    --format csv "$@" >out.csv &&
	csv out.csv >actual &&
	test_cmp expect actual
}

test_expect_success '--by host: b over its 2 observed hours, not 10' '
	cat >expect <<-\EOF &&
	host,tz,window_buckets,observed_buckets,cpu_s_p50,cpu_s_p95,cpu_s_max,util_pct_p50,util_pct_p95,util_pct_max
	a,UTC,10,10,70.000,640.000,640.000,0.49,4.44,4.44
	b,UTC,10,2,210.000,330.000,330.000,2.92,4.58,4.58
	EOF
	pct --by host
'

test_expect_success '--by command: the hours of the hosts each ran on' '
	# web and batch ran on both (10 hours: a was watched in every
	# one), cron on b alone (2).  batch: 0 in the 6 hours a was
	# watched and no batch ran.  Utilisation: of all 6 CPUs.
	cat >expect <<-\EOF &&
	command,tz,window_buckets,observed_buckets,cpu_s_p50,cpu_s_p95,cpu_s_max,util_pct_p50,util_pct_p95,util_pct_max
	batch,UTC,10,10,0.000,600.000,600.000,0.00,2.78,2.78
	web,UTC,10,10,50.000,100.000,100.000,0.23,0.46,0.46
	cron,UTC,10,2,60.000,90.000,90.000,0.28,0.42,0.42
	EOF
	pct --by command
'

test_expect_success '--by host,command: a quiet hour of a watched host is 0' '
	# b web: 30 s at 06, nothing at 07 while b was watched: 0, 30.
	cat >expect <<-\EOF &&
	host,command,tz,window_buckets,observed_buckets,cpu_s_p50,cpu_s_p95,cpu_s_max,util_pct_p50,util_pct_p95,util_pct_max
	a,batch,UTC,10,10,0.000,600.000,600.000,0.00,4.17,4.17
	a,web,UTC,10,10,50.000,100.000,100.000,0.35,0.69,0.69
	b,batch,UTC,10,2,120.000,240.000,240.000,1.67,3.33,3.33
	b,cron,UTC,10,2,60.000,90.000,90.000,0.83,1.25,1.25
	b,web,UTC,10,2,0.000,30.000,30.000,0.00,0.42,0.42
	EOF
	pct --by host,command
'

test_expect_success 'no key: the fleet over the hours any host was watched' '
	# 10 20 330 640 50 60 280 410 90 100
	cat >expect <<-\EOF &&
	tz,window_buckets,observed_buckets,cpu_s_p50,cpu_s_p95,cpu_s_max,util_pct_p50,util_pct_p95,util_pct_max
	UTC,10,10,90.000,640.000,640.000,0.42,2.96,2.96
	EOF
	pct &&
	# b alone: its 2 hours (the old figures: p50 0 over 10 buckets).
	extracct report --db b.db --every hour --percentiles $W --format csv >b.csv &&
	csv b.csv | grep "^UTC,10,2,210.000,330.000,330.000,2.92,4.58,4.58$"
'

test_expect_success '--limit 1: the rest as one ***other series' '
	# web + cron: 10 20 30 40 50 60 160 170 90 100
	cat >expect <<-\EOF &&
	command,tz,window_buckets,observed_buckets,cpu_s_p50,cpu_s_p95,cpu_s_max,util_pct_p50,util_pct_p95,util_pct_max
	batch,UTC,10,10,0.000,600.000,600.000,0.00,2.78,2.78
	***other,UTC,10,10,50.000,170.000,170.000,0.23,0.79,0.79
	EOF
	pct --by command --limit 1
'

test_expect_success 'the table and JSON say so' '
	extracct report --db fleet.db --every hour --percentiles $W --by host >t &&
	grep "^# p50, p95, max: nearest rank over the observed buckets" t &&
	grep "^b  *10  *2  *210.000 " t &&
	extracct report --db fleet.db --every hour --percentiles $W --by host --format json >j &&
	grep "\"host\": \"b\", \"window_buckets\": 10, \"observed_buckets\": 2, \"cpu_s_p50\": 210.000" j
'

test_expect_success 'a day bucket is observed if any of its hours is' '
	extracct report --db fleet.db --every day --percentiles --by host \
	    --from 2026-01-01 --to 2026-01-03 --tz UTC --format csv >d.csv &&
	csv d.csv | grep "^b,UTC,2,1,540.000,540.000,540.000," &&
	csv d.csv | grep "^a,UTC,2,1,1450.000,"
'

. "$SRC/tests/lib-pg.sh"

if ! pg_have; then
	test_skip 'the same on PostgreSQL' 'no PostgreSQL: install postgresql'
	test_done
	exit
fi
pg_start_or_skip

test_expect_success 'the same bytes from PostgreSQL' '
	pg_createdb fleet &&
	PG="postgresql:///fleet?host=$(echo "$PGROOT" | sed "s|/|%2F|g")" &&
	extracct push --db a.db --to "$PG" >/dev/null &&
	extracct push --db b.db --to "$PG" >/dev/null &&
	for a in "--by host" "--by command" "--by host,command" "" \
	    "--by command --limit 1" "--by user --format json" \
	    "--by host --tz America/St_Johns" "--by host,user --every day"; do
		# shellcheck disable=SC2086
		extracct report --db fleet.db --every hour --percentiles $W $a >expect &&
		test -s expect &&
		extracct report --db "$PG" --every hour --percentiles $W $a >actual &&
		test_cmp expect actual || { echo "differs: $a"; return 1; }
	done
'

test_done
