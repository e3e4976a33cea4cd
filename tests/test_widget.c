/*
 * Criterion tests of the TUI's building blocks, without a terminal: the
 * list/tree widget (sorting, filtering, search, expansion), text cells,
 * the navigation stack, the key table (parsing, lookup, help), the theme
 * parser and colour reduction.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <inttypes.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include <curses.h>

#include "core/core.h"
#include "symbolize/hist.h"
#include "symbolize/symbolizer.h"
#include "symbolize/tasks.h"
#include "tui/keys.h"
#include "tui/nav.h"
#include "tui/pane.h"
#include "tui/symbols.h"
#include "tui/cmd/cmd.h"
#include "tui/theme.h"
#include "tui/widget.h"
#include "tests/helpers.h"
#include "tests/tui_helpers.h"

/* ---- a fake pane: rows from a table ---- */

struct frow {
	int		 depth;
	const char	*name;
	const char	*num;
};

struct fake {
	const struct frow	*rows;
	size_t			 n;
};

static size_t
fake_nrows(struct pane *p)
{
	return ((struct fake *)p->priv)->n;
}

static void
fake_row(struct pane *p, size_t idx, struct row *r)
{
	const struct frow *f = &((struct fake *)p->priv)->rows[idx];

	r->depth = (uint8_t)f->depth;
	row_set(r, 0, 0, "%s", f->name);
	row_set(r, 1, 0, "%s", f->num);
}

static const struct pane_ops fake_ops = {
	.name = "fake",
	.title = "Fake",
	.nrows = fake_nrows,
	.row = fake_row,
};

static const struct column fake_cols[2] = {
	{ "Name", 10, COL_TREE },
	{ "Num", 6, COL_NUM | COL_RIGHT },
};

static void
fake_pane(struct pane *p, struct fake *f, const struct frow *rows, size_t n, bool tree)
{
	memset(p, 0, sizeof *p);
	f->rows = rows;
	f->n = n;
	p->ops = &fake_ops;
	p->priv = f;
	p->cols = fake_cols;
	p->ncols = 2;
	p->is_list = true;
	widget_init(&p->w, p, tree);
}

static const char *
name_at(struct widget *w, size_t pos)
{
	struct pane *p = w->p;
	size_t src = widget_source(w, pos);

	return src == WIDGET_NONE ? NULL : ((struct fake *)p->priv)->rows[src].name;
}

static const struct frow flat[] = {
	{ 0, "banana", "10" }, { 0, "apple", "2" }, { 0, "cherry", "33" }, { 0, "date", "2.5" },
	{ 0, "elder", "100" },
};

Test(widget, flat_identity_and_movement)
{
	struct pane p;
	struct fake f;

	fake_pane(&p, &f, flat, 5, false);
	cr_assert_eq(widget_count(&p.w), 5);
	cr_assert_null(p.w.vis, "an unsorted, unfiltered list needs no index array");
	cr_assert_str_eq(name_at(&p.w, 0), "banana");
	widget_set_height(&p.w, 2);
	widget_move(&p.w, 3);
	cr_assert_eq(p.w.cursor, 3);
	cr_assert_eq(p.w.top, 2, "scrolled to keep the cursor visible");
	widget_move(&p.w, 100);
	cr_assert_eq(p.w.cursor, 4);
	widget_move(&p.w, -100);
	cr_assert_eq(p.w.cursor, 0);
	widget_end(&p.w);
	cr_assert_eq(p.w.cursor, 4);
	widget_home(&p.w);
	cr_assert_eq(p.w.cursor, 0);
	cr_assert(widget_click(&p.w, 1));
	cr_assert_eq(p.w.cursor, 1);
	cr_assert_not(widget_click(&p.w, 10));
	widget_free(&p.w);
}

Test(widget, sort_text_and_number)
{
	struct pane p;
	struct fake f;

	fake_pane(&p, &f, flat, 5, false);
	widget_sort(&p.w, 0, false);
	cr_assert_str_eq(name_at(&p.w, 0), "apple");
	cr_assert_str_eq(name_at(&p.w, 4), "elder");
	widget_sort(&p.w, 1, true);
	cr_assert_str_eq(name_at(&p.w, 0), "elder", "100 is the largest number, not text");
	cr_assert_str_eq(name_at(&p.w, 1), "cherry");
	cr_assert_str_eq(name_at(&p.w, 3), "date", "2.5 sorts between 10 and 2");
	cr_assert_str_eq(name_at(&p.w, 4), "apple");
	widget_sort(&p.w, 1, false);
	cr_assert_str_eq(name_at(&p.w, 0), "apple");
	/* sort steps: Name, Num (descending first), back to source order */
	widget_sort(&p.w, -1, false);
	widget_sort_step(&p.w, 1);
	cr_assert_eq(p.w.sort_col, 0);
	widget_sort_step(&p.w, 1);
	cr_assert_eq(p.w.sort_col, 1);
	cr_assert(p.w.sort_desc);
	widget_sort_step(&p.w, 1);
	cr_assert_eq(p.w.sort_col, -1);
	cr_assert_str_eq(name_at(&p.w, 0), "banana");
	widget_free(&p.w);
}

Test(widget, sort_keeps_cursor_row)
{
	struct pane p;
	struct fake f;

	fake_pane(&p, &f, flat, 5, false);
	widget_move(&p.w, 2);	/* cherry */
	widget_sort(&p.w, 0, false);
	cr_assert_str_eq(name_at(&p.w, p.w.cursor), "cherry");
	widget_free(&p.w);
}

