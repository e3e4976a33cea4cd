#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/cpath.h"
#include "symbolize/cpath_diff.h"
#include "symbolize/hist.h"
#include "tui/pane/flame_impl.h"
#include "tui/scope.h"
#include "tui/symbols.h"

/*
 * flame_tree.c: the flame graph pane's tree (pane_flame.c draws it and
 * takes its keys): built in steps as a cpath_job (in diff mode the other
 * recording's too, after it), the other direction's kept for b, and the
 * zooms and the selection kept as paths of functions across builds.
 */

/* ---- paths of functions: zooms and the selection across rebuilds ---- */

static void
path_in(const struct cpath *t, uint32_t node, struct fzoom *z)
{
	size_t d = cpath_node(t, node)->depth;

	z->f = xreallocarray(NULL, d + 1, sizeof *z->f);
	z->n = cpath_path(t, node, z->f, d);
}

void
flame_path_of(const struct flame_pane *f, uint32_t node, struct fzoom *z)
{
	path_in(f->t, node, z);
}

/* The deepest node of the tree along path z. */
uint32_t
flame_refind(const struct flame_pane *f, const struct fzoom *z)
{
	uint32_t at = 0;

	for (size_t i = 0; i < z->n; i++) {
		uint32_t c = N(f, at)->first_child;

		while (c != CPATH_NONE && N(f, c)->func != z->f[i])
			c = N(f, c)->next_sibling;
		if (c == CPATH_NONE)
			break;
		at = c;
	}
	return at;
}

void
flame_zoom_clear(struct flame_pane *f)
{
	for (size_t i = 0; i < f->nzoom; i++)
		free(f->zoom[i].f);
	f->nzoom = 0;
}

/* ---- the tree and its layout ---- */

bool
flame_stale(const struct flame_pane *f)
{
	const struct symbols *sy = f->sy;
	uint64_t grown = f->built_samples / 2;

	if ((f->t == NULL && f->job == NULL) || sy->scope.gen != f->scope_gen ||
	    f->bottom_up != f->built_bu ||
	    f->show_old != f->built_old || f->wall != f->built_wall)
		return true;
	if (sy->gen == f->sym_gen)
		return false;
	if (f->job != NULL)	/* a build under way: again for the last symbols only */
		return sy->done;
	/* while symbols are resolved: when the samples grew by half (or 20000) */
	return sy->done || sy->samples_done >= f->built_samples + (grown > 20000 ? grown : 20000);
}

/*
 * The tree the scope asks for in the wanted direction: the other
 * direction's tree of the same scope when there is one (b flips back at
 * once), else a build of it started.
 */
static struct cpath *
tree_for(struct flame_pane *f, bool was_old, bool was_wall)
{
	const struct scope *sc = &f->sy->scope;
	struct cpath_query q;
	struct cpath *t = f->alt.t;

	if (t && f->alt.bu == f->bottom_up && f->alt.scope_gen == sc->gen &&
	    f->alt.sym_gen == f->sy->gen && was_old == f->show_old && f->wall == was_wall) {
		f->alt.t = NULL;
		return t;
	}
	scope_query(sc, f->bottom_up, &q);
	if (f->wall) {	/* the scope's zoom, time and transforms over both events */
		q.ev = f->wall_on;
		q.with_ev2 = true;
		q.ev2 = f->wall_off;
	}
	if (f->tsy != f->sy) {
		struct cpath_xform xf[SCOPE_XF_MAX];
		struct cpath_query q2;

		symbols_pair_query(f->sy, &q, &q2, xf);
		f->job = cpath_job_new(H(f), &q2);
	} else {
		f->job = cpath_job_new(H(f), &q);
	}
	return NULL;
}

/* How far the build under way is (diff mode: the other recording's tree is its second half). */
double
flame_build_share(const struct flame_pane *f)
{
	double a = f->job != NULL ? cpath_job_share(f->job) : 1;

	return f->job2 != NULL ? (a + cpath_job_share(f->job2)) / 2 : a;
}

/* Diff mode: the other recording (o) and its query (q or q2) for the scope in direction bu. */
static struct symbols *
diff_query(struct flame_pane *f, bool bu, struct cpath_query *q, struct cpath_query *q2,
    struct cpath_xform *xf, bool *both)
{
	struct symbols *o = f->tsy == f->sy ? f->sy->pair : f->sy;

	scope_query(&f->sy->scope, bu, q);
	*both = symbols_pair_query(f->sy, q, q2, xf);
	return o;
}

/* Diff mode: a build of the other recording's tree begun beside f->job (stepped after it). */
static void
diff_job(struct flame_pane *f)
{
	struct cpath_xform xf[SCOPE_XF_MAX];
	struct cpath_query q, q2;
	bool both;
	struct symbols *o;

	cpath_job_free(f->job2);
	f->job2 = NULL;
	if (f->sy->pair == NULL || f->job == NULL)
		return;
	o = diff_query(f, f->bottom_up, &q, &q2, xf, &both);
	f->job2 = cpath_job_new(o->h, o == f->sy ? &q : &q2);	/* the query copied */
}

