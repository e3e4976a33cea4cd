#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/parallel.h"
#include "symbolize/pt/intel_pt.h"
#include "tui/keytab.h"

#define KEYTAB_SLICE	65536	/* index positions between looks at the stop flag */

struct keytab {
	const struct session	*s;
	struct symbolizer	*z;
	/* the table wanted */
	bool			 wanted;
	struct keytab_spec	 sp;
	struct hist_filter	 f;
	struct hist_opts	 ho;		/* ho.filter: &f */
	/* its build: on the thread (running) until finished, then ready */
	struct hist		*h;
	bool			 running;
	bool			 ready;
	pthread_t		 th;
	atomic_bool		 stop;
	atomic_bool		 finished;
	atomic_size_t		 pos;
	unsigned		 changes;	/* builds started and tables made ready */
	/* the parallelism model (spec.parallel), made by the first build that wants it */
	struct parallel		 par;
	bool			 par_made;
};

struct keytab *
keytab_new(const struct session *s, const struct sym_opts *so)
{
	struct keytab *kt = xcalloc(1, sizeof *kt);

	kt->s = s;
	kt->z = symbolizer_new(s, so);
	return kt;
}

/* Stop the build under way, if any, and free the table. */
static void
drop(struct keytab *kt)
{
	if (kt->running) {
		atomic_store(&kt->stop, true);
		pthread_join(kt->th, NULL);
		kt->running = false;
	}
	hist_free(kt->h);
	kt->h = NULL;
	kt->ready = false;
}

void
keytab_free(struct keytab *kt)
{
	if (kt == NULL)
		return;
	drop(kt);
	filter_free(&kt->f);
	parallel_free(&kt->par);
	symbolizer_free(kt->z);
	free(kt);
}

static void *
build(void *arg)
{
	struct keytab *kt = arg;
	size_t n = session_index(kt->s)->n;

	/* the hist is made here: its model (one walk of the index) is made first, off the UI thread */
	if (kt->sp.parallel && !kt->par_made) {
		parallel_build(kt->s, &kt->par);
		kt->par_made = true;
	}
	kt->ho.parallel = kt->sp.parallel ? &kt->par : NULL;
	kt->h = hist_new(kt->s, kt->z, &kt->ho);
	for (size_t pos = 0; pos < n; pos += KEYTAB_SLICE) {
		if (atomic_load_explicit(&kt->stop, memory_order_relaxed))
			return NULL;
		hist_add_range(kt->h, pos, n - pos > KEYTAB_SLICE ? pos + KEYTAB_SLICE : n, NULL);
		atomic_store_explicit(&kt->pos, pos, memory_order_relaxed);
	}
	if (pt_present(kt->s))
		pt_hist_add(kt->h, kt->s, kt->z);
	hist_finish(kt->h);
	atomic_store_explicit(&kt->finished, true, memory_order_release);
	return NULL;
}

static bool
same_spec(const struct keytab_spec *a, const struct keytab_spec *b)
{
	return a->nkeys == b->nkeys && memcmp(a->keys, b->keys, a->nkeys * sizeof *a->keys) == 0 &&
	    a->children == b->children && a->branch == b->branch && a->mem_mode == b->mem_mode &&
	    a->parallel == b->parallel && a->offcpu == b->offcpu;
}

void
keytab_want(struct keytab *kt, const struct keytab_spec *sp, const struct hist_filter *f)
{
	if (kt->wanted && same_spec(&kt->sp, sp) && filter_equal(&kt->f, f))
		return;
	drop(kt);
	filter_free(&kt->f);
	filter_copy(&kt->f, f);
	kt->sp = *sp;
	kt->wanted = true;
	memset(&kt->ho, 0, sizeof kt->ho);
	memcpy(kt->ho.keys, sp->keys, sp->nkeys * sizeof *sp->keys);
	kt->ho.nkeys = sp->nkeys;
	kt->ho.children = sp->children;
	kt->ho.chain_root_first = sp->children;	/* perf's callchain order, as top's */
	kt->ho.event = -1;
	kt->ho.max_stack = HIST_DEFAULT_MAX_STACK;
	kt->ho.branch = sp->branch;
	kt->ho.mem_mode = sp->mem_mode;
	/* off-CPU time as the browser's hist has it, beside (not in branch or memory mode) */
	kt->ho.offcpu = sp->branch != HIST_BRANCH_ON && !sp->mem_mode ? sp->offcpu : NULL;
	kt->ho.offcpu_beside = kt->ho.offcpu != NULL;
	kt->ho.filter = filter_active(&kt->f) ? &kt->f : NULL;
	atomic_store(&kt->stop, false);
	atomic_store(&kt->finished, false);
	atomic_store(&kt->pos, 0);
	kt->changes++;
	kt->running = pthread_create(&kt->th, NULL, build, kt) == 0;
	if (!kt->running) {	/* no thread: build here, once */
		build(kt);
		kt->ready = true;
	}
}

struct hist *
keytab_hist(struct keytab *kt)
{
	if (kt->running && atomic_load_explicit(&kt->finished, memory_order_acquire)) {
		pthread_join(kt->th, NULL);
		kt->running = false;
		kt->ready = true;
		kt->changes++;
	}
	return kt->ready ? kt->h : NULL;
}

unsigned
keytab_changes(const struct keytab *kt)
{
	return kt != NULL ? kt->changes : 0;
}

const struct symbolizer *
keytab_symbolizer(const struct keytab *kt)
{
	return kt->z;
}

bool
keytab_busy(const struct keytab *kt)
{
	return kt != NULL && kt->running && !atomic_load(&kt->finished);
}

double
keytab_progress(const struct keytab *kt)
{
	size_t n = session_index(kt->s)->n;

	if (kt->ready || atomic_load(&kt->finished))
		return 1;
	return n ? (double)atomic_load(&kt->pos) / (double)n : 0;
}

void
keytab_wait(struct keytab *kt)
{
	if (kt->running) {
		pthread_join(kt->th, NULL);
		kt->running = false;
		kt->ready = true;
	}
}

int
keytab_spec_of(const struct session *s, const enum hist_key *keys, unsigned nkeys, bool children,
    struct keytab_spec *sp, char *msg, size_t n)
{
	bool branch = false, mem = false, has = session_features(s)->sec[PF_FEAT_BRANCH_STACK].present;

	memset(sp, 0, sizeof *sp);
	if (nkeys == 0 || nkeys > HIST_MAX_KEYS) {
		snprintf(msg, n, "no sort keys");
		return -1;
	}
	for (unsigned i = 0; i < nkeys; i++) {
		branch |= hist_key_branch(keys[i]);
		mem |= hist_key_mem(keys[i]);
	}
	if (branch && !has) {
		snprintf(msg, n, "sort keys of branches need a recording with branch stacks "
		    "(perf record -b or -j)");
		return -1;
	}
	if (mem && has) {
		snprintf(msg, n, "memory sort keys: not in branch mode (a recording with branch stacks)");
		return -1;
	}
	memcpy(sp->keys, keys, nkeys * sizeof *keys);
	sp->nkeys = nkeys;
	/* as perfnav top: branch mode on a recording with branch stacks, self rows in it */
	sp->branch = branch ? HIST_BRANCH_ON : HIST_BRANCH_AUTO;
	sp->mem_mode = mem && !has;
	sp->children = children && !has && !mem;
	/* as perfnav top --latency or --sort parallelism (which refuse branch and memory mode) */
	sp->parallel = parallel_recorded(s) && !branch && !has && !mem;
	return 0;
}
