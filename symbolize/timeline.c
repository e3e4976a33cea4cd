#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/hist.h"
#include "symbolize/tasks.h"
#include "symbolize/offcpu.h"
#include "symbolize/parallel.h"
#include "symbolize/timeline.h"

/*
 * Building: one pass over the index counts the samples of each key (a
 * pid, a pid/tid pair, a CPU), the keys are ordered into lanes (the
 * process tree's order for tasks), and a second pass files each sample's
 * position under its lanes (the prefix sums of the counts place them);
 * passes over lost records and context switches follow when there are
 * any.  A build runs in steps of positions (struct timeline_job) or whole.
 */

struct tkey {
	int32_t		pid, tid, cpu;
	uint32_t	count;
	uint32_t	rank;		/* order: process tree rank, thread rank within it */
	uint32_t	prank;		/* threads: their process's rank */
	uint32_t	lane;		/* TL_NONE until placed */
};

struct build {
	struct hmap	 pmap, tmap;	/* pid -> pkeys, pid/tid -> tkeys (cpu -> pkeys for TL_CPU) */
	struct tkey	*pk, *tk;
	size_t		 npk, captk, ntk, cappk;
};

static uint64_t
tkey_of(int32_t pid, int32_t tid)
{
	return (uint64_t)(uint32_t)pid << 32 | (uint32_t)tid;
}

static bool
is_sample(const struct timeline *tl, const struct rec_ent *e, size_t pos)
{
	return ent_type(e) == PF_REC_SAMPLE && (tl->attr < 0 ||
	    ent_attr(e) == (unsigned)tl->attr) && (tl->in == NULL || hist_scope_has(tl->in, pos));
}

static uint32_t
key_add(struct hmap *m, struct tkey **v, size_t *n, size_t *cap, uint64_t key,
    const struct tkey *k)
{
	uint32_t i = hmap_get(m, key);

	if (i == HMAP_NONE) {
		GROW(*v, *cap, *n + 1);
		i = (uint32_t)(*n)++;
		(*v)[i] = *k;
		(*v)[i].lane = TL_NONE;
		(*v)[i].rank = UINT32_MAX;
		(*v)[i].prank = UINT32_MAX;
		hmap_set(m, key, i);
	}
	return i;
}

static void
count_one(struct timeline *tl, struct build *b, size_t i)
{
	const struct rec_ent *e = index_ent(tl->ix, i);
	struct ent_who w;
	struct tkey k;
	uint32_t j;

	if (!is_sample(tl, e, i))
		return;
	w = session_ent_who(tl->s, i);
	k = (struct tkey){ w.pid, w.tid, w.cpu, 0, 0, 0, 0 };
	if (tl->npos == 0)
		tl->first = e->time;
	tl->last = e->time;
	tl->npos++;
	if (tl->mode == TL_ALL)
		return;
	if (tl->mode == TL_CPU) {
		j = key_add(&b->pmap, &b->pk, &b->npk, &b->cappk, (uint32_t)k.cpu, &k);
		b->pk[j].count++;
		return;
	}
	j = key_add(&b->pmap, &b->pk, &b->npk, &b->cappk, (uint32_t)k.pid, &k);
	b->pk[j].count++;
	j = key_add(&b->tmap, &b->tk, &b->ntk, &b->captk, tkey_of(k.pid, k.tid), &k);
	b->tk[j].count++;
}

/* Rank processes in the process tree's depth-first order, threads in their process's order. */
static void
rank_keys(const struct timeline *tl, struct build *b)
{
	const struct thread_table *tt = session_threads(tl->s);
	struct tasks *t = tasks_new(tl->s);
	uint32_t *stack = xcalloc(t->nprocs + 1, sizeof *stack), rank = 0;
	size_t sp = 0;

	for (size_t r = t->nroots; r-- > 0;)
		stack[sp++] = t->roots[r];
	while (sp) {
		const struct task_proc *pc = &t->procs[stack[--sp]];
		uint32_t j = hmap_get(&b->pmap, (uint32_t)pc->pid);

		if (j != HMAP_NONE && b->pk[j].rank == UINT32_MAX) {
			b->pk[j].rank = rank++;
			b->pk[j].tid = tt->v[pc->leader].tid;
		}
		for (size_t k = 0; k < pc->nthreads; k++) {
			const struct pn_thread *th = &tt->v[pc->threads[k]];
			uint32_t q = hmap_get(&b->tmap, tkey_of(pc->pid, th->tid));

			if (q != HMAP_NONE && b->tk[q].rank == UINT32_MAX)
				b->tk[q].rank = (uint32_t)k;
		}
		for (size_t k = pc->nkids; k-- > 0 && sp < t->nprocs + 1;)
			stack[sp++] = pc->kids[k];
	}
	for (size_t i = 0; i < b->ntk; i++) {
		uint32_t j = hmap_get(&b->pmap, (uint32_t)b->tk[i].pid);

		b->tk[i].prank = b->pk[j].rank;
	}
	free(stack);
	tasks_free(t);
}

