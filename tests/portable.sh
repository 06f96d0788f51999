#!/bin/sh
# make portable's check: the strict POSIX build (PORTABLE, without the
# Linux collectors) must give what the Linux build (LINUX) gives on the
# sample data, byte for byte, and say plainly that snap and acctd are
# not in it.  usage: sh tests/portable.sh PORTABLE LINUX
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
port=$(abs "$1")
linux=$(abs "$2")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/extracct-portable.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$SRC/sample-data"
export TZ=UTC

fails=0
same() {	# what, then the command's arguments
	what=$1
	shift
	"$port" "$@" >"$tmp/port.out" 2>&1 && pr=0 || pr=$?
	"$linux" "$@" >"$tmp/linux.out" 2>&1 && lr=0 || lr=$?
	sed "s|$port|extracct|g" "$tmp/port.out" >"$tmp/port.cmp"
	sed "s|$linux|extracct|g" "$tmp/linux.out" >"$tmp/linux.cmp"
	if [ "$pr" -ne "$lr" ] || ! cmp -s "$tmp/port.cmp" "$tmp/linux.cmp"
	then
		echo "portable: $what: not as the Linux build (exit $pr, $lr):"
		diff "$tmp/linux.cmp" "$tmp/port.cmp" | head -20
		fails=$((fails + 1))
	fi
}

logs="proc.exacct task.exacct flow.exacct real/proc.exacct
    real/task.exacct real/flow.exacct energy/energy.exacct"
same "check" check $logs
same "text" text $logs
same "dump -v" dump -v real/proc.exacct
"$port" ingest --db "$tmp/p.db" $logs >/dev/null
"$linux" ingest --db "$tmp/l.db" $logs >/dev/null
for by in user command host; do
	same "report --by $by" report --db "$tmp/p.db" --by $by
	# and the Linux build reads the portable one's database the same
	"$linux" report --db "$tmp/p.db" --by $by >"$tmp/a" 2>&1
	"$linux" report --db "$tmp/l.db" --by $by >"$tmp/b" 2>&1
	cmp -s "$tmp/a" "$tmp/b" || {
		echo "portable: its database reports otherwise (--by $by)"
		fails=$((fails + 1))
	}
done
same "report --capture" report --db "$tmp/p.db" --capture
same "config" config
# The commands are the same everywhere, so are their options.
same "snap --help" snap --help
same "acctd --help" acctd --help

for cmd in "snap -o $tmp/snap.log" "acctd -o $tmp"; do
	if "$port" $cmd >/dev/null 2>"$tmp/err"; then
		echo "portable: $cmd ran in a build without Linux"
		fails=$((fails + 1))
	elif ! grep -q "Linux only" "$tmp/err"; then
		echo "portable: $cmd: no word that it is Linux only:"
		cat "$tmp/err"
		fails=$((fails + 1))
	fi
done
# Nor is PostgreSQL in it: push says so, with its own exit status.
"$port" push --db "$tmp/p.db" --to "host=/nonexistent" >/dev/null \
    2>"$tmp/err" && rc=0 || rc=$?
if [ "$rc" -ne 6 ] || ! grep -q "built without PostgreSQL support" \
    "$tmp/err"; then
	echo "portable: push (exit $rc, not 6) did not say it has no libpq:"
	cat "$tmp/err"
	fails=$((fails + 1))
fi
# And report on a server says the same, with the same status.
"$port" report --db "postgresql:///x?host=/nonexistent" >/dev/null \
    2>"$tmp/err" && rc=0 || rc=$?
if [ "$rc" -ne 6 ] || ! grep -q "built without libpq" "$tmp/err"; then
	echo "portable: report --db postgresql:// (exit $rc, not 6) did not"\
	    "say it has no libpq:"
	cat "$tmp/err"
	fails=$((fails + 1))
fi
if [ "$fails" -ne 0 ]; then
	echo "portable: $fails differences"
	exit 1
fi
echo "portable: $port gives what $linux gives on the sample data; snap" \
    "and acctd say they are Linux only, push and report on a server that" \
    "it has no PostgreSQL"
