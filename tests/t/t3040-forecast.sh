#!/bin/sh
# report --forecast: the trend of each host's daily peak utilisation and
# the day it crosses the threshold, on data of a known growth; flat,
# falling and saturated hosts; a day without snapshots left out, not 0;
# the options it refuses; its chart; the same output on PostgreSQL as
# on SQLite.
#
# The data, 2026-01-01 to 2026-01-22 UTC, hourly snapshots and one
# process an hour per host, its CPU the hour's utilisation:
#   grow (4 CPUs): peak 50 + d % on day d (0-based), 80 on day 30,
#                  2026-01-31; no snapshot and no process on day 18
#   flat (2 CPUs): 40 %          fall (2 CPUs): 60 - d/2 %
#   hot  (8 CPUs): 90 %
# each with a wobble of up to 1 point a day.  Hours 12-17 run at the
# day's peak, the rest at 40% of it: the p95 of 24 hours is the peak.
. "$(dirname "$0")/../lib.sh"

cat >gen.awk <<\EOF
function peak(h, d,   w) {
	w = ((d * 7 + h * 3) % 5 - 2) * 0.5
	if (h == 1) return 50 + d + w
	if (h == 2) return 40 + w
	if (h == 3) return 60 - d / 2 + w
	return 90 + w
}
BEGIN {
	B = 1767225600; S = "000000000"; ndays = 21
	split("grow flat fall hot", name, " "); split("4 2 2 8", cpus, " ")
	print "BEGIN;"
	for (h = 1; h <= 4; h++)
		printf "INSERT INTO hosts (host_id, name, ident) VALUES (%d, '%s', 'name:%s');\n", h, name[h], name[h]
	id = 0
	for (h = 1; h <= 4; h++)
		for (k = 0; k <= ndays * 24; k++) {
			d = int(k / 24)
			if (h == 1 && k > 18 * 24 && k < 19 * 24) continue
			printf "INSERT INTO sysload (host_id, t_ns, user_ticks, nice_ticks, system_ticks, idle_ticks, clk_tck, btime_s, ncpu) VALUES (%d, %d%s, 0, 0, 0, 0, 100, 1767000000, %d);\n", h, B + 3600 * k, S, cpus[h]
			if (k == ndays * 24 || (h == 1 && d == 18)) continue
			hr = k % 24
			u = peak(h, d) * (hr >= 12 && hr <= 17 ? 1 : 0.4)
			id++
			printf "INSERT INTO procs (proc_id, host_id, pid, start_ns, uid, gid, projid, command, zone) VALUES (%d, %d, %d, %d%s, %d, 100, 3, 'work', 'global');\n", id, h, 1000 + id, B + 3600 * k, S, 1000 + h
			printf "INSERT INTO proc_intervals (proc_id, t0_ns, t1_ns, final, heartbeat, cpu_user_ns, cpu_sys_ns, anomalies) VALUES (%d, %d%s, %d%s, 1, 0, %.0f, 0, 0);\n", id, B + 3600 * k, S, B + 3600 * k + 3600, S, u / 100 * cpus[h] * 3600e9
		}
	print "COMMIT;"
}
EOF

test_expect_success 'setup: four hosts, three weeks of hourly snapshots' '
	: >empty.pacct &&
	test_expect_code 1 extracct ingest --db fc.db empty.pacct 2>err &&
	awk -f gen.awk >fc.sql && sqlite3 fc.db <fc.sql &&
	extracct rollup --rebuild --db fc.db >out
'

csv() {
	tr -d "\r" <"$1"
}

# The field named $2 of host $3 in CSV file $1.
field() {
	tr -d "\r" <"$1" | awk -F, -v c="$2" -v h="$3" "NR == 1 {
	    for (i = 1; i <= NF; i++) if (\$i == c) n = i; next }
	    \$1 == h { print \$n }"
}

# Days from YYYY-MM-DD $1 to $2.
days_between() {
	sqlite3 :memory: "SELECT CAST(julianday('$2') - julianday('$1') AS INTEGER)"
}

test_expect_success 'growth of 1 point a day: the crossing within 2 days of 2026-01-31' '
	extracct report --db fc.db --forecast --from 2026-01-01 --to 2026-01-22 --tz UTC --format csv >f.csv &&
	test "$(csv f.csv | sed -n 1p)" = "host,tz,days,first_day,last_day,last_peak_pct,level_pct,slope_pct_per_day,slope_se,threshold_pct,crossing_day,crossing_day_lo,crossing_day_hi,days_to_cross,status" &&
	test "$(field f.csv status grow)" = crosses &&
	day=$(field f.csv crossing_day grow) &&
	off=$(days_between 2026-01-31 "$day") &&
	{ test "$off" -ge -2 && test "$off" -le 2 ||
	    { echo "crossing $day: $off days from 2026-01-31"; false; }; } &&
	# The true day inside the 95% interval, which is a few days wide.
	lo=$(field f.csv crossing_day_lo grow) && hi=$(field f.csv crossing_day_hi grow) &&
	{ test "$(days_between "$lo" 2026-01-31)" -ge 0 &&
	  test "$(days_between 2026-01-31 "$hi")" -ge 0 &&
	  test "$(days_between "$lo" "$hi")" -le 10 ||
	    { echo "interval $lo to $hi"; false; }; } &&
	slope=$(field f.csv slope_pct_per_day grow) &&
	awk -v s="$slope" "BEGIN { exit !(s > 0.9 && s < 1.1) }" ||
	    { echo "slope $slope, not about 1"; false; }
'

test_expect_success 'a day with no snapshot is left out of the series, not counted as 0' '
	test "$(field f.csv days grow)" = 20 &&
	test "$(field f.csv days flat)" = 21 &&
	test "$(field f.csv first_day grow),$(field f.csv last_day grow)" = "2026-01-01,2026-01-21"
