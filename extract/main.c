/*
 * extracct: turn binary accounting and energy logs into usage facts.
 *
 * main() is the dispatcher: it finds the command in commands[], runs it,
 * then flushes stdout and checks for write errors (a full disk must not
 * give a silently short report), and maps the command's EXR_* code to
 * its exit status (parsers/exerr.h, EX_RESULTS).  Only this file exits.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "../store/db.h"
#include "cmdopt.h"
#include "config.h"
#include "cmd.h"
#include "util.h"
#include "paths.h"

/* The Makefile derives it (git describe, or the VERSION file). */
#ifndef EXTRACCT_VERSION
#error "EXTRACCT_VERSION is not defined: build with make"
#endif

/* After a command: a write error on stdout is an error. */
static int
finish(int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("extracct: standard output");
		rc = ex_worst(rc, EXR_IO);
	}
	return rc;
}

struct command {
	int		(*fn)(int, char **, struct ctx *);
	const struct cmddoc *doc;	/* its name, options and --help */
};

static const struct command commands[] = {
	{ cmd_dump, &cmd_dump_doc },
	{ cmd_text, &cmd_text_doc },
	{ cmd_check, &cmd_check_doc },
	{ cmd_gen, &cmd_gen_doc },
	{ cmd_ingest, &cmd_ingest_doc },
	{ cmd_config, &cmd_config_doc },
	{ cmd_snap, &cmd_snap_doc },
	{ cmd_acctd, &cmd_acctd_doc },
	{ cmd_rotate, &cmd_rotate_doc },
	{ cmd_run, &cmd_run_doc },
	{ cmd_report, &cmd_report_doc },
	{ cmd_merge, &cmd_merge_doc },
	{ cmd_push, &cmd_push_doc },
	{ cmd_rollup, &cmd_rollup_doc },
};

#define NCOMMANDS	(sizeof(commands) / sizeof(commands[0]))

static const char legacy_usage[] = "extracct -vwr [FILE | -a DIR]";

/*
 * The original exdump's flags, extracct -vwr [FILE | -a DIR]: -w writes
 * a snapshot first, -r rotates, -a DIR puts the text outputs in DIR, a
 * FILE is processed too, -v is accepted (run always reports).  They map
 * onto run, and only in these forms: letters of vwra in one word or
 * several, DIR the word after the one with the a (so "-war DIR" and
 * "-vwr -a DIR" both work, which getopt would not allow), at most one
 * FILE and not with DIR, and -w or -r among them.  Without -w or -r the
 * flags did nothing in the original, and "extracct -v" used to start
 * the hourly job for someone asking for the version.
 */
static int
legacy_flags(int argc, char **argv, struct ctx *ctx)
{
	char *av[8], *file = NULL, *dir = NULL;
	const char *p;
	int ac = 0, i, w = 0, r = 0, a;

	for (i = 1; i < argc; i++) {
		if (argv[i][0] != '-' || argv[i][1] == '\0') {
			if (file != NULL)
				return complain(EXR_USAGE, "one FILE at most: "
				    "usage: %s", legacy_usage);
			file = argv[i];
			continue;
		}
		for (a = 0, p = argv[i] + 1; *p != '\0'; p++) {
			switch (*p) {
			case 'a':	/* the text outputs' directory */
				a = 1;
				break;
			case 'r':	/* rotate */
				r = 1;
				break;
			case 'v':	/* verbose: run always says so */
				break;
			case 'w':	/* snapshot first (wracct) */
				w = 1;
				break;
			default:
				return complain(EXR_USAGE, "%s: not one of the "
				    "original flags -v, -w, -r, -a: usage: %s",
				    argv[i], legacy_usage);
			}
		}
		if (a && (dir != NULL || i + 1 == argc))
			return complain(EXR_USAGE, "-a takes one DIR: "
			    "usage: %s", legacy_usage);
		if (a)
			dir = argv[++i];
	}
	if (!w && !r)
		return complain(EXR_USAGE, "%s: the original flags act only "
		    "with -w (snapshot) or -r (rotate): usage: %s; the "
		    "version: extracct -V", argv[1], legacy_usage);
	if (file != NULL && dir != NULL)
		return complain(EXR_USAGE, "a FILE or -a DIR, not both: usage: "
		    "%s", legacy_usage);
	av[ac++] = "run";
	if (!w)
		av[ac++] = "--no-snap";
	if (!r)
		av[ac++] = "--no-rotate";
	if (dir != NULL) {
		av[ac++] = "--outdir";
		av[ac++] = dir;
	}
	if (file != NULL)
		av[ac++] = file;
	av[ac] = NULL;
	return finish(cmd_run(ac, av, ctx));
}

