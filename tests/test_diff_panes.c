/*
 * Criterion tests of the browser's diff mode (perfnav OLD NEW) over the
 * diff fixtures (two builds of tests/fixtures-src/diffwork.c, the hot path
 * through spin made faster): two symbols paired (tui/symbols.h), the hot
 * functions' Baseline, New and Delta, the trees' deltas per node.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "symbolize/cpath.h"
#include "symbolize/filter.h"
#include "symbolize/hist.h"
#include "symbolize/symbolizer.h"
#include "tests/helpers.h"
#include "tests/tui_helpers.h"
#include "tui/cmd/export_svg.h"
#include "tui/nav.h"
#include "tui/pane.h"
#include "tui/scope.h"
#include "tui/symbols.h"
#include "tui/widget.h"

struct two {
	struct session	*s[2];
	struct symbols	*sy[2];
};

static void
open_these(struct two *t, const char *old, const char *new)
{
	struct sym_opts so = { .buildid_dir = TEST_DATA "/buildid", .kallsyms = "/dev/null",
			       .no_path_cache = true };

	t->s[0] = open_fixture(old);
	t->s[1] = open_fixture(new);
	for (int k = 0; k < 2; k++)
		t->sy[k] = symbols_new(t->s[k], &so, NULL);
	symbols_run_pair(t->sy[0], t->sy[1]);
}

static void
open_two(struct two *t)
{
	open_these(t, "diff-a.data", "diff-b.data");
}

static void
close_two(struct two *t)
{
	for (int k = 0; k < 2; k++) {
		symbols_free(t->sy[k]);
		session_close(t->s[k]);
	}
}

/* The visible row's column texts into out[0..n) (pointers into r). */
static void
cols_of(struct pane *p, size_t pos, struct row *r)
{
	row_reset(r);
	p->ops->row(p, widget_source(&p->w, pos), r);
}

static void
expect_col(const struct row *r, int col, const char *want, const char *what)
{
	cr_expect_not_null(r->col[col], "%s: column %d empty", what, col);
	if (r->col[col] != NULL)
		cr_expect_str_eq(r->col[col], want, "%s: column %d", what, col);
}

Test(diff_panes, symbols_pair_events_and_functions)
{
	struct two t;
	char a[256], b[256];
	uint32_t f = CPATH_NONE;

	open_two(&t);
	cr_assert_eq(t.sy[0]->pair, t.sy[1]);
	cr_assert_eq(t.sy[1]->pair, t.sy[0]);
	cr_assert_eq(t.sy[0]->role, 0);
	cr_assert_eq(t.sy[1]->role, 1);
	cr_assert(t.sy[0]->done && t.sy[1]->done);
	cr_expect_str_eq(hist_str(t.sy[1]->h, hist_event(t.sy[1]->h, 0)->name), "cpu-clock:u");
	cr_expect_eq(symbols_pair_event(t.sy[0], 0), 0, "cpu-clock pairs with cpu-clock:u");
	cr_expect_eq(symbols_pair_event(t.sy[1], 0), 0);
	for (size_t i = 0; i < hist_nnodes(t.sy[0]->h) && f == CPATH_NONE; i++)
		if (strcmp(cpath_func_name(t.sy[0]->h, (uint32_t)i, a, sizeof a), "old_only") == 0)
			f = (uint32_t)i;
	cr_assert_neq(f, CPATH_NONE);
	cr_expect_eq(symbols_pair_func(t.sy[0], f), CPATH_NONE, "old_only: not in NEW");
	for (size_t i = 0; i < hist_nnodes(t.sy[0]->h); i++)
		if (strcmp(cpath_func_name(t.sy[0]->h, (uint32_t)i, a, sizeof a), "spin") == 0)
			f = (uint32_t)i;
	cr_assert_neq(symbols_pair_func(t.sy[0], f), CPATH_NONE);
	cr_expect_str_eq(cpath_func_name(t.sy[1]->h, symbols_pair_func(t.sy[0], f), b, sizeof b),
	    "spin");
	close_two(&t);
}

