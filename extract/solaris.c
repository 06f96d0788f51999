/*
 * rotate on Solaris and illumos: drive wracct(8) and acctadm(8), as the
 * original extracct's -w and -r did (exacct-format.md §8).
 *
 * The active exacct files are read from /etc/acctadm.conf (the pre-SMF
 * KEY=value file; exacct-format.md §8.3).  First a partial record for
 * every process: wracct -t partial -i PID process, one pid at a time, so
 * that a process that exits meanwhile fails alone (that is not an
 * error: its final record is in the log).  Then, for each enabled type,
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
#include <unistd.h>

#include "extracct.h"
#include "solaris.h"
#include "spool.h"

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

/* Run argv (searched on PATH); its exit status, or -1. */
static int
run_prog(char *const argv[])
{
	pid_t pid;
	int status;

	if ((pid = fork()) == -1)
		return -1;
	if (pid == 0) {
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) == -1)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* TYPE_ENABLE=yes and TYPE_FILE=/path in acctadm.conf; 0 if enabled. */
static int
conf_file(const char *conf, const char *type, char *file, size_t n)
{
	char line[1024], key_en[64], key_file[64];
	int enabled = 0;
	FILE *fp;

	file[0] = '\0';
	if ((fp = fopen(conf, "re")) == NULL)
		return -1;
	snprintf(key_en, sizeof(key_en), "ACCTADM_%s_ENABLE=", type);
	snprintf(key_file, sizeof(key_file), "ACCTADM_%s_FILE=", type);
	while (fgets(line, sizeof(line), fp) != NULL) {
		char *v;

		line[strcspn(line, "\n")] = '\0';
		v = line + strspn(line, " \t");
		if (strncmp(v, key_en, strlen(key_en)) == 0)
			enabled = strcasecmp(v + strlen(key_en), "yes") == 0;
		else if (strncmp(v, key_file, strlen(key_file)) == 0)
			snprintf(file, n, "%s", v + strlen(key_file));
	}
	fclose(fp);
	return enabled && file[0] == '/' ? 0 : -1;
}

int
solaris_rotate(const char *spool, const char *conf, const char *host,
    time_t now)
{
	static const struct { const char *conf, *kind, *type; } types[] = {
		{ "PROC", "proc", "process" },
		{ "TASK", "task", "task" },
		{ "FLOW", "flow", "flow" },
	};
	char file[1024], name[256], path[4096];
	char *argv[8];
	struct ex_err err = { 0 };
	size_t i;
	int nw = 0, nfail = 0, status = EXR_OK, rc;
	DIR *d;
	struct dirent *de;

	/* 1. A partial record for every live process. */
	if (conf_file(conf, "PROC", file, sizeof(file)) == 0 &&
	    (d = opendir("/proc")) != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (!isdigit((unsigned char)de->d_name[0]))
				continue;
			argv[0] = "wracct";
			argv[1] = "-t";
			argv[2] = "partial";
			argv[3] = "-i";
			argv[4] = de->d_name;
			argv[5] = "process";
			argv[6] = NULL;
			if (run_prog(argv) == 0)
				nw++;
			else
				nfail++;	/* exited meanwhile: fine */
		}
		closedir(d);
		printf("rotate: wracct wrote %d partial records (%d processes "
		    "gone or refused)\n", nw, nfail);
	}

	/* 2. Switch each enabled type to a new file in the spool. */
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		if (conf_file(conf, types[i].conf, file, sizeof(file)) != 0)
			continue;
		spool_name(name, sizeof(name), types[i].kind, host, now);
		snprintf(path, sizeof(path), "%s/%s", spool, name);
		if (strcmp(path, file) == 0)
			continue;	/* already this minute's file */
		argv[0] = "acctadm";
		argv[1] = "-f";
		argv[2] = path;
		argv[3] = (char *)types[i].type;
		argv[4] = NULL;
		if ((rc = run_prog(argv)) != 0) {
			status = complain(EXR_IO, "acctadm -f %s %s: exit %d",
			    path, types[i].type, rc);
			continue;
		}
		printf("rotate: %s accounting moved from %s to %s\n",
		    types[i].type, file, path);
		/* run takes every other log of the kind as closed. */
		if ((rc = spool_live_set(spool, types[i].kind, host, name,
		    &err)) != EXR_OK)
			status = complain(rc, "%s", err.reason);
	}
	return status;
}
