# Logs the merge and push tests write by hand, sourced by them: an
# acctd exit record, pacct v3 records, a powercap zone.

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
