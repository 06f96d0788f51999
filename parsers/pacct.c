/*
 * The pacct reader (see pacct.h).
 *
 * Record layouts (byte offsets; u16/u32 in the writer's byte order):
 *
 *   v3: 0 flag, 1 version, 2 tty u16, 4 exitcode u32, 8 uid, 12 gid,
 *       16 pid, 20 ppid, 24 btime (u32), 28 etime (IEEE single, AHZ
 *       ticks), 32 utime, 34 stime, 36 mem, 38 io, 40 rw, 42 minflt,
 *       44 majflt, 46 swaps (comp_t), 48 comm[16]
 *   v2: 0 flag, 1 version, 2 uid16, 4 gid16, 6 tty, 8 btime, 12 utime,
 *       14 stime, 16 etime, 18 mem, 20 io, 22 rw, 24 minflt, 26 majflt,
 *       28 swaps (comp_t), 30 ahz u16, 32 exitcode, 36 comm[17],
 *       53 etime_hi u8, 54 etime_lo u16 (comp2_t), 56 uid, 60 gid
 *   v0: as v2 up to comm, without ahz, etime_hi/lo or uid/gid (zero)
 *
 * mem (comp_t) is KiB in every version Linux writes: the size of the
 * address space when the process's last thread exits (kernel/acct.c,
 * vsize / 1024), though the struct calls it the average memory usage.
 */
#include <string.h>

#include "bytes.h"
#include "pacct.h"


static uint16_t
rd16(const uint8_t *p, int be)
{
	return be ? be16(p) : le16(p);
}

static uint32_t
rd32(const uint8_t *p, int be)
{
	return be ? be32(p) : le32(p);
}

uint64_t
pacct_comp_t(uint16_t c)
{
	return (uint64_t)(c & 0x1fff) << (3 * (c >> 13));
}

uint64_t
pacct_comp2_t(uint32_t c)
{
	uint32_t exp = (c >> 19) & 0x1f, mant = c & 0x7ffff;

	if (exp == 0)
		return mant;
	return (uint64_t)(mant | 0x80000) << (exp - 1);
}

uint16_t
pacct_encode_comp_t(uint64_t v)
{
	unsigned exp = 0, rnd = 0;

	/* Shift out 3 bits at a time until the mantissa fits 13 bits,
	 * rounding on the last bit shifted out. */
	while (v > 0x1fff) {
		rnd = (v >> 2) & 1;
		v >>= 3;
		exp++;
	}
	if (rnd && ++v > 0x1fff) {
		v >>= 3;
		exp++;
	}
	if (exp > 7)
		return 0xffff;		/* saturate */
	return (uint16_t)(exp << 13 | v);
}

uint32_t
pacct_encode_comp2_t(uint64_t v)
{
	unsigned exp = 0, rnd = 0;

	if (v < 0x80000)
		return (uint32_t)v;
	/* Normalise to a 20-bit mantissa with its top bit set. */
	while (v > 0xfffff) {
		rnd = v & 1;
		v >>= 1;
		exp++;
	}
	if (rnd && ++v > 0xfffff) {
		v >>= 1;
		exp++;
	}
	exp++;		/* exponent 0 is kept for small values */
	if (exp > 0x1f)
		return (1u << 24) - 1;
	return exp << 19 | (uint32_t)(v & 0x7ffff);
}

uint64_t
pacct_exit_slack(int f, uint64_t v)
{
	uint64_t units = v / 10000000u, step = 1;

	if (f != PROC_CPU_USER_NS && f != PROC_CPU_SYS_NS)
		return 0;
	while (units > 8191) {
		units >>= 3;
		step <<= 3;
	}
	return step == 1 ? 0 : step * 10000000u;
}

uint64_t
pacct_finish_slack(uint64_t elapsed_ns)
{
	return 2 * 10000000u + elapsed_ns / 1024;
}

/* A version byte we read: 0, 2 or 3, either byte order. */
static int
known_version(uint8_t vb)
{
	uint8_t v = vb & 0x7f;

	return v == 0 || v == 2 || v == 3;
}

int
pacct_sniff(const uint8_t *p, size_t n)
{
	size_t i, whole = n / PACCT_RECORD_SIZE;

	if (whole == 0)
		return 0;
	/* Flags use the low 5 bits; the version byte is known; and the
	 * same holds for the next few records. */
	for (i = 0; i < whole && i < 4; i++) {
		const uint8_t *r = p + i * PACCT_RECORD_SIZE;

		if ((r[0] & 0xe0) != 0 || !known_version(r[1]))
			return 0;
	}
	return 1;
}

/* Copy a command name of at most n bytes, maybe without its NUL. */
static void
copy_comm(struct ex_proc *p, const uint8_t *c, size_t n)
{
	rec_copy_string(p->command, sizeof(p->command), c, n);
	p->present |= 1ULL << PROC_COMMAND;
}

