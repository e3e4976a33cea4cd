/*
 * Criterion tests of the timeline and flame scope panes without a terminal
 * (tui/pane/pane_timeline.c, pane_fscope.c): their lanes as rows,
 * collapsing, CPU lanes, a range marked and applied as a time step, the
 * highlight key, the flame scope's cells applied.  Their model is tested in
 * tests/test_timeline.c; every fixture opens in them in tests/test_panes.c.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <curses.h>

#include "core/core.h"
#include "symbolize/cpath.h"
#include "symbolize/hist.h"
#include "symbolize/offcpu.h"
#include "symbolize/timeline.h"
#include "tests/tui_helpers.h"
#include "tui/keys.h"
#include "tui/nav.h"
#include "tui/pane.h"
#include "tui/symbols.h"
#include "tui/widget.h"

static const char *
tl_row_text(struct pane *p, size_t i, struct row *r)
{
	row_reset(r);
	p->ops->row(p, i, r);
	return r->col[0];
}

/* switch.data: the process, its four threads below it (collapsible), and by CPU. */
Test(panes, timeline_lanes_of_switch_fixture)
{
	struct session *s = open_fixture("switch.data");
	struct row *r = malloc(sizeof *r);
	struct pane p;

	cr_assert_eq(pane_create(&p, PANE_TIMELINE, s, NULL), 0);
	cr_assert_not(p.is_list);
	cr_assert_eq(p.ops->nrows(&p), 6);
	cr_assert(strstr(tl_row_text(&p, 1, r), "26216 threads"), "%s", r->col[0]);
	cr_assert_str_eq(r->col[1], "228");
	cr_assert(strstr(tl_row_text(&p, 2, r), "26216/26216 threads"), "%s", r->col[0]);
	cr_assert_str_eq(r->col[1], "1");
	cr_assert_eq(r->depth, 1);
	cr_assert(strstr(tl_row_text(&p, 3, r), "26216/26218 threads"), "%s", r->col[0]);
	cr_assert_str_eq(r->col[1], "61");
	/* on the second thread, + collapses its process and the cursor goes to it */
	cr_assert_eq(p.ops->key(&p, ACT_DOWN), PANE_HANDLED | PANE_REDRAW);
	cr_assert_eq(p.ops->key(&p, ACT_DOWN), PANE_HANDLED | PANE_REDRAW);
	cr_assert_eq(p.ops->key(&p, ACT_TOGGLE), PANE_HANDLED | PANE_REDRAW);
	cr_assert_eq(p.ops->nrows(&p), 2);
	cr_assert_eq(p.ops->key(&p, ACT_EXPAND_ALL), PANE_HANDLED | PANE_REDRAW);
	cr_assert_eq(p.ops->nrows(&p), 6);
	/* per CPU: the samples have none, one lane */
	cr_assert_eq(p.ops->key(&p, ACT_TIMELINE_LANES), PANE_HANDLED | PANE_REDRAW);
	cr_assert_eq(p.ops->nrows(&p), 2);
	cr_assert(strstr(tl_row_text(&p, 1, r), "cpu ?"), "%s", r->col[0]);
	cr_assert_str_eq(r->col[1], "228");
	/* t on it: no cpu to zoom into (it made a zoom to cpu 4294967295) */
	cr_assert_eq(p.ops->key(&p, ACT_DOWN), PANE_HANDLED | PANE_REDRAW);
	cr_assert_eq(p.ops->key(&p, ACT_ZOOM_THREAD), PANE_HANDLED | PANE_MSG);
	cr_assert(strstr(p.msg, "record no cpu") != NULL, "%s", p.msg);
	cr_assert_eq(p.ops->key(&p, ACT_UP), PANE_HANDLED | PANE_REDRAW);
	/* no symbols: nothing to scope */
	cr_assert_eq(p.ops->key(&p, ACT_TIME_MARK), PANE_HANDLED | PANE_REDRAW);
	cr_assert_eq(p.ops->key(&p, ACT_ENTER), PANE_HANDLED | PANE_MSG | PANE_REDRAW);
	pane_destroy(&p);
	session_close(s);
	free(r);
}

/*
 * Marking a range and applying it: the columns of the axis (100 before
 * the first draw) from the mark to the cursor, as a time step.
 */
