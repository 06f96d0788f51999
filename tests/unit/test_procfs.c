/*
 * The /proc readers: on a made-up tree, a process's context switches
 * are those of all its live threads, not its main thread's, and its
 * I/O its own: the group's io where it has reaped no child (exited
 * threads' included), else its live threads', not its reaped
 * children's; the parsers on text (procfs_parse_*), as snap reads it: what
 * the fuzzer found, and the fields a 32-bit or 64-bit log field cannot
 * hold.
 */
#include <sys/stat.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../extract/linux/procfs.h"
#include "check.h"

static void
put(const char *root, const char *rel, const char *text)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if ((fp = fopen(path, "w")) != NULL) {
		fputs(text, fp);
		fclose(fp);
	}
}

static void
status(const char *root, const char *rel, int vol, int inv)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "Name:\tinit\nUid:\t0\t0\t0\t0\n"
	    "Gid:\t0\t0\t0\t0\nvoluntary_ctxt_switches:\t%d\n"
	    "nonvoluntary_ctxt_switches:\t%d\n", vol, inv);
	put(root, rel, buf);
}

static void
test_thread_switches(void)
{
	char root[] = "/tmp/extracct-procfs.XXXXXX", cmd[600];
	struct procfs pf;
	struct ex_err err = { 0 };
	struct ex_proc p;
	char path[512];

	if (mkdtemp(root) == NULL) {
		CHECK("mkdtemp", 0);
		return;
	}
	put(root, "stat", "cpu  1 2 3 4 5 6 7 8 0 0\nbtime 1700000000\n");
	snprintf(path, sizeof(path), "%s/1", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/1/task", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/1/task/1", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/1/task/7", root);
	mkdir(path, 0755);
	/* Three threads (field 20), state S, children reaped (cminflt,
	 * field 11). */
	put(root, "1/stat", "1 (init) S 0 1 1 0 -1 0 10 7 0 0 5 6 0 0 20 0 "
	    "3 0 100 0 0\n");
	status(root, "1/status", 425, 9);
	status(root, "1/task/1/status", 425, 9);
	status(root, "1/task/7/status", 25607, 11);
	/* The group's io holds what its reaped children did: not the
	 * process's own, which its threads' files hold. */
	put(root, "1/io", "rchar: 9000000\nwchar: 9000000\nsyscr: 900\n"
	    "syscw: 900\nread_bytes: 90000\nwrite_bytes: 90000\n");
	put(root, "1/task/1/io", "rchar: 10\nwchar: 5\nsyscr: 2\nsyscw: 1\n"
	    "read_bytes: 4096\nwrite_bytes: 0\ncancelled_write_bytes: 0\n");
	put(root, "1/task/7/io", "rchar: 20\nwchar: 7\nsyscr: 3\nsyscw: 4\n"
	    "read_bytes: 0\nwrite_bytes: 8192\ncancelled_write_bytes: 0\n");
	CHECK("procfs_init", procfs_init(&pf, root, &err) == EXR_OK);
	CHECK("procfs_proc", procfs_proc(&pf, "1", 0, &p) == 0);
	CHECK("voluntary: every thread", REC_HAS(&p, PROC_CTXT_VOL) &&
	    p.v[PROC_CTXT_VOL] == 26032);
	CHECK("involuntary: every thread", REC_HAS(&p, PROC_CTXT_INV) &&
	    p.v[PROC_CTXT_INV] == 20);
	CHECK("threads", p.v[PROC_THREADS] == 3);
	CHECK("io: the live threads' own", REC_HAS(&p, PROC_CHARS_RDWR) &&
	    p.v[PROC_CHARS_RDWR] == 42 && p.v[PROC_SYSCALLS_R] == 5 &&
	    p.v[PROC_SYSCALLS_W] == 5 && p.v[PROC_READ_BYTES] == 4096 &&
	    p.v[PROC_WRITE_BYTES] == 8192);
	/* A single thread: its one file, not the group's. */
	put(root, "1/stat", "1 (init) S 0 1 1 0 -1 0 10 0 0 0 5 6 3 0 20 0 "
	    "1 0 100 0 0\n");
	CHECK("procfs_proc, one thread", procfs_proc(&pf, "1", 0, &p) == 0);
	CHECK("io: one thread's own", REC_HAS(&p, PROC_CHARS_RDWR) &&
	    p.v[PROC_CHARS_RDWR] == 15 && p.v[PROC_SYSCALLS_R] == 2 &&
	    p.v[PROC_READ_BYTES] == 4096 && p.v[PROC_WRITE_BYTES] == 0);
	/* No child reaped (fields 11, 13, 16, 17 all 0): the group's io
	 * is the process's own, its exited threads' I/O included. */
	put(root, "1/stat", "1 (init) S 0 1 1 0 -1 0 10 0 0 0 5 6 0 0 20 0 "
	    "3 0 100 0 0\n");
	CHECK("procfs_proc, no child", procfs_proc(&pf, "1", 0, &p) == 0);
	CHECK("io: with its exited threads'", REC_HAS(&p, PROC_CHARS_RDWR) &&
	    p.v[PROC_CHARS_RDWR] == 18000000 && p.v[PROC_SYSCALLS_R] == 900 &&
	    p.v[PROC_READ_BYTES] == 90000 && p.v[PROC_WRITE_BYTES] == 90000);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		CHECK("cleanup", 0);
}

static const struct procfs tpf = { "/proc", 100, 1700000000,
    1700000000ull * 1000000000, 2, 4 };

/* Fields 3 to 22 of a live process's stat line: state, ppid 1, minflt
 * 55, majflt 2, utime 300, stime 40, 3 threads, starttime 1000. */
#define TAIL	" S 1 10 10 0 -1 4194304 55 0 2 0 300 40 0 0 20 0 3 0 1000"

static void
stat_line(void)
{
	struct ex_proc p;
	/* The stat line's end in the middle of the buffer: what follows
	 * its NUL is not the file. */
	static const char cut[] = "42 (x)\0S 1 10 10 0 -1 4194304 55 0 2 0 "
	    "300 40 0 0 20 0 3 0 1000";
	char exact[7];		/* "42 (x)" and its NUL, no more */

	CHECK("stat parses", procfs_parse_stat(&tpf, "42", "42 (a) (b c))"
	    TAIL, 5, &p) == 0);
	CHECK("stat command to the last paren",
	    strcmp(p.command, "a) (b c)") == 0);
	CHECK("stat fields", p.v[PROC_PPID] == 1 && p.v[PROC_FAULTS_MINOR] ==
	    55 && p.v[PROC_FAULTS_MAJOR] == 2 && p.v[PROC_CPU_USER_NS] ==
	    3000000000ull && p.v[PROC_CPU_SYS_NS] == 400000000 &&
	    p.v[PROC_THREADS] == 3 && p.v[PROC_START_NS] ==
	    1700000010000000000ull && p.v[PROC_FINISH_NS] == 5);
	CHECK("zombie skipped", procfs_parse_stat(&tpf, "42", "42 (x) Z 1",
	    5, &p) == -1);
	/* Flags 0x400004: PF_EXITING, inside do_exit. */
	CHECK("exiting skipped", procfs_parse_stat(&tpf, "42", "42 (x) S 1 10 "
	    "10 0 -1 4194308 55 0 2 0 300 40 0 0 20 0 3 0 1000", 5, &p) == -1);
	CHECK("no child reaped", procfs_stat_reaped("42 (a) b) S 1 10 10 0 -1 "
	    "0 55 0 2 0 300 40 0 0 20 0 3 0 1000") == 0);
	CHECK("reaped: cminflt", procfs_stat_reaped("42 (x) S 1 10 10 0 -1 0 55 "
	    "1 2 0 300 40 0 0 20 0 3 0 1000") == 1);
	CHECK("reaped: cmajflt", procfs_stat_reaped("42 (x) S 1 10 10 0 -1 0 55 "
	    "0 2 1 300 40 0 0 20 0 3 0 1000") == 1);
	CHECK("reaped: cutime", procfs_stat_reaped("42 (x) S 1 10 10 0 -1 0 55 "
	    "0 2 0 300 40 1 0 20 0 3 0 1000") == 1);
	CHECK("reaped: cstime", procfs_stat_reaped("42 (x) S 1 10 10 0 -1 0 55 "
	    "0 2 0 300 40 0 1 20 0 3 0 1000") == 1);
	CHECK("not a stat line: take no chance", procfs_stat_reaped("42 (x") ==
	    1 && procfs_stat_reaped("42 (x) S 1") == 1);

	/* rss (field 24, pages) where the line has it; status's figures
	 * then fill in only what stat left out. */
	CHECK("no field 24: no rss", procfs_parse_stat(&tpf, "42", "42 (x)"
	    TAIL " 9000", 5, &p) == 0 && !REC_HAS(&p, PROC_RSS_KB));
	CHECK("field 24: rss in KiB", procfs_parse_stat(&tpf, "42", "42 (x)"
	    TAIL " 9000 77 18446744073709551615", 5, &p) == 0 &&
	    REC_HAS(&p, PROC_RSS_KB) && p.v[PROC_RSS_KB] == 77 * 4);
	procfs_parse_status("Uid:\t7\t0\t0\t0\nVmHWM:\t400 kB\n"
	    "VmRSS:\t999 kB\n", &p);
	CHECK("status adds, stat's rss stays", p.v[PROC_UID] == 7 &&
	    p.v[PROC_RSS_MAX_KB] == 400 && p.v[PROC_RSS_KB] == 77 * 4);
	CHECK("rss past 2^64 KiB absent", procfs_parse_stat(&tpf, "42",
	    "42 (x)" TAIL " 9000 18446744073709551615", 5, &p) == 0 &&
	    !REC_HAS(&p, PROC_RSS_KB));

	/* fuzz_procfs: a line ending at its ')' was read past its end. */
	memcpy(exact, "42 (x)", 7);
	CHECK("ends at the paren", procfs_parse_stat(&tpf, "42", exact, 5,
	    &p) == -1);
	CHECK("nothing read past the NUL", procfs_parse_stat(&tpf, "42", cut,
	    5, &p) == -1);
	CHECK("no blank after the paren", procfs_parse_stat(&tpf, "42",
	    "42 (x)S 1 10 10 0 -1 4194304 55 0 2 0 300 40 0 0 20 0 3 0 1000",
	    5, &p) == -1);

	/* A thread count or ppid past 32 bits is absent, not cut (the log
	 * holds 32); times past 2^64 ns are absent, not wrapped. */
	CHECK("huge fields parse", procfs_parse_stat(&tpf, "42",
	    "42 (x) S 4294967296 10 10 0 -1 4194304 55 0 2 0 "
	    "184467440737095516 40 0 0 20 0 4294967297 0 184467440737095516",
	    5, &p) == 0);
	CHECK("huge ppid absent", !REC_HAS(&p, PROC_PPID));
	CHECK("huge threads absent", !REC_HAS(&p, PROC_THREADS));
	CHECK("huge cpu absent", !REC_HAS(&p, PROC_CPU_USER_NS) &&
	    REC_HAS(&p, PROC_CPU_SYS_NS));
	CHECK("huge start absent", !REC_HAS(&p, PROC_START_NS));
}

static void
status_io(void)
{
	struct ex_proc p;

	memset(&p, 0, sizeof(p));
	procfs_parse_status("Name:\tx\nUid:\t1000\t1000\t1000\t1000\n"
	    "Gid:\t4294967296\t0\t0\t0\nVmHWM:\t  2048 kB\n"
	    "voluntary_ctxt_switches:\t9\n", &p);
	CHECK("status uid", REC_HAS(&p, PROC_UID) && p.v[PROC_UID] == 1000);
	CHECK("status gid past 32 bits absent", !REC_HAS(&p, PROC_GID));
	CHECK("status rss, ctxt", p.v[PROC_RSS_MAX_KB] == 2048 &&
	    p.v[PROC_CTXT_VOL] == 9 && !REC_HAS(&p, PROC_CTXT_INV));
	memset(&p, 0, sizeof(p));
	procfs_parse_io("rchar: 18446744073709551615\nwchar: 1\nsyscr: 7\n",
	    &p);
	CHECK("io chars past 2^64 absent", !REC_HAS(&p, PROC_CHARS_RDWR));
	CHECK("io syscalls", p.v[PROC_SYSCALLS_R] == 7 &&
	    !REC_HAS(&p, PROC_SYSCALLS_W));
}

static void
system_stat(void)
{
	struct ex_sysload s;
	uint64_t btime;

	CHECK("cpu line", procfs_parse_cpu(&tpf, "cpu  1 2 3 4 5 6 7 8 0 0\n"
	    "cpu0 1 2 3 4 5 6 7 8 0 0\nbtime 1699999000\n", 9, &s) == 0 &&
	    s.v[SYS_USER] == 1 && s.v[SYS_STEAL] == 8 &&
	    s.v[SYS_TIME_NS] == 9 && s.v[SYS_CLK_TCK] == 100);
	CHECK("no cpu line", procfs_parse_cpu(&tpf, "intr 5\n", 9, &s) == -1);
	CHECK("btime", procfs_parse_btime("cpu 1\nbtime 1699999000\n",
	    &btime) == 0 && btime == 1699999000);
	CHECK("no btime", procfs_parse_btime("cpu 1\n", &btime) == -1);
}

void
suite_procfs(void)
{
	test_thread_switches();
	stat_line();
	status_io();
	system_stat();
}
