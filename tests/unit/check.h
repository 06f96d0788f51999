/*
 * A tiny unit-test harness: CHECK(name, cond) counts and reports; each
 * test file provides one suite function listed in main.c.  The run ends
 * with the line "N passed, N failed".
 */
#ifndef CHECK_H
#define CHECK_H

#include <stdio.h>

extern int check_passed, check_failed;

#define CHECK(name, cond) do {						\
	if (cond) {							\
		check_passed++;						\
	} else {							\
		check_failed++;						\
		fprintf(stderr, "FAIL %s:%d: %s (%s)\n", __FILE__,	\
		    __LINE__, (name), #cond);				\
	}								\
} while (0)

void	suite_bytes(void);
void	suite_cgpath(void);
void	suite_exerr(void);
void	suite_report_check(void);
void	suite_rtab(void);
void	suite_exacct(void);
void	suite_records(void);
void	suite_fmt(void);
void	suite_outbuf(void);
void	suite_diff(void);
void	suite_taskstats(void);
void	suite_db(void);
void	suite_energy(void);
void	suite_stream(void);
void	suite_procfs(void);
void	suite_cgroup(void);
void	suite_inputs(void);
void	suite_cmdopt(void);
void	suite_catalog(void);
void	suite_store(void);
void	suite_reader(void);
void	suite_skim(void);
void	suite_hostid(void);
void	suite_chart(void);
void	suite_fleet(void);
void	suite_rdb(void);
void	suite_rollup(void);
void	suite_config(void);

#endif
