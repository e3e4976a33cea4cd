#include "config.h"

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/attr.h"
#include "core/bytes.h"
#include "core/perf_file.h"
#include "core/record.h"
#include "core/sample_walk.h"
#include "core/session.h"
#include "core/session_int.h"

/* Newer kernels than our <linux/perf_event.h> may know. */
#ifndef PERF_SAMPLE_BRANCH_COUNTERS
#define PERF_SAMPLE_BRANCH_COUNTERS	(1ULL << 19)
#endif

/* ---- the record table ---- */

/* Its two halves: core/rec_kernel.c, core/rec_tool.c. */
extern const struct rec_type rec_kernel_types[PF_REC_USER_TYPE_START];
extern const struct rec_type rec_tool_types[PF_REC_MAX_KNOWN - PF_REC_USER_TYPE_START];

const struct rec_type *
record_type(uint32_t type)
{
	const struct rec_type *t;

	if (type < PF_REC_USER_TYPE_START)
		t = &rec_kernel_types[type];
	else if (type < PF_REC_MAX_KNOWN)
		t = &rec_tool_types[type - PF_REC_USER_TYPE_START];
	else
		return NULL;
	return t->name != NULL ? t : NULL;
}

const char *
record_type_name(uint32_t type)
{
	const struct rec_type *t = record_type(type);

	return t != NULL ? t->name : NULL;
}

/* The smallest whole body of a type (0 for an unknown one). */
static uint32_t
body_min(uint32_t type)
{
	const struct rec_type *t = record_type(type);

	return t != NULL ? t->body_min : 0;
}

int
record_who(const struct rec *r, struct rec_who *w)
{
	const struct rec_type *t = record_type(r->type);
	const uint8_t *b = r->p + 8;

	if (t == NULL || t->pid < 0 || r->size < 8 || r->size - 8 < t->who_min)
		return -1;
	w->pid = (int32_t)rd32(b + t->pid, r->swap);
	if (t->tid >= 0)
		w->tid = (int32_t)rd32(b + t->tid, r->swap);
	if (t->time >= 0) {
		w->time = rd64(b + t->time, r->swap);
		w->has_time = true;
	}
	return 0;
}

/* Does a record of this type carry a sample_id_all trailer (if enabled)? */
static bool
type_has_trailer(uint32_t type)
{
	return type != 0 && type != PF_REC_SAMPLE && type < PF_REC_USER_TYPE_START;
}

