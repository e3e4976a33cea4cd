#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/attr.h"
#include "core/bytes.h"
#include "core/feature.h"
#include "core/fields.h"
#include "core/names.h"
#include "core/perf_file.h"
#include "core/record.h"
#include "core/session.h"
#include "core/text.h"

#ifndef PERF_SAMPLE_BRANCH_COUNTERS
#define PERF_SAMPLE_BRANCH_COUNTERS	(1ULL << 19)
#endif
#define MISC_BUILD_ID_SIZE	(1u << 15)	/* perf's, on HEADER_BUILD_ID records */

/* attr flag bits in the order of struct perf_event_attr's bitfield word;
 * precise_ip takes two bits (15 and 16). */
static const char *const attr_flag_names[64] = {
	"disabled", "inherit", "pinned", "exclusive", "exclude_user", "exclude_kernel",
	"exclude_hv", "exclude_idle", "mmap", "comm", "freq", "inherit_stat",
	"enable_on_exec", "task", "watermark", "precise_ip", NULL, "mmap_data",
	"sample_id_all", "exclude_host", "exclude_guest", "exclude_callchain_kernel",
	"exclude_callchain_user", "mmap2", "comm_exec", "use_clockid", "context_switch",
	"write_backward", "namespaces", "ksymbol", "bpf_event", "aux_output", "cgroup",
	"text_poke", "build_id", "inherit_thread", "remove_on_exec", "sigtrap",
};

static const char *const ns_names[] = {
	"net", "uts", "ipc", "pid", "user", "mnt", "cgroup", "time",
};

static const char *const kind_names[] = {
#define X(n, s) s,
	FIELD_KINDS(X)
#undef X
};

const char *
field_kind_name(enum field_kind k)
{
	if ((unsigned)k >= sizeof kind_names / sizeof kind_names[0])
		return "?";
	return kind_names[k];
}

/* ---- small formatting helpers ---- */

struct sbuf {
	char	*p;
	size_t	 n;	/* capacity, NUL included */
	size_t	 len;
};

static void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (b->n == 0 || b->len >= b->n - 1)
		return;
	va_start(ap, fmt);
	k = vsnprintf(b->p + b->len, b->n - b->len, fmt, ap);
	va_end(ap);
	if (k < 0)
		return;
	if ((size_t)k >= b->n - b->len) {
		b->len = b->n - 1;
		if (b->n >= 4)
			memcpy(b->p + b->n - 4, "...", 4);
	} else {
		b->len += (size_t)k;
	}
}

static void
sb_init(struct sbuf *b, char *p, size_t n)
{
	b->p = p;
	b->n = n;
	b->len = 0;
	if (n)
		p[0] = '\0';
}

/* Append s[0..n) escaped with flags (core/text.h); a cut copy ends in "...". */
static void
sb_esc(struct sbuf *b, const char *s, size_t n, unsigned flags)
{
	size_t room, k;

	if (b->n == 0 || b->len >= b->n - 1)
		return;
	room = b->n - b->len;
	k = text_escape(b->p + b->len, room, s, n, flags);
	if (k < room) {
		b->len += k;
		return;
	}
	/* cut: whole units only, then "..." */
	if (room > 4) {
		text_escape(b->p + b->len, room - 3, s, n, flags);
		b->len += strlen(b->p + b->len);
	}
	sb_printf(b, "...");
}

/* A NUL-padded string of at most len bytes, quoted and escaped ('"' and
 * '\\' too). */
static void
sb_str(struct sbuf *b, const uint8_t *p, size_t len, bool quote)
{
	size_t n = strnlen((const char *)p, len);

	if (quote)
		sb_printf(b, "\"");
	sb_esc(b, (const char *)p, n, TEXT_QUOTE);
	if (quote && b->len + 1 < b->n)
		sb_printf(b, "\"");
}

/* A name (an event's) escaped as every name shown. */
static void
sb_name(struct sbuf *b, const char *s)
{
	sb_esc(b, s, strlen(s), 0);
}

static void
sb_hex(struct sbuf *b, const uint8_t *p, size_t len, size_t max)
{
	for (size_t i = 0; i < len && i < max; i++)
		sb_printf(b, "%02x", p[i]);
	if (len > max)
		sb_printf(b, "...");
}

/* CPU list of a perf_record_cpu_map_data at p (len bytes) as "0-3,5". */
static bool
sb_cpu_map(struct sbuf *b, const uint8_t *p, size_t len, bool swap)
{
	uint16_t type, nr;
	int64_t run_start = -2, prev = -2;
	bool first = true;

	if (len < 2)
		return false;
	type = rd16(p, swap);
#define ADD_CPU(cpu) do { \
		int64_t c_ = (cpu); \
		if (c_ == prev + 1 && prev >= 0) { prev = c_; break; } \
		if (run_start >= 0 || run_start == -1) { \
			sb_printf(b, "%s%" PRId64, first ? "" : ",", run_start); \
			if (prev != run_start) sb_printf(b, "-%" PRId64, prev); \
			first = false; \
		} \
		run_start = prev = c_; \
	} while (0)
	switch (type) {
	case 0:	/* PERF_CPU_MAP__CPUS */
		if (len < 4)
			return false;
		nr = rd16(p + 2, swap);
		if ((size_t)nr * 2 > len - 4)
			return false;
		for (unsigned i = 0; i < nr; i++) {
			uint16_t c = rd16(p + 4 + 2 * i, swap);

			ADD_CPU(c == 0xffff ? -1 : (int64_t)c);
		}
		break;
	case 1: {	/* PERF_CPU_MAP__MASK */
		uint16_t ls;
		size_t off;

		if (len < 6)
			return false;
		nr = rd16(p + 2, swap);
		ls = rd16(p + 4, swap);
		if (ls != 4 && ls != 8)
			return false;
		off = ls == 4 ? 6 : 10;
		if (len < off || (size_t)nr * ls > len - off)
			return false;
		for (unsigned i = 0; i < nr; i++) {
			uint64_t m = ls == 4 ? rd32(p + off + 4 * i, swap) : rd64(p + off + 8 * i, swap);

			for (unsigned bit = 0; bit < 8u * ls; bit++)
				if (m & (UINT64_C(1) << bit))
					ADD_CPU((int64_t)i * 8 * ls + bit);
		}
		break;
	}
	case 2: {	/* PERF_CPU_MAP__RANGE_CPUS */
		uint16_t start, end;

		if (len < 8)
			return false;
		start = rd16(p + 4, swap);
		end = rd16(p + 6, swap);
		if (p[2])
			ADD_CPU(-1);
		for (uint32_t c = start; c <= end; c++)
			ADD_CPU(c);
		break;
	}
	default:
		return false;
	}
	if (run_start >= 0 || run_start == -1) {
		sb_printf(b, "%s%" PRId64, first ? "" : ",", run_start);
		if (prev != run_start)
			sb_printf(b, "-%" PRId64, prev);
	} else if (first) {
		sb_printf(b, "(empty)");
	}
#undef ADD_CPU
	return true;
}

static const char *
reg_name(const struct session *s, unsigned bit, char *tmp, size_t n)
{
	static const char *const x86[] = {
		"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
		"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
	};
	static const char *const arm[] = {
		"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "fp",
		"ip", "sp", "lr", "pc",
	};
	const char *arch = s ? s->feat.arch : NULL;

	if (arch == NULL || strcmp(arch, "x86_64") == 0 || strcmp(arch, "x86") == 0 ||
	    (arch[0] == 'i' && strstr(arch, "86") != NULL)) {
		if (bit < 24)
			return x86[bit];
		if (bit >= 32 && bit < 64) {
			snprintf(tmp, n, "XMM%u%s", (bit - 32) / 2, bit & 1 ? ".hi" : "");
			return tmp;
		}
	} else if (strcmp(arch, "aarch64") == 0 || strcmp(arch, "arm64") == 0) {
		if (bit < 29) {
			snprintf(tmp, n, "x%u", bit);
			return tmp;
		}
		if (bit <= 32)
			return (const char *[]){ "x29", "lr", "sp", "pc" }[bit - 29];
	} else if (strncmp(arch, "arm", 3) == 0) {
		if (bit < 16)
			return arm[bit];
	}
	snprintf(tmp, n, "r%u", bit);
	return tmp;
}

static const char *
callchain_context(uint64_t v)
{
	switch (v) {
	case (uint64_t)-32: return "PERF_CONTEXT_HV";
	case (uint64_t)-128: return "PERF_CONTEXT_KERNEL";
	case (uint64_t)-512: return "PERF_CONTEXT_USER";
	case (uint64_t)-2048: return "PERF_CONTEXT_GUEST";
	case (uint64_t)-2176: return "PERF_CONTEXT_GUEST_KERNEL";
	case (uint64_t)-2560: return "PERF_CONTEXT_GUEST_USER";
	default: return NULL;
	}
}

