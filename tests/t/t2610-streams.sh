#!/bin/sh
# Metric-provider streams: GMT provider logs read by
# their conventions.  Each case writes a small file by hand, ingests it,
# and compares the stored rows and the messages with what they must be.
. "$(dirname "$0")/../lib.sh"

T=1700000000000000	# microseconds
Q="'"

samples() {
	sqlite3 -separator ' ' "$1" "SELECT s.detail, m.ts_ns / 1000,
	    coalesce(m.t0_ns / 1000, '-'), coalesce(m.t1_ns / 1000, '-'),
	    coalesce(m.value, '-'), m.reading
	    FROM metric_samples m JOIN metric_series s USING (series_id)
	    ORDER BY 1, 2"
}

test_expect_success 'CPU utilisation (mach): the since-boot first line is excluded' '
	printf "%s\n" "$T 2345" "$((T + 100000)) 5000" "$((T + 200000)) 6100" \
	    "$((T + 300000)) 7000" >cpu_utilization_mach_system.log &&
	extracct ingest --db m.db cpu_utilization_mach_system.log >out &&
	grep "4 records, 3 rows.*1 since-boot lines excluded" out &&
	samples m.db >got &&
	cat >want <<-EOT &&
	 $((T + 100000)) $T $((T + 100000)) 5000 5000
	 $((T + 200000)) $((T + 100000)) $((T + 200000)) 6100 6100
	 $((T + 300000)) $((T + 200000)) $((T + 300000)) 7000 7000
	EOT
	test_cmp want got &&
	test "$(sqlite3 m.db "SELECT unit || stamp FROM metric_series")" = \
	    "ratio_x10000end"
'

test_expect_success 'CPU utilisation (procfs): start-stamped, closed by the next line' '
	printf "%s\n" "$T 2500" "$((T + 100000)) 5000" "$((T + 200000)) 7500" \
	    >cpu_utilization_procfs_system.log &&
	extracct ingest --db p.db cpu_utilization_procfs_system.log >out &&
	grep "3 records, 3 rows" out &&
	samples p.db >got &&
	cat >want <<-EOT &&
	 $T $T $((T + 100000)) 2500 2500
	 $((T + 100000)) $((T + 100000)) $((T + 200000)) 5000 5000
	 $((T + 200000)) $((T + 200000)) - 7500 7500
	EOT
	test_cmp want got &&
	printf "%s\n" "$((T + 300000)) 9000" >>cpu_utilization_procfs_system.log &&
	extracct ingest --db p.db cpu_utilization_procfs_system.log >out &&
	grep "1 records, 1 rows" out &&
	test "$(sqlite3 p.db "SELECT t1_ns / 1000 FROM metric_samples
	    WHERE ts_ns = ($T + 200000) * 1000")" = $((T + 300000))
'

test_expect_success 'RAPL: a wrapped (dropped) sample is a gap, not a long interval' '
	printf "%s\n" "$T 500000 Package_0" "$T 300000 DRAM_0" \
	    "$((T + 100000)) 510000 Package_0" "$((T + 100000)) 310000 DRAM_0" \
	    "$((T + 300000)) 520000 Package_0" "$((T + 200000)) 320000 DRAM_0" \
	    "$((T + 400000)) 530000 Package_0" "$((T + 300000)) 330000 DRAM_0" \
	    >cpu_energy_rapl_msr_component.log &&
	extracct ingest --db r.db cpu_energy_rapl_msr_component.log >out 2>err &&
	grep "8 records, 8 rows.*1 gaps" out &&
	grep "cpu_energy_rapl_msr_component.log: offset 130: line 5: 200000 us since the last sample of cpu_energy_rapl_msr_component Package_0: about 1 missing before it (GMT.s RAPL reader drops a sample whose counter wrapped); their energy is not known" err &&
	test "$(line_count err)" -eq 1 &&
	samples r.db >got &&
	cat >want <<-EOT &&
	DRAM_0 $T - $T 300000 300000
	DRAM_0 $((T + 100000)) $T $((T + 100000)) 310000 310000
	DRAM_0 $((T + 200000)) $((T + 100000)) $((T + 200000)) 320000 320000
	DRAM_0 $((T + 300000)) $((T + 200000)) $((T + 300000)) 330000 330000
	Package_0 $T - $T 500000 500000
	Package_0 $((T + 100000)) $T $((T + 100000)) 510000 510000
	Package_0 $((T + 300000)) $((T + 200000)) $((T + 300000)) 520000 520000
	Package_0 $((T + 400000)) $((T + 300000)) $((T + 400000)) 530000 530000
	EOT
	test_cmp want got &&
	test "$(sqlite3 r.db "SELECT from_ns / 1000, to_ns / 1000, missing
	    FROM metric_gaps")" = "$((T + 100000))|$((T + 300000))|1"
'

