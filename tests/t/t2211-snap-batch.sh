#!/bin/sh
# snap writes its process records a batch at a time: every
# record still whole, all of them there across batches, and a log cut
# short by the file size limit keeps every whole record that fits, as
# record-by-record writes kept them (not only those before the batch).
. "$(dirname "$0")/../lib.sh"
kernel_lock || exit 1	# taskstats: the machine's

sleepers=
stop_sleepers() { [ -z "$sleepers" ] || kill $sleepers 2>/dev/null || :; }
trap 'stop_sleepers; rm -rf "$TRASH"' EXIT

# More than a batch: 400 sleeping processes are some 180 KiB of records.
k=0
while [ $k -lt 400 ]; do
	sleep 600 &
	sleepers="$sleepers $!"
	k=$((k + 1))
done

test_expect_success 'snap: every process of a snapshot of many batches' '
	extracct snap -o many.exacct &&
	extracct check many.exacct >out &&
	grep "^many.exacct: ok: .* 0 damaged ranges (0 bytes)$" out &&
	test "$(wc -c <many.exacct)" -gt 131072 &&
	extracct dump many.exacct | awk "/^ *1000	/ { print \$3 }" | sort >pids &&
	for p in $sleepers; do echo $p; done | sort >want &&
	comm -13 pids want >missing &&
	test_cmp /dev/null missing &&
	test "$(sort -u pids | wc -l)" -eq "$(wc -l <pids)"
'

# Processes that exit between /proc and the kernel's answer, in the
# middle of a batch of questions: each is skipped alone.
test_expect_success 'snap: processes exiting while it reads, both measures' '
	( i=0; while [ $i -lt 400 ]; do /bin/true; i=$((i + 1)); done ) &
	churn=$! &&
	for m in ticks runtime ticks runtime; do
		extracct snap --cpu $m -o churn.exacct 2>err &&
		test_cmp /dev/null err || break
	done &&
	wait $churn &&
	extracct check churn.exacct >out &&
	grep "^churn.exacct: ok: .* 0 damaged ranges (0 bytes)$" out &&
	test "$(extracct dump churn.exacct | grep -c "	group-sysload ")" -eq 4
'

test_expect_success 'snap over the size limit keeps every whole record that fits' '
	# The limit in bytes, as this shell counts ulimit -f (dash: 512-byte
	# blocks, bash: KiB): what a write of more than it leaves.
	( ulimit -f 16; exec dd if=/dev/zero of=probe bs=1024 count=64 ) 2>/dev/null;
	limit=$(wc -c <probe) &&
	( ulimit -f 16; exec "$EXTRACCT" snap -o lim.exacct ) 2>err;
	rc=$? && cat err &&
	test $rc -eq 3 &&
	grep "^extracct: lim.exacct: File too large; the snapshot stops there" err &&
	extracct check lim.exacct >out &&
	grep "^lim.exacct: ok: .* 0 damaged ranges (0 bytes)$" out &&
	size=$(wc -c <lim.exacct) &&
	echo "$size bytes of $limit" &&
	test "$size" -le "$limit" &&
	# No record is 2 KiB: a log cut back to its batch start would
	# hold the header, the system record and RAPL zones only.
	test "$size" -gt $((limit - 2048))
'

test_done
