#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "symbolize/hist_impl.h"
#include "symbolize/offcpu.h"
#include "symbolize/chainsrc.h"

/*
 * Merging: hists of the parts of one pass merged into one
 * (hist_merge, hist_split_point), and entries merged by fewer keys into
 * rows (hist_rows_merged).
 */

static bool
same_opts(const struct hist_opts *a, const struct hist_opts *b)
{
	if (a->nkeys != b->nkeys || a->children != b->children || a->callgraph != b->callgraph ||
	    a->event != b->event || a->max_stack != b->max_stack || a->record_self != b->record_self ||
	    a->paths != b->paths || a->branch != b->branch || a->mem_mode != b->mem_mode ||
	    a->caller_order != b->caller_order || a->branch_history != b->branch_history ||
	    a->chain_root_first != b->chain_root_first || a->offcpu != b->offcpu ||
	    a->offcpu_beside != b->offcpu_beside ||
	    a->parallel != b->parallel || a->by_latency != b->by_latency ||
	    !filter_equal(a->filter, b->filter))
		return false;
	for (unsigned i = 0; i < a->nkeys; i++)
		if (a->keys[i] != b->keys[i])
			return false;
	return true;
}

bool
hist_split_point(const struct session *s, const struct hist_opts *o, size_t *mid)
{
	const struct attr_table *at = session_attrs(s);
	const struct rec_index *ix = session_index(s);
	size_t n = ix->n, m;
	bool stacks = false;

	/* samples with READ values are delivered by what each count grew since
	 * that counter's last sample: one walk in time order */
	if (n < 2 || chainsrc_present(s) || o->callgraph || o->paths_address || o->branch_history ||
	    (o->record_self && !o->paths) || session_has_read_samples(s))
		return false;
	for (size_t i = 0; i < at->n; i++)
		stacks |= (at->v[i].attr.sample_type & PERF_SAMPLE_STACK_USER) != 0;
	if (o->children && stacks)
		return false;
	for (m = n / 2; m < n && ent_type(index_ent(ix, m)) != PF_REC_SAMPLE; m++)
		;
	if (m == 0 || m >= n)
		return false;
	*mid = m;
	return true;
}

/* Below this many samples one pass is quicker than starting a second
 * symbolizer and merging; PERFNAV_PARALLEL_MIN (0: always) overrides it. */
#define PARALLEL_MIN	200000

bool
hist_parallel_worth(const struct session *s)
{
	uint64_t min = PARALLEL_MIN, nsamples = session_counts(s)->by_type[PF_REC_SAMPLE];
	const char *env = getenv("PERFNAV_PARALLEL_MIN");

	if (env != NULL && *env != '\0') {
		char *end;
		unsigned long long v = strtoull(env, &end, 10);

		if (*end == '\0')
			min = v;
	}
	/* samples with READ values: never cut (hist_split_point), so script either */
	return nsamples >= min && nsamples >= 2 && !session_has_read_samples(s);
}

bool
hist_parallel_split(const struct session *s, const struct hist_opts *o, size_t *mid)
{
	return hist_parallel_worth(s) && hist_split_point(s, o, mid);
}

/*
 * May from be merged into into?  Not when their sessions, symbolizers or
 * options differ, for what does not merge, or when the symbolizers number
 * DSOs differently.
 */
/* Nodes of an address of its own (branch endpoints, data addresses) translate. */
static bool
node_owner_merges(uint32_t owner)
{
	return owner == 0 || owner >= NODE_OWNER_DADDR_LAST;
}

static bool
mergeable(const struct hist *into, const struct hist *from)
{
	if (into == from || into->s != from->s || (into->z == NULL) != (from->z == NULL) ||
	    !same_opts(&into->o, &from->o) || into->o.callgraph || into->o.paths_address ||
	    (into->o.record_self && (!into->o.paths || !into->rc.pos_split || !from->rc.pos_lent ||
	    from->rc.sample_row != into->rc.sample_row)) ||
	    into->ptr.ptree || from->ptr.ptree || into->finished || from->finished)
		return false;
	for (size_t i = 0; i < from->nnode; i++)
		if (!node_owner_merges(from->node[i].owner))
			return false;	/* event-own nodes do not translate */
	for (size_t i = 0; i < into->nnode; i++)
		if (!node_owner_merges(into->node[i].owner))
			return false;
	if (into->z != NULL) {
		/* DSO ids are the same in both symbolizers (see symbolizer_ndsos). */
		size_t nd = symbolizer_ndsos(into->z);

		if (symbolizer_ndsos(from->z) != nd)
			return false;
		for (size_t d = 0; d < nd; d++)
			if (strcmp(symbolizer_dso_long(into->z, (uint32_t)d),
			    symbolizer_dso_long(from->z, (uint32_t)d)) != 0)
				return false;
	}
	return true;
}

