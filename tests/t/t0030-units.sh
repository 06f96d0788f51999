#!/bin/sh
# The cron file, the systemd units and the logrotate file.  cron's
# job lines must run only where systemd does
# not (so the cron file and the timers never both run the job), each run
# must be dated in run.log, the 5-minute snapshots must fall on the same
# minutes under cron and the timer and never on the hourly run's, and
# the run, snap and acctd units carry the sandbox they are documented
# with.  Nothing here runs systemd or cron: the cron lines are run by
# sh with a stand-in extracct, as cron would run them.
. "$(dirname "$0")/../lib.sh"

CRON=$SRC/cron/extracct.cron
UNITS=$SRC/cron

# The job lines, commented or not: "MIN HOUR DOM MON DOW USER COMMAND".
test_expect_success 'setup: the job lines' '
	sed -n "s/^#\{0,1\}\([0-9*][^ 	]* [^ 	]* [^ 	]* [^ 	]* [^ 	]*\)[ 	]*root[ 	]*/\1	/p" \
	    "$CRON" >jobs &&
	cat jobs &&
	test "$(wc -l <jobs)" -eq 2 &&
	grep "^0 \* \* \* \*	.*extracct run " jobs &&
	grep "^5-55/5 \* \* \* \*	.*extracct snap" jobs
'

test_expect_success 'every job line runs only without systemd' '
	cut -f2 jobs >cmds &&
	! grep -v "^test -d /run/systemd/system || " cmds
'

# Run a job line's command as cron does (\% is %), with /run/systemd
# and /var/log/extracct moved under the trash, and extracct a stand-in
# that says what it was asked and exits 1.
run_job() {
	sed -n "${1}p" cmds | sed -e "s|\\\\%|%|g" \
	    -e "s|/run/systemd/system|$TRASH/systemd|" \
	    -e "s|/var/log/extracct|$TRASH/log|g" >job.sh &&
	PATH="$TRASH/bin:$PATH" sh -c "umask 022; . ./job.sh"
}

test_expect_success 'without systemd: each run dated in run.log, 0640' '
	mkdir bin log &&
	printf "#!/bin/sh\necho \"extracct \$*\"\necho oops >&2\nexit 1\n" >bin/extracct &&
	chmod +x bin/extracct &&
	test_expect_code 1 run_job 1 2>err1 &&
	test_expect_code 1 run_job 2 2>err2 &&
	cat log/run.log &&
	sed -e "s/^[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z /TS /" \
	    log/run.log >got &&
	cat >want <<-EOT &&
	TS hourly run: start
	extracct run --outdir $TRASH/log
	oops
	TS hourly run: exit 1
	TS snapshot: start
	extracct snap
	oops
	TS snapshot: exit 1
	EOT
	test_cmp want got &&
	test "$(stat -c %a log/run.log)" = 640
'

# cron mails what a job prints and nothing else: a failed run says so
# there, and the job keeps the run's status; a good one prints nothing.
test_expect_success 'without systemd: a failed run is on standard error, its status kept' '
	echo "extracct run: exit 1, see $TRASH/log/run.log" >want1 &&
	test_cmp want1 err1 &&
	echo "extracct snap: exit 1, see $TRASH/log/run.log" >want2 &&
	test_cmp want2 err2 &&
	printf "#!/bin/sh\nexit 0\n" >bin/extracct &&
	run_job 1 2>err3 && run_job 2 2>>err3 &&
	test_cmp /dev/null err3
'

test_expect_success 'with systemd: the cron lines do nothing' '
	rm log/run.log && mkdir -p systemd &&
	run_job 1 && run_job 2 &&
	! test -e log/run.log
'

test_expect_success 'the logrotate file rotates run.log' '
	grep "^/var/log/extracct/run.log {$" "$UNITS/extracct.logrotate" &&
	grep "^[	 ]*create 0640 root adm$" "$UNITS/extracct.logrotate"
'

test_expect_success 'under systemd the run and snap log to the journal' '
	! grep -n "run\.log\|StandardOutput\|StandardError" \
	    "$UNITS/extracct.service" "$UNITS/extracct-snap.service"
