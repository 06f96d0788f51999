/*
 * Writing one snapshot (snapshot.h): wracct for Linux.  A cumulative
 * partial record for every live process, one system record, a RAPL
 * record per powercap zone and one per cgroup that holds processes, appended to an exacct snapshot log (creator
 * "extracct").  Every record is written whole by one write(2) to an
 * O_APPEND file (the process records a batch at a time), so a reader
 * never sees half of one (the kernel's own rule for exacct files),
 * and one the disk (or the file size limit) cuts short is cut off again: the log's lock is held, so nothing else
 * appends meanwhile.  Processes that vanish while being read are
 * skipped: they write their own exit record.  Which CPU time a partial
 * holds: snapcpu.h.  Each process's cgroup is read too (cgroup.h).
 *
 * Linux only (it reads /proc and taskstats): extract/nolinux.c stands
 * in for it elsewhere.  A snapshot is a few hundred to a few thousand
 * processes, a second or two.
 */
#include <sys/file.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../parsers/recwrite.h"
#include "../../store/outfile.h"
#include "../util.h"
#include "../paths.h"
#include "cgmount.h"
#include "cgroup.h"
#include "cgstat.h"
#include "powercap.h"
#include "procfs.h"
#include "snapcpu.h"
#include "snapshot.h"

/*
 * One record per RAPL zone, at the snapshot's time, with the boot time
 * (a reboot resets the counters: that is no wrap).
 */
static int
write_rapl(int fd, struct exw *w, const char *dir, uint64_t now,
    const struct ex_sysload *sl, uint64_t *end)
{
	static struct ex_rapl zones[POWERCAP_MAX_ZONES];
	int i, n, unreadable;

	n = powercap_read(dir, now, zones, POWERCAP_MAX_ZONES, &unreadable);
	if (n == 0 && unreadable > 0)
		say(stderr, "extracct: %s: no RAPL zone's energy_uj is "
		    "readable (root only since Linux 5.10): no energy "
		    "readings", dir);
	for (i = 0; i < n; i++) {
		if (REC_HAS(sl, SYS_BTIME)) {
			zones[i].v[RAPL_BOOT_S] = sl->v[SYS_BTIME];
			zones[i].present |= 1ULL << RAPL_BOOT_S;
		}
		exw_reset(w);
		rapl_write(w, &zones[i]);
		if (append_record(fd, w, end) != EXR_OK)
			return EXR_IO;
	}
	return EXR_OK;
}

/* Where write_cgroup appends. */
struct cg_out {
	int		 fd;
	struct exw	*w;
	uint64_t	*end;
};

static int
write_cgroup(void *arg, const struct ex_cgroup *g)
{
	struct cg_out *o = arg;

	exw_reset(o->w);
	cgroup_write(o->w, g);
	return append_record(o->fd, o->w, o->end);
}

/*
 * A record per cgroup that holds processes (and per ancestor of one),
 * from the hierarchies mountinfo names: the kernel's own totals, exited
 * processes included.  No cgroup mount, or no mountinfo (a /proc that
 * is not this machine's): none.
 */
static int
write_cgroups(int fd, struct exw *w, const char *proc_root, uint64_t now,
    uint64_t *end)
{
	static struct cgmounts cm;
	struct cg_out o = { fd, w, end };
	char path[4096];
	uint64_t n;
	int rc;

	snprintf(path, sizeof(path), "%s/self/mountinfo", proc_root);
	if (cgmount_read(path, &cm, NULL) != EXR_OK)
		return EXR_OK;
	rc = cgstat_collect(&cm, now, write_cgroup, &o, &n);
	if (rc == EXR_NOMEM) {
		say(stderr, "extracct: snap: out of memory listing the "
		    "cgroups: no cgroup records");
		return EXR_OK;
	}
	return rc;
}

/*
 * The process records go out in batches: whole records, up to 64 KiB,
 * in one write(2), as append_record writes one.  A write a record was
 * a tenth of snap's time in the kernel.  Cut short, the batch keeps
 * the records wholly written and cuts the rest off: the log ends where
 * record-by-record writes would have stopped it.
 */
#define BATCH_BYTES	(64 * 1024)
#define BATCH_MAX	1024

struct batch {
	struct exw	 w;
	size_t		 ends[BATCH_MAX];	/* where each record ends */
	int		 n;
};

