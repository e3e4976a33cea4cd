#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "symbolize/tasks.h"

/*
 * The process and thread tree (see tasks.h): the threads level as perf
 * report --tasks builds it, the processes level by pid.
 */

#define NONE32	TASKS_NONE

/* ---- threads level ---- */

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
    uint32_t depth, struct task_row *out, size_t *n)
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

/* The threads level: one row per thread lifetime, depth-first. */
static size_t
thread_rows(const struct session *s, struct task_row **out)
{
	const struct thread_table *t = session_threads(s);
	struct tlink *tl = xcalloc(t->n + 1, sizeof *tl);
	uint32_t *order = xcalloc(t->n + 1, sizeof *order);
	struct task_row *rows = xcalloc(t->n + 1, sizeof *rows);
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

/* ---- processes level ---- */

/* Threads by pid, the leader first, then by start, then tid. */
static int
cmp_threads(const void *a, const void *b, void *arg)
{
	const struct thread_table *t = arg;
	const struct pn_thread *x = &t->v[*(const uint32_t *)a], *y = &t->v[*(const uint32_t *)b];

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if ((x->tid == x->pid) != (y->tid == y->pid))
		return x->tid == x->pid ? -1 : 1;	/* the leader first */
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* Processes by start, then pid. */
static int
cmp_procs(const void *a, const void *b, void *arg)
{
	const struct tasks *tk = arg;
	const struct task_proc *x = &tk->procs[*(const uint32_t *)a];
	const struct task_proc *y = &tk->procs[*(const uint32_t *)b];

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

uint32_t
tasks_proc_find(const struct tasks *tk, int32_t pid)
{
	size_t lo = 0, hi = tk->nprocs;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (tk->procs[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < tk->nprocs && tk->procs[lo].pid == pid ? (uint32_t)lo : NONE32;
}

/* One process per pid, its threads and their sums. */
static void
group_procs(struct tasks *tk, const struct thread_table *t)
{
	uint32_t *order = xcalloc(t->n ? t->n : 1, sizeof *order);

	for (size_t i = 0; i < t->n; i++)
		order[i] = (uint32_t)i;
	qsort_r(order, t->n, sizeof *order, cmp_threads, (void *)t);
	tk->thread_order = order;
	tk->procs = xcalloc(t->n ? t->n : 1, sizeof *tk->procs);
	for (size_t i = 0; i < t->n;) {
		size_t j = i;
		struct task_proc *pc = &tk->procs[tk->nprocs++];
		const struct pn_thread *l = &t->v[order[i]];

		pc->pid = l->pid;
		pc->leader = order[i];
		pc->threads = &order[i];
		pc->parent = NONE32;
		pc->start = UINT64_MAX;
		pc->exited = true;
		while (j < t->n && t->v[order[j]].pid == l->pid) {
			const struct pn_thread *th = &t->v[order[j]];

			pc->samples += th->samples;
			if (th->start < pc->start)
				pc->start = th->start;
			if (th->end > pc->end)
				pc->end = th->end;
			if (!th->exited)
				pc->exited = false;
			j++;
		}
		pc->nthreads = j - i;
		i = j;
	}
}

/*
 * The fork tree: a process's parent is the process its leader's ppid
 * names (none if that would make a cycle); children and roots by start.
 */
static void
fork_tree(struct tasks *tk, const struct thread_table *t)
{
	size_t *at = xcalloc(tk->nprocs + 1, sizeof *at);

	for (size_t i = 0; i < tk->nprocs; i++) {
		struct task_proc *pc = &tk->procs[i];
		const struct pn_thread *l = &t->v[pc->leader];
		uint32_t par, a;

		if (l->ppid < 0 || l->ppid == pc->pid || (par = tasks_proc_find(tk, l->ppid)) == NONE32)
			continue;
		for (a = par; a != NONE32 && a != i; a = tk->procs[a].parent)
			;
		if (a == NONE32) {	/* no cycles: the parent must not descend from us */
			pc->parent = par;
			at[par + 1]++;
		}
	}
	for (size_t i = 0; i < tk->nprocs; i++)
		at[i + 1] += at[i];
	tk->kidv = xcalloc(tk->nprocs + 1, sizeof *tk->kidv);
	tk->roots = xcalloc(tk->nprocs + 1, sizeof *tk->roots);
	for (size_t i = 0; i < tk->nprocs; i++) {
		tk->procs[i].kids = &tk->kidv[at[i]];
		if (tk->procs[i].parent == NONE32)
			tk->roots[tk->nroots++] = (uint32_t)i;
		else
			tk->kidv[at[tk->procs[i].parent] + tk->procs[tk->procs[i].parent].nkids++] =
			    (uint32_t)i;
	}
	for (size_t i = 0; i < tk->nprocs; i++)
		if (tk->procs[i].nkids > 1)
			qsort_r((void *)tk->procs[i].kids, tk->procs[i].nkids, sizeof(uint32_t),
			    cmp_procs, tk);
	qsort_r(tk->roots, tk->nroots, sizeof *tk->roots, cmp_procs, tk);
	free(at);
}

struct tasks *
tasks_new(const struct session *s)
{
	const struct thread_table *tt = session_threads(s);
	struct tasks *tk = xcalloc(1, sizeof *tk);

	tk->nrows = thread_rows(s, &tk->rows);
	group_procs(tk, tt);
	fork_tree(tk, tt);
	return tk;
}

void
tasks_free(struct tasks *tk)
{
	if (tk == NULL)
		return;
	free(tk->rows);
	free(tk->procs);
	free(tk->roots);
	free(tk->thread_order);
	free(tk->kidv);
	free(tk);
}
