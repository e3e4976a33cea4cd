#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "symbolize/hist_impl.h"

/*
 * The call graph of a hist (hist_opts.callgraph): caller -> callee edges
 * between function nodes, and the top-down call tree per event (comm at
 * the first level), both fed one sample at a time by callgraph_add().
 */

/* What edge_add() seeks (edge_eq's ctx). */
struct edge_want {
	const struct hist_edge	*v;
	uint32_t		 ev, caller, callee;
	int32_t			 pid, tid;
};

/* hmap_eq_fn: is edge id the one w seeks? */
static bool
edge_eq(const void *ctx, uint32_t id)
{
	const struct edge_want *w = ctx;
	const struct hist_edge *e = &w->v[id];

	return e->caller == w->caller && e->callee == w->callee && e->event == w->ev &&
	    e->tid == w->tid && e->pid == w->pid;
}

static void
edge_add(struct hist *h, uint32_t ev, int32_t pid, int32_t tid, uint32_t caller, uint32_t callee,
    uint64_t period)
{
	uint64_t hash = ((uint64_t)caller << 32 | callee) ^ (uint64_t)ev << 17 ^
	    ((uint64_t)(uint32_t)tid << 32 | (uint32_t)pid) * 0x9e3779b97f4a7c15u;
	struct edge_want w = { h->edge, ev, caller, callee, pid, tid };
	uint32_t id = hmap_find(&h->edge_tab, hash, edge_eq, &w);
	struct hist_edge *e;

	if (id != HMAP_NONE) {
		e = &h->edge[id];
	} else {
		GROW(h->edge, h->capedge, h->nedge + 1);
		e = &h->edge[h->nedge];
		memset(e, 0, sizeof *e);
		e->event = ev;
		e->caller = caller;
		e->callee = callee;
		e->pid = pid;
		e->tid = tid;
		hmap_add(&h->edge_tab, hash, (uint32_t)h->nedge++);
	}
	if (e->stamp != h->stamp) {
		e->stamp = h->stamp;
		e->period += period;
		e->samples++;
	}
}

/* What tnode_child() seeks (tnode_eq's ctx). */
struct tnode_want {
	const struct hist_tnode	*v;
	uint32_t		 parent, node, name;
};

/* hmap_eq_fn: is tree node id the one w seeks? */
static bool
tnode_eq(const void *ctx, uint32_t id)
{
	const struct tnode_want *w = ctx;
	const struct hist_tnode *t = &w->v[id];

	return t->parent == w->parent && t->node == w->node && t->name == w->name;
}

static uint32_t
tnode_child(struct hist *h, uint32_t parent, uint32_t node, uint32_t name)
{
	uint64_t hash = (uint64_t)parent << 32 ^ (uint64_t)node << 1 ^ (uint64_t)name * 0x9e3779b1u;
	struct tnode_want w = { h->tn, parent, node, name };
	uint32_t id = hmap_find(&h->tn_tab, hash, tnode_eq, &w);
	struct hist_tnode *t;

	if (id != HMAP_NONE)
		return id;
	GROW(h->tn, h->captn, h->ntn + 1);
	t = &h->tn[h->ntn];
	memset(t, 0, sizeof *t);
	t->parent = parent;
	t->node = node;
	t->name = name;
	t->first_child = NONE32;
	t->next_sibling = NONE32;
	if (parent != NONE32) {
		t->next_sibling = h->tn[parent].first_child;
		h->tn[parent].first_child = (uint32_t)h->ntn;
	}
	hmap_add(&h->tn_tab, hash, (uint32_t)h->ntn);
	return (uint32_t)h->ntn++;
}

void
callgraph_add(struct hist *h, uint32_t ev, const struct key_src *src, const struct fkey *chain,
    size_t n, uint64_t period)
{
	struct hist_event *e = &h->ev[ev];
	int32_t pid = src->pid, tid = src->tid;
	uint32_t t;

	if (!h->o.edge_split)
		pid = tid = 0;

	if (n == 0) {
		chain = src->f;
		n = 1;
	}
	for (size_t i = 0; i + 1 < n; i++)
		edge_add(h, ev, pid, tid, chain[i + 1].node, chain[i].node, period);
	if (e->tree_root == NONE32)
		e->tree_root = tnode_child(h, NONE32, NONE32, e->name);
	t = e->tree_root;
	h->tn[t].inc_period += period;
	h->tn[t].inc_samples++;
	t = tnode_child(h, t, NONE32, src->comm);
	h->tn[t].inc_period += period;
	h->tn[t].inc_samples++;
	for (size_t i = n; i-- > 0;) {
		t = tnode_child(h, t, chain[i].node, h->node[chain[i].node].fold);
		h->tn[t].inc_period += period;
		h->tn[t].inc_samples++;
	}
	h->tn[t].self_period += period;
	h->tn[t].self_samples++;
}
/* Children of each tree node sorted by inclusive period, descending. */
void
callgraph_sort_tree(struct hist *h)
{
	uint32_t *kids = NULL;
	size_t cap = 0;

	for (size_t p = 0; p < h->ntn; p++) {
		size_t n = 0;

		for (uint32_t c = h->tn[p].first_child; c != NONE32; c = h->tn[c].next_sibling) {
			GROW(kids, cap, n + 1);
			kids[n++] = c;
		}
		/* insertion sort: sibling lists are short */
		for (size_t i = 1; i < n; i++) {
			uint32_t v = kids[i];
			size_t j = i;

			while (j > 0 && h->tn[kids[j - 1]].inc_period < h->tn[v].inc_period) {
				kids[j] = kids[j - 1];
				j--;
			}
			kids[j] = v;
		}
		h->tn[p].first_child = n ? kids[0] : NONE32;
		for (size_t i = 0; i < n; i++)
			h->tn[kids[i]].next_sibling = i + 1 < n ? kids[i + 1] : NONE32;
	}
	free(kids);
}

