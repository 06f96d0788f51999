#!/bin/sh
# The configuration file: defaults, overrides, errors with line and
# column, and the example shipped in docs/ is valid and equals the
# defaults.
. "$(dirname "$0")/../lib.sh"

# A copy: the checkout may belong to someone else than who runs the
# tests, and a configuration of another user is refused.
test_expect_success 'the shipped example is valid and says the defaults' '
	cp "$SRC/docs/extracct.yml.example" example.yml &&
	extracct -c example.yml config >example &&
	extracct -c /dev/null config >defaults &&
	sed 1d example >a && sed 1d defaults >b &&
	test_cmp b a
'

test_expect_success 'values override the defaults' '
	printf "spool_dir: /srv/spool\nretention_days: 7\nidle_rows: always\nhost: h1\n" >c.yml &&
	extracct -c c.yml config >out &&
	grep "^spool_dir: \"/srv/spool\"$" out &&
	grep "^retention_days: 7$" out &&
	grep "^idle_rows: always$" out &&
	grep "^host: \"h1\"$" out
'

test_expect_success 'unknown key: exit 2, line and column' '
	printf "spool_dir: /x\nretension_days: 7\n" >bad.yml &&
	test_expect_code 2 extracct -c bad.yml config 2>err &&
	grep "^extracct: bad.yml: line 2, column 1: unknown key \"retension_days\"$" err
'

test_expect_success 'wrong types: exit 2, line and column' '
	printf "retention_days: seven\n" >t1.yml &&
	test_expect_code 2 extracct -c t1.yml config 2>err &&
	grep "t1.yml: line 1, column 17: retention_days: \"seven\" is not a whole number" err &&
	printf "idle_rows: sometimes\n" >t2.yml &&
	test_expect_code 2 extracct -c t2.yml config 2>err &&
	grep "line 1, column 12: idle_rows: \"sometimes\" is not heartbeat or always" err &&
	printf "snap_cpu: exact\n" >t5.yml &&
	test_expect_code 2 extracct -c t5.yml config 2>err &&
	grep "line 1, column 11: snap_cpu: \"exact\" is not auto, ticks or runtime" err &&
	printf "spool_dir: [a, b]\n" >t3.yml &&
	test_expect_code 2 extracct -c t3.yml config 2>err &&
	grep "spool_dir: expected a plain value, not a list" err &&
	printf "spool_dir: x\n  bad: indent\n: :\n" >t4.yml &&
	test_expect_code 2 extracct -c t4.yml config 2>err &&
	grep "t4.yml: line [0-9]*, column [0-9]*: " err
'

test_expect_success 'an alias is refused, not read as the next key' '
	printf "database: *s\noutput_dir: /x\n" >alias.yml &&
	test_expect_code 2 extracct -c alias.yml config >out 2>err &&
	grep "^extracct: alias.yml: line 1, column 11: an alias (\*name): aliases are not allowed$" err &&
	test ! -s out &&
	printf "output_dir: &o /out\ndatabase: x\n" >anchor.yml &&
	test_expect_code 2 extracct -c anchor.yml config 2>err &&
	grep "^extracct: anchor.yml: line 1, column 13: an anchor (&name): anchors are not allowed$" err &&
	printf "host: !!str h1\n" >tag.yml &&
	test_expect_code 2 extracct -c tag.yml config 2>err &&
	grep "^extracct: tag.yml: line 1, column 7: a tag (!name): tags are not allowed$" err
'

test_expect_success 'a key given twice, or a second document: exit 2' '
	printf "retention_days: 7\nhost: h\nretention_days: 8\n" >dup.yml &&
	test_expect_code 2 extracct -c dup.yml config 2>err &&
	grep "^extracct: dup.yml: line 3, column 1: retention_days: given twice (first at line 1, column 1)$" err &&
	printf -- "---\nhost: a\n---\nhost: b\n" >docs.yml &&
	test_expect_code 2 extracct -c docs.yml config 2>err &&
	grep "^extracct: docs.yml: line 3, column 1: a second document: the file holds one mapping$" err
'

test_expect_success 'numbers: plain decimals only, ranges stated' '
	printf "carbon_intensity: 0x1p3\n" >hex.yml &&
	test_expect_code 2 extracct -c hex.yml config 2>err &&
	grep "^extracct: hex.yml: line 1, column 19: carbon_intensity: \"0x1p3\" is not grams CO2e per kWh (0 to 10000) or none$" err &&
	printf "carbon_intensity: 4e2\n" >exp.yml &&
	test_expect_code 2 extracct -c exp.yml config 2>err &&
	printf "carbon_intensity: 445.5\n" >ok.yml &&
	extracct -c ok.yml config >out &&
	grep "^carbon_intensity: 445.5$" out &&
	printf "retention_days: 36501\n" >big.yml &&
	test_expect_code 2 extracct -c big.yml config 2>err &&
	grep "^extracct: big.yml: line 1, column 17: retention_days: \"36501\" is not a whole number from 0 to 36500$" err
