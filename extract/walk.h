/*
 * Walk one input file item by item for the commands that read logs
 * without the store (check, text, dump, report FILE): the reader
 * (parsers/reader.h) tells the format and hands out each record in fixed
 * form; walk gives each to a callback, reports damage and goes on.  The
 * one read loop of those commands; ingest has its own over the same
 * reader (store/ingest.c), since it also keeps a ledger.
 */
#ifndef WALK_H
#define WALK_H

#include <stdio.h>

#include "../parsers/reader.h"

struct walk_ops {
	/*
	 * Each record (RD_RECORD: a fixed record, or with READER_OBJECTS
	 * an exacct object as decoded) and each stream sample (RD_SAMPLE);
	 * EXR_OK to go on.
	 */
	int	(*item)(void *arg, const struct reader *r,
		    const struct reader_item *it);
	/*
	 * A damaged range [from, to) of path with its reason.  NULL: print
	 * the standard message (DF_LOG) on stderr.
	 */
	void	(*damage)(void *arg, const char *path, uint64_t from,
		    uint64_t to, const struct ex_err *err);
	/*
	 * A remark about path at byte off that is not damage (a stream's
	 * reading below its counter's resolution).  NULL: print it on
	 * stderr.
	 */
	void	(*note)(void *arg, const char *path, uint64_t off,
		    const char *msg);
	/* The provider of streams; NULL: from the file's name. */
	const char *provider;
	/*
	 * READER_OBJECTS (objects as decoded, nothing filled), READER_TALLY
	 * (kinds and counts only: check),
	 * READER_NO_STREAMS (a stream is refused: "not a log this command
	 * reads").
	 */
	unsigned flags;
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

/*
 * Print the message of a damaged range on fp in the given form
 * (reader_damage_msg), escaped as every message line is.
 */
void	say_damage(FILE *fp, enum damage_form form, const char *path,
	    uint64_t from, uint64_t to, const struct ex_err *err);

#endif
