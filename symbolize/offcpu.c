#include "config.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/hmap.h"
#include "core/index.h"
#include "symbolize/by_pos.h"
#include "symbolize/offcpu.h"
#include "symbolize/tpevent.h"

/*
 * offcpu.c: the pairing.  While walking, a span's ns holds its t_out and
 * open[] says which spans still wait for their switch-in; per thread, the
 * span it waits with (or HMAP_NONE) and its last sample's index position.
 * Spans left waiting are dropped at the end, the array compacted in place
 * and sorted by position (a SWITCH record's span lies at an earlier
 * sample).
 */

#define OFFCPU_NAME	"sched:sched_switch"
#define WAKING_NAME	"sched:sched_waking"
#define WAKEUP_NAME	"sched:sched_wakeup"
#define NO_POS		UINT64_MAX
#define SW_BPF_OUTPUT	10	/* PERF_COUNT_SW_BPF_OUTPUT */

/* The fields' places in one attr's payloads. */
struct sw_locs {
	bool		 is_switch;
	bool		 ok;
	bool		 is_wake;	/* the wakeups' event (its pid's place in wake) */
	struct tp_loc	 prev, next, state, wake;
};

struct thr {
	uint64_t	 last;		/* its last sample's index position, or NO_POS */
	uint32_t	 waiting;	/* span index or HMAP_NONE */
	uint64_t	 wake_pos;	/* its last wakeup's index position, or NO_POS */
	uint64_t	 wake_t;	/* and time */
	uint64_t	 in_t;		/* its last switch-in's time, or NO_POS */
};

struct offcpu_pairing {
	struct offcpu	*o;
	uint8_t		*open;		/* per span: 1 waiting for its switch-in, 2 dropped */
	struct hmap	 slot_of;	/* tid -> thread slot */
	struct thr	*thr;
	size_t		 nthr, capthr;
};

static struct thr *
thread_of(struct offcpu_pairing *p, int64_t tid)
{
	uint64_t key = (uint64_t)(uint32_t)tid;
	uint32_t slot = hmap_get(&p->slot_of, key);

	if (slot == HMAP_NONE) {
		GROW(p->thr, p->capthr, p->nthr + 1);
		slot = (uint32_t)p->nthr++;
		p->thr[slot] = (struct thr){ NO_POS, HMAP_NONE, NO_POS, 0, NO_POS };
		hmap_set(&p->slot_of, key, slot);
	}
	return &p->thr[slot];
}

/* tid switched in at time t: its waiting span ends. */
static void
pair_in(struct offcpu_pairing *p, int64_t tid, uint64_t t)
{
	struct offcpu *o = p->o;
	struct thr *th = thread_of(p, tid);
	struct offcpu_span *sp;

	th->in_t = t;	/* on CPU from here to its next switch-out */
	if (th->waiting == HMAP_NONE)
		return;
	sp = &o->v[th->waiting];
	if (t >= sp->ns && t - sp->ns <= OFFCPU_NS_MAX) {
		/* the last wakeup since the switch-out (sp->ns holds t_out) */
		if (th->wake_pos != NO_POS && th->wake_t >= sp->ns && th->wake_t <= t)
			sp->waker = th->wake_pos;
		sp->ns = t - sp->ns;
		p->open[th->waiting] = 0;
	} else {
		p->open[th->waiting] = 2;	/* in before out, or too long: damage, no span */
		o->nbad++;
	}
	th->waiting = HMAP_NONE;
}

/* A new span at pos; its index, or HMAP_NONE (too many: counted). */
static uint32_t
span_new(struct offcpu *o, uint8_t **open, uint64_t pos, uint64_t ns, int64_t tid, uint16_t state,
    uint16_t flags)
{
	if (o->n >= UINT32_MAX - 1) {
		o->nbad++;
		return HMAP_NONE;
	}
	if (o->n == o->cap) {
		GROW(o->v, o->cap, o->n + 1);
		if (open != NULL)
			*open = xreallocarray(*open, o->cap, 1);
	}
	o->v[o->n] = (struct offcpu_span){ pos, ns, (int32_t)tid, state, flags, OFFCPU_NO_WAKER, 0 };
	if (open != NULL)
		(*open)[o->n] = 1;
	return (uint32_t)o->n++;
}

/* tid switched out at time t, charged at index position pos (NO_POS: no
 * sample to charge, left out). */
