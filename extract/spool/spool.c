/*
 * The spool directory (see spool.h): names, the listing of one host's
 * logs, the state files saying which is live, and rotate's gaps.
 *
 * A run lists the spool once; hundreds of logs are usual (two weeks of
 * hourly pacct and snapshot logs), so the listing grows an array by
 * doubling and sorts it once, and a log added later is put in place.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../store/outfile.h"
#include "spool.h"

const char *const spool_kind_names[SPOOL_NKINDS] = { "snap", "acctd",
    "pacct", "proc", "task", "flow" };

static int	state_read(const char *dir, const char *kind,
		    const char *host, char *name, size_t n, struct ex_err *err);

int
spool_check(const char *dir, struct ex_err *err)
{
	return outfile_dir_check("spool", dir, err);
}

void
spool_name(char *buf, size_t n, const char *kind, const char *host,
    time_t t)
{
	struct tm tm;

	/* In a minute's last 10 s, name the file after the next minute. */
	if (t % 60 >= 50)
		t += 60 - t % 60;
	localtime_r(&t, &tm);
	snprintf(buf, n, "%s-%s-%04d%02d%02d-%02d%02d", kind, host,
	    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
	    tm.tm_min);
}

static int
kind_rank(enum spool_kind k)
{
	/* Snapshots first; acctd's exits before pacct's, so acctd closes
	 * the processes both recorded (pacct's become alternates). */
	return k == SPOOL_SNAP ? 0 : k == SPOOL_ACCTD ? 1 : 2;
}

static int
log_cmp(const void *a, const void *b)
{
	const struct spool_log *x = a, *y = b;
	int c = strcmp(x->stamp, y->stamp);

	if (c != 0)
		return c;
	return kind_rank(x->k) - kind_rank(y->k);
}

/* Is name a log of host (KIND-HOST-YYYYMMDD-HHMM)?  Then fill *l. */
static int
log_parse(const char *name, const char *host, struct spool_log *l)
{
	const char *dash = strchr(name, '-'), *stamp;
	size_t hl = strlen(host);

	if (dash == NULL || (size_t)(dash - name) >= sizeof(l->kind) ||
	    strncmp(dash + 1, host, hl) != 0 || dash[1 + hl] != '-' ||
	    strlen(name) >= sizeof(l->name))
		return 0;
	stamp = dash + 2 + hl;
	/* YYYYMMDD-HHMM exactly */
	if (strlen(stamp) != 13 || stamp[8] != '-' ||
	    strspn(stamp, "0123456789") != 8 ||
	    strspn(stamp + 9, "0123456789") != 4)
		return 0;
	snprintf(l->name, sizeof(l->name), "%s", name);
	snprintf(l->kind, sizeof(l->kind), "%.*s", (int)(dash - name), name);
	snprintf(l->stamp, sizeof(l->stamp), "%s", stamp);
	for (l->k = 0; l->k < SPOOL_NKINDS; l->k++)
		if (strcmp(l->kind, spool_kind_names[l->k]) == 0)
			return 1;
	return 0;
}

/*
 * v, an array of *alloc items of size, with room for item n: v itself,
 * or a new pointer (the old one is dead), or NULL with v unchanged.
 */
static void *
grow(void *v, size_t n, size_t *alloc, size_t size)
{
	size_t want;

	if (n < *alloc)
		return v;
	want = *alloc > 0 ? *alloc : 64;
	if (*alloc > 0 && __builtin_mul_overflow(*alloc, 2, &want))
		return NULL;
	if (want > SIZE_MAX / size || (v = realloc(v, want * size)) == NULL)
		return NULL;
	*alloc = want;
	return v;
}

/* The logs of sp->host in sp->dir into sp->logs, sorted. */
static int
list_logs(struct spool *sp, struct ex_err *err)
{
	DIR *d;
	struct dirent *de;
	struct stat st;
	struct spool_log l;
	void *nv;
	int e;

	if ((d = opendir(sp->dir)) == NULL)
		return ex_fail(err, EXR_IO, 0, "%s: %s", sp->dir,
		    strerror(errno));
	for (;;) {
		errno = 0;
		if ((de = readdir(d)) == NULL)
			break;
		if (!log_parse(de->d_name, sp->host, &l))
			continue;
		/*
		 * A log is a regular file: a link planted here would make
		 * ingest read (and retention delete) what it points to.
		 */
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ==
		    -1)
			continue;	/* gone since readdir */
		if (!S_ISREG(st.st_mode)) {
			if ((nv = grow(sp->odd, sp->nodd, &sp->oddalloc,
			    sizeof(*sp->odd))) == NULL)
				goto nomem;
			sp->odd = nv;
			snprintf(sp->odd[sp->nodd].name,
			    sizeof(sp->odd[0].name), "%s", l.name);
			sp->odd[sp->nodd++].what = outfile_kind(st.st_mode);
			continue;
		}
		if ((nv = grow(sp->logs, sp->nlogs, &sp->alloc,
		    sizeof(*sp->logs))) == NULL)
			goto nomem;
		sp->logs = nv;
		sp->logs[sp->nlogs++] = l;
	}
	/* A listing cut short would pass for a spool with fewer logs. */
	if ((e = errno) != 0) {
		closedir(d);
		return ex_fail(err, EXR_IO, 0, "%s: %s", sp->dir,
		    strerror(e));
	}
	closedir(d);
	if (sp->nlogs > 0)
		qsort(sp->logs, sp->nlogs, sizeof(*sp->logs), log_cmp);
	return EXR_OK;
