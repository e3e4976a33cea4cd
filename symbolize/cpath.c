#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/cpath.h"
#include "symbolize/hist_impl.h"
#include "symbolize/offcpu.h"

/*
 * Call paths (symbolize/cpath.h): the trees views ask for, built from the
 * rows the hist stored (cpath_store.c), at once or in steps (cpath_job).
 */

/* ---- trees for views ---- */

struct cpath {
	struct cpath_node	*v;
	size_t			 n, cap;
	struct hmap		 tab;		/* parent << 32 | func -> node */
	bool			 bottom_up;
	uint32_t		*row_leaf;	/* stored row -> node its path ended in */
	uint32_t		*flat_rank;	/* cpath_flat_ranks, made on first use */
	size_t			 nrow;
	struct brh_count	*br;		/* --branch-history: per node, or NULL */
	size_t			 capbr;
	uint64_t		*part;		/* with_ev2: per node, ev2's period; else NULL */
};

static uint32_t
tree_child(struct cpath *t, uint32_t parent, uint32_t func)
{
	uint64_t key = cp_pair_key(parent, func);
	uint32_t id = hmap_get(&t->tab, key);

	if (id != HMAP_NONE)
		return id;
	GROW(t->v, t->cap, t->n + 1);
	id = (uint32_t)t->n++;
	memset(&t->v[id], 0, sizeof t->v[id]);
	if (t->br != NULL) {
		GROW(t->br, t->capbr, t->n);
		memset(&t->br[id], 0, sizeof t->br[id]);
	}
	t->v[id].parent = parent;
	t->v[id].func = func;
	t->v[id].first_child = t->v[id].next_sibling = CPATH_NONE;
	t->v[id].depth = t->v[parent].depth + 1;
	hmap_set(&t->tab, key, id);
	return id;
}

/* Index of the first frame of func in p[0..n) (from the root side), or n. */
static size_t
first_of(const struct hist *h, const uint32_t *p, size_t n, uint32_t func)
{
	size_t i;

	for (i = 0; i < n && cpath_func_node(h, p[i]) != func; i++)
		;
	return i;
}

/* Does path element a stand for frame key k (a function node; by_line: an entry)? */
typedef bool (*elem_match)(const struct hist *h, uint32_t a, const void *k);

static bool
func_is(const struct hist *h, uint32_t a, const void *k)
{
	return cpath_func_node(h, a) == *(const uint32_t *)k;
}

/*
 * Cut path p[0..*n) (root first) at a frame that matches: keep from its
 * outermost one down (callers false: CPATH_FOCUS), or from the root to its
 * innermost one (callers: CPATH_CALLERS).  false when none matches.
 */
static bool
cut_at(const struct hist *h, uint32_t *p, size_t *n, bool callers, elem_match m, const void *k)
{
	size_t i;

	if (callers) {
		for (i = *n; i-- > 0;)
			if (m(h, p[i], k)) {
				*n = i + 1;
				return true;
			}
		return false;
	}
	for (i = 0; i < *n && !m(h, p[i], k); i++)
		;
	if (i == *n)
		return false;
	memmove(p, p + i, (*n - i) * sizeof *p);
	*n -= i;
	return true;
}

/*
 * Apply one transform to the path p[0..*n) (root first), in place; frames
 * compare by their function.  Returns false when the path goes.
 */
static bool
xform_path(const struct hist *h, const struct cpath_xform *x, uint32_t *p, size_t *n)
{
	size_t i, k;

	switch (x->op) {
	case CPATH_FOCUS:
	case CPATH_CALLERS:
		return cut_at(h, p, n, x->op == CPATH_CALLERS, func_is, &x->func);
	case CPATH_DROP:
		return first_of(h, p, *n, x->func) == *n;
	case CPATH_MERGE:
	case CPATH_NORECURSE:
		for (i = k = 0; i < *n; i++) {
			if (x->op == CPATH_MERGE ? cpath_func_node(h, p[i]) == x->func :
			    k > 0 && cpath_func_node(h, p[k - 1]) == cpath_func_node(h, p[i]))
				continue;
			p[k++] = p[i];
		}
		*n = k;
		return true;
	}
	return false;
}