test_expect_success 'a torn last line: left, counted, and read once it is whole' '
	printf "%s\n" "$T 100" "$((T + 100000)) 110" >psu_energy_dc_rapl_msr_machine.log &&
	printf "%s" "$((T + 200000)) 1" >>psu_energy_dc_rapl_msr_machine.log &&
	test_expect_code 1 extracct ingest --db t.db \
	    psu_energy_dc_rapl_msr_machine.log >out 2>err &&
	grep "bytes 0-42: 2 records, 2 rows.*1 partial last line left for the next run" out &&
	grep "offset 42: line 3: partial last line (no newline) (incomplete tail, left for the next run: bytes 42-59)" err &&
	test "$(sqlite3 t.db "SELECT count(*) FROM metric_samples")" -eq 2 &&
	test "$(sqlite3 t.db "SELECT count(*) FROM damage")" -eq 0 &&
	printf "%s\n" 20 >>psu_energy_dc_rapl_msr_machine.log &&
	extracct ingest --db t.db psu_energy_dc_rapl_msr_machine.log >out &&
	grep "bytes 42-63: 1 records, 1 rows" out &&
	test "$(sqlite3 t.db "SELECT value FROM metric_samples
	    WHERE ts_ns = ($T + 200000) * 1000")" -eq 120
'

test_expect_success 'a backwards and a repeated timestamp, a bad value: reported, the rest kept' '
	printf "%s\n" "$T 1000000" "$((T + 100000)) 2000000" \
	    "$((T + 50000)) 9" "$((T + 100000)) 8" "$((T + 200000)) 3.5" \
	    "$((T + 300000)) 4000000" "$((T + 400000)) 3000000" \
	    >psu_energy_ac_mcp_machine.log &&
	test_expect_code 1 extracct ingest --db b.db \
	    psu_energy_ac_mcp_machine.log >out 2>err &&
	grep "6 records, 4 rows, 1 duplicates, 1 late.*3 damaged ranges" out &&
	grep "offset 50: line 3: timestamp $((T + 50000)) goes back before the series. last ($((T + 100000))): sample dropped (skipped bytes 50-68)" err &&
	grep "offset 69: line 4: timestamp $((T + 100000)) repeats the series. last ($((T + 100000))): sample dropped (skipped bytes 69-87)" err &&
	grep "offset 88: line 5: the reading is not a whole number (skipped bytes 88-108)" err &&
	grep "line 6: 200000 us since the last sample of psu_energy_ac_mcp_machine: about 1 missing before it; their energy is not known" err &&
	samples b.db >got &&
	cat >want <<-EOT &&
	 $T - $T - 1000000
	 $((T + 100000)) $T $((T + 100000)) 200000 2000000
	 $((T + 300000)) $((T + 200000)) $((T + 300000)) 400000 4000000
	 $((T + 400000)) $((T + 300000)) $((T + 400000)) 300000 3000000
	EOT
	test_cmp want got &&
	test "$(sqlite3 b.db "SELECT count(*) FROM damage
	    WHERE reason LIKE '\''line %'\''")" -eq 3
'

test_expect_success 'a stream read in two runs stores what one read stores' '
	mkdir -p one two &&
	printf "%s\n" "$T 1234" "$((T + 100000)) 5000" "$((T + 200000)) 6000" \
	    >one/cpu_utilization_mach_system.log &&
	printf "%s\n" "$((T + 300000)) 7000" "$((T + 600000)) 8000" \
	    >one/tail &&
	head -n 3 one/cpu_utilization_mach_system.log >two/cpu_utilization_mach_system.log &&
	cat one/tail >>one/cpu_utilization_mach_system.log &&
	extracct ingest --db one.db one/cpu_utilization_mach_system.log >/dev/null 2>one.err &&
	extracct ingest --db two.db two/cpu_utilization_mach_system.log >/dev/null &&
	cat one/tail >>two/cpu_utilization_mach_system.log &&
	extracct ingest --db two.db two/cpu_utilization_mach_system.log >out 2>two.err &&
	grep "2 records, 2 rows" out && ! grep "since-boot" out &&
	grep "line 5: 300000 us since the last sample" one.err &&
	grep "line 5: 300000 us since the last sample" two.err &&
	samples one.db >a && samples two.db >b && test_cmp a b &&
	extracct ingest --db chunk.db --chunk 1 one/cpu_utilization_mach_system.log \
	    >/dev/null 2>&1 &&
	samples chunk.db >c && test_cmp a c &&
	sqlite3 one.db "SELECT * FROM metric_gaps" >ga &&
	sqlite3 two.db "SELECT * FROM metric_gaps" >gb && test_cmp ga gb &&
	test "$(line_count a)" -eq 4
'

test_expect_success 'exactly once: the same stream again, or copied, adds nothing' '
	cp cpu_energy_rapl_msr_component.log copy.log &&
	extracct ingest --db r.db cpu_energy_rapl_msr_component.log >out &&
	grep "already ingested" out &&
	extracct ingest --db r.db --provider cpu_energy_rapl_msr_component \
	    copy.log >out &&
	grep "already ingested" out &&
	test "$(sqlite3 r.db "SELECT count(*) FROM metric_samples")" -eq 8
