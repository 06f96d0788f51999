/*
 * The /proc readers on a made-up tree: a process's context switches are
 * those of all its live threads, not its main thread's (issue 12.11).
 */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../extract/procfs.h"
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
	/* Three threads (field 20), state S. */
	put(root, "1/stat", "1 (init) S 0 1 1 0 -1 0 10 0 0 0 5 6 0 0 20 0 "
	    "3 0 100 0 0\n");
	status(root, "1/status", 425, 9);
	status(root, "1/task/1/status", 425, 9);
	status(root, "1/task/7/status", 25607, 11);
	CHECK("procfs_init", procfs_init(&pf, root, &err) == EXR_OK);
	CHECK("procfs_proc", procfs_proc(&pf, "1", 0, &p) == 0);
	CHECK("voluntary: every thread", REC_HAS(&p, PROC_CTXT_VOL) &&
	    p.v[PROC_CTXT_VOL] == 26032);
	CHECK("involuntary: every thread", REC_HAS(&p, PROC_CTXT_INV) &&
	    p.v[PROC_CTXT_INV] == 20);
	CHECK("threads", p.v[PROC_THREADS] == 3);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		CHECK("cleanup", 0);
}

void
suite_procfs(void)
{
	test_thread_switches();
}
