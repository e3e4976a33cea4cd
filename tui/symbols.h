/*
 * symbols.h: the TUI's symbolization, on worker threads.
 *
 * A struct symbols owns a symbolizer and a hist (symbolize/hist.h) over an
 * open session: keyed comm,tid,dso,sym so the hot-functions pane can show
 * the whole recording, one process or one thread by merging rows
 * (hist_rows_merged), with children when the recording has callchains,
 * every sample's call path (symbolize/cpath.h: the hot functions' call
 * paths, the call trees, the flame graph) and each sample's own entry and
 * path (record_self), so the events pane can list the samples of a symbol.
 *
 * The browser calls symbols_start(): workers resolve (two on a large
 * recording, each with its own symbolizer, merged at the end) while the UI
 * thread draws and answers keys, polling symbols_poll(); files from
 * debuginfod servers are fetched by the workers only (symbols_dbgd_text
 * says how far).  Tests and tools
 * may instead add slices on the calling thread (symbols_step) or
 * everything at once (symbols_run).  Curses-free; the session must outlive
 * it.
 */
#ifndef PERFNAV_TUI_SYMBOLS_H
#define PERFNAV_TUI_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <stdio.h>

#include "core/origin.h"
#include "symbolize/offcpu.h"
#include "symbolize/parallel.h"
#include "symbolize/symbolizer.h"
#include "tui/scope.h"

struct session;
struct symbolizer;
struct hist;

struct hist_filter;
struct common_opts;
struct hist_pack;
struct sym_work;
struct keytab;

struct symbols {
	const struct session	*s;
	const struct hist_filter *start;	/* the scope given at start, or NULL */
	struct sym_opts		 so;		/* the symbolizers' options (symbols_start) */
	/* downloads from debuginfod servers by all of them (so.dbgd_progress) */
	struct sym_dbgd_progress dbgd;
	/*
	 * The hist and the symbolizer that names its ids.  While workers
	 * resolve (symbols_start), h is an empty finished hist and z the UI
	 * thread's own symbolizer (a sample's symbol looked up now); once
	 * they are done (symbols_poll), the workers' hist and symbolizer.
	 */
	struct symbolizer	*z;
	struct hist		*h;
	struct sym_work		*work;		/* the workers, or NULL (symbols_step) */
	bool			 callchains;	/* the recording has callchains */
	bool			 children;	/* children sums (default: callchains) */
	size_t			 pos;		/* index positions added */
	uint64_t		 samples_done;	/* SAMPLE records among them */
	uint64_t		 samples_total;
	bool			 done;		/* finished: rows are final */
	size_t			 steps;		/* the app steps the panes' long work
						 * (pane_ops.work: trees built between
						 * keys), this many rows a step between
						 * looks at the clock; 0: at once */
	unsigned		 gen;		/* bumped whenever rows may have changed */
	unsigned		 h_serial;	/* bumped whenever h is another hist (its
						 * ids, a tree's functions, are others) */
	double			 busy_secs;	/* time spent symbolizing */
	struct scope		 scope;		/* what the analysis panes show (tui/scope.h) */
	/* symbols_thread_samples's last answer (a pass over every sample: seconds on a
	 * 10 GB recording), for the same scope, symbols and recount */
	struct {
		bool		 valid, by_hist;
		unsigned	 scope_gen, gen, h_serial;
		uint64_t	*v;		/* per thread, n of them */
		size_t		 n;
		uint64_t	 total;
	}			 tsm;
	struct origins		 org;		/* the recording's inputs (the scope's file zoom) */
	/* the table of a --sort the hist does not merge to (symbols_keyed), the
	 * branch table (symbols_branch_table), or NULL until first wanted */
	struct keytab		*kt, *kt_branch;
	/*
	 * Off-CPU time (symbolize/offcpu.h): the recording's switches paired
	 * into spans, charged as the event "off-cpu" beside the recorded
	 * ones (hist_opts.offcpu_beside); made by the first worker before
	 * its hist, read once done (symbols_offcpu).
	 */
	struct offcpu		 oc;
	bool			 oc_tried, has_oc;
	/*
	 * perf 6.15's parallelism (symbolize/parallel.h), when the recording
	 * has switch events: the hist tracks each sample's latency
	 * (hist_opts.parallel).  Made with the off-CPU spans, by the first
	 * worker; read once done (symbols_parallel).
	 */
	struct parallel		 par;
	bool			 has_par;
	/* the scope's transforms as a tree (symbols_scope_tree), for gen and scope.gen */
	struct cpath		*xt;
	unsigned		 xt_gen, xt_sgen;
	/*
	 * Diff mode (perfnav OLD NEW): the other recording's symbols (each
	 * with its own session and symbolizer), or NULL; which one this is;
	 * the diff columns in periods, else in percents of each recording's
	 * event total (the app keeps it equal in both).
	 */
	struct symbols		*pair;
	int			 role;		/* 0: OLD (the baseline), 1: NEW */
	bool			 diff_abs;
	uint32_t		 pf_in, pf_out;	/* symbols_pair_func's last answer */
	/*
	 * The cache of finished hists (docs/cache.md), or NULL: the first
	 * worker reads the hist from it when one is kept for these options
	 * (cached), else takes what its packing needs of its symbolizer once
	 * done, and a thread of its own (cache_thr) packs the hist and writes
	 * it while the panes show it (a recount waits for it: it reads the
	 * hist).  Set before symbols_start; borrowed.
	 */
	const struct common_opts *cache;
	bool			 cached;
	bool			 cache_thr_on;
	pthread_t		 cache_thr;
	struct hist_pack	*cache_pk;	/* the packing cache_thr finishes */
	uint64_t		 cache_sub;
	/*
	 * A scope's recount under way (symbols_scope_begin), or NULL: until
	 * it is done the hist's counts and rows are not to be read; the
	 * filter it counts with lives here.
	 */
	struct hist_rescope_job	*rj;
	struct filter_range	 rj_range;
	struct hist_filter	 rj_f, rj_ff;
	bool			 rj_recounted;	/* scope.recounted once done */
	bool			 rj_paired;	/* diff mode: the pair's recount goes with it */
};