/* The hot functions: perfnav diff's numbers (perf diff's), the biggest change first, A: periods. */
Test(diff_panes, hot_functions_baseline_new_delta)
{
	struct two t;
	struct pane p[2];
	struct row r;
	size_t at;

	open_two(&t);
	for (int k = 0; k < 2; k++) {
		hot_pane(&p[k], t.s[k], t.sy[k]);
		widget_set_height(&p[k].w, 20);
		cr_assert_str_eq(p[k].cols[0].title, "Baseline");
		cr_assert_str_eq(p[k].cols[2].title, "Delta");
		cr_assert_eq(widget_count(&p[k].w), 7, "spin, steady, fast_path, new_only, "
		    "old_only, slow_path, intel_check_word: %zu", widget_count(&p[k].w));
		cols_of(&p[k], 0, &r);
		/* whichever recording is shown: OLD is the baseline */
		expect_col(&r, 0, "85.71%", "spin's baseline");
		expect_col(&r, 1, "74.50%", "spin's new");
		expect_col(&r, 2, "-11.22%", "spin's delta (perf diff's)");
		expect_col(&r, 4, "[.] spin", "the biggest change first");
		at = find_text(&p[k], "new_only");
		cr_assert_neq(at, WIDGET_NONE);
		cols_of(&p[k], at, &r);
		cr_expect(r.col[0] == NULL || r.col[0][0] == '\0', "new_only: no baseline");
		expect_col(&r, 2, "+1.34%", "new_only's delta");
	}
	t.sy[0]->diff_abs = t.sy[1]->diff_abs = true;
	t.sy[0]->gen++;
	t.sy[1]->gen++;
	p[0].ops->nrows(&p[0]);
	cols_of(&p[0], 0, &r);
	expect_col(&r, 0, "78000000", "spin's baseline period");
	expect_col(&r, 1, "55500000", "spin's new period");
	expect_col(&r, 2, "-22500000", "spin's period delta");
	/* Enter: the row's samples in the events pane of the recording shown */
	widget_home(&p[1].w);
	cr_assert_eq(p[1].ops->key(&p[1], ACT_ENTER), PANE_HANDLED | PANE_PUSH);
	cr_expect_eq(p[1].push.pane, PANE_EVENTS);
	cr_expect_str_eq(p[1].push.filter, "type:SAMPLE dso:diffwork sym:spin");
	cr_expect(strncmp(p[1].push.label, "NEW ", 4) == 0, "%s", p[1].push.label);
	pane_destroy(&p[0]);
	pane_destroy(&p[1]);
	close_two(&t);
}

/* The top-down tree: main > spin with Baseline, New and Delta; a path of OLD only. */
Test(diff_panes, trees_delta_per_node)
{
	struct two t;
	struct pane p;
	struct nav_view v;
	struct row r;
	size_t at;

	open_two(&t);
	cr_assert_eq(pane_create_sym(&p, PANE_TOPDOWN, t.s[0], NULL, t.sy[0]), 0);
	nav_view_init(&v, PANE_TOPDOWN);
	p.ops->enter(&p, &v);
	widget_set_height(&p.w, 30);
	widget_expand_all(&p.w, true);
	cr_assert_str_eq(p.cols[0].title, "Baseline");
	at = find_text(&p, "spin");
	cr_assert_neq(at, WIDGET_NONE);
	cols_of(&p, at, &r);
	expect_col(&r, 0, "85.71%", "main > spin: OLD");
	expect_col(&r, 1, "74.50%", "main > spin: NEW");
	expect_col(&r, 2, "-11.22%", "main > spin: delta");
	at = find_text(&p, "old_only");
	cr_assert_neq(at, WIDGET_NONE);
	cols_of(&p, at, &r);
	expect_col(&r, 1, "0.00%", "old_only: nothing in NEW");
	cr_expect(strstr(r.col[4], "(OLD only)") != NULL, "%s", r.col[4]);
	pane_destroy(&p);
	close_two(&t);
}

/*
 * The browser's start (symbols_pair_start): both resolve on worker
 * threads; the diff panes have no rows and say what they wait for until
 * both are in, then fill in.
 */
