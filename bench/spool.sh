#!/bin/sh
# bench/spool.sh: what run costs as the spool fills: a spool of 1,000,
# 5,000 and 20,000 one-record pacct logs (a year of hourly logs is about
# 17,000 files), the run that stores them, then a run with nothing new
# (each log opened and found in the ledger), then, the logs made two
# days old, one whose retention (--retention-days 1) asks the ledger
# about each and removes them all.
# Its cost should grow with the logs, not with their square: the
# ledger finds a log by its own first bytes, however many it holds.
#
# Usage: sh bench/spool.sh PATH/TO/extracct      (make bench does this)
#   BENCH_SPOOL_LOGS  the spool sizes (default "1000 5000 20000")
#   BENCH_REPS        timed runs with nothing new, median (default 3)

set -eu
. "$(dirname "$0")/lib.sh"

X=${1:?usage: sh bench/spool.sh PATH/TO/extracct}
SIZES=${BENCH_SPOOL_LOGS:-1000 5000 20000}
REPS=${BENCH_REPS:-3}
for v in $SIZES; do
	case $v in ''|*[!0-9]*|0) echo "bench: BENCH_SPOOL_LOGS must be" \
	    "numbers >= 1" >&2; exit 2;; esac
done
case $REPS in ''|*[!0-9]*|0) echo "bench: BENCH_REPS must be a number >= 1" >&2; exit 2;; esac
[ -x "$X" ] || { echo "bench: $X is not executable" >&2; exit 2; }

DIR=$(mktemp -d "${TMPDIR:-/tmp}/extracct-bench-spool.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
trap 'exit 130' INT TERM
HOST=$(hostname)

# mkspool N: $DIR/sp, N logs of one 64-byte pacct record each, every
# record another, named one a day from 2000-01-01 by split itself (a
# rename per log would fork N times; the names' digits are all the
# spool asks of them, so 20000132 passes).
mkspool() {
	rm -rf "$DIR/sp" "$DIR"/d.db*
	mkdir -m 700 "$DIR/sp"
	"$X" gen --kind pacct --records "$1" --seed 1 -o "$DIR/all"
	(cd "$DIR/sp" && split -b 64 -a 8 --numeric-suffixes=20000101 \
	    --additional-suffix=-0000 "$DIR/all" "pacct-$HOST-")
	rm -f "$DIR/all"
}

spoolrun() {
	"$X" run --spool "$DIR/sp" --db "$DIR/d.db" --no-rotate --no-snap "$@"
}

# timed OUT: one run, its wall seconds to OUT, its CPU seconds to OUT.cpu.
timed() {
	t0=$(now)
	c=$(cpu_of spoolrun $RUNOPTS)
	t1=$(now)
	[ "$c" != failed ] || { echo "bench: spool: run failed" >&2; exit 1; }
	echo "$t0 $t1" | awk '{ printf "%.6f\n", $2 - $1 }' >>"$1"
	echo "$c" >>"$1.cpu"
}

echo "extracct bench: run on a spool of one-record pacct logs"
echo "  run --no-rotate --no-snap; nothing new: the median of $REPS runs;"
echo "  wall and CPU (user + system) seconds"
echo
printf "  %8s %12s %8s %12s %8s %12s %8s\n" logs "store: wall" cpu \
    "nothing new" cpu "retention" cpu
for n in $SIZES; do
	mkspool "$n"
	rm -f "$DIR"/t.*
	RUNOPTS=
	timed "$DIR/t.first"
	i=0
	while [ "$i" -lt "$REPS" ]; do
		timed "$DIR/t.again"
		i=$((i + 1))
	done
	find "$DIR/sp" -type f -exec touch -d '2 days ago' {} +
	RUNOPTS="--retention-days 1"
	timed "$DIR/t.ret"
	printf "  %8d %12.3f %8.3f %12.3f %8.3f %12.3f %8.3f\n" "$n" \
	    "$(cat "$DIR/t.first")" "$(cat "$DIR/t.first.cpu")" \
	    "$(median "$DIR/t.again")" "$(median "$DIR/t.again.cpu")" \
	    "$(cat "$DIR/t.ret")" "$(cat "$DIR/t.ret.cpu")"
	[ -z "$(ls "$DIR/sp")" ] ||
	    echo "  (retention left $(ls "$DIR/sp" | wc -l) logs of $n)"
done
exit 0
