#!/bin/sh
# The manual and README against the program: the man
# page's SYNOPSIS, each command's heading and option list, and its
# schema version must say what the binary says (--help, --version), both
# ways, and the commands and make targets that README and the pages of
# docs/ give must exist.  An option added to the code
# and not to the page, or the other way round, fails here.
. "$(dirname "$0")/../lib.sh"

PAGE=$SRC/docs/extracct.8
COMMANDS="dump text check gen ingest merge push config snap acctd rotate run report rollup"

# mdoc lines to usage text: ".Op Fl -db Ar FILE" is "[--db FILE]", an Op
# closing at the end of its line, as mdoc has it.
test_expect_success 'setup: mdoc to usage lines' '
	cat >mdoc.awk <<-\EOF &&
	function add(w) {
		if (s == "" || s ~ /\[$/) s = s w; else s = s " " w
	}
	function macro(l,    n, w, i, fl, depth) {
		sub(/^\./, "", l)
		n = split(l, w, " ")
		for (i = 1; i <= n; i++) {
			if (w[i] == "Op") {
				if (s == "" || s ~ /\[$/) s = s "["; else s = s " ["
				depth++
			} else if (w[i] == "Fl")
				fl = 1
			else if (w[i] == "Ar" || w[i] == "Cm")
				fl = 0
			else {
				add((fl ? "-" : "") w[i])
				fl = 0
			}
		}
		while (depth-- > 0) s = s "]"
	}
	function flush() { if (s != "") print s; s = "" }
	# SYNOPSIS: every .Nm starts a line.
	/^\.Sh / { flush(); syn = ($2 == "SYNOPSIS"); cmds = ($2 == "COMMANDS"); next }
	syn && /^\.Nm/ { flush(); s = "extracct"; next }
	syn && /^\./ { macro($0); next }
	# COMMANDS: each item of the outer list is a command and its usage.
	cmds && /^\.Bl/ { depth++; next }
	cmds && /^\.El/ { depth--; next }
	cmds && depth == 1 && /^\.It Xo$/ { xo = 1; s = "extracct"; next }
	cmds && xo && /^\.Xc$/ { xo = 0; print s > "heads"; s = ""; next }
	cmds && xo { macro($0); next }
	cmds && depth == 1 && /^\.It / { s = "extracct"; sub(/^\.It /, "."); macro($0); print s > "heads"; s = "" }
	END { flush() }
	EOF
	cat >opts.awk <<-\EOF &&
	# The options each command item of COMMANDS lists: "CMD OPTION".
	/^\.Sh / { cmds = ($2 == "COMMANDS"); next }
	!cmds { next }
	/^\.Bl/ { depth++; next }
	/^\.El/ { depth--; next }
	depth == 1 && /^\.It Xo$/ { xo = 1; next }
	depth == 1 && xo { split($0, w, " "); cmd = (w[1] == ".Cm") ? w[2] : "-" w[2]; xo = 0; next }
	depth == 1 && /^\.It Cm / { cmd = $3; next }
	depth == 2 && /^\.It Fl / {
		n = split($0, w, " ")
		for (i = 2; i < n; i++)
			if (w[i] == "Fl")
				print cmd " -" w[i + 1]
	}
	EOF
	# Usage lines as --help prints them: continuation lines joined.
	cat >help.awk <<-\EOF
	/^usage: / { sub(/^usage: /, ""); if (s != "") print s; s = $0; next }
	/^       extracct / { sub(/^ +/, ""); if (s != "") print s; s = $0; next }
	/^   / && s != "" { sub(/^ +/, ""); s = s " " $0; next }
	{ if (s != "") print s; s = "" }
	END { if (s != "") print s }
	EOF
'

test_expect_success 'SYNOPSIS is what extracct --help prints, line for line' '
	awk -f mdoc.awk "$PAGE" | sort >man &&
	extracct --help >help.txt &&
	awk -f help.awk help.txt | sort >help &&
	test_cmp man help
'

test_expect_success 'extracct --help: a line of purpose per command, no other' '
	extracct --help >help.txt &&
	sed -n "/^The commands:\$/,/^\$/p" help.txt | sed "1d;/^\$/d" >list &&
	cat list &&
	awk "{ print \$1 }" list | sort >got &&
	for c in $COMMANDS; do echo $c; done | sort >want &&
	test_cmp want got &&
	! awk "NF < 4 || length(\$0) > 80" list | grep .
'

test_expect_success 'each command heading of COMMANDS is its usage line' '
	awk -f mdoc.awk "$PAGE" >/dev/null &&
	for c in $COMMANDS; do
		extracct $c --help >h.$c &&
		awk -f help.awk h.$c >usage.$c &&
		test "$(line_count usage.$c)" -eq 1 &&
		grep -x -F -f usage.$c heads >/dev/null ||
		{ echo "$c: $(cat usage.$c)"; echo "not among:"; cat heads;
		  return 1; }
	done &&
	# And no heading for a command that is not there.
	for c in $(sed -n "s/^extracct \([a-z][a-z]*\).*/\1/p" heads); do
		echo " $COMMANDS " | grep -q " $c " ||
		{ echo "heading for no command: $c"; return 1; }
	done &&
	grep -x "extracct -vwr \[FILE | -a DIR\]" heads
'

test_expect_success 'each command lists the options its --help has, both ways' '
	awk -f opts.awk "$PAGE" | grep -v "^-vwr " | sort -u >man.opts &&
	for c in $COMMANDS; do
		extracct $c --help >h.$c &&
		grep "^  -" h.$c | grep -o -- "^  -[^ ]*\( --[^ ]*\)\{0,1\}" |
		    tr -s " ," "\n\n" | grep . |
		    grep -v -x -- "-h\|--help\|-c\|--config" |
		    sed "s/^/$c /" || return 1
	done | sort -u >help.opts &&
	test_cmp man.opts help.opts
'

test_expect_success 'the schema version: man page, schema.md, --version, a database' '
	n=$(sed -n "s/^The schema is at version \([0-9]*\) .*/\1/p" "$PAGE") &&
	test -n "$n" &&
	grep "(now \*\*$n\*\*" "$SRC/docs/schema.md" &&
	extracct --version >v &&
	grep "(database schema $n)$" v &&
	extracct ingest --db s.db "$SAMPLES/real/proc.exacct" >/dev/null &&
	test "$(sqlite3 s.db "PRAGMA user_version")" = "$n"
'

test_expect_success 'the page says nothing that is no longer so' '
	! grep -n "are planned\|extracct.db in the current directory\|^\.Pa extracct.db$\|takes no options other than" "$PAGE" &&
	! grep -n "^\.Pa \./extracct\.db" "$PAGE"
'

# Commands as README, docs/*.md and the man page's examples give them:
# the command exists, and every option they use is one of its options.
test_expect_success 'README, docs/ and EXAMPLES use commands and options that exist' '
	for c in $COMMANDS; do
		extracct $c --help >h.$c &&
		grep "^  -" h.$c | grep -o -- "^  -[^ ]*\( --[^ ]*\)\{0,1\}" |
		    tr -s " ," "\n\n" | grep . >o.$c || return 1
	done &&
	{
		grep -ho "\`extracct [^\`]*\`" "$SRC/README.md" \
		    "$SRC"/docs/*.md | tr -d "\`" &&
		sed -n "s/^ *[\$#] \([A-Z][A-Z]*=[^ ]* \)*\(extracct .*\)/\2/p" \
		    "$SRC/README.md" "$SRC"/docs/*.md "$PAGE"
	} | sed "s/[|;&<>].*//" >uses &&
	test "$(line_count uses)" -gt 20 &&
	while read -r x rest; do
		set -- $rest &&
		if [ "$1" = -c ]; then shift 2; fi &&
		c=$1 && shift &&
		case $c in
		-vwr|-war|-V|--version|-h|--help|help|COMMAND) continue ;;
		esac &&
		test -f o.$c || { echo "no command $c: $x $rest"; return 1; }
		for w in "$@"; do
			case $w in
			--*=*) w=${w%%=*} ;;
			-|-[0-9]*|[!-]*) continue ;;
			esac
			grep -q -x -- "$w" o.$c ||
			{ echo "extracct $c has no $w: $x $rest"; return 1; }
		done
	done <uses
'

test_expect_success 'README, docs/: the make targets they name are in the Makefile' '
	{
		grep -ho "\`make [a-z][a-z]*\`" "$SRC/README.md" \
		    "$SRC"/docs/*.md | tr -d "\`" &&
		sed -n "s/^    \(make [a-z][a-z]*\).*/\1/p" "$SRC/README.md" \
		    "$SRC"/docs/*.md
	} | sort -u >targets &&
	test "$(line_count targets)" -ge 4 &&
	while read -r m t; do
		grep -q "^$t:" "$SRC/Makefile" ||
		{ echo "README or docs/ names make $t"; return 1; }
	done <targets
'

test_done
