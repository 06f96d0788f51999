#!/bin/sh
# Which log is live comes from what extracct switched to, never from the
# newest name: a log named in the future (a clock
# that was wrong once) must not stop rotation, and is ingested as a
# closed log.  rotate's Linux path runs in extracct-test with a stand-in
# kernel (the file named in ./kernel is where accounting writes; each
# exit appends a record to it): no real accounting is switched.  The
# Solaris path runs with stand-in acctadm and wracct, as in t2310.
. "$(dirname "$0")/../lib.sh"

HOST=$(hostname)
T2099=4070908800	# 2099-01-01 00:00 UTC
T0=1704103200		# 2024-01-01 10:00 UTC

rotate_at() {
	"$EXTRACCT_TEST" rotate "$TRASH/kernel" "$1" "$TRASH/sp" /nonexistent
}

test_expect_success 'a clock in 2099 once: rotation goes on, hour after hour' '
	mkdir -m 700 sp &&
	: >sp/pacct-$HOST-20000101-0000 &&
	echo "$TRASH/sp/pacct-$HOST-20000101-0000" >kernel &&
	rotate_at $T2099 >out.1 &&
	grep "moved from $TRASH/sp/pacct-$HOST-20000101-0000 to $TRASH/sp/pacct-$HOST-20990101-0000$" out.1 &&
	rotate_at $T0 >out.2 &&
	grep "moved from $TRASH/sp/pacct-$HOST-20990101-0000 to $TRASH/sp/pacct-$HOST-20240101-1000$" out.2 &&
	rotate_at $((T0 + 3600)) >out.3 &&
	cat out.3 &&
	grep "^rotate: process accounting moved from $TRASH/sp/pacct-$HOST-20240101-1000 to $TRASH/sp/pacct-$HOST-20240101-1100$" out.3 &&
	test "$(cat kernel)" = "$TRASH/sp/pacct-$HOST-20240101-1100" &&
	test "$(cat sp/.live-pacct-$HOST)" = "pacct-$HOST-20240101-1100" &&
	rotate_at $((T0 + 3610)) >out.4 &&
	grep "^rotate: accounting already in $TRASH/sp/pacct-$HOST-20240101-1100$" out.4
'

test_expect_success 'the state: written whole, no temporary file left' '
	ls -a sp >listing &&
	test "$(grep -c "^\.live-" listing)" -eq 2 &&
	grep "^\.live-pacct-$HOST$" listing &&
	grep "^\.live-snap-$HOST$" listing &&
	test "$(wc -l <sp/.live-pacct-$HOST)" -eq 1
'

test_expect_success 'run: the 2099 log is reported and ingested as closed, the live one is not' '
	run_out() { extracct run --spool sp --db r.db --no-snap --no-rotate "$@"; } &&
	run_out >out 2>err &&
	cat out err &&
	grep "^extracct: sp/pacct-$HOST-20990101-0000: named for a time ahead of the clock, and not a log extracct writes to: read as a closed log$" err &&
	grep "^sp/pacct-$HOST-20990101-0000: bytes 0-64: 1 records" out &&
	grep "^sp/pacct-$HOST-20240101-1000: bytes 0-64: 1 records" out &&
	grep "^sp/pacct-$HOST-20000101-0000: bytes 0-64: 1 records" out &&
	! grep "20240101-1100" out &&
	test "$(sqlite3 r.db "SELECT count(*) FROM files")" -eq 3
'

# A spool as an extracct before the state left it: no .live files, the
# kernel writing to the newest log of the clock's time, and one named in
# the future beside it.
test_expect_success 'no state yet: the newest log not in the future is probed' '
	rm -rf sp && mkdir -m 700 sp &&
	: >sp/pacct-$HOST-20240101-0900 && : >sp/pacct-$HOST-20990101-0000 &&
	echo "$TRASH/sp/pacct-$HOST-20240101-0900" >kernel &&
	rotate_at $T0 >out &&
	cat out &&
	grep "^rotate: $TRASH/sp/pacct-$HOST-20990101-0000 is named for a time ahead of the clock; not taken for the live log$" out &&
	grep "^rotate: process accounting moved from $TRASH/sp/pacct-$HOST-20240101-0900 to $TRASH/sp/pacct-$HOST-20240101-1000$" out &&
	test "$(cat sp/.live-pacct-$HOST)" = "pacct-$HOST-20240101-1000"
'

test_expect_success 'accounting moved by hand: found in the spool, state or not' '
	: >sp/pacct-$HOST-20240101-1030 &&
	echo "$TRASH/sp/pacct-$HOST-20240101-1030" >kernel &&
	rotate_at $((T0 + 3600)) >out &&
	grep "moved from $TRASH/sp/pacct-$HOST-20240101-1030 to $TRASH/sp/pacct-$HOST-20240101-1100$" out
