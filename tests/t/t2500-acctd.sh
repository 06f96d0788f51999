#!/bin/sh
# acctd: exact exit records from the kernel's taskstats notifications.
# Needs root (CAP_NET_ADMIN) and a kernel with taskstats; skips with the
# kernel's reason otherwise.  The perfect-capture measurement (t2510)
# is separate; this script checks the daemon and its records.
# run.sh: alone (acctd records every exit on the machine: a neighbour
# script's thousands of exits fill its 32 KiB logs)
. "$(dirname "$0")/../lib.sh"
kernel_lock || exit 1	# taskstats, accounting: the machine's

HOST=$(hostname)
APID=

trap 'kill "$APID" 2>/dev/null; rm -rf "$TRASH"' EXIT

# Run "$@" with files limited to 8 KiB (16 blocks of 512 bytes).
# 32 KiB: the first log fills with a burst of 600 exits, and the next
# still has room for about 140 records when the machine is busy (every
# exit on it is recorded: 8 KiB once filled up with other processes').
with_32k_files() { ( ulimit -f 64; exec "$@" ); }
mkdir -m 700 spool

if [ "$(id -u)" -ne 0 ]; then
	test_skip 'acctd' 'taskstats exit notifications need root (CAP_NET_ADMIN)'
	test_done
	exit $?
fi
if ! acctd_start spool a.pid; then
	test_skip 'acctd' "the kernel refused taskstats: $(cat a.pid.err)"
	test_done
	exit $?
fi

test_expect_success 'acctd names its log in the pidfile, in the spool' '
	test "$(sed -n 1p a.pid)" = "$APID" &&
	log=$(acctd_log a.pid) &&
	case $log in acctd-"$HOST"-[0-9]*) ;; *) false ;; esac &&
	test -f "spool/$log" &&
	test "$(stat -c %a "spool/$log")" = 640
'

test_expect_success 'a second acctd refuses to start, and says which runs' '
	test_expect_code 3 extracct acctd -o spool --pidfile a.pid 2>err &&
	grep "acctd is already running (pid $APID," err
'

test_expect_success 'fields: chars read, CPU against its own rusage, exit 3' '
	head -c 1048576 /dev/urandom >f.data &&
	{ extracct_test fields f.data >f.out; test $? -eq 3; } &&
	read pid user sys <f.out &&
	sleep 0.3 &&
	extracct ingest --db f.db "spool/$(acctd_log a.pid)" >/dev/null &&
	sqlite3 f.db "SELECT i.chars_rdwr, i.cpu_user_ns + i.cpu_sys_ns,
	    p.cpu_run_ns, p.wait_status, p.exit_source FROM procs p
	    JOIN proc_intervals i USING (proc_id) WHERE p.pid = $pid" |
	    tr "|" " " >f.rec &&
	cat f.rec &&
	read chars cpu run status source <f.rec &&
	test "$chars" -ge 1048576 &&
	test "$status" -eq 768 && test "$source" = acctd &&
	awk -v c="$cpu" -v r="$run" -v u="$user" -v s="$sys" "BEGIN {
	    d = c / 1000 - (u + s); if (d < 0) d = -d
	    e = r / 1000 - (u + s); if (e < 0) e = -e
	    print \"exit record: ticks \" c / 1e9 \" s, runtime \" r / 1e9 \
	        \" s; rusage \" (u + s) / 1e6 \" s\"
	    exit !(d <= 10000 && e <= 10000) }" &&
	extracct dump -v "spool/$(acctd_log a.pid)" >f.dump &&
	grep "exit 3" f.dump
'