'

test_expect_success 'a RAPL reading of at most 1 uJ (GMT: underflow): kept, noted once' '
	mkdir u && f=u/cpu_energy_rapl_msr_component.log &&
	printf "%s\n" "$T 412 Package_0" "$((T + 1000000)) 22344 Package_0" \
	    "$((T + 2000000)) 12231 Package_0" "$((T + 3000000)) 22 Package_0" \
	    "$((T + 4000000)) 1 Package_0" "$((T + 5000000)) 12321 Package_0" \
	    "$((T + 6000000)) 0 Package_0" "$((T + 7000000)) 4124 Package_0" >$f &&
	extracct ingest --db u.db $f >out 2>err &&
	grep "^$f: bytes 0-[0-9]*: 8 records, 8 rows, .*, 2 readings of at most 1 uJ" out &&
	echo "extracct: $f: offset 127: line 5: a reading of 1 uJ, at or below the counter${Q}s resolution (GMT calls it an underflow and refuses the file): kept as read; later ones in this series are counted, not listed" >want &&
	test_cmp want err &&
	test "$(sqlite3 u.db "SELECT group_concat(value, \" \") FROM
	    (SELECT value FROM metric_samples ORDER BY ts_ns)")" = \
	    "412 22344 12231 22 1 12321 0 4124" &&
	extracct text -H $f >txt 2>err &&
	test "$(line_count txt)" -eq 8 &&
	test_cmp want err &&
	extracct check $f >out &&
	grep "^$f: offset 127: line 5: a reading of 1 uJ" out &&
	grep "^$f: ok: 8 records" out
'

test_expect_success 'a stream of no known provider: refused, with the way out' '
	printf "%s\n" "$T 1" >unknown.log &&
	test_expect_code 2 extracct ingest --db u.db unknown.log 2>err &&
	grep "give --provider" err &&
	test_expect_code 2 extracct ingest --db u.db --provider nope unknown.log 2>err &&
	grep "provider nope: not a metric provider" err &&
	test_expect_code 2 extracct dump unknown.log 2>err &&
	grep "text, check and ingest read these" err
'

test_expect_success 'text and check read streams as ingest does' '
	extracct text cpu_energy_rapl_msr_component.log >txt &&
	head -n 1 txt | grep "^ts_us t0_us t1_us metric detail value unit reading$" &&
	grep "^$((T + 300000)) $((T + 200000)) $((T + 300000)) cpu_energy_rapl_msr_component Package_0 520000 uJ 520000$" txt &&
	test "$(line_count txt)" -eq 9 &&
	test_expect_code 1 extracct check psu_energy_ac_mcp_machine.log >chk &&
	grep "damaged: 4 records, 0 other objects, 0 unknown items, 3 damaged ranges" chk
'

test_expect_success 'ingest --outdir: a stream'\''s samples as text and CSV' '
	mkdir -p o &&
	extracct ingest --db o.db --outdir o cpu_energy_rapl_msr_component.log >/dev/null &&
	extracct text cpu_energy_rapl_msr_component.log >want.txt &&
	test_cmp want.txt o/cpu_energy_rapl_msr_component.log.txt &&
	head -n 1 o/cpu_energy_rapl_msr_component.log.csv |
	    grep "^host,metric,detail,ts_us,t0_us,t1_us,value,unit,reading" &&
	grep ",cpu_energy_rapl_msr_component,Package_0,$((T + 300000)),$((T + 200000)),$((T + 300000)),520000,uJ,520000" \
	    o/cpu_energy_rapl_msr_component.log.csv &&
	grep ",cpu_energy_rapl_msr_component,DRAM_0,$T,,$T,300000,uJ,300000" \
	    o/cpu_energy_rapl_msr_component.log.csv &&
	test "$(line_count o/cpu_energy_rapl_msr_component.log.csv)" -eq 9
'

test_expect_success 'the sample energy data (make run): streams, snapshots, carbon' '
	extracct -c "$SAMPLES/energy/extracct.yml" ingest --db sample.db \
	    "$SAMPLES/energy/energy.exacct" "$SAMPLES"/energy/*.log >out 2>err &&
	grep "cpu_energy_rapl_msr_component.log: bytes 0-13134: 398 records, 398 rows.*2 gaps" out &&
	grep "cpu_utilization_mach_system.log: .* 201 records, 200 rows.*1 since-boot lines excluded" out &&
	test "$(grep -c "line 23[56]: .* about 1 missing before it" err)" -eq 2 &&
	test "$(sqlite3 sample.db "SELECT count(DISTINCT name) FROM hosts")" -eq 1 &&
	extracct report --db sample.db --energy --by host --format csv >h.csv &&
	grep "^sample-mac,measured,.*,GMT default: IEA 2024 world average" h.csv
'

test_done
