#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/hist_impl.h"
#include "symbolize/offcpu.h"
#include "symbolize/parallel.h"

/*
 * The histogram: construction, entries, crediting a sample to its entries
 * (hist_add_keys, hist_add) and the rows.  Its names (strings, events,
 * function nodes, frame keys) are hist_keys.c's; the other parts of
 * struct hist are listed in hist_impl.h.
 */

/* ---- construction ---- */

/* Own entries' memo slots (a power of two). */
#define SMEMO	4096

/* Are the keys among comm, pid, tid, dso and sym alone, with no entry tree (smemo)? */
static bool
simple_keys(const struct hist *h)
{
	const unsigned simple = HIST_KEEP(HIST_KEY_COMM) | HIST_KEEP(HIST_KEY_PID) |
	    HIST_KEEP(HIST_KEY_TID) | HIST_KEEP(HIST_KEY_DSO) | HIST_KEEP(HIST_KEY_SYM);

	return (h->ks.keymask & ~simple) == 0 && !h->ks.ipc_node && !h->ptr.ptree;
}

struct hist *
hist_new(const struct session *s, struct symbolizer *z, const struct hist_opts *o)
{
	struct hist *h = xcalloc(1, sizeof *h);

	h->s = s;
	h->z = z;
	h->o = *o;
	h->rc.pos_lo = SIZE_MAX;
	h->ps.pmemo[0].ev = h->ps.pmemo[1].ev = NONE32;
	h->ps.pmemo[0].row_node = h->ps.pmemo[1].row_node = NONE32;
	if (s != NULL) {
		struct perf_err err;

		origins_load(s, &h->org, &err);	/* damage: in the one origin's name */
	}
	if (h->o.nkeys == 0) {
		h->o.keys[0] = HIST_KEY_COMM;
		h->o.keys[1] = HIST_KEY_DSO;
		h->o.keys[2] = HIST_KEY_SYM;
		h->o.nkeys = 3;
	}
	for (unsigned i = 0; i < h->o.nkeys; i++) {
		const struct sortkey *k = &sortkeys[h->o.keys[i]];

		h->ks.keymask |= HIST_KEEP(h->o.keys[i]);
		h->ks.want_src |= k->srcline;
		h->ks.branch_keys |= k->branch;
		h->ks.mem_keys |= k->mem;
		h->ks.whole_sample |= k->whole_sample;
		if (k->per_frame)
			h->ks.fkeys[h->ks.nfkeys++] = k;
	}
	h->ks.node_memo_ok = (h->ks.keymask & HIST_KEEP(HIST_KEY_SYM)) != 0;
	for (unsigned i = 0; i < h->o.nkeys; i++)
		h->ks.ipc_node |= h->o.mem_mode && !(h->ks.keymask & HIST_KEEP(HIST_KEY_SYM)) &&
		    strstr(sortkeys[h->o.keys[i]].name, "sym") != NULL;
	for (unsigned i = 0; i < h->o.nkeys; i++)
		if (sortkeys[h->o.keys[i]].per_frame && h->o.keys[i] != HIST_KEY_DSO &&
		    h->o.keys[i] != HIST_KEY_SYM)
			h->ks.node_memo_ok = false;
	h->ptr.ptree = hist_ptree_wanted(h);
	if (simple_keys(h)) {
		h->ks.smemo = xreallocarray(NULL, SMEMO, sizeof *h->ks.smemo);
		memset(h->ks.smemo, 0xff, SMEMO * sizeof *h->ks.smemo);
	}
	hist_intern(h, "");
	return h;
}

