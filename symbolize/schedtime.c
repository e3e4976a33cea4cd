#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/hmap.h"
#include "core/index.h"
#include "core/thread.h"
#include "symbolize/schedtime.h"
#include "symbolize/tpevent.h"

/*
 * schedtime.c: the state machine (tasks by tid, each cpu's idle task and
 * last switch time) and the walk over a session's samples.
 */

struct schedtime {
	struct schedtime_task	*v;
	size_t			 n, cap;
	struct hmap		 by_tid;	/* tid -> index into v */
	uint32_t		*idle;		/* per cpu: index into v, or HMAP_NONE */
	uint64_t		*last_switch;	/* per cpu: time of its last switch, 0 none */
	uint32_t		 ncpus, capcpus;
	uint64_t		 first, last;
};

struct schedtime *
schedtime_new(void)
{
	struct schedtime *st = xreallocarray(NULL, 1, sizeof *st);

	memset(st, 0, sizeof *st);
	return st;
}

void
schedtime_free(struct schedtime *st)
{
	if (st == NULL)
		return;
	free(st->v);
	free(st->idle);
	free(st->last_switch);
	hmap_free(&st->by_tid);
	free(st);
}

static uint32_t
new_task(struct schedtime *st, int32_t tid, uint32_t cpu)
{
	struct schedtime_task *k;

	GROW(st->v, st->cap, st->n + 1);
	k = &st->v[st->n];
	memset(k, 0, sizeof *k);
	k->tid = tid;
	k->cpu = cpu;
	k->last_state = -1;
	k->run_min = UINT64_MAX;
	return (uint32_t)st->n++;
}

static void
grow_cpus(struct schedtime *st, uint32_t cpu)
{
	if (cpu < st->ncpus)
		return;
	if (cpu >= st->capcpus) {
		uint32_t cap = st->capcpus ? st->capcpus : 8;

		while (cap <= cpu)
			cap *= 2;
		st->idle = xreallocarray(st->idle, cap, sizeof *st->idle);
		st->last_switch = xreallocarray(st->last_switch, cap, sizeof *st->last_switch);
		st->capcpus = cap;
	}
	for (uint32_t c = st->ncpus; c <= cpu; c++) {
		st->idle[c] = HMAP_NONE;
		st->last_switch[c] = 0;
	}
	st->ncpus = cpu + 1;
}

static struct schedtime_task *
task_of(struct schedtime *st, int64_t tid)
{
	uint64_t key = (uint64_t)(uint32_t)tid;
	uint32_t i = hmap_get(&st->by_tid, key);

	if (i == HMAP_NONE) {
		i = new_task(st, (int32_t)tid, 0);
		hmap_set(&st->by_tid, key, i);
	}
	return &st->v[i];
}

static struct schedtime_task *
idle_of(struct schedtime *st, uint32_t cpu)
{
	grow_cpus(st, cpu);
	if (st->idle[cpu] == HMAP_NONE)
		st->idle[cpu] = new_task(st, -1, cpu);
	return &st->v[st->idle[cpu]];
}

char
schedtime_state_char(int64_t prev_state)
{
	static const char letters[] = "RSDTtZXxKWP";
	uint32_t v = (uint32_t)prev_state;
	unsigned bit = 0;

	if (v != 0)
		bit = (unsigned)__builtin_ctz(v) + 1;
	return bit < sizeof letters - 1 ? letters[bit] : '?';
}

/* The times of the stretch k ran, from tprev (0: unknown) to t, into d and k's totals. */
static void
charge(struct schedtime_task *k, uint64_t t, uint64_t tprev, struct schedtime_delta *d)
{
	double delta;

	if (tprev != 0) {
		d->run = t - tprev;
		if (k->ready != 0 && k->ready <= tprev)
			d->delay = tprev - k->ready;
		if (k->last_out != 0 && k->last_out <= tprev) {
			d->wait = tprev - k->last_out;
			if (k->last_state == 'R')
				d->preempt = d->wait;
			else if (k->last_state == 'D')
				d->iowait = d->wait;
			else
				d->sleep = d->wait;
		}
	}
	k->n++;
	delta = (double)d->run - k->run_mean;
	k->run_mean += delta / (double)k->n;
	k->run_m2 += delta * ((double)d->run - k->run_mean);
	if (d->run > k->run_max)
		k->run_max = d->run;
	if (d->run < k->run_min)
		k->run_min = d->run;
	k->run_total += d->run;
	k->delay += d->delay;
	k->sleep += d->sleep;
	k->iowait += d->iowait;
	k->preempt += d->preempt;
}

