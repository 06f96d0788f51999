/*
 * Metric-provider streams (see stream.h): the providers' conventions,
 * the line reader, and the normaliser.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "stream.h"

/*
 * What each provider writes (the providers'
 * source, which the docs contradict in places).  The procfs utilisation
 * provider stamps a line before its first /proc/stat read: the start of
 * the interval.  The others stamp after the reading: its end.  IPMI's
 * reading is taken as watts, as GMT's own conversion implies (its docs
 * say milliwatts).
 */
static const struct stream_provider providers[] = {
	{ "cpu_utilization_procfs_system", SC_RATIO, 0, 0, "ratio_x10000" },
	{ "cpu_utilization_mach_system", SC_RATIO, 1, 1, "ratio_x10000" },
	{ "cpu_energy_rapl_msr_component", SC_ENERGY, 1, 0, "uJ" },
	{ "memory_energy_rapl_msr_component", SC_ENERGY, 1, 0, "uJ" },
	{ "psu_energy_dc_rapl_msr_machine", SC_ENERGY, 1, 0, "uJ" },
	{ "psu_energy_ac_mcp_machine", SC_POWER_UW, 1, 0, "uJ" },
	{ "psu_energy_ac_ipmi_machine", SC_POWER_W, 1, 0, "uJ" },
	{ "memory_used_procfs_system", SC_GAUGE, 1, 0, "B" },
};

const struct stream_provider *
stream_provider(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(providers) / sizeof(providers[0]); i++)
		if (strcmp(providers[i].name, name) == 0)
			return &providers[i];
	return NULL;
}

const struct stream_provider *
stream_provider_of_path(const char *path)
{
	char name[128];
	const char *base = strrchr(path, '/');
	size_t n;

	base = base != NULL ? base + 1 : path;
	n = strcspn(base, ".");
	if (n >= sizeof(name))
		return NULL;
	memcpy(name, base, n);
	name[n] = '\0';
	return stream_provider(name);
}

const struct stream_provider *
stream_provider_for(const char *path, const char *name, struct ex_err *err)
{
	const struct stream_provider *p = name != NULL ?
	    stream_provider(name) : stream_provider_of_path(path);

	if (p == NULL && name != NULL)
		ex_fail(err, EXR_USAGE, 0, "--provider %s: not a metric "
		    "provider extracct knows", name);
	else if (p == NULL)
		ex_fail(err, EXR_USAGE, 0, "a metric-provider stream, but its "
		    "name names no provider extracct knows (GMT writes "
		    "PROVIDER.log); give --provider");
	return p;
}

static int
is_digit(uint8_t c)
{
	return c >= '0' && c <= '9';
}

static int
is_blank(uint8_t c)
{
	return c == ' ' || c == '\t';
}

int
stream_sniff(const uint8_t *p, size_t n)
{
	size_t i = 0, d;

	/* Blank lines hold no sample and the reader skips them; a log may
	 * start with one.  The first sample must start its line. */
	while (i < n && (is_blank(p[i]) || p[i] == '\n' || p[i] == '\r'))
		i++;
	if (i > 0 && p[i - 1] != '\n')
		return 0;
	/* A microsecond epoch has 16 digits; ask for at least 10. */
	for (d = i; i < n && is_digit(p[i]); i++)
		;
	if (i - d < 10 || i - d > 20 || i >= n || !is_blank(p[i]))
		return 0;
	while (i < n && is_blank(p[i]))
		i++;
	return i < n && (is_digit(p[i]) || p[i] == '-');
}

int
stream_reader_open(struct stream_reader *r, const char *path,
    struct ex_err *err)
{
	memset(r, 0, sizeof(*r));
	return source_open(&r->src, path, err);
}

void
stream_reader_adopt(struct stream_reader *r, const struct source *src)
{
	memset(r, 0, sizeof(*r));
	r->src = *src;
}

void
stream_reader_init_mem(struct stream_reader *r, const char *path,
    const uint8_t *bytes, size_t len)
{
	memset(r, 0, sizeof(*r));
	source_init_mem(&r->src, path, bytes, len);
}