'

# The minutes of an hour a schedule fires at, one a line.
cron_minutes() {
	case $1 in
	*/*) r=${1%/*} s=${1#*/} ;;
	*) r=$1 s=1 ;;
	esac
	case $r in
	\*) a=0 b=59 ;;
	*-*) a=${r%-*} b=${r#*-} ;;
	*) a=$r b=$r ;;
	esac
	seq "$a" "$s" "$b"
}

timer_minutes() {
	systemd-analyze calendar --iterations=13 \
	    --base-time="2026-01-01 09:59:59 UTC" "$1" |
	sed -n "s/.* 2026-01-01 10:\([0-9][0-9]\):00 UTC$/\1/p" |
	sed "s/^0\([0-9]\)/\1/"
}

test_expect_success 'snapshots: the same minutes under cron and the timer, never :00' '
	cron_minutes "$(sed -n 2p jobs | cut -d" " -f1)" >cron.min &&
	cat cron.min | tr "\n" " " && echo &&
	! grep -x 0 cron.min &&
	test "$(wc -l <cron.min)" -eq 11 &&
	cal=$(sed -n "s/^OnCalendar=//p" "$UNITS/extracct-snap.timer") &&
	echo "timer: $cal" &&
	if command -v systemd-analyze >/dev/null 2>&1
	then
		timer_minutes "$cal" >timer.min &&
		test_cmp cron.min timer.min
	else
		test "$cal" = "*:05..55/5"
	fi &&
	sed -n 1p jobs | grep "^0 \* \* \* \*	" &&
	grep -x "OnCalendar=hourly" "$UNITS/extracct.timer"
'

# The value(s) of KEY in unit file $1, one a line.
unit_key() {
	sed -n "s/^$2=//p" "$UNITS/$1"
}

# The default paths, as extracct itself has them.
test_expect_success 'setup: the default paths' '
	extracct config >cfg &&
	cfg() { sed -n "s/^$1: \"\(.*\)\"$/\1/p" cfg; } &&
	cfg spool_dir >spool && test -s spool &&
	dirname "$(cfg database)" >dbdir &&
	cfg acctd_pidfile >pidfile && test -s pidfile
'

for u in extracct.service extracct-snap.service extracct-acctd.service
do
	test_expect_success "$u: sandboxed" '
		for kv in ProtectSystem=strict ProtectHome=yes PrivateTmp=yes \
		    NoNewPrivileges=yes PrivateDevices=yes \
		    "RestrictAddressFamilies=AF_UNIX AF_NETLINK" \
		    SystemCallArchitectures=native ProtectKernelTunables=yes \
		    ProtectKernelModules=yes ProtectControlGroups=yes \
		    RestrictNamespaces=yes LockPersonality=yes \
		    MemoryDenyWriteExecute=yes UMask=0027
		do
			grep -x "$kv" "$UNITS/'"$u"'" || { echo "no $kv"; false; } || return 1
		done &&
		unit_key '"$u"' SystemCallFilter | grep "^@system-service" &&
		unit_key '"$u"' CapabilityBoundingSet | grep "^CAP_" &&
		unit_key '"$u"' ReadWritePaths | tr " " "\n" >rw &&
		grep -x "$(cat spool)" rw &&
		! grep "^/run" rw &&
		unit_key '"$u"' ExecStartPre >pre &&
		! grep -v "^+" pre
	'
done

test_expect_success 'run: may switch accounting, writes the database and outputs' '
	unit_key extracct.service CapabilityBoundingSet | tr " " "\n" >caps &&
	grep -x CAP_SYS_PACCT caps &&
	unit_key extracct.service SystemCallFilter | tr " " "\n" | grep -x acct &&
	unit_key extracct.service ReadWritePaths | tr " " "\n" >rw &&
	grep -x "$(cat dbdir)" rw &&
	out=$(unit_key extracct.service ExecStart | sed -n "s/.*--outdir \([^ ]*\).*/\1/p") &&
	test -n "$out" && grep -x "$out" rw