static void
pair_out(struct offcpu_pairing *p, int64_t tid, uint64_t pos, uint64_t t, uint16_t state,
    uint16_t flags)
{
	struct offcpu *o = p->o;
	struct thr *th = thread_of(p, tid);
	uint64_t on = th->in_t != NO_POS && t >= th->in_t ? t - th->in_t : 0;

	th->in_t = NO_POS;
	if (th->waiting != HMAP_NONE) {
		o->nagain++;
		p->open[th->waiting] = 2;	/* dropped, not counted as open */
		th->waiting = HMAP_NONE;
	}
	if (pos == NO_POS) {
		o->nnosample++;
		return;
	}
	th->waiting = span_new(o, &p->open, pos, t, tid, state, flags);
	if (th->waiting != HMAP_NONE)
		o->v[th->waiting].on_ns = on;
}

/* One sched_switch at index position pos, time t: next_pid switched in, prev_pid out. */
void
offcpu_pairing_add(struct offcpu_pairing *p, uint64_t pos, uint64_t t, int64_t prev, int64_t next,
    int64_t state)
{
	pair_in(p, next, t);
	if (prev == 0) {
		p->o->nidle++;
		return;
	}
	pair_out(p, prev, pos, t, (uint16_t)state, 0);
}

void
offcpu_pairing_wake(struct offcpu_pairing *p, uint64_t pos, uint64_t t, int64_t pid)
{
	struct thr *th;

	if (pid <= 0 || pid > INT32_MAX)
		return;	/* the idle task's, or no thread */
	th = thread_of(p, pid);
	th->wake_pos = pos;
	th->wake_t = t;
}

/*
 * The wakeups' attrs of s (sched_waking's, else sched_wakeup's) and their
 * pid's place into locs; whether one has it.
 */
static bool
find_wake_attrs(const struct session *s, struct tpevent *tp, struct sw_locs *locs)
{
	const struct attr_table *at = session_attrs(s);
	const char *names[] = { WAKING_NAME, WAKEUP_NAME };
	bool any = false;

	for (size_t k = 0; k < 2 && !any; k++) {
		for (size_t i = 0; i < at->n; i++) {
			struct sw_locs *l = &locs[i];

			if (at->v[i].attr.type != PERF_TYPE_TRACEPOINT ||
			    strcmp(session_attr_name(s, (int)i), names[k]) != 0)
				continue;
			l->is_wake = tp != NULL &&
			    tpevent_field_loc(tp, at->v[i].attr.config, "pid", &l->wake);
			any |= l->is_wake;
		}
	}
	return any;
}

/* A wakeup sample (of an attr with l->is_wake) at index position pos into the pairing. */
static void
take_wake(struct offcpu_pairing *p, const struct sw_locs *l, uint64_t pos, const struct sample *smp)
{
	int64_t pid;

	p->o->nwake++;
	if (!(smp->sample_type & PERF_SAMPLE_TIME) || !(smp->sample_type & PERF_SAMPLE_RAW) ||
	    !tp_loc_read(&l->wake, smp->raw, smp->raw_size, &pid)) {
		p->o->nwakebad++;
		return;
	}
	offcpu_pairing_wake(p, pos, smp->time, pid);
}

/* The sample record r at index position pos, if a wakeup, into the pairing. */
static void
take_wake_rec(struct offcpu_pairing *p, const struct session *s, const struct sw_locs *locs,
    uint64_t pos, const struct rec *r)
{
	const struct attr_table *at = session_attrs(s);
	struct sample smp;

	if (record_decode_sample(at, r, &smp, NULL) < 0 || smp.attr < 0 ||
	    (size_t)smp.attr >= at->n || !locs[smp.attr].is_wake)
		return;
	take_wake(p, &locs[smp.attr], pos, &smp);
}

/* The sched_switch attrs of s and their fields' places; false if none is. */
static bool
find_switch_attrs(const struct session *s, struct tpevent *tp, struct sw_locs *locs,
    enum offcpu_none *why)
{
	const struct attr_table *at = session_attrs(s);
	bool any = false, fields = false;

