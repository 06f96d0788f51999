#!/bin/sh
# The writer reproduces worked hex examples (tests/fixtures) byte
# for byte; the reader decodes them; write -> read -> write is the
# identity for every fixture and sample log.
. "$(dirname "$0")/../lib.sh"

hex() {
	od -An -v -tx1 "$1" | tr -d ' \n'
}

for ex in hdr-myhost proc-ls local-nested; do
	test_expect_success "writer reproduces $ex byte for byte" "
		extracct_test encode \"\$FIXTURES/$ex.spec\" $ex.bin &&
		hex $ex.bin >actual &&
		tr -d ' \\n' <\"\$FIXTURES/$ex.hex\" >expect &&
		test_cmp expect actual
	"
done

test_expect_success 'reader decodes the header example' '
	extracct_test encode "$FIXTURES/hdr-myhost.spec" h.bin &&
	extracct dump h.bin >out &&
	grep "hostname.*\"myhost\"" out &&
	grep "creator.*\"SunOS\"" out &&
	extracct check h.bin >out &&
	grep "h.bin: ok: 0 records" out
'

test_expect_success 'reader decodes the local-catalog example' '
	extracct_test encode "$FIXTURES/local-nested.spec" l.bin &&
	test_expect_code 1 extracct dump l.bin >out 2>err &&
	grep "	\\[group of 4 object(s)\\]" out &&
	grep "	7$" out && grep "	4660$" out && grep "	1.5$" out &&
	grep "	\\[group of 0 object(s)\\]" out &&
	grep "no exacct header" err
'

test_expect_success 'both header member orders are accepted' '
	printf "header library myapp hostA\n" >lib.spec &&
	extracct_test encode lib.spec lib.bin &&
	extracct check lib.bin >out &&
	grep ": ok:" out &&
	extracct dump lib.bin >out &&
	sed -n 3p out | grep creator
'

for f in "$SAMPLES"/*.exacct "$SAMPLES"/real/*.exacct; do
	b=${f#"$SAMPLES"/}
	test_expect_success "round trip is the identity: $b" "
		extracct_test roundtrip \"$f\" rt.bin &&
		cmp \"$f\" rt.bin
	"
done

test_expect_success 'round trip of a large generated log' '
	extracct gen --kind proc --records 5000 --seed 9 -o big.exacct &&
	extracct_test roundtrip big.exacct rt.bin &&
	cmp big.exacct rt.bin
'

test_done
