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

/*
 * The comm of thread tid at time (perf's rules): its index in the thread
 * table's comms, or NONE32 when the thread has none (the keys name it
 * "swapper" or ":TID", hist_keys.c).
 */
static uint32_t
comm_at(struct hist *h, int32_t tid, uint64_t time)
{
	const struct thread_table *t = session_threads(h->s);
	uint32_t th = thread_table_find(t, tid, time);
	struct tcomm *c;

	if (th == THREAD_NONE || t->v[th].first_comm == NONE32)
		return NONE32;
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
	return c->ci;
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

#define HIST_DROP_STEP	(UINT64_C(64) << 20)
#define HIST_DROP_SLACK	(UINT64_C(16) << 20)

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

/* Room for a chain of n frames in h->wk.cs and h->wk.lv. */
static void
chain_room(struct hist *h, size_t n)
{
	if (n > h->wk.capcs) {
		h->wk.capcs = n;
		h->wk.cs = xreallocarray(h->wk.cs, h->wk.capcs, sizeof *h->wk.cs);
	}
	GROW(h->wk.lv, h->wk.caplv, n + 1);
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

	for (size_t j = 0; j < n; j++) {
		size_t i = h->o.chain_root_first ? n - 1 - j : j;

		lv = hist_chain_cpumode(lv, &h->wk.fc[h->wk.cs[i]].f);
		h->wk.lv[i] = lv;
	}
}

/*
 * perf's callchain walk of a sample (callee order), unwinding included:
 * its frames into h->wk.cs (frame cache ids), h->wk.lv (their levels) and
 * h->wk.ips (whether unwound).  Returns their count.
 */
static size_t
chain_of(struct hist *h, struct walk *w, const struct sample *smp, uint16_t misc, int32_t pid,
    int32_t tid, uint8_t cpumode)
{
	size_t want = smp->callchain_nr + 256, n;

	if (want > h->wk.capips) {
		h->wk.ips = xreallocarray(h->wk.ips, want, sizeof *h->wk.ips);
		h->wk.capips = want;
	}
	n = chain_ips(h, smp, misc, h->wk.ips, want);
	chain_room(h, n);
	resolve_chain(h, w, n, pid, tid, smp->time);
	chain_levels(h, n, cpumode);
	/*
	 * perf, with --children or -g caller, walks the chain in caller order
	 * and asks for inline levels as it goes, and its answers depend on the
	 * order of first questions (the keys ask in that order first).
	 */
	h->wk.chain_prepass = h->ptr.ptree || h->o.caller_order;
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
 * branch frames and the part of its callchain perf keeps, as frames into
 * h->wk.cs (chain_of's), innermost first (for caller order the reverse of perf's
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
	chain_room(h, n);
	h->ps.nchbr = n;
	resolve_chain(h, w, n, pid, tid, smp->time);
	memset(h->wk.lv, cpumode, n);
	return n;
}

/*
 * The chain perf report gives a sample without one in a trace session
 * (its thread's stack, from the trace: symbolize/chainsrc.h), as frames
 * into h->wk.cs (chain_of's): in a hist that keeps paths and not children,
 * as the trace's own samples get theirs.  Returns their count.
 */
static size_t
trace_chain_of(struct hist *h, struct walk *w, size_t i, const struct sample *smp, int32_t pid,
    int32_t tid, uint8_t cpumode)
{
	const uint64_t *ips;
	size_t n = h->wk.trace_src->of_sample(h->wk.trace_chains, i, &ips);

	if (h->o.max_stack != 0 && n > h->o.max_stack)
		n = h->o.max_stack;
	chain_room(h, n);
	if (n > h->wk.capips) {
		h->wk.ips = xreallocarray(h->wk.ips, n, sizeof *h->wk.ips);
		h->wk.capips = n;
	}
	for (size_t j = 0; j < n; j++) {
		uint8_t cm = h->wk.trace_src->cpumode(ips[j]);

		h->wk.ips[j] = (struct chain_ip){ ips[j], cm, false };
		h->wk.cs[j] = resolve(h, pid, tid, smp->time, cm, ips[j], &w->last_epoch);
	}
	memset(h->wk.lv, cpumode, n);
	return n;
}

/* The attr index of the off-CPU pseudo event: past the session's own, and
 * past the events an Intel PT trace makes up (those follow them). */
static int
offcpu_attr(const struct session *s)
{
	return (int)session_attrs(s)->n + 64;
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
	for (size_t j = 0; j < k; j++)
		sp[j] = SIZE_MAX;
	return h->o.offcpu != NULL ? span_deliveries(h, w, smp, d, sp, k) : k;
}

/* The trace key's value of a sample: its payload's text as perf script
 * prints it (valid until the next), NULL for a sample of another type of
 * event (perf's "N/A") or when the key is not asked for. */
static const char *
trace_of(struct hist *h, const struct sample *smp)
{
	const struct attr_table *at = session_attrs(h->s);

	if ((h->ks.keymask & HIST_KEEP(HIST_KEY_TRACE)) == 0 || smp->attr < 0 ||
	    (size_t)smp->attr >= at->n || at->v[smp->attr].attr.type != PERF_TYPE_TRACEPOINT ||
	    (smp->sample_type & PERF_SAMPLE_RAW) == 0)
		return NULL;
	if (!h->wk.tp_tried) {
		h->wk.tp = tpevent_new(h->s);
		h->wk.tp_tried = true;
	}
	return h->wk.tp != NULL ? tpevent_text(h->wk.tp, at->v[smp->attr].attr.config, smp->raw,
	    smp->raw_size, smp->cpu, NULL) : "[no tracing data]";
}

/* A sample's comm and, for the trace key, its payload's text, into ws. */
static void
sample_names(struct hist *h, const struct sample *smp, struct walked *ws)
{
	ws->comm = comm_at(h, ws->src.tid, smp->time);
	ws->trace = trace_of(h, smp);
	for (size_t k = 0; k < ws->nd && (h->ks.keymask & HIST_KEEP(HIST_KEY_WAKER)); k++) {
		uint64_t pos = ws->sp[k] != SIZE_MAX ? h->o.offcpu->v[ws->sp[k]].waker : OFFCPU_NO_WAKER;
		const struct rec_index *ix = session_index(h->s);

		ws->waker[k] = NONE32;
		ws->waker_tid[k] = 0;
		if (pos < ix->n) {
			struct ent_who who = session_ent_who(h->s, (size_t)pos);

			ws->waker_tid[k] = who.tid;
			ws->waker[k] = comm_at(h, who.tid, index_ent(ix, (size_t)pos)->time);
			ws->waker_set |= (uint64_t)1 << k;
		}
	}
}

/* perf's --comms/--pid/--tid/--parallelism: whether the filter keeps the sample's rows. */
static bool
entry_kept(struct hist *h, const struct walked *ws)
{
	const struct thread_table *t = session_threads(h->s);
	char buf[32];
	const char *comm;

	if (h->o.filter == NULL)
		return true;
	if (ws->comm != NONE32) {
		comm = strtab_get(&t->strs, t->comms[ws->comm].name);
	} else if (ws->src.tid == 0) {
		comm = "swapper";
	} else {
		snprintf(buf, sizeof buf, ":%" PRId32, ws->src.tid);
		comm = buf;
	}
	return filter_entry_ok(h->o.filter, ws->src.pid, ws->src.tid, comm) &&
	    filter_par_ok(h->o.filter, ws->src.par);
}

/*
 * The frames of a sample's callchain (perf's walk of it, a --branch-history
 * chain, or a trace session's stack) into h->wk.cs, h->wk.lv and h->wk.ips
 * (chain_of's), and whether the keys are asked in caller order first
 * (h->wk.chain_prepass).  Their count.
 */
static size_t
sample_chain(struct hist *h, struct walk *w, size_t i, const struct sample *smp, uint16_t misc,
    const struct walked *ws)
{
	bool chains = h->o.children || h->o.callgraph || h->o.paths;

	h->wk.chain_prepass = false;
	if (chains && h->o.branch_history && h->z != NULL)
		return brhist_chain_of(h, w, smp, misc, ws->src.pid, ws->src.tid, ws->cpumode);
	if (chains && symbolizer_has_chain(smp) && h->z != NULL)
		return chain_of(h, w, smp, misc, ws->src.pid, ws->src.tid, ws->cpumode);
	if (h->wk.trace_chains != NULL)
		return trace_chain_of(h, w, i, smp, ws->src.pid, ws->src.tid, ws->cpumode);
	return 0;
}

/*
 * perf report's branch mode: each branch entry's target, and with branch
 * keys its source, resolved as perf resolves branch entries (resolve_any),
 * into h->wk.br (target, source or NONE32).  Their count.
 */
static size_t
branch_ends(struct hist *h, const struct sample *smp, const struct key_src *src,
    uint32_t *last_epoch)
{
	GROW(h->wk.br, h->wk.capbr, 2 * smp->branch_nr + 2);
	for (uint64_t i = 0; i < smp->branch_nr; i++) {
		struct branch_ent be = sample_branch(smp, i);

		h->wk.br[2 * i] = resolve_any(h, src->pid, src->tid, smp->time, be.to, last_epoch);
		h->wk.br[2 * i + 1] = h->ks.branch_keys ?
		    resolve_any(h, src->pid, src->tid, smp->time, be.from, last_epoch) : NONE32;
	}
	return smp->branch_nr;
}

/*
 * Add the sample at index position i, record r: decoded, its deliveries
 * (events and periods), its values and frames resolved (frame cache ids)
 * into a struct walked, handed to the keys (hist_take, hist_keys.c).
 * Returns 1 if added, 0 if left out, -1 if undecodable.
 */
static const struct key_src key_src_zero;

static int
add_sample(struct hist *h, struct walk *w, size_t i, const struct rec *r)
{
	const struct session *s = h->s;
	struct sample smp;
	struct walked ws;
	struct key_src *src = &ws.src;
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
	    smp.cpu) || !filter_loc_ok(h->o.filter, r->loc))
		return w->reads ? read_skip(s, &h->wk.rs, &smp) : 0;	/* as perf: values taken in */
	/* not the whole struct: its arrays are filled as far as they are used;
	 * a copy, not memset (a string instruction's start-up, per sample) */
	ws.src = key_src_zero;
	ws.waker_set = 0;
	ws.daddr = NONE32;
	ws.nchain = ws.nbranch = 0;
	ws.smp = &smp;
	ws.pos = i;
	ws.period = smp.period;
	/* A sample whose id names no event (attr -1) was decoded with the
	 * layout of attr 0 (record.c), its default period is attr 0's. */
	if (!(smp.sample_type & PERF_SAMPLE_PERIOD))
		ws.period = session_attrs(s)->v[smp.attr >= 0 ? smp.attr : 0].attr.sample_period;
	if ((ws.nd = deliveries(h, w, &smp, ws.period, ws.d, ws.sp)) == 0)
		return 0;
	for (size_t k = 0; k < ws.nd && h->o.mem_mode; k++)
		ws.d[k].period = smp.weight != 0 ? smp.weight : 1;
	src->pid = (smp.sample_type & PERF_SAMPLE_TID) ? (int32_t)smp.pid : -1;
	src->tid = (smp.sample_type & PERF_SAMPLE_TID) ? (int32_t)smp.tid : -1;
	src->cpu = smp.cpu;
	src->data_src = smp.data_src;
	src->page_size = smp.data_page_size;
	/* the weights are keys in any mode (perf's common keys): not of a head only */
	src->weight = w->head_only ? 0 : smp.weight;
	src->ins_lat = !w->head_only && (smp.sample_type & PERF_SAMPLE_WEIGHT_STRUCT) ?
	    smp.weight_var2 : 0;
	src->phys = w->head_only ? 0 : smp.phys_addr;
	if (src->pid != w->last_pid) {
		w->last_epoch = *epoch_slot(h, src->pid);
		w->last_pid = src->pid;
	}
	if (w->branch_mode && smp.branch == NULL)
		return 0;	/* as perf: no branch stack, no rows */
	ws.cpumode = embedded ? PERF_RECORD_MISC_USER : r->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	sample_names(h, &smp, &ws);
	src->par = par_at(h, w, i);
	src->file = hist_file_of(h, r->loc);
	ws.kept = entry_kept(h, &ws);
	ws.self = NONE32;
	if (ws.kept && (!w->branch_mode || filter_has_frame(h->o.filter))) {
		struct frame sf;

		ws.self = resolve(h, src->pid, src->tid, smp.time, ws.cpumode, smp.ip, &w->last_epoch);
		if (filter_has_frame(h->o.filter)) {
			sf = h->wk.fc[ws.self].f;
			sf.ip = smp.ip;	/* the cached frame's may be another process's */
			/* perf's --dsos/--symbols, by the sample's own address: as --comms */
			ws.kept = filter_frame_ok(h->o.filter, h->z, &sf);
		}
	}
	ws.branch_mode = w->branch_mode;
	if (ws.kept && w->branch_mode) {
		h->rc.no_rescope = true;	/* a row per branch: not one per sample */
		ws.nbranch = branch_ends(h, &smp, src, &w->last_epoch);
	} else if (ws.kept) {
		if (h->o.mem_mode && h->ks.mem_keys)
			ws.daddr = resolve(h, src->pid, src->tid, smp.time, ws.cpumode, smp.addr,
			    &w->last_epoch);
		ws.nchain = sample_chain(h, w, i, &smp, r->misc, &ws);
	}
	hist_take(h, &ws);
	if (!ws.kept)
		return 0;
	/* the spans in its place: a sample added per span */
	return w->branch_mode || h->o.offcpu == NULL || h->o.offcpu_beside ? 1 : (int)ws.nd;
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
	free(h->wk.br);
	h->wk.br = NULL;
	h->wk.capbr = 0;
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
		h->rc.sample_row = xmalloc_table(ix->n, sizeof *h->rc.sample_row);
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
