#!/bin/sh
# bench/acctd.sh: what acctd costs.  acctd runs while a shell starts
# EXITS short processes (/bin/true); its CPU time (the scheduler's
# runtime, /proc/PID/schedstat) per 1,000 exits, against the CPU of the
# exiting processes themselves (their parent's times for its children),
# side by side in one run.
# Medians of BENCH_REPS runs (default 3).  Needs root and taskstats; says
# so and exits 0 otherwise.
# Usage: sh bench/acctd.sh PATH/TO/extracct
set -eu
. "$(dirname "$0")/lib.sh"

EXTRACCT=${1:?usage: sh bench/acctd.sh PATH/TO/extracct}
EXITS=${BENCH_ACCTD_EXITS:-5000}
REPS=${BENCH_REPS:-3}
DIR=$(mktemp -d "${TMPDIR:-/tmp}/extracct-acctd.XXXXXX")
APID=
trap 'kill "$APID" 2>/dev/null || true; rm -rf "$DIR"' EXIT
trap 'exit 130' INT TERM


# The scheduler's runtime of a process, ns.
runtime() { awk '{ print $1 }' "/proc/$1/schedstat"; }

i=0
while [ "$i" -lt "$REPS" ]; do
	i=$((i + 1))
	rm -rf "$DIR/spool" && mkdir -m 700 "$DIR/spool"
	"$EXTRACCT" acctd -o "$DIR/spool" --pidfile "$DIR/pid" \
	    >"$DIR/out" 2>"$DIR/err" &
	n=0
	until grep -q "exit records of CPUs" "$DIR/out" 2>/dev/null; do
		n=$((n + 1))
		if [ $n -gt 500 ] || ! kill -0 $! 2>/dev/null; then
			echo "acctd: skipped: the kernel refused taskstats: $(cat "$DIR/err")"
			exit 0
		fi
		sleep 0.01
	done
	APID=$(sed -n 1p "$DIR/pid")
	r0=$(runtime "$APID")
	sh -c "echo \$\$ >$DIR/burst; i=0
	    while [ \$i -lt $EXITS ]; do /bin/true; i=\$((i + 1)); done
	    times >$DIR/times"
	sleep 0.5
	r1=$(runtime "$APID")
	kill -TERM "$APID"
	while kill -0 "$APID" 2>/dev/null; do sleep 0.05; done
	APID=
	bp=$(cat "$DIR/burst")
	"$EXTRACCT" text "$DIR"/spool/acctd-* |
	    awk -v p="$bp" '$5 == p && $NF == "true" { n++ } END { print n + 0 }' \
	    >"$DIR/seen"
	read seen <"$DIR/seen"
	# The children's CPU, whole lives, as their parent's times(1) has it.
	cpu=$(sed -n 2p "$DIR/times" | tr 'ms' '  ' |
	    awk '{ print $1 * 60 + $2 + $3 * 60 + $4 }')
	awk -v a="$r0" -v b="$r1" -v n="$EXITS" \
	    'BEGIN { printf "%.3f\n", (b - a) / 1e6 / n * 1000 }' >>"$DIR/per1000"
	awk -v a="$r0" -v b="$r1" -v c="$cpu" \
	    'BEGIN { printf "%.4f\n", (c > 0 ? (b - a) / 1e9 / c : 0) }' >>"$DIR/share"
	echo "$seen" >>"$DIR/seen.all"
done

per=$(median "$DIR/per1000")
share=$(median "$DIR/share")
seen=$(median "$DIR/seen.all")
echo "acctd: $EXITS exits of /bin/true, medians of $REPS runs"
echo "  acctd CPU per 1,000 exits:     $per ms"
echo "  against the exits' own CPU:    $share (acctd's CPU over the /bin/true processes' CPU, from their parent's times)"
echo "  exits recorded:                $seen of $EXITS"
