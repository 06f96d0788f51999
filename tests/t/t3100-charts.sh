#!/bin/sh
# report --format svg|html: CPU over time stacked by the
# top 8 users or commands and "other", the capture ratio against 1.0,
# energy by application as bars.  On fixed data (extracct gen, a
# snapshot log written here, sample-data/energy), the files are valid
# XML, and their legends, axes, series and points are what the data
# implies, computed here from the database; the page, rendered by
# headless Chromium, is a drawn chart, not a blank page.
. "$(dirname "$0")/../lib.sh"

# The class="K" texts of an SVG, one a line, in document order.
texts() {
	grep -o "class=\"$1\"[^>]*>[^<]*<" "$2" | sed 's/^[^>]*>//; s/<$//'
}

# A snapshot log from lines "sys SECOND BUSY_TICKS" and
# "proc PID COMMAND START_S SECOND SYS_CENTISECONDS" and
# "rapl SECOND PACKAGE_UJ", as snap writes them
# on a 2-CPU host at 100 Hz (t2230 has the same writer): snaplog IN OUT
# [HOST].
T0=1796000400			# 2026-11-30 01:00:00 UTC
snaplog() {
	awk -v t0=$T0 -v host="${3:-caphost}" '
	BEGIN { print "header library extracct " host }
	$1 == "sys" {
		print "group 0xf1000001"
		printf "  uint 0x41000201 %d000000000\n", t0 + $2
		printf "  uint 0x41000202 %d\n", $3
		print "  uint 0x41000203 0"
		print "  uint 0x41000204 0"
		printf "  uint 0x41000205 %d\n", 200 * $2 - $3
		print "  uint 0x3100020a 100"
		printf "  uint 0x4100020b %d\n", t0 - 3600
		print "  uint 0x3100020c 2"
		print "end"
	}
	$1 == "rapl" {
		print "group 0xf1000004"
		printf "  uint 0x41000501 %d000000000\n", t0 + $2
		print "  string 0x61000502 intel-rapl:0"
		print "  string 0x61000503 package-0"
		printf "  uint 0x41000504 %s\n", $3
		print "  uint 0x41000505 262143328850"
		printf "  uint 0x41000506 %d\n", t0 - 3600
		print "  uint 0x41000507 150000000"
		print "end"
	}
	$1 == "proc" {
		print "group 0xf0000106"
		printf "  uint 0x30001000 %d\n", $2
		print "  uint 0x30001001 0"
		print "  uint 0x30001002 0"
		print "  uint 0x4000100b 0"
		print "  uint 0x4000100c 0"
		printf "  uint 0x4000100d %d\n", int($6 / 100)
		printf "  uint 0x4000100e %d0000000\n", $6 % 100
		printf "  uint 0x40001007 %d\n", t0 + $4
		print "  uint 0x40001008 0"
		printf "  uint 0x40001009 %d\n", t0 + $5
		print "  uint 0x4000100a 0"
		printf "  string 0x60001006 %s\n", $3
		print "  uint 0x3000101f 1"
		print "end"
	}' "$1" >"$1.spec" && extracct_test encode "$1.spec" "$2"
}

test_expect_success 'setup: usage, snapshots, energy' '
	extracct gen --kind proc --records 3000 --seed 7 -o g.exacct &&
	extracct ingest --db g.db g.exacct >/dev/null &&
	: >cap.in &&
	s=0 && cs=0 &&
	while [ $s -le 21600 ]; do
		# One CPU busy throughout; the process CPU of "work" is all
		# of it for 3 hours, then half of it: ratios 1.0, then 0.5.
		# The package draws 10 W.
		echo "sys $s $((100 * s))" >>cap.in &&
		echo "proc 100 work -1 $s $cs" >>cap.in &&
		echo "rapl $s $((10000000 * s))" >>cap.in &&
		if [ $s -lt 10800 ]; then cs=$((cs + 60000)); else cs=$((cs + 30000)); fi &&
		s=$((s + 600)) || return 1
	done &&
	snaplog cap.in cap.exacct &&
	extracct ingest --db c.db cap.exacct >/dev/null &&
	test "$(sqlite3 c.db "SELECT count(*) FROM capture")" -eq 36 &&
	extracct ingest --db e.db "$SAMPLES/energy/energy.exacct" >/dev/null
