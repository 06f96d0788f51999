#!/bin/sh
# bench/spool.sh: what the hourly run costs with nothing new, by the
# number of logs the spool keeps (a year of hourly logs with a long
# retention is some 17,000).  A spool of one-record exacct logs, named
# as the spool names them, at 1,000, 5,000 and 20,000 logs: the first
# run stores them (once), then BENCH_REPS runs (default 3) that find
# nothing new; the medians of their wall and CPU time, and the reads
# (pread64, strace) of one of them a log.  Goal: O(logs), under 1 s at
# 20,000.
# Usage: sh bench/spool.sh PATH/TO/extracct PATH/TO/extracct-test
set -eu
. "$(dirname "$0")/lib.sh"

EXTRACCT=${1:?usage: sh bench/spool.sh PATH/TO/extracct PATH/TO/extracct-test}
EXTRACCT_TEST=${2:?usage: sh bench/spool.sh PATH/TO/extracct PATH/TO/extracct-test}
case $EXTRACCT in /*) ;; *) EXTRACCT=$PWD/$EXTRACCT ;; esac
case $EXTRACCT_TEST in /*) ;; *) EXTRACCT_TEST=$PWD/$EXTRACCT_TEST ;; esac
REPS=${BENCH_REPS:-3}
SIZES=${BENCH_SPOOL_LOGS:-1000 5000 20000}
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/extracct-spool.XXXXXX")
trap 'rm -rf "$TRASH"' EXIT
cd "$TRASH"
host=$(hostname)
max=0
for n in $SIZES; do [ "$n" -gt "$max" ] && max=$n; done

# One log a minute from 2023-11-14 22:13 UTC, each its own record: a
# generated log cut into one-record logs (the test helper's split), then
# named as the spool names them (perl, which Debian always has: a date
# and an mv a log would take longer than the bench).
mkdir pool
"$EXTRACCT" gen --kind proc --records "$max" --seed 1 --host "$host" \
    -o all.exacct
"$EXTRACCT_TEST" split all.exacct "$max" pool/p
perl -e 'my ($host, $n) = @ARGV;
    for my $i (1 .. $n) {
	my @t = gmtime(1700000000 + $i * 60);
	rename("pool/p.$i", sprintf("pool/proc-%s-%04d%02d%02d-%02d%02d",
	    $host, $t[5] + 1900, $t[4] + 1, $t[3], $t[2], $t[1]))
	    or die "pool/p.$i: $!\n";
    }' "$host" "$max"

run() {
	"$EXTRACCT" run --spool "spool.$1" --db "db.$1" --no-snap \
	    --no-rotate --retention-days 36500
}

echo "extracct spool bench: run with nothing new, by logs in the spool; $REPS reps, median"
printf "  %8s %12s %12s %12s %14s\n" logs "first run" "nothing new" "its CPU" "reads a log"
for n in $SIZES; do
	mkdir -m 700 "spool.$n"
	ls pool | sort | head -n "$n" | (cd pool && xargs cp -t "../spool.$n")
	a=$(now)
	run "$n" >/dev/null
	first=$(awk -v a="$a" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
	rm -f "t.$n" "c.$n"
	i=0
	while [ "$i" -lt "$REPS" ]; do
		i=$((i + 1))
		a=$(now)
		cpu_of run "$n" >>"c.$n"
		awk -v a="$a" -v b="$(now)" 'BEGIN { printf "%.3f\n", b - a }' \
		    >>"t.$n"
	done
	reads=-
	if command -v strace >/dev/null 2>&1; then
		strace -f -c -e trace=pread64 -o "s.$n" "$EXTRACCT" run \
		    --spool "spool.$n" --db "db.$n" --no-snap --no-rotate \
		    --retention-days 36500 >/dev/null 2>&1 || true
		reads=$(awk -v n="$n" '$NF == "pread64" {
		    printf "%.1f", $(NF - 1) / n }' "s.$n")
	fi
	printf "  %8d %10s s %10.3f s %10.3f s %14s\n" "$n" "$first" \
	    "$(median "t.$n")" "$(median "c.$n")" "$reads"
done
