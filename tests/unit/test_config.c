/*
 * The configuration's key table (extract/config.c): every key has a
 * default its own parser takes, a printer that names it, in the table's
 * order, and a printed value that reads back as the same configuration
 * (the defaults, and each key set to something else).  A key added to
 * the table without a value below fails here, so that it is tested too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../extract/config.h"
#include "check.h"

/* For each key: a good value other than its default, and a bad one with
 * the start of the message it gets. */
static const struct {
	const char	*key, *good, *bad, *why;
} samples[] = {
	{ "spool_dir", "/srv/spool", "spool", "spool_dir: \"spool\" is not "
	    "an absolute path" },
	{ "database", "/srv/x.db", "", "database: empty: it must name a "
	    "file" },
	{ "output_dir", "/srv/out", NULL, NULL },
	{ "pacct_file", "/srv/pacct", NULL, NULL },
	{ "pacct", "manage", "yes", "pacct: \"yes\" is not leave or manage" },
	{ "host", "web\"1\\\x01\x7f\xc2\x85\xe2\x80\xa8", NULL, NULL },
	{ "host_id", "machine-1", "a b", "host_id: \"a b\": " },
	{ "central", "host=db.example dbname=central", NULL, NULL },
	{ "timezone", "UTC", "../x", "timezone: \"../x\": not a zone name" },
	{ "retention_days", "36500", "36501", "retention_days: \"36501\" is "
	    "not a whole number from 0 to 36500" },
	{ "text_retention_days", "0", "-1", "text_retention_days: \"-1\" is "
	    "not a whole number from 0 to 36500" },
	{ "keep_intervals_days", "7", "1.5", "keep_intervals_days: \"1.5\" "
	    "is not a whole number from 0 to 36500" },
	{ "keep_rollups_months", "12000", "12001", "keep_rollups_months: "
	    "\"12001\" is not a whole number from 0 to 12000" },
	{ "idle_rows", "always", "", "idle_rows: \"\" is not heartbeat or "
	    "always" },
	{ "heartbeat_hours", "87600", "87601", "heartbeat_hours: \"87601\" "
	    "is not a whole number from 0 to 87600" },
	{ "counter_wrap", NULL, "wrap", "counter_wrap: \"wrap\": only none "
	    "is supported" },
	{ "acctd_pidfile", "/srv/acctd.pid", NULL, NULL },
	{ "acctd_rcvbuf", "4096", "4095", "acctd_rcvbuf: \"4095\" is not a "
	    "whole number from 4096 to 1073741824" },
	{ "powercap_dir", "/srv/powercap", NULL, NULL },
	{ "rapl_wrap", "drop", "1", "rapl_wrap: \"1\" is not unwrap or "
	    "drop" },
	{ "snap_cpu", "runtime", "fast", "snap_cpu: \"fast\" is not auto, "
	    "ticks or runtime" },
	{ "carbon_intensity", "123.456", "1e3", "carbon_intensity: \"1e3\" "
	    "is not grams CO2e per kWh (0 to 10000) or none" },
	{ "carbon_source", "IEA 2024", NULL, NULL },
	{ "cpus", "64", "1048577", "cpus: \"1048577\" is not a whole number "
	    "from 0 to 1048576" },
};

#define NSAMPLES	(sizeof(samples) / sizeof(samples[0]))

/* config_print of c, malloc'd. */
static char *
print(const struct config *c)
{
	char *p = NULL;
	size_t n;
	FILE *fp;

	if ((fp = open_memstream(&p, &n)) == NULL)
		abort();
	config_print(fp, c);
	if (fclose(fp) != 0)
		abort();
	return p;
}

/* text read onto the defaults into c: its result code. */
static int
reread(struct config *c, const char *text)
{
	struct ex_err err = { 0 };
	FILE *fp;
	int rc;

	config_defaults(c);
	if ((fp = fmemopen((void *)text, strlen(text), "r")) == NULL)
		abort();
	rc = config_read(c, fp, "test.yml", &err);
	fclose(fp);
	if (rc != EXR_OK)
		fprintf(stderr, "config: does not read back: %s\n%s",
		    err.reason, text);
	memset(c->path, 0, sizeof(c->path));
	return rc;
}

/* Printed, read back and printed again: the same struct and text. */
static void
round_trip(const char *what, const struct config *c)
{
	struct config again;
	char *one = print(c), *two;
	int same;

	CHECK(what, reread(&again, one) == EXR_OK);
	two = print(&again);
	same = strcmp(one, two) == 0 && memcmp(c, &again, sizeof(*c)) == 0;
	if (!same)
		fprintf(stderr, "config: %s: printed, read back and printed "
		    "again:\n%s---\n%s", what, one, two);
	CHECK(what, same);
	free(one);
	free(two);
}