void
hist_free(struct hist *h)
{
	if (h == NULL)
		return;
	strtab_free(&h->strs);
	origins_free(&h->org);
	read_state_free(&h->wk.rs);
	tpevent_free(h->wk.tp);
	free(h->ev);
	free(h->ev_of_attr);
	free(h->ev_order);
	free(h->ent);
	hmap_free(&h->ent_tab);
	free(h->xk);
	hmap_free(&h->xk_tab);
	free(h->ks.ctxk);
	hmap_free(&h->ks.ctx_tab);
	free(h->ks.smemo);
	free(h->node);
	hmap_free(&h->node_tab);
	hmap_free(&h->ks.phys_lab_of);
	hmap_free(&h->ks.dcl_lab_of);
	hist_walk_drop(h);
	free(h->tn);
	hmap_free(&h->tn_tab);
	free(h->why);
	free(h->why_of_dso);
	free(h->wk.pe);
	free(h->wk.as_gone);
	hmap_free(&h->wk.pe_tab);
	free(h->wk.tc);
	free(h->wk.comm_id);
	free(h->rows);
	free(h->wk.chain);
	free(h->wk.path);
	if (h->wk.trace_chains != NULL)
		h->wk.trace_src->free(h->wk.trace_chains);
	if (!h->rc.pos_lent)
		free(h->rc.sample_ent);
	hist_scope_free(h);
	cpath_free_base(h);
	free(h->mg.mrows);
	free(h->mg.mfirst);
	free(h->mg.mbest);
	free(h->mg.mbestv);
	free(h->mg.mout);
	free(h->mg.kof);
	free(h->mg.keys);
	hmap_free(&h->mg.ktab);
	free(h->mg.krow);
	perftree_free(&h->ptr.pt);
	free(h->ptr.pt_root);
	free(h->ptr.pt_sym);
	free(h->ptr.pt_dso);
	free(h->ptr.pt_seen);
	free(h);
}

void
hist_count_why(struct hist *h, const struct fkey *k, bool chain, uint64_t n)
{
	size_t d;
	struct hist_why *w;

	if (k->why == SYM_WHY_OK || k->why >= SYM_WHY_COUNT)
		return;
	d = k->dso == DSO_NONE ? 0 : (size_t)k->dso + 1;
	if (d >= h->capwdso) {
		size_t old = h->capwdso;

		GROW(h->why_of_dso, h->capwdso, d + 1);
		memset(h->why_of_dso + old, 0, (h->capwdso - old) * sizeof *h->why_of_dso);
	}
	if (h->why_of_dso[d] == 0) {
		GROW(h->why, h->capwhy, h->nwhy + 1);
		memset(&h->why[h->nwhy], 0, sizeof *h->why);
		h->why[h->nwhy].dso = k->dso;
		h->why_of_dso[d] = (uint32_t)++h->nwhy;
	}
	w = &h->why[h->why_of_dso[d] - 1];
	if (chain)
		w->chain[k->why] += n;
	else
		w->self[k->why] += n;
}

size_t
hist_whys(const struct hist *h, const struct hist_why **out)
{
	*out = h->why;
	return h->nwhy;
}

const struct brstat *
hist_branch_stat(const struct hist *h)
{
	return &h->ks.brstat;
}

void
hist_adopt_index(struct hist *h)
{
	hmap_reserve(&h->node_tab, h->nnode);
	hmap_reserve(&h->ent_tab, h->nent);
	for (size_t i = 0; i < h->nnode; i++) {
		const struct hist_node *n = &h->node[i];
		bool sym = n->f.sym != SYM_NONE;
		uint64_t a = sym ? n->f.dso : UINT64_MAX, b = sym ? n->f.sym : n->f.rel;

		/* as hist_node_find hashes it */
		hmap_add(&h->node_tab, (a - n->owner) * UINT64_C(0x9e3779b97f4a7c15) ^ b, (uint32_t)i);
	}
	for (size_t i = 0; i < h->nent; i++)
		hmap_add(&h->ent_tab, ent_hash(&h->ent[i]), (uint32_t)i);
}

void
hist_tables_make(struct hist *h)
{
	if (!h->tabs_lazy)
		return;
	h->tabs_lazy = false;
	hist_adopt_index(h);
	cpath_adopt(h);
}

/* ---- entries ---- */

/* hmap_eq_fn: are the values of xkey id those sought (ctx)? */
static bool
xkey_eq(const void *ctx, uint32_t id)
{
	const struct hist_xkey *const *w = ctx;

	return memcmp(&w[0][id], w[1], sizeof **w) == 0;
}

