#!/bin/sh
# rotate on Solaris and illumos drives wracct and acctadm: tested with
# stand-in scripts on PATH that record their arguments and write real
# exacct files the way the kernel would.
. "$(dirname "$0")/../lib.sh"

HOST=$(hostname)

test_expect_success 'setup: stand-in acctadm and wracct, an acctadm.conf' '
	mkdir bin && mkdir -m 700 spool &&
	cat >bin/wracct <<-EOS &&
	#!/bin/sh
	echo "\$*" >>"$TRASH/wracct.log"
	# a pid that exited: wracct fails, as the real one does
	[ -d "/proc/\$4" ] || exit 1
	EOS
	cat >bin/acctadm <<-EOS &&
	#!/bin/sh
	echo "\$*" >>"$TRASH/acctadm.log"
	[ "\$1" = -f ] || exit 2
	case "\$3" in
	process) kind=proc ;;
	*) kind=\$3 ;;
	esac
	# the kernel starts the new file with a header (and records)
	"$EXTRACCT" gen --kind \$kind --records 3 -o "\$2" || exit 1
	EOS
	chmod +x bin/wracct bin/acctadm &&
	"$EXTRACCT" gen --kind proc --records 20 -o old.proc &&
	cat >acctadm.conf <<-EOS
	# acctadm.conf (pre-SMF), as acctadm writes it
	ACCTADM_PROC_ENABLE=yes
	ACCTADM_PROC_FILE=$TRASH/old.proc
	ACCTADM_PROC_TRACKED=extended
	ACCTADM_TASK_ENABLE=no
	ACCTADM_TASK_FILE=none
	ACCTADM_FLOW_ENABLE=yes
	ACCTADM_FLOW_FILE=$TRASH/old.flow
	EOS
'

test_expect_success 'rotate: wracct -t partial per pid, acctadm -f per enabled type' '
	PATH="$TRASH/bin:$PATH" extracct rotate --spool "$TRASH/spool" \
	    --acctadm-conf acctadm.conf >out &&
	cat out &&
	grep "^rotate: wracct wrote [0-9]* partial records" out &&
	grep -c "^-t partial -i [0-9]* process$" wracct.log >n &&
	test "$(cat n)" -gt 3 &&
	test "$(grep -vc "^-t partial -i [0-9]* process$" wracct.log)" -eq 0 &&
	grep "^-f $TRASH/spool/proc-$HOST-[0-9]\\{8\\}-[0-9]\\{4\\} process$" acctadm.log &&
	grep "^-f $TRASH/spool/flow-$HOST-[0-9]\\{8\\}-[0-9]\\{4\\} flow$" acctadm.log &&
	! grep " task$" acctadm.log &&
	test "$(ls spool | grep -c "^proc-$HOST-")" -eq 1 &&
	extracct check spool/proc-$HOST-* >check.out &&
	grep ": ok: 3 records" check.out
'

test_expect_success 'the spool lists Solaris logs; run ingests the closed ones' '
	extracct gen --kind proc --records 30 --seed 2 -o spool/proc-$HOST-20000101-0000 &&
	mkdir txt &&
	PATH="$TRASH/bin:$PATH" extracct run --spool "$TRASH/spool" --db s.db --outdir txt --no-snap --no-rotate >out &&
	grep "spool/proc-$HOST-20000101-0000: bytes 0-" out &&
	test "$(sqlite3 s.db "SELECT count(*) FROM procs")" -gt 10
'

test_done
