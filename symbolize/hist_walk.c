#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/brhist.h"
#include "symbolize/hist_impl.h"
#include "symbolize/chainsrc.h"
#include "symbolize/offcpu.h"
#include "symbolize/parallel.h"

/*
 * The session walk (hist_add_range): each sample of the session's
 * time-ordered index decoded in place, its addresses resolved through
 * caches of (address space, cpumode, ip) and of frames (struct fcache),
 * address spaces told apart by numbers that the records which change maps
 * give anew.
 */

/*
 * A new address space's number.  Should they run out (2^29 records that
 * change maps), every address space is numbered again from 1 and what was
 * cached under the old numbers forgotten.
 */
static uint32_t
as_new(struct hist *h)
{
	if (h->wk.nas >= HIST_AS_MAX - 1) {
		h->wk.nas = 0;
		h->wk.kepoch = 0;
		for (size_t i = 0; i < h->wk.pen; i++)
			h->wk.pe[i].epoch = ++h->wk.nas;
		if (h->wk.capfs > 0)
			memset(h->wk.fs, 0xff, h->wk.capfs * sizeof *h->wk.fs);
		h->wk.nfs = 0;
		h->wk.cmemo[0].n = h->wk.cmemo[1].n = 0;
		if (h->wk.capgone > 0)
			memset(h->wk.as_gone, 0, h->wk.capgone);
	}
	return ++h->wk.nas;
}

/*
 * Address space as is seen no more, or seldom (numbered anew, its process
 * exited): level 1 may drop its slots when it runs out of room (a memo:
 * what it dropped is resolved again, to the same frame, if asked).
 */
static void
as_gone(struct hist *h, uint32_t as)
{
	if ((size_t)(as >> 3) >= h->wk.capgone) {
		size_t old = h->wk.capgone;

		GROW(h->wk.as_gone, h->wk.capgone, (size_t)(as >> 3) + 1);
		memset(h->wk.as_gone + old, 0, h->wk.capgone - old);
	}
	h->wk.as_gone[as >> 3] |= (uint8_t)(1u << (as & 7));
}

static inline bool
as_is_gone(const struct hist *h, uint32_t as)
{
	return (size_t)(as >> 3) < h->wk.capgone && (h->wk.as_gone[as >> 3] >> (as & 7) & 1) != 0;
}

/* An EXIT record: the address space of a process whose main thread ended is gone. */
static void
as_exit(struct hist *h, const struct rec *r)
{
	struct rec_who w = { -1, -1, 0, false };
	uint32_t i;

	if (record_who(r, &w) < 0 || w.pid != w.tid || w.pid == -1)
		return;
	i = hmap_get(&h->wk.pe_tab, (uint32_t)(int32_t)w.pid);
	if (i != HMAP_NONE)
		as_gone(h, h->wk.pe[i].epoch);
}

static uint32_t *
epoch_slot(struct hist *h, int32_t pid)
{
	uint32_t i = hmap_get(&h->wk.pe_tab, (uint32_t)pid);

	if (i == HMAP_NONE) {
		uint32_t as = as_new(h);

		GROW(h->wk.pe, h->wk.pecap, h->wk.pen + 1);
		i = (uint32_t)h->wk.pen++;
		h->wk.pe[i].pid = pid;
		h->wk.pe[i].epoch = as;
		hmap_set(&h->wk.pe_tab, (uint32_t)pid, i);
	}
	return &h->wk.pe[i].epoch;
}

/* A record that may change what an address of pid resolves to. */
static void
epoch_bump(struct hist *h, const struct rec *r)
{
	struct rec_who w = { -1, -1, 0, false };
	int32_t pid;
	uint32_t *as;

	/* (a FORK too short for its whole body changes no maps: no bump) */
	if (record_who(r, &w) < 0)
		return;
	pid = (int32_t)w.pid;
	if (r->type == PF_REC_COMM && !(r->misc & PERF_RECORD_MISC_COMM_EXEC))
		return;
	if (pid == -1 && (r->type == PF_REC_MMAP || r->type == PF_REC_MMAP2)) {
		as_gone(h, h->wk.kepoch);
		h->wk.kepoch = as_new(h);
	} else {
		as = epoch_slot(h, pid);
		as_gone(h, *as);
		*as = as_new(h);
	}
}

/* struct frame as fc_same and fc_slot know it: a field more, and they must too. */
_Static_assert(sizeof(struct frame) == 40, "fc_same and fc_slot see every field of a frame");

/* Does a frame keep its ip in its level-2 key (see struct fcache)? */
static inline bool
fc_by_ip(const struct hist *h, const struct frame *f)
{
	return f->sym == SYM_NONE || h->o.paths_address;
}

/* Is frame a the frame b (by_ip: its ip too)? */
static inline bool
fc_same(const struct frame *a, const struct frame *b, bool by_ip)
{
	return (!by_ip || a->ip == b->ip) && a->rel == b->rel && a->symoff == b->symoff &&
	    a->dso == b->dso && a->sym == b->sym && a->cpumode == b->cpumode &&
	    a->why == b->why && a->kernel == b->kernel && a->src == b->src;
}

/*
 * The level-2 table's slot (fct: capfct a power of two, > 0) where frame
 * f's id is, or the empty one it would take.
 */
static size_t
fc_slot(const struct hist *h, const struct frame *f)
{
	bool by_ip = fc_by_ip(h, f);
	size_t mask = h->wk.capfct - 1, i;

	i = (size_t)hash_mix64(f->rel ^ (by_ip ? f->ip * 31 : 0) ^
	    ((uint64_t)f->dso << 32 | f->sym) * UINT64_C(0x9e3779b97f4a7c15) ^
	    f->symoff * 7 ^ ((uint64_t)f->src << 24 | (uint64_t)f->cpumode << 16 |
	    (uint64_t)f->why << 8 | f->kernel)) & mask;
	while (h->wk.fct[i] != NONE32 && !fc_same(&h->wk.fc[h->wk.fct[i]].f, f, by_ip))
		i = (i + 1) & mask;
	return i;
}

