/*
 * Deterministic synthetic exacct logs for tests, samples and benchmarks.
 * The same kind, count and seed always give the same bytes.
 */
#ifndef GEN_H
#define GEN_H

#include <stdint.h>
#include <stdio.h>

enum gen_kind { GEN_PROC, GEN_TASK, GEN_FLOW, GEN_PACCT, GEN_ENERGY };

/* Who wrote the energy snapshots (gen_energy.c). */
enum gen_energy_writer {
	GEN_ENERGY_NATIVE,	/* Apple silicon: timebase 125/3 */
	GEN_ENERGY_ROSETTA,	/* translated: sees 1/1, ticks native */
	GEN_ENERGY_INTEL	/* 1/1, no energy counting */
};

struct gen_opts {
	enum gen_kind	 kind;
	uint64_t	 records;	/* exactly this many records */
	uint64_t	 seed;
	const char	*hostname;	/* in the header and task records */
	int		 jitter;	/* snapshots at random times, not :00 */
	uint64_t	 daemons;	/* GEN_PROC: live daemons (0: records /
					   40, at most 2,000) */
	int		 pacct_version;	/* GEN_PACCT: 3, 2 or 0 */
	int		 big_endian;	/* GEN_PACCT: as a big-endian kernel */
	enum gen_energy_writer energy_writer;	/* GEN_ENERGY */
};

/* Write a whole log to fp.  Returns EXR_OK, EXR_IO or EXR_NOMEM. */
int	gen_write(FILE *fp, const struct gen_opts *o);

/* GEN_ENERGY, after the header in *header (gen_energy.c). */
struct exw;
int	gen_energy(FILE *fp, const struct gen_opts *o, struct exw *header);

#endif