/* ---- the describer ---- */

struct fctx {
	const struct session	*s;
	const struct rec	*r;
	field_fn		 fn;
	void			*arg;
	const uint8_t		*p;
	bool			 swap;
	uint32_t		 pos;		/* next byte to describe */
	uint32_t		 end;		/* end of the body: the trailer starts here */
	bool			 damaged;
	const char		*why;
	char			 name[FIELD_NAME_MAX];
	char			 val[FIELD_VALUE_MAX];
};

static const char *nm(struct fctx *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static const char *
nm(struct fctx *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->name, sizeof d->name, fmt, ap);
	va_end(ap);
	return d->name;
}

static void
emit(struct fctx *d, uint32_t len, enum field_kind kind, uint64_t num, const char *name,
    const char *val)
{
	struct field f;

	if (len == 0)
		return;
	f.off = d->pos;
	f.len = len;
	f.kind = kind;
	f.name = name;
	f.value = val ? val : "";
	f.num = num;
	d->fn(d->arg, &f);
	d->pos += len;
}

static uint32_t
left(const struct fctx *d)
{
	return d->pos < d->end ? d->end - d->pos : 0;
}

static bool
room(struct fctx *d, uint64_t n, const char *what)
{
	if (d->damaged)
		return false;
	if (n <= left(d))
		return true;
	if (!d->damaged) {
		d->damaged = true;
		d->why = what;
	}
	return false;
}

/* Room for nr items of each bytes (no overflow for any nr). */
static bool
room_n(struct fctx *d, uint64_t nr, uint64_t each, const char *what)
{
	if (!d->damaged && nr > left(d) / each) {
		d->damaged = true;
		d->why = what;
	}
	return !d->damaged;
}

static void
bad(struct fctx *d, const char *why)
{
	if (!d->damaged) {
		d->damaged = true;
		d->why = why;
	}
}

enum ifmt { I_DEC, I_SDEC, I_HEX };

static uint64_t
peek(const struct fctx *d, unsigned width)
{
	const uint8_t *q = d->p + d->pos;

	switch (width) {
	case 1: return q[0];
	case 2: return rd16(q, d->swap);
	case 4: return rd32(q, d->swap);
	default: return rd64(q, d->swap);
	}
}

/* An integer field with an optional note after the value. */
static bool
fint_note(struct fctx *d, unsigned width, enum ifmt f, const char *name, uint64_t *out,
    const char *note)
{
	struct sbuf b;
	uint64_t v;

	if (!room(d, width, name))
		return false;
	v = peek(d, width);
	sb_init(&b, d->val, sizeof d->val);
	if (f == I_HEX) {
		sb_printf(&b, "%#" PRIx64, v);
	} else if (f == I_SDEC) {
		int64_t sv = width == 8 ? (int64_t)v : width == 4 ? (int32_t)v :
		    width == 2 ? (int16_t)v : (int8_t)v;

		sb_printf(&b, "%" PRId64, sv);
	} else {
		sb_printf(&b, "%" PRIu64, v);
	}
	if (note && *note)
		sb_printf(&b, " (%s)", note);
	emit(d, width, f == I_HEX ? FIELD_HEX : FIELD_INT, v, name, d->val);
	if (out)
		*out = v;
	return true;
}

static bool
fint(struct fctx *d, unsigned width, enum ifmt f, const char *name, uint64_t *out)
{
	return fint_note(d, width, f, name, out, NULL);
}

#define U64(d, name, out)	fint(d, 8, I_DEC, name, out)
#define X64(d, name, out)	fint(d, 8, I_HEX, name, out)
#define U32(d, name, out)	fint(d, 4, I_DEC, name, out)
#define S32(d, name, out)	fint(d, 4, I_SDEC, name, out)
#define U16(d, name, out)	fint(d, 2, I_DEC, name, out)
#define U8(d, name, out)	fint(d, 1, I_DEC, name, out)

/* A string field of len bytes (len 0 or beyond the body: the rest). */
static void
fstr(struct fctx *d, const char *name, uint32_t len)
{
	struct sbuf b;

	if (d->damaged)
		return;
	if (len == 0 || len > left(d))
		len = left(d);
	if (len == 0)
		return;
	sb_init(&b, d->val, sizeof d->val);
	sb_str(&b, d->p + d->pos, len, true);
	emit(d, len, FIELD_STR, 0, name, d->val);
}

/* A bytes field: value is a hex preview and the length. */
static void
fbytes(struct fctx *d, const char *name, uint64_t len, enum field_kind kind, const char *note)
{
	struct sbuf b;

	if (d->damaged && kind != FIELD_BAD)
		return;
	if (len > left(d))
		len = left(d);
	if (len == 0)
		return;
	sb_init(&b, d->val, sizeof d->val);
	if (kind == FIELD_PAD) {
		bool zero = true;

		for (uint64_t i = 0; i < len; i++)
			zero = zero && d->p[d->pos + i] == 0;
		sb_printf(&b, "%" PRIu64 " byte%s%s", len, len == 1 ? "" : "s", zero ? "" : ", not zero");
	} else {
		sb_hex(&b, d->p + d->pos, (size_t)len, 16);
		sb_printf(&b, " (%" PRIu64 " bytes%s%s)", len, note ? ", " : "", note ? note : "");
	}
	emit(d, (uint32_t)len, kind, 0, name, d->val);
}

/* ---- shared pieces ---- */

static void
f_header(struct fctx *d)
{
	const struct rec *r = d->r;
	const char *tn = record_type_name(r->type);
	struct sbuf b;
	char note[160];
	unsigned cm = r->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	static const char *const modes[8] = {
		"unknown mode", "kernel", "user", "hypervisor", "guest kernel", "guest user",
		"mode 6", "mode 7",
	};

	snprintf(d->val, sizeof d->val, "%u (%s)", r->type, tn ? tn : "unknown type");
	emit(d, 4, FIELD_HEADER, r->type, "header.type", d->val);
	sb_init(&b, note, sizeof note);
	if (r->type == PERF_RECORD_SAMPLE || (r->type < PF_REC_USER_TYPE_START && cm))
		sb_printf(&b, "%s", modes[cm]);
	if (r->misc & (1u << 12))
		sb_printf(&b, "%sproc_map_parse_timeout", b.len ? ", " : "");
	if (r->misc & (1u << 13)) {
		const char *s13 = r->type == PERF_RECORD_COMM ? "comm_exec" :
		    r->type == PERF_RECORD_FORK ? "fork_exec" :
		    r->type == PERF_RECORD_SWITCH || r->type == PERF_RECORD_SWITCH_CPU_WIDE ?
		    "switch_out" : r->type == PERF_RECORD_MMAP || r->type == PERF_RECORD_MMAP2 ?
		    "mmap_data" : "bit13";
		sb_printf(&b, "%s%s", b.len ? ", " : "", s13);
	}
	if (r->misc & (1u << 14)) {
		const char *s14 = r->type == PERF_RECORD_SAMPLE ? "exact_ip" :
		    r->type == PERF_RECORD_SWITCH || r->type == PERF_RECORD_SWITCH_CPU_WIDE ?
		    "switch_out_preempt" : r->type == PERF_RECORD_MMAP2 ? "mmap_build_id" : "bit14";
		sb_printf(&b, "%s%s", b.len ? ", " : "", s14);
	}
	if (r->misc & (1u << 15))
		sb_printf(&b, "%s%s", b.len ? ", " : "",
		    r->type == PF_REC_BUILD_ID ? "build_id_size" : "ext_reserved");
	if (room(d, 2, "header")) {
		sb_init(&b, d->val, sizeof d->val);
		sb_printf(&b, "%#x", r->misc);
		if (note[0])
			sb_printf(&b, " (%s)", note);
		emit(d, 2, FIELD_HEADER, r->misc, "header.misc", d->val);
	}
	if (room(d, 2, "header")) {
		snprintf(d->val, sizeof d->val, "%u", (unsigned)peek(d, 2));
		emit(d, 2, FIELD_HEADER, peek(d, 2), "header.size", d->val);
	}
}

