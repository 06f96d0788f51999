#!/bin/sh
# push and the database's retention (issues 16 and 17): what local
# expiry removes, central keeps, and nothing expires here that central
# has not got.  A host pushes, expires (keep_intervals_days: 1, on
# generated logs of 2023), pushes again: central is unchanged; its
# processes live at the cut exit later and are updated centrally, and
# new facts arrive; acctd exits with pacct alternates (t2800's) expire
# here and stay there.  run with the server down expires nothing; with it
# back, pushes and then expires.  A throw-away server (tests/lib-pg.sh).
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/lib-pg.sh"

# The canonical dump, as t2800 makes it.
CANON_REF=$TRASH/ref.db
. "$SRC/tests/lib-canon.sh"

# Both databases (x.db, expired; ref.db, never) ingest the same.
ingest_both() {
	for db in x.db ref.db; do
		extracct ingest --db $db --host alpha "$@" >/dev/null 2>&1
		test $? -le 1 || return 1
	done
}

. "$SRC/tests/lib-handlogs.sh"

live_pg() {
	pg_psql ex -c "SELECT pid, start_ns FROM procs WHERE finish_ns IS NULL
	    ORDER BY 1, 2"
}

pg_start_or_skip

test_expect_success 'setup: logs of 2023; half of the processes log' '
	extracct gen --kind proc --records 3000 --seed 7 --daemons 5 --host alpha -o a.proc &&
	extracct gen --kind task --records 500 --seed 7 --host alpha -o a.task &&
	extracct gen --kind energy --records 400 --seed 7 --host alpha -o a.energy &&
	extracct gen --kind pacct --records 500 --seed 7 -o a.pacct &&
	extracct gen --kind proc --records 1000 --seed 8 --host alpha -o b.proc &&
	size=$(wc -c <a.proc) &&
	head -c $((size / 2)) a.proc >g.exacct &&
	acctd_log alpha 200 &&
	pacct_recs 200 >alt.pacct &&
	ingest_both g.exacct a.task a.energy a.pacct acctd.exacct alt.pacct &&
	test "$(sqlite3 x.db "SELECT count(*) FROM proc_alt_exits")" -gt 0 &&
	echo "keep_intervals_days: 1" >keep.yml &&
	pg_createdb ex
'

test_expect_success 'pushed, expired here, pushed again: central holds all it had' '
	extracct push --db x.db --to "$(pg_conn ex)" >/dev/null &&
	canon x.db >l1 && canon_pg ex >c1 && test_cmp l1 c1 &&
	live_pg >live1 && test -s live1 &&
	procs=$(sqlite3 x.db "SELECT count(*) FROM procs") &&
	extracct -c keep.yml rollup --expire --db x.db >out &&
	grep "^retention: x.db: [1-9][0-9]* interval rows" out &&
	for t in proc_intervals task_intervals energy_intervals proc_alt_exits; do
		test "$(sqlite3 x.db "SELECT count(*) FROM $t")" = 0 || return 1
	done &&
	test "$(sqlite3 x.db "SELECT count(*) FROM procs")" -lt $procs &&
	test "$(sqlite3 x.db "SELECT count(*) FROM v_expiry")" -ge 1 &&
	extracct push --db x.db --to "$(pg_conn ex)" >out &&
	cat out &&
	canon_pg ex >c2 && test_cmp c1 c2
'

test_expect_success 'then: processes live at the cut exit, updated there; new facts arrive' '
	cp a.proc g.exacct &&
	ingest_both g.exacct b.proc &&
	extracct push --db x.db --to "$(pg_conn ex)" >out &&
	grep "^push: x.db: 1 host, [1-9][0-9]* buckets, [1-9][0-9]* rows sent$" out &&
	canon ref.db >expect && canon_pg ex >actual && test_cmp expect actual &&
	live_pg >live2 &&
	test "$(comm -23 live1 live2 | wc -l)" -gt 0 &&
	extracct push --db x.db --to "$(pg_conn ex)" >out &&
	grep "^push: x.db: 1 host, 0 buckets, 0 rows sent$" out &&
	extracct -c keep.yml rollup --expire --db x.db >out &&
	grep "^retention: x.db: [1-9][0-9]* interval rows" out &&
	extracct push --db x.db --to "$(pg_conn ex)" >out &&
	canon_pg ex >again && test_cmp expect again
