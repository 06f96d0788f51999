#!/bin/sh
# The capture ratio, measured: snapshots every 2 s while busy
# processes start, run and exit, with kernel process accounting as the
# exit source.  Snapshots and pacct count CPU alike (the kernel's tick
# samples, in 10 ms units), so the intervals of every process that exited
# add up to its exit record exactly.  Needs root and a kernel that allows accounting; skips with
# the reason otherwise.  Accounting is one switch for the whole machine:
# it is put back as it was on every way out.
# run.sh: alone (the capture ratio is the whole machine's CPU)
. "$(dirname "$0")/../lib.sh"

acct_note_state

HOST=$(hostname)

burn() {
	awk 'BEGIN { for (i = 0; i < 1e8; i++) s += i }'
}

if [ "${BUILD_LABEL:-}" = "asan+ubsan" ]; then
	test_skip 'capture' 'a timing measurement: run with the release build (the ASan build snaps 20x slower and skews where CPU lands)'
	test_done
	exit $?
fi
if ! command -v accton >/dev/null 2>&1; then
	test_skip 'capture' 'accton is missing (apt-get install acct)'
	test_done
	exit $?
fi
: >busy.pacct
if ! accton "$TRASH/busy.pacct" >/dev/null 2>err.accton; then
	test_skip 'capture' "the kernel refused accounting: $(cat err.accton)"
	acct_restore
	test_done
	exit $?
fi
trap 'acct_restore; rm -rf "$TRASH"' EXIT
trap 'acct_restore; exit 130' INT TERM

# Workload 1: busy processes (about a second of CPU each, one of them
# multi-threaded) that start, run and exit inside a 20 s window; then
# the capture ratio over the window.  The machine is shared and noisy:
# a ratio out of bounds is measured once more before it fails the test.
busy_run() {
	# The hourly cycle in small: accounting and snapshots into closed-
	# to-be spool logs, then run rotates, ingests (snapshots first) and
	# the database gives the ratio.
	rm -rf spool c.db* && mkdir -m 700 spool &&
	: >"spool/pacct-$HOST-20000101-0000" &&
	accton "$TRASH/spool/pacct-$HOST-20000101-0000" >/dev/null || return 1
	rm -f busy.done
	snapper 20 "spool/snap-$HOST-20000101-0000" busy.done &
	snaps=$!
	sleep 3
	burn & b1=$!
	burn & b2=$!
	sleep 4
	"$EXTRACCT_TEST" threads 2 1000 >/dev/null &
	echo $! >threads.pid
	burn & b3=$!
	sleep 4
	burn
	# The last snapshot after every exit, however long a loaded
	# machine takes to run the workload.
	wait $b1 $b2 $b3 "$(cat threads.pid)"
	: >busy.done
	wait $snaps
	extracct run --spool "$TRASH/spool" --db c.db --no-snap \
	    --pacct /nonexistent >run.out &&
	cp "spool/pacct-$HOST-20000101-0000" busy.pacct &&
	extracct report --db c.db --capture --tz UTC >report &&
	awk '$1 == "total" { print $4 }' report >>busy.ratio
}

in_bounds() {
	awk -v r="$(tail -n 1 busy.ratio)" 'BEGIN { exit !(r >= 0.95 && r <= 1.05) }'
}

busy_run && { in_bounds || busy_run; }

# Workload 3: processes that burn CPU, then sleep until they exit, so
# their last interval holds no CPU: a snapshot that read more than the
# exit record says shows at once.
: >idle.pacct
accton "$TRASH/idle.pacct" >/dev/null 2>&1
: >idle.pids
for n in 3000000 10000000 30000000; do
	awk -v n=$n 'BEGIN { for (i = 0; i < n; i++) s += i
	    system("echo >marker." n "; sleep 3") }' &
	echo $! >>idle.pids
