#!/bin/sh
# merge: hosts' databases into one, exactly once.  Three
# hosts' logs (partial snapshots, tasks, flows, energy, pacct, with
# damage, acctd exits with pacct alternates and losses, a RAPL stream,
# and a snapshot of this machine with RAPL zones) go each into its own
# database and all into one; merging the three must give the one, but
# for the per-database numbers (ids) and when the ledger saw a file.
# run.sh: long 30 (seconds on two idle CPUs: started first)
. "$(dirname "$0")/../lib.sh"

# Every table but the marks, each row with its owner's natural key in
# place of the ids, and without the times of ingest: sorted.
TABLES="hosts files damage procs proc_intervals proc_alt_exits proc_last
    tasks task_intervals task_last flow_records flows sysload lost
    pacct_gaps energy_procs energy_intervals energy_last metric_series
    metric_samples metric_gaps rapl_zones rapl_intervals cgroups
    cgroup_last cgroup_intervals"

owner() {
	case $1 in
	hosts) echo "" ;;
	files) echo "h.ident|LEFT JOIN hosts h USING (host_id)" ;;
	damage) echo "f.path, f.kind|JOIN files f USING (file_id)" ;;
	proc_*) echo "h.ident, p.pid, p.start_ns|JOIN procs p USING (proc_id) JOIN hosts h USING (host_id)" ;;
	task_*) echo "h.ident, p.taskid, p.start_ns|JOIN tasks p USING (task_id) JOIN hosts h USING (host_id)" ;;
	energy_intervals|energy_last) echo "h.ident, p.pid, p.start_ns|JOIN energy_procs p USING (eproc_id) JOIN hosts h USING (host_id)" ;;
	metric_samples|metric_gaps) echo "h.ident, p.metric, p.detail|JOIN metric_series p USING (series_id) JOIN hosts h USING (host_id)" ;;
	rapl_intervals) echo "h.ident, p.zone|JOIN rapl_zones p USING (zone_id) JOIN hosts h USING (host_id)" ;;
	cgroup_*) echo "h.ident, p.path, p.hierarchy|JOIN cgroups p USING (cgroup_id) JOIN hosts h USING (host_id)" ;;
	*) echo "h.ident|JOIN hosts h USING (host_id)" ;;
	esac
}

canon() {
	for t in $TABLES; do
		o=$(owner $t) &&
		key=${o%%|*} && join=${o#*|} &&
		cols=$(sqlite3 "$1" "SELECT group_concat('x.' || name, ', ')
		    FROM pragma_table_info('$t') WHERE name NOT IN ('host_id',
		    'file_id', 'proc_id', 'task_id', 'eproc_id', 'series_id',
		    'zone_id', 'cgroup_id', 'first_ingest_ns',
		    'last_ingest_ns')") &&
		echo "== $t" &&
		sqlite3 "$1" "SELECT ${key:+$key, }$cols FROM $t x $join" |
		    sort || return 1
	done
}

counts() {
	for t in $TABLES; do
		echo "$t $(sqlite3 "$1" "SELECT count(*) FROM $t")" || return 1
	done
}

. "$SRC/tests/lib-handlogs.sh"

# Host $1's logs into database $2, each as its host's hourly run would.
ingest_host() {
	case $1 in
	alpha)
		test_expect_code 1 extracct ingest --db "$2" --host alpha \
		    alpha.proc alpha.task alpha.flow alpha.energy alpha.pacct \
		    damaged.exacct acctd.exacct alt.pacct >/dev/null 2>&1 ;;
	beta)
		extracct ingest --db "$2" --host beta beta.proc beta.task \
		    beta.flow beta.energy beta.pacct \
		    s1/cpu_energy_rapl_msr_component.log >/dev/null ;;
	gamma)
		extracct ingest --db "$2" --host gamma gamma.proc gamma.task \
		    gamma.flow gamma.energy gamma.pacct snap.log >/dev/null ;;
	esac
}

test_expect_success 'setup: three hosts, each in its own database, and all in one' '
	seed=10 &&
	for h in alpha beta gamma; do
		seed=$((seed + 1)) &&
		extracct gen --kind proc --records 3000 --seed $seed --jitter --host $h -o $h.proc &&
		extracct gen --kind task --records 500 --seed $seed --host $h -o $h.task &&
		extracct gen --kind flow --records 500 --seed $seed --host $h -o $h.flow &&
		extracct gen --kind energy --records 400 --seed $seed --host $h -o $h.energy &&
		extracct gen --kind pacct --records 500 --seed $seed -o $h.pacct || return 1
	done &&
	extracct gen --kind proc --records 1500 --seed 26 --host alpha -o damaged.exacct &&
	printf "%040d" 0 | tr 0 "\377" >junk &&
	dd if=junk of=damaged.exacct bs=1 seek=20000 conv=notrunc 2>/dev/null &&
	fleet_extra_logs &&
	for h in alpha beta gamma; do
		ingest_host $h $h.db && ingest_host $h all.db || return 1
	done