'

test_expect_success 'rollup --expire with a central server configured: refused, nothing expired' '
	cp ref.db rc.db &&
	printf "central: \"%s\"\nkeep_intervals_days: 1\n" "$(pg_conn ex)" >c.yml &&
	chmod 600 c.yml &&
	test_expect_code 2 extracct -c c.yml rollup --expire --db rc.db >out 2>err &&
	grep "^extracct: rollup --expire: a central server is configured: run expires the database, after its push" err &&
	test "$(sqlite3 rc.db "SELECT count(*) FROM v_expiry")" = 0 &&
	test "$(sqlite3 rc.db "SELECT count(*) FROM proc_intervals")" = \
	    "$(sqlite3 ref.db "SELECT count(*) FROM proc_intervals")"
'

test_expect_success 'server down during run: nothing expired; back: run pushes, then expires' '
	pg_createdb hourly &&
	mkdir -m 700 sp &&
	printf "central: \"%s\"\nkeep_intervals_days: 1\n" "$(pg_conn hourly)" >run.yml &&
	chmod 600 run.yml &&
	extracct gen --kind pacct --records 300 --seed 71 -o sp/pacct-$(hostname)-20240101-1000 &&
	pg_stop &&
	test_expect_code 5 extracct -c run.yml run --spool sp --db r.db --no-snap --no-rotate >out 2>err &&
	cat out err &&
	grep "^sp/pacct-.*: 300 records" out &&
	grep "^retention: r.db: nothing expired: the push failed, and only what the central server has may expire$" out &&
	test "$(sqlite3 r.db "SELECT count(*) FROM proc_intervals")" -gt 0 &&
	test "$(sqlite3 r.db "SELECT count(*) FROM v_expiry")" = 0 &&
	cp r.db r0.db &&
	pg_start &&
	extracct -c run.yml run --spool sp --db r.db --no-snap --no-rotate >out 2>err &&
	cat out err &&
	grep -n "^push: r.db: 1 host, [1-9][0-9]* buckets, [1-9][0-9]* rows sent$" out >p &&
	grep -n "^retention: r.db: [1-9][0-9]* interval rows" out >e &&
	test "$(cut -d: -f1 p)" -lt "$(cut -d: -f1 e)" &&
	test "$(sqlite3 r.db "SELECT count(*) FROM proc_intervals")" = 0 &&
	canon r0.db >expect && canon_pg hourly >actual && test_cmp expect actual
'

# The systemd units: the run's unit has no network and runs --no-push;
# the push unit, after it, --push-only: push, then expire, so nothing
# expires that central has not got.
test_expect_success 'run --no-push, then run --push-only: pushed, then expired' '
	pg_createdb split &&
	mkdir -m 700 sp2 &&
	printf "central: \"%s\"\nkeep_intervals_days: 1\n" "$(pg_conn split)" >split.yml &&
	chmod 600 split.yml &&
	extracct gen --kind pacct --records 300 --seed 72 -o sp2/pacct-$(hostname)-20240101-1000 &&
	extracct -c split.yml run --spool sp2 --db s.db --no-snap --no-rotate --no-push >out 2>err &&
	cat out err &&
	grep "^push: left to run --push-only" out &&
	! grep "^push: s.db" out && ! grep "^retention: s.db" out &&
	test "$(sqlite3 s.db "SELECT count(*) FROM proc_intervals")" -gt 0 &&
	test "$(pg_psql split -c "SELECT count(*) FROM hosts" 2>/dev/null || echo 0)" -le 0 &&
	cp s.db s0.db &&
	extracct -c split.yml run --spool sp2 --db s.db --push-only >out 2>err &&
	cat out err &&
	grep -n "^push: s.db: 1 host, [1-9][0-9]* buckets, [1-9][0-9]* rows sent$" out >p &&
	grep -n "^retention: s.db: [1-9][0-9]* interval rows" out >e &&
	test "$(cut -d: -f1 p)" -lt "$(cut -d: -f1 e)" &&
	test "$(sqlite3 s.db "SELECT count(*) FROM proc_intervals")" = 0 &&
	canon s0.db >expect && canon_pg split >actual && test_cmp expect actual
'

test_done
