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
#include "symbolize/timeline.h"
#include "tui/pane.h"
#include "tui/symbols.h"

/*
 * The flame scope pane: a heat map of the samples over time
 * (symbolize/timeline.h's tl_heat).  Each column is a unit of time from
 * the first sample (1 s at first; z and Z make it shorter and longer),
 * each row an offset within the unit (unit / rows, as many rows as the
 * pane has lines), each cell coloured by its sample count relative to the
 * busiest cell (timeline-1 to 4).  Samples are every sample of the scope's
 * event (of every event when the hist has one).  Cells outside the
 * scope's time range are dimmed.
 *
 * A cell cursor moves with the arrows (Left/Right: columns, Up/Down:
 * offsets); s marks where a range starts, moving extends it (the cells
 * from the mark to the cursor in time order), and s again or Enter
 * applies it to every pane as the timeline does (pane_apply_time); Esc
 * drops a mark.  A mouse drag from cell to cell applies their range.
 */

static const uint64_t fs_units[] = {
	1000000, 2000000, 5000000, 10000000, 20000000, 50000000, 100000000, 200000000,
	500000000, 1000000000, 2000000000, 5000000000, 10000000000, 30000000000, 60000000000,
};
#define FS_NUNITS	(sizeof fs_units / sizeof fs_units[0])
#define FS_UNIT_1S	9
#define FS_LABEL	9	/* the offsets' column */

struct fs_pane {
	struct timeline	*tl;
	struct timeline_job *job;	/* tl being made in steps (the symbols' steps on: fs_work) */
	bool		 job_done;	/* its steps are over: build takes tl */
	int		 attr;
	size_t		 unit;		/* index in fs_units */
	struct tl_heat	 ht;
	bool		 have;		/* ht is built for unit and nrows */
	unsigned	 nrows;		/* rows wanted (the pane's lines) */
	size_t		 cc, xoff;	/* cursor column, first column drawn */
	unsigned	 cr;		/* cursor row */
	bool		 marking;
	size_t		 mc;
	unsigned	 mr;
	bool		 drag;
	int		 y0, x0, ncols;	/* where cells were drawn last */
	char		 who[NAV_FILTER_MAX];	/* "pid:N", "tid:N", "cpu:N", "": every sample */
	uint32_t	 lane;		/* who's lane of tl */
	bool		 who_scope;	/* who is the scope's zoom (as of scope gen who_gen) */
	unsigned	 who_gen;
	const struct hist *in;		/* the scope's samples (symbols_scope_hist), or NULL: all */
	unsigned	 in_gen;	/* the scope gen tl was made for */
	bool		 unit_set;	/* the unit fitted to the recording (or set by z/Z) */
};

/* The lane who names: a process, a thread (or its process alone), a CPU; 0 (every sample). */
static uint32_t
find_lane(const struct fs_pane *f)
{
	const struct timeline *tl = f->tl;
	long id = strtol(f->who + (f->who[0] ? 4 : 0), NULL, 10);

	for (uint32_t i = 1; i < tl->nlanes && f->who[0]; i++) {
		const struct tl_lane *l = &tl->lanes[i];

		if ((f->who[0] == 'c' && l->kind == TL_KIND_CPU && l->cpu == id) ||
		    (f->who[0] == 'p' && l->kind == TL_KIND_PROC && l->pid == id) ||
		    (f->who[0] == 't' && ((l->kind == TL_KIND_THREAD && l->tid == id) ||
		    (l->kind == TL_KIND_PROC && l->nkids == 0 && l->tid == id))))
			return i;
	}
	return 0;
}

/* The lanes, their making and the cells go (another who, scope or event). */
static void
drop_lanes(struct fs_pane *f)
{
	timeline_free(f->tl);
	f->tl = NULL;
	timeline_job_free(f->job);
	f->job = NULL;
	timeline_heat_free(&f->ht);
	f->have = false;
}

/* Show the samples of who ("pid:N", "tid:N", "cpu:N"; "": every sample). */
static void
set_who(struct fs_pane *f, const char *who)
{
	if (strcmp(f->who, who) == 0)
		return;
	snprintf(f->who, sizeof f->who, "%s", who);
	drop_lanes(f);
	f->marking = false;
}

/* The samples of the scope's thread, process or one cpu; every sample without a zoom. */
static void
follow_scope(struct pane *p)
{
	struct fs_pane *f = p->priv;
	const struct scope *sc = &p->sym->scope;
	char who[NAV_FILTER_MAX] = "";

	if (scope_zoomed(sc, SZ_TID))
		snprintf(who, sizeof who, "tid:%" PRId32, sc->sel.tid);
	else if (scope_zoomed(sc, SZ_PID))
		snprintf(who, sizeof who, "pid:%" PRId32, sc->sel.pid);
	else if (sc->ncpus == 1)
		snprintf(who, sizeof who, "cpu:%" PRIu32, sc->cpus[0]);
	f->who_gen = sc->gen;
	set_who(f, who);
}

