#include "config.h"

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <curses.h>

#include "core/core.h"
#include "symbolize/hist.h"
#include "symbolize/offcpu.h"
#include "symbolize/timeline.h"
#include "tui/pane.h"
#include "tui/symbols.h"

/*
 * The timeline pane: the samples of the recording over time
 * (symbolize/timeline.h), one row per process with its threads below it
 * (collapsible: +, e, c, Enter), or one per CPU (p), and a first row of
 * every sample.  Each row is the density of its samples in the columns of
 * the time axis, drawn with block glyphs (▁ to █, or ASCII .:-=+*#@
 * when the terminal is not UTF-8) coloured by intensity (timeline-1 to 4
 * of the theme); a column with lost samples is a ! (timeline-lost), a
 * thread switched out for most of a column is a ─ (timeline-offcpu, from
 * switch records).  The time axis above is labelled as perf script prints
 * times.
 *
 * A time cursor (Left/Right) marks a column; z and Z zoom the axis in
 * and out around it; Up/Down move between rows.  s marks where a range
 * starts, moving the cursor extends it, and s again or Enter applies it
 * to every pane (pane_apply_time: a step of the history, Esc removes it);
 * Esc drops a mark.  A drag of the mouse over the axis does the same.
 * H draws the samples whose own function is the one selected in the hot
 * functions (scope.hl_func) in timeline-highlight.  P (a recording with
 * switch events) colours the columns with samples by parallelism instead
 * of density: perf 6.15's count of running threads averaged over the
 * column (timeline_par_buckets), in timeline-1 to 4 as the legend on the
 * header line says.  The view starts at the scope's time range (or the
 * whole recording's samples).
 */

#define TL_LABEL_MAX	28
#define TL_MIN_COL_NS	100	/* the deepest zoom: 100 ns a column */

struct tl_pane {
	struct timeline	*tl[2];		/* TL_TASKS, TL_CPU: made when first shown */
	/* lanes of mode being made in steps (the symbols' steps on:
	 * tl_work): whether the bounds follow, a view entered meanwhile */
	struct timeline_job	*job;
	bool		 job_bounds;
	struct nav_view	 pend;
	bool		 has_pend;
	enum tl_mode	 mode;
	int		 attr;		/* the event its timelines were built for */
	bool		*open;		/* per lane of tl[TL_TASKS]: threads shown */
	uint32_t	*vis;		/* rows: lane indexes */
	size_t		 nvis, capvis;
	size_t		 row, vtop;	/* cursor row, first row drawn */
	uint64_t	 lo, hi;	/* the bounds: the scope's range or the samples' span */
	uint64_t	 v0, v1;	/* the view [v0, v1) */
	uint64_t	 cur;		/* the cursor's time (its column is the one holding it) */
	bool		 marking;
	uint64_t	 mark_lo, mark_hi;	/* the marked column */
	bool		 highlight;
	bool		 par;		/* colour by parallelism (P), else by density */
	int		 legend_at;	/* the header's legend: its byte, -1 none */
	unsigned	 width;		/* columns of the axis at the last draw */
	int		 y0, x0, rows;	/* where rows were drawn last */
	unsigned	 scope_gen;
	const struct hist	*in;		/* the scope's samples (symbols_scope_hist), or NULL: all */
	bool		 drag;		/* a press on the axis started a range */
	bool		 stepped;	/* the bounds are a time step's (enter) */
	uint32_t	*hl;		/* the highlighted function's samples */
	size_t		 nhl;
	uint32_t	 hl_func;	/* hl is of this function, sym->gen, event */
	unsigned	 hl_gen;
	int		 hl_attr;
	uint32_t	*buf, *hbuf;
	uint32_t	*pbuf;		/* par: each column's parallelism, at the last draw */
	uint64_t	*lbuf, *gbuf;
	uint8_t		*kbuf;		/* per column: the kind of its gap */
	uint32_t	*wbuf;		/* per column: wakeups ending a gap */
	unsigned	 cap;
};

static struct timeline *
TL(const struct tl_pane *t)
{
	return t->tl[t->mode];
}

/* ---- rows and bounds ---- */

static void
build_vis(struct tl_pane *t)
{
	const struct timeline *tl = TL(t);

	t->nvis = 0;
	for (uint32_t i = 0; i < tl->nlanes; i++) {
		const struct tl_lane *l = &tl->lanes[i];

		if (l->kind == TL_KIND_THREAD && !t->open[l->parent])
			continue;
		GROW(t->vis, t->capvis, t->nvis + 1);
		t->vis[t->nvis++] = i;
	}
	if (t->row >= t->nvis)
		t->row = t->nvis ? t->nvis - 1 : 0;
}

static void
set_view(struct tl_pane *t, uint64_t v0, uint64_t v1)
{
	uint64_t min = (uint64_t)(t->width ? t->width : 1) * TL_MIN_COL_NS;

	if (v1 - v0 < min)
		v1 = v0 + min;
	if (v1 - v0 >= t->hi - t->lo) {
		v0 = t->lo;
		v1 = t->hi;
	} else if (v0 < t->lo) {
		v1 += t->lo - v0;
		v0 = t->lo;
	} else if (v1 > t->hi) {
		v0 -= v1 - t->hi;
		v1 = t->hi;
	}
	t->v0 = v0;
	t->v1 = v1 > v0 ? v1 : v0 + 1;
	if (t->cur < t->v0)
		t->cur = t->v0;
	if (t->cur >= t->v1)
		t->cur = t->v1 - 1;
}

/* Bounds: the range [lo, hi] (both in) if given, else the scope's, else the samples'. */
static void
set_bounds(struct pane *p, bool have, uint64_t lo, uint64_t hi)
{
	struct tl_pane *t = p->priv;
	const struct timeline *tl = TL(t);
	uint64_t s, e;

	if (!have && p->sym && scope_time_range(&p->sym->scope, &s, &e)) {
		have = true;
		lo = s;
		hi = e;
	}
	if (!have) {
		lo = tl->first;
		hi = tl->last;
	}
	t->lo = lo;
	t->hi = hi == UINT64_MAX ? hi : hi + 1;
	if (t->hi <= t->lo)
		t->hi = t->lo + 1;
	t->cur = t->lo;
	t->marking = false;
	set_view(t, t->lo, t->hi);
}

