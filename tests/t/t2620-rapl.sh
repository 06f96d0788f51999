#!/bin/sh
# RAPL in snap: snap reads the powercap zones beside
# its process records; ingest unwraps each zone's counter once per
# interval by the rapl_wrap policy; the estimate view shares a host's
# energy out by CPU time.  The zones are a fake sysfs tree (this VM has
# none), with the files and values the kernel gives.
. "$(dirname "$0")/../lib.sh"

MAX=262143328850	# a real package max_energy_range_uj

zone() {	# DIR NAME ENERGY [MAX]
	mkdir -p "pc/$1" && echo "$2" >"pc/$1/name" &&
	echo "$3" >"pc/$1/energy_uj" &&
	echo "${4:-$MAX}" >"pc/$1/max_energy_range_uj" &&
	echo long_term >"pc/$1/constraint_0_name" &&
	echo 150000000 >"pc/$1/constraint_0_power_limit_uw"
}

test_expect_success 'snap writes one RAPL record per intel-rapl zone' '
	mkdir -p pc/intel-rapl && echo 0 >pc/intel-rapl/enabled &&
	zone intel-rapl:0 package-0 $((MAX - 1000)) &&
	zone intel-rapl:0:0 core 5000 &&
	zone intel-rapl:0:1 dram 1000 65532610987 &&
	zone intel-rapl-mmio:0 package-0 777 &&
	extracct snap -o s.log --powercap pc &&
	extracct dump -v s.log >dump &&
	test "$(grep -c "group-rapl" dump)" -eq 3 &&
	grep "rapl-zone .*intel-rapl:0:1" dump &&
	grep "rapl-zone-name .*dram" dump &&
	grep "rapl-energy-uj .*$((MAX - 1000))" dump &&
	grep "rapl-max-energy-range-uj .*65532610987" dump &&
	grep "rapl-power-limit-uw .*150000000" dump &&
	! grep "intel-rapl-mmio" dump
'

test_expect_success 'a wrap from max - 1000 to 500 is 1500 uJ' '
	cp /bin/sh busyloop &&
	./busyloop -c "while :; do :; done" & bpid=$! &&
	sleep 1 && extracct snap -o s.log --powercap pc &&
	sleep 1 &&
	echo 500 >pc/intel-rapl:0/energy_uj &&
	echo 9000 >pc/intel-rapl:0:0/energy_uj &&
	echo 3000 >pc/intel-rapl:0:1/energy_uj &&
	extracct snap -o s.log --powercap pc &&
	kill $bpid &&
	extracct ingest --db r.db s.log >out &&
	sqlite3 r.db "SELECT z.name, i.energy_uj, i.wrapped
	    FROM rapl_intervals i JOIN rapl_zones z USING (zone_id)
	    WHERE i.t0_ns > (SELECT min(t_ns) FROM sysload) ORDER BY 1" >got &&
	printf "%s\n" "core|4000|0" "dram|2000|0" "package-0|1500|1" >want &&
	test_cmp want got
'

test_expect_success 'host energy: packages and DRAM, not core' '
	test "$(sqlite3 r.db "SELECT energy_uj FROM v_rapl_host
	    ORDER BY t1_ns DESC LIMIT 1")" -eq 3500
'

