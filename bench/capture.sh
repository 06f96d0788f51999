#!/bin/sh
# bench/capture.sh: report --capture over the whole history beside one
# pass of SQL over the same rows that gives the same totals.  The
# database: a generated exacct log of BENCH_CAPTURE_ROWS records
# (default 1,000,000: about 220 hours of one host, 560,000 exits)
# ingested once, and a system record every hour for its snapshots (SQL:
# snap is not run), kept in build/.  The report reads each window's
# intervals and exits by their time indexes; the SQL reads every row
# once and finds its window by the system records' key.  CPU seconds (a
# neighbour on the other core stretches wall time), side by side in
# turn, the median of 3 each; the totals are compared.  At 10,000,000
# records the log alone is 5.4 GB and its ingest takes minutes: set
# BENCH_CAPTURE_ROWS for it.
#
# Usage: sh bench/capture.sh build/extracct
set -eu
. "$(dirname "$0")/lib.sh"

X=${1:?usage: sh bench/capture.sh EXTRACCT}
ROWS=${BENCH_CAPTURE_ROWS:-1000000}
DB=$(dirname "$X")/bench-capture-$ROWS.db
command -v sqlite3 >/dev/null || { echo "bench: capture: no sqlite3" >&2; exit 0; }

WANT=$("$X" --version | sed -n 's/.*(database schema \([0-9]*\)).*/\1/p')
if [ -s "$DB" ] &&
    [ "$(sqlite3 "$DB" "PRAGMA user_version" 2>/dev/null)" != "$WANT" ]; then
	echo "bench: capture: $DB is of another schema; made again"
	rm -f "$DB"
fi
if [ ! -s "$DB" ]; then
	rm -f "$DB" "$DB-wal" "$DB-shm" "$DB-lock"
	"$X" gen --kind proc --records "$ROWS" --jitter --host bench \
	    -o "$DB.proc"
	"$X" ingest --db "$DB" --host bench "$DB.proc" >/dev/null
	rm -f "$DB.proc"
	# A system record on every hour of the history: busy CPU that
	# grows unevenly, 100 ticks a second, 16 CPUs.
	sqlite3 "$DB" "
	    WITH RECURSIVE r AS (SELECT min(t1_ns) / 3600000000000 AS a,
	        max(t1_ns) / 3600000000000 + 1 AS z FROM proc_intervals),
	    h(n) AS (SELECT a FROM r UNION ALL SELECT n + 1 FROM h, r
	        WHERE n < z)
	    INSERT INTO sysload (host_id, t_ns, user_ticks, nice_ticks,
	        system_ticks, idle_ticks, clk_tck, ncpu)
	    SELECT host_id, n * 3600000000000, n * 36000 + n * 1000 % 7777,
	        n * 7, n * 9000, 0, 100, 16 FROM hosts, h"
fi

# The totals, "proc busy lost ended ended_cpu zero", in seconds as the
# report prints them (rounded half up to the millisecond).
SECS="printf('%d.%03d', (@ + 500000) / 1000000000,
    (@ + 500000) / 1000000 % 1000)"
secs_of() { echo "$SECS" | sed "s/@/$1/g"; }
SQL="WITH s AS (SELECT host_id, t_ns, lag(t_ns) OVER w AS prev_t,
	(user_ticks + nice_ticks + system_ticks -
	    lag(user_ticks + nice_ticks + system_ticks) OVER w)
	    * 1000000000 / clk_tck AS busy
    FROM sysload WINDOW w AS (PARTITION BY host_id ORDER BY t_ns)),
span AS (SELECT host_id, min(t_ns) AS a, max(t_ns) AS z FROM sysload
    GROUP BY host_id),
u AS (SELECT p.host_id, i.t0_ns AS t0, i.t1_ns AS t1, i.final AS f,
	coalesce(i.cpu_user_ns, 0) + coalesce(i.cpu_sys_ns, 0) AS c
    FROM proc_interval_rows i JOIN procs p USING (proc_id)
    UNION ALL
    SELECT host_id, start_ns, finish_ns, 1,
	coalesce(exit_cpu_user_ns, 0) + coalesce(exit_cpu_sys_ns, 0)
    FROM procs WHERE exit_anomalies IS NOT NULL),
a AS (SELECT u.t0, u.f, u.c, (SELECT max(l.t_ns) FROM sysload l
	WHERE l.host_id = u.host_id AND l.t_ns < u.t1) AS w0
    FROM u JOIN span USING (host_id) WHERE u.t1 > span.a AND u.t1 <= span.z),
t AS (SELECT coalesce(sum(CASE WHEN t0 >= w0 - 1000000000 THEN c
	ELSE 0 END), 0) AS pc, coalesce(sum(f), 0) AS n,
	coalesce(sum(CASE WHEN f = 1 THEN c ELSE 0 END), 0) AS ec,
	coalesce(sum(f = 1 AND c = 0), 0) AS z FROM a)
SELECT $(secs_of t.pc), $(secs_of "(SELECT sum(busy) FROM s)"),
    (SELECT coalesce(sum(l.records), 0) FROM lost l JOIN span USING (host_id)
	WHERE l.t_ns > span.a AND l.t_ns <= span.z),
    t.n, $(secs_of t.ec), t.z FROM t"

cap_report() {
	"$X" report --db "$DB" --capture --tz UTC --format json
}
cap_sql() {
	sqlite3 -readonly -separator ' ' "$DB" "$SQL"
}
cap_report | sed -n 's/.*"total": {"proc_cpu_s": \([0-9.]*\), "busy_cpu_s": \([0-9.]*\), .*"lost_exits": \([0-9]*\), .*"ended": \([0-9]*\), "ended_cpu_s": \([0-9.]*\), "ended_zero_cpu": \([0-9]*\)}.*/\1 \2 \3 \4 \5 \6/p' \
    >"$DB.r"
cap_sql >"$DB.s"
if [ -s "$DB.r" ] && cmp -s "$DB.r" "$DB.s"; then same=same; else
	same="DIFFER (report $(cat "$DB.r"), sql $(cat "$DB.s"))"
fi
: >"$DB.tr"
: >"$DB.ts"
for _ in 1 2 3; do
	cpu_of cap_report >>"$DB.tr"
	cpu_of cap_sql >>"$DB.ts"
done
r=$(median "$DB.tr")
s=$(median "$DB.ts")
w=$(sqlite3 -readonly "$DB" "SELECT count(*) FROM capture")
echo "extracct report --capture over $w windows of $ROWS records ($DB)"
echo "against one pass of SQL giving the same totals (CPU s, median of 3):"
printf "  report %.3f  sql %.3f  ratio %.2f (goal <= 2)  totals %s\n" \
    "$r" "$s" "$(echo "$r $s" | awk '{ print ($2 > 0 ? $1 / $2 : 0) }')" \
    "$same"
rm -f "$DB.r" "$DB.s" "$DB.tr" "$DB.ts"
