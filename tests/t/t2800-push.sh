#!/bin/sh
# push: hosts' databases into one central PostgreSQL store, exactly once
# (issue 16).  The three hosts of t2700 (partial snapshots, tasks,
# flows, energy, pacct, damage, acctd exits with pacct alternates and
# losses, a RAPL stream, a snapshot of this machine with RAPL zones)
# each ingest into their own database and push; central must hold the
# union of the three, as merge does.  Then: a second push adds nothing,
# a push killed at random moments and run again is one clean push, the
# server stopped during run loses nothing, 20 hosts push at once, and
# passwords are refused where they must be.  A throw-away server
# (tests/pg.sh).
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/pg.sh"

# The fact tables (not the working state of live processes: *_last).
TABLES="hosts files damage procs proc_intervals proc_alt_exits tasks
    task_intervals flow_records flows sysload lost pacct_gaps energy_procs
    energy_intervals metric_series metric_samples metric_gaps rapl_zones
    rapl_intervals"

# Each row with its owner's natural key in place of the ids (t2700's),
# the columns of the local table but the ids and the times of ingest;
# $2 = pg: the same of a central database, where a child joins its
# parent by (host_id, id).
owner() {
	u=$2
	case $1 in
	hosts) echo "" ;;
	files) echo "h.ident|LEFT JOIN hosts h USING (host_id)" ;;
	damage) echo "f.path, f.kind|JOIN files f USING (${u}file_id)" ;;
	proc_*) echo "h.ident, p.pid, p.start_ns|JOIN procs p USING (${u}proc_id) JOIN hosts h USING (host_id)" ;;
	task_*) echo "h.ident, p.taskid, p.start_ns|JOIN tasks p USING (${u}task_id) JOIN hosts h USING (host_id)" ;;
	energy_intervals) echo "h.ident, p.pid, p.start_ns|JOIN energy_procs p USING (${u}eproc_id) JOIN hosts h USING (host_id)" ;;
	metric_samples|metric_gaps) echo "h.ident, p.metric, p.detail|JOIN metric_series p USING (${u}series_id) JOIN hosts h USING (host_id)" ;;
	rapl_intervals) echo "h.ident, p.zone|JOIN rapl_zones p USING (${u}zone_id) JOIN hosts h USING (host_id)" ;;
	*) echo "h.ident|JOIN hosts h USING (host_id)" ;;
	esac
}

# canon DB...: the dump of local databases, together; canon_pg NAME:
# of a central one (the column lists from the local schema of $COLS_DB).
canon() {
	for t in $TABLES; do
		o=$(owner $t) && key=${o%%|*} && join=${o#*|} &&
		c=$(cols $t) && echo "== $t" &&
		for db in "$@"; do
			sqlite3 "$db" "SELECT ${key:+$key, }$c FROM $t x $join" ||
			return 1
		done | sort || return 1
	done
}

cols() {
	sqlite3 "$COLS_DB" "SELECT group_concat('x.' || name, ', ')
	    FROM pragma_table_info('$1') WHERE name NOT IN ('host_id',
	    'file_id', 'proc_id', 'task_id', 'eproc_id', 'series_id',
	    'zone_id', 'first_ingest_ns', 'last_ingest_ns')"
}

canon_pg() {
	for t in $TABLES; do
		o=$(owner $t "host_id, ") && key=${o%%|*} && join=${o#*|} &&
		echo "== $t" &&
		pg_psql "$1" -F "|" -c "SELECT ${key:+$key, }$(cols $t)
		    FROM $t x $join" | sort || return 1
	done
}

counts_pg() {
	for t in $TABLES; do
		echo "$t $(pg_psql "$1" -c "SELECT count(*) FROM $t")" || return 1
	done
}

pg_start_or_skip
COLS_DB=alpha.db

# One acctd exit record of PID started at START_S (t2003's).
acctd_rec() {
	echo "group 0xf0000100"
	echo "  uint 0x30001000 $1"
	echo "  uint 0x40001007 $2"
	echo "  uint 0x40001008 60000000"
	echo "  uint 0x40001009 $(($2 + 1))"
	echo "  uint 0x4000100a 60000000"
	echo "  uint 0x4000100b 0"
	echo "  uint 0x4000100c 5000000"
	echo "  string 0x60001006 worker"
	echo "end"
}

# N pacct v3 records of the same processes, as t2003 writes them.
pacct_recs() {
	awk -v n="$1" "function le32(v) {
		printf \"%c%c%c%c\", v % 256, int(v / 256) % 256,
		    int(v / 65536) % 256, int(v / 16777216) % 256 }
	    function zeros(k) { while (k-- > 0) printf \"%c\", 0 }
	    BEGIN { for (i = 0; i < n; i++) {
		printf \"%c%c\", 0, 3; zeros(14)
		le32(200000 + i); le32(1); le32(1700000000 + i)
		printf \"%c%c%c%c\", 0, 0, 128, 63
		printf \"%c%c\", 1, 0; zeros(14)
		printf \"worker\"; zeros(10)
	    } }"
}

zone() {	# DIR NAME ENERGY
	mkdir -p "pc/$1" && echo "$2" >"pc/$1/name" &&
	echo "$3" >"pc/$1/energy_uj" &&
	echo 262143328850 >"pc/$1/max_energy_range_uj"
}

# Host $1's logs into database $2, each as its host's hourly run would.
ingest_host() {
	case $1 in
	alpha)
		test_expect_code 1 extracct ingest --db "$2" --host alpha \
		    alpha.proc alpha.task alpha.flow alpha.energy alpha.pacct \
		    damaged.exacct acctd.exacct alt.pacct >/dev/null 2>&1 ;;
	beta)
		extracct ingest --db "$2" --host beta beta.proc beta.task \
		    beta.flow beta.energy beta.pacct \
		    s1/cpu_energy_rapl_msr_component.log >/dev/null ;;
	gamma)
		extracct ingest --db "$2" --host gamma gamma.proc gamma.task \
		    gamma.flow gamma.energy gamma.pacct snap.log >/dev/null ;;
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
	{ echo "header library extracct alpha" &&
	  i=0 && while [ $i -lt 200 ]; do
		acctd_rec $((200000 + i)) $((1700000000 + i)) || return 1
		if [ $((i % 100)) -eq 50 ]; then
			echo "group 0xf1000002" &&
			echo "  uint 0x41000301 $((1700000000 + i))000000000" &&
			echo "  uint 0x41000302 $((i / 50))" && echo "end"
		fi
		i=$((i + 1))
	  done; } >acctd.spec &&
	extracct_test encode acctd.spec acctd.exacct &&
	pacct_recs 200 >alt.pacct &&
	mkdir s1 &&
	awk "BEGIN { t = 1700000000000000
	    for (i = 0; i < 600; i++) {
		if (i % 97 == 96) continue
		printf \"%.0f %d Package_0\\n\", t + i * 100000, 1000000 + i * 5000
	    } }" >s1/cpu_energy_rapl_msr_component.log &&
	zone intel-rapl:0 package-0 1000 && zone intel-rapl:0:1 dram 500 &&
	for i in 1 2 3; do
		extracct snap -o snap.log --cpu runtime --powercap pc >/dev/null &&
		echo $((i * 700000)) >pc/intel-rapl:0/energy_uj &&
		echo $((i * 300000)) >pc/intel-rapl:0:1/energy_uj || return 1
	done &&
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

test_done
