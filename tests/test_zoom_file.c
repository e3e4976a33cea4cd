/*
 * Criterion tests of the browser's zoom by file (tui/scope.h SZ_FILE) on a
 * merged recording (perfnav merge): Enter on a row of the hot pane sorted
 * by file zooms into that input; the recount then equals perfnav top
 * --files (a fresh hist with that start option) and the input alone, rows
 * and totals; the title names it; Esc takes it back.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/filter.h"
#include "symbolize/hist.h"
#include "tests/tui_helpers.h"
#include "tui/nav.h"
#include "tui/pane.h"
#include "tui/scope.h"
#include "tui/scope_edit.h"
#include "tui/symbols.h"
#include "tui/widget.h"

static const char *const inputs[] = { "fork.data", "fp.data" };

/* The hot pane's rows over sy at the default sort, each row's cells joined by '|' (malloc'd). */
static char *
hot_text(struct session *s, struct symbols *sy)
{
	struct pane p;
	struct row r;
	size_t cap = 1 << 16, o = 0;
	char *out = malloc(cap);

	hot_pane(&p, s, sy);
	pane_settle(&p, sy);
	out[0] = '\0';
	for (size_t i = 0; i < widget_count(&p.w); i++) {
		row_reset(&r);
		p.ops->row(&p, widget_source(&p.w, i), &r);
		for (int c = 0; c < p.ncols && o + 1 < cap; c++)
			o += (size_t)snprintf(out + o, cap - o, "%s%s", c ? "|" : "", r.col[c] ? r.col[c] : "");
		if (o + 1 < cap)
			out[o++] = '\n';
		out[o] = '\0';
	}
	pane_destroy(&p);
	return out;
}

/* Input k alone: its hot rows and event totals. */
static char *
alone(size_t k, uint64_t *samples, uint64_t *period)
{
	struct session *s = session_of_path(test_data(inputs[k]));
	struct symbols *sy = fixture_symbols(s);
	char *t;

	symbols_run(sy);
	*samples = hist_event(sy->h, 0)->nsamples;
	*period = hist_event(sy->h, 0)->total_period;
	t = hot_text(s, sy);
	symbols_free(sy);
	session_close(s);
	return t;
}

/* The merge with --files name as a start option (perfnav top --files): its hot rows. */
static char *
with_files(struct session *m, const char *name, uint64_t *samples)
{
	struct sym_opts so = { .buildid_dir = TEST_DATA "/buildid", .kallsyms = "/dev/null" };
	struct hist_filter f = { 0 };
	struct symbols *sy;
	struct origins org;
	struct perf_err err;
	const char *bad;
	char *t;

	cr_assert_eq(filter_parse_files(&f, name), 0);
	origins_load(m, &org, &err);
	cr_assert_eq(filter_place_files(&f, &org, &bad), 0, "%s", name);
	origins_free(&org);
	sy = symbols_new(m, &so, &f);	/* f borrowed: freed after */
	symbols_run(sy);
	*samples = hist_event(sy->h, 0)->nsamples;
	t = hot_text(m, sy);
	symbols_free(sy);
	filter_free(&f);
	return t;
}

