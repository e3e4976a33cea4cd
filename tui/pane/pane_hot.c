#include "config.h"

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "core/core.h"
#include "symbolize/cpath.h"
#include "symbolize/hist.h"
#include "symbolize/resolve.h"
#include "tui/pane.h"
#include "tui/pane/hot_branch.h"
#include "tui/symbols.h"

/*
 * The hot-functions pane (tab 1), perf report's table: children % (when
 * the recording has callchains), self %, samples, command, shared object
 * and symbol, per event (} and { switch events), sorted as perf sorts them.
 *
 * Rows come from the app's symbols (tui/symbols.h): a hist keyed
 * comm,tid,dso,sym whose rows are merged to comm,dso,sym for the view
 * (hist_rows_merged), so zooming into a process, a thread or a DSO is a
 * selection of rows, exact and instant.  While symbols are still being
 * resolved the table shows what is in so far, under a progress bar.
 *
 * A symbol F expands into its call paths (symbolize/cpath.h), over the
 * samples of the row's command (and of the zoomed process or thread) whose
 * path passes through F, in one of two orders (b switches, as it flips the
 * flame graph between top-down and bottom-up):
 *   - callees (the default, what perf report's TUI shows with --children,
 *     its caller order): the paths from F down, merged over F's call sites
 *     (CPATH_FOCUS, top-down): each level a callee in one calling context;
 *   - callers (perf's callee order): the paths from F up to the roots, cut
 *     at F's innermost frame (CPATH_CALLERS, bottom-up).
 * Each level counts the samples of its own path, never more than the level
 * above; percentages are of the event's total (as perf's graph) or, p
 * switches, of F's total.  One tree is built per expanded row, when it is
 * first shown, and kept while the rows are unchanged; rows are materialized
 * from it lazily: a collapsed row has one hidden placeholder child (so the
 * widget draws it as expandable), and expanding rebuilds the rows.
 * Expansion state is a set of row keys (a path row's key hashes the
 * functions from its entry down), kept across rebuilds, events and zooms.
 *
 * Enter on a symbol lists its samples in the events pane; d / t zoom into
 * the row's DSO / thread, s lists DSOs, a annotates, each pushed on the
 * history stack.  A view's cursor may name a function rather than a row:
 * HOT_CURSOR_FUNC | comm << 32 | node (comm a hist string id, 0: any) puts
 * the cursor on that function's row (how the events pane opens a frame's
 * hot-functions entry).
 */

enum { L_CHILDREN, L_SELF, L_SAMPLES, L_COMM, L_DSO, L_SYM, L_N };

static const struct column cols_children[L_N] = {
	{ "Children", 8, COL_RIGHT | COL_NUM },
	{ "Self", 8, COL_RIGHT | COL_NUM },
	{ "Samples", 9, COL_RIGHT | COL_NUM },
	{ "Command", 15, 0 },
	{ "Shared Object", 20, 0 },
	{ "Symbol", 20, COL_FLEX | COL_TREE | COL_MIDDLE },
};

/* The DSO list (s): a row per shared object, its path where the symbol was. */
static const struct column cols_dso[] = {
	{ "Overhead", 8, COL_RIGHT | COL_NUM },
	{ "Samples", 9, COL_RIGHT | COL_NUM },
	{ "Shared Object", 20, 0 },
	{ "Path", 20, COL_FLEX | COL_MIDDLE },
};

static const struct column cols_self[L_N - 1] = {
	{ "Overhead", 8, COL_RIGHT | COL_NUM },
	{ "Samples", 9, COL_RIGHT | COL_NUM },
	{ "Command", 15, 0 },
	{ "Shared Object", 20, 0 },
	{ "Symbol", 20, COL_FLEX | COL_TREE | COL_MIDDLE },
};

enum hrow_kind {
	HR_ENTRY,		/* a row of the table */
	HR_PATH,		/* a caller or callee: a node of its entry's call-path tree */
	HR_MORE,		/* placeholder under a collapsed row */
	HR_NONE,		/* "(no callers)" */
};

struct hrow {
	uint8_t		 kind;
	uint8_t		 depth;
	uint32_t	 ent;		/* HR_ENTRY: index into ents; else its entry's */
	uint32_t	 cp;		/* HR_PATH: node of the entry's tree */
	uint64_t	 key;
};

/* An expanded entry's call paths: the tree and the node of its function. */
struct hot_tree {
	struct cpath	*t;
	uint32_t	 top;		/* CPATH_NONE: no path through it */
};

#define HOT_MAX_DEPTH	250		/* the widget's levels */
#define HOT_MAX_ROWS	400000
#define HOT_MAX_EXPAND_ALL	200

/* A view's cursor that names a function (see above); row keys stay below 2^62. */
#define HOT_CURSOR_FUNC	(UINT64_C(1) << 62)

struct hot {
	struct symbols		*sy;
	bool			 own;		/* made by us (no app symbols) */
	size_t			 ev;
	bool			 dsos;		/* list DSOs */
	bool			 branches;	/* the branch table (from the DSOs: s) */
	struct hot_branch	*br;		/* made when first shown */
	double			 pct;
	bool			 callers;	/* call paths towards the callers, else callees */
	/* the columns shown: children (with callchains), --sort's keys (scope.hot_keep) */
	unsigned		 keep;		/* HIST_KEEP of comm, dso, sym */
	struct column		 cols[L_N];
	int			 map[L_N];	/* logical column -> shown, -1: not shown */
	bool			 pct_entry;	/* call-path % of the symbol's total, else the event's */
	unsigned		 gen;		/* sy->gen of the rows */
	unsigned		 scope_gen;	/* sy->scope.gen of the rows */
	unsigned		 seen_keep;	/* the scope's hot_keep and hot_callers applied */
	int			 seen_callers;
	bool			 loaded;
	struct hist_entry	*ents;
	size_t			 nents, capents;
	struct hot_tree		*trees;		/* per entry, built when expanded */
	size_t			 captrees;
	struct hrow		*rows;
	size_t			 nrows, caprows;
	bool			 truncated;
	struct hmap		 exp;		/* expansion set */
	char			 info[256];
};