/*
 * perf 6.1's key of a node among its siblings (callchain.c match_chain):
 * a node's children live in a tree ordered by that key, walked from the
 * greatest key down when they are sorted by weight, and an equal weight
 * goes after; so siblings of equal weight come by key, descending.
 */
struct sib_key {
	const char	*name;		/* function key, an inline level on either side: its name, */
	size_t		 nlen;		/* nlen bytes of it (no " (inlined)") */
	uint64_t	 start;		/* function key: the symbol's start (DSO's address space) */
	uint64_t	 ip;		/* the address as recorded (address key, unresolved) */
	uint32_t	 dso;		/* 0: no map (perf's NULL sorts lowest); else DSO id + 1 */
	bool		 sym, inl;
};

/*
 * The keys of t's nodes (by id).  perfnav's DSO ids are in the order perf
 * made its DSOs (the header's build ids, then the maps as met), which is
 * the order of perf's DSO pointers on the recordings we compare with.
 */
static struct sib_key *
sib_keys(const struct hist *h, const struct cpath *t)
{
	struct sib_key *k = xcalloc(t->n, sizeof *k);

	for (size_t i = 1; i < t->n; i++) {
		uint32_t f = t->v[i].func, nid = cpath_func_node(h, f);
		const struct hist_node *nd = nid < h->nnode ? &h->node[nid] : NULL;

		if (nd == NULL)
			continue;
		k[i].dso = nd->f.dso == DSO_NONE ? 0 : nd->f.dso + 1;
		k[i].ip = nd->f.ip;
		if (h->o.paths_address) {
			k[i].ip = f < h->ps.nan ? h->ps.an[f].ip : nd->f.ip;
			continue;
		}
		if (nd->f.sym == SYM_NONE)
			continue;
		k[i].sym = true;
		k[i].start = nd->f.rel - nd->f.symoff;
		k[i].inl = h->z != NULL && symbolizer_sym_inlined(h->z, nd->f.sym);
		k[i].name = symbolizer_label_name(hist_str(h, nd->label));
		k[i].nlen = strlen(k[i].name);
		if (k[i].nlen > 10 && strcmp(k[i].name + k[i].nlen - 10, " (inlined)") == 0)
			k[i].nlen -= 10;
	}
	return k;
}

#define CMP3(a, b)	((a) < (b) ? -1 : (a) > (b))

/* perf's match_chain of two siblings' keys (<0: x's key is less). */
static int
cmp_key(const struct sib_key *x, const struct sib_key *y)
{
	if (x->sym && y->sym && (x->inl || y->inl)) {
		/* inline levels on either side: by name (strcmp) */
		int c = memcmp(x->name, y->name, x->nlen < y->nlen ? x->nlen : y->nlen);

		if (c != 0 || x->nlen != y->nlen)
			return c != 0 ? c : CMP3(x->nlen, y->nlen);
	} else if (x->sym && y->sym) {
		if (x->dso != y->dso)
			return CMP3(x->dso, y->dso);
		return CMP3(x->start, y->start);
	}
	/* the address key, or a frame without a symbol on either side */
	if (x->dso != y->dso)
		return CMP3(x->dso, y->dso);
	return CMP3(x->ip, y->ip);
}

struct sib_ctx {
	const struct cpath	*t;
	const struct sib_key	*k;
};

/* Sibling lists, each by total period descending, then by perf's key descending, then by id. */
static int
cmp_nodes(const void *a, const void *b, void *arg)
{
	const struct sib_ctx *c = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const struct cpath_node *nx = &c->t->v[x], *ny = &c->t->v[y];
	int k;

	if (nx->parent != ny->parent)
		return nx->parent < ny->parent ? -1 : 1;
	if (nx->total_period != ny->total_period)
		return nx->total_period > ny->total_period ? -1 : 1;
	k = cmp_key(&c->k[y], &c->k[x]);
	if (k != 0)
		return k;
	return x < y ? -1 : x > y;
}