/*
 * Set up (nothing is resolved yet); so may be NULL for the defaults; f
 * (may be NULL) the scope given at start (perf's --time, --pid, --comms...;
 * symbolize/filter.h): borrowed, it must outlive the symbols.
 */
struct symbols *symbols_new(const struct session *s, const struct sym_opts *so,
    const struct hist_filter *f);
void symbols_free(struct symbols *sy);

/*
 * The table of the scope's --sort when its rows are not the hist's merged
 * (scope_sort_merged false), over the scope's samples as perfnav top
 * takes them (scope_filter_named): wanted from the keytab (made on first
 * use), built in the background.  NULL while it is built (and until
 * symbols are in: the zoom's names come from them) or when the sort is
 * merged; *busy (may be NULL) then says whether a build is under way.
 */
struct hist *symbols_keyed(struct symbols *sy, bool *busy);
/*
 * perf report's branch table over the scope's samples (a recording with
 * branch stacks): keys comm, dso_from, symbol_from, symbol_to, cycles, in
 * branch mode, built the same way; NULL while built.
 */
struct hist *symbols_branch_table(struct symbols *sy, bool *busy);
/* Is a table of either kind being built (the UI polls while so)? */
bool symbols_tables_busy(const struct symbols *sy);
/* How many times a table's build started or a table was taken up (a draw that changes it draws again). */
unsigned symbols_tables_changes(const struct symbols *sy);
/*
 * perfnav --children / --no-children: children columns and sums on or off
 * (the default: on when the recording has callchains).  Only before the
 * first step; 0, or -1 (too late, nothing changed).
 */
int symbols_set_children(struct symbols *sy, bool on);

/*
 * Add slices of the index for about budget seconds (at least one slice of
 * `slice` positions, 0: a default); finishes the hist after the last.
 * Returns true once everything is in.
 */
bool symbols_step(struct symbols *sy, double budget, size_t slice);
/* Everything at once (text tools, tests); waits for the workers if started. */
void symbols_run(struct symbols *sy);
/*
 * Resolve on worker threads (two, each with its own symbolizer, then
 * merged, when the recording is large enough; else one): the UI thread
 * only draws and answers keys.  Until symbols_poll() says true, sy->h is
 * an empty finished hist (the panes show no rows) and symbols_progress
 * follows the workers.  Only before the first step.
 */