'

# The rollup rows of the hours of the open window, the tables' (the
# rollups' first hour to their last: g.db's 22 days are one cluster),
# with cpu their CPU ns: each interval split over the hours it spans.
RU_WIN="(SELECT *, (coalesce(cpu_user_ns_g, 0) + coalesce(cpu_sys_ns_g, 0))
    * 1000000000 + coalesce(cpu_user_ns_r, 0) + coalesce(cpu_sys_ns_r, 0) AS cpu
    FROM v_usage_rollup WHERE hour_s >= (SELECT min(hour_s) FROM v_usage_rollup)
    AND hour_s <= (SELECT max(hour_s) FROM v_usage_rollup))"

test_expect_success 'CPU by command: valid SVG, the top 8 and other in the legend' '
	extracct report --db g.db --format svg --by command >cpu.svg &&
	xmllint --noout cpu.svg &&
	head -n 1 cpu.svg | grep "^<?xml version=\"1.0\" encoding=\"UTF-8\"?>$" &&
	sqlite3 g.db "SELECT command FROM $RU_WIN GROUP BY command
	    ORDER BY sum(cpu) DESC, command LIMIT 8" >top &&
	n=$(sqlite3 g.db "SELECT count(DISTINCT command) FROM $RU_WIN") &&
	test "$n" -gt 9 &&
	{ echo "other ($((n - 8)) commands)" && tac top; } >expect &&
	texts legend cpu.svg >actual &&
	test_cmp expect actual &&
	test "$(grep -c "class=\"series\"" cpu.svg)" -eq 9 &&
	texts legend-head cpu.svg >head && echo command >expect && test_cmp expect head
'

test_expect_success 'CPU chart: title, hosts and the tables window, axes with units, date ticks' '
	texts title cpu.svg >t && echo "CPU by command" >expect && test_cmp expect t &&
	# The window is the tables'"'"': first rollup hour to the end of the last.
	lo=$(sqlite3 g.db "SELECT strftime(\"%Y-%m-%d %H:%M:%S\", min(hour_s), \"unixepoch\") FROM v_usage_rollup") &&
	hi=$(sqlite3 g.db "SELECT strftime(\"%Y-%m-%d %H:%M:%S\", max(hour_s) + 3600, \"unixepoch\") FROM v_usage_rollup") &&
	texts subtitle cpu.svg >sub &&
	echo "host genhost; $lo to $hi; time zone UTC" >expect &&
	test_cmp expect sub &&
	# 22 days: more than 3, so a bucket a day, and date ticks.
	texts ylabel cpu.svg >y && echo "CPUs busy (mean over each day)" >expect &&
	test_cmp expect y &&
	texts xlabel cpu.svg >x &&
	echo "time in UTC; values apportioned over the hours intervals span" >expect &&
	test_cmp expect x &&
	texts xtick cpu.svg >ticks &&
	test "$(line_count ticks)" -ge 3 && test "$(line_count ticks)" -le 9 &&
	! grep -v "^2023-1[01]-[0-3][0-9]$" ticks &&
	texts ytick cpu.svg >yt &&
	# 0 at the foot, as many decimals as the step needs (0.5 here).
	head -n 1 yt | grep "^0\(\.0*\)\?$" && ! grep -v "^[0-9][0-9.]*$" yt &&
	# Six hours given: a bucket an hour, hourly ticks.
	extracct report --db g.db --format svg --by command \
	    --from 2023-11-14T22:00 --to 2023-11-15T04:00 >six.svg &&
	texts ylabel six.svg | grep "^CPUs busy (mean over each hour)$" &&
	texts xtick six.svg >ticks &&
	test "$(line_count ticks)" -ge 3 && test "$(line_count ticks)" -le 9 &&
	! grep -v "^[0-2][0-9]:00$" ticks
