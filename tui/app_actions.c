#include "config.h"

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <stdio.h>
#include <stdlib.h>

#include <curses.h>

#include "symbolize/cpath.h"
#include "tui/app_priv.h"
#include "tui/scope.h"
#include "tui/symbols.h"

/*
 * app_actions.c: what an action does.  The current pane sees it first
 * (its result bits may push, go back, quit or set a message), then the
 * list widget (moving, sorting, searching, filtering, expanding), then
 * the application (panes, help, history, and the call-path keys: the
 * transforms of the scope and opening a function in a tree, for the
 * function of any pane that tells it, pane_ops.func).
 */

/* Back one view; from a transform or time step, undo it; at the root,
 * undo the last transform if any, else the last time step. */
/* The selected row's columns whole, "Title: text" a line, for the box app_draw shows. */
static void
row_text(struct app *a, struct pane *p)
{
	struct row *r;
	size_t o = 0, n = sizeof a->row_text;

	if (!p->is_list || widget_count(&p->w) == 0) {
		app_msg(a, EL_MESSAGE, "= shows the selected row's full text: no row here");
		return;
	}
	a->row_title = NULL;
	r = xmalloc(sizeof *r);
	row_reset(r);
	p->ops->row(p, widget_source(&p->w, p->w.cursor), r);
	for (int c = 0; c < p->ncols && c < ROW_MAXCOLS && o + 1 < n; c++)
		if (r->col[c] != NULL && r->col[c][0] != '\0')
			o += (size_t)snprintf(a->row_text + o, n - o, "%s%s: %s", o ? "\n" : "",
			    p->cols[c].title, r->col[c]);
	if (o >= n)
		o = n - 1;
	a->row_text[o] = '\0';
	free(r);
}

bool
app_at_top(const struct app *a)
{
	const struct scope *sc = a->sym ? &a->sym->scope : NULL;

	return nav_depth(&a->nav) <= 1 && (sc == NULL || scope_depth(sc) == 0);
}

/*
 * Esc: a scope step made in this view (an event switched) first, then the
 * view (with the steps made in it: a zoom, a time step, a transform), and
 * at the first view the steps made before (in another pane) one by one.
 */
static void
back(struct app *a)
{
	struct nav_view *v = nav_top(&a->nav);
	const struct scope *sc = a->sym ? &a->sym->scope : NULL;
	size_t d = sc ? scope_depth(sc) : 0;

	if (v != NULL && d > v->scope_n) {
		app_scope_undo(a, d - 1);
		v->scope_n = (uint32_t)scope_depth(sc);
		return;
	}
	if (nav_depth(&a->nav) <= 1 && d > 0) {
		app_scope_undo(a, d - 1);
		if (v != NULL)
			v->scope_n = (uint32_t)scope_depth(sc);
		return;
	}
	app_view_back(a);
}

/* The selected function of pane p, CPATH_NONE if it has none (or no function). */
static uint32_t
selected_func(struct pane *p)
{
	return p->ops->func ? p->ops->func(p) : CPATH_NONE;
}

/* o m D R: push a transform of the scope as a step of the history. */
static void
xform(struct app *a, struct pane *p, enum cpath_op op)
{
	struct scope *sc = &a->sym->scope;
	uint32_t f = selected_func(p);
	struct nav_view v;

	if (p->ops->func == NULL || (f == CPATH_NONE && op != CPATH_NORECURSE)) {
		app_msg(a, EL_MESSAGE, "transforms act on a function of the hot functions or the call-path "
		    "trees (1, 6, 7): select one there");
		return;
	}
	if (op == CPATH_NORECURSE && scope_xf_has(sc, op, f)) {
		app_msg(a, EL_MESSAGE, "recursion is collapsed already (Esc undoes it)");
		return;
	}
	if (sc->nxf >= SCOPE_XF_MAX) {
		app_msg(a, EL_ERROR, "at most %d transforms: Esc undoes the last", SCOPE_XF_MAX);
		return;
	}
	app_view_save(a);
	v = *nav_top(&a->nav);
	scope_xf_push(sc, op, f);
	scope_xf_step_text(a->sym->h, &sc->xf[sc->nxf - 1], v.label, sizeof v.label);
	snprintf(sc->what, sizeof sc->what, "%s", v.label);
	app_view_push_step(a, &v);
}