/* ---- expansion set: row key -> 1 (expanded), 0 (closed again) ---- */

static bool
exp_has(const struct hot *ht, uint64_t key)
{
	return hmap_get(&ht->exp, key) == 1;
}

static void
exp_set(struct hot *ht, uint64_t key, bool on)
{
	if (on || hmap_get(&ht->exp, key) != HMAP_NONE)
		hmap_set(&ht->exp, key, on);
}

/* ---- keys ---- */

/* Keys stay below 2^62: UINT64_MAX, NAV_NONE and HOT_CURSOR_FUNC are none of them. */
static uint64_t
key2(uint64_t a, uint64_t b)
{
	return hash_mix64(a * UINT64_C(0x9e3779b97f4a7c15) ^ hash_mix64(b + 0x51)) >> 2;
}

static uint64_t
entry_key(const struct hot *ht, const struct hist_entry *e)
{
	return key2(key2(ht->dsos ? 1 : 2, e->comm), (uint64_t)e->dso << 32 | e->node);
}

/* The key under which an entry's first level of call paths hangs (one per order). */
static uint64_t
paths_key(const struct hot *ht, uint64_t ekey)
{
	return key2(ekey, ht->callers ? 5 : 6);
}

/* ---- rows ---- */

static struct hist *
H(const struct hot *ht)
{
	return ht->sy->h;
}

static bool
has_graph(const struct hot *ht)
{
	return ht->sy->callchains && !ht->dsos && !ht->branches;
}

static struct hrow *
add_row(struct hot *ht, enum hrow_kind kind, unsigned depth, uint32_t ent, uint64_t key)
{
	struct hrow *r;

	if (ht->nrows >= HOT_MAX_ROWS) {
		ht->truncated = true;
		return NULL;
	}
	GROW(ht->rows, ht->caprows, ht->nrows + 1);
	r = &ht->rows[ht->nrows++];
	memset(r, 0, sizeof *r);
	r->kind = (uint8_t)kind;
	r->depth = (uint8_t)depth;
	r->ent = ent;
	r->key = key;
	return r;
}

static void
free_trees(struct hot *ht)
{
	for (size_t i = 0; i < ht->nents; i++)
		cpath_free(ht->trees[i].t);
	if (ht->nents)
		memset(ht->trees, 0, ht->nents * sizeof *ht->trees);
}

/*
 * The call paths of entry i in the current order, built on first use: the
 * paths through its function of the samples of its command (and of the
 * zoomed process or thread; a DSO zoom's rows count every sample through
 * them, so do their paths), cut at the function.
 */
static const struct hot_tree *
entry_tree(struct hot *ht, uint32_t i)
{
	struct hot_tree *pt = &ht->trees[i];
	const struct hist_entry *e = &ht->ents[i];
	const struct hist_select *zs = scope_sel(&ht->sy->scope);
	struct hist_select sel = zs ? *zs : (struct hist_select){ 0 };
	struct cpath_xform x = { ht->callers ? CPATH_CALLERS : CPATH_FOCUS, e->node };
	struct cpath_query q = {
		.ev = ht->ev, .sel = &sel, .entry = CPATH_NONE, .xf = &x, .nxf = 1,
		.bottom_up = ht->callers,
	};

	if (pt->t != NULL)
		return pt;
	if ((ht->keep & HIST_KEEP(HIST_KEY_COMM)) != 0) {	/* a row of one command */
		sel.by_comm = true;
		sel.comm = e->comm;
	}
	pt->t = cpath_build(H(ht), &q);
	pt->top = cpath_find(pt->t, &e->node, 1);
	return pt;
}

/* The children of node at of entry ent's tree, and below the expanded ones. */
static void
emit_paths(struct hot *ht, uint32_t ent, const struct cpath *t, uint32_t at, uint64_t pkey,
    unsigned depth)
{
	for (uint32_t c = cpath_node(t, at)->first_child; c != CPATH_NONE && !ht->truncated;
	    c = cpath_node(t, c)->next_sibling) {
		const struct cpath_node *n = cpath_node(t, c);
		uint64_t k = key2(pkey, n->func);
		struct hrow *r = add_row(ht, HR_PATH, depth, ent, k);

		if (r == NULL)
			return;
		r->cp = c;
		if (n->first_child == CPATH_NONE || depth >= HOT_MAX_DEPTH)
			continue;
		if (exp_has(ht, k))
			emit_paths(ht, ent, t, c, k, depth + 1);
		else
			add_row(ht, HR_MORE, depth + 1, ent, key2(k, 4));
	}
}

static void
build_rows(struct hot *ht)
{
	ht->nrows = 0;
	ht->truncated = false;
	for (size_t i = 0; i < ht->nents && !ht->truncated; i++) {
		const struct hist_entry *e = &ht->ents[i];
		uint64_t k = entry_key(ht, e);
		struct hrow *r = add_row(ht, HR_ENTRY, 0, (uint32_t)i, k);
		const struct hot_tree *pt;

		if (r == NULL)
			break;
		if (!has_graph(ht))
			continue;
		if (!exp_has(ht, k)) {
			add_row(ht, HR_MORE, 1, (uint32_t)i, key2(k, 4));
			continue;
		}
		pt = entry_tree(ht, (uint32_t)i);
		if (pt->top == CPATH_NONE || cpath_node(pt->t, pt->top)->first_child == CPATH_NONE)
			add_row(ht, HR_NONE, 1, (uint32_t)i, key2(k, 3));
		else
			emit_paths(ht, (uint32_t)i, pt->t, pt->top, paths_key(ht, k), 1);
	}
}

