/*
 * Retention (retention.h): run's last step.  A closed log goes only
 * when it is old enough and the ledger says every byte of it is in the
 * database (a log kept is never a loss; one deleted unread is); the
 * text outputs, which the database does not need, by age alone.  The
 * live logs are never touched, however old.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../parsers/records.h"
#include "../../store/expire.h"
#include "../../store/ingest.h"
#include "../util.h"
#include "retention.h"
#include "spool.h"

/* Delete dir/name if older than days; only_if_ingested asks the ledger. */
static int
retire(struct store *s, const char *dir, const char *name, int days,
    int only_if_ingested, time_t now)
{
	char path[4096];
	struct ex_err err = { 0 };
	struct stat st;
	int done = 1;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (lstat(path, &st) == -1 || !S_ISREG(st.st_mode) ||
	    now - st.st_mtime < (time_t)days * 86400)
		return EXR_OK;
	if (only_if_ingested &&
	    (store_fully_ingested(s, path, &done, &err) != EXR_OK || !done)) {
		printf("retention: keeping %s: not fully ingested\n", path);
		return EXR_OK;
	}
	if (unlink(path) == -1)
		return complain(EXR_IO, "%s: %s", path, strerror(errno));
	printf("retention: removed %s\n", path);
	return EXR_OK;
}

int
retention_logs(struct store *s, const struct spool *sp, int days,
    time_t now)
{
	size_t i;
	int status = EXR_OK;

	for (i = 0; i < sp->nlogs; i++)
		if (!spool_is_live(sp, &sp->logs[i]))
			status = ex_worst(status, retire(s, sp->dir,
			    sp->logs[i].name, days, 1, now));
	return status;
}

int
retention_text(const char *outdir, int days, time_t now)
{
	DIR *d;
	struct dirent *de;
	int status = EXR_OK;

	if (outdir == NULL || (d = opendir(outdir)) == NULL)
		return EXR_OK;
	while ((de = readdir(d)) != NULL) {
		size_t n = strlen(de->d_name);

		if (n > 4 && (strcmp(de->d_name + n - 4, ".txt") == 0 ||
		    strcmp(de->d_name + n - 4, ".csv") == 0))
			status = ex_worst(status, retire(NULL, outdir,
			    de->d_name, days, 0, now));
	}
	closedir(d);
	return status;
}

/*
 * The epoch second of the first of month mon (0-11, or beyond: carried
 * into the year) of year, UTC.  By the civil calendar's day count, as
 * timegm(3) is not POSIX (the portable build).
 */
static int64_t
month_start_utc(int64_t year, int64_t mon)
{
	int64_t y, m, era, yoe, doy, doe;

	y = year + (mon >= 0 ? mon / 12 : -((11 - mon) / 12));
	m = mon - (y - year) * 12 + 1;		/* 1-12 */
	if (m <= 2)
		y--;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;			/* 0-399 */
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5;	/* day 1 */
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return (era * 146097 + doe - 719468) * 86400;
}

int
retention_db(struct store *s, const char *db, uint64_t intervals_days,
    uint64_t rollups_months, time_t now)
{
	struct expire_stats st;
	struct ex_err err = { 0 };
	struct tm tm;
	int64_t iv = INT64_MIN, ru = INT64_MIN;
	int rc;

	if (intervals_days > 0)
		iv = ((int64_t)now - (int64_t)intervals_days * 86400) *
		    NS_I64;
	/* The first day of the month rollups_months before this one. */
	if (rollups_months > 0 && gmtime_r(&now, &tm) != NULL)
		ru = month_start_utc((int64_t)tm.tm_year + 1900,
		    (int64_t)tm.tm_mon - (int64_t)rollups_months);
	if (iv == INT64_MIN && ru == INT64_MIN)
		return EXR_OK;
	if ((rc = expire_db(store_db(s), db, iv, ru, &st, &err)) != EXR_OK)
		return complain(rc, "%s: retention: %s", db, err.reason);
	printf("retention: %s: %llu interval rows and %llu rollup rows "
	    "expired; %lld -> %lld bytes\n", db,
	    (unsigned long long)st.intervals, (unsigned long long)st.rollups,
	    (long long)st.size_before, (long long)st.size_after);
	return EXR_OK;
}
