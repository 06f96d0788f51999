/*
 * Option tables (extract/cmdopt.c): every command's table is one that
 * getopt, the usage line and --help can all be built from, and the
 * usage line and the parser follow a table's flags.
 */
#include <ctype.h>
#include <getopt.h>
#include <string.h>

#include "../../extract/cmdopt.h"
#include "../../extract/cmd.h"
#include "check.h"

static const struct cmddoc *const docs[] = {
	&cmd_dump_doc, &cmd_text_doc, &cmd_check_doc, &cmd_gen_doc,
	&cmd_ingest_doc, &cmd_report_doc, &cmd_snap_doc, &cmd_rotate_doc,
	&cmd_run_doc, &cmd_config_doc, &cmd_acctd_doc, &cmd_merge_doc,
	&cmd_push_doc, &cmd_rollup_doc
};

/* An older spelling names the row it stands for, a row of the table. */
static int
alias_ok(const struct cmddoc *d, const struct cmdopt *o)
{
	static const char lead[] = "the older name of --";
	size_t j;

	if (strncmp(o->help, lead, sizeof(lead) - 1) != 0 ||
	    (o->flags & (CO_INSIDE | CO_REQUIRED)))
		return 0;
	for (j = 0; d->opts[j].val != 0; j++)
		if (!(d->opts[j].flags & CO_ALIAS) &&
		    strcmp(d->opts[j].name, o->help + sizeof(lead) - 1) == 0)
			return 1;
	return 0;
}

/* Is row i of d sound, and unlike every row before it? */
static int
row_ok(const struct cmddoc *d, size_t i)
{
	const struct cmdopt *o = &d->opts[i];
	size_t j;

	if (o->name == NULL || o->name[0] == '\0' || o->help == NULL ||
	    o->val == 'h' || strcmp(o->name, "help") == 0 ||
	    o->val == CMDOPT_CONFIG || strcmp(o->name, "config") == 0 ||
	    ((o->flags & CO_SHOW_SHORT) && !(o->flags & CO_SHORT)) ||
	    ((o->flags & CO_SHORT) && !isalnum((unsigned char)o->val)) ||
	    ((o->flags & CO_INSIDE) && i == 0))
		return 0;
	if ((o->flags & CO_ALIAS) && !alias_ok(d, o))
		return 0;
	if (!(o->flags & CO_ALIAS) && strstr(o->help, "default") == NULL &&
	    strstr(o->help, "required") == NULL)
		return 0;
	for (j = 0; j < i; j++)
		if (d->opts[j].val == o->val ||
		    strcmp(d->opts[j].name, o->name) == 0)
			return 0;
	return 1;
}

static void
tables(void)
{
	size_t k, i, j;

	for (k = 0; k < sizeof(docs) / sizeof(docs[0]); k++) {
		for (i = 0; docs[k]->opts[i].val != 0; i++)
			CHECK(docs[k]->name, row_ok(docs[k], i));
		CHECK("at most CMDOPT_MAX options", i <= CMDOPT_MAX);
		CHECK("an about line", docs[k]->about != NULL &&
		    docs[k]->about[0] != '\0');
		for (j = 0; j < k; j++)
			CHECK("one table per command",
			    strcmp(docs[j]->name, docs[k]->name) != 0);
	}
}

static const struct cmdopt t_opts[] = {
	{ 'a', "all", NULL, CO_SHORT | CO_SHOW_SHORT, "all (default: no)" },
	{ 'B', "bee", "FILE", 0, "bee (default: none)" },
	{ 'C', "cee", "N", CO_INSIDE, "with --bee (default: 1)" },
	{ 'd', "dee", "X|Y", CO_SHORT | CO_REQUIRED, "dee (required)" },
	{ 'o', "old-bee", "FILE", CO_ALIAS, "the older name of --bee" },
	{ 0, NULL, NULL, 0, NULL }
};
static const struct cmddoc t_doc = { "t", "a test", "OPS...", "A test.",
    t_opts };

static void
usage_line(void)
{
	char buf[256], small[16];

	CHECK("usage line", strcmp(cmdopt_usage_line(&t_doc, buf,
	    sizeof(buf)), "extracct t [-a] [--bee FILE [--cee N]] --dee X|Y "
	    "OPS...") == 0);
	CHECK("usage line cut short, still a string",
	    strlen(cmdopt_usage_line(&t_doc, small, sizeof(small))) ==
	    sizeof(small) - 1);
}

static void
parser(void)
{
	char *argv[] = { "t", "-a", "--bee", "f", "-dX", "--cee=2", "op",
	    "--help", "-z", NULL };
	struct cmdopt_parser p = { .doc = &t_doc };
	int got[8], n = 0, ch, saved = opterr;

	opterr = 0;
	optind = 0;
	while ((ch = cmdopt_next(&p, 9, argv)) != -1 && n < 8)
		got[n++] = ch;
	opterr = saved;
	CHECK("options in order", n == 6 && got[0] == 'a' && got[1] == 'B' &&
	    got[2] == 'd' && got[3] == 'C' && got[4] == 'h' && got[5] == '?');
	CHECK("the operand is left", optind == 8 &&
	    strcmp(argv[optind], "op") == 0);
	CHECK("-b is no short option", strchr(p.so, 'B') == NULL &&
	    strchr(p.so, 'a') != NULL && strstr(p.so, "d:") != NULL);
	optind = 0;
}

/* -c FILE among a command's options: read before, passed over after. */
static void
config_option(void)
{
	char *argv[] = { "t", "--old-bee", "f", "op", "-c", "x.yml", "-a",
	    NULL };
	char *twice[] = { "t", "--config=a", "-cb", NULL };
	struct cmdopt_parser p = { .doc = &t_doc };
	const char *path = NULL;
	int got[8], n = 0, ch;

	CHECK("-c after an operand is found",
	    cmdopt_config(&t_doc, 7, argv, &path) == 0 && path != NULL &&
	    strcmp(path, "x.yml") == 0);
	while ((ch = cmdopt_next(&p, 7, argv)) != -1 && n < 8)
		got[n++] = ch;
	CHECK("the command sees the rest, -c not", n == 2 && got[0] == 'o' &&
	    got[1] == 'a' && optind == 6 && strcmp(argv[6], "op") == 0);
	optind = 0;
	CHECK("-c twice is refused",
	    cmdopt_config(&t_doc, 3, twice, &path) == -1);
	optind = 0;
}

void
suite_cmdopt(void)
{
	tables();
	usage_line();
	parser();
	config_option();
}