static void
link_children(const struct hist *h, struct cpath *t)
{
	uint32_t *ord;
	size_t m = t->n - 1;
	struct sib_ctx c = { t, NULL };
	struct sib_key *k;

	if (t->n < 2)
		return;
	k = sib_keys(h, t);
	c.k = k;
	ord = xreallocarray(NULL, m, sizeof *ord);
	for (size_t i = 0; i < m; i++)
		ord[i] = (uint32_t)(i + 1);
	qsort_r(ord, m, sizeof *ord, cmp_nodes, &c);
	/* Backwards, so each list comes out in order. */
	for (size_t i = m; i-- > 0;) {
		struct cpath_node *n = &t->v[ord[i]];

		n->next_sibling = t->v[n->parent].first_child;
		t->v[n->parent].first_child = ord[i];
	}
	free(ord);
	free(k);
}

/* Siblings by perf's key alone, descending, then by id (the order perf walks them in). */
static int
cmp_by_key(const void *a, const void *b, void *arg)
{
	const struct sib_ctx *c = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int k;

	if (c->t->v[x].parent != c->t->v[y].parent)
		return c->t->v[x].parent < c->t->v[y].parent ? -1 : 1;
	k = cmp_key(&c->k[y], &c->k[x]);
	return k != 0 ? k : (x < y ? -1 : x > y);
}

const uint32_t *
cpath_flat_ranks(const struct hist *h, struct cpath *t)
{
	struct sib_ctx c = { t, NULL };
	uint32_t *ord, *first, *next, *stack, rank = 0;
	size_t m = t->n - 1, sp = 0;

	if (t->flat_rank != NULL)
		return t->flat_rank;
	t->flat_rank = xcalloc(t->n, sizeof *t->flat_rank);
	if (t->n < 2)
		return t->flat_rank;
	c.k = sib_keys(h, t);
	ord = xreallocarray(NULL, m, sizeof *ord);
	for (size_t i = 0; i < m; i++)
		ord[i] = (uint32_t)(i + 1);
	qsort_r(ord, m, sizeof *ord, cmp_by_key, &c);
	first = xreallocarray(NULL, t->n, sizeof *first);
	next = xreallocarray(NULL, t->n, sizeof *next);
	memset(first, 0xff, t->n * sizeof *first);
	for (size_t i = m; i-- > 0;) {
		next[ord[i]] = first[t->v[ord[i]].parent];
		first[t->v[ord[i]].parent] = ord[i];
	}
	/* post order: a node after all below it, as perf's sort_chain_flat inserts */
	stack = xreallocarray(NULL, t->n, sizeof *stack);
	stack[sp++] = 0;
	while (sp > 0) {
		uint32_t at = stack[sp - 1];

		if (first[at] != CPATH_NONE) {
			uint32_t ch = first[at];

			first[at] = next[ch];	/* consumed */
			stack[sp++] = ch;
			continue;
		}
		t->flat_rank[at] = rank++;
		sp--;
	}
	free(stack);
	free(next);
	free(first);
	free(ord);
	free((void *)c.k);
	return t->flat_rank;
}

/* Do two entries agree on every key that is not a frame's? */
static bool
same_sample_keys(const struct hist_entry *a, const struct hist_entry *b)
{
	return a->event == b->event && a->comm == b->comm && a->pid == b->pid &&
	    a->tid == b->tid && a->cpu == b->cpu;
}

/*
 * Are the entries of h's frames told apart by source line too (address
 * paths, a srcline key)?  Then perf's --children graph of an entry starts
 * at the frame of the entry's line, not at any of its function.
 */
static bool
by_line(const struct hist *h)
{
	return h->o.paths_address && (h->ks.keymask & HIST_KEEP(HIST_KEY_SRCLINE));
}

/*
 * Does the query take row r?  Its entry's event must be internal event
 * ev.  0: no; 1: its whole path; 2: its part from q's entry's function on
 * (through).
 */
