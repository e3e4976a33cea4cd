/*
 * scope_edit.h: the typed scope (the scope-edit action): a line of the
 * start options' words (--time 10%-20%, --time 3.1,3.4, --pid, --tid,
 * --comms, --cpu, --dsos, --symbols, -e EVENT, --sort, -g ORDER) applied
 * to the scope (tui/scope.h) as one step.  Curses-free.
 */
#ifndef PERFNAV_TUI_SCOPE_EDIT_H
#define PERFNAV_TUI_SCOPE_EDIT_H

#include <stdbool.h>
#include <stddef.h>

struct hist;
struct hist_filter;
struct scope;
struct session;
struct symbolizer;

/* What the words are read against: the recording, its hist and the symbolizer naming its ids. */
struct scope_edit_ctx {
	const struct session	*s;
	struct hist		*h;
	const struct symbolizer	*z;
	bool			 diff;		/* diff mode: --sort as the diff pairs rows */
};

/*
 * Apply line to sc as one step (scope_save first; sc->what names it).
 * --pid, --tid, --comms, --dsos and --symbols take one value each (the
 * zoom has one of each), --cpu a list, --time one range each time it is
 * given (each a time step), in perf's syntax.  Returns 0 (applied; msg may
 * say something of it), 1 (the scope had it already: nothing changed), or
 * -1 with msg saying which word is wrong and why (nothing applied).
 */
int scope_edit(struct scope *sc, const struct scope_edit_ctx *cx, const char *line, char *msg,
    size_t n);

/*
 * The hot functions' --sort KEYS (any of the sort-key table's) into *out,
 * and -g's order word into *callers (1: callee, 0: caller; left as it is
 * without one): the start options and the typed scope read them alike.
 * 0, or -1 (nothing set; msg says why; *bad: -g's bad word).
 */
int scope_parse_sort(const char *v, struct scope_sort *out, char *msg, size_t n);
int scope_parse_order(const char *v, int *callers, const char **bad);

/* What the command line of scope_command is for. */
struct scope_cmd {
	const char		*sub;		/* "top", "folded", "tree" */
	const char		*common;	/* the symbol options as given ("--buildid-dir D"), or NULL */
	const char		*sort;		/* --sort's value, or NULL */
	bool			 no_children;	/* top --no-children */
	bool			 mem_mode;	/* top --mem-mode (memory keys in sort) */
	bool			 latency;	/* top --latency (rows by latency, its column shown) */
	const struct hist_filter *start;	/* the start options' filter, or NULL */
	const char		*file;
	const char		*file2;		/* a second file (perfnav diff OLD NEW), or NULL */
	bool			 no_event;	/* no --event (perfnav diff pairs every event) */
	bool			 addresses;	/* folded --addresses (the call-path views' names) */
};

/*
 * The command line that prints the rows the scope gives (the
 * scope-command action): perfnav SUB, the symbol options, the event, the
 * start options the zoom does not narrow, the time steps cut to the
 * start's (--time), the zoom (--pid --tid --comms --cpu --dsos --symbols),
 * the file; words quoted for the shell where they need it.  The call-path
 * transforms have no option: the caller says so.  Returns buf.
 */
const char *scope_command(const struct scope *sc, const struct scope_edit_ctx *cx,
    const struct scope_cmd *c, char *buf, size_t n);

#endif
