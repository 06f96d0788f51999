#!/bin/sh
# snap's cgroup records: the kernel's own CPU (and memory) totals of
# every cgroup that holds processes, on real cgroups made for the test
# under the hierarchies /proc/self/mountinfo names, differenced by
# ingest into cgroup_intervals: equal to what cpu.stat (cpuacct.usage)
# says between the snapshots, and to the busy process's own CPU.
. "$(dirname "$0")/../lib.sh"

# The mount point of the hierarchy whose super options (or type) have
# $1, from mountinfo: the field after "-" is the type, two on the
# options.
mount_of() {
	awk -v want="$1" '{
		for (i = 7; i <= NF && $i != "-"; i++) ;
		if ($(i + 1) == "cgroup2" && want == "cgroup2") { print $5; exit }
		if ($(i + 1) == "cgroup" && ("," $(i + 3) ",") ~ ("," want ",")) { print $5; exit }
	}' /proc/self/mountinfo
}

if [ "$(id -u)" -ne 0 ]; then
	test_skip 'cgroup totals' 'making cgroups needs root'
	test_done
	exit
fi
V2=$(mount_of cgroup2)
V1CPU=$(mount_of cpuacct)
V1MEM=$(mount_of memory)
if [ -z "$V2" ]; then
	test_skip 'cgroup totals' 'no cgroup2 mount'
	test_done
	exit
fi
NAME=extracct-t2250-$$

