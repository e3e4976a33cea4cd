#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/cpath.h"
#include "symbolize/hist_impl.h"

/*
 * The stored call paths (symbolize/cpath.h): the hist keeps one tree of
 * paths per event, nodes keyed by (parent, function) in a struct hmap
 * whose key is that pair itself, and rows of (leaf node, own entry) with
 * the samples and period that ended there.  Here: adding a sample's path
 * (cpath_add), merging a part's (cpath_merge), taking them from the
 * cache (cpath_adopt), the rows' index by entry and function, and their
 * memory.  The trees views ask for are built from the rows (cpath.c).
 */

/* The child of parent for func in the stored tree, made on first use. */
static uint32_t
base_child(struct hist *h, uint32_t parent, uint32_t func)
{
	uint64_t key = cp_pair_key(parent, func);
	uint32_t id;
	hist_tables_need(h);

	if (parent != NONE32) {
		uint32_t hint = h->ps.cp[parent].hint;

		if (hint != NONE32 && h->ps.cp[hint].func == func)
			return hint;
	}
	id = hmap_get(&h->ps.cp_tab, key);
	if (id == HMAP_NONE) {
		GROW(h->ps.cp, h->ps.capcp, h->ps.ncp + 1);
		id = (uint32_t)h->ps.ncp++;
		h->ps.cp[id].parent = parent;
		h->ps.cp[id].func = func;
		h->ps.cp[id].hint = NONE32;
		hmap_set(&h->ps.cp_tab, key, id);
	}
	if (parent != NONE32)
		h->ps.cp[parent].hint = id;
	return id;
}

/* The row of (node, entry), made on first use. */
static uint32_t
base_row(struct hist *h, uint32_t node, uint32_t entry)
{
	uint64_t key = cp_pair_key(node, entry);
	uint32_t id = hmap_get(&h->ps.cprow_tab, key);
	hist_tables_need(h);

	if (id == HMAP_NONE) {
		GROW(h->ps.cprow, h->ps.capcprow, h->ps.ncprow + 1);
		id = (uint32_t)h->ps.ncprow++;
		memset(&h->ps.cprow[id], 0, sizeof h->ps.cprow[id]);
		h->ps.cprow[id].node = node;
		h->ps.cprow[id].entry = entry;
		hmap_set(&h->ps.cprow_tab, key, id);
	}
	return id;
}

static uint32_t
event_root(struct hist *h, uint32_t ev)
{
	hist_tables_need(h);
	if (ev >= h->ps.capcp_root) {
		size_t old = h->ps.capcp_root;

		GROW(h->ps.cp_root, h->ps.capcp_root, (size_t)ev + 1);
		memset(h->ps.cp_root + old, 0xff, (h->ps.capcp_root - old) * sizeof *h->ps.cp_root);
	}
	if (h->ps.cp_root[ev] == NONE32)
		h->ps.cp_root[ev] = base_child(h, NONE32, ev);
	return h->ps.cp_root[ev];
}

void
cpath_adopt(struct hist *h)
{
	hmap_reserve(&h->ps.cp_tab, h->ps.ncp);
	hmap_reserve(&h->ps.cprow_tab, h->ps.ncprow);
	for (size_t i = 0; i < h->ps.ncp; i++) {
		const struct cp_bnode *b = &h->ps.cp[i];

		if (b->parent == NONE32 && b->func >= h->ps.capcp_root) {
			size_t old = h->ps.capcp_root;

			GROW(h->ps.cp_root, h->ps.capcp_root, (size_t)b->func + 1);
			memset(h->ps.cp_root + old, 0xff, (h->ps.capcp_root - old) * sizeof *h->ps.cp_root);
		}
		if (b->parent == NONE32 && h->ps.cp_root[b->func] == NONE32)
			h->ps.cp_root[b->func] = (uint32_t)i;
		hmap_set(&h->ps.cp_tab, cp_pair_key(b->parent, b->func), (uint32_t)i);
	}
	for (size_t i = 0; i < h->ps.ncprow; i++)
		hmap_set(&h->ps.cprow_tab, cp_pair_key(h->ps.cprow[i].node, h->ps.cprow[i].entry), (uint32_t)i);
}