/* The row of the function a HOT_CURSOR_FUNC key names: of its command if any. */
static size_t
find_func(const struct hot *ht, uint64_t key)
{
	uint32_t node = (uint32_t)key, comm = (uint32_t)(key >> 32) & 0x3fffffff;
	size_t any = WIDGET_NONE;

	for (size_t i = 0; i < ht->nrows; i++) {
		const struct hrow *w = &ht->rows[i];

		if (w->kind != HR_ENTRY || ht->ents[w->ent].node != node)
			continue;
		if (comm == 0 || ht->ents[w->ent].comm == comm)
			return i;
		if (any == WIDGET_NONE)
			any = i;
	}
	return any;
}

static size_t
hot_find(struct pane *p, uint64_t key)
{
	const struct hot *ht = p->priv;

	if (key != UINT64_MAX && (key & HOT_CURSOR_FUNC))
		return find_func(ht, key);
	/*
	 * Never a placeholder: it is hidden, and the widget, going back to the
	 * key of the row its cursor was on before the rows changed (another
	 * row now), would open the placeholder's parent to reveal it.
	 */
	for (size_t i = 0; i < ht->nrows; i++)
		if (ht->rows[i].key == key && ht->rows[i].kind != HR_MORE)
			return i;
	return WIDGET_NONE;
}

/* Rebuild the rows and the widget; the cursor goes to key (else the top). */
static void
rebuild(struct pane *p, uint64_t key)
{
	struct hot *ht = p->priv;

	build_rows(ht);
	widget_refresh(&p->w);
	if (key == UINT64_MAX || !widget_goto_key(&p->w, key))
		widget_home(&p->w);
}

/* The table again from the hist (new samples, event, zoom, limit). */
static void
reload(struct pane *p, bool keep_cursor)
{
	struct hot *ht = p->priv;
	const struct hist_entry *const *m;
	uint64_t key = UINT64_MAX;
	size_t n;
	unsigned keep = ht->dsos ? HIST_KEEP(HIST_KEY_DSO) : ht->keep;

	if (keep_cursor && p->w.cursor > 0)
		key = widget_cursor_key(&p->w);
	ht->gen = ht->sy->gen;
	ht->loaded = true;
	/* The event is the scope's: the other analysis panes show the same one. */
	ht->ev = ht->sy->scope.ev;
	if (ht->ev >= hist_nevents(H(ht)))
		ht->ev = 0;
	ht->scope_gen = ht->sy->scope.gen;
	free_trees(ht);
	if (ht->branches)	/* rows of the branch table: its own entries */
		n = hot_branch_load(ht->br, hist_nevents(H(ht)) ? hist_event(H(ht), ht->ev)->attr : -1,
		    ht->pct);
	else if (ht->dsos)	/* the DSOs' own overhead: by it, those without samples left out */
		n = hist_rows_self(H(ht), ht->ev, scope_sel(&ht->sy->scope), keep, ht->pct, &m);
	else
		n = hist_rows_merged(H(ht), ht->ev, scope_sel(&ht->sy->scope), keep, ht->pct, &m);
	GROW(ht->ents, ht->capents, n + 1);
	GROW(ht->trees, ht->captrees, n + 1);
	memset(ht->ents, 0, (n + 1) * sizeof *ht->ents);
	for (size_t i = 0; i < n && !ht->branches; i++)
		ht->ents[i] = *m[i];
	memset(ht->trees, 0, (n + 1) * sizeof *ht->trees);
	ht->nents = n;
	rebuild(p, key);
}

static void set_columns(struct pane *p, struct hot *ht);

/* Rows follow the symbols as they come in. */
static void
sync(struct pane *p)
{
	struct hot *ht = p->priv;
	const struct scope *sc = &ht->sy->scope;

	/* the scope's --sort and -g ORDER, when they change (typed) */
	if (sc->hot_keep != ht->seen_keep || sc->hot_callers != ht->seen_callers) {
		ht->seen_keep = sc->hot_keep;
		ht->seen_callers = sc->hot_callers;
		if (sc->hot_callers >= 0)
			ht->callers = sc->hot_callers > 0;
		if (!ht->dsos && !ht->branches)
			set_columns(p, ht);
		ht->loaded = false;
	}
	if (!ht->loaded || ht->gen != ht->sy->gen || ht->scope_gen != sc->gen)
		reload(p, true);
}

/* ---- row text ---- */

static int
phys(const struct hot *ht, int l)
{
	return ht->map[l];
}

/* The columns: children only with callchains, the keys --sort named (sym always). */
static void
set_columns(struct pane *p, struct hot *ht)
{
	static const unsigned key_of[L_N] = {
		[L_COMM] = HIST_KEEP(HIST_KEY_COMM), [L_DSO] = HIST_KEEP(HIST_KEY_DSO),
		[L_SYM] = HIST_KEEP(HIST_KEY_SYM),
	};
	int n = 0;

	if (ht->branches) {
		p->cols = hot_branch_cols;
		p->ncols = HB_N;
		return;
	}
	if (ht->dsos) {	/* no children sums nor commands: a row per DSO */
		static const int dso_map[L_N] = {
			[L_CHILDREN] = -1, [L_SELF] = 0, [L_SAMPLES] = 1, [L_COMM] = -1, [L_DSO] = 2,
			[L_SYM] = 3,
		};

		memcpy(ht->map, dso_map, sizeof dso_map);
		p->cols = cols_dso;
		p->ncols = (int)(sizeof cols_dso / sizeof cols_dso[0]);
		return;
	}
	ht->keep = ht->sy->scope.hot_keep ? ht->sy->scope.hot_keep | HIST_KEEP(HIST_KEY_SYM) :
	    HIST_KEEP(HIST_KEY_COMM) | HIST_KEEP(HIST_KEY_DSO) | HIST_KEEP(HIST_KEY_SYM);
	for (int l = 0; l < L_N; l++) {
		bool on = l == L_CHILDREN ? ht->sy->children :
		    key_of[l] == 0 || (ht->keep & key_of[l]) != 0;

		ht->map[l] = on ? n : -1;
		if (on)
			ht->cols[n++] = cols_children[l];
	}
	if (!ht->sy->children)
		ht->cols[ht->map[L_SELF]] = cols_self[0];	/* "Overhead" */
	p->cols = ht->cols;
	p->ncols = n;
}

