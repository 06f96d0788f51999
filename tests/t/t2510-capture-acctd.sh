#!/bin/sh
# Perfect capture, measured: acctd and kernel process accounting both
# record the exits of one workload (1,200 short processes of about 2 ms
# of CPU each, a multi-threaded busy process, and a process alive
# throughout) while snap runs every 2 s, 22 s at least and until the
# workload is done; then run rotates and ingests it all.  acctd's
# exits close the processes (its CPU is the kernel's tick samples in
# microseconds for short threads, the samples /proc/stat's busy time is
# made of, and the scheduler's runtime for threads of 100 ms or more);
# pacct's become alternates, and the report shows what the ratio would
# have been with them (its 10 ms units, truncated per
# process, lose the short processes).  The one process pacct alone may
# close is the rotating extracct itself: acct(2) writes a record for the
# caller into the file it switches away from.  Needs root, a
# kernel that allows accounting and taskstats, and faketime (run must
# name its new logs after another minute than the old ones).
# run.sh: alone (the capture ratio is the whole machine's CPU)
. "$(dirname "$0")/../lib.sh"

acct_note_state
HOST=$(hostname)
APID=

skip_all() {
	test_skip 'capture with acctd' "$1"
	test_done
	exit $?
}

[ "${BUILD_LABEL:-}" != "asan+ubsan" ] ||
	skip_all 'a timing measurement: run with the release build (the ASan build snaps 20x slower and skews where CPU lands)'
[ "$(id -u)" -eq 0 ] || skip_all 'taskstats and accounting need root'
command -v accton >/dev/null 2>&1 ||
	skip_all 'accton is missing (apt-get install acct)'
command -v faketime >/dev/null 2>&1 ||
	skip_all 'faketime is missing (apt-get install faketime)'

mkdir -m 700 spool
long=
trap 'kill "$APID" $long 2>/dev/null; acct_restore; rm -rf "$TRASH"' EXIT
trap 'exit 130' INT TERM
acctd_start spool c.pid ||
	skip_all "the kernel refused taskstats: $(cat c.pid.err)"
stamp=$(acctd_log c.pid | sed "s/^acctd-$HOST-//")
: >"spool/pacct-$HOST-$stamp"
accton "$TRASH/spool/pacct-$HOST-$stamp" >/dev/null 2>err.accton ||
	skip_all "the kernel refused accounting: $(cat err.accton)"
printf 'acctd_pidfile: "%s"\n' "$TRASH/c.pid" >c.yml

# snap reads the configuration to know that acctd runs, and records the
# CPU time acctd's records hold (snapcpu.h).
# The last snapshot comes after the workload's last exit, however slow a
# loaded machine runs it.
SNAP_CONFIG=c.yml snapper 22 "spool/snap-$HOST-$stamp" work.done &
spid=$!
# (the program itself, not the extracct_test function: $! of a function
# is a subshell, and killing it left the spinner running)
"$EXTRACCT_TEST" spin 40 >spin.out &
long=$!
sleep 3
extracct_test threads 3 1000 >threads.out &
tpid=$!
# A shell that reaps a reader of 8 MB and sleeps through snapshots: the
# kernel's /proc/PID/io would give it the reader's 16 MB read and written.
dd if=/dev/zero of=f8m bs=1000 count=8000 2>/dev/null
cp "$(command -v sh)" iodriver
./iodriver -c 'cat f8m >/dev/null; sleep 6' &
iopid=$!
short_processes 1200
wait $tpid
wait $iopid
: >work.done
wait $spid
ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
    faketime -f +3m "$EXTRACCT" -c c.yml run --spool "$TRASH/spool" \
    --db cap.db --no-snap --pacct /nonexistent >run.out 2>&1
acct_restore
kill "$long"
acctd_stop c.pid
extracct report --db cap.db --capture --tz UTC >report

test_expect_success 'run moved acctd and accounting, ingested the closed logs' '
	cat run.out &&
	grep "rotate: acctd moved to " run.out &&
	grep "rotate: process accounting moved from .*/spool/pacct-$HOST-$stamp" run.out &&
	grep "spool/acctd-$HOST-$stamp: bytes 0-" run.out &&
	grep "spool/pacct-$HOST-$stamp: bytes 0-" run.out
'

test_expect_success 'snap saw acctd run: the CPU time of /proc, as acctd records' '
	extracct dump "spool/snap-$HOST-$stamp" >snap.dump &&
	test "$(grep -c "group-proc-partial" snap.dump)" -gt 100 &&
	test "$(grep -c "cpu-run-ns" snap.dump)" -eq 0
'