	for (size_t i = 0; i < at->n; i++) {
		struct sw_locs *l = &locs[i];
		uint64_t config = at->v[i].attr.config;

		if (at->v[i].attr.type != PERF_TYPE_TRACEPOINT ||
		    strcmp(session_attr_name(s, (int)i), OFFCPU_NAME) != 0)
			continue;
		l->is_switch = any = true;
		l->ok = tp != NULL && tpevent_field_loc(tp, config, "prev_pid", &l->prev) &&
		    tpevent_field_loc(tp, config, "next_pid", &l->next) &&
		    tpevent_field_loc(tp, config, "prev_state", &l->state);
		fields |= l->ok;
	}
	*why = !any ? OFFCPU_NO_EVENT : !fields ? OFFCPU_NO_FORMAT : OFFCPU_OK;
	return any && fields;
}

/* A sched_switch or sched_waking sample decoded: what the pairing takes of it. */
enum { EV_NONE, EV_SWITCH, EV_SWITCH_BAD, EV_WAKE, EV_WAKE_BAD };
struct sw_ev {
	uint64_t	 pos, t;
	int64_t		 prev, next, state;	/* EV_WAKE: next is the woken pid */
	uint8_t		 kind;
};

/* Decode the sample r at index position pos into e (any thread: no pairing state read). */
static void
decode_ev(const struct session *s, const struct sw_locs *locs, uint64_t pos, const struct rec *r,
    struct sw_ev *e)
{
	const struct attr_table *at = session_attrs(s);
	const struct sw_locs *l;
	struct sample smp;
	bool has;

	e->kind = EV_NONE;
	e->pos = pos;
	if (record_decode_sample(at, r, &smp, NULL) < 0 || smp.attr < 0 ||
	    (size_t)smp.attr >= at->n)
		return;
	l = &locs[smp.attr];
	e->t = smp.time;
	has = (smp.sample_type & PERF_SAMPLE_TIME) && (smp.sample_type & PERF_SAMPLE_RAW);
	if (l->is_wake) {
		has = has && tp_loc_read(&l->wake, smp.raw, smp.raw_size, &e->next);
		e->kind = has ? EV_WAKE : EV_WAKE_BAD;
		return;
	}
	if (!l->is_switch)
		return;
	has = has && l->ok && tp_loc_read(&l->prev, smp.raw, smp.raw_size, &e->prev) &&
	    tp_loc_read(&l->next, smp.raw, smp.raw_size, &e->next) &&
	    tp_loc_read(&l->state, smp.raw, smp.raw_size, &e->state);
	e->kind = has ? EV_SWITCH : EV_SWITCH_BAD;
}

/* One decoded event into the pairing, in index order. */
static void
apply_ev(struct offcpu_pairing *p, const struct sw_ev *e)
{
	switch (e->kind) {
	case EV_SWITCH:
		p->o->nswitch++;
		offcpu_pairing_add(p, e->pos, e->t, e->prev, e->next, e->state);
		break;
	case EV_SWITCH_BAD:
		p->o->nswitch++;
		p->o->nbad++;
		break;
	case EV_WAKE:
		p->o->nwake++;
		offcpu_pairing_wake(p, e->pos, e->t, e->next);
		break;
	case EV_WAKE_BAD:
		p->o->nwake++;
		p->o->nwakebad++;
		break;
	default:
		break;
	}
}

struct offcpu_pairing *
offcpu_pairing_begin(struct offcpu *o)
{
	struct offcpu_pairing *p = xreallocarray(NULL, 1, sizeof *p);

	memset(o, 0, sizeof *o);
	memset(p, 0, sizeof *p);
	p->o = o;
	return p;
}

static int
cmp_span(const void *a, const void *b)
{
	const struct offcpu_span *x = a, *y = b;

	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	if (x->ns != y->ns)
		return x->ns < y->ns ? -1 : 1;
	return (x->state > y->state) - (x->state < y->state);
}

/* Sort the spans by position if they are not; set the model's marks. */
static void
finish(struct offcpu *o)
{
	bool sorted = true;

	for (size_t i = 0; i < o->n; i++) {
		if (i > 0 && o->v[i].pos < o->v[i - 1].pos)
			sorted = false;
		o->approx |= (o->v[i].flags & OFFCPU_APPROX) != 0;
		o->embedded |= (o->v[i].flags & OFFCPU_EMBEDDED) != 0;
	}
	if (!sorted)
		qsort(o->v, o->n, sizeof *o->v, cmp_span);
}

