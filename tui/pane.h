/*
 * pane.h: what every pane of the TUI implements (struct pane_ops), and the
 * pane instance the app owns.
 *
 * A pane is a vtable plus private state.  List and tree panes produce their
 * rows as data (nrows + row) and the generic widget (widget.h) draws,
 * sorts, filters, searches and expands them; a pane may draw itself
 * instead (hex) or around the widget (hot functions: a progress line).  Panes ask the session for
 * their rows and never read the file or touch the terminal except in draw,
 * so every model is testable without curses.
 *
 * Adding a pane: write tui/pane/pane_NAME.c exporting `const struct
 * pane_ops pane_NAME_ops` (and list it in Makefile.am), add it to PANES
 * below (a pane with a tab; one without: an enum entry after PANE_HELP,
 * its extern below and a line in pane.c's table).  Its entry carries its
 * titles, its line of perfnav(1) (description) and its default bindings
 * (keys); the tab's own key is bound in keys.c's global text.
 */
#ifndef PERFNAV_TUI_PANE_H
#define PERFNAV_TUI_PANE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tui/keys.h"
#include "tui/nav.h"
#include "tui/theme.h"
#include "tui/widget.h"

struct session;
struct symbols;
struct pane;

/*
 * The panes, in tab order: X(id, ops symbol, the key its tab shows).  The
 * key is what keys_default_text binds to the pane's action (pane-NAME).
 */
#define PANES(X) \
	X(HOT, pane_hot_ops, "1") \
	X(PROCS, pane_procs_ops, "2") \
	X(EVENTS, pane_events_ops, "3") \
	X(HEADER, pane_header_ops, "4") \
	X(HEX, pane_hex_ops, "5") \
	X(TOPDOWN, pane_topdown_ops, "6") \
	X(BOTTOMUP, pane_bottomup_ops, "7") \
	X(FLAME, pane_flame_ops, "8") \
	X(TIMELINE, pane_timeline_ops, "9") \
	X(FSCOPE, pane_fscope_ops, "0") \
	X(SUMMARY, pane_summary_ops, "I")

enum pane_id {
#define X(id, ops, key) PANE_##id,
	PANES(X)
#undef X
	PANE_NTABS,		/* panes with a tab */
	PANE_HELP = PANE_NTABS,	/* the help screen: a pane without a tab */
	PANE_ANNOTATE,		/* a function's instructions (from hot functions) */
	PANE_COUNTERS,		/* the counts of a perf stat record file (S) */
	PANE_WAKERS,		/* who woke an off-CPU function (W) */
	PANE_COUNT
};

/* Result bits of pane_ops.key. */
enum {
	PANE_IGNORED = 0,
	PANE_HANDLED = 1 << 0,
	PANE_REDRAW = 1 << 1,
	PANE_QUIT = 1 << 2,
	PANE_PUSH = 1 << 3,	/* drill in: push p->push */
	PANE_BACK = 1 << 4,	/* go back one view */
	PANE_MSG = 1 << 5,	/* show p->msg on the status line */
	PANE_EDIT = 1 << 6,	/* the app runs $EDITOR on p->edit_path at p->edit_line */
};

/* What the app hands to drawing panes. */
struct pane_canvas {
	void		*win;		/* WINDOW * */
	int		 y, x, h, w;
	const struct theme_attrs *ta;	/* curses attributes per element */
};

