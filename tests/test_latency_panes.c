/*
 * Criterion tests of perf 6.15's latency and parallelism in the browser,
 * on the perf-made switch.data (switch events, two threads): the hot
 * functions' Latency column against a hist made as perfnav top --latency
 * makes it, sorted by it, over a time step (hist_rescope); a table by
 * --sort parallelism with the real levels; the timeline coloured by
 * parallelism (P).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/filter.h"
#include "symbolize/hist.h"
#include "symbolize/parallel.h"
#include "tests/helpers.h"
#include "tests/tui_helpers.h"
#include "tui/keys.h"
#include "tui/keytab.h"
#include "tui/pane.h"
#include "tui/scope.h"
#include "tui/symbols.h"
#include "tui/widget.h"

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

/* ---- the hot functions' Latency column ---- */

/* The column titled title, or -1. */
static int
col_of(const struct pane *p, const char *title)
{
	for (int c = 0; c < p->ncols; c++)
		if (strcmp(p->cols[c].title, title) == 0)
			return c;
	return -1;
}

/*
 * Every row of a hist made as perfnav top --latency makes it (keys
 * comm,dso,sym, the model, by latency) has its Latency and Self in the
 * pane: the row of the same command, DSO and symbol.  Their number.
 */
static size_t
expect_top_latency(struct pane *p, struct session *s, struct symbols *sy, const struct hist_filter *f)
{
	struct parallel par;
	struct hist_opts o;
	struct hist *h;
	const uint32_t *rows;
	size_t n, found = 0;
	int cl = col_of(p, "Latency"), cs = col_of(p, sy->children ? "Children" : "Overhead");
	char k[3][256], want[64];

	cr_assert_geq(cl, 0, "a Latency column");
	cr_assert_geq(cs, 0);
	parallel_build(s, &par);
	memset(&o, 0, sizeof o);
	o.keys[0] = HIST_KEY_COMM;
	o.keys[1] = HIST_KEY_DSO;
	o.keys[2] = HIST_KEY_SYM;
	o.nkeys = 3;
	o.children = sy->children;
	o.chain_root_first = sy->children;
	o.event = -1;
	o.max_stack = HIST_DEFAULT_MAX_STACK;
	o.parallel = &par;
	o.by_latency = true;
	o.filter = f;
	h = hist_new(s, sy->z, &o);
	hist_add_session(h, NULL);
	hist_finish(h);
	n = hist_rows(h, 0, 0, &rows);
	cr_assert_gt(n, 1);
	for (size_t i = 0; i < n; i++) {
		const struct hist_entry *e = hist_entry_get(h, rows[i]);
		double lat = sy->children ? hist_children_lat_pct(h, e) : hist_self_lat_pct(h, e);

		hist_key_text(h, e, HIST_KEY_COMM, k[0], sizeof k[0]);
		hist_key_text(h, e, HIST_KEY_DSO, k[1], sizeof k[1]);
		hist_key_text(h, e, HIST_KEY_SYM, k[2], sizeof k[2]);
		for (size_t j = 0; j < widget_count(&p->w); j++) {
			struct row *r = row_at(p, j);
			bool same = r->col[cl] != NULL && strstr(r->col[p->ncols - 1], k[2]) != NULL &&
			    strcmp(r->col[p->ncols - 3], k[0]) == 0;

			if (same) {
				snprintf(want, sizeof want, "%.2f%%", lat);
				cr_expect_str_eq(r->col[cl], want, "%s %s: latency", k[0], k[2]);
				found++;
			}
			free(r);
		}
	}
	cr_expect_eq(found, n, "every row of top --latency is in the pane");
	hist_free(h);
	parallel_free(&par);
	return n;
}

