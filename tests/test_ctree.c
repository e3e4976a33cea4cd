/*
 * Criterion tests of the call-path tree panes (top-down and bottom-up,
 * tui/pane/pane_ctree.c) and of the scope's transforms, without a
 * terminal: the trees of every fixture with callchains add up (a node's
 * total is its self plus its children's, no child exceeds its parent, the
 * root is the event's total), each transform does what it says, the
 * folded paths of fp.data's entries are perf's own (tests/data/expected),
 * and the panes' rows, expansion, events, transforms and NAV_T_CTREE views.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/cpath.h"
#include "symbolize/hist.h"
#include "symbolize/symbolizer.h"
#include "tests/tui_helpers.h"
#include "tui/nav.h"
#include "tui/pane.h"
#include "tui/scope.h"
#include "tui/symbols.h"
#include "tui/widget.h"

/* The fixtures recorded with callchains. */
static const char *const chained[] = {
	"fp.data", "dwarf.data", "zstd.data", "fork.data", "pipe.data", "dir.data",
};
#define NCHAINED (sizeof chained / sizeof chained[0])

static struct symbols *
resolved(struct session *s)
{
	struct symbols *sy = fixture_symbols(s);

	symbols_run(sy);
	cr_assert(sy->done);
	return sy;
}

/* The tree of sy's scope, in one direction. */
static struct cpath *
scope_tree(struct symbols *sy, bool bottom_up)
{
	struct cpath_query q;

	scope_query(&sy->scope, bottom_up, &q);
	return cpath_build(sy->h, &q);
}

/* Every node's total is its self plus its children's; no child counts more than its parent. */
static void
check_sums(const struct cpath *t, const char *what)
{
	for (uint32_t i = 0; i < cpath_count(t); i++) {
		const struct cpath_node *n = cpath_node(t, i);
		uint64_t per = n->self_period, smp = n->self_samples;

		for (uint32_t c = n->first_child; c != CPATH_NONE; c = cpath_node(t, c)->next_sibling) {
			const struct cpath_node *k = cpath_node(t, c);

			cr_assert_eq(k->parent, i, "%s", what);
			cr_assert_leq(k->total_period, n->total_period, "%s: node %u", what, c);
			cr_assert_leq(k->total_samples, n->total_samples, "%s: node %u", what, c);
			per += k->total_period;
			smp += k->total_samples;
		}
		cr_assert_eq(per, n->total_period, "%s: node %u: self + children", what, i);
		cr_assert_eq(smp, n->total_samples, "%s: node %u: self + children", what, i);
	}
}

/* Does any node of t have func f? */
static bool
has_func(const struct cpath *t, uint32_t f)
{
	for (uint32_t i = 1; i < cpath_count(t); i++)
		if (cpath_node(t, i)->func == f)
			return true;
	return false;
}

/* The period of the samples whose path passes through f (a top-down tree's outermost f nodes). */
static uint64_t
through(const struct cpath *td, uint32_t f)
{
	uint64_t sum = 0;

	for (uint32_t i = 1; i < cpath_count(td); i++) {
		const struct cpath_node *n = cpath_node(td, i);
		bool outer = n->func == f;

		for (uint32_t a = n->parent; a != 0 && outer; a = cpath_node(td, a)->parent)
			outer = cpath_node(td, a)->func != f;
		if (outer)
			sum += n->total_period;
	}
	return sum;
}

static uint64_t
root_total(const struct cpath *t)
{
	return cpath_node(t, 0)->total_period;
}

Test(ctree, trees_add_up_over_the_fixtures)
{
	for (size_t f = 0; f < NCHAINED; f++) {
		struct session *s = open_fixture(chained[f]);
		struct symbols *sy = resolved(s);

		cr_assert(sy->children, "%s has callchains", chained[f]);
		cr_assert_geq(hist_nevents(sy->h), 1, "%s", chained[f]);
		for (size_t ev = 0; ev < hist_nevents(sy->h); ev++)
			for (int up = 0; up < 2; up++) {
				const struct hist_event *he = hist_event(sy->h, ev);
				struct cpath *t;
				char what[64];

				sy->scope.ev = ev;
				t = scope_tree(sy, up);
				snprintf(what, sizeof what, "%s ev %zu %s", chained[f], ev,
				    up ? "bottom-up" : "top-down");
				cr_assert_gt(cpath_count(t), 1, "%s", what);
				cr_assert_eq(root_total(t), he->total_period, "%s: the event's total", what);
				cr_assert_eq(cpath_node(t, 0)->total_samples, he->nsamples, "%s", what);
				check_sums(t, what);
				cpath_free(t);
			}
		symbols_free(sy);
		session_close(s);
	}
}

