# Logs the merge and push tests write by hand, sourced by them: an
# acctd exit record, pacct v3 records, a powercap zone, and the fleet
# tests' common set of them.

# One acctd exit record (library creator: extracct's own) of PID,
# started at START_S + 0.06 s, one second long.
acctd_rec() {
	echo "group 0xf0000100"
	echo "  uint 0x30001000 $1"
	echo "  uint 0x40001007 $2"
	echo "  uint 0x40001008 60000000"
	echo "  uint 0x40001009 $(($2 + 1))"
	echo "  uint 0x4000100a 60000000"
	echo "  uint 0x4000100b 0"
	echo "  uint 0x4000100c 5000000"
	echo "  string 0x60001006 worker"
	echo "end"
}

# acctd.exacct: a log of HOST with N of acctd_rec's exits (pids
# 200000.., started 1700000000.. s), and with LOSSES (1), a loss record
# after each hundred's fiftieth: acctd_log HOST N [LOSSES].
acctd_log() {
	{ echo "header library extracct $1" &&
	  i=0 && while [ $i -lt "$2" ]; do
		acctd_rec $((200000 + i)) $((1700000000 + i)) || return 1
		if [ "${3:-0}" -eq 1 ] && [ $((i % 100)) -eq 50 ]; then
			echo "group 0xf1000002" &&
			echo "  uint 0x41000301 $((1700000000 + i))000000000" &&
			echo "  uint 0x41000302 $((i / 50))" && echo "end"
		fi
		i=$((i + 1))
	  done; } >acctd.spec &&
	extracct_test encode acctd.spec acctd.exacct
}

# N pacct v3 records of the same processes.
pacct_recs() {
	awk -v n="$1" "function le32(v) {
		printf \"%c%c%c%c\", v % 256, int(v / 256) % 256,
		    int(v / 65536) % 256, int(v / 16777216) % 256 }
	    function zeros(k) { while (k-- > 0) printf \"%c\", 0 }
	    BEGIN { for (i = 0; i < n; i++) {
		printf \"%c%c\", 0, 3; zeros(14)
		le32(200000 + i); le32(1); le32(1700000000 + i)
		printf \"%c%c%c%c\", 0, 0, 128, 63
		printf \"%c%c\", 1, 0; zeros(14)
		printf \"worker\"; zeros(10)
	    } }"
}

zone() {	# DIR NAME ENERGY
	mkdir -p "pc/$1" && echo "$2" >"pc/$1/name" &&
	echo "$3" >"pc/$1/energy_uj" &&
	echo 262143328850 >"pc/$1/max_energy_range_uj"
}

# The logs beyond gen's that the fleet tests (t2700, t2800, t2810)
# write in their setup: acctd exits with losses (acctd.exacct), the same
# exits from pacct (alt.pacct), a GMT RAPL provider log with gaps
# (s1/), and three snapshots of a fake powercap tree (snap.log, pc/).
fleet_extra_logs() {
	acctd_log alpha 200 1 &&
	pacct_recs 200 >alt.pacct &&
	mkdir s1 &&
	awk "BEGIN { t = 1700000000000000
	    for (i = 0; i < 600; i++) {
		if (i % 97 == 96) continue
		printf \"%.0f %d Package_0\\n\", t + i * 100000, 1000000 + i * 5000
	    } }" >s1/cpu_energy_rapl_msr_component.log &&
	zone intel-rapl:0 package-0 1000 && zone intel-rapl:0:1 dram 500 &&
	for i in 1 2 3; do
		extracct snap -o snap.log --cpu runtime --powercap pc >/dev/null &&
		echo $((i * 700000)) >pc/intel-rapl:0/energy_uj &&
		echo $((i * 300000)) >pc/intel-rapl:0:1/energy_uj || return 1
	done
}

# Hosts of one name and different identities, each in its own database
# (t2700, t2810, t2722): web1 as the configured host_id web1-a (tw1.db),
# web1 known by its name alone, name:web1 (tw2.db), web1 of a machine
# id (tw3.db), and two more of machine ids whose first 8 hex digits are
# the same (tw4.db, tw5.db); and solo, the only host of its name
# (tw6.db).  The machine ids are written by hand, as ingest on those
# machines would store them.  tw.labels: the label each has where all
# six are together (docs/schema.md "Host labels").
twin_hosts() {
	printf "host: web1\nhost_id: web1-a\n" >tw1.yml &&
	for i in 1 2 3 4 5 6; do
		h=web1 && test $i -ne 6 || h=solo
		extracct gen --kind proc --records 400 --seed $((70 + i)) \
		    --jitter --host $h -o tw$i.exacct || return 1
	done &&
	extracct -c tw1.yml ingest --db tw1.db tw1.exacct >/dev/null &&
	for i in 2 3 4 5; do
		extracct ingest --db tw$i.db --host web1 tw$i.exacct \
		    >/dev/null || return 1
	done &&
	extracct ingest --db tw6.db --host solo tw6.exacct >/dev/null &&
	sqlite3 tw3.db "UPDATE hosts SET ident =
	    '0123abcd9876543210fedcba01234567:web1'" &&
	sqlite3 tw4.db "UPDATE hosts SET ident =
	    'abcdef01000000000000000000000000:web1'" &&
	sqlite3 tw5.db "UPDATE hosts SET ident =
	    'abcdef01ffffffffffffffffffffffff:web1'" &&
	test "$(sqlite3 tw2.db "SELECT ident FROM hosts")" = name:web1 &&
	cat >tw.labels <<-\EOL
	tw1 web1@web1-a
	tw2 web1@name
	tw3 web1@0123abcd
	tw4 web1@abcdef01000000000000000000000000:web1
	tw5 web1@abcdef01ffffffffffffffffffffffff:web1
	tw6 solo
	EOL
}

# A CSV report's rows on stdin, without its header and its shares of
# the whole (cpu_share_pct, util_pct: a host's share differs where it is with
# others); the host (first) column made $1 if given.
csv_rows() {
	awk -F, -v l="$1" 'BEGIN { OFS = "," }
	    NR == 1 { for (i = 1; i <= NF; i++)
		if ($i == "cpu_share_pct" || $i == "util_pct") x[i] = 1; next }
	    { for (i in x) $i = ""; if (l != "") $1 = l; print }'
}

# The rows of report "$@" --format csv of each of tw1..tw6.db, with the
# host as it is labelled where they are together: what the report of
# them merged must print (tw.labels; a report of one host names it by
# its name, as before labels).
twin_rows() {
	while read -r db label; do
		extracct report --db $db.db "$@" --format csv |
		    csv_rows "$label" || return 1
	done <tw.labels | sort
}