Test(widget, filter_and_search)
{
	struct pane p;
	struct fake f;
	char err[64];

	fake_pane(&p, &f, flat, 5, false);
	cr_assert_eq(widget_set_filter(&p.w, "an", err, sizeof err), 0);
	cr_assert_eq(widget_count(&p.w), 1, "only banana contains 'an'");
	cr_assert_str_eq(name_at(&p.w, 0), "banana");
	widget_set_filter(&p.w, "E", err, sizeof err);
	cr_assert_eq(widget_count(&p.w), 4, "case-insensitive: apple cherry date elder");
	widget_set_filter(&p.w, "e 2", err, sizeof err);
	cr_assert_eq(widget_count(&p.w), 2, "every word: apple(2) date(2.5)");
	widget_set_filter(&p.w, "", err, sizeof err);
	cr_assert_eq(widget_count(&p.w), 5);
	cr_assert_not(p.w.filtered);

	cr_assert(widget_search(&p.w, "err", 1, false));
	cr_assert_str_eq(name_at(&p.w, p.w.cursor), "cherry");
	cr_assert(widget_search(&p.w, "e", 1, true));
	cr_assert_str_eq(name_at(&p.w, p.w.cursor), "date");
	cr_assert(widget_search(&p.w, "e", -1, true));
	cr_assert_str_eq(name_at(&p.w, p.w.cursor), "cherry");
	cr_assert(widget_search(&p.w, "an", 1, true), "wraps around");
	cr_assert_str_eq(name_at(&p.w, p.w.cursor), "banana");
	cr_assert_not(widget_search(&p.w, "zzz", 1, false));
	cr_assert_str_eq(name_at(&p.w, p.w.cursor), "banana");
	widget_free(&p.w);
}

/*
 * root
 *   a (3)
 *     a1 (1)
 *     a2 (5)
 *   b (9)
 *     b1 (7)
 * other
 */
static const struct frow tree[] = {
	{ 0, "root", "0" }, { 1, "a", "3" }, { 2, "a1", "1" }, { 2, "a2", "5" }, { 1, "b", "9" },
	{ 2, "b1", "7" }, { 0, "other", "4" },
};

Test(widget, tree_expand_collapse)
{
	struct pane p;
	struct fake f;

	fake_pane(&p, &f, tree, 7, true);
	cr_assert_eq(widget_count(&p.w), 2, "collapsed: root, other");
	cr_assert(widget_has_children(&p.w, 0));
	cr_assert_not(widget_has_children(&p.w, 6));
	widget_toggle(&p.w);
	cr_assert_eq(widget_count(&p.w), 4, "root, a, b, other");
	cr_assert_str_eq(name_at(&p.w, 1), "a");
	widget_move(&p.w, 1);
	widget_expand(&p.w, true);
	cr_assert_eq(widget_count(&p.w), 6, "a's children");
	widget_move(&p.w, 1);	/* a1, a leaf */
	cr_assert_str_eq(name_at(&p.w, p.w.cursor), "a1");
	widget_collapse(&p.w);
	cr_assert_str_eq(name_at(&p.w, p.w.cursor), "a", "collapsing a leaf closes its parent");
	cr_assert_eq(widget_count(&p.w), 4);
	widget_expand_all(&p.w, true);
	cr_assert_eq(widget_count(&p.w), 7);
	widget_expand_all(&p.w, false);
	cr_assert_eq(widget_count(&p.w), 2);
	cr_assert_str_eq(name_at(&p.w, p.w.cursor), "root", "the cursor goes to its root");
	widget_reveal(&p.w, 5);
	cr_assert(widget_goto_row(&p.w, 5));
	cr_assert_str_eq(name_at(&p.w, p.w.cursor), "b1");
	widget_free(&p.w);
}

Test(widget, tree_sort_siblings)
{
	struct pane p;
	struct fake f;
	const char *want[] = { "other", "root", "b", "b1", "a", "a2", "a1" };

	fake_pane(&p, &f, tree, 7, true);
	widget_expand_all(&p.w, true);
	widget_sort(&p.w, 1, true);
	cr_assert_eq(widget_count(&p.w), 7);
	for (size_t i = 0; i < 7; i++)
		cr_assert_str_eq(name_at(&p.w, i), want[i], "row %zu", i);
	widget_free(&p.w);
}

Test(widget, tree_filter_keeps_ancestors)
{
	struct pane p;
	struct fake f;

	fake_pane(&p, &f, tree, 7, true);
	widget_set_filter(&p.w, "a2", NULL, 0);
	cr_assert_eq(widget_count(&p.w), 3, "root > a > a2, though collapsed");
	cr_assert_str_eq(name_at(&p.w, 0), "root");
	cr_assert_str_eq(name_at(&p.w, 1), "a");
	cr_assert_str_eq(name_at(&p.w, 2), "a2");
	widget_set_filter(&p.w, "", NULL, 0);
	cr_assert_eq(widget_count(&p.w), 2);
	widget_free(&p.w);
}

/* ---- text ---- */

Test(text, utf8_invalid_and_ellipsis)
{
	wchar_t buf[64];
	int cols;

	if (setlocale(LC_ALL, "C.UTF-8") == NULL)
		cr_skip_test("no C.UTF-8 locale");
	cols = text_decode("ab\xff" "c", buf, 64, 80, false);
	cr_assert_eq(cols, 7);
	cr_assert(wcscmp(buf, L"ab\\xffc") == 0, "invalid byte shown as the text outputs: %ls",
	    buf);
	cr_assert_eq(text_width("\xe4\xb8\xad"), 2, "a CJK character is two columns");
	cols = text_decode("caf\xc3\xa9", buf, 64, 80, false);
	cr_assert_eq(cols, 4);
	cr_assert(wcscmp(buf, L"caf\x00e9") == 0, "valid UTF-8 drawn as is");
	cols = text_decode("std::vector<int>::push_back", buf, 64, 11, true);
	cr_assert_eq(cols, 11);
	cr_assert(wcscmp(buf, L"std::\x2026" L"_back") == 0, "middle ellipsis: %ls", buf);
	cols = text_decode("hello world", buf, 64, 5, false);
	cr_assert(wcscmp(buf, L"hell\x2026") == 0, "a cut text ends in an ellipsis: %ls", buf);
	cr_assert_eq(cols, 5);
	cols = text_decode("hello", buf, 64, 5, false);
	cr_assert(wcscmp(buf, L"hello") == 0, "a text that fits is not cut: %ls", buf);
	setlocale(LC_ALL, "C");
}

