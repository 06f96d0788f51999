/*
 * Reading the configuration with libyaml (see config.h).  The event
 * parser is enough for a flat mapping of scalars, and it gives the line
 * and column of every event for the messages.
 *
 * Each key is one row of the table keys[] below: its name, where it is
 * kept in struct config, its default (as a file would say it), its
 * range or words, and how it is read and printed.  The parser, the
 * defaults (config_defaults reads each row's default with the row's own
 * parser) and config_print only walk the rows, so a key is added, or a
 * default changed, in one place.
 *
 * The schema is one document holding one flat mapping, each key at most
 * once, each value a scalar.  Everything else YAML can say is refused
 * rather than read some way: an alias used to be skipped, so the next
 * key became the value ("database: *s" set the database to the word
 * "output_dir"); a second document or a repeated key silently won over
 * the first; anchors and tags mean nothing here.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <yaml.h>

#include "../reports/fmt.h"
#include "../store/hostid.h"
#include "../store/outfile.h"
#include "config.h"
#include "paths.h"
#include "util.h"
#include "linux/snapcpu.h"

/* snap_cpu's words, in the order of snapcpu.h's SNAPCPU_* (its index). */
static const char *const snapcpu_names[] = { "auto", "ticks", "runtime",
    NULL };

int
snapcpu_parse(const char *s)
{
	int i;

	for (i = 0; snapcpu_names[i] != NULL; i++)
		if (strcmp(s, snapcpu_names[i]) == 0)
			return i;
	return -1;
}

const char *
snapcpu_name(int measure)
{
	return measure >= 0 && measure < 3 ? snapcpu_names[measure] : "?";
}

/* What a string value must be, beyond fitting. */
enum kcheck {
	C_ANY,
	C_NONEMPTY,	/* a file must be named */
	C_ABSOLUTE,	/* cron and systemd run us from anywhere */
	C_ZONE,		/* local, UTC, or a zone in the zoneinfo files */
	C_HOSTID	/* "" or a host identity (store/hostid.h) */
};

struct key;

/*
 * A value s for key k into its field: 0, or -1 with why[n] saying what
 * is wrong, the key's name first ("retention_days: "x" is not ...").
 * The field is written only when s is good.
 */
typedef int	kparse(const struct key *k, const char *s, void *field,
		    char *why, size_t n);
/* "name: VALUE\n", a value kparse reads back as the field's. */
typedef void	kprint(FILE *fp, const struct key *k, const void *field);

/*
 * A key of the file: everything about it is in its row, and the parser,
 * config_defaults and config_print only walk the rows.
 */
struct key {
	const char	*name;
	const char	*def;		/* the default, as a file says it */
	size_t		 off;		/* its field in struct config */
	size_t		 size;		/* and the field's size */
	kparse		*parse;
	kprint		*print;
	uint64_t	 min, max;	/* a number's range */
	enum kcheck	 check;		/* a string's */
	const char *const *words;	/* a word's, NULL-ended: the field
					   (an int) holds the index */
};

static kparse	parse_str, parse_uint, parse_word, parse_wrap,
		    parse_intensity;
static kprint	print_str, print_uint, print_word, print_wrap,
		    print_intensity, print_conninfo;

/*
 * The offset of field, of type t in struct config; a row whose field has
 * another type is a build error (no _Generic association matches), not a
 * value written over its neighbours.  A char array reads as char *.
 */
#define FIELD(field, t) \
	_Generic(((struct config *)0)->field, t: offsetof(struct config, field))
#define FIELD_SIZE(field)	sizeof(((struct config *)0)->field)

/* A string, a whole number in [min, max], one of words. */
#define STR(name, field, def, check) { name, def, FIELD(field, char *), \
	FIELD_SIZE(field), parse_str, print_str, 0, 0, check, NULL }
#define UINT(name, field, def, min, max) { name, def, \
	FIELD(field, uint64_t), FIELD_SIZE(field), parse_uint, print_uint, \
	min, max, C_ANY, NULL }
#define WORD(name, field, def, words) { name, def, FIELD(field, int), \
	FIELD_SIZE(field), parse_word, print_word, 0, 0, C_ANY, words }
