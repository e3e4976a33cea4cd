/*
 * scope.h: what part of the recording the analysis panes look at, shared
 * by them all (hot functions, the call-path trees, the flame graph): the
 * event, the zoom (a process, thread or DSO: a struct hist_select over the
 * samples' own entries) and the call-path transforms (symbolize/cpath.h)
 * in the order they were applied.  The app owns one, in struct symbols
 * (p->sym->scope); a pane that changes it bumps gen, and every pane that
 * shows it rebuilds when gen is not the one it built for.  Transforms are
 * steps of the view history: each is pushed as a view, Esc pops it.
 * Curses-free; the helpers below are in tui/scope.c.
 */
#ifndef PERFNAV_TUI_SCOPE_H
#define PERFNAV_TUI_SCOPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symbolize/cpath.h"
#include "symbolize/hist.h"

#define SCOPE_XF_MAX	8
#define SCOPE_TIME_MAX	8

struct scope {
	size_t			 ev;		/* event index (hist_event) */
	bool			 zoomed;	/* sel applies */
	struct hist_select	 sel;
	char			 zoom_label[48];	/* "pid 123", "libc.so.6" */
	struct cpath_xform	 xf[SCOPE_XF_MAX];
	size_t			 nxf;
	unsigned		 gen;		/* bumped on every change */
	/*
	 * A frame picked in a call-path pane (v in the flame graph): the
	 * events pane's filter term frame:N keeps the samples whose call path
	 * goes through node N of this tree.  Owned by the scope.
	 */
	struct cpath		*pick;
	uint32_t		 pick_node;
	/*
	 * Time steps (a range picked in the timeline or the flame scope and
	 * applied): each narrows the one before; the scope is their
	 * intersection (scope_time_range).  Steps of the view history, as
	 * transforms: Esc pops the last.  The app recounts the hist for it
	 * (hist_rescope) and bumps gen; until symbols are resolved the range
	 * waits (time_pending).
	 */
	struct filter_range	 tr[SCOPE_TIME_MAX];
	size_t			 ntr;
	bool			 time_pending;	/* set, hist not recounted for it yet */
	/*
	 * The function node (hist_node_get) selected in the hot functions, or
	 * CPATH_NONE: the timeline can highlight its samples.
	 */
	uint32_t		 hl_func;
	/*
	 * Start options of the hot functions (perfnav --sort, -g ORDER):
	 * the keys of its rows and columns (HIST_KEEP of comm, dso, sym; 0:
	 * all three), and its call paths towards the callers (1), the
	 * callees (0) or as the pane chooses (-1).  Set before the panes are
	 * made (symbols_new sets the defaults).
	 */
	unsigned		 hot_keep;
	int			 hot_callers;
};

/* The call-path query of the scope (event, zoom, transforms) in direction bottom_up. */
void scope_query(const struct scope *sc, bool bottom_up, struct cpath_query *q);

/*
 * Push a transform (func is unused by CPATH_NORECURSE) and bump gen.
 * Returns false (nothing changed) when SCOPE_XF_MAX are in.
 */
bool scope_xf_push(struct scope *sc, enum cpath_op op, uint32_t func);
/* Keep the first n transforms (bump gen if that removed some). */
void scope_xf_truncate(struct scope *sc, size_t n);
/* Is the transform (op, func) in the scope (NORECURSE: whatever its func)? */
bool scope_xf_has(const struct scope *sc, enum cpath_op op, uint32_t func);

/*
 * One transform as the title shows it: "focus main", "merge f", "drop f",
 * "no recursion", "callers of f" (names as cpath_func_name gives them).
 * Returns buf.
 */
const char *scope_xf_step_text(const struct hist *h, const struct cpath_xform *x, char *buf,
    size_t n);
/* The scope's transforms in order, "focus main > drop malloc"; "" if none.  Returns buf. */
const char *scope_xf_text(const struct scope *sc, const struct hist *h, char *buf, size_t n);

/*
 * Tab / BTab in an analysis pane: the next (or previous) event of h with
 * samples, gen bumped; msg gets what to say ("event 2 of 3: cycles", or
 * why nothing changed).  Returns true when the event changed.
 */
bool scope_step_event(struct scope *sc, const struct hist *h, bool forward, char *msg, size_t n);

/*
 * Push a time step [start, end] (perf time, ns, both ends in) and bump
 * gen.  Returns false (nothing changed) when SCOPE_TIME_MAX are in or the
 * range is empty.
 */
bool scope_time_push(struct scope *sc, uint64_t start, uint64_t end);
/* Why scope_time_push would refuse [start, end] (a message), or NULL if it would not. */
const char *scope_time_refusal(const struct scope *sc, uint64_t start, uint64_t end);
/* Keep the first n time steps (bump gen if that removed some). */
void scope_time_truncate(struct scope *sc, size_t n);
/*
 * The time the scope covers: true with [*start, *end] (both in) when a
 * time step is in, else false (the whole recording).
 */
bool scope_time_range(const struct scope *sc, uint64_t *start, uint64_t *end);

/*
 * The time steps as the title shows them: "time 12.345678-13.000000" (of
 * their intersection, times as perf script prints them), "" if none.
 * Returns buf.
 */
const char *scope_time_text(const struct scope *sc, char *buf, size_t n);

/*
 * The samples the scope takes, as a filter for what walks samples itself
 * (annotate): start's conditions (the start options, may be NULL) with
 * their time ranges cut to the time steps.  out's time ranges are its
 * own (scope_filter_free), the rest borrowed from start.  Returns out, or
 * NULL when nothing restricts.
 */
const struct hist_filter *scope_filter(const struct scope *sc, const struct hist_filter *start,
    struct hist_filter *out);
void scope_filter_free(struct hist_filter *out);

/* Keep tree t (the scope owns it from now on) and its node for frame:N; frees the last one. */
void scope_pick(struct scope *sc, struct cpath *t, uint32_t node);
/* Free what the scope owns (symbols_free calls it). */
void scope_free(struct scope *sc);

#endif