'

test_expect_success 'hosts: this machine by machine-id and name, the others by name' '
	me=$(uname -n) &&
	if test -s /etc/machine-id; then
		echo "$(cat /etc/machine-id):$me" >expect
	else
		echo "name:$me" >expect
	fi &&
	sqlite3 gamma.db "SELECT ident FROM hosts WHERE name = '\''$me'\''" >actual &&
	test_cmp expect actual &&
	sqlite3 all.db "SELECT name, ident FROM hosts WHERE name <> '\''$me'\''
	    ORDER BY name" >actual &&
	printf "alpha|name:alpha\nbeta|name:beta\ngamma|name:gamma\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'merge of the three equals all the logs in one database' '
	extracct merge -o fleet.db alpha.db beta.db gamma.db >out &&
	test "$(grep -c "^merge: [a-z]*\.db: [12] hosts*, [0-9]* rows read, [1-9][0-9]* added or brought up to date$" out)" -eq 3 &&
	for t in $TABLES; do
		test $t = pacct_gaps ||
		test "$(sqlite3 fleet.db "SELECT count(*) FROM $t")" -gt 0 ||
		{ echo "$t: empty"; return 1; }
	done &&
	canon all.db >expect &&
	canon fleet.db >actual &&
	test_cmp expect actual &&
	for r in "--by host" "--by command" "--capture" "--by user --format csv"; do
		extracct report --db all.db $r >expect &&
		extracct report --db fleet.db $r >actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success 'merging the same databases again adds nothing' '
	counts fleet.db >counts1 && canon fleet.db >canon1 &&
	extracct merge -o fleet.db alpha.db beta.db gamma.db >out &&
	test "$(grep -c " 0 added or brought up to date$" out)" -eq 3 &&
	counts fleet.db >counts2 && canon fleet.db >canon2 &&
	test_cmp counts1 counts2 && test_cmp canon1 canon2 &&
	sqlite3 fleet.db "SELECT ident, merges, last_added FROM merge_marks
	    WHERE ident LIKE '\''name:%'\'' ORDER BY ident" >actual &&
	printf "name:alpha|2|0\nname:beta|2|0\nname:gamma|2|0\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'a copy under another name is the same host: nothing added' '
	cp alpha.db copy-of-alpha.db &&
	extracct merge -o fleet.db copy-of-alpha.db >out &&
	grep "^merge: copy-of-alpha.db: 1 host, [0-9]* rows read, 0 added" out &&
	canon fleet.db >canon3 && test_cmp canon1 canon3 &&
	test "$(sqlite3 fleet.db "SELECT count(*) FROM hosts")" -eq 4
'

test_expect_success 'an updated copy adds only what is new, and closes what exited' '
	size=$(wc -c <alpha.proc) &&
	head -c $((size / 2)) alpha.proc >grow.exacct &&
	test_expect_code 1 extracct ingest --db grow.db --host alpha grow.exacct >out 2>err &&
	grep "incomplete tail, left for the next run" err &&
	extracct merge -o g.db grow.db >out &&
	sqlite3 g.db "SELECT pid, start_ns FROM procs WHERE finish_ns IS NULL
	    ORDER BY 1, 2" >live1 &&
	test -s live1 &&
	n1=$(sqlite3 g.db "SELECT count(*) FROM proc_intervals") &&
	cp alpha.proc grow.exacct &&
	extracct ingest --db grow.db --host alpha grow.exacct >/dev/null &&
	extracct merge -o g.db grow.db >out &&
	n2=$(sqlite3 grow.db "SELECT count(*) FROM proc_intervals") &&
	test "$n2" -gt "$n1" &&
	test "$(sqlite3 g.db "SELECT count(*) FROM proc_intervals")" -eq "$n2" &&
	canon grow.db >expect && canon g.db >actual &&
	test_cmp expect actual &&
	sqlite3 g.db "SELECT pid, start_ns FROM procs WHERE finish_ns IS NULL
	    ORDER BY 1, 2" >live2 &&
	test "$(comm -23 live1 live2 | wc -l)" -gt 0 &&
	test "$(sqlite3 g.db "SELECT count(*) FROM proc_last")" -eq \
	    "$(sqlite3 grow.db "SELECT count(*) FROM proc_last")" &&
	test "$(sqlite3 g.db "SELECT merges FROM merge_marks")" -eq 2
'