Test(diff_panes, panes_wait_for_both_then_fill_in)
{
	struct sym_opts so = { .buildid_dir = TEST_DATA "/buildid", .kallsyms = "/dev/null",
			       .no_path_cache = true };
	struct two t;
	struct pane p[3];
	static const enum pane_id ids[3] = { PANE_HOT, PANE_TOPDOWN, PANE_FLAME };
	struct nav_view v;
	struct row r;
	char w[96];

	t.s[0] = open_fixture("diff-a.data");
	t.s[1] = open_fixture("diff-b.data");
	for (int k = 0; k < 2; k++)
		t.sy[k] = symbols_new(t.s[k], &so, NULL);
	/* the workers pause 150 ms before each slice: the checks of the waiting
	 * panes below come well before either is done */
	setenv("PERFNAV_TEST_SYMBOLS_DELAY_MS", "150", 1);
	symbols_pair_start(t.sy[0], t.sy[1]);
	unsetenv("PERFNAV_TEST_SYMBOLS_DELAY_MS");
	cr_assert_eq(t.sy[0]->pair, t.sy[1]);
	cr_assert(!t.sy[0]->done && !t.sy[1]->done, "both resolve on workers, not at the start");
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(pane_create_sym(&p[i], ids[i], t.s[0], NULL, t.sy[0]), 0);
		nav_view_init(&v, ids[i]);
		p[i].ops->enter(&p[i], &v);
		widget_set_height(&p[i].w, 30);
	}
	cr_expect(symbols_pair_waiting(t.sy[0]));
	symbols_pair_wait_text(t.sy[0], w, sizeof w);
	cr_expect(strncmp(w, "symbols OLD ", 12) == 0 && strstr(w, ", NEW ") != NULL, "%s", w);
	for (int i = 0; i < 3; i++) {
		cr_expect_eq(p[i].ops->nrows(&p[i]), 0, "%s: no rows while waiting", p[i].ops->name);
		cr_expect_eq(p[i].ops->func(&p[i]), CPATH_NONE);
	}
	cr_expect_eq(p[0].ops->key(&p[0], ACT_ENTER), PANE_HANDLED, "Enter on no row");
	/*
	 * Polled as the app's loop polls.  The pane polls too (its row count
	 * asks whether the pair still waits), so rows may come within a turn:
	 * never while both are not in.
	 */
	for (int n = 0; symbols_pair_waiting(t.sy[0]); n++) {
		size_t rows = p[0].ops->nrows(&p[0]);

		cr_assert_lt(n, 6000, "the workers never finished");
		cr_assert(rows == 0 || !symbols_pair_waiting(t.sy[0]),
		    "rows while the diff waits for OLD or NEW");
		usleep(5000);
	}
	cr_assert(t.sy[1]->done, "NEW resolved by its workers");
	symbols_pair_wait_text(t.sy[0], w, sizeof w);
	cr_expect_str_eq(w, "symbols OLD done, NEW done");
	p[0].ops->nrows(&p[0]);
	cr_assert_eq(widget_count(&p[0].w), 7, "the hot diff fills in");
	cols_of(&p[0], 0, &r);
	expect_col(&r, 0, "85.71%", "spin's baseline");
	expect_col(&r, 1, "74.50%", "spin's new");
	expect_col(&r, 2, "-11.22%", "spin's delta");
	/* the tree and the flame graph build when asked (a draw, a key, their function) */
	p[1].ops->func(&p[1]);
	p[2].ops->func(&p[2]);
	cr_expect_gt(p[1].ops->nrows(&p[1]), 0, "the tree fills in");
	cr_expect_gt(p[2].ops->nrows(&p[2]), 0, "the flame graph fills in");
	for (int i = 0; i < 3; i++)
		pane_destroy(&p[i]);
	close_two(&t);
}

/* Stopped before the workers are done (q at once): they stop, nothing leaks or races,
 * and both are left resolved to nothing. */
Test(diff_panes, freed_while_new_resolves)
{
	struct sym_opts so = { .buildid_dir = TEST_DATA "/buildid", .kallsyms = "/dev/null",
			       .no_path_cache = true };
	struct two t;

	t.s[0] = open_fixture("diff-a.data");
	t.s[1] = open_fixture("diff-b.data");
	for (int k = 0; k < 2; k++)
		t.sy[k] = symbols_new(t.s[k], &so, NULL);
	symbols_pair_start(t.sy[0], t.sy[1]);
	symbols_pair_stop(t.sy[0]);
	cr_expect(!symbols_pair_waiting(t.sy[0]), "nothing to wait for once stopped");
	for (int k = 0; k < 2; k++)
		{
		const uint32_t *rows;

		cr_expect_eq(hist_rows(t.sy[k]->h, 0, 0, &rows), 0, "%d: no rows", k);
	}
	close_two(&t);
}

/*
 * + on a hot function opens its callees, each level with Baseline, New and
 * Delta (dwarf.data against itself: mix, 3.09% self, calls mix_one, whose
 * children share perfnav top --children gives as 63.92%, only called from
 * mix); c closes it from the callee's row; v lists the samples through it.
 */