/*
 * Function nodes, by (DSO, symbol identity) or address, in from's order:
 * a node new to into is named as from named it (its first frame), one
 * into has keeps into's name (into's samples came first).  Fills nodemap;
 * returns 0, or -2 if a symbol of from is not in into's symbolizer.
 */
static int
merge_nodes(struct hist *into, const struct hist *from, uint32_t *nodemap)
{
	for (size_t i = 0; i < from->nnode; i++) {
		const struct hist_node *fn = &from->node[i];
		struct frame f = fn->f;
		uint64_t a, b, hash;
		uint32_t id;
		struct hist_node *nd;

		if (f.sym != SYM_NONE && into->z != NULL) {
			uint32_t dso, index;
			const char *inl;

			if (symbolizer_sym_ident(from->z, f.sym, &dso, &index, &inl) == 0)
				f.sym = symbolizer_sym_by_ident(into->z, dso, index, inl);
			else
				f.sym = SYM_NONE;
			if (f.sym == SYM_NONE)
				return -2;	/* cannot happen: one session, one set of files */
		}
		if (f.sym != SYM_NONE) {
			a = f.dso;
			b = f.sym;
		} else {
			a = UINT64_MAX;
			b = f.rel;
		}
		id = hist_node_find(into, &f, a, b, fn->owner, &hash);
		if (id == NONE32) {
			f.src = 0;	/* a string id of from's symbolizer */
			GROW(into->node, into->capnode, into->nnode + 1);
			nd = &into->node[into->nnode];
			nd->f = f;
			nd->owner = fn->owner;
			nd->dso_mixed = fn->dso_mixed;
			nd->label = hist_intern(into, hist_str(from, fn->label));
			nd->fold = hist_intern(into, hist_str(from, fn->fold));
			hmap_add(&into->node_tab, hash, (uint32_t)into->nnode);
			id = (uint32_t)into->nnode++;
		} else if (fn->dso_mixed || (f.sym == SYM_NONE && into->node[id].f.dso != f.dso)) {
			into->node[id].dso_mixed = true;
		}
		nodemap[i] = id;
	}
	return 0;
}

/*
 * Entries in from's order: those new to into come after into's, in the
 * order from made them, which is the order one pass over both ranges
 * would have made them in.  Each key translates its own fields.
 */
static void
merge_entries(struct hist *into, const struct hist *from, const uint32_t *evmap,
    const uint32_t *nodemap, uint32_t *entmap)
{
	struct hist_xlat x = { into, from, nodemap };

	for (size_t i = 0; i < from->nent; i++) {
		const struct hist_entry *fe = &from->ent[i];
		struct ent_full k, f;
		struct hist_entry *e;
		size_t before = into->nent;

		ent_unpack(from, fe, &f);
		k = hist_ent_full_zero;
		k.event = evmap[fe->event];
		for (unsigned j = 0; j < HIST_KEY_COUNT; j++)	/* strings in key order */
			if (into->ks.keymask & HIST_KEEP(j))
				sortkeys[j].xlat(&x, &k, &f);
		if (into->ks.ipc_node)
			k.node = nodemap[fe->node];
		e = hist_ent_get(into, &k);
		if (into->nent != before) {
			e->label_comm = hist_intern(into, hist_str(from, fe->label_comm));
			e->label_tid = fe->label_tid;
			if (fe->label_sym)
				e->label_sym = hist_intern(into, hist_str(from, fe->label_sym - 1)) + 1;
			if (fe->label_phys)
				e->label_phys = hist_intern(into, hist_str(from, fe->label_phys - 1)) + 1;
			if (fe->label_dcl)
				e->label_dcl = hist_intern(into, hist_str(from, fe->label_dcl - 1)) + 1;
		}
		e->period += fe->period;
		e->samples += fe->samples;
		e->acc_period += fe->acc_period;
		e->acc_samples += fe->acc_samples;
		e->latency += fe->latency;
		e->acc_latency += fe->acc_latency;
		entmap[i] = (uint32_t)(e - into->ent);
	}
}