/* A key of its own: its own parse and print. */
#define SPECIAL(name, field, t, def, parse, print) { name, def, \
	FIELD(field, t), FIELD_SIZE(field), parse, print, 0, 0, C_ANY, NULL }

static const char *const pacct_words[] = { "leave", "manage", NULL };
static const char *const idle_words[] = { "heartbeat", "always", NULL };
static const char *const rapl_words[] = { "unwrap", "drop", NULL };

/*
 * The keys, in the order config prints them (docs/extracct.yml.example
 * has the same order and explains each).  A default here is the one
 * --help restates where it is a macro (config.h, paths.h).
 */
static const struct key keys[] = {
	STR("spool_dir", spool_dir, PATH_SPOOL, C_ABSOLUTE),
	STR("database", database, PATH_DB, C_NONEMPTY),
	STR("output_dir", output_dir, "", C_ANY),
	STR("pacct_file", pacct_file, PATH_PACCT, C_ANY),
	/* Who keeps process accounting on: the admin (leave: run says
	 * when it went off), or run (manage: switches it back on into the
	 * spool and records the gap). */
	WORD("pacct", pacct_manage, "leave", pacct_words),
	STR("host", host, "", C_ANY),
	STR("host_id", host_id, "", C_HOSTID),
	/* The central server push sends to (libpq's conninfo or URI),
	 * printed with its passwords masked. */
	SPECIAL("central", central, char *, "", parse_str, print_conninfo),
	STR("timezone", timezone, CONFIG_TIMEZONE, C_ZONE),
	UINT("retention_days", retention_days, CONFIG_RETENTION_DAYS, 0,
	    CONFIG_DAYS_MAX),
	UINT("text_retention_days", text_retention_days,
	    CONFIG_TEXT_RETENTION_DAYS, 0, CONFIG_DAYS_MAX),
	UINT("keep_intervals_days", keep_intervals_days, "0", 0,
	    CONFIG_DAYS_MAX),
	UINT("keep_rollups_months", keep_rollups_months, "0", 0, 12000),
	WORD("idle_rows", idle_always, CONFIG_IDLE_ROWS, idle_words),
	UINT("heartbeat_hours", heartbeat_hours, CONFIG_HEARTBEAT_HOURS, 0,
	    CONFIG_HOURS_MAX),
	/* Only "none" so far: a counter that goes down is an anomaly
	 * (NULL and a flag), never unwrapped. */
	SPECIAL("counter_wrap", counter_wrap, char *, "none", parse_wrap,
	    print_wrap),
	STR("acctd_pidfile", acctd_pidfile, PATH_ACCTD_PID, C_ANY),
	/* What acctd --rcvbuf takes. */
	UINT("acctd_rcvbuf", acctd_rcvbuf, CONFIG_ACCTD_RCVBUF,
	    ACCTD_RCVBUF_MIN, ACCTD_RCVBUF_MAX),
	STR("powercap_dir", powercap_dir, PATH_POWERCAP, C_ANY),
	/* RAPL's counter has a known range: unwrap it, or leave the
	 * interval's energy unknown as Scaphandre and GMT do. */
	WORD("rapl_wrap", rapl_drop_wrapped, "unwrap", rapl_words),
	/* Which CPU time snap records: snapcpu.h. */
	WORD("snap_cpu", snap_cpu, "auto", snapcpu_names),
	/* g CO2e per kWh: a number, or none (-1). */
	SPECIAL("carbon_intensity", carbon_intensity, double, "none",
	    parse_intensity, print_intensity),
	STR("carbon_source", carbon_source, "", C_ANY),
	/* This host's CPUs, for util_pct where no snap record says how
	 * many are online (pacct, acctd, exacct, energy logs): 0 none. */
	UINT("cpus", cpus, "0", 0, 1048576),
};

#define NKEYS	(sizeof(keys) / sizeof(keys[0]))

/* The field of key k in c. */
#define KFIELD(c, k)	((char *)(c) + (k)->off)

/*
 * Every key's default, read as the file's value would be: a default is
 * written once, in its row.  (A default the parser refused would leave
 * the field zero; the unit tests read every one.)
 */