/* The level-2 entry of frame f, made on first use. */
static uint32_t
fc_intern(struct hist *h, const struct frame *f)
{
	struct fcache *c;
	size_t i;

	if (h->wk.capfct > 0 && h->wk.fct[i = fc_slot(h, f)] != NONE32)
		return h->wk.fct[i];
	if ((h->wk.nfc + 1) * 4 > h->wk.capfct * 3) {
		/* twice the room, at most three quarters full */
		free(h->wk.fct);
		h->wk.capfct = h->wk.capfct > 0 ? h->wk.capfct * 2 : 1024;
		h->wk.fct = xreallocarray(NULL, h->wk.capfct, sizeof *h->wk.fct);
		memset(h->wk.fct, 0xff, h->wk.capfct * sizeof *h->wk.fct);
		for (uint32_t id = 0; id < h->wk.nfc; id++)
			h->wk.fct[fc_slot(h, &h->wk.fc[id].f)] = id;
	}
	GROW(h->wk.fc, h->wk.capfc, h->wk.nfc + 1);
	c = &h->wk.fc[h->wk.nfc];
	c->f = *f;
	c->node[0] = c->node[1] = c->node[2] = c->node[3] = c->srcline = c->anode = NONE32;
	c->inl = 0;
	c->ninl = NONE32;
	c->lab[0] = c->lab[1] = 0;
	h->wk.fct[fc_slot(h, f)] = (uint32_t)h->wk.nfc;
	return (uint32_t)h->wk.nfc++;
}

/* The level-1 slot where key (ip, as) is, or the empty one it would take (capfs > 0). */
static inline size_t
fs_slot(const struct hist *h, uint64_t ip, uint32_t as)
{
	size_t mask = h->wk.capfs - 1, i;

	i = (size_t)hash_mix64(ip + as * UINT64_C(0x9e3779b97f4a7c15)) & mask;
	while (h->wk.fs[i].fc != NONE32 && (h->wk.fs[i].ip != ip || h->wk.fs[i].as != as))
		i = (i + 1) & mask;
	return i;
}

/*
 * Level 1 is three quarters full: its slots of address spaces gone are
 * dropped, and the rest go to a table where they fill at most three
 * eighths (twice the room, or less when many went).
 */
static void
fs_grow(struct hist *h)
{
	struct fslot *old = h->wk.fs;
	size_t oldcap = h->wk.capfs, live = 0;

	for (size_t i = 0; i < oldcap; i++)
		if (old[i].fc != NONE32 && !as_is_gone(h, old[i].as >> 3))
			live++;
	h->wk.capfs = 16;
	while (h->wk.capfs * 3 < (live + 1) * 8)
		h->wk.capfs *= 2;
	h->wk.fs = xreallocarray(NULL, h->wk.capfs, sizeof *h->wk.fs);
	memset(h->wk.fs, 0xff, h->wk.capfs * sizeof *h->wk.fs);
	for (size_t i = 0; i < oldcap; i++)
		if (old[i].fc != NONE32 && !as_is_gone(h, old[i].as >> 3))
			h->wk.fs[fs_slot(h, old[i].ip, old[i].as)] = old[i];
	h->wk.nfs = live;
	free(old);
}

/*
 * Resolve through the caches: one symbolizer call per distinct address.
 * Returns the level-2 id (the array may move as it grows).
 */
static uint32_t
resolve(struct hist *h, int32_t pid, int32_t tid, uint64_t time, uint8_t cpumode, uint64_t ip,
    uint32_t *last_pid_epoch)
{
	uint32_t as = (cpumode == PERF_RECORD_MISC_KERNEL ? h->wk.kepoch : *last_pid_epoch) << 3 |
	    (cpumode & PERF_RECORD_MISC_CPUMODE_MASK);
	struct frame f;
	size_t i;
	uint32_t id;

	if (h->wk.capfs > 0 && h->wk.fs[i = fs_slot(h, ip, as)].fc != NONE32)
		return h->wk.fs[i].fc;
	if (h->z != NULL) {
		symbolizer_resolve(h->z, pid, tid, time, cpumode, ip, &f);
	} else {
		memset(&f, 0, sizeof f);
		f.ip = f.rel = ip;
		f.dso = DSO_NONE;
		f.sym = SYM_NONE;
		f.cpumode = cpumode;
		f.why = SYM_WHY_NO_MAP;
		f.kernel = cpumode == PERF_RECORD_MISC_KERNEL ||
		    cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
	}
	id = fc_intern(h, &f);
	if ((h->wk.nfs + 1) * 4 > h->wk.capfs * 3)
		fs_grow(h);
	i = fs_slot(h, ip, as);
	h->wk.fs[i].ip = ip;
	h->wk.fs[i].as = as;
	h->wk.fs[i].fc = id;
	h->wk.nfs++;
	return id;
}

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

/* Our string id for the comm of thread th at time (perf's rules). */
static uint32_t
comm_of(struct hist *h, int32_t tid, uint64_t time)
{
	const struct thread_table *t = session_threads(h->s);
	uint32_t th = thread_table_find(t, tid, time);
	struct tcomm *c;
	char buf[32];

	if (th == THREAD_NONE || t->v[th].first_comm == NONE32) {
		if (tid == 0)
			return hist_intern(h, "swapper");
		snprintf(buf, sizeof buf, ":%" PRId32, tid);
		return hist_intern(h, buf);
	}
	if (th >= h->wk.captc) {
		size_t old = h->wk.captc;

		GROW(h->wk.tc, h->wk.captc, (size_t)th + 1);
		for (size_t i = old; i < h->wk.captc; i++)
			h->wk.tc[i].ci = NONE32;
	}
	c = &h->wk.tc[th];
	if (c->ci == NONE32 || t->comms[c->ci].time > time)
		c->ci = t->v[th].first_comm;
	while (t->comms[c->ci].next != NONE32 && t->comms[t->comms[c->ci].next].time <= time)
		c->ci = t->comms[c->ci].next;
	if (c->ci >= h->wk.capcomm) {
		size_t old = h->wk.capcomm;

		GROW(h->wk.comm_id, h->wk.capcomm, (size_t)c->ci + 1);
		memset(h->wk.comm_id + old, 0, (h->wk.capcomm - old) * sizeof *h->wk.comm_id);
	}
	if (h->wk.comm_id[c->ci] == 0)
		h->wk.comm_id[c->ci] = hist_intern(h, strtab_get(&t->strs, t->comms[c->ci].name)) + 1;
	return h->wk.comm_id[c->ci] - 1;
}

