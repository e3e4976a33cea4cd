#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/index.h"
#include "symbolize/cpath.h"
#include "symbolize/filter.h"
#include "symbolize/wakers.h"
#include "tui/pane.h"
#include "tui/scope.h"
#include "tui/symbols.h"

/*
 * The wakers pane (no tab; W from the hot functions, the call trees or the
 * flame graph with the off-cpu event): who ended the waits of the selected
 * function, symbolize/wakers.h's model of the off-CPU spans in the scope
 * (its time steps, zoom, cpus and transforms, as the off-cpu event counts
 * them) whose call path passes through that function; from a tree or the
 * flame graph, through the selected frame (that function in that calling
 * context: the node the scope picked, found again by its path in a tree
 * of the same query at each build).  A row per waker
 * thread ("comm tid"), with the off-CPU time its wakeups ended, their share
 * of the function's and their number; it expands into the distinct stacks
 * of its wakeups (the waking samples' callchains), each into its frames,
 * leaf first, as perf script prints them.  The first row sums the spans
 * nobody is known to have woken.  Rebuilt when the symbols or the scope
 * change; Esc returns.
 */

enum { C_TIME, C_PCT, C_SPANS, C_WAKER, C_N };

static const struct column wk_cols[C_N] = {
	[C_TIME] = { "Off-CPU", 10, COL_RIGHT | COL_NUM },
	[C_PCT] = { "Share", 7, COL_RIGHT | COL_NUM },
	[C_SPANS] = { "Spans", 7, COL_RIGHT | COL_NUM },
	[C_WAKER] = { "Waker / its stacks", 30, COL_FLEX | COL_TREE },
};

/* A row: a waker (index into rows), one of its stacks, a frame of one, or the unwoken spans. */
enum wk_kind { K_NONE, K_WAKER, K_STACK, K_FRAME };

struct wk_row {
	enum wk_kind	 kind;
	uint32_t	 i;		/* row, stack or frame index */
	uint32_t	 stack;		/* a frame's stack */
};

struct wk {
	uint32_t	 func;		/* function node (hist_node_get) */
	bool		 frame;		/* a frame: the spans through path[0..depth) */
	bool		 bottom_up;	/* of a bottom-up tree */
	uint32_t	*path;
	size_t		 depth;
	size_t		 ev;		/* the scope's event when opened */
	char		 name[160];	/* its name */
	bool		 built;
	unsigned	 gen, sgen;	/* p->sym->gen and the scope's, built for */
	struct wakers	 w;
	struct wk_row	*rows;
	size_t		 nrows, caprows;
	char		 why[256];	/* what the one row says when nothing is built */
};

/* What the wakers model takes: the spans of the scope through the function. */
struct take_arg {
	struct symbols		*sy;
	const struct offcpu	*oc;
	const struct cpath	*t;
	uint32_t		 func;
	uint32_t		 node;		/* a frame's node in t, else CPATH_NONE */
	uint64_t		 t0, t1;
	bool			 by_hist;
};

static bool
take_span(void *arg, size_t k)
{
	const struct take_arg *a = arg;
	const struct scope *sc = &a->sy->scope;
	size_t pos = (size_t)a->oc->v[k].pos;
	const struct rec_index *ix = session_index(a->sy->s);
	const struct rec_ent *e = pos < ix->n ? index_ent(ix, pos) : NULL;
	struct ent_who w;

	if (e == NULL || e->time < a->t0 || e->time > a->t1)
		return false;
	if (a->by_hist) {
		if (!symbols_scope_has(a->sy, pos))
			return false;
	} else {
		w = session_ent_who(a->sy->s, pos);
		if ((sc->ncpus && !scope_cpu_in(sc, w.cpu)) || !scope_task_in(sc, w.pid, a->oc->v[k].tid) ||
		    !scope_loc_in(sc, ent_loc(e)) || !filter_loc_ok(a->sy->start, ent_loc(e)) ||
		    (a->sy->start != NULL && !filter_sample_ok(a->sy->start, e->time, w.cpu >= 0,
		    (uint32_t)w.cpu)))
			return false;
	}
	if (a->node != CPATH_NONE)
		return cpath_within(a->t, cpath_span_node(a->t, a->sy->h, k), a->node);
	return cpath_through(a->t, a->sy->h, cpath_span_node(a->t, a->sy->h, k), a->func);
}

static void
add_row(struct wk *wk, enum wk_kind kind, size_t i, size_t stack)
{
	GROW(wk->rows, wk->caprows, wk->nrows + 1);
	wk->rows[wk->nrows++] = (struct wk_row){ kind, (uint32_t)i, (uint32_t)stack };
}