static int
pct_el(double pct)
{
	return pct >= 5 ? EL_HOT_HIGH : pct >= 0.5 ? EL_HOT_MID : EL_HOT_LOW;
}

static const char *
dso_short(const struct hot *ht, uint32_t dso)
{
	return dso == DSO_NONE ? "[unknown]" : symbolizer_dso_short(ht->sy->z, dso);
}

/* v as a share of the event's period. */
static double
pct_of(const struct hot *ht, uint64_t v)
{
	const struct hist_event *he = hist_event(H(ht), ht->ev);
	uint64_t t = he ? he->total_period : 0;

	return t ? 100.0 * (double)v / (double)t : 0.0;
}

/* v as a share of the base of a call-path row's percentages: the event's or its symbol's. */
static double
path_pct(const struct hot *ht, const struct hot_tree *pt, uint64_t v)
{
	uint64_t t;

	if (!ht->pct_entry)
		return pct_of(ht, v);
	t = cpath_node(pt->t, pt->top)->total_period;
	return t ? 100.0 * (double)v / (double)t : 0.0;
}

/* A caller or callee: its path's share, (callees) the samples that end there, its samples. */
static void
path_row(const struct hot *ht, const struct hrow *w, struct row *r)
{
	const struct hot_tree *pt = &ht->trees[w->ent];
	const struct cpath_node *n = cpath_node(pt->t, w->cp);
	const struct hist_node *nd = hist_node_get(H(ht), n->func);
	double pc = path_pct(ht, pt, n->total_period);

	row_set(r, phys(ht, L_CHILDREN), pct_el(pc), "%.2f%%", pc);
	if (!ht->callers) {
		pc = path_pct(ht, pt, n->self_period);
		row_set(r, phys(ht, L_SELF), n->self_samples ? pct_el(pc) : EL_DIM, "%.2f%%", pc);
	}
	row_set(r, phys(ht, L_SAMPLES), 0, "%" PRIu64, n->total_samples);
	row_set(r, phys(ht, L_DSO), EL_DIM, "%s", nd ? dso_short(ht, nd->f.dso) : "");
	row_set(r, phys(ht, L_SYM), 0, "%s %s", ht->callers ? "<-" : "->",
	    nd ? hist_str(H(ht), nd->label) : "?");
}

static void
hot_row(struct pane *p, size_t idx, struct row *r)
{
	struct hot *ht = p->priv;
	const struct hrow *w = &ht->rows[idx];
	const struct hist_entry *e = &ht->ents[w->ent];
	char buf[1024];
	double pc;

	r->depth = w->depth;
	r->key = w->key;
	r->have_key = true;
	r->expanded = exp_has(ht, w->key);
	if (ht->branches) {
		hot_branch_row(ht->br, w->ent, r);
		return;
	}
	switch (w->kind) {
	case HR_ENTRY:
		if (ht->sy->children && !ht->dsos) {
			pc = hist_children_pct(H(ht), e);
			row_set(r, phys(ht, L_CHILDREN), pct_el(pc), "%.2f%%", pc);
		}
		pc = hist_self_pct(H(ht), e);
		row_set(r, phys(ht, L_SELF), e->samples ? pct_el(pc) : EL_DIM, "%.2f%%", pc);
		row_set(r, phys(ht, L_SAMPLES), 0, "%" PRIu64, e->samples);
		if (ht->dsos) {
			row_set(r, phys(ht, L_DSO), 0, "%s", dso_short(ht, e->dso));
			row_set(r, phys(ht, L_SYM), EL_DIM, "%s",
			    e->dso == DSO_NONE ? "(no mapping)" : symbolizer_dso_long(ht->sy->z, e->dso));
			break;
		}
		row_set(r, phys(ht, L_COMM), EL_COMM, "%s", hist_str(H(ht), e->comm));
		row_set(r, phys(ht, L_DSO), 0, "%s", dso_short(ht, e->dso));
		row_set(r, phys(ht, L_SYM), 0, "%s", hist_key_text(H(ht), e, HIST_KEY_SYM, buf, sizeof buf));
		break;
	case HR_PATH:
		path_row(ht, w, r);
		break;
	case HR_MORE:
		row_set(r, phys(ht, L_SYM), EL_DIM, "...");
		break;
	case HR_NONE:
		row_set(r, phys(ht, L_SYM), EL_DIM, "%s", ht->callers ? "(no callers; b: callees)" :
		    "(no callees; b: callers)");
		break;
	}
}

static size_t
hot_nrows(struct pane *p)
{
	return ((struct hot *)p->priv)->nrows;
}

/* ---- views ---- */

static const char *
thread_comm(const struct pane *p, int32_t tid)
{
	const struct thread_table *t = session_threads(p->s);
	uint32_t th = thread_table_find(t, tid, UINT64_MAX);

	if (th == THREAD_NONE || t->v[th].last_comm == UINT32_MAX)
		return "";
	return strtab_get(&t->strs, t->comms[t->v[th].last_comm].name);
}

static unsigned
view_flags(const struct hot *ht)
{
	return ht->dsos ? NAV_HOT_DSOS : 0;
}

static void
push_hot(struct pane *p, unsigned flags, const char *label)
{
	nav_view_init(&p->push, PANE_HOT);
	p->push.target = NAV_T_HOT;
	p->push.arg = flags;
	snprintf(p->push.label, sizeof p->push.label, "%s", label);
}

