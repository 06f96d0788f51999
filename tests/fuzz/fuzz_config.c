/*
 * libFuzzer target: the configuration file ("make fuzz").
 *
 * Each input is a YAML file read by config_read from memory (fmemopen:
 * no file system).  The oracle beyond "no crash, no sanitizer report":
 * what `extracct config` prints for an accepted file is itself a file
 * that reads back to the same configuration (printed again, the same
 * text), so the printed form never loses or changes a value.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../extract/config.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Read text[n] into c; the result code (err filled). */
static int
load(struct config *c, const void *text, size_t n, struct ex_err *err)
{
	FILE *fp;
	int rc;

	config_defaults(c);
	if ((fp = fmemopen((void *)text, n, "r")) == NULL)
		abort();
	rc = config_read(c, fp, "fuzz.yml", err);
	fclose(fp);
	return rc;
}

/* config_print of c, in a malloc'd buffer (*n bytes). */
static char *
print(const struct config *c, size_t *n)
{
	char *p = NULL;
	FILE *fp;

	if ((fp = open_memstream(&p, n)) == NULL)
		abort();
	config_print(fp, c);
	if (fclose(fp) != 0)
		abort();
	return p;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct config c, again;
	struct ex_err err = { 0 };
	char *one, *two;
	size_t n1, n2;

	if (size == 0)
		return 0;		/* fmemopen refuses a size of 0 */
	if (load(&c, data, size, &err) != EXR_OK)
		return 0;
	one = print(&c, &n1);
	if (load(&again, one, n1, &err) != EXR_OK) {
		fprintf(stderr, "fuzz_config: the printed configuration does "
		    "not read back: %s\n%s", err.reason, one);
		abort();
	}
	two = print(&again, &n2);
	if (n1 != n2 || memcmp(one, two, n1) != 0) {
		fprintf(stderr, "fuzz_config: printed, read back and printed "
		    "again, it changed:\n%s---\n%s", one, two);
		abort();
	}
	free(one);
	free(two);
	return 0;
}
