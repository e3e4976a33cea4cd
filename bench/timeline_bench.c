/*
 * timeline_bench: how long the timeline takes on a recording: building the
 * lanes (symbolize/timeline.h: processes and threads, then CPUs), one
 * draw's worth of bucket counts (every lane a WxH screen shows, as the
 * pane asks for them), and drawing the timeline and flame scope panes into
 * a curses screen of WxH whose output goes to /dev/null (the pane's draw
 * and doupdate): the whole span, zoomed in 8 times, and with the
 * threads of every process shown.  Median of RUNS each.  No symbols are
 * resolved (the timeline needs none; only its highlight reads them), but
 * with TIMELINE_BENCH_HL=1 in the environment: then symbols are resolved
 * first and the timeline also draws the hottest function highlighted.
 *
 *   make bench/timeline_bench && bench/timeline_bench FILE [W H [RUNS]]
 *
 * Never part of `make check`.
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
#include "symbolize/hist.h"
#include "symbolize/timeline.h"
#include "tui/app.h"
#include "tui/pane.h"
#include "tui/symbols.h"
#include "tui/theme.h"

#include "bench/bench_screen.h"
#include "bench/bench_util.h"

/* The counts a draw of h rows asks for: the first h lanes, w columns each. */
static double
buckets_once(const struct timeline *tl, unsigned w, int h, uint32_t *buf)
{
	double t0 = ms_now();
	uint64_t sum = 0;

	for (uint32_t l = 0; l < tl->nlanes && l < (uint32_t)h; l++) {
		sum += timeline_buckets(tl, l, tl->first, tl->last + 1, w, buf);
		sum += timeline_count(tl, l, tl->first, tl->last + 1);
	}
	if (sum == UINT64_MAX)
		printf("!");
	return ms_now() - t0;
}

static void
model(const struct session *s, unsigned w, int h, int runs)
{
	uint32_t *buf = calloc(w, sizeof *buf);
	double *v = calloc((size_t)runs, sizeof *v);

	for (int m = 0; m < 3; m++) {
		double t0 = ms_now();
		struct timeline *tl = timeline_new(s, (enum tl_mode)m, -1);
		double t1 = ms_now() - t0;
		size_t npos = 0;

		for (int i = 0; i < runs; i++)
			v[i] = buckets_once(tl, w, h, buf);
		for (size_t l = 0; l < tl->nlanes; l++)
			npos += tl->lanes[l].n;
		printf("lanes by %s: %zu lanes, %zu samples (%.1f MB of positions), %zu lost records, "
		    "%zu off-CPU gaps in %.1f ms; buckets of %d lanes x %u columns %.3f ms\n",
		    m == TL_TASKS ? "task" : m == TL_CPU ? "cpu" : "all", tl->nlanes, tl->npos,
		    (double)npos * 4 / 1e6, tl->nlost, tl->ngaps, t1, h, w, median(v, runs));
		timeline_free(tl);
	}
	free(buf);
	free(v);
}

static double
draw_once(struct pane *p, const struct pane_canvas *c)
{
	double t0;

	clearok(curscr, TRUE);
	t0 = ms_now();
	p->ops->resize ? p->ops->resize(p, c->h, c->w) : (void)0;
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
	m = median(v, runs);
	free(v);
	return m;
}

/* With symbols: the hottest function of the first event highlighted. */
static void
highlight(struct pane *p, struct symbols *sy, const struct pane_canvas *c, int runs)
{
	const uint32_t *rows;
	double t0;

	if (sy == NULL || hist_rows(sy->h, 0, 0, &rows) == 0)
		return;
	sy->scope.hl_func = hist_entry_get(sy->h, rows[0])->node;
	p->ops->key(p, ACT_TIME_HIGHLIGHT);
	t0 = draw_once(p, c);
	printf(", highlighted: first (its samples picked) %.2f ms", t0);
	printf(", again %.2f ms", median_draw(p, c, runs));
	p->ops->key(p, ACT_TIME_HIGHLIGHT);
}

static void
panes(struct session *s, struct symbols *sy, const struct pane_canvas *c, int runs)
{
	struct pane p;
	double t0, t1;

	t0 = ms_now();
	if (pane_create_sym(&p, PANE_TIMELINE, s, NULL, sy) < 0)
		exit(1);
	t1 = ms_now() - t0;
	printf("timeline pane: made in %.1f ms; draw %dx%d: first (the lanes made) %.2f ms", t1,
	    c->w, c->h, draw_once(&p, c));
	printf(", again %.2f ms", median_draw(&p, c, runs));
	p.ops->key(&p, ACT_EXPAND_ALL);
	printf(", every thread shown %.2f ms", median_draw(&p, c, runs));
	highlight(&p, sy, c, runs);
	for (int i = 0; i < 3; i++)
		p.ops->key(&p, ACT_TIME_ZOOM_IN);
	printf(", zoomed in 8x %.2f ms", median_draw(&p, c, runs));
	p.ops->key(&p, ACT_TIMELINE_LANES);
	printf(", by CPU %.2f ms\n", median_draw(&p, c, runs));
	pane_destroy(&p);
	t0 = ms_now();
	if (pane_create_sym(&p, PANE_FSCOPE, s, NULL, sy) < 0)
		exit(1);
	t1 = ms_now() - t0;
	printf("flame scope pane: made in %.1f ms; draw first (the cells laid out) %.2f ms", t1,
	    draw_once(&p, c));
	printf(", again %.2f ms (medians of %d)\n", median_draw(&p, c, runs), runs);
	pane_destroy(&p);
}

int
main(int argc, char **argv)
{
	int w = argc > 2 ? atoi(argv[2]) : 200, h = argc > 3 ? atoi(argv[3]) : 60;
	int runs = argc > 4 ? atoi(argv[4]) : 21;
	struct perf_err err;
	struct session *s;
	struct theme th;
	struct theme_attrs ta;
	struct pane_canvas c;
	struct symbols *sy = NULL;
	const char *hl = getenv("TIMELINE_BENCH_HL");
	double t0;

	if (argc < 2 || w < 10 || h < 5 || runs < 1) {
		fprintf(stderr, "usage: timeline_bench FILE [WIDTH HEIGHT [RUNS]]\n");
		return 2;
	}
	setlocale(LC_ALL, "");
	t0 = ms_now();
	if ((s = session_open(argv[1], NULL, &err)) == NULL) {
		fprintf(stderr, "timeline_bench: %s\n", err.msg);
		return 1;
	}
	printf("%s: opened in %.0f ms (not the timeline's)\n", argv[1], ms_now() - t0);
	model(s, (unsigned)(w > 29 ? w - 29 : w), h, runs);
	if (hl && strcmp(hl, "1") == 0) {
		t0 = ms_now();
		sy = symbols_new(s, NULL, NULL);
		symbols_run(sy);
		printf("symbols in %.0f ms (for the highlight; not the timeline's)\n", ms_now() - t0);
	}
	if (bench_screen("timeline_bench", w, h, &th, &ta, &c) < 0)
		return 1;
	panes(s, sy, &c, runs);
	endwin();
	symbols_free(sy);
	session_close(s);
	return 0;
}
