# extracct: see README.md.  Targets: all check check-san run bench fuzz
# portable install uninstall clean.

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man
DOCDIR = $(PREFIX)/share/doc/extracct
INSTALL ?= install
# The binary is installed stripped; INSTALL_STRIP= keeps its symbols (a
# debug build, or a packager whose own tools strip, as debian/rules).
INSTALL_STRIP ?= -s

CC ?= cc
PKGS = sqlite3 yaml-0.1
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

WARN = -Wall -Wextra -Werror -Wformat=2 -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wvla
CFLAGS ?= -O2 -g
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(PKG_CFLAGS) $(PQ_CFLAGS) \
	$(CFLAGS)
LDLIBS = $(PKG_LIBS) -lm

# PostgreSQL (push, fleet/) is optional: built in where pkg-config finds
# libpq, unless NO_LIBPQ=1, which builds into build/nopq (its objects
# differ) an extracct whose push says it has no PostgreSQL support.
ifeq ($(NO_LIBPQ),)
HAVE_LIBPQ := $(shell pkg-config --exists libpq 2>/dev/null && echo yes)
endif
ifeq ($(HAVE_LIBPQ),yes)
# reports/rdb_pg.c: the report layer's engine on the central server.
FLEET = fleet/pgconn.c fleet/central_schema.c fleet/central_views.c \
	fleet/pgcopy.c fleet/bucket.c \
	fleet/push.c reports/rdb_pg.c
PQ_CFLAGS := -DHAVE_LIBPQ $(shell pkg-config --cflags libpq)
LDLIBS += $(shell pkg-config --libs libpq)
endif

# The version extracct --version prints.  In a git checkout, git
# describe: the newest tag (0.2.0-3-g1234abc), or, while there is none,
# VERSION and the commit (0.2.0-g1234abc); -dirty with uncommitted
# changes.  Without .git (a release tarball), VERSION alone.  make
# VERSION=x sets it outright.
VERSION_FILE := $(shell cat VERSION)
ifneq ($(wildcard .git),)
VERSION := $(shell git describe --tags --dirty 2>/dev/null | sed 's/^v//' | \
	grep . || { h=$$(git describe --always --dirty --abbrev=7 \
	2>/dev/null) && echo "$(VERSION_FILE)-g$$h"; } || \
	echo "$(VERSION_FILE)")
else
VERSION := $(VERSION_FILE)
endif

SAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer

PARSERS = parsers/exerr.c parsers/source.c parsers/pacct.c parsers/sniff.c parsers/exacct_read.c \
	parsers/exacct_write.c parsers/exacct_names.c parsers/records.c \
	parsers/skim.c \
	parsers/recwrite.c parsers/stream.c parsers/taskstats_decode.c \
	parsers/reader.c parsers/cgpath.c
STORE = store/db.c store/migrations.c store/dblock.c store/diff.c store/flows.c store/ledger.c store/live.c \
	store/ingest.c store/store.c store/hosts.c \
	store/ingest_procs.c store/ingest_tasks.c store/ingest_flows.c \
	store/ingest_sysload.c store/ingest_lost.c \
	store/ingest_energy.c store/ingest_stream.c \
	store/ingest_rapl.c store/ingest_cgroup.c store/outfile.c store/hostid.c store/merge.c \
	store/names.c store/rollup.c store/expire.c
REPORTS = reports/fmt.c reports/outbuf.c reports/tmmemo.c reports/idnames.c \
	reports/dump.c reports/text.c reports/csv.c reports/report.c \
	reports/report_set.c reports/report_query.c reports/report_out.c \
	reports/report_keys.c \
	reports/rtab.c reports/rtab_print.c \
	reports/report_capture.c reports/report_bucket.c \
	reports/report_shape.c reports/report_cols.c reports/report_names.c \
	reports/report_observed.c reports/report_filter.c \
	reports/report_pct.c reports/report_check.c \
	reports/summary.c reports/energy.c reports/capture_top.c \
	reports/rdb.c reports/rdb_sqlite.c \
	reports/chart_data.c reports/svg.c reports/html.c \
	reports/forecast.c
