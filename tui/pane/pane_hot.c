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
#include "symbolize/hist.h"
#include "symbolize/resolve.h"
#include "tui/pane.h"
#include "tui/symbols.h"

/*
 * The hot-functions pane (tab 1), perf report's table: children % (when
 * the recording has callchains), self %, samples, command, shared object
 * and symbol, per event (Tab switches events), sorted as perf sorts them.
 *
 * Rows come from the app's symbols (tui/symbols.h): a hist keyed
 * comm,tid,dso,sym whose rows are merged to comm,dso,sym for the view
 * (hist_rows_merged), so zooming into a process, a thread or a DSO is a
 * selection of rows, exact and instant.  While symbols are still being
 * resolved the table shows what is in so far, under a progress bar.
 *
 * A symbol expands into two groups, its callers and its callees (edges of
 * the call graph of the event; in a process or thread zoom, of its samples
 * only: the hist keys edges by pid and tid too, hist_callers_sel; a DSO
 * zoom keeps the whole event's, as its rows count every sample through
 * them), and each caller or callee expands into its own callers or
 * callees in turn.  The tree is materialized
 * lazily: a collapsed row has one hidden placeholder child (so the widget
 * draws it as expandable), and expanding rebuilds the rows.  Expansion
 * state is a set of row keys, kept across rebuilds, events and zooms.
 *
 * Enter on a symbol lists its samples in the events pane; d / t zoom into
 * the row's DSO / thread, s lists DSOs, each pushed on the history stack.
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

static const struct column cols_self[L_N - 1] = {
	{ "Overhead", 8, COL_RIGHT | COL_NUM },
	{ "Samples", 9, COL_RIGHT | COL_NUM },
	{ "Command", 15, 0 },
	{ "Shared Object", 20, 0 },
	{ "Symbol", 20, COL_FLEX | COL_TREE | COL_MIDDLE },
};

enum hrow_kind {
	HR_ENTRY,		/* a row of the table */
	HR_CALLERS,		/* group: the callers of the parent's function */
	HR_CALLEES,
	HR_EDGE,		/* a caller or callee */
	HR_MORE,		/* placeholder under a collapsed row */
	HR_NONE,		/* "(none)" */
};

struct hrow {
	uint8_t		 kind;
	uint8_t		 depth;
	bool		 up;		/* edge / placeholder: in a callers subtree */
	uint32_t	 ent;		/* HR_ENTRY: index into ents; else its entry's */
	uint32_t	 node;		/* the function: entry's, or the edge's other end */
	uint32_t	 count;		/* groups: edges */
	uint64_t	 period, samples;	/* edges */
	uint64_t	 key;
};

#define HOT_MAX_DEPTH	40
#define HOT_MAX_ROWS	400000
#define HOT_MAX_EXPAND_ALL	2000

struct hot {
	struct symbols		*sy;
	bool			 own;		/* made by us (no app symbols) */
	size_t			 ev;
	bool			 dsos;		/* list DSOs */
	struct hist_select	 sel;
	double			 pct;
	unsigned		 gen;		/* sy->gen of the rows */
	bool			 loaded;
	struct hist_entry	*ents;
	size_t			 nents, capents;
	struct hrow		*rows;
	size_t			 nrows, caprows;
	bool			 truncated;
	uint64_t		*exp;		/* expanded keys, sorted */
	size_t			 nexp, capexp;
	uint32_t		 path[HOT_MAX_DEPTH + 2];
	char			 info[256];
};

/* ---- expansion set ---- */

