#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "symbolize/hist_impl.h"
#include "symbolize/memsrc.h"

/*
 * The sort keys, as perf's sort.c keeps them: one entry per key (the
 * table at the end) with the functions that read, compare and print its
 * value.  A key's value lives in fields of struct ent_full (an entry
 * with every key in place); packed (hist_impl.h: the common keys and the
 * id of the others' values), entries with equal keys have equal bytes
 * and hist.c hashes and compares them whole.
 *
 * To add a key: its enum value (hist.h), its field in HIST_XKEY_FIELDS
 * (hist.h) if it needs a new one, and its entry here.
 */

/* ---- comm ---- */

static void
comm_extract(struct ent_full *k, const struct key_src *src)
{
	k->comm = src->comm;
}

static void
comm_keep(struct ent_full *k, const struct ent_full *e)
{
	k->comm = e->comm;
}

static void
comm_xlat(const struct hist_xlat *x, struct ent_full *k, const struct ent_full *fe)
{
	k->comm = fe->comm ? hist_intern(x->into, hist_str(x->from, fe->comm)) : 0;
}

/* As perf, cut to the Command column's width (see hist_key_text). */
static void
comm_text(const struct hist *h, const struct ent_full *e, char *buf, size_t n)
{
	int w = (int)h->ev[e->event].comm_width;

	snprintf(buf, n, "%.*s", w < 7 ? 7 : w, hist_str(h, e->comm));
}

/* ---- process and pid (perf's per-thread "pid") ---- */

static void
pid_extract(struct ent_full *k, const struct key_src *src)
{
	k->pid = src->pid;
}

static void
pid_keep(struct ent_full *k, const struct ent_full *e)
{
	k->pid = e->pid;
}

static void
pid_xlat(const struct hist_xlat *x, struct ent_full *k, const struct ent_full *fe)
{
	(void)x;
	k->pid = fe->pid;
}

static void
tid_extract(struct ent_full *k, const struct key_src *src)
{
	k->pid = src->pid;
	k->tid = src->tid;
}

static void
tid_keep(struct ent_full *k, const struct ent_full *e)
{
	k->pid = e->pid;
	k->tid = e->tid;
}

static void
tid_xlat(const struct hist_xlat *x, struct ent_full *k, const struct ent_full *fe)
{
	(void)x;
	tid_keep(k, fe);
}

/* perf's sort__thread_cmp. */
static int64_t
tid_perf_cmp(struct hist *h, const struct ent_full *old, const struct ent_full *nw)
{
	(void)h;
	return (int64_t)nw->tid - (int64_t)old->tid;
}

/* The comm shown beside a pid or tid: the thread's last one (as perf). */
static const char *
thread_comm_label(const struct hist *h, int32_t tid, uint32_t fallback)
{
	const struct thread_table *t;
	uint32_t th;

	if (h->s == NULL)
		return hist_str(h, fallback);
	t = session_threads(h->s);
	th = thread_table_find(t, tid, UINT64_MAX);
	if (th == THREAD_NONE || t->v[th].last_comm == NONE32)
		return hist_str(h, fallback);
	return strtab_get(&t->strs, t->comms[t->v[th].last_comm].name);
}

static void
pid_text(const struct hist *h, const struct ent_full *e, char *buf, size_t n)
{
	snprintf(buf, n, "%7" PRId32 ":%s", e->pid, thread_comm_label(h, e->pid, e->label_comm));
}

static void
tid_text(const struct hist *h, const struct ent_full *e, char *buf, size_t n)
{
	snprintf(buf, n, "%7" PRId32 ":%s", e->tid, thread_comm_label(h, e->tid, e->label_comm));
}

/* ---- dso ---- */

static void
dso_extract(struct ent_full *k, const struct key_src *src)
{
	k->dso = src->f->dso;
}

static void
dso_keep(struct ent_full *k, const struct ent_full *e)
{
	k->dso = e->dso;
}

static void
dso_xlat(const struct hist_xlat *x, struct ent_full *k, const struct ent_full *fe)
{
	(void)x;	/* DSO ids are the same in both (hist_merge checks) */
	k->dso = fe->dso;
}

