#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "symbolize/hist_impl.h"

/*
 * The call tree of a hist (hist_opts.callgraph): per event, comm at the
 * first level, then the functions from the outermost caller down, fed one
 * sample at a time by callgraph_add(); folded.c reads it.  (Call paths
 * without the comm level, for every view, are symbolize/cpath.h's.)
 */

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
	uint32_t t;

	if (n == 0) {
		chain = src->f;
		n = 1;
	}
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

const struct hist_tnode *
hist_tnode_get(const struct hist *h, uint32_t id)
{
	return id < h->ntn ? &h->tn[id] : NULL;
}