/* The rows of mode's lanes (made): threads shown when there are few. */
static void
lanes_shown(struct pane *p, enum tl_mode mode)
{
	struct tl_pane *t = p->priv;

	t->mode = mode;
	if (mode == TL_TASKS && t->open == NULL) {
		struct timeline *tl = t->tl[TL_TASKS];

		t->open = xcalloc(tl->nlanes + 1, sizeof *t->open);
		/* threads shown when there are few rows */
		for (size_t i = 0; i < tl->nlanes; i++)
			t->open[i] = tl->nlanes <= 60;
	}
	build_vis(t);
}

static void tl_enter(struct pane *p, const struct nav_view *v);

/* The lanes the job made shown (with the bounds, if it was asked), then a view entered meanwhile. */
static void
finish(struct pane *p)
{
	struct tl_pane *t = p->priv;

	t->tl[t->mode] = timeline_job_take(t->job);
	t->job = NULL;
	lanes_shown(p, t->mode);
	if (t->job_bounds)
		set_bounds(p, false, 0, 0);
	if (t->has_pend) {
		t->has_pend = false;
		tl_enter(p, &t->pend);
	}
}

/*
 * Show mode's lanes, made first if need be: at once, or in steps when
 * the app steps them (tl_work; bounds: the bounds set again once made).
 */
static void
make_timeline(struct pane *p, enum tl_mode mode, bool bounds)
{
	struct tl_pane *t = p->priv;

	if (t->tl[mode] != NULL) {
		lanes_shown(p, mode);
		if (bounds)
			set_bounds(p, false, 0, 0);
		return;
	}
	timeline_job_free(t->job);
	t->job = timeline_job_new(p->s, mode, t->attr, t->in, symbols_offcpu(p->sym));
	t->job_bounds = bounds;
	t->mode = mode;
	t->nvis = 0;
	if (p->sym == NULL || p->sym->steps == 0)
		finish(p);
}

/*
 * The attr of the scope's event whose samples the lanes show: the off-CPU
 * event is no attr of the recording (its spans are the gaps): every sample.
 */
static int
scope_attr(const struct pane *p)
{
	int attr = symbols_scope_attr(p->sym);

	return attr >= 0 && (size_t)attr >= session_attrs(p->s)->n ? -1 : attr;
}

/* Follow the scope: its event and samples (rebuild) and its time range (the bounds). */
static void
sync(struct pane *p)
{
	struct tl_pane *t = p->priv;
	int attr = scope_attr(p);
	const struct hist *in = symbols_scope_hist(p->sym);

	/* the samples of the scope, once the hist is counted for it */
	if (in != t->in || (in != NULL && p->sym->scope.gen != t->scope_gen))
		attr = INT32_MIN;	/* rebuild */
	t->in = in;
	/* the hist may find a second event only as symbols are resolved */
	if (attr != t->attr) {
		attr = scope_attr(p);
		for (int m = 0; m < 2; m++) {
			timeline_free(t->tl[m]);
			t->tl[m] = NULL;
		}
		timeline_job_free(t->job);
		t->job = NULL;
		free(t->open);
		t->open = NULL;
		t->attr = attr;
	}
	if (TL(t) == NULL && t->job == NULL)	/* the first time the pane is shown, or another event */
		make_timeline(p, t->mode, true);
	if (p->sym == NULL || p->sym->scope.gen == t->scope_gen)
		return;
	t->scope_gen = p->sym->scope.gen;
	if (t->job == NULL)
		set_bounds(p, false, 0, 0);
	else
		t->job_bounds = true;	/* once the lanes are made */
}

/* A step of the lanes being made: positions until budget seconds are spent, shown once made. */
static int
tl_work(struct pane *p, double budget)
{
	struct tl_pane *t = p->priv;
	double end = mono_seconds() + budget;

	sync(p);	/* lanes for another event or scope start again */
	if (t->job == NULL)
		return PANE_WORK_NONE;
	while (!timeline_job_step(t->job, p->sym->steps))
		if (mono_seconds() >= end)
			return PANE_WORK_MORE;
	finish(p);
	return PANE_WORK_DONE;
}

/* ---- columns ---- */

static uint64_t
col_start(const struct tl_pane *t, unsigned k)
{
	return timeline_col_start(t->v0, t->v1, t->width, k);
}

/* The column holding time x (clamped to the view). */
static unsigned
col_of(const struct tl_pane *t, uint64_t x)
{
	unsigned lo = 0, hi = t->width ? t->width - 1 : 0;

	if (x <= t->v0)
		return 0;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo + 1) / 2;

		if (col_start(t, mid) <= x)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* The marked range so far: [*a, *b], both in. */
static void
mark_range(const struct tl_pane *t, uint64_t *a, uint64_t *b)
{
	unsigned k = col_of(t, t->cur);
	uint64_t c0 = col_start(t, k), c1 = col_start(t, k + 1) - 1;

	*a = t->mark_lo < c0 ? t->mark_lo : c0;
	*b = t->mark_hi > c1 ? t->mark_hi : c1;
}

static void
move_cursor(struct tl_pane *t, int dir)
{
	unsigned k = col_of(t, t->cur);
	uint64_t w = t->v1 - t->v0;

	if (dir < 0 && k == 0 && t->v0 > t->lo) {
		set_view(t, t->v0 - (w / 4 < t->v0 - t->lo ? w / 4 : t->v0 - t->lo),
		    t->v1 - (w / 4 < t->v0 - t->lo ? w / 4 : t->v0 - t->lo));
		k = col_of(t, t->cur);
	} else if (dir > 0 && k + 1 >= t->width && t->v1 < t->hi) {
		uint64_t d = w / 4 < t->hi - t->v1 ? w / 4 : t->hi - t->v1;

		set_view(t, t->v0 + d, t->v1 + d);
		k = col_of(t, t->cur);
	}
	if (dir < 0 && k > 0)
		k--;
	else if (dir > 0 && k + 1 < t->width)
		k++;
	t->cur = col_start(t, k);
}