void
config_defaults(struct config *c)
{
	char why[CONFIG_STR + 256];
	size_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < NKEYS; i++)
		(void)keys[i].parse(&keys[i], keys[i].def, KFIELD(c, &keys[i]),
		    why, sizeof(why));
}

const char *
config_key(size_t i, const char **def)
{
	if (i >= NKEYS)
		return NULL;
	if (def != NULL)
		*def = keys[i].def;
	return keys[i].name;
}

int
config_set(struct config *c, const char *name, const char *value,
    char *why, size_t n)
{
	size_t i;

	for (i = 0; i < NKEYS; i++)
		if (strcmp(keys[i].name, name) == 0)
			return keys[i].parse(&keys[i], value,
			    KFIELD(c, &keys[i]), why, n);
	snprintf(why, n, "unknown key \"%s\"", name);
	return -1;
}

static int	at(struct ex_err *err, const yaml_event_t *ev,
		    const char *path, const char *fmt, ...)
		    __attribute__((format(printf, 4, 5)));

/* An error at an event: "PATH: line L, column C: WHAT", 1-based. */
static int
at(struct ex_err *err, const yaml_event_t *ev, const char *path,
    const char *fmt, ...)
{
	char what[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return ex_fail(err, EXR_USAGE, 0, "%s: line %zu, column %zu: %s",
	    path, ev->start_mark.line + 1, ev->start_mark.column + 1, what);
}

int
config_zone_check(const char *zone, char *why, size_t n)
{
	const char *dir = getenv("TZDIR");
	char path[CONFIG_STR + 64], magic[4];
	struct stat st;
	int fd, ok;

	/* UTC needs no file: the C library knows it without one. */
	if (strcmp(zone, "local") == 0 || strcmp(zone, "UTC") == 0)
		return 0;
	/* What the C library would read (TZDIR, as glibc has it). */
	if (dir == NULL || dir[0] == '\0')
		dir = PATH_ZONEINFO;
	if (zone[0] == '\0' || zone[0] == '/' || strstr(zone, "..") != NULL) {
		snprintf(why, n, "not a zone name (local, UTC, or a name "
		    "such as Europe/Paris)");
		return -1;
	}
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, zone) >=
	    sizeof(path)) {
		snprintf(why, n, "too long for a zone name");
		return -1;
	}
	/* Non-blocking: a FIFO planted there must not hang us. */
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1) {
		snprintf(why, n, "no such time zone in %s (%s)", dir,
		    strerror(errno));
		return -1;
	}
	ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    read(fd, magic, sizeof(magic)) == (ssize_t)sizeof(magic) &&
	    memcmp(magic, "TZif", 4) == 0;
	close(fd);
	if (!ok) {
		snprintf(why, n, "%s is not a time zone file (TZif)", path);
		return -1;
	}
	return 0;
}

/* Is s a plain decimal: digits, at most one '.', digits after it? */
static int
decimal(const char *s)
{
	size_t i = strspn(s, "0123456789");

	if (i == 0)
		return 0;
	if (s[i] == '.')
		i += 1 + strspn(s + i + 1, "0123456789");
	return s[i] == '\0';
}

static int
parse_str(const struct key *k, const char *s, void *field, char *why,
    size_t n)
{
	char bad[CONFIG_STR + 128];

	if (strlen(s) >= k->size) {
		snprintf(why, n, "%s: longer than %zu bytes", k->name,
		    k->size - 1);
		return -1;
	}
	switch (k->check) {
	case C_ANY:
		break;
	case C_NONEMPTY:
		if (s[0] == '\0') {
			snprintf(why, n, "%s: empty: it must name a file",
			    k->name);
			return -1;
		}
		break;
	case C_ABSOLUTE:
		if (s[0] != '/') {
			snprintf(why, n, "%s: \"%s\" is not an absolute path",
			    k->name, s);
			return -1;
		}
		break;
	case C_ZONE:
		if (config_zone_check(s, bad, sizeof(bad)) != 0) {
			snprintf(why, n, "%s: \"%s\": %s", k->name, s, bad);
			return -1;
		}
		break;
	case C_HOSTID:
		if (s[0] != '\0' && hostid_check(s, bad, sizeof(bad)) != 0) {
			snprintf(why, n, "%s: \"%s\": %s", k->name, s, bad);
			return -1;
		}
		break;
	}
	snprintf(field, k->size, "%s", s);
	return 0;
}