# extract/: the commands, configuration and workflows; extract/spool/:
# the hourly job's files and logs; extract/linux/: the collectors, which
# read what only Linux has (/proc, taskstats over netlink, powercap).
# Elsewhere extract/nolinux.c stands in for the collectors, and "make
# portable" builds that way here.
PORTABLE_EXTRACT = extract/util.c extract/walk.c extract/gen.c \
	extract/cmd_dump.c extract/cmd_text.c extract/cmd_check.c \
	extract/cmd_gen.c extract/cmd_ingest.c extract/cmd_report.c \
	extract/cmd_rotate.c extract/cmd_run.c extract/cmd_snap.c \
	extract/cmd_acctd.c extract/config.c extract/cmd_config.c \
	extract/report_db.c extract/report_files.c \
	extract/gen_energy.c extract/cmdopt.c extract/hourly.c \
	extract/ingest_logs.c extract/cmd_merge.c extract/cmd_push.c \
	extract/cmd_rollup.c \
	extract/spool/spool.c extract/spool/solaris.c \
	extract/spool/acctd_pidfile.c extract/spool/rotate.c \
	extract/spool/retention.c
LINUX_EXTRACT = extract/linux/procfs.c extract/linux/taskstats.c \
	extract/linux/tgroups.c extract/linux/powercap.c \
	extract/linux/snapcpu.c extract/linux/snapshot.c extract/linux/acctd.c \
	extract/linux/cgroup.c extract/linux/cgmount.c extract/linux/cgstat.c
