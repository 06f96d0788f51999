#!/bin/sh
# Crash safety: an ingest killed with SIGKILL at any moment of its run,
# and run again, ends with the same database as one uninterrupted run:
# every table (db_canon), for every kind of input at once (exacct proc,
# task and flow logs, pacct, snapshot logs with system and RAPL records,
# acctd exits with loss records and the pacct exits of the same processes
# (alternates), energy snapshots, metric-provider streams with gaps, and
# a damaged log).
#
# 20 runs from an empty database, each killed at a moment drawn from its
# own twentieth of a whole run's time (startup, migration, any chunk, a
# commit, the last file, the close), then resumed; every other one killed
# a second time in its resumed run.  The kills must land all through the
# run: how much of the input each left committed is checked too.
# run.sh: long 52 (seconds on two idle CPUs: started first)
. "$(dirname "$0")/../lib.sh"

. "$SRC/tests/lib-handlogs.sh"

now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

# The logs, in the order ingest is given them.
INPUTS="snap.log big.exacct task.exacct flow.exacct acctd.exacct alt.pacct
    gen.pacct energy.exacct damaged.exacct
    s1/cpu_energy_rapl_msr_component.log s2/cpu_utilization_procfs_system.log"

ingest_all() {
	"$EXTRACCT" ingest --db "$1" --chunk 150 --host althost $INPUTS
}

test_expect_success 'setup: logs of every kind' '
	extracct gen --kind proc --records 12000 --seed 21 --jitter -o big.exacct &&
	extracct gen --kind task --records 2000 --seed 22 -o task.exacct &&
	extracct gen --kind flow --records 2000 --seed 23 -o flow.exacct &&
	extracct gen --kind pacct --records 2000 --seed 24 -o gen.pacct &&
	extracct gen --kind energy --records 1500 --seed 25 -o energy.exacct &&
	extracct gen --kind proc --records 1500 --seed 26 --host dmg -o damaged.exacct &&
	printf "%040d" 0 | tr 0 "\377" >junk &&
	dd if=junk of=damaged.exacct bs=1 seek=20000 conv=notrunc 2>/dev/null &&
	dd if=junk of=damaged.exacct bs=1 seek=60000 conv=notrunc 2>/dev/null &&
	zone intel-rapl:0 package-0 1000 && zone intel-rapl:0:1 dram 500 &&
	for i in 1 2 3; do
		extracct snap -o snap.log --cpu runtime --powercap pc >/dev/null &&
		echo $((i * 700000)) >pc/intel-rapl:0/energy_uj &&
		echo $((i * 300000)) >pc/intel-rapl:0:1/energy_uj || return 1
	done &&
	acctd_log althost 400 1 &&
	pacct_recs 400 >alt.pacct &&
	test "$(wc -c <alt.pacct)" -eq 25600 &&
	extracct text -H alt.pacct >alt.txt &&
	test "$(grep -c " worker$" alt.txt)" -eq 400 &&
	mkdir s1 s2 &&
	awk "BEGIN { t = 1700000000000000
	    for (i = 0; i < 1500; i++) {
		if (i % 97 == 96) continue	# a dropped sample: a gap
		printf \"%.0f %d Package_0\\n\", t + i * 100000, 1000000 + i * 5000
		printf \"%.0f %d DRAM_0\\n\", t + i * 100000 + 40, 500000 + i * 1000
	    } }" >s1/cpu_energy_rapl_msr_component.log &&
	awk "BEGIN { t = 1700000000000000
	    for (i = 0; i < 3000; i++)
		printf \"%.0f %d\\n\", t + i * 100000, 1000 + (i * 37) % 9000 }" \
	    >s2/cpu_utilization_procfs_system.log
'

test_expect_success 'an uninterrupted run fills every table' '
	test_expect_code 1 ingest_all ref.db >out 2>err &&
	: >times &&
	for i in 1 2 3; do
		rm -f t.db* && t0=$(now_ms) &&
		test_expect_code 1 ingest_all t.db >out 2>err &&
		echo $(($(now_ms) - t0)) >>times || return 1
	done &&
	sort -n times | head -n 1 >duration &&
	echo "an uninterrupted run: $(cat duration) ms" &&
	db_canon ref.db >ref &&
	for t in hosts files damage procs proc_intervals proc_last tasks \
	    task_intervals task_last flow_records flows sysload proc_alt_exits \
	    lost energy_procs energy_intervals energy_last metric_series \
	    metric_samples metric_gaps rapl_zones rapl_intervals rollup_hour \
	    rollup_day rollup_host; do
		n=$(sqlite3 ref.db "SELECT count(*) FROM $t") &&
		echo "$t $n" && test "$n" -gt 0 || return 1
	done &&
	# (and pacct_gaps, which run fills, not ingest: t2330; host_names,
	# from passwd files; expiry, from retention; host_label_work, empty
	# but while hosts change; cgroups, cgroup_last, cgroup_intervals,
	# from snapshots and exits on a live host: t2240, t2250)
	test "$(sqlite3 ref.db "SELECT count(*) FROM sqlite_master
	    WHERE type = '\''table'\''")" -eq 32 &&
	test "$(sqlite3 ref.db "SELECT count(*) FROM host_label_work")" -eq 0 &&
	wc -c $INPUTS | awk "\$2 == \"total\" { print \$1 }" >total