Test(diff_panes, hot_functions_open_callees)
{
	struct sym_opts so = { .buildid_dir = TEST_DATA "/buildid", .kallsyms = "/dev/null",
			       .no_path_cache = true };
	struct two t;
	struct pane p;
	struct row r;
	size_t at, n;
	char name[256];

	t.s[0] = open_fixture("dwarf.data");
	t.s[1] = open_fixture("dwarf.data");
	for (int k = 0; k < 2; k++)
		t.sy[k] = symbols_new(t.s[k], &so, NULL);
	symbols_run_pair(t.sy[0], t.sy[1]);
	hot_pane(&p, t.s[0], t.sy[0]);
	widget_set_height(&p.w, 30);
	n = widget_count(&p.w);
	at = find_text(&p, "[.] mix  ");
	if (at == WIDGET_NONE)	/* the row's text ends at the name */
		for (size_t i = 0; i < n && at == WIDGET_NONE; i++) {
			cols_of(&p, i, &r);
			if (r.col[4] != NULL && strcmp(r.col[4], "[.] mix") == 0)
				at = i;
		}
	cr_assert_neq(at, WIDGET_NONE, "mix's row");
	cols_of(&p, at, &r);
	expect_col(&r, 0, "3.09%", "mix's self");
	widget_goto_row(&p.w, widget_source(&p.w, at));
	cr_assert_eq(p.ops->key(&p, ACT_TOGGLE), PANE_HANDLED);
	cr_assert_eq(widget_count(&p.w), n + 1, "one callee opened");
	cols_of(&p, at + 1, &r);
	cr_expect_eq(r.depth, 1);
	expect_col(&r, 4, "mix_one", "mix's callee");
	expect_col(&r, 0, "63.92%", "mix > mix_one in OLD");
	expect_col(&r, 1, "63.92%", "mix > mix_one in NEW");
	expect_col(&r, 2, "+0.00%", "the same file: no change");
	expect_col(&r, 3, "cpu", "its DSO");
	/* the callee's function: what T, B and a act on (the recording shown's) */
	widget_goto_row(&p.w, widget_source(&p.w, at + 1));
	cr_assert_neq(p.ops->func(&p), CPATH_NONE);
	cr_expect_str_eq(cpath_func_name(t.sy[0]->h, p.ops->func(&p), name, sizeof name),
	    "mix_one");
	/* c on the callee closes its function's row, the cursor back on it */
	cr_assert_eq(p.ops->key(&p, ACT_COLLAPSE), PANE_HANDLED);
	cr_expect_eq(widget_count(&p.w), n);
	cr_expect_eq(widget_cursor_row(&p.w), widget_source(&p.w, at));
	pane_destroy(&p);
	close_two(&t);
}

/*
 * Two builds under two names (diffwork, diffwork2): by perf diff's default
 * keys their functions never pair; --sort sym (the scope's keys, as the
 * start option and the typed scope set them) pairs them, as perf diff -s sym.
 */
Test(diff_panes, sort_sym_pairs_two_binaries)
{
	struct two t;
	struct pane p;
	struct row r;
	size_t at;

	open_these(&t, "diff-a.data", "diff-d.data");
	hot_pane(&p, t.s[0], t.sy[0]);
	widget_set_height(&p.w, 40);
	at = find_text(&p, "[.] spin");
	cr_assert_neq(at, WIDGET_NONE);
	cols_of(&p, at, &r);
	cr_expect(r.col[0] == NULL || r.col[0][0] == '\0' || r.col[1] == NULL ||
	    r.col[1][0] == '\0', "dso,sym: spin of one build only");
	for (int k = 0; k < 2; k++) {
		t.sy[k]->scope.hot_sort = (struct scope_sort){ .keys = { HIST_KEY_SYM }, .n = 1, .keep = HIST_KEEP(HIST_KEY_SYM) };
		t.sy[k]->scope.gen++;
	}
	p.ops->nrows(&p);
	at = find_text(&p, "[.] spin");
	cr_assert_neq(at, WIDGET_NONE);
	cols_of(&p, at, &r);
	cr_expect(r.col[0] != NULL && r.col[0][0] != '\0', "--sort sym: spin has a baseline");
	cr_expect(r.col[1] != NULL && r.col[1][0] != '\0', "--sort sym: and a new value");
	pane_destroy(&p);
	close_two(&t);
}

