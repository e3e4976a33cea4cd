/*
 * fuzz_symbolize.c: symbolization and the hot-function pass over a
 * recording loaded from memory, with the fixtures' build-id cache
 * (tests/data/buildid) so that their binaries resolve.  An even-sized
 * input gets perf report's children and call graph (rows, callers and
 * callees, folded stacks, the process tree); an odd-sized one the pass
 * `perfnav top` runs on two cores: the index cut in two, one hist and
 * symbolizer per part, hist_merge(), which must give the rows of one pass;
 * every fourth size (2 mod 4) perf's --branch-history, the graph of every
 * row with what its frames' branches carried.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "symbolize/cpath.h"
#include "symbolize/hist.h"
#include "symbolize/offcpu.h"
#include "symbolize/parallel.h"
#include "symbolize/schedtime.h"
#include "symbolize/tasks.h"
#include "tests/fuzz/fuzz.h"

static const enum hist_key keys[] = {
	HIST_KEY_COMM, HIST_KEY_TID, HIST_KEY_DSO, HIST_KEY_SYM, HIST_KEY_CPU,
};
#define NKEYS (sizeof keys / sizeof keys[0])

static int
fold(void *arg, const char *line, uint64_t count)
{
	fuzz_use(strlen(line) + count);
	return 0;
}

/* Every node of a call tree (as deep as max_stack frames). */
static void
walk_tree(struct hist *h, uint32_t t)
{
	for (; t != UINT32_MAX; t = hist_tnode_get(h, t)->next_sibling) {
		const struct hist_tnode *tn = hist_tnode_get(h, t);

		fuzz_use(tn->inc_period + tn->self_period);
		walk_tree(h, tn->first_child);
	}
}

/* An entry's call paths both ways (perf's --children graphs), and the whole trees. */
static size_t
entry_paths(struct hist *h, size_t ev, uint32_t id)
{
	struct cpath_query q = { .ev = ev, .entry = id, .through = true };
	size_t n = 0;

	for (int up = 0; up < 2; up++) {
		struct cpath *t;

		q.bottom_up = up;
		t = cpath_build(h, &q);
		for (size_t i = 0; i < cpath_count(t); i++)
			n += cpath_node(t, (uint32_t)i)->total_samples;
		cpath_free(t);
	}
	return n;
}

/* Read back everything a finished call-graph hist answers. */
static void
read_hist(struct hist *h)
{
	char buf[4096];
	const struct hist_why *whys;

	for (size_t ev = 0; ev < hist_nevents(h); ev++) {
		const uint32_t *rows;
		size_t n = hist_rows(h, ev, 0, &rows);
		const struct hist_event *he = hist_event(h, ev);

		for (size_t i = 0; i < n; i++) {
			const struct hist_entry *e = hist_entry_get(h, rows[i]);

			for (size_t k = 0; k < NKEYS; k++)
				fuzz_use(strlen(hist_key_text(h, e, keys[k], buf, sizeof buf)));
			fuzz_use_double(hist_self_pct(h, e) + hist_children_pct(h, e));
			fuzz_use(entry_paths(h, ev, rows[i]));
		}
		walk_tree(h, he->tree_root);
		hist_folded(h, ev, false, fold, NULL);
	}
	fuzz_use(hist_whys(h, &whys));
}

static bool
same_rows(struct hist *a, struct hist *b)
{
	char ta[4096], tb[4096];

	if (hist_nevents(a) != hist_nevents(b))
		return false;
	for (size_t ev = 0; ev < hist_nevents(a); ev++) {
		const uint32_t *ra, *rb;
		size_t na = hist_rows(a, ev, 0, &ra);
		size_t nb;

		if (hist_event(a, ev)->total_period != hist_event(b, ev)->total_period ||
		    hist_event(a, ev)->nsamples != hist_event(b, ev)->nsamples)
			return false;
		/* hist_rows' answer lives until the next call: copy a's ids. */
		uint32_t *ids = malloc((na + 1) * sizeof *ids);

		if (ids == NULL)
			abort();
		memcpy(ids, ra, na * sizeof *ids);
		nb = hist_rows(b, ev, 0, &rb);
		for (size_t i = 0; i < na && na == nb; i++) {
			const struct hist_entry *x = hist_entry_get(a, ids[i]);
			const struct hist_entry *y = hist_entry_get(b, rb[i]);

			if (x->period != y->period || x->samples != y->samples ||
			    x->acc_period != y->acc_period || x->acc_samples != y->acc_samples)
				na = SIZE_MAX;
			for (size_t k = 0; k < NKEYS && na != SIZE_MAX; k++)
				if (strcmp(hist_key_text(a, x, keys[k], ta, sizeof ta),
				    hist_key_text(b, y, keys[k], tb, sizeof tb)) != 0)
					na = SIZE_MAX;
		}
		free(ids);
		if (na != nb)
			return false;
	}
	return true;
}

