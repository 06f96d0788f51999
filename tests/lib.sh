# Shell test library, in the manner of git's t/test-lib.sh.
#
# A test script sources this file, then calls test_expect_success with a
# title and a body; steps in a body are joined with &&.  Each script runs
# in its own trash directory.  Environment (set by tests/run.sh):
#   EXTRACCT       the extracct binary under test
#   EXTRACCT_TEST  the extracct-test helper
#   SRC            the source tree (sample-data/, tests/fixtures/)

: "${SRC:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${EXTRACCT:=$SRC/build/extracct}"
: "${EXTRACCT_TEST:=$SRC/build/extracct-test}"
SAMPLES=$SRC/sample-data
FIXTURES=$SRC/tests/fixtures
export TZ=UTC LC_ALL=C

test_count=0
test_failed=0
test_skipped=0
test_name=$(basename "$0" .sh)
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/extracct-$test_name.XXXXXX")
trap 'rm -rf "$TRASH"' EXIT
cd "$TRASH" || exit 1

extracct() { "$EXTRACCT" "$@"; }
extracct_test() { "$EXTRACCT_TEST" "$@"; }

# The schema version this extracct makes, as --version says it: what a
# database migrates to.
schema_now() {
	extracct --version | sed -n 's/.*(database schema \([0-9]*\)).*/\1/p'
}