/*
 * The path node of a chain from the event's root (funcs outermost first),
 * through the memo of the last two paths (h->ps.pmemo: consecutive samples,
 * or those of two threads taking turns, share their outer frames), and
 * the memo's slot made to hold it.
 */
static uint32_t
memo_path(struct hist *h, uint32_t ev, const struct fkey *chain, size_t n, bool by_addr,
    struct path_memo **slot)
{
	struct path_memo *best = NULL;
	size_t keep = 0, d;
	uint32_t t = event_root(h, ev);

	for (int k = 0; k < 2; k++) {
		struct path_memo *m = &h->ps.pmemo[k];

		if (m->ev != ev)
			continue;
		for (d = 0; d < m->n && d < n &&
		    m->func[d] == (by_addr ? chain[n - 1 - d].anode : chain[n - 1 - d].node); d++)
			;
		if (best == NULL || d > keep) {
			best = m;
			keep = d;
		}
	}
	if (best == NULL || keep == 0)
		best = &h->ps.pmemo[h->ps.pmemo_lru];
	h->ps.pmemo_lru = best == &h->ps.pmemo[0];
	if (n > best->cap) {
		best->cap = n;
		best->func = xreallocarray(best->func, n, sizeof *best->func);
		best->path = xreallocarray(best->path, n, sizeof *best->path);
	}
	if (best->ev != ev) {
		best->ev = ev;
		keep = 0;
	}
	if (keep > 0)
		t = best->path[keep - 1];
	for (d = keep; d < n; d++) {
		uint32_t f = by_addr ? chain[n - 1 - d].anode : chain[n - 1 - d].node;

		t = base_child(h, t, f);
		best->func[d] = f;
		best->path[d] = t;
	}
	if (keep < best->n || n != best->n)
		best->row_node = NONE32;
	best->n = n;
	*slot = best;
	return t;
}

/*
 * --branch-history: count what the sample's frames carried (h->ps.chbr, beside
 * the chain, innermost first) into row r's positions (root first).
 */
static void
branch_counts(struct hist *h, uint32_t r, size_t n)
{
	struct brh_count *c;

	if (r >= h->ps.capcprow_br) {
		size_t old = h->ps.capcprow_br;

		GROW(h->ps.cprow_br, h->ps.capcprow_br, (size_t)r + 1);
		memset(h->ps.cprow_br + old, 0xff, (h->ps.capcprow_br - old) * sizeof *h->ps.cprow_br);
	}
	if (h->ps.cprow_br[r] == NONE32) {
		GROW(h->ps.brc, h->ps.capbrc, h->ps.nbrc + n);
		memset(h->ps.brc + h->ps.nbrc, 0, n * sizeof *h->ps.brc);
		h->ps.cprow_br[r] = (uint32_t)h->ps.nbrc;
		h->ps.nbrc += n;
	}
	c = h->ps.brc + h->ps.cprow_br[r];
	for (size_t d = 0; d < n; d++)
		brhist_count(&c[d], &h->ps.chbr[n - 1 - d]);
}

/*
 * The row of a sample's path (chain leaf first, n frames; none: its own
 * frame) and own entry e, through the memo of the last paths: made if
 * make, else NONE32 when it is not made yet; the path's nodes are made
 * either way.
 */
