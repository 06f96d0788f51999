#!/bin/sh
# bench/compare.sh: one build against another, side by side.
#
# Usage: sh bench/compare.sh OLD/extracct NEW/extracct
#        (make bench BASELINE=OLD/extracct runs it after the rest)
#   BENCH_REPS   timed repetitions of each command (default 5)
#
# The same generated logs, the same commands, old and new taking turns
# in every round (noise falls on both alike); the median wall time of
# each and new/old.  A change that should not cost anything (a
# restructuring) shows ratios near 1.00; no verdict is drawn, the figures
# are for the change's note.  Exits 0 unless the bench cannot run.

set -eu
. "$(dirname "$0")/lib.sh"

OLD=${1:?usage: sh bench/compare.sh OLD NEW}
NEW=${2:?usage: sh bench/compare.sh OLD NEW}
REPS=${BENCH_REPS:-5}
for b in "$OLD" "$NEW"; do
	[ -x "$b" ] || { echo "bench: $b is not executable" >&2; exit 2; }
done

DIR=$(mktemp -d "${TMPDIR:-/tmp}/extracct-compare.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
trap 'exit 130' INT TERM

"$NEW" gen --kind proc --records 200000 --seed 1 -o "$DIR/proc.ex"
"$NEW" gen --kind pacct --records 500000 --seed 1 -o "$DIR/pacct"

CASES="text-proc check-proc dump-proc text-pacct report-pacct ingest-proc
    ingest-pacct"
run() {		# binary, case
	case $2 in
	text-proc)	"$1" text "$DIR/proc.ex" ;;
	check-proc)	"$1" check "$DIR/proc.ex" ;;
	dump-proc)	"$1" dump -v "$DIR/proc.ex" ;;
	text-pacct)	"$1" text "$DIR/pacct" ;;
	report-pacct)	"$1" report --by command "$DIR/pacct" ;;
	ingest-proc)	rm -f "$DIR/db"*; "$1" ingest --db "$DIR/db" \
			    "$DIR/proc.ex" ;;
	ingest-pacct)	rm -f "$DIR/db"*; "$1" ingest --db "$DIR/db" \
			    "$DIR/pacct" ;;
	esac >/dev/null
}

for c in $CASES; do		# warm-up, and both must work
	run "$OLD" "$c" || { echo "bench: old $c failed" >&2; exit 1; }
	run "$NEW" "$c" || { echo "bench: new $c failed" >&2; exit 1; }
done
i=0
while [ "$i" -lt "$REPS" ]; do
	i=$((i + 1))
	for c in $CASES; do
		for w in old new; do
			[ $w = old ] && b=$OLD || b=$NEW
			t0=$(now)
			run "$b" "$c"
			t1=$(now)
			echo "$t0 $t1" | awk '{ printf "%.6f\n", $2 - $1 }' \
			    >>"$DIR/t.$c.$w"
		done
	done
done

echo "extracct compare: $OLD (old) against $NEW (new), $REPS rounds"
printf "  %-14s %10s %10s %9s\n" case "old s" "new s" "new/old"
for c in $CASES; do
	o=$(median "$DIR/t.$c.old")
	n=$(median "$DIR/t.$c.new")
	printf "  %-14s %10.3f %10.3f %9.2f\n" "$c" "$o" "$n" \
	    "$(echo "$n $o" | awk '{ print $1 / $2 }')"
done
exit 0
