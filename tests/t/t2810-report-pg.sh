#!/bin/sh
# report --db postgresql://: every report on the fleet's central server
# prints what the same report prints on SQLite, byte for byte, on the
# same data.  Three hosts' logs (t2700's: partial snapshots,
# exits from exacct, acctd and pacct with alternates and losses, flows,
# energy, a RAPL stream and zones) go each into its own database; the
# three merged are the SQLite side, the three pushed to a throw-away
# PostgreSQL server the central one.  There, every host's surrogate ids
# start at 1 again, as each host's do: the views must still count and
# join the right processes.
# run.sh: long 43 (seconds on two idle CPUs: started first)
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/lib-pg.sh"

pg_start_or_skip

. "$SRC/tests/lib-handlogs.sh"

# The server's URI: its socket's directory, escaped.
uri() {
	echo "postgresql:///$1?host=$(echo "$PGROOT" | sed 's|/|%2F|g')"
}

test_expect_success 'setup: three hosts, merged in SQLite and in PostgreSQL' '
	seed=10 &&
	for h in alpha Beta gamma; do
		seed=$((seed + 1)) &&
		extracct gen --kind proc --records 3000 --seed $seed --jitter --host $h -o $h.proc &&
		extracct gen --kind flow --records 300 --seed $seed --host $h -o $h.flow &&
		extracct gen --kind energy --records 400 --seed $seed --host $h -o $h.energy &&
		extracct gen --kind pacct --records 500 --seed $seed -o $h.pacct || return 1
	done &&
	fleet_extra_logs &&
	extracct ingest --db alpha.db --host alpha alpha.proc alpha.flow \
	    alpha.energy alpha.pacct acctd.exacct alt.pacct >/dev/null &&
	# Two hosts give their ids names of their own (host_names): the
	# reports name the ids of each host as that host does.
	printf "root:x:0:0::/:/bin/sh\nann:x:1000:100::/:/bin/sh\n" >Beta.passwd &&
	printf "root:x:0:\nstaff:x:100:\n" >Beta.group &&
	printf "bob:x:1000:100::/:/bin/sh\nzed:x:4243:100::/:/bin/sh\n" >gamma.passwd &&
	extracct ingest --db Beta.db --host Beta --passwd Beta.passwd \
	    --group Beta.group Beta.proc Beta.flow Beta.energy Beta.pacct \
	    s1/cpu_energy_rapl_msr_component.log >/dev/null &&
	extracct ingest --db gamma.db --host gamma --passwd gamma.passwd \
	    gamma.proc gamma.flow gamma.energy gamma.pacct snap.log >/dev/null &&
	# What only rotate, snap and the configuration write: a pacct gap,
	# system records around the acctd exits (capture windows; one
	# from just before an exacct exit, so that acctd comes second),
	# and the intensities (one host has none).
	sqlite3 alpha.db "INSERT INTO sysload (host_id, t_ns, user_ticks,
	    nice_ticks, system_ticks, clk_tck, ncpu) VALUES
	    (1, 1699999990000000000, 1000, 0, 500, 100, 2),
	    (1, 1700000060000000000, 3000, 10, 900, 100, 2),
	    (1, 1700000120000000000, 5000, 10, 1300, 100, 2),
	    (1, 1700000250000000000, 9000, 20, 2000, 100, 2);
	    INSERT INTO sysload (host_id, t_ns, user_ticks, nice_ticks,
	    system_ticks, clk_tck, ncpu)
	    WITH f(e) AS (SELECT min(i.t1_ns) FROM proc_intervals i
	        JOIN procs p USING (proc_id) WHERE i.final = 1
	        AND p.exit_source = '\''exacct'\''
	        AND i.t1_ns > 1700000001000000000)
	    SELECT 1, e - 1000000, 1100, 0, 520, 100, 2 FROM f UNION ALL
	    SELECT 1, e + 1000000000, 1200, 0, 540, 100, 2 FROM f;
	    INSERT INTO pacct_gaps VALUES (1, NULL,
	    1700000100000000000, '\''accounting found off'\'');
	    INSERT INTO pacct_gaps VALUES (1, 1700000050000000000,
	    1700000090000000000, '\''a reboot'\'');
	    UPDATE hosts SET carbon_g_per_kwh = 250,
	    carbon_source = '\''grid, 2025'\''" &&
	sqlite3 Beta.db "UPDATE hosts SET carbon_g_per_kwh = 445.5;
	    INSERT INTO sysload (host_id, t_ns, user_ticks, nice_ticks,
	    system_ticks, clk_tck, ncpu) VALUES
	    (1, 1699999990000000000, 1000, 0, 500, 100, 4),
	    (1, 1700000060000000000, 2000, 0, 700, 100, 4);
	    INSERT INTO pacct_gaps VALUES (1, 1700000010000000000,
	    1700000020000000000, '\''a reboot'\'')" &&
	# Two processes of equal CPU, one with no command, user or
	# project: the NULL key sorts first, as SQLite sorts it.
	sqlite3 gamma.db "INSERT INTO procs (proc_id, host_id, pid, start_ns,
	    uid, projid, command) VALUES
	    (100001, 1, 999991, 1700000000000000000, NULL, NULL, NULL),
	    (100002, 1, 999992, 1700000000000000000, 4243, 77, '\''zz-tie'\'');
	    INSERT INTO proc_intervals (proc_id, t0_ns, t1_ns, final,
	    heartbeat, cpu_user_ns, cpu_sys_ns, anomalies) VALUES
	    (100001, 1700000000000000000, 1700000001000000000, 1, 0,
	    5000000000, 0, 0),
	    (100002, 1700000000000000000, 1700000001000000000, 1, 0,
	    5000000000, 0, 0)" &&
	# Rows written by hand, not by ingest: their rollups, as ingest
	# would have kept them.
	extracct rollup --rebuild --db gamma.db >/dev/null &&
	extracct merge -o fleet.db alpha.db Beta.db gamma.db >/dev/null &&
	# A server whose own collation is not bytewise (ICU en-US sorts
	# "alpha" before "Beta"): the views must sort as SQLite does.
	pg_psql postgres -c "CREATE DATABASE fleet TEMPLATE template0
	    LOCALE_PROVIDER icu ICU_LOCALE '\''en-US'\'' LOCALE '\''C.UTF-8'\''" &&
	PG=$(uri fleet) &&
	for h in alpha Beta gamma; do
		extracct push --db $h.db --to "$PG" >/dev/null || return 1
	done &&
	test "$(pg_psql fleet -c "SELECT count(DISTINCT proc_id) FROM procs")" -lt \
	    "$(pg_psql fleet -c "SELECT count(*) FROM procs")" &&
	test "$(pg_psql fleet -c "SELECT count(*) FROM v_proc_usage")" -eq \
	    "$(sqlite3 fleet.db "SELECT count(*) FROM v_proc_usage")"
