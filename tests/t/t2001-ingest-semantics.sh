#!/bin/sh
# Interval semantics (docs/schema.md), each on a hand-made log: pid reuse,
# identical duplicates, a counter going backwards, a process that never
# exits, a partial and its final record in separate runs, idle intervals.
. "$(dirname "$0")/../lib.sh"

# rec KIND PID START_S FINISH_S CPU_NS CHARS [COMMAND]: one process record
# (KIND final or partial) as an extracct-test spec.
rec() {
	if [ "$1" = final ]; then echo "group 0xf0000100"; else echo "group 0xf0000106"; fi
	echo "  uint 0x30001000 $2"
	echo "  uint 0x40001007 $3"
	echo "  uint 0x40001008 0"
	echo "  uint 0x40001009 $4"
	echo "  uint 0x4000100a 0"
	echo "  uint 0x4000100b $(($5 / 1000000000))"
	echo "  uint 0x4000100c $(($5 % 1000000000))"
	echo "  uint 0x40001017 $6"
	echo "  string 0x60001006 ${7:-cmd}"
	echo "end"
}

log() {
	out=$1
	shift
	{ echo "header kernel SunOS hostA"; cat "$@"; } >"$out.spec" &&
	extracct_test encode "$out.spec" "$out"
}

# pid|t0_s|t1_s|final|cpu_user_ns|chars_rdwr|anomalies, in order.
rows() {
	sqlite3 "$1" "SELECT p.pid, i.t0_ns / 1000000000, i.t1_ns / 1000000000,
	    i.final, i.cpu_user_ns, i.chars_rdwr, i.anomalies
	    FROM proc_intervals i JOIN procs p USING (proc_id)
	    ORDER BY p.pid, p.start_ns, i.t1_ns"
}

test_expect_success 'a process born and dead between snapshots: one interval' '
	rec final 10 1000 1005 3000000000 500 >r &&
	log a.exacct r &&
	extracct ingest --db a.db a.exacct >out &&
	echo "10|1000|1005|1|3000000000|500|0" >expect &&
	rows a.db >actual &&
	test_cmp expect actual
'

test_expect_success 'pid reuse: two processes, never merged' '
	{ rec final 20 1000 1010 1000000000 10 first &&
	  rec final 20 1010 1020 2000000000 20 second; } >r &&
	log b.exacct r &&
	extracct ingest --db b.db b.exacct >out &&
	printf "20|1000|1010|1|1000000000|10|0\n20|1010|1020|1|2000000000|20|0\n" >expect &&
	rows b.db >actual &&
	test_cmp expect actual &&
	test "$(sqlite3 b.db "SELECT count(*) FROM procs WHERE pid = 20")" -eq 2
'

test_expect_success 'exact duplicates (sched three times): dropped and counted' '
	{ rec partial 0 100 3600 5000000000 0 sched &&
	  rec partial 0 100 3600 5000000000 0 sched &&
	  rec partial 0 100 3600 5000000000 0 sched &&
	  rec partial 0 100 7200 9000000000 0 sched; } >r &&
	log c.exacct r &&
	extracct ingest --db c.db c.exacct >out &&
	grep "4 records, 2 rows, 2 duplicates" out &&
	printf "0|100|3600|0|5000000000|0|0\n0|3600|7200|0|4000000000|0|0\n" >expect &&
	rows c.db >actual &&
	test_cmp expect actual &&
	test "$(sqlite3 c.db "SELECT duplicates FROM files")" -eq 2
'

# The dip is a misreading: the way back up from it is no usage, only
# what lies above the highest reading is.
test_expect_success 'a counter going backwards: NULL and a flag, never negative' '
	{ rec partial 30 1000 2000 5000000000 900 &&
	  rec partial 30 1000 3000 7000000000 400 &&
	  rec final 30 1000 4000 8000000000 950; } >r &&
	log d.exacct r &&
	extracct ingest --db d.db d.exacct >out &&
	bit=$((1 << 16)) &&
	printf "30|1000|2000|0|5000000000|900|0\n30|2000|3000|0|2000000000||$bit\n30|3000|4000|1|1000000000|50|0\n" >expect &&
	rows d.db >actual &&
	test_cmp expect actual