/* Our string id of a DSO's short name, NONE32 for none. */
static uint32_t
pt_dso_name(struct hist *h, uint32_t dso)
{
	if (dso == DSO_NONE)
		return NONE32;
	if (dso >= h->ptr.cappt_dso) {
		size_t old = h->ptr.cappt_dso;

		GROW(h->ptr.pt_dso, h->ptr.cappt_dso, (size_t)dso + 1);
		memset(h->ptr.pt_dso + old, 0, (h->ptr.cappt_dso - old) * sizeof *h->ptr.pt_dso);
	}
	if (h->ptr.pt_dso[dso] == 0)
		h->ptr.pt_dso[dso] = hist_intern(h, symbolizer_dso_short(h->z, dso)) + 1;
	return h->ptr.pt_dso[dso] - 1;
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

static int64_t
dso_perf_cmp(struct hist *h, const struct ent_full *old, const struct ent_full *nw)
{
	return pt_dso(h, pt_dso_name(h, old->dso), pt_dso_name(h, nw->dso));
}

static void
dso_text(const struct hist *h, const struct ent_full *e, char *buf, size_t n)
{
	if (e->dso == DSO_NONE)
		snprintf(buf, n, "[unknown]");
	else if (h->z != NULL)
		snprintf(buf, n, "%s", symbolizer_dso_short(h->z, e->dso));
	else
		snprintf(buf, n, "d%" PRIu32, e->dso);
}

/* ---- sym ---- */

static void
sym_extract(struct ent_full *k, const struct key_src *src)
{
	k->node = src->f->node;
}

static void
sym_keep(struct ent_full *k, const struct ent_full *e)
{
	k->node = e->node;
}

static void
sym_xlat(const struct hist_xlat *x, struct ent_full *k, const struct ent_full *fe)
{
	k->node = x->nodemap[fe->node];
}

/* What perf's comparison sees of function node id. */
static const struct pt_sym *
pt_sym_of(struct hist *h, uint32_t id)
{
	struct pt_sym *p;
	const struct frame *f;
	uint32_t dso;

	if (id >= h->ptr.cappt_sym) {
		size_t old = h->ptr.cappt_sym;

		GROW(h->ptr.pt_sym, h->ptr.cappt_sym, (size_t)id + 1);
		memset(h->ptr.pt_sym + old, 0, (h->ptr.cappt_sym - old) * sizeof *h->ptr.pt_sym);
	}
	p = &h->ptr.pt_sym[id];
	if (p->ready)
		return p;
	f = &h->node[id].f;
	/* Our own copies: the symbolizer's string buffer moves as it grows. */
	p->dso = pt_dso_name(h, f->dso);
	p->name = NONE32;
	p->addr = f->rel;	/* node_of keeps an unresolved node's key there */
	if (f->sym != SYM_NONE) {
		p->name = hist_intern(h, symbolizer_sym_name(h->z, f->sym));
		p->inl = symbolizer_sym_inlined(h->z, f->sym);
		if (symbolizer_sym_range(h->z, f->sym, &dso, &p->start, &p->end) != 0)
			p->start = p->end = 0;
	}
	p->ready = true;
	return p;
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
	a = &h->ptr.pt_sym[old];
	b = &h->ptr.pt_sym[nw];
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

static int64_t
sym_perf_cmp(struct hist *h, const struct ent_full *old, const struct ent_full *nw)
{
	return pt_sym_cmp(h, old->node, nw->node);
}

static void
sym_text(const struct hist *h, const struct ent_full *e, char *buf, size_t n)
{
	snprintf(buf, n, "%s", hist_str(h, e->label_sym ? e->label_sym - 1 :
	    h->node[e->node].label));
}

/* ---- cpu ---- */

static void
cpu_extract(struct ent_full *k, const struct key_src *src)
{
	k->cpu = src->cpu;
}

static void
cpu_keep(struct ent_full *k, const struct ent_full *e)
{
	k->cpu = e->cpu;
}

static void
cpu_xlat(const struct hist_xlat *x, struct ent_full *k, const struct ent_full *fe)
{
	(void)x;
	k->cpu = fe->cpu;
}

/* perf's sort__cpu_cmp. */
static int64_t
cpu_perf_cmp(struct hist *h, const struct ent_full *old, const struct ent_full *nw)
{
	(void)h;
	return (int64_t)(int32_t)nw->cpu - (int64_t)(int32_t)old->cpu;
}

static void
cpu_text(const struct hist *h, const struct ent_full *e, char *buf, size_t n)
{
	(void)h;
	snprintf(buf, n, "%" PRId32, (int32_t)e->cpu);
}

/* ---- srcline ---- */

static void
srcline_extract(struct ent_full *k, const struct key_src *src)
{
	k->srcline = src->f->srcline;
}

static void
srcline_keep(struct ent_full *k, const struct ent_full *e)
{
	k->srcline = e->srcline;
}

static void
srcline_xlat(const struct hist_xlat *x, struct ent_full *k, const struct ent_full *fe)
{
	k->srcline = fe->srcline ? hist_intern(x->into, hist_str(x->from, fe->srcline)) : 0;
}

static void
srcline_text(const struct hist *h, const struct ent_full *e, char *buf, size_t n)
{
	snprintf(buf, n, "%s", hist_str(h, e->srcline));
}

/* ---- branch mode: a branch entry's source and target, its cycles ---- */

static void
dso_from_extract(struct ent_full *k, const struct key_src *src)
{
	k->from_dso = src->from != NULL ? src->from->dso : DSO_NONE;
}

static void
dso_from_keep(struct ent_full *k, const struct ent_full *e)
{
	k->from_dso = e->from_dso;
}

static void
dso_from_xlat(const struct hist_xlat *x, struct ent_full *k, const struct ent_full *fe)
{
	(void)x;
	k->from_dso = fe->from_dso;
}

/* A DSO column's text ("[unknown]" for none). */
static void
dso_id_text(const struct hist *h, uint32_t dso, char *buf, size_t n)
{
	struct ent_full e;

	memset(&e, 0, sizeof e);
	e.dso = dso;
	dso_text(h, &e, buf, n);
}

/* As perf, a branch DSO column cuts names to its width (hist_comm_widths). */
static void
cut_to(char *buf, size_t n, uint32_t width)
{
	if (width > 0 && width < n)
		buf[width] = '\0';
}

static void
dso_from_text(const struct hist *h, const struct ent_full *e, char *buf, size_t n)
{
	dso_id_text(h, e->from_dso, buf, n);
	cut_to(buf, n, h->ev[e->event].dso_from_width);
}

static void
dso_to_text(const struct hist *h, const struct ent_full *e, char *buf, size_t n)
{
	dso_id_text(h, e->dso, buf, n);
	cut_to(buf, n, h->ev[e->event].dso_to_width);
}

static void
dso_to_extract(struct ent_full *k, const struct key_src *src)
{
	k->dso = src->to != NULL ? src->to->dso : DSO_NONE;
}

static void
sym_from_extract(struct ent_full *k, const struct key_src *src)
{
	k->from_node = src->from != NULL ? src->from->node : NONE32;
}

static void
sym_from_keep(struct ent_full *k, const struct ent_full *e)
{
	k->from_node = e->from_node;
}

static void
sym_from_xlat(const struct hist_xlat *x, struct ent_full *k, const struct ent_full *fe)
{
	k->from_node = fe->from_node == NONE32 ? NONE32 : x->nodemap[fe->from_node];
}

/* A node's label, or "[H] 0000000000000000" in a row without the value (NONE32: a
 * sample without a branch entry or data address, as hist_add() gives them). */
static void
node_text(const struct hist *h, uint32_t node, bool have, char *buf, size_t n)
{
	if (!have || node >= h->nnode)
		snprintf(buf, n, "[H] %#.16" PRIx64, (uint64_t)0);
	else
		snprintf(buf, n, "%s", hist_str(h, h->node[node].label));
}

static void
sym_from_text(const struct hist *h, const struct ent_full *e, char *buf, size_t n)
{
	node_text(h, e->from_node, h->o.branch != HIST_BRANCH_OFF, buf, n);
}

static void
sym_to_extract(struct ent_full *k, const struct key_src *src)
{
	k->to_node = src->to != NULL ? src->to->node : NONE32;
}

static void
sym_to_keep(struct ent_full *k, const struct ent_full *e)
{
	k->to_node = e->to_node;
}

static void
sym_to_xlat(const struct hist_xlat *x, struct ent_full *k, const struct ent_full *fe)
{
	k->to_node = fe->to_node == NONE32 ? NONE32 : x->nodemap[fe->to_node];
}

static void
sym_to_text(const struct hist *h, const struct ent_full *e, char *buf, size_t n)
{
	node_text(h, e->to_node, h->o.branch != HIST_BRANCH_OFF, buf, n);
}

static void
cycles_extract(struct ent_full *k, const struct key_src *src)
{
	k->cycles = src->cycles;
}

static void
cycles_keep(struct ent_full *k, const struct ent_full *e)
{
	k->cycles = e->cycles;
}

static void
cycles_xlat(const struct hist_xlat *x, struct ent_full *k, const struct ent_full *fe)
{
	(void)x;
	k->cycles = fe->cycles;
}

static void
cycles_text(const struct hist *h, const struct ent_full *e, char *buf, size_t n)
{
	(void)h;
	if (e->cycles == 0)
		snprintf(buf, n, "-");
	else	/* perf prints the 16 bits signed */
		snprintf(buf, n, "%d", (int)(int16_t)e->cycles);
}

/* ---- memory mode: the data address, DATA_SRC, DATA_PAGE_SIZE ---- */

static void
daddr_extract(struct ent_full *k, const struct key_src *src)
{
	k->daddr_node = src->daddr != NULL ? src->daddr->node : NONE32;
}

static void
daddr_keep(struct ent_full *k, const struct ent_full *e)
{
	k->daddr_node = e->daddr_node;
}

static void
daddr_xlat(const struct hist_xlat *x, struct ent_full *k, const struct ent_full *fe)
{
	k->daddr_node = fe->daddr_node == NONE32 ? NONE32 : x->nodemap[fe->daddr_node];
}

static void
daddr_text(const struct hist *h, const struct ent_full *e, char *buf, size_t n)
{
	node_text(h, e->daddr_node, h->o.mem_mode, buf, n);
}

static void
dso_daddr_extract(struct ent_full *k, const struct key_src *src)
{
	k->daddr_dso = src->daddr != NULL ? src->daddr->dso : DSO_NONE;
}

static void
dso_daddr_keep(struct ent_full *k, const struct ent_full *e)
{
	k->daddr_dso = e->daddr_dso;
}

static void
dso_daddr_xlat(const struct hist_xlat *x, struct ent_full *k, const struct ent_full *fe)
{
	(void)x;
	k->daddr_dso = fe->daddr_dso;
}

static void
dso_daddr_text(const struct hist *h, const struct ent_full *e, char *buf, size_t n)
{
	dso_id_text(h, e->daddr_dso, buf, n);
}

/*
 * The DATA_SRC keys share one field, each setting its own bits (those its
 * words are made of), so rows agree on a key when its words agree.
 */
#define DS_KEY(name, mask, fn) \
	static void \
	name##_extract(struct ent_full *k, const struct key_src *src) \
	{ \
		k->data_src |= src->data_src & (mask); \
	} \
	static void \
	name##_keep(struct ent_full *k, const struct ent_full *e) \
	{ \
		k->data_src |= e->data_src & (mask); \
	} \
	static void \
	name##_xlat(const struct hist_xlat *x, struct ent_full *k, const struct ent_full *fe) \
	{ \
		(void)x; \
		k->data_src |= fe->data_src & (mask); \
	} \
	static void \
	name##_text(const struct hist *h, const struct ent_full *e, char *buf, size_t n) \
	{ \
		(void)h; \
		fn(e->data_src, buf, n); \
	}

DS_KEY(mem, MEMSRC_LVL | MEMSRC_LVLNUM | MEMSRC_REMOTE | MEMSRC_HOPS, memsrc_lvl)
DS_KEY(tlb, MEMSRC_DTLB, memsrc_tlb)
DS_KEY(snoop, MEMSRC_SNOOP | MEMSRC_SNOOPX, memsrc_snoop)
DS_KEY(locked, MEMSRC_LOCK, memsrc_lock)
DS_KEY(blocked, MEMSRC_BLK, memsrc_blk)

static void
page_extract(struct ent_full *k, const struct key_src *src)
{
	k->page_size = src->page_size;
}

static void
page_keep(struct ent_full *k, const struct ent_full *e)
{
	k->page_size = e->page_size;
}

static void
page_xlat(const struct hist_xlat *x, struct ent_full *k, const struct ent_full *fe)
{
	(void)x;
	k->page_size = fe->page_size;
}

static void
page_text(const struct hist *h, const struct ent_full *e, char *buf, size_t n)
{
	(void)h;
	memsrc_page_size(e->page_size, buf, n);
}

/*
 * The weights (perf 6.1's sort.c): local_weight and weight are one key, the
 * sample's WEIGHT (WEIGHT_STRUCT's var1); local_weight shows it, weight
 * shows it times the row's samples.  local_ins_lat and ins_lat alike with
 * WEIGHT_STRUCT's var2 (the instruction latency).
 */
static void
weight_extract(struct ent_full *k, const struct key_src *src)
{
	k->weight = src->weight;
}

static void
weight_keep(struct ent_full *k, const struct ent_full *e)
{
	k->weight = e->weight;
}

static void
weight_xlat(const struct hist_xlat *x, struct ent_full *k, const struct ent_full *fe)
{
	(void)x;
	k->weight = fe->weight;
}

static void
local_weight_text(const struct hist *h, const struct ent_full *e, char *buf, size_t n)
{
	(void)h;
	snprintf(buf, n, "%" PRIu64, e->weight);
}

static void
weight_text(const struct hist *h, const struct ent_full *e, char *buf, size_t n)
{
	(void)h;
	snprintf(buf, n, "%" PRIu64, e->weight * e->samples);
}

static void
ins_lat_extract(struct ent_full *k, const struct key_src *src)
{
	k->ins_lat = src->ins_lat;
}

static void
ins_lat_keep(struct ent_full *k, const struct ent_full *e)
{
	k->ins_lat = e->ins_lat;
}

static void
ins_lat_xlat(const struct hist_xlat *x, struct ent_full *k, const struct ent_full *fe)
{
	(void)x;
	k->ins_lat = fe->ins_lat;
}

static void
local_ins_lat_text(const struct hist *h, const struct ent_full *e, char *buf, size_t n)
{
	(void)h;
	snprintf(buf, n, "%" PRIu32, e->ins_lat);
}

static void
ins_lat_text(const struct hist *h, const struct ent_full *e, char *buf, size_t n)
{
	(void)h;
	snprintf(buf, n, "%" PRIu64, (uint64_t)e->ins_lat * e->samples);
}

/*
 * phys_daddr: keyed by PHYS_ADDR; perf labels a row with its first
 * sample's level ("[.] 0x...": struct ent_full's label_phys).  The first
 * sample's text of each address is kept too, for rows hist_merge made,
 * which have no label_phys.
 */
uint32_t
hist_mem_phys(struct hist *h, uint64_t phys, uint8_t cpumode)
{
	char buf[64];
	uint32_t id;

	snprintf(buf, sizeof buf, "[%c] %#.16" PRIx64, hist_mem_level(cpumode), phys);
	id = hist_intern(h, buf);
	if (hmap_get(&h->ks.phys_lab_of, phys) == HMAP_NONE)
		hmap_set(&h->ks.phys_lab_of, phys, id);
	return id;
}

static void
phys_extract(struct ent_full *k, const struct key_src *src)
{
	k->phys = src->phys;
}

static void
phys_keep(struct ent_full *k, const struct ent_full *e)
{
	k->phys = e->phys;
}

/* The key; into keeps its own first text of the address, else takes from's. */
static void
phys_xlat(const struct hist_xlat *x, struct ent_full *k, const struct ent_full *fe)
{
	uint32_t lab = hmap_get(&x->from->ks.phys_lab_of, fe->phys);

	k->phys = fe->phys;
	if (lab != HMAP_NONE && hmap_get(&x->into->ks.phys_lab_of, fe->phys) == HMAP_NONE)
		hmap_set(&x->into->ks.phys_lab_of, fe->phys, hist_intern(x->into, hist_str(x->from, lab)));
}

static void
phys_text(const struct hist *h, const struct ent_full *e, char *buf, size_t n)
{
	uint32_t lab = e->label_phys ? e->label_phys - 1 : hmap_get(&h->ks.phys_lab_of, e->phys);

	if (lab != HMAP_NONE)
		snprintf(buf, n, "%s", hist_str(h, lab));
	else	/* a sample of hist_add() */
		snprintf(buf, n, "[.] %#.16" PRIx64, e->phys);
}

/*
 * dcacheline, as perf 6.1's sort__dcacheline_cmp: the sample's cpumode,
 * then whether a map holds the data address, the DSO's device and inode
 * ids, the process when the map is anonymous user memory (private, ids
 * 0), and the 64-byte line of the address in the map (perf's al_addr).
 * The key is that tuple as a string; a row's text is that of its first
 * sample (struct ent_full's label_dcl): the level ('X' unmapped, 's' a
 * shared data map), then the data address's symbol (a data object
 * "name+0x...": the line in the map less the object's runtime address, as
 * perf computes it, wrapping when the map does not start at its file
 * offset), else the line.
 */
#define CACHE_LINE	UINT64_C(64)

uint32_t
hist_mem_dcl(struct hist *h, const struct frame *f, int32_t pid, uint64_t time, uint8_t cpumode,
    uint32_t *lab)
{
	struct sym_map_id m;
	bool mapped = h->z != NULL && symbolizer_map_id(h->z, pid, time, cpumode, f->ip, &m) == 0;
	bool ids = mapped && (m.maj || m.min || m.ino || m.ino_generation);
	bool kernel = cpumode == PERF_RECORD_MISC_KERNEL;
	bool anon = mapped && !kernel && !(m.flags & MAP_SHARED) && !ids;
	uint64_t line = f->rel & ~(CACHE_LINE - 1);
	const char *name = mapped && f->sym != SYM_NONE ? symbolizer_sym_name(h->z, f->sym) : "";
	size_t n = strlen(name) + 48;	/* the name whole, however long */
	char key[160], *buf = xmalloc(n), lv;
	uint32_t id;

	if (!mapped)
		snprintf(key, sizeof key, "%u -%" PRIx64, cpumode, line);
	else
		snprintf(key, sizeof key, "%u %" PRIx32 ":%" PRIx32 ":%" PRIx64 ":%" PRIx64 " %" PRId32
		    " %" PRIx64, cpumode, m.maj, m.min, m.ino, m.ino_generation, anon ? pid : -1, line);
	id = hist_intern(h, key);
	lv = !mapped ? 'X' : !kernel && !(m.prot & PROT_EXEC) && (m.flags & MAP_SHARED) && ids ?
	    's' : hist_mem_level(cpumode);
	if (mapped && f->sym != SYM_NONE && symbolizer_sym_object(h->z, f->sym))
		snprintf(buf, n, "[%c] %s+0x%" PRIx64, lv, name,
		    line - (f->ip - f->symoff));
	else if (mapped && f->sym != SYM_NONE)
		snprintf(buf, n, "[%c] %s", lv, name);
	else
		snprintf(buf, n, "[%c] %#.16" PRIx64, lv, line);
	*lab = hist_intern(h, buf);
	free(buf);
	if (hmap_get(&h->ks.dcl_lab_of, id) == HMAP_NONE)
		hmap_set(&h->ks.dcl_lab_of, id, *lab);
	return id;
}

static void
dcl_extract(struct ent_full *k, const struct key_src *src)
{
	k->dcl = src->dcl;
}

static void
dcl_keep(struct ent_full *k, const struct ent_full *e)
{
	k->dcl = e->dcl;
}

/* The key in into's strings; its text into's when into had the key first. */
static void
dcl_xlat(const struct hist_xlat *x, struct ent_full *k, const struct ent_full *fe)
{
	uint32_t lab = fe->dcl ? hmap_get(&x->from->ks.dcl_lab_of, fe->dcl) : HMAP_NONE;

	k->dcl = hist_intern(x->into, hist_str(x->from, fe->dcl));
	if (lab != HMAP_NONE && hmap_get(&x->into->ks.dcl_lab_of, k->dcl) == HMAP_NONE)
		hmap_set(&x->into->ks.dcl_lab_of, k->dcl, hist_intern(x->into, hist_str(x->from, lab)));
}

static void
dcl_text(const struct hist *h, const struct ent_full *e, char *buf, size_t n)
{
	uint32_t lab = e->label_dcl ? e->label_dcl - 1 :
	    e->dcl ? hmap_get(&h->ks.dcl_lab_of, e->dcl) : HMAP_NONE;

	if (lab != HMAP_NONE)
		snprintf(buf, n, "%s", hist_str(h, lab));
	else	/* a sample of hist_add() */
		snprintf(buf, n, "[X] %#.16" PRIx64, (uint64_t)0);
}

/* ---- trace: a tracepoint sample's payload, as perf report --sort trace ---- */

static void
trace_extract(struct ent_full *k, const struct key_src *src)
{
	k->trace = src->trace;
}

static void
trace_keep(struct ent_full *k, const struct ent_full *e)
{
	k->trace = e->trace;
}

static void
trace_xlat(const struct hist_xlat *x, struct ent_full *k, const struct ent_full *fe)
{
	k->trace = fe->trace ? hist_intern(x->into, hist_str(x->from, fe->trace - 1)) + 1 : 0;
}

/* perf's sort__trace_cmp: the texts, the sought entry's first; equal for
 * events that are not tracepoints (all "N/A"). */
static int64_t
trace_perf_cmp(struct hist *h, const struct ent_full *old, const struct ent_full *nw)
{
	if (old->trace == 0 || nw->trace == 0)
		return (int64_t)(nw->trace != 0) - (int64_t)(old->trace != 0);
	return strcmp(hist_str(h, nw->trace - 1), hist_str(h, old->trace - 1));
}

static void
trace_text(const struct hist *h, const struct ent_full *e, char *buf, size_t n)
{
	snprintf(buf, n, "%s", e->trace ? hist_str(h, e->trace - 1) : "N/A");
}

static void
state_extract(struct ent_full *k, const struct key_src *src)
{
	k->state = src->state;
}

static void
state_keep(struct ent_full *k, const struct ent_full *e)
{
	k->state = e->state;
}

static void
state_xlat(const struct hist_xlat *x, struct ent_full *k, const struct ent_full *fe)
{
	(void)x;
	k->state = fe->state;
}

/* ---- waker (perfnav's own: the thread whose wakeup ended an off-CPU span) ---- */

static void
waker_extract(struct ent_full *k, const struct key_src *src)
{
	k->waker_comm = src->waker_comm;
	k->waker_tid = src->waker_tid;
}

static void
waker_keep(struct ent_full *k, const struct ent_full *e)
{
	k->waker_comm = e->waker_comm;
	k->waker_tid = e->waker_tid;
}

static void
waker_xlat(const struct hist_xlat *x, struct ent_full *k, const struct ent_full *fe)
{
	k->waker_comm = fe->waker_comm ?
	    hist_intern(x->into, hist_str(x->from, fe->waker_comm - 1)) + 1 : 0;
	k->waker_tid = fe->waker_tid;
}

/* "comm tid", N/A for none. */
static void
waker_text(const struct hist *h, const struct ent_full *e, char *buf, size_t n)
{
	if (e->waker_comm == 0)
		snprintf(buf, n, "N/A");
	else
		snprintf(buf, n, "%s %" PRId32, hist_str(h, e->waker_comm - 1), e->waker_tid);
}

/* ---- file (perfnav's own: the input of a merged recording) ---- */

static void
file_extract(struct ent_full *k, const struct key_src *src)
{
	k->file = src->file;
}

static void
file_keep(struct ent_full *k, const struct ent_full *e)
{
	k->file = e->file;
}

/* The parts of a hist read one session: their origins are the same. */
static void
file_xlat(const struct hist_xlat *x, struct ent_full *k, const struct ent_full *fe)
{
	(void)x;
	k->file = fe->file;
}

static void
file_text(const struct hist *h, const struct ent_full *e, char *buf, size_t n)
{
	snprintf(buf, n, "%s", hist_file_name(h, e->file));
}

/* ---- parallelism (perf 6.15's sort key: threads running when sampled) ---- */

static void
par_extract(struct ent_full *k, const struct key_src *src)
{
	k->parallelism = src->par;
}

static void
par_keep(struct ent_full *k, const struct ent_full *e)
{
	k->parallelism = e->parallelism;
}

static void
par_xlat(const struct hist_xlat *x, struct ent_full *k, const struct ent_full *fe)
{
	(void)x;
	k->parallelism = fe->parallelism;
}

/* perf's sort__parallelism_cmp (right - left: the sought less the one in the tree). */
static int64_t
par_perf_cmp(struct hist *h, const struct ent_full *old, const struct ent_full *nw)
{
	(void)h;
	return (int64_t)nw->parallelism - (int64_t)old->parallelism;
}

static void
par_text(const struct hist *h, const struct ent_full *e, char *buf, size_t n)
{
	(void)h;
	snprintf(buf, n, "%" PRIu32, e->parallelism);
}

/*
 * A task state as the kernel's sched_switch prints prev_state: its letters
 * (S sleeping, D blocked in the kernel, T stopped, t traced, X dead, Z
 * zombie, P parked, I idle) joined by |, R when none (runnable: switched
 * out while it could run), + for a preemption (the bit past the states).
 */
void
hist_state_text(uint32_t state, char *buf, size_t n)
{
	static const char letters[] = "SDTtXZPI";
	size_t o = 0;

	if (n == 0)
		return;
	for (unsigned b = 0; b < 8 && o + 2 < n; b++)
		if (state & (1u << b))
			o += (size_t)snprintf(buf + o, n - o, "%s%c", o ? "|" : "", letters[b]);
	if (o == 0 && o + 1 < n)
		buf[o++] = 'R';
	if ((state & 0x100) && o + 1 < n)
		buf[o++] = '+';
	buf[o < n ? o : n - 1] = '\0';
}

static void
state_text(const struct hist *h, const struct ent_full *e, char *buf, size_t n)
{
	(void)h;
	if (e->state == 0)
		snprintf(buf, n, "N/A");
	else
		hist_state_text(e->state - 1, buf, n);
}

/* ---- the table ---- */

const struct sortkey sortkeys[HIST_KEY_COUNT] = {
	[HIST_KEY_COMM] = {
		.name = "comm", .header = "Command", .width = 15,
		.extract = comm_extract, .keep = comm_keep, .xlat = comm_xlat,
		.text = comm_text,
	},
	[HIST_KEY_PID] = {
		.name = "process", .header = "Process", .width = 22, .thread = true,
		.extract = pid_extract, .keep = pid_keep, .xlat = pid_xlat,
		.text = pid_text,
	},
	[HIST_KEY_TID] = {
		.name = "pid", .header = "Pid:Command", .width = 22, .thread = true,
		.extract = tid_extract, .keep = tid_keep, .xlat = tid_xlat,
		.perf_cmp = tid_perf_cmp, .text = tid_text,
	},
	[HIST_KEY_DSO] = {
		.name = "dso", .header = "Shared Object", .width = 20, .per_frame = true,
		.extract = dso_extract, .keep = dso_keep, .xlat = dso_xlat,
		.perf_cmp = dso_perf_cmp, .text = dso_text,
	},
	[HIST_KEY_SYM] = {
		.name = "sym", .header = "Symbol", .width = 0, .per_frame = true,
		.extract = sym_extract, .keep = sym_keep, .xlat = sym_xlat,
		.perf_cmp = sym_perf_cmp, .text = sym_text,
	},
	[HIST_KEY_CPU] = {
		.name = "cpu", .header = "CPU", .width = 3,
		.extract = cpu_extract, .keep = cpu_keep, .xlat = cpu_xlat,
		.perf_cmp = cpu_perf_cmp, .text = cpu_text,
	},
	[HIST_KEY_SRCLINE] = {
		.name = "srcline", .header = "Source:Line", .width = 24, .per_frame = true,
		.srcline = true,
		.extract = srcline_extract, .keep = srcline_keep, .xlat = srcline_xlat,
		.text = srcline_text,
	},
	[HIST_KEY_DSO_FROM] = {
		.name = "dso_from", .header = "Source Shared Object", .width = 20, .branch = true,
		.extract = dso_from_extract, .keep = dso_from_keep, .xlat = dso_from_xlat,
		.text = dso_from_text,
	},
	[HIST_KEY_DSO_TO] = {
		.name = "dso_to", .header = "Target Shared Object", .width = 20, .branch = true,
		.extract = dso_to_extract, .keep = dso_keep, .xlat = dso_xlat,
		.text = dso_to_text,
	},
	[HIST_KEY_SYM_FROM] = {
		.name = "symbol_from", .header = "Source Symbol", .width = 0, .branch = true,
		.extract = sym_from_extract, .keep = sym_from_keep, .xlat = sym_from_xlat,
		.text = sym_from_text,
	},
	[HIST_KEY_SYM_TO] = {
		.name = "symbol_to", .header = "Target Symbol", .width = 0, .branch = true,
		.extract = sym_to_extract, .keep = sym_to_keep, .xlat = sym_to_xlat,
		.text = sym_to_text,
	},
	[HIST_KEY_CYCLES] = {
		.name = "cycles", .header = "Basic Block Cycles", .width = 18, .branch = true,
		.extract = cycles_extract, .keep = cycles_keep, .xlat = cycles_xlat,
		.text = cycles_text,
	},
	[HIST_KEY_SYM_DADDR] = {
		.name = "symbol_daddr", .header = "Data Symbol", .width = 0, .mem = true,
		.extract = daddr_extract, .keep = daddr_keep, .xlat = daddr_xlat,
		.text = daddr_text,
	},
	[HIST_KEY_DSO_DADDR] = {
		.name = "dso_daddr", .header = "Data Object", .width = 20, .mem = true,
		.extract = dso_daddr_extract, .keep = dso_daddr_keep, .xlat = dso_daddr_xlat,
		.text = dso_daddr_text,
	},
	[HIST_KEY_MEM] = {
		.name = "mem", .header = "Memory access", .width = 24, .mem = true,
		.extract = mem_extract, .keep = mem_keep, .xlat = mem_xlat, .text = mem_text,
	},
	[HIST_KEY_TLB] = {
		.name = "tlb", .header = "TLB access", .width = 22, .mem = true,
		.extract = tlb_extract, .keep = tlb_keep, .xlat = tlb_xlat, .text = tlb_text,
	},
	[HIST_KEY_SNOOP] = {
		.name = "snoop", .header = "Snoop", .width = 12, .mem = true,
		.extract = snoop_extract, .keep = snoop_keep, .xlat = snoop_xlat,
		.text = snoop_text,
	},
	[HIST_KEY_LOCKED] = {
		.name = "locked", .header = "Locked", .width = 6, .mem = true,
		.extract = locked_extract, .keep = locked_keep, .xlat = locked_xlat,
		.text = locked_text,
	},
	[HIST_KEY_BLOCKED] = {
		.name = "blocked", .header = "Blocked", .width = 10, .mem = true,
		.extract = blocked_extract, .keep = blocked_keep, .xlat = blocked_xlat,
		.text = blocked_text,
	},
	[HIST_KEY_PAGE_SIZE] = {
		.name = "data_page_size", .header = "Data Page Size", .width = 22, .mem = true,
		.extract = page_extract, .keep = page_keep, .xlat = page_xlat,
		.text = page_text,
	},
	/* perf's widths: hists__calc_col_len's minimum */
	[HIST_KEY_PHYS_DADDR] = {
		.name = "phys_daddr", .header = "Data Physical Address", .width = 22, .mem = true,
		.extract = phys_extract, .keep = phys_keep, .xlat = phys_xlat,
		.text = phys_text,
	},
	[HIST_KEY_DCACHELINE] = {
		.name = "dcacheline", .header = "Data Cacheline", .width = 22, .mem = true,
		.extract = dcl_extract, .keep = dcl_keep, .xlat = dcl_xlat,
		.text = dcl_text,
	},
	/* any mode; perf's widths: hists__calc_col_len's, or the header's */
	[HIST_KEY_LOCAL_WEIGHT] = {
		.name = "local_weight", .header = "Local Weight", .width = 12, .whole_sample = true,
		.extract = weight_extract, .keep = weight_keep, .xlat = weight_xlat,
		.text = local_weight_text,
	},
	[HIST_KEY_WEIGHT] = {
		.name = "weight", .header = "Weight", .width = 12, .whole_sample = true,
		.extract = weight_extract, .keep = weight_keep, .xlat = weight_xlat,
		.text = weight_text,
	},
	[HIST_KEY_LOCAL_INS_LAT] = {
		.name = "local_ins_lat", .header = "Local INSTR Latency", .width = 19, .whole_sample = true,
		.extract = ins_lat_extract, .keep = ins_lat_keep, .xlat = ins_lat_xlat,
		.text = local_ins_lat_text,
	},
	[HIST_KEY_INS_LAT] = {
		.name = "ins_lat", .header = "INSTR Latency", .width = 13, .whole_sample = true,
		.extract = ins_lat_extract, .keep = ins_lat_keep, .xlat = ins_lat_xlat,
		.text = ins_lat_text,
	},
	[HIST_KEY_TRACE] = {
		.name = "trace", .header = "Trace output", .width = 0, .whole_sample = true,
		.extract = trace_extract, .keep = trace_keep, .xlat = trace_xlat,
		.perf_cmp = trace_perf_cmp, .text = trace_text,
	},
	/* off-CPU time (perfnav's own): the state a span's thread was switched out in */
	[HIST_KEY_STATE] = {
		.name = "state", .header = "State", .width = 5,
		.extract = state_extract, .keep = state_keep, .xlat = state_xlat,
		.text = state_text,
	},
	/* perf 6.15's: the sample's parallelism (hist_opts.parallel; 1 without) */
	[HIST_KEY_PARALLELISM] = {
		.name = "parallelism", .header = "Parallelism", .width = 11,
		.extract = par_extract, .keep = par_keep, .xlat = par_xlat,
		.perf_cmp = par_perf_cmp, .text = par_text,
	},
	/* off-CPU time (perfnav's own): the thread whose wakeup ended a span */
	[HIST_KEY_WAKER] = {
		.name = "waker", .header = "Waker", .width = 24,
		.extract = waker_extract, .keep = waker_keep, .xlat = waker_xlat,
		.text = waker_text,
	},
	/* perfnav merge's inputs (core/origin.h): the recording itself when not merged */
	[HIST_KEY_FILE] = {
		.name = "file", .header = "File", .width = 24,
		.extract = file_extract, .keep = file_keep, .xlat = file_xlat,
		.text = file_text,
	},
};

bool
hist_key_branch(enum hist_key k)
{
	return k < HIST_KEY_COUNT && sortkeys[k].branch;
}

bool
hist_key_mem(enum hist_key k)
{
	return k < HIST_KEY_COUNT && sortkeys[k].mem;
}

const char *
hist_key_name(enum hist_key k)
{
	return k < HIST_KEY_COUNT ? sortkeys[k].name : "?";
}

const char *
hist_key_header(enum hist_key k)
{
	return k < HIST_KEY_COUNT ? sortkeys[k].header : "?";
}

int
hist_key_width(enum hist_key k)
{
	return k < HIST_KEY_COUNT ? sortkeys[k].width : 0;
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
			if (strlen(sortkeys[k].name) == len && strncmp(p, sortkeys[k].name, len) == 0)
				break;
		if (k == HIST_KEY_COUNT && len == 3 && strncmp(p, "tid", 3) == 0)
			k = HIST_KEY_TID;	/* perf's pid key is per thread */
		if (k == HIST_KEY_COUNT && ((len == 17 && strncmp(p, "local_p_stage_cyc", 17) == 0) ||
		    (len == 11 && strncmp(p, "p_stage_cyc", 11) == 0))) {
			p += len + (p[len] == ',');	/* POWER only: perf on x86 shows nothing */
			continue;
		}
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

const char *
hist_key_text(const struct hist *h, const struct hist_entry *e, enum hist_key k, char *buf,
    size_t n)
{
	struct ent_full w;

	if (k < HIST_KEY_COUNT) {
		ent_unpack(h, e, &w);
		sortkeys[k].text(h, &w, buf, n);
	} else
		snprintf(buf, n, "?");
	return buf;
}

const char *
hist_file_name(const struct hist *h, uint32_t file)
{
	return file < h->org.n ? h->org.v[file].name : "[no input]";
}

size_t
hist_nfiles(const struct hist *h)
{
	return h->org.n;
}

const struct origins *
hist_origins(const struct hist *h)
{
	return &h->org;
}

uint32_t
hist_file_of(const struct hist *h, uint64_t loc)
{
	return h->org.n > 1 ? origins_find(&h->org, loc) : 0;
}
