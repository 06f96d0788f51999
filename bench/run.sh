#!/bin/sh
# bench/run.sh: how fast extracct decodes, next to programs that touch
# every byte and do little with it: wc -l (looks at each byte once) and
# dd (copies them).  Two logs: exacct proc records and Linux pacct.
#
# Usage: sh bench/run.sh PATH/TO/extracct      (make bench does this)
#   BENCH_RECORDS        proc records in the exacct log (default 200000,
#                        ~108 MB)
#   BENCH_PACCT_RECORDS  pacct records (default 1600000, ~102 MB)
#   BENCH_REPS           timed repetitions of each command (default 5)
#   BENCH_SECONDS        what one timed run should last (default 0.4)
#
# Every command reads the same file, in the same run, straight from the page
# cache, so the ratios compare like with like. A bench reports, it does not
# fail the build: we exit 0 whether or not the targets are met, and non-zero
# only if the bench itself cannot run.
#
# Why each timed run reads the file many times: wc -l passes over 100 MB
# in ~8 ms and dd in ~5, where forking date for the clock costs ~1 ms and
# a stray page-cache or scheduler hiccup as much again, so one pass
# measures mostly noise.  Each command is given the file N times in one
# process (wc -l F F F..., extracct check F F F...), N chosen from an
# untimed pass so that a run lasts about BENCH_SECONDS; dd takes one
# input, so it runs N times in a loop, and the same loop with count=0
# (the starts and opens alone) is timed beside it and subtracted.

set -eu
. "$(dirname "$0")/lib.sh"

EXTRACCT=${1:?usage: sh bench/run.sh PATH/TO/extracct}
RECORDS=${BENCH_RECORDS:-200000}
PRECORDS=${BENCH_PACCT_RECORDS:-1600000}
REPS=${BENCH_REPS:-5}
SECONDS_PER_RUN=${BENCH_SECONDS:-0.4}

# Catch typos early: a non-number here would surface later as an awk puzzle.
for v in "$RECORDS" "$PRECORDS"; do
	case $v in ''|*[!0-9]*) echo "bench: BENCH_RECORDS and" \
	    "BENCH_PACCT_RECORDS must be numbers" >&2; exit 2;; esac
done
case $REPS in ''|*[!0-9]*|0) echo "bench: BENCH_REPS must be a number >= 1" >&2; exit 2;; esac
case $SECONDS_PER_RUN in ''|*[!0-9.]*) echo "bench: BENCH_SECONDS must be a number" >&2; exit 2;; esac
[ -x "$EXTRACCT" ] || { echo "bench: $EXTRACCT is not executable" >&2; exit 2; }

# The logs are ~100 MB each: keep them out of the tree and remove them
# however we exit.
DIR=$(mktemp -d "${TMPDIR:-/tmp}/extracct-bench.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
trap 'exit 130' INT TERM    # make the EXIT trap run on ^C too

# The commands under test, by short name. Output goes to /dev/null so we time
# producing it, not a terminal. No `cat FILE >/dev/null` baseline: cat may
# splice or skip the copy entirely, which makes it a meaningless floor.
CMDS="text check dd wc"
# run CMD FILE N: one timed run, the file read N times.
run() {
	f=$2
	set -- "$1" "$3"
	case $1 in
	text|check|wc)
		# The file N times over as the arguments of one process.
		args=$(awk -v f="$f" -v n="$2" 'BEGIN { for (i = 0; i < n; i++) print f }')
		# shellcheck disable=SC2086 # word splitting wanted: the
		# bench's own mktemp path has no blanks.
		case $1 in
		text)	"$EXTRACCT" text $args >/dev/null ;;
		check)	"$EXTRACCT" check $args >/dev/null ;;
		wc)	wc -l $args >/dev/null ;;
		esac ;;
	dd|ddstart)
		[ "$1" = dd ] && count= || count=count=0
		j=0
		while [ "$j" -lt "$2" ]; do
			dd if="$f" of=/dev/null bs=1M $count 2>/dev/null
			j=$((j + 1))
		done ;;
	none)	: ;;    # empty interval: what the two clock reads cost by themselves
	esac
}

# time_run CMD FILE N OUT: append the run's wall time to OUT, and its
# CPU time to OUT.cpu (cpu_of).  The machine may be shared: a neighbour
# on the other core stretches wall time, CPU time much less.
time_run() {
	t0=$(now)
	run_cpu=$(cpu_of run "$1" "$2" "$3")
	t1=$(now)
	[ "$run_cpu" != failed ] ||
	    { echo "bench: '$1' failed on $2" >&2; exit 1; }
	echo "$t0 $t1" | awk '{ printf "%.9f\n", $2 - $1 }' >>"$4"
	echo "$run_cpu" >>"$4.cpu"
}