'

test_expect_success 'a process that never exits: rows per snapshot, kept live' '
	{ rec partial 40 1000 2000 1000000000 10 daemon &&
	  rec partial 40 1000 3000 3000000000 30 daemon; } >r &&
	log e.exacct r &&
	extracct ingest --db e.db e.exacct >out &&
	printf "40|1000|2000|0|1000000000|10|0\n40|2000|3000|0|2000000000|20|0\n" >expect &&
	rows e.db >actual &&
	test_cmp expect actual &&
	test "$(sqlite3 e.db "SELECT count(*) FROM proc_last")" -eq 1 &&
	test -z "$(sqlite3 e.db "SELECT finish_ns FROM procs")"
'

test_expect_success 'partial in one run, final in a later run (another file)' '
	rec partial 50 1000 3600 2000000000 100 job >r1 &&
	rec final 50 1000 18000 9000000000 700 job >r2 &&
	log f1.exacct r1 && log f5.exacct r2 &&
	extracct ingest --db f.db f1.exacct >out &&
	extracct ingest --db f.db f5.exacct >out &&
	printf "50|1000|3600|0|2000000000|100|0\n50|3600|18000|1|7000000000|600|0\n" >expect &&
	rows f.db >actual &&
	test_cmp expect actual &&
	test "$(sqlite3 f.db "SELECT count(*) FROM proc_last")" -eq 0 &&
	test "$(sqlite3 f.db "SELECT finish_ns / 1000000000 FROM procs")" -eq 18000
'

test_expect_success 'start times a little apart still match (within 1 s)' '
	{ echo "group 0xf0000106" &&
	  echo "  uint 0x30001000 60" && echo "  uint 0x40001007 1000" &&
	  echo "  uint 0x40001008 100" && echo "  uint 0x40001009 2000" &&
	  echo "  uint 0x4000100b 1" && echo "end" &&
	  echo "group 0xf0000100" &&
	  echo "  uint 0x30001000 60" && echo "  uint 0x40001007 1000" &&
	  echo "  uint 0x40001008 900000" && echo "  uint 0x40001009 3000" &&
	  echo "  uint 0x4000100b 4" && echo "end"; } >r &&
	log g.exacct r &&
	extracct ingest --db g.db g.exacct >out &&
	test "$(sqlite3 g.db "SELECT count(*) FROM procs")" -eq 1 &&
	test "$(sqlite3 g.db "SELECT sum(cpu_user_ns) FROM proc_intervals")" -eq 4000000000
'

test_expect_success 'idle intervals: no row, except a heartbeat; --idle-rows always' '
	{ rec partial 70 0 3600 1000000000 5 idle &&
	  rec partial 70 0 7200 1000000000 5 idle &&
	  rec partial 70 0 90000 1000000000 5 idle &&
	  rec partial 70 0 93600 1000000000 5 idle; } >r &&
	log h.exacct r &&
	extracct ingest --db h.db h.exacct >out &&
	grep "2 rows, 0 duplicates, 0 late, 2 idle" out &&
	test "$(sqlite3 h.db "SELECT group_concat((t1_ns / 1000000000) || \":\" || heartbeat) FROM proc_intervals")" = "3600:0,90000:1" &&
	extracct ingest --db h2.db --idle-rows always h.exacct >out &&
	grep "4 rows, 0 duplicates, 0 late, 0 idle" out
'

test_expect_success 'a record older than what is stored is late: dropped' '
	{ rec partial 80 0 7200 2000000000 5 &&
	  rec partial 80 0 3600 1000000000 3; } >r &&
	log l.exacct r &&
	extracct ingest --db l.db l.exacct >out &&
	grep "1 rows, 0 duplicates, 1 late" out
'

