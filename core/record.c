#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/attr.h"
#include "core/bytes.h"
#include "core/perf_file.h"
#include "core/record.h"
#include "core/session.h"

/* Newer kernels than our <linux/perf_event.h> may know. */
#ifndef PERF_SAMPLE_BRANCH_COUNTERS
#define PERF_SAMPLE_BRANCH_COUNTERS	(1ULL << 19)
#endif

static const char *const type_names[PF_REC_MAX_KNOWN] = {
#define X(v, n) [v] = #n,
	PF_RECORD_TYPES(X)
#undef X
};

const char *
record_type_name(uint32_t type)
{
	if (type >= PF_REC_MAX_KNOWN)
		return NULL;
	return type_names[type];
}

/*
 * Smallest body (bytes after the 8-byte header, before the sample_id_all
 * trailer) of each kernel record type; used to tell a trailer from a body
 * that is too short to carry one.
 */
static const uint8_t kernel_body_min[PF_REC_USER_TYPE_START] = {
	[PERF_RECORD_MMAP] = 32,
	[PERF_RECORD_LOST] = 16,
	[PERF_RECORD_COMM] = 8,
	[PERF_RECORD_EXIT] = 24,
	[PERF_RECORD_THROTTLE] = 24,
	[PERF_RECORD_UNTHROTTLE] = 24,
	[PERF_RECORD_FORK] = 24,
	[PERF_RECORD_READ] = 16,
	[PERF_RECORD_MMAP2] = 64,
	[PERF_RECORD_AUX] = 24,
	[PERF_RECORD_ITRACE_START] = 8,
	[PERF_RECORD_LOST_SAMPLES] = 8,
	[PERF_RECORD_SWITCH] = 0,
	[PERF_RECORD_SWITCH_CPU_WIDE] = 8,
	[PERF_RECORD_NAMESPACES] = 16,
	[PERF_RECORD_KSYMBOL] = 16,
	[PERF_RECORD_BPF_EVENT] = 16,
	[PERF_RECORD_CGROUP] = 8,
	[PERF_RECORD_TEXT_POKE] = 12,
	[21 /* AUX_OUTPUT_HW_ID */] = 8,
};

/* Does a record of this type carry a sample_id_all trailer (if enabled)? */
static bool
type_has_trailer(uint32_t type)
{
	return type != 0 && type != PERF_RECORD_SAMPLE && type < PF_REC_USER_TYPE_START;
}

/* The u64 that identifies a record's event, if it can be located. */
static bool
record_id(const struct session *s, const struct rec *r, uint64_t *id)
{
	const struct attr_table *t = &s->attrs;
	size_t n = r->size >= 8 ? (r->size - 8) / 8 : 0;

	if (r->type == PERF_RECORD_SAMPLE) {
		if (t->id_pos < 0 || (size_t)t->id_pos >= n)
			return false;
		*id = rd64(r->p + 8 + 8 * (size_t)t->id_pos, r->swap);
		return true;
	}
	if (!type_has_trailer(r->type) || !t->sample_id_all || t->is_pos <= 0 ||
	    (size_t)t->is_pos > n)
		return false;
	/* The trailer ends the record; its u64s are aligned to the end. */
	*id = rd64(r->p + r->size - 8 * (size_t)t->is_pos, r->swap);
	return true;
}

/*
 * Without an agreed id position (events of different sample layouts and no
 * IDENTIFIER), try each layout: accept an id found at attr i's position
 * that maps to an attr of that same layout.
 */
