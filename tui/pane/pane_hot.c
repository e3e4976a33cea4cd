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
#include "symbolize/symbolizer.h"
#include "tui/pane.h"
#include "tui/keytab.h"
#include "tui/pane/hot_impl.h"
#include "tui/symbols.h"

/*
 * The hot-functions pane (tab 1), perf report's table: children % (when
 * the recording has callchains), self %, samples, command, shared object
 * and symbol, per event (} and { switch events), sorted as perf sorts them.
 *
 * Rows come from the app's symbols (tui/symbols.h): a hist keyed
 * comm,tid,dso,sym whose rows are merged to the scope's --sort (default
 * comm,dso,sym; hist_rows_merged), so zooming into a process, a thread or
 * a DSO is a selection of rows, exact and instant.  A --sort of other keys
 * (cpu, srcline, branch, memory...) is a flat table of its own, built in
 * the background (symbols_keyed); the columns are the sort-key table's.
 * The rows, columns and their text are tui/pane/hot_rows.c's.  While symbols are still being
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
 * history stack.  In a table by keys with file (--sort file: the inputs of
 * a merged recording), Enter zooms the scope into the row's input.  A
 * view's cursor may name a function rather than a row: HOT_CURSOR_FUNC |
 * comm << 32 | node (comm a hist string id, 0: any) puts the cursor on
 * that function's row (how the events pane opens a frame's hot-functions
 * entry).
 */

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