'

# The hourly push needs the network; the run, which switches accounting
# and reads every process, must not have it.  So run --no-push in its
# unit, and the push unit (started by it, after it) run --push-only,
# with the network and no capability.
test_expect_success 'run: no network; the push unit pushes after it' '
	grep -x "IPAddressDeny=any" "$UNITS/extracct.service" &&
	unit_key extracct.service ExecStart | grep " run --no-push " &&
	unit_key extracct.service Wants | tr " " "\n" | grep -x extracct-push.service &&
	test "$(unit_key extracct-push.service ExecStart)" = \
	    "/usr/local/bin/extracct run --push-only" &&
	unit_key extracct-push.service After | tr " " "\n" >after &&
	grep -x extracct.service after && grep -x network-online.target after &&
	unit_key extracct-push.service Wants | grep -x network-online.target
'

test_expect_success 'extracct-push.service: sandboxed, IP allowed, no capability' '
	u=$UNITS/extracct-push.service &&
	for kv in ProtectSystem=strict ProtectHome=read-only PrivateTmp=yes \
	    NoNewPrivileges=yes PrivateDevices=yes \
	    "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6" \
	    SystemCallArchitectures=native ProtectKernelTunables=yes \
	    ProtectKernelModules=yes ProtectControlGroups=yes \
	    RestrictNamespaces=yes LockPersonality=yes \
	    MemoryDenyWriteExecute=yes UMask=0027 CapabilityBoundingSet= \
	    Type=oneshot
	do
		grep -x "$kv" "$u" || { echo "no $kv"; false; } || return 1
	done &&
	! grep "^IPAddressDeny=" "$u" &&
	! grep "^\[Install\]" "$u" &&
	unit_key extracct-push.service ReadWritePaths | tr " " "\n" >rw &&
	grep -x "$(cat spool)" rw && grep -x "$(cat dbdir)" rw &&
	unit_key extracct-push.service ExecStartPre >pre &&
	! grep -v "^+" pre
'

if command -v systemd-analyze >/dev/null 2>&1
then
	# verify wants every ExecStart= program to exist: the build's.
	test_expect_success 'systemd-analyze verify: every unit, without a word' '
		mkdir units &&
		for f in "$UNITS"/*.service "$UNITS"/*.timer
		do
			sed "s|/usr/local/bin/extracct|$EXTRACCT|" "$f" \
			    >"units/${f##*/}" || return 1
		done &&
		(cd units && systemd-analyze verify --man=no *.service *.timer) \
		    >verify 2>&1 &&
		cat verify && test_cmp /dev/null verify
	'
else
	test_skip 'systemd-analyze verify' 'systemd-analyze is not installed'
fi

test_expect_success 'snap and acctd: no accounting switch' '
	! unit_key extracct-snap.service CapabilityBoundingSet | grep CAP_SYS_PACCT &&
	test "$(unit_key extracct-acctd.service CapabilityBoundingSet)" = CAP_NET_ADMIN
'

test_expect_success 'acctd: its pidfile, where run looks, in a directory of its own' '
	test "$(unit_key extracct-acctd.service PIDFile)" = "$(cat pidfile)" &&
	rd=$(unit_key extracct-acctd.service RuntimeDirectory) &&
	test "/run/$rd" = "$(dirname "$(cat pidfile)")"
'

if command -v systemd-analyze >/dev/null 2>&1
then
	test_expect_success 'systemd-analyze security: every unit below 5 (exposure)' '
		for u in extracct.service extracct-snap.service extracct-acctd.service \
		    extracct-accton.service extracct-push.service
		do
			systemd-analyze security --offline=yes "$UNITS/$u" >sec 2>&1
			x=$(sed -n "s/.*Overall exposure level for $u: \([0-9.]*\) .*/\1/p" sec) &&
			echo "$u: $x" &&
			test -n "$x" &&
			awk -v x="$x" "BEGIN { exit !(x < 5) }" || return 1
		done
	'
else
	test_skip 'systemd-analyze security' 'systemd-analyze is not installed'
fi

test_done
