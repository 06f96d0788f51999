#!/bin/sh
# Energy snapshots: the generated day of a macOS
# host from three writers (native Apple silicon, translated under
# Rosetta, Intel without energy counting), read, stored as intervals,
# and held to their invariants.
. "$(dirname "$0")/../lib.sh"

# A day of 10 s snapshots of 24 applications.
DAY=$((8640 * 24))

test_expect_success 'gen --kind energy: a native day, read back whole' '
	extracct gen --kind energy --records $DAY --seed 7 -o native.exacct &&
	extracct check native.exacct >check.out &&
	grep ": ok: $DAY records, 0 other objects, 0 unknown items" check.out &&
	extracct dump -v native.exacct | head -n 31 >first &&
	grep "group-energy" first && grep "timebase-numer .*125" first &&
	grep "translated .*0" first && grep "energy-counted .*1" first
'

test_expect_success 'a day: every process'\''s joules over its intervals = last - first' '
	extracct ingest --db n.db native.exacct >out &&
	sqlite3 n.db "SELECT count(*) FROM (SELECT eproc_id,
	      coalesce(sum(CASE WHEN first = 0 THEN energy_nj END), 0) AS later,
	      sum(CASE WHEN first = 1 THEN energy_nj END) AS firstobs
	    FROM energy_intervals GROUP BY eproc_id)
	    JOIN energy_last l USING (eproc_id)
	    WHERE later != l.energy_nj - firstobs" >bad &&
	test "$(cat bad)" -eq 0 &&
	test "$(sqlite3 n.db "SELECT count(*) FROM energy_procs")" -gt 24 &&
	test "$(sqlite3 n.db "SELECT count(*) FROM energy_intervals")" -eq $DAY &&
	test "$(sqlite3 n.db "SELECT count(*) FROM energy_intervals
	    WHERE anomalies != 0 OR energy_nj IS NULL")" -eq 0
'

test_expect_success 'split over two runs: the same intervals as one' '
	extracct_test split native.exacct 2 part >/dev/null &&
	extracct ingest --db s.db part.1 >/dev/null &&
	extracct ingest --db s.db part.2 >/dev/null &&
	q="SELECT p.pid, p.start_ns, i.t0_ns, i.t1_ns, i.cpu_ns, i.energy_nj
	    FROM energy_intervals i JOIN energy_procs p USING (eproc_id)
	    ORDER BY 1, 2, 3" &&
	sqlite3 n.db "$q" >one && sqlite3 s.db "$q" >two &&
	test_cmp one two
'

test_expect_success 'translated writer: the same CPU seconds as native' '
	extracct gen --kind energy --records 2400 --seed 7 \
	    --energy-writer rosetta -o rosetta.exacct &&
	extracct gen --kind energy --records 2400 --seed 7 -o n2.exacct &&
	extracct dump -v rosetta.exacct | head -n 31 >first &&
	grep "timebase-numer .*1$" first && grep "translated .*1$" first &&
	extracct ingest --db r.db rosetta.exacct >/dev/null &&
	extracct ingest --db n2.db n2.exacct >/dev/null &&
	q="SELECT p.command, i.t1_ns, i.cpu_ns, i.pcpu_ns FROM energy_intervals i
	    JOIN energy_procs p USING (eproc_id) ORDER BY 1, 2" &&
	sqlite3 n2.db "$q" >native.cpu && sqlite3 r.db "$q" >rosetta.cpu &&
	test_cmp native.cpu rosetta.cpu &&
	test "$(sqlite3 r.db "SELECT count(*) FROM energy_intervals
	    WHERE cpu_ns > 0")" -gt 2000
'

test_expect_success 'a writer without energy counting: energy absent, CPU kept' '
	extracct gen --kind energy --records 2400 --seed 7 \
	    --energy-writer intel -o intel.exacct &&
	extracct ingest --db i.db intel.exacct >/dev/null &&
	test "$(sqlite3 i.db "SELECT count(*) FROM energy_intervals
	    WHERE energy_nj IS NOT NULL OR penergy_nj IS NOT NULL")" -eq 0 &&
	test "$(sqlite3 i.db "SELECT count(*) FROM v_energy
	    WHERE joules IS NOT NULL")" -eq 0 &&
	sqlite3 i.db "SELECT sum(cpu_ns) FROM energy_intervals" >intel.cpu &&
	sqlite3 n2.db "SELECT sum(cpu_ns) FROM energy_intervals" >native.sum &&
	test_cmp native.sum intel.cpu
'

test_expect_success 'joules per CPU-second differ by app: 0.66 to 4.87' '
	sqlite3 n.db "SELECT command, round(sum(energy_nj) * 1.0 / sum(cpu_ns), 2)
	    FROM energy_intervals JOIN energy_procs USING (eproc_id)
	    WHERE first = 0 GROUP BY command ORDER BY 2" >jpc &&
	head -n 1 jpc | grep "|0.66$" && tail -n 1 jpc | grep "clang|4.87$"
'

test_expect_success 'an energy log read twice adds nothing' '
	extracct ingest --db n.db native.exacct >again &&
	grep "already ingested" again &&
	test "$(sqlite3 n.db "SELECT count(*) FROM energy_intervals")" -eq $DAY
'

