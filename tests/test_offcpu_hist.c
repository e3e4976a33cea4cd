/*
 * Criterion tests of off-CPU time beside the samples in one hist
 * (hist_opts.offcpu_beside, the browser's): the off-CPU event's rows are
 * those of a hist of the spans alone (perfnav top --off-cpu's), the
 * recorded events' those of a hist without them; a recount for a time
 * range or a thread gives what a fresh hist of that scope gives; a pass
 * split in two and merged gives one pass's.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/cpath.h"
#include "symbolize/filter.h"
#include "symbolize/hist.h"
#include "symbolize/offcpu.h"
#include "symbolize/symbolizer.h"
#include "tests/helpers.h"

/* The browser's options (tui/symbols.c), with the model o beside or alone (beside false). */
static void
opts(struct hist_opts *ho, const struct offcpu *o, bool beside, const struct hist_filter *f)
{
	memset(ho, 0, sizeof *ho);
	ho->keys[0] = HIST_KEY_COMM;
	ho->keys[1] = HIST_KEY_TID;
	ho->keys[2] = HIST_KEY_DSO;
	ho->keys[3] = HIST_KEY_SYM;
	ho->nkeys = 4;
	ho->children = ho->chain_root_first = true;
	ho->paths = ho->record_self = true;
	ho->event = -1;
	ho->max_stack = HIST_DEFAULT_MAX_STACK;
	ho->offcpu = o;
	ho->offcpu_beside = beside && o != NULL;
	ho->filter = f;
}

static struct hist *
one_pass(struct session *s, struct symbolizer *z, const struct offcpu *o, bool beside,
    const struct hist_filter *f)
{
	struct hist_opts ho;
	struct hist *h;

	opts(&ho, o, beside, f);
	h = hist_new(s, z, &ho);
	hist_add_session(h, NULL);
	hist_finish(h);
	return h;
}

/* The event of h named name, or SIZE_MAX. */
static size_t
event_named(const struct hist *h, const char *name)
{
	for (size_t i = 0; i < hist_nevents(h); i++)
		if (strcmp(hist_str(h, hist_event(h, i)->name), name) == 0)
			return i;
	return SIZE_MAX;
}

/* Event a of ha and event b of hb: the same totals and, by comm, tid and symbol, the same rows. */
static void
same_event(struct hist *ha, size_t a, struct hist *hb, size_t b, const char *what)
{
	const unsigned keep = HIST_KEEP(HIST_KEY_COMM) | HIST_KEEP(HIST_KEY_TID) | HIST_KEEP(HIST_KEY_DSO) |
	    HIST_KEEP(HIST_KEY_SYM);
	const struct hist_entry *const *ra, *const *rb;
	struct hist_entry *want;
	size_t na, nb;
	char x[512], y[512], cx[256], cy[256], dx[512], dy[512];

	cr_assert(a != SIZE_MAX && b != SIZE_MAX, "%s: the event in both", what);
	cr_assert_eq(hist_event(ha, a)->total_period, hist_event(hb, b)->total_period,
	    "%s: total %" PRIu64 " and %" PRIu64, what, hist_event(ha, a)->total_period,
	    hist_event(hb, b)->total_period);
	cr_assert_eq(hist_event(ha, a)->nsamples, hist_event(hb, b)->nsamples, "%s: samples", what);
	na = hist_rows_merged(ha, a, NULL, keep, 0, &ra);
	want = malloc((na + 1) * sizeof *want);
	for (size_t i = 0; i < na; i++)
		want[i] = *ra[i];
	nb = hist_rows_merged(hb, b, NULL, keep, 0, &rb);
	cr_assert_eq(na, nb, "%s: %zu rows and %zu", what, na, nb);
	for (size_t i = 0; i < na; i++) {
		size_t j = 0;

		hist_key_text(ha, &want[i], HIST_KEY_SYM, x, sizeof x);
		hist_key_text(ha, &want[i], HIST_KEY_COMM, cx, sizeof cx);
		hist_key_text(ha, &want[i], HIST_KEY_DSO, dx, sizeof dx);
		while (j < nb && !(want[i].tid == rb[j]->tid &&
		    strcmp(x, hist_key_text(hb, rb[j], HIST_KEY_SYM, y, sizeof y)) == 0 &&
		    strcmp(cx, hist_key_text(hb, rb[j], HIST_KEY_COMM, cy, sizeof cy)) == 0 &&
		    strcmp(dx, hist_key_text(hb, rb[j], HIST_KEY_DSO, dy, sizeof dy)) == 0))
			j++;
		cr_assert_lt(j, nb, "%s: row %s of %d", what, x, (int)want[i].tid);
		cr_assert_eq(want[i].period, rb[j]->period, "%s: %s self", what, x);
		cr_assert_eq(want[i].acc_period, rb[j]->acc_period, "%s: %s children", what, x);
	}
	free(want);
}

