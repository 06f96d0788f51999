/*
 * Summing threads into processes (see tgroups.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tgroups.h"

/* Summed over threads. */
static const int summed[] = {
	PROC_CPU_USER_NS, PROC_CPU_SYS_NS, PROC_FAULTS_MAJOR,
	PROC_FAULTS_MINOR, PROC_CHARS_RDWR, PROC_CTXT_VOL, PROC_CTXT_INV,
	PROC_READ_BYTES, PROC_WRITE_BYTES, PROC_SYSCALLS_R, PROC_SYSCALLS_W,
	PROC_DELAY_CPU_NS, PROC_DELAY_BLKIO_NS, PROC_DELAY_SWAPIN_NS,
	PROC_DELAY_FREEPAGES_NS, PROC_DELAY_THRASHING_NS,
	PROC_DELAY_COMPACT_NS, PROC_DELAY_WPCOPY_NS, PROC_DELAY_IRQ_NS,
	PROC_CPU_RUN_NS,
};

/* Taken from the leader (or the first thread seen). */
static const int identity[] = {
	PROC_PPID, PROC_UID, PROC_GID, PROC_START_NS, PROC_COMMAND,
};

static void
copy_field(struct ex_proc *to, const struct ex_proc *from, int f)
{
	uint64_t bit = 1ULL << f;

	to->present = (to->present & ~bit) | (from->present & bit);
	to->v[f] = from->v[f];
	if (f == PROC_COMMAND)
		memcpy(to->command, from->command, sizeof(to->command));
	if (f == PROC_CGROUP)
		memcpy(to->cgroup, from->cgroup, strlen(from->cgroup) + 1);
}

/* Fold one thread's record into its process's sum. */
static void
fold(struct tgroup *g, const struct ts_exit *e)
{
	const struct ex_proc *p = &e->p;
	struct ex_proc *s = &g->sum;
	size_t i;
	int f;

	for (i = 0; i < sizeof(summed) / sizeof(summed[0]); i++) {
		f = summed[i];
		if (REC_HAS(p, f)) {
			s->v[f] = REC_HAS(s, f) ? s->v[f] + p->v[f] : p->v[f];
			s->present |= 1ULL << f;
		}
	}
	if (REC_HAS(p, PROC_RSS_MAX_KB) && (!REC_HAS(s, PROC_RSS_MAX_KB) ||
	    p->v[PROC_RSS_MAX_KB] > s->v[PROC_RSS_MAX_KB])) {
		s->v[PROC_RSS_MAX_KB] = p->v[PROC_RSS_MAX_KB];
		s->present |= 1ULL << PROC_RSS_MAX_KB;
	}
	if (REC_HAS(p, PROC_ACCTFLAGS)) {
		s->v[PROC_ACCTFLAGS] |= p->v[PROC_ACCTFLAGS];
		s->present |= 1ULL << PROC_ACCTFLAGS;
	}
	if (REC_HAS(p, PROC_FINISH_NS) && (!REC_HAS(s, PROC_FINISH_NS) ||
	    p->v[PROC_FINISH_NS] > s->v[PROC_FINISH_NS]))
		copy_field(s, p, PROC_FINISH_NS);
	/* The leader names the process; before it, the earliest thread. */
	if (e->pid == e->tgid || (!g->have_leader &&
	    (!REC_HAS(s, PROC_START_NS) || (REC_HAS(p, PROC_START_NS) &&
	    p->v[PROC_START_NS] < s->v[PROC_START_NS]))))
		for (i = 0; i < sizeof(identity) / sizeof(identity[0]); i++)
			copy_field(s, p, identity[i]);
	if (e->pid == e->tgid)
		g->have_leader = 1;
	if (e->group_dead)
		copy_field(s, p, PROC_WAIT_STATUS);
	/* The cgroup the process ended in: its last thread's. */
	if (REC_HAS(p, PROC_CGROUP) && (e->group_dead ||
	    !REC_HAS(s, PROC_CGROUP))) {
		copy_field(s, p, PROC_CGROUP_HIER);
		copy_field(s, p, PROC_CGROUP_FROM);
		copy_field(s, p, PROC_CGROUP);
	}
	s->v[PROC_THREADS]++;
	s->present |= 1ULL << PROC_THREADS;
}

static void
begin(struct tgroup *g, const struct ts_exit *e)
{
	memset(g, 0, sizeof(*g));
	g->tgid = e->tgid;
	g->sum.group = EXD_GROUP_PROC;
	g->sum.v[PROC_PID] = e->tgid;
	g->sum.present = 1ULL << PROC_PID;
}

int
tgroups_add(struct tgroups *t, const struct ts_exit *e, tg_emit_fn emit,
    void *arg)
{
	struct tgroup one, *g = NULL;
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->g[i].tgid == e->tgid) {
			g = &t->g[i];
			break;
		}
	if (g == NULL && e->group_dead) {
		/* The common case: a process with one thread. */
		begin(&one, e);
		fold(&one, e);
		return emit(arg, &one.sum);
	}
	if (g == NULL) {
		if (t->n == t->cap) {
			size_t cap = t->cap ? 2 * t->cap : 64;
			struct tgroup *ng = realloc(t->g, cap * sizeof(*ng));

			if (ng == NULL) {
				errno = ENOMEM;
				return -1;
			}
			t->g = ng;
			t->cap = cap;
		}
		g = &t->g[t->n++];
		begin(g, e);
	}
	fold(g, e);
	if (!e->group_dead)
		return 0;
	one = *g;
	*g = t->g[--t->n];
	return emit(arg, &one.sum);
}

int
tgroups_sweep(struct tgroups *t, int (*gone)(uint32_t tgid), tg_emit_fn emit,
    void *arg, size_t *n)
{
	struct tgroup one;
	size_t i = 0;
	int rc;

	*n = 0;
	while (i < t->n) {
		if (!gone(t->g[i].tgid)) {
			i++;
			continue;
		}
		one = t->g[i];
		t->g[i] = t->g[--t->n];
		(*n)++;
		if ((rc = emit(arg, &one.sum)) != 0)
			return rc;
	}
	return 0;
}

void
tgroups_release(struct tgroups *t)
{
	free(t->g);
	memset(t, 0, sizeof(*t));
}