/* read_format values (SAMPLE_READ, PERF_RECORD_READ). */
static void
f_read(struct fctx *d, uint64_t rf, const char *pfx)
{
	uint64_t nr = 1;
	bool group = rf & PERF_FORMAT_GROUP;

	if (group) {
		if (!U64(d, nm(d, "%s.nr", pfx), &nr))
			return;
		if (nr > SAMPLE_MAX_NR) {
			bad(d, "absurd read group count");
			return;
		}
		if (!room(d, nr * 8 * (1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST)),
		    "read values run past the record"))
			return;
	} else if (!U64(d, nm(d, "%s.value", pfx), NULL)) {
		return;
	}
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		U64(d, nm(d, "%s.time_enabled", pfx), NULL);
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		U64(d, nm(d, "%s.time_running", pfx), NULL);
	if (!group) {
		if (rf & PERF_FORMAT_ID)
			U64(d, nm(d, "%s.id", pfx), NULL);
		if (rf & PERF_FORMAT_LOST)
			U64(d, nm(d, "%s.lost", pfx), NULL);
		return;
	}
	for (uint64_t i = 0; i < nr && !d->damaged; i++) {
		U64(d, nm(d, "%s.values[%" PRIu64 "].value", pfx, i), NULL);
		if (rf & PERF_FORMAT_ID)
			U64(d, nm(d, "%s.values[%" PRIu64 "].id", pfx, i), NULL);
		if (rf & PERF_FORMAT_LOST)
			U64(d, nm(d, "%s.values[%" PRIu64 "].lost", pfx, i), NULL);
	}
}

static void
f_regs(struct fctx *d, const char *pfx, uint64_t mask)
{
	uint64_t abi;
	char tmp[16];

	if (!d->damaged && room(d, 8, "regs abi")) {
		abi = peek(d, 8);
		fint_note(d, 8, I_DEC, nm(d, "%s.abi", pfx), NULL,
		    abi == 0 ? "none" : abi == 1 ? "32-bit" : abi == 2 ? "64-bit" : "unknown");
	} else {
		return;
	}
	if (abi == 0)
		return;
	if (!room(d, 8u * (uint64_t)__builtin_popcountll(mask), "registers run past the sample"))
		return;
	for (unsigned bit = 0; bit < 64; bit++)
		if (mask & (UINT64_C(1) << bit))
			X64(d, nm(d, "%s[%s]", pfx, reg_name(d->s, bit, tmp, sizeof tmp)), NULL);
}

/* perf_record_cpu_map_data at the current position, up to the body end. */
static void
f_cpu_map(struct fctx *d, const char *pfx)
{
	static const char *const kinds[] = { "cpus", "mask", "range" };
	uint64_t type, nr, ls;

	if (!room(d, 2, "cpu map type"))
		return;
	type = peek(d, 2);
	fint_note(d, 2, I_DEC, nm(d, "%s.type", pfx), NULL, type < 3 ? kinds[type] : "unknown");
	switch (type) {
	case 0:
		if (!U16(d, nm(d, "%s.nr", pfx), &nr))
			return;
		if (!room_n(d, nr, 2, "cpu list runs past the record"))
			return;
		for (uint64_t i = 0; i < nr; i++)
			fint_note(d, 2, I_DEC, nm(d, "%s.cpu[%" PRIu64 "]", pfx, i), NULL,
			    peek(d, 2) == 0xffff ? "any (-1)" : NULL);
		break;
	case 1:
		if (!U16(d, nm(d, "%s.nr", pfx), &nr) || !U16(d, nm(d, "%s.long_size", pfx), &ls))
			return;
		if (ls != 4 && ls != 8) {
			bad(d, "cpu mask long_size is neither 4 nor 8");
			return;
		}
		if (ls == 8)
			fbytes(d, nm(d, "%s.pad", pfx), 4, FIELD_PAD, NULL);
		if (!room_n(d, nr, ls, "cpu mask runs past the record"))
			return;
		for (uint64_t i = 0; i < nr; i++)
			fint(d, (unsigned)ls, I_HEX, nm(d, "%s.mask[%" PRIu64 "]", pfx, i), NULL);
		break;
	case 2:
		U8(d, nm(d, "%s.any_cpu", pfx), NULL);
		fbytes(d, nm(d, "%s.pad", pfx), 1, FIELD_PAD, NULL);
		U16(d, nm(d, "%s.start_cpu", pfx), NULL);
		U16(d, nm(d, "%s.end_cpu", pfx), NULL);
		break;
	default:
		bad(d, "unknown cpu map type");
		return;
	}
	/* Trailing padding to 8 bytes. */
	fbytes(d, nm(d, "%s.pad", pfx), left(d), FIELD_PAD, NULL);
}

/* ---- SAMPLE ---- */

static const struct pn_attr *
sample_layout(const struct session *s, const struct rec *r)
{
	int a;

	if (s == NULL || s->attrs.n == 0)
		return NULL;
	a = record_attr(s, r);
	if (a >= 0)
		return &s->attrs.v[a];
	if (r->type == PERF_RECORD_SAMPLE && !s->attrs.same_sample_type)
		return NULL;
	return &s->attrs.v[0];
}

static void
f_sample(struct fctx *d)
{
	const struct pn_attr *pa = sample_layout(d->s, d->r);
	const struct perf_event_attr *at;
	uint64_t st, v;

	if (pa == NULL) {
		bad(d, "sample of an unknown event: layout unknown");
		return;
	}
	at = &pa->attr;
	st = at->sample_type;
	if (st & PERF_SAMPLE_IDENTIFIER)
		U64(d, "identifier", NULL);
	if (st & PERF_SAMPLE_IP)
		X64(d, "ip", NULL);
	if (st & PERF_SAMPLE_TID) {
		S32(d, "pid", NULL);
		S32(d, "tid", NULL);
	}
	if (st & PERF_SAMPLE_TIME)
		U64(d, "time", NULL);
	if (st & PERF_SAMPLE_ADDR)
		X64(d, "addr", NULL);
	if (st & PERF_SAMPLE_ID)
		U64(d, "id", NULL);
	if (st & PERF_SAMPLE_STREAM_ID)
		U64(d, "stream_id", NULL);
	if (st & PERF_SAMPLE_CPU) {
		U32(d, "cpu", NULL);
		U32(d, "res", NULL);
	}
	if (st & PERF_SAMPLE_PERIOD)
		U64(d, "period", NULL);
	if (d->damaged)
		return;
	if (st & PERF_SAMPLE_READ) {
		f_read(d, at->read_format, "read");
		if (d->damaged)
			return;
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		if (!U64(d, "callchain.nr", &v))
			return;
		if (v > SAMPLE_MAX_NR) {
			bad(d, "absurd callchain length");
			return;
		}
		if (!room(d, v * 8, "callchain runs past the sample"))
			return;
		for (uint64_t i = 0; i < v; i++)
			fint_note(d, 8, I_HEX, nm(d, "callchain[%" PRIu64 "]", i), NULL,
			    callchain_context(peek(d, 8)));
	}
	if (st & PERF_SAMPLE_RAW) {
		uint64_t padded;

		if (!U32(d, "raw.size", &v))
			return;
		padded = ((v + 4 + 7) & ~UINT64_C(7)) - 4;
		if (!room(d, padded, "raw data runs past the sample"))
			return;
		fbytes(d, "raw.data", v, FIELD_BYTES, NULL);
		fbytes(d, "raw.pad", padded - v, FIELD_PAD, NULL);
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		bool counters = at->branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS;

		if (!U64(d, "branch.nr", &v))
			return;
		if (v > SAMPLE_MAX_NR) {
			bad(d, "absurd branch stack count");
			return;
		}
		if ((at->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) &&
		    !fint(d, 8, I_SDEC, "branch.hw_idx", NULL))
			return;
		if (!room(d, v * (counters ? 32 : 24), "branch stack runs past the sample"))
			return;
		for (uint64_t i = 0; i < v; i++) {
			uint64_t fl;
			char note[64];

			X64(d, nm(d, "branch[%" PRIu64 "].from", i), NULL);
			X64(d, nm(d, "branch[%" PRIu64 "].to", i), NULL);
			fl = peek(d, 8);
			snprintf(note, sizeof note, "%s%s%s%scycles %u",
			    fl & 1 ? "mispred " : "", fl & 2 ? "pred " : "", fl & 4 ? "in_tx " : "",
			    fl & 8 ? "abort " : "", (unsigned)((fl >> 4) & 0xffff));
			fint_note(d, 8, I_HEX, nm(d, "branch[%" PRIu64 "].flags", i), NULL, note);
		}
		if (counters)
			for (uint64_t i = 0; i < v; i++)
				X64(d, nm(d, "branch.counters[%" PRIu64 "]", i), NULL);
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		f_regs(d, "regs_user", at->sample_regs_user);
		if (d->damaged)
			return;
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		if (!U64(d, "stack_user.size", &v))
			return;
		if (!room(d, v, "user stack runs past the sample"))
			return;
		if (v) {
			uint64_t dyn;

			fbytes(d, "stack_user.data", v, FIELD_BYTES, NULL);
			if (!U64(d, "stack_user.dyn_size", &dyn))
				return;
			if (dyn > v) {
				bad(d, "user stack dyn_size larger than its size");
				return;
			}
		}
	}
	if (st & PERF_SAMPLE_WEIGHT_STRUCT) {
		if (!room(d, 8, "sample too short for its weight"))
			return;
		/* var1_dw is the low half of the u64 in the file's byte order. */
		if (!d->swap) {
			U32(d, "weight.var1_dw", NULL);
			U16(d, "weight.var2_w", NULL);
			U16(d, "weight.var3_w", NULL);
		} else {
			U16(d, "weight.var3_w", NULL);
			U16(d, "weight.var2_w", NULL);
			U32(d, "weight.var1_dw", NULL);
		}
	} else if (st & PERF_SAMPLE_WEIGHT) {
		U64(d, "weight", NULL);
	}
	if (st & PERF_SAMPLE_DATA_SRC)
		X64(d, "data_src", NULL);
	if (st & PERF_SAMPLE_TRANSACTION)
		X64(d, "transaction", NULL);
	if (d->damaged)
		return;
	if (st & PERF_SAMPLE_REGS_INTR) {
		f_regs(d, "regs_intr", at->sample_regs_intr);
		if (d->damaged)
			return;
	}
	if (st & PERF_SAMPLE_PHYS_ADDR)
		X64(d, "phys_addr", NULL);
	if (st & PERF_SAMPLE_CGROUP)
		U64(d, "cgroup", NULL);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		U64(d, "data_page_size", NULL);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		U64(d, "code_page_size", NULL);
	if (st & PERF_SAMPLE_AUX) {
		if (!U64(d, "aux.size", &v))
			return;
		if (!room(d, v, "aux data runs past the sample"))
			return;
		fbytes(d, "aux.data", v, FIELD_BYTES, NULL);
	}
}