/* T B: the selected function in the top-down or bottom-up tree. */
static void
open_tree(struct app *a, struct pane *p, bool bottom_up)
{
	uint32_t f = selected_func(p);
	struct nav_view v;
	char name[256];

	if (f == CPATH_NONE) {
		app_msg(a, EL_MESSAGE, "%s opens the selected function in the %s tree: %s",
		    keys_action_name(bottom_up ? ACT_OPEN_BOTTOMUP : ACT_OPEN_TOPDOWN),
		    bottom_up ? "bottom-up" : "top-down", p->ops->func ? "select one" :
		    "this pane has none (the call trees 6, 7 have)");
		return;
	}
	nav_view_init(&v, bottom_up ? PANE_BOTTOMUP : PANE_TOPDOWN);
	v.target = NAV_T_CTREE;
	v.arg = f;
	snprintf(v.label, sizeof v.label, "%s %s", bottom_up ? "bottom-up" : "top-down",
	    TEXT_CLIP(cpath_func_name(a->sym->h, f, name, sizeof name), 36));
	app_view_push(a, &v);
}

/* W: who woke the selected function of the off-cpu event. */
static void
open_wakers(struct app *a, struct pane *p)
{
	const char *why = pane_wakers_why(a->sym);
	uint32_t f = selected_func(p);
	struct nav_view v;
	char name[256];

	if (why != NULL) {
		app_msg(a, EL_MESSAGE, "%s", why);
		return;
	}
	if (f == CPATH_NONE) {
		app_msg(a, EL_MESSAGE, "W lists who woke the selected function: %s", p->ops->func ?
		    "select one" : "this pane has none (hot functions 1, trees 6 7, flame graph 8 have)");
		return;
	}
	nav_view_init(&v, PANE_WAKERS);
	v.arg = a->sym->scope.ev;
	v.arg2 = f;
	snprintf(v.label, sizeof v.label, "wakers of %s",
	    TEXT_CLIP(cpath_func_name(a->sym->h, f, name, sizeof name), 36));
	app_view_push(a, &v);
}

/* The call-path keys (false: act is none of them). */
static bool
cpath_action(struct app *a, struct pane *p, enum action act)
{
	if (a->sym == NULL)
		return false;
	switch (act) {
	case ACT_FOCUS:
		xform(a, p, CPATH_FOCUS);
		return true;
	case ACT_MERGE:
		xform(a, p, CPATH_MERGE);
		return true;
	case ACT_DROP:
		xform(a, p, CPATH_DROP);
		return true;
	case ACT_NORECURSE:
		xform(a, p, CPATH_NORECURSE);
		return true;
	case ACT_OPEN_TOPDOWN:
	case ACT_OPEN_BOTTOMUP:
		open_tree(a, p, act == ACT_OPEN_BOTTOMUP);
		return true;
	case ACT_WAKERS:
		open_wakers(a, p);
		return true;
	default:
		return false;
	}
}