const struct schedtime_task *
schedtime_switch(struct schedtime *st, uint64_t t, uint32_t cpu, int64_t prev_pid, int32_t tid,
    int64_t prev_state, struct schedtime_delta *d)
{
	struct schedtime_task *k;
	uint64_t tprev;

	if (cpu > SCHEDTIME_MAX_CPU) {
		memset(d, 0, sizeof *d);
		return NULL;
	}
	grow_cpus(st, cpu);
	k = prev_pid == 0 ? idle_of(st, cpu) : task_of(st, tid);
	tprev = st->last_switch[cpu];
	memset(d, 0, sizeof *d);
	d->state = schedtime_state_char(prev_state);
	charge(k, t, tprev, d);
	k->last_out = t;
	k->last_state = d->state;
	/* perf 6.1 means to keep t as the ready time of a task that leaves
	 * runnable, but tests its letter against TASK_RUNNING (0): never */
	k->ready = 0;
	st->last_switch[cpu] = t;
	if (st->first == 0)
		st->first = t;
	st->last = t;
	return k;
}

void
schedtime_wakeup(struct schedtime *st, uint64_t t, int64_t tid)
{
	struct schedtime_task *k = task_of(st, tid);

	if (k->ready == 0)
		k->ready = t;
}

void
schedtime_migrate(struct schedtime *st, int64_t tid)
{
	task_of(st, tid)->migrations++;
}

size_t
schedtime_ntasks(const struct schedtime *st)
{
	return st->n;
}

const struct schedtime_task *
schedtime_task_at(const struct schedtime *st, size_t i)
{
	return i < st->n ? &st->v[i] : NULL;
}

uint32_t
schedtime_ncpus(const struct schedtime *st)
{
	return st->ncpus;
}

void
schedtime_span(const struct schedtime *st, uint64_t *first, uint64_t *last)
{
	*first = st->first;
	*last = st->last;
}

/* The walk: what each attr's samples are, and where their fields lie. */
enum tp_kind { TPK_NONE, TPK_SWITCH, TPK_WAKE, TPK_MIGRATE };

struct tp_attr {
	enum tp_kind	 kind;
	bool		 ok;
	struct tp_loc	 a, b;		/* switch: prev_pid, prev_state; others: pid */
};

struct walk {
	const struct session	*s;
	const struct thread_table *tt;
	struct tpevent		*tp;
	struct tp_attr		*attrs;
	struct schedtime	*st;
	bool			 wakeups;
	schedtime_fn		 fn;
	void			*arg;
	char			 comm[2][32];
};

static enum tp_kind
kind_of(const char *name, bool have_waking)
{
	if (strcmp(name, "sched:sched_switch") == 0)
		return TPK_SWITCH;
	if (strcmp(name, "sched:sched_waking") == 0 || strcmp(name, "sched:sched_wakeup_new") == 0)
		return TPK_WAKE;
	if (strcmp(name, "sched:sched_wakeup") == 0)
		return have_waking ? TPK_NONE : TPK_WAKE;	/* perf prefers sched_waking */
	if (strcmp(name, "sched:sched_migrate_task") == 0)
		return TPK_MIGRATE;
	return TPK_NONE;
}

/* Classify s's attrs into w->attrs; why there is nothing to walk, or SCHEDTIME_OK. */
static enum schedtime_none
find_attrs(struct walk *w)
{
	const struct attr_table *at = session_attrs(w->s);
	bool have_waking = false, any = false, fields = false;

	for (size_t i = 0; i < at->n; i++)
		have_waking |= at->v[i].attr.type == PERF_TYPE_TRACEPOINT &&
		    strcmp(session_attr_name(w->s, (int)i), "sched:sched_waking") == 0;
	for (size_t i = 0; i < at->n; i++) {
		struct tp_attr *a = &w->attrs[i];
		uint64_t config = at->v[i].attr.config;

		memset(a, 0, sizeof *a);
		if (at->v[i].attr.type != PERF_TYPE_TRACEPOINT)
			continue;
		a->kind = kind_of(session_attr_name(w->s, (int)i), have_waking);
		if (a->kind == TPK_NONE || w->tp == NULL)
			continue;
		if (a->kind == TPK_SWITCH) {
			any = true;
			a->ok = tpevent_field_loc(w->tp, config, "prev_pid", &a->a) &&
			    tpevent_field_loc(w->tp, config, "prev_state", &a->b);
			fields |= a->ok;
		} else {
			a->ok = tpevent_field_loc(w->tp, config, "pid", &a->a);
		}
	}
	return !any ? SCHEDTIME_NO_EVENT : !fields ? SCHEDTIME_NO_FORMAT : SCHEDTIME_OK;
}

/* The pid and comm of thread tid at time t as perf's thread table has them; the comm NULL if none. */
static const char *
name_of(struct walk *w, int32_t tid, int32_t *pid, uint64_t t)
{
	uint32_t id = thread_table_find(w->tt, tid, t);

	if (id == THREAD_NONE)
		return NULL;
	if (w->tt->v[id].pid >= 0)
		*pid = w->tt->v[id].pid;
	return thread_comm_at(w->tt, id, t);
}

