/*
 * Criterion tests of the hot-functions pane over the fixtures, without a
 * terminal: rows, sorting, callers and callees, drilling, zooms, filling
 * in while symbols resolve; the events pane's samples; annotate.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <inttypes.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include <curses.h>

#include "core/core.h"
#include "symbolize/hist.h"
#include "symbolize/symbolizer.h"
#include "symbolize/tasks.h"
#include "tests/helpers.h"
#include "tests/tui_helpers.h"
#include "tui/cmd/cmd.h"
#include "tui/keys.h"
#include "tui/nav.h"
#include "tui/keytab.h"
#include "tui/pane.h"
#include "tui/scope.h"
#include "tui/symbols.h"
#include "tui/theme.h"
#include "tui/widget.h"
/* ---- hot functions ---- */

Test(hot, rows_sort_filter_limit)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p;
	size_t i;

	symbols_run(sy);
	cr_assert(sy->done);
	cr_assert(sy->children, "fp.data has callchains: a Children column");
	hot_pane(&p, s, sy);
	/* perf report's table: 19 rows, children first */
	cr_assert_eq(widget_count(&p.w), 19);
	cr_assert_eq(p.ncols, 6);
	cr_assert_str_eq(p.cols[0].title, "Children");
	cr_assert(row_has(&p, widget_source(&p.w, 0), "__libc_start_call_main"));
	cr_assert(row_has(&p, widget_source(&p.w, 0), "98.92%"));
	i = find_text(&p, "[.] mix_one");
	cr_assert_eq(i, 2, "mix_one third, as perf report");
	cr_assert(row_has(&p, widget_source(&p.w, i), "74.19%"));
	cr_assert(row_has(&p, widget_source(&p.w, i), "138"));
	/* sort by Self: the hottest symbol first; back to perf's order */
	widget_sort(&p.w, 1, true);
	cr_assert(row_has(&p, widget_source(&p.w, 0), "mix_one"));
	widget_sort(&p.w, 2, true);
	cr_assert(row_has(&p, widget_source(&p.w, 0), "mix_one"), "by samples too");
	widget_sort(&p.w, 5, false);
	cr_assert(row_has(&p, widget_source(&p.w, 0), "[.] "), "by symbol text");
	widget_sort(&p.w, -1, false);
	cr_assert(row_has(&p, widget_source(&p.w, 0), "__libc_start_call_main"));
	/* filter and search */
	cr_assert_eq(widget_set_filter(&p.w, "mix", NULL, 0), 0);
	cr_assert_eq(widget_count(&p.w), 2, "mix_one and mix");
	widget_set_filter(&p.w, "", NULL, 0);
	cr_assert_eq(widget_count(&p.w), 19);
	widget_home(&p.w);
	cr_assert(widget_search(&p.w, "reduce", 1, false));
	cr_assert(row_has(&p, widget_cursor_row(&p.w), "[.] reduce"));
	/* percent limit: 0.5 % keeps all, 1 % keeps 6, then 2, 5, none */
	cr_assert_eq(p.ops->key(&p, ACT_PCT_LIMIT), PANE_HANDLED | PANE_MSG);
	cr_assert_eq(widget_count(&p.w), 19);
	p.ops->key(&p, ACT_PCT_LIMIT);
	cr_assert_eq(widget_count(&p.w), 6, "rows of at least 1 %%");
	p.ops->key(&p, ACT_PCT_LIMIT);
	p.ops->key(&p, ACT_PCT_LIMIT);
	cr_assert_eq(widget_count(&p.w), 5, "rows of at least 5 %%");
	p.ops->key(&p, ACT_PCT_LIMIT);
	cr_assert_eq(widget_count(&p.w), 19);
	cr_assert_str_eq(p.msg, "every row shown");
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/* A row of the pane at visible position i (free it). */
static struct row *
row_at(struct pane *p, size_t i)
{
	struct row *r = malloc(sizeof *r);

	cr_assert_not_null(r);
	row_reset(r);
	p->ops->row(p, widget_source(&p->w, i), r);
	return r;
}

/* Put the cursor on visible position i and send a. */
static int
key_at(struct pane *p, size_t i, enum action a)
{
	widget_home(&p->w);
	widget_move(&p->w, (long)i);
	return p->ops->key(p, a);
}

/* perfnav --sort sym --no-children: the columns and rows of those keys only. */
Test(hot, start_options_sort_and_children)
{
	struct session *s = open_fixture("fork.data");
	struct symbols *sy = fixture_symbols(s), *all = fixture_symbols(s);
	struct pane p, q;

	cr_assert_eq(symbols_set_children(sy, false), 0);
	sy->scope.hot_sort = (struct scope_sort){ .keys = { HIST_KEY_SYM }, .n = 1, .keep = HIST_KEEP(HIST_KEY_SYM) };
	symbols_run(sy);
	symbols_run(all);
	cr_expect_eq(symbols_set_children(sy, true), -1, "too late once symbols are in");
	hot_pane(&p, s, sy);
	hot_pane(&q, s, all);
	cr_assert_eq(p.ncols, 3);
	cr_expect_str_eq(p.cols[0].title, "Overhead");
	cr_expect_str_eq(p.cols[1].title, "Samples");
	cr_expect_str_eq(p.cols[2].title, "Symbol");
	/* fork.data's commands share symbols: fewer rows by symbol than by comm,dso,sym */
	cr_expect_lt(widget_count(&p.w), widget_count(&q.w));
	pane_destroy(&p);
	pane_destroy(&q);
	symbols_free(sy);
	symbols_free(all);
	session_close(s);
}

