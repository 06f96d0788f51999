/*
 * Writing fixed records back out as exacct groups: what snap (and later
 * acctd) use, so that everything extracct writes is read by the one
 * reader.  Present fields only, in the kernel's resource order
 * (the kernel catalog order), then extracct's local items (local.h).
 */
#ifndef RECWRITE_H
#define RECWRITE_H

#include "exacct.h"
#include "records.h"

/* One group-proc or group-proc-partial (p->group) into w. */
void	proc_write(struct exw *w, const struct ex_proc *p);

/* One group-sysload into w. */
void	sysload_write(struct exw *w, const struct ex_sysload *s);
void	lost_write(struct exw *w, const struct ex_lost *l);
void	energy_write(struct exw *w, const struct ex_energy *e);
void	rapl_write(struct exw *w, const struct ex_rapl *z);
void	cgroup_write(struct exw *w, const struct ex_cgroup *g);

#endif
