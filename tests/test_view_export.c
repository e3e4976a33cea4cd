/*
 * Criterion tests of the browser's export action's writers
 * (tui/view_export.c), on perf-made fixtures: a list pane's rows as
 * shown (every visible row, every text whole, a tree's nesting kept), the
 * endings, and the scope's folded stacks and flame graph against what
 * perfnav export writes with the options the scope-command line gives.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "symbolize/filter.h"
#include "symbolize/hist.h"
#include "tests/tui_helpers.h"
#include "tui/cmd/cmd.h"
#include "tui/keys.h"
#include "tui/nav.h"
#include "tui/pane.h"
#include "tui/scope.h"
#include "tui/symbols.h"
#include "tui/view_export.h"
#include "tui/widget.h"

/* What view_export_text writes of p, in a string (free it); *rows the rows it said. */
static char *
text_of(struct pane *p, long *rows)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&buf, &n);

	cr_assert_not_null(fp);
	*rows = view_export_text(p, "T", fp);
	fclose(fp);
	return buf;
}

/* Line i (0-based) of text, in a static buffer. */
static const char *
line_of(const char *text, size_t i)
{
	static char line[8192];
	const char *e;

	while (i-- > 0 && text != NULL)
		text = (text = strchr(text, '\n')) ? text + 1 : NULL;
	cr_assert_not_null(text);
	e = strchr(text, '\n');
	cr_assert_not_null(e);
	snprintf(line, sizeof line, "%.*s", (int)(e - text), text);
	return line;
}

static size_t
count_lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* Every visible row of p is a line, its texts whole and in column order. */
static void
expect_rows(struct pane *p, const char *text)
{
	struct row *r = malloc(sizeof *r);

	cr_assert_not_null(r);
	cr_assert_eq(count_lines(text), widget_count(&p->w) + 2, "a title, the column titles, the rows");
	cr_expect_str_eq(line_of(text, 0), "# T");
	for (size_t i = 0; i < widget_count(&p->w); i++) {
		const char *ln = line_of(text, i + 2), *at = ln;

		row_reset(r);
		p->ops->row(p, widget_source(&p->w, i), r);
		for (int c = 0; c < p->ncols; c++) {
			const char *t = r->col[c] ? r->col[c] : "", *f = t[0] ? strstr(at, t) : at;

			cr_assert_not_null(f, "row %zu column %s: '%s' whole in '%s'", i, p->cols[c].title, t, ln);
			at = f + strlen(t);
		}
	}
	free(r);
}