'

# It was on in the live log: going off is an error, said once (t2330
# has the rest of the lifecycle).
test_expect_success 'accounting off: left alone, named by the live log' '
	: >kernel.off && mv kernel.off kernel &&
	test_expect_code 3 rotate_at $((T0 + 7200)) >out 2>err &&
	grep "^extracct: process accounting was on in $TRASH/sp/pacct-$HOST-20240101-1100 at the last run and is now off " err &&
	test ! -e sp/pacct-$HOST-20240101-1200 &&
	test ! -e sp/.live-pacct-$HOST &&
	rotate_at $((T0 + 7200)) >out &&
	grep "^rotate: process accounting is not writing to $TRASH/sp/pacct-$HOST-20240101-1100; left alone (rotate never starts it)$" out &&
	test ! -e sp/pacct-$HOST-20240101-1200
'

test_expect_success 'a damaged state is reported, and taken as none' '
	printf "../../etc/passwd\n" >sp/.live-pacct-$HOST &&
	echo "$TRASH/sp/pacct-$HOST-20240101-1100" >kernel &&
	rotate_at $((T0 + 7200)) >out 2>err &&
	cat out err &&
	grep "^extracct: $TRASH/sp/.live-pacct-$HOST: not the name of a pacct log of $HOST and a newline; taken as no pacct log live$" err &&
	grep "moved from $TRASH/sp/pacct-$HOST-20240101-1100 to $TRASH/sp/pacct-$HOST-20240101-1200$" out &&
	test "$(cat sp/.live-pacct-$HOST)" = "pacct-$HOST-20240101-1200"
'

test_expect_success 'snap: into the live snapshot log, never one named in the future' '
	rm -rf sp && mkdir -m 700 sp &&
	: >sp/snap-$HOST-20990101-0000 &&
	extracct snap --spool sp --cpu runtime --powercap /nonexistent >out &&
	live=$(cat sp/.live-snap-$HOST) &&
	test "$live" != "snap-$HOST-20990101-0000" &&
	test -s "sp/$live" &&
	test ! -s sp/snap-$HOST-20990101-0000 &&
	size=$(wc -c <"sp/$live") &&
	extracct snap --spool sp --cpu runtime --powercap /nonexistent >out &&
	test "$(wc -c <"sp/$live")" -gt "$size" &&
	test ! -s sp/snap-$HOST-20990101-0000
'

test_expect_success 'rotate: the snapshot log moves on from the live one' '
	: >kernel &&
	live=$(cat sp/.live-snap-$HOST) &&
	"$EXTRACCT_TEST" rotate "$TRASH/kernel" $(($(date +%s) + 7200)) "$TRASH/sp" /nonexistent >out &&
	cat out &&
	new=$(cat sp/.live-snap-$HOST) &&
	test "$new" != "$live" && test "$new" != "snap-$HOST-20990101-0000" &&
	grep "^rotate: snapshots now go to $TRASH/sp/$new$" out &&
	extracct run --spool sp --db s.db --no-snap --no-rotate >out 2>err &&
	grep "^sp/$live: bytes 0-" out &&
	! grep "$new" out
'

test_expect_success 'Solaris: a log named in the future is closed once acctadm moved on' '
	mkdir bin && rm -rf sp && mkdir -m 700 sp &&
	cat >bin/wracct <<-EOS &&
	#!/bin/sh
	exit 1
	EOS
	cat >bin/acctadm <<-EOS &&
	#!/bin/sh
	[ "\$1" = -f ] || exit 2
	"$EXTRACCT" gen --kind proc --records 3 -o "\$2" || exit 1
	EOS
	chmod +x bin/wracct bin/acctadm &&
	extracct gen --kind proc --records 10 --seed 4 -o sp/proc-$HOST-20990101-0000 &&
	printf "ACCTADM_PROC_ENABLE=yes\nACCTADM_PROC_FILE=$TRASH/sp/proc-$HOST-20990101-0000\n" >acctadm.conf &&
	PATH="$TRASH/bin:$PATH" extracct rotate --spool "$TRASH/sp" --acctadm-conf acctadm.conf >out &&
	new=$(cat sp/.live-proc-$HOST) &&
	grep "^rotate: process accounting moved from $TRASH/sp/proc-$HOST-20990101-0000 to $TRASH/sp/$new$" out &&
	extracct run --spool sp --db sol.db --no-snap --no-rotate >out 2>err &&
	cat out err &&
	grep "^sp/proc-$HOST-20990101-0000: bytes 0-" out &&
	grep "proc-$HOST-20990101-0000: named for a time ahead of the clock" err &&
	! grep "$new" out
'

test_done
