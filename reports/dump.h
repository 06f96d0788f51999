/*
 * dump: one line per exacct object, in the manner of the illumos exdump
 * demo: data id in hex (width 6), a TAB, the name indented one space per
 * group level in a 30-column field, a TAB, the value.  With verbose, a
 * decoded form follows the value: user, group and project names, local
 * times, acctflags letters, wait status, "none" for no tty, protocol
 * names.  The layout is specified in docs/extracct.8 (OUTPUT FORMATS).
 */
#ifndef DUMP_H
#define DUMP_H

#include <stdio.h>

#include "../parsers/exacct.h"
#include "../parsers/records.h"
#include "idnames.h"

struct dump_opts {
	int		 verbose;	/* decode values */
	struct idnames	*names;		/* for verbose; not owned */
};

/* Print every item of rec.  Returns 0, or -1 if the stream failed. */
int	dump_rec(FILE *fp, const struct ex_rec *rec,
	    const struct dump_opts *o);

/*
 * A normalised record (from a format without tagged objects: pacct) as
 * a block of "field value [decoded]" lines, headed by its offset and
 * format.  Returns 0, or -1 if the stream failed.
 */
int	dump_proc_fields(FILE *fp, const struct ex_proc *p, int version,
	    int big_endian, const struct dump_opts *o);

/* Protocol name for an IP protocol number ("tcp"), or NULL. */
const char *dump_proto_name(unsigned proto);

#endif
