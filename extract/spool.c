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

#include "spool.h"

int
spool_check(const char *dir, struct ex_err *err)
{
	struct stat st;

	if (lstat(dir, &st) == -1)
		return ex_fail(err, EXR_USAGE, 0, "spool %s: %s", dir,
		    strerror(errno));
	if (S_ISLNK(st.st_mode))
		return ex_fail(err, EXR_USAGE, 0, "spool %s is a symbolic "
		    "link; refusing it", dir);
	if (!S_ISDIR(st.st_mode))
		return ex_fail(err, EXR_USAGE, 0, "spool %s is not a directory",
		    dir);
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return ex_fail(err, EXR_USAGE, 0, "spool %s is writable by "
		    "group or others (mode %04o); refusing it", dir,
		    (unsigned)st.st_mode & 07777);
	return EXR_OK;
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

int
spool_list(const char *dir, const char *host, struct spool_log *logs,
    int max)
{
	DIR *d;
	struct dirent *de;
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
		snprintf(logs[n].name, sizeof(logs[n].name), "%s",
		    de->d_name);
		snprintf(logs[n].kind, sizeof(logs[n].kind), "%.*s",
		    (int)(dash - de->d_name), de->d_name);
		snprintf(logs[n].stamp, sizeof(logs[n].stamp), "%s", stamp);
		if (strcmp(logs[n].kind, "snap") == 0 ||
		    strcmp(logs[n].kind, "acctd") == 0 ||
		    strcmp(logs[n].kind, "pacct") == 0 ||
		    strcmp(logs[n].kind, "proc") == 0 ||
		    strcmp(logs[n].kind, "task") == 0 ||
		    strcmp(logs[n].kind, "flow") == 0)
			n++;
	}
	closedir(d);
	qsort(logs, (size_t)n, sizeof(*logs), log_cmp);
	return n;
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
