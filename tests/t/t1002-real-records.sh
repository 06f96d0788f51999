#!/bin/sh
# The real Solaris 10 records of Adrian Cockcroft's exdump examples,
# encoded with the writer
# (sample-data/real/*.spec): dump -v shows the published values, and text
# reproduces the original extracct line for pid 1679.
. "$(dirname "$0")/../lib.sh"

# The host "crun" was on US Pacific time in 2005 (DST rules of the day).
export TZ=PST8PDT,M4.1.0,M10.5.0
ids="--passwd $SAMPLES/real/passwd --group $SAMPLES/real/group --project $SAMPLES/real/project"

# "id name value" from the published listing (groups: the bracket text).
listing_values() {
	awk '{ v = $3; if ($3 ~ /^\[/) { v = $3; for (i = 4; i <= NF && $i !~ /\]$/; i++) v = v " " $i; v = v " " $i }
	       print $1, $2, v }' "$1"
}

# The same from our dump (TAB-separated; the value is the first word).
dump_values() {
	awk -F '	' '{ gsub(/ /, "", $2); v = $3; sub(/ +$/, "", v);
	       if (v !~ /^\[/) sub(/ .*/, "", v); print $1, $2, v }' "$1" |
	sed 's/^ *//'
}

# "id decoded" where the listing decodes a value; dates as ISO.
listing_decoded() {
	awk 'NF > 3 && $3 !~ /^\[/ { d = $4; for (i = 5; i <= NF; i++) d = d " " $i
	       if (d ~ /^[0-9][0-9]\/[0-9][0-9]\/[0-9][0-9] /) {
	           split(substr(d, 1, 8), p, "/"); d = "20" p[3] "-" p[1] "-" p[2] substr(d, 9) }
	       if (d == "exit") d = "exit 0"
	       print $1, d }' "$1"
}

# Our decoded column, for the ids the listing decodes too ($2).
dump_decoded() {
	awk -F '	' '{ v = $3; if (v ~ /^\[/ || length(v) <= 16) next
	       print $1, substr(v, 17) }' "$1" | sed 's/^ *//' |
	awk 'NR == FNR { want[$1] = 1; next } want[$1]' "$2" -
}

test_expect_success 'process records: every id, name and value as published' '
	extracct dump -v $ids "$SAMPLES/real/proc.exacct" >dump &&
	listing_values "$FIXTURES/real-proc.listing" >expect &&
	dump_values dump >actual &&
	test_cmp expect actual
'

test_expect_success 'process records: names, times, flags, wait status decoded' '
	extracct dump -v $ids "$SAMPLES/real/proc.exacct" >dump &&
	listing_decoded "$FIXTURES/real-proc.listing" >expect &&
	dump_decoded dump expect >actual &&
	test_cmp expect actual &&
	grep "^ *100f	 tty-major  *	4294967295      none$" dump
'

test_expect_success 'task record: as published (members keyed by id)' '
	extracct dump -v $ids "$SAMPLES/real/task.exacct" >dump &&
	sed 1,5d dump >records &&
	listing_values "$FIXTURES/real-task.listing" >expect &&
	dump_values records >actual &&
	test_cmp expect actual &&
	listing_decoded "$FIXTURES/real-task.listing" >expect &&
	dump_decoded records expect >actual &&
	test_cmp expect actual
'

test_expect_success 'flow records: as published' '
	extracct dump -v $ids "$SAMPLES/real/flow.exacct" >dump &&
	sed 1,5d dump >records &&
	listing_values "$FIXTURES/real-flow.listing" >expect &&
	dump_values records >actual &&
	test_cmp expect actual &&
	listing_decoded "$FIXTURES/real-flow.listing" | grep -v "^300[01] " >expect &&
	dump_decoded records expect >actual &&
	test_cmp expect actual
'

test_expect_success 'record sizes match the published example (543 bytes)' '
	test "$(wc -c <"$SAMPLES/real/proc.exacct")" -eq $((102 + 543 + 571))
'

test_expect_success 'pid 1679: the original extracct line, value by value' '
	extracct text -k proc "$SAMPLES/real/proc.exacct" >out &&
	grep " 1679 " out >line &&
	read ts clk dur pid ppid uid usr sys majf rw vcx icx sig syc ar mr cmd <line &&
	test "$ts $clk" = "1109810711 16:45:11" &&
	test "$(printf "%.2f" "$dur")" = 416930.16 &&
	test "$pid $ppid $uid $majf" = "1679 1647 100 0" &&
	test "$rw $vcx $icx $sig" = "15.11 0.02 0.00 0.00" &&
	test "$syc $ar $mr $cmd" = "0.6 0.6 26.4 run-mozilla.sh"
'

test_expect_success 'text outputs match the committed ones' '
	for k in proc task flow; do
		extracct text "$SAMPLES/real/$k.exacct" >actual &&
		test_cmp "$SAMPLES/real/$k.txt" actual || return 1
		extracct dump -v $ids "$SAMPLES/real/$k.exacct" >actual &&
		test_cmp "$SAMPLES/real/$k.dump-v" actual || return 1
	done
'

test_expect_success 'flow halves: owner only on the outbound half' '
	extracct text -H "$SAMPLES/real/flow.exacct" >out &&
	grep "^1110482732 11:25:32 2 - - tcp 192.0.2.80:80 198.51.100.7:43727 10 3447 acct$" out &&
	grep "^1110482732 11:25:32 2 100 10 tcp 198.51.100.7:43727 192.0.2.80:80 5 4561 acct$" out
'

test_done