static int
row_taken(const struct hist *h, const struct cp_row *r, uint32_t ev, uint32_t ev2,
    const struct cpath_query *q)
{
	uint32_t entry = r->entry & ~CP_NOCHAIN;
	const struct hist_entry *e = &h->ent[entry];
	int how = 1;

	if (e->event != ev && e->event != ev2)
		return 0;
	if (q->chained_only && (r->entry & CP_NOCHAIN))
		return 0;
	if (q->entry != CPATH_NONE && entry != q->entry) {
		if (!q->through ||
		    !((h->ks.keymask & HIST_KEEP(HIST_KEY_SYM)) || by_line(h)) ||
		    !same_sample_keys(e, &h->ent[q->entry]))
			return 0;
		how = 2;
	}
	return hist_sel_entry(h, e, q->sel) ? how : 0;
}

/* The stored path of node leaf, root first, below the event's root: into *p; returns its length. */
static size_t
stored_path(const struct hist *h, uint32_t leaf, uint32_t **p, size_t *cap)
{
	size_t n = 0;

	for (uint32_t b = leaf; h->ps.cp[b].parent != NONE32; b = h->ps.cp[b].parent) {
		GROW(*p, *cap, n + 1);
		(*p)[n++] = h->ps.cp[b].func;
	}
	for (size_t i = 0; i < n / 2; i++) {
		uint32_t x = (*p)[i];

		(*p)[i] = (*p)[n - 1 - i];
		(*p)[n - 1 - i] = x;
	}
	return n;
}

/*
 * Insert one path (root first) with its weight and, with --branch-history,
 * the counts of its frames (rc, root first; else NULL); returns the node it
 * ends in.
 */
static uint32_t
insert_path(struct cpath *t, const uint32_t *p, size_t n, const struct cp_row *r,
    const struct brh_count *rc)
{
	uint32_t at = 0;

	t->v[0].total_period += r->period;
	t->v[0].total_samples += r->samples;
	for (size_t i = 0; i < n; i++) {
		size_t k = t->bottom_up ? n - 1 - i : i;

		at = tree_child(t, at, p[k]);
		t->v[at].total_period += r->period;
		t->v[at].total_samples += r->samples;
		if (rc != NULL)
			brhist_sum(&t->br[at], &rc[k]);
	}
	t->v[at].self_period += r->period;
	t->v[at].self_samples += r->samples;
	return at;
}

/*
 * The rows a query may take, as up to two lists: those of its entry, and
 * with through those whose path has the entry's function (rows of the
 * entry itself left to the first list); one list of every row (list NULL)
 * for other queries.  Returns the number of lists.
 */
struct row_lists {
	const uint32_t	*v[2];
	size_t		 n[2];
};

static int
row_lists(struct hist *h, const struct cpath_query *q, struct row_lists *l)
{
	const struct cp_index *ix;
	uint32_t f;

	memset(l, 0, sizeof *l);
	if (q->entry == CPATH_NONE || q->entry >= h->nent) {
		l->n[0] = h->ps.ncprow;
		return 1;
	}
	ix = cpath_row_index(h);
	l->v[0] = ix->by_ent.row + ix->by_ent.off[q->entry];
	l->n[0] = ix->by_ent.off[q->entry + 1] - ix->by_ent.off[q->entry];
	f = h->ent[q->entry].node;
	if (q->through && !(h->ks.keymask & HIST_KEEP(HIST_KEY_SYM)) && by_line(h)) {
		l->n[1] = h->ps.ncprow;	/* rows by line without a function: every row */
		return 2;
	}
	if (!q->through || !(h->ks.keymask & HIST_KEEP(HIST_KEY_SYM)) || f >= ix->by_func.nkeys)
		return 1;
	l->v[1] = ix->by_func.row + ix->by_func.off[f];
	l->n[1] = ix->by_func.off[f + 1] - ix->by_func.off[f];
	return 2;
}

/* Scratch of one build: a path, root first. */
struct build {
	struct hist		*h;
	struct cpath		*t;
	const struct cpath_query *q;
	uint32_t		 ev, ev2;	/* ev2: NONE32 without with_ev2 */
	uint32_t		*p;
	size_t			 capp;
};

