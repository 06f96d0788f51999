#!/bin/sh
# push when a host's history does not arrive in time order: logs
# ingested late or out of order, a database restored from an older
# copy, merges into and out of a database that pushes, a host name
# that is not UTF-8.  After each, central must equal a fresh push of
# the final database (the canonical dump, tests/lib-canon.sh), or, where
# the push is refused, be as it was.  A throw-away server (tests/lib-pg.sh).
# run.sh: long 48 (seconds on two idle CPUs: started first)
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/lib-pg.sh"

CANON_REF=$TRASH/ref.db
. "$SRC/tests/lib-canon.sh"

pg_start_or_skip

# One exit record of host jobhost: PID START_S FINISH_S, a second of CPU.
job() {
	printf 'group 0xf0000100\n  uint 0x30001000 %s\n' "$1"
	printf '  uint 0x40001007 %s\n  uint 0x40001008 0\n' "$2"
	printf '  uint 0x40001009 %s\n  uint 0x4000100a 0\n' "$3"
	printf '  uint 0x4000100b 1\n  uint 0x4000100c 0\n'
	printf '  string 0x60001006 job\nend\n'
}

# jobs OUT PID START FINISH...: a log of those exits.
jobs() {
	out=$1
	shift
	{ echo "header library extracct jobhost" &&
	  while [ $# -ge 3 ]; do
		job "$1" "$2" "$3" || return 1
		shift 3
	  done; } >"$out.spec" &&
	extracct_test encode "$out.spec" "$out"
}

# Central database $1 equals a fresh push of local database $2.
same_as_fresh() {
	pg_createdb "fresh_$1" &&
	extracct push --db "$2" --to "$(pg_conn "fresh_$1")" >/dev/null &&
	canon_pg "fresh_$1" >fresh.canon &&
	canon "$2" >local.canon &&
	test_cmp local.canon fresh.canon &&
	canon_pg "$1" >central.canon &&
	test_cmp fresh.canon central.canon
}

# Ingest each log of $2.. into database $1 (--host jobhost) and push
# it to central database $1 after each; every push must succeed.
ingest_push_each() {
	db=$1
	shift
	for f in "$@"; do
		extracct ingest --db "$db.db" --host jobhost "$f" >/dev/null ||
		return 1
		extracct push --db "$db.db" --to "$(pg_conn "$db")" >push.out \
		    2>push.err || { echo "push after $f:"; cat push.err;
		    return 1; }
	done
}

D=1699920000	# 2023-11-14 00:00 UTC

test_expect_success 'setup' '
	jobs a.exacct 100 $((D + 37200)) $((D + 41400)) &&
	jobs bc.exacct 200 $((D + 33000)) $((D + 45000)) \
	    300 $((D + 38400)) $((D + 45600)) &&
	extracct gen --kind proc --records 3000 --seed 41 --jitter \
	    --host jobhost -o p.exacct &&
	extracct_test split p.exacct 3 p &&
	test -s p.3 &&
	extracct gen --kind pacct --records 600 --seed 41 -o p.pacct &&
	extracct ingest --db ref.db --host jobhost p.exacct >/dev/null
'

# A job that started an hour before what central has, and one that
# started within it: the first hour is new to central, the second
# changed.
test_expect_success 'a late log: exits that start before and within the hours pushed' '
	pg_createdb late &&
	ingest_push_each late a.exacct bc.exacct &&
	grep -x "push: late.db: 1 host, [1-9][0-9]* buckets, [1-9][0-9]* rows sent" push.out &&
	same_as_fresh late late.db
'

order=0
for o in "p.1 p.2 p.3 p.pacct" "p.3 p.2 p.1 p.pacct" "p.2 p.pacct p.3 p.1" \
    "p.pacct p.3 p.1 p.2" "p.1 p.3 p.pacct p.2" "p.pacct p.2 p.1 p.3"; do
	order=$((order + 1))
	test_expect_success "ingest and push in the order $o: central as a fresh push" "
		pg_createdb order$order &&
		ingest_push_each order$order $o &&
		same_as_fresh order$order order$order.db
	"
done

test_expect_success 'a database restored from an older copy: refused, central keeps all' '
	pg_createdb restore &&
	ingest_push_each restore p.1 &&
	cp restore.db backup.db &&
	ingest_push_each restore p.2 bc.exacct &&
	canon_pg restore >before &&
	test_expect_code 2 extracct push --db backup.db \
	    --to "$(pg_conn restore)" >out 2>err &&
	cat err &&
	grep "host .jobhost.: older than central (its log 3, first ingested .* UTC, is not here): a restored copy? refused, to keep central.s facts; push the newest copy$" err &&
	! test -s out &&
	canon_pg restore >after && test_cmp before after &&
	# ... and still when the copy has read more since (its next ledger
	# ids are the newer database'"'"'s).
	extracct ingest --db backup.db --host jobhost a.exacct p.3 >/dev/null &&
	test_expect_code 2 extracct push --db backup.db \
	    --to "$(pg_conn restore)" 2>err &&
	grep "host .jobhost.: older than central" err &&
	canon_pg restore >after && test_cmp before after &&
	# The newest database goes on pushing.
	ingest_push_each restore p.3 &&
	same_as_fresh restore restore.db
'

test_expect_success 'merged into a database that pushes: its origin stays, pushes go on' '
	extracct gen --kind proc --records 400 --seed 42 --host early \
	    -o early.exacct &&
	extracct gen --kind proc --records 400 --seed 43 --host later \
	    -o later.exacct &&
	# early.db first ingested before pusher.db, later.db after.
	extracct ingest --db early.db early.exacct >/dev/null &&
	pg_createdb merged &&
	extracct ingest --db pusher.db --host jobhost p.1 >/dev/null &&
	extracct push --db pusher.db --to "$(pg_conn merged)" >/dev/null &&
	extracct ingest --db later.db later.exacct >/dev/null &&
	extracct merge -o pusher.db early.db later.db >/dev/null &&
	extracct push --db pusher.db --to "$(pg_conn merged)" >out 2>err ||
	{ cat err; return 1; } &&
	grep -x "push: pusher.db: 3 hosts, [1-9][0-9]* buckets, [1-9][0-9]* rows sent" out &&
	extracct ingest --db pusher.db --host jobhost p.2 >/dev/null &&
	extracct push --db pusher.db --to "$(pg_conn merged)" >/dev/null &&
	same_as_fresh merged pusher.db
'

test_expect_success 'merged out of it: the host is pushed from one database still' '
	canon_pg merged >before &&
	extracct merge -o early.db pusher.db >/dev/null &&
	test_expect_code 2 extracct push --db early.db \
	    --to "$(pg_conn merged)" 2>err &&
	grep "is pushed to the central server from another database" err &&
	canon_pg merged >after && test_cmp before after
'

test_expect_success 'a host name and a command not UTF-8: pushed; reports as SQLite'"'"'s' '
	bad=$(printf "b\\377d") &&
	extracct ingest --db bad.db --host "$bad" p.pacct >/dev/null &&
	pg_createdb bad &&
	extracct push --db bad.db --to "$(pg_conn bad)" >/dev/null &&
	extracct ingest --db bad.db p.1 >/dev/null &&
	# a command with a byte that is not UTF-8, and one with the four
	# characters of its escape
	sed "s/string 0x60001006 job/string 0x60001006 a\\\\xff/" a.exacct.spec >w1.spec &&
	sed "s/string 0x60001006 job/string 0x60001006 a\\\\x5cxff/" bc.exacct.spec >w2.spec &&
	extracct_test encode w1.spec w1.exacct &&
	extracct_test encode w2.spec w2.exacct &&
	extracct ingest --db bad.db w1.exacct w2.exacct >/dev/null &&
	extracct push --db bad.db --to "$(pg_conn bad)" >out 2>err ||
	{ cat err; return 1; } &&
	grep -x "push: bad.db: 2 hosts, [1-9][0-9]* buckets, [1-9][0-9]* rows sent" out &&
	for by in host host,user command host,command; do
		for f in table csv json; do
			extracct report --db bad.db --by $by --format $f >expect &&
			extracct report --db "$(pg_conn bad)" --by $by --format $f >actual &&
			test_cmp expect actual || { echo "--by $by --format $f"; return 1; }
		done
	done &&
	extracct report --db bad.db --by host >expect &&
	grep "^b.377d " expect &&
	# pushed in two steps, central is what a first push of it makes
	pg_createdb bad_fresh &&
	extracct push --db bad.db --to "$(pg_conn bad_fresh)" >/dev/null &&
	canon_pg bad >central.canon && canon_pg bad_fresh >fresh.canon &&
	test_cmp fresh.canon central.canon &&
	# (canon_pg decodes the \xNN of central: the bytes of the host)
	grep -F "$bad" central.canon >/dev/null &&
	extracct report --db bad.db --by command >expect &&
	grep "^a.377 " expect && grep "^a.134xff " expect
'

test_done
