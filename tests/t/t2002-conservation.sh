#!/bin/sh
# Conservation: the interval rows of every process that exited add up to
# its exit record, exactly, counter by counter; and the same records split
# over 1, 2 or 7 files, ingested in separate runs, give the same database.
. "$(dirname "$0")/../lib.sh"

# Per process that exited: pid|start_ns|sum of each counter.
sums() {
	sqlite3 "$1" "SELECT p.pid, p.start_ns,
	    sum(cpu_user_ns), sum(cpu_sys_ns), sum(faults_major),
	    sum(faults_minor), sum(msgs_snd), sum(msgs_rcv), sum(blocks_in),
	    sum(blocks_out), sum(chars_rdwr), sum(ctxt_vol), sum(ctxt_inv),
	    sum(signals), sum(swaps), sum(syscalls)
	    FROM proc_intervals i JOIN procs p USING (proc_id)
	    WHERE p.finish_ns IS NOT NULL GROUP BY proc_id" | sort
}

# The same per task that ended: taskid|start_ns|sums.
task_sums() {
	sqlite3 "$1" "SELECT t.taskid, t.start_ns,
	    sum(cpu_user_ns), sum(cpu_sys_ns), sum(faults_major),
	    sum(faults_minor), sum(msgs_snd), sum(msgs_rcv), sum(blocks_in),
	    sum(blocks_out), sum(chars_rdwr), sum(ctxt_vol), sum(ctxt_inv),
	    sum(signals), sum(swaps), sum(syscalls)
	    FROM task_intervals i JOIN tasks t USING (task_id)
	    WHERE t.finish_ns IS NOT NULL GROUP BY task_id"
}

# Everything but the ledger (which names files and times), sorted.
canonical() {
	for t in hosts procs proc_intervals proc_last tasks task_intervals \
	    task_last flow_records flows; do
		echo "== $t"
		sqlite3 "$1" "SELECT * FROM $t" | sort
	done
}

for f in proc task flow real/proc real/task real/flow; do
	test_expect_success "conservation: sample $f" "
		extracct ingest --db c.db \"\$SAMPLES/$f.exacct\" >out &&
		extracct_test finals \"\$SAMPLES/$f.exacct\" | sort >expect &&
		{ sums c.db && task_sums c.db; } | sort >actual &&
		test_cmp expect actual &&
		rm -f c.db*
	"
done

for seed in 1 2 3; do
	test_expect_success "conservation: 20000 records, random snapshot times, seed $seed" "
		rm -f g.db* &&
		extracct gen --kind proc --records 20000 --seed $seed --jitter -o g.exacct &&
		extracct ingest --db g.db --chunk 997 g.exacct >out &&
		extracct_test finals g.exacct | sort >expect &&
		test \$(line_count expect) -gt 5000 &&
		sums g.db >actual &&
		test_cmp expect actual &&
		test \$(sqlite3 g.db 'SELECT count(*) FROM proc_intervals WHERE final = 0') -gt 1000 &&
		rm -f g.db*
	"
done

test_expect_success 'split over 1, 2 and 7 files: identical databases' '
	extracct gen --kind proc --records 6000 --seed 4 --jitter -o all.exacct &&
	extracct_test split all.exacct 2 two &&
	extracct_test split all.exacct 7 seven &&
	extracct ingest --db one.db all.exacct >out &&
	extracct ingest --db two.db two.1 >out && extracct ingest --db two.db two.2 >out &&
	for i in 1 2 3 4 5 6 7; do
		extracct ingest --db seven.db seven.$i >out || return 1
	done &&
	canonical one.db >one &&
	canonical two.db >two &&
	canonical seven.db >seven &&
	test "$(line_count one)" -gt 6000 &&
	test_cmp one two &&
	test_cmp one seven
'

test_expect_success 'split flows and tasks too: identical databases' '
	extracct gen --kind flow --records 3000 --seed 5 -o f.exacct &&
	extracct gen --kind task --records 3000 --seed 5 -o t.exacct &&
	extracct_test split f.exacct 7 fs && extracct_test split t.exacct 7 ts &&
	extracct ingest --db a.db f.exacct t.exacct >out &&
	for i in 1 2 3 4 5 6 7; do
		extracct ingest --db b.db fs.$i ts.$i >out || return 1
	done &&
	canonical a.db >a && canonical b.db >b &&
	test_cmp a b
'

test_expect_success 'task intervals (partial, interval, final) add up to the final record' '
	extracct gen --kind task --records 5000 --seed 6 -o t.exacct &&
	extracct ingest --db t.db --chunk 333 t.exacct >out &&
	extracct_test finals t.exacct | sort >expect &&
	test "$(line_count expect)" -gt 100 &&
	task_sums t.db | sort >actual &&
	test_cmp expect actual &&
	test "$(sqlite3 t.db "SELECT count(DISTINCT kind) FROM task_intervals")" -eq 3
'

test_done
