/*
 * Criterion tests of every sort key and of event groups in the browser (tui/keytab.h,
 * tui/pane/pane_hot.c): the hot pane with any --sort shows, column for
 * column, the table a hist made as perfnav top makes it gives, over the
 * scope (time, thread, DSO zoom), whether its rows are the browser's hist
 * merged or a table of their own built in the background.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/filter.h"
#include "symbolize/hist.h"
#include "symbolize/offcpu.h"
#include "symbolize/symbolizer.h"
#include "tests/tui_helpers.h"
#include "tui/keytab.h"
#include "tui/pane.h"
#include "tui/scope.h"
#include "tui/scope_edit.h"
#include "tui/symbols.h"
#include "tui/widget.h"

enum zoom { Z_NONE, Z_TIME, Z_TID, Z_DSO };

/*
 * The expected table: a hist of keys over the samples f chooses, in
 * perfnav top's modes (branch mode on a recording with branch stacks,
 * memory mode for memory keys, children with callchains otherwise).
 */
static struct hist *
reference(struct session *s, struct symbolizer *z, const enum hist_key *keys, unsigned nk,
    const struct hist_filter *f)
{
	struct hist_opts o = { .nkeys = nk, .event = -1, .max_stack = HIST_DEFAULT_MAX_STACK };
	bool branch = session_features(s)->sec[PF_FEAT_BRANCH_STACK].present, mem = false;
	struct hist *h;

	for (unsigned i = 0; i < nk; i++) {
		o.keys[i] = keys[i];
		mem |= hist_key_mem(keys[i]);
		if (hist_key_branch(keys[i]))
			o.branch = HIST_BRANCH_ON;
	}
	o.mem_mode = mem;
	o.children = attr_table_has_callchains(session_attrs(s)) && !branch && !mem;
	o.chain_root_first = o.children;
	o.filter = f;
	h = hist_new(s, z, &o);
	hist_add_session(h, NULL);
	hist_finish(h);
	return h;
}

/* The zoom z applied to sy's scope; f gets the same samples as start options (names: storage). */
static void
zoom(struct symbols *sy, enum zoom z, struct hist_filter *f, struct filter_range *tr,
    int32_t *tid, char **name)
{
	const struct hist_entry *const *m;
	size_t n = hist_rows_merged(sy->h, 0, NULL, HIST_KEEP(HIST_KEY_TID) | HIST_KEEP(HIST_KEY_DSO),
	    0, &m);
	const struct rec_index *ix = session_index(sy->s);

	memset(f, 0, sizeof *f);
	cr_assert_gt(n, 0);
	switch (z) {
	case Z_NONE:
		break;
	case Z_TIME:
		tr->start = index_ent(ix, ix->n / 3)->time;
		tr->end = index_ent(ix, ix->n * 2 / 3)->time;
		cr_assert(scope_time_push(&sy->scope, tr->start, tr->end));
		f->time = tr;
		f->ntime = 1;
		break;
	case Z_TID:
		*tid = m[0]->tid;
		scope_zoom_set(&sy->scope, SZ_TID, m[0]->pid, m[0]->tid, 0, "thread");
		f->tids = tid;
		f->ntids = 1;
		break;
	case Z_DSO:
		*name = (char *)symbolizer_dso_short(sy->z, m[0]->dso);
		scope_zoom_set(&sy->scope, SZ_DSO, 0, 0, m[0]->dso, "dso");
		f->dsos = name;
		f->ndsos = 1;
		break;
	}
	(void)symbols_apply_scope(sy);	/* -1 where the hist cannot be recounted (branch stacks) */
}