/* Is address node a (a frame) one of entry k's, on the frame keys it has? */
static bool
line_of(const struct hist *h, uint32_t a, const void *k)
{
	const struct hist_entry *e = k;
	uint32_t nd;

	if (a >= h->ps.nan || h->ps.an[a].srcline != hist_entry_xkey(h, e)->srcline)
		return false;
	nd = h->ps.an[a].node;
	if (h->ks.keymask & HIST_KEEP(HIST_KEY_SYM))
		return nd == e->node;
	return !(h->ks.keymask & HIST_KEEP(HIST_KEY_DSO)) || (nd < h->nnode && h->node[nd].f.dso == e->dso);
}

/* Take stored row i into the tree if the query does. */
static void
take_row(struct build *b, size_t i)
{
	const struct hist *h = b->h;
	const struct cp_row *r = &h->ps.cprow[i];
	const struct brh_count *rc = NULL;
	int how = row_taken(h, r, b->ev, b->ev2, b->q);
	size_t n, n0;
	bool keep = true;

	if (how == 0 || r->samples == 0)	/* r->samples 0: outside hist_rescope's filter */
		return;
	n = n0 = stored_path(h, r->node, &b->p, &b->capp);
	if (b->t->br != NULL && i < h->ps.capcprow_br && h->ps.cprow_br[i] != NONE32)
		rc = h->ps.brc + h->ps.cprow_br[i];
	/*
	 * Through the entry (perf's --children graph): the part from the
	 * entry's function on, down to the leaf or up to the root.
	 */
	if (how == 2 && by_line(h)) {
		/* by_line: the part from the frame of the entry's line, as perf's entries by line */
		keep = cut_at(h, b->p, &n, b->q->bottom_up, line_of, &h->ent[b->q->entry]);
		if (rc != NULL && !b->q->bottom_up)
			rc += n0 - n;
	} else if (how == 2) {
		struct cpath_xform part = { b->q->bottom_up ? CPATH_CALLERS : CPATH_FOCUS,
			b->h->ent[b->q->entry].node };

		keep = xform_path(b->h, &part, b->p, &n);
		if (rc != NULL && !b->q->bottom_up)
			rc += n0 - n;	/* the focus cut the root side */
	}
	for (size_t j = 0; j < b->q->nxf && keep; j++)
		keep = xform_path(b->h, &b->q->xf[j], b->p, &n);
	if (keep)
		b->t->row_leaf[i] = insert_path(b->t, b->p, n, r, rc);
}

/* with_ev2: each node's part that is ev2's, from the rows the tree took of it. */
static void
part_of_ev2(const struct hist *h, struct cpath *t, uint32_t ev2)
{
	t->part = xcalloc(t->n + 1, sizeof *t->part);
	for (size_t r = 0; r < t->nrow && r < h->ps.ncprow; r++) {
		const struct cp_row *cr = &h->ps.cprow[r];

		if (t->row_leaf[r] == CPATH_NONE || h->ent[cr->entry & ~CP_NOCHAIN].event != ev2)
			continue;
		for (uint32_t at = t->row_leaf[r]; at != CPATH_NONE; at = t->v[at].parent)
			t->part[at] += cr->period;
	}
}

uint64_t
cpath_node_part(const struct cpath *t, uint32_t id)
{
	return t->part != NULL && id < t->n ? t->part[id] : 0;
}

/* A build in steps: the query and its parts copied, the rows taken so far. */
struct cpath_job {
	struct build		 b;
	struct cpath_query	 q;
	struct hist_select	 sel;
	struct cpath_xform	*xf;
	struct row_lists	 l;
	int			 nl;
	int			 list;		/* the row list being taken; nl: the rows are in */
	size_t			 k;		/* the next row of it */
	size_t			 total, taken;	/* rows of every list, taken so far */
	bool			 done;
};

