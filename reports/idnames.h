/*
 * Names for numeric ids in dump -v: users, groups and projects.
 *
 * A log is often read on another host than the one that wrote it, so the
 * maps can come from that host's passwd, group and project files
 * (name:x:id:... lines; project files: name:projid:...); where no file
 * is given the local databases are
 * asked (getpwuid_r, getgrgid_r; projects from /etc/project if present).
 * Lookups are cached; an id without a name gives NULL.
 */
#ifndef IDNAMES_H
#define IDNAMES_H

#include <stdint.h>
#include <stdio.h>

#include "../parsers/exerr.h"

enum idkind { ID_USER, ID_GROUP, ID_PROJECT, ID_NKINDS };

struct idname_entry {
	uint32_t	 id;
	char		*name;		/* NULL: looked up, no name */
};

struct idnames {
	struct idname_entry *e[ID_NKINDS];	/* sorted by id */
	size_t		 n[ID_NKINDS];
	size_t		 cap[ID_NKINDS];
	int		 from_file[ID_NKINDS];	/* 1: only the file counts */
};

void	idnames_init(struct idnames *m);
void	idnames_release(struct idnames *m);

/*
 * Load a passwd or group file (name:x:id:...) or a project file
 * (name:projid:...).  Returns EXR_OK or EXR_IO/EXR_NOMEM.
 */
int	idnames_load(struct idnames *m, enum idkind k, const char *path,
	    struct ex_err *err);

/* The same from an open stream (fp stays open). */
int	idnames_read(struct idnames *m, enum idkind k, FILE *fp,
	    struct ex_err *err);

/* The name for id, or NULL.  The string lives as long as m. */
const char *idnames_get(struct idnames *m, enum idkind k, uint32_t id);

#endif
