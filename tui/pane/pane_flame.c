#include "config.h"

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <curses.h>

#include "core/core.h"
#include "symbolize/cpath.h"
#include "symbolize/cpath_diff.h"
#include "symbolize/flame.h"
#include "symbolize/hist.h"
#include "symbolize/symbolizer.h"
#include "tui/cmd/export_svg.h"
#include "tui/pane.h"
#include "tui/symbols.h"

/*
 * The flame graph pane: the call-path tree of the analysis scope
 * (tui/scope.h: event, zoom, transforms) drawn as an icicle, laid out by
 * symbolize/flame.h: the whole at full width on the top row, each
 * function's callees on the row below it, as wide as their share of the
 * period.  b flips to the bottom-up tree drawn the same way: the
 * functions samples were taken in on the top row, their callers below.
 * A line above the frames says what is shown; the line below them, the
 * selected frame's function, DSO, kind of code, total and self share and
 * samples, and the share of the frames a search matched.
 *
 * The selection moves between frames (up: the caller, down: the callee
 * under the selection's column or the widest, left and right: the frame
 * beside in the row); Enter zooms the selected frame to full width and Esc
 * zooms back out one step (the zooms are the pane's own stack, kept as
 * paths of functions so they survive rebuilds; Esc without a zoom goes
 * back in the history).  For the list widget the pane is the list of its
 * frames, row by row: so / searches them as you type (every matching frame
 * is highlighted), n and N go from match to match, and the status line
 * counts frames.  The tree is rebuilt when the scope changes, and while
 * symbols are resolved as the samples grow by half.
 *
 * Diff mode (perfnav OLD NEW): a differential flame graph.  The frames
 * are NEW's tree (O: OLD's shape), laid out as above; the other
 * recording's tree of the same query (event and transforms paired by
 * name, no zoom) is paired node by node along the names
 * (symbolize/cpath_diff.h), and each frame is coloured by the change of
 * its total's share of its recording's event total: red it grew, blue it
 * shrank, three intensities (0.1, 1 and 5 points or more), grey the same.
 */

#include "tui/pane/flame_impl.h"

static const struct column flame_cols[] = {
	{ "Frame", 20, COL_FLEX | COL_NOSORT },
};

/* The frame of the selection: the selected node, else its nearest ancestor shown. */
static uint32_t
sel_frame(struct flame_pane *f)
{
	uint32_t i;

	while ((i = flame_of_node(&f->fl, f->sel)) == FLAME_NONE && f->sel != f->top &&
	    f->sel != 0)
		f->sel = N(f, f->sel)->parent;
	if (i == FLAME_NONE) {
		f->sel = f->top;
		i = 0;
	}
	return i;
}

/* Select frame i (col: the column to keep to, or UINT32_MAX for its middle). */
static void
select_frame(struct pane *p, uint32_t i, unsigned col)
{
	struct flame_pane *f = p->priv;
	const struct flame_frame *fr = &f->fl.f[i];

	f->sel = fr->node;
	f->col = col != UINT32_MAX ? col : fr->x + fr->w / 2;
	widget_goto_row(&p->w, i);
}

static void sync(struct pane *p);

/* A step of the build under way: rows until budget seconds are spent, laid out once built. */
static int
flame_work(struct pane *p, double budget)
{
	struct flame_pane *f = p->priv;
	double end = mono_seconds() + budget;

	sync(p);	/* a build for another scope or other symbols starts again */
	if (f->job == NULL)
		return PANE_WORK_NONE;
	while (!cpath_job_step(f->job, f->sy->steps))
		if (mono_seconds() >= end)
			return PANE_WORK_MORE;
	while (f->job2 != NULL && !cpath_job_step(f->job2, f->sy->steps))
		if (mono_seconds() >= end)
			return PANE_WORK_MORE;
	flame_finish(f);
	sync(p);
	return PANE_WORK_DONE;
}

