#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "symbolize/hist.h"
#include "symbolize/pt/intel_pt.h"
#include "symbolize/perftree.h"

/*
 * Tables are growable arrays of plain structs addressed by 32-bit ids;
 * lookups go through open-addressing hash tables of ids (slot = id + 1,
 * with the id's hash kept beside it so probing and growing never rehash).
 */
struct idtab {
	uint32_t	*slot;		/* id + 1, 0 empty */
	uint32_t	*hv;
	size_t		 cap, n;
};

#define NONE32	UINT32_MAX

/* A resolved address, cached per (address space, cpumode, ip). */
struct fcache {
	uint64_t	ip;
	int32_t		pid;		/* -1 for kernel lookups */
	uint32_t	epoch;
	uint8_t		cpumode;
	struct frame	f;
	uint32_t	node[3];		/* per enum node_mode, NONE32 until needed */
	uint32_t	srcline;		/* NONE32 until needed */
	uint32_t	inl;			/* callchain inline levels: first in h->inl, */
	uint32_t	ninl;			/* NONE32 until needed, 0: the frame itself */
};

/* What a frame contributes to entry keys. */
struct fkey {
	uint32_t	dso, node, srcline;
	uint8_t		why;
	uint32_t	label;		/* string id + 1 of a row label of its own, or 0 */
};

/* Per-thread comm cursor (samples come in time order). */
struct tcomm {
	uint32_t	ci;		/* current comm_ev index, NONE32 if none */
	uint32_t	id;		/* our string id for it */
};

struct pid_epoch {
	int32_t		pid;
	uint32_t	epoch;
};

/* What perf's sort keys compare of a function node (pt_cmp). */
struct pt_sym {
	uint32_t	 dso;		/* short name (string id); NONE32: no DSO */
	uint32_t	 name;		/* string id; NONE32: unresolved */
	uint64_t	 start, end;	/* the symbol's (an inlined one's: its function's) */
	uint64_t	 addr;		/* unresolved: the address perf keys it by */
	bool		 inl;
	bool		 ready;
};

struct hist {
	const struct session	*s;
	struct symbolizer	*z;
	struct hist_opts	 o;
	bool			 want_src;	/* srcline key used */
	bool			 want_sym;	/* sym key used */
	bool			 want_dso;

	struct strtab		 strs;

	struct hist_event	*ev;
	size_t			 nev, capev;
	uint32_t		*ev_of_attr;	/* attr -> event index + 1 */
	size_t			 capattr;
	uint32_t		*ev_order;	/* events with samples, by attr */
	size_t			 nev_order;

	struct hist_entry	*ent;
	size_t			 nent, capent;
	struct idtab		 ent_tab;

	struct hist_node	*node;
	size_t			 nnode, capnode;
	struct idtab		 node_tab;

	struct fcache		*fc;
	size_t			 nfc, capfc;
	struct idtab		 fc_tab;
	struct fkey		*inl;		/* inline levels of callchain frames */
	size_t			 ninl, capinl;

	struct hist_edge	*edge;
	size_t			 nedge, capedge;
	struct idtab		 edge_tab;

	struct hist_tnode	*tn;
	size_t			 ntn, captn;
	struct idtab		 tn_tab;

	struct hist_why		*why;
	size_t			 nwhy, capwhy;
	uint32_t		*why_of_dso;	/* dso + 1 -> why index + 1 */
	size_t			 capwdso;

	/* Address-space epochs: bumped by the records that change maps. */
	struct pid_epoch	*pe;
	size_t			 pecap, pen;
	uint32_t		 kepoch;

	struct tcomm		*tc;
	size_t			 captc;
	uint32_t		*comm_id;	/* comm_ev index -> string id + 1 */
	size_t			 capcomm;

	uint32_t		 stamp;
	bool			 finished;

	/*
	 * perf's entry tree (children with inlined frames, see use_ptree()):
	 * entries are found through one tree per event, by perf's comparison.
	 */
	bool			 ptree;
	struct perftree		 pt;
	uint32_t		*pt_root;	/* per event */
	size_t			 cappt_root;
	struct pt_sym		*pt_sym;	/* per node */
	size_t			 cappt_sym;
	uint32_t		*pt_dso;	/* per DSO: short name's string id + 1 */
	size_t			 cappt_dso;
	uint32_t		*pt_seen;	/* one sample's entries (perf's he_cache) */
	size_t			 cappt_seen;

	/* Scratch. */
	uint32_t		*rows;
	size_t			 caprows;
	struct hist_edge	*erows;
	size_t			 caperows;
	struct fkey		*chain;
	size_t			 capchain;
	struct chain_ip		*ips;		/* one sample's raw chain */
	size_t			 capips;
	/* Pages of the mapped file behind the pass are given back: [drop_lo,
	 * drop_hi) is what was read since the last time. */
	uint64_t		 drop_lo, drop_hi;
	uint32_t		*path;
	size_t			 cappath;
	uint32_t		*cs;		/* one sample's chain: cache ids */
	size_t			 capcs;

	/* record_self: the self entry of each sample, by index position */
	uint32_t		*sample_ent;
	uint32_t		 last_self;	/* the entry add_keys credited as self */

	/* hist_rows_merged() */
	struct hist_entry	*mrows;
	size_t			 capmrows;
	uint32_t		*mfirst, *mbest;
	size_t			 capmfirst;
	uint64_t		*mbestv;
	const struct hist_entry	**mout;
	size_t			 capmout;
};

/* ---- hashing ---- */


static void
idtab_grow(struct idtab *t)
{
	size_t ncap = t->cap ? t->cap * 2 : 1024;
	uint32_t *slot = xcalloc(ncap, sizeof *slot), *hv = xcalloc(ncap, sizeof *hv);

	for (size_t i = 0; i < t->cap; i++) {
		size_t j;

		if (t->slot[i] == 0)
			continue;
		j = t->hv[i] & (ncap - 1);
		while (slot[j] != 0)
			j = (j + 1) & (ncap - 1);
		slot[j] = t->slot[i];
		hv[j] = t->hv[i];
	}
	free(t->slot);
	free(t->hv);
	t->slot = slot;
	t->hv = hv;
	t->cap = ncap;
}

/* Make room for one insertion; then probe from hash & mask. */
static inline void
idtab_reserve(struct idtab *t)
{
	if ((t->n + 1) * 2 > t->cap)
		idtab_grow(t);
}

static inline void
idtab_put(struct idtab *t, size_t i, uint32_t hash, uint32_t id)
{
	t->slot[i] = id + 1;
	t->hv[i] = hash;
	t->n++;
}

static void
idtab_free(struct idtab *t)
{
	free(t->slot);
	free(t->hv);
	memset(t, 0, sizeof *t);
}

static uint32_t
intern(struct hist *h, const char *str)
{
	return strtab_intern(&h->strs, str, strlen(str));
}

/* ---- keys ---- */

static const struct {
	const char	*name, *header;
	int		 width;
} key_info[] = {
#define X(id, name, hdr, w) { name, hdr, w },
	HIST_KEYS(X)
#undef X
};

const char *
hist_key_name(enum hist_key k)
{
	return k < HIST_KEY_COUNT ? key_info[k].name : "?";
}

const char *
hist_key_header(enum hist_key k)
{
	return k < HIST_KEY_COUNT ? key_info[k].header : "?";
}

int
hist_key_width(enum hist_key k)
{
	return k < HIST_KEY_COUNT ? key_info[k].width : 0;
}

int
hist_parse_keys(const char *list, enum hist_key *keys, const char **bad, size_t *badlen)
{
	const char *p = list;
	int n = 0;

	while (*p) {
		size_t len = strcspn(p, ",");
		int k;

		for (k = 0; k < HIST_KEY_COUNT; k++)
			if (strlen(key_info[k].name) == len && strncmp(p, key_info[k].name, len) == 0)
				break;
		if (k == HIST_KEY_COUNT && len == 3 && strncmp(p, "tid", 3) == 0)
			k = HIST_KEY_TID;	/* perf's pid key is per thread */
		if (k == HIST_KEY_COUNT || n == HIST_MAX_KEYS) {
			*bad = p;
			*badlen = len;
			return -1;
		}
		keys[n++] = (enum hist_key)k;
		p += len;
		if (*p == ',')
			p++;
	}
	return n;
}

/* ---- construction ---- */