struct pane_ops {
	const char	*name;		/* key map and nav name: "events" */
	const char	*title;		/* tab title: "Events" */
	const char	*short_title;	/* where tabs shorten, if not title's first word */
	const char	*description;	/* one line for perfnav(1)'s PANES */
	/* its own default bindings: "KEY ACTION" lines in the keys file's
	 * words, bound in the map of its name (pane_keys_defaults) */
	const char	*keys;
	/* Set up p->priv, p->cols, rows; 0 or -1. */
	int		(*init)(struct pane *p);
	void		(*free)(struct pane *p);
	/* The pane area changed size (optional). */
	void		(*resize)(struct pane *p, int h, int w);
	/* Draw the pane (non-list panes; list panes may leave it NULL). */
	void		(*draw)(struct pane *p, const struct pane_canvas *c);
	/* An action: PANE_* bits; PANE_IGNORED lets the widget and app have it. */
	int		(*key)(struct pane *p, enum action a);
	/* List panes: rows as data. */
	size_t		(*nrows)(struct pane *p);
	void		(*row)(struct pane *p, size_t idx, struct row *r);
	/* Optional: compare two rows by column (else by their text). */
	int		(*cmp)(struct pane *p, int col, size_t a, size_t b);
	/* Optional structured filter: compile text (0, or -1 with err; 0 may leave a
	 * warning in err: a term left out), match. */
	int		(*filter)(struct pane *p, const char *text, char *err, size_t n);
	bool		(*match)(struct pane *p, size_t idx);
	/* Optional: the hex target of the selection (the events list drives hex). */
	bool		(*select)(struct pane *p, struct nav_view *hex);
	/* Apply a view (drill-down target or going back) and save the current one. */
	void		(*enter)(struct pane *p, const struct nav_view *v);
	void		(*save)(struct pane *p, struct nav_view *v);
	/* Optional one-line hint for the status line. */
	const char	*(*help)(struct pane *p);
	/* Optional: what the rows count when it is not the recording's samples
	 * ("416 branch entries"), for the title; false when they are. */
	bool		(*counted)(struct pane *p, char *buf, size_t n);
	/* Optional: the source row of a row key (WIDGET_NONE), so the widget
	 * finds a row without producing every row's text. */
	size_t		(*find)(struct pane *p, uint64_t key);
	/* Optional: the function node (hist_node_get) of the selection,
	 * UINT32_MAX (CPATH_NONE) if none.  Panes showing call paths have it:
	 * the app's transform and open-in-tree keys act on that function. */
	uint32_t	(*func)(struct pane *p);
	/* Optional, for panes that place what they draw themselves: a click on
	 * screen cell (y, x); true if it selected something (a double click
	 * then enters it).  Such a pane gets the wheel as up and down. */
	bool		(*click)(struct pane *p, int y, int x);
	/* Optional, with click: the button released at (y, x) after a click
	 * (a drag from the click's cell; the timeline selects a range): key()'s
	 * PANE_* bits, PANE_IGNORED when the press started nothing. */
	int		(*drag)(struct pane *p, int y, int x);
	/* Optional: what the pane draws as a standalone SVG on fp (the export
	 * action's .svg; without it, the scope's flame graph): 0 or -1. */
	int		(*write_svg)(struct pane *p, FILE *fp);
	/*
	 * Optional: long work in steps (a tree being built, with the app's
	 * symbols' steps on): do about budget seconds of it.  PANE_WORK_MORE
	 * while some is left (the app calls again without waiting for a key,
	 * answering keys between the calls), PANE_WORK_DONE when this call
	 * ended it (draw again), PANE_WORK_NONE when there was none.
	 */
	int		(*work)(struct pane *p, double budget);
};

enum { PANE_WORK_NONE, PANE_WORK_MORE, PANE_WORK_DONE };

struct pane {
	const struct pane_ops	*ops;
	enum pane_id		 id;
	struct session		*s;
	struct symbols		*sym;		/* symbols being resolved (app-owned), or NULL */
	const struct keys	*keys;		/* for the help pane */
	void			*priv;
	/* List panes: columns and the widget. */
	const struct column	*cols;
	int			 ncols;
	struct widget		 w;
	bool			 is_list;
	/* Set by key() with PANE_PUSH / PANE_MSG. */
	struct nav_view		 push;
	char			 msg[200];
	/* Set by key() with PANE_EDIT: the file and line the editor opens. */
	char			 edit_path[4096];
	int			 edit_line;
};

#define X(id, ops, key) extern const struct pane_ops ops;
PANES(X)
#undef X
extern const struct pane_ops pane_help_ops;
extern const struct pane_ops pane_annotate_ops;
extern const struct pane_ops pane_counters_ops;
extern const struct pane_ops pane_wakers_ops;

