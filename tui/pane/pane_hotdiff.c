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
#include "symbolize/cpath_diff.h"
#include "symbolize/hist.h"
#include "symbolize/symbolizer.h"
#include "tui/pane.h"
#include "tui/symbols.h"

/*
 * The hot functions of a diff (perfnav OLD NEW; tab 1 in diff mode: the
 * hot pane hands over to these ops when its symbols have a pair): one row
 * per shared object and symbol of either recording, paired by their text
 * as perf diff pairs them (never by address; the unresolved addresses of a
 * DSO are one row, named by the lowest), with the self period of each
 * recording: Baseline (OLD), New and Delta (New - Baseline), as percents of
 * each recording's event total (perfnav diff's numbers) or, A switches, as
 * periods.  Rows come sorted by the size of the change, those of OLD only
 * last with no delta (as perfnav diff); every column sorts (> <).  By
 * --sort sym (no DSO in the key) the DSO shown is the recording shown's.  The event is the scope's of the recording shown, paired by
 * name in the other.  Enter (or v) lists the row's samples in the events
 * pane of the recording shown (w there shows the other's); a annotates
 * its function in the recording shown.
 *
 * + (or e) on a row opens its callees: the call paths from its function
 * down, merged over its call sites (CPATH_FOCUS, as the hot pane's), of
 * the recording shown (of the other when the function is the other's
 * only), each level paired by name with the other recording's
 * (symbolize/cpath_diff.h) and counted in Baseline, New and Delta: the
 * level's total (its own and its callees' periods) on that path, as the
 * table's percents or periods.  Built per row when first opened; rows are
 * materialized lazily (a closed row has one hidden placeholder child, as
 * in the hot pane) and the set of opened row keys (hashes of the names
 * on the path) survives reloads.
 */

enum { D_BASE, D_NEW, D_DELTA, D_DSO, D_SYM, D_N };

static const struct column dcols[D_N] = {
	{ "Baseline", 9, COL_RIGHT | COL_NUM },
	{ "New", 9, COL_RIGHT | COL_NUM },
	{ "Delta", 9, COL_RIGHT | COL_NUM },
	{ "Shared Object", 20, 0 },
	{ "Symbol", 20, COL_FLEX | COL_TREE | COL_MIDDLE },
};

/* A row of the widget: a table row, a level of its callees, a placeholder. */
enum { V_ROW, V_PATH, V_MORE, V_NONE };

struct vrow {
	uint8_t		 kind;
	uint8_t		 depth;
	uint32_t	 row;		/* the table row (d->rows) */
	uint32_t	 node;		/* V_PATH: node of its tree's base */
	uint64_t	 key;
};

/* An opened row's callees: each recording's tree, the base's nodes paired. */
struct dtree {
	struct cpath	*t[2];		/* OLD's, NEW's (NULL: the function is not in it) */
	struct cpath_diff *cd;		/* t[base]'s nodes paired with the other's */
	int		 base;		/* the recording shown, else the one that has it */
	uint32_t	 top;		/* the function's node in t[base], CPATH_NONE */
};

#define HD_MAX_DEPTH	250
#define HD_MAX_VROWS	400000
#define HD_EXPAND_ALL	20	/* two trees per row: about 0.1 s each on 9 million samples */

/* One key text of either recording: [0] OLD, [1] NEW. */
struct drow {
	char		*dso, *sym;	/* texts (sym: "[.] name"; dso: the key's, "" by --sort sym) */
	char		*side_dso[2];	/* each recording's DSO of it (two builds: two names) */
	bool		 in[2];
	uint64_t	 period[2], samples[2];
	uint32_t	 node[2];	/* a function node of each hist, CPATH_NONE */
	double		 delta;		/* New - Baseline, as shown (percents or periods) */
	bool		 unres;		/* an unresolved address (its DSO's, one row) */
};

struct hdiff {
	struct symbols	*sy;		/* the recording shown */
	struct symbols	*side[2];	/* OLD, NEW */
	int		 ev[2];		/* the event of each, -1: not in it */
	uint64_t	 total[2];
	unsigned	 gen[2], scope_gen;
	bool		 abs;
	bool		 loaded;
	struct drow	*rows;
	size_t		 nrows;
	struct dtree	*trees;		/* per row, built when opened */
	struct vrow	*v;		/* the widget's rows */
	size_t		 nv, capv;
	bool		 truncated;
	struct hmap	 exp;		/* opened row keys: 1, closed again: 0 */
};

