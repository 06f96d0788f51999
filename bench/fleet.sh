#!/bin/sh
# bench/fleet.sh: a fleet report on the central PostgreSQL server.  A
# year (2025) of BENCH_FLEET_HOSTS hosts (default 3) each running
# BENCH_FLEET_PROCS processes an hour (default 400; each lives a day,
# one interval an hour): 10.5M proc_intervals rows, made server-side
# with generate_series in a throw-away cluster (tests/lib-pg.sh) whose
# schema push made, in its monthly partitions.  The same rows go into
# an SQLite database by a recursive CTE.  Each side gets its rollups
# (server-side by INSERT ... SELECT, in SQLite by rollup --rebuild).
# Then report --by command and --by hour over the year on each, from
# the rollups and with --scan, BENCH_REPS times (default 3): the
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
. "$SRC/tests/lib-pg.sh"
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
"$EXTRACCT" push --db empty.db --central "$PG" >/dev/null

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
EOF
t1=$(now)
# The rollups (store/rollup_sql.h), server-side.  Each interval here
# lies within one UTC hour (t0 on the hour, t1 an hour later: the hour
# of t1 - 1 ns), so its split over the hours it covers is itself: that
# hour's row sums it whole, as rollup --rebuild does; the day and host
# rows sum the hours.
# The reports' output, compared with SQLite's below, checks it.
RU_GR="cpu_user_ns cpu_sys_ns chars_rdwr blocks_in blocks_out read_bytes
    write_bytes faults_major faults_minor syscalls ctxt_vol ctxt_inv"
gr_cols=real_ns_g,real_ns_r
gr_parts="sum(i.t1_ns - i.t0_ns) / 1000000000, sum(i.t1_ns - i.t0_ns) % 1000000000"
gr_sums="sum(real_ns_g), sum(real_ns_r)"
for c in $RU_GR; do
	gr_cols="$gr_cols, ${c}_g, ${c}_r"
	gr_parts="$gr_parts, sum(i.$c / 1000000000), sum(i.$c % 1000000000)"
	gr_sums="$gr_sums, sum(${c}_g), sum(${c}_r)"
done
pg_psql fleet <<EOF
DO \$\$ DECLARE m date; t text; BEGIN
  FOR m IN SELECT generate_series('2025-01-01'::date, '2026-01-01', '1 month')
  LOOP FOREACH t IN ARRAY ARRAY['rollup_hour', 'rollup_day', 'rollup_host']
    LOOP
      EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF %I
          FOR VALUES FROM (%s) TO (%s)', t || '_' || to_char(m, 'YYYY_MM'), t,
          extract(epoch FROM m::timestamp)::bigint,
          extract(epoch FROM (m + interval '1 month')::timestamp)::bigint);
    END LOOP;
  END LOOP; END \$\$;
INSERT INTO rollup_hour (host_id, hour_s, nulls, uid, gid, projid, zone,
    command, calls, $gr_cols, rss_max_kb, threads)
  SELECT p.host_id, (i.t1_ns - 1) / 3600000000000 * 3600,
    (p.uid IS NULL)::int + 2 * (p.projid IS NULL)::int +
    4 * (p.zone IS NULL)::int + 8 * (p.command IS NULL)::int +
    16 * (p.gid IS NULL)::int, coalesce(p.uid, 0), coalesce(p.gid, 0),
    coalesce(p.projid, 0), coalesce(p.zone, ''), coalesce(p.command, ''),
    sum(i.final), $gr_parts, max(i.rss_max_kb), max(i.threads)
  FROM proc_intervals i JOIN procs p USING (host_id, proc_id)
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;
INSERT INTO rollup_day (host_id, day_s, nulls, uid, gid, projid, zone,
    command, calls, $gr_cols, rss_max_kb, threads)
  SELECT host_id, hour_s / 86400 * 86400, nulls, uid, gid, projid, zone,
    command, sum(calls), $gr_sums, max(rss_max_kb), max(threads)
  FROM rollup_hour GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;
