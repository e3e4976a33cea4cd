#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/hmap.h"
#include "core/index.h"
#include "symbolize/offcpu.h"
#include "symbolize/tpevent.h"

/*
 * offcpu.c: the pairing.  While walking, a span's ns holds its t_out and
 * open[] says which spans still wait for their switch-in; per thread, the
 * span it waits with (or HMAP_NONE).  Spans left waiting are dropped at the
 * end, and the array compacted in place.
 */

#define OFFCPU_NAME	"sched:sched_switch"

/* The fields' places in one attr's payloads. */
struct sw_locs {
	bool		 is_switch;
	bool		 ok;
	struct tp_loc	 prev, next, state;
};

struct offcpu_pairing {
	struct offcpu	*o;
	uint8_t		*open;		/* per span: waiting for its switch-in */
	struct hmap	 slot_of;	/* tid -> thread slot */
	uint32_t	*waiting;	/* per thread slot: span index or HMAP_NONE */
	size_t		 nthr, capthr;
};

static uint32_t *
thread_wait(struct offcpu_pairing *p, int64_t tid)
{
	uint64_t key = (uint64_t)(uint32_t)tid;
	uint32_t slot = hmap_get(&p->slot_of, key);

	if (slot == HMAP_NONE) {
		GROW(p->waiting, p->capthr, p->nthr + 1);
		slot = (uint32_t)p->nthr++;
		p->waiting[slot] = HMAP_NONE;
		hmap_set(&p->slot_of, key, slot);
	}
	return &p->waiting[slot];
}

/* One sched_switch at index position pos, time t: next_pid switched in, prev_pid out. */
void
offcpu_pairing_add(struct offcpu_pairing *p, uint64_t pos, uint64_t t, int64_t prev, int64_t next,
    int64_t state)
{
	struct offcpu *o = p->o;
	uint32_t *w = thread_wait(p, next);
	struct offcpu_span *sp;

	if (*w != HMAP_NONE) {
		sp = &o->v[*w];
		if (t >= sp->ns) {
			sp->ns = t - sp->ns;
			p->open[*w] = 0;
		} else {
			p->open[*w] = 2;	/* in before out: damage, no span */
			o->nbad++;
		}
		*w = HMAP_NONE;
	}
	if (prev == 0) {
		o->nidle++;
		return;
	}
	w = thread_wait(p, prev);
	if (*w != HMAP_NONE) {
		o->nagain++;
		p->open[*w] = 2;	/* dropped, not counted as open */
	}
	if (o->n >= UINT32_MAX - 1) {
		o->nbad++;
		*w = HMAP_NONE;
		return;
	}
	if (o->n == o->cap) {
		GROW(o->v, o->cap, o->n + 1);
		p->open = xreallocarray(p->open, o->cap, 1);
	}
	sp = &o->v[o->n];
	sp->pos = pos;
	sp->ns = t;
	sp->tid = (int32_t)prev;
	sp->state = (uint32_t)state;
	p->open[o->n] = 1;
	*w = (uint32_t)o->n++;
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

		memset(l, 0, sizeof *l);
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

/* A sched_switch sample at index position pos into the pairing. */
static void
take_sample(struct offcpu_pairing *p, const struct session *s, const struct sw_locs *locs, uint64_t pos,
    const struct rec *r)
{
	const struct attr_table *at = session_attrs(s);
	const struct sw_locs *l;
	struct sample smp;
	int64_t prev, next, state;

	if (record_decode_sample(at, r, &smp, NULL) < 0 || smp.attr < 0 ||
	    (size_t)smp.attr >= at->n || !locs[smp.attr].is_switch)
		return;
	l = &locs[smp.attr];
	p->o->nswitch++;
	if (!l->ok || !(smp.sample_type & PERF_SAMPLE_TIME) || !(smp.sample_type & PERF_SAMPLE_RAW) ||
	    !tp_loc_read(&l->prev, smp.raw, smp.raw_size, &prev) ||
	    !tp_loc_read(&l->next, smp.raw, smp.raw_size, &next) ||
	    !tp_loc_read(&l->state, smp.raw, smp.raw_size, &state)) {
		p->o->nbad++;
		return;
	}
	offcpu_pairing_add(p, pos, smp.time, prev, next, state);
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
		o->v[k++] = o->v[i];
	}
	o->n = k;
}

void
offcpu_pairing_end(struct offcpu_pairing *p)
{
	compact(p);
	free(p->open);
	free(p->waiting);
	hmap_free(&p->slot_of);
	free(p);
}

enum offcpu_none
offcpu_build(const struct session *s, struct offcpu *o)
{
	const struct attr_table *at = session_attrs(s);
	const struct rec_index *ix = session_index(s);
	struct offcpu_pairing *p;
	struct sw_locs *locs;
	struct tpevent *tp;
	enum offcpu_none why;

	memset(o, 0, sizeof *o);
	if (at->n == 0)
		return OFFCPU_NO_EVENT;
	tp = tpevent_new(s);
	locs = xreallocarray(NULL, at->n, sizeof *locs);
	if (find_switch_attrs(s, tp, locs, &why)) {
		p = offcpu_pairing_begin(o);
		for (size_t i = 0; i < ix->n; i++) {
			const struct rec_ent *ent = index_ent(ix, i);
			unsigned a = ent_attr(ent);
			struct rec r;

			if (ent_type(ent) != PF_REC_SAMPLE ||
			    (a != ENT_ATTR_NONE && (a >= at->n || !locs[a].is_switch)))
				continue;
			if (session_rec(s, ent_loc(ent), &r) == 0)
				take_sample(p, s, locs, i, &r);
		}
		offcpu_pairing_end(p);
	}
	free(locs);
	tpevent_free(tp);
	return why;
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
	size_t lo = 0, hi = o->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (o->v[mid].pos < pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
