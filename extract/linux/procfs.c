/*
 * /proc readers (see procfs.h).  Each file is read whole with one read(2)
 * into a stack buffer: they are small, and one read is the closest /proc
 * gives to a consistent view of a process.  The parsing is apart from
 * the reading (procfs_parse_*), on the text alone, so that the fuzzer
 * can feed it from memory.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "procfs.h"


/* Read the file at path into buf (NUL-terminated); length or -1. */
static ssize_t
slurp_path(const char *path, char *buf, size_t n)
{
	ssize_t got, total = 0;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	while ((size_t)total < n - 1) {
		size_t want = n - 1 - (size_t)total;

		got = read(fd, buf + total, want);
		if (got == -1 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		total += got;
		/*
		 * Less than asked for is the end: /proc fills the whole
		 * buffer while it has text, as a regular file does.  Not
		 * asking again saves a read that would find end-of-file,
		 * three a process.
		 */
		if ((size_t)got < want)
			break;
	}
	close(fd);
	buf[total] = '\0';
	return total;
}

/* Read root/rel into buf (NUL-terminated); length or -1. */
static ssize_t
slurp(const char *root, const char *rel, char *buf, size_t n)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return slurp_path(path, buf, n);
}

/* The number after "key" at a line start in buf; 0 if found. */
static int
field(const char *buf, const char *key, uint64_t *v)
{
	size_t kl = strlen(key);
	const char *p = buf;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, key, kl) == 0) {
			*v = strtoull(p + kl, NULL, 10);
			return 0;
		}
		if ((p = strchr(p, '\n')) != NULL)
			p++;
	}
	return -1;
}

/* One key of fields(): its name and, once found, its number. */
struct key {
	const char	*name;
	size_t		 len;
	int		 found;
	uint64_t	 v;
};

#define KEY(s)	{ s, sizeof(s) - 1, 0, 0 }

/* A task inside do_exit (the kernel's include/linux/sched.h). */
#define PF_EXITING	0x00000004

/*
 * field() for several keys in one pass: each takes the number of the
 * first line it starts, as field() would.  status has some 55 lines and
 * its keys are far apart: six passes over it were a tenth of snap's own
 * time.  Stops once every key is found.
 */
static void
fields(const char *buf, struct key *k, int nk)
{
	const char *p = buf;
	int i, left = nk;

	while (p != NULL && *p != '\0' && left > 0) {
		for (i = 0; i < nk; i++) {
			if (k[i].found || p[0] != k[i].name[0] ||
			    strncmp(p, k[i].name, k[i].len) != 0)
				continue;
			k[i].v = strtoull(p + k[i].len, NULL, 10);
			k[i].found = 1;
			left--;
		}
		if ((p = strchr(p, '\n')) != NULL)
			p++;
	}
}

int
procfs_init(struct procfs *pf, const char *root, struct ex_err *err)
{
	char buf[8192];

	pf->root = root;
	pf->clk_tck = sysconf(_SC_CLK_TCK);
	pf->ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	pf->page_kb = sysconf(_SC_PAGESIZE) / 1024;
	if (pf->page_kb <= 0)
		pf->page_kb = 4;
	if (pf->clk_tck <= 0)
		pf->clk_tck = 100;
	if (slurp(root, "stat", buf, sizeof(buf)) <= 0 ||
	    procfs_parse_btime(buf, &pf->btime_s) != 0)
		return ex_fail(err, EXR_IO, 0, "%s/stat: no btime line", root);
	/*
	 * btime is cut to whole seconds: starts built on it would all be
	 * early by the same fraction of a second, enough to put a pacct
	 * exit (whose start the kernel takes from the real time) more
	 * than 1 s from its process's snapshots.  The live system's boot
	 * time to the nanosecond is the real time less the time since
	 * boot; starttime counts from the same boot clock.
	 */
	pf->boot_ns = pf->btime_s * NS;
	if (strcmp(root, "/proc") == 0) {
		struct timespec rt, bt;

		clock_gettime(CLOCK_REALTIME, &rt);
		clock_gettime(CLOCK_BOOTTIME, &bt);
		pf->boot_ns = ((uint64_t)rt.tv_sec * NS + (uint64_t)rt.tv_nsec) -
		    ((uint64_t)bt.tv_sec * NS + (uint64_t)bt.tv_nsec);
	}
	return EXR_OK;
}