/* The transforms on every function of a fixture's tree, each direction. */
static void
check_transforms(struct symbols *sy, const struct cpath *base, uint32_t f, const char *fx)
{
	uint64_t all = root_total(base), thr = through(base, f);
	static const enum cpath_op ops[] = { CPATH_DROP, CPATH_FOCUS, CPATH_MERGE };

	for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
		for (int up = 0; up < 2; up++) {
			struct cpath *t;
			char what[128];

			sy->scope.nxf = 0;
			cr_assert(scope_xf_push(&sy->scope, ops[o], f));
			t = scope_tree(sy, up);
			snprintf(what, sizeof what, "%s: %s func %u %s", fx,
			    ops[o] == CPATH_DROP ? "drop" : ops[o] == CPATH_FOCUS ? "focus" : "merge", f,
			    up ? "bottom-up" : "top-down");
			check_sums(t, what);
			switch (ops[o]) {
			case CPATH_DROP:
				cr_assert(!has_func(t, f), "%s: no node of it", what);
				cr_assert_eq(root_total(t), all - thr, "%s: its samples gone", what);
				break;
			case CPATH_FOCUS:
				cr_assert_eq(root_total(t), thr, "%s: the samples through it", what);
				for (uint32_t i = 1; i < cpath_count(t); i++) {
					const struct cpath_node *n = cpath_node(t, i);

					/* top-down the roots are f; bottom-up the paths end at f */
					if (!up && n->parent == 0)
						cr_assert_eq(n->func, f, "%s: roots", what);
					if (up && n->self_samples)
						cr_assert_eq(n->func, f, "%s: outermost frames", what);
				}
				break;
			default:
				cr_assert(!has_func(t, f), "%s: no node of it", what);
				cr_assert_eq(root_total(t), all, "%s: every sample kept", what);
				break;
			}
			cpath_free(t);
		}
	sy->scope.nxf = 0;
}

Test(ctree, transforms_do_what_they_say)
{
	for (size_t fx = 0; fx < NCHAINED; fx++) {
		struct session *s = open_fixture(chained[fx]);
		struct symbols *sy = resolved(s);
		struct cpath *base = scope_tree(sy, false), *t;
		uint32_t *seen = xcalloc(hist_nnodes(sy->h) + 1, sizeof *seen);
		size_t nf = 0;

		for (uint32_t i = 1; i < cpath_count(base); i++) {
			uint32_t f = cpath_node(base, i)->func;

			if (seen[f]++ == 0) {
				check_transforms(sy, base, f, chained[fx]);
				nf++;
			}
		}
		cr_assert_geq(nf, 5, "%s: functions tried", chained[fx]);
		/* recursion collapsed: no parent and child of one function, nothing lost */
		for (int up = 0; up < 2; up++) {
			scope_xf_push(&sy->scope, CPATH_NORECURSE, CPATH_NONE);
			t = scope_tree(sy, up);
			check_sums(t, chained[fx]);
			cr_assert_eq(root_total(t), root_total(base), "%s: norecurse keeps all",
			    chained[fx]);
			for (uint32_t i = 1; i < cpath_count(t); i++)
				cr_assert_neq(cpath_node(t, i)->func,
				    cpath_node(t, cpath_node(t, i)->parent)->func, "%s", chained[fx]);
			cpath_free(t);
			scope_xf_truncate(&sy->scope, 0);
		}
		free(seen);
		cpath_free(base);
		symbols_free(sy);
		session_close(s);
	}
}

/* ---- perf's folded output of fp.data, entry by entry ---- */

struct folded {
	char	 entry[128][128];	/* "[.] mix_one" */
	char	*lines[128];		/* "138 a;b;c\n..." sorted, per entry */
	size_t	 n;
};

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Lines joined, sorted (n of them); frees them. */
static char *
join_sorted(char **v, size_t n)
{
	size_t len = 1;
	char *out;

	qsort(v, n, sizeof *v, cmp_str);
	for (size_t i = 0; i < n; i++)
		len += strlen(v[i]) + 1;
	out = xcalloc(1, len);
	for (size_t i = 0; i < n; i++) {
		strcat(out, v[i]);
		strcat(out, "\n");
		free(v[i]);
	}
	return out;
}