/* ---- kernel records ---- */

static void
f_prot_flags(struct fctx *d)
{
	char note[64];
	uint64_t v;

	if (!room(d, 8, "mmap2 prot/flags"))
		return;
	v = peek(d, 4);
	snprintf(note, sizeof note, "%c%c%c", v & 1 ? 'r' : '-', v & 2 ? 'w' : '-',
	    v & 4 ? 'x' : '-');
	fint_note(d, 4, I_HEX, "prot", NULL, note);
	v = peek(d, 4);
	fint_note(d, 4, I_HEX, "flags", NULL, (v & 1) ? "shared" : (v & 2) ? "private" : NULL);
}

static void
f_kernel(struct fctx *d)
{
	const struct rec *r = d->r;
	uint64_t v, nr;

	switch (r->type) {
	case PERF_RECORD_MMAP:
		S32(d, "pid", NULL);
		S32(d, "tid", NULL);
		X64(d, "addr", NULL);
		X64(d, "len", NULL);
		X64(d, "pgoff", NULL);
		fstr(d, "filename", 0);
		break;
	case PERF_RECORD_MMAP2:
		S32(d, "pid", NULL);
		S32(d, "tid", NULL);
		X64(d, "addr", NULL);
		X64(d, "len", NULL);
		X64(d, "pgoff", NULL);
		if (!room(d, 24, "mmap2 too short"))
			break;
		if (r->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			struct sbuf b;
			unsigned bl = d->p[d->pos] <= 20 ? d->p[d->pos] : 20;

			U8(d, "build_id_size", NULL);
			fbytes(d, "__reserved_1", 1, FIELD_PAD, NULL);
			fbytes(d, "__reserved_2", 2, FIELD_PAD, NULL);
			sb_init(&b, d->val, sizeof d->val);
			sb_hex(&b, d->p + d->pos, bl, 20);
			emit(d, 20, FIELD_BYTES, 0, "build_id", d->val);
		} else {
			fint(d, 4, I_HEX, "maj", NULL);
			fint(d, 4, I_HEX, "min", NULL);
			U64(d, "ino", NULL);
			U64(d, "ino_generation", NULL);
		}
		f_prot_flags(d);
		fstr(d, "filename", 0);
		break;
	case PERF_RECORD_LOST:
		U64(d, "id", NULL);
		U64(d, "lost", NULL);
		break;
	case PERF_RECORD_COMM:
		S32(d, "pid", NULL);
		S32(d, "tid", NULL);
		fstr(d, "comm", 0);
		break;
	case PERF_RECORD_EXIT:
	case PERF_RECORD_FORK:
		S32(d, "pid", NULL);
		S32(d, "ppid", NULL);
		S32(d, "tid", NULL);
		S32(d, "ptid", NULL);
		U64(d, "time", NULL);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		U64(d, "time", NULL);
		U64(d, "id", NULL);
		U64(d, "stream_id", NULL);
		break;
	case PERF_RECORD_READ: {
		const struct pn_attr *pa = sample_layout(d->s, r);

		S32(d, "pid", NULL);
		S32(d, "tid", NULL);
		if (pa)
			f_read(d, pa->attr.read_format, "values");
		break;
	}
	case PERF_RECORD_AUX: {
		char note[96];

		X64(d, "aux_offset", NULL);
		X64(d, "aux_size", NULL);
		if (room(d, 8, "aux flags")) {
			v = peek(d, 8);
			snprintf(note, sizeof note, "%s%s%s%spmu_format %u",
			    v & 1 ? "truncated " : "", v & 2 ? "overwrite " : "",
			    v & 4 ? "partial " : "", v & 8 ? "collision " : "",
			    (unsigned)((v >> 8) & 0xff));
			fint_note(d, 8, I_HEX, "flags", NULL, note);
		}
		break;
	}
	case PERF_RECORD_ITRACE_START:
		S32(d, "pid", NULL);
		S32(d, "tid", NULL);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		U64(d, "lost", NULL);
		break;
	case PERF_RECORD_SWITCH:
		break;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		S32(d, "next_prev_pid", NULL);
		S32(d, "next_prev_tid", NULL);
		break;
	case PERF_RECORD_NAMESPACES:
		S32(d, "pid", NULL);
		S32(d, "tid", NULL);
		if (!U64(d, "nr_namespaces", &nr))
			break;
		if (!room_n(d, nr, 16, "namespaces run past the record"))
			break;
		for (uint64_t i = 0; i < nr; i++) {
			const char *ns = i < sizeof ns_names / sizeof ns_names[0] ? ns_names[i] : "?";

			X64(d, nm(d, "link_info[%" PRIu64 "/%s].dev", i, ns), NULL);
			X64(d, nm(d, "link_info[%" PRIu64 "/%s].ino", i, ns), NULL);
		}
		break;
	case PERF_RECORD_KSYMBOL:
		X64(d, "addr", NULL);
		U32(d, "len", NULL);
		if (room(d, 2, "ksym_type")) {
			v = peek(d, 2);
			fint_note(d, 2, I_DEC, "ksym_type", NULL,
			    v == 1 ? "bpf" : v == 2 ? "ool" : v == 0 ? "unknown" : NULL);
		}
		fint(d, 2, I_HEX, "flags", NULL);
		fstr(d, "name", 0);
		break;
	case PERF_RECORD_BPF_EVENT:
		if (room(d, 2, "bpf type")) {
			v = peek(d, 2);
			fint_note(d, 2, I_DEC, "type", NULL,
			    v == 1 ? "prog_load" : v == 2 ? "prog_unload" : NULL);
		}
		fint(d, 2, I_HEX, "flags", NULL);
		U32(d, "id", NULL);
		if (room(d, 8, "bpf tag")) {
			struct sbuf b;

			sb_init(&b, d->val, sizeof d->val);
			sb_hex(&b, d->p + d->pos, 8, 8);
			emit(d, 8, FIELD_BYTES, 0, "tag", d->val);
		}
		break;
	case PERF_RECORD_CGROUP:
		U64(d, "id", NULL);
		fstr(d, "path", 0);
		break;
	case PERF_RECORD_TEXT_POKE: {
		uint64_t ol, nl;

		X64(d, "addr", NULL);
		if (!U16(d, "old_len", &ol) || !U16(d, "new_len", &nl))
			break;
		if (!room(d, ol + nl, "text_poke bytes run past the record"))
			break;
		fbytes(d, "old_bytes", ol, FIELD_BYTES, NULL);
		fbytes(d, "new_bytes", nl, FIELD_BYTES, NULL);
		fbytes(d, "pad", left(d), FIELD_PAD, NULL);
		break;
	}
	case 21:	/* AUX_OUTPUT_HW_ID */
		X64(d, "hw_id", NULL);
		break;
	default:
		break;
	}
}

