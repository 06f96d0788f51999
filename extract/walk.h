/*
 * Walk one input file object by object: open (mmap), decode, hand each
 * object to a callback, report damage and go on.  The loop every reading
 * command shares.
 */
#ifndef WALK_H
#define WALK_H

#include "../parsers/exacct.h"

struct walk_ops {
	/* Each decoded top-level object; return EXR_OK to go on. */
	int	(*object)(void *arg, const struct ex_rec *rec);
	/*
	 * A damaged range [r->skip_from, r->skip_to) with its reason.
	 * NULL: print the standard message on stderr.
	 */
	void	(*damage)(void *arg, const struct exacct_reader *r,
		    const struct ex_err *err);
};

/*
 * Walk path.  Returns the worst code seen: EXR_OK, EXR_DAMAGED (some
 * bytes skipped; every good object was still delivered), EXR_IO (the file
 * could not be read; reported), or what a callback returned.  If counts is
 * not NULL it receives the reader's tallies.
 */
int	walk_file(const char *path, const struct walk_ops *ops, void *arg,
	    struct ex_counts *counts);

#endif