static void
set(struct ex_proc *p, int f, uint64_t v)
{
	p->v[f] = v;
	p->present |= 1ULL << f;
}

/* Ticks of 1/ahz s to ns, without overflow for any 64-bit tick count. */
static uint64_t
ticks_ns(uint64_t ticks, uint64_t ahz)
{
	return ticks / ahz * NS + ticks % ahz * NS / ahz;
}

int
pacct_decode(const uint8_t *r, struct ex_proc *p, int *version,
    int *big_endian)
{
	int be = (r[1] & 0x80) != 0, v = r[1] & 0x7f;
	uint64_t ahz = 100, etime_ticks;
	uint32_t tty;

	if (!known_version(r[1]))
		return EXR_DAMAGED;
	memset(p, 0, sizeof(*p));
	p->group = EXD_GROUP_PROC;
	*version = v;
	*big_endian = be;
	set(p, PROC_ACCTFLAGS, r[0]);
	if (v == 3) {
		uint32_t bits = rd32(r + 28, be);
		float etime;

		tty = rd16(r + 2, be);
		set(p, PROC_WAIT_STATUS, rd32(r + 4, be));
		set(p, PROC_UID, rd32(r + 8, be));
		set(p, PROC_GID, rd32(r + 12, be));
		set(p, PROC_PID, rd32(r + 16, be));
		set(p, PROC_PPID, rd32(r + 20, be));
		set(p, PROC_START_NS, (uint64_t)rd32(r + 24, be) * NS);
		/* The kernel stores the elapsed ticks as a float's bits. */
		memcpy(&etime, &bits, sizeof(etime));
		etime_ticks = etime > 0 && etime < 1.8e19f ?
		    (uint64_t)(etime + 0.5f) : 0;
		set(p, PROC_CPU_USER_NS, ticks_ns(pacct_comp_t(rd16(r + 32,
		    be)), ahz));
		set(p, PROC_CPU_SYS_NS, ticks_ns(pacct_comp_t(rd16(r + 34,
		    be)), ahz));
		set(p, PROC_FAULTS_MINOR, pacct_comp_t(rd16(r + 42, be)));
		set(p, PROC_FAULTS_MAJOR, pacct_comp_t(rd16(r + 44, be)));
		set(p, PROC_MEM_KB, pacct_comp_t(rd16(r + 36, be)));
		copy_comm(p, r + 48, 16);
	} else {
		tty = rd16(r + 6, be);
		if (v == 2) {
			ahz = rd16(r + 30, be);
			if (ahz == 0)
				ahz = 100;
			set(p, PROC_UID, rd32(r + 56, be));
			set(p, PROC_GID, rd32(r + 60, be));
			/* The 24-bit elapsed time is the precise one. */
			etime_ticks = pacct_comp2_t((uint32_t)r[53] << 16 |
			    rd16(r + 54, be));
		} else {
			set(p, PROC_UID, rd16(r + 2, be));
			set(p, PROC_GID, rd16(r + 4, be));
			etime_ticks = pacct_comp_t(rd16(r + 16, be));
		}
		set(p, PROC_START_NS, (uint64_t)rd32(r + 8, be) * NS);
		set(p, PROC_CPU_USER_NS, ticks_ns(pacct_comp_t(rd16(r + 12,
		    be)), ahz));
		set(p, PROC_CPU_SYS_NS, ticks_ns(pacct_comp_t(rd16(r + 14,
		    be)), ahz));
		set(p, PROC_FAULTS_MINOR, pacct_comp_t(rd16(r + 24, be)));
		set(p, PROC_FAULTS_MAJOR, pacct_comp_t(rd16(r + 26, be)));
		set(p, PROC_MEM_KB, pacct_comp_t(rd16(r + 18, be)));
		set(p, PROC_WAIT_STATUS, rd32(r + 32, be));
		copy_comm(p, r + 36, 17);
	}
	/*
	 * The start (32-bit seconds) always fits; a nonsense elapsed time
	 * could put the finish past REC_MAX_NS (or wrap ticks_ns): then
	 * the finish is refused, left absent, as exacct's bad times are.
	 */
	if (etime_ticks / ahz < (REC_MAX_NS - p->v[PROC_START_NS]) / NS)
		set(p, PROC_FINISH_NS, p->v[PROC_START_NS] +
		    ticks_ns(etime_ticks, ahz));
	/*
	 * ac_io ("chars transferred") is documented as never filled, yet a
	 * 6.18 kernel writes non-zero values there that are not bytes
	 * moved (a dd of 300 kB showed 5691).  Its meaning unknown, it is
	 * left absent, like ac_rw and ac_swaps.
	 */
	/* Old-encoded device, 0 for none; exacct's "none" is all ones. */
	set(p, PROC_TTY_MAJOR, tty == 0 ? 0xffffffffu : tty >> 8);
	set(p, PROC_TTY_MINOR, tty == 0 ? 0xffffffffu : tty & 0xff);
	return EXR_OK;
}

