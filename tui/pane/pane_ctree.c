#include "config.h"

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curses.h>

#include "core/core.h"
#include "symbolize/cpath.h"
#include "symbolize/cpath_diff.h"
#include "symbolize/hist.h"
#include "symbolize/symbolizer.h"
#include "tui/pane.h"
#include "tui/scope.h"
#include "tui/symbols.h"

/*
 * The call-path tree panes, hotspot's top-down and bottom-up trees (tabs 6
 * and 7): one file, two pane_ops.  The tree is symbolize/cpath.h's, built
 * from the app's hist for the scope (tui/scope.h: its event, zoom and
 * transforms): top-down, the outermost callers are the roots; bottom-up,
 * the functions samples were taken in, each with its callers below it.
 * Columns: Children (the node's total, a share of the event's, as the hot
 * functions and perfnav top give it, whatever the zoom), Self,
 * Samples (total), the shared object and the function.
 *
 * Every node is a row (the widget expands, collapses, sorts siblings,
 * filters and searches); a row's key is a hash of its path of functions,
 * so the expansion (kept as a set of keys) and the cursor survive the
 * rebuilds that follow the symbols as they fill in and the scope as it
 * changes.  A node nobody expanded or collapsed yet is expanded when it is
 * on the hottest path.  A transform keeps the cursor on what became of its
 * path; going back restores the view's cursor.  A NAV_T_CTREE view opens
 * the tree at a function (nav.h).  Huge trees show their heaviest
 * CT_MAX_ROWS nodes, at most CT_MAX_DEPTH deep; the info line says so.
 *
 * Diff mode (perfnav OLD NEW: the symbols have a pair): the other
 * recording's tree is built with the same query (its event paired by
 * name, the transforms' functions by name, no zoom) and paired node by
 * node along the names (symbolize/cpath_diff.h); the columns are then
 * Baseline (OLD's total), New and Delta, as percents of each recording's
 * event total or, A switches, periods.  The rows are the shown
 * recording's nodes (w shows the other's); the info line says how much of
 * the other's period is on paths this tree does not have.
 */

enum { C_CHILDREN, C_SELF, C_SAMPLES, C_DSO, C_FUNC, C_N };

static const struct column ct_cols[C_N] = {
	[C_CHILDREN] = { "Children", 8, COL_RIGHT | COL_NUM },
	[C_SELF] = { "Self", 8, COL_RIGHT | COL_NUM },
	[C_SAMPLES] = { "Samples", 9, COL_RIGHT | COL_NUM },
	[C_DSO] = { "Shared Object", 18, 0 },
	[C_FUNC] = { "Function", 20, COL_FLEX | COL_TREE | COL_MIDDLE },
};

static const struct column dt_cols[C_N] = {
	[C_CHILDREN] = { "Baseline", 9, COL_RIGHT | COL_NUM },
	[C_SELF] = { "New", 9, COL_RIGHT | COL_NUM },
	[C_SAMPLES] = { "Delta", 9, COL_RIGHT | COL_NUM },
	[C_DSO] = { "Shared Object", 18, 0 },
	[C_FUNC] = { "Function", 20, COL_FLEX | COL_TREE | COL_MIDDLE },
};

#define CT_MAX_ROWS	300000
#define CT_MAX_DEPTH	200

/* A row's expansion as the user left it (else: expanded on the hottest path). */
enum { EXP_CLOSED, EXP_OPEN, EXP_DEFAULT };

struct crow {
	uint32_t	 node;		/* cpath node */
	bool		 hot;		/* on the hottest path */
	uint64_t	 key;		/* hash of the path */
};

struct ctree {
	struct symbols		*sy;
	bool			 own;		/* sy made by us (no app symbols) */
	bool			 bottom_up;
	bool			 loaded;
	unsigned		 sym_gen, scope_gen;	/* of the tree shown */
	struct cpath_xform	 xf[SCOPE_XF_MAX];	/* its transforms */
	size_t			 nxf;
	struct cpath		*t;
	struct crow		*rows;
	size_t			 nrows, caprows;
	uint32_t		*row_of;	/* node -> row, UINT32_MAX: not shown */
	struct hmap		 by_key;	/* row key -> row */
	struct hmap		 exp;		/* row key -> EXP_* as the user left it */
	size_t			 hidden;	/* nodes not shown */
	clock_t			 built_at, build_cost;	/* the last rebuild: when, how long (CPU) */
	/* diff mode: the other recording's tree, the pairing, each event total */
	struct cpath		*t2;
	struct cpath_diff	*cd;
	unsigned		 pair_gen;
	bool			 abs;
	uint64_t		 tot[2];	/* [0] the shown recording's, [1] the other's */
	uint32_t		*path;		/* scratch: a node's path */
	size_t			 cappath;
	char			 note[160];	/* on the info line */
	/* the tree being built in steps (symbols' steps on: ct_work), the
	 * cursor's path of functions in the tree shown before, a view
	 * entered meanwhile (applied once built) */
	struct cpath_job	*job;
	struct cpath_job	*job2;		/* diff mode: the other recording's, after it */
	uint32_t		 ev2;		/* its event */
	bool			 jkeep;		/* the rows shown stay until it is built
						 * (new symbols, the same scope and hist) */
	unsigned		 h_serial;	/* the symbols' hist the tree shown is of */
	uint32_t		*old;
	size_t			 nold;
	struct nav_view		 pend;
	bool			 has_pend;
};