/* The values of xkey id 0: every one 0. */
static const struct hist_xkey xkey_zero;

const struct ent_full hist_ent_full_zero;
const struct hist_entry hist_entry_zero;

uint32_t
hist_xkey_id(struct hist *h, const struct hist_xkey *x)
{
	const struct hist_xkey *w[2] = { h->xk, x };
	uint64_t hash;
	uint32_t id;

	if (memcmp(x, &xkey_zero, sizeof *x) == 0)
		return 0;
	if (h->xk_last < h->nxk && memcmp(&h->xk[h->xk_last], x, sizeof *x) == 0)
		return h->xk_last;
	hash = hash_bytes(x, sizeof *x);
	id = hmap_find(&h->xk_tab, hash, xkey_eq, w);
	if (id == HMAP_NONE) {
		if (h->nxk == 0) {	/* [0]: the values of id 0 */
			GROW(h->xk, h->capxk, 1);
			h->xk[h->nxk++] = xkey_zero;
		}
		GROW(h->xk, h->capxk, h->nxk + 1);
		h->xk[h->nxk] = *x;
		id = (uint32_t)h->nxk++;
		hmap_add(&h->xk_tab, hash, id);
	}
	h->xk_last = id;
	return id;
}

/* The browser's table holds an entry per function and thread (with children): keep it small. */
_Static_assert(sizeof(struct hist_entry) <= 104, "an entry is its common keys, counts, labels");

const struct hist_xkey *
hist_entry_xkey(const struct hist *h, const struct hist_entry *e)
{
	return e->xkey != 0 && e->xkey < h->nxk ? &h->xk[e->xkey] : &xkey_zero;
}

/* The entry keyed as packed key k (counts 0), created on first use. */
static struct hist_entry *
ent_get_packed(struct hist *h, const struct hist_entry *k)
{
	uint64_t hash = ent_hash(k);
	struct ent_memo *m = &h->ememo[hash & (ENT_MEMO - 1)];
	struct ent_want w = { h->ent, k };
	uint32_t id;
	struct hist_entry *e;

	/* consecutive samples mostly credit the same entries: a small table first */
	if (m->hash == hash && m->id < h->nent && ent_eq(&w, m->id))
		return &h->ent[m->id];
	id = hmap_find(&h->ent_tab, hash, ent_eq, &w);
	if (id != HMAP_NONE) {
		m->hash = hash;
		m->id = id;
		return &h->ent[id];
	}
	GROW(h->ent, h->capent, h->nent + 1);
	e = &h->ent[h->nent];
	memset(e, 0, sizeof *e);
	memcpy(e, k, ENT_KEY_BYTES);
	m->hash = hash;
	m->id = (uint32_t)h->nent;
	hmap_add(&h->ent_tab, hash, (uint32_t)h->nent++);
	return e;
}

struct hist_entry *
hist_ent_get(struct hist *h, const struct ent_full *k)
{
	struct hist_entry p;

	hist_tables_need(h);
	ent_pack_key(h, k, &p);
	return ent_get_packed(h, &p);
}

const struct hist_entry *
hist_entry_get(const struct hist *h, uint32_t id)
{
	return id < h->nent ? &h->ent[id] : NULL;
}
/* ---- adding samples ---- */

/* The number of the context of own entry own: its keys but the per-frame DSO and node. */
static uint32_t
chain_ctx(struct hist *h, const struct hist_entry *own)
{
	struct hist_entry c = hist_entry_zero;
	uint64_t hash;
	struct ent_want w = { h->ks.ctxk, &c };
	uint32_t id;

	memcpy(&c, own, ENT_KEY_BYTES);	/* the sample's key, packed: found by it */
	c.dso = 0;
	c.node = 0;
	if (h->ks.ctx_last != 0 && h->ks.ctx_last <= h->ks.nctx && ent_eq(&w, h->ks.ctx_last - 1))
		return h->ks.ctx_last - 1;
	hash = ent_hash(&c);
	id = hmap_find(&h->ks.ctx_tab, hash, ent_eq, &w);
	if (id == HMAP_NONE) {
		GROW(h->ks.ctxk, h->ks.capctx, h->ks.nctx + 1);
		h->ks.ctxk[h->ks.nctx] = c;
		id = (uint32_t)h->ks.nctx++;
		hmap_add(&h->ks.ctx_tab, hash, id);
	}
	h->ks.ctx_last = id + 1;
	return id;
}

