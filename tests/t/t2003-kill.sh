#!/bin/sh
# Crash safety: an ingest killed with SIGKILL at 20 random moments, run
# again after each, ends with the same database as one uninterrupted run.
# Each kill comes at a random moment within the first tenth of a full
# run's time, so every one of the 20 lands in a live ingest (startup,
# mid-chunk or commit) and the work still advances between kills.
. "$(dirname "$0")/../lib.sh"

canonical() {
	for t in hosts procs proc_intervals proc_last tasks task_intervals \
	    task_last flow_records flows damage; do
		echo "== $t"
		sqlite3 "$1" "SELECT * FROM $t" | sort
	done
	echo "== files"
	sqlite3 "$1" "SELECT kind, path, head_len, head_hash, tail_hash,
	    ingested_to, size, records, duplicates, late, other_objects,
	    unknown_items, bad_values, damaged_ranges, damaged_bytes FROM files"
}

now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

test_expect_success 'setup: a large log and an uninterrupted ingest' '
	extracct gen --kind proc --records 60000 --seed 21 --jitter -o big.exacct &&
	t0=$(now_ms) &&
	extracct ingest --db ref.db --chunk 400 big.exacct >out &&
	echo $(($(now_ms) - t0)) >duration &&
	canonical ref.db >ref &&
	test "$(line_count ref)" -gt 60000
'

test_expect_success 'killed at 20 random moments, resumed each time: same database' '
	dur=$(cat duration) &&
	killed=0 &&
	for i in $(seq 1 20); do
		ms=$(awk -v s=$i -v d=$dur "BEGIN { srand(s * 7919); printf \"%d\", rand() * d / 10 }") &&
		{ "$EXTRACCT" ingest --db k.db --chunk 400 big.exacct >/dev/null 2>&1 & pid=$!; } &&
		sleep $(awk -v m=$ms "BEGIN { printf \"%.3f\", m / 1000 }") &&
		if kill -9 $pid 2>/dev/null; then killed=$((killed + 1)); fi
		wait $pid 2>/dev/null
		sqlite3 k.db "SELECT max(ingested_to) FROM files" 2>/dev/null >>progress
		:
	done &&
	echo "killed $killed of 20 runs mid-ingest" &&
	test $killed -ge 15 &&
	size=$(wc -c <big.exacct | tr -d " ") &&
	awk -v s=$size "\$1 > 0 && \$1 < s" progress | sort -u >partial &&
	echo "$(line_count partial) distinct partial offsets" &&
	test "$(line_count partial)" -ge 5 &&
	extracct ingest --db k.db --chunk 400 big.exacct >out &&
	canonical k.db >actual &&
	test_cmp ref actual
'

test_done
