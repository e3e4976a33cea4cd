/* Criterion tests of symbolize/cpath.c: the stored call paths and the trees built from them. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/cpath.h"
#include "symbolize/hist.h"
#include "symbolize/symbolizer.h"
#include "tests/helpers.h"
#include "tests/hist_helpers.h"

static int
strcmp_ptr(const char *const *a, const char *const *b)
{
	return strcmp(*a, *b);
}

/* Functions of the byte-built samples: symbol ids of DSO 0. */
enum { A = 1, B, C, D, R };

static struct hist *
paths_hist(bool children)
{
	struct hist_opts o;
	struct hist *h;

	memset(&o, 0, sizeof o);
	o.event = -1;
	o.children = children;
	o.paths = true;
	o.keys[0] = HIST_KEY_SYM;
	o.nkeys = 1;
	h = hist_new(NULL, NULL, &o);
	return h;
}

/* A sample whose path is syms (root first), n frames. */
static void
add_path(struct hist *h, const char *comm, int32_t tid, uint64_t period, const uint32_t *syms,
    size_t n)
{
	struct frame f[16];

	for (size_t i = 0; i < n; i++)
		f[i] = hh_frame(0, syms[n - 1 - i], 0x1000 * syms[n - 1 - i] + i);
	hh_add(h, 0, comm, tid, period, f, n);
}

/* The function node of symbol sym. */
static uint32_t
func_of(const struct hist *h, uint32_t sym)
{
	for (size_t i = 0; i < hist_nnodes(h); i++)
		if (hist_node_get(h, (uint32_t)i)->f.sym == sym)
			return (uint32_t)i;
	cr_assert_fail("no node for symbol %u", sym);
	return CPATH_NONE;
}

/* The node reached by symbols syms[0..n) from the root, or CPATH_NONE. */
static const struct cpath_node *
at(const struct hist *h, const struct cpath *t, const uint32_t *syms, size_t n)
{
	uint32_t funcs[16];
	uint32_t id;

	for (size_t i = 0; i < n; i++)
		funcs[i] = func_of(h, syms[i]);
	id = cpath_find(t, funcs, n);
	return id == CPATH_NONE ? NULL : cpath_node(t, id);
}

/* Every node: total = self + children's totals, no child above its parent. */
static void
check_sums(const struct cpath *t)
{
	for (size_t i = 0; i < cpath_count(t); i++) {
		const struct cpath_node *n = cpath_node(t, (uint32_t)i);
		uint64_t p = n->self_period, s = n->self_samples;

		for (uint32_t c = n->first_child; c != CPATH_NONE; c = cpath_node(t, c)->next_sibling) {
			const struct cpath_node *cn = cpath_node(t, c);

			cr_assert_leq(cn->total_period, n->total_period);
			cr_assert_eq(cn->parent, (uint32_t)i);
			cr_assert_eq(cn->depth, n->depth + 1);
			p += cn->total_period;
			s += cn->total_samples;
		}
		cr_assert_eq(p, n->total_period, "node %zu: self + children", i);
		cr_assert_eq(s, n->total_samples, "node %zu: self + children (samples)", i);
	}
}

static struct cpath *
build(struct hist *h, bool bottom_up, const struct cpath_xform *xf, size_t nxf)
{
	struct cpath_query q = { .ev = 0, .entry = CPATH_NONE, .xf = xf, .nxf = nxf,
		.bottom_up = bottom_up };
	struct cpath *t = cpath_build(h, &q);

	check_sums(t);
	return t;
}

/* A>B>C 10, A>B 5, A>D 3, A>R>R>R 2 (periods; one sample each). */
static struct hist *
sample_hist(bool children)
{
	struct hist *h = paths_hist(children);
	const uint32_t p1[] = { A, B, C }, p2[] = { A, B }, p3[] = { A, D }, p4[] = { A, R, R, R };

	add_path(h, "w", 1, 10, p1, 3);
	add_path(h, "w", 1, 5, p2, 2);
	add_path(h, "w", 1, 3, p3, 2);
	add_path(h, "w", 1, 2, p4, 4);
	hist_finish(h);
	return h;
}