/*
 * A branch address resolved as perf resolves branch entries: as a user
 * address, then as a kernel one.  Returns the frame cache id.
 */
static uint32_t
resolve_any(struct hist *h, int32_t pid, int32_t tid, uint64_t time, uint64_t addr,
    uint32_t *last_epoch)
{
	uint32_t c = resolve(h, pid, tid, time, PERF_RECORD_MISC_USER, addr, last_epoch);

	if (h->wk.fc[c].f.dso == DSO_NONE) {
		uint32_t kc = resolve(h, pid, tid, time, PERF_RECORD_MISC_KERNEL, addr, last_epoch);

		if (h->wk.fc[kc].f.dso != DSO_NONE)
			c = kc;
	}
	return c;
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
 * perf report's branch mode (the default when the recording has branch
 * stacks): every branch entry of a sample is a row of period 1, at the
 * branch target (resolved as user, then kernel address), labelled with
 * the sample's [k]/[.]; branch keys see its source and target as perf's
 * columns label them, and its cycles.
 */
static void
add_branches(struct hist *h, const struct sample *smp, uint32_t ev, struct key_src *src,
    uint8_t cpumode, uint32_t *last_epoch)
{
	int32_t pid = src->pid, tid = src->tid;

	for (uint64_t i = 0; i < smp->branch_nr; i++) {
		struct branch_ent be = sample_branch(smp, i);
		uint64_t from = be.from, to = be.to;
		uint32_t c = resolve_any(h, pid, tid, smp->time, to, last_epoch);
		struct fkey k, kf, kt;

		brstat_add(&h->ks.brstat, be.flags, from, to);

		cached_key(h, c, NODE_BRANCH, cpumode, &k);
		src->f = &k;
		if (h->ks.branch_keys) {
			edge_key(h, c, to, false, cpumode, &kt);
			c = resolve_any(h, pid, tid, smp->time, from, last_epoch);
			edge_key(h, c, from, false, cpumode, &kf);
			src->from = &kf;
			src->to = &kt;
			src->cycles = BRF_CYCLES(be.flags);
		}
		hist_add_keys(h, ev, src, 1, NULL, 0);
	}
	src->from = src->to = NULL;
}

#define HIST_DROP_STEP	(UINT64_C(64) << 20)
#define HIST_DROP_SLACK	(UINT64_C(16) << 20)

/* The row of a delivery: the sample's at index position i, or with
 * offcpu_beside an off-CPU span's (sp not SIZE_MAX: the span). */
static void
keep_row(struct hist *h, size_t i, size_t sp, uint32_t row, uint64_t period)
{
	if (h->rc.sample_row == NULL)
		return;
	if (sp != SIZE_MAX && h->o.offcpu_beside) {
		if (h->rc.span_row != NULL)
			h->rc.span_row[sp] = row;	/* its period is the span's */
		return;
	}
	h->rc.sample_row[i] = row;
	hist_keep_period(h, i, period);
}

/* A sample of event ev at index position i the filter keeps in the totals only. */
static void
totals_only(struct hist *h, size_t i, size_t sp, uint32_t ev, uint64_t period, uint32_t par)
{
	h->ev[ev].total_period += period;
	if (h->o.parallel != NULL)
		h->ev[ev].total_latency += parallel_latency(period, par);
	h->ev[ev].nsamples++;
	if (h->rc.sample_row != NULL && ev >= 0xffff)
		h->rc.no_rescope = true;
	keep_row(h, i, sp, ROW_TOTALS | (ev & 0xffff), period);
}

/*
 * perf report --mem-mode (add_sample makes a sample's period its WEIGHT,
 * 1 without one): with memory keys its data address (ADDR) is resolved
 * with the sample's cpumode, and its PHYS_ADDR's text and cache line key
 * made for the keys that want them.
 */
static void
mem_sample(struct hist *h, const struct sample *smp, struct key_src *src, uint8_t cpumode,
    uint32_t *last_epoch, struct fkey *dk)
{
	uint32_t c;

	if (!h->ks.mem_keys)
		return;
	c = resolve(h, src->pid, src->tid, smp->time, cpumode, smp->addr, last_epoch);
	edge_key(h, c, smp->addr, true, cpumode, dk);
	src->daddr = dk;
	if (h->ks.keymask & HIST_KEEP(HIST_KEY_PHYS_DADDR))
		src->phys_lab = hist_mem_phys(h, smp->phys_addr, cpumode);
	if (h->ks.keymask & HIST_KEEP(HIST_KEY_DCACHELINE)) {
		struct frame f = h->wk.fc[c].f;

		f.ip = smp->addr;	/* the cached frame's may be another address's */
		src->dcl = hist_mem_dcl(h, &f, src->pid, smp->time, cpumode, &src->dcl_lab);
	}
}

/* The walk's state between samples. */
struct walk {
	bool		 branch_mode;	/* perf's branch mode (add_branches) */
	bool		 reads;		/* samples with READ values: one per value (read_deliver) */
	bool		 head_only;	/* a sample's fixed head is enough */
	/* a cache of the last pid's epoch: starting cold gives the same results */
	int32_t		 last_pid;
	uint32_t	 last_epoch;
	size_t		 span;		/* hist_opts.offcpu: the first span of this sample */
	size_t		 nspan;		/* and how many are at its position */
	size_t		 pstep;		/* hist_opts.parallel: the first step at or after it */
};

static bool
changes_maps(unsigned type)
{
	return type == PF_REC_MMAP || type == PF_REC_MMAP2 ||
	    type == PF_REC_COMM || type == PF_REC_FORK;
}

/*
 * A sample resolves with the maps at its time, those of records with the
 * same time included, wherever they lie among records of that time (the
 * symbolizer's rule; script's too): so the records that change maps in a
 * run of equal times bump their epochs when the run starts (at index
 * position i), and no cached answer from before crosses them.  Looked for
 * past the range's end: a pass split in two gives one pass's rows.
 */
static void
bump_run(struct hist *h, struct walk *w, size_t i)
{
	const struct session *s = h->s;
	const struct rec_index *ix = session_index(s);
	uint64_t time = index_ent(ix, i)->time;
	struct rec r;

	for (size_t j = i + 1; j < ix->n && index_ent(ix, j)->time == time; j++) {
		if (changes_maps(ent_type(index_ent(ix, j))) &&
		    session_rec(s, ent_loc(index_ent(ix, j)), &r) == 0) {
			epoch_bump(h, &r);
			w->last_pid = INT32_MIN;
		}
	}
}

