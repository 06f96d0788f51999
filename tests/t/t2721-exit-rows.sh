#!/bin/sh
# Schema 13: a process seen only at its exit is one procs row,
# inserted in batches of 32; a repeat found in a batch (its identity
# stored already, or earlier in the same statement) is a duplicate, as
# one inserted alone is, and adds nothing.
. "$(dirname "$0")/../lib.sh"

counts() {
	sqlite3 "$1" "SELECT count(*), count(exit_anomalies) FROM procs;
	    SELECT count(*) FROM proc_intervals;
	    SELECT count(*) FROM proc_interval_rows"
}

test_expect_success 'setup' '
	extracct gen --kind pacct --records 100 --seed 7 -o a.pacct &&
	extracct gen --kind pacct --records 1 --seed 8 -o one.pacct &&
	cat one.pacct a.pacct >b.pacct &&
	extracct gen --kind pacct --records 20 --seed 9 -o x.pacct &&
	cat x.pacct x.pacct >c.pacct
'

test_expect_success 'exits only: one procs row each, no interval row' '
	extracct ingest --db a.db a.pacct >out &&
	grep "100 records, 100 rows, 0 duplicates" out &&
	counts a.db >actual &&
	printf "100|100\n100\n0\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'the same exits in another file: duplicates, batched or not' '
	extracct ingest --db a.db b.pacct >out &&
	grep "101 records, 1 rows, 100 duplicates" out &&
	counts a.db >actual &&
	printf "101|101\n101\n0\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'a repeat within one batch is a duplicate' '
	extracct ingest --db c.db c.pacct >out &&
	grep "40 records, 20 rows, 20 duplicates" out &&
	counts c.db >actual &&
	printf "20|20\n20\n0\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'committed every 7 records: the same facts' '
	extracct ingest --db d.db --chunk 7 b.pacct >out &&
	grep "101 records, 101 rows, 0 duplicates" out &&
	q="SELECT host, pid, start_ns, command, t0_ns, t1_ns, final,
	    cpu_user_ns, cpu_sys_ns, faults_minor, anomalies FROM v_proc_usage
	    ORDER BY pid, start_ns" &&
	sqlite3 a.db "$q" >expect &&
	sqlite3 d.db "$q" >actual &&
	test_cmp expect actual
'

# An exit, then a partial record of the same process from before it (a
# log out of order): the exit stays, the partial is late.  The exit's row
# is still in the batch when the partial comes: it must be written first,
# or the partial would be taken for a new process and the exit dropped.
rec() {	# GROUP FINISH_S CPU_USER_S
	echo "group $1" && echo "  uint 0x30001000 777" &&
	echo "  uint 0x40001007 1700000000" && echo "  uint 0x40001008 0" &&
	echo "  uint 0x40001009 $2" && echo "  uint 0x4000100a 0" &&
	echo "  uint 0x4000100b $3" && echo "  uint 0x4000100c 0" &&
	echo "  string 0x60001006 late" && echo "end"
}

test_expect_success 'an earlier partial record after the exit is late' '
	{ echo "header library extracct alpha" &&
	  rec 0xf0000100 1700000100 5 && rec 0xf0000106 1700000050 2; } >ep.spec &&
	extracct_test encode ep.spec ep.exacct &&
	extracct ingest --db e.db ep.exacct >out &&
	grep "2 records, 1 rows, 0 duplicates, 1 late" out &&
	test "$(sqlite3 e.db "SELECT count(*), sum(cpu_user_ns), min(final)
	    FROM proc_intervals")" = "1|5000000000|1"
'

test_done