/* The u64 that identifies a record's event, if it can be located. */
static bool
record_id(const struct attr_table *at, const struct rec *r, uint64_t *id)
{
	const struct attr_table *t = at;
	size_t n = r->size >= 8 ? (r->size - 8) / 8 : 0;

	if (r->type == PF_REC_SAMPLE) {
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
record_attr_slow(const struct attr_table *at, const struct rec *r)
{
	const struct attr_table *t = at;
	size_t n = r->size >= 8 ? (r->size - 8) / 8 : 0;

	for (size_t i = 0; i < t->n; i++) {
		const struct pn_attr *pa = &t->v[i];
		uint64_t id;
		int j;

		if (r->type == PF_REC_SAMPLE) {
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
record_attr(const struct attr_table *at, const struct rec *r)
{
	const struct attr_table *t = at;
	uint64_t id;

	if (t->n == 0)
		return -1;
	if (t->n == 1)
		return 0;
	if (r->type != PF_REC_SAMPLE && !type_has_trailer(r->type))
		return -1;
	if (r->type == PF_REC_SAMPLE ? t->id_pos >= 0 : t->is_pos > 0) {
		if (!record_id(at, r, &id))
			return -1;
		return attr_table_find_id(t, id);
	}
	return record_attr_slow(at, r);
}

const struct pn_attr *
record_layout(const struct attr_table *at, const struct rec *r, int *idx)
{
	int a = record_attr(at, r);

	*idx = a;
	if (a >= 0)
		return &at->v[a];
	if (at->n == 0)
		return NULL;
	if (r->type == PF_REC_SAMPLE && !at->same_sample_type)
		return NULL;
	return &at->v[0];
}

int
record_decode_sample_id(const struct attr_table *at, const struct rec *r, struct sample_id *out)
{
	const struct pn_attr *pa;
	struct cursor c;
	uint64_t st;
	uint32_t tsz;
	int a;

	memset(out, 0, sizeof *out);
	if (!type_has_trailer(r->type) || r->size < 8)
		return -1;
	pa = record_layout(at, r, &a);
	if (pa == NULL || !pa->attr.sample_id_all)
		return -1;
	st = pa->attr.sample_type;
	tsz = attr_trailer_size(st);
	if (tsz == 0 || r->size - 8 < tsz || r->size - 8 - tsz < body_min(r->type))
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
record_sample_head(const struct attr_table *at, const struct rec *r, int attr, struct sample *out)
{
	struct cursor c;

	/* Only the head is written: no memset of the whole struct per sample. */
	out->identifier = out->ip = out->time = out->addr = out->id = out->stream_id = 0;
	out->period = 0;
	out->pid = out->tid = out->cpu = out->res = 0;
	out->attr = attr;
	out->swap = r->swap;
	if (attr < 0 || (size_t)attr >= at->n || r->size < 8)
		return -1;
	out->sample_type = at->v[attr].attr.sample_type;
	cursor_init(&c, r->p + 8, r->size - 8, r->swap);
	return sample_head(&c, out->sample_type, out);
}

/* ---- the sample walk ---- */

struct walk {
	struct cursor			*c;
	struct sample			*out;
	const struct sample_sink	*sink;	/* NULL when only decoding */
	const char			*why;
};

/* Field id (entry i) of len bytes, to a describing walk: false if it does
 * not fit there.  Decoding, always true. */
static inline bool
w_show(struct walk *w, enum sample_field_id id, uint64_t i, uint64_t len)
{
	return w->sink == NULL || w->sink->field(w->sink->arg, id, i, len);
}

/* n entries of each bytes, already taken by the walk, to a describing walk. */
static void
w_show_n(struct walk *w, enum sample_field_id id, uint64_t n, uint64_t each)
{
	if (w->sink != NULL)
		for (uint64_t i = 0; i < n; i++)
			w->sink->field(w->sink->arg, id, i, each);
}

/* Stop the walk: why for decoding, dwhy for the description. */
static int
w_fail2(struct walk *w, const char *why, const char *dwhy)
{
	w->why = why;
	if (w->sink != NULL)
		w->sink->bad(w->sink->arg, dwhy);
	return -1;
}

static int
w_fail(struct walk *w, const char *why)
{
	return w_fail2(w, why, why);
}

/* A describing walk needs n more bytes before it shows the next fields. */
static bool
w_need(struct walk *w, uint64_t n, const char *dwhy)
{
	if (w->sink == NULL || n <= cursor_left(w->c))
		return true;
	w_fail2(w, dwhy, dwhy);
	return false;
}

/* The fields at fixed positions, in order; TID and CPU are two u32s. */
static const struct {
	uint64_t		bit;
	enum sample_field_id	id;
	uint8_t			len;
} head_fields[] = {
	{ PERF_SAMPLE_IDENTIFIER, SF_IDENTIFIER, 8 }, { PERF_SAMPLE_IP, SF_IP, 8 },
	{ PERF_SAMPLE_TID, SF_PID, 4 }, { PERF_SAMPLE_TID, SF_TID, 4 },
	{ PERF_SAMPLE_TIME, SF_TIME, 8 }, { PERF_SAMPLE_ADDR, SF_ADDR, 8 },
	{ PERF_SAMPLE_ID, SF_ID, 8 }, { PERF_SAMPLE_STREAM_ID, SF_STREAM_ID, 8 },
	{ PERF_SAMPLE_CPU, SF_CPU, 4 }, { PERF_SAMPLE_CPU, SF_RES, 4 },
	{ PERF_SAMPLE_PERIOD, SF_PERIOD, 8 },
};

static int
walk_head(struct walk *w, uint64_t st)
{
	if (w->sink != NULL)
		for (size_t i = 0; i < sizeof head_fields / sizeof head_fields[0]; i++)
			if ((st & head_fields[i].bit) &&
			    !w_show(w, head_fields[i].id, 0, head_fields[i].len))
				return -1;
	/* sample_head() reads the same fields unrolled: it is the hot path */
	if (sample_head(w->c, st, w->out) < 0)
		return w_fail(w, "sample shorter than its fixed fields");
	return 0;
}

/* A group's values: nr, then time_enabled/running, then nr entries. */
static int
walk_read_group(struct walk *w, uint64_t rf, uint64_t *n)
{
	uint64_t nr, each = read_entry_u64s(rf);

	if (!w_show(w, SF_READ_NR, 0, 8))
		return -1;
	nr = cursor_u64(w->c);
	if (w->c->bad)
		return w_fail(w, "sample too short for its read group count");
	if (nr > SAMPLE_MAX_NR)
		return w_fail(w, "absurd read group count");
	if (!w_need(w, nr * 8 * each, "read values run past the record"))
		return -1;
	if (((rf & PERF_FORMAT_TOTAL_TIME_ENABLED) && !w_show(w, SF_READ_TIME_ENABLED, 0, 8)) ||
	    ((rf & PERF_FORMAT_TOTAL_TIME_RUNNING) && !w_show(w, SF_READ_TIME_RUNNING, 0, 8)))
		return -1;
	for (uint64_t i = 0; w->sink != NULL && i < nr; i++)
		if (!w_show(w, SF_READ_GROUP_VALUE, i, 8) ||
		    ((rf & PERF_FORMAT_ID) && !w_show(w, SF_READ_GROUP_ID, i, 8)) ||
		    ((rf & PERF_FORMAT_LOST) && !w_show(w, SF_READ_GROUP_LOST, i, 8)))
			return -1;
	*n = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING) +
	    nr * each;
	return 0;
}

int
sample_walk_read(uint64_t rf, struct cursor *c, struct sample *out,
    const struct sample_sink *sink, const char **why)
{
	struct walk w = { c, out, sink, NULL };
	size_t start = c->pos;
	uint64_t n;

	out->read_format = rf;
	if (rf & PERF_FORMAT_GROUP) {
		if (walk_read_group(&w, rf, &n) < 0)
			goto fail;
	} else {
		if (!w_show(&w, SF_READ_VALUE, 0, 8) ||
		    ((rf & PERF_FORMAT_TOTAL_TIME_ENABLED) && !w_show(&w, SF_READ_TIME_ENABLED, 0, 8)) ||
		    ((rf & PERF_FORMAT_TOTAL_TIME_RUNNING) && !w_show(&w, SF_READ_TIME_RUNNING, 0, 8)) ||
		    ((rf & PERF_FORMAT_ID) && !w_show(&w, SF_READ_ID, 0, 8)) ||
		    ((rf & PERF_FORMAT_LOST) && !w_show(&w, SF_READ_LOST, 0, 8)))
			goto fail;
		n = read_entry_u64s(rf) + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		    !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	}
	if (take_u64s(c, n) == NULL) {
		w_fail(&w, "read values run past the sample");
		goto fail;
	}
	out->read = c->base + start;
	out->read_len = c->pos - start;
	return 0;
fail:
	*why = w.why;
	return -1;
}

static int
walk_callchain(struct walk *w)
{
	uint64_t nr;

	if (!w_show(w, SF_CALLCHAIN_NR, 0, 8))
		return -1;
	nr = cursor_u64(w->c);
	if (w->c->bad)
		return w_fail(w, "sample too short for its callchain count");
	if (nr > SAMPLE_MAX_NR)
		return w_fail(w, "absurd callchain length");
	w->out->callchain = take_u64s(w->c, nr);
	if (w->out->callchain == NULL)
		return w_fail(w, "callchain runs past the sample");
	w->out->callchain_nr = nr;
	w_show_n(w, SF_CALLCHAIN, nr, 8);
	return 0;
}

static int
walk_raw(struct walk *w)
{
	uint32_t sz;
	uint64_t padded;

	if (!w_show(w, SF_RAW_SIZE, 0, 4))
		return -1;
	sz = cursor_u32(w->c);
	if (w->c->bad)
		return w_fail(w, "sample too short for its raw size");
	/* The u32 size and the data are padded to 8 bytes as a whole. */
	padded = (((uint64_t)sz + 4 + 7) & ~UINT64_C(7)) - 4;
	if (padded > cursor_left(w->c))
		return w_fail(w, "raw data runs past the sample");
	w->out->raw = cursor_take(w->c, sz);
	w->out->raw_size = sz;
	cursor_take(w->c, (size_t)(padded - sz));
	w_show(w, SF_RAW_DATA, 0, sz);
	w_show(w, SF_RAW_PAD, 0, padded - sz);
	return 0;
}

static int
walk_branch(struct walk *w, const struct perf_event_attr *at)
{
	bool counters = at->branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS;
	bool hw_idx = at->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX;
	struct sample *out = w->out;
	uint64_t nr;

	if (!w_show(w, SF_BRANCH_NR, 0, 8))
		return -1;
	nr = cursor_u64(w->c);
	if (w->c->bad)
		return w_fail(w, "sample too short for its branch stack count");
	if (nr > SAMPLE_MAX_NR)
		return w_fail(w, "absurd branch stack count");
	out->branch_nr = nr;
	if (hw_idx) {
		if (!w_show(w, SF_BRANCH_HW_IDX, 0, 8))
			return -1;
		out->branch_has_hw_idx = true;
		out->branch_hw_idx = cursor_u64(w->c);
		if (w->c->bad)
			return w_fail(w, "sample too short for its branch hw_idx");
	}
	if (!w_need(w, nr * (counters ? 32 : 24), "branch stack runs past the sample"))
		return -1;
	out->branch = take_u64s(w->c, nr * 3);
	if (out->branch == NULL)
		return w_fail(w, "branch stack runs past the sample");
	for (uint64_t i = 0; w->sink != NULL && i < nr; i++) {
		w_show(w, SF_BRANCH_FROM, i, 8);
		w_show(w, SF_BRANCH_TO, i, 8);
		w_show(w, SF_BRANCH_FLAGS, i, 8);
	}
	if (counters) {
		if (take_u64s(w->c, nr) == NULL)
			return w_fail(w, "branch counters run past the sample");
		w_show_n(w, SF_BRANCH_COUNTERS, nr, 8);
	}
	return 0;
}

/* REGS_USER (intr false) or REGS_INTR: abi, then the registers of mask. */
static int
walk_regs(struct walk *w, uint64_t mask, bool intr)
{
	uint64_t abi;
	const uint8_t *regs = NULL;

	if (!w_show(w, intr ? SF_IREGS_ABI : SF_UREGS_ABI, 0, 8))
		return -1;
	abi = cursor_u64(w->c);
	if (w->c->bad)
		return w_fail2(w, intr ? "sample too short for its interrupt regs abi" :
		    "sample too short for its user regs abi", "regs abi");
	if (abi != 0) {
		regs = take_u64s(w->c, (uint64_t)__builtin_popcountll(mask));
		if (regs == NULL)
			return w_fail2(w, intr ? "interrupt regs run past the sample" :
			    "user regs run past the sample", "registers run past the sample");
		for (unsigned bit = 0; w->sink != NULL && bit < 64; bit++)
			if (mask & (UINT64_C(1) << bit))
				w_show(w, intr ? SF_IREGS : SF_UREGS, bit, 8);
	}
	if (intr) {
		w->out->iregs_abi = abi;
		w->out->iregs_mask = mask;
		w->out->iregs = regs;
	} else {
		w->out->uregs_abi = abi;
		w->out->uregs_mask = mask;
		w->out->uregs = regs;
	}
	return 0;
}

/* A u64 size (field size_id) that the bytes after it must hold. */
static int
walk_size(struct walk *w, enum sample_field_id size_id, const char *short_why,
    const char *past_why, uint64_t *sz)
{
	if (!w_show(w, size_id, 0, 8))
		return -1;
	*sz = cursor_u64(w->c);
	if (w->c->bad)
		return w_fail(w, short_why);
	if (*sz > cursor_left(w->c))
		return w_fail(w, past_why);
	return 0;
}

static int
walk_stack(struct walk *w)
{
	uint64_t sz;

	if (walk_size(w, SF_STACK_SIZE, "sample too short for its user stack size",
	    "user stack runs past the sample", &sz) < 0)
		return -1;
	w->out->stack_size = sz;
	if (sz == 0)
		return 0;
	w->out->stack = cursor_take(w->c, (size_t)sz);
	w_show(w, SF_STACK_DATA, 0, sz);
	if (!w_show(w, SF_STACK_DYN_SIZE, 0, 8))
		return -1;
	w->out->stack_dyn_size = cursor_u64(w->c);
	if (w->c->bad)
		return w_fail(w, "sample too short for its user stack dyn_size");
	if (w->out->stack_dyn_size > sz)
		return w_fail(w, "user stack dyn_size larger than its size");
	return 0;
}

/* WEIGHT or WEIGHT_STRUCT, DATA_SRC, TRANSACTION. */
static int
walk_weight(struct walk *w, uint64_t st)
{
	struct sample *out = w->out;

	if (st & PERF_SAMPLE_WEIGHT_STRUCT) {
		/* var1_dw is the low half of the u64 in the file's byte order. */
		if (!w_need(w, 8, "sample too short for its weight"))
			return -1;
		if (w->sink != NULL && !w->c->swap) {
			w_show(w, SF_WEIGHT_VAR1, 0, 4);
			w_show(w, SF_WEIGHT_VAR2, 0, 2);
			w_show(w, SF_WEIGHT_VAR3, 0, 2);
		} else if (w->sink != NULL) {
			w_show(w, SF_WEIGHT_VAR3, 0, 2);
			w_show(w, SF_WEIGHT_VAR2, 0, 2);
			w_show(w, SF_WEIGHT_VAR1, 0, 4);
		}
	} else if ((st & PERF_SAMPLE_WEIGHT) && !w_show(w, SF_WEIGHT, 0, 8)) {
		return -1;
	}
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		uint64_t v = cursor_u64(w->c);

		if (st & PERF_SAMPLE_WEIGHT_STRUCT) {
			/* var1_dw is the low 32 bits of the u64 in either byte order. */
			out->weight = (uint32_t)v;
			out->weight_var2 = (uint16_t)(v >> 32);
			out->weight_var3 = (uint16_t)(v >> 48);
		} else {
			out->weight = v;
		}
	}
	if (st & PERF_SAMPLE_DATA_SRC) {
		if (!w_show(w, SF_DATA_SRC, 0, 8))
			return -1;
		out->data_src = cursor_u64(w->c);
	}
	if (st & PERF_SAMPLE_TRANSACTION) {
		if (!w_show(w, SF_TRANSACTION, 0, 8))
			return -1;
		out->transaction = cursor_u64(w->c);
	}
	if (w->c->bad)
		return w_fail(w, "sample too short for weight/data_src/transaction");
	return 0;
}

/* PHYS_ADDR, CGROUP, DATA_PAGE_SIZE, CODE_PAGE_SIZE: one u64 each. */
static int
walk_u64s(struct walk *w, uint64_t st)
{
	static const struct {
		uint64_t		bit;
		enum sample_field_id	id;
		size_t			off;
	} f[] = {
		{ PERF_SAMPLE_PHYS_ADDR, SF_PHYS_ADDR, offsetof(struct sample, phys_addr) },
		{ PERF_SAMPLE_CGROUP, SF_CGROUP, offsetof(struct sample, cgroup) },
		{ PERF_SAMPLE_DATA_PAGE_SIZE, SF_DATA_PAGE_SIZE,
		    offsetof(struct sample, data_page_size) },
		{ PERF_SAMPLE_CODE_PAGE_SIZE, SF_CODE_PAGE_SIZE,
		    offsetof(struct sample, code_page_size) },
	};

	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
		uint64_t v;

		if (!(st & f[i].bit))
			continue;
		if (!w_show(w, f[i].id, 0, 8))
			return -1;
		v = cursor_u64(w->c);
		memcpy((char *)w->out + f[i].off, &v, sizeof v);
	}
	if (w->c->bad)
		return w_fail(w, "sample too short for phys_addr/cgroup/page sizes");
	return 0;
}

static int
walk_aux(struct walk *w)
{
	uint64_t sz;

	if (walk_size(w, SF_AUX_SIZE, "sample too short for its aux size",
	    "aux data runs past the sample", &sz) < 0)
		return -1;
	w->out->aux_size = sz;
	w->out->aux = cursor_take(w->c, (size_t)sz);
	w_show(w, SF_AUX_DATA, 0, sz);
	return 0;
}

/* The parts after the head, in perf's order. */
static int
walk_rest(struct walk *w, const struct perf_event_attr *at, uint64_t st)
{
	if ((st & PERF_SAMPLE_READ) &&
	    sample_walk_read(at->read_format, w->c, w->out, w->sink, &w->why) < 0)
		return -1;
	if ((st & PERF_SAMPLE_CALLCHAIN) && walk_callchain(w) < 0)
		return -1;
	if ((st & PERF_SAMPLE_RAW) && walk_raw(w) < 0)
		return -1;
	if ((st & PERF_SAMPLE_BRANCH_STACK) && walk_branch(w, at) < 0)
		return -1;
	if ((st & PERF_SAMPLE_REGS_USER) && walk_regs(w, at->sample_regs_user, false) < 0)
		return -1;
	if ((st & PERF_SAMPLE_STACK_USER) && walk_stack(w) < 0)
		return -1;
	if ((st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC |
	    PERF_SAMPLE_TRANSACTION)) && walk_weight(w, st) < 0)
		return -1;
	if ((st & PERF_SAMPLE_REGS_INTR) && walk_regs(w, at->sample_regs_intr, true) < 0)
		return -1;
	if ((st & (PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE |
	    PERF_SAMPLE_CODE_PAGE_SIZE)) && walk_u64s(w, st) < 0)
		return -1;
	if ((st & PERF_SAMPLE_AUX) && walk_aux(w) < 0)
		return -1;
	return 0;
}

int
sample_walk(const struct perf_event_attr *at, struct cursor *c, struct sample *out,
    const struct sample_sink *sink, const char **why)
{
	struct walk w = { c, out, sink, NULL };
	uint64_t st = at->sample_type;

	if (walk_head(&w, st) < 0 || walk_rest(&w, at, st) < 0) {
		*why = w.why;
		return -1;
	}
	return 0;
}

#define FAIL(msg) \
	do { \
		*why = (msg); \
		return -1; \
	} while (0)

/* Every field 0: what a decode starts from. */
static const struct sample sample_zero;

int
record_decode_sample(const struct attr_table *at, const struct rec *r, struct sample *out,
    const char **why)
{
	const struct pn_attr *pa;
	const char *dummy;
	struct cursor c;
	int a;

	if (why == NULL)
		why = &dummy;
	*why = NULL;
	*out = sample_zero;	/* a copy, not memset: no string instruction per sample */
	out->attr = -1;
	out->swap = r->swap;
	if (r->type != PF_REC_SAMPLE)
		FAIL("not a sample");
	if (r->size < 8)
		FAIL("record smaller than its header");
	pa = record_layout(at, r, &a);
	if (pa == NULL)
		FAIL(at->n ? "sample of an unknown event id" : "no event attributes");
	out->attr = a;
	out->sample_type = pa->attr.sample_type;
	cursor_init(&c, r->p + 8, r->size - 8, r->swap);
	return sample_walk(&pa->attr, &c, out, NULL, why);
}

/* ---- the sample check: the walk's verdict without its writes ---- */

/* How far ahead of the record it checks the loader asks for the bytes. */
#ifndef RECORD_PREFETCH
#define RECORD_PREFETCH	4096
#endif

/* A u64 at p + pos when n - pos holds it (else false). */
static inline bool
fit_u64(const uint8_t *p, size_t n, size_t *pos, bool swap, uint64_t *v)
{
	if (n - *pos < 8)
		return false;
	*v = rd64(p + *pos, swap);
	*pos += 8;
	return true;
}

/* k u64s more at *pos when they fit. */
static inline bool
fit_skip(size_t n, size_t *pos, uint64_t k)
{
	if (k > (n - *pos) / 8)
		return false;
	*pos += (size_t)k * 8;
	return true;
}

/* READ: what sample_walk_read takes. */
static bool
fit_read(uint64_t rf, const uint8_t *p, size_t n, size_t *pos, bool swap)
{
	uint64_t k = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
	    !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING), nr;

	if (!(rf & PERF_FORMAT_GROUP))
		return fit_skip(n, pos, k + read_entry_u64s(rf));
	if (!fit_u64(p, n, pos, swap, &nr) || nr > SAMPLE_MAX_NR)
		return false;
	return fit_skip(n, pos, k + nr * read_entry_u64s(rf));
}

/* REGS_USER or REGS_INTR: abi, then mask's registers unless abi is 0. */
static inline bool
fit_regs(uint64_t mask, const uint8_t *p, size_t n, size_t *pos, bool swap)
{
	uint64_t abi;

	return fit_u64(p, n, pos, swap, &abi) &&
	    (abi == 0 || fit_skip(n, pos, (uint64_t)__builtin_popcountll(mask)));
}

/* A u64 size, then that many bytes (STACK_USER, AUX). */
static inline bool
fit_sized(const uint8_t *p, size_t n, size_t *pos, bool swap, uint64_t *sz)
{
	if (!fit_u64(p, n, pos, swap, sz) || *sz > n - *pos)
		return false;
	*pos += (size_t)*sz;
	return true;
}

/* The parts after READ in perf's order, as walk_rest takes them. */
static bool
fit_rest(const struct perf_event_attr *at, uint64_t st, const uint8_t *p, size_t n,
    size_t *pos, bool swap)
{
	uint64_t v, k;

	if (st & PERF_SAMPLE_RAW) {
		if (n - *pos < 4)
			return false;
		v = rd32(p + *pos, swap);
		*pos += 4;
		/* the u32 size and the data are padded to 8 bytes as a whole */
		v = ((v + 4 + 7) & ~UINT64_C(7)) - 4;
		if (v > n - *pos)
			return false;
		*pos += (size_t)v;
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		if (!fit_u64(p, n, pos, swap, &v) || v > SAMPLE_MAX_NR ||
		    ((at->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) &&
		    !fit_skip(n, pos, 1)) ||
		    !fit_skip(n, pos, v * 3) ||
		    ((at->branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS) && !fit_skip(n, pos, v)))
			return false;
	}
	if ((st & PERF_SAMPLE_REGS_USER) && !fit_regs(at->sample_regs_user, p, n, pos, swap))
		return false;
	if (st & PERF_SAMPLE_STACK_USER) {
		if (!fit_sized(p, n, pos, swap, &k))
			return false;
		if (k != 0 && (!fit_u64(p, n, pos, swap, &v) || v > k))
			return false;
	}
	k = !!(st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) +
	    !!(st & PERF_SAMPLE_DATA_SRC) + !!(st & PERF_SAMPLE_TRANSACTION);
	if (!fit_skip(n, pos, k))
		return false;
	if ((st & PERF_SAMPLE_REGS_INTR) && !fit_regs(at->sample_regs_intr, p, n, pos, swap))
		return false;
	k = !!(st & PERF_SAMPLE_PHYS_ADDR) + !!(st & PERF_SAMPLE_CGROUP) +
	    !!(st & PERF_SAMPLE_DATA_PAGE_SIZE) + !!(st & PERF_SAMPLE_CODE_PAGE_SIZE);
	if (!fit_skip(n, pos, k))
		return false;
	return !(st & PERF_SAMPLE_AUX) || fit_sized(p, n, pos, swap, &v);
}

bool
sample_fits(const struct perf_event_attr *at, const uint8_t *p, size_t n, bool swap)
{
	uint64_t st = at->sample_type, nr;
	size_t pos = 8 * (size_t)(!!(st & PERF_SAMPLE_IDENTIFIER) + !!(st & PERF_SAMPLE_IP) +
	    !!(st & PERF_SAMPLE_TID) + !!(st & PERF_SAMPLE_TIME) + !!(st & PERF_SAMPLE_ADDR) +
	    !!(st & PERF_SAMPLE_ID) + !!(st & PERF_SAMPLE_STREAM_ID) + !!(st & PERF_SAMPLE_CPU) +
	    !!(st & PERF_SAMPLE_PERIOD));

	if (pos > n)
		return false;
	if ((st & PERF_SAMPLE_READ) && !fit_read(at->read_format, p, n, &pos, swap))
		return false;
	if (st & PERF_SAMPLE_CALLCHAIN) {
		if (!fit_u64(p, n, &pos, swap, &nr) || nr > SAMPLE_MAX_NR ||
		    !fit_skip(n, &pos, nr))
			return false;
	}
	return (st & ~(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
	    PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
	    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN)) == 0 ||
	    fit_rest(at, st, p, n, &pos, swap);
}

/* A sample: whole (its head decoded into *smp unless NULL) by the check, else
 * decoded in full for why it is not. */
static int
check_sample(const struct attr_table *at, const struct rec *r, struct sample *smp, const char **why)
{
	const struct pn_attr *pa;
	struct sample tmp;
	struct cursor c;
	int a;

	if (r->size < 8 || (pa = record_layout(at, r, &a)) == NULL ||
	    !sample_fits(&pa->attr, r->p + 8, r->size - 8, r->swap))
		return record_decode_sample(at, r, smp ? smp : &tmp, why);
	if (smp == NULL)
		return 0;
	smp->identifier = smp->ip = smp->time = smp->addr = smp->id = smp->stream_id = 0;
	smp->period = 0;
	smp->pid = smp->tid = smp->cpu = smp->res = 0;
	smp->attr = a;
	smp->swap = r->swap;
	smp->sample_type = pa->attr.sample_type;
	cursor_init(&c, r->p + 8, r->size - 8, r->swap);
	sample_head(&c, smp->sample_type, smp);
	return 0;
}

int
record_check(const struct attr_table *at, const struct rec *r, struct sample *smp, const char **why)
{
	uint32_t body = r->size - 8;

	/*
	 * The loader checks the records in file order: ask for the bytes a
	 * little ahead now (the hardware's prefetch stops at the page), so that
	 * they are in the cache when their turn comes.  A prefetch never faults.
	 */
	__builtin_prefetch(r->p + RECORD_PREFETCH);
	*why = NULL;
	if (r->type == PF_REC_SAMPLE)
		return check_sample(at, r, smp, why);
	if (body < body_min(r->type)) {
		*why = "shorter than its fixed fields";
		return -1;
	}
	if (r->type == PF_REC_COMPRESSED2 && rd64(r->p + 8, r->swap) > body - 8) {
		*why = "data_size runs past the record";
		return -1;
	}
	if (r->type == PF_REC_CALLCHAIN_DEFERRED && rd64(r->p + 16, r->swap) > (body - 16) / 8) {
		*why = "callchain runs past the record";
		return -1;
	}
	if (r->type == PF_REC_BPF_METADATA && body < REC_BPF_META_HEAD) {
		/* its fixed fields are more than the table's u8 holds */
		*why = "shorter than its fixed fields";
		return -1;
	}
	if (r->type == PF_REC_BPF_METADATA &&
	    rd64(r->p + 8 + REC_BPF_META_NAME, r->swap) > (body - REC_BPF_META_HEAD) / REC_BPF_META_ENTRY) {
		*why = "nr_entries runs past the record";
		return -1;
	}
	if ((r->type == PF_REC_SCHEDSTAT_CPU || r->type == PF_REC_SCHEDSTAT_DOMAIN) &&
	    body < record_schedstat_size(r->type, rd16(r->p + 20, r->swap))) {
		*why = "shorter than its schedstat version's fields";
		return -1;
	}
	return 0;
}