static struct hist *
H(const struct ctree *ct)
{
	return ct->sy->h;
}

static const struct cpath_node *
N(const struct ctree *ct, uint32_t id)
{
	return cpath_node(ct->t, id);
}

/* Keys stay below 2^62: UINT64_MAX and NAV_NONE mean "none". */
static uint64_t
key_of(uint64_t parent, uint32_t func)
{
	return hash_mix64(parent * UINT64_C(0x9e3779b97f4a7c15) ^ hash_mix64((uint64_t)func + 7)) >>
	    2;
}

/* ---- rows ---- */

static int
cmp_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x > y ? -1 : x < y;
}

/* The smallest total a shown node has: 0, or what keeps CT_MAX_ROWS. */
static uint64_t
min_period(const struct ctree *ct)
{
	size_t n = cpath_count(ct->t);
	uint64_t *v, min;

	if (n - 1 <= CT_MAX_ROWS)
		return 0;
	v = xreallocarray(NULL, n - 1, sizeof *v);
	for (size_t i = 1; i < n; i++)
		v[i - 1] = N(ct, (uint32_t)i)->total_period;
	qsort(v, n - 1, sizeof *v, cmp_desc);
	min = v[CT_MAX_ROWS - 1];
	free(v);
	return min;
}

static bool
shown(const struct ctree *ct, uint32_t id, uint64_t min)
{
	return id != CPATH_NONE && N(ct, id)->total_period >= min && N(ct, id)->depth <= CT_MAX_DEPTH;
}

/* The node after at in preorder among the shown ones (siblings come by
 * total, descending: the first one not shown ends its list). */
static uint32_t
next_shown(const struct ctree *ct, uint32_t at, uint64_t min)
{
	if (shown(ct, N(ct, at)->first_child, min))
		return N(ct, at)->first_child;
	for (; at != 0; at = N(ct, at)->parent)
		if (shown(ct, N(ct, at)->next_sibling, min))
			return N(ct, at)->next_sibling;
	return CPATH_NONE;
}

static void
build_rows(struct ctree *ct)
{
	size_t n = cpath_count(ct->t);
	uint64_t min = min_period(ct);

	ct->nrows = 0;
	hmap_free(&ct->by_key);
	ct->row_of = xreallocarray(ct->row_of, n, sizeof *ct->row_of);
	memset(ct->row_of, 0xff, n * sizeof *ct->row_of);
	for (uint32_t at = next_shown(ct, 0, min); at != CPATH_NONE && ct->nrows < CT_MAX_ROWS;
	    at = next_shown(ct, at, min)) {
		const struct cpath_node *nd = N(ct, at);
		uint64_t pk = nd->parent == 0 ? (ct->bottom_up ? 2 : 1) :
		    ct->rows[ct->row_of[nd->parent]].key;
		struct crow *r;

		GROW(ct->rows, ct->caprows, ct->nrows + 1);
		r = &ct->rows[ct->nrows];
		r->node = at;
		r->hot = false;
		r->key = key_of(pk, nd->func);
		ct->row_of[at] = (uint32_t)ct->nrows;
		hmap_set(&ct->by_key, r->key, (uint32_t)ct->nrows);
		ct->nrows++;
	}
	ct->hidden = n - 1 - ct->nrows;
	/* the hottest path */
	for (uint32_t at = N(ct, 0)->first_child; at != CPATH_NONE && ct->row_of[at] != UINT32_MAX;
	    at = N(ct, at)->first_child)
		ct->rows[ct->row_of[at]].hot = true;
}

/* The expansion the user chose, from the widget into the set of keys:
 * rows left as they came keep following the hottest path. */
static void
harvest(struct pane *p)
{
	struct ctree *ct = p->priv;

	for (size_t i = 0; i < ct->nrows && i < p->w.n; i++) {
		bool open = widget_is_expanded(&p->w, i);

		if (!widget_has_children(&p->w, i))
			continue;
		if (open != ct->rows[i].hot)
			hmap_set(&ct->exp, ct->rows[i].key, open ? EXP_OPEN : EXP_CLOSED);
		else if (hmap_get(&ct->exp, ct->rows[i].key) != HMAP_NONE)
			hmap_set(&ct->exp, ct->rows[i].key, EXP_DEFAULT);
	}
}