/* An entry of one side while pairing: its key text and counts. */
struct dent {
	char		*key;		/* dso \x1f sym, or dso \x1f\x01 for an unresolved address */
	char		*sym;
	char		*dso;		/* its DSO's name, in the key or not */
	int		 side;
	uint64_t	 period, samples;
	uint32_t	 node;
};

static int
dent_cmp(const void *a, const void *b)
{
	const struct dent *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c != 0)
		return c;
	if (x->side != y->side)
		return x->side - y->side;
	return strcmp(x->sym, y->sym);
}

static void
free_rows(struct hdiff *d)
{
	for (size_t i = 0; i < d->nrows; i++) {
		free(d->rows[i].dso);
		free(d->rows[i].sym);
		free(d->rows[i].side_dso[0]);
		free(d->rows[i].side_dso[1]);
		if (d->trees == NULL)
			continue;
		cpath_free(d->trees[i].t[0]);
		cpath_free(d->trees[i].t[1]);
		cpath_diff_free(d->trees[i].cd);
	}
	free(d->trees);
	d->trees = NULL;
	free(d->rows);
	d->rows = NULL;
	d->nrows = 0;
}

/*
 * Do rows pair by their DSO too?  perf diff's default keys (dso,sym), unless
 * the scope's --sort leaves the DSO out (--sort sym: two builds of a
 * program under two names pair, as perf diff -s sym pairs them).
 */
static bool
by_dso(const struct hdiff *d)
{
	unsigned keep = d->sy->scope.hot_sort.n ? d->sy->scope.hot_sort.keep : 0;

	return keep == 0 || (keep & HIST_KEEP(HIST_KEY_DSO)) != 0;
}

/* The entries with self samples of side k's event, appended to *v. */
static void
collect(struct hdiff *d, int k, struct dent **v, size_t *n, size_t *cap)
{
	struct symbols *sy = d->side[k];
	const struct hist_entry *const *m;
	size_t ne, cap_sym = 1024;
	char *sym = xmalloc(cap_sym);
	bool dsos = by_dso(d);

	if (d->ev[k] < 0)
		return;
	ne = hist_rows_merged(sy->h, (size_t)d->ev[k], NULL,
	    (dsos ? HIST_KEEP(HIST_KEY_DSO) : 0) | HIST_KEEP(HIST_KEY_SYM), 0, &m);
	for (size_t i = 0; i < ne; i++) {
		const struct hist_entry *e = m[i];
		const struct hist_node *nd = hist_node_get(sy->h, e->node);
		/* a row merged to its symbol alone keeps no DSO: its function's */
		uint32_t dn = dsos || nd == NULL ? e->dso : nd->f.dso;
		const char *dname = dn == DSO_NONE ? "[unknown]" : symbolizer_dso_short(sy->z, dn);
		const char *dso = dsos ? dname : "";
		bool unres = nd == NULL || nd->f.sym == SYM_NONE;
		struct dent *x;
		size_t kl;

		if (e->period == 0 && e->samples == 0)
			continue;
		/* the name whole, however long */
		while (strlen(hist_key_text(sy->h, e, HIST_KEY_SYM, sym, cap_sym)) + 1 >= cap_sym)
			sym = xrealloc(sym, cap_sym *= 2);
		GROW(*v, *cap, *n + 1);
		x = &(*v)[(*n)++];
		kl = strlen(dso) + strlen(sym) + 3;
		x->key = xmalloc(kl);
		snprintf(x->key, kl, "%s\x1f%s", dso, unres ? "\x01" : sym);
		x->sym = xstrdup(sym);
		x->dso = xstrdup(dname);
		x->side = k;
		x->period = e->period;
		x->samples = e->samples;
		x->node = e->node;
	}
	free(sym);
}

static double
value(const struct hdiff *d, const struct drow *r, int k)
{
	if (d->abs)
		return (double)r->period[k];
	return d->total[k] ? 100.0 * (double)r->period[k] / (double)d->total[k] : 0.0;
}

/* Null last (perfnav diff's order of an [unknown] DSO, an unresolved symbol), else by text. */
static int
cmp_named(const char *a, bool anone, const char *b, bool bnone)
{
	if (anone || bnone)
		return anone == bnone ? 0 : anone ? 1 : -1;
	return strcmp(a, b);
}