'

test_expect_success 'acctd_rcvbuf below what --rcvbuf takes: exit 2' '
	printf "acctd_rcvbuf: 4095\n" >rb.yml &&
	test_expect_code 2 extracct -c rb.yml config 2>err &&
	grep "^extracct: rb.yml: line 1, column 15: acctd_rcvbuf: \"4095\" is not a whole number from 4096 to 1073741824$" err &&
	printf "acctd_rcvbuf: 4096\n" >rb2.yml &&
	extracct -c rb2.yml config >out &&
	grep "^acctd_rcvbuf: 4096$" out
'

test_expect_success 'an empty database, a relative spool_dir: exit 2' '
	printf "database: \"\"\n" >db.yml &&
	test_expect_code 2 extracct -c db.yml config 2>err &&
	grep "^extracct: db.yml: line 1, column 11: database: empty: it must name a file$" err &&
	printf "database:\n" >db2.yml &&
	test_expect_code 2 extracct -c db2.yml config 2>err &&
	grep "^extracct: db2.yml: line 1, column 10: database: empty" err &&
	printf "spool_dir: var/spool\n" >sp.yml &&
	test_expect_code 2 extracct -c sp.yml config 2>err &&
	grep "^extracct: sp.yml: line 1, column 12: spool_dir: \"var/spool\" is not an absolute path$" err
'

test_expect_success 'a time zone must be in the zoneinfo database' '
	printf "timezone: Mars/Olympus\n" >tz.yml &&
	test_expect_code 2 extracct -c tz.yml config 2>err &&
	grep "^extracct: tz.yml: line 1, column 11: timezone: \"Mars/Olympus\": no such time zone in " err &&
	printf "timezone: ../../../etc/passwd\n" >tz2.yml &&
	test_expect_code 2 extracct -c tz2.yml config 2>err &&
	grep "timezone: \"../../../etc/passwd\": not a zone name" err &&
	mkdir zi && mkdir zi/Fake && printf "TZif2 and more" >zi/Fake/Zone &&
	printf "not a zone" >zi/Fake/Text &&
	printf "timezone: Fake/Text\n" >tz3.yml &&
	TZDIR=$TRASH/zi test_expect_code 2 extracct -c tz3.yml config 2>err &&
	grep "timezone: \"Fake/Text\": $TRASH/zi/Fake/Text is not a time zone file (TZif)$" err &&
	printf "timezone: Fake\n" >tz4.yml &&
	TZDIR=$TRASH/zi test_expect_code 2 extracct -c tz4.yml config 2>err &&
	printf "timezone: Fake/Zone\n" >tz5.yml &&
	TZDIR=$TRASH/zi extracct -c tz5.yml config >out &&
	grep "^timezone: \"Fake/Zone\"$" out &&
	printf "timezone: UTC\n" >tz6.yml &&
	TZDIR=$TRASH/zi extracct -c tz6.yml config >out &&
	test_expect_code 2 extracct report --tz Mars/Olympus --db none.db 2>err &&
	grep "^extracct: --tz .Mars/Olympus.: no such time zone in " err
'

test_expect_success 'hostile bytes in a value are escaped in the message' '
	cat >esc.yml <<-\EOF &&
	idle_rows: "\e[2J\r\b,q\\\"\xe9"
	EOF
	cat >expect <<-\EOF &&
	extracct: esc.yml: line 1, column 12: idle_rows: "\033[2J\015\010,q\134"\303\251" is not heartbeat or always
	EOF
	test_expect_code 2 extracct -c esc.yml config 2>err &&
	test_cmp expect err &&
	cat >key.yml <<-\EOF &&
	"\e]0;owned\a": 1
	EOF
	test_expect_code 2 extracct -c key.yml config 2>err &&
	grep "^extracct: key.yml: line 1, column 1: unknown key \"\\\\033\]0;owned\\\\007\"$" err
'

test_expect_success 'config prints hostile values as YAML that reads back' '
	cat >h.yml <<-\EOF &&
	host: "h\e[2J\r\n\b\"q,\\z \xe9\x9b"
	carbon_source: "\x07\x7f"
	EOF
	extracct -c h.yml config >out &&
	cat >expect <<-\EOF &&
	host: "h\x1b[2J\x0d\x0a\x08\"q,\\z
	EOF
	grep -F -f expect out >line &&
	grep "\\\\x9b\"$" line &&
	grep -F -x "carbon_source: \"\\x07\\x7f\"" out &&
	test "$(tr -d "\n\040-\176\303\251" <out | wc -c)" -eq 0 &&
	sed 1d out >again.yml &&
	extracct -c again.yml config >out2 &&
	sed 1d out >a && sed 1d out2 >b &&
	test_cmp a b
