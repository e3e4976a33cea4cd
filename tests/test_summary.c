/*
 * Criterion tests of the Summary page: its model (symbolize/summary.h)
 * over the perf-made fixtures and synthetic LOST records, each number
 * checked against the same number found another way (perf report
 * --stats's counts, the header's sample times, the index's who, the
 * hist's rows and its nodes), and the pane (tui/pane/pane_summary.c): its
 * rows while symbols resolve and after, its jumps, names drawn escaped.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/hist.h"
#include "symbolize/symbolizer.h"
#include "symbolize/summary.h"
#include "tests/helpers.h"
#include "tests/tui_helpers.h"
#include "tui/nav.h"
#include "tui/pane.h"
#include "tui/scope.h"
#include "tui/symbols.h"
#include "tui/widget.h"

/* ---- counting another way ---- */

#define TALLY_MAX	256

/* Samples per id (a pid or a tid), counted by hand. */
struct tally {
	int32_t		id[TALLY_MAX];
	uint64_t	n[TALLY_MAX];
	size_t		len;
};

static void
tally_add(struct tally *t, int32_t id)
{
	size_t i;

	for (i = 0; i < t->len && t->id[i] != id; i++)
		;
	if (i == t->len) {
		cr_assert_lt(t->len, TALLY_MAX);
		t->id[t->len] = id;
		t->n[t->len++] = 0;
	}
	t->n[i]++;
}

static uint64_t
tally_get(const struct tally *t, int32_t id)
{
	for (size_t i = 0; i < t->len; i++)
		if (t->id[i] == id)
			return t->n[i];
	return 0;
}

/* Samples per pid and per tid, from who each SAMPLE record of the index is about. */
static uint64_t
count_who(const struct session *s, struct tally *pids, struct tally *tids)
{
	const struct rec_index *ix = session_index(s);
	uint64_t n = 0;

	memset(pids, 0, sizeof *pids);
	memset(tids, 0, sizeof *tids);
	for (size_t i = 0; i < ix->n; i++) {
		struct ent_who w;

		if (ent_type(index_ent(ix, i)) != PF_REC_SAMPLE)
			continue;
		w = session_ent_who(s, i);
		tally_add(pids, w.pid);
		tally_add(tids, w.tid);
		n++;
	}
	return n;
}

/* perf report --stats's "SAMPLE events: N" for a fixture (tests/data/expected). */
static uint64_t
perf_stats_samples(const char *name)
{
	char path[4096], *text, *at;
	unsigned long long n = 0;

	snprintf(path, sizeof path, "%s/expected/%s.stats.txt", TEST_DATA, name);
	text = slurp(path, NULL);
	cr_assert_not_null(text, "%s", path);
	at = strstr(text, "SAMPLE events:");
	cr_assert_not_null(at, "%s has no SAMPLE line", path);
	cr_assert_eq(sscanf(at, "SAMPLE events: %llu", &n), 1);
	free(text);
	return n;
}

/* The processes and threads of a summary against the index's own counts. */
static void
check_tasks(const struct session *s, const struct summary *su)
{
	struct tally pids, tids;
	uint64_t n = count_who(s, &pids, &tids);

	cr_assert_eq(n, su->samples);
	cr_assert_eq(su->procs_with, pids.len, "processes with samples");
	cr_assert_eq(su->threads_with, tids.len, "threads with samples");
	cr_assert_eq(su->nprocs, pids.len < SUMMARY_TOP_TASKS ? pids.len : SUMMARY_TOP_TASKS);
	cr_assert_eq(su->nthreads, tids.len < SUMMARY_TOP_TASKS ? tids.len : SUMMARY_TOP_TASKS);
	for (size_t i = 0; i < su->nprocs; i++) {
		cr_assert_eq(su->procs[i].samples, tally_get(&pids, su->procs[i].pid), "pid %d",
		    su->procs[i].pid);
		cr_assert_eq(su->procs[i].tid, su->procs[i].pid);
		if (i > 0)
			cr_assert_geq(su->procs[i - 1].samples, su->procs[i].samples, "the most first");
	}
	for (size_t i = 0; i < su->nthreads; i++) {
		cr_assert_eq(su->threads[i].samples, tally_get(&tids, su->threads[i].tid), "tid %d",
		    su->threads[i].tid);
		if (i > 0)
			cr_assert_geq(su->threads[i - 1].samples, su->threads[i].samples);
	}
}

