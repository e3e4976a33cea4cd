/*
 * scope.h: what part of the recording the analysis panes look at, one for
 * them all (hot functions, the call-path trees, the flame graph, the
 * timeline, the flame scope, the processes' counts, the events list's
 * scope filter, annotate): the event, the zoom (a process, thread, command,
 * DSO or symbol: the samples whose own entry, the one of their own
 * address, a struct hist_select takes; and cpus and the input of a merged
 * recording, which leave other samples out of the totals too, as --cpu and
 * --files do), the time steps and the
 * call-path transforms (symbolize/cpath.h) in the order they were
 * applied, over the start options' samples.  The app owns one, in struct
 * symbols (p->sym->scope); every change bumps gen, and every pane that
 * shows it rebuilds when gen is not the one it built for.
 *
 * Every change is a step: the scope keeps what it was before each one
 * (scope_undo takes the last back), so Esc undoes steps in the order they
 * were made whatever their kind, and switching panes changes nothing.
 * The zoom, cpus and time steps are applied by recounting the app's hist
 * (symbols_apply_scope: hist_rescope_sel); until that is done, or where it
 * cannot be, panes select the zoom's rows themselves (scope_sel).
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
#define SCOPE_CPU_MAX	64
#define SCOPE_UNDO_MAX	256

/* What a zoom step narrows to (scope_zoom). */
enum scope_zoom_kind {
	SZ_PID,		/* a process: pid */
	SZ_TID,		/* a thread: pid, tid */
	SZ_COMM,	/* a command: id, a hist string */
	SZ_DSO,		/* a DSO: id */
	SZ_SYM,		/* a symbol: id, a function node */
	SZ_CPU,		/* a cpu: id */
	SZ_FILE,	/* an input of a merged recording: id, an origin (core/origin.h) */
	SZ_N
};

/*
 * The hot functions' --sort: its keys in column order (n 0: comm,dso,sym)
 * and their HIST_KEEP bits.  Keys the browser's hist merges to (sym with
 * any of comm, pid, process, dso: scope_sort_merged) come from it; any
 * other list is a table of its own (tui/keytab.h).
 */
struct scope_sort {
	enum hist_key	 keys[HIST_MAX_KEYS];
	unsigned	 n;
	unsigned	 keep;
};

/* Are sort's rows the browser's hist merged (else a keytab's)? */
bool scope_sort_merged(const struct scope_sort *sort);
/* sort's keys as --sort takes them ("cpu,sym"), "" for the default.  Returns buf. */
const char *scope_sort_text(const struct scope_sort *sort, char *buf, size_t n);

struct scope {
	size_t			 ev;		/* event index (hist_event) */
	bool			 zoomed;	/* sel applies */
	struct hist_select	 sel;
	/* the zoom's parts as the title names them ("pid 123 make", "dso libc.so.6") */
	char			 zlabel[SZ_N][48];
	/*
	 * The order the parts came in, for the title: a count of parts set
	 * (seq) and each zoom kind's, the first time step's and each
	 * transform's number in it.
	 */
	uint32_t		 seq, zseq[SZ_N], tseq;
	uint32_t		 xseq[SCOPE_XF_MAX];
	uint32_t		 cpus[SCOPE_CPU_MAX];	/* the cpu zoom, sorted */
	size_t			 ncpus;
	/*
	 * The file zoom: the samples of the inputs named as origin file is
	 * (every origin of that name, as --files takes it), when by_file.
	 * org: the recording's inputs, borrowed (the app's symbols own them);
	 * NULL: no file zoom can be made.
	 */
	bool			 by_file;
	uint32_t		 file;
	const struct origins	*org;
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
	bool			 time_pending;	/* set, hist not recounted for it (the
						 * zoom, cpus or time steps) yet */
	bool			 recounted;	/* the hist's counts are those of the zoom */
	/*
	 * The function node (hist_node_get) selected in the hot functions, or
	 * CPATH_NONE: the timeline can highlight its samples.
	 */
	uint32_t		 hl_func;
	/*
	 * Start options of the hot functions (perfnav --sort, -g ORDER):
	 * the keys of its rows and columns, and its call paths towards the callers (1), the
	 * callees (0) or as the pane chooses (-1).  Set before the panes are
	 * made (symbols_new sets the defaults).
	 */
	struct scope_sort	 hot_sort;
	int			 hot_callers;
	/*
	 * The hot functions sorted by latency (perf 6.15's report --latency:
	 * its Latency column shows on a recording with switch events), else
	 * by period; toggled by the latency-sort key, not a step.
	 */
	bool			 hot_by_latency;
	char			 what[64];	/* the last step, as "undone: ..." names it */
	/* What the scope was before each step, the last last (scope_undo). */
	struct scope		*undo;
	size_t			 nundo, capundo;
};

/*
 * The scope as it is now, kept as the one to come back to: every change
 * below makes one; a caller making a change of several parts (a typed
 * scope) makes one itself, then changes the parts with the _set calls.
 * The oldest goes when SCOPE_UNDO_MAX are kept.
 */