nomem:
	closedir(d);
	return ex_fail(err, EXR_NOMEM, 0, "%s: no memory for its list of "
	    "logs", sp->dir);
}

int
spool_open(struct spool *sp, const char *dir, const char *host, int flags,
    struct ex_err *err)
{
	int k, rc;

	memset(sp, 0, sizeof(*sp));
	sp->dir = dir;
	sp->host = host;
	for (k = 0; k < SPOOL_NKINDS; k++)
		if (state_read(dir, spool_kind_names[k], host, sp->live[k],
		    sizeof(sp->live[k]), &sp->live_err[k]) < 0)
			sp->live[k][0] = '\0';
	if ((flags & SPOOL_LIST) == 0)
		return EXR_OK;
	sp->listed = 1;
	if ((rc = list_logs(sp, err)) != EXR_OK)
		spool_close(sp);
	return rc;
}

void
spool_close(struct spool *sp)
{
	free(sp->logs);
	free(sp->odd);
	sp->logs = NULL;
	sp->odd = NULL;
	sp->nlogs = sp->alloc = sp->nodd = sp->oddalloc = 0;
}

void
spool_path(const struct spool *sp, const char *name, char *buf, size_t n)
{
	snprintf(buf, n, "%.3800s/%.255s", sp->dir, name);
}

int
spool_is_live(const struct spool *sp, const struct spool_log *l)
{
	return strcmp(sp->live[l->k], l->name) == 0;
}

const char *
spool_newest(const struct spool *sp, enum spool_kind k, time_t now)
{
	size_t i;

	for (i = sp->nlogs; i-- > 0;)
		if (sp->logs[i].k == k && (now == 0 ||
		    !spool_in_future(sp->logs[i].stamp, now)))
			return sp->logs[i].name;
	return NULL;
}

int
spool_add(struct spool *sp, const char *name)
{
	struct spool_log l;
	struct stat st;
	char path[4096];
	size_t i, at;
	void *nv;

	if (!sp->listed || !log_parse(name, sp->host, &l))
		return EXR_OK;
	spool_path(sp, name, path, sizeof(path));
	if (lstat(path, &st) == -1 || !S_ISREG(st.st_mode))
		return EXR_OK;
	for (i = 0; i < sp->nlogs; i++)
		if (strcmp(sp->logs[i].name, name) == 0)
			return EXR_OK;
	if ((nv = grow(sp->logs, sp->nlogs, &sp->alloc,
	    sizeof(*sp->logs))) == NULL)
		return EXR_NOMEM;
	sp->logs = nv;
	/* After every log it does not sort before, as qsort put them. */
	for (at = sp->nlogs; at > 0 && log_cmp(&sp->logs[at - 1], &l) > 0;
	    at--)
		;
	memmove(&sp->logs[at + 1], &sp->logs[at],
	    (sp->nlogs - at) * sizeof(*sp->logs));
	sp->logs[at] = l;
	sp->nlogs++;
	return EXR_OK;
}

int
spool_create(struct spool *sp, const char *name, struct ex_err *err)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", sp->dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	    0640);
	if (fd == -1) {
		int e = errno;

		ex_fail(err, EXR_IO, 0, "%s: %s", path, strerror(e));
		if (err != NULL)
			err->sys_errno = e;
		return EXR_IO;
	}
	/* Accounting writes as root; the group (adm) may read. */
	(void)fchmod(fd, 0640);
	close(fd);
	if (spool_add(sp, name) != EXR_OK)
		return ex_fail(err, EXR_NOMEM, 0, "%s: no memory for its list "
		    "of logs", sp->dir);
	return EXR_OK;
}

