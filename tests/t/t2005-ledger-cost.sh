#!/bin/sh
# The ledger's cost does not grow with what it holds: a log is known by
# one read of its head and one of its tail, whatever the number of logs
# already in the ledger.  Counted in system calls (strace), never timed:
# ingest the same 50 one-record logs again, nothing new, into a ledger
# of 50 and one of 200, and hold the reads to each other (a ledger that
# tried every small file it held read each log's head once a row: 224
# reads a log at 2,000 logs).
. "$(dirname "$0")/../lib.sh"

if ! command -v strace >/dev/null 2>&1; then
	if [ "${CI:-}" = true ]; then
		test_expect_success 'strace is installed' 'false'
	else
		test_skip 'the ledger cost' 'no strace (apt-get install strace)'
	fi
	test_done
	exit 0
fi

# reads DB: the pread64 calls of an ingest of logs 1..50, all known.
reads() {
	strace -f -c -e trace=pread64 -o "strace.$1" "$EXTRACCT" ingest \
	    --db "$1" $(seq -f "l%g.exacct" 1 50) >/dev/null 2>&1
	awk '$NF == "pread64" { print $(NF - 1) }' "strace.$1"
}

test_expect_success 'setup: 200 one-record logs, each its own' '
	i=1 &&
	while [ $i -le 200 ]; do
		extracct gen --kind proc --records 1 --seed $i -o l$i.exacct ||
		return 1
		i=$((i + 1))
	done &&
	extracct ingest --db a.db l*.exacct >/dev/null &&
	extracct ingest --db small.db $(seq -f "l%g.exacct" 1 50) >/dev/null &&
	test "$(sqlite3 a.db "SELECT count(*) FROM files")" -eq 200 &&
	test "$(sqlite3 small.db "SELECT count(*) FROM files")" -eq 50
'

test_expect_success 'nothing new: 50 logs cost the same reads in a ledger of 50 or 200' '
	r50=$(reads small.db) && r200=$(reads a.db) &&
	echo "pread64 for 50 known logs: $r50 in a ledger of 50, $r200 of 200" &&
	test "$r50" -ge 50 &&
	test "$r200" -le $((r50 * 5 / 4)) &&
	test "$r200" -le $((50 * 4))
'

test_expect_success 'and they added nothing' '
	test "$(sqlite3 a.db "SELECT count(*) FROM files")" -eq 200 &&
	test "$(sqlite3 a.db "SELECT sum(records) FROM files")" -eq 200
'

test_expect_success 'a log that grew is still found by its shorter head' '
	cat l1.exacct >grown.exacct &&
	extracct ingest --db b.db grown.exacct >/dev/null &&
	extracct gen --kind proc --records 3 --seed 1 -o three.exacct &&
	cp three.exacct grown.exacct &&
	extracct ingest --db b.db grown.exacct >out 2>&1 ;
	cat out &&
	test "$(sqlite3 b.db "SELECT count(*) FROM files")" -eq 1
'

test_done
