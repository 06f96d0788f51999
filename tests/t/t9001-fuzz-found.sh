#!/bin/sh
# What the fuzzers found (tests/fuzz/README.md): each input they turned
# up is kept in tests/fixtures/fuzz/found/ (and seeds its target), and
# checked here through the command that reads it.
. "$(dirname "$0")/../lib.sh"

FOUND=$FIXTURES/fuzz/found

# The whole database but the columns that say when a file was read.
canonical() {
	for t in $(sqlite3 "$1" "SELECT name FROM sqlite_master WHERE
	    type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"); do
		echo "== $t" &&
		if [ "$t" = files ]; then
			sqlite3 "$1" "SELECT host_id, kind, path, head_len,
			    head_hash, tail_hash, ingested_to, size, records,
			    duplicates, late, other_objects, unknown_items,
			    bad_values, damaged_ranges, damaged_bytes FROM files"
		else
			sqlite3 "$1" "SELECT * FROM $t" | sort
		fi || return 1
	done
}

# fuzz_ingest: a second ingest of a log with a torn tail re-reads the
# tail, finds no record, and wrote the ledger's host as NULL.
test_expect_success 'torn tail read again: the ledger keeps its host' '
	cp "$FOUND/ingest-torn-tail-host" torn &&
	test_expect_code 1 extracct ingest --db t.db torn >out 2>err &&
	grep "incomplete tail, left for the next run" err &&
	test "$(sqlite3 t.db "SELECT host_id FROM files")" = 1 &&
	canonical t.db >before &&
	test_expect_code 1 extracct ingest --db t.db torn >out 2>err &&
	grep "torn: bytes 2238-2238: 0 records" out &&
	canonical t.db >after &&
	test_cmp before after
'

# fuzz_ingest: a log that is damage from its first byte leaves the
# ledger at offset 0; each ingest after the first stored its header
# problem again (one more damage row, damaged_ranges + 1, every run).
# (The fuzzer's input, ingest-bad-header-57, is now refused up front as
# shorter than a pacct record; this one is the same case at 100 bytes.)
test_expect_success 'damaged from byte 0, read again: the damage once' '
	cp "$FOUND/ingest-bad-header" bad &&
	test_expect_code 1 extracct ingest --db b.db bad >out 2>err &&
	grep "bad: offset 0: no exacct header" err &&
	canonical b.db >before &&
	test "$(sqlite3 b.db "SELECT count(*) FROM damage")" = 1 &&
	test_expect_code 1 extracct ingest --db b.db bad >out 2>err &&
	test_expect_code 1 extracct ingest --db b.db bad >out 2>err &&
	canonical b.db >after &&
	test_cmp before after
'

# fuzz_ingest (a log read as it grew): its first run saw 16 bytes, too
# few for the header, and left them for the next run; the next run took
# the header problem it then found for one already stored, and stored
# nothing.  A log read as it grew must come out as one read at once.
test_expect_success 'a header problem first seen on a later run is stored' '
	head -c 16 "$FOUND/ingest-grown-header" >grown &&
	test_expect_code 1 extracct ingest --db g.db grown >out 2>err &&
	grep "incomplete tail, left for the next run: bytes 0-15" err &&
	cp "$FOUND/ingest-grown-header" grown &&
	test_expect_code 1 extracct ingest --db g.db grown >out 2>err &&
	cp "$FOUND/ingest-grown-header" grown &&
	test_expect_code 1 extracct ingest --db w.db grown >out 2>err &&
	grep "grown: offset 0: exacct header" err &&
	canonical w.db >whole &&
	canonical g.db >parts &&
	test_cmp whole parts
'

# fuzz_ingest (ingest-stream-ts-zero): a series' last time 0 means "no
# sample yet", so two samples at time 0 were both new, and the second
# broke metric_samples' key: exit 3, and the log never ingested.  A
# timestamp of 0 is not a time GMT writes: the line is damage.
test_expect_success 'stream samples at time 0: damage, not a database error' '
	printf "1699999200000000 5 four fields\n0 6\n0 7\n1699999201000000 9\n" \
	    >cpu_energy_rapl_msr_component.log &&
	test_expect_code 1 extracct ingest --db s.db \
	    cpu_energy_rapl_msr_component.log >out 2>err &&
	grep "line 2: a timestamp of 0" err &&
	grep "line 3: a timestamp of 0" err &&
	test "$(sqlite3 s.db "SELECT count(*) FROM metric_samples")" = 1 &&
	test_expect_code 1 extracct ingest --db f.db \
	    --provider cpu_energy_rapl_msr_component \
	    "$FOUND/ingest-stream-ts-zero" >out 2>err
'

# fuzz_config: what `extracct config` prints must read back as the same
# configuration; a quote in a value ended its string early (the output
# was not YAML), and carbon_intensity lost digits (%g).
test_expect_success 'config prints YAML that reads back as itself' '
	cat >c.yml <<-\EOF &&
	host: "web-1 \"edge\" \\ \x1b[31m"
	carbon_source: a \ b
	carbon_intensity: 123.456789
	EOF
	cat >want <<-\EOF &&
	host: "web-1 \"edge\" \\ \x1b[31m"
	carbon_intensity: 123.456789
	carbon_source: "a \\ b"
	EOF
	extracct -c c.yml config >printed &&
	grep -E "^(host|carbon_intensity|carbon_source):" printed >got &&
	test_cmp want got &&
	extracct -c printed config >again &&
	sed 1d printed >a && sed 1d again >b &&
	test_cmp a b
'

# The same: a value holding U+2028, which YAML 1.1 takes for a line break
# (printed raw, it came back as a space).
test_expect_success 'config prints a line separator escaped' '
	extracct -c "$FOUND/config-line-separator" config >printed &&
	grep "^carbon_source: .*RA\\\\L (saver ge\"$" printed &&
	extracct -c printed config >again &&
	sed 1d printed >a && sed 1d again >b &&
	test_cmp a b
'

# The same: a value holding U+0099, a C1 control (written "\x99" in the
# file), printed raw, which YAML does not allow: the output did not read.
test_expect_success 'config prints a C1 control escaped' '
	extracct -c "$FOUND/config-c1-control" config >printed &&
	grep -F "host: \"r" printed >host &&
	grep -F "\\x9999999999999999999ac" host &&
	extracct -c printed config >again &&
	sed 1d printed >a && sed 1d again >b &&
	test_cmp a b
'

# The same: carbon_intensity 890 printed in the shortest form %g gives,
# 8.9e+02, which the schema (plain decimals only) then refused.
test_expect_success 'config prints carbon_intensity as a plain decimal' '
	extracct -c "$FOUND/config-exponent" config >printed &&
	grep "^carbon_intensity: 890$" printed &&
	extracct -c printed config >again &&
	sed 1d printed >a && sed 1d again >b &&
	test_cmp a b
'

test_done