/* v's cursor on the rows, or once they are merged (hot_rows_work). */
static void
enter_rows(struct pane *p, const struct nav_view *v)
{
	struct hot *ht = p->priv;

	ht->has_pend = ht->rbusy;
	if (ht->rbusy)
		ht->pend = *v;
	else
		pane_list_enter(p, v);
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
	bool dsos = (f & NAV_HOT_DSOS) != 0;

	/*
	 * Back to the rows it showed (another pane seen meanwhile): kept while
	 * current (hot_rows_current; what the pane's own keys change, they
	 * reload at once) and the view asks for the same list; made again, they cost
	 * a merge of every thread's entries (95 ms on a 356 MB recording).
	 */
	if (!ht->branches && ht->dsos == dsos && hot_rows_current(ht)) {
		if (v->cursor == NAV_NONE)
			widget_home(&p->w);
		enter_rows(p, v);
		return;
	}
	ht->dsos = dsos;
	ht->branches = false;
	hot_set_columns(p, ht);
	hot_reload(p, false);
	enter_rows(p, v);
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
	if (w == NULL || ht->dsos || ht->keyed || ht->col_sym < 0)
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
	const struct hist_node *nd = hist_node_get(hot_h(ht), node);
	const char *label, *name, *c = comm != UINT32_MAX ? hist_str(hot_h(ht), comm) : NULL;
	const char *d = hot_dso_short(ht, dso);
	char f[NAV_FILTER_MAX * 2], sym[32];
	int k;

	if (!ht->sy->done) {
		snprintf(p->msg, sizeof p->msg, "the samples of a symbol: when symbols are resolved "
		    "(%.0f%% now)", 100 * symbols_progress(ht->sy));
		return PANE_HANDLED | PANE_MSG;
	}
	if (nd == NULL)
		return PANE_HANDLED;
	label = hist_str(hot_h(ht), nd->label);
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

/* Is the table one of its own keys with file among them (its rows name inputs)? */
static bool
keyed_by_file(const struct hot *ht)
{
	return ht->keyed && !ht->dsos && (ht->keep & HIST_KEEP(HIST_KEY_FILE));
}

/* Enter on a row of a table by file: zoom the scope into the row's input. */
static int
zoom_file(struct pane *p, const struct hist_entry *e)
{
	struct hot *ht = p->priv;
	char label[NAV_LABEL_MAX];
	uint32_t in = hist_entry_xkey(hot_eh(ht), e)->file;

	snprintf(label, sizeof label, "file %s", text_clip_middle((char[TEXT_CLIP_MAX]){ 0 },
	    TEXT_CLIP_MAX, hist_file_name(hot_h(ht), in), 40));
	return pane_push_zoom(p, PANE_HOT, SZ_FILE, 0, 0, in, label);
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
		if (keyed_by_file(ht))
			return zoom_file(p, e);
		if (ht->dsos) {
			snprintf(label, sizeof label, "dso %s", TEXT_CLIP(hot_dso_short(ht, e->dso), 40));
			return pane_push_zoom(p, PANE_HOT, SZ_DSO, 0, 0, e->dso, label);
		}
		if (e->samples == 0) {
			snprintf(p->msg, sizeof p->msg, "no sample ends in %s itself: its children %% "
			    "is its callees' (+ shows them)", hist_str(hot_h(ht),
			    hist_node_get(hot_h(ht), e->node)->label));
			return PANE_HANDLED | PANE_MSG;
		}
		return samples_view(p, e->node, e->comm, e->dso);
	case HR_PATH:
		nd = hist_node_get(hot_h(ht), row_func(ht, w));
		if (nd != NULL && self_samples_of(ht, row_func(ht, w)) == 0) {
			/* a caller (or callee) that no sample ends in: as a top-level row says */
			snprintf(p->msg, sizeof p->msg, "no sample ends in %s itself: it is on these "
			    "paths as a caller (no samples to list)", hist_str(hot_h(ht), nd->label));
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
		uint64_t ck = hot_key2(k, n->func);

		if (n->first_child == CPATH_NONE || depth >= HOT_MAX_DEPTH)
			continue;
		hot_exp_set(ht, ck, true);
		collect_keys(ht, t, c, ck, depth + 1);
	}
}

/* + opens or closes a row; e opens it and every call path below it. */
static void
toggle(struct pane *p, const struct hrow *w, bool deep)
{
	struct hot *ht = p->priv;
	uint64_t key = w->key;

	hot_exp_set(ht, key, deep || !hot_exp_has(ht, key));
	if (deep && hot_has_graph(ht) && (w->kind == HR_ENTRY || w->kind == HR_PATH)) {
		const struct hot_tree *pt = hot_entry_tree(ht, w->ent);

		if (w->kind == HR_PATH)
			collect_keys(ht, pt->t, w->cp, key, w->depth + 1u);
		else if (pt->top != CPATH_NONE)
			collect_keys(ht, pt->t, pt->top, hot_paths_key(ht, key), 1);
	}
	hot_rebuild(p, key);
}

/* b: call paths towards the callers or the callees; the cursor goes to its symbol's row. */
static int
key_call_order(struct pane *p, const struct hrow *w)
{
	struct hot *ht = p->priv;
	uint64_t key = w ? hot_entry_key(ht, &ht->ents[w->ent]) : UINT64_MAX;

	if (!hot_has_graph(ht)) {
		snprintf(p->msg, sizeof p->msg, "no call paths here: %s", ht->dsos ?
		    "the list of DSOs" : "the recording has no callchains");
		return PANE_HANDLED | PANE_MSG;
	}
	ht->callers = !ht->callers;
	hot_free_trees(ht);
	hot_rebuild(p, key);
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
	hot_rebuild(p, p->w.cursor > 0 ? widget_cursor_key(&p->w) : UINT64_MAX);
	snprintf(p->msg, sizeof p->msg, "call-path percentages of %s", ht->pct_entry ?
	    "each symbol's total (p: of the event's)" : "the event's total (p: of each symbol's)");
	return PANE_HANDLED | PANE_MSG;
}

/* } / {: the next or previous event (the scope's: every analysis pane follows). */
static int
key_event(struct pane *p, enum action a)
{
	struct hot *ht = p->priv;

	if (scope_step_event(&ht->sy->scope, hot_h(ht), a == ACT_NEXT_EVENT, p->msg, sizeof p->msg))
		hot_reload(p, false);
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
	hot_reload(p, true);
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
		const struct hist_node *nd = hist_node_get(hot_h(ht), row_func(ht, w));

		dso = nd ? nd->f.dso : DSO_NONE;
	} else {
		dso = ht->ents[w->ent].dso;
	}
	snprintf(label, sizeof label, "dso %s", TEXT_CLIP(hot_dso_short(ht, dso), 40));
	return pane_push_zoom(p, PANE_HOT, SZ_DSO, 0, 0, dso, label);
}

/* t: zoom the scope into the row's thread. */
static int
key_zoom_thread(struct pane *p, const struct hrow *w)
{
	struct hot *ht = p->priv;
	char label[NAV_LABEL_MAX];
	const struct hist_entry *e;
	int r;

	if (w == NULL)
		return PANE_HANDLED;
	e = &ht->ents[w->ent];
	snprintf(label, sizeof label, "thread %" PRId32 " %s", e->tid, TEXT_CLIP(thread_comm(p, e->tid), 24));
	r = pane_push_zoom(p, PANE_HOT, SZ_TID, e->pid, e->tid, 0, label);
	if ((r & PANE_PUSH) && !(ht->keep & HIST_KEEP(HIST_KEY_TID))) {
		/* a row of several threads (no tid key): its busiest one, said */
		snprintf(p->msg, sizeof p->msg, "thread %" PRId32 ": the row's busiest thread (the row "
		    "sums its threads: ':' --sort tid,sym lists them)", e->tid);
		r |= PANE_MSG;
	}
	return r;
}

