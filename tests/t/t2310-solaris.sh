#!/bin/sh
# rotate on Solaris and illumos drives wracct and acctadm: tested with
# stand-in scripts on PATH that record their arguments and write real
# exacct files the way the kernel would.
. "$(dirname "$0")/../lib.sh"

HOST=$(hostname)

test_expect_success 'setup: stand-in acctadm and wracct, an acctadm.conf' '
	mkdir bin && mkdir -m 700 spool &&
	: >refuse &&
	cat >bin/wracct <<-EOS &&
	#!/bin/sh
	# As illumos wracct does: the ids in order, and at the first that
	# fails (gone, or listed in refuse) a message and exit 1.
	echo "\$*" >>"$TRASH/wracct.calls"
	[ "\$1 \$2 \$3 \$5" = "-t partial -i process" ] || exit 2
	for id in \$(echo "\$4" | tr "," " "); do
		if [ ! -d "/proc/\$id" ] || grep -qx "\$id" "$TRASH/refuse"; then
			echo "wracct: operation failed on pid \$id: No such process" >&2
			exit 1
		fi
		echo "\$id" >>"$TRASH/wracct.log"
	done
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

# Three live pids that wracct refuses, as it refuses one that exited:
# each stops its call, and only the pids after it are asked again.
test_expect_success 'rotate: wracct -t partial in batches, acctadm -f per enabled type' '
	sleep 60 &
	s1=$!
	sleep 60 &
	s2=$!
	sleep 60 &
	s3=$!
	printf "%s\n" $s1 $s2 $s3 >refuse &&
	PATH="$TRASH/bin:$PATH" extracct rotate --spool "$TRASH/spool" \
	    --acctadm-conf acctadm.conf >out &&
	kill $s1 $s2 $s3 &&
	cat out wracct.calls &&
	w=$(sed -n "s/^rotate: wracct wrote \([0-9]*\) partial records (\([0-9]*\) processes gone or refused)$/\1 \2/p" out) &&
	echo "written, failed: $w" &&
	test "$(line_count wracct.log)" -eq "${w% *}" &&
	test "${w#* }" -ge 3 &&
	test "$(sort wracct.log | uniq -d | wc -l)" -eq 0 &&
	! grep -qxf refuse wracct.log &&
	test "${w% *}" -gt 3 &&
	calls=$(line_count wracct.calls) &&
	test "$calls" -le $(( (${w% *} + ${w#* }) / 256 + 1 + ${w#* } )) &&
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

# A wracct that fails without naming the pid: the pids of that call are
# each asked alone, the refused one is left out, and the calls stay few.
test_expect_success 'a wracct failure that names no pid: that call, pid by pid' '
	sleep 60 &
	s4=$!
	mkdir bin4 && cp bin/acctadm bin4/ &&
	sed "s/echo \"wracct: operation failed on pid \\\$id: No such process\" >&2/:/" \
	    bin/wracct >bin4/wracct && chmod +x bin4/wracct &&
	! grep "operation failed" bin4/wracct &&
	echo $s4 >refuse &&
	: >wracct.log && : >wracct.calls &&
	"$EXTRACCT" gen --kind proc --records 20 -o old.proc &&
	PATH="$TRASH/bin4:$PATH" extracct rotate --spool "$TRASH/spool" \
	    --acctadm-conf acctadm.conf >out &&
	kill $s4 &&
	cat out &&
	! grep -qx $s4 wracct.log &&
	w=$(sed -n "s/^rotate: wracct wrote \([0-9]*\) partial records (\([0-9]*\) processes gone or refused)$/\1 \2/p" out) &&
	echo "written, failed: $w; calls $(line_count wracct.calls); unique $(sort -u wracct.log | wc -l)" &&
	test "${w#* }" -ge 1 &&
	test "$(sort -u wracct.log | wc -l)" -ge "${w% *}" &&
	n=$(( ${w% *} + ${w#* } )) &&
	test "$(line_count wracct.calls)" -le $(( n / 256 + 2 + n ))
'

# Since SMF there is no acctadm.conf: acctadm itself says what is active.
test_expect_success 'no acctadm.conf: the active files from acctadm' '
	mkdir bin2 sp2 && chmod 700 sp2 &&
	cp bin/wracct bin2/ &&
	"$EXTRACCT" gen --kind task --records 5 -o old.task &&
	cat >bin2/acctadm <<-EOS &&
	#!/bin/sh
	echo "\$*" >>"$TRASH/acctadm2.log"
	if [ \$# -eq 0 ]; then
		cat <<-EOT
		            Task accounting: active
		       Task accounting file: $TRASH/old.task
		     Tracked task resources: extended
		   Untracked task resources: none
		         Process accounting: inactive
		    Process accounting file: none
		  Tracked process resources: none
		Untracked process resources: extended,host
		            Flow accounting: inactive
		       Flow accounting file: none
		EOT
		exit 0
	fi
	[ "\$1" = -f ] || exit 2
	"$EXTRACCT" gen --kind \$3 --records 2 -o "\$2"
	EOS
	chmod +x bin2/acctadm &&
	: >wracct.log &&
	PATH="$TRASH/bin2:$PATH" extracct rotate --spool "$TRASH/sp2" \
	    --acctadm-conf /nonexistent/acctadm.conf >out &&
	cat out &&
	grep "^rotate: task accounting moved from $TRASH/old.task to $TRASH/sp2/task-$HOST-" out &&
	grep "^-f $TRASH/sp2/task-$HOST-[0-9]\{8\}-[0-9]\{4\} task$" acctadm2.log &&
	! grep " process$" acctadm2.log &&
	! grep "wracct" out &&
	test ! -s wracct.log
'

test_expect_success 'nothing active: rotate says so and fails' '
	cat >bin2/acctadm <<-EOS &&
	#!/bin/sh
	[ \$# -eq 0 ] || exit 2
	echo "            Task accounting: inactive"
	echo "       Task accounting file: none"
	echo "         Process accounting: inactive"
	echo "    Process accounting file: none"
	EOS
	chmod +x bin2/acctadm &&
	test_must_fail env PATH="$TRASH/bin2:$PATH" "$EXTRACCT" rotate \
	    --spool "$TRASH/sp2" --acctadm-conf /nonexistent/acctadm.conf \
	    >out 2>err &&
	cat err &&
	grep "extended accounting is not active for processes, tasks or flows" err
'

test_expect_success 'run on Solaris takes no Linux snapshot' '
	mkdir -m 700 sp3 &&
	PATH="$TRASH/bin:$PATH" extracct run --spool "$TRASH/sp3" --db r.db \
	    --no-rotate >out &&
	cat out &&
	grep "^snap: none (Solaris or illumos" out &&
	test -z "$(ls sp3 | grep "^snap-")"
'

test_done
