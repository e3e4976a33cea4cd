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
#include "symbolize/hist_cache.h"
#include "symbolize/offcpu.h"
#include "symbolize/pt/intel_pt.h"
#include "symbolize/symbolizer.h"
#include "tui/cmd/cmd.h"
#include "tui/keytab.h"
#include "tui/symbols.h"

#define SLICE_DEFAULT	4096

/*
 * Resolution on worker threads (symbols_start): part A, from the start,
 * into a hist and symbolizer of its own; part B, from the middle, into
 * another when the pass splits (hist_split_point, hist_share_positions).
 * A first pairs the switches (offcpu_setup), then makes both hists and
 * starts B; it joins B, merges and finishes.  Until `finished` (release) the UI
 * thread reads nothing of the workers' but the counters; symbols_poll
 * sees it (acquire), joins A and takes A's hist and symbolizer as its own.
 */
struct sym_work {
	struct symbols		*sy;		/* A's until finished: the spans (offcpu_setup) */
	const struct session	*s;
	struct hist_opts	 ho;
	pthread_t		 tha, thb;
	bool			 b_started;
	bool			 joined;	/* UI thread: A joined, its results taken */
	struct symbolizer	*za, *zb;
	struct hist		*ha, *hb;
	size_t			 mid, n;
	size_t			 slice;		/* positions per slice */
	long			 delay_ms;	/* PERFNAV_TEST_SYMBOLS_DELAY_MS: a pause per slice */
	atomic_uint_fast64_t	 done_a, done_b;	/* samples added */
	atomic_bool		 finished;
	atomic_bool		 stop;		/* symbols_free before the end: leave off */
	bool			 cached;	/* ha came from the cache (sy->cache) */
	struct hist_pack	*pk;		/* ha's packing for the cache begun, or NULL */
};

#define WORK_SLICE		16384
#define POLL_SLICE_SECS		0.03

/* The hist's options: keyed comm,tid,dso,sym, paths and each sample's entry and row kept. */
static void
hist_opts_of(const struct symbols *sy, struct hist_opts *ho)
{
	memset(ho, 0, sizeof *ho);
	ho->keys[0] = HIST_KEY_COMM;
	ho->keys[1] = HIST_KEY_TID;
	ho->keys[2] = HIST_KEY_DSO;
	ho->keys[3] = HIST_KEY_SYM;
	ho->nkeys = 4;
	ho->children = sy->children;
	ho->chain_root_first = sy->children;	/* perf report's callchain order */
	ho->paths = true;		/* call paths: the hot functions' expansions, the call
				 * trees, the flame graph (symbolize/cpath.h) */
	ho->event = -1;
	ho->max_stack = HIST_DEFAULT_MAX_STACK;
	ho->record_self = true;
	ho->filter = sy->start;
	/* off-CPU time, where the recording has it, as an event beside the others */
	ho->offcpu = sy->has_oc ? &sy->oc : NULL;
	ho->offcpu_beside = sy->has_oc;
	/* each sample's latency, where the recording has switch events (perf 6.15) */
	ho->parallel = sy->has_par ? &sy->par : NULL;
}

/*
 * Pair the recording's switches into off-CPU spans and count its running
 * threads (the parallelism model, with switch events only), once, before
 * the hist that takes them is made (a worker's first work; symbols_step's).
 */
static void
offcpu_setup(struct symbols *sy)
{
	if (sy->oc_tried)
		return;
	sy->oc_tried = true;
	sy->has_oc = offcpu_build(sy->s, &sy->oc) == OFFCPU_OK && sy->oc.n > 0;
	if (!sy->has_oc)
		offcpu_free(&sy->oc);
	sy->has_par = parallel_recorded(sy->s);
	if (sy->has_par)
		parallel_build(sy->s, &sy->par);
}

bool
symbols_event_offcpu(const struct symbols *sy, size_t ev)
{
	const struct hist_event *he = sy != NULL && sy->has_oc && sy->done && sy->h != NULL ?
	    hist_event(sy->h, ev) : NULL;

	return he != NULL && strcmp(hist_str(sy->h, he->name), OFFCPU_EVENT_NAME) == 0;
}