/* Lay out the cells for the unit and rows wanted (a longer unit when there would be too many). */
static void
build(struct pane *p)
{
	struct fs_pane *f = p->priv;

	if (f->tl == NULL && f->job == NULL)
		f->job = timeline_job_new(p->s, strncmp(f->who, "cpu:", 4) == 0 ? TL_CPU :
		    f->who[0] ? TL_TASKS : TL_ALL, f->attr, f->in, NULL);
	/* made in steps (fs_work) when the app steps them, else at once */
	if (f->job != NULL && (p->sym == NULL || p->sym->steps == 0 || f->job_done)) {
		f->tl = timeline_job_take(f->job);
		f->job = NULL;
		f->job_done = false;
		f->lane = find_lane(f);
		/* a short recording: columns short enough for about 20 of them (1 s at most);
		 * once chosen, the user's (z/Z) whatever the scope does */
		while (!f->unit_set && f->unit > 0 &&
		    (f->tl->last - f->tl->first) / fs_units[f->unit] < 20)
			f->unit--;
		f->unit_set = f->tl->npos > 0;
	}
	if (f->tl == NULL || (f->have && f->ht.nrows == f->nrows && f->ht.unit == fs_units[f->unit]))
		return;
	timeline_heat_free(&f->ht);
	f->have = false;
	if (f->tl->lanes[f->lane].n == 0)
		return;
	while (!(f->have = timeline_heat(f->tl, f->lane, fs_units[f->unit], f->nrows, &f->ht)) &&
	    f->unit + 1 < FS_NUNITS)
		f->unit++;
	if (!f->have)
		return;
	if (f->cc >= f->ht.ncols)
		f->cc = f->ht.ncols - 1;
	if (f->cr >= f->ht.nrows)
		f->cr = f->ht.nrows - 1;
	if (f->marking && f->mc >= f->ht.ncols)
		f->marking = false;
}

static void
sync(struct pane *p)
{
	struct fs_pane *f = p->priv;
	int attr = symbols_scope_attr(p->sym);
	const struct hist *in = symbols_scope_hist(p->sym);

	if (f->who_scope && p->sym != NULL && p->sym->scope.gen != f->who_gen)
		follow_scope(p);
	/* the samples of the scope, once the hist is counted for it */
	if (in != f->in || (in != NULL && p->sym->scope.gen != f->in_gen)) {
		drop_lanes(f);
		f->in = in;
		f->in_gen = p->sym != NULL ? p->sym->scope.gen : 0;
	}
	/* the hist may find a second event only as symbols are resolved */
	if (attr != f->attr) {
		drop_lanes(f);
		f->attr = attr;
	}
	build(p);
}

/* A step of the lanes being made: positions until budget seconds are spent, laid out once made. */
static int
fs_work(struct pane *p, double budget)
{
	struct fs_pane *f = p->priv;
	double end = mono_seconds() + budget;

	sync(p);	/* another scope or event: made again */
	if (f->job == NULL)
		return PANE_WORK_NONE;
	while (!timeline_job_step(f->job, p->sym->steps))
		if (mono_seconds() >= end)
			return PANE_WORK_MORE;
	f->job_done = true;
	build(p);	/* the lanes taken, the cells laid out */
	return PANE_WORK_DONE;
}

static uint32_t
cell(const struct fs_pane *f, size_t c, unsigned r)
{
	return f->ht.cells[c * f->ht.nrows + r];
}

/* ---- keys ---- */

static int
apply(struct pane *p)
{
	struct fs_pane *f = p->priv;
	uint64_t a, b;

	f->marking = false;
	timeline_heat_range(&f->ht, f->mc, f->mr, f->cc, f->cr, &a, &b);
	return pane_apply_time(p, a, b) | PANE_REDRAW;
}

