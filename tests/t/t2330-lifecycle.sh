#!/bin/sh
# The pacct lifecycle.  A reboot, or the acct package's
# restart, turns accounting off (or points it elsewhere) between two
# runs: the log it wrote is closed and ingested, and run says so and
# exits 3, or, with pacct: manage, switches it back on into the spool
# and records the gap, which report --capture shows.  The whole hourly
# job runs in extracct-test with a stand-in kernel (./kernel names the
# file accounting writes to; empty: off; each exit appends a record),
# so no real accounting is switched.
#
# A closed log (one extracct no longer
# switches anything to) whose last record was cut short is damaged for
# good: the run that finds it stores the damage and exits 1, later runs
# find it done, and retention may delete it.  No real accounting is
# touched: run is given --no-rotate, and the live log comes from the
# spool's state (spool.h).
. "$(dirname "$0")/../lib.sh"

HOST=$(hostname)
LOG=pacct-$HOST-20240101-1000

run_sp() {
	extracct run --spool sp --db r.db --no-snap --no-rotate "$@"
}

files_row() {
	sqlite3 r.db "SELECT size, ingested_to, records, damaged_ranges,
	    damaged_bytes, closed FROM files"
}

test_expect_success 'setup: a closed pacct log with a torn tail' '
	mkdir -m 700 sp &&
	extracct gen --kind pacct --records 10 --seed 1 -o clean &&
	{ cat clean && head -c 10 clean; } >sp/$LOG &&
	test "$(wc -c <sp/$LOG)" -eq 650
'

test_expect_success 'the run that finds it: records stored, damage once, exit 1' '
	test_expect_code 1 run_sp >out 2>err &&
	cat out err &&
	grep "^sp/$LOG: bytes 0-650: 10 records, .* 1 damaged ranges" out &&
	grep "^extracct: sp/$LOG: offset 640: torn tail: 10 bytes .*(skipped bytes 640-649)$" err &&
	echo "650|650|10|1|10|1" >want && files_row >got && test_cmp want got &&
	echo "640|650" >want &&
	sqlite3 r.db "SELECT off_from, off_to FROM damage" >got &&
	test_cmp want got
'

test_expect_success 'the next run: done, nothing added, exit 0' '
	sqlite3 r.db "SELECT count(*) FROM proc_intervals; SELECT count(*)
	    FROM damage" >before &&
	run_sp >out 2>err &&
	cat out err &&
	grep "^sp/$LOG: already ingested (650 bytes)$" out &&
	test ! -s err &&
	echo "650|650|10|1|10|1" >want && files_row >got && test_cmp want got &&
	sqlite3 r.db "SELECT count(*) FROM proc_intervals; SELECT count(*)
	    FROM damage" >after &&
	test_cmp before after
'

test_expect_success 'retention deletes it: everything good in it is stored' '
	run_sp --retention-days 0 >out 2>err &&
	cat out err &&
	grep "^retention: removed sp/$LOG$" out &&
	! test -e sp/$LOG
'

test_expect_success 'a log named as an operand may still grow: a torn tail is left' '
	extracct gen --kind pacct --records 10 --seed 2 -o other &&
	{ cat other && head -c 10 other; } >op &&
	test_expect_code 1 run_sp op >out 2>err &&
	grep "incomplete tail, left for the next run: bytes 640-649" err &&
	test "$(sqlite3 r.db "SELECT ingested_to || \" \" || closed FROM files
	    WHERE path = \"op\"")" = "640 0"
'

# The hourly job with the stand-in kernel, configured by $1 (-: none).
job() {
	cfg=$1 && shift &&
	"$EXTRACCT_TEST" run "$TRASH/kernel" "$cfg" --spool "$TRASH/sp3" --db j.db \
	    --no-snap --pacct "$TRASH/acct.pacct" "$@"
}

# The kernel writes n records of seed s to the log it writes to.
kernel_writes() {
	extracct gen --kind pacct --records "$1" --seed "$2" -o recs.$2 &&
	cat recs.$2 >>"$(cat kernel)"
}

test_expect_success 'setup: accounting on, moved into the spool by the first run' '
	mkdir -m 700 sp3 && : >acct.pacct &&
	echo "$TRASH/acct.pacct" >kernel &&
	job - >out 2>err &&
	cat out err &&
	live=$(cat sp3/.live-pacct-$HOST) &&
	test "$(cat kernel)" = "$TRASH/sp3/$live" &&
	kernel_writes 5 11
'