/*
 * The index is in time order, nearly file order: what lies well behind
 * the furthest record read (loc) is not needed again (if it is, it faults
 * back in from the page cache).
 */
static void
drop_behind(struct hist *h, uint64_t loc)
{
	const struct session *s = h->s;

	if (session_nfiles(s) != 1 || loc >= SESSION_ZLOC)
		return;
	if (loc > h->wk.drop_hi)
		h->wk.drop_hi = loc;
	if (h->wk.drop_hi - h->wk.drop_lo >= HIST_DROP_STEP + HIST_DROP_SLACK) {
		session_drop_pages(s, h->wk.drop_lo, h->wk.drop_hi - HIST_DROP_SLACK);
		h->wk.drop_lo = h->wk.drop_hi - HIST_DROP_SLACK;
	}
}

/* A chain_ip's cpumode for a branch address: resolved as perf resolves those (resolve_any). */
#define CPUMODE_ANY	0xff

/*
 * The frame cache (level-2) ids of h->wk.ips[0..n) into h->wk.cs (CPUMODE_ANY: resolve_any).  Consecutive
 * samples of an address space share their chains' outer frames: those are
 * taken from its last chain (cmemo: the last two address spaces, each as
 * (pid, its address space, the kernel's), the key resolve() caches under) where the
 * frames match from the outermost in, and only the rest is looked up.
 */
static void
resolve_chain(struct hist *h, struct walk *w, size_t n, int32_t pid, int32_t tid, uint64_t time)
{
	struct chain_memo *m = &h->wk.cmemo[0];
	size_t a = n, b;

	if (m->n == 0 || m->pid != pid || m->epoch != w->last_epoch || m->kepoch != h->wk.kepoch) {
		struct chain_memo t = h->wk.cmemo[1];

		h->wk.cmemo[1] = h->wk.cmemo[0];
		h->wk.cmemo[0] = t;
		if (m->pid != pid || m->epoch != w->last_epoch || m->kepoch != h->wk.kepoch)
			m->n = 0;
	}
	for (b = m->n; a > 0 && b > 0 && m->ip[b - 1] == h->wk.ips[a - 1].ip &&
	    m->cpumode[b - 1] == h->wk.ips[a - 1].cpumode; a--, b--)
		h->wk.cs[a - 1] = m->cs[b - 1];
	for (size_t j = 0; j < a; j++)
		h->wk.cs[j] = h->wk.ips[j].cpumode == CPUMODE_ANY ?
		    resolve_any(h, pid, tid, time, h->wk.ips[j].ip, &w->last_epoch) :
		    resolve(h, pid, tid, time, h->wk.ips[j].cpumode, h->wk.ips[j].ip, &w->last_epoch);
	if (n > m->cap) {
		m->cap = n;
		m->ip = xreallocarray(m->ip, n, sizeof *m->ip);
		m->cpumode = xreallocarray(m->cpumode, n, sizeof *m->cpumode);
		m->cs = xreallocarray(m->cs, n, sizeof *m->cs);
	}
	m->pid = pid;
	m->epoch = w->last_epoch;
	m->kepoch = h->wk.kepoch;
	m->n = n;
	for (size_t j = 0; j < n; j++) {
		m->ip[j] = h->wk.ips[j].ip;
		m->cpumode[j] = h->wk.ips[j].cpumode;
	}
	if (n > 0)
		memcpy(m->cs, h->wk.cs, n * sizeof *m->cs);
}

/*
 * The frames of a sample's chain into out (room for max), at most max_stack
 * of them: perf counts them from where it starts its walk, so in caller
 * order a recorded chain keeps its outermost frames (an unwound one its
 * innermost: the unwinder stops there).  Returns their count.
 */
static size_t
chain_ips(struct hist *h, const struct sample *smp, uint16_t misc, struct chain_ip *out, size_t max)
{
	bool outer = h->o.caller_order && h->o.max_stack != 0 &&
	    (smp->sample_type & PERF_SAMPLE_STACK_USER) == 0;
	size_t n = symbolizer_chain_ips(h->z, smp, misc, out, max, outer ? 0 : h->o.max_stack);

	if (outer && n > h->o.max_stack) {
		memmove(out, out + (n - h->o.max_stack), h->o.max_stack * sizeof *out);
		n = h->o.max_stack;
	}
	return n;
}

/*
 * The level each of the n frames of h->wk.cs takes where it is in no map
 * (hist_chain_cpumode), into h->wk.lv: perf's walk goes from the sample's own
 * entry (cpumode), root first with chain_root_first.
 */
static void
chain_levels(struct hist *h, size_t n, uint8_t cpumode)
{
	uint8_t lv = cpumode;

	GROW(h->wk.lv, h->wk.caplv, n + 1);
	for (size_t j = 0; j < n; j++) {
		size_t i = h->o.chain_root_first ? n - 1 - j : j;

		lv = hist_chain_cpumode(lv, &h->wk.fc[h->wk.cs[i]].f);
		h->wk.lv[i] = lv;
	}
}

/*
 * perf's callchain walk of a sample (callee order), unwinding included:
 * the keys of its frames into h->wk.chain.  Returns their count.
 */
static size_t
chain_of(struct hist *h, struct walk *w, const struct sample *smp, uint16_t misc, int32_t pid,
    int32_t tid, uint8_t cpumode)
{
	size_t want = smp->callchain_nr + 256, n, nips;

	if (want > h->wk.capips) {
		h->wk.ips = xreallocarray(h->wk.ips, want, sizeof *h->wk.ips);
		h->wk.capips = want;
	}
	n = chain_ips(h, smp, misc, h->wk.ips, want);
	GROW(h->wk.chain, h->wk.capchain, n + 1);
	if (n > h->wk.capcs) {
		h->wk.capcs = n;
		h->wk.cs = xreallocarray(h->wk.cs, h->wk.capcs, sizeof *h->wk.cs);
	}
	resolve_chain(h, w, n, pid, tid, smp->time);
	nips = n;
	n = 0;
	chain_levels(h, nips, cpumode);
	/*
	 * perf, with --children or -g caller, walks the chain in caller order
	 * and asks for inline levels as it goes, and its answers depend on the
	 * order of first questions.
	 */
	if (h->ptr.ptree || h->o.caller_order)
		for (size_t j = nips; j-- > 0;)
			(void)chain_keys(h, h->wk.cs[j], h->wk.ips[j].unwound, h->wk.lv[j], 0);
	for (size_t j = 0; j < nips; j++)
		n = chain_keys(h, h->wk.cs[j], h->wk.ips[j].unwound, h->wk.lv[j], n);
	return n;
}