/* perf report --stdio -g folded output: "    74.19%  [.] mix_one" then "138 a;b;c" lines. */
static void
read_folded(const char *name, struct folded *fo)
{
	char path[4096], line[8192], *v[256];
	size_t nv = 0;
	FILE *fp;

	snprintf(path, sizeof path, "%s/expected/%s", TEST_DATA, name);
	fp = fopen(path, "r");
	cr_assert_not_null(fp, "%s", path);
	memset(fo, 0, sizeof *fo);
	while (fgets(line, sizeof line, fp)) {
		char *pct = strstr(line, "%  ");

		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		if (line[0] == ' ' && pct) {
			if (fo->n)
				fo->lines[fo->n - 1] = join_sorted(v, nv);
			nv = 0;
			cr_assert_lt(fo->n, 128);
			snprintf(fo->entry[fo->n++], sizeof fo->entry[0], "%s", pct + 3);
		} else {
			cr_assert_gt(fo->n, 0, "%s: a path before an entry", name);
			cr_assert_lt(nv, 256);
			v[nv++] = xstrdup(line);
		}
	}
	if (fo->n)
		fo->lines[fo->n - 1] = join_sorted(v, nv);
	fclose(fp);
	cr_assert_gt(fo->n, 3, "%s: entries", name);
}

/* The paths of q's tree as perf's folded lines ("138 a;b;c"), sorted. */
static char *
tree_folded(struct hist *h, const struct cpath_query *q)
{
	struct cpath *t = cpath_build(h, q);
	char *v[256], buf[8192], name[512];
	uint32_t funcs[512];
	size_t nv = 0;

	for (uint32_t i = 1; i < cpath_count(t); i++) {
		const struct cpath_node *n = cpath_node(t, i);
		size_t d = cpath_path(t, i, funcs, 512), o;

		if (n->self_samples == 0)
			continue;
		o = (size_t)snprintf(buf, sizeof buf, "%" PRIu64 " ", n->self_samples);
		for (size_t j = 0; j < d && o < sizeof buf; j++)
			o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%s", j ? ";" : "",
			    cpath_func_name(h, funcs[j], name, sizeof name));
		cr_assert_lt(nv, 256);
		v[nv++] = xstrdup(buf);
	}
	cpath_free(t);
	return join_sorted(v, nv);
}

/* Entry id's call paths as perf's folded lines, in order caller (top-down) or callee. */
static char *
entry_folded(struct hist *h, uint32_t id, bool callee)
{
	struct cpath_query q = {
		.ev = 0, .entry = id, .chained_only = true, .bottom_up = callee,
	};

	return tree_folded(h, &q);
}

Test(ctree, entry_paths_are_perfs_folded_output)
{
	struct session *s = open_fixture("fp.data");
	struct symbolizer *z;
	struct sym_opts so;
	struct hist_opts ho;
	struct hist *h;
	const uint32_t *rows;
	size_t nrows;

	memset(&so, 0, sizeof so);
	so.buildid_dir = TEST_DATA "/buildid";
	so.kallsyms = "/dev/null";
	z = symbolizer_new(s, &so);
	memset(&ho, 0, sizeof ho);
	ho.keys[0] = HIST_KEY_SYM;
	ho.nkeys = 1;
	ho.paths = true;
	ho.event = -1;
	ho.max_stack = HIST_DEFAULT_MAX_STACK;
	h = hist_new(s, z, &ho);
	hist_add_session(h, NULL);
	hist_finish(h);
	nrows = hist_rows(h, 0, 0, &rows);
	for (int callee = 0; callee < 2; callee++) {
		struct folded *fo = xcalloc(1, sizeof *fo);

		read_folded(callee ? "fp.data.callers.txt" : "fp.data.callees.txt", fo);
		cr_assert_eq(nrows, fo->n, "as many entries as perf");
		for (size_t i = 0; i < fo->n; i++) {
			size_t k;
			char key[256], *ours = NULL;

			for (k = 0; k < nrows; k++) {
				hist_key_text(h, hist_entry_get(h, rows[k]), HIST_KEY_SYM, key, sizeof key);
				if (strcmp(key, fo->entry[i]) == 0)
					break;
			}
			cr_assert_lt(k, nrows, "perf's entry %s is ours too", fo->entry[i]);
			ours = entry_folded(h, rows[k], callee);
			cr_assert_str_eq(ours, fo->lines[i], "%s, %s order", fo->entry[i],
			    callee ? "callee" : "caller");
			free(ours);
			free(fo->lines[i]);
		}
		free(fo);
	}
	hist_free(h);
	symbolizer_free(z);
	session_close(s);
}

/* The panes' trees (the TUI's hist, keyed comm,tid,dso,sym): their leaf
 * paths are those of every entry of perf's output together. */
Test(ctree, whole_trees_are_perfs_paths_together)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = resolved(s);

	for (int callee = 0; callee < 2; callee++) {
		struct folded *fo = xcalloc(1, sizeof *fo);
		char *v[128], *want, *ours;
		struct cpath_query q;

		read_folded(callee ? "fp.data.callers.txt" : "fp.data.callees.txt", fo);
		for (size_t i = 0; i < fo->n; i++) {
			v[i] = fo->lines[i];
			v[i][strlen(v[i]) - 1] = '\0';	/* join_sorted adds it back */
		}
		want = join_sorted(v, fo->n);
		scope_query(&sy->scope, callee, &q);
		ours = tree_folded(sy->h, &q);
		cr_assert_str_eq(ours, want, "%s order", callee ? "callee" : "caller");
		free(ours);
		free(want);
		free(fo);
	}
	symbols_free(sy);
	session_close(s);
}

