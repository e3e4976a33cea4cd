/*
 * app_priv.h: what the files of the curses application share (private to
 * tui/app*.c; app.h is the public side).
 *
 *   app.c           start-up, the input loop, the status-line message
 *   app_term.c      terminal state: curses on /dev/tty, signals, stderr
 *   app_theme.c     a theme turned into curses colour pairs and attributes
 *   app_view.c      navigation: the view history over the panes
 *   app_lineedit.c  the line editor of search, filter and the typed scope
 *   app_scope.c     the typed scope and the scope's command line
 *   app_export.c    the export action: the view written to a file by a child
 *   app_actions.c   what an action does (the pane's own first)
 *   app_draw.c      drawing: title, tabs, the pane, the status line
 *   app_mouse.c     the mouse: wheel, tabs, clicks on rows
 *
 * The application owns one struct app for its whole run (tui_run()).
 */
#ifndef PERFNAV_TUI_APP_PRIV_H
#define PERFNAV_TUI_APP_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tui/keys.h"
#include "tui/nav.h"
#include "tui/pane.h"
#include "tui/theme.h"

#define MIN_COLS	80
#define MIN_LINES	24

struct common_opts;
struct session;
struct symbols;

/* What the status line is editing. */
enum input_mode { IN_NONE, IN_SEARCH, IN_FILTER, IN_SCOPE, IN_EXPORT };

/* Diff mode: what the app keeps of the recording not shown (swapped with app's own). */
struct app_other {
	struct session		*s;
	struct symbols		*sym;
	char			 events[128];
	uint64_t		 t_first, t_last;
	double			 load_secs;
	size_t			 refusals_seen;
};

#define APP_AHEAD	32

struct app {
	struct session		*s;
	struct symbols		*sym;
	/* The selected row's full text, shown over the pane until a key (=). */
	char			 row_text[2048];
	const char		*row_title;	/* what the box says it shows */
	/* The pane it opens on: hot functions, or the counters of a perf stat
	 * record file without samples. */
	int			 start_pane;	/* enum pane_id */
	char			 start_scope[160];	/* the scope options given at start, as the
						 * title shows them: "time 10%/3, comms foo" */
	double			 t_start;	/* when perfnav started */
	double			 sym_wall;	/* start to symbols done, seconds */
	size_t			 refusals_seen;	/* files refused, said on the status line */
	const struct common_opts *co;
	struct keys		 keys;
	struct theme		 theme;
	struct theme_attrs	 ta;
	bool			 mono;
	struct pane		*panes;		/* [PANE_COUNT]: pane_set[shown] */
	struct nav		 nav;
	struct nav_view		*roots;		/* [PANE_COUNT]: root_set[shown] */
	/*
	 * Diff mode (perfnav OLD NEW): each recording has its own panes and
	 * root views; the app's s, sym, events... are those of recording
	 * `shown` (0: OLD, 1: NEW), `other` keeps the other's.
	 */
	bool			 diff;
	bool			 pair_ready;	/* both resolved, NEW's panes made (w works) */
	int			 shown;
	struct app_other	 other;
	const char		*names[2];	/* the two files, as given */
	struct pane		 pane_set[2][PANE_COUNT];
	struct nav_view		 root_set[2][PANE_COUNT];
	char			 msg[256];
	int			 msg_el;
	enum input_mode		 in;
	char			 in_buf[NAV_FILTER_MAX];
	size_t			 in_saved;	/* cursor before an incremental search */
	bool			 quit;
	bool			 term_up;	/* app_term_start done (app_load may start it early) */
	bool			 term_failed;	/* and it could not (said once) */
	bool			 enter_pending;	/* a view's enter waits for a recount */
	/* Keys typed during a recount (get_wch's answer and its key), acted on once it
	 * is done, in order; more than APP_AHEAD are said to be dropped. */
	struct {
		int	 r;
		wint_t	 wc;
	}			 ahead[APP_AHEAD];
	size_t			 nahead;
	double			 load_secs;
	char			 events[128];	/* event names for the title */
	uint64_t		 t_first, t_last;
	int			 tab_x[PANE_NTABS + 1];
	/* The export being written by a child process (app_export.c), pid 0: none. */
	int			 export_pid;
	int			 export_fd;	/* its message pipe */
	char			 export_path[NAV_FILTER_MAX];
	char			*startup_msgs;	/* key/theme file problems */
	size_t			 startup_len, startup_cap;
};