/* Write b at *end; EXR_OK, or EXR_IO with errno (the disk, the size
 * limit).  *end and *nrecs count what is left in the log. */
static int
flush(int fd, struct batch *b, uint64_t *end, uint64_t *nrecs)
{
	size_t done = 0, kept;
	ssize_t n;
	int e, i;

	while (done < b->w.len) {
		n = write(fd, b->w.buf + done, b->w.len - done);
		if (n > 0) {
			done += (size_t)n;
			continue;
		}
		if (n == -1 && errno == EINTR)
			continue;
		e = n == 0 ? ENOSPC : errno;
		for (i = b->n; i > 0 && b->ends[i - 1] > done; i--)
			;
		kept = i > 0 ? b->ends[i - 1] : 0;
		if (done > kept && ftruncate(fd, (off_t)(*end + kept)) == -1)
			e = errno;	/* half a record is left: say why */
		*end += kept;
		*nrecs += (uint64_t)i;
		exw_reset(&b->w);
		b->n = 0;
		errno = e;
		return EXR_IO;
	}
	*end += done;
	*nrecs += (uint64_t)b->n;
	exw_reset(&b->w);
	b->n = 0;
	return EXR_OK;
}

/* Add p's record to b, writing b first if it is full. */
static int
batch_proc(int fd, struct batch *b, const struct ex_proc *p, uint64_t *end,
    uint64_t *nrecs)
{
	proc_write(&b->w, p);
	b->ends[b->n++] = b->w.len;
	if (b->w.len >= BATCH_BYTES || b->n == BATCH_MAX)
		return flush(fd, b, end, nrecs);
	return EXR_OK;
}

/*
 * Lock the log: two snaps at once (the timer's and the hourly run's)
 * take turns, so a cut-off record is never another's, and only one
 * writes a new log's header.  A snapshot takes a second or two; 60 s
 * without the lock is an error.  0, or -1 with errno set.
 */
static int
lock_log(int fd)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int i;

	for (i = 0; i < 6000; i++) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return 0;
		if (errno != EWOULDBLOCK && errno != EINTR)
			return -1;
		nanosleep(&ts, NULL);
	}
	errno = EWOULDBLOCK;
	return -1;
}