/* A row's symbol name, after its "[.] " */
static const char *
sym_name(const struct drow *r)
{
	return strlen(r->sym) > 4 ? r->sym + 4 : r->sym;
}

/*
 * As perfnav diff (-c delta-abs, -o 1) orders them: the rows NEW has
 * first, by the size of the change, then the baseline's period; the keys
 * (DSO names ascending, [unknown] last; symbol names ascending without
 * their "[.] ", unresolved last), then the key texts.
 */
static int
drow_cmp(const void *a, const void *b)
{
	const struct drow *x = a, *y = b;
	double ax = x->delta < 0 ? -x->delta : x->delta, ay = y->delta < 0 ? -y->delta : y->delta;
	int c;

	if (x->in[1] != y->in[1])
		return x->in[1] ? -1 : 1;
	if (ax != ay)
		return ax > ay ? -1 : 1;
	if (x->period[0] != y->period[0])
		return x->period[0] > y->period[0] ? -1 : 1;
	c = cmp_named(x->dso, strcmp(x->dso, "[unknown]") == 0, y->dso, strcmp(y->dso, "[unknown]") == 0);
	if (c == 0)
		c = cmp_named(sym_name(x), x->unres, sym_name(y), y->unres);
	if (c == 0)
		c = strcmp(x->dso, y->dso);
	return c ? c : strcmp(x->sym, y->sym);
}

/* Pair the sorted entries v[0..n) into rows (takes their strings). */
static void
pair_rows(struct hdiff *d, struct dent *v, size_t n)
{
	d->rows = xcalloc(n + 1, sizeof *d->rows);
	for (size_t i = 0, j; i < n; i = j) {
		struct drow *r = &d->rows[d->nrows++];
		size_t dl = (size_t)(strchr(v[i].key, '\x1f') - v[i].key);

		r->dso = xmalloc(dl + 1);
		memcpy(r->dso, v[i].key, dl);
		r->dso[dl] = '\0';
		r->node[0] = r->node[1] = CPATH_NONE;
		r->unres = v[i].key[dl + 1] == '\x01';
		for (j = i; j < n && strcmp(v[j].key, v[i].key) == 0; j++) {
			struct dent *x = &v[j];

			r->in[x->side] = true;
			r->period[x->side] += x->period;
			r->samples[x->side] += x->samples;
			if (r->node[x->side] == CPATH_NONE)
				r->node[x->side] = x->node;
			if (r->sym == NULL)
				r->sym = x->sym;	/* OLD's first (lowest) if it has it */
			else
				free(x->sym);
			if (r->side_dso[x->side] == NULL)
				r->side_dso[x->side] = x->dso;
			else
				free(x->dso);
		}
		for (size_t k = i; k < j; k++)
			free(v[k].key);
		r->delta = value(d, r, 1) - value(d, r, 0);
	}
	qsort(d->rows, d->nrows, sizeof *d->rows, drow_cmp);
}

/* ---- a row's callees ---- */

static uint64_t
key2(uint64_t a, uint64_t b)
{
	return hash_mix64(a * UINT64_C(0x9e3779b97f4a7c15) ^ hash_mix64(b + 0x51)) >> 2;
}

/* A table row's key: its texts (stable across reloads and the two recordings). */
static uint64_t
row_key(const struct drow *w)
{
	return (hash_bytes(w->dso, strlen(w->dso)) ^ hash_mix64(hash_bytes(w->sym,
	    strlen(w->sym)))) >> 2;
}

static bool
exp_has(const struct hdiff *d, uint64_t key)
{
	return hmap_get(&d->exp, key) == 1;
}

/* Does any recording have callchains (else no row opens)? */
static bool
has_graph(const struct hdiff *d)
{
	return d->side[0]->callchains || d->side[1]->callchains;
}