/* ---- perf's own records ---- */

static void
f_attr(struct fctx *d, const char *pfx, uint32_t asz)
{
	static const char *const attr_types[6] = {
		"hardware", "software", "tracepoint", "hw_cache", "raw", "breakpoint",
	};
	struct perf_event_attr a;
	const uint8_t *base = d->p + d->pos;
	uint32_t start = d->pos;
	uint64_t v, fw;
	struct sbuf b;
	char note[FIELD_VALUE_MAX];
	bool bp;

	memset(&a, 0, sizeof a);
	if (asz < PF_ATTR_SIZE_VER0 || asz > left(d) ||
	    attr_decode(&a, base, asz, d->swap) < 0) {
		bad(d, "attr size smaller than version 0 or beyond the record");
		return;
	}
	bp = a.type == PERF_TYPE_BREAKPOINT;
	fint_note(d, 4, I_DEC, nm(d, "%s.type", pfx), NULL, a.type < 6 ? attr_types[a.type] : NULL);
	U32(d, nm(d, "%s.size", pfx), NULL);
	X64(d, nm(d, "%s.config", pfx), NULL);
	U64(d, nm(d, a.freq ? "%s.sample_freq" : "%s.sample_period", pfx), NULL);
	names_sample_type(a.sample_type, NAMES_BITS_ALL, note, sizeof note);
	fint_note(d, 8, I_HEX, nm(d, "%s.sample_type", pfx), NULL, note);
	names_read_format(a.read_format, NAMES_BITS_ALL, note, sizeof note);
	fint_note(d, 8, I_HEX, nm(d, "%s.read_format", pfx), NULL, note);
	/* The flags word, from the decoded (native) attr. */
	memcpy(&fw, (const uint8_t *)&a + 40, 8);
	sb_init(&b, note, sizeof note);
	for (unsigned i = 0; i < 64; i++) {
		if (i == 15 || i == 16) {
			if (i == 15 && a.precise_ip)
				sb_printf(&b, "%sprecise_ip=%u", b.len ? " " : "", (unsigned)a.precise_ip);
			continue;
		}
		if (fw & (UINT64_C(1) << i)) {
			if (attr_flag_names[i])
				sb_printf(&b, "%s%s", b.len ? " " : "", attr_flag_names[i]);
			else
				sb_printf(&b, "%sbit%u", b.len ? " " : "", i);
		}
	}
	if (room(d, 8, "attr flags")) {
		sb_init(&b, d->val, sizeof d->val);
		sb_printf(&b, "%#" PRIx64, fw);
		if (note[0])
			sb_printf(&b, " (%s)", note);
		emit(d, 8, FIELD_HEX, fw, nm(d, "%s.flags", pfx), d->val);
	}
	U32(d, nm(d, a.watermark ? "%s.wakeup_watermark" : "%s.wakeup_events", pfx), NULL);
	U32(d, nm(d, "%s.bp_type", pfx), NULL);
	X64(d, nm(d, bp ? "%s.bp_addr" : "%s.config1", pfx), NULL);
	X64(d, nm(d, bp ? "%s.bp_len" : "%s.config2", pfx), NULL);
#define UPTO(off) (d->pos - start < (off) && asz >= (off))
	if (UPTO(72))
		X64(d, nm(d, "%s.branch_sample_type", pfx), NULL);
	if (UPTO(80))
		X64(d, nm(d, "%s.sample_regs_user", pfx), NULL);
	if (UPTO(96)) {
		U32(d, nm(d, "%s.sample_stack_user", pfx), NULL);
		S32(d, nm(d, "%s.clockid", pfx), NULL);
		X64(d, nm(d, "%s.sample_regs_intr", pfx), NULL);
	}
	if (UPTO(104)) {
		U32(d, nm(d, "%s.aux_watermark", pfx), NULL);
		U16(d, nm(d, "%s.sample_max_stack", pfx), NULL);
		fbytes(d, nm(d, "%s.__reserved_2", pfx), 2, FIELD_PAD, NULL);
	}
	if (UPTO(112)) {
		U32(d, nm(d, "%s.aux_sample_size", pfx), NULL);
		fbytes(d, nm(d, "%s.__reserved_3", pfx), 4, FIELD_PAD, NULL);
	}
	if (UPTO(120))
		X64(d, nm(d, "%s.sig_data", pfx), NULL);
	if (UPTO(128))
		X64(d, nm(d, "%s.config3", pfx), NULL);
#undef UPTO
	v = d->pos - start;
	if (!d->damaged && v < asz)
		fbytes(d, nm(d, "%s.unknown", pfx), asz - v, FIELD_BYTES, "fields newer than perfnav");
}

static void
f_stat_config(struct fctx *d)
{
	static const char *const tags[] = { "aggr_mode", "interval", "scale", "aggr_level" };
	uint64_t nr, tag;

	if (!U64(d, "nr", &nr) || !room_n(d, nr, 16, "stat config runs past the record"))
		return;
	for (uint64_t i = 0; i < nr; i++) {
		tag = peek(d, 8);
		fint_note(d, 8, I_DEC, nm(d, "data[%" PRIu64 "].tag", i), NULL,
		    tag < 4 ? tags[tag] : "unknown");
		U64(d, nm(d, "data[%" PRIu64 "].val", i), NULL);
	}
}

