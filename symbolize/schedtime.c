#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/hmap.h"
#include "core/index.h"
#include "core/thread.h"
#include "symbolize/schedtime.h"
#include "symbolize/symbolizer.h"
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
	uint64_t		 skipped;	/* tasks left out by the walk's filters */
	uint32_t		 max_cpu;	/* of any sample the walk read */
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
	k->pid = tid;
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
	if (st->idle[cpu] == HMAP_NONE) {
		st->idle[cpu] = new_task(st, -1, cpu);
		st->v[st->idle[cpu]].idle = true;
	}
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

static void
span(struct schedtime *st, uint64_t t)
{
	if (st->first == 0)
		st->first = t;
	st->last = t;
}

static struct schedtime_task *
switch_task(struct schedtime *st, uint64_t t, uint32_t cpu, int64_t prev_pid, int32_t tid,
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
	span(st, t);
	return k;
}

const struct schedtime_task *
schedtime_switch(struct schedtime *st, uint64_t t, uint32_t cpu, int64_t prev_pid, int32_t tid,
    int64_t prev_state, struct schedtime_delta *d)
{
	return switch_task(st, t, cpu, prev_pid, tid, prev_state, d);
}

void
schedtime_skip(struct schedtime *st, uint64_t t, uint32_t cpu)
{
	if (cpu > SCHEDTIME_MAX_CPU)
		return;
	grow_cpus(st, cpu);
	st->last_switch[cpu] = t;
	span(st, t);
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

const struct schedtime_task *
schedtime_idle(const struct schedtime *st, uint32_t cpu)
{
	return cpu < st->ncpus && st->idle[cpu] != HMAP_NONE ? &st->v[st->idle[cpu]] : NULL;
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

uint64_t
schedtime_skipped(const struct schedtime *st)
{
	return st->skipped;
}

uint32_t
schedtime_max_cpu(const struct schedtime *st)
{
	return st->max_cpu;
}

/* The walk: what each attr's samples are, and where their fields lie. */
enum tp_kind { TPK_NONE, TPK_SWITCH, TPK_WAKE };

struct tp_attr {
	enum tp_kind	 kind;
	bool		 ok;
	struct tp_loc	 a, b;		/* switch: prev_pid, prev_state; others: pid */
};

#define CHAIN_MAX	512	/* a chain's entries read at most (perf's max_stack + 2) */

struct walk {
	const struct session	*s;
	const struct thread_table *tt;
	struct tpevent		*tp;
	struct tp_attr		*attrs;
	struct schedtime	*st;
	const struct schedtime_opts *o;
	bool			 chains;	/* callchains shown */
	schedtime_fn		 fn;
	void			*arg;
	char			 comm[2][32];
	struct chain_ip		 ips[CHAIN_MAX];
	const char		*names[CHAIN_MAX];
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
	/* sched_migrate_task: perf 6.1 counts migrations only with -M (lines
	 * perfnav does not print); without it its summary says 0 */
	return TPK_NONE;
}

/* Classify s's attrs into w->attrs (and whether callchains show); why there is nothing to
 * walk, or SCHEDTIME_OK. */
static enum schedtime_none
find_attrs(struct walk *w)
{
	const struct attr_table *at = session_attrs(w->s);
	bool have_waking = false, any = false, fields = false;

	/* perf shows callchains only if every event has them */
	w->chains = w->o->z != NULL;
	for (size_t i = 0; i < at->n; i++) {
		have_waking |= at->v[i].attr.type == PERF_TYPE_TRACEPOINT &&
		    strcmp(session_attr_name(w->s, (int)i), "sched:sched_waking") == 0;
		w->chains &= (at->v[i].attr.sample_type & PERF_SAMPLE_CALLCHAIN) != 0;
	}
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

static bool
in_list(const int32_t *v, size_t n, int32_t x)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

/* Is task (pid, tid) left out by --pid/--tid?  Counted when it is, as perf counts it. */
static bool
left_out(struct walk *w, int32_t pid, int32_t tid)
{
	const struct schedtime_opts *o = w->o;

	if ((o->npids == 0 || in_list(o->pids, o->npids, pid)) &&
	    (o->ntids == 0 || in_list(o->tids, o->ntids, tid)))
		return false;
	w->st->skipped++;
	return true;
}

/* The functions perf 6.1 marks as not shown in a switch-out's chain. */
static bool
chain_ignored(const char *name)
{
	return strcmp(name, "schedule") == 0 || strcmp(name, "__schedule") == 0 ||
	    strcmp(name, "preempt_schedule") == 0;
}

/* The frames perf prints of smp's chain, into w->names; their count. */
static size_t
chain_names(struct walk *w, const struct sample *smp, uint16_t misc)
{
	unsigned lim = w->o->max_stack > CHAIN_MAX - 2 ? CHAIN_MAX : w->o->max_stack + 2;
	size_t n, k = 0;

	if (smp->callchain == NULL)
		return 0;
	n = symbolizer_chain_ips(w->o->z, smp, misc, w->ips, CHAIN_MAX, lim);
	for (size_t i = 0; i < n; i++) {
		uint8_t mode = w->ips[i].cpumode;
		const char *name = "[unknown]";
		struct frame f;

		/* perf 6.1's timehist takes MMAP records, not MMAP2: no user maps */
		if (mode != PERF_RECORD_MISC_USER && mode != PERF_RECORD_MISC_GUEST_USER) {
			symbolizer_resolve(w->o->z, (int32_t)smp->pid, (int32_t)smp->tid, smp->time,
			    mode, w->ips[i].ip, &f);
			if (f.sym != SYM_NONE)
				name = symbolizer_sym_name(w->o->z, f.sym);
			if (f.sym != SYM_NONE && chain_ignored(name))
				continue;
		}
		w->names[k++] = name;
	}
	return k;
}

/* The task's name when the thread table has none: perf's ":TID". */
static const char *
noname(char *buf, size_t size, int32_t tid)
{
	snprintf(buf, size, ":%d", tid);
	return buf;
}

static void
take_switch(struct walk *w, struct tp_attr *a, const struct sample *smp, uint16_t misc)
{
	struct schedtime_line l = { .kind = SCHEDTIME_SWITCH, .time = smp->time, .cpu = smp->cpu };
	struct schedtime_delta d;
	struct schedtime_task *k;
	int64_t prev, state;

	if (!tp_loc_read(&a->a, smp->raw, smp->raw_size, &prev) ||
	    !tp_loc_read(&a->b, smp->raw, smp->raw_size, &state) || smp->cpu > SCHEDTIME_MAX_CPU)
		return;
	if (prev == 0) {
		l.comm = "<idle>";
	} else {
		l.pid = (int32_t)smp->pid;
		l.tid = (int32_t)smp->tid;
		l.comm = name_of(w, l.tid, &l.pid, smp->time);
		if (l.comm == NULL)
			l.comm = noname(w->comm[0], sizeof w->comm[0], l.tid);
	}
	if ((w->o->npids > 0 || w->o->ntids > 0) && left_out(w, l.pid, l.tid)) {
		schedtime_skip(w->st, smp->time, smp->cpu);
		return;
	}
	k = switch_task(w->st, smp->time, smp->cpu, prev, (int32_t)smp->tid, state, &d);
	k->pid = l.pid;
	l.d = &d;
	if (w->chains && prev != 0) {
		l.chain = w->names;
		l.nchain = chain_names(w, smp, misc);
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
	schedtime_wakeup(w->st, smp->time, pid);
	if (!w->o->wakeups)
		return;
	l.pid = (int32_t)smp->pid;
	l.tid = (int32_t)smp->tid;
	l.comm = name_of(w, l.tid, &l.pid, smp->time);
	if (l.comm == NULL && l.tid == 0)
		l.comm = "swapper";	/* perf's thread 0 */
	else if (l.comm == NULL)
		l.comm = noname(w->comm[0], sizeof w->comm[0], l.tid);
	l.wtid = (int32_t)pid;
	l.wcomm = name_of(w, l.wtid, &l.wpid, smp->time);
	if (l.wcomm == NULL)
		l.wcomm = noname(w->comm[1], sizeof w->comm[1], l.wtid);
	/* shown unless both tasks are left out */
	if ((w->o->npids > 0 || w->o->ntids > 0) && left_out(w, l.pid, l.tid) &&
	    left_out(w, l.wpid, l.wtid))
		return;
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
	/* perf's "x N" of the summary: the highest cpu of any sample */
	if ((smp.sample_type & PERF_SAMPLE_CPU) && smp.cpu <= SCHEDTIME_MAX_CPU &&
	    smp.cpu > w->st->max_cpu)
		w->st->max_cpu = smp.cpu;
	a = &w->attrs[smp.attr];
	if (a->kind == TPK_NONE || !a->ok || !(smp.sample_type & PERF_SAMPLE_TIME) ||
	    !(smp.sample_type & PERF_SAMPLE_RAW))
		return;
	if (a->kind == TPK_SWITCH)
		take_switch(w, a, &smp, r->misc);
	else
		take_wake(w, a, &smp);
}

enum schedtime_none
schedtime_walk(const struct session *s, const struct schedtime_opts *o, schedtime_fn fn,
    void *arg, struct schedtime **out, bool *chains)
{
	const struct attr_table *at = session_attrs(s);
	const struct rec_index *ix = session_index(s);
	struct walk *w;
	enum schedtime_none why = SCHEDTIME_NO_EVENT;

	*out = NULL;
	if (chains != NULL)
		*chains = false;
	if (at->n == 0)
		return why;
	w = xreallocarray(NULL, 1, sizeof *w);
	memset(w, 0, sizeof *w);
	w->s = s;
	w->tt = session_threads(s);
	w->o = o;
	w->fn = fn;
	w->arg = arg;
	w->tp = tpevent_new(s);
	w->attrs = xreallocarray(NULL, at->n, sizeof *w->attrs);
	why = find_attrs(w);
	if (why == SCHEDTIME_OK) {
		w->st = schedtime_new();
		if (chains != NULL)
			*chains = w->chains;
		for (size_t i = 0; i < ix->n; i++) {
			const struct rec_ent *ent = index_ent(ix, i);
			struct rec r;

			if (ent_type(ent) == PF_REC_SAMPLE && session_rec(s, ent_loc(ent), &r) == 0)
				take_sample(w, &r);
		}
		*out = w->st;
	}
	free(w->attrs);
	tpevent_free(w->tp);
	free(w);
	return why;
}

/* perf 6.1's order of its threads: those still running first, then the exited; each part by
 * the thread table's buckets (tid modulo 256), then by tid. */
static int
row_cmp(const void *a, const void *b)
{
	const struct schedtime_row *x = a, *y = b;
	uint32_t bx = (uint32_t)x->tid % 256, by = (uint32_t)y->tid % 256;

	if (x->dead != y->dead)
		return x->dead ? 1 : -1;
	if (bx != by)
		return bx < by ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

size_t
schedtime_rows(const struct schedtime *st, const struct session *s, struct schedtime_row **out)
{
	const struct thread_table *tt = session_threads(s);
	struct schedtime_row *v = xreallocarray(NULL, st->n ? st->n : 1, sizeof *v);
	size_t n = 0;

	for (size_t i = 0; i < st->n; i++) {
		const struct schedtime_task *k = &st->v[i];
		struct schedtime_row *r;
		uint32_t id;

		if (k->idle || k->n == 0)
			continue;
		r = &v[n++];
		memset(r, 0, sizeof *r);
		r->k = k;
		r->tid = k->tid;
		r->pid = k->pid;
		r->ppid = -1;
		id = thread_table_find(tt, k->tid, UINT64_MAX);
		if (id != THREAD_NONE) {
			r->comm = thread_comm_at(tt, id, UINT64_MAX);
			r->ppid = tt->v[id].ptid;
			r->dead = tt->v[id].exited;
		}
	}
	qsort(v, n, sizeof *v, row_cmp);
	for (size_t i = 0; i < n; i++)
		if (v[i].comm == NULL)
			v[i].comm = noname(v[i].noname, sizeof v[i].noname, v[i].tid);
	*out = v;
	return n;
}