/* Table row i's callees, built on first use. */
static const struct dtree *
row_tree(struct hdiff *d, size_t i)
{
	struct dtree *dt = &d->trees[i];
	const struct drow *w = &d->rows[i];
	int b = w->node[d->sy->role] != CPATH_NONE ? d->sy->role : !d->sy->role;

	if (dt->t[b] != NULL || w->node[b] == CPATH_NONE)
		return dt;
	dt->base = b;
	for (int k = 0; k < 2; k++) {
		struct cpath_xform x = { CPATH_FOCUS, w->node[k] };
		struct cpath_query q = { .entry = CPATH_NONE, .xf = &x, .nxf = 1 };

		if (w->node[k] == CPATH_NONE || d->ev[k] < 0)
			continue;
		q.ev = (size_t)d->ev[k];
		dt->t[k] = cpath_build(d->side[k]->h, &q);
	}
	if (dt->t[b] == NULL) {
		dt->top = CPATH_NONE;
		return dt;
	}
	dt->top = cpath_find(dt->t[b], &w->node[b], 1);
	if (dt->t[!b] != NULL)
		dt->cd = cpath_diff_new(d->side[b]->h, dt->t[b], d->side[!b]->h, dt->t[!b]);
	return dt;
}

static struct vrow *
add_vrow(struct hdiff *d, int kind, unsigned depth, size_t row, uint64_t key)
{
	struct vrow *r;

	if (d->nv >= HD_MAX_VROWS) {
		d->truncated = true;
		return NULL;
	}
	GROW(d->v, d->capv, d->nv + 1);
	r = &d->v[d->nv++];
	r->kind = (uint8_t)kind;
	r->depth = (uint8_t)depth;
	r->row = (uint32_t)row;
	r->node = CPATH_NONE;
	r->key = key;
	return r;
}

/* The key of a level: its parent's and its function's name. */
static uint64_t
path_key(const struct hdiff *d, const struct dtree *dt, uint32_t node, uint64_t pkey)
{
	char name[1024];

	cpath_func_name(d->side[dt->base]->h, cpath_node(dt->t[dt->base], node)->func, name,
	    sizeof name);
	return key2(pkey, hash_bytes(name, strlen(name)));
}

/* The callees of node at of row i's tree, and below the opened ones. */
static void
emit_paths(struct hdiff *d, size_t i, const struct dtree *dt, uint32_t at, uint64_t pkey,
    unsigned depth)
{
	const struct cpath *t = dt->t[dt->base];

	for (uint32_t c = cpath_node(t, at)->first_child; c != CPATH_NONE && !d->truncated;
	    c = cpath_node(t, c)->next_sibling) {
		uint64_t k = path_key(d, dt, c, pkey);
		struct vrow *r = add_vrow(d, V_PATH, depth, i, k);

		if (r == NULL)
			return;
		r->node = c;
		if (cpath_node(t, c)->first_child == CPATH_NONE || depth >= HD_MAX_DEPTH)
			continue;
		if (exp_has(d, k))
			emit_paths(d, i, dt, c, k, depth + 1);
		else
			add_vrow(d, V_MORE, depth + 1, i, key2(k, 4));
	}
}

/* The widget's rows from the table rows and the opened ones. */
static void
build_vrows(struct hdiff *d)
{
	d->nv = 0;
	d->truncated = false;
	for (size_t i = 0; i < d->nrows && !d->truncated; i++) {
		uint64_t k = row_key(&d->rows[i]);
		const struct dtree *dt;

		if (add_vrow(d, V_ROW, 0, i, k) == NULL)
			break;
		if (!has_graph(d))
			continue;
		if (!exp_has(d, k)) {
			add_vrow(d, V_MORE, 1, i, key2(k, 4));
			continue;
		}
		dt = row_tree(d, i);
		if (dt->top == CPATH_NONE ||
		    cpath_node(dt->t[dt->base], dt->top)->first_child == CPATH_NONE)
			add_vrow(d, V_NONE, 1, i, key2(k, 3));
		else
			emit_paths(d, i, dt, dt->top, key2(k, 6), 1);
	}
}

/* The rows again (a row opened or closed); the cursor stays on key. */
static void
rebuild(struct pane *p, uint64_t key)
{
	struct hdiff *d = p->priv;

	build_vrows(d);
	widget_refresh(&p->w);
	if (key == UINT64_MAX || !widget_goto_key(&p->w, key))
		widget_home(&p->w);
}

