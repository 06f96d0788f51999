#!/bin/sh
# Outputs, the spool and their permissions against files someone else
# put there: snap -o, --outdir's .txt and
# .csv and the database refuse hard links, FIFOs (without hanging) and
# files another user made; what holds users' commands is 0640; the
# spool's owner, mode and parents are checked and a link planted in it
# is named and skipped; a size limit leaves no half record in a
# snapshot log, and a database that cannot be written is named.
. "$(dirname "$0")/../lib.sh"

HOST=$(hostname)
umask 022

# Modes of files, one a line ("640").
modes() { stat -c %a "$@"; }

test_expect_success 'setup: a pacct log, a spool' '
	extracct gen --kind pacct --records 40 --seed 7 -o a.acct &&
	extracct gen --kind pacct --records 30 --seed 8 -o b.acct &&
	mkdir -m 700 sp
'

# --- snap -o -------------------------------------------------------------

test_expect_success 'snap -o: a new log is 0640; an own 0644 one becomes 0640' '
	extracct snap -o new.log &&
	test "$(modes new.log)" = 640 &&
	chmod 644 new.log && size=$(wc -c <new.log) &&
	extracct snap -o new.log &&
	test "$(modes new.log)" = 640 &&
	test "$(wc -c <new.log)" -gt "$size"
'

test_expect_success 'snap -o: a hard link is refused, the other name unchanged' '
	echo keep >target && ln target hard &&
	test_expect_code 3 extracct snap -o hard 2>err &&
	grep "^extracct: hard: has 2 hard links; refusing to write to it" err &&
	echo keep >expect && test_cmp expect target
'

test_expect_success 'snap -o: a FIFO fails at once, it does not hang' '
	mkfifo fifo.log &&
	test_expect_code 3 timeout 10 "$EXTRACCT" snap -o fifo.log 2>err &&
	grep "^extracct: fifo.log: a FIFO, not a regular file; refusing to write to it" err
'

if [ "$(id -u)" -eq 0 ]; then
test_expect_success 'snap -o: a file another user made is refused' '
	echo theirs >planted && chown nobody planted &&
	test_expect_code 3 extracct snap -o planted 2>err &&
	grep "^extracct: planted: owned by uid 65534, not by us (uid 0); refusing to write to it" err &&
	echo theirs >expect && test_cmp expect planted
'
else
	test_skip 'snap -o: a file another user made' 'needs root to chown'
fi

# --- ingest --outdir -----------------------------------------------------

test_expect_success '--outdir: .txt and .csv are 0640' '
	mkdir out1 &&
	extracct ingest --db o1.db --outdir out1 a.acct >out &&
	test "$(modes out1/a.acct.txt out1/a.acct.csv | sort -u)" = 640
'

test_expect_success '--outdir: a hard-linked .txt is refused, its target unchanged' '
	mkdir out2 && echo keep >target2 && ln target2 out2/a.acct.txt &&
	test_expect_code 3 extracct ingest --db o2.db --outdir out2 a.acct >out 2>err &&
	grep "^extracct: out2/a.acct.txt: has 2 hard links; refusing to write to it" err &&
	echo keep >expect && test_cmp expect target2
'

test_expect_success '--outdir: a FIFO in place of the .csv does not hang' '
	mkdir out3 && mkfifo out3/a.acct.csv &&
	test_expect_code 3 timeout 10 "$EXTRACCT" ingest --db o3.db --outdir out3 a.acct >out 2>err &&
	grep "^extracct: out3/a.acct.csv: a FIFO, not a regular file; refusing to write to it" err
'

test_expect_success '--outdir: a symbolic link or a group-writable directory is refused' '
	mkdir -m 755 real && ln -s real linkdir &&
	test_expect_code 2 extracct ingest --db o4.db --outdir linkdir a.acct 2>err &&
	grep "^extracct: output directory linkdir is a symbolic link; refusing it" err &&
	mkdir -m 775 gw && chmod 775 gw &&
	test_expect_code 2 extracct ingest --db o4.db --outdir gw a.acct 2>err &&
	grep "^extracct: output directory gw is writable by group or others (mode 0775); refusing it" err &&
	test_expect_code 2 extracct run --spool sp --db o4.db --outdir gw --no-snap --no-rotate 2>err &&
	grep "^extracct: output directory gw is writable by group or others" err &&
	test ! -e gw/a.acct.txt