'

test_expect_success 'a NUL byte in a value or a key is refused, not cut short' '
	cat >nul.yml <<-\EOF &&
	retention_days: 7
	host: "a\x00b"
	EOF
	test_expect_code 2 extracct -c nul.yml config >out 2>err &&
	cat err &&
	echo "extracct: nul.yml: line 2, column 7: host: holds a NUL byte; refused rather than cut short there" >expect &&
	test_cmp expect err &&
	test ! -s out &&
	cat >nul2.yml <<-\EOF &&
	database: "/x/a\0.db"
	EOF
	test_expect_code 2 extracct -c nul2.yml config 2>err &&
	grep "^extracct: nul2.yml: line 1, column 11: database: holds a NUL byte" err &&
	cat >nul3.yml <<-\EOF &&
	"host\0x": a
	EOF
	test_expect_code 2 extracct -c nul3.yml config 2>err &&
	grep "^extracct: nul3.yml: line 1, column 1: a key holds a NUL byte$" err
'

# Root obeys the file (the database it writes, the server it pushes to,
# the pid rotate signals): one someone else could write is refused.
test_expect_success 'a world-writable configuration is refused, exit 2' '
	printf "host: h1\n" >ww.yml && chmod 666 ww.yml &&
	test_expect_code 2 extracct -c ww.yml config >out 2>err &&
	cat err &&
	grep "^extracct: configuration ww.yml is writable by anyone (mode 0666); refusing it$" err &&
	test ! -s out &&
	chmod 644 ww.yml && extracct -c ww.yml config >out &&
	grep "^host: \"h1\"$" out
'

test_expect_success 'a configuration in a directory anyone can write: refused unless sticky' '
	mkdir pub && chmod 777 pub && printf "host: h1\n" >pub/c.yml &&
	test_expect_code 2 extracct -c pub/c.yml config 2>err &&
	cat err &&
	grep "^extracct: configuration pub/c.yml: its parent $TRASH/pub is writable by anyone and not sticky (mode 0777); refusing it$" err &&
	chmod 1777 pub && extracct -c pub/c.yml config >out &&
	grep "^host: \"h1\"$" out
'

if [ "$(id -u)" -eq 0 ]; then
test_expect_success 'a configuration another user owns is refused, exit 2' '
	printf "database: /tmp/theirs.db\n" >theirs.yml && chown nobody theirs.yml &&
	test_expect_code 2 extracct -c theirs.yml config >out 2>err &&
	cat err &&
	grep "^extracct: configuration theirs.yml is owned by uid 65534, neither us (uid 0) nor root; refusing it$" err &&
	test ! -s out
'
else
	test_skip 'a configuration another user owns' 'needs root to chown'
fi

test_expect_success 'config shows where central goes, never its password' '
	for c in "postgresql://fleet:s3cret@db.example/central" \
	    "postgres://fleet@db.example/central?sslmode=require&password=s3cret" \
	    "host=db.example user=fleet password=s3cret dbname=central" \
	    "host=db.example password = '"'"'s3 cret'"'"' sslpassword=s3cret" \
	    "dbname=postgresql://fleet:s3cret@db.example/central" \
	    "host='"'"'unclosed password=s3cret"; do
		printf "central: \"%s\"\n" "$c" >pw.yml &&
		extracct -c pw.yml config >out &&
		grep "^central: " out >>got || return 1
	done &&
	cat got &&
	! grep s3 got &&
	cat >expect <<-\EOF &&
	central: "postgresql://fleet:***@db.example/central"
	central: "postgres://fleet@db.example/central?sslmode=require&password=***"
	central: "host=db.example user=fleet password=*** dbname=central"
	central: "host=db.example password = *** sslpassword=***"
	central: "dbname=postgresql://fleet:***@db.example/central"
	central: "host=***"
	EOF
	test_cmp expect got
'

test_expect_success 'the configuration reaches the commands' '
	mkdir -m 700 spool &&
	printf "spool_dir: %s/spool\ndatabase: %s/cfg.db\noutput_dir: \"\"\n" "$TRASH" "$TRASH" >run.yml &&
	extracct -c run.yml run --no-rotate >out &&
	grep "^snap: [0-9]* processes into $TRASH/spool/snap-" out &&
	extracct -c run.yml ingest "$SAMPLES/real/proc.exacct" >out &&
	test "$(sqlite3 cfg.db "SELECT count(*) FROM procs")" -eq 2 &&
	extracct -c run.yml report --by user >out &&
	grep "^# usage by user" out
'

test_expect_success 'a missing configuration file named with -c is an error' '
	test_expect_code 3 extracct -c nowhere.yml config 2>err &&
	grep "nowhere.yml: No such file or directory" err
'

test_done