Test(cpath, top_down_and_bottom_up)
{
	struct hist *h = sample_hist(false);
	struct cpath *td = build(h, false, NULL, 0), *bu = build(h, true, NULL, 0);
	const uint32_t ab[] = { A, B }, abc[] = { A, B, C }, arrr[] = { A, R, R, R };
	const uint32_t cba[] = { C, B, A }, b[] = { B }, rr[] = { R, R };

	cr_assert_eq(cpath_node(td, 0)->total_period, 20);
	cr_assert_eq(at(h, td, ab, 1)->total_period, 20);
	cr_assert_eq(at(h, td, ab, 2)->total_period, 15);
	cr_assert_eq(at(h, td, ab, 2)->self_period, 5);
	cr_assert_eq(at(h, td, abc, 3)->total_period, 10);
	cr_assert_eq(at(h, td, arrr, 4)->self_period, 2, "recursion kept as recorded");
	/* Children sorted by total period: B (15), D (3), R (2). */
	cr_assert_eq(cpath_node(td, cpath_node(td, 1)->first_child)->func, func_of(h, B));
	/* Bottom-up: the roots are where samples were taken. */
	cr_assert_eq(at(h, bu, cba, 1)->total_period, 10);
	cr_assert_eq(at(h, bu, cba, 3)->total_period, 10);
	cr_assert_eq(at(h, bu, b, 1)->total_period, 5);
	cr_assert_eq(at(h, bu, rr, 2)->total_period, 2);
	cr_assert_eq(cpath_node(bu, 0)->total_period, 20);
	cr_assert(cpath_bottom_up(bu));
	cpath_free(td);
	cpath_free(bu);
	hist_free(h);
}

/* The Self a view shows: bottom-up, the root level's samples taken there; callers none. */
static uint64_t
view_self(const struct hist *h, const struct cpath *t, const uint32_t *syms, size_t n, bool *has)
{
	uint32_t funcs[16];
	uint64_t period, samples;

	for (size_t i = 0; i < n; i++)
		funcs[i] = func_of(h, syms[i]);
	*has = cpath_view_self(t, cpath_find(t, funcs, n), &period, &samples);
	return period;
}

Test(cpath, view_self_of_either_tree)
{
	struct hist *h = sample_hist(false);
	struct cpath *td = build(h, false, NULL, 0), *bu = build(h, true, NULL, 0);
	const uint32_t ab[] = { A, B }, cba[] = { C, B, A }, ba[] = { B, A }, rrra[] = { R, R, R, A };
	bool has;

	/* top-down: the paths that end at the node */
	cr_assert_eq(view_self(h, td, ab, 2, &has), 5);
	cr_assert(has);
	cr_assert_eq(view_self(h, td, ab, 1, &has), 0);
	cr_assert(has);
	/* bottom-up roots: every sample taken in the function (B: 5, R: 2 once, not per level) */
	cr_assert_eq(view_self(h, bu, cba, 1, &has), 10);
	cr_assert(has);
	cr_assert_eq(view_self(h, bu, ba, 1, &has), 5);
	cr_assert_eq(view_self(h, bu, rrra, 1, &has), 2);
	/* callers: none, even the outermost, where perf's callee graph keeps its hits */
	cr_assert_eq(at(h, bu, cba, 3)->self_period, 10);
	cr_assert_eq(view_self(h, bu, cba, 3, &has), 0);
	cr_assert(!has);
	cr_assert_eq(view_self(h, bu, rrra, 2, &has), 0);
	cr_assert(!has);
	cpath_free(td);
	cpath_free(bu);
	hist_free(h);
}