# Kill every process in the test's cgroups (all it started are there),
# then remove the cgroups, deepest first: on every way out.
empty_cgs() {
	for h in "$V2" $V1CPU $V1MEM; do
		[ -d "$h/$NAME" ] || continue
		i=0
		while p=$(find "$h/$NAME" -name cgroup.procs -exec cat {} + 2>/dev/null) &&
		    [ -n "$p" ] && [ $i -lt 100 ]; do
			kill -9 $p 2>/dev/null
			sleep 0.05
			i=$((i + 1))
		done
	done
}
cleanup() {
	empty_cgs
	for h in "$V2" $V1CPU $V1MEM; do
		[ -d "$h/$NAME" ] && find "$h/$NAME" -depth -type d -exec rmdir {} \; 2>/dev/null
	done
	rm -rf "$TRASH"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Make cgroup $NAME/$1 in every hierarchy.
mkcg() {
	for h in "$V2" $V1CPU $V1MEM; do
		mkdir -p "$h/$NAME/$1" || return 1
	done
}

# Kill the processes of v2 cgroup $NAME/$1, and wait until it is empty.
kill_cg() {
	i=0
	while p=$(cat "$V2/$NAME/$1/cgroup.procs") && [ -n "$p" ] && [ $i -lt 100 ]; do
		kill -9 $p 2>/dev/null
		sleep 0.05
		i=$((i + 1))
	done
	[ -z "$p" ]
}

usage_usec() { awk '$1 == "usage_usec" { print $2 }' "$V2/$NAME/busy/cpu.stat"; }

# The cgroup's interval: CPU ns (column $2) of path $1, hierarchy $3.
cg_interval() {
	sqlite3 s.db "SELECT coalesce($2, 'NULL') FROM cgroup_intervals i
	    JOIN cgroups c USING (cgroup_id)
	    WHERE c.path = '/$NAME/$1' AND c.hierarchy = $3"
}

test_expect_success 'setup: a busy process in its own cgroup, stopped' '
	mkcg busy &&
	{ sh -c "for d in \"\$@\"; do echo \$\$ >\"\$d/cgroup.procs\" || exit 1; done
	    kill -STOP \$\$
	    exec awk \"BEGIN { for (i = 0; i < 100000000; i++) n += i
	        system(\\\"echo >burnt; exec sleep 120\\\") }\"" sh \
	    "$V2/$NAME/busy" $(for h in $V1CPU $V1MEM; do echo "$h/$NAME/busy"; done) & } &&
	BUSY=$! && echo $BUSY >busy.pid &&
	i=0 &&
	until [ "$(awk "{ print \$3 }" /proc/$BUSY/stat)" = T ] || [ $i -ge 100 ]; do
		sleep 0.05; i=$((i + 1))
	done &&
	grep -x "0::/$NAME/busy" /proc/$BUSY/cgroup
'

BUSY=$(cat busy.pid 2>/dev/null)
test_expect_success 'snap before, the loop burns 1-2 s of CPU, snap after' '
	usage_usec >u0 &&
	extracct snap --cpu runtime -o s.exacct &&
	kill -CONT $BUSY &&
	i=0 &&
	until [ -e burnt ] || [ $i -ge 1200 ]; do sleep 0.05; i=$((i + 1)); done &&
	test -e burnt && sleep 0.3 &&
	extracct snap --cpu runtime -o s.exacct &&
	usage_usec >u1 &&
	if [ -n "$V1CPU" ]; then
		cat "$V1CPU/$NAME/busy/cpuacct.usage" >v1u1
	fi &&
	extracct ingest --db s.db s.exacct >out
'

test_expect_success 'dump shows the cgroup records, each hierarchy' '
	extracct dump s.exacct >d &&
	grep "	 cgroup-path  *	\"/$NAME/busy\"$" d &&
	test "$(grep -c "	group-cgroup " d)" -ge 4
'

test_expect_success 'the cgroup interval is cpu.stat usage_usec delta, within 1%' '
	got=$(cg_interval busy cpu_ns 2) &&
	want=$((($(cat u1) - $(cat u0)) * 1000)) &&
	echo "cgroup_intervals cpu_ns $got, cpu.stat delta $want ns" &&
	test "$want" -gt 1000000000 &&
	awk -v g="$got" -v w="$want" "BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= w / 100) }"
'

test_expect_success 'and its user + system parts add up to it' '
	sqlite3 s.db "SELECT user_ns + system_ns, cpu_ns FROM cgroup_intervals i
	    JOIN cgroups c USING (cgroup_id)
	    WHERE c.path = \"/$NAME/busy\" AND c.hierarchy = 2" >us &&
	tr "|" " " <us >us2 && mv us2 us && cat us && test -s us &&
	awk "{ d = \$1 - \$2; if (d < 0) d = -d; exit !(d <= \$2 / 50) }" us
'

test_expect_success 'the busy process own CPU is within 3% of its cgroup' '
	sqlite3 s.db "SELECT sum(coalesce(pi.cpu_user_ns, 0) + coalesce(pi.cpu_sys_ns, 0))
	    FROM proc_intervals pi JOIN procs p USING (proc_id),
	      cgroup_intervals ci JOIN cgroups c ON c.cgroup_id = ci.cgroup_id
	    WHERE p.pid = $BUSY AND c.path = \"/$NAME/busy\" AND c.hierarchy = 2
	      AND pi.t0_ns = ci.t0_ns AND pi.t1_ns = ci.t1_ns" >pcpu &&
	got=$(cat pcpu) && want=$(cg_interval busy cpu_ns 2) &&
	echo "process $got ns, cgroup $want ns" &&
	awk -v g="$got" -v w="$want" "BEGIN { d = g - w; if (d < 0) d = -d; exit !(g > 0 && d <= w * 3 / 100) }"
'

test_expect_success 'v_cgroup_usage: the cgroup CPU in the window, by host and path' '
	sqlite3 s.db "SELECT host IS NOT NULL, sum(cpu_ns) FROM v_cgroup_usage
	    WHERE path = \"/$NAME/busy\" AND hierarchy = 2
	    GROUP BY host_id, hierarchy, path" >v &&
	echo "1|$(cg_interval busy cpu_ns 2)" >expect &&
	test_cmp expect v
'

test_expect_success 'its parent, which holds no process, has a record too, at least as much' '
	parent=$(sqlite3 s.db "SELECT cpu_ns FROM cgroup_intervals i JOIN cgroups c
	    USING (cgroup_id) WHERE c.path = \"/$NAME\" AND c.hierarchy = 2") &&
	child=$(cg_interval busy cpu_ns 2) &&
	echo "parent $parent, child $child" &&
	test "$parent" -ge "$child"
'

test_expect_success 'memory: present where the memory controller is' '
	if [ -e "$V2/$NAME/busy/memory.current" ]; then
		test "$(cg_interval busy mem_current 2)" != NULL || exit 1
	fi &&
	if [ -n "$V1MEM" ]; then
		m=$(cg_interval busy mem_current 1) &&
		echo "v1 memory.usage_in_bytes $m" &&
		test "$m" != NULL && test "$m" -gt 0
	fi &&
	sqlite3 s.db "SELECT count(*) FROM cgroup_intervals i JOIN cgroups c
	    USING (cgroup_id) WHERE c.path = \"/$NAME/busy\"
	      AND mem_current IS NOT NULL" >n &&
	test "$(cat n)" -ge 1
'

if [ -n "$V1CPU" ]; then
	test_expect_success 'v1: cpuacct.usage delta, within 1%' '
		got=$(cg_interval busy cpu_ns 1) &&
		v1u0=$(sqlite3 s.db "SELECT cpu_ns FROM cgroup_last l
		    JOIN cgroups c USING (cgroup_id)
		    WHERE c.path = \"/$NAME/busy\" AND c.hierarchy = 1") &&
		want=$(cat v1u1) &&
		echo "v1 interval $got; last reading $v1u0, cpuacct.usage now $want" &&
		test "$got" -gt 1000000000 &&
		awk -v g="$v1u0" -v w="$want" "BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= w / 100) }"
	'
fi

test_expect_success 'a cgroup removed and made again: starts over, no negative interval' '
	mkcg again &&
	{ sh -c "echo \$\$ >\"$V2/$NAME/again/cgroup.procs\" &&
	    exec awk \"BEGIN { for (i = 0; i < 20000000; i++) n += i
	        system(\\\"echo >burnt2; exec sleep 120\\\") }\"" & } &&
	i=0 &&
	until [ -e burnt2 ] || [ $i -ge 600 ]; do sleep 0.05; i=$((i + 1)); done &&
	extracct snap --cpu runtime -o again.exacct &&
	kill_cg again &&
	rmdir "$V2/$NAME/again" &&
	mkdir "$V2/$NAME/again" &&
	{ sh -c "echo \$\$ >\"$V2/$NAME/again/cgroup.procs\" && exec sleep 120" & } &&
	sleep 0.3 &&
	extracct snap --cpu runtime -o again.exacct &&
	extracct ingest --db again.db again.exacct >out &&
	sqlite3 again.db "SELECT cpu_ns, restarted FROM cgroup_intervals i
	    JOIN cgroups c USING (cgroup_id)
	    WHERE c.path = \"/$NAME/again\" AND c.hierarchy = 2" >r &&
	tr "|" " " <r >r2 && mv r2 r &&
	cat r &&
	read cpu restarted <r &&
	test "$restarted" = 1 && test "$cpu" -ge 0 && test "$cpu" -lt 500000000
'

test_expect_success 'a cgroup gone between snapshots: no error, its interval ends' '
	mkcg gone &&
	{ sh -c "echo \$\$ >\"$V2/$NAME/gone/cgroup.procs\" && exec sleep 120" & } &&
	sleep 0.2 &&
	extracct snap --cpu runtime -o gone.exacct &&
	kill_cg gone &&
	rmdir "$V2/$NAME/gone" &&
	extracct snap --cpu runtime -o gone.exacct &&
	extracct ingest --db gone.db gone.exacct >out &&
	test "$(sqlite3 gone.db "SELECT count(*) FROM cgroups WHERE path = \"/$NAME/gone\" AND hierarchy = 2")" -eq 1 &&
	test "$(sqlite3 gone.db "SELECT count(*) FROM cgroup_intervals i JOIN cgroups c USING (cgroup_id) WHERE c.path = \"/$NAME/gone\" AND c.hierarchy = 2")" -eq 0 &&
	test "$(sqlite3 gone.db "SELECT count(*) FROM cgroup_intervals i JOIN cgroups c USING (cgroup_id) WHERE c.path = \"/$NAME\" AND c.hierarchy = 2")" -eq 1
'

# The kernel refuses a cgroup name with a newline (/proc/PID/cgroup is
# a line a hierarchy): the unit tests have one.
test_expect_success 'a path with a tab, a space and a byte not UTF-8: exact' '
	odd=$(printf "o d\td\377") &&
	mkdir "$V2/$NAME/$odd" &&
	{ sh -c "echo \$\$ >\"\$1/cgroup.procs\" && exec sleep 120" sh "$V2/$NAME/$odd" & } &&
	sleep 0.2 &&
	extracct snap --cpu runtime -o odd.exacct &&
	extracct snap --cpu runtime -o odd.exacct &&
	extracct ingest --db odd.db odd.exacct >out &&
	want=$(printf "/%s/o d\td\377" "$NAME" | od -An -tx1 | tr -d " \n" | tr a-f A-F) &&
	sqlite3 odd.db "SELECT hex(path) FROM cgroups c JOIN cgroup_intervals i
	    USING (cgroup_id) WHERE c.hierarchy = 2" >hexes &&
	grep -x "$want" hexes
'

test_expect_success 'snap --no-cgroups writes none' '
	extracct snap --no-cgroups --cpu runtime -o none.exacct &&
	extracct dump none.exacct >d &&
	! grep "group-cgroup" d
'

test_done
