#!/bin/sh
# The command line: every command's --help, the version,
# the original flags only in their documented forms, one default
# database, and report's usage errors.
. "$(dirname "$0")/../lib.sh"

COMMANDS="dump text check gen ingest merge config snap acctd rotate run report"
PROC=$SAMPLES/real/proc.exacct

# The help text of one option of a command's --help: its row and the
# lines under it, joined ("--db" finds "  --db FILE  the database...").
opt_help() {
	awk -v opt="$2" '
	    /^  -/ { on = 0
		n = split($0, w, /[ ,]+/)
		for (i = 1; i <= n; i++) if (w[i] == opt) on = 1 }
	    /^$/ { on = 0 }
	    on { s = $0; gsub(/  +/, " ", s); printf "%s", s }' "$1"
}

# Everything stays in the trash directory: spool, database, the file
# accounting would go to, acctd's pidfile.
test_expect_success 'setup: a configuration of our own' '
	mkdir -m 700 spool &&
	mkdir -m 750 db outd &&
	cat >c.yml <<-EOF
	spool_dir: $TRASH/spool
	database: $TRASH/db/x.db
	pacct_file: $TRASH/no-pacct
	acctd_pidfile: $TRASH/acctd.pid
	EOF
'

# 5. --help
test_expect_success 'every command: --help and -h on stdout, exit 0' '
	for c in $COMMANDS; do
		extracct $c --help >out.$c 2>err &&
		test_cmp /dev/null err &&
		sed -n 1p out.$c >first &&
		grep "^usage: extracct $c" first &&
		grep "^  -h, --help  *print this help and exit$" out.$c &&
		extracct $c -h >h.$c &&
		test_cmp out.$c h.$c || return 1
	done
'

test_expect_success 'extracct help CMD is CMD --help; help alone, the summary' '
	for c in $COMMANDS; do
		extracct help $c >help.$c &&
		extracct $c --help >out.$c &&
		test_cmp out.$c help.$c || return 1
	done &&
	extracct help >all &&
	extracct --help >all2 &&
	test_cmp all all2 &&
	test_expect_code 2 extracct help frobnicate 2>err &&
	grep "help: '\''frobnicate'\'' is not a command" err
'

test_expect_success '--help lists every option of the usage line, with its default' '
	for c in $COMMANDS; do
		extracct $c --help >out.$c &&
		# The usage line (and its continuation lines)...
		sed -n "1,/^$/p" out.$c |
		    grep -o -- "-[-a-zA-Z][-a-z]*" | sort -u >used.$c &&
		# ...against the rows of the option list.
		grep "^  -" out.$c | grep -o -- "^  -[^ ]*\( --[^ ]*\)\?" |
		    tr -s " ," "\n\n" | grep . | sort -u >rows.$c &&
		comm -23 used.$c rows.$c >missing.$c &&
		test_cmp /dev/null missing.$c &&
		for o in $(grep -v "^-h$\|^--help$" rows.$c); do
			opt_help out.$c $o >row &&
			grep -q "(default: \|(required)\|default: \|^ *-[-a-z, ]* [A-Z]* *the older name of --" row ||
			{ echo "$c $o: no default: $(cat row)"; return 1; }
		done || return 1
	done
'

test_expect_success '--help gives the units and ranges of numbers' '
	extracct run --help >run &&
	opt_help run --retention-days | grep "0 to 36500 days" &&
	opt_help run --text-retention-days | grep "0 to 36500 days" &&
	extracct ingest --help >ingest &&
	opt_help ingest --heartbeat-hours | grep "0 to 87600 hours" &&
	opt_help ingest --chunk | grep "every N records, 1 to 10000000" &&
	extracct acctd --help >acctd &&
	opt_help acctd --rcvbuf | grep "4096 to 1073741824 bytes" &&
	extracct report --help >report &&
	opt_help report --tolerance | grep "a fraction from 0 up to 1" &&
	opt_help report --db | grep "/var/lib/extracct/extracct.db"
'

test_expect_success 'a bad option: the usage line on stderr, exit 2' '
	for c in $COMMANDS; do
		test_expect_code 2 extracct $c --frobnicate >out 2>err &&
		test_cmp /dev/null out &&
		grep "^extracct: usage: extracct $c" err || return 1
	done
'

# 6. the version
test_expect_success 'VERSION holds the version debian/changelog has' '
	sed -n "1s/^extracct (\([^)]*\)).*/\1/p" "$SRC/debian/changelog" >expect &&
	test -s expect &&
	test_cmp expect "$SRC/VERSION"
'

