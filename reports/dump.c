/*
 * dump: print decoded exacct objects one per line (see dump.h).
 */
#include <arpa/inet.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../parsers/records.h"
#include "dump.h"
#include "fmt.h"

#define NAME_WIDTH	30
#define VALUE_WIDTH	15

static void	value_text(char *buf, size_t n, const struct ex_item *it);
static void	decoded_text(char *buf, size_t n, const struct ex_item *it,
		    int partial, const struct dump_opts *o);
static void	acctflags_text(char *buf, size_t n, uint64_t flags);
static void	wait_text(char *buf, size_t n, uint64_t ws);

/* Small fixed table: output must not depend on /etc/protocols. */
const char *
dump_proto_name(unsigned proto)
{
	switch (proto) {
	case 1:		return "icmp";
	case 2:		return "igmp";
	case 6:		return "tcp";
	case 17:	return "udp";
	case 41:	return "ipv6";
	case 47:	return "gre";
	case 50:	return "esp";
	case 51:	return "ah";
	case 58:	return "ipv6-icmp";
	case 132:	return "sctp";
	}
	return NULL;
}

int
dump_rec(FILE *fp, const struct ex_rec *rec, const struct dump_opts *o)
{
	char name[NAME_WIDTH + 64], value[512], dec[512];
	const char *nm;
	uint32_t id;
	size_t i;
	/* A partial record's process is still running (§6.2). */
	int partial = rec->nitems > 0 &&
	    rec->items[0].tag == (EXT_GROUP | EXD_GROUP_PROC_PARTIAL);

	for (i = 0; i < rec->nitems; i++) {
		const struct ex_item *it = &rec->items[i];
		unsigned indent = it->depth > 25 ? 25 : it->depth;

		/* Local-catalog ids: extracct's own (parsers/local.h). */
		if ((nm = exacct_id_name(it->tag)) == NULL)
			nm = EX_CATALOG(it->tag) == EXC_LOCAL ? "local" :
			    "unknown";
		snprintf(name, sizeof(name), "%*s%s", (int)indent, "", nm);
		value_text(value, sizeof(value), it);
		dec[0] = '\0';
		if (o->verbose)
			decoded_text(dec, sizeof(dec), it, partial, o);
		/* The id with its catalog: a local id reads 1000106. */
		id = it->tag & (EXC_CATALOG_MASK | EXD_DATA_MASK);
		if (dec[0] != '\0')
			fprintf(fp, "%6" PRIx32 "\t%-*s\t%-*s %s\n", id,
			    NAME_WIDTH, name, VALUE_WIDTH, value, dec);
		else
			fprintf(fp, "%6" PRIx32 "\t%-*s\t%s\n", id,
			    NAME_WIDTH, name, value);
	}
	return ferror(fp) ? -1 : 0;
}

static void
value_text(char *buf, size_t n, const struct ex_item *it)
{
	char esc[400], tmp[256];
	double d;
	size_t i, o;

	switch (EX_TYPE(it->tag)) {
	case EXT_GROUP:
		snprintf(buf, n, "[group of %" PRIu32 " object(s)]",
		    it->nobjs);
		return;
	case EXT_UINT32:
		if (EX_CATALOG(it->tag) == EXC_DEFAULT &&
		    (EX_ID(it->tag) == EXD_FLOW_V4_SADDR ||
		    EX_ID(it->tag) == EXD_FLOW_V4_DADDR)) {
			snprintf(buf, n, "%u.%u.%u.%u",
			    (unsigned)(it->u >> 24) & 0xff,
			    (unsigned)(it->u >> 16) & 0xff,
			    (unsigned)(it->u >> 8) & 0xff,
			    (unsigned)it->u & 0xff);
			return;
		}
		/* FALLTHROUGH */
	case EXT_UINT8:
	case EXT_UINT16:
	case EXT_UINT64:
		snprintf(buf, n, "%" PRIu64, it->u);
		return;
	case EXT_DOUBLE:
		memcpy(&d, &it->u, sizeof(d));
		snprintf(buf, n, "%.17g", d);
		return;
	case EXT_STRING:
		rec_copy_string(tmp, sizeof(tmp), it->p, it->n);
		snprintf(buf, n, "\"%s\"", fmt_escape(esc, sizeof(esc), tmp,
		    ESC_QUOTE));
		return;
	case EXT_RAW:
		if (EX_CATALOG(it->tag) == EXC_DEFAULT && it->n == 16 &&
		    (EX_ID(it->tag) == EXD_FLOW_V6_SADDR ||
		    EX_ID(it->tag) == EXD_FLOW_V6_DADDR) &&
		    inet_ntop(AF_INET6, it->p, buf, (socklen_t)n) != NULL)
			return;
		break;
	case EXT_EXACCT_OBJECT:
		if (!(it->flags & EXI_OPAQUE)) {
			snprintf(buf, n, "[embedded object, %zu bytes]", it->n);
			return;
		}
		break;
	}
	/* RAW, and embedded objects that do not decode: a hex preview. */
	o = (size_t)snprintf(buf, n, "%s[%zu bytes]",
	    EX_TYPE(it->tag) == EXT_RAW ? "" : "undecodable object ", it->n);
	for (i = 0; i < it->n && i < 16 && o + 4 < n; i++)
		o += (size_t)snprintf(buf + o, n - o, " %02x", it->p[i]);
	if (it->n > 16 && o + 4 < n)
		snprintf(buf + o, n - o, " ...");
}

