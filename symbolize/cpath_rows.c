#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/cpath.h"
#include "symbolize/hist_impl.h"

/*
 * cpath_rows.c: hist_rows_merged()'s table after a tree's transforms.
 * Each stored row the tree kept credits, with its own entry's keys that
 * are not a frame's, the function its transformed path ends in (self)
 * and every function on that path once (children).  The rows live in the
 * hist's merge arrays, as hist_rows_merged()'s do.
 */

/* One build: the table of rows made so far, and the functions seen on the current path. */
struct rows_build {
	struct hist	*h;
	struct hmap	 tab;
	size_t		 nm;
	unsigned	 keep;
	uint32_t	 ev;
	uint32_t	*seen;		/* per function node: the path's stamp that counted it */
	size_t		 nseen;
};

/* The row of entry e's sample keys and function f (made on first use); NULL: f unknown. */
static struct hist_entry *
row_of(struct rows_build *b, const struct hist_entry *e, uint32_t f, uint32_t first)
{
	struct hist *h = b->h;
	struct hist_entry k;
	struct ent_full kf, ef;
	struct ent_want w = { NULL, &k };
	uint64_t hash;
	uint32_t id;

	ent_unpack(h, e, &ef);
	kf = hist_ent_full_zero;
	kf.event = b->ev;
	for (unsigned kk = 0; kk < HIST_KEY_COUNT; kk++)
		if (b->keep & HIST_KEEP(kk))
			sortkeys[kk].keep(&kf, &ef);
	if (b->keep & HIST_KEEP(HIST_KEY_SYM))
		kf.node = f;
	if (b->keep & HIST_KEEP(HIST_KEY_DSO))
		kf.dso = h->node[f].f.dso;
	ent_pack(h, &kf, &k);
	hash = ent_hash(&k);
	w.v = h->mg.mrows;
	id = hmap_find(&b->tab, hash, ent_eq, &w);
	if (id == HMAP_NONE) {
		GROW(h->mg.mrows, h->mg.capmrows, b->nm + 1);
		if (b->nm + 1 > h->mg.capmfirst) {
			h->mg.capmfirst = h->mg.capmrows;
			h->mg.mfirst = xreallocarray(h->mg.mfirst, h->mg.capmfirst, sizeof *h->mg.mfirst);
			h->mg.mbest = xreallocarray(h->mg.mbest, h->mg.capmfirst, sizeof *h->mg.mbest);
			h->mg.mbestv = xreallocarray(h->mg.mbestv, h->mg.capmfirst, sizeof *h->mg.mbestv);
		}
		h->mg.mrows[b->nm] = k;
		h->mg.mfirst[b->nm] = first;
		h->mg.mbest[b->nm] = (uint32_t)(e - h->ent);
		h->mg.mbestv[b->nm] = 0;
		hmap_add(&b->tab, hash, (uint32_t)b->nm);
		id = (uint32_t)b->nm++;
	} else if (hist_row_order(h, first) < hist_row_order(h, h->mg.mfirst[id]))
		h->mg.mfirst[id] = first;	/* the first made in the scope */
	return &h->mg.mrows[id];
}

/* Credit stored row r, whose transformed path ends in node leaf of t. */
static void
credit_row(struct rows_build *b, const struct cpath *t, size_t r, uint32_t leaf)
{
	struct hist *h = b->h;
	const struct cp_row *cr = &h->ps.cprow[r];
	const struct hist_entry *e = &h->ent[cr->entry & ~CP_NOCHAIN];
	uint32_t stamp = (uint32_t)r + 1;

	for (uint32_t at = leaf; at != 0 && at != CPATH_NONE; at = cpath_node(t, at)->parent) {
		uint32_t f = cpath_func_node(h, cpath_node(t, at)->func);
		struct hist_entry *m;

		if (f >= b->nseen || b->seen[f] == stamp)
			continue;	/* a function once per path (recursion) */
		b->seen[f] = stamp;
		m = row_of(b, e, f, (uint32_t)r);
		m->acc_period += cr->period;
		m->acc_samples += cr->samples;
		if (at == leaf) {
			m->period += cr->period;
			m->samples += cr->samples;
		}
		if (cr->period > h->mg.mbestv[m - h->mg.mrows]) {	/* labels: the biggest row's */
			h->mg.mbestv[m - h->mg.mrows] = cr->period;
			h->mg.mbest[m - h->mg.mrows] = (uint32_t)(e - h->ent);
		}
	}
}

static int
cmp_rows(const void *a, const void *b, void *arg)
{
	const struct hist *h = arg;
	const struct hist_entry *x = *(const struct hist_entry *const *)a;
	const struct hist_entry *y = *(const struct hist_entry *const *)b;

	return hist_cmp_entries(h, x, hist_row_order(h, h->mg.mfirst[x - h->mg.mrows]), y,
	    hist_row_order(h, h->mg.mfirst[y - h->mg.mrows]));
}

/* The rows' labels and, for keys not kept, pid and tid from their biggest entry; filtered and sorted. */
static size_t
finish_rows(struct rows_build *b, double min_pct, const struct hist_entry *const **out)
{
	struct hist *h = b->h;
	uint64_t total = h->ev[b->ev].total_period;
	unsigned thread_keys = 0;
	size_t n = 0;

	for (unsigned k = 0; k < HIST_KEY_COUNT; k++)
		if (sortkeys[k].thread)
			thread_keys |= HIST_KEEP(k);
	GROW(h->mg.mout, h->mg.capmout, b->nm + 1);
	for (size_t i = 0; i < b->nm; i++) {
		struct hist_entry *m = &h->mg.mrows[i];
		const struct hist_entry *best = &h->ent[h->mg.mbest[i]];
		uint64_t v = h->o.children ? m->acc_period : m->period;
		double pct = total ? 100.0 * (double)v / (double)total : 0.0;

		if (!(b->keep & thread_keys)) {
			m->pid = best->pid;
			m->tid = best->tid;
		}
		m->label_comm = best->label_comm;
		m->label_tid = best->label_tid;
		m->label_sym = m->node == best->node ? best->label_sym : 0;
		if ((min_pct > 0 && pct < min_pct) || (!h->o.children && m->samples == 0))
			continue;
		h->mg.mout[n++] = m;
	}
	qsort_r(h->mg.mout, n, sizeof *h->mg.mout, cmp_rows, h);
	*out = h->mg.mout;
	return n;
}

size_t
cpath_rows_merged(struct hist *h, const struct cpath *t, size_t evi, unsigned keep, double min_pct,
    const struct hist_entry *const **out)
{
	struct rows_build b = { .h = h, .keep = keep };
	size_t n;

	*out = NULL;
	hist_rows_stop(h);	/* its arrays are the ones used here */
	if (evi >= h->nev_order || cpath_bottom_up(t))
		return 0;
	b.ev = h->ev_order[evi];
	h->mg.mkeep = keep;
	b.nseen = h->nnode;
	b.seen = xcalloc(b.nseen + 1, sizeof *b.seen);
	for (size_t r = 0; r < h->ps.ncprow; r++) {
		uint32_t leaf = cpath_row_node(t, r);

		if (leaf != CPATH_NONE && leaf != 0 && h->ps.cprow[r].samples != 0)
			credit_row(&b, t, r, leaf);
	}
	free(b.seen);
	hmap_free(&b.tab);
	n = finish_rows(&b, min_pct, out);
	return n;
}
