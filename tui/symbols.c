#include "config.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/core.h"
#include "symbolize/cpath.h"
#include "symbolize/diff.h"
#include "symbolize/filter.h"
#include "symbolize/hist.h"
#include "symbolize/pt/intel_pt.h"
#include "symbolize/resolve.h"
#include "tui/symbols.h"

#define SLICE_DEFAULT	4096
#define WORKER_SLICE_SECS	0.05

/*
 * Diff mode: NEW's worker thread.  The thread alone touches NEW until it
 * sets `finished` (release); the UI thread reads `permille` for the
 * progress, sees `finished` (acquire) and joins before it reads NEW.
 */
struct pair_work {
	pthread_t	 th;
	bool		 started;	/* a thread runs (else NEW was resolved at once) */
	bool		 joined;	/* UI thread: joined, NEW is the UI's */
	int		 owners;	/* symbols still pointing at it */
	atomic_bool	 finished;
	atomic_bool	 stop;		/* symbols_free before the end: leave off */
	atomic_uint	 permille;	/* NEW's progress */
};

static double
mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The hist: keyed comm,tid,dso,sym, paths and each sample's entry and row kept. */
static void
make_hist(struct symbols *sy)
{
	struct hist_opts ho;

	memset(&ho, 0, sizeof ho);
	ho.keys[0] = HIST_KEY_COMM;
	ho.keys[1] = HIST_KEY_TID;
	ho.keys[2] = HIST_KEY_DSO;
	ho.keys[3] = HIST_KEY_SYM;
	ho.nkeys = 4;
	ho.children = sy->children;
	ho.paths = true;		/* call paths: the hot functions' expansions, the call
				 * trees, the flame graph (symbolize/cpath.h) */
	ho.event = -1;
	ho.max_stack = HIST_DEFAULT_MAX_STACK;
	ho.record_self = true;
	ho.filter = sy->start;
	sy->h = hist_new(sy->s, sy->z, &ho);
	if (session_index(sy->s)->n == 0) {
		hist_finish(sy->h);
		sy->done = true;
	}
}

struct symbols *
symbols_new(const struct session *s, const struct sym_opts *so, const struct hist_filter *f)
{
	struct symbols *sy = xcalloc(1, sizeof *sy);
	struct sym_opts def;

	if (so == NULL) {
		memset(&def, 0, sizeof def);
		so = &def;
	}
	sy->s = s;
	sy->z = symbolizer_new(s, so);
	sy->scope.hl_func = CPATH_NONE;
	sy->scope.hot_callers = -1;
	sy->callchains = attr_table_has_callchains(session_attrs(s));
	sy->children = sy->callchains;
	sy->start = f != NULL && filter_active(f) ? f : NULL;
	sy->samples_total = session_counts(s)->by_type[PERF_RECORD_SAMPLE];
	make_hist(sy);
	return sy;
}

int
symbols_set_children(struct symbols *sy, bool on)
{
	if (sy->pos > 0)
		return -1;
	if (on == sy->children)
		return 0;
	sy->children = on;
	hist_free(sy->h);
	sy->done = false;
	make_hist(sy);
	return 0;
}

/* Wait for NEW's worker to end (if one ran and is not joined yet). */
static void
pair_join(struct pair_work *w)
{
	if (w == NULL || !w->started || w->joined)
		return;
	pthread_join(w->th, NULL);
	w->joined = true;
}

/* Stop NEW's worker (if it still runs) and wait for it. */
static void
pair_stop(struct pair_work *w)
{
	if (w == NULL || !w->started || w->joined)
		return;
	atomic_store(&w->stop, true);
	pair_join(w);
}

void
symbols_free(struct symbols *sy)
{
	if (sy == NULL)
		return;
	if (sy->pw != NULL) {
		pair_stop(sy->pw);
		if (--sy->pw->owners == 0)
			free(sy->pw);
		if (sy->pair != NULL)
			sy->pair->pair = NULL;
	}
	scope_free(&sy->scope);
	hist_free(sy->h);
	symbolizer_free(sy->z);
	free(sy);
}