static void
f_user(struct fctx *d)
{
	const struct rec *r = d->r;
	uint64_t v, nr;
	struct sbuf b;

	switch (r->type) {
	case PF_REC_ATTR: {
		uint32_t asz;

		if (!room(d, 8, "attr too short"))
			break;
		asz = rd32(d->p + d->pos + 4, d->swap);
		if (asz == 0)
			asz = PF_ATTR_SIZE_VER0;
		f_attr(d, "attr", asz);
		if (d->damaged)
			break;
		for (uint64_t i = 0; left(d) >= 8; i++)
			U64(d, nm(d, "id[%" PRIu64 "]", i), NULL);
		break;
	}
	case PF_REC_EVENT_TYPE:
		U64(d, "event_id", NULL);
		fstr(d, "name", 0);
		break;
	case PF_REC_TRACING_DATA:
		if (room(d, 4, "tracing data size")) {
			v = peek(d, 4);
			snprintf(d->val, sizeof d->val, "%" PRIu64 " (bytes of tracing data follow the record)", v);
			emit(d, 4, FIELD_INT, v, "size", d->val);
		}
		fbytes(d, "data", left(d), FIELD_BYTES, NULL);
		break;
	case PF_REC_BUILD_ID: {
		unsigned bl = 20;

		S32(d, "pid", NULL);
		if (!room(d, 24, "build id too short"))
			break;
		if ((r->misc & MISC_BUILD_ID_SIZE) && d->p[d->pos + 20] <= 20)
			bl = d->p[d->pos + 20];
		sb_init(&b, d->val, sizeof d->val);
		sb_hex(&b, d->p + d->pos, bl, 20);
		emit(d, 20, FIELD_BYTES, 0, "build_id", d->val);
		U8(d, "build_id.size", NULL);
		fbytes(d, "build_id.reserved", 3, FIELD_PAD, NULL);
		fstr(d, "filename", 0);
		break;
	}
	case PF_REC_FINISHED_ROUND:
	case PF_REC_FINISHED_INIT:
		break;
	case PF_REC_ID_INDEX:
		if (!U64(d, "nr", &nr))
			break;
		if (!room_n(d, nr, 32, "id index runs past the record"))
			break;
		for (uint64_t i = 0; i < nr; i++) {
			U64(d, nm(d, "entries[%" PRIu64 "].id", i), NULL);
			U64(d, nm(d, "entries[%" PRIu64 "].idx", i), NULL);
			fint(d, 8, I_SDEC, nm(d, "entries[%" PRIu64 "].cpu", i), NULL);
			fint(d, 8, I_SDEC, nm(d, "entries[%" PRIu64 "].tid", i), NULL);
		}
		/* perf >= 6.1 may append machine_pid/vcpu per entry. */
		if (nr && nr <= left(d) / 16) {
			for (uint64_t i = 0; i < nr; i++) {
				fint(d, 8, I_SDEC, nm(d, "entries2[%" PRIu64 "].machine_pid", i), NULL);
				fint(d, 8, I_SDEC, nm(d, "entries2[%" PRIu64 "].vcpu", i), NULL);
			}
		}
		break;
	case PF_REC_AUXTRACE_INFO:
		if (room(d, 4, "auxtrace type")) {
			v = peek(d, 4);
			fint_note(d, 4, I_DEC, "type", NULL,
			    (const char *[]){ "unknown", "intel_pt", "intel_bts", "cs_etm", "arm_spe",
			    "s390_cpumsf", "hisi_ptt" }[v < 7 ? v : 0]);
		}
		fbytes(d, "reserved", 4, FIELD_PAD, NULL);
		for (uint64_t i = 0; left(d) >= 8; i++)
			X64(d, nm(d, "priv[%" PRIu64 "]", i), NULL);
		break;
	case PF_REC_AUXTRACE:
		if (room(d, 8, "auxtrace size")) {
			v = peek(d, 8);
			snprintf(d->val, sizeof d->val, "%#" PRIx64 " (bytes of trace data follow the record)", v);
			emit(d, 8, FIELD_HEX, v, "size", d->val);
		}
		X64(d, "offset", NULL);
		X64(d, "reference", NULL);
		U32(d, "idx", NULL);
		S32(d, "tid", NULL);
		S32(d, "cpu", NULL);
		fbytes(d, "reserved", 4, FIELD_PAD, NULL);
		fbytes(d, "data", left(d), FIELD_BYTES, NULL);
		break;
	case PF_REC_AUXTRACE_ERROR: {
		uint64_t fmt = 0;

		U32(d, "type", NULL);
		U32(d, "code", NULL);
		S32(d, "cpu", NULL);
		S32(d, "pid", NULL);
		S32(d, "tid", NULL);
		U32(d, "fmt", &fmt);
		X64(d, "ip", NULL);
		if (fmt >= 1)
			U64(d, "time", NULL);
		if (!d->damaged)
			fstr(d, "msg", 64);
		if (fmt >= 2 && left(d) >= 8) {
			S32(d, "machine_pid", NULL);
			S32(d, "vcpu", NULL);
		}
		break;
	}
	case PF_REC_THREAD_MAP:
		if (!U64(d, "nr", &nr) || !room_n(d, nr, 24, "thread map runs past the record"))
			break;
		for (uint64_t i = 0; i < nr; i++) {
			fint(d, 8, I_SDEC, nm(d, "entries[%" PRIu64 "].pid", i), NULL);
			fstr(d, nm(d, "entries[%" PRIu64 "].comm", i), 16);
		}
		break;
	case PF_REC_CPU_MAP:
		f_cpu_map(d, "cpus");
		break;
	case PF_REC_STAT_CONFIG:
		f_stat_config(d);
		break;
	case PF_REC_STAT:
		U64(d, "id", NULL);
		S32(d, "cpu", NULL);
		S32(d, "thread", NULL);
		U64(d, "val", NULL);
		U64(d, "ena", NULL);
		U64(d, "run", NULL);
		break;
	case PF_REC_STAT_ROUND:
		if (room(d, 8, "stat round type")) {
			v = peek(d, 8);
			fint_note(d, 8, I_DEC, "type", NULL, v == 0 ? "interval" : v == 1 ? "final" : NULL);
		}
		U64(d, "time", NULL);
		break;
	case PF_REC_EVENT_UPDATE: {
		uint64_t t = 0;

		if (room(d, 8, "event update type")) {
			t = peek(d, 8);
			fint_note(d, 8, I_DEC, "type", NULL,
			    t < 4 ? (const char *[]){ "unit", "scale", "name", "cpus" }[t] : "unknown");
		}
		U64(d, "id", NULL);
		if (d->damaged)
			break;
		switch (t) {
		case 0:
			fstr(d, "unit", 0);
			break;
		case 1:
			if (room(d, 8, "event update scale")) {
				double dv;

				v = peek(d, 8);
				memcpy(&dv, &v, sizeof dv);
				snprintf(d->val, sizeof d->val, "%g", dv);
				emit(d, 8, FIELD_FLOAT, 0, "scale", d->val);
			}
			/* perf writes the whole union: the rest is padding. */
			fbytes(d, "pad", left(d), FIELD_PAD, NULL);
			break;
		case 2:
			fstr(d, "name", 0);
			break;
		case 3:
			f_cpu_map(d, "cpus");
			break;
		default:
			break;
		}
		break;
	}
	case PF_REC_TIME_CONV:
		U64(d, "time_shift", NULL);
		U64(d, "time_mult", NULL);
		U64(d, "time_zero", NULL);
		if (left(d) >= 24) {
			U64(d, "time_cycles", NULL);
			X64(d, "time_mask", NULL);
			U8(d, "cap_user_time_zero", NULL);
			U8(d, "cap_user_time_short", NULL);
			fbytes(d, "reserved", 6, FIELD_PAD, NULL);
		}
		break;
	case PF_REC_FEATURE:
		if (room(d, 8, "feature id")) {
			const char *fn;

			v = peek(d, 8);
			fn = v < 256 ? feat_name((unsigned)v) : NULL;
			fint_note(d, 8, I_DEC, "feat_id", NULL, fn ? fn : "unknown feature");
		}
		fbytes(d, "data", left(d), FIELD_BYTES, "feature section");
		break;
	case PF_REC_COMPRESSED:
		fbytes(d, "data", left(d), FIELD_BYTES, "zstd");
		break;
	case PF_REC_COMPRESSED2:
		if (!U64(d, "data_size", &v))
			break;
		if (!room(d, v, "compressed data runs past the record"))
			break;
		fbytes(d, "data", v, FIELD_BYTES, "zstd");
		fbytes(d, "pad", left(d), FIELD_PAD, NULL);
		break;
	default:
		break;
	}
}

static void
f_trailer(struct fctx *d, const struct sample_id *sid)
{
	uint32_t h = sid->have;

	if (h & PERF_SAMPLE_TID) {
		S32(d, "sample_id.pid", NULL);
		S32(d, "sample_id.tid", NULL);
	}
	if (h & PERF_SAMPLE_TIME)
		U64(d, "sample_id.time", NULL);
	if (h & PERF_SAMPLE_ID)
		U64(d, "sample_id.id", NULL);
	if (h & PERF_SAMPLE_STREAM_ID)
		U64(d, "sample_id.stream_id", NULL);
	if (h & PERF_SAMPLE_CPU) {
		U32(d, "sample_id.cpu", NULL);
		U32(d, "sample_id.res", NULL);
	}
	if (h & PERF_SAMPLE_IDENTIFIER)
		U64(d, "sample_id.identifier", NULL);
}

int
fields_describe(const struct session *s, const struct rec *r, field_fn fn, void *arg)
{
	struct fctx d;
	struct sample_id sid;
	bool trailer = false;
	uint32_t size = r->size;

	memset(&d, 0, sizeof d);
	d.s = s;
	d.r = r;
	d.fn = fn;
	d.arg = arg;
	d.p = r->p;
	d.swap = r->swap;
	d.end = size;
	if (size < 8) {
		/* Not even a header: one bad field. */
		d.end = size;
		fbytes(&d, "header", size, FIELD_BAD, "record smaller than its header");
		return -1;
	}
	if (s != NULL && r->type != PERF_RECORD_SAMPLE && r->type < PF_REC_USER_TYPE_START &&
	    record_decode_sample_id(s, r, &sid) == 0) {
		trailer = true;
		d.end = size - attr_trailer_size(sid.have);
	}
	f_header(&d);
	if (r->type == PERF_RECORD_SAMPLE)
		f_sample(&d);
	else if (r->type < PF_REC_USER_TYPE_START && record_type_name(r->type) != NULL)
		f_kernel(&d);
	else if (record_type_name(r->type) != NULL)
		f_user(&d);
	if (d.pos < d.end) {
		if (record_type_name(r->type) == NULL)
			fbytes(&d, "payload", left(&d), FIELD_BYTES, NULL);
		else if (d.damaged)
			fbytes(&d, "unparsed", left(&d), FIELD_BAD, d.why);
		else
			fbytes(&d, "extra", left(&d), FIELD_BYTES, "not in the known layout");
	}
	if (trailer) {
		/* The trailer was checked apart: decode it even after body damage. */
		bool body_damaged = d.damaged;

		d.damaged = false;
		d.end = size;
		f_trailer(&d, &sid);
		d.damaged = d.damaged || body_damaged;
	}
	return d.damaged ? -1 : 0;
}

/* ---- one-line summaries ---- */

/* Bounds-checked readers of the body for summaries. */
struct body {
	const uint8_t	*p;
	uint32_t	 n;	/* record size */
	bool		 swap;
	bool		 bad;
};

static uint64_t
b64(struct body *b, uint32_t off)
{
	if (off > b->n || b->n - off < 8) {
		b->bad = true;
		return 0;
	}
	return rd64(b->p + off, b->swap);
}

