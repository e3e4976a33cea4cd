/*
 * flame_bench: how long the flame graph pane takes on a recording: the
 * call-path tree (cpath_build), the layout (flame_layout), and drawing the
 * pane into a curses screen of WxH whose output goes to /dev/null (the
 * pane's draw and doupdate), first (tree and layout included) and then
 * again with both cached, in a zoom, with a search highlighted, and
 * scrolled to the deepest row.  Median of RUNS draws each.
 *
 *   make bench/flame_bench && bench/flame_bench FILE [W H [RUNS]]
 *
 * Symbols are resolved first, with the default options, as the TUI does
 * (that time is printed too, but it is not the pane's).  bench/tui.sh runs
 * it on its recordings when it is built.  Never part of `make check`.
 */
#include "config.h"

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curses.h>

#include "core/core.h"
#include "symbolize/cpath.h"
#include "symbolize/flame.h"
#include "tui/app.h"
#include "tui/pane.h"
#include "tui/symbols.h"
#include "tui/theme.h"
#include "tui/widget.h"

#include "bench/bench_screen.h"
#include "bench/bench_util.h"

/* One draw of the pane as the app makes it: the pane, then the screen out. */
static double
draw_once(struct pane *p, const struct pane_canvas *c)
{
	double t0;

	clearok(curscr, TRUE);	/* every cell out again, as after a full change */
	t0 = ms_now();
	p->ops->resize(p, c->h, c->w);
	p->ops->draw(p, c);
	wnoutrefresh(stdscr);
	doupdate();
	return ms_now() - t0;
}

static double
median_draw(struct pane *p, const struct pane_canvas *c, int runs)
{
	double *v = calloc((size_t)runs, sizeof *v), m;

	for (int i = 0; i < runs; i++)
		v[i] = draw_once(p, c);
	qsort(v, (size_t)runs, sizeof *v, cmp_double);
	m = v[runs / 2];
	free(v);
	return m;
}

static void
tree_and_layout(struct symbols *sy, int w)
{
	struct cpath_query q;
	struct flame fl;
	struct cpath *t;
	double t0, t1, t2;

	memset(&q, 0, sizeof q);
	q.entry = CPATH_NONE;
	memset(&fl, 0, sizeof fl);
	t0 = ms_now();
	t = cpath_build(sy->h, &q);
	t1 = ms_now();
	flame_layout(&fl, t, 0, (unsigned)w, sy->h, sy->z);
	t2 = ms_now();
	printf("tree: %zu nodes in %.1f ms; layout at %d columns: %zu frames, %zu rows in %.2f ms\n",
	    cpath_count(t), t1 - t0, w, fl.n, fl.nrows, t2 - t1);
	flame_free(&fl);
	cpath_free(t);
}

int
main(int argc, char **argv)
{
	int w = argc > 2 ? atoi(argv[2]) : 200, h = argc > 3 ? atoi(argv[3]) : 60;
	int runs = argc > 4 ? atoi(argv[4]) : 21;
	struct perf_err err;
	struct session *s;
	struct symbols *sy;
	struct theme th;
	struct theme_attrs ta;
	struct pane_canvas c;
	struct pane p;
	struct nav_view v;
	double t0, t1;

	if (argc < 2 || w < 10 || h < 5 || runs < 1) {
		fprintf(stderr, "usage: flame_bench FILE [WIDTH HEIGHT [RUNS]]\n");
		return 2;
	}
	setlocale(LC_ALL, "");
	if ((s = session_open(argv[1], NULL, &err)) == NULL) {
		fprintf(stderr, "flame_bench: %s\n", err.msg);
		return 1;
	}
	t0 = ms_now();
	sy = symbols_new(s, NULL, NULL);
	symbols_run(sy);
	printf("%s: symbols in %.0f ms (not the pane's)\n", argv[1], ms_now() - t0);
	tree_and_layout(sy, w);
	if (bench_screen("flame_bench", w, h, &th, &ta, &c) < 0)
		return 1;
	t0 = ms_now();
	if (pane_create_sym(&p, PANE_FLAME, s, NULL, sy) < 0)
		return 1;
	nav_view_init(&v, PANE_FLAME);
	p.ops->enter(&p, &v);
	p.ops->resize(&p, c.h, c.w);
	p.ops->key(&p, ACT_NONE);
	printf("pane: tree and layout %.1f ms (when made, and when the scope changes)\n",
	    ms_now() - t0);
	printf("draw %dx%d: first %.2f ms", w, h, draw_once(&p, &c));
	printf(", again %.2f ms", median_draw(&p, &c, runs));
	t0 = ms_now();
	p.ops->key(&p, ACT_DOWN);
	p.ops->key(&p, ACT_ENTER);
	t1 = ms_now() - t0;
	printf(", zoom in (layout) %.2f ms, drawn %.2f ms", t1, median_draw(&p, &c, runs));
	p.ops->key(&p, ACT_BACK);
	widget_search(&p.w, "a", 1, false);
	t1 = draw_once(&p, &c);
	printf(", search 'a' first %.2f ms (every node named), then %.2f ms", t1,
	    median_draw(&p, &c, runs));
	p.ops->key(&p, ACT_BOTTOM);
	printf(", deepest row %.2f ms\n", median_draw(&p, &c, runs));
	t0 = ms_now();
	p.ops->key(&p, ACT_FLAME_FLIP);
	t1 = ms_now() - t0;
	printf("bottom-up: tree and layout %.1f ms, %zu frames, drawn %.2f ms", t1,
	    widget_count(&p.w), median_draw(&p, &c, runs));
	t0 = ms_now();
	p.ops->key(&p, ACT_FLAME_FLIP);
	printf("; flipped back %.2f ms (medians of %d)\n", ms_now() - t0, runs);
	pane_destroy(&p);
	endwin();
	symbols_free(sy);
	session_close(s);
	return 0;
}