int
procfs_parse_btime(const char *buf, uint64_t *btime_s)
{
	return field(buf, "btime ", btime_s);
}

int
procfs_sysload(const struct procfs *pf, uint64_t now_ns,
    struct ex_sysload *s, struct ex_err *err)
{
	char buf[8192];

	if (slurp(pf->root, "stat", buf, sizeof(buf)) <= 0 ||
	    procfs_parse_cpu(pf, buf, now_ns, s) != 0)
		return ex_fail(err, EXR_IO, 0, "%s/stat: no cpu line",
		    pf->root);
	return EXR_OK;
}

int
procfs_parse_cpu(const struct procfs *pf, const char *buf, uint64_t now_ns,
    struct ex_sysload *s)
{
	unsigned long long t[8];
	int f;

	if (sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &t[0],
	    &t[1], &t[2], &t[3], &t[4], &t[5], &t[6], &t[7]) != 8)
		return -1;
	memset(s, 0, sizeof(*s));
	s->v[SYS_TIME_NS] = now_ns;
	for (f = 0; f < 8; f++)
		s->v[SYS_USER + f] = t[f];
	s->v[SYS_CLK_TCK] = (uint64_t)pf->clk_tck;
	s->v[SYS_BTIME] = pf->btime_s;
	s->v[SYS_NCPU] = (uint64_t)pf->ncpu;
	s->present = (1ULL << SYS_NFIELDS) - 1;
	return 0;
}

static void
set(struct ex_proc *p, int f, uint64_t v)
{
	p->v[f] = v;
	p->present |= 1ULL << f;
}

/* A field the log holds in 32 bits (uid_t, pid_t): absent if wider. */
static void
set32(struct ex_proc *p, int f, uint64_t v)
{
	if (v <= UINT32_MAX)
		set(p, f, v);
}

/*
 * Each live thread's file name of process pid, read whole, to fn; a
 * thread that exits meanwhile is skipped.  A read a thread.
 */