Test(cpath, transforms)
{
	struct hist *h = sample_hist(false);
	struct cpath_xform focus = { CPATH_FOCUS, func_of(h, B) }, drop = { CPATH_DROP, func_of(h, B) };
	struct cpath_xform merge = { CPATH_MERGE, func_of(h, B) }, norec = { CPATH_NORECURSE, 0 };
	struct cpath_xform callers = { CPATH_CALLERS, func_of(h, B) };
	struct cpath *t;
	const uint32_t bc[] = { B, C }, ac[] = { A, C }, ar[] = { A, R }, ab[] = { A, B };

	t = build(h, false, &focus, 1);
	cr_assert_eq(cpath_node(t, 0)->total_period, 15, "only the paths through B");
	cr_assert_eq(at(h, t, bc, 1)->total_period, 15);
	cr_assert_eq(at(h, t, bc, 2)->total_period, 10);
	cpath_free(t);

	t = build(h, false, &drop, 1);
	cr_assert_eq(cpath_node(t, 0)->total_period, 5, "the paths through B gone");
	for (size_t i = 1; i < cpath_count(t); i++)
		cr_assert_neq(cpath_node(t, (uint32_t)i)->func, func_of(h, B));
	cpath_free(t);

	t = build(h, false, &merge, 1);
	cr_assert_eq(cpath_node(t, 0)->total_period, 20, "merging keeps every sample");
	cr_assert_eq(at(h, t, ac, 2)->total_period, 10, "B's callee goes to its caller");
	cr_assert_eq(at(h, t, ac, 1)->self_period, 5, "and B's self");
	cpath_free(t);

	t = build(h, false, &norec, 1);
	cr_assert_eq(at(h, t, ar, 2)->total_period, 2);
	cr_assert_eq(at(h, t, ar, 2)->first_child, CPATH_NONE, "R>R>R is one frame");
	cpath_free(t);

	t = build(h, true, &callers, 1);
	cr_assert_eq(cpath_node(t, 0)->total_period, 15);
	cr_assert_eq(cpath_node(t, cpath_node(t, 0)->first_child)->func, func_of(h, B),
	    "bottom-up callers of B start at B");
	cpath_free(t);

	/* Two steps in order: drop D, then focus on A. */
	{
		struct cpath_xform two[] = { { CPATH_DROP, func_of(h, D) }, { CPATH_FOCUS, func_of(h, A) } };

		t = build(h, false, two, 2);
		cr_assert_eq(cpath_node(t, 0)->total_period, 17);
		cr_assert_eq(at(h, t, ab, 2)->total_period, 15);
		cpath_free(t);
	}
	hist_free(h);
}

/* perf's call graph of one entry, with and without --children. */
Test(cpath, entry_queries)
{
	struct hist *h = sample_hist(true);
	const struct hist_entry *eb = hh_row(h, 0, HIST_KEY_SYM, "[.] s2");
	const uint32_t ab[] = { A, B }, bc[] = { B, C }, ba[] = { B, A };
	struct cpath_query q = { .ev = 0, .bottom_up = false };
	const uint32_t *rows;
	size_t nrows = hist_rows(h, 0, 0, &rows);
	uint32_t id = CPATH_NONE;
	struct cpath *t;

	cr_assert_not_null(eb);
	for (size_t i = 0; i < nrows; i++)
		if (hist_entry_get(h, rows[i]) == eb)
			id = rows[i];
	q.entry = id;
	t = cpath_build(h, &q);
	check_sums(t);
	cr_assert_eq(cpath_node(t, 0)->total_period, 5, "B's own samples only");
	cr_assert_eq(at(h, t, ab, 2)->self_period, 5);
	cpath_free(t);

	q.through = true;	/* --children: B's own paths whole, the others from B down */
	t = cpath_build(h, &q);
	check_sums(t);
	cr_assert_eq(cpath_node(t, 0)->total_period, 15);
	cr_assert_eq(at(h, t, ab, 2)->total_period, 5);
	cr_assert_eq(at(h, t, bc, 2)->total_period, 10);
	cpath_free(t);

	q.bottom_up = true;	/* callee order: from B up to the root */
	t = cpath_build(h, &q);
	check_sums(t);
	cr_assert_eq(at(h, t, ba, 2)->total_period, 15, "its own and C's samples, cut at B");
	cpath_free(t);
	hist_free(h);
}

