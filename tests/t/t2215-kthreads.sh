#!/bin/sh
# On the real kernel: snapshots taken as the hourly job takes
# them (snap with its default measure, many times in a row) record every
# process by one CPU measure, and a kernel thread's CPU never goes back.
# Before the fix, snap settled its measure by asking taskstats about
# itself, and a process not yet switched out reads a runtime of 0, so
# about two snapshots in three fell back to /proc: kdamond.0 read 21.74
# and 6.81 s by turns.  Needs root (taskstats); skips otherwise.
. "$(dirname "$0")/../lib.sh"
kernel_lock || exit 1	# taskstats: the machine's

if ! extracct snap --cpu ticks -o probe.exacct 2>err.probe; then
	test_skip 'kernel threads' "taskstats refused: $(cat err.probe)"
	test_done
	exit $?
fi

# Kernel threads at work meanwhile: writeback (kworkers) and RCU.
( i=0; while [ $i -lt 20 ]; do
	dd if=/dev/zero of=churn bs=64k count=16 conv=fsync 2>/dev/null
	i=$((i + 1))
done ) &
churn=$!
n=0
while [ $n -lt 40 ]; do
	extracct snap -o k.exacct || break
	n=$((n + 1))
	sleep 0.05
done
wait $churn

test_expect_success '40 snapshots' '
	test $n -eq 40 &&
	test "$(extracct dump k.exacct | grep -c group-sysload)" -eq 40
'

# Per snapshot (a sysload record starts each): its process records, and
# how many carry each measure's marks.
test_expect_success 'one CPU measure in every snapshot' '
	extracct dump k.exacct | awk "
	    /group-sysload/ { s++ }
	    /group-proc-partial/ { p[s]++ }
	    /cpu-run-ns/ { r[s]++ }
	    / cpu-source / { m[s \" \" \$NF]++; v[\$NF] = 1 }
	    END { for (i = 1; i <= s; i++)
		    print i, p[i], r[i] + 0, m[i \" 1\"] + 0, m[i \" 2\"] + 0
		  for (x in v) nv++; print \"measures\", nv + 0 }" >per-snap &&
	cat per-snap &&
	grep "^measures 1$" per-snap &&
	awk "\$1 != \"measures\" && !(\$2 > 0 && (\$4 == \$2 || \$5 == \$2) &&
	    (\$3 == 0 || \$3 == \$2)) { bad++ } END { exit bad > 0 }" per-snap
'

# text -H: $4 pid, $5 ppid, $7 user s, $8 system s, in file order.
test_expect_success 'no kernel thread CPU goes back, snapshot to snapshot' '
	extracct text -H -k proc k.exacct | awk "\$5 == 2 || \$4 == 2 {
	    c = \$7 + \$8; k++
	    if ((\$4 in last) && c < last[\$4]) {
		print \"pid \" \$4 \" \" \$NF \": \" last[\$4] \" then \" c; bad++ }
	    last[\$4] = c }
	    END { print k \" kernel thread records\"; exit bad > 0 || k == 0 }"
'

test_expect_success 'ingested: no kernel thread interval is an anomaly or over its time' '
	extracct ingest --db k.db k.exacct >out &&
	sqlite3 k.db "SELECT p.pid, p.command, i.anomalies,
	    coalesce(i.cpu_user_ns, 0) + coalesce(i.cpu_sys_ns, 0),
	    i.t1_ns - i.t0_ns
	    FROM proc_intervals i JOIN procs p USING (proc_id)
	    WHERE (p.ppid = 2 OR p.pid = 2)
	      AND i.t0_ns > (SELECT min(t_ns) FROM sysload)
	      AND (i.anomalies != 0 OR coalesce(i.cpu_user_ns, 0) +
		   coalesce(i.cpu_sys_ns, 0) > i.t1_ns - i.t0_ns + 10000000)" >bad &&
	cat bad &&
	test ! -s bad
'

test_done