int
spool_in_future(const char *stamp, time_t now)
{
	char name[64];

	/* Past a daylight-saving change and the minute's rounding. */
	spool_name(name, sizeof(name), "x", "h", now + 3600 + 60);
	return strcmp(stamp, name + 4) > 0;
}

/* DIR/.live-KIND-HOST */
static int
state_path(char *buf, size_t n, const char *dir, const char *kind,
    const char *host)
{
	return (size_t)snprintf(buf, n, "%s/.live-%s-%s", dir, kind, host) <
	    n ? 0 : -1;
}

/*
 * DIR/.live-KIND-HOST's log name into name: 1, 0 if there is no such
 * file, -1 with err when it is unreadable or holds no log's name.
 */
static int
state_read(const char *dir, const char *kind, const char *host, char *name,
    size_t n, struct ex_err *err)
{
	char path[4096], buf[512];
	struct spool_log l;
	struct stat st;
	ssize_t got;
	int fd, e;

	name[0] = '\0';
	if (state_path(path, sizeof(path), dir, kind, host) != 0) {
		ex_fail(err, EXR_IO, 0, "%s: spool path too long", dir);
		return -1;
	}
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd == -1 && errno == ENOENT)
		return 0;
	if (fd == -1 || fstat(fd, &st) == -1) {
		e = errno;
		if (fd != -1)
			close(fd);
		ex_fail(err, EXR_IO, 0, "%s: %s", path, strerror(e));
		return -1;
	}
	got = S_ISREG(st.st_mode) ? read(fd, buf, sizeof(buf) - 1) : -1;
	close(fd);
	if (got > 0 && buf[got - 1] == '\n') {
		buf[got - 1] = '\0';
		if (log_parse(buf, host, &l) && strcmp(l.kind, kind) == 0 &&
		    strlen(buf) < n) {
			snprintf(name, n, "%s", buf);
			return 1;
		}
	}
	ex_fail(err, EXR_DAMAGED, 0, "%s: not the name of a %s log of %s and "
	    "a newline", path, kind, host);
	return -1;
}

/* fsync dir, so a rename or unlink in it survives a crash. */
static int
sync_dir(const char *dir, struct ex_err *err)
{
	int dfd, e;

	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1 ||
	    fsync(dfd) == -1) {
		e = errno;
		if (dfd != -1)
			close(dfd);
		return ex_fail(err, EXR_IO, 0, "%s: %s", dir, strerror(e));
	}
	close(dfd);
	return EXR_OK;
}

int
spool_live_get(const struct spool *sp, enum spool_kind k, char *name,
    size_t n, struct ex_err *err)
{
	snprintf(name, n, "%s", sp->live[k]);
	if (sp->live_err[k].code != EXR_OK) {
		if (err != NULL)
			*err = sp->live_err[k];
		return -1;
	}
	return name[0] != '\0';
}

void
spool_live_note(struct spool *sp, enum spool_kind k, const char *name)
{
	snprintf(sp->live[k], sizeof(sp->live[k]), "%s", name);
	memset(&sp->live_err[k], 0, sizeof(sp->live_err[k]));
}

int
spool_live_set(struct spool *sp, enum spool_kind k, const char *name,
    struct ex_err *err)
{
	const char *dir = sp->dir;
	char path[4096], tmp[4200], line[300];
	int fd, e, len, ok;

	if (state_path(path, sizeof(path), dir, spool_kind_names[k],
	    sp->host) != 0)
		return ex_fail(err, EXR_IO, 0, "%s: spool path too long", dir);
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path);
	len = snprintf(line, sizeof(line), "%s\n", name);
	/*
	 * A new file renamed over the old: a reader sees the old state or
	 * the new, never half of one, and after a crash the one on disk
	 * (the file and the directory entry are synced first).
	 */
	if (len < 0 || (size_t)len >= sizeof(line))
		return ex_fail(err, EXR_IO, 0, "%s: name too long", path);
	/* mkstemp, not mkostemp: POSIX.1-2008 has only the one (nothing
	 * runs another program while the descriptor is open). */
	if ((fd = mkstemp(tmp)) == -1)
		return ex_fail(err, EXR_IO, 0, "%s: %s", tmp, strerror(errno));
	ok = write(fd, line, (size_t)len) == len && fsync(fd) == 0;
	e = errno;
	if (close(fd) == -1 && ok) {
		ok = 0;
		e = errno;
	}
	if (!ok) {
		(void)unlink(tmp);
		return ex_fail(err, EXR_IO, 0, "%s: %s", tmp, strerror(e));
	}
	if (rename(tmp, path) == -1) {
		e = errno;
		(void)unlink(tmp);
		return ex_fail(err, EXR_IO, 0, "%s: %s", path, strerror(e));
	}
	/* Renamed: the state is the new one, whatever the sync says. */
	spool_live_note(sp, k, name);
	return sync_dir(dir, err);
}