/* A zoom: only the samples whose own entry a hist_select takes. */
Test(cpath, zoom_by_thread)
{
	struct hist_opts o;
	struct hist *h;
	const uint32_t p1[] = { A, B }, p2[] = { A, C };
	struct hist_select sel = { .by_tid = true, .tid = 2 };
	struct cpath_query q = { .ev = 0, .entry = CPATH_NONE, .sel = &sel };
	struct cpath *t;

	memset(&o, 0, sizeof o);
	o.event = -1;
	o.paths = true;
	o.keys[0] = HIST_KEY_TID;
	o.keys[1] = HIST_KEY_SYM;
	o.nkeys = 2;
	h = hist_new(NULL, NULL, &o);
	add_path(h, "w", 1, 7, p1, 2);
	add_path(h, "v", 2, 4, p2, 2);
	hist_finish(h);
	t = cpath_build(h, &q);
	check_sums(t);
	cr_assert_eq(cpath_node(t, 0)->total_period, 4);
	cr_assert_not_null(at(h, t, p2, 2));
	cr_assert_null(at(h, t, p1, 2), "thread 1's path left out");
	cpath_free(t);
	hist_free(h);
}

/* Every path with samples ending in it as "name;name;... SELF_PERIOD" lines, sorted. */
static char **
path_lines(struct hist *h, const struct cpath *t, size_t *n)
{
	char **v = calloc(cpath_count(t) + 1, sizeof *v);
	uint32_t funcs[512];
	char name[512];

	cr_assert_not_null(v);
	*n = 0;
	for (size_t i = 1; i < cpath_count(t); i++) {
		const struct cpath_node *x = cpath_node(t, (uint32_t)i);
		size_t d = cpath_path(t, (uint32_t)i, funcs, 512), len = 0, cap = 64;
		char *line = malloc(cap);

		if (x->self_samples == 0) {
			free(line);
			continue;
		}
		for (size_t k = 0; k < d && k < 512; k++) {
			size_t l = strlen(cpath_func_name(h, funcs[k], name, sizeof name));

			while (len + l + 32 > cap)
				line = realloc(line, cap *= 2);
			memcpy(line + len, name, l);
			len += l;
			line[len++] = ';';
		}
		snprintf(line + len, 32, " %llu", (unsigned long long)x->self_period);
		v[(*n)++] = line;
	}
	qsort(v, *n, sizeof *v, (int (*)(const void *, const void *))strcmp_ptr);
	return v;
}

/* The paths of a pass split in two and merged are those of one pass. */
Test(cpath, split_and_merged_equals_one_pass)
{
	const char *fx[] = { "fp.data", "fork.data", "pipe.data", "zstd.data" };
	char bdir[4096];

	snprintf(bdir, sizeof bdir, "%s", test_data("buildid"));
	for (size_t f = 0; f < sizeof fx / sizeof fx[0]; f++) {
		struct perf_err err;
		struct session *s = session_open(test_data(fx[f]), NULL, &err);
		struct sym_opts so = { .buildid_dir = bdir, .kallsyms = "/dev/null" };
		struct hist_opts o;
		struct symbolizer *za, *zb, *zc;
		struct hist *a, *b, *c;
		struct cpath_query q = { .ev = 0, .entry = CPATH_NONE };
		struct cpath *ta, *tb;
		size_t mid, na, nb;
		char **la, **lb;

		cr_assert_not_null(s, "%s: %s", fx[f], err.msg);
		memset(&o, 0, sizeof o);
		o.event = -1;
		o.children = true;
		o.paths = true;
		o.max_stack = HIST_DEFAULT_MAX_STACK;
		o.keys[0] = HIST_KEY_SYM;
		o.nkeys = 1;
		cr_assert(hist_split_point(s, &o, &mid), "%s: a split point", fx[f]);
		za = symbolizer_new(s, &so);
		a = hist_new(s, za, &o);
		hist_add_session(a, NULL);
		hist_finish(a);
		zb = symbolizer_new(s, &so);
		zc = symbolizer_new(s, &so);
		b = hist_new(s, zb, &o);
		c = hist_new(s, zc, &o);
		hist_add_range(b, 0, mid, NULL);
		hist_add_range(c, mid, session_index(s)->n, NULL);
		cr_assert_eq(hist_merge(b, c), 0, "%s: merged", fx[f]);
		hist_finish(b);
		ta = cpath_build(a, &q);
		tb = cpath_build(b, &q);
		check_sums(ta);
		check_sums(tb);
		cr_assert_eq(cpath_count(ta), cpath_count(tb), "%s: nodes", fx[f]);
		cr_assert_gt(cpath_count(ta), 3, "%s: paths were kept", fx[f]);
		cr_assert_eq(cpath_node(ta, 0)->total_period, cpath_node(tb, 0)->total_period);
		la = path_lines(a, ta, &na);
		lb = path_lines(b, tb, &nb);
		cr_assert_eq(na, nb, "%s: paths", fx[f]);
		for (size_t i = 0; i < na; i++) {
			cr_assert_str_eq(la[i], lb[i], "%s: path %zu", fx[f], i);
			free(la[i]);
			free(lb[i]);
		}
		free(la);
		free(lb);
		cpath_free(ta);
		cpath_free(tb);
		hist_free(a);
		hist_free(b);
		hist_free(c);
		symbolizer_free(za);
		symbolizer_free(zb);
		symbolizer_free(zc);
		session_close(s);
	}
}