/* A sample's key, made on first use (the frames' entries found through the memo need none). */
struct lazy_key {
	struct ent_full	 k;
	bool		 made;
	uint32_t	 ev;
	const struct key_src	*src;
};

static void sample_key(struct hist *h, uint32_t ev, const struct key_src *src, struct ent_full *k);

static struct ent_full *
lazy_key(struct hist *h, struct lazy_key *lk)
{
	if (!lk->made)
		sample_key(h, lk->ev, lk->src, &lk->k);
	lk->made = true;
	return &lk->k;
}

/* The entry of chain frame f in context ctx (lk: the sample's keys, its frame fields set here). */
static struct hist_entry *
chain_entry(struct hist *h, struct lazy_key *lk, struct key_src *fs, const struct fkey *f,
    uint32_t ctx)
{
	struct node_memo *m;
	struct hist_entry *e;
	struct ent_full *k;

	fs->f = f;
	if (ctx == NONE32 || f->node == NONE32) {
		k = lazy_key(h, lk);
		for (unsigned j = 0; j < h->ks.nfkeys; j++)
			h->ks.fkeys[j]->extract(k, fs);
		return hist_ent_get(h, k);
	}
	if (f->node >= h->ks.capnmemo) {
		size_t old = h->ks.capnmemo;

		GROW(h->ks.nmemo, h->ks.capnmemo, (size_t)f->node + 1);
		memset(h->ks.nmemo + old, 0xff, (h->ks.capnmemo - old) * sizeof *h->ks.nmemo);
	}
	m = &h->ks.nmemo[f->node];
	if (m->ctx[0] == ctx && m->dso[0] == f->dso)
		return &h->ent[m->ent[0]];
	if (m->ctx[1] == ctx && m->dso[1] == f->dso)
		return &h->ent[m->ent[1]];
	k = lazy_key(h, lk);
	for (unsigned j = 0; j < h->ks.nfkeys; j++)
		h->ks.fkeys[j]->extract(k, fs);
	e = hist_ent_get(h, k);
	m->ctx[1] = m->ctx[0];
	m->dso[1] = m->dso[0];
	m->ent[1] = m->ent[0];
	m->ctx[0] = ctx;
	m->dso[0] = f->dso;
	m->ent[0] = (uint32_t)(e - h->ent);
	return e;
}

/* Children by key: one entry per callchain frame, credited once per sample. */
static void
add_chain(struct hist *h, struct lazy_key *lk, const struct key_src *src, uint64_t period,
    const struct fkey *chain, size_t n)
{
	struct key_src fs = *src;
	uint32_t ctx = h->ks.node_memo_ok && n > 0 ? chain_ctx(h, &h->ent[h->rc.last_self]) : NONE32;

	for (size_t i = 0; i < n; i++) {
		struct hist_entry *e = chain_entry(h, lk, &fs, &chain[i], ctx);

		if (e->acc_samples == 0) {
			e->label_comm = src->comm;
			e->label_tid = src->tid;
			e->label_sym = chain[i].label;	/* a frame in no map: as perf, its first level */
		}
		if (e->stamp != h->stamp) {
			e->stamp = h->stamp;
			e->acc_period += period;
			e->acc_latency += src->latency;
			e->acc_samples++;
			hist_credit(h, (uint32_t)(e - h->ent), chain[i].label);
		}
	}
}

/*
 * With paths and each sample's row kept (the browser's hist), a row is one
 * own entry and one path of function nodes, all that its frames' entries
 * are keyed by (hist_scope.c), and a made row holds the entries its first
 * sample credited (hist_row_made), its own first: a later sample of the
 * row credits those, with no lookup per frame.  False (nothing done) when
 * the row is not made yet or rows do not hold their entries.
 */
