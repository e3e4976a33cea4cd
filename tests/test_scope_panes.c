/*
 * Criterion tests of the scope in the panes that count samples themselves
 * (tui/scope.h): the events list and the processes follow the time steps
 * and the start options.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/cpath.h"
#include "symbolize/filter.h"
#include "symbolize/hist.h"
#include "symbolize/symbolizer.h"
#include "tests/helpers.h"
#include "tests/tui_helpers.h"
#include "tui/nav.h"
#include "tui/pane.h"
#include "tui/pane/hot_impl.h"
#include "tui/scope.h"
#include "tui/symbols.h"
#include "tui/widget.h"

/* The samples the processes pane counts, summed over its process rows. */
static uint64_t
process_samples(struct pane *pr)
{
	struct row r;
	uint64_t sum = 0;

	for (size_t i = 0; i < pr->ops->nrows(pr); i++) {
		row_reset(&r);
		pr->ops->row(pr, i, &r);
		if (r.col[0] != NULL && strchr(r.col[0], '/') == NULL)	/* a process row */
			sum += strtoull(r.col[2], NULL, 10);
	}
	return sum;
}

/* A time step of the scope: the events list and the processes show only its range. */
Test(scope, time_scope_in_events_and_processes)
{
	struct session *s = open_fixture("fork.data");
	const struct rec_index *ix = session_index(s);
	struct symbols *sy = fixture_symbols(s);
	struct pane ev, pr;
	struct nav_view v;
	uint64_t a, b, recs = 0, samples = 0, sum = 0;

	cr_assert_gt(ix->n, 10);
	a = index_ent(ix, ix->n / 4)->time;
	b = index_ent(ix, ix->n / 2)->time;
	for (size_t i = 0; i < ix->n; i++)
		if (index_ent(ix, i)->time == 0 || (index_ent(ix, i)->time >= a && index_ent(ix, i)->time <= b)) {
			recs++;	/* a record without a time is in, as with perf's --time */
			samples += ent_type(index_ent(ix, i)) == PF_REC_SAMPLE;
		}
	cr_assert(samples > 0 && recs < ix->n);
	cr_assert_eq(pane_create_sym(&ev, PANE_EVENTS, s, NULL, sy), 0);
	cr_assert_eq(pane_create_sym(&pr, PANE_PROCS, s, NULL, sy), 0);
	nav_view_init(&v, PANE_EVENTS);
	ev.ops->enter(&ev, &v);
	cr_assert_eq(pane_apply_time(&ev, a, b), PANE_HANDLED | PANE_PUSH);
	cr_expect_eq(ev.push.target, NAV_T_TIME);
	cr_expect_eq(ev.push.arg, a - a % 1000, "to the microsecond");
	cr_expect_eq(ev.push.arg2, b - b % 1000);
	cr_expect_eq(pane_apply_time(&ev, b, a) & PANE_MSG, PANE_MSG, "an empty range: refused");
	cr_assert(scope_time_push(&sy->scope, a, b));
	ev.ops->resize(&ev, 20, 100);
	pr.ops->resize(&pr, 20, 100);
	cr_expect_eq(widget_count(&ev.w), recs, "the events of the range and those without a time");
	sum = process_samples(&pr);
	cr_expect_eq(sum, samples, "the processes' samples are those of the range");
	scope_time_truncate(&sy->scope, 0);
	ev.ops->resize(&ev, 20, 100);
	cr_expect_eq(widget_count(&ev.w), ix->n, "every event again");
	pane_destroy(&ev);
	pane_destroy(&pr);
	symbols_free(sy);
	session_close(s);
}

/* The start options (perfnav --tid N): the events list and the processes follow them too. */
Test(scope, start_scope_in_events_and_processes)
{
	struct session *s = open_fixture("fork.data");
	const struct rec_index *ix = session_index(s);
	struct hist_filter f = { 0 };
	struct sym_opts so = { .buildid_dir = TEST_DATA "/buildid", .kallsyms = "/dev/null" };
	struct symbols *sy;
	struct pane ev, pr;
	struct nav_view v;
	uint64_t recs = 0, samples = 0, sum = 0;
	int32_t tid = -1;
	char buf[32];

	for (size_t i = 0; i < ix->n && tid < 0; i++)
		if (ent_type(index_ent(ix, i)) == PF_REC_SAMPLE)
			tid = session_ent_who(s, i).tid;
	for (size_t i = 0; i < ix->n; i++) {
		struct ent_who w = session_ent_who(s, i);

		recs += w.pid < 0 || w.tid == tid;
		samples += ent_type(index_ent(ix, i)) == PF_REC_SAMPLE && w.tid == tid;
	}
	snprintf(buf, sizeof buf, "%d", tid);
	cr_assert_eq(filter_parse_tids(&f, buf), 0);
	sy = symbols_new(s, &so, &f);
	cr_assert_eq(pane_create_sym(&ev, PANE_EVENTS, s, NULL, sy), 0);
	cr_assert_eq(pane_create_sym(&pr, PANE_PROCS, s, NULL, sy), 0);
	nav_view_init(&v, PANE_EVENTS);
	ev.ops->enter(&ev, &v);
	ev.ops->resize(&ev, 20, 100);
	pr.ops->resize(&pr, 20, 100);
	cr_expect_eq(widget_count(&ev.w), recs, "the thread's records and those of no thread");
	cr_expect_lt(recs, ix->n);
	sum = process_samples(&pr);
	cr_expect_eq(sum, samples, "only the thread's samples counted");
	pane_destroy(&ev);
	pane_destroy(&pr);
	symbols_free(sy);
	filter_free(&f);
	session_close(s);
}