'

test_expect_success 'the stack is the data: its top in the busiest day is the day'"'"'s CPU' '
	# The busiest day'"'"'s mean CPUs (daily buckets: 22 days), and the
	# height the stack reaches, read against the y axis'"'"'s own 0 and
	# top ticks.  Apportioned: the rollups'"'"' hours, not the hour
	# intervals end.  g.db has no system snapshots: the time observed
	# is not known, so a day'"'"'s CPU is over the whole day (t3070 has
	# a chart over the time observed).
	test "$(sqlite3 g.db "SELECT count(*) FROM sysload")" -eq 0 &&
	max=$(sqlite3 g.db "SELECT max(c) FROM (SELECT sum(cpu) / 86.4e12 AS c
	    FROM $RU_WIN GROUP BY hour_s / 86400)") &&
	sed -n "s/^<text x=\"[0-9.]*\" y=\"\([0-9.]*\)\".*class=\"ytick\">\([^<]*\)<.*/\1 \2/p" cpu.svg >yt &&
	grep -o "class=\"series\" fill=\"[^\"]*\" d=\"[^\"]*" cpu.svg |
	    grep -o "V[0-9.]*" | tr -d V | sort -n | head -n 1 >ytop &&
	awk -v m="$max" -v t="$(cat ytop)" "NR == 1 { y0 = \$1 } { y1 = \$1; v1 = \$2 }
	    END { h = (y0 - 4 - t) / (y0 - y1) * v1; print h, m;
	    exit !(h > m * 0.99 - 0.01 && h < m * 1.01 + 0.01 && v1 >= m && v1 < 2.5 * m) }" yt
'

test_expect_success '--by user: uids (no names stored); more than 3 days: daily buckets and date ticks' '
	extracct report --db g.db --format svg --by user --from 2023-11-10 --to 2023-11-20 >u.svg &&
	xmllint --noout u.svg &&
	texts legend-head u.svg >h && echo user >expect && test_cmp expect h &&
	test "$(sqlite3 g.db "SELECT count(*) FROM v_host_names")" -eq 0 &&
	sqlite3 g.db "SELECT DISTINCT uid FROM v_proc_usage ORDER BY 1" >uids &&
	texts legend u.svg | sort -n >actual && test_cmp uids actual &&
	texts ylabel u.svg | grep "^CPUs busy (mean over each day)$" &&
	texts xtick u.svg >ticks &&
	test "$(line_count ticks)" -ge 4 &&
	! grep -v "^2023-11-[0-9][0-9]$" ticks &&
	texts subtitle u.svg | grep "; 2023-11-10 00:00:00 to 2023-11-20 00:00:00; time zone UTC$"
'

test_expect_success '--tz names the zone on the axis and in the subtitle' '
	extracct report --db g.db --format svg --by command --tz Asia/Kolkata >k.svg &&
	xmllint --noout k.svg &&
	texts xlabel k.svg | grep "^time in Asia/Kolkata;" &&
	# Its days (22 of them) start at 18:30 UTC, inside a UTC hour,
	# which the rollups hold: by end hour.
	texts xlabel k.svg | grep "; intervals count in the day they end in (local hours are not UTC hours)$" &&
	texts subtitle k.svg | grep "time zone Asia/Kolkata$"
'

