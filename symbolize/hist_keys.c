#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/hist_impl.h"
#include "symbolize/offcpu.h"
#include "symbolize/parallel.h"

/*
 * The hist's names, and the stage after the walk (hist_take): strings,
 * events, function nodes and frame keys.  The walk (hist_walk.c) hands on
 * a struct walked whose frames are frame cache ids; here each frame's keys
 * (its function node, its label in no map, its source line and inline
 * levels, asked of the symbolizer on first sight) are made once and
 * remembered with the frame (struct fcache), the sample's events and comm
 * named, and each delivery credited (hist_add_delivery, hist.c).  A sample goes core/record.c ->
 * hist_walk.c -> hist_keys.c -> hist.c (its entries, through the sort-key
 * table) -> callgraph.c / cpath.c (its paths) -> hist_scope.c (its row).
 */

/* ---- strings and events ---- */

uint32_t
hist_intern(struct hist *h, const char *str)
{
	return strtab_intern(&h->strs, str, strlen(str));
}

/* Event index for an attr, created on first use. */
uint32_t
hist_event_of(struct hist *h, int attr, const char *name)
{
	size_t a = attr < 0 ? 0 : (size_t)attr + 1;
	struct hist_event *e;

	if (a < h->capattr && h->ev_of_attr[a] != 0)
		return h->ev_of_attr[a] - 1;
	if (a >= h->capattr) {
		size_t old = h->capattr;

		GROW(h->ev_of_attr, h->capattr, a + 1);
		memset(h->ev_of_attr + old, 0, (h->capattr - old) * sizeof *h->ev_of_attr);
	}
	GROW(h->ev, h->capev, h->nev + 1);
	e = &h->ev[h->nev];
	memset(e, 0, sizeof *e);
	e->attr = attr;
	e->name = hist_intern(h, name ? name : "?");
	e->tree_root = NONE32;
	h->ev_of_attr[a] = (uint32_t)++h->nev;
	return (uint32_t)(h->nev - 1);
}

/* ---- function nodes ---- */

void
hist_label_frame(struct hist *h, const struct frame *f, char *buf, size_t n)
{
	if (h->z != NULL) {
		symbolizer_sym_label(h->z, f, buf, n);
		return;
	}
	if (f->sym != SYM_NONE)
		snprintf(buf, n, "[%c] s%" PRIu32, f->kernel ? 'k' : '.', f->sym);
	else
		snprintf(buf, n, "[%c] %#018" PRIx64, f->kernel ? 'k' : '.', f->kernel ? f->ip : f->rel);
}

static void
fold_frame(struct hist *h, const struct frame *f, char *buf, size_t n)
{
	if (f->sym != SYM_NONE)
		snprintf(buf, n, "%s", h->z ? symbolizer_sym_name(h->z, f->sym) : "");
	else if (f->dso != DSO_NONE && h->z && symbolizer_dso_short(h->z, f->dso)[0] == '[')
		snprintf(buf, n, "%s", symbolizer_dso_short(h->z, f->dso));
	else if (f->dso != DSO_NONE)
		snprintf(buf, n, "[%s]", h->z ? symbolizer_dso_short(h->z, f->dso) : "");
	else
		snprintf(buf, n, "[unknown]");
	if (h->z == NULL && f->sym != SYM_NONE)
		snprintf(buf, n, "s%" PRIu32, f->sym);
	else if (h->z == NULL && f->dso != DSO_NONE)
		snprintf(buf, n, "[d%" PRIu32 "]", f->dso);
	/* A ';' would split the frame in folded output. */
	for (char *p = buf; *p; p++)
		if (*p == ';')
			*p = ':';
}

/*
 * Room for a frame's label or folded name: its symbol's and its DSO's names
 * whole (a C++ name may run to thousands of bytes) and the marks around them.
 */
static size_t
frame_text_room(const struct hist *h, const struct frame *f)
{
	size_t n = 64;

	if (h->z != NULL && f->sym != SYM_NONE)
		n += strlen(symbolizer_sym_name(h->z, f->sym));
	if (h->z != NULL && f->dso != DSO_NONE)
		n += strlen(symbolizer_dso_short(h->z, f->dso));
	return n;
}

