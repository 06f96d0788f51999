#!/bin/sh
# The pacct lifecycle (issue 15).  A closed log (one extracct no longer
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

test_done
