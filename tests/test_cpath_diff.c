/* Criterion tests of symbolize/cpath_diff.c: two call-path trees paired by function names. */
#include "config.h"

#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/cpath.h"
#include "symbolize/cpath_diff.h"
#include "symbolize/hist.h"
#include "symbolize/symbolizer.h"
#include "tests/helpers.h"
#include "tests/hist_helpers.h"

/* Functions of the byte-built samples: symbol ids of DSO 0 (named "s<id>"). */
enum { A = 1, B, C, D, E };

static struct hist *
paths_hist(void)
{
	struct hist_opts o;

	memset(&o, 0, sizeof o);
	o.event = -1;
	o.paths = true;
	o.keys[0] = HIST_KEY_SYM;
	o.nkeys = 1;
	return hist_new(NULL, NULL, &o);
}

/* A sample whose path is syms (root first), n frames. */
static void
add_path(struct hist *h, uint64_t period, const uint32_t *syms, size_t n)
{
	struct frame f[16];

	for (size_t i = 0; i < n; i++)
		f[i] = hh_frame(0, syms[n - 1 - i], 0x1000 * syms[n - 1 - i] + i);
	hh_add(h, 0, "w", 1, period, f, n);
}

/* The node of t reached from the root by the functions named names[0..n), or CPATH_NONE. */
static uint32_t
by_names(const struct hist *h, const struct cpath *t, const char *const *names, size_t n)
{
	uint32_t at = 0;
	char buf[256];

	for (size_t i = 0; i < n && at != CPATH_NONE; i++) {
		uint32_t c = cpath_node(t, at)->first_child;

		for (; c != CPATH_NONE; c = cpath_node(t, c)->next_sibling)
			if (strcmp(cpath_func_name(h, cpath_node(t, c)->func, buf, sizeof buf),
			    names[i]) == 0)
				break;
		at = c;
	}
	return at;
}

static struct cpath *
top_down(struct hist *h, bool bottom_up)
{
	struct cpath_query q = { .ev = 0, .entry = CPATH_NONE, .bottom_up = bottom_up };

	return cpath_build(h, &q);
}

/* Byte-built: node ids differ between the hists, names pair them; b's own paths counted apart. */
Test(cpath_diff, pairs_by_names_not_ids)
{
	struct hist *a = paths_hist(), *b = paths_hist();
	static const uint32_t ab[] = { A, B }, ac[] = { A, C }, d[] = { D }, ae[] = { A, E };
	struct cpath *ta, *tb;
	struct cpath_diff *df;
	struct cpath_dnode n;
	static const char *const p_ab[] = { "s1", "s2" }, *const p_ac[] = { "s1", "s3" };
	static const char *const p_a[] = { "s1" };
	uint32_t x;

	add_path(a, 10, ab, 2);
	add_path(a, 5, ac, 2);
	add_path(b, 4, d, 1);	/* first in b: its function nodes come in another order */
	add_path(b, 7, ab, 2);
	add_path(b, 3, ae, 2);
	add_path(b, 2, ab, 1);	/* A's own samples */
	hist_finish(a);
	hist_finish(b);
	ta = top_down(a, false);
	tb = top_down(b, false);
	df = cpath_diff_new(a, ta, b, tb);

	cr_assert_eq(cpath_diff_node(df, 0, &n), 0);
	cr_assert_eq(n.pair, 0u, "the roots pair");
	cr_assert_eq(n.total[0], 15u);
	cr_assert_eq(n.total[1], 16u);

	x = by_names(a, ta, p_ab, 2);
	cr_assert_neq(x, CPATH_NONE);
	cr_assert_eq(cpath_diff_node(df, x, &n), 0);
	cr_assert_eq(n.pair, by_names(b, tb, p_ab, 2), "s1 > s2 pairs with b's s1 > s2");
	cr_assert_neq(cpath_node(tb, n.pair)->func, cpath_node(ta, x)->func,
	    "the function node ids differ: the pairing is by name");
	cr_assert_eq(n.total[0], 10u);
	cr_assert_eq(n.total[1], 7u);
	cr_assert_eq(n.self[0], 10u);
	cr_assert_eq(n.self[1], 7u);

	x = by_names(a, ta, p_a, 1);
	cr_assert_eq(cpath_diff_node(df, x, &n), 0);
	cr_assert_eq(n.total[0], 15u);
	cr_assert_eq(n.total[1], 12u, "s1: 7 + 3 + its own 2");
	cr_assert_eq(n.self[0], 0u);
	cr_assert_eq(n.self[1], 2u);

	x = by_names(a, ta, p_ac, 2);
	cr_assert_eq(cpath_diff_node(df, x, &n), 0);
	cr_assert_eq(n.pair, CPATH_NONE, "s1 > s3 is a only");
	cr_assert_eq(n.total[0], 5u);
	cr_assert_eq(n.total[1], 0u);

	cr_assert_eq(cpath_diff_b_only(df), 4u + 3u, "b's D and A > E have no node in a");
	cr_assert_eq(cpath_diff_node(df, (uint32_t)cpath_count(ta), &n), -1);
	cpath_diff_free(df);
	cpath_free(ta);
	cpath_free(tb);
	hist_free(a);
	hist_free(b);
}