/* A new node's label and folded name, interned whole. */
static void
node_texts(struct hist *h, struct hist_node *nd)
{
	char sbuf[1024], *buf = sbuf;
	size_t n = frame_text_room(h, &nd->f);

	if (n > sizeof sbuf)
		buf = xmalloc(n);
	else
		n = sizeof sbuf;
	hist_label_frame(h, &nd->f, buf, n);
	nd->label = hist_intern(h, buf);
	fold_frame(h, &nd->f, buf, n);
	nd->fold = hist_intern(h, buf);
	if (buf != sbuf)
		free(buf);
}

/*
 * The node keyed (a, b): (DSO, symbol) for a resolved frame f, (UINT64_MAX,
 * address) for an unresolved one.  Returns its id, or NONE32 with *hash and
 * *slot set for inserting it.
 */
/* What hist_node_find() seeks (node_eq's ctx). */
struct node_want {
	const struct hist	*h;
	const struct frame	*f;
	uint64_t		 b;
	uint32_t		 owner;
};

/* hmap_eq_fn: is node id the one w seeks? */
static bool
node_eq(const void *ctx, uint32_t id)
{
	const struct node_want *w = ctx;
	const struct hist_node *c = &w->h->node[id];

	if (c->owner != w->owner)
		return false;	/* another event's own node */
	if (w->f->sym != SYM_NONE)
		return c->f.sym == w->f->sym && c->f.dso == w->f->dso;
	return c->f.sym == SYM_NONE && c->f.rel == w->b;
}

uint32_t
hist_node_find(struct hist *h, const struct frame *f, uint64_t a, uint64_t b, uint32_t owner,
    uint64_t *hash)
{
	struct node_want w = { h, f, b, owner };

	hist_tables_need(h);
	*hash = (a - owner) * UINT64_C(0x9e3779b97f4a7c15) ^ b;
	return hmap_find(&h->node_tab, *hash, node_eq, &w);
}

/*
 * The node of a frame.  A resolved function is (DSO, symbol); an
 * unresolved one is its address alone, as perf's symbol sort key compares
 * them: the address relative to the DSO for a sample's ip, the recorded
 * address for a callchain frame or branch target.  perf labels an
 * unmapped callchain frame with the level it inherits (sample_cpumode here:
 * hist_chain_cpumode's), and every branch target with the sample's [k]/[.].
 * The first frame that creates a node names it (an entry's own label,
 * hist_unmapped_label, is its first frame's).
 */
uint32_t
hist_node_of(struct hist *h, const struct frame *fin, enum node_mode mode, uint8_t sample_cpumode,
    uint32_t owner)
{
	bool chain = mode != NODE_SELF;
	struct frame f = *fin;
	uint64_t a, b, hash;
	uint32_t id;
	struct hist_node *nd;

	if (f.sym != SYM_NONE) {
		a = f.dso;
		b = f.sym;
	} else {
		if (chain)
			f.rel = f.ip;
	}
	if (mode == NODE_BRANCH || (mode == NODE_CHAIN && f.dso == DSO_NONE)) {
		f.cpumode = sample_cpumode;
		f.kernel = sample_cpumode == PERF_RECORD_MISC_KERNEL ||
		    sample_cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
	}
	if (f.sym == SYM_NONE) {
		a = UINT64_MAX;
		b = f.rel;
	}
	if (f.sym != SYM_NONE)
		owner = 0;
	id = hist_node_find(h, &f, a, b, owner, &hash);
	if (id != NONE32) {
		if (f.sym == SYM_NONE && h->node[id].f.dso != f.dso) {
			h->node[id].dso_mixed = true;	/* one address, several DSOs (processes) */
			h->ks.any_dso_mixed = true;
		}
		return id;
	}
	GROW(h->node, h->capnode, h->nnode + 1);
	nd = &h->node[h->nnode];
	nd->owner = owner;
	nd->dso_mixed = false;
	/* Keep the key in f.rel so the comparison above holds for both kinds. */
	if (f.sym == SYM_NONE)
		f.rel = b;
	nd->f = f;
	node_texts(h, nd);
	hmap_add(&h->node_tab, hash, (uint32_t)h->nnode);
	return (uint32_t)h->nnode++;
}

uint32_t
hist_unmapped_label(struct hist *h, const struct frame *fin, uint8_t cpumode)
{
	struct frame f = *fin;
	char buf[128];

	f.rel = f.ip;	/* a callchain frame: by its recorded address */
	f.cpumode = cpumode;
	f.kernel = cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
	hist_label_frame(h, &f, buf, sizeof buf);
	return hist_intern(h, buf) + 1;
}

