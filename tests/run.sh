#!/bin/sh
# Run the tests, several scripts at a time, and end with the line
# "N passed, N failed" that CI reads.
#   usage: sh tests/run.sh [-j JOBS] check BUILD_DIR
#          sh tests/run.sh [-j JOBS] check-san BUILD_DIR SAN_BUILD_DIR
# check: the unit tests and every shell script against the optimised
# build, but for those marked "# run.sh: check-san" (valgrind, the fuzz
# targets).  check-san: those against the optimised build, then the unit
# tests and every script against the ASan + UBSan build.
#
# JOBS (default: the number of CPUs, at least 2; TEST_JOBS too) scripts
# run at once, each with its output kept to itself and shown whole when
# it ends.  Two kinds are held back:
#   - a script that takes the kernel lock (kernel_lock or
#     acct_note_state, lib.sh) starts only while no other such script
#     runs: accounting and taskstats are one switch for the machine, and
#     a script waiting on the lock would idle a job;
#   - a script marked "# run.sh: alone" (it measures the whole machine's
#     CPU, the capture ratio, which another script's thousands of short
#     processes would skew) runs at the end, with nothing else of ours.
# Of the others, those marked "# run.sh: long SECONDS" start first,
# longest first.  The PostgreSQL tests start copies of one cluster the
# runner makes (tests/pg-template.sh).

SRC=$(cd "$(dirname "$0")/.." && pwd)
export SRC
passed=0
failed=0
skipped=0
jobs=${TEST_JOBS:-}
if [ "${1:-}" = -j ]; then
	jobs=$2
	shift 2
fi
[ -n "$jobs" ] || jobs=$(nproc 2>/dev/null || echo 2)
[ "$jobs" -ge 2 ] 2>/dev/null || jobs=2
mode=${1:-}
case $mode in
check) [ $# -eq 2 ] ;;
check-san) [ $# -eq 3 ] ;;
*) false ;;
esac || {
	echo "usage: sh tests/run.sh [-j JOBS] check BUILD_DIR" >&2
	echo "       sh tests/run.sh [-j JOBS] check-san BUILD_DIR SAN_BUILD_DIR" >&2
	exit 2
}
shift
out=$(mktemp -d)
# The PostgreSQL cluster the scripts that need one start a copy of
# (tests/lib-pg.sh): made once, beside the first jobs.
EXTRACCT_PG_TEMPLATE=$(mktemp -d /tmp/expg.XXXXXX)
export EXTRACCT_PG_TEMPLATE
trap 'rm -rf "$out" "$EXTRACCT_PG_TEMPLATE"' EXIT
trap 'exit 130' INT TERM

# Sanitizers: fail hard on the first report, and check for leaks.
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=99
export ASAN_OPTIONS UBSAN_OPTIONS

# Add the counts of log $1: its last "N passed, N failed[, N skipped]"
# line (at the line's start too: the "0 passed, 1 failed" added for a
# script that died).
add_counts() {
	line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
	p=$(echo "$line" | sed -E 's/(^|.* )([0-9]+) passed.*/\2/')
	f=$(echo "$line" | sed -E 's/(^|.* )([0-9]+) failed.*/\2/')
	s=$(echo "$line" | sed -nE 's/(^|.* )([0-9]+) skipped.*/\2/p')
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-1}))
	skipped=$((skipped + ${s:-0}))
}

# Start job $1 (a script's path, or "unit") against build $2, label $3,
# in the background: its output to $out/$N.log, its exit status then to
# $out/$N.rc (written last: the job has ended when it exists).
start() {
	name "$1"
	date +%s >"$out/$n.t0"
	(
		if [ "$1" = unit ]; then
			"$2/unit"
		else
			EXTRACCT="$2/extracct" EXTRACCT_TEST="$2/extracct-test" \
			    BUILD_LABEL="$3" sh "$1"
		fi >"$out/$n.log" 2>&1
		echo $? >"$out/$n.rc.new"
		mv "$out/$n.rc.new" "$out/$n.rc"
	) &
}