/* Failure counts per DSO. */
static void
merge_whys(struct hist *into, const struct hist *from)
{
	for (size_t i = 0; i < from->nwhy; i++) {
		const struct hist_why *w = &from->why[i];

		for (unsigned r = 0; r < SYM_WHY_COUNT; r++) {
			struct fkey fk = { .dso = w->dso, .why = (uint8_t)r };

			if (w->self[r])
				hist_count_why(into, &fk, false, w->self[r]);
			if (w->chain[r])
				hist_count_why(into, &fk, true, w->chain[r]);
		}
	}
}

/* Periods over 32 bits kept aside while the parts ran, into the 64-bit array. */
static void
apply_bigp(struct hist *into, const struct hist_bigp *v, size_t n)
{
	size_t npos = session_index(into->s)->n;

	if (n == 0)
		return;
	if (into->rc.sample_p64 == NULL) {
		into->rc.sample_p64 = xreallocarray(NULL, npos, sizeof *into->rc.sample_p64);
		for (size_t i = 0; i < npos; i++)
			into->rc.sample_p64[i] = into->rc.sample_p32[i];
	}
	for (size_t i = 0; i < n; i++)
		into->rc.sample_p64[v[i].pos] = v[i].period;
}

/*
 * record_self over shared arrays (hist_share_positions): from's positions
 * hold from's entry and row ids, translated here into into's; the parts
 * are one pass's from now on.
 */
/* A row of from's (ROW_TOTALS | event, NONE32) as into's. */
static uint32_t
map_row(uint32_t r, const uint32_t *evmap, const uint32_t *rowmap)
{
	if (r == NONE32)
		return r;
	if ((r & ROW_TOTALS) == ROW_TOTALS)
		return ROW_TOTALS | (evmap[r & 0xffff] & 0xffff);
	return rowmap[r];
}

static void
merge_positions(struct hist *into, const struct hist *from, const uint32_t *evmap,
    const uint32_t *rowmap)
{
	const struct offcpu *oc = into->o.offcpu;

	for (size_t p = from->rc.pos_lo; p < from->rc.pos_hi; p++)
		into->rc.sample_row[p] = map_row(into->rc.sample_row[p], evmap, rowmap);
	/* the off-CPU spans of from's positions (offcpu_beside) */
	for (size_t k = into->rc.span_row != NULL && oc != NULL ? offcpu_lower(oc, from->rc.pos_lo) : 0;
	    into->rc.span_row != NULL && oc != NULL && k < oc->n && oc->v[k].pos < from->rc.pos_hi; k++)
		into->rc.span_row[k] = map_row(into->rc.span_row[k], evmap, rowmap);
	apply_bigp(into, into->rc.bigp, into->rc.nbigp);
	apply_bigp(into, from->rc.bigp, from->rc.nbigp);
	if (into->rc.sample_p64 != NULL) {
		free(into->rc.sample_p32);
		into->rc.sample_p32 = NULL;
	}
	into->rc.nbigp = 0;
	into->rc.pos_split = false;
	into->rc.no_rescope |= from->rc.no_rescope;
	if (from->rc.pos_lo < into->rc.pos_lo)
		into->rc.pos_lo = from->rc.pos_lo;
	if (from->rc.pos_hi > into->rc.pos_hi)
		into->rc.pos_hi = from->rc.pos_hi;
}

/* Free from's entries, merged (entmap has their ids in into): the merge's peak holds one table. */
static void
spend_entries(struct hist *from)
{
	free(from->ent);
	from->ent = NULL;
	from->nent = from->capent = 0;
	hmap_free(&from->ent_tab);
	free(from->xk);
	from->xk = NULL;
	from->nxk = from->capxk = 0;
	hmap_free(&from->xk_tab);
	free(from->ks.ctxk);
	from->ks.ctxk = NULL;
	from->ks.nctx = from->ks.capctx = 0;
	from->ks.ctx_last = 0;
	hmap_free(&from->ks.ctx_tab);
	free(from->ks.nmemo);
	from->ks.nmemo = NULL;
	from->ks.capnmemo = 0;
}

