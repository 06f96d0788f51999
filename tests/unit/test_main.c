/*
 * Unit test runner: every suite, then the summary line.
 */
#include "check.h"

int check_passed, check_failed;

int
main(void)
{
	suite_bytes();
	suite_exerr();
	suite_report_check();
	suite_rtab();
	suite_exacct();
	suite_records();
	suite_fmt();
	suite_outbuf();
	suite_diff();
	suite_taskstats();
	suite_db();
	suite_energy();
	suite_stream();
	suite_procfs();
	suite_cgroup();
	suite_inputs();
	suite_cmdopt();
	suite_catalog();
	suite_store();
	suite_reader();
	suite_skim();
	suite_hostid();
	suite_chart();
	suite_fleet();
	suite_rdb();
	suite_rollup();
	suite_config();
	suite_cgpath();
	printf("unit: %d passed, %d failed\n", check_passed, check_failed);
	return check_failed == 0 ? 0 : 1;
}