static size_t
exp_pos(const struct hot *ht, uint64_t key)
{
	size_t lo = 0, hi = ht->nexp;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (ht->exp[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool
exp_has(const struct hot *ht, uint64_t key)
{
	size_t i = exp_pos(ht, key);

	return i < ht->nexp && ht->exp[i] == key;
}

static void
exp_set(struct hot *ht, uint64_t key, bool on)
{
	size_t i = exp_pos(ht, key);
	bool has = i < ht->nexp && ht->exp[i] == key;

	if (on && !has) {
		GROW(ht->exp, ht->capexp, ht->nexp + 1);
		memmove(&ht->exp[i + 1], &ht->exp[i], (ht->nexp - i) * sizeof *ht->exp);
		ht->exp[i] = key;
		ht->nexp++;
	} else if (!on && has) {
		memmove(&ht->exp[i], &ht->exp[i + 1], (ht->nexp - i - 1) * sizeof *ht->exp);
		ht->nexp--;
	}
}

/* ---- keys ---- */

/* Keys stay below 2^62: UINT64_MAX and NAV_NONE mean "none". */
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

/* ---- rows ---- */

static struct hist *
H(const struct hot *ht)
{
	return ht->sy->h;
}

static bool
has_graph(const struct hot *ht)
{
	return ht->sy->children && !ht->dsos;
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

/* Edges of node (callers or callees), copied: the hist's buffer is reused. */
static size_t
edges(struct hot *ht, uint32_t node, bool up, struct hist_edge **out)
{
	const struct hist_edge *e;
	size_t n = up ? hist_callers_sel(H(ht), ht->ev, node, &ht->sel, &e) :
	    hist_callees_sel(H(ht), ht->ev, node, &ht->sel, &e);

	*out = NULL;
	if (n == 0)
		return 0;
	*out = xcalloc(n, sizeof **out);
	memcpy(*out, e, n * sizeof *e);
	return n;
}

static void
emit_edges(struct hot *ht, uint64_t pkey, uint32_t ent, uint32_t node, bool up, unsigned depth)
{
	struct hist_edge *ed;
	size_t n = edges(ht, node, up, &ed);
	struct hrow *r;

	if (n == 0) {
		if ((r = add_row(ht, HR_NONE, depth, ent, key2(pkey, 3))) != NULL)
			r->up = up;
		return;
	}
	ht->path[depth] = node;
	for (size_t i = 0; i < n && !ht->truncated; i++) {
		uint32_t other = up ? ed[i].caller : ed[i].callee;
		uint64_t k = key2(pkey, other);
		bool cycle = false;

		r = add_row(ht, HR_EDGE, depth, ent, k);
		if (r == NULL)
			break;
		r->up = up;
		r->node = other;
		r->period = ed[i].period;
		r->samples = ed[i].samples;
		for (unsigned d = 1; d <= depth && !cycle; d++)
			cycle = ht->path[d] == other;
		if (cycle || depth >= HOT_MAX_DEPTH)
			continue;
		if (exp_has(ht, k))
			emit_edges(ht, k, ent, other, up, depth + 1);
		else if ((r = add_row(ht, HR_MORE, depth + 1, ent, key2(k, 4))) != NULL)
			r->up = up;
	}
	free(ed);
}

static void
emit_group(struct hot *ht, uint64_t ekey, uint32_t ent, uint32_t node, bool up, size_t n)
{
	uint64_t gk = key2(ekey, up ? 1 : 2);
	struct hrow *r = add_row(ht, up ? HR_CALLERS : HR_CALLEES, 1, ent, gk);

	if (r == NULL)
		return;
	r->count = (uint32_t)n;
	r->node = node;
	r->up = up;
	ht->path[1] = node;
	if (exp_has(ht, gk))
		emit_edges(ht, gk, ent, node, up, 2);
	else if ((r = add_row(ht, HR_MORE, 2, ent, key2(gk, 4))) != NULL)
		r->up = up;
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
		const struct hist_edge *ed;
		size_t nc, ne;

		if (r == NULL)
			break;
		r->node = e->node;
		if (!has_graph(ht))
			continue;
		if (!exp_has(ht, k)) {
			add_row(ht, HR_MORE, 1, (uint32_t)i, key2(k, 4));
			continue;
		}
		nc = hist_callers_sel(H(ht), ht->ev, e->node, &ht->sel, &ed);
		ne = hist_callees_sel(H(ht), ht->ev, e->node, &ht->sel, &ed);
		if (nc == 0 && ne == 0)
			add_row(ht, HR_NONE, 1, (uint32_t)i, key2(k, 3));
		if (nc)
			emit_group(ht, k, (uint32_t)i, e->node, true, nc);
		if (ne)
			emit_group(ht, k, (uint32_t)i, e->node, false, ne);
	}
}

static size_t
hot_find(struct pane *p, uint64_t key)
{
	const struct hot *ht = p->priv;

	for (size_t i = 0; i < ht->nrows; i++)
		if (ht->rows[i].key == key)
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
	unsigned keep = ht->dsos ? HIST_KEEP(HIST_KEY_DSO) :
	    HIST_KEEP(HIST_KEY_COMM) | HIST_KEEP(HIST_KEY_DSO) | HIST_KEEP(HIST_KEY_SYM);

	if (keep_cursor && p->w.cursor > 0)
		key = widget_cursor_key(&p->w);
	ht->gen = ht->sy->gen;
	ht->loaded = true;
	if (ht->ev >= hist_nevents(H(ht)))
		ht->ev = 0;
	n = hist_rows_merged(H(ht), ht->ev, &ht->sel, keep, ht->pct, &m);
	GROW(ht->ents, ht->capents, n + 1);
	for (size_t i = 0; i < n; i++)
		ht->ents[i] = *m[i];
	ht->nents = n;
	rebuild(p, key);
}

/* Rows follow the symbols as they come in. */
static void
sync(struct pane *p)
{
	struct hot *ht = p->priv;

	if (!ht->loaded || ht->gen != ht->sy->gen)
		reload(p, true);
}

/* ---- row text ---- */

static int
phys(const struct hot *ht, int l)
{
	if (ht->sy->children)
		return l;
	return l == L_CHILDREN ? -1 : l - 1;
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

static void
hot_row(struct pane *p, size_t idx, struct row *r)
{
	struct hot *ht = p->priv;
	const struct hrow *w = &ht->rows[idx];
	const struct hist_entry *e = &ht->ents[w->ent];
	const struct hist_node *nd;
	char buf[1024];
	double pc;

	r->depth = w->depth;
	r->key = w->key;
	r->have_key = true;
	r->expanded = exp_has(ht, w->key);
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
	case HR_CALLERS:
	case HR_CALLEES:
		row_set(r, phys(ht, L_SYM), EL_TREE, "%s (%" PRIu32 ")",
		    w->kind == HR_CALLERS ? "callers" : "callees", w->count);
		break;
	case HR_EDGE:
		nd = hist_node_get(H(ht), w->node);
		pc = pct_of(ht, w->period);
		row_set(r, phys(ht, L_CHILDREN), pct_el(pc), "%.2f%%", pc);
		row_set(r, phys(ht, L_SAMPLES), 0, "%" PRIu64, w->samples);
		row_set(r, phys(ht, L_DSO), EL_DIM, "%s", nd ? dso_short(ht, nd->f.dso) : "");
		row_set(r, phys(ht, L_SYM), 0, "%s %s", w->up ? "<-" : "->",
		    nd ? hist_str(H(ht), nd->label) : "?");
		break;
	case HR_MORE:
		row_set(r, phys(ht, L_SYM), EL_DIM, "...");
		break;
	case HR_NONE:
		row_set(r, phys(ht, L_SYM), EL_DIM, "%s",
		    w->depth <= 1 ? "(no callers or callees)" : w->up ? "(no callers)" : "(no callees)");
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
	return (ht->sel.by_pid ? NAV_HOT_PID : 0) | (ht->sel.by_tid ? NAV_HOT_TID : 0) |
	    (ht->sel.by_dso ? NAV_HOT_DSO : 0) | (ht->dsos ? NAV_HOT_DSOS : 0);
}

static void
push_hot(struct pane *p, unsigned flags, int32_t pid, int32_t tid, uint32_t dso, const char *label)
{
	nav_view_init(&p->push, PANE_HOT);
	p->push.target = NAV_T_HOT;
	p->push.arg = flags;
	p->push.arg2 = (uint64_t)(uint32_t)pid << 32 | (uint32_t)tid;
	p->push.arg3 = dso;
	snprintf(p->push.label, sizeof p->push.label, "%s", label);
}

static void
hot_enter(struct pane *p, const struct nav_view *v)
{
	struct hot *ht = p->priv;
	unsigned f = v->target == NAV_T_HOT ? (unsigned)v->arg : 0;

	memset(&ht->sel, 0, sizeof ht->sel);
	ht->sel.by_pid = (f & NAV_HOT_PID) != 0;
	ht->sel.by_tid = (f & NAV_HOT_TID) != 0;
	ht->sel.by_dso = (f & NAV_HOT_DSO) != 0;
	ht->sel.pid = (int32_t)(uint32_t)(v->arg2 >> 32);
	ht->sel.tid = (int32_t)(uint32_t)v->arg2;
	ht->sel.dso = (uint32_t)v->arg3;
	ht->dsos = (f & NAV_HOT_DSOS) != 0;
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
	v->arg2 = (uint64_t)(uint32_t)ht->sel.pid << 32 | (uint32_t)ht->sel.tid;
	v->arg3 = ht->sel.dso;
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
	if (ht->sel.by_tid)
		k += snprintf(f + k, sizeof f - (size_t)k, " tid:%" PRId32, ht->sel.tid);
	else if (ht->sel.by_pid)
		k += snprintf(f + k, sizeof f - (size_t)k, " pid:%" PRId32, ht->sel.pid);
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
	snprintf(p->push.label, sizeof p->push.label, "samples %.36s", name);
	return PANE_HANDLED | PANE_PUSH;
}

/* The annotate view of the row's function (self samples of this event, of
 * the zoomed process or thread if any). */
static int
annotate_view(struct pane *p, const struct hrow *w)
{
	struct hot *ht = p->priv;
	const struct hist_node *nd;
	const char *label;
	uint32_t node;

	if (w == NULL || ht->dsos) {
		snprintf(p->msg, sizeof p->msg, "a annotates a symbol: select one");
		return PANE_HANDLED | PANE_MSG;
	}
	node = w->kind == HR_ENTRY ? ht->ents[w->ent].node : w->node;
	nd = hist_node_get(H(ht), node);
	if (nd == NULL || (w->kind != HR_ENTRY && w->kind != HR_EDGE)) {
		snprintf(p->msg, sizeof p->msg, "a annotates a symbol: select one");
		return PANE_HANDLED | PANE_MSG;
	}
	if (nd->f.sym == SYM_NONE) {
		snprintf(p->msg, sizeof p->msg, "%s is no symbol: nothing to disassemble",
		    hist_str(H(ht), nd->label));
		return PANE_HANDLED | PANE_MSG;
	}
	if (symbolizer_sym_inlined(ht->sy->z, nd->f.sym)) {
		snprintf(p->msg, sizeof p->msg, "an inlined function: annotate the function it is "
		    "inlined into");
		return PANE_HANDLED | PANE_MSG;
	}
	label = hist_str(H(ht), nd->label);
	nav_view_init(&p->push, PANE_ANNOTATE);
	p->push.arg = (uint64_t)(view_flags(ht) & (NAV_HOT_PID | NAV_HOT_TID)) << 32 | ht->ev;
	p->push.arg2 = node;
	p->push.arg3 = (uint64_t)(uint32_t)ht->sel.pid << 32 | (uint32_t)ht->sel.tid;
	snprintf(p->push.label, sizeof p->push.label, "annotate %.36s",
	    symbolizer_label_name(label));
	return PANE_HANDLED | PANE_PUSH;
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
			snprintf(label, sizeof label, "dso %.40s", dso_short(ht, e->dso));
			push_hot(p, view_flags(ht) & ~(unsigned)NAV_HOT_DSOS, ht->sel.pid, ht->sel.tid,
			    e->dso, label);
			p->push.arg |= NAV_HOT_DSO;
			return PANE_HANDLED | PANE_PUSH;
		}
		if (e->samples == 0) {
			snprintf(p->msg, sizeof p->msg, "no sample ends in %s itself: its children %% "
			    "is its callees' (+ shows them)", hist_str(H(ht),
			    hist_node_get(H(ht), e->node)->label));
			return PANE_HANDLED | PANE_MSG;
		}
		return samples_view(p, e->node, e->comm, e->dso);
	case HR_EDGE:
		nd = hist_node_get(H(ht), w->node);
		return samples_view(p, w->node, UINT32_MAX, nd ? nd->f.dso : DSO_NONE);
	default:
		return PANE_IGNORED;
	}
}

static void
toggle(struct pane *p, const struct hrow *w, bool deep)
{
	struct hot *ht = p->priv;
	uint64_t key = w->key;
	bool on = !exp_has(ht, key);

	if (deep)
		on = true;
	exp_set(ht, key, on);
	rebuild(p, key);
	if (!deep)
		return;
	/* e: two more levels below the row, as far as they go */
	for (int level = 0; level < 2 && !ht->truncated; level++) {
		size_t i = hot_find(p, key), end;

		if (i == WIDGET_NONE)
			return;
		for (end = i + 1; end < ht->nrows && ht->rows[end].depth > ht->rows[i].depth; end++)
			if (ht->rows[end].kind != HR_MORE && expandable(ht, &ht->rows[end]))
				exp_set(ht, ht->rows[end].key, true);
		rebuild(p, key);
	}
}

/* Tab / BTab: the next or previous event. */
static int
key_event(struct pane *p, enum action a)
{
	struct hot *ht = p->priv;
	size_t nev = hist_nevents(H(ht));

	if (nev <= 1) {
		snprintf(p->msg, sizeof p->msg, "%s (1-5 switch panes)",
		    nev ? "one event only" : "no events with samples yet");
		return PANE_HANDLED | PANE_MSG;
	}
	ht->ev = (ht->ev + (a == ACT_NEXT_EVENT ? 1 : nev - 1)) % nev;
	reload(p, false);
	snprintf(p->msg, sizeof p->msg, "event %zu of %zu: %s", ht->ev + 1, nev,
	    hist_str(H(ht), hist_event(H(ht), ht->ev)->name));
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

/* d: the hot functions of the row's DSO (again: back out). */
static int
key_zoom_dso(struct pane *p, const struct hrow *w)
{
	struct hot *ht = p->priv;
	char label[NAV_LABEL_MAX];
	uint32_t dso;

	if (w == NULL)
		return PANE_HANDLED;
	if (w->kind == HR_EDGE) {
		const struct hist_node *nd = hist_node_get(H(ht), w->node);

		dso = nd ? nd->f.dso : DSO_NONE;
	} else {
		dso = ht->ents[w->ent].dso;
	}
	if (ht->sel.by_dso && ht->sel.dso == dso && !ht->dsos)
		return PANE_HANDLED | PANE_BACK;
	snprintf(label, sizeof label, "dso %.40s", dso_short(ht, dso));
	push_hot(p, (view_flags(ht) & ~(unsigned)NAV_HOT_DSOS) | NAV_HOT_DSO, ht->sel.pid,
	    ht->sel.tid, dso, label);
	return PANE_HANDLED | PANE_PUSH;
}

/* t: the hot functions of the row's thread (again: back out). */
static int
key_zoom_thread(struct pane *p, const struct hrow *w)
{
	struct hot *ht = p->priv;
	char label[NAV_LABEL_MAX];
	const struct hist_entry *e;

	if (w == NULL)
		return PANE_HANDLED;
	e = &ht->ents[w->ent];
	if (ht->sel.by_tid && ht->sel.tid == e->tid)
		return PANE_HANDLED | PANE_BACK;
	snprintf(label, sizeof label, "thread %" PRId32 " %.24s", e->tid, thread_comm(p, e->tid));
	push_hot(p, (view_flags(ht) & ~(unsigned)NAV_HOT_PID) | NAV_HOT_TID, e->pid, e->tid,
	    ht->sel.dso, label);
	return PANE_HANDLED | PANE_PUSH;
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

/* E: the callers and callees of the first HOT_MAX_EXPAND_ALL rows. */
static int
key_expand_all(struct pane *p, const struct hrow *w)
{
	struct hot *ht = p->priv;
	uint64_t key = w ? w->key : UINT64_MAX;
	size_t n = 0;

	if (!has_graph(ht))
		return PANE_HANDLED;
	for (size_t i = 0; i < ht->nents && n < HOT_MAX_EXPAND_ALL; i++, n++) {
		uint64_t k = entry_key(ht, &ht->ents[i]);

		exp_set(ht, k, true);
		exp_set(ht, key2(k, 1), true);
		exp_set(ht, key2(k, 2), true);
	}
	rebuild(p, key);
	if (n < ht->nents) {
		snprintf(p->msg, sizeof p->msg, "expanded the first %zu rows' callers and callees",
		    n);
		return PANE_HANDLED | PANE_MSG;
	}
	return PANE_HANDLED;
}

static int
hot_key(struct pane *p, enum action a)
{
	struct hot *ht = p->priv;
	const struct hrow *w;

	sync(p);
	w = cursor_row(p);
	switch (a) {
	case ACT_NEXT_EVENT:
	case ACT_PREV_EVENT:
		return key_event(p, a);
	case ACT_PCT_LIMIT:
		return key_pct_limit(p);
	case ACT_ANNOTATE:
		return annotate_view(p, w);
	case ACT_DSOS:
		if (ht->dsos)
			return PANE_HANDLED | PANE_BACK;
		push_hot(p, view_flags(ht) | NAV_HOT_DSOS, ht->sel.pid, ht->sel.tid, ht->sel.dso,
		    "dsos");
		return PANE_HANDLED | PANE_PUSH;
	case ACT_ZOOM_DSO:
		return key_zoom_dso(p, w);
	case ACT_ZOOM_THREAD:
		return key_zoom_thread(p, w);
	case ACT_ENTER:
	case ACT_EVENTS:
		if (w && (w->kind == HR_CALLERS || w->kind == HR_CALLEES) && a == ACT_ENTER) {
			toggle(p, w, false);
			return PANE_HANDLED;
		}
		return drill(p, w) | PANE_HANDLED;
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
		ht->nexp = 0;
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
		k += snprintf(buf + k, n - (size_t)k, " (%zu of %zu, Tab: next)", ht->ev + 1, nev);
	if (ht->pct > 0 && k >= 0 && (size_t)k < n)
		k += snprintf(buf + k, n - (size_t)k, " | under %.1f%% hidden", ht->pct);
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
		    "as they come in" : hist_nevents(H(ht)) == 0 ? "no samples in this recording" :
		    "no samples here (Esc goes back)";

		wattrset(win, (attr_t)c->ta->a[EL_DIM]);
		text_put(win, c->y + 2, c->x + 2, c->w - 4, m);
	}
	wattrset(win, (attr_t)c->ta->a[EL_COLUMN_HEADER]);
	mvwhline(win, y, c->x, ' ', c->w);
	if (!ht->sy->done) {
		double f = symbols_progress(ht->sy);
		int bw = c->w / 3, fill = (int)(f * bw);

		fmt_count(a, sizeof a, ht->sy->samples_done);
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

static const char *
hot_help(struct pane *p)
{
	struct hot *ht = p->priv;

	if (ht->dsos)
		return "Enter:its symbols  s:back  %:limit";
	return "Enter:samples  +:callers/callees  d/t:zoom  s:DSOs  Tab:event";
}

/* ---- life ---- */

static int
hot_init(struct pane *p)
{
	struct hot *ht = xcalloc(1, sizeof *ht);

	p->priv = ht;
	ht->sy = p->sym;
	if (ht->sy == NULL) {
		ht->sy = symbols_new(p->s, NULL);
		ht->own = true;
		p->sym = ht->sy;
	}
	p->cols = ht->sy->children ? cols_children : cols_self;
	p->ncols = ht->sy->children ? L_N : L_N - 1;
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
	free(ht->ents);
	free(ht->rows);
	free(ht->exp);
	free(ht);
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
	.find = hot_find,
};