/* top's two-part pass against one pass. */
static void
merged(const struct session *s, const struct sym_opts *so, const struct hist_opts *ho)
{
	struct symbolizer *z1, *z2, *z;
	struct hist *h1, *h2, *one;
	size_t m;

	if (!hist_split_point(s, ho, &m))
		return;	/* top would not cut this pass either */
	z1 = symbolizer_new(s, so);
	z2 = symbolizer_new(s, so);
	h1 = hist_new(s, z1, ho);
	h2 = hist_new(s, z2, ho);
	hist_add_range(h1, 0, m, NULL);
	hist_add_range(h2, m, session_index(s)->n, NULL);
	if (hist_merge(h1, h2) == 0) {
		hist_finish(h1);
		z = symbolizer_new(s, so);
		one = hist_new(s, z, ho);
		hist_add_session(one, NULL);
		hist_finish(one);
		if (!same_rows(h1, one))
			abort();	/* the merge is not one pass */
		hist_free(one);
		symbolizer_free(z);
	}
	hist_free(h2);
	hist_free(h1);
	symbolizer_free(z2);
	symbolizer_free(z1);
}

/* top --branch-history: rows by srcline,sym,dso, address paths with branch counts. */
static void
branch_history(const struct session *s, const struct sym_opts *so, struct hist_opts *ho, bool caller)
{
	static const enum hist_key bkeys[] = { HIST_KEY_SRCLINE, HIST_KEY_SYM, HIST_KEY_DSO };
	struct symbolizer *z = symbolizer_new(s, so);
	struct hist *h;
	char buf[256];

	memcpy(ho->keys, bkeys, sizeof bkeys);
	ho->nkeys = 3;
	ho->branch_history = ho->paths_address = true;
	ho->caller_order = caller;
	h = hist_new(s, z, ho);
	fuzz_use(hist_add_session(h, NULL));
	hist_finish(h);
	for (size_t ev = 0; ev < hist_nevents(h); ev++) {
		const uint32_t *rows;
		size_t n = hist_rows(h, ev, 0, &rows);

		for (size_t i = 0; i < n; i++) {
			struct cpath_query q = { .ev = ev, .entry = rows[i], .through = true,
				.chained_only = true, .bottom_up = !caller };
			struct cpath *t = cpath_build(h, &q);

			for (size_t k = 0; k < cpath_count(t); k++) {
				const struct brh_count *c = cpath_node_branch(t, (uint32_t)k);

				fuzz_use(c != NULL ? strlen(brhist_text(c, buf, sizeof buf)) : 0);
				fuzz_use(strlen(cpath_func_name(h, cpath_node(t, (uint32_t)k)->func, buf,
				    sizeof buf)));
			}
			cpath_free(t);
		}
	}
	hist_free(h);
	symbolizer_free(z);
}

/* The off-CPU model of the input's sched_switch samples, and its hist (symbolize/offcpu.h). */
static void
offcpu_hist(struct session *s, const struct sym_opts *so, struct hist_opts *ho)
{
	struct offcpu oc;
	struct symbolizer *z;
	struct hist *h;

	if (offcpu_build(s, &oc) != OFFCPU_OK || oc.n == 0) {
		offcpu_free(&oc);
		return;
	}
	fuzz_use(oc.total_ns + oc.nopen + oc.nbad);
	ho->offcpu = &oc;
	ho->keys[0] = HIST_KEY_STATE;
	ho->nkeys = 1;
	z = symbolizer_new(s, so);
	h = hist_new(s, z, ho);
	fuzz_use(hist_add_session(h, NULL));
	hist_finish(h);
	read_hist(h);
	hist_free(h);
	symbolizer_free(z);
	ho->offcpu = NULL;
	offcpu_free(&oc);
}

