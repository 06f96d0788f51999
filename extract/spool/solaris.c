/*
 * rotate on Solaris and illumos: drive wracct(8) and acctadm(8), as the
 * original extracct's -w and -r did (Solaris's acctadm(1M) and wracct(1M)).
 *
 * Which types are active, and their files: /etc/acctadm.conf where it
 * exists (the pre-SMF KEY=value file, §8.3), else what acctadm itself
 * prints with no arguments ("Process accounting: active", "Process
 * accounting file: /var/adm/exacct/proc", ...).  First a partial record
 * for every process: wracct -t partial -i "PID,PID,..." process, a few
 * hundred pids a call.  wracct stops at the first pid that fails ("wracct:
 * operation failed on pid N: ...", exit 1) and a process that exits
 * meanwhile is no error (its final record is in the log), so the pids
 * after it are asked again, and only those.  Then, for each active type,
 * acctadm -f NEWFILE TYPE switches the kernel to a new date-stamped file
 * in the spool, and records it as the live log of its kind (spool.h);
 * the closed file is left for run to ingest.
 */
#include <sys/wait.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "../util.h"
#include "solaris.h"
#include "spool.h"

/* pids per wracct call: well inside any ARG_MAX. */
#define WRACCT_BATCH	256
#define MAX_PIDS	(1 << 20)

enum { T_PROC, T_TASK, T_FLOW, NTYPES };

static const struct {
	const char	*conf;		/* acctadm.conf's ACCTADM_<conf>_... */
	const char	*shown;		/* acctadm's "<shown> accounting" */
	const char	*kind;		/* the spool's kind */
	const char	*type;		/* acctadm -f's type */
	enum spool_kind	 k;		/* kind, as a number */
} types[NTYPES] = {
	{ "PROC", "Process", "proc", "process", SPOOL_PROC },
	{ "TASK", "Task", "task", "task", SPOOL_TASK },
	{ "FLOW", "Flow", "flow", "flow", SPOOL_FLOW },
};

/* One type's state: active, and its file ("" when none). */
struct acct_type {
	int		 active;
	char		 file[1024];
};

/* Is prog an executable on PATH? */
int
solaris_tools_present(void)
{
	static const char *const progs[] = { "acctadm", "wracct" };
	const char *path = getenv("PATH");
	char dir[4096], file[4352];
	size_t i, found = 0;

	if (path == NULL)
		return 0;
	for (i = 0; i < 2; i++) {
		const char *p = path;

		while (*p != '\0') {
			size_t n = strcspn(p, ":");

			snprintf(dir, sizeof(dir), "%.*s", (int)n, p);
			snprintf(file, sizeof(file), "%s/%s",
			    n > 0 ? dir : ".", progs[i]);
			if (access(file, X_OK) == 0) {
				found++;
				break;
			}
			p += n + (p[n] == ':');
		}
	}
	return found == 2;
}

/*
 * Run argv (searched on PATH) with its stdout (out_fd 1) or stderr
 * (out_fd 2) read into buf, NUL-terminated, cut at n - 1 bytes; its exit
 * status, or -1.
 */