/* The zoom of the scope (every field false when none): the process, thread, DSO. */
static struct hist_select
zoom_of(const struct hot *ht)
{
	const struct scope *sc = &ht->sy->scope;

	return sc->zoomed ? sc->sel : (struct hist_select){ 0 };
}

/*
 * A view of the hot functions names its rows (symbols or DSOs) and its
 * cursor; what they count is the scope's (tui/scope.h), which no view
 * changes by being shown.
 */
static void
hot_enter(struct pane *p, const struct nav_view *v)
{
	struct hot *ht = p->priv;
	unsigned f = v->target == NAV_T_HOT ? (unsigned)v->arg : 0;

	ht->dsos = (f & NAV_HOT_DSOS) != 0;
	ht->branches = false;
	set_columns(p, ht);
	reload(p, false);
	pane_list_enter(p, v);
}

static void
hot_save(struct pane *p, struct nav_view *v)
{
	struct hot *ht = p->priv;

	pane_list_save(p, v);
	v->target = NAV_T_HOT;
	v->arg = view_flags(ht);
}

/* ---- actions ---- */

static const struct hrow *
cursor_row(struct pane *p)
{
	struct hot *ht = p->priv;
	size_t src = widget_cursor_row(&p->w);

	return src == WIDGET_NONE || src >= ht->nrows ? NULL : &ht->rows[src];
}

static bool
expandable(const struct hot *ht, const struct hrow *w)
{
	size_t i = (size_t)(w - ht->rows);

	return i + 1 < ht->nrows && ht->rows[i + 1].depth > w->depth;
}

/* The function of a symbol or call-path row, else UINT32_MAX. */
static uint32_t
row_func(const struct hot *ht, const struct hrow *w)
{
	if (w == NULL || ht->dsos)
		return UINT32_MAX;
	if (w->kind == HR_ENTRY)
		return ht->ents[w->ent].node;
	if (w->kind == HR_PATH)
		return cpath_node(ht->trees[w->ent].t, w->cp)->func;
	return UINT32_MAX;
}

static size_t
parent_of(const struct hot *ht, size_t i)
{
	uint8_t d = ht->rows[i].depth;

	while (i-- > 0)
		if (ht->rows[i].depth < d)
			return i;
	return WIDGET_NONE;
}

/* The events list of the samples of a function (optionally of one comm). */
static int
samples_view(struct pane *p, uint32_t node, uint32_t comm, uint32_t dso)
{
	struct hot *ht = p->priv;
	const struct hist_node *nd = hist_node_get(H(ht), node);
	const char *label, *name, *c = comm != UINT32_MAX ? hist_str(H(ht), comm) : NULL;
	const char *d = dso_short(ht, dso);
	char f[NAV_FILTER_MAX * 2], sym[32];
	int k;

	if (!ht->sy->done) {
		snprintf(p->msg, sizeof p->msg, "the samples of a symbol: when symbols are resolved "
		    "(%.0f%% now)", 100 * symbols_progress(ht->sy));
		return PANE_HANDLED | PANE_MSG;
	}
	if (nd == NULL)
		return PANE_HANDLED;
	label = hist_str(H(ht), nd->label);
	name = symbolizer_label_name(label);
	nav_view_init(&p->push, PANE_EVENTS);
	k = snprintf(f, sizeof f, "type:SAMPLE");
	if (zoom_of(ht).by_tid)
		k += snprintf(f + k, sizeof f - (size_t)k, " tid:%" PRId32, zoom_of(ht).tid);
	else if (zoom_of(ht).by_pid)
		k += snprintf(f + k, sizeof f - (size_t)k, " pid:%" PRId32, zoom_of(ht).pid);
	if (c && c[0] && !strchr(c, ' '))
		k += snprintf(f + k, sizeof f - (size_t)k, " comm:%s", c);
	if (!strchr(d, ' '))
		k += snprintf(f + k, sizeof f - (size_t)k, " dso:%s", d);
	snprintf(sym, sizeof sym, "#%" PRIu32, node);
	if ((size_t)k + 5 + strlen(name) < NAV_FILTER_MAX)
		snprintf(f + k, sizeof f - (size_t)k, " sym:%s", name);
	else
		snprintf(f + k, sizeof f - (size_t)k, " sym:%s", sym);
	f[sizeof p->push.filter - 1] = '\0';
	memcpy(p->push.filter, f, strlen(f) + 1);
	snprintf(p->push.label, sizeof p->push.label, "samples %s", TEXT_CLIP(name, 36));
	return PANE_HANDLED | PANE_PUSH;
}

/* The annotate view of the row's function (self samples of the scope). */
static int
annotate_view(struct pane *p, const struct hrow *w)
{
	return pane_push_annotate_scope(p, row_func(p->priv, w));
}

/* The self samples of function node in the table's rows (of this event and zoom). */
static uint64_t
self_samples_of(const struct hot *ht, uint32_t node)
{
	uint64_t n = 0;

	for (size_t i = 0; i < ht->nents; i++)
		if (ht->ents[i].node == node)
			n += ht->ents[i].samples;
	return n;
}