# bench_file LABEL FILE RECORDS: time each command on FILE, print a table.
bench_file() {
	label=$1 file=$2 records=$3
	bytes=$(wc -c <"$file" | tr -d ' ')
	rm -f "$DIR"/t.* "$DIR"/n.*

	# Warm-up, untimed for the figures: pulls the file into the page
	# cache and the binaries into memory, proves each command works
	# before we trust its timings, and says how many passes make a run
	# of about SECONDS_PER_RUN.
	# The faster of two passes, so that one slowed by a neighbour does
	# not make the runs short.
	run dd "$file" 1
	for c in $CMDS; do
		time_run "$c" "$file" 1 "$DIR/cal.$c"
		time_run "$c" "$file" 1 "$DIR/cal.$c"
		sort -n "$DIR/cal.$c" | awk -v s="$SECONDS_PER_RUN" 'NR == 1 {
		    n = int(s / ($1 > 1e-4 ? $1 : 1e-4)) + 1
		    if (n > 400) n = 400; print n }' >"$DIR/n.$c"
		rm -f "$DIR/cal.$c"
	done
	cp "$DIR/n.dd" "$DIR/n.ddstart"

	# Interleave the repetitions (one of each command per round) so
	# that noise, such as a fuzzer on the other core, falls on all
	# commands alike rather than on whichever happened to run during it.
	i=0
	while [ "$i" -lt "$REPS" ]; do
		i=$((i + 1))
		for c in none $CMDS ddstart; do
			[ "$c" = none ] && n=1 || n=$(cat "$DIR/n.$c")
			time_run "$c" "$file" "$n" "$DIR/t.$c"
		done
	done

	overhead=$(median "$DIR/t.none")
	ddstart=$(median "$DIR/t.ddstart")
	ddstart_cpu=$(median "$DIR/t.ddstart.cpu")
	overhead_cpu=$(median "$DIR/t.none.cpu")
	for c in $CMDS; do
		# Per pass: less the clock (and for dd the starts), over N;
		# then the CPU time per pass, less dd's starts for dd.
		# Floor at 1 us so a very fast command cannot divide by zero.
		[ "$c" = dd ] && o=$ddstart || o=$overhead
		[ "$c" = dd ] && oc=$ddstart_cpu || oc=$overhead_cpu
		{ median "$DIR/t.$c"; median "$DIR/t.$c.cpu"; } |
		    awk -v o="$o" -v oc="$oc" -v n="$(cat "$DIR/n.$c")" '
		    NR == 1 { w = $1; t = ($1 - o) / n; if (t < 1e-6) t = 1e-6 }
		    NR == 2 { u = ($1 - oc) / n; if (u < 1e-6) u = 1e-6 }
		    END { printf "%.6f %.4f %.6f\n", t, w, u }' >"$DIR/m.$c"
	done

	awk -v bytes="$bytes" -v records="$records" -v reps="$REPS" \
	    -v label="$label" -v overhead="$overhead" -v file="$file" \
	    -v ddstart="$ddstart" \
	    -v m_text="$(cat "$DIR/m.text")" -v m_check="$(cat "$DIR/m.check")" \
	    -v m_dd="$(cat "$DIR/m.dd")" -v m_wc="$(cat "$DIR/m.wc")" \
	    -v n_text="$(cat "$DIR/n.text")" -v n_check="$(cat "$DIR/n.check")" \
	    -v n_dd="$(cat "$DIR/n.dd")" -v n_wc="$(cat "$DIR/n.wc")" '
	function mbs(t) { return bytes / 1e6 / t }
	function verdict(ok, what) { printf "  %-44s %s\n", what, ok ? "target met" : "target NOT met" }
	function row(name, m, n, per_rec) {
		split(m, a, " ")
		printf "  %-10s %10.5f %5d %8.3f %8.0f %12s %8.2f %7.1f%% %8.0f %8.2f\n", name, a[1], n, a[2], mbs(a[1]), per_rec ? sprintf("%.0f", records / a[1]) : "-", mbs(a[1]) / wc, 100 * mbs(a[1]) / dd, mbs(a[3]), mbs(a[3]) / wcc
	}
	BEGIN {
		split(m_wc, w, " "); wc = mbs(w[1]); wcc = mbs(w[3])
		split(m_dd, d, " "); dd = mbs(d[1])
		split(m_check, c, " "); chk = mbs(c[1]); chkc = mbs(c[3])
		split(m_text, t, " "); txt = mbs(t[1])
		printf "%s: %s\n", label, file
		printf "  file:   %d bytes (%.1f MB), %d records\n", bytes, bytes / 1e6, records
		printf "  reps:   %d of each, interleaved; medians; a run reads the file N times\n", reps
		printf "  clock:  date +%%s.%%N, %.2f ms per run subtracted; dd: its %d starts (%.1f ms) subtracted\n", overhead * 1000, n_dd, ddstart * 1000
		printf "  cpu:    user + system of the run (times, 10 ms ticks), per pass: what a neighbour\n"
		printf "          on the other core does not stretch; the verdict is on wall time\n\n"
		printf "  %-10s %10s %5s %8s %8s %12s %8s %8s %8s %8s\n", "command", "s/pass", "N", "run s", "MB/s", "records/s", "x wc -l", "% of dd", "cpu MB/s", "x wc -l"
		row("text", m_text, n_text, 1)
		row("check", m_check, n_check, 1)
		row("wc -l", m_wc, n_wc, 0)
		row("dd bs=1M", m_dd, n_dd, 0)
		print ""
		printf "targets (%s; check = decode-only pass):\n", label
		verdict(chk >= wc / 2, sprintf("check within 2x of wc -l (%.2fx its speed; by CPU time %.2fx)", chk / wc, chkc / wcc))
		if (label == "exacct") {
			verdict(chk >= 1000, sprintf("check >= 1000 MB/s (%.0f MB/s)", chk))
			verdict(txt >= 1000, sprintf("text >= 1000 MB/s (%.0f MB/s)", txt))
		}
	}'
}

CPU=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
NPROC=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?')
echo "extracct bench: decoding against wc -l and dd"
echo "  nproc:  $NPROC"
echo "  cpu:    ${CPU:-unknown}"
echo

"$EXTRACCT" gen --kind proc --records "$RECORDS" --seed 1 -o "$DIR/proc.exacct"
bench_file exacct "$DIR/proc.exacct" "$RECORDS"
rm -f "$DIR/proc.exacct"	# one ~100 MB log at a time in /tmp
echo
"$EXTRACCT" gen --kind pacct --records "$PRECORDS" --seed 1 -o "$DIR/pacct"
bench_file pacct "$DIR/pacct" "$PRECORDS"

exit 0
