# The canonical dump of fact tables, local (SQLite) or central
# (PostgreSQL), for the push tests: sourced after tests/lib-pg.sh.  Set
# CANON_REF to a local database of the current schema first.
# The fact tables (not the working state of live processes: *_last).
TABLES="hosts files damage procs proc_intervals proc_alt_exits tasks
    task_intervals flow_records flows sysload lost pacct_gaps energy_procs
    energy_intervals metric_series metric_samples metric_gaps rapl_zones
    rapl_intervals cgroups cgroup_intervals host_names rollup_hour
    rollup_day rollup_host"

# Each row with its owner's natural key in place of the ids (t2700's),
# the columns of the local table but the ids, the times of ingest and
# hosts.label (local schema 17: derived from the other hosts of the
# database, and computed in the central views, not stored there);
# $2 = pg: the same of a central database, where a child joins its
# parent by (host_id, id).
owner() {
	u=$2
	case $1 in
	hosts) echo "" ;;
	files) echo "h.ident|LEFT JOIN hosts h USING (host_id)" ;;
	damage) echo "f.path, f.kind|JOIN files f USING (${u}file_id)" ;;
	proc_*) echo "h.ident, p.pid, p.start_ns|JOIN procs p USING (${u}proc_id) JOIN hosts h USING (host_id)" ;;
	task_*) echo "h.ident, p.taskid, p.start_ns|JOIN tasks p USING (${u}task_id) JOIN hosts h USING (host_id)" ;;
	energy_intervals) echo "h.ident, p.pid, p.start_ns|JOIN energy_procs p USING (${u}eproc_id) JOIN hosts h USING (host_id)" ;;
	metric_samples|metric_gaps) echo "h.ident, p.metric, p.detail|JOIN metric_series p USING (${u}series_id) JOIN hosts h USING (host_id)" ;;
	rapl_intervals) echo "h.ident, p.zone|JOIN rapl_zones p USING (${u}zone_id) JOIN hosts h USING (host_id)" ;;
	cgroup_intervals) echo "h.ident, p.path, p.hierarchy|JOIN cgroups p USING (${u}cgroup_id) JOIN hosts h USING (host_id)" ;;
	*) echo "h.ident|JOIN hosts h USING (host_id)" ;;
	esac
}

# canon DB...: the dump of local databases, together, one line per row
# led by its table, sorted; canon_pg NAME: the same of a central one.
# The column lists are the local schema's (of $CANON_REF, a database
# the test names), read once;
# not procs' exit interval (schema 16: exit_cpu_user_ns ..), which is
# a row of the local view proc_intervals and so of central's table.
cols() {
	[ -s "$TRASH/.cols.$1" ] ||
	sqlite3 "$CANON_REF" "SELECT group_concat('x.' || name, ', ')
	    FROM pragma_table_info('$1') WHERE name NOT IN ('host_id',
	    'file_id', 'proc_id', 'task_id', 'eproc_id', 'series_id',
	    'zone_id', 'cgroup_id', 'first_ingest_ns', 'last_ingest_ns', 'label') AND NOT
	    ('$1' = 'procs' AND name GLOB 'exit_*' AND
	     name <> 'exit_source')" >"$TRASH/.cols.$1" &&
	cat "$TRASH/.cols.$1"
}

canon_sql() {
	for t in $TABLES; do
		o=$(owner $t "$1") && key=${o%%|*} && join=${o#*|} &&
		c=$(cols $t) && [ -n "$c" ] &&
		echo "SELECT '$t', ${key:+$key, }$c FROM $t x $join;" ||
		return 1
	done
}

# The file of canon_sql "$2", made once ($1: its name): a script dumps
# its databases tens of times, and on a loaded machine each of the fifty
# forks of canon_sql can take a tenth of a second.
canon_sql_file() {
	[ -s "$TRASH/.canon.$1.sql" ] || {
		canon_sql "$2" >"$TRASH/.canon.$1.new" &&
		mv "$TRASH/.canon.$1.new" "$TRASH/.canon.$1.sql"
	}
}

canon() {
	canon_sql_file local "" &&
	for db in "$@"; do
		sqlite3 "$db" <"$TRASH/.canon.local.sql" || return 1
	done | sort
}

# Text that was not UTF-8 locally is stored centrally with \xNN for
# each such byte (and a backslash as \x5c): decoded back, as the
# reports' rdb_pg.c does, so that a live snapshot's cgroup path with
# such a byte compares as the bytes it is.
canon_pg() {
	canon_sql_file pg "host_id, " &&
	pg_psql "$1" -F "|" -f "$TRASH/.canon.pg.sql" |
	python3 -c 'import re, sys; sys.stdout.buffer.write(re.sub(
	    rb"\\x([0-9a-fA-F]{2})", lambda m: bytes([int(m.group(1), 16)]),
	    sys.stdin.buffer.read()))' | sort
}