/*
 * The hot pane of OLD vs NEW (paths; by --sort sym when sym; JIT maps from
 * mapdir when not NULL) row for row as perfnav diff's lines.
 */
static void
rows_as_perfnav_diff(const char *old, const char *new, bool sym, const char *mapdir)
{
	char cmd[2048], *out, *save = NULL;
	struct sym_opts so = { .buildid_dir = TEST_DATA "/buildid", .kallsyms = "/dev/null",
			       .no_path_cache = true, .perfmap_dir = mapdir };
	struct perf_err err;
	struct two t;
	struct pane p;
	struct row r;
	size_t i = 0;
	int status;

	snprintf(cmd, sizeof cmd, "%s/perfnav diff %s --buildid-dir %s/buildid --kallsyms /dev/null "
	    "%s%s %s %s", TEST_BUILDDIR, sym ? "-s sym" : "", TEST_DATA, mapdir ? "--perfmap-dir " : "",
	    mapdir ? mapdir : "", old, new);
	out = cmd_output(cmd, NULL, &status);
	cr_assert(out != NULL && status == 0, "%s", cmd);
	t.s[0] = session_open(old, NULL, &err);
	cr_assert_not_null(t.s[0], "%s: %s", old, err.msg);
	t.s[1] = session_open(new, NULL, &err);
	cr_assert_not_null(t.s[1], "%s: %s", new, err.msg);
	for (int k = 0; k < 2; k++)
		t.sy[k] = symbols_new(t.s[k], &so, NULL);
	symbols_run_pair(t.sy[0], t.sy[1]);
	for (int k = 0; sym && k < 2; k++) {
		t.sy[k]->scope.hot_sort = (struct scope_sort){ .keys = { HIST_KEY_SYM }, .n = 1,
			.keep = HIST_KEEP(HIST_KEY_SYM) };
		t.sy[k]->scope.gen++;
	}
	hot_pane(&p, t.s[0], t.sy[0]);
	widget_set_height(&p.w, 60);
	for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char a[32] = "", b[32] = "", base[32] = "", delta[32] = "";
		int n = 0;
		const char *name = strstr(line, "[.] ") ? strstr(line, "[.] ") : strstr(line, "[k] ");

		if (line[0] == '#' || sscanf(line, "%31s %31s %n", a, b, &n) < 1 || name == NULL)
			continue;
		if (b[0] == '+' || b[0] == '-') {
			snprintf(base, sizeof base, "%s", a);
			snprintf(delta, sizeof delta, "%s", b);
		} else	/* one number: a delta (signed) or a baseline */
			snprintf(a[0] == '+' || a[0] == '-' ? delta : base, 32, "%s", a);
		cr_assert_lt(i, widget_count(&p.w), "%s %s: perfnav diff has more rows: %s", old, new,
		    line);
		cols_of(&p, i, &r);
		cr_expect_eq(strncmp(r.col[4], name, strlen(name)), 0,
		    "%s %s%s: row %zu: '%s', perfnav diff '%s'", old, new, sym ? " -s sym" : "", i,
		    r.col[4], name);
		cr_expect_str_eq(r.col[0] ? r.col[0] : "", base, "row %zu (%s): baseline", i, name);
		cr_expect_str_eq(r.col[2] ? r.col[2] : "", delta, "row %zu (%s): delta", i, name);
		cr_expect(r.col[3] != NULL && r.col[3][0] != '\0', "row %zu (%s): a shared object", i,
		    name);
		if (sym && strstr(old, "diff-a.data") != NULL && strcmp(name, "[.] spin") == 0)
			cr_expect_str_eq(r.col[3], "diffwork", "OLD shown: OLD's binary");
		i++;
	}
	cr_expect_eq(i, widget_count(&p.w), "%s %s: as many rows as perfnav diff", old, new);
	cr_expect_gt(i, 2);
	pane_destroy(&p);
	close_two(&t);
	free(out);
}

/*
 * Diff mode by --sort sym shows what perfnav diff -s sym prints, row for
 * row: the symbols, baselines and deltas in its order, a row of OLD only
 * with no delta (it once said -1.10%), last; and the Shared Object column
 * filled (it was blank) with the recording shown's DSO of the row.
 */
Test(diff_panes, sort_sym_rows_as_perfnav_diff)
{
	rows_as_perfnav_diff(TEST_DATA "/diff-a.data", TEST_DATA "/diff-d.data", true, NULL);
}