ifeq ($(shell uname -s),Linux)
EXTRACT = $(PORTABLE_EXTRACT) $(LINUX_EXTRACT)
else
EXTRACT = $(PORTABLE_EXTRACT) extract/nolinux.c
endif
LIB_SRC = $(PARSERS) $(STORE) $(REPORTS) $(EXTRACT) $(FLEET)
MAIN_SRC = extract/main.c
HELPER_SRC = tests/helper/extracct-test.c tests/helper/workload.c
UNIT_SRC = $(wildcard tests/unit/test_*.c)
HEADERS = $(wildcard parsers/*.h store/*.h reports/*.h extract/*.h \
	extract/linux/*.h extract/spool/*.h fleet/*.h \
	tests/unit/*.h tests/helper/*.h)

ifeq ($(NO_LIBPQ),)
B = build
else
B = build/nopq
endif
S = $(B:build%=build/san%)

LIB_OBJ = $(LIB_SRC:%.c=$(B)/%.o)
LIB_SAN_OBJ = $(LIB_SRC:%.c=$(S)/%.o)

all: $(B)/extracct

$(B)/%.o: %.c $(HEADERS)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(CPPFLAGS) $(DEFS) $(ALL_CFLAGS) -c -o $@ $<

$(S)/%.o: %.c $(HEADERS)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(CPPFLAGS) $(DEFS) $(ALL_CFLAGS) $(SAN_FLAGS) -c -o $@ $<

# Only main.c has the version; it is rebuilt when the version changes
# ($(B)/VERSION-FILE is rewritten only then).
$(B)/VERSION-FILE: FORCE
	@mkdir -p $(@D)
	@[ "$$(cat $@ 2>/dev/null)" = "$(VERSION)" ] || echo "$(VERSION)" >$@
$(B)/extract/main.o $(S)/extract/main.o: $(B)/VERSION-FILE
$(B)/extract/main.o $(S)/extract/main.o: \
	DEFS = -DEXTRACCT_VERSION='"$(VERSION)"'

$(B)/extracct: $(LIB_OBJ) $(B)/extract/main.o
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# bench/ingest.sh's peer (the same rows into the same schema) and
# bench/acctd.sh's load (processes exiting as fast as they can);
# bench/pacct.sh's floor under snap (the bare /proc reads).
$(B)/bench-loader: bench/loader.c
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ bench/loader.c $(LDLIBS)
$(B)/bench-forkloop: bench/forkloop.c
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ bench/forkloop.c
$(B)/bench-procread: bench/procread.c
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ bench/procread.c

$(B)/extracct-test: $(LIB_OBJ) $(HELPER_SRC:%.c=$(B)/%.o)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS) -pthread

$(B)/unit: $(LIB_OBJ) $(UNIT_SRC:%.c=$(B)/%.o)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(S)/extracct: $(LIB_SAN_OBJ) $(S)/extract/main.o
	$(CC) $(SAN_FLAGS) -o $@ $^ $(LDLIBS)

$(S)/extracct-test: $(LIB_SAN_OBJ) $(HELPER_SRC:%.c=$(S)/%.o)
	$(CC) $(SAN_FLAGS) -o $@ $^ $(LDLIBS) -pthread

$(S)/unit: $(LIB_SAN_OBJ) $(UNIT_SRC:%.c=$(S)/%.o)
	$(CC) $(SAN_FLAGS) -o $@ $^ $(LDLIBS)

# make check: the unit tests and the shell tests against the optimised
# build, TEST_JOBS (default: the CPUs) scripts at a time (tests/run.sh).
# make check-san: what a memory checker runs (valgrind, t1400, and the
# fuzz targets over their seeds, t9000, where clang links libFuzzer;
# without it t9000 says so and skips), then every test again against
# ASan + UBSan.  CI runs both.  make check also builds extracct without
# libpq (build/nopq), so t2800 and t2810 check what push and report on a
# server say there, instead of skipping.
# The builds run at once, and each on every CPU unless make was given
# its own -j (a clean tree builds in a third of the time).
TEST_JOBS ?=
BUILD_J = j=$$(case " $(MAKEFLAGS) " in *" -j"*) ;; \
	*) echo -j$$(nproc 2>/dev/null || echo 2) ;; esac)
check:
	@$(BUILD_J); \
	$(if $(NO_LIBPQ),,$(MAKE) --no-print-directory $$j NO_LIBPQ=1 \
	    build/nopq/extracct & nopq=$$!;) \
	rc=0; $(MAKE) --no-print-directory $$j $(B)/extracct \
	    $(B)/extracct-test $(B)/unit || rc=1; \
	$(if $(NO_LIBPQ),,wait $$nopq || rc=1;) \
	[ $$rc -eq 0 ] && sh tests/run.sh $(TEST_JOBS:%=-j %) check $(B)

check-san: $(B)/extracct $(B)/extracct-test $(B)/unit \
	$(S)/extracct $(S)/extracct-test $(S)/unit
	@mkdir -p $(F)
	@if printf 'int LLVMFuzzerTestOneInput(const char *p, long n)%s\n' \
	    ' { return p == 0 && n == 0; }' | $(FUZZ_CC) -x c \
	    -fsanitize=fuzzer -o $(F)/.probe - 2>/dev/null; then \
		$(MAKE) --no-print-directory fuzz-build; \
	else \
		echo "no clang with libFuzzer: fuzz targets not built"; \
	fi
	@sh tests/run.sh $(TEST_JOBS:%=-j %) check-san $(B) $(S)

# The demo: ingest the bundled sample logs into out/extracct.db, with the
# .txt and .csv of each log beside it, and report on them, as tables and
# as the charts of out/extracct.html.
run: $(B)/extracct
	@mkdir -p out/real
	@echo "== extracct ingest: the sample logs into out/extracct.db"
	@$(B)/extracct ingest --db out/extracct.db --outdir out \
	    sample-data/proc.exacct sample-data/task.exacct \
	    sample-data/flow.exacct
	@$(B)/extracct ingest --db out/extracct.db --outdir out/real \
	    sample-data/real/*.exacct
	@echo
	@echo "== written beside it"
	@ls out out/real | sed 's/^/   /'
	@echo
	@TZ=UTC $(B)/extracct report --db out/extracct.db --by user
	@echo
	@TZ=UTC $(B)/extracct report --db out/extracct.db --by command
	@echo
	@TZ=UTC $(B)/extracct report --db out/extracct.db --by user,command \
	    --every day --from 2005-03-01 --to 2005-03-08
	@echo
	@echo "== energy: snapshots, GMT provider streams, carbon (sample-data/energy)"
	@$(B)/extracct -c sample-data/energy/extracct.yml ingest \
	    --db out/extracct.db sample-data/energy/energy.exacct \
	    sample-data/energy/*.log
	@echo
	@TZ=UTC $(B)/extracct report --db out/extracct.db --energy --by command
	@echo
	@echo "== charts: out/extracct.html, CPU, capture ratio and energy; open it in a browser"
	@TZ=UTC $(B)/extracct report --db out/extracct.db --format html \
	    --by command $(SAMPLE_WINDOW) >out/extracct.html
	@ls -l out/extracct.html | sed 's/^/   /'

# The picture README shows: CPU by command over the hours of the sample
# proc log (the logs of sample-data/real are from 2005; a window over
# both would be 18 years of empty days).  t3100 checks it is what this
# extracct draws from the sample data: after a change to the charts,
# "make sample-chart" and commit it.
SAMPLE_WINDOW = --from 2023-11-14T22:00 --to 2023-11-15T04:00
sample-chart: $(B)/extracct
	@rm -rf $(B)/sample-chart && mkdir -p $(B)/sample-chart
	@$(B)/extracct ingest --db $(B)/sample-chart/s.db \
	    sample-data/proc.exacct >/dev/null
	@TZ=UTC $(B)/extracct report --db $(B)/sample-chart/s.db --format svg \
	    --by command $(SAMPLE_WINDOW) >docs/report-sample.svg
	@rm -rf $(B)/sample-chart
	@echo "  SVG     docs/report-sample.svg"

bench: $(B)/extracct $(B)/bench-loader $(B)/bench-forkloop \
    $(B)/bench-procread
	@sh bench/run.sh $(B)/extracct
	@echo
	@sh bench/ingest.sh $(B)/extracct $(B)/bench-loader
	@echo
	@sh bench/pacct.sh $(B)/extracct $(B)/bench-procread
	@echo
	@sh bench/acctd.sh $(B)/extracct $(B)/bench-forkloop
	@echo
	@sh bench/energy.sh $(B)/extracct
	@echo
	@sh bench/push.sh $(B)/extracct
	@echo
	@sh bench/fleet.sh $(B)/extracct
	@echo
	@sh bench/spool.sh $(B)/extracct
	@echo
	@sh bench/rollup.sh $(B)/extracct
	@echo
	@sh bench/cgroup.sh $(B)/extracct
	@sh bench/capture.sh $(B)/extracct
	@if [ -n "$(BASELINE)" ]; then echo; \
		sh bench/compare.sh "$(BASELINE)" $(B)/extracct; fi

# make portable: extracct as a system that is not Linux builds it
# (illumos, a BSD): without the Linux collectors, with a strict feature
# set, POSIX.1-2008 and its XSI option (_XOPEN_SOURCE=700; no
# _GNU_SOURCE or _DEFAULT_SOURCE, so nothing glibc adds is declared),
# __linux__ undefined, and no source or header outside extract/linux/
# that includes a Linux-only header.  It then decodes, ingests and reports
# the sample data.  CI runs it, so that an illumos build breaks no one
# by surprise (README, "Other systems").
P = build/portable
PORTABLE_SRC = $(PARSERS) $(STORE) $(REPORTS) $(PORTABLE_EXTRACT) \
	extract/nolinux.c extract/main.c
PORTABLE_CFLAGS = -std=c11 -D_XOPEN_SOURCE=700 -U__linux__ \
	-U__linux -Ulinux -U__gnu_linux__ $(WARN) $(PKG_CFLAGS) -O2
LINUX_HEADERS = '^\#include <(linux/|asm/|sys/(prctl|sysinfo|syscall|vfs|sysmacros|epoll|inotify|signalfd|timerfd|eventfd)\.h)'

$(P)/%.o: %.c $(HEADERS)
	@mkdir -p $(@D)
	@echo "  PORTCC  $@"
	@$(CC) $(PORTABLE_CFLAGS) $(DEFS) -c -o $@ $<
$(P)/extract/main.o: $(B)/VERSION-FILE
$(P)/extract/main.o: DEFS = -DEXTRACCT_VERSION='"$(VERSION)"'

$(P)/extracct: $(PORTABLE_SRC:%.c=$(P)/%.o)
	$(CC) -o $@ $^ $(LDLIBS)

portable: $(P)/extracct $(B)/extracct
	@! grep -En $(LINUX_HEADERS) $(PORTABLE_SRC) $(LIB_SRC) \
	    $(filter-out tests/%,$(HEADERS)) | grep -v '^extract/linux/' || \
	    { echo "portable: a Linux header outside extract/linux/" >&2; \
	    exit 1; }
	@sh tests/portable.sh $(P)/extracct $(B)/extracct

# Fuzzing: clang's libFuzzer with ASan + UBSan, one target per input
# surface (tests/fuzz/README.md).  "make fuzz" builds them all and runs
# each for FUZZ_SECONDS from its seeds (sample-data/, tests/fixtures/),
# keeping what it finds in $(F)/corpus/; "make fuzz-build" only builds
# them (t9000 runs each over its seeds once, so none can rot).
FUZZ_TARGETS = exacct sniff ingest config procfs powercap idnames
FUZZ_SECONDS ?= 30
FUZZ_CC ?= clang
F = build/fuzz
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS = -std=c11 -D_GNU_SOURCE $(filter-out -Werror,$(WARN)) \
	$(PKG_CFLAGS) $(PQ_CFLAGS) -g -O2 \
	$(FUZZ_SAN) -fsanitize=fuzzer-no-link \
	-fsanitize-coverage-ignorelist=tests/fuzz/nocoverage.txt
FUZZ_OBJ = $(LIB_SRC:%.c=$(F)/%.o)
# No comparison tracing (which steers mutations towards the constants
# the code compares input against) where the comparisons are of
# offsets, sizes and rows: the store, the writers and the read window.
$(F)/store/%.o $(F)/reports/%.o $(F)/parsers/source.o: \
	FUZZ_CFLAGS += -fno-sanitize-coverage=trace-cmp

$(F)/%.o: %.c $(HEADERS) tests/fuzz/nocoverage.txt
	@mkdir -p $(@D)
	@echo "  FUZZCC  $@"
	@$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

# Linked from an archive, so each target holds only the objects it
# calls: libFuzzer scans every coverage counter after every input.
$(F)/libextracct.a: $(FUZZ_OBJ)
	@rm -f $@
	@ar rcs $@ $^

$(F)/fuzz_%: $(F)/tests/fuzz/fuzz_%.o $(F)/libextracct.a
	@echo "  FUZZLD  $@"
	@$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

# SQLite's allocations go to a pool of the target's own (sqlite_pool.c).
$(F)/fuzz_ingest: $(F)/tests/fuzz/sqlite_pool.o

fuzz-build: $(FUZZ_TARGETS:%=$(F)/fuzz_%)
.SECONDARY: $(FUZZ_OBJ) $(FUZZ_TARGETS:%=$(F)/tests/fuzz/fuzz_%.o) \
	$(F)/tests/fuzz/sqlite_pool.o

fuzz: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
		sh tests/fuzz/run.sh $(F) $$t $(FUZZ_SECONDS) || exit 1; \
	done

SYSCONFDIR ?= /etc
UNITDIR ?= /lib/systemd/system
SERVICES = extracct.service extracct-push.service extracct-acctd.service \
	extracct-snap.service \
	extracct-accton.service
TIMERS = extracct.timer extracct-snap.timer
# The sample configuration and the documents extracct(8) cites by name.
DOCS = docs/extracct.yml.example docs/install.md docs/schema.md \
	docs/formats.md docs/fleet.md
# Not under PREFIX: the paths the program and the units use (extract/paths.h).
SPOOLDIR = /var/spool/extracct
DATADIRS = /var/lib/extracct /var/log/extracct

# The page is in section 8, as sa(8) and acctadm(8): the hourly job is
# root's.  man1/extracct.1.gz, a link, keeps "man 1 extracct" working.
install: $(B)/extracct
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
	    $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(SYSCONFDIR)/cron.d \
	    $(DESTDIR)$(SYSCONFDIR)/logrotate.d $(DESTDIR)$(UNITDIR) \
	    $(DESTDIR)$(DOCDIR)
	$(INSTALL) $(INSTALL_STRIP) -m 0755 $(B)/extracct \
	    $(DESTDIR)$(BINDIR)/extracct
	gzip -9n <docs/extracct.8 >$(DESTDIR)$(MANDIR)/man8/extracct.8.gz
	chmod 0644 $(DESTDIR)$(MANDIR)/man8/extracct.8.gz
	rm -f $(DESTDIR)$(MANDIR)/man1/extracct.1	# 0.1 put the page here
	ln -sf ../man8/extracct.8.gz $(DESTDIR)$(MANDIR)/man1/extracct.1.gz
	for u in $(SERVICES); do \
	    sed "s|/usr/local/bin/extracct|$(BINDIR)/extracct|" cron/$$u \
	        >$(DESTDIR)$(UNITDIR)/$$u && \
	    chmod 0644 $(DESTDIR)$(UNITDIR)/$$u || exit 1; \
	done
	for u in $(TIMERS); do \
	    $(INSTALL) -m 0644 cron/$$u $(DESTDIR)$(UNITDIR)/$$u || exit 1; \
	done
	sed -e "s|extracct run|$(BINDIR)/extracct run|" \
	    -e "s|extracct snap|$(BINDIR)/extracct snap|" cron/extracct.cron \
	    >$(DESTDIR)$(SYSCONFDIR)/cron.d/extracct
	chmod 0644 $(DESTDIR)$(SYSCONFDIR)/cron.d/extracct
	$(INSTALL) -m 0644 cron/extracct.logrotate \
	    $(DESTDIR)$(SYSCONFDIR)/logrotate.d/extracct
	$(INSTALL) -m 0644 $(DOCS) LICENSE $(DESTDIR)$(DOCDIR)/
	$(INSTALL) -d -m 0700 $(DESTDIR)$(SPOOLDIR)
	$(INSTALL) -d -m 0750 $(DATADIRS:%=$(DESTDIR)%)

# What install put there, and no more: the spool and data directories
# only if still empty (they hold the logs and the database: kept).
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/extracct \
	    $(DESTDIR)$(MANDIR)/man8/extracct.8.gz \
	    $(DESTDIR)$(MANDIR)/man1/extracct.1.gz \
	    $(SERVICES:%=$(DESTDIR)$(UNITDIR)/%) \
	    $(TIMERS:%=$(DESTDIR)$(UNITDIR)/%) \
	    $(DESTDIR)$(SYSCONFDIR)/cron.d/extracct \
	    $(DESTDIR)$(SYSCONFDIR)/logrotate.d/extracct \
	    $(DOCS:docs/%=$(DESTDIR)$(DOCDIR)/%) $(DESTDIR)$(DOCDIR)/LICENSE
	for d in $(DESTDIR)$(DOCDIR) $(DESTDIR)$(SPOOLDIR) \
	    $(DATADIRS:%=$(DESTDIR)%); do \
	    if [ -d "$$d" ] && ! rmdir "$$d" 2>/dev/null; then \
	        echo "uninstall: kept $$d: not empty"; \
	    fi; \
	done

clean:
	rm -rf $(B) out

.PHONY: all check check-san run bench fuzz fuzz-build portable install uninstall clean \
	sample-chart \
	FORCE
