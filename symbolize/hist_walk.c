#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/hist_impl.h"
#include "symbolize/pt/intel_pt.h"

/*
 * The session walk (hist_add_range): each sample of the session's
 * time-ordered index decoded in place, its addresses resolved through a
 * cache of (address space, cpumode, ip), address spaces told apart by
 * epochs that the records which change maps bump.
 */

static uint32_t *
epoch_slot(struct hist *h, int32_t pid)
{
	uint32_t i = hmap_get(&h->pe_tab, (uint32_t)pid);

	if (i == HMAP_NONE) {
		GROW(h->pe, h->pecap, h->pen + 1);
		i = (uint32_t)h->pen++;
		h->pe[i].pid = pid;
		h->pe[i].epoch = 0;
		hmap_set(&h->pe_tab, (uint32_t)pid, i);
	}
	return &h->pe[i].epoch;
}

/* A record that may change what an address of pid resolves to. */
static void
epoch_bump(struct hist *h, const struct rec *r)
{
	struct rec_who w = { -1, -1, 0, false };
	int32_t pid;

	/* (a FORK too short for its whole body changes no maps: no bump) */
	if (record_who(r, &w) < 0)
		return;
	pid = (int32_t)w.pid;
	if (r->type == PERF_RECORD_COMM && !(r->misc & PERF_RECORD_MISC_COMM_EXEC))
		return;
	if (pid == -1 && (r->type == PERF_RECORD_MMAP || r->type == PERF_RECORD_MMAP2))
		h->kepoch++;
	else
		(*epoch_slot(h, pid))++;
}

/* What resolve() seeks in the cache (fc_eq's ctx). */
struct fc_want {
	const struct fcache	*v;
	uint64_t		 ip;
	int32_t			 pid;
	uint32_t		 epoch;
	uint8_t			 cpumode;
};

/* hmap_eq_fn: is cache entry id the one w seeks? */
static inline bool
fc_eq(const void *ctx, uint32_t id)
{
	const struct fc_want *w = ctx;
	const struct fcache *c = &w->v[id];

	return c->ip == w->ip && c->pid == w->pid && c->epoch == w->epoch &&
	    c->cpumode == w->cpumode;
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
	uint64_t hash = ip ^ ((uint64_t)(uint32_t)kpid << 32 | epoch) * 31 ^
	    (uint64_t)cpumode << 61;
	struct fc_want w = { h->fc, ip, kpid, epoch, cpumode };
	uint32_t id = hmap_find(&h->fc_tab, hash, fc_eq, &w);
	struct fcache *c;

	if (id != HMAP_NONE)
		return id;
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
	c->node[0] = c->node[1] = c->node[2] = c->srcline = c->anode = NONE32;
	c->inl = 0;
	c->ninl = NONE32;
	hmap_add(&h->fc_tab, hash, (uint32_t)h->nfc);
	return (uint32_t)h->nfc++;
}

static void
cached_key(struct hist *h, uint32_t ci, enum node_mode mode, uint8_t sample_cpumode,
    struct fkey *out)
{
	struct fcache *c = &h->fc[ci];
	uint32_t *node = &c->node[mode];

	if (*node == NONE32)
		*node = hist_node_of(h, &c->f, mode, sample_cpumode, 0);
	if (h->want_src && c->srcline == NONE32)
		c->srcline = hist_srcline_of(h, &c->f);
	out->dso = c->f.dso;
	out->node = *node;
	out->srcline = h->want_src ? c->srcline : 0;
	out->why = c->f.why;
	out->label = 0;
	out->anode = 0;
	if (h->o.paths_address && mode == NODE_CHAIN) {
		if (c->anode == NONE32)
			c->anode = cpath_anode(h, &c->f, *node);
		out->anode = h->fc[ci].anode;
	}
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
			hist_frame_key(h, &lv[j], true, sample_cpumode, &h->inl[h->ninl + j]);
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
		h->comm_id[c->ci] = hist_intern(h, strtab_get(&t->strs, t->comms[c->ci].name)) + 1;
	return h->comm_id[c->ci] - 1;
}

/*
 * perf report's branch mode (the default when the recording has branch
 * stacks): every branch entry of a sample is a row of period 1, at the
 * branch target (resolved as user, then kernel address), labelled with
 * the sample's [k]/[.].
 */
static void
add_branches(struct hist *h, const struct sample *smp, uint32_t ev, struct key_src *src,
    uint8_t cpumode, uint32_t *last_epoch)
{
	int32_t pid = src->pid, tid = src->tid;

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
		src->f = &k;
		hist_add_keys(h, ev, src, 1, NULL, 0);
	}
}
#define HIST_DROP_STEP	(UINT64_C(64) << 20)
#define HIST_DROP_SLACK	(UINT64_C(16) << 20)