test_expect_success '--version and -V: the derived version and the schema' '
	extracct ingest --db v.db "$PROC" >/dev/null &&
	schema=$(sqlite3 v.db "PRAGMA user_version") &&
	extracct --version >v &&
	extracct -V >V &&
	test_cmp v V &&
	v=$(sed -n "s/^extracct \([^ ]*\) (database schema $schema)$/\1/p" v) &&
	test -n "$v" &&
	base=$(cat "$SRC/VERSION") &&
	if [ -e "$SRC/.git" ] && command -v git >/dev/null &&
	    ! git -C "$SRC" describe --tags >/dev/null 2>&1; then
		# No tag: VERSION and the commit it was built from.
		h=$(echo "$v" | sed -n "s/^$base-g\([0-9a-f]\{7,\}\)\(-dirty\)\{0,1\}$/\1/p") &&
		test -n "$h" &&
		git -C "$SRC" cat-file -e "$h^{commit}"
	elif [ ! -e "$SRC/.git" ]; then
		test "$v" = "$base"
	fi
'

test_expect_success 'the original flags: -v alone is a usage error, and runs nothing' '
	test_expect_code 2 extracct -c c.yml -v >out 2>err &&
	grep "^extracct: -v: the original flags act only with -w (snapshot) or -r (rotate)" err &&
	grep "usage: extracct -vwr \[FILE | -a DIR\]; the version: extracct -V$" err &&
	test_cmp /dev/null out &&
	test ! -e db/x.db &&
	ls spool >left &&
	test_cmp /dev/null left &&
	for f in -a "-va outd" -x "-vwr a b" "-wa outd $PROC" "-wr -a"; do
		test_expect_code 2 extracct -c c.yml $f 2>err &&
		grep "usage: extracct -vwr \[FILE | -a DIR\]" err ||
		return 1
	done &&
	test ! -e db/x.db
'

test_expect_success 'the original flags: -war DIR and -vwr FILE start run' '
	extracct -c c.yml -war outd >log 2>err &&
	grep "^snap: [0-9]* processes into $TRASH/spool/snap-" log &&
	grep "^rotate: process accounting is not writing to $TRASH/no-pacct" log &&
	test -f db/x.db &&
	extracct -c c.yml -vwr "$PROC" >log 2>err &&
	grep "^$PROC: bytes 0-[0-9]*: 2 records" log &&
	extracct -c c.yml -r "$PROC" >log 2>err &&
	grep "^$PROC: already ingested" log &&
	! grep "^snap:" log
'

# 7. one default database
test_expect_success 'every command defaults to the configured database' '
	rm -f db/x.db &&
	extracct -c c.yml config >cfg &&
	grep -x "database: \"$TRASH/db/x.db\"" cfg &&
	extracct -c c.yml ingest "$PROC" >/dev/null &&
	extracct -c c.yml report --by user >rep &&
	grep "^0 " rep &&
	extracct -c c.yml run --no-snap --no-rotate >log &&
	test "$(sqlite3 db/x.db "SELECT count(*) FROM procs")" -eq 2
'

if [ -e /etc/extracct.yml ] || [ -e /var/lib/extracct ]; then
	test_skip 'the built-in default database' \
	    'this host has /etc/extracct.yml or /var/lib/extracct'
else
	test_expect_success 'without a configuration: /var/lib/extracct/extracct.db, not ./extracct.db' '
		extracct config >cfg &&
		grep -x "database: \"/var/lib/extracct/extracct.db\"" cfg &&
		extracct ingest --db extracct.db "$PROC" >/dev/null &&
		test_expect_code 3 extracct report >out 2>err &&
		test_cmp /dev/null out &&
		grep -x "extracct: /var/lib/extracct/extracct.db: No such file or directory (no database there: name one with --db FILE, or database: in the configuration)" err &&
		rm extracct.db &&
		test_expect_code 3 extracct ingest "$PROC" >out 2>err &&
		grep -x "extracct: /var/lib/extracct/extracct.db: directory /var/lib/extracct does not exist (create it, or name another database with --db FILE, or database: in the configuration)" err &&
		test ! -e extracct.db
	'
fi

test_expect_success 'a missing database: named, with how to choose another' '
	test_expect_code 3 extracct report --db nope.db >out 2>err &&
	test_cmp /dev/null out &&
	grep -x "extracct: nope.db: No such file or directory (no database there: name one with --db FILE, or database: in the configuration)" err &&
	test_expect_code 3 extracct ingest --db no/such/dir.db "$PROC" 2>err &&
	grep "^extracct: no/such/dir.db: directory no/such does not exist" err
'

# 8. report's usage errors
test_expect_success 'report --tz: an unknown zone, in every mode' '
	for mode in "--db v.db" "--db v.db --capture" "--db v.db --energy" "$PROC"; do
		test_expect_code 2 extracct report --tz Mars/Olympus $mode >out 2>err &&
		test_cmp /dev/null out &&
		grep "^extracct: --tz '\''Mars/Olympus'\'': no such time zone" err ||
		return 1
	done &&
	printf "database: %s/v.db\ntimezone: Mars/Olympus\n" "$TRASH" >tz.yml &&
	test_expect_code 2 extracct -c tz.yml report 2>err &&
	grep "timezone" err
'

