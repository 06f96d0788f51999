#!/bin/sh
# The ledger's lookup costs the same reads per log however many logs
# the ledger holds (a year of hourly logs is ~17,000): counted in
# syscalls, not timed.  And the paths it takes to a row (a short file
# grown, a row read further than another, a start shared by two files)
# keep ingest exactly once.
. "$(dirname "$0")/../lib.sh"

HOST=$(hostname)

# mkspool DIR N: a spool of N one-record pacct logs, one an hour from
# 2000-01-01 00:00, each a different record.
mkspool() {
	mkdir -m 700 "$1" &&
	extracct gen --kind pacct --records "$2" --seed 1 -o "$1.all" &&
	(cd "$1" && split -b 64 -a 5 "../$1.all" x) &&
	rm "$1.all" &&
	(cd "$1" && ls | awk -v h="$HOST" '{
		i = NR - 1; d = int(i / 24)
		printf "mv %s pacct-%s-%04d%02d%02d-%02d00\n", $1, h,
		    2000 + int(d / 336), 1 + int(d % 336 / 28), 1 + d % 28, i % 24
	    }' | sh) &&
	test "$(ls "$1" | wc -l)" -eq "$2"
}

# reads DIR N: the read, pread and open calls of a run of the spool DIR
# of N logs (ingested before: nothing new) and its retention.  Leak
# checking does not work under ptrace: off for this run alone.
reads() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	    strace -f -c -o "$1.strace" -e trace=read,pread64,open,openat \
	    "$EXTRACCT" run --spool "$1" --db "$1.db" --no-rotate --no-snap \
	    >"$1.out" &&
	test "$(grep -c "already ingested (64 bytes)" "$1.out")" -eq "$2" &&
	awk '$NF == "total" { print $4 }' "$1.strace"
}

N=50
if command -v strace >/dev/null 2>&1 && strace -o /dev/null true 2>/dev/null; then
	test_expect_success "a run with nothing new: reads per log the same at $N and $((4 * N)) logs" '
		mkspool a $N && mkspool b $((4 * N)) &&
		extracct run --spool a --db a.db --no-rotate --no-snap >/dev/null &&
		extracct run --spool b --db b.db --no-rotate --no-snap >/dev/null &&
		ra=$(reads a $N) && rb=$(reads b $((4 * N))) &&
		echo "syscalls: $ra for $N logs, $rb for $((4 * N))" &&
		# per log at 4N at most 1.5 times per log at N
		test "$((rb * 2))" -le "$((ra * 4 * 3))"
	'
else
	test_skip 'a run with nothing new: reads per log' 'no strace, or it cannot trace'
fi

# pacct records are 64 bytes: a log of one, of two, of 100 (6400 bytes,
# past the 4 KiB the ledger hashes at the start).
test_expect_success 'a short log that grows is read from its offset, past 4 KiB too' '
	extracct gen --kind pacct --records 100 --seed 7 -o full &&
	head -c 64 full >live &&
	extracct ingest --db g.db live >out &&
	grep "^live: bytes 0-64: 1 records" out &&
	head -c 128 full >live &&
	extracct ingest --db g.db live >out &&
	grep "^live: bytes 64-128: 1 records" out &&
	cat full >live &&
	extracct ingest --db g.db live >out &&
	grep "^live: bytes 128-6400: 98 records" out &&
	extracct ingest --db g.db live >out &&
	grep "^live: already ingested (6400 bytes)" out &&
	test "$(sqlite3 g.db "SELECT count(*) FROM files")" -eq 1
'

# One database for the rest: each test's logs are of another seed.
test_expect_success 'two rows of one start: the one read furthest is resumed' '
	extracct gen --kind pacct --records 3 --seed 8 -o log8 &&
	head -c 128 log8 >two && head -c 64 log8 >one &&
	extracct ingest --db g.db two >out &&
	grep "^two: bytes 0-128: 2 records" out &&
	extracct ingest --db g.db one >out &&
	grep "^one: bytes 0-64: 1 records" out &&
	extracct ingest --db g.db log8 >out &&
	grep "^log8: bytes 128-192: 1 records" out &&
	head -c 64 full >one &&
	extracct ingest --db g.db one >out &&
	grep "^one: bytes 0-64: 1 records" out &&
	{ cat full && tail -c 64 log8; } >longer &&
	extracct ingest --db g.db longer >out &&
	grep "^longer: bytes 6400-6464: 1 records" out &&
	test "$(sqlite3 g.db "SELECT count(*) FROM files")" -eq 4
'

# A log that starts as one ingested ends is that log grown (its bytes
# say no more); one whose first 128 bytes differ from a 128-byte log's
# is another.
test_expect_success 'the same first record, another second: a new log' '
	extracct gen --kind pacct --records 2 --seed 9 -o log9 &&
	{ head -c 64 log9 && tail -c 64 log8; } >mixed &&
	extracct ingest --db g.db log9 >out &&
	extracct ingest --db g.db mixed >out &&
	grep "^mixed: bytes 0-128: 2 records" out &&
	test "$(sqlite3 g.db "SELECT count(*) FROM files")" -eq 6 &&
	cp mixed mixed2 &&
	extracct ingest --db g.db mixed2 >out &&
	grep "^mixed2: already ingested (128 bytes)" out
'

test_done