'

if [ "$(id -u)" -eq 0 ]; then
test_expect_success '--outdir: a .csv another user made, or a directory of theirs, is refused' '
	mkdir out5 && echo theirs >out5/a.acct.csv && chown nobody out5/a.acct.csv &&
	test_expect_code 3 extracct ingest --db o5.db --outdir out5 a.acct >out 2>err &&
	grep "^extracct: out5/a.acct.csv: owned by uid 65534, not by us (uid 0); refusing to write to it" err &&
	echo theirs >expect && test_cmp expect out5/a.acct.csv &&
	mkdir out6 && chown nobody out6 &&
	test_expect_code 2 extracct ingest --db o6.db --outdir out6 a.acct 2>err &&
	grep "^extracct: output directory out6 is owned by uid 65534, neither us (uid 0) nor root; refusing it" err
'
else
	test_skip '--outdir: files and directories of another user' 'needs root to chown'
fi

# --- the database ----------------------------------------------------------

test_expect_success 'database: it, its -wal and its -shm are 0640' '
	extracct ingest --db m.db a.acct >out &&
	test "$(modes m.db)" = 640 &&
	# The last connection to close removes the -wal and -shm: a reader
	# holds the database open (its commands come through ctl) so that
	# they outlive the next ingest, which writes the -wal.
	mkfifo ctl &&
	{ sqlite3 m.db <ctl >/dev/null & } &&
	exec 3>ctl &&
	echo "BEGIN; SELECT count(*) FROM files;" >&3 &&
	i=0 &&
	until [ -e m.db-shm ]; do
		i=$((i + 1)); [ $i -lt 1000 ] || return 1; sleep 0.01
	done &&
	extracct ingest --db m.db b.acct >out &&
	modes m.db m.db-wal m.db-shm >got &&
	exec 3>&- && wait &&
	printf "640\n640\n640\n" >expect &&
	test_cmp expect got
'

test_expect_success 'database: an own 0644 one (an older extracct made it) becomes 0640' '
	chmod 644 m.db &&
	extracct ingest --db m.db a.acct >out &&
	test "$(modes m.db)" = 640
'

test_expect_success 'database: a FIFO, as it or as its -wal, fails at once' '
	mkfifo f.db &&
	test_expect_code 3 timeout 10 "$EXTRACCT" ingest --db f.db a.acct 2>err &&
	grep "^extracct: f.db: a FIFO, not a regular file; refusing to write to it" err &&
	mkfifo g.db-wal &&
	test_expect_code 3 timeout 10 "$EXTRACCT" ingest --db g.db a.acct 2>err &&
	grep "^extracct: g.db: g.db-wal: a FIFO, not a regular file; refusing to write to it" err &&
	test ! -e g.db
'

test_expect_success 'database: a hard link is refused' '
	extracct ingest --db h.db a.acct >out && ln h.db h2.db &&
	test_expect_code 3 extracct ingest --db h2.db b.acct 2>err &&
	grep "^extracct: h2.db: has 2 hard links; refusing to write to it" err
'

if [ "$(id -u)" -eq 0 ]; then
test_expect_success 'database: one another user made, or their -shm, is refused' '
	: >n.db && chown nobody n.db &&
	test_expect_code 3 extracct ingest --db n.db a.acct 2>err &&
	grep "^extracct: n.db: owned by uid 65534, not by us (uid 0); refusing to write to it" err &&
	test ! -s n.db &&
	: >k.db-shm && chown nobody k.db-shm &&
	test_expect_code 3 extracct ingest --db k.db a.acct 2>err &&
	grep "^extracct: k.db: k.db-shm: owned by uid 65534, not by us (uid 0)" err