# Its CPU and its runtime must be within 10 ms of getrusage: each thread
# ran 200 ms, so its CPU is its runtime (docs/formats.md, "acctd").
test_expect_success 'threads: one record for the process, with every thread' '
	extracct_test threads 3 200 >t.out &&
	read pid user sys <t.out &&
	tids=$(sed -n 2p t.out) && test -n "$tids" &&
	sleep 0.3 &&
	rm -f t.db &&
	extracct ingest --db t.db "spool/$(acctd_log a.pid)" >/dev/null &&
	sqlite3 t.db "SELECT i.cpu_user_ns + i.cpu_sys_ns, p.cpu_run_ns,
	    i.threads FROM procs p JOIN proc_intervals i USING (proc_id)
	    WHERE p.pid = $pid" | tr "|" " " >t.rec &&
	cat t.rec &&
	test "$(wc -l <t.rec)" -eq 1 &&
	read cpu run threads <t.rec &&
	test "$threads" -eq 4 &&
	awk -v c="$cpu" -v r="$run" -v u="$user" -v s="$sys" "BEGIN {
	    t = (u + s) * 1000; d = c - t; if (d < 0) d = -d
	    e = r - t; if (e < 0) e = -e
	    print \"exit record: CPU \" c / 1e9 \" s, runtime \" r / 1e9 \
	        \" s; rusage \" t / 1e9 \" s\"
	    exit !(e <= 10000000 && d <= 10000000) }" &&
	for t in $tids; do
		test "$(sqlite3 t.db "SELECT count(*) FROM procs
		    WHERE pid = $t")" -eq 0 || return 1
	done
'

# rotate must see a new minute to name a new log: faketime gives it one.
# The burst runs on both sides of the move by construction, not by
# timing: rotate starts after its 50th exit, and the burst runs 50 more
# once rotate is done, then says how many it ran (a fast machine ran all
# of a fixed 1500 before rotate moved the log).
if ! command -v faketime >/dev/null 2>&1; then
	test_skip 'rotation under load' 'faketime is missing (apt-get install faketime)'
