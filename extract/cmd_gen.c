/*
 * extracct gen --kind proc|task|flow|pacct|energy --records N [--seed S]
 *     [--host NAME] [--jitter] [--pacct-version 3|2|0] [--big-endian]
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

#include "extracct.h"
#include "gen.h"

static const char usage_gen[] =
    "usage: extracct gen --kind proc|task|flow|pacct|energy --records N "
    "[--seed S] [--host NAME] [--jitter] [--pacct-version 3|2|0] "
    "[--big-endian] [--energy-writer native|rosetta|intel] -o FILE";

int
cmd_gen(int argc, char **argv, struct ctx *ctx)
{
	static const struct option longopts[] = {
		{ "kind", required_argument, NULL, 'k' },
		{ "records", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "host", required_argument, NULL, 'H' },
		{ "jitter", no_argument, NULL, 'J' },
		{ "pacct-version", required_argument, NULL, 'V' },
		{ "big-endian", no_argument, NULL, 'E' },
		{ "energy-writer", required_argument, NULL, 'W' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static char buf[1 << 20];
	struct gen_opts o = { GEN_PROC, 0, 1, NULL, 0, 3, 0,
	    GEN_ENERGY_NATIVE };
	const char *out = NULL;
	int ch, fd, rc, saved, to_stdout, have_kind = 0, have_n = 0;
	FILE *fp;

	(void)ctx;
	while ((ch = getopt_long(argc, argv, "hk:n:o:s:", longopts,
	    NULL)) != -1) {
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
		case 'J':	/* snapshots at random times */
			o.jitter = 1;
			break;
		case 'o':	/* output file */
			out = optarg;
			break;
		case 'h':
			puts(usage_gen);
			return EXR_OK;
		default:
			return complain(EXR_USAGE, "%s", usage_gen);
		}
	}
	if (optind != argc || !have_kind || !have_n || out == NULL)
		return complain(EXR_USAGE, "%s", usage_gen);

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
