#!/bin/sh
# bench/push.sh: push throughput (rows/s) against psql's \copy of the
# same rows, as CSV, into the same central tables, on a throw-away
# PostgreSQL server (tests/lib-pg.sh).  Both start from the same empty
# schema, partitions made (a template database); push reads, signs and
# sends the local database, \copy only loads files.  Side by side in one
# run; medians.  The goal: push at 0.8x of \copy or better.
#
# Usage: sh bench/push.sh PATH/TO/extracct   (make bench does this)
#   BENCH_PUSH_RECORDS  process records in the local database (200000)
#   BENCH_REPS          timed repetitions (default 3)
#
# Reports, never fails the build (exit 0): without PostgreSQL, or with
# an extracct built without it, it says so and skips.

set -eu
. "$(dirname "$0")/lib.sh"

EXTRACCT=$(cd "$(dirname "${1:?usage: sh bench/push.sh PATH/TO/extracct}")" &&
    pwd)/$(basename "$1")
RECORDS=${BENCH_PUSH_RECORDS:-200000}
REPS=${BENCH_REPS:-3}
SRC=$(cd "$(dirname "$0")/.." && pwd)

DIR=$(mktemp -d "${TMPDIR:-/tmp}/extracct-push.XXXXXX")
TRASH=$DIR test_name=bench-push
. "$SRC/tests/lib-pg.sh"
cd "$DIR"
if ! pg_have; then
	echo "bench push: PostgreSQL is not installed (apt-get install postgresql); skipped"
	exit 0
fi
if "$EXTRACCT" push --help >/dev/null 2>&1 &&
    "$EXTRACCT" push --db /nonexistent 2>&1 | grep -q "without PostgreSQL"; then
	echo "bench push: $EXTRACCT was built without PostgreSQL; skipped"
	exit 0
fi
pg_start >/dev/null


"$EXTRACCT" gen --kind proc --records "$RECORDS" --seed 1 --jitter -o p.exacct
"$EXTRACCT" gen --kind energy --records $((RECORDS / 10)) --seed 1 -o e.exacct
"$EXTRACCT" ingest --db local.db p.exacct e.exacct >/dev/null

# The first push makes the schema, the partitions and the rows; its
# schema is the template of both sides, its rows \copy's input.
pg_createdb first
"$EXTRACCT" push --db local.db --central "$(pg_conn first)" >/dev/null
TABLES=$(pg_psql first -c "SELECT tab FROM push_buckets GROUP BY tab ORDER BY tab")
ROWS=0
for t in $TABLES; do
	pg_psql first -c "\\copy (SELECT * FROM $t) TO '$DIR/$t.csv' CSV"
	ROWS=$((ROWS + $(wc -l <"$t.csv")))
done
pg_createdb tmpl
{ pg_dump -s -d first && pg_dump -a -t extracct_meta -d first; } |
    pg_psql tmpl >/dev/null
# (printf: a dash echo would take "\c" for "stop here")
for t in $TABLES; do printf '\\copy %s FROM %s CSV\n' "$t" "'$DIR/$t.csv'"; done >load.sql
cat ./*.csv local.db >/dev/null		# into the page cache

elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f\n", b - a }'; }
i=0
while [ "$i" -lt "$REPS" ]; do
	i=$((i + 1))
	psql -q -X -d postgres -c "CREATE DATABASE p$i TEMPLATE tmpl" \
	    -c "CREATE DATABASE c$i TEMPLATE tmpl"
	t0=$(now)
	"$EXTRACCT" push --db local.db --central "$(pg_conn p$i)" >/dev/null
	t1=$(now)
	elapsed "$t0" "$t1" >>t.push
	t0=$(now)
	pg_psql c$i -1 -f load.sql >/dev/null
	t1=$(now)
	elapsed "$t0" "$t1" >>t.copy
done
# And a push with nothing new: what every hourly push costs at least.
t0=$(now)
"$EXTRACCT" push --db local.db --central "$(pg_conn p1)" >/dev/null
t1=$(now)
tn=$(elapsed "$t0" "$t1")
tp=$(median t.push)
tc=$(median t.copy)
awk -v rows="$ROWS" -v tp="$tp" -v tc="$tc" -v tn="$tn" -v reps="$REPS" 'BEGIN {
	printf "== push: %d rows (%s tables) into PostgreSQL, median of %d\n", rows, "'"$(echo $TABLES | wc -w)"'", reps
	printf "  extracct push   %8.3f s  %10.0f rows/s\n", tp, rows / tp
	printf "  psql \\copy CSV  %8.3f s  %10.0f rows/s\n", tc, rows / tc
	printf "  ratio (push / \\copy throughput): %.2fx (goal >= 0.8x)\n", tc / tp
	printf "  a second push (nothing new): %.3f s\n", tn
}'
