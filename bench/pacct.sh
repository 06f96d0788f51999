#!/bin/sh
# bench/pacct.sh: Linux process accounting against GNU acct on the same
# 1M-record file, side by side: `extracct text` vs `dump-acct`, and
# `extracct report --by command FILE` vs `sa -a FILE`; then what a snap
# costs per process.  Medians of BENCH_REPS runs (default 3).
# Usage: sh bench/pacct.sh PATH/TO/extracct
set -eu
. "$(dirname "$0")/lib.sh"

EXTRACCT=${1:?usage: sh bench/pacct.sh PATH/TO/extracct}
RECORDS=${BENCH_PACCT_RECORDS:-1000000}
REPS=${BENCH_REPS:-3}
DIR=$(mktemp -d "${TMPDIR:-/tmp}/extracct-pacct.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
trap 'exit 130' INT TERM

"$EXTRACCT" gen --kind pacct --records "$RECORDS" --seed 1 -o "$DIR/p"
cat "$DIR/p" >/dev/null

timeit() {
	out=$1
	shift
	t0=$(now)
	"$@" >/dev/null 2>&1 || true
	t1=$(now)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f\n", b - a }' >>"$DIR/$out"
}

have_acct=1
command -v dump-acct >/dev/null 2>&1 && command -v sa >/dev/null 2>&1 ||
    have_acct=0
i=0
while [ "$i" -lt "$REPS" ]; do
	i=$((i + 1))
	timeit text "$EXTRACCT" text "$DIR/p"
	timeit report "$EXTRACCT" report --by command "$DIR/p"
	if [ $have_acct -eq 1 ]; then
		timeit dumpacct dump-acct "$DIR/p"
		timeit sa sa -a "$DIR/p"
	fi
done

# snap: wall and CPU time per process snapshotted, 20 snaps a round, the
# two CPU measures (extract/snapcpu.h) taking turns, REPS rounds; medians.
snap_round() {
	t0=$(now)
	c0=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat)
	j=0
	while [ $j -lt 20 ]; do
		"$EXTRACCT" snap --cpu "$1" -o "$DIR/snap.$1" 2>/dev/null ||
		    return 0
		j=$((j + 1))
	done
	t1=$(now)
	c1=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f\n", (b - a) / 20 }' \
	    >>"$DIR/snapwall.$1"
	echo "$c0 $c1 $(getconf CLK_TCK)" |
	    awk '{ printf "%.6f\n", ($2 - $1) / $3 / 20 }' >>"$DIR/snapcpu.$1"
}
n=$(ls -d /proc/[0-9]* | wc -l)
i=0
while [ "$i" -lt "$REPS" ]; do
	i=$((i + 1))
	snap_round runtime
	snap_round ticks
done

echo "extracct pacct bench: $RECORDS records ($(wc -c <"$DIR/p" | tr -d ' ') bytes), $REPS reps, medians"
if [ $have_acct -eq 1 ]; then
	awk -v t="$(median "$DIR/text")" -v d="$(median "$DIR/dumpacct")" \
	    -v r="$(median "$DIR/report")" -v s="$(median "$DIR/sa")" \
	    -v n="$RECORDS" '
	function verdict(ok, what) { printf "  %-46s %s\n", what, ok ? "target met" : "target NOT met" }
	BEGIN {
		printf "  %-40s %9.3f s %12.0f records/s\n", "extracct text", t, n / t
		printf "  %-40s %9.3f s %12.0f records/s\n", "dump-acct (GNU acct)", d, n / d
		printf "  %-40s %9.3f s %12.0f records/s\n", "extracct report --by command FILE", r, n / r
		printf "  %-40s %9.3f s %12.0f records/s\n\n", "sa -a (GNU acct)", s, n / s
		verdict(d / t >= 2, sprintf("text >= 2x faster than dump-acct (%.1fx)", d / t))
		verdict(r <= s, sprintf("report no slower than sa (%.2fx sa speed)", s / r))
	}'
else
	echo "  GNU acct not installed (apt-get install acct): peers skipped"
	echo "  extracct text: $(median "$DIR/text") s; report: $(median "$DIR/report") s"
fi
for m in runtime ticks; do
	if [ ! -s "$DIR/snapwall.$m" ]; then
		printf "\n  snap --cpu %s: not available here (taskstats needs root)\n" "$m"
		continue
	fi
	awk -v m="$m" -v w="$(median "$DIR/snapwall.$m")" \
	    -v c="$(median "$DIR/snapcpu.$m")" -v n="$n" 'BEGIN {
		printf "\n  snap --cpu %-7s %d processes; per snapshot %.1f ms wall, %.1f ms CPU; per process %.1f us wall, %.1f us CPU",
		    m, n, w * 1000, c * 1000, w / n * 1e6, c / n * 1e6 }'
done
if [ -s "$DIR/snapwall.ticks" ] && [ -s "$DIR/snapwall.runtime" ]; then
	awk -v t="$(median "$DIR/snapwall.ticks")" \
	    -v r="$(median "$DIR/snapwall.runtime")" \
	    'BEGIN { printf "\n  snap --cpu ticks costs %.2fx the wall time of --cpu runtime\n", t / r }'
fi
echo
exit 0
