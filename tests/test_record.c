/* Criterion tests of core/record.c: sample decoding, the record table, the typed decoders. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "tests/rec_helpers.h"

#ifndef PERF_SAMPLE_BRANCH_COUNTERS
#define PERF_SAMPLE_BRANCH_COUNTERS	(1ULL << 19)
#endif

/* ---- a sample writer driven by an attr and a seed ---- */

#define V(n)	(seed * 1000 + (n))

static uint64_t
weight_u64(uint64_t seed)
{
	return (uint64_t)(uint32_t)V(20) | (uint64_t)7 << 32 | (uint64_t)9 << 48;
}

/* PERF_SAMPLE_READ's values for read_format rf (write_sample's part). */
static void
write_read(struct pdbuf *b, uint64_t rf, uint64_t seed)
{
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

static size_t
write_sample(struct pdbuf *b, const struct perf_event_attr *a, uint64_t seed, uint64_t id,
    uint16_t misc)
{
	uint64_t st = a->sample_type;
	size_t r = pd_rec_begin(b, PF_REC_SAMPLE, misc);

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
	if (st & PERF_SAMPLE_READ)
		write_read(b, a->read_format, seed);
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

	cr_assert_eq(field_num("header.type"), PF_REC_SAMPLE);
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
	cr_assert_eq(record_decode_sample(session_attrs(&s), &r, &smp, &why), 0, "st %#llx seed %llu: %s",
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
			cr_assert_eq(record_decode_sample(session_attrs(&s), &r, &smp, &why), -1, "len %zu", len);
			cr_assert_not_null(why);
			cr_assert_eq(describe(&s, &r), -1, "len %zu described as whole", len);
			free(copy);
		}
		pd_free(&b);
		sess_free(&s);
	}
}

/* record_check and sample_fits give record_decode_sample's verdict (and
 * record_check its reason) on a sample cut to len bytes. */
static void
check_agrees(const struct session *s, const struct perf_event_attr *a, const uint8_t *p,
    size_t len, bool swap)
{
	/* A copy of exactly len bytes, so ASan sees any overread. */
	uint8_t *copy = malloc(len);
	struct rec r = { copy, (uint32_t)len, PF_REC_SAMPLE, 0, swap, 0 };
	struct sample smp, head;
	const char *why = NULL, *cwhy = NULL;
	int rc;

	memcpy(copy, p, len);
	rc = record_decode_sample(session_attrs(s), &r, &smp, &why);
	cr_assert_eq(sample_fits(a, copy + 8, len - 8, swap), rc == 0, "st %#llx len %zu: %s",
	    (unsigned long long)a->sample_type, len, why ? why : "whole");
	cr_assert_eq(record_check(session_attrs(s), &r, &head, &cwhy), rc, "len %zu", len);
	cr_assert_eq(cwhy, why, "len %zu", len);
	if (rc == 0) {
		cr_assert_eq(head.attr, smp.attr);
		cr_assert_eq(head.sample_type, smp.sample_type);
		cr_assert_eq(head.time, smp.time);
		cr_assert_eq(head.pid, smp.pid);
		cr_assert_eq(head.tid, smp.tid);
		cr_assert_eq(head.cpu, smp.cpu);
		cr_assert_eq(head.period, smp.period);
	}
	free(copy);
}

/* The cheap check agrees with the decoder on every cut and on counts and
 * sizes replaced by small, large and absurd values at every position. */
