/*
 * libFuzzer target: the powercap (RAPL) reader ("make fuzz").
 *
 * An input is a zone's directory name and the text of its files, NUL-
 * separated: energy_uj, name, max_energy_range_uj, constraint_0_name,
 * constraint_0_power_limit_uw (a file not given is one that cannot be
 * read).  powercap_zone parses them from memory, each in a buffer of
 * exactly its size.  The oracle: a zone it accepts is written as snap
 * writes it (rapl_write) and reads back (rapl_fill) field for field, and
 * its energy is the decimal number the energy_uj file starts with.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../extract/linux/powercap.h"
#include "../../parsers/exacct.h"
#include "../../parsers/recwrite.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fail(const char *what, int f)
{
	fprintf(stderr, "fuzz_powercap: %s (field %d)\n", what, f);
	abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct exw w;
	static struct ex_rec rec;
	static int ready;
	struct ex_rapl z, back;
	struct rec_counts c = { 0 };
	struct ex_err err;
	char *part[1 + PC_NFILES] = { NULL };
	const char *text[PC_NFILES];
	size_t at = 0, n, used;
	int i;

	if (!ready) {
		exw_init(&w);
		ready = 1;
	}
	for (i = 0; i < 1 + PC_NFILES && at <= size; i++) {
		const uint8_t *end = memchr(data + at, '\0', size - at);

		n = end != NULL ? (size_t)(end - (data + at)) : size - at;
		if ((part[i] = malloc(n + 1)) == NULL)
			abort();
		memcpy(part[i], data + at, n);
		part[i][n] = '\0';
		at += n + 1;
		if (end == NULL)
			break;
	}
	for (i = 0; i < PC_NFILES; i++)
		text[i] = part[1 + i];
	if (part[0] != NULL &&
	    powercap_zone(part[0], text, 1700000000123456789ull, &z) == 0) {
		char *end;
		uint64_t uj = strtoull(text[PC_ENERGY_UJ], &end, 10);

		if (!REC_HAS(&z, RAPL_ENERGY_UJ) || z.v[RAPL_ENERGY_UJ] != uj)
			fail("energy is not what energy_uj says", -1);
		exw_reset(&w);
		rapl_write(&w, &z);
		rec.nitems = 0;
		if (exw_error(&w) != EXR_OK || exacct_decode(&rec, w.buf,
		    w.len, 0, &used, &err) != EXR_OK || used != w.len)
			fail("written, not read back", -1);
		if (rec_kind(&rec) != REC_RAPL)
			fail("not a RAPL record", -1);
		memset(&back, 0, sizeof(back));
		rapl_fill(&back, &rec, &c);
		for (i = 0; i < RAPL_NFIELDS; i++) {
			if (REC_HAS(&z, i) != REC_HAS(&back, i))
				fail("present", i);
			if (REC_HAS(&z, i) && z.v[i] != back.v[i])
				fail("value", i);
		}
		if (strcmp(z.zone, back.zone) != 0 ||
		    strcmp(z.name, back.name) != 0)
			fail("zone or name", -1);
	}
	for (i = 0; i < 1 + PC_NFILES; i++)
		free(part[i]);
	return 0;
}
