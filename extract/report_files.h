/*
 * report FILE...: totals of the exit records of log files, with no
 * database, as sa(8) gives them from a pacct file (reports/summary.c
 * adds them up; walk.c reads the logs).
 */
#ifndef REPORT_FILES_H
#define REPORT_FILES_H

#include "../reports/report.h"

/*
 * Each of the n paths must be a log (a stray word would read as a
 * missing file and give an empty table); then their totals by o->by,
 * printed.  Messages printed; an EXR_* code.
 */
int	report_files(int n, char **paths, const struct report_opts *o);

#endif