static void
reload(struct pane *p)
{
	struct hdiff *d = p->priv;
	struct dent *v = NULL;
	size_t n = 0, cap = 0;
	int me = d->sy->role;
	uint64_t key = p->w.cursor > 0 ? widget_cursor_key(&p->w) : UINT64_MAX;

	free_rows(d);
	d->ev[me] = (int)d->sy->scope.ev;
	if (d->sy->scope.ev >= hist_nevents(d->sy->h))
		d->ev[me] = hist_nevents(d->sy->h) ? 0 : -1;
	d->ev[!me] = d->ev[me] < 0 ? -1 : symbols_pair_event(d->sy, (size_t)d->ev[me]);
	for (int k = 0; k < 2; k++) {
		const struct hist_event *he = d->ev[k] < 0 ? NULL :
		    hist_event(d->side[k]->h, (size_t)d->ev[k]);

		d->total[k] = he ? he->total_period : 0;
		d->gen[k] = d->side[k]->gen;
		collect(d, k, &v, &n, &cap);
	}
	d->scope_gen = d->sy->scope.gen;
	d->abs = d->sy->diff_abs;
	if (n > 0)
		qsort(v, n, sizeof *v, dent_cmp);
	pair_rows(d, v, n);
	free(v);
	d->trees = xcalloc(d->nrows + 1, sizeof *d->trees);
	d->loaded = true;
	rebuild(p, key);
}

static void
sync(struct pane *p)
{
	struct hdiff *d = p->priv;

	if (symbols_pair_waiting(d->sy))	/* no rows until both recordings are in */
		return;
	if (!d->loaded || d->gen[0] != d->side[0]->gen || d->gen[1] != d->side[1]->gen ||
	    d->scope_gen != d->sy->scope.gen || d->abs != d->sy->diff_abs)
		reload(p);
}

static size_t
hd_nrows(struct pane *p)
{
	sync(p);
	return ((struct hdiff *)p->priv)->nv;
}

static void
put_value(const struct hdiff *d, const struct drow *w, int k, struct row *r)
{
	if (!w->in[k])
		return;
	if (d->abs)
		row_set(r, k == 0 ? D_BASE : D_NEW, 0, "%" PRIu64, w->period[k]);
	else
		row_set(r, k == 0 ? D_BASE : D_NEW, 0, "%.2f%%", value(d, w, k));
}

/* A level of a row's callees: its total on the path in each recording. */
static void
path_row(struct hdiff *d, const struct vrow *v, struct row *r)
{
	const struct dtree *dt = &d->trees[v->row];
	const struct hist *h = d->side[dt->base]->h;
	const struct cpath_node *nd = cpath_node(dt->t[dt->base], v->node);
	const struct hist_node *hn = hist_node_get(h, nd->func);
	struct cpath_dnode dn;
	struct drow w;
	char name[1024];
	int el;

	memset(&w, 0, sizeof w);
	if (dt->cd == NULL || cpath_diff_node(dt->cd, v->node, &dn) < 0) {
		memset(&dn, 0, sizeof dn);
		dn.pair = CPATH_NONE;
		dn.total[0] = nd->total_period;
	}
	w.in[dt->base] = true;
	w.in[!dt->base] = dn.pair != CPATH_NONE;
	w.period[dt->base] = dn.total[0];
	w.period[!dt->base] = dn.total[1];
	w.delta = value(d, &w, 1) - value(d, &w, 0);
	el = w.delta > 0 ? EL_DIFF_GREW : w.delta < 0 ? EL_DIFF_SHRANK : EL_DIM;
	put_value(d, &w, 0, r);
	put_value(d, &w, 1, r);
	if (d->abs)
		row_set(r, D_DELTA, el, "%+" PRId64, (int64_t)(w.period[1] - w.period[0]));
	else
		row_set(r, D_DELTA, el, "%+.2f%%", w.delta);
	row_set(r, D_DSO, EL_DIM, "%s", hn == NULL || hn->f.dso == DSO_NONE ? "[unknown]" :
	    symbolizer_dso_short(d->side[dt->base]->z, hn->f.dso));
	row_set(r, D_SYM, w.in[!dt->base] ? 0 : EL_DIM, "%s%s",
	    cpath_func_name(h, nd->func, name, sizeof name), w.in[!dt->base] ? "" :
	    dt->base ? "  (NEW only)" : "  (OLD only)");
}