/* Tree and layout up to date; the widget's rows are the frames. */
static void
sync(struct pane *p)
{
	struct flame_pane *f = p->priv;
	size_t cur;

	if (symbols_pair_waiting(f->sy))	/* diff mode: no tree until both are in */
		return;
	if (flame_stale(f)) {
		flame_build(f);
		if (f->t == NULL)
			widget_refresh(&p->w);	/* no frame until it is built */
	}
	if (f->t == NULL)	/* building: no layout yet */
		return;
	if (!f->laid || f->fl.width != f->width) {
		flame_layout(&f->fl, f->t, f->top, f->width, H(f), f->tsy->z);
		f->laid = true;
		widget_refresh(&p->w);
		widget_goto_row(&p->w, sel_frame(f));
	}
	/* the widget may have moved (a search, n, N): its row is the selection */
	cur = widget_cursor_row(&p->w);
	if (cur != WIDGET_NONE && cur < f->fl.n && f->fl.f[cur].node != f->sel)
		select_frame(p, (uint32_t)cur, UINT32_MAX);
	if (!f->found_ok || strcmp(f->pat, p->w.search) != 0) {
		snprintf(f->pat, sizeof f->pat, "%s", p->w.search);
		flame_search(&f->found, f->t, H(f), f->pat);
		f->found_ok = true;
	}
}

/* ---- rows for the widget: one per frame ---- */

static size_t
flame_nrows(struct pane *p)
{
	struct flame_pane *f = p->priv;

	return f->laid ? f->fl.n : 0;
}

static const char *
frame_name(const struct flame_pane *f, uint32_t node, char *buf, size_t n)
{
	if (node == 0)
		return "all";
	return cpath_func_name(H(f), N(f, node)->func, buf, n);
}

static void
flame_row(struct pane *p, size_t idx, struct row *r)
{
	struct flame_pane *f = p->priv;
	char buf[512];

	if (idx >= f->fl.n)
		return;
	r->key = f->fl.f[idx].node;
	r->have_key = true;
	row_set(r, 0, 0, "%s", frame_name(f, f->fl.f[idx].node, buf, sizeof buf));
}

static size_t
flame_find(struct pane *p, uint64_t key)
{
	struct flame_pane *f = p->priv;
	uint32_t i = key < UINT32_MAX ? flame_of_node(&f->fl, (uint32_t)key) : FLAME_NONE;

	return i == FLAME_NONE ? WIDGET_NONE : i;
}

/* ---- moving ---- */

static int
move_up(struct pane *p)
{
	struct flame_pane *f = p->priv;
	uint32_t i = sel_frame(f);

	if (f->fl.f[i].parent == FLAME_NONE) {
		if (f->nzoom == 0)
			return PANE_HANDLED;
		snprintf(p->msg, sizeof p->msg, "the top of the zoom: Esc zooms out");
		return PANE_HANDLED | PANE_MSG;
	}
	select_frame(p, f->fl.f[i].parent, f->col);
	return PANE_HANDLED;
}

static int
move_down(struct pane *p)
{
	struct flame_pane *f = p->priv;
	uint32_t c = flame_child(&f->fl, sel_frame(f), f->col);

	if (c != FLAME_NONE) {
		const struct flame_frame *fr = &f->fl.f[c];

		/* keep to the column when the child is under it */
		select_frame(p, c, f->col >= fr->x && f->col < fr->x + fr->w ? f->col : UINT32_MAX);
	}
	return PANE_HANDLED;
}

static int
move_aside(struct pane *p, int dir)
{
	struct flame_pane *f = p->priv;
	uint32_t i = flame_beside(&f->fl, sel_frame(f), dir);

	if (i != FLAME_NONE)
		select_frame(p, i, UINT32_MAX);
	return PANE_HANDLED;
}

static int
zoom_in(struct pane *p)
{
	struct flame_pane *f = p->priv;
	char buf[512];

	sel_frame(f);
	if (f->sel == f->top) {
		snprintf(p->msg, sizeof p->msg, "%s is the whole width already%s",
		    frame_name(f, f->sel, buf, sizeof buf), f->nzoom ? " (Esc zooms out)" : "");
		return PANE_HANDLED | PANE_MSG;
	}
	if (f->nzoom == FLAME_ZOOM_MAX) {
		free(f->zoom[0].f);
		memmove(&f->zoom[0], &f->zoom[1], (FLAME_ZOOM_MAX - 1) * sizeof f->zoom[0]);
		f->nzoom--;
	}
	flame_path_of(f, f->sel, &f->zoom[f->nzoom++]);
	f->top = f->sel;
	f->laid = false;
	return PANE_HANDLED;
}

