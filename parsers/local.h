/*
 * extracct's own exacct catalog (EXC_LOCAL): the ids of what Linux has
 * and Solaris records do not, written by snap (and acctd) in files whose
 * creator is "extracct".  Documented in docs/formats.md; never renumber
 * an id once written.  The ids (EXL_*), their types and names are rows
 * of the one table, catalog.h (EXL_CATALOG).
 */
#ifndef LOCAL_H
#define LOCAL_H

#include <stdint.h>

#include "catalog.h"

/* The energy snapshot's first id: its ids follow enum energy_field. */
#define EXL_EN_FIRST		EXL_EN_PID

/* Name of a local-catalog data id, or NULL. */
const char *local_id_name(uint32_t id);

/* The type (EXT_*) the writers give a local-catalog data id, or 0. */
uint32_t local_id_type(uint32_t id);

#endif