static void
hd_row(struct pane *p, size_t idx, struct row *r)
{
	struct hdiff *d = p->priv;
	const struct vrow *v = &d->v[idx];
	const struct drow *w = &d->rows[v->row];
	int el = w->delta > 0 ? EL_DIFF_GREW : w->delta < 0 ? EL_DIFF_SHRANK : EL_DIM;

	r->key = v->key;
	r->have_key = true;
	r->depth = v->depth;
	r->expanded = exp_has(d, v->key);
	if (v->kind == V_MORE)
		return;
	if (v->kind == V_NONE) {
		row_set(r, D_SYM, EL_DIM, "(no callees)");
		return;
	}
	if (v->kind == V_PATH) {
		path_row(d, v, r);
		return;
	}
	put_value(d, w, 0, r);
	put_value(d, w, 1, r);
	if (!w->in[1])
		row_set(r, D_DELTA, el, "%s", "");	/* OLD only: no delta, as perfnav diff */
	else if (d->abs)
		row_set(r, D_DELTA, el, "%+" PRId64, (int64_t)(w->period[1] - w->period[0]));
	else
		row_set(r, D_DELTA, el, "%+.2f%%", w->delta);
	/* the DSO of the recording shown (of the other's when only it has the row) */
	row_set(r, D_DSO, 0, "%s", w->side_dso[w->in[d->sy->role] ? d->sy->role : !d->sy->role]);
	row_set(r, D_SYM, w->in[0] && w->in[1] ? 0 : EL_DIM, "%s%s", w->sym,
	    w->in[0] ? w->in[1] ? "" : "  (OLD only)" : "  (NEW only)");
}

/* Enter: the row's samples in the events pane of the recording shown. */
static int
samples_view(struct pane *p, const struct drow *w)
{
	struct hdiff *d = p->priv;
	int me = d->sy->role;
	const struct hist_node *nd = w->node[me] == CPATH_NONE ? NULL :
	    hist_node_get(d->sy->h, w->node[me]);
	const char *name, *dso = w->side_dso[me] != NULL ? w->side_dso[me] : "";
	char f[NAV_FILTER_MAX];

	if (nd == NULL) {
		snprintf(p->msg, sizeof p->msg, "no samples of it in %s: w shows %s",
		    me ? "NEW" : "OLD", me ? "OLD" : "NEW");
		return PANE_HANDLED | PANE_MSG;
	}
	name = symbolizer_label_name(hist_str(d->sy->h, nd->label));
	nav_view_init(&p->push, PANE_EVENTS);
	if (strchr(dso, ' ') || strlen(name) + strlen(dso) + 30 >= sizeof f)
		snprintf(f, sizeof f, "type:SAMPLE sym:#%" PRIu32, w->node[me]);
	else
		snprintf(f, sizeof f, "type:SAMPLE dso:%s sym:%s", dso, name);
	memcpy(p->push.filter, f, strlen(f) + 1);
	snprintf(p->push.label, sizeof p->push.label, "%s samples %s", me ? "NEW" : "OLD",
	    TEXT_CLIP(name, 30));
	return PANE_HANDLED | PANE_PUSH;
}

/* The function of a widget row in the recording shown, CPATH_NONE. */
static uint32_t
vrow_func(struct hdiff *d, const struct vrow *v)
{
	const struct dtree *dt = &d->trees[v->row];
	uint32_t f;

	if (v->kind == V_ROW)
		return d->rows[v->row].node[d->sy->role];
	if (v->kind != V_PATH)
		return CPATH_NONE;
	f = cpath_node(dt->t[dt->base], v->node)->func;
	/* a callee in the other recording's tree: the shown one's function of that name */
	return dt->base == d->sy->role ? f : symbols_pair_func(d->side[dt->base], f);
}

