#!/bin/sh
# snap: a system record and a partial record per live process, readable
# by every reader; appended, one write per record; never through a link.
. "$(dirname "$0")/../lib.sh"

test_expect_success 'snap writes a header, a system record and partials' '
	extracct snap -o s.exacct &&
	extracct check s.exacct >out &&
	grep "s.exacct: ok: " out &&
	extracct dump s.exacct >dump &&
	test "$(grep -c "	group-sysload " dump)" -eq 1 &&
	grep "	 creator  *	\"extracct\"$" dump &&
	test "$(grep -c "	group-proc-partial " dump)" -gt 3
'

test_expect_success 'this shell is in it, with its parent, start and command' '
	extracct snap -o me.exacct &&
	extracct text -H -k proc me.exacct >out &&
	awk -v pid=$$ -v ppid=$PPID "\$4 == pid && \$5 == ppid && \$3 == \"-1.0000\" { found = 1 } END { exit !found }" out
'

test_expect_success 'pid 1 is in it, with its command' '
	extracct snap -o p1.exacct &&
	extracct dump p1.exacct >d &&
	awk "/^ *1000	/ { pid = \$3 } /^ *1006	/ && pid == 1 { print }" d >cmd &&
	test -s cmd
'

test_expect_success 'appending: a second snapshot, one header' '
	extracct snap -o a.exacct && extracct snap -o a.exacct &&
	extracct dump a.exacct >d &&
	test "$(grep -c "	group-header " d)" -eq 1 &&
	test "$(grep -c "	group-sysload " d)" -eq 2
'

test_expect_success 'ingest: intervals between the snapshots, a sysload row each' '
	extracct ingest --db s.db a.exacct >out &&
	test "$(sqlite3 s.db "SELECT count(*) FROM sysload")" -eq 2 &&
	test "$(sqlite3 s.db "SELECT count(*) FROM capture")" -eq 1 &&
	test "$(sqlite3 s.db "SELECT count(*) FROM proc_last")" -gt 3
'

test_expect_success 'never through a symbolic link' '
	echo keep >target && ln -s target link &&
	test_expect_code 3 extracct snap -o link 2>err &&
	echo keep >expect && test_cmp expect target
'

test_expect_success 'dump names the local catalog' '
	extracct dump s.exacct >d &&
	grep "^ *1000201	 snapshot-time-ns " d &&
	grep "^ *100020a	 clk-tck  *	[0-9]" d
'

test_done
