/*
 * tui_helpers.c: what the pane tests (test_panes.c, test_hot.c) share:
 * opening a fixture, a row's text, a symbolizer over the fixtures' build-id
 * cache, the hot-functions pane entered at its root.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <curses.h>

#include "core/core.h"
#include "symbolize/symbolizer.h"
#include "tui/nav.h"
#include "tui/keytab.h"
#include "tui/pane.h"
#include "tui/scope.h"
#include "tui/symbols.h"
#include "tui/theme.h"
#include "tui/widget.h"
#include "tests/tui_helpers.h"

bool
row_has(struct pane *p, size_t src, const char *text)
{
	return widget_row_contains(&p->w, src, text);
}

struct symbols *
fixture_symbols(struct session *s)
{
	struct sym_opts so;

	memset(&so, 0, sizeof so);
	so.buildid_dir = TEST_DATA "/buildid";
	so.kallsyms = "/dev/null";
	return symbols_new(s, &so, NULL);
}

/* Visible position of the first row containing text, or WIDGET_NONE. */
size_t
find_text(struct pane *p, const char *text)
{
	for (size_t i = 0; i < widget_count(&p->w); i++)
		if (row_has(p, widget_source(&p->w, i), text))
			return i;
	return WIDGET_NONE;
}

void
hot_pane(struct pane *p, struct session *s, struct symbols *sy)
{
	struct nav_view v;

	cr_assert_eq(pane_create_sym(p, PANE_HOT, s, NULL, sy), 0);
	nav_view_init(&v, PANE_HOT);
	p->ops->enter(p, &v);
}

/*
 * Apply a pushed view to a pane of its kind (what the app's history does):
 * a zoom step goes into the scope of p's symbols (and is recounted for).
 */
void
go(struct pane *p, const struct nav_view *v)
{
	struct nav_view copy = *v;

	if (v->target == NAV_T_ZOOM) {
		cr_assert_not_null(p->sym);
		scope_zoom(&p->sym->scope, (enum scope_zoom_kind)v->arg,
		    (int32_t)(uint32_t)(v->arg2 >> 32), (int32_t)(uint32_t)v->arg2, (uint32_t)v->arg3,
		    v->label);
		cr_assert_eq(symbols_apply_scope(p->sym), 0);
		nav_view_init(&copy, v->pane);
	}
	p->ops->enter(p, &copy);
}

/* ---- the screen of a pane, drawn by curses into a pad ---- */

static WINDOW *screen_pad;
static int screen_w;

void
screen_draw(struct pane *p, int h, int w)
{
	static SCREEN *scr;
	static struct theme_attrs ta;
	struct pane_canvas c;

	cr_assert_not_null(setlocale(LC_ALL, "C.UTF-8"), "no C.UTF-8 locale");
	if (scr == NULL) {
		FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");

		cr_assert(out != NULL && in != NULL);
		scr = newterm("xterm", out, in);
		cr_assert_not_null(scr, "no xterm terminfo");
	}
	if (screen_pad != NULL)
		delwin(screen_pad);
	screen_pad = newpad(h, w);
	cr_assert_not_null(screen_pad);
	screen_w = w;
	ta.utf8 = true;
	c.win = screen_pad;
	c.y = c.x = 0;
	c.h = h;
	c.w = w;
	c.ta = &ta;
	if (p->ops->draw)
		p->ops->draw(p, &c);
	else
		widget_draw(&p->w, &c);
}

const char *
screen_line(int y)
{
	static char line[4096];
	wchar_t wl[1024];
	size_t k;

	wl[0] = 0;
	if (screen_pad == NULL || mvwinnwstr(screen_pad, y, 0, wl, screen_w < 1023 ? screen_w : 1023) == ERR)
		wl[0] = 0;
	k = wcstombs(line, wl, sizeof line - 1);
	if (k == (size_t)-1)
		k = 0;
	line[k] = '\0';
	while (k > 0 && line[k - 1] == ' ')
		line[--k] = '\0';
	return line;
}

int
screen_col(const char *line, const char *text)
{
	const char *at = strstr(line, text);
	char head[4096];

	if (at == NULL)
		return -1;
	snprintf(head, sizeof head, "%.*s", (int)(at - line), line);
	return text_width(head);
}

/* The pane's rows once its table is in: a key syncs, the keytab is waited for. */
void
pane_settle(struct pane *p, struct symbols *sy)
{
	p->ops->key(p, ACT_NONE);
	if (sy->kt != NULL)
		keytab_wait(sy->kt);
	p->ops->key(p, ACT_NONE);
	widget_set_height(&p->w, 40);
}

int
pane_work_out(struct pane *p)
{
	int w, calls = 0;

	while ((w = p->ops->work(p, 0)) == PANE_WORK_MORE)
		calls++;
	cr_assert_eq(w, PANE_WORK_DONE);
	return calls;
}

/* The cell of column named header in row i ("" when the pane has no such column). */
const char *
pane_cell(struct pane *p, struct row *r, size_t i, const char *header)
{
	row_reset(r);
	p->ops->row(p, widget_source(&p->w, i), r);
	for (int c = 0; c < p->ncols; c++)
		if (strcmp(p->cols[c].title, header) == 0)
			return r->col[c] ? r->col[c] : "";
	return "";
}
