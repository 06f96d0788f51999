#!/bin/sh
# bench/acctd.sh: what recording exits costs.  bench/forkloop makes
# EXITS processes that exit at once, as fast as the machine allows,
# three ways taking turns in each round: alone, while acctd records them
# (taskstats), and while the kernel's process accounting does (pacct, if
# it is off at the start: it is then switched to a file of ours and back
# off, on every way out).  Printed: the loop's exits per second, acctd's
# CPU (the scheduler's runtime, /proc/PID/schedstat) per 1,000 exits,
# how much each recorder slows the loop down, and the exits each
# recorded.  Medians of BENCH_REPS rounds (default 3).  Needs root and
# taskstats; says so and exits 0 otherwise.
# Usage: sh bench/acctd.sh PATH/TO/extracct PATH/TO/forkloop
set -eu
. "$(dirname "$0")/lib.sh"

EXTRACCT=${1:?usage: sh bench/acctd.sh PATH/TO/extracct PATH/TO/forkloop}
LOOP=${2:?usage: sh bench/acctd.sh PATH/TO/extracct PATH/TO/forkloop}
EXITS=${BENCH_ACCTD_EXITS:-100000}
REPS=${BENCH_REPS:-3}
DIR=$(mktemp -d "${TMPDIR:-/tmp}/extracct-acctd.XXXXXX")
APID=
PACCT_OURS=0
cleanup() {
	[ -z "$APID" ] || kill "$APID" 2>/dev/null || :
	[ $PACCT_OURS -eq 0 ] || accton off >/dev/null 2>&1 || :
	rm -rf "$DIR"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Accounting is one switch for the whole machine: the test suite's lock.
exec 9>>/tmp/extracct-tests-kernel.lock
flock -w 900 9 || { echo "acctd: the kernel-state lock is held; skipped"; exit 0; }

# Is process accounting on now (the acct package's file grows)?
acct_on=0
if [ -f /var/log/account/pacct ]; then
	before=$(wc -c </var/log/account/pacct)
	/bin/true
	sleep 0.2
	[ "$(wc -c </var/log/account/pacct)" -gt "$before" ] && acct_on=1
fi
command -v accton >/dev/null 2>&1 || acct_on=1	# cannot switch it

runtime() { awk '{ print $1 }' "/proc/$1/schedstat"; }

# The loop, timed; its pid in $DIR/loop.pid, its seconds on stdout.
loop() {
	"$LOOP" "$EXITS" >"$DIR/loop.out" &
	echo $! >"$DIR/loop.pid"
	wait $!
	awk '{ print $4 }' "$DIR/loop.out"
}
# Records in log(s) $@ of the loop's children (ppid, command forkloop).
children() {
	lp=$(cat "$DIR/loop.pid")
	"$EXTRACCT" text "$@" |
	    awk -v p="$lp" '$5 == p && $NF ~ /forkloop$/ { n++ } END { print n + 0 }'
}

i=0
while [ "$i" -lt "$REPS" ]; do
	i=$((i + 1))
	loop >>"$DIR/t.alone"

	rm -rf "$DIR/spool" && mkdir -m 700 "$DIR/spool"
	"$EXTRACCT" acctd --spool "$DIR/spool" --acctd-pidfile "$DIR/pid" \
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
	loop >>"$DIR/t.acctd"
	sleep 0.5
	r1=$(runtime "$APID")
	kill -TERM "$APID"
	while kill -0 "$APID" 2>/dev/null; do sleep 0.05; done
	APID=
	awk -v a="$r0" -v b="$r1" -v n="$EXITS" \
	    'BEGIN { printf "%.3f\n", (b - a) / 1e6 / n * 1000 }' >>"$DIR/per1000"
	children "$DIR"/spool/acctd-* >>"$DIR/seen.acctd"

	if [ $acct_on -eq 0 ]; then
		: >"$DIR/pacct"
		PACCT_OURS=1
		accton "$DIR/pacct" >/dev/null
		loop >>"$DIR/t.pacct"
		accton off >/dev/null
		PACCT_OURS=0
		children "$DIR/pacct" >>"$DIR/seen.pacct"
	fi
done

alone=$(median "$DIR/t.alone")
echo "acctd: $EXITS exits (bench/forkloop) a round, $REPS rounds, medians"
awk -v t="$alone" -v n="$EXITS" \
    'BEGIN { printf "  the loop alone:                 %.0f exits/s\n", n / t }'
echo "  acctd CPU per 1,000 exits:      $(median "$DIR/per1000") ms"
awk -v a="$alone" -v t="$(median "$DIR/t.acctd")" \
    'BEGIN { printf "  loop slowdown with acctd:       %.2fx\n", t / a }'
if [ -s "$DIR/t.pacct" ]; then
	awk -v a="$alone" -v t="$(median "$DIR/t.pacct")" \
	    'BEGIN { printf "  loop slowdown with pacct:       %.2fx\n", t / a }'
else
	echo "  loop slowdown with pacct:       not measured (accounting was on, or no accton)"
fi
echo "  exits recorded by acctd:        $(median "$DIR/seen.acctd") of $EXITS"
[ ! -s "$DIR/seen.pacct" ] ||
    echo "  exits recorded by pacct:        $(median "$DIR/seen.pacct") of $EXITS"