static bool
cell_move(struct fs_pane *f, enum action a)
{
	size_t page = f->ncols > 1 ? (size_t)f->ncols - 1 : 1;

	switch (a) {
	case ACT_TIME_LEFT:
		f->cc = f->cc ? f->cc - 1 : 0;
		break;
	case ACT_TIME_RIGHT:
		f->cc = f->cc + 1 < f->ht.ncols ? f->cc + 1 : f->cc;
		break;
	case ACT_UP:
		f->cr = f->cr ? f->cr - 1 : 0;
		break;
	case ACT_DOWN:
		f->cr = f->cr + 1 < f->ht.nrows ? f->cr + 1 : f->cr;
		break;
	case ACT_PAGE_UP:
		f->cc = f->cc > page ? f->cc - page : 0;
		break;
	case ACT_PAGE_DOWN:
		f->cc = f->cc + page < f->ht.ncols ? f->cc + page : f->ht.ncols - 1;
		break;
	case ACT_TOP:
		f->cc = 0;
		f->cr = 0;
		break;
	case ACT_BOTTOM:
		f->cc = f->ht.ncols - 1;
		f->cr = f->ht.nrows - 1;
		break;
	default:
		return false;
	}
	return true;
}

static int
fs_key(struct pane *p, enum action a)
{
	struct fs_pane *f = p->priv;
	uint64_t at;

	sync(p);
	if (!f->have)
		return PANE_IGNORED;
	if (cell_move(f, a))
		return PANE_HANDLED | PANE_REDRAW;
	switch (a) {
	case ACT_TIME_ZOOM_IN:
	case ACT_TIME_ZOOM_OUT:
		/* keep the cursor's time under the cursor */
		at = timeline_heat_cell_start(&f->ht, f->cc, f->cr) - f->ht.origin;
		if (a == ACT_TIME_ZOOM_IN && f->unit > 0)
			f->unit--;
		else if (a == ACT_TIME_ZOOM_OUT && f->unit + 1 < FS_NUNITS)
			f->unit++;
		f->cc = (size_t)(at / fs_units[f->unit]);
		f->cr = (unsigned)((double)(at % fs_units[f->unit]) * f->nrows /
		    (double)fs_units[f->unit]);
		f->marking = false;
		build(p);
		return PANE_HANDLED | PANE_REDRAW;
	case ACT_TIME_MARK:
		if (f->marking)
			return apply(p);
		f->marking = true;
		f->mc = f->cc;
		f->mr = f->cr;
		return PANE_HANDLED | PANE_REDRAW;
	case ACT_ENTER:
		return f->marking ? apply(p) : PANE_HANDLED;
	case ACT_BACK:
		if (!f->marking)
			return PANE_IGNORED;
		f->marking = false;
		return PANE_HANDLED | PANE_REDRAW;
	default:
		return PANE_IGNORED;
	}
}

/* ---- drawing ---- */

static bool
in_mark(const struct fs_pane *f, size_t c, unsigned r)
{
	size_t a = f->mc * f->ht.nrows + f->mr, b = f->cc * f->ht.nrows + f->cr;
	size_t x = c * f->ht.nrows + r;

	return f->marking && x >= (a < b ? a : b) && x <= (a < b ? b : a);
}

static void
draw_cell(struct pane *p, const struct pane_canvas *c, int y, int x, size_t col, unsigned r)
{
	static const char ascii[5] = { ' ', '.', ':', '*', '#' };
	struct fs_pane *f = p->priv;
	uint32_t n = cell(f, col, r);
	unsigned lv = n && f->ht.max ? (unsigned)(((uint64_t)n * 4 + f->ht.max - 1) / f->ht.max) : 0;
	int el = lv == 0 ? EL_NORMAL : EL_TL_LEVEL1 + (int)lv - 1;
	uint64_t s, e, a, b;

	if (p->sym && scope_time_range(&p->sym->scope, &s, &e)) {
		timeline_heat_range(&f->ht, col, r, col, r, &a, &b);
		if (b < s || a > e)
			el = EL_DIM;
	}
	if (col == f->cc && r == f->cr)
		el = EL_CURSOR;
	else if (in_mark(f, col, r))
		el = EL_TL_RANGE;
	wattrset((WINDOW *)c->win, (attr_t)c->ta->a[el]);
	if (c->ta->utf8 && lv)
		mvwaddnwstr(c->win, y, x, L"\u2588", 1);
	else
		mvwaddch(c->win, y, x, (chtype)(unsigned char)ascii[lv > 4 ? 4 : lv]);
}

static const char *
fmt_unit(uint64_t ns, char *buf, size_t n)
{
	if (ns == 0)
		snprintf(buf, n, "0 ms");
	else if (ns >= 1000000000 && ns % 1000000000 == 0)
		snprintf(buf, n, "%" PRIu64 " s", ns / 1000000000);
	else if (ns >= 1000000000)
		snprintf(buf, n, "%.3g s", (double)ns / 1e9);	/* not "1.5e+03 ms" */
	else if (ns >= 1000000)
		snprintf(buf, n, "%.3g ms", (double)ns / 1e6);
	else
		snprintf(buf, n, "%.3g us", (double)ns / 1e3);
	return buf;
}

