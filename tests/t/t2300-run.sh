#!/bin/sh
# run and rotate: the spool's safety checks, one run at a time, closed
# logs ingested oldest first, retention that never drops an un-ingested
# log, and rotation of live kernel accounting.
. "$(dirname "$0")/../lib.sh"

HOST=$(hostname)

test_expect_success 'names: KIND-HOST-YYYYMMDD-HHMM, next minute in the last 10 s' '
	test "$(TZ=UTC extracct_test spool-name pacct h 1700000089)" = pacct-h-20231114-2214 &&
	test "$(TZ=UTC extracct_test spool-name pacct h 1700000090)" = pacct-h-20231114-2215 &&
	test "$(TZ=UTC extracct_test spool-name snap h 1700002799)" = snap-h-20231114-2300
'

test_expect_success 'a spool that is a symbolic link is refused' '
	mkdir -m 700 real && ln -s real link &&
	test_expect_code 2 extracct run --spool link --db x.db 2>err &&
	grep "spool link is a symbolic link; refusing it" err &&
	test_expect_code 2 extracct rotate --spool link 2>err
'

test_expect_success 'a spool writable by others is refused' '
	mkdir -m 777 open &&
	test_expect_code 2 extracct run --spool open --db x.db 2>err &&
	grep "spool open is writable by group or others (mode 0777); refusing it" err &&
	test_expect_code 2 extracct snap --spool open 2>err
'

test_expect_success 'two runs at once: one works, the other exits 3' '
	mkdir -m 700 sp &&
	if command -v flock >/dev/null 2>&1; then
		flock sp/.lock sh -c "\"$EXTRACCT\" run --spool sp --db d.db --no-rotate >out 2>err; echo \$? >rc" &&
		test "$(cat rc)" -eq 3 &&
		grep "another extracct run holds sp/.lock; exiting" err
	fi &&
	extracct run --spool sp --db d.db --no-rotate >out &&
	grep "^snap: [0-9]* processes into sp/snap-$HOST-" out
'

test_expect_success 'closed logs are ingested, snapshots first; the live ones are not' '
	mkdir -m 700 sp2 outd &&
	extracct gen --kind pacct --records 50 --seed 1 -o sp2/pacct-$HOST-20000101-0000 &&
	extracct snap -o sp2/snap-$HOST-20000101-0000 &&
	: >sp2/pacct-$HOST-20990101-0000 && : >sp2/snap-$HOST-20990101-0000 &&
	extracct run --spool sp2 --db r.db --outdir outd --no-rotate >out.log &&
	grep "sp2/snap-$HOST-20000101-0000: bytes 0-" out.log &&
	grep "sp2/pacct-$HOST-20000101-0000: bytes 0-3200: 50 records" out.log &&
	test "$(grep -n "snap-$HOST-20000101" out.log | cut -d: -f1)" -lt "$(grep -n "pacct-$HOST-20000101" out.log | cut -d: -f1)" &&
	! grep "20990101: bytes" out.log &&
	test -s outd/pacct-$HOST-20000101-0000.txt &&
	test -s outd/pacct-$HOST-20000101-0000.csv &&
	extracct run --spool sp2 --db r.db --no-rotate >out.log &&
	grep "already ingested" out.log
'

test_expect_success 'FILE operands are ingested after the spool, exactly once' '
	mkdir -m 700 sp4 outd4 &&
	extracct gen --kind pacct --records 30 --seed 4 -o sp4/pacct-$HOST-20000101-0000 &&
	: >sp4/pacct-$HOST-20990101-0000 &&
	extracct gen --kind pacct --records 20 --seed 5 -o extra.acct &&
	extracct run --spool sp4 --db o.db --outdir outd4 --no-rotate --no-snap extra.acct >out.log &&
	grep "sp4/pacct-$HOST-20000101-0000: bytes 0-1920: 30 records" out.log &&
	grep "^extra.acct: bytes 0-1280: 20 records" out.log &&
	test "$(grep -n "pacct-$HOST-20000101" out.log | cut -d: -f1)" -lt "$(grep -n "^extra.acct" out.log | cut -d: -f1)" &&
	test -s outd4/extra.acct.csv &&
	q="SELECT count(*) || \" \" || sum(cpu_user_ns) FROM proc_intervals" &&
	before=$(sqlite3 o.db "$q") &&
	extracct run --spool sp4 --db o.db --no-rotate --no-snap extra.acct >out.log &&
	grep "^extra.acct: already ingested (1280 bytes)" out.log &&
	test "$(sqlite3 o.db "$q")" = "$before"
'