static void
zoom(struct tl_pane *t, bool in)
{
	uint64_t w = t->v1 - t->v0, c = t->cur, nw = in ? w / 2 : w * 2;
	/* keep the cursor's time at its place on the axis */
	uint64_t left = in ? (c - t->v0) / 2 : (c - t->v0) * 2;

	uint64_t v0;

	if (!in && w > UINT64_MAX / 4)
		nw = UINT64_MAX / 2;
	v0 = c - (left < c - t->lo ? left : c - t->lo);
	set_view(t, v0, v0 + nw);
}

/* ---- keys ---- */

static int
apply(struct pane *p)
{
	struct tl_pane *t = p->priv;
	uint64_t a, b;

	mark_range(t, &a, &b);
	t->marking = false;
	return pane_apply_time(p, a, b) | PANE_REDRAW;
}

static int
tree_key(struct pane *p, enum action a)
{
	struct tl_pane *t = p->priv;
	const struct timeline *tl = TL(t);
	uint32_t lane = t->nvis ? t->vis[t->row] : 0;
	const struct tl_lane *l = &tl->lanes[lane];
	uint32_t pl = l->kind == TL_KIND_THREAD ? l->parent : lane;

	if (t->mode != TL_TASKS)
		return PANE_IGNORED;
	switch (a) {
	case ACT_ENTER:
	case ACT_TOGGLE:
		t->open[pl] = !t->open[pl];
		break;
	case ACT_EXPAND:
		t->open[pl] = true;
		break;
	case ACT_COLLAPSE:
		t->open[pl] = false;
		break;
	case ACT_EXPAND_ALL:
	case ACT_COLLAPSE_ALL:
		for (size_t i = 0; i < tl->nlanes; i++)
			t->open[i] = a == ACT_EXPAND_ALL;
		break;
	default:
		return PANE_IGNORED;
	}
	build_vis(t);
	for (size_t i = 0; i < t->nvis; i++)
		if (t->vis[i] == (t->open[pl] ? lane : pl))
			t->row = i;
	return PANE_HANDLED | PANE_REDRAW;
}

static int
row_key(struct tl_pane *t, enum action a)
{
	size_t page = t->rows > 1 ? (size_t)t->rows - 1 : 1;

	switch (a) {
	case ACT_UP:
		t->row = t->row ? t->row - 1 : 0;
		break;
	case ACT_DOWN:
		t->row = t->row + 1 < t->nvis ? t->row + 1 : t->row;
		break;
	case ACT_PAGE_UP:
		t->row = t->row > page ? t->row - page : 0;
		break;
	case ACT_PAGE_DOWN:
		t->row = t->row + page < t->nvis ? t->row + page : (t->nvis ? t->nvis - 1 : 0);
		break;
	case ACT_TOP:
		t->row = 0;
		break;
	case ACT_BOTTOM:
		t->row = t->nvis ? t->nvis - 1 : 0;
		break;
	default:
		return PANE_IGNORED;
	}
	return PANE_HANDLED | PANE_REDRAW;
}

/*
 * Is the lane in the scope's zoom (its threads, processes and cpus)?  The
 * lanes outside are drawn dimmed; a lane the zoom does not decide (all,
 * a process with a zoomed thread, a thread under a cpu zoom) is in.
 */
static bool
lane_in(const struct pane *p, uint32_t lane)
{
	const struct tl_lane *l = &TL((struct tl_pane *)p->priv)->lanes[lane];
	const struct scope *sc = p->sym ? &p->sym->scope : NULL;

	if (sc == NULL || lane == 0)
		return true;
	if (l->kind == TL_KIND_CPU)
		return scope_cpu_in(sc, l->cpu);
	if (sc->zoomed && sc->sel.by_pid && l->pid != sc->sel.pid)
		return false;
	if (sc->zoomed && sc->sel.by_tid && l->kind == TL_KIND_THREAD && l->tid != sc->sel.tid)
		return false;
	return true;
}

/* t: zoom the scope into the lane's process, thread or cpu. */
static int
zoom_lane(struct pane *p)
{
	struct tl_pane *t = p->priv;
	uint32_t lane = t->nvis ? t->vis[t->row] : 0;
	const struct tl_lane *l = &TL(t)->lanes[lane];
	char name[64], label[NAV_LABEL_MAX];

	timeline_label(TL(t), lane, name, sizeof name);
	if (lane == 0) {
		snprintf(p->msg, sizeof p->msg, "t zooms into the selected lane's process, thread or "
		    "cpu: select one");
		return PANE_HANDLED | PANE_MSG;
	}
	if (l->kind == TL_KIND_CPU && l->cpu < 0) {	/* samples that record no cpu: no cpu to zoom to */
		snprintf(p->msg, sizeof p->msg, "the samples of this lane record no cpu: no cpu zoom");
		return PANE_HANDLED | PANE_MSG;
	}
	if (l->kind == TL_KIND_CPU) {
		snprintf(label, sizeof label, "cpu %" PRId32, l->cpu);
		return pane_push_zoom(p, PANE_TIMELINE, SZ_CPU, 0, 0, (uint32_t)l->cpu, label);
	}
	if (l->kind == TL_KIND_THREAD) {
		snprintf(label, sizeof label, "thread %s", TEXT_CLIP(name, 40));
		return pane_push_zoom(p, PANE_TIMELINE, SZ_TID, l->pid, l->tid, 0, label);
	}
	snprintf(label, sizeof label, "pid %s", TEXT_CLIP(name, 40));
	return pane_push_zoom(p, PANE_TIMELINE, SZ_PID, l->pid, l->pid, 0, label);
}

