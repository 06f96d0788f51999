#!/bin/sh
# One writer of a database at a time.  Ingests run at
# once into one database end with the database one serial ingest makes,
# every time; a writer kept waiting past --wait gives up with exit 4 and
# says who holds the database.
# run.sh: long 41 (seconds on two idle CPUs: started first)
. "$(dirname "$0")/../lib.sh"

# Small logs of every kind, on several hosts; p1 first: the file that is
# also ingested alone, at the same time as the lists that hold it.
test_expect_success 'setup: 16 logs of every kind, one serial ingest' '
	for i in 1 2 3 4 5 6 7 8; do
		extracct gen --kind proc --records 600 --seed $i --host h$i \
		    --jitter -o p$i.exacct || return 1
	done &&
	for i in 1 2 3 4; do
		extracct gen --kind pacct --records 300 --seed $i -o a$i.pacct ||
		    return 1
	done &&
	extracct gen --kind task --records 300 --seed 5 --host ht -o t.exacct &&
	extracct gen --kind flow --records 300 --seed 6 --host hf -o f.exacct &&
	extracct gen --kind energy --records 300 --seed 7 --host he -o e.exacct &&
	cp "$SAMPLES/energy/cpu_energy_rapl_msr_component.log" . &&
	echo p1.exacct p2.exacct p3.exacct p4.exacct p5.exacct p6.exacct \
	    p7.exacct p8.exacct a1.pacct a2.pacct a3.pacct a4.pacct \
	    t.exacct f.exacct e.exacct cpu_energy_rapl_msr_component.log >list &&
	extracct ingest --db ref.db --chunk 100 --host hp $(cat list) >out &&
	db_canon ref.db >ref &&
	test "$(sqlite3 ref.db "SELECT count(DISTINCT host_id) FROM procs")" -eq 9 &&
	test "$(sqlite3 ref.db "SELECT count(*) FROM files")" -eq 16
'

# Each round: two ingests of all 16 and one of p1 alone, all at once,
# in 100-record transactions (before the writer's lock, 8 rounds of 10
# lost whole hosts' processes or counted files twice, all exiting 0).
test_expect_success 'three ingests at once, 20 rounds: each the serial database' '
	same=0 &&
	for r in $(seq 1 20); do
		rm -f c.db c.db-wal c.db-shm &&
		{ "$EXTRACCT" ingest --db c.db --chunk 100 --host hp $(cat list) \
		    >o1 2>e1 & p1=$!; } &&
		{ "$EXTRACCT" ingest --db c.db --chunk 100 --host hp p1.exacct \
		    >o2 2>e2 & p2=$!; } &&
		{ "$EXTRACCT" ingest --db c.db --chunk 100 --host hp $(cat list) \
		    >o3 2>e3 & p3=$!; } &&
		wait $p1 && wait $p2 && wait $p3 &&
		db_canon c.db >actual &&
		if cmp -s ref actual; then same=$((same + 1)); fi ||
		return 1
	done &&
	echo "$same of 20 rounds as one serial ingest" &&
	test_cmp ref actual &&
	test $same -eq 20
'

# (Before the lock: 5 of 5 wrong, two ledger rows and 40000 records, or
# one row and 4000 intervals too many.)
test_expect_success 'the same file twice at once, 3 times: stored once' '
	extracct gen --kind proc --records 20000 --seed 3 --jitter -o big.exacct &&
	extracct ingest --db d.db big.exacct >/dev/null &&
	db_canon d.db >ref.big &&
	for r in 1 2 3; do
		rm -f c.db c.db-wal c.db-shm &&
		{ "$EXTRACCT" ingest --db c.db --chunk 100 big.exacct >o1 & p1=$!; } &&
		{ "$EXTRACCT" ingest --db c.db --chunk 100 big.exacct >o2 & p2=$!; } &&
		wait $p1 && wait $p2 &&
		test "$(grep -c "already ingested" o1 o2 | cut -d: -f2 | sort | tr "\n" " ")" = "0 1 " &&
		test "$(sqlite3 c.db "SELECT count(*) || \" \" || sum(records) FROM files")" = "1 20000" &&
		db_canon c.db >actual &&
		test_cmp ref.big actual || return 1
	done