/* A label cut to a width ends in an ellipsis, at a character's edge, never in the middle of one. */
Test(text, clip_ends_a_cut_in_an_ellipsis)
{
	char buf[64], small[8];

	if (setlocale(LC_ALL, "C.UTF-8") == NULL)
		cr_skip_test("no C.UTF-8 locale");
	cr_assert_str_eq(text_clip(buf, sizeof buf, "hello", 5), "hello", "a text that fits");
	cr_assert_str_eq(text_clip(buf, sizeof buf, "hello world", 5), "hell\xe2\x80\xa6");
	/* two-column characters: the cut keeps whole ones in 4 columns, then the ellipsis */
	cr_assert_str_eq(text_clip(buf, sizeof buf, "\xe4\xb8\xad\xe6\x96\x87\xe5\xad\x97", 5),
	    "\xe4\xb8\xad\xe6\x96\x87\xe2\x80\xa6");
	cr_assert_str_eq(text_clip(buf, sizeof buf, "caf\xc3\xa9s", 4), "caf\xe2\x80\xa6");
	/* a buffer too small in bytes: cut too, still whole characters and the ellipsis */
	cr_assert_str_eq(text_clip(small, sizeof small, "abcdefghijkl", 40), "abcd\xe2\x80\xa6");
	cr_assert_str_eq(text_clip(buf, sizeof buf, NULL, 5), "");
	cr_assert_str_eq(TEXT_CLIP("a longer name", 6), "a lon\xe2\x80\xa6");
	setlocale(LC_ALL, "C");
	cr_assert_str_eq(text_clip(buf, sizeof buf, "hello world", 5), "hell~", "'~' without UTF-8");
}

/*
 * A long name is never cut without a mark: a row's text longer than its
 * buffer ends in an ellipsis; a C++ name of 3,000 bytes, nested 400 deep,
 * is elided inside its brackets whole (its end kept), not cut at 1 KiB.
 */
Test(text, long_names_cut_with_a_mark)
{
	char *name = synth_long_name(3000), out[256];
	struct row r;
	size_t l;

	if (setlocale(LC_ALL, "C.UTF-8") == NULL)
		cr_skip_test("no C.UTF-8 locale");
	row_reset(&r);
	row_set(&r, 0, 0, "%s", name);
	l = strlen(r.col[0]);
	cr_assert_lt(l, strlen(name));
	cr_assert_str_eq(r.col[0] + l - 3, "\u2026", "a cut row text ends in an ellipsis");
	cr_assert_eq(strncmp(r.col[0], name, l - 3), 0);
	text_elide_cxx(name, out, sizeof out, 40);
	cr_assert_str_eq(out, "ns::T0000<T0001<\u2026>>::operator()_end");
	cr_assert_str_eq(text_clip_middle(out, sizeof out, name, 21), "ns::T0000<\u2026ator()_end");
	free(name);
	setlocale(LC_ALL, "C");
}

/* Control characters, DEL, C1 and invalid UTF-8 draw as "\xHH" escapes,
 * 4 columns each, measured as such and never cut in half. */
Test(text, escapes_as_the_text_outputs)
{
	wchar_t buf[128];
	int cols;

	if (setlocale(LC_ALL, "C.UTF-8") == NULL)
		cr_skip_test("no C.UTF-8 locale");
	cols = text_decode("\x1b]0;t\x07\x1b[2J", buf, 128, 80, false);
	cr_assert(wcscmp(buf, L"\\x1b]0;t\\x07\\x1b[2J") == 0, "%ls", buf);
	cr_assert_eq(cols, 19);
	cr_assert_eq(text_width("\x1b[31m"), 8);
	cr_assert_eq(text_width("a\tb\nc\x7f"), 15, "tab, newline, DEL: 4 columns each");
	text_decode("\xc2\x9b" "x", buf, 128, 80, false);
	cr_assert(wcscmp(buf, L"\\xc2\\x9bx") == 0, "C1: each byte: %ls", buf);
	/* an escape that does not fit whole is left out (for the ellipsis) */
	cols = text_decode("ab\x1b", buf, 128, 5, false);
	cr_assert_eq(cols, 3);
	cr_assert(wcscmp(buf, L"ab\x2026") == 0, "%ls", buf);
	cols = text_decode("ab\x1b", buf, 128, 6, false);
	cr_assert_eq(cols, 6);
	/* nor when the wide-char buffer is short */
	cols = text_decode("\x1b\x1b", buf, 6, 80, false);
	cr_assert(wcscmp(buf, L"\\x1b") == 0, "%ls", buf);
	/* the middle ellipsis counts escapes as 4 columns */
	cols = text_decode("\x1b\x1b\x1b\x1b\x1b\x1b", buf, 128, 13, true);
	cr_assert_leq(cols, 13);
	cr_assert(wcscmp(buf, L"\\x1b\x2026\\x1b") == 0, "%ls", buf);
	/* not a UTF-8 locale: escapes the same, other non-ASCII '?' */
	setlocale(LC_ALL, "C");
	text_decode("\x1b" "caf\xc3\xa9", buf, 128, 80, false);
	cr_assert(wcscmp(buf, L"\\x1bcaf?") == 0, "%ls", buf);
}

/* ---- navigation ---- */

static const char *
pname(int pane)
{
	static const char *n[] = { "hot", "procs", "events", "header", "hex", "help" };

	return pane >= 0 && pane < 6 ? n[pane] : "?";
}