static int
zoom_out(struct pane *p)
{
	struct flame_pane *f = p->priv;

	if (f->nzoom == 0)
		return PANE_IGNORED;
	free(f->zoom[--f->nzoom].f);
	/* the frame zoomed into stays selected, now inside the wider view */
	f->top = f->nzoom ? flame_refind(f, &f->zoom[f->nzoom - 1]) : 0;
	f->laid = false;
	return PANE_HANDLED;
}

/*
 * The wall view's events: off-cpu, and an on-CPU event whose period is ns
 * (cpu-clock or task-clock: the scope's when it is one); false if either
 * is missing.
 */
static bool
wall_events(struct flame_pane *f)
{
	const struct hist *h = f->sy->h;
	size_t on = SIZE_MAX, off = SIZE_MAX;

	for (size_t i = 0; i < hist_nevents(h); i++) {
		if (symbols_event_offcpu(f->sy, i))
			off = i;
		else if (hist_event_clock(h, i) && (on == SIZE_MAX || i == f->sy->scope.ev))
			on = i;
	}
	f->wall_on = on;
	f->wall_off = off;
	return on != SIZE_MAX && off != SIZE_MAX;
}

/* L: the wall view on or off. */
static int
key_wall(struct pane *p)
{
	struct flame_pane *f = p->priv;

	if (!f->wall && (f->sy->pair != NULL || !wall_events(f))) {
		snprintf(p->msg, sizeof p->msg, "%s", f->sy->pair != NULL ? "the wall view: not in diff mode" :
		    "the wall view needs off-CPU time (sched_switch samples, switch records) and a "
		    "cpu-clock or task-clock event (its period in ns)");
		return PANE_HANDLED | PANE_MSG;
	}
	f->wall = !f->wall;
	flame_zoom_clear(f);
	f->top = f->sel = 0;
	f->vtop = 0;
	sync(p);
	snprintf(p->msg, sizeof p->msg, "%s", f->wall ? "wall view: on-CPU and off-CPU time in one "
	    "graph, off-CPU frames in their colours (L: the scope's event alone)" :
	    "the scope's event alone (L: the wall view)");
	return PANE_HANDLED | PANE_MSG;
}

static int
flip(struct pane *p)
{
	struct flame_pane *f = p->priv;

	f->bottom_up = !f->bottom_up;
	flame_zoom_clear(f);
	f->top = f->sel = 0;
	f->col = f->width / 2;
	f->vtop = 0;
	sync(p);
	snprintf(p->msg, sizeof p->msg, "%s", f->bottom_up ?
	    "bottom-up: where samples were taken on top, their callers below (b: top-down)" :
	    "top-down: the callers on top, their callees below (b: bottom-up)");
	return PANE_HANDLED | PANE_MSG;
}

/* } / {: the scope's next or previous event. */
static int
key_event(struct pane *p, enum action a)
{
	struct flame_pane *f = p->priv;

	if (scope_step_event(&f->sy->scope, f->sy->h, a == ACT_NEXT_EVENT, p->msg, sizeof p->msg))
		sync(p);
	return PANE_HANDLED | PANE_MSG;
}

/* ---- views of other panes ---- */

/* Diff mode: the frames are the other recording's (O): a and v are the shown one's. */
static int
not_shown(struct pane *p)
{
	struct flame_pane *f = p->priv;

	snprintf(p->msg, sizeof p->msg, "these frames are %s's, w shows %s's panes (O: %s's frames)",
	    f->tsy->role ? "NEW" : "OLD", f->tsy->role ? "NEW" : "OLD", f->sy->role ? "NEW" : "OLD");
	return PANE_HANDLED | PANE_MSG;
}

/* O: OLD's shape, or NEW's again. */
static int
key_diff_old(struct pane *p)
{
	struct flame_pane *f = p->priv;

	if (f->sy->pair == NULL) {
		snprintf(p->msg, sizeof p->msg, "one recording: perfnav OLD NEW compares two");
		return PANE_HANDLED | PANE_MSG;
	}
	f->show_old = !f->show_old;
	f->tsy = f->sy->role == (f->show_old ? 0 : 1) ? f->sy : f->sy->pair;
	f->top = f->sel = 0;
	f->vtop = 0;
	snprintf(p->msg, sizeof p->msg, "%s's shape, coloured by the change from OLD to NEW",
	    f->show_old ? "OLD" : "NEW");
	return PANE_HANDLED | PANE_MSG;
}

