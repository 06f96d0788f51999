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

const struct cmddoc cmd_gen_doc = { "gen",
    "write a synthetic log of N records of one kind", NULL,
    "Write a synthetic log of exactly N records of one kind, as the "
    "Solaris or Linux kernel would: the same options give the same bytes.",
    gen_options };

/*
 * arg, one of the n words of option opt: its index into *i.  EXR_OK,
 * or EXR_USAGE after a message listing them.
 */
static int
one_of(const char *opt, const char *arg, const char *const *words, int n,
    int *i)
{
	char list[128];
	size_t len = 0;
	int k;

	for (k = 0; k < n; k++)
		if (strcmp(arg, words[k]) == 0) {
			*i = k;
			return EXR_OK;
		}
	for (k = 0; k < n && len < sizeof(list); k++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
		    k == 0 ? "" : ", ", words[k]);
	return complain(EXR_USAGE, "%s '%s': not one of %s", opt, arg, list);
}

/* The log o describes into out ("-": standard output), whole or not
 * at all. */
static int
write_log(const char *out, const struct gen_opts *o)
{
	static char buf[1 << 20];
	int fd, rc, saved, to_stdout;
	FILE *fp;

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
	rc = gen_write(fp, o);
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

int
cmd_gen(int argc, char **argv, struct ctx *ctx)
{
	/* In the order of enum gen_kind, and of the energy writers. */
	static const char *const kinds[] = { "proc", "task", "flow", "pacct",
	    "energy" };
	static const char *const versions[] = { "3", "2", "0" };
	static const char *const writers[] = { "native", "rosetta", "intel" };
	struct cmdopt_parser op = { .doc = &cmd_gen_doc };
	struct gen_opts o = { GEN_PROC, 0, 1, NULL, 0, 0, 3, 0,
	    GEN_ENERGY_NATIVE };
	const char *out = NULL;
	int ch, i, rc = EXR_OK, have_kind = 0, have_n = 0;

	(void)ctx;
	/* One line an option: what each does is in gen_options[]. */
	while (rc == EXR_OK && (ch = cmdopt_next(&op, argc, argv)) != -1) {
		switch (ch) {
		case 'k':
			if ((rc = one_of("--kind", optarg, kinds, 5, &i)) ==
			    EXR_OK)
				o.kind = (enum gen_kind)i;
			have_kind = 1;
			break;
		case 'n':
			rc = parse_u64("--records", optarg, 1, 100000000,
			    &o.records);
			have_n = 1;
			break;
		case 's':
			rc = parse_u64("--seed", optarg, 0, UINT64_MAX, &o.seed);
			break;
		case 'H': o.hostname = optarg; break;
		case 'V':
			if ((rc = one_of("--pacct-version", optarg, versions, 3,
			    &i)) == EXR_OK)
				o.pacct_version = versions[i][0] - '0';
			break;
		case 'E': o.big_endian = 1; break;
		case 'W':
			if ((rc = one_of("--energy-writer", optarg, writers, 3,
			    &i)) == EXR_OK)
				o.energy_writer = (enum gen_energy_writer)i;
			break;
		case 'D':
			rc = parse_u64("--daemons", optarg, 3, 1000000,
			    &o.daemons);
			break;
		case 'J': o.jitter = 1; break;
		case 'o': out = optarg; break;
		case 'h': return cmdopt_help(&cmd_gen_doc);
		default: return cmdopt_bad(&cmd_gen_doc);
		}
	}
	if (rc != EXR_OK)
		return rc;
	if (optind != argc || !have_kind || !have_n)
		return cmdopt_bad(&cmd_gen_doc);
	if (out == NULL)
		return complain(EXR_USAGE, "gen: -o FILE is required: the log "
		    "to write (- for standard output)");
	return write_log(out, &o);
}
