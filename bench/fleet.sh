#!/bin/sh
# bench/fleet.sh: a fleet report on the central PostgreSQL server.  A
# year (2025) of BENCH_FLEET_HOSTS hosts (default 3) each running
# BENCH_FLEET_PROCS processes an hour (default 400; each lives a day,
# one interval an hour): 10.5M proc_intervals rows, made server-side
# with generate_series in a throw-away cluster (tests/pg.sh) whose
# schema push made, in its monthly partitions.  The same rows go into
# an SQLite database by a recursive CTE.  Then report --by command and
# --by hour over the year on each, BENCH_REPS times (default 3): the
# medians, side by side.  Needs PostgreSQL's binaries (postgresql-15).
# Usage: sh bench/fleet.sh PATH/TO/extracct
set -eu
. "$(dirname "$0")/lib.sh"

EXTRACCT=${1:?usage: sh bench/fleet.sh PATH/TO/extracct}
case $EXTRACCT in /*) ;; *) EXTRACCT=$PWD/$EXTRACCT ;; esac
SRC=$(cd "$(dirname "$0")/.." && pwd)
HOSTS=${BENCH_FLEET_HOSTS:-3}
PROCS=${BENCH_FLEET_PROCS:-400}
REPS=${BENCH_REPS:-3}
HOURS=8760
ROWS=$((HOSTS * PROCS * HOURS))
BASE=1735689600			# 2025-01-01 00:00 UTC
export TZ=UTC

TRASH=$(mktemp -d "${TMPDIR:-/tmp}/extracct-fleet.XXXXXX")
test_name=fleet-bench
. "$SRC/tests/pg.sh"
cd "$TRASH"

if ! "$EXTRACCT" report --db postgresql:///x 2>&1 | grep -q "central server"
then
	echo "extracct fleet bench: skipped (this extracct has no libpq)"
	exit 0
fi
pg_start || { echo "extracct fleet bench: skipped (no PostgreSQL)"; exit 0; }
# What a server for reports would have, within this machine's means.
pg_psql postgres -c "ALTER SYSTEM SET shared_buffers = '1GB'" \
    -c "ALTER SYSTEM SET work_mem = '256MB'" \
    -c "ALTER SYSTEM SET maintenance_work_mem = '512MB'" \
    -c "ALTER SYSTEM SET max_wal_size = '8GB'"
pg_stop && pg_start
pg_createdb fleet
PG="postgresql:///fleet?host=$(echo "$PGROOT" | sed 's|/|%2F|g')"

# The central schema and views as push makes them, from an empty host.
"$EXTRACCT" ingest --db empty.db /dev/null >/dev/null 2>&1 || true
"$EXTRACCT" push --db empty.db --to "$PG" >/dev/null

# The formulas both engines compute: host h, hour k, slot s.
DAY="(k / 24)"
CPU_U="((k * 7919 + s * 104729 + h * 31) % 1000003) * 1000"
CPU_S="((k * 31 + s * 17 + h) % 100003) * 1000"

t0=$(now)
pg_psql fleet <<EOF
SET TimeZone = 'UTC';
DO \$\$ DECLARE m date; BEGIN
  FOR m IN SELECT generate_series('2025-01-01'::date, '2026-01-01', '1 month')
  LOOP
    EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF proc_intervals
        FOR VALUES FROM (%s) TO (%s)', 'proc_intervals_' || to_char(m, 'YYYY_MM'),
        extract(epoch FROM m::timestamp)::bigint * 1000000000,
        extract(epoch FROM (m + interval '1 month')::timestamp)::bigint * 1000000000);
  END LOOP; END \$\$;
INSERT INTO hosts (host_id, name, ident, origin)
  SELECT h, 'host' || h, 'name:host' || h, 'bench'
  FROM generate_series(1, $HOSTS) h;
INSERT INTO procs (host_id, proc_id, pid, start_ns, uid, command)
  SELECT h, d * $PROCS + s + 1, 1000 + (d * $PROCS + s) % 4000000,
    ($BASE + d * 86400) * 1000000000::bigint + s * 1000000, 1000 + s % 25,
    'cmd' || (s % 40)
  FROM generate_series(1, $HOSTS) h, generate_series(0, $HOURS / 24 - 1) d,
    generate_series(0, $PROCS - 1) s;
INSERT INTO proc_intervals (host_id, proc_id, t0_ns, t1_ns, final, heartbeat,
    cpu_user_ns, cpu_sys_ns, chars_rdwr, rss_max_kb, faults_major, syscalls,
    anomalies)
  SELECT h, $DAY * $PROCS + s + 1, ($BASE + k * 3600) * 1000000000::bigint,
    ($BASE + k * 3600 + 3600) * 1000000000::bigint,
    CASE WHEN k % 24 = 23 THEN 1 ELSE 0 END, 0, $CPU_U, $CPU_S,
    s * 1000 + k, 1000 + s, s % 7, k % 1000 + s, 0
  FROM generate_series(0, $HOURS - 1) k, generate_series(1, $HOSTS) h,
    generate_series(0, $PROCS - 1) s;
VACUUM ANALYZE;
EOF
t1=$(now)
n=$(pg_psql fleet -c "SELECT count(*) FROM proc_intervals")
parts=$(pg_psql fleet -c "SELECT count(*) FROM pg_inherits
    WHERE inhparent = 'proc_intervals'::regclass")

# The same rows in SQLite: proc_id unique in the file, as merge makes it.
PER=$((HOURS / 24 * PROCS))
"$EXTRACCT" ingest --db fleet.db /dev/null >/dev/null 2>&1 || true
sqlite3 fleet.db >/dev/null <<EOF
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
WITH RECURSIVE hh(h) AS (SELECT 1 UNION ALL SELECT h + 1 FROM hh WHERE h < $HOSTS)
INSERT INTO hosts (host_id, name, ident) SELECT h, 'host' || h, 'name:host' || h FROM hh;
WITH RECURSIVE hh(h) AS (SELECT 1 UNION ALL SELECT h + 1 FROM hh WHERE h < $HOSTS),
  dd(d) AS (SELECT 0 UNION ALL SELECT d + 1 FROM dd WHERE d < $HOURS / 24 - 1),
  ss(s) AS (SELECT 0 UNION ALL SELECT s + 1 FROM ss WHERE s < $PROCS - 1)
INSERT INTO procs (proc_id, host_id, pid, start_ns, uid, command)
  SELECT (h - 1) * $PER + d * $PROCS + s + 1, h,
    1000 + (d * $PROCS + s) % 4000000,
    ($BASE + d * 86400) * 1000000000 + s * 1000000, 1000 + s % 25,
    'cmd' || (s % 40)
  FROM hh, dd, ss;
WITH RECURSIVE hh(h) AS (SELECT 1 UNION ALL SELECT h + 1 FROM hh WHERE h < $HOSTS),
  kk(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM kk WHERE k < $HOURS - 1),
  ss(s) AS (SELECT 0 UNION ALL SELECT s + 1 FROM ss WHERE s < $PROCS - 1)
INSERT INTO proc_intervals (proc_id, t0_ns, t1_ns, final, heartbeat,
    cpu_user_ns, cpu_sys_ns, chars_rdwr, rss_max_kb, faults_major, syscalls,
    anomalies)
  SELECT (h - 1) * $PER + $DAY * $PROCS + s + 1,
    ($BASE + k * 3600) * 1000000000, ($BASE + k * 3600 + 3600) * 1000000000,
    CASE WHEN k % 24 = 23 THEN 1 ELSE 0 END, 0, $CPU_U, $CPU_S,
    s * 1000 + k, 1000 + s, s % 7, k % 1000 + s, 0
  FROM kk, hh, ss;
ANALYZE;
EOF
t2=$(now)

# Median seconds of BENCH_REPS runs of the report; its output kept.
timed() {	# NAME, then report's arguments
	name=$1
	shift
	rm -f "t.$name"
	i=0
	while [ "$i" -lt "$REPS" ]; do
		i=$((i + 1))
		a=$(now)
		"$EXTRACCT" report "$@" >"out.$name"
		b=$(now)
		awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f\n", b - a }' \
		    >>"t.$name"
	done
	median "t.$name"
}

year="--from 2025-01-01 --to 2026-01-02"
pc=$(timed pc --db "$PG" --by command $year)
ph=$(timed ph --db "$PG" --by hour $year)
sc=$(timed sc --db fleet.db --by command $year)
sh=$(timed sh --db fleet.db --by hour $year)
same=yes
cmp -s out.pc out.sc && cmp -s out.ph out.sh || same=NO

echo "extracct fleet bench: $n proc_intervals rows ($HOSTS hosts x $PROCS processes x $HOURS hours of 2025, $parts monthly partitions), $REPS reps, median"
awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN {
    printf "  fill: PostgreSQL %.1f s (generate_series), SQLite %.1f s (recursive CTE)\n", b - a, c - b }'
awk -v pc="$pc" -v ph="$ph" -v sc="$sc" -v sh="$sh" 'BEGIN {
    printf "  %-28s %12s %12s\n", "", "PostgreSQL", "SQLite"
    printf "  %-28s %10.3f s %10.3f s\n", "report --by command (year)", pc, sc
    printf "  %-28s %10.3f s %10.3f s\n", "report --by hour (year)", ph, sh }'
echo "  the same output on both engines: $same"
[ "$ROWS" -eq "$n" ] || echo "  (expected $ROWS rows)"