/* A hist of a fixture resolved with the fixtures' build-id cache. */
static struct hist *
fixture_hist(const char *name, struct session **s, struct symbolizer **z)
{
	char bdir[4096];
	struct perf_err err;
	struct sym_opts so = { .kallsyms = "/dev/null", .no_path_cache = true };
	struct hist_opts o;
	struct hist *h;

	snprintf(bdir, sizeof bdir, "%s", test_data("buildid"));
	so.buildid_dir = bdir;
	*s = session_open(test_data(name), NULL, &err);
	cr_assert_not_null(*s, "%s: %s", name, err.msg);
	*z = symbolizer_new(*s, &so);
	memset(&o, 0, sizeof o);
	o.event = -1;
	o.paths = true;
	o.max_stack = HIST_DEFAULT_MAX_STACK;
	o.keys[0] = HIST_KEY_DSO;
	o.keys[1] = HIST_KEY_SYM;
	o.nkeys = 2;
	h = hist_new(*s, *z, &o);
	hist_add_session(h, NULL);
	hist_finish(h);
	return h;
}

/*
 * The fixtures (two builds of tests/fixtures-src/diffwork.c): the hot path
 * through spin shrank (78 ms of cpu-clock to 55.5 ms: perf diff's periods),
 * old_only is gone, new_only came; top-down and bottom-up alike.
 */
Test(cpath_diff, fixtures_hot_path_moved)
{
	struct session *sa, *sb;
	struct symbolizer *za, *zb;
	struct hist *a = fixture_hist("diff-a.data", &sa, &za);
	struct hist *b = fixture_hist("diff-b.data", &sb, &zb);
	static const char *const spin[] = { "__libc_start_call_main", "main", "spin" };
	static const char *const old_only[] = { "__libc_start_call_main", "main", "old_only" };
	static const char *const new_only[] = { "__libc_start_call_main", "main", "new_only" };
	static const char *const bu_spin[] = { "spin", "main", "__libc_start_call_main" };

	for (int bu = 0; bu < 2; bu++) {
		struct cpath *ta = top_down(a, bu), *tb = top_down(b, bu);
		struct cpath_diff *df = cpath_diff_new(a, ta, b, tb);
		struct cpath_dnode n;
		uint32_t x = by_names(a, ta, bu ? bu_spin : spin, 3);

		cr_assert_neq(x, CPATH_NONE, "OLD has the path to spin");
		cr_assert_eq(cpath_diff_node(df, x, &n), 0);
		cr_assert_eq(n.pair, by_names(b, tb, bu ? bu_spin : spin, 3));
		cr_assert_eq(n.total[0], 78000000u, "%" PRIu64, n.total[0]);
		cr_assert_eq(n.total[1], 55500000u, "%" PRIu64, n.total[1]);
		if (!bu) {
			x = by_names(a, ta, old_only, 3);
			cr_assert_neq(x, CPATH_NONE);
			cr_assert_eq(cpath_diff_node(df, x, &n), 0);
			cr_assert_eq(n.pair, CPATH_NONE, "old_only is gone in NEW");
			cr_assert_eq(by_names(a, ta, new_only, 3), CPATH_NONE);
			x = by_names(b, tb, new_only, 3);
			cr_assert_neq(x, CPATH_NONE);
			cr_assert_geq(cpath_diff_b_only(df), cpath_node(tb, x)->total_period,
			    "new_only counts as NEW's own");
		}
		cpath_diff_free(df);
		cpath_free(ta);
		cpath_free(tb);
	}
	hist_free(a);
	hist_free(b);
	symbolizer_free(za);
	symbolizer_free(zb);
	session_close(sa);
	session_close(sb);
}