int
hist_merge(struct hist *into, struct hist *from)
{
	uint32_t *evmap, *nodemap, *entmap, *rowmap;
	int rc;

	if (!mergeable(into, from))
		return -1;
	hist_walk_drop(into);	/* it gets no more samples: its frame caches go */
	/* Events, by attr. */
	evmap = xcalloc(from->nev + 1, sizeof *evmap);
	for (size_t i = 0; i < from->nev; i++) {
		const struct hist_event *fe = &from->ev[i];
		uint32_t ev = hist_event_of(into, fe->attr, hist_str(from, fe->name));

		evmap[i] = ev;
		into->ev[ev].total_period += fe->total_period;
		into->ev[ev].total_latency += fe->total_latency;
		into->ev[ev].nsamples += fe->nsamples;
	}
	nodemap = xcalloc(from->nnode + 1, sizeof *nodemap);
	entmap = xcalloc(from->nent + 1, sizeof *entmap);
	rowmap = xcalloc(from->ps.ncprow + 1, sizeof *rowmap);
	rc = merge_nodes(into, from, nodemap);
	if (rc == 0) {
		merge_entries(into, from, evmap, nodemap, entmap);
		spend_entries(from);
		merge_whys(into, from);
		brstat_sum(&into->ks.brstat, &from->ks.brstat);
		if (into->o.paths)
			cpath_merge(into, from, evmap, nodemap, entmap, rowmap);
		if (into->o.record_self)
			merge_positions(into, from, evmap, rowmap);
	}
	free(evmap);
	free(nodemap);
	free(entmap);
	free(rowmap);
	return rc;
}

void
hist_share_positions(struct hist *a, struct hist *b)
{
	size_t n = session_index(a->s)->n;

	if (!a->o.record_self || !a->o.paths || n == 0 || a->rc.sample_row != NULL ||
	    b->rc.sample_row != NULL || a->s != b->s)
		return;
	a->rc.sample_row = xmalloc_table(n, sizeof *a->rc.sample_row);
	memset(a->rc.sample_row, 0xff, n * sizeof *a->rc.sample_row);
	a->rc.sample_p32 = xcalloc_table(n, sizeof *a->rc.sample_p32);
	b->rc.sample_row = a->rc.sample_row;
	b->rc.sample_p32 = a->rc.sample_p32;
	if (a->o.offcpu_beside && a->o.offcpu != NULL && a->o.offcpu->n > 0) {
		a->rc.span_row = xreallocarray(NULL, a->o.offcpu->n, sizeof *a->rc.span_row);
		memset(a->rc.span_row, 0xff, a->o.offcpu->n * sizeof *a->rc.span_row);
		b->rc.span_row = a->rc.span_row;
	}
	b->rc.pos_lent = true;
	a->rc.pos_split = b->rc.pos_split = true;
}

static int
cmp_merged(const void *a, const void *b, void *arg)
{
	const struct hist *h = arg;
	const struct hist_entry *x = *(const struct hist_entry *const *)a;
	const struct hist_entry *y = *(const struct hist_entry *const *)b;

	return hist_cmp_entries(h, x, hist_ent_order(h, h->mg.mfirst[x - h->mg.mrows]), y,
	    hist_ent_order(h, h->mg.mfirst[y - h->mg.mrows]));
}

/* The merged keys are for keep and cover every entry (NONE32 until asked). */
static void
merged_keys_for(struct hist *h, unsigned keep)
{
	struct hist_merged *mg = &h->mg;

	if (!mg->kon || mg->kkeep != keep || mg->nkof > h->nent) {
		hmap_free(&mg->ktab);
		memset(&mg->ktab, 0, sizeof mg->ktab);
		mg->nkof = mg->nkeys = 0;
		mg->kon = true;
		mg->kkeep = keep;
	}
	if (mg->nkof < h->nent) {
		GROW(mg->kof, mg->capkof, h->nent);
		memset(mg->kof + mg->nkof, 0xff, (h->nent - mg->nkof) * sizeof *mg->kof);
		mg->nkof = h->nent;
	}
}

/* Entry i's merged key id: its event and kept keys, interned once (an entry is of one event:
 * the ids serve every event asked). */
static uint32_t
merged_key(struct hist *h, size_t i)
{
	struct hist_merged *mg = &h->mg;
	struct hist_entry k;
	struct ent_full kf, ef;
	struct ent_want w = { NULL, &k };
	uint64_t hash;
	uint32_t id;

	if (mg->kof[i] != NONE32)
		return mg->kof[i];
	ent_unpack(h, &h->ent[i], &ef);
	kf = hist_ent_full_zero;
	kf.event = h->ent[i].event;
	for (unsigned kk = 0; kk < HIST_KEY_COUNT; kk++)
		if (mg->kkeep & HIST_KEEP(kk))
			sortkeys[kk].keep(&kf, &ef);
	ent_pack(h, &kf, &k);
	hash = ent_hash(&k);
	w.v = mg->keys;
	id = hmap_find(&mg->ktab, hash, ent_eq, &w);
	if (id == HMAP_NONE) {
		GROW(mg->keys, mg->capkeys, mg->nkeys + 1);
		mg->keys[mg->nkeys] = k;
		id = (uint32_t)mg->nkeys++;
		hmap_add(&mg->ktab, hash, id);
	}
	mg->kof[i] = id;
	return id;
}