static bool
credit_known_row(struct hist *h, uint32_t ev, const struct key_src *src, uint64_t period,
    const struct fkey *chain, size_t n)
{
	uint32_t r, a, b;

	if (!h->o.paths || h->o.paths_address || h->o.branch_history || h->ks.want_src ||
	    h->rc.sample_row == NULL || h->rc.no_rescope)
		return false;
	/* an address in no symbol is one node whatever its DSO (dso_mixed): with the DSO a key,
	 * such a frame's entry is not the path's, and goes frame by frame */
	if (h->ks.any_dso_mixed && (h->ks.keymask & HIST_KEEP(HIST_KEY_DSO)))
		for (size_t i = 0; i < n; i++)
			if (chain[i].node < h->nnode && h->node[chain[i].node].dso_mixed)
				return false;
	r = cpath_row_known(h, ev, src, chain, n, h->rc.last_self);
	if (r == NONE32 || r >= h->ps.ncprow || (size_t)r + 1 >= h->rc.caprowoff)
		return false;
	a = h->rc.rowent_off[r];
	b = h->rc.rowent_off[r + 1];
	if (a >= b || b > h->rc.nrowent || h->rc.rowent[a] != h->rc.last_self)
		return false;
	for (uint32_t i = a + 1; i < b; i++) {
		struct hist_entry *e = &h->ent[h->rc.rowent[i]];

		e->stamp = h->stamp;
		e->acc_period += period;
		e->acc_latency += src->latency;
		e->acc_samples++;
	}
	return true;
}

/* A sample's own key: event ev and every key's value from src. */
static void
sample_key(struct hist *h, uint32_t ev, const struct key_src *src, struct ent_full *k)
{
	*k = hist_ent_full_zero;
	k->event = ev;
	for (unsigned i = 0; i < h->o.nkeys; i++)
		sortkeys[h->o.keys[i]].extract(k, src);
	if (h->ks.ipc_node)
		k->node = src->f->node;
}

/*
 * With keys among comm, pid, tid, dso and sym (h->ks.smemo), a sample's own
 * entry by a hash of those values (as the extractors set them: 0 where not
 * a key) in the memo, checked against the entry's own fields; NULL when
 * not there, *slot then the slot for the entry found otherwise.
 */
static struct hist_entry *
own_entry_memo(struct hist *h, uint32_t ev, const struct key_src *src, uint32_t **slot)
{
	unsigned m = h->ks.keymask;
	uint32_t comm = m & HIST_KEEP(HIST_KEY_COMM) ? src->comm : 0;
	int32_t pid = m & (HIST_KEEP(HIST_KEY_PID) | HIST_KEEP(HIST_KEY_TID)) ? src->pid : 0;
	int32_t tid = m & HIST_KEEP(HIST_KEY_TID) ? src->tid : 0;
	uint32_t dso = m & HIST_KEEP(HIST_KEY_DSO) ? src->f->dso : 0;
	uint32_t node = m & HIST_KEEP(HIST_KEY_SYM) ? src->f->node : 0;
	uint64_t x = hash_mix64(((uint64_t)ev << 32 | comm) * UINT64_C(0x9e3779b97f4a7c15) ^
	    ((uint64_t)(uint32_t)pid << 32 | (uint32_t)tid)) ^ ((uint64_t)dso << 32 | node);
	uint32_t *s = &h->ks.smemo[hash_mix64(x) & (SMEMO - 1)];
	const struct hist_entry *e;

	*slot = s;
	if (*s >= h->nent)
		return NULL;
	e = &h->ent[*s];
	if (e->event != ev || e->comm != comm || e->pid != pid || e->tid != tid || e->dso != dso ||
	    e->node != node)
		return NULL;
	return &h->ent[*s];
}

/*
 * The core of both entry points: credit one sample (src: its values and
 * its own frame's keys) whose callchain frames are already reduced to keys.
 */