/* The flame scope of the selected row: its view names the lane as the events filter would. */
static int
push_fscope(struct pane *p)
{
	struct tl_pane *t = p->priv;
	uint32_t lane = t->nvis ? t->vis[t->row] : 0;
	const struct tl_lane *l = &TL(t)->lanes[lane];
	char name[64];

	nav_view_init(&p->push, PANE_FSCOPE);
	if (l->kind == TL_KIND_PROC)
		snprintf(p->push.filter, sizeof p->push.filter, "pid:%" PRId32, l->pid);
	else if (l->kind == TL_KIND_THREAD)
		snprintf(p->push.filter, sizeof p->push.filter, "tid:%" PRId32, l->tid);
	else if (l->kind == TL_KIND_CPU)
		snprintf(p->push.filter, sizeof p->push.filter, "cpu:%" PRId32, l->cpu);
	snprintf(p->push.label, sizeof p->push.label, "fscope %s",
	    TEXT_CLIP(timeline_label(TL(t), lane, name, sizeof name), 30));
	return PANE_HANDLED | PANE_PUSH;
}

static int
tl_key(struct pane *p, enum action a)
{
	struct tl_pane *t = p->priv;
	int r;

	sync(p);
	if (t->job != NULL)	/* the lanes are being made */
		return PANE_IGNORED;
	switch (a) {
	case ACT_TIME_LEFT:
	case ACT_TIME_RIGHT:
		move_cursor(t, a == ACT_TIME_LEFT ? -1 : 1);
		return PANE_HANDLED | PANE_REDRAW;
	case ACT_TIME_ZOOM_IN:
	case ACT_TIME_ZOOM_OUT:
		zoom(t, a == ACT_TIME_ZOOM_IN);
		return PANE_HANDLED | PANE_REDRAW;
	case ACT_TIME_MARK:
		if (t->marking)
			return apply(p);
		t->marking = true;
		t->mark_lo = col_start(t, col_of(t, t->cur));
		t->mark_hi = col_start(t, col_of(t, t->cur) + 1) - 1;
		return PANE_HANDLED | PANE_REDRAW;
	case ACT_BACK:
		if (!t->marking)
			return PANE_IGNORED;
		t->marking = false;
		return PANE_HANDLED | PANE_REDRAW;
	case ACT_TIMELINE_LANES:
		make_timeline(p, t->mode == TL_TASKS ? TL_CPU : TL_TASKS, false);
		t->row = 0;
		return PANE_HANDLED | PANE_REDRAW;
	case ACT_TIME_FSCOPE:
		return push_fscope(p);
	case ACT_ZOOM_THREAD:
		return zoom_lane(p);
	case ACT_TIME_HIGHLIGHT:
		if (!t->highlight && (p->sym == NULL || p->sym->scope.hl_func == CPATH_NONE)) {
			snprintf(p->msg, sizeof p->msg,
			    "H highlights the function selected in the hot functions (1): select one");
			return PANE_HANDLED | PANE_MSG;
		}
		t->highlight = !t->highlight;
		return PANE_HANDLED | PANE_REDRAW;
	case ACT_TIME_PARALLEL:
		if (!t->par && symbols_parallel(p->sym) == NULL) {
			snprintf(p->msg, sizeof p->msg, "%s", p->sym != NULL && !p->sym->done ?
			    "parallelism: once symbols are in" : "no parallelism: the recording has no "
			    "switch events (perf record --latency or --switch-events)");
			return PANE_HANDLED | PANE_MSG;
		}
		t->par = !t->par;
		return PANE_HANDLED | PANE_REDRAW;
	case ACT_ENTER:
		if (t->marking)
			return apply(p);
		break;
	default:
		break;
	}
	if ((r = row_key(t, a)) != PANE_IGNORED)
		return r;
	return tree_key(p, a);
}

/* ---- drawing ---- */

static const wchar_t blocks[8] = { 0x2581, 0x2582, 0x2583, 0x2584, 0x2585, 0x2586, 0x2587, 0x2588 };
static const char ascii_blocks[8] = { '.', ':', '-', '=', '+', '*', '#', '@' };

static void
put_glyph(const struct pane_canvas *c, int y, int x, int el, unsigned level, wchar_t wc, char ch)
{
	wchar_t s[2] = { 0, 0 };

	wattrset((WINDOW *)c->win, (attr_t)c->ta->a[el]);
	if (level > 0 && level <= 8) {
		wc = blocks[level - 1];
		ch = ascii_blocks[level - 1];
	}
	if (c->ta->utf8 && wc) {
		s[0] = wc;
		mvwaddnwstr(c->win, y, x, s, 1);
	} else {
		mvwaddch(c->win, y, x, (chtype)(unsigned char)ch);
	}
}

static void
grow_bufs(struct tl_pane *t, unsigned w)
{
	if (w <= t->cap)
		return;
	t->buf = xreallocarray(t->buf, w, sizeof *t->buf);
	t->hbuf = xreallocarray(t->hbuf, w, sizeof *t->hbuf);
	t->pbuf = xreallocarray(t->pbuf, w, sizeof *t->pbuf);
	t->lbuf = xreallocarray(t->lbuf, w, sizeof *t->lbuf);
	t->gbuf = xreallocarray(t->gbuf, w, sizeof *t->gbuf);
	t->kbuf = xreallocarray(t->kbuf, w, sizeof *t->kbuf);
	t->wbuf = xreallocarray(t->wbuf, w, sizeof *t->wbuf);
	t->cap = w;
}

/* The element of a column: the cursor, the marked range, else the glyph's own. */
static int
col_el(const struct tl_pane *t, unsigned k, unsigned ck, int el)
{
	if (k == ck)
		return EL_CURSOR;
	if (t->marking) {
		uint64_t a, b, s = col_start(t, k);

		mark_range(t, &a, &b);
		if (s >= a && s <= b)
			return EL_TL_RANGE;
	}
	return el;
}