/* The functions from the root down to node (into ct->path); returns how many. */
static size_t
node_path(struct ctree *ct, uint32_t node)
{
	size_t d = N(ct, node)->depth;

	GROW(ct->path, ct->cappath, d + 1);
	return cpath_path(ct->t, node, ct->path, d);
}

/*
 * What transform x made of a path (p[0..n) as the tree reads it), as far
 * as the cursor goes: the part that is still there.  Returns its length.
 */
static size_t
map_path(uint32_t *p, size_t n, const struct cpath_xform *x, bool bottom_up)
{
	size_t first = n, last = n, k = 0;

	for (size_t i = 0; i < n; i++)
		if (p[i] == x->func) {
			first = first == n ? i : first;
			last = i;
		}
	switch (x->op) {
	case CPATH_DROP:
		return first;
	case CPATH_FOCUS:
	case CPATH_CALLERS:
		if (first == n)
			return 0;
		if ((x->op == CPATH_FOCUS) != bottom_up) {
			/* the path starts at f */
			memmove(p, p + first, (n - first) * sizeof *p);
			return n - first;
		}
		return last + 1;
	case CPATH_MERGE:
	case CPATH_NORECURSE:
		for (size_t i = 0; i < n; i++)
			if (x->op == CPATH_MERGE ? p[i] != x->func : k == 0 || p[k - 1] != p[i])
				p[k++] = p[i];
		return k;
	}
	return 0;
}

static void
goto_row(struct pane *p, size_t row)
{
	widget_reveal(&p->w, row);
	widget_goto_row(&p->w, row);
}

/*
 * Select func, expanded: bottom-up its root (the samples taken in it),
 * else (top-down, or no sample was taken in it) its hottest node.
 */
static bool
select_func(struct pane *p, uint32_t func)
{
	struct ctree *ct = p->priv;
	uint32_t id = ct->bottom_up ? cpath_find(ct->t, &func, 1) : CPATH_NONE;
	bool root = id != CPATH_NONE && ct->row_of[id] != UINT32_MAX;
	size_t best = root ? ct->row_of[id] : WIDGET_NONE;

	for (size_t i = 0; i < ct->nrows && !root; i++) {
		const struct cpath_node *nd = N(ct, ct->rows[i].node);

		if (nd->func == func && (best == WIDGET_NONE ||
		    nd->total_period > N(ct, ct->rows[best].node)->total_period))
			best = i;
	}
	if (best == WIDGET_NONE)
		return false;
	goto_row(p, best);
	widget_expand(&p->w, false);
	return true;
}

/* The cursor back on path old[0..n), or what x (the transform just added, or NULL) left of it. */
static void
restore_cursor(struct pane *p, uint32_t *old, size_t n, const struct cpath_xform *x)
{
	struct ctree *ct = p->priv;

	if (x)
		n = map_path(old, n, x, ct->bottom_up);
	for (; n > 0; n--) {
		uint32_t id = cpath_find(ct->t, old, n);

		if (id != CPATH_NONE && ct->row_of[id] != UINT32_MAX) {
			goto_row(p, ct->row_of[id]);
			return;
		}
	}
	if (x == NULL || x->op != CPATH_FOCUS || !select_func(p, x->func))
		widget_home(&p->w);
}

static bool
same_xf(const struct cpath_xform *a, const struct cpath_xform *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i].op != b[i].op || a[i].func != b[i].func)
			return false;
	return true;
}

/* Diff mode: the other recording's tree for query q (as mapped by name), built in steps after ct->job. */
static void
diff_job(struct ctree *ct, const struct cpath_query *q)
{
	struct cpath_xform xf[SCOPE_XF_MAX];
	struct cpath_query q2;

	cpath_job_free(ct->job2);
	ct->job2 = NULL;
	if (ct->sy->pair != NULL && symbols_pair_query(ct->sy, q, &q2, xf)) {
		ct->job2 = cpath_job_new(ct->sy->pair->h, &q2);	/* the query copied */
		ct->ev2 = q2.ev;
	}
}

/* Diff mode: the other recording's tree taken from its job (finished if need be), the pairing. */
static void
diff_take(struct ctree *ct, const struct cpath_query *q)
{
	struct symbols *o = ct->sy->pair;
	const struct hist_event *he = hist_event(H(ct), q->ev);

	cpath_diff_free(ct->cd);
	cpath_free(ct->t2);
	ct->cd = NULL;
	ct->t2 = NULL;
	ct->tot[0] = he ? he->total_period : 0;
	ct->tot[1] = 0;
	if (ct->job2 != NULL) {
		ct->t2 = cpath_job_take(ct->job2);
		ct->job2 = NULL;
		ct->cd = cpath_diff_new(H(ct), ct->t, o->h, ct->t2);
		ct->tot[1] = hist_event(o->h, ct->ev2)->total_period;
	}
}

