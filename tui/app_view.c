#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tui/app_priv.h"
#include "tui/scope.h"
#include "tui/symbols.h"

/*
 * app_view.c: navigation over the panes: the history of views (tui/nav.h),
 * each pane saving its state into its view and taking it up again, and
 * the tabs' root views.
 */

struct pane *
app_view_pane(struct app *a)
{
	struct nav_view *v = nav_top(&a->nav);

	return &a->panes[v ? v->pane : a->start_pane];
}

void
app_view_save(struct app *a)
{
	struct nav_view *v = nav_top(&a->nav);
	struct pane *p;

	if (v == NULL)
		return;
	p = &a->panes[v->pane];
	if (p->ops->save)
		p->ops->save(p, v);
	v->scope_n = a->sym ? (uint32_t)scope_depth(&a->sym->scope) : 0;
}

/* The current view is where the scope's steps so far were made. */
static void
mark(struct app *a)
{
	struct nav_view *v = nav_top(&a->nav);

	if (v != NULL)
		v->scope_n = a->sym ? (uint32_t)scope_depth(&a->sym->scope) : 0;
}

void
app_scope_undo(struct app *a, size_t n)
{
	struct scope *sc = a->sym ? &a->sym->scope : NULL;
	char what[64] = "";
	size_t k = 0;

	while (sc != NULL && scope_depth(sc) > n) {
		snprintf(what, sizeof what, "%s", sc->what);
		scope_undo(sc);
		k++;
	}
	if (k == 0)
		return;
	app_scope_apply(a);
	if (k == 1)
		app_msg(a, EL_MESSAGE, "undone: %s", what[0] ? what : "a scope step");
	else
		app_msg(a, EL_MESSAGE, "undone: %zu scope steps", k);
}

void
app_view_apply(struct app *a)
{
	struct nav_view *v = nav_top(&a->nav);
	struct pane *p;

	if (v == NULL)
		return;
	/* a view's enter reads the hist: after a recount under way (Esc's undo starts one) */
	if (symbols_scope_busy(a->sym)) {
		a->enter_pending = true;
		return;
	}
	a->enter_pending = false;
	p = &a->panes[v->pane];
	if (p->ops->enter)
		p->ops->enter(p, v);
}

void
app_view_push(struct app *a, const struct nav_view *v)
{
	app_view_save(a);
	app_view_push_step(a, v);
}

void
app_view_push_step(struct app *a, const struct nav_view *v)
{
	nav_push(&a->nav, v);
	/* a view that came with a filter and a label for it ("samples mix_one") */
	a->nav.v[a->nav.n - 1].label_filter = v->filter[0] != '\0' && v->label[0] != '\0';
	mark(a);
	app_view_apply(a);
}

void
app_view_refiltered(struct app *a, const char *filter)
{
	struct nav_view *v = a->nav.n > 0 ? &a->nav.v[a->nav.n - 1] : NULL;
	const struct pane_ops *o;

	if (v == NULL || !v->label_filter)
		return;
	o = pane_ops_of((enum pane_id)v->pane);
	if (filter[0] == '\0')
		snprintf(v->label, sizeof v->label, "%s", o != NULL ? o->name : "?");
	else
		snprintf(v->label, sizeof v->label, "%s '%.*s%s'", o != NULL ? o->name : "?",
		    (int)strlen(filter) > 28 ? 27 : 28, filter, strlen(filter) > 28 ? "…" : "");
}

void
app_view_back(struct app *a)
{
	if (nav_depth(&a->nav) <= 1) {
		app_msg(a, EL_MESSAGE, "at the start of the history (q quits)");
		return;
	}
	nav_pop(&a->nav);
	/* the steps made since this view was left go with the view left */
	app_scope_undo(a, nav_top(&a->nav)->scope_n);
	app_view_apply(a);
}

/* The hex view of the events pane's selection. */
static bool
hex_of_selection(struct app *a, struct nav_view *v)
{
	struct pane *ev = &a->panes[PANE_EVENTS];

	return ev->ops->select && ev->ops->select(ev, v);
}

void
app_view_switch(struct app *a, int pane)
{
	struct nav_view root;

	app_view_save(a);
	if (nav_depth(&a->nav) > 0)
		a->roots[a->nav.v[0].pane] = a->nav.v[0];
	if (nav_depth(&a->nav) == 1 && a->nav.v[0].pane == pane && pane != PANE_HEX)
		return;
	root = a->roots[pane];
	if (pane == PANE_HEX) {
		if (!hex_of_selection(a, &root))
			nav_view_init(&root, PANE_HEX);
		root.label[0] = '\0';
	}
	nav_reset(&a->nav, &root);
	mark(a);
	app_view_apply(a);
}

