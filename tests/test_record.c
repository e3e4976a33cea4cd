/* Criterion tests of core/record.c and core/fields.c. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "tests/helpers.h"

#ifndef PERF_SAMPLE_BRANCH_COUNTERS
#define PERF_SAMPLE_BRANCH_COUNTERS	(1ULL << 19)
#endif

/* ---- a session with an attr table and nothing else ---- */

static void
sess_init(struct session *s, const struct perf_event_attr *a, size_t n)
{
	memset(s, 0, sizeof *s);
	for (size_t i = 0; i < n; i++) {
		uint32_t idx = attr_table_add(&s->attrs, &a[i], sizeof a[i], 0);

		attr_table_add_id(&s->attrs, idx, 100 + i);
		attr_table_add_id(&s->attrs, idx, 200 + i);
	}
	attr_table_finish(&s->attrs);
}

static void
sess_free(struct session *s)
{
	attr_table_free(&s->attrs);
}

static struct rec
mkrec(const struct pdbuf *b, size_t start)
{
	struct rec r;

	r.p = b->p + start;
	r.swap = b->swap;
	r.type = rd32(r.p, r.swap);
	r.misc = rd16(r.p + 4, r.swap);
	r.size = rd16(r.p + 6, r.swap);
	r.loc = start;
	return r;
}

/* ---- collecting fields ---- */

struct fcol {
	size_t	 n;
	struct {
		uint32_t	off, len;
		enum field_kind	kind;
		char		name[FIELD_NAME_MAX];
		char		value[FIELD_VALUE_MAX];
		uint64_t	num;
	} v[4096];
};

static struct fcol col;

static void
collect(void *arg, const struct field *f)
{
	struct fcol *c = arg;

	cr_assert_lt(c->n, sizeof c->v / sizeof c->v[0]);
	c->v[c->n].off = f->off;
	c->v[c->n].len = f->len;
	c->v[c->n].kind = f->kind;
	snprintf(c->v[c->n].name, sizeof c->v[c->n].name, "%s", f->name);
	snprintf(c->v[c->n].value, sizeof c->v[c->n].value, "%s", f->value);
	c->v[c->n].num = f->num;
	c->n++;
}

/* Describe r; assert its fields cover every byte exactly once, in order.
 * Returns fields_describe's result. */
static int
describe(const struct session *s, const struct rec *r)
{
	int rc;
	uint32_t next = 0;

	col.n = 0;
	rc = fields_describe(s, r, collect, &col);
	for (size_t i = 0; i < col.n; i++) {
		cr_assert_eq(col.v[i].off, next, "type %u: field %s at %u, expected %u", r->type,
		    col.v[i].name, col.v[i].off, next);
		cr_assert_gt(col.v[i].len, 0, "field %s is empty", col.v[i].name);
		cr_assert_not_null(col.v[i].value);
		next = col.v[i].off + col.v[i].len;
	}
	cr_assert_eq(next, r->size, "type %u: fields end at %u, record is %u bytes", r->type,
	    next, r->size);
	return rc;
}

static int
field_idx(const char *name)
{
	for (size_t i = 0; i < col.n; i++)
		if (strcmp(col.v[i].name, name) == 0)
			return (int)i;
	return -1;
}

static uint64_t
field_num(const char *name)
{
	int i = field_idx(name);

	cr_assert_geq(i, 0, "no field %s", name);
	return col.v[i].num;
}

static bool
any_bad(void)
{
	for (size_t i = 0; i < col.n; i++)
		if (col.v[i].kind == FIELD_BAD)
			return true;
	return false;
}

/* ---- a sample writer driven by an attr and a seed ---- */

#define V(n)	(seed * 1000 + (n))

static uint64_t
weight_u64(uint64_t seed)
{
	return (uint64_t)(uint32_t)V(20) | (uint64_t)7 << 32 | (uint64_t)9 << 48;
}