/* The functions of node id's children, in their order; returns how many (at most max). */
static size_t
child_funcs(const struct cpath *t, uint32_t id, uint32_t *funcs, size_t max)
{
	size_t n = 0;

	for (uint32_t c = cpath_node(t, id)->first_child; c != CPATH_NONE && n < max;
	    c = cpath_node(t, c)->next_sibling)
		funcs[n++] = cpath_node(t, c)->func;
	return n;
}

/*
 * Siblings of equal total period come as perf 6.1 leaves them (its
 * match_chain key, descending): a frame with a symbol by (DSO, symbol
 * start), one without by (DSO, address as recorded), no DSO lowest; a
 * greater total still first.
 */
Test(cpath, equal_siblings_in_perfs_key_order)
{
	struct hist *h = paths_hist(false);
	/* main (DSO 0) calls, made in this order: z (DSO 0 at 0x200), x (DSO 1 at 0x100),
	 * an address of no DSO, y (DSO 0 at 0x900), w (DSO 0 at 0x50, more period) */
	struct frame m = hh_frame(0, 1, 0x10010);
	struct frame callee[] = { hh_frame(0, 2, 0x1200), hh_frame(1, 3, 0x1100),
		hh_frame(DSO_NONE, SYM_NONE, 0x7000), hh_frame(0, 4, 0x1900), hh_frame(0, 5, 0x1050) };
	const uint64_t period[] = { 5, 5, 5, 5, 7 };
	struct cpath *td, *bu;
	uint32_t got[8], want[5], root;

	for (size_t i = 0; i < 5; i++) {
		struct frame chain[2] = { callee[i], m };

		hh_add(h, 0, "w", 1, period[i], chain, 2);
	}
	hist_finish(h);
	for (size_t i = 0; i < hist_nnodes(h); i++) {
		const struct hist_node *nd = hist_node_get(h, (uint32_t)i);

		for (size_t k = 0; k < 5; k++)
			if (nd->f.sym == callee[k].sym && nd->f.ip == callee[k].ip)
				want[k] = (uint32_t)i;
	}
	td = build(h, false, NULL, 0);
	root = cpath_node(td, 0)->first_child;
	cr_assert_eq(child_funcs(td, root, got, 8), 5);
	/* w (7), then x (DSO 1), y (0x900), z (0x200), the address without a DSO */
	cr_assert_eq(got[0], want[4]);
	cr_assert_eq(got[1], want[1]);
	cr_assert_eq(got[2], want[3]);
	cr_assert_eq(got[3], want[0]);
	cr_assert_eq(got[4], want[2]);
	/* Bottom-up: the roots, by the same key */
	bu = build(h, true, NULL, 0);
	cr_assert_eq(child_funcs(bu, 0, got, 8), 5);
	cr_assert_eq(got[0], want[4]);
	cr_assert_eq(got[1], want[1]);
	cr_assert_eq(got[2], want[3]);
	cr_assert_eq(got[3], want[0]);
	cr_assert_eq(got[4], want[2]);
	cpath_free(td);
	cpath_free(bu);
	hist_free(h);
}