void
stream_reader_release(struct stream_reader *r)
{
	source_release(&r->src);
}

static int
read_failed(struct stream_reader *r, size_t n, struct ex_err *err)
{
	if (n == (size_t)-1)
		return ex_fail(err, EXR_NOMEM, r->off, "no memory");
	return ex_fail(err, EXR_IO, r->off, "%s", strerror(r->src.sys_errno));
}

int
stream_seek(struct stream_reader *r, uint64_t off, struct ex_err *err)
{
	const uint8_t *p;
	size_t n, i;

	while (r->off < off) {
		n = source_get(&r->src, r->off, 65536, &p);
		if (n == (size_t)-1 || (n == 0 && r->src.sys_errno != 0))
			return read_failed(r, n, err);
		if (n == 0)
			break;
		if (n > off - r->off)
			n = (size_t)(off - r->off);
		for (i = 0; i < n; i++)
			r->line += p[i] == '\n';
		r->off += n;
	}
	return EXR_OK;
}

/* A whole number of at most 19 digits at p[*i]; -1 if none. */
static int
number(const uint8_t *p, size_t n, size_t *i, uint64_t *v)
{
	size_t start = *i;

	*v = 0;
	while (*i < n && is_digit(p[*i])) {
		if (*i - start == 19)
			return -1;
		*v = *v * 10 + (uint64_t)(p[*i] - '0');
		(*i)++;
	}
	return *i > start && (*i == n || is_blank(p[*i])) ? 0 : -1;
}

/* Parse one line (no newline); NULL, or why it is not a sample. */
static const char *
parse_line(const uint8_t *p, size_t n, struct stream_line *ln)
{
	size_t i = 0, d;

	while (n > 0 && (is_blank(p[n - 1]) || p[n - 1] == '\r'))
		n--;
	if (number(p, n, &i, &ln->ts_us) != 0)
		return "the timestamp is not a whole number of microseconds";
	/* From 2116-02-20 on: not a time (and x 1000 fits REC_MAX_NS). */
	if (ln->ts_us > UINT64_MAX / 4000)
		return "the timestamp is out of range";
	/* Not a time a provider writes, and a series' last time 0 means
	 * "none yet" (stream_apply): two samples at 0 were both new. */
	if (ln->ts_us == 0)
		return "a timestamp of 0 (1970-01-01) is not a sample's time";
	while (i < n && is_blank(p[i]))
		i++;
	if (i == n)
		return "no reading after the timestamp";
	if (p[i] == '-')
		return "the reading is negative";
	if (number(p, n, &i, &ln->reading) != 0)
		return "the reading is not a whole number";
	if (ln->reading > INT64_MAX)	/* SQLite's integers are signed */
		return "the reading is out of range";
	while (i < n && is_blank(p[i]))
		i++;
	d = 0;
	while (i < n && !is_blank(p[i])) {
		if (d < STREAM_DETAIL - 1)
			ln->detail[d++] = (char)p[i];
		i++;
	}
	ln->detail[d] = '\0';
	while (i < n && is_blank(p[i]))
		i++;
	return i == n ? NULL : "more than three fields";
}

/* Past a line longer than STREAM_MAXLINE: to its newline or the end. */
static int
skip_long_line(struct stream_reader *r, struct ex_err *err)
{
	const uint8_t *p, *nl;
	size_t n;

	r->skip_from = r->off;
	for (;;) {
		n = source_get(&r->src, r->off, 65536, &p);
		if (n == (size_t)-1 || (n == 0 && r->src.sys_errno != 0))
			return read_failed(r, n, err);
		if (n == 0) {
			/* No newline yet: still being written. */
			r->skip_to = r->off;
			r->torn = 1;
			return ex_fail(err, EXR_DAMAGED, r->skip_from,
			    "line %llu: partial last line (no newline)",
			    (unsigned long long)r->line + 1);
		}
		if ((nl = memchr(p, '\n', n)) != NULL) {
			r->off += (uint64_t)(nl - p) + 1;
			break;
		}
		r->off += n;
	}
	r->skip_to = r->off;
	r->line++;
	return ex_fail(err, EXR_DAMAGED, r->skip_from,
	    "line %llu: longer than %d bytes", (unsigned long long)r->line,
	    STREAM_MAXLINE);
}