uint64_t
pacct_run(struct pacct_reader *r)
{
	const uint8_t *p = NULL;
	size_t n, i;

	n = source_have(&r->src, r->off, &p);
	for (i = 0; i + PACCT_RECORD_SIZE <= n; i += PACCT_RECORD_SIZE)
		if (!known_version(p[i + 1]) || (p[i + 1] == 0 &&
		    zero_span(p + i, PACCT_RECORD_SIZE) == PACCT_RECORD_SIZE))
			break;
	if (i == 0)
		return 0;
	r->version = p[i - PACCT_RECORD_SIZE + 1] & 0x7f;
	r->big_endian = (p[i - PACCT_RECORD_SIZE + 1] & 0x80) != 0;
	r->off += i;
	r->counts.objects += i / PACCT_RECORD_SIZE;
	return i / PACCT_RECORD_SIZE;
}

void
pacct_reader_adopt(struct pacct_reader *r, const char *path,
    const struct source *src)
{
	memset(r, 0, sizeof(*r));
	r->path = path;
	r->src = *src;
}

void
pacct_reader_init_mem(struct pacct_reader *r, const char *path,
    const uint8_t *bytes, size_t len)
{
	memset(r, 0, sizeof(*r));
	r->path = path;
	source_init_mem(&r->src, path, bytes, len);
}

void
pacct_reader_release(struct pacct_reader *r)
{
	source_release(&r->src);
}

void
pacct_seek(struct pacct_reader *r, uint64_t off)
{
	r->off = off;	/* a record boundary: the grid is from offset 0 */
}

int
pacct_next(struct pacct_reader *r, struct ex_proc *p, struct ex_err *err)
{
	const uint8_t *rec;
	size_t n;
	int rc;

	/* Most records are in the window already. */
	if ((n = source_have(&r->src, r->off, &rec)) >= PACCT_RECORD_SIZE)
		n = PACCT_RECORD_SIZE;
	else
		n = source_get(&r->src, r->off, PACCT_RECORD_SIZE, &rec);
	if (n == (size_t)-1)
		return ex_fail(err, EXR_NOMEM, r->off, "no memory");
	if (n == 0) {
		if (r->src.sys_errno != 0) {
			rc = ex_fail(err, EXR_IO, r->off, "%s",
			    strerror(r->src.sys_errno));
			if (err != NULL)
				err->sys_errno = r->src.sys_errno;
			return rc;
		}
		return EXR_EOF;
	}
	r->skip_from = r->off;
	r->zeros = 0;
	/* A record of zeros: its version byte first (v0's is 0 too). */
	if (n == PACCT_RECORD_SIZE && rec[1] == 0 && zero_span(rec, n) == n) {
		uint64_t end;

		if ((rc = source_zero_run(&r->src, r->off, PACCT_RECORD_SIZE,
		    &end)) != EXR_OK) {
			rc = ex_fail(err, rc, r->off, "%s", rc == EXR_NOMEM ?
			    "no memory" : strerror(r->src.sys_errno));
			if (err != NULL && rc == EXR_IO)
				err->sys_errno = r->src.sys_errno;
			return rc;
		}
		r->skip_to = r->off = end;
		r->zeros = 1;
		r->counts.damaged++;
		r->counts.damaged_bytes += end - r->skip_from;
		return ex_fail(err, EXR_DAMAGED, r->skip_from, "%llu "
		    SOURCE_ZEROS_WHY, (unsigned long long)(end -
		    r->skip_from));
	}
	if (n < PACCT_RECORD_SIZE) {
		r->skip_to = r->off + n;
		r->off += n;
		r->counts.damaged++;
		r->counts.damaged_bytes += n;
		return ex_fail(err, EXR_DAMAGED, r->skip_from, "torn tail: "
		    "%zu bytes after the last whole 64-byte record", n);
	}
	/* Validating only (p NULL): the version byte is all a record can
	 * get wrong, so nothing is decoded. */
	if (p != NULL)
		rc = pacct_decode(rec, p, &r->version, &r->big_endian);
	else if (known_version(rec[1])) {
		r->version = rec[1] & 0x7f;
		r->big_endian = (rec[1] & 0x80) != 0;
		rc = EXR_OK;
	} else
		rc = EXR_DAMAGED;
	if (rc != EXR_OK) {
		r->skip_to = r->off + PACCT_RECORD_SIZE;
		r->counts.damaged++;
		r->counts.damaged_bytes += PACCT_RECORD_SIZE;
		rc = ex_fail(err, EXR_DAMAGED, r->off, "unknown pacct version "
		    "byte 0x%02x; record skipped", rec[1]);
		r->off += PACCT_RECORD_SIZE;
		return rc;
	}
	if (p != NULL)
		p->off = r->off;
	r->off += PACCT_RECORD_SIZE;
	r->counts.objects++;
	return EXR_OK;
}
