#!/bin/sh
# push: hosts' databases into one central PostgreSQL store, exactly once
#.  The three hosts of t2700 (partial snapshots, tasks,
# flows, energy, pacct, damage, acctd exits with pacct alternates and
# losses, a RAPL stream, a snapshot of this machine with RAPL zones)
# each ingest into their own database and push; central must hold the
# union of the three, as merge does.  Then: a second push adds nothing,
# a push killed at random moments and run again is one clean push, the
# server stopped during run loses nothing, 20 hosts push at once, and
# passwords are refused where they must be.  A throw-away server
# (tests/lib-pg.sh).
# run.sh: long 90 (seconds on two idle CPUs: started first)
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/lib-pg.sh"

CANON_REF=$TRASH/alpha.db
. "$SRC/tests/lib-canon.sh"

counts_pg() {
	for t in $TABLES; do
		echo "SELECT '$t', count(*) FROM $t;"
	done >"$TRASH/.counts.sql" &&
	pg_psql "$1" -F " " -f "$TRASH/.counts.sql"
}

pg_start_or_skip

. "$SRC/tests/lib-handlogs.sh"

# Host $1's logs into database $2, each as its host's hourly run would.
ingest_host() {
	case $1 in
	alpha)
		test_expect_code 1 extracct ingest --db "$2" --host alpha \
		    alpha.proc alpha.task alpha.flow alpha.energy alpha.pacct \
		    damaged.exacct acctd.exacct alt.pacct >/dev/null 2>&1 ;;
	beta)
		extracct ingest --db "$2" --host beta --passwd beta.passwd \
		    --group beta.group beta.proc beta.task beta.flow \
		    beta.energy beta.pacct s1/cpu_energy_rapl_msr_component.log >/dev/null ;;
	gamma)
		extracct ingest --db "$2" --host gamma --passwd gamma.passwd \
		    gamma.proc gamma.task gamma.flow gamma.energy gamma.pacct \
		    snap.log >/dev/null ;;
	esac
}

test_expect_success 'setup: three hosts, each in its own database, and all in one' '
	seed=10 &&
	for h in alpha beta gamma; do
		seed=$((seed + 1)) &&
		extracct gen --kind proc --records 3000 --seed $seed --jitter --host $h -o $h.proc &&
		extracct gen --kind task --records 500 --seed $seed --host $h -o $h.task &&
		extracct gen --kind flow --records 500 --seed $seed --host $h -o $h.flow &&
		extracct gen --kind energy --records 400 --seed $seed --host $h -o $h.energy &&
		extracct gen --kind pacct --records 500 --seed $seed -o $h.pacct || return 1
	done &&
	extracct gen --kind proc --records 1500 --seed 26 --host alpha -o damaged.exacct &&
	printf "%040d" 0 | tr 0 "\377" >junk &&
	dd if=junk of=damaged.exacct bs=1 seek=20000 conv=notrunc 2>/dev/null &&
	fleet_extra_logs &&
	# The names two hosts give their ids (host_names), each its own.
	printf "root:x:0:0::/:/bin/sh\nann:x:1001:100::/:/bin/sh\n" >beta.passwd &&
	printf "staff:x:100:\n" >beta.group &&
	printf "root:x:0:0::/:/bin/sh\nbob:x:1001:100::/:/bin/sh\n" >gamma.passwd &&
	for h in alpha beta gamma; do
		ingest_host $h $h.db || return 1
	done &&
	extracct merge -o fleet.db alpha.db beta.db gamma.db >/dev/null &&
	pg_createdb central
'


test_expect_success 'three hosts push: central is the union of the three, as merge' '
	for h in alpha beta gamma; do
		extracct push --db $h.db --to "$(pg_conn central)" >out.$h ||
		return 1
	done &&
	cat out.alpha &&
	grep -x "push: alpha.db: 1 host, [1-9][0-9]* buckets, [1-9][0-9]* rows sent" out.alpha &&
	for t in $TABLES; do
		test $t = pacct_gaps ||
		test "$(pg_psql central -c "SELECT count(*) FROM $t")" -gt 0 ||
		{ echo "$t: empty"; return 1; }
	done &&
	canon alpha.db beta.db gamma.db >expect &&
	canon_pg central >actual &&
	test_cmp expect actual &&
	canon fleet.db >merged &&
	test_cmp merged actual
'

