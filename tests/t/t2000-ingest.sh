#!/bin/sh
# ingest: the ledger makes it exactly once; outputs beside; real records;
# damage stored; the store never written through a planted link.
. "$(dirname "$0")/../lib.sh"

count() {
	sqlite3 "$1" "SELECT count(*) FROM $2"
}

test_expect_success 'ingest the samples; again adds nothing' '
	extracct ingest --db s.db "$SAMPLES"/*.exacct "$SAMPLES"/real/*.exacct >out &&
	test "$(count s.db proc_intervals)" -gt 50 &&
	for t in procs proc_intervals proc_last tasks task_intervals flow_records flows files; do
		echo "$t $(count s.db $t)" || return 1
	done >before &&
	extracct ingest --db s.db "$SAMPLES"/*.exacct "$SAMPLES"/real/*.exacct >out &&
	test "$(grep -c "already ingested" out)" -eq 6 &&
	for t in procs proc_intervals proc_last tasks task_intervals flow_records flows files; do
		echo "$t $(count s.db $t)" || return 1
	done >after &&
	test_cmp before after
'

test_expect_success 'renamed or copied: recognised, nothing added' '
	cp "$SAMPLES/proc.exacct" renamed.log &&
	extracct ingest --db s.db renamed.log >out &&
	grep "renamed.log: already ingested" out &&
	test "$(count s.db files)" -eq 6
'

test_expect_success 'a file that grew is read from where the last run stopped' '
	extracct gen --kind proc --records 3000 --seed 11 -o full &&
	extracct_test offsets full >offs &&
	cut=$(sed -n 1500p offs | cut -d" " -f1) &&
	head -c $cut full >live &&
	extracct ingest --db g.db live >out &&
	grep "live: bytes 0-$cut: " out &&
	cat full >live &&
	extracct ingest --db g.db live >out &&
	grep "live: bytes $cut-$(wc -c <full | tr -d " "): " out &&
	extracct ingest --db one.db full >out &&
	sqlite3 g.db "SELECT * FROM proc_intervals" | sort >a &&
	sqlite3 one.db "SELECT * FROM proc_intervals" | sort >b &&
	test_cmp a b &&
	test "$(count g.db files)" -eq 1
'

test_expect_success 'a file truncated or replaced under the same name is new' '
	extracct gen --kind proc --records 200 --seed 12 -o log &&
	extracct ingest --db r.db log >out &&
	cut=$(extracct_test offsets log | sed -n 50p | cut -d" " -f1) &&
	head -c $cut log >short && mv short log &&
	extracct ingest --db r.db log >out &&
	grep "log: bytes 0-" out &&
	extracct gen --kind proc --records 200 --seed 13 -o log &&
	extracct ingest --db r.db log >out &&
	grep "log: bytes 0-" out &&
	test "$(count r.db files)" -eq 3
'

test_expect_success 'a torn last record is left for the next run' '
	extracct gen --kind proc --records 100 --seed 14 -o whole &&
	size=$(wc -c <whole | tr -d " ") &&
	head -c $((size - 50)) whole >torn &&
	test_expect_code 1 extracct ingest --db t.db torn >out 2>err &&
	grep "incomplete tail, left for the next run" err &&
	cat whole >torn &&
	extracct ingest --db t.db torn >out &&
	grep "99 rows\\|1 records" out &&
	extracct ingest --db w.db whole >out &&
	sqlite3 t.db "SELECT * FROM proc_intervals" | sort >a &&
	sqlite3 w.db "SELECT * FROM proc_intervals" | sort >b &&
	test_cmp a b
'

test_expect_success 'damage in the middle: reported, stored, the rest kept' '
	extracct gen --kind proc --records 50 --seed 15 -o d &&
	off=$(extracct_test offsets d | sed -n 20p | cut -d" " -f1) &&
	printf "\\220" | dd of=d bs=1 seek=$((off + 20)) conv=notrunc 2>/dev/null &&
	test_expect_code 1 extracct ingest --db d.db d >out 2>err &&
	grep "d: offset $((off + 20)): unknown type code" err &&
	grep "49 records" out &&
	test "$(sqlite3 d.db "SELECT damaged_ranges || \" \" || (off_bad = $((off + 20))) FROM files, damage")" = "1 1"
'

test_expect_success 'the real flow halves pair into one conversation' '
	extracct ingest --db f.db "$SAMPLES/real/flow.exacct" >out &&
	sqlite3 f.db "SELECT local_addr, local_port, remote_addr, remote_port,
	    uid, projid, bytes_out, packets_out, bytes_in, packets_in, paired,
	    last_s - first_s FROM flows" >actual &&
	echo "198.51.100.7|43727|192.0.2.80|80|100|10|4561|5|3447|10|1|2" >expect &&
	test_cmp expect actual
'

test_expect_success 'several owners on one direction: bytes counted once' '
	cat >o.spec <<-\EOS &&
	header kernel SunOS crun
	group 0xf0000109
	  uint 0x30003000 0x42660f64
	  uint 0x30003001 0xc6336407
	  uint 0x20003004 80
	  uint 0x20003005 55783
	  uint 0x10003006 6
	  uint 0x4000300a 1113850483
	  uint 0x4000300b 1113850496
	  uint 0x30003008 4148
	  uint 0x30003009 21
	end
	group 0xf0000109
	  uint 0x30003000 0xc6336407
	  uint 0x30003001 0x42660f64
	  uint 0x20003004 55783
	  uint 0x20003005 80
	  uint 0x10003006 6
	  uint 0x4000300a 1113850483
	  uint 0x4000300b 1113850496
	  uint 0x30003008 15082
	  uint 0x30003009 13
	  uint 0x3000300c 10
	  uint 0x3000300d 100
	end
	group 0xf0000109
	  uint 0x30003000 0xc6336407
	  uint 0x30003001 0x42660f64
	  uint 0x20003004 55783
	  uint 0x20003005 80
	  uint 0x10003006 6
	  uint 0x4000300a 1113850483
	  uint 0x4000300b 1113850496
	  uint 0x30003008 240
	  uint 0x30003009 6
	  uint 0x3000300c 0
	  uint 0x3000300d 0
	end
	EOS
	extracct_test encode o.spec o.exacct &&
	extracct ingest --db o.db o.exacct >out &&
	sqlite3 o.db "SELECT uid, bytes_out, packets_out, bytes_in, packets_in FROM flows ORDER BY uid" >actual &&
	printf "0|240|6|0|0\n100|15082|13|4148|21\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'a later record of the same flow replaces, not adds' '
	extracct gen --kind flow --records 2000 --seed 16 -o fl &&
	extracct ingest --db fl.db fl >out &&
	test "$(count fl.db flow_records)" -lt 2000 &&
	test "$(sqlite3 fl.db "SELECT sum(bytes) FROM flow_records")" = \
	    "$(sqlite3 fl.db "SELECT sum(bytes_out) + sum(bytes_in) FROM flows")"
'

test_expect_success 'pid 1679: its interval carries the record values' '
	extracct ingest --db p.db "$SAMPLES/real/proc.exacct" >out &&
	sqlite3 p.db "SELECT (t1_ns - t0_ns), cpu_user_ns, cpu_sys_ns, chars_rdwr,
	    ctxt_vol, syscalls, rss_avg_kb, rss_max_kb, final
	    FROM proc_intervals JOIN procs USING (proc_id) WHERE pid = 1679" >actual &&
	echo "416930155384074|2861447|4150875|15105|21|586|584|27004|1" >expect &&
	test_cmp expect actual
'

test_expect_success '--outdir: BASE.txt and BASE.csv beside' '
	mkdir o &&
	extracct ingest --db x.db --outdir o "$SAMPLES/proc.exacct" "$SAMPLES/real/flow.exacct" >out &&
	test_cmp "$SAMPLES/proc.txt" o/proc.exacct.txt &&
	test "$(line_count o/proc.exacct.csv)" -eq 61 &&
	head -n 1 o/proc.exacct.csv | grep "^record,host,pid,ppid,uid,gid,projid,taskid,start_utc,start_epoch_s" &&
	grep "^crun,tcp,198.51.100.7,43727,192.0.2.80,80,2005-03-10T19:25:32Z,1110482732," o/flow.exacct.csv
'

test_expect_success 'CSV guards text that a spreadsheet would run' '
	printf "header kernel SunOS h\ngroup 0xf0000100\n  uint 0x30001000 9\n  string 0x60001006 =cmd|calc\nend\n" >e.spec &&
	extracct_test encode e.spec e.exacct &&
	mkdir eo && extracct ingest --db e.db --outdir eo e.exacct >out &&
	grep ",\"'\''=cmd|calc\"\\|,'\''=cmd|calc" eo/e.exacct.csv
'

test_expect_success 'the database is never opened through a symbolic link' '
	ln -s s.db link.db &&
	test_expect_code 3 extracct ingest --db link.db "$SAMPLES/proc.exacct" 2>err &&
	grep "symbolic link" err
'

test_expect_success 'schema version and WAL mode' '
	test "$(sqlite3 s.db "PRAGMA user_version")" -eq "$(schema_now)" &&
	test "$(sqlite3 s.db "PRAGMA journal_mode")" = wal
'

test_expect_success 'an empty file: reported, nothing stored' '
	: >empty &&
	test_expect_code 1 extracct ingest --db s.db empty 2>err &&
	grep "empty: offset 0: empty file" err &&
	test "$(count s.db files)" -eq 6
'

# proc PID START_S FINISH_S: a process record as an extracct-test spec.
proc() {
	printf "group 0xf0000100\n  uint 0x30001000 %s\n  uint 0x40001007 %s\n  uint 0x40001008 0\n  uint 0x40001009 %s\n  uint 0x4000100a 0\n  string 0x60001006 p%s\nend\n" "$1" "$2" "$3" "$1"
}

test_expect_success 'a year-2300 time is refused, said with its offset, not stored as 1715' '
	{ echo "header kernel SunOS hostA" &&
	  proc 10 1700000000 1700000005 &&
	  proc 11 10413792000 10413792005 &&
	  proc 12 1700000010 1700000015; } >y.spec &&
	extracct_test encode y.spec y.exacct &&
	test_expect_code 1 extracct ingest --db y.db y.exacct >out 2>err &&
	cat out err &&
	grep "^y.exacct: bytes 0-463: 3 records, 2 rows, .* 1 without pid or time, 2 times refused$" out &&
	grep "^extracct: y.exacct: offset 223: 2 times refused (from 2262-04-11 23:47:16 UTC on" err &&
	sqlite3 y.db "SELECT pid, start_ns / 1000000000 FROM procs ORDER BY pid" >actual &&
	printf "10|1700000000\n12|1700000010\n" >expect &&
	test_cmp expect actual &&
	test "$(sqlite3 y.db "SELECT bad_values FROM files")" -eq 2
'

test_expect_success 'a pacct elapsed time past 2262: the finish refused, the rest read' '
	# pacct v3, little-endian: pid P, start 1700000000, the bytes of its etime E.
	rec() { printf "\0\3\0\0\0\0\0\0\0\0\0\0\0\0\0\0\\$1\0\0\0\1\0\0\0\0\361\123\145$2" &&
		printf "%032d" 0 | tr 0 "\0"; } &&
	{ rec 1 "\000\000\372\103" && rec 2 "\153\013\136\135" &&
	  rec 3 "\000\000\372\103"; } >y.pacct &&
	test "$(wc -c <y.pacct)" -eq 192 &&
	test_expect_code 1 extracct ingest --db yp.db y.pacct >out 2>err &&
	cat out err &&
	grep "^y.pacct: bytes 0-192: 3 records, 2 rows, .* 1 without pid or time, 1 times refused$" out &&
	grep "^extracct: y.pacct: offset 64: 1 time refused" err &&
	test "$(sqlite3 yp.db "SELECT count(*) FROM procs WHERE finish_ns < 0")" -eq 0
'

test_done
