#!/bin/sh
# The fuzz targets (tests/fuzz/README.md) build and run: each over its
# seed corpus once, so a target that no longer builds, or that a seed
# crashes, fails here and not the next time someone fuzzes.  make
# check-san builds them (with clang) and runs this script with the
# optimised build's label.
# run.sh: check-san (the fuzz targets, built with their sanitizers)
. "$(dirname "$0")/../lib.sh"

FUZZ=$(dirname "$EXTRACCT")/fuzz
TARGETS="exacct sniff ingest config procfs powercap idnames"

if [ "${BUILD_LABEL:-release}" != release ]; then
	test_skip 'fuzz targets over their seeds' 'run in the release pass (they carry their own sanitizers)'
elif [ ! -x "$FUZZ/fuzz_exacct" ]; then
	test_skip 'fuzz targets over their seeds' "not built (make fuzz-build needs clang with libFuzzer)"
else
	for t in $TARGETS; do
		test_expect_success "fuzz_$t: every seed once" '
			sh "$SRC/tests/fuzz/run.sh" "$FUZZ" '$t' 0 >out 2>&1 ||
			    { tail -n 30 out; return 1; }
			grep "INITED" out &&
			! grep -E "ERROR|runtime error|deadly signal" out
		'
	done
fi

test_done