test_expect_success 'tasks: partials differenced, intervals stored, final closes' '
	cat >t.spec <<-\EOS &&
	header kernel SunOS hostA
	group 0xf0000107
	  uint 0x30002000 7
	  uint 0x40002003 1000
	  uint 0x40002005 2000
	  uint 0x40002007 10
	end
	group 0xf0000107
	  uint 0x30002000 7
	  uint 0x40002003 1000
	  uint 0x40002005 3000
	  uint 0x40002007 25
	end
	group 0xf0000101
	  uint 0x30002000 7
	  uint 0x40002003 1000
	  uint 0x40002005 3500
	  uint 0x40002007 30
	end
	group 0xf0000108
	  uint 0x30002000 8
	  uint 0x40002003 1000
	  uint 0x40002005 2000
	  uint 0x40002007 10
	end
	group 0xf0000108
	  uint 0x30002000 8
	  uint 0x40002003 2000
	  uint 0x40002005 3000
	  uint 0x40002007 4
	end
	group 0xf0000101
	  uint 0x30002000 8
	  uint 0x40002003 1000
	  uint 0x40002005 3500
	  uint 0x40002007 20
	end
	EOS
	extracct_test encode t.spec t.exacct &&
	extracct ingest --db t.db t.exacct >out &&
	sqlite3 t.db "SELECT t.taskid, i.kind, i.t0_ns / 1000000000, i.t1_ns / 1000000000, i.cpu_user_ns / 1000000000
	    FROM task_intervals i JOIN tasks t USING (task_id) ORDER BY t.taskid, i.t1_ns" >actual &&
	cat >expect <<-\EOS &&
	7|partial|1000|2000|10
	7|partial|2000|3000|15
	7|final|3000|3500|5
	8|interval|1000|2000|10
	8|interval|2000|3000|4
	8|final|3000|3500|6
	EOS
	test_cmp expect actual
'

# A record with a start given to the nanosecond: STARTNS NS.
rec_at() {
	if [ "$1" = final ]; then echo "group 0xf0000100"; else echo "group 0xf0000106"; fi
	echo "  uint 0x30001000 $2"
	echo "  uint 0x40001007 $3"
	echo "  uint 0x40001008 $4"
	echo "  uint 0x40001009 $5"
	echo "  uint 0x4000100a 0"
	echo "  uint 0x4000100b 1"
	echo "  uint 0x4000100c 0"
	echo "end"
}

test_expect_success 'starts 1.01 s apart are one process, 1.03 s apart two' '
	{ rec_at partial 70 1000 0 1005 && rec_at final 70 1001 10000000 1010 &&
	  rec_at partial 71 1000 0 1005 && rec_at final 71 1001 30000000 1010
	} >r &&
	log s.exacct r &&
	extracct ingest --db s.db s.exacct >out &&
	test "$(sqlite3 s.db "SELECT count(*) FROM procs WHERE pid = 70")" -eq 1 &&
	test "$(sqlite3 s.db "SELECT count(*) FROM procs WHERE pid = 71")" -eq 2
'

# One pacct v3 record: PID BTIME_S COMMAND [ETIME UTIME] (64 bytes,
# little-endian; ETIME the bits of the float of elapsed ticks, UTIME the
# user ticks, each 0 if not given).
pacct_rec() {
	le16() { printf "\\%03o\\%03o" $(($1 & 255)) $((($1 >> 8) & 255)); }
	le32() { le16 $(($1 & 65535)); le16 $((($1 >> 16) & 65535)); }
	printf "\000\003\000\000\000\000\000\000"	# flag, v3, tty, exit code
	printf "\000\000\000\000\000\000\000\000"	# uid, gid
	printf "$(le32 "$1")$(le32 1)$(le32 "$2")"	# pid, ppid, btime
	printf "$(le32 "${4:-0}")"			# etime
	printf "$(le16 "${5:-0}")"			# utime (comp_t)
	printf "%014d" 0 | tr 0 "\000"			# stime .. swaps
	printf "%-16s" "$3" | tr " " "\000"		# comm
}