/* a: the selected frame's function, annotated (the scope's event, process or thread). */
static int
annotate_view(struct pane *p)
{
	struct flame_pane *f = p->priv;

	if (f->tsy != f->sy)
		return not_shown(p);
	return pane_push_annotate_scope(p, f->sel != 0 ? N(f, f->sel)->func : CPATH_NONE);
}

/* v: the samples through the selected frame in the events list (frame:N). */
static int
samples_view(struct pane *p)
{
	struct flame_pane *f = p->priv;
	char buf[512];

	if (f->tsy != f->sy)
		return not_shown(p);
	if (f->sel == 0)
		return pane_push_samples_through(p, f->t, 0, "");
	frame_name(f, f->sel, buf, sizeof buf);
	return pane_push_samples_through(p, f->t, f->sel, buf);
}

/* W: the wakers of the spans through the selected frame. */
static int
wakers_view(struct pane *p)
{
	struct flame_pane *f = p->priv;
	char buf[512];

	if (f->tsy != f->sy)
		return not_shown(p);
	if (f->sel == 0)
		return pane_push_wakers_through(p, f->t, 0, "");
	frame_name(f, f->sel, buf, sizeof buf);
	return pane_push_wakers_through(p, f->t, f->sel, buf);
}

/* ---- keys ---- */

static int
move_by(struct pane *p, int levels)
{
	for (int i = 0; i < (levels < 0 ? -levels : levels); i++)
		(levels < 0 ? move_up : move_down)(p);
	return PANE_HANDLED;
}

static int
do_key(struct pane *p, enum action a)
{
	struct flame_pane *f = p->priv;
	int page = f->rows > 2 ? f->rows / 2 : 1;

	switch (a) {
	case ACT_UP:
		return move_up(p);
	case ACT_DOWN:
		return move_down(p);
	case ACT_FLAME_LEFT:
		return move_aside(p, -1);
	case ACT_FLAME_RIGHT:
		return move_aside(p, 1);
	case ACT_PAGE_UP:
		return move_by(p, -page);
	case ACT_PAGE_DOWN:
		return move_by(p, page);
	case ACT_TOP:
		select_frame(p, 0, UINT32_MAX);
		return PANE_HANDLED;
	case ACT_BOTTOM:
		return move_by(p, (int)f->fl.nrows);
	case ACT_ENTER:
		return zoom_in(p);
	case ACT_BACK:
		return zoom_out(p);
	case ACT_FLAME_FLIP:
		return flip(p);
	case ACT_FLAME_WALL:
		return key_wall(p);
	case ACT_DIFF_OLD:
		return key_diff_old(p);
	case ACT_NEXT_EVENT:
	case ACT_PREV_EVENT:
		return key_event(p, a);
	case ACT_ANNOTATE:
		return annotate_view(p);
	case ACT_EVENTS:
		return samples_view(p);
	case ACT_WAKERS:
		return wakers_view(p);
	case ACT_FILTER:
	case ACT_CLEAR_FILTER:
	case ACT_SORT_NEXT:
	case ACT_SORT_PREV:
	case ACT_SORT_REVERSE:
	case ACT_TOGGLE:
	case ACT_EXPAND:
	case ACT_EXPAND_ALL:
	case ACT_COLLAPSE:
	case ACT_COLLAPSE_ALL:
		snprintf(p->msg, sizeof p->msg, "%s: not in the flame graph (/ highlights frames, "
		    "Enter zooms)", keys_action_name(a));
		return PANE_HANDLED | PANE_MSG;
	default:
		/* search, n and N: the widget moves through the frames */
		return PANE_IGNORED;
	}
}

static int
flame_key(struct pane *p, enum action a)
{
	struct flame_pane *f = p->priv;
	int r;

	sync(p);
	if (f->job != NULL && (a == ACT_NEXT_EVENT || a == ACT_PREV_EVENT))
		return key_event(p, a);	/* another event's tree: the build starts again */
	if (!f->laid)
		return PANE_IGNORED;
	r = do_key(p, a);
	sync(p);	/* a zoom or a flip shows at once */
	return r;
}