/* How far the build under way is (diff mode: the other recording's tree is its second half). */
static double
build_share(const struct ctree *ct)
{
	double a = ct->job != NULL ? cpath_job_share(ct->job) : 1;

	return ct->job2 != NULL ? (a + cpath_job_share(ct->job2)) / 2 : a;
}

/* Diff mode: node's counts, [0] the shown recording's, [1] the other's. */
static void
dnode(const struct ctree *ct, uint32_t node, struct cpath_dnode *d)
{
	const struct cpath_node *nd = N(ct, node);

	if (ct->cd != NULL && cpath_diff_node(ct->cd, node, d) == 0)
		return;
	memset(d, 0, sizeof *d);
	d->pair = CPATH_NONE;
	d->total[0] = nd->total_period;
	d->self[0] = nd->self_period;
}

/* Diff mode: OLD's (k 0) or NEW's value of a node, as shown (percents or periods). */
static double
dvalue(const struct ctree *ct, const struct cpath_dnode *d, int k)
{
	int side = ct->sy->role == k ? 0 : 1;

	if (ct->abs)
		return (double)d->total[side];
	return ct->tot[side] ? 100.0 * (double)d->total[side] / (double)ct->tot[side] : 0.0;
}

static void ct_enter(struct pane *p, const struct nav_view *v);

/* The expansion the user chose and the cursor's path of functions, for the next tree. */
static void
keep_cursor(struct pane *p)
{
	struct ctree *ct = p->priv;
	size_t cur = widget_cursor_row(&p->w);

	harvest(p);
	free(ct->old);
	ct->old = NULL;
	ct->nold = 0;
	if (cur != WIDGET_NONE && cur < ct->nrows) {
		ct->nold = node_path(ct, ct->rows[cur].node);
		ct->old = xreallocarray(NULL, ct->nold + 1, sizeof *ct->old);
		memcpy(ct->old, ct->path, ct->nold * sizeof *ct->old);
	}
}

/* The tree the job built shown: its rows, the cursor back on its path, a view entered meanwhile. */
static void
finish(struct pane *p)
{
	struct ctree *ct = p->priv;
	const struct scope *sc = &ct->sy->scope;
	struct cpath_query q;
	bool added = sc->nxf == ct->nxf + 1 && same_xf(sc->xf, ct->xf, ct->nxf);
	const struct hist_event *he;
	struct cpath *t = cpath_job_take(ct->job);

	ct->job = NULL;
	if (ct->jkeep) {	/* the rows shown until now: their expansion and cursor */
		keep_cursor(p);
		cpath_free(ct->t);
		ct->jkeep = false;
	}
	ct->t = t;
	ct->h_serial = ct->sy->h_serial;
	scope_query(sc, ct->bottom_up, &q);	/* the job's: the scope did not change */
	he = hist_event(H(ct), q.ev);
	ct->tot[0] = he ? he->total_period : 0;	/* the base of every share */
	if (ct->sy->pair != NULL)
		diff_take(ct, &q);
	memcpy(ct->xf, sc->xf, sizeof ct->xf);
	ct->nxf = sc->nxf;
	ct->loaded = true;
	build_rows(ct);
	widget_refresh(&p->w);
	restore_cursor(p, ct->old, ct->nold, added ? &sc->xf[sc->nxf - 1] : NULL);
	free(ct->old);
	ct->old = NULL;
	ct->nold = 0;
	ct->build_cost = clock() - ct->built_at;
	if (ct->has_pend) {
		ct->has_pend = false;
		ct_enter(p, &ct->pend);
	}
}

/*
 * The tree again for the scope (new symbols, event, zoom, transforms):
 * the build starts, and ends here unless the app steps it (ct_work).
 * Meanwhile the rows shown go (the cursor's path kept for the new tree),
 * but for new symbols of the same scope: they stay until it is built.
 */
static void
reload(struct pane *p)
{
	struct ctree *ct = p->priv;
	const struct scope *sc = &ct->sy->scope;
	struct cpath_query q;

	cpath_job_free(ct->job);
	ct->job = NULL;
	cpath_job_free(ct->job2);
	ct->job2 = NULL;
	/* new symbols for the same scope, built in steps: the rows shown stay until then */
	ct->jkeep = ct->loaded && ct->scope_gen == sc->gen && ct->h_serial == ct->sy->h_serial &&
	    ct->sy->steps != 0;
	if (!ct->jkeep) {
		if (ct->loaded)
			keep_cursor(p);
		cpath_free(ct->t);
		ct->t = NULL;
		ct->loaded = false;
		ct->nrows = 0;
		ct->hidden = 0;
		if (ct->sy->steps != 0)
			widget_refresh(&p->w);	/* no row until it is built */
	}
	if (ct->sy->pair != NULL) {
		ct->pair_gen = ct->sy->pair->gen;
		ct->abs = ct->sy->diff_abs;
	}
	ct->built_at = clock();
	scope_query(sc, ct->bottom_up, &q);
	ct->job = cpath_job_new(H(ct), &q);
	diff_job(ct, &q);
	ct->sym_gen = ct->sy->gen;
	ct->scope_gen = sc->gen;
	if (!ct->sy->steps)
		finish(p);
}

