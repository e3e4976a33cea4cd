/* Criterion tests of symbolize/tasks.c: the process and thread tree that
 * perfnav tree and the processes pane share. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/tasks.h"
#include "tests/helpers.h"

/* fork.data: a parent that forks two children, one of which execs. */
Test(tasks, thread_rows_fork_fixture)
{
	struct perf_err err;
	struct session *s = session_open(test_data("fork.data"), NULL, &err);
	struct tasks *tk;
	const struct task_row *rows;
	const struct thread_table *t;
	size_t n;
	uint64_t total = 0;

	cr_assert_not_null(s, "%s", err.msg);
	t = session_threads(s);
	tk = tasks_new(s);
	rows = tk->rows;
	n = tk->nrows;
	cr_assert_eq(n, t->n);
	cr_assert_eq(n, 3);
	cr_assert_eq(rows[0].depth, 0);
	cr_assert_eq(rows[0].parent, UINT32_MAX);
	cr_assert(rows[0].leader);
	cr_assert_eq(t->v[rows[0].thread].pid, 26193);
	for (size_t i = 1; i < n; i++) {
		cr_assert_eq(rows[i].depth, 1);
		cr_assert_eq(rows[i].parent, 0);
		cr_assert_eq(t->v[rows[i].thread].ppid, 26193);
		cr_assert_lt(t->v[rows[i - 1].thread].start, t->v[rows[i].thread].start + (i == 1));
	}
	for (size_t i = 0; i < t->n; i++)
		total += t->v[i].samples;
	cr_assert_eq(total, session_counts(s)->by_type[PF_REC_SAMPLE]);
	cr_assert_eq(rows[0].proc_samples, t->v[rows[0].thread].samples);
	/* the parent was perf-exec, then exec'd forkexec */
	cr_assert_str_eq(thread_comm_at(t, rows[0].thread, 0), "perf-exec");
	cr_assert_str_eq(thread_comm_at(t, rows[0].thread, UINT64_MAX), "forkexec");
	tasks_free(tk);
	session_close(s);
}

/* fork.data at the processes level: one root, its two children by start. */
Test(tasks, procs_fork_fixture)
{
	struct perf_err err;
	struct session *s = session_open(test_data("fork.data"), NULL, &err);
	struct tasks *tk;
	const struct task_proc *root;

	cr_assert_not_null(s, "%s", err.msg);
	tk = tasks_new(s);
	cr_assert_eq(tk->nprocs, 3);
	cr_assert_eq(tk->nroots, 1);
	root = &tk->procs[tk->roots[0]];
	cr_assert_eq(root->pid, 26193);
	cr_assert_eq(root->parent, TASKS_NONE);
	cr_assert_eq(root->nkids, 2);
	for (size_t k = 0; k < root->nkids; k++) {
		const struct task_proc *kid = &tk->procs[root->kids[k]];

		cr_assert_eq(kid->parent, tk->roots[0]);
		cr_assert_eq(session_threads(s)->v[kid->leader].ppid, 26193);
		cr_assert_eq(kid->nthreads, 1);
		cr_assert_eq(tasks_proc_find(tk, kid->pid), root->kids[k]);
	}
	cr_assert_leq(tk->procs[root->kids[0]].start, tk->procs[root->kids[1]].start);
	cr_assert_eq(tasks_proc_find(tk, 1), TASKS_NONE);
	tasks_free(tk);
	session_close(s);
}

/* The two levels describe the same threads, each once. */
static void
check_levels(const struct session *s, const struct tasks *tk)
{
	const struct thread_table *t = session_threads(s);
	uint8_t *in_rows = calloc(t->n + 1, 1), *in_procs = calloc(t->n + 1, 1);
	uint8_t *placed = calloc(tk->nprocs + 1, 1);
	uint64_t samples = 0, proc_samples = 0;

	cr_assert_eq(tk->nrows, t->n);
	for (size_t i = 0; i < tk->nrows; i++) {
		const struct task_row *r = &tk->rows[i];

		cr_assert_lt(r->thread, t->n);
		cr_assert_eq(in_rows[r->thread]++, 0, "thread %u twice", r->thread);
		cr_assert_eq(r->leader, t->v[r->thread].pid == t->v[r->thread].tid);
		if (r->parent == TASKS_NONE)
			cr_assert_eq(r->depth, 0);
		else
			cr_assert(r->parent < i && r->depth == tk->rows[r->parent].depth + 1);
		samples += t->v[r->thread].samples;
	}
	for (size_t p = 0; p < tk->nprocs; p++) {
		const struct task_proc *pc = &tk->procs[p];
		uint64_t sum = 0;

		cr_assert(p == 0 || tk->procs[p - 1].pid < pc->pid, "procs by pid");
		cr_assert_eq(pc->threads[0], pc->leader);
		for (size_t k = 0; k < pc->nthreads; k++) {
			cr_assert_eq(t->v[pc->threads[k]].pid, pc->pid);
			cr_assert_eq(in_procs[pc->threads[k]]++, 0);
			sum += t->v[pc->threads[k]].samples;
			cr_assert_leq(pc->start, t->v[pc->threads[k]].start);
		}
		cr_assert_eq(pc->samples, sum);
		proc_samples += sum;
		for (size_t k = 0; k < pc->nkids; k++) {
			cr_assert_eq(tk->procs[pc->kids[k]].parent, p);
			cr_assert_eq(placed[pc->kids[k]]++, 0);
			cr_assert(k == 0 || tk->procs[pc->kids[k - 1]].start <=
			    tk->procs[pc->kids[k]].start, "kids by start");
		}
	}
	for (size_t i = 0; i < tk->nroots; i++) {
		cr_assert_eq(tk->procs[tk->roots[i]].parent, TASKS_NONE);
		cr_assert_eq(placed[tk->roots[i]]++, 0);
	}
	for (size_t p = 0; p < tk->nprocs; p++)
		cr_assert_eq(placed[p], 1, "proc %zu is a root or one process's child", p);
	for (size_t i = 0; i < t->n; i++)
		cr_assert(in_rows[i] && in_procs[i]);
	cr_assert_eq(samples, proc_samples);
	free(in_rows);
	free(in_procs);
	free(placed);
}

Test(tasks, levels_agree_on_every_fixture)
{
	static const char *const names[] = {
		"plain.data", "fp.data", "dwarf.data", "fork.data", "pipe.data", "multi.data",
		"group.data", "switch.data", "tracepoint.data", "zstd.data", "dir.data",
	};

	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		struct perf_err err;
		struct session *s = session_open(test_data(names[i]), NULL, &err);
		struct tasks *tk;

		cr_assert_not_null(s, "%s: %s", names[i], err.msg);
		tk = tasks_new(s);
		check_levels(s, tk);
		tasks_free(tk);
		session_close(s);
	}
}