static bool
list_action(struct app *a, struct pane *p, enum action act)
{
	struct widget *w = &p->w;

	switch (act) {
	case ACT_UP:
		widget_move(w, -1);
		return true;
	case ACT_DOWN:
		widget_move(w, 1);
		return true;
	case ACT_PAGE_UP:
		widget_page(w, -1);
		return true;
	case ACT_PAGE_DOWN:
		widget_page(w, 1);
		return true;
	case ACT_TOP:
		widget_home(w);
		return true;
	case ACT_BOTTOM:
		widget_end(w);
		return true;
	case ACT_TOGGLE:
	case ACT_ENTER:
		if (!w->tree || !widget_has_children(w, widget_cursor_row(w)))
			return false;
		widget_toggle(w);
		return true;
	case ACT_EXPAND:
		widget_expand(w, true);
		return true;
	case ACT_EXPAND_ALL:
		widget_expand_all(w, true);
		return true;
	case ACT_COLLAPSE:
		widget_collapse(w);
		return true;
	case ACT_COLLAPSE_ALL:
		widget_expand_all(w, false);
		return true;
	case ACT_SCROLL_LEFT:
	case ACT_SCROLL_RIGHT:
		widget_hscroll(w, act == ACT_SCROLL_RIGHT ? 8 : -8);
		return true;
	case ACT_SORT_NEXT:
	case ACT_SORT_PREV:
		widget_sort_step(w, act == ACT_SORT_NEXT ? 1 : -1);
		if (w->sort_col >= 0)
			app_msg(a, EL_MESSAGE, "sorted by %s%s", p->cols[w->sort_col].title,
			    w->sort_desc ? ", descending" : "");
		else
			app_msg(a, EL_MESSAGE, "in the pane's own order");
		return true;
	case ACT_SORT_REVERSE:
		if (w->sort_col >= 0)
			widget_sort(w, w->sort_col, !w->sort_desc);
		return true;
	case ACT_SEARCH:
		app_lineedit_start(a, IN_SEARCH);
		return true;
	case ACT_SEARCH_NEXT:
	case ACT_SEARCH_PREV:
		if (w->search[0] == '\0')
			app_msg(a, EL_MESSAGE, "no search yet: / searches");
		else if (!widget_search(w, w->search, act == ACT_SEARCH_NEXT ? 1 : -1, true))
			app_msg(a, EL_ERROR, "no other match for '%s'", w->search);
		return true;
	case ACT_FILTER:
		app_lineedit_start(a, IN_FILTER);
		return true;
	case ACT_CLEAR_FILTER:
		widget_set_filter(w, "", NULL, 0);
		app_view_refiltered(a, "");
		app_msg(a, EL_MESSAGE, "filter cleared");
		return true;
	default:
		return false;
	}
}

/* The application's own actions: panes, help, history, and what to say
 * about an action this pane does not take. */
