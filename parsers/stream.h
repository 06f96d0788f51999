/*
 * Metric-provider streams: the text logs of the Green Metrics Tool's
 * providers (the Green Metrics Tool's metric providers), one sample a line,
 *
 *	TIMESTAMP READING [DETAIL]
 *
 * TIMESTAMP in microseconds since the epoch, READING a whole number whose
 * meaning depends on the provider, DETAIL a series name (Package_0,
 * DRAM_0...).  A file holds no provider name: GMT writes each provider
 * to PROVIDER.log, and that name (or --provider) says how to read it.
 *
 * Two layers: the reader cuts lines and parses them; the normaliser
 * turns each line of a series into a sample with the interval it covers
 * and its value in the stored unit, by the provider's conventions.
 */
#ifndef STREAM_H
#define STREAM_H

#include <stdint.h>

#include "exerr.h"
#include "source.h"

#define STREAM_DETAIL	64	/* detail names are copied, truncated */
#define STREAM_MAXLINE	4096	/* a longer line is damage */

/* What a reading is, and so how it becomes the stored value. */
enum stream_conv {
	SC_RATIO,	/* busy ratio x 10000 over the interval: kept */
	SC_ENERGY,	/* uJ used in the interval: kept */
	SC_POWER_UW,	/* power in uW: x the interval gives uJ */
	SC_POWER_W,	/* power in W: x the interval gives uJ */
	SC_GAUGE	/* a level at the timestamp (bytes): kept */
};

struct stream_provider {
	const char	*name;		/* GMT's metric name */
	enum stream_conv conv;
	int		 end_stamped;	/* the timestamp ends the interval
					   (else it starts it) */
	int		 since_boot;	/* a file's first line is a since-boot
					   average, not an interval */
	const char	*unit;		/* of the stored value */
};

/* The provider of that name, or NULL. */
const struct stream_provider *stream_provider(const char *name);

/* The provider a file's name gives (GMT: DIR/PROVIDER.log), or NULL. */
const struct stream_provider *stream_provider_of_path(const char *path);

/*
 * The provider of the stream at path: the one named (--provider), else
 * the file name's.  NULL with err saying why (EXR_USAGE) if neither is
 * one extracct knows.
 */
const struct stream_provider *stream_provider_for(const char *path,
	    const char *name, struct ex_err *err);

/* Does this look like a stream (blank lines, then digits and a blank)? */
int	stream_sniff(const uint8_t *p, size_t n);

struct stream_line {
	uint64_t	 ts_us;
	uint64_t	 reading;
	char		 detail[STREAM_DETAIL];	/* "" if none */
	uint64_t	 line;		/* 1-based */
	uint64_t	 off;		/* of the line's first byte */
	uint64_t	 end;		/* after its newline */
};

struct stream_reader {
	struct source	 src;
	uint64_t	 off;		/* the next line starts here */
	uint64_t	 line;		/* lines before off */
	uint64_t	 skip_from, skip_to;	/* the last bad line */
	int		 torn;		/* it is a last line with no newline */
	int		 zeros;		/* it is a run of zero bytes */
};

int	stream_reader_open(struct stream_reader *r, const char *path,
	    struct ex_err *err);
/* As exacct_reader_adopt. */
void	stream_reader_adopt(struct stream_reader *r, const struct source *src);
/* Read bytes[0..len) (not copied; must outlive the reader). */
void	stream_reader_init_mem(struct stream_reader *r, const char *path,
	    const uint8_t *bytes, size_t len);
void	stream_reader_release(struct stream_reader *r);

/*
 * Start reading at byte off, a line boundary the ledger recorded; the
 * lines before it are counted so messages keep their line numbers.
 */
int	stream_seek(struct stream_reader *r, uint64_t off, struct ex_err *err);

/*
 * The next line.  EXR_OK; EXR_EOF; EXR_DAMAGED for a line that is not
 * "TIMESTAMP READING [DETAIL]" of whole numbers (err says line and why;
 * skip_from/skip_to hold it, and the next call goes on after it) or a
 * last line with no newline yet (skip_to is the end of the file: a
 * provider still writing it, so it is left for the next run).  A run of
 * zero bytes is damage of its own (zeros set), and so is the part of a
 * line before one: a line never holds a NUL, and a crash leaves zeros.
 */
int	stream_next(struct stream_reader *r, struct stream_line *ln,
	    struct ex_err *err);

/* One series (provider, detail): what the normaliser keeps. */
#define STREAM_GAPS	9	/* recent gaps the sampling interval is
				   the median of */
struct stream_series {
	uint64_t	 last_ts_ns;	/* the last sample's time; 0: none */
	uint64_t	 gap_ns;	/* the sampling interval; 0: unknown */
	int		 seen;		/* in this file already */
	uint64_t	 gaps[STREAM_GAPS];	/* this file's latest gaps */
	int		 ngaps;
	uint64_t	 underflows;	/* this file's readings <= 1 uJ */
};

/*
 * A series stored by an earlier run of the same file, read on from where
 * it stopped: as if that run had just read its last line (its sampling
 * interval seeds the gaps).
 */
void	stream_series_resume(struct stream_series *s);

enum stream_verdict {
	SV_SAMPLE,	/* *out is a sample */
	SV_OPENS,	/* a since-boot line: it only dates the next one */
	SV_BACKWARDS,	/* before the series' last sample: dropped */
	SV_DUPLICATE	/* at the series' last sample's time: dropped */
};

struct stream_sample {
	uint64_t	 ts_ns;		/* as written, in ns */
	uint64_t	 t0_ns, t1_ns;	/* the interval; see has_t0/has_t1 */
	int		 has_t0, has_t1, has_value;
	uint64_t	 value;		/* in the provider's stored unit */
	uint64_t	 missing;	/* samples missing just before this */
	uint64_t	 gap_from_ns;	/* if missing: the series' last time */
	/* Start-stamped: the series' previous sample ends here (0: no
	 * previous sample, or it is already closed). */
	uint64_t	 prev_t1_ns;
};

/*
 * Apply one line of a series.  The sampling interval is the median of
 * the file's latest gaps (a provider's own jitter is a few percent; GMT
 * rejects 20%).  A gap over 1.5 intervals means samples are missing
 * (GMT's RAPL reader drops a sample whose counter wrapped): the sample
 * then covers one interval before its own time, not the whole gap.
 */
enum stream_verdict stream_apply(const struct stream_provider *p,
	    struct stream_series *s, const struct stream_line *ln,
	    struct stream_sample *out);

/*
 * An energy provider's reading of at most 1 uJ in a sample (GMT's
 * "resolution underflow", for which GMT refuses the whole file): the
 * counter did not move in the interval (RAPL counts in units of 15 or
 * 61 uJ).  extracct keeps the sample as read, since the energy goes to
 * the next interval and the sum stays right, and says so once per
 * series and file.  Returns 1 if the reading is one (s->underflows
 * counts it) with the note in msg, or "" if the series had one before;
 * 0 otherwise.
 */
int	stream_underflow(const struct stream_provider *p,
	    struct stream_series *s, const struct stream_line *ln, char *msg,
	    size_t n);

/*
 * A line the series drops (SV_BACKWARDS, SV_DUPLICATE; last_ns the
 * series' last time): fill err with why, and return EXR_DAMAGED.
 */
int	stream_dropped(struct ex_err *err, const struct stream_line *ln,
	    enum stream_verdict v, uint64_t last_ns);

#endif