struct cpath_job *
cpath_job_new(struct hist *h, const struct cpath_query *q)
{
	struct cpath_job *j = xcalloc(1, sizeof *j);
	struct cpath *t = xcalloc(1, sizeof *t);

	j->q = *q;
	if (q->sel != NULL) {
		j->sel = *q->sel;
		j->q.sel = &j->sel;
	}
	if (q->nxf > 0) {
		j->xf = xreallocarray(NULL, q->nxf, sizeof *j->xf);
		memcpy(j->xf, q->xf, q->nxf * sizeof *j->xf);
		j->q.xf = j->xf;
	}
	j->b = (struct build){ .h = h, .t = t, .q = &j->q };
	t->bottom_up = q->bottom_up;
	GROW(t->v, t->cap, 1);
	memset(&t->v[0], 0, sizeof t->v[0]);
	if (h->o.branch_history && q->nxf == 0) {
		GROW(t->br, t->capbr, 1);
		memset(&t->br[0], 0, sizeof t->br[0]);
	}
	t->v[0].parent = t->v[0].func = CPATH_NONE;
	t->v[0].first_child = t->v[0].next_sibling = CPATH_NONE;
	t->n = 1;
	t->nrow = h->ps.ncprow;
	t->row_leaf = xreallocarray(NULL, t->nrow + 1, sizeof *t->row_leaf);
	memset(t->row_leaf, 0xff, (t->nrow + 1) * sizeof *t->row_leaf);
	if (q->ev >= h->nev_order) {
		j->done = true;
		return j;
	}
	j->b.ev = h->ev_order[q->ev];
	j->b.ev2 = q->with_ev2 && q->ev2 < h->nev_order ? h->ev_order[q->ev2] : NONE32;
	j->nl = row_lists(h, &j->q, &j->l);
	for (int i = 0; i < j->nl; i++)
		j->total += j->l.n[i];
	return j;
}

bool
cpath_job_step(struct cpath_job *j, size_t nrows)
{
	struct hist *h = j->b.h;

	while (!j->done && nrows > 0) {
		size_t r;

		if (j->list == j->nl) {
			if (j->b.ev2 != NONE32)
				part_of_ev2(h, j->b.t, j->b.ev2);
			link_children(h, j->b.t);
			j->done = true;
			break;
		}
		if (j->k == j->l.n[j->list]) {
			j->list++;
			j->k = 0;
			continue;
		}
		r = j->l.v[j->list] ? j->l.v[j->list][j->k] : j->k;
		j->k++;
		j->taken++;
		nrows--;
		/* rows through the entry's function: the entry's own are in the first list */
		if (j->list == 1 && (h->ps.cprow[r].entry & ~CP_NOCHAIN) == j->q.entry)
			continue;
		take_row(&j->b, r);
	}
	return j->done;
}

double
cpath_job_share(const struct cpath_job *j)
{
	if (j->done)
		return 1.0;
	return (double)j->taken / (double)(j->total + 1);	/* + 1: linking the tree */
}

struct cpath *
cpath_job_take(struct cpath_job *j)
{
	struct cpath *t;

	cpath_job_step(j, SIZE_MAX);
	t = j->b.t;
	j->b.t = NULL;
	cpath_job_free(j);
	return t;
}

void
cpath_job_free(struct cpath_job *j)
{
	if (j == NULL)
		return;
	cpath_free(j->b.t);
	free(j->b.p);
	free(j->xf);
	free(j);
}

struct cpath *
cpath_build(struct hist *h, const struct cpath_query *q)
{
	return cpath_job_take(cpath_job_new(h, q));
}

void
cpath_free(struct cpath *t)
{
	if (t == NULL)
		return;
	free(t->v);
	free(t->br);
	free(t->flat_rank);
	hmap_free(&t->tab);
	free(t->row_leaf);
	free(t->part);
	free(t);
}

size_t
cpath_count(const struct cpath *t)
{
	return t->n;
}

const struct cpath_node *
cpath_node(const struct cpath *t, uint32_t id)
{
	return id < t->n ? &t->v[id] : NULL;
}

const struct brh_count *
cpath_node_branch(const struct cpath *t, uint32_t id)
{
	return t->br != NULL && id < t->n ? &t->br[id] : NULL;
}

bool
cpath_bottom_up(const struct cpath *t)
{
	return t->bottom_up;
}

bool
cpath_view_self(const struct cpath *t, uint32_t id, uint64_t *period, uint64_t *samples)
{
	const struct cpath_node *n = cpath_node(t, id);

	*period = *samples = 0;
	if (n == NULL || (t->bottom_up && n->depth > 1))
		return false;
	*period = t->bottom_up && n->depth == 1 ? n->total_period : n->self_period;
	*samples = t->bottom_up && n->depth == 1 ? n->total_samples : n->self_samples;
	return true;
}

