/*
 * extracct gen --kind proc|task|flow|pacct|energy --records N [--seed S]
 *     [--host NAME] [--jitter] [--daemons N] [--pacct-version 3|2|0]
 *     [--big-endian]
 *     [--energy-writer native|rosetta|intel]
 *     -o FILE
 *
 * Deterministic synthetic logs (extract/gen.c) for tests and benchmarks.
 * The output is opened with O_NOFOLLOW: gen never writes through a
 * symbolic link.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmdopt.h"
#include "cmd.h"
#include "util.h"
#include "gen.h"

static const struct cmdopt gen_options[] = {
	{ 'k', "kind", "proc|task|flow|pacct|energy", CO_SHORT | CO_REQUIRED,
	    "the kind of record (required)" },
	{ 'n', "records", "N", CO_SHORT | CO_REQUIRED,
	    "how many records, 1 to 100000000 (required)" },
	{ 's', "seed", "S", CO_SHORT,
	    "seed of the pseudo-random choices, 0 to 2^64-1: the same seed "
	    "gives the same bytes (default: 1)" },
	{ 'H', "host", "NAME", 0,
	    "host name in the header and in task records (default: genhost)" },
	{ 'J', "jitter", NULL, 0,
	    "proc: the hourly partial records at a random moment up to 30 "
	    "minutes before the hour (default: on the hour)" },
	{ 'D', "daemons", "N", 0,
	    "proc: N long-lived daemons, 3 to 1000000, each with an hourly "
	    "partial record: N processes live at once (default: one per 40 "
	    "records, at most 2000)" },
	{ 'V', "pacct-version", "3|2|0", 0,
	    "pacct: the record version (default: 3)" },
	{ 'E', "big-endian", NULL, 0,
	    "pacct: as the kernel of a big-endian host writes it (default: "
	    "little-endian)" },
	{ 'W', "energy-writer", "native|rosetta|intel", 0,
	    "energy: who wrote the snapshots: an Apple silicon sampler, the "
	    "same translated by Rosetta, or an Intel Mac (default: native)" },
	{ 'o', "output", "FILE", CO_SHORT | CO_SHOW_SHORT | CO_REQUIRED,
	    "the file to write, never through a symbolic link; - is standard "
	    "output (required)" },
	{ 0, NULL, NULL, 0, NULL }
};

const struct cmddoc cmd_gen_doc = { "gen", NULL,
    "Write a synthetic log of exactly N records of one kind, as the "
    "Solaris or Linux kernel would: the same options give the same bytes.",
    gen_options };

int
cmd_gen(int argc, char **argv, struct ctx *ctx)
{
	struct cmdopt_parser op = { .doc = &cmd_gen_doc };
	static char buf[1 << 20];
	struct gen_opts o = { GEN_PROC, 0, 1, NULL, 0, 0, 3, 0,
	    GEN_ENERGY_NATIVE };
	const char *out = NULL;
	int ch, fd, rc, saved, to_stdout, have_kind = 0, have_n = 0;
	FILE *fp;

	(void)ctx;
	while ((ch = cmdopt_next(&op, argc, argv)) != -1) {
		switch (ch) {
		case 'k':	/* record kind */
			have_kind = 1;
			if (strcmp(optarg, "proc") == 0)
				o.kind = GEN_PROC;
			else if (strcmp(optarg, "task") == 0)
				o.kind = GEN_TASK;
			else if (strcmp(optarg, "flow") == 0)
				o.kind = GEN_FLOW;
			else if (strcmp(optarg, "pacct") == 0)
				o.kind = GEN_PACCT;
			else if (strcmp(optarg, "energy") == 0)
				o.kind = GEN_ENERGY;
			else
				return complain(EXR_USAGE, "--kind '%s': not "
				    "one of proc, task, flow, pacct, energy",
				    optarg);
			break;
		case 'n':	/* how many records */
			if (parse_u64("--records", optarg, 1, 100000000,
			    &o.records) != EXR_OK)
				return EXR_USAGE;
			have_n = 1;
			break;
		case 's':	/* seed: same seed, same bytes */
			if (parse_u64("--seed", optarg, 0, UINT64_MAX,
			    &o.seed) != EXR_OK)
				return EXR_USAGE;
			break;
		case 'H':	/* host name in the header */
			o.hostname = optarg;
			break;
		case 'V':	/* pacct record version */
			if (strcmp(optarg, "3") != 0 && strcmp(optarg, "2") !=
			    0 && strcmp(optarg, "0") != 0)
				return complain(EXR_USAGE, "--pacct-version "
				    "'%s': not 3, 2 or 0", optarg);
			o.pacct_version = optarg[0] - '0';
			break;
		case 'E':	/* pacct as a big-endian kernel writes it */
			o.big_endian = 1;
			break;
		case 'W':	/* who wrote the energy snapshots */
			if (strcmp(optarg, "native") == 0)
				o.energy_writer = GEN_ENERGY_NATIVE;
			else if (strcmp(optarg, "rosetta") == 0)
				o.energy_writer = GEN_ENERGY_ROSETTA;
			else if (strcmp(optarg, "intel") == 0)
				o.energy_writer = GEN_ENERGY_INTEL;
			else
				return complain(EXR_USAGE, "--energy-writer "
				    "'%s': not native, rosetta or intel",
				    optarg);
			break;
		case 'D':	/* live daemons */
			if (parse_u64("--daemons", optarg, 3, 1000000,
			    &o.daemons) != EXR_OK)
				return EXR_USAGE;
			break;
		case 'J':	/* snapshots at random times */
			o.jitter = 1;
			break;
		case 'o':	/* output file */
			out = optarg;
			break;
		case 'h':
			return cmdopt_help(&cmd_gen_doc);
		default:
			return cmdopt_bad(&cmd_gen_doc);
		}
	}
	if (optind != argc || !have_kind || !have_n || out == NULL)
		return cmdopt_bad(&cmd_gen_doc);

	/* "-" is standard output, as "-" is standard input elsewhere. */
	to_stdout = strcmp(out, "-") == 0;
	if (to_stdout)
		fd = dup(STDOUT_FILENO);
	else
		fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
		    O_CLOEXEC, 0644);
	if (fd == -1)
		return complain(EXR_IO, "%s: %s", out, strerror(errno));
	if ((fp = fdopen(fd, "w")) == NULL) {
		close(fd);
		return complain(EXR_IO, "%s: %s", out, strerror(errno));
	}
	setvbuf(fp, buf, _IOFBF, sizeof(buf));
	rc = gen_write(fp, &o);
	saved = errno;
	if (fclose(fp) != 0 && rc == EXR_OK) {
		rc = EXR_IO;
		saved = errno;
	}
	if (rc != EXR_OK) {
		/* Leave no half-written log behind to be read later. */
		if (!to_stdout)
			(void)unlink(out);
		return complain(rc, "%s: %s", out, rc == EXR_IO ?
		    strerror(saved) : ex_strcode(rc));
	}
	return EXR_OK;
}