Test(nav, push_pop_path)
{
	struct nav n;
	struct nav_view v;
	char path[256];

	nav_view_init(&v, 1);
	nav_reset(&n, &v);
	cr_assert_eq(nav_depth(&n), 1);
	cr_assert_not(nav_pop(&n), "the root stays");
	nav_view_init(&v, 1);
	snprintf(v.label, sizeof v.label, "pid 42");
	v.target = NAV_T_PID;
	v.arg = 42;
	nav_push(&n, &v);
	nav_view_init(&v, 2);
	snprintf(v.filter, sizeof v.filter, "tid:43");
	snprintf(v.label, sizeof v.label, "events tid 43");
	nav_push(&n, &v);
	nav_path(&n, pname, path, sizeof path);
	cr_assert_str_eq(path, "procs > pid 42 > events tid 43");
	cr_assert_str_eq(nav_top(&n)->filter, "tid:43");
	cr_assert(nav_pop(&n));
	cr_assert_eq(nav_top(&n)->arg, 42);
	cr_assert(nav_pop(&n));
	cr_assert_eq(nav_depth(&n), 1);
}

Test(nav, overflow_keeps_root)
{
	struct nav n;
	struct nav_view v;

	nav_view_init(&v, 3);
	nav_reset(&n, &v);
	for (int i = 0; i < NAV_DEPTH_MAX + 10; i++) {
		nav_view_init(&v, 2);
		v.arg = (uint64_t)i;
		nav_push(&n, &v);
	}
	cr_assert_eq(nav_depth(&n), NAV_DEPTH_MAX);
	cr_assert_eq(n.v[0].pane, 3, "root kept");
	cr_assert_eq(nav_top(&n)->arg, NAV_DEPTH_MAX + 9);
}

/* ---- keys ---- */

static const char *const maps[] = { "hot", "procs", "events", "header", "hex", "topdown", "bottomup", "flame", "timeline", "fscope", "help", "annotate", NULL };

static int nerr;
static void
count_err(void *arg, int line, const char *m)
{
	(void)arg;
	(void)line;
	(void)m;
	nerr++;
}

struct helpacc {
	char	text[16384];
	size_t	len;
	int	headings;
};

static void
help_acc(void *arg, int kind, const char *keys, const char *action, const char *help)
{
	struct helpacc *h = arg;

	if (kind == 0)
		h->headings++;
	h->len += (size_t)snprintf(h->text + h->len, sizeof h->text - h->len, "%s|%s|%s\n",
	    keys ? keys : "", action, help ? help : "");
}

Test(keys, defaults_and_lookup)
{
	struct keys k;

	keys_init(&k, maps);
	nerr = 0;
	cr_assert_eq(pane_keys_defaults(&k, count_err, NULL), 0);
	cr_assert_eq(nerr, 0);
	cr_assert_eq(keys_lookup(&k, "events", 'q'), ACT_QUIT);
	cr_assert_eq(keys_lookup(&k, "events", '?'), ACT_HELP);
	cr_assert_eq(keys_lookup(&k, "events", 'h'), ACT_HELP);
	cr_assert_eq(keys_lookup(&k, "events", '/'), ACT_SEARCH);
	cr_assert_eq(keys_lookup(&k, "events", 'j'), ACT_DOWN);
	cr_assert_eq(keys_lookup(&k, "events", KEYS_FN + KEY_DOWN), ACT_DOWN);
	cr_assert_eq(keys_lookup(&k, "events", KEYS_TAB), ACT_NEXT_PANE);
	cr_assert_eq(keys_lookup(&k, "events", '+'), ACT_TOGGLE);
	cr_assert_eq(keys_lookup(&k, "events", 'E'), ACT_EXPAND_ALL);
	cr_assert_eq(keys_lookup(&k, "events", 'C'), ACT_COLLAPSE_ALL);
	cr_assert_eq(keys_lookup(&k, "events", 'i'), ACT_PANE_HEADER);
	cr_assert_eq(keys_lookup(&k, "events", '3'), ACT_PANE_EVENTS);
	cr_assert_eq(keys_lookup(&k, "events", 'x'), ACT_HEX);
	cr_assert_eq(keys_lookup(&k, "hex", 'x'), ACT_RECORD, "the pane's map comes first");
	cr_assert_eq(keys_lookup(&k, "hex", 'q'), ACT_QUIT, "then the global one");
	cr_assert_eq(keys_lookup(&k, "help", 'q'), ACT_BACK);
	cr_assert_eq(keys_lookup(&k, NULL, 'Z'), ACT_NONE);
	keys_free(&k);
}

/* Tab has one meaning, the next pane, in every map; the next event is } ({ back). */
Test(keys, tab_is_the_next_pane_everywhere)
{
	const char *panes[] = { "hot", "topdown", "bottomup", "flame", "events", "procs" };
	struct keys k;

	keys_init(&k, maps);
	cr_assert_eq(pane_keys_defaults(&k, count_err, NULL), 0);
	for (size_t i = 0; i < sizeof panes / sizeof panes[0]; i++) {
		cr_assert_eq(keys_lookup(&k, panes[i], KEYS_TAB), ACT_NEXT_PANE, "%s", panes[i]);
		cr_assert_eq(keys_lookup(&k, panes[i], KEYS_FN + KEY_BTAB), ACT_PREV_PANE, "%s",
		    panes[i]);
	}
	for (size_t i = 0; i < 4; i++) {
		cr_assert_eq(keys_lookup(&k, panes[i], '}'), ACT_NEXT_EVENT, "%s", panes[i]);
		cr_assert_eq(keys_lookup(&k, panes[i], '{'), ACT_PREV_EVENT, "%s", panes[i]);
	}
	keys_free(&k);
}

Test(keys, user_config)
{
	struct keys k;
	const char *user =
	    "# my keys\n"
	    "bind global Q quit   # trailing comment\n"
	    "unbind global q\n"
	    "bind events C-x hex\n"
	    "bind nosuchmap q quit\n"
	    "bind global q nosuchaction\n"
	    "bind global NoSuchKey quit\n"
	    "bind global\n"
	    "\n";

	keys_init(&k, maps);
	pane_keys_defaults(&k, NULL, NULL);
	nerr = 0;
	cr_assert_eq(keys_parse(&k, user, count_err, NULL), 4);
	cr_assert_eq(nerr, 4);
	cr_assert_eq(keys_lookup(&k, "events", 'Q'), ACT_QUIT);
	cr_assert_eq(keys_lookup(&k, "events", 'q'), ACT_NONE, "unbound");
	cr_assert_eq(keys_lookup(&k, "events", 24), ACT_HEX);
	cr_assert_eq(keys_lookup(&k, "procs", 24), ACT_NONE);
	keys_free(&k);
}