/* ---- the recording ---- */

Test(summary, fork_data_samples_span_and_processes)
{
	struct session *s = open_fixture("fork.data");
	const struct features *f = session_features(s);
	struct summary su;

	summary_new(s, &su);
	cr_assert_eq(su.samples, perf_stats_samples("fork.data"));
	cr_assert_eq(su.lost, 0);
	cr_assert_eq(su.lost_records, 0);
	/* the span is the header's SAMPLE_TIME section, which perf wrote from the samples */
	cr_assert(f->sec[PF_FEAT_SAMPLE_TIME].present, "fork.data has SAMPLE_TIME");
	cr_assert(su.has_time);
	cr_assert_eq(su.first, f->sample_time_first);
	cr_assert_eq(su.last, f->sample_time_last);
	cr_assert_eq(su.procs_with, 3, "the parent, a forked and an exec'd child");
	check_tasks(s, &su);
	session_close(s);
}

Test(summary, threads_and_events_of_other_fixtures)
{
	const char *fx[] = { "pipe.data", "dir.data", "multi.data", "tracepoint.data",
		"nest.data", "stat.data" };

	for (size_t i = 0; i < sizeof fx / sizeof fx[0]; i++) {
		struct session *s = open_fixture(fx[i]);
		struct summary su;

		summary_new(s, &su);
		check_tasks(s, &su);
		if (strcmp(fx[i], "pipe.data") == 0)
			cr_assert_eq(su.threads_with, 4, "main and its three workers");
		if (strcmp(fx[i], "stat.data") == 0)
			cr_assert(su.samples == 0 && !su.has_time && su.nprocs == 0);
		session_close(s);
	}
}