/* The rows of the model: the unwoken spans, then each waker, its stacks, their frames. */
static void
list_rows(struct wk *wk)
{
	const struct wakers *w = &wk->w;

	wk->nrows = 0;
	if (w->spans > w->woken)
		add_row(wk, K_NONE, 0, 0);
	for (size_t i = 0; i < w->nrows; i++) {
		add_row(wk, K_WAKER, i, 0);
		for (size_t k = w->rows[i].stack; k < w->rows[i].stack + w->rows[i].nstacks; k++) {
			add_row(wk, K_STACK, k, 0);
			for (size_t f = 0; f < w->stacks[k].nframes; f++)
				add_row(wk, K_FRAME, w->stacks[k].frame + f, k);
		}
	}
}

/* Why there is nothing to list yet, into wk->why; false when the model can be built. */
static bool
not_yet(struct pane *p, struct wk *wk)
{
	struct symbols *sy = p->sym;

	if (sy == NULL || !sy->done)
		snprintf(wk->why, sizeof wk->why, "resolving symbols (%.0f%%): the wakers come when "
		    "they are", sy ? 100 * symbols_progress(sy) : 0.0);
	else if (symbols_offcpu(sy) == NULL)
		snprintf(wk->why, sizeof wk->why, "no off-CPU time in this recording");
	else if (!symbols_event_offcpu(sy, sy->scope.ev))
		snprintf(wk->why, sizeof wk->why, "the scope's event is not off-cpu: Esc, then } or { "
		    "to it");
	else if (symbols_scope_hist(sy) == NULL && sy->scope.time_pending)
		snprintf(wk->why, sizeof wk->why, "counting the scope");
	else
		return false;
	return true;
}

static void
build(struct pane *p, struct wk *wk)
{
	struct symbols *sy = p->sym;
	struct take_arg a = { .sy = sy, .func = wk->func, .node = CPATH_NONE, .t0 = 0, .t1 = UINT64_MAX };
	struct cpath_query q;
	struct cpath *t;

	wakers_free(&wk->w);
	wk->nrows = 0;
	wk->built = false;
	if (not_yet(p, wk))
		return;
	wk->gen = sy->gen;
	wk->sgen = sy->scope.gen;
	a.oc = symbols_offcpu(sy);
	a.by_hist = symbols_scope_hist(sy) != NULL;
	scope_time_range(&sy->scope, &a.t0, &a.t1);
	scope_query(&sy->scope, wk->frame && wk->bottom_up, &q);
	t = cpath_build(sy->h, &q);
	a.t = t;
	if (wk->frame)
		a.node = cpath_find(t, wk->path, wk->depth);
	if (!wk->frame || a.node != CPATH_NONE)
		wakers_build(&wk->w, p->s, sy->z, a.oc, take_span, &a, 0);
	cpath_free(t);
	list_rows(wk);
	wk->built = true;
	if (wk->frame && a.node == CPATH_NONE)
		snprintf(wk->why, sizeof wk->why, "the frame is not in the scope's tree now (a transform "
		    "or a zoom took it)");
	else if (!a.oc->has_wakeups)
		snprintf(wk->why, sizeof wk->why, "no wakeups recorded: perf record -e sched:sched_waking "
		    "with the switches (and -g: their stacks)");
	else if (wk->w.spans == 0)
		snprintf(wk->why, sizeof wk->why, "no off-CPU span in the scope passes through %s",
		    wk->name);
}

/* Before each draw: follow the symbols and the scope. */
static void
wk_resize(struct pane *p, int h, int w)
{
	struct wk *wk = p->priv;
	struct symbols *sy = p->sym;

	(void)h;
	(void)w;
	if (wk->func == CPATH_NONE || sy == NULL)
		return;
	if (wk->built ? wk->gen == sy->gen && wk->sgen == sy->scope.gen : not_yet(p, wk))
		return;
	build(p, wk);
	widget_reload(&p->w);
}

static size_t
wk_nrows(struct pane *p)
{
	struct wk *wk = p->priv;

	return wk->nrows ? wk->nrows : 1;
}

