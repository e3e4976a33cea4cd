/*
 * Criterion tests of the TUI's models, without a terminal: the list/tree
 * widget (sorting, filtering, search, expansion), the navigation stack,
 * the key table (parsing, lookup, help), the theme parser and colour
 * reduction, and the panes over the fixtures.
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
#include "symbolize/resolve.h"
#include "symbolize/tasks.h"
#include "tui/keys.h"
#include "tui/nav.h"
#include "tui/pane.h"
#include "tui/symbols.h"
#include "tui/cmd/cmd.h"
#include "tui/theme.h"
#include "tui/widget.h"
#include "tests/helpers.h"

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
	cr_assert(wcscmp(buf, L"hello") == 0);
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
	/* an escape that does not fit whole is left out */
	cols = text_decode("ab\x1b", buf, 128, 5, false);
	cr_assert_eq(cols, 2);
	cr_assert(wcscmp(buf, L"ab") == 0, "%ls", buf);
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

static const char *const maps[] = { "hot", "procs", "events", "header", "hex", "help", NULL };

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
	cr_assert_eq(keys_parse(&k, keys_default_text, count_err, NULL), 0);
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
	keys_parse(&k, keys_default_text, NULL, NULL);
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
	keys_parse(&k, keys_default_text, NULL, NULL);
	keys_help(&k, help_acc, h);
	cr_assert_geq(h->headings, 3, "global, hex and help maps");
	cr_assert_not_null(strstr(h->text, "q|quit|quit perfnav\n"));
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

/* ---- panes over fixtures ---- */

static struct session *
open_fixture(const char *name)
{
	char path[4096];
	struct perf_err err;
	struct session *s;

	snprintf(path, sizeof path, "%s/%s", TEST_DATA, name);
	s = session_open(path, NULL, &err);
	cr_assert_not_null(s, "%s: %s", path, err.msg);
	return s;
}

static bool
row_has(struct pane *p, size_t src, const char *text)
{
	return widget_row_contains(&p->w, src, text);
}