/*
 * A recording whose hist cannot be recounted (branch stacks): a thread
 * zoom still narrows the events list and the processes (by the zoom's
 * threads), and the hot functions select its rows themselves.
 */
Test(scope, zoom_without_a_recount)
{
	struct session *s = open_fixture("branch.data");
	const struct rec_index *ix = session_index(s);
	struct symbols *sy = fixture_symbols(s);
	struct pane ev;
	struct nav_view v;
	size_t samples = 0, shown = 0;

	symbols_run(sy);
	cr_assert(scope_zoom(&sy->scope, SZ_TID, 7, 7, 0, "thread 7"));
	cr_assert_eq(symbols_apply_scope(sy), 0);
	cr_expect_not(sy->scope.recounted, "branch stacks: no recount");
	cr_expect_not_null(scope_sel(&sy->scope), "the panes select the zoom themselves");
	cr_assert_eq(pane_create_sym(&ev, PANE_EVENTS, s, NULL, sy), 0);
	nav_view_init(&v, PANE_EVENTS);
	ev.ops->enter(&ev, &v);
	ev.ops->resize(&ev, 20, 100);
	for (size_t i = 0; i < ix->n; i++)
		samples += ent_type(index_ent(ix, i)) == PF_REC_SAMPLE;
	for (size_t i = 0; i < widget_count(&ev.w); i++)
		shown += ent_type(index_ent(ix, widget_source(&ev.w, i))) == PF_REC_SAMPLE;
	cr_assert_gt(samples, 0);
	cr_expect_eq(shown, 0, "no sample of thread 7 (the recording's are 42's): %zu", shown);
	cr_assert(scope_undo(&sy->scope));
	cr_assert_eq(symbols_apply_scope(sy), 0);
	ev.ops->resize(&ev, 20, 100);
	shown = 0;
	for (size_t i = 0; i < widget_count(&ev.w); i++)
		shown += ent_type(index_ent(ix, widget_source(&ev.w, i))) == PF_REC_SAMPLE;
	cr_expect_eq(shown, samples, "undone: every sample");
	pane_destroy(&ev);
	symbols_free(sy);
	session_close(s);
}

/* The same recording opened with a start option: its samples stay in the events list. */
Test(scope, start_option_without_a_recount)
{
	struct session *s = open_fixture("branch.data");
	const struct rec_index *ix = session_index(s);
	struct hist_filter f = { 0 };
	struct sym_opts so = { .buildid_dir = TEST_DATA "/buildid", .kallsyms = "/dev/null" };
	struct symbols *sy;
	struct pane ev;
	struct nav_view v;
	size_t samples = 0, shown = 0;

	cr_assert_eq(filter_parse_tids(&f, "42"), 0);
	sy = symbols_new(s, &so, &f);
	symbols_run(sy);
	cr_assert_eq(pane_create_sym(&ev, PANE_EVENTS, s, NULL, sy), 0);
	nav_view_init(&v, PANE_EVENTS);
	ev.ops->enter(&ev, &v);
	ev.ops->resize(&ev, 20, 100);
	for (size_t i = 0; i < ix->n; i++)
		samples += ent_type(index_ent(ix, i)) == PF_REC_SAMPLE;
	for (size_t i = 0; i < widget_count(&ev.w); i++)
		shown += ent_type(index_ent(ix, widget_source(&ev.w, i))) == PF_REC_SAMPLE;
	cr_expect_eq(shown, samples, "--tid 42: every sample is 42's");
	pane_destroy(&ev);
	symbols_free(sy);
	filter_free(&f);
	session_close(s);
}