/* The samples of the function to highlight, picked again when it, the hist or the event changed. */
static void
pick_hl(struct pane *p)
{
	struct tl_pane *t = p->priv;
	uint32_t func = p->sym->scope.hl_func;

	if (t->hl && t->hl_func == func && t->hl_gen == p->sym->gen && t->hl_attr == t->attr)
		return;
	free(t->hl);
	t->hl = timeline_func_samples(TL(t), p->sym->h, func, &t->nhl);
	if (t->hl == NULL)
		t->hl = xcalloc(1, sizeof *t->hl);
	t->hl_func = func;
	t->hl_gen = p->sym->gen;
	t->hl_attr = t->attr;
}

/* A gap's element and glyphs by its kind (sleeping, blocked, preempted). */
static const int gap_el[TL_GAP_NKINDS] = { EL_TL_OFFCPU, EL_TL_BLOCKED, EL_TL_PREEMPTED };
static const wchar_t gap_glyph[TL_GAP_NKINDS] = { 0x2500, 0x2501, 0x2504 };	/* ─ ━ ┄ */
static const char gap_ascii[TL_GAP_NKINDS] = { '-', '=', '~' };

/* The density levels' elements, and by parallelism the colours' (timeline_par_bin). */
static const int level_el[4] = { EL_TL_LEVEL1, EL_TL_LEVEL2, EL_TL_LEVEL3, EL_TL_LEVEL4 };

/* The model the columns are coloured by (P), or NULL: by density. */
static const struct parallel *
par_model(const struct pane *p)
{
	const struct tl_pane *t = p->priv;

	return t->par ? symbols_parallel(p->sym) : NULL;
}

/* One lane's row of density glyphs over the axis. */
static void
draw_lane(struct pane *p, const struct pane_canvas *c, int y, int x, uint32_t lane, uint32_t max)
{
	struct tl_pane *t = p->priv;
	const struct timeline *tl = TL(t);
	unsigned w = t->width, ck = col_of(t, t->cur);
	uint64_t colw = (t->v1 - t->v0) / (w ? w : 1);
	bool hl = t->highlight && p->sym && p->sym->scope.hl_func != CPATH_NONE;
	bool in = lane_in(p, lane);
	const struct parallel *pm = par_model(p);

	timeline_buckets(tl, lane, t->v0, t->v1, w, t->buf);
	timeline_lost_buckets(tl, lane, t->v0, t->v1, w, t->lbuf);
	timeline_gap_buckets(tl, lane, t->v0, t->v1, w, t->gbuf, t->kbuf);
	timeline_wake_buckets(tl, lane, t->v0, t->v1, w, t->wbuf);
	if (hl) {
		pick_hl(p);
		timeline_buckets_picked(tl, t->hl, t->nhl, lane, t->v0, t->v1, w, t->hbuf);
	}
	for (unsigned k = 0; k < w; k++) {
		uint32_t n = t->buf[k];
		unsigned lv = n && max ? (unsigned)(((uint64_t)n * 8 + max - 1) / max) : 0;
		int el = !in ? EL_DIM : pm != NULL ? level_el[timeline_par_bin(t->pbuf[k], pm->max)] :
		    level_el[lv > 6 ? 3 : lv > 4 ? 2 : lv > 2 ? 1 : 0];

		if (t->lbuf[k])
			put_glyph(c, y, x + (int)k, col_el(t, k, ck, EL_TL_LOST), 0, L'!', '!');
		else if (hl && t->hbuf[k])
			put_glyph(c, y, x + (int)k, col_el(t, k, ck, EL_TL_HIGHLIGHT), lv, 0, ' ');
		else if (t->wbuf[k])	/* woken here: the end of a wait */
			put_glyph(c, y, x + (int)k, col_el(t, k, ck, EL_TL_WAKEUP), 0, 0x2191, '^');	/* ↑ */
		else if (n)
			put_glyph(c, y, x + (int)k, col_el(t, k, ck, el), lv, 0, ' ');
		else if (t->gbuf[k] * 2 >= colw && colw)	/* off CPU: by what the thread waited in */
			put_glyph(c, y, x + (int)k, col_el(t, k, ck, gap_el[t->kbuf[k] % TL_GAP_NKINDS]), 0,
			    gap_glyph[t->kbuf[k] % TL_GAP_NKINDS], gap_ascii[t->kbuf[k] % TL_GAP_NKINDS]);
		else
			put_glyph(c, y, x + (int)k, col_el(t, k, ck, EL_NORMAL), 0, 0, ' ');
	}
}

/* The row drawn of thread (pid, tid): its thread's lane, else its process's; -1: none. */
static int
row_of_thread(const struct tl_pane *t, int32_t pid, int32_t tid)
{
	const struct timeline *tl = TL(t);
	int proc = -1;

	for (int r = 0; r < t->rows && t->vtop + (size_t)r < t->nvis; r++) {
		const struct tl_lane *l = &tl->lanes[t->vis[t->vtop + (size_t)r]];

		if (l->kind == TL_KIND_THREAD && l->tid == tid)
			return r;
		if (l->kind == TL_KIND_PROC && l->pid == pid)
			proc = r;	/* its threads folded into it, or it has one */
	}
	return proc;
}

/*
 * The selected row's wakeups: from each wakeup's column on the waker's
 * row (a corner) a line to the woken row's mark, over the rows between.
 */
