#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/filter.h"
#include "symbolize/hist.h"
#include "symbolize/offcpu.h"
#include "tui/scope.h"
#include "tui/symbols.h"

/*
 * symbols_tasks.c: the scope's samples per thread (symbols_thread_samples),
 * as the processes pane and the Summary count them: a pass over every
 * sample of the scope's time, on both cores where it pays, its answer
 * kept for the same scope, symbols and recount.
 */

static uint64_t thread_samples(struct symbols *sy, const struct session *s, uint64_t *tsamples);

uint64_t
symbols_thread_samples(struct symbols *sy, const struct session *s, uint64_t *tsamples)
{
	size_t n = session_threads(s)->n + 1;
	bool by_hist = symbols_scope_hist(sy) != NULL;

	if (sy == NULL)
		return thread_samples(sy, s, tsamples);
	if (sy->tsm.valid && sy->tsm.scope_gen == sy->scope.gen && sy->tsm.gen == sy->gen &&
	    sy->tsm.h_serial == sy->h_serial && sy->tsm.by_hist == by_hist && sy->tsm.n == n) {
		memcpy(tsamples, sy->tsm.v, n * sizeof *tsamples);
		return sy->tsm.total;
	}
	sy->tsm.total = thread_samples(sy, s, tsamples);
	if (sy->tsm.n != n) {
		free(sy->tsm.v);
		sy->tsm.v = xcalloc(n, sizeof *sy->tsm.v);
		sy->tsm.n = n;
	}
	memcpy(sy->tsm.v, tsamples, n * sizeof *tsamples);
	sy->tsm.valid = true;
	sy->tsm.scope_gen = sy->scope.gen;
	sy->tsm.gen = sy->gen;
	sy->tsm.h_serial = sy->h_serial;
	sy->tsm.by_hist = by_hist;
	return sy->tsm.total;
}

/* What symbols_thread_samples's pass reads: the same for both halves of it. */
struct tsm_pass {
	struct symbols			*sy;
	const struct session		*s;
	const struct thread_table	*tt;
	const struct rec_index		*ix;
	const struct scope		*sc;
	const struct hist_filter	*sf;
	const struct offcpu		*oc;
	int				 attr;
	bool				 by_hist;
	/* a part: positions [lo, hi), its counts (zeroed) and total */
	size_t				 lo, hi;
	uint64_t			*tsamples, total;
};

/* Count the samples of positions [c->lo, c->hi) into c->tsamples and c->total. */
static void *
tsm_count(void *arg)
{
	struct tsm_pass *c = arg;
	const struct thread_table *tt = c->tt;
	const struct scope *sc = c->sc;
	const struct hist_filter *sf = c->sf;
	uint32_t th = THREAD_NONE;
	int32_t tid = INT32_MIN;

	for (size_t i = c->lo, k = 0; i < c->hi; i++) {
		const struct rec_ent *e = index_ent(c->ix, i);
		struct ent_who w;
		uint64_t n = 1;

		if (ent_type(e) != PF_REC_SAMPLE)
			continue;
		if (c->oc != NULL) {
			for (k = offcpu_lower(c->oc, i), n = 0; k + n < c->oc->n && c->oc->v[k + n].pos == i;)
				n++;
			if (n == 0)
				continue;
		} else if (c->attr >= 0 && ent_attr(e) != (unsigned)c->attr) {
			continue;	/* another event's: not the scope's */
		}
		w = session_ent_who(c->s, i);
		/* the start options and the cpus: time and cpu leave a sample out, the rest its rows */
		if (sf != NULL && (!filter_sample_ok(sf, e->time, w.cpu >= 0, (uint32_t)w.cpu) ||
		    !filter_loc_ok(sf, ent_loc(e))))
			continue;
		if (sc != NULL && ((sc->ncpus && !scope_cpu_in(sc, w.cpu)) || !scope_loc_in(sc, ent_loc(e))))
			continue;
		c->total += n;
		/* a tid's lifetime holds until it exits (a memo of thread_table_find) */
		if (w.tid != tid || (th != THREAD_NONE && tt->v[th].exited && e->time > tt->v[th].end)) {
			tid = w.tid;
			th = thread_table_find(tt, tid, e->time);
		}
		if (th == THREAD_NONE)
			continue;
		if (c->by_hist ? !symbols_scope_has(c->sy, i) : ((sf != NULL && !filter_entry_ok(sf,
		    w.pid, tid, thread_comm_at(tt, th, e->time))) || (sc != NULL &&
		    !scope_task_in(sc, w.pid, tid))))
			continue;
		c->tsamples[th] += n;
	}
	return NULL;
}

/*
 * symbols_thread_samples's pass over every sample of the scope's time: on
 * a large recording, its second half on a thread of its own (what it
 * reads is not changed meanwhile: the UI thread waits in here; not with
 * call-path transforms, whose tree is read through lazily built indexes).
 */
static uint64_t
thread_samples(struct symbols *sy, const struct session *s, uint64_t *tsamples)
{
	struct tsm_pass c = { .sy = sy, .s = s, .tt = session_threads(s), .ix = session_index(s),
		.sf = sy != NULL ? sy->start : NULL, .attr = symbols_scope_attr(sy),
		.by_hist = symbols_scope_hist(sy) != NULL, .tsamples = tsamples };
	struct tsm_pass c2;
	uint64_t t0 = 0, t1 = UINT64_MAX;
	size_t n = c.tt->n + 1;
	pthread_t th;

	c.sc = sy != NULL ? &sy->scope : NULL;
	memset(tsamples, 0, n * sizeof *tsamples);
	if (c.sc != NULL)
		scope_time_range(c.sc, &t0, &t1);
	/* the off-cpu event: its spans, each at its switch-out sample */
	c.oc = c.sc != NULL && symbols_event_offcpu(sy, c.sc->ev) ? symbols_offcpu(sy) : NULL;
	c.lo = index_first_at(c.ix, t0);
	c.hi = t1 == UINT64_MAX ? c.ix->n : index_first_at(c.ix, t1 + 1);
	c2 = c;
	if (!hist_parallel_worth(s) ||
	    (c.by_hist && symbols_scope_tree(sy) != NULL) ||
	    (c2.tsamples = calloc(n, sizeof *c2.tsamples)) == NULL) {
		tsm_count(&c);
		return c.total;
	}
	c2.lo = c.hi = c.lo + (c.hi - c.lo) / 2;
	if (pthread_create(&th, NULL, tsm_count, &c2) != 0) {
		c.hi = c2.hi;
		tsm_count(&c);
		free(c2.tsamples);
		return c.total;
	}
	tsm_count(&c);
	pthread_join(th, NULL);
	for (size_t i = 0; i < n; i++)
		tsamples[i] += c2.tsamples[i];
	free(c2.tsamples);
	return c.total + c2.total;
}