test_expect_success 'days are local days: the week over the end of DST is 169 hours wide' '
	extracct report --db g.db --format svg --by command --tz Europe/Paris \
	    --from 2023-10-20 --to 2023-11-20 >dst.svg &&
	xmllint --noout dst.svg &&
	sed -n "s/^<text x=\"\([0-9.]*\)\".*class=\"xtick\">\([^<]*\)<.*/\1 \2/p" dst.svg >ticks &&
	test "$(line_count ticks)" -ge 4 &&
	while read -r x d; do
		test "$(TZ=UTC date -d "$d" +%u)" -eq 1 || return 1
	done <ticks &&
	head -n 1 ticks | grep " 2023-10-23$" &&
	awk "{ x[NR] = \$1 } END { r = (x[2] - x[1]) / (x[3] - x[2]);
	    exit !(r > 169 / 168 - 0.002 && r < 169 / 168 + 0.002) }" ticks
'

test_expect_success 'capture ratio: one line per host, a point per hour, the 1.0 line' '
	extracct report --db c.db --format svg --capture >cap.svg &&
	xmllint --noout cap.svg &&
	printf "%s\n" caphost "1.0: all CPU accounted" >expect &&
	texts legend cap.svg >actual && test_cmp expect actual &&
	hours=$(sqlite3 c.db "SELECT count(DISTINCT t1_ns / 3600000000000) FROM capture") &&
	test "$(grep -c "class=\"point\"" cap.svg)" -eq "$hours" &&
	grep -c "stroke-dasharray" cap.svg &&
	texts ylabel cap.svg | grep "^process CPU / busy CPU (per hour)$" &&
	max=$(sqlite3 c.db "SELECT max(r) FROM (SELECT sum(proc_cpu_ns) * 1.0 / sum(busy_ns) AS r
	    FROM capture GROUP BY t1_ns / 3600000000000)") &&
	min=$(sqlite3 c.db "SELECT min(r) FROM (SELECT sum(proc_cpu_ns) * 1.0 / sum(busy_ns) AS r
	    FROM capture GROUP BY t1_ns / 3600000000000)") &&
	awk -v a="$max" -v b="$min" "BEGIN { exit !(a > 0.95 && a < 1.05 && b > 0.45 && b < 0.55) }" &&
	top=$(texts ytick cap.svg | tail -n 1) &&
	awk -v m="$max" -v t="$top" "BEGIN { exit !(t >= m * 1.2 - 1e-9) }"
'

test_expect_success 'capture ratio of 12 hosts: 10 lines, and the subtitle says so' '
	printf "%s\n" "sys 0 0" "proc 7 w -1 0 0" "sys 600 30000" \
	    "proc 7 w -1 600 30000" "sys 1200 60000" "proc 7 w -1 1200 60000" >h.in &&
	for i in 01 02 03 04 05 06 07 08 09 10 11 12; do
		snaplog h.in h$i.exacct host$i || return 1
	done &&
	extracct ingest --db h.db h??.exacct >/dev/null &&
	extracct report --db h.db --format svg --capture >h.svg &&
	xmllint --noout h.svg &&
	{ for i in 01 02 03 04 05 06 07 08 09 10; do echo host$i; done &&
	  echo "1.0: all CPU accounted"; } >expect &&
	texts legend h.svg >actual && test_cmp expect actual &&
	test "$(grep -c "class=\"series\"" h.svg)" -eq 10 &&
	texts subtitle h.svg | grep "^host host01, host02, host03, host04 and 8 more; .*; 2 more hosts not drawn$"
'