static int
record_attr_slow(const struct session *s, const struct rec *r)
{
	const struct attr_table *t = &s->attrs;
	size_t n = r->size >= 8 ? (r->size - 8) / 8 : 0;

	for (size_t i = 0; i < t->n; i++) {
		const struct pn_attr *pa = &t->v[i];
		uint64_t id;
		int j;

		if (r->type == PERF_RECORD_SAMPLE) {
			if (pa->id_pos < 0 || (size_t)pa->id_pos >= n)
				continue;
			id = rd64(r->p + 8 + 8 * (size_t)pa->id_pos, r->swap);
			j = attr_table_find_id(t, id);
			if (j >= 0 && t->v[j].id_pos == pa->id_pos)
				return j;
		} else {
			if (!pa->attr.sample_id_all || pa->is_pos <= 0 || (size_t)pa->is_pos > n)
				continue;
			id = rd64(r->p + r->size - 8 * (size_t)pa->is_pos, r->swap);
			j = attr_table_find_id(t, id);
			if (j >= 0 && t->v[j].is_pos == pa->is_pos)
				return j;
		}
	}
	return -1;
}

int
record_attr(const struct session *s, const struct rec *r)
{
	const struct attr_table *t = &s->attrs;
	uint64_t id;

	if (t->n == 0)
		return -1;
	if (t->n == 1)
		return 0;
	if (r->type != PERF_RECORD_SAMPLE && !type_has_trailer(r->type))
		return -1;
	if (r->type == PERF_RECORD_SAMPLE ? t->id_pos >= 0 : t->is_pos > 0) {
		if (!record_id(s, r, &id))
			return -1;
		return attr_table_find_id(t, id);
	}
	return record_attr_slow(s, r);
}

/*
 * The attr whose layout decodes a record: its own, else (unknown id, as in
 * the zeroed trailers of records perf synthesizes) the first one, which
 * perf requires to agree with the others on the trailer layout.
 */
static const struct pn_attr *
layout_attr(const struct session *s, const struct rec *r, int *idx)
{
	int a = record_attr(s, r);

	*idx = a;
	if (a >= 0)
		return &s->attrs.v[a];
	if (s->attrs.n == 0)
		return NULL;
	if (r->type == PERF_RECORD_SAMPLE && !s->attrs.same_sample_type)
		return NULL;
	return &s->attrs.v[0];
}

int
record_decode_sample_id(const struct session *s, const struct rec *r, struct sample_id *out)
{
	const struct pn_attr *pa;
	struct cursor c;
	uint64_t st;
	uint32_t tsz;
	int a;

	memset(out, 0, sizeof *out);
	if (!type_has_trailer(r->type) || r->size < 8)
		return -1;
	pa = layout_attr(s, r, &a);
	if (pa == NULL || !pa->attr.sample_id_all)
		return -1;
	st = pa->attr.sample_type;
	tsz = attr_trailer_size(st);
	if (tsz == 0 || r->size - 8 < tsz || r->size - 8 - tsz < kernel_body_min[r->type])
		return -1;
	cursor_init(&c, r->p + r->size - tsz, tsz, r->swap);
	if (st & PERF_SAMPLE_TID) {
		out->pid = cursor_u32(&c);
		out->tid = cursor_u32(&c);
	}
	if (st & PERF_SAMPLE_TIME)
		out->time = cursor_u64(&c);
	if (st & PERF_SAMPLE_ID)
		out->id = cursor_u64(&c);
	if (st & PERF_SAMPLE_STREAM_ID)
		out->stream_id = cursor_u64(&c);
	if (st & PERF_SAMPLE_CPU) {
		out->cpu = cursor_u32(&c);
		out->res = cursor_u32(&c);
	}
	if (st & PERF_SAMPLE_IDENTIFIER)
		out->identifier = cursor_u64(&c);
	if (c.bad)
		return -1;
	out->have = (uint32_t)(st & (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
	    PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER));
	return 0;
}

/* Take n u64s (n already checked against SAMPLE_MAX_NR) or fail. */
static const uint8_t *
take_u64s(struct cursor *c, uint64_t n)
{
	if (n > cursor_left(c) / 8) {
		c->bad = true;
		return NULL;
	}
	return cursor_take(c, (size_t)n * 8);
}

/* Bytes of a read_format block holding nr values (nr 1 if not a group). */
static uint64_t
read_entry_u64s(uint64_t rf)
{
	return 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
}