/*
 * The rows follow the scope at once, and the symbols as they come in: at
 * once when they are all in, else after 4 times the processor time the
 * last building took (a big tree takes a while: keys keep answering).
 */
static void
sync(struct pane *p)
{
	struct ctree *ct = p->priv;
	bool pair;

	if (symbols_pair_waiting(ct->sy))	/* diff mode: no tree until both are in */
		return;
	pair = ct->sy->pair != NULL && (ct->pair_gen != ct->sy->pair->gen ||
	    ct->abs != ct->sy->diff_abs);
	if (ct->job != NULL) {
		/* a build under way: again for another scope or pair, or for the last symbols */
		if (ct->scope_gen != ct->sy->scope.gen || pair ||
		    (ct->sy->done && ct->sym_gen != ct->sy->gen))
			reload(p);
		return;
	}
	if (pair && ct->loaded) {
		reload(p);
		return;
	}
	if (ct->loaded && ct->scope_gen == ct->sy->scope.gen && (ct->sym_gen == ct->sy->gen ||
	    (!ct->sy->done && clock() - ct->built_at < 4 * ct->build_cost)))
		return;
	reload(p);
}

/* A step of the build under way: rows until budget seconds are spent, the tree shown once built. */
static int
ct_work(struct pane *p, double budget)
{
	struct ctree *ct = p->priv;
	double end = mono_seconds() + budget;

	sync(p);	/* a build for another scope or other symbols starts again */
	if (ct->job == NULL)
		return PANE_WORK_NONE;
	while (!cpath_job_step(ct->job, ct->sy->steps))
		if (mono_seconds() >= end)
			return PANE_WORK_MORE;
	while (ct->job2 != NULL && !cpath_job_step(ct->job2, ct->sy->steps))
		if (mono_seconds() >= end)
			return PANE_WORK_MORE;
	finish(p);
	return PANE_WORK_DONE;
}

/* ---- row text ---- */

static int
pct_el(double pct)
{
	return pct >= 5 ? EL_HOT_HIGH : pct >= 0.5 ? EL_HOT_MID : EL_HOT_LOW;
}

/* v as a share of the event's total, as the hot functions and perfnav top give it. */
static double
share(const struct ctree *ct, uint64_t v)
{
	uint64_t t = ct->tot[0] ? ct->tot[0] : N(ct, 0)->total_period;

	return t ? 100.0 * (double)v / (double)t : 0.0;
}

static const char *
dso_of(const struct ctree *ct, uint32_t func)
{
	const struct hist_node *hn = hist_node_get(H(ct), func);

	if (hn == NULL)
		return "";
	if (hn->dso_mixed)	/* one unresolved address in several DSOs (processes) */
		return "[several]";
	return hn->f.dso == DSO_NONE ? "[unknown]" : symbolizer_dso_short(ct->sy->z, hn->f.dso);
}

/* Diff mode: Baseline, New, Delta. */
static void
diff_cols(const struct ctree *ct, uint32_t node, struct row *r)
{
	struct cpath_dnode d;
	double o, n;
	int el;

	dnode(ct, node, &d);
	o = dvalue(ct, &d, 0);
	n = dvalue(ct, &d, 1);
	el = n > o ? EL_DIFF_GREW : n < o ? EL_DIFF_SHRANK : EL_DIM;
	if (ct->abs) {
		row_set(r, C_CHILDREN, 0, "%.0f", o);
		row_set(r, C_SELF, 0, "%.0f", n);
		row_set(r, C_SAMPLES, el, "%+.0f", n - o);
	} else {
		row_set(r, C_CHILDREN, 0, "%.2f%%", o);
		row_set(r, C_SELF, 0, "%.2f%%", n);
		row_set(r, C_SAMPLES, el, "%+.2f%%", n - o);
	}
}

