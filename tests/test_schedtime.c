/*
 * Criterion tests of symbolize/schedtime.c: the times of perf sched
 * timehist fed switch by switch (a cpu's first switch, wait and sch delay,
 * the idle task per cpu, wakeups that come before the switch-out or twice,
 * a preempted task as perf 6.1 counts it, time going backwards), the state
 * letters, and the walk over the perf-made fixtures sched.data and
 * sched-g.data: the summary's tasks in perf's order, --tid, the frames of
 * each switch-out.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/schedtime.h"
#include "symbolize/symbolizer.h"
#include "tests/helpers.h"

Test(schedtime, first_switch_on_a_cpu_is_all_zero)
{
	struct schedtime *st = schedtime_new();
	struct schedtime_delta d;

	schedtime_switch(st, 1000, 0, 7, 7, 1, &d);
	cr_assert_eq(d.run, 0);
	cr_assert_eq(d.wait, 0);
	cr_assert_eq(d.delay, 0);
	cr_assert_eq(d.state, 'S');
	schedtime_free(st);
}

Test(schedtime, run_wait_and_delay)
{
	struct schedtime *st = schedtime_new();
	struct schedtime_delta d;
	const struct schedtime_task *k;

	/* cpu 1: 7 out at 100 (S), 8 out at 300, woken 7 at 350, 9 out at 400 (7 in), 7 out at 1000 */
	schedtime_switch(st, 100, 1, 7, 7, 1, &d);
	schedtime_switch(st, 300, 1, 8, 8, 1, &d);
	cr_assert_eq(d.run, 200);
	schedtime_wakeup(st, 350, 7);
	schedtime_wakeup(st, 380, 7);	/* the first wakeup counts */
	schedtime_switch(st, 400, 1, 9, 9, 2, &d);
	cr_assert_eq(d.state, 'D');
	k = schedtime_switch(st, 1000, 1, 7, 7, 1, &d);
	cr_assert_eq(d.run, 600);
	cr_assert_eq(d.wait, 300);	/* out at 100, back in at 400 */
	cr_assert_eq(d.sleep, 300);
	cr_assert_eq(d.delay, 50);	/* woken at 350, in at 400 */
	cr_assert_eq(k->tid, 7);
	cr_assert_eq(k->n, 2);
	cr_assert_eq(k->run_total, 600);
	cr_assert_eq(k->run_min, 0);
	cr_assert_eq(k->run_max, 600);
	schedtime_free(st);
}

Test(schedtime, idle_task_per_cpu_and_preempted_not_ready)
{
	struct schedtime *st = schedtime_new();
	struct schedtime_delta d;
	const struct schedtime_task *a, *b;

	a = schedtime_switch(st, 100, 0, 0, 0, 0, &d);
	b = schedtime_switch(st, 110, 3, 0, 0, 0, &d);
	cr_assert_neq(a, b);
	cr_assert_eq(b->tid, -1);
	cr_assert_eq(b->cpu, 3);
	cr_assert_eq(schedtime_ncpus(st), 4);
	/* 5 preempted (R) at 200 on cpu 0, back in at 500: perf 6.1 gives no delay,
	 * and counts the wait as preempt time (-s --state) */
	schedtime_switch(st, 200, 0, 5, 5, 0, &d);
	cr_assert_eq(d.state, 'R');
	schedtime_switch(st, 500, 0, 6, 6, 1, &d);
	schedtime_switch(st, 600, 0, 5, 5, 1, &d);
	cr_assert_eq(d.wait, 300);
	cr_assert_eq(d.delay, 0);
	cr_assert_eq(d.preempt, 300);
	cr_assert_eq(d.sleep, 0);
	schedtime_free(st);
}

Test(schedtime, wakeup_after_switch_in_is_time_travel)
{
	struct schedtime *st = schedtime_new();
	struct schedtime_delta d;

	schedtime_switch(st, 100, 0, 7, 7, 1, &d);
	schedtime_switch(st, 200, 0, 8, 8, 1, &d);	/* 7 in at 200 */
	schedtime_wakeup(st, 250, 7);			/* after it: not counted */
	schedtime_switch(st, 300, 0, 7, 7, 1, &d);
	cr_assert_eq(d.delay, 0);
	cr_assert_eq(d.wait, 100);
	cr_assert_eq(d.run, 100);
	schedtime_free(st);
}