void symbols_start(struct symbols *sy);
/* From the UI thread: true once resolved (the workers' hist taken, gen bumped). */
bool symbols_poll(struct symbols *sy);
/* Wait until the hist the workers packed is written to the cache (symbols_free waits too). */
void symbols_cache_wait(struct symbols *sy);
/* Wait until resolved (tests, tools). */
void symbols_wait(struct symbols *sy);
/* Make the rows so far readable (hist_peek) and bump gen. */
void symbols_peek(struct symbols *sy);
/*
 * Where a sample record's own ip is, as perf script prints it
 * ("mix_one+0x14 (cpu)", "[unknown] ([kernel.kallsyms])"), resolved now,
 * whatever the pass has reached (a list shows its visible rows' symbols at
 * once).  Into buf, the ip into *ip; returns buf, or NULL if r is no
 * decodable sample.
 */
struct rec;
struct frame;
/* The resolved frame of a sample record's own ip (now, as above); 0, or -1
 * if r is no decodable sample. */
int symbols_sample_frame(struct symbols *sy, const struct rec *r, struct frame *f, uint64_t *ip);
const char *symbols_sample_where(struct symbols *sy, const struct rec *r, char *buf, size_t n,
    uint64_t *ip);

/*
 * Recount the hist for the scope's zoom, cpus and time steps
 * (hist_rescope_sel) if they changed and symbols are resolved; bumps gen
 * when it did.  Returns 0 (done, or waiting for symbols:
 * scope.time_pending stays set), or -1 when this hist cannot be recounted
 * (Intel PT or branch-stack samples) for time steps or cpus: then they
 * are taken back out of the scope (a zoom alone stays, selected by the
 * panes: scope_sel).
 */
int symbols_apply_scope(struct symbols *sy);
/*
 * The same in steps, for the UI thread: begin starts the recount (its
 * return as symbols_apply_scope's; the scope is what it will be at once),
 * step counts for at most budget seconds and says whether it is done
 * (then gen is bumped), busy says whether one is under way: while it is,
 * nothing may read the hist's counts, rows or scope (the panes).  In diff
 * mode the pair's recount (symbols_pair_scope) is sy's too: stepped after
 * sy's, busy until both are done.  symbols_free ends one under way.
 */
int symbols_scope_begin(struct symbols *sy);
bool symbols_scope_step(struct symbols *sy, double budget);
/* A step of at most npos index positions (tests). */
bool symbols_scope_step_n(struct symbols *sy, size_t npos);
bool symbols_scope_busy(const struct symbols *sy);
/* How far a recount under way is, 0 to 1. */
double symbols_scope_progress(const struct symbols *sy);

/*
 * Diff mode: give the other recording (sy->pair) the part of sy's scope
 * it can take: the event by name, the zoom's DSO, symbol and command by
 * name (one it lacks: none of its samples), the cpus; not its process,
 * thread or time steps (another run, another clock).  Its hist's recount
 * is begun, stepped with sy's (symbols_scope_step).  Returns false when
 * some of sy's scope is sy's alone.
 */
bool symbols_pair_scope(struct symbols *sy);

/*
 * The hist whose rows are the scope's samples (hist_scope_has answers
 * for them: counted for the scope's zoom, cpus and time steps, over the
 * start options), or NULL while it is not (symbols resolving, a recount
 * pending, a hist that cannot be recounted).
 */
const struct hist *symbols_scope_hist(const struct symbols *sy);
/* The off-CPU spans of the recording once symbols are in; NULL before, or without any. */
const struct offcpu *symbols_offcpu(const struct symbols *sy);
/* The parallelism model once symbols are in; NULL before, or without switch events. */
const struct parallel *symbols_parallel(const struct symbols *sy);
/* Is event ev of sy's hist the off-CPU event (its periods are ns off CPU)? */
bool symbols_event_offcpu(const struct symbols *sy, size_t ev);
/*
 * ns of the off-CPU event as the panes' lines say it: "1.675 s off CPU",
 * with " (approximate: each switch-out at the thread's last sample)" when
 * the spans come from switch records.  Returns buf.
 */
const char *symbols_offcpu_text(const struct symbols *sy, uint64_t ns, char *buf, size_t n);
/*
 * The scope's call-path transforms applied: its top-down tree
 * (scope_query), built when first asked for after gen or scope.gen moved;
 * NULL when the scope has no transforms.  The hot functions' rows
 * (cpath_rows_merged) and which samples are left (symbols_scope_has) come
 * from it.
 */