static uint32_t
path_row(struct hist *h, uint32_t ev, const struct key_src *src, const struct fkey *chain,
    size_t n, uint32_t e, bool make)
{
	struct path_memo *m = NULL;
	uint32_t t, entry = e, r;

	if (n == 0) {
		t = base_child(h, event_root(h, ev), src->f->node);
		entry |= CP_NOCHAIN;
	} else {
		t = memo_path(h, ev, chain, n, h->o.paths_address, &m);
	}
	if (m != NULL && m->row_node == t && m->row_entry == entry)
		return m->row;
	if (make)
		r = base_row(h, t, entry);
	else if ((r = hmap_get(&h->ps.cprow_tab, cp_pair_key(t, entry))) == HMAP_NONE)
		return NONE32;
	if (m != NULL) {
		m->row_node = t;
		m->row_entry = entry;
		m->row = r;
	}
	return r;
}

uint32_t
cpath_row_known(struct hist *h, uint32_t ev, const struct key_src *src, const struct fkey *chain,
    size_t n, uint32_t e)
{
	return path_row(h, ev, src, chain, n, e, false);
}

void
cpath_add(struct hist *h, uint32_t ev, const struct key_src *src, const struct fkey *chain,
    size_t n, uint64_t period, uint32_t e)
{
	size_t nrow = h->ps.ncprow;
	uint32_t r = path_row(h, ev, src, chain, n, e, true);

	if (h->ps.ncprow > nrow)
		hist_row_made(h, r);
	else if (h->rc.cred_frames)
		hist_row_again(h, r);
	if (h->o.branch_history && n > 0 && n == h->ps.nchbr)
		branch_counts(h, r, n);
	h->ps.nchbr = 0;
	h->ps.cprow[r].period += period;
	h->ps.cprow[r].samples++;
	h->ps.last_row = r;
}

/* What cpath_anode() seeks (anode_eq's ctx). */
struct anode_want {
	const struct cp_anode	*v;
	uint32_t		 node;
	uint64_t		 ip;
};

static bool
anode_eq(const void *ctx, uint32_t id)
{
	const struct anode_want *w = ctx;

	return w->v[id].node == w->node && w->v[id].ip == w->ip;
}

/*
 * perf's name of a frame with the address key: the symbol and the frame's
 * source line ("mix_one cpu.c:31", "... (inlined)" after it for an inline
 * level), else its offset in the symbol ("do_wp_page +1794") for a kernel
 * frame or "??:0"; the address when unresolved.
 */
static char *
anode_name(struct hist *h, const struct frame *f, uint32_t node)
{
	const char *sl, *name;
	size_t l, n;
	char *buf;

	if (f->sym == SYM_NONE || h->z == NULL) {
		buf = xmalloc(24);
		snprintf(buf, 24, "%#" PRIx64, f->ip);
		return buf;
	}
	/* whole, however long the (C++) name */
	name = symbolizer_label_name(hist_str(h, h->node[node].label));
	l = strlen(name);
	if (l > 10 && strcmp(name + l - 10, " (inlined)") == 0)
		l -= 10;
	sl = symbolizer_srcline(h->z, f);
	n = l + (sl != NULL ? strlen(sl) : 0) + 48;
	buf = xmalloc(n);
	if (sl != NULL)
		snprintf(buf, n, "%.*s %s%s", (int)l, name, sl,
		    symbolizer_sym_inlined(h->z, f->sym) ? " (inlined)" : "");
	else if (f->kernel)
		snprintf(buf, n, "%.*s +%" PRIu64, (int)l, name, f->symoff);
	else
		snprintf(buf, n, "%.*s ??:0", (int)l, name);
	return buf;
}

uint32_t
cpath_anode(struct hist *h, const struct frame *f, uint32_t node)
{
	uint64_t hash = (uint64_t)node * UINT64_C(0x9e3779b97f4a7c15) ^ f->ip;
	struct anode_want w = { h->ps.an, node, f->ip };
	uint32_t id = hmap_find(&h->ps.an_tab, hash, anode_eq, &w);
	char *buf;

	if (id != HMAP_NONE)
		return id;
	buf = anode_name(h, f, node);
	GROW(h->ps.an, h->ps.capan, h->ps.nan + 1);
	h->ps.an[h->ps.nan].node = node;
	h->ps.an[h->ps.nan].ip = f->ip;
	h->ps.an[h->ps.nan].name = hist_intern(h, buf);
	free(buf);
	h->ps.an[h->ps.nan].srcline = h->ks.want_src ? hist_srcline_of(h, f) : 0;
	hmap_add(&h->ps.an_tab, hash, (uint32_t)h->ps.nan);
	return (uint32_t)h->ps.nan++;
}