/* Key id mk's row of this call: made (counts 0) the first time, for entry i. */
static uint32_t
merged_row(struct hist *h, uint32_t mk, size_t *nm, size_t i)
{
	struct hist_merged *mg = &h->mg;

	if (mk >= mg->capkrow) {
		size_t old = mg->capkrow;

		GROW(mg->krow, mg->capkrow, (size_t)mk + 1);
		memset(mg->krow + old, 0xff, (mg->capkrow - old) * sizeof *mg->krow);
	}
	if (mg->krow[mk] != NONE32)
		return mg->krow[mk];
	GROW(mg->mrows, mg->capmrows, *nm + 1);
	if (*nm + 1 > mg->capmfirst) {
		mg->capmfirst = mg->capmrows;
		mg->mfirst = xreallocarray(mg->mfirst, mg->capmfirst, sizeof *mg->mfirst);
		mg->mbest = xreallocarray(mg->mbest, mg->capmfirst, sizeof *mg->mbest);
		mg->mbestv = xreallocarray(mg->mbestv, mg->capmfirst, sizeof *mg->mbestv);
	}
	mg->mrows[*nm] = mg->keys[mk];
	mg->mfirst[*nm] = (uint32_t)i;
	mg->mbest[*nm] = (uint32_t)i;
	mg->mbestv[*nm] = 0;
	mg->krow[mk] = (uint32_t)*nm;
	return (uint32_t)(*nm)++;
}

void
hist_rows_stop(struct hist *h)
{
	struct hist_merged *mg = &h->mg;

	if (!mg->live)
		return;
	for (size_t r = 0; r < mg->nm; r++)
		mg->krow[mg->kof[mg->mfirst[r]]] = NONE32;
	mg->live = false;
	mg->nm = 0;
}

unsigned
hist_rows_begin(struct hist *h, size_t evi, const struct hist_select *sel, unsigned keep)
{
	struct hist_merged *mg = &h->mg;

	hist_rows_stop(h);
	mg->ticket++;
	mg->live = true;
	mg->nm = 0;
	mg->next = 0;
	mg->nent = evi < h->nev_order ? h->nent : 0;
	mg->ev = evi < h->nev_order ? h->ev_order[evi] : NONE32;
	mg->sel = sel;
	mg->keep = keep;
	merged_keys_for(h, keep);
	return mg->ticket;
}

bool
hist_rows_step(struct hist *h, unsigned ticket, size_t n)
{
	struct hist_merged *mg = &h->mg;
	size_t end;

	if (!mg->live || mg->ticket != ticket)
		return true;
	end = n < mg->nent - mg->next ? mg->next + n : mg->nent;
	for (size_t i = mg->next; i < end; i++) {
		const struct hist_entry *e = &h->ent[i];
		struct hist_entry *m;
		uint32_t id;
		uint64_t v;

		if (e->event != mg->ev || !hist_sel_entry(h, e, mg->sel) ||
		    (e->samples == 0 && e->acc_samples == 0))
			continue;
		id = merged_row(h, merged_key(h, i), &mg->nm, i);
		m = &mg->mrows[id];
		/* first: the first made in the scope (hist_ent_order) */
		if (hist_ent_order(h, (uint32_t)i) < hist_ent_order(h, mg->mfirst[id]))
			mg->mfirst[id] = (uint32_t)i;
		m->period += e->period;
		m->samples += e->samples;
		m->acc_period += e->acc_period;
		m->acc_samples += e->acc_samples;
		m->latency += e->latency;
		m->acc_latency += e->acc_latency;
		v = h->o.children ? e->acc_period : e->period;
		if (v > mg->mbestv[id]) {
			mg->mbestv[id] = v;
			mg->mbest[id] = (uint32_t)i;
		}
	}
	mg->next = end;
	return end >= mg->nent;
}

void
hist_rows_progress(const struct hist *h, unsigned ticket, size_t *done, size_t *total)
{
	bool live = h->mg.live && h->mg.ticket == ticket;

	*done = live ? h->mg.next : 0;
	*total = live ? h->mg.nent : 0;
}