static void
ct_row(struct pane *p, size_t idx, struct row *r)
{
	struct ctree *ct = p->priv;
	const struct crow *w = &ct->rows[idx];
	const struct cpath_node *nd = N(ct, w->node);
	const struct hist_node *hn = hist_node_get(H(ct), nd->func);
	uint32_t st = hmap_get(&ct->exp, w->key);
	uint64_t self, self_samples;
	char name[1024];
	double pc;

	r->depth = (uint8_t)(nd->depth - 1);
	r->key = w->key;
	r->have_key = true;
	r->expanded = st == HMAP_NONE || st == EXP_DEFAULT ? w->hot : st == EXP_OPEN;
	if (ct->sy->pair != NULL) {
		struct cpath_dnode d;

		diff_cols(ct, w->node, r);
		dnode(ct, w->node, &d);
		row_set(r, C_DSO, EL_DIM, "%s", dso_of(ct, nd->func));
		row_set(r, C_FUNC, d.pair == CPATH_NONE ? EL_DIM : 0, "%s%s",
		    cpath_func_name(H(ct), nd->func, name, sizeof name),
		    d.pair != CPATH_NONE ? "" : ct->sy->role ? "  (NEW only)" : "  (OLD only)");
		return;
	}
	pc = share(ct, nd->total_period);
	row_set(r, C_CHILDREN, pct_el(pc), "%.2f%%", pc);
	if (cpath_view_self(ct->t, w->node, &self, &self_samples)) {	/* bottom-up callers: blank */
		pc = share(ct, self);
		row_set(r, C_SELF, self ? pct_el(pc) : EL_DIM, "%.2f%%", pc);
	}
	row_set(r, C_SAMPLES, 0, "%" PRIu64, nd->total_samples);
	row_set(r, C_DSO, EL_DIM, "%s", dso_of(ct, nd->func));
	row_set(r, C_FUNC, hn && hn->f.sym != SYM_NONE ? 0 : EL_DIM, "%s",
	    cpath_func_name(H(ct), nd->func, name, sizeof name));
}

static size_t
ct_nrows(struct pane *p)
{
	return ((struct ctree *)p->priv)->nrows;
}

static size_t
ct_find(struct pane *p, uint64_t key)
{
	uint32_t i = hmap_get(&((struct ctree *)p->priv)->by_key, key);

	return i == HMAP_NONE ? WIDGET_NONE : i;
}

static int
ct_cmp(struct pane *p, int col, size_t a, size_t b)
{
	struct ctree *ct = p->priv;
	const struct cpath_node *x = N(ct, ct->rows[a].node), *y = N(ct, ct->rows[b].node);
	uint64_t sa, sb, smp;
	char na[512], nb[512];

	if (ct->sy->pair != NULL && col <= C_SAMPLES) {
		struct cpath_dnode dx, dy;
		double vx, vy;

		dnode(ct, ct->rows[a].node, &dx);
		dnode(ct, ct->rows[b].node, &dy);
		vx = col == C_SAMPLES ? dvalue(ct, &dx, 1) - dvalue(ct, &dx, 0) :
		    dvalue(ct, &dx, col == C_SELF);
		vy = col == C_SAMPLES ? dvalue(ct, &dy, 1) - dvalue(ct, &dy, 0) :
		    dvalue(ct, &dy, col == C_SELF);
		return vx < vy ? -1 : vx > vy;
	}
	switch (col) {
	case C_CHILDREN:
		return x->total_period < y->total_period ? -1 : x->total_period > y->total_period;
	case C_SELF:
		cpath_view_self(ct->t, ct->rows[a].node, &sa, &smp);
		cpath_view_self(ct->t, ct->rows[b].node, &sb, &smp);
		return sa < sb ? -1 : sa > sb;
	case C_SAMPLES:
		return x->total_samples < y->total_samples ? -1 : x->total_samples > y->total_samples;
	case C_DSO:
		return strcasecmp(dso_of(ct, x->func), dso_of(ct, y->func));
	default:
		return strcasecmp(cpath_func_name(H(ct), x->func, na, sizeof na),
		    cpath_func_name(H(ct), y->func, nb, sizeof nb));
	}
}

/* ---- keys and views ---- */

/* } / {: the scope's next or previous event. */
static int
key_event(struct pane *p, enum action a)
{
	struct ctree *ct = p->priv;

	if (scope_step_event(&ct->sy->scope, H(ct), a == ACT_NEXT_EVENT, p->msg, sizeof p->msg))
		sync(p);
	return PANE_HANDLED | PANE_MSG;
}

static uint32_t ct_func(struct pane *p);

/* v: the samples through the selected node in the events list (frame:N). */
static int
key_samples(struct pane *p)
{
	struct ctree *ct = p->priv;
	size_t src = widget_cursor_row(&p->w);
	uint32_t node;
	char name[256];

	if (src == WIDGET_NONE || src >= ct->nrows)
		return pane_push_samples_through(p, ct->t, 0, "");
	node = ct->rows[src].node;
	cpath_func_name(H(ct), N(ct, node)->func, name, sizeof name);
	return pane_push_samples_through(p, ct->t, node, name);
}

