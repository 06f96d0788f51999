# A throw-away PostgreSQL server for the tests that need one (sourced
# after lib.sh).  pg_start makes a cluster in a directory of its own,
# listening on a Unix socket there and nowhere else, as an unprivileged
# user (initdb and postgres refuse root: nobody, when run as root), and
# a trap stops it and removes it on every way out of the script.  Never
# the system's service, its port or /var/lib/postgresql.
#
#   pg_start         start it; sets PGROOT (its directory and socket),
#                    PGHOST, PGPORT, PGUSER (a superuser, trust auth)
#   pg_stop          stop it (fast); pg_start again starts the same one
#   pg_kill          stop it at once (immediate), as a crash
#   pg_createdb NAME an empty database
#   pg_conn NAME     the connection string of database NAME
#   pg_psql NAME ... psql on NAME, quiet, stopping at the first error
#
# Without PostgreSQL's binaries a script is skipped, unless CI=true:
# there it fails (CI installs postgresql, .ci/run).

PGBIN=${PGBIN:-$(pg_config --bindir 2>/dev/null)}
if [ ! -x "$PGBIN/initdb" ]; then
	for d in /usr/lib/postgresql/*/bin; do
		[ -x "$d/initdb" ] && PGBIN=$d
	done
fi
PGROOT=
pg_owner=

pg_have() {
	[ -x "$PGBIN/initdb" ] && [ -x "$PGBIN/pg_ctl" ] &&
	command -v psql >/dev/null 2>&1
}

# Run as the cluster's owner.
pg_as() {
	if [ -n "$pg_owner" ]; then
		(cd / && runuser -u "$pg_owner" -- "$@")
	else
		"$@"
	fi
}

pg_cleanup() {
	if [ -n "$PGROOT" ] && [ -d "$PGROOT" ]; then
		[ -f "$PGROOT/data/postmaster.pid" ] &&
		    pg_as "$PGBIN/pg_ctl" -D "$PGROOT/data" -m immediate \
		    -w -t 30 stop >/dev/null 2>&1
		rm -rf "$PGROOT"
	fi
	rm -rf "$TRASH"
}
trap pg_cleanup EXIT
trap 'exit 130' INT TERM HUP

# A new cluster in directory $1 (made by mktemp -d; given to the
# cluster's owner), its data in $1/data: initdb without its closing
# sync (-N; a test server has nothing to keep), set up as a test server
# (no durability wanted, little memory), all but where it listens.
pg_initdb() {
	pg_own "$1" &&
	pg_as "$PGBIN/initdb" -N -D "$1/data" -U extracct \
	    --auth=trust -E UTF8 --locale=C >"$1/initdb.log" 2>&1 ||
	    { cat "$1/initdb.log"; return 1; }
	cat >>"$1/data/postgresql.conf" <<-EOC
	fsync = off
	synchronous_commit = off
	full_page_writes = off
	shared_buffers = 32MB
	max_connections = 60
	EOC
}

pg_own() {
	if [ "$(id -u)" -eq 0 ]; then
		pg_owner=nobody
		chown "$pg_owner" "$1" || return 1
	fi
	chmod 755 "$1"
}

# tests/run.sh makes one cluster (pg_initdb) for the whole run, in
# EXTRACCT_PG_TEMPLATE, and writes initdb's exit status to its file
# "ready" once it is there: each script starts a copy of it (cp -a:
# 0.1 s, where initdb takes 1 to 3 s and, on a loaded machine, 15).
# Without it, or if it could not be made, a cluster of the script's own.
pg_template() {
	[ -n "${EXTRACCT_PG_TEMPLATE:-}" ] || return 1
	pg_wait=0
	while [ ! -s "$EXTRACCT_PG_TEMPLATE/ready" ] && [ $pg_wait -lt 3000 ]; do
		sleep 0.2
		pg_wait=$((pg_wait + 1))
	done
	[ "$(cat "$EXTRACCT_PG_TEMPLATE/ready" 2>/dev/null)" = 0 ]
}

pg_start() {
	if [ -z "$PGROOT" ]; then
		if ! pg_have; then
			if [ "${CI:-}" = true ]; then
				echo "# PostgreSQL is not installed, and CI=true" >&2
				return 1
			fi
			return 2
		fi
		# Short: a socket's path has a limit of some 100 bytes.
		PGROOT=$(mktemp -d /tmp/expg.XXXXXX) || return 1
		if pg_template; then
			pg_own "$PGROOT" &&
			cp -a "$EXTRACCT_PG_TEMPLATE/data" "$PGROOT/data" ||
			    return 1
		else
			pg_initdb "$PGROOT" || return 1
		fi
		cat >>"$PGROOT/data/postgresql.conf" <<-EOC
		listen_addresses = ''
		unix_socket_directories = '$PGROOT'
		EOC
	fi
	pg_as "$PGBIN/pg_ctl" -D "$PGROOT/data" -l "$PGROOT/log" -w -t 60 \
	    start >/dev/null || { tail -20 "$PGROOT/log"; return 1; }
	PGHOST=$PGROOT PGPORT=5432 PGUSER=extracct
	export PGHOST PGPORT PGUSER
}

pg_stop() {
	pg_as "$PGBIN/pg_ctl" -D "$PGROOT/data" -m fast -w -t 60 stop \
	    >/dev/null
}

pg_kill() {
	pg_as "$PGBIN/pg_ctl" -D "$PGROOT/data" -m immediate -w -t 60 stop \
	    >/dev/null
}

pg_createdb() {
	psql -q -X -d postgres -c "CREATE DATABASE \"$1\"" >/dev/null
}

pg_conn() {
	echo "host=$PGROOT port=5432 user=extracct dbname=$1"
}

pg_psql() {
	db=$1
	shift
	psql -q -X -A -t -v ON_ERROR_STOP=1 -d "$db" "$@"
}

# Start the server, or skip the script (exit 0) where there is none and
# this is not CI.
pg_start_or_skip() {
	pg_start
	case $? in
	0) ;;
	2) echo "ok - skipped: $test_name (no PostgreSQL: install postgresql)"
	   exit 0 ;;
	*) echo "not ok - could not start PostgreSQL"; exit 1 ;;
	esac
}