/* The event is the scope's: the processes count that event's samples only. */
Test(scope, processes_count_the_scopes_event)
{
	struct session *s = open_fixture("multi.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane pr;
	struct nav_view v;
	uint64_t sum = 0;
	char msg[64];

	symbols_run(sy);
	cr_assert_eq(hist_nevents(sy->h), 2);
	cr_assert(scope_step_event(&sy->scope, sy->h, true, msg, sizeof msg));
	cr_assert_eq(pane_create_sym(&pr, PANE_PROCS, s, NULL, sy), 0);
	nav_view_init(&v, PANE_PROCS);
	pr.ops->enter(&pr, &v);
	pr.ops->resize(&pr, 20, 100);
	sum = process_samples(&pr);
	cr_expect_eq(sum, hist_event(sy->h, sy->scope.ev)->nsamples,
	    "the processes' samples are task-clock's 92, not both events' (%llu)",
	    (unsigned long long)sum);
	pane_destroy(&pr);
	symbols_free(sy);
	session_close(s);
}

/* The text of column title of the first row whose text has name, or NULL. */
static const char *
col_of(struct pane *p, const char *name, const char *title, struct row *r)
{
	size_t i = find_text(p, name);

	if (i == WIDGET_NONE)
		return NULL;
	row_reset(r);
	p->ops->row(p, widget_source(&p->w, i), r);
	for (int c = 0; c < p->ncols; c++)
		if (strcmp(p->cols[c].title, title) == 0)
			return r->col[c];
	return NULL;
}

/* The share perfnav tree ARGS gives thread tid on fork.data ("32.60"), malloc'd. */
static char *
tree_share(const char *args, const char *tid)
{
	char cmd[512], *out, *line, *save = NULL, *got = NULL;
	int status;

	snprintf(cmd, sizeof cmd, "%s/perfnav tree %s %s/fork.data", TEST_BUILDDIR, args, TEST_DATA);
	out = cmd_output(cmd, NULL, &status);
	cr_assert(out != NULL && status == 0, "perfnav tree %s", args);
	for (line = strtok_r(out, "\n", &save); line && got == NULL; line = strtok_r(NULL, "\n", &save)) {
		char p[16], t[16], pct[16];

		if (sscanf(line, "%15s %15s %*s %*s %15s", p, t, pct) == 3 && strcmp(t, tid) == 0) {
			pct[strcspn(pct, "%")] = '\0';
			got = strdup(pct);
		}
	}
	free(out);
	cr_assert_not_null(got, "perfnav tree %s: no thread %s", args, tid);
	return got;
}

/*
 * perfnav tree --pid N gives a thread the share the processes pane gives
 * it with the same start option: of the samples the time and cpus take
 * (perfnav top --pid's base), not of those the pid takes (once 100.00%).
 */
Test(scope, tree_shares_as_the_processes_pane)
{
	static const char *const opts[][2] = { { "26195", "" }, { "26195", "980.83," } };
	struct session *s = open_fixture("fork.data");
	struct sym_opts so = { .buildid_dir = TEST_DATA "/buildid", .kallsyms = "/dev/null" };

	for (size_t i = 0; i < 2; i++) {
		struct hist_filter f = { 0 };
		struct symbols *sy;
		struct pane pr;
		struct row r;
		char args[64], *want;
		const char *got;

		snprintf(args, sizeof args, "--pid %s%s%s", opts[i][0], opts[i][1][0] ? " --time " : "",
		    opts[i][1]);
		want = tree_share(args, opts[i][0]);
		cr_assert_eq(filter_parse_pids(&f, opts[i][0]), 0);
		if (opts[i][1][0])
			cr_assert_eq(filter_parse_time(&f, opts[i][1], 0, 0), 0);
		sy = symbols_new(s, &so, &f);
		symbols_run(sy);
		cr_assert_eq(pane_create_sym(&pr, PANE_PROCS, s, NULL, sy), 0);
		pr.ops->resize(&pr, 20, 100);
		widget_expand_all(&pr.w, true);
		got = col_of(&pr, opts[i][0], "%", &r);
		cr_assert_not_null(got);
		cr_expect_str_eq(got, want, "perfnav tree %s: %s%%, the processes pane %s%%", args, want,
		    got);
		cr_expect_neq(strcmp(want, "100.00"), 0, "%s: a share of the event's samples", args);
		free(want);
		pane_destroy(&pr);
		symbols_free(sy);
		filter_free(&f);
	}
	session_close(s);
}

/*
 * In a zoom, the trees give a function the share the hot functions give it
 * (of the event's total, as perfnav top --tid): not a share of the zoom's.
 */
Test(scope, trees_share_the_hot_functions_base)
{
	struct session *s = open_fixture("fork.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane hot, td;
	struct nav_view v;
	struct row a, b;
	const char *x, *y;

	symbols_run(sy);
	cr_assert(scope_zoom(&sy->scope, SZ_TID, 26196, 26196, 0, "thread 26196"));
	cr_assert_eq(symbols_apply_scope(sy), 0);
	hot_pane(&hot, s, sy);
	hot.ops->key(&hot, ACT_NONE);
	cr_assert_eq(pane_create_sym(&td, PANE_TOPDOWN, s, NULL, sy), 0);
	nav_view_init(&v, PANE_TOPDOWN);
	td.ops->enter(&td, &v);
	td.ops->key(&td, ACT_EXPAND_ALL);
	x = col_of(&hot, "__libc_start_call_main", "Children", &a);
	y = col_of(&td, "__libc_start_call_main", "Children", &b);
	cr_assert(x != NULL && y != NULL, "the function in both");
	cr_expect_str_eq(y, x, "top-down %s, the hot functions %s", y, x);
	cr_expect_lt(strtod(x, NULL), 50.0, "one thread of three: a share of the event's total");
	pane_destroy(&hot);
	pane_destroy(&td);
	symbols_free(sy);
	session_close(s);
}

/* The name the hot functions give a row's symbol, without its "[.] " mark. */
static const char *
bare(const char *sym)
{
	return (sym[0] == '[' && sym[1] != '\0' && sym[2] == ']' && sym[3] == ' ') ? sym + 4 : sym;
}

/*
 * A function's samples in tree t worked out from its nodes: self, the
 * samples of every node of it; through, those of its nodes with no node of
 * it above (a path counts once).
 */
static void
tree_sums(const struct hist *h, const struct cpath *t, const char *name, uint64_t *self,
    uint64_t *through)
{
	char buf[512];

	*self = *through = 0;
	for (uint32_t i = 1; i < cpath_count(t); i++) {
		const struct cpath_node *n = cpath_node(t, i);
		bool above = false;

		if (strcmp(cpath_func_name(h, n->func, buf, sizeof buf), name) != 0)
			continue;
		*self += n->self_samples;
		for (uint32_t a = n->parent; a != 0 && a != CPATH_NONE; a = cpath_node(t, a)->parent)
			above |= cpath_node(t, a)->func == n->func;
		if (!above)
			*through += n->total_samples;
	}
}

/*
 * A call-path transform is the scope's: the hot functions' rows, the
 * processes' counts and the events list follow it, as the top-down tree
 * of the same scope counts them.
 */
Test(scope, transforms_in_hot_processes_and_events)
{
	struct session *s = open_fixture("fork.data");
	struct symbols *sy = fixture_symbols(s);
	const struct rec_index *ix = session_index(s);
	struct pane hot, pr, ev;
	struct nav_view v;
	struct cpath_query q;
	struct cpath *t;
	uint32_t drop = CPATH_NONE;
	uint64_t root, self, through, nsamp = 0;
	char buf[512];
	struct row r;

	symbols_run(sy);
	scope_query(&sy->scope, false, &q);
	t = cpath_build(sy->h, &q);
	root = cpath_node(t, 0)->total_samples;
	/* a function some samples pass through, not all */
	for (uint32_t i = 1; i < cpath_count(t) && drop == CPATH_NONE; i++)
		if (cpath_node(t, i)->depth >= 2 && cpath_node(t, i)->total_samples * 2 < root &&
		    cpath_node(t, i)->total_samples * 20 > root)
			drop = cpath_node(t, i)->func;
	cr_assert_neq(drop, CPATH_NONE, "a function to drop");
	cpath_free(t);
	for (size_t i = 0; i < ix->n; i++)
		nsamp += ent_type(index_ent(ix, i)) == PF_REC_SAMPLE;

	cr_assert(scope_xf_push(&sy->scope, CPATH_DROP, drop));
	scope_query(&sy->scope, false, &q);
	t = cpath_build(sy->h, &q);
	root = cpath_node(t, 0)->total_samples;
	cr_assert_lt(root, nsamp, "dropping took samples out");

	hot_pane(&hot, s, sy);
	hot.ops->key(&hot, ACT_NONE);
	cr_assert_eq(find_text(&hot, cpath_func_name(sy->h, drop, buf, sizeof buf)), WIDGET_NONE,
	    "the dropped function has no row");
	cr_assert_gt(widget_count(&hot.w), 3);
	for (size_t i = 0; i < widget_count(&hot.w); i++) {
		const char *sym = NULL, *smp = NULL;
		uint64_t sum = 0;

		row_reset(&r);
		hot.ops->row(&hot, widget_source(&hot.w, i), &r);
		for (int c = 0; c < hot.ncols; c++) {
			if (strcmp(hot.cols[c].title, "Symbol") == 0)
				sym = r.col[c];
			if (strcmp(hot.cols[c].title, "Samples") == 0)
				smp = r.col[c];
		}
		cr_assert(sym != NULL && smp != NULL, "row %zu has a symbol and samples", i);
		snprintf(buf, sizeof buf, "%s", bare(sym));
		tree_sums(sy->h, t, buf, &self, &through);
		/* rows of one function (per command) sum to the tree's */
		for (size_t j = 0; j < widget_count(&hot.w); j++) {
			const char *sj = NULL, *nj = NULL;

			row_reset(&r);
			hot.ops->row(&hot, widget_source(&hot.w, j), &r);
			for (int c = 0; c < hot.ncols; c++) {
				if (strcmp(hot.cols[c].title, "Symbol") == 0)
					sj = r.col[c];
				if (strcmp(hot.cols[c].title, "Samples") == 0)
					nj = r.col[c];
			}
			if (sj != NULL && strcmp(bare(sj), buf) == 0)
				sum += strtoull(nj, NULL, 10);
		}
		cr_assert_eq(sum, self, "%s: %" PRIu64 " samples in the hot rows, %" PRIu64 " in the tree",
		    buf, sum, self);
		cr_assert(through >= self);
	}

	cr_assert_eq(pane_create_sym(&pr, PANE_PROCS, s, NULL, sy), 0);
	nav_view_init(&v, PANE_PROCS);
	pr.ops->enter(&pr, &v);
	pr.ops->resize(&pr, 40, 200);
	cr_assert_eq(process_samples(&pr), root, "the processes count what the transform left: %" PRIu64,
	    process_samples(&pr));

	cr_assert_eq(pane_create_sym(&ev, PANE_EVENTS, s, NULL, sy), 0);
	nav_view_init(&v, PANE_EVENTS);
	ev.ops->enter(&ev, &v);
	ev.ops->resize(&ev, 40, 200);
	cr_assert_eq(widget_count(&ev.w), ix->n - (nsamp - root), "the events list leaves the dropped samples out");

	cpath_free(t);
	pane_destroy(&hot);
	pane_destroy(&pr);
	pane_destroy(&ev);
	symbols_free(sy);
	session_close(s);
}

/*
 * A thread's time off CPU in [t0, t1] from the spans (each whose
 * switch-out is in it), and its time on CPU worked out here from perf's own
 * text of the recording (tests/data/expected/offcpu.data.offcpu-script.txt,
 * perf script's sched_switch lines): from each switch-in (next_pid) to the
 * thread's next switch-out (prev_pid), counted when that switch-out is
 * paired (switched in again before it is switched out again), as the spans
 * are.
 */
static void
thread_times(const struct session *s, const struct offcpu *o, int32_t tid, uint64_t t0, uint64_t t1,
    uint64_t *on, uint64_t *off)
{
	FILE *fp = fopen(test_data("expected/offcpu.data.offcpu-script.txt"), "r");
	char line[4096];
	uint64_t in = 0, pend = 0;
	bool has_in = false, has_pend = false;

	*on = *off = 0;
	for (size_t k = 0; k < o->n; k++) {
		uint64_t t = index_ent(session_index(s), (size_t)o->v[k].pos)->time;

		if (o->v[k].tid == tid && t >= t0 && t <= t1)
			*off += o->v[k].ns;
	}
	cr_assert_not_null(fp);
	while (fgets(line, sizeof line, fp) != NULL) {
		unsigned long sec, nsec;
		long prev, next;
		const char *pp = strstr(line, " prev_pid="), *np = strstr(line, " next_pid=");
		uint64_t t;

		if (pp == NULL || np == NULL || sscanf(line, " %*d %lu.%lu:", &sec, &nsec) != 2)
			continue;
		prev = strtol(pp + 10, NULL, 10);
		next = strtol(np + 10, NULL, 10);
		t = (uint64_t)sec * 1000000000u + nsec;
		if (next == tid) {	/* switched in: a pending switch-out is paired */
			if (has_pend)
				*on += pend;
			has_pend = false;
			in = t;
			has_in = true;
		}
		if (prev == tid) {	/* switched out: its run pends until it is paired */
			has_pend = true;	/* a switch-out before: dropped */
			pend = has_in && t >= in && t >= t0 && t <= t1 ? t - in : 0;
			has_in = false;
		}
	}
	fclose(fp);
}

/* A thread's row's cell of column title, or NULL when it has no row or several. */
static const char *
thread_cell(struct pane *pr, int32_t pid, int32_t tid, const char *title, struct row *r)
{
	char id[64];
	size_t found = SIZE_MAX, n = 0;

	snprintf(id, sizeof id, "%d/%d", (int)pid, (int)tid);
	for (size_t i = 0; i < pr->ops->nrows(pr); i++) {
		row_reset(r);
		pr->ops->row(pr, i, r);
		if (r->col[0] != NULL && strcmp(r->col[0], id) == 0) {
			found = i;
			n++;
		}
	}
	if (n != 1)
		return NULL;	/* a tid reused (or no row of its own): not this test's */
	row_reset(r);
	pr->ops->row(pr, found, r);
	for (int c = 0; c < pr->ncols; c++)
		if (strcmp(pr->cols[c].title, title) == 0)
			return r->col[c];
	return NULL;
}

/* Is tid one thread of the thread table over all its spans (not a tid reused)? */
static bool
one_thread(const struct session *s, const struct offcpu *o, int32_t tid)
{
	const struct thread_table *tt = session_threads(s);
	uint32_t th = THREAD_NONE;

	for (size_t k = 0; k < o->n; k++) {
		uint32_t t;

		if (o->v[k].tid != tid)
			continue;
		t = thread_table_find(tt, tid, index_ent(session_index(s), (size_t)o->v[k].pos)->time);
		if (th != THREAD_NONE && t != th)
			return false;
		th = t;
	}
	return th != THREAD_NONE;
}

/* offcpu.data: each thread's time on and off CPU in the processes pane, whole and in a time step. */
Test(scope, offcpu_in_processes)
{
	struct session *s = open_fixture("offcpu.data");
	struct symbols *sy = fixture_symbols(s);
	const struct offcpu *o;
	struct pane pr;
	struct nav_view v;
	struct row r;
	uint64_t t0 = 0, t1 = UINT64_MAX;
	size_t checked = 0;

	symbols_run(sy);
	o = symbols_offcpu(sy);
	cr_assert_not_null(o, "the browser pairs the switches");
	cr_assert_eq(pane_create_sym(&pr, PANE_PROCS, s, NULL, sy), 0);
	nav_view_init(&v, PANE_PROCS);
	pr.ops->enter(&pr, &v);
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1) {	/* a time step: the middle third of the spans */
			t0 = index_ent(session_index(s), (size_t)o->v[o->n / 3].pos)->time;
			t1 = index_ent(session_index(s), (size_t)o->v[o->n * 2 / 3].pos)->time;
			cr_assert(scope_time_push(&sy->scope, t0, t1));
			cr_assert_eq(symbols_apply_scope(sy), 0);
		}
		pr.ops->resize(&pr, 40, 200);
		for (size_t k = 0; k < o->n; k += 7) {
			int32_t tid = o->v[k].tid, pid = session_ent_who(s, (size_t)o->v[k].pos).pid;
			uint64_t on, off;
			char won[32] = "0", woff[32] = "0";
			const char *con = thread_cell(&pr, pid, tid, "On-CPU", &r);
			const char *coff;

			thread_times(s, o, tid, t0, t1, &on, &off);
			if (on)
				text_duration(won, sizeof won, on);
			if (off)
				text_duration(woff, sizeof woff, off);
			if (con == NULL || !one_thread(s, o, tid))
				continue;	/* a tid reused, or a thread without a row of its own */
			cr_assert_str_eq(con, won, "pass %d, %d/%d on CPU: %s, want %s", pass, (int)pid, (int)tid, con, won);
			coff = thread_cell(&pr, pid, tid, "Off-CPU", &r);
			cr_assert_str_eq(coff, woff, "pass %d, %d/%d off CPU: %s, want %s", pass, (int)pid, (int)tid, coff,
			    woff);
			checked++;
		}
	}
	cr_assert_gt(checked, 20, "threads checked: %zu", checked);
	pane_destroy(&pr);
	symbols_free(sy);
	session_close(s);
}