# acctd and pacct both record every exit.  pacct's start is whole seconds
# and can be a second and a tick early; acctd's is late by its delay in
# reading the exit: 1.06 s apart is one process with an alternate exit,
# 3.06 s apart two processes.
test_expect_success 'acctd and pacct starts 1.06 s apart: one process, the pacct exit an alternate' '
	{ echo "header library extracct althost" &&
	  rec_at final 4242 1700000001 60000000 1700000002 &&
	  rec_at final 4343 1700000003 60000000 1700000004; } >a.spec &&
	extracct_test encode a.spec acctd.exacct &&
	{ pacct_rec 4242 1700000000 early && pacct_rec 4343 1700000000 other; } >alt.pacct &&
	test "$(wc -c <alt.pacct)" -eq 128 &&
	extracct text -H alt.pacct | grep " 4242 .* early$" &&
	extracct ingest --db alt.db acctd.exacct >/dev/null &&
	extracct ingest --db alt.db --host althost alt.pacct >out &&
	grep "1 exits another source had" out &&
	test "$(sqlite3 alt.db "SELECT count(*) FROM procs WHERE pid = 4242")" -eq 1 &&
	test "$(sqlite3 alt.db "SELECT p.exit_source, x.source FROM proc_alt_exits x
	    JOIN procs p USING (proc_id) WHERE p.pid = 4242")" = "acctd|pacct" &&
	test "$(sqlite3 alt.db "SELECT count(*) FROM procs WHERE pid = 4343")" -eq 2
'

# A snapshot that read a process in its exit path: pid 5151's pacct exit,
# placed on the start the snapshot knows plus its elapsed ticks (3.08 s),
# reads 8 ms before that snapshot, pid 6161's acctd exit 1 ms before (its
# finish is when acctd read it, before the snapshot began).  Each closes
# its process a nanosecond after the snapshot.  Pid 5252's pacct exit
# (elapsed 2.90 s) reads 188 ms before, pid 6262's acctd exit 200 ms:
# more than the exit path and pacct's ticks, late, the process open.
#
# rec_42 KIND PID NSEC: started at 1700000039.485083038, seen (partial)
# or ended (final) at 1700000042.NSEC with 3.04 s of CPU.
rec_42() {
	if [ "$1" = final ]; then echo "group 0xf0000100"; else echo "group 0xf0000106"; fi
	echo "  uint 0x30001000 $2"
	echo "  uint 0x40001007 1700000039"
	echo "  uint 0x40001008 485083038"
	echo "  uint 0x40001009 1700000042"
	echo "  uint 0x4000100a $3"
	echo "  uint 0x4000100b 3"
	echo "  uint 0x4000100c 40000000"
	echo "end"
}
test_expect_success 'an exit a little before the snapshot that read its process in the exit path closes it' '
	{ echo "header library extracct lasthost" &&
	  for pid in 5151 5252 6161 6262; do
		rec_42 partial $pid 572731544 || return 1
	  done; } >last.spec &&
	extracct_test encode last.spec last.exacct &&
	{ echo "header library extracct lasthost" &&
	  rec_42 final 6161 571731544 && rec_42 final 6262 372731544
	} >exits.spec &&
	extracct_test encode exits.spec last.acctd &&
	{ pacct_rec 5151 1700000039 burn 0x439A0000 304 &&
	  pacct_rec 5252 1700000039 burn 0x43910000 304; } >last.pacct &&
	extracct text -H last.pacct | grep " 3.0800 5151 .* 3.040 " &&
	extracct ingest --db last.db last.exacct >/dev/null &&
	extracct ingest --db last.db last.acctd >out.acctd &&
	extracct ingest --db last.db --host lasthost last.pacct >out &&
	cat out.acctd out &&
	grep ": 2 records, 1 rows, 0 duplicates, 1 late," out.acctd &&
	grep ": 2 records, 1 rows, 0 duplicates, 1 late," out &&
	sqlite3 last.db "SELECT pid, finish_ns, exit_source FROM procs
	    WHERE finish_ns IS NOT NULL ORDER BY pid" >closed &&
	printf "%s\n" "5151|1700000042572731545|pacct" \
	    "6161|1700000042572731545|acctd" >want &&
	test_cmp want closed &&
	test "$(sqlite3 last.db "SELECT group_concat(pid) FROM procs
	    WHERE finish_ns IS NULL")" = "5252,6262"
'

test_done