/* The hot pane sorted by list over fixture, in zoom z, against the reference table. */
static void
check_sort(const char *fixture, const char *list, enum zoom z, bool keyed)
{
	struct session *s = open_fixture(fixture);
	struct symbols *sy = fixture_symbols(s);
	struct sym_opts so = { .buildid_dir = TEST_DATA "/buildid", .kallsyms = "/dev/null" };
	struct symbolizer *rz = symbolizer_new(s, &so);
	struct scope_sort sort;
	struct hist_filter f;
	struct filter_range tr;
	int32_t tid;
	char *name = NULL, msg[200], text[1024], pct[32];
	struct hist *h;
	const uint32_t *ix;
	struct pane p;
	struct row r;
	size_t n;

	cr_assert_eq(scope_parse_sort(list, &sort, msg, sizeof msg), 0, "%s: %s", list, msg);
	cr_assert_eq(!scope_sort_merged(&sort), keyed, "%s: a table of its own or merged", list);
	symbols_run(sy);
	sy->scope.hot_sort = sort;
	zoom(sy, z, &f, &tr, &tid, &name);
	h = reference(s, rz, sort.keys, sort.n, filter_active(&f) ? &f : NULL);
	hot_pane(&p, s, sy);
	pane_settle(&p, sy);
	cr_assert_gt(hist_nevents(h), 0);
	n = hist_rows(h, 0, 0, &ix);
	cr_assert_gt(n, 0, "%s %s: the reference has rows", fixture, list);
	cr_expect_eq(widget_count(&p.w), n, "%s --sort %s (zoom %d): %zu rows, the reference %zu",
	    fixture, list, z, widget_count(&p.w), n);
	for (size_t i = 0; i < n && i < widget_count(&p.w); i++) {
		const struct hist_entry *e = hist_entry_get(h, ix[i]);

		snprintf(pct, sizeof pct, "%.2f%%", hist_self_pct(h, e));
		cr_expect_str_eq(pane_cell(&p, &r, i, p.cols[0].title[0] == 'C' ? "Self" : "Overhead"), pct,
		    "%s --sort %s row %zu: self", fixture, list, i);
		for (unsigned k = 0; k < sort.n; k++) {
			const char *want = hist_key_text(h, e, sort.keys[k], text, sizeof text);
			const char *got = pane_cell(&p, &r, i, hist_key_header(sort.keys[k]));

			while (*want == ' ')	/* perf's right-aligned pids */
				want++;
			while (*got == ' ')
				got++;
			cr_expect_str_eq(got, want, "%s --sort %s row %zu: %s: '%s', perfnav top '%s'",
			    fixture, list, i, hist_key_name(sort.keys[k]), got, want);
		}
	}
	pane_destroy(&p);
	hist_free(h);
	symbolizer_free(rz);
	symbols_free(sy);
	session_close(s);
}

Test(keytab, keys_the_hist_merges_to)
{
	check_sort("fork.data", "pid,sym", Z_NONE, false);
	check_sort("fork.data", "sym,dso", Z_TIME, false);
	check_sort("fork.data", "process,sym", Z_DSO, false);
}

Test(keytab, keys_of_a_table_of_their_own)
{
	check_sort("fork.data", "cpu,sym", Z_NONE, true);
	check_sort("fork.data", "pid,dso", Z_TIME, true);
	check_sort("fork.data", "dso", Z_TID, true);
	check_sort("fork.data", "comm,cpu", Z_DSO, true);
	check_sort("multi.data", "cpu,comm,dso", Z_TIME, true);
}

Test(keytab, trace_branch_and_memory_keys)
{
	check_sort("tracepoint.data", "trace", Z_NONE, true);
	check_sort("branch.data", "dso_from,symbol_to,cycles", Z_NONE, true);
	check_sort("branch.data", "symbol_from", Z_TID, true);
	check_sort("mem.data", "mem,snoop,sym", Z_NONE, true);
}