'

PG=
test_expect_success 'the central database answers' '
	PG=$(uri fleet) &&
	extracct report --db "$PG" --by host >out &&
	grep "^alpha " out && grep "^Beta " out && grep "^gamma " out &&
	extracct report --db "$(pg_conn fleet)" --by host >out2 &&
	test_cmp out out2
'
PG=$(uri fleet)

# The same report on both (SQLITE, default fleet.db, and PG): the same
# bytes, the same exit status.
same() {
	extracct report --db "${SQLITE:-fleet.db}" "$@" >expect 2>expect.err
	e=$?
	extracct report --db "$PG" "$@" >actual 2>actual.err
	a=$?
	test "$e" -eq "$a" || { echo "exit $e on SQLite, $a on PostgreSQL: $*"; cat actual.err; return 1; }
	test -s expect || { echo "no output: $*"; return 1; }
	test_cmp expect actual || { echo "differs: $*"; return 1; }
}

for by in user command project zone host hour; do
	for f in table csv json; do
		test_expect_success "--by $by --format $f" "same --by $by --format $f"
	done
done

test_expect_success '--from/--to, in two zones' '
	t0=$(sqlite3 fleet.db "SELECT min(t1_ns) / 1000000000 FROM proc_intervals") &&
	t1=$(sqlite3 fleet.db "SELECT max(t1_ns) / 1000000000 FROM proc_intervals") &&
	mid=$(( (t0 + t1) / 2 )) &&
	same --by command --from @$mid &&
	same --by user --to @$mid --format csv &&
	same --by hour --from @$t0 --to @$mid --format json &&
	same --by hour --tz Europe/Paris &&
	same --by hour --tz America/St_Johns --format csv &&
	same --by host --tz Asia/Kolkata --from "$(TZ=Asia/Kolkata date -d @$mid +%Y-%m-%dT%H:%M)"
