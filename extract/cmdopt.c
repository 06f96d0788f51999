/*
 * Options from one table per command (see cmdopt.h): getopt_long's
 * tables, the usage line and the --help text.  Tables are small (at
 * most CMDOPT_MAX rows) and read once per run; nothing here is hot.
 */
#include <stdio.h>
#include <string.h>

#include "cmdopt.h"
#include "cmd.h"
#include "util.h"
#include "paths.h"

#define WIDTH		79	/* of the --help text */
#define HELP_COL	24	/* where an option's help starts */

static const struct cmdopt help_row = { 'h', "help", NULL, CO_SHORT,
    "print this help and exit" };
static const struct cmdopt config_row = { CMDOPT_CONFIG, "config", "FILE",
    CO_SHORT, "the configuration, here or before the command (default: "
    PATH_CONFIG " if it exists)" };

/* Add o to p's getopt tables. */
static void
parser_add(struct cmdopt_parser *p, size_t *k, size_t *s,
    const struct cmdopt *o)
{
	p->lo[*k].name = o->name;
	p->lo[*k].has_arg = o->arg != NULL ? required_argument : no_argument;
	p->lo[*k].flag = NULL;
	p->lo[*k].val = o->val;
	(*k)++;
	if (o->flags & CO_SHORT) {
		p->so[(*s)++] = (char)o->val;
		if (o->arg != NULL)
			p->so[(*s)++] = ':';
	}
}

/* Build p's getopt tables from p->doc, -h and -c last. */
static void
parser_build(struct cmdopt_parser *p)
{
	size_t i, k = 0, s = 0;

	/* A longer table is a bug the unit test catches (test_cmdopt.c). */
	for (i = 0; i < CMDOPT_MAX && p->doc->opts[i].val != 0; i++)
		parser_add(p, &k, &s, &p->doc->opts[i]);
	parser_add(p, &k, &s, &help_row);
	parser_add(p, &k, &s, &config_row);
	memset(&p->lo[k], 0, sizeof(p->lo[k]));
	p->so[s] = '\0';
	p->ready = 1;
}

/* The next option, the configuration's among them. */
static int
next_any(struct cmdopt_parser *p, int argc, char **argv)
{
	if (!p->ready)
		parser_build(p);
	return getopt_long(argc, argv, p->so, p->lo, NULL);
}

int
cmdopt_next(struct cmdopt_parser *p, int argc, char **argv)
{
	int ch;

	/* main() has read -c already (cmdopt_config). */
	while ((ch = next_any(p, argc, argv)) == CMDOPT_CONFIG)
		continue;
	return ch;
}

int
cmdopt_config(const struct cmddoc *doc, int argc, char **argv,
    const char **path)
{
	struct cmdopt_parser p = { .doc = doc };
	int ch, seen = 0, saved = opterr;

	/* Quietly: a bad option is the command's to report. */
	opterr = 0;
	while ((ch = next_any(&p, argc, argv)) != -1)
		if (ch == CMDOPT_CONFIG) {
			*path = optarg;
			seen++;
		}
	opterr = saved;
	/* 0 starts getopt over in glibc, musl and the BSDs alike. */
	optind = 0;
	return seen > 1 ? -1 : 0;
}

/* One option as usage shows it: "--db FILE", "-o FILE", "--jitter". */
static void
opt_form(const struct cmdopt *o, int shrt, char *buf, size_t n)
{
	if (shrt)
		snprintf(buf, n, "-%c%s%s", o->val, o->arg != NULL ? " " :
		    "", o->arg != NULL ? o->arg : "");
	else
		snprintf(buf, n, "--%s%s%s", o->name, o->arg != NULL ? " " :
		    "", o->arg != NULL ? o->arg : "");
}

/*
 * The usage line's piece for opts[*i]: "[--db FILE]", with the rows
 * that go inside its brackets ("[--capture [--tolerance R]]"); *i moves
 * past them.
 */