static void
own_action(struct app *a, struct pane *p, enum action act, int key)
{
	struct nav_view v;
	char kn[32];

	switch (act) {
	case ACT_NONE:
		app_msg(a, EL_MESSAGE, "%s: no action here (? for help)", keys_key_name(key, kn, sizeof kn));
		break;
	case ACT_QUIT:
		/* as perf report: q leaves a sub-view (and steps back a scope
		 * step), and quits only at the top */
		if (app_at_top(a))
			a->quit = true;
		else
			back(a);
		break;
	case ACT_QUIT_ALL:
		a->quit = true;
		break;
	case ACT_ROW_TEXT:
		row_text(a, p);
		break;
	case ACT_HELP:
		if (p->id == PANE_HELP) {
			back(a);
			break;
		}
		nav_view_init(&v, PANE_HELP);
		snprintf(v.label, sizeof v.label, "help");
		app_view_push(a, &v);
		break;
	case ACT_BACK:
		back(a);
		break;
	case ACT_NEXT_PANE:
	case ACT_PREV_PANE: {
		int n = p->id >= PANE_NTABS ? a->nav.v[0].pane : (int)p->id;

		n = (n + (act == ACT_NEXT_PANE ? 1 : PANE_NTABS - 1)) % PANE_NTABS;
		app_view_switch(a, n);
		break;
	}
	case ACT_PANE_HOT:
		app_view_switch(a, PANE_HOT);
		break;
	case ACT_PANE_PROCS:
		app_view_switch(a, PANE_PROCS);
		break;
	case ACT_PANE_EVENTS:
		app_view_switch(a, PANE_EVENTS);
		break;
	case ACT_PANE_HEADER:
		app_view_switch(a, PANE_HEADER);
		break;
	case ACT_PANE_HEX:
		app_view_switch(a, PANE_HEX);
		break;
	case ACT_PANE_TOPDOWN:
		app_view_switch(a, PANE_TOPDOWN);
		break;
	case ACT_PANE_BOTTOMUP:
		app_view_switch(a, PANE_BOTTOMUP);
		break;
	case ACT_PANE_FLAME:
		app_view_switch(a, PANE_FLAME);
		break;
	case ACT_PANE_TIMELINE:
		app_view_switch(a, PANE_TIMELINE);
		break;
	case ACT_PANE_FSCOPE:
		app_view_switch(a, PANE_FSCOPE);
		break;
	case ACT_SCOPE_EDIT:
		app_scope_edit_start(a);
		break;
	case ACT_EXPORT:
		app_export_start(a);
		break;
	case ACT_SCOPE_COMMAND:
		app_scope_command(a);
		break;
	case ACT_PANE_COUNTERS:
		app_view_switch(a, PANE_COUNTERS);
		break;
	case ACT_PANE_SUMMARY:
		app_view_switch(a, PANE_SUMMARY);
		break;
	case ACT_HEX:
		app_msg(a, EL_MESSAGE, "x shows the bytes of a record or section: select one in "
		    "events (3) or header (4)");
		break;
	case ACT_RECORD:
		app_msg(a, EL_MESSAGE, "not a hex view");
		break;
	case ACT_ZOOM_DSO:
	case ACT_ZOOM_THREAD:
		app_msg(a, EL_MESSAGE, "d and t zoom in the hot functions (1)%s",
		    act == ACT_ZOOM_THREAD ? "; in processes (2), t shows a thread's" : "");
		break;
	case ACT_EVENTS:
		app_msg(a, EL_MESSAGE, "v lists the events of a process or thread (2) or a symbol (1)");
		break;
	case ACT_ANNOTATE:
		app_msg(a, EL_MESSAGE, "a annotates a symbol of the hot functions (1)");
		break;
	case ACT_REDRAW:
		clearok(curscr, TRUE);
		break;
	default:
		app_msg(a, EL_MESSAGE, "%s does nothing in this pane", keys_action_name(act));
		break;
	}
}

/* Diff mode's app-wide actions (perfnav OLD NEW); true if act was one. */
static bool
diff_action(struct app *a, enum action act)
{
	switch (act) {
	case ACT_DIFF_SWAP:
		app_diff_swap(a);
		return true;
	case ACT_DIFF_NORM:
		if (!a->diff) {
			app_msg(a, EL_MESSAGE, "one recording: perfnav OLD NEW compares two");
			return true;
		}
		a->sym->diff_abs = !a->sym->diff_abs;
		a->other.sym->diff_abs = a->sym->diff_abs;
		a->sym->gen++;
		a->other.sym->gen++;
		app_msg(a, EL_MESSAGE, "diff: %s", a->sym->diff_abs ? "absolute periods" :
		    "percents of each recording's total");
		return true;
	case ACT_DIFF_OLD:
		app_msg(a, EL_MESSAGE, "%s", a->diff ? "O shows OLD's shape in the flame graph (8)" :
		    "one recording: perfnav OLD NEW compares two");
		return true;
	default:
		return false;
	}
}

void
app_actions_do(struct app *a, enum action act, int key)
{
	struct pane *p = app_view_pane(a);
	int r = p->ops->key ? p->ops->key(p, act) : PANE_IGNORED;

	if (r & PANE_MSG)
		app_msg(a, EL_MESSAGE, "%s", p->msg);
	if (r & PANE_QUIT)
		a->quit = true;
	if (r & PANE_BACK)
		back(a);
	if (r & PANE_PUSH)
		app_view_follow(a, p);
	if (r & PANE_EDIT)
		app_term_edit(a, p->edit_path, p->edit_line);
	if (r & PANE_HANDLED)
		return;
	if (p->is_list && list_action(a, p, act))
		return;
	if (cpath_action(a, p, act) || diff_action(a, act))
		return;
	own_action(a, p, act, key);
}