/* c: collapse the row, or its parent if it is not expanded. */
static int
key_collapse(struct pane *p, const struct hrow *w)
{
	struct hot *ht = p->priv;
	size_t src = widget_cursor_row(&p->w);

	if (w == NULL)
		return PANE_HANDLED;
	if (!hot_exp_has(ht, w->key) || !expandable(ht, w)) {
		src = parent_of(ht, src);
		if (src == WIDGET_NONE)
			return PANE_HANDLED;
	}
	hot_exp_set(ht, ht->rows[src].key, false);
	hot_rebuild(p, ht->rows[src].key);
	return PANE_HANDLED;
}

/* E: the first level of call paths of the first HOT_MAX_EXPAND_ALL rows. */
static int
key_expand_all(struct pane *p, const struct hrow *w)
{
	struct hot *ht = p->priv;
	uint64_t key = w ? w->key : UINT64_MAX;
	size_t n = 0;

	if (!hot_has_graph(ht))
		return PANE_HANDLED;
	for (size_t i = 0; i < ht->nents && n < HOT_MAX_EXPAND_ALL; i++, n++)
		hot_exp_set(ht, hot_entry_key(ht, &ht->ents[i]), true);
	hot_rebuild(p, key);
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
		ht->br = hot_branch_new(ht->sy);
	ht->branches = on;
	hot_set_columns(p, ht);
	hot_reload(p, false);
	return PANE_HANDLED;
}

/* Rows by latency or by period (perf 6.15's report --latency or not). */
static int
key_latency_sort(struct pane *p)
{
	struct hot *ht = p->priv;
	struct scope *sc = &ht->sy->scope;

	if (!hot_lat_possible(ht)) {
		snprintf(p->msg, sizeof p->msg, "%s", !ht->sy->done ? "latency: once symbols are in" :
		    symbols_parallel(ht->sy) == NULL ? "no latency: the recording has no switch "
		    "events (perf record --latency or --switch-events)" : "no Latency column in this "
		    "view (DSOs, event groups, the off-CPU event, call-path transforms)");
		return PANE_HANDLED | PANE_MSG;
	}
	sc->hot_by_latency = !sc->hot_by_latency;
	hot_reload(p, true);	/* a recording that ran alone shows the column while sorted by it */
	snprintf(p->msg, sizeof p->msg, "rows sorted by %s", sc->hot_by_latency ? "latency" : "period");
	return PANE_HANDLED | PANE_MSG;
}

/* Keys that act on a row's function, DSO or thread: not in a table of other keys. */
static bool
keyed_refuses(struct pane *p, enum action a)
{
	struct hot *ht = p->priv;
	char keys[200];

	if (!ht->keyed || ht->dsos || (a == ACT_ENTER && keyed_by_file(ht)))
		return false;
	switch (a) {
	case ACT_ENTER:
	case ACT_EVENTS:
	case ACT_ANNOTATE:
	case ACT_ZOOM_DSO:
	case ACT_ZOOM_THREAD:
	case ACT_TOGGLE:
	case ACT_EXPAND:
	case ACT_EXPAND_ALL:
	case ACT_CALL_ORDER:
		snprintf(p->msg, sizeof p->msg, "a table by %s (its own): its rows name no function of "
		    "the other views; ':' --sort sym with comm, pid, process or dso has them",
		    scope_sort_text(&ht->sy->scope.hot_sort, keys, sizeof keys));
		return true;
	default:
		return false;
	}
}

