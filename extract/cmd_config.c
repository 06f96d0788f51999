/*
 * extracct [-c FILE] config
 *
 * Print the effective configuration: the file's values over the
 * defaults, as YAML a configuration file may hold.
 */
#include <stdio.h>

#include "config.h"
#include "extracct.h"

int
cmd_config(int argc, char **argv, struct ctx *ctx)
{
	(void)argv;
	if (argc != 1)
		return complain(EXR_USAGE, "usage: extracct [-c FILE] config");
	config_print(stdout, ctx->cfg);
	return EXR_OK;
}