/* Drop the spans not paired, in place; count those left waiting. */
static void
compact(struct offcpu_pairing *p)
{
	struct offcpu *o = p->o;
	size_t k = 0;

	for (size_t i = 0; i < o->n; i++) {
		if (p->open[i] == 1)
			o->nopen++;
		if (p->open[i] != 0)
			continue;
		o->total_ns += o->v[i].ns;
		if (o->v[i].waker != OFFCPU_NO_WAKER) {
			o->nwoken++;
			o->woken_ns += o->v[i].ns;
		}
		o->v[k++] = o->v[i];
	}
	o->n = k;
	finish(o);
}

void
offcpu_pairing_end(struct offcpu_pairing *p)
{
	compact(p);
	free(p->open);
	free(p->thr);
	hmap_free(&p->slot_of);
	free(p);
}

/* Is index entry ent a sample the sched source reads (a switch or a wakeup)? */
static bool
sched_ent(const struct session *s, const struct sw_locs *locs, const struct rec_ent *ent)
{
	unsigned a = ent_attr(ent);

	return ent_type(ent) == PF_REC_SAMPLE &&
	    (a == ENT_ATTR_NONE || (a < session_attrs(s)->n && (locs[a].is_switch || locs[a].is_wake)));
}

/* The second half of a two-core decode: its events, in index order, for the pairing after. */
struct half {
	const struct session	*s;
	const struct sw_locs	*locs;
	size_t			 from, to;
	struct sw_ev		*v;
	size_t			 n, cap;
};

static void *
decode_half(void *arg)
{
	struct half *hf = arg;
	const struct rec_index *ix = session_index(hf->s);

	for (size_t i = hf->from; i < hf->to; i++) {
		struct rec r;

		if (!sched_ent(hf->s, hf->locs, index_ent(ix, i)) ||
		    session_rec(hf->s, ent_loc(index_ent(ix, i)), &r) < 0)
			continue;
		GROW(hf->v, hf->cap, hf->n + 1);
		decode_ev(hf->s, hf->locs, i, &r, &hf->v[hf->n]);
		hf->n += hf->v[hf->n].kind != EV_NONE;
	}
	return NULL;
}

size_t offcpu_par_min = 200000;

/*
 * The sched_switch source: its samples decoded (the second half of a large
 * index on a second thread, into a table of events) and paired in index
 * order.
 */
static void
build_sched(const struct session *s, const struct sw_locs *locs, bool wakes, struct offcpu *o)
{
	const struct rec_index *ix = session_index(s);
	struct offcpu_pairing *p = offcpu_pairing_begin(o);
	struct half hf = { s, locs, ix->n, ix->n, NULL, 0, 0 };
	pthread_t th;
	bool two = false;
	size_t nsched[2] = { 0, 0 };	/* sched samples in each half of the index */

	o->has_wakeups = wakes;
	/* room for a span per sched sample at most, reserved once (the index says how many):
	 * growing never copies */
	for (size_t i = 0; i < ix->n; i++)
		if (sched_ent(s, locs, index_ent(ix, i)))
			nsched[i >= ix->n / 2]++;
	if (nsched[0] + nsched[1] > 0) {
		o->cap = nsched[0] + nsched[1];
		o->v = xmalloc_table(o->cap, sizeof *o->v);
		p->open = xreallocarray(NULL, o->cap, 1);
	}
	if (ix->n >= offcpu_par_min && offcpu_par_min > 0) {
		hf.from = ix->n / 2;
		hf.cap = nsched[1];
		hf.v = hf.cap ? xmalloc_table(hf.cap, sizeof *hf.v) : NULL;
		two = pthread_create(&th, NULL, decode_half, &hf) == 0;
		if (!two)
			hf.from = ix->n;
	}
	for (size_t i = 0; i < hf.from; i++) {
		struct rec r;
		struct sw_ev e;

		if (!sched_ent(s, locs, index_ent(ix, i)) || session_rec(s, ent_loc(index_ent(ix, i)), &r) < 0)
			continue;
		decode_ev(s, locs, i, &r, &e);
		apply_ev(p, &e);
	}
	if (two)
		pthread_join(th, NULL);
	for (size_t k = 0; k < hf.n; k++)
		apply_ev(p, &hf.v[k]);
	free(hf.v);
	o->source = OFFCPU_SRC_SCHED;
	offcpu_pairing_end(p);
}

