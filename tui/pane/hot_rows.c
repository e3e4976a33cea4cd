#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/cpath.h"
#include "symbolize/hist.h"
#include "symbolize/symbolizer.h"
#include "tui/keytab.h"
#include "tui/pane/hot_impl.h"

/*
 * The hot-functions pane's rows (tui/pane/pane_hot.c says what it shows):
 * its columns from the sort keys, its entries from the app's hist merged
 * or from a keyed table, the call paths of expanded rows, and their text.
 */

static const struct column cols_counts[3] = {
	/* by L_* / HOT_GROUP_MAX */
	{ "Children", 8, COL_RIGHT | COL_NUM },
	{ "Self", 8, COL_RIGHT | COL_NUM },
	{ "Samples", 9, COL_RIGHT | COL_NUM },
};

/* perf 6.15's latency: children latency with children sums, else self latency. */
static const struct column col_lat = { "Latency", 8, COL_RIGHT | COL_NUM };

/* The DSO list (s): a row per shared object, its path where the symbol was. */
static const struct column cols_dso[] = {
	{ "Overhead", 8, COL_RIGHT | COL_NUM },
	{ "Samples", 9, COL_RIGHT | COL_NUM },
	{ "Shared Object", 20, 0 },
	{ "Path", 20, COL_FLEX | COL_MIDDLE },
};

/* ---- expansion set: row key -> 1 (expanded), 0 (closed again) ---- */

bool
hot_exp_has(const struct hot *ht, uint64_t key)
{
	return hmap_get(&ht->exp, key) == 1;
}

void
hot_exp_set(struct hot *ht, uint64_t key, bool on)
{
	if (on || hmap_get(&ht->exp, key) != HMAP_NONE)
		hmap_set(&ht->exp, key, on);
}

/* ---- keys ---- */

/* Keys stay below 2^62: UINT64_MAX, NAV_NONE and HOT_CURSOR_FUNC are none of them. */
uint64_t
hot_key2(uint64_t a, uint64_t b)
{
	return hash_mix64(a * UINT64_C(0x9e3779b97f4a7c15) ^ hash_mix64(b + 0x51)) >> 2;
}

uint64_t
hot_entry_key(const struct hot *ht, const struct hist_entry *e)
{
	return hot_key2(hot_key2(ht->dsos ? 1 : 2, e->comm), (uint64_t)e->dso << 32 | e->node);
}

/* The key under which an entry's first level of call paths hangs (one per order). */
uint64_t
hot_paths_key(const struct hot *ht, uint64_t ekey)
{
	return hot_key2(ekey, ht->callers ? 5 : 6);
}

/* ---- rows ---- */

struct hist *
hot_h(const struct hot *ht)
{
	return ht->sy->h;
}

/* The hist of the rows' entries: the keyed table's, else the app's. */
struct hist *
hot_eh(const struct hot *ht)
{
	return ht->keyed ? ht->kh : ht->sy->h;
}

bool
hot_has_graph(const struct hot *ht)
{
	return ht->sy->callchains && !ht->dsos && !ht->branches && !ht->keyed &&
	    ht->col_sym >= 0;
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

void
hot_free_trees(struct hot *ht)
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
const struct hot_tree *
hot_entry_tree(struct hot *ht, uint32_t i)
{
	struct hot_tree *pt = &ht->trees[i];
	const struct hist_entry *e = &ht->ents[i];
	const struct hist_select *zs = scope_sel(&ht->sy->scope);
	struct hist_select sel = zs ? *zs : (struct hist_select){ 0 };
	const struct scope *sc = &ht->sy->scope;
	struct cpath_xform x[SCOPE_XF_MAX + 1];
	struct cpath_query q = {
		.ev = ht->ev, .sel = &sel, .entry = CPATH_NONE, .xf = x, .nxf = sc->nxf + 1,
		.bottom_up = ht->callers,
	};

	if (pt->t != NULL)
		return pt;
	/* the scope's transforms first, then the cut at the function */
	memcpy(x, sc->xf, sc->nxf * sizeof *x);
	x[sc->nxf] = (struct cpath_xform){ ht->callers ? CPATH_CALLERS : CPATH_FOCUS, e->node };
	if ((ht->keep & HIST_KEEP(HIST_KEY_COMM)) != 0) {	/* a row of one command */
		sel.by_comm = true;
		sel.comm = e->comm;
	}
	pt->t = cpath_build(hot_h(ht), &q);
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
		uint64_t k = hot_key2(pkey, n->func);
		struct hrow *r = add_row(ht, HR_PATH, depth, ent, k);

		if (r == NULL)
			return;
		r->cp = c;
		if (n->first_child == CPATH_NONE || depth >= HOT_MAX_DEPTH)
			continue;
		if (hot_exp_has(ht, k))
			emit_paths(ht, ent, t, c, k, depth + 1);
		else
			add_row(ht, HR_MORE, depth + 1, ent, hot_key2(k, 4));
	}
}

