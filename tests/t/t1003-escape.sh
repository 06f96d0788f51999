#!/bin/sh
# Untrusted strings: a process can name itself anything, terminal escape
# sequences included; text and dump print them escaped.
. "$(dirname "$0")/../lib.sh"

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

test_done