void
hist_add_keys(struct hist *h, uint32_t ev, const struct key_src *src, uint64_t period,
    const struct fkey *chain, size_t n)
{
	struct lazy_key lk;	/* its key made only if asked: not cleared here */
	struct hist_entry *e;
	const struct hist_opts *o = &h->o;
	uint32_t *slot = NULL;

	lk.made = false;
	lk.ev = ev;
	lk.src = src;
	if (++h->stamp == 0) {
		for (size_t i = 0; i < h->nent; i++)
			h->ent[i].stamp = 0;
		h->stamp = 1;
	}
	h->ev[ev].total_period += period;
	h->ev[ev].total_latency += src->latency;
	h->ev[ev].nsamples++;
	e = h->ks.smemo != NULL ? own_entry_memo(h, ev, src, &slot) : NULL;
	if (e == NULL) {
		struct ent_full *k = lazy_key(h, &lk);

		e = h->ptr.ptree ? hist_ptree_find(h, k) : hist_ent_get(h, k);
		if (slot != NULL)
			*slot = (uint32_t)(e - h->ent);
	}
	if (e->samples == 0 && e->acc_samples == 0) {
		e->label_comm = src->comm;
		e->label_tid = src->tid;
		e->label_sym = src->f->label;
		e->label_phys = src->phys_lab + 1;
		e->label_dcl = src->dcl_lab + 1;
	}
	h->rc.last_self = (uint32_t)(e - h->ent);
	h->rc.ncred = 0;
	hist_credit(h, h->rc.last_self, src->f->label);
	e->period += period;
	e->latency += src->latency;
	e->samples++;
	e->stamp = h->stamp;
	e->acc_period += period;
	e->acc_latency += src->latency;
	e->acc_samples++;
	hist_count_why(h, src->f, false, 1);
	for (size_t i = 0; i < n; i++)
		hist_count_why(h, &chain[i], true, 1);
	h->rc.cred_frames = false;
	if (o->children && h->ptr.ptree) {
		hist_ptree_add_chain(h, lazy_key(h, &lk), src, period, chain, n);
	} else if (o->children && !credit_known_row(h, ev, src, period, chain, n)) {
		add_chain(h, &lk, src, period, chain, n);
		h->rc.cred_frames = true;
	}
	if (o->callgraph)
		callgraph_add(h, ev, src, chain, n, period);
	if (o->paths)
		cpath_add(h, ev, src, chain, n, period, h->rc.last_self);
}

void
hist_add_delivery(struct hist *h, uint32_t ev, const struct key_src *src, uint64_t period,
    const struct fkey *chain, size_t n, size_t pos, size_t span)
{
	hist_add_keys(h, ev, src, period, chain, n);
	if (h->rc.sample_ent != NULL && (span == SIZE_MAX || !h->o.offcpu_beside))
		h->rc.sample_ent[pos] = h->rc.last_self;
	hist_keep_row(h, pos, span, h->ps.last_row, period);
}

void
hist_add_totals(struct hist *h, size_t pos, size_t span, uint32_t ev, uint64_t period,
    uint32_t par)
{
	h->ev[ev].total_period += period;
	if (h->o.parallel != NULL)
		h->ev[ev].total_latency += parallel_latency(period, par);
	h->ev[ev].nsamples++;
	if (h->rc.sample_row != NULL && ev >= 0xffff)
		h->rc.no_rescope = true;
	hist_keep_row(h, pos, span, ROW_TOTALS | (ev & 0xffff), period);
}

/* ---- results ---- */

static int
cmp_attr(const void *a, const void *b, void *arg)
{
	const struct hist *h = arg;
	int x = h->ev[*(const uint32_t *)a].attr, y = h->ev[*(const uint32_t *)b].attr;

	return (x > y) - (x < y);
}
/* Length of the last comm of the thread an entry was made for. */
static size_t
final_comm_len(const struct hist *h, const struct hist_entry *e)
{
	const struct thread_table *t;
	uint32_t th;
	char buf[32];

	if (h->s == NULL)
		return strlen(hist_str(h, e->label_comm));
	t = session_threads(h->s);
	th = thread_table_find(t, e->label_tid, UINT64_MAX);
	if (th == THREAD_NONE || t->v[th].last_comm == NONE32) {
		if (e->label_tid == 0)
			return strlen("swapper");
		return (size_t)snprintf(buf, sizeof buf, ":%" PRId32, e->label_tid);
	}
	return strlen(strtab_get(&t->strs, t->comms[t->v[th].last_comm].name));
}

