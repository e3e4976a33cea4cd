/* Criterion tests of symbolize/hist.c and its sort keys: hot-function
 * tables, children, failure counts, adding in slices, merging. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "symbolize/hist.h"
#include "symbolize/symbolizer.h"
#include "tests/helpers.h"
#include "tests/hist_helpers.h"

Test(hist, parse_keys)
{
	enum hist_key k[HIST_MAX_KEYS];
	const char *bad;
	size_t badlen;

	cr_assert_eq(hist_parse_keys("comm,dso,sym", k, &bad, &badlen), 3);
	cr_assert_eq(k[0], HIST_KEY_COMM);
	cr_assert_eq(k[1], HIST_KEY_DSO);
	cr_assert_eq(k[2], HIST_KEY_SYM);
	cr_assert_eq(hist_parse_keys("pid,tid,cpu,srcline", k, &bad, &badlen), 4);
	cr_assert_eq(k[3], HIST_KEY_SRCLINE);
	cr_assert_eq(hist_parse_keys("comm,bogus,sym", k, &bad, &badlen), -1);
	cr_assert_eq(badlen, 5);
	cr_assert_eq(strncmp(bad, "bogus", 5), 0);
}

Test(hist, self_overhead_is_period_share)
{
	struct hist *h = hh_new("sym", false, false);
	struct frame a = hh_frame(0, 1, 0x1100), b = hh_frame(0, 2, 0x1200), c = hh_frame(1, 3, 0x1300);
	const uint32_t *rows;
	const struct hist_entry *e;

	hh_add(h, 0, "x", 1, 100, &a, 1);
	hh_add(h, 0, "x", 1, 100, &a, 1);
	hh_add(h, 0, "x", 1, 600, &b, 1);	/* one sample, most of the period */
	hh_add(h, 0, "y", 2, 200, &c, 1);
	hh_add(h, 1, "x", 1, 5, &a, 1);	/* another event */
	hist_finish(h);
	cr_assert_eq(hist_nevents(h), 2);
	cr_assert_str_eq(hist_str(h, hist_event(h, 0)->name), "cpu-clock");
	cr_assert_eq(hist_event(h, 0)->total_period, 1000);
	cr_assert_eq(hist_event(h, 0)->nsamples, 4);
	cr_assert_eq(hist_rows(h, 0, 0, &rows), 3);
	/* sorted by period: s2 (600) first although s1 has more samples */
	e = hist_entry_get(h, rows[0]);
	cr_assert_eq(e->period, 600);
	cr_assert_float_eq(hist_self_pct(h, e), 60.0, 1e-9);
	e = hh_row(h, 0, HIST_KEY_SYM, "[.] s1");
	cr_assert_not_null(e);
	cr_assert_eq(e->samples, 2);
	cr_assert_float_eq(hist_self_pct(h, e), 20.0, 1e-9);
	/* the second event has its own rows and total */
	cr_assert_eq(hist_rows(h, 1, 0, &rows), 1);
	cr_assert_float_eq(hist_self_pct(h, hist_entry_get(h, rows[0])), 100.0, 1e-9);
	cr_assert_eq(hist_event_find(h, "task-clock"), 1);
	cr_assert_eq(hist_event_find(h, "nope"), -1);
	hist_free(h);
}

Test(hist, percent_limit_hides_rows)
{
	struct hist *h = hh_new("sym", false, false);
	struct frame a = hh_frame(0, 1, 0x1100), b = hh_frame(0, 2, 0x1200);
	const uint32_t *rows;

	for (int i = 0; i < 99; i++)
		hh_add(h, 0, "x", 1, 1, &a, 1);
	hh_add(h, 0, "x", 1, 1, &b, 1);
	hist_finish(h);
	cr_assert_eq(hist_rows(h, 0, 0, &rows), 2);
	cr_assert_eq(hist_rows(h, 0, 1.0, &rows), 2);	/* 1.00% is not under 1 */
	cr_assert_eq(hist_rows(h, 0, 1.5, &rows), 1);
	cr_assert_eq(hist_rows(h, 0, 100, &rows), 0 + 0);
	hist_free(h);
}

Test(hist, children_count_a_recursive_symbol_once)
{
	struct hist *h = hh_new("sym", true, false);
	/* leaf first: fib <- fib <- fib <- main <- start */
	struct frame c1[] = { hh_frame(0, 1, 0x1110), hh_frame(0, 1, 0x1120), hh_frame(0, 1, 0x1130), hh_frame(0, 2, 0x1200),
	    hh_frame(0, 3, 0x1300) };
	/* leaf <- fib <- main <- start */
	struct frame c2[] = { hh_frame(0, 4, 0x1400), hh_frame(0, 1, 0x1120), hh_frame(0, 2, 0x1200), hh_frame(0, 3, 0x1300) };
	const struct hist_entry *e;

	hh_add(h, 0, "x", 1, 10, c1, 5);
	hh_add(h, 0, "x", 1, 10, c1, 5);
	hh_add(h, 0, "x", 1, 20, c2, 4);
	hist_finish(h);
	e = hh_row(h, 0, HIST_KEY_SYM, "[.] s1");
	cr_assert_not_null(e);
	cr_assert_eq(e->samples, 2);
	cr_assert_eq(e->period, 20);
	cr_assert_eq(e->acc_period, 40);	/* 10 + 10 + 20, not 3x for recursion */
	cr_assert_eq(e->acc_samples, 3);
	cr_assert_float_eq(hist_children_pct(h, e), 100.0, 1e-9);
	cr_assert_float_eq(hist_self_pct(h, e), 50.0, 1e-9);
	e = hh_row(h, 0, HIST_KEY_SYM, "[.] s4");
	cr_assert_eq(e->acc_period, 20);
	cr_assert_eq(e->period, 20);
	e = hh_row(h, 0, HIST_KEY_SYM, "[.] s3");
	cr_assert_eq(e->samples, 0);
	cr_assert_eq(e->acc_period, 40);
	hist_free(h);
}

