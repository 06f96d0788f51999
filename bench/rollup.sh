#!/bin/sh
# bench/rollup.sh: report times from the rollups beside the scan of
# the intervals, on a database of BENCH_ROLLUP_ROWS interval rows
# (default 10,000,000: 1,000 long-lived processes, 100 commands, 20
# users, one interval an hour each for 10,000 hours).  The database is
# made once with SQL (no log to parse: ingest is bench/ingest.sh's
# business) and its rollups by rollup --rebuild (minutes), then kept in
# build/.  The scan (report --scan) adds up the intervals themselves:
# whole when no window or hour sets parts apart (--by command: what
# every report did before the rollups), else split over their hours in
# SQL as the rollups are (--by hour): the same figures either way.
# Last, --percentiles beside one SQL query with window functions, as a
# ratio of CPU time (below).
#
# Usage: sh bench/rollup.sh build/extracct
set -eu
. "$(dirname "$0")/lib.sh"

X=${1:?usage: sh bench/rollup.sh EXTRACCT}
ROWS=${BENCH_ROLLUP_ROWS:-10000000}
PROCS=1000
HOURS=$((ROWS / PROCS))
DB=$(dirname "$X")/bench-rollup-$ROWS.db
command -v sqlite3 >/dev/null || { echo "bench: rollup: no sqlite3" >&2; exit 0; }

# A database kept from another schema is made again: reports refuse
# one that has still to migrate (make bench failed on one kept from
# schema 16).
WANT=$("$X" --version | sed -n 's/.*(database schema \([0-9]*\)).*/\1/p')
if [ -s "$DB" ] &&
    [ "$(sqlite3 "$DB" "PRAGMA user_version" 2>/dev/null)" != "$WANT" ]; then
	echo "bench: rollup: $DB is of another schema; made again"
	rm -f "$DB"
fi
if [ ! -s "$DB" ]; then
	rm -f "$DB" "$DB-wal" "$DB-shm" "$DB-lock"
	: >"$DB.empty"	# the schema, no rows: an empty log (exit 1)
	"$X" ingest --db "$DB" "$DB.empty" >/dev/null 2>&1 || :
	rm -f "$DB.empty"
	sqlite3 "$DB" "
	    INSERT INTO hosts (name, ident) VALUES ('bench', 'name:bench');
	    WITH RECURSIVE k(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM k
	        WHERE n < $PROCS - 1)
	    INSERT INTO procs (host_id, pid, start_ns, uid, command, zone)
	    SELECT (SELECT host_id FROM hosts WHERE name = 'bench'),
	        10000 + n, 1600000000000000000, n % 20, 'cmd' || (n % 100),
	        'global' FROM k;
	    WITH RECURSIVE h(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM h
	        WHERE n < $HOURS - 1)
	    INSERT INTO proc_intervals (proc_id, t0_ns, t1_ns, final,
	        heartbeat, cpu_user_ns, cpu_sys_ns, chars_rdwr, rss_max_kb,
	        syscalls, faults_major, anomalies)
	    SELECT p.proc_id, 1600000000000000000 + h.n * 3600000000000,
	        1600000000000000000 + (h.n + 1) * 3600000000000,
	        0, 0, (p.pid * 7919 + h.n * 104729) % 5000000000,
	        (p.pid + h.n) % 900000000, h.n * 4096, 1000 + p.pid % 500,
	        h.n % 1000, 0, 0
	    FROM h, procs p WHERE p.start_ns = 1600000000000000000
	    ORDER BY h.n;" 
	"$X" rollup --rebuild --db "$DB" >/dev/null
fi

secs() {	# the wall time of one report
	t0=$(now)
	"$X" report --db "$DB" "$@" >/dev/null
	t1=$(now)
	echo "$t0 $t1" | awk '{ printf "%.3f\n", $2 - $1 }'
}

msecs() {	# the median of 5 (one preempted run moves no figure)
	: >"$DB.t"
	for i in 1 2 3 4 5; do secs "$@" >>"$DB.t"; done
	median "$DB.t"
	rm -f "$DB.t"
}

echo "extracct rollups: report on $ROWS interval rows ($DB)"
printf "  %-28s %10s %10s\n" report "rollup s" "scan s"
echo "  (rollup: the median of 5 runs; scan: one)"
for by in command hour; do
	r=$(msecs --by "$by")
	s=$(secs --by "$by" --scan)
	printf "  --by %-23s %10s %10s\n" "$by" "$r" "$s"
done
# Others from the rollups only (a scan each would take as long again).
for a in "--by user" "--by user,command" "--by command --every month"; do
	# shellcheck disable=SC2086
	printf "  %-28s %10s %10s\n" "$a" "$(msecs $a)" "-"
done

# --percentiles beside one SQL query with window functions over the
# same hourly rollups (the percentiles of each command's hours, nearest
# rank, as the report computes them): the report should cost no more
# than 1.5 times it.  Every command runs every hour here, so its hours
# with usage are its observed ones and the two agree; the figures are
# compared.  CPU seconds (a neighbour on the other core stretches wall
# time), side by side in turn, the median of each.
PCT_SQL="WITH b AS (SELECT command, hour_s,
	sum(cpu_user_ns_g) + sum(cpu_sys_ns_g) AS g,
	sum(cpu_user_ns_r) + sum(cpu_sys_ns_r) AS r
    FROM v_usage_rollup GROUP BY command, hour_s),
w AS (SELECT command, g * 1000000000 + r AS cpu,
	row_number() OVER (PARTITION BY command ORDER BY g * 1000000000 + r)
	    AS rn,
	count(*) OVER (PARTITION BY command) AS n FROM b)
SELECT command, n,
    printf('%.3f', min(CASE WHEN rn * 100 >= n * 50 THEN cpu END) / 1e9),
    printf('%.3f', min(CASE WHEN rn * 100 >= n * 95 THEN cpu END) / 1e9),
    printf('%.3f', max(cpu) / 1e9)
FROM w GROUP BY command ORDER BY sum(cpu) DESC, command"
pct_report() {
	"$X" report --db "$DB" --by command --every hour --percentiles \
	    --tz UTC --format csv
}
pct_sql() {
	sqlite3 -readonly -csv "$DB" "$PCT_SQL"
}
pct_report | awk -F, 'NR > 1 { print $1 "," $4 "," $5 "," $6 "," $7 }' \
    >"$DB.r"
pct_sql | awk -F, '{ print $1 "," $2 "," $3 "," $4 "," $5 }' >"$DB.s"
if cmp -s "$DB.r" "$DB.s"; then same=same; else same=DIFFER; fi
: >"$DB.tr"
: >"$DB.ts"
for _ in 1 2 3 4 5; do
	cpu_of pct_report >>"$DB.tr"
	cpu_of pct_sql >>"$DB.ts"
done
r=$(median "$DB.tr")
s=$(median "$DB.ts")
echo
echo "--by command --every hour --percentiles against one SQL query with"
echo "window functions over the same rollups (CPU s, median of 5 each):"
printf "  report %.3f  sql %.3f  ratio %.2f (goal <= 1.5)  figures %s\n" \
    "$r" "$s" "$(echo "$r $s" | awk '{ print ($2 > 0 ? $1 / $2 : 0) }')" \
    "$same"
rm -f "$DB.r" "$DB.s" "$DB.tr" "$DB.ts"