/*
 * Should entries be found through perf's tree (ent_find_perf) rather than
 * by key?  perf 6.1 files entries in a red-black tree whose symbol
 * comparison is by name when either side is an inlined frame and by
 * address otherwise; that is not a total order, so perf can miss an entry
 * it has and make a second one with the same name.  Inlined frames come
 * only from unwound --call-graph dwarf stacks, so: for children tables
 * keyed by sym over a session with user stacks, when the symbolizer
 * unwinds them.  Elsewhere perf's comparison is a total order that agrees
 * with the keys, and the keyed tables give perf's entries.  Only sort keys
 * perf compares in that one tree qualify: comm and srcline make perf merge
 * entries again in a second tree (its collapse pass), which is not
 * emulated, and perf has no "process" key.
 */
static bool
use_ptree(const struct hist *h)
{
	bool stacks = false;

	if (!h->o.children || !h->want_sym || h->s == NULL || h->z == NULL ||
	    !symbolizer_unwinds(h->z))
		return false;
	for (unsigned i = 0; i < h->o.nkeys; i++)
		if (h->o.keys[i] != HIST_KEY_SYM && h->o.keys[i] != HIST_KEY_DSO &&
		    h->o.keys[i] != HIST_KEY_CPU && h->o.keys[i] != HIST_KEY_TID)
			return false;
	for (size_t i = 0; i < h->s->attrs.n; i++)
		stacks |= (h->s->attrs.v[i].attr.sample_type & PERF_SAMPLE_STACK_USER) != 0;
	return stacks;
}

struct hist *
hist_new(const struct session *s, struct symbolizer *z, const struct hist_opts *o)
{
	struct hist *h = xcalloc(1, sizeof *h);

	h->s = s;
	h->z = z;
	h->o = *o;
	if (h->o.nkeys == 0) {
		h->o.keys[0] = HIST_KEY_COMM;
		h->o.keys[1] = HIST_KEY_DSO;
		h->o.keys[2] = HIST_KEY_SYM;
		h->o.nkeys = 3;
	}
	for (unsigned i = 0; i < h->o.nkeys; i++) {
		h->want_src |= h->o.keys[i] == HIST_KEY_SRCLINE;
		h->want_sym |= h->o.keys[i] == HIST_KEY_SYM;
		h->want_dso |= h->o.keys[i] == HIST_KEY_DSO;
	}
	h->ptree = use_ptree(h);
	intern(h, "");
	return h;
}

void
hist_free(struct hist *h)
{
	if (h == NULL)
		return;
	strtab_free(&h->strs);
	free(h->ev);
	free(h->ev_of_attr);
	free(h->ev_order);
	free(h->ent);
	idtab_free(&h->ent_tab);
	free(h->node);
	idtab_free(&h->node_tab);
	free(h->fc);
	free(h->inl);
	idtab_free(&h->fc_tab);
	free(h->edge);
	idtab_free(&h->edge_tab);
	free(h->tn);
	idtab_free(&h->tn_tab);
	free(h->why);
	free(h->why_of_dso);
	free(h->pe);
	free(h->tc);
	free(h->comm_id);
	free(h->rows);
	free(h->erows);
	free(h->chain);
	free(h->ips);
	free(h->path);
	free(h->cs);
	free(h->sample_ent);
	free(h->mrows);
	free(h->mfirst);
	free(h->mbest);
	free(h->mbestv);
	free(h->mout);
	perftree_free(&h->pt);
	free(h->pt_root);
	free(h->pt_sym);
	free(h->pt_dso);
	free(h->pt_seen);
	free(h);
}

/* Event index for an attr, created on first use. */
static uint32_t
event_of(struct hist *h, int attr, const char *name)
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
	e->name = intern(h, name ? name : "?");
	e->tree_root = NONE32;
	h->ev_of_attr[a] = (uint32_t)++h->nev;
	return (uint32_t)(h->nev - 1);
}

/* ---- function nodes ---- */

static void
label_frame(struct hist *h, const struct frame *f, char *buf, size_t n)
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

/* How a frame came to a sample: its ip, a callchain entry, a branch target. */
enum node_mode {
	NODE_SELF,
	NODE_CHAIN,
	NODE_BRANCH,
};

/*
 * The node keyed (a, b): (DSO, symbol) for a resolved frame f, (UINT64_MAX,
 * address) for an unresolved one.  Returns its id, or NONE32 with *hash and
 * *slot set for inserting it.
 */
static uint32_t
node_find(struct hist *h, const struct frame *f, uint64_t a, uint64_t b, uint32_t owner,
    uint32_t *hash, size_t *slot)
{
	uint64_t hh = hash_mix64((a - owner) * UINT64_C(0x9e3779b97f4a7c15) ^ b);
	uint32_t id;
	size_t i;

	*hash = (uint32_t)hh;
	idtab_reserve(&h->node_tab);
	i = *hash & (h->node_tab.cap - 1);
	while ((id = h->node_tab.slot[i]) != 0) {
		const struct hist_node *c = &h->node[id - 1];

		if (h->node_tab.hv[i] == *hash) {
			if (c->owner != owner) {
				/* another event's own node */
			} else if (f->sym != SYM_NONE) {
				if (c->f.sym == f->sym && c->f.dso == f->dso)
					return id - 1;
			} else if (c->f.sym == SYM_NONE && c->f.rel == b) {
				return id - 1;
			}
		}
		i = (i + 1) & (h->node_tab.cap - 1);
	}
	*slot = i;
	return NONE32;
}

/*
 * The node of a frame.  A resolved function is (DSO, symbol); an
 * unresolved one is its address alone, as perf's symbol sort key compares
 * them: the address relative to the DSO for a sample's ip, the recorded
 * address for a callchain frame or branch target.  perf labels an
 * unmapped callchain frame, and every branch target, with the sample's
 * [k]/[.].  The first frame that creates a node names it.
 */
