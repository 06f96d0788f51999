#!/bin/sh
# report --by command on a kernel-written pacct file against GNU acct's
# sa: the same rows, a process that forked and never exec'd (AFORK)
# apart under its name with a '*' after it, as sa counts it; from the
# file and from a database.  And exacct's FORK flag, the same bit.
. "$(dirname "$0")/../lib.sh"

# sa's rows: name|calls, every name (-a: none folded into ***other),
# from this file only (-i: no summary file), its totals line (no name)
# left out.  The file holds the whole machine's exits: only plain names
# are compared, as CSV escaping and sa's raw bytes would differ.
peer() {
	sa -a -i "$1" | awk 'NF >= 6 { print $NF "|" $1 }' | plain
}

# Ours, from the CSV: command|calls; from a log, or (more options) a
# database.
ours() {
	extracct report --by command --format csv "$@" >ours.csv &&
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    { print $c["command"] "|" $c["calls"] }' ours.csv | plain
}

plain() {
	grep -E '^[A-Za-z0-9._+-]+[*]?[|]' | sort
}

# sa's average memory, k (its mean of ac_mem divided by 4, the KiB a
# 4 KiB page holds: sa 6.6 on Linux), and ours (the mean in KiB), as
# command|k.
peer_mem() {
	sa -a -i "$1" | awk 'NF >= 6 { k = $5; sub(/k$/, "", k); print $NF "|" k }' |
	    plain
}
ours_mem() {
	extracct report --by command --format csv "$@" >ours.csv &&
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    { print $c["command"] "|" $c["avg_mem_kib"] }' ours.csv | plain
}

# An exacct process record: group $1 (partial or final), pid $2, finish
# $3 s (start 1000 s), $4 s of user CPU, acctflags $5, command job.
exrec() {
	cat <<-EOS
	group $1
	  uint 0x30001000 $2
	  string 0x60001006 job
	  uint 0x40001007 1000
	  uint 0x40001009 $3
	  uint 0x4000100b $4
	  uint 0x3000101d $5
	end
	EOS
}

# pid 77 seen alive at 1200 s (1 s of CPU), then its exit at 1500 s (3
# s), forked and never exec'd; 78 seen only at its exit, forked too; 79
# exec'd.
test_expect_success 'setup: exacct exits with the FORK flag' '
	{ echo "header kernel SunOS hostA" &&
	  exrec 0xf0000106 77 1200 1 1 &&
	  exrec 0xf0000100 77 1500 3 1 &&
	  exrec 0xf0000100 78 1100 2 1 &&
	  exrec 0xf0000100 79 1100 1 0; } >fork.spec &&
	extracct_test encode fork.spec fork.exacct
'

# command|calls|cpu_user_s of a report's CSV.
keyed() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    { print $c["command"] "|" $c["calls"] "|" $c["cpu_user_s"] }' |
	sort
}

test_expect_success 'exacct, from the log: an exit with FORK is COMMAND*' '
	extracct report --by command --format csv fork.exacct >out &&
	keyed <out >actual &&
	printf "%s\n" "job*|2|5.000" "job|1|1.000" | sort >expect &&
	test_cmp expect actual
'

# The exit interval only: 77 was counted under job while alive.
test_expect_success 'exacct, from a database: the exit interval is COMMAND*' '
	extracct ingest --db f.db fork.exacct >out &&
	printf "%s\n" "job*|2|4.000" "job|1|2.000" | sort >expect &&
	extracct report --db f.db --by command --format csv >out &&
	keyed <out >actual &&
	test_cmp expect actual &&
	extracct report --db f.db --by command --format csv --scan >out &&
	keyed <out >actual &&
	test_cmp expect actual &&
	extracct report --db f.db --by command --format csv --scan \
	    --every hour >out &&
	keyed <out >actual &&
	grep "^job[*]|2|4.000$" actual
'

acct_note_state

if ! command -v accton >/dev/null 2>&1 || ! command -v sa >/dev/null 2>&1; then
	test_skip 'report against sa' 'accton/sa missing (apt-get install acct)'
elif ! : >kernel.acct || ! accton "$TRASH/kernel.acct" >/dev/null 2>err.accton; then
	test_skip 'report against sa' "the kernel refused accounting: $(cat err.accton)"
	acct_restore
else
	trap 'acct_restore; rm -rf "$TRASH"' EXIT
	trap 'acct_restore; exit 130' INT TERM
	# The workload: shells whose subshells fork and never exec (sh*),
	# and commands they fork and exec (sleep, true).
	i=0
	while [ $i -lt 20 ]; do
		sh -c '( : ); ( sleep 0 & wait ); /bin/true'
		i=$((i + 1))
	done
	acct_restore
	trap 'rm -rf "$TRASH"' EXIT

	test_expect_success 'kernel pacct: rows by command as sa counts them' '
		peer kernel.acct >expect &&
		ours kernel.acct >actual &&
		if ! grep "^sh[*]|" expect >/dev/null ||
		    ! grep "^sh|" expect >/dev/null; then
			echo "sa shows no sh and sh* rows:"; cat expect; false
		fi &&
		test_cmp expect actual
	'

	test_expect_success 'kernel pacct: the same rows from a database' '
		extracct ingest --db k.db --host here kernel.acct >out &&
		ours --db k.db >actual &&
		test_cmp expect actual &&
		ours --db k.db --scan >actual &&
		test_cmp expect actual
	'

	# ac_mem: KiB in the kernel's v3 record; sa prints its mean / 4,
	# rounded, so ours / 4 is within 1 of sa's k, command by command.
	test_expect_success 'kernel pacct: avg_mem_kib is sa'"'"'s k column' '
		peer_mem kernel.acct >sa_mem &&
		ours_mem kernel.acct >our_mem &&
		test "$(line_count sa_mem)" -gt 2 &&
		awk -F"|" "NR == FNR { k[\$1] = \$2; next }
		    { n++; d = \$2 / 4 - k[\$1]; if (!(\$1 in k) || \$2 == \"\" ||
		      d > 1 || d < -1) { print \"differs: \" \$1 \" ours \" \$2 \" KiB / 4, sa \" k[\$1] \"k\"; bad++ } }
		    END { exit bad > 0 || n < 3 }" sa_mem our_mem
	'

	test_expect_success 'kernel pacct: ac_mem stored, per process' '
		sqlite3 k.db "SELECT count(*), count(mem_kb) FROM procs" >counts &&
		read all mem <counts || true; echo "procs|with mem: $(cat counts)" &&
		test "$(cut -d"|" -f1 counts)" -eq "$(cut -d"|" -f2 counts)" &&
		test "$(cut -d"|" -f2 counts)" -gt 0 &&
		sqlite3 k.db "SELECT command, CAST(round(avg(mem_kb)) AS INTEGER) FROM procs
		    WHERE acctflags % 2 = 0 GROUP BY command" | plain >db_mem &&
		ours_mem kernel.acct | grep -v "[*]|" >file_mem &&
		test_cmp file_mem db_mem
	'
fi

test_done