# A closed log whose last record is torn is done once its damage is
# stored: it goes with the rest.  The live one stays,
# however old.
test_expect_success 'retention: old ingested logs go, torn or not; the live one stays' '
	mkdir -m 700 sp3 &&
	extracct gen --kind pacct --records 40 --seed 2 -o sp3/pacct-$HOST-20000101-0000 &&
	extracct gen --kind pacct --records 40 --seed 3 -o sp3/pacct-$HOST-20000102-0000 &&
	printf "a torn record" >>sp3/pacct-$HOST-20000102-0000 &&
	extracct gen --kind pacct --records 40 --seed 6 -o sp3/pacct-$HOST-20000103-0000 &&
	echo pacct-$HOST-20000103-0000 >sp3/.live-pacct-$HOST &&
	: >sp3/pacct-$HOST-20990101-0000 &&
	touch -d "30 days ago" sp3/pacct-$HOST-20000101-0000 sp3/pacct-$HOST-20000102-0000 \
	    sp3/pacct-$HOST-20000103-0000 &&
	test_expect_code 1 extracct run --spool sp3 --db t.db --no-rotate --no-snap --retention-days 7 >out.log 2>err &&
	grep "pacct-$HOST-20000102-0000: offset 2560: torn tail: 13 bytes .*(skipped bytes 2560-2572)$" err &&
	grep "retention: removed sp3/pacct-$HOST-20000101-0000" out.log &&
	grep "retention: removed sp3/pacct-$HOST-20000102-0000" out.log &&
	! grep "20000103" out.log &&
	test ! -e sp3/pacct-$HOST-20000101-0000 &&
	test ! -e sp3/pacct-$HOST-20000102-0000 &&
	test -e sp3/pacct-$HOST-20000103-0000 &&
	test -e sp3/pacct-$HOST-20990101-0000
'

test_expect_success 'rotate leaves accounting alone when it is off' '
	mkdir -m 700 sp5 &&
	: >sp5/pacct-$HOST-20000101-0000 &&
	extracct rotate --spool sp5 >out &&
	grep "is not writing to sp5/pacct-$HOST-20000101-0000; left alone (rotate never starts it)" out &&
	test "$(ls sp5 | grep -c "^pacct-")" -eq 1 &&
	test "$(ls sp5 | grep -c "^snap-")" -eq 1
'

test_expect_success 'the original flags map onto run' '
	test_expect_code 2 extracct -z 2>err &&
	grep "usage: extracct -vwr \\[FILE | -a DIR\\]" err
'

acct_note_state
if ! command -v accton >/dev/null 2>&1; then
	test_skip 'rotate live accounting' 'accton is missing (apt-get install acct)'
else
	mkdir -m 700 sp6
	old=sp6/pacct-$HOST-20000101-0000
	: >$old
	if ! accton "$TRASH/$old" >/dev/null 2>err.accton; then
		test_skip 'rotate live accounting' "the kernel refused accounting: $(cat err.accton)"
	else
		trap 'acct_restore; rm -rf "$TRASH"' EXIT
		extracct rotate --spool "$TRASH/sp6" >rotate.out 2>&1
		ls sp6 >listing
		/bin/true
		sleep 0.2
		new=$(ls sp6 | grep "^pacct-" | sort | tail -n 1)
		before=$(wc -c <"sp6/$new")
		/bin/true
		sleep 0.2
		after=$(wc -c <"sp6/$new")
		acct_restore
		trap 'rm -rf "$TRASH"' EXIT
		test_expect_success 'rotate moves live accounting to a new file, 0640, no gap' '
			cat rotate.out &&
			grep "process accounting moved from $TRASH/$old to $TRASH/sp6/$new" rotate.out &&
			test "$new" != "pacct-$HOST-20000101-0000" &&
			test "$after" -gt "$before" &&
			test "$(stat -c %a "sp6/$new")" = 640
		'
	fi
fi

# The units split the hourly job: run --no-push (no network in its
# sandbox) and run --push-only (the push unit).  No server here: one
# that cannot be reached (t2805 pushes to a real one).
test_expect_success 'run --no-push: a central server is left alone, exit 0' '
	mkdir -m 700 spn &&
	printf "central: \"host=127.0.0.1 port=1 connect_timeout=2\"\nkeep_intervals_days: 1\n" >np.yml &&
	chmod 600 np.yml &&
	extracct -c np.yml run --spool spn --db np.db --no-snap --no-rotate --no-push >out 2>err &&
	cat out err &&
	grep "^push: left to run --push-only, and with it the database.s expiry$" out &&
	! grep "retention: np.db" out &&
	test ! -s err
'

test_expect_success 'run --push-only: the push and nothing else; refused with FILE or --no-push' '
	rc=0 && extracct -c np.yml run --spool spn --db np.db --push-only >out 2>err || rc=$? &&
	cat out err &&
	{ { test $rc = 5 && grep "^extracct: push: .*nothing lost" err &&
	    grep "^retention: np.db: nothing expired: the push failed" out; } ||
	  test $rc = 6; } &&
	! grep "^snap:\|^rotate:" out &&
	test_expect_code 2 extracct run --spool spn --db np.db --push-only x 2>err &&
	grep "^extracct: run: --push-only takes no FILE: it ingests nothing$" err &&
	test_expect_code 2 extracct run --spool spn --db np.db --push-only --no-push 2>err &&
	grep "one or the other" err
'

test_expect_success 'run --push-only without a central server: nothing to do, exit 0' '
	extracct run --spool spn --db np.db --push-only >out 2>err &&
	echo "push: no central server configured; nothing to do" >want &&
	test_cmp want out && test ! -s err
'

test_done