/* perf's level letter of a cpumode (its hist entries' al->level on a host). */
static char
edge_level(uint8_t cpumode)
{
	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL:
		return 'k';
	case PERF_RECORD_MISC_USER:
		return '.';
	default:
		return 'H';
	}
}

char
hist_mem_level(uint8_t cpumode)
{
	return edge_level(cpumode);
}

uint32_t
hist_edge_node(struct hist *h, const struct frame *fin, bool daddr, uint8_t sample_cpumode)
{
	struct frame f = *fin;
	char lv = edge_level(sample_cpumode);
	uint32_t owner = !daddr ? NODE_OWNER_EDGE : NODE_OWNER_DADDR - (lv == '.' ? 0 : lv == 'k' ? 1 : 2);
	uint32_t id;
	uint64_t hash;
	char sbuf[1024], *buf = sbuf;
	size_t n = frame_text_room(h, fin);
	struct hist_node *nd;

	if (f.sym != SYM_NONE && !daddr)
		return hist_node_of(h, &f, NODE_SELF, sample_cpumode, 0);
	/* unresolved, or a data address: keyed by the recorded address */
	f.sym = SYM_NONE;
	f.rel = f.ip;
	id = hist_node_find(h, &f, UINT64_MAX, f.ip, owner, &hash);
	if (id != NONE32)
		return id;
	if (n > sizeof sbuf)
		buf = xmalloc(n);
	else
		n = sizeof sbuf;
	if (daddr && fin->sym != SYM_NONE && h->z != NULL && symbolizer_sym_object(h->z, fin->sym))
		snprintf(buf, n, "[%c] %s+0x%" PRIx64, lv,	/* perf: a data object's offset */
		    symbolizer_sym_name(h->z, fin->sym), fin->symoff);
	else if (daddr && fin->sym != SYM_NONE && h->z != NULL)
		snprintf(buf, n, "[%c] %s", lv, symbolizer_sym_name(h->z, fin->sym));
	else if (daddr)
		snprintf(buf, n, "[%c] %#.16" PRIx64, lv, f.ip);
	else if (fin->dso == DSO_NONE)
		snprintf(buf, n, "[H] %#.16" PRIx64, f.ip);
	else
		snprintf(buf, n, "[%c] %#.16" PRIx64, edge_level(fin->cpumode), fin->rel);
	GROW(h->node, h->capnode, h->nnode + 1);
	nd = &h->node[h->nnode];
	nd->owner = owner;
	nd->dso_mixed = false;
	nd->f = f;
	nd->label = hist_intern(h, buf);
	fold_frame(h, &f, buf, n);
	nd->fold = hist_intern(h, buf);
	if (buf != sbuf)
		free(buf);
	hmap_add(&h->node_tab, hash, (uint32_t)h->nnode);
	return (uint32_t)h->nnode++;
}

size_t
hist_nnodes(const struct hist *h)
{
	return h->nnode;
}

const struct hist_node *
hist_node_get(const struct hist *h, uint32_t id)
{
	return id < h->nnode ? &h->node[id] : NULL;
}

const char *
hist_str(const struct hist *h, uint32_t id)
{
	return strtab_get(&h->strs, id);
}

uint32_t
hist_srcline_of(struct hist *h, const struct frame *f)
{
	const char *sl = h->z ? symbolizer_srcline(h->z, f) : NULL;

	return hist_intern(h, sl ? sl : "??:0");
}

void
hist_frame_key(struct hist *h, const struct frame *f, bool chain, uint8_t sample_cpumode,
    struct fkey *out)
{
	out->dso = f->dso;
	out->why = f->why;
	out->label = chain && f->dso == DSO_NONE && f->sym == SYM_NONE ?
	    hist_unmapped_label(h, f, sample_cpumode) : 0;
	out->node = hist_node_of(h, f, chain ? NODE_CHAIN : NODE_SELF, sample_cpumode, 0);
	out->srcline = h->ks.want_src ? hist_srcline_of(h, f) : 0;
	out->anode = h->o.paths_address && chain ? cpath_anode(h, f, out->node) : 0;
}

/* ---- a walked sample ---- */