/* A frame as perf script prints it: symbol+offset (DSO), "[unknown]" when not resolved. */
static void
frame_text(struct symbolizer *z, const struct frame *f, struct row *r)
{
	if (f->sym != SYM_NONE && symbolizer_sym_inlined(z, f->sym))
		row_set(r, C_WAKER, EL_TREE, "%s (inlined)", symbolizer_sym_name(z, f->sym));
	else if (f->sym != SYM_NONE)
		row_set(r, C_WAKER, EL_TREE, "%s+0x%" PRIx64 " (%s)", symbolizer_sym_name(z, f->sym),
		    f->symoff, f->dso == DSO_NONE ? "[unknown]" : symbolizer_dso_short(z, f->dso));
	else
		row_set(r, C_WAKER, EL_TREE, "[unknown] %#" PRIx64 " (%s)", f->ip,
		    f->dso == DSO_NONE ? "[unknown]" : symbolizer_dso_short(z, f->dso));
}

/* A stack's label: its resolved functions from the leaf, " < " between them. */
static void
stack_text(struct symbolizer *z, const struct wakers *w, const struct wakers_stack *st,
    struct row *r)
{
	char buf[600];
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < st->nframes && o + 4 < sizeof buf; i++) {
		const struct frame *f = &w->frames[st->frame + i];
		int k;

		if (f->sym == SYM_NONE)
			continue;
		k = snprintf(buf + o, sizeof buf - o, "%s%s", o ? " < " : "",
		    symbolizer_sym_name(z, f->sym));
		o += k > 0 ? (size_t)k : 0;
	}
	if (st->nframes == 0)
		row_set(r, C_WAKER, EL_DIM, "(no stack recorded)");
	else if (o == 0)
		row_set(r, C_WAKER, EL_DIM, "(%zu frames, none resolved)", st->nframes);
	else
		row_set(r, C_WAKER, EL_DIM, "%s", buf);
}

static void
numbers(struct row *r, const struct wk *wk, uint64_t ns, uint64_t spans, int el)
{
	char t[32];

	row_set(r, C_TIME, el, "%s", text_duration(t, sizeof t, ns));
	row_set(r, C_PCT, el, "%.2f%%", wk->w.total_ns ? 100.0 * (double)ns / (double)wk->w.total_ns : 0);
	row_set(r, C_SPANS, el, "%" PRIu64, spans);
}

/* A row's key, the same for the same waker, stack or frame after a rebuild: the waker's
 * tid, the index position of the stack's first wakeup, and the frame's place in it. */
static uint64_t
row_key(const struct wk *wk, const struct wk_row *wr)
{
	const struct wakers *w = &wk->w;
	uint64_t k = (uint64_t)wr->kind << 60;

	switch (wr->kind) {
	case K_WAKER:
		return k | (uint32_t)w->rows[wr->i].tid;
	case K_STACK:
		return k | (w->stacks[wr->i].pos & 0xffffffffffffull);
	case K_FRAME:
		return k | (w->stacks[wr->stack].pos & 0xffffffffffffull) << 8 |
		    ((wr->i - w->stacks[wr->stack].frame) & 0xff);
	default:
		return k;
	}
}

static void
wk_row(struct pane *p, size_t idx, struct row *r)
{
	struct wk *wk = p->priv;
	const struct wakers *w = &wk->w;
	const struct wk_row *wr;

	row_reset(r);
	if (wk->nrows == 0) {
		row_set(r, C_WAKER, EL_DIM, "%s", wk->why[0] ? wk->why : "no wakers");
		return;
	}
	wr = &wk->rows[idx];
	r->key = row_key(wk, wr);
	r->have_key = true;
	switch (wr->kind) {
	case K_NONE:
		numbers(r, wk, w->total_ns - w->woken_ns, w->spans - w->woken, EL_DIM);
		row_set(r, C_WAKER, EL_DIM, "%s", w->woken == 0 && wk->why[0] ? wk->why :
		    "(no wakeup known)");
		break;
	case K_WAKER:
		numbers(r, wk, w->rows[wr->i].ns, w->rows[wr->i].spans, 0);
		row_set(r, C_WAKER, EL_COMM, "%s %" PRId32, w->rows[wr->i].comm, w->rows[wr->i].tid);
		r->expanded = w->nrows <= 3;
		break;
	case K_STACK:
		numbers(r, wk, w->stacks[wr->i].ns, w->stacks[wr->i].spans, EL_DIM);
		stack_text(p->sym->z, w, &w->stacks[wr->i], r);
		r->depth = 1;
		break;
	case K_FRAME:
		frame_text(p->sym->z, &w->frames[wr->i], r);
		r->depth = 2;
		break;
	}
}