static void
draw_labels(struct pane *p, const struct pane_canvas *c)
{
	struct fs_pane *f = p->priv;
	char buf[40], unit[24];
	int step;

	wattrset((WINDOW *)c->win, (attr_t)c->ta->a[EL_TIME]);
	for (unsigned r = 0; r < f->ht.nrows; r += 5) {
		snprintf(buf, sizeof buf, "+%s", fmt_unit(timeline_heat_cell_start(&f->ht, 0, r) -
		    f->ht.origin, unit, sizeof unit));
		text_put(c->win, f->y0 + (int)r, c->x, FS_LABEL - 1, buf);
	}
	if (f->ht.ncols == 0 || f->xoff >= f->ht.ncols)
		return;
	/* ticks every 12 columns, or as far apart as the widest (last) label needs */
	text_time_us(buf, sizeof buf, timeline_heat_cell_start(&f->ht, f->ht.ncols - 1, 0));
	step = text_width(buf) + 2 > 12 ? text_width(buf) + 2 : 12;
	for (int k = 0; k + 2 < f->ncols; k += step) {
		size_t col = f->xoff + (size_t)k;
		int room = f->ncols - k - 1, w;

		if (col >= f->ht.ncols)
			break;
		text_time_us(buf, sizeof buf, timeline_heat_cell_start(&f->ht, col, 0));
		w = text_width(buf);
		if (w > room && k > 0)
			break;	/* no room for this label whole: no tick (the first is cut) */
		mvwaddch(c->win, f->y0 + (int)f->ht.nrows, f->x0 + k, '|');
		text_put(c->win, f->y0 + (int)f->ht.nrows, f->x0 + k + 1, w < room ? w : room, buf);
	}
}

static void
head_line(struct pane *p, char *buf, size_t n)
{
	struct fs_pane *f = p->priv;
	char u[32], r[32], who[96];

	if (f->lane)
		snprintf(who, sizeof who, " of %s", timeline_label(f->tl, f->lane, u, sizeof u));
	else
		who[0] = '\0';
	snprintf(buf, n, " Heat map%s | columns of %s (z/Z), rows of %s | %" PRIu32
	    " sample%s%s | busiest cell %" PRIu32, who, fmt_unit(f->ht.unit, u, sizeof u),
	    fmt_unit(f->ht.unit / f->ht.nrows, r, sizeof r), f->tl->lanes[f->lane].n,
	    plural(f->tl->lanes[f->lane].n), f->attr >= 0 ? " of the event" : "", f->ht.max);
}

static void
info_line(struct pane *p, char *buf, size_t n)
{
	struct fs_pane *f = p->priv;
	uint64_t a, b;
	char x[32], y[32];

	timeline_heat_range(&f->ht, f->cc, f->cr, f->cc, f->cr, &a, &b);
	text_time_us(x, sizeof x, a);
	text_time_us(y, sizeof y, b);
	snprintf(buf, n, " %s-%s: %" PRIu32 " sample%s", x, y, cell(f, f->cc, f->cr),
	    plural(cell(f, f->cc, f->cr)));
	if (f->marking) {
		uint64_t nr;

		timeline_heat_range(&f->ht, f->mc, f->mr, f->cc, f->cr, &a, &b);
		text_time_us(x, sizeof x, a);
		text_time_us(y, sizeof y, b);
		nr = timeline_count(f->tl, f->lane, a, b + 1);
		snprintf(buf, n, " range %s-%s: %" PRIu64 " sample%s (Enter: apply, Esc: drop)", x, y,
		    nr, plural(nr));
	}
}