/* synth_file's EXIT record made a LOST (2) or LOST_SAMPLES (13) record of lost samples. */
static void
lost_case(uint32_t type, uint64_t lost)
{
	struct pdbuf b = { 0 };
	struct session_mem m;
	struct perf_err err;
	struct session *s;
	struct summary su;
	size_t at;

	synth_file(&b, false, 8);
	at = synth_layout.feat_table - 64;
	cr_assert_eq(b.p[at], 4);	/* EXIT, 64 bytes */
	pd_put32(&b, at, type);
	if (type == PF_REC_LOST) {
		pd_put64(&b, at + 8, 100);	/* id */
		pd_put64(&b, at + 16, lost);
	} else {
		pd_put64(&b, at + 8, lost);
	}
	m = (struct session_mem){ b.p, b.len };
	s = session_open_mem("synth", &m, 1, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	summary_new(s, &su);
	cr_assert_eq(su.samples, 8);
	cr_assert_eq(su.lost_records, 1);
	cr_assert_eq(su.lost, lost);
	cr_assert_eq(su.first, 1000);
	cr_assert_eq(su.last, 1070);
	session_close(s);
	pd_free(&b);
}

Test(summary, lost_records_and_what_they_lost)
{
	lost_case(PF_REC_LOST, 7);
	lost_case(PF_REC_LOST_SAMPLES, 5);
}

/* ---- over the hist ---- */

static struct symbols *
resolved(struct session *s)
{
	struct symbols *sy = fixture_symbols(s);

	symbols_run(sy);
	return sy;
}

/* A function's own samples and period, summed by hand over the hist's comm,tid,dso,sym rows. */
static void
func_sum(struct hist *h, size_t ev, uint32_t dso, uint32_t node, uint64_t *samples,
    uint64_t *period)
{
	const uint32_t *rows;
	size_t n = hist_rows(h, ev, 0.0, &rows);

	*samples = *period = 0;
	for (size_t i = 0; i < n; i++) {
		const struct hist_entry *e = hist_entry_get(h, rows[i]);

		if (e->dso == dso && e->node == node) {
			*samples += e->samples;
			*period += e->period;
		}
	}
}

Test(summary, hot_functions_per_event_are_the_hist_s)
{
	struct session *s = open_fixture("multi.data");
	struct symbols *sy = resolved(s);
	struct hist *h = sy->h;
	struct hist_entry top[SUMMARY_TOP_FUNCS];

	cr_assert_eq(hist_nevents(h), 2);
	for (size_t ev = 0; ev < 2; ev++) {
		size_t n = summary_hot(h, ev, NULL, top, SUMMARY_TOP_FUNCS);
		const uint32_t *hr;
		size_t nr = hist_rows(h, ev, 0.0, &hr);
		uint32_t *rows = malloc((nr + 1) * sizeof *rows);

		size_t distinct = 0;

		cr_assert_not_null(rows);
		memcpy(rows, hr, nr * sizeof *rows);
		/* as many as the event has functions with samples, five at most */
		for (size_t i = 0; i < nr; i++) {
			const struct hist_entry *e = hist_entry_get(h, rows[i]);
			bool seen = e->samples == 0;

			for (size_t j = 0; j < i && !seen; j++) {
				const struct hist_entry *o = hist_entry_get(h, rows[j]);

				seen = o->samples > 0 && o->dso == e->dso && o->node == e->node;
			}
			distinct += !seen;
		}
		cr_assert_gt(distinct, 1);
		cr_assert_eq(n, distinct < SUMMARY_TOP_FUNCS ? distinct : SUMMARY_TOP_FUNCS,
		    "event %zu: %zu of %zu", ev, n, distinct);
		for (size_t k = 0; k < n; k++) {
			uint64_t smp, per;

			func_sum(h, ev, top[k].dso, top[k].node, &smp, &per);
			cr_assert_eq(top[k].samples, smp, "event %zu #%zu", ev, k);
			cr_assert_eq(top[k].period, per);
			if (k > 0)
				cr_assert_geq(top[k - 1].samples, top[k].samples);
		}
		/* no function outside the five has more samples than the fifth */
		for (size_t i = 0; i < nr; i++) {
			const struct hist_entry *e = hist_entry_get(h, rows[i]);
			uint64_t smp, per;
			bool in = false;

			for (size_t k = 0; k < n; k++)
				in = in || (top[k].node == e->node && top[k].dso == e->dso);
			func_sum(h, ev, e->dso, e->node, &smp, &per);
			cr_assert(in || smp <= top[n - 1].samples, "event %zu: a hotter function left out",
			    ev);
		}
		free(rows);
	}
	cr_assert_eq(summary_hot(h, 2, NULL, top, SUMMARY_TOP_FUNCS), 0, "no third event");
	symbols_free(sy);
	session_close(s);
}

/* What did not resolve, per DSO: the samples of the hist's rows whose function is no symbol. */
Test(summary, unresolved_samples_are_the_unresolved_rows)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = resolved(s);
	struct hist *h = sy->h;
	struct summary_unres *u;
	size_t n = summary_unresolved(h, &u);
	uint64_t by_rows = 0, by_model = 0, kernel = 0;
	const uint32_t *rows;
	size_t nr = hist_rows(h, 0, 0.0, &rows);

	cr_assert_gt(n, 0, "kernel addresses do not resolve without kallsyms");
	for (size_t i = 0; i < nr; i++) {
		const struct hist_entry *e = hist_entry_get(h, rows[i]);

		if (hist_node_get(h, e->node)->f.sym == SYM_NONE)
			by_rows += e->samples;
	}
	for (size_t i = 0; i < n; i++) {
		by_model += u[i].samples;
		cr_assert_neq(u[i].why, SYM_WHY_OK);
		if (i > 0)
			cr_assert_geq(u[i - 1].samples, u[i].samples, "the most first");
		if (u[i].dso != DSO_NONE &&
		    strcmp(symbolizer_dso_short(sy->z, u[i].dso), "[kernel.kallsyms]") == 0) {
			kernel = u[i].samples;
			cr_assert_eq(u[i].why, SYM_WHY_NO_KALLSYMS);
		}
	}
	cr_assert_eq(by_model, by_rows);
	cr_assert_gt(kernel, 0);
	free(u);
	symbols_free(sy);
	session_close(s);
}

