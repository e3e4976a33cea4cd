#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "symbolize/hist.h"

#define NONE32	UINT32_MAX

/* ---- the process tree ---- */

struct tlink {
	uint32_t	parent, first, next;	/* thread ids */
	uint64_t	proc_samples;
};

/* The leader (tid == pid) of pid's process around time, or NONE32. */
static uint32_t
leader_of(const struct thread_table *t, int32_t pid, uint64_t time)
{
	uint32_t l;

	if (pid < 0)
		return NONE32;
	l = thread_table_find(t, pid, time);
	if (l != NONE32 && t->v[l].pid != t->v[l].tid)
		return NONE32;
	return l;
}

static int
cmp_start(const void *a, const void *b, void *arg)
{
	const struct thread_table *t = arg;
	const struct pn_thread *x = &t->v[*(const uint32_t *)a], *y = &t->v[*(const uint32_t *)b];

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

static void
task_emit(const struct thread_table *t, const struct tlink *tl, uint32_t th, uint32_t parent_row,
    uint32_t depth, struct hist_task *out, size_t *n)
{
	/* Iterative over siblings, recursive over depth (trees are shallow). */
	for (; th != NONE32; th = tl[th].next) {
		size_t row = (*n)++;

		out[row].thread = th;
		out[row].parent = parent_row;
		out[row].depth = depth;
		out[row].leader = t->v[th].pid == t->v[th].tid;
		out[row].proc_samples = tl[th].proc_samples;
		if (tl[th].first != NONE32 && depth < 10000)
			task_emit(t, tl, tl[th].first, (uint32_t)row, depth + 1, out, n);
		if (parent_row == NONE32)
			break;
	}
}

size_t
hist_tasks(const struct session *s, struct hist_task **out)
{
	const struct thread_table *t = &s->threads;
	struct tlink *tl = xcalloc(t->n + 1, sizeof *tl);
	uint32_t *order = xcalloc(t->n + 1, sizeof *order);
	struct hist_task *rows = xcalloc(t->n + 1, sizeof *rows);
	size_t n = 0;

	for (size_t i = 0; i < t->n; i++) {
		const struct pn_thread *p = &t->v[i];
		uint32_t par = NONE32;

		tl[i].first = tl[i].next = NONE32;
		if (p->pid != p->tid) {
			par = leader_of(t, p->pid, p->start);
		} else if (p->parent != NONE32) {
			const struct pn_thread *pt = &t->v[p->parent];

			par = pt->pid == pt->tid ? p->parent : leader_of(t, pt->pid, p->start);
			if (par == NONE32)
				par = p->parent;
		} else if (p->ppid >= 0) {
			par = leader_of(t, p->ppid, p->start);
		}
		tl[i].parent = par == (uint32_t)i ? NONE32 : par;
		order[i] = (uint32_t)i;
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct pn_thread *p = &t->v[i];
		uint32_t l = p->pid == p->tid ? (uint32_t)i : leader_of(t, p->pid, p->start);

		if (l != NONE32)
			tl[l].proc_samples += p->samples;
	}
	qsort_r(order, t->n, sizeof *order, cmp_start, (void *)t);
	/* Link children in reverse order so lists come out sorted; no cycles. */
	for (size_t k = t->n; k-- > 0;) {
		uint32_t i = order[k], par = tl[i].parent, up;
		size_t guard = 0;

		for (up = par; up != NONE32 && up != i && guard <= t->n; up = tl[up].parent)
			guard++;
		if (up != NONE32)
			par = tl[i].parent = NONE32;
		if (par != NONE32) {
			tl[i].next = tl[par].first;
			tl[par].first = i;
		}
	}
	for (size_t k = 0; k < t->n; k++)
		if (tl[order[k]].parent == NONE32)
			task_emit(t, tl, order[k], NONE32, 0, rows, &n);
	free(tl);
	free(order);
	*out = rows;
	return n;
}