/* pane_ops.func: the selected frame's function (transforms, T and B act on it). */
static uint32_t
flame_func(struct pane *p)
{
	struct flame_pane *f = p->priv;

	sync(p);
	if (f->t == NULL || !f->laid || f->sel == 0 || f->sel >= cpath_count(f->t))
		return CPATH_NONE;
	if (f->tsy != f->sy)	/* the shown recording's function of that name */
		return symbols_pair_func(f->tsy, N(f, f->sel)->func);
	return N(f, f->sel)->func;
}

/* A click on a frame selects it. */
static bool
flame_click(struct pane *p, int y, int x)
{
	struct flame_pane *f = p->priv;
	uint32_t i;

	sync(p);
	if (!f->laid || y < f->y0 || y >= f->y0 + f->rows || x < f->x0)
		return false;
	i = flame_at(&f->fl, f->vtop + (size_t)(y - f->y0), (unsigned)(x - f->x0));
	if (i == FLAME_NONE)
		return false;
	select_frame(p, i, (unsigned)(x - f->x0));
	return true;
}

/* ---- drawing ---- */

/* Diff mode: a node's share of its recording's event total, NEW's minus OLD's (points). */
static double
diff_points(const struct flame_pane *f, uint32_t node)
{
	struct cpath_dnode d;
	double a, b;

	if (cpath_diff_node(f->cd, node, &d) < 0)
		return 0;
	a = f->tot[0] ? 100.0 * (double)d.total[0] / (double)f->tot[0] : 0;
	b = f->tot[1] ? 100.0 * (double)d.total[1] / (double)f->tot[1] : 0;
	return f->tsy->role ? a - b : b - a;
}

/* Diff mode: red grew, blue shrank, by 0.1, 1, 5 points or more; else the same. */
static int
diff_el(const struct flame_pane *f, uint32_t node)
{
	static const int grew[] = { EL_FLAME_GREW1, EL_FLAME_GREW2, EL_FLAME_GREW3 };
	static const int shrank[] = { EL_FLAME_SHRANK1, EL_FLAME_SHRANK2, EL_FLAME_SHRANK3 };
	double d = diff_points(f, node), m = d < 0 ? -d : d;
	int lv = m >= 5 ? 2 : m >= 1 ? 1 : 0;

	if (m < 0.1)
		return EL_FLAME_SAME;
	return d > 0 ? grew[lv] : shrank[lv];
}

static int
frame_el(const struct flame_pane *f, const struct flame_frame *fr)
{
	static const int kind_el[FLAME_NKINDS] = {
		[FLAME_USER] = EL_FLAME_USER, [FLAME_KERNEL] = EL_FLAME_KERNEL,
		[FLAME_SYSTEM] = EL_FLAME_SYSTEM, [FLAME_JIT] = EL_FLAME_JIT,
		[FLAME_UNRESOLVED] = EL_FLAME_UNRESOLVED, [FLAME_ROOT] = EL_STATUS,
	};

	if (fr->node == f->sel)
		return EL_FLAME_SELECTED;
	if (fr->node < f->found.n && f->found.on[fr->node])
		return EL_FLAME_MATCH;
	if (f->cd != NULL && fr->node != 0)
		return diff_el(f, fr->node);
	/* off-CPU time: its own colours; in the wall view, frames mostly off CPU */
	if (fr->node != 0 && (f->built_wall ? cpath_node_part(f->t, fr->node) * 2 > N(f, fr->node)->total_period :
	    symbols_event_offcpu(f->sy, f->sy->scope.ev)))
		return fr->kind == FLAME_KERNEL ? EL_FLAME_OFFCPU_KERNEL : EL_FLAME_OFFCPU;
	return kind_el[fr->kind < FLAME_NKINDS ? fr->kind : FLAME_USER];
}

/* Name s in w columns at (y, x): cut with an ellipsis when longer
 * (text_decode's), nothing where not even that fits. */
static void
put_name(WINDOW *win, int y, int x, int w, const char *s)
{
	wchar_t buf[256];

	if (w <= 0 || (w < 2 && text_width(s) > w))
		return;
	text_decode(s, buf, sizeof buf / sizeof buf[0], w, false);
	mvwaddnwstr(win, y, x, buf, -1);
}