/* The row of function sym among n rows, or NULL. */
static const struct hist_entry *
row_for(const struct hist *h, const struct hist_entry *const *rows, size_t n, uint32_t sym)
{
	for (size_t i = 0; i < n; i++)
		if (hist_node_get(h, rows[i]->node)->f.sym == sym)
			return rows[i];
	return NULL;
}

/* Expect sym's row with children acc and self self (periods), or none when acc is 0. */
static void
expect_row(const struct hist *h, const struct hist_entry *const *rows, size_t n, uint32_t sym,
    uint64_t acc, uint64_t self, const char *what)
{
	const struct hist_entry *e = row_for(h, rows, n, sym);

	if (acc == 0) {
		cr_assert_null(e, "%s: no row of %u", what, sym);
		return;
	}
	cr_assert_not_null(e, "%s: a row of %u", what, sym);
	cr_assert_eq(e->acc_period, acc, "%s: %u's children %llu", what, sym,
	    (unsigned long long)e->acc_period);
	cr_assert_eq(e->period, self, "%s: %u's self %llu", what, sym, (unsigned long long)e->period);
}

/* The hot functions' table after transforms, worked out by hand from sample_hist's paths. */
Test(cpath, rows_after_transforms)
{
	struct hist *h = sample_hist(true);
	struct cpath_xform merge = { CPATH_MERGE, func_of(h, B) }, drop = { CPATH_DROP, func_of(h, B) };
	struct cpath_xform focus = { CPATH_FOCUS, func_of(h, B) };
	const struct hist_entry *const *rows;
	struct cpath *t;
	size_t n;

	/* None: A>B>C 10, A>B 5, A>D 3, A>R>R>R 2 as the hist counts them (R once per path). */
	t = build(h, false, NULL, 0);
	n = cpath_rows_merged(h, t, 0, HIST_KEEP(HIST_KEY_SYM), 0, &rows);
	cr_assert_eq(n, 5);
	expect_row(h, rows, n, A, 20, 0, "none");
	expect_row(h, rows, n, B, 15, 5, "none");
	expect_row(h, rows, n, C, 10, 10, "none");
	expect_row(h, rows, n, D, 3, 3, "none");
	expect_row(h, rows, n, R, 2, 2, "none");
	cr_assert_eq(hist_node_get(h, rows[0]->node)->f.sym, A, "sorted by children");
	cpath_free(t);

	/* Merge B: A>C 10, A 5, A>D 3, A>R>R>R 2. */
	t = build(h, false, &merge, 1);
	n = cpath_rows_merged(h, t, 0, HIST_KEEP(HIST_KEY_SYM), 0, &rows);
	expect_row(h, rows, n, A, 20, 5, "merge");
	expect_row(h, rows, n, B, 0, 0, "merge");
	expect_row(h, rows, n, C, 10, 10, "merge");
	cpath_free(t);

	/* Drop B: A>D 3, A>R>R>R 2. */
	t = build(h, false, &drop, 1);
	n = cpath_rows_merged(h, t, 0, HIST_KEEP(HIST_KEY_SYM), 0, &rows);
	cr_assert_eq(n, 3);
	expect_row(h, rows, n, A, 5, 0, "drop");
	expect_row(h, rows, n, C, 0, 0, "drop");
	expect_row(h, rows, n, D, 3, 3, "drop");
	cpath_free(t);

	/* Focus B: B>C 10, B 5. */
	t = build(h, false, &focus, 1);
	n = cpath_rows_merged(h, t, 0, HIST_KEEP(HIST_KEY_SYM), 0, &rows);
	cr_assert_eq(n, 2);
	expect_row(h, rows, n, B, 15, 5, "focus");
	expect_row(h, rows, n, C, 10, 10, "focus");
	cpath_free(t);

	t = build(h, true, NULL, 0);
	cr_assert_eq(cpath_rows_merged(h, t, 0, HIST_KEEP(HIST_KEY_SYM), 0, &rows), 0, "bottom-up: none");
	cpath_free(t);
	hist_free(h);
}