static void
each_thread(const struct procfs *pf, const char *pid, const char *name,
    void (*fn)(const char *buf, void *arg), void *arg)
{
	char dir[256], rel[160], buf[4096];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/%.64s/task", pf->root, pid);
	if ((d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(rel, sizeof(rel), "%.64s/task/%.32s/%s", pid,
		    de->d_name, name);
		if (slurp(pf->root, rel, buf, sizeof(buf)) > 0)
			fn(buf, arg);
	}
	closedir(d);
}

static void
add_switches(const char *buf, void *arg)
{
	uint64_t *sum = arg;
	struct key k[] = { KEY("voluntary_ctxt_switches:"),
	    KEY("nonvoluntary_ctxt_switches:") };

	fields(buf, k, 2);
	if (k[0].found)
		sum[0] += k[0].v;
	if (k[1].found)
		sum[1] += k[1].v;
}

/*
 * A process's status counts the context switches of its main thread
 * only (pid 1 with 13 threads: 425 against 26,032 over its threads):
 * sum the live threads.  Those of exited threads are not in /proc;
 * snapcpu_apply_batch takes the kernel's all-thread figures from taskstats
 * where it can be asked, and snap then needs no walk (snapshot.c).
 */
void
procfs_thread_switches(const struct procfs *pf, const char *pid,
    struct ex_proc *p)
{
	uint64_t sum[2] = { 0, 0 };	/* voluntary, involuntary */

	if (!REC_HAS(p, PROC_THREADS) || p->v[PROC_THREADS] <= 1)
		return;
	each_thread(pf, pid, "status", add_switches, sum);
	/* Never less than the main thread's own count. */
	if (!REC_HAS(p, PROC_CTXT_VOL) || sum[0] >= p->v[PROC_CTXT_VOL])
		set(p, PROC_CTXT_VOL, sum[0]);
	if (!REC_HAS(p, PROC_CTXT_INV) || sum[1] >= p->v[PROC_CTXT_INV])
		set(p, PROC_CTXT_INV, sum[1]);
}

/*
 * The process's own I/O.  /proc/PID/io holds the group's: its live
 * threads', the exited threads' (the kernel adds a thread's to the
 * group's signal->ioac as it exits), and, as a child is reaped, the
 * child's whole I/O with its own reaped descendants' (wait_task_zombie).
 * A process that has reaped no child (its stat's child counters are 0:
 * a reaped child adds at least its page faults) owns all of it: its
 * io is read, exited threads included.  One that has reaped children
 * (a shell: 900 MB in its io against its own 167 KB) would be charged
 * with what each child's own record counts again, so there its live
 * threads' own files are summed (/proc/PID/task/TID/io): the CPU time
 * (stat, taskstats) and the exit record (acctd: the sum of its
 * threads') leave children out; so must a snapshot, or its process's
 * last interval goes below zero.  There an exited thread's I/O leaves
 * the live sum (a reading below the last, whose higher baseline
 * proc_diff keeps) and is back in the exit record.
 */
/* The io fields every thread's file had, and their sums. */
struct io_sum {
	struct ex_proc	 sum;
	uint64_t	 io;
	int		 reads;
};

static void
add_io(const char *buf, void *arg)
{
	struct io_sum *t = arg;
	struct ex_proc one;
	int f;

	one.present = 0;
	procfs_parse_io(buf, &one);
	t->io = t->reads++ == 0 ? one.present : t->io & one.present;
	for (f = 0; f < PROC_NFIELDS; f++)
		if (REC_HAS(&one, f) && __builtin_add_overflow(t->sum.v[f],
		    one.v[f], &t->sum.v[f]))
			t->io &= ~(1ULL << f);
}

static void
own_io(const struct procfs *pf, const char *pid, int reaped,
    struct ex_proc *p)
{
	char rel[160], buf[4096];
	struct io_sum t;
	int f;

	if (!reaped) {
		snprintf(rel, sizeof(rel), "%.64s/io", pid);
		if (slurp(pf->root, rel, buf, sizeof(buf)) > 0)
			procfs_parse_io(buf, p);
		return;
	}
	if (!REC_HAS(p, PROC_THREADS) || p->v[PROC_THREADS] <= 1) {
		snprintf(rel, sizeof(rel), "%.64s/task/%.64s/io", pid, pid);
		if (slurp(pf->root, rel, buf, sizeof(buf)) > 0)
			procfs_parse_io(buf, p);
		return;
	}
	memset(&t, 0, sizeof(t));
	each_thread(pf, pid, "io", add_io, &t);
	for (f = 0; f < PROC_NFIELDS; f++)
		if ((t.io >> f) & 1)
			set(p, f, t.sum.v[f]);
}

/* What proc_read reads besides stat. */
enum { READ_STATUS = 1, READ_THREADS = 2, READ_IO = 4 };

/* stat, then what is asked of status, the threads' switches and io, in
 * that order (the order procfs_proc always read them in).  The path is
 * made once and each file's name put at its end. */
static int
proc_read(const struct procfs *pf, const char *pid, uint64_t now_ns,
    struct ex_proc *p, int what)
{
	char path[256], buf[4096];
	int n, reaped;

	n = snprintf(path, sizeof(path), "%s/%s/", pf->root, pid);
	if (n < 0 || (size_t)n + sizeof("status") > sizeof(path))
		return -1;
	memcpy(path + n, "stat", sizeof("stat"));
	if (slurp_path(path, buf, sizeof(buf)) <= 0 ||
	    procfs_parse_stat(pf, pid, buf, now_ns, p) != 0)
		return -1;
	reaped = procfs_stat_reaped(buf);
	if (what & READ_STATUS) {
		memcpy(path + n, "status", sizeof("status"));
		if (slurp_path(path, buf, sizeof(buf)) > 0)
			procfs_parse_status(buf, p);
	}
	if (what & READ_THREADS)
		procfs_thread_switches(pf, pid, p);
	if (what & READ_IO)
		own_io(pf, pid, reaped, p);
	return 0;
}

int
procfs_proc(const struct procfs *pf, const char *pid, uint64_t now_ns,
    struct ex_proc *p)
{
	return proc_read(pf, pid, now_ns, p, READ_STATUS | READ_THREADS |
	    READ_IO);
}

int
procfs_proc_own(const struct procfs *pf, const char *pid, uint64_t now_ns,
    struct ex_proc *p)
{
	return proc_read(pf, pid, now_ns, p, READ_STATUS | READ_IO);
}

int
procfs_proc_stat_io(const struct procfs *pf, const char *pid,
    uint64_t now_ns, struct ex_proc *p)
{
	return proc_read(pf, pid, now_ns, p, READ_IO);
}

void
procfs_status(const struct procfs *pf, const char *pid, struct ex_proc *p)
{
	char rel[128], buf[4096];

	snprintf(rel, sizeof(rel), "%.64s/status", pid);
	if (slurp(pf->root, rel, buf, sizeof(buf)) > 0)
		procfs_parse_status(buf, p);
}

int
procfs_parse_stat(const struct procfs *pf, const char *pid, const char *buf,
    uint64_t now_ns, struct ex_proc *p)
{
	const char *open_paren, *close_paren, *rest, *s;
	unsigned long long f[21], ppid, tty, minflt, majflt, utime, stime,
	    threads, start;
	uint64_t v, tck = (uint64_t)pf->clk_tck;
	char *end;
	size_t n;
	int nf;			/* fields read from the 4th on */

	memset(p, 0, sizeof(*p));
	p->group = EXD_GROUP_PROC_PARTIAL;
	/* The command may hold spaces and parentheses: it ends at the
	 * last ')', and a blank follows it (the fuzzer's: a line that
	 * ended there was read past its end). */
	if ((open_paren = strchr(buf, '(')) == NULL ||
	    (close_paren = strrchr(buf, ')')) == NULL ||
	    close_paren < open_paren || close_paren[1] != ' ')
		return -1;
	n = (size_t)(close_paren - open_paren - 1);
	if (n >= sizeof(p->command))
		n = sizeof(p->command) - 1;
	memcpy(p->command, open_paren + 1, n);
	p->command[n] = '\0';
	rest = close_paren + 2;		/* at field 3, the state */
	/*
	 * A zombie has exited: its exit record is already written (pacct
	 * and acctd write at exit, not when the parent reaps it), and an
	 * observation now would come after it.
	 */
	if (*rest == 'Z' || *rest == 'X')
		return -1;
	/*
	 * Fields 4 to 22, and 23 and 24 (vsize, rss in pages) where the
	 * line has them (an older or made-up one may not), each as
	 * sscanf's %llu reads a number (blanks, a sign, digits; past 2^64
	 * the largest): what a "%llu %*d ..." format read, without scanf's
	 * cost (a seventh of snap's own time).
	 */
	if (*rest == '\0')
		return -1;
	for (s = rest + 1, nf = 0; nf < 21; nf++, s = end) {
		f[nf] = strtoull(s, &end, 10);
		if (end == s)
			break;
	}
	if (nf < 19)
		return -1;
	/*
	 * Inside do_exit (PF_EXITING in field 9, the flags): its exit
	 * record may be written already, and what it frees now (memory,
	 * files) counts in no record.  Skipped as a zombie is: read now,
	 * its counters could be above the exit record's.
	 */
	if (f[5] & PF_EXITING)
		return -1;
	ppid = f[0];
	tty = f[3];
	minflt = f[6];
	majflt = f[8];
	utime = f[10];
	stime = f[11];
	threads = f[16];
	start = f[18];
	/*
	 * What cannot be true is left out, never wrapped: a ppid or a
	 * thread count past 32 bits (the log holds 32), a time past 2^64
	 * ns.  The kernel writes none of these; a test tree might.
	 */
	set(p, PROC_PID, strtoull(pid, NULL, 10));
	set32(p, PROC_PPID, ppid);
	set(p, PROC_COMMAND, 0);
	set(p, PROC_FAULTS_MINOR, minflt);
	set(p, PROC_FAULTS_MAJOR, majflt);
	if (!__builtin_mul_overflow(utime, NS / tck, &v))
		set(p, PROC_CPU_USER_NS, v);
	if (!__builtin_mul_overflow(stime, NS / tck, &v))
		set(p, PROC_CPU_SYS_NS, v);
	set32(p, PROC_THREADS, threads);
	/*
	 * The resident set as ps shows it.  The kernel keeps it per CPU
	 * and sums it lazily here (status's VmRSS sums it exactly: a few
	 * hundred KiB apart at most on a small machine); status is not
	 * read where taskstats answers (snapcpu.h), and one source for
	 * every snapshot keeps them comparable.
	 */
	if (nf == 21 && pf->page_kb > 0 &&
	    !__builtin_mul_overflow(f[20], (uint64_t)pf->page_kb, &v))
		set(p, PROC_RSS_KB, v);
	if (!__builtin_mul_overflow(start, NS / tck, &v) &&
	    !__builtin_add_overflow(v, pf->boot_ns, &v))
		set(p, PROC_START_NS, v);
	set(p, PROC_FINISH_NS, now_ns);
	/* dev_t: major in bits 8-19, minor in 0-7 and 20-31; 0: no tty. */
	set(p, PROC_TTY_MAJOR, tty == 0 ? 0xffffffffu : (tty >> 8) & 0xfff);
	set(p, PROC_TTY_MINOR, tty == 0 ? 0xffffffffu :
	    (tty & 0xff) | ((tty >> 12) & 0xfff00));
	return 0;
}

int
procfs_stat_reaped(const char *buf)
{
	const char *s = strrchr(buf, ')');
	unsigned long long v;
	char *end;
	int field;

	if (s == NULL || s[1] != ' ' || s[2] == '\0')
		return 1;	/* not a stat line: take no chance */
	/* From field 4 on: 11 cminflt, 13 cmajflt, 16 cutime, 17 cstime. */
	for (s += 3, field = 4; field <= 17; field++, s = end) {
		v = strtoull(s, &end, 10);
		if (end == s)
			return 1;
		if (v != 0 && (field == 11 || field == 13 || field == 16 ||
		    field == 17))
			return 1;
	}
	return 0;
}

void
procfs_parse_status(const char *buf, struct ex_proc *p)
{
	struct key k[] = { KEY("Uid:"), KEY("Gid:"), KEY("VmHWM:"),
	    KEY("VmRSS:"), KEY("voluntary_ctxt_switches:"),
	    KEY("nonvoluntary_ctxt_switches:") };
	static const int f[] = { PROC_UID, PROC_GID, PROC_RSS_MAX_KB,
	    PROC_RSS_KB, PROC_CTXT_VOL, PROC_CTXT_INV };
	int i;

	fields(buf, k, 6);
	/* What stat or taskstats gave first stays. */
	for (i = 0; i < 6; i++)
		if (k[i].found && !REC_HAS(p, f[i])) {
			if (f[i] == PROC_UID || f[i] == PROC_GID)
				set32(p, f[i], k[i].v);
			else
				set(p, f[i], k[i].v);
		}
}

void
procfs_parse_io(const char *buf, struct ex_proc *p)
{
	struct key k[] = { KEY("rchar:"), KEY("wchar:"), KEY("syscr:"),
	    KEY("syscw:"), KEY("read_bytes:"), KEY("write_bytes:") };
	uint64_t v;

	fields(buf, k, 6);
	if (k[0].found && k[1].found &&
	    !__builtin_add_overflow(k[0].v, k[1].v, &v))
		set(p, PROC_CHARS_RDWR, v);
	if (k[2].found)
		set(p, PROC_SYSCALLS_R, k[2].v);
	if (k[3].found)
		set(p, PROC_SYSCALLS_W, k[3].v);
	if (k[4].found)
		set(p, PROC_READ_BYTES, k[4].v);
	if (k[5].found)
		set(p, PROC_WRITE_BYTES, k[5].v);
}