struct fx {
	struct session	*s;
	struct symbolizer *z;
	struct offcpu	 o;
	char		 bdir[4096];
};

static void
fx_open(struct fx *x, const char *name)
{
	struct sym_opts so = { .kallsyms = "/dev/null" };

	x->s = open_fixture(name);
	snprintf(x->bdir, sizeof x->bdir, "%s", test_data("buildid"));
	so.buildid_dir = x->bdir;
	x->z = symbolizer_new(x->s, &so);
	cr_assert_eq(offcpu_build(x->s, &x->o), OFFCPU_OK);
	cr_assert_gt(x->o.n, 50);
}

static void
fx_close(struct fx *x)
{
	offcpu_free(&x->o);
	symbolizer_free(x->z);
	session_close(x->s);
}

/* The recorded event name of fixture name's other samples. */
static void
beside_is_alone_and_without(const char *name, const char *other)
{
	struct fx x;
	struct hist *beside, *alone, *without;

	fx_open(&x, name);
	beside = one_pass(x.s, x.z, &x.o, true, NULL);
	alone = one_pass(x.s, x.z, &x.o, false, NULL);
	without = one_pass(x.s, x.z, NULL, false, NULL);
	cr_assert_eq(hist_nevents(beside), hist_nevents(without) + 1, "one event more");
	cr_assert_eq(hist_event(beside, event_named(beside, OFFCPU_EVENT_NAME))->total_period, x.o.total_ns);
	same_event(alone, 0, beside, event_named(beside, OFFCPU_EVENT_NAME), "off-cpu");
	same_event(without, event_named(without, other), beside, event_named(beside, other), other);
	hist_free(beside);
	hist_free(alone);
	hist_free(without);
	fx_close(&x);
}

Test(offcpu_hist, beside_is_alone_and_without)
{
	beside_is_alone_and_without("offcpu.data", "sched:sched_switch");
	/* --switch-events alone: spans charged to each thread's last sample, several to one */
	beside_is_alone_and_without("offcpu-sw.data", "cpu-clock");
}

/* A recount for a time range and for a thread gives the fresh hist's numbers. */
static void
recount_is_a_fresh_hist(const char *name, const char *other)
{
	struct fx x;
	struct hist *beside, *fresh;
	const struct rec_index *ix;
	struct filter_range tr;
	struct hist_filter f;
	int32_t tid;

	fx_open(&x, name);
	ix = session_index(x.s);
	beside = one_pass(x.s, x.z, &x.o, true, NULL);
	memset(&f, 0, sizeof f);
	tr.start = index_ent(ix, ix->n / 3)->time;
	tr.end = index_ent(ix, ix->n * 2 / 3)->time;
	f.time = &tr;
	f.ntime = 1;
	cr_assert_eq(hist_rescope(beside, &f), 0, "recounted");
	fresh = one_pass(x.s, x.z, &x.o, true, &f);
	cr_assert_lt(hist_event(fresh, event_named(fresh, OFFCPU_EVENT_NAME))->total_period, x.o.total_ns,
	    "the range holds less");
	same_event(fresh, event_named(fresh, OFFCPU_EVENT_NAME), beside,
	    event_named(beside, OFFCPU_EVENT_NAME), "time: off-cpu");
	same_event(fresh, event_named(fresh, other), beside, event_named(beside, other), other);
	hist_free(fresh);

	memset(&f, 0, sizeof f);
	tid = x.o.v[x.o.n / 2].tid;
	f.tids = &tid;
	f.ntids = 1;
	cr_assert_eq(hist_rescope(beside, &f), 0, "recounted");
	fresh = one_pass(x.s, x.z, &x.o, true, &f);
	same_event(fresh, event_named(fresh, OFFCPU_EVENT_NAME), beside,
	    event_named(beside, OFFCPU_EVENT_NAME), "tid: off-cpu");
	hist_free(fresh);
	hist_free(beside);
	fx_close(&x);
}

Test(offcpu_hist, recount_is_a_fresh_hist)
{
	recount_is_a_fresh_hist("offcpu.data", "sched:sched_switch");
	recount_is_a_fresh_hist("offcpu-sw.data", "cpu-clock");
}