Test(schedtime, state_letters)
{
	cr_assert_eq(schedtime_state_char(0), 'R');
	cr_assert_eq(schedtime_state_char(1), 'S');
	cr_assert_eq(schedtime_state_char(2), 'D');
	cr_assert_eq(schedtime_state_char(0x10), 'Z');
	cr_assert_eq(schedtime_state_char(0x80), 'K');
	cr_assert_eq(schedtime_state_char(0x200), 'P');
	cr_assert_eq(schedtime_state_char(0x400), '?');
}

struct counts {
	size_t nswitch, nwake, nidle;
	uint64_t run;
};

static void
count_line(void *arg, const struct schedtime_line *l)
{
	struct counts *c = arg;

	if (l->kind == SCHEDTIME_WAKEUP) {
		c->nwake++;
		cr_assert_not_null(l->wcomm);
		return;
	}
	c->nswitch++;
	c->run += l->d->run;
	cr_assert_not_null(l->comm);
	if (strcmp(l->comm, "<idle>") == 0)
		c->nidle++;
}

Test(schedtime, walks_the_fixture)
{
	struct perf_err err = { 0 };
	struct session *s = session_open(test_data("sched.data"), NULL, &err);
	struct schedtime *st;
	struct schedtime_opts o = { .wakeups = true };
	struct counts c = { 0 };

	cr_assert_not_null(s);
	cr_assert_eq(schedtime_walk(s, &o, count_line, &c, &st, NULL), SCHEDTIME_OK);
	cr_assert_not_null(st);
	/* perf sched timehist prints 502 switch lines (expected/sched.data.timehist.txt) */
	cr_assert_eq(c.nswitch, 502);
	cr_assert_gt(c.nwake, 0);
	cr_assert_gt(c.nidle, 0);
	cr_assert_gt(schedtime_ntasks(st), 2);
	schedtime_free(st);
	session_close(s);
}

Test(schedtime, no_switch_samples)
{
	struct perf_err err = { 0 };
	struct session *s = session_open(test_data("plain.data"), NULL, &err);
	struct schedtime *st = (struct schedtime *)1;
	struct schedtime_opts o = { 0 };

	cr_assert_not_null(s);
	cr_assert_eq(schedtime_walk(s, &o, count_line, NULL, &st, NULL), SCHEDTIME_NO_EVENT);
	cr_assert_null(st);
	session_close(s);
}

/* A damaged cpu number neither hangs nor allocates for it: the switch is left out. */
Test(schedtime, damaged_cpu_left_out)
{
	struct schedtime *st = schedtime_new();
	struct schedtime_delta d;

	cr_expect_null(schedtime_switch(st, 100, UINT32_MAX, 0, 0, 0, &d));
	cr_expect_null(schedtime_switch(st, 100, SCHEDTIME_MAX_CPU + 1, 7, 7, 1, &d));
	cr_expect_eq(schedtime_ncpus(st), 0, "no cpu taken from it");
	cr_expect_not_null(schedtime_switch(st, 200, SCHEDTIME_MAX_CPU, 7, 7, 1, &d));
	cr_expect_eq(schedtime_ncpus(st), SCHEDTIME_MAX_CPU + 1);
	schedtime_free(st);
}

/* perf sched timehist -s lists the tasks that ran as perf 6.1's thread table holds them:
 * still running first, then the exited; each part by tid modulo 256, then tid. */
Test(schedtime, summary_rows_in_perfs_order)
{
	struct perf_err err = { 0 };
	struct session *s = session_open(test_data("sched.data"), NULL, &err);
	struct schedtime_opts o = { 0 };
	struct schedtime_row *v;
	struct schedtime *st;
	size_t n;

	cr_assert_not_null(s);
	cr_assert_eq(schedtime_walk(s, &o, count_line, &(struct counts){ 0 }, &st, NULL),
	    SCHEDTIME_OK);
	n = schedtime_rows(st, s, &v);
	/* expected/sched.data.timehist-s.txt: 15 running, 12 terminated */
	cr_assert_eq(n, 27);
	cr_expect_eq(v[0].tid, 15);
	cr_expect_str_eq(v[0].comm, "rcu_preempt");
	cr_expect_eq(v[0].ppid, 2);
	cr_expect_not(v[0].dead);
	for (size_t i = 1; i < n; i++) {
		uint32_t a = (uint32_t)v[i - 1].tid % 256, b = (uint32_t)v[i].tid % 256;

		cr_expect(v[i - 1].dead < v[i].dead || (v[i - 1].dead == v[i].dead && a <= b),
		    "row %zu out of order", i);
		cr_expect_gt(v[i].k->n, 0);
	}
	/* the task perf makes of exiting tasks (tid -1): its name is ":-1" */
	cr_expect_eq(v[14].tid, -1);
	cr_expect_str_eq(v[14].comm, ":-1");
	cr_expect_eq(v[14].ppid, -1);
	cr_expect(v[15].dead);
	free(v);
	schedtime_free(st);
	session_close(s);
}