test_expect_success 'a second push adds nothing' '
	counts_pg central >counts1 && canon_pg central >canon1 &&
	for h in alpha beta gamma; do
		extracct push --db $h.db --to "$(pg_conn central)" >out ||
		return 1
		grep -x "push: $h.db: [12] hosts*, 0 buckets, 0 rows sent" out ||
		return 1
	done &&
	counts_pg central >counts2 && canon_pg central >canon2 &&
	test_cmp counts1 counts2 && test_cmp canon1 canon2 &&
	pg_psql central -c "SELECT h.ident, m.pushes, m.last_rows FROM push_marks m
	    JOIN hosts h USING (host_id) WHERE h.ident LIKE '\''name:%'\''
	    ORDER BY 1" >actual &&
	printf "name:alpha|2|0\nname:beta|2|0\nname:gamma|2|0\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'rows changed here since a push are changed there: exits, a file read further' '
	pg_createdb grow &&
	size=$(wc -c <alpha.proc) &&
	head -c $((size / 2)) alpha.proc >grow.exacct &&
	test_expect_code 1 extracct ingest --db grow.db --host alpha grow.exacct >/dev/null 2>&1 &&
	extracct push --db grow.db --to "$(pg_conn grow)" >/dev/null &&
	pg_psql grow -c "SELECT pid, start_ns FROM procs WHERE finish_ns IS NULL
	    ORDER BY 1, 2" >live1 &&
	test -s live1 &&
	size1=$(pg_psql grow -c "SELECT ingested_to FROM files") &&
	cp alpha.proc grow.exacct &&
	extracct ingest --db grow.db --host alpha grow.exacct >/dev/null &&
	extracct push --db grow.db --to "$(pg_conn grow)" >/dev/null &&
	canon grow.db >expect && canon_pg grow >actual &&
	test_cmp expect actual &&
	pg_psql grow -c "SELECT pid, start_ns FROM procs WHERE finish_ns IS NULL
	    ORDER BY 1, 2" >live2 &&
	test "$(comm -23 live1 live2 | wc -l)" -gt 0 &&
	test "$(pg_psql grow -c "SELECT ingested_to FROM files")" -gt "$size1"
'

test_expect_success 'names renamed, added or removed here are so there' '
	pg_createdb names &&
	cp beta.db nm.db &&
	extracct push --db nm.db --to "$(pg_conn names)" >/dev/null &&
	printf "root:x:0:0::/:/bin/sh\ncarl:x:1001:100::/:/bin/sh\ndee:x:1002:100::/:/bin/sh\n" >nm.passwd &&
	printf "" >nm.group &&
	extracct ingest --db nm.db --host beta --passwd nm.passwd \
	    --group nm.group beta.proc >/dev/null &&
	extracct push --db nm.db --to "$(pg_conn names)" >/dev/null &&
	pg_psql names -c "SELECT kind, id, name FROM host_names
	    ORDER BY 1, 2" >actual &&
	printf "user|0|root\nuser|1001|carl\nuser|1002|dee\n" >expect &&
	test_cmp expect actual &&
	canon nm.db >expect && canon_pg names >actual && test_cmp expect actual
'

test_expect_success 'local retention deletes history here, not there' '
	pg_createdb kept &&
	cp gamma.db ex.db &&
	extracct push --db ex.db --to "$(pg_conn kept)" >/dev/null &&
	canon_pg kept >expect && counts_pg kept >counts &&
	printf "keep_intervals_days: 30\nkeep_rollups_months: 1\n" >keep.yml &&
	n="SELECT (SELECT count(*) FROM proc_intervals) || (SELECT count(*)
	    FROM rollup_hour) || (SELECT count(*) FROM procs)" &&
	sqlite3 ex.db "$n" >before &&
	extracct -c keep.yml rollup --expire --db ex.db >out &&
	grep "^retention: ex.db: [1-9][0-9]* interval rows and [1-9][0-9]* rollup rows expired" out &&
	sqlite3 ex.db "$n" >after && ! cmp -s before after &&
	extracct push --db ex.db --to "$(pg_conn kept)" >out &&
	canon_pg kept >actual && test_cmp expect actual &&
	counts_pg kept >actual && test_cmp counts actual
'