const char *
symbols_offcpu_text(const struct symbols *sy, uint64_t ns, char *buf, size_t n)
{
	char d[32];

	snprintf(buf, n, "%s off CPU%s%s", text_duration(d, sizeof d, ns), sy->has_oc && sy->oc.approx ?
	    " (approximate: each switch-out at the thread's last sample)" : "",
	    sy->has_oc && offcpu_many_unpaired(&sy->oc) ?
	    " (many switch-outs never switched back in, left out)" : "");
	return buf;
}

const struct offcpu *
symbols_offcpu(const struct symbols *sy)
{
	return sy != NULL && sy->done && sy->has_oc ? &sy->oc : NULL;
}

const struct parallel *
symbols_parallel(const struct symbols *sy)
{
	return sy != NULL && sy->done && sy->has_par ? &sy->par : NULL;
}

static void
make_hist(struct symbols *sy)
{
	struct hist_opts ho;

	hist_opts_of(sy, &ho);
	sy->h = hist_new(sy->s, sy->z, &ho);
	sy->h_serial++;
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
	sy->so = *so;
	sy->so.dbgd_progress = &sy->dbgd;
	sy->z = symbolizer_new(s, &sy->so);
	sy->scope.hl_func = CPATH_NONE;
	sy->scope.hot_callers = -1;
	origins_load(s, &sy->org, &(struct perf_err){ 0 });	/* damage: the key file says it */
	sy->scope.org = &sy->org;
	sy->callchains = attr_table_has_callchains(session_attrs(s));
	sy->children = sy->callchains;
	sy->start = f != NULL && filter_active(f) ? f : NULL;
	sy->samples_total = session_counts(s)->by_type[PF_REC_SAMPLE];
	make_hist(sy);
	return sy;
}

int
symbols_set_children(struct symbols *sy, bool on)
{
	if (sy->pos > 0 || sy->work != NULL)
		return -1;
	if (on == sy->children)
		return 0;
	sy->children = on;
	hist_free(sy->h);
	sy->done = false;
	make_hist(sy);
	return 0;
}

/* The UI thread: stop the workers if they still run, wait for them, free what they made. */
static void
work_end(struct sym_work *w)
{
	if (w == NULL)
		return;
	if (!w->joined) {
		atomic_store(&w->stop, true);
		pthread_join(w->tha, NULL);
		hist_free(w->hb);	/* before ha: it borrows ha's arrays */
		hist_free(w->ha);
		symbolizer_free(w->zb);
		symbolizer_free(w->za);
	}
	hist_cache_pack_free(w->pk);
	free(w);
}

void
symbols_free(struct symbols *sy)
{
	if (sy == NULL)
		return;
	symbols_cache_wait(sy);
	free(sy->tsm.v);
	if (sy->rj != NULL) {	/* a recount under way: the hist goes with it */
		hist_rescope_end(sy->rj, false);
		scope_filter_free(&sy->rj_ff);
	}
	/* downloads under way are abandoned (they answer within a second) */
	atomic_store(&sy->dbgd.stop, true);
	work_end(sy->work);
	if (sy->pair != NULL) {
		atomic_store(&sy->pair->dbgd.stop, true);
		work_end(sy->pair->work);
		sy->pair->work = NULL;
		sy->pair->pair = NULL;
	}
	scope_free(&sy->scope);
	keytab_free(sy->kt);
	keytab_free(sy->kt_branch);
	cpath_free(sy->xt);
	hist_free(sy->h);
	symbolizer_free(sy->z);
	offcpu_free(&sy->oc);
	parallel_free(&sy->par);
	origins_free(&sy->org);
	free(sy);
}