Test(keys, names_round_trip)
{
	const char *names[] = { "Up", "PgDn", "Home", "End", "Enter", "Esc", "Tab", "BTab", "C-l",
		"F1", "F12", "Space", "q", "?", "Backspace", "DEL" };
	char buf[32];

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		int key = keys_parse_key(names[i]);

		cr_assert_neq(key, -1, "%s", names[i]);
		cr_assert_str_eq(keys_key_name(key, buf, sizeof buf), names[i]);
	}
	cr_assert_eq(keys_parse_key("C-L"), 12);
	cr_assert_eq(keys_parse_key("pagedown"), keys_parse_key("PgDn"));
	cr_assert_eq(keys_parse_key("F13"), -1);
	cr_assert_eq(keys_parse_key("Nope"), -1);
	cr_assert_eq(keys_action_by_name("quit"), ACT_QUIT);
	cr_assert_eq(keys_action_by_name("nope"), -1);
}

Test(keys, help_from_table)
{
	struct keys k;
	struct helpacc *h = calloc(1, sizeof *h);
	char buf[128];

	keys_init(&k, maps);
	pane_keys_defaults(&k, NULL, NULL);
	keys_help(&k, help_acc, h);
	cr_assert_geq(h->headings, 3, "global, hex and help maps");
	cr_assert_not_null(strstr(h->text, "Q|quit-all|quit perfnav from any view\n"));
	cr_assert_not_null(strstr(h->text, "?, h, F1|help|show this help\n"));
	cr_assert_not_null(strstr(h->text, "x, Enter|record|"), "%s", h->text);
	/* every bound action's help text is there */
	for (int a = 1; a < ACT_COUNT; a++)
		if (keys_bound(&k, "global", (enum action)a, buf, sizeof buf)[0])
			cr_assert_not_null(strstr(h->text, keys_action_help((enum action)a)));
	free(h);
	keys_free(&k);
}

/* ---- themes ---- */

Test(theme, builtin_and_parse)
{
	struct theme t;

	cr_assert(theme_builtin(&t, "default"));
	cr_assert_eq(t.el[EL_CURSOR].bg.kind, TC_INDEX);
	cr_assert_eq(t.el[EL_CURSOR].bg.v, 6, "cyan");
	cr_assert(t.el[EL_TITLE].attrs & TA_BOLD);
	cr_assert(theme_builtin(&t, "mono"));
	cr_assert_eq(t.el[EL_CURSOR].fg.kind, TC_DEFAULT);
	cr_assert(t.el[EL_CURSOR].attrs & TA_REVERSE);
	cr_assert_not(theme_builtin(&t, "nope"));

	theme_builtin(&t, "default");
	nerr = 0;
	cr_assert_eq(theme_parse(&t,
	    "# comment\n"
	    "cursor #ff8700 color17 bold underline  # comment\n"
	    "hot-high brightred default\n"
	    "nosuch red blue\n"
	    "title red\n"
	    "tab red blue sparkly\n"
	    "time 256 default\n", count_err, NULL), 4);
	cr_assert_eq(nerr, 4);
	cr_assert_eq(t.el[EL_CURSOR].fg.kind, TC_RGB);
	cr_assert_eq(t.el[EL_CURSOR].fg.v, 0xff8700);
	cr_assert_eq(t.el[EL_CURSOR].bg.v, 17);
	cr_assert_eq(t.el[EL_CURSOR].attrs, TA_BOLD | TA_UNDERLINE);
	cr_assert_eq(t.el[EL_HOT_HIGH].fg.v, 9);
	cr_assert_eq(t.el[EL_TITLE].fg.v, 15, "a bad line leaves the element alone");
	cr_assert_eq(theme_elem_by_name("hex-field"), EL_HEX_FIELD);
}

Test(theme, files_in_themes_dir)
{
	const char *files[] = { "dark", "light", "high-contrast" };

	for (size_t i = 0; i < 3; i++) {
		char path[4096], err[256];
		struct theme t, d;

		snprintf(path, sizeof path, "%s/../../themes/%s.theme", TEST_DATA, files[i]);
		cr_assert_eq(theme_load(&t, path, NULL, err, sizeof err), 0, "%s: %s", path, err);
		if (i == 0) {
			theme_builtin(&d, "default");
			cr_assert_eq(memcmp(t.el, d.el, sizeof t.el), 0, "dark.theme is the default");
		}
	}
}

Test(theme, load_errors)
{
	struct theme t;
	char err[256];

	cr_assert_eq(theme_load(&t, "mono", NULL, err, sizeof err), 0);
	cr_assert_lt(theme_load(&t, "/nonexistent/x.theme", NULL, err, sizeof err), 0);
	cr_assert_not_null(strstr(err, "not found"));
}

Test(theme, colour_reduction)
{
	struct tcolor c;

	theme_parse_color("#ff0000", &c);
	cr_assert_eq(theme_reduce(&c, 256), 196);
	cr_assert_eq(theme_reduce(&c, 16), 9);
	cr_assert_eq(theme_reduce(&c, 8), 1);
	cr_assert_eq(theme_reduce(&c, 0x1000000), 0xff0000, "direct colour");
	theme_parse_color("#808080", &c);
	cr_assert_eq(theme_reduce(&c, 256), 244, "grey ramp");
	theme_parse_color("#005f87", &c);
	cr_assert_eq(theme_reduce(&c, 256), 24, "exact cube colour");
	theme_parse_color("bright-blue", &c);
	cr_assert_eq(theme_reduce(&c, 256), 12);
	cr_assert_eq(theme_reduce(&c, 16), 12);
	cr_assert_eq(theme_reduce(&c, 8), 4, "bright -> normal on 8 colours");
	theme_parse_color("208", &c);
	cr_assert_eq(theme_reduce(&c, 256), 208);
	cr_assert_eq(theme_reduce(&c, 16), 3, "orange -> yellow");
	theme_parse_color("default", &c);
	cr_assert_eq(theme_reduce(&c, 256), -1);
	theme_parse_color("red", &c);
	cr_assert_eq(theme_reduce(&c, 2), -1, "no colours");
	cr_assert_lt(theme_parse_color("#12345", &c), 0);
	cr_assert_lt(theme_parse_color("300", &c), 0);
	cr_assert_eq(theme_index_rgb(16), 0x000000);
	cr_assert_eq(theme_index_rgb(231), 0xffffff);
	cr_assert_eq(theme_index_rgb(232), 0x080808);
}

