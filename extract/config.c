/*
 * Reading the configuration with libyaml (see config.h).  The event
 * parser is enough for a flat mapping of scalars, and it gives the line
 * and column of every event for the messages.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "config.h"
#include "paths.h"
#include "snapcpu.h"

enum ktype {
	K_STR, K_UINT, K_IDLE, K_WRAP, K_RAPL_WRAP, K_INTENSITY, K_SNAP_CPU
};

struct key {
	const char	*name;
	enum ktype	 type;
	size_t		 off;		/* offset in struct config */
	uint64_t	 max;		/* K_UINT */
};

static const struct key keys[] = {
	{ "spool_dir", K_STR, offsetof(struct config, spool_dir), 0 },
	{ "database", K_STR, offsetof(struct config, database), 0 },
	{ "output_dir", K_STR, offsetof(struct config, output_dir), 0 },
	{ "pacct_file", K_STR, offsetof(struct config, pacct_file), 0 },
	{ "host", K_STR, offsetof(struct config, host), 0 },
	{ "timezone", K_STR, offsetof(struct config, timezone), 0 },
	{ "retention_days", K_UINT, offsetof(struct config, retention_days),
	    36500 },
	{ "text_retention_days", K_UINT,
	    offsetof(struct config, text_retention_days), 36500 },
	{ "idle_rows", K_IDLE, offsetof(struct config, idle_always), 0 },
	{ "heartbeat_hours", K_UINT, offsetof(struct config, heartbeat_hours),
	    87600 },
	{ "counter_wrap", K_WRAP, offsetof(struct config, counter_wrap), 0 },
	{ "acctd_pidfile", K_STR, offsetof(struct config, acctd_pidfile), 0 },
	{ "acctd_rcvbuf", K_UINT, offsetof(struct config, acctd_rcvbuf),
	    1ULL << 30 },
	{ "powercap_dir", K_STR, offsetof(struct config, powercap_dir), 0 },
	{ "rapl_wrap", K_RAPL_WRAP, 0, 0 },
	{ "snap_cpu", K_SNAP_CPU, 0, 0 },
	{ "carbon_intensity", K_INTENSITY, 0, 0 },
	{ "carbon_source", K_STR, offsetof(struct config, carbon_source), 0 },
};

void
config_defaults(struct config *c)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->spool_dir, sizeof(c->spool_dir), "%s", PATH_SPOOL);
	snprintf(c->database, sizeof(c->database), "%s", PATH_DB);
	snprintf(c->pacct_file, sizeof(c->pacct_file), "%s", PATH_PACCT);
	snprintf(c->timezone, sizeof(c->timezone), "local");
	snprintf(c->counter_wrap, sizeof(c->counter_wrap), "none");
	c->retention_days = 14;
	c->text_retention_days = 90;
	c->heartbeat_hours = 24;
	snprintf(c->acctd_pidfile, sizeof(c->acctd_pidfile), "%s",
	    PATH_ACCTD_PID);
	c->acctd_rcvbuf = 16u << 20;
	snprintf(c->powercap_dir, sizeof(c->powercap_dir), "%s",
	    PATH_POWERCAP);
	c->carbon_intensity = -1;
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

static int
set(struct config *c, const struct key *k, const yaml_event_t *v,
    const char *path, struct ex_err *err)
{
	const char *s = (const char *)v->data.scalar.value;
	char *end;
	unsigned long long n;

	switch (k->type) {
	case K_STR:
		if (strlen(s) >= CONFIG_STR)
			return at(err, v, path, "%s: longer than 511 bytes",
			    k->name);
		snprintf((char *)c + k->off, CONFIG_STR, "%s", s);
		return EXR_OK;
	case K_UINT:
		errno = 0;
		n = strtoull(s, &end, 10);
		if (s[0] < '0' || s[0] > '9' || *end != '\0' || errno != 0 ||
		    n > k->max)
			return at(err, v, path, "%s: \"%s\" is not a whole "
			    "number in range", k->name, s);
		*(uint64_t *)((char *)c + k->off) = n;
		return EXR_OK;
	case K_IDLE:
		if (strcmp(s, "heartbeat") != 0 && strcmp(s, "always") != 0)
			return at(err, v, path, "%s: \"%s\" is not heartbeat "
			    "or always", k->name, s);
		c->idle_always = strcmp(s, "always") == 0;
		return EXR_OK;
	case K_WRAP:
		/* Only "none" so far: a counter that goes down is an
		 * anomaly (NULL and a flag), never unwrapped. */
		if (strcmp(s, "none") != 0)
			return at(err, v, path, "%s: \"%s\": only none is "
			    "supported", k->name, s);
		snprintf(c->counter_wrap, sizeof(c->counter_wrap), "%s", s);
		return EXR_OK;
	case K_RAPL_WRAP:
		/* RAPL's counter has a known range: unwrap it, or leave the
		 * interval's energy unknown as Scaphandre and GMT do. */
		if (strcmp(s, "unwrap") != 0 && strcmp(s, "drop") != 0)
			return at(err, v, path, "%s: \"%s\" is not unwrap or "
			    "drop", k->name, s);
		c->rapl_drop_wrapped = strcmp(s, "drop") == 0;
		return EXR_OK;
	case K_SNAP_CPU:
		/* Which CPU time snap records: snapcpu.h. */
		if ((c->snap_cpu = snapcpu_parse(s)) < 0)
			return at(err, v, path, "%s: \"%s\" is not auto, "
			    "ticks or runtime", k->name, s);
		return EXR_OK;
	case K_INTENSITY:
		/* g CO2e per kWh: a number, or none. */
		if (strcmp(s, "none") == 0) {
			c->carbon_intensity = -1;
			return EXR_OK;
		}
		errno = 0;
		c->carbon_intensity = strtod(s, &end);
		if (s[0] < '0' || s[0] > '9' || *end != '\0' || errno != 0 ||
		    c->carbon_intensity > 10000)
			return at(err, v, path, "%s: \"%s\" is not grams "
			    "CO2e per kWh (0 to 10000) or none", k->name, s);
		return EXR_OK;
	}
	return EXR_OK;
}