int
snap_write(const char *path, const char *proc_root, const char *powercap_dir,
    int cpu, int cgroups, const char *acctd_pidfile, uint64_t *nprocs)
{
	char host[256], self[24], mountinfo[4096];
	struct procfs pf;
	struct ex_err err = { 0 };
	struct ex_sysload sl;
	struct ex_proc p[SNAPCPU_BATCH];
	char pid[SNAPCPU_BATCH][64];	/* as long as procfs reads */
	int res[SNAPCPU_BATCH], i, n;
	struct timespec ts;
	struct stat st;
	struct dirent *de;
	struct snapcpu sc;
	struct exw w;
	struct batch b;
	uint64_t now, end;
	DIR *d;
	int fd, leader, hier, rc = EXR_OK;

	*nprocs = 0;
	if ((rc = procfs_init(&pf, proc_root, &err)) != EXR_OK)
		return complain(rc, "%s", err.reason);
	/* The kernel's samples are of this machine's processes only. */
	if (strcmp(proc_root, PATH_PROC) != 0)
		cpu = SNAPCPU_RUNTIME;
	if ((rc = snapcpu_open(&sc, cpu, acctd_pidfile, &err)) != EXR_OK)
		return complain(rc, "snap: CPU time as tick samples: %s",
		    err.reason);
	if (gethostname(host, sizeof(host)) != 0)
		snprintf(host, sizeof(host), "unknown");
	host[sizeof(host) - 1] = '\0';
	/* Appended to, so an existing log is taken if it is ours. */
	if ((fd = outfile_open(path, O_APPEND, NULL, &err)) == -1) {
		snapcpu_close(&sc);
		return complain(EXR_IO, "%s: %s", path, err.reason);
	}
	if (lock_log(fd) == -1 || fstat(fd, &st) == -1) {
		rc = complain(EXR_IO, "%s: %s", path, errno == EWOULDBLOCK ?
		    "another snap has held its lock for 60 s" :
		    strerror(errno));
		close(fd);
		snapcpu_close(&sc);
		return rc;
	}
	end = (uint64_t)st.st_size;
	exw_init(&w);
	exw_init(&b.w);
	b.n = 0;
	if (st.st_size == 0) {
		exw_header(&w, "extracct", host, EXW_HEADER_LIBRARY);
		if (append_record(fd, &w, &end) != EXR_OK)
			goto ioerr;
	}
	/* One time for the whole snapshot: the intervals of all processes
	 * and the system record end at the same instant. */
	clock_gettime(CLOCK_REALTIME, &ts);
	now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	if ((rc = procfs_sysload(&pf, now, &sl, &err)) != EXR_OK) {
		complain(rc, "%s", err.reason);
		goto out;
	}
	exw_reset(&w);
	sysload_write(&w, &sl);
	if (append_record(fd, &w, &end) != EXR_OK ||
	    write_rapl(fd, &w, powercap_dir, now, &sl, &end) != EXR_OK ||
	    (cgroups && write_cgroups(fd, &w, proc_root, now, &end) !=
	    EXR_OK))
		goto ioerr;
	if ((d = opendir(proc_root)) == NULL) {
		rc = complain(EXR_IO, "%s: %s", proc_root, strerror(errno));
		goto out;
	}
	snprintf(self, sizeof(self), "%ld", (long)getpid());
	/* The hierarchy to read each process's cgroup from (cgroup.h). */
	snprintf(mountinfo, sizeof(mountinfo), "%.4000s/self/mountinfo",
	    proc_root);
	hier = cgroup_hier_of(mountinfo);
	for (;;) {
		/* A batch of processes read from /proc, then asked about
		 * together (snapcpu_apply_batch).  Where taskstats answers,
		 * it says what status would: status is not read. */
		leader = snapcpu_answers(&sc);
		for (n = 0; n < SNAPCPU_BATCH && (de = readdir(d)) != NULL; ) {
			/* Not ourselves: our exit comes milliseconds after
			 * this. */
			if (de->d_name[0] < '1' || de->d_name[0] > '9' ||
			    strcmp(de->d_name, self) == 0 ||
			    strlen(de->d_name) >= sizeof(pid[n]))
				continue;
			if ((leader ? procfs_proc_stat_io(&pf, de->d_name,
			    now, &p[n]) : procfs_proc_own(&pf, de->d_name,
			    now, &p[n])) != 0)
				continue;	/* gone: its exit record has it */
			/* Gone since: no cgroup, and no error either. */
			(void)cgroup_read(proc_root, de->d_name, hier, &p[n]);
			memcpy(pid[n], de->d_name, strlen(de->d_name) + 1);
			n++;
		}
		if (n == 0)
			break;
		snapcpu_apply_batch(&sc, p, n, res);
		for (i = 0; i < n; i++) {
			if (res[i] == -1)
				continue;	/* gone, as above */
			/* Its main thread not answered for (or taskstats
			 * stopped answering): status after all. */
			if (leader && !REC_HAS(&p[i], PROC_UID))
				procfs_status(&pf, pid[i], &p[i]);
			/*
			 * taskstats's context switches are every thread's,
			 * exited ones too, so never below the live threads'
			 * sum: only without them is /proc/PID/task walked,
			 * a read a thread.
			 */
			if (res[i] == 0)
				procfs_thread_switches(&pf, pid[i], &p[i]);
			if (batch_proc(fd, &b, &p[i], &end, nprocs) != EXR_OK) {
				closedir(d);
				goto ioerr;
			}
		}
	}
	closedir(d);
	if (flush(fd, &b, &end, nprocs) != EXR_OK)
		goto ioerr;
	goto out;
ioerr:
	rc = complain(EXR_IO, "%s: %s; the snapshot stops there (no record "
	    "is left half written)", path, strerror(errno));
out:
	if (sc.unanswered > 0)
		say(stderr, "extracct: %s: taskstats did not answer for "
		    "%llu processes: not in this snapshot", path,
		    (unsigned long long)sc.unanswered);
	snapcpu_close(&sc);
	exw_release(&w);
	exw_release(&b.w);
	if (close(fd) != 0 && rc == EXR_OK)
		rc = complain(EXR_IO, "%s: %s", path, strerror(errno));
	return rc;
}
