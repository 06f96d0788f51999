/*
 * The report table (rtab.h): columns, rows of text cells and the notes
 * between them, held in one arena of NUL-terminated texts.  A cell is
 * an offset into the arena (offsets survive its growth), RTAB_ABSENT
 * when the cell has no value.  A failed allocation sets nomem and makes
 * every later put a no-op: a builder checks once, at print.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rtab.h"

#define RTAB_ABSENT	SIZE_MAX

void
rtab_init(struct rtab *t)
{
	memset(t, 0, sizeof(*t));
	t->total = SIZE_MAX;
	t->rows_name = "rows";
}

void
rtab_free(struct rtab *t)
{
	free(t->cell);
	free(t->arena);
	free(t->note);
	rtab_init(t);
}

/* v's copy in the arena: its offset, or RTAB_ABSENT when out of memory. */
static size_t
keep(struct rtab *t, const char *v, size_t n)
{
	size_t at = t->alen;

	if (t->nomem)
		return RTAB_ABSENT;
	if (t->alen + n + 1 > t->acap) {
		size_t cap = t->acap ? t->acap : 4096;
		char *a;

		while (t->alen + n + 1 > cap)
			cap *= 2;
		if ((a = realloc(t->arena, cap)) == NULL) {
			t->nomem = 1;
			return RTAB_ABSENT;
		}
		t->arena = a;
		t->acap = cap;
	}
	memcpy(t->arena + at, v, n);
	t->arena[at + n] = '\0';
	t->alen += n + 1;
	return at;
}

/* The vprintf text of fmt into the arena. */
static size_t
keepv(struct rtab *t, const char *fmt, va_list ap)
{
	char b[1024], *big;
	va_list ap2;
	size_t at;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(b, sizeof(b), fmt, ap);
	if (n < 0) {
		va_end(ap2);
		return RTAB_ABSENT;
	}
	if ((size_t)n < sizeof(b)) {
		va_end(ap2);
		return keep(t, b, (size_t)n);
	}
	if ((big = malloc((size_t)n + 1)) == NULL) {
		va_end(ap2);
		t->nomem = 1;
		return RTAB_ABSENT;
	}
	vsnprintf(big, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	at = keep(t, big, (size_t)n);
	free(big);
	return at;
}

int
rtab_col(struct rtab *t, const char *name, enum col_kind kind,
    unsigned formats, unsigned flags, int minw)
{
	struct rtab_col *c;

	if (t->ncol == RTAB_MAXCOLS || t->nrow > 0)
		return -1;
	c = &t->col[t->ncol];
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->kind = kind;
	c->formats = formats;
	c->flags = flags;
	c->minw = minw;
	return t->ncol++;
}

void
rtab_row(struct rtab *t)
{
	size_t j;

	if (t->nomem)
		return;
	if ((t->nrow + 1) * (size_t)t->ncol > t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64 * (size_t)t->ncol;
		size_t *c;

		while ((t->nrow + 1) * (size_t)t->ncol > cap)
			cap *= 2;
		if ((c = realloc(t->cell, cap * sizeof(*c))) == NULL) {
			t->nomem = 1;
			return;
		}
		t->cell = c;
		t->cap = cap;
	}
	for (j = 0; j < (size_t)t->ncol; j++)
		t->cell[t->nrow * (size_t)t->ncol + j] = RTAB_ABSENT;
	t->nrow++;
}

void
rtab_total(struct rtab *t)
{
	rtab_row(t);
	if (!t->nomem)
		t->total = t->nrow - 1;
}

void
rtab_put(struct rtab *t, int j, const char *v)
{
	if (t->nomem || t->nrow == 0 || j < 0 || j >= t->ncol || v == NULL)
		return;
	t->cell[(t->nrow - 1) * (size_t)t->ncol + (size_t)j] =
	    keep(t, v, strlen(v));
}

void
rtab_putf(struct rtab *t, int j, const char *fmt, ...)
{
	va_list ap;
	size_t at;

	if (t->nomem || t->nrow == 0 || j < 0 || j >= t->ncol)
		return;
	va_start(ap, fmt);
	at = keepv(t, fmt, ap);
	va_end(ap);
	t->cell[(t->nrow - 1) * (size_t)t->ncol + (size_t)j] = at;
}

/* A note before row `before`. */
static void
add_note(struct rtab *t, size_t before, const char *fmt, va_list ap)
{
	struct rtab_note *n;
	size_t at;

	if (t->nomem)
		return;
	if ((at = keepv(t, fmt, ap)) == RTAB_ABSENT)
		return;
	if ((n = realloc(t->note, (t->nnote + 1) * sizeof(*n))) == NULL) {
		t->nomem = 1;
		return;
	}
	t->note = n;
	t->note[t->nnote].before = before;
	t->note[t->nnote++].off = at;
}

void
rtab_head(struct rtab *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_note(t, RTAB_HEAD, fmt, ap);
	va_end(ap);
}

void
rtab_note(struct rtab *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_note(t, t->nrow, fmt, ap);
	va_end(ap);
}

void
rtab_meta(struct rtab *t, const char *name, enum col_kind kind,
    const char *v)
{
	struct rtab_meta *m;

	if (t->nomem || t->nmeta == (int)(sizeof(t->meta) /
	    sizeof(t->meta[0]))) {
		t->nomem = 1;
		return;
	}
	m = &t->meta[t->nmeta++];
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->kind = kind;
	m->off = keep(t, v, strlen(v));
}