'

test_expect_success 'the local zone (no TZ, or TZ a file) is the server session zone too' '
	(unset TZ && same --by hour --format csv) &&
	# TZ a file of the zoneinfo tree: the server gets the zone it names.
	(TZ=/usr/share/zoneinfo/America/New_York && export TZ &&
	    same --by hour --format csv && cut -d, -f1 actual >ny) &&
	same --by hour --format csv && cut -d, -f1 actual >utc &&
	! cmp -s ny utc
'

test_expect_success '--capture, table and CSV (gaps, alternates, losses)' '
	same --capture &&
	grep "^# alpha: accounting was off" actual &&
	grep -n "^Beta \|^alpha " actual | head -1 | grep ":Beta " &&
	grep "pacct=" actual &&
	grep "^alpha .* exacct,acctd " actual &&
	same --capture --format csv &&
	same --capture --tolerance 0.5
'

test_expect_success 'several keys: --by user,command and --by host,hour' '
	for f in table csv json; do
		same --by user,command --format $f &&
		same --by host,hour --format $f &&
		same --by host,group,project --format $f || return 1
	done
'

test_expect_success 'names: the hosts stored ones, and --passwd/--group files' '
	test "$(pg_psql fleet -c "SELECT count(*) FROM v_host_names")" -eq \
	    "$(sqlite3 fleet.db "SELECT count(*) FROM v_host_names")" &&
	same --by host,user &&
	grep "^gamma  *zed " actual && grep "^Beta  *root " actual &&
	same --by host,group --format csv &&
	printf "alice:x:1000:100::/:/bin/sh\n" >other.passwd &&
	printf "wheel:x:0:\n" >other.group &&
	same --by user --passwd other.passwd --group-file other.group &&
	same --by group --passwd other.passwd --group-file other.group --format json
'

# A window of whole UTC days around the data, with empty days and hours.
t0=$(sqlite3 fleet.db "SELECT min(t1_ns) / 1000000000 FROM proc_intervals" 2>/dev/null)
t1=$(sqlite3 fleet.db "SELECT max(t1_ns) / 1000000000 FROM proc_intervals" 2>/dev/null)
test_expect_success '--every day and hour, empty buckets too' '
	from=$(( (t0 / 86400 - 1) * 86400 )) && to=$(( (t1 / 86400 + 2) * 86400 )) &&
	same --every day --from @$from --to @$to &&
	grep " 0 " actual &&
	same --every day --by host --from @$from --to @$to --format csv &&
	same --every hour --from @$from --to @$((from + 3 * 86400)) --format csv &&
	same --every hour --by command --tz Europe/Paris --format json &&
	same --every week --by user &&
	same --every month --by host --format csv
'

test_expect_success '--limit, --sort, --averages, --percentiles' '
	same --by command --limit 2 &&
	grep "^\*\*\*other " actual &&
	same --by user,command --limit 2 --format csv &&
	same --every day --by command --limit 2 --format json &&
	for c in command calls cpu_s real_s util_pct chars_rdwr_bytes rss_max_kb; do
		same --by command --sort $c --format csv || return 1
	done &&
	same --by user --averages &&
	same --by host,command --averages --format json &&
	same --every hour --by host --percentiles &&
	same --every day --by user --percentiles --format csv &&
	same --every hour --by command --percentiles --format json
'

test_expect_success 'rollups and the scan: --scan, and buckets off the UTC hours' '
	for f in table csv; do
		same --scan --by command --format $f &&
		same --scan --by host,hour --format $f &&
		same --scan --every day --by user --format $f || return 1
	done &&
	same --scan --by user --from @$((t0 + 1800)) --to @$((t1 - 1800)) &&
	same --every day --by command --tz Asia/Kolkata &&
	same --every hour --by host --tz Asia/Kolkata --format csv
'

test_expect_success '--capture --format json' '
	same --capture --format json
'

test_expect_success 'charts: --format svg and html' '
	same --by command --format svg &&
	same --every hour --by host --format svg &&
	same --capture --format svg &&
	same --energy --by command --format svg &&
	same --by user --format html