static size_t
write_sample(struct pdbuf *b, const struct perf_event_attr *a, uint64_t seed, uint64_t id,
    uint16_t misc)
{
	uint64_t st = a->sample_type, rf = a->read_format;
	size_t r = pd_rec_begin(b, PERF_RECORD_SAMPLE, misc);

	if (st & PERF_SAMPLE_IDENTIFIER)
		pd_u64(b, id);
	if (st & PERF_SAMPLE_IP)
		pd_u64(b, V(1));
	if (st & PERF_SAMPLE_TID) {
		pd_u32(b, (uint32_t)V(2));
		pd_u32(b, (uint32_t)V(3));
	}
	if (st & PERF_SAMPLE_TIME)
		pd_u64(b, V(4));
	if (st & PERF_SAMPLE_ADDR)
		pd_u64(b, V(5));
	if (st & PERF_SAMPLE_ID)
		pd_u64(b, id);
	if (st & PERF_SAMPLE_STREAM_ID)
		pd_u64(b, V(6));
	if (st & PERF_SAMPLE_CPU) {
		pd_u32(b, (uint32_t)V(7));
		pd_u32(b, 0);
	}
	if (st & PERF_SAMPLE_PERIOD)
		pd_u64(b, V(8));
	if (st & PERF_SAMPLE_READ) {
		uint64_t nr = (rf & PERF_FORMAT_GROUP) ? seed % 3 + 1 : 1;

		if (rf & PERF_FORMAT_GROUP)
			pd_u64(b, nr);
		else
			pd_u64(b, V(30));
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			pd_u64(b, V(31));
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			pd_u64(b, V(32));
		for (uint64_t i = 0; i < nr; i++) {
			if (rf & PERF_FORMAT_GROUP)
				pd_u64(b, V(40 + i));
			if (rf & PERF_FORMAT_ID)
				pd_u64(b, V(50 + i));
			if (rf & PERF_FORMAT_LOST)
				pd_u64(b, V(60 + i));
		}
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		pd_u64(b, seed % 5);
		for (uint64_t i = 0; i < seed % 5; i++)
			pd_u64(b, V(100 + i));
	}
	if (st & PERF_SAMPLE_RAW) {
		uint32_t sz = (uint32_t)(seed % 13);
		size_t padded = ((sz + 4 + 7) & ~(size_t)7) - 4;

		pd_u32(b, sz);
		for (uint32_t i = 0; i < sz; i++)
			pd_u8(b, (uint8_t)(i + seed));
		pd_zero(b, padded - sz);
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		pd_u64(b, seed % 3);
		if (a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			pd_u64(b, V(9));
		for (uint64_t i = 0; i < seed % 3; i++) {
			pd_u64(b, V(200 + i));
			pd_u64(b, V(210 + i));
			pd_u64(b, 1 | (5 << 4));
		}
		if (a->branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS)
			for (uint64_t i = 0; i < seed % 3; i++)
				pd_u64(b, V(220 + i));
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		uint64_t abi = seed % 2 ? 2 : 0;

		pd_u64(b, abi);
		if (abi)
			for (int i = 0; i < __builtin_popcountll(a->sample_regs_user); i++)
				pd_u64(b, V(300 + i));
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		uint64_t sz = (seed % 3) * 8;

		pd_u64(b, sz);
		for (uint64_t i = 0; i < sz; i++)
			pd_u8(b, (uint8_t)(0xa0 + i));
		if (sz)
			pd_u64(b, sz / 2);
	}
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		pd_u64(b, weight_u64(seed));
	if (st & PERF_SAMPLE_DATA_SRC)
		pd_u64(b, V(11));
	if (st & PERF_SAMPLE_TRANSACTION)
		pd_u64(b, V(12));
	if (st & PERF_SAMPLE_REGS_INTR) {
		pd_u64(b, 2);
		for (int i = 0; i < __builtin_popcountll(a->sample_regs_intr); i++)
			pd_u64(b, V(400 + i));
	}
	if (st & PERF_SAMPLE_PHYS_ADDR)
		pd_u64(b, V(13));
	if (st & PERF_SAMPLE_CGROUP)
		pd_u64(b, V(14));
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		pd_u64(b, 4096);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		pd_u64(b, 2 << 20);
	if (st & PERF_SAMPLE_AUX) {
		uint64_t sz = (seed % 3) * 8;

		pd_u64(b, sz);
		for (uint64_t i = 0; i < sz; i++)
			pd_u8(b, (uint8_t)(0x50 + i));
	}
	pd_rec_end(b, r);
	return r;
}

/* Check the decoded sample against what write_sample wrote. */
static void
check_sample(const struct sample *smp, const struct perf_event_attr *a, uint64_t seed,
    uint64_t id, bool swap)
{
	uint64_t st = a->sample_type, rf = a->read_format;

	cr_assert_eq(smp->sample_type, st);
	if (st & PERF_SAMPLE_IDENTIFIER)
		cr_assert_eq(smp->identifier, id);
	if (st & PERF_SAMPLE_IP)
		cr_assert_eq(smp->ip, V(1));
	if (st & PERF_SAMPLE_TID) {
		cr_assert_eq(smp->pid, (uint32_t)V(2));
		cr_assert_eq(smp->tid, (uint32_t)V(3));
	}
	if (st & PERF_SAMPLE_TIME)
		cr_assert_eq(smp->time, V(4));
	if (st & PERF_SAMPLE_ADDR)
		cr_assert_eq(smp->addr, V(5));
	if (st & PERF_SAMPLE_ID)
		cr_assert_eq(smp->id, id);
	if (st & PERF_SAMPLE_STREAM_ID)
		cr_assert_eq(smp->stream_id, V(6));
	if (st & PERF_SAMPLE_CPU)
		cr_assert_eq(smp->cpu, (uint32_t)V(7));
	if (st & PERF_SAMPLE_PERIOD)
		cr_assert_eq(smp->period, V(8));
	if (st & PERF_SAMPLE_READ) {
		uint64_t nr = (rf & PERF_FORMAT_GROUP) ? seed % 3 + 1 : 1;
		uint64_t per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
		uint64_t want = 8 * (1 + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		    !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING));

		want += (rf & PERF_FORMAT_GROUP) ? 8 * nr * per : 8 * (per - 1);
		cr_assert_eq(smp->read_format, rf);
		cr_assert_eq(smp->read_len, want, "read_len %zu want %llu (rf %#llx)",
		    smp->read_len, (unsigned long long)want, (unsigned long long)rf);
		if (rf & PERF_FORMAT_GROUP)
			cr_assert_eq(rd64(smp->read, swap), nr);
		else
			cr_assert_eq(rd64(smp->read, swap), V(30));
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		cr_assert_eq(smp->callchain_nr, seed % 5);
		for (uint64_t i = 0; i < seed % 5; i++)
			cr_assert_eq(sample_callchain_ip(smp, i), V(100 + i));
	}
	if (st & PERF_SAMPLE_RAW) {
		cr_assert_eq(smp->raw_size, seed % 13);
		for (uint32_t i = 0; i < smp->raw_size; i++)
			cr_assert_eq(smp->raw[i], (uint8_t)(i + seed));
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		cr_assert_eq(smp->branch_nr, seed % 3);
		cr_assert_eq(smp->branch_has_hw_idx,
		    !!(a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX));
		if (smp->branch_has_hw_idx)
			cr_assert_eq(smp->branch_hw_idx, V(9));
		for (uint64_t i = 0; i < smp->branch_nr; i++) {
			cr_assert_eq(rd64(smp->branch + 24 * i, swap), V(200 + i));
			cr_assert_eq(rd64(smp->branch + 24 * i + 8, swap), V(210 + i));
		}
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		cr_assert_eq(smp->uregs_abi, seed % 2 ? 2u : 0u);
		cr_assert_eq(smp->uregs_mask, a->sample_regs_user);
		if (smp->uregs_abi) {
			for (int i = 0; i < __builtin_popcountll(a->sample_regs_user); i++)
				cr_assert_eq(rd64(smp->uregs + 8 * i, swap), V(300 + i));
		} else {
			cr_assert_null(smp->uregs);
		}
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		cr_assert_eq(smp->stack_size, (seed % 3) * 8);
		cr_assert_eq(smp->stack_dyn_size, (seed % 3) * 4);
		if (smp->stack_size)
			cr_assert_eq(smp->stack[0], 0xa0);
	}
	if (st & PERF_SAMPLE_WEIGHT_STRUCT) {
		cr_assert_eq(smp->weight, (uint32_t)V(20));
		cr_assert_eq(smp->weight_var2, 7);
		cr_assert_eq(smp->weight_var3, 9);
	} else if (st & PERF_SAMPLE_WEIGHT) {
		cr_assert_eq(smp->weight, weight_u64(seed));
	}
	if (st & PERF_SAMPLE_DATA_SRC)
		cr_assert_eq(smp->data_src, V(11));
	if (st & PERF_SAMPLE_TRANSACTION)
		cr_assert_eq(smp->transaction, V(12));
	if (st & PERF_SAMPLE_REGS_INTR) {
		cr_assert_eq(smp->iregs_abi, 2);
		for (int i = 0; i < __builtin_popcountll(a->sample_regs_intr); i++)
			cr_assert_eq(rd64(smp->iregs + 8 * i, swap), V(400 + i));
	}
	if (st & PERF_SAMPLE_PHYS_ADDR)
		cr_assert_eq(smp->phys_addr, V(13));
	if (st & PERF_SAMPLE_CGROUP)
		cr_assert_eq(smp->cgroup, V(14));
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		cr_assert_eq(smp->data_page_size, 4096);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		cr_assert_eq(smp->code_page_size, 2u << 20);
	if (st & PERF_SAMPLE_AUX) {
		cr_assert_eq(smp->aux_size, (seed % 3) * 8);
		if (smp->aux_size)
			cr_assert_eq(smp->aux[0], 0x50);
	}
}