/* ---- the panes ---- */

static void
tree_pane(struct pane *p, enum pane_id id, struct session *s, struct symbols *sy)
{
	struct nav_view v;

	cr_assert_eq(pane_create_sym(p, id, s, NULL, sy), 0);
	nav_view_init(&v, id);
	p->ops->enter(p, &v);
}

/* The function node named name in sy's hist (a node of the top-down tree). */
static uint32_t
func_named(struct symbols *sy, const char *name)
{
	struct cpath *t = scope_tree(sy, false);
	uint32_t f = CPATH_NONE;
	char buf[512];

	for (uint32_t i = 1; i < cpath_count(t) && f == CPATH_NONE; i++)
		if (strcmp(cpath_func_name(sy->h, cpath_node(t, i)->func, buf, sizeof buf), name) == 0)
			f = cpath_node(t, i)->func;
	cpath_free(t);
	cr_assert_neq(f, CPATH_NONE, "%s in the tree", name);
	return f;
}

static bool
cur_has(struct pane *p, const char *text)
{
	return row_has(p, widget_cursor_row(&p->w), text);
}

/* Has a row of the whole tree (opened) function f?  Leaves it open. */
static bool
any_row_of(struct pane *p, uint32_t f)
{
	widget_expand_all(&p->w, true);
	for (size_t i = 0; i < widget_count(&p->w); i++) {
		widget_goto_row(&p->w, widget_source(&p->w, i));
		if (p->ops->func(p) == f)
			return true;
	}
	return false;
}

/*
 * At 80 columns dwarf.data's top-down tree, opened whole (ten levels, the
 * deepest names of 18 characters), fits indented: no row shows its depth
 * as a number ("[9]" once did, two levels short of the limit), none is cut.
 */