test_expect_success 'SIGKILL at 20 random moments, run again each time: one clean push' '
	pg_createdb clean &&
	t0=$(date +%s%N) &&
	extracct push --db alpha.db --to "$(pg_conn clean)" >/dev/null &&
	t1=$(date +%s%N) && ms=$(( (t1 - t0) / 1000000 )) &&
	canon_pg clean >expect && counts_pg clean >counts &&
	pg_createdb k &&
	killed=0 && i=0 &&
	while [ $i -lt 20 ]; do
		d=$(awk -v s=$i -v ms=$ms "BEGIN { srand(s + 7); printf \"%.3f\", rand() * ms / 1000 }") &&
		{ timeout -s KILL "$d" "$EXTRACCT" push --db alpha.db --to "$(pg_conn k)" >/dev/null 2>&1; rc=$?; } &&
		{ test $rc -ne 137 || killed=$((killed + 1)); } &&
		extracct push --db alpha.db --to "$(pg_conn k)" >/dev/null &&
		canon_pg k >actual && test_cmp expect actual &&
		counts_pg k >actual && test_cmp counts actual &&
		pg_psql k -c "DROP SCHEMA public CASCADE; CREATE SCHEMA public" &&
		i=$((i + 1)) || return 1
	done &&
	echo "killed $killed times of 20 (one push: $ms ms)" &&
	test $killed -ge 10
'

test_expect_success 'server stopped during run: run says so (5), keeps the facts; the next run catches up' '
	pg_createdb hourly &&
	mkdir -m 700 sp &&
	printf "central: \"%s\"\n" "$(pg_conn hourly)" >run.yml &&
	chmod 600 run.yml &&
	extracct gen --kind pacct --records 300 --seed 71 -o sp/pacct-$(hostname)-20240101-1000 &&
	pg_stop &&
	test_expect_code 5 extracct -c run.yml run --spool sp --db r.db --no-snap --no-rotate >out 2>err &&
	cat out err &&
	grep "^sp/pacct-.*: 300 records" out &&
	grep "^extracct: push: central server: .*; nothing lost: the database keeps its facts, and the next push sends them$" err &&
	test "$(sqlite3 r.db "SELECT count(*) FROM procs")" -gt 0 &&
	pg_start &&
	extracct gen --kind pacct --records 300 --seed 72 -o sp/pacct-$(hostname)-20240101-1100 &&
	extracct -c run.yml run --spool sp --db r.db --no-snap --no-rotate \
	    --retention-days 0 >out 2>err &&
	cat out err &&
	grep "^push: r.db: 1 host, [1-9][0-9]* buckets, [1-9][0-9]* rows sent$" out &&
	grep "^retention: removed sp/pacct-.*-1000$" out &&
	canon r.db >expect && canon_pg hourly >actual && test_cmp expect actual &&
	test "$(pg_psql hourly -c "SELECT count(*) FROM procs")" -eq \
	    "$(sqlite3 r.db "SELECT count(*) FROM procs")" &&
	extracct -c run.yml run --spool sp --db r.db --no-snap --no-rotate \
	    --retention-days 0 >out 2>err &&
	grep "^push: r.db: 1 host, 0 buckets, 0 rows sent$" out &&
	canon_pg hourly >again && test_cmp expect again &&
	# Logs gone, facts kept: a third log, pushed, numbered after them.
	extracct gen --kind pacct --records 100 --seed 73 -o sp/pacct-$(hostname)-20240101-1200 &&
	extracct -c run.yml run --spool sp --db r.db --no-snap --no-rotate >out 2>err &&
	grep "^push: r.db: 1 host, [1-9][0-9]* buckets, [1-9][0-9]* rows sent$" out &&
	canon r.db >expect && canon_pg hourly >actual && test_cmp expect actual &&
	sqlite3 r.db "SELECT proc_id, pid, start_ns FROM procs ORDER BY 1" >l.ids &&
	pg_psql hourly -F "|" -c "SELECT proc_id, pid, start_ns FROM procs ORDER BY 1" >c.ids &&
	test_cmp l.ids c.ids
'

test_expect_success 'the server down: push says so, exits 5, and changes nothing here' '
	cp alpha.db down.db && sqlite3 down.db "SELECT count(*) FROM procs" >before &&
	pg_kill &&
	test_expect_code 5 extracct push --db down.db --to "$(pg_conn central)" 2>err &&
	grep "^extracct: push: central server: connection to server on socket .* failed: " err &&
	pg_start &&
	sqlite3 down.db "SELECT count(*) FROM procs" >after &&
	test_cmp before after
'