# snap PID COMMAND TIME_S USER_TICKS ENERGY_NJ: one native energy snapshot.
# The start moves by microseconds between snapshots, as a sampler's
# (time now less the ticks since the start) does.
esnap() {
	echo "group 0xf1000003"
	echo "  uint 0x31000401 $1"
	echo "  uint 0x41000404 $((1700000000000000000 + $4 % 7000))"
	echo "  uint 0x41000405 $(($3))000000000"
	echo "  uint 0x41000406 $4"
	echo "  uint 0x41000407 0"
	echo "  uint 0x4100040a $5"
	echo "  uint 0x31000414 125"
	echo "  uint 0x31000415 3"
	echo "  uint 0x41000416 24000000"
	echo "  uint 0x11000417 0"
	echo "  uint 0x11000418 1"
	echo "  string 0x61000419 $2"
	echo "end"
}

# Measured on Apple silicon: a process at 101% CPU drew 0.81 W,
# one at 37% drew 1.76 W.  Over 10 s: 10.1 s of CPU (242,400,000 ticks)
# and 8.1 J, against 3.7 s (88,800,000 ticks) and 17.6 J.
test_expect_success 'report --energy ranks by energy, not CPU' '
	{ echo "header library extracct hostE" &&
	  esnap 100 busyloop 1700000000 0 0 &&
	  esnap 200 renderer 1700000000 0 0 &&
	  esnap 100 busyloop 1700000010 242400000 8100000000 &&
	  esnap 200 renderer 1700000010 88800000 17600000000; } >rank.spec &&
	extracct_test encode rank.spec rank.exacct &&
	extracct ingest --db rank.db rank.exacct >/dev/null &&
	extracct report --db rank.db --energy --by command --tz UTC >rank.out &&
	cat rank.out &&
	sed -n 4p rank.out | grep "^renderer  *measured  *1  *17.600 *1.760 *1.760 *1.760 *3.700 *4.757 *0.685  *-$" &&
	sed -n 5p rank.out | grep "^busyloop  *measured  *1  *8.100 *0.810 *0.810 *0.810 *10.100 *0.802 *0.315  *-$"
'

# 1 kW for an hour is 1 kWh: at 445 g CO2e/kWh, 445 g.
test_expect_success 'report --energy: grams CO2e from the configured intensity, with its source' '
	{ echo "header library extracct hostK" &&
	  esnap 300 kiln 1700000000 0 0 &&
	  esnap 300 kiln 1700003600 86400000000 3600000000000000; } >kiln.spec &&
	extracct_test encode kiln.spec kiln.exacct &&
	printf "%s\n" "host: hostK" "carbon_intensity: 445" \
	    "carbon_source: \"IEA 2024 world average\"" >c.yml &&
	extracct -c c.yml ingest --db k.db kiln.exacct >/dev/null &&
	extracct report --db k.db --energy --by command --tz UTC >k.out &&
	grep "^# carbon intensity of hostK: 445 g CO2e/kWh (IEA 2024 world average)$" k.out &&
	grep "^kiln  *measured  *1  *3600000.000  *1000.000 .* 445.000$" k.out &&
	extracct report --db k.db --energy --by host --format csv >k.csv &&
	grep "^hostK,measured,1,3600000.000,.*,445.000,IEA 2024 world average" k.csv &&
	extracct ingest --db k2.db kiln.exacct >/dev/null &&
	extracct report --db k2.db --energy --by host --format json >k2.json &&
	grep "\"g_co2e\": null" k2.json
'

test_expect_success 'the carbon configuration is checked' '
	printf "carbon_intensity: lots\n" >bad.yml &&
	test_expect_code 2 extracct -c bad.yml config 2>err &&
	grep "bad.yml: line 1, column 19: carbon_intensity: \"lots\" is not grams CO2e per kWh (0 to 10000) or none" err &&
	printf "carbon_intensity: 56.5\ncarbon_source: \"RTE 2024\"\n" >ok.yml &&
	extracct -c ok.yml config >cfg &&
	grep "^carbon_intensity: 56.5$" cfg && grep "^carbon_source: \"RTE 2024\"$" cfg
'

test_expect_success 'report --energy: CSV and JSON, and --by checked' '
	extracct report --db rank.db --energy --by command --format csv >rank.csv &&
	head -n 1 rank.csv | grep "^command,basis,processes,joules,avg_watts,peak_watts,peak_proc_watts,cpu_s,joules_per_cpu_s,share,g_co2e,carbon_sources" &&
	extracct report --db rank.db --energy --by command --format json >rank.json &&
	grep "{\"command\": \"renderer\", \"basis\": \"measured\", \"processes\": 1, \"joules\": 17.600" rank.json &&
	sed -n 3p rank.out | grep "^command  *basis  *processes  *joules  *avg_watts  *peak_watts  *peak_proc_watts  *cpu_s  *joules_per_cpu_s  *share  *g_co2e$" &&
	extracct report --db rank.db --energy --by user --format json >ru.json &&
	grep "{\"uid\": null, \"basis\": \"measured\", \"processes\": 2," ru.json &&
	test_expect_code 2 extracct report --db rank.db --energy --by hour 2>err &&
	grep -- "--energy: --by user, command or host" err
'

test_done