test_expect_success 'a reboot (accounting off): said in one line, exit 3, the log ingested' '
	live=$(cat sp3/.live-pacct-$HOST) &&
	: >kernel &&
	test_expect_code 3 job - >out 2>err &&
	cat out err &&
	test "$(grep -c "process accounting" err)" -eq 1 &&
	grep "^extracct: process accounting was on in $TRASH/sp3/$live at the last run and is now off (a reboot, or the acct package.s restart?): exits are not collected; turn it back on into the spool, or set pacct: manage$" err &&
	grep "^$TRASH/sp3/$live: bytes 0-" out &&
	test ! -e sp3/.live-pacct-$HOST &&
	test "$(sqlite3 j.db "SELECT closed FROM files WHERE path = \"$TRASH/sp3/$live\"")" = 1 &&
	test "$(sqlite3 j.db "SELECT count(*) FROM pacct_gaps")" = 0
'

test_expect_success 'still off at the next run: known, exit 0, nothing new' '
	job - >out 2>err &&
	cat out err &&
	grep "^rotate: process accounting is not writing to .*; left alone (rotate never starts it)$" out &&
	! grep "bytes 0-" out
'

test_expect_success 'pacct: manage: switched back on, the gap recorded and reported' '
	printf "pacct: manage\n" >m.yml &&
	rm -rf sp3 j.db* && mkdir -m 700 sp3 &&
	echo "$TRASH/acct.pacct" >kernel &&
	job "$TRASH/m.yml" >out 2>err &&
	old=$(cat sp3/.live-pacct-$HOST) &&
	kernel_writes 5 12 &&
	t0=$(stat -c %Y "sp3/$old") &&
	at=$(date -u -d "@$t0" "+%Y-%m-%d %H:%M:%S") &&
	: >kernel &&
	job "$TRASH/m.yml" >out 2>err &&
	cat out err &&
	new=$(cat sp3/.live-pacct-$HOST) &&
	test "$new" != "$old" &&
	test "$(cat kernel)" = "$TRASH/sp3/$new" &&
	grep "^rotate: process accounting was off, not in $TRASH/sp3/$old; switched back on into $TRASH/sp3/$new (the gap is recorded)$" out &&
	grep "^$TRASH/sp3/$old: bytes 0-" out &&
	grep "^pacct: accounting was off from $at UTC to .* UTC: recorded$" out &&
	test ! -e sp3/.gaps-pacct-$HOST &&
	sqlite3 j.db "SELECT t0_ns / 1000000000, reason FROM pacct_gaps" >got &&
	echo "$t0|off" >want && test_cmp want got &&
	test_expect_code 2 extracct report --db j.db --capture --tz UTC \
	    2>err && grep "no snapshots" err &&
	# (the job ran with --no-snap: two system CPU readings stand for
	# snap, around the gap, for the report to have a window)
	sqlite3 j.db "INSERT INTO sysload (host_id, t_ns, user_ticks,
	    nice_ticks, system_ticks, idle_ticks, clk_tck, ncpu)
	  SELECT host_id, t * 1000000000, t - $t0 + 100, 0, 10, 1000, 100, 2
	  FROM hosts, (SELECT $t0 - 60 AS t UNION ALL SELECT $t0 + 600)" &&
	extracct report --db j.db --capture --tz UTC >rep &&
	cat rep &&
	grep "^# $HOST: accounting was off from $at to .* (off): exits then were not recorded$" rep
'

test_expect_success 'pacct: manage: the acct package took it back: the same, "writing to"' '
	cur=$(cat sp3/.live-pacct-$HOST) &&
	kernel_writes 3 13 &&
	echo "$TRASH/acct.pacct" >kernel &&
	job "$TRASH/m.yml" >out 2>err &&
	cat out err &&
	grep "^rotate: process accounting was writing to $TRASH/acct.pacct, not in $TRASH/sp3/$cur; switched back on" out &&
	test "$(cat kernel)" = "$TRASH/sp3/$(cat sp3/.live-pacct-$HOST)" &&
	test "$(sqlite3 j.db "SELECT count(*) FROM pacct_gaps")" = 2 &&
	sqlite3 j.db "SELECT reason FROM pacct_gaps ORDER BY t1_ns" | tail -1 >got &&
	echo "writing to $TRASH/acct.pacct" >want && test_cmp want got
'

# Accounting started by the acct package (or accton by hand) before the
# first run: the exits in its file are stored by the run that moves
# accounting into the spool, once.
job5() {
	cfg=$1 && shift &&
	"$EXTRACCT_TEST" run "$TRASH/kernel" "$cfg" --spool "$TRASH/sp5" --db f.db \
	    --no-snap --pacct "$TRASH/acct5.pacct" "$@"
}