test_expect_success 'acctd exits: capture ratio of the whole window in 0.93..1.07' '
	cat report &&
	ratio=$(awk "\$1 == \"total\" { print \$4 }" report) &&
	echo "$ratio" >acctd.ratio &&
	awk -v r="$ratio" "BEGIN { exit !(r >= 0.93 && r <= 1.07) }"
'

# The ratios themselves are the whole machine's: with other busy
# processes beside the test they come near each other and may cross.
# What pacct loses is the same exits' CPU (10 ms units), so that is what
# is compared: pacct's records of them against acctd's.
test_expect_success 'pacct exits, the same run: their ratio beside it, and the same exits less CPU' '
	alt=$(awk "\$1 == \"total\" { for (i = 5; i <= NF; i++)
	    if (\$i ~ /^pacct=/) print substr(\$i, 7) }" report) &&
	echo "$alt" >pacct.ratio &&
	test -n "$alt" &&
	sqlite3 cap.db "SELECT
	    (SELECT sum(coalesce(cpu_user_ns, 0) + coalesce(cpu_sys_ns, 0))
	     FROM proc_alt_exits WHERE source = '\''pacct'\''),
	    (SELECT sum(coalesce(cpu_user_ns, 0) + coalesce(cpu_sys_ns, 0))
	     FROM proc_intervals WHERE proc_id IN (SELECT proc_id
	     FROM proc_alt_exits WHERE source = '\''pacct'\''))" >cpus &&
	echo "the same exits: pacct, acctd (ns): $(cat cpus)" &&
	awk -F"|" "{ exit !(\$1 + 0 < \$2 + 0) }" cpus
'

test_expect_success 'each process counted once: pacct exits are alternates' '
	sqlite3 cap.db "SELECT count(*) FROM proc_alt_exits
	    WHERE source = '\''pacct'\''" >alts &&
	echo "alternate pacct exits: $(cat alts)" &&
	test "$(cat alts)" -ge 1200 &&
	sqlite3 cap.db "SELECT count(*) FROM (SELECT pid FROM procs
	    GROUP BY host_id, pid, start_ns / 2000000000
	    HAVING count(*) > 1)" >twice &&
	echo "processes stored twice: $(cat twice)" &&
	test "$(cat twice)" -eq 0 &&
	sqlite3 cap.db "SELECT pid, command, finish_ns - start_ns FROM procs
	    WHERE exit_source = '\''pacct'\''" >by_pacct &&
	echo "closed by pacct:" && cat by_pacct &&
	awk -F"|" "\$2 != \"extracct\" || \$3 >= 1000000000 { bad++ }
	    END { exit bad > 0 }" by_pacct
'

test_expect_success 'the threads: one process, all its CPU (within 10 ms)' '
	read pid user sys <threads.out &&
	sqlite3 cap.db "SELECT sum(i.cpu_user_ns + i.cpu_sys_ns), max(threads),
	    max(p.cpu_run_ns) FROM procs p JOIN proc_intervals i
	    USING (proc_id) WHERE p.pid = $pid" | tr "|" " " >thr.rec &&
	cat thr.rec &&
	read cpu threads run <thr.rec &&
	test "$threads" -eq 4 &&
	awk -v c="$cpu" -v r="$run" -v u="$user" -v s="$sys" "BEGIN {
	    t = (u + s) * 1000; d = c - t; if (d < 0) d = -d
	    e = r - t; if (e < 0) e = -e
	    exit !(e <= 10000000 && d <= 10000000) }"
'

test_expect_success 'acctd exits and snapshots: no final CPU went backwards' '
	sqlite3 cap.db "SELECT count(*) FROM proc_intervals i
	    JOIN procs p USING (proc_id) WHERE i.final = 1
	    AND p.exit_source = '\''acctd'\'' AND i.anomalies & 768" >bad &&
	test "$(cat bad)" -eq 0
'

test_expect_success 'a shell that reaped a reader: its own I/O, its last interval not below zero' '
	sqlite3 cap.db "SELECT count(*), coalesce(sum(i.chars_rdwr), -1),
	    sum(i.anomalies != 0), max(i.final)
	    FROM proc_intervals i JOIN procs p USING (proc_id)
	    WHERE p.command = '\''iodriver'\'' AND p.exit_source = '\''acctd'\''" >io &&
	echo "rows|chars_rdwr|rows with anomalies|final: $(cat io)" &&
	IFS="|" read -r rows chars anom fin <io &&
	test "$rows" -ge 2 && test "$anom" -eq 0 && test "$fin" -eq 1 &&
	test "$chars" -ge 0 && test "$chars" -lt 8000000
'

echo "# measured capture ratio, acctd exits: $(cat acctd.ratio 2>/dev/null); the same exits from pacct: $(cat pacct.ratio 2>/dev/null)"
test_done
