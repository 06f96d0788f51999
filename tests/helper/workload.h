/* Workloads for the acctd tests (workload.c). */
#ifndef WORKLOAD_H
#define WORKLOAD_H

/* Run argv[1]'s workload; -1 if argv names none. */
int	workload_main(int argc, char **argv);

#endif
