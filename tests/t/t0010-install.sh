#!/bin/sh
# make install and make uninstall, and the licence the packages carry.
. "$(dirname "$0")/../lib.sh"

# From a source tree with a build only (not an installed copy's tests).
if [ ! -f "$SRC/Makefile" ] || [ ! -x "$SRC/build/extracct" ]; then
	test_skip 'make install and uninstall' 'no source tree with a build'
	test_done
	exit
fi

inst() { make -s -C "$SRC" "$@" DESTDIR="$TRASH/root" PREFIX=/opt/x >/dev/null; }

test_expect_success 'make install honours DESTDIR and PREFIX' '
	inst install &&
	test -x root/opt/x/bin/extracct &&
	test -f root/opt/x/share/man/man8/extracct.8.gz &&
	test -f root/etc/cron.d/extracct &&
	grep -q "/opt/x/bin/extracct run " root/etc/cron.d/extracct &&
	test -f root/etc/logrotate.d/extracct &&
	test -f root/lib/systemd/system/extracct.timer &&
	grep -q "^ExecStart=/opt/x/bin/extracct snap$" \
	    root/lib/systemd/system/extracct-snap.service &&
	test -f root/lib/systemd/system/extracct-snap.timer &&
	test_cmp "$SRC/LICENSE" root/opt/x/share/doc/extracct/LICENSE &&
	test "$(stat -c %a root/var/spool/extracct)" = 700 &&
	test "$(stat -c %a root/var/lib/extracct)" = 750 &&
	test "$(stat -c %a root/var/log/extracct)" = 750
'

# The page names docs/NAME for what it leaves to them: they are installed.
test_expect_success 'the documents the man page names are installed' '
	inst install &&
	grep -o "docs/[a-z.]*[a-z]" "$SRC/docs/extracct.8" | sort -u >named &&
	test -s named &&
	while read -r f
	do
		test_cmp "$SRC/$f" "root/opt/x/share/doc/extracct/${f#docs/}" || return 1
	done <named
'

test_expect_success 'the binary is installed stripped, unless INSTALL_STRIP=' '
	inst install &&
	readelf -S "$SRC/build/extracct" | grep -q "\.symtab" &&
	! readelf -S root/opt/x/bin/extracct | grep -q "\.symtab" &&
	inst install INSTALL_STRIP= &&
	cmp "$SRC/build/extracct" root/opt/x/bin/extracct
'

test_expect_success 'the man page: section 8, gzip -9n, and a link in man1' '
	inst install &&
	gzip -dc root/opt/x/share/man/man8/extracct.8.gz >page &&
	test_cmp "$SRC/docs/extracct.8" page &&
	grep -q "^\.Dt EXTRACCT 8$" page &&
	# No file name (flag bit 3) and no time stamp (bytes 4-7) in the
	# header: the same page makes the same bytes.
	test "$(od -An -tu1 -j3 -N5 root/opt/x/share/man/man8/extracct.8.gz |
	    tr -s " ")" = " 0 0 0 0 0" &&
	test "$(readlink root/opt/x/share/man/man1/extracct.1.gz)" = \
	    ../man8/extracct.8.gz
'

test_expect_success 'make uninstall removes what make install installed' '
	rm -rf root &&
	inst install &&
	inst uninstall &&
	find root ! -type d >left &&
	find root -name "*extracct*" >>left &&
	test_cmp /dev/null left
'

test_expect_success 'make uninstall keeps a spool or database that holds data' '
	rm -rf root &&
	inst install &&
	echo rows >root/var/lib/extracct/extracct.db &&
	echo log >root/var/spool/extracct/pacct-h-20260101-0000 &&
	inst uninstall &&
	test -f root/var/lib/extracct/extracct.db &&
	test -f root/var/spool/extracct/pacct-h-20260101-0000 &&
	test ! -e root/var/log/extracct &&
	test ! -e root/opt/x/bin/extracct
'

test_expect_success 'debian/copyright states the licence of LICENSE' '
	grep -q "^License: ISC$" "$SRC/debian/copyright" &&
	sed -n "/^License: ISC$/,\$p" "$SRC/debian/copyright" |
	    sed -n "/^ Permission/,\$p" | sed "s/^ //; s/^\.$//" >text &&
	sed -n "/^Permission/,\$p" "$SRC/LICENSE" >expect &&
	test_cmp expect text &&
	grep -q "^Copyright (c) 2026 the extracct authors$" "$SRC/LICENSE" &&
	grep -q "^Copyright: 2026 the extracct authors$" "$SRC/debian/copyright" &&
	grep -q "ISC licence" "$SRC/README.md"
'

test_done