else
test_expect_success 'rotation under load: every process in one of the two logs' '
	old=$(acctd_log a.pid) &&
	{ sh -c "echo \$\$ >burst.pid; i=0; end=-1
	    while :; do
		/bin/true; i=\$((i + 1))
		[ \$i -eq 50 ] && : >burst.started
		[ \$end -lt 0 ] && [ -e rotated ] && end=\$((i + 50))
		[ \$end -ge 0 ] && [ \$i -ge \$end ] && break
	    done; echo \$i >burst.n" & } &&
	bpid=$! &&
	n=0 && while [ ! -e burst.started ] && [ $n -lt 300 ]; do
		sleep 0.1; n=$((n + 1)); done &&
	{ ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
	    faketime -f +2m "$EXTRACCT" rotate --spool spool \
	    --pacct /nonexistent --acctd-pidfile a.pid >rot.out
	  rc=$?; : >rotated; wait $bpid; test $rc -eq 0; } &&
	sleep 0.5 &&
	new=$(acctd_log a.pid) &&
	cat rot.out && grep "rotate: acctd moved to spool/$new" rot.out &&
	test "$old" != "$new" &&
	bp=$(cat burst.pid) && total=$(cat burst.n) &&
	extracct text "spool/$old" | awk -v p=$bp "\$5 == p && \$NF == \"true\"" |
	    wc -l >n.old &&
	extracct text "spool/$new" | awk -v p=$bp "\$5 == p && \$NF == \"true\"" |
	    wc -l >n.new &&
	echo "old log $(cat n.old), new log $(cat n.new), burst $total" &&
	test "$(cat n.old)" -ge 50 && test "$(cat n.new)" -ge 50 &&
	test $(($(cat n.old) + $(cat n.new))) -eq "$total"
'
fi

test_expect_success 'SIGTERM: acctd exits 0, says what it wrote, drops its pidfile' '
	acctd_stop a.pid &&
	grep "^acctd: [0-9]* process records, 0 lost" a.pid.out &&
	test ! -e a.pid
'

test_expect_success 'a full socket buffer: the drops become a loss record' '
	mkdir -m 700 spool2 &&
	acctd_start spool2 b.pid --rcvbuf 4096 &&
	kill -STOP "$APID" &&
	sh -c "echo \$\$ >burst2.pid; i=0
	    while [ \$i -lt 400 ]; do /bin/true; i=\$((i + 1)); done" &&
	kill -CONT "$APID" &&
	sleep 0.5 &&
	log=$(acctd_log b.pid) &&
	acctd_stop b.pid &&
	cat b.pid.err &&
	grep "the kernel dropped [0-9]* exit record" b.pid.err &&
	extracct dump "spool2/$log" | grep group-lost &&
	extracct ingest --db l.db "spool2/$log" >/dev/null &&
	lost=$(sqlite3 l.db "SELECT sum(records) FROM lost") &&
	bp=$(cat burst2.pid) &&
	kept=$(sqlite3 l.db "SELECT count(*) FROM procs WHERE ppid = $bp
	    AND command = '\''true'\''") &&
	echo "kept $kept, lost $lost" &&
	test "$lost" -gt 0 && test $((kept + lost)) -ge 400
'

test_expect_success 'a log that cannot be written: exits counted, then a loss record' '
	mkdir -m 700 spool3 &&
	ACCTD_WRAP=with_32k_files acctd_start spool3 c.pid &&
	old=$(acctd_log c.pid) &&
	sh -c "echo \$\$ >b1.pid; i=0
	    while [ \$i -lt 600 ]; do /bin/true; i=\$((i + 1)); done" &&
	# acctd says so once it has met the full disk: under load that
	# takes longer than the 0.3 s this waited.
	i=0 &&
	until grep "No space left on device; counting the exit records not written" \
	    c.pid.err; do
		i=$((i + 1)); [ $i -lt 1000 ] || return 1; sleep 0.01
	done &&
	acctd_idle "$APID" &&
	new=acctd-$HOST-29991231-2359 &&
	: >"spool3/$new" && chmod 640 "spool3/$new" &&
	kill -HUP "$APID" &&
	i=0 &&
	until [ "$(acctd_log c.pid)" = "$new" ]; do
		i=$((i + 1)); [ $i -lt 500 ] || return 1; sleep 0.01
	done &&
	sh -c "echo \$\$ >b2.pid; i=0
	    while [ \$i -lt 5 ]; do /bin/true; i=\$((i + 1)); done" &&
	sleep 0.3 &&
	{ acctd_stop c.pid; rc=$?; cat c.pid.out c.pid.err; test $rc -eq 0; } &&
	grep "takes writes again; a loss record counts the [0-9]* exit records" \
	    c.pid.err &&
	extracct ingest --db w.db "spool3/$old" "spool3/$new" >w.out;
	cat w.out &&
	b1=$(cat b1.pid) && b2=$(cat b2.pid) &&
	kept=$(sqlite3 w.db "SELECT count(*) FROM procs WHERE ppid = $b1") &&
	lost=$(sqlite3 w.db "SELECT sum(records) FROM lost") &&
	after=$(sqlite3 w.db "SELECT count(*) FROM procs WHERE ppid = $b2") &&
	echo "written $kept, lost $lost, after the switch $after" &&
	test "$kept" -lt 600 && test "$lost" -gt 0 &&
	test $((kept + lost)) -ge 600 && test "$after" -eq 5
'

test_expect_success 'without CAP_NET_ADMIN: a clear message, exit 3' '
	if ! command -v setpriv >/dev/null 2>&1; then
		echo "setpriv is missing (util-linux)"; false
	fi &&
	nb=$(mktemp -d /tmp/extracct-nobody.XXXXXX) &&
	chown 65534:65534 "$nb" && chmod 700 "$nb" &&
	{ setpriv --reuid=65534 --regid=65534 --clear-groups "$EXTRACCT" \
	    acctd -o "$nb" --pidfile "$nb/p.pid" 2>np.err; rc=$?; } &&
	rm -rf "$nb" &&
	cat np.err && test $rc -eq 3 &&
	grep "needs CAP_NET_ADMIN" np.err
'

test_done