size_t
cpath_path(const struct cpath *t, uint32_t id, uint32_t *funcs, size_t max)
{
	size_t d;

	if (id >= t->n)
		return 0;
	d = t->v[id].depth;
	for (uint32_t at = id; at != 0; at = t->v[at].parent)
		if (t->v[at].depth - 1 < max)
			funcs[t->v[at].depth - 1] = t->v[at].func;
	return d;
}

uint32_t
cpath_find(const struct cpath *t, const uint32_t *funcs, size_t n)
{
	uint32_t at = 0;

	for (size_t i = 0; i < n && at != HMAP_NONE; i++)
		at = hmap_get(&t->tab, cp_pair_key(at, funcs[i]));
	return at == HMAP_NONE ? CPATH_NONE : at;
}

uint32_t
cpath_sample_node(const struct cpath *t, const struct hist *h, size_t pos)
{
	const struct offcpu *oc = h->o.offcpu;
	uint32_t r, at;

	if (h->rc.sample_row == NULL || h->s == NULL || pos >= session_index(h->s)->n)
		return CPATH_NONE;
	r = h->rc.sample_row[pos];
	at = r < t->nrow ? t->row_leaf[r] : CPATH_NONE;
	/* offcpu_beside: or the path of an off-CPU span switched out there */
	for (size_t k = at == CPATH_NONE && h->rc.span_row != NULL ? offcpu_lower(oc, pos) : SIZE_MAX;
	    k != SIZE_MAX && k < oc->n && oc->v[k].pos == pos && at == CPATH_NONE; k++)
		at = h->rc.span_row[k] < t->nrow ? t->row_leaf[h->rc.span_row[k]] : CPATH_NONE;
	return at;
}

uint32_t
cpath_span_node(const struct cpath *t, const struct hist *h, size_t k)
{
	const struct offcpu *oc = h->o.offcpu;
	uint32_t r;

	if (h->rc.span_row == NULL || oc == NULL || k >= oc->n)
		return CPATH_NONE;
	r = h->rc.span_row[k];
	return r < t->nrow ? t->row_leaf[r] : CPATH_NONE;
}

bool
cpath_through(const struct cpath *t, const struct hist *h, uint32_t at, uint32_t func)
{
	for (; at != CPATH_NONE && at < t->n && at != 0; at = t->v[at].parent)
		if (t->v[at].func == func || cpath_func_node(h, t->v[at].func) == func)
			return true;
	return false;
}

uint32_t
cpath_row_node(const struct cpath *t, size_t r)
{
	return r < t->nrow ? t->row_leaf[r] : CPATH_NONE;
}

bool
cpath_within(const struct cpath *t, uint32_t a, uint32_t b)
{
	if (a >= t->n || b >= t->n)
		return false;
	while (t->v[a].depth > t->v[b].depth)
		a = t->v[a].parent;
	return a == b;
}

uint64_t
cpath_addr_ip(const struct hist *h, uint32_t func)
{
	return h->o.paths_address && func < h->ps.nan ? h->ps.an[func].ip : 0;
}

uint32_t
cpath_func_node(const struct hist *h, uint32_t func)
{
	if (h->o.paths_address)
		return func < h->ps.nan ? h->ps.an[func].node : CPATH_NONE;
	return func;
}

const char *
cpath_func_name(const struct hist *h, uint32_t func, char *buf, size_t n)
{
	const struct hist_node *nd;

	if (h->o.paths_address) {
		snprintf(buf, n, "%s", func < h->ps.nan ? hist_str(h, h->ps.an[func].name) : "[unknown]");
		return buf;
	}
	nd = hist_node_get(h, func);

	if (nd == NULL)
		snprintf(buf, n, "[unknown]");
	else if (nd->f.sym != SYM_NONE)
		snprintf(buf, n, "%s", symbolizer_label_name(hist_str(h, nd->label)));
	else
		snprintf(buf, n, "%#" PRIx64, nd->f.rel);
	return buf;
}
