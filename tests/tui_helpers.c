/*
 * tui_helpers.c: what the pane tests (test_panes.c, test_hot.c) share:
 * opening a fixture, a row's text, a symbolizer over the fixtures' build-id
 * cache, the hot-functions pane entered at its root.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include <curses.h>

#include "core/core.h"
#include "symbolize/resolve.h"
#include "tui/nav.h"
#include "tui/pane.h"
#include "tui/scope.h"
#include "tui/symbols.h"
#include "tui/widget.h"
#include "tests/tui_helpers.h"

struct session *
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