/* A recording of pid 42's JIT code: per sample an IP of ips (each once, in turn). */
static char *
jit_recording(const char *tag, const uint64_t *ips, int n)
{
	struct synth_names nm = { .comm = "jit", .dso = "/nonexistent/d.so", .event = "cpu-clock",
				  .hostname = "h", .cmdline_arg = "a", .ips = ips, .nips = n };
	struct pdbuf b;
	char *path;

	synth_names_file(&b, &nm, n);
	path = tmp_write(tag, b.p, b.len);
	pd_free(&b);
	return path;
}

/*
 * Rows of equal change in perfnav diff's order: the greater baseline
 * first, then the names; the pane once put them by name alone (aa, NEW
 * only, before zz, which grew from 10% to 20% as much).
 */
Test(diff_panes, ties_as_perfnav_diff)
{
	static const char *const pairs[][2] = { { "diff-a.data", "diff-b.data" },
		{ "diff-b.data", "diff-a.data" }, { "diff-a.data", "diff-c.data" },
		{ "diff-d.data", "diff-a.data" } };
	const uint64_t aa = SYNTH_JIT_ADDR, mm = SYNTH_JIT_ADDR + 0x100, zz = SYNTH_JIT_ADDR + 0x200;
	const uint64_t old_ips[10] = { zz, mm, mm, mm, mm, mm, mm, mm, mm, mm };
	const uint64_t new_ips[10] = { zz, zz, aa, mm, mm, mm, mm, mm, mm, mm };
	char dir[] = "/tmp/perfnav-ties-XXXXXX", map[128], *old, *new;
	FILE *fp;

	for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
		for (int sym = 0; sym < 2; sym++) {
			char a[4096], b[4096];

			snprintf(a, sizeof a, "%s/%s", TEST_DATA, pairs[i][0]);
			snprintf(b, sizeof b, "%s/%s", TEST_DATA, pairs[i][1]);
			rows_as_perfnav_diff(a, b, sym, NULL);
		}
	cr_assert_not_null(mkdtemp(dir));
	snprintf(map, sizeof map, "%s/perf-42.map", dir);
	fp = fopen(map, "w");
	cr_assert_not_null(fp);
	fprintf(fp, "%llx 100 aa\n%llx 100 mm\n%llx 100 zz\n", SYNTH_JIT_ADDR,
	    SYNTH_JIT_ADDR + 0x100, SYNTH_JIT_ADDR + 0x200);
	fclose(fp);
	old = jit_recording("ties-old", old_ips, 10);
	new = jit_recording("ties-new", new_ips, 10);
	for (int sym = 0; sym < 2; sym++)
		rows_as_perfnav_diff(old, new, sym, dir);
	unlink(old);
	unlink(new);
	unlink(map);
	rmdir(dir);
	free(old);
	free(new);
}

/* The self samples of event 0's rows of sy (the scope's counts). */
static uint64_t
self_sum(struct symbols *sy)
{
	const struct hist_entry *const *m;
	size_t n = hist_rows_merged(sy->h, 0, NULL, 0, 0, &m);
	uint64_t sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += m[i]->samples;
	return sum;
}

/*
 * Diff mode: a DSO zoom of the recording shown is the other's too (by the
 * DSO's name), as a fresh pass with --dsos gives it; a thread zoom is the
 * shown recording's alone (another run's threads).
 */