/* Two parts merged (the browser's two workers) are one pass, recounts included. */
static void
split_and_merged_is_one_pass(const char *name)
{
	struct fx x;
	struct hist_opts ho;
	struct hist *one, *a, *b;
	struct symbolizer *zb;
	struct sym_opts so = { .kallsyms = "/dev/null" };
	struct filter_range tr;
	struct hist_filter f;
	const struct rec_index *ix;
	size_t mid;

	fx_open(&x, name);
	ix = session_index(x.s);
	so.buildid_dir = x.bdir;
	zb = symbolizer_new(x.s, &so);
	one = one_pass(x.s, x.z, &x.o, true, NULL);
	opts(&ho, &x.o, true, NULL);
	cr_assert(hist_split_point(x.s, &ho, &mid));
	a = hist_new(x.s, x.z, &ho);
	b = hist_new(x.s, zb, &ho);
	hist_share_positions(a, b);
	hist_add_range(a, 0, mid, NULL);
	hist_add_range(b, mid, ix->n, NULL);
	cr_assert_eq(hist_merge(a, b), 0);
	hist_finish(a);
	same_event(one, event_named(one, OFFCPU_EVENT_NAME), a, event_named(a, OFFCPU_EVENT_NAME), "merged");
	memset(&f, 0, sizeof f);
	tr.start = index_ent(ix, ix->n / 4)->time;
	tr.end = index_ent(ix, ix->n * 3 / 4)->time;
	f.time = &tr;
	f.ntime = 1;
	cr_assert_eq(hist_rescope(a, &f), 0);
	cr_assert_eq(hist_rescope(one, &f), 0);
	same_event(one, event_named(one, OFFCPU_EVENT_NAME), a, event_named(a, OFFCPU_EVENT_NAME),
	    "merged, recounted");
	hist_free(b);
	hist_free(a);
	hist_free(one);
	symbolizer_free(zb);
	fx_close(&x);
}

Test(offcpu_hist, split_and_merged_is_one_pass)
{
	split_and_merged_is_one_pass("offcpu.data");
	split_and_merged_is_one_pass("offcpu-sw.data");
}

/*
 * The wall view's tree (cpath_query.with_ev2): the on-CPU event's and the
 * off-CPU event's paths in one tree, each node's off-CPU part that of the
 * same path in the off-CPU event's own tree.
 */
Test(offcpu_hist, wall_tree_holds_both_events)
{
	struct fx x;
	struct hist *h;
	size_t on, off;
	struct cpath_query q = { .entry = CPATH_NONE }, qo = { .entry = CPATH_NONE };
	struct cpath *t, *to;
	uint32_t funcs[256];
	size_t checked = 0;

	fx_open(&x, "offcpu-sw.data");
	h = one_pass(x.s, x.z, &x.o, true, NULL);
	on = event_named(h, "cpu-clock");
	off = event_named(h, OFFCPU_EVENT_NAME);
	cr_assert(on != SIZE_MAX && off != SIZE_MAX);
	q.ev = on;
	q.with_ev2 = true;
	q.ev2 = off;
	qo.ev = off;
	t = cpath_build(h, &q);
	to = cpath_build(h, &qo);
	cr_assert_eq(cpath_node(t, 0)->total_period,
	    hist_event(h, on)->total_period + hist_event(h, off)->total_period, "both events' time");
	cr_assert_eq(cpath_node_part(t, 0), hist_event(h, off)->total_period, "the off-CPU part");
	for (uint32_t i = 1; i < cpath_count(t); i++) {
		size_t d = cpath_path(t, i, funcs, 256);
		uint32_t j = d <= 256 ? cpath_find(to, funcs, d) : CPATH_NONE;
		uint64_t want = j == CPATH_NONE ? 0 : cpath_node(to, j)->total_period;

		cr_assert_leq(cpath_node_part(t, i), cpath_node(t, i)->total_period);
		cr_assert_eq(cpath_node_part(t, i), want, "node %u: off part %llu, the off-CPU tree %llu", i,
		    (unsigned long long)cpath_node_part(t, i), (unsigned long long)want);
		checked += want > 0;
	}
	cr_assert_gt(checked, 10);
	cr_assert_eq(cpath_node_part(to, 0), 0, "no part without with_ev2");
	cpath_free(t);
	cpath_free(to);
	hist_free(h);
	fx_close(&x);
}
