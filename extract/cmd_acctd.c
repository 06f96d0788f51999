/*
 * extracct acctd [--spool DIR] [--acctd-pidfile FILE] [--rcvbuf BYTES]
 *
 * The daemon that appends an exacct record for every process that
 * exits, from taskstats, to its log in the spool.  The options only:
 * the daemon is acctd.c's.
 */
#include <getopt.h>
#include <stdio.h>

#include "linux/acctd.h"
#include "cmdopt.h"
#include "config.h"
#include "cmd.h"
#include "util.h"
#include "paths.h"

static const struct cmdopt acctd_options[] = {
	CMDOPT_SPOOL,
	{ 'o', "output", "DIR", CO_SHORT | CO_ALIAS,
	    "the older name of --spool" },
	CMDOPT_ACCTD_PIDFILE,
	{ 'p', "pidfile", "FILE", CO_ALIAS,
	    "the older name of --acctd-pidfile" },
	{ 'r', "rcvbuf", "BYTES", 0,
	    "the socket's receive buffer, " CMDOPT_STR(ACCTD_RCVBUF_MIN) " to "
	    CMDOPT_STR(ACCTD_RCVBUF_MAX) " bytes (default: acctd_rcvbuf, "
	    CONFIG_ACCTD_RCVBUF ")" },
	{ 0, NULL, NULL, 0, NULL }
};

const struct cmddoc cmd_acctd_doc = { "acctd",
    "Linux: a daemon writing an exit record for every process", NULL,
    "Linux: a daemon that appends an exacct record for every process "
    "that exits, from the kernel's taskstats notifications (CPU in "
    "microseconds), to its log in the spool.", acctd_options };

int
cmd_acctd(int argc, char **argv, struct ctx *ctx)
{
	struct cmdopt_parser op = { .doc = &cmd_acctd_doc };
	const char *spool = ctx->cfg->spool_dir;
	const char *pidfile = ctx->cfg->acctd_pidfile;
	char host[256], log_host[256];
	uint64_t rcvbuf = ctx->cfg->acctd_rcvbuf;
	int ch, rc;

	while ((ch = cmdopt_next(&op, argc, argv)) != -1) {
		switch (ch) {
		case 's':	/* the spool directory for the logs */
		case 'o':
			spool = optarg;
			break;
		case 'P':
		case 'p':
			pidfile = optarg;
			break;
		case 'r':	/* socket receive buffer, bytes */
			if ((rc = parse_u64("--rcvbuf", optarg,
			    ACCTD_RCVBUF_MIN, ACCTD_RCVBUF_MAX, &rcvbuf)) !=
			    EXR_OK)
				return rc;
			break;
		case 'h':
			return cmdopt_help(&cmd_acctd_doc);
		default:
			return cmdopt_bad(&cmd_acctd_doc);
		}
	}
	if (optind != argc)
		return cmdopt_bad(&cmd_acctd_doc);
	/* In log names, the configured host; in log headers, as snap
	 * writes them, this machine's. */
	config_hostname(ctx->cfg, host, sizeof(host));
	local_hostname(log_host, sizeof(log_host));
	return acctd_run(spool, host, log_host, pidfile, rcvbuf);
}