Test(ctree, topdown_indented_where_it_fits)
{
	struct session *s = open_fixture("dwarf.data");
	struct symbols *sy = resolved(s);
	struct pane p;
	bool deep = false;

	tree_pane(&p, PANE_TOPDOWN, s, sy);
	widget_expand_all(&p.w, true);
	cr_assert_lt(widget_count(&p.w), 38);
	screen_draw(&p, 40, 80);
	for (int y = 1; y < 39; y++) {
		const char *line = screen_line(y);

		cr_expect_null(strstr(line, "] "), "a depth number: '%s'", line);
		cr_expect_null(strstr(line, "0xffffff\u2026"), "a name cut: '%s'", line);
		if (strstr(line, "0xffffffff813ae293") != NULL)
			deep = true;
	}
	cr_expect(deep, "the deepest row's name whole");
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

Test(ctree, topdown_rows_hot_path_sort_search)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = resolved(s);
	struct pane p;
	size_t i;

	tree_pane(&p, PANE_TOPDOWN, s, sy);
	cr_assert_eq(p.ncols, 5);
	cr_assert_str_eq(p.cols[0].title, "Children");
	cr_assert_str_eq(p.cols[4].title, "Function");
	/* the hottest path open: libc's start, main, mix_one and mix; then fill, reduce, two roots */
	cr_assert_eq(widget_count(&p.w), 8);
	cr_assert(row_has(&p, widget_source(&p.w, 0), "__libc_start_call_main"));
	cr_assert(row_has(&p, widget_source(&p.w, 0), "98.92%"));
	cr_assert(row_has(&p, widget_source(&p.w, 0), "libc.so.6"));
	cr_assert(row_has(&p, widget_source(&p.w, 1), "main"));
	cr_assert(row_has(&p, widget_source(&p.w, 1), "78.49%"));
	cr_assert(row_has(&p, widget_source(&p.w, 2), "mix_one"));
	cr_assert(row_has(&p, widget_source(&p.w, 2), "74.19%"));
	cr_assert(row_has(&p, widget_source(&p.w, 2), "138"));
	cr_assert(!widget_is_expanded(&p.w, widget_source(&p.w, 6)), "_dl_start_user closed");
	cr_assert_eq(p.ops->func(&p), func_named(sy, "__libc_start_call_main"));
	/* sort by Self: the roots by their own samples (siblings sorted, the tree kept) */
	widget_sort(&p.w, 1, true);
	cr_assert(row_has(&p, widget_source(&p.w, 0), "__vfprintf_internal"));
	widget_sort(&p.w, -1, false);
	cr_assert(row_has(&p, widget_source(&p.w, 0), "__libc_start_call_main"));
	/* E opens everything: the kernel path under _dl_start_user */
	widget_expand_all(&p.w, true);
	cr_assert_gt(widget_count(&p.w), 15);
	i = find_text(&p, "dl_main");
	cr_assert_neq(i, WIDGET_NONE);
	cr_assert(row_has(&p, widget_source(&p.w, i + 1), "[kernel.kallsyms]"));
	widget_expand_all(&p.w, false);
	cr_assert_eq(widget_count(&p.w), 3, "collapsed: the roots");
	/* search and filter (ancestors kept) */
	widget_home(&p.w);
	cr_assert(!widget_search(&p.w, "reduce", 1, false), "search: visible rows only");
	cr_assert_eq(widget_set_filter(&p.w, "reduce", NULL, 0), 0);
	cr_assert_eq(widget_count(&p.w), 2, "reduce and its caller");
	widget_set_filter(&p.w, "", NULL, 0);
	/* one event: Tab says so */
	cr_assert_eq(p.ops->key(&p, ACT_NEXT_EVENT), PANE_HANDLED | PANE_MSG);
	cr_assert_str_eq(p.msg, "one event only");
	cr_assert_eq(p.ops->key(&p, ACT_DOWN), PANE_IGNORED, "the widget moves");
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/* Column col of the pane's row at visible position i ("" when blank). */
static void
cell(struct pane *p, size_t i, int col, char *out, size_t n)
{
	struct row r;

	row_reset(&r);
	p->ops->row(p, widget_source(&p->w, i), &r);
	snprintf(out, n, "%s", r.col[col] ? r.col[col] : "");
}

/*
 * The bottom-up tree's roots are the functions samples were taken in: each
 * one's Self is its self in the hot functions (hotspot's bottom-up), and
 * its callers below have none to show.
 */
static void
check_bottom_up_self(const char *fixture, size_t ev)
{
	struct session *s = open_fixture(fixture);
	struct symbols *sy = resolved(s);
	struct pane bu, hot;
	size_t roots = 0;
	int hcol = -1, scol = -1;
	char name[512], self[64], sym[600], hself[64];

	sy->scope.ev = ev;
	tree_pane(&bu, PANE_BOTTOMUP, s, sy);
	hot_pane(&hot, s, sy);
	cr_assert_str_eq(bu.cols[1].title, "Self");
	/* the hot table's self: "Self" beside Children, else "Overhead" */
	for (int c = 0; c < hot.ncols; c++) {
		if (strcmp(hot.cols[c].title, "Self") == 0 || strcmp(hot.cols[c].title, "Overhead") == 0)
			hcol = c;
		if (strcmp(hot.cols[c].title, "Symbol") == 0)
			scol = c;
	}
	cr_assert(hcol >= 0 && scol >= 0, "%s: the hot table's Self and Symbol", fixture);
	widget_expand_all(&bu.w, false);
	for (size_t i = 0; i < widget_count(&bu.w); i++, roots++) {
		size_t h = WIDGET_NONE;

		cell(&bu, i, 4, name, sizeof name);
		cell(&bu, i, 1, self, sizeof self);
		for (size_t k = 0; k < widget_count(&hot.w) && h == WIDGET_NONE; k++) {
			cell(&hot, k, scol, sym, sizeof sym);
			if (strlen(sym) > 4 && strcmp(sym + 4, name) == 0)
				h = k;
		}
		cr_assert_neq(h, WIDGET_NONE, "%s: %s among the hot functions", fixture, name);
		cell(&hot, h, hcol, hself, sizeof hself);
		cr_assert_str_eq(self, hself, "%s ev %zu: %s's self, bottom-up and hot", fixture, ev,
		    name);
	}
	cr_assert_gt(roots, 1, "%s", fixture);
	widget_expand_all(&bu.w, true);
	for (size_t i = 0; i < widget_count(&bu.w); i++) {
		if (bu.w.depth[widget_source(&bu.w, i)] == 0)
			continue;
		cell(&bu, i, 1, self, sizeof self);
		cr_assert_str_eq(self, "", "%s: a caller has no self", fixture);
	}
	pane_destroy(&bu);
	pane_destroy(&hot);
	symbols_free(sy);
	session_close(s);
}

Test(ctree, bottom_up_roots_have_the_functions_self)
{
	check_bottom_up_self("fp.data", 0);
	check_bottom_up_self("multi.data", 0);
	check_bottom_up_self("multi.data", 1);
}

Test(ctree, expansion_and_cursor_survive_rebuilds)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p;
	size_t n;

	/* before the symbols: empty, then filling in */
	tree_pane(&p, PANE_TOPDOWN, s, sy);
	cr_assert_eq(widget_count(&p.w), 0);
	symbols_step(sy, 0, 64);
	symbols_peek(sy);
	p.ops->key(&p, ACT_NONE);
	n = widget_count(&p.w);
	symbols_run(sy);
	p.ops->key(&p, ACT_NONE);
	cr_assert_eq(widget_count(&p.w), 8, "the final tree (%zu rows before)", n);
	/* collapse main, move to fill: both kept when the rows are rebuilt */
	widget_goto_row(&p.w, widget_source(&p.w, 1));
	widget_collapse(&p.w);
	cr_assert_eq(widget_count(&p.w), 6);
	cr_assert(widget_search(&p.w, "fill", 1, false));
	sy->gen++;
	p.ops->key(&p, ACT_NONE);
	cr_assert_eq(widget_count(&p.w), 6, "main stays closed");
	cr_assert(cur_has(&p, "fill"), "the cursor on the same path");
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

Test(ctree, transforms_in_the_pane)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = resolved(s);
	uint32_t fmain = func_named(sy, "main"), fmix = func_named(sy, "mix_one");
	struct pane p;
	char buf[256];

	tree_pane(&p, PANE_TOPDOWN, s, sy);
	widget_goto_row(&p.w, widget_source(&p.w, 2));
	cr_assert(cur_has(&p, "mix_one"));
	/* focus main: main is the root, the cursor still on mix_one */
	cr_assert(scope_xf_push(&sy->scope, CPATH_FOCUS, fmain));
	p.ops->key(&p, ACT_NONE);
	cr_assert_eq(widget_count(&p.w), 3);
	cr_assert(row_has(&p, widget_source(&p.w, 0), "78.49%"), "146 of the event's 186");
	cr_assert(row_has(&p, widget_source(&p.w, 0), "main"));
	cr_assert(cur_has(&p, "mix_one"));
	cr_assert(row_has(&p, widget_cursor_row(&p.w), "74.19%"), "shares of the event's total");
	/* drop mix_one: the cursor goes to its caller */
	cr_assert(scope_xf_push(&sy->scope, CPATH_DROP, fmix));
	p.ops->key(&p, ACT_NONE);
	cr_assert_eq(widget_count(&p.w), 2);
	cr_assert(cur_has(&p, "main"));
	cr_assert_str_eq(scope_xf_text(&sy->scope, sy->h, buf, sizeof buf),
	    "focus main > drop mix_one");
	/* undone, both: the whole tree again */
	scope_xf_truncate(&sy->scope, 0);
	p.ops->key(&p, ACT_NONE);
	cr_assert_eq(widget_count(&p.w), 8);
	cr_assert_str_eq(scope_xf_text(&sy->scope, sy->h, buf, sizeof buf), "");
	/* merge main into its caller: mix_one right under libc's start */
	scope_xf_push(&sy->scope, CPATH_MERGE, fmain);
	p.ops->key(&p, ACT_NONE);
	cr_assert(!any_row_of(&p, fmain), "main merged away");
	cr_assert(row_has(&p, widget_source(&p.w, 1), "mix_one"), "right under libc's start");
	cr_assert(!scope_xf_has(&sy->scope, CPATH_NORECURSE, CPATH_NONE));
	cr_assert(scope_xf_has(&sy->scope, CPATH_MERGE, fmain));
	scope_xf_truncate(&sy->scope, 0);
	/* at most SCOPE_XF_MAX */
	for (int i = 0; i < SCOPE_XF_MAX; i++)
		cr_assert(scope_xf_push(&sy->scope, CPATH_NORECURSE, CPATH_NONE));
	cr_assert(!scope_xf_push(&sy->scope, CPATH_NORECURSE, CPATH_NONE));
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

Test(ctree, a_function_opened_in_either_tree)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = resolved(s);
	uint32_t fmix = func_named(sy, "mix_one"), fmain = func_named(sy, "main");
	struct pane td, bu;
	struct nav_view v, saved;

	tree_pane(&td, PANE_TOPDOWN, s, sy);
	tree_pane(&bu, PANE_BOTTOMUP, s, sy);
	widget_expand_all(&td.w, false);
	/* top-down: expanded down to its hottest node, selected */
	nav_view_init(&v, PANE_TOPDOWN);
	v.target = NAV_T_CTREE;
	v.arg = fmix;
	go(&td, &v);
	cr_assert(cur_has(&td, "mix_one"));
	cr_assert(cur_has(&td, "74.19%"));
	cr_assert_eq(td.ops->func(&td), fmix);
	/* saved, it comes back on the cursor, not on the function again */
	widget_move(&td.w, -1);
	td.ops->save(&td, &saved);
	cr_assert_eq(saved.target, NAV_T_NONE);
	widget_home(&td.w);
	go(&td, &saved);
	cr_assert(cur_has(&td, "main"));
	/* bottom-up: its top-level node, open on its callers */
	widget_expand_all(&bu.w, false);
	nav_view_init(&v, PANE_BOTTOMUP);
	v.target = NAV_T_CTREE;
	v.arg = fmix;
	go(&bu, &v);
	cr_assert(cur_has(&bu, "mix_one"));
	cr_assert_eq(bu.w.depth[widget_cursor_row(&bu.w)], 0, "a root of the bottom-up tree");
	cr_assert(widget_is_expanded(&bu.w, widget_cursor_row(&bu.w)));
	cr_assert(row_has(&bu, widget_source(&bu.w, bu.w.cursor + 1), "main"), "its caller below it");
	/* no sample was taken in main: its hottest node among the callers */
	widget_expand_all(&bu.w, false);
	v.arg = fmain;
	go(&bu, &v);
	cr_assert_eq(bu.ops->func(&bu), fmain);
	cr_assert(cur_has(&bu, "74.19%"), "main as mix_one's caller");
	cr_assert_eq(bu.w.depth[widget_cursor_row(&bu.w)], 1);
	/* bottom-up roots: the functions samples were taken in */
	cr_assert(row_has(&bu, widget_source(&bu.w, 0), "mix_one"));
	cr_assert(row_has(&bu, widget_source(&bu.w, 0), "74.19%"));
	/* a function the tree does not have (dropped) */
	scope_xf_push(&sy->scope, CPATH_DROP, fmain);
	v.arg = fmain;
	go(&bu, &v);
	cr_assert_neq(bu.ops->func(&bu), fmain, "not there: the cursor stays");
	scope_xf_truncate(&sy->scope, 0);
	pane_destroy(&td);
	pane_destroy(&bu);
	symbols_free(sy);
	session_close(s);
}

