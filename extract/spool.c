/*
 * The spool directory (see spool.h).
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../store/outfile.h"
#include "spool.h"

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
kind_rank(const char *kind)
{
	/* Snapshots first; acctd's exits before pacct's, so acctd closes
	 * the processes both recorded (pacct's become alternates). */
	return strcmp(kind, "snap") == 0 ? 0 : strcmp(kind, "acctd") == 0 ?
	    1 : 2;
}

static int
log_cmp(const void *a, const void *b)
{
	const struct spool_log *x = a, *y = b;
	int c = strcmp(x->stamp, y->stamp);

	if (c != 0)
		return c;
	return kind_rank(x->kind) - kind_rank(y->kind);
}

static int
list_logs(const char *dir, const char *host, struct spool_log *logs,
    int max, int *skipped)
{
	DIR *d;
	struct dirent *de;
	struct stat st;
	size_t hl = strlen(host);
	int n = 0;

	if ((d = opendir(dir)) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL && n < max) {
		const char *dash = strchr(de->d_name, '-'), *stamp;

		if (dash == NULL || (size_t)(dash - de->d_name) >= 16 ||
		    strncmp(dash + 1, host, hl) != 0 || dash[1 + hl] != '-')
			continue;
		stamp = dash + 2 + hl;
		/* YYYYMMDD-HHMM exactly */
		if (strlen(stamp) != 13 || stamp[8] != '-' ||
		    strspn(stamp, "0123456789") != 8 ||
		    strspn(stamp + 9, "0123456789") != 4)
			continue;
		snprintf(logs[n].kind, sizeof(logs[n].kind), "%.*s",
		    (int)(dash - de->d_name), de->d_name);
		if (strcmp(logs[n].kind, "snap") != 0 &&
		    strcmp(logs[n].kind, "acctd") != 0 &&
		    strcmp(logs[n].kind, "pacct") != 0 &&
		    strcmp(logs[n].kind, "proc") != 0 &&
		    strcmp(logs[n].kind, "task") != 0 &&
		    strcmp(logs[n].kind, "flow") != 0)
			continue;
		/*
		 * A log is a regular file: a link planted here would make
		 * ingest read (and retention delete) what it points to.
		 */
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ==
		    -1)
			continue;	/* gone since readdir */
		if (!S_ISREG(st.st_mode)) {
			if (skipped != NULL) {
				(*skipped)++;
				fprintf(stderr, "extracct: %s/%s: %s, not a "
				    "log; skipped\n", dir, de->d_name,
				    outfile_kind(st.st_mode));
			}
			continue;
		}
		snprintf(logs[n].name, sizeof(logs[n].name), "%s",
		    de->d_name);
		snprintf(logs[n].stamp, sizeof(logs[n].stamp), "%s", stamp);
		n++;
	}
	closedir(d);
	qsort(logs, (size_t)n, sizeof(*logs), log_cmp);
	return n;
}

int
spool_list(const char *dir, const char *host, struct spool_log *logs,
    int max)
{
	return list_logs(dir, host, logs, max, NULL);
}

int
spool_list_warn(const char *dir, const char *host, struct spool_log *logs,
    int max, int *skipped)
{
	*skipped = 0;
	return list_logs(dir, host, logs, max, skipped);
}

int
spool_create(const char *dir, const char *name, struct ex_err *err)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
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
	return EXR_OK;
}
