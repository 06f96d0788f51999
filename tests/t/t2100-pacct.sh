#!/bin/sh
# Linux process accounting: real kernel-written records checked field by
# field against GNU acct's dump-acct; v2 big-endian and v0 files from gen
# checked the same way; a torn tail and a bad version byte.
. "$(dirname "$0")/../lib.sh"

# One line per record from dump-acct: comm|utime|stime|etime|uid|gid|pid|
# ppid|flags|exit|start (times in the file's AHZ ticks).
peer() {
	dump-acct "$@" | awk -F'|' '
	function trim(s) { gsub(/^ +| +$/, "", s); return s }
	{ f = $12; flags = (index(f, "F") > 0) + 2 * (index(f, "S") > 0) + 16 * (index(f, "X") > 0)
	  printf "%s|%d|%d|%d|%s|%s|%s|%s|%d|%s|%s\n", trim($1), trim($3), trim($4), trim($5),
	      trim($6), trim($7), trim($10), trim($11), flags, trim($13), trim($15) }'
}

# The same from extracct dump; ahz converts ns back to the file's ticks.
ours() {
	ahz=$1
	shift
	extracct dump "$@" >ours.dump &&
	awk -F'	' -v ahz=$ahz '
	function flush() { if (n) printf "%s|%d|%d|%d|%s|%s|%s|%s|%d|%d|%s\n", v["command"],
	      v["cpu_user_ns"] / (1e9 / ahz), v["cpu_sys_ns"] / (1e9 / ahz),
	      (v["finish_ns"] - v["start_ns"]) / (1e9 / ahz) + 0.5,
	      v["uid"], v["gid"], ("pid" in v) ? v["pid"] : 0, ("ppid" in v) ? v["ppid"] : 0,
	      int(v["acctflags"] / 1) % 2 + 2 * (int(v["acctflags"] / 2) % 2) + 16 * (int(v["acctflags"] / 16) % 2),
	      int(v["wait_status"] / 256), int(v["start_ns"] / 1e9) }
	/^pacct record/ { flush(); n = 1; delete v; next }
	{ name = $2; gsub(/ /, "", name); val = $3; sub(/^"/, "", val); sub(/"$/, "", val); v[name] = val }
	END { flush() }' ours.dump >ours.raw &&
	# dump-acct prints the start as ctime(3) text, in UTC here.
	cut -d"|" -f11 ours.raw | sort -u | while read -r s; do
		echo "$s|$(date -u -d "@$s" "+%a %b %e %H:%M:%S %Y")"
	done >dates &&
	awk -F'|' 'NR == FNR { d[$1] = $2; next }
	    { $11 = d[$11]; print }' OFS='|' dates ours.raw
}

if ! command -v dump-acct >/dev/null 2>&1; then
	test_skip 'pacct vs dump-acct' 'GNU acct is not installed (apt-get install acct)'
else
test_expect_success 'gen v2 big-endian: every field as dump-acct reads it' '
	extracct gen --kind pacct --pacct-version 2 --big-endian --records 500 --seed 3 -o v2be &&
	peer --format 2 --byteswap --ahz 1000 v2be >expect &&
	ours 1000 v2be >actual &&
	test "$(line_count actual)" -eq 500 &&
	test_cmp expect actual
'

test_expect_success 'gen v0: every field as dump-acct reads it' '
	extracct gen --kind pacct --pacct-version 0 --records 500 --seed 4 -o v0 &&
	peer --format 0 --ahz 100 v0 >expect &&
	ours 100 v0 >actual &&
	test_cmp expect actual
'

test_expect_success 'gen v3 (big-endian too)' '
	extracct gen --kind pacct --records 300 --seed 5 -o v3 &&
	peer v3 >expect && ours 100 v3 >actual && test_cmp expect actual &&
	extracct gen --kind pacct --big-endian --records 300 --seed 5 -o v3be &&
	peer --byteswap v3be >expect && ours 100 v3be >actual && test_cmp expect actual
'
fi

test_expect_success 'pacct is detected by content, whatever the name' '
	extracct gen --kind pacct --records 10 --seed 6 -o something.exacct &&
	extracct check something.exacct >out &&
	grep "something.exacct: ok: 10 records" out