/* Line i (0: the comment) of text, without its newline, into buf[n]. */
static const char *
line(const char *text, size_t i, char *buf, size_t n)
{
	for (; i > 0 && text != NULL; i--)
		if ((text = strchr(text, '\n')) != NULL)
			text++;
	if (text == NULL || *text == '\0')
		return NULL;
	snprintf(buf, n, "%.*s", (int)strcspn(text, "\n"), text);
	return buf;
}

void
suite_config(void)
{
	struct config def, c;
	char why[1024], want[64], l1[1200], l2[1200], *text, *deftext;
	const char *name, *dv, *got;
	size_t i, j, s, nkeys;
	int ok;

	config_defaults(&def);
	deftext = print(&def);
	for (nkeys = 0; config_key(nkeys, NULL) != NULL; nkeys++)
		;
	CHECK("config: the table has keys", nkeys > 20);
	for (i = 0; (name = config_key(i, &dv)) != NULL; i++) {
		for (j = 0; j < i; j++)
			CHECK("config: a key is in the table once",
			    strcmp(config_key(j, NULL), name) != 0);
		/* Its default is one its parser takes: "name: DEFAULT" in a
		 * file changes nothing. */
		c = def;
		ok = config_set(&c, name, dv, why, sizeof(why)) == 0 &&
		    memcmp(&c, &def, sizeof(c)) == 0;
		if (!ok)
			fprintf(stderr, "config: %s: the default \"%s\" is not "
			    "the defaults' value: %s\n", name, dv, why);
		CHECK("config: a default reads as the default", ok);
		/* The printer of row i prints key i. */
		snprintf(want, sizeof(want), "%s: ", name);
		got = line(deftext, i + 1, l1, sizeof(l1));
		ok = got != NULL && strncmp(got, want, strlen(want)) == 0;
		if (!ok)
			fprintf(stderr, "config: line %zu is \"%s\", not "
			    "\"%s...\"\n", i + 1, got ? got : "(none)", want);
		CHECK("config: each key printed in the table's order", ok);
	}
	CHECK("config: no more lines than keys",
	    line(deftext, nkeys + 1, l1, sizeof(l1)) == NULL);
	round_trip("config: the defaults round-trip", &def);

	for (i = 0; (name = config_key(i, NULL)) != NULL; i++) {
		for (s = 0; s < NSAMPLES; s++)
			if (strcmp(samples[s].key, name) == 0)
				break;
		if (s == NSAMPLES) {
			fprintf(stderr, "config: key %s has no sample in "
			    "test_config.c\n", name);
			CHECK("config: every key has a sample", 0);
			continue;
		}
		if (samples[s].good != NULL) {
			/* Set, it prints differently on its own line only,
			 * and reads back the same. */
			c = def;
			CHECK("config: a good value is taken",
			    config_set(&c, name, samples[s].good, why,
			    sizeof(why)) == 0);
			text = print(&c);
			for (j = 1; j <= nkeys; j++) {
				ok = strcmp(line(text, j, l1, sizeof(l1)),
				    line(deftext, j, l2, sizeof(l2))) != 0;
				if (ok != (j == i + 1))
					fprintf(stderr, "config: %s set, line "
					    "%zu: \"%s\" (defaults: \"%s\")\n",
					    name, j, l1, l2);
				CHECK("config: a key set changes its line "
				    "alone", ok == (j == i + 1));
			}
			free(text);
			round_trip(name, &c);
		}
		if (samples[s].bad != NULL) {
			c = def;
			ok = config_set(&c, name, samples[s].bad, why,
			    sizeof(why)) == -1 && strncmp(why, samples[s].why,
			    strlen(samples[s].why)) == 0 &&
			    memcmp(&c, &def, sizeof(c)) == 0;
			if (!ok)
				fprintf(stderr, "config: %s: \"%s\" gave \"%s\", "
				    "not \"%s...\"\n", name, samples[s].bad,
				    why, samples[s].why);
			CHECK("config: a bad value is refused, saying why",
			    ok);
		}
	}
	for (s = 0; s < NSAMPLES; s++) {
		for (i = 0; (name = config_key(i, NULL)) != NULL; i++)
			if (strcmp(samples[s].key, name) == 0)
				break;
		CHECK("config: every sample is a key", name != NULL);
	}
	CHECK("config: an unknown key", config_set(&c, "nosuch", "1", why,
	    sizeof(why)) == -1 && strcmp(why, "unknown key \"nosuch\"") == 0);
	free(deftext);
}