/*
 * The parallelism model of the input's switch and exit records (whether or
 * not an attr says context_switch) and a hist by latency keyed by
 * parallelism with children, levels 1-2 only (symbolize/parallel.h).
 */
static void
parallel_hist(struct session *s, const struct sym_opts *so, struct hist_opts *ho)
{
	struct parallel p;
	struct hist_filter f;
	struct symbolizer *z;
	struct hist *h;

	parallel_build(s, &p);
	fuzz_use(p.n + p.nlow + p.nhigh + p.nbad + parallel_at_time(&p, UINT64_MAX / 2) +
	    parallel_at(&p, p.nsamples));
	memset(&f, 0, sizeof f);
	filter_parse_parallelism(&f, "1-2");
	ho->parallel = &p;
	ho->by_latency = true;
	ho->filter = &f;
	ho->keys[0] = HIST_KEY_PARALLELISM;
	ho->keys[1] = HIST_KEY_SYM;
	ho->nkeys = 2;
	z = symbolizer_new(s, so);
	h = hist_new(s, z, ho);
	fuzz_use(hist_add_session(h, NULL));
	hist_finish(h);
	read_hist(h);
	for (size_t ev = 0; ev < hist_nevents(h); ev++)
		fuzz_use(hist_event(h, ev)->total_latency);
	hist_free(h);
	symbolizer_free(z);
	ho->parallel = NULL;
	ho->by_latency = false;
	ho->filter = NULL;
	filter_free(&f);
	parallel_free(&p);
}

/* perf sched timehist's model: every line's fields read, and the summary's tasks. */
static void
timehist_line(void *arg, const struct schedtime_line *l)
{
	uint64_t *sum = arg;

	*sum += l->time + l->cpu + (uint64_t)l->tid + (l->comm ? strlen(l->comm) : 0);
	if (l->d != NULL)
		*sum += l->d->wait + l->d->delay + l->d->run + (uint64_t)l->d->state;
	else
		*sum += (uint64_t)l->wtid + (l->wcomm ? strlen(l->wcomm) : 0);
}

static void
timehist(struct session *s)
{
	struct schedtime_opts so = { .wakeups = true, .max_stack = 5 };
	struct schedtime *st = NULL;
	uint64_t sum = 0;

	if (schedtime_walk(s, &so, timehist_line, &sum, &st, NULL) == SCHEDTIME_OK) {
		struct schedtime_row *v;
		size_t n = schedtime_rows(st, s, &v);

		for (size_t i = 0; i < n; i++)
			sum += strlen(v[i].comm) + (uint64_t)v[i].ppid;
		free(v);
		fuzz_use(sum + schedtime_ntasks(st) + schedtime_ncpus(st));
	}
	schedtime_free(st);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct session *s = fuzz_open(data, size, NULL);
	struct sym_opts so;
	struct hist_opts ho;
	struct symbolizer *z;
	struct hist *h;
	struct tasks *tk;
	uint64_t skipped = 0;

	if (s == NULL)
		return 0;
	fuzz_sym_opts(&so);
	memset(&ho, 0, sizeof ho);
	memcpy(ho.keys, keys, sizeof keys);
	ho.nkeys = NKEYS;
	ho.children = true;
	ho.event = -1;
	ho.max_stack = HIST_DEFAULT_MAX_STACK;
	ho.paths = true;	/* call paths, merged too */
	if (size % 2 == 1) {
		merged(s, &so, &ho);
		session_close(s);
		return 0;
	}
	if (size % 4 == 2) {
		branch_history(s, &so, &ho, size % 8 == 2);
		session_close(s);
		return 0;
	}
	ho.callgraph = true;
	z = symbolizer_new(s, &so);
	h = hist_new(s, z, &ho);
	fuzz_use(hist_add_session(h, &skipped) + skipped);
	hist_finish(h);
	read_hist(h);
	fuzz_use(symbolizer_why_counts(z, NULL, 0));
	hist_free(h);
	symbolizer_free(z);
	tk = tasks_new(s);
	fuzz_use(tk->nrows + tk->nprocs + tk->nroots);
	tasks_free(tk);
	offcpu_hist(s, &so, &ho);
	parallel_hist(s, &so, &ho);
	timehist(s);
	session_close(s);
	return 0;
}
