#!/bin/sh
# The folder layout is the architecture (README, "The source"; each
# file's job: docs/design.md, "The source"): each folder may include
# headers only from those below it.
#   parsers/         nothing above it
#   store/           parsers/
#   reports/         parsers/, store/
#   fleet/           parsers/, store/
#   extract/spool/   parsers/, store/, reports/, and of extract/ only
#                    util.h and paths.h
#   extract/linux/   the same, and extract/spool/
#   extract/         everything
# An include outside its folder's list fails, named with its line.  The
# two tables name only folders that exist, and the README's names every
# folder that holds C sources.
. "$(dirname "$0")/../lib.sh"

# includes DIR: "file:line:header" of every quoted include in DIR's own
# sources, the header resolved from the top of the tree.
includes() {
	for f in "$SRC/$1"/*.c "$SRC/$1"/*.h; do
		[ -f "$f" ] || continue
		grep -n '^#include "' "$f" | while IFS= read -r l; do
			h=${l#*\"}
			h=${h%%\"*}
			r=$(cd "$(dirname "$f")" && realpath -m "$h")
			echo "${f#$SRC/}:${l%%:*}:${r#$SRC/}"
		done
	done
}

# allowed DIR PATTERN...: every include of DIR matches one of the
# patterns (shell patterns on the resolved header).
allowed() {
	dir=$1
	shift
	includes "$dir" >inc || return 1
	test -s inc || { echo "$dir: no includes read"; return 1; }
	bad=0
	while IFS= read -r l; do
		h=${l##*:}
		ok=0
		for p in "$@"; do
			case $h in $p) ok=1 ;; esac
		done
		[ $ok -eq 1 ] || { echo "$dir may not include: $l"; bad=1; }
	done <inc
	return $bad
}

test_expect_success 'parsers/ includes only parsers/' '
	allowed parsers "parsers/*"
'
test_expect_success 'store/ includes parsers/ and store/' '
	allowed store "parsers/*" "store/*"
'
test_expect_success 'reports/ includes parsers/, store/ and reports/' '
	allowed reports "parsers/*" "store/*" "reports/*"
'
test_expect_success 'fleet/ includes parsers/, store/ and fleet/' '
	allowed fleet "parsers/*" "store/*" "fleet/*"
'
test_expect_success 'extract/spool/ uses neither extract/linux/ nor the commands' '
	allowed extract/spool "parsers/*" "store/*" "reports/*" \
	    extract/util.h extract/paths.h "extract/spool/*"
'
test_expect_success 'extract/linux/ uses extract/spool/, not the commands' '
	allowed extract/linux "parsers/*" "store/*" "reports/*" \
	    extract/util.h extract/paths.h "extract/spool/*" "extract/linux/*"
'
test_expect_success 'util.h and paths.h use nothing else of extract/' '
	for f in util.c util.h paths.h; do
		grep -n "^#include \"" "$SRC/extract/$f" | grep -v \
		    -e "\"\.\./parsers/" -e "\"\.\./reports/" \
		    -e "\"util\.h\"" -e "\"paths\.h\"" && return 1
	done
	return 0
'
test_expect_success 'the check fails on a file that breaks the rule' '
	mkdir -p fake/extract/spool fake/extract/linux &&
	printf "#include \"../linux/procfs.h\"\n" >fake/extract/spool/x.c &&
	! (SRC=$TRASH/fake && allowed extract/spool "extract/spool/*") >out &&
	grep "extract/spool may not include: extract/spool/x.c:1:extract/linux/procfs.h" out
'

# folders FILE: the folders in the first column of FILE's tables
# ("| `dir/` | ..."), one a line, without the trailing slash.
folders() {
	sed -n 's/^| `\([a-z.][a-z/._-]*\)\/` |.*/\1/p' "$1"
}

# tables_exist DOC...: every folder DOC's tables name is one of $SRC.
tables_exist() {
	for doc in "$@"; do
		folders "$SRC/$doc" >f || return 1
		test "$(line_count f)" -ge 10 ||
		{ echo "$doc: $(line_count f) folders read"; return 1; }
		while read -r d; do
			test -d "$SRC/$d" ||
			{ echo "$doc names $d/, which does not exist"; return 1; }
		done <f
	done
}

test_expect_success 'the layout tables name folders that exist' '
	tables_exist README.md docs/design.md
'

test_expect_success 'the README names every folder that holds C sources' '
	folders "$SRC/README.md" >f &&
	{ (cd "$SRC" && git ls-files "*.c" 2>/dev/null) ||
	    (cd "$SRC" && find . -name "*.c" ! -path "./build/*"); } |
	    sed "s,^\./,,; s,/[^/]*$,," | sort -u >dirs &&
	test "$(line_count dirs)" -ge 8 &&
	while read -r d; do
		grep -qx "$d" f && continue
		# tests/unit/, tests/fuzz/ ...: the tests/ row names them.
		case $d in tests/*) grep -qx tests f && continue ;; esac
		echo "README, The source: no row for $d/"
		return 1
	done <dirs
'

test_expect_success 'the table check fails on a folder that does not exist' '
	folders "$SRC/README.md" >f &&
	while read -r d; do mkdir -p "fake/$d" || return 1; done <f &&
	cp "$SRC/README.md" fake/README.md &&
	(SRC=$TRASH/fake && tables_exist README.md) &&
	printf "| \140gone/\140 | nothing |\n" >>fake/README.md &&
	! (SRC=$TRASH/fake && tables_exist README.md) >out &&
	grep "README.md names gone/, which does not exist" out
'

test_done