bool
symbols_step(struct symbols *sy, double budget, size_t slice)
{
	const struct session *s = sy->s;
	const struct rec_index *ix = session_index(s);
	double t0 = mono_now(), t;

	if (sy->done)
		return true;
	if (slice == 0)
		slice = SLICE_DEFAULT;
	do {
		size_t to = sy->pos + slice < ix->n ? sy->pos + slice : ix->n;

		for (size_t i = sy->pos; i < to; i++)
			if (ent_type(&ix->v[i]) == PERF_RECORD_SAMPLE)
				sy->samples_done++;
		hist_add_range(sy->h, sy->pos, to, NULL);
		sy->pos = to;
		t = mono_now();
	} while (sy->pos < ix->n && t - t0 < budget);
	if (sy->pos >= ix->n) {
		if (pt_present(s))
			pt_hist_add(sy->h, s, sy->z);
		hist_finish(sy->h);
		sy->done = true;
		sy->gen++;
	}
	sy->busy_secs += t - t0;
	return sy->done;
}

void
symbols_run(struct symbols *sy)
{
	while (!symbols_step(sy, 1e9, SIZE_MAX / 2))
		;
}

int
symbols_apply_scope(struct symbols *sy)
{
	struct scope *sc = &sy->scope;
	struct filter_range r;
	struct hist_filter f = { .time = &r, .ntime = 1 };

	if (!sc->time_pending || !sy->done)
		return 0;
	sc->time_pending = false;
	if (!scope_time_range(sc, &r.start, &r.end)) {
		if (hist_rescope(sy->h, NULL) < 0)
			return -1;
	} else if (hist_rescope(sy->h, &f) < 0) {
		sc->ntr = 0;
		sc->gen++;
		return -1;
	}
	sc->gen++;
	sy->gen++;
	return 0;
}

void
symbols_peek(struct symbols *sy)
{
	if (sy->done)
		return;
	hist_peek(sy->h);
	sy->gen++;
}

int
symbols_sample_frame(struct symbols *sy, const struct rec *r, struct frame *f, uint64_t *ip)
{
	struct sample smp;

	if (symbolizer_resolve_self(sy->z, r, &smp, f) < 0)
		return -1;
	*ip = smp.ip;
	return 0;
}

const char *
symbols_sample_where(struct symbols *sy, const struct rec *r, char *buf, size_t n, uint64_t *ip)
{
	struct frame f;

	if (symbols_sample_frame(sy, r, &f, ip) < 0)
		return NULL;
	if (f.sym != SYM_NONE)
		snprintf(buf, n, "%s+%#" PRIx64 " (%s)", symbolizer_sym_name(sy->z, f.sym), f.symoff,
		    symbolizer_dso_short(sy->z, f.dso));
	else
		snprintf(buf, n, "[unknown] (%s)", f.dso == DSO_NONE ? "[unknown]" :
		    symbolizer_dso_short(sy->z, f.dso));
	return buf;
}

double
symbols_progress(const struct symbols *sy)
{
	const struct rec_index *ix = session_index(sy->s);

	if (sy->done)
		return 1.0;
	if (sy->samples_total == 0)
		return ix->n ? (double)sy->pos / (double)ix->n : 1.0;
	return (double)sy->samples_done / (double)sy->samples_total;
}

static void *
pair_worker(void *arg)
{
	struct symbols *sy = arg;
	struct pair_work *w = sy->pw;
	bool done = sy->done;

	while (!done && !atomic_load(&w->stop)) {
		done = symbols_step(sy, WORKER_SLICE_SECS, 0);
		atomic_store(&w->permille, (unsigned)(1000 * symbols_progress(sy)));
	}
	atomic_store_explicit(&w->finished, done, memory_order_release);
	return NULL;
}