Test(hot, expand_call_paths)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p;
	size_t i;

	symbols_run(sy);
	hot_pane(&p, s, sy);
	/* main: its callees (perf report's caller order with --children), as perf shows them */
	i = find_text(&p, "[.] main");
	cr_assert_eq(i, 1);
	cr_assert_eq(key_at(&p, i, ACT_TOGGLE), PANE_HANDLED);
	cr_assert_eq(widget_count(&p.w), 21);
	cr_assert(row_has(&p, widget_source(&p.w, i + 1), "-> [.] mix_one"));
	cr_assert(row_has(&p, widget_source(&p.w, i + 1), "74.19%"));
	cr_assert(row_has(&p, widget_source(&p.w, i + 1), "138"));
	cr_assert(row_has(&p, widget_source(&p.w, i + 2), "-> [.] mix"));
	cr_assert(row_has(&p, widget_source(&p.w, i + 2), "4.30%"));
	cr_assert(row_has(&p, widget_cursor_row(&p.w), "[.] main"), "the cursor stays");
	/* p: percentages of main's own total: 138 and 8 of its 146 samples */
	cr_assert_eq(p.ops->key(&p, ACT_CALL_PERCENT), PANE_HANDLED | PANE_MSG);
	cr_assert(row_has(&p, widget_source(&p.w, i + 1), "94.52%"));
	cr_assert(row_has(&p, widget_source(&p.w, i + 2), "5.48%"));
	p.ops->key(&p, ACT_CALL_PERCENT);
	cr_assert(row_has(&p, widget_source(&p.w, i + 1), "74.19%"), "p again: of the event");
	/* mix_one calls nothing; b: its callers, each level the samples of its path */
	i = 4;	/* below main's two callees */
	cr_assert(row_has(&p, widget_source(&p.w, i), "[.] mix_one"));
	cr_assert_not(row_has(&p, widget_source(&p.w, i), "-> "));
	key_at(&p, i, ACT_TOGGLE);
	cr_assert(row_has(&p, widget_source(&p.w, i + 1), "(no callees; b: callers)"));
	cr_assert_eq(p.ops->key(&p, ACT_CALL_ORDER), PANE_HANDLED | PANE_MSG);
	cr_assert(row_has(&p, widget_cursor_row(&p.w), "[.] mix_one"), "on the symbol's row");
	i = p.w.cursor;
	cr_assert_eq(i, 3, "main has one caller");
	cr_assert(row_has(&p, widget_source(&p.w, i + 1), "<- [.] main"));
	cr_assert(row_has(&p, widget_source(&p.w, i + 1), "74.19%"));
	cr_assert_eq(find_text(&p, "-> [.] mix_one"), WIDGET_NONE, "main's rows in caller order");
	cr_assert_neq(find_text(&p, "<- [.] __libc_start_call_main"), WIDGET_NONE,
	    "main's caller");
	/* main's own callers on mix_one's path, one level further: 138 samples, not 146 */
	key_at(&p, i + 1, ACT_TOGGLE);
	cr_assert(row_has(&p, widget_source(&p.w, i + 2), "<- [.] __libc_start_call_main"));
	cr_assert(row_has(&p, widget_source(&p.w, i + 2), "138"));
	cr_assert_not(row_has(&p, widget_source(&p.w, i + 2), "146"));
	/* c on a leaf closes its parent; C closes everything */
	key_at(&p, i + 2, ACT_COLLAPSE);
	cr_assert(row_has(&p, widget_cursor_row(&p.w), "<- [.] main"));
	p.ops->key(&p, ACT_COLLAPSE_ALL);
	cr_assert_eq(widget_count(&p.w), 19);
	cr_assert(row_has(&p, widget_cursor_row(&p.w), "mix_one"), "back on its root row");
	/* e: every level below (callees again) */
	p.ops->key(&p, ACT_CALL_ORDER);
	key_at(&p, 0, ACT_EXPAND);
	cr_assert(row_has(&p, widget_source(&p.w, 1), "-> [.] main"));
	cr_assert(row_has(&p, widget_source(&p.w, 2), "-> [.] mix_one"));
	cr_assert(row_has(&p, widget_source(&p.w, 2), "138"));
	cr_assert_eq(find_text(&p, "..."), WIDGET_NONE, "nothing left closed");
	/* E: every row's first level */
	p.ops->key(&p, ACT_EXPAND_ALL);
	cr_assert_gt(widget_count(&p.w), 19 * 2);
	p.ops->key(&p, ACT_COLLAPSE_ALL);
	cr_assert_eq(widget_count(&p.w), 19);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/* Open every row of the pane with e, all the way down. */
static void
expand_every_row(struct pane *p)
{
	for (size_t i = 0; i < widget_count(&p->w); i++) {
		struct row *r = row_at(p, i);
		bool root = r->depth == 0;

		free(r);
		if (root)
			key_at(p, i, ACT_EXPAND);
	}
}

struct level {
	uint64_t	 samples, sum;
	double		 pct;
};

/*
 * Walk the pane's rows (every row expanded): no call-path level counts
 * more samples or a larger share than the one above it, nor do the levels
 * below one, together; the first level sums to at most its row's children
 * (the rows are the hist's, merged as the pane merges them).  Returns the
 * call-path rows seen.
 */
static size_t
check_levels(struct pane *p, struct symbols *sy, size_t ev, const char *what)
{
	const struct hist_entry *const *m;
	unsigned keep = HIST_KEEP(HIST_KEY_COMM) | HIST_KEEP(HIST_KEY_DSO) | HIST_KEEP(HIST_KEY_SYM);
	size_t nent = hist_rows_merged(sy->h, ev, NULL, keep, 0, &m), k = 0, top = 0, paths = 0;
	struct level lv[260];

	for (size_t i = 0; i <= widget_count(&p->w); i++) {
		struct row *r = i < widget_count(&p->w) ? row_at(p, i) : NULL;
		size_t d = r ? r->depth : 0;

		for (; top > d; top--)
			cr_assert_leq(lv[top - 1].sum, lv[top - 1].samples,
			    "%s row %zu: the levels below one sum to more than it", what, i);
		if (r == NULL)
			break;
		cr_assert_leq(d, top, "%s: no level skipped", what);
		memset(&lv[d], 0, sizeof lv[d]);
		if (d == 0) {
			cr_assert_lt(k, nent, "%s", what);
			lv[0].samples = m[k]->acc_samples;
			lv[0].pct = hist_children_pct(sy->h, m[k]);
			k++;
		} else if (r->col[2] != NULL) {
			cr_assert(strncmp(r->col[5], "<- ", 3) == 0 || strncmp(r->col[5], "-> ", 3) == 0,
			    "%s row %zu: %s", what, i, r->col[5]);
			lv[d].samples = strtoull(r->col[2], NULL, 10);
			lv[d].pct = strtod(r->col[0], NULL);
			cr_assert_gt(lv[d].samples, 0, "%s row %zu", what, i);
			cr_assert_leq(lv[d].samples, lv[d - 1].samples,
			    "%s row %zu (%s): %" PRIu64 " samples under %" PRIu64, what, i, r->col[5],
			    lv[d].samples, lv[d - 1].samples);
			cr_assert_leq(lv[d].pct, lv[d - 1].pct + 0.0051, "%s row %zu", what, i);
			lv[d - 1].sum += lv[d].samples;
			paths++;
		} else {
			cr_assert(strncmp(r->col[5], "(no ", 4) == 0, "%s row %zu: %s is no placeholder "
			    "left closed", what, i, r->col[5]);
		}
		top = d + 1;
		free(r);
	}
	cr_assert_eq(k, nent, "%s: every row of the table", what);
	return paths;
}