test_expect_success 'energy by command: the 8 largest bars and other, in joules' '
	extracct report --db e.db --format svg --energy --by command >en.svg &&
	xmllint --noout en.svg &&
	sqlite3 e.db "SELECT command FROM v_energy_usage WHERE energy_nj IS NOT NULL
	    AND t1_ns > t0_ns GROUP BY command ORDER BY sum(energy_nj) DESC, command" >all &&
	n=$(line_count all) && test "$n" -gt 8 &&
	{ head -n 8 all && echo "other ($((n - 8)))"; } >expect &&
	texts legend en.svg >actual && test_cmp expect actual &&
	test "$(grep -c "class=\"bar\"" en.svg)" -eq 9 &&
	texts class en.svg >classes && printf "%s\n" measured other >expect &&
	test_cmp expect classes &&
	texts xlabel en.svg | grep "^energy (J) in the window$" &&
	j=$(sqlite3 e.db "SELECT printf(\"%.0f J\", sum(energy_nj) / 1e9) FROM v_energy_usage
	    WHERE command = (SELECT command FROM v_energy_usage GROUP BY command
	    ORDER BY sum(energy_nj) DESC LIMIT 1) AND t1_ns > t0_ns") &&
	texts value en.svg | head -n 1 >v && echo "$j" >expect && test_cmp expect v
'

test_expect_success 'no data: a clear "no data in this window" chart, never a broken file' '
	for w in cpu capture energy; do
		case $w in
		cpu) opt= ;; capture) opt=--capture ;; energy) opt=--energy ;;
		esac &&
		extracct report --db g.db --format svg $opt --from 2030-01-01 --to 2030-01-02 >none.$w.svg &&
		xmllint --noout none.$w.svg &&
		texts empty none.$w.svg | grep "^no data in this window" &&
		! grep "class=\"series\"\|class=\"bar\"" none.$w.svg || return 1
	done &&
	extracct report --db e.db --format svg --by command >nocpu.svg &&
	xmllint --noout nocpu.svg &&
	texts subtitle nocpu.svg | grep "all of the data; time zone UTC$" &&
	texts empty nocpu.svg | grep "^no data in this window$"
'

test_expect_success 'names from logs are XML-escaped and made valid UTF-8' '
	{ echo "header kernel SunOS evil" &&
	  for pid in 1 2; do
		echo "group 0xf0000100" && echo "  uint 0x30001000 $pid" &&
		echo "  uint 0x40001007 1700000000" && echo "  uint 0x40001008 0" &&
		echo "  uint 0x40001009 1700000100" && echo "  uint 0x4000100a 0" &&
		echo "  uint 0x4000100b $pid" && echo "  uint 0x4000100c 0" &&
		echo "  uint 0x4000100d 0" && echo "  uint 0x4000100e 0" &&
		if [ $pid -eq 1 ]; then
			echo "  string 0x60001006 <b>&\"x\x01\xff\xc3\xa9\\\\"
		else
			echo "  string 0x60001006 a-very-long-command-name-indeed-and-more"
		fi &&
		echo "end" || return 1
	  done; } >evil.spec &&
	extracct_test encode evil.spec evil.exacct &&
	extracct ingest --db v.db evil.exacct >/dev/null &&
	extracct report --db v.db --format svg --by command >v.svg &&
	xmllint --noout v.svg &&
	grep -F "class=\"legend\">&lt;b&gt;&amp;&quot;x\\001\\377é\\134<" v.svg &&
	grep -F "class=\"legend\">a-very-long-command-name-i…<" v.svg &&
	grep -F "<title>a-very-long-command-name-indeed-and-more</title>" v.svg
'

# The SVGs of an HTML page, as part1.svg, part2.svg ...
svgs() {
	rm -f part*.svg &&
	awk "/^<svg /{ n++; f = \"part\" n \".svg\" } f { print > f } /^<\\/svg>/{ f = \"\" }" "$1"
}

test_expect_success 'html: one well-formed page, its five charts each valid SVG' '
	extracct report --db g.db --format html --by command >g.html &&
	xmllint --noout g.html &&
	svgs g.html &&
	test -f part5.svg && test ! -f part6.svg &&
	for i in 1 2 3 4 5; do xmllint --noout part$i.svg || return 1; done &&
	texts title part1.svg | grep "^CPU by command$" &&
	texts title part2.svg | grep "^Capture ratio$" &&
	texts title part3.svg | grep "^Energy by command$" &&
	texts title part4.svg | grep "^Energy over time by command$" &&
	texts empty part4.svg | grep "^no data in this window" &&
	texts title part5.svg | grep "^Capacity forecast by host$" &&
	! grep -i "<script\|http://\|https://" g.html | grep -v "xmlns=\"http://www.w3.org/" &&
	texts legend part1.svg >l1 && texts legend cpu.svg >l2 && test_cmp l2 l1