/* The fields at fixed positions, IDENTIFIER to PERIOD: each takes 8
 * bytes (TID and CPU are two u32s), so one check covers them all. */
static int
sample_head(struct cursor *c, uint64_t st, struct sample *out)
{
	/* 9 bits counted by hand: without -mpopcnt the builtin is a call */
	size_t need = 8 * (size_t)(!!(st & PERF_SAMPLE_IDENTIFIER) + !!(st & PERF_SAMPLE_IP) +
	    !!(st & PERF_SAMPLE_TID) + !!(st & PERF_SAMPLE_TIME) + !!(st & PERF_SAMPLE_ADDR) +
	    !!(st & PERF_SAMPLE_ID) + !!(st & PERF_SAMPLE_STREAM_ID) + !!(st & PERF_SAMPLE_CPU) +
	    !!(st & PERF_SAMPLE_PERIOD));
	const uint8_t *p = cursor_take(c, need);
	bool sw = c->swap;

	if (p == NULL)
		return -1;
	if (st & PERF_SAMPLE_IDENTIFIER) {
		out->identifier = rd64(p, sw);
		p += 8;
	}
	if (st & PERF_SAMPLE_IP) {
		out->ip = rd64(p, sw);
		p += 8;
	}
	if (st & PERF_SAMPLE_TID) {
		out->pid = rd32(p, sw);
		out->tid = rd32(p + 4, sw);
		p += 8;
	}
	if (st & PERF_SAMPLE_TIME) {
		out->time = rd64(p, sw);
		p += 8;
	}
	if (st & PERF_SAMPLE_ADDR) {
		out->addr = rd64(p, sw);
		p += 8;
	}
	if (st & PERF_SAMPLE_ID) {
		out->id = rd64(p, sw);
		p += 8;
	}
	if (st & PERF_SAMPLE_STREAM_ID) {
		out->stream_id = rd64(p, sw);
		p += 8;
	}
	if (st & PERF_SAMPLE_CPU) {
		out->cpu = rd32(p, sw);
		out->res = rd32(p + 4, sw);
		p += 8;
	}
	if (st & PERF_SAMPLE_PERIOD)
		out->period = rd64(p, sw);
	return 0;
}

int
record_sample_head(const struct session *s, const struct rec *r, int attr, struct sample *out)
{
	struct cursor c;

	/* Only the head is written: no memset of the whole struct per sample. */
	out->identifier = out->ip = out->time = out->addr = out->id = out->stream_id = 0;
	out->period = 0;
	out->pid = out->tid = out->cpu = out->res = 0;
	out->attr = attr;
	out->swap = r->swap;
	if (attr < 0 || (size_t)attr >= s->attrs.n || r->size < 8)
		return -1;
	out->sample_type = s->attrs.v[attr].attr.sample_type;
	cursor_init(&c, r->p + 8, r->size - 8, r->swap);
	return sample_head(&c, out->sample_type, out);
}

#define FAIL(msg) do { *why = (msg); return -1; } while (0)