/* A table being built shows none of another's rows, and its keys refuse what needs a function. */
Test(keytab, a_keyed_table_refuses_function_keys)
{
	struct session *s = open_fixture("fork.data");
	struct symbols *sy = fixture_symbols(s);
	char msg[200];
	struct pane p;

	symbols_run(sy);
	cr_assert_eq(scope_parse_sort("cpu", &sy->scope.hot_sort, msg, sizeof msg), 0);
	hot_pane(&p, s, sy);
	pane_settle(&p, sy);
	cr_assert_gt(widget_count(&p.w), 0);
	cr_expect_eq(p.ops->key(&p, ACT_ANNOTATE), PANE_HANDLED | PANE_MSG);
	cr_expect(strstr(p.msg, "a table by cpu") != NULL, "said: %s", p.msg);
	cr_expect_eq(p.ops->key(&p, ACT_ZOOM_DSO), PANE_HANDLED | PANE_MSG);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/* --sort's words: every key of the table; a bad one, or branch keys without branch stacks, said. */
Test(keytab, sort_words)
{
	struct session *s = open_fixture("fork.data");
	struct scope_sort sort;
	struct keytab_spec sp;
	char msg[200];

	cr_expect_eq(scope_parse_sort("srcline,weight,trace,phys_daddr", &sort, msg, sizeof msg), 0);
	cr_expect_eq(sort.n, 4);
	cr_expect_eq(scope_parse_sort("sym,bogus", &sort, msg, sizeof msg), -1);
	cr_expect(strstr(msg, "'bogus'") != NULL, "said: %s", msg);
	cr_expect_eq(scope_parse_sort("symbol_to", &sort, msg, sizeof msg), 0);
	cr_expect_eq(keytab_spec_of(s, sort.keys, sort.n, true, &sp, msg, sizeof msg), -1);
	cr_expect(strstr(msg, "branch stacks") != NULL, "said: %s", msg);
	session_close(s);
}

/* The row of ref's event ev whose comm, dso and sym texts are those given, or NULL. */
static const struct hist_entry *
ref_row(struct hist *h, size_t ev, const char *comm, const char *dso, const char *sym)
{
	const uint32_t *ix;
	size_t n = hist_rows(h, ev, 0, &ix);
	char a[1024], b[1024], c[1024];

	for (size_t i = 0; i < n; i++) {
		const struct hist_entry *e = hist_entry_get(h, ix[i]);

		if (strcmp(hist_key_text(h, e, HIST_KEY_COMM, a, sizeof a), comm) == 0 &&
		    strcmp(hist_key_text(h, e, HIST_KEY_DSO, b, sizeof b), dso) == 0 &&
		    strcmp(hist_key_text(h, e, HIST_KEY_SYM, c, sizeof c), sym) == 0)
			return e;
	}
	return NULL;
}

/*
 * An event group (-e '{task-clock,cpu-clock}'): perf report --group's
 * table, a Children, Self and Samples column per member, the leader
 * first; every row's values those of each member's own table, the rows in
 * perf's order (by the leader's, then the next member's).
 */
Test(keytab, event_group_columns)
{
	static const enum hist_key keys[] = { HIST_KEY_COMM, HIST_KEY_DSO, HIST_KEY_SYM };
	struct session *s = open_fixture("leader.data");
	struct symbols *sy = fixture_symbols(s);
	struct sym_opts so = { .buildid_dir = TEST_DATA "/buildid", .kallsyms = "/dev/null" };
	struct symbolizer *rz = symbolizer_new(s, &so);
	struct hist *h = reference(s, rz, keys, 3, NULL);
	double last = 101;
	struct pane p;
	struct row r;
	char want[32];
	size_t nself = 0;

	cr_assert_eq(hist_nevents(h), 2, "two members with samples");
	symbols_run(sy);
	hot_pane(&p, s, sy);
	pane_settle(&p, sy);
	for (int c = 0; c < p.ncols; c++)
		nself += strcmp(p.cols[c].title, "Self") == 0;
	cr_expect_eq(nself, 2, "a Self column per member");
	cr_assert_gt(widget_count(&p.w), 5);
	for (size_t i = 0; i < widget_count(&p.w); i++) {
		char comm[256], dso[256], sym[1024];
		int col[3][2], nc[3] = { 0 };

		row_reset(&r);
		p.ops->row(&p, widget_source(&p.w, i), &r);
		for (int c = 0; c < p.ncols; c++) {
			int k = strcmp(p.cols[c].title, "Children") == 0 ? 0 :
			    strcmp(p.cols[c].title, "Self") == 0 ? 1 :
			    strcmp(p.cols[c].title, "Samples") == 0 ? 2 : -1;

			if (k >= 0 && nc[k] < 2)
				col[k][nc[k]++] = c;
		}
		snprintf(comm, sizeof comm, "%s", pane_cell(&p, &r, i, "Command"));
		snprintf(dso, sizeof dso, "%s", pane_cell(&p, &r, i, "Shared Object"));
		snprintf(sym, sizeof sym, "%s", pane_cell(&p, &r, i, "Symbol"));
		row_reset(&r);
		p.ops->row(&p, widget_source(&p.w, i), &r);
		for (size_t m = 0; m < 2; m++) {
			const struct hist_entry *e = ref_row(h, m, comm, dso, sym);

			snprintf(want, sizeof want, "%.2f%%", e ? hist_children_pct(h, e) : 0.0);
			cr_expect_str_eq(r.col[col[0][m]], want, "row %zu (%s) member %zu: children", i, sym,
			    m);
			snprintf(want, sizeof want, "%.2f%%", e ? hist_self_pct(h, e) : 0.0);
			cr_expect_str_eq(r.col[col[1][m]], want, "row %zu (%s) member %zu: self", i, sym, m);
			snprintf(want, sizeof want, "%" PRIu64, e ? e->samples : 0);
			cr_expect_str_eq(r.col[col[2][m]], want, "row %zu member %zu: samples", i, m);
		}
		cr_expect_leq(strtod(r.col[col[0][0]], NULL), last, "row %zu: by the leader's children", i);
		last = strtod(r.col[col[0][0]], NULL);
	}
	pane_destroy(&p);
	hist_free(h);
	symbolizer_free(rz);
	symbols_free(sy);
	session_close(s);
}

/* The branch table (s in the DSO list) follows the scope: a DSO zoom narrows it as top --dsos. */
Test(keytab, branch_table_follows_the_scope)
{
	static const enum hist_key keys[] = { HIST_KEY_COMM, HIST_KEY_DSO_FROM, HIST_KEY_SYM_FROM,
		HIST_KEY_SYM_TO, HIST_KEY_CYCLES };
	struct session *s = open_fixture("branch.data");
	struct symbols *sy = fixture_symbols(s);
	struct sym_opts so = { .buildid_dir = TEST_DATA "/buildid", .kallsyms = "/dev/null" };
	struct symbolizer *rz = symbolizer_new(s, &so);
	struct hist_filter f;
	struct hist *h, *all;
	const uint32_t *ix;
	struct pane p;
	struct row r;
	char pct[32], text[1024];
	char *name;
	size_t n;

	symbols_run(sy);
	hot_pane(&p, s, sy);
	cr_assert_eq(p.ops->key(&p, ACT_DSOS), PANE_HANDLED | PANE_PUSH);
	go(&p, &p.push);
	cr_assert_eq(p.ops->key(&p, ACT_DSOS), PANE_HANDLED);
	keytab_wait(sy->kt_branch);
	pane_settle(&p, sy);
	cr_assert_eq(widget_count(&p.w), 8, "the whole table first");
	/* then a DSO zoom (one that leaves rows out): the table follows */
	all = reference(s, rz, keys, 5, NULL);
	h = NULL;
	{
		const struct hist_entry *const *m;
		size_t nm = hist_rows_merged(sy->h, 0, NULL, HIST_KEEP(HIST_KEY_DSO), 0, &m);
		uint32_t dso = DSO_NONE;

		for (size_t i = 0; i < nm && h == NULL; i++) {
			memset(&f, 0, sizeof f);
			name = (char *)symbolizer_dso_short(sy->z, m[i]->dso);
			f.dsos = &name;
			f.ndsos = 1;
			h = reference(s, rz, keys, 5, &f);
			dso = m[i]->dso;
			if (hist_rows(h, 0, 0, &ix) >= hist_rows(all, 0, 0, &ix)) {
				hist_free(h);
				h = NULL;
			}
		}
		cr_assert_not_null(h, "a DSO zoom that leaves branch rows out");
		scope_zoom_set(&sy->scope, SZ_DSO, 0, 0, dso, "dso");
	}
	pane_settle(&p, sy);
	keytab_wait(sy->kt_branch);
	pane_settle(&p, sy);
	n = hist_rows(h, 0, 0, &ix);
	cr_expect_eq(widget_count(&p.w), n, "%zu rows, top --time has %zu", widget_count(&p.w), n);
	for (size_t i = 0; i < n && i < widget_count(&p.w); i++) {
		const struct hist_entry *e = hist_entry_get(h, ix[i]);

		snprintf(pct, sizeof pct, "%.2f%%", hist_self_pct(h, e));
		cr_expect_str_eq(pane_cell(&p, &r, i, "Overhead"), pct, "row %zu: %s vs %s", i, pane_cell(&p, &r, i, "Overhead"), pct);
		cr_expect_str_eq(pane_cell(&p, &r, i, "Target Symbol"),
		    hist_key_text(h, e, HIST_KEY_SYM_TO, text, sizeof text), "row %zu", i);
	}
	pane_destroy(&p);
	hist_free(h);
	hist_free(all);
	symbolizer_free(rz);
	symbols_free(sy);
	session_close(s);
}

static int
cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The off-cpu event's table by keys of off-CPU spans (state, waker): a
 * table of its own with the spans beside the samples, whose rows are those
 * of perfnav top --off-cpu --sort waker,state (a hist of the spans alone).
 */
Test(keytab, offcpu_keys_state_and_waker)
{
	struct session *s = open_fixture("wakers.data");
	struct symbols *sy = fixture_symbols(s);
	struct hist_opts o = { .nkeys = 2, .event = -1, .max_stack = HIST_DEFAULT_MAX_STACK };
	char *want[256], *got[256], msg[200], a[256], b[256];
	struct scope_sort sort;
	struct offcpu oc;
	const uint32_t *ix;
	struct hist *h;
	struct pane p;
	struct row r[3];
	size_t n;

	cr_assert_eq(scope_parse_sort("waker,state", &sort, msg, sizeof msg), 0, "%s", msg);
	symbols_run(sy);
	sy->scope.hot_sort = sort;
	for (size_t i = 0; i < hist_nevents(sy->h); i++)
		if (symbols_event_offcpu(sy, i))
			sy->scope.ev = i;
	sy->scope.gen++;
	cr_assert_eq(offcpu_build(s, &oc), OFFCPU_OK);
	o.keys[0] = HIST_KEY_WAKER;
	o.keys[1] = HIST_KEY_STATE;
	o.offcpu = &oc;
	h = hist_new(s, NULL, &o);
	hist_add_session(h, NULL);
	hist_finish(h);
	n = hist_rows(h, 0, 0, &ix);
	cr_assert_gt(n, 5);
	cr_assert_lt(n, 256);
	hot_pane(&p, s, sy);
	pane_settle(&p, sy);
	cr_assert_eq(widget_count(&p.w), n, "%zu rows, top's %zu", widget_count(&p.w), n);
	for (size_t i = 0; i < n; i++) {
		const struct hist_entry *e = hist_entry_get(h, ix[i]);

		snprintf(a, sizeof a, "%.2f%% %s %s", hist_self_pct(h, e),
		    hist_key_text(h, e, HIST_KEY_WAKER, msg, sizeof msg),
		    hist_key_text(h, e, HIST_KEY_STATE, b, sizeof b));
		want[i] = strdup(a);
		snprintf(a, sizeof a, "%s %s %s", pane_cell(&p, &r[0], i, "Self"), pane_cell(&p, &r[1], i, "Waker"),
		    pane_cell(&p, &r[2], i, "State"));
		got[i] = strdup(a);
	}
	qsort(want, n, sizeof *want, cmp_line);
	qsort(got, n, sizeof *got, cmp_line);
	for (size_t i = 0; i < n; i++) {
		cr_expect_str_eq(got[i], want[i]);
		free(got[i]);
		free(want[i]);
	}
	pane_destroy(&p);
	hist_free(h);
	offcpu_free(&oc);
	symbols_free(sy);
	session_close(s);
}

/*
 * The null frame (address 0) and garbage frames in no map show the level
 * perfnav top (and perf) gives them under any --sort: their first
 * sample's, not that of the merged row's biggest part (chainlv.data: "[.]
 * 0000000000000000" by sym as perf says, where the pane once said "[k]").
 */
Test(keytab, null_frame_level_as_top)
{
	static const char *const fx[] = { "chainlv.data", "offcpu.data", "wakers.data", "sched-g.data" };

	for (size_t i = 0; i < sizeof fx / sizeof fx[0]; i++) {
		check_sort(fx[i], "sym", Z_NONE, false);
		check_sort(fx[i], "dso,sym", Z_NONE, false);
		check_sort(fx[i], "comm,sym", Z_TID, false);
		check_sort(fx[i], "cpu,sym", Z_NONE, true);
	}
	check_sort("chainlv.data", "sym", Z_TIME, false);
}
