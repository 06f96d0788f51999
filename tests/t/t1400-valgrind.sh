#!/bin/sh
# No leaks and no invalid accesses under valgrind on the sample data and
# on damaged input (the release build; ASan covers the other).  Memory
# glibc keeps for its NSS modules (still reachable at exit) is not ours.
# run.sh: check-san (valgrind: a memory checker's run, with ASan's)
. "$(dirname "$0")/../lib.sh"
kernel_lock || exit 1	# taskstats, accounting: the machine's

if [ "${BUILD_LABEL:-}" = "asan+ubsan" ]; then
	test_skip 'valgrind' 'ASan build: LeakSanitizer checks this run'
	test_done
	exit $?
fi
if ! command -v valgrind >/dev/null 2>&1; then
	test_skip 'valgrind' 'valgrind is not installed (apt-get install valgrind)'
	test_done
	exit $?
fi

vg() {
	valgrind -q --leak-check=full --show-leak-kinds=definite,indirect,possible \
	    --errors-for-leak-kinds=definite,indirect,possible \
	    --error-exitcode=42 "$@"
}

ids="--passwd $SAMPLES/etc/passwd --group $SAMPLES/etc/group --project $SAMPLES/etc/project"

test_expect_success 'dump -v, text, check: no leaks on the samples' '
	vg "$EXTRACCT" dump -v $ids "$SAMPLES"/*.exacct "$SAMPLES"/real/*.exacct >/dev/null &&
	vg "$EXTRACCT" dump -v "$SAMPLES"/real/proc.exacct >/dev/null &&
	vg "$EXTRACCT" text "$SAMPLES"/*.exacct "$SAMPLES"/real/*.exacct >/dev/null &&
	vg "$EXTRACCT" check "$SAMPLES"/*.exacct >/dev/null
'

test_expect_success 'no leaks on damaged input and failures' '
	head -c 20000 "$SAMPLES/proc.exacct" >cut &&
	test_expect_code 1 vg "$EXTRACCT" text cut >/dev/null 2>&1 &&
	test_expect_code 1 vg "$EXTRACCT" dump -v cut >/dev/null 2>&1 &&
	test_expect_code 3 vg "$EXTRACCT" text missing >/dev/null 2>&1 &&
	test_expect_code 2 vg "$EXTRACCT" gen --kind x >/dev/null 2>&1 &&
	vg "$EXTRACCT" gen --kind flow --records 50 -o f >/dev/null
'

test_expect_success 'ingest and report: no leaks' '
	vg "$EXTRACCT" ingest --db v.db --outdir . "$SAMPLES"/*.exacct "$SAMPLES"/real/*.exacct >/dev/null &&
	vg "$EXTRACCT" ingest --db v.db "$SAMPLES"/proc.exacct >/dev/null &&
	vg "$EXTRACCT" report --db v.db --by hour --tz UTC --format json >/dev/null &&
	vg "$EXTRACCT" report --db v.db --by command >/dev/null &&
	test_expect_code 1 vg "$EXTRACCT" ingest --db v.db cut >/dev/null 2>&1
'

test_expect_success 'streams, RAPL and the energy report: no leaks' '
	T=1700000000000000 &&
	printf "%s\n" "$T 5 Package_0" "$((T + 100000)) 6 Package_0" \
	    "$((T + 300000)) 7 Package_0" "$((T + 250000)) 8 Package_0" \
	    "$((T + 400000)) x Package_0" >cpu_energy_rapl_msr_component.log &&
	printf "%s" "$((T + 500000)) 9" >>cpu_energy_rapl_msr_component.log &&
	test_expect_code 1 vg "$EXTRACCT" text cpu_energy_rapl_msr_component.log >/dev/null 2>&1 &&
	test_expect_code 1 vg "$EXTRACCT" ingest --db s.db cpu_energy_rapl_msr_component.log >/dev/null 2>&1 &&
	mkdir -p pc/intel-rapl:0 && echo package-0 >pc/intel-rapl:0/name &&
	echo 100 >pc/intel-rapl:0/energy_uj && echo 1000 >pc/intel-rapl:0/max_energy_range_uj &&
	vg "$EXTRACCT" snap -o snap.log --powercap pc &&
	echo 50 >pc/intel-rapl:0/energy_uj &&
	vg "$EXTRACCT" snap -o snap.log --powercap pc &&
	vg "$EXTRACCT" ingest --db s.db snap.log >/dev/null &&
	vg "$EXTRACCT" report --db s.db --energy --by command --format json >/dev/null &&
	test "$(sqlite3 s.db "SELECT energy_uj FROM rapl_intervals")" -eq 950
'

# acctd under valgrind: it registers (root), records exits of one
# single- and one multi-threaded process, then stops on SIGTERM.
if [ "$(id -u)" -ne 0 ]; then
	test_skip 'acctd under valgrind' 'taskstats needs root'
else
	mkdir -m 700 spool
	under_valgrind() {
		valgrind -q --leak-check=full --show-leak-kinds=all \
		    --errors-for-leak-kinds=all --error-exitcode=42 "$@"
	}
	if ACCTD_WRAP=under_valgrind acctd_start spool a.pid; then
		/bin/true
		extracct_test threads 2 20 >/dev/null
		sleep 1
		test_expect_success 'acctd: no leaks, no errors, from start to SIGTERM' '
			acctd_stop a.pid; rc=$?; cat a.pid.err &&
			test $rc -eq 0 &&
			grep "^acctd: [0-9]* process records, 0 lost" a.pid.out
		'
	else
		test_skip 'acctd under valgrind' "the kernel refused taskstats: $(cat a.pid.err)"
	fi
fi

test_done