static void
usage(FILE *fp)
{
	size_t i;

	fputs("usage: extracct [-c CONFIG] COMMAND [ARGS]\n", fp);
	for (i = 0; i < NCOMMANDS; i++)
		cmdopt_usage(fp, "      ", commands[i].doc);
	fprintf(fp, "       %s\n", legacy_usage);
	fputs("       extracct -h | --help | help [COMMAND]\n", fp);
	fputs("       extracct -V | --version\n", fp);
	fputs("\nThe commands:\n", fp);
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(fp, "   %-8s %s\n", commands[i].doc->name,
		    commands[i].doc->brief);
	fputs("\nEach command's options, their defaults and units: extracct "
	    "COMMAND --help.\nSee extracct(8).\n", fp);
}

static const struct command *
find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (strcmp(name, commands[i].doc->name) == 0)
			return &commands[i];
	return NULL;
}

/*
 * The forms that need no configuration: -h, --help, help [COMMAND],
 * -V, --version.  Returns the exit status, or -1 for none of them.
 */
static int
help_or_version(int argc, char **argv)
{
	const struct command *cmd;

	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
	    (strcmp(argv[1], "help") == 0 && argc == 2)) {
		usage(stdout);
		return ex_exit_status(finish(EXR_OK));
	}
	if (strcmp(argv[1], "help") == 0) {
		if (argc > 3) {
			say(stderr, "extracct: usage: extracct help [COMMAND]");
			return 2;
		}
		if ((cmd = find_command(argv[2])) == NULL) {
			say(stderr, "extracct: help: '%s' is not a command",
			    argv[2]);
			usage(stderr);
			return 2;
		}
		return ex_exit_status(finish(cmdopt_help(cmd->doc)));
	}
	if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0) {
		printf("extracct %s (database schema %d)\n", EXTRACCT_VERSION,
		    DB_SCHEMA_VERSION);
		return ex_exit_status(finish(EXR_OK));
	}
	return -1;
}

int
main(int argc, char *argv[])
{
	static struct config cfg;
	struct ctx ctx = { "extracct", &cfg };
	const struct command *cmd;
	struct ex_err err = { 0 };
	const char *cfgpath = NULL, *given = NULL;
	int rc, legacy;

	/*
	 * Over the file size limit (ulimit -f), a write fails with EFBIG,
	 * reported like a full disk, instead of the signal killing us in
	 * the middle of a record.
	 */
	signal(SIGXFSZ, SIG_IGN);
	/* -c FILE before the command or among its options: the
	 * configuration; else /etc/extracct.yml if there. */
	config_defaults(&cfg);
	if (argc >= 2 && strcmp(argv[1], "-c") == 0) {
		if (argc < 3) {
			say(stderr, "extracct: -c: no configuration file "
			    "named");
			return 2;
		}
		given = argv[2];
		argc -= 2;
		argv += 2;
	}
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if ((rc = help_or_version(argc, argv)) != -1)
		return rc;
	/* The original exdump's flags (-vwr) have no command. */
	legacy = argv[1][0] == '-' && argv[1][1] != '-' && argv[1][1] != '\0';
	cmd = NULL;
	if (!legacy && (cmd = find_command(argv[1])) == NULL) {
		say(stderr, "extracct: '%s' is not a command", argv[1]);
		usage(stderr);
		return 2;
	}
	/* Or among the command's options, where users put it too:
	 * "extracct report -c FILE". */
	if (cmd != NULL && cmdopt_config(cmd->doc, argc - 1, argv + 1,
	    &cfgpath) != 0) {
		say(stderr, "extracct: -c: one configuration file, not two");
		return 2;
	}
	if (cfgpath != NULL && given != NULL) {
		say(stderr, "extracct: -c: one configuration file, before "
		    "the command or after it, not both");
		return 2;
	}
	if (cfgpath == NULL)
		cfgpath = given;
	if (cfgpath == NULL && access(PATH_CONFIG, F_OK) == 0)
		cfgpath = PATH_CONFIG;
	if (cfgpath != NULL && config_load(&cfg, cfgpath, &err) != EXR_OK) {
		say(stderr, "extracct: %s", err.reason);
		return ex_exit_status(err.code);
	}
	if (legacy)
		return ex_exit_status(legacy_flags(argc, argv, &ctx));
	return ex_exit_status(finish(cmd->fn(argc - 1, argv + 1, &ctx)));
}