'

test_expect_success 'torn tail: whole records kept, the tail reported' '
	extracct gen --kind pacct --records 20 --seed 7 -o p &&
	head -c $((64 * 20 - 30)) p >torn &&
	test_expect_code 1 extracct text -H torn >out 2>err &&
	test "$(line_count out)" -eq 19 &&
	grep "^extracct: torn: offset 1216: torn tail: 34 bytes after the last whole 64-byte record (skipped bytes 1216-1249)$" err
'

test_expect_success 'bad version byte in the middle: that record skipped, grid kept' '
	extracct gen --kind pacct --records 20 --seed 8 -o p &&
	printf "\\011" | dd of=p bs=1 seek=$((64 * 7 + 1)) conv=notrunc 2>/dev/null &&
	test_expect_code 1 extracct text -H p >out 2>err &&
	test "$(line_count out)" -eq 19 &&
	grep "^extracct: p: offset 448: unknown pacct version byte 0x09; record skipped (skipped bytes 448-511)$" err &&
	extracct gen --kind pacct --records 20 --seed 8 -o clean &&
	extracct text -H clean | sed 8d >expect &&
	test_cmp expect out
'

test_expect_success 'comp_t and comp2_t decode exactly' '
	extracct gen --kind pacct --pacct-version 2 --records 2000 --seed 9 -o big &&
	extracct check big >out && grep ": ok: 2000 records" out
'

# v3 record, little-endian: pid, btime (s), etime as float bits (AHZ
# ticks), utime (comp_t ticks), command.
v3rec() {
	pid=$1 btime=$2 ebits=$3 utime=$4 comm=$5
	le32() { printf "\\%03o\\%03o\\%03o\\%03o" $(($1 & 255)) $((($1 >> 8) & 255)) $((($1 >> 16) & 255)) $((($1 >> 24) & 255)); }
	le16() { printf "\\%03o\\%03o" $(($1 & 255)) $((($1 >> 8) & 255)); }
	printf "\000\003\000\000$(le32 0)$(le32 0)$(le32 0)$(le32 $pid)$(le32 1)$(le32 $btime)$(le32 $ebits)$(le16 $utime)$(le16 0)$(le16 0)$(le16 0)$(le16 0)$(le16 0)$(le16 0)$(le16 0)"
	printf "%-16s" "$comm" | tr " " "\000"
}

# A snapshot log (hostA) that saw pid 77 at 1200 s with $1 s + $2 ns of
# user CPU, into $3.
snap77() {
	cat >"$3.spec" <<-EOS &&
	header kernel extracct hostA
	group 0xf0000106
	  uint 0x30001000 77
	  uint 0x40001007 1000
	  uint 0x40001008 400000000
	  uint 0x40001009 1200
	  uint 0x4000100b $1
	  uint 0x4000100c $2
	end
	EOS
	extracct_test encode "$3.spec" "$3"
}

test_expect_success 'ingest: a pacct exit closes the process a snapshot opened' '
	snap77 1 0 snap.exacct &&
	v3rec 77 1000 0x47435000 300 job >exit.pacct &&
	test "$(wc -c <exit.pacct)" -eq 64 &&
	extracct ingest --db m.db snap.exacct >out &&
	extracct ingest --db m.db --host hostA exit.pacct >out &&
	sqlite3 m.db "SELECT count(*), sum(cpu_user_ns), max(t1_ns) / 1000000000, sum(final)
	    FROM proc_intervals" >actual &&
	echo "2|3000000000|1500|1" >expect &&
	test_cmp expect actual &&
	test "$(sqlite3 m.db "SELECT count(*) FROM procs")" -eq 1 &&
	test "$(sqlite3 m.db "SELECT count(*) FROM proc_last")" -eq 0
'

# A snapshot that saw USER_S.USER_NS of user CPU for pid 77, then the
# pacct exit with comp_t UTIME: the final interval's CPU and anomalies.
floor_case() {
	rm -f f.db && snap77 $1 $2 f.exacct &&
	v3rec 77 1000 0x47435000 $3 job >f.pacct &&
	extracct ingest --db f.db f.exacct >out &&
	extracct ingest --db f.db --host hostA f.pacct >out &&
	sqlite3 f.db "SELECT coalesce(cpu_user_ns, -1), anomalies
	    FROM proc_intervals WHERE final = 1"
}

