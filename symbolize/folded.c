#include "config.h"

#include <stdlib.h>
#include <string.h>

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
	struct idtab tab;
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
		uint32_t p, hash, text, id;

		if (count == 0)
			continue;
		for (p = (uint32_t)t; p != NONE32 && p != root; p = h->tn[p].parent) {
			GROW(h->path, h->cappath, depth + 1);
			h->path[depth++] = p;
		}
		if (p != root)
			continue;
		for (i = depth; i-- > 0;) {
			const char *nm = hist_str(h, h->tn[h->path[i]].name);
			size_t l = strlen(nm);

			GROW(buf, capb, len + l + 2);
			memcpy(buf + len, nm, l);
			len += l;
			buf[len++] = i ? ';' : '\0';
		}
		text = hist_intern(h, buf);
		hash = (uint32_t)hash_mix64(text);
		idtab_reserve(&tab);
		i = hash & (tab.cap - 1);
		while ((id = tab.slot[i]) != 0 && lines[id - 1].text != text)
			i = (i + 1) & (tab.cap - 1);
		if (id == 0) {
			GROW(lines, capl, nl + 1);
			lines[nl].text = text;
			lines[nl].count = 0;
			idtab_put(&tab, i, hash, (uint32_t)nl++);
			id = (uint32_t)nl;
		}
		lines[id - 1].count += count;
	}
	for (size_t i = 0; i < nl && rc == 0; i++)
		rc = fn(arg, hist_str(h, lines[i].text), lines[i].count);
	idtab_free(&tab);
	free(lines);
	free(buf);
	return rc;
}