/* app.c, diff mode: show the other recording in the per-recording panes. */
void app_diff_swap(struct app *a);

/* app.c: set the status line's message (el: its theme element). */
/* Nothing to leave: the root view, no call-path transform or time step (q quits there). */
bool app_at_top(const struct app *a);
void app_msg(struct app *a, int el, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Push time step v (NAV_T_TIME, from pane_apply_time) into the scope and the history. */
void app_view_time(struct app *a, const struct nav_view *v);
/* Push zoom step v (NAV_T_ZOOM, from a pane) into the scope and the history. */
void app_view_zoom(struct app *a, const struct nav_view *v);
/* Recount for the scope's zoom, cpus and time steps if they changed and symbols are in. */
void app_scope_apply(struct app *a);
/* Undo the scope's steps past the first n (said on the status line). */
void app_scope_undo(struct app *a, size_t n);

/*
 * app_term.c: start curses (on /dev/tty when standard input or output is
 * not a terminal), catch the fatal path and signals to restore the
 * terminal, send stderr to a temporary file, apply a's theme.  Returns 0,
 * or -1 with a message on stderr.
 */
int app_term_start(struct app *a);
/*
 * app_load.c: open the recording of co (started at t0; name as the title
 * shows it) on a thread; should it take more than a moment, start the
 * terminal (app_term_start) and show how far it got until it is done, or
 * until the quit key stops it (*quit, and NULL).  The session, or NULL
 * (the message on stderr, kept until exit if the terminal is up).
 */
struct session *app_load(struct app *a, const struct common_opts *co, const char *name, double t0,
    bool *quit);
/* app_term.c: restore the terminal and signals, show what stderr got. */
void app_term_stop(void);
/*
 * app_term.c: leave curses, run $EDITOR (default vi) as `EDITOR +line path`
 * on the terminal and wait for it, then take the screen back; a file that
 * is not there (or no regular file) is said on the status line instead.
 */
void app_term_edit(struct app *a, const char *path, int line);

/* app_view.c: the pane of the current view. */
struct pane *app_view_pane(struct app *a);
/* app_view.c: the current pane keeps its state in the current view. */
void app_view_save(struct app *a);
/* app_view.c: the current view's pane takes it up. */
void app_view_apply(struct app *a);
/* app_view.c: drill into view v (the current one is saved first). */
void app_view_push(struct app *a, const struct nav_view *v);
/* app_view.c: the same after a scope step, the current view saved before the step. */
void app_view_push_step(struct app *a, const struct nav_view *v);
/* app_view.c: the current view's filter was replaced by filter (empty:
 * cleared): a label that named the old one names the new one. */
void app_view_refiltered(struct app *a, const char *filter);
/* app_view.c: back to the view before (a message at the root). */
void app_view_back(struct app *a);
/* app_view.c: go to the view pane p asked for (its push). */
void app_view_follow(struct app *a, const struct pane *p);
/* app_view.c: the root view of pane (a tab); the hex view shows the
 * events pane's selection. */
void app_view_switch(struct app *a, int pane);

/* app_lineedit.c: start editing a search or a filter (list panes only). */
void app_lineedit_start(struct app *a, enum input_mode m);
/* app_lineedit.c: one key while editing: Enter applies, Esc cancels. */
void app_lineedit_key(struct app *a, int key);

/* app_scope.c: start typing the scope (scope-edit) on the status line. */
void app_scope_edit_start(struct app *a);
/* app_scope.c: the typed scope applied as one step (true), or its error said (false). */
bool app_scope_edit_enter(struct app *a);
/*
 * app_export.c: the export action: ask for a file name (start), write it
 * in a child process (enter: false keeps the line open), and when the
 * child is done say so (poll: true then).
 */
void app_export_start(struct app *a);
bool app_export_enter(struct app *a);
bool app_export_poll(struct app *a);
/* Quitting: wait for an export being written, said on stderr. */
void app_export_finish(struct app *a);
/* app_scope.c: the command line printing the current view's rows (scope-command). */
void app_scope_command(struct app *a);

/* app_actions.c: do act (bound to key): the pane first, then the list
 * widget, then the application's own actions. */
void app_actions_do(struct app *a, enum action act, int key);

/* app_draw.c: draw the whole screen and refresh it. */
void app_draw(struct app *a);

/* app_mouse.c: handle the pending mouse event. */
void app_mouse(struct app *a);

#endif