'
else
	test_skip 'database: files of another user' 'needs root to chown'
fi

test_expect_success 'database: a hard-linked DB-lock is refused, its other name unchanged' '
	echo keep >lock-target && ln lock-target hl.db-lock &&
	test_expect_code 3 extracct ingest --db hl.db a.acct 2>err &&
	cat err &&
	grep "^extracct: hl.db: hl.db-lock: has 2 hard links; refusing to write to it" err &&
	echo keep >expect && test_cmp expect lock-target &&
	test ! -e hl.db
'

test_expect_success 'database: an own DB-lock open to others becomes 0600' '
	extracct ingest --db ml.db a.acct >out &&
	test "$(modes ml.db-lock)" = 600 &&
	chmod 644 ml.db-lock &&
	extracct ingest --db ml.db b.acct >out &&
	test "$(modes ml.db-lock)" = 600
'

if [ "$(id -u)" -eq 0 ]; then
# Whoever can open the lock file can flock it, and hold every writer
# out for as long as they like.
test_expect_success 'database: a DB-lock another user made is refused' '
	: >nl.db-lock && chown nobody nl.db-lock &&
	test_expect_code 3 extracct ingest --db nl.db a.acct 2>err &&
	cat err &&
	grep "^extracct: nl.db: nl.db-lock: owned by uid 65534, not by us (uid 0); refusing to write to it" err &&
	test ! -e nl.db
'
else
	test_skip 'database: a DB-lock of another user' 'needs root to chown'
fi

# --- acctd's pidfile -------------------------------------------------------

# A pidfile as a running acctd leaves it: locked (by flock(1) here), its
# pid a stand-in ($VICTIM, a sleep that rotate's SIGHUP would kill).
VICTIM= HOLDER=
fake_acctd() {
	sleep 300 & VICTIM=$!
	printf "%s\nacctd-%s-20240101-1000\n" "$VICTIM" "$HOST" >"$1" &&
	# The sleep holds the lock itself: killing it leaves no holder.
	{ ( exec 8<"$1" && flock 8 && exec sleep 300 ) & HOLDER=$!; } &&
	i=0 &&
	while flock -n -s "$1" true; do
		i=$((i + 1)); [ $i -lt 500 ] || return 1; sleep 0.01
	done
}
stop_fake() {
	kill "$VICTIM" "$HOLDER" 2>/dev/null
	wait "$VICTIM" "$HOLDER" 2>/dev/null
	VICTIM= HOLDER=
}
# Is the stand-in alive, and was no log made for acctd to move to?
unsignalled() {
	kill -0 "$VICTIM" || { echo "pid $VICTIM was signalled"; return 1; }
	! ls psp | grep "^acctd-" || { echo "an acctd log was made"; false; }
}

if command -v flock >/dev/null 2>&1; then
test_expect_success 'setup: a spool for rotate' '
	mkdir -m 700 psp pd
'

test_expect_success 'rotate: a hard-linked pidfile is not believed, no signal sent' '
	echo other >pd/other && fake_acctd pd/other && ln pd/other pd/hl.pid &&
	test_expect_code 3 extracct rotate --spool psp --pacct /nonexistent --acctd-pidfile pd/hl.pid >out 2>err;
	rc=$?; cat err; unsignalled; ok=$?; stop_fake;
	test $rc -eq 0 && test $ok -eq 0 &&
	grep "^extracct: acctd pidfile pd/hl.pid has 2 hard links; not believed (acctd never makes one); no signal sent$" err
'

test_expect_success 'rotate and run: a pidfile in a directory others can write is not believed' '
	mkdir -m 777 pd2 && chmod 777 pd2 && fake_acctd pd2/acctd.pid &&
	test_expect_code 2 extracct rotate --spool psp --pacct /nonexistent --acctd-pidfile pd2/acctd.pid >out 2>err;
	rc=$?; cat err; unsignalled; ok=$?;
	printf "acctd_pidfile: %s/pd2/acctd.pid\n" "$TRASH" >pd2.yml;
	extracct -c pd2.yml run --spool psp --db pd2.db --no-snap --no-rotate >out 2>err2;
	rc2=$?; cat err2; stop_fake;
	test $rc -eq 0 && test $ok -eq 0 && test $rc2 -eq 2 &&
	grep "^extracct: pidfile directory pd2 is writable by group or others (mode 0777); refusing it; no signal sent$" err &&
	grep "^extracct: pidfile directory $TRASH/pd2 is writable by group or others (mode 0777); refusing it; acctd.s live log taken from the spool.s state$" err2
