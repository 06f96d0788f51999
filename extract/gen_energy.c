/*
 * Synthetic energy snapshots (gen --kind energy; see gen.h): a macOS host
 * sampled every 10 s by a per-process energy sampler, as rusage_info_v6
 * gives it (Apple's <sys/resource.h>).  A few dozen applications, some
 * alive all day, some coming and going, each with its own CPU share, P-core
 * share and energy per CPU-second (0.66 to 4.87 J, the spread measured on
 * Apple silicon: CPU time times a constant is not energy).  Counters only
 * grow, so a process's intervals add up to its last counter less its
 * first.
 *
 * The writer decides the units: native Apple silicon (timebase 125/3,
 * 24 MHz ticks), translated under Rosetta (it sees a timebase of 1/1, the
 * ticks are still native 24 MHz), or Intel without energy counting
 * (timebase 1/1, 1 GHz, energy zero and flagged absent).
 */
#include <string.h>

#include "../parsers/exacct.h"
#include "../parsers/recwrite.h"
#include "gen.h"

#define T0_NS		(1699999200ull * 1000000000ull)
#define STEP_NS		(10 * NS)
#define NAPPS		24

struct app {
	const char	*command;
	unsigned	 cpu_permille;	/* of one CPU, on average */
	unsigned	 mj_per_cpu_s;	/* energy per CPU-second, mJ */
	unsigned	 pcore_percent;	/* share of CPU on P cores */
	int		 transient;	/* comes and goes */
};

/* Shares and energy per CPU-second chosen to span what was measured. */
static const struct app apps[NAPPS] = {
	{ "kernel_task", 80, 900, 30, 0 }, { "WindowServer", 120, 1400, 60, 0 },
	{ "Safari", 60, 1800, 70, 0 }, { "com.apple.WebKit", 150, 2200, 80, 1 },
	{ "mds_stores", 40, 660, 10, 1 }, { "Xcode", 90, 2600, 75, 0 },
	{ "clang", 950, 4870, 95, 1 }, { "swift-frontend", 800, 4100, 90, 1 },
	{ "node", 200, 1750, 55, 0 }, { "python3", 1010, 810, 20, 1 },
	{ "Mail", 10, 1200, 40, 0 }, { "Finder", 15, 1100, 35, 0 },
	{ "launchd", 5, 700, 5, 0 }, { "coreaudiod", 25, 950, 15, 0 },
	{ "bluetoothd", 8, 720, 5, 0 }, { "photoanalysisd", 370, 1760, 65, 1 },
	{ "backupd", 120, 800, 10, 1 }, { "Slack", 70, 2000, 60, 0 },
	{ "zoom.us", 300, 3100, 85, 1 }, { "Terminal", 12, 1300, 45, 0 },
	{ "git", 400, 1500, 50, 1 }, { "softwareupdated", 50, 900, 20, 1 },
	{ "Spotlight", 30, 1000, 30, 0 }, { "syslogd", 6, 680, 5, 0 },
};

struct eproc {
	struct ex_energy e;
	const struct app *app;
	uint64_t	 cpu_ns, pcpu_ns;	/* true, for the ticks */
	int		 alive;
};

struct egen {
	FILE		*fp;
	struct exw	 w;
	uint64_t	 rng;
	uint64_t	 left;
	uint32_t	 next_pid;
	int		 writer;	/* GEN_ENERGY_NATIVE ... */
	int		 error;
	struct eproc	 p[NAPPS];
};