Test(diff_panes, the_other_takes_the_zoom_it_can)
{
	struct two t;
	struct hist_filter f = { 0 };
	struct sym_opts so = { .buildid_dir = TEST_DATA "/buildid", .kallsyms = "/dev/null",
			       .no_path_cache = true };
	struct symbols *fresh;
	uint32_t dso = DSO_NONE;
	uint64_t whole, dsosum;

	open_two(&t);
	whole = self_sum(t.sy[1]);
	for (uint32_t d = 0; d < symbolizer_ndsos(t.sy[0]->z); d++)
		if (strcmp(symbolizer_dso_short(t.sy[0]->z, d), "diffwork") == 0)
			dso = d;
	cr_assert_neq(dso, DSO_NONE);
	cr_assert(scope_zoom(&t.sy[0]->scope, SZ_DSO, 0, 0, dso, "dso diffwork"));
	cr_assert_eq(symbols_apply_scope(t.sy[0]), 0);
	cr_expect(symbols_pair_scope(t.sy[0]), "a DSO: both can take it");
	/* NEW's recount is begun, stepped as OLD's was: the panes wait for both */
	cr_assert(symbols_scope_busy(t.sy[0]) && symbols_scope_busy(t.sy[1]));
	cr_assert_lt(symbols_scope_progress(t.sy[0]), 1.0);
	cr_assert_not_null(t.sy[1]->rj, "NEW's own recount");
	for (double last = symbols_scope_progress(t.sy[0]); !symbols_scope_step_n(t.sy[0], 1);) {
		double now = symbols_scope_progress(t.sy[0]);

		cr_assert_geq(now, last, "the progress goes one way");
		cr_assert_lt(now, 1.0);
		last = now;
	}
	cr_assert_not(symbols_scope_busy(t.sy[0]) || symbols_scope_busy(t.sy[1]));
	cr_assert_eq(filter_parse_dsos(&f, "diffwork"), 0);
	fresh = symbols_new(t.s[1], &so, &f);
	symbols_run(fresh);
	cr_expect_eq(self_sum(t.sy[1]), self_sum(fresh), "NEW counted for diffwork: %llu",
	    (unsigned long long)self_sum(t.sy[1]));
	cr_expect_lt(self_sum(t.sy[1]), whole);
	dsosum = self_sum(fresh);
	symbols_free(fresh);
	filter_free(&f);
	cr_assert(scope_zoom(&t.sy[0]->scope, SZ_TID, 1, 1, 0, "thread 1"));
	cr_assert_eq(symbols_apply_scope(t.sy[0]), 0);
	cr_expect_not(symbols_pair_scope(t.sy[0]), "a thread: OLD's alone");
	/* OLD's recount done already: NEW's alone is the whole of the progress */
	cr_assert(t.sy[0]->rj == NULL && t.sy[1]->rj != NULL);
	cr_assert_lt(symbols_scope_progress(t.sy[0]), 0.5, "NEW's recount alone starts at 0");
	cr_assert(symbols_scope_step(t.sy[0], 1e9), "both recounted at once");
	cr_expect_eq(self_sum(t.sy[1]), dsosum, "NEW: diffwork still (no thread of its own)");
	close_two(&t);
}

/* The SVG a flame pane's export writes, from its first frame on (the title left out). */
static char *
svg_frames(struct pane *p)
{
	char *buf = NULL, *g;
	size_t n = 0;
	FILE *fp = open_memstream(&buf, &n);

	cr_assert_eq(p->ops->write_svg(p, fp), 0);
	fclose(fp);
	g = strstr(buf, "<g class=");
	cr_assert_not_null(g);
	memmove(buf, g, strlen(g) + 1);
	return buf;
}

/*
 * The export action of the differential flame graph writes the graph as
 * drawn: NEW's shape coloured by each frame's change, the frames and
 * tooltips of perfnav export --format svg OLD NEW; with O, OLD's shape
 * with the same changes (NEW's from OLD, not the other way round).
 */
Test(diff_panes, flame_svg_is_differential)
{
	struct two t;
	struct pane p;
	struct nav_view v;
	char *pane_svg, *cmd_svg = NULL, *g, *old_svg, *at;
	size_t n = 0;
	FILE *fp;

	open_two(&t);
	cr_assert_eq(pane_create_sym(&p, PANE_FLAME, t.s[0], NULL, t.sy[0]), 0);
	nav_view_init(&v, PANE_FLAME);
	p.ops->enter(&p, &v);
	pane_svg = svg_frames(&p);
	fp = open_memstream(&cmd_svg, &n);
	cr_assert_eq(export_svg_diff(t.sy[0]->h, 0, t.sy[1]->h, t.sy[1]->z, 0, false, "t", fp), 0);
	fclose(fp);
	g = strstr(cmd_svg, "<g class=");
	cr_assert_not_null(g);
	cr_expect_not_null(strstr(pane_svg, " points)</title>"), "the tooltips say the change");
	cr_expect_str_eq(pane_svg, g, "the pane's SVG is perfnav export's differential one");
	/* O: OLD's shape; spin shrank (85.71% of OLD, 74.50% of NEW) whichever shape */
	cr_assert(p.ops->key(&p, ACT_DIFF_OLD) & PANE_HANDLED);
	old_svg = svg_frames(&p);
	at = strstr(old_svg, "data-name=\"spin\"");
	cr_assert_not_null(at);
	cr_expect_not_null(strstr(at, "; OLD "), "spin's tooltip: %.200s", at);
	cr_expect(strstr(at, "-") != NULL && strstr(at, "-") < strstr(at, " points"),
	    "spin shrank in OLD's shape too: %.200s", at);
	free(old_svg);
	free(pane_svg);
	free(cmd_svg);
	pane_destroy(&p);
	close_two(&t);
}