static void
cached_key(struct hist *h, uint32_t ci, enum node_mode mode, uint8_t sample_cpumode,
    struct fkey *out)
{
	struct fcache *c = &h->wk.fc[ci];
	uint32_t *node = &c->node[mode];

	if (*node == NONE32)
		*node = hist_node_of(h, &c->f, mode, sample_cpumode, 0);
	if (h->ks.want_src && c->srcline == NONE32)
		c->srcline = hist_srcline_of(h, &c->f);
	out->dso = c->f.dso;
	out->node = *node;
	out->srcline = h->ks.want_src ? c->srcline : 0;
	out->why = c->f.why;
	out->label = 0;
	if (mode == NODE_CHAIN && c->f.dso == DSO_NONE && c->f.sym == SYM_NONE) {
		/* its own label at the level it inherits (hist_chain_cpumode) */
		bool k = sample_cpumode == PERF_RECORD_MISC_KERNEL;

		if (c->lab[k] == 0) {
			uint32_t l = hist_unmapped_label(h, &c->f, sample_cpumode);

			c = &h->wk.fc[ci];
			c->lab[k] = l;
		}
		out->label = c->lab[k];
	}
	out->anode = 0;
	if (h->o.paths_address && mode == NODE_CHAIN) {
		if (c->anode == NONE32)
			c->anode = cpath_anode(h, &c->f, *node);
		out->anode = h->wk.fc[ci].anode;
	}
}

/*
 * The keys a callchain frame contributes: for a frame unwound from a
 * --call-graph dwarf stack, one per inline level (perf's append_inlines(),
 * asked once per cached address, in sample order as perf asks; perf's
 * entry tree asks in caller order first, see hist_add_range); else, or
 * without levels, the frame's own.  Appends to h->wk.chain[*k...]; returns the new
 * count.
 */
static size_t
chain_keys(struct hist *h, uint32_t ci, bool unwound, uint8_t sample_cpumode, size_t k)
{
	struct fcache *c = &h->wk.fc[ci];

	if (unwound && c->ninl == NONE32) {
		struct frame lv[64];
		size_t n = h->z ? symbolizer_inlines(h->z, &c->f, lv, sizeof lv / sizeof *lv) : 0;

		if (n > sizeof lv / sizeof *lv)
			n = sizeof lv / sizeof *lv;
		GROW(h->wk.inl, h->wk.capinl, h->wk.ninl + n + 1);
		for (size_t j = 0; j < n; j++)
			hist_frame_key(h, &lv[j], true, sample_cpumode, &h->wk.inl[h->wk.ninl + j]);
		c = &h->wk.fc[ci];
		c->inl = (uint32_t)h->wk.ninl;
		c->ninl = (uint32_t)n;
		h->wk.ninl += n;
	}
	if (!unwound || c->ninl == 0) {
		GROW(h->wk.chain, h->wk.capchain, k + 1);
		cached_key(h, ci, NODE_CHAIN, sample_cpumode, &h->wk.chain[k]);
		return k + 1;
	}
	GROW(h->wk.chain, h->wk.capchain, k + c->ninl);
	memcpy(&h->wk.chain[k], &h->wk.inl[c->inl], c->ninl * sizeof *h->wk.chain);
	return k + c->ninl;
}

/* The key of a branch endpoint or data address: its own node (hist_edge_node). */
static void
edge_key(struct hist *h, uint32_t ci, uint64_t addr, bool daddr, uint8_t cpumode, struct fkey *out)
{
	struct frame f = h->wk.fc[ci].f;

	f.ip = addr;	/* the cached frame's may be another address's */
	memset(out, 0, sizeof *out);
	out->dso = f.dso;
	out->why = f.why;
	if (!daddr && f.sym != SYM_NONE && h->wk.fc[ci].node[NODE_EDGE] != NONE32)
		out->node = h->wk.fc[ci].node[NODE_EDGE];
	else
		out->node = hist_edge_node(h, &f, daddr, cpumode);
	if (!daddr && f.sym != SYM_NONE)
		h->wk.fc[ci].node[NODE_EDGE] = out->node;
}

/*
 * Our string id for a walked comm: the thread table's comm index, or
 * NONE32 for a thread without one ("swapper" for tid 0, else ":TID").
 */