/*
 * Go where pane p asked to (p->push): from the hex view back to its record
 * in the events list if we came from there; a record without a filter in
 * the events root; anything else pushed on the history.
 */
void
app_view_follow(struct app *a, const struct pane *p)
{
	struct nav_view push = p->push;

	/* hex -> its record: go back if we came from the events list */
	if (p->id == PANE_HEX && push.pane == PANE_EVENTS && nav_depth(&a->nav) >= 2 &&
	    a->nav.v[a->nav.n - 2].pane == PANE_EVENTS) {
		nav_pop(&a->nav);
		app_view_apply(a);
		if (!widget_goto_key(&a->panes[PANE_EVENTS].w, push.cursor))
			app_msg(a, EL_MESSAGE, "the record is hidden by the filter");
	} else if (push.pane == PANE_EVENTS && push.target == NAV_T_NONE &&
	    push.filter[0] == '\0') {
		/* a record without a filter: the events root, on that record */
		app_view_switch(a, PANE_EVENTS);
		app_view_save(a);
		if (a->panes[PANE_EVENTS].w.filtered)
			widget_set_filter(&a->panes[PANE_EVENTS].w, "", NULL, 0);
		widget_goto_key(&a->panes[PANE_EVENTS].w, push.cursor);
	} else if (push.target == NAV_T_TIME) {
		app_view_time(a, &push);
	} else if (push.target == NAV_T_ZOOM) {
		app_view_zoom(a, &push);
	} else {
		app_view_push(a, &push);
	}
}

/* Who shows a step: every pane, or in diff mode of a step the other cannot take, one side's. */
static const char *
one_only(const struct app *a, bool theirs)
{
	if (!a->diff || !theirs)
		return "every pane shows it";
	return a->shown ? "NEW's panes only (the other run's threads and clock differ)" :
	    "OLD's panes only (the other run's threads and clock differ)";
}

void
app_view_time(struct app *a, const struct nav_view *v)
{
	struct scope *sc = a->sym ? &a->sym->scope : NULL;

	app_view_save(a);
	if (sc == NULL || !scope_time_push(sc, v->arg, v->arg2)) {
		app_msg(a, EL_MESSAGE, "%s", sc == NULL ? "no samples to scope" :
		    "that range is outside the time scope (or 8 steps are in: Esc removes one)");
		return;
	}
	snprintf(sc->what, sizeof sc->what, "%s", v->label);
	app_view_push_step(a, v);
	app_scope_apply(a);
	if (sc->ntr > 0)
		app_msg(a, EL_MESSAGE, "%s%s: %s, Esc removes it", v->label,
		    sc->time_pending ? " (once symbols are resolved)" : "", one_only(a, true));
}

void
app_view_zoom(struct app *a, const struct nav_view *v)
{
	struct scope *sc = a->sym ? &a->sym->scope : NULL;
	char z[200];

	if (sc == NULL || (unsigned)v->arg >= SZ_N) {
		app_msg(a, EL_MESSAGE, "no samples to zoom into");
		return;
	}
	app_view_save(a);
	if (!scope_zoom(sc, (enum scope_zoom_kind)v->arg, (int32_t)(uint32_t)(v->arg2 >> 32),
	    (int32_t)(uint32_t)v->arg2, (uint32_t)v->arg3, v->label)) {
		app_msg(a, EL_MESSAGE, "the scope has %s already", v->label);
		if (v->pane != nav_top(&a->nav)->pane)
			app_view_push_step(a, v);
		return;
	}
	app_view_push_step(a, v);
	app_scope_apply(a);
	app_msg(a, EL_MESSAGE, "zoom %s: %s, Esc takes it back%s", scope_zoom_text(sc, z, sizeof z),
	    one_only(a, v->arg == SZ_PID || v->arg == SZ_TID),
	    sc->time_pending ? " (counts once symbols are in)" : "");
}

void
app_scope_apply(struct app *a)
{
	if (a->sym == NULL || !a->sym->scope.time_pending || !a->sym->done)
		return;
	/* the recount in steps between keys (the loop); in diff mode the other
	 * recording's after it (symbols_pair_scope) */
	if (symbols_scope_begin(a->sym) < 0)
		app_msg(a, EL_WARNING, "time steps and cpus cannot be applied to this recording's "
		    "samples (Intel PT or branch stacks: the events pane's time: filter can)");
	/* diff mode: the other recording takes what it can of the scope */
	if (a->diff && a->pair_ready && !symbols_pair_scope(a->sym))
		app_msg(a, EL_MESSAGE, "%s only: its process, thread or time steps are not the "
		    "other recording's", a->shown ? "NEW" : "OLD");
}
