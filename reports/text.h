/*
 * text: one line per record, in the column layouts of the original
 * extracct (extracct(8)).  Absent fields print "-"
 * (missing is not zero); partial records print duration -1.0000 as the
 * original did.  Units of each column are in docs/extracct.8.
 */
#ifndef TEXT_H
#define TEXT_H

#include <stdio.h>

#include "../parsers/records.h"
#include "../parsers/stream.h"

/* The header line for a record kind (REC_PROC, REC_TASK, REC_FLOW). */
void	text_header(FILE *fp, enum rec_kind kind);

void	text_proc(FILE *fp, const struct ex_proc *p);
void	text_task(FILE *fp, const struct ex_task *t);
void	text_flow(FILE *fp, const struct ex_flow *f);

/*
 * A metric-provider stream's samples: the time written and the interval
 * covered (epoch microseconds, "-" where not known), the series, the
 * value in its stored unit and the reading as written.
 */
void	text_sample_header(FILE *fp);
void	text_sample(FILE *fp, const struct stream_provider *p,
	    const struct stream_line *ln, const struct stream_sample *x);

#endif