/* W: the wakers of the spans through the selected frame. */
static int
key_wakers(struct pane *p)
{
	struct ctree *ct = p->priv;
	size_t src = widget_cursor_row(&p->w);
	uint32_t node;
	char name[256];

	if (src == WIDGET_NONE || src >= ct->nrows)
		return pane_push_wakers_through(p, ct->t, 0, "");
	node = ct->rows[src].node;
	cpath_func_name(H(ct), N(ct, node)->func, name, sizeof name);
	return pane_push_wakers_through(p, ct->t, node, name);
}

static int
ct_key(struct pane *p, enum action a)
{
	struct ctree *ct = p->priv;

	sync(p);
	if (ct->job != NULL && (a == ACT_NEXT_EVENT || a == ACT_PREV_EVENT))
		return key_event(p, a);	/* another event's tree: the build starts again */
	if (!ct->loaded)
		return PANE_IGNORED;
	switch (a) {
	case ACT_NEXT_EVENT:
	case ACT_PREV_EVENT:
		return key_event(p, a);
	case ACT_ANNOTATE:
		return pane_push_annotate_scope(p, ct_func(p));
	case ACT_EVENTS:
		return key_samples(p);
	case ACT_WAKERS:
		return key_wakers(p);
	default:
		return PANE_IGNORED;
	}
}

static uint32_t
ct_func(struct pane *p)
{
	struct ctree *ct = p->priv;
	size_t src;

	sync(p);
	src = widget_cursor_row(&p->w);
	return src == WIDGET_NONE || src >= ct->nrows ? CPATH_NONE : N(ct, ct->rows[src].node)->func;
}

static void
ct_enter(struct pane *p, const struct nav_view *v)
{
	struct ctree *ct = p->priv;
	struct nav_view at = *v;
	char name[256];

	sync(p);
	ct->note[0] = '\0';
	if (ct->job != NULL && !ct->loaded) {	/* once built */
		ct->pend = *v;
		ct->has_pend = true;
		return;
	}
	if (!ct->loaded)
		return;
	if (v->target == NAV_T_CTREE)
		at.cursor = NAV_NONE;
	pane_list_enter(p, &at);
	if (v->target == NAV_T_CTREE && !select_func(p, (uint32_t)v->arg))
		snprintf(ct->note, sizeof ct->note, "%s is not in this tree",
		    cpath_func_name(H(ct), (uint32_t)v->arg, name, sizeof name));
}

static void
ct_save(struct pane *p, struct nav_view *v)
{
	pane_list_save(p, v);
	v->target = NAV_T_NONE;	/* back here: the cursor saved, not the function again */
}

/* ---- drawing ---- */

static void
info_line(struct pane *p, char *buf, size_t n)
{
	struct ctree *ct = p->priv;
	const struct scope *sc = &ct->sy->scope;
	const struct hist_event *he = hist_event(H(ct), sc->ev);
	size_t nev = hist_nevents(H(ct));
	char xf[256], zt[200];
	size_t k;

	if (ct->job != NULL && !ct->loaded) {
		snprintf(buf, n, " %s: building the tree, %.0f%% of its rows taken",
		    ct->bottom_up ? "Bottom-up" : "Top-down", 100 * build_share(ct));
		return;
	}
	if (!ct->loaded) {	/* diff mode: waiting for both */
		snprintf(buf, n, " Diff of the call paths: waiting for the %s",
		    symbols_pair_wait_text(ct->sy, xf, sizeof xf));
		return;
	}
	if (he == NULL) {
		snprintf(buf, n, " %s", ct->sy->done ? "No samples in this recording." :
		    "Resolving symbols...");
		return;
	}
	snprintf(buf, n, " %s: %" PRIu64 " of %" PRIu64 " sample%s of '%s'",
	    ct->bottom_up ? "Bottom-up" : "Top-down", N(ct, 0)->total_samples, he->nsamples,
	    plural(he->nsamples), hist_str(H(ct), he->name));
	k = strlen(buf);
	if (symbols_event_offcpu(ct->sy, sc->ev) && k < n)	/* periods are ns */
		k += (size_t)snprintf(buf + k, n - k, ", %s", symbols_offcpu_text(ct->sy,
		    N(ct, 0)->total_period, zt, sizeof zt));
	if (nev > 1 && k < n)
		k += (size_t)snprintf(buf + k, n - k, " (%zu of %zu, }: next)", sc->ev + 1, nev);
	if ((sc->zoomed || sc->ncpus || sc->by_file) && k < n)
		k += (size_t)snprintf(buf + k, n - k, " | %s", scope_zoom_text(sc, zt, sizeof zt));
	if (sc->nxf && k < n)
		k += (size_t)snprintf(buf + k, n - k, " | %s",
		    scope_xf_text(sc, H(ct), xf, sizeof xf));
	if (!ct->sy->done && k < n)
		k += (size_t)snprintf(buf + k, n - k, " | symbols %.0f%%",
		    100 * symbols_progress(ct->sy));
	if (ct->job != NULL && k < n)	/* the rows shown stay until then */
		k += (size_t)snprintf(buf + k, n - k, " | updating for new symbols, %.0f%%",
		    100 * build_share(ct));
	if (ct->hidden && k < n)
		k += (size_t)snprintf(buf + k, n - k, " | %zu small or deep node%s not shown",
		    ct->hidden, plural(ct->hidden));
	if (ct->sy->pair != NULL && k < n)
		k += (size_t)snprintf(buf + k, n - k, " | %s-only paths %.2f%% | %s shown, %s (A)%s",
		    ct->sy->role ? "OLD" : "NEW", ct->cd && ct->tot[1] ? 100.0 *
		    (double)cpath_diff_b_only(ct->cd) / (double)ct->tot[1] : 0.0,
		    ct->sy->role ? "NEW" : "OLD", ct->abs ? "periods" : "% of totals",
		    ct->cd == NULL ? " | its event is not in the other" : sc->zoomed ?
		    " | the zoom: this one only" : "");
	if (ct->note[0] && k < n)
		snprintf(buf + k, n - k, " | %s", ct->note);
}