Test(ctree, tab_switches_the_scopes_event)
{
	struct session *s = open_fixture("multi.data");
	struct symbols *sy = resolved(s);
	struct pane p;

	cr_assert_eq(hist_nevents(sy->h), 2);
	tree_pane(&p, PANE_BOTTOMUP, s, sy);
	cr_assert_eq(p.ops->key(&p, ACT_NEXT_EVENT), PANE_HANDLED | PANE_MSG);
	cr_assert_str_eq(p.msg, "event 2 of 2: task-clock");
	cr_assert_eq(sy->scope.ev, 1);
	cr_assert(row_has(&p, widget_source(&p.w, 0), "mix_one"));
	cr_assert(row_has(&p, widget_source(&p.w, 0), "75.00%"), "task-clock's share");
	p.ops->key(&p, ACT_PREV_EVENT);
	cr_assert_eq(sy->scope.ev, 0);
	cr_assert(row_has(&p, widget_source(&p.w, 0), "71.74%"), "cpu-clock's");
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/* a annotates the selected node's function; v lists the samples through the node. */
Test(ctree, annotate_and_samples_through_a_node)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = resolved(s);
	uint32_t fmain = func_named(sy, "main");
	struct pane td, ev;
	struct nav_view v;

	tree_pane(&td, PANE_TOPDOWN, s, sy);
	nav_view_init(&v, PANE_TOPDOWN);
	v.target = NAV_T_CTREE;
	v.arg = fmain;
	go(&td, &v);
	cr_assert_eq(td.ops->func(&td), fmain);
	cr_assert_eq(td.ops->key(&td, ACT_ANNOTATE), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(td.push.pane, PANE_ANNOTATE);
	cr_assert_eq((uint32_t)td.push.arg2, fmain);
	/* main: 146 samples go through it, none is taken in it */
	cr_assert_eq(td.ops->key(&td, ACT_EVENTS), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(td.push.pane, PANE_EVENTS);
	cr_assert_not_null(strstr(td.push.filter, "frame:"));
	cr_assert_eq(pane_create_sym(&ev, PANE_EVENTS, s, NULL, sy), 0);
	go(&ev, &td.push);
	cr_assert_eq(widget_count(&ev.w), 146, "the samples through main: %zu",
	    widget_count(&ev.w));
	pane_destroy(&ev);
	pane_destroy(&td);
	symbols_free(sy);
	session_close(s);
}

/* Every row's function and Children cells, the tree opened whole, into one text. */
static char *
rows_text(struct pane *p)
{
	struct row rf, rc;
	size_t cap = 4096, len = 0;
	char *out = malloc(cap);

	cr_assert_not_null(out);
	out[0] = '\0';
	widget_expand_all(&p->w, true);
	for (size_t i = 0; i < widget_count(&p->w); i++) {
		const char *f = pane_cell(p, &rf, i, "Function"), *c = pane_cell(p, &rc, i, "Children");
		size_t need = strlen(f) + strlen(c) + 4;

		while (len + need >= cap)
			out = realloc(out, cap *= 2);
		len += (size_t)snprintf(out + len, cap - len, "%s %s\n", c, f);
	}
	return out;
}

/* Does the drawn pane show text on some line? */
static bool
drawn(struct pane *p, const char *text)
{
	screen_draw(p, 30, 100);
	for (int y = 0; y < 30; y++)
		if (strstr(screen_line(y), text) != NULL)
			return true;
	return false;
}

/*
 * With the app's steps on, a tree is built a few rows at a time between
 * keys: meanwhile the pane shows how far it is and no row (none of a
 * scope gone), its keys do nothing to rows, a view entered (a function
 * opened in the tree) is applied once it is built, and a new scope
 * starts the build again.  The tree built is the one built at once.
 */
Test(ctree, built_in_steps_between_keys)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = resolved(s);
	uint32_t fmix = func_named(sy, "mix_one"), fmain = func_named(sy, "main");
	struct pane one, p;
	struct nav_view v;
	char *want, *got;

	tree_pane(&one, PANE_TOPDOWN, s, sy);
	want = rows_text(&one);
	pane_destroy(&one);

	sy->steps = 1;	/* a row a step */
	tree_pane(&p, PANE_TOPDOWN, s, sy);
	cr_assert_eq(widget_count(&p.w), 0, "no row before the tree is built");
	cr_assert(drawn(&p, "building the tree, 0% of its rows taken"));
	cr_assert_eq(p.ops->func(&p), CPATH_NONE);
	cr_assert_eq(p.ops->key(&p, ACT_DOWN), PANE_IGNORED);
	nav_view_init(&v, PANE_TOPDOWN);
	v.target = NAV_T_CTREE;
	v.arg = fmix;
	go(&p, &v);	/* applied once built */
	cr_assert_gt(pane_work_out(&p), 2, "built in steps");
	cr_assert_eq(p.ops->work(&p, 0), PANE_WORK_NONE);
	cr_assert(cur_has(&p, "mix_one"), "the view entered while building");
	cr_assert_eq(p.ops->func(&p), fmix);
	got = rows_text(&p);
	cr_assert_str_eq(got, want, "the tree of one build");
	free(got);
	/* a transform half way: the build starts again, for it */
	scope_xf_push(&sy->scope, CPATH_DROP, fmain);
	cr_assert_eq(p.ops->work(&p, 0), PANE_WORK_MORE);
	cr_assert_eq(p.ops->work(&p, 0), PANE_WORK_MORE);
	scope_xf_truncate(&sy->scope, 0);
	scope_xf_push(&sy->scope, CPATH_MERGE, fmain);
	pane_work_out(&p);
	cr_assert_not(any_row_of(&p, fmain), "main merged away");
	cr_assert(any_row_of(&p, fmix));
	scope_xf_truncate(&sy->scope, 0);
	pane_destroy(&p);
	free(want);
	symbols_free(sy);
	session_close(s);
}

/*
 * In steps, new symbols for the same scope rebuild the tree with its
 * rows kept on screen meanwhile (the expansion and cursor the user left,
 * kept after it), where a new scope shows none until its tree is built.
 */
Test(ctree, new_symbols_keep_the_rows_while_built)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s);
	uint32_t fmix;
	struct pane p;

	sy->steps = 1;
	tree_pane(&p, PANE_TOPDOWN, s, sy);
	pane_work_out(&p);
	cr_assert_eq(widget_count(&p.w), 0, "no symbols yet");
	symbols_run(sy);
	pane_work_out(&p);
	cr_assert_eq(widget_count(&p.w), 8);
	widget_goto_row(&p.w, widget_source(&p.w, 1));
	widget_collapse(&p.w);
	cr_assert(widget_search(&p.w, "fill", 1, false));
	sy->gen++;	/* new symbols, the same scope */
	cr_assert_eq(p.ops->work(&p, 0), PANE_WORK_MORE);
	cr_assert_eq(widget_count(&p.w), 6, "the rows shown stay while it is built");
	cr_assert(cur_has(&p, "fill"));
	pane_work_out(&p);
	cr_assert_eq(widget_count(&p.w), 6, "main stays closed");
	cr_assert(cur_has(&p, "fill"), "the cursor on the same path");
	/* a new scope: no row of the old one meanwhile */
	fmix = func_named(sy, "mix_one");
	scope_xf_push(&sy->scope, CPATH_DROP, fmix);
	cr_assert_eq(p.ops->work(&p, 0), PANE_WORK_MORE);
	cr_assert_eq(widget_count(&p.w), 0);
	pane_work_out(&p);
	cr_assert_gt(widget_count(&p.w), 0);
	cr_assert_not(any_row_of(&p, fmix));
	scope_xf_truncate(&sy->scope, 0);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}