Test(hist, children_without_callchain_equal_self)
{
	struct hist *h = hh_new("comm,dso,sym", true, false);
	struct frame a = hh_frame(0, 1, 0x1100);
	const struct hist_entry *e;

	hh_add(h, 0, "x", 1, 3, &a, 0);
	hh_add(h, 0, "x", 1, 3, &a, 0);
	hist_finish(h);
	e = hh_row(h, 0, HIST_KEY_SYM, "[.] s1");
	cr_assert_eq(e->acc_period, e->period);
	cr_assert_eq(e->acc_samples, 2);
	hist_free(h);
}

Test(hist, children_keyed_by_every_sort_key)
{
	/* --sort comm: a chain adds nothing new, children == self */
	struct hist *h = hh_new("comm", true, false);
	struct frame c[] = { hh_frame(0, 1, 0x1100), hh_frame(0, 2, 0x1200) };
	const struct hist_entry *e;

	hh_add(h, 0, "x", 1, 7, c, 2);
	hist_finish(h);
	e = hh_row(h, 0, HIST_KEY_COMM, "x");
	cr_assert_eq(e->acc_period, 7);
	cr_assert_eq(e->period, 7);
	hist_free(h);
}

Test(hist, unresolved_keys_as_perf)
{
	/*
	 * An unresolved sample ip is keyed (and printed) relative to its DSO;
	 * the same address as a callchain frame is keyed by the recorded
	 * address, so perf shows both rows.
	 */
	struct hist *h = hh_new("sym", true, false);
	struct frame c[] = { hh_frame(0, SYM_NONE, 0x5100), hh_frame(0, 2, 0x1200) };
	const struct hist_entry *e;

	hh_add(h, 0, "x", 1, 1, c, 2);
	hist_finish(h);
	e = hh_row(h, 0, HIST_KEY_SYM, "[.] 0x0000000000004100");
	cr_assert_not_null(e);
	cr_assert_eq(e->samples, 1);
	e = hh_row(h, 0, HIST_KEY_SYM, "[.] 0x0000000000005100");
	cr_assert_not_null(e);
	cr_assert_eq(e->samples, 0);
	cr_assert_eq(e->acc_samples, 1);
	hist_free(h);
}

Test(hist, sort_keys_split_rows)
{
	struct hist *h = hh_new("comm,pid,tid,cpu,dso,sym", false, false);
	struct frame a = hh_frame(7, 1, 0x1100);
	const uint32_t *rows;
	char buf[64];
	const struct hist_entry *e;

	hh_add(h, 0, "one", 10, 1, &a, 1);
	hh_add(h, 0, "one", 10, 1, &a, 1);
	hh_add(h, 0, "one", 11, 1, &a, 1);	/* other tid and cpu */
	hh_add(h, 0, "two", 10, 1, &a, 1);	/* same tid, other comm (exec) */
	hist_finish(h);
	cr_assert_eq(hist_rows(h, 0, 0, &rows), 3);
	e = hist_entry_get(h, rows[0]);
	cr_assert_eq(e->samples, 2);
	cr_assert_str_eq(hist_key_text(h, e, HIST_KEY_COMM, buf, sizeof buf), "one");
	cr_assert_str_eq(hist_key_text(h, e, HIST_KEY_PID, buf, sizeof buf), "     10:one");
	cr_assert_str_eq(hist_key_text(h, e, HIST_KEY_DSO, buf, sizeof buf), "d7");
	cr_assert_str_eq(hist_key_text(h, e, HIST_KEY_CPU, buf, sizeof buf), "0");
	hist_free(h);

	h = hh_new("dso", false, false);
	hh_add(h, 0, "one", 10, 1, &a, 1);
	hh_add(h, 0, "two", 11, 1, &a, 1);
	hist_finish(h);
	cr_assert_eq(hist_rows(h, 0, 0, &rows), 1);
	cr_assert_eq(hist_entry_get(h, rows[0])->samples, 2);
	hist_free(h);
}

Test(hist, why_counts)
{
	struct hist *h = hh_new("sym", true, false);
	struct frame c[] = { hh_frame(3, SYM_NONE, 0x5100), hh_frame(3, SYM_NONE, 0x5200), hh_frame(0, 2, 0x1200) };
	const struct hist_why *w;

	hh_add(h, 0, "x", 1, 1, c, 3);
	hist_finish(h);
	cr_assert_eq(hist_whys(h, &w), 1);
	cr_assert_eq(w[0].dso, 3);
	cr_assert_eq(w[0].self[SYM_WHY_NOT_IN_SYMBOL], 1);
	cr_assert_eq(w[0].chain[SYM_WHY_NOT_IN_SYMBOL], 2);
	hist_free(h);
}