/* Does s have SWITCH records and samples? */
static bool
has_switch_records(const struct session *s)
{
	const struct rec_index *ix = session_index(s);
	bool rec = false, smp = false;

	for (size_t i = 0; i < ix->n && !(rec && smp); i++) {
		unsigned type = ent_type(index_ent(ix, i));

		rec |= type == PF_REC_SWITCH || type == PF_REC_SWITCH_CPU_WIDE;
		smp |= type == PF_REC_SAMPLE;
	}
	return rec && smp;
}

/* A SWITCH or SWITCH_CPU_WIDE record at index position i into the pairing. */
static void
take_switch(struct offcpu_pairing *p, const struct session *s, size_t i)
{
	const struct rec_ent *ent = index_ent(session_index(s), i);
	const uint32_t need = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	struct rec_switch sw;
	struct sample_id id;
	struct rec r;

	p->o->nswitch++;
	if (session_rec(s, ent_loc(ent), &r) < 0 || record_switch(&r, &sw) < 0 ||
	    record_decode_sample_id(session_attrs(s), &r, &id) < 0 || (id.have & need) != need) {
		p->o->nbad++;
		return;
	}
	if (!sw.out) {
		if (id.tid != 0)
			pair_in(p, (int32_t)id.tid, id.time);
		return;
	}
	if (id.tid == 0) {
		p->o->nidle++;
		return;
	}
	pair_out(p, (int32_t)id.tid, thread_of(p, (int32_t)id.tid)->last, id.time,
	    sw.preempt ? OFFCPU_STATE_PREEMPT : OFFCPU_STATE_ASLEEP, OFFCPU_APPROX);
}

/* The SWITCH source: the records paired, each span at its thread's last sample. */
static void
build_switch(const struct session *s, const struct sw_locs *locs, bool wakes, struct offcpu *o)
{
	const struct rec_index *ix = session_index(s);
	struct offcpu_pairing *p = offcpu_pairing_begin(o);

	o->has_wakeups = wakes;
	for (size_t i = 0; i < ix->n; i++) {
		const struct rec_ent *ent = index_ent(ix, i);
		unsigned type = ent_type(ent), a = ent_attr(ent);
		struct rec r;

		if (type == PF_REC_SAMPLE) {
			struct ent_who w = session_ent_who(s, i);

			if (w.tid > 0)
				thread_of(p, w.tid)->last = i;
			if (wakes && (a == ENT_ATTR_NONE || (a < session_attrs(s)->n && locs[a].is_wake)) &&
			    session_rec(s, ent_loc(ent), &r) == 0)
				take_wake_rec(p, s, locs, i, &r);
		} else if (type == PF_REC_SWITCH || type == PF_REC_SWITCH_CPU_WIDE) {
			take_switch(p, s, i);
		}
	}
	o->source = OFFCPU_SRC_SWITCH;
	offcpu_pairing_end(p);
}

/* Is attr i perf record --off-cpu's event? */
static bool
is_bpf_attr(const struct session *s, size_t i)
{
	const struct perf_event_attr *a = &session_attrs(s)->v[i].attr;

	return a->type == PERF_TYPE_SOFTWARE && a->config == SW_BPF_OUTPUT &&
	    strcmp(session_attr_name(s, (int)i), OFFCPU_BPF_EVENT) == 0;
}

bool
offcpu_embedded(struct sample *smp)
{
	const uint8_t *p = smp->raw;
	uint64_t v, period, nr;

	/* three words, the chain, the cgroup word */
	if (p == NULL || !(smp->sample_type & PERF_SAMPLE_RAW) || smp->raw_size < 32)
		return false;
	v = rd64(p, smp->swap);
	period = rd64(p + 8, smp->swap);
	nr = rd64(p + 16, smp->swap);
	if (nr > (smp->raw_size - 32) / 8)
		return false;
	if (smp->time >= OFFCPU_BPF_END_TIME) {	/* (u64)tid << 32 | pid */
		smp->pid = (uint32_t)v;
		smp->tid = (uint32_t)(v >> 32);
	} else {				/* (u64)tgid << 32 | tid */
		smp->pid = (uint32_t)(v >> 32);
		smp->tid = (uint32_t)v;
	}
	smp->period = period;
	smp->callchain = p + 24;
	smp->callchain_nr = nr;
	/* perf's: the first entry after the PERF_CONTEXT_USER mark */
	smp->ip = nr >= 2 ? rd64(p + 32, smp->swap) : nr == 1 ? rd64(p + 24, smp->swap) : 0;
	smp->sample_type |= PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
	return true;
}