Test(hot, latency_column_is_top_latency)
{
	struct session *s = open_fixture("switch.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p;
	struct hist_filter f = { 0 };
	const struct rec_index *ix = session_index(s);
	uint64_t t0 = UINT64_MAX, t1 = 0;
	struct row *r;
	int cl;

	symbols_run(sy);
	cr_assert_not_null(symbols_parallel(sy), "switch.data has switch events");
	hot_pane(&p, s, sy);
	cl = col_of(&p, "Latency");
	cr_assert_eq(cl, sy->children ? 2 : 1, "Latency beside Self");
	expect_top_latency(&p, s, sy, NULL);
	/* sorted by latency (L): worker_div first with 40.20%, as perfnav top --latency
	 * --buildid-dir tests/data/buildid prints it */
	cr_assert_eq(p.ops->key(&p, ACT_LATENCY_SORT), PANE_HANDLED | PANE_MSG);
	cr_assert(sy->scope.hot_by_latency);
	r = row_at(&p, 0);
	cr_expect_str_eq(r->col[cl], "40.20%");
	free(r);
	for (size_t i = 1; i < widget_count(&p.w); i++) {
		struct row *a = row_at(&p, i - 1), *b = row_at(&p, i);

		cr_expect_geq(strtod(a->col[cl], NULL), strtod(b->col[cl], NULL), "row %zu", i);
		free(a);
		free(b);
	}
	p.ops->key(&p, ACT_LATENCY_SORT);
	cr_assert_not(sy->scope.hot_by_latency);
	/* a time step (the middle third): recounted, still top's with that --time */
	for (size_t i = 0; i < ix->n; i++) {
		const struct rec_ent *e = index_ent(ix, i);

		if (ent_type(e) == PF_REC_SAMPLE) {
			t0 = e->time < t0 ? e->time : t0;
			t1 = e->time > t1 ? e->time : t1;
		}
	}
	f.time = calloc(1, sizeof *f.time);
	f.time[0].start = t0 + (t1 - t0) / 3;
	f.time[0].end = t0 + 2 * (t1 - t0) / 3;
	f.ntime = 1;
	cr_assert(scope_time_push(&sy->scope, f.time[0].start, f.time[0].end));
	cr_assert_eq(symbols_apply_scope(sy), 0, "a hist with latency is recounted");
	p.ops->key(&p, ACT_NONE);	/* the pane follows the scope */
	expect_top_latency(&p, s, sy, &f);
	filter_free(&f);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/*
 * --sort parallelism on a recording with switch events: the table is made
 * with perf 6.15's model (as perfnav top --sort parallelism), so its rows
 * are the real levels, 1 (78 samples) and 2 (150), not one row of 1; and
 * it has a Latency column.
 */
Test(keytab, parallelism_levels_of_switch_events)
{
	struct session *s = open_fixture("switch.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p;
	struct row r;
	size_t n1 = SIZE_MAX, n2 = SIZE_MAX;

	symbols_run(sy);
	sy->scope.hot_sort = (struct scope_sort){ .keys = { HIST_KEY_PARALLELISM }, .n = 1,
		.keep = HIST_KEEP(HIST_KEY_PARALLELISM) };
	hot_pane(&p, s, sy);
	pane_settle(&p, sy);
	cr_assert_eq(widget_count(&p.w), 2, "two levels");
	for (size_t i = 0; i < 2; i++) {
		const char *lvl = pane_cell(&p, &r, i, "Parallelism");

		if (strcmp(lvl, "1") == 0)
			n1 = i;
		else if (strcmp(lvl, "2") == 0)
			n2 = i;
	}
	cr_assert(n1 != SIZE_MAX && n2 != SIZE_MAX, "levels 1 and 2");
	cr_expect_str_eq(pane_cell(&p, &r, n1, "Samples"), "78");
	cr_expect_str_eq(pane_cell(&p, &r, n2, "Samples"), "150");
	cr_expect_neq(pane_cell(&p, &r, n1, "Latency")[0], '\0', "a Latency column");
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/* ---- the timeline by parallelism ---- */

/*
 * P colours the timeline by threads running: the legend on its header
 * (switch.data's 2 cpus: 1 and 2), the cursor's column's level; without
 * switch events (fp.data) P says why not and nothing changes.
 */
Test(latency, timeline_by_parallelism)
{
	struct session *s = open_fixture("switch.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p;

	symbols_run(sy);
	cr_assert_eq(pane_create_sym(&p, PANE_TIMELINE, s, NULL, sy), 0);
	screen_draw(&p, 20, 120);
	cr_expect_null(strstr(screen_line(0), "threads running"), "%s", screen_line(0));
	cr_assert_eq(p.ops->key(&p, ACT_TIME_PARALLEL), PANE_HANDLED | PANE_REDRAW);
	screen_draw(&p, 20, 120);
	cr_expect_not_null(strstr(screen_line(0), "Timeline by process (p), threads running (P): 1 2 |"),
	    "%s", screen_line(0));
	cr_expect_not_null(strstr(screen_line(19), "1 thread running"), "the first column's: %s",
	    screen_line(19));
	p.ops->key(&p, ACT_TIME_PARALLEL);
	screen_draw(&p, 20, 120);
	cr_expect_null(strstr(screen_line(0), "threads running"));
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);

	s = open_fixture("fp.data");
	sy = fixture_symbols(s);
	symbols_run(sy);
	cr_assert_null(symbols_parallel(sy), "fp.data has no switch events");
	cr_assert_eq(pane_create_sym(&p, PANE_TIMELINE, s, NULL, sy), 0);
	cr_assert_eq(p.ops->key(&p, ACT_TIME_PARALLEL), PANE_HANDLED | PANE_MSG);
	cr_expect_not_null(strstr(p.msg, "no switch events"), "%s", p.msg);
	screen_draw(&p, 20, 120);
	cr_expect_null(strstr(screen_line(0), "threads running"));
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}