static int
cmp_proc(const void *a, const void *b)
{
	const struct tkey *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

static int
cmp_thread(const void *a, const void *b)
{
	const struct tkey *x = a, *y = b;

	if (x->prank != y->prank)
		return x->prank < y->prank ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static struct tl_lane *
lane_add(struct timeline *tl, size_t *cap, enum tl_kind kind, const struct tkey *k)
{
	struct tl_lane *l;

	GROW(tl->lanes, *cap, tl->nlanes + 1);
	l = &tl->lanes[tl->nlanes++];
	memset(l, 0, sizeof *l);
	l->kind = kind;
	l->pid = k ? k->pid : -1;
	l->tid = k ? k->tid : -1;
	l->cpu = k && kind == TL_KIND_CPU ? k->cpu : -1;
	l->parent = TL_NONE;
	l->thread = THREAD_NONE;
	l->n = k ? k->count : (uint32_t)tl->npos;
	return l;
}

/* Lanes in order; the keys' lane fields point at them. */
static void
make_lanes(struct timeline *tl, struct build *b)
{
	size_t cap = 0, t = 0;

	lane_add(tl, &cap, TL_KIND_ALL, NULL);
	if (b->npk > 1)
		qsort(b->pk, b->npk, sizeof *b->pk, cmp_proc);
	if (b->ntk > 1)
		qsort(b->tk, b->ntk, sizeof *b->tk, cmp_thread);
	for (size_t i = 0; i < b->npk; i++) {
		uint32_t pl = (uint32_t)tl->nlanes;
		size_t t0;

		lane_add(tl, &cap, tl->mode == TL_CPU ? TL_KIND_CPU : TL_KIND_PROC, &b->pk[i]);
		b->pk[i].lane = pl;
		if (tl->mode == TL_CPU)
			continue;
		while (t < b->ntk && b->tk[t].pid != b->pk[i].pid)
			t++;
		t0 = t;
		while (t < b->ntk && b->tk[t].pid == b->pk[i].pid)
			t++;
		if (t - t0 == 1 && b->tk[t0].tid == b->pk[i].pid)
			continue;
		for (size_t k = t0; k < t; k++) {
			struct tl_lane *l = lane_add(tl, &cap, TL_KIND_THREAD, &b->tk[k]);

			l->parent = pl;
			b->tk[k].lane = (uint32_t)tl->nlanes - 1;
			tl->lanes[pl].nkids++;
		}
	}
	/* the keys moved: map again */
	hmap_free(&b->pmap);
	hmap_free(&b->tmap);
	memset(&b->pmap, 0, sizeof b->pmap);
	memset(&b->tmap, 0, sizeof b->tmap);
	for (size_t i = 0; i < b->npk; i++)
		hmap_set(&b->pmap, tl->mode == TL_CPU ? (uint32_t)b->pk[i].cpu :
		    (uint32_t)b->pk[i].pid, (uint32_t)i);
	for (size_t i = 0; i < b->ntk; i++)
		hmap_set(&b->tmap, tkey_of(b->tk[i].pid, b->tk[i].tid), (uint32_t)i);
}

/* The process (or CPU) lane and the thread lane of a record's who; TL_NONE where none. */
static void
lanes_of(const struct timeline *tl, const struct build *b, int32_t pid, int32_t tid, int32_t cpu,
    uint32_t *pl, uint32_t *thl)
{
	uint32_t j;

	*pl = *thl = TL_NONE;
	if (tl->mode == TL_ALL)
		return;
	if (tl->mode == TL_CPU) {
		j = hmap_get(&b->pmap, (uint32_t)cpu);
		*pl = j == HMAP_NONE ? TL_NONE : b->pk[j].lane;
		return;
	}
	j = hmap_get(&b->pmap, (uint32_t)pid);
	*pl = j == HMAP_NONE ? TL_NONE : b->pk[j].lane;
	j = hmap_get(&b->tmap, tkey_of(pid, tid));
	*thl = j == HMAP_NONE ? TL_NONE : b->tk[j].lane;
}

/* Room for every lane's positions: at[lane] the next one's slot. */
static uint32_t *
fill_begin(struct timeline *tl)
{
	uint32_t *at = xcalloc(tl->nlanes + 1, sizeof *at), off = 0;

	for (size_t i = 0; i < tl->nlanes; i++) {
		tl->lanes[i].first = off;
		at[i] = off;
		off += tl->lanes[i].n;
	}
	tl->pos = xcalloc(off ? off : 1, sizeof *tl->pos);
	return at;
}

static void
fill_one(struct timeline *tl, const struct build *b, uint32_t *at, size_t i)
{
	const struct rec_ent *e = index_ent(tl->ix, i);
	struct ent_who w;
	uint32_t pl, thl;

	if (!is_sample(tl, e, i))
		return;
	tl->pos[at[0]++] = (uint32_t)i;
	w = session_ent_who(tl->s, i);
	lanes_of(tl, b, w.pid, w.tid, w.cpu, &pl, &thl);
	if (pl != TL_NONE)
		tl->pos[at[pl]++] = (uint32_t)i;
	if (thl != TL_NONE)
		tl->pos[at[thl]++] = (uint32_t)i;
}

static void
label_threads(struct timeline *tl)
{
	const struct thread_table *tt = session_threads(tl->s);

	for (size_t i = 1; i < tl->nlanes; i++) {
		struct tl_lane *l = &tl->lanes[i];

		if (l->kind == TL_KIND_CPU || l->n == 0)
			continue;
		l->thread = thread_table_find(tt, l->kind == TL_KIND_PROC ? l->pid : l->tid,
		    index_ent(tl->ix, tl->pos[l->first])->time);
		if (l->kind == TL_KIND_PROC && l->thread == THREAD_NONE)
			l->thread = thread_table_find(tt, l->tid, index_ent(tl->ix, tl->pos[l->first])->time);
	}
}

/* ---- lost records and context switches ---- */

/* Does the recording have lost records (a pass to find them)? */
static bool
has_lost(const struct timeline *tl)
{
	const struct type_counts *cnt = session_counts(tl->s);

	return cnt->by_type[PF_REC_LOST] != 0 || cnt->by_type[PF_REC_LOST_SAMPLES] != 0;
}

static void
lost_one(struct timeline *tl, const struct build *b, size_t i, size_t *cap)
{
	const struct rec_ent *e = index_ent(tl->ix, i);
	unsigned t = ent_type(e);
	struct rec r;
	struct rec_lost l;
	struct tl_lost *o;
	struct ent_who w;
	uint32_t pl, thl;

	if (t != PF_REC_LOST && t != PF_REC_LOST_SAMPLES)
		return;
	if (session_rec(tl->s, ent_loc(e), &r) < 0 || record_lost(&r, &l) < 0)
		return;
	GROW(tl->lost, *cap, tl->nlost + 1);
	o = &tl->lost[tl->nlost++];
	o->time = e->time;
	o->lost = l.lost;
	w = session_ent_who(tl->s, i);
	o->pid = w.pid;
	o->tid = w.tid;
	o->cpu = w.cpu;
	tl->lanes[0].lost += l.lost;
	lanes_of(tl, b, o->pid, o->tid, o->cpu, &pl, &thl);
	if (pl != TL_NONE)
		tl->lanes[pl].lost += l.lost;
	if (thl != TL_NONE)
		tl->lanes[thl].lost += l.lost;
}

struct lgap {
	uint32_t	lane;
	struct tl_gap	g;
};

static int
cmp_lgap(const void *a, const void *b)
{
	const struct lgap *x = a, *y = b;

	if (x->lane != y->lane)
		return x->lane < y->lane ? -1 : 1;
	return x->g.start < y->g.start ? -1 : x->g.start > y->g.start;
}

/* The lane a thread's gaps are drawn in: its thread lane, or a process lane that is it alone. */
static uint32_t
gap_lane(const struct timeline *tl, const struct build *b, int32_t pid, int32_t tid)
{
	uint32_t pl, thl;

	lanes_of(tl, b, pid, tid, -1, &pl, &thl);
	if (thl != TL_NONE)
		return thl;
	if (pl != TL_NONE && tl->lanes[pl].nkids == 0 && tl->lanes[pl].tid == tid)
		return pl;
	return TL_NONE;
}

static void
store_gaps(struct timeline *tl, struct lgap *v, size_t nv)
{
	if (nv > 1)
		qsort(v, nv, sizeof *v, cmp_lgap);
	tl->gaps = xcalloc(nv ? nv : 1, sizeof *tl->gaps);
	for (size_t i = 0; i < nv; i++) {
		struct tl_lane *l = &tl->lanes[v[i].lane];

		if (l->gn == 0)
			l->gfirst = (uint32_t)i;
		l->gn++;
		tl->gaps[i] = v[i].g;
	}
	tl->ngaps = nv;
}

enum tl_gap_kind
timeline_gap_kind(uint32_t state)
{
	if ((state & 0xff) == 0x3)
		return TL_GAP_SLEEP;	/* S|D: asleep or blocked, the source does not say */
	if (state & 0x2)
		return TL_GAP_BLOCKED;
	if ((state & 0xff) == 0 || (state & 0x100))
		return TL_GAP_PREEMPTED;
	return TL_GAP_SLEEP;
}

/* The gaps of an off-CPU model's spans: each from its switch-out sample's time, by its state. */
static void
span_gaps(struct timeline *tl, const struct build *b, const struct offcpu *oc, size_t n)
{
	struct lgap *v = NULL;
	size_t cap = 0, nv = 0;

	for (size_t k = 0; k < oc->n; k++) {
		const struct offcpu_span *sp = &oc->v[k];
		struct ent_who w, ww;
		uint64_t t;
		uint32_t lane;

		if (sp->pos >= n)
			break;
		w = session_ent_who(tl->s, (size_t)sp->pos);
		t = index_ent(tl->ix, (size_t)sp->pos)->time;
		lane = gap_lane(tl, b, w.pid, sp->tid);
		if (lane == TL_NONE || sp->ns == 0 || t > UINT64_MAX - sp->ns)
			continue;
		GROW(v, cap, nv + 1);
		ww = sp->waker < tl->ix->n ? session_ent_who(tl->s, (size_t)sp->waker) :
		    (struct ent_who){ .pid = -1, .tid = -1 };
		v[nv++] = (struct lgap){ lane, { t, t + sp->ns, (uint8_t)timeline_gap_kind(sp->state),
		    sp->waker < tl->ix->n ? index_ent(tl->ix, (size_t)sp->waker)->time : 0, ww.pid, ww.tid } };
	}
	store_gaps(tl, v, nv);
	free(v);
}

/* The pass over context switches: each thread's last switch-out, the gaps found. */
struct gaps {
	struct hmap	 out;		/* pid/tid -> index into outs */
	uint64_t	*outs;
	struct lgap	*v;
	size_t		 capo, nouts, cap, nv;
};

/*
 * The gaps that need no pass (an off-CPU model's sched_switch spans, or
 * none for lanes that are not tasks, or without switches): stored, and
 * false; true when the pass over SWITCH records is to come.
 */
static bool
gaps_begin(struct timeline *tl, const struct build *b, size_t n, const struct offcpu *oc)
{
	const struct type_counts *cnt = session_counts(tl->s);

	tl->has_switch = cnt->by_type[PF_REC_SWITCH] || cnt->by_type[PF_REC_SWITCH_CPU_WIDE];
	/* sched_switch spans: their switch-outs' times and states (the other
	 * sources' spans are at a sample's position, not a switch's) */
	if (oc != NULL && oc->n > 0 && oc->source == OFFCPU_SRC_SCHED && tl->mode == TL_TASKS) {
		tl->has_switch = true;
		span_gaps(tl, b, oc, n);
		return false;
	}
	if (!tl->has_switch || tl->mode != TL_TASKS) {
		tl->gaps = xcalloc(1, sizeof *tl->gaps);
		return false;
	}
	return true;
}

static void
gaps_one(struct timeline *tl, const struct build *b, struct gaps *g, size_t i)
{
	const struct rec_ent *e = index_ent(tl->ix, i);
	unsigned t = ent_type(e);
	struct ent_who w;
	uint64_t key;
	uint32_t j, lane;
	struct rec r;

	if (t != PF_REC_SWITCH && t != PF_REC_SWITCH_CPU_WIDE)
		return;
	w = session_ent_who(tl->s, i);
	key = tkey_of(w.pid, w.tid);
	if (w.tid < 0 || session_rec(tl->s, ent_loc(e), &r) < 0)
		return;
	j = hmap_get(&g->out, key);
	if (r.misc & PERF_RECORD_MISC_SWITCH_OUT) {
		if (j == HMAP_NONE) {
			GROW(g->outs, g->capo, g->nouts + 1);
			j = (uint32_t)g->nouts++;
			hmap_set(&g->out, key, j);
		}
		g->outs[j] = e->time;
		return;
	}
	if (j == HMAP_NONE || g->outs[j] == UINT64_MAX)
		return;
	lane = gap_lane(tl, b, w.pid, w.tid);
	if (lane != TL_NONE && e->time > g->outs[j]) {
		GROW(g->v, g->cap, g->nv + 1);
		g->v[g->nv++] = (struct lgap){ lane, { g->outs[j], e->time, TL_GAP_SLEEP, 0, -1, -1 } };
	}
	g->outs[j] = UINT64_MAX;
}

static void
gaps_free(struct gaps *g)
{
	free(g->v);
	free(g->outs);
	hmap_free(&g->out);
	memset(g, 0, sizeof *g);
}

/* ---- the build, in steps ---- */

/* The passes over the index, in order. */
enum { PASS_COUNT, PASS_FILL, PASS_LOST, PASS_GAPS, PASS_DONE };

struct timeline_job {
	struct timeline		*tl;
	struct build		 b;
	const struct offcpu	*oc;
	size_t			 n;		/* positions looked at (the index, cut at 4G) */
	int			 pass;
	size_t			 i;		/* the pass's next position */
	size_t			 passes, done;	/* passes to make, made */
	uint32_t		*at;		/* PASS_FILL: each lane's next slot */
	size_t			 caplost;
	struct gaps		 g;
};

struct timeline_job *
timeline_job_new(const struct session *s, enum tl_mode mode, int attr, const struct hist *in,
    const struct offcpu *oc)
{
	const struct rec_index *ix = session_index(s);
	struct timeline_job *j = xcalloc(1, sizeof *j);
	struct timeline *tl = xcalloc(1, sizeof *tl);

	tl->s = s;
	tl->ix = ix;
	tl->mode = mode;
	tl->attr = attr;
	tl->in = in;
	j->tl = tl;
	j->oc = oc;
	/* positions are 32 bits: a longer index is cut (4G records) */
	j->n = ix->n < UINT32_MAX ? ix->n : UINT32_MAX;
	j->passes = 2 + has_lost(tl) + 1;	/* the gaps' pass counted until known */
	return j;
}

/* The pass after j's current one begins (what lies between them done). */
static void
next_pass(struct timeline_job *j)
{
	struct timeline *tl = j->tl;

	j->i = 0;
	j->done++;
	if (j->pass == PASS_COUNT) {
		if (tl->mode == TL_TASKS)
			rank_keys(tl, &j->b);
		make_lanes(tl, &j->b);
		j->at = fill_begin(tl);
		j->pass = PASS_FILL;
		return;
	}
	if (j->pass == PASS_FILL) {
		free(j->at);
		j->at = NULL;
		label_threads(tl);
		j->pass = PASS_LOST;
		if (has_lost(tl))
			return;
	}
	if (j->pass == PASS_LOST) {
		j->pass = PASS_GAPS;
		if (gaps_begin(tl, &j->b, j->n, j->oc))
			return;
		j->done = j->passes;
		j->pass = PASS_DONE;
		return;
	}
	store_gaps(tl, j->g.v, j->g.nv);
	gaps_free(&j->g);
	j->pass = PASS_DONE;
}

bool
timeline_job_step(struct timeline_job *j, size_t npos)
{
	while (j->pass != PASS_DONE && npos > 0) {
		size_t end = j->n - j->i < npos ? j->n : j->i + npos;

		npos -= end - j->i;
		for (; j->i < end; j->i++) {
			if (j->pass == PASS_COUNT)
				count_one(j->tl, &j->b, j->i);
			else if (j->pass == PASS_FILL)
				fill_one(j->tl, &j->b, j->at, j->i);
			else if (j->pass == PASS_LOST)
				lost_one(j->tl, &j->b, j->i, &j->caplost);
			else
				gaps_one(j->tl, &j->b, &j->g, j->i);
		}
		if (j->i == j->n)
			next_pass(j);
	}
	return j->pass == PASS_DONE;
}

double
timeline_job_share(const struct timeline_job *j)
{
	if (j->pass == PASS_DONE)
		return 1.0;
	return ((double)j->done + (j->n ? (double)j->i / (double)j->n : 0)) / (double)(j->passes + 1);
}

struct timeline *
timeline_job_take(struct timeline_job *j)
{
	struct timeline *tl;

	timeline_job_step(j, SIZE_MAX);
	tl = j->tl;
	j->tl = NULL;
	timeline_job_free(j);
	return tl;
}

void
timeline_job_free(struct timeline_job *j)
{
	if (j == NULL)
		return;
	timeline_free(j->tl);
	hmap_free(&j->b.pmap);
	hmap_free(&j->b.tmap);
	free(j->b.pk);
	free(j->b.tk);
	free(j->at);
	gaps_free(&j->g);
	free(j);
}

struct timeline *
timeline_new(const struct session *s, enum tl_mode mode, int attr)
{
	return timeline_new_in(s, mode, attr, NULL);
}

struct timeline *
timeline_new_in(const struct session *s, enum tl_mode mode, int attr, const struct hist *in)
{
	return timeline_new_oc(s, mode, attr, in, NULL);
}

struct timeline *
timeline_new_oc(const struct session *s, enum tl_mode mode, int attr, const struct hist *in,
    const struct offcpu *oc)
{
	return timeline_job_take(timeline_job_new(s, mode, attr, in, oc));
}

void
timeline_free(struct timeline *tl)
{
	if (tl == NULL)
		return;
	free(tl->lanes);
	free(tl->pos);
	free(tl->lost);
	free(tl->gaps);
	free(tl);
}

const char *
timeline_label(const struct timeline *tl, uint32_t lane, char *buf, size_t n)
{
	const struct thread_table *tt = session_threads(tl->s);
	const struct tl_lane *l = &tl->lanes[lane];
	const char *comm = "";
	char esc[64];
	int k;

	if (l->kind == TL_KIND_ALL) {
		snprintf(buf, n, "all");
		return buf;
	}
	if (l->kind == TL_KIND_CPU) {
		if (l->cpu < 0)
			snprintf(buf, n, "cpu ?");
		else
			snprintf(buf, n, "cpu %" PRId32, l->cpu);
		return buf;
	}
	if (l->thread != THREAD_NONE && tt->v[l->thread].last_comm != UINT32_MAX)
		comm = strtab_get(&tt->strs, tt->comms[tt->v[l->thread].last_comm].name);
	text_escape(esc, sizeof esc, comm, strlen(comm), 0);
	if (l->kind == TL_KIND_PROC)
		k = snprintf(buf, n, "%" PRId32, l->pid);
	else
		k = snprintf(buf, n, "%" PRId32 "/%" PRId32, l->pid, l->tid);
	if (k >= 0 && (size_t)k < n && esc[0])
		snprintf(buf + k, n - (size_t)k, " %s", esc);
	return buf;
}

/* ---- counting ---- */

static size_t
lower_from(const struct timeline *tl, size_t lo, size_t hi, uint64_t t)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (index_ent(tl->ix, tl->pos[mid])->time < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t
timeline_lower(const struct timeline *tl, uint32_t lane, uint64_t t)
{
	const struct tl_lane *l = &tl->lanes[lane];

	return lower_from(tl, l->first, (size_t)l->first + l->n, t);
}

uint64_t
timeline_count(const struct timeline *tl, uint32_t lane, uint64_t t0, uint64_t t1)
{
	if (t1 <= t0)
		return 0;
	return timeline_lower(tl, lane, t1) - timeline_lower(tl, lane, t0);
}

uint64_t
timeline_col_start(uint64_t t0, uint64_t t1, unsigned w, unsigned k)
{
	uint64_t d = t1 > t0 ? t1 - t0 : 0;

	if (w == 0 || k >= w)
		return t1;
	/* d * k / w without overflow: r * k < w * w */
	return t0 + d / w * k + d % w * k / w;
}

/* The first step of p at time t or later (p->n: none). */
static size_t
par_step_at(const struct parallel *p, uint64_t t)
{
	size_t lo = 0, hi = p->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->v[mid].time < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void
timeline_par_buckets(const struct parallel *p, uint64_t t0, uint64_t t1, unsigned w, uint32_t *out)
{
	for (unsigned k = 0; k < w; k++) {
		uint64_t c0 = timeline_col_start(t0, t1, w, k), c1 = timeline_col_start(t0, t1, w, k + 1);
		size_t i = par_step_at(p, c0);
		/* the level in effect at c0: after every record before it */
		uint32_t lv = parallel_clamp(p, i > 0 ? p->v[i - 1].count : 1);
		uint64_t at = c0;
		double acc = 0, avg;	/* level x ns: a double, whatever a hostile clock says */

		if (c1 <= c0) {
			out[k] = lv;
			continue;
		}
		for (; i < p->n && p->v[i].time < c1; i++) {
			acc += (double)lv * (double)(p->v[i].time - at);
			at = p->v[i].time;
			lv = parallel_clamp(p, p->v[i].count);
		}
		acc += (double)lv * (double)(c1 - at);
		avg = acc / (double)(c1 - c0) + 0.5;
		out[k] = avg < 1 ? 1 : avg > PARALLEL_MAX ? PARALLEL_MAX : (uint32_t)avg;
	}
}

unsigned
timeline_par_bin(uint32_t level, uint32_t max)
{
	unsigned b;

	if (level < 1)
		level = 1;
	if (max <= 4)
		b = level - 1;
	else
		b = (unsigned)(((uint64_t)level - 1) * 4 / max);
	return b > 3 ? 3 : b;
}

bool
timeline_par_range(unsigned bin, uint32_t max, uint32_t *lo, uint32_t *hi)
{
	bool any = false;

	if (max < 1)
		max = 1;
	for (uint32_t l = 1; l <= max && l <= PARALLEL_MAX; l++) {
		if (timeline_par_bin(l, max) != bin)
			continue;
		if (!any)
			*lo = l;
		*hi = l;
		any = true;
	}
	return any;
}

uint32_t
timeline_buckets(const struct timeline *tl, uint32_t lane, uint64_t t0, uint64_t t1, unsigned w,
    uint32_t *out)
{
	const struct tl_lane *l = &tl->lanes[lane];
	size_t end = (size_t)l->first + l->n, lo = lower_from(tl, l->first, end, t0);
	uint32_t max = 0;

	for (unsigned k = 0; k < w; k++) {
		size_t hi = lower_from(tl, lo, end, timeline_col_start(t0, t1, w, k + 1));

		out[k] = (uint32_t)(hi - lo);
		if (out[k] > max)
			max = out[k];
		lo = hi;
	}
	return max;
}

void
timeline_buckets_func(const struct timeline *tl, const struct hist *h, uint32_t lane,
    uint32_t func, uint64_t t0, uint64_t t1, unsigned w, uint32_t *out)
{
	size_t i = timeline_lower(tl, lane, t0), end = timeline_lower(tl, lane, t1);
	unsigned k = 0;
	uint64_t next = timeline_col_start(t0, t1, w, 1);

	memset(out, 0, w * sizeof *out);
	for (; i < end && w; i++) {
		uint32_t pos = tl->pos[i], id;
		const struct hist_entry *he;

		while (index_ent(tl->ix, pos)->time >= next && k + 1 < w)
			next = timeline_col_start(t0, t1, w, ++k + 1);
		if ((id = hist_sample_entry(h, pos)) == UINT32_MAX)
			continue;
		he = hist_entry_get(h, id);
		if (he && he->node == func)
			out[k]++;
	}
}

uint32_t *
timeline_func_samples(const struct timeline *tl, const struct hist *h, uint32_t func, size_t *n)
{
	const struct tl_lane *l = &tl->lanes[0];
	uint32_t *v = NULL;
	size_t cap = 0;

	*n = 0;
	for (uint32_t i = l->first; i < l->first + l->n; i++) {
		uint32_t id = hist_sample_entry(h, tl->pos[i]);
		const struct hist_entry *he;

		if (id == UINT32_MAX || (he = hist_entry_get(h, id)) == NULL || he->node != func)
			continue;
		GROW(v, cap, *n + 1);
		v[(*n)++] = tl->pos[i];
	}
	return v;
}

/* Is the sample at index position pos one of lane's? */
static bool
in_lane(const struct timeline *tl, const struct tl_lane *l, uint32_t pos)
{
	struct ent_who w;

	if (l->kind == TL_KIND_ALL)
		return true;
	w = session_ent_who(tl->s, pos);
	switch (l->kind) {
	case TL_KIND_ALL:
		return true;
	case TL_KIND_PROC:
		return w.pid == l->pid;
	case TL_KIND_THREAD:
		return w.pid == l->pid && w.tid == l->tid;
	case TL_KIND_CPU:
		return w.cpu == l->cpu;
	}
	return false;
}

void
timeline_buckets_picked(const struct timeline *tl, const uint32_t *picked, size_t n,
    uint32_t lane, uint64_t t0, uint64_t t1, unsigned w, uint32_t *out)
{
	const struct tl_lane *l = &tl->lanes[lane];
	size_t lo = 0, hi = n;
	unsigned k = 0;
	uint64_t next = timeline_col_start(t0, t1, w, 1);

	memset(out, 0, w * sizeof *out);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (index_ent(tl->ix, picked[mid])->time < t0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < n && w && index_ent(tl->ix, picked[i])->time < t1; i++) {
		while (index_ent(tl->ix, picked[i])->time >= next && k + 1 < w)
			next = timeline_col_start(t0, t1, w, ++k + 1);
		if (in_lane(tl, l, picked[i]))
			out[k]++;
	}
}

static bool
lost_in_lane(const struct timeline *tl, const struct tl_lane *l, const struct tl_lost *x)
{
	(void)tl;
	switch (l->kind) {
	case TL_KIND_ALL:
		return true;
	case TL_KIND_PROC:
		return x->pid == l->pid;
	case TL_KIND_THREAD:
		return x->pid == l->pid && x->tid == l->tid;
	case TL_KIND_CPU:
		return x->cpu == l->cpu;
	}
	return false;
}

void
timeline_lost_buckets(const struct timeline *tl, uint32_t lane, uint64_t t0, uint64_t t1,
    unsigned w, uint64_t *out)
{
	size_t lo = 0, hi = tl->nlost;
	unsigned k = 0;

	memset(out, 0, w * sizeof *out);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (tl->lost[mid].time < t0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < tl->nlost && tl->lost[i].time < t1 && w; i++) {
		while (k + 1 < w && tl->lost[i].time >= timeline_col_start(t0, t1, w, k + 1))
			k++;
		if (lost_in_lane(tl, &tl->lanes[lane], &tl->lost[i]))
			out[k] += tl->lost[i].lost;
	}
}

void
timeline_gap_buckets(const struct timeline *tl, uint32_t lane, uint64_t t0, uint64_t t1,
    unsigned w, uint64_t *out, uint8_t *kind)
{
	const struct tl_lane *l = &tl->lanes[lane];
	uint64_t best[TL_GAP_NKINDS];
	unsigned k0 = 0;

	memset(out, 0, w * sizeof *out);
	if (kind != NULL)
		memset(kind, TL_GAP_SLEEP, w);
	if (kind != NULL) {	/* a column at a time, kind by kind */
		for (unsigned k = 0; k < w; k++) {
			uint64_t c0 = timeline_col_start(t0, t1, w, k), c1 = timeline_col_start(t0, t1, w, k + 1);

			memset(best, 0, sizeof best);
			for (uint32_t i = l->gfirst + k0; i < l->gfirst + l->gn; i++) {
				const struct tl_gap *g = &tl->gaps[i];
				uint64_t a = g->start > c0 ? g->start : c0, b = g->end < c1 ? g->end : c1;

				if (g->start >= c1)
					break;
				if (g->end <= c0 && i == l->gfirst + k0)
					k0++;	/* over before this column: over for the next ones */
				if (a < b) {
					best[g->kind < TL_GAP_NKINDS ? g->kind : 0] += b - a;
					out[k] += b - a;
				}
			}
			for (unsigned g = 1; g < TL_GAP_NKINDS; g++)
				if (best[g] > best[kind[k]])
					kind[k] = (uint8_t)g;
		}
		return;
	}
	for (uint32_t i = l->gfirst; i < l->gfirst + l->gn; i++) {
		const struct tl_gap *g = &tl->gaps[i];
		uint64_t s = g->start > t0 ? g->start : t0, e = g->end < t1 ? g->end : t1;

		if (s >= e)
			continue;
		for (unsigned k = 0; k < w; k++) {
			uint64_t c0 = timeline_col_start(t0, t1, w, k);
			uint64_t c1 = timeline_col_start(t0, t1, w, k + 1);
			uint64_t a = s > c0 ? s : c0, b = e < c1 ? e : c1;

			if (c0 >= e)
				break;
			if (a < b)
				out[k] += b - a;
		}
	}
}

uint64_t
timeline_wake_buckets(const struct timeline *tl, uint32_t lane, uint64_t t0, uint64_t t1,
    unsigned w, uint32_t *out)
{
	const struct tl_lane *l = &tl->lanes[lane];
	uint64_t sum = 0;

	memset(out, 0, w * sizeof *out);
	for (uint32_t i = l->gfirst; i < l->gfirst + l->gn && w; i++) {
		uint64_t t = tl->gaps[i].wake;
		unsigned lo = 0, hi = w - 1;

		if (t == 0 || t < t0 || t >= t1)
			continue;
		while (lo < hi) {	/* the last column starting at or before t */
			unsigned mid = lo + (hi - lo + 1) / 2;

			if (timeline_col_start(t0, t1, w, mid) <= t)
				lo = mid;
			else
				hi = mid - 1;
		}
		out[lo]++;
		sum++;
	}
	return sum;
}

/* ---- the flame scope ---- */

static uint64_t
row_off(const struct tl_heat *ht, unsigned row)
{
	/* unit * row / nrows without overflow */
	return ht->unit / ht->nrows * row + ht->unit % ht->nrows * row / ht->nrows;
}

uint64_t
timeline_heat_cell_start(const struct tl_heat *ht, size_t col, unsigned row)
{
	if (row >= ht->nrows) {
		col++;
		row = 0;
	}
	return ht->origin + ht->unit * col + row_off(ht, row);
}

bool
timeline_heat(const struct timeline *tl, uint32_t lane, uint64_t unit, unsigned nrows,
    struct tl_heat *ht)
{
	const struct tl_lane *l = &tl->lanes[lane];

	memset(ht, 0, sizeof *ht);
	if (l->n == 0 || unit == 0 || nrows == 0 || nrows > 4096)
		return false;
	ht->origin = tl->first;
	ht->unit = unit;
	ht->nrows = nrows;
	ht->ncols = (size_t)((tl->last - tl->first) / unit) + 1;
	if (ht->ncols > TL_HEAT_MAX_CELLS / nrows)
		return false;
	ht->cells = xcalloc(ht->ncols * nrows, sizeof *ht->cells);
	for (uint32_t i = l->first; i < l->first + l->n; i++) {
		uint64_t off = index_ent(tl->ix, tl->pos[i])->time - ht->origin;
		size_t c = (size_t)(off / unit);
		uint64_t in = off % unit;
		unsigned r = (unsigned)((double)in * nrows / (double)unit);
		uint32_t *cell;

		if (r >= nrows)
			r = nrows - 1;
		while (r + 1 < nrows && in >= row_off(ht, r + 1))
			r++;
		while (r > 0 && in < row_off(ht, r))
			r--;
		cell = &ht->cells[c * nrows + r];
		if (++*cell > ht->max)
			ht->max = *cell;
	}
	return true;
}

void
timeline_heat_free(struct tl_heat *ht)
{
	free(ht->cells);
	memset(ht, 0, sizeof *ht);
}

void
timeline_heat_range(const struct tl_heat *ht, size_t c0, unsigned r0, size_t c1, unsigned r1,
    uint64_t *start, uint64_t *end)
{
	if (c1 < c0 || (c1 == c0 && r1 < r0)) {
		size_t c = c0;
		unsigned r = r0;

		c0 = c1;
		r0 = r1;
		c1 = c;
		r1 = r;
	}
	*start = timeline_heat_cell_start(ht, c0, r0);
	*end = timeline_heat_cell_start(ht, c1, r1 + 1) - 1;
}
