/*
 * test_brhist: perf's --branch-history chain of a sample (symbolize/brhist.c)
 * from samples built here: the order of branch frames in caller and callee
 * order, loops folded with their iterations, the callchain part perf keeps
 * (overlap in callee order, as many frames fewer as there are branches),
 * the words perf prints after a frame, the branch statistics, and a flags
 * word written by a big-endian perf.  The whole output against perf report
 * is tests/perf-callgraphs.sh's.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <linux/perf_event.h>
#include <string.h>

#include "symbolize/brhist.h"

static uint64_t
fl(unsigned predicted, unsigned cycles, unsigned type)
{
	return (uint64_t)(predicted ? 2 : 1) | (uint64_t)cycles << 4 | (uint64_t)type << 20;
}

/* entries[i] = (from, to, flags), newest first, as the kernel writes them */
static void
mk(struct sample *s, uint64_t *buf, const uint64_t (*e)[3], size_t n, const uint64_t *chain,
    size_t nchain)
{
	memset(s, 0, sizeof *s);
	for (size_t i = 0; i < n; i++)
		memcpy(buf + 3 * i, e[i], sizeof e[i]);
	s->branch = (const uint8_t *)buf;
	s->branch_nr = n;
	s->callchain = (const uint8_t *)chain;
	s->callchain_nr = nchain;
}

Test(brhist, caller_order_folds_loops)
{
	/* newest first: a loop of one branch ran 3 times, then a call, older loop twice */
	uint64_t e[][3] = { { 0x1191, 0x117b, fl(1, 4, 1) }, { 0x1191, 0x117b, fl(1, 4, 1) },
		{ 0x1191, 0x117b, fl(1, 5, 1) }, { 0x11ab, 0x1174, fl(1, 2, 4) },
		{ 0x1191, 0x117b, fl(1, 6, 1) }, { 0x1191, 0x117b, fl(1, 7, 1) } };
	uint64_t buf[18];
	struct brh_frame f[2 * BR_MAX_DEPTH];
	struct sample s;
	size_t lo, hi, at, n;

	mk(&s, buf, e, 6, NULL, 0);
	n = brhist_frames(&s, true, 127, f, &lo, &hi, &at);
	/* oldest first: loop (its repeat folded into the call after it), call, loop x3 -> x1
	 * then the next repeat: perf looks at no entry moved into a folded slot */
	cr_assert_eq(n % 2, 0);
	cr_assert_eq(f[0].kind, BRH_TO);
	cr_assert_eq(f[0].ip, 0x117b);
	cr_assert_eq(f[0].from, 0x1191);
	cr_assert_eq(f[1].kind, BRH_FROM);
	cr_assert_eq(f[1].ip, 0x1191);
	cr_assert_eq(f[2].ip, 0x1174, "the call after the folded repeat: %#lx",
	    (unsigned long)f[2].ip);
	cr_assert_eq(f[3].iter, 1);
	cr_assert_eq(f[3].iter_cycles, 6, "the folded entry's cycles");
	cr_assert_eq(n, 8, "6 entries, 2 folded: %zu frames", n);
	cr_assert_eq(lo, hi, "no callchain");
}

Test(brhist, callee_order_skips_overlap)
{
	uint64_t e[][3] = { { 0x2010, 0x3000, fl(1, 1, 4) }, { 0x1004, 0x2000, fl(0, 9, 4) } };
	/* user marker, the sample ip, the return address after 0x1004's call, the root */
	uint64_t chain[] = { (uint64_t)PERF_CONTEXT_USER, 0x3008, 0x1009, 0x500 };
	uint64_t buf[6];
	struct brh_frame f[2 * BR_MAX_DEPTH];
	struct sample s;
	size_t lo, hi, at, n;

	mk(&s, buf, e, 2, chain, 4);
	n = brhist_frames(&s, false, 127, f, &lo, &hi, &at);
	cr_assert_eq(n, 4);
	cr_assert_eq(f[0].ip, 0x3000, "newest first");
	cr_assert_eq(f[2].ip, 0x2000);
	/* the marker counts as overlap, the first entry's source is no return address:
	 * first_call 1; two branches: two frames fewer at the outer end */
	cr_assert_eq(lo, 1);
	cr_assert_eq(hi, 2);
	cr_assert_eq(at, SIZE_MAX);
	n = brhist_frames(&s, true, 127, f, &lo, &hi, &at);
	cr_assert_eq(f[0].ip, 0x2000, "oldest first");
	cr_assert_eq(lo, 2, "caller order: the inner end goes");
	cr_assert_eq(hi, 4);
	cr_assert_eq(at, 0, "its cpumode from the marker before it");
}

Test(brhist, max_stack_and_damage)
{
	uint64_t e[][3] = { { 0x10, 0x20, 0 }, { 0x30, 0x40, 0 }, { 0x50, 0x60, 0 } };
	uint64_t buf[9];
	struct brh_frame f[2 * BR_MAX_DEPTH];
	struct sample s;
	size_t lo, hi, at;

	mk(&s, buf, e, 3, NULL, 0);
	cr_assert_eq(brhist_frames(&s, false, 2, f, &lo, &hi, &at), 4);
	cr_assert_eq(f[2].ip, 0x40, "callee: the newest two");
	cr_assert_eq(brhist_frames(&s, true, 2, f, &lo, &hi, &at), 4);
	cr_assert_eq(f[0].ip, 0x60, "caller: the oldest two");
	s.branch_nr = BR_MAX_DEPTH + 1;	/* perf: a corrupted stack, no branch frames */
	cr_assert_eq(brhist_frames(&s, true, 127, f, &lo, &hi, &at), 0);
}