static void
usage_piece(const struct cmdopt *opts, size_t *i, char *buf, size_t n)
{
	char form[160];
	size_t len, close = 0;
	const struct cmdopt *o = &opts[*i];

	opt_form(o, (o->flags & CO_SHOW_SHORT) != 0, form, sizeof(form));
	if (o->flags & CO_REQUIRED)
		snprintf(buf, n, "%s", form);
	else {
		snprintf(buf, n, "[%s", form);
		close++;
	}
	while (opts[*i + 1].val != 0 && (opts[*i + 1].flags & CO_INSIDE)) {
		(*i)++;
		opt_form(&opts[*i], (opts[*i].flags & CO_SHOW_SHORT) != 0,
		    form, sizeof(form));
		len = strlen(buf);
		snprintf(buf + len, n - len, " [%s", form);
		close++;
	}
	while (close-- > 0 && (len = strlen(buf)) + 1 < n) {
		buf[len] = ']';
		buf[len + 1] = '\0';
	}
}

char *
cmdopt_usage_line(const struct cmddoc *doc, char *buf, size_t n)
{
	char piece[400];
	size_t i, len;

	snprintf(buf, n, "extracct %s", doc->name);
	for (i = 0; doc->opts[i].val != 0; i++) {
		if (doc->opts[i].flags & CO_ALIAS)
			continue;
		usage_piece(doc->opts, &i, piece, sizeof(piece));
		len = strlen(buf);
		snprintf(buf + len, n - len, " %s", piece);
	}
	if (doc->operands != NULL) {
		len = strlen(buf);
		snprintf(buf + len, n - len, " %s", doc->operands);
	}
	return buf;
}

/*
 * Print text from column col on, broken at blanks before WIDTH; lines
 * after the first start at column indent.  Ends the line.
 */
static void
wrap(const char *text, size_t col, size_t indent)
{
	const char *p = text, *end;
	size_t w;
	int first = 1;

	while (*p != '\0') {
		end = p;
		while (*end != '\0' && *end != ' ')
			end++;
		w = (size_t)(end - p);
		if (!first && col + 1 + w > WIDTH) {
			printf("\n%*s", (int)indent, "");
			col = indent;
		} else if (!first) {
			putchar(' ');
			col++;
		}
		fwrite(p, 1, w, stdout);
		col += w;
		first = 0;
		p = end;
		while (*p == ' ')
			p++;
	}
	putchar('\n');
}

/* "  -k, --kind proc|task|flow    help..." */
static void
help_row_print(const struct cmdopt *o)
{
	char form[200], lng[160];
	int col;

	opt_form(o, 0, lng, sizeof(lng));
	if (o->flags & CO_SHORT)
		snprintf(form, sizeof(form), "-%c, %s", o->val, lng);
	else
		snprintf(form, sizeof(form), "%s", lng);
	col = printf("  %s", form);
	if (col + 2 > HELP_COL) {
		putchar('\n');
		col = 0;
	}
	printf("%*s", HELP_COL - col, "");
	wrap(o->help, HELP_COL, HELP_COL);
}

void
cmdopt_usage(FILE *fp, const char *lead, const struct cmddoc *doc)
{
	char piece[400];
	size_t i, indent, col;

	/* Broken between the pieces, never inside one. */
	col = (size_t)fprintf(fp, "%s extracct %s", lead, doc->name);
	indent = col + 1;
	for (i = 0; doc->opts[i].val != 0; i++) {
		if (doc->opts[i].flags & CO_ALIAS)
			continue;
		usage_piece(doc->opts, &i, piece, sizeof(piece));
		if (col + 1 + strlen(piece) > WIDTH) {
			fprintf(fp, "\n%*s", (int)indent - 1, "");
			col = indent - 1;
		}
		col += (size_t)fprintf(fp, " %s", piece);
	}
	if (doc->operands != NULL) {
		if (col + 1 + strlen(doc->operands) > WIDTH)
			fprintf(fp, "\n%*s", (int)indent - 1, "");
		fprintf(fp, " %s", doc->operands);
	}
	fputc('\n', fp);
}

int
cmdopt_help(const struct cmddoc *doc)
{
	size_t i;

	cmdopt_usage(stdout, "usage:", doc);
	putchar('\n');
	wrap(doc->about, 0, 0);
	putchar('\n');
	for (i = 0; doc->opts[i].val != 0; i++)
		help_row_print(&doc->opts[i]);
	help_row_print(&help_row);
	help_row_print(&config_row);
	printf("\nSee extracct(8).\n");
	return EXR_OK;
}

int
cmdopt_bad(const struct cmddoc *doc)
{
	char line[2048];

	return complain(EXR_USAGE, "usage: %s",
	    cmdopt_usage_line(doc, line, sizeof(line)));
}