static int
parse_uint(const struct key *k, const char *s, void *field, char *why,
    size_t n)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (s[0] < '0' || s[0] > '9' || *end != '\0' || errno != 0 ||
	    v < k->min || v > k->max) {
		snprintf(why, n, "%s: \"%s\" is not a whole number from %llu "
		    "to %llu", k->name, s, (unsigned long long)k->min,
		    (unsigned long long)k->max);
		return -1;
	}
	*(uint64_t *)field = v;
	return 0;
}

/* One of k's words: "is not a, b or c" when it is none of them. */
static int
parse_word(const struct key *k, const char *s, void *field, char *why,
    size_t n)
{
	size_t i, len;

	for (i = 0; k->words[i] != NULL; i++)
		if (strcmp(s, k->words[i]) == 0) {
			*(int *)field = (int)i;
			return 0;
		}
	len = (size_t)snprintf(why, n, "%s: \"%s\" is not", k->name, s);
	for (i = 0; k->words[i] != NULL && len < n; i++)
		len += (size_t)snprintf(why + len, n - len, "%s%s",
		    i == 0 ? " " : k->words[i + 1] == NULL ? " or " : ", ",
		    k->words[i]);
	return -1;
}

static int
parse_wrap(const struct key *k, const char *s, void *field, char *why,
    size_t n)
{
	if (strcmp(s, "none") != 0) {
		snprintf(why, n, "%s: \"%s\": only none is supported",
		    k->name, s);
		return -1;
	}
	snprintf(field, k->size, "%s", s);
	return 0;
}

static int
parse_intensity(const struct key *k, const char *s, void *field,
    char *why, size_t n)
{
	double v;
	char *end;

	if (strcmp(s, "none") == 0) {
		*(double *)field = -1;
		return 0;
	}
	/* Plain decimals only: strtod also takes 0x1p3 and 1e3. */
	if (decimal(s)) {
		errno = 0;
		v = strtod(s, &end);
		if (*end == '\0' && errno == 0 && v <= 10000) {
			*(double *)field = v;
			return 0;
		}
	}
	snprintf(why, n, "%s: \"%s\" is not grams CO2e per kWh (0 to 10000) "
	    "or none", k->name, s);
	return -1;
}

/*
 * What the schema refuses in any event: an alias, an anchor or a tag.
 * NULL if ev has none.
 */
static const char *
refused(const yaml_event_t *ev)
{
	const yaml_char_t *anchor = NULL, *tag = NULL;

	switch (ev->type) {
	case YAML_ALIAS_EVENT:
		return "an alias (*name): aliases are not allowed";
	case YAML_SCALAR_EVENT:
		anchor = ev->data.scalar.anchor;
		tag = ev->data.scalar.tag;
		break;
	case YAML_SEQUENCE_START_EVENT:
		anchor = ev->data.sequence_start.anchor;
		tag = ev->data.sequence_start.tag;
		break;
	case YAML_MAPPING_START_EVENT:
		anchor = ev->data.mapping_start.anchor;
		tag = ev->data.mapping_start.tag;
		break;
	default:
		break;
	}
	if (anchor != NULL)
		return "an anchor (&name): anchors are not allowed";
	if (tag != NULL)
		return "a tag (!name): tags are not allowed";
	return NULL;
}

int
config_load(struct config *c, const char *path, struct ex_err *err)
{
	struct stat st;
	FILE *fp;
	int rc;

	if ((fp = fopen(path, "re")) == NULL) {
		rc = ex_fail(err, EXR_IO, 0, "%s: %s", path, strerror(errno));
		return rc;
	}
	if (fstat(fileno(fp), &st) == -1) {
		rc = ex_fail(err, EXR_IO, 0, "%s: %s", path, strerror(errno));
		fclose(fp);
		return rc;
	}
	/*
	 * Root obeys it: the database written, the server pushed to, the
	 * pid rotate signals.  So not a file another user wrote, or could
	 * write or swap, as the spool is refused (outfile.h).
	 */
	if ((rc = outfile_trusted("configuration", path, &st, err)) ==
	    EXR_OK)
		rc = config_read(c, fp, path, err);
	/* Whether a password in central: may stay there (push). */
	c->private_file = (st.st_mode & 077) == 0;
	fclose(fp);
	return rc;
}