static int
hot_key(struct pane *p, enum action a)
{
	struct hot *ht = p->priv;
	const struct hrow *w;

	hot_sync(p);
	if (keyed_refuses(p, a))
		return PANE_HANDLED | PANE_MSG;
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
	case ACT_LATENCY_SORT:
		return key_latency_sort(p);
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
	case ACT_COLLAPSE_ALL: {
		size_t src = widget_cursor_row(&p->w);

		while (src != WIDGET_NONE && ht->rows[src].depth > 0)
			src = parent_of(ht, src);
		hmap_free(&ht->exp);
		hot_rebuild(p, src != WIDGET_NONE ? ht->rows[src].key : UINT64_MAX);
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
	const struct hist_event *he = hist_event(hot_h(ht), ht->ev);
	size_t nev = hist_nevents(hot_h(ht));
	char keys[200], dur[160];
	int k = 0;

	buf[0] = '\0';
	if (ht->rbusy) {
		size_t done, total;

		hist_rows_progress(hot_h(ht), ht->rticket, &done, &total);
		snprintf(buf, n, " Merging the rows: %.0f%% of %zu entries (keys work meanwhile)",
		    total ? 100.0 * (double)done / (double)total : 0.0, total);
		return;
	}
	if (ht->keyed && he != NULL) {
		scope_sort_text(&ht->sy->scope.hot_sort, keys, sizeof keys);
		if (ht->kbusy) {
			snprintf(buf, n, " Building the table by %s: %.0f%% (keys work meanwhile)", keys,
			    100 * keytab_progress(ht->sy->kt));
			return;
		}
		he = ht->kev != SIZE_MAX ? hist_event(ht->kh, ht->kev) : NULL;
		k = snprintf(buf, n, " Samples: %" PRIu64 " of event '%s' by %s", he ? he->nsamples : 0,
		    hist_str(hot_h(ht), hist_event(hot_h(ht), ht->ev)->name), keys);
		if (nev > 1 && k >= 0 && (size_t)k < n)
			k += snprintf(buf + k, n - (size_t)k, " (%zu of %zu, }: next)", ht->ev + 1, nev);
		if (ht->pct > 0 && k >= 0 && (size_t)k < n)
			k += snprintf(buf + k, n - (size_t)k, " | under %.1f%% hidden", ht->pct);
		if (ht->lat && k >= 0 && (size_t)k < n)
			snprintf(buf + k, n - (size_t)k, " | by %s (L)",
			    ht->sy->scope.hot_by_latency ? "latency" : "period");
		return;
	}
	if (he == NULL) {
		snprintf(buf, n, " %s", ht->sy->done ? "No samples in this recording." : "");
		return;
	}
	if (ht->ngev)
		k = hot_group_info(ht, buf, n);
	else
		k = snprintf(buf, n, " Samples: %" PRIu64 " of event '%s'", he->nsamples,
		    hist_str(hot_h(ht), he->name));
	if (symbols_event_offcpu(ht->sy, ht->ev) && k >= 0 && (size_t)k < n)	/* periods are ns */
		k += snprintf(buf + k, n - (size_t)k, ", %s", symbols_offcpu_text(ht->sy, he->total_period,
		    dur, sizeof dur));
	if (nev > 1 && k >= 0 && (size_t)k < n)
		k += snprintf(buf + k, n - (size_t)k, " (%zu of %zu, }: next)", ht->ev + 1, nev);
	if (ht->pct > 0 && k >= 0 && (size_t)k < n)
		k += snprintf(buf + k, n - (size_t)k, " | under %.1f%% hidden", ht->pct);
	if (ht->lat && k >= 0 && (size_t)k < n)
		k += snprintf(buf + k, n - (size_t)k, " | by %s (L)",
		    ht->sy->scope.hot_by_latency ? "latency" : "period");
	if (hot_has_graph(ht) && k >= 0 && (size_t)k < n)
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

	hot_sync(p);
	lc.h = c->h - 1;
	widget_draw(&p->w, &lc);
	if (ht->nents == 0 && c->h > 4) {
		const char *m = !ht->sy->done ? "resolving symbols: the hottest functions show here "
		    "once they are in" : ht->rbusy ? "merging the entries of the scope into rows" : ht->keyed && ht->kbusy ? "building the table of these keys "
		    "over the scope's samples" : ht->branches && hot_branch_busy(ht->br) ?
		    "building the branch table over the scope's samples" : hist_nevents(hot_h(ht)) == 0 ? "no samples in this recording" :
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
	snprintf(buf, n, "%" PRIu64 " branch entr%s", hot_branch_entries(ht->br),
	    hot_branch_entries(ht->br) == 1 ? "y" : "ies");
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
	if (ht->lat)
		return "Enter:samples  +:paths  b:order  p:%  d/t:zoom  s:DSOs  }:event  L:latency";
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
	ht->seen_sort = ht->sy->scope.hot_sort;
	ht->seen_callers = ht->sy->scope.hot_callers;
	hot_set_columns(p, ht);
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
	hot_free_trees(ht);
	hot_branch_free(ht->br);
	free(ht->kents);
	free(ht->gval);
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
	hot_sync(p);
	return row_func(p->priv, cursor_row(p));
}

const struct pane_ops pane_hot_ops = {
	.name = "hot",
	.description = "the hot functions: perf report's table per event, call paths under each row "
	    "(sorted by file, the inputs of a merged recording: Enter zooms into one)",
	.keys = "} next-event\n" "{ prev-event\n" "s dsos\n" "% percent-limit\n" "b call-order\n" "p call-percent\n" "L latency-sort\n",
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
	.work = hot_rows_work,
};
