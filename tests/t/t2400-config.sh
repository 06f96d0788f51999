#!/bin/sh
# The configuration file: defaults, overrides, errors with line and
# column, and the example shipped in docs/ is valid and equals the
# defaults.
. "$(dirname "$0")/../lib.sh"

test_expect_success 'the shipped example is valid and says the defaults' '
	extracct -c "$SRC/docs/extracct.yml.example" config >example &&
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
