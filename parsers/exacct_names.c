/*
 * Names of exacct data ids, as the illumos exdump demo prints them
 * (illumos <sys/exacct_catalog.h>).  Ids exdump does not know (net,
 * FMA) get names built from their macro names, lower case.
 *
 * Lookup is by the data id within the default catalog, whose names are
 * catalog.h's rows; local-catalog ids (EXC_LOCAL) are extracct's own
 * (local.h).
 */
#include <stddef.h>

#include "exacct.h"
#include "local.h"

struct idname {
	uint32_t	 id;
	const char	*name;
};

#define NAME_ROW(macro, id, name)	{ macro, name },

/* Sorted by id (catalog.h keeps them so): looked up by binary search. */
static const struct idname default_names[] = { EXD_CATALOG(NAME_ROW) };

static const char *
lookup(const struct idname *t, size_t n, uint32_t id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t[mid].id == id)
			return t[mid].name;
		if (t[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* A switch: the rows in any order, and an id given twice fails the build. */
#define LOCAL_NAME_ROW(macro, id, type, name)	case macro: return name;
#define LOCAL_TYPE_ROW(macro, id, type, name)	case macro: return EXT_##type;

const char *
local_id_name(uint32_t id)
{
	switch (id) {
	EXL_CATALOG(LOCAL_NAME_ROW)
	}
	return NULL;
}

uint32_t
local_id_type(uint32_t id)
{
	switch (id) {
	EXL_CATALOG(LOCAL_TYPE_ROW)
	}
	return 0;
}

const char *
exacct_id_name(uint32_t tag)
{
	if (EX_CATALOG(tag) == EXC_LOCAL)
		return local_id_name(EX_ID(tag));
	if (EX_CATALOG(tag) != EXC_DEFAULT)
		return NULL;
	return lookup(default_names,
	    sizeof(default_names) / sizeof(default_names[0]), EX_ID(tag));
}

const char *
exacct_type_name(uint32_t tag)
{
	switch (EX_TYPE(tag)) {
	case EXT_UINT8:		return "uint8";
	case EXT_UINT16:	return "uint16";
	case EXT_UINT32:	return "uint32";
	case EXT_UINT64:	return "uint64";
	case EXT_DOUBLE:	return "double";
	case EXT_STRING:	return "string";
	case EXT_EXACCT_OBJECT:	return "object";
	case EXT_RAW:		return "raw";
	case EXT_GROUP:		return "group";
	}
	return "unknown-type";
}