test_expect_success 'report --from not before --to: exit 2, no empty table' '
	test_expect_code 2 extracct report --db v.db --from 2005-03-02 --to 2005-03-01 >out 2>err &&
	test_cmp /dev/null out &&
	grep -x "extracct: --from 2005-03-02 is not before --to 2005-03-01: the window would be empty" err &&
	test_expect_code 2 extracct report --db v.db --from @1109813617 --to @1109813617 >out 2>err &&
	test_cmp /dev/null out &&
	test_expect_code 2 extracct report --capture --db v.db --from 2005-03-02 --to 2005-03-01 2>err &&
	test_expect_code 2 extracct report --from 2005-03-02 --to 2005-03-01 "$PROC" 2>err &&
	extracct report --db v.db --from 2005-01-01 --to 2006-01-01 --format csv >ok &&
	test "$(line_count ok)" -eq 3
'

test_expect_success '-c before the command or among its options, once' '
	extracct gen --kind proc --records 20 -o c.log &&
	extracct ingest --db c.db c.log >/dev/null &&
	printf "database: %s\n" "$PWD/c.db" >c.yml &&
	extracct -c c.yml report --by host >before &&
	extracct report --by host -c c.yml >after &&
	test_cmp before after &&
	extracct report --config c.yml --by host >after &&
	test_cmp before after &&
	grep "^host " before &&
	test_expect_code 2 extracct -c c.yml report -c c.yml 2>err &&
	grep "before the command or after it, not both" err &&
	test_expect_code 2 extracct report -c c.yml --config=c.yml 2>err &&
	grep "one configuration file, not two" err &&
	printf "bogus_key: 1\n" >bad.yml &&
	test_expect_code 2 extracct report --by host -c bad.yml 2>err &&
	grep "bogus_key" err
'

test_expect_success 'older spellings: still taken, not in the usage line' '
	extracct acctd --help >h &&
	sed -n 1p h >u &&
	grep -- "--spool DIR" u && grep -- "--acctd-pidfile FILE" u &&
	! grep -- "--pidfile\|-o DIR" u &&
	opt_help h --pidfile | grep "older name of --acctd-pidfile" &&
	extracct push --help >h &&
	grep -- "--central CONNINFO" h &&
	! sed -n 1p h | grep -- "--to" &&
	opt_help h --to | grep "older name of --central" &&
	extracct rotate --help >h &&
	opt_help h --acctd-pidfile >r &&
	extracct acctd --help >h &&
	opt_help h --acctd-pidfile | sed "s/ --pidfile FILE .*//" >a &&
	test_cmp r a
'

test_expect_success 'report: a stray operand is an error, not FILE mode' '
	test_expect_code 2 extracct report --by user today >out 2>err &&
	test_cmp /dev/null out &&
	grep -x "extracct: report: FILE mode takes log files; '\''today'\'' does not exist" err &&
	echo "not a log" >notes.txt &&
	test_expect_code 2 extracct report notes.txt >out 2>err &&
	test_cmp /dev/null out &&
	grep "^extracct: report: FILE mode takes log files; '\''notes.txt'\'' is not one: " err &&
	test_expect_code 2 extracct report . >out 2>err &&
	grep "'\''.'\'' is not a regular file" err &&
	test_expect_code 2 extracct report "$PROC" missing >out 2>err &&
	test_cmp /dev/null out &&
	test_expect_code 2 extracct report --db v.db "$PROC" >out 2>err &&
	test_cmp /dev/null out &&
	grep "^extracct: report: --db or --central and FILE operands" err &&
	test_expect_code 2 extracct report "$SAMPLES/energy/cpu_energy_rapl_msr_component.log" >out 2>err &&
	test_cmp /dev/null out &&
	grep "is a metric-provider stream" err
'

test_expect_success 'report FILE mode still reads logs, and an empty one is damage' '
	extracct report --by command --format csv "$PROC" >f.csv &&
	grep "^acctadm," f.csv &&
	: >empty &&
	test_expect_code 1 extracct report empty "$PROC" >out 2>err &&
	grep "^#" out
'

# Read-side commands create nothing, and a refused option says which
# option and what it takes.
test_expect_success 'rollup on a database that is not there creates none' '
	test_expect_code 3 extracct rollup --rebuild --db typo.db 2>err &&
	grep "rollup: typo.db: no such database" err &&
	! test -e typo.db
'

test_expect_success '--tolerance without --capture, --limit -1: refused, saying why' '
	extracct gen --kind pacct --records 20 -o cli.pacct &&
	extracct ingest --db cli.db --host h cli.pacct >/dev/null &&
	test_expect_code 2 extracct report --db cli.db --tolerance 0.1 2>err &&
	grep -- "--tolerance: .* it goes with --capture only" err &&
	test_expect_code 2 extracct report --db cli.db --limit -1 2>err &&
	grep -- "--limit .-1.: too small (at least 1, no sign)" err
'

test_done
