/*
 * extracct dump [-v] [--passwd FILE] [--group FILE] [--project FILE] FILE...
 *
 * Every exacct object, one per line (reports/dump.c has the layout).
 */
#include <getopt.h>
#include <stdio.h>

#include "../reports/dump.h"
#include "extracct.h"
#include "walk.h"

static const char usage_dump[] =
    "usage: extracct dump [-v] [--passwd FILE] [--group FILE] "
    "[--project FILE] FILE...";

static int
dump_object(void *arg, const struct ex_rec *rec)
{
	const struct dump_opts *o = arg;

	return dump_rec(stdout, rec, o) == 0 ? EXR_OK : EXR_IO;
}

static int
dump_pacct(void *arg, const struct pacct_reader *r, const struct ex_proc *p)
{
	const struct dump_opts *o = arg;

	return dump_proc_fields(stdout, p, r->version, r->big_endian, o) ==
	    0 ? EXR_OK : EXR_IO;
}

int
cmd_dump(int argc, char **argv, struct ctx *ctx)
{
	static const struct option longopts[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ "passwd", required_argument, NULL, 'P' },
		{ "group", required_argument, NULL, 'G' },
		{ "project", required_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct idnames names;
	struct dump_opts o = { 0, &names };
	struct walk_ops ops = { dump_object, dump_pacct, NULL, NULL, NULL,
	    NULL };
	struct ex_err err = { 0 };
	const char *files[ID_NKINDS] = { NULL };
	int ch, i, k, status = EXR_OK;

	(void)ctx;
	while ((ch = getopt_long(argc, argv, "hv", longopts, NULL)) != -1) {
		switch (ch) {
		case 'v':	/* decode values */
			o.verbose = 1;
			break;
		case 'P':	/* user names from this passwd file */
			files[ID_USER] = optarg;
			break;
		case 'G':	/* group names from this group file */
			files[ID_GROUP] = optarg;
			break;
		case 'J':	/* project names from this project file */
			files[ID_PROJECT] = optarg;
			break;
		case 'h':
			puts(usage_dump);
			return EXR_OK;
		default:
			return complain(EXR_USAGE, "%s", usage_dump);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0)
		return complain(EXR_USAGE, "%s", usage_dump);

	idnames_init(&names);
	for (k = 0; k < ID_NKINDS; k++) {
		if (files[k] == NULL)
			continue;
		if (idnames_load(&names, (enum idkind)k, files[k], &err)) {
			status = complain(EXR_IO, "%s: %s", files[k],
			    err.reason);
			goto out;
		}
	}
	for (i = 0; i < argc; i++) {
		status = worst(status, walk_file(argv[i], &ops, &o, NULL));
		if (ferror(stdout))	/* output failed: stop; others go on */
			break;
	}
out:
	idnames_release(&names);
	return status;
}