INSERT INTO rollup_host (host_id, hour_s, calls, $gr_cols, rss_max_kb,
    threads)
  SELECT host_id, hour_s, sum(calls), $gr_sums, max(rss_max_kb),
    max(threads)
  FROM rollup_hour GROUP BY 1, 2;
VACUUM ANALYZE;
EOF
t1r=$(now)
nr=$(pg_psql fleet -c "SELECT (SELECT count(*) FROM rollup_hour) || ' hour, ' ||
    (SELECT count(*) FROM rollup_day) || ' day, ' ||
    (SELECT count(*) FROM rollup_host) || ' host'")
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
"$EXTRACCT" rollup --rebuild --db fleet.db >/dev/null
t2r=$(now)

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
rpc=$(timed rpc --db "$PG" --by command $year)
rph=$(timed rph --db "$PG" --by hour $year)
rsc=$(timed rsc --db fleet.db --by command $year)
rsh=$(timed rsh --db fleet.db --by hour $year)
pc=$(timed pc --db "$PG" --by command $year --scan)
ph=$(timed ph --db "$PG" --by hour $year --scan)
sc=$(timed sc --db fleet.db --by command $year --scan)
sh=$(timed sh --db fleet.db --by hour $year --scan)
# Each engine as the other, and the rollups as the scan.
same=yes
for o in c h; do
	for pair in "p$o s$o" "rp$o rs$o" "p$o rp$o"; do
		set -- $pair
		cmp -s out.$1 out.$2 || {
			same=NO
			echo "  differ: $1 $2" && diff out.$1 out.$2 | head -6
		}
	done
done

echo "extracct fleet bench: $n proc_intervals rows ($HOSTS hosts x $PROCS processes x $HOURS hours of 2025, $parts monthly partitions), $REPS reps, median"
awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN {
    printf "  fill: PostgreSQL %.1f s (generate_series), SQLite %.1f s (recursive CTE)\n", b - a, c - b }'
awk -v a="$t1" -v b="$t1r" -v c="$t2" -v d="$t2r" -v n="$nr" 'BEGIN {
    printf "  rollups (%s rows): PostgreSQL %.1f s (INSERT ... SELECT), SQLite %.1f s (rollup --rebuild)\n", n, b - a, d - c }'
awk -v pc="$pc" -v ph="$ph" -v sc="$sc" -v sh="$sh" -v rpc="$rpc" \
    -v rph="$rph" -v rsc="$rsc" -v rsh="$rsh" 'BEGIN {
    printf "  %-36s %12s %12s\n", "", "PostgreSQL", "SQLite"
    printf "  %-36s %10.3f s %10.3f s\n", "report --by command (year, rollups)", rpc, rsc
    printf "  %-36s %10.3f s %10.3f s\n", "report --by hour (year, rollups)", rph, rsh
    printf "  %-36s %10.3f s %10.3f s\n", "report --by command (year, --scan)", pc, sc
    printf "  %-36s %10.3f s %10.3f s\n", "report --by hour (year, --scan)", ph, sh }'
echo "  the same output on both engines, rollups and scan: $same"
[ "$ROWS" -eq "$n" ] || echo "  (expected $ROWS rows)"

# A fleet's size alone: hosts with no facts, as hosts that have pushed
# their row and nothing yet.  A report labels every host once (the
# label of a host depends on the others of its name): its cost should
# grow with the hosts, not with their square.
pg_createdb bare
PGB="postgresql:///bare?host=$(echo "$PGROOT" | sed 's|/|%2F|g')"
"$EXTRACCT" push --db empty.db --central "$PGB" >/dev/null
e1=$(timed e1 --db "$PGB" --by host)
pg_psql bare -c "INSERT INTO hosts (name, ident, exit_sources, origin)
    SELECT 'h' || (i % 5000), 'name:bench' || i, 0, '1'
    FROM generate_series(1, 9999) i" >/dev/null
e2=$(timed e2 --db "$PGB" --by host)
awk -v a="$e1" -v b="$e2" 'BEGIN {
    printf "  report --by host, no facts: 1 host %.3f s, 10,000 hosts %.3f s (goal: under 1 s)\n", a, b }'