# Database $1 at schema $2 (extracct-test schema), holding every table
# row of database $3 (of the current schema) that schema $2 has a place
# for: an older database to migrate.
at_schema() {
	extracct_test schema "$1" "$2" &&
	for t in $(sqlite3 "$1" "SELECT name FROM sqlite_master
	    WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"); do
		c=$(sqlite3 "$1" "SELECT group_concat(name)
		    FROM pragma_table_info('$t')") &&
		sqlite3 "$1" "ATTACH '$3' AS a;
		    INSERT INTO $t ($c) SELECT $c FROM a.$t" || return 1
	done &&
	test "$(sqlite3 "$1" "PRAGMA user_version")" -eq "$2"
}

test_expect_success() {
	test_count=$((test_count + 1))
	if (eval "$2") >"$TRASH/.out" 2>&1; then
		echo "ok $test_count - $1"
	else
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - $1"
		sed 's/^/#   /' "$TRASH/.out"
	fi
}

test_skip() {
	test_skipped=$((test_skipped + 1))
	echo "ok - skipped: $1 ($2)"
}

# Compare expected and actual files; show the difference on failure.
test_cmp() {
	diff -u "$1" "$2" >"$TRASH/.diff" || { head -n 40 "$TRASH/.diff"; return 1; }
}

# Run a command that must exit with the given code (not crash).
test_expect_code() {
	want=$1
	shift
	"$@"
	got=$?
	if [ "$got" -ne "$want" ]; then
		echo "exit code $got, expected $want: $*" >&2
		return 1
	fi
	return 0
}

# A command that must fail cleanly (exit 1..3), not crash (>= 128).
test_must_fail() {
	"$@"
	got=$?
	if [ "$got" -eq 0 ] || [ "$got" -ge 128 ]; then
		echo "exit code $got: expected a clean failure: $*" >&2
		return 1
	fi
	return 0
}

# Count lines of a file.
line_count() {
	wc -l <"$1" | tr -d ' '
}

# Kernel process accounting is one switch for the whole machine.  Note
# whether it is on now (Debian's default file grows when a process exits),
# so a test can put it back as it was on every way out (acct_restore, from
# a trap).
ACCT_DEFAULT_FILE=/var/log/account/pacct

# Process accounting and taskstats are the machine's, not the test's: a
# test that switches or reads them first takes this one lock, so two
# suites (or a suite and a helper's run) never collide.  It is held on
# fd 9 until the script exits, however it exits; waiting is bounded.
KERNEL_LOCK=${EXTRACCT_KERNEL_LOCK:-/tmp/extracct-tests-kernel.lock}
kernel_locked=0
kernel_lock() {
	[ $kernel_locked -eq 0 ] || return 0
	exec 9>>"$KERNEL_LOCK" || return 1
	if ! flock -w 900 9; then
		echo "# $test_name: $KERNEL_LOCK still held after 900 s" >&2
		return 1
	fi
	kernel_locked=1
}

acct_note_state() {
	kernel_lock || exit 1
	acct_was_on=0
	if [ -f "$ACCT_DEFAULT_FILE" ]; then
		before=$(wc -c <"$ACCT_DEFAULT_FILE")
		/bin/true
		sleep 0.2
		[ "$(wc -c <"$ACCT_DEFAULT_FILE")" -gt "$before" ] && acct_was_on=1
	fi
}

acct_restore() {
	if [ "${acct_was_on:-0}" -eq 1 ]; then
		accton "$ACCT_DEFAULT_FILE" >/dev/null 2>&1
	else
		accton off >/dev/null 2>&1
	fi
}

# Run $1 short processes one after another, about 2 ms of CPU each.
short_processes() {
	n=0
	while [ $n -lt $1 ]; do
		awk 'BEGIN { for (i = 0; i < 20000; i++) s += i }'
		n=$((n + 1))
	done
}

# snap every 2 s into $2 (run it in the background) for at least $1
# seconds and, if a file $3 is named, until it exists (10 minutes at
# most), then once more; with the configuration file SNAP_CONFIG if it
# is set.  A workload that makes $3 when it is done has every exit before
# the last snapshot, however slowly a loaded machine runs it.
snapper() {
	snap_t0=$(date +%s)
	while t=$(($(date +%s) - snap_t0)); [ $t -lt "$1" ] ||
	    { [ -n "${3:-}" ] && [ ! -e "$3" ] && [ $t -lt 600 ]; }; do
		"$EXTRACCT" ${SNAP_CONFIG:+-c "$SNAP_CONFIG"} snap -o "$TRASH/$2" ||
		    return 1
		sleep 2
	done
	"$EXTRACCT" ${SNAP_CONFIG:+-c "$SNAP_CONFIG"} snap -o "$TRASH/$2"
}

# Start acctd on spool $1 with pidfile $2 (more options after); wait
# until it has registered.  Its output goes to $2.out and $2.err, its
# exit status to $2.rc; APID is its pid.  ACCTD_WRAP, if set, names a
# command (or function) to run it under: it gets the command line.
acctd_start() {
	sp=$1 pf=$2
	shift 2
	rm -f "$pf.rc"
	( ${ACCTD_WRAP:-} "$EXTRACCT" acctd --spool "$sp" --acctd-pidfile "$pf" "$@" \
	    >"$pf.out" 2>"$pf.err"; echo $? >"$pf.rc" ) &
	i=0
	until grep -q "exit records of CPUs" "$pf.out" 2>/dev/null; do
		[ ! -e "$pf.rc" ] || return 1
		i=$((i + 1))
		[ $i -lt 1000 ] || return 1
		sleep 0.01
	done
	APID=$(sed -n 1p "$pf")
}

# Wait (up to 20 s) until process $1 has used no CPU for half a second:
# acctd has written (or counted) every exit the kernel had queued for it,
# which on a loaded machine can take a while after a burst.
acctd_idle() {
	last=-1 still=0 i=0
	while [ $i -lt 100 ]; do
		now=$(awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null) ||
		    return 1
		if [ "$now" = "$last" ]; then
			still=$((still + 1))
			[ $still -lt 2 ] || return 0
		else
			still=0
		fi
		last=$now
		i=$((i + 1))
		sleep 0.25
	done
	return 1
}

# SIGTERM acctd (pidfile $1) and wait for it; its exit status.
acctd_stop() {
	kill -TERM "$APID" || return 1
	i=0
	until [ -s "$1.rc" ]; do
		i=$((i + 1))
		[ $i -lt 1000 ] || return 1
		sleep 0.01
	done
	return "$(cat "$1.rc")"
}

# The log acctd writes: the second line of its pidfile.
acctd_log() { sed -n 2p "$1"; }

# The whole of database $1 as text, to compare two databases: the
# schema, then every table (found in the schema, so a new table is never
# left out) with its rows in order, every column but when the ledger saw
# a file.
db_canon() {
	sqlite3 "$1" "PRAGMA user_version;
	    SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY 1, 2" &&
	sqlite3 "$1" "WITH t AS (SELECT m.name, (SELECT group_concat(c.name,
	      ', ') FROM pragma_table_info(m.name) c WHERE m.name <> 'files'
	      OR c.name NOT IN ('first_ingest_ns', 'last_ingest_ns')) AS cols
	    FROM sqlite_master m WHERE m.type = 'table'
	      AND m.name NOT LIKE 'sqlite%')
	    SELECT 'SELECT ''== ' || name || ' (' || cols || ')'';' ||
	      ' SELECT ' || cols || ' FROM ' || name || ' ORDER BY ' || cols ||
	      ';' FROM t ORDER BY name" >"$TRASH/.canon" &&
	sqlite3 "$1" <"$TRASH/.canon"
}

test_done() {
	echo "# $test_name: $((test_count - test_failed)) passed, $test_failed failed, $test_skipped skipped"
	[ "$test_failed" -eq 0 ]
}
