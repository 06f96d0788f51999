#!/bin/sh
# report --user, --group, --command, --host: each narrows the rows to
# exactly those an unfiltered report has for it (cross-checked with awk
# over the unfiltered CSV, not figures written here); again: either;
# two options: both.  Names per host: "bob" is uid 1001 on ha, and
# hb's 1001 is bob2, so --user bob is ha's 1001 alone.  Globs, numbers,
# an unknown name (exit 2), charts, --percentiles, --energy,
# --forecast, --capture (--host only), FILE mode (refused), and the
# same rows on PostgreSQL as on SQLite.
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/lib-pg.sh"

csv() {
	tr -d "\r" <"$1"
}

# The unfiltered --by host,user,command,group CSV rows (keys and cpu_s)
# that awk condition $2 keeps, sorted, against the filtered report's.
cmp_rows() {
	cond=$1
	shift
	awk -F, "NR > 1 && ($cond) { print \$1, \$2, \$4, \$5, \$8, \$16 }" all.csv |
	    sort >expect &&
	extracct report --db f.db --by host,user,command,group --format csv \
	    --tz UTC "$@" >got.csv &&
	csv got.csv | awk -F, "NR > 1 { print \$1, \$2, \$4, \$5, \$8, \$16 }" |
	    sort >actual &&
	test -s expect &&
	test_cmp expect actual
}

test_expect_success 'setup: three hosts, two with passwd files of their own' '
	printf "root:x:0:0::/:/bin/sh\nalice:x:1000:100::/:/bin/sh\nbob:x:1001:100::/:/bin/sh\n" >pa &&
	printf "root:x:0:0::/:/bin/sh\nalice:x:1000:100::/:/bin/sh\nbob2:x:1001:100::/:/bin/sh\n" >pb &&
	printf "root:x:0:\nstaff:x:100:\n" >ga &&
	seed=0 &&
	for h in ha hb hc; do
		seed=$((seed + 1)) &&
		extracct gen --kind pacct --records 60 --seed $seed -o $h.pacct &&
		extracct gen --kind energy --records 40 --seed $seed --host $h -o $h.energy || return 1
	done &&
	extracct ingest --db ha.db --host ha --passwd pa --group ga ha.pacct ha.energy >/dev/null &&
	extracct ingest --db hb.db --host hb --passwd pb hb.pacct hb.energy >/dev/null &&
	extracct ingest --db hc.db --host hc hc.pacct >/dev/null &&
	for h in ha hb hc; do
		sqlite3 $h.db "UPDATE procs SET uid = CASE proc_id % 3
		    WHEN 0 THEN 0 WHEN 1 THEN 1000 ELSE 1001 END,
		    gid = CASE proc_id % 2 WHEN 0 THEN 0 ELSE 100 END" &&
		extracct rollup --rebuild --db $h.db >/dev/null || return 1
	done &&
	extracct merge -o f.db ha.db hb.db hc.db >/dev/null &&
	# Columns: host, uid, user, command, gid, group, calls (8), cpu_s (16).
	extracct report --db f.db --by host,user,command,group --format csv \
	    --tz UTC >all.raw &&
	csv all.raw >all.csv &&
	head -1 all.csv | cut -d, -f1-6,8,16 >head &&
	echo "host,uid,user,command,gid,group,calls,cpu_s" >expect &&
	test_cmp expect head &&
	# Forks without exec are in the data (command key "date*").
	grep -q "^[^,]*,[^,]*,[^,]*,[^,]*\*," all.csv
'

test_expect_success '--user NAME: the uid each host gives it (bob: ha 1001 only)' '
	cmp_rows "\$3 == \"bob\"" --user bob &&
	cut -d" " -f1,2 actual | sort -u >hu &&
	echo "ha 1001" >expect &&
	test_cmp expect hu
'

test_expect_success '--user NUMBER: that uid on every host' '
	cmp_rows "\$2 == 1001" --user 1001
'

test_expect_success '--user twice: either (OR)' '
	cmp_rows "\$3 == \"bob\" || \$3 == \"bob2\"" --user bob --user bob2 &&
	cmp_rows "\$2 == 0 || \$3 == \"alice\"" --user 0 --user alice