test_expect_success 'the first run stores the exits written before it, once' '
	mkdir -m 700 sp5 &&
	extracct gen --kind pacct --records 7 --seed 21 -o acct5.pacct &&
	echo "$TRASH/acct5.pacct" >kernel &&
	job5 - >out 2>err &&
	cat out err &&
	live=$(cat sp5/.live-pacct-$HOST) &&
	grep "^rotate: process accounting moved from $TRASH/acct5.pacct to $TRASH/sp5/$live$" out &&
	# (the stand-in kernel'"'"'s probe adds a record: 7 or more, all read)
	size=$(wc -c <acct5.pacct) && test "$size" -ge 448 &&
	grep "^$TRASH/acct5.pacct: bytes 0-$size: $((size / 64)) records" out &&
	test "$(sqlite3 f.db "SELECT ingested_to || \" \" || closed FROM files
	    WHERE path = \"$TRASH/acct5.pacct\"")" = "$size 1" &&
	kernel_writes 3 22 &&
	job5 - >out 2>err &&
	cat out err &&
	! grep "acct5.pacct" out &&
	test "$(sqlite3 f.db "SELECT count(*) FROM files")" = 1 &&
	test -f acct5.pacct
'

# The acct package's daily job (cron.daily/acct): savelog moves its file
# to .0, then "invoke-rc.d acct restart" points accounting at a new one.
# With pacct: leave (extracct(8), FILES: keep one of the two), the next
# run says so in one line and exits 3, and the one after leaves
# accounting where acct put it.
test_expect_success 'the acct package.s daily restart, pacct: leave: exit 3 once, then left' '
	live=$(cat sp5/.live-pacct-$HOST) &&
	kernel_writes 2 23 &&
	mv acct5.pacct acct5.pacct.0 && : >acct5.pacct &&
	echo "$TRASH/acct5.pacct" >kernel &&
	kernel_writes 4 24 &&
	test_expect_code 3 job5 - >out 2>err &&
	cat out err &&
	test "$(grep -c "process accounting" err)" -eq 1 &&
	grep "^extracct: process accounting was on in $TRASH/sp5/$live at the last run and is now writing to $TRASH/acct5.pacct (a reboot, or the acct package.s restart?)" err &&
	grep "^$TRASH/sp5/$live: bytes 0-$(wc -c <sp5/$live): " out &&
	! grep "acct5.pacct:" out &&
	job5 - >out 2>err &&
	cat out err &&
	grep "^rotate: process accounting is not writing to .*; left alone (rotate never starts it)$" out &&
	test "$(cat kernel)" = "$TRASH/acct5.pacct"
'

test_expect_success 'the boot unit: rotate --start switches accounting on, never on before' '
	mkdir -m 700 sp4 && : >kernel &&
	"$EXTRACCT_TEST" rotate "$TRASH/kernel" 1704103200 "$TRASH/sp4" \
	    /nonexistent start >out &&
	cat out &&
	grep "^rotate: process accounting started in $TRASH/sp4/pacct-$HOST-20240101-1000$" out &&
	test "$(cat kernel)" = "$TRASH/sp4/pacct-$HOST-20240101-1000" &&
	: >kernel &&
	"$EXTRACCT_TEST" rotate "$TRASH/kernel" 1704103230 "$TRASH/sp4" \
	    /nonexistent start >out &&
	cat out &&
	grep "^rotate: process accounting was off, not in $TRASH/sp4/pacct-$HOST-20240101-1000; switched back on into $TRASH/sp4/pacct-$HOST-20240101-1001 (the gap is recorded)$" out &&
	test -s sp4/.gaps-pacct-$HOST
'

test_expect_success 'the next run stores the gap the boot unit found, once' '
	extracct run --spool sp4 --db b.db --no-snap --no-rotate >out 2>err &&
	cat out err &&
	test ! -s err &&
	grep "^pacct: accounting was off from an unknown time to 2024-01-01 10:00:30 UTC: recorded$" out &&
	test ! -e sp4/.gaps-pacct-$HOST &&
	echo "|1704103230000000000|off" >want &&
	sqlite3 b.db "SELECT t0_ns, t1_ns, reason FROM pacct_gaps" >got &&
	test_cmp want got &&
	extracct run --spool sp4 --db b.db --no-snap --no-rotate >out 2>err &&
	! grep "^pacct:" out &&
	test "$(sqlite3 b.db "SELECT count(*) FROM pacct_gaps")" = 1
'

test_expect_success 'the boot unit conflicts with acct and atopacct, and is opt-in' '
	u=$SRC/cron/extracct-accton.service &&
	grep -x "Conflicts=acct.service atopacct.service" "$u" &&
	grep "^ExecStart=.*extracct rotate --start$" "$u" &&
	grep extracct-accton.service "$SRC/Makefile" &&
	grep extracct-accton.service "$SRC/debian/rules"
'

test_expect_success 'pacct: anything but leave or manage is refused' '
	printf "pacct: always\n" >bad.yml &&
	test_expect_code 2 extracct -c bad.yml config 2>err &&
	grep "line 1, column 8: pacct: \"always\" is not leave or manage" err
'

test_done