/*
 * --branch-history of a sample whose user chain is its branch stack
 * (--call-graph lbr): perf adds no branches, but the chain's user frames
 * came from them.  The newest call's target counts as a branch target; the
 * call sites as targets too in callee order (perf passes them that call's
 * source, which it has by then) and as sources in caller order (it has
 * none yet).
 */
static size_t
lbr_history_of(struct hist *h, struct walk *w, const struct sample *smp, uint16_t misc,
    int32_t pid, int32_t tid, uint8_t cpumode)
{
	size_t n = chain_of(h, w, smp, misc, pid, tid, cpumode);
	size_t user = smp->branch_nr > 0 && n >= smp->branch_nr + 1 ? n - (smp->branch_nr + 1) : n;
	uint64_t from = smp->branch_nr > 0 ? sample_branch(smp, 0).from : 0;

	GROW(h->ps.chbr, h->ps.capchbr, n + 1);
	for (size_t j = 0; j < n; j++) {
		h->ps.chbr[j] = (struct brh_frame){ .kind = BRH_CHAIN };
		if (j < user)
			continue;
		h->ps.chbr[j].ip = h->wk.ips[j].ip;
		h->ps.chbr[j].from = from;
		h->ps.chbr[j].flags = sample_branch(smp, j == user ? 0 : j - user - 1).flags;
		h->ps.chbr[j].kind = from != 0 && (j == user || !h->o.caller_order) ? BRH_TO : BRH_FROM;
	}
	h->ps.nchbr = n;
	return n;
}

/*
 * perf's --branch-history chain of a sample (symbolize/brhist.h): its
 * branch frames and the part of its callchain perf keeps, as keys into
 * h->wk.chain, innermost first (for caller order the reverse of perf's
 * cursor, which the path tree reads root first), and what each frame
 * carried into h->ps.chbr beside them.  Returns their count.
 */
static size_t
brhist_chain_of(struct hist *h, struct walk *w, const struct sample *smp, uint16_t misc,
    int32_t pid, int32_t tid, uint8_t cpumode)
{
	struct brh_frame bf[2 * BR_MAX_DEPTH];
	struct sample cs = *smp;
	size_t lo, hi, at, m = 0, nb, nc = 0, n;
	bool caller = h->o.caller_order;

	h->rc.no_rescope = true;	/* hist_rescope does not recount branch counts */
	if (symbolizer_lbr_stack(h->z, smp, h->o.max_stack))
		return lbr_history_of(h, w, smp, misc, pid, tid, cpumode);
	nb = brhist_frames(smp, caller, h->o.max_stack, bf, &lo, &hi, &at);
	GROW(h->ps.brraw, h->ps.capbrraw, hi - lo + 1);
	if (at != SIZE_MAX)
		memcpy(&h->ps.brraw[m++], smp->callchain + 8 * at, 8);
	if (hi > lo)
		memcpy(&h->ps.brraw[m], smp->callchain + 8 * lo, 8 * (hi - lo));
	m += hi - lo;
	/* the recorded chain only: perf adds no branches to unwound stacks */
	cs.callchain = (const uint8_t *)h->ps.brraw;
	cs.callchain_nr = m;
	cs.sample_type &= ~(uint64_t)PERF_SAMPLE_STACK_USER;
	cs.stack = NULL;
	cs.stack_size = cs.stack_dyn_size = 0;
	n = m + nb;
	if (n > h->wk.capips) {
		h->wk.ips = xreallocarray(h->wk.ips, n, sizeof *h->wk.ips);
		h->wk.capips = n;
	}
	/* callee: branches, then the chain; caller: the chain, then branches reversed */
	if (m > 0)
		nc = chain_ips(h, &cs, misc, h->wk.ips + (caller ? 0 : nb), m);
	n = nb + nc;
	GROW(h->ps.chbr, h->ps.capchbr, n + 1);
	for (size_t j = 0; j < nb; j++) {
		size_t k = caller ? nc + nb - 1 - j : j;

		h->wk.ips[k] = (struct chain_ip){ bf[j].ip, CPUMODE_ANY, false };
		h->ps.chbr[k] = bf[j];
	}
	for (size_t j = 0; j < nc; j++)
		h->ps.chbr[caller ? j : nb + j] = (struct brh_frame){ .kind = BRH_CHAIN };
	GROW(h->wk.chain, h->wk.capchain, n + 1);
	if (n > h->wk.capcs) {
		h->wk.capcs = n;
		h->wk.cs = xreallocarray(h->wk.cs, h->wk.capcs, sizeof *h->wk.cs);
	}
	h->ps.nchbr = n;
	resolve_chain(h, w, n, pid, tid, smp->time);
	for (size_t j = 0; j < n; j++)
		(void)chain_keys(h, h->wk.cs[j], false, cpumode, j);
	return n;
}

/*
 * The chain perf report gives a sample without one in a trace session
 * (its thread's stack, from the trace: symbolize/chainsrc.h), as keys into
 * h->wk.chain: in a hist that keeps paths and not children, as the trace's
 * own samples get theirs.  Returns their count.
 */
static size_t
trace_chain_of(struct hist *h, struct walk *w, size_t i, const struct sample *smp, int32_t pid,
    int32_t tid, uint8_t cpumode)
{
	const uint64_t *ips;
	size_t n = h->wk.trace_src->of_sample(h->wk.trace_chains, i, &ips);

	if (h->o.max_stack != 0 && n > h->o.max_stack)
		n = h->o.max_stack;
	GROW(h->wk.chain, h->wk.capchain, n + 1);
	for (size_t j = 0; j < n; j++) {
		uint32_t c = resolve(h, pid, tid, smp->time, h->wk.trace_src->cpumode(ips[j]), ips[j],
		    &w->last_epoch);

		cached_key(h, c, NODE_CHAIN, cpumode, &h->wk.chain[j]);
	}
	return n;
}