/*
 * Diff mode: the other recording's tree of the scope (its job's, finished
 * if need be; built here when the tree shown was kept, not built), its
 * pairing with t, the totals.
 */
static void
diff_build(struct flame_pane *f)
{
	struct cpath_xform xf[SCOPE_XF_MAX];
	struct cpath_query q, q2;
	bool both;
	struct symbols *o = diff_query(f, f->built_bu, &q, &q2, xf, &both);

	cpath_diff_free(f->cd);
	cpath_free(f->t2);
	/* q reads the shown recording's hist, q2 its pair's */
	f->t2 = f->job2 != NULL ? cpath_job_take(f->job2) : cpath_build(o->h, o == f->sy ? &q : &q2);
	f->job2 = NULL;
	f->cd = cpath_diff_new(H(f), f->t, o->h, f->t2);
	f->tot[0] = hist_event(H(f), f->tsy == f->sy ? q.ev : q2.ev) ?
	    hist_event(H(f), f->tsy == f->sy ? q.ev : q2.ev)->total_period : 0;
	f->tot[1] = hist_event(o->h, o == f->sy ? q.ev : q2.ev) ?
	    hist_event(o->h, o == f->sy ? q.ev : q2.ev)->total_period : 0;
	if (!both)
		f->tot[f->tsy == f->sy ? 1 : 0] = 0;	/* the pair lacks the event */
}

/* The tree shown goes, kept for the finish: its selection's path, itself for the other direction. */
static void
stash_shown(struct flame_pane *f)
{
	cpath_free(f->jold);
	f->jold = f->t;
	f->t = NULL;
	free(f->jsel.f);
	f->jsel.f = NULL;
	f->jsel.n = 0;
	if (f->jold && f->shown_old == f->show_old)
		path_in(f->jold, f->sel, &f->jsel);
}

/* The tree built (or taken from the other direction) shown: the selection and zooms found in it again. */
void
flame_finish(struct flame_pane *f)
{
	struct cpath *old;

	if (f->job != NULL) {
		struct cpath *t = cpath_job_take(f->job);

		f->job = NULL;
		if (f->jkeep)	/* the tree shown until now */
			stash_shown(f);
		f->jkeep = false;
		f->t = t;
	}
	old = f->jold;
	cpath_free(f->alt.t);
	f->alt.t = NULL;
	f->jold = NULL;
	/* the tree of the other direction is kept while the scope stays */
	if (old && f->shown_bu != f->built_bu && f->shown_scope == f->scope_gen &&
	    f->shown_sym == f->sym_gen && f->shown_old == f->built_old) {
		f->alt.t = old;
		f->alt.bu = f->shown_bu;
		f->alt.scope_gen = f->shown_scope;
		f->alt.sym_gen = f->shown_sym;
	} else {
		cpath_free(old);
	}
	if (f->sy->pair != NULL)
		diff_build(f);
	f->top = f->nzoom ? flame_refind(f, &f->zoom[f->nzoom - 1]) : 0;
	f->sel = flame_refind(f, &f->jsel);
	if (!cpath_within(f->t, f->sel, f->top))
		f->sel = f->top;
	free(f->jsel.f);
	f->jsel.f = NULL;
	f->jsel.n = 0;
	f->laid = false;
	f->found_ok = false;
	f->shown_bu = f->built_bu;
	f->shown_old = f->built_old;
	f->shown_scope = f->scope_gen;
	f->shown_sym = f->sym_gen;
	f->shown_h = f->tsy->h_serial;
}

/*
 * The tree again (new scope, symbols, direction, recording shown, wall
 * view): started, and finished here unless the app steps it (flame_work).
 * A build started again keeps what the tree shown before it had.
 */
void
flame_build(struct flame_pane *f)
{
	bool was_old = f->built_old, was_wall = f->built_wall;
	bool view = f->sy->scope.gen != f->scope_gen || f->bottom_up != f->built_bu ||
	    f->show_old != f->built_old || f->wall != f->built_wall;
	struct cpath *t;

	cpath_job_free(f->job);
	f->job = NULL;
	cpath_job_free(f->job2);
	f->job2 = NULL;
	/* new symbols for the same view, built in steps: the tree shown stays until then */
	f->jkeep = f->t != NULL && !view && f->shown_h == f->tsy->h_serial && f->sy->steps != 0;
	if (f->t != NULL && !f->jkeep)
		stash_shown(f);
	if (was_old != f->show_old) {
		flame_zoom_clear(f);
		cpath_free(f->alt.t);
		f->alt.t = NULL;
	}
	t = tree_for(f, was_old, was_wall);
	diff_job(f);
	if (t != NULL) {	/* the other direction's, kept */
		if (f->jkeep)
			stash_shown(f);
		f->jkeep = false;
		f->t = t;
	}
	if (!f->jkeep)
		f->laid = false;
	f->built_bu = f->bottom_up;
	f->built_old = f->show_old;
	f->built_wall = f->wall;
	f->scope_gen = f->sy->scope.gen;
	f->sym_gen = f->sy->gen;
	f->built_samples = f->sy->samples_done;
	if (f->job == NULL || f->sy->steps == 0)
		flame_finish(f);
}