static int
run_prog(char *const argv[], int out_fd, char *buf, size_t n)
{
	size_t got = 0;
	ssize_t r;
	pid_t pid;
	int status, p[2];

	if (pipe(p) == -1)
		return -1;
	if ((pid = fork()) == -1) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		close(p[0]);
		if (dup2(p[1], out_fd) == -1)
			_exit(127);
		close(p[1]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	for (;;) {
		char sink[512];

		if (got + 1 < n)
			r = read(p[0], buf + got, n - 1 - got);
		else
			r = read(p[0], sink, sizeof(sink));
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (got + 1 < n)
			got += (size_t)r;
	}
	close(p[0]);
	while (got > 0 && (buf[got - 1] == '\n' || buf[got - 1] == ' '))
		got--;
	buf[got] = '\0';
	while (waitpid(pid, &status, 0) == -1)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The pre-SMF file: TYPE_ENABLE=yes and TYPE_FILE=/path.  -1: no file. */
static int
types_from_conf(const char *conf, struct acct_type *t)
{
	char line[1024], key[64];
	FILE *fp;
	int i;

	if ((fp = fopen(conf, "re")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), fp) != NULL) {
		char *v;

		line[strcspn(line, "\n")] = '\0';
		v = line + strspn(line, " \t");
		for (i = 0; i < NTYPES; i++) {
			size_t kl;

			kl = (size_t)snprintf(key, sizeof(key),
			    "ACCTADM_%s_ENABLE=", types[i].conf);
			if (strncmp(v, key, kl) == 0)
				t[i].active = strcasecmp(v + kl, "yes") == 0;
			kl = (size_t)snprintf(key, sizeof(key),
			    "ACCTADM_%s_FILE=", types[i].conf);
			if (strncmp(v, key, kl) == 0 && v[kl] == '/')
				snprintf(t[i].file, sizeof(t[i].file), "%s",
				    v + kl);
		}
	}
	fclose(fp);
	return 0;
}

/*
 * acctadm's own account of itself (SMF): lines "Process accounting:
 * active|inactive" and "Process accounting file: PATH|none", padded on
 * the left.  EXR_OK, or EXR_IO when acctadm fails.
 */
static int
types_from_acctadm(struct acct_type *t)
{
	char out[16384];
	char *argv[] = { "acctadm", NULL }, key[64], *line, *next;
	int i, rc;

	if ((rc = run_prog(argv, 1, out, sizeof(out))) != 0)
		return complain(EXR_IO, "acctadm (to show which accounting "
		    "is active): exit %d", rc);
	for (line = out; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		line += strspn(line, " \t");
		for (i = 0; i < NTYPES; i++) {
			size_t kl;

			kl = (size_t)snprintf(key, sizeof(key),
			    "%s accounting: ", types[i].shown);
			if (strncmp(line, key, kl) == 0)
				t[i].active = strncmp(line + kl, "active",
				    6) == 0;
			kl = (size_t)snprintf(key, sizeof(key),
			    "%s accounting file: ", types[i].shown);
			if (strncmp(line, key, kl) == 0 && line[kl] == '/')
				snprintf(t[i].file, sizeof(t[i].file), "%s",
				    line + kl);
		}
	}
	return EXR_OK;
}

/* The live processes' ids, from /proc (Solaris has a directory each). */
static long *
live_pids(size_t *n)
{
	struct dirent *de;
	long *v = NULL, *nv;
	size_t cap = 0;
	DIR *d;

	*n = 0;
	if ((d = opendir("/proc")) == NULL)
		return NULL;
	while ((de = readdir(d)) != NULL && *n < MAX_PIDS) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 1024;
			if ((nv = realloc(v, cap * sizeof(*v))) == NULL)
				break;
			v = nv;
		}
		v[(*n)++] = strtol(de->d_name, NULL, 10);
	}
	closedir(d);
	return v;
}

/* The pid of wracct's "operation failed on pid N", or -1. */
static long
failed_pid(const char *err)
{
	const char *p = strstr(err, "failed on pid ");

	return p != NULL ? strtol(p + 14, NULL, 10) : -1;
}

/*
 * wracct -t partial for pids[0..n), WRACCT_BATCH at a time.  Counts
 * what was written and what failed (gone, or refused).  EXR_OK, or
 * EXR_IO when wracct cannot run or refuses its arguments.
 */