# comp_t keeps 13 bits: 100.03 s (10003 units) is written as 1250 << 3,
# 100.00 s.  Less than its 80 ms step below the snapshot: the snapshot
# stands, the last interval is 0.  More than a step, or below 81.92 s,
# where comp_t is exact: a counter that went back, flagged.
test_expect_success 'pacct exit: comp_t rounding below a snapshot is no anomaly' '
	floor_case 100 30000000 $((8192 + 1250)) >actual &&
	echo "0|0" >expect && test_cmp expect actual &&
	floor_case 100 200000000 $((8192 + 1250)) >actual &&
	grep "^-1|[1-9]" actual &&
	floor_case 50 30000000 5000 >actual &&
	grep "^-1|[1-9]" actual
'

test_expect_success 'ingest: a live pacct file is read on from where it stopped' '
	extracct gen --kind pacct --records 100 --seed 10 -o all.pacct &&
	head -c $((64 * 60)) all.pacct >live.pacct &&
	extracct ingest --db l.db --host h live.pacct >out &&
	grep "live.pacct: bytes 0-3840: 60 records" out &&
	cp all.pacct live.pacct &&
	extracct ingest --db l.db --host h live.pacct >out &&
	grep "live.pacct: bytes 3840-6400: 40 records" out &&
	test "$(sqlite3 l.db "SELECT count(*) FROM proc_intervals")" -eq 100 &&
	test "$(sqlite3 l.db "SELECT kind FROM files")" = pacct
'

test_expect_success 'ingest: a torn pacct tail waits for the next run' '
	head -c $((64 * 10 + 20)) all.pacct >t.pacct &&
	test_expect_code 1 extracct ingest --db t.db --host h t.pacct >out 2>err &&
	grep "incomplete tail, left for the next run" err &&
	grep "bytes 0-640: 10 records" out
'

# Real kernel data.  Accounting is one switch for the whole machine:
# note whether it was on (Debian's default file grows when a process
# exits), and put it back as it was on every way out.
acct_note_state

if ! command -v accton >/dev/null 2>&1 || ! command -v dump-acct >/dev/null 2>&1; then
	test_skip 'kernel pacct' 'accton/dump-acct missing (apt-get install acct)'
elif ! : >kernel.acct || ! accton "$TRASH/kernel.acct" >/dev/null 2>err.accton; then
	test_skip 'kernel pacct' "the kernel refused accounting: $(cat err.accton)"
	acct_restore
else
	trap 'acct_restore; rm -rf "$TRASH"' EXIT
	trap 'acct_restore; exit 130' INT TERM
	# The workload: 200 short commands, one that burns about a second
	# of CPU, one that exits 3, one killed by a signal.
	i=0
	while [ $i -lt 200 ]; do /bin/true; i=$((i + 1)); done
	awk 'BEGIN { for (i = 0; i < 8e7; i++) s += i; exit 0 }'
	sh -c 'exit 3'
	sh -c 'kill -9 $$' 2>/dev/null
	acct_restore
	trap 'rm -rf "$TRASH"' EXIT

	test_expect_success 'kernel-written pacct: every field as dump-acct reads it' '
		peer kernel.acct >expect &&
		ours 100 kernel.acct >actual &&
		test "$(grep -c "^true|" actual)" -ge 200 &&
		test_cmp expect actual
	'

	test_expect_success 'kernel-written pacct: the workload is all there' '
		grep "^awk|" actual >burn &&
		awk -F"|" "\$2 + \$3 >= 50 { found = 1 } END { exit !found }" burn ||
		{ echo "no awk with 0.5 s of CPU:"; cat burn; false; } &&
		grep "^sh|.*|3|[^|]*$" actual >/dev/null ||
		{ echo "no sh exiting 3:"; grep "^sh|" actual; false; } &&
		grep "^sh|[^|]*|[^|]*|[^|]*|[^|]*|[^|]*|[^|]*|[^|]*|16|0|" actual >/dev/null ||
		{ echo "no sh killed by a signal:"; grep "^sh|" actual; false; }
	'
fi

test_done
