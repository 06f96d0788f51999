#!/bin/sh
# Every Linux process record knows its cgroup: snap reads each live
# process's, acctd each exit's, ingest keeps the path exactly (cgroups)
# and report groups by it (--by cgroup, unit, container), escaped when
# printed.  Real cgroups under the unified hierarchy (root only), and
# fixture records made with the writer for what a host cannot show (a
# newline in a path; an exit with none after a snapshot with one).
# run.sh: alone (acctd records every exit on the machine)
. "$(dirname "$0")/../lib.sh"
kernel_lock || exit 1	# taskstats, accounting: the machine's

APID= CG= V2=
# Leave no process or cgroup behind, whatever way the script ends.
cleanup() {
	[ ! -s busy.pid ] || kill "$(cat busy.pid)" 2>/dev/null
	[ -z "$APID" ] || kill "$APID" 2>/dev/null
	if [ -n "$CG" ] && [ -d "$CG" ]; then
		for d in "$CG"/*/; do
			[ -d "$d" ] || continue
			while read -r p; do
				echo "$p" >"$V2/cgroup.procs" 2>/dev/null
				kill "$p" 2>/dev/null
			done <"$d/cgroup.procs"
			rmdir "$d" 2>/dev/null
		done
		rmdir "$CG" 2>/dev/null
	fi
	rm -rf "$TRASH"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# The fixtures: a snapshot log (creator extracct) of process records.
# $1 the spec's extra lines for each process, after pid and times.
proc_rec() {	# group pid start_s finish_s user_s cmd [cgroup-lines]
	printf 'group %s\n  uint 0x30001000 %s\n  uint 0x30001001 0\n' "$1" "$2"
	printf '  uint 0x40001007 %s\n  uint 0x40001008 0\n' "$3"
	printf '  uint 0x40001009 %s\n  uint 0x4000100a 0\n' "$4"
	printf '  uint 0x4000100b %s\n  uint 0x4000100c 0\n' "$5"
	printf '  uint 0x4000100d 0\n  uint 0x4000100e 0\n'
	printf '  string 0x60001006 %s\n' "$6"
	[ -z "${7:-}" ] || printf '%s\n' "$7"
	printf 'end\n'
}
P=0xf0000106 F=0xf0000100 T0=1735725600	# 2025-01-01 10:00 UTC
{
	echo 'header library extracct fixhost'
	# A path with a newline, a tab and a byte that is no UTF-8.
	proc_rec $P 100 $T0 $((T0 + 60)) 3 odd \
	    '  string 0x61000111 /odd\x0aname\x09x\xff.scope
  uint 0x11000112 2'
	proc_rec $F 100 $T0 $((T0 + 120)) 5 odd
	# No cgroup mounted: no cgroup in its records at all.
	proc_rec $P 200 $T0 $((T0 + 60)) 2 plain
	proc_rec $F 200 $T0 $((T0 + 120)) 4 plain
	# A container's and a service's, exits with their own.
	proc_rec $F 300 $T0 $((T0 + 60)) 7 web '  string 0x61000111 /system.slice/docker-3f4e5d6c7b8a99887766554433221100ffeeddccbbaa00112233445566778899.scope
  uint 0x11000112 2'
	proc_rec $F 301 $T0 $((T0 + 60)) 1 nginx '  string 0x61000111 /system.slice/nginx.service
  uint 0x11000112 2'
} >fix.spec
extracct_test encode fix.spec fix.exacct || exit 1

test_expect_success 'fixture: paths stored exactly, keys from them' '
	extracct ingest --db fix.db fix.exacct >out &&
	cat out &&
	grep "exit cgroups: 2 own, 0 leader.s, 0 parent.s, 1 last snapshot.s, 1 none" out &&
	printf "/odd\nname\tx\377.scope" | od -An -tx1 | tr -d " \n" >expect &&
	sqlite3 fix.db "SELECT lower(hex(path)) FROM cgroups
	    WHERE path LIKE '\''/odd%'\''" >actual &&
	echo >>expect && test_cmp expect actual &&
	sqlite3 fix.db "SELECT unit, container, coalesce(pod, '\''NULL'\'')
	    FROM cgroups WHERE path LIKE '\''%docker%'\''" >actual &&
	echo "docker-3f4e5d6c7b8a99887766554433221100ffeeddccbbaa00112233445566778899.scope|3f4e5d6c7b8a|NULL" >expect &&
	test_cmp expect actual
'

test_expect_success 'fixture: an exit with none takes its last snapshot'\''s' '
	sqlite3 fix.db "SELECT p.cgroup_from, c.unit FROM procs p
	    JOIN cgroups c USING (cgroup_id) WHERE p.pid = 100" >actual &&
	printf "3|odd\nname\tx\377.scope\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'fixture: no cgroup is NULL, never the root or empty' '
	sqlite3 fix.db "SELECT count(*) FROM procs WHERE pid = 200
	    AND cgroup_id IS NULL AND cgroup_from IS NULL" >actual &&
	echo 1 >expect && test_cmp expect actual &&
	sqlite3 fix.db "SELECT count(*) FROM v_proc_usage WHERE pid = 200
	    AND cgroup_id IS NULL AND cgroup IS NULL AND unit IS NULL" >actual &&
	echo 2 >expect && test_cmp expect actual
'

test_expect_success 'fixture: report --by cgroup escapes the path' '
	extracct report --db fix.db --by cgroup >out &&
	cat out &&
	grep "^/odd\\\\012name\\\\011x\\\\377.scope  *1 " out &&
	grep "^-  *1 " out &&
	test "$(grep -c "" out)" -eq 7 &&
	# CSV: quoted, as it quotes a command: the bytes as they are.
	extracct report --db fix.db --by cgroup --format csv >csv &&
	grep "^\"/odd\$" csv &&
	extracct report --db fix.db --by cgroup --format json >json &&
	grep "\"/odd\\\\u000aname\\\\u0009x\\\\u00ff.scope\"" json
'

test_expect_success 'fixture: report --by unit and --by container' '
	extracct report --db fix.db --by unit --format csv >csv &&
	cat csv &&
	grep "^nginx.service,UTC,1," csv &&
	grep "^,UTC,1," csv &&
	extracct report --db fix.db --by container --format csv >csv &&
	grep "^3f4e5d6c7b8a,UTC,1,7.000," csv &&
	grep "^,UTC,3," csv
'

test_expect_success 'report from the logs: --by cgroup' '
	extracct report --by unit fix.exacct >out &&
	cat out &&
	grep "^nginx.service " out
'

if [ "$(id -u)" -ne 0 ]; then
	test_skip 'real cgroups' 'making cgroups needs root'
	test_done
	exit $?
fi
V2=$(awk '{ for (i = 1; i <= NF; i++) if ($i == "-") break }
    $(i + 1) == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
if [ -z "$V2" ] || ! mkdir "$V2/extracct-t2240-$$" 2>mkdir.err; then
	test_skip 'real cgroups' "no unified hierarchy to make one in: $(cat mkdir.err 2>/dev/null)"
	test_done
	exit $?
fi
CG=$V2/extracct-t2240-$$
WORK="$CG/work-$$.scope"
TAB="$CG/tab	x"
mkdir "$WORK" "$TAB" || exit 1

# Run "$@" in cgroup $1: the process moves itself there, then execs.
# In a subshell, "( in_cg ... ) &", so $! is the process's pid.
in_cg() {
	exec sh -c 'echo $$ >"$1/cgroup.procs" || exit 99; shift; exec "$@"' \
	    sh "$@"
}

test_expect_success 'snap: a process'\''s cgroup, with --by cgroup and unit' '
	( in_cg "$WORK" sh -c "while :; do :; done" ) & echo $! >busy.pid
	( in_cg "$TAB" sleep 30 ) & SLEEPER=$!
	BUSY=$(cat busy.pid) &&
	sleep 0.5 &&
	grep -q "^0::/extracct-t2240-$$/work-$$.scope$" /proc/$BUSY/cgroup &&
	extracct snap -o s.exacct && sleep 1 && extracct snap -o s.exacct &&
	kill $SLEEPER &&
	extracct dump s.exacct >d &&
	grep "cgroup  *	\"/extracct-t2240-$$/work-$$.scope\"$" d &&
	extracct ingest --db s.db s.exacct >/dev/null &&
	sqlite3 s.db "SELECT c.path, c.hierarchy, c.unit FROM procs p
	    JOIN cgroups c USING (cgroup_id) WHERE p.pid = $BUSY" >actual &&
	echo "/extracct-t2240-$$/work-$$.scope|2|work-$$.scope" >expect &&
	test_cmp expect actual &&
	extracct report --db s.db --by cgroup >out &&
	cat out &&
	awk -v p="/extracct-t2240-$$/work-$$.scope" "\$1 == p && \$5 > 0.2 { f = 1 } END { exit !f }" out &&
	grep "^/extracct-t2240-$$/tab\\\\011x " out &&
	sqlite3 s.db "SELECT path FROM cgroups WHERE path LIKE '\''%/tab%'\''" >actual &&
	printf "/extracct-t2240-$$/tab\tx\n" >expect && test_cmp expect actual &&
	extracct report --db s.db --by unit >out &&
	cat out &&
	grep "^work-$$.scope " out
'

mkdir -m 700 spool
if ! acctd_start spool a.pid; then
	test_skip 'acctd' "the kernel refused taskstats: $(cat a.pid.err)"
	test_done
	exit $?
fi

# dd's parent execs sleep, which never reaps it: dd stays a zombie, so
# acctd reads its own cgroup however far behind it is.  The true's
# parent lives 2 s: they are reaped at once, and acctd takes (where
# their own is gone) their parent's.
test_expect_success 'acctd: each exit in the cgroup it ended in' '
	( in_cg "$WORK" sh -c "dd if=/dev/zero of=/dev/null count=2000 2>/dev/null & echo \$! >short.pid; exec sleep 2" ) &&
	( in_cg "$WORK" sh -c "/bin/true; /bin/true; sleep 2" ) &&
	kill "$(cat busy.pid)" &&
	sleep 0.3 && acctd_idle $APID &&
	log=$(acctd_log a.pid) &&
	acctd_stop a.pid && APID= &&
	cat a.pid.out &&
	grep "^acctd: cgroups of exits: [1-9][0-9]* their own" a.pid.out &&
	extracct ingest --db a.db "spool/$log" >out &&
	cat out && grep "exit cgroups: [1-9][0-9]* own" out &&
	spid=$(cat short.pid) &&
	sqlite3 a.db "SELECT c.path, coalesce(p.cgroup_from, '\''own'\'')
	    FROM procs p JOIN cgroups c USING (cgroup_id)
	    WHERE p.pid = $spid AND p.exit_source = '\''acctd'\''" >actual &&
	echo "/extracct-t2240-$$/work-$$.scope|own" >expect &&
	test_cmp expect actual &&
	test "$(sqlite3 a.db "SELECT count(*) FROM procs p JOIN cgroups c
	    USING (cgroup_id) WHERE c.path = '\''/extracct-t2240-$$/work-$$.scope'\''
	    AND p.command = '\''true'\''")" -eq 2 &&
	extracct report --db a.db --by cgroup >out &&
	cat out &&
	awk -v p="/extracct-t2240-$$/work-$$.scope" "\$1 == p && \$2 >= 3 { f = 1 } END { exit !f }" out
'

test_done