Test(record, check_agrees_with_decode)
{
	static const uint64_t vals[] = {
		0, 1, 2, 3, 5, 8, 24, 1000, SAMPLE_MAX_NR, SAMPLE_MAX_NR + 1ull, 1ull << 40,
		UINT64_MAX / 8 + 1, UINT64_MAX,
	};
	struct perf_event_attr a;
	uint64_t x = 2463534242ull;

	for (int i = 0; i < 120; i++) {
		struct session s;
		struct pdbuf b = { .swap = i & 1 };
		uint64_t st;
		size_t at, full;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		st = x & ALL_SAMPLE_BITS;
		if ((st & PERF_SAMPLE_WEIGHT) && (st & PERF_SAMPLE_WEIGHT_STRUCT))
			st &= ~(uint64_t)PERF_SAMPLE_WEIGHT;
		base_attr(&a, i < 2 ? ALL_SAMPLE_BITS & ~(uint64_t)PERF_SAMPLE_WEIGHT : st);
		a.read_format = (x >> 32) & (PERF_FORMAT_MAX - 1);
		a.branch_sample_type = ((x >> 40) & 1 ? PERF_SAMPLE_BRANCH_HW_INDEX : 0) |
		    ((x >> 41) & 1 ? PERF_SAMPLE_BRANCH_COUNTERS : 0);
		a.sample_regs_user = (x >> 20) & 0xffffff;
		a.sample_regs_intr = (x >> 44) & 0xffff;
		sess_init(&s, &a, 1);
		at = write_sample(&b, &a, (uint64_t)i, 100, 0);
		full = b.len - at;
		for (int k = 0; k < 16; k++)
			pd_u64(&b, (uint64_t)k);	/* room for sizes made larger */
		for (size_t len = 8; len <= full + 16; len++)
			check_agrees(&s, &a, b.p + at, len, b.swap);
		for (size_t off = 8; off + 8 <= full; off += 4) {
			uint8_t save[8];

			memcpy(save, b.p + at + off, 8);
			for (size_t v = 0; v < sizeof vals / sizeof vals[0]; v++) {
				if (off % 8 == 0)
					pd_put64(&b, at + off, vals[v]);
				else
					pd_put32(&b, at + off, (uint32_t)vals[v]);
				check_agrees(&s, &a, b.p + at, full, b.swap);
				check_agrees(&s, &a, b.p + at, full + 8, b.swap);
				memcpy(b.p + at + off, save, 8);
			}
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
	cr_assert_eq(record_decode_sample(session_attrs(&s), &r, &smp, &why), -1, "st %#llx count %#llx",
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
	cr_assert_eq(record_decode_sample(session_attrs(&s), &r, &smp, &why), -1);
	cr_assert_not_null(why);
	cr_assert_eq(smp.attr, -1);
	cr_assert_eq(describe(&s, &r), -1);
	cr_assert_eq(describe(NULL, &r), -1);
	pd_free(&b);
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
			cr_assert_eq(record_attr(session_attrs(&s), &r), 2);
			cr_assert_eq(record_decode_sample(session_attrs(&s), &r, &smp, &why), 0);
			cr_assert_eq(smp.attr, 2);
			at = write_comm(&b, sts[k], 101, true);
			r = mkrec(&b, at);
			cr_assert_eq(record_attr(session_attrs(&s), &r), 1);
			cr_assert_eq(record_decode_sample_id(session_attrs(&s), &r, &sid), 0);
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
			cr_assert_eq(record_attr(session_attrs(&s), &r), -1);
			/* Same layouts: still decodable, attr unknown. */
			cr_assert_eq(record_decode_sample(session_attrs(&s), &r, &smp, &why), 0);
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
	cr_assert_eq(record_attr(session_attrs(&s), &r), 1);
	cr_assert_eq(record_decode_sample(session_attrs(&s), &r, &smp, &why), 0);
	cr_assert_eq(smp.time, 1004);
	at = write_sample(&b, &a[0], 1, 100, 0);
	r = mkrec(&b, at);
	cr_assert_eq(record_attr(session_attrs(&s), &r), 0);
	/* Unknown id, layouts differ: undecodable. */
	at = write_sample(&b, &a[0], 1, 555, 0);
	r = mkrec(&b, at);
	cr_assert_eq(record_decode_sample(session_attrs(&s), &r, &smp, &why), -1);
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
	cr_assert_eq(record_decode_sample_id(session_attrs(&s), &r, &sid), -1);
	cr_assert_eq(describe(&s, &r), 0);
	cr_assert_eq(field_idx("sample_id.time"), -1);
	/* A trailer that does not fit the record. */
	a.sample_id_all = 1;
	sess_free(&s);
	sess_init(&s, &a, 1);
	at = pd_rec_begin(&b, PF_REC_LOST_SAMPLES, 0);
	pd_u64(&b, 5);
	pd_rec_end(&b, at);
	r = mkrec(&b, at);
	cr_assert_eq(record_decode_sample_id(session_attrs(&s), &r, &sid), -1);
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
	cr_assert_str_eq(record_type_name(22), "CALLCHAIN_DEFERRED");
	cr_assert_str_eq(record_type_name(84), "BPF_METADATA");
	cr_assert_str_eq(record_type_name(85), "SCHEDSTAT_CPU");
	cr_assert_str_eq(record_type_name(86), "SCHEDSTAT_DOMAIN");
	cr_assert_null(record_type_name(0));
	cr_assert_null(record_type_name(23));
	cr_assert_null(record_type_name(63));
	cr_assert_null(record_type_name(87));
	cr_assert_null(record_type_name(UINT32_MAX));
}

/* ---- the record table, who, and the typed decoders ---- */

Test(record, table_entries)
{
#define X(v, n) \
	cr_assert_not_null(record_type(v), "type %d", v); \
	cr_expect_str_eq(record_type(v)->name, #n);
	PF_RECORD_TYPES(X)
#undef X
	cr_expect_null(record_type(23));
	cr_expect_null(record_type(63));
	cr_expect_null(record_type(PF_REC_MAX_KNOWN));
	cr_expect_eq(record_type(PF_REC_MMAP)->body_min, 32);
	cr_expect_eq(record_type(PF_REC_MMAP2)->body_min, 64);
	cr_expect_eq(record_type(PF_REC_ATTR)->body_min, PF_ATTR_SIZE_VER0_MIN);
	cr_expect_eq(record_type(PF_REC_BUILD_ID)->body_min, 28);
	/* every kernel type but SWITCH and every described tool type has fields */
	cr_expect_not_null(record_type(PF_REC_SAMPLE)->fields);
	cr_expect_null(record_type(PF_REC_SWITCH)->fields);
	cr_expect_null(record_type(PF_REC_FINISHED_ROUND)->summary);
}

/* MMAP2 (build id or inode), MMAP, COMM, FORK, EXIT, LOST, LOST_SAMPLES. */
static void
write_kernel_records(struct pdbuf *b, size_t at[7])
{
	at[0] = pd_rec_begin(b, PF_REC_MMAP2, PERF_RECORD_MISC_MMAP_BUILD_ID);
	pd_u32(b, 7);
	pd_u32(b, 8);
	pd_u64(b, 0x400000);
	pd_u64(b, 0x1000);
	pd_u64(b, 0x20);
	pd_u8(b, 24);		/* more than 20: kept as recorded */
	pd_zero(b, 3);
	for (int i = 0; i < 20; i++)
		pd_u8(b, (uint8_t)(0xa0 + i));
	pd_u32(b, 5);
	pd_u32(b, 2);
	pd_str8(b, "/bin/x");
	pd_rec_end(b, at[0]);
	at[1] = pd_rec_begin(b, PF_REC_MMAP, 0);
	pd_u32(b, (uint32_t)-1);
	pd_u32(b, 0);
	pd_u64(b, 1);
	pd_u64(b, 2);
	pd_u64(b, 3);
	pd_str8(b, "[vdso]");
	pd_rec_end(b, at[1]);
	at[2] = write_comm(b, 0, 0, false);
	for (int k = 0; k < 2; k++) {
		at[3 + k] = pd_rec_begin(b, k ? PF_REC_EXIT : PF_REC_FORK, 0);
		pd_u32(b, 20);
		pd_u32(b, 10);
		pd_u32(b, 21);
		pd_u32(b, 11);
		pd_u64(b, 999);
		pd_rec_end(b, at[3 + k]);
	}
	at[5] = pd_rec_begin(b, PF_REC_LOST, 0);
	pd_u64(b, 4);
	pd_u64(b, 17);
	pd_rec_end(b, at[5]);
	at[6] = pd_rec_begin(b, PF_REC_LOST_SAMPLES, 0);
	pd_u64(b, 18);
	pd_rec_end(b, at[6]);
}

static void
check_kernel_records(bool swap)
{
	struct pdbuf b = { .swap = swap };
	size_t at[7];
	struct rec r;
	struct rec_mmap m;
	struct rec_comm c;
	struct rec_task t;
	struct rec_lost l;
	struct rec_who w = { -1, -1, 0, false };

	write_kernel_records(&b, at);
	r = mkrec(&b, at[0]);
	cr_assert_eq(record_mmap(&r, &m), 0);
	cr_expect(m.mmap2 && m.has_build_id && m.pid == 7 && m.tid == 8);
	cr_expect(m.addr == 0x400000 && m.len == 0x1000 && m.pgoff == 0x20);
	cr_expect(m.build_id_size == 24 && m.build_id[0] == 0xa0 && m.build_id[19] == 0xb3);
	cr_expect(m.prot == 5 && m.flags == 2 && m.maj == 0 && m.ino == 0);
	cr_expect_str_eq(m.filename, "/bin/x");
	cr_expect_eq(m.filename_max, 8);
	cr_assert_eq(record_who(&r, &w), 0);
	cr_expect(w.pid == 7 && w.tid == 8 && !w.has_time);
	cr_expect_eq(record_comm(&r, &c), -1, "an MMAP2 is not a COMM");

	r = mkrec(&b, at[1]);
	cr_assert_eq(record_mmap(&r, &m), 0);
	cr_expect(!m.mmap2 && m.pid == -1 && m.addr == 1 && m.len == 2 && m.pgoff == 3);
	cr_expect_str_eq(m.filename, "[vdso]");
	r.size = 39;	/* one byte short of its fixed fields */
	cr_expect_eq(record_mmap(&r, &m), -1);

	r = mkrec(&b, at[2]);
	cr_assert_eq(record_comm(&r, &c), 0);
	cr_expect(c.pid == 1234 && c.tid == 1235 && c.exec);
	cr_expect_str_eq(c.comm, "d_matmul");

	for (int k = 0; k < 2; k++) {
		r = mkrec(&b, at[3 + k]);
		cr_assert_eq(record_task(&r, &t), 0);
		cr_expect(t.pid == 20 && t.ppid == 10 && t.tid == 21 && t.ptid == 11 && t.time == 999);
		w.has_time = false;
		cr_assert_eq(record_who(&r, &w), 0);
		cr_expect(w.pid == 20 && w.tid == 21 && w.has_time && w.time == 999);
	}
	r = mkrec(&b, at[5]);
	cr_assert_eq(record_lost(&r, &l), 0);
	cr_expect(l.id == 4 && l.lost == 17);
	cr_expect_eq(record_who(&r, &w), -1, "LOST says no who in its body");
	r = mkrec(&b, at[6]);
	cr_assert_eq(record_lost(&r, &l), 0);
	cr_expect(l.id == 0 && l.lost == 18);
	pd_free(&b);
}

Test(record, typed_kernel_decoders_both_orders)
{
	check_kernel_records(false);
	check_kernel_records(true);
}

Test(record, typed_stat_decoders)
{
	struct pdbuf b = { 0 };
	size_t tm, cm, st, sr;
	struct rec r;
	struct rec_thread_map t;
	struct rec_cpu_map c;
	struct rec_stat s;
	struct rec_stat_round round;

	tm = pd_rec_begin(&b, PF_REC_THREAD_MAP, 0);
	pd_u64(&b, 3);		/* says 3, holds 2 */
	for (int i = 0; i < 2; i++) {
		pd_u64(&b, (uint64_t)(100 + i));
		pd_zero(&b, 16);
	}
	pd_rec_end(&b, tm);
	cm = pd_rec_begin(&b, PF_REC_CPU_MAP, 0);
	pd_u16(&b, 0);
	pd_u16(&b, 3);
	pd_u16(&b, 0);
	pd_u16(&b, 0xffff);
	pd_u16(&b, 2);
	pd_zero(&b, 6);
	pd_rec_end(&b, cm);
	st = pd_rec_begin(&b, PF_REC_STAT, 0);
	for (uint64_t v = 1; v <= 5; v++) {
		if (v == 2) {
			pd_u32(&b, 6);
			pd_u32(&b, 7);
		} else {
			pd_u64(&b, v);
		}
	}
	pd_u64(&b, 9);
	pd_rec_end(&b, st);
	sr = pd_rec_begin(&b, PF_REC_STAT_ROUND, 0);
	pd_u64(&b, 1);
	pd_u64(&b, 55);
	pd_rec_end(&b, sr);

	r = mkrec(&b, tm);
	cr_assert_eq(record_thread_map(&r, &t), 0);
	cr_expect(t.nr == 3 && t.have == 2);
	cr_expect(record_thread_map_pid(&t, 0) == 100 && record_thread_map_pid(&t, 1) == 101);
	r = mkrec(&b, cm);
	cr_assert_eq(record_cpu_map(&r, &c), 0);
	cr_expect(c.type == 0 && c.nr == 3 && c.have == 3);
	cr_expect(record_cpu_map_cpu(&c, 0) == 0 && record_cpu_map_cpu(&c, 1) == -1 &&
	    record_cpu_map_cpu(&c, 2) == 2);
	r = mkrec(&b, st);
	cr_assert_eq(record_stat(&r, &s), 0);
	cr_expect(s.id == 1 && s.cpu == 6 && s.thread == 7 && s.val == 3 && s.ena == 4 &&
	    s.run == 5);
	r.size -= 16;
	cr_expect_eq(record_stat(&r, &s), -1);
	r = mkrec(&b, sr);
	cr_assert_eq(record_stat_round(&r, &round), 0);
	cr_expect(round.type == 1 && round.time == 55);
	cr_expect_eq(record_stat(&r, &s), -1, "a STAT_ROUND is not a STAT");
	pd_free(&b);
}

/* The tool's and the trace's records loading reads, built in order swap. */
static void
check_tool_records(bool swap)
{
	struct pdbuf b = { .swap = swap };
	size_t at, eu, ix, bi, ft, sc, sw, it, ax;
	struct rec r;
	struct rec_header_attr h;
	struct rec_event_update u;
	struct rec_id_index x;
	struct rec_build_id bid;
	struct rec_feature f;
	struct rec_stat_config c;
	struct rec_switch s;
	struct rec_itrace_start its;
	struct rec_aux a;
	uint64_t id, idx, tag, val;

	at = pd_rec_begin(&b, PF_REC_ATTR, 0);
	pd_attr(&b, 128, 1, 0, 4000, 0x107, 0, 0);
	pd_u64(&b, 41);
	pd_u64(&b, 42);
	pd_rec_end(&b, at);
	eu = pd_rec_begin(&b, PF_REC_EVENT_UPDATE, 0);
	pd_u64(&b, REC_EVENT_UPDATE_NAME);
	pd_u64(&b, 42);
	pd_str8(&b, "cycles:u");
	pd_rec_end(&b, eu);
	ix = pd_rec_begin(&b, PF_REC_ID_INDEX, 0);
	pd_u64(&b, 2);
	for (uint64_t i = 0; i < 2; i++) {
		pd_u64(&b, 41 + i);
		pd_u64(&b, i);
		pd_u64(&b, 0);
		pd_u64(&b, 77);
	}
	pd_rec_end(&b, ix);
	bi = pd_rec_begin(&b, PF_REC_BUILD_ID, PF_MISC_BUILD_ID_SIZE);
	pd_u32(&b, 123);
	for (int i = 0; i < 20; i++)
		pd_u8(&b, (uint8_t)(0xc0 + i));
	pd_u8(&b, 16);		/* its size byte: 16 of the 20 */
	pd_zero(&b, 3);
	pd_str8(&b, "/lib/x.so");
	pd_rec_end(&b, bi);
	ft = pd_rec_begin(&b, PF_REC_FEATURE, 0);
	pd_u64(&b, 2);
	pd_feat_str(&b, "host");
	pd_rec_end(&b, ft);
	sc = pd_rec_begin(&b, PF_REC_STAT_CONFIG, 0);
	pd_u64(&b, 5);		/* says 5, holds 2 */
	pd_u64(&b, 1);
	pd_u64(&b, 3);
	pd_u64(&b, 2);
	pd_u64(&b, 1000);
	pd_rec_end(&b, sc);
	sw = pd_rec_begin(&b, PF_REC_SWITCH_CPU_WIDE, PERF_RECORD_MISC_SWITCH_OUT);
	pd_u32(&b, 600);
	pd_u32(&b, 601);
	pd_rec_end(&b, sw);
	it = pd_rec_begin(&b, PF_REC_ITRACE_START, 0);
	pd_u32(&b, 700);
	pd_u32(&b, 701);
	pd_rec_end(&b, it);
	ax = pd_rec_begin(&b, PF_REC_AUX, 0);
	pd_u64(&b, 0x1000);
	pd_u64(&b, 0x200);
	pd_u64(&b, 1);
	pd_rec_end(&b, ax);

	r = mkrec(&b, at);
	cr_assert_eq(record_header_attr(&r, &h), 0);
	cr_expect(h.attr_size == 128 && h.nids == 2 && h.attr_loc == r.loc + 8);
	cr_expect(record_header_attr_id(&h, 0) == 41 && record_header_attr_id(&h, 1) == 42);
	r = mkrec(&b, eu);
	cr_assert_eq(record_event_update(&r, &u), 0);
	cr_expect(u.type == REC_EVENT_UPDATE_NAME && u.id == 42);
	cr_expect_str_eq((const char *)u.data, "cycles:u");
	r = mkrec(&b, ix);
	cr_assert_eq(record_id_index(&r, &x), 0);
	cr_expect(x.nr == 2 && x.fits);
	record_id_index_entry(&x, 1, &id, &idx);
	cr_expect(id == 42 && idx == 1);
	r.size -= 8;		/* the second entry no longer whole */
	cr_assert_eq(record_id_index(&r, &x), 0);
	cr_expect_not(x.fits);
	r = mkrec(&b, bi);
	cr_assert_eq(record_build_id(&r, &bid), 0);
	cr_expect(bid.pid == 123 && bid.id_len == 16 && bid.id[0] == 0xc0 && bid.id[15] == 0xcf);
	cr_expect_str_eq(bid.filename, "/lib/x.so");
	r = mkrec(&b, ft);
	cr_assert_eq(record_feature(&r, &f), 0);
	cr_expect(f.bit == 2 && f.len == r.size - 16 && f.data_loc == r.loc + 16);
	r = mkrec(&b, sc);
	cr_assert_eq(record_stat_config(&r, &c), 0);
	cr_expect_eq(c.nr, 2, "the terms it holds");
	record_stat_config_term(&c, 1, &tag, &val);
	cr_expect(tag == 2 && val == 1000);
	r = mkrec(&b, sw);
	cr_assert_eq(record_switch(&r, &s), 0);
	cr_expect(s.out && s.cpu_wide && s.other_pid == 600 && s.other_tid == 601);
	r.size = 12;
	cr_expect_eq(record_switch(&r, &s), -1, "a cpu-wide switch without its thread");
	r = mkrec(&b, it);
	cr_assert_eq(record_itrace_start(&r, &its), 0);
	cr_expect(its.pid == 700 && its.tid == 701);
	cr_expect_eq(record_aux(&r, &a), -1, "an ITRACE_START is not an AUX");
	r = mkrec(&b, ax);
	cr_assert_eq(record_aux(&r, &a), 0);
	cr_expect(a.offset == 0x1000 && a.size == 0x200 && a.flags == 1);
	r.size = 8 + 16;
	cr_expect_eq(record_aux(&r, &a), -1, "an AUX short of its flags");
	pd_free(&b);
}

Test(record, typed_tool_decoders_both_orders)
{
	check_tool_records(false);
	check_tool_records(true);
}