'

if [ "$(id -u)" -eq 0 ]; then
test_expect_success 'rotate: a pidfile another user owns is not believed, no signal sent' '
	fake_acctd pd/theirs.pid && chown nobody pd/theirs.pid &&
	test_expect_code 2 extracct rotate --spool psp --pacct /nonexistent --acctd-pidfile pd/theirs.pid >out 2>err;
	rc=$?; cat err; unsignalled; ok=$?; stop_fake;
	test $rc -eq 0 && test $ok -eq 0 &&
	grep "^extracct: acctd pidfile pd/theirs.pid is owned by uid 65534, neither us (uid 0) nor root; refusing it; no signal sent$" err
'
else
	test_skip 'rotate: a pidfile of another user' 'needs root to chown'
fi
else
	test_skip 'rotate: pidfiles not to be believed' 'no flock(1) (util-linux)'
fi

# acctd checks its pidfile before it asks the kernel for anything.
if [ "$(uname -s)" = Linux ]; then
test_expect_success 'acctd: a hard-linked pidfile is refused, its other name unchanged' '
	mkdir -m 700 asp apd && echo keep >pid-target && ln pid-target apd/acctd.pid &&
	test_expect_code 3 timeout 10 "$EXTRACCT" acctd -o asp --pidfile apd/acctd.pid >out 2>err &&
	cat err &&
	grep "^extracct: apd/acctd.pid: has 2 hard links; refusing to write to it (the other names would change too)$" err &&
	echo keep >expect && test_cmp expect pid-target
'

test_expect_success 'acctd: a pidfile directory others can write is refused' '
	mkdir -m 777 apd2 && chmod 777 apd2 &&
	test_expect_code 2 timeout 10 "$EXTRACCT" acctd -o asp --pidfile apd2/acctd.pid >out 2>err &&
	cat err &&
	grep "^extracct: pidfile directory apd2 is writable by group or others (mode 0777); refusing it$" err &&
	test ! -e apd2/acctd.pid
'

if [ "$(id -u)" -eq 0 ]; then
test_expect_success 'acctd: a pidfile another user made is refused' '
	echo theirs >apd/theirs.pid && chown nobody apd/theirs.pid &&
	test_expect_code 3 timeout 10 "$EXTRACCT" acctd -o asp --pidfile apd/theirs.pid >out 2>err &&
	cat err &&
	grep "^extracct: apd/theirs.pid: owned by uid 65534, not by us (uid 0); refusing to write to it$" err &&
	echo theirs >expect && test_cmp expect apd/theirs.pid
'
fi
fi

# --- the spool -------------------------------------------------------------

if [ "$(id -u)" -eq 0 ]; then
test_expect_success 'spool: one owned by another user is refused, even 0755' '
	mkdir -m 755 nsp && chown nobody nsp &&
	test_expect_code 2 extracct run --spool nsp --db s.db --no-snap --no-rotate 2>err &&
	grep "^extracct: spool nsp is owned by uid 65534, neither us (uid 0) nor root; refusing it" err &&
	test_expect_code 2 extracct snap --spool nsp 2>err &&
	grep "^extracct: spool nsp is owned by uid 65534" err &&
	test_expect_code 2 extracct rotate --spool nsp 2>err &&
	grep "^extracct: spool nsp is owned by uid 65534" err
'

test_expect_success 'spool: a parent another user owns is refused' '
	mkdir theirs && chown nobody theirs && mkdir -m 700 theirs/sp &&
	test_expect_code 2 extracct run --spool theirs/sp --db s.db --no-snap --no-rotate 2>err &&
	grep "^extracct: spool theirs/sp: its parent $TRASH/theirs is owned by uid 65534, neither us nor root; refusing it" err