/* One frame: a block of its colour, a bar at its left end, its name inside. */
static void
draw_frame(const struct flame_pane *f, const struct pane_canvas *c, int y,
    const struct flame_frame *fr)
{
	WINDOW *win = c->win;
	int x = c->x + (int)fr->x, w = (int)fr->w;
	char buf[512];

	if (x >= c->x + c->w)
		return;
	if (x + w > c->x + c->w)
		w = c->x + c->w - x;
	wattrset(win, (attr_t)c->ta->a[frame_el(f, fr)]);
	mvwhline(win, y, x, ' ', w);
	if (w < 2)
		return;
	if (c->ta->utf8)
		mvwaddnwstr(win, y, x, L"\u258f", 1);
	else
		mvwaddch(win, y, x, '|');
	put_name(win, y, x + 1, w - 1, frame_name(f, fr->node, buf, sizeof buf));
}

static double
pct(uint64_t v, uint64_t of)
{
	return of ? 100.0 * (double)v / (double)of : 0.0;
}

/*
 * The base of the shares: the event's total, as the hot functions and
 * perfnav top give it; in the wall view the two events' (the graph's).
 */
static uint64_t
base_total(const struct flame_pane *f)
{
	const struct hist_event *he = f->cd == NULL && !f->built_wall ? hist_event(f->sy->h, f->sy->scope.ev) :
	    NULL;

	return he && he->total_period ? he->total_period : N(f, 0)->total_period;
}

/* The line above the frames: the tree, event, scope, zoom, search. */

/* Append to buf (n bytes, *k used): cut at its end, never past it. */
static void __attribute__((format(printf, 4, 5)))
addf(char *buf, size_t n, size_t *k, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (*k + 1 >= n)
		return;
	va_start(ap, fmt);
	r = vsnprintf(buf + *k, n - *k, fmt, ap);
	va_end(ap);
	if (r > 0)
		*k = *k + (size_t)r < n ? *k + (size_t)r : n - 1;
}

static const char *
head_line(struct pane *p, char *buf, size_t n)
{
	struct flame_pane *f = p->priv;
	const struct scope *sc = &f->sy->scope;
	const struct hist_event *he = hist_event(f->sy->h, sc->ev);
	size_t nev = hist_nevents(f->sy->h);
	char name[512];
	size_t k = 0;

	addf(buf, n, &k, " %slame graph, %s | %s", f->cd ? "Differential f" : "F",
	    f->built_bu ? "bottom-up (b)" : "top-down (b)",
	    he ? hist_str(f->sy->h, he->name) : "no samples");
	if (f->built_wall && f->t != NULL) {	/* the wall view: both events, by what they hold */
		uint64_t off = cpath_node_part(f->t, 0), all = N(f, 0)->total_period;
		char a[32], b[32];

		k = 0;	/* instead of the line above */
		addf(buf, n, &k, " Wall view (L), %s | %s on CPU (%s) + %s off CPU", f->built_bu ?
		    "bottom-up (b)" : "top-down (b)", text_duration(a, sizeof a, all - off),
		    hist_str(f->sy->h, hist_event(f->sy->h, f->wall_on)->name), text_duration(b, sizeof b, off));
	}
	if (f->cd)
		addf(buf, n, &k, " | %s's shape (O: %s's) | red grew, blue "
		    "shrank, grey the same", f->tsy->role ? "NEW" : "OLD", f->tsy->role ? "OLD" :
		    "NEW");
	if (nev > 1 && !f->built_wall)
		addf(buf, n, &k, " (%zu of %zu, })", sc->ev + 1, nev);
	addf(buf, n, &k, " | %" PRIu64 " sample%s", N(f, 0)->total_samples,
	    plural(N(f, 0)->total_samples));
	if (f->cd == NULL && !f->built_wall && symbols_event_offcpu(f->sy, sc->ev))	/* periods are ns */
		addf(buf, n, &k, ", %s", symbols_offcpu_text(f->sy, N(f, 0)->total_period,
		    name, sizeof name));
	if (sc->zoomed || sc->ncpus || sc->by_file)
		addf(buf, n, &k, " | %s", scope_zoom_text(sc, name, sizeof name));
	if (sc->nxf)
		addf(buf, n, &k, " | %zu transform%s", sc->nxf,
		    sc->nxf == 1 ? "" : "s");
	if (f->nzoom)
		addf(buf, n, &k, " | zoom %zu: %s (Esc: out)", f->nzoom,
		    TEXT_CLIP(frame_name(f, f->top, name, sizeof name), 60));
	if (!f->sy->done)
		addf(buf, n, &k, " | resolving symbols %.0f%%",
		    100 * symbols_progress(f->sy));
	if (f->job != NULL)	/* the frames shown stay until then */
		addf(buf, n, &k, " | updating for new symbols, %.0f%%",
		    100 * flame_build_share(f));
	return buf;
}

