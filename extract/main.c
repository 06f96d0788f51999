/*
 * extracct: turn binary accounting and energy logs into usage facts.
 *
 * main() is the dispatcher: it finds the command in commands[], runs it,
 * then flushes stdout and checks for write errors (a full disk must not
 * give a silently short report), and maps the command's EXR_* code to
 * the exit status of design.md §8: 0 ok, 1 damaged input, 2 usage,
 * 3 runtime failure.  Only this file exits.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "extracct.h"
#include "paths.h"

/* After a command: a write error on stdout is an error. */
static int
finish(int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("extracct: standard output");
		rc = worst(rc, EXR_IO);
	}
	return rc;
}

struct command {
	const char	*name;
	int		(*fn)(int, char **, struct ctx *);
	const char	*synopsis;
};

static const struct command commands[] = {
	{ "dump", cmd_dump, "dump [-v] [--passwd F] [--group F] "
	    "[--project F] FILE..." },
	{ "text", cmd_text, "text [-H] [-k proc|task|flow] "
	    "[--provider NAME] FILE..." },
	{ "check", cmd_check, "check [--provider NAME] FILE..." },
	{ "gen", cmd_gen, "gen --kind proc|task|flow|pacct|energy "
	    "--records N [--seed S] [--host NAME] [--jitter] "
	    "[--pacct-version 3|2|0] [--big-endian] "
	    "[--energy-writer native|rosetta|intel] -o FILE" },
	{ "ingest", cmd_ingest, "ingest [--db FILE] [--outdir DIR] "
	    "[--idle-rows heartbeat|always] [--heartbeat-hours N] [--chunk N] "
	    "[--host NAME] [--provider NAME] FILE..." },
	{ "config", cmd_config, "config" },
	{ "snap", cmd_snap, "snap [-o FILE] [--spool DIR] "
	    "[--powercap DIR]" },
	{ "acctd", cmd_acctd, "acctd [-o DIR] [--pidfile FILE] "
	    "[--rcvbuf BYTES]" },
	{ "rotate", cmd_rotate, "rotate [--spool DIR] [--pacct FILE] "
	    "[--acctadm-conf FILE] [--acctd-pidfile FILE] [--start]" },
	{ "run", cmd_run, "run [--spool DIR] [--db FILE] [--outdir DIR] "
	    "[--pacct FILE] [--retention-days N] [--text-retention-days N] "
	    "[--no-snap] [--no-rotate] [FILE...]" },
	{ "report", cmd_report, "report [--db FILE] "
	    "[--by user|command|project|zone|host|hour] [--from TIME] "
	    "[--to TIME] [--format table|csv|json] [--tz ZONE] [--capture] "
	    "[--energy] [FILE...]" },
};

/*
 * The original exdump's flags, extracct -vwr [FILE | -a DIR]: -w writes
 * a snapshot first, -r rotates, -a DIR puts the text outputs in DIR, a
 * FILE is processed too, -v is accepted (run always reports).  They map
 * onto run.
 */
static int
legacy_flags(int argc, char **argv, struct ctx *ctx)
{
	char *av[16];
	int ac = 0, ch, w = 0, r = 0;
	const char *dir = NULL;

	while ((ch = getopt(argc, argv, "a:hrvw")) != -1) {
		switch (ch) {
		case 'a':	/* output directory */
			dir = optarg;
			break;
		case 'r':	/* rotate */
			r = 1;
			break;
		case 'v':	/* verbose: run always says what it did */
			break;
		case 'w':	/* snapshot first (wracct) */
			w = 1;
			break;
		default:
			fputs("usage: extracct -vwr [FILE | -a DIR]\n", stderr);
			return EXR_USAGE;
		}
	}
	av[ac++] = "run";
	if (!w)
		av[ac++] = "--no-snap";
	if (!r)
		av[ac++] = "--no-rotate";
	if (dir != NULL) {
		av[ac++] = "--outdir";
		av[ac++] = (char *)dir;
	}
	while (optind < argc && ac < 15)
		av[ac++] = argv[optind++];
	av[ac] = NULL;
	optind = 0;
	return finish(cmd_run(ac, av, ctx));
}

static void
usage(FILE *fp)
{
	size_t i;

	fputs("usage: extracct [-c CONFIG] COMMAND [ARGS]\n", fp);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(fp, "       extracct %s\n", commands[i].synopsis);
	fputs("       extracct -vwr [FILE | -a DIR]\n", fp);
	fputs("See extracct(8).\n", fp);
}

int
main(int argc, char *argv[])
{
	static struct config cfg;
	struct ctx ctx = { "extracct", &cfg };
	const struct command *cmd = NULL;
	struct ex_err err = { 0 };
	const char *cfgpath = NULL;
	size_t i;

	/*
	 * Over the file size limit (ulimit -f), a write fails with EFBIG,
	 * reported like a full disk, instead of the signal killing us in
	 * the middle of a record.
	 */
	signal(SIGXFSZ, SIG_IGN);
	/* -c FILE: the configuration; else /etc/extracct.yml if there. */
	config_defaults(&cfg);
	if (argc >= 3 && strcmp(argv[1], "-c") == 0) {
		cfgpath = argv[2];
		argc -= 2;
		argv += 2;
	} else if (access(PATH_CONFIG, F_OK) == 0)
		cfgpath = PATH_CONFIG;
	if (cfgpath != NULL && config_load(&cfg, cfgpath, &err) != EXR_OK) {
		say(stderr, "extracct: %s", err.reason);
		return ex_exit_status(err.code);
	}
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
	if (argv[1][0] == '-' && argv[1][1] != '-' && argv[1][1] != '\0')
		return ex_exit_status(legacy_flags(argc, argv, &ctx));
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			cmd = &commands[i];
	if (cmd == NULL) {
		say(stderr, "extracct: '%s' is not a command", argv[1]);
		usage(stderr);
		return 2;
	}
	return ex_exit_status(finish(cmd->fn(argc - 1, argv + 1, &ctx)));
}