static void
ct_draw(struct pane *p, const struct pane_canvas *c)
{
	struct ctree *ct = p->priv;
	WINDOW *win = c->win;
	struct pane_canvas lc = *c;
	char buf[768];

	sync(p);
	lc.h = c->h - 1;
	widget_draw(&p->w, &lc);
	if (ct->nrows == 0 && c->h > 4) {
		const char *m = ct->job != NULL ? "building the call tree for this scope "
		    "(keys answer meanwhile)" : !ct->loaded ? "resolving both recordings: the diff of the call paths "
		    "shows here once both are in" : !ct->sy->done ? "resolving symbols: the call paths show here once "
		    "they are in" : ct->sy->scope.nxf ? "no samples left after the transforms "
		    "(Esc undoes one)" : "no samples here";

		wattrset(win, (attr_t)c->ta->a[EL_DIM]);
		text_put(win, c->y + 2, c->x + 2, c->w - 4, m);
	}
	wattrset(win, (attr_t)c->ta->a[EL_COLUMN_HEADER]);
	info_line(p, buf, sizeof buf);
	text_line(win, c->y + c->h - 1, c->x, c->w, buf);
}

static const char *
ct_help(struct pane *p)
{
	(void)p;
	return "+:expand E:all o:focus m:merge D:drop R:recursion Esc:undo }:event";
}

/* ---- life ---- */

static int
ct_init(struct pane *p, bool bottom_up)
{
	struct ctree *ct = xcalloc(1, sizeof *ct);

	p->priv = ct;
	ct->bottom_up = bottom_up;
	ct->sy = p->sym;
	if (ct->sy == NULL) {
		ct->sy = symbols_new(p->s, NULL, NULL);
		ct->own = true;
		p->sym = ct->sy;
	}
	p->cols = ct->sy->pair != NULL ? dt_cols : ct_cols;
	p->ncols = C_N;
	p->is_list = true;
	widget_init(&p->w, p, true);
	return 0;
}

static int
td_init(struct pane *p)
{
	return ct_init(p, false);
}

static int
bu_init(struct pane *p)
{
	return ct_init(p, true);
}

static void
ct_free(struct pane *p)
{
	struct ctree *ct = p->priv;

	if (ct == NULL)
		return;
	if (ct->own) {
		symbols_free(ct->sy);
		p->sym = NULL;
	}
	cpath_free(ct->t);
	cpath_job_free(ct->job);
	cpath_job_free(ct->job2);
	free(ct->old);
	cpath_diff_free(ct->cd);
	cpath_free(ct->t2);
	hmap_free(&ct->by_key);
	hmap_free(&ct->exp);
	free(ct->rows);
	free(ct->row_of);
	free(ct->path);
	free(ct);
}

#define CT_OPS(init_fn, nm, ttl, desc) \
	{ \
		.name = nm, .title = ttl, .description = desc, .keys = "} next-event\n{ prev-event\n", \
		.init = init_fn, .free = ct_free, .draw = ct_draw, \
		.key = ct_key, .nrows = ct_nrows, .row = ct_row, .cmp = ct_cmp, .enter = ct_enter, \
		.save = ct_save, .help = ct_help, .find = ct_find, .func = ct_func, .work = ct_work, \
	}

const struct pane_ops pane_topdown_ops = CT_OPS(td_init, "topdown", "Top-down",
    "the call tree from the outermost frames down");
const struct pane_ops pane_bottomup_ops = CT_OPS(bu_init, "bottomup", "Bottom-up",
    "the call tree from where samples were taken up");