/* Numbers sort as numbers; the waker column by its text. */
static int
wk_cmp(struct pane *p, int col, size_t a, size_t b)
{
	const struct wk *wk = p->priv;
	uint64_t x[2] = { 0, 0 };
	size_t ab[2] = { a, b };

	if (wk->nrows == 0 || col == C_WAKER)
		return 0;
	for (int i = 0; i < 2; i++) {
		const struct wk_row *wr = &wk->rows[ab[i]];
		const struct wakers *w = &wk->w;

		if (wr->kind == K_WAKER)
			x[i] = col == C_SPANS ? w->rows[wr->i].spans : w->rows[wr->i].ns;
		else if (wr->kind == K_STACK)
			x[i] = col == C_SPANS ? w->stacks[wr->i].spans : w->stacks[wr->i].ns;
		else if (wr->kind == K_NONE)
			x[i] = col == C_SPANS ? w->spans - w->woken : w->total_ns - w->woken_ns;
		else
			return (a > b) - (a < b);	/* frames keep their order */
	}
	return (x[0] > x[1]) - (x[0] < x[1]);
}

/* A frame's view (on): its path, from the scope's pick (pane_push_wakers_through). */
static void
take_frame(struct pane *p, struct wk *wk, bool on)
{
	const struct scope *sc = p->sym != NULL ? &p->sym->scope : NULL;

	free(wk->path);
	wk->path = NULL;
	wk->depth = 0;
	wk->frame = on && sc != NULL && sc->pick != NULL && sc->pick_node < cpath_count(sc->pick);
	if (!wk->frame)
		return;
	wk->bottom_up = cpath_bottom_up(sc->pick);
	wk->depth = cpath_node(sc->pick, sc->pick_node)->depth;
	wk->path = xcalloc(wk->depth + 1, sizeof *wk->path);
	cpath_path(sc->pick, sc->pick_node, wk->path, wk->depth);
	snprintf(wk->name + strlen(wk->name), sizeof wk->name - strlen(wk->name), " (frame)");
}

/* A view of the wakers of function arg2, or of a frame (arg3: the scope's pick). */
static void
wk_enter(struct pane *p, const struct nav_view *v)
{
	struct wk *wk = p->priv;

	if (wk->func != (uint32_t)v->arg2 || !wk->built || wk->ev != (size_t)v->arg || v->arg3 ||
	    wk->frame) {
		wk->func = (uint32_t)v->arg2;
		wk->ev = (size_t)v->arg;
		wk->name[0] = '\0';
		if (p->sym != NULL && p->sym->h != NULL && wk->func != CPATH_NONE)
			cpath_func_name(p->sym->h, wk->func, wk->name, sizeof wk->name);
		take_frame(p, wk, v->arg3 != 0);
		build(p, wk);
		widget_reload(&p->w);
	}
	pane_list_enter(p, v);
}

static void
wk_save(struct pane *p, struct nav_view *v)
{
	struct wk *wk = p->priv;

	pane_list_save(p, v);
	v->arg = wk->ev;
	v->arg2 = wk->func;
	v->arg3 = wk->frame;
}

static int
wk_init(struct pane *p)
{
	struct wk *wk = xcalloc(1, sizeof *wk);

	wk->func = CPATH_NONE;
	p->priv = wk;
	p->cols = wk_cols;
	p->ncols = C_N;
	p->is_list = true;
	widget_init(&p->w, p, true);
	return 0;
}

static void
wk_free(struct pane *p)
{
	struct wk *wk = p->priv;

	if (wk == NULL)
		return;
	wakers_free(&wk->w);
	free(wk->rows);
	free(wk->path);
	free(wk);
}

static bool
wk_counted(struct pane *p, char *buf, size_t n)
{
	struct wk *wk = p->priv;
	char t[32], u[32];

	if (!wk->built)
		return false;
	snprintf(buf, n, "wakers of %s: %" PRIu64 " spans, %s off CPU, %s of it woken", wk->name,
	    wk->w.spans, text_duration(t, sizeof t, wk->w.total_ns), text_duration(u, sizeof u,
	    wk->w.woken_ns));
	return true;
}

static const char *
wk_help(struct pane *p)
{
	(void)p;
	return "wakers: who ended the function's waits  +/Right: the waker's stacks  Esc: back";
}

const struct pane_ops pane_wakers_ops = {
	.name = "wakers",
	.description = "who woke the selected off-CPU function: per waker thread the off-CPU time its "
		       "wakeups ended, each with its stacks (W from hot functions, trees, flame graph)",
	.title = "Wakers",
	.init = wk_init,
	.free = wk_free,
	.resize = wk_resize,
	.nrows = wk_nrows,
	.row = wk_row,
	.cmp = wk_cmp,
	.enter = wk_enter,
	.save = wk_save,
	.counted = wk_counted,
	.help = wk_help,
};