/* Check the named fields of a described sample against the writer. */
static void
check_sample_fields(const struct perf_event_attr *a, uint64_t seed, uint64_t id)
{
	uint64_t st = a->sample_type;
	char name[64];

	cr_assert_eq(field_num("header.type"), PERF_RECORD_SAMPLE);
	if (st & PERF_SAMPLE_IDENTIFIER)
		cr_assert_eq(field_num("identifier"), id);
	if (st & PERF_SAMPLE_IP)
		cr_assert_eq(field_num("ip"), V(1));
	if (st & PERF_SAMPLE_TID)
		cr_assert_eq(field_num("tid"), (uint32_t)V(3));
	if (st & PERF_SAMPLE_TIME)
		cr_assert_eq(field_num("time"), V(4));
	if (st & PERF_SAMPLE_PERIOD)
		cr_assert_eq(field_num("period"), V(8));
	if ((st & PERF_SAMPLE_CALLCHAIN) && seed % 5) {
		snprintf(name, sizeof name, "callchain[%llu]", (unsigned long long)(seed % 5 - 1));
		cr_assert_eq(field_num(name), V(100 + seed % 5 - 1));
	}
	if ((st & PERF_SAMPLE_BRANCH_STACK) && seed % 3)
		cr_assert_eq(field_num("branch[0].to"), V(210));
	if (st & PERF_SAMPLE_WEIGHT_STRUCT) {
		cr_assert_eq(field_num("weight.var1_dw"), (uint32_t)V(20));
		cr_assert_eq(field_num("weight.var3_w"), 9);
	}
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		cr_assert_eq(field_num("code_page_size"), 2u << 20);
	if ((st & PERF_SAMPLE_REGS_INTR) && (a->sample_regs_intr & 1))
		cr_assert_eq(field_num("regs_intr[AX]"), V(400));
}

static void
base_attr(struct perf_event_attr *a, uint64_t st)
{
	memset(a, 0, sizeof *a);
	a->type = PERF_TYPE_SOFTWARE;
	a->size = sizeof *a;
	a->sample_type = st;
	a->sample_id_all = 1;
	a->sample_regs_user = 0x7;	/* AX BX CX */
	a->sample_regs_intr = 0x101;	/* AX IP */
}

#define ALL_SAMPLE_BITS	(PERF_SAMPLE_MAX - 1)

static void
roundtrip(const struct perf_event_attr *a, uint64_t seed, bool swap)
{
	struct session s;
	struct pdbuf b = { .swap = swap };
	struct sample smp;
	const char *why = NULL;
	struct rec r;
	size_t at;
	char sum[512];

	sess_init(&s, a, 1);
	at = write_sample(&b, a, seed, 100, PERF_RECORD_MISC_USER);
	r = mkrec(&b, at);
	cr_assert_eq(record_decode_sample(&s, &r, &smp, &why), 0, "st %#llx seed %llu: %s",
	    (unsigned long long)a->sample_type, (unsigned long long)seed, why ? why : "");
	cr_assert_eq(smp.attr, 0);
	check_sample(&smp, a, seed, 100, swap);
	cr_assert_eq(describe(&s, &r), 0, "st %#llx: described as damaged",
	    (unsigned long long)a->sample_type);
	cr_assert(!any_bad());
	check_sample_fields(a, seed, 100);
	fields_summary(&s, &r, sum, sizeof sum);
	cr_assert(strncmp(sum, "PERF_RECORD_SAMPLE(IP, 0x2): ", 29) == 0, "%s", sum);
	pd_free(&b);
	sess_free(&s);
}

Test(record, sample_every_bit_both_orders)
{
	struct perf_event_attr a;

	for (int swap = 0; swap < 2; swap++) {
		for (uint64_t seed = 0; seed < 6; seed++) {
			base_attr(&a, ALL_SAMPLE_BITS & ~(uint64_t)PERF_SAMPLE_WEIGHT);
			a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			    PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID | PERF_FORMAT_LOST;
			a.branch_sample_type = PERF_SAMPLE_BRANCH_HW_INDEX;
			roundtrip(&a, seed, swap);
			base_attr(&a, ALL_SAMPLE_BITS & ~(uint64_t)PERF_SAMPLE_WEIGHT_STRUCT);
			a.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
			a.branch_sample_type = PERF_SAMPLE_BRANCH_COUNTERS;
			roundtrip(&a, seed, swap);
		}
	}
}

Test(record, sample_single_bits)
{
	struct perf_event_attr a;

	for (int swap = 0; swap < 2; swap++)
		for (unsigned bit = 0; bit < 25; bit++)
			for (uint64_t seed = 0; seed < 3; seed++) {
				base_attr(&a, UINT64_C(1) << bit);
				a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED;
				roundtrip(&a, seed, swap);
			}
}

Test(record, sample_random_combinations)
{
	struct perf_event_attr a;
	uint64_t x = 88172645463325252ull;

	for (int i = 0; i < 400; i++) {
		uint64_t st;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		st = x & ALL_SAMPLE_BITS;
		if ((st & PERF_SAMPLE_WEIGHT) && (st & PERF_SAMPLE_WEIGHT_STRUCT))
			st &= ~(uint64_t)PERF_SAMPLE_WEIGHT;
		base_attr(&a, st);
		a.read_format = (x >> 32) & (PERF_FORMAT_MAX - 1);
		a.branch_sample_type = (x >> 40) & 1 ? PERF_SAMPLE_BRANCH_HW_INDEX : 0;
		a.sample_regs_user = (x >> 20) & 0xffffff;
		a.sample_regs_intr = (x >> 44) & 0xffff;
		roundtrip(&a, i, i & 1);
	}
}

