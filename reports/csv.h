/*
 * CSV for spreadsheets (RFC 4180; extracct(8)): a header row with units
 * in the column names, times as UTC ISO-8601 and epoch seconds, and a
 * guard against formula injection (a field starting with = + - @ or a
 * tab or carriage return is prefixed with ', so a spreadsheet shows it
 * as text instead of running it).
 */
#ifndef CSV_H
#define CSV_H

#include <stdint.h>
#include <stdio.h>

#include "../parsers/records.h"
#include "../parsers/stream.h"

/*
 * One field, quoted and guarded as needed (no separator written).  s is
 * written as it is: it must hold no byte from input that is not yet
 * escaped (csv_text does both).
 */
void	csv_field(FILE *fp, const char *s);

/*
 * A string from input as one field: control bytes, bytes >= 0x7f and
 * backslashes as \ooo, as text output prints them (fmt.h), spaces kept;
 * then quoted (RFC 4180) if it holds ',' or '"', and guarded.  The rule
 * for every text cell of every CSV.
 */
void	csv_text(FILE *fp, const char *s);

/* "2005-03-03T01:33:37Z" (UTC) of an epoch second. */
char	*csv_utc(char *dst, size_t n, int64_t epoch_s);

/* Header row for a record kind. */
void	csv_header(FILE *fp, enum rec_kind kind);

/* One record; host is the log's host name. */
void	csv_proc(FILE *fp, const char *host, const struct ex_proc *p);
void	csv_task(FILE *fp, const char *host, const struct ex_task *t);
void	csv_flow(FILE *fp, const char *host, const struct ex_flow *f);

/*
 * A metric-provider stream's samples: host, provider, detail, the
 * line's time and the interval covered (epoch microseconds; empty where
 * not known), the value in its unit, the reading as written.
 */
void	csv_sample_header(FILE *fp);
void	csv_sample(FILE *fp, const char *host, const struct stream_provider *p,
	    const struct stream_line *ln, const struct stream_sample *x);

#endif