test_expect_success 'the server killed in the middle of pushes: exit 5, the next push completes them' '
	extracct gen --kind proc --records 10000 --seed 91 --host big -o big.exacct &&
	extracct ingest --db big.db big.exacct >/dev/null &&
	pg_createdb bigclean &&
	t0=$(date +%s%N) &&
	extracct push --db big.db --to "$(pg_conn bigclean)" >/dev/null &&
	t1=$(date +%s%N) && ms=$(( (t1 - t0) / 1000000 )) &&
	canon_pg bigclean >expect &&
	i=0 && cut=0 &&
	while [ $i -lt 3 ]; do
		pg_createdb mid$i &&
		d=$(awk -v ms=$ms -v i=$i "BEGIN { printf \"%.3f\", ms * (0.3 + i * 0.2) / 1000 }") &&
		{ extracct push --db big.db --to "$(pg_conn mid$i)" >out 2>err & } &&
		sleep $d && pg_kill &&
		{ wait $! && rc=0 || rc=$?; } &&
		cat err &&
		{ test $rc -eq 0 || { test $rc -eq 5 && cut=$((cut + 1)) &&
		  grep "^extracct: push: central server: .*; nothing lost" err; }; } &&
		pg_start &&
		extracct push --db big.db --to "$(pg_conn mid$i)" >/dev/null &&
		canon_pg mid$i >actual && test_cmp expect actual &&
		i=$((i + 1)) || return 1
	done &&
	echo "$cut of 3 pushes cut by the server (one push: $ms ms)" &&
	test $cut -ge 1
'

test_expect_success '20 hosts push at once: all complete, central is their union' '
	pg_createdb fleet20 &&
	i=1 && dbs= &&
	while [ $i -le 20 ]; do
		extracct gen --kind proc --records 150 --seed $((100 + i)) --jitter --host h$i -o h$i.exacct &&
		extracct gen --kind energy --records 40 --seed $((100 + i)) --host h$i -o h$i.energy &&
		extracct ingest --db h$i.db h$i.exacct h$i.energy >/dev/null &&
		dbs="$dbs h$i.db" && i=$((i + 1)) || return 1
	done &&
	for db in $dbs; do
		{ extracct push --db $db --to "$(pg_conn fleet20)" >$db.out 2>&1; echo $? >$db.rc; } &
	done &&
	wait &&
	for db in $dbs; do
		test "$(cat $db.rc)" -eq 0 || { cat $db.out; return 1; }
	done &&
	canon $dbs >expect && canon_pg fleet20 >actual && test_cmp expect actual &&
	test "$(pg_psql fleet20 -c "SELECT count(*) FROM hosts")" -eq 20 &&
	test "$(pg_psql fleet20 -c "SELECT version FROM extracct_meta")" -eq 8
'

test_expect_success 'a host is pushed from one database only' '
	cp alpha.db other.db &&
	sqlite3 other.db "UPDATE files SET first_ingest_ns = first_ingest_ns - 1" &&
	test_expect_code 2 extracct push --db other.db --to "$(pg_conn central)" 2>err &&
	grep "host .alpha. (name:alpha) is pushed to the central server from another database" err &&
	cp alpha.db copy.db &&
	extracct push --db copy.db --to "$(pg_conn central)" >out &&
	grep " 0 buckets, 0 rows sent$" out &&
	# A database that has read no file yet pushes its host only, and
	# goes on pushing once it has.
	pg_createdb first &&
	cp alpha.db first.db &&
	# (proc_intervals is a view: its rows are in procs and this table.)
	for t in $TABLES proc_interval_rows proc_last task_last energy_last; do
		test $t = proc_intervals ||
		sqlite3 first.db "DELETE FROM $t" || return 1
	done &&
	sqlite3 first.db "INSERT INTO hosts (name, ident) VALUES
	    ('\''first'\'', '\''name:first'\'')" &&
	extracct push --db first.db --to "$(pg_conn first)" >out &&
	grep "^push: first.db: 1 host, 0 buckets, 0 rows sent$" out &&
	extracct gen --kind pacct --records 50 --seed 81 -o first.pacct &&
	extracct ingest --db first.db --host first first.pacct >/dev/null &&
	extracct push --db first.db --to "$(pg_conn first)" >out &&
	grep "^push: first.db: 1 host, [1-9][0-9]* buckets, [1-9][0-9]* rows sent$" out &&
	canon first.db >expect && canon_pg first >actual && test_cmp expect actual &&
	# but an empty database never takes over a host with facts.
	sqlite3 first.db "DELETE FROM files" &&
	test_expect_code 2 extracct push --db first.db --to "$(pg_conn first)" 2>err &&
	grep "is pushed to the central server from another database" err