/* +, e, c: open or close a row (c on a closed one: its parent); E, C: all rows. */
static int
key_open(struct pane *p, enum action a, size_t i)
{
	struct hdiff *d = p->priv;
	const struct vrow *v = i < d->nv ? &d->v[i] : NULL;
	bool kids = v != NULL && i + 1 < d->nv && d->v[i + 1].depth > v->depth;
	uint64_t key = v ? v->key : UINT64_MAX;

	if (a == ACT_COLLAPSE_ALL || a == ACT_EXPAND_ALL) {
		hmap_free(&d->exp);
		for (size_t k = 0; a == ACT_EXPAND_ALL && k < d->nrows && k < HD_EXPAND_ALL; k++)
			hmap_set(&d->exp, row_key(&d->rows[k]), 1);
		while (v != NULL && v->depth > 0 && a == ACT_COLLAPSE_ALL)
			v--;	/* the cursor to its table row */
		rebuild(p, v ? v->key : UINT64_MAX);
		if (a == ACT_COLLAPSE_ALL || d->nrows <= HD_EXPAND_ALL)
			return PANE_HANDLED;
		snprintf(p->msg, sizeof p->msg, "opened the first %d rows' callees", HD_EXPAND_ALL);
		return PANE_HANDLED | PANE_MSG;
	}
	if (v == NULL || v->kind == V_MORE || v->kind == V_NONE)
		return PANE_HANDLED;
	if (a == ACT_COLLAPSE && (!kids || !exp_has(d, key))) {
		size_t j = i;

		if (v->depth == 0)
			return PANE_HANDLED;
		while (j > 0 && d->v[j].depth >= v->depth)
			j--;
		key = d->v[j].key;	/* the parent */
	} else if (!kids) {
		return PANE_HANDLED;
	}
	hmap_set(&d->exp, key, a == ACT_EXPAND || (a == ACT_TOGGLE && !exp_has(d, key)));
	rebuild(p, key);
	return PANE_HANDLED;
}

/* d: zoom both recordings into the row's DSO (the other takes it by name). */
static int
zoom_dso(struct pane *p, size_t i)
{
	struct hdiff *d = p->priv;
	uint32_t f = i < d->nv ? vrow_func(d, &d->v[i]) : CPATH_NONE;
	const struct hist_node *nd = f != CPATH_NONE ? hist_node_get(d->sy->h, f) : NULL;
	char label[NAV_LABEL_MAX];

	if (nd == NULL || nd->f.dso == DSO_NONE) {
		snprintf(p->msg, sizeof p->msg, "d zooms into a row's shared object: %s",
		    nd == NULL ? "this one has none in the recording shown (w)" : "this one is unknown");
		return PANE_HANDLED | PANE_MSG;
	}
	snprintf(label, sizeof label, "dso %s", TEXT_CLIP(symbolizer_dso_short(d->sy->z,
	    nd->f.dso), 40));
	return pane_push_zoom(p, PANE_HOT, SZ_DSO, 0, 0, nd->f.dso, label);
}

static int
hd_key(struct pane *p, enum action a)
{
	struct hdiff *d = p->priv;
	size_t i;
	uint32_t f;

	sync(p);
	i = widget_cursor_row(&p->w);
	switch (a) {
	case ACT_ENTER:
	case ACT_EVENTS:
		if (i >= d->nv || d->v[i].kind > V_PATH)
			return PANE_HANDLED;
		if (d->v[i].kind == V_PATH && a == ACT_ENTER)
			return key_open(p, ACT_TOGGLE, i);
		if (d->v[i].kind == V_PATH) {
			snprintf(p->msg, sizeof p->msg, "a callee: v lists a function's samples from its "
			    "row; T or B opens it in the trees, a annotates it");
			return PANE_HANDLED | PANE_MSG;
		}
		return samples_view(p, &d->rows[d->v[i].row]);
	case ACT_ANNOTATE:
		if (i >= d->nv || (f = vrow_func(d, &d->v[i])) == CPATH_NONE) {
			snprintf(p->msg, sizeof p->msg, "nothing of it in the recording shown (w)");
			return PANE_HANDLED | PANE_MSG;
		}
		return pane_push_annotate_scope(p, f);
	case ACT_NEXT_EVENT:
	case ACT_PREV_EVENT:
		scope_step_event(&d->sy->scope, d->sy->h, a == ACT_NEXT_EVENT, p->msg, sizeof p->msg);
		return PANE_HANDLED | PANE_MSG;
	case ACT_ZOOM_DSO:
		return zoom_dso(p, i);
	case ACT_ZOOM_THREAD:
		snprintf(p->msg, sizeof p->msg, "a diff's rows are of no thread: Enter on one in the "
		    "processes (2) zooms into it (this recording's only)");
		return PANE_HANDLED | PANE_MSG;
	case ACT_TOGGLE:
	case ACT_EXPAND:
	case ACT_COLLAPSE:
	case ACT_EXPAND_ALL:
	case ACT_COLLAPSE_ALL:
		return key_open(p, a, i);
	default:
		return PANE_IGNORED;
	}
}