'

test_expect_success 'html: energy over time, stacked: the top 8 by joules, and its mean watts' '
	extracct report --db e.db --format html --by command >e.html &&
	xmllint --noout e.html && svgs e.html &&
	{ echo "other ($(( $(line_count all) - 8 )) commands)" && head -n 8 all | tac; } >expect &&
	texts legend part4.svg >actual && test_cmp expect actual &&
	texts title part4.svg | grep "^Energy over time by command (measured; watts over observed time)$" &&
	texts ylabel part4.svg | grep "^watts (joules in each hour over the time observed in it)$" &&
	# Energy is not in the rollups: by end hour, and the axis says so.
	texts xlabel part4.svg | grep "^time in UTC; intervals count in the hour they end in$" &&
	# All the energy is in one hour: the stack is its joules over the
	# time observed (not 3600 s), as report --energy --by host says.
	test "$(sqlite3 e.db "SELECT count(DISTINCT t1_ns / 3600000000000) FROM v_energy_usage")" -eq 1 &&
	w=$(sqlite3 e.db "SELECT sum(energy_nj) * 1.0 / (max(t1_ns) - min(t0_ns)) FROM v_energy_usage
	    WHERE energy_nj IS NOT NULL AND t1_ns > t0_ns") &&
	sed -n "s/^<text x=\"[0-9.]*\" y=\"\([0-9.]*\)\".*class=\"ytick\">\([^<]*\)<.*/\1 \2/p" part4.svg >yt &&
	grep -o "class=\"series\" fill=\"[^\"]*\" d=\"[^\"]*" part4.svg |
	    grep -o "V[0-9.]*" | tr -d V | sort -n | head -n 1 >ytop &&
	awk -v m="$w" -v t="$(cat ytop)" "NR == 1 { y0 = \$1 } { y1 = \$1; v1 = \$2 }
	    END { h = (y0 - 4 - t) / (y0 - y1) * v1;
	    exit !(h > m * 0.99 && h < m * 1.01) }" yt
'

test_expect_success 'estimated energy (RAPL by CPU time): its own colour, title and scale' '
	extracct report --db c.db --format svg --energy --by command >est.svg &&
	xmllint --noout est.svg &&
	texts class est.svg >classes && echo "estimate (RAPL shared by CPU time)" >expect &&
	test_cmp expect classes &&
	texts legend est.svg >l && echo work >expect && test_cmp expect l &&
	sqlite3 c.db "SELECT printf(\"%.1f kJ\", sum(energy_nj) / 1e12) FROM v_energy_estimate" >expect &&
	texts value est.svg >v && test_cmp expect v &&
	texts xlabel est.svg | grep "^energy (kJ) in the window$" &&
	extracct report --db c.db --format html --by command >c.html &&
	xmllint --noout c.html && svgs c.html &&
	texts title part4.svg | grep "^Energy over time by command (estimate: RAPL shared by CPU time; watts over observed time)$" &&
	w=$(sqlite3 c.db "SELECT max(j) FROM (SELECT sum(energy_nj) / (max(t1_ns) - min(t0_ns)) AS j
	    FROM v_energy_estimate GROUP BY t1_ns / 3600000000000)") &&
	sed -n "s/^<text x=\"[0-9.]*\" y=\"\([0-9.]*\)\".*class=\"ytick\">\([^<]*\)<.*/\1 \2/p" part4.svg >yt &&
	grep -o "class=\"series\" fill=\"[^\"]*\" d=\"[^\"]*" part4.svg |
	    grep -o "V[0-9.]*" | tr -d V | sort -n | head -n 1 >ytop &&
	awk -v m="$w" -v t="$(cat ytop)" "NR == 1 { y0 = \$1 } { y1 = \$1; v1 = \$2 }
	    END { h = (y0 - 4 - t) / (y0 - y1) * v1;
	    exit !(m > 4.9 && m < 5.1 && h > m * 0.99 && h < m * 1.01) }" yt
'

test_expect_success 'the same data gives the same bytes' '
	extracct report --db g.db --format html --by command >g2.html &&
	cmp g.html g2.html &&
	extracct report --db c.db --format svg --capture >cap2.svg &&
	cmp cap.svg cap2.svg
'

test_expect_success 'bad combinations: exit 2 with the reason' '
	test_expect_code 2 extracct report --db g.db --format svg --by hour 2>err &&
	grep "charts read the database, --by user, command" err &&
	test_expect_code 2 extracct report --db g.db --format html --capture 2>err &&
	grep "draws every chart" err &&
	test_expect_code 2 extracct report --format svg g.exacct 2>err &&
	test_expect_code 2 extracct report --db g.db --format png 2>err &&
	grep "not table, csv, json, svg or html" err
'

test_expect_success 'what a chart cannot draw is refused, not dropped' '
	for o in "--sort cpu" "--every day --percentiles" "--averages" \
	    "--every week" "--every month" "--limit 11"; do
		test_expect_code 2 extracct report --db g.db --format svg \
		    --by command $o 2>err &&
		grep "^extracct: --format svg|html: " err &&
		test_expect_code 2 extracct report --db g.db --format html \
		    --by command $o 2>err || return 1
	done
'

test_expect_success '--limit 3: the top 3 in the legend, the rest other' '
	extracct report --db g.db --format svg --by command --limit 3 >l3.svg &&
	xmllint --noout l3.svg &&
	sqlite3 g.db "SELECT command FROM $RU_WIN GROUP BY command
	    ORDER BY sum(cpu) DESC, command LIMIT 3" >top &&
	n=$(sqlite3 g.db "SELECT count(DISTINCT command) FROM $RU_WIN") &&
	{ echo "other ($((n - 3)) commands)" && tac top; } >expect &&
	texts legend l3.svg >actual &&
	test_cmp expect actual &&
	test "$(grep -c "class=\"series\"" l3.svg)" -eq 4