/* A sample of event ev at index position i the filter keeps in the totals only. */
static void
totals_only(struct hist *h, size_t i, uint32_t ev, uint64_t period)
{
	h->ev[ev].total_period += period;
	h->ev[ev].nsamples++;
	if (h->sample_row != NULL) {
		if (ev >= 0xffff)
			h->no_rescope = true;
		h->sample_row[i] = ROW_TOTALS | (ev & 0xffff);
		hist_keep_period(h, i, period);
	}
}

/* The walk's state between samples. */
struct walk {
	bool		 branch_mode;	/* perf's branch mode (add_branches) */
	bool		 head_only;	/* a sample's fixed head is enough */
	/* a cache of the last pid's epoch: starting cold gives the same results */
	int32_t		 last_pid;
	uint32_t	 last_epoch;
};

static bool
changes_maps(unsigned type)
{
	return type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2 ||
	    type == PERF_RECORD_COMM || type == PERF_RECORD_FORK;
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
	uint64_t time = ix->v[i].time;
	struct rec r;

	for (size_t j = i + 1; j < ix->n && ix->v[j].time == time; j++) {
		if (changes_maps(ent_type(&ix->v[j])) &&
		    session_rec(s, ent_loc(&ix->v[j]), &r) == 0) {
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
	if (loc > h->drop_hi)
		h->drop_hi = loc;
	if (h->drop_hi - h->drop_lo >= HIST_DROP_STEP + HIST_DROP_SLACK) {
		session_drop_pages(s, h->drop_lo, h->drop_hi - HIST_DROP_SLACK);
		h->drop_lo = h->drop_hi - HIST_DROP_SLACK;
	}
}

/*
 * The cache ids of h->ips[0..n) into h->cs.  Consecutive samples of an
 * address space share their chains' outer frames: those are taken from
 * its last chain (cmemo: the last two address spaces, each as (pid, its
 * epoch, the kernel's epoch), the key resolve() caches under) where the
 * frames match from the outermost in, and only the rest is looked up.
 */
static void
resolve_chain(struct hist *h, struct walk *w, size_t n, int32_t pid, int32_t tid, uint64_t time)
{
	struct chain_memo *m = &h->cmemo[0];
	size_t a = n, b;

	if (m->n == 0 || m->pid != pid || m->epoch != w->last_epoch || m->kepoch != h->kepoch) {
		struct chain_memo t = h->cmemo[1];

		h->cmemo[1] = h->cmemo[0];
		h->cmemo[0] = t;
		if (m->pid != pid || m->epoch != w->last_epoch || m->kepoch != h->kepoch)
			m->n = 0;
	}
	for (b = m->n; a > 0 && b > 0 && m->ip[b - 1] == h->ips[a - 1].ip &&
	    m->cpumode[b - 1] == h->ips[a - 1].cpumode; a--, b--)
		h->cs[a - 1] = m->cs[b - 1];
	for (size_t j = 0; j < a; j++)
		h->cs[j] = resolve(h, pid, tid, time, h->ips[j].cpumode, h->ips[j].ip,
		    &w->last_epoch);
	if (n > m->cap) {
		m->cap = n;
		m->ip = xreallocarray(m->ip, n, sizeof *m->ip);
		m->cpumode = xreallocarray(m->cpumode, n, sizeof *m->cpumode);
		m->cs = xreallocarray(m->cs, n, sizeof *m->cs);
	}
	m->pid = pid;
	m->epoch = w->last_epoch;
	m->kepoch = h->kepoch;
	m->n = n;
	for (size_t j = 0; j < n; j++) {
		m->ip[j] = h->ips[j].ip;
		m->cpumode[j] = h->ips[j].cpumode;
	}
	if (n > 0)
		memcpy(m->cs, h->cs, n * sizeof *m->cs);
}

/*
 * perf's callchain walk of a sample (callee order), unwinding included:
 * the keys of its frames into h->chain.  Returns their count.
 */
static size_t
chain_of(struct hist *h, struct walk *w, const struct sample *smp, uint16_t misc, int32_t pid,
    int32_t tid, uint8_t cpumode)
{
	size_t want = smp->callchain_nr + 256, n, nips;

	if (want > h->capips) {
		h->ips = xreallocarray(h->ips, want, sizeof *h->ips);
		h->capips = want;
	}
	n = symbolizer_chain_ips(h->z, smp, misc, h->ips, want, h->o.max_stack);
	GROW(h->chain, h->capchain, n + 1);
	if (n > h->capcs) {
		h->capcs = n;
		h->cs = xreallocarray(h->cs, h->capcs, sizeof *h->cs);
	}
	resolve_chain(h, w, n, pid, tid, smp->time);
	nips = n;
	n = 0;
	/*
	 * perf, with --children or -g caller, walks the chain in caller order
	 * and asks for inline levels as it goes, and its answers depend on the
	 * order of first questions.
	 */
	if (h->ptree || h->o.caller_order)
		for (size_t j = nips; j-- > 0;)
			(void)chain_keys(h, h->cs[j], h->ips[j].unwound, cpumode, 0);
	for (size_t j = 0; j < nips; j++)
		n = chain_keys(h, h->cs[j], h->ips[j].unwound, cpumode, n);
	return n;
}

/*
 * The chain perf report gives a sample without one in an Intel PT session
 * (its thread's stack, from the trace), as keys into h->chain: in a hist
 * that keeps paths and not children, as pt_hist_add() gives the trace's
 * own samples theirs.  Returns their count.
 */
static size_t
trace_chain_of(struct hist *h, struct walk *w, size_t i, const struct sample *smp, int32_t pid,
    int32_t tid, uint8_t cpumode)
{
	const uint64_t *ips;
	size_t n = pt_chains_of_sample(h->trace_chains, i, &ips);

	if (h->o.max_stack != 0 && n > h->o.max_stack)
		n = h->o.max_stack;
	GROW(h->chain, h->capchain, n + 1);
	for (size_t j = 0; j < n; j++) {
		uint32_t c = resolve(h, pid, tid, smp->time, pt_chain_cpumode(ips[j]), ips[j],
		    &w->last_epoch);

		cached_key(h, c, NODE_CHAIN, cpumode, &h->chain[j]);
	}
	return n;
}

/* The trace key's value of a sample: its payload's text as perf script
 * prints it (string id + 1), 0 for a sample of another type of event (perf's
 * "N/A") or when the key is not asked for. */
static uint32_t
trace_of(struct hist *h, const struct sample *smp)
{
	const struct attr_table *at = session_attrs(h->s);
	const char *text;

	if ((h->keymask & HIST_KEEP(HIST_KEY_TRACE)) == 0 || smp->attr < 0 ||
	    (size_t)smp->attr >= at->n || at->v[smp->attr].attr.type != PERF_TYPE_TRACEPOINT ||
	    (smp->sample_type & PERF_SAMPLE_RAW) == 0)
		return 0;
	if (!h->tp_tried) {
		h->tp = tpevent_new(h->s);
		h->tp_tried = true;
	}
	text = h->tp != NULL ? tpevent_text(h->tp, at->v[smp->attr].attr.config, smp->raw,
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
	struct fkey sk;
	uint8_t cpumode;
	uint64_t period;
	uint32_t ev, self = 0;
	size_t n = 0;

	if ((w->head_only ? record_sample_head(s, r, record_attr(s, r), &smp) :
	    record_decode_sample(s, r, &smp, NULL)) < 0)
		return -1;
	if (h->o.event >= 0 && smp.attr != h->o.event)
		return 0;
	if (!filter_sample_ok(h->o.filter, smp.time, (smp.sample_type & PERF_SAMPLE_CPU) != 0,
	    smp.cpu))
		return 0;
	period = smp.period;
	/* A sample whose id names no event (attr -1) was decoded with the
	 * layout of attr 0 (record.c), its default period is attr 0's. */
	if (!(smp.sample_type & PERF_SAMPLE_PERIOD))
		period = session_attrs(s)->v[smp.attr >= 0 ? smp.attr : 0].attr.sample_period;
	src.pid = (smp.sample_type & PERF_SAMPLE_TID) ? (int32_t)smp.pid : -1;
	src.tid = (smp.sample_type & PERF_SAMPLE_TID) ? (int32_t)smp.tid : -1;
	src.cpu = smp.cpu;
	if (src.pid != w->last_pid) {
		w->last_epoch = *epoch_slot(h, src.pid);
		w->last_pid = src.pid;
	}
	if (w->branch_mode && smp.branch == NULL)
		return 0;	/* as perf: no branch stack, no rows */
	cpumode = r->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	ev = hist_event_of(h, smp.attr, session_attr_name(s, smp.attr));
	src.comm = comm_of(h, src.tid, smp.time);
	src.trace = trace_of(h, &smp);
	if (h->o.filter != NULL &&
	    !filter_entry_ok(h->o.filter, src.pid, src.tid, hist_str(h, src.comm))) {
		/* perf's --comms/--pid/--tid: out of the rows, in the totals */
		totals_only(h, i, ev, period);
		return 0;
	}
	if (!w->branch_mode || filter_has_frame(h->o.filter)) {
		self = resolve(h, src.pid, src.tid, smp.time, cpumode, smp.ip, &w->last_epoch);
		if (!filter_frame_ok(h->o.filter, h->z, &h->fc[self].f)) {
			/* perf's --dsos/--symbols, by the sample's own address: as --comms */
			totals_only(h, i, ev, period);
			return 0;
		}
	}
	if (w->branch_mode) {
		h->no_rescope = true;	/* a row per branch: not one per sample */
		add_branches(h, &smp, ev, &src, cpumode, &w->last_epoch);
		return 1;
	}
	cached_key(h, self, NODE_SELF, cpumode, &sk);
	if ((h->o.children || h->o.callgraph || h->o.paths) && symbolizer_has_chain(&smp) &&
	    h->z != NULL)
		n = chain_of(h, w, &smp, r->misc, src.pid, src.tid, cpumode);
	else if (h->trace_chains != NULL)
		n = trace_chain_of(h, w, i, &smp, src.pid, src.tid, cpumode);
	src.f = &sk;
	hist_add_keys(h, ev, &src, period, h->chain, n);
	if (h->sample_ent != NULL)
		h->sample_ent[i] = h->last_self;
	if (h->sample_row != NULL) {
		h->sample_row[i] = h->last_row;
		hist_keep_period(h, i, period);
	}
	return 1;
}

uint64_t
hist_add_range(struct hist *h, size_t from, size_t to, uint64_t *skipped)
{
	const struct session *s = h->s;
	const struct rec_index *ix = session_index(s);
	uint64_t added = 0, bad = 0;
	struct walk w = {
		.branch_mode = session_features(s)->sec[PF_FEAT_BRANCH_STACK].present,
		.last_pid = INT32_MIN,
	};

	/* Self rows need only a sample's fixed head: no walk of its chain. */
	w.head_only = !h->o.children && !h->o.callgraph && !h->o.paths && !w.branch_mode &&
	    (h->keymask & HIST_KEEP(HIST_KEY_TRACE)) == 0;
	if (to > ix->n)
		to = ix->n;
	/* A hist that starts mid-session (one of a parallel pass) drops
	 * nothing before where it starts. */
	if (from > 0 && from < to && h->drop_hi == 0 && ent_loc(&ix->v[from]) < SESSION_ZLOC)
		h->drop_lo = h->drop_hi = ent_loc(&ix->v[from]);
	/* with paths a sample's own entry is its row's: no array of its own */
	if (h->o.record_self && !h->o.paths && h->sample_ent == NULL && ix->n > 0) {
		h->sample_ent = xreallocarray(NULL, ix->n, sizeof *h->sample_ent);
		memset(h->sample_ent, 0xff, ix->n * sizeof *h->sample_ent);
	}
	if (h->o.paths && !h->o.children && h->z != NULL && !h->trace_chains_made) {
		h->trace_chains = pt_session_chains(s, h->z);
		h->trace_chains_made = true;
	}
	if (h->o.record_self && h->o.paths && h->sample_row == NULL && ix->n > 0) {
		h->sample_row = xreallocarray(NULL, ix->n, sizeof *h->sample_row);
		memset(h->sample_row, 0xff, ix->n * sizeof *h->sample_row);
	}
	if (from < to && from < h->pos_lo)
		h->pos_lo = from;
	if (from < to && to > h->pos_hi)
		h->pos_hi = to;
	for (size_t i = from; i < to; i++) {
		const struct rec_ent *ent = &ix->v[i];
		unsigned type = ent_type(ent);
		struct rec r;
		int rc;

		if (i == from || ent->time != ix->v[i - 1].time)
			bump_run(h, &w, i);
		drop_behind(h, ent_loc(ent));
		if (type != PERF_RECORD_SAMPLE) {
			if (changes_maps(type) && session_rec(s, ent_loc(ent), &r) == 0) {
				epoch_bump(h, &r);
				w.last_pid = INT32_MIN;
			}
			continue;
		}
		if (h->o.event >= 0 && ent_attr(ent) != ENT_ATTR_NONE &&
		    (int)ent_attr(ent) != h->o.event)
			continue;
		rc = session_rec(s, ent_loc(ent), &r) < 0 ? -1 : add_sample(h, &w, i, &r);
		if (rc < 0)
			bad++;
		else
			added += (uint64_t)rc;
	}
	if (skipped != NULL)
		*skipped = bad;
	return added;
}

uint64_t
hist_add_session(struct hist *h, uint64_t *skipped)
{
	return hist_add_range(h, 0, session_index(h->s)->n, skipped);
}
