#!/bin/sh
# bench/cgroup.sh: what reading the cgroup totals costs snap, per cgroup
# and per process: snap with and without them (--no-cgroups), taking
# turns, 20 snaps a round, BENCH_REPS rounds (default 5), medians of the
# CPU time (user + system, the children's: what a neighbour on the other
# core does not stretch) and the wall time per snapshot.  With the
# machine's own processes, then 1,000 more (sleepers, in our cgroup:
# processes and not cgroups added), then, as root with a unified
# hierarchy, 100 more cgroups holding a sleeper each.  The goal: the
# cost per process rises by at most 10%.
# Usage: sh bench/cgroup.sh PATH/TO/extracct
set -eu
. "$(dirname "$0")/lib.sh"

EXTRACCT=${1:?usage: sh bench/cgroup.sh PATH/TO/extracct}
REPS=${BENCH_REPS:-5}
DIR=$(mktemp -d "${TMPDIR:-/tmp}/extracct-cgroup.XXXXXX")
V2=$(awk '{ for (i = 7; i <= NF && $i != "-"; i++) ;
    if ($(i + 1) == "cgroup2") { print $5; exit } }' /proc/self/mountinfo)
CGS=${V2:+$V2/extracct-bench-$$}
sleepers=
cleanup() {
	[ -z "$sleepers" ] || kill $sleepers 2>/dev/null || :
	if [ -n "$CGS" ] && [ -d "$CGS" ]; then
		sleep 0.2
		find "$CGS" -depth -type d -exec rmdir {} \; 2>/dev/null || :
	fi
	rm -rf "$DIR"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

snap_round() {	# tag (with, without), phase
	opt=
	[ "$1" = without ] && opt=--no-cgroups
	t0=$(now)
	c0=$(awk '{ print $16 + $17 }' /proc/$$/stat)
	j=0
	while [ $j -lt 20 ]; do
		"$EXTRACCT" snap --cpu runtime $opt -o "$DIR/snap" 2>/dev/null ||
		    { echo "bench cgroup: snap failed" >&2; exit 1; }
		j=$((j + 1))
	done
	t1=$(now)
	c1=$(awk '{ print $16 + $17 }' /proc/$$/stat)
	rm -f "$DIR/snap"
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f\n", (b - a) / 20 }' \
	    >>"$DIR/wall.$1.$2"
	echo "$c0 $c1 $(getconf CLK_TCK)" |
	    awk '{ printf "%.6f\n", ($2 - $1) / $3 / 20 }' >>"$DIR/cpu.$1.$2"
}
rounds() {	# phase
	i=0
	while [ "$i" -lt "$REPS" ]; do
		i=$((i + 1))
		snap_round with "$1"
		snap_round without "$1"
	done
	"$EXTRACCT" snap --cpu runtime -o "$DIR/one" 2>/dev/null
	"$EXTRACCT" dump "$DIR/one" >"$DIR/one.dump"
	echo "$(grep -c "	group-proc-partial " "$DIR/one.dump")" \
	    "$(grep -c "	group-cgroup " "$DIR/one.dump")" >"$DIR/n.$1"
	rm -f "$DIR/one" "$DIR/one.dump"
}
report() {	# phase, title
	read -r np ncg <"$DIR/n.$1"
	awk -v cw="$(median "$DIR/cpu.with.$1")" \
	    -v co="$(median "$DIR/cpu.without.$1")" \
	    -v ww="$(median "$DIR/wall.with.$1")" \
	    -v wo="$(median "$DIR/wall.without.$1")" \
	    -v np="$np" -v ncg="$ncg" -v t="$2" 'BEGIN {
		printf "  %s: %d processes, %d cgroup records\n", t, np, ncg
		printf "    %-26s %9.2f ms CPU %9.2f ms wall %7.2f us CPU/process\n",
		    "snap --no-cgroups", co * 1e3, wo * 1e3, co / np * 1e6
		printf "    %-26s %9.2f ms CPU %9.2f ms wall %7.2f us CPU/process\n",
		    "snap (cgroups read)", cw * 1e3, ww * 1e3, cw / np * 1e6
		r = co > 0 ? (cw - co) / co * 100 : 0
		printf "    cgroups: %+.2f ms CPU a snapshot, %.1f us a cgroup record; per process %+.1f%%: target (<= 10%%) %s\n",
		    (cw - co) * 1e3, (ncg > 0 ? (cw - co) / ncg * 1e6 : 0), r,
		    r <= 10 ? "met" : "NOT met"
	}'
}

rounds base
k=0
while [ $k -lt 1000 ]; do
	sleep 3600 &
	sleepers="$sleepers $!"
	k=$((k + 1))
done
rounds procs
have_cgs=0
if [ "$(id -u)" -eq 0 ] && [ -n "$CGS" ] && mkdir "$CGS" 2>/dev/null; then
	have_cgs=1
	k=0
	while [ $k -lt 100 ]; do
		mkdir "$CGS/c$k"
		sh -c 'echo $$ >"$1/cgroup.procs" && exec sleep 3600' sh "$CGS/c$k" &
		sleepers="$sleepers $!"
		k=$((k + 1))
	done
	sleep 0.5
	rounds cgroups
fi

echo "extracct cgroup bench: snap with and without the cgroup totals, $REPS rounds of 20, medians"
report base "this machine"
report procs "1,000 sleepers more"
[ $have_cgs -eq 0 ] || report cgroups "and 100 cgroups more, a sleeper each"