int
config_read(struct config *c, FILE *fp, const char *path,
    struct ex_err *err)
{
	yaml_parser_t parser;
	yaml_event_t ev, key;
	yaml_mark_t seen[NKEYS];	/* where each key was; line 0: not */
	const char *why;
	char refusal[CONFIG_STR + 256];	/* why a value is refused */
	int rc = EXR_OK, depth = 0, have_key = 0, done = 0, docs = 0;
	size_t i;

	snprintf(c->path, sizeof(c->path), "%s", path);
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_file(&parser, fp);
	memset(&key, 0, sizeof(key));
	memset(seen, 0, sizeof(seen));
	while (!done && rc == EXR_OK) {
		if (!yaml_parser_parse(&parser, &ev)) {
			rc = ex_fail(err, EXR_USAGE, 0, "%s: line %zu, column "
			    "%zu: %s", path, parser.problem_mark.line + 1,
			    parser.problem_mark.column + 1,
			    parser.problem != NULL ? parser.problem :
			    "not YAML");
			break;
		}
		if ((why = refused(&ev)) != NULL) {
			rc = at(err, &ev, path, "%s", why);
			yaml_event_delete(&ev);
			break;
		}
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++docs > 1)
				rc = at(err, &ev, path, "a second document: "
				    "the file holds one mapping");
			break;
		case YAML_MAPPING_START_EVENT:
			if (++depth > 1 || have_key)
				rc = at(err, &ev, path, "%s: expected a plain "
				    "value, not a mapping", have_key ?
				    (const char *)key.data.scalar.value :
				    "the file");
			break;
		case YAML_MAPPING_END_EVENT:
			depth--;
			break;
		case YAML_SEQUENCE_START_EVENT:
			rc = at(err, &ev, path, "%s: expected a plain value, "
			    "not a list", have_key ?
			    (const char *)key.data.scalar.value : "the file");
			break;
		case YAML_SCALAR_EVENT:
			if (depth == 0) {
				rc = at(err, &ev, path, "expected a mapping of "
				    "keys to values");
				break;
			}
			/* "\0" or "\x00" in a quoted scalar: C strings would
			 * end there, "a\0b" becoming "a". */
			if (memchr(ev.data.scalar.value, '\0',
			    ev.data.scalar.length) != NULL) {
				rc = have_key ? at(err, &ev, path, "%s: holds a "
				    "NUL byte; refused rather than cut short "
				    "there",
				    (const char *)key.data.scalar.value) :
				    at(err, &ev, path, "a key holds a NUL byte");
				break;
			}
			if (!have_key) {
				key = ev;
				have_key = 1;
				continue;	/* keep the event: freed below */
			}
			for (i = 0; i < NKEYS; i++)
				if (strcmp(keys[i].name,
				    (const char *)key.data.scalar.value) == 0)
					break;
			if (i == NKEYS)
				rc = at(err, &key, path, "unknown key \"%s\"",
				    (const char *)key.data.scalar.value);
			else if (seen[i].line > 0)
				rc = at(err, &key, path, "%s: given twice "
				    "(first at line %zu, column %zu)",
				    keys[i].name, seen[i].line,
				    seen[i].column);
			else if (keys[i].parse(&keys[i],
			    (const char *)ev.data.scalar.value,
			    KFIELD(c, &keys[i]), refusal, sizeof(refusal)) != 0)
				rc = at(err, &ev, path, "%s", refusal);
			else {
				/* 1-based, as printed */
				seen[i] = key.start_mark;
				seen[i].line++;
				seen[i].column++;
			}
			yaml_event_delete(&key);
			have_key = 0;
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	if (have_key)
		yaml_event_delete(&key);
	yaml_parser_delete(&parser);
	return rc;
}

