#!/bin/sh
# bench/pacct.sh: Linux process accounting against GNU acct on the same
# 1M-record file, side by side: `extracct text` vs `dump-acct`, and
# `extracct report --by command FILE` vs `sa -a FILE`; then what a snap
# costs per process, beside ps and beside bench/procread (the bare reads
# of the files snap reads: the kernel's floor).  Medians of BENCH_REPS
# runs (default 3).
# Usage: sh bench/pacct.sh PATH/TO/extracct [PATH/TO/bench-procread]
set -eu
. "$(dirname "$0")/lib.sh"

EXTRACCT=${1:?usage: sh bench/pacct.sh PATH/TO/extracct [PATH/TO/bench-procread]}
PROCREAD=${2:-}
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
	# A peer that fails must not pass for a fast one.
	"$@" >/dev/null 2>"$DIR/err" || {
		echo "bench pacct: $* failed:" >&2
		cat "$DIR/err" >&2
		exit 1
	}
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

# snap: wall and CPU time per snapshot, 20 snaps a round, the two CPU
# measures (extract/linux/snapcpu.h) taking turns, REPS rounds; medians.  With
# the machine's own processes, then with 1,000 and 5,000 more (sleepers):
# the difference over the processes added is the marginal cost of one,
# which the fixed cost (starting, /proc/stat, powercap) does not blur.
snap_round() {	# measure, tag
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
	    >>"$DIR/snapwall.$1$2"
	echo "$c0 $c1 $(getconf CLK_TCK)" |
	    awk '{ printf "%.6f\n", ($2 - $1) / $3 / 20 }' >>"$DIR/snapcpu.$1$2"
}
# The peer: ps reading about as much of /proc for every process.
ps_round() {	# tag
	t0=$(now)
	j=0
	while [ $j -lt 20 ]; do
		ps -eo pid,ppid,uid,gid,rss,vsz,time,etimes,nlwp,comm >/dev/null
		j=$((j + 1))
	done
	t1=$(now)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f\n", (b - a) / 20 }' \
	    >>"$DIR/pswall$1"
}
# The floor: stat and task/PID/io of every process read bare, from C.
procread_round() {	# tag
	[ -n "$PROCREAD" ] || return 0
	t0=$(now)
	j=0
	while [ $j -lt 20 ]; do
		"$PROCREAD" >/dev/null || {
			echo "bench pacct: $PROCREAD failed" >&2
			exit 1
		}
		j=$((j + 1))
	done
	t1=$(now)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f\n", (b - a) / 20 }' \
	    >>"$DIR/procreadwall$1"
}
snap_rounds() {	# tag
	i=0
	while [ "$i" -lt "$REPS" ]; do
		i=$((i + 1))
		snap_round runtime "$1"
		snap_round ticks "$1"
		ps_round "$1"
		procread_round "$1"
	done
}
nprocs() { ls -d /proc/[0-9]* | wc -l; }
sleepers=
stop_sleepers() { [ -z "$sleepers" ] || kill $sleepers 2>/dev/null || :; }
trap 'stop_sleepers; rm -rf "$DIR"' EXIT
add_sleepers() {	# how many
	k=0
	while [ $k -lt "$1" ]; do
		sleep 3600 &
		sleepers="$sleepers $!"
		k=$((k + 1))
	done
}
n=$(nprocs)
snap_rounds ""
add_sleepers 1000
n1000=$(nprocs)
snap_rounds .1000
add_sleepers 4000
n5000=$(nprocs)
snap_rounds .5000
stop_sleepers

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
		verdict(d / t >= 8, sprintf("text >= 8x faster than dump-acct (%.1fx)", d / t))
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
for m in runtime ticks; do
	[ -s "$DIR/snapwall.$m.5000" ] || continue
	# The CPU beside the wall time: what a busy neighbour does not
	# stretch.
	awk -v m="$m" -v w0="$(median "$DIR/snapwall.$m")" \
	    -v w1="$(median "$DIR/snapwall.$m.1000")" \
	    -v w5="$(median "$DIR/snapwall.$m.5000")" \
	    -v c0="$(median "$DIR/snapcpu.$m")" \
	    -v c1="$(median "$DIR/snapcpu.$m.1000")" \
	    -v c5="$(median "$DIR/snapcpu.$m.5000")" \
	    -v n0="$n" -v n1="$n1000" -v n5="$n5000" 'BEGIN {
		printf "\n  snap --cpu %-7s marginal per process: %.1f us wall at %d processes, %.1f us at %d (goal <= 15 us; ps -eo for comparison below); CPU %.1f us, %.1f us",
		    m, (w1 - w0) / (n1 - n0) * 1e6, n1, (w5 - w0) / (n5 - n0) * 1e6, n5,
		    (c1 - c0) / (n1 - n0) * 1e6, (c5 - c0) / (n5 - n0) * 1e6 }'
done
awk -v w0="$(median "$DIR/pswall")" -v w1="$(median "$DIR/pswall.1000")" \
    -v w5="$(median "$DIR/pswall.5000")" -v n0="$n" -v n1="$n1000" \
    -v n5="$n5000" 'BEGIN {
	printf "\n  ps -eo (10 fields)     marginal per process: %.1f us wall at %d processes, %.1f us at %d",
	    (w1 - w0) / (n1 - n0) * 1e6, n1, (w5 - w0) / (n5 - n0) * 1e6, n5 }'
if [ -s "$DIR/procreadwall.5000" ]; then
	awk -v w0="$(median "$DIR/procreadwall")" \
	    -v w1="$(median "$DIR/procreadwall.1000")" \
	    -v w5="$(median "$DIR/procreadwall.5000")" -v n0="$n" \
	    -v n1="$n1000" -v n5="$n5000" \
	    -v s5="$(median "$DIR/snapwall.ticks.5000" 2>/dev/null)" \
	    -v s0="$(median "$DIR/snapwall.ticks" 2>/dev/null)" 'BEGIN {
		f1 = (w1 - w0) / (n1 - n0); f5 = (w5 - w0) / (n5 - n0)
		printf "\n  bare stat+io reads (C)  marginal per process: %.1f us wall at %d processes, %.1f us at %d (the floor of any /proc reader)",
		    f1 * 1e6, n1, f5 * 1e6, n5
		if (s5 != "" && f5 > 0)
			printf "\n  snap --cpu ticks at %d processes: %.2fx the bare reads", n5,
			    (s5 - s0) / (n5 - n0) / f5 }'
fi
if [ -s "$DIR/snapwall.ticks" ] && [ -s "$DIR/snapwall.runtime" ]; then
	awk -v t="$(median "$DIR/snapwall.ticks")" \
	    -v r="$(median "$DIR/snapwall.runtime")" \
	    'BEGIN { printf "\n  snap --cpu ticks costs %.2fx the wall time of --cpu runtime\n", t / r }'
fi
echo
exit 0