/* The attr index of the off-CPU pseudo event: past the session's own, and
 * past the events an Intel PT trace makes up (those follow them). */
static int
offcpu_attr(const struct session *s)
{
	return (int)session_attrs(s)->n + 64;
}

/* An off-CPU span's waker into src (the waker key's: else none). */
static void
waker_of(struct hist *h, size_t span, struct key_src *src)
{
	uint64_t pos = span != SIZE_MAX ? h->o.offcpu->v[span].waker : OFFCPU_NO_WAKER;
	const struct rec_index *ix = session_index(h->s);
	struct ent_who w;

	src->waker_comm = 0;
	src->waker_tid = 0;
	if (!(h->ks.keymask & HIST_KEEP(HIST_KEY_WAKER)) || pos >= ix->n)
		return;
	w = session_ent_who(h->s, (size_t)pos);
	src->waker_tid = w.tid;
	src->waker_comm = comm_of(h, w.tid, index_ent(ix, (size_t)pos)->time) + 1;
}

/* hist_opts.offcpu: how many spans the sample at index position i is the
 * switch-out of (w->span then the first).  Positions come in increasing order. */
static size_t
offcpu_at(const struct hist *h, struct walk *w, size_t i)
{
	const struct offcpu *oc = h->o.offcpu;
	size_t n = 0;

	while (w->span < oc->n && oc->v[w->span].pos < i)
		w->span++;
	while (w->span + n < oc->n && oc->v[w->span + n].pos == i)
		n++;
	return n;
}

/* hist_opts.parallel: the parallelism of the sample at index position i
 * (positions come in increasing order); 1 without a model, as perf's. */
static uint32_t
par_at(const struct hist *h, struct walk *w, size_t i)
{
	const struct parallel *p = h->o.parallel;

	if (p == NULL)
		return 1;
	while (w->pstep < p->n && p->v[w->pstep].pos < i)
		w->pstep++;
	return parallel_clamp(p, w->pstep > 0 ? p->v[w->pstep - 1].count : 1);
}

/* A sample with READ values is a sample per value delivered (core/sample_read.h). */
#define READ_MAX	64

/* The off-CPU spans of the sample after the k deliveries in d: their
 * deliveries, sp[] their spans.  The new count. */
static size_t
span_deliveries(struct hist *h, const struct walk *w, const struct sample *smp,
    struct read_delivery *d, size_t *sp, size_t k)
{
	for (size_t j = 0; j < w->nspan && k < READ_MAX; j++, k++) {
		d[k] = (struct read_delivery){ offcpu_attr(h->s), h->o.offcpu->v[w->span + j].ns, smp->id };
		sp[k] = w->span + j;
	}
	return k;
}

/*
 * The samples perf makes of smp: itself (its event, period), or one per
 * READ value delivered; those of h->o.event only when one is asked for.
 * With hist_opts.offcpu, its off-CPU spans in their place, or besides
 * (offcpu_beside).  Their number; sp[k] the span of delivery k, or SIZE_MAX.
 */
static size_t
deliveries(struct hist *h, struct walk *w, const struct sample *smp, uint64_t period,
    struct read_delivery *d, size_t *sp)
{
	size_t n, k = 0;

	for (size_t j = 0; j < READ_MAX; j++)
		sp[j] = SIZE_MAX;
	if (h->o.offcpu != NULL && !h->o.offcpu_beside)
		return span_deliveries(h, w, smp, d, sp, 0);
	if (!(w->reads && (smp->sample_type & PERF_SAMPLE_READ))) {
		d[0] = (struct read_delivery){ smp->attr, period, smp->id };
		k = h->o.event < 0 || smp->attr == h->o.event;
	} else {
		n = read_deliver(h->s, &h->wk.rs, smp, d, READ_MAX);
		for (size_t j = 0; j < n; j++)
			if (h->o.event < 0 || d[j].attr == h->o.event)
				d[k++] = d[j];
		if (n > 1)
			h->rc.no_rescope = true;	/* several samples at one index position */
	}
	/* perf's offcpu-time samples are the off-CPU event's: not twice */
	if (h->o.offcpu != NULL && w->nspan > 0 && (h->o.offcpu->v[w->span].flags & OFFCPU_BPF))
		k = 0;
	return h->o.offcpu != NULL ? span_deliveries(h, w, smp, d, sp, k) : k;
}

/* The trace key's value of a sample: its payload's text as perf script
 * prints it (string id + 1), 0 for a sample of another type of event (perf's
 * "N/A") or when the key is not asked for. */
static uint32_t
trace_of(struct hist *h, const struct sample *smp)
{
	const struct attr_table *at = session_attrs(h->s);
	const char *text;

	if ((h->ks.keymask & HIST_KEEP(HIST_KEY_TRACE)) == 0 || smp->attr < 0 ||
	    (size_t)smp->attr >= at->n || at->v[smp->attr].attr.type != PERF_TYPE_TRACEPOINT ||
	    (smp->sample_type & PERF_SAMPLE_RAW) == 0)
		return 0;
	if (!h->wk.tp_tried) {
		h->wk.tp = tpevent_new(h->s);
		h->wk.tp_tried = true;
	}
	text = h->wk.tp != NULL ? tpevent_text(h->wk.tp, at->v[smp->attr].attr.config, smp->raw,
	    smp->raw_size, smp->cpu, NULL) : "[no tracing data]";
	return hist_intern(h, text) + 1;
}

/*
 * Add the sample at index position i, record r.  Returns 1 if added, 0 if
 * left out, -1 if undecodable.
 */