Test(record, read_format_every_combination)
{
	struct perf_event_attr a;

	for (int swap = 0; swap < 2; swap++)
		for (uint64_t rf = 0; rf < PERF_FORMAT_MAX; rf++)
			for (uint64_t seed = 0; seed < 3; seed++) {
				base_attr(&a, PERF_SAMPLE_IP | PERF_SAMPLE_READ | PERF_SAMPLE_PERIOD);
				a.read_format = rf;
				roundtrip(&a, seed, swap);
			}
}

/* Every shorter length of a full sample is rejected, never read past. */
Test(record, sample_truncated_at_every_length)
{
	struct perf_event_attr a;

	for (int swap = 0; swap < 2; swap++) {
		struct session s;
		struct pdbuf b = { .swap = swap };
		size_t at, full;

		base_attr(&a, ALL_SAMPLE_BITS & ~(uint64_t)PERF_SAMPLE_WEIGHT);
		a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST;
		a.branch_sample_type = PERF_SAMPLE_BRANCH_HW_INDEX;
		sess_init(&s, &a, 1);
		at = write_sample(&b, &a, 4, 100, 0);
		full = b.len - at;
		for (size_t len = 8; len < full; len++) {
			/* A copy of exactly len bytes, so ASan sees any overread. */
			uint8_t *copy = malloc(len);
			struct rec r = mkrec(&b, at);
			struct sample smp;
			const char *why = NULL;

			memcpy(copy, b.p + at, len);
			r.p = copy;
			r.size = (uint32_t)len;
			cr_assert_eq(record_decode_sample(&s, &r, &smp, &why), -1, "len %zu", len);
			cr_assert_not_null(why);
			cr_assert_eq(describe(&s, &r), -1, "len %zu described as whole", len);
			free(copy);
		}
		pd_free(&b);
		sess_free(&s);
	}
}

/* A sample with its count at offset at replaced by v must be rejected. */
static void
absurd(uint64_t st, uint64_t rf, size_t count_off, uint64_t v, bool is32)
{
	struct perf_event_attr a;
	struct session s;
	struct pdbuf b = { 0 };
	struct sample smp;
	const char *why = NULL;
	struct rec r;
	size_t at;

	base_attr(&a, st);
	a.read_format = rf;
	sess_init(&s, &a, 1);
	at = write_sample(&b, &a, 4, 100, 0);
	if (is32)
		pd_put32(&b, at + count_off, (uint32_t)v);
	else
		pd_put64(&b, at + count_off, v);
	r = mkrec(&b, at);
	cr_assert_eq(record_decode_sample(&s, &r, &smp, &why), -1, "st %#llx count %#llx",
	    (unsigned long long)st, (unsigned long long)v);
	cr_assert_not_null(why);
	cr_assert_eq(describe(&s, &r), -1);
	pd_free(&b);
	sess_free(&s);
}

Test(record, absurd_counts_rejected)
{
	static const uint64_t bad[] = {
		SAMPLE_MAX_NR + 1ull, 1ull << 40, UINT64_MAX, UINT64_MAX / 8 + 1, 1000,
	};

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		/* IP then the count at offset 16. */
		absurd(PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN, 0, 16, bad[i], false);
		absurd(PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK, 0, 16, bad[i], false);
		absurd(PERF_SAMPLE_IP | PERF_SAMPLE_READ, PERF_FORMAT_GROUP | PERF_FORMAT_ID, 16,
		    bad[i], false);
		absurd(PERF_SAMPLE_IP | PERF_SAMPLE_STACK_USER, 0, 16, bad[i], false);
		absurd(PERF_SAMPLE_IP | PERF_SAMPLE_AUX, 0, 16, bad[i], false);
		absurd(PERF_SAMPLE_IP | PERF_SAMPLE_RAW, 0, 16, (uint32_t)bad[i] | 0x100, true);
	}
	/* dyn_size larger than the stack. */
	absurd(PERF_SAMPLE_IP | PERF_SAMPLE_STACK_USER, 0, 16 + 8 + 8, 1000, false);
}

Test(record, sample_without_attrs)
{
	struct session s;
	struct pdbuf b = { 0 };
	struct perf_event_attr a;
	struct sample smp;
	const char *why = NULL;
	struct rec r;
	size_t at;

	memset(&s, 0, sizeof s);
	base_attr(&a, PERF_SAMPLE_IP);
	at = write_sample(&b, &a, 1, 100, 0);
	r = mkrec(&b, at);
	cr_assert_eq(record_decode_sample(&s, &r, &smp, &why), -1);
	cr_assert_not_null(why);
	cr_assert_eq(smp.attr, -1);
	cr_assert_eq(describe(&s, &r), -1);
	cr_assert_eq(describe(NULL, &r), -1);
	pd_free(&b);
}

/* ---- which attr, sample_id trailers ---- */

static void
write_trailer(struct pdbuf *b, uint64_t st, uint64_t id)
{
	if (st & PERF_SAMPLE_TID) {
		pd_u32(b, 11);
		pd_u32(b, 12);
	}
	if (st & PERF_SAMPLE_TIME)
		pd_u64(b, 13);
	if (st & PERF_SAMPLE_ID)
		pd_u64(b, id);
	if (st & PERF_SAMPLE_STREAM_ID)
		pd_u64(b, 14);
	if (st & PERF_SAMPLE_CPU) {
		pd_u32(b, 3);
		pd_u32(b, 0);
	}
	if (st & PERF_SAMPLE_IDENTIFIER)
		pd_u64(b, id);
}

static size_t
write_comm(struct pdbuf *b, uint64_t st, uint64_t id, bool trailer)
{
	size_t r = pd_rec_begin(b, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);

	pd_u32(b, 1234);
	pd_u32(b, 1235);
	pd_str8(b, "d_matmul");
	if (trailer)
		write_trailer(b, st, id);
	pd_rec_end(b, r);
	return r;
}