static int
drill(struct pane *p, const struct hrow *w)
{
	struct hot *ht = p->priv;
	const struct hist_entry *e;
	const struct hist_node *nd;
	char label[NAV_LABEL_MAX];

	if (w == NULL)
		return PANE_HANDLED;
	e = &ht->ents[w->ent];
	switch (w->kind) {
	case HR_ENTRY:
		if (ht->dsos) {
			snprintf(label, sizeof label, "dso %s", TEXT_CLIP(dso_short(ht, e->dso), 40));
			return pane_push_zoom(p, PANE_HOT, SZ_DSO, 0, 0, e->dso, label);
		}
		if (e->samples == 0) {
			snprintf(p->msg, sizeof p->msg, "no sample ends in %s itself: its children %% "
			    "is its callees' (+ shows them)", hist_str(H(ht),
			    hist_node_get(H(ht), e->node)->label));
			return PANE_HANDLED | PANE_MSG;
		}
		return samples_view(p, e->node, e->comm, e->dso);
	case HR_PATH:
		nd = hist_node_get(H(ht), row_func(ht, w));
		if (nd != NULL && self_samples_of(ht, row_func(ht, w)) == 0) {
			/* a caller (or callee) that no sample ends in: as a top-level row says */
			snprintf(p->msg, sizeof p->msg, "no sample ends in %s itself: it is on these "
			    "paths as a caller (no samples to list)", hist_str(H(ht), nd->label));
			return PANE_HANDLED | PANE_MSG;
		}
		return samples_view(p, row_func(ht, w), UINT32_MAX, nd ? nd->f.dso : DSO_NONE);
	default:
		return PANE_IGNORED;
	}
}

/* Open the nodes below node at (key k, its children at depth) that have children. */
static void
collect_keys(struct hot *ht, const struct cpath *t, uint32_t at, uint64_t k, unsigned depth)
{
	for (uint32_t c = cpath_node(t, at)->first_child; c != CPATH_NONE && ht->exp.n < HOT_MAX_ROWS;
	    c = cpath_node(t, c)->next_sibling) {
		const struct cpath_node *n = cpath_node(t, c);
		uint64_t ck = key2(k, n->func);

		if (n->first_child == CPATH_NONE || depth >= HOT_MAX_DEPTH)
			continue;
		exp_set(ht, ck, true);
		collect_keys(ht, t, c, ck, depth + 1);
	}
}

/* + opens or closes a row; e opens it and every call path below it. */
static void
toggle(struct pane *p, const struct hrow *w, bool deep)
{
	struct hot *ht = p->priv;
	uint64_t key = w->key;

	exp_set(ht, key, deep || !exp_has(ht, key));
	if (deep && has_graph(ht) && (w->kind == HR_ENTRY || w->kind == HR_PATH)) {
		const struct hot_tree *pt = entry_tree(ht, w->ent);

		if (w->kind == HR_PATH)
			collect_keys(ht, pt->t, w->cp, key, w->depth + 1u);
		else if (pt->top != CPATH_NONE)
			collect_keys(ht, pt->t, pt->top, paths_key(ht, key), 1);
	}
	rebuild(p, key);
}

/* b: call paths towards the callers or the callees; the cursor goes to its symbol's row. */
static int
key_call_order(struct pane *p, const struct hrow *w)
{
	struct hot *ht = p->priv;
	uint64_t key = w ? entry_key(ht, &ht->ents[w->ent]) : UINT64_MAX;

	if (!has_graph(ht)) {
		snprintf(p->msg, sizeof p->msg, "no call paths here: %s", ht->dsos ?
		    "the list of DSOs" : "the recording has no callchains");
		return PANE_HANDLED | PANE_MSG;
	}
	ht->callers = !ht->callers;
	free_trees(ht);
	rebuild(p, key);
	snprintf(p->msg, sizeof p->msg, "%s", ht->callers ?
	    "call paths towards the callers (perf's callee order; b: callees)" :
	    "call paths towards the callees (perf's caller order; b: callers)");
	return PANE_HANDLED | PANE_MSG;
}

/* p: call-path percentages of the symbol's total or of the event's. */
static int
key_call_pct(struct pane *p)
{
	struct hot *ht = p->priv;

	ht->pct_entry = !ht->pct_entry;
	rebuild(p, p->w.cursor > 0 ? widget_cursor_key(&p->w) : UINT64_MAX);
	snprintf(p->msg, sizeof p->msg, "call-path percentages of %s", ht->pct_entry ?
	    "each symbol's total (p: of the event's)" : "the event's total (p: of each symbol's)");
	return PANE_HANDLED | PANE_MSG;
}

/* } / {: the next or previous event (the scope's: every analysis pane follows). */
static int
key_event(struct pane *p, enum action a)
{
	struct hot *ht = p->priv;

	if (scope_step_event(&ht->sy->scope, H(ht), a == ACT_NEXT_EVENT, p->msg, sizeof p->msg))
		reload(p, false);
	return PANE_HANDLED | PANE_MSG;
}

/* %: hide rows under the next percentage limit. */
static int
key_pct_limit(struct pane *p)
{
	static const double limits[] = { 0, 0.5, 1, 2, 5 };
	struct hot *ht = p->priv;
	size_t i;

	for (i = 0; i < sizeof limits / sizeof limits[0] && limits[i] <= ht->pct; i++)
		;
	ht->pct = i < sizeof limits / sizeof limits[0] ? limits[i] : 0;
	reload(p, true);
	if (ht->pct > 0)
		snprintf(p->msg, sizeof p->msg, "rows under %.1f%% hidden (%% again: more)", ht->pct);
	else
		snprintf(p->msg, sizeof p->msg, "every row shown");
	return PANE_HANDLED | PANE_MSG;
}

/* d: zoom the scope into the row's DSO (its samples: those whose own address is in it). */
static int
key_zoom_dso(struct pane *p, const struct hrow *w)
{
	struct hot *ht = p->priv;
	char label[NAV_LABEL_MAX];
	uint32_t dso;

	if (w == NULL)
		return PANE_HANDLED;
	if (w->kind == HR_PATH) {
		const struct hist_node *nd = hist_node_get(H(ht), row_func(ht, w));

		dso = nd ? nd->f.dso : DSO_NONE;
	} else {
		dso = ht->ents[w->ent].dso;
	}
	snprintf(label, sizeof label, "dso %s", TEXT_CLIP(dso_short(ht, dso), 40));
	return pane_push_zoom(p, PANE_HOT, SZ_DSO, 0, 0, dso, label);
}