/*
 * "key: VALUE" with VALUE a YAML double-quoted string that reads back as
 * s: '"' and '\\' escaped, control characters and DEL as \xNN, and the
 * C1 controls (UTF-8 c2 80 to c2 9f, which some terminals obey) as
 * \xNN too, which YAML reads as that code point.  Also what YAML will
 * not take raw (fuzz_config found both): the line and paragraph
 * separators, which YAML 1.1 reads as line breaks (folded to a space),
 * as \L and \P, and U+FFFE and U+FFFF, not characters, as \uFFFE and
 * \uFFFF.  libyaml only takes valid UTF-8, so every other byte is part
 * of a character, kept.
 */
static void
yaml_kv(FILE *fp, const char *key, const char *src)
{
	const unsigned char *s = (const unsigned char *)src;

	fprintf(fp, "%s: \"", key);
	for (; *s != '\0'; s++)
		if (*s == '"' || *s == '\\')
			fprintf(fp, "\\%c", *s);
		else if (*s < 0x20 || *s == 0x7f)
			fprintf(fp, "\\x%02x", *s);
		else if (*s == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f)
			fprintf(fp, "\\x%02x", *++s);
		else if (s[0] == 0xe2 && s[1] == 0x80 &&
		    (s[2] == 0xa8 || s[2] == 0xa9)) {
			fputs(s[2] == 0xa8 ? "\\L" : "\\P", fp);
			s += 2;
		} else if (s[0] == 0xef && s[1] == 0xbf &&
		    (s[2] == 0xbe || s[2] == 0xbf)) {
			fputs(s[2] == 0xbe ? "\\uFFFE" : "\\uFFFF", fp);
			s += 2;
		} else
			putc(*s, fp);
	fputs("\"\n", fp);
}

/*
 * "key: V" with V the shortest plain decimal (no exponent: the schema
 * takes none) that reads back (strtod) as v.  A value the schema took
 * is 0 or at least DBL_MIN, whose digits end within 340 places.
 */