'
else
	test_skip 'spool: owned by another user' 'needs root to chown'
fi

test_expect_success 'spool: group-writable is refused' '
	mkdir gsp && chmod 770 gsp &&
	test_expect_code 2 extracct run --spool gsp --db s.db --no-snap --no-rotate 2>err &&
	grep "^extracct: spool gsp is writable by group or others (mode 0770); refusing it" err
'

test_expect_success 'spool: a world-writable parent needs the sticky bit' '
	mkdir pub && chmod 777 pub && mkdir -m 700 pub/sp &&
	test_expect_code 2 extracct run --spool pub/sp --db s.db --no-snap --no-rotate 2>err &&
	grep "^extracct: spool pub/sp: its parent $TRASH/pub is writable by anyone and not sticky (mode 0777); refusing it" err &&
	chmod 1777 pub &&
	extracct run --spool pub/sp --db s.db --no-snap --no-rotate >out
'

test_expect_success 'spool: a link or FIFO with a log name is named, skipped; the rest ingested' '
	mkdir -m 700 lsp &&
	cp a.acct lsp/pacct-$HOST-20000101-0000 &&
	ln -s "$TRASH/b.acct" lsp/pacct-$HOST-20000102-0000 &&
	mkfifo lsp/pacct-$HOST-20000103-0000 &&
	: >lsp/pacct-$HOST-20990101-0000 &&
	test_expect_code 1 timeout 10 "$EXTRACCT" run --spool lsp --db l.db --no-snap --no-rotate >out 2>err &&
	grep "^extracct: lsp/pacct-$HOST-20000102-0000: a symbolic link, not a log; skipped$" err &&
	grep "^extracct: lsp/pacct-$HOST-20000103-0000: a FIFO, not a log; skipped$" err &&
	grep "^lsp/pacct-$HOST-20000101-0000: bytes 0-2560: 40 records" out &&
	test "$(sqlite3 l.db "SELECT count(*) FROM files")" -eq 1 &&
	test "$(sqlite3 l.db "SELECT count(*) FROM procs")" -eq 40
'

# --- full disks ------------------------------------------------------------

test_expect_success 'snap over the file size limit: no half record in the log' '
	( ulimit -f 16; exec "$EXTRACCT" snap -o lim.log ) 2>err;
	rc=$? && cat err &&
	test $rc -eq 3 &&
	grep "^extracct: lim.log: File too large; the snapshot stops there (no record is left half written)" err &&
	test "$(wc -c <lim.log)" -le 16384 &&
	extracct check lim.log >out &&
	grep "^lim.log: ok: [0-9]* records, .* 0 damaged ranges (0 bytes)$" out &&
	# Once more, appending to the log at its limit.
	( ulimit -f 16; exec "$EXTRACCT" snap -o lim.log ) 2>err;
	rc=$? && test $rc -eq 3 &&
	extracct check lim.log >out &&
	grep "^lim.log: ok: .* 0 damaged ranges (0 bytes)$" out
'

test_expect_success 'ingest over the file size limit names the database, no offset 0' '
	extracct gen --kind proc --records 20000 --seed 3 -o big.exacct &&
	# The database made first, with no limit: its empty tables take
	# 3 MB (64 KiB pages), which a limit could stop at its creation
	# instead, before any record.  sh counts the limit in 512 bytes.
	extracct gen --kind proc --records 10 --seed 4 -o seed.exacct &&
	extracct ingest --db full.db seed.exacct >/dev/null &&
	( ulimit -f 12288; exec "$EXTRACCT" ingest --db full.db big.exacct ) >out 2>err;
	rc=$? && cat err &&
	test $rc -eq 3 &&
	grep "^extracct: full.db: write failed: .* (disk full, or over the [0-9]*-byte file size limit?); big.exacct: what was not stored is read again by the next ingest$" err &&
	! grep "offset 0" err
'

test_done