size_t
hist_rows_end(struct hist *h, unsigned ticket, double min_pct, const struct hist_entry *const **out)
{
	struct hist_merged *mg = &h->mg;
	size_t n = 0, nm;
	uint64_t total;
	unsigned thread_keys = 0;

	*out = NULL;
	if (!mg->live || mg->ticket != ticket)
		return SIZE_MAX;
	(void)hist_rows_step(h, ticket, SIZE_MAX);	/* what is left, if any */
	nm = mg->nm;
	hist_rows_stop(h);
	if (mg->ev == NONE32)
		return 0;
	total = h->ev[mg->ev].total_period;
	for (unsigned k = 0; k < HIST_KEY_COUNT; k++)
		if (sortkeys[k].thread)
			thread_keys |= HIST_KEEP(k);
	GROW(mg->mout, mg->capmout, nm + 1);
	for (size_t i = 0; i < nm; i++) {
		struct hist_entry *m = &mg->mrows[i];
		const struct hist_entry *b = &h->ent[mg->mbest[i]];
		double pct = total ? 100.0 * (double)(h->o.children ? m->acc_period : m->period) /
		    (double)total : 0.0;

		if (!(mg->keep & thread_keys)) {
			m->pid = b->pid;
			m->tid = b->tid;
		}
		m->label_comm = b->label_comm;
		m->label_tid = b->label_tid;
		/* perf's label of an entry in no map (the null frame's [k] or [.]): its first sample's */
		m->label_sym = h->ent[mg->mfirst[i]].label_sym;
		if (min_pct > 0 && pct < min_pct)
			continue;
		if (!h->o.children && m->samples == 0)
			continue;
		mg->mout[n++] = m;
	}
	qsort_r(mg->mout, n, sizeof *mg->mout, cmp_merged, h);
	*out = mg->mout;
	return n;
}

size_t
hist_rows_merged(struct hist *h, size_t evi, const struct hist_select *sel, unsigned keep,
    double min_pct, const struct hist_entry *const **out)
{
	unsigned t = hist_rows_begin(h, evi, sel, keep);

	return hist_rows_end(h, t, min_pct, out);
}

/* Rows by self period, descending; ties by the kept keys' text, then as first made. */
static int
cmp_self(const void *a, const void *b, void *arg)
{
	const struct hist *h = arg;
	const struct hist_entry *x = *(const struct hist_entry *const *)a;
	const struct hist_entry *y = *(const struct hist_entry *const *)b;
	uint32_t ix = hist_ent_order(h, h->mg.mfirst[x - h->mg.mrows]);
	uint32_t iy = hist_ent_order(h, h->mg.mfirst[y - h->mg.mrows]);
	char tx[1024], ty[1024];
	int c;

	if (x->period != y->period)
		return x->period < y->period ? 1 : -1;
	for (unsigned k = 0; k < HIST_KEY_COUNT; k++) {
		if (!(h->mg.mkeep & HIST_KEEP(k)))
			continue;
		c = strcmp(hist_key_text(h, x, (enum hist_key)k, tx, sizeof tx),
		    hist_key_text(h, y, (enum hist_key)k, ty, sizeof ty));
		if (c != 0)
			return c;
	}
	return (ix > iy) - (ix < iy);
}

size_t
hist_rows_self(struct hist *h, size_t evi, const struct hist_select *sel, unsigned keep,
    double min_pct, const struct hist_entry *const **out)
{
	size_t n = hist_rows_merged(h, evi, sel, keep, 0, out), k = 0;

	for (size_t i = 0; i < n; i++) {
		const struct hist_entry *m = h->mg.mout[i];

		if (m->samples > 0 && !(min_pct > 0 && hist_self_pct(h, m) < min_pct))
			h->mg.mout[k++] = h->mg.mout[i];
	}
	h->mg.mkeep = keep;
	qsort_r(h->mg.mout, k, sizeof *h->mg.mout, cmp_self, h);
	return k;
}

uint32_t
hist_comm_find(struct hist *h, const char *name)
{
	for (size_t ev = 0; ev < hist_nevents(h); ev++) {
		const struct hist_entry *const *m;
		size_t n = hist_rows_merged(h, ev, NULL, HIST_KEEP(HIST_KEY_COMM), 0, &m);

		for (size_t i = 0; i < n; i++)
			if (strcmp(hist_str(h, m[i]->comm), name) == 0)
				return m[i]->comm;
	}
	return UINT32_MAX;
}