static uint32_t
b32(struct body *b, uint32_t off)
{
	if (off > b->n || b->n - off < 4) {
		b->bad = true;
		return 0;
	}
	return rd32(b->p + off, b->swap);
}

static uint16_t
b16(struct body *b, uint32_t off)
{
	if (off > b->n || b->n - off < 2) {
		b->bad = true;
		return 0;
	}
	return rd16(b->p + off, b->swap);
}

static void
bstr(struct sbuf *sb, struct body *b, uint32_t off)
{
	if (off >= b->n) {
		b->bad = true;
		return;
	}
	sb_str(sb, b->p + off, b->n - off, false);
}

static void
sum_sample(const struct session *s, const struct rec *r, struct sbuf *sb)
{
	struct sample smp;
	const char *why = NULL;

	sb_printf(sb, "(IP, 0x%x): ", r->misc);
	if (s == NULL || record_decode_sample(s, r, &smp, &why) < 0) {
		sb_printf(sb, "damaged: %s", why ? why : "no attributes");
		return;
	}
	sb_printf(sb, "%d/%d: %#" PRIx64 " period: %" PRIu64 " addr: %#" PRIx64,
	    (int32_t)smp.pid, (int32_t)smp.tid, smp.ip, smp.period, smp.addr);
	if (smp.sample_type & PERF_SAMPLE_TIME)
		sb_printf(sb, " time: %" PRIu64, smp.time);
	if (smp.sample_type & PERF_SAMPLE_CPU)
		sb_printf(sb, " cpu: %u", smp.cpu);
	if (s->attrs.n > 1 && smp.attr >= 0) {
		sb_printf(sb, " event: ");
		sb_name(sb, session_attr_name(s, smp.attr));
	}
	if (smp.sample_type & PERF_SAMPLE_CALLCHAIN)
		sb_printf(sb, " callchain: %" PRIu64, smp.callchain_nr);
	if (smp.sample_type & PERF_SAMPLE_BRANCH_STACK)
		sb_printf(sb, " branches: %" PRIu64, smp.branch_nr);
	if (smp.sample_type & PERF_SAMPLE_RAW)
		sb_printf(sb, " raw: %u", smp.raw_size);
	if (smp.sample_type & PERF_SAMPLE_STACK_USER)
		sb_printf(sb, " ustack: %" PRIu64 "/%" PRIu64, smp.stack_dyn_size, smp.stack_size);
}

static void
sum_read_value(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	int a = s ? record_attr(s, r) : -1;
	uint64_t rf = 0;

	if (s != NULL && a < 0 && s->attrs.n)
		rf = s->attrs.v[0].attr.read_format;
	else if (a >= 0)
		rf = s->attrs.v[a].attr.read_format;
	sb_printf(sb, ": %d %d ", (int32_t)b32(b, 8), (int32_t)b32(b, 12));
	sb_name(sb, s ? session_attr_name(s, a) : "?");
	if (rf & PERF_FORMAT_GROUP)
		sb_printf(sb, " group of %" PRIu64, b64(b, 16));
	else
		sb_printf(sb, " %" PRIu64, b64(b, 16));
}

