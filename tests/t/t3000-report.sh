#!/bin/sh
# report: totals by user, command, project, zone, host and hour, over a
# window, as a table, CSV or JSON, always naming the time zone.
. "$(dirname "$0")/../lib.sh"

test_expect_success 'setup' '
	extracct ingest --db r.db "$SAMPLES/proc.exacct" "$SAMPLES/real/proc.exacct" >out
'

test_expect_success 'by user: the totals are the sums of the intervals' '
	extracct report --db r.db --by user --format csv >out.csv &&
	head -n 1 out.csv | grep "^uid,tz,calls,cpu_user_s,cpu_sys_s,real_s,chars_rdwr_bytes" &&
	sqlite3 r.db "SELECT p.uid, count(DISTINCT proc_id),
	    printf(\"%.3f\", sum(cpu_user_ns) / 1e9), sum(chars_rdwr)
	    FROM proc_intervals JOIN procs p USING (proc_id)
	    GROUP BY p.uid" | sort >expect &&
	tr -d "\\r" <out.csv | awk -F, "NR > 1 { print \$1 \"|\" \$3 \"|\" \$4 \"|\" \$7 }" | sort >actual &&
	test_cmp expect actual
'

test_expect_success 'sorted by CPU, largest first' '
	extracct report --db r.db --by command --format csv >c.csv &&
	tr -d "\\r" <c.csv | awk -F, "NR > 1 { print \$4 + \$5 }" >cpu &&
	sort -rn cpu >sorted &&
	test_cmp sorted cpu
'

test_expect_success 'table names the zone and the window; --tz changes it' '
	extracct report --db r.db --by user --tz UTC >t &&
	grep "^# usage by user, from the start to the end; time zone UTC$" t &&
	extracct report --db r.db --by hour --tz UTC --format csv >u.csv &&
	extracct report --db r.db --by hour --tz Asia/Kolkata --format csv >k.csv &&
	grep ",UTC," u.csv && grep ",Asia/Kolkata," k.csv &&
	head -n 2 u.csv | tail -n 1 | grep "^2005-03-0[0-9] [0-9][0-9]:00,2005-" &&
	test "$(line_count u.csv)" -ge 3
'

test_expect_success '--from/--to select intervals by their end' '
	extracct report --db r.db --by command --tz UTC --from 2005-01-01 --to 2006-01-01 --format csv >w.csv &&
	tr -d "\\r" <w.csv | cut -d, -f1 | sort >cmds &&
	printf "acctadm\ncommand\nrun-mozilla.sh\n" >expect &&
	test_cmp expect cmds &&
	extracct report --db r.db --by command --from @1109813617 --to @1109813618 --format csv >x.csv &&
	test "$(line_count x.csv)" -eq 2
'

test_expect_success 'JSON output' '
	extracct report --db r.db --by zone --tz UTC --format json >j &&
	grep "^{\"by\": \"zone\", \"tz\": \"UTC\", \"rows\": \\[" j &&
	grep "{\"zone\": \"global\", \"calls\": " j &&
	if command -v python3 >/dev/null; then python3 -m json.tool j >/dev/null; fi
'

test_expect_success 'bad options: exit 2 with the reason' '
	test_expect_code 2 extracct report --db r.db --by colour 2>err &&
	grep "not one of user, command" err &&
	test_expect_code 2 extracct report --db r.db --from yesterday 2>err &&
	grep "not YYYY-MM-DD" err &&
	test_expect_code 3 extracct report --db missing.db 2>err
'

test_expect_success 'report FILE...: exit records totalled without a database' '
	extracct gen --kind pacct --records 300 --seed 12 -o p.pacct &&
	extracct report --by command --format csv p.pacct >f.csv &&
	extracct ingest --db f.db --host h p.pacct >out &&
	extracct report --db f.db --by command --format csv >d.csv &&
	tr -d "\r" <f.csv | sort >a && tr -d "\r" <d.csv | sort >b &&
	test_cmp b a &&
	test "$(tr -d "\r" <f.csv | awk -F, "NR > 1 { n += \$3 } END { print n }")" -eq 300
'

test_expect_success 'report FILE...: partial records are not counted' '
	extracct report --by command --format csv "$SAMPLES/proc.exacct" >f.csv &&
	n=$(tr -d "\r" <f.csv | awk -F, "NR > 1 { n += \$3 } END { print n }") &&
	finals=$(extracct text -H -k proc "$SAMPLES/proc.exacct" | awk "\$3 != \"-1.0000\"" | wc -l) &&
	test "$n" -eq "$finals"
'

test_expect_success '--capture with no snapshots: an empty report, exit 0' '
	extracct report --db r.db --capture --tz UTC >c &&
	grep "^total " c
'

test_done
