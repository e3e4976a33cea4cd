#ifndef PERFNAV_TUI_PANE_FLAME_IMPL_H
#define PERFNAV_TUI_PANE_FLAME_IMPL_H

/*
 * The flame graph pane's state (pane_flame.c: keys and drawing;
 * flame_tree.c: its tree, built in steps, and the zooms kept across
 * builds).  Private to those two files.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symbolize/cpath.h"
#include "symbolize/cpath_diff.h"
#include "symbolize/flame.h"
#include "tui/symbols.h"

#define FLAME_ZOOM_MAX	32
#define FLAME_WIDTH	100	/* until the first draw */

struct fzoom {
	uint32_t	*f;		/* a node's path of functions (a zoom; the selection) */
	size_t		 n;
};

struct flame_pane {
	struct symbols		*sy;
	struct symbols		*tsy;		/* whose tree is drawn: sy, or in diff mode NEW's
					 * (OLD's with O) */
	bool			 show_old, built_old;
	struct cpath		*t2;		/* diff mode: the other recording's tree */
	struct cpath_diff	*cd;		/* t's nodes paired with t2's */
	uint64_t		 tot[2];	/* event totals: [0] t's recording, [1] t2's */
	bool			 own;		/* made by us (no app symbols) */
	struct cpath		*t;
	struct {
		struct cpath	*t;		/* the other direction's tree, or NULL */
		bool		 bu;
		unsigned	 scope_gen, sym_gen;
	} alt;
	bool			 bottom_up;	/* wanted; the tree is rebuilt when it differs */
	bool			 built_bu;
	/* the wall view (L): an on-CPU event in ns and off-cpu in one tree */
	bool			 wall, built_wall;
	size_t			 wall_on, wall_off;	/* their events */
	unsigned		 scope_gen, sym_gen;
	uint64_t		 built_samples;
	struct flame		 fl;
	bool			 laid;		/* fl is t's layout at width from top */
	unsigned		 width;
	uint32_t		 top;		/* node at full width */
	uint32_t		 sel;		/* selected node (always shown) */
	unsigned		 col;		/* the column up and down keep to */
	size_t			 vtop;		/* first row on screen */
	int			 y0, x0, rows;	/* where frames were drawn last */
	struct fzoom		 zoom[FLAME_ZOOM_MAX];
	size_t			 nzoom;
	struct flame_search	 found;
	char			 pat[128];	/* what found was searched for */
	bool			 found_ok;	/* found is of this tree */
	/*
	 * A tree being built in steps (the symbols' steps on: flame_work),
	 * and of the tree shown before it: the tree (kept for the other
	 * direction), its selection's path, what it was built for.
	 */
	struct cpath_job	*job;
	struct cpath_job	*job2;		/* diff mode: the other recording's tree, after it */
	bool			 jkeep;		/* t stays shown until it is built (new
						 * symbols, the same view and hist) */
	/* what the tree shown (t, or jold once stashed) was built for */
	bool			 shown_bu, shown_old;
	unsigned		 shown_scope, shown_sym, shown_h;
	struct cpath		*jold;
	struct fzoom		 jsel;
};

static inline struct hist *
H(const struct flame_pane *f)
{
	return f->tsy->h;
}

static inline const struct cpath_node *
N(const struct flame_pane *f, uint32_t id)
{
	return cpath_node(f->t, id);
}

/* flame_tree.c */
/* A zoom (or the selection) as its node's path of functions; found again in f's tree. */
void flame_path_of(const struct flame_pane *f, uint32_t node, struct fzoom *z);
uint32_t flame_refind(const struct flame_pane *f, const struct fzoom *z);
void flame_zoom_clear(struct flame_pane *f);
/* Is the tree shown (or being built) not the one the scope and symbols ask for? */
bool flame_stale(const struct flame_pane *f);
/* The tree again: started, finished here unless the app steps it (flame_work). */
void flame_build(struct flame_pane *f);
/* The tree built (the jobs' trees taken, finished if need be) shown. */
void flame_finish(struct flame_pane *f);
/* How far the build under way is, 0 to 1. */
double flame_build_share(const struct flame_pane *f);

#endif