static const char *
text_of(const struct brh_frame *f, size_t n)
{
	static char buf[256];
	struct brh_count c;

	memset(&c, 0, sizeof c);
	for (size_t i = 0; i < n; i++)
		brhist_count(&c, &f[i]);
	return brhist_text(&c, buf, sizeof buf);
}

Test(brhist, target_without_source)
{
	/* perf tells a target from a source by its branch's source: none, a source */
	uint64_t e[][3] = { { 0, 0x2000, fl(0, 7, PERF_BR_CALL) } };
	uint64_t buf[3];
	struct brh_frame f[2 * BR_MAX_DEPTH];
	struct brh_count c;
	struct sample s;
	size_t lo, hi, at;
	char t[64];

	mk(&s, buf, e, 1, NULL, 0);
	cr_assert_eq(brhist_frames(&s, true, 127, f, &lo, &hi, &at), 2);
	cr_assert_eq(f[0].kind, BRH_FROM);
	cr_assert_eq(f[0].iter, 0);
	memset(&c, 0, sizeof c);
	brhist_count(&c, &f[0]);
	cr_assert_str_eq(brhist_text(&c, t, sizeof t), " (cycles:7)");
}

Test(brhist, words)
{
	struct brh_frame to[2] = {
		{ .ip = 0x1000, .from = 0x1040, .flags = fl(1, 0, PERF_BR_COND), .kind = BRH_TO },
		{ .ip = 0x1000, .from = 0x1040, .flags = fl(0, 0, PERF_BR_COND), .kind = BRH_TO },
	};
	struct brh_frame far = { .ip = 0x400000, .from = 0x7e0000001000,
		.flags = fl(1, 0, PERF_BR_UNCOND) | 8, .kind = BRH_TO };
	struct brh_frame from[2] = {
		{ .ip = 0x1040, .flags = fl(1, 4, 1), .iter = 1, .iter_cycles = 8, .kind = BRH_FROM },
		{ .ip = 0x1040, .flags = fl(1, 6, 1), .iter = 3, .iter_cycles = 16, .kind = BRH_FROM },
	};
	struct brh_frame chain = { .ip = 0x1000, .kind = BRH_CHAIN };

	cr_assert_str_eq(text_of(to, 1), " (COND_BWD)");
	cr_assert_str_eq(text_of(to, 2), " (COND_BWD predicted:50.0%)");
	cr_assert_str_eq(text_of(&far, 1), " (UNCOND CROSS_2M abort:100.0%)");
	cr_assert_str_eq(text_of(from, 1), " (cycles:4)", "perf counts iterations from the second pass");
	/* cycles 10 / 2; iterations 4 over 1 later pass; 24 cycles / 4 iterations */
	cr_assert_str_eq(text_of(from, 2), " (cycles:5 iter:4 avg_cycles:6)");
	cr_assert_str_eq(text_of(&chain, 1), " (calltrace)");
	from[0].flags = from[1].flags = 0;
	from[0].iter = from[1].iter = 0;
	cr_assert_str_eq(text_of(from, 2), "", "nothing to say: nothing");
}

Test(brhist, statistics)
{
	struct brstat st;

	memset(&st, 0, sizeof st);
	brstat_add(&st, fl(1, 0, PERF_BR_COND), 0x1000, 0x1040);
	brstat_add(&st, fl(1, 0, PERF_BR_COND), 0x1040, 0x1000);
	brstat_add(&st, fl(1, 0, PERF_BR_CALL), 0x1000, 0x2000);
	brstat_add(&st, fl(1, 0, PERF_BR_RET), 0x400000, 0x7f0000000000);
	brstat_add(&st, fl(1, 0, PERF_BR_RET), 0, 0x10);	/* from 0: not counted */
	brstat_add(&st, fl(1, 0, 0), 0x10, 0x20);	/* no type: not counted */
	cr_assert_eq(st.counts[PERF_BR_COND], 2);
	cr_assert_eq(st.cond_fwd, 1);
	cr_assert_eq(st.cond_bwd, 1);
	cr_assert_eq(st.cross_4k, 1, "0x1000 -> 0x2000");
	cr_assert_eq(st.cross_2m, 1);
	cr_assert_eq(st.counts[PERF_BR_RET], 1);
	cr_assert_str_eq(br_type_name(PERF_BR_IND_CALL), "IND_CALL");
	cr_assert_str_eq(br_new_type_name(0), "FAULT_ALGN");
}

Test(brhist, big_endian_flags)
{
	/*
	 * a big-endian perf lays the bit fields out from the word's top bit:
	 * mispred 63, predicted 62, in_tx 61, abort 60, cycles 44..59, type
	 * 40..43 (each field's value in its own bit order), bytes swapped here
	 */
	uint64_t be = UINT64_C(1) << 62 | UINT64_C(1) << 60 | (uint64_t)1234 << 44 |
	    (uint64_t)PERF_BR_CALL << 40, e[3];
	struct sample s;
	struct branch_ent b;

	e[0] = __builtin_bswap64(0x1000);
	e[1] = __builtin_bswap64(0x2000);
	e[2] = __builtin_bswap64(be);
	memset(&s, 0, sizeof s);
	s.branch = (const uint8_t *)e;
	s.branch_nr = 1;
	s.swap = true;
	b = sample_branch(&s, 0);
	cr_assert_eq(b.from, 0x1000);
	cr_assert_eq(b.to, 0x2000);
	cr_assert_eq(BRF_CYCLES(b.flags), 1234);
	cr_assert_eq(BRF_TYPE(b.flags), PERF_BR_CALL);
	cr_assert_eq(BRF_PREDICTED(b.flags), 1);
	cr_assert_eq(BRF_MISPRED(b.flags), 0);
	cr_assert_eq(BRF_IN_TX(b.flags), 0);
	cr_assert_eq(BRF_ABORT(b.flags), 1);
}