static uint32_t
comm_id(struct hist *h, uint32_t ci, int32_t tid)
{
	const struct thread_table *t;
	char buf[32];

	if (ci == NONE32) {
		if (tid == 0)
			return hist_intern(h, "swapper");
		snprintf(buf, sizeof buf, ":%" PRId32, tid);
		return hist_intern(h, buf);
	}
	if (ci >= h->wk.capcomm) {
		size_t old = h->wk.capcomm;

		GROW(h->wk.comm_id, h->wk.capcomm, (size_t)ci + 1);
		memset(h->wk.comm_id + old, 0, (h->wk.capcomm - old) * sizeof *h->wk.comm_id);
	}
	if (h->wk.comm_id[ci] == 0) {
		t = session_threads(h->s);
		h->wk.comm_id[ci] = hist_intern(h, strtab_get(&t->strs, t->comms[ci].name)) + 1;
	}
	return h->wk.comm_id[ci] - 1;
}

/*
 * perf report's branch mode (the default when the recording has branch
 * stacks): every branch entry of a sample is a row of period 1, at the
 * branch target (resolved as user, then kernel address: h->wk.br),
 * labelled with the sample's [k]/[.]; branch keys see its source and
 * target as perf's columns label them, and its cycles.
 */
static void
take_branches(struct hist *h, const struct walked *ws, struct key_src *src, uint32_t ev)
{
	for (size_t i = 0; i < ws->nbranch; i++) {
		struct branch_ent be = sample_branch(ws->smp, i);
		uint32_t c = h->wk.br[2 * i];
		struct fkey k, kf, kt;

		brstat_add(&h->ks.brstat, be.flags, be.from, be.to);
		cached_key(h, c, NODE_BRANCH, ws->cpumode, &k);
		src->f = &k;
		if (h->ks.branch_keys) {
			edge_key(h, c, be.to, false, ws->cpumode, &kt);
			edge_key(h, h->wk.br[2 * i + 1], be.from, false, ws->cpumode, &kf);
			src->from = &kf;
			src->to = &kt;
			src->cycles = BRF_CYCLES(be.flags);
		}
		hist_add_keys(h, ev, src, 1, NULL, 0);
	}
	src->from = src->to = NULL;
}

/*
 * perf report --mem-mode: with memory keys the data address's key, and
 * its PHYS_ADDR's text and cache line key for the keys that want them.
 */
static void
take_mem(struct hist *h, const struct walked *ws, struct key_src *src, struct fkey *dk)
{
	const struct sample *smp = ws->smp;

	if (ws->daddr == NONE32)
		return;
	edge_key(h, ws->daddr, smp->addr, true, ws->cpumode, dk);
	src->daddr = dk;
	if (h->ks.keymask & HIST_KEEP(HIST_KEY_PHYS_DADDR))
		src->phys_lab = hist_mem_phys(h, smp->phys_addr, ws->cpumode);
	if (h->ks.keymask & HIST_KEEP(HIST_KEY_DCACHELINE)) {
		struct frame f = h->wk.fc[ws->daddr].f;

		f.ip = smp->addr;	/* the cached frame's may be another address's */
		src->dcl = hist_mem_dcl(h, &f, src->pid, smp->time, ws->cpumode, &src->dcl_lab);
	}
}

/* The keys of a walked sample's callchain into h->wk.chain: their count. */
static size_t
take_chain(struct hist *h, const struct walked *ws)
{
	size_t n = 0;

	GROW(h->wk.chain, h->wk.capchain, ws->nchain + 1);
	if (h->wk.chain_prepass)
		for (size_t j = ws->nchain; j-- > 0;)
			(void)chain_keys(h, h->wk.cs[j], h->wk.ips[j].unwound, h->wk.lv[j], 0);
	for (size_t j = 0; j < ws->nchain; j++)
		n = chain_keys(h, h->wk.cs[j], h->wk.ips[j].unwound, h->wk.lv[j], n);
	return n;
}