Test(record, attr_by_identifier_and_id)
{
	static const uint64_t sts[] = {
		PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD,
		PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
		    PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD,
		PERF_SAMPLE_TID | PERF_SAMPLE_ID,
		PERF_SAMPLE_ID,
	};

	for (int swap = 0; swap < 2; swap++) {
		for (size_t k = 0; k < sizeof sts / sizeof sts[0]; k++) {
			struct perf_event_attr a[3];
			struct session s;
			struct pdbuf b = { .swap = swap };
			struct sample smp;
			struct sample_id sid;
			const char *why;
			struct rec r;
			size_t at;

			for (int i = 0; i < 3; i++)
				base_attr(&a[i], sts[k]);
			a[2].config = 1;
			sess_init(&s, a, 3);
			/* ids 100+i and 200+i map to attr i */
			at = write_sample(&b, &a[2], 2, 202, 0);
			r = mkrec(&b, at);
			cr_assert_eq(record_attr(&s, &r), 2);
			cr_assert_eq(record_decode_sample(&s, &r, &smp, &why), 0);
			cr_assert_eq(smp.attr, 2);
			at = write_comm(&b, sts[k], 101, true);
			r = mkrec(&b, at);
			cr_assert_eq(record_attr(&s, &r), 1);
			cr_assert_eq(record_decode_sample_id(&s, &r, &sid), 0);
			if (sts[k] & PERF_SAMPLE_TID) {
				cr_assert_eq(sid.pid, 11);
				cr_assert_eq(sid.tid, 12);
			}
			if (sts[k] & PERF_SAMPLE_TIME)
				cr_assert_eq(sid.time, 13);
			if (sts[k] & PERF_SAMPLE_CPU)
				cr_assert_eq(sid.cpu, 3);
			if (sts[k] & PERF_SAMPLE_ID)
				cr_assert_eq(sid.id, 101);
			if (sts[k] & PERF_SAMPLE_IDENTIFIER)
				cr_assert_eq(sid.identifier, 101);
			cr_assert_eq(sid.have, sts[k] & (PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			    PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
			    PERF_SAMPLE_IDENTIFIER));
			cr_assert_eq(describe(&s, &r), 0);
			cr_assert_eq(field_num("pid"), 1234);
			if (sts[k] & PERF_SAMPLE_TIME)
				cr_assert_eq(field_num("sample_id.time"), 13);
			/* An unknown id */
			at = write_sample(&b, &a[0], 2, 999, 0);
			r = mkrec(&b, at);
			cr_assert_eq(record_attr(&s, &r), -1);
			/* Same layouts: still decodable, attr unknown. */
			cr_assert_eq(record_decode_sample(&s, &r, &smp, &why), 0);
			cr_assert_eq(smp.attr, -1);
			pd_free(&b);
			sess_free(&s);
		}
	}
}

Test(record, attr_mixed_layouts)
{
	struct perf_event_attr a[2];
	struct session s;
	struct pdbuf b = { 0 };
	struct sample smp;
	const char *why;
	struct rec r;
	size_t at;

	/* No IDENTIFIER and ID at different positions: found the slow way. */
	base_attr(&a[0], PERF_SAMPLE_IP | PERF_SAMPLE_ID | PERF_SAMPLE_PERIOD);
	base_attr(&a[1], PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID);
	sess_init(&s, a, 2);
	cr_assert_eq(s.attrs.id_pos, -1);
	at = write_sample(&b, &a[1], 1, 201, 0);
	r = mkrec(&b, at);
	cr_assert_eq(record_attr(&s, &r), 1);
	cr_assert_eq(record_decode_sample(&s, &r, &smp, &why), 0);
	cr_assert_eq(smp.time, 1004);
	at = write_sample(&b, &a[0], 1, 100, 0);
	r = mkrec(&b, at);
	cr_assert_eq(record_attr(&s, &r), 0);
	/* Unknown id, layouts differ: undecodable. */
	at = write_sample(&b, &a[0], 1, 555, 0);
	r = mkrec(&b, at);
	cr_assert_eq(record_decode_sample(&s, &r, &smp, &why), -1);
	cr_assert_not_null(why);
	pd_free(&b);
	sess_free(&s);
}

Test(record, no_trailer_without_sample_id_all)
{
	struct perf_event_attr a;
	struct session s;
	struct pdbuf b = { 0 };
	struct sample_id sid;
	struct rec r;
	size_t at;

	base_attr(&a, PERF_SAMPLE_TID | PERF_SAMPLE_TIME);
	a.sample_id_all = 0;
	sess_init(&s, &a, 1);
	at = write_comm(&b, a.sample_type, 100, false);
	r = mkrec(&b, at);
	cr_assert_eq(record_decode_sample_id(&s, &r, &sid), -1);
	cr_assert_eq(describe(&s, &r), 0);
	cr_assert_eq(field_idx("sample_id.time"), -1);
	/* A trailer that does not fit the record. */
	a.sample_id_all = 1;
	sess_free(&s);
	sess_init(&s, &a, 1);
	at = pd_rec_begin(&b, PERF_RECORD_LOST_SAMPLES, 0);
	pd_u64(&b, 5);
	pd_rec_end(&b, at);
	r = mkrec(&b, at);
	cr_assert_eq(record_decode_sample_id(&s, &r, &sid), -1);
	cr_assert_eq(describe(&s, &r), 0);
	pd_free(&b);
	sess_free(&s);
}

Test(record, type_names)
{
	cr_assert_str_eq(record_type_name(1), "MMAP");
	cr_assert_str_eq(record_type_name(9), "SAMPLE");
	cr_assert_str_eq(record_type_name(21), "AUX_OUTPUT_HW_ID");
	cr_assert_str_eq(record_type_name(64), "ATTR");
	cr_assert_str_eq(record_type_name(82), "FINISHED_INIT");
	cr_assert_str_eq(record_type_name(83), "COMPRESSED2");
	cr_assert_null(record_type_name(0));
	cr_assert_null(record_type_name(22));
	cr_assert_null(record_type_name(63));
	cr_assert_null(record_type_name(84));
	cr_assert_null(record_type_name(UINT32_MAX));
}

/* ---- every record type described ---- */

#define TRAILER_ST	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU | \
			 PERF_SAMPLE_IDENTIFIER)

/* kind 0: cpus list, 1: 64-bit mask, 2: range, 3: 32-bit mask. */
static void
cpu_map_data(struct pdbuf *b, int kind)
{
	pd_u16(b, (uint16_t)(kind == 3 ? 1 : kind));
	if (kind == 0) {
		pd_u16(b, 3);
		pd_u16(b, 0);
		pd_u16(b, 1);
		pd_u16(b, 3);
	} else if (kind == 1) {
		pd_u16(b, 1);
		pd_u16(b, 8);
		pd_zero(b, 4);
		pd_u64(b, 0x2d);
	} else if (kind == 2) {
		pd_u8(b, 0);
		pd_u8(b, 0);
		pd_u16(b, 0);
		pd_u16(b, 7);
	} else {
		pd_u16(b, 2);
		pd_u16(b, 4);
		pd_u32(b, 0x3);
		pd_u32(b, 0x1);
	}
}