static void
build_rows(struct hot *ht)
{
	ht->nrows = 0;
	ht->truncated = false;
	for (size_t i = 0; i < ht->nents && !ht->truncated; i++) {
		const struct hist_entry *e = &ht->ents[i];
		uint64_t k = hot_entry_key(ht, e);
		struct hrow *r = add_row(ht, HR_ENTRY, 0, (uint32_t)i, k);
		const struct hot_tree *pt;

		if (r == NULL)
			break;
		if (!hot_has_graph(ht))
			continue;
		if (!hot_exp_has(ht, k)) {
			add_row(ht, HR_MORE, 1, (uint32_t)i, hot_key2(k, 4));
			continue;
		}
		pt = hot_entry_tree(ht, (uint32_t)i);
		if (pt->top == CPATH_NONE || cpath_node(pt->t, pt->top)->first_child == CPATH_NONE)
			add_row(ht, HR_NONE, 1, (uint32_t)i, hot_key2(k, 3));
		else
			emit_paths(ht, (uint32_t)i, pt->t, pt->top, hot_paths_key(ht, k), 1);
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

size_t
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
void
hot_rebuild(struct pane *p, uint64_t key)
{
	struct hot *ht = p->priv;

	build_rows(ht);
	widget_refresh(&p->w);
	if (key == UINT64_MAX || !widget_goto_key(&p->w, key))
		widget_home(&p->w);
}

/*
 * The keyed table's rows of the scope's event (the same attr there), or
 * none while it is built; ht->kev its event index.
 */
static size_t
keyed_rows(struct hot *ht, const struct hist_entry *const **m)
{
	const struct hist_event *he = hist_event(hot_h(ht), ht->ev);
	const uint32_t *ix;
	size_t n;

	ht->kh = symbols_keyed(ht->sy, &ht->kbusy);
	*m = NULL;
	ht->kev = SIZE_MAX;
	if (ht->kh == NULL || he == NULL)
		return 0;
	for (size_t ev = 0; ev < hist_nevents(ht->kh); ev++)
		if (hist_event(ht->kh, ev)->attr == he->attr)
			ht->kev = ev;
	if (ht->kev == SIZE_MAX)
		return 0;
	n = hist_rows(ht->kh, ht->kev, ht->pct, &ix);
	GROW(ht->kents, ht->capkents, n + 1);
	for (size_t i = 0; i < n; i++)
		ht->kents[i] = hist_entry_get(ht->kh, ix[i]);
	*m = ht->kents;
	return n;
}

/* The scope's event's group (ht->gev, ngev), when the rows are the hist's merged. */
static void
group_setup(struct hot *ht)
{
	struct hist *h = hot_h(ht);
	const struct hist_event *he = hist_event(h, ht->ev);
	const struct feat_group *gr;
	size_t found = 0;

	ht->ngev = 0;
	if (ht->keyed || ht->dsos || ht->branches || he == NULL)
		return;
	gr = features_group_of(session_features(ht->sy->s), he->attr, HOT_GROUP_MAX);
	if (gr == NULL)
		return;
	for (uint32_t m = 0; m < gr->nr_members; m++) {
		ht->gev[m] = SIZE_MAX;
		for (size_t e = 0; e < hist_nevents(h); e++)
			if (hist_event(h, e)->attr == (int)(gr->leader_idx + m))
				ht->gev[m] = e;
		found += ht->gev[m] != SIZE_MAX;
	}
	if (found >= 2)
		ht->ngev = gr->nr_members;
}

/* A member's value of row i as a percentage of its event's total (children or self). */
static double
group_pct(const struct hot *ht, size_t i, size_t m, bool children)
{
	const struct hot_gval *g = &ht->gval[i * ht->ngev + m];
	uint64_t t = ht->gev[m] == SIZE_MAX ? 0 : hist_event(hot_h(ht), ht->gev[m])->total_period;

	return t ? 100.0 * (double)(children ? g->acc : g->period) / (double)t : 0.0;
}

/* Group rows by the leader's values, then the next member's, as perf sorts them. */
static int
cmp_group(const void *a, const void *b, void *arg)
{
	const struct hot *ht = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	for (size_t m = 0; m < ht->ngev; m++) {
		double px = group_pct(ht, x, m, ht->kchildren), py = group_pct(ht, y, m, ht->kchildren);

		if (px != py)
			return px > py ? -1 : 1;
	}
	return (x > y) - (x < y);
}

/* The key a row of one member matches the same row of another by: the kept keys. */
static uint64_t
group_key(const struct hot *ht, const struct hist_entry *e)
{
	uint64_t k = hot_entry_key(ht, e);

	if (ht->keep & (HIST_KEEP(HIST_KEY_PID) | HIST_KEEP(HIST_KEY_TID)))
		k = hot_key2(k, (uint64_t)(uint32_t)e->pid << 32 | (uint32_t)e->tid);
	return k;
}

/*
 * An event group's rows: each member's merged rows matched by their keys
 * (the leader's first), each member's counts kept; those with no member
 * at the limit left out; sorted as perf sorts a group.  Fills ents and gval.
 */
static size_t
group_rows(struct hot *ht, unsigned keep)
{
	struct hmap at;
	size_t n = 0, k = 0, *ord;
	struct hist_entry *ents;
	struct hot_gval *gval;

	memset(&at, 0, sizeof at);
	for (size_t m = 0; m < ht->ngev; m++) {
		const struct hist_entry *const *mm;
		size_t nm = ht->gev[m] == SIZE_MAX ? 0 : hist_rows_merged(hot_h(ht), ht->gev[m],
		    scope_sel(&ht->sy->scope), keep, 0, &mm);

		for (size_t i = 0; i < nm; i++) {
			uint64_t key = group_key(ht, mm[i]);
			uint32_t r = hmap_get(&at, key);

			if (r == HMAP_NONE) {
				GROW(ht->ents, ht->capents, n + 1);
				GROW(ht->gval, ht->capgval, (n + 1) * ht->ngev);
				ht->ents[n] = *mm[i];
				memset(&ht->gval[n * ht->ngev], 0, ht->ngev * sizeof *ht->gval);
				hmap_set(&at, key, (uint32_t)n);
				r = (uint32_t)n++;
			}
			ht->gval[r * ht->ngev + m] = (struct hot_gval){ mm[i]->period, mm[i]->acc_period,
				mm[i]->samples };
		}
	}
	hmap_free(&at);
	ord = xcalloc(n + 1, sizeof *ord);
	for (size_t i = 0; i < n; i++) {
		bool shown = ht->pct <= 0;

		for (size_t m = 0; m < ht->ngev && !shown; m++)
			shown = group_pct(ht, i, m, ht->kchildren) >= ht->pct;
		if (shown)
			ord[k++] = i;
	}
	qsort_r(ord, k, sizeof *ord, cmp_group, ht);
	ents = xcalloc(k + 1, sizeof *ents);
	gval = xcalloc((k + 1) * ht->ngev, sizeof *gval);
	for (size_t i = 0; i < k; i++) {
		ents[i] = ht->ents[ord[i]];
		memcpy(&gval[i * ht->ngev], &ht->gval[ord[i] * ht->ngev], ht->ngev * sizeof *gval);
	}
	free(ht->ents);
	free(ht->gval);
	free(ord);
	ht->ents = ents;
	ht->capents = k + 1;
	ht->gval = gval;
	ht->capgval = (k + 1) * ht->ngev;
	return k;
}

int
hot_group_info(const struct hot *ht, char *buf, size_t n)
{
	const struct hist_event *he = hist_event(hot_h(ht), ht->ev);
	const struct feat_group *gr = features_group_of(session_features(ht->sy->s), he->attr,
	    HOT_GROUP_MAX);
	uint64_t ns = 0;
	int k;

	for (size_t m = 0; m < ht->ngev; m++)
		ns += ht->gev[m] == SIZE_MAX ? 0 : hist_event(hot_h(ht), ht->gev[m])->nsamples;
	k = snprintf(buf, n, " Samples: %" PRIu64 " of events '%s { ", ns, gr->name == NULL ||
	    strcmp(gr->name, "{anon_group}") == 0 ? "anon group" : gr->name);
	for (uint32_t m = 0; m < gr->nr_members && k >= 0 && (size_t)k < n; m++)
		k += snprintf(buf + k, n - (size_t)k, "%s%s", m ? ", " : "",
		    session_attr_name(ht->sy->s, (int)(gr->leader_idx + m)));
	if (k >= 0 && (size_t)k < n)
		k += snprintf(buf + k, n - (size_t)k, " }' (a column each)");
	return k < 0 ? 0 : (size_t)k >= n ? (int)n - 1 : k;
}

/* The table again from the hist (new samples, event, zoom, limit). */
/*
 * With the scope's call-path transforms, the table of its top-down tree
 * (cpath_rows_merged: self where a transformed path ends, children where it
 * passes); the DSO list takes them all and keeps its own (dso_self_rows).
 */
static size_t
xform_rows(struct hot *ht, unsigned keep, const struct hist_entry *const **m)
{
	const struct cpath *t = symbols_scope_tree(ht->sy);

	*m = NULL;
	if (t == NULL || hot_h(ht) != ht->sy->h)
		return 0;
	return cpath_rows_merged(hot_h(ht), t, ht->ev, keep, ht->dsos ? 0 : ht->pct, m);
}

/* By latency (children's, self's), then period, as perf 6.15's --latency order. */
static int
cmp_lat(const struct hist_entry *x, const struct hist_entry *y, bool acc)
{
	uint64_t a = acc ? x->acc_latency : x->latency, b = acc ? y->acc_latency : y->latency;

	if (a != b)
		return a < b ? 1 : -1;
	a = acc ? x->acc_period : x->period;
	b = acc ? y->acc_period : y->period;
	if (a != b)
		return a < b ? 1 : -1;
	if (x->period != y->period)
		return x->period < y->period ? 1 : -1;
	if (x->comm != y->comm)
		return x->comm < y->comm ? -1 : 1;
	if (x->dso != y->dso)
		return x->dso < y->dso ? -1 : 1;
	return (x->node > y->node) - (x->node < y->node);
}

static int
cmp_acc_lat(const void *a, const void *b)
{
	return cmp_lat(a, b, true);
}

static int
cmp_self_lat(const void *a, const void *b)
{
	return cmp_lat(a, b, false);
}

static int
cmp_dso_self(const void *a, const void *b)
{
	const struct hist_entry *x = a, *y = b;

	if (x->period != y->period)
		return x->period < y->period ? 1 : -1;
	return (x->dso > y->dso) - (x->dso < y->dso);
}

/* The DSO list after transforms: rows with self, those under the % limit out, by self. */
static size_t
dso_self_rows(struct hot *ht, size_t n)
{
	const struct hist *h = hot_h(ht);
	uint64_t total = hist_nevents(h) > ht->ev ? hist_event(h, ht->ev)->total_period : 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		double pct = total ? 100.0 * (double)ht->ents[i].period / (double)total : 0.0;

		if (ht->ents[i].samples > 0 && !(ht->pct > 0 && pct < ht->pct))
			ht->ents[k++] = ht->ents[i];
	}
	qsort(ht->ents, k, sizeof *ht->ents, cmp_dso_self);
	return k;
}

static void take_rows(struct pane *p, const struct hist_entry *const *m, size_t n, uint64_t key);
static void pending_view(struct pane *p);

/*
 * With the app's steps on and every symbol in, a large hist's rows are
 * merged in steps (hot_rows_work): begun here (true), none shown until
 * then.  Merges of up to 8 steps' worth of entries are made at once; a
 * step takes 2 steps' worth (16,384 entries in the app) between looks at
 * the clock.
 */
static bool
rows_in_steps(struct pane *p, unsigned keep, uint64_t key)
{
	struct hot *ht = p->priv;
	size_t done, total;

	if (ht->sy->steps == 0 || !ht->sy->done)
		return false;
	ht->rticket = hist_rows_begin(hot_h(ht), ht->ev, scope_sel(&ht->sy->scope), keep);
	hist_rows_progress(hot_h(ht), ht->rticket, &done, &total);
	if (total <= 8 * ht->sy->steps)
		return false;
	ht->rbusy = true;
	ht->rserial = ht->sy->h_serial;
	ht->rkey = key;
	ht->nents = 0;
	hot_rebuild(p, UINT64_MAX);
	return true;
}

int
hot_rows_work(struct pane *p, double budget)
{
	struct hot *ht = p->priv;
	double end = mono_seconds() + budget;
	const struct hist_entry *const *m;
	size_t n;

	/* nothing else is done here: the rows are made when drawn (hot_sync), where the
	 * app looks for a keys' table started or made ready */
	if (!ht->rbusy)
		return PANE_WORK_NONE;
	hot_sync(p);	/* another scope or other symbols: a merge again */
	if (ht->rbusy && ht->rserial != ht->sy->h_serial)	/* its hist is gone */
		hot_reload(p, true);
	while (ht->rbusy && !hist_rows_step(hot_h(ht), ht->rticket, 2 * ht->sy->steps))
		if (mono_seconds() >= end)
			return PANE_WORK_MORE;
	if (ht->rbusy) {
		n = hist_rows_end(hot_h(ht), ht->rticket, ht->pct, &m);
		if (n == SIZE_MAX) {	/* ended by rows asked of the hist meanwhile: again */
			hot_reload(p, true);
			if (ht->rbusy)
				return PANE_WORK_MORE;
		} else {
			ht->rbusy = false;
			take_rows(p, m, n, ht->rkey);
		}
	}
	pending_view(p);
	return PANE_WORK_DONE;
}

/* The rows are in (merged in steps, or made at once): a view entered meanwhile is applied. */
static void
pending_view(struct pane *p)
{
	struct hot *ht = p->priv;

	if (ht->has_pend && !ht->rbusy) {
		ht->has_pend = false;
		pane_list_enter(p, &ht->pend);
	}
}

void
hot_reload(struct pane *p, bool keep_cursor)
{
	struct hot *ht = p->priv;
	const struct hist_entry *const *m = NULL;
	uint64_t key = UINT64_MAX;
	size_t n, ng;
	unsigned keep = ht->dsos ? HIST_KEEP(HIST_KEY_DSO) : ht->keep;

	if (keep_cursor && p->w.cursor > 0)
		key = widget_cursor_key(&p->w);
	else if (keep_cursor && ht->rbusy)
		key = ht->rkey;	/* a merge begun again: its cursor */
	ht->rbusy = false;	/* a merge under way is left (its ticket goes stale) */
	ht->gen = ht->sy->gen;
	ht->loaded = true;
	ht->reloads++;
	/* The event is the scope's: the other analysis panes show the same one. */
	ht->ev = ht->sy->scope.ev;
	if (ht->ev >= hist_nevents(hot_h(ht)))
		ht->ev = 0;
	ht->scope_gen = ht->sy->scope.gen;
	hot_free_trees(ht);
	ng = ht->ngev;
	group_setup(ht);
	if (ht->ngev != ng || hot_lat_wanted(ht) != ht->lat)
		hot_set_columns(p, ht);
	if (ht->ngev) {	/* an event group: its own rows */
		n = group_rows(ht, keep);
		GROW(ht->trees, ht->captrees, n + 1);
		memset(ht->trees, 0, (n + 1) * sizeof *ht->trees);
		ht->nents = n;
		hot_rebuild(p, key);
		return;
	}
	if (ht->branches)	/* rows of the branch table: its own entries */
		n = hot_branch_load(ht->br, hist_nevents(hot_h(ht)) ? hist_event(hot_h(ht), ht->ev)->attr : -1,
		    ht->pct);
	else if (ht->keyed)
		n = keyed_rows(ht, &m);
	else if (ht->sy->scope.nxf > 0)	/* call-path transforms: the rows of their tree */
		n = xform_rows(ht, keep, &m);
	else if (ht->dsos)	/* the DSOs' own overhead: by it, those without samples left out */
		n = hist_rows_self(hot_h(ht), ht->ev, scope_sel(&ht->sy->scope), keep, ht->pct, &m);
	else if (rows_in_steps(p, keep, key))
		return;	/* the rows once merged (hot_rows_work) */
	else
		n = hist_rows_merged(hot_h(ht), ht->ev, scope_sel(&ht->sy->scope), keep, ht->pct, &m);
	take_rows(p, m, n, key);
}

/* The table's rows are m[0..n) (copied), the cursor to key. */
static void
take_rows(struct pane *p, const struct hist_entry *const *m, size_t n, uint64_t key)
{
	struct hot *ht = p->priv;

	GROW(ht->ents, ht->capents, n + 1);
	GROW(ht->trees, ht->captrees, n + 1);
	memset(ht->ents, 0, (n + 1) * sizeof *ht->ents);
	for (size_t i = 0; i < n && !ht->branches; i++)
		ht->ents[i] = *m[i];
	if (ht->dsos && ht->sy->scope.nxf > 0)
		n = dso_self_rows(ht, n);
	if (ht->lat && ht->sy->scope.hot_by_latency)
		qsort(ht->ents, n, sizeof *ht->ents, ht->kchildren ? cmp_acc_lat : cmp_self_lat);
	memset(ht->trees, 0, (n + 1) * sizeof *ht->trees);
	ht->nents = n;
	hot_rebuild(p, key);
}

/* Can these rows have a Latency column (above), asked of the scope and the symbols now? */
bool
hot_lat_possible(const struct hot *ht)
{
	struct keytab_spec sp;
	char msg[200];

	/* branch mode (a recording with branch stacks): rows per branch, no latency (as top) */
	if (ht->dsos || ht->branches || ht->ngev || ht->sy->scope.nxf > 0 ||
	    symbols_parallel(ht->sy) == NULL || symbols_event_offcpu(ht->sy, ht->ev) ||
	    session_features(ht->sy->s)->sec[PF_FEAT_BRANCH_STACK].present)
		return false;
	/* a keyed table tracks latency as perfnav top --latency would (keytab_spec_of) */
	return !ht->keyed || (keytab_spec_of(ht->sy->s, ht->keys, ht->nkeys, ht->sy->children, &sp, msg,
	    sizeof msg) == 0 && sp.parallel);
}

/*
 * Is it shown?  As perf 6.15's report: unless the recording ran alone (it
 * would repeat the Overhead), or the rows are sorted by it.
 */
bool
hot_lat_wanted(const struct hot *ht)
{
	return hot_lat_possible(ht) && (ht->sy->scope.hot_by_latency ||
	    !parallel_serial(symbols_parallel(ht->sy)));
}

/*
 * Are the rows those a reload would make now?  Not when the symbols or
 * the scope changed since they were made, nor when the table they wait
 * for (a keyed table, the branch table) is ready.
 */
bool
hot_rows_current(const struct hot *ht)
{
	return ht->loaded && ht->gen == ht->sy->gen && ht->scope_gen == ht->sy->scope.gen &&
	    !(ht->keyed && ht->kbusy && symbols_keyed(ht->sy, NULL) != NULL) &&
	    !(ht->branches && hot_branch_ready(ht->br));
}

/* Rows follow the symbols as they come in. */
void
hot_sync(struct pane *p)
{
	struct hot *ht = p->priv;
	const struct scope *sc = &ht->sy->scope;

	/* the scope's --sort and -g ORDER, when they change (typed) */
	if (memcmp(&sc->hot_sort, &ht->seen_sort, sizeof sc->hot_sort) != 0 ||
	    sc->hot_callers != ht->seen_callers) {
		ht->seen_sort = sc->hot_sort;
		ht->seen_callers = sc->hot_callers;
		if (sc->hot_callers >= 0)
			ht->callers = sc->hot_callers > 0;
		if (!ht->dsos && !ht->branches)
			hot_set_columns(p, ht);
		ht->loaded = false;
	}
	if (!hot_rows_current(ht))
		hot_reload(p, true);
	pending_view(p);
}

/* ---- row text ---- */

int
hot_phys(const struct hot *ht, int l)
{
	return ht->map[l];
}

/* A sort key's column: the table's header and width; the last one, or sym's, takes the rest. */
static struct column
key_column(enum hist_key k, bool last, bool tree)
{
	struct column c = { hist_key_header(k), hist_key_width(k), 0 };

	if (k == HIST_KEY_DSO)
		c.width = 20;	/* the short name; a long one ends in ... */
	if (k == HIST_KEY_SYM || last || c.width == 0) {
		c.width = 20;
		c.flags = COL_FLEX | COL_MIDDLE | (tree && k == HIST_KEY_SYM ? COL_TREE : 0);
	}
	return c;
}

/* The columns: children when summed, then the keys --sort named, in its order. */
void
hot_set_columns(struct pane *p, struct hot *ht)
{
	static const enum hist_key def[] = { HIST_KEY_COMM, HIST_KEY_DSO, HIST_KEY_SYM };
	const struct scope_sort *so = &ht->sy->scope.hot_sort;
	int n = 0;

	ht->col_dso = ht->col_sym = -1;
	ht->lat = false;
	if (ht->branches) {
		p->cols = hot_branch_cols;
		p->ncols = HB_N;
		return;
	}
	if (ht->dsos) {	/* no children sums nor commands: a row per DSO */
		static const struct column dso_key[2] = { { "Shared Object", 20, 0 },
			{ "Path", 20, COL_FLEX | COL_MIDDLE } };

		for (int l = 0; l < L_N; l++)
			ht->map[l] = -1;
		ht->map[L_SELF] = 0;
		ht->map[L_SAMPLES] = 1;
		ht->map[L_KEY] = 2;
		ht->map[L_KEY + 1] = 3;
		ht->cols[0] = cols_dso[0];
		ht->cols[1] = cols_counts[2];
		memcpy(&ht->cols[2], dso_key, sizeof dso_key);
		ht->col_dso = 2;
		ht->col_sym = 3;
		p->cols = ht->cols;
		p->ncols = 4;
		return;
	}
	ht->nkeys = so->n ? so->n : 3;
	memcpy(ht->keys, so->n ? so->keys : def, ht->nkeys * sizeof *ht->keys);
	ht->keep = 0;
	for (unsigned i = 0; i < ht->nkeys; i++)
		ht->keep |= HIST_KEEP(ht->keys[i]);
	ht->keyed = !scope_sort_merged(so);
	ht->kchildren = ht->sy->children;
	if (ht->keyed) {
		struct keytab_spec sp;
		char msg[200];

		ht->kchildren = keytab_spec_of(p->s, ht->keys, ht->nkeys, ht->sy->children, &sp, msg,
		    sizeof msg) == 0 && sp.children;
	}
	ht->lat = hot_lat_wanted(ht);
	for (int l = 0; l < L_N; l++) {
		/* kind: 0 children, 1 self, 2 samples (of member m), 3 latency, 4 a key */
		int kind = l == L_LAT ? 3 : l < L_LAT ? l / HOT_GROUP_MAX : l < L_KEY ? 2 : 4;
		int m = l < L_LAT ? l % HOT_GROUP_MAX : l < L_KEY ? l - L_SAMPLES : 0;
		bool on = kind == 4 ? (unsigned)(l - L_KEY) < ht->nkeys : kind == 3 ? ht->lat :
		    (size_t)m < (ht->ngev ? ht->ngev : 1) && (kind != 0 || ht->kchildren);

		ht->map[l] = on ? n : -1;
		if (!on)
			continue;
		if (kind == 3) {
			ht->cols[n] = col_lat;
		} else if (kind < 3) {
			ht->cols[n] = kind == 1 && !ht->kchildren ? cols_dso[0] : cols_counts[kind];
		} else {
			enum hist_key k = ht->keys[l - L_KEY];

			ht->cols[n] = key_column(k, (unsigned)(l - L_KEY) + 1 == ht->nkeys, !ht->keyed);
			if (k == HIST_KEY_DSO)
				ht->col_dso = n;
			if (k == HIST_KEY_SYM)
				ht->col_sym = n;
		}
		n++;
	}
	p->cols = ht->cols;
	p->ncols = n;
}

static int
pct_el(double pct)
{
	return pct >= 5 ? EL_HOT_HIGH : pct >= 0.5 ? EL_HOT_MID : EL_HOT_LOW;
}

const char *
hot_dso_short(const struct hot *ht, uint32_t dso)
{
	return dso == DSO_NONE ? "[unknown]" : symbolizer_dso_short(ht->sy->z, dso);
}

/* v as a share of the event's period. */
static double
pct_of(const struct hot *ht, uint64_t v)
{
	const struct hist_event *he = hist_event(hot_h(ht), ht->ev);
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
	const struct hist_node *nd = hist_node_get(hot_h(ht), n->func);
	double pc = path_pct(ht, pt, n->total_period);

	row_set(r, hot_phys(ht, L_CHILDREN), pct_el(pc), "%.2f%%", pc);
	if (!ht->callers) {
		pc = path_pct(ht, pt, n->self_period);
		row_set(r, hot_phys(ht, L_SELF), n->self_samples ? pct_el(pc) : EL_DIM, "%.2f%%", pc);
	}
	row_set(r, hot_phys(ht, L_SAMPLES), 0, "%" PRIu64, n->total_samples);
	row_set(r, ht->col_dso, EL_DIM, "%s", nd == NULL ? "" : nd->dso_mixed ? "[several]" :
	    hot_dso_short(ht, nd->f.dso));
	row_set(r, ht->col_sym, 0, "%s %s", ht->callers ? "<-" : "->",
	    nd ? hist_str(hot_h(ht), nd->label) : "?");
}

/* An event group's row: each member's children, self and samples, in its columns. */
static void
group_cells(const struct hot *ht, size_t i, struct row *r)
{
	for (size_t m = 0; m < ht->ngev; m++) {
		const struct hot_gval *g = &ht->gval[i * ht->ngev + m];
		double pc;

		if (ht->kchildren) {
			pc = group_pct(ht, i, m, true);
			row_set(r, hot_phys(ht, L_CHILDREN + (int)m), pct_el(pc), "%.2f%%", pc);
		}
		pc = group_pct(ht, i, m, false);
		row_set(r, hot_phys(ht, L_SELF + (int)m), g->samples ? pct_el(pc) : EL_DIM, "%.2f%%", pc);
		row_set(r, hot_phys(ht, L_SAMPLES + (int)m), 0, "%" PRIu64, g->samples);
	}
}

/* A row's key columns: the sort-key table's text (comm and dso as the browser names them). */
static void
key_cells(const struct hot *ht, const struct hist_entry *e, struct row *r)
{
	char buf[1024];

	for (unsigned i = 0; i < ht->nkeys; i++) {
		enum hist_key k = ht->keys[i];
		int c = hot_phys(ht, L_KEY + (int)i);

		if (k == HIST_KEY_COMM && !ht->keyed)
			row_set(r, c, EL_COMM, "%s", hist_str(hot_h(ht), e->comm));
		else if (k == HIST_KEY_DSO && !ht->keyed)
			row_set(r, c, 0, "%s", hot_dso_short(ht, e->dso));
		else
			row_set(r, c, k == HIST_KEY_COMM ? EL_COMM : 0, "%s",
			    hist_key_text(hot_eh(ht), e, k, buf, sizeof buf));
	}
}

void
hot_row(struct pane *p, size_t idx, struct row *r)
{
	struct hot *ht = p->priv;
	const struct hrow *w = &ht->rows[idx];
	const struct hist_entry *e = &ht->ents[w->ent];
	double pc;

	r->depth = w->depth;
	r->key = w->key;
	r->have_key = true;
	r->expanded = hot_exp_has(ht, w->key);
	if (ht->branches) {
		hot_branch_row(ht->br, w->ent, r);
		return;
	}
	switch (w->kind) {
	case HR_ENTRY:
		if (ht->ngev) {
			group_cells(ht, w->ent, r);
			key_cells(ht, e, r);
			break;
		}
		if (ht->kchildren && !ht->dsos) {
			pc = hist_children_pct(hot_eh(ht), e);
			row_set(r, hot_phys(ht, L_CHILDREN), pct_el(pc), "%.2f%%", pc);
		}
		pc = hist_self_pct(hot_eh(ht), e);
		row_set(r, hot_phys(ht, L_SELF), e->samples ? pct_el(pc) : EL_DIM, "%.2f%%", pc);
		if (ht->lat) {
			pc = ht->kchildren ? hist_children_lat_pct(hot_eh(ht), e) :
			    hist_self_lat_pct(hot_eh(ht), e);
			row_set(r, hot_phys(ht, L_LAT), pct_el(pc), "%.2f%%", pc);
		}
		row_set(r, hot_phys(ht, L_SAMPLES), 0, "%" PRIu64, e->samples);
		if (ht->dsos) {
			row_set(r, ht->col_dso, 0, "%s", hot_dso_short(ht, e->dso));
			row_set(r, ht->col_sym, EL_DIM, "%s",
			    e->dso == DSO_NONE ? "(no mapping)" : symbolizer_dso_long(ht->sy->z, e->dso));
			break;
		}
		key_cells(ht, e, r);
		break;
	case HR_PATH:
		path_row(ht, w, r);
		break;
	case HR_MORE:
		row_set(r, ht->col_sym, EL_DIM, "...");
		break;
	case HR_NONE:
		row_set(r, ht->col_sym, EL_DIM, "%s", ht->callers ? "(no callers; b: callees)" :
		    "(no callees; b: callers)");
		break;
	}
}

size_t
hot_nrows(struct pane *p)
{
	return ((struct hot *)p->priv)->nrows;
}