static void
sum_kernel(const struct session *s, const struct rec *r, struct body *b, struct sbuf *sb)
{
	uint16_t m = r->misc;

	switch (r->type) {
	case PERF_RECORD_MMAP:
		sb_printf(sb, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c ",
		    (int32_t)b32(b, 8), (int32_t)b32(b, 12), b64(b, 16), b64(b, 24), b64(b, 32),
		    (m & PERF_RECORD_MISC_MMAP_DATA) ? 'r' : 'x');
		bstr(sb, b, 40);
		break;
	case PERF_RECORD_MMAP2: {
		uint32_t prot = b32(b, 64), flags = b32(b, 68);

		sb_printf(sb, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 " ",
		    (int32_t)b32(b, 8), (int32_t)b32(b, 12), b64(b, 16), b64(b, 24), b64(b, 32));
		if (m & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			unsigned bl = b->n > 40 ? b->p[40] : 0;

			if (bl > 20)
				bl = 20;
			sb_printf(sb, "<");
			if (b->n >= 64)
				sb_hex(sb, b->p + 44, bl, 20);
			sb_printf(sb, ">");
		} else {
			uint32_t maj = b32(b, 40), min = b32(b, 44);

			sb_printf(sb, "%02x:%02x %" PRIu64 " %" PRIu64, maj, min, b64(b, 48),
			    b64(b, 56));
		}
		sb_printf(sb, "]: %c%c%c%c ", prot & 1 ? 'r' : '-', prot & 2 ? 'w' : '-',
		    prot & 4 ? 'x' : '-', flags & 1 ? 's' : 'p');
		bstr(sb, b, 72);
		break;
	}
	case PERF_RECORD_LOST:
		sb_printf(sb, ": id:%" PRIu64 ": lost:%" PRIu64, b64(b, 8), b64(b, 16));
		break;
	case PERF_RECORD_COMM:
		sb_printf(sb, "%s: ", (m & PERF_RECORD_MISC_COMM_EXEC) ? " exec" : "");
		bstr(sb, b, 16);
		sb_printf(sb, ":%d/%d", (int32_t)b32(b, 8), (int32_t)b32(b, 12));
		break;
	case PERF_RECORD_EXIT:
	case PERF_RECORD_FORK:
		sb_printf(sb, "(%d:%d):(%d:%d)", (int32_t)b32(b, 8), (int32_t)b32(b, 16),
		    (int32_t)b32(b, 12), (int32_t)b32(b, 20));
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		sb_printf(sb, ": time %" PRIu64 " id %" PRIu64 " stream_id %" PRIu64, b64(b, 8),
		    b64(b, 16), b64(b, 24));
		break;
	case PERF_RECORD_READ:
		sum_read_value(s, r, b, sb);
		break;
	case PERF_RECORD_AUX: {
		uint64_t fl = b64(b, 24);

		sb_printf(sb, " offset: %#" PRIx64 " size: %#" PRIx64 " flags: %#" PRIx64 " [%s%s%s%s]",
		    b64(b, 8), b64(b, 16), fl, fl & 1 ? "T" : "", fl & 2 ? "O" : "",
		    fl & 4 ? "P" : "", fl & 8 ? "C" : "");
		break;
	}
	case PERF_RECORD_ITRACE_START:
		sb_printf(sb, " pid: %d tid: %d", (int32_t)b32(b, 8), (int32_t)b32(b, 12));
		break;
	case PERF_RECORD_LOST_SAMPLES:
		sb_printf(sb, ": lost samples: %" PRIu64, b64(b, 8));
		break;
	case PERF_RECORD_SWITCH:
		sb_printf(sb, " %s", (m & PERF_RECORD_MISC_SWITCH_OUT) ?
		    ((m & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ? "OUT preempt" : "OUT") : "IN");
		break;
	case PERF_RECORD_SWITCH_CPU_WIDE: {
		bool out = m & PERF_RECORD_MISC_SWITCH_OUT;

		sb_printf(sb, " %s%s %s pid/tid: %d/%d", out ? "OUT" : "IN",
		    out && (m & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ? " preempt" : "",
		    out ? "next" : "prev", (int32_t)b32(b, 8), (int32_t)b32(b, 12));
		break;
	}
	case PERF_RECORD_NAMESPACES: {
		uint64_t nr = b64(b, 16);

		sb_printf(sb, " %d/%d - nr_namespaces: %" PRIu64, (int32_t)b32(b, 8),
		    (int32_t)b32(b, 12), nr);
		if (b->bad || nr > (b->n - 24) / 16)
			break;
		sb_printf(sb, " [");
		for (uint64_t i = 0; i < nr; i++)
			sb_printf(sb, "%s%" PRIu64 "/%s: %" PRIu64 "/%#" PRIx64, i ? ", " : "", i,
			    i < 8 ? ns_names[i] : "?", b64(b, 24 + 16 * (uint32_t)i),
			    b64(b, 32 + 16 * (uint32_t)i));
		sb_printf(sb, "]");
		break;
	}
	case PERF_RECORD_KSYMBOL:
		sb_printf(sb, " addr %" PRIx64 " len %u type %u flags %#x name ", b64(b, 8),
		    b32(b, 16), b16(b, 20), b16(b, 22));
		bstr(sb, b, 24);
		break;
	case PERF_RECORD_BPF_EVENT:
		sb_printf(sb, " type %u, flags %u, id %u", b16(b, 8), b16(b, 10), b32(b, 12));
		break;
	case PERF_RECORD_CGROUP:
		sb_printf(sb, " cgroup: %" PRIu64 " ", b64(b, 8));
		bstr(sb, b, 16);
		break;
	case PERF_RECORD_TEXT_POKE:
		sb_printf(sb, " %#" PRIx64 " old len %u new len %u", b64(b, 8), b16(b, 16),
		    b16(b, 18));
		break;
	case 21:
		sb_printf(sb, " hw_id: %#" PRIx64, b64(b, 8));
		break;
	default:
		break;
	}
}

static void
sum_user(const struct rec *r, struct body *b, struct sbuf *sb)
{
	switch (r->type) {
	case PF_REC_ATTR: {
		struct perf_event_attr a;
		uint32_t asz = b32(b, 12);
		uint64_t nids;

		if (asz == 0)
			asz = PF_ATTR_SIZE_VER0;
		if (b->bad || asz > b->n - 8 ||
		    attr_decode(&a, b->p + 8, asz, b->swap) < 0) {
			b->bad = true;
			break;
		}
		nids = (b->n - 8 - asz) / 8;
		sb_printf(sb, " type %u config %#" PRIx64 " sample_type ", a.type,
		    (uint64_t)a.config);
		{
			char st[512];

			sb_printf(sb, "%s ids %" PRIu64,
			    names_sample_type(a.sample_type, NAMES_BITS_ALL, st, sizeof st), nids);
		}
		break;
	}
	case PF_REC_EVENT_TYPE:
		sb_printf(sb, " id %" PRIu64 " name ", b64(b, 8));
		bstr(sb, b, 16);
		break;
	case PF_REC_TRACING_DATA:
		sb_printf(sb, " size %u", b32(b, 8));
		break;
	case PF_REC_BUILD_ID: {
		unsigned bl = 20;

		sb_printf(sb, " pid %d ", (int32_t)b32(b, 8));
		if (b->n < 36) {
			b->bad = true;
			break;
		}
		if ((r->misc & MISC_BUILD_ID_SIZE) && b->p[32] <= 20)
			bl = b->p[32];
		sb_hex(sb, b->p + 12, bl, 20);
		sb_printf(sb, " ");
		bstr(sb, b, 36);
		break;
	}
	case PF_REC_ID_INDEX:
		sb_printf(sb, " nr: %" PRIu64, b64(b, 8));
		break;
	case PF_REC_AUXTRACE_INFO:
		sb_printf(sb, " type: %u", b32(b, 8));
		break;
	case PF_REC_AUXTRACE:
		sb_printf(sb, " size: %#" PRIx64 " offset: %#" PRIx64 " ref: %#" PRIx64
		    " idx: %u tid: %d cpu: %d", b64(b, 8), b64(b, 16), b64(b, 24), b32(b, 32),
		    (int32_t)b32(b, 36), (int32_t)b32(b, 40));
		break;
	case PF_REC_AUXTRACE_ERROR: {
		uint32_t fmt = b32(b, 28);

		sb_printf(sb, " type: %u code: %u cpu: %d pid: %d tid: %d ip: %#" PRIx64 " msg: ",
		    b32(b, 8), b32(b, 12), (int32_t)b32(b, 16), (int32_t)b32(b, 20),
		    (int32_t)b32(b, 24), b64(b, 32));
		if (!b->bad && b->n > (fmt ? 48u : 40u))
			sb_str(sb, b->p + (fmt ? 48 : 40), b->n - (fmt ? 48 : 40) < 64 ?
			    b->n - (fmt ? 48 : 40) : 64, false);
		break;
	}
	case PF_REC_THREAD_MAP: {
		uint64_t nr = b64(b, 8);

		sb_printf(sb, " nr: %" PRIu64, nr);
		if (b->bad || nr > (b->n - 16) / 24)
			break;
		sb_printf(sb, " thread%s:", nr == 1 ? "" : "s");
		for (uint64_t i = 0; i < nr && i < 16; i++)
			sb_printf(sb, " %" PRId64, (int64_t)b64(b, 16 + 24 * (uint32_t)i));
		if (nr > 16)
			sb_printf(sb, " ...");
		break;
	}
	case PF_REC_CPU_MAP:
		sb_printf(sb, ": ");
		if (!sb_cpu_map(sb, b->p + 8, b->n - 8, b->swap))
			b->bad = true;
		break;
	case PF_REC_STAT_CONFIG: {
		static const char *const tags[] = { "aggr_mode", "interval", "scale", "aggr_level" };
		uint64_t nr = b64(b, 8);

		if (b->bad || nr > (b->n - 16) / 16) {
			b->bad = true;
			break;
		}
		for (uint64_t i = 0; i < nr; i++) {
			uint64_t tag = b64(b, 16 + 16 * (uint32_t)i);

			if (tag < 4)
				sb_printf(sb, " %s %" PRIu64, tags[tag], b64(b, 24 + 16 * (uint32_t)i));
			else
				sb_printf(sb, " tag%" PRIu64 " %" PRIu64, tag, b64(b, 24 + 16 * (uint32_t)i));
		}
		break;
	}
	case PF_REC_STAT:
		sb_printf(sb, " id %" PRIu64 ", cpu %d, thread %d, value %" PRIu64 ", enabled %"
		    PRIu64 ", running %" PRIu64, b64(b, 8), (int32_t)b32(b, 16), (int32_t)b32(b, 20),
		    b64(b, 24), b64(b, 32), b64(b, 40));
		break;
	case PF_REC_STAT_ROUND: {
		uint64_t t = b64(b, 8);

		sb_printf(sb, " time %" PRIu64 ", type %s", b64(b, 16),
		    t == 0 ? "INTERVAL" : t == 1 ? "FINAL" : "?");
		break;
	}
	case PF_REC_EVENT_UPDATE: {
		uint64_t t = b64(b, 8);

		sb_printf(sb, " id: %" PRIu64, b64(b, 16));
		if (b->bad)
			break;
		switch (t) {
		case 0:
			sb_printf(sb, " unit: ");
			bstr(sb, b, 24);
			break;
		case 1: {
			uint64_t v = b64(b, 24);
			double dv;

			memcpy(&dv, &v, sizeof dv);
			sb_printf(sb, " scale: %f", dv);
			break;
		}
		case 2:
			sb_printf(sb, " name: ");
			bstr(sb, b, 24);
			break;
		case 3:
			sb_printf(sb, " cpus: ");
			if (b->n <= 24 || !sb_cpu_map(sb, b->p + 24, b->n - 24, b->swap))
				b->bad = true;
			break;
		default:
			sb_printf(sb, " type %" PRIu64, t);
			break;
		}
		break;
	}
	case PF_REC_TIME_CONV:
		sb_printf(sb, " time_shift %" PRIu64 " time_mult %" PRIu64 " time_zero %" PRIu64,
		    b64(b, 8), b64(b, 16), b64(b, 24));
		break;
	case PF_REC_FEATURE: {
		uint64_t bit = b64(b, 8);
		const char *fn = bit < 256 ? feat_name((unsigned)bit) : NULL;

		if (!b->bad)
			sb_printf(sb, " %s (bit %" PRIu64 "), %u bytes", fn ? fn : "unknown", bit,
			    b->n - 16);
		break;
	}
	case PF_REC_COMPRESSED:
		sb_printf(sb, " %u bytes of zstd data", b->n - 8);
		break;
	case PF_REC_COMPRESSED2:
		sb_printf(sb, " %" PRIu64 " bytes of zstd data", b64(b, 8));
		break;
	default:
		break;
	}
}

size_t
fields_summary(const struct session *s, const struct rec *r, char *buf, size_t n)
{
	struct sbuf sb;
	struct body b;
	const char *tn = record_type_name(r->type);

	sb_init(&sb, buf, n);
	if (tn == NULL) {
		sb_printf(&sb, "PERF_RECORD_UNKNOWN%u misc %#x, %u payload bytes", r->type, r->misc,
		    r->size >= 8 ? r->size - 8 : 0);
		return sb.len;
	}
	sb_printf(&sb, "PERF_RECORD_%s", tn);
	b.p = r->p;
	b.n = r->size;
	b.swap = r->swap;
	b.bad = false;
	if (r->type == PERF_RECORD_SAMPLE) {
		sum_sample(s, r, &sb);
	} else if (r->type < PF_REC_USER_TYPE_START) {
		struct sample_id sid;

		/* Keep string reads inside the body. */
		if (s != NULL && record_decode_sample_id(s, r, &sid) == 0)
			b.n = r->size - attr_trailer_size(sid.have);
		sum_kernel(s, r, &b, &sb);
	} else {
		sum_user(r, &b, &sb);
	}
	if (b.bad)
		sb_printf(&sb, " (damaged: record too short)");
	return sb.len;
}