'

# Run an ingest into k.db and SIGKILL it once "$@" (one of the waits
# below) returns; "killed", or "done" where it had ended first.
kill_when() {
	"$EXTRACCT" ingest --db k.db --chunk 150 --host althost $INPUTS \
	    >/dev/null 2>&1 &
	pid=$!
	"$@"
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	if [ $? -eq 137 ]; then echo killed; else echo done; fi
}

# Wait $1 ms.
ms_pass() {
	sleep "$(awk -v m="$1" "BEGIN { printf \"%.3f\", m / 1000 }")"
}

# The bytes of the input k.db holds committed (sqlite3 options "$@").
committed_bytes() {
	sqlite3 "$@" k.db "SELECT coalesce(sum(ingested_to), 0) FROM files" \
	    2>/dev/null
}

# Wait until k.db holds $1 bytes of the input committed, however fast
# the machine runs the ingest, or it has ended: a read-only look, in WAL
# mode beside the writer (0 before the ledger is there).
committed_reach() {
	got=0
	while kill -0 $pid 2>/dev/null && [ "$got" -lt "$1" ]; do
		sleep 0.002
		got=$(committed_bytes -readonly) || got=0
		[ -n "$got" ] || got=0
	done
}

# Run K of the kill test: an ingest into a fresh k.db killed at share F
# of a whole run's time (dur), or, with a third argument, once it has
# committed share F of the input; every other one killed again in its
# resumed run, then resumed to the end: its database must be ref.  The
# committed input at the first kill goes into progress.
killed_run() {
	# A run that ends before its kill tested nothing: the machine is
	# faster now than when timed; try earlier.
	try=0 && r=done &&
	while [ $r = done ] && [ $try -lt 4 ]; do
		rm -f k.db k.db-wal k.db-shm k.db-lock &&
		if [ $# -ge 3 ]; then
			ms="committed $2 of the input" &&
			r=$(kill_when committed_reach $(awk -v f=$2 \
			    -v t=$total "BEGIN { printf \"%d\", f * t }"))
		else
			ms=$(awk -v f=$2 -v d=$dur \
			    "BEGIN { printf \"%d\", f * d }") &&
			r=$(kill_when ms_pass $ms) &&
			if [ $r = done ]; then dur=$((dur * 85 / 100)); fi
		fi &&
		try=$((try + 1)) || return 1
	done &&
	if [ "$r" = killed ]; then
		killed=$((killed + 1)) &&
		{ committed_bytes >>progress || echo 0 >>progress; }
	fi &&
	if [ $(($1 % 2)) -eq 0 ]; then
		r=$(kill_when ms_pass $(awk -v k=$1 -v d=$dur "BEGIN {
		    srand(k * 104729); printf \"%d\", rand() * d / 2 }")) &&
		if [ "$r" = killed ]; then killed=$((killed + 1)); fi
	fi &&
	{ "$EXTRACCT" ingest --db k.db --chunk 150 --host althost \
	    $INPUTS >out 2>err; rc=$?; } &&
	# (1: the damaged log, unless a killed run had stored it)
	test $rc -le 1 &&
	db_canon k.db >actual &&
	if cmp -s ref actual; then same=$((same + 1)); else
		echo "run $1: killed at $ms ms, then:"; test_cmp ref actual
	fi
}

# The tenths of the input committed at the first kills, into tenths.
spread() {
	awk -v t=$total "{ print int(\$1 * 10 / t) }" progress | sort -nu >tenths
}

# 20 runs at moments drawn from each twentieth of a run's time.  On a
# loaded machine a run's time wanders from the one measured, and time is
# not spent evenly over the input (the first chunks of the logs of
# long-lived processes add many rollup hours), so the kills can bunch:
# then one more run for each tenth of the input 1 to 9 that no kill
# left committed, killed once it has committed the middle of that tenth
# (each must give ref's database too).
test_expect_success 'killed anywhere in 20 runs, resumed: the same database every time' '
	dur=$(cat duration) && total=$(cat total) &&
	: >progress && killed=0 && same=0 &&
	for k in $(seq 1 20); do
		killed_run $k $(awk -v k=$k "BEGIN { srand(k * 7919)
		    printf \"%.4f\", (k - 1 + rand()) / 20 }") || return 1
	done &&
	runs=20 && spread &&
	for tenth in 1 2 3 4 5 6 7 8 9; do
		grep -qx $tenth tenths && continue
		runs=$((runs + 1)) &&
		killed_run $runs 0.${tenth}5 by-commit || return 1
	done &&
	echo "$killed kills landed in a live ingest, $same of $runs databases the same" &&
	test $same -eq $runs &&
	test $killed -ge 20 &&
	spread &&
	echo "committed at the first kills, in tenths of the input: $(tr "\\n" " " <tenths)" &&
	test "$(line_count tenths)" -ge 6 &&
	test "$(head -n 1 tenths)" -eq 0 && test "$(tail -n 1 tenths)" -ge 8
'

test_done