# The machine may be busy with more than the busy loop: the estimate is
# held to its arithmetic and its ranking, not to which process is top.
test_expect_success 'the estimate: host energy x CPU time / CPU capacity, at most the host energy' '
	last="(SELECT max(t1_ns) FROM v_rapl_host)" &&
	sqlite3 r.db "SELECT command FROM v_energy_estimate WHERE t1_ns = $last
	    ORDER BY energy_nj DESC, command LIMIT 1" >top_e &&
	sqlite3 r.db "SELECT command FROM v_energy_estimate WHERE t1_ns = $last
	    ORDER BY cpu_ns DESC, command LIMIT 1" >top_c &&
	test_cmp top_c top_e && test -s top_e &&
	sqlite3 -separator " " r.db "SELECT e.energy_nj, e.cpu_ns, s.ncpu,
	    r.t1_ns - r.t0_ns FROM v_energy_estimate e
	    JOIN v_rapl_host r USING (host_id, t0_ns, t1_ns)
	    JOIN sysload s ON s.t_ns = r.t1_ns
	    WHERE e.t1_ns = $last AND e.command = '\''busyloop'\''" >row &&
	test "$(line_count row)" -eq 1 &&
	tot=$(sqlite3 r.db "SELECT sum(cpu_ns) FROM v_energy_estimate
	    WHERE t1_ns = $last") &&
	awk -v tot="$tot" "{ cap = \$3 * \$4; if (tot > cap) cap = tot
	    want = 3500 * 1000 * \$2 / cap
	    exit !(\$2 > 0 && \$1 > 0 && (\$1 - want) ^ 2 < 1e-6) }" row &&
	total=$(sqlite3 r.db "SELECT sum(energy_nj) FROM v_energy_estimate
	    WHERE t1_ns = $last") &&
	awk -v t="$total" "BEGIN { exit !(t > 0 && t <= 3500000 * 1.001) }"
'

test_expect_success 'report --energy labels the RAPL shares as estimates' '
	extracct report --db r.db --energy --by command >rep &&
	grep "^# .*estimate = a host.s RAPL energy shared by CPU time" rep &&
	grep "^busyloop  *estimate  *1 " rep &&
	first=$(sqlite3 r.db "SELECT command FROM v_energy_estimate
	    GROUP BY command ORDER BY sum(energy_nj) DESC, command LIMIT 1") &&
	grep -v "^#" rep | sed -n 2p | grep "^$first  *estimate " &&
	! grep " measured " rep &&
	extracct report --db r.db --energy --by host --format json >rep.json &&
	grep "\"basis\": \"estimate\"" rep.json
'

test_expect_success 'rapl_wrap: drop leaves a wrapped interval unknown' '
	printf "rapl_wrap: drop\n" >drop.yml &&
	extracct -c drop.yml ingest --db d.db s.log >/dev/null &&
	sqlite3 d.db "SELECT z.name, coalesce(i.energy_uj, \"NULL\"), i.wrapped
	    FROM rapl_intervals i JOIN rapl_zones z USING (zone_id)
	    WHERE i.t0_ns > (SELECT min(t_ns) FROM sysload) ORDER BY 1" >got &&
	printf "%s\n" "core|4000|0" "dram|2000|0" "package-0|NULL|1" >want &&
	test_cmp want got &&
	test "$(sqlite3 d.db "SELECT coalesce(energy_uj, \"NULL\") FROM v_rapl_host
	    ORDER BY t1_ns DESC LIMIT 1")" = NULL &&
	printf "rapl_wrap: sometimes\n" >bad.yml &&
	test_expect_code 2 extracct -c bad.yml config 2>err &&
	grep "bad.yml: line 1, column 12: rapl_wrap: \"sometimes\" is not unwrap or drop" err
'

# rapl ZONE NAME TIME_S ENERGY BOOT_S [LIMIT_UW]: one RAPL reading, as
# snap writes it.
rapl() {
	echo "group 0xf1000004"
	echo "  uint 0x41000501 ${3}000000000"
	echo "  string 0x61000502 $1"
	echo "  string 0x61000503 $2"
	echo "  uint 0x41000504 $4"
	echo "  uint 0x41000505 $MAX"
	echo "  uint 0x41000506 $5"
	[ -z "${6:-}" ] || echo "  uint 0x41000507 $6"
	echo "end"
}

test_expect_success 'a reboot resets the counter: that interval is unknown, not a wrap' '
	B=1700000000 &&
	{ echo "header library extracct rebooter" &&
	  rapl intel-rapl:0 package-0 $((B + 100)) $((MAX - 1000)) $B &&
	  rapl intel-rapl:0 package-0 $((B + 160)) 500 $B &&
	  rapl intel-rapl:0 package-0 $((B + 400)) 300 $((B + 300)) &&
	  rapl intel-rapl:0 package-0 $((B + 460)) 900 $((B + 302)); } >boot.spec &&
	extracct_test encode boot.spec boot.exacct &&
	extracct ingest --db b.db boot.exacct >/dev/null &&
	sqlite3 b.db "SELECT t1_ns / 1000000000 - $B, coalesce(energy_uj, \"NULL\"),
	    wrapped FROM rapl_intervals ORDER BY t1_ns" >got &&
	printf "%s\n" "160|1500|1" "400|NULL|0" "460|600|0" >want &&
	test_cmp want got
'

# MAX is 262 kJ.  At a 150 W long-term limit the counter cannot wrap
# twice in 1,588 s (262 kJ / 165 W, with 10% for bursts); in an hour it
# can, and then nobody knows how often it did.
test_expect_success 'an interval long enough for two wraps: energy unknown, marked ambiguous' '
	B=1700000000 &&
	{ echo "header library extracct longgap" &&
	  rapl intel-rapl:0 package-0 $B 1000 $B 150000000 &&
	  rapl intel-rapl:0 package-0 $((B + 300)) 45001000 $B 150000000 &&
	  rapl intel-rapl:0 package-0 $((B + 3900)) 500 $B 150000000 &&
	  rapl intel-rapl:0 package-0 $((B + 4200)) 30000500 $B; } >long.spec &&
	extracct_test encode long.spec long.exacct &&
	extracct ingest --db l.db long.exacct >/dev/null &&
	sqlite3 l.db "SELECT (t1_ns - t0_ns) / 1000000000,
	    coalesce(energy_uj, \"NULL\"), wrapped, ambiguous
	    FROM rapl_intervals ORDER BY t1_ns" >got &&
	printf "%s\n" "300|45000000|0|0" "3600|NULL|1|1" "300|30000000|0|0" >want &&
	test_cmp want got
'

test_expect_success 'no powercap tree: snap writes no RAPL record, quietly' '
	extracct snap -o n.log --powercap nonexistent 2>err &&
	test ! -s err &&
	! extracct dump -v n.log | grep group-rapl
'

test_done
