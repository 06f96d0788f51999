/*
 * extracct text [-H] [-k proc|task|flow] [--provider NAME] FILE...
 *
 * One line per record in the original extracct column layouts
 * (reports/text.c); a metric-provider stream's samples, normalised.  Each
 * kind's header line is printed before its first record, unless -H.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../parsers/records.h"
#include "../reports/text.h"
#include "cmdopt.h"
#include "cmd.h"
#include "util.h"
#include "walk.h"

static const struct cmdopt text_options[] = {
	{ 'H', "no-header", NULL, CO_SHORT | CO_SHOW_SHORT,
	    "no header lines (default: a line naming the columns before the "
	    "first record of each kind)" },
	{ 'k', "kind", "proc|task|flow", CO_SHORT | CO_SHOW_SHORT,
	    "only records of this kind, and no stream samples (default: "
	    "every kind)" },
	{ 'P', "provider", "NAME", 0,
	    "what the metric-provider streams among the files hold (default: "
	    "from each file's name, PROVIDER.log)" },
	{ 0, NULL, NULL, 0, NULL }
};

const struct cmddoc cmd_text_doc = { "text",
    "one line per record, in the original extracct's column layouts", "FILE...",
    "Print one line per process, task or flow record, in the column "
    "layouts of the original extracct, and one per sample of a "
    "metric-provider stream.", text_options };

struct text_state {
	enum rec_kind	 only;		/* REC_OTHER: every kind */
	int		 headers;
	int		 header_done[REC_FLOW + 1];
	int		 samples_header_done;
};

static int
text_item(void *arg, const struct reader *r, const struct reader_item *it)
{
	struct text_state *s = arg;
	enum rec_kind k = it->kind;

	if (it->what == RD_SAMPLE) {
		if (s->only != REC_OTHER)
			return EXR_OK;
		if (s->headers && !s->samples_header_done) {
			text_sample_header(stdout);
			s->samples_header_done = 1;
		}
		text_sample(stdout, r->provider, &it->line, &it->sample);
		return ferror(stdout) ? EXR_IO : EXR_OK;
	}
	if (k != REC_PROC && k != REC_TASK && k != REC_FLOW)
		return EXR_OK;
	if (s->only != REC_OTHER && k != s->only)
		return EXR_OK;
	if (s->headers && !s->header_done[k]) {
		text_header(stdout, k);
		s->header_done[k] = 1;
	}
	switch (k) {
	case REC_PROC:
		text_proc(stdout, &it->u.proc);
		break;
	case REC_TASK:
		text_task(stdout, &it->u.task);
		break;
	default:
		text_flow(stdout, &it->u.flow);
		break;
	}
	return ferror(stdout) ? EXR_IO : EXR_OK;
}

int
cmd_text(int argc, char **argv, struct ctx *ctx)
{
	struct cmdopt_parser op = { .doc = &cmd_text_doc };
	struct text_state s;
	struct walk_ops ops = { text_item, NULL, NULL, NULL, 0 };
	int ch, i, status = EXR_OK;

	(void)ctx;
	memset(&s, 0, sizeof(s));
	s.headers = 1;
	while ((ch = cmdopt_next(&op, argc, argv)) != -1) {
		switch (ch) {
		case 'H':	/* no header lines */
			s.headers = 0;
			break;
		case 'k':	/* only records of this kind */
			if (strcmp(optarg, "proc") == 0)
				s.only = REC_PROC;
			else if (strcmp(optarg, "task") == 0)
				s.only = REC_TASK;
			else if (strcmp(optarg, "flow") == 0)
				s.only = REC_FLOW;
			else
				return complain(EXR_USAGE, "-k '%s': not one of "
				    "proc, task, flow", optarg);
			break;
		case 'P':	/* what a metric-provider stream holds */
			ops.provider = optarg;
			break;
		case 'h':
			return cmdopt_help(&cmd_text_doc);
		default:
			return cmdopt_bad(&cmd_text_doc);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0)
		return cmdopt_bad(&cmd_text_doc);
	for (i = 0; i < argc; i++) {
		status = ex_worst(status, walk_file(argv[i], &ops, &s, NULL));
		if (ferror(stdout))	/* output failed: stop; others go on */
			break;
	}
	return status;
}