/* The zero bytes at r->off: one damaged range. */
static int
zero_run(struct stream_reader *r, struct ex_err *err)
{
	uint64_t end;
	int rc;

	r->skip_from = r->off;
	if ((rc = source_zero_run(&r->src, r->off, 1, &end)) != EXR_OK)
		return read_failed(r, rc == EXR_NOMEM ? (size_t)-1 : 0, err);
	r->skip_to = r->off = end;
	r->zeros = 1;
	return ex_fail(err, EXR_DAMAGED, r->skip_from, "line %llu: %llu "
	    SOURCE_ZEROS_WHY, (unsigned long long)r->line + 1,
	    (unsigned long long)(end - r->skip_from));
}

int
stream_next(struct stream_reader *r, struct stream_line *ln,
    struct ex_err *err)
{
	const uint8_t *p, *nl, *nul;
	const char *why;
	size_t n, len;

	r->torn = 0;
	r->zeros = 0;
	for (;;) {
		n = source_get(&r->src, r->off, STREAM_MAXLINE + 1, &p);
		if (n == (size_t)-1 || (n == 0 && r->src.sys_errno != 0))
			return read_failed(r, n, err);
		if (n == 0)
			return EXR_EOF;
		if (p[0] == 0)
			return zero_run(r, err);
		nl = memchr(p, '\n', n);
		len = nl != NULL ? (size_t)(nl - p) : n;
		if ((nul = memchr(p, '\0', len)) != NULL) {
			r->skip_from = r->off;
			r->skip_to = r->off += (uint64_t)(nul - p);
			return ex_fail(err, EXR_DAMAGED, r->skip_from,
			    "line %llu: cut short by zero bytes",
			    (unsigned long long)r->line + 1);
		}
		if (nl == NULL) {
			if (n > STREAM_MAXLINE)
				return skip_long_line(r, err);
			if (r->src.sys_errno != 0)
				return read_failed(r, n, err);
			/* No newline yet: a provider still writing it. */
			r->skip_from = r->off;
			r->skip_to = r->off += n;
			r->torn = 1;
			return ex_fail(err, EXR_DAMAGED, r->skip_from,
			    "line %llu: partial last line (no newline)",
			    (unsigned long long)r->line + 1);
		}
		len = (size_t)(nl - p);
		memset(ln, 0, sizeof(*ln));
		ln->line = ++r->line;
		ln->off = r->off;
		ln->end = r->off += len + 1;
		while (len > 0 && (is_blank(p[len - 1]) || p[len - 1] == '\r'))
			len--;
		if (len == 0)
			continue;	/* a blank line holds no sample */
		if ((why = parse_line(p, len, ln)) == NULL)
			return EXR_OK;
		r->skip_from = ln->off;
		r->skip_to = r->off;
		return ex_fail(err, EXR_DAMAGED, ln->off, "line %llu: %s",
		    (unsigned long long)ln->line, why);
	}
}

int
stream_dropped(struct ex_err *err, const struct stream_line *ln,
    enum stream_verdict v, uint64_t last_ns)
{
	return ex_fail(err, EXR_DAMAGED, ln->off, "line %llu: timestamp %llu "
	    "%s the series' last (%llu): sample dropped",
	    (unsigned long long)ln->line, (unsigned long long)ln->ts_us,
	    v == SV_DUPLICATE ? "repeats" : "goes back before",
	    (unsigned long long)(last_ns / 1000));
}

int
stream_underflow(const struct stream_provider *p, struct stream_series *s,
    const struct stream_line *ln, char *msg, size_t n)
{
	if (p->conv != SC_ENERGY || ln->reading > 1)
		return 0;
	msg[0] = '\0';
	if (s->underflows++ == 0)
		snprintf(msg, n, "line %llu: a reading of %llu uJ, at or below "
		    "the counter's resolution (GMT calls it an underflow and "
		    "refuses the file): kept as read; later ones in this "
		    "series are counted, not listed",
		    (unsigned long long)ln->line,
		    (unsigned long long)ln->reading);
	return 1;
}