test_expect_success 'one host name, two identities: two hosts' '
	printf "host: delta\nhost_id: delta-1\n" >c1.yml &&
	printf "host: delta\nhost_id: delta-2\n" >c2.yml &&
	extracct gen --kind proc --records 300 --seed 61 --host delta -o d1.exacct &&
	extracct gen --kind proc --records 300 --seed 62 --host delta -o d2.exacct &&
	extracct -c c1.yml ingest --db d1.db d1.exacct >/dev/null &&
	extracct -c c2.yml ingest --db d2.db d2.exacct >/dev/null &&
	test "$(sqlite3 d1.db "SELECT ident FROM hosts")" = delta-1 &&
	extracct merge -o fleet.db d1.db d2.db >out &&
	sqlite3 fleet.db "SELECT h.name, h.ident, count(*) FROM procs
	    JOIN hosts h USING (host_id) WHERE h.name = '\''delta'\''
	    GROUP BY h.host_id ORDER BY h.ident" >actual &&
	printf "delta|delta-1|%s\ndelta|delta-2|%s\n" \
	    "$(sqlite3 d1.db "SELECT count(*) FROM procs")" \
	    "$(sqlite3 d2.db "SELECT count(*) FROM procs")" >expect &&
	test_cmp expect actual
'

test_expect_success 'hosts of one name: a row each in the reports, labelled by identity' '
	twin_hosts &&
	extracct merge -o twins.db tw1.db tw2.db tw3.db tw4.db tw5.db \
	    tw6.db >/dev/null &&
	sqlite3 twins.db "SELECT host FROM v_hosts ORDER BY host_id" >actual &&
	cut -d" " -f2 tw.labels >expect &&
	test_cmp expect actual &&
	test "$(sqlite3 twins.db "SELECT count(DISTINCT name) FROM v_hosts")" -eq 2 &&
	for r in "--by host" "--by host,command" "--by host,hour" \
	    "--by host,user --scan"; do
		twin_rows $r >expect &&
		extracct report --db twins.db $r --format csv | csv_rows |
		    sort >actual &&
		test_cmp expect actual || return 1
	done &&
	extracct report --db twins.db --by host >out &&
	test "$(grep -c "^web1@" out)" -eq 5
'

test_expect_success 'a label follows the other hosts: added, renamed, deleted' '
	extracct merge -o pair.db tw2.db tw6.db >/dev/null &&
	labels() {
		extracct report --db pair.db --by host --format csv |
		    sed 1d | cut -d, -f1 | sort | tr "\n" " "
	} &&
	test "$(labels)" = "solo web1 " &&
	extracct merge -o pair.db tw1.db >/dev/null &&
	test "$(labels)" = "solo web1@name web1@web1-a " &&
	sqlite3 pair.db "UPDATE hosts SET name = '\''solo'\''
	    WHERE ident = '\''web1-a'\''" &&
	test "$(labels)" = "solo@name solo@web1-a web1 " &&
	sqlite3 pair.db "UPDATE hosts SET ident = '\''name'\''
	    WHERE ident = '\''web1-a'\''" &&
	sqlite3 pair.db "SELECT label FROM hosts ORDER BY host_id" >actual &&
	printf "web1\nsolo@name:solo\nsolo@name\n" >expect &&
	test_cmp expect actual &&
	sqlite3 pair.db "DELETE FROM procs WHERE host_id = 3;
	    DELETE FROM hosts WHERE host_id = 3" &&
	test "$(labels)" = "solo web1 "
'

test_expect_success 'a source that fails leaves the output as it was' '
	canon fleet.db >before &&
	echo "not a database" >junk.db &&
	test_expect_code 3 extracct merge -o fleet.db junk.db 2>err &&
	grep "^extracct: junk.db: .*; nothing of it merged$" err &&
	test_expect_code 3 extracct merge -o fleet.db nowhere.db 2>err &&
	grep -x "extracct: nowhere.db: No such file or directory; nothing of it merged" err &&
	cp all.db noid.db &&
	sqlite3 noid.db "UPDATE hosts SET ident = NULL WHERE host_id =
	    (SELECT max(host_id) FROM hosts)" &&
	test_expect_code 2 extracct merge -o fleet.db noid.db 2>err &&
	grep "^extracct: noid.db: host .* has no identity yet" err &&
	canon fleet.db >after &&
	test_cmp before after &&
	test_expect_code 2 extracct merge -o fresh.db noid.db 2>err &&
	test "$(sqlite3 noid.db "SELECT count(*) FROM procs")" -gt 0 &&
	for t in $TABLES; do
		test "$(sqlite3 fresh.db "SELECT count(*) FROM $t")" -eq 0 ||
		{ echo "$t: rows left by a failed merge"; return 1; }
	done
'

test_expect_success 'a database is not merged into itself; -o is required' '
	test_expect_code 2 extracct merge -o fleet.db fleet.db 2>err &&
	grep "is the output" err &&
	test_expect_code 2 extracct merge alpha.db 2>err &&
	grep "usage: extracct merge -o FILE" err
'

test_expect_success 'host_id: a bad value is refused with line and column' '
	printf "host_id: \"a b\"\n" >bad.yml &&
	test_expect_code 2 extracct -c bad.yml config 2>err &&
	grep "^extracct: bad.yml: line 1, column 10: host_id: \"a b\": only printable ASCII, no blank and no .:.$" err &&
	printf "host_id: web-01\n" >ok.yml &&
	extracct -c ok.yml config >out &&
	grep "^host_id: \"web-01\"$" out
'

test_done