static void
fs_draw(struct pane *p, const struct pane_canvas *c)
{
	struct fs_pane *f = p->priv;
	WINDOW *win = c->win;
	char buf[512];

	f->nrows = c->h > 4 ? (unsigned)(c->h - 3) : 1;
	sync(p);
	wattrset(win, (attr_t)c->ta->a[EL_NORMAL]);
	for (int y = c->y; y < c->y + c->h; y++)
		mvwhline(win, y, c->x, ' ', c->w);
	wattrset(win, (attr_t)c->ta->a[EL_COLUMN_HEADER]);
	mvwhline(win, c->y, c->x, ' ', c->w);
	if (f->job != NULL) {
		snprintf(buf, sizeof buf, " Heat map | making the lanes, %.0f%% done (keys answer "
		    "meanwhile)", 100 * timeline_job_share(f->job));
		text_put(win, c->y, c->x, c->w, buf);
		return;
	}
	if (!f->have) {
		text_put(win, c->y, c->x, c->w, " Heat map | no samples");
		return;
	}
	head_line(p, buf, sizeof buf);
	text_put(win, c->y, c->x, c->w, buf);
	f->y0 = c->y + 1;
	f->x0 = c->x + FS_LABEL;
	f->ncols = c->w > FS_LABEL ? c->w - FS_LABEL : 1;
	if (f->cc < f->xoff)
		f->xoff = f->cc;
	else if (f->cc >= f->xoff + (size_t)f->ncols)
		f->xoff = f->cc - (size_t)f->ncols + 1;
	for (int k = 0; k < f->ncols && f->xoff + (size_t)k < f->ht.ncols; k++)
		for (unsigned r = 0; r < f->ht.nrows && f->y0 + (int)r < c->y + c->h - 2; r++)
			draw_cell(p, c, f->y0 + (int)r, f->x0 + k, f->xoff + (size_t)k, r);
	draw_labels(p, c);
	wattrset(win, (attr_t)c->ta->a[EL_COLUMN_HEADER]);
	mvwhline(win, c->y + c->h - 1, c->x, ' ', c->w);
	info_line(p, buf, sizeof buf);
	text_put(win, c->y + c->h - 1, c->x, c->w, buf);
}

/* ---- mouse ---- */

static bool
cell_at(const struct fs_pane *f, int y, int x, size_t *col, unsigned *row)
{
	if (!f->have || y < f->y0 || y >= f->y0 + (int)f->ht.nrows || x < f->x0 ||
	    x >= f->x0 + f->ncols || f->xoff + (size_t)(x - f->x0) >= f->ht.ncols)
		return false;
	*col = f->xoff + (size_t)(x - f->x0);
	*row = (unsigned)(y - f->y0);
	return true;
}

static bool
fs_click(struct pane *p, int y, int x)
{
	struct fs_pane *f = p->priv;

	f->drag = cell_at(f, y, x, &f->cc, &f->cr);
	if (f->drag) {
		f->mc = f->cc;
		f->mr = f->cr;
	}
	return f->drag;
}

static int
fs_drag(struct pane *p, int y, int x)
{
	struct fs_pane *f = p->priv;
	size_t col;
	unsigned row;

	if (!f->drag || !cell_at(f, y, x, &col, &row))
		return PANE_IGNORED;
	f->drag = false;
	if (col == f->mc && row == f->mr)
		return PANE_HANDLED | PANE_REDRAW;
	f->cc = col;
	f->cr = row;
	return apply(p);
}

/* ---- life ---- */

static void
fs_enter(struct pane *p, const struct nav_view *v)
{
	struct fs_pane *f = p->priv;

	/* a lane given (the timeline's F), else the scope's (sync) */
	f->who_scope = v->filter[0] == '\0';
	f->who_gen = p->sym ? p->sym->scope.gen - 1 : 0;
	set_who(f, v->filter);
	sync(p);
}

static void
fs_save(struct pane *p, struct nav_view *v)
{
	struct fs_pane *f = p->priv;

	v->cursor = f->cc;
	snprintf(v->filter, sizeof v->filter, "%s", f->who_scope ? "" : f->who);
}

static int
fs_init(struct pane *p)
{
	struct fs_pane *f = xcalloc(1, sizeof *f);

	p->priv = f;
	f->attr = symbols_scope_attr(p->sym);
	f->unit = FS_UNIT_1S;
	f->nrows = 50;
	/* the samples are laid out when the pane is first shown */
	return 0;
}

static void
fs_free(struct pane *p)
{
	struct fs_pane *f = p->priv;

	if (f == NULL)
		return;
	timeline_heat_free(&f->ht);
	timeline_free(f->tl);
	timeline_job_free(f->job);
	free(f);
}

static const char *
fs_help(struct pane *p)
{
	(void)p;
	return "arrows:cell z/Z:unit s:mark Enter:apply";
}

const struct pane_ops pane_fscope_ops = {
	.name = "fscope",
	.description = "the flame scope: sample density over time, ranges to scope by",
	.keys = "Left time-left\n" "h time-left\n" "Right time-right\n" "l time-right\n" "z time-zoom-in\n" "= time-zoom-in\n" "Z time-zoom-out\n" "- time-zoom-out\n" "s time-mark\n",
	.title = "Heat map",	/* "Scope" read as the analysis scope */
	.init = fs_init,
	.free = fs_free,
	.draw = fs_draw,
	.key = fs_key,
	.enter = fs_enter,
	.save = fs_save,
	.help = fs_help,
	.click = fs_click,
	.drag = fs_drag,
	.work = fs_work,
};
