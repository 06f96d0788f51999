/*
 * Id-to-name maps for dump -v (see idnames.h).  Small: a sorted array per
 * kind, binary search, insertion as names are first asked for.
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../parsers/compat.h"
#include "idnames.h"

#define PATH_PROJECT	"/etc/project"

static struct idname_entry *find(struct idnames *m, enum idkind k,
		    uint32_t id, size_t *slot);
static int	add(struct idnames *m, enum idkind k, uint32_t id,
		    const char *name);
static char	*system_name(enum idkind k, uint32_t id);

void
idnames_init(struct idnames *m)
{
	memset(m, 0, sizeof(*m));
}

void
idnames_release(struct idnames *m)
{
	size_t i;
	int k;

	for (k = 0; k < ID_NKINDS; k++) {
		for (i = 0; i < m->n[k]; i++)
			free(m->e[k][i].name);
		free(m->e[k]);
	}
	memset(m, 0, sizeof(*m));
}

int
idnames_load(struct idnames *m, enum idkind k, const char *path,
    struct ex_err *err)
{
	struct stat st;
	FILE *fp;
	int fd, rc;

	/*
	 * Not blocking on a FIFO (ingest reads the host's files by
	 * default, report and dump any named): only a regular file.
	 */
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1) {
		rc = ex_fail(err, EXR_IO, 0, "%s", strerror(errno));
		if (err != NULL)
			err->sys_errno = errno;
		return rc;
	}
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode)) {
		close(fd);
		return ex_fail(err, EXR_IO, 0, "not a regular file");
	}
	if (fcntl(fd, F_SETFL, 0) == -1 || (fp = fdopen(fd, "r")) == NULL) {
		rc = ex_fail(err, EXR_IO, 0, "%s", strerror(errno));
		close(fd);
		return rc;
	}
	rc = idnames_read(m, k, fp, err);
	fclose(fp);
	return rc;
}

int
idnames_read(struct idnames *m, enum idkind k, FILE *fp, struct ex_err *err)
{
	char *line = NULL, *f[3], *p, *end, *idf;
	size_t cap = 0;
	uint64_t lineno = 0;
	unsigned long long id;
	int i, rc = EXR_OK;

	m->from_file[k] = 1;
	while (getline(&line, &cap, fp) != -1) {
		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		/*
		 * passwd and group: name:x:id:...; project:
		 * name:id:...  Malformed lines are ignored, as
		 * getpwent(3) ignores them.
		 */
		p = line;
		for (i = 0; i < 3 && p != NULL; i++) {
			f[i] = p;
			if ((p = strchr(p, ':')) != NULL)
				*p++ = '\0';
		}
		idf = f[k == ID_PROJECT ? 1 : 2];
		if (i < (k == ID_PROJECT ? 2 : 3))
			continue;
		errno = 0;
		id = strtoull(idf, &end, 10);
		if (idf[0] == '\0' || *end != '\0' || errno != 0 ||
		    id > UINT32_MAX || f[0][0] == '\0')
			continue;
		if (find(m, k, (uint32_t)id, NULL) != NULL)
			continue;	/* first entry wins, as in getpwuid */
		if (add(m, k, (uint32_t)id, f[0]) != EXR_OK) {
			rc = ex_fail(err, EXR_NOMEM, lineno, "no memory");
			break;
		}
	}
	if (rc == EXR_OK && ferror(fp))
		rc = ex_fail(err, EXR_IO, lineno, "read error");
	free(line);
	return rc;
}

const char *
idnames_get(struct idnames *m, enum idkind k, uint32_t id)
{
	struct idname_entry *e;
	char *name;

	if ((e = find(m, k, id, NULL)) != NULL)
		return e->name;
	if (m->from_file[k])
		return NULL;
	if (k == ID_PROJECT) {
		/*
		 * Projects have no libc database on Linux: read the
		 * host's /etc/project once if it has one (Solaris and
		 * illumos do); otherwise projects have no names.
		 */
		if (idnames_load(m, k, PATH_PROJECT, NULL) != EXR_OK)
			m->from_file[k] = 1;
		e = find(m, k, id, NULL);
		return e != NULL ? e->name : NULL;
	}
	name = system_name(k, id);
	if (add(m, k, id, name) != EXR_OK) {
		free(name);
		return NULL;
	}
	free(name);
	e = find(m, k, id, NULL);
	return e != NULL ? e->name : NULL;
}

/* Binary search; *slot gets the insertion point. */
static struct idname_entry *
find(struct idnames *m, enum idkind k, uint32_t id, size_t *slot)
{
	size_t lo = 0, hi = m->n[k];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->e[k][mid].id == id)
			return &m->e[k][mid];
		if (m->e[k][mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (slot != NULL)
		*slot = lo;
	return NULL;
}

/* Insert id -> a copy of name (name may be NULL: "no name"). */
static int
add(struct idnames *m, enum idkind k, uint32_t id, const char *name)
{
	size_t slot = 0;
	char *copy = NULL;

	if (find(m, k, id, &slot) != NULL)
		return EXR_OK;
	if (name != NULL && (copy = strdup(name)) == NULL)
		return EXR_NOMEM;
	if (m->n[k] == m->cap[k]) {
		size_t ncap = m->cap[k] == 0 ? 32 : m->cap[k] * 2;
		struct idname_entry *ne;

		ne = ex_reallocarray(m->e[k], ncap, sizeof(*ne));
		if (ne == NULL) {
			free(copy);
			return EXR_NOMEM;
		}
		m->e[k] = ne;
		m->cap[k] = ncap;
	}
	memmove(&m->e[k][slot + 1], &m->e[k][slot],
	    (m->n[k] - slot) * sizeof(m->e[k][0]));
	m->e[k][slot].id = id;
	m->e[k][slot].name = copy;
	m->n[k]++;
	return EXR_OK;
}

/* Ask the local databases; returns a malloc'd name or NULL. */
static char *
system_name(enum idkind k, uint32_t id)
{
	char buf[4096];
	struct passwd pw, *pwp = NULL;
	struct group gr, *grp = NULL;

	switch (k) {
	case ID_USER:
		if (getpwuid_r((uid_t)id, &pw, buf, sizeof(buf), &pwp) == 0 &&
		    pwp != NULL)
			return strdup(pw.pw_name);
		return NULL;
	case ID_GROUP:
		if (getgrgid_r((gid_t)id, &gr, buf, sizeof(buf), &grp) == 0 &&
		    grp != NULL)
			return strdup(gr.gr_name);
		return NULL;
	default:
		return NULL;
	}
}