static uint32_t
node_of(struct hist *h, const struct frame *fin, enum node_mode mode, uint8_t sample_cpumode,
    uint32_t owner)
{
	bool chain = mode != NODE_SELF;
	struct frame f = *fin;
	uint64_t a, b;
	uint32_t hash, id;
	size_t i;
	char buf[1024];
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
	id = node_find(h, &f, a, b, owner, &hash, &i);
	if (id != NONE32)
		return id;
	GROW(h->node, h->capnode, h->nnode + 1);
	nd = &h->node[h->nnode];
	nd->owner = owner;
	/* Keep the key in f.rel so the comparison above holds for both kinds. */
	if (f.sym == SYM_NONE)
		f.rel = b;
	nd->f = f;
	label_frame(h, &f, buf, sizeof buf);
	nd->label = intern(h, buf);
	fold_frame(h, &f, buf, sizeof buf);
	nd->fold = intern(h, buf);
	idtab_put(&h->node_tab, i, hash, (uint32_t)h->nnode);
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

static uint32_t
srcline_of(struct hist *h, const struct frame *f)
{
	const char *sl = h->z ? symbolizer_srcline(h->z, f) : NULL;

	return intern(h, sl ? sl : "??:0");
}

static void
count_why(struct hist *h, const struct fkey *k, bool chain, uint64_t n)
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

/* ---- entries ---- */

#define ENT_KEY_BYTES	offsetof(struct hist_entry, period)

static inline uint32_t
ent_hash(const struct hist_entry *k)
{
	uint64_t w[4];

	_Static_assert(ENT_KEY_BYTES == 32, "entry key is 32 bytes");
	memcpy(w, k, 32);
	return (uint32_t)hash_mix64(w[0] * 31 + hash_mix64(w[1] ^ hash_mix64(w[2] * 17 + w[3])));
}

static inline struct hist_entry *
ent_get(struct hist *h, const struct hist_entry *k)
{
	uint32_t hash = ent_hash(k), id;
	size_t i;
	struct hist_entry *e;

	idtab_reserve(&h->ent_tab);
	i = hash & (h->ent_tab.cap - 1);
	while ((id = h->ent_tab.slot[i]) != 0) {
		if (h->ent_tab.hv[i] == hash && memcmp(&h->ent[id - 1], k, ENT_KEY_BYTES) == 0)
			return &h->ent[id - 1];
		i = (i + 1) & (h->ent_tab.cap - 1);
	}
	GROW(h->ent, h->capent, h->nent + 1);
	e = &h->ent[h->nent];
	memset(e, 0, sizeof *e);
	memcpy(e, k, ENT_KEY_BYTES);
	idtab_put(&h->ent_tab, i, hash, (uint32_t)h->nent++);
	return e;
}

/* ---- perf's entry tree ---- */

/* Our string id of a DSO's short name, NONE32 for none. */
static uint32_t
pt_dso_name(struct hist *h, uint32_t dso)
{
	if (dso == DSO_NONE)
		return NONE32;
	if (dso >= h->cappt_dso) {
		size_t old = h->cappt_dso;

		GROW(h->pt_dso, h->cappt_dso, (size_t)dso + 1);
		memset(h->pt_dso + old, 0, (h->cappt_dso - old) * sizeof *h->pt_dso);
	}
	if (h->pt_dso[dso] == 0)
		h->pt_dso[dso] = intern(h, symbolizer_dso_short(h->z, dso)) + 1;
	return h->pt_dso[dso] - 1;
}

/* What perf's comparison sees of function node id. */
static const struct pt_sym *
pt_sym_of(struct hist *h, uint32_t id)
{
	struct pt_sym *p;
	const struct frame *f;
	uint32_t dso;

	if (id >= h->cappt_sym) {
		size_t old = h->cappt_sym;

		GROW(h->pt_sym, h->cappt_sym, (size_t)id + 1);
		memset(h->pt_sym + old, 0, (h->cappt_sym - old) * sizeof *h->pt_sym);
	}
	p = &h->pt_sym[id];
	if (p->ready)
		return p;
	f = &h->node[id].f;
	/* Our own copies: the symbolizer's string buffer moves as it grows. */
	p->dso = pt_dso_name(h, f->dso);
	p->name = NONE32;
	p->addr = f->rel;	/* node_of keeps an unresolved node's key there */
	if (f->sym != SYM_NONE) {
		p->name = intern(h, symbolizer_sym_name(h->z, f->sym));
		p->inl = symbolizer_sym_inlined(h->z, f->sym);
		if (symbolizer_sym_range(h->z, f->sym, &dso, &p->start, &p->end) != 0)
			p->start = p->end = 0;
	}
	p->ready = true;
	return p;
}

/* perf's cmp_null(): which of two possibly absent things sorts first. */
static int64_t
pt_null(const void *l, const void *r)
{
	if (l == NULL && r == NULL)
		return 0;
	return l == NULL ? -1 : 1;
}

/*
 * perf's dso key, old the entry in the tree, nw the one sought: short
 * names (perf compares long names only with -v), the sought one's first.
 */
static int64_t
pt_dso(const struct hist *h, uint32_t old, uint32_t nw)
{
	if (old == NONE32 || nw == NONE32)
		return pt_null(old == NONE32 ? NULL : h, nw == NONE32 ? NULL : h);
	return old == nw ? 0 : strcmp(hist_str(h, nw), hist_str(h, old));
}

/*
 * perf's sym key (sort__sym_cmp, _sort__sym_cmp): unresolved frames by
 * address; else the DSOs; then a symbol before no symbol; the same symbol
 * is equal; when either is inlined, by name, and equal names whose
 * functions overlap are equal; else by start, then end, higher first.
 */
static int64_t
pt_sym_cmp(struct hist *h, uint32_t old, uint32_t nw)
{
	const struct pt_sym *a, *b;
	int64_t c;

	if (old == nw)
		return 0;
	pt_sym_of(h, old);
	pt_sym_of(h, nw);	/* may move the array: take the pointers after */
	a = &h->pt_sym[old];
	b = &h->pt_sym[nw];
	if (a->name == NONE32 && b->name == NONE32)
		return (int64_t)(b->addr - a->addr);
	if ((c = pt_dso(h, a->dso, b->dso)) != 0)
		return c;
	if (a->name == NONE32 || b->name == NONE32)
		return pt_null(a->name == NONE32 ? NULL : a, b->name == NONE32 ? NULL : b);
	if (h->node[old].f.sym == h->node[nw].f.sym)
		return 0;
	if (a->inl || b->inl) {
		int r = a->name == b->name ? 0 : strcmp(hist_str(h, a->name), hist_str(h, b->name));

		if (r != 0)
			return r;
		if (a->start <= b->end && a->end >= b->start)
			return 0;
	}
	if (a->start != b->start)
		return (int64_t)(b->start - a->start);
	return (int64_t)(b->end - a->end);
}

/* perf's hist_entry__cmp(): every sort key in order, old in the tree. */
static int64_t
pt_cmp(struct hist *h, const struct hist_entry *old, const struct hist_entry *nw)
{
	int64_t c = 0;

	if (old->event != nw->event)	/* one tree per event: never */
		return old->event < nw->event ? 1 : -1;
	for (unsigned i = 0; i < h->o.nkeys && c == 0; i++) {
		switch (h->o.keys[i]) {
		case HIST_KEY_SYM:
			c = pt_sym_cmp(h, old->node, nw->node);
			break;
		case HIST_KEY_DSO:
			c = pt_dso(h, pt_dso_name(h, old->dso), pt_dso_name(h, nw->dso));
			break;
		case HIST_KEY_CPU:
			c = (int64_t)(int32_t)nw->cpu - (int64_t)(int32_t)old->cpu;
			break;
		case HIST_KEY_TID:
			c = (int64_t)nw->tid - (int64_t)old->tid;
			break;
		default:	/* use_ptree() lets no other key in */
			break;
		}
	}
	return c;
}

struct pt_search {
	struct hist		*h;
	const struct hist_entry	*k;
};

static int64_t
pt_search_cmp(void *arg, uint32_t old)
{
	struct pt_search *q = arg;

	return pt_cmp(q->h, &q->h->ent[old], q->k);
}

/*
 * The entry perf's tree gives for key k (perf's hists__findnew_entry()):
 * the one the search stops at, else a new one, linked where the search
 * ended.  Ids are those of the entry table; ent_tab is not used.
 */
static struct hist_entry *
ent_find_perf(struct hist *h, const struct hist_entry *k)
{
	struct pt_search q = { h, k };
	uint32_t id, parent;
	int side;
	struct hist_entry *e;

	if (k->event >= h->cappt_root) {
		size_t old = h->cappt_root;

		GROW(h->pt_root, h->cappt_root, (size_t)k->event + 1);
		for (size_t i = old; i < h->cappt_root; i++)
			h->pt_root[i] = PERFTREE_NONE;
	}
	id = perftree_find(&h->pt, h->pt_root[k->event], pt_search_cmp, &q, &parent, &side);
	if (id != PERFTREE_NONE)
		return &h->ent[id];
	GROW(h->ent, h->capent, h->nent + 1);
	e = &h->ent[h->nent];
	memset(e, 0, sizeof *e);
	memcpy(e, k, ENT_KEY_BYTES);
	perftree_insert(&h->pt, &h->pt_root[k->event], (uint32_t)h->nent, parent, side);
	h->nent++;
	return e;
}

const struct hist_entry *
hist_entry_get(const struct hist *h, uint32_t id)
{
	return id < h->nent ? &h->ent[id] : NULL;
}

/* ---- call graph: edges and the call tree ---- */

static void
edge_add(struct hist *h, uint32_t ev, int32_t pid, int32_t tid, uint32_t caller, uint32_t callee,
    uint64_t period)
{
	uint32_t hash = (uint32_t)hash_mix64(((uint64_t)caller << 32 | callee) ^ (uint64_t)ev << 17 ^
	    ((uint64_t)(uint32_t)tid << 32 | (uint32_t)pid) * 0x9e3779b97f4a7c15u), id;
	size_t i;
	struct hist_edge *e;

	idtab_reserve(&h->edge_tab);
	i = hash & (h->edge_tab.cap - 1);
	while ((id = h->edge_tab.slot[i]) != 0) {
		e = &h->edge[id - 1];
		if (e->caller == caller && e->callee == callee && e->event == ev && e->tid == tid &&
		    e->pid == pid)
			goto found;
		i = (i + 1) & (h->edge_tab.cap - 1);
	}
	GROW(h->edge, h->capedge, h->nedge + 1);
	e = &h->edge[h->nedge];
	memset(e, 0, sizeof *e);
	e->event = ev;
	e->caller = caller;
	e->callee = callee;
	e->pid = pid;
	e->tid = tid;
	idtab_put(&h->edge_tab, i, hash, (uint32_t)h->nedge++);
found:
	if (e->stamp != h->stamp) {
		e->stamp = h->stamp;
		e->period += period;
		e->samples++;
	}
}

static uint32_t
tnode_child(struct hist *h, uint32_t parent, uint32_t node, uint32_t name)
{
	uint32_t hash = (uint32_t)hash_mix64((uint64_t)parent << 32 ^ (uint64_t)node << 1 ^
	    (uint64_t)name * 0x9e3779b1u), id;
	size_t i;
	struct hist_tnode *t;

	idtab_reserve(&h->tn_tab);
	i = hash & (h->tn_tab.cap - 1);
	while ((id = h->tn_tab.slot[i]) != 0) {
		t = &h->tn[id - 1];
		if (t->parent == parent && t->node == node && t->name == name)
			return id - 1;
		i = (i + 1) & (h->tn_tab.cap - 1);
	}
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
	idtab_put(&h->tn_tab, i, hash, (uint32_t)h->ntn);
	return (uint32_t)h->ntn++;
}

static void
callgraph_add(struct hist *h, uint32_t ev, uint32_t comm, int32_t pid, int32_t tid,
    const struct fkey *self, const struct fkey *chain, size_t n, uint64_t period)
{
	struct hist_event *e = &h->ev[ev];
	uint32_t t;

	if (!h->o.edge_split)
		pid = tid = 0;

	if (n == 0) {
		chain = self;
		n = 1;
	}
	for (size_t i = 0; i + 1 < n; i++)
		edge_add(h, ev, pid, tid, chain[i + 1].node, chain[i].node, period);
	if (e->tree_root == NONE32)
		e->tree_root = tnode_child(h, NONE32, NONE32, e->name);
	t = e->tree_root;
	h->tn[t].inc_period += period;
	h->tn[t].inc_samples++;
	t = tnode_child(h, t, NONE32, comm);
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

/* ---- adding samples ---- */

/*
 * Children through perf's tree, as perf's cumulative iterator adds them:
 * after the sample's own entry (h->last_self), one entry per callchain
 * frame in caller order (outermost first, chain being leaf first), a
 * frame skipped when it compares equal to an entry this sample already
 * counts in.  k holds the sample's keys; its frame keys are overwritten.
 */
static void
add_chain_perf(struct hist *h, struct hist_entry *k, uint32_t comm, int32_t tid, uint64_t period,
    const struct fkey *chain, size_t n)
{
	size_t nseen = 0;

	GROW(h->pt_seen, h->cappt_seen, n + 1);
	h->pt_seen[nseen++] = h->last_self;
	for (size_t i = n; i-- > 0;) {
		struct hist_entry *e;
		bool dup = false;

		k->dso = h->want_dso ? chain[i].dso : 0;
		k->node = chain[i].node;
		for (size_t j = 0; j < nseen && !dup; j++)
			dup = pt_cmp(h, &h->ent[h->pt_seen[j]], k) == 0;
		if (dup)
			continue;
		e = ent_find_perf(h, k);
		if (e->acc_samples == 0) {
			e->label_comm = comm;
			e->label_tid = tid;
		}
		e->stamp = h->stamp;
		e->acc_period += period;
		e->acc_samples++;
		h->pt_seen[nseen++] = (uint32_t)(e - h->ent);
	}
}

/*
 * The core of both entry points: credit one sample whose frames are
 * already reduced to keys.
 */
static void
add_keys(struct hist *h, uint32_t ev, uint32_t comm, int32_t pid, int32_t tid, uint32_t cpu,
    uint64_t period, const struct fkey *self, const struct fkey *chain, size_t n)
{
	struct hist_entry k, *e;
	const struct hist_opts *o = &h->o;
	bool kc = false, kp = false, kt = false, kcpu = false;

	if (++h->stamp == 0) {
		for (size_t i = 0; i < h->nent; i++)
			h->ent[i].stamp = 0;
		for (size_t i = 0; i < h->nedge; i++)
			h->edge[i].stamp = 0;
		h->stamp = 1;
	}
	h->ev[ev].total_period += period;
	h->ev[ev].nsamples++;
	for (unsigned i = 0; i < o->nkeys; i++) {
		kc |= o->keys[i] == HIST_KEY_COMM;
		kp |= o->keys[i] == HIST_KEY_PID;
		kt |= o->keys[i] == HIST_KEY_TID;
		kcpu |= o->keys[i] == HIST_KEY_CPU;
	}
	memset(&k, 0, sizeof k);
	k.event = ev;
	k.comm = kc ? comm : 0;
	k.pid = kp || kt ? pid : 0;
	k.tid = kt ? tid : 0;
	k.cpu = kcpu ? cpu : 0;
	k.dso = h->want_dso ? self->dso : 0;
	k.node = h->want_sym ? self->node : 0;
	k.srcline = h->want_src ? self->srcline : 0;
	e = h->ptree ? ent_find_perf(h, &k) : ent_get(h, &k);
	if (e->samples == 0 && e->acc_samples == 0) {
		e->label_comm = comm;
		e->label_tid = tid;
		e->label_sym = self->label;
	}
	h->last_self = (uint32_t)(e - h->ent);
	e->period += period;
	e->samples++;
	e->stamp = h->stamp;
	e->acc_period += period;
	e->acc_samples++;
	count_why(h, self, false, 1);
	for (size_t i = 0; i < n; i++)
		count_why(h, &chain[i], true, 1);
	if (o->children && h->ptree) {
		add_chain_perf(h, &k, comm, tid, period, chain, n);
	} else if (o->children) {
		for (size_t i = 0; i < n; i++) {
			k.dso = h->want_dso ? chain[i].dso : 0;
			k.node = h->want_sym ? chain[i].node : 0;
			k.srcline = h->want_src ? chain[i].srcline : 0;
			e = ent_get(h, &k);
			if (e->acc_samples == 0) {
				e->label_comm = comm;
				e->label_tid = tid;
			}
			if (e->stamp != h->stamp) {
				e->stamp = h->stamp;
				e->acc_period += period;
				e->acc_samples++;
			}
		}
	}
	if (o->callgraph)
		callgraph_add(h, ev, comm, pid, tid, self, chain, n, period);
}

static void
frame_key(struct hist *h, const struct frame *f, bool chain, uint8_t sample_cpumode,
    struct fkey *out)
{
	out->dso = f->dso;
	out->why = f->why;
	out->label = 0;
	out->node = node_of(h, f, chain ? NODE_CHAIN : NODE_SELF, sample_cpumode, 0);
	out->srcline = h->want_src ? srcline_of(h, f) : 0;
}

void
hist_add(struct hist *h, const struct hist_sample *smp)
{
	uint32_t ev = event_of(h, smp->attr, smp->event_name);
	struct fkey self;
	uint8_t cm = smp->self->cpumode;

	if (h->o.event >= 0 && smp->attr != h->o.event)
		return;
	frame_key(h, smp->self, false, cm, &self);
	if (smp->own_nodes && smp->self->sym == SYM_NONE) {
		char buf[128];

		self.node = node_of(h, smp->self, NODE_SELF, cm, ev + 1);
		label_frame(h, smp->self, buf, sizeof buf);
		self.label = intern(h, buf) + 1;
	}
	GROW(h->chain, h->capchain, smp->nchain + 1);
	for (size_t i = 0; i < smp->nchain; i++)
		frame_key(h, &smp->chain[i], true, cm, &h->chain[i]);
	add_keys(h, ev, intern(h, smp->comm ? smp->comm : ""), smp->pid, smp->tid, smp->cpu,
	    smp->period, &self, h->chain, smp->nchain);
}

/* ---- the session walk ---- */

static uint32_t *
epoch_slot(struct hist *h, int32_t pid)
{
	size_t i;

	if ((h->pen + 1) * 2 > h->pecap) {
		size_t ncap = h->pecap ? h->pecap * 2 : 256;
		struct pid_epoch *n = xcalloc(ncap, sizeof *n);

		for (size_t j = 0; j < ncap; j++)
			n[j].pid = INT32_MIN;
		for (size_t j = 0; j < h->pecap; j++) {
			if (h->pe[j].pid == INT32_MIN)
				continue;
			i = (size_t)hash_mix64((uint64_t)(uint32_t)h->pe[j].pid) & (ncap - 1);
			while (n[i].pid != INT32_MIN)
				i = (i + 1) & (ncap - 1);
			n[i] = h->pe[j];
		}
		free(h->pe);
		h->pe = n;
		h->pecap = ncap;
	}
	i = (size_t)hash_mix64((uint64_t)(uint32_t)pid) & (h->pecap - 1);
	while (h->pe[i].pid != INT32_MIN && h->pe[i].pid != pid)
		i = (i + 1) & (h->pecap - 1);
	if (h->pe[i].pid == INT32_MIN) {
		h->pe[i].pid = pid;
		h->pe[i].epoch = 0;
		h->pen++;
	}
	return &h->pe[i].epoch;
}

/* A record that may change what an address of pid resolves to. */
static void
epoch_bump(struct hist *h, const struct rec *r)
{
	int32_t pid;

	if (r->size < 16)
		return;
	pid = (int32_t)rd32(r->p + 8, r->swap);
	if (r->type == PERF_RECORD_COMM && !(r->misc & PERF_RECORD_MISC_COMM_EXEC))
		return;
	if (pid == -1 && (r->type == PERF_RECORD_MMAP || r->type == PERF_RECORD_MMAP2))
		h->kepoch++;
	else
		(*epoch_slot(h, pid))++;
}

/*
 * Resolve through the cache: one symbolizer call per distinct address.
 * Returns the cache entry's id (the array may move as it grows).
 */
static uint32_t
resolve(struct hist *h, int32_t pid, int32_t tid, uint64_t time, uint8_t cpumode, uint64_t ip,
    uint32_t *last_pid_epoch)
{
	int32_t kpid = cpumode == PERF_RECORD_MISC_KERNEL ? -1 : pid;
	uint32_t epoch = kpid == -1 ? h->kepoch : *last_pid_epoch;
	uint32_t hash = (uint32_t)hash_mix64(ip ^ ((uint64_t)(uint32_t)kpid << 32 | epoch) * 31 ^
	    (uint64_t)cpumode << 61), id;
	size_t i;
	struct fcache *c;

	idtab_reserve(&h->fc_tab);
	i = hash & (h->fc_tab.cap - 1);
	while ((id = h->fc_tab.slot[i]) != 0) {
		c = &h->fc[id - 1];
		if (h->fc_tab.hv[i] == hash && c->ip == ip && c->pid == kpid && c->epoch == epoch &&
		    c->cpumode == cpumode)
			return id - 1;
		i = (i + 1) & (h->fc_tab.cap - 1);
	}
	GROW(h->fc, h->capfc, h->nfc + 1);
	c = &h->fc[h->nfc];
	c->ip = ip;
	c->pid = kpid;
	c->epoch = epoch;
	c->cpumode = cpumode;
	if (h->z != NULL) {
		symbolizer_resolve(h->z, pid, tid, time, cpumode, ip, &c->f);
	} else {
		memset(&c->f, 0, sizeof c->f);
		c->f.ip = c->f.rel = ip;
		c->f.dso = DSO_NONE;
		c->f.sym = SYM_NONE;
		c->f.cpumode = cpumode;
		c->f.why = SYM_WHY_NO_MAP;
		c->f.kernel = cpumode == PERF_RECORD_MISC_KERNEL ||
		    cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
	}
	c->node[0] = c->node[1] = c->node[2] = c->srcline = NONE32;
	c->inl = 0;
	c->ninl = NONE32;
	idtab_put(&h->fc_tab, i, hash, (uint32_t)h->nfc);
	return (uint32_t)h->nfc++;
}

static void
cached_key(struct hist *h, uint32_t ci, enum node_mode mode, uint8_t sample_cpumode,
    struct fkey *out)
{
	struct fcache *c = &h->fc[ci];
	uint32_t *node = &c->node[mode];

	if (*node == NONE32)
		*node = node_of(h, &c->f, mode, sample_cpumode, 0);
	if (h->want_src && c->srcline == NONE32)
		c->srcline = srcline_of(h, &c->f);
	out->dso = c->f.dso;
	out->node = *node;
	out->srcline = h->want_src ? c->srcline : 0;
	out->why = c->f.why;
	out->label = 0;
}

/*
 * The keys a callchain frame contributes: for a frame unwound from a
 * --call-graph dwarf stack, one per inline level (perf's append_inlines(),
 * asked once per cached address, in sample order as perf asks; perf's
 * entry tree asks in caller order first, see hist_add_range); else, or
 * without levels, the frame's own.  Appends to h->chain[*k...]; returns the new
 * count.
 */
static size_t
chain_keys(struct hist *h, uint32_t ci, bool unwound, uint8_t sample_cpumode, size_t k)
{
	struct fcache *c = &h->fc[ci];

	if (unwound && c->ninl == NONE32) {
		struct frame lv[64];
		size_t n = h->z ? symbolizer_inlines(h->z, &c->f, lv, sizeof lv / sizeof *lv) : 0;

		if (n > sizeof lv / sizeof *lv)
			n = sizeof lv / sizeof *lv;
		GROW(h->inl, h->capinl, h->ninl + n + 1);
		for (size_t j = 0; j < n; j++)
			frame_key(h, &lv[j], true, sample_cpumode, &h->inl[h->ninl + j]);
		c = &h->fc[ci];
		c->inl = (uint32_t)h->ninl;
		c->ninl = (uint32_t)n;
		h->ninl += n;
	}
	if (!unwound || c->ninl == 0) {
		GROW(h->chain, h->capchain, k + 1);
		cached_key(h, ci, NODE_CHAIN, sample_cpumode, &h->chain[k]);
		return k + 1;
	}
	GROW(h->chain, h->capchain, k + c->ninl);
	memcpy(&h->chain[k], &h->inl[c->inl], c->ninl * sizeof *h->chain);
	return k + c->ninl;
}

/* Our string id for the comm of thread th at time (perf's rules). */
static uint32_t
comm_of(struct hist *h, int32_t tid, uint64_t time)
{
	const struct thread_table *t = &h->s->threads;
	uint32_t th = thread_table_find(t, tid, time);
	struct tcomm *c;
	char buf[32];

	if (th == THREAD_NONE || t->v[th].first_comm == NONE32) {
		if (tid == 0)
			return intern(h, "swapper");
		snprintf(buf, sizeof buf, ":%" PRId32, tid);
		return intern(h, buf);
	}
	if (th >= h->captc) {
		size_t old = h->captc;

		GROW(h->tc, h->captc, (size_t)th + 1);
		for (size_t i = old; i < h->captc; i++)
			h->tc[i].ci = NONE32;
	}
	c = &h->tc[th];
	if (c->ci == NONE32 || t->comms[c->ci].time > time)
		c->ci = t->v[th].first_comm;
	while (t->comms[c->ci].next != NONE32 && t->comms[t->comms[c->ci].next].time <= time)
		c->ci = t->comms[c->ci].next;
	if (c->ci >= h->capcomm) {
		size_t old = h->capcomm;

		GROW(h->comm_id, h->capcomm, (size_t)c->ci + 1);
		memset(h->comm_id + old, 0, (h->capcomm - old) * sizeof *h->comm_id);
	}
	if (h->comm_id[c->ci] == 0)
		h->comm_id[c->ci] = intern(h, strtab_get(&t->strs, t->comms[c->ci].name)) + 1;
	return h->comm_id[c->ci] - 1;
}

/*
 * perf report's branch mode (the default when the recording has branch
 * stacks): every branch entry of a sample is a row of period 1, at the
 * branch target (resolved as user, then kernel address), labelled with
 * the sample's [k]/[.].
 */
static void
add_branches(struct hist *h, const struct sample *smp, uint32_t ev, uint32_t comm, int32_t pid,
    int32_t tid, uint8_t cpumode, uint32_t *last_epoch)
{
	for (uint64_t i = 0; i < smp->branch_nr; i++) {
		uint64_t to = rd64(smp->branch + 24 * i + 8, smp->swap);
		uint32_t c = resolve(h, pid, tid, smp->time, PERF_RECORD_MISC_USER, to, last_epoch);
		struct fkey k;

		if (h->fc[c].f.dso == DSO_NONE) {
			uint32_t kc = resolve(h, pid, tid, smp->time, PERF_RECORD_MISC_KERNEL, to,
			    last_epoch);

			if (h->fc[kc].f.dso != DSO_NONE)
				c = kc;
		}
		cached_key(h, c, NODE_BRANCH, cpumode, &k);
		add_keys(h, ev, comm, pid, tid, smp->cpu, 1, &k, NULL, 0);
	}
}

#define HIST_DROP_STEP	(UINT64_C(64) << 20)
#define HIST_DROP_SLACK	(UINT64_C(16) << 20)

uint64_t
hist_add_range(struct hist *h, size_t from, size_t to, uint64_t *skipped)
{
	bool branch_mode = h->s->feat.sec[PF_FEAT_BRANCH_STACK].present;
	const struct session *s = h->s;
	uint64_t added = 0, bad = 0;
	uint32_t self;
	/* a cache of the last pid's epoch: starting cold gives the same results */
	int32_t last_pid = INT32_MIN;
	uint32_t last_epoch = 0;

	/* Self rows need only a sample's fixed head: no walk of its chain. */
	bool head_only = !h->o.children && !h->o.callgraph && !branch_mode;

	if (to > s->index.n)
		to = s->index.n;
	/* A hist that starts mid-session (one of a parallel pass) drops
	 * nothing before where it starts. */
	if (from > 0 && from < to && h->drop_hi == 0 && ent_loc(&s->index.v[from]) < SESSION_ZLOC)
		h->drop_lo = h->drop_hi = ent_loc(&s->index.v[from]);
	if (h->o.record_self && h->sample_ent == NULL && s->index.n > 0) {
		h->sample_ent = xreallocarray(NULL, s->index.n, sizeof *h->sample_ent);
		memset(h->sample_ent, 0xff, s->index.n * sizeof *h->sample_ent);
	}
	for (size_t i = from; i < to; i++) {
		const struct rec_ent *ent = &s->index.v[i];
		unsigned type = ent_type(ent);
		struct sample smp;
		struct rec r;
		struct fkey sk;
		uint8_t cpumode;
		uint64_t period;
		uint32_t ev, comm, *pe;
		size_t n = 0, nips;

		/*
		 * A sample resolves with the maps at its time, those of records
		 * with the same time included, wherever they lie among records of
		 * that time (the symbolizer's rule; script's too): so the records
		 * that change maps in a run of equal times bump their epochs when
		 * the run starts, and no cached answer from before crosses them.
		 * Looked for past 'to': a pass split in two gives one pass's rows.
		 */
		if (i == from || ent->time != s->index.v[i - 1].time) {
			for (size_t j = i + 1; j < s->index.n && s->index.v[j].time == ent->time; j++) {
				unsigned tj = ent_type(&s->index.v[j]);

				if ((tj == PERF_RECORD_MMAP || tj == PERF_RECORD_MMAP2 ||
				    tj == PERF_RECORD_COMM || tj == PERF_RECORD_FORK) &&
				    session_rec(s, ent_loc(&s->index.v[j]), &r) == 0) {
					epoch_bump(h, &r);
					last_pid = INT32_MIN;
				}
			}
		}
		int32_t pid, tid;
		uint64_t loc = ent_loc(ent);

		/*
		 * The index is in time order, nearly file order: what lies well
		 * behind the furthest record read is not needed again (if it
		 * is, it faults back in from the page cache).
		 */
		if (s->nfiles == 1 && loc < SESSION_ZLOC) {
			if (loc > h->drop_hi)
				h->drop_hi = loc;
			if (h->drop_hi - h->drop_lo >= HIST_DROP_STEP + HIST_DROP_SLACK) {
				session_drop_pages(s, h->drop_lo, h->drop_hi - HIST_DROP_SLACK);
				h->drop_lo = h->drop_hi - HIST_DROP_SLACK;
			}
		}

		if (type != PERF_RECORD_SAMPLE) {
			if (type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2 ||
			    type == PERF_RECORD_COMM || type == PERF_RECORD_FORK) {
				if (session_rec(s, ent_loc(ent), &r) == 0) {
					epoch_bump(h, &r);
					last_pid = INT32_MIN;
				}
			}
			continue;
		}
		if (h->o.event >= 0 && ent_attr(ent) != ENT_ATTR_NONE &&
		    (int)ent_attr(ent) != h->o.event)
			continue;
		if (session_rec(s, ent_loc(ent), &r) < 0 ||
		    (head_only ? record_sample_head(s, &r, record_attr(s, &r), &smp) :
		    record_decode_sample(s, &r, &smp, NULL)) < 0) {
			bad++;
			continue;
		}
		if (h->o.event >= 0 && smp.attr != h->o.event)
			continue;
		period = smp.period;
		/* A sample whose id names no event (attr -1) was decoded with the
		 * layout of attr 0 (record.c), its default period is attr 0's. */
		if (!(smp.sample_type & PERF_SAMPLE_PERIOD))
			period = s->attrs.v[smp.attr >= 0 ? smp.attr : 0].attr.sample_period;
		pid = (smp.sample_type & PERF_SAMPLE_TID) ? (int32_t)smp.pid : -1;
		tid = (smp.sample_type & PERF_SAMPLE_TID) ? (int32_t)smp.tid : -1;
		if (pid != last_pid) {
			pe = epoch_slot(h, pid);
			last_epoch = *pe;
			last_pid = pid;
		}
		if (branch_mode && smp.branch == NULL)
			continue;	/* as perf: no branch stack, no rows */
		cpumode = r.misc & PERF_RECORD_MISC_CPUMODE_MASK;
		ev = event_of(h, smp.attr, session_attr_name(s, smp.attr));
		comm = comm_of(h, tid, smp.time);
		if (branch_mode) {
			add_branches(h, &smp, ev, comm, pid, tid, cpumode, &last_epoch);
			added++;
			continue;
		}
		self = resolve(h, pid, tid, smp.time, cpumode, smp.ip, &last_epoch);
		cached_key(h, self, NODE_SELF, cpumode, &sk);
		if ((h->o.children || h->o.callgraph) && symbolizer_has_chain(&smp) && h->z != NULL) {
			/* perf's callchain walk (callee order), unwinding included. */
			size_t want = smp.callchain_nr + 256;

			if (want > h->capips) {
				h->ips = xreallocarray(h->ips, want, sizeof *h->ips);
				h->capips = want;
			}
			n = symbolizer_chain_ips(h->z, &smp, r.misc, h->ips, want, h->o.max_stack);
			GROW(h->chain, h->capchain, n + 1);
			if (n > h->capcs) {
				h->capcs = n;
				h->cs = xreallocarray(h->cs, h->capcs, sizeof *h->cs);
			}
			for (size_t j = 0; j < n; j++)
				h->cs[j] = resolve(h, pid, tid, smp.time, h->ips[j].cpumode, h->ips[j].ip,
				    &last_epoch);
			nips = n;
			n = 0;
			/*
			 * perf, with --children, walks the chain in caller order
			 * and asks for inline levels as it goes, and its answers
			 * depend on the order of first questions.
			 */
			if (h->ptree)
				for (size_t j = nips; j-- > 0;)
					(void)chain_keys(h, h->cs[j], h->ips[j].unwound, cpumode, 0);
			for (size_t j = 0; j < nips; j++)
				n = chain_keys(h, h->cs[j], h->ips[j].unwound, cpumode, n);
		}
		add_keys(h, ev, comm, pid, tid, smp.cpu, period, &sk, h->chain, n);
		if (h->sample_ent != NULL)
			h->sample_ent[i] = h->last_self;
		added++;
	}
	if (skipped != NULL)
		*skipped = bad;
	return added;
}

uint64_t
hist_add_session(struct hist *h, uint64_t *skipped)
{
	return hist_add_range(h, 0, h->s->index.n, skipped);
}

/* ---- merging ---- */

static bool
same_opts(const struct hist_opts *a, const struct hist_opts *b)
{
	if (a->nkeys != b->nkeys || a->children != b->children || a->callgraph != b->callgraph ||
	    a->event != b->event || a->max_stack != b->max_stack || a->record_self != b->record_self ||
	    a->edge_split != b->edge_split)
		return false;
	for (unsigned i = 0; i < a->nkeys; i++)
		if (a->keys[i] != b->keys[i])
			return false;
	return true;
}

bool
hist_split_point(const struct session *s, const struct hist_opts *o, size_t *mid)
{
	size_t n = s->index.n, m;
	bool stacks = false;

	if (n < 2 || pt_present(s) || o->callgraph || o->record_self)
		return false;
	for (size_t i = 0; i < s->attrs.n; i++)
		stacks |= (s->attrs.v[i].attr.sample_type & PERF_SAMPLE_STACK_USER) != 0;
	if (o->children && stacks)
		return false;
	for (m = n / 2; m < n && ent_type(&s->index.v[m]) != PERF_RECORD_SAMPLE; m++)
		;
	if (m == 0 || m >= n)
		return false;
	*mid = m;
	return true;
}

int
hist_merge(struct hist *into, const struct hist *from)
{
	uint32_t *evmap = NULL, *nodemap = NULL;

	if (into == from || into->s != from->s || (into->z == NULL) != (from->z == NULL) ||
	    !same_opts(&into->o, &from->o) || into->o.callgraph || into->o.record_self ||
	    into->ptree || from->ptree || into->finished || from->finished)
		return -1;
	for (size_t i = 0; i < from->nnode; i++)
		if (from->node[i].owner != 0)
			return -1;	/* event-own nodes do not translate */
	for (size_t i = 0; i < into->nnode; i++)
		if (into->node[i].owner != 0)
			return -1;
	if (into->z != NULL) {
		/* DSO ids are the same in both symbolizers (see symbolizer_ndsos). */
		size_t nd = symbolizer_ndsos(into->z);

		if (symbolizer_ndsos(from->z) != nd)
			return -1;
		for (size_t d = 0; d < nd; d++)
			if (strcmp(symbolizer_dso_long(into->z, (uint32_t)d),
			    symbolizer_dso_long(from->z, (uint32_t)d)) != 0)
				return -1;
	}

	/* Events, by attr. */
	evmap = xcalloc(from->nev + 1, sizeof *evmap);
	for (size_t i = 0; i < from->nev; i++) {
		const struct hist_event *fe = &from->ev[i];
		uint32_t ev = event_of(into, fe->attr, hist_str(from, fe->name));

		evmap[i] = ev;
		into->ev[ev].total_period += fe->total_period;
		into->ev[ev].nsamples += fe->nsamples;
	}

	/*
	 * Function nodes, by (DSO, symbol identity) or address, in from's
	 * order: a node new to into is named as from named it (its first
	 * frame), one into has keeps into's name (into's samples came first).
	 */
	nodemap = xcalloc(from->nnode + 1, sizeof *nodemap);
	for (size_t i = 0; i < from->nnode; i++) {
		const struct hist_node *fn = &from->node[i];
		struct frame f = fn->f;
		uint64_t a, b;
		uint32_t hash, id;
		size_t slot = 0;
		struct hist_node *nd;

		if (f.sym != SYM_NONE && into->z != NULL) {
			uint32_t dso, index;
			const char *inl;

			if (symbolizer_sym_ident(from->z, f.sym, &dso, &index, &inl) == 0)
				f.sym = symbolizer_sym_by_ident(into->z, dso, index, inl);
			else
				f.sym = SYM_NONE;
			if (f.sym == SYM_NONE) {
				/* cannot happen: one session, one set of files */
				free(evmap);
				free(nodemap);
				return -2;
			}
		}
		if (f.sym != SYM_NONE) {
			a = f.dso;
			b = f.sym;
		} else {
			a = UINT64_MAX;
			b = f.rel;
		}
		id = node_find(into, &f, a, b, 0, &hash, &slot);
		if (id == NONE32) {
			f.src = 0;	/* a string id of from's symbolizer */
			GROW(into->node, into->capnode, into->nnode + 1);
			nd = &into->node[into->nnode];
			nd->f = f;
			nd->owner = 0;
			nd->label = intern(into, hist_str(from, fn->label));
			nd->fold = intern(into, hist_str(from, fn->fold));
			idtab_put(&into->node_tab, slot, hash, (uint32_t)into->nnode);
			id = (uint32_t)into->nnode++;
		}
		nodemap[i] = id;
	}

	/*
	 * Entries in from's order: those new to into come after into's, in
	 * the order from made them, which is the order one pass over both
	 * ranges would have made them in.
	 */
	for (size_t i = 0; i < from->nent; i++) {
		const struct hist_entry *fe = &from->ent[i];
		struct hist_entry k, *e;
		size_t before = into->nent;

		memset(&k, 0, sizeof k);
		k.event = evmap[fe->event];
		k.comm = fe->comm ? intern(into, hist_str(from, fe->comm)) : 0;
		k.pid = fe->pid;
		k.tid = fe->tid;
		k.cpu = fe->cpu;
		k.dso = fe->dso;
		k.node = into->want_sym ? nodemap[fe->node] : 0;
		k.srcline = fe->srcline ? intern(into, hist_str(from, fe->srcline)) : 0;
		e = ent_get(into, &k);
		if (into->nent != before) {
			e->label_comm = intern(into, hist_str(from, fe->label_comm));
			e->label_tid = fe->label_tid;
		}
		e->period += fe->period;
		e->samples += fe->samples;
		e->acc_period += fe->acc_period;
		e->acc_samples += fe->acc_samples;
	}

	/* Failure counts per DSO. */
	for (size_t i = 0; i < from->nwhy; i++) {
		const struct hist_why *w = &from->why[i];

		for (unsigned r = 0; r < SYM_WHY_COUNT; r++) {
			struct fkey fk = { .dso = w->dso, .why = (uint8_t)r };

			if (w->self[r])
				count_why(into, &fk, false, w->self[r]);
			if (w->chain[r])
				count_why(into, &fk, true, w->chain[r]);
		}
	}
	free(evmap);
	free(nodemap);
	return 0;
}

/* ---- results ---- */

static int
cmp_attr(const void *a, const void *b, void *arg)
{
	const struct hist *h = arg;
	int x = h->ev[*(const uint32_t *)a].attr, y = h->ev[*(const uint32_t *)b].attr;

	return (x > y) - (x < y);
}

/* Children of each tree node sorted by inclusive period, descending. */
static void
sort_tree(struct hist *h)
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

/* Length of the last comm of the thread an entry was made for. */
static size_t
final_comm_len(const struct hist *h, const struct hist_entry *e)
{
	const struct thread_table *t;
	uint32_t th;
	char buf[32];

	if (h->s == NULL)
		return strlen(hist_str(h, e->label_comm));
	t = &h->s->threads;
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

static void
comm_widths(struct hist *h)
{
	for (size_t i = 0; i < h->nent; i++) {
		const struct hist_entry *e = &h->ent[i];
		size_t w = final_comm_len(h, e);

		if (w > h->ev[e->event].comm_width)
			h->ev[e->event].comm_width = (uint32_t)w;
	}
}

void
hist_finish(struct hist *h)
{
	if (h->finished)
		return;
	h->finished = true;
	order_events(h);
	sort_tree(h);
	comm_widths(h);
}

void
hist_peek(struct hist *h)
{
	if (h->finished)
		return;
	order_events(h);
	comm_widths(h);
}

uint32_t
hist_sample_entry(const struct hist *h, size_t pos)
{
	if (h->sample_ent == NULL || h->s == NULL || pos >= h->s->index.n)
		return NONE32;
	return h->sample_ent[pos];
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

/* perf's row order: children (when shown), self, samples, then first seen. */
static int
cmp_entries(const struct hist *h, const struct hist_entry *x, uint32_t ix,
    const struct hist_entry *y, uint32_t iy)
{
	if (h->o.children && x->acc_period != y->acc_period)
		return x->acc_period < y->acc_period ? 1 : -1;
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

	return cmp_entries(h, &h->ent[ia], ia, &h->ent[ib], ib);
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
		pct = h->o.children ? hist_children_pct(h, e) : hist_self_pct(h, e);
		if (min_pct > 0 && pct < min_pct)
			continue;
		if (!h->o.children && e->samples == 0)
			continue;
		h->rows[n++] = (uint32_t)i;
	}
	qsort_r(h->rows, n, sizeof *h->rows, cmp_rows, h);
	*rows = h->rows;
	return n;
}

static bool
selected(const struct hist_entry *e, const struct hist_select *sel)
{
	if (sel == NULL)
		return true;
	if (sel->by_pid && e->pid != sel->pid)
		return false;
	if (sel->by_tid && e->tid != sel->tid)
		return false;
	if (sel->by_dso && e->dso != sel->dso)
		return false;
	if (sel->by_node && e->node != sel->node)
		return false;
	if (sel->by_comm && e->comm != sel->comm)
		return false;
	return true;
}

static int
cmp_merged(const void *a, const void *b, void *arg)
{
	const struct hist *h = arg;
	const struct hist_entry *x = *(const struct hist_entry *const *)a;
	const struct hist_entry *y = *(const struct hist_entry *const *)b;

	return cmp_entries(h, x, h->mfirst[x - h->mrows], y, h->mfirst[y - h->mrows]);
}

size_t
hist_rows_merged(struct hist *h, size_t evi, const struct hist_select *sel, unsigned keep,
    double min_pct, const struct hist_entry *const **out)
{
	struct idtab tab;
	size_t nm = 0, n = 0;
	uint32_t ev;
	uint64_t total;

	*out = NULL;
	if (evi >= h->nev_order)
		return 0;
	ev = h->ev_order[evi];
	total = h->ev[ev].total_period;
	memset(&tab, 0, sizeof tab);
	for (size_t i = 0; i < h->nent; i++) {
		const struct hist_entry *e = &h->ent[i];
		struct hist_entry k;
		uint32_t hash, id;
		uint64_t v;
		size_t j;
		struct hist_entry *m;

		if (e->event != ev || !selected(e, sel))
			continue;
		memset(&k, 0, sizeof k);
		k.event = ev;
		if (keep & HIST_KEEP(HIST_KEY_COMM))
			k.comm = e->comm;
		if (keep & (HIST_KEEP(HIST_KEY_PID) | HIST_KEEP(HIST_KEY_TID)))
			k.pid = e->pid;
		if (keep & HIST_KEEP(HIST_KEY_TID))
			k.tid = e->tid;
		if (keep & HIST_KEEP(HIST_KEY_CPU))
			k.cpu = e->cpu;
		if (keep & HIST_KEEP(HIST_KEY_DSO))
			k.dso = e->dso;
		if (keep & HIST_KEEP(HIST_KEY_SYM))
			k.node = e->node;
		if (keep & HIST_KEEP(HIST_KEY_SRCLINE))
			k.srcline = e->srcline;
		hash = ent_hash(&k);
		idtab_reserve(&tab);
		j = hash & (tab.cap - 1);
		while ((id = tab.slot[j]) != 0) {
			if (tab.hv[j] == hash && memcmp(&h->mrows[id - 1], &k, ENT_KEY_BYTES) == 0)
				break;
			j = (j + 1) & (tab.cap - 1);
		}
		if (id == 0) {
			GROW(h->mrows, h->capmrows, nm + 1);
			if (nm + 1 > h->capmfirst) {
				h->capmfirst = h->capmrows;
				h->mfirst = xreallocarray(h->mfirst, h->capmfirst, sizeof *h->mfirst);
				h->mbest = xreallocarray(h->mbest, h->capmfirst, sizeof *h->mbest);
				h->mbestv = xreallocarray(h->mbestv, h->capmfirst, sizeof *h->mbestv);
			}
			h->mrows[nm] = k;
			h->mfirst[nm] = (uint32_t)i;
			h->mbest[nm] = (uint32_t)i;
			h->mbestv[nm] = 0;
			idtab_put(&tab, j, hash, (uint32_t)nm);
			id = (uint32_t)++nm;
		}
		m = &h->mrows[id - 1];
		m->period += e->period;
		m->samples += e->samples;
		m->acc_period += e->acc_period;
		m->acc_samples += e->acc_samples;
		v = h->o.children ? e->acc_period : e->period;
		if (v > h->mbestv[id - 1]) {
			h->mbestv[id - 1] = v;
			h->mbest[id - 1] = (uint32_t)i;
		}
	}
	idtab_free(&tab);
	GROW(h->mout, h->capmout, nm + 1);
	for (size_t i = 0; i < nm; i++) {
		struct hist_entry *m = &h->mrows[i];
		const struct hist_entry *b = &h->ent[h->mbest[i]];
		double pct = total ? 100.0 * (double)(h->o.children ? m->acc_period : m->period) /
		    (double)total : 0.0;

		if (!(keep & (HIST_KEEP(HIST_KEY_PID) | HIST_KEEP(HIST_KEY_TID)))) {
			m->pid = b->pid;
			m->tid = b->tid;
		}
		m->label_comm = b->label_comm;
		m->label_tid = b->label_tid;
		m->label_sym = b->label_sym;
		if (min_pct > 0 && pct < min_pct)
			continue;
		if (!h->o.children && m->samples == 0)
			continue;
		h->mout[n++] = m;
	}
	qsort_r(h->mout, n, sizeof *h->mout, cmp_merged, h);
	*out = h->mout;
	return n;
}

/* The comm shown beside a pid or tid: the thread's last one (as perf). */
static const char *
thread_comm_label(const struct hist *h, int32_t tid, uint32_t fallback)
{
	const struct thread_table *t;
	uint32_t th;

	if (h->s == NULL)
		return hist_str(h, fallback);
	t = &h->s->threads;
	th = thread_table_find(t, tid, UINT64_MAX);
	if (th == THREAD_NONE || t->v[th].last_comm == NONE32)
		return hist_str(h, fallback);
	return strtab_get(&t->strs, t->comms[t->v[th].last_comm].name);
}

const char *
hist_key_text(const struct hist *h, const struct hist_entry *e, enum hist_key k, char *buf,
    size_t n)
{
	switch (k) {
	case HIST_KEY_COMM: {
		int w = (int)h->ev[e->event].comm_width;

		snprintf(buf, n, "%.*s", w < 7 ? 7 : w, hist_str(h, e->comm));
		break;
	}
	case HIST_KEY_PID:
		snprintf(buf, n, "%7" PRId32 ":%s", e->pid, thread_comm_label(h, e->pid, e->label_comm));
		break;
	case HIST_KEY_TID:
		snprintf(buf, n, "%7" PRId32 ":%s", e->tid, thread_comm_label(h, e->tid, e->label_comm));
		break;
	case HIST_KEY_DSO:
		if (e->dso == DSO_NONE)
			snprintf(buf, n, "[unknown]");
		else if (h->z != NULL)
			snprintf(buf, n, "%s", symbolizer_dso_short(h->z, e->dso));
		else
			snprintf(buf, n, "d%" PRIu32, e->dso);
		break;
	case HIST_KEY_SYM:
		snprintf(buf, n, "%s", hist_str(h, e->label_sym ? e->label_sym - 1 :
		    h->node[e->node].label));
		break;
	case HIST_KEY_CPU:
		snprintf(buf, n, "%" PRId32, (int32_t)e->cpu);
		break;
	case HIST_KEY_SRCLINE:
		snprintf(buf, n, "%s", hist_str(h, e->srcline));
		break;
	default:
		snprintf(buf, n, "?");
		break;
	}
	return buf;
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

static bool
edge_selected(const struct hist_edge *e, const struct hist_select *sel)
{
	if (sel == NULL)
		return true;
	if (sel->by_pid && e->pid != sel->pid)
		return false;
	if (sel->by_tid && e->tid != sel->tid)
		return false;
	return true;
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
		if (split && !edge_selected(e, sel))
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
		text = intern(h, buf);
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

/* ---- the process tree ---- */

struct tlink {
	uint32_t	parent, first, next;	/* thread ids */
	uint64_t	proc_samples;
};

/* The leader (tid == pid) of pid's process around time, or NONE32. */
static uint32_t
leader_of(const struct thread_table *t, int32_t pid, uint64_t time)
{
	uint32_t l;

	if (pid < 0)
		return NONE32;
	l = thread_table_find(t, pid, time);
	if (l != NONE32 && t->v[l].pid != t->v[l].tid)
		return NONE32;
	return l;
}

static int
cmp_start(const void *a, const void *b, void *arg)
{
	const struct thread_table *t = arg;
	const struct pn_thread *x = &t->v[*(const uint32_t *)a], *y = &t->v[*(const uint32_t *)b];

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

static void
task_emit(const struct thread_table *t, const struct tlink *tl, uint32_t th, uint32_t parent_row,
    uint32_t depth, struct hist_task *out, size_t *n)
{
	/* Iterative over siblings, recursive over depth (trees are shallow). */
	for (; th != NONE32; th = tl[th].next) {
		size_t row = (*n)++;

		out[row].thread = th;
		out[row].parent = parent_row;
		out[row].depth = depth;
		out[row].leader = t->v[th].pid == t->v[th].tid;
		out[row].proc_samples = tl[th].proc_samples;
		if (tl[th].first != NONE32 && depth < 10000)
			task_emit(t, tl, tl[th].first, (uint32_t)row, depth + 1, out, n);
		if (parent_row == NONE32)
			break;
	}
}

size_t
hist_tasks(const struct session *s, struct hist_task **out)
{
	const struct thread_table *t = &s->threads;
	struct tlink *tl = xcalloc(t->n + 1, sizeof *tl);
	uint32_t *order = xcalloc(t->n + 1, sizeof *order);
	struct hist_task *rows = xcalloc(t->n + 1, sizeof *rows);
	size_t n = 0;

	for (size_t i = 0; i < t->n; i++) {
		const struct pn_thread *p = &t->v[i];
		uint32_t par = NONE32;

		tl[i].first = tl[i].next = NONE32;
		if (p->pid != p->tid) {
			par = leader_of(t, p->pid, p->start);
		} else if (p->parent != NONE32) {
			const struct pn_thread *pt = &t->v[p->parent];

			par = pt->pid == pt->tid ? p->parent : leader_of(t, pt->pid, p->start);
			if (par == NONE32)
				par = p->parent;
		} else if (p->ppid >= 0) {
			par = leader_of(t, p->ppid, p->start);
		}
		tl[i].parent = par == (uint32_t)i ? NONE32 : par;
		order[i] = (uint32_t)i;
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct pn_thread *p = &t->v[i];
		uint32_t l = p->pid == p->tid ? (uint32_t)i : leader_of(t, p->pid, p->start);

		if (l != NONE32)
			tl[l].proc_samples += p->samples;
	}
	qsort_r(order, t->n, sizeof *order, cmp_start, (void *)t);
	/* Link children in reverse order so lists come out sorted; no cycles. */
	for (size_t k = t->n; k-- > 0;) {
		uint32_t i = order[k], par = tl[i].parent, up;
		size_t guard = 0;

		for (up = par; up != NONE32 && up != i && guard <= t->n; up = tl[up].parent)
			guard++;
		if (up != NONE32)
			par = tl[i].parent = NONE32;
		if (par != NONE32) {
			tl[i].next = tl[par].first;
			tl[par].first = i;
		}
	}
	for (size_t k = 0; k < t->n; k++)
		if (tl[order[k]].parent == NONE32)
			task_emit(t, tl, order[k], NONE32, 0, rows, &n);
	free(tl);
	free(order);
	*out = rows;
	return n;
}
