#!/bin/sh
# Untrusted strings: a process can name itself anything, terminal escape
# sequences included; a log names its host, a stream its series, a file
# is named by whoever made it.  Every output prints them escaped: text,
# dump, report (table, CSV, JSON), --outdir CSV, and the messages.
. "$(dirname "$0")/../lib.sh"

# Nothing but printable ASCII and newlines (and the bytes $2) in file $1.
only_printable() {
	test "$(tr -d "$2\n\040-\176" <"$1" | wc -c)" -eq 0 ||
	    { echo "$1: raw bytes:" && od -c "$1" | head -n 20; return 1; }
}

# The same for a CSV file, whose lines end in CR LF.
csv_printable() {
	sed "s/\r\$//" "$1" >"$1.lf" && only_printable "$1.lf"
}

# Where a test checks a line with grep -F -f: the lines of file $1.
has_lines() {
	grep -F -x -f "$1" "$2" >"$2.found" &&
	test "$(line_count "$2.found")" -ge "$(line_count "$1")" ||
	    { echo "$2 lacks a line of $1:" && cat "$1" && cat -v "$2"; return 1; }
}

test_expect_success 'setup: a record with a hostile command name' '
	cat >evil.spec <<-\EOS &&
	header kernel SunOS host
	group 0xf0000100
	  uint 0x30001000 66
	  string 0x60001006 evil\x1b[2J\x07 x\x5cy
	  string 0x60001021 zone\x0aname
	end
	group 0xf0000109
	  uint 0x30003000 0x0a000001
	  string 0x6000300e act\x1bion
	end
	EOS
	extracct_test encode evil.spec evil.exacct
'

test_expect_success 'text escapes control bytes, space and backslash' '
	extracct text -H -k proc evil.exacct >out &&
	grep " evil\\\\033\\[2J\\\\007\\\\040x\\\\134y$" out &&
	! grep "$(printf "\\033")" out
'

test_expect_success 'dump escapes control bytes, keeps spaces inside quotes' '
	extracct dump evil.exacct >out &&
	grep "\"evil\\\\033\\[2J\\\\007 x\\\\134y\"$" out &&
	grep "\"zone\\\\012name\"$" out &&
	! grep "$(printf "\\033")" out
'

test_expect_success 'flow action name escaped, absent fields print -' '
	extracct text -H -k flow evil.exacct >out &&
	grep "^- - - - - - 10.0.0.1:- -:- - - act\\\\033ion$" out
'

test_expect_success 'a string without its NUL is still bounded' '
	cat >nonul.spec <<-\EOS &&
	header kernel SunOS host
	group 0xf0000100
	  raw 0x60001006 41 42 43
	end
	EOS
	extracct_test encode nonul.spec nonul.exacct &&
	extracct dump nonul.exacct >out &&
	grep "\"ABC\"$" out
'

# The hostile tail: ESC [2J (clear screen), CR, LF, BS, a quote, a comma,
# a backslash, a space and two high bytes.  Escaped (fmt.h): \033[2J
# \015\012\010"q,\134z \351\377.
test_expect_success 'setup: hostile host, command, zone, action, detail' '
	T="\\x1b[2J\\x0d\\x0a\\x08\"q,\\x5cz \\xe9\\xff" &&
	printf "header kernel SunOS h%s\n" "$T" >hdr &&
	{ cat hdr && cat <<-EOS; } >p.spec &&
	group 0xf0000100
	  uint 0x30001000 66
	  uint 0x30001001 1000
	  uint 0x4000100b 1
	  uint 0x4000100c 0
	  uint 0x4000100d 0
	  uint 0x4000100e 5000000
	  uint 0x40001007 1109813617
	  uint 0x40001008 0
	  uint 0x40001009 1109813627
	  uint 0x4000100a 0
	  string 0x60001006 e$T
	  string 0x60001021 z$T
	end
	EOS
	{ cat hdr && cat <<-EOS; } >f.spec &&
	group 0xf0000109
	  uint 0x30003000 0x0a000001
	  uint 0x30003001 0x0a000002
	  uint 0x20003004 80
	  uint 0x20003005 43727
	  uint 0x10003006 6
	  uint 0x4000300a 1110482732
	  uint 0x4000300b 1110482734
	  uint 0x30003008 3447
	  uint 0x30003009 10
	  string 0x6000300e a$T
	end
	EOS
	extracct_test encode p.spec p.exacct &&
	extracct_test encode f.spec f.exacct &&
	D=$(printf "D\\033[2J\\r\\b\"q,\\\\\\351\\377") &&
	for t in 1699999201000549 1699999202000709 1699999203001270; do
		printf "%s 4241820 %s\n" $t "$D" || return 1
	done >cpu_energy_rapl_msr_component.log &&
	printf "h\\033[2J\\r\\n\\b\"q,\\\\z \\351\\377" >host.txt
'

test_expect_success 'text and dump: the header host, command, zone, action' '
	extracct text p.exacct f.exacct >out &&
	only_printable out &&
	cat >expect <<-\EOF &&
	1109813617 01:33:37 10.0000 66 - 1000 1.000 0.005 - - - - - - - - e\033[2J\015\012\010"q,\134z\040\351\377
	1110482732 19:25:32 2 - - tcp 10.0.0.1:80 10.0.0.2:43727 10 3447 a\033[2J\015\012\010"q,\134z\040\351\377
	EOF
	has_lines expect out &&
	extracct dump p.exacct >out &&
	only_printable out "\t" &&
	cat >expect <<-\EOF &&
	     4	 hostname                     	"h\033[2J\015\012\010\042q,\134z \351\377"
	  1021	 zone                         	"z\033[2J\015\012\010\042q,\134z \351\377"
	EOF
	has_lines expect out &&
	extracct dump -v f.exacct >out &&
	only_printable out "\t"
'

test_expect_success '--outdir CSV: records, flows and samples escaped, quoted' '
	mkdir od &&
	extracct ingest --db h.db --outdir od p.exacct f.exacct >log &&
	extracct ingest --db h.db --outdir od --host "$(cat host.txt)" \
	    cpu_energy_rapl_msr_component.log >>log &&
	only_printable log &&
	for f in od/*.csv; do csv_printable "$f" || return 1; done &&
	for f in od/*.txt; do only_printable "$f" || return 1; done &&
	H="\"h\\033[2J\\015\\012\\010\"\"q,\\134z \\351\\377\"" &&
	grep -F "final,$H,66," od/p.exacct.csv &&
	grep -F ",\"e\\033[2J\\015\\012\\010\"\"q,\\134z \\351\\377\",\"z\\033[2J\\015\\012\\010\"\"q,\\134z \\351\\377\"" od/p.exacct.csv &&
	grep -F "$H,tcp,10.0.0.1,80," od/f.exacct.csv &&
	grep -F ",\"a\\033[2J\\015\\012\\010\"\"q,\\134z \\351\\377\"" od/f.exacct.csv &&
	test "$(grep -c -F "$H,cpu_energy_rapl_msr_component,\"D\\033[2J\\015\\010\"\"q,\\134\\351\\377\",1699999" \
	    od/cpu_energy_rapl_msr_component.log.csv)" -eq 3 &&
	if command -v python3 >/dev/null; then
		python3 -c "import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline=\"\")))
assert [len(r) for r in rows] == [9] * 4, rows
assert rows[1][2] == \"D\\\\033[2J\\\\015\\\\010\\\"q,\\\\134\\\\351\\\\377\", rows[1]
" od/cpu_energy_rapl_msr_component.log.csv
	fi
'

# the table is for a terminal and escapes; CSV and JSON are
# for programs and hold the name as it is (CSV quoted, JSON escaped as
# JSON, a byte that is not UTF-8 as the Latin-1 character of its value).
check_names() {
	python3 -c "import csv, json, sys
by, want = sys.argv[1], sys.argv[2] + \"\\x1b[2J\\r\\n\\b\\\"q,\\\\z \\xe9\\xff\"
j = json.load(open(sys.argv[3]))[\"rows\"][0][by]
c = list(csv.reader(open(sys.argv[4], newline=\"\", encoding=\"latin-1\")))[1][0]
assert j == want, (j, want)
assert c == want, (c, want)
" "$@"
}

test_expect_success 'report: the table escapes every key; CSV and JSON hold it as it is' '
	for by in command zone host; do
		for f in table csv json; do
			extracct report --db h.db --by $by --format $f \
			    >r.$by.$f || return 1
		done
	done &&
	for f in r.*.table r.*.json; do only_printable "$f" || return 1; done &&
	grep -F "e\\033[2J\\015\\012\\010\"q,\\134z\\040\\351\\377 " r.command.table >line &&
	awk "{ exit \$2 != 1 }" line &&
	grep -F "{\"zone\": \"z\\u001b[2J\\u000d\\u000a\\u0008\\\"q,\\\\z \\u00e9\\u00ff\", \"calls\": 1," r.zone.json &&
	if command -v python3 >/dev/null; then
		check_names command e r.command.json r.command.csv &&
		check_names zone z r.zone.json r.zone.csv &&
		check_names host h r.host.json r.host.csv
	fi
'

test_expect_success 'report FILE... (no database): the same rules' '
	for f in table csv json; do
		extracct report --by command --format $f p.exacct >s.$f ||
		    return 1
	done &&
	only_printable s.table && only_printable s.json &&
	if command -v python3 >/dev/null; then
		check_names command e s.json s.csv
	fi
'

test_expect_success 'report --energy: host, key and carbon source escaped' '
	G=$(printf "g\\033[2J\\r\\n\\b\"q,\\\\z \\303\\251") &&
	extracct gen --kind energy --records 20 --host "$G" -o e.exacct &&
	cat >e.yml <<-EOF &&
	database: $TRASH/e.db
	host: "g\\e[2J\\r\\n\\b\\"q,\\\\z \\xe9"
	carbon_intensity: 445
	carbon_source: "s\\e[2J\\r\\b,\\"\\xe9"
	EOF
	extracct -c e.yml ingest e.exacct >log &&
	for f in table csv json; do
		extracct -c e.yml report --energy --by host --format $f \
		    >e.$f || return 1
	done &&
	only_printable e.table && only_printable e.json &&
	grep -F "# carbon intensity of g\\033[2J\\015\\012\\010\"q,\\134z \\303\\251: 445 g CO2e/kWh (s\\033[2J\\015\\010,\"\\303\\251)" e.table &&
	if command -v python3 >/dev/null; then
		python3 -c "import csv, json
h = \"g\\x1b[2J\\r\\n\\b\\\"q,\\\\z \\xe9\"
src = \"s\\x1b[2J\\r\\b,\\\"\\xe9\"
j = json.load(open(\"e.json\"))[\"rows\"][0]
c = list(csv.reader(open(\"e.csv\", newline=\"\", encoding=\"utf-8\")))[1]
assert j[\"host\"] == h and c[0] == h, (j, c)
assert j[\"carbon_sources\"] == src and c[11] == src, (j, c)
"
	fi
'

test_expect_success 'messages escape a hostile file name' '
	N=$(printf "bad\\033[2J\\r\\n\\b\"q,\\\\\\351.exacct") &&
	head -c 300 p.exacct >"$N" &&
	W="bad\\033[2J\\015\\012\\010\"q,\\134\\351.exacct" &&
	test_expect_code 1 extracct text "$N" >out 2>err &&
	only_printable err &&
	grep -F -x "extracct: $W: offset 114: group size 226 runs past the end (170 bytes left) (skipped bytes 114-299)" err &&
	test_expect_code 1 extracct check "$N" >out 2>err &&
	only_printable out &&
	grep -F -x "$W: bytes 114-299 damaged: offset 114: group size 226 runs past the end (170 bytes left)" out &&
	grep -F "$W: damaged: 0 records" out &&
	test_expect_code 1 extracct ingest --db n.db "$N" >out 2>err &&
	only_printable out && only_printable err &&
	grep -F "$W: bytes 0-114: 0 records" out &&
	grep -F "extracct: $W: offset 114: " err &&
	test_must_fail extracct text "no$N" 2>err &&
	only_printable err &&
	grep -F -x "extracct: no$W: No such file or directory" err &&
	test_must_fail extracct "$N" 2>err &&
	only_printable err
'

test_done