/* Over every fixture with callchains, every event, both orders, every expansion. */
Test(hot, call_paths_never_exceed_their_parents, .timeout = 120)
{
	static const char *const fx[] = { "fp.data", "dwarf.data", "zstd.data", "fork.data",
		"pipe.data", "dir.data" };

	for (size_t f = 0; f < sizeof fx / sizeof *fx; f++) {
		struct session *s = open_fixture(fx[f]);
		struct symbols *sy = fixture_symbols(s);
		struct pane p;
		char what[64];

		symbols_run(sy);
		cr_assert(sy->children, "%s has callchains", fx[f]);
		hot_pane(&p, s, sy);
		for (size_t ev = 0; ev < hist_nevents(sy->h); ev++) {
			for (int callers = 0; callers < 2; callers++) {
				snprintf(what, sizeof what, "%s event %zu %s", fx[f], ev,
				    callers ? "callers" : "callees");
				expand_every_row(&p);
				cr_assert_gt(check_levels(&p, sy, ev, what), 0, "%s: call paths", what);
				p.ops->key(&p, ACT_COLLAPSE_ALL);
				p.ops->key(&p, ACT_CALL_ORDER);
			}
			p.ops->key(&p, ACT_NEXT_EVENT);
		}
		pane_destroy(&p);
		symbols_free(sy);
		session_close(s);
	}
}

/*
 * The rows with self samples (a DSO zoom keeps their callers' rows, with
 * children only): their count, and their self samples summed into *self;
 * each of them in DSO dso.
 */
static size_t
dso_self_sum(struct pane *p, const char *dso, uint64_t *self)
{
	size_t n = 0;

	*self = 0;
	for (size_t k = 0; k < widget_count(&p->w); k++) {
		struct row *r = row_at(p, k);
		uint64_t v = strtoull(r->col[2], NULL, 10);

		if (v > 0) {
			cr_expect_str_eq(r->col[4], dso, "row %zu", k);
			*self += v;
			n++;
		}
		free(r);
	}
	return n;
}

