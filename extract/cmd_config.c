/*
 * extracct [-c FILE] config
 *
 * Print the effective configuration: the file's values over the
 * defaults, as YAML a configuration file may hold.  Its database is
 * the one every command that takes --db uses without it.
 */
#include <stdio.h>

#include "cmdopt.h"
#include "config.h"
#include "cmd.h"
#include "paths.h"

static const struct cmdopt config_options[] = {
	{ 0, NULL, NULL, 0, NULL }
};

const struct cmddoc cmd_config_doc = { "config",
    "print the effective configuration as YAML", NULL,
    "Print the effective configuration, the file's values (extracct -c "
    "FILE, else " PATH_CONFIG " if it exists) over the defaults, as YAML.",
    config_options };

int
cmd_config(int argc, char **argv, struct ctx *ctx)
{
	struct cmdopt_parser op = { .doc = &cmd_config_doc };
	int ch;

	while ((ch = cmdopt_next(&op, argc, argv)) != -1) {
		switch (ch) {
		case 'h':
			return cmdopt_help(&cmd_config_doc);
		default:
			return cmdopt_bad(&cmd_config_doc);
		}
	}
	if (optind != argc)
		return cmdopt_bad(&cmd_config_doc);
	config_print(stdout, ctx->cfg);
	return EXR_OK;
}
