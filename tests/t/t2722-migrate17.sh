#!/bin/sh
# Schema 17: the views' host column names one host.  A
# database of schema 16 holding hosts of one name (made from a merge of
# t2700's hosts of one name, table by table, into the schema-16 layout
# that extracct-test schema builds) grouped them into one host; the
# migration gives each its label (hosts.label, docs/schema.md "Host
# labels"), and the migrated database then reports what the same hosts
# merged at schema 17 report, byte for byte.
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/lib-handlogs.sh"

reports() {
	for r in "--by host" "--by host --format csv" "--by host,command" \
	    "--by host,hour --format json" "--by host,user --scan" \
	    "--by command" "--every day --by host --format csv" \
	    "--capture"; do
		echo "== $r" &&
		# (--capture without snapshots is refused: the same refusal)
		{ extracct report --db "$1" --tz UTC $r 2>&1; echo "exit $?"; }
	done
}

test_expect_success 'setup: hosts of one name, merged at schema 17' '
	twin_hosts &&
	extracct merge -o new.db tw1.db tw2.db tw3.db tw4.db tw5.db \
	    tw6.db >/dev/null
'

test_expect_success 'schema 16 grouped the hosts of one name into one' '
	at_schema old.db 16 new.db &&
	test "$(sqlite3 old.db "SELECT count(*) FROM hosts")" -eq 6 &&
	sqlite3 old.db "SELECT DISTINCT host FROM v_proc_usage ORDER BY 1" >actual &&
	printf "solo\nweb1\n" >expect &&
	test_cmp expect actual &&
	test_must_fail sqlite3 old.db "SELECT label FROM hosts"
'

test_expect_success 'an ingest migrates it: each host its label' '
	extracct ingest --db old.db --host solo tw6.exacct >out 2>&1 &&
	grep "already ingested" out &&
	test "$(sqlite3 old.db "PRAGMA user_version")" -eq "$(schema_now)" &&
	sqlite3 old.db "SELECT label FROM hosts ORDER BY host_id" >actual &&
	cut -d" " -f2 tw.labels >expect &&
	test_cmp expect actual &&
	sqlite3 old.db "SELECT host, name FROM v_hosts ORDER BY host_id" >actual &&
	sqlite3 new.db "SELECT host, name FROM v_hosts ORDER BY host_id" >expect &&
	test_cmp expect actual &&
	test "$(sqlite3 old.db "SELECT count(*) FROM sqlite_master
	    WHERE type = '\''trigger'\'' AND name LIKE '\''hosts_label_%'\''")" -eq 3
'

test_expect_success 'the migrated database reports what schema 17 does' '
	reports new.db >expect &&
	reports old.db >actual &&
	test_cmp expect actual &&
	grep "^web1@abcdef01ffffffffffffffffffffffff:web1 " actual &&
	sqlite3 new.db "SELECT host, pid, start_ns, t1_ns, cpu_user_ns
	    FROM v_proc_usage" | sort >expect &&
	sqlite3 old.db "SELECT host, pid, start_ns, t1_ns, cpu_user_ns
	    FROM v_proc_usage" | sort >actual &&
	test_cmp expect actual
'

test_expect_success 'a host added after the migration is labelled, and its namesake' '
	printf "host: solo\nhost_id: solo-2\n" >s2.yml &&
	extracct gen --kind proc --records 100 --seed 90 --host solo -o s2.exacct &&
	extracct -c s2.yml ingest --db s2.db s2.exacct >/dev/null &&
	extracct merge -o old.db s2.db >/dev/null &&
	sqlite3 old.db "SELECT label FROM hosts WHERE name = '\''solo'\''
	    ORDER BY host_id" >actual &&
	printf "solo@name\nsolo@solo-2\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'one host: its name, as at schema 16' '
	at_schema one.db 16 tw2.db &&
	extracct ingest --db one.db --host web1 tw2.exacct >/dev/null 2>&1 &&
	test "$(sqlite3 one.db "SELECT label FROM hosts")" = web1 &&
	reports tw2.db >expect &&
	reports one.db >actual &&
	test_cmp expect actual &&
	grep "^web1 " actual
'

test_done
