#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "symbolize/hist_impl.h"

/*
 * perf's entry tree: where perf 6.1's tree of entries gives other entries
 * than keys do (children over inlined frames, see hist.h), entries are
 * found through a red-black tree per event (symbolize/perftree.h) with
 * perf's comparison, each key's perf_cmp in sort order.
 */

/*
 * Should entries be found through perf's tree (hist_ptree_find) rather
 * than by key?  perf 6.1 files entries in a red-black tree whose symbol
 * comparison is by name when either side is an inlined frame and by
 * address otherwise; that is not a total order, so perf can miss an entry
 * it has and make a second one with the same name.  Inlined frames come
 * only from unwound --call-graph dwarf stacks, so: for children tables
 * keyed by sym over a session with user stacks, when the symbolizer
 * unwinds them.  Elsewhere perf's comparison is a total order that agrees
 * with the keys, and the keyed tables give perf's entries.  Only sort keys
 * perf compares in that one tree qualify (those with a perf_cmp): comm and
 * srcline make perf merge entries again in a second tree (its collapse
 * pass), which is not emulated, and perf has no "process" key.
 */
bool
hist_ptree_wanted(const struct hist *h)
{
	const struct attr_table *at;
	bool stacks = false, sym = false;

	for (unsigned i = 0; i < h->o.nkeys; i++) {
		sym |= h->o.keys[i] == HIST_KEY_SYM;
		if (sortkeys[h->o.keys[i]].perf_cmp == NULL)
			return false;
	}
	if (!h->o.children || !sym || h->s == NULL || h->z == NULL ||
	    !symbolizer_unwinds(h->z))
		return false;
	at = session_attrs(h->s);
	for (size_t i = 0; i < at->n; i++)
		stacks |= (at->v[i].attr.sample_type & PERF_SAMPLE_STACK_USER) != 0;
	return stacks;
}

int64_t
hist_ptree_cmp(struct hist *h, const struct ent_full *old, const struct ent_full *nw)
{
	int64_t c = 0;

	if (old->event != nw->event)	/* one tree per event: never */
		return old->event < nw->event ? 1 : -1;
	for (unsigned i = 0; i < h->o.nkeys && c == 0; i++)
		c = sortkeys[h->o.keys[i]].perf_cmp(h, old, nw);
	return c;
}

struct pt_search {
	struct hist		*h;
	const struct ent_full	*k;
};

static int64_t
pt_search_cmp(void *arg, uint32_t old)
{
	struct pt_search *q = arg;
	struct ent_full o;

	ent_unpack(q->h, &q->h->ent[old], &o);
	return hist_ptree_cmp(q->h, &o, q->k);
}

/*
 * The entry perf's tree gives for key k (perf's hists__findnew_entry()):
 * the one the search stops at, else a new one, linked where the search
 * ended.  Ids are those of the entry table; ent_tab is not used.
 */
struct hist_entry *
hist_ptree_find(struct hist *h, const struct ent_full *k)
{
	struct pt_search q = { h, k };
	uint32_t id, parent;
	int side;
	struct hist_entry *e;

	if (k->event >= h->ptr.cappt_root) {
		size_t old = h->ptr.cappt_root;

		GROW(h->ptr.pt_root, h->ptr.cappt_root, (size_t)k->event + 1);
		for (size_t i = old; i < h->ptr.cappt_root; i++)
			h->ptr.pt_root[i] = PERFTREE_NONE;
	}
	id = perftree_find(&h->ptr.pt, h->ptr.pt_root[k->event], pt_search_cmp, &q, &parent, &side);
	if (id != PERFTREE_NONE)
		return &h->ent[id];
	GROW(h->ent, h->capent, h->nent + 1);
	e = &h->ent[h->nent];
	ent_pack(h, k, e);
	perftree_insert(&h->ptr.pt, &h->ptr.pt_root[k->event], (uint32_t)h->nent, parent, side);
	h->nent++;
	return e;
}

/*
 * Children through perf's tree, as perf's cumulative iterator adds them:
 * after the sample's own entry (h->rc.last_self), one entry per callchain
 * frame in caller order (outermost first, chain being leaf first), a
 * frame skipped when it compares equal to an entry this sample already
 * counts in.  k holds the sample's keys; its frame keys are overwritten.
 */
void
hist_ptree_add_chain(struct hist *h, struct ent_full *k, const struct key_src *src,
    uint64_t period, const struct fkey *chain, size_t n)
{
	size_t nseen = 0;
	struct key_src fs = *src;

	GROW(h->ptr.pt_seen, h->ptr.cappt_seen, n + 1);
	h->ptr.pt_seen[nseen++] = h->rc.last_self;
	for (size_t i = n; i-- > 0;) {
		struct hist_entry *e;
		bool dup = false;

		fs.f = &chain[i];
		for (unsigned j = 0; j < h->ks.nfkeys; j++)
			h->ks.fkeys[j]->extract(k, &fs);
		for (size_t j = 0; j < nseen && !dup; j++) {
			struct ent_full o;

			ent_unpack(h, &h->ent[h->ptr.pt_seen[j]], &o);
			dup = hist_ptree_cmp(h, &o, k) == 0;
		}
		if (dup)
			continue;
		e = hist_ptree_find(h, k);
		if (e->acc_samples == 0) {
			e->label_comm = src->comm;
			e->label_tid = src->tid;
			e->label_sym = chain[i].label;
		}
		e->stamp = h->stamp;
		e->acc_period += period;
		e->acc_latency += src->latency;
		e->acc_samples++;
		h->ptr.pt_seen[nseen++] = (uint32_t)(e - h->ent);
	}
}