'

test_expect_success 'flat: no trend; falling: no crossing; above: already above' '
	test "$(field f.csv status flat)" = "no trend" &&
	test "$(field f.csv crossing_day flat)" = "" &&
	test "$(field f.csv status fall)" = "no crossing" &&
	test "$(field f.csv status hot)" = "already above" &&
	# Most urgent first.
	test "$(csv f.csv | cut -d, -f1 | tr "\n" " ")" = "host hot grow flat fall "
'

test_expect_success '--threshold; a table and JSON of the same; --by user' '
	extracct report --db fc.db --forecast --threshold 60 --from 2026-01-05 --to 2026-01-12 --tz UTC --format csv >t.csv &&
	test "$(field t.csv status grow)" = "already above" &&
	test "$(field t.csv threshold_pct grow)" = 60 &&
	extracct report --db fc.db --forecast --tz UTC >f.table &&
	grep "^# forecast by host, from the start to the end; time zone UTC; threshold 80%" f.table &&
	grep "^grow  *20 2026-01-01 2026-01-21 .* crosses$" f.table &&
	grep "^flat .* no trend$" f.table &&
	extracct report --db fc.db --forecast --tz UTC --format json >f.json &&
	if command -v python3 >/dev/null; then
		python3 -c "import json, sys; d = json.load(open(\"f.json\"))
r = {x[\"host\"]: x for x in d[\"forecast\"]}
assert d[\"threshold_pct\"] == 80, d
assert r[\"grow\"][\"status\"] == \"crosses\", r
assert r[\"flat\"][\"crossing_day\"] is None, r
assert r[\"grow\"][\"days\"] == 20, r"
	fi &&
	extracct report --db fc.db --forecast --by host,user --tz UTC --format csv >hu.csv &&
	test "$(csv hu.csv | sed -n 3p | cut -d, -f1,2,5)" = "grow,1001,20" &&
	extracct report --db fc.db --forecast --by user --tz UTC --format csv >u.csv &&
	test "$(csv u.csv | wc -l)" -eq 5
'

test_expect_success 'what --forecast does not go with, refused saying why' '
	test_expect_code 2 extracct report --db fc.db --forecast --every day 2>err &&
	grep "^extracct: --forecast reads" err &&
	test_expect_code 2 extracct report --db fc.db --forecast --by host,hour 2>err &&
	grep "^extracct: --forecast: a series of days per group; not --by hour" err &&
	test_expect_code 2 extracct report --forecast empty.pacct 2>err &&
	grep "^extracct: --forecast reads" err &&
	test_expect_code 2 extracct report --db fc.db --threshold 70 2>err &&
	grep "^extracct: --threshold: .* goes with --forecast only" err &&
	for t in 0 101 x -5; do
		test_expect_code 2 extracct report --db fc.db --forecast --threshold $t 2>err &&
		grep "^extracct: --threshold .$t.: a percentage" err || return 1
	done
'

# The text of the elements of class $1 in SVG file $2, one a line.
texts() {
	sed -n "s/.*class=\"$1\"[^>]*>\([^<]*\)<.*/\1/p" "$2"
}

test_expect_success 'the chart: each host, its peaks and dashed trend; the threshold' '
	extracct report --db fc.db --forecast --tz UTC --format svg >f.svg &&
	if command -v xmllint >/dev/null; then xmllint --noout f.svg; fi &&
	grep "<title>" f.svg | sed -n 1p | grep "Capacity forecast by host" &&
	texts legend f.svg >legend &&
	cat >expect <<-\EOF &&
	hot
	hot: already above
	grow
	grow: crosses
	flat
	flat: no trend
	fall
	fall: no crossing
	threshold 80%
	EOF
	test_cmp expect legend &&
	# The trends dashed, the peaks with a dot a day (20 + 3 x 21).
	test "$(grep -c "class=\"series\".*stroke-dasharray=\"8 4\"" f.svg)" -eq 4 &&
	test "$(grep -c "class=\"point\"" f.svg)" -eq 83 &&
	# Drawn ahead to the day after grow crosses: the last tick 2026-02-02.
	texts xtick f.svg | tail -n 1 | grep "^2026-02-02$" &&
	extracct report --db fc.db --tz UTC --format html >f.html &&
	if command -v xmllint >/dev/null; then xmllint --noout f.html; fi &&
	test "$(grep -c "<svg" f.html)" -eq 5 &&
	grep "Capacity forecast by host" f.html &&
	test_expect_code 2 extracct report --db fc.db --forecast --format svg --by host,user 2>err &&
	grep "charts read the database" err
'

. "$SRC/tests/lib-pg.sh"
pg_start
case $? in
0)
	test_expect_success 'PostgreSQL: the same forecast as SQLite' '
		pg_createdb fc &&
		extracct push --db fc.db --to "$(pg_conn fc)" >/dev/null &&
		for f in table csv json svg; do
			extracct report --db fc.db --forecast --tz UTC --by host --format $f >expect &&
			extracct report --db "$(pg_conn fc)" --forecast --tz UTC --by host --format $f >actual &&
			test_cmp expect actual && grep -q crosses actual &&
			extracct report --db fc.db --forecast --tz Europe/Paris --by user --from 2026-01-03 --format $f >expect &&
			extracct report --db "$(pg_conn fc)" --forecast --tz Europe/Paris --by user --from 2026-01-03 --format $f >actual &&
			test_cmp expect actual || return 1
		done
	' ;;
2)
	test_skip 'PostgreSQL: the same forecast as SQLite' 'no PostgreSQL' ;;
*)
	test_expect_success 'PostgreSQL: the server starts' false ;;
esac

test_done