Test(panes, events_rows_and_filters)
{
	struct session *s = open_fixture("plain.data");
	struct pane p;
	char err[200];

	cr_assert_eq(pane_create(&p, PANE_EVENTS, s, NULL), 0);
	cr_assert_eq(widget_count(&p.w), s->index.n);
	cr_assert(row_has(&p, 0, "PERF_RECORD_ID_INDEX"));
	cr_assert_eq(widget_set_filter(&p.w, "type:SAMPLE", err, sizeof err), 0);
	cr_assert_eq(widget_count(&p.w), s->counts.by_type[PERF_RECORD_SAMPLE]);
	cr_assert(row_has(&p, widget_cursor_row(&p.w), "PERF_RECORD_SAMPLE"));
	cr_assert_eq(widget_set_filter(&p.w, "type:perf_record_comm,EXIT", err, sizeof err), 0);
	cr_assert_eq(widget_count(&p.w), s->counts.by_type[PERF_RECORD_COMM] +
	    s->counts.by_type[PERF_RECORD_EXIT]);
	cr_assert_lt(widget_set_filter(&p.w, "type:NOPE", err, sizeof err), 0);
	cr_assert_not_null(strstr(err, "type:NOPE"));
	cr_assert_lt(widget_set_filter(&p.w, "pid:x", err, sizeof err), 0);
	cr_assert_eq(widget_set_filter(&p.w, "exec", err, sizeof err), 0);
	cr_assert_geq(widget_count(&p.w), 1, "free words match the summary");
	widget_set_filter(&p.w, "", err, sizeof err);
	/* time range: from the first sample on */
	{
		char f[80], t[32];
		size_t n;

		widget_set_filter(&p.w, "type:SAMPLE", err, sizeof err);
		pane_fmt_time(t, sizeof t, p.s->index.v[widget_cursor_row(&p.w)].time);
		widget_set_filter(&p.w, "", err, sizeof err);
		snprintf(f, sizeof f, "time:%s-", t);
		cr_assert_eq(widget_set_filter(&p.w, f, err, sizeof err), 0, "%s", err);
		n = widget_count(&p.w);
		cr_assert_gt(n, 0);
		cr_assert_lt(n, s->index.n);
	}
	/* x: the hex view of the selection */
	widget_set_filter(&p.w, "", err, sizeof err);
	widget_home(&p.w);
	cr_assert_eq(p.ops->key(&p, ACT_HEX), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(p.push.pane, PANE_HEX);
	cr_assert_eq(p.push.target, NAV_T_RECORD);
	cr_assert_eq(p.push.arg, 0x108, "plain.data's first record");
	pane_destroy(&p);
	session_close(s);
}

Test(panes, events_sort_by_cpu_keeps_count)
{
	struct session *s = open_fixture("tracepoint.data");
	struct pane p;

	cr_assert_eq(pane_create(&p, PANE_EVENTS, s, NULL), 0);
	widget_sort(&p.w, 1, false);
	cr_assert_eq(widget_count(&p.w), s->index.n);
	for (size_t i = 1; i < widget_count(&p.w); i++)
		cr_assert_leq(ent_cpu(&s->index.v[widget_source(&p.w, i - 1)]),
		    ent_cpu(&s->index.v[widget_source(&p.w, i)]));
	pane_destroy(&p);
	session_close(s);
}

Test(panes, procs_threads_and_drill)
{
	struct session *s = open_fixture("pipe.data");
	struct pane p;
	struct nav_view v;
	int threads = 0;

	cr_assert_eq(pane_create(&p, PANE_PROCS, s, NULL), 0);
	widget_expand_all(&p.w, true);
	for (size_t i = 0; i < widget_count(&p.w); i++)
		if (p.w.depth[widget_source(&p.w, i)] == 1)
			threads++;
	cr_assert_eq(threads, 4, "main + 3 worker threads");
	widget_home(&p.w);
	cr_assert(row_has(&p, widget_cursor_row(&p.w), "threads"));
	/* Enter on the process: its own view */
	cr_assert_eq(p.ops->key(&p, ACT_ENTER), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(p.push.pane, PANE_PROCS);
	cr_assert_eq(p.push.target, NAV_T_PID);
	v = p.push;
	p.ops->enter(&p, &v);
	cr_assert_eq(widget_count(&p.w), 5, "the process and its 4 threads, expanded");
	widget_move(&p.w, 2);
	cr_assert_eq(p.ops->key(&p, ACT_EVENTS), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(p.push.pane, PANE_EVENTS);
	cr_assert_eq(strncmp(p.push.filter, "tid:", 4), 0, "%s", p.push.filter);
	/* Enter on a thread: its hot functions */
	cr_assert_eq(p.ops->key(&p, ACT_ENTER), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(p.push.pane, PANE_HOT);
	cr_assert_eq(p.push.target, NAV_T_HOT);
	cr_assert_eq(p.push.arg, NAV_HOT_TID);
	/* back to the whole tree */
	nav_view_init(&v, PANE_PROCS);
	p.ops->enter(&p, &v);
	cr_assert_geq(widget_count(&p.w), 1);
	pane_destroy(&p);
	session_close(s);
}

Test(panes, procs_fork_tree)
{
	struct session *s = open_fixture("fork.data");
	struct pane p;
	size_t roots = 0, kids = 0;

	cr_assert_eq(pane_create(&p, PANE_PROCS, s, NULL), 0);
	widget_expand_all(&p.w, true);
	for (size_t i = 0; i < widget_count(&p.w); i++) {
		size_t src = widget_source(&p.w, i);

		if (p.w.depth[src] == 0)
			roots++;
		else if (row_has(&p, src, "forkexec"))
			kids++;
	}
	cr_assert_eq(roots, 1, "one root process");
	cr_assert_geq(kids, 2, "the forked and the exec'd children under it");
	pane_destroy(&p);
	session_close(s);
}

/* The rows the processes pane should show for proc pi of the model, depth-first. */
static void
expect_proc_rows(const struct session *s, const struct tasks *tk, uint32_t pi, unsigned depth,
    char (*ids)[32], unsigned *depths, uint64_t *samples, size_t *n)
{
	const struct task_proc *pc = &tk->procs[pi];

	snprintf(ids[*n], 32, "%" PRId32, pc->pid);
	depths[*n] = depth;
	samples[(*n)++] = pc->samples;
	if (pc->nthreads > 1 || s->threads.v[pc->leader].tid != pc->pid) {
		for (size_t k = 0; k < pc->nthreads; k++) {
			const struct pn_thread *th = &s->threads.v[pc->threads[k]];

			snprintf(ids[*n], 32, "%" PRId32 "/%" PRId32, th->pid, th->tid);
			depths[*n] = depth + 1;
			samples[(*n)++] = th->samples;
		}
	}
	for (size_t k = 0; k < pc->nkids; k++)
		expect_proc_rows(s, tk, pc->kids[k], depth + 1, ids, depths, samples, n);
}

/* The processes pane draws the process tree of symbolize/tasks.c, row for row. */
Test(panes, procs_rows_are_the_tasks_model)
{
	static const char *const names[] = { "fork.data", "pipe.data", "multi.data", "dir.data" };

	for (size_t f = 0; f < sizeof names / sizeof *names; f++) {
		struct session *s = open_fixture(names[f]);
		struct tasks *tk = tasks_new(s);
		size_t cap = 2 * s->threads.n + 1, n = 0;
		char (*ids)[32] = calloc(cap, sizeof *ids);
		unsigned *depths = calloc(cap, sizeof *depths);
		uint64_t *samples = calloc(cap, sizeof *samples);
		struct pane p;

		for (size_t i = 0; i < tk->nroots; i++)
			expect_proc_rows(s, tk, tk->roots[i], 0, ids, depths, samples, &n);
		cr_assert_eq(pane_create(&p, PANE_PROCS, s, NULL), 0);
		cr_assert_eq(p.ops->nrows(&p), n, "%s", names[f]);
		for (size_t i = 0; i < n; i++) {
			struct row r;
			char num[32];

			row_reset(&r);
			p.ops->row(&p, i, &r);
			snprintf(num, sizeof num, "%" PRIu64, samples[i]);
			cr_assert_str_eq(r.col[0], ids[i], "%s row %zu", names[f], i);
			cr_assert_eq(r.depth, depths[i]);
			cr_assert_str_eq(r.col[2], num, "%s row %zu samples", names[f], i);
		}
		pane_destroy(&p);
		tasks_free(tk);
		free(ids);
		free(depths);
		free(samples);
		session_close(s);
	}
}

Test(panes, header_tree)
{
	struct session *s = open_fixture("plain.data");
	struct pane p;
	bool host = false, attr = false;

	cr_assert_eq(pane_create(&p, PANE_HEADER, s, NULL), 0);
	for (size_t i = 0; i < widget_count(&p.w); i++) {
		size_t src = widget_source(&p.w, i);

		if (row_has(&p, src, "HOSTNAME") && row_has(&p, src, "vm"))
			host = true;
	}
	cr_assert(host, "HOSTNAME vm on the first level");
	widget_expand_all(&p.w, true);
	for (size_t i = 0; i < widget_count(&p.w); i++)
		if (row_has(&p, widget_source(&p.w, i), "IP|TID|TIME|PERIOD"))
			attr = true;
	cr_assert(attr, "sample_type bits spelled out");
	/* below each section, the rows perfnav header prints for it */
	{
		struct row r;
		size_t src, nrows = p.ops->nrows(&p);
		bool online = false, cache = false, bids = false;

		for (src = 0; src < nrows; src++) {
			row_reset(&r);
			p.ops->row(&p, src, &r);
			if (r.depth == 1 && strcmp(r.col[0], "NRCPUS") == 0)
				cr_assert_str_eq(r.col[4], "2 lines", "two lines beside NRCPUS");
			if (r.depth == 2 && strcmp(r.col[0], "nrcpus online") == 0)
				online |= r.col[4] != NULL && strcmp(r.col[4], "2") == 0;
			/* "#  L1 Data ...": indented under "CPU cache info:" */
			if (r.depth == 3 && strncmp(r.col[0], "L1 Data ", 8) == 0)
				cache |= r.col[4] != NULL && strcmp(r.col[4], "     48K [0]") == 0;
			if (r.depth == 2 && strcmp(r.col[0], "build ids") == 0)
				bids |= r.col[4] != NULL && strcmp(r.col[4], "3") == 0;
		}
		cr_assert(online, "nrcpus online 2, under NRCPUS");
		cr_assert(cache, "the L1 data cache under CPU cache info:");
		cr_assert(bids, "perfnav's count of build ids under BUILD_ID");
	}
	/* x on HOSTNAME: its bytes */
	cr_assert(widget_search(&p.w, "HOSTNAME", 1, false));
	cr_assert_eq(p.ops->key(&p, ACT_HEX), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(p.push.target, NAV_T_BYTES);
	cr_assert_eq(p.push.arg, s->feat.sec[PF_FEAT_HOSTNAME].offset);
	pane_destroy(&p);
	session_close(s);
}

/* ---- the header pane shows the rows perfnav header prints ---- */

/* What `perfnav header TEST_DATA/name` writes, its standard output caught. */
static char *
header_output(const char *name)
{
	char path[4096], *out;
	char *argv[] = { "header", path, NULL };
	FILE *tmp = tmpfile();
	long n;
	int fd, rc;

	cr_assert_not_null(tmp);
	snprintf(path, sizeof path, "%s/%s", TEST_DATA, name);
	fflush(stdout);
	fd = dup(1);
	cr_assert_geq(fd, 0);
	dup2(fileno(tmp), 1);
	rc = cmd_header(2, argv);
	fflush(stdout);
	dup2(fd, 1);
	close(fd);
	cr_assert_eq(rc, 0, "perfnav header %s", name);
	n = ftell(tmp);
	cr_assert_gt(n, 0);
	out = calloc(1, (size_t)n + 1);
	rewind(tmp);
	cr_assert_eq(fread(out, 1, (size_t)n, tmp), (size_t)n);
	fclose(tmp);
	return out;
}

/* Whether line is what perfnav header prints for a row shown as name and
 * value: "# ", perf's indent, name, its separator, value. */
static bool
line_shows(const char *line, const char *name, const char *value)
{
	static const char *const leads[] = { "", " ", "  ", "\t" };
	static const char *const seps[] = { " : ", ": ", "  : ", "    : ", " " };

	if (strncmp(line, "# ", 2) != 0)
		return false;
	for (size_t l = 0; l < sizeof leads / sizeof leads[0]; l++) {
		const char *t = line + 2;

		if (strncmp(t, leads[l], strlen(leads[l])) != 0)
			continue;
		t += strlen(leads[l]);
		if (strncmp(t, name, strlen(name)) != 0)
			continue;
		t += strlen(name);
		if (value == NULL && *t == '\0')
			return true;
		for (size_t k = 0; value != NULL && k < sizeof seps / sizeof seps[0]; k++)
			if (strncmp(t, seps[k], strlen(seps[k])) == 0 &&
			    strcmp(t + strlen(seps[k]), value) == 0)
				return true;
	}
	return false;
}

struct shown {
	char	*name, *value;
	bool	 used;
};

/* The rows under the feature sections (not their "problem" rows), from the
 * pane's model, every row whether expanded or not. */
static size_t
pane_feature_rows(struct pane *p, struct shown *v, size_t max)
{
	size_t n = 0, total = p->ops->nrows(p);
	bool in = false;

	for (size_t i = 0; i < total; i++) {
		struct row r;

		row_reset(&r);
		p->ops->row(p, i, &r);
		if (r.depth == 0)
			in = r.col[0] != NULL && strcmp(r.col[0], "Feature sections") == 0;
		if (!in || r.depth < 2 || strcmp(r.col[0], "problem") == 0)
			continue;
		cr_assert_lt(n, max);
		v[n].name = strdup(r.col[0]);
		v[n].value = r.col[4] != NULL ? strdup(r.col[4]) : NULL;
		v[n].used = false;
		n++;
	}
	return n;
}

/* Every line perfnav header prints for a feature section, perf's in order
 * and perfnav's own counts, is a row of the header pane, and the pane has
 * no other. */
static void
header_rows_match(const char *fixture)
{
	struct session *s = open_fixture(fixture);
	char *out = header_output(fixture), *save = NULL;
	struct shown v[512];
	struct pane p;
	size_t n, next = 0, perf = 0, notes = 0;
	enum { BEFORE, PERF, TABLE, DONE } at = BEFORE;

	cr_assert_eq(pane_create(&p, PANE_HEADER, s, NULL), 0);
	n = pane_feature_rows(&p, v, sizeof v / sizeof v[0]);
	cr_assert_gt(n, 3, "%s: the pane shows feature rows", fixture);
	for (char *line = strtok_r(out, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (at == BEFORE && strncmp(line, "# feat offset", 13) == 0) {
			at = PERF;
		} else if (at == PERF && strncmp(line, "# missing features:", 19) == 0) {
			at = DONE;
		} else if (at == PERF) {
			/* perf's lines: the pane's rows in the same order (perfnav's
			 * own come after a section's, skipped here) */
			while (next < n && !line_shows(line, v[next].name, v[next].value))
				next++;
			cr_assert_lt(next, n, "%s: line \"%s\" is not in the pane (in order)", fixture,
			    line);
			v[next++].used = true;
			perf++;
		} else if (strncmp(line, "#   bit  feature", 16) == 0) {
			at = TABLE;
		} else if (at == TABLE && strncmp(line, "#   ", 4) == 0 &&
		    line[4] >= 'a' && line[4] <= 'z') {
			bool found = false;

			for (size_t i = 0; i < n && !found; i++)
				if (!v[i].used && line_shows(line, v[i].name, v[i].value))
					found = v[i].used = true;
			cr_assert(found, "%s: perfnav's line \"%s\" is not in the pane", fixture, line);
			notes++;
		}
	}
	cr_assert_eq(at, TABLE, "%s: the output had its parts", fixture);
	cr_assert_gt(perf, 3, "%s: perf's lines compared", fixture);
	cr_assert_eq(perf + notes, n, "%s: the pane shows %zu rows, perfnav header %zu lines",
	    fixture, n, perf + notes);
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].value);
	}
	free(out);
	pane_destroy(&p);
	session_close(s);
}

Test(panes, header_rows_are_perfnav_header_lines)
{
	static const char *const fixtures[] = {
		"plain.data", "group.data", "tracepoint.data", "multi.data", "stat.data",
		"zstd.data",
	};

	for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++)
		header_rows_match(fixtures[i]);
}

Test(panes, hex_record_and_back)
{
	struct session *s = open_fixture("plain.data");
	struct pane p;
	struct nav_view v;

	cr_assert_eq(pane_create(&p, PANE_HEX, s, NULL), 0);
	nav_view_init(&v, PANE_HEX);
	v.target = NAV_T_RECORD;
	v.arg = 0x108;
	p.ops->enter(&p, &v);
	cr_assert_eq(p.ops->key(&p, ACT_DOWN), PANE_HANDLED | PANE_REDRAW);
	p.ops->save(&p, &v);
	cr_assert_eq(v.cursor, 1, "the next field");
	cr_assert_eq(p.ops->key(&p, ACT_RECORD), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(p.push.pane, PANE_EVENTS);
	cr_assert_eq(p.push.cursor, 0, "the first record of the index");
	pane_destroy(&p);
	session_close(s);
}

Test(panes, hex_compressed_record)
{
	struct session *s = open_fixture("zstd.data");
	struct pane p;
	struct nav_view v;
	size_t i;

	for (i = 0; i < s->index.n; i++)
		if (ent_loc(&s->index.v[i]) >= SESSION_ZLOC)
			break;
	cr_assert_lt(i, s->index.n, "zstd.data has decompressed records");
	cr_assert_eq(pane_create(&p, PANE_HEX, s, NULL), 0);
	nav_view_init(&v, PANE_HEX);
	v.target = NAV_T_RECORD;
	v.arg = ent_loc(&s->index.v[i]);
	p.ops->enter(&p, &v);
	p.ops->save(&p, &v);
	cr_assert_eq(v.target, NAV_T_RECORD);
	pane_destroy(&p);
	session_close(s);
}

Test(panes, help_generated)
{
	struct keys k;
	struct pane p;
	bool quit = false;

	keys_init(&k, maps);
	keys_parse(&k, keys_default_text, NULL, NULL);
	cr_assert_eq(pane_create(&p, PANE_HELP, NULL, &k), 0);
	cr_assert_gt(widget_count(&p.w), 20);
	for (size_t i = 0; i < widget_count(&p.w); i++)
		if (row_has(&p, widget_source(&p.w, i), "quit perfnav"))
			quit = true;
	cr_assert(quit);
	pane_destroy(&p);
	keys_free(&k);
}

/* ---- every pane on every fixture ---- */

static const char *const pane_titles[PANE_NTABS] = {
	[PANE_HOT] = "Hot functions",
	[PANE_PROCS] = "Processes",
	[PANE_EVENTS] = "Events",
	[PANE_HEADER] = "Header",
	[PANE_HEX] = "Hex",
};

/* Column of list pane p titled title (asserted to exist). */
static int
col_titled(const struct pane *p, const char *title)
{
	for (int c = 0; c < p->ncols; c++)
		if (strcmp(p->cols[c].title, title) == 0)
			return c;
	cr_assert_fail("%s: no column \"%s\"", p->ops->name, title);
	return -1;
}

/* Texts of source row src of list pane p, in r. */
static void
row_of(struct pane *p, size_t src, struct row *r)
{
	row_reset(r);
	p->ops->row(p, src, r);
}

/* Events: one row per record of the index, each with its type and ids. */
static void
every_events(struct pane *p, struct session *s, const char *fx, struct row *r)
{
	int rec = col_titled(p, "Record"), ids = col_titled(p, "PID/TID");
	size_t n = s->index.n, pick[3] = { 0, n / 2, n - 1 };

	cr_assert_gt(n, 0, "%s: records", fx);
	cr_assert_eq(widget_count(&p->w), n, "%s: one row per record", fx);
	for (int k = 0; k < 3; k++) {
		const struct rec_ent *e = &s->index.v[pick[k]];
		struct rec rc;
		char want[64], tn[48];

		cr_assert_eq(session_rec(s, ent_loc(e), &rc), 0);
		pane_type_name(rc.type, tn, sizeof tn);
		snprintf(want, sizeof want, "PERF_RECORD_%s", tn);
		row_of(p, pick[k], r);
		cr_assert_not_null(strstr(r->col[rec], want), "%s: row %zu: \"%s\", want %s", fx,
		    pick[k], r->col[rec], want);
		if (ent_pid(e) >= 0 && ent_tid(e) >= 0) {
			snprintf(want, sizeof want, "%d/%d", (int)ent_pid(e), (int)ent_tid(e));
			cr_assert_str_eq(r->col[ids], want, "%s: row %zu", fx, pick[k]);
		}
	}
}

/* Header: the file, its attrs and its feature sections on the first level. */
static void
every_header(struct pane *p, struct session *s, const char *fx, struct row *r)
{
	int item = col_titled(p, "Item"), value = col_titled(p, "Value");
	bool file = false, attrs = false, feats = false;
	char nattrs[32];

	snprintf(nattrs, sizeof nattrs, "%zu", s->attrs.n);
	cr_assert_gt(widget_count(&p->w), 3, "%s: header rows", fx);
	for (size_t i = 0; i < widget_count(&p->w); i++) {
		size_t src = widget_source(&p->w, i);

		if (p->w.depth[src] != 0)
			continue;
		row_of(p, src, r);
		if (strcmp(r->col[item], "File") == 0)
			file = strstr(r->col[value], fx) != NULL;
		else if (strcmp(r->col[item], "Events (attrs)") == 0)
			attrs = strcmp(r->col[value], nattrs) == 0;
		else if (strcmp(r->col[item], "Feature sections") == 0)
			feats = strstr(r->col[value], " present") != NULL;
	}
	cr_assert(file, "%s: File row with the path", fx);
	cr_assert(attrs, "%s: Events (attrs) row with %s", fx, nattrs);
	cr_assert(feats, "%s: Feature sections row", fx);
}

/* Processes: the process of the first sample is a first-level row. */
static void
every_procs(struct pane *p, struct session *s, const char *fx, struct row *r)
{
	int id = col_titled(p, "PID/TID"), comm = col_titled(p, "Comm");
	int32_t pid = -1;
	char want[16];
	bool found = false;

	for (size_t i = 0; i < s->index.n && pid < 0; i++)
		if (ent_type(&s->index.v[i]) == PERF_RECORD_SAMPLE)
			pid = ent_pid(&s->index.v[i]);
	if (pid < 0) {
		cr_assert_eq(s->counts.by_type[PERF_RECORD_SAMPLE], 0, "%s: samples without pid", fx);
		return;
	}
	cr_assert_gt(widget_count(&p->w), 0, "%s: process rows", fx);
	snprintf(want, sizeof want, "%d", (int)pid);
	for (size_t i = 0; i < widget_count(&p->w) && !found; i++) {
		size_t src = widget_source(&p->w, i);

		if (p->w.depth[src] != 0)
			continue;
		row_of(p, src, r);
		found = strcmp(r->col[id], want) == 0;
	}
	cr_assert(found, "%s: no row for pid %s", fx, want);
	cr_assert_neq(r->col[comm][0], '\0', "%s: pid %s has a comm", fx, want);
}

/*
 * Hot functions: the top row has a share in % and a symbol; the first-level
 * rows' samples (self samples) add up to some and at most all samples.
 */
static void
every_hot(struct pane *p, struct session *s, const char *fx, struct row *r)
{
	int share = strcmp(p->cols[0].title, "Children") == 0 ? 0 : col_titled(p, "Overhead");
	int samples = col_titled(p, "Samples"), sym = col_titled(p, "Symbol");
	uint64_t sum = 0;
	const char *pct;

	if (s->counts.by_type[PERF_RECORD_SAMPLE] == 0 || strcmp(fx, "stat.data") == 0)
		return;
	cr_assert_gt(widget_count(&p->w), 0, "%s: hot rows", fx);
	row_of(p, widget_source(&p->w, 0), r);
	pct = r->col[share];
	cr_assert(strlen(pct) > 1 && pct[strlen(pct) - 1] == '%', "%s: share \"%s\"", fx, pct);
	cr_assert_gt(strtod(pct, NULL), 0, "%s: top share \"%s\"", fx, pct);
	cr_assert_neq(r->col[sym][0], '\0', "%s: top row's symbol", fx);
	for (size_t i = 0; i < widget_count(&p->w); i++) {
		size_t src = widget_source(&p->w, i);

		if (p->w.depth[src] != 0)
			continue;
		row_of(p, src, r);
		sum += strtoull(r->col[samples], NULL, 10);
	}
	cr_assert_gt(sum, 0, "%s: samples on the first level", fx);
	cr_assert_leq(sum, s->counts.by_type[PERF_RECORD_SAMPLE], "%s", fx);
}

/* Hex: nothing shown at first; then the first and last records, field by field. */
static void
every_hex(struct pane *p, struct session *s, const char *fx)
{
	size_t n = s->index.n, pick[2] = { 0, n - 1 };
	struct nav_view v;

	cr_assert(!p->is_list);
	nav_view_init(&v, PANE_HEX);
	p->ops->enter(p, &v);
	p->ops->save(p, &v);
	cr_assert_eq(v.target, NAV_T_NONE, "%s: no record selected", fx);
	cr_assert_eq(p->ops->key(p, ACT_RECORD), PANE_HANDLED | PANE_BACK);
	for (int k = 0; k < 2; k++) {
		uint64_t loc = ent_loc(&s->index.v[pick[k]]);
		struct rec rc;

		cr_assert_eq(session_rec(s, loc, &rc), 0);
		nav_view_init(&v, PANE_HEX);
		v.target = NAV_T_RECORD;
		v.arg = loc;
		p->ops->enter(p, &v);
		cr_assert_eq(p->ops->key(p, ACT_BOTTOM), PANE_HANDLED | PANE_REDRAW);
		p->ops->save(p, &v);
		cr_assert_eq(v.target, NAV_T_RECORD, "%s: record %zu", fx, pick[k]);
		cr_assert_eq(v.arg, loc);
		cr_assert_eq(v.arg3, rc.size, "%s: record %zu's bytes", fx, pick[k]);
		cr_assert_geq(v.cursor, 2, "%s: record %zu: type, misc, size at least", fx, pick[k]);
		cr_assert_eq(p->ops->key(p, ACT_RECORD), PANE_HANDLED | PANE_PUSH);
		cr_assert_eq(p->push.pane, PANE_EVENTS);
		cr_assert_eq(p->push.cursor, pick[k], "%s: back to its events row", fx);
	}
}

Test(panes, every_fixture_opens_in_every_pane)
{
	const char *fx[] = { "plain.data", "fp.data", "dwarf.data", "pipe.data", "dir.data",
		"zstd.data", "multi.data", "group.data", "fork.data", "tracepoint.data",
		"switch.data", "stat.data" };
	struct row *r = malloc(sizeof *r);

	for (size_t f = 0; f < sizeof fx / sizeof fx[0]; f++) {
		struct session *s = open_fixture(fx[f]);

		for (int id = 0; id < PANE_NTABS; id++) {
			struct pane p;
			struct nav_view v;

			cr_assert_eq(pane_create(&p, (enum pane_id)id, s, NULL), 0);
			cr_assert_eq(p.ops, pane_ops_of((enum pane_id)id));
			cr_assert_str_eq(p.ops->title, pane_titles[id]);
			cr_assert_eq(pane_by_name(p.ops->name), id, "%s", p.ops->name);
			if (id == PANE_HOT) {
				/* the pane made symbols of its own: resolve them, load the rows */
				cr_assert_not_null(p.sym);
				symbols_run(p.sym);
				nav_view_init(&v, id);
				p.ops->enter(&p, &v);
			}
			if (p.is_list) {
				cr_assert_gt(p.ncols, 0);
				for (int c = 0; c < p.ncols; c++)
					cr_assert_neq(p.cols[c].title[0], '\0');
				/* every row has a text */
				for (size_t i = 0; i < widget_count(&p.w); i++) {
					row_of(&p, widget_source(&p.w, i), r);
					cr_assert(r->col[0] && r->col[0][0], "%s: %s row %zu",
					    fx[f], p.ops->name, i);
				}
			}
			if (id == PANE_HOT)
				every_hot(&p, s, fx[f], r);
			else if (id == PANE_PROCS)
				every_procs(&p, s, fx[f], r);
			else if (id == PANE_EVENTS)
				every_events(&p, s, fx[f], r);
			else if (id == PANE_HEADER)
				every_header(&p, s, fx[f], r);
			else if (id == PANE_HEX)
				every_hex(&p, s, fx[f]);
			else
				cr_assert_fail("pane %d: no check", id);
			if (p.ops->enter && id != PANE_HEX) {
				nav_view_init(&v, id);
				p.ops->enter(&p, &v);
			}
			pane_destroy(&p);
		}
		session_close(s);
	}
	free(r);
}

/* ---- hot functions ---- */

static struct symbols *
fixture_symbols(struct session *s)
{
	struct sym_opts so;

	memset(&so, 0, sizeof so);
	so.buildid_dir = TEST_DATA "/buildid";
	so.kallsyms = "/dev/null";
	return symbols_new(s, &so);
}

/* Visible position of the first row containing text, or WIDGET_NONE. */
static size_t
find_text(struct pane *p, const char *text)
{
	for (size_t i = 0; i < widget_count(&p->w); i++)
		if (row_has(p, widget_source(&p->w, i), text))
			return i;
	return WIDGET_NONE;
}

static void
hot_pane(struct pane *p, struct session *s, struct symbols *sy)
{
	struct nav_view v;

	cr_assert_eq(pane_create_sym(p, PANE_HOT, s, NULL, sy), 0);
	nav_view_init(&v, PANE_HOT);
	p->ops->enter(p, &v);
}

/* Apply a pushed view to a pane of its kind (what the app's history does). */
static void
go(struct pane *p, const struct nav_view *v)
{
	struct nav_view copy = *v;

	p->ops->enter(p, &copy);
}

Test(hot, rows_sort_filter_limit)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p;
	size_t i;

	symbols_run(sy);
	cr_assert(sy->done);
	cr_assert(sy->children, "fp.data has callchains: a Children column");
	hot_pane(&p, s, sy);
	/* perf report's table: 19 rows, children first */
	cr_assert_eq(widget_count(&p.w), 19);
	cr_assert_eq(p.ncols, 6);
	cr_assert_str_eq(p.cols[0].title, "Children");
	cr_assert(row_has(&p, widget_source(&p.w, 0), "__libc_start_call_main"));
	cr_assert(row_has(&p, widget_source(&p.w, 0), "98.92%"));
	i = find_text(&p, "[.] mix_one");
	cr_assert_eq(i, 2, "mix_one third, as perf report");
	cr_assert(row_has(&p, widget_source(&p.w, i), "74.19%"));
	cr_assert(row_has(&p, widget_source(&p.w, i), "138"));
	/* sort by Self: the hottest symbol first; back to perf's order */
	widget_sort(&p.w, 1, true);
	cr_assert(row_has(&p, widget_source(&p.w, 0), "mix_one"));
	widget_sort(&p.w, 2, true);
	cr_assert(row_has(&p, widget_source(&p.w, 0), "mix_one"), "by samples too");
	widget_sort(&p.w, 5, false);
	cr_assert(row_has(&p, widget_source(&p.w, 0), "[.] "), "by symbol text");
	widget_sort(&p.w, -1, false);
	cr_assert(row_has(&p, widget_source(&p.w, 0), "__libc_start_call_main"));
	/* filter and search */
	cr_assert_eq(widget_set_filter(&p.w, "mix", NULL, 0), 0);
	cr_assert_eq(widget_count(&p.w), 2, "mix_one and mix");
	widget_set_filter(&p.w, "", NULL, 0);
	cr_assert_eq(widget_count(&p.w), 19);
	widget_home(&p.w);
	cr_assert(widget_search(&p.w, "reduce", 1, false));
	cr_assert(row_has(&p, widget_cursor_row(&p.w), "[.] reduce"));
	/* percent limit: 0.5 % keeps all, 1 % keeps 6, then 2, 5, none */
	cr_assert_eq(p.ops->key(&p, ACT_PCT_LIMIT), PANE_HANDLED | PANE_MSG);
	cr_assert_eq(widget_count(&p.w), 19);
	p.ops->key(&p, ACT_PCT_LIMIT);
	cr_assert_eq(widget_count(&p.w), 6, "rows of at least 1 %%");
	p.ops->key(&p, ACT_PCT_LIMIT);
	p.ops->key(&p, ACT_PCT_LIMIT);
	cr_assert_eq(widget_count(&p.w), 5, "rows of at least 5 %%");
	p.ops->key(&p, ACT_PCT_LIMIT);
	cr_assert_eq(widget_count(&p.w), 19);
	cr_assert_str_eq(p.msg, "every row shown");
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

Test(hot, expand_callers_and_callees)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p;
	size_t i;

	symbols_run(sy);
	hot_pane(&p, s, sy);
	i = find_text(&p, "[.] mix_one");
	widget_move(&p.w, (long)i);
	/* + : the callers group (mix_one calls nothing) */
	cr_assert_eq(p.ops->key(&p, ACT_TOGGLE), PANE_HANDLED);
	cr_assert_eq(widget_count(&p.w), 20);
	cr_assert(row_has(&p, widget_source(&p.w, i + 1), "callers (1)"));
	cr_assert_eq(find_text(&p, "callees"), WIDGET_NONE);
	cr_assert(row_has(&p, widget_cursor_row(&p.w), "mix_one"), "the cursor stays");
	widget_move(&p.w, 1);
	p.ops->key(&p, ACT_TOGGLE);
	cr_assert(row_has(&p, widget_source(&p.w, i + 2), "<- [.] main"));
	cr_assert(row_has(&p, widget_source(&p.w, i + 2), "74.19%"));
	/* main's own callers, one level further */
	widget_move(&p.w, 1);
	p.ops->key(&p, ACT_TOGGLE);
	cr_assert(row_has(&p, widget_source(&p.w, i + 3), "__libc_start_call_main"));
	/* c on a leaf closes its parent; C closes everything */
	p.ops->key(&p, ACT_COLLAPSE);
	cr_assert(row_has(&p, widget_cursor_row(&p.w), "<- [.] main"));
	p.ops->key(&p, ACT_COLLAPSE_ALL);
	cr_assert_eq(widget_count(&p.w), 19);
	cr_assert(row_has(&p, widget_cursor_row(&p.w), "mix_one"), "back on its root row");
	/* main: callers and callees; e opens them and two levels below */
	widget_home(&p.w);
	widget_move(&p.w, 1);
	cr_assert(row_has(&p, widget_cursor_row(&p.w), "[.] main"));
	p.ops->key(&p, ACT_EXPAND);
	cr_assert_neq(find_text(&p, "callers (1)"), WIDGET_NONE);
	cr_assert_neq(find_text(&p, "callees ("), WIDGET_NONE);
	cr_assert_neq(find_text(&p, "-> [.] mix_one"), WIDGET_NONE);
	/* E: every row's callers and callees */
	p.ops->key(&p, ACT_EXPAND_ALL);
	cr_assert_gt(widget_count(&p.w), 19 * 2);
	p.ops->key(&p, ACT_COLLAPSE_ALL);
	cr_assert_eq(widget_count(&p.w), 19);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

Test(hot, drill_zoom_and_samples)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p, ev;
	struct nav_view root, dso;
	size_t i;
	uint64_t self = 0;

	symbols_run(sy);
	hot_pane(&p, s, sy);
	i = find_text(&p, "[.] mix_one");
	widget_move(&p.w, (long)i);
	/* Enter: the samples of the symbol, as an event list */
	cr_assert_eq(p.ops->key(&p, ACT_ENTER), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(p.push.pane, PANE_EVENTS);
	cr_assert_not_null(strstr(p.push.filter, "sym:mix_one"), "%s", p.push.filter);
	cr_assert_eq(pane_create_sym(&ev, PANE_EVENTS, s, NULL, sy), 0);
	go(&ev, &p.push);
	cr_assert_eq(widget_count(&ev.w), 138, "mix_one's 138 samples");
	cr_assert(row_has(&ev, widget_cursor_row(&ev.w), "PERF_RECORD_SAMPLE"));
	cr_assert_eq(ev.ops->key(&ev, ACT_HEX), PANE_HANDLED | PANE_PUSH, "x: its hex view");
	cr_assert_eq(ev.push.target, NAV_T_RECORD);
	cr_assert_neq(widget_set_filter(&ev.w, "sym:no_such_function", NULL, 0), 0);
	cr_assert_eq(widget_set_filter(&ev.w, "type:SAMPLE dso:cpu", NULL, 0), 0);
	cr_assert_eq(widget_count(&ev.w), 184, "the samples in the binary");
	pane_destroy(&ev);
	/* Enter on a symbol without samples of its own: a message */
	widget_home(&p.w);
	cr_assert_eq(p.ops->key(&p, ACT_ENTER), PANE_HANDLED | PANE_MSG);
	/* d: zoom into the DSO of the row */
	p.ops->save(&p, &root);
	widget_move(&p.w, (long)i);
	cr_assert_eq(p.ops->key(&p, ACT_ZOOM_DSO), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(p.push.target, NAV_T_HOT);
	cr_assert(p.push.arg & NAV_HOT_DSO);
	dso = p.push;
	go(&p, &dso);
	cr_assert_eq(widget_count(&p.w), 5, "main, mix_one, fill, reduce, mix: %zu",
	    widget_count(&p.w));
	for (size_t k = 0; k < widget_count(&p.w); k++)
		cr_assert_not(row_has(&p, widget_source(&p.w, k), "libc"));
	cr_assert_eq(p.ops->key(&p, ACT_ZOOM_DSO), PANE_HANDLED | PANE_BACK, "d again: out");
	/* s: the DSOs; Enter on one: its symbols */
	go(&p, &root);
	cr_assert_eq(widget_count(&p.w), 19, "back: the whole table");
	cr_assert_eq(p.ops->key(&p, ACT_DSOS), PANE_HANDLED | PANE_PUSH);
	go(&p, &p.push);
	cr_assert_eq(widget_count(&p.w), 4, "cpu, libc, kernel, ld.so");
	cr_assert(row_has(&p, widget_source(&p.w, 0), "/tmp/perfnav-fixtures/cpu"));
	cr_assert_eq(p.ops->key(&p, ACT_ENTER), PANE_HANDLED | PANE_PUSH);
	cr_assert(p.push.arg & NAV_HOT_DSO);
	cr_assert_not(p.push.arg & NAV_HOT_DSOS);
	go(&p, &p.push);
	cr_assert_eq(widget_count(&p.w), 5);
	/* t: the thread of the row */
	go(&p, &root);
	widget_move(&p.w, (long)i);
	cr_assert_eq(p.ops->key(&p, ACT_ZOOM_THREAD), PANE_HANDLED | PANE_PUSH);
	cr_assert(p.push.arg & NAV_HOT_TID);
	cr_assert_not_null(strstr(p.push.label, "thread 25671"), "%s", p.push.label);
	go(&p, &p.push);
	for (size_t k = 0; k < widget_count(&p.w); k++) {
		struct row *r = malloc(sizeof *r);

		row_reset(r);
		p.ops->row(&p, widget_source(&p.w, k), r);
		self += strtoull(r->col[2], NULL, 10);
		free(r);
	}
	cr_assert_eq(self, 186, "every sample is that thread's");
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/* Rows fill in while symbols are resolved in slices, and end as if at once. */
Test(hot, fills_in_incrementally)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s), *all = fixture_symbols(s);
	struct pane p, q;
	size_t prev = 0, steps = 0;
	bool partial = false;

	hot_pane(&p, s, sy);
	cr_assert_eq(widget_count(&p.w), 0, "nothing before symbols");
	cr_assert_eq(p.ops->key(&p, ACT_ENTER), PANE_HANDLED, "no row: nothing to drill");
	while (!symbols_step(sy, 0, 16)) {
		steps++;
		symbols_peek(sy);
		p.ops->key(&p, ACT_NONE);	/* a key: the pane takes the new rows */
		cr_assert_geq(widget_count(&p.w), prev, "rows only come in");
		prev = widget_count(&p.w);
		if (prev > 0 && prev < 19)
			partial = true;
		cr_assert_lt(symbols_progress(sy), 1.0);
	}
	cr_assert_gt(steps, 5);
	cr_assert(partial, "some rows before the end");
	p.ops->key(&p, ACT_NONE);
	symbols_run(all);
	hot_pane(&q, s, all);
	cr_assert_eq(widget_count(&p.w), widget_count(&q.w));
	for (size_t i = 0; i < widget_count(&p.w); i++) {
		struct row *a = malloc(sizeof *a), *b = malloc(sizeof *b);

		row_reset(a);
		row_reset(b);
		p.ops->row(&p, widget_source(&p.w, i), a);
		q.ops->row(&q, widget_source(&q.w, i), b);
		for (int c = 0; c < p.ncols; c++)
			cr_assert_str_eq(a->col[c] ? a->col[c] : "", b->col[c] ? b->col[c] : "",
			    "row %zu col %d", i, c);
		free(a);
		free(b);
	}
	cr_assert_eq(symbols_progress(sy), 1.0);
	pane_destroy(&p);
	pane_destroy(&q);
	symbols_free(sy);
	symbols_free(all);
	session_close(s);
}

Test(hot, tab_switches_events)
{
	struct session *s = open_fixture("multi.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p;

	symbols_run(sy);
	cr_assert_not(sy->children, "no callchains: one Overhead column");
	hot_pane(&p, s, sy);
	cr_assert_str_eq(p.cols[0].title, "Overhead");
	cr_assert(row_has(&p, widget_source(&p.w, 0), "71.74%"), "cpu-clock's first row");
	cr_assert_eq(p.ops->key(&p, ACT_NEXT_EVENT), PANE_HANDLED | PANE_MSG);
	cr_assert_str_eq(p.msg, "event 2 of 2: task-clock");
	cr_assert(row_has(&p, widget_source(&p.w, 0), "75.00%"), "task-clock's first row");
	p.ops->key(&p, ACT_NEXT_EVENT);
	cr_assert_str_eq(p.msg, "event 1 of 2: cpu-clock");
	p.ops->key(&p, ACT_PREV_EVENT);
	cr_assert_str_eq(p.msg, "event 2 of 2: task-clock");
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/* processes -> a thread -> its hot functions */
Test(hot, process_thread_hot_functions)
{
	struct session *s = open_fixture("pipe.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane pr, p;
	struct nav_view v;
	uint64_t self = 0;
	const struct pn_thread *th = NULL;

	symbols_run(sy);
	cr_assert_eq(pane_create_sym(&pr, PANE_PROCS, s, NULL, sy), 0);
	cr_assert_eq(pr.ops->key(&pr, ACT_ENTER), PANE_HANDLED | PANE_PUSH);
	v = pr.push;
	pr.ops->enter(&pr, &v);
	/* Enter on the process we are in: the hot functions of the process */
	cr_assert_eq(pr.ops->key(&pr, ACT_ENTER), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(pr.push.arg, NAV_HOT_PID);
	widget_move(&pr.w, 2);
	cr_assert_eq(pr.ops->key(&pr, ACT_ENTER), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(pr.push.pane, PANE_HOT);
	cr_assert_eq(pr.push.arg, NAV_HOT_TID);
	for (size_t i = 0; i < s->threads.n; i++)
		if (s->threads.v[i].tid == (int32_t)(uint32_t)pr.push.arg2)
			th = &s->threads.v[i];
	cr_assert_not_null(th);
	cr_assert_gt(th->samples, 0);
	cr_assert_eq(pane_create_sym(&p, PANE_HOT, s, NULL, sy), 0);
	go(&p, &pr.push);
	cr_assert_gt(widget_count(&p.w), 0);
	for (size_t k = 0; k < widget_count(&p.w); k++) {
		struct row *r = malloc(sizeof *r);

		row_reset(r);
		p.ops->row(&p, widget_source(&p.w, k), r);
		self += strtoull(r->col[sy->children ? 2 : 1], NULL, 10);
		free(r);
	}
	cr_assert_eq(self, th->samples, "the rows are that thread's samples");
	pane_destroy(&p);
	pane_destroy(&pr);
	symbols_free(sy);
	session_close(s);
}

/* Row text of column c at visible position i. */
static uint64_t
col_num(struct pane *p, size_t i, int c)
{
	struct row *r = malloc(sizeof *r);
	uint64_t v;

	row_reset(r);
	p->ops->row(p, widget_source(&p->w, i), r);
	v = strtoull(r->col[c], NULL, 10);
	free(r);
	return v;
}

/*
 * Expand row i's callers (up) or callees one level: their count and summed
 * samples; everything is closed again after.
 */
static uint64_t
edges_samples(struct pane *p, size_t i, bool up, size_t *n)
{
	const char *group = up ? "callers (" : "callees (", *mark = up ? "<- " : "-> ";
	uint64_t sum = 0;
	size_t g, k;

	*n = 0;
	widget_home(&p->w);
	widget_move(&p->w, (long)i);
	p->ops->key(p, ACT_TOGGLE);
	for (g = i + 1; g < i + 3 && g < widget_count(&p->w); g++)
		if (row_has(p, widget_source(&p->w, g), group))
			break;
	if (g == i + 3 || g == widget_count(&p->w)) {
		p->ops->key(p, ACT_COLLAPSE_ALL);
		return 0;
	}
	widget_move(&p->w, (long)(g - i));
	p->ops->key(p, ACT_TOGGLE);
	for (k = g + 1; k < widget_count(&p->w) && row_has(p, widget_source(&p->w, k), mark); k++) {
		sum += col_num(p, k, 2);
		(*n)++;
	}
	p->ops->key(p, ACT_COLLAPSE_ALL);
	return sum;
}

/* The samples through node (children) in the whole event or one thread. */
static uint64_t
node_samples(struct symbols *sy, uint32_t node, bool by_tid, int32_t tid)
{
	struct hist_select sel;
	const struct hist_entry *const *m;

	memset(&sel, 0, sizeof sel);
	sel.by_node = true;
	sel.node = node;
	sel.by_tid = by_tid;
	sel.tid = tid;
	cr_assert_eq(hist_rows_merged(sy->h, 0, &sel, 0, 0, &m), 1);
	return m[0]->acc_samples;
}

static uint32_t
node_named(struct symbols *sy, const char *label)
{
	for (uint32_t k = 0; k < hist_nnodes(sy->h); k++)
		if (strcmp(hist_str(sy->h, hist_node_get(sy->h, k)->label), label) == 0)
			return k;
	cr_assert_fail("no node %s", label);
	return UINT32_MAX;
}

/*
 * t: callers and callees are those of the thread's samples.  pipe.data's
 * threads each run one worker_* from start_thread: in the whole event
 * start_thread calls all three, in a thread's zoom only that thread's.
 */
Test(hot, thread_zoom_callers_are_the_threads)
{
	struct session *s = open_fixture("pipe.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p;
	uint32_t st, wm;
	int32_t tid;
	size_t i, n;
	uint64_t sum, whole;

	symbols_run(sy);
	cr_assert(sy->children);
	st = node_named(sy, "[.] start_thread");
	wm = node_named(sy, "[.] worker_mul");
	hot_pane(&p, s, sy);
	/* the whole event: start_thread calls every worker */
	i = find_text(&p, "[.] start_thread");
	cr_assert_neq(i, WIDGET_NONE);
	sum = edges_samples(&p, i, false, &n);
	cr_assert_geq(n, 3, "worker_mul, worker_div, worker_add: %zu", n);
	whole = sum;
	cr_assert_leq(whole, node_samples(sy, st, false, 0));
	/* t on worker_mul: its thread */
	i = find_text(&p, "[.] worker_mul");
	widget_home(&p.w);
	widget_move(&p.w, (long)i);
	cr_assert_eq(p.ops->key(&p, ACT_ZOOM_THREAD), PANE_HANDLED | PANE_PUSH);
	tid = (int32_t)(uint32_t)p.push.arg2;
	go(&p, &p.push);
	i = find_text(&p, "[.] start_thread");
	cr_assert_neq(i, WIDGET_NONE);
	sum = edges_samples(&p, i, false, &n);
	cr_assert_eq(n, 1, "only worker_mul");
	cr_assert(node_samples(sy, st, true, tid) < node_samples(sy, st, false, 0));
	cr_assert_lt(sum, whole, "not the whole event's");
	cr_assert_eq(sum, node_samples(sy, wm, true, tid), "the thread's share: %llu",
	    (unsigned long long)sum);
	cr_assert_eq(sum, node_samples(sy, st, true, tid), "every sample of the thread");
	/* worker_mul's callers: start_thread, with the thread's samples */
	i = find_text(&p, "[.] worker_mul");
	sum = edges_samples(&p, i, true, &n);
	cr_assert_eq(n, 1);
	cr_assert_eq(sum, node_samples(sy, wm, true, tid));
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/* Outside a zoom the split edges give what unsplit edges give, in order. */
Test(hot, split_edges_sum_to_the_whole_events)
{
	const char *fx[] = { "fp.data", "dwarf.data", "pipe.data", "fork.data", "switch.data" };

	for (size_t f = 0; f < sizeof fx / sizeof *fx; f++) {
		struct session *s = open_fixture(fx[f]);
		struct symbols *sy = fixture_symbols(s);
		struct sym_opts so;
		struct symbolizer *z;
		struct hist_opts ho;
		struct hist *h;

		symbols_run(sy);
		if (!sy->children) {
			symbols_free(sy);
			session_close(s);
			continue;
		}
		memset(&so, 0, sizeof so);
		so.buildid_dir = TEST_DATA "/buildid";
		so.kallsyms = "/dev/null";
		z = symbolizer_new(s, &so);
		memset(&ho, 0, sizeof ho);
		ho.keys[0] = HIST_KEY_COMM;
		ho.keys[1] = HIST_KEY_TID;
		ho.keys[2] = HIST_KEY_DSO;
		ho.keys[3] = HIST_KEY_SYM;
		ho.nkeys = 4;
		ho.children = ho.callgraph = true;
		ho.event = -1;
		ho.max_stack = HIST_DEFAULT_MAX_STACK;
		h = hist_new(s, z, &ho);
		hist_add_session(h, NULL);
		hist_finish(h);
		cr_assert_eq(hist_nnodes(h), hist_nnodes(sy->h), "%s", fx[f]);
		for (size_t ev = 0; ev < hist_nevents(h); ev++)
			for (uint32_t node = 0; node < hist_nnodes(h); node++)
				for (int up = 0; up < 2; up++) {
					const struct hist_edge *a, *b;
					size_t na = up ? hist_callers(h, ev, node, &a) :
					    hist_callees(h, ev, node, &a);
					size_t nb = up ? hist_callers(sy->h, ev, node, &b) :
					    hist_callees(sy->h, ev, node, &b);

					cr_assert_eq(na, nb, "%s node %u", fx[f], node);
					for (size_t k = 0; k < na; k++) {
						cr_assert_eq(a[k].caller, b[k].caller, "%s", fx[f]);
						cr_assert_eq(a[k].callee, b[k].callee, "%s", fx[f]);
						cr_assert_eq(a[k].period, b[k].period, "%s", fx[f]);
						cr_assert_eq(a[k].samples, b[k].samples, "%s", fx[f]);
					}
				}
		hist_free(h);
		symbolizer_free(z);
		symbols_free(sy);
		session_close(s);
	}
}

/* ---- symbols of the rows shown, annotate ---- */

/* The events list shows a sample's symbol before the symbols pass has
 * reached it: resolved for the row asked for. */
Test(events, sample_rows_resolve_before_the_pass)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane ev;
	struct nav_view v;
	size_t found = 0, samples = 0;

	cr_assert_eq(sy->pos, 0, "nothing resolved yet");
	cr_assert_eq(pane_create_sym(&ev, PANE_EVENTS, s, NULL, sy), 0);
	nav_view_init(&v, PANE_EVENTS);
	ev.ops->enter(&ev, &v);
	for (size_t i = widget_count(&ev.w); i-- > 0;) {
		size_t src = widget_source(&ev.w, i);

		if (ent_type(&s->index.v[src]) != PERF_RECORD_SAMPLE)
			continue;
		samples++;
		/* the last samples first: the pass would reach them last */
		if (row_has(&ev, src, "mix_one+0x") && row_has(&ev, src, " (cpu)  PERF_RECORD_SAMPLE("))
			found++;
		if (samples == 40)
			break;
	}
	cr_expect_eq(sy->pos, 0, "the pass did not run");
	cr_expect_gt(found, 10, "%zu of the last %zu samples are in mix_one", found, samples);
	/* symoff: takes an offset, never a signed one */
	cr_expect_neq(widget_set_filter(&ev.w, "symoff:-1", NULL, 0), 0);
	cr_expect_neq(widget_set_filter(&ev.w, "symoff:+4", NULL, 0), 0);
	cr_expect_eq(widget_set_filter(&ev.w, "symoff:0x14", NULL, 0), 0);
	pane_destroy(&ev);
	symbols_free(sy);
	session_close(s);
}

/* a on a symbol: its instructions, opened on the hottest, the samples all
 * credited; in a thread zoom only its samples; a on no symbol: a message. */
Test(annotate, from_hot_functions)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p, an;
	size_t i, hot;
	uint64_t sum = 0, best = 0;

	symbols_run(sy);
	hot_pane(&p, s, sy);
	i = find_text(&p, "[.] mix_one");
	cr_assert_neq(i, WIDGET_NONE);
	widget_move(&p.w, (long)i);
	cr_assert_eq(p.ops->key(&p, ACT_ANNOTATE), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(p.push.pane, PANE_ANNOTATE);
	cr_assert_eq(pane_create_sym(&an, PANE_ANNOTATE, s, NULL, sy), 0);
	go(&an, &p.push);
	cr_assert_gt(widget_count(&an.w), 5);
	for (size_t k = 0; k < widget_count(&an.w); k++) {
		struct row r;
		unsigned long n;

		row_reset(&r);
		an.ops->row(&an, widget_source(&an.w, k), &r);
		if (r.col[1] == NULL || sscanf(r.col[1], "%lu", &n) != 1)
			continue;	/* a source row */
		sum += n;
		if (n > best)
			best = n;
	}
	cr_expect_eq(sum, 138, "mix_one's 138 samples on its instructions");
	hot = widget_cursor_row(&an.w);
	cr_expect(row_has(&an, hot, "1188"), "the cursor on the hottest instruction");
	{
		struct row r;

		row_reset(&r);
		an.ops->row(&an, hot, &r);
		cr_expect_eq(strtoul(r.col[1], NULL, 10), best);
	}
	/* Enter on it: its samples, as an event list */
	{
		struct pane ev;

		cr_assert_eq(an.ops->key(&an, ACT_ENTER), PANE_HANDLED | PANE_PUSH);
		cr_assert_eq(an.push.pane, PANE_EVENTS);
		cr_expect(strstr(an.push.filter, "symoff:0x") != NULL, "%s", an.push.filter);
		cr_assert_eq(pane_create_sym(&ev, PANE_EVENTS, s, NULL, sy), 0);
		go(&ev, &an.push);
		cr_expect_eq(widget_count(&ev.w), best, "the %lu samples at that instruction: %s",
		    (unsigned long)best, an.push.filter);
		for (size_t k = 0; k < widget_count(&ev.w); k++)
			cr_expect(row_has(&ev, widget_source(&ev.w, k), "mix_one+0x14 (cpu)"));
		pane_destroy(&ev);
	}
	/* n: the next instruction with samples */
	cr_expect_eq(an.ops->key(&an, ACT_SEARCH_NEXT), PANE_HANDLED);
	cr_expect_neq(widget_cursor_row(&an.w), hot);
	cr_expect_eq(an.ops->key(&an, ACT_ANNOTATE), PANE_HANDLED | PANE_BACK, "a again: back");
	pane_destroy(&an);
	/* a row without a symbol of its own to disassemble: a message, no view */
	widget_home(&p.w);
	for (i = 0; i < widget_count(&p.w) && !row_has(&p, widget_source(&p.w, i), "[k] 0x"); i++)
		;
	if (i < widget_count(&p.w)) {
		widget_home(&p.w);
		widget_move(&p.w, (long)i);
		cr_expect_eq(p.ops->key(&p, ACT_ANNOTATE), PANE_HANDLED | PANE_MSG);
	}
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/* Every row of an annotate pane's annotation, filtered or not. */
static size_t
annot_nrows_all(struct pane *an)
{
	return an->ops->nrows(an);
}

/* The hottest instruction's sample count in an annotate pane. */
static uint64_t
annot_best(struct pane *an)
{
	uint64_t best = 0;

	for (size_t k = 0; k < widget_count(&an->w); k++) {
		struct row r;
		unsigned long n;

		row_reset(&r);
		an->ops->row(an, widget_source(&an->w, k), &r);
		if (r.col[1] != NULL && sscanf(r.col[1], "%lu", &n) == 1 && n > best)
			best = n;
	}
	return best;
}

/* Two events: annotate counts one, and Enter on an instruction lists that
 * event's samples there, not the other event's too. */
Test(annotate, samples_at_of_the_event_annotated)
{
	struct session *s = open_fixture("multi.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p, an, ev;
	size_t i;
	uint64_t best;

	symbols_run(sy);
	hot_pane(&p, s, sy);
	p.ops->key(&p, ACT_NEXT_EVENT);
	cr_assert_str_eq(p.msg, "event 2 of 2: task-clock");
	i = find_text(&p, "[.] mix_one");
	cr_assert_neq(i, WIDGET_NONE);
	widget_move(&p.w, (long)i);
	cr_assert_eq(p.ops->key(&p, ACT_ANNOTATE), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(pane_create_sym(&an, PANE_ANNOTATE, s, NULL, sy), 0);
	go(&an, &p.push);
	best = annot_best(&an);
	cr_assert_gt(best, 0);
	cr_assert_eq(an.ops->key(&an, ACT_ENTER), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(pane_create_sym(&ev, PANE_EVENTS, s, NULL, sy), 0);
	go(&ev, &an.push);
	cr_expect_str_eq(ev.w.filter, an.push.filter, "the filter is taken");
	cr_expect_eq(widget_count(&ev.w), best, "the %lu task-clock samples there: %s",
	    (unsigned long)best, an.push.filter);
	pane_destroy(&ev);
	pane_destroy(&an);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/* Annotate while symbols are still resolving: the counts so far; Enter on
 * an instruction never pushes a list whose filter cannot be taken (it
 * would show every record of the file as "samples at"). */
Test(annotate, samples_at_while_resolving)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p, an, ev;
	size_t i;
	int r;

	while (!symbols_step(sy, 0, 16) && sy->pos < s->index.n / 2)
		;
	cr_assert_not(sy->done);
	symbols_peek(sy);
	hot_pane(&p, s, sy);
	i = find_text(&p, "[.] mix_one");
	cr_assert_neq(i, WIDGET_NONE);
	widget_move(&p.w, (long)i);
	cr_assert_eq(p.ops->key(&p, ACT_ANNOTATE), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(pane_create_sym(&an, PANE_ANNOTATE, s, NULL, sy), 0);
	go(&an, &p.push);
	cr_assert_gt(annot_best(&an), 0);
	r = an.ops->key(&an, ACT_ENTER);
	if (r & PANE_PUSH) {
		cr_assert_eq(pane_create_sym(&ev, PANE_EVENTS, s, NULL, sy), 0);
		go(&ev, &an.push);
		cr_expect_str_eq(ev.w.filter, an.push.filter, "the filter is taken");
		cr_expect_leq(widget_count(&ev.w), annot_best(&an));
		pane_destroy(&ev);
	} else {
		cr_expect_eq(r, PANE_HANDLED | PANE_MSG);
		cr_expect(strstr(an.msg, "resolved") != NULL, "%s", an.msg);
	}
	pane_destroy(&an);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/* A filter typed in one function's annotate view does not stay on the
 * next function annotated (a view pushed without one). */
Test(annotate, next_symbol_starts_unfiltered)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p, an;
	struct nav_view first;
	size_t i, all;

	symbols_run(sy);
	hot_pane(&p, s, sy);
	i = find_text(&p, "[.] mix_one");
	cr_assert_neq(i, WIDGET_NONE);
	widget_move(&p.w, (long)i);
	cr_assert_eq(p.ops->key(&p, ACT_ANNOTATE), PANE_HANDLED | PANE_PUSH);
	first = p.push;
	cr_assert_eq(pane_create_sym(&an, PANE_ANNOTATE, s, NULL, sy), 0);
	go(&an, &first);
	cr_assert_eq(widget_set_filter(&an.w, "lea", NULL, 0), 0);
	cr_assert_lt(widget_count(&an.w), annot_nrows_all(&an));
	/* back in the hot functions, another symbol */
	widget_home(&p.w);
	i = find_text(&p, "[.] fill");
	cr_assert_neq(i, WIDGET_NONE);
	widget_move(&p.w, (long)i);
	cr_assert_eq(p.ops->key(&p, ACT_ANNOTATE), PANE_HANDLED | PANE_PUSH);
	go(&an, &p.push);
	all = annot_nrows_all(&an);
	cr_expect_str_eq(an.w.filter, "", "no filter on fill's view");
	cr_expect_eq(widget_count(&an.w), all, "every row of fill shown");
	pane_destroy(&an);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/* ---- names from a hostile recording ---- */

#define HOSTILE	"\x1b]0;title\x07\x1b[2J\x1b[31m\n\t\x7f\xc2\x9b\xff"
#define HOSTILE_SHOWN	L"\\x1b]0;title\\x07\\x1b[2J\\x1b[31m\\x0a\\x09\\x7f\\xc2\\x9b\\xff"

/* Does some column of some visible row of p draw as text containing want? */
static bool
draws(struct pane *p, const wchar_t *want)
{
	struct row *r = malloc(sizeof *r);
	wchar_t buf[512];
	bool found = false;

	cr_assert_not_null(r);
	for (size_t i = 0; i < widget_count(&p->w) && !found; i++) {
		row_reset(r);
		p->ops->row(p, widget_source(&p->w, i), r);
		for (int c = 0; c < p->ncols && !found; c++) {
			text_decode(r->col[c], buf, sizeof buf / sizeof buf[0], 500, false);
			found = wcsstr(buf, want) != NULL;
			/* what is drawn holds no control character at all */
			for (wchar_t *w = buf; *w; w++)
				cr_assert(*w >= 0x20 && *w != 0x7f && !(*w >= 0x80 && *w < 0xa0),
				    "row %zu col %d draws %#x", i, c, (unsigned)*w);
		}
	}
	free(r);
	return found;
}

/* The processes and hot functions panes draw a comm, a DSO and a JIT
 * symbol holding escape sequences as the text outputs print them. */
Test(panes, hostile_names_drawn_escaped)
{
	static const struct synth_names nm = {
		.comm = "c" HOSTILE "caf\xc3\xa9",
		.dso = "/nonexistent/d" HOSTILE ".so",
		.event = "ev" HOSTILE,
		.hostname = "h" HOSTILE,
		.cmdline_arg = "a" HOSTILE,
	};
	char dir[] = "/tmp/perfnav-test-map-XXXXXX", map[64];
	struct perf_err err;
	struct sym_opts so;
	struct pdbuf b;
	struct session *s;
	struct symbols *sy;
	struct pane p;
	char *path;
	FILE *fp;

	if (setlocale(LC_ALL, "C.UTF-8") == NULL)
		cr_skip_test("no C.UTF-8 locale");
	synth_names_file(&b, &nm, 20);
	path = tmp_write("tui-escape", b.p, b.len);
	pd_free(&b);
	cr_assert_not_null(mkdtemp(dir));
	snprintf(map, sizeof map, "%s/perf-42.map", dir);
	fp = fopen(map, "w");
	cr_assert_not_null(fp);
	fprintf(fp, "%llx 100 jit_\x1b[2J\x1b[31mx\n", SYNTH_JIT_ADDR);
	fclose(fp);
	s = session_open(path, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);

	cr_assert_eq(pane_create(&p, PANE_PROCS, s, NULL), 0);
	widget_expand_all(&p.w, true);
	cr_assert(draws(&p, L"c" HOSTILE_SHOWN L"caf\x00e9"), "the comm in processes");
	pane_destroy(&p);

	memset(&so, 0, sizeof so);
	so.kallsyms = "/dev/null";
	so.perfmap_dir = dir;
	sy = symbols_new(s, &so);
	symbols_run(sy);
	hot_pane(&p, s, sy);
	cr_assert(draws(&p, L"c" HOSTILE_SHOWN L"caf\x00e9"), "the comm in hot functions");
	cr_assert(draws(&p, L"d" HOSTILE_SHOWN L".so"), "the DSO in hot functions");
	cr_assert(draws(&p, L"jit_\\x1b[2J\\x1b[31mx"), "the JIT symbol in hot functions");
	pane_destroy(&p);

	cr_assert_eq(pane_create(&p, PANE_HEADER, s, NULL), 0);
	widget_expand_all(&p.w, true);
	cr_assert(draws(&p, L"h" HOSTILE_SHOWN), "the hostname in the header pane");
	pane_destroy(&p);

	symbols_free(sy);
	session_close(s);
	unlink(map);
	rmdir(dir);
	unlink(path);
	free(path);
	setlocale(LC_ALL, "C");
}