static uint64_t
rnd(struct egen *g)
{
	uint64_t z = (g->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* ns to the writer's ticks: 24 MHz on Apple silicon, 1 GHz on Intel. */
static uint64_t
ticks(const struct egen *g, uint64_t ns)
{
	return g->writer == GEN_ENERGY_INTEL ? ns : ns * 3 / 125;
}

static void
set(struct ex_energy *e, int f, uint64_t v)
{
	e->v[f] = v;
	e->present |= 1ULL << f;
}

static void
start_proc(struct egen *g, struct eproc *p, const struct app *a,
    uint64_t now)
{
	memset(p, 0, sizeof(*p));
	p->app = a;
	p->alive = 1;
	if (++g->next_pid >= 99999)
		g->next_pid = 300;
	set(&p->e, EN_PID, g->next_pid);
	set(&p->e, EN_PPID, 1);
	set(&p->e, EN_UID, a->mj_per_cpu_s % 3 == 0 ? 0 : 501);
	set(&p->e, EN_START_NS, now - rnd(g) % STEP_NS);
	snprintf(p->e.command, sizeof(p->e.command), "%s", a->command);
	p->e.present |= 1ULL << EN_COMMAND;
	switch (g->writer) {
	case GEN_ENERGY_NATIVE:
		set(&p->e, EN_TB_NUMER, 125);
		set(&p->e, EN_TB_DENOM, 3);
		set(&p->e, EN_TB_HZ, 24000000);
		set(&p->e, EN_TRANSLATED, 0);
		set(&p->e, EN_HAS_ENERGY, 1);
		break;
	case GEN_ENERGY_ROSETTA:
		set(&p->e, EN_TB_NUMER, 1);
		set(&p->e, EN_TB_DENOM, 1);
		set(&p->e, EN_TB_HZ, 24000000);
		set(&p->e, EN_TRANSLATED, 1);
		set(&p->e, EN_HAS_ENERGY, 1);
		break;
	default:
		set(&p->e, EN_TB_NUMER, 1);
		set(&p->e, EN_TB_DENOM, 1);
		set(&p->e, EN_TB_HZ, 1000000000);
		set(&p->e, EN_TRANSLATED, 0);
		set(&p->e, EN_HAS_ENERGY, 0);
		break;
	}
}

/* Advance a process by one step and write its snapshot. */
static void
sample(struct egen *g, struct eproc *p, uint64_t now)
{
	struct ex_energy *e = &p->e;
	/* CPU this step: the app's share, varying 50-150%. */
	uint64_t cpu = STEP_NS / 1000 * p->app->cpu_permille *
	    (50 + rnd(g) % 101) / 100;
	uint64_t pcpu = cpu * p->app->pcore_percent / 100;
	uint64_t nj = cpu / 1000 * p->app->mj_per_cpu_s;	/* nJ/ns = W */

	p->cpu_ns += cpu;
	p->pcpu_ns += pcpu;
	set(e, EN_TIME_NS, now);
	set(e, EN_USER_TICKS, ticks(g, p->cpu_ns / 5 * 4));
	set(e, EN_SYS_TICKS, ticks(g, p->cpu_ns - p->cpu_ns / 5 * 4));
	set(e, EN_USER_PTICKS, ticks(g, p->pcpu_ns / 5 * 4));
	set(e, EN_SYS_PTICKS, ticks(g, p->pcpu_ns - p->pcpu_ns / 5 * 4));
	if (g->writer == GEN_ENERGY_INTEL) {
		set(e, EN_ENERGY_NJ, 0);	/* what such a kernel gives */
		set(e, EN_PENERGY_NJ, 0);
	} else {
		set(e, EN_ENERGY_NJ, e->v[EN_ENERGY_NJ] + nj);
		set(e, EN_PENERGY_NJ, e->v[EN_PENERGY_NJ] +
		    nj * p->app->pcore_percent / 100);
	}
	set(e, EN_CYCLES, e->v[EN_CYCLES] + cpu * 3);	/* ~3 GHz */
	set(e, EN_INSTRUCTIONS, e->v[EN_INSTRUCTIONS] + cpu * 3 *
	    (1 + rnd(g) % 4));
	set(e, EN_DISK_READ, e->v[EN_DISK_READ] + rnd(g) % 65536);
	set(e, EN_DISK_WRITTEN, e->v[EN_DISK_WRITTEN] + rnd(g) % 16384);
	set(e, EN_INT_WAKEUPS, e->v[EN_INT_WAKEUPS] + rnd(g) % 200);
	set(e, EN_IDLE_WAKEUPS, e->v[EN_IDLE_WAKEUPS] + rnd(g) % 50);
	set(e, EN_FOOTPRINT, (20 + rnd(g) % 400) << 20);
	if (e->v[EN_FOOTPRINT] > e->v[EN_MAX_FOOTPRINT])
		set(e, EN_MAX_FOOTPRINT, e->v[EN_FOOTPRINT]);
	exw_reset(&g->w);
	energy_write(&g->w, e);
	if (g->error == EXR_OK && exw_error(&g->w) != EXR_OK)
		g->error = exw_error(&g->w);
	if (g->error == EXR_OK &&
	    fwrite(g->w.buf, 1, g->w.len, g->fp) != g->w.len)
		g->error = EXR_IO;
	g->left--;
}

int
gen_energy(FILE *fp, const struct gen_opts *o, struct exw *header)
{
	static struct egen g;
	uint64_t now = T0_NS;
	int i;

	memset(&g, 0, sizeof(g));
	g.fp = fp;
	g.rng = o->seed;
	g.left = o->records;
	g.next_pid = 300;
	g.writer = o->energy_writer;
	exw_init(&g.w);
	if (fwrite(header->buf, 1, header->len, fp) != header->len)
		g.error = EXR_IO;
	for (i = 0; i < NAPPS; i++)
		start_proc(&g, &g.p[i], &apps[i], now);
	while (g.left > 0 && g.error == EXR_OK) {
		now += STEP_NS;
		for (i = 0; i < NAPPS && g.left > 0; i++) {
			struct eproc *p = &g.p[i];

			/* A transient app exits now and then; a new one
			 * (new pid, new counters) takes its place. */
			if (p->app->transient && rnd(&g) % 100 < 3)
				start_proc(&g, p, p->app, now);
			sample(&g, p, now);
		}
	}
	exw_release(&g.w);
	return g.error;
}