/* C++ names cut inside their brackets: the longest innermost template or
 * parameter list first, operator names and arrows no brackets, names that
 * fit or do not pair up left alone (the middle ellipsis takes them). */
Test(text, cxx_names_cut_inside_brackets)
{
	char out[256];

	if (setlocale(LC_ALL, "C.UTF-8") == NULL)
		cr_skip_test("no C.UTF-8 locale");
	text_elide_cxx("std::map<std::string, int>::find(std::string const&) const", out, sizeof out, 41);
	cr_assert_str_eq(out, "std::map<std::string, int>::find(\u2026) const");
	text_elide_cxx("std::map<std::string, int>::find(std::string const&) const", out, sizeof out, 40);
	cr_assert_str_eq(out, "std::map<\u2026>::find(\u2026) const");
	text_elide_cxx("std::vector<int>::operator<(std::vector<int> const&)", out, sizeof out, 30);
	cr_assert_str_eq(out, "std::vector<\u2026>::operator<(\u2026)");
	text_elide_cxx("a<b>::operator()(x::y<long long>)", out, sizeof out, 26);
	cr_assert_str_eq(out, "a<b>::operator()(x::y<\u2026>)");
	text_elide_cxx("p->q<int, long>(r)", out, sizeof out, 14);
	cr_assert_str_eq(out, "p->q<\u2026>(r)");
	text_elide_cxx("short<int>", out, sizeof out, 80);
	cr_assert_str_eq(out, "short<int>", "a name that fits is left whole");
	text_elide_cxx("broken<name(of)", out, sizeof out, 8);
	cr_assert_str_eq(out, "broken<name(of)", "brackets that do not pair up: left to the middle ellipsis");
	/* perfnav's mark of an inlined function is no argument list: it stays whole */
	text_elide_cxx("std::unordered_map<std::string, long>::operator[] (inlined)", out, sizeof out, 40);
	cr_assert_str_eq(out, "std::unordered_map<\u2026>::operator[] (inlined)");
	text_elide_cxx("f(a)", out, 3, 2);
	cr_assert_str_eq(out, "f(", "cut to the buffer");
	setlocale(LC_ALL, "C");
}

/* ---- drawing: what a cut shows ---- */

static const struct frow wide_nums[] = {
	{ 0, "up", "1731700000" }, { 0, "down", "-1726300000" }, { 0, "same", "5" },
};

/* A number is never cut: its column grows to the widest shown, and where
 * the screen has no room for that, the value takes a K/M/G unit. */
Test(draw, numbers_get_room_or_a_unit)
{
	struct pane p;
	struct fake f;
	char out[32];

	fake_pane(&p, &f, wide_nums, 3, false);
	screen_draw(&p, 5, 60);
	cr_assert_not_null(strstr(screen_line(1), " 1731700000"), "'%s'", screen_line(1));
	cr_assert_not_null(strstr(screen_line(2), " -1726300000"), "'%s'", screen_line(2));
	cr_assert_not_null(strstr(screen_line(3), "same"), "'%s'", screen_line(3));
	/* 10 columns of name, 3 left for the number */
	screen_draw(&p, 5, 14);
	cr_assert_str_eq(screen_line(1), "up          2G", "'%s'", screen_line(1));
	cr_assert_not_null(strstr(screen_line(2), " -2G"), "'%s'", screen_line(2));
	widget_free(&p.w);
	cr_assert(text_num_fit("1731700000", out, sizeof out, 9));
	cr_assert_str_eq(out, "1731700K");
	cr_assert(text_num_fit("-1726300000", out, sizeof out, 6));
	cr_assert_str_eq(out, "-1726M");
	cr_assert(text_num_fit("+999999", out, sizeof out, 5));
	cr_assert_str_eq(out, "+1.0M", "999.999K rounds up to the next unit: %s", out);
	cr_assert_not(text_num_fit("12.5%", out, sizeof out, 3), "not a whole number");
	cr_assert_not(text_num_fit("123456", out, sizeof out, 1), "no room even so");
}

static const struct frow long_names[] = {
	{ 0, "libstdc++.so.6.0.30", "1" }, { 0, "x86_64-linux-gnu-gcc-13", "2" },
	{ 0, "memfd:setup (deleted)", "3" }, { 0, "short", "4" },
};

/* Every cut shows an ellipsis: a cut name must not look like a real one. */
Test(draw, cut_names_end_in_an_ellipsis)
{
	struct pane p;
	struct fake f;

	fake_pane(&p, &f, long_names, 4, false);
	screen_draw(&p, 6, 30);
	cr_assert_str_eq(screen_line(1), "libstdc++\u2026      1", "'%s'", screen_line(1));
	cr_assert_str_eq(screen_line(2), "x86_64-li\u2026      2", "'%s'", screen_line(2));
	cr_assert_str_eq(screen_line(3), "memfd:set\u2026      3", "'%s'", screen_line(3));
	cr_assert_str_eq(screen_line(4), "short           4", "'%s'", screen_line(4));
	widget_free(&p.w);
}