bool
symbols_step(struct symbols *sy, double budget, size_t slice)
{
	const struct session *s = sy->s;
	const struct rec_index *ix = session_index(s);
	double t0 = mono_seconds(), t;

	if (sy->done)
		return true;
	if (sy->work != NULL)
		return symbols_poll(sy);
	if (sy->pos == 0 && !sy->oc_tried) {
		offcpu_setup(sy);
		if (sy->has_oc || sy->has_par) {	/* a hist that takes the spans, latency too */
			hist_free(sy->h);
			make_hist(sy);
		}
	}
	if (slice == 0)
		slice = SLICE_DEFAULT;
	do {
		size_t to = sy->pos + slice < ix->n ? sy->pos + slice : ix->n;

		for (size_t i = sy->pos; i < to; i++)
			if (ent_type(index_ent(ix, i)) == PF_REC_SAMPLE)
				sy->samples_done++;
		hist_add_range(sy->h, sy->pos, to, NULL);
		sy->pos = to;
		t = mono_seconds();
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
	if (sy->work != NULL) {
		symbols_wait(sy);
		return;
	}
	while (!symbols_step(sy, 1e9, SIZE_MAX / 2))
		;
}

/* Positions a recount's step counts between looks at the clock. */
#define RECOUNT_STEP_POS	(1u << 16)

int
symbols_scope_begin(struct symbols *sy)
{
	struct scope *sc = &sy->scope;
	struct hist_filter *f = &sy->rj_f;
	const struct hist_select *sel = sc->zoomed ? &sc->sel : NULL;
	int rc = 0;

	if (!sc->time_pending || !sy->done || sy->rj != NULL)
		return 0;
	symbols_cache_wait(sy);	/* the writer reads the hist a recount changes */
	sc->time_pending = false;
	memset(f, 0, sizeof *f);
	if (scope_time_range(sc, &sy->rj_range.start, &sy->rj_range.end)) {
		f->time = &sy->rj_range;
		f->ntime = 1;
	}
	f->cpus = sc->cpus;
	f->ncpus = sc->ncpus;
	scope_filter(sc, NULL, &sy->rj_ff);	/* the file zoom's input ranges */
	f->flocs = sy->rj_ff.flocs;
	f->nflocs = sy->rj_ff.nflocs;
	sc->recounted = false;
	sy->rj = hist_rescope_begin(sy->h, filter_active(f) ? f : NULL, sel);
	sy->rj_recounted = sy->rj != NULL && sel != NULL;
	if (sy->rj == NULL) {
		if (f->ntime || f->ncpus || f->nflocs) {
			/* no recount: the time steps, cpus and input cannot be, the zoom is selected by panes */
			sc->ntr = 0;
			sc->ncpus = 0;
			sc->by_file = false;
			sc->zlabel[SZ_CPU][0] = sc->zlabel[SZ_FILE][0] = '\0';
			rc = -1;
		}
		sy->rj = hist_rescope_begin(sy->h, NULL, NULL);
	}
	if (sy->rj == NULL) {	/* nothing can be recounted: the rows stay */
		scope_filter_free(&sy->rj_ff);
		sc->gen++;
		sy->gen++;
	}
	return rc;
}

/* The recount done: the counts whole, the scope's gen bumped. */
static void
recount_done(struct symbols *sy)
{
	hist_rescope_end(sy->rj, true);
	sy->rj = NULL;
	scope_filter_free(&sy->rj_ff);
	sy->scope.recounted = sy->rj_recounted;
	sy->scope.gen++;
	sy->gen++;
}

/* The recount under way of sy, then of its pair (diff mode), or NULL when none is. */
static struct symbols *
recounting(struct symbols *sy)
{
	if (sy->rj != NULL)
		return sy;
	return sy->pair != NULL && sy->pair->rj != NULL ? sy->pair : NULL;
}

bool
symbols_scope_step(struct symbols *sy, double budget)
{
	double t0 = mono_seconds();
	struct symbols *r;

	while ((r = recounting(sy)) != NULL) {
		bool done;

		do
			done = hist_rescope_step(r->rj, RECOUNT_STEP_POS);
		while (!done && mono_seconds() - t0 < budget);
		if (!done)
			return false;
		recount_done(r);
	}
	sy->rj_paired = false;
	return true;
}

bool
symbols_scope_step_n(struct symbols *sy, size_t npos)
{
	struct symbols *r = recounting(sy);

	if (r != NULL && hist_rescope_step(r->rj, npos))
		recount_done(r);
	if (recounting(sy) != NULL)
		return false;
	sy->rj_paired = false;
	return true;
}

bool
symbols_scope_busy(const struct symbols *sy)
{
	return sy != NULL && (sy->rj != NULL || (sy->pair != NULL && sy->pair->rj != NULL));
}

/* How far sy's own recount is, 0 to 1 (1: none under way). */
static double
rj_progress(const struct symbols *sy)
{
	size_t done, total;

	if (sy->rj == NULL)
		return 1;
	hist_rescope_progress(sy->rj, &done, &total);
	return total ? (double)done / (double)total : 1;
}

double
symbols_scope_progress(const struct symbols *sy)
{
	/* diff mode: sy's recount the first half, the pair's the second (or all, alone) */
	if (sy->rj_paired && sy->pair != NULL)
		return (rj_progress(sy) + rj_progress(sy->pair)) / 2;
	return sy->rj == NULL && sy->pair != NULL ? rj_progress(sy->pair) : rj_progress(sy);
}

int
symbols_apply_scope(struct symbols *sy)
{
	int rc = symbols_scope_begin(sy);

	(void)symbols_scope_step(sy, 1e9);
	return rc;
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
		snprintf(buf, n, "%s+0x%" PRIx64 " (%s)", symbolizer_sym_name(sy->z, f.sym), f.symoff,
		    symbolizer_dso_short(sy->z, f.dso));
	else
		snprintf(buf, n, "[unknown] (%s)", f.dso == DSO_NONE ? "[unknown]" :
		    symbolizer_dso_short(sy->z, f.dso));
	return buf;
}

/* n bytes as "12 KiB" */
static void
fmt_bytes(char *buf, size_t n, int64_t b)
{
	if (b < 0)
		b = 0;
	if (b < 1024)
		snprintf(buf, n, "%" PRId64 " B", b);
	else if (b < 1024 * 1024)
		snprintf(buf, n, "%.0f KiB", (double)b / 1024);
	else if (b < 1024LL * 1024 * 1024)
		snprintf(buf, n, "%.1f MiB", (double)b / (1024 * 1024));
	else
		snprintf(buf, n, "%.2f GiB", (double)b / (1024.0 * 1024 * 1024));
}

const char *
symbols_dbgd_text(const struct symbols *sy, char *buf, size_t n)
{
	const struct sym_dbgd_progress *p[2] = { &sy->dbgd, sy->pair ? &sy->pair->dbgd : NULL };
	int64_t done = 0, total = 0;
	unsigned files = 0;
	int active = 0;
	char d[32], t[32];

	for (int i = 0; i < 2; i++) {
		if (p[i] == NULL)
			continue;
		active += atomic_load(&p[i]->active);
		done += atomic_load(&p[i]->done);
		total += atomic_load(&p[i]->total);
		files += atomic_load(&p[i]->files);
	}
	fmt_bytes(d, sizeof d, done);
	fmt_bytes(t, sizeof t, total);
	if (active > 0 && total > 0)
		snprintf(buf, n, "debuginfod %s of %s", d, t);
	else if (active > 0)
		snprintf(buf, n, "debuginfod %s", d);
	else if (files > 0)
		snprintf(buf, n, "%u file%s from debuginfod", files, files == 1 ? "" : "s");
	else
		return NULL;
	return buf;
}

uint64_t
symbols_resolved(const struct symbols *sy)
{
	if (sy->done)
		return sy->samples_total;
	if (sy->work != NULL)
		return atomic_load(&sy->work->done_a) + atomic_load(&sy->work->done_b);
	return sy->samples_done;
}

double
symbols_progress(const struct symbols *sy)
{
	const struct rec_index *ix = session_index(sy->s);

	if (sy->done)
		return 1.0;
	if (sy->work != NULL)
		return sy->samples_total ?
		    (double)symbols_resolved(sy) / (double)sy->samples_total : 0.0;
	if (sy->samples_total == 0)
		return ix->n ? (double)sy->pos / (double)ix->n : 1.0;
	return (double)sy->samples_done / (double)sy->samples_total;
}

/* Add [from, to) to h in slices, counting its samples into *done; false if stopped. */
static bool
work_part(struct sym_work *w, struct hist *h, size_t from, size_t to, atomic_uint_fast64_t *done)
{
	const struct rec_index *ix = session_index(w->s);

	for (size_t pos = from; pos < to;) {
		size_t end = to - pos > w->slice ? pos + w->slice : to;
		uint64_t k = 0;

		if (atomic_load_explicit(&w->stop, memory_order_relaxed))
			return false;
		if (w->delay_ms > 0) {
			struct timespec ts = { w->delay_ms / 1000, w->delay_ms % 1000 * 1000000 };

			nanosleep(&ts, NULL);
		}
		for (size_t i = pos; i < end; i++)
			k += ent_type(index_ent(ix, i)) == PF_REC_SAMPLE;
		hist_add_range(h, pos, end, NULL);
		atomic_fetch_add_explicit(done, k, memory_order_relaxed);
		pos = end;
	}
	return true;
}

static void *
work_b(void *arg)
{
	struct sym_work *w = arg;

	work_part(w, w->hb, w->mid, w->n, &w->done_b);
	return NULL;
}

/* A's set-up: the off-CPU spans, the hists (from the cache when kept), B started when the pass splits. */
static void
work_setup(struct sym_work *w)
{
	offcpu_setup(w->sy);
	hist_opts_of(w->sy, &w->ho);
	if (w->sy->cache != NULL &&
	    cmd_cache_hist_read(w->sy->cache, w->s, w->za, &w->sy->so, &w->ho, &w->ha) == HIST_CACHE_OK) {
		w->cached = true;
		w->mid = 0;
		return;
	}
	w->ha = hist_new(w->s, w->za, &w->ho);
	if (w->zb == NULL || !hist_parallel_split(w->s, &w->ho, &w->mid))
		return;
	w->hb = hist_new(w->s, w->zb, &w->ho);
	hist_share_positions(w->ha, w->hb);
	w->b_started = pthread_create(&w->thb, NULL, work_b, w) == 0;
	if (!w->b_started) {	/* no second thread: A does it all */
		hist_free(w->hb);
		w->hb = NULL;
		hist_free(w->ha);
		w->ha = hist_new(w->s, w->za, &w->ho);
		w->mid = w->n;
	}
}

static void *
work_a(void *arg)
{
	struct sym_work *w = arg;
	bool ok;

	work_setup(w);
	if (w->cached) {
		atomic_store(&w->done_a, w->sy->samples_total);
		hist_finish(w->ha);
		atomic_store_explicit(&w->finished, true, memory_order_release);
		return NULL;
	}
	ok = work_part(w, w->ha, 0, w->mid, &w->done_a);

	if (w->b_started)
		pthread_join(w->thb, NULL);
	if (!ok || atomic_load(&w->stop))
		return NULL;
	if (w->hb != NULL && hist_merge(w->ha, w->hb) != 0) {
		/* refused (cannot happen with these options): one pass after all */
		hist_free(w->hb);
		w->hb = NULL;
		hist_free(w->ha);
		w->ha = hist_new(w->s, w->za, &w->ho);
		atomic_store(&w->done_a, 0);
		atomic_store(&w->done_b, 0);
		if (!work_part(w, w->ha, 0, w->n, &w->done_a))
			return NULL;
	}
	if (pt_present(w->s))
		pt_hist_add(w->ha, w->s, w->za);
	hist_finish(w->ha);
	/*
	 * What the payload needs of the symbolizer taken here, while it is A's
	 * alone; the rest (a copy of the hist's arrays) by cache_thr.
	 */
	if (w->sy->cache != NULL && cmd_cache_hist_wanted(w->sy->cache, w->s, &w->ho))
		w->pk = hist_cache_pack_start(w->ha);
	atomic_store_explicit(&w->finished, true, memory_order_release);
	return NULL;
}

/*
 * The cache's writer: the hist packed and written (the session outlives
 * it); until it is joined nothing changes the hist (symbols_apply_scope
 * waits for it).
 */
static void *
cache_write(void *arg)
{
	struct symbols *sy = arg;
	struct hist_pack *k = sy->cache_pk;

	sy->cache_pk = NULL;
	cmd_cache_hist_write(sy->cache, sy->s, sy->cache_sub, k, sy->h);
	return NULL;
}

/* The UI thread, once A is joined: write what A packed, on a thread of its own. */
static void
cache_write_start(struct symbols *sy, struct sym_work *w)
{
	sy->cached = w->cached;
	if (w->pk == NULL)
		return;
	sy->cache_pk = w->pk;
	sy->cache_sub = hist_cache_sub(&w->ho, &sy->so);
	w->pk = NULL;
	sy->cache_thr_on = pthread_create(&sy->cache_thr, NULL, cache_write, sy) == 0;
	if (!sy->cache_thr_on) {
		hist_cache_pack_free(sy->cache_pk);
		sy->cache_pk = NULL;
	}
}

void
symbols_cache_wait(struct symbols *sy)
{
	if (sy == NULL || !sy->cache_thr_on)
		return;
	pthread_join(sy->cache_thr, NULL);
	sy->cache_thr_on = false;
}

void
symbols_start(struct symbols *sy)
{
	struct sym_work *w;
	const char *env;

	if (sy->done || sy->work != NULL || sy->pos > 0)
		return;
	w = xcalloc(1, sizeof *w);
	w->s = sy->s;
	w->n = session_index(sy->s)->n;
	w->mid = w->n;
	w->slice = WORK_SLICE;
	/*
	 * Tests of the UI while symbols resolve (tests/tui_e2e.sh) slow the
	 * workers down: small slices, each after a pause of this many ms.
	 */
	if ((env = getenv("PERFNAV_TEST_SYMBOLS_DELAY_MS")) != NULL && atol(env) > 0) {
		w->delay_ms = atol(env) > 1000 ? 1000 : atol(env);
		w->slice = 16;
	}
	hist_opts_of(sy, &w->ho);
	atomic_init(&w->done_a, 0);
	atomic_init(&w->done_b, 0);
	atomic_init(&w->finished, false);
	atomic_init(&w->stop, false);
	w->sy = sy;
	w->za = symbolizer_new(sy->s, &sy->so);
	/* a second symbolizer when the pass may split (A decides, once the spans are in) */
	if (hist_parallel_split(sy->s, &w->ho, &w->mid))
		w->zb = symbolizer_new(sy->s, &sy->so);
	w->mid = w->n;
	if (pthread_create(&w->tha, NULL, work_a, w) != 0) {
		/* no thread at all: symbols_step between keys, as before */
		w->joined = true;
		symbolizer_free(w->zb);
		symbolizer_free(w->za);
		free(w);
		return;
	}
	sy->work = w;
	/* the UI thread's own lookups never wait for a server: only the workers ask */
	symbolizer_no_debuginfod(sy->z);
	/* until the workers are done, the panes read an empty finished hist */
	hist_finish(sy->h);
}

bool
symbols_poll(struct symbols *sy)
{
	struct sym_work *w = sy->work;

	if (sy->done)
		return true;
	if (w == NULL)	/* no worker could start: a slice here, between keys */
		return symbols_step(sy, POLL_SLICE_SECS, 0);
	if (w->joined || !atomic_load_explicit(&w->finished, memory_order_acquire))
		return false;
	pthread_join(w->tha, NULL);
	w->joined = true;
	/* A's symbolizer names the hist's ids: it becomes sy's, with what the others refused */
	symbolizer_adopt_refusals(w->za, sy->z);
	if (w->zb != NULL) {
		symbolizer_adopt_refusals(w->za, w->zb);
		symbolizer_adopt_debuginfod(w->za, w->zb);
	}
	/* from the UI thread now: what the servers answered the workers, no more */
	symbolizer_no_debuginfod(w->za);
	hist_free(w->hb);
	symbolizer_free(w->zb);
	hist_free(sy->h);
	symbolizer_free(sy->z);
	sy->h = w->ha;
	sy->h_serial++;
	sy->z = w->za;
	sy->pos = w->n;
	sy->samples_done = sy->samples_total;
	sy->done = true;
	sy->gen++;
	cache_write_start(sy, w);	/* sy->h is A's now */
	return true;
}

void
symbols_wait(struct symbols *sy)
{
	struct timespec ts = { 0, 2000000 };

	if (sy->work == NULL) {
		symbols_run(sy);
		return;
	}
	while (!symbols_poll(sy))
		nanosleep(&ts, NULL);
}

void
symbols_pair_start(struct symbols *old, struct symbols *new)
{
	old->pair = new;
	new->pair = old;
	old->pf_in = new->pf_in = CPATH_NONE;
	old->role = 0;
	new->role = 1;
	symbols_start(old);
	symbols_start(new);
}

void
symbols_run_pair(struct symbols *old, struct symbols *new)
{
	symbols_pair_start(old, new);
	symbols_wait(old);
	symbols_wait(new);
}

/* Stop sy's workers before the end: its rows stay empty (done, nothing resolved). */
static void
work_stop(struct symbols *sy)
{
	if (sy == NULL || sy->work == NULL)
		return;
	work_end(sy->work);
	sy->work = NULL;
	sy->done = true;
}

void
symbols_pair_stop(struct symbols *sy)
{
	work_stop(sy);
	work_stop(sy->pair);
}

bool
symbols_pair_waiting(struct symbols *sy)
{
	if (sy->pair == NULL)
		return false;
	symbols_poll(sy);
	symbols_poll(sy->pair);
	return !sy->done || !sy->pair->done;
}

const char *
symbols_pair_wait_text(const struct symbols *sy, char *buf, size_t n)
{
	const struct symbols *old = sy->role == 0 ? sy : sy->pair;
	const struct symbols *nw_sy = sy->role == 0 ? sy->pair : sy;
	char o[32], nw[32];

	if (old == NULL || old->done)
		snprintf(o, sizeof o, "done");
	else
		snprintf(o, sizeof o, "%.0f%%", 100 * symbols_progress(old));
	if (nw_sy == NULL || nw_sy->done)
		snprintf(nw, sizeof nw, "done");
	else
		snprintf(nw, sizeof nw, "%.0f%%", 100 * symbols_progress(nw_sy));
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

/* The other recording's DSO of sy's dso, by its short name; DSO_NONE if none. */
static uint32_t
pair_dso(const struct symbols *sy, uint32_t dso)
{
	const char *name = symbolizer_dso_short(sy->z, dso);

	for (uint32_t d = 0; d < symbolizer_ndsos(sy->pair->z); d++)
		if (strcmp(symbolizer_dso_short(sy->pair->z, d), name) == 0)
			return d;
	return DSO_NONE;
}

bool
symbols_pair_scope(struct symbols *sy)
{
	const struct scope *sc = &sy->scope;
	struct scope *oc;
	struct hist_select z = { 0 };
	bool whole = true;
	int ev;

	if (sy->pair == NULL || !sy->done || !sy->pair->done)
		return true;
	oc = &sy->pair->scope;
	ev = symbols_pair_event(sy, sc->ev);
	if (sc->zoomed) {
		z = sc->sel;
		whole = !z.by_pid && !z.by_tid;
		z.by_pid = z.by_tid = false;	/* other processes: not the other's */
		if (z.by_dso && (z.dso = pair_dso(sy, z.dso)) == DSO_NONE)
			whole = false;
		if (z.by_node && (z.node = symbols_pair_func(sy, z.node)) == CPATH_NONE)
			whole = false;
		if (z.by_comm && (z.comm = hist_comm_find(sy->pair->h, hist_str(sy->h, z.comm))) ==
		    UINT32_MAX)
			whole = false;
	}
	/* a name the other lacks: none of its samples (an id no DSO has) */
	if (!whole && sc->zoomed && !sc->sel.by_pid && !sc->sel.by_tid) {
		z.by_dso = true;
		z.dso = UINT32_MAX - 1;
	}
	whole = whole && sc->ntr == 0 && !sc->by_file;	/* inputs: the other's are its own */
	oc->ev = ev < 0 ? oc->ev : (size_t)ev;
	oc->zoomed = z.by_dso || z.by_node || z.by_comm;
	oc->sel = z;
	/* the parts it took, named as the shown one names them */
	memset(oc->zlabel, 0, sizeof oc->zlabel);
	if (oc->zoomed) {
		memcpy(oc->zlabel[SZ_DSO], sc->zlabel[SZ_DSO], sizeof oc->zlabel[SZ_DSO]);
		memcpy(oc->zlabel[SZ_SYM], sc->zlabel[SZ_SYM], sizeof oc->zlabel[SZ_SYM]);
		memcpy(oc->zlabel[SZ_COMM], sc->zlabel[SZ_COMM], sizeof oc->zlabel[SZ_COMM]);
	}
	memcpy(oc->zlabel[SZ_CPU], sc->zlabel[SZ_CPU], sizeof oc->zlabel[SZ_CPU]);
	memcpy(oc->cpus, sc->cpus, sc->ncpus * sizeof *sc->cpus);
	oc->ncpus = sc->ncpus;
	oc->ntr = 0;	/* times: another clock */
	oc->recounted = false;
	oc->time_pending = true;
	oc->gen++;
	/* its recount stepped after sy's (symbols_scope_step); the progress
	 * halved between them when both have one */
	(void)symbols_scope_begin(sy->pair);
	sy->rj_paired = sy->rj != NULL && sy->pair->rj != NULL;
	return whole;
}

const struct hist *
symbols_scope_hist(const struct symbols *sy)
{
	const struct scope *sc;

	if (sy == NULL || !sy->done)
		return NULL;
	sc = &sy->scope;
	if (sc->time_pending || (sc->zoomed && !sc->recounted) || !hist_scope_known(sy->h))
		return NULL;
	return sy->h;
}

const struct cpath *
symbols_scope_tree(struct symbols *sy)
{
	struct cpath_query q;

	if (sy == NULL || sy->scope.nxf == 0)
		return NULL;
	if (sy->xt != NULL && sy->xt_gen == sy->gen && sy->xt_sgen == sy->scope.gen)
		return sy->xt;
	cpath_free(sy->xt);
	scope_query(&sy->scope, false, &q);
	sy->xt = cpath_build(sy->h, &q);
	sy->xt_gen = sy->gen;
	sy->xt_sgen = sy->scope.gen;
	return sy->xt;
}

bool
symbols_scope_has(struct symbols *sy, size_t pos)
{
	const struct cpath *t;

	if (!hist_scope_has(sy->h, pos))
		return false;
	t = symbols_scope_tree(sy);
	return t == NULL || cpath_sample_node(t, sy->h, pos) != CPATH_NONE;
}

int
symbols_scope_attr(const struct symbols *sy)
{
	const struct hist_event *he;

	if (sy == NULL || sy->h == NULL || hist_nevents(sy->h) < 2)
		return -1;
	/* the off-CPU event's records are its spans' switch-out samples (sched_switch's) */
	if (symbols_event_offcpu(sy, sy->scope.ev) && sy->oc.n > 0) {
		unsigned a = ent_attr(index_ent(session_index(sy->s), (size_t)sy->oc.v[0].pos));

		return a != ENT_ATTR_NONE ? (int)a : -1;
	}
	he = hist_event(sy->h, sy->scope.ev);
	return he != NULL ? he->attr : -1;
}

bool
symbols_scope_on(const struct symbols *sy)
{
	const struct scope *sc = sy != NULL ? &sy->scope : NULL;
	uint64_t t0, t1;

	return (sc != NULL && (scope_time_range(sc, &t0, &t1) || sc->zoomed || sc->ncpus || sc->by_file ||
	    sc->nxf)) ||
	    (sy != NULL && sy->start != NULL) || symbols_scope_attr(sy) >= 0;
}

/* The table of keys over the scope's samples from *kt (made on first use); NULL while built. */
static struct hist *
keyed(struct symbols *sy, struct keytab **kt, const enum hist_key *keys, unsigned n, bool *busy)
{
	struct keytab_spec sp;
	struct hist_filter f;
	struct hist *h;
	char msg[200];

	if (busy != NULL)
		*busy = false;
	if (!sy->done || keytab_spec_of(sy->s, keys, n, sy->children, &sp, msg, sizeof msg) < 0)
		return NULL;
	sp.offcpu = sy->has_oc ? &sy->oc : NULL;
	if (*kt == NULL)
		*kt = keytab_new(sy->s, &sy->so);
	scope_filter_named(&sy->scope, sy->start, sy->h, sy->z, &f);
	keytab_want(*kt, &sp, &f);
	filter_free(&f);
	h = keytab_hist(*kt);
	if (busy != NULL)
		*busy = h == NULL;
	return h;
}

struct hist *
symbols_keyed(struct symbols *sy, bool *busy)
{
	const struct scope_sort *so = &sy->scope.hot_sort;

	if (scope_sort_merged(so)) {
		if (busy != NULL)
			*busy = false;
		return NULL;
	}
	return keyed(sy, &sy->kt, so->keys, so->n, busy);
}

struct hist *
symbols_branch_table(struct symbols *sy, bool *busy)
{
	static const enum hist_key keys[] = { HIST_KEY_COMM, HIST_KEY_DSO_FROM, HIST_KEY_SYM_FROM,
		HIST_KEY_SYM_TO, HIST_KEY_CYCLES };

	return keyed(sy, &sy->kt_branch, keys, sizeof keys / sizeof keys[0], busy);
}

bool
symbols_tables_busy(const struct symbols *sy)
{
	return keytab_busy(sy->kt) || keytab_busy(sy->kt_branch);
}

unsigned
symbols_tables_changes(const struct symbols *sy)
{
	return keytab_changes(sy->kt) + keytab_changes(sy->kt_branch);
}