static int
add_sample(struct hist *h, struct walk *w, size_t i, const struct rec *r)
{
	const struct session *s = h->s;
	struct sample smp;
	struct key_src src;
	struct fkey sk, dk;
	struct read_delivery d[READ_MAX];
	uint8_t cpumode;
	uint64_t period;
	uint32_t ev[READ_MAX], self = 0;
	size_t n = 0, nd, sp[READ_MAX];
	unsigned fl;
	bool embedded;

	if ((w->head_only ? record_sample_head(session_attrs(s), r, record_attr(session_attrs(s), r), &smp) :
	    record_decode_sample(session_attrs(s), r, &smp, NULL)) < 0)
		return -1;
	/* offcpu-time samples: their fields as perf writes them (6.15's in the raw
	 * data, a user stack); one span each */
	fl = w->nspan > 0 ? h->o.offcpu->v[w->span].flags : 0;
	embedded = (fl & OFFCPU_EMBEDDED) != 0;
	if ((fl & OFFCPU_BPF) && !offcpu_bpf_sample(&smp))
		return -1;
	if (!filter_sample_ok(h->o.filter, smp.time, (smp.sample_type & PERF_SAMPLE_CPU) != 0,
	    smp.cpu))
		return w->reads ? read_skip(s, &h->wk.rs, &smp) : 0;	/* as perf: values taken in */
	period = smp.period;
	/* A sample whose id names no event (attr -1) was decoded with the
	 * layout of attr 0 (record.c), its default period is attr 0's. */
	if (!(smp.sample_type & PERF_SAMPLE_PERIOD))
		period = session_attrs(s)->v[smp.attr >= 0 ? smp.attr : 0].attr.sample_period;
	if ((nd = deliveries(h, w, &smp, period, d, sp)) == 0)
		return 0;
	for (size_t k = 0; k < nd && h->o.mem_mode; k++)
		d[k].period = smp.weight != 0 ? smp.weight : 1;
	src.pid = (smp.sample_type & PERF_SAMPLE_TID) ? (int32_t)smp.pid : -1;
	src.tid = (smp.sample_type & PERF_SAMPLE_TID) ? (int32_t)smp.tid : -1;
	src.cpu = smp.cpu;
	src.from = src.to = src.daddr = NULL;
	src.cycles = 0;
	src.data_src = smp.data_src;
	src.page_size = smp.data_page_size;
	/* the weights are keys in any mode (perf's common keys): not of a head only */
	src.weight = w->head_only ? 0 : smp.weight;
	src.ins_lat = !w->head_only && (smp.sample_type & PERF_SAMPLE_WEIGHT_STRUCT) ?
	    smp.weight_var2 : 0;
	src.phys = w->head_only ? 0 : smp.phys_addr;
	src.phys_lab = src.dcl = src.dcl_lab = 0;
	if (src.pid != w->last_pid) {
		w->last_epoch = *epoch_slot(h, src.pid);
		w->last_pid = src.pid;
	}
	if (w->branch_mode && smp.branch == NULL)
		return 0;	/* as perf: no branch stack, no rows */
	cpumode = embedded ? PERF_RECORD_MISC_USER : r->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	for (size_t k = 0; k < nd; k++)
		ev[k] = hist_event_of(h, d[k].attr, sp[k] != SIZE_MAX ? OFFCPU_EVENT_NAME :
		    session_attr_name(s, d[k].attr));
	src.comm = comm_of(h, src.tid, smp.time);
	src.trace = trace_of(h, &smp);
	src.state = 0;
	src.waker_comm = 0;
	src.waker_tid = 0;
	src.par = par_at(h, w, i);
	src.latency = 0;
	if (h->o.filter != NULL &&
	    (!filter_entry_ok(h->o.filter, src.pid, src.tid, hist_str(h, src.comm)) ||
	    !filter_par_ok(h->o.filter, src.par))) {
		/* perf's --comms/--pid/--tid/--parallelism: out of the rows, in the totals */
		for (size_t k = 0; k < nd; k++)
			totals_only(h, i, sp[k], ev[k], d[k].period, src.par);
		return 0;
	}
	if (!w->branch_mode || filter_has_frame(h->o.filter)) {
		struct frame sf;

		self = resolve(h, src.pid, src.tid, smp.time, cpumode, smp.ip, &w->last_epoch);
		sf = h->wk.fc[self].f;
		sf.ip = smp.ip;	/* the cached frame's may be another process's */
		if (!filter_frame_ok(h->o.filter, h->z, &sf)) {
			/* perf's --dsos/--symbols, by the sample's own address: as --comms */
			for (size_t k = 0; k < nd; k++)
				totals_only(h, i, sp[k], ev[k], d[k].period, src.par);
			return 0;
		}
	}
	if (w->branch_mode) {
		h->rc.no_rescope = true;	/* a row per branch: not one per sample */
		for (size_t k = 0; k < nd; k++)
			add_branches(h, &smp, ev[k], &src, cpumode, &w->last_epoch);
		return 1;
	}
	cached_key(h, self, NODE_SELF, cpumode, &sk);
	if (h->o.mem_mode)
		mem_sample(h, &smp, &src, cpumode, &w->last_epoch, &dk);
	if ((h->o.children || h->o.callgraph || h->o.paths) && h->o.branch_history &&
	    h->z != NULL)
		n = brhist_chain_of(h, w, &smp, r->misc, src.pid, src.tid, cpumode);
	else if ((h->o.children || h->o.callgraph || h->o.paths) && symbolizer_has_chain(&smp) &&
	    h->z != NULL)
		n = chain_of(h, w, &smp, r->misc, src.pid, src.tid, cpumode);
	else if (h->wk.trace_chains != NULL)
		n = trace_chain_of(h, w, i, &smp, src.pid, src.tid, cpumode);
	src.f = &sk;
	for (size_t k = 0; k < nd; k++) {
		/* an off-CPU span's state: its key (the state sort key) */
		src.state = sp[k] != SIZE_MAX ? h->o.offcpu->v[sp[k]].state + 1 : 0;
		waker_of(h, sp[k], &src);
		if (h->o.parallel != NULL)
			src.latency = parallel_latency(d[k].period, src.par);
		hist_add_keys(h, ev[k], &src, d[k].period, h->wk.chain, n);
		if (h->rc.sample_ent != NULL && (sp[k] == SIZE_MAX || !h->o.offcpu_beside))
			h->rc.sample_ent[i] = h->rc.last_self;
		keep_row(h, i, sp[k], h->ps.last_row, d[k].period);
	}
	/* the spans in its place: a sample added per span */
	return h->o.offcpu != NULL && !h->o.offcpu_beside ? (int)nd : 1;
}