void
hist_take(struct hist *h, struct walked *ws)
{
	struct key_src *src = &ws->src;
	uint32_t ev[READ_MAX];
	size_t n;

	for (size_t k = 0; k < ws->nd; k++)
		ev[k] = hist_event_of(h, ws->d[k].attr, ws->sp[k] != SIZE_MAX ? OFFCPU_EVENT_NAME :
		    session_attr_name(h->s, ws->d[k].attr));
	src->comm = comm_id(h, ws->comm, src->tid);
	src->trace = ws->trace != NULL ? hist_intern(h, ws->trace) + 1 : 0;
	if (!ws->kept) {
		/* perf's filters: out of the rows, in the totals */
		for (size_t k = 0; k < ws->nd; k++)
			hist_add_totals(h, ws->pos, ws->sp[k], ev[k], ws->d[k].period, src->par);
		return;
	}
	if (ws->branch_mode) {
		for (size_t k = 0; k < ws->nd; k++)
			take_branches(h, ws, src, ev[k]);
		return;
	}
	cached_key(h, ws->self, NODE_SELF, ws->cpumode, &ws->self_key);
	if (h->o.mem_mode)
		take_mem(h, ws, src, &ws->daddr_key);
	n = ws->nchain > 0 ? take_chain(h, ws) : 0;
	src->f = &ws->self_key;
	for (size_t k = 0; k < ws->nd; k++) {
		size_t sp = ws->sp[k];
		bool waker = (ws->waker_set >> k & 1) != 0;

		/* an off-CPU span's state and waker: their keys */
		src->state = sp != SIZE_MAX ? h->o.offcpu->v[sp].state + 1 : 0;
		src->waker_tid = waker ? ws->waker_tid[k] : 0;
		src->waker_comm = waker ? comm_id(h, ws->waker[k], ws->waker_tid[k]) + 1 : 0;
		if (h->o.parallel != NULL)
			src->latency = parallel_latency(ws->d[k].period, src->par);
		hist_add_delivery(h, ev[k], src, ws->d[k].period, h->wk.chain, n, ws->pos, sp);
	}
}

/* A sample given as resolved frames (Intel PT, tests): named, then credited. */
void
hist_add(struct hist *h, const struct hist_sample *smp)
{
	uint32_t ev;
	struct fkey self;
	struct key_src src;
	uint8_t cm = smp->self->cpumode;

	if (h->o.event >= 0 && smp->attr != h->o.event)
		return;
	memset(&src, 0, sizeof src);	/* no branch entry, no data address */
	h->rc.no_rescope = true;	/* no index position: hist_rescope cannot place it */
	/* The filter as the walk applies it (add_sample in hist_walk.c). */
	if (!filter_sample_ok(h->o.filter, smp->time, smp->has_cpu, smp->cpu))
		return;
	ev = hist_event_of(h, smp->attr, smp->event_name);
	src.par = smp->parallelism;
	src.latency = smp->parallelism ? parallel_latency(smp->period, smp->parallelism) : 0;
	if (h->o.filter != NULL &&
	    (!filter_entry_ok(h->o.filter, smp->pid, smp->tid, smp->comm) ||
	    !filter_par_ok(h->o.filter, smp->parallelism) ||
	    !filter_frame_ok(h->o.filter, h->z, smp->self))) {
		h->ev[ev].total_period += smp->period;
		h->ev[ev].total_latency += src.latency;
		h->ev[ev].nsamples++;
		return;
	}
	hist_frame_key(h, smp->self, false, cm, &self);
	if (smp->own_nodes && smp->self->sym == SYM_NONE) {
		char buf[128];

		self.node = hist_node_of(h, smp->self, NODE_SELF, cm, ev + 1);
		hist_label_frame(h, smp->self, buf, sizeof buf);
		self.label = hist_intern(h, buf) + 1;
	}
	GROW(h->wk.chain, h->wk.capchain, smp->nchain + 1);
	for (size_t j = 0, lv = cm; j < smp->nchain; j++) {
		/* the chain is callee first; perf's walk, in its order */
		size_t i = h->o.chain_root_first ? smp->nchain - 1 - j : j;

		lv = hist_chain_cpumode((uint8_t)lv, &smp->chain[i]);
		hist_frame_key(h, &smp->chain[i], true, (uint8_t)lv, &h->wk.chain[i]);
	}
	src.comm = hist_intern(h, smp->comm ? smp->comm : "");
	src.pid = smp->pid;
	src.tid = smp->tid;
	src.cpu = smp->cpu;
	src.trace = 0;	/* a hist_sample carries no payload */
	src.state = 0;
	src.waker_comm = 0;
	src.waker_tid = 0;
	src.f = &self;
	hist_add_keys(h, ev, &src, smp->period, h->wk.chain, smp->nchain);
}