'

test_expect_success '--every hour over 10 days: hourly buckets; --every day: daily' '
	extracct report --db g.db --format svg --by user --every hour \
	    --from 2023-11-10 --to 2023-11-20 >h.svg &&
	texts ylabel h.svg | grep "^CPUs busy (mean over each hour)$" &&
	extracct report --db g.db --format svg --by user --every day \
	    --from 2023-11-14T22:00 --to 2023-11-15T04:00 >d.svg &&
	texts ylabel d.svg | grep "^CPUs busy (mean over each day)$"
'

test_expect_success 'docs/report-sample.svg is what the sample data gives (make sample-chart)' '
	extracct ingest --db s.db "$SAMPLES/proc.exacct" >/dev/null &&
	extracct report --db s.db --format svg --by command \
	    --from 2023-11-14T22:00 --to 2023-11-15T04:00 >sample.svg &&
	grep "^SAMPLE_WINDOW = --from 2023-11-14T22:00 --to 2023-11-15T04:00$" "$SRC/Makefile" &&
	xmllint --noout "$SRC/docs/report-sample.svg" &&
	test_cmp "$SRC/docs/report-sample.svg" sample.svg &&
	grep "(docs/report-sample.svg)" "$SRC/README.md"
'

# Headless Chromium draws the page.  A blank page has one colour and no
# ink; the chart page must have many colours, a real share of ink, and
# the first three series' colours over areas (500 pixels: a legend
# swatch is 196); the page of an empty window has ink (frames, text)
# but none of them.
if command -v chromium >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
	render() {	# OUT.png IN.html
		timeout -k 10 300 chromium --headless --no-sandbox --disable-gpu \
		    --no-first-run --hide-scrollbars \
		    --user-data-dir="$TRASH/chromium" --screenshot="$TRASH/$1" \
		    --window-size=1200,900 "file://$TRASH/$2" >>chromium.log 2>&1 &&
		test -s "$1"
	}
	COLOURS="#4e79a7 #f28e2b #e15759"
	test_expect_success 'Chromium renders the page as a drawn chart' '
		printf "<!DOCTYPE html>\n<html><body></body></html>\n" >blank.html &&
		extracct report --db g.db --format html --from 2030-01-01 --to 2030-01-02 >none.html &&
		render blank.png blank.html && render g.png g.html &&
		render none.png none.html &&
		python3 "$SRC/tests/helper/pngstat.py" blank.png $COLOURS >blank.stat &&
		python3 "$SRC/tests/helper/pngstat.py" g.png $COLOURS >g.stat &&
		python3 "$SRC/tests/helper/pngstat.py" none.png $COLOURS >none.stat &&
		cat blank.stat g.stat none.stat >&2 &&
		read w h colours ink <blank.stat &&
		test "$w $h" = "1200 900" && test "$colours" -le 2 && test "$ink" -eq 0 &&
		read w h colours ink <g.stat &&
		test "$w $h" = "1200 900" && test "$colours" -ge 50 && test "$ink" -ge 80 &&
		tail -n 3 g.stat | while read c n; do test "$n" -ge 500 || return 1; done &&
		read w h colours ink <none.stat &&
		test "$ink" -ge 10 &&
		tail -n 3 none.stat | while read c n; do test "$n" -eq 0 || return 1; done
	'
