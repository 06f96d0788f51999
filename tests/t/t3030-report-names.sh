#!/bin/sh
# report: the names of users.  A host's names (its passwd, stored by
# ingest) name that host's ids and no other's; a row that adds up
# several hosts (--by user, no host key) has a name only if every host
# behind it gives the id that one name, else the number, so that it
# agrees with the rows of --by host,user under it.  The same rule in the
# charts' legends and in --energy --by user; from log files (no
# database) this machine's names, as GNU acct's sa -m prints them.
#
# Three hosts, their uids set by hand:
#   ha (root 0, alice 1000, bob 1001, carol 2000, eve 501): uids 0, 1000, 1001
#   hb (root 0, alice 1000, bob2 1001):                      uids 0, 1000, 1001
#   hc (no names):                                           uids 0, 2000
# so --by user: 0 (hc names it not), alice, 1001 (two names), 2000 (only
# hc's, whose passwd is not ha's: never carol).  Energy, ha and hb:
# uids 0 (root on both) and 501 (eve on ha only).
. "$(dirname "$0")/../lib.sh"

csv() {
	tr -d "\r" <"$1"
}

texts() {
	grep -o "class=\"$1\"[^>]*>[^<]*<" "$2" | sed 's/^[^>]*>//; s/<$//'
}

test_expect_success 'setup: three hosts, two with passwd files of their own' '
	printf "root:x:0:0::/:/bin/sh\nalice:x:1000:100::/:/bin/sh\nbob:x:1001:100::/:/bin/sh\ncarol:x:2000:100::/:/bin/sh\neve:x:501:20::/:/bin/sh\n" >pa &&
	printf "root:x:0:0::/:/bin/sh\nalice:x:1000:100::/:/bin/sh\nbob2:x:1001:100::/:/bin/sh\n" >pb &&
	seed=0 &&
	for h in ha hb hc; do
		seed=$((seed + 1)) &&
		extracct gen --kind pacct --records 60 --seed $seed -o $h.pacct &&
		extracct gen --kind energy --records 40 --seed $seed --host $h -o $h.energy || return 1
	done &&
	extracct ingest --db ha.db --host ha --passwd pa ha.pacct ha.energy >/dev/null &&
	extracct ingest --db hb.db --host hb --passwd pb hb.pacct hb.energy >/dev/null &&
	extracct ingest --db hc.db --host hc hc.pacct >/dev/null &&
	for h in ha hb; do
		sqlite3 $h.db "UPDATE procs SET uid = CASE proc_id % 3
		    WHEN 0 THEN 0 WHEN 1 THEN 1000 ELSE 1001 END;
		    UPDATE energy_procs SET uid = CASE eproc_id % 2
		    WHEN 0 THEN 0 ELSE 501 END" || return 1
	done &&
	sqlite3 hc.db "UPDATE procs SET uid = CASE proc_id % 2
	    WHEN 0 THEN 0 ELSE 2000 END" &&
	for h in ha hb hc; do
		extracct rollup --rebuild --db $h.db >/dev/null || return 1
	done &&
	extracct merge -o f.db ha.db hb.db hc.db >/dev/null &&
	sqlite3 f.db "SELECT host, id, name FROM v_host_names
	    WHERE kind = '\''user'\'' ORDER BY host, id" >names &&
	cat >expect <<-\EOF &&
	ha|0|root
	ha|501|eve
	ha|1000|alice
	ha|1001|bob
	ha|2000|carol
	hb|0|root
	hb|1000|alice
	hb|1001|bob2
	EOF
	test_cmp expect names
'

test_expect_success '--by host,user: each host its own names, none for hc' '
	extracct report --db f.db --by host,user --format csv >hu.csv &&
	csv hu.csv | sed 1d | cut -d, -f1-3 | sort >actual &&
	cat >expect <<-\EOF &&
	ha,0,root
	ha,1000,alice
	ha,1001,bob
	hb,0,root
	hb,1000,alice
	hb,1001,bob2
	hc,0,
	hc,2000,
	EOF
	test_cmp expect actual
'

test_expect_success '--by user: a name only where every host behind the row gives it' '
	extracct report --db f.db --by user --format csv >u.csv &&
	csv u.csv | sed 1d | cut -d, -f1-2 | sort >actual &&
	cat >expect <<-\EOF &&
	0,
	1000,alice
	1001,
	2000,
	EOF
	test_cmp expect actual &&
	extracct report --db f.db --by user >u.table &&
	sed "1,3d" u.table | cut -d" " -f1 | sort >actual &&
	printf "0\n1001\n2000\nalice\n" >expect &&
	test_cmp expect actual
'

