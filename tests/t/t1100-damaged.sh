#!/bin/sh
# Damaged input: each kind of damage gives a clear message (file, byte
# offset, reason), exit code 1, and the good records before and after it
# are still decoded.
. "$(dirname "$0")/../lib.sh"

# Overwrite the byte at offset $2 of file $1 with the value $3 (0..255).
poke() {
	printf "$(printf '\\%03o' "$3")" |
	dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

# A clean three-record log and its record offsets and text lines.
test_expect_success 'setup' '
	extracct gen --kind proc --records 3 --seed 1 -o clean &&
	extracct_test offsets clean >offsets &&
	test "$(line_count offsets)" -eq 4 &&
	extracct text -H clean >all &&
	test "$(line_count all)" -eq 3
'
R1=$(sed -n 2p offsets | cut -d" " -f1)
R2=$(sed -n 3p offsets | cut -d" " -f1)
R3=$(sed -n 4p offsets | cut -d" " -f1)
SIZE=$(wc -c <clean | tr -d " ")
sed -n 1p all >rec1
sed -n 2p all >rec2
sed -n 3p all >rec3
cat rec1 rec3 >rec13
cat rec1 rec2 >rec12

test_expect_success 'truncated tail: records before it kept' '
	head -c $((SIZE - 100)) clean >cut &&
	test_expect_code 1 extracct text -H cut >out 2>err &&
	test_cmp rec12 out &&
	grep "^extracct: cut: offset $R3: group size [0-9]* runs past the end" err &&
	grep "(skipped bytes $R3-$((SIZE - 101)))" err
'

test_expect_success 'flipped size field: resync at the next record' '
	cp clean f && poke f $((R2 + 11)) 255 &&
	test_expect_code 1 extracct text -H f >out 2>err &&
	test_cmp rec13 out &&
	grep "^extracct: f: offset [0-9]*: .* (skipped bytes $R2-$((R3 - 1)))$" err
'

test_expect_success 'unknown type code: offset of the bad member' '
	cp clean f && poke f $((R2 + 20)) 144 &&
	test_expect_code 1 extracct text -H f >out 2>err &&
	test_cmp rec13 out &&
	grep "^extracct: f: offset $((R2 + 20)): unknown type code 0x9 in tag 0x90001000" err
'

test_expect_success 'group count disagrees with its members' '
	cp clean f && poke f $((R2 + 15)) 33 &&
	test_expect_code 1 extracct text -H f >out 2>err &&
	test_cmp rec13 out &&
	grep "^extracct: f: offset [0-9]*: group count 33, but [0-9]* bytes of its size are left after the last member" err
'

test_expect_success 'group size disagrees with its members' '
	cp clean f &&
	size=$(od -An -j $((R2 + 11)) -N 1 -tu1 f | tr -d " ") &&
	poke f $((R2 + 11)) $((size + 4)) &&
	test_expect_code 1 extracct text -H f >out 2>err &&
	test_cmp rec13 out &&
	grep "^extracct: f: offset [0-9]*: group count 34, but 4 bytes of its size are left after the last member" err
'

test_expect_success 'bad backskip' '
	cp clean f && poke f $((R3 - 1)) 7 && poke f $((R3 - 2)) 0 &&
	test_expect_code 1 extracct text -H f >out 2>err &&
	test_cmp rec13 out &&
	grep "^extracct: f: offset $((R3 - 4)): backskip 7, expected $((R3 - R2))" err
'

test_expect_success 'garbage between records: all records kept' '
	head -c $R2 clean >g && printf "garbage" >>g && tail -c +$((R2 + 1)) clean >>g &&
	test_expect_code 1 extracct text -H g >out 2>err &&
	test_cmp all out &&
	grep "(skipped bytes $R2-$((R2 + 6)))" err
'

test_expect_success 'missing header: message, records still decoded' '
	tail -c +$((R1 + 1)) clean >nohdr &&
	test_expect_code 1 extracct text -H nohdr >out 2>err &&
	test_cmp all out &&
	grep "^extracct: nohdr: offset 0: no exacct header: the file starts with tag 0xf0000100, not 0xf00000ff$" err
'

test_expect_success 'wrong header version: message, records still decoded' '
	cp clean v && poke v 27 2 &&
	test_expect_code 1 extracct text -H v >out 2>err &&
	test_cmp all out &&
	grep "^extracct: v: offset 0: exacct header version 2, expected 1$" err
'

test_expect_success 'wrong header filetype' '
	cp clean v && poke v 49 107 &&
	test_expect_code 1 extracct text -H v >out 2>err &&
	test_cmp all out &&
	grep "filetype \"exacck\", expected \"exacct\"" err
'

test_expect_success 'zero-length file' '
	: >empty &&
	test_expect_code 1 extracct text empty >out 2>err &&
	test ! -s out &&
	grep "^extracct: empty: offset 0: empty file: no exacct header$" err
'

test_expect_success 'random bytes: clear message, nothing decoded, no hang' '
	awk "BEGIN { srand(42); for (i = 0; i < 65536; i++) printf \"%c\", int(rand() * 256) }" >random &&
	test "$(wc -c <random)" -ge 60000 &&
	test_expect_code 1 extracct text random >out 2>err &&
	test ! -s out &&
	grep "^extracct: random: offset 0: no exacct header" err &&
	test_expect_code 1 extracct dump random >out 2>err &&
	test_expect_code 1 extracct check random >out
'

test_expect_success 'several damages in one file: each reported, rest kept' '
	cp clean f && poke f $((R1 + 20)) 144 && poke f $((R3 + 20)) 160 &&
	test_expect_code 1 extracct text -H f >out 2>err &&
	test_cmp rec2 out &&
	test "$(line_count err)" -eq 2
'

test_expect_success 'check lists damaged ranges and a summary, exit 1' '
	cp clean f && poke f $((R2 + 20)) 144 &&
	test_expect_code 1 extracct check f clean >out &&
	grep "^f: bytes $R2-$((R3 - 1)) damaged: offset $((R2 + 20)): unknown type code" out &&
	grep "^f: damaged: 2 records, 0 other objects, 0 unknown items, 1 damaged ranges ($((R3 - R2)) bytes)$" out &&
	grep "^clean: ok: 3 records" out
'

test_expect_success 'check exit 0 on clean files' '
	extracct check clean "$SAMPLES"/*.exacct "$SAMPLES"/real/*.exacct >out &&
	! grep -v ": ok: " out
'

test_expect_success 'input from standard input' '
	extracct text -H - <clean >out &&
	test_cmp all out
'

test_done
