#!/bin/sh
# On fixed data: a process whose snapshot CPU dips and comes
# back (the kernel thread kdamond.0 read 21.74, 6.81, 21.74 s in
# one-second snapshots) counts no usage for the way back up, and a
# process read by two CPU measures (tick samples, runtime) is never
# differenced across the change.  report --capture names the processes
# behind a window out of tolerance.  No kernel state is touched.
. "$(dirname "$0")/../lib.sh"

T0=1796000000			# the first snapshot, epoch seconds

# A snapshot log from lines "sys SECOND BUSY_TICKS" and
# "proc PID COMMAND START_S SECOND SYS_CENTISECONDS SOURCE" (SOURCE: 1
# tick samples, 2 runtime, - none), as snap writes them.
snaplog() {
	awk -v t0=$T0 '
	BEGIN { print "header library extracct flip" }
	$1 == "sys" {
		print "group 0xf1000001"
		printf "  uint 0x41000201 %d000000000\n", t0 + $2
		printf "  uint 0x41000202 %d\n", $3
		print "  uint 0x41000203 0"
		print "  uint 0x41000204 0"
		printf "  uint 0x41000205 %d\n", 200 * $2
		print "  uint 0x3100020a 100"
		printf "  uint 0x4100020b %d\n", t0 - 3600
		print "  uint 0x3100020c 2"
		print "end"
	}
	$1 == "proc" {
		print "group 0xf0000106"
		printf "  uint 0x30001000 %d\n", $2
		print "  uint 0x30001001 0"
		print "  uint 0x30001002 0"
		print "  uint 0x4000100b 0"
		print "  uint 0x4000100c 0"
		printf "  uint 0x4000100d %d\n", int($6 / 100)
		printf "  uint 0x4000100e %d0000000\n", $6 % 100
		printf "  uint 0x40001007 %d\n", t0 + $4
		print "  uint 0x40001008 0"
		printf "  uint 0x40001009 %d\n", t0 + $5
		print "  uint 0x4000100a 0"
		printf "  string 0x60001006 %s\n", $3
		print "  uint 0x3000101f 2"
		if ($7 != "-")
			printf "  uint 0x31000110 %d\n", $7
		print "end"
	}' "$1" >"$1.spec" && extracct_test encode "$1.spec" "$2"
}

# Nine one-second snapshots on a 2-CPU host, one CPU-second busy each
# second.  pid 77 dips as the issue's kdamond.0 did (same measure);
# pid 78 alternates between the two measures; pid 100 does the work.
: >flip.in
s=0
for cs77 in 2174 681 2174 2175 681 2175 2175 681 2176; do
	case $((s % 2)) in
	0) cs78=681; src78=1 ;;
	*) cs78=2174; src78=2 ;;
	esac
	echo "sys $s $((100 * s))" >>flip.in
	echo "proc 77 kdamond.0 -600 $s $cs77 1" >>flip.in
	echo "proc 78 kworker -600 $s $((cs78 + s)) $src78" >>flip.in
	echo "proc 100 busy -1 $s $((100 * s - 2 * s)) 1" >>flip.in
	s=$((s + 1))
done

test_expect_success 'a snapshot log with the flips' '
	snaplog flip.in flip.exacct &&
	extracct check flip.exacct &&
	test "$(extracct dump flip.exacct | grep -c cpu-source)" -eq 27
'

# pid 77's CPU, s, summed over its intervals after the first snapshot.
cpu_after_first() {
	sqlite3 "$1" "SELECT printf('%.2f', coalesce(sum(i.cpu_sys_ns), 0) / 1e9),
	    coalesce(max(i.cpu_sys_ns * 1.0 / (i.t1_ns - i.t0_ns)), 0) <= 1,
	    sum(i.anomalies != 0)
	    FROM proc_intervals i JOIN procs p USING (proc_id)
	    WHERE p.pid = $2 AND i.t0_ns >= $T0 * 1000000000"
}

test_expect_success 'a dip and the way back: no usage for the way back up' '
	extracct ingest --db one.db flip.exacct >out &&
	cpu_after_first one.db 77 >got &&
	cat got &&
	echo "0.02|1|3" >want &&
	test_cmp want got
'

test_expect_success 'two measures: never differenced, the change flagged' '
	sqlite3 one.db "SELECT count(*), sum(i.cpu_sys_ns IS NULL),
	    sum((i.anomalies >> 46) & 1), sum((i.anomalies >> 9) & 1)
	    FROM proc_intervals i JOIN procs p USING (proc_id)
	    WHERE p.pid = 78 AND i.t0_ns >= $T0 * 1000000000" >got &&
	cat got &&
	echo "8|8|8|8" >want &&
	test_cmp want got
'

# The same log in three runs: the high-water baseline and the measure
# live in proc_last from one run to the next.
test_expect_success 'the same, ingested in three runs' '
	extracct_test split flip.exacct 3 part &&
	for i in 1 2 3; do
		extracct ingest --db three.db part.$i >out || return 1
	done &&
	cpu_after_first three.db 77 >got &&
	echo "0.02|1|3" >want &&
	test_cmp want got &&
	sqlite3 three.db "SELECT sum(i.cpu_sys_ns IS NULL)
	    FROM proc_intervals i JOIN procs p USING (proc_id)
	    WHERE p.pid = 78 AND i.t0_ns >= $T0 * 1000000000" >got &&
	echo 8 >want &&
	test_cmp want got
'

test_expect_success 'report --capture: within tolerance, nothing named' '
	extracct report --db one.db --capture --tz UTC >report &&
	cat report &&
	awk "\$1 == \"total\" { r = \$4 } END { exit !(r >= 0.95 && r <= 1.05) }" report &&
	! grep "^  top:" report
'

# A process whose CPU really jumps by 10 s in a one-second window on
# two CPUs: the window is out of tolerance and names it first.
test_expect_success 'report --capture: a window out of tolerance names its processes' '
	sed "s/^proc 100 busy -1 5 490 1\$/proc 100 busy -1 5 1490 1/;
	     s/^proc 100 busy -1 \([678]\) \([0-9]*\) 1\$/proc 100 busy -1 \1 1\2 1/" \
	    flip.in >jump.in &&
	grep "proc 100 busy -1 5 1490 1" jump.in &&
	snaplog jump.in jump.exacct &&
	extracct ingest --db jump.db jump.exacct >out &&
	extracct report --db jump.db --capture --tz UTC >report &&
	cat report &&
	grep -A2 "^flip  *2026-11-30 00:53:24 2026-11-30 00:53:25 " report >win &&
	sed -n 2p win | grep "^  ended: no exit recorded in it$" &&
	sed -n 3p win | grep "^  top: pid 100 busy, started 2026-11-30 00:53:19: 10.980 s$" &&
	test "$(grep -c "^  top:" report)" -eq 1
'

test_expect_success 'report --capture --tolerance: a tight one names every window' '
	extracct report --db jump.db --capture --tolerance 0.001 --tz UTC >report &&
	grep "outside 0.999..1.001" report &&
	test "$(grep -c "^  top: pid 100 busy," report)" -eq 8 &&
	test_must_fail extracct report --db jump.db --capture --tolerance 1.5 2>err &&
	grep "tolerance" err
'

test_done