static void
draw_wake_lines(struct pane *p, const struct pane_canvas *c)
{
	struct tl_pane *t = p->priv;
	const struct timeline *tl = TL(t);
	const struct tl_lane *l;
	unsigned ck = col_of(t, t->cur);
	int me;

	if (t->mode != TL_TASKS || t->row >= t->nvis || t->row < t->vtop ||
	    t->row >= t->vtop + (size_t)t->rows)
		return;
	l = &tl->lanes[t->vis[t->row]];
	me = (int)(t->row - t->vtop);
	for (uint32_t i = l->gfirst; i < l->gfirst + l->gn; i++) {
		const struct tl_gap *g = &tl->gaps[i];
		unsigned k;
		int w, step;

		if (g->wake == 0 || g->wake < t->v0 || g->wake >= t->v1 || g->waker_tid < 0 ||
		    (w = row_of_thread(t, g->waker_pid, g->waker_tid)) < 0 || w == me)
			continue;
		k = col_of(t, g->wake);
		step = w < me ? 1 : -1;
		for (int y = w + step; y != me; y += step)
			put_glyph(c, t->y0 + y, t->x0 + (int)k, col_el(t, k, ck, EL_TL_WAKEUP), 0, 0x2502, '|');
		put_glyph(c, t->y0 + w, t->x0 + (int)k, col_el(t, k, ck, EL_TL_WAKEUP), 0,
		    w < me ? 0x252c : 0x2534, '+');	/* ┬ ┴ */
	}
}

/* The axis: a tick and the time of its column every 16 columns or so. */
static void
draw_axis(struct tl_pane *t, const struct pane_canvas *c, int y, int x)
{
	char buf[40];
	unsigned step = 18, w;

	wattrset((WINDOW *)c->win, (attr_t)c->ta->a[EL_TIME]);
	if (t->width == 0)
		return;
	/* ticks every 18 columns, or as far apart as the widest (last) label needs */
	text_time_us(buf, sizeof buf, col_start(t, t->width - 1));
	if ((unsigned)text_width(buf) + 2 > step)
		step = (unsigned)text_width(buf) + 2;
	for (unsigned k = 0; k + 2 < t->width; k += step) {
		unsigned room = t->width - k - 1;

		text_time_us(buf, sizeof buf, col_start(t, k));
		w = (unsigned)text_width(buf);
		if (w > room && k > 0)
			break;	/* no room for this label whole: no tick (the first is cut) */
		mvwaddch(c->win, y, x + (int)k, '|');
		text_put(c->win, y, x + (int)k + 1, (int)(w < room ? w : room), buf);
	}
}

static void
lane_label(struct pane *p, uint32_t lane, char *buf, size_t n)
{
	struct tl_pane *t = p->priv;
	const struct timeline *tl = TL(t);
	const struct tl_lane *l = &tl->lanes[lane];
	char name[96];

	timeline_label(tl, lane, name, sizeof name);
	if (l->kind == TL_KIND_THREAD)
		snprintf(buf, n, "   %s", name);
	else if (l->kind == TL_KIND_PROC && l->nkids)
		snprintf(buf, n, "%s %s", t->open[lane] ? (text_utf8() ? "\u25be" : "-") :
		    (text_utf8() ? "\u25b8" : "+"), name);
	else
		snprintf(buf, n, "  %s", name);
}

static const char *
head_line(struct pane *p, char *buf, size_t n)
{
	struct tl_pane *t = p->priv;
	const struct timeline *tl = TL(t);
	const struct hist *sh = p->sym != NULL ? symbols_scope_hist(p->sym) : NULL;
	char a[32], b[32];
	uint64_t s, e;
	int k;

	text_time_us(a, sizeof a, t->v0);
	text_time_us(b, sizeof b, t->v1 - 1);
	k = snprintf(buf, n, " Timeline by %s (p)", t->mode == TL_TASKS ? "process" : "CPU");
	t->legend_at = -1;
	if (par_model(p) != NULL) {	/* the colours' levels, each drawn in its colour (tl_draw) */
		uint32_t lo, hi;

		k += snprintf(buf + k, n - (size_t)k, ", threads running (P):");
		t->legend_at = k;
		for (unsigned i = 0; i < 4; i++)
			if (timeline_par_range(i, par_model(p)->max, &lo, &hi))
				k += snprintf(buf + k, n - (size_t)k, lo == hi ? " %" PRIu32 : " %" PRIu32 "-%" PRIu32,
				    lo, hi);
	}
	if (sh != NULL && symbols_event_offcpu(p->sym, p->sym->scope.ev)) {
		/* the off-CPU event: its spans and time in the scope (as the hot functions say) */
		const struct hist_event *he = hist_event(sh, p->sym->scope.ev);
		char dur[160];

		k += snprintf(buf + k, n - (size_t)k, " | %" PRIu64 " off-CPU span%s, %s | %s-%s (z/Z)",
		    he->nsamples, plural(he->nsamples), symbols_offcpu_text(p->sym, he->total_period, dur,
		    sizeof dur), a, b);
	} else {
		k += snprintf(buf + k, n - (size_t)k, " | %zu sample%s%s | %s-%s (z/Z)", tl->npos,
		    plural(tl->npos), t->attr >= 0 ? " of the event" : "", a, b);
	}
	if (p->sym && scope_time_range(&p->sym->scope, &s, &e)) {
		text_time_us(a, sizeof a, s);
		text_time_us(b, sizeof b, e);
		k += snprintf(buf + k, n - (size_t)k, " | scope %s-%s (Esc)", a, b);
	}
	if (tl->lanes[0].lost)
		k += snprintf(buf + k, n - (size_t)k, " | %" PRIu64 " lost (!)", tl->lanes[0].lost);
	if (tl->has_switch && symbols_offcpu(p->sym) != NULL &&
	    symbols_offcpu(p->sym)->source == OFFCPU_SRC_SCHED)	/* spans with the states left in */
		k += snprintf(buf + k, n - (size_t)k, " | off-CPU -S =D ~R+%s",
		    symbols_offcpu(p->sym)->nwoken ? " ^woken +waker" : "");
	else if (tl->has_switch)
		k += snprintf(buf + k, n - (size_t)k, " | off-CPU (-)");
	if (t->highlight)
		snprintf(buf + k, n - (size_t)k, " | highlight (H)");
	return buf;
}

