#!/bin/sh
# Run every test: unit tests and shell tests, first against the optimised
# build, then against the ASan + UBSan build.  Ends with the line
# "N passed, N failed" that CI reads.
#   usage: sh tests/run.sh BUILD_DIR SAN_BUILD_DIR

SRC=$(cd "$(dirname "$0")/.." && pwd)
export SRC
passed=0
failed=0
skipped=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# Sanitizers: fail hard on the first report, and check for leaks.
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=99
export ASAN_OPTIONS UBSAN_OPTIONS

add_counts() {
	# The last "N passed, N failed[, N skipped]" line of the log.
	line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	# (at the line's start too: the "0 passed, 1 failed" added for a
	# script that died)
	p=$(echo "$line" | sed -E 's/(^|.* )([0-9]+) passed.*/\2/')
	f=$(echo "$line" | sed -E 's/(^|.* )([0-9]+) failed.*/\2/')
	s=$(echo "$line" | sed -nE 's/(^|.* )([0-9]+) skipped.*/\2/p')
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-1}))
	skipped=$((skipped + ${s:-0}))
}

for build in "$@"; do
	build=$(cd "$build" && pwd)	# the tests run in their own directories
	case $build in
	*san*) label="asan+ubsan" ;;
	*) label="release" ;;
	esac
	echo "== unit tests ($label)"
	"$build/unit" >"$log" 2>&1
	rc=$?
	cat "$log"
	[ $rc -ne 0 ] && ! grep -q ' failed' "$log" && echo "0 passed, 1 failed" >>"$log"
	add_counts

	for t in "$SRC"/tests/t/t*.sh; do
		echo "== $(basename "$t") ($label)"
		EXTRACCT="$build/extracct" EXTRACCT_TEST="$build/extracct-test" \
		    BUILD_LABEL="$label" sh "$t" >"$log" 2>&1
		rc=$?
		cat "$log"
		if ! grep -qE '[0-9]+ passed, [0-9]+ failed' "$log"; then
			echo "0 passed, 1 failed" >>"$log"
			echo "# $(basename "$t") died with exit code $rc"
		fi
		add_counts
	done
done
echo
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
