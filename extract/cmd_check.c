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
#include "cmd.h"
#include "util.h"
#include "walk.h"

static const struct cmdopt check_options[] = {
	{ 'P', "provider", "NAME", 0,
	    "what the metric-provider streams among the files hold (default: "
	    "from each file's name, PROVIDER.log)" },
	{ 0, NULL, NULL, 0, NULL }
};

const struct cmddoc cmd_check_doc = { "check",
    "validate whole files: each damaged byte range and why", "FILE...",
    "Validate whole files: print each damaged byte range with its reason, "
    "then a summary line per file; exit 0 if clean, 1 if damaged.",
    check_options };

struct check_state {
	uint64_t	 records;	/* proc, task and flow records */
	uint64_t	 other;		/* other top-level objects */
	struct rec_counts counts;
};

/*
 * Tally one item.  Unknown items are counted from the records the
 * reader filled (proc, task, flow, energy), as check always has; the
 * other snapshot objects count as other objects.
 */
static int
check_item(void *arg, const struct reader *r, const struct reader_item *it)
{
	struct check_state *s = arg;

	(void)r;
	if (it->what == RD_SAMPLE) {
		s->records++;		/* a sample: no fill */
		return EXR_OK;
	}
	if (it->obj == NULL) {
		s->records += it->nrec;	/* pacct records, a run of them */
		return EXR_OK;
	}
	switch (it->kind) {
	case REC_PROC:
	case REC_TASK:
	case REC_FLOW:
	case REC_ENERGY:
		s->counts.unknown_items += it->counts.unknown_items;
		s->counts.unknown_groups += it->counts.unknown_groups;
		s->counts.bad_values += it->counts.bad_values;
		s->records++;
		return EXR_OK;
	case REC_HEADER:
		return EXR_OK;
	default:
		s->other++;
		return EXR_OK;
	}
}

static void
check_damage(void *arg, const char *path, uint64_t from, uint64_t to,
    const struct ex_err *err)
{
	(void)arg;
	say_damage(stdout, DF_CHECK, path, from, to, err);
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
	struct walk_ops ops = { check_item, check_damage, check_note, NULL,
	    READER_TALLY };
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
		status = ex_worst(status, rc);
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