static void
yaml_double(FILE *fp, const char *key, double v)
{
	char buf[400];
	int prec;

	for (prec = 0; prec < 340; prec++) {
		snprintf(buf, sizeof(buf), "%.*f", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fprintf(fp, "%s: %s\n", key, buf);
}

/* Does s hold the word "password", in any case? */
static int
names_password(const char *s)
{
	static const char w[] = "password";
	size_t i;

	for (; *s != '\0'; s++) {
		for (i = 0; w[i] != '\0' && s[i] != '\0' &&
		    (s[i] | 0x20) == w[i]; i++)
			;
		if (w[i] == '\0')
			return 1;
	}
	return 0;
}

/* Append len bytes of s to out[n] (*o of it used), cut where it ends. */
static void
put(char *out, size_t n, size_t *o, const char *s, size_t len)
{
	while (len-- > 0 && *o + 1 < n)
		out[(*o)++] = *s++;
	out[*o] = '\0';
}

static int
hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

/* Does a URI parameter's name (len bytes, %XX decoded as libpq does)
 * name a password? */
static int
uri_key_secret(const char *k, size_t len)
{
	char name[64];
	size_t i = 0;

	while (len > 0 && i + 1 < sizeof(name)) {
		if (k[0] == '%' && len >= 3 && isxdigit((unsigned char)k[1]) &&
		    isxdigit((unsigned char)k[2])) {
			name[i++] = (char)(hexval(k[1]) * 16 + hexval(k[2]));
			k += 3;
			len -= 3;
		} else {
			name[i++] = *k++;
			len--;
		}
	}
	name[i] = '\0';
	/* Too long to be a keyword: hidden, not guessed at. */
	return len > 0 || names_password(name);
}

/* mask_conninfo for a URI; body: what follows "scheme://". */
static void
mask_uri(const char *s, const char *body, char *out, size_t n, size_t *o)
{
	const char *p = body, *at, *colon, *eq, *amp;

	/* user:password@ ends at the first '@' before any '/' (libpq). */
	at = p + strcspn(p, "@/");
	if (*at == '@' && (colon = memchr(p, ':', (size_t)(at - p))) != NULL) {
		put(out, n, o, s, (size_t)(colon + 1 - s));
		put(out, n, o, "***", 3);
		s = p = at;
	}
	if ((p = strchr(p, '?')) == NULL) {
		put(out, n, o, s, strlen(s));
		return;
	}
	put(out, n, o, s, (size_t)(p + 1 - s));
	for (s = p + 1; *s != '\0'; s = amp) {
		amp = s + strcspn(s, "&");
		eq = memchr(s, '=', (size_t)(amp - s));
		if (eq != NULL && uri_key_secret(s, (size_t)(eq - s))) {
			put(out, n, o, s, (size_t)(eq + 1 - s));
			put(out, n, o, "***", 3);
		} else
			put(out, n, o, s, (size_t)(amp - s));
		if (*amp == '&')
			put(out, n, o, amp++, 1);
	}
}

static void	mask_conninfo_at(const char *s, char *out, size_t n,
		    size_t *o);

static const char *const schemes[] = { "postgresql://", "postgres://" };

/* Is the value v..end (quotes and all) itself a connection string, as
 * libpq takes a dbname with an '=' or a URI's scheme? */
static int
nested(const char *v, const char *end)
{
	size_t i, len;

	if (*v == '\'')
		v++;
	if (memchr(v, '=', (size_t)(end - v)) != NULL)
		return 1;
	for (i = 0; i < 2; i++)
		if ((len = strlen(schemes[i])) <= (size_t)(end - v) &&
		    strncmp(v, schemes[i], len) == 0)
			return 1;
	return 0;
}

/* The nested connection string v..end masked, its quotes kept. */
static void
mask_nested(const char *v, const char *end, char *out, size_t n,
    size_t *o)
{
	char inner[CONFIG_STR];
	int quoted = *v == '\'';

	snprintf(inner, sizeof(inner), "%.*s",
	    (int)(end - v - 2 * quoted), v + quoted);
	if (quoted)
		put(out, n, o, "'", 1);
	mask_conninfo_at(inner, out, n, o);
	if (quoted)
		put(out, n, o, "'", 1);
}

/*
 * central: as config prints it: libpq's connection string s with every
 * password's value as *** (the URI's user:***@ and ?password=***, the
 * key=value form's password=***), the rest as it is, into out[n].  A
 * nested connection string (dbname= may hold one) is masked the same
 * way; from anything libpq would not parse, the rest is ***.
 */
static void
mask_conninfo_at(const char *s, char *out, size_t n, size_t *o)
{
	const char *k, *v;
	size_t i, klen;
	char key[64];

	for (i = 0; i < 2; i++)
		if (strncmp(s, schemes[i], strlen(schemes[i])) == 0) {
			mask_uri(s, s + strlen(schemes[i]), out, n, o);
			return;
		}
	/* key = value, key = 'quoted \' value', ... */
	while (*s != '\0') {
		for (k = s; isspace((unsigned char)*k); k++)
			;
		if (*k == '\0')
			break;
		klen = strcspn(k, "= \t\n\r\f\v");
		for (v = k + klen; isspace((unsigned char)*v); v++)
			;
		if (klen == 0 || *v != '=')
			goto rest;
		for (v++; isspace((unsigned char)*v); v++)
			;
		put(out, n, o, s, (size_t)(v - s));
		snprintf(key, sizeof(key), "%.*s", (int)klen, k);
		s = v;
		if (*s == '\'') {
			for (s++; *s != '\0' && *s != '\''; s++)
				if (*s == '\\' && s[1] != '\0')
					s++;
			if (*s == '\0') {	/* unclosed: no end to show */
				put(out, n, o, "***", 3);
				return;
			}
			s++;
		} else
			for (; *s != '\0' && !isspace((unsigned char)*s); s++)
				if (*s == '\\' && s[1] != '\0')
					s++;
		if (klen >= sizeof(key) || names_password(key))
			put(out, n, o, "***", 3);
		else if (strcmp(key, "dbname") == 0 && nested(v, s))
			mask_nested(v, s, out, n, o);
		else
			put(out, n, o, v, (size_t)(s - v));
	}
	put(out, n, o, s, strlen(s));
	return;
rest:
	put(out, n, o, s, (size_t)(k - s));
	put(out, n, o, "***", 3);
}

static void
mask_conninfo(const char *s, char *out, size_t n)
{
	size_t o = 0;

	out[0] = '\0';
	mask_conninfo_at(s, out, n, &o);
}

static void
print_str(FILE *fp, const struct key *k, const void *field)
{
	yaml_kv(fp, k->name, field);
}

static void
print_uint(FILE *fp, const struct key *k, const void *field)
{
	fprintf(fp, "%s: %llu\n", k->name,
	    (unsigned long long)*(const uint64_t *)field);
}

static void
print_word(FILE *fp, const struct key *k, const void *field)
{
	int v = *(const int *)field, i;

	for (i = 0; k->words[i] != NULL && i < v; i++)
		;
	fprintf(fp, "%s: %s\n", k->name, v >= 0 && k->words[i] != NULL ?
	    k->words[i] : "?");
}

static void
print_wrap(FILE *fp, const struct key *k, const void *field)
{
	fprintf(fp, "%s: %s\n", k->name, (const char *)field);
}

static void
print_intensity(FILE *fp, const struct key *k, const void *field)
{
	double v = *(const double *)field;

	if (v < 0)
		fprintf(fp, "%s: none\n", k->name);
	else
		yaml_double(fp, k->name, v);
}

/* Where it goes, not the password it may hold. */
static void
print_conninfo(FILE *fp, const struct key *k, const void *field)
{
	char masked[2 * CONFIG_STR];

	mask_conninfo(field, masked, sizeof(masked));
	yaml_kv(fp, k->name, masked);
}

void
config_print(FILE *fp, const struct config *c)
{
	size_t i;

	fputs("# effective configuration (", fp);
	fmt_escape_fp(fp, c->path[0] != '\0' ? c->path :
	    "defaults: no configuration file", 0);
	fputs(")\n", fp);
	for (i = 0; i < NKEYS; i++)
		keys[i].print(fp, &keys[i], (const char *)c + keys[i].off);
}

void
config_hostname(const struct config *cfg, char *buf, size_t n)
{
	if (cfg->host[0] != '\0')
		snprintf(buf, n, "%s", cfg->host);
	else
		local_hostname(buf, n);
}

int
config_zone_name(const char *tz, char *buf, size_t n)
{
	static const char marker[] = "zoneinfo/";
	const char *env = getenv("TZ"), *z;
	char link[512];
	ssize_t len;
	FILE *fp;

	if (tz != NULL && strcmp(tz, "local") != 0) {
		snprintf(buf, n, "%s", tz);
		return 0;
	}
	if (env != NULL && env[0] == ':')
		env++;
	/* Set but empty: glibc reads it as UTC. */
	if (env != NULL && env[0] == '\0' && getenv("TZ")[0] == '\0') {
		snprintf(buf, n, "UTC");
		return 0;
	}
	if (env != NULL && env[0] != '\0' && strcmp(env,
	    "/etc/localtime") != 0) {
		/* A path into the zoneinfo tree names its zone. */
		z = strstr(env, marker);
		snprintf(buf, n, "%s", env[0] == '/' && z != NULL ?
		    z + sizeof(marker) - 1 : env);
		return env[0] == '/' && z == NULL ? -1 : 0;
	}
	if ((len = readlink("/etc/localtime", link, sizeof(link) - 1)) > 0) {
		link[len] = '\0';
		if ((z = strstr(link, marker)) != NULL) {
			snprintf(buf, n, "%s", z + sizeof(marker) - 1);
			return 0;
		}
	}
	if ((fp = fopen("/etc/timezone", "r")) != NULL) {
		if (fgets(buf, (int)n, fp) != NULL) {
			buf[strcspn(buf, " \t\r\n")] = '\0';
			if (buf[0] != '\0') {
				fclose(fp);
				return 0;
			}
		}
		fclose(fp);
	}
	snprintf(buf, n, "%s", tzname[0]);
	return -1;
}