/* t: zoom the scope into the row's thread. */
static int
key_zoom_thread(struct pane *p, const struct hrow *w)
{
	struct hot *ht = p->priv;
	char label[NAV_LABEL_MAX];
	const struct hist_entry *e;

	if (w == NULL)
		return PANE_HANDLED;
	e = &ht->ents[w->ent];
	snprintf(label, sizeof label, "thread %" PRId32 " %s", e->tid, TEXT_CLIP(thread_comm(p, e->tid), 24));
	return pane_push_zoom(p, PANE_HOT, SZ_TID, e->pid, e->tid, 0, label);
}

/* c: collapse the row, or its parent if it is not expanded. */
static int
key_collapse(struct pane *p, const struct hrow *w)
{
	struct hot *ht = p->priv;
	size_t src = widget_cursor_row(&p->w);

	if (w == NULL)
		return PANE_HANDLED;
	if (!exp_has(ht, w->key) || !expandable(ht, w)) {
		src = parent_of(ht, src);
		if (src == WIDGET_NONE)
			return PANE_HANDLED;
	}
	exp_set(ht, ht->rows[src].key, false);
	rebuild(p, ht->rows[src].key);
	return PANE_HANDLED;
}

/* E: the first level of call paths of the first HOT_MAX_EXPAND_ALL rows. */
static int
key_expand_all(struct pane *p, const struct hrow *w)
{
	struct hot *ht = p->priv;
	uint64_t key = w ? w->key : UINT64_MAX;
	size_t n = 0;

	if (!has_graph(ht))
		return PANE_HANDLED;
	for (size_t i = 0; i < ht->nents && n < HOT_MAX_EXPAND_ALL; i++, n++)
		exp_set(ht, entry_key(ht, &ht->ents[i]), true);
	rebuild(p, key);
	if (n < ht->nents) {
		snprintf(p->msg, sizeof p->msg, "expanded the first %zu rows' call paths", n);
		return PANE_HANDLED | PANE_MSG;
	}
	return PANE_HANDLED;
}

/* The branch table on or off (s from the DSOs of a recording with branch stacks). */
static int
key_branches(struct pane *p, bool on)
{
	struct hot *ht = p->priv;

	if (on && ht->br == NULL)
		ht->br = hot_branch_new(p->s, &ht->sy->so);
	ht->branches = on;
	set_columns(p, ht);
	reload(p, false);
	return PANE_HANDLED;
}

static int
hot_key(struct pane *p, enum action a)
{
	struct hot *ht = p->priv;
	const struct hrow *w;

	sync(p);
	w = cursor_row(p);
	if (ht->branches && a != ACT_NEXT_EVENT && a != ACT_PREV_EVENT && a != ACT_PCT_LIMIT &&
	    a != ACT_DSOS)
		return PANE_IGNORED;	/* a flat table: the widget's keys only */
	switch (a) {
	case ACT_NEXT_EVENT:
	case ACT_PREV_EVENT:
		return key_event(p, a);
	case ACT_PCT_LIMIT:
		return key_pct_limit(p);
	case ACT_ANNOTATE:
		return annotate_view(p, w);
	case ACT_DSOS:
		if (ht->dsos && !ht->branches && hot_branch_present(p->s))
			return key_branches(p, true);
		if (ht->branches)
			key_branches(p, false);
		if (ht->dsos)
			return PANE_HANDLED | PANE_BACK;
		push_hot(p, NAV_HOT_DSOS, "dsos");
		return PANE_HANDLED | PANE_PUSH;
	case ACT_ZOOM_DSO:
		return key_zoom_dso(p, w);
	case ACT_ZOOM_THREAD:
		return key_zoom_thread(p, w);
	case ACT_ENTER:
	case ACT_EVENTS:
		return drill(p, w) | PANE_HANDLED;
	case ACT_CALL_ORDER:
		return key_call_order(p, w);
	case ACT_CALL_PERCENT:
		return key_call_pct(p);
	case ACT_TOGGLE:
	case ACT_EXPAND:
		if (w == NULL || w->kind == HR_MORE || w->kind == HR_NONE || !expandable(ht, w))
			return PANE_HANDLED;
		toggle(p, w, a == ACT_EXPAND);
		return PANE_HANDLED;
	case ACT_COLLAPSE:
		return key_collapse(p, w);
	case ACT_EXPAND_ALL:
		return key_expand_all(p, w);
	case ACT_FOCUS:
	case ACT_MERGE:
	case ACT_DROP:
	case ACT_NORECURSE:
		snprintf(p->msg, sizeof p->msg, "transforms change the call trees and the flame graph "
		    "(6 7 8): T or B opens this function there");
		return PANE_HANDLED | PANE_MSG;
	case ACT_COLLAPSE_ALL: {
		size_t src = widget_cursor_row(&p->w);

		while (src != WIDGET_NONE && ht->rows[src].depth > 0)
			src = parent_of(ht, src);
		hmap_free(&ht->exp);
		rebuild(p, src != WIDGET_NONE ? ht->rows[src].key : UINT64_MAX);
		return PANE_HANDLED;
	}
	default:
		return PANE_IGNORED;
	}
}

/* ---- drawing ---- */

static void
fmt_count(char *buf, size_t n, uint64_t v)
{
	if (v >= 10000000)
		snprintf(buf, n, "%.1f M", (double)v / 1e6);
	else
		snprintf(buf, n, "%" PRIu64, v);
}