/* The line below the frames: the selected frame; the search's share. */
static const char *
info_line(struct pane *p, char *buf, size_t n)
{
	struct flame_pane *f = p->priv;
	const struct cpath_node *nd = N(f, f->sel), *top = N(f, f->top);
	const struct hist_node *hn = f->sel ? hist_node_get(H(f), nd->func) : NULL;
	uint64_t self, self_samples;
	char name[512];
	size_t k = 0;

	cpath_view_self(f->t, f->sel, &self, &self_samples);
	addf(buf, n, &k, " %s", frame_name(f, f->sel, name, sizeof name));
	if (hn)
		addf(buf, n, &k, "  %s (%s)", hn->dso_mixed ? "[several]" :
		    hn->f.dso == DSO_NONE ? "[unknown]" : symbolizer_dso_short(f->tsy->z, hn->f.dso),
		    flame_kind_name(flame_kind(H(f), f->tsy->z, nd->func)));
	addf(buf, n, &k, " | total %.2f%%  self %.2f%% | %" PRIu64
	    " samples, %" PRIu64 " self", pct(nd->total_period, base_total(f)),
	    pct(self, base_total(f)), nd->total_samples, self_samples);
	if (f->cd != NULL && f->sel != 0)
		addf(buf, n, &k, " | NEW - OLD %+.2f%%", diff_points(f, f->sel));
	if (f->top != 0)
		addf(buf, n, &k, " | %.2f%% of the zoom",
		    pct(nd->total_period, top->total_period));
	if (f->pat[0])
		addf(buf, n, &k, " | /%s: %zu frame%s, %.2f%%", f->pat,
		    f->found.nodes, plural(f->found.nodes), pct(f->found.period, base_total(f)));
	return buf;
}

static void
flame_draw(struct pane *p, const struct pane_canvas *c)
{
	struct flame_pane *f = p->priv;
	WINDOW *win = c->win;
	char buf[1024];
	uint32_t sel;

	f->width = c->w > 0 ? (unsigned)c->w : 1;
	sync(p);
	if (!f->laid) {	/* building, or diff mode: waiting for both */
		wattrset(win, (attr_t)c->ta->a[EL_NORMAL]);
		for (int y = c->y; y < c->y + c->h; y++)
			mvwhline(win, y, c->x, ' ', c->w);
		wattrset(win, (attr_t)c->ta->a[EL_COLUMN_HEADER]);
		char w[96];

		if (f->job != NULL)
			snprintf(buf, sizeof buf, " Flame graph: building the tree, %.0f%% of its rows "
			    "taken (keys answer meanwhile)", 100 * flame_build_share(f));
		else
			snprintf(buf, sizeof buf, " Differential flame graph: waiting for the %s",
			    symbols_pair_wait_text(f->sy, w, sizeof w));
		text_line(win, c->y, c->x, c->w, buf);
		return;
	}
	sel = sel_frame(f);
	f->y0 = c->y + 1;
	f->x0 = c->x;
	f->rows = c->h > 2 ? c->h - 2 : 0;
	if (f->fl.f[sel].row < f->vtop)
		f->vtop = f->fl.f[sel].row;
	else if (f->rows > 0 && f->fl.f[sel].row >= f->vtop + (size_t)f->rows)
		f->vtop = f->fl.f[sel].row - (size_t)f->rows + 1;
	wattrset(win, (attr_t)c->ta->a[EL_NORMAL]);
	for (int y = c->y; y < c->y + c->h; y++)
		mvwhline(win, y, c->x, ' ', c->w);
	for (int r = 0; r < f->rows && f->vtop + (size_t)r < f->fl.nrows; r++) {
		size_t row = f->vtop + (size_t)r;

		for (uint32_t i = f->fl.row[row]; i < f->fl.row[row + 1]; i++)
			draw_frame(f, c, f->y0 + r, &f->fl.f[i]);
	}
	wattrset(win, (attr_t)c->ta->a[EL_COLUMN_HEADER]);
	text_line(win, c->y, c->x, c->w, head_line(p, buf, sizeof buf));
	if (c->h < 2)
		return;
	text_line(win, c->y + c->h - 1, c->x, c->w, info_line(p, buf, sizeof buf));
}

