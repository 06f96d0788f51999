/*
 * extracct: turn binary accounting and energy logs into usage facts.
 *
 * main() is the dispatcher: it finds the command in commands[], runs it,
 * then flushes stdout and checks for write errors (a full disk must not
 * give a silently short report), and maps the command's EXR_* code to
 * the exit status of design.md §8: 0 ok, 1 damaged input, 2 usage,
 * 3 runtime failure.  Only this file exits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extracct.h"

struct command {
	const char	*name;
	int		(*fn)(int, char **, struct ctx *);
	const char	*synopsis;
};

static const struct command commands[] = {
	{ "dump", cmd_dump, "dump [-v] [--passwd F] [--group F] "
	    "[--project F] FILE..." },
	{ "text", cmd_text, "text [-H] [-k proc|task|flow] FILE..." },
	{ "check", cmd_check, "check FILE..." },
	{ "gen", cmd_gen, "gen --kind proc|task|flow|pacct --records N "
	    "[--seed S] [--host NAME] [--jitter] [--pacct-version 3|2|0] "
	    "[--big-endian] -o FILE" },
	{ "ingest", cmd_ingest, "ingest [--db FILE] [--outdir DIR] FILE..." },
	{ "snap", cmd_snap, "snap [-o FILE]" },
	{ "report", cmd_report, "report [--db FILE] [--by KEY] [--from T] "
	    "[--to T] [--format table|csv|json] [--tz ZONE]" },
};

static void
usage(FILE *fp)
{
	size_t i;

	fputs("usage: extracct COMMAND [ARGS]\n", fp);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(fp, "       extracct %s\n", commands[i].synopsis);
	fputs("See extracct(1).\n", fp);
}

int
main(int argc, char *argv[])
{
	struct ctx ctx = { "extracct" };
	const struct command *cmd = NULL;
	size_t i;
	int rc;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("extracct %s\n", EXTRACCT_VERSION_STRING);
		return 0;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			cmd = &commands[i];
	if (cmd == NULL) {
		fprintf(stderr, "extracct: '%s' is not a command\n", argv[1]);
		usage(stderr);
		return 2;
	}
	rc = cmd->fn(argc - 1, argv + 1, &ctx);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("extracct: standard output");
		rc = worst(rc, EXR_IO);
	}
	return ex_exit_status(rc);
}
