#!/bin/sh
# bench/run.sh: how fast extracct decodes, next to programs that touch
# every byte and do little with it: wc -l (looks at each byte once) and
# dd (copies them).
#
# Usage: sh bench/run.sh PATH/TO/extracct      (make bench does this)
#   BENCH_RECORDS  records in the generated proc log (default 200000, ~100 MB)
#   BENCH_REPS     timed repetitions of each command (default 5)
#
# Every command reads the same file, in the same run, straight from the page
# cache, so the ratios compare like with like. A bench reports, it does not
# fail the build: we exit 0 whether or not the targets are met, and non-zero
# only if the bench itself cannot run.

set -eu
. "$(dirname "$0")/lib.sh"

EXTRACCT=${1:?usage: sh bench/run.sh PATH/TO/extracct}
RECORDS=${BENCH_RECORDS:-200000}
REPS=${BENCH_REPS:-5}

# Catch typos early: a non-number here would surface later as an awk puzzle.
case $RECORDS in ''|*[!0-9]*) echo "bench: BENCH_RECORDS must be a number" >&2; exit 2;; esac
case $REPS in ''|*[!0-9]*|0) echo "bench: BENCH_REPS must be a number >= 1" >&2; exit 2;; esac
[ -x "$EXTRACCT" ] || { echo "bench: $EXTRACCT is not executable" >&2; exit 2; }

# The log is ~100 MB: keep it out of the tree and remove it however we exit.
DIR=$(mktemp -d "${TMPDIR:-/tmp}/extracct-bench.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
trap 'exit 130' INT TERM    # make the EXIT trap run on ^C too
FILE=$DIR/proc-$RECORDS.exacct

"$EXTRACCT" gen --kind proc --records "$RECORDS" --seed 1 -o "$FILE"
BYTES=$(wc -c <"$FILE" | tr -d ' ')

# The commands under test, by short name. Output goes to /dev/null so we time
# producing it, not a terminal. No `cat FILE >/dev/null` baseline: cat may
# splice or skip the copy entirely, which makes it a meaningless floor.
CMDS="text check dd wc"
run() {
    case $1 in
    text)   "$EXTRACCT" text "$FILE" >/dev/null ;;
    check)  "$EXTRACCT" check "$FILE" >/dev/null ;;
    dd)     dd if="$FILE" of=/dev/null bs=1M 2>/dev/null ;;
    wc)     wc -l "$FILE" >/dev/null ;;
    none)   : ;;    # empty interval: what the two clock reads cost by themselves
    esac
}

# now() forks date, which costs around a millisecond; that matters next
# to dd (~10 ms on 100 MB), so we time an empty interval too and subtract
# its median from every figure.

# Warm-up, untimed: pulls the file into the page cache and the binaries into
# memory, and proves each command works before we trust its timings.
for c in $CMDS; do
    run "$c" || { echo "bench: '$c' failed on $FILE" >&2; exit 1; }
done

# Interleave the repetitions (one of each command per round) so that noise,
# such as a fuzzer on the other core, falls on all commands alike rather than
# on whichever happened to run during it.
i=0
while [ "$i" -lt "$REPS" ]; do
    i=$((i + 1))
    for c in none $CMDS; do
        t0=$(now)
        run "$c"
        t1=$(now)
        echo "$t0 $t1" | awk '{ printf "%.9f\n", $2 - $1 }' >>"$DIR/t.$c"
    done
done

OVERHEAD=$(median "$DIR/t.none")
for c in $CMDS; do
    # Floor at 1 us so a very fast command cannot divide by zero or go negative.
    median "$DIR/t.$c" | awk -v o="$OVERHEAD" '{ t = $1 - o; if (t < 1e-6) t = 1e-6; printf "%.6f\n", t }' >"$DIR/m.$c"
done

CPU=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
NPROC=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?')

# One awk does all the arithmetic and layout; sh only collects the numbers.
awk -v bytes="$BYTES" -v records="$RECORDS" -v reps="$REPS" -v nproc="$NPROC" \
    -v cpu="${CPU:-unknown}" -v overhead="$OVERHEAD" -v file="$FILE" \
    -v t_text="$(cat "$DIR/m.text")" -v t_check="$(cat "$DIR/m.check")" \
    -v t_dd="$(cat "$DIR/m.dd")" -v t_wc="$(cat "$DIR/m.wc")" '
function mbs(t) { return bytes / 1e6 / t }
function verdict(ok, what) { printf "  %-40s %s\n", what, ok ? "target met" : "target NOT met" }
BEGIN {
    printf "extracct bench: %s\n", file
    printf "  file:   %d bytes (%.1f MB), %d proc records\n", bytes, bytes / 1e6, records
    printf "  reps:   %d each, interleaved; median wall time shown\n", reps
    printf "  clock:  date +%%s.%%N, %.2f ms per interval subtracted\n", overhead * 1000
    printf "  nproc:  %s\n", nproc
    printf "  cpu:    %s\n\n", cpu

    dd = mbs(t_dd); wc = mbs(t_wc); chk = mbs(t_check); txt = mbs(t_text)
    printf "  %-14s %10s %10s %12s %10s %8s\n", "command", "median s", "MB/s", "records/s", "x wc -l", "% of dd"
    printf "  %-14s %10.4f %10.0f %12.0f %10.2f %7.1f%%\n", "text",       t_text,  txt, records / t_text,  txt / wc, 100 * txt / dd
    printf "  %-14s %10.4f %10.0f %12.0f %10.2f %7.1f%%\n", "check",      t_check, chk, records / t_check, chk / wc, 100 * chk / dd
    printf "  %-14s %10.4f %10.0f %12s %10.2f %7.1f%%\n",   "wc -l",      t_wc,    wc,  "-", 1, 100 * wc / dd
    printf "  %-14s %10.4f %10.0f %12s %10.2f %7.1f%%\n\n", "dd bs=1M",   t_dd,    dd,  "-", dd / wc, 100

    print "targets (check = decode-only pass):"
    verdict(chk >= 1000,   sprintf("check >= 1000 MB/s (%.0f MB/s)", chk))
    verdict(chk >= wc / 2, sprintf("check within 2x of wc -l (%.2fx its speed)", chk / wc))
    verdict(chk >= 0.04 * dd, sprintf("check >= 4%% of dd (%.1f%%)", 100 * chk / dd))
}'

exit 0