void
hist_walk_drop(struct hist *h)
{
	free(h->wk.fs);
	h->wk.fs = NULL;
	h->wk.nfs = h->wk.capfs = 0;
	free(h->wk.fc);
	h->wk.fc = NULL;
	h->wk.nfc = h->wk.capfc = 0;
	free(h->wk.fct);
	h->wk.fct = NULL;
	h->wk.capfct = 0;
	free(h->wk.inl);
	h->wk.inl = NULL;
	h->wk.ninl = h->wk.capinl = 0;
	free(h->wk.ips);
	h->wk.ips = NULL;
	h->wk.capips = 0;
	free(h->wk.cs);
	h->wk.cs = NULL;
	h->wk.capcs = 0;
	free(h->wk.lv);
	h->wk.lv = NULL;
	h->wk.caplv = 0;
	for (int i = 0; i < 2; i++) {
		free(h->wk.cmemo[i].ip);
		free(h->wk.cmemo[i].cpumode);
		free(h->wk.cmemo[i].cs);
		memset(&h->wk.cmemo[i], 0, sizeof h->wk.cmemo[i]);
	}
	/* hist.c chain_entry's memo of entries by function node */
	free(h->ks.nmemo);
	h->ks.nmemo = NULL;
	h->ks.capnmemo = 0;
}

uint64_t
hist_add_range(struct hist *h, size_t from, size_t to, uint64_t *skipped)
{
	const struct session *s = h->s;
	const struct rec_index *ix = session_index(s);
	uint64_t added = 0, bad = 0;
	struct walk w = {
		.branch_mode = h->o.branch == HIST_BRANCH_ON ||
		    (h->o.branch == HIST_BRANCH_AUTO &&
		    session_features(s)->sec[PF_FEAT_BRANCH_STACK].present),
		.last_pid = INT32_MIN,
	};

	/* Self rows need only a sample's fixed head: no walk of its chain. */
	w.reads = session_has_read_samples(s);
	w.head_only = !h->o.children && !h->o.callgraph && !h->o.paths && !w.branch_mode && !w.reads &&
	    !h->o.mem_mode && !h->ks.whole_sample && (h->o.offcpu == NULL || !h->o.offcpu->embedded);
	if (to > ix->n)
		to = ix->n;
	if (h->o.offcpu != NULL)
		w.span = offcpu_lower(h->o.offcpu, from);
	if (h->o.parallel != NULL)
		w.pstep = parallel_lower(h->o.parallel, from);
	/* A hist that starts mid-session (one of a parallel pass) drops
	 * nothing before where it starts. */
	if (from > 0 && from < to && h->wk.drop_hi == 0 && ent_loc(index_ent(ix, from)) < SESSION_ZLOC)
		h->wk.drop_lo = h->wk.drop_hi = ent_loc(index_ent(ix, from));
	/* with paths a sample's own entry is its row's: no array of its own */
	if (h->o.record_self && !h->o.paths && h->rc.sample_ent == NULL && ix->n > 0) {
		h->rc.sample_ent = xreallocarray(NULL, ix->n, sizeof *h->rc.sample_ent);
		memset(h->rc.sample_ent, 0xff, ix->n * sizeof *h->rc.sample_ent);
	}
	if (h->o.paths && !h->o.children && h->z != NULL && !h->wk.trace_chains_made) {
		for (size_t k = 0; chain_srcs[k] != NULL && h->wk.trace_chains == NULL; k++) {
			h->wk.trace_src = chain_srcs[k];
			h->wk.trace_chains = chain_srcs[k]->make(s, h->z);
		}
		h->wk.trace_chains_made = true;
	}
	if (h->o.record_self && h->o.paths && h->rc.sample_row == NULL && ix->n > 0) {
		h->rc.sample_row = xreallocarray(NULL, ix->n, sizeof *h->rc.sample_row);
		memset(h->rc.sample_row, 0xff, ix->n * sizeof *h->rc.sample_row);
	}
	if (h->o.offcpu_beside && h->o.offcpu != NULL && h->rc.sample_row != NULL &&
	    h->rc.span_row == NULL && !h->rc.pos_lent && h->o.offcpu->n > 0) {
		h->rc.span_row = xreallocarray(NULL, h->o.offcpu->n, sizeof *h->rc.span_row);
		memset(h->rc.span_row, 0xff, h->o.offcpu->n * sizeof *h->rc.span_row);
	}
	if (from < to && from < h->rc.pos_lo)
		h->rc.pos_lo = from;
	if (from < to && to > h->rc.pos_hi)
		h->rc.pos_hi = to;
	for (size_t i = from; i < to; i++) {
		const struct rec_ent *ent = index_ent(ix, i);
		unsigned type = ent_type(ent);
		struct rec r;
		int rc;

		if (i == from || ent->time != index_ent(ix, i - 1)->time)
			bump_run(h, &w, i);
		drop_behind(h, ent_loc(ent));
		if (type != PF_REC_SAMPLE) {
			if (changes_maps(type) && session_rec(s, ent_loc(ent), &r) == 0) {
				epoch_bump(h, &r);
				w.last_pid = INT32_MIN;
			} else if (type == PF_REC_EXIT && session_rec(s, ent_loc(ent), &r) == 0) {
				as_exit(h, &r);
			}
			continue;
		}
		w.nspan = h->o.offcpu != NULL ? offcpu_at(h, &w, i) : 0;
		if (w.nspan > 1 && !h->o.offcpu_beside)
			h->rc.no_rescope = true;	/* several samples at one index position */
		if (h->o.offcpu != NULL && !h->o.offcpu_beside ? w.nspan == 0 :
		    h->o.event >= 0 && ent_attr(ent) != ENT_ATTR_NONE &&
		    (int)ent_attr(ent) != h->o.event && !w.reads && w.nspan == 0)
			continue;
		rc = session_rec(s, ent_loc(ent), &r) < 0 ? -1 : add_sample(h, &w, i, &r);
		if (rc < 0)
			bad++;
		else
			added += (uint64_t)rc;
	}
	/* the last samples: the caches are not needed again (else made again) */
	if (to == ix->n)
		hist_walk_drop(h);
	if (skipped != NULL)
		*skipped = bad;
	return added;
}

uint64_t
hist_add_session(struct hist *h, uint64_t *skipped)
{
	return hist_add_range(h, 0, session_index(h->s)->n, skipped);
}
