/*
 * extracct dump [-v] [--passwd FILE] [--group FILE] [--project FILE] FILE...
 *
 * Every exacct object, one per line (reports/dump.c has the layout).
 */
#include <stdio.h>

#include "../reports/dump.h"
#include "cmdopt.h"
#include "cmd.h"
#include "util.h"
#include "walk.h"

static const struct cmdopt dump_options[] = {
	{ 'v', "verbose", NULL, CO_SHORT | CO_SHOW_SHORT,
	    "after each value with a well-known meaning, its decoded form: "
	    "names of ids, local dates, flag letters, wait status, protocol "
	    "(default: values only)" },
	{ 'P', "passwd", "FILE", 0,
	    "user names for -v from FILE, in passwd(5) format (default: the "
	    "system's user database)" },
	{ 'G', "group-file", "FILE", 0,
	    "group names for -v from FILE, in group(5) format (default: the "
	    "system's group database)" },
	{ 'g', "group", "FILE", CO_ALIAS, "the older name of --group-file" },
	{ 'J', "project", "FILE", 0,
	    "project names for -v from FILE, in Solaris project(5) format "
	    "(default: /etc/project if it exists)" },
	{ 0, NULL, NULL, 0, NULL }
};

const struct cmddoc cmd_dump_doc = { "dump",
    "every object of an exacct log (or pacct record), decoded", "FILE...",
    "Print every object of each exacct log, one per line, or every record "
    "of a process accounting file as a block of field lines.", dump_options };

/* Every exacct object as decoded; a pacct record in the layout it had. */
static int
dump_item(void *arg, const struct reader *r, const struct reader_item *it)
{
	const struct dump_opts *o = arg;

	(void)r;
	if (it->obj != NULL)
		return dump_rec(stdout, it->obj, o) == 0 ? EXR_OK : EXR_IO;
	return dump_proc_fields(stdout, &it->u.proc, it->pacct_version,
	    it->big_endian, o) == 0 ? EXR_OK : EXR_IO;
}

int
cmd_dump(int argc, char **argv, struct ctx *ctx)
{
	struct cmdopt_parser op = { .doc = &cmd_dump_doc };
	struct idnames names;
	struct dump_opts o = { 0, &names };
	struct walk_ops ops = { dump_item, NULL, NULL, NULL,
	    READER_OBJECTS | READER_NO_STREAMS };
	struct ex_err err = { 0 };
	const char *files[ID_NKINDS] = { NULL };
	int ch, i, k, status = EXR_OK;

	(void)ctx;
	while ((ch = cmdopt_next(&op, argc, argv)) != -1) {
		switch (ch) {
		case 'v':	/* decode values */
			o.verbose = 1;
			break;
		case 'P':	/* user names from this passwd file */
			files[ID_USER] = optarg;
			break;
		case 'G':	/* group names from this group file */
		case 'g':
			files[ID_GROUP] = optarg;
			break;
		case 'J':	/* project names from this project file */
			files[ID_PROJECT] = optarg;
			break;
		case 'h':
			return cmdopt_help(&cmd_dump_doc);
		default:
			return cmdopt_bad(&cmd_dump_doc);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0)
		return cmdopt_bad(&cmd_dump_doc);

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
		status = ex_worst(status, walk_file(argv[i], &ops, &o, NULL));
		if (ferror(stdout))	/* output failed: stop; others go on */
			break;
	}
out:
	idnames_release(&names);
	return status;
}
