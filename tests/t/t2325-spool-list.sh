#!/bin/sh
# The spool is listed once per run, whole, however many logs it holds,
# and what rotate changes in it is what the same run then ingests
#.  rotate runs in extracct-test with a stand-in
# kernel (t2320): no real accounting is switched.
. "$(dirname "$0")/../lib.sh"

HOST=$(hostname)

# More than the 4,096 logs the listing once stopped at, without a word.
test_expect_success 'a spool of 5000 logs is listed whole: retention sees every one' '
	mkdir -m 700 sp &&
	seq -f "sp/pacct-$HOST-2000%04g-0000" 1 5000 >names &&
	xargs touch <names &&
	extracct run --spool sp --db r.db --no-snap --no-rotate \
	    --retention-days 0 >out 2>err &&
	test ! -s err &&
	test "$(grep -c "^retention: removed sp/pacct-$HOST-2000" out)" -eq 5000 &&
	ls sp >left &&
	test "$(grep -c "^pacct-" left)" -eq 0
'

# One descriptor short of opening the spool: run says so and stops,
# instead of going on as if the spool were empty.
test_expect_success 'a spool that cannot be listed is an error, named' '
	mkdir -m 700 sp2 &&
	extracct gen --kind pacct --records 3 --seed 1 -o "sp2/pacct-$HOST-20000101-0000" &&
	(ulimit -n 4 && exec "$EXTRACCT" run --spool sp2 --db u.db --no-snap \
	    --no-rotate) >out 2>err
	test $? -eq 3 &&
	cat err &&
	grep "^extracct: sp2: " err &&
	test ! -e u.db
'

# The log accounting leaves is closed by rotate and read by the same run.
test_expect_success 'run: the pacct log rotate closes is ingested in the same run' '
	mkdir -m 700 sp3 &&
	old=pacct-$HOST-20000101-0000 &&
	extracct gen --kind pacct --records 5 --seed 3 -o "sp3/$old" &&
	echo "$old" >"sp3/.live-pacct-$HOST" &&
	echo "$TRASH/sp3/$old" >kernel &&
	"$EXTRACCT_TEST" run "$TRASH/kernel" - --spool "$TRASH/sp3" \
	    --db j.db --no-snap --pacct /nonexistent >out 2>err &&
	cat out err &&
	new=$(cat "sp3/.live-pacct-$HOST") &&
	test "$new" != "$old" &&
	grep "^rotate: process accounting moved from $TRASH/sp3/$old to $TRASH/sp3/$new$" out &&
	grep "^$TRASH/sp3/$old: bytes 0-384: 6 records" out &&
	! grep "$new:" out &&
	test "$(sqlite3 j.db "SELECT count(*) FROM files")" -eq 1
'

test_done