/* The project's fixtures, without a symbolizer: counts and periods. */
Test(hist, session_fp_fixture)
{
	struct perf_err err;
	struct session *s = session_open(test_data("fp.data"), NULL, &err);
	struct hist_opts o;
	struct hist *h;
	const uint32_t *rows;
	uint64_t skipped = 1, sum = 0, added, acc_max = 0;
	size_t n;

	cr_assert_not_null(s, "%s", err.msg);
	memset(&o, 0, sizeof o);
	o.event = -1;
	o.children = true;
	o.callgraph = true;
	o.max_stack = HIST_DEFAULT_MAX_STACK;
	h = hist_new(s, NULL, &o);
	added = hist_add_session(h, &skipped);
	hist_finish(h);
	cr_assert_eq(skipped, 0);
	cr_assert_eq(added, session_counts(s)->by_type[PF_REC_SAMPLE]);
	cr_assert_eq(hist_nevents(h), 1);
	cr_assert_eq(hist_event(h, 0)->nsamples, added);
	n = hist_rows(h, 0, 0, &rows);
	cr_assert_gt(n, 0);
	for (size_t i = 0; i < n; i++) {
		const struct hist_entry *e = hist_entry_get(h, rows[i]);

		sum += e->samples;
		cr_assert_geq(e->acc_period, e->period);
		if (e->acc_period > acc_max)
			acc_max = e->acc_period;
		if (i > 0)
			cr_assert_geq(hist_entry_get(h, rows[i - 1])->acc_period, e->acc_period);
	}
	cr_assert_eq(sum, added);
	cr_assert_leq(acc_max, hist_event(h, 0)->total_period);
	cr_assert_str_eq(hist_str(h, hist_entry_get(h, rows[0])->comm), "cpu");
	hist_free(h);
	session_close(s);
}

/*
 * Two events of one sample_type without PERIOD (periods 250 and 500, ids
 * 100 and 200) and a sample whose id names neither: it decodes with attr
 * 0's layout as event -1 ("unknown") and takes attr 0's period (found by
 * tests/fuzz/fuzz_symbolize: the children pass read the attr table at -1).
 */
