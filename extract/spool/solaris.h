/*
 * Solaris and illumos: rotate drives wracct and acctadm when they are
 * on PATH (solaris.c).
 */
#ifndef SOLARIS_H
#define SOLARIS_H

#include <time.h>

struct spool;

/* Are both acctadm and wracct on PATH? */
int	solaris_tools_present(void);

/*
 * wracct a partial record for every process, then acctadm -f a new
 * spool file, named for now, for every type acctadm.conf enables, and
 * record it as the live log of its kind (in sp too).  Messages printed;
 * EXR_OK or EXR_IO.
 */
int	solaris_rotate(struct spool *sp, const char *conf, time_t now);

#endif
