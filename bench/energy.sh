#!/bin/sh
# bench/energy.sh: ingest of energy snapshots.  1M generated records
# (gen --kind energy), ingested into a fresh database, BENCH_REPS times
# (default 3); the median, in records/s.  Then a metric-provider stream
# (BENCH_STREAM_LINES RAPL lines, two series, 100 ms apart), the same
# way, beside `sqlite3 .import` of the same lines into a plain table:
# what a bare SQLite load of those rows costs.
# Usage: sh bench/energy.sh PATH/TO/extracct
set -eu
. "$(dirname "$0")/lib.sh"

EXTRACCT=${1:?usage: sh bench/energy.sh PATH/TO/extracct}
RECORDS=${BENCH_ENERGY_RECORDS:-1000000}
REPS=${BENCH_REPS:-3}
DIR=$(mktemp -d "${TMPDIR:-/tmp}/extracct-energy.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
trap 'exit 130' INT TERM


"$EXTRACCT" gen --kind energy --records "$RECORDS" --seed 1 -o "$DIR/e"
cat "$DIR/e" >/dev/null
i=0
while [ "$i" -lt "$REPS" ]; do
	i=$((i + 1))
	rm -f "$DIR"/db*
	t0=$(now)
	"$EXTRACCT" ingest --db "$DIR/db" "$DIR/e" >/dev/null
	t1=$(now)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }' >>"$DIR/t"
done
t=$(median "$DIR/t")
echo "extracct energy bench: $RECORDS energy snapshot records ($(wc -c <"$DIR/e") bytes), $REPS reps, median"
awk -v t="$t" -v n="$RECORDS" 'BEGIN {
    printf "  ingest into a fresh database      %8.3f s   %9.0f records/s\n", t, n / t }'

LINES=${BENCH_STREAM_LINES:-1000000}
S="$DIR/cpu_energy_rapl_msr_component.log"
awk -v n="$LINES" 'BEGIN { t = 1700000000000000
    for (i = 0; i < n; i += 2) {
	printf "%.0f %d Package_0\n", t, 500000 + i % 977
	printf "%.0f %d DRAM_0\n", t, 90000 + i % 313
	t += 100000 } }' >"$S"
i=0
while [ "$i" -lt "$REPS" ]; do
	i=$((i + 1))
	rm -f "$DIR"/db* "$DIR"/imp*
	t0=$(now)
	"$EXTRACCT" ingest --db "$DIR/db" "$S" >"$DIR/out"
	t1=$(now)
	sqlite3 "$DIR/imp" "CREATE TABLE s (ts INTEGER, reading INTEGER,
	    detail TEXT); PRAGMA journal_mode=WAL" >/dev/null
	sqlite3 "$DIR/imp" ".separator ' '" ".import $S s"
	t2=$(now)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }' >>"$DIR/ts"
	awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.3f\n", b - a }' >>"$DIR/ti"
done
grep -q " $LINES rows," "$DIR/out" || { cat "$DIR/out"; exit 1; }
ts=$(median "$DIR/ts")
ti=$(median "$DIR/ti")
echo "extracct stream bench: $LINES RAPL stream lines ($(wc -c <"$S") bytes), $REPS reps, median"
awk -v t="$ts" -v u="$ti" -v n="$LINES" 'BEGIN {
    printf "  ingest into a fresh database      %8.3f s   %9.0f lines/s\n", t, n / t
    printf "  sqlite3 .import, plain table      %8.3f s   %9.0f lines/s\n", u, n / u
    printf "  ratio (extracct / .import time)   %8.2f\n", t / u }'
