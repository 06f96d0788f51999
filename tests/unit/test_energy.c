/*
 * Mach ticks to nanoseconds (energy_tick_ns): the figures measured on
 * Apple silicon (rusage_info_v6).  A thread that spun
 * for 2 s added 47,028,061 ticks: 1.9595 s at the native timebase 125/3,
 * the same from a translated writer (timebase 1/1, hw.tbfrequency
 * 24 MHz), and 41.7 times too little if the ticks are read as ns.
 */
#include <stdint.h>
#include <string.h>

#include "../../parsers/records.h"
#include "check.h"

static void
writer(struct ex_energy *e, uint64_t numer, uint64_t denom, uint64_t hz,
    int translated)
{
	memset(e, 0, sizeof(*e));
	e->v[EN_TB_NUMER] = numer;
	e->v[EN_TB_DENOM] = denom;
	e->v[EN_TB_HZ] = hz;
	e->v[EN_TRANSLATED] = (uint64_t)translated;
	e->present = 1ULL << EN_TB_NUMER | 1ULL << EN_TB_DENOM |
	    1ULL << EN_TB_HZ | 1ULL << EN_TRANSLATED;
}

void
suite_energy(void)
{
	struct ex_energy e;
	uint64_t ns = 0, year;

	writer(&e, 125, 3, 24000000, 0);
	CHECK("native 125/3", energy_tick_ns(&e, 47028061, &ns) == 0 &&
	    ns == 1959502541ull);
	CHECK("native: 1.9595 s", ns / 100000 == 19595);

	writer(&e, 1, 1, 24000000, 1);
	CHECK("translated: by tbfrequency", energy_tick_ns(&e, 47028061,
	    &ns) == 0 && ns == 1959502541ull);

	writer(&e, 1, 1, 24000000, 0);	/* the Rosetta trap: 1/1 believed */
	CHECK("read as ns: 41.7x too small", energy_tick_ns(&e, 47028061,
	    &ns) == 0 && ns == 47028061 && ns / 100000 != 19595);

	writer(&e, 1, 1, 1000000000, 0);
	CHECK("Intel 1/1", energy_tick_ns(&e, 5, &ns) == 0 && ns == 5);

	/* A year of 24 MHz ticks: no overflow on the way. */
	year = 365ull * 86400 * 24000000;
	writer(&e, 125, 3, 24000000, 0);
	CHECK("a year native", energy_tick_ns(&e, year, &ns) == 0 &&
	    ns == 365ull * 86400 * 1000000000);
	writer(&e, 1, 1, 24000000, 1);
	CHECK("a year translated", energy_tick_ns(&e, year, &ns) == 0 &&
	    ns == 365ull * 86400 * 1000000000);

	/* What the rule needs must be there. */
	writer(&e, 125, 0, 24000000, 0);
	CHECK("zero denominator refused", energy_tick_ns(&e, 1, &ns) == -1);
	writer(&e, 1, 1, 0, 1);
	CHECK("translated without Hz refused",
	    energy_tick_ns(&e, 1, &ns) == -1);
	e.present = 0;
	CHECK("no timebase refused", energy_tick_ns(&e, 1, &ns) == -1);
}
