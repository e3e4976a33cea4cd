#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "symbolize/cpath.h"
#include "symbolize/hist_impl.h"

/*
 * Folded stacks ("comm;outer;...;inner COUNT"), read off the call tree:
 * one line per distinct path of names, in the order of the tree's nodes.
 */

/* Folded lines are merged by text: frames of one name in one context. */
struct fold_line {
	uint32_t	text;
	uint64_t	count;
};

int
hist_folded(struct hist *h, size_t evi, bool use_period, hist_fold_fn fn, void *arg)
{
	struct fold_line *lines = NULL;
	size_t nl = 0, capl = 0;
	struct hmap tab;
	char *buf = NULL;
	size_t capb = 0;
	int rc = 0;
	uint32_t root;

	if (evi >= h->nev_order)
		return 0;
	root = h->ev[h->ev_order[evi]].tree_root;
	if (root == NONE32)
		return 0;
	memset(&tab, 0, sizeof tab);
	for (size_t t = 0; t < h->ntn; t++) {
		const struct hist_tnode *tn = &h->tn[t];
		uint64_t count = use_period ? tn->self_period : tn->self_samples;
		size_t depth = 0, len = 0, i;
		uint32_t p, text, id;

		if (count == 0)
			continue;
		for (p = (uint32_t)t; p != NONE32 && p != root; p = h->tn[p].parent) {
			GROW(h->wk.path, h->wk.cappath, depth + 1);
			h->wk.path[depth++] = p;
		}
		if (p != root)
			continue;
		for (i = depth; i-- > 0;) {
			const struct hist_tnode *pt = &h->tn[h->wk.path[i]];
			const char *nm = hist_str(h, pt->name);
			char abuf[24];
			size_t l;

			if (h->o.fold_addresses && pt->node != NONE32 && pt->node < h->nnode &&
			    h->node[pt->node].f.sym == SYM_NONE)
				nm = cpath_func_name(h, pt->node, abuf, sizeof abuf);
			l = strlen(nm);

			GROW(buf, capb, len + l + 2);
			memcpy(buf + len, nm, l);
			len += l;
			buf[len++] = i ? ';' : '\0';
		}
		text = hist_intern(h, buf);
		id = hmap_get(&tab, text);
		if (id == HMAP_NONE) {
			GROW(lines, capl, nl + 1);
			lines[nl].text = text;
			lines[nl].count = 0;
			id = (uint32_t)nl++;
			hmap_set(&tab, text, id);
		}
		lines[id].count += count;
	}
	for (size_t i = 0; i < nl && rc == 0; i++)
		rc = fn(arg, hist_str(h, lines[i].text), lines[i].count);
	hmap_free(&tab);
	free(lines);
	free(buf);
	return rc;
}
