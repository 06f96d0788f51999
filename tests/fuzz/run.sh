#!/bin/sh
# Run one fuzz target (tests/fuzz/README.md).
#   usage: sh tests/fuzz/run.sh BUILD_DIR TARGET SECONDS
# SECONDS > 0: fuzz for that long from the seeds and BUILD_DIR/corpus/
# TARGET (which keeps what it finds; crashes go to BUILD_DIR/crash-*).
# SECONDS = 0: run every seed once and stop (what t9000 does).
set -eu
SRC=$(cd "$(dirname "$0")/../.." && pwd)
build=$1
target=$2
seconds=$3
fz=$SRC/tests/fixtures/fuzz

# The seeds of each target, and its longest input.
asan=
case $target in
exacct)
	seeds="$SRC/sample-data/*.exacct $SRC/sample-data/real/*.exacct
	    $SRC/sample-data/energy/*.exacct $SRC/sample-data/energy/*.log
	    $fz/ingest/* $fz/exacct/*"
	max_len=4096 ;;
sniff)
	seeds="$SRC/sample-data/*.exacct $SRC/sample-data/real/*
	    $SRC/sample-data/energy/* $fz/ingest/* $fz/found/*"
	max_len=512 ;;
ingest)
	seeds="$SRC/sample-data/real/*.exacct $fz/ingest/* $fz/found/ingest-*
	    $fz/found/known-*"
	# ASan's default 256 MB quarantine of freed memory cost a third
	# of the time (sqlite_pool.c now keeps SQLite's own allocations
	# out of it).
	asan=quarantine_size_mb=16
	max_len=4096 ;;
config)
	seeds="$SRC/sample-data/energy/extracct.yml
	    $SRC/docs/extracct.yml.example $fz/config/* $fz/found/config-*"
	max_len=4096 ;;
procfs)
	seeds="$fz/procfs/* $fz/found/procfs-*"
	max_len=8192 ;;
powercap)
	seeds="$fz/powercap/*"
	max_len=512 ;;
idnames)
	seeds="$SRC/sample-data/etc/* $SRC/sample-data/real/passwd
	    $SRC/sample-data/real/group $SRC/sample-data/real/project
	    $fz/idnames/*"
	max_len=4096 ;;
*)
	echo "run.sh: no fuzz target $target" >&2
	exit 2 ;;
esac

# ASan checks every printf's arguments by parsing its format again:
# that was a third of the exacct target's time (dump -v is all printf).
# The formats are the code's own, checked by the compiler (-Wformat=2).
ASAN_OPTIONS=${ASAN_OPTIONS:-check_printf=0${asan:+:$asan}}
export ASAN_OPTIONS

bin=$build/fuzz_$target
[ -x "$bin" ] || { echo "run.sh: $bin not built (make fuzz-build)" >&2; exit 2; }
if [ "$seconds" -eq 0 ]; then
	corpus=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-$target.XXXXXX")
	trap 'rm -rf "$corpus"' EXIT
else
	corpus=$build/corpus/$target
	mkdir -p "$corpus"
fi
for f in $seeds; do
	[ -f "$f" ] && cp "$f" "$corpus/seed-$(basename "$f")"
done

dict=$SRC/tests/fuzz/$target.dict
set -- -max_len=$max_len -timeout=10 -artifact_prefix="$build/crash-$target-"
[ -f "$dict" ] && set -- "$@" -dict="$dict"
if [ "$seconds" -eq 0 ]; then
	"$bin" "$@" -runs=0 "$corpus"
else
	echo "== fuzz_$target for ${seconds}s"
	"$bin" "$@" -max_total_time="$seconds" -print_final_stats=1 "$corpus"
fi
