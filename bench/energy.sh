#!/bin/sh
# bench/energy.sh: ingest of energy snapshots.  1M generated records
# (gen --kind energy), ingested into a fresh database, BENCH_REPS times
# (default 3); the median, in records/s.
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