static void
take_switch(struct walk *w, struct tp_attr *a, const struct sample *smp)
{
	struct schedtime_line l = { .kind = SCHEDTIME_SWITCH, .time = smp->time, .cpu = smp->cpu };
	struct schedtime_delta d;
	int64_t prev, state;

	if (!tp_loc_read(&a->a, smp->raw, smp->raw_size, &prev) ||
	    !tp_loc_read(&a->b, smp->raw, smp->raw_size, &state) || smp->cpu > SCHEDTIME_MAX_CPU)
		return;
	schedtime_switch(w->st, smp->time, smp->cpu, prev, (int32_t)smp->tid, state, &d);
	l.d = &d;
	if (prev == 0) {
		l.comm = "<idle>";
	} else {
		l.pid = (int32_t)smp->pid;
		l.tid = (int32_t)smp->tid;
		l.comm = name_of(w, l.tid, &l.pid, smp->time);
		if (l.comm == NULL) {	/* perf's name of a thread without a comm */
			snprintf(w->comm[0], sizeof w->comm[0], ":%d", l.tid);
			l.comm = w->comm[0];
		}
	}
	w->fn(w->arg, &l);
}

static void
take_wake(struct walk *w, struct tp_attr *a, const struct sample *smp)
{
	struct schedtime_line l = { .kind = SCHEDTIME_WAKEUP, .time = smp->time, .cpu = smp->cpu };
	int64_t pid;

	if (!tp_loc_read(&a->a, smp->raw, smp->raw_size, &pid))
		return;
	if (a->kind == TPK_MIGRATE) {
		schedtime_migrate(w->st, pid);
		return;
	}
	schedtime_wakeup(w->st, smp->time, pid);
	if (!w->wakeups)
		return;
	l.pid = (int32_t)smp->pid;
	l.tid = (int32_t)smp->tid;
	l.comm = name_of(w, l.tid, &l.pid, smp->time);
	if (l.comm == NULL && l.tid == 0) {
		l.comm = "swapper";	/* perf's thread 0 */
	} else if (l.comm == NULL) {
		snprintf(w->comm[0], sizeof w->comm[0], ":%d", l.tid);
		l.comm = w->comm[0];
	}
	l.wtid = (int32_t)pid;
	l.wcomm = name_of(w, l.wtid, &l.wpid, smp->time);
	if (l.wcomm == NULL) {
		snprintf(w->comm[1], sizeof w->comm[1], ":%d", l.wtid);
		l.wcomm = w->comm[1];
	}
	w->fn(w->arg, &l);
}

static void
take_sample(struct walk *w, const struct rec *r)
{
	const struct attr_table *at = session_attrs(w->s);
	struct sample smp;
	struct tp_attr *a;

	if (record_decode_sample(at, r, &smp, NULL) < 0 || smp.attr < 0 || (size_t)smp.attr >= at->n)
		return;
	a = &w->attrs[smp.attr];
	if (a->kind == TPK_NONE || !a->ok || !(smp.sample_type & PERF_SAMPLE_TIME) ||
	    !(smp.sample_type & PERF_SAMPLE_RAW))
		return;
	if (a->kind == TPK_SWITCH)
		take_switch(w, a, &smp);
	else
		take_wake(w, a, &smp);
}

enum schedtime_none
schedtime_walk(const struct session *s, bool wakeups, schedtime_fn fn, void *arg,
    struct schedtime **out)
{
	const struct attr_table *at = session_attrs(s);
	const struct rec_index *ix = session_index(s);
	struct walk w = { .s = s, .tt = session_threads(s), .wakeups = wakeups, .fn = fn, .arg = arg };
	enum schedtime_none why = SCHEDTIME_NO_EVENT;

	*out = NULL;
	if (at->n == 0)
		return why;
	w.tp = tpevent_new(s);
	w.attrs = xreallocarray(NULL, at->n, sizeof *w.attrs);
	why = find_attrs(&w);
	if (why == SCHEDTIME_OK) {
		w.st = schedtime_new();
		for (size_t i = 0; i < ix->n; i++) {
			const struct rec_ent *ent = index_ent(ix, i);
			unsigned ai = ent_attr(ent);
			struct rec r;

			if (ent_type(ent) != PF_REC_SAMPLE ||
			    (ai != ENT_ATTR_NONE && (ai >= at->n || w.attrs[ai].kind == TPK_NONE)))
				continue;
			if (session_rec(s, ent_loc(ent), &r) == 0)
				take_sample(&w, &r);
		}
		*out = w.st;
	}
	free(w.attrs);
	tpevent_free(w.tp);
	return why;
}