static void
pad8(struct pdbuf *b, size_t start)
{
	while ((b->len - start) % 8)
		pd_u8(b, 0);
}

/* Write one record of type t (variant v) with plausible content; returns
 * its start, or SIZE_MAX if there is no such variant. */
static size_t
write_type(struct pdbuf *b, uint32_t t, int v, const struct perf_event_attr *a)
{
	size_t r;
	uint16_t misc = 0;

	if (t == PERF_RECORD_MMAP2 && v == 1)
		misc = PERF_RECORD_MISC_MMAP_BUILD_ID;
	if (t == PERF_RECORD_SWITCH || t == PERF_RECORD_SWITCH_CPU_WIDE)
		misc = PERF_RECORD_MISC_SWITCH_OUT;
	if (t == PF_REC_BUILD_ID)
		misc = 1u << 15;
	if ((t == PF_REC_CPU_MAP && v > 3) || (t == PF_REC_EVENT_UPDATE && v > 3) ||
	    (t != PF_REC_CPU_MAP && t != PF_REC_EVENT_UPDATE && t != PERF_RECORD_MMAP2 &&
	    t != PF_REC_ATTR && v > 0) || (t == PERF_RECORD_MMAP2 && v > 1) ||
	    (t == PF_REC_ATTR && v > 2))
		return SIZE_MAX;
	r = pd_rec_begin(b, t, misc | PERF_RECORD_MISC_USER);
	switch (t) {
	case PERF_RECORD_MMAP:
		pd_u32(b, 1); pd_u32(b, 2); pd_u64(b, 0x400000); pd_u64(b, 0x1000); pd_u64(b, 0);
		pd_str8(b, "/usr/bin/foo");
		break;
	case PERF_RECORD_MMAP2:
		pd_u32(b, 1); pd_u32(b, 2); pd_u64(b, 0x400000); pd_u64(b, 0x1000); pd_u64(b, 0);
		if (v == 0) {
			pd_u32(b, 8); pd_u32(b, 1); pd_u64(b, 1234); pd_u64(b, 5);
		} else {
			pd_u8(b, 20); pd_u8(b, 0); pd_u16(b, 0);
			for (int i = 0; i < 20; i++)
				pd_u8(b, (uint8_t)i);
		}
		pd_u32(b, 5); pd_u32(b, 2);
		pd_str8(b, "/usr/lib/libc.so.6");
		break;
	case PERF_RECORD_LOST:
		pd_u64(b, 100); pd_u64(b, 7);
		break;
	case PERF_RECORD_COMM:
		pd_u32(b, 1); pd_u32(b, 2); pd_str8(b, "comm");
		break;
	case PERF_RECORD_EXIT:
	case PERF_RECORD_FORK:
		pd_u32(b, 3); pd_u32(b, 1); pd_u32(b, 3); pd_u32(b, 1); pd_u64(b, 99);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		pd_u64(b, 99); pd_u64(b, 100); pd_u64(b, 0);
		break;
	case PERF_RECORD_READ:
		pd_u32(b, 1); pd_u32(b, 2);
		/* read_format GROUP|ID of the test attr: nr, then {value, id} */
		pd_u64(b, 2); pd_u64(b, 10); pd_u64(b, 100); pd_u64(b, 20); pd_u64(b, 101);
		break;
	case PERF_RECORD_SAMPLE:
		/* IDENTIFIER IP TID TIME ID CPU PERIOD */
		pd_u64(b, 100); pd_u64(b, 0x1234); pd_u32(b, 1); pd_u32(b, 2); pd_u64(b, 5);
		pd_u64(b, 100); pd_u32(b, 1); pd_u32(b, 0); pd_u64(b, 1000);
		break;
	case PERF_RECORD_AUX:
		pd_u64(b, 0); pd_u64(b, 0x3370); pd_u64(b, 1);
		break;
	case PERF_RECORD_ITRACE_START:
		pd_u32(b, 1); pd_u32(b, 2);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		pd_u64(b, 3);
		break;
	case PERF_RECORD_SWITCH:
		break;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		pd_u32(b, 5); pd_u32(b, 6);
		break;
	case PERF_RECORD_NAMESPACES:
		pd_u32(b, 1); pd_u32(b, 2); pd_u64(b, 7);
		for (int i = 0; i < 7; i++) {
			pd_u64(b, 4); pd_u64(b, 0xeffffff0u + i);
		}
		break;
	case PERF_RECORD_KSYMBOL:
		pd_u64(b, 0xffffffffc0248588ull); pd_u32(b, 72); pd_u16(b, 1); pd_u16(b, 0);
		pd_str8(b, "bpf_prog_x");
		break;
	case PERF_RECORD_BPF_EVENT:
		pd_u16(b, 1); pd_u16(b, 0); pd_u32(b, 5);
		for (int i = 0; i < 8; i++)
			pd_u8(b, (uint8_t)(0xa0 + i));
		break;
	case PERF_RECORD_CGROUP:
		pd_u64(b, 1); pd_str8(b, "/");
		break;
	case PERF_RECORD_TEXT_POKE:
		pd_u64(b, 0xffffffff81000000ull); pd_u16(b, 5); pd_u16(b, 5);
		for (int i = 0; i < 10; i++)
			pd_u8(b, 0x90);
		pad8(b, r);
		break;
	case 21:
		pd_u64(b, 0x42);
		break;
	case PF_REC_ATTR:
		pd_attr(b, v == 0 ? 128 : v == 1 ? PF_ATTR_SIZE_VER0 : 136, PERF_TYPE_SOFTWARE, 0,
		    4000, TRAILER_ST, 0, (1ull << 10) | (1ull << 18) | (3ull << 15));
		pd_u64(b, 100); pd_u64(b, 101);
		break;
	case PF_REC_EVENT_TYPE:
		pd_u64(b, 12); pd_str8(b, "cycles");
		break;
	case PF_REC_TRACING_DATA:
		pd_u32(b, 4096);
		break;
	case PF_REC_BUILD_ID:
		pd_u32(b, (uint32_t)-1);
		for (int i = 0; i < 20; i++)
			pd_u8(b, (uint8_t)i);
		pd_u8(b, 20); pd_zero(b, 3);
		pd_str8(b, "/usr/bin/foo");
		break;
	case PF_REC_FINISHED_ROUND:
	case PF_REC_FINISHED_INIT:
		break;
	case PF_REC_ID_INDEX:
		pd_u64(b, 2);
		for (int i = 0; i < 2; i++) {
			pd_u64(b, 100 + i); pd_u64(b, 0); pd_u64(b, i); pd_u64(b, 1234);
		}
		break;
	case PF_REC_AUXTRACE_INFO:
		pd_u32(b, 1); pd_u32(b, 0);
		for (int i = 0; i < 4; i++)
			pd_u64(b, i);
		break;
	case PF_REC_AUXTRACE:
		pd_u64(b, 0x12a70); pd_u64(b, 0); pd_u64(b, 0x3a717781f00ull); pd_u32(b, 0);
		pd_u32(b, 3587); pd_u32(b, 0); pd_u32(b, 0);
		break;
	case PF_REC_AUXTRACE_ERROR:
		pd_u32(b, 1); pd_u32(b, 2); pd_u32(b, 0); pd_u32(b, 1); pd_u32(b, 2);
		pd_u32(b, 2); pd_u64(b, 0x1234); pd_u64(b, 99);
		{
			char msg[64] = "overflow";

			pd_bytes(b, msg, sizeof msg);
		}
		pd_u32(b, 0); pd_u32(b, 0);
		break;
	case PF_REC_THREAD_MAP:
		pd_u64(b, 2);
		for (int i = 0; i < 2; i++) {
			char comm[16] = "worker";

			pd_u64(b, 1000 + i);
			pd_bytes(b, comm, 16);
		}
		break;
	case PF_REC_CPU_MAP:
		cpu_map_data(b, v);
		pad8(b, r);
		break;
	case PF_REC_STAT_CONFIG:
		pd_u64(b, 3);
		for (int i = 0; i < 3; i++) {
			pd_u64(b, i); pd_u64(b, i + 1);
		}
		break;
	case PF_REC_STAT:
		pd_u64(b, 11999); pd_u32(b, (uint32_t)-1); pd_u32(b, 0);
		pd_u64(b, 1); pd_u64(b, 2); pd_u64(b, 3);
		break;
	case PF_REC_STAT_ROUND:
		pd_u64(b, 1); pd_u64(b, 202457576);
		break;
	case PF_REC_EVENT_UPDATE:
		pd_u64(b, (uint64_t)v); pd_u64(b, 11680);
		if (v == 0) {
			pd_str8(b, "msec");
		} else if (v == 1) {
			double d = 0.000001;
			uint64_t u;

			memcpy(&u, &d, 8);
			pd_u64(b, u);
			pd_zero(b, 16);
		} else if (v == 2) {
			pd_str8(b, "cpu-clock:ppp");
		} else {
			cpu_map_data(b, 0);
			pad8(b, r);
		}
		break;
	case PF_REC_TIME_CONV:
		pd_u64(b, 31); pd_u64(b, 123); pd_u64(b, 456); pd_u64(b, 0); pd_u64(b, ~0ull);
		pd_u8(b, 1); pd_u8(b, 1); pd_zero(b, 6);
		break;
	case PF_REC_FEATURE:
		pd_u64(b, 3); pd_u32(b, 5); pd_bytes(b, "host", 5); pd_zero(b, 7);
		break;
	case PF_REC_COMPRESSED:
		pd_bytes(b, "\x28\xb5\x2f\xfd\x00\x00\x00\x00", 8);
		break;
	case PF_REC_COMPRESSED2:
		pd_u64(b, 5); pd_bytes(b, "\x28\xb5\x2f\xfd\x00", 5); pd_zero(b, 3);
		break;
	default:	/* unknown types */
		pd_u64(b, 1); pd_u64(b, 2);
		break;
	}
	if (t < PF_REC_USER_TYPE_START && t != PERF_RECORD_SAMPLE)
		write_trailer(b, a->sample_type, 100);
	pd_rec_end(b, r);
	return r;
}