int
record_decode_sample(const struct session *s, const struct rec *r, struct sample *out,
    const char **why)
{
	const struct pn_attr *pa;
	const struct perf_event_attr *at;
	const char *dummy;
	struct cursor c;
	uint64_t st;
	int a;

	if (why == NULL)
		why = &dummy;
	*why = NULL;
	memset(out, 0, sizeof *out);
	out->attr = -1;
	out->swap = r->swap;
	if (r->type != PERF_RECORD_SAMPLE)
		FAIL("not a sample");
	if (r->size < 8)
		FAIL("record smaller than its header");
	pa = layout_attr(s, r, &a);
	if (pa == NULL)
		FAIL(s->attrs.n ? "sample of an unknown event id" : "no event attributes");
	at = &pa->attr;
	st = at->sample_type;
	out->attr = a;
	out->sample_type = st;
	cursor_init(&c, r->p + 8, r->size - 8, r->swap);
	if (sample_head(&c, st, out) < 0)
		FAIL("sample shorter than its fixed fields");

	if (st & PERF_SAMPLE_READ) {
		uint64_t rf = at->read_format, n;
		size_t start = c.pos;

		out->read_format = rf;
		if (rf & PERF_FORMAT_GROUP) {
			uint64_t nr = cursor_u64(&c);

			if (c.bad)
				FAIL("sample too short for its read group count");
			if (nr > SAMPLE_MAX_NR)
				FAIL("absurd read group count");
			n = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			    !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING) + nr * read_entry_u64s(rf);
		} else {
			n = read_entry_u64s(rf) + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			    !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
		}
		if (take_u64s(&c, n) == NULL)
			FAIL("read values run past the sample");
		out->read = c.base + start;
		out->read_len = c.pos - start;
	}

	if (st & PERF_SAMPLE_CALLCHAIN) {
		uint64_t nr = cursor_u64(&c);

		if (c.bad)
			FAIL("sample too short for its callchain count");
		if (nr > SAMPLE_MAX_NR)
			FAIL("absurd callchain length");
		out->callchain = take_u64s(&c, nr);
		if (out->callchain == NULL)
			FAIL("callchain runs past the sample");
		out->callchain_nr = nr;
	}

	if (st & PERF_SAMPLE_RAW) {
		uint32_t sz = cursor_u32(&c);
		uint64_t padded;

		if (c.bad)
			FAIL("sample too short for its raw size");
		/* The u32 size and the data are padded to 8 bytes as a whole. */
		padded = (((uint64_t)sz + 4 + 7) & ~UINT64_C(7)) - 4;
		if (padded > cursor_left(&c))
			FAIL("raw data runs past the sample");
		out->raw = cursor_take(&c, sz);
		out->raw_size = sz;
		cursor_take(&c, (size_t)(padded - sz));
	}

	if (st & PERF_SAMPLE_BRANCH_STACK) {
		uint64_t nr = cursor_u64(&c);

		if (c.bad)
			FAIL("sample too short for its branch stack count");
		if (nr > SAMPLE_MAX_NR)
			FAIL("absurd branch stack count");
		out->branch_nr = nr;
		if (at->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) {
			out->branch_has_hw_idx = true;
			out->branch_hw_idx = cursor_u64(&c);
			if (c.bad)
				FAIL("sample too short for its branch hw_idx");
		}
		out->branch = take_u64s(&c, nr * 3);
		if (out->branch == NULL)
			FAIL("branch stack runs past the sample");
		if ((at->branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS) &&
		    take_u64s(&c, nr) == NULL)
			FAIL("branch counters run past the sample");
	}

	if (st & PERF_SAMPLE_REGS_USER) {
		out->uregs_abi = cursor_u64(&c);
		if (c.bad)
			FAIL("sample too short for its user regs abi");
		out->uregs_mask = at->sample_regs_user;
		if (out->uregs_abi != 0) {
			out->uregs = take_u64s(&c, (uint64_t)__builtin_popcountll(at->sample_regs_user));
			if (out->uregs == NULL)
				FAIL("user regs run past the sample");
		}
	}

	if (st & PERF_SAMPLE_STACK_USER) {
		uint64_t sz = cursor_u64(&c);

		if (c.bad)
			FAIL("sample too short for its user stack size");
		if (sz > cursor_left(&c))
			FAIL("user stack runs past the sample");
		out->stack_size = sz;
		if (sz != 0) {
			out->stack = cursor_take(&c, (size_t)sz);
			out->stack_dyn_size = cursor_u64(&c);
			if (c.bad)
				FAIL("sample too short for its user stack dyn_size");
			if (out->stack_dyn_size > sz)
				FAIL("user stack dyn_size larger than its size");
		}
	}

	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		uint64_t w = cursor_u64(&c);

		if (st & PERF_SAMPLE_WEIGHT_STRUCT) {
			/* var1_dw is the low 32 bits of the u64 in either byte order. */
			out->weight = (uint32_t)w;
			out->weight_var2 = (uint16_t)(w >> 32);
			out->weight_var3 = (uint16_t)(w >> 48);
		} else {
			out->weight = w;
		}
	}
	if (st & PERF_SAMPLE_DATA_SRC)
		out->data_src = cursor_u64(&c);
	if (st & PERF_SAMPLE_TRANSACTION)
		out->transaction = cursor_u64(&c);
	if (c.bad)
		FAIL("sample too short for weight/data_src/transaction");

	if (st & PERF_SAMPLE_REGS_INTR) {
		out->iregs_abi = cursor_u64(&c);
		if (c.bad)
			FAIL("sample too short for its interrupt regs abi");
		out->iregs_mask = at->sample_regs_intr;
		if (out->iregs_abi != 0) {
			out->iregs = take_u64s(&c, (uint64_t)__builtin_popcountll(at->sample_regs_intr));
			if (out->iregs == NULL)
				FAIL("interrupt regs run past the sample");
		}
	}

	if (st & PERF_SAMPLE_PHYS_ADDR)
		out->phys_addr = cursor_u64(&c);
	if (st & PERF_SAMPLE_CGROUP)
		out->cgroup = cursor_u64(&c);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		out->data_page_size = cursor_u64(&c);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		out->code_page_size = cursor_u64(&c);
	if (c.bad)
		FAIL("sample too short for phys_addr/cgroup/page sizes");

	if (st & PERF_SAMPLE_AUX) {
		uint64_t sz = cursor_u64(&c);

		if (c.bad)
			FAIL("sample too short for its aux size");
		if (sz > cursor_left(&c))
			FAIL("aux data runs past the sample");
		out->aux_size = sz;
		out->aux = cursor_take(&c, (size_t)sz);
	}
	return 0;
}