void
symbols_pair_start(struct symbols *old, struct symbols *new)
{
	struct pair_work *w = xcalloc(1, sizeof *w);

	old->pair = new;
	new->pair = old;
	old->pf_in = new->pf_in = CPATH_NONE;
	old->role = 0;
	new->role = 1;
	old->pw = new->pw = w;
	w->owners = 2;
	atomic_init(&w->finished, false);
	atomic_init(&w->stop, false);
	atomic_init(&w->permille, 0);
	w->started = pthread_create(&w->th, NULL, pair_worker, new) == 0;
	if (!w->started) {	/* no thread: NEW at once, as the text tools */
		symbols_run(new);
		w->joined = true;
		atomic_store(&w->finished, true);
	}
}

void
symbols_run_pair(struct symbols *old, struct symbols *new)
{
	symbols_pair_start(old, new);
	symbols_run(old);
	pair_join(new->pw);
}

void
symbols_pair_stop(struct symbols *sy)
{
	pair_stop(sy->pw);
}

bool
symbols_pair_waiting(struct symbols *sy)
{
	struct pair_work *w = sy->pw;

	if (sy->pair == NULL || w == NULL)
		return false;
	if (!w->joined) {
		if (!atomic_load_explicit(&w->finished, memory_order_acquire))
			return true;
		pair_join(w);
	}
	return !sy->done || !sy->pair->done;
}

const char *
symbols_pair_wait_text(const struct symbols *sy, char *buf, size_t n)
{
	const struct symbols *old = sy->role == 0 ? sy : sy->pair;
	const struct pair_work *w = sy->pw;
	unsigned pm = w ? atomic_load(&((struct pair_work *)w)->permille) : 0;
	bool nd = w == NULL || w->joined || atomic_load(&((struct pair_work *)w)->finished);
	char o[32], nw[32];

	if (old == NULL || old->done)
		snprintf(o, sizeof o, "done");
	else
		snprintf(o, sizeof o, "%.0f%%", 100 * symbols_progress(old));
	if (nd)
		snprintf(nw, sizeof nw, "done");
	else if (pm == 0)
		snprintf(nw, sizeof nw, "resolving");
	else
		snprintf(nw, sizeof nw, "%u%%", pm / 10);
	snprintf(buf, n, "symbols OLD %s, NEW %s", o, nw);
	return buf;
}

uint32_t
symbols_pair_func(struct symbols *sy, uint32_t func)
{
	char a[1024], b[1024];
	const struct hist *o;
	size_t n;

	if (sy->pair == NULL || func == CPATH_NONE)
		return CPATH_NONE;
	if (func == sy->pf_in)	/* the flame graph asks once a draw: the last answer */
		return sy->pf_out;
	o = sy->pair->h;
	cpath_func_name(sy->h, func, a, sizeof a);
	n = hist_nnodes(o);
	sy->pf_in = func;
	sy->pf_out = CPATH_NONE;
	for (size_t i = 0; i < n; i++)
		if (strcmp(cpath_func_name(o, (uint32_t)i, b, sizeof b), a) == 0) {
			sy->pf_out = (uint32_t)i;
			break;
		}
	return sy->pf_out;
}

int
symbols_pair_event(const struct symbols *sy, size_t ev)
{
	const struct hist_event *he = hist_event(sy->h, ev);

	if (sy->pair == NULL || he == NULL)
		return -1;
	return (int)diff_event_for(sy->pair->h, NULL, hist_str(sy->h, he->name));
}

bool
symbols_pair_query(struct symbols *sy, const struct cpath_query *q,
    struct cpath_query *out, struct cpath_xform *xf)
{
	int ev = symbols_pair_event(sy, q->ev);

	*out = *q;
	for (size_t i = 0; i < q->nxf; i++) {
		xf[i] = q->xf[i];
		xf[i].func = symbols_pair_func(sy, q->xf[i].func);
	}
	out->xf = xf;
	out->sel = NULL;
	out->ev = ev < 0 ? 0 : (size_t)ev;
	return ev >= 0;
}
