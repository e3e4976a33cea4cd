/*
 * nav.h: the drill-down history of the TUI, a stack of views like a web
 * browser's history.  Enter pushes a view (pane + filter + cursor + target),
 * Esc/Backspace/Left pops back to the one before, which comes back with its
 * own filter and cursor.  A step of the scope (tui/scope.h: a zoom, a time
 * step, a transform, an event) made in a view is undone by going back: a
 * view keeps how many steps the scope had when it was last current
 * (scope_n), and going back undoes those made since.  Curses-free; the
 * stack owns its entries.
 */
#ifndef PERFNAV_TUI_NAV_H
#define PERFNAV_TUI_NAV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NAV_FILTER_MAX	128
#define NAV_LABEL_MAX	48
#define NAV_DEPTH_MAX	64
#define NAV_NONE	UINT64_MAX

/* What a hex view shows. */
enum nav_target {
	NAV_T_NONE = 0,
	NAV_T_RECORD,		/* arg = record loc */
	NAV_T_BYTES,		/* arg = file offset in file arg2, len arg3 (a feature section, an attr) */
	NAV_T_PID,		/* processes: scope to process arg */
	NAV_T_HOT,		/* hot functions: arg NAV_HOT_* bits, arg2 pid << 32 | tid, arg3 dso */
	/*
	 * The top-down or bottom-up tree (pane PANE_TOPDOWN / PANE_BOTTOMUP)
	 * opened at a function: arg = its function node id (hist_node_get,
	 * symbolize/cpath.h), in the scope's event.  Top-down selects the
	 * function's hottest occurrence (expanded down to it), bottom-up its
	 * top-level node.
	 */
	NAV_T_CTREE,
	/*
	 * A time step (tui/scope.h): the same pane again with the scope
	 * narrowed to [arg, arg2] (perf time, ns, both in); going back from it
	 * removes the step.  Made by pane_apply_time().
	 */
	NAV_T_TIME,
	/*
	 * A zoom step (tui/scope.h scope_zoom): pane again (or the hot
	 * functions, from the processes) with the scope narrowed to arg (enum
	 * scope_zoom_kind) of pid arg2 >> 32, tid arg2 & 0xffffffff, id arg3;
	 * label names it.  Going back removes the step.
	 */
	NAV_T_ZOOM,
};

/* Bits of a hot-functions view's arg. */
enum {
	NAV_HOT_PID = 1 << 0,	/* only process (arg2 >> 32) */
	NAV_HOT_TID = 1 << 1,	/* only thread (arg2 & 0xffffffff) */
	NAV_HOT_DSO = 1 << 2,	/* only DSO arg3 */
	NAV_HOT_DSOS = 1 << 3,	/* list DSOs, not symbols */
	/* an annotate view's: arg2 is a symbol id, not a function node (a
	 * callee opened from a call, which has no samples of its own) */
	NAV_ANNOT_SYM = 1 << 4,
};

struct nav_view {
	int		 pane;			/* enum pane_id */
	char		 filter[NAV_FILTER_MAX];
	uint64_t	 cursor;		/* pane's row key under the cursor, NAV_NONE */
	enum nav_target	 target;
	uint64_t	 arg, arg2, arg3;
	char		 label[NAV_LABEL_MAX];	/* shown in the path: "pid 123" */
	bool		 label_filter;		/* the label names the filter it came with */
	uint32_t	 scope_n;		/* the scope's steps when last current */
};

struct nav {
	struct nav_view	 v[NAV_DEPTH_MAX];
	size_t		 n;
};

/* Start over with one view. */
void nav_reset(struct nav *n, const struct nav_view *root);
/* Push a view; when full, the oldest entry above the root is dropped. */
void nav_push(struct nav *n, const struct nav_view *v);
/* Pop the top view; returns false (and keeps the root) at the root. */
bool nav_pop(struct nav *n);
/* The current view (NULL if empty). */
struct nav_view *nav_top(struct nav *n);
size_t nav_depth(const struct nav *n);
/*
 * The path as "events > pid 123 > hex 0x108" into buf (n bytes); name(pane)
 * gives pane names.  Returns buf.
 */
char *nav_path(const struct nav *n, const char *(*name)(int pane), char *buf, size_t len);
/* A view of a pane with nothing set. */
void nav_view_init(struct nav_view *v, int pane);

#endif
