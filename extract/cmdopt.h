/*
 * A command's options, described once: one table per command gives
 * getopt_long its short and long options, and the usage line and the
 * --help text (each option, its default and its unit) are printed from
 * the same rows, so the three cannot disagree.  The man page's SYNOPSIS
 * copies the usage lines; tests/t/t0020-docs.sh holds the two, and the
 * man page's option lists, to each other.
 *
 * -h and --help are added to every table: cmdopt_next returns 'h' for
 * them, and the command answers with cmdopt_help.
 */
#ifndef CMDOPT_H
#define CMDOPT_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

#define CMDOPT_MAX	32	/* options of one command, -h not counted */

/* A number macro as a string, for help text: CMDOPT_STR(600) "600". */
#define CMDOPT_STR_(x)	#x
#define CMDOPT_STR(x)	CMDOPT_STR_(x)

/* Flags of an option row. */
#define CO_SHORT	0x01	/* -VAL is accepted as well as --NAME */
#define CO_SHOW_SHORT	0x02	/* usage shows -VAL, not --NAME */
#define CO_REQUIRED	0x04	/* not in brackets in the usage line */
#define CO_INSIDE	0x08	/* inside the previous row's brackets:
				   it means something only with that */

struct cmdopt {
	int		 val;	/* what cmdopt_next returns; with
				   CO_SHORT, the short option too */
	const char	*name;	/* the long option, without "--" */
	const char	*arg;	/* its argument as usage names it
				   ("FILE", "table|csv|json"); NULL:
				   it takes none */
	int		 flags;	/* CO_* */
	const char	*help;	/* what it does, default and unit */
};

struct cmddoc {
	const char	*name;		/* the command: "report" */
	const char	*brief;		/* its purpose in a few words, for
					   extracct --help's list */
	const char	*operands;	/* "FILE...", "[FILE...]"; NULL: none */
	const char	*about;		/* what the command does, in a line */
	const struct cmdopt *opts;	/* ends with a row whose val is 0 */
};

/* getopt_long's tables, built from a cmddoc by cmdopt_next. */
struct cmdopt_parser {
	const struct cmddoc *doc;	/* set by the caller */
	int		 ready;
	struct option	 lo[CMDOPT_MAX + 2];
	char		 so[3 * CMDOPT_MAX + 2];
};

/*
 * getopt_long over argv with the options of p->doc (p's other fields
 * zero at the first call): the option's val, 'h' for -h and --help, '?'
 * for a bad option (getopt has said which), -1 at the end.
 */
int	cmdopt_next(struct cmdopt_parser *p, int argc, char **argv);

/*
 * The usage line, "extracct NAME [--opt ARG]... OPERANDS", into buf[n]
 * (cut short if it does not fit).  Returns buf.
 */
char	*cmdopt_usage_line(const struct cmddoc *doc, char *buf, size_t n);

/*
 * The usage line on fp, after lead ("usage:", or blanks to line up
 * under it), broken between options to fit 79 columns.
 */
void	cmdopt_usage(FILE *fp, const char *lead, const struct cmddoc *doc);

/* The usage line and every option, default and unit, on stdout; EXR_OK. */
int	cmdopt_help(const struct cmddoc *doc);

/* A usage error: "extracct: usage: ..." on stderr; returns EXR_USAGE. */
int	cmdopt_bad(const struct cmddoc *doc);

/*
 * Rows that several commands share, word for word (the man page lists
 * them once per command; t0020 holds the two to each other).  Users of
 * these include paths.h and extracct.h.
 */
#define CMDOPT_SPOOL	{ 's', "spool", "DIR", 0, \
	"the spool (default: spool_dir, " PATH_SPOOL ")" }
#define CMDOPT_DB_WRITE	{ 'd', "db", "FILE", 0, \
	"the database, created if it does not exist (default: the " \
	"configuration's database, " PATH_DB ")" }
#define CMDOPT_PACCT	{ 'p', "pacct", "FILE", 0, \
	"where process accounting goes until the spool holds a pacct log " \
	"(default: pacct_file, " PATH_PACCT ")" }
#define CMDOPT_WAIT	{ 'W', "wait", "SECONDS", 0, \
	"how long to wait for another writer of the database, 0 to 86400 " \
	"seconds (default: " CMDOPT_STR(DB_WAIT_DEFAULT_S) ")" }

#endif