'

for by in user command host; do
	for f in table csv json; do
		test_expect_success "--energy --by $by --format $f" \
		    "same --energy --by $by --format $f"
	done
done

# Times out of range (before 1970, from 2200 on): two processes of 2023,
# one stored wrapped to 1715 (2300, as ingest stored it before it
# refused times past 2^63 ns), and one a month over 60 years from 2200.
test_expect_success 'out of range: one default partition; the default window on both' '
	awk "BEGIN { print \"header kernel SunOS far\"
	    for (i = 0; i < 723; i++) {
		t = i < 3 ? 1700000000 + i * 86400 : 7258118400 + (i - 3) * 2629746
		printf \"group 0xf0000100\n  uint 0x30001000 %d\n  uint 0x40001007 %.0f\n  uint 0x40001009 %.0f\n  uint 0x4000100b 1\n  string 0x60001006 p\nend\n\", 100 + i, t, t + 5
	    } }" >far.spec &&
	extracct_test encode far.spec far.exacct &&
	extracct ingest --db far.db far.exacct >/dev/null &&
	sqlite3 far.db "UPDATE proc_interval_rows SET t0_ns = -8032952073709551616,
	    t1_ns = -8032952068709551616 WHERE proc_id IN
	    (SELECT proc_id FROM procs WHERE pid = 102);
	    UPDATE procs SET start_ns = -8032952073709551616,
	    finish_ns = -8032952068709551616 WHERE pid = 102" &&
	extracct rollup --rebuild --db far.db >/dev/null &&
	pg_createdb far &&
	extracct push --db far.db --to "$(uri far)" >/dev/null &&
	# One month in range, and the default partition, in each table.
	for t in proc_intervals rollup_hour rollup_day rollup_host; do
		pg_psql far -c "SELECT c.relname FROM pg_inherits i
		    JOIN pg_class p ON p.oid = i.inhparent
		    JOIN pg_class c ON c.oid = i.inhrelid
		    WHERE p.relname = '\''$t'\'' ORDER BY 1" || return 1
	done >parts &&
	printf "%s_2023_11\n%s_default\n" proc_intervals proc_intervals \
	    rollup_hour rollup_hour rollup_day rollup_day rollup_host \
	    rollup_host >want &&
	test_cmp want parts &&
	test "$(pg_psql far -c "SELECT count(*) FROM proc_intervals_default")" -eq 721 &&
	test "$(pg_psql far -c "SELECT count(*) FROM proc_intervals")" -eq 723 &&
	SQLITE=far.db PG=$(uri far) &&
	for a in "--by user" "--every day" "--every month --format csv" \
	    "--by command --format svg" "--by user --format html"; do
		same $a &&
		test_cmp expect.err actual.err &&
		echo "extracct: report: 721 intervals out of range (before 1970 or from 2200 on) left out of the window; --from and --to take them in" >want.err &&
		test_cmp want.err actual.err || return 1
	done &&
	PG=$(uri fleet) && SQLITE=
'
PG=$(uri fleet)
SQLITE=

test_expect_success 'hosts of one name, pushed at once: the same labels and rows' '
	twin_hosts &&
	extracct merge -o twins.db tw1.db tw2.db tw3.db tw4.db tw5.db \
	    tw6.db >/dev/null &&
	pg_createdb twins &&
	for i in 1 2 3 4 5 6; do
		{ extracct push --db tw$i.db --to "$(uri twins)" >tw$i.out 2>&1
		  echo $? >tw$i.rc; } &
	done &&
	wait &&
	for i in 1 2 3 4 5 6; do
		test "$(cat tw$i.rc)" -eq 0 || { cat tw$i.out; return 1; }
	done &&
	pg_psql twins -c "SELECT host FROM v_hosts ORDER BY ident" >actual &&
	sqlite3 twins.db "SELECT host FROM v_hosts ORDER BY ident" >expect &&
	test_cmp expect actual &&
	(SQLITE=twins.db && PG=$(uri twins) &&
	 for r in "--by host" "--by host,command --format csv" \
	     "--by host,hour --format json" "--scan --by host,user" \
	     "--every day --by host --format csv" "--by command"; do
		same $r || exit 1
	 done) &&
	extracct report --db "$(uri twins)" --by host >out &&
	test "$(grep -c "^web1@" out)" -eq 5 &&
	grep "^solo " out