'

test_expect_success 'a writer waits for the one that holds the database' '
	rm -f w.db* &&
	rm -f held &&
	{ "$EXTRACCT_TEST" hold-db w.db 2 >held & h=$!; } &&
	i=0 && until grep -q held held; do
		i=$((i + 1)) && test $i -lt 500 && sleep 0.01 || return 1
	done &&
	extracct ingest --db w.db --wait 30 p3.exacct >out &&
	wait $h &&
	grep "p3.exacct: bytes 0-" out
'

test_expect_success 'past --wait: exit 4, the holder named, nothing stored' '
	rm -f w.db* &&
	rm -f held &&
	{ "$EXTRACCT_TEST" hold-db w.db 5 >held & h=$!; } &&
	i=0 && until grep -q held held; do
		i=$((i + 1)) && test $i -lt 500 && sleep 0.01 || return 1
	done &&
	t0=$(date +%s) &&
	test_expect_code 4 extracct ingest --db w.db --wait 1 p3.exacct >out 2>err &&
	t1=$(date +%s) &&
	kill $h && wait $h
	cat err &&
	grep "^extracct: w.db: another writer (pid $h) holds w.db-lock; gave up after waiting 1 s (--wait)$" err &&
	test $((t1 - t0)) -ge 1 && test $((t1 - t0)) -le 4 &&
	test ! -s out && test ! -e w.db
'

test_expect_success 'run waits as ingest does, and keeps the logs when it gives up' '
	mkdir -m 700 sp &&
	extracct gen --kind pacct --records 20 --seed 9 -o "sp/pacct-$(hostname)-20000101-0000" &&
	rm -f held &&
	{ "$EXTRACCT_TEST" hold-db r.db 5 >held & h=$!; } &&
	i=0 && until grep -q held held; do
		i=$((i + 1)) && test $i -lt 500 && sleep 0.01 || return 1
	done &&
	test_expect_code 4 extracct run --spool sp --db r.db --no-snap --no-rotate \
	    --retention-days 0 --wait 1 >out 2>err &&
	kill $h && wait $h
	cat out err &&
	grep "another writer (pid $h) holds r.db-lock" err &&
	grep "^retention: logs kept: the database is busy$" out &&
	test -e "sp/pacct-$(hostname)-20000101-0000"
'

test_expect_success 'a bad --wait is a usage error' '
	test_expect_code 2 extracct ingest --wait x p1.exacct 2>err &&
	grep "^extracct: --wait .x.: not a number$" err &&
	test_expect_code 2 extracct ingest --wait 86401 p1.exacct 2>err &&
	grep "too large (at most 86400)" err
'

# A report or push on a database an ingest is making sees a version of
# the middle between two migrations: it waits for the last, as a writer
# waits for the lock.  One started before the file exists says so (and
# creates nothing); none may fail on the schema (exit 3).
test_expect_success 'reports on a database being made wait for its migrations' '
	n3=0 && made=0 &&
	for k in 1 2 3 4 5 6 7 8; do
		rm -f new.db new.db-wal new.db-shm new.db-lock &&
		{ extracct ingest --db new.db p1.exacct >/dev/null & } &&
		while [ ! -e new.db ]; do :; done &&
		for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
			extracct report --db new.db >/dev/null 2>err.$k.$i
			rc=$?
			if [ $rc -ne 0 ]; then
				echo "round $k report $i: exit $rc" && cat err.$k.$i
				n3=$((n3 + 1))
			fi
		done
		wait || return 1
	done &&
	test $n3 -eq 0 &&
	rm -f none.db &&
	test_expect_code 3 extracct report --db none.db 2>err &&
	grep "^extracct: none.db: No such file or directory (no database there" err &&
	test ! -e none.db && test ! -e none.db-lock
'

test_done