/* The hot functions: every row whole, however long; a filter leaves its rows only. */
Test(view_export, hot_rows_whole_and_filtered)
{
	struct session *s = open_fixture("fork.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p;
	char *all, *some, err[200];
	long n, m;

	symbols_run(sy);
	hot_pane(&p, s, sy);
	widget_set_height(&p.w, 5);	/* the screen's size is not the file's */
	all = text_of(&p, &n);
	cr_assert_eq((size_t)n, widget_count(&p.w));
	cr_assert_gt(n, 5, "more rows than the screen holds");
	expect_rows(&p, all);
	cr_assert_eq(widget_set_filter(&p.w, "main", err, sizeof err), 0);
	some = text_of(&p, &m);
	cr_assert_lt(m, n, "the filter leaves rows out");
	cr_assert_gt(m, 0);
	expect_rows(&p, some);
	free(all);
	free(some);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/* A tree: expanded whole, each row's name two columns right of its parent's. */
Test(view_export, tree_nesting_kept)
{
	struct session *s = open_fixture("fork.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p;
	struct nav_view v;
	char *text;
	const char *head;
	long n;
	int tc = -1;
	size_t off, deep = 0;

	symbols_run(sy);
	cr_assert_eq(pane_create_sym(&p, PANE_TOPDOWN, s, NULL, sy), 0);
	nav_view_init(&v, PANE_TOPDOWN);
	p.ops->enter(&p, &v);
	widget_expand_all(&p.w, true);
	text = text_of(&p, &n);
	expect_rows(&p, text);
	for (int c = 0; c < p.ncols; c++)
		if (p.cols[c].flags & COL_TREE)
			tc = c;
	cr_assert_geq(tc, 0, "the top-down tree has a tree column");
	head = line_of(text, 1);
	cr_assert_not_null(strstr(head, p.cols[tc].title));
	off = (size_t)(strstr(head, p.cols[tc].title) - head);
	for (size_t i = 0; i < (size_t)n; i++) {
		const char *ln = line_of(text, i + 2);
		size_t src = widget_source(&p.w, i), sp = 0, want = 2 * (size_t)p.w.depth[src];

		cr_assert_gt(strlen(ln), off);
		while (ln[off + sp] == ' ')
			sp++;
		if (!widget_has_children(&p.w, src))
			want += 2;	/* no mark: its two columns blank */
		cr_expect_eq(sp, want, "row %zu at depth %u: '%s'", i, p.w.depth[src], ln);
		deep = p.w.depth[src] > deep ? p.w.depth[src] : deep;
	}
	cr_assert_geq(deep, 3, "a tree deep enough to tell");
	free(text);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

Test(view_export, endings)
{
	cr_expect_eq(view_export_kind_of("a.txt"), VX_TEXT);
	cr_expect_eq(view_export_kind_of("dir/f.svg"), VX_SVG);
	cr_expect_eq(view_export_kind_of("p.pb.gz"), VX_PPROF);
	cr_expect_eq(view_export_kind_of("p.pprof"), VX_PPROF);
	cr_expect_eq(view_export_kind_of("s.json"), VX_SPEEDSCOPE);
	cr_expect_eq(view_export_kind_of("x.folded"), VX_FOLDED);
	cr_expect_eq(view_export_kind_of("scope.data"), VX_PERF);
	cr_expect_eq(view_export_kind_of("x.gz"), VX_NONE);
	cr_expect_eq(view_export_kind_of(".txt"), VX_NONE, "an ending is not a name");
	cr_expect_eq(view_export_kind_of("noend"), VX_NONE);
}

/* What perfnav export --format F writes over filter f, in a string (free it). */
static char *
export_of(struct session *s, struct symbols *sy, enum export_format fmt, const struct hist_filter *f)
{
	struct export_spec_args e = { .format = fmt, .filter = f, .name = "fork.data",
		.event = hist_str(sy->h, hist_event(sy->h, 0)->name) };
	char *buf = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&buf, &n);

	cr_assert_not_null(fp);
	cr_assert_eq(export_print(s, sy->z, &e, fp), 0);
	fclose(fp);
	return buf;
}

static char *
scope_of(struct session *s, struct symbols *sy, enum view_export_kind k)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&buf, &n);

	cr_assert_not_null(fp);
	cr_assert_eq(view_export_scope(s, sy, "fork.data", k, fp), 0);
	fclose(fp);
	return buf;
}

/*
 * The scope's folded stacks (a thread zoomed, then a time step) are what
 * perfnav export --format folded --tid T --time A,B writes; and not the
 * whole recording's.
 */
Test(view_export, scope_is_export_of_its_options)
{
	struct session *s = open_fixture("fork.data");
	struct symbols *sy = fixture_symbols(s);
	struct hist_filter f = { 0 };
	const struct rec_index *ix = session_index(s);
	uint64_t t0 = UINT64_MAX, t1 = 0;
	int32_t pid = -1, tid = -1;
	char *got, *want, *whole;

	symbols_run(sy);
	for (size_t i = 0; i < ix->n; i++) {
		const struct rec_ent *e = index_ent(ix, i);
		struct ent_who w;

		if (ent_type(e) != PF_REC_SAMPLE)
			continue;
		t0 = e->time < t0 ? e->time : t0;
		t1 = e->time > t1 ? e->time : t1;
		w = session_ent_who(s, i);
		if (i > ix->n / 2 && tid < 0 && w.tid > 0) {	/* a thread of the second half */
			pid = w.pid;
			tid = w.tid;
		}
	}
	cr_assert_gt(tid, 0);
	cr_assert(scope_zoom(&sy->scope, SZ_TID, pid, tid, 0, "thread"));
	cr_assert(scope_time_push(&sy->scope, t0, t0 + (t1 - t0) * 3 / 4));
	cr_assert_eq(symbols_apply_scope(sy), 0);
	got = scope_of(s, sy, VX_FOLDED);
	f.tids = calloc(1, sizeof *f.tids);
	f.tids[0] = tid;
	f.ntids = 1;
	f.time = calloc(1, sizeof *f.time);
	f.time[0].start = t0;
	f.time[0].end = t0 + (t1 - t0) * 3 / 4;
	f.ntime = 1;
	want = export_of(s, sy, EXPORT_FOLDED, &f);
	whole = export_of(s, sy, EXPORT_FOLDED, NULL);
	cr_assert_gt(strlen(want), 0);
	cr_expect_str_eq(got, want);
	cr_expect_str_neq(got, whole, "the scope leaves samples out");
	free(got);
	free(want);
	free(whole);
	filter_free(&f);
	symbols_free(sy);
	session_close(s);
}

/* The flame graph pane's SVG: its head line the title, a frame per function it shows. */
Test(view_export, flame_svg_is_the_pane)
{
	struct session *s = open_fixture("fork.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p;
	struct nav_view v;
	char *buf = NULL, *scope;
	size_t n = 0;
	FILE *fp;

	symbols_run(sy);
	cr_assert_eq(pane_create_sym(&p, PANE_FLAME, s, NULL, sy), 0);
	nav_view_init(&v, PANE_FLAME);
	p.ops->enter(&p, &v);
	cr_assert_not_null(p.ops->write_svg);
	fp = open_memstream(&buf, &n);
	cr_assert_eq(p.ops->write_svg(&p, fp), 0);
	fclose(fp);
	cr_assert_not_null(strstr(buf, "<svg"));
	cr_assert_not_null(strstr(buf, "</svg>"));
	cr_expect_not_null(strstr(buf, "lame graph, top-down"), "the pane's head line is its title");
	/* the scope's graph without the pane is the same frames */
	scope = scope_of(s, sy, VX_SVG);
	cr_expect_not_null(strstr(scope, "</svg>"));
	cr_expect_eq(count_lines(scope) > 20, true);
	cr_expect_eq(count_lines(buf), count_lines(scope), "as many lines: the same frames");
	free(scope);
	free(buf);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/* SAMPLE records in session s. */
static uint64_t
nsamples(struct session *s)
{
	return session_counts(s)->by_type[PF_REC_SAMPLE];
}

/*
 * .data: the scope (a thread, then a time step) carved: the file opens,
 * and holds as many samples as the scope's folded stacks count.
 */
Test(view_export, scope_carved_perf_data)
{
	struct session *s = open_fixture("fork.data"), *c;
	struct symbols *sy = fixture_symbols(s);
	const struct rec_index *ix = session_index(s);
	uint64_t t0 = UINT64_MAX, t1 = 0, want = 0;
	int32_t pid = -1, tid = -1;
	char path[] = "/tmp/perfnav-vx-XXXXXX", *folded, *p;
	struct perf_err err;
	FILE *fp;
	int fd;

	symbols_run(sy);
	for (size_t i = 0; i < ix->n; i++) {
		const struct rec_ent *e = index_ent(ix, i);

		if (ent_type(e) != PF_REC_SAMPLE)
			continue;
		t0 = e->time < t0 ? e->time : t0;
		t1 = e->time > t1 ? e->time : t1;
		if (tid < 0 && i > ix->n / 2) {
			pid = session_ent_who(s, i).pid;
			tid = session_ent_who(s, i).tid;
		}
	}
	cr_assert(scope_zoom(&sy->scope, SZ_TID, pid, tid, 0, "thread"));
	cr_assert(scope_time_push(&sy->scope, t0, t0 + (t1 - t0) * 3 / 4));
	cr_assert_eq(symbols_apply_scope(sy), 0);
	folded = scope_of(s, sy, VX_FOLDED);
	for (p = folded; (p = strchr(p, '\n')) != NULL; p++) {
		const char *sp = p;

		while (sp > folded && sp[-1] != ' ')
			sp--;
		want += strtoull(sp, NULL, 10);
	}
	cr_assert_gt(want, 0);
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	fp = fdopen(fd, "w");
	cr_assert_eq(view_export_scope(s, sy, "fork.data", VX_PERF, fp), 0);
	cr_assert_eq(fclose(fp), 0);
	memset(&err, 0, sizeof err);
	c = session_open(path, NULL, &err);
	cr_assert_not_null(c, "the carved file opens: %s", err.msg);
	cr_expect_eq(nsamples(c), want, "the scope's samples: %llu", (unsigned long long)want);
	cr_expect_lt(nsamples(c), nsamples(s));
	session_close(c);
	unlink(path);
	free(folded);
	symbols_free(sy);
	session_close(s);
}