# From a report CSV with a host column, the name each row without it
# must have: the one all the hosts give, else none; and the names of
# the rows of the report without it.  The key columns are those before
# tz, the host's left out; uid and user are the ones compared.
expected_names() {
	awk -F, "NR == 1 { for (i = 1; i <= NF; i++) { if (\$i == \"uid\") u = i; if (\$i == \"tz\") t = i; if (\$i == \"host\") h = i }; next }
	    { k = \"\"; for (i = 1; i < t; i++) if (i != h && i != u + 1) k = k \",\" \$i;
	      n = \$(u + 1);
	      if (!(k in name)) name[k] = n; else if (name[k] != n) name[k] = \"\" }
	    END { for (k in name) print substr(k, 2) \" \" name[k] }" "$1" | sort
}
actual_names() {
	awk -F, "NR == 1 { for (i = 1; i <= NF; i++) { if (\$i == \"uid\") u = i; if (\$i == \"tz\") t = i }; next }
	    { k = \"\"; for (i = 1; i < t; i++) if (i != u + 1) k = k \",\" \$i;
	      print substr(k, 2) \" \" \$(u + 1) }" "$1" | sort
}

test_expect_success '--by user,command and --every hour agree with the host rows under them' '
	for keys in user user,command user,group "user --every hour"; do
		extracct report --db f.db --by host,$keys --format csv >h.csv &&
		extracct report --db f.db --by $keys --format csv >k.csv &&
		csv h.csv >h && csv k.csv >k &&
		expected_names h >expect && actual_names k >actual &&
		test_cmp expect actual || { echo "--by $keys"; return 1; }
	done &&
	grep " alice$" actual && grep " $" actual
'

test_expect_success '--percentiles: a key named only if every bucket names it so' '
	extracct report --db f.db --every hour --by user --percentiles --format csv >p.csv &&
	csv p.csv | sed 1d | cut -d, -f1-2 | sort >actual &&
	printf "0,\n1000,alice\n1001,\n2000,\n" >expect &&
	test_cmp expect actual
'

test_expect_success '--passwd overrides; --numeric shows numbers' '
	printf "zed:x:0:0::/:/bin/sh\n" >pz &&
	extracct report --db f.db --by user --passwd pz --format csv >z.csv &&
	csv z.csv | sed 1d | cut -d, -f1-2 | sort >actual &&
	printf "0,zed\n1000,\n1001,\n2000,\n" >expect &&
	test_cmp expect actual &&
	extracct report --db f.db --by host,user --numeric --format csv >n.csv &&
	csv n.csv | sed 1d | cut -d, -f3 | sort -u >actual &&
	echo >expect && test_cmp expect actual
'

test_expect_success 'charts: the legend shows the names the table shows' '
	extracct report --db f.db --by user --format svg >u.svg &&
	texts legend-head u.svg >actual && echo user >expect && test_cmp expect actual &&
	texts legend u.svg | sort >actual &&
	printf "0\n1001\n2000\nalice\n" >expect &&
	test_cmp expect actual
'

test_expect_success '--energy --by user: the table names users as the usage table does' '
	extracct report --db f.db --energy --by user >e.table &&
	sed -n "/^user /,\$p" e.table | sed 1d | cut -d" " -f1 | sort >actual &&
	printf "501\nroot\n" >expect &&
	test_cmp expect actual &&
	extracct report --db f.db --energy --by user --format csv >e.csv &&
	csv e.csv | sed 1d | cut -d, -f1 | sort >actual &&
	printf "0\n501\n" >expect &&
	test_cmp expect actual &&
	extracct report --db f.db --energy --by user --format svg >e.svg &&
	texts legend e.svg | sort >actual &&
	printf "501\nroot\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'report FILE: this machine names the users, as sa -m does' '
	extracct report --by user ha.pacct >f.table &&
	sed "1,3d" f.table | cut -d" " -f1 | sort >actual &&
	test "$(wc -l <actual)" -gt 1 &&
	# Every uid the log has, named as getent names it, else the number.
	for uid in $(extracct report --by user --numeric ha.pacct | sed "1,3d" | cut -d" " -f1); do
		getent passwd $uid | cut -d: -f1 | grep . || echo $uid
	done | sort >expect &&
	test_cmp expect actual &&
	grep "^root " f.table &&
	if command -v sa >/dev/null 2>&1; then
		sa -m ha.pacct | sed 1d | awk "{ print \$1 }" | sort >sa.names &&
		test_cmp sa.names actual
	fi &&
	extracct report --by user --passwd pa ha.pacct | sed "1,3d" | cut -d" " -f1 >p &&
	grep -x root p && grep -x bob p && ! grep -x "$(getent passwd 1002 | cut -d: -f1)x" p &&
	extracct report --by user --numeric ha.pacct | sed "1,3d" | cut -d" " -f1 >n &&
	! grep -v "^[0-9][0-9]*$" n
'

. "$SRC/tests/lib-pg.sh"
if pg_have || test "${CI:-}" = true; then
	test_expect_success 'PostgreSQL: the same names from the central server' '
		pg_start &&
		pg_createdb names &&
		PG="postgresql:///names?host=$(echo "$PGROOT" | sed "s|/|%2F|g")" &&
		for h in ha hb hc; do
			extracct push --db $h.db --central "$PG" >/dev/null || return 1
		done &&
		for a in "--by user" "--by host,user" "--by user,command --format csv" \
		    "--every hour --by user --format csv" "--energy --by user" \
		    "--by user --format svg" "--energy --by user --format svg"; do
			extracct report --db f.db $a >expect &&
			extracct report --db "$PG" $a >actual &&
			test_cmp expect actual || { echo "differs: $a"; return 1; }
		done &&
		# A keyword CONNINFO that is also a file name: --db takes
		# the file, --central the server, as push --central does.
		ci="dbname=names" &&
		echo "not a database" >"$ci" &&
		extracct report --db f.db --by host,user >expect &&
		PGHOST=$PGROOT extracct report --central "$ci" --by host,user \
		    >actual &&
		test_cmp expect actual &&
		test_must_fail env PGHOST=$PGROOT extracct report --db "$ci" \
		    --by host,user 2>err &&
		cat err &&
		test_expect_code 2 extracct report --db f.db --central "$ci" 2>err &&
		grep "one of --db and --central" err &&
		rm -f "$ci"
	'
else
	test_skip "PostgreSQL: the same names" "no PostgreSQL: install postgresql"
fi

test_done