/* into's cred: what from's row i credited, in into's ids and strings. */
static void
cred_of_row(struct hist *into, const struct hist *from, const uint32_t *entmap, size_t i)
{
	into->rc.ncred = 0;
	for (uint32_t k = from->rc.rowent_off[i]; k < from->rc.rowent_off[i + 1]; k++) {
		uint32_t lab = from->rc.rowlab != NULL ? from->rc.rowlab[k] : 0;

		/* a label is a string id + 1 of from's table: into's own */
		if (lab != 0)
			lab = hist_intern(into, hist_str(from, lab - 1)) + 1;
		hist_credit(into, entmap[from->rc.rowent[k]], lab);
	}
}

void
cpath_merge(struct hist *into, const struct hist *from, const uint32_t *evmap,
    const uint32_t *nodemap, const uint32_t *entmap, uint32_t *rowmap)
{
	uint32_t *map = xreallocarray(NULL, from->ps.ncp + 1, sizeof *map);
	bool credits = into->rc.sample_row != NULL && from->rc.rowent_off != NULL &&
	    from->rc.caprowoff > from->ps.ncprow;

	/* Parents come before their children in id order. */
	for (size_t i = 0; i < from->ps.ncp; i++) {
		const struct cp_bnode *b = &from->ps.cp[i];

		if (b->parent == NONE32)
			map[i] = event_root(into, evmap[b->func]);
		else
			map[i] = base_child(into, map[b->parent], nodemap[b->func]);
	}
	for (size_t i = 0; i < from->ps.ncprow; i++) {
		const struct cp_row *fr = &from->ps.cprow[i];
		uint32_t ent = entmap[fr->entry & ~CP_NOCHAIN] | (fr->entry & CP_NOCHAIN);
		size_t nrow = into->ps.ncprow;
		uint32_t r = base_row(into, map[fr->node], ent);

		if (into->ps.ncprow > nrow && credits) {
			cred_of_row(into, from, entmap, i);
			hist_row_made(into, r);
		} else if (into->ps.ncprow > nrow) {
			into->rc.no_rescope = true;	/* a row without its entries */
		} else if (credits && !into->rc.no_rescope) {
			/* a row of both parts: the same entries, or no recount */
			cred_of_row(into, from, entmap, i);
			hist_row_again(into, r);
		}
		if (rowmap != NULL)
			rowmap[i] = r;
		into->ps.cprow[r].period += fr->period;
		into->ps.cprow[r].samples += fr->samples;
	}
	free(map);
}

static void
csr_free(struct cp_csr *c)
{
	free(c->off);
	free(c->row);
	memset(c, 0, sizeof *c);
}

/*
 * Group rows 0..nrows by key: nkey(h, r, keys, max) gives row r's keys
 * (at most max); a row is listed once per distinct key it gives.
 */
static void
csr_build(struct hist *h, struct cp_csr *c, size_t nkeys,
    size_t (*rkeys)(const struct hist *h, uint32_t r, uint32_t **buf, size_t *cap))
{
	uint32_t *buf = NULL, *fill;
	size_t cap = 0, total = 0;

	csr_free(c);
	c->nkeys = nkeys;
	c->off = xcalloc(nkeys + 2, sizeof *c->off);
	for (size_t r = 0; r < h->ps.ncprow; r++) {
		size_t n = rkeys(h, (uint32_t)r, &buf, &cap);

		for (size_t i = 0; i < n; i++)
			c->off[buf[i] + 1]++;
		total += n;
	}
	for (size_t k = 0; k < nkeys; k++)
		c->off[k + 1] += c->off[k];
	c->row = xreallocarray(NULL, total + 1, sizeof *c->row);
	fill = xcalloc(nkeys + 1, sizeof *fill);
	for (size_t r = 0; r < h->ps.ncprow; r++) {
		size_t n = rkeys(h, (uint32_t)r, &buf, &cap);

		for (size_t i = 0; i < n; i++)
			c->row[c->off[buf[i]] + fill[buf[i]]++] = (uint32_t)r;
	}
	free(fill);
	free(buf);
}