Test(zoom_file, enter_on_a_file_row_is_top_files)
{
	void *bytes;
	struct session *m = merged_fixtures(inputs, 2, &bytes);
	struct symbols *sy = fixture_symbols(m);
	struct scope *sc = &sy->scope;
	uint64_t whole, wsamples, wperiod, fsamples;
	char msg[200], title[512];
	struct pane p;
	struct row r;

	symbols_run(sy);
	whole = hist_event(sy->h, 0)->nsamples;
	for (size_t k = 0; k < 2; k++) {
		char *want = alone(k, &wsamples, &wperiod), *top, *got;
		size_t row;

		cr_assert_eq(scope_parse_sort("file", &sc->hot_sort, msg, sizeof msg), 0, "%s", msg);
		sc->gen++;
		hot_pane(&p, m, sy);
		pane_settle(&p, sy);
		cr_assert_eq(widget_count(&p.w), 2, "a row per input");
		row = find_text(&p, test_data(inputs[k]));
		cr_assert_neq(row, WIDGET_NONE, "%s: its row", inputs[k]);
		cr_assert_str_eq(pane_cell(&p, &r, row, "File"), test_data(inputs[k]));
		cr_assert(widget_goto_row(&p.w, widget_source(&p.w, row)));
		/* Enter: a zoom into the row's input, applied as the app's history does */
		cr_assert_eq(p.ops->key(&p, ACT_ENTER), PANE_HANDLED | PANE_PUSH, "%s", p.msg);
		cr_assert_eq(p.push.target, NAV_T_ZOOM);
		cr_assert_eq(p.push.arg, SZ_FILE);
		go(&p, &p.push);
		pane_destroy(&p);
		cr_assert(scope_zoomed(sc, SZ_FILE));
		cr_assert_str_eq(scope_file_name(sc), test_data(inputs[k]));
		cr_assert(sc->recounted || !sc->time_pending, "counted for the zoom");
		/* totals: the input's alone */
		cr_expect_eq(hist_event(sy->h, 0)->nsamples, wsamples, "%s: samples", inputs[k]);
		cr_expect_eq(hist_event(sy->h, 0)->total_period, wperiod, "%s: period", inputs[k]);
		cr_expect_lt(wsamples, whole);
		/* the title names it (the scope's parts, as the browser's title shows them) */
		scope_text(sc, sy->h, "", title, sizeof title);
		cr_expect(strstr(title, "file ") != NULL && strstr(title, inputs[k]) != NULL, "title: %s",
		    title);
		/* the hot rows: those of perfnav top --files NAME, and of the input alone */
		sc->hot_sort = (struct scope_sort){ 0 };
		sc->gen++;
		got = hot_text(m, sy);
		top = with_files(m, inputs[k], &fsamples);
		cr_expect_eq(fsamples, wsamples, "--files %s: the input's samples", inputs[k]);
		cr_expect_str_eq(got, top, "%s: the zoom's rows and --files's", inputs[k]);
		cr_expect_str_eq(got, want, "%s: the zoom's rows and the input's alone", inputs[k]);
		free(want);
		free(top);
		free(got);
		/* Esc: the whole merge again */
		cr_assert(scope_undo(sc));
		cr_assert_eq(symbols_apply_scope(sy), 0);
		cr_expect_not(scope_zoomed(sc, SZ_FILE));
		cr_expect_eq(hist_event(sy->h, 0)->nsamples, whole, "undone: every input's samples");
	}
	symbols_free(sy);
	session_close(m);
	free(bytes);
}

/* A recording not merged is one input, its path: its zoom takes every sample. */
Test(zoom_file, a_plain_recording_is_one_input)
{
	struct session *s = open_fixture("fork.data");
	struct symbols *sy = fixture_symbols(s);
	uint64_t whole;

	symbols_run(sy);
	whole = hist_event(sy->h, 0)->nsamples;
	cr_assert_eq(sy->org.n, 1);
	cr_assert_eq(scope_file_find(&sy->scope, "fork.data"), 0, "by its last component");
	cr_assert_eq(scope_file_find(&sy->scope, "fp.data"), UINT32_MAX);
	cr_assert(scope_zoom(&sy->scope, SZ_FILE, 0, 0, 0, "file fork.data"));
	cr_assert_not(scope_zoom(&sy->scope, SZ_FILE, 0, 0, 0, "file fork.data"), "the same: no step");
	cr_assert_not(scope_zoom(&sy->scope, SZ_FILE, 0, 0, 1, "file ?"), "no such input");
	cr_assert_eq(symbols_apply_scope(sy), 0);
	cr_expect_eq(hist_event(sy->h, 0)->nsamples, whole);
	symbols_free(sy);
	session_close(s);
}