# Show the output of ended job $1 with its label $2, and add its counts.
report() {
	name "$1"
	rc=$(cat "$out/$n.rc")
	secs=$(($(date +%s) - $(cat "$out/$n.t0")))
	if [ "$1" = unit ]; then
		echo "== unit tests ($2, ${secs} s)"
	else
		echo "== $n.sh ($2, ${secs} s)"
	fi
	cat "$out/$n.log"
	if ! grep -qE '[0-9]+ passed, [0-9]+ failed' "$out/$n.log"; then
		echo "0 passed, 1 failed" >>"$out/$n.log"
		echo "# $n died with exit code $rc"
	fi
	add_counts "$out/$n.log"
	rm -f "$out/$n.log" "$out/$n.rc" "$out/$n.t0"
}

# (The loop below forks little: on a loaded machine a fork takes
# a tenth of a second.)
is_kernel() {
	case " $kernel_scripts " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

name() {
	n=${1##*/}
	n=${n%.sh}
}

# Run the jobs "$@" against build $build, label $label, $jobs at a time.
run_jobs() {
	queue=$*
	running=
	kernel=
	while [ -n "$queue" ] || [ -n "$running" ]; do
		left=
		ended=
		for j in $running; do
			name "$j"
			if [ -e "$out/$n.rc" ]; then
				ended="$ended $j"
				[ "$j" != "$kernel" ] || kernel=
			else
				left="$left $j"
			fi
		done
		running=$left
		set -- $running
		nrun=$#
		# The next job to start: while no kernel-lock script runs,
		# the first of them (one after another they are the longest
		# chain), else the first other script of the queue.
		while [ $nrun -lt "$jobs" ] && [ -n "$queue" ]; do
			pick=
			if [ -z "$kernel" ]; then
				for j in $queue; do
					is_kernel "$j" || continue
					pick=$j kernel=$j
					break
				done
			fi
			if [ -z "$pick" ]; then
				for j in $queue; do
					is_kernel "$j" && continue
					pick=$j
					break
				done
			fi
			[ -n "$pick" ] || break
			rest=
			for j in $queue; do
				[ "$j" = "$pick" ] || rest="$rest $j"
			done
			queue=$rest
			start "$pick" "$build" "$label"
			running="$running $pick"
			nrun=$((nrun + 1))
		done
		# (the next ones started first: showing takes a while)
		for j in $ended; do
			report "$j" "$label"
		done
		[ -z "$running" ] || [ -n "$ended" ] || sleep 0.2
	done
}

# One pass: build $1 with label $2; jobs "unit" and the scripts "$@"
# after them, the ones marked alone at the end, one at a time.
pass() {
	build=$(cd "$1" && pwd)	# the tests run in their own directories
	label=$2
	shift 2
	together=
	alone=
	for t in "$@"; do
		case " $alone_scripts " in
		*" $t "*) alone="$alone $t" ;;
		*) together="$together $t" ;;
		esac
	done
	run_jobs $together
	for t in $alone; do
		start "$t" "$build" "$label"
		wait
		report "$t" "$label"
	done
}

kernel_scripts=$(grep -lE '^[^#]*(kernel_lock|acct_note_state)' \
    "$SRC"/tests/t/t*.sh)
alone_scripts=$(grep -l '^# run.sh: alone' "$SRC"/tests/t/t*.sh)
san_kind=$(grep -l '^# run.sh: check-san' "$SRC"/tests/t/t*.sh)
kernel_scripts=$(echo $kernel_scripts)
alone_scripts=$(echo $alone_scripts)
san_kind=$(echo $san_kind)
# The scripts marked "# run.sh: long SECONDS" first, the longest first:
# one started late would run on by itself at the end, the other jobs
# idle.
long_scripts=$(grep -H '^# run.sh: long [0-9]' "$SRC"/tests/t/t*.sh |
    sort -t ' ' -k 4,4nr | cut -d: -f1)
ordered=
for t in $long_scripts "$SRC"/tests/t/t*.sh; do
	case " $ordered " in
	*" $t "*) ;;
	*) ordered="$ordered $t" ;;
	esac
done
scripts=
for t in $ordered; do
	case " $san_kind " in
	*" $t "*) ;;
	*) scripts="$scripts $t" ;;
	esac
done
echo "== $mode: $jobs scripts at a time"
sh "$SRC/tests/pg-template.sh" "$EXTRACCT_PG_TEMPLATE" &
if [ "$mode" = check ]; then
	pass "$1" release unit $scripts
else
	pass "$1" release $san_kind
	pass "$2" asan+ubsan unit $ordered
fi
echo
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
