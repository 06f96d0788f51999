#!/bin/sh
# Basics: usage, exit codes, strict number parsing, version.
. "$(dirname "$0")/../lib.sh"

test_expect_success 'no command: usage, exit 2' '
	test_expect_code 2 extracct 2>err &&
	grep "usage: extracct \[-c CONFIG\] COMMAND" err
'

test_expect_success 'unknown command: exit 2 with the name' '
	test_expect_code 2 extracct frobnicate 2>err &&
	grep "'\''frobnicate'\'' is not a command" err
'

test_expect_success 'help and version exit 0' '
	extracct --help >out &&
	grep "extracct dump" out &&
	extracct --version >out &&
	grep "^extracct [0-9]" out
'

test_expect_success 'every command has -h' '
	for c in dump text check gen; do
		extracct $c -h >out && grep "usage: extracct $c" out &&
		extracct $c --help >out && grep "usage: extracct $c" out ||
		return 1
	done &&
	test_expect_code 2 extracct check -x f 2>err
'

test_expect_success 'missing file operands: exit 2' '
	test_expect_code 2 extracct dump 2>err &&
	test_expect_code 2 extracct text 2>err &&
	test_expect_code 2 extracct check 2>err
'

test_expect_success 'strict numbers: junk, sign, range' '
	test_expect_code 2 extracct gen --kind proc --records 10x -o f 2>err &&
	grep -- "--records '\''10x'\'': not a number" err &&
	test_expect_code 2 extracct gen --kind proc --records -1 -o f 2>err &&
	grep "records .-1.: too small (at least 1, no sign)" err &&
	test_expect_code 2 extracct gen --kind proc --records x1 -o f 2>err &&
	grep "not a number" err &&
	test_expect_code 2 extracct gen --kind proc --records 0 -o f 2>err &&
	grep "too small" err &&
	test_expect_code 2 extracct gen --kind proc --records 99999999999999999999 -o f 2>err &&
	grep "too large" err &&
	test_expect_code 2 extracct gen --kind nope --records 1 -o f 2>err &&
	grep "not one of proc, task, flow" err &&
	test_expect_code 2 extracct gen --kind proc --records 1 2>err &&
	grep "gen: -o FILE is required: the log to write (- for standard output)" err
'

test_expect_success 'numbers: a leading 0 is decimal, 0x is hex' '
	extracct gen --kind proc --records 010 -o a &&
	extracct text -H a >out &&
	test "$(line_count out)" -eq 10 &&
	extracct gen --kind proc --records 0x10 -o a &&
	extracct text -H a >out &&
	test "$(line_count out)" -eq 16 &&
	test_expect_code 2 extracct gen --kind proc --records 0x -o a 2>err &&
	grep "not a number" err
'

test_expect_success 'unreadable input: exit 3, file named, others still read' '
	test_expect_code 3 extracct text does-not-exist 2>err &&
	grep "does-not-exist: No such file or directory" err &&
	test_expect_code 3 extracct dump . 2>err &&
	grep "Is a directory" err &&
	test_expect_code 3 extracct text -H missing "$SAMPLES/real/proc.exacct" >out 2>err &&
	test "$(line_count out)" -eq 2 &&
	test_expect_code 3 extracct check missing "$SAMPLES/real/proc.exacct" >out 2>err &&
	grep "proc.exacct: ok: 2 records" out
'

test_expect_success 'gen -o - writes to standard output' '
	extracct gen --kind task --records 5 -o - >t &&
	extracct text -H t >out &&
	test "$(line_count out)" -eq 5
'

test_expect_success 'a full disk is an error, not a short report' '
	if [ -w /dev/full ]; then
		test_expect_code 3 extracct text "$SAMPLES/real/proc.exacct" >/dev/full 2>err &&
		grep "standard output" err
	fi
'

test_expect_success 'gen does not write through a symbolic link' '
	echo precious >target &&
	ln -s target link &&
	test_expect_code 3 extracct gen --kind proc --records 1 -o link 2>err &&
	echo precious >expect &&
	test_cmp expect target
'

test_done
