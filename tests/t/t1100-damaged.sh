#!/bin/sh
# Damaged input: each kind of damage gives a clear message (file, byte
# offset, reason), exit code 1, and the good records before and after it
# are still decoded, by text, check and ingest alike, in exacct, pacct and
# metric-provider streams.  Files that are not what they claim (a FIFO, a
# device, zeros, text, an object claiming gigabytes) are refused or read
# as damage without hanging or buffering what they claim.
. "$(dirname "$0")/../lib.sh"

Q="'"

# extracct under a time limit: a hang is a failure, not a stuck suite.
extracct_t() { t=$1 && shift && timeout "$t" "$EXTRACCT" "$@"; }

# Overwrite the byte at offset $2 of file $1 with the value $3 (0..255).
poke() {
	printf "$(printf '\\%03o' "$3")" |
	dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

# A clean three-record log and its record offsets and text lines.
test_expect_success 'setup' '
	extracct gen --kind proc --records 3 --seed 1 -o clean &&
	extracct_test offsets clean >offsets &&
	test "$(line_count offsets)" -eq 4 &&
	extracct text -H clean >all &&
	test "$(line_count all)" -eq 3
'
R1=$(sed -n 2p offsets | cut -d" " -f1)
R2=$(sed -n 3p offsets | cut -d" " -f1)
R3=$(sed -n 4p offsets | cut -d" " -f1)
SIZE=$(wc -c <clean | tr -d " ")
sed -n 1p all >rec1
sed -n 2p all >rec2
sed -n 3p all >rec3
cat rec1 rec3 >rec13
cat rec1 rec2 >rec12

test_expect_success 'truncated tail: records before it kept' '
	head -c $((SIZE - 100)) clean >cut &&
	test_expect_code 1 extracct text -H cut >out 2>err &&
	test_cmp rec12 out &&
	grep "^extracct: cut: offset $R3: group size [0-9]* runs past the end" err &&
	grep "(skipped bytes $R3-$((SIZE - 101)))" err
'

test_expect_success 'flipped size field: resync at the next record' '
	cp clean f && poke f $((R2 + 11)) 255 &&
	test_expect_code 1 extracct text -H f >out 2>err &&
	test_cmp rec13 out &&
	grep "^extracct: f: offset [0-9]*: .* (skipped bytes $R2-$((R3 - 1)))$" err
'

test_expect_success 'unknown type code: offset of the bad member' '
	cp clean f && poke f $((R2 + 20)) 144 &&
	test_expect_code 1 extracct text -H f >out 2>err &&
	test_cmp rec13 out &&
	grep "^extracct: f: offset $((R2 + 20)): unknown type code 0x9 in tag 0x90001000" err
'

test_expect_success 'group count disagrees with its members' '
	cp clean f && poke f $((R2 + 15)) 33 &&
	test_expect_code 1 extracct text -H f >out 2>err &&
	test_cmp rec13 out &&
	grep "^extracct: f: offset [0-9]*: group count 33, but [0-9]* bytes of its size are left after the last member" err
'

test_expect_success 'group size disagrees with its members' '
	cp clean f &&
	size=$(od -An -j $((R2 + 11)) -N 1 -tu1 f | tr -d " ") &&
	poke f $((R2 + 11)) $((size + 4)) &&
	test_expect_code 1 extracct text -H f >out 2>err &&
	test_cmp rec13 out &&
	grep "^extracct: f: offset [0-9]*: group count 34, but 4 bytes of its size are left after the last member" err
'

test_expect_success 'bad backskip' '
	cp clean f && poke f $((R3 - 1)) 7 && poke f $((R3 - 2)) 0 &&
	test_expect_code 1 extracct text -H f >out 2>err &&
	test_cmp rec13 out &&
	grep "^extracct: f: offset $((R3 - 4)): backskip 7, expected $((R3 - R2))" err
'

test_expect_success 'garbage between records: all records kept' '
	head -c $R2 clean >g && printf "garbage" >>g && tail -c +$((R2 + 1)) clean >>g &&
	test_expect_code 1 extracct text -H g >out 2>err &&
	test_cmp all out &&
	grep "(skipped bytes $R2-$((R2 + 6)))" err
'

test_expect_success 'missing header: message, records still decoded' '
	tail -c +$((R1 + 1)) clean >nohdr &&
	test_expect_code 1 extracct text -H nohdr >out 2>err &&
	test_cmp all out &&
	grep "^extracct: nohdr: offset 0: no exacct header: the file starts with tag 0xf0000100, not 0xf00000ff$" err
'

test_expect_success 'wrong header version: message, records still decoded' '
	cp clean v && poke v 27 2 &&
	test_expect_code 1 extracct text -H v >out 2>err &&
	test_cmp all out &&
	grep "^extracct: v: offset 0: exacct header version 2, expected 1$" err
'

test_expect_success 'wrong header filetype' '
	cp clean v && poke v 49 107 &&
	test_expect_code 1 extracct text -H v >out 2>err &&
	test_cmp all out &&
	grep "filetype \"exacck\", expected \"exacct\"" err
'

test_expect_success 'zero-length file' '
	: >empty &&
	test_expect_code 1 extracct text empty >out 2>err &&
	test ! -s out &&
	grep "^extracct: empty: offset 0: empty file$" err &&
	test_expect_code 1 extracct check empty >out &&
	grep "^empty: offset 0: empty file$" out
'

test_expect_success 'random bytes: clear message, nothing decoded, no hang' '
	awk "BEGIN { srand(42); for (i = 0; i < 65536; i++) printf \"%c\", int(rand() * 256) }" >random &&
	test "$(wc -c <random)" -ge 60000 &&
	test_expect_code 1 extracct text random >out 2>err &&
	test ! -s out &&
	grep "^extracct: random: offset 0: no exacct header" err &&
	test_expect_code 1 extracct dump random >out 2>err &&
	test_expect_code 1 extracct check random >out
'

test_expect_success 'several damages in one file: each reported, rest kept' '
	cp clean f && poke f $((R1 + 20)) 144 && poke f $((R3 + 20)) 160 &&
	test_expect_code 1 extracct text -H f >out 2>err &&
	test_cmp rec2 out &&
	test "$(line_count err)" -eq 2
'

test_expect_success 'check lists damaged ranges and a summary, exit 1' '
	cp clean f && poke f $((R2 + 20)) 144 &&
	test_expect_code 1 extracct check f clean >out &&
	grep "^f: bytes $R2-$((R3 - 1)) damaged: offset $((R2 + 20)): unknown type code" out &&
	grep "^f: damaged: 2 records, 0 other objects, 0 unknown items, 1 damaged ranges ($((R3 - R2)) bytes)$" out &&
	grep "^clean: ok: 3 records" out
'

test_expect_success 'check exit 0 on clean files' '
	extracct check clean "$SAMPLES"/*.exacct "$SAMPLES"/real/*.exacct >out &&
	! grep -v ": ok: " out
'

test_expect_success 'input from standard input' '
	extracct text -H - <clean >out &&
	test_cmp all out
'

# The message every reader gives for a run of zero bytes.
ZEROS="zero bytes: not records (a crash can leave zeros where data was never written)"

test_expect_success 'exacct: a crash tail (half a record, then zeros): two ranges' '
	head -c $((SIZE - 100)) clean >cz && truncate -s $((SIZE + 2000)) cz &&
	test_expect_code 1 extracct text -H cz >out 2>err &&
	test_cmp rec12 out &&
	cat >want <<-EOT &&
	extracct: cz: offset $((SIZE - 95)): unknown type code 0x0 in tag 0x00000000 (skipped bytes $R3-$((SIZE - 101)))
	extracct: cz: offset $((SIZE - 100)): 2100 $ZEROS (skipped bytes $((SIZE - 100))-$((SIZE + 1999)))
	EOT
	test_cmp want err
'

test_expect_success 'exacct: zeros between records, and where the header was' '
	head -c $R2 clean >zm && head -c 300 /dev/zero >>zm &&
	tail -c +$((R2 + 1)) clean >>zm &&
	test_expect_code 1 extracct text -H zm >out 2>err &&
	test_cmp all out &&
	echo "extracct: zm: offset $R2: 300 $ZEROS (skipped bytes $R2-$((R2 + 299)))" >want &&
	test_cmp want err &&
	head -c $R2 clean >zg && printf garbage >>zg &&
	head -c 300 /dev/zero >>zg && tail -c +$((R2 + 1)) clean >>zg &&
	test_expect_code 1 extracct text -H zg >out 2>err &&
	test_cmp all out &&
	grep "^extracct: zg: offset $R2: .* (skipped bytes $R2-$((R2 + 6)))$" err &&
	grep "^extracct: zg: offset $((R2 + 7)): 300 $ZEROS (skipped bytes $((R2 + 7))-$((R2 + 306)))$" err &&
	head -c 4096 /dev/zero >zh && tail -c +$((R1 + 1)) clean >>zh &&
	test_expect_code 1 extracct text -H zh >out 2>err &&
	test_cmp all out &&
	echo "extracct: zh: offset 0: 4096 $ZEROS (skipped bytes 0-4095)" >want &&
	test_cmp want err
'

test_expect_success 'a sparse file of zeros (64 MiB): one damaged range, no records' '
	truncate -s 64M zeros &&
	test_expect_code 1 extracct_t 10 check zeros >out &&
	cat >want <<-EOT &&
	zeros: bytes 0-67108863 damaged: offset 0: 67108864 $ZEROS
	zeros: damaged: 0 records, 0 other objects, 0 unknown items, 1 damaged ranges (67108864 bytes)
	EOT
	test_cmp want out &&
	test_expect_code 1 extracct_t 10 text zeros >out 2>err &&
	test ! -s out &&
	test "$(line_count err)" -eq 1
'

test_expect_success 'an object claiming 1.5 GB: damage; memory stays bounded' '
	cp clean huge &&
	printf "\\000\\000\\000\\000\\140\\000\\000\\000" |
	dd of=huge bs=1 seek=$((R2 + 4)) conv=notrunc 2>/dev/null &&
	truncate -s 1700M huge &&
	test_expect_code 1 extracct_t 20 text -H huge >out 2>err &&
	test_cmp rec13 out &&
	grep "^extracct: huge: offset $R2: group size 1610612736: larger than any accounting record (objects of up to 1024 KiB are read) (skipped bytes $R2-$((R3 - 1)))$" err &&
	grep "^extracct: huge: offset $SIZE: $((1700 * 1048576 - SIZE)) $ZEROS" err &&
	if test "$BUILD_LABEL" = asan+ubsan; then
		: "ASan reserves terabytes of address space: no ulimit -v"
	else
		(ulimit -v 100000 && test_expect_code 1 extracct_t 20 check huge >out) &&
		grep "^huge: damaged: 2 records" out
	fi
'

test_expect_success 'a FIFO or a device as input: refused at once, never read' '
	mkfifo fifo &&
	for cmd in text check dump; do
		test_expect_code 3 extracct_t 10 $cmd fifo >out 2>err &&
		grep "^extracct: fifo: a FIFO, not a regular file: not read (it could block, or never end)$" err ||
		return 1
	done &&
	test_expect_code 3 extracct_t 10 ingest --db fifo.db fifo >out 2>err &&
	grep "^extracct: fifo: offset 0: a FIFO, not a regular file: not read" err &&
	test_expect_code 3 extracct_t 10 text /dev/zero 2>err &&
	grep "^extracct: /dev/zero: a character device, not a regular file: not read" err &&
	test_expect_code 3 extracct_t 10 text - </dev/zero 2>err &&
	grep "^extracct: -: a character device, not a regular file: not read" err &&
	test_expect_code 3 extracct_t 10 text -H fifo clean >out 2>err &&
	test_cmp all out
'

test_expect_success 'standard input may be a pipe' '
	cat clean | extracct text -H - >out &&
	test_cmp all out
'

test_expect_success 'files that are no log: what they are, and why not read' '
	printf "abcdefghijkl" >short &&
	test_expect_code 1 extracct check short >out &&
	grep "^short: offset 0: 12 bytes: shorter than one pacct record (64) and not an exacct file$" out &&
	printf "%s\n" "tcpdump: listening on eth0, link-type EN10MB (Ethernet), snapshot length 262144 bytes" \
	    "1735295414.719551 IP 192.0.2.1.22 > 192.0.2.2.50000: Flags [P.], length 124" \
	    >network_connections_tcpdump_system_linux.log &&
	printf "%s\n" "" "CONNECT   Dec 24 14:34:46.069 [19359]: Connect (file descriptor 5): 192.0.2.9" \
	    >network_connections_proxy_container_dockerproxy.log &&
	test_expect_code 1 extracct text network_connections_tcpdump_system_linux.log \
	    network_connections_proxy_container_dockerproxy.log >out 2>err &&
	test ! -s out &&
	cat >want <<-EOT &&
	extracct: network_connections_tcpdump_system_linux.log: offset 0: a text file, not a log extracct reads: line 1 is not TIMESTAMP READING [DETAIL], as GMT${Q}s metric providers write
	extracct: network_connections_proxy_container_dockerproxy.log: offset 0: a text file, not a log extracct reads: line 2 is not TIMESTAMP READING [DETAIL], as GMT${Q}s metric providers write
	EOT
	test_cmp want err &&
	extracct gen --kind pacct --records 4 --seed 1 -o v1 && poke v1 1 1 &&
	test_expect_code 1 extracct check v1 >out &&
	grep "^v1: offset 0: pacct version 1 (the layout m68k kernels write): not supported (versions 0, 2 and 3 are read)$" out &&
	test_expect_code 1 extracct ingest --db no.db short v1 \
	    network_connections_tcpdump_system_linux.log >out 2>err &&
	test ! -s out &&
	test "$(line_count err)" -eq 3 &&
	test "$(sqlite3 no.db "SELECT count(*) FROM files")" -eq 0
'

# Damaged pacct: a clean ten-record log and its text lines.
test_expect_success 'pacct setup' '
	extracct gen --kind pacct --records 10 --seed 1 -o pclean &&
	test "$(wc -c <pclean | tr -d " ")" -eq 640 &&
	extracct text -H pclean >pall &&
	test "$(line_count pall)" -eq 10
'

test_expect_success 'pacct: a zero-filled tail (a crash): one range, records kept' '
	cp pclean pz && truncate -s 4736 pz &&
	test_expect_code 1 extracct text -H pz >out 2>err &&
	test_cmp pall out &&
	echo "extracct: pz: offset 640: 4096 $ZEROS (skipped bytes 640-4735)" >want &&
	test_cmp want err &&
	test_expect_code 1 extracct check pz >out &&
	grep "^pz: damaged: 10 records, 0 other objects, 0 unknown items, 1 damaged ranges (4096 bytes)$" out
'

test_expect_success 'pacct: zeros between records, and before them' '
	{ cat pclean && head -c 192 /dev/zero && cat pclean; } >pmid &&
	test_expect_code 1 extracct text -H pmid >out 2>err &&
	cat pall pall >want && test_cmp want out &&
	echo "extracct: pmid: offset 640: 192 $ZEROS (skipped bytes 640-831)" >want &&
	test_cmp want err &&
	{ head -c 8192 /dev/zero && cat pclean; } >phead &&
	test_expect_code 1 extracct text -H phead >out 2>err &&
	test_cmp pall out &&
	echo "extracct: phead: offset 0: 8192 $ZEROS (skipped bytes 0-8191)" >want &&
	test_cmp want err
'

test_expect_success 'pacct: a torn tail, a bad version byte' '
	{ cat pclean && head -c 10 pclean; } >ptorn &&
	test_expect_code 1 extracct text -H ptorn >out 2>err &&
	test_cmp pall out &&
	echo "extracct: ptorn: offset 640: torn tail: 10 bytes after the last whole 64-byte record (skipped bytes 640-649)" >want &&
	test_cmp want err &&
	cp pclean pver && poke pver 321 9 &&
	test_expect_code 1 extracct text -H pver >out 2>err &&
	sed 6d pall >want && test_cmp want out &&
	echo "extracct: pver: offset 320: unknown pacct version byte 0x09; record skipped (skipped bytes 320-383)" >want &&
	test_cmp want err
'

# What a database holds, to show that a second ingest adds nothing.
db_state() {
	sqlite3 "$1" "SELECT count(*) FROM procs; SELECT count(*) FROM proc_intervals;
	    SELECT count(*) FROM metric_samples;
	    SELECT off_from, off_to, off_bad, reason FROM damage ORDER BY 1;
	    SELECT path, size, ingested_to, records, damaged_ranges, damaged_bytes
	    FROM files ORDER BY 1"
}

test_expect_success 'ingest damaged pacct: good records stored, damage recorded, once' '
	cat pver >pdb && head -c 4096 /dev/zero >>pdb &&
	test_expect_code 1 extracct ingest --db p.db pdb >out 2>err &&
	grep "^pdb: bytes 0-4736: 9 records, 9 rows, .* 2 damaged ranges" out &&
	db_state p.db >got &&
	cat >want <<-EOT &&
	9
	9
	0
	320|384|320|unknown pacct version byte 0x09; record skipped
	640|4736|640|4096 $ZEROS
	pdb|4736|4736|9|2|4160
	EOT
	test_cmp want got &&
	extracct ingest --db p.db pdb >out 2>err &&
	echo "pdb: already ingested (4736 bytes)" >want && test_cmp want out &&
	db_state p.db >again && test_cmp got again
'

test_expect_success 'ingest a torn pacct tail: left, then read once whole' '
	cp ptorn pt &&
	test_expect_code 1 extracct ingest --db t.db pt >out 2>err &&
	grep "^extracct: pt: offset 640: torn tail: 10 bytes .* (incomplete tail, left for the next run: bytes 640-649)$" err &&
	test "$(sqlite3 t.db "SELECT ingested_to || \" \" || records FROM files")" = "640 10" &&
	cat pclean pclean >pt &&
	test_expect_code 0 extracct ingest --db t.db pt >out 2>err &&
	grep "^pt: bytes 640-1280: 10 records" out &&
	test "$(sqlite3 t.db "SELECT count(*) FROM damage")" -eq 0
'

test_expect_success 'ingest an exacct crash tail: records stored, both ranges recorded, once' '
	test_expect_code 1 extracct ingest --db x.db cz >out 2>err &&
	grep "^cz: bytes 0-$((SIZE + 2000)): 2 records" out &&
	db_state x.db >got &&
	cat >want <<-EOT &&
	2
	2
	0
	$R3|$((SIZE - 100))|$((SIZE - 95))|unknown type code 0x0 in tag 0x00000000
	$((SIZE - 100))|$((SIZE + 2000))|$((SIZE - 100))|2100 $ZEROS
	cz|$((SIZE + 2000))|$((SIZE + 2000))|2|2|$((SIZE + 2000 - R3))
	EOT
	test_cmp want got &&
	extracct ingest --db x.db cz >out &&
	grep "^cz: already ingested" out &&
	db_state x.db >again && test_cmp got again
'

# Damaged streams: ten RAPL samples, 0.1 s apart.
T=1700000000000000
test_expect_success 'stream setup' '
	mkdir s &&
	i=0 && while test $i -lt 10; do
		echo "$((T + i * 100000)) $((40000 + i)) Package_0" || return 1
		i=$((i + 1))
	done >s/cpu_energy_rapl_msr_component.log &&
	extracct text -H s/cpu_energy_rapl_msr_component.log >sall &&
	test "$(line_count sall)" -eq 10
'

test_expect_success 'a stream that starts with a blank line is read (GMT writes some)' '
	mkdir b && { echo && cat s/cpu_energy_rapl_msr_component.log; } \
	    >b/cpu_energy_rapl_msr_component.log &&
	extracct check b/cpu_energy_rapl_msr_component.log >out &&
	grep "^b/cpu_energy_rapl_msr_component.log: ok: 10 records" out &&
	extracct text -H b/cpu_energy_rapl_msr_component.log >out &&
	test_cmp sall out &&
	cp b/cpu_energy_rapl_msr_component.log rapl.txt &&
	extracct text -H --provider cpu_energy_rapl_msr_component rapl.txt >out &&
	test_cmp sall out &&
	extracct ingest --db b.db b/cpu_energy_rapl_msr_component.log >out &&
	grep "10 records, 10 rows" out
'

test_expect_success 'a damaged stream: bad line, zeros, a torn last line' '
	mkdir d && f=d/cpu_energy_rapl_msr_component.log &&
	{ sed -n 1,3p s/cpu_energy_rapl_msr_component.log &&
	  echo "$((T + 300000)) 4x Package_0" &&
	  sed -n 5,6p s/cpu_energy_rapl_msr_component.log &&
	  head -c 100 /dev/zero &&
	  sed -n 7,9p s/cpu_energy_rapl_msr_component.log &&
	  printf "%s" "$((T + 900000)) 400"; } >$f &&
	test_expect_code 1 extracct text -H $f >out 2>err &&
	sed "4d;10d" sall >want && test_cmp want out &&
	cat >want <<-EOT &&
	extracct: $f: offset 99: line 4: the reading is not a whole number (skipped bytes 99-128)
	extracct: $f: offset 195: line 7: 100 $ZEROS (skipped bytes 195-294)
	extracct: $f: offset 394: line 10: partial last line (no newline) (skipped bytes 394-413)
	EOT
	test_cmp want err &&
	test_expect_code 1 extracct ingest --db d.db $f >out 2>err &&
	grep "^$f: bytes 0-394: 8 records, 8 rows, .* 2 damaged ranges" out &&
	grep "(incomplete tail, left for the next run: bytes 394-413)" err &&
	db_state d.db >got &&
	cat >want <<-EOT &&
	0
	0
	8
	99|129|99|line 4: the reading is not a whole number
	195|295|195|line 7: 100 $ZEROS
	$f|414|394|8|2|130
	EOT
	test_cmp want got &&
	test_expect_code 1 extracct ingest --db d.db $f >out 2>err &&
	grep "^$f: bytes 394-394: 0 records" out &&
	db_state d.db >again && test_cmp got again
'

test_expect_success 'a stream line cut by zeros (a crash), zeros to the end' '
	f=d/cpu_energy_rapl_msr_component.log &&
	{ sed -n 1,3p s/cpu_energy_rapl_msr_component.log &&
	  printf "%s" "$((T + 300000)) 4"; } >$f && truncate -s 4096 $f &&
	test_expect_code 1 extracct ingest --db z.db $f >out 2>err &&
	cat >want <<-EOT &&
	extracct: $f: offset 99: line 4: cut short by zero bytes (skipped bytes 99-116)
	extracct: $f: offset 117: line 4: 3979 $ZEROS (skipped bytes 117-4095)
	EOT
	test_cmp want err &&
	grep "^$f: bytes 0-4096: 3 records, 3 rows" out &&
	extracct ingest --db z.db $f >out &&
	grep "already ingested (4096 bytes)" out
'

test_done