elif [ "${CI:-}" = true ]; then
	test_expect_success 'Chromium and python3 are installed (CI)' 'false'
else
	test_skip 'Chromium renders the page as a drawn chart' 'no chromium or python3'
fi

# A process of 2250 is out of every report's range (before 1970 or from
# 2200 on): the tables leave it out, and so do the charts, whose window
# is the tables' (the hours of p10 and p12).
test_expect_success 'default window: svg and html leave a process of 2250 out, as the table does, and say so' '
	{ echo "header kernel SunOS hostA" &&
	  for x in "10 1700000000" "11 8836128000" "12 1700086400"; do
		set -- $x &&
		printf "group 0xf0000100\n  uint 0x30001000 %s\n  uint 0x40001007 %s\n  uint 0x40001009 %s\n  uint 0x4000100b 2\n  string 0x60001006 p%s\nend\n" \
		    "$1" "$2" "$(($2 + 5))" "$1" || return 1
	  done; } >far.spec &&
	extracct_test encode far.spec far.exacct &&
	extracct ingest --db far.db far.exacct >out &&
	echo "extracct: report: 1 interval out of range (before 1970 or from 2200 on) left out of the window; --from and --to take it in" >expect &&
	extracct report --db far.db --tz UTC --format svg >far.svg 2>err &&
	test_cmp expect err &&
	xmllint --noout far.svg &&
	texts subtitle far.svg >sub && cat sub &&
	echo "host hostA; 2023-11-14 22:00:00 to 2023-11-15 23:00:00; time zone UTC" >want &&
	test_cmp want sub &&
	extracct report --db far.db --by command --tz UTC --format svg >farc.svg 2>err &&
	test_cmp expect err &&
	texts legend farc.svg | sort >leg && printf "p10\np12\n" >want &&
	test_cmp want leg &&
	extracct report --db far.db --tz UTC --format html >far.html 2>err &&
	test_cmp expect err &&
	grep -c "<svg" far.html &&
	extracct report --db far.db --by command --tz UTC --format csv >far.csv 2>err &&
	test_cmp expect err &&
	test "$(cut -d, -f1 far.csv | sort | tr "\n" " ")" = "command p10 p12 "
'

test_done