static int
cmp_edges(const void *a, const void *b)
{
	const struct hist_edge *x = a, *y = b;

	if (x->period != y->period)
		return x->period < y->period ? 1 : -1;
	return (x->samples < y->samples) - (x->samples > y->samples);
}

/* edge_split: order by (caller, callee), then by first appearance (stamp). */
static int
cmp_edge_ends(const void *a, const void *b)
{
	const struct hist_edge *x = a, *y = b;

	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	if (x->callee != y->callee)
		return x->callee < y->callee ? -1 : 1;
	return (x->stamp > y->stamp) - (x->stamp < y->stamp);
}

static int
cmp_edge_first(const void *a, const void *b)
{
	const struct hist_edge *x = a, *y = b;

	return (x->stamp > y->stamp) - (x->stamp < y->stamp);
}

static size_t
edges_of(struct hist *h, size_t evi, uint32_t node, bool callers, const struct hist_select *sel,
    const struct hist_edge **out)
{
	size_t n = 0;
	uint32_t ev;
	bool split = h->o.edge_split;

	*out = NULL;
	if (evi >= h->nev_order)
		return 0;
	ev = h->ev_order[evi];
	for (size_t i = 0; i < h->nedge; i++) {
		const struct hist_edge *e = &h->edge[i];

		if (e->event != ev || (callers ? e->callee : e->caller) != node)
			continue;
		if (split && !hist_sel_thread(sel, e->pid, e->tid))
			continue;
		GROW(h->erows, h->caperows, n + 1);
		h->erows[n] = *e;
		if (split) {
			h->erows[n].stamp = (uint32_t)i;	/* first appearance */
			h->erows[n].pid = h->erows[n].tid = 0;
		}
		n++;
	}
	/*
	 * Split edges sum over their (caller, callee), in the order each
	 * first appeared: what one edge per (caller, callee) would give.
	 */
	if (split && n > 1) {
		size_t m = 0;

		qsort(h->erows, n, sizeof *h->erows, cmp_edge_ends);
		for (size_t i = 0; i < n; i++) {
			if (m > 0 && h->erows[m - 1].caller == h->erows[i].caller &&
			    h->erows[m - 1].callee == h->erows[i].callee) {
				h->erows[m - 1].period += h->erows[i].period;
				h->erows[m - 1].samples += h->erows[i].samples;
				continue;
			}
			h->erows[m++] = h->erows[i];
		}
		n = m;
		qsort(h->erows, n, sizeof *h->erows, cmp_edge_first);
	}
	if (split)
		for (size_t i = 0; i < n; i++)
			h->erows[i].stamp = 0;
	if (n > 1)
		qsort(h->erows, n, sizeof *h->erows, cmp_edges);
	*out = h->erows;
	return n;
}

size_t
hist_callers(struct hist *h, size_t ev, uint32_t node, const struct hist_edge **out)
{
	return edges_of(h, ev, node, true, NULL, out);
}

size_t
hist_callees(struct hist *h, size_t ev, uint32_t node, const struct hist_edge **out)
{
	return edges_of(h, ev, node, false, NULL, out);
}

size_t
hist_callers_sel(struct hist *h, size_t ev, uint32_t node, const struct hist_select *sel,
    const struct hist_edge **out)
{
	return edges_of(h, ev, node, true, sel, out);
}

size_t
hist_callees_sel(struct hist *h, size_t ev, uint32_t node, const struct hist_select *sel,
    const struct hist_edge **out)
{
	return edges_of(h, ev, node, false, sel, out);
}

const struct hist_tnode *
hist_tnode_get(const struct hist *h, uint32_t id)
{
	return id < h->ntn ? &h->tn[id] : NULL;
}