void scope_save(struct scope *sc);
/*
 * Back to the scope before the last step (gen bumped; a recount pending
 * when the zoom, cpus or time changed).  Returns false when there is none.
 */
bool scope_undo(struct scope *sc);
/* Steps kept (scope_undo can take back this many). */
size_t scope_depth(const struct scope *sc);

/*
 * A zoom step: narrow to kind's value (pid and tid for SZ_PID and SZ_TID,
 * id for the others), label naming it in the title ("thread 123 make").
 * A zoom of a kind already in replaces it; cpus add up to SCOPE_CPU_MAX.
 * Returns false (nothing changed) when the scope has it already.
 */
bool scope_zoom(struct scope *sc, enum scope_zoom_kind kind, int32_t pid, int32_t tid,
    uint32_t id, const char *label);
/* The same without a step of its own (part of a step the caller saved). */
bool scope_zoom_set(struct scope *sc, enum scope_zoom_kind kind, int32_t pid, int32_t tid,
    uint32_t id, const char *label);
/* Is kind part of the zoom? */
bool scope_zoomed(const struct scope *sc, enum scope_zoom_kind kind);
/*
 * The selection a pane applies itself to the hist's rows and paths: the
 * zoom's, while the hist is not recounted for it; NULL when nothing is to
 * select (no zoom, or the counts are the zoom's already).
 */
const struct hist_select *scope_sel(const struct scope *sc);
/* Does a sample on cpu (-1: none recorded) pass the cpu zoom? */
bool scope_cpu_in(const struct scope *sc, int32_t cpu);
/* Does the record at location loc (a file-mode offset) pass the file zoom? */
bool scope_loc_in(const struct scope *sc, uint64_t loc);
/* The name of the file zoom's input ("" when there is none). */
const char *scope_file_name(const struct scope *sc);
/*
 * The origin of the input named name (as --files takes it: the name the
 * key file prints, or its last path component) among sc->org, or
 * UINT32_MAX when none has it.
 */
uint32_t scope_file_find(const struct scope *sc, const char *name);
/* Does a sample of pid, tid pass the zoom's process and thread? */
bool scope_task_in(const struct scope *sc, int32_t pid, int32_t tid);
/* The zoom as the title shows it: "thread 123 make > dso libc.so.6 > cpu 0,1"; "" if none. */
const char *scope_zoom_text(const struct scope *sc, char *buf, size_t n);
/*
 * The whole scope as the title shows it, its parts in the order they
 * narrow: the event (when h has several: ev_name), the zoom, the time
 * steps, the transforms, then the start options (start, as the title
 * names them: "comms foo"), "" if the scope is the whole recording.
 * " (pending)" when the counts are not the scope's yet.  Returns buf.
 */
const char *scope_text(const struct scope *sc, const struct hist *h, const char *start, char *buf,
    size_t n);
/* What the scope's cpus take, as perf's --cpu list ("0-2,5"); "" if none.  Returns buf. */
const char *scope_cpu_list(const struct scope *sc, char *buf, size_t n);

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
/* A step to event ev (an index of hist_event); false when it is the scope's already. */
bool scope_set_event(struct scope *sc, size_t ev);

/*
 * Push a time step [start, end] (perf time, ns, both ends in) and bump
 * gen.  Returns false (nothing changed) when SCOPE_TIME_MAX are in or the
 * range is empty.
 */
bool scope_time_push(struct scope *sc, uint64_t start, uint64_t end);
/* Why scope_time_push would refuse [start, end] (a message), or NULL if it would not. */
const char *scope_time_refusal(const struct scope *sc, uint64_t start, uint64_t end);
/* The same without a step of its own (part of a step the caller saved), no check. */
void scope_time_set(struct scope *sc, uint64_t start, uint64_t end);
/*
 * Make the scope's value (event, zoom, cpus, time steps, transforms, hot
 * keys) that of t, as one step; t is a copy of sc changed with the _set
 * calls.  Returns false (no step) when they are the same.
 */
bool scope_assign(struct scope *sc, const struct scope *t);
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
 * their time ranges cut to the time steps, their cpus to the zoom's, and
 * the zoom's process, thread and input (flocs) in place of theirs.  out's
 * time ranges, cpus, pids, tids and flocs are its own (scope_filter_free),
 * the rest borrowed from start.  Returns out, or NULL when nothing restricts.
 */
const struct hist_filter *scope_filter(const struct scope *sc, const struct hist_filter *start,
    struct hist_filter *out);
void scope_filter_free(struct hist_filter *out);

/*
 * The scope's samples as perfnav top's options take them (what
 * scope_command writes): scope_filter's, with the zoom's command, DSO and
 * symbol by name (h and z name the zoom's ids) in place of start's lists.
 * out owns all it holds (filter_free).
 */
void scope_filter_named(const struct scope *sc, const struct hist_filter *start, struct hist *h,
    const struct symbolizer *z, struct hist_filter *out);

/* Keep tree t (the scope owns it from now on) and its node for frame:N; frees the last one. */
void scope_pick(struct scope *sc, struct cpath *t, uint32_t node);
/* Free what the scope owns (symbols_free calls it). */
void scope_free(struct scope *sc);

#endif