Test(hot, drill_zoom_and_samples)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p, ev;
	struct nav_view root, dso;
	size_t i;
	uint64_t self = 0;

	symbols_run(sy);
	hot_pane(&p, s, sy);
	i = find_text(&p, "[.] mix_one");
	widget_move(&p.w, (long)i);
	/* Enter: the samples of the symbol, as an event list */
	cr_assert_eq(p.ops->key(&p, ACT_ENTER), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(p.push.pane, PANE_EVENTS);
	cr_assert_not_null(strstr(p.push.filter, "sym:mix_one"), "%s", p.push.filter);
	cr_assert_eq(pane_create_sym(&ev, PANE_EVENTS, s, NULL, sy), 0);
	go(&ev, &p.push);
	cr_assert_eq(widget_count(&ev.w), 138, "mix_one's 138 samples");
	cr_assert(row_has(&ev, widget_cursor_row(&ev.w), "PERF_RECORD_SAMPLE"));
	cr_assert_eq(ev.ops->key(&ev, ACT_HEX), PANE_HANDLED | PANE_PUSH, "x: its hex view");
	cr_assert_eq(ev.push.target, NAV_T_RECORD);
	cr_assert_neq(widget_set_filter(&ev.w, "sym:no_such_function", NULL, 0), 0);
	cr_assert_eq(widget_set_filter(&ev.w, "type:SAMPLE dso:cpu", NULL, 0), 0);
	cr_assert_eq(widget_count(&ev.w), 184, "the samples in the binary");
	pane_destroy(&ev);
	/* Enter on a symbol without samples of its own: a message */
	widget_home(&p.w);
	cr_assert_eq(p.ops->key(&p, ACT_ENTER), PANE_HANDLED | PANE_MSG);
	/* d: zoom into the DSO of the row */
	p.ops->save(&p, &root);
	widget_move(&p.w, (long)i);
	cr_assert_eq(p.ops->key(&p, ACT_ZOOM_DSO), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(p.push.target, NAV_T_ZOOM, "a zoom step of the scope");
	cr_assert_eq(p.push.arg, SZ_DSO);
	dso = p.push;
	go(&p, &dso);
	/* the samples whose own address is in cpu (perf's --dsos): 184, their rows' self */
	cr_assert_eq(dso_self_sum(&p, "cpu", &self), 4, "mix_one, fill, reduce, mix (main and "
	    "libc's __libc_start_call_main: children only)");
	cr_assert_neq(find_text(&p, "__libc_start_call_main"), WIDGET_NONE, "as top --dsos cpu");
	cr_assert_eq(self, 184, "%llu", (unsigned long long)self);
	cr_assert_eq(scope_depth(&sy->scope), 1);
	widget_home(&p.w);
	widget_move(&p.w, (long)find_text(&p, "[.] mix_one"));
	cr_assert_eq(p.ops->key(&p, ACT_ZOOM_DSO), PANE_HANDLED | PANE_PUSH);
	go(&p, &p.push);
	cr_assert_eq(scope_depth(&sy->scope), 1, "d again: the scope has it, no step");
	/* Esc: the step undone; s: the DSOs; Enter on one: its symbols */
	cr_assert(scope_undo(&sy->scope));
	cr_assert_eq(symbols_apply_scope(sy), 0);
	self = 0;
	go(&p, &root);
	cr_assert_eq(widget_count(&p.w), 19, "back: the whole table");
	cr_assert_eq(p.ops->key(&p, ACT_DSOS), PANE_HANDLED | PANE_PUSH);
	go(&p, &p.push);
	cr_assert_eq(widget_count(&p.w), 3, "cpu, kernel, libc (ld.so: no samples of its own)");
	cr_assert(row_has(&p, widget_source(&p.w, 0), "/tmp/perfnav-fixtures/cpu"));
	cr_assert_eq(p.ops->key(&p, ACT_ENTER), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(p.push.target, NAV_T_ZOOM);
	cr_assert_eq(p.push.arg, SZ_DSO);
	go(&p, &p.push);
	cr_assert_eq(dso_self_sum(&p, "cpu", &self), 4);
	cr_assert(scope_undo(&sy->scope));
	cr_assert_eq(symbols_apply_scope(sy), 0);
	self = 0;
	/* t: the thread of the row */
	go(&p, &root);
	widget_move(&p.w, (long)i);
	cr_assert_eq(p.ops->key(&p, ACT_ZOOM_THREAD), PANE_HANDLED | PANE_PUSH | PANE_MSG);
	cr_assert_not_null(strstr(p.msg, "busiest thread"), "a row of several threads: says which: %s", p.msg);
	cr_assert_eq(p.push.arg, SZ_TID);
	cr_assert_not_null(strstr(p.push.label, "thread 25671"), "%s", p.push.label);
	go(&p, &p.push);
	for (size_t k = 0; k < widget_count(&p.w); k++) {
		struct row *r = malloc(sizeof *r);

		row_reset(r);
		p.ops->row(&p, widget_source(&p.w, k), r);
		self += strtoull(r->col[2], NULL, 10);
		free(r);
	}
	cr_assert_eq(self, 186, "every sample is that thread's");
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/*
 * s lists the DSOs by their Overhead (self), descending, equal ones by
 * name, and none without samples of its own in the event (or zoom).
 */
static void
check_dso_list(const char *fixture, size_t ev, const char *const *want, size_t nwant)
{
	struct session *s = open_fixture(fixture);
	struct symbols *sy = fixture_symbols(s);
	struct pane p;
	double last = 101;
	char lastname[256] = "";

	symbols_run(sy);
	sy->scope.ev = ev;
	hot_pane(&p, s, sy);
	cr_assert_eq(p.ops->key(&p, ACT_DSOS), PANE_HANDLED | PANE_PUSH);
	go(&p, &p.push);
	cr_assert_str_eq(p.cols[0].title, "Overhead");
	cr_assert_str_eq(p.cols[2].title, "Shared Object");
	cr_assert_gt(widget_count(&p.w), 0, "%s", fixture);
	for (size_t i = 0; i < widget_count(&p.w); i++) {
		struct row *r = row_at(&p, i);
		double pc = strtod(r->col[0], NULL);

		cr_assert_gt(strtoull(r->col[1], NULL, 10), 0, "%s: %s has samples", fixture, r->col[2]);
		cr_assert_leq(pc, last, "%s ev %zu: %s after %s", fixture, ev, r->col[2], lastname);
		if (pc == last)
			cr_assert_lt(strcmp(lastname, r->col[2]), 0, "%s: ties by name", fixture);
		if (i < nwant)
			cr_assert_str_eq(r->col[2], want[i], "%s ev %zu row %zu", fixture, ev, i);
		last = pc;
		snprintf(lastname, sizeof lastname, "%s", r->col[2]);
		free(r);
	}
	if (nwant > 0)
		cr_assert_eq(widget_count(&p.w), nwant, "%s ev %zu", fixture, ev);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

Test(hot, dso_list_by_overhead)
{
	/* perf report --no-children --sort dso: 98.92% cpu, 0.54% each of the others */
	static const char *const fp[] = { "cpu", "[kernel.kallsyms]", "libc.so.6" };

	check_dso_list("fp.data", 0, fp, 3);
	check_dso_list("fork.data", 0, NULL, 0);
	check_dso_list("multi.data", 0, NULL, 0);
	check_dso_list("multi.data", 1, NULL, 0);
	check_dso_list("dwarf.data", 0, NULL, 0);
}

/* Rows fill in while symbols are resolved in slices, and end as if at once. */
Test(hot, fills_in_incrementally)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s), *all = fixture_symbols(s);
	struct pane p, q;
	size_t prev = 0, steps = 0;
	bool partial = false;

	hot_pane(&p, s, sy);
	cr_assert_eq(widget_count(&p.w), 0, "nothing before symbols");
	cr_assert_eq(p.ops->key(&p, ACT_ENTER), PANE_HANDLED, "no row: nothing to drill");
	while (!symbols_step(sy, 0, 16)) {
		steps++;
		symbols_peek(sy);
		p.ops->key(&p, ACT_NONE);	/* a key: the pane takes the new rows */
		cr_assert_geq(widget_count(&p.w), prev, "rows only come in");
		prev = widget_count(&p.w);
		if (prev > 0 && prev < 19)
			partial = true;
		cr_assert_lt(symbols_progress(sy), 1.0);
	}
	cr_assert_gt(steps, 5);
	cr_assert(partial, "some rows before the end");
	p.ops->key(&p, ACT_NONE);
	symbols_run(all);
	hot_pane(&q, s, all);
	cr_assert_eq(widget_count(&p.w), widget_count(&q.w));
	for (size_t i = 0; i < widget_count(&p.w); i++) {
		struct row *a = malloc(sizeof *a), *b = malloc(sizeof *b);

		row_reset(a);
		row_reset(b);
		p.ops->row(&p, widget_source(&p.w, i), a);
		q.ops->row(&q, widget_source(&q.w, i), b);
		for (int c = 0; c < p.ncols; c++)
			cr_assert_str_eq(a->col[c] ? a->col[c] : "", b->col[c] ? b->col[c] : "",
			    "row %zu col %d", i, c);
		free(a);
		free(b);
	}
	cr_assert_eq(symbols_progress(sy), 1.0);
	pane_destroy(&p);
	pane_destroy(&q);
	symbols_free(sy);
	symbols_free(all);
	session_close(s);
}

/*
 * A recording with branch stacks: s from the DSOs opens the branch table,
 * perf report's branch mode with its default keys (tests/cli.sh compares
 * perfnav top's rows with perf's on branch.data); s again goes back.
 */
Test(hot, branch_table)
{
	struct session *s = open_fixture("branch.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p;
	struct nav_view root;
	size_t i;

	symbols_run(sy);
	hot_pane(&p, s, sy);
	p.ops->save(&p, &root);
	cr_assert_eq(widget_count(&p.w), 7, "the targets: %zu", widget_count(&p.w));
	cr_assert_eq(p.ops->key(&p, ACT_DSOS), PANE_HANDLED | PANE_PUSH);
	go(&p, &p.push);
	cr_assert_not_null(strstr(p.ops->help(&p), "s:branches"));
	cr_assert_eq(p.ops->key(&p, ACT_DSOS), PANE_HANDLED);
	cr_assert_not_null(sy->kt_branch, "the table is built off this thread");
	keytab_wait(sy->kt_branch);
	p.ops->key(&p, ACT_NONE);	/* the pane takes it once in */
	cr_assert_eq(p.ncols, 7);
	cr_assert_str_eq(p.cols[4].title, "Source Symbol");
	cr_assert_str_eq(p.cols[5].title, "Target Symbol");
	cr_assert_eq(widget_count(&p.w), 8, "perf's 8 rows: %zu", widget_count(&p.w));
	cr_assert(row_has(&p, widget_source(&p.w, 0), "22.22%"));
	cr_assert(row_has(&p, widget_source(&p.w, 0), "[.] 0x0000000000000100"));
	cr_assert(row_has(&p, widget_source(&p.w, 0), "[.] 0x0000000000000200"));
	i = find_text(&p, "[H] 0xffffffff81000010");
	cr_assert_neq(i, WIDGET_NONE, "an unmapped source: [H]");
	cr_assert(row_has(&p, widget_source(&p.w, i), "[unknown]"));
	cr_assert_eq(p.ops->key(&p, ACT_ENTER), PANE_IGNORED, "a flat table");
	cr_assert_eq(p.ops->key(&p, ACT_DSOS), PANE_HANDLED | PANE_BACK);
	go(&p, &root);
	cr_assert_eq(p.ncols, 5);
	cr_assert_eq(widget_count(&p.w), 7);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

Test(hot, tab_switches_events)
{
	struct session *s = open_fixture("multi.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p;

	symbols_run(sy);
	cr_assert_not(sy->children, "no callchains: one Overhead column");
	hot_pane(&p, s, sy);
	cr_assert_str_eq(p.cols[0].title, "Overhead");
	cr_assert(row_has(&p, widget_source(&p.w, 0), "71.74%"), "cpu-clock's first row");
	cr_assert_eq(p.ops->key(&p, ACT_NEXT_EVENT), PANE_HANDLED | PANE_MSG);
	cr_assert_str_eq(p.msg, "event 2 of 2: task-clock");
	cr_assert(row_has(&p, widget_source(&p.w, 0), "75.00%"), "task-clock's first row");
	p.ops->key(&p, ACT_NEXT_EVENT);
	cr_assert_str_eq(p.msg, "event 1 of 2: cpu-clock");
	p.ops->key(&p, ACT_PREV_EVENT);
	cr_assert_str_eq(p.msg, "event 2 of 2: task-clock");
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/* processes -> a thread -> its hot functions */
Test(hot, process_thread_hot_functions)
{
	struct session *s = open_fixture("pipe.data");
	const struct thread_table *tt = session_threads(s);
	struct symbols *sy = fixture_symbols(s);
	struct pane pr, p;
	struct nav_view v;
	uint64_t self = 0;
	const struct pn_thread *th = NULL;

	symbols_run(sy);
	cr_assert_eq(pane_create_sym(&pr, PANE_PROCS, s, NULL, sy), 0);
	cr_assert_eq(pr.ops->key(&pr, ACT_ENTER), PANE_HANDLED | PANE_PUSH);
	v = pr.push;
	pr.ops->enter(&pr, &v);
	/* Enter on the process we are in: the scope zoomed into the process */
	cr_assert_eq(pr.ops->key(&pr, ACT_ENTER), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(pr.push.target, NAV_T_ZOOM);
	cr_assert_eq(pr.push.arg, SZ_PID);
	widget_move(&pr.w, 2);
	cr_assert_eq(pr.ops->key(&pr, ACT_ENTER), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(pr.push.pane, PANE_HOT);
	cr_assert_eq(pr.push.arg, SZ_TID);
	for (size_t i = 0; i < tt->n; i++)
		if (tt->v[i].tid == (int32_t)(uint32_t)pr.push.arg2)
			th = &tt->v[i];
	cr_assert_not_null(th);
	cr_assert_gt(th->samples, 0);
	cr_assert_eq(pane_create_sym(&p, PANE_HOT, s, NULL, sy), 0);
	go(&p, &pr.push);
	cr_assert_gt(widget_count(&p.w), 0);
	for (size_t k = 0; k < widget_count(&p.w); k++) {
		struct row *r = malloc(sizeof *r);

		row_reset(r);
		p.ops->row(&p, widget_source(&p.w, k), r);
		self += strtoull(r->col[sy->children ? 2 : 1], NULL, 10);
		free(r);
	}
	cr_assert_eq(self, th->samples, "the rows are that thread's samples");
	pane_destroy(&p);
	pane_destroy(&pr);
	symbols_free(sy);
	session_close(s);
}

/*
 * Expand row i's call paths (callers or callees, as the pane is set) one
 * level: their count and summed samples; everything is closed again after.
 */
static uint64_t
paths_samples(struct pane *p, size_t i, size_t *n)
{
	uint64_t sum = 0;
	size_t k;

	*n = 0;
	key_at(p, i, ACT_TOGGLE);
	for (k = i + 1; k < widget_count(&p->w); k++) {
		struct row *r = row_at(p, k);
		bool level = r->depth == 1 && r->col[2] != NULL;

		if (level)
			sum += strtoull(r->col[2], NULL, 10);
		free(r);
		if (!level)
			break;
		(*n)++;
	}
	p->ops->key(p, ACT_COLLAPSE_ALL);
	return sum;
}

/* The samples through node (children) in the whole event or one thread. */
static uint64_t
node_samples(struct symbols *sy, uint32_t node, bool by_tid, int32_t tid)
{
	struct hist_select sel;
	const struct hist_entry *const *m;

	memset(&sel, 0, sizeof sel);
	sel.by_node = true;
	sel.node = node;
	sel.by_tid = by_tid;
	sel.tid = tid;
	cr_assert_eq(hist_rows_merged(sy->h, 0, &sel, 0, 0, &m), 1);
	return m[0]->acc_samples;
}

static uint32_t
node_named(struct symbols *sy, const char *label)
{
	for (uint32_t k = 0; k < hist_nnodes(sy->h); k++)
		if (strcmp(hist_str(sy->h, hist_node_get(sy->h, k)->label), label) == 0)
			return k;
	cr_assert_fail("no node %s", label);
	return UINT32_MAX;
}

/*
 * t: call paths are those of the thread's samples.  pipe.data's threads
 * each run one worker_* from start_thread: in the whole event start_thread
 * calls all three, in a thread's zoom only that thread's.
 */
Test(hot, thread_zoom_call_paths_are_the_threads)
{
	struct session *s = open_fixture("pipe.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p;
	uint32_t st, wm;
	int32_t tid;
	size_t i, n;
	uint64_t sum, whole, whole_st;

	symbols_run(sy);
	cr_assert(sy->children);
	st = node_named(sy, "[.] start_thread");
	wm = node_named(sy, "[.] worker_mul");
	hot_pane(&p, s, sy);
	/* the whole event: start_thread calls every worker */
	i = find_text(&p, "[.] start_thread");
	cr_assert_neq(i, WIDGET_NONE);
	sum = paths_samples(&p, i, &n);
	cr_assert_geq(n, 3, "worker_mul, worker_div, worker_add: %zu", n);
	whole = sum;
	whole_st = node_samples(sy, st, false, 0);
	cr_assert_leq(whole, whole_st);
	/* t on worker_mul: its thread */
	i = find_text(&p, "[.] worker_mul");
	cr_assert_eq(key_at(&p, i, ACT_ZOOM_THREAD), PANE_HANDLED | PANE_PUSH | PANE_MSG);
	tid = (int32_t)(uint32_t)p.push.arg2;
	go(&p, &p.push);
	i = find_text(&p, "[.] start_thread");
	cr_assert_neq(i, WIDGET_NONE);
	sum = paths_samples(&p, i, &n);
	cr_assert_eq(n, 1, "only worker_mul");
	cr_assert(node_samples(sy, st, true, tid) < whole_st);
	cr_assert_eq(node_samples(sy, st, false, 0), node_samples(sy, st, true, tid),
	    "the counts are the zoom's");
	cr_assert_lt(sum, whole, "not the whole event's");
	cr_assert_eq(sum, node_samples(sy, wm, true, tid), "the thread's share: %llu",
	    (unsigned long long)sum);
	cr_assert_eq(sum, node_samples(sy, st, true, tid), "every sample of the thread");
	/* worker_mul's callers: start_thread, with the thread's samples */
	p.ops->key(&p, ACT_CALL_ORDER);
	i = find_text(&p, "[.] worker_mul");
	sum = paths_samples(&p, i, &n);
	cr_assert_eq(n, 1);
	cr_assert_eq(sum, node_samples(sy, wm, true, tid));
	cr_assert(row_has(&p, widget_source(&p.w, i), "worker_mul"));
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/* The events list shows a sample's symbol before the symbols pass has
 * reached it: resolved for the row asked for. */
Test(events, sample_rows_resolve_before_the_pass)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane ev;
	struct nav_view v;
	size_t found = 0, samples = 0;

	cr_assert_eq(sy->pos, 0, "nothing resolved yet");
	cr_assert_eq(pane_create_sym(&ev, PANE_EVENTS, s, NULL, sy), 0);
	nav_view_init(&v, PANE_EVENTS);
	ev.ops->enter(&ev, &v);
	for (size_t i = widget_count(&ev.w); i-- > 0;) {
		size_t src = widget_source(&ev.w, i);

		if (ent_type(index_ent(session_index(s), src)) != PF_REC_SAMPLE)
			continue;
		samples++;
		/* the last samples first: the pass would reach them last */
		if (row_has(&ev, src, "mix_one+0x") && row_has(&ev, src, " (cpu)  PERF_RECORD_SAMPLE("))
			found++;
		if (samples == 40)
			break;
	}
	cr_expect_eq(sy->pos, 0, "the pass did not run");
	cr_expect_gt(found, 10, "%zu of the last %zu samples are in mix_one", found, samples);
	/* symoff: takes an offset, never a signed one */
	cr_expect_neq(widget_set_filter(&ev.w, "symoff:-1", NULL, 0), 0);
	cr_expect_neq(widget_set_filter(&ev.w, "symoff:+4", NULL, 0), 0);
	cr_expect_eq(widget_set_filter(&ev.w, "symoff:0x14", NULL, 0), 0);
	pane_destroy(&ev);
	symbols_free(sy);
	session_close(s);
}

/*
 * A sample's stack in the events pane (frames equal perfnav script's:
 * test_panes.c): on a frame, Enter opens its function's row in the hot
 * functions, a its annotate view, of the sample's event.
 */
Test(events, stack_frames_open_hot_functions_and_annotate)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane ev, hot, an;
	struct nav_view v;
	uint64_t sum = 0;

	symbols_run(sy);
	cr_assert_eq(pane_create_sym(&ev, PANE_EVENTS, s, NULL, sy), 0);
	nav_view_init(&v, PANE_EVENTS);
	snprintf(v.filter, sizeof v.filter, "type:SAMPLE sym:mix_one");
	go(&ev, &v);
	cr_assert_eq(widget_count(&ev.w), 138);
	cr_assert_eq(ev.ops->key(&ev, ACT_ANNOTATE), PANE_HANDLED | PANE_MSG, "a on a sample");
	cr_assert_eq(ev.ops->key(&ev, ACT_TOGGLE), PANE_HANDLED);
	cr_assert(row_has(&ev, widget_source(&ev.w, 1), "mix_one+0x"));
	cr_assert(row_has(&ev, widget_source(&ev.w, 1), "(/tmp/perfnav-fixtures/cpu)"));
	cr_assert(row_has(&ev, widget_source(&ev.w, 2), "main+0x"));
	/* Enter on the main frame: the hot functions, on main's row */
	widget_move(&ev.w, 2);
	cr_assert_eq(ev.ops->key(&ev, ACT_ENTER), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(ev.push.pane, PANE_HOT);
	cr_assert_eq(ev.push.target, NAV_T_HOT);
	cr_assert_eq(ev.push.arg, 0, "no zoom");
	hot_pane(&hot, s, sy);
	go(&hot, &ev.push);
	cr_assert(row_has(&hot, widget_cursor_row(&hot.w), "[.] main"));
	cr_assert_eq(hot.w.cursor, 1);
	/* a on the mix_one frame: its annotate view, every sample of the event */
	widget_move(&ev.w, -1);
	cr_assert_eq(ev.ops->key(&ev, ACT_ANNOTATE), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(ev.push.pane, PANE_ANNOTATE);
	cr_assert_eq(ev.push.arg2, node_named(sy, "[.] mix_one"));
	cr_assert_eq(pane_create_sym(&an, PANE_ANNOTATE, s, NULL, sy), 0);
	go(&an, &ev.push);
	for (size_t k = 0; k < widget_count(&an.w); k++) {
		struct row r;
		unsigned long n;

		row_reset(&r);
		an.ops->row(&an, widget_source(&an.w, k), &r);
		if (r.col[1] != NULL && sscanf(r.col[1], "%lu", &n) == 1)
			sum += n;
	}
	cr_assert_eq(sum, 138, "mix_one's 138 samples");
	/* Enter on the mix_one frame: its row */
	cr_assert_eq(ev.ops->key(&ev, ACT_ENTER), PANE_HANDLED | PANE_PUSH);
	go(&hot, &ev.push);
	cr_assert(row_has(&hot, widget_cursor_row(&hot.w), "[.] mix_one"));
	cr_assert_eq(hot.w.cursor, 2);
	pane_destroy(&an);
	pane_destroy(&hot);
	pane_destroy(&ev);
	symbols_free(sy);
	session_close(s);
}

/* a on a symbol: its instructions, opened on the hottest, the samples all
 * credited; in a thread zoom only its samples; a on no symbol: a message. */
Test(annotate, from_hot_functions)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p, an;
	size_t i, hot;
	uint64_t sum = 0, best = 0;

	symbols_run(sy);
	hot_pane(&p, s, sy);
	i = find_text(&p, "[.] mix_one");
	cr_assert_neq(i, WIDGET_NONE);
	widget_move(&p.w, (long)i);
	cr_assert_eq(p.ops->key(&p, ACT_ANNOTATE), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(p.push.pane, PANE_ANNOTATE);
	cr_assert_eq(pane_create_sym(&an, PANE_ANNOTATE, s, NULL, sy), 0);
	go(&an, &p.push);
	cr_assert_gt(widget_count(&an.w), 5);
	for (size_t k = 0; k < widget_count(&an.w); k++) {
		struct row r;
		unsigned long n;

		row_reset(&r);
		an.ops->row(&an, widget_source(&an.w, k), &r);
		if (r.col[1] == NULL || sscanf(r.col[1], "%lu", &n) != 1)
			continue;	/* a source row */
		sum += n;
		if (n > best)
			best = n;
	}
	cr_expect_eq(sum, 138, "mix_one's 138 samples on its instructions");
	hot = widget_cursor_row(&an.w);
	cr_expect(row_has(&an, hot, "1188"), "the cursor on the hottest instruction");
	{
		struct row r;

		row_reset(&r);
		an.ops->row(&an, hot, &r);
		cr_expect_eq(strtoul(r.col[1], NULL, 10), best);
	}
	/* Enter on it: its samples, as an event list */
	{
		struct pane ev;

		cr_assert_eq(an.ops->key(&an, ACT_ENTER), PANE_HANDLED | PANE_PUSH);
		cr_assert_eq(an.push.pane, PANE_EVENTS);
		cr_expect(strstr(an.push.filter, "symoff:0x") != NULL, "%s", an.push.filter);
		cr_assert_eq(pane_create_sym(&ev, PANE_EVENTS, s, NULL, sy), 0);
		go(&ev, &an.push);
		cr_expect_eq(widget_count(&ev.w), best, "the %lu samples at that instruction: %s",
		    (unsigned long)best, an.push.filter);
		for (size_t k = 0; k < widget_count(&ev.w); k++)
			cr_expect(row_has(&ev, widget_source(&ev.w, k), "mix_one+0x14 (cpu)"));
		pane_destroy(&ev);
	}
	/* n (next-hot in annotate's map): the next instruction with samples */
	cr_expect_eq(an.ops->key(&an, ACT_NEXT_HOT), PANE_HANDLED);
	cr_expect_neq(widget_cursor_row(&an.w), hot);
	cr_expect_eq(an.ops->key(&an, ACT_ANNOTATE), PANE_HANDLED | PANE_BACK, "a again: back");
	pane_destroy(&an);
	/* a row without a symbol of its own to disassemble: a message, no view */
	widget_home(&p.w);
	for (i = 0; i < widget_count(&p.w) && !row_has(&p, widget_source(&p.w, i), "[k] 0x"); i++)
		;
	if (i < widget_count(&p.w)) {
		widget_home(&p.w);
		widget_move(&p.w, (long)i);
		cr_expect_eq(p.ops->key(&p, ACT_ANNOTATE), PANE_HANDLED | PANE_MSG);
	}
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/* Every row of an annotate pane's annotation, filtered or not. */
static size_t
annot_nrows_all(struct pane *an)
{
	return an->ops->nrows(an);
}

/* The hottest instruction's sample count in an annotate pane. */
static uint64_t
annot_best(struct pane *an)
{
	uint64_t best = 0;

	for (size_t k = 0; k < widget_count(&an->w); k++) {
		struct row r;
		unsigned long n;

		row_reset(&r);
		an->ops->row(an, widget_source(&an->w, k), &r);
		if (r.col[1] != NULL && sscanf(r.col[1], "%lu", &n) == 1 && n > best)
			best = n;
	}
	return best;
}

/* Two events: annotate counts one, and Enter on an instruction lists that
 * event's samples there, not the other event's too. */
Test(annotate, samples_at_of_the_event_annotated)
{
	struct session *s = open_fixture("multi.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p, an, ev;
	size_t i;
	uint64_t best;

	symbols_run(sy);
	hot_pane(&p, s, sy);
	p.ops->key(&p, ACT_NEXT_EVENT);
	cr_assert_str_eq(p.msg, "event 2 of 2: task-clock");
	i = find_text(&p, "[.] mix_one");
	cr_assert_neq(i, WIDGET_NONE);
	widget_move(&p.w, (long)i);
	cr_assert_eq(p.ops->key(&p, ACT_ANNOTATE), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(pane_create_sym(&an, PANE_ANNOTATE, s, NULL, sy), 0);
	go(&an, &p.push);
	best = annot_best(&an);
	cr_assert_gt(best, 0);
	cr_assert_eq(an.ops->key(&an, ACT_ENTER), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(pane_create_sym(&ev, PANE_EVENTS, s, NULL, sy), 0);
	go(&ev, &an.push);
	cr_expect_str_eq(ev.w.filter, an.push.filter, "the filter is taken");
	cr_expect_eq(widget_count(&ev.w), best, "the %lu task-clock samples there: %s",
	    (unsigned long)best, an.push.filter);
	pane_destroy(&ev);
	pane_destroy(&an);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/* Annotate while symbols are still resolving: the counts so far; Enter on
 * an instruction never pushes a list whose filter cannot be taken (it
 * would show every record of the file as "samples at"). */
Test(annotate, samples_at_while_resolving)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p, an, ev;
	size_t i;
	int r;

	while (!symbols_step(sy, 0, 16) && sy->pos < session_index(s)->n / 2)
		;
	cr_assert_not(sy->done);
	symbols_peek(sy);
	hot_pane(&p, s, sy);
	i = find_text(&p, "[.] mix_one");
	cr_assert_neq(i, WIDGET_NONE);
	widget_move(&p.w, (long)i);
	cr_assert_eq(p.ops->key(&p, ACT_ANNOTATE), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(pane_create_sym(&an, PANE_ANNOTATE, s, NULL, sy), 0);
	go(&an, &p.push);
	cr_assert_gt(annot_best(&an), 0);
	r = an.ops->key(&an, ACT_ENTER);
	if (r & PANE_PUSH) {
		cr_assert_eq(pane_create_sym(&ev, PANE_EVENTS, s, NULL, sy), 0);
		go(&ev, &an.push);
		cr_expect_str_eq(ev.w.filter, an.push.filter, "the filter is taken");
		cr_expect_leq(widget_count(&ev.w), annot_best(&an));
		pane_destroy(&ev);
	} else {
		cr_expect_eq(r, PANE_HANDLED | PANE_MSG);
		cr_expect(strstr(an.msg, "resolved") != NULL, "%s", an.msg);
	}
	pane_destroy(&an);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/* A filter typed in one function's annotate view does not stay on the
 * next function annotated (a view pushed without one). */
Test(annotate, next_symbol_starts_unfiltered)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p, an;
	struct nav_view first;
	size_t i, all;

	symbols_run(sy);
	hot_pane(&p, s, sy);
	i = find_text(&p, "[.] mix_one");
	cr_assert_neq(i, WIDGET_NONE);
	widget_move(&p.w, (long)i);
	cr_assert_eq(p.ops->key(&p, ACT_ANNOTATE), PANE_HANDLED | PANE_PUSH);
	first = p.push;
	cr_assert_eq(pane_create_sym(&an, PANE_ANNOTATE, s, NULL, sy), 0);
	go(&an, &first);
	cr_assert_eq(widget_set_filter(&an.w, "lea", NULL, 0), 0);
	cr_assert_lt(widget_count(&an.w), annot_nrows_all(&an));
	/* back in the hot functions, another symbol */
	widget_home(&p.w);
	i = find_text(&p, "[.] fill");
	cr_assert_neq(i, WIDGET_NONE);
	widget_move(&p.w, (long)i);
	cr_assert_eq(p.ops->key(&p, ACT_ANNOTATE), PANE_HANDLED | PANE_PUSH);
	go(&an, &p.push);
	all = annot_nrows_all(&an);
	cr_expect_str_eq(an.w.filter, "", "no filter on fill's view");
	cr_expect_eq(widget_count(&an.w), all, "every row of fill shown");
	pane_destroy(&an);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/*
 * Annotate's info line (name, DSO, event, samples) stays with a 1,500-byte
 * C++ name (a JIT symbol's): the name is shortened with an ellipsis, its
 * end and what follows it kept, at 100 and at 60 columns.
 */
Test(annotate, info_line_kept_with_a_long_name)
{
	char dir[] = "/tmp/perfnav-test-annot-XXXXXX";
	char *name = synth_long_name(1500), *path = synth_jit_file(name, dir, 20);
	struct perf_err err;
	struct session *s = session_open(path, NULL, &err);
	struct sym_opts so;
	struct symbols *sy;
	struct pane p, an;
	size_t i;

	cr_assert_not_null(s, "%s", err.msg);
	memset(&so, 0, sizeof so);
	so.kallsyms = "/dev/null";
	so.perfmap_dir = dir;
	sy = symbols_new(s, &so, NULL);
	symbols_run(sy);
	hot_pane(&p, s, sy);
	i = find_text(&p, "T0000<");
	cr_assert_neq(i, WIDGET_NONE);
	widget_move(&p.w, (long)i);
	cr_assert_eq(p.ops->key(&p, ACT_ANNOTATE), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(pane_create_sym(&an, PANE_ANNOTATE, s, NULL, sy), 0);
	go(&an, &p.push);
	for (int w = 100; w >= 60; w -= 40) {
		const char *line;

		screen_draw(&an, 20, w);
		line = screen_line(19);
		cr_expect(strstr(line, "ns::T0000") != NULL, "%d columns: the name's start: %s", w,
		    line);
		cr_expect(strstr(line, "\u2026") != NULL, "%d columns: the cut marked: %s", w, line);
		cr_expect(strstr(line, "()_end in ") != NULL, "%d columns: the name's end: %s",
		    w, line);
		cr_expect(strstr(line, ", cpu-clock: 10 samples") != NULL,
		    "%d columns: the event and samples: %s", w, line);
	}
	pane_destroy(&an);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
	synth_jit_remove(path, dir);
	free(name);
}

/*
 * The hot functions share the scope (tui/scope.h) with the call trees and
 * the flame graph: Tab sets its event, a zoom its selection (Esc back
 * clears it), and pane_ops.func gives the selected symbol's function.
 */
Test(hot, event_zoom_and_function_are_the_scopes)
{
	struct session *s = open_fixture("pipe.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p;
	struct nav_view root;
	uint32_t wm;
	unsigned gen;
	size_t i;

	symbols_run(sy);
	wm = node_named(sy, "[.] worker_mul");
	hot_pane(&p, s, sy);
	p.ops->save(&p, &root);
	i = find_text(&p, "[.] worker_mul");
	cr_assert_neq(i, WIDGET_NONE);
	widget_home(&p.w);
	widget_move(&p.w, (long)i);
	cr_assert_eq(p.ops->func(&p), wm, "func: the selected symbol's function");
	gen = sy->scope.gen;
	cr_assert_eq(key_at(&p, i, ACT_ZOOM_THREAD), PANE_HANDLED | PANE_PUSH | PANE_MSG);
	go(&p, &p.push);
	cr_assert(sy->scope.zoomed, "a thread zoom is the scope's");
	cr_assert(sy->scope.sel.by_tid);
	cr_assert_eq(sy->scope.sel.tid, (int32_t)(uint32_t)p.push.arg2);
	cr_assert_neq(sy->scope.gen, gen, "the other panes rebuild");
	go(&p, &root);
	cr_assert(sy->scope.zoomed, "another view of the pane: the zoom stays");
	cr_assert(scope_undo(&sy->scope), "Esc: the step undone");
	cr_assert_not(sy->scope.zoomed, "back: no zoom");
	/* transforms are the app's, on the selected function (pane_ops.func) */
	cr_assert_eq(p.ops->key(&p, ACT_FOCUS), PANE_IGNORED);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);

	s = open_fixture("multi.data");
	sy = fixture_symbols(s);
	symbols_run(sy);
	hot_pane(&p, s, sy);
	p.ops->key(&p, ACT_NEXT_EVENT);
	cr_assert_eq(sy->scope.ev, 1, "Tab: the scope's event");
	sy->scope.ev = 0;
	sy->scope.gen++;
	p.ops->key(&p, ACT_NONE);	/* any key (or a draw) syncs the rows */
	cr_assert(row_has(&p, widget_source(&p.w, 0), "71.74%"), "the scope's event back");
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}