/*
 * Diff mode in steps: A (percents or periods) while the tree is being
 * rebuilt, then the other recording's symbols changing, start the build
 * again once each and let it end (each used to start it again at every
 * look, for ever), the columns as A left them.
 */
Test(diff_panes, tree_built_in_steps_follows_the_pair)
{
	struct two t;
	struct pane p;
	struct nav_view v;
	struct row r;
	size_t at;

	open_two(&t);
	t.sy[0]->steps = t.sy[1]->steps = 1;
	cr_assert_eq(pane_create_sym(&p, PANE_TOPDOWN, t.s[0], NULL, t.sy[0]), 0);
	nav_view_init(&v, PANE_TOPDOWN);
	p.ops->enter(&p, &v);
	pane_work_out(&p);
	t.sy[0]->gen++;	/* new symbols: rebuilt with the rows kept */
	cr_assert_eq(p.ops->work(&p, 0), PANE_WORK_MORE);
	t.sy[0]->diff_abs = t.sy[1]->diff_abs = true;
	cr_assert_eq(p.ops->work(&p, 0), PANE_WORK_MORE);
	t.sy[1]->gen++;
	for (int i = 0; i < 100000 && p.ops->work(&p, 0) == PANE_WORK_MORE; i++)
		;
	cr_assert_eq(p.ops->work(&p, 0), PANE_WORK_NONE, "the build ended, not started again");
	widget_set_height(&p.w, 30);
	widget_expand_all(&p.w, true);
	at = find_text(&p, "spin");
	cr_assert_neq(at, WIDGET_NONE);
	cols_of(&p, at, &r);
	cr_expect(strchr(r.col[0], '%') == NULL, "periods, as A set: %s", r.col[0]);
	pane_destroy(&p);
	close_two(&t);
}

/* The steps of one row a cpath_job for q on h takes to be whole. */
static size_t
job_steps(struct hist *h, const struct cpath_query *q)
{
	struct cpath_job *j = cpath_job_new(h, q);
	size_t n = 1;

	while (!cpath_job_step(j, 1))
		n++;
	cpath_free(cpath_job_take(j));
	return n;
}

/*
 * A diff tree (top-down, flame graph) is built in steps on both sides:
 * the other recording's tree is a job stepped after the shown one's, not
 * built in one piece when the shown one is done (one row a step and no
 * time: as many calls as both jobs' steps).
 */
Test(diff_panes, the_other_tree_built_in_steps_too)
{
	struct two t;
	struct pane p;
	struct nav_view v;
	struct cpath_query q, q2;
	struct cpath_xform xf[SCOPE_XF_MAX];
	size_t n1, n2, calls = 0;

	open_two(&t);
	scope_query(&t.sy[0]->scope, false, &q);
	cr_assert(symbols_pair_query(t.sy[0], &q, &q2, xf));
	n1 = job_steps(t.sy[0]->h, &q);
	n2 = job_steps(t.sy[1]->h, &q2);
	cr_assert_gt(n2, 3, "the other tree has rows to take: %zu", n2);
	t.sy[0]->steps = t.sy[1]->steps = 1;
	for (int k = 0; k < 2; k++) {
		enum pane_id id = k == 0 ? PANE_TOPDOWN : PANE_FLAME;

		calls = 0;
		cr_assert_eq(pane_create_sym(&p, id, t.s[0], NULL, t.sy[0]), 0);
		nav_view_init(&v, id);
		p.ops->enter(&p, &v);
		while (p.ops->work(&p, 0) == PANE_WORK_MORE)
			calls++;
		cr_assert_geq(calls + 2, n1 + n2, "pane %d: %zu calls for %zu + %zu steps", k, calls,
		    n1, n2);
		cr_assert_leq(calls, n1 + n2, "pane %d: %zu calls for %zu + %zu steps", k, calls, n1,
		    n2);
		cr_assert_neq(find_text(&p, "spin"), WIDGET_NONE, "pane %d: the diff's rows", k);
		pane_destroy(&p);
	}
	close_two(&t);
}
