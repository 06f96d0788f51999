/*
 * A report's output: its columns and rows as text, printed by one writer
 * per format.  Every report (usage, --percentiles, --capture, --energy)
 * builds an rtab and hands it to rtab_print; a new format is one writer
 * in rtab_print.c, and every report then has it.
 *
 * A builder knows the format it builds for (a table may say "-" where
 * JSON says null); the writers know only how a format spells a cell:
 *
 *	cell		table		CSV		JSON
 *	absent		blank		empty		null
 *	COL_TEXT	escaped (1)	csv_field (2)	a string
 *	COL_NUM		as is		as is		as is; "-" is null
 *	COL_JSON	as is		csv_field	as is (a JSON value)
 *
 * (1) fmt_escape with ESC_SPACE, so columns split on blanks, unless the
 *     column is RTC_OURS: text extracct formats itself (a date), not
 *     data.  (2) quoted as RFC 4180 needs, guarded against formulas.
 */
#ifndef RTAB_H
#define RTAB_H

#include <stddef.h>
#include <stdio.h>

#include "report.h"

enum col_kind { COL_TEXT, COL_NUM, COL_JSON };

/* The formats a column is printed in. */
#define COLF_TABLE	0x1
#define COLF_CSV	0x2
#define COLF_JSON	0x4
#define COLF_ALL	(COLF_TABLE | COLF_CSV | COLF_JSON)

/* Column flags. */
#define RTC_KEEP	0x1	/* table: shown even when no row has a value */
#define RTC_OURS	0x2	/* table: text extracct made; not escaped */

#define RTAB_MAXCOLS	64

struct rtab_col {
	char		 name[40];
	char		 tname[16];	/* the table's heading, if not name */
	enum col_kind	 kind;
	unsigned	 formats;	/* COLF_* */
	unsigned	 flags;		/* RTC_* */
	int		 minw;		/* table: at least this wide */
};

/* A member of the JSON object around the rows ("tz": "UTC"). */
struct rtab_meta {
	char		 name[24];
	enum col_kind	 kind;
	size_t		 off;		/* its text in the arena */
};

/* Table text: above the names (before == RTAB_HEAD), or a row. */
#define RTAB_HEAD	((size_t)-1)
struct rtab_note {
	size_t		 before;	/* printed before this row */
	size_t		 off;
};

struct rtab {
	struct rtab_col	 col[RTAB_MAXCOLS];
	int		 ncol;
	size_t		*cell;		/* nrow * ncol arena offsets */
	size_t		 nrow, cap;
	size_t		 total;		/* the total row, or SIZE_MAX */
	char		*arena;		/* every text, NUL-terminated */
	size_t		 alen, acap;
	struct rtab_meta meta[8];
	int		 nmeta;
	struct rtab_note *note;
	size_t		 nnote;
	const char	*rows_name;	/* JSON: the array's name; "rows" */
	int		 drop_empty;	/* table: leave out empty columns */
	int		 nomem;		/* a put failed: nothing to print */
};

/* An empty table; rtab_free releases what the puts made. */
void	rtab_init(struct rtab *t);
void	rtab_free(struct rtab *t);

/* A column, in the order they print; its index, or -1 when full. */
int	rtab_col(struct rtab *t, const char *name, enum col_kind kind,
	    unsigned formats, unsigned flags, int minw);

/* A new row, every cell absent; rtab_total makes the total row. */
void	rtab_row(struct rtab *t);
void	rtab_total(struct rtab *t);

/* Column j's text in the newest row; NULL leaves it absent. */
void	rtab_put(struct rtab *t, int j, const char *v);
void	rtab_putf(struct rtab *t, int j, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

/* Table text above the names (lines, each ending in a newline). */
void	rtab_head(struct rtab *t, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* Table text printed before the next row added (or at the end). */
void	rtab_note(struct rtab *t, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* A member of JSON's outer object, before the rows. */
void	rtab_meta(struct rtab *t, const char *name, enum col_kind kind,
	    const char *v);

/* Print t in fmt.  0, or -1 when t ran out of memory building. */
int	rtab_print(FILE *fp, const struct rtab *t, enum report_format fmt);

/* A JSON string of a name as it is (see rtab_print.c). */
void	json_raw(FILE *fp, const char *s);

#endif