static void
flame_resize(struct pane *p, int h, int w)
{
	struct flame_pane *f = p->priv;

	f->width = w > 0 ? (unsigned)w : 1;
	f->rows = h > 2 ? h - 2 : 0;
}

static const char *
flame_help(struct pane *p)
{
	(void)p;
	return "arrows/hjkl:move Enter:zoom Esc:out /:find b:flip a v";
}

/* ---- life ---- */

static void
flame_enter(struct pane *p, const struct nav_view *v)
{
	(void)v;
	sync(p);
}

static void
flame_save(struct pane *p, struct nav_view *v)
{
	struct flame_pane *f = p->priv;

	v->cursor = f->sel;
}

static int
flame_init(struct pane *p)
{
	struct flame_pane *f = xcalloc(1, sizeof *f);

	p->priv = f;
	f->sy = p->sym;
	if (f->sy == NULL) {
		f->sy = symbols_new(p->s, NULL, NULL);
		f->own = true;
		p->sym = f->sy;
	}
	/* diff mode: NEW's shape */
	f->tsy = f->sy->pair != NULL && f->sy->role == 0 ? f->sy->pair : f->sy;
	f->width = FLAME_WIDTH;
	f->col = FLAME_WIDTH / 2;
	f->y0 = 3;		/* the app's pane area starts on line 2, frames a line below */
	p->cols = flame_cols;
	p->ncols = 1;
	p->is_list = true;
	widget_init(&p->w, p, false);
	sync(p);
	return 0;
}

static void
flame_free_pane(struct pane *p)
{
	struct flame_pane *f = p->priv;

	if (f == NULL)
		return;
	flame_zoom_clear(f);
	cpath_free(f->t);
	cpath_job_free(f->job);
	cpath_job_free(f->job2);
	cpath_free(f->jold);
	free(f->jsel.f);
	cpath_free(f->alt.t);
	cpath_diff_free(f->cd);
	cpath_free(f->t2);
	flame_free(&f->fl);
	flame_search_free(&f->found);
	if (f->own) {
		symbols_free(f->sy);
		p->sym = NULL;
	}
	free(f);
}

/*
 * The export action's .svg: the graph as shown (its tree, event, scope; in
 * diff mode its colours by the change), the head line its title.
 */
static int
flame_write_svg(struct pane *p, FILE *fp)
{
	struct flame_pane *f = p->priv;
	char title[1024];

	sync(p);
	if (f->job != NULL) {	/* the file is of the whole tree: its build ends now */
		flame_finish(f);
		sync(p);
	}
	if (f->t == NULL)
		return -1;
	head_line(p, title, sizeof title);
	if (f->cd != NULL)	/* diff mode: coloured by the change, as drawn */
		return export_svg_tree_diff(H(f), f->tsy->z, f->t, f->cd, f->tot[0], f->tot[1],
		    f->tsy->role == 0, false, title + 1, fp);
	return export_svg_tree(H(f), f->tsy->z, f->t, false, !f->built_wall &&
	    symbols_event_offcpu(f->sy, f->sy->scope.ev), title + 1, fp);
}

const struct pane_ops pane_flame_ops = {
	.name = "flame",
	.description = "the flame graph (top-down or bottom-up)",
	.keys = "Left flame-left\n" "h flame-left\n" "Right flame-right\n" "l flame-right\n" "b flame-flip\n" "L flame-wall\n" "} next-event\n" "{ prev-event\n" "O diff-old\n",
	.title = "Flame graph",
	.init = flame_init,
	.free = flame_free_pane,
	.resize = flame_resize,
	.draw = flame_draw,
	.key = flame_key,
	.nrows = flame_nrows,
	.row = flame_row,
	.enter = flame_enter,
	.save = flame_save,
	.help = flame_help,
	.find = flame_find,
	.click = flame_click,
	.func = flame_func,
	.write_svg = flame_write_svg,
	.work = flame_work,
};