/* The wakers pane's counted text, and its source row i's text in column col. */
static const char *
wakers_text(struct pane *p, size_t i, int col, char *buf, size_t n)
{
	struct row r;

	if (i == SIZE_MAX) {
		cr_assert(p->ops->counted(p, buf, n));
		return buf;
	}
	row_reset(&r);
	p->ops->row(p, i, &r);
	snprintf(buf, n, "%s", r.col[col] != NULL ? r.col[col] : "");
	return buf;
}

/*
 * The wakers of a function of the off-cpu event (wakers.data, W on waiter):
 * as many spans as the function's children samples in the hot functions,
 * holder's thread first (the mutex's unlocks); a zoom to another thread
 * leaves none through it, and taking the zoom back brings them again; the
 * view of a frame of the top-down tree has the spans through that node.
 */
Test(scope, wakers_of_a_function_follow_the_scope)
{
	struct session *s = open_fixture("wakers.data");
	struct symbols *sy = fixture_symbols(s);
	const struct hist_entry *const *rows;
	uint32_t func = CPATH_NONE, node = CPATH_NONE;
	struct cpath_query q;
	struct cpath *t;
	size_t ev = SIZE_MAX, n;
	uint64_t through = 0;
	struct nav_view v;
	struct pane p;
	char buf[512], want[64];

	symbols_run(sy);
	for (size_t i = 0; i < hist_nevents(sy->h); i++)
		if (symbols_event_offcpu(sy, i))
			ev = i;
	cr_assert_neq(ev, SIZE_MAX);
	sy->scope.ev = ev;
	sy->scope.gen++;
	for (uint32_t i = 0; i < hist_nnodes(sy->h); i++)
		if (strcmp(hist_str(sy->h, hist_node_get(sy->h, i)->label), "[.] waiter") == 0)
			func = i;
	cr_assert_neq(func, CPATH_NONE);
	n = hist_rows_merged(sy->h, ev, NULL, HIST_KEEP(HIST_KEY_SYM), 0, &rows);
	for (size_t i = 0; i < n; i++)
		if (rows[i]->node == func)
			through = rows[i]->acc_samples;
	cr_assert_gt(through, 30);
	cr_assert_eq(pane_create_sym(&p, PANE_WAKERS, s, NULL, sy), 0);
	nav_view_init(&v, PANE_WAKERS);
	v.arg = ev;
	v.arg2 = func;
	go(&p, &v);
	snprintf(want, sizeof want, "wakers of waiter: %" PRIu64 " spans,", through);
	cr_expect_not_null(strstr(wakers_text(&p, SIZE_MAX, 0, buf, sizeof buf), want), "%s", buf);
	cr_expect_str_eq(wakers_text(&p, 0, 3, buf, sizeof buf), "offcpu 25488");
	cr_expect_str_eq(wakers_text(&p, 0, 2, buf, sizeof buf), "30");
	cr_expect_str_eq(wakers_text(&p, 0, 1, buf, sizeof buf), "69.54%");
	/* its stack: the holder's unlock, frames below it */
	cr_expect_not_null(strstr(wakers_text(&p, 1, 3, buf, sizeof buf), "__GI___lll_lock_wake"), "%s",
	    buf);
	/* the holder's thread alone: nothing of it passes through waiter */
	cr_assert(scope_zoom(&sy->scope, SZ_TID, 25479, 25488, 0, "thread 25488"));
	cr_assert_eq(symbols_apply_scope(sy), 0);
	p.ops->resize(&p, 30, 100);
	cr_expect_eq(p.ops->nrows(&p), 1);
	cr_expect_not_null(strstr(wakers_text(&p, 0, 3, buf, sizeof buf), "no off-CPU span in the scope"),
	    "%s", buf);
	cr_assert(scope_undo(&sy->scope));
	cr_assert_eq(symbols_apply_scope(sy), 0);
	p.ops->resize(&p, 30, 100);
	cr_expect_str_eq(wakers_text(&p, 0, 3, buf, sizeof buf), "offcpu 25488");
	/* a frame of the top-down tree: the spans through that node */
	scope_query(&sy->scope, false, &q);
	t = cpath_build(sy->h, &q);
	for (uint32_t i = 1; i < cpath_count(t) && node == CPATH_NONE; i++)
		if (cpath_node(t, i)->func == func)
			node = i;
	cr_assert_neq(node, CPATH_NONE);
	cr_assert_eq(pane_push_wakers_through(&p, t, node, "waiter"), PANE_HANDLED | PANE_PUSH, "%s",
	    p.msg);
	v = p.push;
	go(&p, &v);
	snprintf(want, sizeof want, "wakers of waiter (frame): %" PRIu64 " spans,",
	    cpath_node(t, node)->total_samples);
	cr_expect_not_null(strstr(wakers_text(&p, SIZE_MAX, 0, buf, sizeof buf), want), "%s", buf);
	cr_expect_str_eq(wakers_text(&p, 0, 3, buf, sizeof buf), "offcpu 25488");
	/* the root is no frame */
	cr_expect_eq(pane_push_wakers_through(&p, t, 0, ""), PANE_HANDLED | PANE_MSG);
	cpath_free(t);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/*
 * With the scope's event off-cpu, the events list shows the switch-outs
 * behind it (sched_switch samples) in place of nothing: the trial's
 * "samples __schedule [0/0]".
 */
Test(scope, offcpu_event_lists_its_switch_outs)
{
	struct session *s = open_fixture("offcpu.data");
	struct symbols *sy = fixture_symbols(s);
	const struct rec_index *ix = session_index(s);
	struct pane ev;
	struct nav_view v;
	size_t off = SIZE_MAX, nsw = 0;
	int swattr = -1;

	symbols_run(sy);
	for (size_t i = 0; i < hist_nevents(sy->h); i++)
		if (symbols_event_offcpu(sy, i))
			off = i;
	cr_assert_neq(off, SIZE_MAX);
	for (size_t i = 0; i < session_attrs(s)->n; i++)
		if (strcmp(session_attr_name(s, (int)i), "sched:sched_switch") == 0)
			swattr = (int)i;
	for (size_t i = 0; i < ix->n; i++)
		nsw += ent_type(index_ent(ix, i)) == PF_REC_SAMPLE && (int)ent_attr(index_ent(ix, i)) == swattr;
	scope_set_event(&sy->scope, off);
	cr_assert_eq(symbols_scope_attr(sy), swattr, "the off-CPU event's records are sched_switch's");
	cr_assert_eq(pane_create_sym(&ev, PANE_EVENTS, s, NULL, sy), 0);
	nav_view_init(&v, PANE_EVENTS);
	snprintf(v.filter, sizeof v.filter, "type:SAMPLE");
	ev.ops->enter(&ev, &v);
	ev.ops->resize(&ev, 40, 200);
	cr_assert_eq(widget_count(&ev.w), nsw, "%zu samples listed, %zu sched_switch samples", widget_count(&ev.w),
	    nsw);
	pane_destroy(&ev);
	symbols_free(sy);
	session_close(s);
}

/*
 * Back to the hot functions from another pane: the rows as they were left
 * (expanded paths, cursor), not made again (a merge of every thread's
 * entries); made again when the scope changed meanwhile.
 */
Test(scope_panes, hot_rows_kept_across_a_pane_switch)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p;
	struct nav_view v;
	struct hot *ht;
	size_t i, n, made, all;
	uint64_t t0, t1;

	symbols_run(sy);
	hot_pane(&p, s, sy);
	ht = p.priv;
	i = find_text(&p, "[.] main");
	cr_assert_neq(i, WIDGET_NONE);
	widget_home(&p.w);
	widget_move(&p.w, (long)i);
	cr_assert_eq(p.ops->key(&p, ACT_TOGGLE), PANE_HANDLED);
	n = widget_count(&p.w);
	all = hist_event(sy->h, 0)->nsamples;
	pane_list_save(&p, &v);
	v.target = NAV_T_HOT;
	made = ht->reloads;
	p.ops->enter(&p, &v);	/* back, the symbols and the scope as they were */
	cr_assert_eq(ht->reloads, made, "the rows are not made again");
	cr_assert_eq(widget_count(&p.w), n, "main's paths still expanded");
	cr_assert(row_has(&p, widget_cursor_row(&p.w), "[.] main"), "the cursor where it was");
	/* a time step taken elsewhere (the timeline): the rows are the scope's */
	t0 = index_ent(session_index(s), session_index(s)->n / 10)->time;
	t1 = index_ent(session_index(s), session_index(s)->n - 1)->time;
	cr_assert_gt(t1, t0);
	cr_assert(scope_time_push(&sy->scope, t0, t0 + (t1 - t0) / 2));
	cr_assert_eq(symbols_apply_scope(sy), 0);
	p.ops->enter(&p, &v);
	cr_assert_eq(ht->reloads, made + 1, "made again for the new scope");
	cr_assert_lt(hist_event(sy->h, 0)->nsamples, all, "the first half's samples");
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/* The hot pane's rows as text, a line per row. */
static char *
hot_rows_text(struct pane *p)
{
	size_t cap = 4096, len = 0;
	char *v = malloc(cap);
	struct row r;

	v[0] = '\0';
	for (size_t i = 0; i < widget_count(&p->w); i++) {
		row_reset(&r);
		p->ops->row(p, widget_source(&p->w, i), &r);
		for (int c = 0; c < p->ncols; c++) {
			if (len + 512 > cap)
				v = realloc(v, cap *= 2);
			len += (size_t)snprintf(v + len, cap - len, "%.400s|", r.col[c] ? r.col[c] : "");
		}
		len += (size_t)snprintf(v + len, cap - len, "\n");
	}
	return v;
}

/*
 * With the app's steps on, the hot functions' rows of a hist with more
 * entries than 8 steps are merged in steps (pane_ops.work): no row and a
 * progress line meanwhile, then the rows made at once; a view entered
 * meanwhile is applied once they are in, and a zoom half-way merges again
 * for it.
 */
Test(scope, hot_rows_merged_in_steps)
{
	struct session *s = open_fixture("fork.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane one, p;
	struct nav_view v;
	char *want, *want_zoom, *want_dsos, *got, cur[512];
	struct row r;
	int32_t pid;

	symbols_run(sy);
	cr_assert(sy->done, "symbols all in");
	hot_pane(&one, s, sy);
	want = hot_rows_text(&one);
	cr_assert_gt(widget_count(&one.w), 3, "rows to merge");
	widget_move(&one.w, 2);
	row_reset(&r);
	one.ops->row(&one, widget_source(&one.w, 2), &r);
	snprintf(cur, sizeof cur, "%s", r.col[one.ncols - 1]);
	pid = hist_entry_get(sy->h, 0)->pid;
	cr_assert(scope_zoom(&sy->scope, SZ_PID, pid, -1, 0, "the first process"));
	cr_assert_eq(symbols_apply_scope(sy), 0);
	pane_settle(&one, sy);
	want_zoom = hot_rows_text(&one);
	cr_assert_str_neq(want_zoom, want, "the zoom has other rows");
	cr_assert(scope_undo(&sy->scope));
	cr_assert_eq(symbols_apply_scope(sy), 0);

	sy->steps = 1;
	hot_pane(&p, s, sy);
	cr_assert_eq(widget_count(&p.w), 0, "no row before they are merged");
	screen_draw(&p, 20, 120);
	cr_assert_geq(screen_col(screen_line(19), "Merging the rows: 0% of"), 0, "%s", screen_line(19));
	one.ops->save(&one, &v);	/* the cursor on the third row, entered while merging */
	go(&p, &v);
	cr_assert_gt(pane_work_out(&p), 2, "merged in steps");
	cr_assert_eq(p.ops->work(&p, 0), PANE_WORK_NONE);
	got = hot_rows_text(&p);
	cr_assert_str_eq(got, want, "the rows of a merge at once");
	free(got);
	row_reset(&r);
	p.ops->row(&p, widget_cursor_row(&p.w), &r);
	cr_assert_str_eq(r.col[p.ncols - 1], cur, "the view entered meanwhile");
	/* a zoom half-way: merged again for it */
	p.ops->key(&p, ACT_PCT_LIMIT);
	cr_assert_eq(p.ops->work(&p, 0), PANE_WORK_MORE);
	p.ops->key(&p, ACT_PCT_LIMIT);
	p.ops->key(&p, ACT_PCT_LIMIT);
	p.ops->key(&p, ACT_PCT_LIMIT);
	p.ops->key(&p, ACT_PCT_LIMIT);	/* back to no limit */
	cr_assert_eq(p.ops->work(&p, 0), PANE_WORK_MORE, "a step before the zoom");
	cr_assert(scope_zoom(&sy->scope, SZ_PID, pid, -1, 0, "the first process"));
	cr_assert_eq(symbols_apply_scope(sy), 0);
	pane_work_out(&p);
	got = hot_rows_text(&p);
	cr_assert_str_eq(got, want_zoom, "the zoom's rows");
	free(got);
	/* the DSOs' table asked half-way: its rows, not the merge's left behind */
	cr_assert(scope_undo(&sy->scope));
	cr_assert_eq(symbols_apply_scope(sy), 0);
	cr_assert_eq(one.ops->key(&one, ACT_DSOS), PANE_HANDLED | PANE_PUSH);
	go(&one, &one.push);
	pane_settle(&one, sy);
	want_dsos = hot_rows_text(&one);
	p.ops->work(&p, 0);
	for (int k = 0; k < 5; k++)	/* round to no limit again: a merge each time */
		cr_assert(p.ops->key(&p, ACT_PCT_LIMIT) != PANE_IGNORED);
	cr_assert_eq(p.ops->work(&p, 0), PANE_WORK_MORE, "a merge under way");
	cr_assert_eq(p.ops->key(&p, ACT_DSOS), PANE_HANDLED | PANE_PUSH);
	go(&p, &p.push);
	for (int k = 0; p.ops->work(&p, 0) == PANE_WORK_MORE; k++)
		cr_assert_lt(k, 1000, "the work ends");
	got = hot_rows_text(&p);
	cr_assert_str_eq(got, want_dsos, "the DSOs' rows:\n%s\nvs\n%s", got, want_dsos);
	free(got);
	free(want_dsos);
	free(want);
	free(want_zoom);
	pane_destroy(&one);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/*
 * The scope's samples per thread are counted once per scope, symbols and
 * recount (a pass over every sample), and again when any of them moves:
 * a zoom, its undo, a time step.
 */
Test(scope, thread_samples_once_per_scope)
{
	struct session *s = open_fixture("fork.data");
	struct symbols *sy = fixture_symbols(s);
	size_t n = session_threads(s)->n + 1;
	uint64_t *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b), *z = calloc(n, sizeof *z);
	uint64_t ta, tb, tz, t0, t1;
	struct symbols *sy2;
	int32_t pid;

	symbols_run(sy);
	pid = hist_entry_get(sy->h, 0)->pid;
	ta = symbols_thread_samples(sy, s, a);
	tb = symbols_thread_samples(sy, s, b);
	cr_assert_eq(ta, tb);
	cr_assert_arr_eq(a, b, n * sizeof *a, "the same answer again");
	cr_assert(scope_zoom(&sy->scope, SZ_PID, pid, -1, 0, "the first process"));
	cr_assert_eq(symbols_apply_scope(sy), 0);
	tz = symbols_thread_samples(sy, s, z);
	cr_assert(memcmp(a, z, n * sizeof *a) != 0, "the zoom's: other threads' counts gone");
	/* counted in two halves, on two threads (as on a large recording): the same */
	setenv("PERFNAV_PARALLEL_MIN", "0", 1);
	sy2 = fixture_symbols(s);
	symbols_run(sy2);
	cr_assert(scope_zoom(&sy2->scope, SZ_PID, pid, -1, 0, "the first process"));
	cr_assert_eq(symbols_apply_scope(sy2), 0);
	cr_assert_eq(symbols_thread_samples(sy2, s, b), tz, "two halves: the total");
	cr_assert_arr_eq(b, z, n * sizeof *b, "two halves: the threads' counts");
	unsetenv("PERFNAV_PARALLEL_MIN");
	symbols_free(sy2);
	cr_assert(scope_undo(&sy->scope));
	cr_assert_eq(symbols_apply_scope(sy), 0);
	tb = symbols_thread_samples(sy, s, b);
	cr_assert_eq(tb, ta);
	cr_assert_arr_eq(a, b, n * sizeof *a, "the undo's: the first answer");
	/* a time step: fewer samples in all */
	t0 = session_features(s)->sample_time_first;
	t1 = session_features(s)->sample_time_last;
	cr_assert(scope_time_push(&sy->scope, t0, t0 + (t1 - t0) / 2));
	cr_assert_eq(symbols_apply_scope(sy), 0);
	tz = symbols_thread_samples(sy, s, z);
	cr_assert_lt(tz, ta, "the time step's total");
	free(a);
	free(b);
	free(z);
	symbols_free(sy);
	session_close(s);
}