/* Three text columns as the hot pane's: command, DSO, symbol (flex). */
static const char *const three_rows[][3] = {
	{ "cc1", "[kernel.kallsyms]", "[k] a_kernel_function_of_a_long_name" },
	{ "cc1", "libc.so.6", "[.] __memset_avx512_unaligned_erms" },
};

static size_t
three_nrows(struct pane *p)
{
	(void)p;
	return 2;
}

static void
three_row(struct pane *p, size_t idx, struct row *r)
{
	(void)p;
	for (int k = 0; k < 3; k++)
		row_set(r, k, 0, "%s", three_rows[idx][k]);
}

static const struct pane_ops three_ops = {
	.name = "three", .title = "Three", .nrows = three_nrows, .row = three_row,
};

static const struct column three_cols[3] = {
	{ "Command", 15, 0 },
	{ "Shared Object", 20, 0 },
	{ "Symbol", 20, COL_FLEX | COL_MIDDLE },
};

/*
 * The symbol column asks for room: a column wider than its texts and title
 * (the command's "cc1") gives its spare room first, and nothing is cut
 * while that is enough; "[kernel.kallsyms]" was cut for 4 more columns of
 * symbol while "Command" kept 8 empty ones.
 */
Test(draw, spare_room_given_before_a_cut)
{
	struct pane p;

	memset(&p, 0, sizeof p);
	p.ops = &three_ops;
	p.cols = three_cols;
	p.ncols = 3;
	p.is_list = true;
	widget_init(&p.w, &p, false);
	screen_draw(&p, 4, 66);
	cr_assert_not_null(strstr(screen_line(1), "[kernel.kallsyms]"), "'%s'", screen_line(1));
	cr_assert_not_null(strstr(screen_line(1), "a_kernel_function_of_a_long_name"), "'%s'",
	    screen_line(1));
	widget_free(&p.w);
}

/* The counters pane's columns: a cpu column 16 wide for "0", an event (flex), the metric last. */
static const char *const ctr_rows[][4] = {
	{ "total", "0", "context-switches", "463.716 /sec" },
	{ "total", "1", "page-faults", "33.670 K/sec" },
};

static size_t
ctr_nrows(struct pane *p)
{
	(void)p;
	return 2;
}

static void
ctr_row(struct pane *p, size_t idx, struct row *r)
{
	(void)p;
	for (int k = 0; k < 4; k++)
		row_set(r, k, 0, "%s", ctr_rows[idx][k]);
}

static const struct pane_ops ctr_ops = {
	.name = "ctr", .title = "Ctr", .nrows = ctr_nrows, .row = ctr_row,
};

static const struct column ctr_cols[4] = {
	{ "Time", 12, COL_RIGHT | COL_NUM },
	{ "CPU/thread", 16, COL_RIGHT },
	{ "Event", 20, COL_FLEX },
	{ "Metric", 24, COL_RIGHT | COL_NUM },
};

/*
 * A line too short for every column: before the last one is cut (the
 * metric "463.716 /sec" drawn "463.71…", a digit gone), the number
 * columns give the room past their widest value and title.
 */
Test(draw, numbers_give_their_spare_room_before_a_cut)
{
	struct pane p;

	memset(&p, 0, sizeof p);
	p.ops = &ctr_ops;
	p.cols = ctr_cols;
	p.ncols = 4;
	p.is_list = true;
	widget_init(&p.w, &p, false);
	screen_draw(&p, 4, 60);
	cr_assert_not_null(strstr(screen_line(1), " 463.716 /sec"), "'%s'", screen_line(1));
	cr_assert_not_null(strstr(screen_line(2), " 33.670 K/sec"), "'%s'", screen_line(2));
	cr_assert_not_null(strstr(screen_line(1), "context-switches"), "'%s'", screen_line(1));
	cr_assert_not_null(strstr(screen_line(0), "CPU/thread"), "titles kept: '%s'", screen_line(0));
	widget_free(&p.w);
}

static const struct column deep_cols[2] = {
	{ "Symbol", 20, COL_TREE | COL_FLEX | COL_MIDDLE },
	{ "Num", 6, COL_NUM | COL_RIGHT },
};

/*
 * A chain of 30 nested calls with long (C++) names: each row is drawn right
 * of its parent, its name cut (with an ellipsis), never its indentation;
 * past the depth where the indentation would leave the name no room, the
 * rows show their depth as a number.
 */
Test(draw, tree_child_right_of_parent)
{
	enum { N = 30 };
	struct frow rows[N];
	char names[N][160];
	struct pane p;
	struct fake f;
	int prev = -1, numbered = 0;

	for (int d = 0; d < N; d++) {
		snprintf(names[d], sizeof names[d], "L%d_std::__detail::_Map_base<std::string, "
		    "std::pair<std::string const, int>, std::allocator<int>>::operator[](std::string "
		    "const&)", d);
		rows[d] = (struct frow){ d, names[d], "1" };
	}
	fake_pane(&p, &f, rows, N, true);
	p.cols = deep_cols;
	widget_expand_all(&p.w, true);
	cr_assert_eq(widget_count(&p.w), N);
	screen_draw(&p, N + 1, 60);
	for (int d = 0; d < N; d++) {
		const char *line = screen_line(1 + d);
		char tag[16], depth[16];
		int col;

		snprintf(tag, sizeof tag, "L%d_", d);
		snprintf(depth, sizeof depth, "[%d] ", d);
		col = screen_col(line, tag);
		cr_assert_geq(col, 0, "row %d shows the start of its name: '%s'", d, line);
		cr_assert_not_null(strstr(line, "\u2026"), "row %d: the name is cut: '%s'", d, line);
		if (strstr(line, depth) != NULL) {
			numbered++;
			cr_assert_geq(col, prev, "row %d: '%s'", d, line);
		} else {
			cr_assert_eq(numbered, 0, "row %d: numbered rows stay numbered: '%s'", d, line);
			cr_assert_gt(col, prev, "row %d right of its parent: '%s'", d, line);
		}
		prev = col;
	}
	cr_assert_gt(numbered, 0, "the deepest rows show their depth");
	cr_assert_lt(numbered, N - 5, "shallow rows are indented");
	widget_free(&p.w);
}