/*
 * Smallest body of the perf tool's records that loading reads (index by
 * type - PF_REC_USER_TYPE_START); 0 where nothing is read or the record
 * checks itself.
 */
static const uint8_t user_body_min[PF_REC_MAX_KNOWN - PF_REC_USER_TYPE_START] = {
	[PF_REC_ATTR - PF_REC_USER_TYPE_START] = PF_ATTR_SIZE_VER0_MIN,
	[PF_REC_TRACING_DATA - PF_REC_USER_TYPE_START] = 4,	/* u32 size */
	[PF_REC_BUILD_ID - PF_REC_USER_TYPE_START] = 28,	/* pid, build_id[24] */
	[PF_REC_ID_INDEX - PF_REC_USER_TYPE_START] = 8,		/* nr */
	[PF_REC_AUXTRACE - PF_REC_USER_TYPE_START] = 40,	/* size .. reserved */
	[PF_REC_EVENT_UPDATE - PF_REC_USER_TYPE_START] = 16,	/* type, id */
	[PF_REC_FEATURE - PF_REC_USER_TYPE_START] = 8,		/* feat_id */
	[PF_REC_COMPRESSED2 - PF_REC_USER_TYPE_START] = 8,	/* data_size */
};

int
record_check(const struct session *s, const struct rec *r, struct sample *smp, const char **why)
{
	uint32_t body = r->size - 8;

	*why = NULL;
	if (r->type == PERF_RECORD_SAMPLE)
		return record_decode_sample(s, r, smp, why);
	if ((r->type < PF_REC_USER_TYPE_START && body < kernel_body_min[r->type]) ||
	    (r->type >= PF_REC_USER_TYPE_START && r->type < PF_REC_MAX_KNOWN &&
	    body < user_body_min[r->type - PF_REC_USER_TYPE_START])) {
		*why = "shorter than its fixed fields";
		return -1;
	}
	if (r->type == PF_REC_COMPRESSED2 && rd64(r->p + 8, r->swap) > body - 8) {
		*why = "data_size runs past the record";
		return -1;
	}
	return 0;
}
