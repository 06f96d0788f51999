/*
 * libFuzzer target for the exacct reader ("make fuzz").
 *
 * Feeds arbitrary bytes through the whole read path: the reader with its
 * resync, the record fillers, and dump -v formatting; then the same bytes
 * through the pacct reader, the taskstats decoder (as a struct and as
 * a netlink datagram), and the metric-provider stream reader and
 * normaliser (as every provider).  Oracles beyond
 * "no crash, no sanitizer report": every object the reader accepts must
 * re-encode to exactly its input bytes, damaged ranges must lie inside
 * the input and never overlap a delivered object, and the reader must
 * always move forward (no hang); check's fast path (READER_TALLY) must
 * hand out exactly what the ordinary reading does, and the ordinary
 * reading's fast fill (rec_skim_fill) the records the decoder and the
 * fillers make.
 *
 * One input in eight (length 1 mod 8) is read through a file (a memfd,
 * written once: no file system) with reads capped at a size taken from
 * the last byte, to drive the window's refill and short-read paths; the
 * others from memory.  (Every input through small reads cost nine
 * tenths of the time in read(2).)
 */
#include <sys/mman.h>

#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/exacct.h"
#include "../../parsers/pacct.h"
#include "../../parsers/reader.h"
#include "../../parsers/records.h"
#include "../../parsers/source.h"
#include "../../parsers/stream.h"
#include "../../reports/dump.h"
#include "../../reports/idnames.h"
#include "../../extract/linux/taskstats.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Two fillings of one record alike: present fields, strings, the rest. */
static int
same_proc(const struct ex_proc *a, const struct ex_proc *b)
{
	int f;

	for (f = 0; f < PROC_NFIELDS; f++)
		if (REC_HAS(a, f) && a->v[f] != b->v[f])
			return 0;
	return a->group == b->group && a->present == b->present &&
	    a->off == b->off && strcmp(a->command, b->command) == 0 &&
	    strcmp(a->hostname, b->hostname) == 0 &&
	    strcmp(a->zone, b->zone) == 0;
}

static int
same_task(const struct ex_task *a, const struct ex_task *b)
{
	int f;

	for (f = 0; f < TASK_NFIELDS; f++)
		if (REC_HAS(a, f) && a->v[f] != b->v[f])
			return 0;
	return a->group == b->group && a->present == b->present &&
	    a->off == b->off && strcmp(a->hostname, b->hostname) == 0 &&
	    strcmp(a->zone, b->zone) == 0;
}