/* Without transforms, the table is hist_rows_merged()'s, on recordings made by perf. */
Test(cpath, rows_without_transforms_are_the_hists)
{
	const char *fx[] = { "fp.data", "fork.data", "multi.data", "dwarf.data" };
	char bdir[4096];
	const unsigned keeps[] = { HIST_KEEP(HIST_KEY_SYM),
		HIST_KEEP(HIST_KEY_COMM) | HIST_KEEP(HIST_KEY_DSO) | HIST_KEEP(HIST_KEY_SYM),
		HIST_KEEP(HIST_KEY_TID) | HIST_KEEP(HIST_KEY_SYM) };

	snprintf(bdir, sizeof bdir, "%s", test_data("buildid"));
	for (size_t f = 0; f < sizeof fx / sizeof fx[0]; f++) {
		struct perf_err err;
		struct session *s = session_open(test_data(fx[f]), NULL, &err);
		struct sym_opts so = { .buildid_dir = bdir, .kallsyms = "/dev/null" };
		struct hist_opts o;
		struct symbolizer *z;
		struct hist *h;
		struct cpath_query q = { .ev = 0, .entry = CPATH_NONE };
		struct cpath *t;

		cr_assert_not_null(s, "%s: %s", fx[f], err.msg);
		memset(&o, 0, sizeof o);
		o.event = -1;
		o.children = true;
		o.paths = true;
		o.max_stack = HIST_DEFAULT_MAX_STACK;
		o.keys[0] = HIST_KEY_COMM;
		o.keys[1] = HIST_KEY_TID;
		o.keys[2] = HIST_KEY_DSO;
		o.keys[3] = HIST_KEY_SYM;
		o.nkeys = 4;
		z = symbolizer_new(s, &so);
		h = hist_new(s, z, &o);
		hist_add_session(h, NULL);
		hist_finish(h);
		t = cpath_build(h, &q);
		for (size_t k = 0; k < sizeof keeps / sizeof keeps[0]; k++) {
			const struct hist_entry *const *rows;
			struct hist_entry *want;
			size_t nw = hist_rows_merged(h, 0, NULL, keeps[k], 0, &rows), nr;

			cr_assert_gt(nw, 2, "%s: rows", fx[f]);
			want = malloc(nw * sizeof *want);
			for (size_t i = 0; i < nw; i++)
				want[i] = *rows[i];
			nr = cpath_rows_merged(h, t, 0, keeps[k], 0, &rows);
			cr_assert_eq(nr, nw, "%s keep %x: %zu rows, hist has %zu", fx[f], keeps[k], nr, nw);
			for (size_t i = 0; i < nw; i++) {
				size_t j = 0;

				while (j < nr && !(rows[j]->node == want[i].node && rows[j]->comm == want[i].comm &&
				    (!(keeps[k] & HIST_KEEP(HIST_KEY_TID)) || rows[j]->tid == want[i].tid) &&
				    rows[j]->dso == want[i].dso))
					j++;
				cr_assert_lt(j, nr, "%s keep %x: row %zu found", fx[f], keeps[k], i);
				cr_assert_eq(rows[j]->period, want[i].period, "%s keep %x row %zu self", fx[f], keeps[k], i);
				cr_assert_eq(rows[j]->acc_period, want[i].acc_period, "%s keep %x row %zu children",
				    fx[f], keeps[k], i);
				cr_assert_eq(rows[j]->samples, want[i].samples, "%s keep %x row %zu samples", fx[f],
				    keeps[k], i);
				cr_assert(i == 0 || rows[i - 1]->acc_period >= rows[i]->acc_period, "sorted");
			}
			free(want);
		}
		cpath_free(t);
		hist_free(h);
		symbolizer_free(z);
		session_close(s);
	}
}

/*
 * An unresolved address is one function node, as perf compares it, however
 * many DSOs (processes) it was met in: the node says so (dso_mixed), so no
 * view names the first one's DSO for all.
 */