done
i=0
while [ "$(ls marker.* 2>/dev/null | wc -l)" -lt 3 ] && [ $i -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
extracct snap --cpu ticks -o idle.ticks.exacct
wait

# Workload 4: seven multi-threaded processes whose threads
# exit while the process goes on (1.2 s more of the main thread alone),
# with snapshots twice a second: the snapshots after the threads exited
# must count them, as the exit record does.
: >threads.pacct
accton "$TRASH/threads.pacct" >/dev/null 2>&1
( i=0; while [ $i -lt 12 ]; do
	"$EXTRACCT" snap -o "$TRASH/threads.exacct"; sleep 0.5; i=$((i + 1))
done ) &
tsnap=$!
: >mt.pids
for n in 2 3 4 2 3 4 5; do
	"$EXTRACCT_TEST" threads $n 300 1200 >/dev/null &
	echo $! >>mt.pids
	sleep 0.4
done
wait $tsnap
wait

: >short.pacct
accton "$TRASH/short.pacct" >/dev/null 2>&1

# Workload 2: many short processes, about 2 ms of CPU each.
snapper 10 short.exacct short.done &
spid=$!
sleep 1
short_processes 1500
: >short.done
wait $spid
acct_restore
trap 'rm -rf "$TRASH"' EXIT

test_expect_success 'busy workload, through run: capture ratio between 0.95 and 1.05' '
	cat run.out report busy.ratio &&
	grep "rotate: process accounting moved from .*/spool/pacct-$HOST-20000101-0000 to " run.out &&
	grep "spool/snap-$HOST-20000101-0000: bytes 0-" run.out &&
	in_bounds
'

# The sum of a process's intervals is its exit record, to the 10 ms
# pacct counts in: snap records the kernel's tick samples, as pacct
# does, so no snapshot reads more than the exit record will (snapcpu.h).
# Every process pacct saw exit and a snapshot saw alive is compared,
# not only the workload's.
test_expect_success 'busy workload: every exited process adds up to its exit record' '
	extracct text -H busy.pacct | awk "{ printf \"%s %s %.2f\\n\", \$4, \$1, \$7 + \$8 }" | sort >exits &&
	sqlite3 c.db "SELECT p.pid, p.start_ns / 1000000000,
	    printf(\"%.2f\", sum(coalesce(cpu_user_ns, 0) + coalesce(cpu_sys_ns, 0)) / 1e9),
	    count(*), sum(i.anomalies != 0)
	    FROM proc_intervals i JOIN procs p USING (proc_id)
	    WHERE p.finish_ns IS NOT NULL GROUP BY proc_id" |
	tr "|" " " | sort >stored &&
	awk "NR == FNR { want[\$1] = \$3; next }
	    (\$1 in want) { n++; if (\$3 + 0 >= 0.5) busy++
	      if (\$3 != want[\$1] || \$5 != 0) { print \"pid \" \$1 \": exit record \" want[\$1] \", intervals \" \$3 \", anomalies \" \$5; bad++ } }
	    END { print n \" processes compared (\" busy \" busy), \" bad + 0 \" differ\" > \"busy.diff\"; exit bad > 0 || busy < 5 }" exits stored &&
	awk -v pid="$(cat threads.pid)" "\$1 == pid && \$3 >= 1 { found = 1 } END { exit !found }" stored
'

# CPU (user + system, s) of the processes in idle.pids, from FILE.
idle_cpu() {
	extracct text -H -k proc "$1" |
	    awk "NR == FNR { want[\$1] = 1; next }
		(\$4 in want) { printf \"%s %.2f\\n\", \$4, \$7 + \$8 }" \
		idle.pids - | sort
}

# The snapshot cannot read more than the exit record (a tick may still
# land in the exit path, after it), and the intervals add up to it.
test_expect_success 'burn, then sleep: intervals add up to the exit record' '
	idle_cpu idle.pacct >exits &&
	idle_cpu idle.ticks.exacct >ticks &&
	cat exits ticks && test "$(wc -l <exits)" -eq 3 &&
	join exits ticks | awk "\$3 > \$2 || \$3 < 0.01 { bad++ } END { exit bad > 0 || NR != 3 }" &&
	extracct ingest --db i.db idle.ticks.exacct >out &&
	extracct ingest --db i.db --host "$HOST" idle.pacct >out &&
	for pid in $(cat idle.pids); do
		sqlite3 i.db "SELECT p.pid, printf(\"%.2f\",
		    sum(cpu_user_ns + cpu_sys_ns) / 1e9) FROM procs p
		    JOIN proc_intervals i USING (proc_id) WHERE p.pid = $pid
		    AND p.finish_ns IS NOT NULL AND i.anomalies = 0"
	done | tr "|" " " | sort >stored &&
	test_cmp exits stored
'

test_expect_success 'multi-threaded processes: intervals add up to the exit record' '
	extracct text -H -k proc threads.pacct |
	    awk "NR == FNR { want[\$1] = 1; next }
		(\$4 in want) { printf \"%s %.2f\\n\", \$4, \$7 + \$8 }" \
		mt.pids - | sort >exits &&
	cat exits && test "$(wc -l <exits)" -eq 7 &&
	extracct ingest --db t.db threads.exacct >out &&
	extracct ingest --db t.db --host "$HOST" threads.pacct >out &&
	for pid in $(cat mt.pids); do
		sqlite3 t.db "SELECT p.pid, printf(\"%.2f\",
		    sum(cpu_user_ns + cpu_sys_ns) / 1e9) FROM procs p
		    JOIN proc_intervals i USING (proc_id) WHERE p.pid = $pid
		    AND p.finish_ns IS NOT NULL AND i.anomalies = 0
		    GROUP BY p.proc_id HAVING count(*) >= 2"
	done | tr "|" " " | sort >stored &&
	test_cmp exits stored
'

test_expect_success 'short processes with pacct: the ratio, reported (no bound)' '
	extracct ingest --db s.db short.exacct >out &&
	extracct ingest --db s.db --host "$(hostname)" short.pacct >out &&
	extracct report --db s.db --capture --tz UTC >report &&
	ratio=$(awk "\$1 == \"total\" { print \$4 }" report) &&
	echo "$ratio" >short.ratio &&
	test -n "$ratio"
'

echo "# measured capture ratio, busy workload, pacct exits: $(tr "\n" " " <busy.ratio 2>/dev/null)"
echo "# measured capture ratio, 2 ms processes, pacct exits: $(cat short.ratio 2>/dev/null)"
echo "# intervals vs exit records: $(cat busy.diff 2>/dev/null)"
test_done