bool
offcpu_bpf_sample(struct sample *smp)
{
	const uint64_t need = PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD;
	/* a big-endian file: the reader's swap and the host's order differ */
	bool file_be = smp->swap != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	uint32_t pid = smp->pid;

	if (smp->sample_type & PERF_SAMPLE_RAW)
		return offcpu_embedded(smp);
	if ((smp->sample_type & need) != need)
		return false;
	if (file_be) {
		smp->pid = smp->tid;
		smp->tid = pid;
	}
	return true;
}

/* An offcpu-time sample at index position i: its span. */
static void
take_bpf(struct offcpu *o, const struct session *s, size_t i, const struct rec *r)
{
	struct sample smp;
	uint16_t flags = OFFCPU_BPF;

	o->nswitch++;
	if (record_decode_sample(session_attrs(s), r, &smp, NULL) < 0 || !offcpu_bpf_sample(&smp)) {
		o->nbad++;
		return;
	}
	if (smp.sample_type & PERF_SAMPLE_RAW)
		flags |= OFFCPU_EMBEDDED;
	if (smp.period > OFFCPU_NS_MAX) {
		o->nbad++;
		return;
	}
	if (span_new(o, NULL, i, smp.period, (int32_t)smp.tid, OFFCPU_STATE_ASLEEP, flags) != HMAP_NONE)
		o->total_ns += smp.period;
}

/* The offcpu-time source: a span per sample, where it lies. */
static void
build_bpf(const struct session *s, const bool *bpf, struct offcpu *o)
{
	const struct rec_index *ix = session_index(s);
	size_t nattr = session_attrs(s)->n;

	for (size_t i = 0; i < ix->n; i++) {
		const struct rec_ent *ent = index_ent(ix, i);
		unsigned a = ent_attr(ent);
		struct rec r;

		if (ent_type(ent) != PF_REC_SAMPLE || a == ENT_ATTR_NONE || a >= nattr || !bpf[a])
			continue;
		if (session_rec(s, ent_loc(ent), &r) < 0)
			o->nbad++;
		else
			take_bpf(o, s, i, &r);
	}
	o->source = OFFCPU_SRC_BPF;
	finish(o);
}

enum offcpu_none
offcpu_build(const struct session *s, struct offcpu *o)
{
	const struct attr_table *at = session_attrs(s);
	enum offcpu_none why = OFFCPU_NO_EVENT;
	struct sw_locs *locs;
	struct tpevent *tp;
	bool *bpf, any_bpf = false, wakes;

	memset(o, 0, sizeof *o);
	if (at->n == 0)
		return OFFCPU_NO_EVENT;
	tp = tpevent_new(s);
	locs = xcalloc(at->n, sizeof *locs);
	bpf = xreallocarray(NULL, at->n, sizeof *bpf);
	wakes = find_wake_attrs(s, tp, locs);
	for (size_t i = 0; i < at->n; i++)
		any_bpf |= bpf[i] = is_bpf_attr(s, i);
	if (find_switch_attrs(s, tp, locs, &why)) {
		build_sched(s, locs, wakes, o);
	} else if (has_switch_records(s)) {
		build_switch(s, locs, wakes, o);
		why = OFFCPU_OK;
	} else if (any_bpf) {
		build_bpf(s, bpf, o);
		why = OFFCPU_OK;
	}
	free(bpf);
	free(locs);
	tpevent_free(tp);
	return why;
}

const char *
offcpu_source_name(enum offcpu_source src)
{
	switch (src) {
	case OFFCPU_SRC_SCHED:
		return "sched:sched_switch samples";
	case OFFCPU_SRC_SWITCH:
		return "PERF_RECORD_SWITCH records";
	case OFFCPU_SRC_BPF:
		return "offcpu-time samples (perf record --off-cpu)";
	default:
		return "none";
	}
}

bool
offcpu_many_unpaired(const struct offcpu *o)
{
	return o->source == OFFCPU_SRC_SCHED && (o->nopen + o->nagain) * 10 > o->n;
}

void
offcpu_free(struct offcpu *o)
{
	free(o->v);
	memset(o, 0, sizeof *o);
}

size_t
offcpu_lower(const struct offcpu *o, uint64_t pos)
{
	return by_pos_lower(o->v, o->n, sizeof *o->v, offsetof(struct offcpu_span, pos), pos);
}
