#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "symbolize/summary.h"
#include "symbolize/tasks.h"

/* Is a more than b: more samples, then the lower pid, then the lower tid. */
static bool
task_above(const struct summary_task *a, const struct summary_task *b)
{
	if (a->samples != b->samples)
		return a->samples > b->samples;
	if (a->pid != b->pid)
		return a->pid < b->pid;
	return a->tid < b->tid;
}

/* Keep t among the top of v (*n of SUMMARY_TOP_TASKS kept, in order). */
static void
task_keep(struct summary_task *v, size_t *n, const struct summary_task *t)
{
	size_t at = *n;

	while (at > 0 && task_above(t, &v[at - 1]))
		at--;
	if (at >= SUMMARY_TOP_TASKS)
		return;
	if (*n < SUMMARY_TOP_TASKS)
		(*n)++;
	memmove(&v[at + 1], &v[at], (*n - 1 - at) * sizeof *v);
	v[at] = *t;
}

void
summary_tasks(const struct session *s, const uint64_t *tsamples, struct summary *out)
{
	const struct thread_table *tt = session_threads(s);
	struct tasks *tk = tasks_new(s);

	out->nprocs = out->nthreads = out->procs_with = out->threads_with = 0;
	for (size_t i = 0; i < tk->nprocs; i++) {
		const struct task_proc *pc = &tk->procs[i];
		struct summary_task t = { pc->pid, pc->pid, pc->leader, pc->samples };

		if (tsamples != NULL) {
			t.samples = 0;
			for (size_t k = 0; k < pc->nthreads; k++)
				t.samples += tsamples[pc->threads[k]];
		}
		if (t.samples == 0)
			continue;
		out->procs_with++;
		task_keep(out->procs, &out->nprocs, &t);
	}
	for (size_t i = 0; i < tt->n; i++) {
		const struct pn_thread *th = &tt->v[i];
		struct summary_task t = { th->pid, th->tid, (uint32_t)i,
					  tsamples != NULL ? tsamples[i] : th->samples };

		if (t.samples == 0)
			continue;
		out->threads_with++;
		task_keep(out->threads, &out->nthreads, &t);
	}
	tasks_free(tk);
}

/* LOST and LOST_SAMPLES records, and the samples they say were lost. */
static void
count_lost(const struct session *s, struct summary *out)
{
	const struct type_counts *c = session_counts(s);
	const struct rec_index *ix = session_index(s);

	if (c->by_type[PF_REC_LOST] == 0 && c->by_type[PF_REC_LOST_SAMPLES] == 0)
		return;
	for (size_t i = 0; i < ix->n; i++) {
		unsigned t = ent_type(index_ent(ix, i));
		struct rec r;
		struct rec_lost l;

		if (t != PF_REC_LOST && t != PF_REC_LOST_SAMPLES)
			continue;
		out->lost_records++;
		if (session_rec(s, ent_loc(index_ent(ix, i)), &r) == 0 && record_lost(&r, &l) == 0)
			out->lost += l.lost;
	}
}

/* The first and last sample's times: the index is in time order. */
static void
sample_span(const struct session *s, struct summary *out)
{
	const struct rec_index *ix = session_index(s);
	size_t i, j;

	for (i = 0; i < ix->n && ent_type(index_ent(ix, i)) != PF_REC_SAMPLE; i++)
		;
	for (j = ix->n; j > i && ent_type(index_ent(ix, j - 1)) != PF_REC_SAMPLE; j--)
		;
	if (i >= j)
		return;
	out->first = index_ent(ix, i)->time;
	out->last = index_ent(ix, j - 1)->time;
	out->has_time = out->first != 0 || out->last != 0;
}

void
summary_new(const struct session *s, struct summary *out)
{
	memset(out, 0, sizeof *out);
	out->samples = session_counts(s)->by_type[PF_REC_SAMPLE];
	sample_span(s, out);
	count_lost(s, out);
	summary_tasks(s, NULL, out);
}

/* Is a hotter than b: more self samples, then the larger self period. */
static bool
func_above(const struct hist_entry *a, const struct hist_entry *b)
{
	if (a->samples != b->samples)
		return a->samples > b->samples;
	return a->period > b->period;
}

size_t
summary_hot(struct hist *h, size_t ev, const struct hist_select *sel, struct hist_entry *out,
    size_t n)
{
	const struct hist_entry *const *m;
	size_t nm, k = 0;

	if (ev >= hist_nevents(h) || n == 0)
		return 0;
	nm = hist_rows_self(h, ev, sel, HIST_KEEP(HIST_KEY_DSO) | HIST_KEEP(HIST_KEY_SYM), 0.0,
	    &m);
	for (size_t i = 0; i < nm; i++) {
		size_t at = k;

		while (at > 0 && func_above(m[i], &out[at - 1]))
			at--;
		if (at >= n)
			continue;
		if (k < n)
			k++;
		memmove(&out[at + 1], &out[at], (k - 1 - at) * sizeof *out);
		out[at] = *m[i];
	}
	return k;
}

static int
unres_cmp(const void *pa, const void *pb)
{
	const struct summary_unres *a = pa, *b = pb;

	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	if (a->frames != b->frames)
		return a->frames > b->frames ? -1 : 1;
	return 0;
}

size_t
summary_unresolved(const struct hist *h, struct summary_unres **out)
{
	const struct hist_why *w;
	size_t n = hist_whys(h, &w), k = 0;
	struct summary_unres *v;

	*out = NULL;
	if (n == 0)
		return 0;
	v = xcalloc(n, sizeof *v);
	for (size_t i = 0; i < n; i++) {
		struct summary_unres *u = &v[k];
		uint64_t best = 0, best_frames = 0;

		u->dso = w[i].dso;
		u->why = SYM_WHY_OK;
		for (unsigned r = 0; r < SYM_WHY_COUNT; r++) {
			if (r == SYM_WHY_OK)
				continue;
			u->samples += w[i].self[r];
			u->frames += w[i].chain[r];
			if (w[i].self[r] > best || (best == 0 && w[i].chain[r] > best_frames)) {
				best = w[i].self[r];
				best_frames = w[i].chain[r];
				u->why = r;
			}
		}
		if (u->samples || u->frames)
			k++;
	}
	/* a stable order: ties keep hist_whys' order (qsort is not stable) */
	for (size_t i = 1; i < k; i++) {
		struct summary_unres t = v[i];
		size_t j = i;

		while (j > 0 && unres_cmp(&t, &v[j - 1]) < 0) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = t;
	}
	if (k == 0) {
		free(v);
		return 0;
	}
	*out = v;
	return k;
}
