/*
 * extracct check [--provider NAME] FILE...
 *
 * Validate whole files: print each damaged byte range with its reason,
 * then one summary line per file.  Exit 0 clean, 1 damaged.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>

#include "../parsers/records.h"
#include "cmdopt.h"
#include "extracct.h"
#include "walk.h"

static const struct cmdopt check_options[] = {
	{ 'P', "provider", "NAME", 0,
	    "what the metric-provider streams among the files hold (default: "
	    "from each file's name, PROVIDER.log)" },
	{ 0, NULL, NULL, 0, NULL }
};

const struct cmddoc cmd_check_doc = { "check", "FILE...",
    "Validate whole files: print each damaged byte range with its reason, "
    "then a summary line per file; exit 0 if clean, 1 if damaged.",
    check_options };

struct check_state {
	uint64_t	 records;	/* proc, task and flow records */
	uint64_t	 other;		/* other top-level objects */
	struct rec_counts counts;
};

static int
check_object(void *arg, const struct ex_rec *rec)
{
	struct check_state *s = arg;
	static struct ex_proc p;
	static struct ex_task t;
	static struct ex_flow f;

	/* Fill the records too: that is where unknown ids are counted. */
	switch (rec_kind(rec)) {
	case REC_PROC:
		proc_fill(&p, rec, &s->counts);
		break;
	case REC_TASK:
		task_fill(&t, rec, &s->counts);
		break;
	case REC_FLOW:
		flow_fill(&f, rec, &s->counts);
		break;
	case REC_ENERGY: {
		static struct ex_energy e;

		energy_fill(&e, rec, &s->counts);
		break;
	}
	case REC_HEADER:
		return EXR_OK;
	default:
		s->other++;
		return EXR_OK;
	}
	s->records++;
	return EXR_OK;
}

static int
check_pacct(void *arg, const struct pacct_reader *r, const struct ex_proc *p)
{
	struct check_state *s = arg;

	(void)r;
	(void)p;
	s->records++;
	return EXR_OK;
}

static int
check_sample(void *arg, const struct stream_provider *p,
    const struct stream_line *ln, const struct stream_sample *x)
{
	struct check_state *s = arg;

	(void)p;
	(void)ln;
	(void)x;
	s->records++;
	return EXR_OK;
}

static void
check_damage(void *arg, const char *path, uint64_t from, uint64_t to,
    const struct ex_err *err)
{
	(void)arg;
	if (to > from)
		say(stdout, "%s: bytes %" PRIu64 "-%" PRIu64 " damaged: "
		    "offset %" PRIu64 ": %s", path, from, to - 1, err->off,
		    err->reason);
	else
		say(stdout, "%s: offset %" PRIu64 ": %s", path, err->off,
		    err->reason);
}

static void
check_note(void *arg, const char *path, uint64_t off, const char *msg)
{
	(void)arg;
	printf("%s: offset %" PRIu64 ": %s\n", path, off, msg);
}

int
cmd_check(int argc, char **argv, struct ctx *ctx)
{
	struct cmdopt_parser op = { .doc = &cmd_check_doc };
	struct walk_ops ops = { check_object, check_pacct, check_damage,
	    check_sample, NULL, check_note };
	struct check_state s;
	struct ex_counts c;
	int ch, i, rc, status = EXR_OK;

	(void)ctx;
	while ((ch = cmdopt_next(&op, argc, argv)) != -1) {
		switch (ch) {
		case 'P':	/* what a metric-provider stream holds */
			ops.provider = optarg;
			break;
		case 'h':
			return cmdopt_help(&cmd_check_doc);
		default:
			return cmdopt_bad(&cmd_check_doc);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0)
		return cmdopt_bad(&cmd_check_doc);
	for (i = 0; i < argc; i++) {
		s = (struct check_state){ 0 };
		c = (struct ex_counts){ 0 };
		rc = walk_file(argv[i], &ops, &s, &c);
		status = worst(status, rc);
		if (ex_exit_status(rc) == 3)
			continue;
		say(stdout, "%s: %s: %" PRIu64 " records, %" PRIu64 " other "
		    "objects, %" PRIu64 " unknown items, %" PRIu64 " damaged "
		    "ranges (%" PRIu64 " bytes)", argv[i], rc == EXR_OK ? "ok" :
		    "damaged", s.records, s.other, s.counts.unknown_items +
		    s.counts.unknown_groups + s.counts.bad_values, c.damaged,
		    c.damaged_bytes);
	}
	return status;
}
