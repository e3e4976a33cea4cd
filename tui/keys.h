/*
 * keys.h: the TUI's actions and key bindings.
 *
 * Every action is one line of the ACTIONS X-macro (id, name, help text).
 * Default bindings are text in the syntax of the user's key file
 * ($XDG_CONFIG_HOME/perfnav/keys), parsed at start-up:
 *
 *     # comment
 *     bind MAP KEY ACTION      e.g.  bind global q quit
 *     unbind MAP KEY
 *
 * MAP is "global" or a pane's name (hot, procs, events, header, hex, help);
 * lookup tries the focused pane's map, then global.  KEY is a character
 * ("q", "?", "é"), C-x for control keys, or a name: Up Down Left Right
 * PgUp PgDn Home End Enter Esc Tab BTab Backspace Delete Insert Space F1..F12.
 * The help screen is generated from the action table and the bindings.
 * Lines and words are read by tui/conf.h's parser (no quoting).
 * Curses-free apart from the KEY_* codes of function keys.
 */
#ifndef PERFNAV_TUI_KEYS_H
#define PERFNAV_TUI_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ACTIONS(X) \
	X(NONE, "none", "do nothing") \
	X(QUIT, "quit", "leave the view (annotate, help, a zoom, a filter or time step), as perf report's q; quit at the top") \
	X(QUIT_ALL, "quit-all", "quit perfnav from any view") \
	X(ROW_TEXT, "row-text", "the selected row's full text, column by column (any key closes it)") \
	X(HELP, "help", "show this help") \
	X(UP, "up", "move up one row (hex view: previous field)") \
	X(DOWN, "down", "move down one row (hex view: next field)") \
	X(PAGE_UP, "page-up", "move up one page") \
	X(PAGE_DOWN, "page-down", "move down one page") \
	X(TOP, "top", "go to the first row") \
	X(BOTTOM, "bottom", "go to the last row") \
	X(ENTER, "enter", "drill into the selected row (annotate: a jump's target line, a call's function)") \
	X(BACK, "back", "go back to the previous view") \
	X(SEARCH, "search", "search forward as you type") \
	X(SEARCH_NEXT, "search-next", "next match of the search") \
	X(SEARCH_PREV, "search-prev", "previous match of the search") \
	X(FILTER, "filter", "filter rows (events: type: pid: tid: cpu: time: comm: event: dso: sym: symoff: frame: words)") \
	X(CLEAR_FILTER, "clear-filter", "remove the filter") \
	X(SORT_NEXT, "sort-next", "sort by the next column") \
	X(SORT_PREV, "sort-prev", "sort by the previous column") \
	X(SORT_REVERSE, "sort-reverse", "reverse the sort order") \
	X(TOGGLE, "toggle", "expand or collapse the selected row") \
	X(EXPAND, "expand", "expand the selected row and everything below it") \
	X(EXPAND_ALL, "expand-all", "expand every row") \
	X(COLLAPSE, "collapse", "collapse the selected row") \
	X(COLLAPSE_ALL, "collapse-all", "collapse every row") \
	X(SCROLL_LEFT, "scroll-left", "lists: scroll the widest column (Symbol, Path...) back to its start") \
	X(SCROLL_RIGHT, "scroll-right", "lists: scroll the widest column sideways to read a long name") \
	X(NEXT_PANE, "next-pane", "next pane") \
	X(PREV_PANE, "prev-pane", "previous pane") \
	X(NEXT_EVENT, "next-event", "hot functions, call trees, flame graph: the next event (perf report's Tab; Tab is the next pane everywhere), off-cpu among them when the recording has switches") \
	X(PREV_EVENT, "prev-event", "hot functions, call trees, flame graph: the previous event") \
	X(PANE_HOT, "pane-hot", "hot functions pane") \
	X(PANE_PROCS, "pane-procs", "processes pane") \
	X(PANE_EVENTS, "pane-events", "events pane") \
	X(PANE_HEADER, "pane-header", "header pane") \
	X(PANE_HEX, "pane-hex", "hex view of the selected record") \
	X(HEX, "hex", "open the hex view of the selected record or section") \
	X(RECORD, "record", "back from the hex view to the decoded record") \
	X(ZOOM_DSO, "zoom-dso", "zoom the scope into the selected row's DSO, as --dsos (every pane; Esc: out)") \
	X(ZOOM_THREAD, "zoom-thread", "zoom the scope into the selected row's thread (timeline: the lane's process, thread or CPU; every pane; Esc: out)") \
	X(DSOS, "dsos", "hot functions: list shared objects instead of symbols (again: back)") \
	X(PCT_LIMIT, "percent-limit", "hot functions: hide rows under 0.5, 1, 2, 5 %, or none") \
	X(EVENTS, "events", "the events of the selected process, thread or symbol (annotate: the samples of the line)") \
	X(ANNOTATE, "annotate", "hot functions: the selected symbol's instructions with their samples (again: back)") \
	X(CALL_ORDER, "call-order", "hot functions: a symbol's call paths towards its callers or its callees") \
	X(CALL_PERCENT, "call-percent", "hot functions: call-path percentages of the symbol's total or of the event's") \
	X(TIME_PARALLEL, "timeline-parallelism", "timeline: colour the columns by parallelism (threads running, perf 6.15's; a recording with switch events) or by samples") \
	X(LATENCY_SORT, "latency-sort", "hot functions: rows sorted by their Latency column (perf 6.15's --latency, a recording with switch events) or by period") \
	X(PANE_TOPDOWN, "pane-topdown", "top-down call tree pane") \
	X(PANE_BOTTOMUP, "pane-bottomup", "bottom-up call tree pane") \
	X(PANE_FLAME, "pane-flame", "flame graph pane") \
	X(OPEN_TOPDOWN, "open-topdown", "the selected function in the top-down tree (its hottest call path)") \
	X(OPEN_BOTTOMUP, "open-bottomup", "the selected function in the bottom-up tree (its callers)") \
	X(WAKERS, "wakers", "off-cpu event: who woke the selected function (trees, flame graph: frame): the threads whose wakeups ended its waits, with their stacks") \
	X(FOCUS, "focus", "call paths: focus on the selected function, merged over its call sites (Esc undoes)") \
	X(MERGE, "merge", "call paths: merge the selected function into its callers (Esc undoes)") \
	X(DROP, "drop", "call paths: drop the samples through the selected function (Esc undoes)") \
	X(NORECURSE, "no-recursion", "call paths: collapse direct recursion (Esc undoes)") \
	X(FLAME_LEFT, "flame-left", "flame graph: the frame to the left in the row") \
	X(FLAME_RIGHT, "flame-right", "flame graph: the frame to the right in the row") \
	X(FLAME_FLIP, "flame-flip", "flame graph: flip between the top-down and the bottom-up tree") \
	X(FLAME_WALL, "flame-wall", "flame graph: the wall view, time on CPU (cpu-clock or task-clock) and off CPU in one graph, off-CPU frames in their colours; again: the scope's event alone") \
	X(REDRAW, "redraw", "redraw the screen") \
	X(PANE_TIMELINE, "pane-timeline", "timeline pane") \
	X(PANE_FSCOPE, "pane-fscope", "flame scope pane (the Heat map tab)") \
	X(PANE_COUNTERS, "pane-counters", "counters pane (the counts of a perf stat record file)") \
	X(PANE_SUMMARY, "pane-summary", "summary pane: the recording at a glance, each row a jump (the Summary tab)") \
	X(TIME_LEFT, "time-left", "timeline, flame scope: move the time cursor left") \
	X(TIME_RIGHT, "time-right", "timeline, flame scope: move the time cursor right") \
	X(TIME_ZOOM_IN, "time-zoom-in", "timeline: zoom the time axis in around the cursor; flame scope: shorter columns") \
	X(TIME_ZOOM_OUT, "time-zoom-out", "timeline: zoom the time axis out; flame scope: longer columns") \
	X(TIME_MARK, "time-mark", "timeline, flame scope: mark where a time range starts (again, or Enter: apply it to every pane; Esc: drop it)") \
	X(TIMELINE_LANES, "timeline-lanes", "timeline: lanes per CPU, or per process and thread") \
	X(TIME_FSCOPE, "time-fscope", "timeline: the flame scope of the selected row's process, thread or CPU") \
	X(TIME_HIGHLIGHT, "time-highlight", "timeline: highlight the samples of the function selected in the hot functions") \
	X(DIFF_SWAP, "diff-swap", "diff mode (perfnav OLD NEW): the per-recording panes show the other recording") \
	X(DIFF_NORM, "diff-norm", "diff mode: Baseline, New and Delta as percents of each recording's total, or as periods") \
	X(DIFF_OLD, "diff-old", "diff mode, flame graph: OLD's shape (again: NEW's)") \
	X(NEXT_HOT, "next-hot", "annotate: the next instruction with samples (with a search: its next match)") \
	X(PREV_HOT, "prev-hot", "annotate: the previous instruction with samples (with a search: its previous match)") \
	X(HOTTEST, "hottest", "annotate: the hottest line (instruction, or source line in the source-only mode)") \
	X(EDIT_SOURCE, "edit-source", "annotate: the selected line's source file in $EDITOR (default vi), at that line") \
	X(ANNOT_MODE, "annotate-mode", "annotate: cycle source and instructions, source lines only (samples summed per line), instructions only") \
	X(EVENTS_SCOPE, "events-scope", "events: only the records in the scope (time steps, zoom, start options), or every record") \
	X(SCOPE_EDIT, "scope-edit", "type the scope as the start options' words (--time 10%-20% --tid N --pid --comms --cpu --dsos --symbols --files -e --sort -g): one step, Esc undoes it") \
	X(SCOPE_COMMAND, "scope-command", "the perfnav top (folded, tree) command line that prints the current view's numbers, and the perfnav export line of its scope") \
	X(EXPORT, "export", "write the view to a file: .txt the rows as shown (every row, texts whole), .svg the flame graph, .pb.gz pprof, .json speedscope, .folded, .data a carved perf.data of the scope")

