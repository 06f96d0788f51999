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
	{ echo "header library extracct alpha" &&
	  i=0 && while [ $i -lt 200 ]; do
		acctd_rec $((200000 + i)) $((1700000000 + i)) || return 1
		if [ $((i % 100)) -eq 50 ]; then
			echo "group 0xf1000002" &&
			echo "  uint 0x41000301 $((1700000000 + i))000000000" &&
			echo "  uint 0x41000302 $((i / 50))" && echo "end"
		fi
		i=$((i + 1))
	  done; } >acctd.spec &&
	extracct_test encode acctd.spec acctd.exacct &&
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