Test(cpath, unresolved_address_in_several_dsos)
{
	struct hist *h = paths_hist(true);
	struct frame a[2] = { hh_frame(1, SYM_NONE, 0x5000), hh_frame(0, A, 0x1000) };
	struct frame b[2] = { hh_frame(2, SYM_NONE, 0x5000), hh_frame(0, A, 0x1000) };
	struct frame c[2] = { hh_frame(3, SYM_NONE, 0x7000), hh_frame(0, A, 0x1000) };
	bool mixed = false, single = false;

	hh_add(h, 0, "p", 1, 1, a, 2);
	hh_add(h, 0, "q", 2, 1, b, 2);
	hh_add(h, 0, "q", 2, 1, c, 2);
	hh_add(h, 0, "q", 2, 1, c, 2);
	hist_finish(h);
	for (size_t i = 0; i < hist_nnodes(h); i++) {
		const struct hist_node *nd = hist_node_get(h, (uint32_t)i);

		if (nd->f.sym != SYM_NONE)
			continue;
		if (nd->f.rel == 0x5000 - 0x1000 || nd->f.ip == 0x5000)
			mixed = nd->dso_mixed;
		else
			single = !nd->dso_mixed;
	}
	cr_assert(mixed, "0x5000 in DSOs 1 and 2: mixed");
	cr_assert(single, "0x7000 in DSO 3 alone: not mixed");
	hist_free(h);
}

/* t and u have the same nodes (ids, functions, counts): the same tree. */
static void
same_tree(const struct cpath *t, const struct cpath *u, const char *what)
{
	cr_assert_eq(cpath_count(t), cpath_count(u), "%s: nodes", what);
	for (uint32_t i = 0; i < cpath_count(t); i++) {
		const struct cpath_node *x = cpath_node(t, i), *y = cpath_node(u, i);

		cr_assert(x->func == y->func && x->parent == y->parent &&
		    x->first_child == y->first_child && x->next_sibling == y->next_sibling &&
		    x->total_period == y->total_period && x->self_period == y->self_period &&
		    x->total_samples == y->total_samples, "%s: node %u", what, i);
	}
}

/*
 * A build in steps (the browser's panes take rows between keys) gives the
 * tree of one build, whatever the queries (both directions, transforms,
 * an entry's own rows and those through it: two lists of rows); its share
 * only grows, and it holds its own copy of the query's transforms.
 */
Test(cpath, a_build_in_steps_is_one_build)
{
	struct hist *h = sample_hist(true);
	const struct hist_entry *eb = hh_row(h, 0, HIST_KEY_SYM, "[.] s2");
	struct cpath_xform xf[2] = { { CPATH_MERGE, func_of(h, B) }, { CPATH_NORECURSE, 0 } };
	const uint32_t *rows;
	size_t nrows = hist_rows(h, 0, 0, &rows);
	uint32_t id = CPATH_NONE;

	for (size_t i = 0; i < nrows; i++)
		if (hist_entry_get(h, rows[i]) == eb)
			id = rows[i];
	cr_assert_neq(id, CPATH_NONE);
	for (int v = 0; v < 6; v++) {
		struct cpath_query q = { .ev = 0, .entry = CPATH_NONE, .bottom_up = v & 1 };
		struct cpath *one, *stepped;
		struct cpath_job *j;
		double last = 0;
		size_t steps = 0;
		char what[32];

		if (v >= 2 && v < 4) {
			q.xf = xf;
			q.nxf = 2;
		} else if (v >= 4) {
			q.entry = id;
			q.through = true;
		}
		snprintf(what, sizeof what, "query %d", v);
		one = cpath_build(h, &q);
		j = cpath_job_new(h, &q);
		xf[0].op = CPATH_DROP;	/* the caller's array changes: the job's copy does not */
		while (!cpath_job_step(j, 1)) {
			cr_assert_geq(cpath_job_share(j), last, "%s: the share grows", what);
			last = cpath_job_share(j);
			cr_assert_lt(last, 1.0, "%s", what);
			steps++;
		}
		xf[0].op = CPATH_MERGE;
		cr_assert_eq(cpath_job_share(j), 1.0);
		cr_assert_gt(steps, 1, "%s: a row a step", what);
		stepped = cpath_job_take(j);
		same_tree(one, stepped, what);
		cpath_free(one);
		cpath_free(stepped);
	}
	/* a job dropped half way frees what it made, nothing of the hist */
	{
		struct cpath_query q = { .ev = 0, .entry = CPATH_NONE };
		struct cpath_job *j = cpath_job_new(h, &q);

		cpath_job_step(j, 2);
		cpath_job_free(j);
	}
	hist_free(h);
}