static int
write_partials(const long *pids, size_t n, size_t *nw, size_t *nfail)
{
	char ids[WRACCT_BATCH * 12], err[4096];
	char *argv[] = { "wracct", "-t", "partial", "-i", ids, "process",
	    NULL };
	size_t at = 0, alone_to = 0, k, m, o;
	int rc;

	*nw = *nfail = 0;
	while (at < n) {
		/* Below alone_to, each pid is asked alone (see below). */
		m = at < alone_to ? 1 : n - at < WRACCT_BATCH ? n - at :
		    WRACCT_BATCH;
		for (o = 0, k = 0; k < m; k++)
			o += (size_t)snprintf(ids + o, sizeof(ids) - o, "%s%ld",
			    k ? "," : "", pids[at + k]);
		rc = run_prog(argv, 2, err, sizeof(err));
		if (rc == 0) {
			*nw += m;
			at += m;
			continue;
		}
		if (rc != 1)
			return complain(EXR_IO, "wracct -i ... process: exit "
			    "%d%s%s", rc, err[0] != '\0' ? ": " : "", err);
		if (m == 1) {
			(*nfail)++;
			at++;
			continue;
		}
		/* The pids before the one that failed were written. */
		for (k = 0; k < m && pids[at + k] != failed_pid(err); k++)
			;
		if (k == m) {
			/* It did not say which: ask each of this call alone. */
			alone_to = at + m;
			continue;
		}
		*nw += k;
		(*nfail)++;
		at += k + 1;
	}
	return EXR_OK;
}

int
solaris_rotate(struct spool *sp, const char *conf, time_t now)
{
	struct acct_type t[NTYPES];
	char name[256], path[4096], out[4096];
	char *argv[5];
	long *pids;
	size_t i, n, nw, nfail;
	struct ex_err err = { 0 };
	int status = EXR_OK, rc, nactive = 0;

	memset(t, 0, sizeof(t));
	if (types_from_conf(conf, t) != 0 &&
	    (rc = types_from_acctadm(t)) != EXR_OK)
		return rc;
	for (i = 0; i < NTYPES; i++)
		nactive += t[i].active && t[i].file[0] == '/';
	if (nactive == 0)
		return complain(EXR_IO, "rotate: extended accounting is not "
		    "active for processes, tasks or flows (as %s says): "
		    "nothing to rotate; turn it on with acctadm -e extended "
		    "-f FILE process", access(conf, F_OK) == 0 ? conf :
		    "acctadm");

	/* 1. A partial record for every live process. */
	if (t[T_PROC].active && t[T_PROC].file[0] == '/') {
		if ((pids = live_pids(&n)) == NULL && n == 0)
			return complain(EXR_IO, "/proc: %s", strerror(errno));
		rc = write_partials(pids, n, &nw, &nfail);
		free(pids);
		if (rc != EXR_OK)
			return rc;
		printf("rotate: wracct wrote %zu partial records (%zu "
		    "processes gone or refused)\n", nw, nfail);
	}

	/* 2. Switch each active type to a new file in the spool. */
	for (i = 0; i < NTYPES; i++) {
		if (!t[i].active || t[i].file[0] != '/')
			continue;
		spool_name(name, sizeof(name), types[i].kind, sp->host, now);
		spool_path(sp, name, path, sizeof(path));
		if (strcmp(path, t[i].file) == 0)
			continue;	/* already this minute's file */
		argv[0] = "acctadm";
		argv[1] = "-f";
		argv[2] = path;
		argv[3] = (char *)types[i].type;
		argv[4] = NULL;
		if ((rc = run_prog(argv, 2, out, sizeof(out))) != 0) {
			status = complain(EXR_IO, "acctadm -f %s %s: exit %d%s%s",
			    path, types[i].type, rc, out[0] != '\0' ? ": " : "",
			    out);
			continue;
		}
		printf("rotate: %s accounting moved from %s to %s\n",
		    types[i].type, t[i].file, path);
		/* run takes every other log of the kind as closed; acctadm
		 * created this one. */
		if (spool_add(sp, name) != EXR_OK)
			status = complain(EXR_NOMEM, "no memory");
		if ((rc = spool_live_set(sp, types[i].k, name, &err)) !=
		    EXR_OK)
			status = complain(rc, "%s", err.reason);
	}
	return status;
}