/* ---- the pane ---- */

/*
 * The visible position of the first row at or after from whose first
 * column (the item) starts with text, WIDGET_NONE if none.
 */
static size_t
item_at(struct pane *p, size_t from, const char *text)
{
	struct row *r = malloc(sizeof *r);
	size_t at = WIDGET_NONE;

	cr_assert_not_null(r);
	for (size_t i = from; i < widget_count(&p->w) && at == WIDGET_NONE; i++) {
		row_reset(r);
		p->ops->row(p, widget_source(&p->w, i), r);
		if (r->col[0] != NULL && strncmp(r->col[0], text, strlen(text)) == 0)
			at = i;
	}
	free(r);
	return at;
}

/* The cursor on the first row of section sect whose item starts with text. */
static void
goto_item(struct pane *p, const char *sect, const char *text)
{
	size_t s = item_at(p, 0, sect), at;

	cr_assert_neq(s, WIDGET_NONE, "no section %s", sect);
	at = item_at(p, s + 1, text);
	cr_assert_neq(at, WIDGET_NONE, "no row %s in %s", text, sect);
	widget_goto_row(&p->w, widget_source(&p->w, at));
}

Test(summary_pane, resolving_then_rows_and_jumps)
{
	struct session *s = open_fixture("fork.data");
	struct symbols *sy = fixture_symbols(s);
	struct hist_entry top[SUMMARY_TOP_FUNCS];
	struct summary su;
	struct pane p, hot;
	struct nav_view v;
	const char *fn;
	char name[128];
	int r;

	cr_assert_eq(pane_create_sym(&p, PANE_SUMMARY, s, NULL, sy), 0);
	nav_view_init(&v, PANE_SUMMARY);
	p.ops->enter(&p, &v);
	cr_assert_neq(find_text(&p, "resolving"), WIDGET_NONE, "symbols not in yet");
	cr_assert_neq(find_text(&p, "forkexec"), WIDGET_NONE, "the processes are there already");
	symbols_run(sy);
	p.ops->enter(&p, &v);
	cr_assert_eq(find_text(&p, "resolving"), WIDGET_NONE, "every row filled in");
	summary_new(s, &su);
	snprintf(name, sizeof name, "%" PRIu64, su.samples);
	cr_assert_neq(find_text(&p, name), WIDGET_NONE);

	/* Enter on the hottest function: its row in the hot functions */
	cr_assert_eq(summary_hot(sy->h, 0, NULL, top, 1), 1);
	fn = symbolizer_label_name(hist_str(sy->h, hist_node_get(sy->h, top[0].node)->label));
	snprintf(name, sizeof name, "%s", fn);
	goto_item(&p, "Hot functions", name);
	r = p.ops->key(&p, ACT_ENTER);
	cr_assert_eq(r & PANE_PUSH, PANE_PUSH);
	cr_assert_eq(p.push.pane, PANE_HOT);
	hot_pane(&hot, s, sy);
	go(&hot, &p.push);
	cr_assert(row_has(&hot, widget_cursor_row(&hot.w), name), "the hot pane is on %s", name);
	cr_assert_eq(hot.ops->func(&hot), top[0].node);
	pane_destroy(&hot);

	/* Enter on the busiest process: the scope zoomed into it */
	snprintf(name, sizeof name, "%" PRId32 " ", su.procs[0].pid);
	goto_item(&p, "Processes", name);
	r = p.ops->key(&p, ACT_ENTER);
	cr_assert_eq(r & PANE_PUSH, PANE_PUSH);
	cr_assert_eq(p.push.target, NAV_T_ZOOM);
	cr_assert_eq(p.push.arg, SZ_PID);
	cr_assert_eq((int32_t)(p.push.arg2 >> 32), su.procs[0].pid);
	/* v on it: its events */
	cr_assert_eq(p.ops->key(&p, ACT_EVENTS) & PANE_PUSH, PANE_PUSH);
	cr_assert_eq(p.push.pane, PANE_EVENTS);
	snprintf(name, sizeof name, "pid:%" PRId32, su.procs[0].pid);
	cr_assert_str_eq(p.push.filter, name);

	/* no LOST records: the lost row says so */
	goto_item(&p, "Recording", "Lost samples");
	cr_assert_eq(p.ops->key(&p, ACT_ENTER), PANE_HANDLED | PANE_MSG);
	cr_assert_not_null(strstr(p.msg, "lost no samples"));
	/* a DSO whose symbols failed says why */
	goto_item(&p, "Unresolved symbols", "[kernel.kallsyms]");
	cr_assert_eq(p.ops->key(&p, ACT_ENTER), PANE_HANDLED | PANE_MSG);
	cr_assert_not_null(strstr(p.msg, sym_why_text(SYM_WHY_NO_KALLSYMS)), "%s", p.msg);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/* multi.data: Enter on an event makes it the scope's; a hotspot of the other event switches back. */
Test(summary_pane, events_switch_the_scope)
{
	struct session *s = open_fixture("multi.data");
	struct symbols *sy = fixture_symbols(s);
	struct hist_entry top[1];
	struct pane p;
	struct nav_view v;

	symbols_run(sy);
	cr_assert_eq(pane_create_sym(&p, PANE_SUMMARY, s, NULL, sy), 0);
	nav_view_init(&v, PANE_SUMMARY);
	p.ops->enter(&p, &v);
	cr_assert_eq(sy->scope.ev, 0);
	goto_item(&p, "Events", "task-clock");
	cr_assert_eq(p.ops->key(&p, ACT_ENTER) & PANE_MSG, PANE_MSG);
	cr_assert_eq(sy->scope.ev, 1);
	cr_assert_str_eq(hist_str(sy->h, hist_event(sy->h, 1)->name), "task-clock");
	/* the hottest function of cpu-clock: its section comes first */
	cr_assert_eq(summary_hot(sy->h, 0, NULL, top, 1), 1);
	goto_item(&p, "Hot functions", symbolizer_label_name(hist_str(sy->h,
	    hist_node_get(sy->h, top[0].node)->label)));
	cr_assert_eq(p.ops->key(&p, ACT_ENTER) & PANE_PUSH, PANE_PUSH);
	cr_assert_eq(sy->scope.ev, 0, "the hotspot's event");
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/* Every row of the summary of every fixture: Enter does something, never nothing. */
Test(summary_pane, every_row_of_every_fixture_answers_enter)
{
	const char *fx[] = { "plain.data", "fp.data", "dwarf.data", "pipe.data", "dir.data",
		"zstd.data", "multi.data", "group.data", "fork.data", "tracepoint.data",
		"switch.data", "stat.data", "nest.data" };

	for (size_t f = 0; f < sizeof fx / sizeof fx[0]; f++) {
		struct session *s = open_fixture(fx[f]);
		struct symbols *sy = fixture_symbols(s);
		struct pane p;
		struct nav_view v;
		size_t n;

		symbols_run(sy);
		cr_assert_eq(pane_create_sym(&p, PANE_SUMMARY, s, NULL, sy), 0);
		nav_view_init(&v, PANE_SUMMARY);
		p.ops->enter(&p, &v);
		cr_assert_eq(find_text(&p, "resolving"), WIDGET_NONE, "%s", fx[f]);
		n = widget_count(&p.w);
		for (size_t i = 0; i < n; i++) {
			int r;

			widget_goto_row(&p.w, widget_source(&p.w, i));
			if (widget_has_children(&p.w, widget_source(&p.w, i)))
				continue;	/* a section: Enter folds it */
			p.msg[0] = '\0';
			r = p.ops->key(&p, ACT_ENTER);
			cr_assert(r & PANE_HANDLED, "%s row %zu", fx[f], i);
			cr_assert(r & (PANE_PUSH | PANE_MSG) || row_has(&p, widget_source(&p.w, i),
			    "no samples") || row_has(&p, widget_source(&p.w, i), "resolved"),
			    "%s row %zu: Enter did nothing", fx[f], i);
			if (r & PANE_MSG)
				cr_assert_neq(p.msg[0], '\0');
			while (sy->scope.nundo > 0)	/* an event chosen: back to the first */
				scope_undo(&sy->scope);
		}
		pane_destroy(&p);
		symbols_free(sy);
		session_close(s);
	}
}

#define HOSTILE	"\x1b]0;t\x07\x1b[2J"

/* Names from the recording (host, command line, comm, event) drawn escaped. */
Test(summary_pane, names_drawn_escaped)
{
	static const struct synth_names nm = {
		.comm = "c" HOSTILE, .dso = "/nonexistent/d.so", .event = "ev" HOSTILE,
		.hostname = "h" HOSTILE, .cmdline_arg = "a" HOSTILE,
	};
	struct pdbuf b = { 0 };
	struct session_mem m;
	struct perf_err err;
	struct session *s;
	struct pane p;
	bool host = false, comm = false;

	synth_names_file(&b, &nm, 10);
	m = (struct session_mem){ b.p, b.len };
	s = session_open_mem("synth", &m, 1, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	cr_assert_eq(pane_create(&p, PANE_SUMMARY, s, NULL), 0);
	symbols_run(p.sym);
	screen_draw(&p, 40, 160);
	for (int y = 0; y < 40; y++) {
		const char *l = screen_line(y);

		cr_assert_null(strchr(l, '\x1b'), "line %d: %s", y, l);
		cr_assert_null(strchr(l, '\x07'));
		host = host || strstr(l, "h\\x1b]0;t\\x07\\x1b[2J") != NULL;
		comm = comm || strstr(l, "c\\x1b]0;t\\x07\\x1b[2J") != NULL;
	}
	cr_assert(host, "the hostname, escaped");
	cr_assert(comm, "the comm, escaped");
	pane_destroy(&p);
	session_close(s);
	pd_free(&b);
}

/*
 * In a time step the unresolved rows (counted once over every sample) are
 * a share of every sample, never over 100% (the trial's 120% was their
 * count over the step's samples).
 */
Test(summary_pane, unresolved_share_in_a_time_step)
{
	struct session *s = open_fixture("fork.data");
	struct symbols *sy = fixture_symbols(s);
	const struct rec_index *ix = session_index(s);
	struct pane p;
	struct nav_view v;
	struct row r;
	size_t sect, at;
	char want[32];

	symbols_run(sy);
	cr_assert(scope_time_push(&sy->scope, index_ent(ix, ix->n / 2)->time, index_ent(ix, ix->n * 3 / 5)->time));
	cr_assert_eq(symbols_apply_scope(sy), 0);
	cr_assert_eq(pane_create_sym(&p, PANE_SUMMARY, s, NULL, sy), 0);
	nav_view_init(&v, PANE_SUMMARY);
	p.ops->enter(&p, &v);
	sect = item_at(&p, 0, "Unresolved symbols");
	cr_assert_neq(sect, WIDGET_NONE);
	at = item_at(&p, sect + 1, "[kernel.kallsyms]");
	cr_assert_neq(at, WIDGET_NONE);
	row_reset(&r);
	p.ops->row(&p, widget_source(&p.w, at), &r);
	snprintf(want, sizeof want, "%.2f%%", 100.0 * (double)strtoull(r.col[1], NULL, 10) /
	    (double)session_counts(s)->by_type[PF_REC_SAMPLE]);
	cr_assert_str_eq(r.col[2], want, "share %s, of every sample %s", r.col[2], want);
	cr_assert_lt(strtod(r.col[2], NULL), 100.0);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/*
 * In a time step an event's row counts the step's samples, as its period
 * is theirs (perfnav top --time's Samples and Event count), never the
 * recording's samples beside the step's period.
 */
Test(summary_pane, events_in_a_time_step_are_the_step_s)
{
	struct session *s = open_fixture("fork.data");
	struct symbols *sy = fixture_symbols(s);
	const struct rec_index *ix = session_index(s);
	const struct hist_event *he;
	struct pane p;
	struct nav_view v;
	struct row r;
	size_t sect, at;
	char want[64];

	symbols_run(sy);
	cr_assert(scope_time_push(&sy->scope, index_ent(ix, ix->n / 2)->time, index_ent(ix, ix->n * 3 / 5)->time));
	cr_assert_eq(symbols_apply_scope(sy), 0);
	he = hist_event(sy->h, 0);
	cr_assert_lt(he->nsamples, session_counts(s)->by_type[PF_REC_SAMPLE], "a step of the samples");
	cr_assert_gt(he->nsamples, 0);
	cr_assert_eq(pane_create_sym(&p, PANE_SUMMARY, s, NULL, sy), 0);
	nav_view_init(&v, PANE_SUMMARY);
	p.ops->enter(&p, &v);
	sect = item_at(&p, 0, "Events");
	cr_assert_neq(sect, WIDGET_NONE);
	at = item_at(&p, sect + 1, hist_str(sy->h, he->name));
	cr_assert_neq(at, WIDGET_NONE);
	row_reset(&r);
	p.ops->row(&p, widget_source(&p.w, at), &r);
	snprintf(want, sizeof want, "%" PRIu64, he->nsamples);
	cr_expect_str_eq(r.col[1], want, "the step's samples");
	cr_expect_str_eq(r.col[2], "100.00%");
	snprintf(want, sizeof want, "period %" PRIu64, he->total_period);
	cr_expect(strncmp(r.col[3], want, strlen(want)) == 0, "%s: the step's period %s", r.col[3], want);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/*
 * In a time step the processes are the step's, as the processes pane and
 * perfnav tree --time count them: the busiest process of the step with
 * its samples and its share of the step's samples.
 */
Test(summary_pane, processes_in_a_time_step_are_the_step_s)
{
	struct session *s = open_fixture("fork.data");
	struct symbols *sy = fixture_symbols(s);
	const struct rec_index *ix = session_index(s);
	uint64_t t0 = index_ent(ix, ix->n / 2)->time, t1 = index_ent(ix, ix->n * 3 / 5)->time;
	uint64_t in = 0, best = 0, cnt;
	int32_t pids[64], best_pid = 0;
	uint64_t n[64] = { 0 };
	size_t np = 0, sect, at;
	struct summary su;
	struct pane p;
	struct nav_view v;
	struct row r;
	char want[64];

	/* the step's samples per process, from the index */
	for (size_t i = 0; i < ix->n; i++) {
		const struct rec_ent *e = index_ent(ix, i);
		int32_t pid;
		size_t k;

		if (ent_type(e) != PF_REC_SAMPLE || e->time < t0 || e->time > t1)
			continue;
		in++;
		pid = session_ent_who(s, i).pid;
		for (k = 0; k < np && pids[k] != pid; k++)
			;
		if (k == np && np < 64)
			pids[np++] = pid;
		if (k < np && ++n[k] > best) {
			best = n[k];
			best_pid = pid;
		}
	}
	cr_assert_gt(best, 0);
	summary_new(s, &su);
	cr_assert(su.procs[0].pid != best_pid || su.procs[0].samples != best,
	    "the fixture's step differs from the whole recording");
	symbols_run(sy);
	cr_assert(scope_time_push(&sy->scope, t0, t1));
	cr_assert_eq(symbols_apply_scope(sy), 0);
	cr_assert_eq(pane_create_sym(&p, PANE_SUMMARY, s, NULL, sy), 0);
	nav_view_init(&v, PANE_SUMMARY);
	p.ops->enter(&p, &v);
	sect = item_at(&p, 0, "Processes");
	cr_assert_neq(sect, WIDGET_NONE);
	at = sect + 1;
	row_reset(&r);
	p.ops->row(&p, widget_source(&p.w, at), &r);
	snprintf(want, sizeof want, "%" PRId32 " ", best_pid);
	cr_expect(strncmp(r.col[0], want, strlen(want)) == 0, "the step's busiest: %s, not %s", want, r.col[0]);
	cnt = strtoull(r.col[1], NULL, 10);
	cr_expect_eq(cnt, best, "its samples in the step: %" PRIu64 ", not %" PRIu64, best, cnt);
	snprintf(want, sizeof want, "%.2f%%", 100.0 * (double)best / (double)in);
	cr_expect_str_eq(r.col[2], want, "a share of the step's samples");
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}
