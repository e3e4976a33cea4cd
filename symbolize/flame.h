/*
 * flame.h: a call-path tree (symbolize/cpath.h) laid out as a flame graph
 * in character columns, what the flame graph pane draws.
 *
 * The layout is an icicle: the frame at full width (the tree's root, or
 * the node zoomed into) on row 0, each node's children on the row below
 * it, left-aligned under it in the tree's order (total period,
 * descending), so the space left at a frame's right end is its self
 * period.  A frame of the node with total period T starting at period
 * offset S (from the left end of the top frame, of total R) spans the
 * columns [floor(S * W / R), floor((S + T) * W / R)) of a width of W
 * columns: every frame's width is within one column of T * W / R,
 * children lie within their parent's columns and never add up to more.
 * A node narrower than one column (T * W < R) is left out with
 * everything below it: its period shows as blank space under its
 * parent, like self time; zooming in brings it back.  Only what is
 * shown is visited, so a layout costs the frames it has, not the tree.
 *
 * Frames are kept row by row, each row left to right; a frame's children
 * are consecutive in the next row.  Also here: the kind of code of a
 * function (which colour it gets) and a search over the tree's function
 * names.  Curses-free; the layout borrows nothing (it holds node ids of
 * the tree it was made from).
 */
#ifndef PERFNAV_SYMBOLIZE_FLAME_H
#define PERFNAV_SYMBOLIZE_FLAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symbolize/cpath.h"
#include "symbolize/hist.h"

#define FLAME_NONE	UINT32_MAX

/* What code a frame runs: each kind has a colour of its own. */
enum flame_kind {
	FLAME_USER,		/* the program's own code */
	FLAME_KERNEL,		/* [k]: the kernel or a guest kernel */
	FLAME_SYSTEM,		/* libc, ld.so, the vdso, libraries under /lib and /usr/lib */
	FLAME_JIT,		/* JIT code: perf-PID.map, [JIT], jitted-*.so */
	FLAME_UNRESOLVED,	/* no symbol */
	FLAME_ROOT,		/* the tree's root ("all") */
	FLAME_NKINDS
};

struct flame_frame {
	uint32_t	node;		/* cpath node */
	uint32_t	parent;		/* frame of the parent (row above), FLAME_NONE on row 0 */
	uint32_t	child, nchild;	/* its children: frames child .. child + nchild - 1 */
	uint32_t	row;
	uint32_t	x, w;		/* columns [x, x + w), w >= 1 */
	uint64_t	start;		/* period offset from the top frame's start (scaled) */
	uint8_t		kind;		/* enum flame_kind */
};

struct flame {
	struct flame_frame	*f;		/* by row, each row left to right */
	size_t			 n, cap;
	uint32_t		*row;		/* row r: frames row[r] .. row[r + 1] - 1 */
	size_t			 nrows, caprow;
	unsigned		 width;
	uint32_t		 top;		/* the node of frame 0 */
};

/*
 * Lay tree t out from node top (0: the root) at width columns (at least
 * 1), replacing what fl held (a zeroed struct flame is empty).  Kinds come
 * from h's function nodes and z's DSO names (z may be NULL: DSOs are then
 * not told apart).  An unknown top lays out the root.
 */
void flame_layout(struct flame *fl, const struct cpath *t, uint32_t top, unsigned width,
    const struct hist *h, const struct symbolizer *z);
void flame_free(struct flame *fl);

/* The frame of row row covering column col, or FLAME_NONE. */
uint32_t flame_at(const struct flame *fl, size_t row, unsigned col);
/* The frame of cpath node node, or FLAME_NONE (not shown). */
uint32_t flame_of_node(const struct flame *fl, uint32_t node);
/* The child of frame i covering column col, else its widest child; FLAME_NONE if it has none. */
uint32_t flame_child(const struct flame *fl, uint32_t i, unsigned col);
/* The frame beside frame i in its row (dir < 0: left), or FLAME_NONE at the row's end. */
uint32_t flame_beside(const struct flame *fl, uint32_t i, int dir);

/* The kind of code of function node func (CPATH_NONE: the root); z may be NULL. */
enum flame_kind flame_kind(const struct hist *h, const struct symbolizer *z, uint32_t func);
/*
 * The rule behind it: a kernel frame, else one without a symbol, else by
 * its DSO's path (NULL: user code) and the symbol source that loaded it
 * (symbolizer_dso_source, may be NULL).
 */
enum flame_kind flame_kind_of(bool kernel, bool resolved, const char *path, const char *source);
/* A kind's name: "user", "kernel", "system", "JIT", "unresolved", "root". */
const char *flame_kind_name(enum flame_kind k);

/* Which nodes of a tree match a search, and what share of the tree they hold. */
struct flame_search {
	uint8_t		*on;		/* per cpath node: 1 if its function's name matches */
	size_t		 n;		/* nodes of the tree searched */
	size_t		 nodes;		/* nodes that match */
	uint64_t	 period;	/* total period of the matching nodes without a
					 * matching ancestor: the samples through a match */
	uint64_t	 samples;	/* the same in samples */
};

/*
 * Mark the nodes of t whose function's name (cpath_func_name) contains
 * pat, ASCII case ignored, into s (replacing what it held; a zeroed struct
 * is empty; "" marks nothing).  Returns the number of matching nodes.
 */
size_t flame_search(struct flame_search *s, const struct cpath *t, const struct hist *h,
    const char *pat);
void flame_search_free(struct flame_search *s);

#endif