int
dump_proc_fields(FILE *fp, const struct ex_proc *p, int version,
    int big_endian, const struct dump_opts *o)
{
	char dec[256], esc[4 * sizeof(p->command)];
	int f;

	fprintf(fp, "pacct record at offset %llu: version %d, %s-endian\n",
	    (unsigned long long)p->off, version, big_endian ? "big" :
	    "little");
	for (f = 0; f < PROC_NFIELDS; f++) {
		const char *name = proc_fields[f].name;

		if (!REC_HAS(p, f))
			continue;
		dec[0] = '\0';
		if (f == PROC_COMMAND) {
			fprintf(fp, "\t%-20s\t\"%s\"\n", name,
			    fmt_escape(esc, sizeof(esc), p->command, ESC_QUOTE));
			continue;
		}
		if (o->verbose) {
			const char *nm = NULL;

			if (f == PROC_UID)
				nm = idnames_get(o->names, ID_USER,
				    (uint32_t)p->v[f]);
			else if (f == PROC_GID)
				nm = idnames_get(o->names, ID_GROUP,
				    (uint32_t)p->v[f]);
			else if (f == PROC_START_NS || f == PROC_FINISH_NS)
				fmt_datetime(dec, sizeof(dec),
				    (int64_t)(p->v[f] / 1000000000u));
			else if (f == PROC_ACCTFLAGS)
				acctflags_text(dec, sizeof(dec), p->v[f]);
			else if (f == PROC_WAIT_STATUS)
				wait_text(dec, sizeof(dec), p->v[f]);
			else if ((f == PROC_TTY_MAJOR || f == PROC_TTY_MINOR) &&
			    p->v[f] == 0xffffffffu)
				nm = "none";
			if (nm != NULL)
				fmt_escape(dec, sizeof(dec), nm, ESC_SPACE);
		}
		if (dec[0] != '\0')
			fprintf(fp, "\t%-20s\t%-15llu %s\n", name,
			    (unsigned long long)p->v[f], dec);
		else
			fprintf(fp, "\t%-20s\t%llu\n", name,
			    (unsigned long long)p->v[f]);
	}
	return ferror(fp) ? -1 : 0;
}

/* The -v column: meaning of well-known values. */
static void
decoded_text(char *buf, size_t n, const struct ex_item *it, int partial,
    const struct dump_opts *o)
{
	const char *nm = NULL;
	uint32_t id = EX_ID(it->tag);

	buf[0] = '\0';
	if (EX_CATALOG(it->tag) != EXC_DEFAULT ||
	    EX_TYPE(it->tag) == EXT_GROUP || EX_TYPE(it->tag) == EXT_STRING ||
	    EX_TYPE(it->tag) == EXT_RAW ||
	    EX_TYPE(it->tag) == EXT_EXACCT_OBJECT ||
	    EX_TYPE(it->tag) == EXT_DOUBLE)
		return;
	switch (id) {
	case EXD_PROC_UID:
	case EXD_FLOW_UID:
		nm = idnames_get(o->names, ID_USER, (uint32_t)it->u);
		break;
	case EXD_PROC_GID:
		nm = idnames_get(o->names, ID_GROUP, (uint32_t)it->u);
		break;
	case EXD_PROC_PROJID:
	case EXD_TASK_PROJID:
	case EXD_FLOW_PROJID:
		nm = idnames_get(o->names, ID_PROJECT, (uint32_t)it->u);
		break;
	case EXD_PROC_START_SEC:
	case EXD_PROC_FINISH_SEC:
	case EXD_TASK_START_SEC:
	case EXD_TASK_FINISH_SEC:
	case EXD_FLOW_CTIME:
	case EXD_FLOW_LSEEN:
		if (it->u <= INT64_MAX)
			fmt_datetime(buf, n, (int64_t)it->u);
		return;
	case EXD_PROC_TTY_MAJOR:
	case EXD_PROC_TTY_MINOR:
		if (it->u == 0xffffffffu)
			nm = "none";
		break;
	case EXD_PROC_ACCT_FLAGS:
		acctflags_text(buf, n, it->u);
		return;
	case EXD_PROC_WAIT_STATUS:
		if (partial)
			snprintf(buf, n, "running");
		else
			wait_text(buf, n, it->u);
		return;
	case EXD_FLOW_PROTOCOL:
		nm = dump_proto_name((unsigned)it->u);
		break;
	}
	/* Names come from files an attacker may have written: escape. */
	if (nm != NULL)
		fmt_escape(buf, n, nm, ESC_SPACE);
}

/* acctflags letters (illumos's exacct ac_flag). */
static void
acctflags_text(char *buf, size_t n, uint64_t flags)
{
	static const struct { uint64_t bit; const char *name; } f[] = {
		{ 0x01, "FORK" }, { 0x02, "SU" }, { 0x08, "CORE" },
		{ 0x10, "XSIG" },
	};
	size_t i, o = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(f) / sizeof(f[0]) && o < n; i++)
		if (flags & f[i].bit)
			o += (size_t)snprintf(buf + o, n - o, "%s%s",
			    o > 0 ? " " : "", f[i].name);
}

/* The wait(2) status word (wait(2)). */
static void
wait_text(char *buf, size_t n, uint64_t ws)
{
	unsigned lo = (unsigned)ws & 0xff, hi = (unsigned)(ws >> 8) & 0xff;

	if (ws > 0xffff)
		snprintf(buf, n, "?");
	else if (ws == 0xffff)
		snprintf(buf, n, "continued");
	else if (lo == 0)
		snprintf(buf, n, "exit %u", hi);
	else if (lo == 0x7f)
		snprintf(buf, n, "stopped, signal %u", hi);
	else if (hi == 0)
		snprintf(buf, n, "signal %u%s", lo & 0x7f,
		    lo & 0x80 ? ", core dumped" : "");
	else
		snprintf(buf, n, "?");
}
