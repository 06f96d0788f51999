#!/bin/sh
# gen is deterministic and its logs are what the committed samples hold;
# dump -v and text of the samples match their committed outputs.
. "$(dirname "$0")/../lib.sh"

ids="--passwd $SAMPLES/etc/passwd --group $SAMPLES/etc/group --project $SAMPLES/etc/project"

test_expect_success 'same seed, same bytes; other seed, other bytes' '
	extracct gen --kind proc --records 300 --seed 7 -o a &&
	extracct gen --kind proc --records 300 --seed 7 -o b &&
	extracct gen --kind proc --records 300 --seed 8 -o c &&
	cmp a b &&
	! cmp -s a c
'

test_expect_success 'samples are reproduced by gen' '
	extracct gen --kind proc --records 60 --seed 1 -o proc &&
	extracct gen --kind task --records 24 --seed 2 -o task &&
	extracct gen --kind flow --records 30 --seed 3 -o flow &&
	cmp proc "$SAMPLES/proc.exacct" &&
	cmp task "$SAMPLES/task.exacct" &&
	cmp flow "$SAMPLES/flow.exacct"
'

for k in proc task flow; do
	test_expect_success "dump -v of the $k sample" "
		extracct dump -v $ids \"\$SAMPLES/$k.exacct\" >actual &&
		test_cmp \"\$SAMPLES/$k.dump-v\" actual
	"
	test_expect_success "text of the $k sample" "
		extracct text \"\$SAMPLES/$k.exacct\" >actual &&
		test_cmp \"\$SAMPLES/$k.txt\" actual
	"
done

test_expect_success 'gen writes exactly the records asked for' '
	for n in 1 2 3 17 1000; do
		for k in proc task flow; do
			extracct gen --kind $k --records $n --seed 5 -o f &&
			extracct text -H f >out &&
			test "$(line_count out)" -eq $n || return 1
		done
	done
'

test_expect_success 'proc mix: partials, finals, sched three times, pid reuse' '
	extracct gen --kind proc --records 2000 --seed 1 -o p &&
	extracct text -H p >out &&
	grep -c " -1.0000 0 0 0 .* sched$" out >n &&
	test "$(cat n)" -ge 3 &&
	awk "\$3 == \"-1.0000\"" out >partials &&
	awk "\$3 != \"-1.0000\"" out >finals &&
	test "$(line_count partials)" -gt 100 &&
	test "$(line_count finals)" -gt 100 &&
	awk "\$3 != \"-1.0000\" { print \$4 }" out | sort | uniq -d >reused &&
	test "$(line_count reused)" -gt 0
'

test_expect_success 'task mix: final, partial and interval records' '
	extracct gen --kind task --records 200 --seed 1 -o t &&
	extracct dump t >out &&
	grep -q "	group-task  *	" out &&
	grep -q "group-task-partial" out &&
	grep -q "group-task-interval" out
'

test_expect_success 'flow mix: both halves, owner outbound only, IPv6' '
	extracct gen --kind flow --records 400 --seed 1 -o f &&
	extracct text -H f >out &&
	grep -q "^[0-9]* [0-9:]* [0-9]* - - .*:[0-9]* 10.0.0.5:" out &&
	grep -q "^[0-9]* [0-9:]* [0-9]* [0-9][0-9]* [0-9]* .* 10.0.0.5:" out &&
	grep -q "\\[2001:db8::5\\]" out &&
	! grep -q "^[0-9]* [0-9:]* [0-9]* [0-9][0-9]* [0-9]* [a-z]* [0-9.]*:[0-9]* 10.0.0.5:" out
'

test_done