enum action {
#define X(id, name, help) ACT_##id,
	ACTIONS(X)
#undef X
	ACT_COUNT
};

/* Key codes: characters are their code point; function keys (curses
 * KEY_*) have KEYS_FN added so they never collide with characters. */
#define KEYS_FN		0x40000000
#define KEYS_ESC	27
#define KEYS_TAB	9
#define KEYS_ENTER	10

#define KEYS_MAPS_MAX	16

struct binding {
	uint8_t		map;		/* 0 global, else a pane map */
	int		key;
	enum action	act;
};

struct keys {
	const char	*maps[KEYS_MAPS_MAX];	/* map names: [0] "global" */
	size_t		 nmaps;
	struct binding	*v;
	size_t		 n, cap;
};

/* The default bindings, in the key file's syntax. */
extern const char keys_default_text[];

/* Set up with map names (NULL-terminated list of pane names). */
void keys_init(struct keys *k, const char *const *pane_maps);
void keys_free(struct keys *k);
/*
 * Parse bindings text.  Bad lines are skipped; for each, err(arg, line,
 * message) is called when err is non-NULL.  Returns the number of bad lines.
 */
int keys_parse(struct keys *k, const char *text,
    void (*err)(void *arg, int line, const char *msg), void *arg);
/* Load the user's file (path); 0 if absent or read, else the bad lines. */
int keys_load_file(struct keys *k, const char *path,
    void (*err)(void *arg, int line, const char *msg), void *arg);
/* Action bound to key in map (pane name or NULL), then global; ACT_NONE. */
enum action keys_lookup(const struct keys *k, const char *map, int key);
/* Parse a key name ("C-l", "PgDn", "q"); -1 if unknown. */
int keys_parse_key(const char *name);
/* The i-th key name the key file takes (aliases after the names), NULL past the last. */
const char *keys_name_nth(size_t i);
/* A key's name as the key file writes it. */
const char *keys_key_name(int key, char *buf, size_t n);
/* Action by name, -1 if unknown; name and help of an action. */
int keys_action_by_name(const char *name);
const char *keys_action_name(enum action a);
const char *keys_action_help(enum action a);
/* The keys bound to a in map (exactly that map), "k, Up"; "" if none. */
char *keys_bound(const struct keys *k, const char *map, enum action a, char *buf, size_t n);

/*
 * The help screen: calls fn once per line (map heading or binding),
 * generated from the action table and bindings.  kind 0 is a heading
 * (text = map name), 1 a binding (keys, action name, help text).
 */
typedef void (*keys_help_fn)(void *arg, int kind, const char *keys, const char *action,
    const char *help);
void keys_help(const struct keys *k, keys_help_fn fn, void *arg);

#endif