int
config_load(struct config *c, const char *path, struct ex_err *err)
{
	FILE *fp;
	int rc;

	if ((fp = fopen(path, "re")) == NULL) {
		rc = ex_fail(err, EXR_IO, 0, "%s: %s", path, strerror(errno));
		return rc;
	}
	rc = config_read(c, fp, path, err);
	fclose(fp);
	return rc;
}

int
config_read(struct config *c, FILE *fp, const char *path,
    struct ex_err *err)
{
	yaml_parser_t parser;
	yaml_event_t ev, key;
	int rc = EXR_OK, depth = 0, have_key = 0, done = 0;
	size_t i;

	snprintf(c->path, sizeof(c->path), "%s", path);
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_file(&parser, fp);
	memset(&key, 0, sizeof(key));
	while (!done && rc == EXR_OK) {
		if (!yaml_parser_parse(&parser, &ev)) {
			rc = ex_fail(err, EXR_USAGE, 0, "%s: line %zu, column "
			    "%zu: %s", path, parser.problem_mark.line + 1,
			    parser.problem_mark.column + 1,
			    parser.problem != NULL ? parser.problem :
			    "not YAML");
			break;
		}
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = 1;
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
			if (!have_key) {
				key = ev;
				have_key = 1;
				continue;	/* keep the event: freed below */
			}
			for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
				if (strcmp(keys[i].name,
				    (const char *)key.data.scalar.value) == 0)
					break;
			if (i == sizeof(keys) / sizeof(keys[0]))
				rc = at(err, &key, path, "unknown key \"%s\"",
				    (const char *)key.data.scalar.value);
			else
				rc = set(c, &keys[i], &ev, path, err);
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
 * A string as a YAML double-quoted scalar that reads back as itself:
 * quote and backslash escaped; what YAML does not allow raw escaped too
 * (which also keeps a hostile value from reaching a terminal raw): the
 * C0 and C1 controls and DEL as \xNN, U+FFFE and U+FFFF as \uFFFE and
 * \uFFFF, and the line and paragraph separators, which YAML 1.1 takes
 * for line breaks (a raw one would be folded to a space), as \L and \P.
 * Other bytes are as read: libyaml accepted them as UTF-8.
 */
static void
print_str(FILE *fp, const char *key, const char *v)
{
	const unsigned char *p;

	fprintf(fp, "%s: \"", key);
	for (p = (const unsigned char *)v; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(fp, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(fp, "\\x%02x", *p);
		else if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
			fprintf(fp, "\\x%02x", p[1]);		/* U+0080..U+009F */
			p++;
		} else if (p[0] == 0xe2 && p[1] == 0x80 &&
		    (p[2] == 0xa8 || p[2] == 0xa9)) {
			fputs(p[2] == 0xa8 ? "\\L" : "\\P", fp);
			p += 2;
		} else if (p[0] == 0xef && p[1] == 0xbf &&
		    (p[2] == 0xbe || p[2] == 0xbf)) {
			fputs(p[2] == 0xbe ? "\\uFFFE" : "\\uFFFF", fp);
			p += 2;
		} else
			putc(*p, fp);
	}
	fputs("\"\n", fp);
}

/* The shortest decimal that reads back (strtod) as v itself. */
static void
print_double(FILE *fp, const char *key, double v)
{
	char buf[40];
	int prec;

	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	snprintf(buf, sizeof(buf), "%.*g", prec, v);
	fprintf(fp, "%s: %s\n", key, buf);
}

void
config_print(FILE *fp, const struct config *c)
{
	fprintf(fp, "# effective configuration (%s)\n", c->path[0] != '\0' ?
	    c->path : "defaults: no configuration file");
	print_str(fp, "spool_dir", c->spool_dir);
	print_str(fp, "database", c->database);
	print_str(fp, "output_dir", c->output_dir);
	print_str(fp, "pacct_file", c->pacct_file);
	print_str(fp, "host", c->host);
	print_str(fp, "timezone", c->timezone);
	fprintf(fp, "retention_days: %llu\n",
	    (unsigned long long)c->retention_days);
	fprintf(fp, "text_retention_days: %llu\n",
	    (unsigned long long)c->text_retention_days);
	fprintf(fp, "idle_rows: %s\n", c->idle_always ? "always" :
	    "heartbeat");
	fprintf(fp, "heartbeat_hours: %llu\n",
	    (unsigned long long)c->heartbeat_hours);
	fprintf(fp, "counter_wrap: %s\n", c->counter_wrap);
	print_str(fp, "acctd_pidfile", c->acctd_pidfile);
	fprintf(fp, "acctd_rcvbuf: %llu\n",
	    (unsigned long long)c->acctd_rcvbuf);
	print_str(fp, "powercap_dir", c->powercap_dir);
	fprintf(fp, "rapl_wrap: %s\n", c->rapl_drop_wrapped ? "drop" :
	    "unwrap");
	fprintf(fp, "snap_cpu: %s\n", snapcpu_name(c->snap_cpu));
	if (c->carbon_intensity < 0)
		fprintf(fp, "carbon_intensity: none\n");
	else
		print_double(fp, "carbon_intensity", c->carbon_intensity);
	print_str(fp, "carbon_source", c->carbon_source);
}