/* Create pane id over session s (keys for help); 0 or -1. */
int pane_create(struct pane *p, enum pane_id id, struct session *s, const struct keys *keys);
/*
 * The same with the app's symbols (tui/symbols.h), which the hot-functions
 * and events panes read; without them (NULL) the hot pane makes its own,
 * which nobody steps until symbols_run() is called on p->sym.
 */
int pane_create_sym(struct pane *p, enum pane_id id, struct session *s, const struct keys *keys,
    struct symbols *sym);
void pane_destroy(struct pane *p);
/* The ops of a pane id. */
const struct pane_ops *pane_ops_of(enum pane_id id);
/*
 * The default bindings into k (made with keys_init over the panes' maps):
 * keys_default_text's global ones, then each pane's own (pane_ops.keys).
 * Bad lines as keys_parse says them; returns their count.
 */
int pane_keys_defaults(struct keys *k, void (*err)(void *arg, int line, const char *msg),
    void *arg);
/* Pane id for a name ("events"), -1 if none. */
int pane_by_name(const char *name);
/* The key a tab shows ("1", "I"), "" for a pane without a tab. */
const char *pane_tab_key(enum pane_id id);

/*
 * Apply the time range [start, end] (perf time, ns, both in) to every
 * pane: sets p->push to a time step on this pane (NAV_T_TIME) and returns
 * the bits key() returns for it (both ends cut to the microsecond, as
 * perf script prints times, so the range is what perf's --time takes with
 * the numbers shown); the app pushes it into the scope
 * (scope_time_push), recounts the hot functions, trees and flame graph
 * for it, and Esc removes it.  A range outside the current scope is
 * refused with a message.
 */
int pane_apply_time(struct pane *p, uint64_t start, uint64_t end);

/*
 * The views a pane pushes for its selection.  Return pane_ops.key bits:
 * PANE_PUSH, or PANE_MSG with p->msg saying why not.
 *   pane_push_annotate: function func (a hist node of p->sym) annotated,
 *     with the samples of event ev (hist_event index) and of the zoom
 *     (NAV_HOT_PID / NAV_HOT_TID bits of pid, tid; 0: every sample);
 *   pane_push_annotate_scope: the same with the scope's event and zoom;
 *   pane_push_samples_through: the samples whose call path goes through
 *     node of tree t (the scope keeps a tree of the same query for the
 *     events filter frame:N; name is shown in the path).
 */
struct cpath;
int pane_push_annotate(struct pane *p, uint32_t func, size_t ev, unsigned zoom, int32_t pid,
    int32_t tid);
int pane_push_annotate_scope(struct pane *p, uint32_t func);
int pane_push_samples_through(struct pane *p, const struct cpath *t, uint32_t node,
    const char *name);
/*
 * The wakers view (W): why it cannot open now (no off-CPU time, the
 * scope's event another, no wakeups recorded), NULL when it can; and
 * pane_push_wakers_through, the view of the spans whose call path goes
 * through node of tree t (a frame of a tree or the flame graph: the scope
 * keeps a tree of the same query, as for the samples through a frame).
 * The app opens the view of a function (the hot functions' W).
 */
const char *pane_wakers_why(const struct symbols *sy);
int pane_push_wakers_through(struct pane *p, const struct cpath *t, uint32_t node,
    const char *name);
/*
 * A zoom step of the scope (tui/scope.h scope_zoom: kind, pid, tid, id,
 * label), shown in pane: p->push is a NAV_T_ZOOM view the app makes the
 * step of.  Returns PANE_HANDLED | PANE_PUSH.
 */
int pane_push_zoom(struct pane *p, int pane, int kind, int32_t pid, int32_t tid, uint32_t id,
    const char *label);

/*
 * Where the record at loc is, as dump prints it ("0x48"); in directory mode
 * with its file named ("data.1 at 0x48").  Into buf (n bytes); returns buf.
 */
const char *pane_rec_at(const struct session *s, uint64_t loc, char *buf, size_t n);

/* Generic enter/save for list panes: filter and cursor row. */
void pane_list_enter(struct pane *p, const struct nav_view *v);
void pane_list_save(struct pane *p, struct nav_view *v);

#endif