struct cpath;
const struct cpath *symbols_scope_tree(struct symbols *sy);
/*
 * Is the sample at index position pos in the scope's rows
 * (symbols_scope_hist must not be NULL): counted for its zoom, cpus and
 * time steps (hist_scope_has), and its call path left by the transforms?
 */
bool symbols_scope_has(struct symbols *sy, size_t pos);
/*
 * The attr index of the scope's event when the hist has several, else -1
 * (every sample); for the off-CPU event, the attr of its spans' samples
 * (sched_switch's: the switch-outs the events list and the timeline show).
 */
int symbols_scope_attr(const struct symbols *sy);

/*
 * Does the scope leave samples out or count one event of several (a time
 * step, a zoom, cpus, transforms, start options, the scope's event of
 * several)?  When not, every sample counts (the thread table's counts).
 */
bool symbols_scope_on(const struct symbols *sy);
/*
 * Samples of the scope (its event, time steps, cpus, zoom and transforms,
 * over the start options; the off-CPU event's spans) per thread of s's
 * thread table into tsamples (tt->n + 1 entries, zeroed first), as the
 * processes pane and the summary count them.  Returns the scope's samples
 * before the zoom (the total a share is of).  sy may be NULL: every sample.
 */
uint64_t symbols_thread_samples(struct symbols *sy, const struct session *s, uint64_t *tsamples);

/*
 * Diff mode: make old and new a pair (old->pair = new, roles 0 and 1) and
 * resolve both to the end at once, new in a thread of its own (each has
 * its own symbolizer; build them with sym_opts.no_path_cache).
 */
void symbols_run_pair(struct symbols *old, struct symbols *new);
/*
 * Diff mode in the browser: make old and new a pair and start resolving
 * new in a thread of its own; old is resolved by symbols_step in the UI
 * thread, as one recording is.  Until symbols_pair_waiting() says false,
 * nothing but symbols_pair_wait_text reads new (its hist, its symbolizer,
 * its counts) from the UI thread; symbols_free stops and joins the thread.
 */
void symbols_pair_start(struct symbols *old, struct symbols *new);
/*
 * Diff mode: true while sy or its pair is not finished (then the diff
 * panes show symbols_pair_wait_text instead of rows); false without a
 * pair.  Joins the worker once it has finished: from the UI thread only.
 */
bool symbols_pair_waiting(struct symbols *sy);
/* Diff mode: stop NEW's thread if it still runs and wait for it (quitting early). */
void symbols_pair_stop(struct symbols *sy);
/* What the diff waits for: "symbols OLD 45%, NEW resolving" (into buf). */
const char *symbols_pair_wait_text(const struct symbols *sy, char *buf, size_t n);
/*
 * The function node of sy->pair's hist with the name (cpath_func_name)
 * of func of sy's hist, CPATH_NONE if none (or no pair).
 */
uint32_t symbols_pair_func(struct symbols *sy, uint32_t func);
/* The event index of sy->pair's hist with the name of sy's event ev (else the
 * same name but for perf's modifiers, as perf diff pairs), -1 if none. */
int symbols_pair_event(const struct symbols *sy, size_t ev);

/*
 * Diff mode: query q over sy's hist as sy->pair's hist reads it, into out:
 * its event paired by name (symbols_pair_event), its transforms'
 * functions by name (into xf, room for q->nxf; symbols_pair_func), no
 * zoom (processes do not pair).  Returns false (out's event 0) when the
 * pair lacks the event.
 */
struct cpath_query;
struct cpath_xform;
bool symbols_pair_query(struct symbols *sy, const struct cpath_query *q,
    struct cpath_query *out, struct cpath_xform *xf);

/*
 * Downloads from debuginfod servers for the title (of sy and its pair):
 * "debuginfod 12 KiB of 1.2 MiB" while some run, "2 files from
 * debuginfod" once done (into buf); NULL when there were none.  Only the
 * workers download (symbols_start): the UI thread's own symbolizer asks
 * no server, so keys never wait for one.
 */
const char *symbols_dbgd_text(const struct symbols *sy, char *buf, size_t n);

/* Samples resolved so far (the workers' count while they run). */
uint64_t symbols_resolved(const struct symbols *sy);
/* Share of the samples added, 0..1 (1 when done). */
double symbols_progress(const struct symbols *sy);

#endif