int
spool_snap_live(struct spool *sp, time_t now, char *path, size_t n,
    struct ex_err *err)
{
	char name[256];
	int rc;

	if ((rc = spool_live_get(sp, SPOOL_SNAP, name, sizeof(name), err)) <
	    0)
		return err != NULL ? err->code : EXR_IO;
	if (rc == 0) {
		spool_name(name, sizeof(name), "snap", sp->host, now);
		if ((rc = spool_live_set(sp, SPOOL_SNAP, name, err)) != EXR_OK)
			return rc;
	}
	snprintf(path, n, "%.3800s/%.255s", sp->dir, name);
	return EXR_OK;
}

int
spool_live_clear(struct spool *sp, enum spool_kind k, struct ex_err *err)
{
	char path[4096];

	if (state_path(path, sizeof(path), sp->dir, spool_kind_names[k],
	    sp->host) != 0)
		return ex_fail(err, EXR_IO, 0, "%s: spool path too long",
		    sp->dir);
	if (unlink(path) == -1 && errno != ENOENT)
		return ex_fail(err, EXR_IO, 0, "%s: %s", path, strerror(errno));
	spool_live_note(sp, k, "");
	return sync_dir(sp->dir, err);
}

/* DIR/.gaps-pacct-HOST */
static int
gaps_path(char *buf, size_t n, const char *dir, const char *host)
{
	return (size_t)snprintf(buf, n, "%s/.gaps-pacct-%s", dir, host) < n ?
	    0 : -1;
}

int
spool_gap_add(const char *dir, const char *host, const struct spool_gap *g,
    struct ex_err *err)
{
	char path[4096], line[600];
	int fd, len, ok, e;

	if (gaps_path(path, sizeof(path), dir, host) != 0)
		return ex_fail(err, EXR_IO, 0, "%s: spool path too long", dir);
	len = snprintf(line, sizeof(line), "%lld %lld %.500s\n",
	    (long long)g->t0_ns, (long long)g->t1_ns, g->reason);
	if (len < 0 || (size_t)len >= sizeof(line))
		return ex_fail(err, EXR_IO, 0, "%s: line too long", path);
	/* One write of a whole line with O_APPEND: a crash leaves the
	 * lines before it, and at worst a torn last one (skipped). */
	if ((fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW |
	    O_CLOEXEC, 0600)) == -1)
		return ex_fail(err, EXR_IO, 0, "%s: %s", path, strerror(errno));
	ok = write(fd, line, (size_t)len) == len && fsync(fd) == 0;
	e = errno;
	if (close(fd) == -1 && ok) {
		ok = 0;
		e = errno;
	}
	if (!ok)
		return ex_fail(err, EXR_IO, 0, "%s: %s", path, strerror(e));
	return sync_dir(dir, err);
}

int
spool_gaps_read(const char *dir, const char *host, struct spool_gap *g,
    int max, struct ex_err *err)
{
	char path[4096], line[600];
	FILE *fp;
	int fd, n = 0;

	if (gaps_path(path, sizeof(path), dir, host) != 0) {
		ex_fail(err, EXR_IO, 0, "%s: spool path too long", dir);
		return -1;
	}
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC)) == -1) {
		if (errno == ENOENT)
			return 0;
		ex_fail(err, EXR_IO, 0, "%s: %s", path, strerror(errno));
		return -1;
	}
	if ((fp = fdopen(fd, "r")) == NULL) {
		close(fd);
		ex_fail(err, EXR_IO, 0, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (n < max && fgets(line, sizeof(line), fp) != NULL) {
		long long t0, t1;
		int at;

		if (line[strlen(line) - 1] != '\n' ||
		    sscanf(line, "%lld %lld %n", &t0, &t1, &at) != 2)
			continue;	/* torn by a crash: not a gap */
		line[strcspn(line, "\n")] = '\0';
		g[n].t0_ns = t0;
		g[n].t1_ns = t1;
		snprintf(g[n].reason, sizeof(g[n].reason), "%s", line + at);
		n++;
	}
	fclose(fp);
	return n;
}

int
spool_gaps_done(const char *dir, const char *host, struct ex_err *err)
{
	char path[4096];

	if (gaps_path(path, sizeof(path), dir, host) != 0)
		return ex_fail(err, EXR_IO, 0, "%s: spool path too long", dir);
	if (unlink(path) == -1 && errno != ENOENT)
		return ex_fail(err, EXR_IO, 0, "%s: %s", path, strerror(errno));
	return sync_dir(dir, err);
}
