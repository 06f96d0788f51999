#!/bin/sh
# report --energy's watts and what util_pct needs: a group's average
# watts are its joules over the time it was observed and its peak the
# highest total power of its processes at one sampling instant, so the
# average is never above the peak; the energy-over-time chart divides by
# the same observed time, so chart and table agree for the same hour.
# util_pct needs a host's CPU count, which only snap's records carry:
# else the host's cpus: key gives it (stored with its source), and
# failing that the table says why util_pct is blank.
. "$(dirname "$0")/../lib.sh"

test_expect_success 'setup: the sample energy snapshots' '
	extracct ingest --db e.db "$SAMPLES/energy/energy.exacct" >/dev/null &&
	test "$(sqlite3 e.db "SELECT count(DISTINCT t1_ns / 3600000000000) FROM v_energy_usage")" -eq 1
'

# Column N (1-based) of report --energy --format csv's row for key K.
col() {
	awk -F, -v k="$2" -v n="$3" "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i }
	    NR > 1 && \$1 == k { print \$c[n] }" "$1"
}

test_expect_success 'by host: avg_watts <= peak_watts, each as computed apart' '
	extracct report --db e.db --energy --by host --format csv >h.csv &&
	host=$(sqlite3 e.db "SELECT host FROM v_energy_usage LIMIT 1") &&
	avg=$(col h.csv "$host" avg_watts) && peak=$(col h.csv "$host" peak_watts) &&
	pproc=$(col h.csv "$host" peak_proc_watts) &&
	want_avg=$(sqlite3 e.db "SELECT printf(\"%.3f\", sum(energy_nj) * 1.0 /
	    (max(t1_ns) - min(t0_ns))) FROM v_energy_usage WHERE t1_ns > t0_ns") &&
	want_peak=$(sqlite3 e.db "SELECT printf(\"%.3f\", max(w)) FROM
	    (SELECT sum(energy_nj * 1.0 / (t1_ns - t0_ns)) AS w FROM v_energy_usage
	    WHERE t1_ns > t0_ns GROUP BY host, t1_ns)") &&
	want_pproc=$(sqlite3 e.db "SELECT printf(\"%.3f\", max(energy_nj * 1.0 /
	    (t1_ns - t0_ns))) FROM v_energy_usage WHERE t1_ns > t0_ns") &&
	echo "avg $avg (want $want_avg) peak $peak (want $want_peak) proc $pproc (want $want_pproc)" &&
	test "$avg" = "$want_avg" && test "$peak" = "$want_peak" &&
	test "$pproc" = "$want_pproc" &&
	awk -v a="$avg" -v p="$peak" -v q="$pproc" "BEGIN { exit !(a <= p && q <= p) }"
'

test_expect_success 'by command: no group averages above its peak' '
	extracct report --db e.db --energy --by command --format csv >c.csv &&
	awk -F, "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next }
	    \$c[\"avg_watts\"] + 0 > \$c[\"peak_watts\"] + 0 { print; bad++ }
	    END { exit bad > 0 }" c.csv &&
	test "$(line_count c.csv)" -gt 5
'

test_expect_success 'the table says what each watts figure is' '
	extracct report --db e.db --energy --by host >h.txt &&
	grep "^# avg_watts: the host.s joules over the time observed" h.txt &&
	grep "peak_proc_watts: one process.s highest over one interval" h.txt
'

test_expect_success 'energy over time: the stack is the table'\''s avg_watts for its hour' '
	extracct report --db e.db --format html --by host >e.html &&
	awk "/^<svg /{ n++; f = \"part\" n \".svg\" } f { print > f } /^<\\/svg>/{ f = \"\" }" e.html &&
	grep -l "Energy over time by host (measured; watts over observed time)" part*.svg >which &&
	svg=$(cat which) &&
	avg=$(col h.csv "$(sqlite3 e.db "SELECT host FROM v_energy_usage LIMIT 1")" avg_watts) &&
	sed -n "s/^<text x=\"[0-9.]*\" y=\"\([0-9.]*\)\".*class=\"ytick\">\([^<]*\)<.*/\1 \2/p" $svg >yt &&
	grep -o "class=\"series\" fill=\"[^\"]*\" d=\"[^\"]*" $svg |
	    grep -o "V[0-9.]*" | tr -d V | sort -n | head -n 1 >ytop &&
	awk -v m="$avg" -v t="$(cat ytop)" "NR == 1 { y0 = \$1 } { y1 = \$1; v1 = \$2 }
	    END { h = (y0 - 4 - t) / (y0 - y1) * v1; print \"drawn \" h \" W, table \" m \" W\";
	    exit !(h > m * 0.99 && h < m * 1.01) }" yt
'

test_expect_success 'util_pct without snap: blank, and the table says why' '
	extracct gen --kind proc --records 200 --seed 3 --host solo -o solo.exacct &&
	extracct ingest --db u.db solo.exacct >/dev/null &&
	# Where util_pct can have a value: rows of a known span.
	extracct report --db u.db --by host --every day >u.txt &&
	cat u.txt &&
	grep "^# util_pct: blank for hosts solo: CPU count unknown (set cpus: in the config)$" u.txt &&
	extracct report --db u.db --by host >u.txt &&
	! grep "^# util_pct" u.txt &&
	extracct report --db u.db --by host --format csv >u.csv &&
	test -z "$(col u.csv solo util_pct)"
'

test_expect_success 'cpus: in the config: util_pct from it, the source stored' '
	cat >c.yml <<-EOF &&
	database: $TRASH/c.db
	host: solo
	cpus: 4
	EOF
	extracct -c c.yml ingest solo.exacct >/dev/null &&
	test "$(sqlite3 c.db "SELECT cpus, cpus_source FROM v_hosts WHERE host = '"'solo'"'")" = "4|config" &&
	# A closed window: util_pct is CPU over CPUs x the window.
	extracct -c c.yml report --by host --every day --format csv >c.csv &&
	awk -F, "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next }
	    { n++; if (\$c[\"util_pct\"] != \"\") u++;
	      if (\$c[\"util_pct\"] != \"\" && (\$c[\"cpu_s\"] / (4 * 864) - \$c[\"util_pct\"] > 0.01 ||
	          \$c[\"util_pct\"] - \$c[\"cpu_s\"] / (4 * 864) > 0.01)) { print \"off: \" \$0; bad++ } }
	    END { print u \" of \" n \" days with util_pct\"; exit bad > 0 || u < 2 }" c.csv &&
	extracct report --db u.db --by host --every day --format csv >u.csv &&
	test -z "$(awk -F, "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } { printf \"%s\", \$c[\"util_pct\"] }" u.csv)" &&
	extracct -c c.yml report --by host >c.txt &&
	! grep "^# util_pct: blank" c.txt
'

test_done
