/*
 * Linux process accounting files (pacct): 64-byte records written by the
 * kernel at each process exit (accton(8), acct(2)).
 *
 * Format facts: acct(5) and the kernel's include/uapi/linux/acct.h.
 * Versions 3 (struct acct_v3), 2 (struct
 * acct) and 0 (the pre-2.6.8 layout: version 2 without ac_ahz, the 24-bit
 * elapsed time and the 32-bit ids) are read, in either byte order: the
 * version byte's 0x80 bit says the writer was big-endian, per record.
 *
 * Each record is normalised into a final struct ex_proc.  Fields the
 * kernel never fills (ac_io, ac_rw, ac_swaps) and fields a version lacks
 * (pid and ppid before v3) are absent, not zero.  CPU and elapsed times
 * are in AHZ ticks: 100 for v3, ac_ahz for v2, 100 assumed for v0.
 *
 * Framing: a file is read on the 64-byte grid from offset 0.  A record
 * with an unknown version byte is reported and skipped (the grid holds);
 * so is a run of records that are all zero bytes, as one damaged range
 * (no kernel writes one: they are a hole, or what a crash leaves);
 * bytes after the last whole record (a torn tail, a copy in progress)
 * are reported, never decoded.
 */
#ifndef PACCT_H
#define PACCT_H

#include <stddef.h>
#include <stdint.h>

#include "exacct.h"
#include "records.h"
#include "source.h"

#define PACCT_RECORD_SIZE	64

struct pacct_reader {
	const char	*path;		/* not owned */
	struct source	 src;
	uint64_t	 off;		/* offset of the next record */
	struct ex_counts counts;
	uint64_t	 skip_from;	/* last damaged range, [from, to) */
	uint64_t	 skip_to;
	int		 version;	/* of the last record: 0, 2 or 3 */
	int		 big_endian;	/* of the last record */
	int		 zeros;		/* the last damage was zero records */
};

/* As exacct_reader_adopt. */
void	pacct_reader_adopt(struct pacct_reader *r, const char *path,
	    const struct source *src);
void	pacct_reader_init_mem(struct pacct_reader *r, const char *path,
	    const uint8_t *bytes, size_t len);
void	pacct_reader_release(struct pacct_reader *r);

/* Go on from off, where an earlier read stopped (the ledger's offset). */
void	pacct_seek(struct pacct_reader *r, uint64_t off);

/*
 * The next record into *p (a final record: group EXD_GROUP_PROC), or,
 * with p NULL, only checked (check): the same records, damage and
 * messages, nothing decoded.  Returns EXR_OK, EXR_EOF, EXR_DAMAGED (err
 * and [skip_from, skip_to) say what was skipped; call again to go on),
 * or EXR_IO/EXR_NOMEM.
 */
int	pacct_next(struct pacct_reader *r, struct ex_proc *p,
	    struct ex_err *err);

/*
 * Validating only (after pacct_next(r, NULL, err) returned EXR_OK): go
 * on past the good records that follow in the window, each checked as
 * pacct_next checks it (a whole record, not all zeros, a known version
 * byte), and stop before anything else, which pacct_next then reports.
 * Returns how many were passed; they count as objects, and r->version
 * and r->big_endian are the last one's.
 */
uint64_t pacct_run(struct pacct_reader *r);

/* Decode one 64-byte record; EXR_OK or EXR_DAMAGED (bad version). */
int	pacct_decode(const uint8_t *rec, struct ex_proc *p, int *version,
	    int *big_endian);

/* comp_t: 3-bit base-8 exponent, 13-bit mantissa. */
uint64_t pacct_comp_t(uint16_t c);
/* comp2_t: 5-bit base-2 exponent, 19 stored mantissa bits + implied 1. */
uint64_t pacct_comp2_t(uint32_t c);
/* The encoders, as the kernel writes them (for gen and tests). */
uint16_t pacct_encode_comp_t(uint64_t v);
uint32_t pacct_encode_comp2_t(uint64_t v);

/*
 * How far below the truth field f of a pacct record may read, where a
 * snapshot of the process saw more: the CPU times are comp_t, 13 bits
 * of 10 ms units and then steps of 80 ms, 640 ms, ..., rounded, so
 * above 81.92 s the step is the slack.  Below, the record is the tick
 * samples cut to 10 ms, which a tick snapshot (snapcpu.h) never
 * exceeds: 0, as for every field read exactly.
 */
uint64_t pacct_exit_slack(int f, uint64_t v);

/*
 * How far before the truth a pacct record's finish may read, once it is
 * placed on the start the process is known by (a tick of /proc's, 10 ms)
 * and elapsed_ns added: the elapsed ticks are cut to 10 ms, and encoded
 * with at least 10 bits of precision in every version (comp_t, v0's).
 * So 20 ms and elapsed_ns / 1024.
 */
uint64_t pacct_finish_slack(uint64_t elapsed_ns);

/* Does this look like a pacct file (a plausible first record)? */
int	pacct_sniff(const uint8_t *p, size_t n);

#endif
