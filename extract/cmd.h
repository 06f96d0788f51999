/*
 * The commands: one cmd_<name>() per command (extract/cmd_*.c),
 * dispatched from the table in main.c.  A command parses its options
 * and nothing more: the work is a workflow's (hourly.c, ingest_logs.c),
 * a collector's (linux/), the spool's (spool/), the store's or the
 * reports'.  It prints to stdout and stderr and returns an EXR_* code;
 * only main() turns that into an exit status and exits.
 *
 * Adding a command:
 *   1. extract/cmd_<name>.c with cmd_<name>() and cmd_<name>_doc, its
 *      options, usage line and --help text (cmdopt.h);
 *   2. both declared below, and a row in commands[] (main.c), which
 *      also gives --help its line of purpose;
 *   3. the file in the Makefile's PORTABLE_EXTRACT (a command builds
 *      on every system; what only Linux has is linux/'s, with a
 *      stand-in in nolinux.c);
 *   4. its section in docs/extracct.8, whose SYNOPSIS and options
 *      t0020 holds to --help; a test in tests/t/.
 */
#ifndef CMD_H
#define CMD_H

#include <stdint.h>

#include "../parsers/exerr.h"

struct cmddoc;
struct config;

/* Shared state handed to every command. */
struct ctx {
	const char	*progname;	/* "extracct" */
	const struct config *cfg;	/* defaults for options; never NULL */
};

int	cmd_dump(int argc, char **argv, struct ctx *ctx);
int	cmd_text(int argc, char **argv, struct ctx *ctx);
int	cmd_check(int argc, char **argv, struct ctx *ctx);
int	cmd_gen(int argc, char **argv, struct ctx *ctx);
int	cmd_ingest(int argc, char **argv, struct ctx *ctx);
int	cmd_report(int argc, char **argv, struct ctx *ctx);
int	cmd_snap(int argc, char **argv, struct ctx *ctx);
int	cmd_rotate(int argc, char **argv, struct ctx *ctx);
int	cmd_run(int argc, char **argv, struct ctx *ctx);
int	cmd_config(int argc, char **argv, struct ctx *ctx);
int	cmd_acctd(int argc, char **argv, struct ctx *ctx);
int	cmd_merge(int argc, char **argv, struct ctx *ctx);
int	cmd_push(int argc, char **argv, struct ctx *ctx);
int	cmd_rollup(int argc, char **argv, struct ctx *ctx);

/* Each command's options, usage line and --help (cmdopt.h), beside it. */
extern const struct cmddoc cmd_dump_doc, cmd_text_doc, cmd_check_doc,
    cmd_gen_doc, cmd_ingest_doc, cmd_report_doc, cmd_snap_doc,
    cmd_rotate_doc, cmd_run_doc, cmd_config_doc, cmd_acctd_doc,
    cmd_merge_doc, cmd_push_doc, cmd_rollup_doc;

/*
 * Push the database db to the central server to (cmd_push.c; run calls
 * it too), saying what it sent or why not.  allow_password: to came
 * from a configuration file only its owner can read.  EXR_OK,
 * EXR_CENTRAL (the server), EXR_NOPG (no libpq in this build), ...
 */
int	push_run(const char *db, const char *to, int allow_password);

/* How long ingest and run wait for another writer of the database. */
#define DB_WAIT_DEFAULT_S	600

/* --wait SECONDS: into *wait_s (ingest, run; in ingest_logs.c); EXR_OK
 * or EXR_USAGE. */
int	parse_wait(const char *arg, uint64_t *wait_s);

#endif