Test(panes, timeline_mark_and_apply)
{
	struct session *s = open_fixture("switch.data");
	struct symbols *sy = fixture_symbols(s);
	const struct rec_index *ix = session_index(s);
	uint64_t first = UINT64_MAX, last = 0, span, a, b, n = 0;
	struct nav_view v;
	struct pane p;

	symbols_run(sy);
	for (size_t i = 0; i < ix->n; i++)
		if (ent_type(index_ent(ix, i)) == PF_REC_SAMPLE) {
			first = first < index_ent(ix, i)->time ? first : index_ent(ix, i)->time;
			last = index_ent(ix, i)->time;
		}
	span = last + 1 - first;
	cr_assert_eq(pane_create_sym(&p, PANE_TIMELINE, s, NULL, sy), 0);
	cr_assert_eq(p.ops->key(&p, ACT_TIME_RIGHT), PANE_HANDLED | PANE_REDRAW);
	cr_assert_eq(p.ops->key(&p, ACT_TIME_MARK), PANE_HANDLED | PANE_REDRAW);
	for (int i = 0; i < 9; i++)
		cr_assert_eq(p.ops->key(&p, ACT_TIME_RIGHT), PANE_HANDLED | PANE_REDRAW);
	cr_assert_eq(p.ops->key(&p, ACT_ENTER), PANE_HANDLED | PANE_PUSH | PANE_REDRAW);
	cr_assert_eq(p.push.pane, PANE_TIMELINE);
	cr_assert_eq(p.push.target, NAV_T_TIME);
	/* columns 1 to 10 of 100 */
	a = first + span / 100 * 1 + span % 100 * 1 / 100;
	b = first + span / 100 * 11 + span % 100 * 11 / 100 - 1;
	/* applied to the microsecond, as the label prints them (pane_apply_time) */
	cr_assert_eq(p.push.arg, a - a % 1000);
	cr_assert_eq(p.push.arg2, b - b % 1000);
	cr_assert(strncmp(p.push.label, "time ", 5) == 0, "%s", p.push.label);
	/* entering the step shows its range */
	v = p.push;
	p.ops->enter(&p, &v);
	for (size_t i = 0; i < ix->n; i++)
		n += ent_type(index_ent(ix, i)) == PF_REC_SAMPLE && index_ent(ix, i)->time >= a &&
		    index_ent(ix, i)->time <= b;
	{
		struct row *r = malloc(sizeof *r);

		/* the first row counts every sample; the range's are on the axis */
		cr_assert_gt(n, 0);
		tl_row_text(&p, 0, r);
		cr_assert_str_eq(r->col[1], "228");
		free(r);
	}
	/* Esc drops a mark before it goes back */
	cr_assert_eq(p.ops->key(&p, ACT_TIME_MARK), PANE_HANDLED | PANE_REDRAW);
	cr_assert_eq(p.ops->key(&p, ACT_BACK), PANE_HANDLED | PANE_REDRAW);
	cr_assert_eq(p.ops->key(&p, ACT_BACK), PANE_IGNORED);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/* H needs a function selected in the hot functions; with one, it highlights. */
Test(panes, timeline_highlight_needs_a_function)
{
	struct session *s = open_fixture("switch.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p;

	symbols_run(sy);
	cr_assert_eq(pane_create_sym(&p, PANE_TIMELINE, s, NULL, sy), 0);
	cr_assert_eq(sy->scope.hl_func, CPATH_NONE);
	cr_assert_eq(p.ops->key(&p, ACT_TIME_HIGHLIGHT), PANE_HANDLED | PANE_MSG);
	cr_assert(strstr(p.msg, "hot functions"), "%s", p.msg);
	sy->scope.hl_func = 0;
	cr_assert_eq(p.ops->key(&p, ACT_TIME_HIGHLIGHT), PANE_HANDLED | PANE_REDRAW);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/* The flame scope: s, Down, Enter applies the first two cells of the first column. */
Test(panes, fscope_mark_and_apply)
{
	struct session *s = open_fixture("switch.data");
	struct symbols *sy = fixture_symbols(s);
	const struct rec_index *ix = session_index(s);
	uint64_t first = UINT64_MAX;
	struct pane p;

	symbols_run(sy);
	for (size_t i = 0; i < ix->n; i++)
		if (ent_type(index_ent(ix, i)) == PF_REC_SAMPLE && index_ent(ix, i)->time < first)
			first = index_ent(ix, i)->time;
	cr_assert_eq(pane_create_sym(&p, PANE_FSCOPE, s, NULL, sy), 0);
	cr_assert_eq(p.ops->key(&p, ACT_TIME_MARK), PANE_HANDLED | PANE_REDRAW);
	cr_assert_eq(p.ops->key(&p, ACT_DOWN), PANE_HANDLED | PANE_REDRAW);
	cr_assert_eq(p.ops->key(&p, ACT_TIME_MARK), PANE_HANDLED | PANE_PUSH | PANE_REDRAW);
	cr_assert_eq(p.push.target, NAV_T_TIME);
	/* switch.data spans 86 ms: columns of 2 ms (about 20 or more of them), 50 rows of
	 * 40 us before the first draw */
	cr_assert_eq(p.push.arg, first - first % 1000);
	cr_assert_eq(p.push.arg2, (first + 80000 - 1) - (first + 80000 - 1) % 1000);
	/* shorter columns keep the cursor's time */
	cr_assert_eq(p.ops->key(&p, ACT_TIME_ZOOM_IN), PANE_HANDLED | PANE_REDRAW);
	cr_assert_eq(p.ops->key(&p, ACT_TIME_MARK), PANE_HANDLED | PANE_REDRAW);
	cr_assert_eq(p.ops->key(&p, ACT_ENTER), PANE_HANDLED | PANE_PUSH | PANE_REDRAW);
	/* the cursor was at 40 us: in 1 ms columns of 20 us rows, row 2 */
	cr_assert_eq(p.push.arg, (first + 40000) - (first + 40000) % 1000);
	cr_assert_eq(p.push.arg2, (first + 60000 - 1) - (first + 60000 - 1) % 1000);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/*
 * The highlight's counts: the samples taken in worker_mul (80, all of
 * thread 26219, as perf script --buildid-dir tests/data/buildid -F
 * tid,sym says) in the thread's lane, none in another's, split over
 * columns or not.
 */
Test(panes, timeline_highlight_counts_a_function)
{
	struct session *s = open_fixture("switch.data");
	struct symbols *sy = fixture_symbols(s);
	struct timeline *tl;
	const uint32_t *rows;
	uint32_t func = CPATH_NONE, mul = TL_NONE, add = TL_NONE, out[7], sum = 0, *picked;
	size_t n, npicked;

	symbols_run(sy);
	n = hist_rows(sy->h, 0, 0, &rows);
	for (size_t i = 0; i < n; i++) {
		const struct hist_entry *he = hist_entry_get(sy->h, rows[i]);
		const struct hist_node *nd = hist_node_get(sy->h, he->node);

		if (nd && strstr(hist_str(sy->h, nd->label), "worker_mul"))
			func = he->node;
	}
	cr_assert_neq(func, CPATH_NONE);
	tl = timeline_new(s, TL_TASKS, -1);
	for (uint32_t i = 0; i < tl->nlanes; i++) {
		if (tl->lanes[i].kind == TL_KIND_THREAD && tl->lanes[i].tid == 26219)
			mul = i;
		if (tl->lanes[i].kind == TL_KIND_THREAD && tl->lanes[i].tid == 26218)
			add = i;
	}
	cr_assert_neq(mul, TL_NONE);
	cr_assert_neq(add, TL_NONE);
	timeline_buckets_func(tl, sy->h, mul, func, tl->first, tl->last + 1, 1, out);
	cr_assert_eq(out[0], 80);
	timeline_buckets_func(tl, sy->h, add, func, tl->first, tl->last + 1, 1, out);
	cr_assert_eq(out[0], 0);
	timeline_buckets_func(tl, sy->h, 0, func, tl->first, tl->last + 1, 7, out);
	for (int k = 0; k < 7; k++)
		sum += out[k];
	cr_assert_eq(sum, 80);
	/* picked once, counted per lane: the same */
	picked = timeline_func_samples(tl, sy->h, func, &npicked);
	cr_assert_eq(npicked, 80);
	timeline_buckets_picked(tl, picked, npicked, mul, tl->first, tl->last + 1, 1, out);
	cr_assert_eq(out[0], 80);
	timeline_buckets_picked(tl, picked, npicked, add, tl->first, tl->last + 1, 1, out);
	cr_assert_eq(out[0], 0);
	timeline_buckets_picked(tl, picked, npicked, 0, tl->first, tl->last + 1, 7, out);
	sum = 0;
	for (int k = 0; k < 7; k++) {
		uint32_t one[7];

		sum += out[k];
		timeline_buckets_func(tl, sy->h, 0, func, tl->first, tl->last + 1, 7, one);
		cr_assert_eq(out[k], one[k], "column %d", k);
	}
	cr_assert_eq(sum, 80);
	free(picked);
	timeline_free(tl);
	symbols_free(sy);
	session_close(s);
}

/* multi.data has two events of 92 samples each: the timeline counts the scope's. */
Test(panes, timeline_counts_the_scope_event)
{
	struct session *s = open_fixture("multi.data");
	struct symbols *sy = fixture_symbols(s);
	struct row *r = malloc(sizeof *r);
	struct pane p;

	cr_assert_eq(pane_create_sym(&p, PANE_TIMELINE, s, NULL, sy), 0);
	/* before symbols the hist has no events: every sample */
	cr_assert_geq(p.ops->nrows(&p), 2);
	cr_assert_str_eq((tl_row_text(&p, 0, r), r->col[1]), "184");
	symbols_run(sy);
	cr_assert_geq(p.ops->nrows(&p), 2);
	cr_assert_str_eq((tl_row_text(&p, 0, r), r->col[1]), "92");
	sy->scope.ev = 1;
	sy->scope.gen++;
	cr_assert_geq(p.ops->nrows(&p), 2);
	cr_assert_str_eq((tl_row_text(&p, 0, r), r->col[1]), "92");
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
	free(r);
}

/* F on a thread's row: the flame scope of that thread, named as the events filter names it. */
Test(panes, timeline_opens_the_flame_scope_of_a_row)
{
	struct session *s = open_fixture("switch.data");
	struct pane p, f;
	struct nav_view v;

	cr_assert_eq(pane_create(&p, PANE_TIMELINE, s, NULL), 0);
	for (int i = 0; i < 3; i++)
		cr_assert_eq(p.ops->key(&p, ACT_DOWN), PANE_HANDLED | PANE_REDRAW);
	cr_assert_eq(p.ops->key(&p, ACT_TIME_FSCOPE), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(p.push.pane, PANE_FSCOPE);
	cr_assert_str_eq(p.push.filter, "tid:26218");
	cr_assert(strstr(p.push.label, "26216/26218"), "%s", p.push.label);
	cr_assert_eq(pane_create(&f, PANE_FSCOPE, s, NULL), 0);
	f.ops->enter(&f, &p.push);
	cr_assert_eq(f.ops->key(&f, ACT_TIME_RIGHT), PANE_HANDLED | PANE_REDRAW);
	nav_view_init(&v, PANE_FSCOPE);
	f.ops->save(&f, &v);
	cr_assert_str_eq(v.filter, "tid:26218");
	/* the first row: every sample */
	cr_assert_eq(p.ops->key(&p, ACT_TOP), PANE_HANDLED | PANE_REDRAW);
	cr_assert_eq(p.ops->key(&p, ACT_TIME_FSCOPE), PANE_HANDLED | PANE_PUSH);
	cr_assert_str_eq(p.push.filter, "");
	f.ops->enter(&f, &p.push);
	f.ops->save(&f, &v);
	cr_assert_str_eq(v.filter, "");
	pane_destroy(&f);
	pane_destroy(&p);
	session_close(s);
}

/* Row y of the screen as wide characters (static). */
static const wchar_t *
wline(int y)
{
	static wchar_t w[512];

	if (mbstowcs(w, screen_line(y), 511) == (size_t)-1)
		w[0] = 0;
	w[511] = 0;
	return w;
}

/* Did thread (pid, tid) wake one of tid 25488's waits (its spans' wakers, as offcpu paired them)? */
static bool
woke_25488(struct session *s, const struct offcpu *oc, long pid, long tid)
{
	for (size_t i = 0; i < oc->n; i++) {
		struct ent_who w;

		if (oc->v[i].tid != 25488 || oc->v[i].waker >= session_index(s)->n)
			continue;
		w = session_ent_who(s, (size_t)oc->v[i].waker);
		if (w.tid == tid || (tid < 0 && w.pid == pid))
			return true;
	}
	return false;
}

/*
 * wakers.data: the selected thread's wakeups are drawn from the waker's
 * row (a corner) to the woken row's mark (↑) through every row between
 * (│, or the corner of another waker in the same column); each corner's
 * row is a thread that woke it; nothing is drawn while
 * the selected row is not the thread's.
 */
Test(panes, timeline_draws_wakeups_from_the_waker)
{
	struct session *s = open_fixture("wakers.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p;
	int me = -1, corners = 0;

	symbols_run(sy);
	cr_assert_not_null(symbols_offcpu(sy));
	cr_assert_eq(pane_create_sym(&p, PANE_TIMELINE, s, NULL, sy), 0);
	screen_draw(&p, 40, 120);
	for (int y = 2; y < 39; y++)
		cr_expect_null(wcspbrk(wline(y), L"┬┴│"), "no line while row 0 is selected: %s", screen_line(y));
	for (int i = 0; i < 40 && strncmp(screen_line(39), " 25479/25488 ", 13) != 0; i++) {
		p.ops->key(&p, ACT_DOWN);
		screen_draw(&p, 40, 120);
	}
	cr_assert_eq(strncmp(screen_line(39), " 25479/25488 ", 13), 0, "the waiter selected: %s", screen_line(39));
	for (int y = 2; y < 39; y++)
		if (wcsstr(wline(y), L"25479/25488 ") != NULL)
			me = y;
	cr_assert_gt(me, 0);
	for (int y = 2; y < 39; y++) {
		const wchar_t *l = wline(y);
		long pid = -1, tid = -1;

		if (y == me)
			continue;
		if (swscanf(l, L" %ld/%ld", &pid, &tid) < 2 && swscanf(l + 2, L"%ld", &pid) < 1)
			continue;	/* "▾ PID comm" rows: the process */
		for (size_t x = 26; l[x]; x++) {
			if (l[x] != L'┬' && l[x] != L'┴')
				continue;
			corners++;
			cr_expect(woke_25488(s, symbols_offcpu(sy), pid, tid), "row %d (%ld/%ld) woke 25488", y, pid,
			    tid);
			cr_expect_eq(wline(me)[x], L'↑', "the corner's column (%zu) is a wakeup of the row", x);
			for (int k = (y < me ? y : me) + 1; k < (y < me ? me : y); k++)
				cr_expect(wcschr(L"│┬┴", wline(k)[x]) != NULL, "row %d column %zu between the two "
				    "(a line, or another waker's corner): %s", k, x, screen_line(k));
		}
	}
	cr_expect_gt(corners, 0, "the waiter's wakers are on screen");
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/*
 * The time axes' labels are whole where there is room: nest.data's times
 * (33801.634281, 12 characters) once showed as "33801.6342…" in the
 * flame scope's 11 columns between ticks; a tick without room for its
 * label is left out, never drawn cut.
 */
Test(panes, axis_labels_whole)
{
	struct session *s = open_fixture("nest.data");
	struct symbols *sy = fixture_symbols(s);
	static const int widths[] = { 100, 80, 67 };
	struct pane p;

	symbols_run(sy);
	for (int id = 0; id < 2; id++) {
		cr_assert_eq(pane_create_sym(&p, id ? PANE_FSCOPE : PANE_TIMELINE, s, NULL, sy), 0);
		for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
			int labels = 0;

			screen_draw(&p, 30, widths[i]);
			for (int y = 0; y < 30; y++) {
				const char *l = screen_line(y), *q = l;

				if (strstr(l, "|33801.634281") == NULL)
					continue;
				cr_expect(strstr(l, "\u2026") == NULL, "%s at %d: a cut label: %s",
				    id ? "flame scope" : "timeline", widths[i], l);
				while ((q = strstr(q, "|33801.")) != NULL) {
					cr_expect(strlen(q) >= 13 && q[7] >= '0' && q[7] <= '9' &&
					    strspn(q + 7, "0123456789") == 6, "a whole label: %s", l);
					labels++;
					q++;
				}
			}
			cr_expect_geq(labels, 2, "%s at %d: the axis' labels",
			    id ? "flame scope" : "timeline", widths[i]);
		}
		pane_destroy(&p);
	}
	symbols_free(sy);
	session_close(s);
}

/*
 * With the off-CPU event in the scope, the timeline's header states its
 * spans and time in the scope (perfnav top --off-cpu: 476 spans, 1.675 s
 * of offcpu.data), not the 486 sched_switch samples the lanes draw.
 */
Test(panes, timeline_header_of_the_offcpu_event)
{
	struct session *s = open_fixture("offcpu.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p;
	size_t ev;
	const char *head;

	symbols_run(sy);
	for (ev = 0; ev < hist_nevents(sy->h) && !symbols_event_offcpu(sy, ev); ev++)
		;
	cr_assert_lt(ev, hist_nevents(sy->h), "an off-CPU event");
	sy->scope.ev = ev;
	sy->scope.gen++;
	cr_assert_eq(pane_create_sym(&p, PANE_TIMELINE, s, NULL, sy), 0);
	screen_draw(&p, 20, 160);
	head = screen_line(0);
	cr_expect_not_null(strstr(head, "| 476 off-CPU spans, 1.675 s off CPU |"), "%s", head);
	cr_expect_null(strstr(head, "486 samples"), "%s", head);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/* The drawn screen's lines, joined. */
static char *
screen_text(struct pane *p)
{
	size_t cap = 8192, len = 0;
	char *out = malloc(cap);

	cr_assert_not_null(out);
	screen_draw(p, 20, 120);
	for (int y = 0; y < 20; y++) {
		const char *l = screen_line(y);

		while (len + strlen(l) + 2 >= cap)
			out = realloc(out, cap *= 2);
		len += (size_t)snprintf(out + len, cap - len, "%s\n", l);
	}
	return out;
}

/*
 * With the app's steps on, the lanes are made a few positions at a time
 * between keys: meanwhile no row and the progress drawn, keys leave them
 * be, a time step entered is applied once they are made, and the pane
 * then draws what it draws with the lanes made at once.  The CPU lanes
 * (p) are made in steps too.
 */
Test(panes, timeline_lanes_made_in_steps)
{
	struct session *s = open_fixture("switch.data");
	struct symbols *sy = fixture_symbols(s);
	const struct rec_index *ix = session_index(s);
	struct nav_view v;
	struct pane one, p;
	char *want, *got, *during;

	symbols_run(sy);
	nav_view_init(&v, PANE_TIMELINE);
	v.target = NAV_T_TIME;
	v.arg = index_ent(ix, ix->n / 3)->time;
	v.arg2 = index_ent(ix, ix->n / 2)->time;
	cr_assert_eq(pane_create_sym(&one, PANE_TIMELINE, s, NULL, sy), 0);
	one.ops->enter(&one, &v);
	want = screen_text(&one);
	pane_destroy(&one);

	sy->steps = 1;
	cr_assert_eq(pane_create_sym(&p, PANE_TIMELINE, s, NULL, sy), 0);
	cr_assert_eq(p.ops->nrows(&p), 0, "no lane before they are made");
	during = screen_text(&p);
	cr_assert(strstr(during, "Timeline: making the processes' and threads' lanes, 0% done"),
	    "%s", during);
	free(during);
	cr_assert_eq(p.ops->key(&p, ACT_TIME_RIGHT), PANE_IGNORED);
	p.ops->enter(&p, &v);	/* applied once made */
	cr_assert_gt(pane_work_out(&p), 10, "made in steps");
	cr_assert_eq(p.ops->work(&p, 0), PANE_WORK_NONE);
	cr_assert_eq(p.ops->nrows(&p), 6);
	got = screen_text(&p);
	cr_assert_str_eq(got, want, "as made at once, the time step's range shown");
	free(got);
	/* p: the CPU lanes, made in steps */
	cr_assert_eq(p.ops->key(&p, ACT_TIMELINE_LANES), PANE_HANDLED | PANE_REDRAW);
	cr_assert_eq(p.ops->nrows(&p), 0);
	pane_work_out(&p);
	cr_assert_eq(p.ops->nrows(&p), 2);
	free(want);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/*
 * The heat map too: its lanes made in steps between keys (progress drawn,
 * keys left be), then the cells of lanes made at once.
 */
Test(panes, fscope_lanes_made_in_steps)
{
	struct session *s = open_fixture("switch.data");
	struct symbols *sy = fixture_symbols(s);
	struct nav_view v;
	struct pane one, p;
	char *want, *got, *during;

	symbols_run(sy);
	nav_view_init(&v, PANE_FSCOPE);
	cr_assert_eq(pane_create_sym(&one, PANE_FSCOPE, s, NULL, sy), 0);
	one.ops->enter(&one, &v);
	want = screen_text(&one);
	pane_destroy(&one);

	sy->steps = 1;
	cr_assert_eq(pane_create_sym(&p, PANE_FSCOPE, s, NULL, sy), 0);
	p.ops->enter(&p, &v);
	during = screen_text(&p);
	cr_assert(strstr(during, "Heat map | making the lanes, 0% done"), "%s", during);
	free(during);
	cr_assert_eq(p.ops->key(&p, ACT_TIME_RIGHT), PANE_IGNORED);
	cr_assert_gt(pane_work_out(&p), 10, "made in steps");
	cr_assert_eq(p.ops->work(&p, 0), PANE_WORK_NONE);
	got = screen_text(&p);
	cr_assert_str_eq(got, want, "as made at once");
	cr_assert_eq(p.ops->key(&p, ACT_TIME_RIGHT), PANE_HANDLED | PANE_REDRAW);
	free(got);
	free(want);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}