static const char *
info_line(struct pane *p, char *buf, size_t n)
{
	struct tl_pane *t = p->priv;
	const struct timeline *tl = TL(t);
	unsigned k = col_of(t, t->cur);
	uint64_t c0 = col_start(t, k), c1 = col_start(t, k + 1), a, b, cnt;
	uint32_t lane = t->nvis ? t->vis[t->row] : 0;
	char x[32], y[32], name[96];
	int o = 0;

	if (t->marking) {
		/* the range first: it is what the next key acts on */
		mark_range(t, &a, &b);
		text_time_us(x, sizeof x, a);
		text_time_us(y, sizeof y, b);
		uint64_t nr = timeline_count(tl, 0, a, b + 1);

		o = snprintf(buf, n, " range %s-%s: %" PRIu64 " sample%s (Enter: apply, Esc: drop) | ",
		    x, y, nr, plural(nr));
	}
	text_time_us(x, sizeof x, c0);
	cnt = timeline_count(tl, lane, c0, c1);
	o += snprintf(buf + o, n - (size_t)o, " %s: %" PRIu64 " sample%s at %s (+%.3f ms)",
	    timeline_label(tl, lane, name, sizeof name), cnt, plural(cnt), x,
	    (double)(c1 - c0) / 1e6);
	if (par_model(p) != NULL && k < t->width && o >= 0 && (size_t)o < n)
		snprintf(buf + o, n - (size_t)o, ", %" PRIu32 " thread%s running", t->pbuf[k],
		    plural(t->pbuf[k]));
	return buf;
}

static uint32_t
rows_max(const struct tl_pane *t, size_t from, size_t to)
{
	uint32_t max = 0;

	for (size_t i = from; i < to && i < t->nvis; i++) {
		uint32_t m;

		if (t->vis[i] == 0)
			continue;
		m = timeline_buckets(TL(t), t->vis[i], t->v0, t->v1, t->width, t->hbuf);
		max = m > max ? m : max;
	}
	return max;
}

/* The header's legend of the parallelism colours, over its text: each level in its colour. */
static void
draw_legend(struct pane *p, const struct pane_canvas *c, const char *head)
{
	const struct tl_pane *t = p->priv;
	const struct parallel *pm = par_model(p);
	int x = t->legend_at;
	uint32_t lo, hi;
	char item[32];

	if (pm == NULL || x < 0)
		return;
	for (unsigned i = 0; i < 4; i++) {
		if (!timeline_par_range(i, pm->max, &lo, &hi))
			continue;
		snprintf(item, sizeof item, lo == hi ? " %" PRIu32 : " %" PRIu32 "-%" PRIu32, lo, hi);
		/* the header is ASCII up to here: a byte is a column */
		if (strncmp(head + x, item, strlen(item)) != 0 || x + 1 >= c->w)
			return;
		wattrset(c->win, (attr_t)c->ta->a[level_el[i]]);
		text_put(c->win, c->y, c->x + x + 1, c->w - x - 1, item + 1);
		x += (int)strlen(item);
	}
}

static void
tl_draw(struct pane *p, const struct pane_canvas *c)
{
	struct tl_pane *t = p->priv;
	WINDOW *win = c->win;
	int lw = c->w / 4 < TL_LABEL_MAX ? c->w / 4 : TL_LABEL_MAX;
	char buf[1024];
	uint32_t max, max0;

	sync(p);
	if (t->job != NULL) {
		wattrset(win, (attr_t)c->ta->a[EL_NORMAL]);
		for (int y = c->y; y < c->y + c->h; y++)
			mvwhline(win, y, c->x, ' ', c->w);
		wattrset(win, (attr_t)c->ta->a[EL_COLUMN_HEADER]);
		snprintf(buf, sizeof buf, " Timeline: making the %s lanes, %.0f%% done (keys answer "
		    "meanwhile)", t->mode == TL_CPU ? "CPUs'" : "processes' and threads'",
		    100 * timeline_job_share(t->job));
		text_line(win, c->y, c->x, c->w, buf);
		return;
	}
	t->width = c->w > lw + 2 ? (unsigned)(c->w - lw - 1) : 1;
	grow_bufs(t, t->width);
	set_view(t, t->v0, t->v1);
	t->y0 = c->y + 2;
	t->x0 = c->x + lw + 1;
	t->rows = c->h > 3 ? c->h - 3 : 0;
	if (t->row < t->vtop)
		t->vtop = t->row;
	else if (t->rows > 0 && t->row >= t->vtop + (size_t)t->rows)
		t->vtop = t->row - (size_t)t->rows + 1;
	wattrset(win, (attr_t)c->ta->a[EL_NORMAL]);
	for (int y = c->y; y < c->y + c->h; y++)
		mvwhline(win, y, c->x, ' ', c->w);
	draw_axis(t, c, c->y + 1, t->x0);
	if (par_model(p) != NULL)
		timeline_par_buckets(par_model(p), t->v0, t->v1, t->width, t->pbuf);
	max = rows_max(t, t->vtop, t->vtop + (size_t)t->rows);
	max0 = timeline_buckets(TL(t), 0, t->v0, t->v1, t->width, t->buf);
	for (int r = 0; r < t->rows && t->vtop + (size_t)r < t->nvis; r++) {
		size_t i = t->vtop + (size_t)r;
		uint32_t lane = t->vis[i];

		lane_label(p, lane, buf, sizeof buf);
		wattrset(win, (attr_t)c->ta->a[i == t->row ? EL_CURSOR : !lane_in(p, lane) ? EL_DIM :
		    lane ? EL_COMM : EL_KEY]);
		mvwhline(win, t->y0 + r, c->x, ' ', lw);
		text_put(win, t->y0 + r, c->x, lw, buf);
		draw_lane(p, c, t->y0 + r, t->x0, lane, lane == 0 || max == 0 ? max0 : max);
	}
	draw_wake_lines(p, c);
	wattrset(win, (attr_t)c->ta->a[EL_COLUMN_HEADER]);
	text_line(win, c->y, c->x, c->w, head_line(p, buf, sizeof buf));
	draw_legend(p, c, buf);
	if (c->h < 2)
		return;
	text_line(win, c->y + c->h - 1, c->x, c->w, info_line(p, buf, sizeof buf));
}