static size_t
row_entry_key(const struct hist *h, uint32_t r, uint32_t **buf, size_t *cap)
{
	GROW(*buf, *cap, 1);
	(*buf)[0] = h->ps.cprow[r].entry & ~CP_NOCHAIN;
	return 1;
}

/* The distinct functions on row r's path. */
static size_t
row_func_keys(const struct hist *h, uint32_t r, uint32_t **buf, size_t *cap)
{
	size_t n = 0;

	for (uint32_t b = h->ps.cprow[r].node; h->ps.cp[b].parent != NONE32; b = h->ps.cp[b].parent) {
		uint32_t f = cpath_func_node(h, h->ps.cp[b].func);
		size_t i;

		/* with paths_address, a row of a sample without a chain holds a
		 * function node where an address node would be: no key */
		if (f >= h->nnode)
			continue;
		for (i = 0; i < n && (*buf)[i] != f; i++)
			;
		if (i < n)
			continue;
		GROW(*buf, *cap, n + 1);
		(*buf)[n++] = f;
	}
	return n;
}

/* The row indexes, (re)built when rows were added since. */
const struct cp_index *
cpath_row_index(struct hist *h)
{
	if (h->ps.cp_ix == NULL)
		h->ps.cp_ix = xcalloc(1, sizeof *h->ps.cp_ix);
	if (h->ps.cp_ix->nrows != h->ps.ncprow || h->ps.cp_ix->by_ent.nkeys != h->nent ||
	    h->ps.cp_ix->by_func.nkeys != h->nnode || h->ps.cp_ix->by_ent.off == NULL) {
		csr_build(h, &h->ps.cp_ix->by_ent, h->nent, row_entry_key);
		csr_build(h, &h->ps.cp_ix->by_func, h->nnode, row_func_keys);
		h->ps.cp_ix->nrows = h->ps.ncprow;
	}
	return h->ps.cp_ix;
}

void
cpath_free_base(struct hist *h)
{
	free(h->ps.cp);
	hmap_free(&h->ps.cp_tab);
	free(h->ps.cp_root);
	free(h->ps.cprow);
	hmap_free(&h->ps.cprow_tab);
	free(h->ps.chbr);
	free(h->ps.brraw);
	free(h->ps.cprow_br);
	free(h->ps.brc);
	free(h->ps.an);
	hmap_free(&h->ps.an_tab);
	for (int k = 0; k < 2; k++) {
		free(h->ps.pmemo[k].func);
		free(h->ps.pmemo[k].path);
	}
	if (!h->rc.pos_lent)
		free(h->rc.sample_row);
	if (h->ps.cp_ix != NULL) {
		csr_free(&h->ps.cp_ix->by_ent);
		csr_free(&h->ps.cp_ix->by_func);
		free(h->ps.cp_ix);
	}
}

void
cpath_stats(const struct hist *h, struct cpath_stats *st)
{
	st->nodes = h->ps.ncp;
	st->rows = h->ps.ncprow;
	st->bytes = h->ps.capcp * sizeof *h->ps.cp + h->ps.cp_tab.cap * sizeof *h->ps.cp_tab.slots +
	    h->ps.capcprow * sizeof *h->ps.cprow + h->ps.cprow_tab.cap * sizeof *h->ps.cprow_tab.slots;
}
