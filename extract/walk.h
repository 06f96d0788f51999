/*
 * Walk one input file record by record: detect its format (exacct, pacct
 * or a metric-provider stream, by content), decode, hand each object or
 * record to a callback, report damage and go on.  The loop every reading
 * command shares.
 */
#ifndef WALK_H
#define WALK_H

#include "../parsers/exacct.h"
#include "../parsers/pacct.h"
#include "../parsers/stream.h"

struct walk_ops {
	/* Each decoded top-level exacct object; EXR_OK to go on. */
	int	(*object)(void *arg, const struct ex_rec *rec);
	/* Each pacct record, normalised; EXR_OK to go on. */
	int	(*pacct)(void *arg, const struct pacct_reader *r,
		    const struct ex_proc *p);
	/*
	 * A damaged range [from, to) of path with its reason.  NULL: print
	 * the standard message on stderr.
	 */
	void	(*damage)(void *arg, const char *path, uint64_t from,
		    uint64_t to, const struct ex_err *err);
	/*
	 * Each sample of a metric-provider stream, normalised.  NULL: a
	 * stream is refused ("not a log this command reads").
	 */
	int	(*sample)(void *arg, const struct stream_provider *p,
		    const struct stream_line *ln,
		    const struct stream_sample *x);
	/* The provider of streams; NULL: from the file's name. */
	const char *provider;
	/*
	 * A remark about path at byte off that is not damage (a stream's
	 * reading below its counter's resolution).  NULL: print it on
	 * stderr.
	 */
	void	(*note)(void *arg, const char *path, uint64_t off,
		    const char *msg);
};

/*
 * Walk path.  Returns the worst code seen: EXR_OK, EXR_DAMAGED (some
 * bytes skipped; every good object was still delivered; or the file is
 * not a log extracct reads, reported as damage at offset 0 with what it
 * is), EXR_IO (the file could not be read, or is not a regular file;
 * reported), or what a callback returned.  If counts is not NULL it
 * receives the reader's tallies.
 */
int	walk_file(const char *path, const struct walk_ops *ops, void *arg,
	    struct ex_counts *counts);

#endif