/*
 * A depth shows as a number only past a real limit: where the indentation
 * and the name fit, rows are indented, never numbered.  A tree column of
 * its own (the processes pane's: short names, depth 1) at 200 columns, and
 * a flex tree (the trees': depth 9, names of 12) at 80.
 */
Test(draw, tree_depth_numbers_only_past_the_limit)
{
	static const struct frow procs[] = {
		{ 0, "26193 forkexec", "5" }, { 1, "26193 forkexec", "3" }, { 1, "26194 sh", "2" },
	};
	struct frow deep[10];
	char names[10][16];
	struct pane p;
	struct fake f;

	fake_pane(&p, &f, procs, 3, true);
	widget_expand_all(&p.w, true);
	screen_draw(&p, 5, 200);
	for (int y = 1; y <= 3; y++) {
		cr_expect_null(strstr(screen_line(y), "[1]"), "row %d: '%s'", y, screen_line(y));
		cr_expect_geq(screen_col(screen_line(y), y == 3 ? "26194" : "26193"), y == 1 ? 2 : 4,
		    "row %d indented: '%s'", y, screen_line(y));
	}
	widget_free(&p.w);
	for (int d = 0; d < 10; d++) {
		snprintf(names[d], sizeof names[d], "function_%02d", d);
		deep[d] = (struct frow){ d, names[d], "1" };
	}
	fake_pane(&p, &f, deep, 10, true);
	p.cols = deep_cols;
	widget_expand_all(&p.w, true);
	screen_draw(&p, 12, 80);
	for (int d = 0; d < 10; d++) {
		const char *line = screen_line(1 + d);

		cr_expect_null(strstr(line, "["), "row %d numbered: '%s'", d, line);
		cr_expect_eq(screen_col(line, names[d]), 2 * d + 2, "row %d: '%s'", d, line);
	}
	widget_free(&p.w);
}

/* Counts say "1 problem", "2 problems": the browser's messages use plural(). */
Test(text, plural_of_a_count)
{
	char msg[64];

	snprintf(msg, sizeof msg, "%d problem%s", 1, plural(1));
	cr_assert_str_eq(msg, "1 problem");
	snprintf(msg, sizeof msg, "%d problem%s", 0, plural(0));
	cr_assert_str_eq(msg, "0 problems");
	snprintf(msg, sizeof msg, "%d problem%s", 2, plural(2));
	cr_assert_str_eq(msg, "2 problems");
}

static const struct frow presorted[] = {
	{ 0, "apple", "10" }, { 0, "banana", "30" }, { 0, "cherry", "20" },
};

/* The first > on rows already in a column's order (as the hot functions
 * come in perf's) does not stop there: it moves to a sort that shows. */
Test(widget, sort_step_always_moves_rows)
{
	struct pane p;
	struct fake f;

	fake_pane(&p, &f, presorted, 3, false);
	widget_sort_step(&p.w, 1);
	cr_assert_eq(p.w.sort_col, 1, "Name's order is the one shown: on to Num");
	cr_assert(p.w.sort_desc);
	cr_assert_str_eq(name_at(&p.w, 0), "banana");
	widget_sort_step(&p.w, -1);
	cr_assert_eq(p.w.sort_col, 0, "back: Name, which moves rows now");
	cr_assert_str_eq(name_at(&p.w, 0), "apple");
	widget_free(&p.w);
}

/* ---- panes drawn ---- */

/* The help texts wrap at the pane's width: nothing is cut, on any line. */
Test(panes, help_wraps_at_the_width)
{
	struct keys k;
	struct pane p;
	int h = 400, shown = 0;

	keys_init(&k, maps);
	pane_keys_defaults(&k, NULL, NULL);
	cr_assert_eq(pane_create(&p, PANE_HELP, NULL, &k), 0);
	cr_assert_not_null(p.ops->resize, "the help pane follows the width");
	p.ops->resize(&p, h, 100);
	cr_assert_lt(widget_count(&p.w), (size_t)h - 1);
	screen_draw(&p, h, 100);
	for (int y = 0; y < h; y++) {
		const char *line = screen_line(y);

		cr_assert_null(strstr(line, "\u2026"), "line %d is cut: '%s'", y, line);
		if (strstr(line, "words)") != NULL)
			shown++;
	}
	cr_assert_gt(shown, 0, "the longest texts' ends are shown");
	pane_destroy(&p);
	keys_free(&k);
}

/*
 * The hex view lists each field level with the line of bytes it starts in
 * (or on the lines under it when that line starts several): the offset a
 * field line shows is within the line of bytes on its row, or the nearest
 * above.
 */
Test(panes, hex_fields_level_with_their_bytes)
{
	struct session *s = open_fixture("plain.data");
	struct pane p;
	struct nav_view v;
	int fields = 0;
	long bytes = -1;	/* the record offset of the line of bytes last drawn */

	cr_assert_eq(pane_create(&p, PANE_HEX, s, NULL), 0);
	nav_view_init(&v, PANE_HEX);
	v.target = NAV_T_RECORD;
	v.arg = 0x108;
	p.ops->enter(&p, &v);
	screen_draw(&p, 60, 120);	/* 8 bytes a line; the fields from column 45 */
	for (int y = 2; y < 60; y++) {
		const char *line = screen_line(y);
		unsigned long at, off;

		if (line[0] != ' ' && sscanf(line, "%8lx", &at) == 1)
			bytes = (long)at - 0x108;
		if (strlen(line) <= 45 || sscanf(line + 45, "%4lx", &off) != 1)
			continue;
		fields++;
		cr_assert_geq(bytes, 0, "line %d: '%s'", y, line);
		cr_assert_eq(off / 8, (unsigned long)bytes / 8,
		    "the field at %#lx is listed beside the bytes from %#lx: '%s'", off, bytes, line);
	}
	cr_assert_gt(fields, 3);
	pane_destroy(&p);
	session_close(s);
}