/* reading (uW or W) over dt_ns, in uJ; -1 if it does not fit. */
static int
power_to_uj(enum stream_conv c, uint64_t reading, uint64_t dt_ns,
    uint64_t *uj)
{
	unsigned __int128 v = (unsigned __int128)reading * (dt_ns / 1000);

	if (c == SC_POWER_UW)
		v /= 1000000;
	if (v > INT64_MAX)
		return -1;
	*uj = (uint64_t)v;
	return 0;
}

void
stream_series_resume(struct stream_series *s)
{
	s->seen = 1;
	s->ngaps = 0;
	if (s->gap_ns != 0)
		s->gaps[s->ngaps++] = s->gap_ns;
}

/* Add a gap to the series' latest; the interval is their median. */
static void
note_gap(struct stream_series *s, uint64_t gap)
{
	uint64_t sorted[STREAM_GAPS], v;
	int i, j, n;

	if (s->ngaps == STREAM_GAPS) {
		memmove(s->gaps, s->gaps + 1, sizeof(s->gaps[0]) *
		    (STREAM_GAPS - 1));
		s->ngaps--;
	}
	s->gaps[s->ngaps++] = gap;
	n = s->ngaps;
	for (i = 0; i < n; i++) {	/* insertion sort: nine at most */
		v = s->gaps[i];
		for (j = i; j > 0 && sorted[j - 1] > v; j--)
			sorted[j] = sorted[j - 1];
		sorted[j] = v;
	}
	s->gap_ns = sorted[(n - 1) / 2];
}

enum stream_verdict
stream_apply(const struct stream_provider *p, struct stream_series *s,
    const struct stream_line *ln, struct stream_sample *out)
{
	uint64_t ts = ln->ts_us * 1000, last = s->last_ts_ns, gap = 0;
	int contiguous = 0;

	memset(out, 0, sizeof(*out));
	out->ts_ns = ts;
	if (last != 0 && ts < last)
		return SV_BACKWARDS;
	if (last != 0 && ts == last)
		return SV_DUPLICATE;
	if (p->since_boot && !s->seen) {
		s->seen = 1;
		s->last_ts_ns = ts;
		return SV_OPENS;
	}
	if (last != 0) {
		gap = ts - last;
		if (s->gap_ns != 0)
			contiguous = gap <= s->gap_ns + s->gap_ns / 2;
		else
			contiguous = s->seen;	/* a file's first gap */
		if (!contiguous && s->seen) {
			out->missing = (gap + s->gap_ns / 2) / s->gap_ns - 1;
			if (out->missing == 0)
				out->missing = 1;
			out->gap_from_ns = last;
		}
		/* Only gaps inside a file say how often it samples. */
		if (s->seen)
			note_gap(s, gap);
	}
	s->seen = 1;
	s->last_ts_ns = ts;
	if (p->end_stamped) {
		out->t1_ns = ts;
		out->has_t1 = 1;
		if (contiguous) {
			out->t0_ns = last;
			out->has_t0 = 1;
		} else if (s->gap_ns != 0 && s->gap_ns <= ts) {
			out->t0_ns = ts - s->gap_ns;	/* one interval */
			out->has_t0 = 1;
		}
	} else {
		out->t0_ns = ts;
		out->has_t0 = 1;
		if (contiguous)
			out->prev_t1_ns = ts;
		else if (last != 0 && s->gap_ns != 0)
			out->prev_t1_ns = last + s->gap_ns;
	}
	switch (p->conv) {
	case SC_POWER_UW:
	case SC_POWER_W:
		out->has_value = out->has_t0 && power_to_uj(p->conv,
		    ln->reading, out->t1_ns - out->t0_ns, &out->value) == 0;
		break;
	default:
		out->value = ln->reading;
		out->has_value = 1;
		break;
	}
	return SV_SAMPLE;
}