/* Events with samples in attr order, and perf's Command column widths. */
static void
order_events(struct hist *h)
{
	free(h->ev_order);
	h->ev_order = xcalloc(h->nev + 1, sizeof *h->ev_order);
	h->nev_order = 0;
	for (size_t i = 0; i < h->nev; i++)
		if (h->ev[i].nsamples > 0)
			h->ev_order[h->nev_order++] = (uint32_t)i;
	qsort_r(h->ev_order, h->nev_order, sizeof *h->ev_order, cmp_attr, h);
}

/*
 * perf's width of a branch DSO column (its header's, 20, at least): an
 * entry whose end resolved to a symbol widens it to its DSO's name (a
 * longer name elsewhere is cut to it).
 */
static void
branch_dso_width(const struct hist *h, uint32_t node, uint32_t dso, uint32_t *width)
{
	size_t w = 20;

	if (node < h->nnode && h->node[node].f.sym != SYM_NONE && dso != DSO_NONE && h->z != NULL)
		w = strlen(symbolizer_dso_short(h->z, dso));
	if (w > *width)
		*width = (uint32_t)w;
}

void
hist_comm_widths(struct hist *h)
{
	for (size_t i = 0; i < h->nev; i++)
		h->ev[i].comm_width = h->ev[i].dso_from_width = h->ev[i].dso_to_width = 0;
	for (size_t i = 0; i < h->nent; i++) {
		const struct hist_entry *e = &h->ent[i];
		size_t w;

		if (e->samples == 0 && e->acc_samples == 0)
			continue;
		w = final_comm_len(h, e);
		if (w > h->ev[e->event].comm_width)
			h->ev[e->event].comm_width = (uint32_t)w;
		if (h->ks.branch_keys) {
			const struct hist_xkey *x = hist_entry_xkey(h, e);

			branch_dso_width(h, x->from_node, x->from_dso, &h->ev[e->event].dso_from_width);
			branch_dso_width(h, x->to_node, e->dso, &h->ev[e->event].dso_to_width);
		}
	}
}

void
hist_finish(struct hist *h)
{
	if (h->finished)
		return;
	h->finished = true;
	order_events(h);
	callgraph_sort_tree(h);
	hist_comm_widths(h);
}

void
hist_peek(struct hist *h)
{
	if (h->finished)
		return;
	order_events(h);
	hist_comm_widths(h);
}

uint32_t
hist_sample_entry(const struct hist *h, size_t pos)
{
	uint32_t r;

	if (h->s == NULL || pos >= session_index(h->s)->n)
		return NONE32;
	if (h->rc.sample_ent != NULL)
		return h->rc.sample_ent[pos];
	if (h->rc.sample_row == NULL || (r = h->rc.sample_row[pos]) == NONE32 ||
	    (r & ROW_TOTALS) == ROW_TOTALS || r >= h->ps.ncprow)
		return NONE32;
	/* with paths, a sample's row is (its path, its own entry) */
	return h->ps.cprow[r].entry & ~CP_NOCHAIN;
}

uint64_t
hist_sample_period(const struct hist *h, size_t pos)
{
	if (h->s == NULL || pos >= session_index(h->s)->n || h->rc.sample_row == NULL ||
	    h->rc.sample_row[pos] == NONE32)
		return 0;
	if (h->rc.sample_p64 != NULL)
		return h->rc.sample_p64[pos];
	return h->rc.sample_p32 != NULL ? h->rc.sample_p32[pos] : 0;
}

const struct hist_opts *
hist_opts(const struct hist *h)
{
	return &h->o;
}

size_t
hist_nevents(const struct hist *h)
{
	return h->nev_order;
}

const struct hist_event *
hist_event(const struct hist *h, size_t i)
{
	return i < h->nev_order ? &h->ev[h->ev_order[i]] : NULL;
}