static void
info_line(struct pane *p, char *buf, size_t n)
{
	struct hdiff *d = p->priv;
	int me = d->sy->role;
	const struct hist_event *he = d->ev[me] < 0 ? NULL :
	    hist_event(d->sy->h, (size_t)d->ev[me]);
	const char *name = he ? hist_str(d->sy->h, he->name) : "";
	uint64_t ns[2] = { 0, 0 };
	char w[96];

	if (!d->loaded) {
		snprintf(buf, n, " Diff of the hot functions: waiting for the %s",
		    symbols_pair_wait_text(d->sy, w, sizeof w));
		return;
	}
	if (he == NULL) {
		snprintf(buf, n, " No samples in %s (w: the other recording)", me ? "NEW" : "OLD");
		return;
	}
	for (int k = 0; k < 2; k++)
		if (d->ev[k] >= 0)
			ns[k] = hist_event(d->side[k]->h, (size_t)d->ev[k])->nsamples;
	if (d->ev[!me] < 0)
		snprintf(buf, n, " Event '%s' is in %s only | %s", name, me ? "NEW" : "OLD",
		    d->abs ? "periods" : "% of each total");
	else
		snprintf(buf, n, " Diff of event '%s': OLD %" PRIu64 " samples, NEW %" PRIu64
		    " | %s (A: %s) | w: %s shown", name, ns[0], ns[1],
		    d->abs ? "periods" : "% of each total",
		    d->abs ? "percents" : "periods", me ? "NEW" : "OLD");
}

static void
hd_draw(struct pane *p, const struct pane_canvas *c)
{
	WINDOW *win = c->win;
	struct pane_canvas lc = *c;
	char buf[512];

	sync(p);
	lc.h = c->h - 1;
	widget_draw(&p->w, &lc);
	if (!((struct hdiff *)p->priv)->loaded && c->h > 4) {
		wattrset(win, (attr_t)c->ta->a[EL_DIM]);
		text_put(win, c->y + 2, c->x + 2, c->w - 4, "resolving both recordings: the diff "
		    "shows here once both are in (keys and the other panes answer meanwhile)");
	}
	wattrset(win, (attr_t)c->ta->a[EL_COLUMN_HEADER]);
	info_line(p, buf, sizeof buf);
	text_line(win, c->y + c->h - 1, c->x, c->w, buf);
}

static const char *
hd_help(struct pane *p)
{
	(void)p;
	return "+:callees  Enter:samples  a:annotate  A:%/periods  w:OLD/NEW  > <:sort  }:event";
}

static int
hd_init(struct pane *p)
{
	struct hdiff *d = xcalloc(1, sizeof *d);

	p->priv = d;
	d->sy = p->sym;
	d->side[d->sy->role] = d->sy;
	d->side[!d->sy->role] = d->sy->pair;
	p->cols = dcols;
	p->ncols = D_N;
	p->is_list = true;
	widget_init(&p->w, p, true);
	return 0;
}

static void
hd_free(struct pane *p)
{
	struct hdiff *d = p->priv;

	if (d == NULL)
		return;
	free_rows(d);
	free(d->v);
	hmap_free(&d->exp);
	free(d);
}

/* pane_ops.func: the selected row's function in the recording shown. */
/*
 * pane_ops.find: never a placeholder (hidden: the widget, going back to
 * the key its cursor was on, would open the placeholder's parent).
 */
static size_t
hd_find(struct pane *p, uint64_t key)
{
	const struct hdiff *d = p->priv;

	for (size_t i = 0; i < d->nv; i++)
		if (d->v[i].key == key && d->v[i].kind != V_MORE)
			return i;
	return WIDGET_NONE;
}

static uint32_t
hd_func(struct pane *p)
{
	struct hdiff *d = p->priv;
	size_t i;

	sync(p);
	i = widget_cursor_row(&p->w);
	return i < d->nv ? vrow_func(d, &d->v[i]) : CPATH_NONE;
}

const struct pane_ops pane_hotdiff_ops = {
	.name = "hot",
	.title = "Hot functions",
	.init = hd_init,
	.free = hd_free,
	.draw = hd_draw,
	.key = hd_key,
	.nrows = hd_nrows,
	.row = hd_row,
	.find = hd_find,
	.enter = pane_list_enter,
	.save = pane_list_save,
	.help = hd_help,
	.func = hd_func,
};