'

test_expect_success 'a central database of schema 3 is brought to 6 by a push' '
	pg_psql twins -c "UPDATE extracct_meta SET version = 3, views_hash = '\'''\''" &&
	extracct push --db tw1.db --to "$(uri twins)" >/dev/null &&
	test "$(pg_psql twins -c "SELECT version FROM extracct_meta")" -eq 8 &&
	(SQLITE=twins.db && PG=$(uri twins) && same --by host --format csv)
'

# Linux cgroups (local schema 20, central 6): the paths pushed as they
# are (a tab, a byte that is not UTF-8), reports by them alike.
cg_rec() {	# group pid finish_s user_s cgroup-path
	printf 'group %s\n  uint 0x30001000 %s\n' "$1" "$2"
	printf '  uint 0x40001007 1735725600\n  uint 0x40001008 0\n'
	printf '  uint 0x40001009 %s\n  uint 0x4000100a 0\n' "$3"
	printf '  uint 0x4000100b %s\n  uint 0x4000100c 0\n' "$4"
	printf '  uint 0x4000100d 0\n  uint 0x4000100e 0\n'
	printf '  string 0x60001006 c%s\n' "$2"
	[ -z "$5" ] || printf '  string 0x61000111 %s\n  uint 0x11000112 2\n' "$5"
	printf 'end\n'
}
test_expect_success 'cgroups pushed: report --by cgroup, unit, container alike' '
	{
		echo "header library extracct cghost" &&
		cg_rec 0xf0000106 10 1735725660 2 "/odd\x09x\xff.scope" &&
		cg_rec 0xf0000100 10 1735725720 3 "" &&
		cg_rec 0xf0000100 11 1735725660 1 "/system.slice/nginx.service" &&
		cg_rec 0xf0000100 12 1735725660 4 "/system.slice/docker-3f4e5d6c7b8a99887766554433221100ffeeddccbbaa00112233445566778899.scope" &&
		cg_rec 0xf0000100 13 1735725660 5 ""
	} >cg.spec &&
	extracct_test encode cg.spec cg.exacct &&
	extracct ingest --db cg.db cg.exacct >/dev/null &&
	pg_createdb cg &&
	extracct push --db cg.db --to "$(uri cg)" >/dev/null &&
	test "$(pg_psql cg -c "SELECT count(*) FROM cgroups")" -eq 3 &&
	test "$(pg_psql cg -c "SELECT count(*) FROM procs
	    WHERE cgroup_from = 3")" -eq 1 &&
	(SQLITE=cg.db && PG=$(uri cg) &&
	    same --by cgroup && same --by unit --format csv &&
	    same --by container --format json && same --by cgroup --scan) &&
	extracct push --db cg.db --to "$(uri cg)" >out &&
	cat out && grep " 0 buckets, 0 rows sent$" out
'

test_expect_success 'a server that is not there: a clear message' '
	test_expect_code 5 extracct report --db "postgresql:///nosuch?host=$PGROOT" >out 2>err &&
	grep "^extracct: report: central server: " err &&
	test_expect_code 2 extracct report --db "$PG" --tz Not/AZone 2>err &&
	grep "tz" err &&
	test_expect_code 2 extracct report --db "postgresql://u:pw@h/db" 2>err &&
	grep "password" err
'

NOPQ=${EXTRACCT_NOPQ:-$SRC/build/nopq/extracct}
[ -x "$NOPQ" ] || NOPQ=$SRC/build/portable/extracct
if [ -x "$NOPQ" ]; then
	test_expect_success 'built without libpq: report on a server says so, exit 6' '
		for db in "$PG" "$(pg_conn fleet)" service=fleet; do
			test_expect_code 6 "$NOPQ" report --db "$db" 2>err &&
			grep "built without libpq" err || return 1
		done &&
		"$NOPQ" report --db fleet.db --by host >actual &&
		extracct report --db fleet.db --by host >expect &&
		test_cmp expect actual
	'
elif [ "${CI:-}" = true ]; then
	test_expect_success 'built without libpq: a binary to test' 'false'
else
	test_skip 'built without libpq' 'make NO_LIBPQ=1 build/nopq/extracct first'
fi

test_done