'

test_expect_success '--user glob: names of every host that match' '
	cmp_rows "\$3 ~ /^bob/" --user "bob*" &&
	cmp_rows "\$3 == \"bob2\"" --user "bob?" &&
	cmp_rows "\$3 ~ /^[ab]/" --user "[ab]*"
'

test_expect_success '--command: as the process named itself, its forks (X*) too' '
	cmp_rows "\$4 == \"date\" || \$4 == \"date*\"" --command date &&
	cmp_rows "\$4 ~ /^[cg]/" --command "[cg]*" &&
	cmp_rows "\$4 ~ /^..\\*?\$/" --command "??"
'

# cgroups of ha's processes, as snap and acctd would store them: a
# service, a docker container, none.
test_expect_success '--unit, --container: the processes of their cgroups' '
	cp f.db cg.db &&
	sqlite3 cg.db "INSERT INTO cgroups (host_id, hierarchy, path, unit,
	      container) SELECT host_id, 2, '\''/system.slice/web.service'\'',
	      '\''web.service'\'', NULL FROM hosts WHERE name = '\''ha'\'';
	    INSERT INTO cgroups (host_id, hierarchy, path, unit, container)
	      SELECT host_id, 2, '\''/system.slice/docker-0123456789ab.scope'\'',
	      '\''docker-0123456789ab.scope'\'', '\''0123456789ab'\''
	      FROM hosts WHERE name = '\''ha'\'';
	    UPDATE procs SET cgroup_id = (SELECT cgroup_id FROM cgroups
	      WHERE path = CASE procs.proc_id % 3
	        WHEN 0 THEN '\''/system.slice/web.service'\''
	        WHEN 1 THEN '\''/system.slice/docker-0123456789ab.scope'\'' END)
	      WHERE host_id = (SELECT host_id FROM hosts WHERE name = '\''ha'\'')" &&
	extracct report --db cg.db --by host,unit,container,command \
	    --format csv --tz UTC >cg.raw &&
	csv cg.raw >cg.csv &&
	# host, unit, container, command, then calls and cpu_s by name.
	c=$(head -1 cg.csv | tr , "\n" | grep -n -x calls | cut -d: -f1) &&
	s=$(head -1 cg.csv | tr , "\n" | grep -n -x cpu_s | cut -d: -f1) &&
	# The globs go to extracct as they are: $opts is split, not expanded.
	set -f &&
	for f in "--unit web.service:\$2 == \"web.service\"" \
	    "--unit docker-*:\$2 ~ /^docker-/" \
	    "--container 0123456789ab:\$3 == \"0123456789ab\"" \
	    "--unit *.service --command [a-m]*:\$2 == \"web.service\" && \$4 ~ /^[a-m]/"; do
		opts=${f%%:*} && cond=${f#*:} &&
		awk -F, "NR > 1 && ($cond) { print \$1, \$2, \$3, \$4, \$$c, \$$s }" \
		    cg.csv | sort >expect &&
		extracct report --db cg.db --by host,unit,container,command \
		    --format csv --tz UTC $opts >got.raw &&
		csv got.raw | awk -F, "NR > 1 { print \$1, \$2, \$3, \$4, \$$c, \$$s }" |
		    sort >actual &&
		test -s expect && test_cmp expect actual ||
		{ echo "differs: $opts"; set +f; return 1; }
	done &&
	set +f &&
	# The totals too: a filtered --by host is the kept rows summed.
	extracct report --db cg.db --by host --format csv --tz UTC \
	    --container "0123*" >t.raw &&
	csv t.raw | awk -F, "NR == 2 { print \$1 }" >t.host &&
	echo ha >expect && test_cmp expect t.host &&
	test_expect_code 2 extracct report --db cg.db --energy --unit x 2>err &&
	grep "not --group, --unit or --container" err &&
	test_expect_code 2 extracct report --db cg.db --capture \
	    --container x 2>err &&
	grep "not --user, --group, --command, --unit or --container" err
'

test_expect_success '--command is case-sensitive, as both engines match' '
	extracct report --db f.db --by command --format csv --command DATE >up.csv &&
	test "$(csv up.csv | wc -l)" -eq 1
'

test_expect_success '--host glob and --group name or number' '
	cmp_rows "\$1 ~ /^h[ab]\$/" --host "h[ab]" &&
	cmp_rows "\$1 != \"hb\"" --host "h[!b]" &&
	cmp_rows "\$5 == 100" --group 100 &&
	cmp_rows "\$6 == \"staff\"" --group staff
'

test_expect_success 'two options: both hold (AND)' '
	cmp_rows "\$3 == \"alice\" && \$1 == \"hb\"" --user alice --host hb &&
	cmp_rows "(\$4 ~ /^[cg]/) && \$2 == 0 && \$1 != \"hc\"" --command "[cg]*" --user root
'

test_expect_success 'every source gives the same rows: --scan, --every day, --by user' '
	for by in user host command; do
		extracct report --db f.db --by $by --user alice --command "[a-m]*" \
		    --format csv >r.csv &&
		extracct report --db f.db --by $by --user alice --command "[a-m]*" \
		    --format csv --scan >s.csv &&
		test_cmp r.csv s.csv || return 1
	done &&
	extracct report --db f.db --by host --host hb --format csv >h1.csv &&
	extracct report --db f.db --by host,user --format csv >h2.csv &&
	csv h1.csv | awk -F, "NR > 1 { print \$1, \$3 }" >actual &&
	csv h2.csv | awk -F, "NR > 1 && \$1 == \"hb\" { n += \$5 } END { print \"hb\", n }" >expect &&
	test_cmp expect actual
'

test_expect_success 'the table says the filters in its header' '
	extracct report --db f.db --user root --command "post*" >t.txt &&
	head -1 t.txt | grep "; filtered: user=root,command=post\*;" &&
	extracct report --db f.db --by user --format json --host ha >t.json &&
	grep "\"filtered\": *\"host=ha\"" t.json
'

test_expect_success 'an unknown user or group name: exit 2, naming it' '
	test_expect_code 2 extracct report --db f.db --user nobody 2>err &&
	grep "^extracct: unknown user .nobody." err &&
	test_expect_code 2 extracct report --db f.db --group wheel 2>err &&
	grep "unknown group .wheel." err &&
	test_expect_code 2 extracct report --db f.db --user bob --user zed 2>err &&
	grep "zed" err
'

test_expect_success 'a glob or number that matches nothing: an empty report' '
	extracct report --db f.db --user "zz*" --format csv >e.csv &&
	test "$(csv e.csv | wc -l)" -eq 1 &&
	extracct report --db f.db --user 4242 --format csv >e.csv &&
	test "$(csv e.csv | wc -l)" -eq 1 &&
	extracct report --db f.db --host nohost --format csv >e.csv &&
	test "$(csv e.csv | wc -l)" -eq 1
'

legend() {
	grep 'class="legend"' "$1" | sed 's/.*>\(.*\)<.*/\1/' | sort
}

test_expect_success 'svg: the filter changes the chart, its legend the kept keys only' '
	extracct report --db f.db --by user --format svg >all.svg &&
	legend all.svg >actual &&
	printf "0\n1000\n1001\n" >expect &&
	test_cmp expect actual &&
	extracct report --db f.db --by user --format svg --user alice --user 0 >some.svg &&
	! cmp -s all.svg some.svg &&
	legend some.svg >actual &&
	# hc names no uid alice: its 1000 is out, so every 1000 kept is alice.
	printf "0\nalice\n" >expect &&
	test_cmp expect actual &&
	extracct report --db f.db --by command --format svg --command date >d.svg &&
	legend d.svg >actual &&
	printf "date\ndate*\n" >expect &&
	test_cmp expect actual &&
	extracct report --db f.db --by host --format html --host "h[ab]" >p.html &&
	grep -c "class=\"legend\">hc<" p.html >n || :
	test "$(cat n)" -eq 0 &&
	grep -q "class=\"legend\">hb<" p.html
'

test_expect_success '--percentiles and --forecast take the filters' '
	extracct report --db f.db --by host,user --every day --percentiles \
	    --format csv --user alice >p.csv &&
	csv p.csv | sed 1d | cut -d, -f3 | sort -u >actual &&
	echo alice >expect &&
	test_cmp expect actual &&
	extracct report --db f.db --forecast --format csv --host "h[bc]" >fc.csv &&
	csv fc.csv | sed 1d | cut -d, -f1 | sort -u >actual &&
	printf "hb\nhc\n" >expect &&
	test_cmp expect actual
'

test_expect_success '--energy: --user, --command, --host; not --group' '
	extracct report --db f.db --energy --by host --format csv >en.csv &&
	csv en.csv | sed 1d | cut -d, -f1 | sort -u >hosts &&
	test "$(wc -l <hosts)" -ge 2 &&
	extracct report --db f.db --energy --by host --host ha --format csv >eh.csv &&
	csv eh.csv | sed 1d | cut -d, -f1 | sort -u >actual &&
	echo ha >expect &&
	test_cmp expect actual &&
	extracct report --db f.db --energy --by user --user 0 --format csv >eu.csv &&
	csv eu.csv | sed 1d | cut -d, -f1 | sort -u >actual &&
	echo 0 >expect &&
	test_cmp expect actual &&
	test_expect_code 2 extracct report --db f.db --energy --group 0 2>err &&
	grep "no group" err
'

test_expect_success '--capture: --host only; FILE mode refuses filters' '
	test_expect_code 2 extracct report --db f.db --capture --user root 2>err &&
	grep -- "--capture:.*only --host" err &&
	test_expect_code 2 extracct report --user root ha.pacct 2>err &&
	grep "report FILE" err
'

pg_start
case $? in
0)
	uri() {
		echo "postgresql:///$1?host=$(echo "$PGROOT" | sed 's|/|%2F|g')"
	}
	test_expect_success 'PostgreSQL: pushed, the same filtered reports' '
		pg_createdb fleet &&
		for h in ha hb hc; do
			extracct push --db $h.db --to "$(uri fleet)" >/dev/null || return 1
		done &&
		# The globs are the report'\''s, not this shell'\''s.
		set -f &&
		for args in "--user bob" "--user bob* --host h[!c]" \
		    "--command [cg]* --user 0 --user alice" "--command date" \
		    "--command DATE" "--group staff" "--host h?" "--user [!r]*"; do
			extracct report --db f.db --by host,user,command --format csv $args >lite.csv &&
			extracct report --db "$(uri fleet)" --by host,user,command --format csv $args >pg.csv &&
			test_cmp lite.csv pg.csv || { echo "differs: $args"; return 1; }
		done &&
		for args in "--format svg --by user --user alice" \
		    "--every day --percentiles --by user --command [a-m]*" \
		    "--energy --by user --host ha"; do
			extracct report --db f.db $args >lite.out &&
			extracct report --db "$(uri fleet)" $args >pg.out &&
			test_cmp lite.out pg.out || { echo "differs: $args"; return 1; }
		done &&
		set +f &&
		test_expect_code 2 extracct report --db "$(uri fleet)" --user nobody 2>err &&
		grep "unknown user .nobody." err
	'
	test_expect_success 'PostgreSQL: --unit and --container, as on SQLite' '
		pg_createdb cgfleet &&
		extracct push --db cg.db --central "$(uri cgfleet)" >/dev/null &&
		set -f &&
		for args in "--unit web.service" "--unit docker-*" \
		    "--container 0123* --command [a-m]*" "--unit *.service \
		    --format svg --by unit"; do
			extracct report --db cg.db --by host,unit,container,command \
			    --format csv $args >lite.csv &&
			extracct report --central "$(uri cgfleet)" \
			    --by host,unit,container,command --format csv \
			    $args >pg.csv &&
			test "$(wc -l <lite.csv)" -gt 1 &&
			test_cmp lite.csv pg.csv || { echo "differs: $args"; set +f; return 1; }
		done &&
		set +f
	'
	;;
2)	echo "ok - skipped: PostgreSQL part (no PostgreSQL: install postgresql)" ;;
*)	echo "not ok - could not start PostgreSQL"; exit 1 ;;
esac

test_done