Test(hist, sample_of_unknown_event)
{
	static const uint64_t ids[] = { 100, 200, 999 };
	struct pdbuf b;
	struct perf_err err;
	struct session_mem mem;
	struct session *s;
	struct hist_opts o;
	struct hist *h;
	size_t attrs_off, data_off, r;
	uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID;
	int ev;

	memset(&b, 0, sizeof b);
	pd_u64(&b, 0x32454c4946524550ULL);	/* PERFILE2 */
	pd_u64(&b, 104);
	pd_u64(&b, 128 + 16);
	pd_zero(&b, 104 - 24);
	attrs_off = b.len;
	for (int i = 0; i < 2; i++) {
		pd_attr(&b, 128, PERF_TYPE_SOFTWARE, i == 0 ? PERF_COUNT_SW_CPU_CLOCK :
		    PERF_COUNT_SW_TASK_CLOCK, 250 * (uint64_t)(i + 1), st, 0, 0);
		pd_u64(&b, attrs_off + 2 * (128 + 16) + 8 * (size_t)i);	/* its id */
		pd_u64(&b, 8);
	}
	pd_u64(&b, 100);
	pd_u64(&b, 200);
	data_off = b.len;
	for (int i = 0; i < 3; i++) {
		r = pd_rec_begin(&b, PF_REC_SAMPLE, PERF_RECORD_MISC_USER);
		pd_u64(&b, 0x400100);
		pd_u32(&b, 42);
		pd_u32(&b, 42);
		pd_u64(&b, 1000 + (uint64_t)i);
		pd_u64(&b, ids[i]);
		pd_rec_end(&b, r);
	}
	pd_put64(&b, 24, attrs_off);
	pd_put64(&b, 32, 2 * (128 + 16));
	pd_put64(&b, 40, data_off);
	pd_put64(&b, 48, b.len - data_off);
	mem.base = b.p;
	mem.size = b.len;
	s = session_open_mem("unknown-event", &mem, 1, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	cr_assert_eq(session_attrs(s)->n, 2);
	cr_assert_eq(session_counts(s)->by_type[PF_REC_SAMPLE], 3);

	memset(&o, 0, sizeof o);
	o.event = -1;
	o.children = true;	/* the full sample decode */
	o.max_stack = HIST_DEFAULT_MAX_STACK;
	h = hist_new(s, NULL, &o);
	cr_assert_eq(hist_add_session(h, NULL), 3);
	hist_finish(h);
	cr_assert_eq(hist_nevents(h), 3);
	ev = hist_event_find(h, "unknown");
	cr_assert_geq(ev, 0);
	cr_assert_eq(hist_event(h, (size_t)ev)->attr, -1);
	cr_assert_eq(hist_event(h, (size_t)ev)->nsamples, 1);
	cr_assert_eq(hist_event(h, (size_t)ev)->total_period, 250);
	for (size_t i = 0; i < 3; i++)
		if (hist_event(h, i)->attr >= 0)
			cr_assert_eq(hist_event(h, i)->total_period,
			    250 * (uint64_t)(hist_event(h, i)->attr + 1));
	hist_free(h);
	session_close(s);
	pd_free(&b);
}

/* ---- adding a session in slices (the TUI's incremental symbolization) ---- */

struct fold_text {
	char	*s;
	size_t	 len, cap;
};

static int
fold_cat(void *arg, const char *line, uint64_t count)
{
	struct fold_text *t = arg;
	char buf[64];
	size_t l = strlen(line), k = (size_t)snprintf(buf, sizeof buf, " %llu\n",
	    (unsigned long long)count);

	if (t->len + l + k + 1 > t->cap) {
		t->cap = (t->len + l + k + 1) * 2;
		t->s = realloc(t->s, t->cap);
		cr_assert_not_null(t->s);
	}
	memcpy(t->s + t->len, line, l);
	memcpy(t->s + t->len + l, buf, k + 1);
	t->len += l + k;
	return 0;
}

/* Everything a hist answers, the same in a and b. */
static void
assert_same_hists(struct hist *a, struct hist *b, const struct hist_opts *o, const char *what)
{
	const struct hist_why *wa, *wb;
	size_t nwa, nwb;

	cr_assert_eq(hist_nevents(a), hist_nevents(b), "%s: events", what);
	cr_assert_eq(hist_nnodes(a), hist_nnodes(b), "%s: function nodes", what);
	for (size_t ev = 0; ev < hist_nevents(a); ev++) {
		const uint32_t *ra, *rb;
		uint32_t *copy;
		size_t na = hist_rows(a, ev, 0, &ra), nb;
		struct fold_text fa = { 0 }, fb = { 0 };

		cr_assert_eq(hist_event(a, ev)->total_period, hist_event(b, ev)->total_period);
		cr_assert_eq(hist_event(a, ev)->nsamples, hist_event(b, ev)->nsamples);
		copy = calloc(na + 1, sizeof *copy);
		if (na > 0)
			memcpy(copy, ra, na * sizeof *ra);
		nb = hist_rows(b, ev, 0, &rb);
		cr_assert_eq(na, nb, "%s: event %zu: %zu rows, sliced %zu", what, ev, na, nb);
		for (size_t i = 0; i < na; i++) {
			const struct hist_entry *x = hist_entry_get(a, copy[i]), *y = hist_entry_get(b, rb[i]);
			char bx[1024], by[1024];

			cr_assert_eq(x->period, y->period, "%s: row %zu", what, i);
			cr_assert_eq(x->samples, y->samples, "%s: row %zu", what, i);
			cr_assert_eq(x->acc_period, y->acc_period, "%s: row %zu", what, i);
			cr_assert_eq(x->acc_samples, y->acc_samples, "%s: row %zu", what, i);
			for (unsigned k = 0; k < o->nkeys; k++)
				cr_assert_str_eq(hist_key_text(a, x, o->keys[k], bx, sizeof bx),
				    hist_key_text(b, y, o->keys[k], by, sizeof by), "%s: row %zu", what, i);
		}
		free(copy);
		if (o->callgraph) {
			hist_folded(a, ev, false, fold_cat, &fa);
			hist_folded(b, ev, false, fold_cat, &fb);
			cr_assert_eq(fa.len, fb.len, "%s: folded stacks", what);
			if (fa.len)
				cr_assert_str_eq(fa.s, fb.s, "%s: folded stacks", what);
			free(fa.s);
			free(fb.s);
		}
	}
	nwa = hist_whys(a, &wa);
	nwb = hist_whys(b, &wb);
	cr_assert_eq(nwa, nwb, "%s: why counts", what);
	if (nwa > 0)
		cr_assert_eq(memcmp(wa, wb, nwa * sizeof *wa), 0, "%s: why counts", what);
}

static struct hist *
session_hist(struct session *s, struct symbolizer *z, const struct hist_opts *o, size_t slice,
    uint64_t *nadded)
{
	const struct rec_index *ix = session_index(s);
	struct hist *h = hist_new(s, z, o);
	uint64_t added = 0, skipped, bad = 0;

	if (slice == 0) {
		added = hist_add_session(h, &bad);
	} else {
		for (size_t i = 0; i < ix->n; i += slice) {
			added += hist_add_range(h, i, i + slice, &skipped);
			bad += skipped;
			if (i == ix->n / 2)
				hist_peek(h);	/* reading midway changes nothing */
		}
	}
	*nadded = added * 1000003 + bad;
	hist_finish(h);
	return h;
}

Test(hist, add_range_in_slices_equals_add_session)
{
	const char *fx[] = { "fp.data", "dwarf.data", "multi.data", "pipe.data", "zstd.data",
		"switch.data", "fork.data" };
	const size_t slices[] = { 1, 7, 4096 };
	char bdir[4096];

	snprintf(bdir, sizeof bdir, "%s", test_data("buildid"));
	for (size_t f = 0; f < sizeof fx / sizeof fx[0]; f++) {
		struct perf_err err;
		struct session *s = session_open(test_data(fx[f]), NULL, &err);
		struct sym_opts so = { .buildid_dir = bdir, .kallsyms = "/dev/null" };
		struct hist_opts o;

		cr_assert_not_null(s, "%s: %s", fx[f], err.msg);
		memset(&o, 0, sizeof o);
		o.event = -1;
		o.children = true;
		o.callgraph = true;
		o.max_stack = HIST_DEFAULT_MAX_STACK;
		o.keys[0] = HIST_KEY_COMM;
		o.keys[1] = HIST_KEY_DSO;
		o.keys[2] = HIST_KEY_SYM;
		o.nkeys = 3;
		for (size_t k = 0; k < sizeof slices / sizeof slices[0]; k++) {
			struct symbolizer *za = symbolizer_new(s, &so), *zb = symbolizer_new(s, &so);
			uint64_t na, nb;
			struct hist *a = session_hist(s, za, &o, 0, &na);
			struct hist *b = session_hist(s, zb, &o, slices[k], &nb);
			char what[128];

			snprintf(what, sizeof what, "%s in slices of %zu", fx[f], slices[k]);
			cr_assert_eq(na, nb, "%s: samples added and skipped", what);
			assert_same_hists(a, b, &o, what);
			hist_free(a);
			hist_free(b);
			symbolizer_free(za);
			symbolizer_free(zb);
		}
		session_close(s);
	}
}

/*
 * s's samples through hist_add, each frame resolved on its own
 * (symbolizer_resolve, symbolizer_callchain): no cache of the walk's.
 */
static struct hist *
uncached_hist(struct session *s, struct symbolizer *z, const struct hist_opts *o)
{
	const struct rec_index *ix = session_index(s);
	struct hist *h = hist_new(s, z, o);
	struct frame *chain = calloc(1024, sizeof *chain);

	cr_assert_not_null(chain);
	for (size_t i = 0; i < ix->n; i++) {
		struct rec r;
		struct sample smp;
		struct frame self;
		struct hist_sample hs;

		if (ent_type(index_ent(ix, i)) != PF_REC_SAMPLE ||
		    session_rec(s, ent_loc(index_ent(ix, i)), &r) != 0 ||
		    record_decode_sample(session_attrs(s), &r, &smp, NULL) < 0)
			continue;
		symbolizer_resolve(z, (int32_t)smp.pid, (int32_t)smp.tid, smp.time,
		    r.misc & PERF_RECORD_MISC_CPUMODE_MASK, smp.ip, &self);
		memset(&hs, 0, sizeof hs);
		hs.attr = smp.attr;
		hs.event_name = session_attr_name(s, smp.attr);
		hs.comm = "";
		hs.pid = (int32_t)smp.pid;
		hs.tid = (int32_t)smp.tid;
		hs.cpu = smp.cpu;
		hs.has_cpu = (smp.sample_type & PERF_SAMPLE_CPU) != 0;
		hs.time = smp.time;
		hs.period = smp.period;
		hs.self = &self;
		hs.chain = chain;
		if (o->children && symbolizer_has_chain(&smp))
			hs.nchain = symbolizer_callchain(z, &smp, r.misc, chain, 1024, o->max_stack);
		hist_add(h, &hs);
	}
	free(chain);
	hist_finish(h);
	return h;
}

/*
 * The walk resolves through caches: per (address space, cpumode, ip), and
 * per frame less its ip, which processes mapping one binary at addresses
 * of their own share (fork.data: the parent and the child it execs map
 * forkexec and libc at other addresses).  Its rows are those of frames
 * resolved one by one.
 */
Test(hist, walk_caches_equal_uncached)
{
	const char *fx[] = { "fork.data", "fp.data", "pipe.data", "plain.data" };
	const struct {
		const char	*keys;
		bool		 children;
	} cfg[] = {
		{ "dso,sym", true }, { "dso,sym", false }, { "sym", true }, { "pid,dso,sym,srcline", false },
		{ "pid,srcline", true },
	};
	char bdir[4096];

	snprintf(bdir, sizeof bdir, "%s", test_data("buildid"));
	for (size_t f = 0; f < sizeof fx / sizeof fx[0]; f++) {
		struct perf_err err;
		struct session *s = session_open(test_data(fx[f]), NULL, &err);
		/* symbols found; none found: frames keyed by their addresses */
		const struct sym_opts sos[] = { { .buildid_dir = bdir },
			{ .buildid_dir = "/nonexistent", .symfs = "/nonexistent", .kallsyms = "/dev/null" } };

		cr_assert_not_null(s, "%s: %s", fx[f], err.msg);
		for (size_t c = 0; c < 2 * sizeof cfg / sizeof cfg[0]; c++) {
			const struct sym_opts *so = &sos[c % 2];
			struct symbolizer *za = symbolizer_new(s, so), *zb = symbolizer_new(s, so);
			struct hist_opts o;
			struct hist *a, *b;
			const char *bad;
			size_t badlen;
			char what[128];
			int nk;

			memset(&o, 0, sizeof o);
			nk = hist_parse_keys(cfg[c / 2].keys, o.keys, &bad, &badlen);
			cr_assert_gt(nk, 0);
			o.nkeys = (unsigned)nk;
			o.event = -1;
			o.children = cfg[c / 2].children;
			o.max_stack = HIST_DEFAULT_MAX_STACK;
			a = hist_new(s, za, &o);
			cr_assert_gt(hist_add_session(a, NULL), 0);
			hist_finish(a);
			b = uncached_hist(s, zb, &o);
			snprintf(what, sizeof what, "%s, %s%s%s: walk against no caches", fx[f],
			    cfg[c / 2].keys, cfg[c / 2].children ? " (children)" : "",
			    c % 2 ? ", no symbols" : "");
			assert_same_hists(a, b, &o, what);
			hist_free(a);
			hist_free(b);
			symbolizer_free(za);
			symbolizer_free(zb);
		}
		session_close(s);
	}
}

/* A hist keyed comm,tid,dso,sym merged to comm,dso,sym is perf's table. */
Test(hist, merged_rows_equal_coarser_keys)
{
	struct perf_err err;
	struct session *s = session_open(test_data("fp.data"), NULL, &err);
	const struct rec_index *ix = session_index(s);
	char bdir[4096];
	struct sym_opts so = { .kallsyms = "/dev/null" };
	struct symbolizer *z;
	struct hist_opts o, ot;
	struct hist *h, *ht;
	const uint32_t *rows;
	const struct hist_entry *const *m;
	size_t n, nm;
	uint64_t by_pos = 0;
	struct hist_select sel;

	cr_assert_not_null(s, "%s", err.msg);
	snprintf(bdir, sizeof bdir, "%s", test_data("buildid"));
	so.buildid_dir = bdir;
	z = symbolizer_new(s, &so);
	memset(&o, 0, sizeof o);
	o.event = -1;
	o.children = true;
	o.max_stack = HIST_DEFAULT_MAX_STACK;
	ot = o;
	ot.keys[0] = HIST_KEY_COMM;
	ot.keys[1] = HIST_KEY_TID;
	ot.keys[2] = HIST_KEY_DSO;
	ot.keys[3] = HIST_KEY_SYM;
	ot.nkeys = 4;
	ot.record_self = true;
	h = hist_new(s, z, &o);
	ht = hist_new(s, z, &ot);
	hist_add_session(h, NULL);
	hist_finish(h);
	hist_add_session(ht, NULL);
	hist_finish(ht);
	n = hist_rows(h, 0, 0, &rows);
	nm = hist_rows_merged(ht, 0, NULL, HIST_KEEP(HIST_KEY_COMM) | HIST_KEEP(HIST_KEY_DSO) |
	    HIST_KEEP(HIST_KEY_SYM), 0, &m);
	cr_assert_eq(n, nm);
	cr_assert_eq(n, 19, "perf report's 19 rows");
	for (size_t i = 0; i < n; i++) {
		const struct hist_entry *e = hist_entry_get(h, rows[i]);
		char b1[512], b2[512];

		cr_assert_eq(e->period, m[i]->period, "row %zu", i);
		cr_assert_eq(e->acc_period, m[i]->acc_period, "row %zu", i);
		cr_assert_eq(e->samples, m[i]->samples, "row %zu", i);
		cr_assert_str_eq(hist_key_text(h, e, HIST_KEY_SYM, b1, sizeof b1),
		    hist_key_text(ht, m[i], HIST_KEY_SYM, b2, sizeof b2), "row %zu", i);
		cr_assert_str_eq(hist_key_text(h, e, HIST_KEY_DSO, b1, sizeof b1),
		    hist_key_text(ht, m[i], HIST_KEY_DSO, b2, sizeof b2), "row %zu", i);
	}
	/* one thread: its samples; a thread that does not exist: nothing */
	memset(&sel, 0, sizeof sel);
	sel.by_tid = true;
	sel.tid = m[0]->tid;
	nm = hist_rows_merged(ht, 0, &sel, HIST_KEEP(HIST_KEY_SYM), 0, &m);
	cr_assert_gt(nm, 0);
	sel.tid = 999999;
	cr_assert_eq(hist_rows_merged(ht, 0, &sel, HIST_KEEP(HIST_KEY_SYM), 0, &m), 0);
	/* DSOs: self sums */
	nm = hist_rows_merged(ht, 0, NULL, HIST_KEEP(HIST_KEY_DSO), 0, &m);
	cr_assert_geq(nm, 3);
	{
		uint64_t sum = 0;

		for (size_t i = 0; i < nm; i++)
			sum += m[i]->samples;
		cr_assert_eq(sum, hist_event(ht, 0)->nsamples);
	}
	/* each sample's own entry */
	for (size_t i = 0; i < ix->n; i++) {
		uint32_t id = hist_sample_entry(ht, i);

		if (ent_type(index_ent(ix, i)) != PF_REC_SAMPLE) {
			cr_assert_eq(id, UINT32_MAX);
			continue;
		}
		cr_assert_neq(id, UINT32_MAX);
		cr_assert_gt(hist_entry_get(ht, id)->samples, 0);
		by_pos++;
	}
	cr_assert_eq(by_pos, hist_event(ht, 0)->nsamples);
	cr_assert_eq(hist_sample_entry(h, 0), UINT32_MAX, "record_self off");
	hist_free(h);
	hist_free(ht);
	symbolizer_free(z);
	session_close(s);
}

/* ---- two hists over two parts of a session, merged (perfnav top's parallel pass) ---- */

/* One pass over s, or two hists over [0, mid) and [mid, n) merged. */
static struct hist *
split_hist(struct session *s, const struct sym_opts *so, const struct hist_opts *o, size_t mid,
    struct symbolizer **zp)
{
	struct symbolizer *z2;
	struct hist *h, *h2;

	*zp = symbolizer_new(s, so);
	h = hist_new(s, *zp, o);
	if (mid == SIZE_MAX) {
		hist_add_session(h, NULL);
		hist_finish(h);
		return h;
	}
	z2 = symbolizer_new(s, so);
	h2 = hist_new(s, z2, o);
	hist_add_range(h2, mid, session_index(s)->n, NULL);
	hist_add_range(h, 0, mid, NULL);
	cr_assert_eq(hist_merge(h, h2), 0, "hist_merge refused");
	hist_free(h2);
	symbolizer_free(z2);
	hist_finish(h);
	return h;
}

Test(hist, split_and_merged_equals_one_pass)
{
	const char *fx[] = { "fp.data", "plain.data", "multi.data", "fork.data", "dwarf.data",
		"pipe.data", "dir.data", "zstd.data", "group.data", "switch.data",
		"tracepoint.data" };
	const struct {
		const char	*keys;
		bool		 children;
	} cfg[] = {
		{ "comm,dso,sym", false }, { "comm,dso,sym", true }, { "sym", false },
		{ "sym", true }, { "pid,cpu,srcline", false }, { "process,dso", true },
	};
	char bdir[4096];

	snprintf(bdir, sizeof bdir, "%s", test_data("buildid"));
	for (size_t f = 0; f < sizeof fx / sizeof fx[0]; f++) {
		struct perf_err err;
		struct session *s = session_open(test_data(fx[f]), NULL, &err);
		struct sym_opts so = { .buildid_dir = bdir, .kallsyms = "/dev/null" };
		size_t n;

		cr_assert_not_null(s, "%s: %s", fx[f], err.msg);
		n = session_index(s)->n;
		for (size_t c = 0; c < sizeof cfg / sizeof cfg[0]; c++) {
			const size_t mids[] = { 0, 1, n / 3, n / 2, n - n / 4, n > 0 ? n - 1 : 0, n };
			struct hist_opts o;
			const char *bad;
			size_t badlen;
			int nk;

			memset(&o, 0, sizeof o);
			nk = hist_parse_keys(cfg[c].keys, o.keys, &bad, &badlen);
			cr_assert_gt(nk, 0);
			o.nkeys = (unsigned)nk;
			o.event = -1;
			o.children = cfg[c].children;
			o.max_stack = HIST_DEFAULT_MAX_STACK;
			if (strcmp(fx[f], "dwarf.data") == 0 && strcmp(cfg[c].keys, "sym") == 0 &&
			    cfg[c].children) {
				/* perf's entry tree (user stacks, inlined frames): its
				 * entries depend on the order of every sample, so hists
				 * of two parts do not merge. */
				struct symbolizer *za = symbolizer_new(s, &so), *zb = symbolizer_new(s, &so);
				struct hist *a = hist_new(s, za, &o), *b = hist_new(s, zb, &o);

				hist_add_range(a, 0, n / 2, NULL);
				hist_add_range(b, n / 2, n, NULL);
				cr_assert_eq(hist_merge(a, b), -1, "dwarf.data: sym children merged");
				hist_free(a);
				hist_free(b);
				symbolizer_free(za);
				symbolizer_free(zb);
				continue;
			}
			for (size_t m = 0; m < sizeof mids / sizeof mids[0]; m++) {
				struct symbolizer *za, *zb;
				struct hist *a = split_hist(s, &so, &o, SIZE_MAX, &za);
				struct hist *b = split_hist(s, &so, &o, mids[m], &zb);
				char what[160];

				snprintf(what, sizeof what, "%s, %s%s, split at %zu of %zu", fx[f],
				    cfg[c].keys, cfg[c].children ? " (children)" : "", mids[m], n);
				assert_same_hists(a, b, &o, what);
				for (size_t ev = 0; ev < hist_nevents(a); ev++) {
					const uint32_t *ra, *rb;
					uint32_t *copy;
					size_t na = hist_rows(a, ev, 0, &ra);

					cr_assert_eq(hist_event(a, ev)->comm_width,
					    hist_event(b, ev)->comm_width, "%s: comm width", what);
					cr_assert_str_eq(hist_str(a, hist_event(a, ev)->name),
					    hist_str(b, hist_event(b, ev)->name), "%s: event name", what);
					copy = calloc(na + 1, sizeof *copy);
					if (na > 0)
						memcpy(copy, ra, na * sizeof *ra);
					cr_assert_eq(hist_rows(b, ev, 0, &rb), na);
					for (size_t i = 0; i < na; i++) {
						const struct hist_entry *x = hist_entry_get(a, copy[i]);
						const struct hist_entry *y = hist_entry_get(b, rb[i]);

						cr_assert_str_eq(hist_str(a, x->label_comm),
						    hist_str(b, y->label_comm), "%s: row %zu", what, i);
						cr_assert_eq(x->label_tid, y->label_tid, "%s: row %zu", what, i);
					}
					free(copy);
				}
				hist_free(a);
				hist_free(b);
				symbolizer_free(za);
				symbolizer_free(zb);
			}
		}
		session_close(s);
	}
}

/* What does not merge is refused, and leaves the hist as it was. */
Test(hist, merge_refuses_what_does_not_merge)
{
	struct hist *a = hh_new("comm,dso,sym", true, true), *b = hh_new("comm,dso,sym", true, true);
	struct hist *c = hh_new("comm,sym", true, false), *d = hh_new("comm,dso,sym", true, false);
	struct frame f[2] = { hh_frame(1, 2, 0x1100), hh_frame(1, 3, 0x1200) };

	hh_add(b, 0, "x", 1, 10, f, 2);
	cr_assert_eq(hist_merge(a, b), -1, "call graphs do not merge");
	cr_assert_eq(hist_merge(c, d), -1, "other keys");
	hh_add(d, 0, "x", 1, 10, f, 2);
	cr_assert_eq(hist_merge(d, d), -1, "itself");
	hist_finish(c);
	hist_free(a);
	hist_free(b);
	hist_free(c);
	hist_free(d);
}

/* A memory-mode hist of mem-obj.data (tests/mk-brmem.py), the session split at mid (0: one
 * pass, split_hist's SIZE_MAX); *z its symbolizer, the caller's to free. */
static struct hist *
mem_obj_hist(struct session *s, const char *keys, size_t mid, struct symbolizer **z)
{
	char bdir[4096];
	char kall[4096];
	struct sym_opts so = { .buildid_dir = bdir, .kallsyms = kall };
	struct hist_opts o;
	const char *bad;
	size_t badlen;
	int nk;

	snprintf(bdir, sizeof bdir, "%s", test_data("buildid"));
	snprintf(kall, sizeof kall, "%s", test_data("mem-obj.kallsyms"));
	memset(&o, 0, sizeof o);
	nk = hist_parse_keys(keys, o.keys, &bad, &badlen);
	cr_assert_gt(nk, 0);
	o.nkeys = (unsigned)nk;
	o.event = -1;
	o.mem_mode = true;
	return split_hist(s, &so, &o, mid == 0 ? SIZE_MAX : mid, z);
}

static void
mem_obj_free(struct hist *h, struct symbolizer *z)
{
	hist_free(h);
	symbolizer_free(z);
}

/* The row whose text of key k is want, or NULL. */
static const struct hist_entry *
mem_row(struct hist *h, enum hist_key k, const char *want)
{
	const uint32_t *rows;
	size_t n = hist_rows(h, 0, 0, &rows);
	char buf[256];

	for (size_t i = 0; i < n; i++) {
		const struct hist_entry *e = hist_entry_get(h, rows[i]);

		if (strcmp(hist_key_text(h, e, k, buf, sizeof buf), want) == 0)
			return e;
	}
	return NULL;
}

/*
 * perf 6.1's memory keys: local_weight and weight one key (weight shown
 * summed), the instruction latency alike (keys in any mode), the
 * p_stage_cyc keys left out;
 * dcacheline's rows by (cpumode, map ids, anonymous memory's process, line
 * in the map), named by their first sample's data object with perf's
 * offset; the same rows when two parts of the session merge.
 */
Test(hist, mem_keys_of_data_objects)
{
	struct perf_err err;
	struct session *s = session_open(test_data("mem-obj.data"), NULL, &err);
	enum hist_key k[HIST_MAX_KEYS];
	const char *bad;
	size_t badlen;
	char buf[256];

	cr_assert_not_null(s, "%s", err.msg);
	cr_assert_eq(hist_parse_keys("p_stage_cyc,weight,local_p_stage_cyc,dcacheline", k, &bad,
	    &badlen), 2);
	cr_assert_eq(k[0], HIST_KEY_WEIGHT);
	cr_assert_eq(k[1], HIST_KEY_DCACHELINE);
	/* as perf: phys_daddr and dcacheline need --mem-mode, the weights not */
	cr_assert(hist_key_mem(HIST_KEY_PHYS_DADDR) && hist_key_mem(HIST_KEY_DCACHELINE));
	cr_assert(!hist_key_mem(HIST_KEY_LOCAL_WEIGHT) && !hist_key_mem(HIST_KEY_INS_LAT));
	for (size_t mid = 0; mid < session_index(s)->n; mid += 7) {
		struct symbolizer *z;
		struct hist *h = mem_obj_hist(s, "local_weight,weight,local_ins_lat,ins_lat,dso_daddr",
		    mid, &z);
		const struct hist_entry *e = mem_row(h, HIST_KEY_LOCAL_WEIGHT, "10");

		/* buf+0x0 twice (weight 10, latency 3) and buf+0x8 of pid 43 alike */
		cr_assert_not_null(e);
		cr_assert_eq(e->samples, 3);
		cr_assert_str_eq(hist_key_text(h, e, HIST_KEY_WEIGHT, buf, sizeof buf), "30");
		cr_assert_str_eq(hist_key_text(h, e, HIST_KEY_LOCAL_INS_LAT, buf, sizeof buf), "3");
		cr_assert_str_eq(hist_key_text(h, e, HIST_KEY_INS_LAT, buf, sizeof buf), "9");
		mem_obj_free(h, z);
		h = mem_obj_hist(s, "dcacheline", mid, &z);
		/* buf's first line, from two processes (one file: one inode), named by pid 42's
		 * first sample: its line 0x3040 in the map less buf's runtime address */
		e = mem_row(h, HIST_KEY_DCACHELINE, "[.] buf+0xffffaaaaaaaab000");
		cr_assert_not_null(e, "split at %zu", mid);
		cr_assert_eq(e->samples, 3);
		cr_assert_eq(e->period, 40);
		/* completed.0 and __dso_handle share a line: the first sample's name (perf's choice
		 * of the symbols at 0x4020 is __TMC_END__) */
		e = mem_row(h, HIST_KEY_DCACHELINE, "[.] __TMC_END__+0xffffaaaaaaaaafe0");
		cr_assert_not_null(e);
		cr_assert_eq(e->samples, 2);
		/* anonymous memory: by process (pid 43's address is unmapped there: [X]) */
		cr_assert_eq(mem_row(h, HIST_KEY_DCACHELINE, "[.] 0x000055555555a000")->samples, 2);
		cr_assert_eq(mem_row(h, HIST_KEY_DCACHELINE, "[X] 0x000055555555a000")->samples, 1);
		cr_assert_not_null(mem_row(h, HIST_KEY_DCACHELINE, "[.] main"));
		/* the kernel's map is the identity: offsets in the line */
		cr_assert_not_null(mem_row(h, HIST_KEY_DCACHELINE, "[k] memobj_kbuf+0x0"));
		mem_obj_free(h, z);
		h = mem_obj_hist(s, "symbol_daddr", mid, &z);
		cr_assert_not_null(mem_row(h, HIST_KEY_SYM_DADDR, "[.] buf+0xc0"));
		cr_assert_not_null(mem_row(h, HIST_KEY_SYM_DADDR, "[k] jiffies+0x8"));
		cr_assert_not_null(mem_row(h, HIST_KEY_SYM_DADDR, "[.] __dso_handle+0x0"));
		mem_obj_free(h, z);
	}
	session_close(s);
}