static void
tid_line(void *arg, const struct schedtime_line *l)
{
	int32_t *tid = arg;

	if (l->kind == SCHEDTIME_SWITCH)
		cr_expect_eq(l->tid, *tid);
}

/* --tid: only that thread's switches; the others are counted as left out (so no idle times). */
Test(schedtime, tid_filter)
{
	struct perf_err err = { 0 };
	struct session *s = session_open(test_data("sched.data"), NULL, &err);
	int32_t tid = 2983;
	struct schedtime_opts o = { .tids = &tid, .ntids = 1 };
	struct schedtime *st;

	cr_assert_not_null(s);
	cr_assert_eq(schedtime_walk(s, &o, tid_line, &tid, &st, NULL), SCHEDTIME_OK);
	cr_expect_gt(schedtime_skipped(st), 0);
	for (size_t i = 0; i < schedtime_ntasks(st); i++) {
		const struct schedtime_task *k = schedtime_task_at(st, i);

		cr_expect(k->tid == tid || k->n == 0, "task %d ran", k->tid);
	}
	schedtime_free(st);
	session_close(s);
}

struct chain_check {
	size_t lines, frames, longest;
};

static void
chain_line(void *arg, const struct schedtime_line *l)
{
	struct chain_check *c = arg;

	if (l->kind != SCHEDTIME_SWITCH || l->tid == 0)
		return;
	c->lines++;
	c->frames += l->nchain;
	if (l->nchain > c->longest)
		c->longest = l->nchain;
	for (size_t i = 0; i < l->nchain; i++) {
		cr_expect_str_neq(l->chain[i], "schedule");
		cr_expect_str_neq(l->chain[i], "__schedule");
	}
}

/* The frames of each switch-out: at most max_stack + 2 of the chain, the scheduler's own
 * functions left out; none when a recording has no callchains. */
Test(schedtime, callchains)
{
	struct perf_err err = { 0 };
	struct session *s = session_open(test_data("sched-g.data"), NULL, &err);
	char ksyms[4096];
	struct sym_opts so = { .perfmap_dir = "/nonexistent" };
	struct schedtime_opts o = { .max_stack = 5 };
	struct chain_check c = { 0 };
	struct schedtime *st;
	bool chains;

	cr_assert_not_null(s);
	snprintf(ksyms, sizeof ksyms, "%s", test_data("sched-g.kallsyms"));
	so.kallsyms = ksyms;
	o.z = symbolizer_new(s, &so);
	cr_assert_eq(schedtime_walk(s, &o, chain_line, &c, &st, &chains), SCHEDTIME_OK);
	cr_expect(chains);
	cr_expect_gt(c.lines, 0);
	cr_expect_gt(c.frames, c.lines);
	cr_expect_leq(c.longest, 7);
	schedtime_free(st);
	c = (struct chain_check){ 0 };
	o.max_stack = 0;
	cr_assert_eq(schedtime_walk(s, &o, chain_line, &c, &st, &chains), SCHEDTIME_OK);
	cr_expect_leq(c.longest, 2);
	schedtime_free(st);
	symbolizer_free(o.z);
	session_close(s);

	s = session_open(test_data("sched.data"), NULL, &err);
	cr_assert_not_null(s);
	o.z = symbolizer_new(s, &so);
	cr_assert_eq(schedtime_walk(s, &o, chain_line, &c, &st, &chains), SCHEDTIME_OK);
	cr_expect_not(chains);
	schedtime_free(st);
	symbolizer_free(o.z);
	session_close(s);
}