static void
info_line(struct pane *p, char *buf, size_t n)
{
	struct hot *ht = p->priv;
	const struct hist_event *he = hist_event(H(ht), ht->ev);
	size_t nev = hist_nevents(H(ht));
	int k = 0;

	buf[0] = '\0';
	if (he == NULL) {
		snprintf(buf, n, " %s", ht->sy->done ? "No samples in this recording." : "");
		return;
	}
	k = snprintf(buf, n, " Samples: %" PRIu64 " of event '%s'", he->nsamples,
	    hist_str(H(ht), he->name));
	if (nev > 1 && k >= 0 && (size_t)k < n)
		k += snprintf(buf + k, n - (size_t)k, " (%zu of %zu, }: next)", ht->ev + 1, nev);
	if (ht->pct > 0 && k >= 0 && (size_t)k < n)
		k += snprintf(buf + k, n - (size_t)k, " | under %.1f%% hidden", ht->pct);
	if (has_graph(ht) && k >= 0 && (size_t)k < n)
		k += snprintf(buf + k, n - (size_t)k, " | call paths: %s, %% of %s",
		    ht->callers ? "callers" : "callees", ht->pct_entry ? "symbol" : "event");
	if (ht->truncated && k >= 0 && (size_t)k < n)
		snprintf(buf + k, n - (size_t)k, " | expansion cut at %d rows", HOT_MAX_ROWS);
}

static void
hot_draw(struct pane *p, const struct pane_canvas *c)
{
	struct hot *ht = p->priv;
	WINDOW *win = c->win;
	struct pane_canvas lc = *c;
	char buf[512], a[32], b[32];
	int y = c->y + c->h - 1;

	sync(p);
	lc.h = c->h - 1;
	widget_draw(&p->w, &lc);
	if (ht->nents == 0 && c->h > 4) {
		const char *m = !ht->sy->done ? "resolving symbols: the hottest functions show here "
		    "once they are in" : hist_nevents(H(ht)) == 0 ? "no samples in this recording" :
		    "no samples here (Esc goes back)";

		wattrset(win, (attr_t)c->ta->a[EL_DIM]);
		text_put(win, c->y + 2, c->x + 2, c->w - 4, m);
	}
	wattrset(win, (attr_t)c->ta->a[EL_COLUMN_HEADER]);
	mvwhline(win, y, c->x, ' ', c->w);
	if (!ht->sy->done) {
		double f = symbols_progress(ht->sy);
		int bw = c->w / 3, fill = (int)(f * bw);

		fmt_count(a, sizeof a, symbols_resolved(ht->sy));
		fmt_count(b, sizeof b, ht->sy->samples_total);
		mvwaddnstr(win, y, c->x, " Resolving symbols ", c->w);
		wattrset(win, (attr_t)c->ta->a[EL_PROGRESS]);
		mvwhline(win, y, c->x + 19, ' ', fill);
		wattrset(win, (attr_t)c->ta->a[EL_DIM]);
		mvwhline(win, y, c->x + 19 + fill, c->ta->utf8 ? ' ' : '.', bw - fill);
		wattrset(win, (attr_t)c->ta->a[EL_COLUMN_HEADER]);
		snprintf(buf, sizeof buf, " %3.0f%%  %s of %s samples (keys work meanwhile)",
		    100 * f, a, b);
		if (19 + bw < c->w)
			text_put(win, y, c->x + 19 + bw, c->w - 19 - bw, buf);
		return;
	}
	info_line(p, buf, sizeof buf);
	text_put(win, y, c->x, c->w, buf);
}

/* The branch table counts branch entries, not samples (the title says both). */
static bool
hot_counted(struct pane *p, char *buf, size_t n)
{
	struct hot *ht = p->priv;

	if (!ht->branches)
		return false;
	snprintf(buf, n, "%" PRIu64 " branch entries", hot_branch_entries(ht->br));
	return true;
}

static const char *
hot_help(struct pane *p)
{
	struct hot *ht = p->priv;

	if (ht->branches)
		return "branches (perf report's branch mode)  s:back  %:limit  }:event";
	if (ht->dsos)
		return hot_branch_present(p->s) ? "Enter:its symbols  s:branches  %:limit" :
		    "Enter:its symbols  s:back  %:limit";
	return "Enter:samples  +:paths  b:order  p:%  d/t:zoom  s:DSOs  }:event";
}

/* ---- life ---- */

/* Diff mode (symbols with a pair): the diff's table (tui/pane/pane_hotdiff.c). */
extern const struct pane_ops pane_hotdiff_ops;

static int
hot_init(struct pane *p)
{
	struct hot *ht;

	if (p->sym != NULL && p->sym->pair != NULL) {
		p->ops = &pane_hotdiff_ops;
		return p->ops->init(p);
	}
	ht = xcalloc(1, sizeof *ht);
	p->priv = ht;
	ht->sy = p->sym;
	if (ht->sy == NULL) {
		ht->sy = symbols_new(p->s, NULL, NULL);
		ht->own = true;
		p->sym = ht->sy;
	}
	if (ht->sy->scope.hot_callers >= 0)
		ht->callers = ht->sy->scope.hot_callers > 0;
	ht->seen_keep = ht->sy->scope.hot_keep;
	ht->seen_callers = ht->sy->scope.hot_callers;
	set_columns(p, ht);
	p->is_list = true;
	widget_init(&p->w, p, true);
	return 0;
}

static void
hot_free(struct pane *p)
{
	struct hot *ht = p->priv;

	if (ht == NULL)
		return;
	if (ht->own) {
		symbols_free(ht->sy);
		p->sym = NULL;
	}
	free_trees(ht);
	hot_branch_free(ht->br);
	free(ht->trees);
	free(ht->ents);
	free(ht->rows);
	hmap_free(&ht->exp);
	free(ht);
}

/* pane_ops.func: the selected symbol's or call-path row's function (T, B open it in the trees). */
static uint32_t
hot_func(struct pane *p)
{
	sync(p);
	return row_func(p->priv, cursor_row(p));
}

const struct pane_ops pane_hot_ops = {
	.name = "hot",
	.title = "Hot functions",
	.init = hot_init,
	.free = hot_free,
	.draw = hot_draw,
	.key = hot_key,
	.nrows = hot_nrows,
	.row = hot_row,
	.enter = hot_enter,
	.save = hot_save,
	.help = hot_help,
	.counted = hot_counted,
	.find = hot_find,
	.func = hot_func,
};