'

test_expect_success 'text that is not UTF-8 is escaped byte by byte; tabs, newlines, backslashes kept' '
	cp alpha.db bytes.db &&
	sqlite3 bytes.db "UPDATE procs SET command = CAST(X'\''61ff09625c0a63'\'' AS TEXT)
	    WHERE proc_id = 1" &&
	pg_createdb bytes &&
	extracct push --db bytes.db --to "$(pg_conn bytes)" >/dev/null &&
	printf "%s\n" "SELECT command = E'\''a\\\\xff\\tb\\\\\\nc'\'' FROM procs WHERE proc_id = 1" >q.sql &&
	cat q.sql &&
	test "$(pg_psql bytes -f q.sql)" = t
'

test_expect_success 'a central schema newer than this extracct is refused' '
	pg_createdb newer &&
	extracct push --db beta.db --to "$(pg_conn newer)" >/dev/null &&
	pg_psql newer -c "UPDATE extracct_meta SET version = 99" &&
	test_expect_code 5 extracct push --db beta.db --to "$(pg_conn newer)" 2>err &&
	grep "central server: schema version 99 is newer than this extracct.s 8: upgrade extracct" err
'

test_expect_success 'credentials: no password in --to or a readable configuration' '
	test_expect_code 2 extracct push --db alpha.db --to "$(pg_conn central) password=secret" 2>err &&
	grep "^extracct: push: alpha.db: central server: the connection string holds a password: put it in ~/.pgpass" err &&
	test_expect_code 2 extracct push --db alpha.db \
	    --to "postgresql://extracct:secret@/central?host=$PGROOT" 2>err &&
	grep "holds a password" err &&
	printf "central: \"%s password=secret\"\n" "$(pg_conn central)" >pw.yml &&
	chmod 644 pw.yml &&
	test_expect_code 2 extracct -c pw.yml push --db alpha.db 2>err &&
	grep "holds a password" err &&
	extracct -c pw.yml config >out &&
	grep "^central: \".* password=\*\*\*\"$" out && ! grep secret out &&
	chmod 600 pw.yml &&
	extracct -c pw.yml push --db alpha.db >out &&
	grep " 0 buckets, 0 rows sent$" out &&
	test_expect_code 2 extracct push --db alpha.db --to "host='\''unclosed" 2>err &&
	grep "^extracct: push: alpha.db: central server: the connection string cannot be parsed: unterminated quoted string" err
'

test_expect_success 'credentials: a libpq service (PGSERVICE, service=) and the environment' '
	printf "[fleet]\nhost=%s\nport=5432\nuser=extracct\ndbname=central\n" "$PGROOT" >svc.conf &&
	PGSERVICEFILE=$PWD/svc.conf PGSERVICE=fleet extracct push --db alpha.db --to "" >out &&
	grep " 0 buckets, 0 rows sent$" out &&
	PGSERVICEFILE=$PWD/svc.conf extracct push --db alpha.db --to service=fleet >out &&
	grep " 0 buckets, 0 rows sent$" out &&
	PGDATABASE=central extracct push --db alpha.db >out &&
	grep " 0 buckets, 0 rows sent$" out
'

NOPQ=${EXTRACCT_NOPQ:-$SRC/build/nopq/extracct}
[ -x "$NOPQ" ] || NOPQ=$SRC/build/portable/extracct
if [ -x "$NOPQ" ]; then
	test_expect_success 'built without libpq: push says so, exit 6' '
		test_expect_code 6 "$NOPQ" push --db alpha.db --to "$(pg_conn central)" 2>err &&
		grep -x "extracct: push: this extracct was built without PostgreSQL support (libpq): it cannot push" err &&
		test_expect_code 6 "$NOPQ" -c run.yml run --spool sp --db r.db --no-snap --no-rotate >out 2>err &&
		grep "built without PostgreSQL support" err
	'
elif [ "${CI:-}" = true ]; then
	test_expect_success 'built without libpq: a binary to test' 'false'
else
	test_skip 'built without libpq' 'make NO_LIBPQ=1 build/nopq/extracct first'
fi

test_done