bool
hist_event_clock(const struct hist *h, size_t ev)
{
	const char *name = ev < h->nev_order ? hist_str(h, hist_event(h, ev)->name) : "";

	return strncmp(name, "cpu-clock", 9) == 0 || strncmp(name, "task-clock", 10) == 0;
}

bool
hist_event_in_ns(const struct hist *h, size_t ev)
{
	return hist_event_clock(h, ev) ||
	    (ev < h->nev_order && strcmp(hist_str(h, hist_event(h, ev)->name), OFFCPU_EVENT_NAME) == 0);
}

int
hist_event_find(const struct hist *h, const char *name)
{
	for (size_t i = 0; i < h->nev_order; i++)
		if (strcmp(hist_str(h, h->ev[h->ev_order[i]].name), name) == 0)
			return (int)i;
	return -1;
}

double
hist_self_pct(const struct hist *h, const struct hist_entry *e)
{
	uint64_t t = h->ev[e->event].total_period;

	return t ? 100.0 * (double)e->period / (double)t : 0.0;
}

double
hist_children_pct(const struct hist *h, const struct hist_entry *e)
{
	uint64_t t = h->ev[e->event].total_period;

	return t ? 100.0 * (double)e->acc_period / (double)t : 0.0;
}

double
hist_self_lat_pct(const struct hist *h, const struct hist_entry *e)
{
	uint64_t t = h->ev[e->event].total_latency;

	return t ? 100.0 * (double)e->latency / (double)t : 0.0;
}

double
hist_children_lat_pct(const struct hist *h, const struct hist_entry *e)
{
	uint64_t t = h->ev[e->event].total_latency;

	return t ? 100.0 * (double)e->acc_latency / (double)t : 0.0;
}

/*
 * perf's row order: children (when shown), self, samples, then first seen;
 * by latency (perf's --latency sort keys: latency_children,
 * overhead_children, latency, overhead) each latency before its period.
 * The percent limit stays one of the period (hist_rows).
 */
int
hist_cmp_entries(const struct hist *h, const struct hist_entry *x, uint32_t ix,
    const struct hist_entry *y, uint32_t iy)
{
	bool lat = h->o.by_latency;

	if (lat && h->o.children && x->acc_latency != y->acc_latency)
		return x->acc_latency < y->acc_latency ? 1 : -1;
	if (h->o.children && x->acc_period != y->acc_period)
		return x->acc_period < y->acc_period ? 1 : -1;
	if (lat && x->latency != y->latency)
		return x->latency < y->latency ? 1 : -1;
	if (x->period != y->period)
		return x->period < y->period ? 1 : -1;
	if (x->samples != y->samples)
		return x->samples < y->samples ? 1 : -1;
	return (ix > iy) - (ix < iy);
}

static int
cmp_rows(const void *a, const void *b, void *arg)
{
	const struct hist *h = arg;
	uint32_t ia = *(const uint32_t *)a, ib = *(const uint32_t *)b;

	return hist_cmp_entries(h, &h->ent[ia], hist_ent_order(h, ia), &h->ent[ib], hist_ent_order(h, ib));
}

size_t
hist_rows(struct hist *h, size_t evi, double min_pct, const uint32_t **rows)
{
	size_t n = 0;
	uint32_t ev;

	*rows = NULL;
	if (evi >= h->nev_order)
		return 0;
	ev = h->ev_order[evi];
	GROW(h->rows, h->caprows, h->nent + 1);
	for (size_t i = 0; i < h->nent; i++) {
		const struct hist_entry *e = &h->ent[i];
		double pct;

		if (e->event != ev)
			continue;
		/* of the period even by latency: perf 6.15's hist_entry__get_percent_limit */
		pct = h->o.children ? hist_children_pct(h, e) : hist_self_pct(h, e);
		if (min_pct > 0 && pct < min_pct)
			continue;
		if (e->samples == 0 && (!h->o.children || e->acc_samples == 0))
			continue;
		h->rows[n++] = (uint32_t)i;
	}
	qsort_r(h->rows, n, sizeof *h->rows, cmp_rows, h);
	*rows = h->rows;
	return n;
}