/* Every exit a fuzzed datagram carries: its command must be a string. */
static int
ts_sink(void *arg, const struct ts_exit *e)
{
	(void)arg;
	if (memchr(e->p.command, '\0', sizeof(e->p.command)) == NULL)
		abort();
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	struct exacct_reader r;
	struct ex_err err;
	const struct ex_rec *rec;
	struct rec_counts c = { 0 };
	struct ex_proc p;
	struct ex_task t;
	struct ex_flow f;
	struct idnames names;
	struct dump_opts o = { 1, &names };
	struct exw w;
	uint64_t last_off = 0;
	int rc;

	if (devnull == NULL && (devnull = fopen("/dev/null", "w")) == NULL)
		abort();
	idnames_init(&names);
	/* Empty maps from files: no NSS lookups while fuzzing. */
	names.from_file[ID_USER] = names.from_file[ID_GROUP] =
	    names.from_file[ID_PROJECT] = 1;
	exw_init(&w);
	if (size % 8 == 1) {
		static int fd = -1;
		char path[64];

		if (fd == -1 && (fd = memfd_create("fuzz", 0)) == -1)
			abort();
		if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) !=
		    (ssize_t)size)
			abort();
		source_test_max_read = 1 + data[size - 1] % 97;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		if (exacct_reader_open(&r, path, &err) != EXR_OK)
			abort();
	} else {
		source_test_max_read = 0;
		exacct_reader_init_mem(&r, "fuzz", data, size);
	}
	while ((rc = exacct_next(&r, &rec, &err)) != EXR_EOF) {
		if (rc == EXR_DAMAGED) {
			if (r.skip_from > r.skip_to || r.skip_to > size ||
			    r.skip_from < last_off)
				abort();
			last_off = r.skip_to;
			continue;
		}
		if (rc != EXR_OK)
			abort();
		/* The object's bytes, as the reader saw them. */
		if (rec->off < last_off || rec->len == 0 ||
		    rec->off + rec->len > size)
			abort();
		last_off = rec->off + rec->len;
		exw_reset(&w);
		exw_rec(&w, rec);
		if (exw_error(&w) != EXR_OK || w.len != rec->len ||
		    memcmp(w.buf, data + rec->off, w.len) != 0)
			abort();
		switch (rec_kind(rec)) {
		case REC_PROC:
			proc_fill(&p, rec, &c);
			break;
		case REC_TASK:
			task_fill(&t, rec, &c);
			break;
		case REC_FLOW:
			flow_fill(&f, rec, &c);
			break;
		case REC_SYSLOAD: {
			struct ex_sysload sl;

			sysload_fill(&sl, rec, &c);
			break;
		}
		case REC_LOST: {
			struct ex_lost l;

			lost_fill(&l, rec, &c);
			break;
		}
		case REC_RAPL: {
			struct ex_rapl z;

			rapl_fill(&z, rec, &c);
			break;
		}
		case REC_CGROUP: {
			static struct ex_cgroup g;

			cgroup_fill(&g, rec, &c);
			break;
		}
		case REC_ENERGY: {
			struct ex_energy en = { 0 };
			uint64_t ns;

			energy_fill(&en, rec, &c);
			(void)energy_tick_ns(&en, en.v[EN_USER_TICKS], &ns);
			break;
		}
		default:
			break;
		}
		dump_rec(devnull, rec, &o);
	}
	exacct_reader_release(&r);
	exw_release(&w);

	/* pacct: every whole record decodes or is skipped; nothing else. */
	{
		struct pacct_reader pr;
		uint64_t n = 0, seen = 0;

		pacct_reader_init_mem(&pr, "fuzz", data, size);
		while ((rc = pacct_next(&pr, &p, &err)) != EXR_EOF) {
			if (rc != EXR_OK && rc != EXR_DAMAGED)
				abort();
			if (rc == EXR_OK) {
				n++;
				dump_proc_fields(devnull, &p, pr.version,
				    pr.big_endian, &o);
			}
			if (++seen > size / PACCT_RECORD_SIZE + 1)
				abort();	/* it must move on */
		}
		if (n > size / PACCT_RECORD_SIZE)
			abort();
		pacct_reader_release(&pr);
	}

	/*
	 * check's fast path (READER_TALLY) against the ordinary one: the
	 * same items, kinds, tallies, damaged ranges and messages.
	 */
	{
		struct reader_opts full = { NULL, 0 };
		struct reader_opts tally = { NULL, READER_TALLY };
		const struct reader_item *ia, *it;
		struct ex_err ea, et;
		struct reader rfull, rtally;
		int rt;

		rc = reader_open_mem(&rfull, "fuzz", data, size, &full, &ea);
		rt = reader_open_mem(&rtally, "fuzz", data, size, &tally, &et);
		if (rc != rt)
			abort();
		while (rc == EXR_OK) {
			rc = reader_next(&rfull, &ia, &ea);
			rt = reader_next(&rtally, &it, &et);
			if (rc != rt)
				abort();
			if (rc == EXR_EOF)
				break;
			/* A run of good pacct records is one item there:
			 * the same records, one by one, here. */
			if (rc == EXR_OK && it->what == RD_RECORD &&
			    it->obj == NULL && it->nrec > 1) {
				uint64_t k, end = it->off + PACCT_RECORD_SIZE;

				if (ia->what != RD_RECORD || ia->off != it->off ||
				    ia->end != end)
					abort();
				for (k = 1; k < it->nrec; k++) {
					if (reader_next(&rfull, &ia, &ea) != EXR_OK ||
					    ia->what != RD_RECORD ||
					    ia->off != end)
						abort();
					end = ia->end;
				}
				if (end != it->end)
					abort();
				continue;
			}
			if (ia->what != it->what || ia->off != it->off ||
			    ia->end != it->end)
				abort();
			if (rc == EXR_OK && ia->what == RD_RECORD &&
			    (ia->kind != it->kind || (ia->kind != REC_HEADER &&
			    ia->kind != REC_OTHER && memcmp(&ia->counts,
			    &it->counts, sizeof(ia->counts)) != 0)))
				abort();
			if (rc != EXR_OK && (ea.off != et.off ||
			    strcmp(ea.reason, et.reason) != 0))
				abort();
			if (rc != EXR_OK && rc != EXR_DAMAGED)
				break;
		}
		reader_release(&rfull);	/* also after a failed open */
		reader_release(&rtally);
	}

	/*
	 * The reader's own fast path (rec_skim_fill) against the decoder
	 * and the filler: the same items, and each process or task record
	 * filled the same.
	 */
	{
		struct reader_opts full = { NULL, 0 };
		struct reader_opts objects = { NULL, READER_OBJECTS };
		const struct reader_item *ia, *id;
		static struct ex_proc dp;
		static struct ex_task dt;
		struct rec_counts dc;
		struct ex_err ea, ed;
		struct reader a, d;
		int rd;

		rc = reader_open_mem(&a, "fuzz", data, size, &full, &ea);
		rd = reader_open_mem(&d, "fuzz", data, size, &objects, &ed);
		if (rc != rd)
			abort();
		while (rc == EXR_OK) {
			rc = reader_next(&a, &ia, &ea);
			rd = reader_next(&d, &id, &ed);
			if (rc != rd)
				abort();
			if (rc == EXR_EOF)
				break;
			if (ia->what != id->what || ia->off != id->off ||
			    ia->end != id->end || (rc != EXR_OK &&
			    (ea.off != ed.off || strcmp(ea.reason,
			    ed.reason) != 0)))
				abort();
			if (rc == EXR_OK && ia->what == RD_RECORD &&
			    id->obj != NULL && ia->kind == REC_PROC) {
				memset(&dc, 0, sizeof(dc));
				proc_fill(&dp, id->obj, &dc);
				if (!same_proc(&ia->u.proc, &dp) ||
				    memcmp(&ia->counts, &dc, sizeof(dc)) != 0)
					abort();
			}
			if (rc == EXR_OK && ia->what == RD_RECORD &&
			    id->obj != NULL && ia->kind == REC_TASK) {
				memset(&dc, 0, sizeof(dc));
				task_fill(&dt, id->obj, &dc);
				if (!same_task(&ia->u.task, &dt) ||
				    memcmp(&ia->counts, &dc, sizeof(dc)) != 0)
					abort();
			}
			if (rc != EXR_OK && rc != EXR_DAMAGED)
				break;
		}
		reader_release(&a);
		reader_release(&d);
	}

	/* taskstats: as a struct of any version, and as a netlink
	 * datagram (family id 0x17, whatever the kernel would give). */
	{
		struct ts_exit e;
		int acked = 0, ack_errno = 0;

		(void)ts_decode(data, size, &e);
		(void)ts_parse(data, size, 0x17, 1, &acked, &ack_errno,
		    ts_sink, NULL);
	}
	/* Streams: lines move forward, damage stays inside the input,
	 * a kept sample's interval never runs backwards. */
	{
		static const char *const prov[] = {
			"cpu_utilization_procfs_system",
			"cpu_utilization_mach_system",
			"cpu_energy_rapl_msr_component",
			"psu_energy_ac_mcp_machine",
		};
		const struct stream_provider *sp =
		    stream_provider(prov[size % 4]);
		struct stream_reader sr;
		struct stream_series ser = { 0 };
		struct stream_line ln;
		struct stream_sample x;
		uint64_t last = 0;

		memset(&sr, 0, sizeof(sr));
		source_init_mem(&sr.src, "fuzz", data, size);
		while ((rc = stream_next(&sr, &ln, &err)) != EXR_EOF) {
			if (rc != EXR_OK && rc != EXR_DAMAGED)
				abort();
			if (sr.off <= last || sr.off > size)
				abort();	/* it must move on */
			last = sr.off;
			if (rc == EXR_DAMAGED) {
				if (sr.skip_from >= sr.skip_to ||
				    sr.skip_to > size)
					abort();
				continue;
			}
			if (stream_apply(sp, &ser, &ln, &x) == SV_SAMPLE &&
			    x.has_t0 && x.has_t1 && x.t0_ns > x.t1_ns)
				abort();
		}
		stream_reader_release(&sr);
	}
	idnames_release(&names);
	return 0;
}
