/*
 * libFuzzer target: the passwd, group and project parsers ("make fuzz").
 *
 * The first byte picks the kind (user, group, project), the rest is the
 * file, read by idnames_read from memory (fmemopen: no file system).
 * Oracles: the map is sorted by id with no id twice; every name is
 * non-empty, holds no ':' and starts a line of the input followed by a
 * ':'; and idnames_get gives each id its name (from the map only: no
 * system lookup once a file is loaded).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../reports/idnames.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fail(const char *why, const char *name)
{
	fprintf(stderr, "fuzz_idnames: %s: \"%s\"\n", why, name);
	abort();
}

/* Does "name:" start a line of text[n]? */
static int
starts_a_line(const char *text, size_t n, const char *name)
{
	size_t len = strlen(name), i;

	for (i = 0; i + len < n; i++)
		if ((i == 0 || text[i - 1] == '\n') &&
		    memcmp(text + i, name, len) == 0 && text[i + len] == ':')
			return 1;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct idnames m;
	struct ex_err err;
	enum idkind k;
	FILE *fp;
	size_t i;

	if (size < 2)
		return 0;		/* a kind, and a file fmemopen takes */
	k = (enum idkind)(data[0] % ID_NKINDS);
	idnames_init(&m);
	if ((fp = fmemopen((void *)(data + 1), size - 1, "r")) == NULL)
		abort();
	if (idnames_read(&m, k, fp, &err) != EXR_OK)
		fail("read failed", err.reason);
	fclose(fp);
	for (i = 0; i < m.n[k]; i++) {
		const struct idname_entry *e = &m.e[k][i];

		if (e->name == NULL || e->name[0] == '\0')
			fail("an empty name", "");
		if (strchr(e->name, ':') != NULL)
			fail("a name with a colon", e->name);
		if (i > 0 && m.e[k][i - 1].id >= e->id)
			fail("not sorted by id", e->name);
		if (!starts_a_line((const char *)data + 1, size - 1, e->name))
			fail("a name not in the file", e->name);
		if (idnames_get(&m, k, e->id) != e->name)
			fail("idnames_get gives another name", e->name);
	}
	/* An id the file does not have: no name, and no lookup. */
	if (m.n[k] == 0 && idnames_get(&m, k, 0) != NULL)
		fail("a name for an id the file does not have", "0");
	idnames_release(&m);
	return 0;
}