Test(fields, every_record_type_covered_once)
{
	static const uint32_t types[] = {
		1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
		64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83,
		0, 22, 63, 84, 200, 65535,
	};
	struct perf_event_attr a;

	base_attr(&a, TRAILER_ST | PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD);
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	for (int swap = 0; swap < 2; swap++) {
		struct session s;
		struct pdbuf b = { .swap = swap };

		sess_init(&s, &a, 1);
		for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
			for (int v = 0; v < 5; v++) {
				size_t at = write_type(&b, types[k], v, &a);
				struct rec r;
				char sum[1024];
				const char *tn;
				char want[64];

				if (at == SIZE_MAX)
					continue;
				r = mkrec(&b, at);
				cr_assert_eq(describe(&s, &r), 0, "type %u/%d (swap %d) damaged",
				    types[k], v, swap);
				cr_assert(!any_bad(), "type %u/%d: bad field", types[k], v);
				cr_assert_eq(field_idx("extra"), -1, "type %u/%d: extra bytes",
				    types[k], v);
				cr_assert_eq(field_num("header.type"), types[k]);
				cr_assert_eq(field_num("header.size"), r.size);
				tn = record_type_name(types[k]);
				if (tn == NULL) {
					cr_assert_geq(field_idx("payload"), 0);
					snprintf(want, sizeof want, "PERF_RECORD_UNKNOWN%u", types[k]);
				} else {
					snprintf(want, sizeof want, "PERF_RECORD_%s", tn);
				}
				if (types[k] < PF_REC_USER_TYPE_START && types[k] != 9 && tn)
					cr_assert_eq(field_num("sample_id.identifier"), 100,
					    "type %u: no trailer", types[k]);
				fields_summary(&s, &r, sum, sizeof sum);
				cr_assert(strncmp(sum, want, strlen(want)) == 0, "%s", sum);
				cr_assert_null(strstr(sum, "damaged"), "%s", sum);
				/* Also without a session: still covered. */
				describe(NULL, &r);
			}
		}
		pd_free(&b);
		sess_free(&s);
	}
}