/* ---- mouse ---- */

/* A press: the row under it, and the cursor at its column; on the axis a drag starts. */
static bool
tl_click(struct pane *p, int y, int x)
{
	struct tl_pane *t = p->priv;

	t->drag = false;
	if (t->job != NULL)
		return false;
	if (y >= t->y0 && y < t->y0 + t->rows && t->vtop + (size_t)(y - t->y0) < t->nvis)
		t->row = t->vtop + (size_t)(y - t->y0);
	if (x < t->x0 || x >= t->x0 + (int)t->width)
		return y >= t->y0;
	t->cur = col_start(t, (unsigned)(x - t->x0));
	t->mark_lo = t->cur;
	t->mark_hi = col_start(t, (unsigned)(x - t->x0) + 1) - 1;
	t->drag = true;
	return true;
}

/* The release after a press on the axis: a range from the press to here is applied. */
static int
tl_drag(struct pane *p, int y, int x)
{
	struct tl_pane *t = p->priv;

	(void)y;
	if (!t->drag)
		return PANE_IGNORED;
	t->drag = false;
	if (x < t->x0)
		x = t->x0;
	if (x >= t->x0 + (int)t->width)
		x = t->x0 + (int)t->width - 1;
	t->cur = col_start(t, (unsigned)(x - t->x0));
	if (col_of(t, t->cur) == col_of(t, t->mark_lo))
		return PANE_HANDLED | PANE_REDRAW;	/* a click, not a drag */
	return apply(p);
}

/* ---- rows for tests and the help: the lanes shown ---- */

static size_t
tl_nrows(struct pane *p)
{
	struct tl_pane *t = p->priv;

	sync(p);
	return t->job != NULL ? 0 : t->nvis;
}

static void
tl_row(struct pane *p, size_t idx, struct row *r)
{
	struct tl_pane *t = p->priv;
	const struct tl_lane *l = &TL(t)->lanes[t->vis[idx]];
	char buf[128];

	lane_label(p, t->vis[idx], buf, sizeof buf);
	row_set(r, 0, EL_COMM, "%s", buf);
	row_set(r, 1, 0, "%" PRIu32, l->n);
	r->depth = l->kind == TL_KIND_THREAD;
}

/* ---- life ---- */

static void
tl_enter(struct pane *p, const struct nav_view *v)
{
	struct tl_pane *t = p->priv;

	sync(p);
	if (t->job != NULL) {	/* once the lanes are made */
		t->pend = *v;
		t->has_pend = true;
		return;
	}
	if (v->target == NAV_T_TIME) {
		/* the step's range, whether or not the scope has it yet */
		sync(p);
		set_bounds(p, true, v->arg, v->arg2);
		t->stepped = true;
	} else if (t->stepped) {
		/* back from a step: the scope's range again */
		sync(p);
		set_bounds(p, false, 0, 0);
		t->stepped = false;
	} else {
		sync(p);
	}
	if (v->cursor != NAV_NONE && v->cursor < t->nvis)
		t->row = (size_t)v->cursor;
}

static void
tl_save(struct pane *p, struct nav_view *v)
{
	struct tl_pane *t = p->priv;

	v->cursor = t->row;
	if (v->target == NAV_T_TIME)
		return;
	v->target = NAV_T_NONE;
}

static int
tl_init(struct pane *p)
{
	struct tl_pane *t = xcalloc(1, sizeof *t);

	p->priv = t;
	t->attr = symbols_scope_attr(p->sym);
	t->width = 100;
	t->scope_gen = p->sym ? p->sym->scope.gen : 0;
	t->mode = TL_TASKS;
	/* the lanes are made when the pane is first shown (sync) */
	t->y0 = 4;
	t->x0 = TL_LABEL_MAX + 1;
	grow_bufs(t, t->width);
	return 0;
}

static void
tl_free(struct pane *p)
{
	struct tl_pane *t = p->priv;

	if (t == NULL)
		return;
	for (int m = 0; m < 2; m++)
		timeline_free(t->tl[m]);
	timeline_job_free(t->job);
	free(t->open);
	free(t->vis);
	free(t->hl);
	free(t->buf);
	free(t->hbuf);
	free(t->pbuf);
	free(t->lbuf);
	free(t->gbuf);
	free(t->kbuf);
	free(t->wbuf);
	free(t);
}

static void
tl_resize(struct pane *p, int h, int w)
{
	struct tl_pane *t = p->priv;
	int lw = w / 4 < TL_LABEL_MAX ? w / 4 : TL_LABEL_MAX;

	t->width = w > lw + 2 ? (unsigned)(w - lw - 1) : 1;
	t->rows = h > 3 ? h - 3 : 0;
	grow_bufs(t, t->width);
}

static const char *
tl_help(struct pane *p)
{
	(void)p;
	return "Left/Right:time z/Z:zoom s:mark Enter:apply p:CPUs F:flame scope H:highlight P:threads";
}

const struct pane_ops pane_timeline_ops = {
	.name = "timeline",
	.description = "samples over time per process, thread or cpu, the lanes outside the scope's "
	    "zoom dimmed; time ranges to scope by, t: zoom into a lane",
	.keys = "Left time-left\n" "h time-left\n" "Right time-right\n" "l time-right\n" "z time-zoom-in\n" "= time-zoom-in\n" "Z time-zoom-out\n" "- time-zoom-out\n" "s time-mark\n" "p timeline-lanes\n" "H time-highlight\n" "F time-fscope\n" "P timeline-parallelism\n",
	.title = "Timeline",
	.init = tl_init,
	.free = tl_free,
	.resize = tl_resize,
	.draw = tl_draw,
	.key = tl_key,
	.nrows = tl_nrows,
	.row = tl_row,
	.enter = tl_enter,
	.save = tl_save,
	.help = tl_help,
	.click = tl_click,
	.drag = tl_drag,
	.work = tl_work,
};