/* Values of a few typical fields and the summaries perf users know. */
Test(fields, values_and_summaries)
{
	struct perf_event_attr a;
	struct session s;
	struct pdbuf b = { 0 };
	struct rec r;
	size_t at;
	char sum[1024];

	base_attr(&a, TRAILER_ST | PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD);
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	sess_init(&s, &a, 1);

	at = write_comm(&b, a.sample_type, 100, true);
	r = mkrec(&b, at);
	fields_summary(&s, &r, sum, sizeof sum);
	cr_assert_str_eq(sum, "PERF_RECORD_COMM exec: d_matmul:1234/1235");
	describe(&s, &r);
	cr_assert_str_eq(col.v[field_idx("comm")].value, "\"d_matmul\"");
	cr_assert_eq(field_num("sample_id.tid"), 12);

	at = write_type(&b, PERF_RECORD_MMAP2, 0, &a);
	r = mkrec(&b, at);
	fields_summary(&s, &r, sum, sizeof sum);
	cr_assert_str_eq(sum, "PERF_RECORD_MMAP2 1/2: [0x400000(0x1000) @ 0 08:01 1234 5]: "
	    "r-xp /usr/lib/libc.so.6");
	describe(&s, &r);
	cr_assert_str_eq(col.v[field_idx("filename")].value, "\"/usr/lib/libc.so.6\"");

	at = write_type(&b, PERF_RECORD_MMAP2, 1, &a);
	r = mkrec(&b, at);
	fields_summary(&s, &r, sum, sizeof sum);
	cr_assert_str_eq(sum, "PERF_RECORD_MMAP2 1/2: [0x400000(0x1000) @ 0 "
	    "<000102030405060708090a0b0c0d0e0f10111213>]: r-xp /usr/lib/libc.so.6");

	at = write_type(&b, PF_REC_CPU_MAP, 1, &a);
	r = mkrec(&b, at);
	fields_summary(&s, &r, sum, sizeof sum);
	cr_assert_str_eq(sum, "PERF_RECORD_CPU_MAP: 0,2-3,5");
	at = write_type(&b, PF_REC_CPU_MAP, 2, &a);
	r = mkrec(&b, at);
	fields_summary(&s, &r, sum, sizeof sum);
	cr_assert_str_eq(sum, "PERF_RECORD_CPU_MAP: 0-7");
	at = write_type(&b, PF_REC_CPU_MAP, 3, &a);
	r = mkrec(&b, at);
	fields_summary(&s, &r, sum, sizeof sum);
	cr_assert_str_eq(sum, "PERF_RECORD_CPU_MAP: 0-1,32");

	at = write_type(&b, PERF_RECORD_SAMPLE, 0, &a);
	r = mkrec(&b, at);
	fields_summary(&s, &r, sum, sizeof sum);
	cr_assert_str_eq(sum, "PERF_RECORD_SAMPLE(IP, 0x2): 1/2: 0x1234 period: 1000 addr: 0 "
	    "time: 5 cpu: 1", "%s", sum);

	at = write_type(&b, PF_REC_ATTR, 0, &a);
	r = mkrec(&b, at);
	describe(&s, &r);
	cr_assert_eq(field_idx("attr.sample_period"), -1);	/* freq is set */
	cr_assert_eq(field_num("attr.sample_freq"), 4000);
	cr_assert_not_null(strstr(col.v[field_idx("attr.flags")].value, "precise_ip=3"));
	cr_assert_not_null(strstr(col.v[field_idx("attr.sample_type")].value, "IDENTIFIER"));
	cr_assert_eq(field_num("id[1]"), 101);
	pd_free(&b);
	sess_free(&s);
}

/* ---- through a real session: the synthetic recording of helpers.c ---- */

struct walkst {
	const struct session	*s;
	size_t			 n, samples;
};

static int
walk_check(void *arg, const struct rec *r, int depth)
{
	struct walkst *w = arg;
	char sum[1024];

	(void)depth;
	cr_assert_eq(describe(w->s, r), 0, "record at %#llx (type %u) damaged",
	    (unsigned long long)r->loc, r->type);
	cr_assert(!any_bad());
	fields_summary(w->s, r, sum, sizeof sum);
	cr_assert_null(strstr(sum, "damaged"), "%s", sum);
	if (r->type == PERF_RECORD_SAMPLE) {
		struct sample smp;
		const char *why = NULL;

		cr_assert_eq(record_decode_sample(w->s, r, &smp, &why), 0, "%s", why);
		cr_assert_eq(smp.attr, 0);
		cr_assert_eq(field_num("time"), smp.time);
		w->samples++;
	} else if (r->type < PF_REC_USER_TYPE_START) {
		struct sample_id sid;

		cr_assert_eq(record_decode_sample_id(w->s, r, &sid), 0);
		cr_assert_eq(field_num("sample_id.time"), sid.time);
	}
	w->n++;
	return 0;
}

Test(fields, synthetic_recording_both_orders)
{
	for (int swap = 0; swap < 2; swap++) {
		struct pdbuf b;
		struct perf_err err;
		struct session *s;
		struct walkst w = { 0 };
		char *path;

		synth_file(&b, swap, 12);
		path = tmp_write("rec", b.p, b.len);
		s = session_open(path, NULL, &err);
		cr_assert_not_null(s, "%s", err.msg);
		cr_assert_eq(s->swap, (bool)swap);
		w.s = s;
		session_walk(s, walk_check, &w);
		cr_assert_eq(w.n, synth_layout.nrecords);
		cr_assert_eq(w.samples, 12);
		session_close(s);
		unlink(path);
		free(path);
		pd_free(&b);
	}
}

/* Counts whose byte size overflows 64 bits are damage, not a wrap-around. */
Test(fields, huge_counts_in_other_records)
{
	static const uint32_t types[] = {
		PF_REC_THREAD_MAP, PF_REC_ID_INDEX, PF_REC_STAT_CONFIG, PERF_RECORD_NAMESPACES,
	};
	static const uint64_t nrs[] = { 1ull << 60, 1ull << 59, UINT64_MAX, 3 };
	struct perf_event_attr a;
	struct session s;

	base_attr(&a, PERF_SAMPLE_IP);
	a.sample_id_all = 0;
	sess_init(&s, &a, 1);
	for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
		for (size_t i = 0; i < sizeof nrs / sizeof nrs[0]; i++) {
			struct pdbuf b = { 0 };
			size_t at = pd_rec_begin(&b, types[k], 0);
			struct rec r;
			char sum[256];

			if (types[k] == PERF_RECORD_NAMESPACES) {
				pd_u32(&b, 1);
				pd_u32(&b, 1);
			}
			pd_u64(&b, nrs[i]);
			pd_u64(&b, 1);
			pd_u64(&b, 2);
			pd_rec_end(&b, at);
			r = mkrec(&b, at);
			cr_assert_eq(describe(&s, &r), -1, "type %u nr %#llx", types[k],
			    (unsigned long long)nrs[i]);
			cr_assert(any_bad());
			fields_summary(&s, &r, sum, sizeof sum);
			pd_free(&b);
		}
	}
	sess_free(&s);
}
