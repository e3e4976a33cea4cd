/*
 * hist.h: the aggregations built from resolved samples, as perf report
 * computes them: hot-function tables per event (self and children, keyed
 * by any list of sort keys), call paths (symbolize/cpath.h), a
 * top-down call tree per event (comm at the first level) and folded stacks.
 *
 * A struct hist is fed samples either by hist_add_session() (walks the
 * session's time-ordered index once, decodes each sample in place and
 * resolves each distinct (address space, cpumode, ip) once) or by
 * hist_add() (one sample given as frames: for tests and other producers).
 * hist_finish() then computes totals; rows, nodes and tree nodes are
 * addressed by 32-bit ids.  The hist owns everything it returns (strings
 * too) until hist_free(); it borrows the session and symbolizer, which
 * must outlive it.  Nothing here prints.
 *
 * Semantics (perf report 6.1):
 *  - overhead is the sample PERIOD over the event's total period; the
 *    samples column counts samples;
 *  - children: the sample's own entry plus one entry per callchain frame,
 *    each distinct entry of a sample credited once (recursion counts once);
 *    entries compare by every sort key; with a symbol key a resolved
 *    function is keyed by (DSO, symbol), an unresolved one by its address
 *    (relative to the DSO for the sample's own ip, as recorded for
 *    callchain frames, as perf keys them);
 *  - except where perf's own entry tree gives other entries: children
 *    tables keyed by sym (with only dso, cpu and pid besides) over a
 *    session with --call-graph dwarf stacks that the symbolizer unwinds.
 *    Their chains carry inlined frames, which perf 6.1 compares by name
 *    and real functions by address, so its tree of entries (perf's
 *    hists__findnew_entry) can miss an entry it has and make a second
 *    one of the same function.  Such hists find entries through a
 *    red-black tree with perf's comparison (symbolize/perftree.h), adding
 *    each sample as perf's children iterator does (own entry, then the
 *    frames in caller order, asking for inline levels in that order too),
 *    so they have perf's entries, duplicates included.  They do not merge
 *    (hist_merge), and hist_rows_merged() sums duplicates into one row;
 *  - max_stack limits the callchain frames used (perf's default: 127).
 */
#ifndef PERFNAV_SYMBOLIZE_HIST_H
#define PERFNAV_SYMBOLIZE_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "symbolize/filter.h"
#include "symbolize/symbolizer.h"

/*
 * Sort keys: each is one entry of the table in symbolize/sortkey.c (name,
 * header, width, extract, compare, text...), indexed by this enum.  As in
 * perf, "pid" groups by thread ("tid:comm"; "tid" is accepted for it too);
 * "process" groups by process.
 */
enum hist_key {
	HIST_KEY_COMM,		/* comm */
	HIST_KEY_PID,		/* process */
	HIST_KEY_TID,		/* pid */
	HIST_KEY_DSO,		/* dso */
	HIST_KEY_SYM,		/* sym */
	HIST_KEY_CPU,		/* cpu */
	HIST_KEY_SRCLINE,	/* srcline */
	/* branch mode (perf report --branch-stack): a row per branch entry */
	HIST_KEY_DSO_FROM,	/* dso_from */
	HIST_KEY_DSO_TO,	/* dso_to */
	HIST_KEY_SYM_FROM,	/* symbol_from */
	HIST_KEY_SYM_TO,	/* symbol_to */
	HIST_KEY_CYCLES,	/* cycles */
	/* memory mode (perf report --mem-mode): the sample's data address */
	HIST_KEY_SYM_DADDR,	/* symbol_daddr */
	HIST_KEY_DSO_DADDR,	/* dso_daddr */
	HIST_KEY_MEM,		/* mem */
	HIST_KEY_TLB,		/* tlb */
	HIST_KEY_SNOOP,		/* snoop */
	HIST_KEY_LOCKED,	/* locked */
	HIST_KEY_BLOCKED,	/* blocked */
	HIST_KEY_PAGE_SIZE,	/* data_page_size */
	HIST_KEY_PHYS_DADDR,	/* phys_daddr: PHYS_ADDR */
	HIST_KEY_DCACHELINE,	/* dcacheline: the data address's cache line */
	/* any mode (perf's common keys): the sample's WEIGHT and latency */
	HIST_KEY_LOCAL_WEIGHT,	/* local_weight: the sample's WEIGHT */
	HIST_KEY_WEIGHT,	/* weight: the same key, its sum over the row shown */
	HIST_KEY_LOCAL_INS_LAT,	/* local_ins_lat: WEIGHT_STRUCT's instruction latency */
	HIST_KEY_INS_LAT,	/* ins_lat: the same key, its sum over the row shown */
	HIST_KEY_TRACE,		/* trace: a tracepoint sample's payload as perf script prints it */
	HIST_KEY_STATE,		/* state: an off-CPU span's prev_state (S, D, R+...; hist_opts.offcpu) */
	HIST_KEY_PARALLELISM,	/* parallelism: threads running when sampled (hist_opts.parallel) */
	HIST_KEY_WAKER,		/* waker: the thread whose wakeup ended an off-CPU span (offcpu.h) */
	HIST_KEY_FILE,		/* file: the recording a sample came from (perfnav merge; core/origin.h) */
	HIST_KEY_COUNT
};

#define HIST_MAX_KEYS	12

/* Is k a key of branch mode (dso_from...cycles) or of memory mode (symbol_daddr...dcacheline)? */
bool hist_key_branch(enum hist_key k);
bool hist_key_mem(enum hist_key k);

/* Name of a key ("comm"), its column header ("Command"), width (0: last). */
const char *hist_key_name(enum hist_key k);
const char *hist_key_header(enum hist_key k);
int hist_key_width(enum hist_key k);

/*
 * Parse "comm,dso,sym" into keys (at most HIST_MAX_KEYS).  Returns the
 * number of keys, or -1 with *bad pointing at the unknown name.  As perf
 * on x86, "local_p_stage_cyc" and "p_stage_cyc" (POWER's pipeline stage
 * cycles) are accepted and left out.
 */
int hist_parse_keys(const char *list, enum hist_key *keys, const char **bad, size_t *badlen);

/* perf report's branch mode: as the recording (on with branch stacks), off, on. */
enum hist_branch {
	HIST_BRANCH_AUTO,
	HIST_BRANCH_OFF,	/* --no-branch-stack: a row per sample */
	HIST_BRANCH_ON,		/* --branch-stack */
};

struct offcpu;
struct parallel;
struct origins;

struct hist_opts {
	enum hist_key	 keys[HIST_MAX_KEYS];
	unsigned	 nkeys;		/* 0: comm,dso,sym */
	bool		 children;	/* accumulate callchains (perf --children) */
	bool		 callgraph;	/* also build the call tree (comm first; folded) */
	bool		 fold_addresses;	/* hist_folded: a frame without a symbol by its address
					 * as the call-path views name it (cpath_func_name),
					 * not [unknown] or [dso] */
	int		 event;		/* attr index to keep, -1: every event */
	unsigned	 max_stack;	/* callchain frames used; 0: no limit */
	bool		 record_self;	/* hist_add_range: keep each sample's self entry
					 * (hist_sample_entry; 4 bytes per index entry) */
	bool		 paths;		/* keep every sample's call path (symbolize/cpath.h);
					 * with record_self, each sample's too */
	bool		 paths_address;	/* paths: frames keyed by address, not by function
					 * (perf's -g ...,address; cpath.h) */
	bool		 caller_order;	/* perf's -g caller: perf walks a chain root first,
					 * so inline levels of unwound frames are asked for
					 * in that order (which decides their names) */
	bool		 chain_root_first;	/* perf's callchain order is caller (its default
					 * with --children): a frame in no map takes the
					 * [k]/[.] of the frame on its caller side, not its
					 * callee's (hist_chain_cpumode) */
	enum hist_branch branch;	/* perf's branch mode: a row per branch entry,
					 * period 1, at its target (dso, sym) and source */
	bool		 branch_history;	/* perf's --branch-history: each sample's branch
					 * stack goes into its call path (symbolize/brhist.h;
					 * with paths_address); cpath_node_branch */
	bool		 mem_mode;	/* perf's --mem-mode: a sample's period is its
					 * WEIGHT (1 if none); memory keys valued */
	const struct hist_filter *filter;	/* NULL: every sample; else hist_add_range
					 * leaves out samples outside its time ranges
					 * and cpus, and keeps those outside its pids,
					 * tids and comms out of rows, paths and trees
					 * but in the event's totals (symbolize/filter.h);
					 * borrowed: it must outlive the hist */
	const struct offcpu *offcpu;	/* NULL: the samples; else, in their place,
					 * the spans of this off-CPU model
					 * (symbolize/offcpu.h): each its switch-out
					 * sample with the span's ns as period, in the
					 * event "off-cpu"; borrowed, as filter */
	bool		 offcpu_beside;	/* with offcpu: the samples as without it, and
					 * each span besides, at its switch-out, in
					 * the event "off-cpu" (the browser's: every
					 * event and off-CPU time in one hist, which
					 * hist_rescope recounts too) */
	const struct parallel *parallel;	/* NULL: no latency (0) and parallelism 1;
					 * else each sample's parallelism (the key
					 * parallelism, the filter's levels) and
					 * latency (symbolize/parallel.h); borrowed */
	bool		 by_latency;	/* rows sorted by latency first (perf's
					 * report --latency), then as otherwise; the
					 * percent limit stays of the period, as perf's */
};

/* perf report's default --max-stack (the kernel's perf_event_max_stack). */
#define HIST_DEFAULT_MAX_STACK	127

/*
 * The values of the keys only some sorts have (source lines, branch,
 * memory, tracepoint and off-CPU modes, latency, merged inputs), kept
 * once per distinct combination: an entry holds its combination's id
 * (0: every such value 0, as in a plain hot-function table).
 */
#define HIST_XKEY_FIELDS \
	uint32_t	srcline;	/* string id */ \
	uint32_t	from_dso;	/* branch source: DSO id or DSO_NONE */ \
	uint32_t	from_node;	/* branch source: function node */ \
	uint32_t	to_node;	/* branch target (dso_to is dso): function node */ \
	uint32_t	cycles;		/* branch entry's cycles (0: none recorded) */ \
	uint32_t	daddr_dso;	/* data address: DSO id or DSO_NONE */ \
	uint32_t	daddr_node;	/* data address: function node */ \
	uint32_t	dcl;		/* string id of the cache line's key (hist_mem_dcl) */ \
	uint64_t	data_src;	/* DATA_SRC (perf_mem_data_src) */ \
	uint64_t	page_size;	/* DATA_PAGE_SIZE */ \
	uint64_t	weight;		/* the sample's WEIGHT (local_weight, weight) */ \
	uint64_t	phys;		/* PHYS_ADDR (phys_daddr) */ \
	uint32_t	ins_lat;	/* WEIGHT_STRUCT's var2 (local_ins_lat, ins_lat) */ \
	uint32_t	trace;		/* string id + 1 of the payload's text; 0: not a tracepoint */ \
	uint32_t	state;		/* an off-CPU span's prev_state + 1; 0: none */ \
	uint32_t	parallelism;	/* the sample's (hist_opts.parallel); 0: not a key */ \
	uint32_t	waker_comm;	/* an off-CPU span's waker: its comm's string id + 1; */ \
	int32_t		waker_tid;	/* and tid (waker_comm 0: none, or no key) */ \
	uint32_t	file;		/* the input of a merged recording (origins index) */ \
	uint32_t	pad;
struct hist_xkey {
	HIST_XKEY_FIELDS
};

/*
 * A row of a hot-function table: one combination of key values.  Kept
 * small (one per function, thread and event, with children, in the
 * browser's table): the keys most sorts have, then the id of the others'.
 */
struct hist_entry {
	/* Key values (unused keys 0): string ids, ids, numbers. */
	uint32_t	event;		/* index into hist's events */
	uint32_t	comm;		/* string id */
	int32_t		pid, tid;
	uint32_t	cpu;
	uint32_t	dso;		/* DSO id or DSO_NONE */
	uint32_t	node;		/* function node id (hist_node) */
	uint32_t	xkey;		/* its other keys' values (hist_entry_xkey) */
	/* Counts. */
	uint64_t	period, samples;		/* self */
	uint64_t	acc_period, acc_samples;	/* children (inclusive) */
	uint64_t	latency, acc_latency;	/* self and children: period * 1000 / parallelism
						 * (hist_opts.parallel; else 0) */
	uint32_t	stamp;		/* last sample that credited acc (dedup) */
	uint32_t	label_comm;	/* comm of its first sample (for pid/tid labels) */
	int32_t		label_tid;	/* tid of its first sample */
	uint32_t	label_sym;	/* string id + 1 of its symbol column as its first
					 * sample had it (own_nodes samples), else 0 */
	uint32_t	label_phys;	/* memory mode: string id + 1 of the phys_daddr and */
	uint32_t	label_dcl;	/* dcacheline texts of its first sample, else 0 */
};

/* A function: a symbol of a DSO, or an unresolved address. */
struct hist_node {
	struct frame	f;		/* a frame that resolved to it */
	uint32_t	label;		/* string id: "[.] name", "[k] 0xffff..." */
	uint32_t	fold;		/* string id: "name", "[libc.so.6]", "[unknown]" */
	uint32_t	owner;		/* 0, or event index + 1: an unresolved address of
					 * that event alone (hist_sample.own_nodes) */
	bool		dso_mixed;	/* an unresolved address met in more than one DSO
					 * (f.dso is the first's): views say "[several]" */
};

/* One event (attr) that has samples. */
struct hist_event {
	int		attr;		/* index in the session's attrs, or as given */
	uint32_t	name;		/* string id */
	uint64_t	total_period;
	uint64_t	total_latency;	/* hist_opts.parallel: the samples' latencies */
	uint64_t	nsamples;
	uint32_t	tree_root;	/* call tree root (callgraph), else UINT32_MAX */
	uint32_t	comm_width;	/* perf's Command column width (see hist_key_text) */
	uint32_t	dso_from_width;	/* branch mode: perf's widths of dso_from and dso_to, */
	uint32_t	dso_to_width;	/* which cut longer names (see hist_key_text) */
};

/*
 * A call tree node: one function in one calling context (path from the
 * comm at the first level down).  inc_* count samples whose stack passes
 * through it, self_* those that end in it.
 */
struct hist_tnode {
	uint32_t	parent;		/* UINT32_MAX for an event root */
	uint32_t	node;		/* function node, or UINT32_MAX for a comm level */
	uint32_t	name;		/* string id (comm or fold name) */
	uint32_t	first_child, next_sibling;	/* UINT32_MAX ends */
	uint64_t	self_period, self_samples;
	uint64_t	inc_period, inc_samples;
	uint32_t	stamp;
};

/* Per DSO, how many frames did not resolve and why. */
struct hist_why {
	uint32_t	dso;		/* DSO id or DSO_NONE */
	uint64_t	self[SYM_WHY_COUNT];	/* sample ips */
	uint64_t	chain[SYM_WHY_COUNT];	/* callchain frames */
};

struct hist;

/*
 * A hist over a session and its symbolizer (both may be NULL for
 * hist_add() use; then symbols are labelled "[.] s<ID>" / DSOs "d<ID>").
 */
struct hist *hist_new(const struct session *s, struct symbolizer *z, const struct hist_opts *o);
void hist_free(struct hist *h);

/*
 * Walk every sample of the session (in time order) into the hist.
 * Returns the number of samples added; undecodable samples are skipped
 * and counted in *skipped (may be NULL).
 */
uint64_t hist_add_session(struct hist *h, uint64_t *skipped);

/*
 * The same walk over the index positions [from, to) only, for adding a
 * session in slices (the TUI symbolizes between key presses): consecutive
 * ranges that cover the index, in order, give exactly what one
 * hist_add_session() gives.  Returns the samples added; *skipped (may be
 * NULL) gets this range's undecodable samples.
 */
uint64_t hist_add_range(struct hist *h, size_t from, size_t to, uint64_t *skipped);

/*
 * Add what hist from holds into hist into, as if into had also been fed
 * from's samples after its own: a session is split at an index position,
 * each part added (hist_add_range) into a hist of its own with its own
 * symbolizer (symbolizers are not thread-safe; each hist must start
 * empty, its resolve cache then starts empty too, so it resolves each
 * address as of its own records), the hists are merged in index order and
 * into is finished: its rows, their order, labels, totals and failure
 * counts are then those of one pass.  Children sums are exact: a sample
 * credits an entry once, and it lies in one part.  Ids of from (events,
 * strings, DSOs, symbols, nodes) are translated into into's.  into must
 * get no more samples afterwards; from is spent once merged (its entries
 * go as soon as they are in into's, for the peak's sake): only free it.
 * Both need the same session and options, callgraph off (call trees do
 * not merge; call paths do), record_self only with paths over arrays
 * shared by hist_share_positions, neither finished.  Returns 0; -1 (nothing changed) when refused: options differ
 * or are not supported (perf's entry tree, see above, depends on the order
 * of every sample), or the symbolizers number DSOs differently; -2
 * (into half-merged: discard it) if a symbol of from is not found in
 * into's symbolizer.
 */
int hist_merge(struct hist *into, struct hist *from);
/*
 * record_self with paths, before two fresh parts of one pass run: b writes
 * each sample's entry, row and period into arrays a owns (disjoint
 * positions, so the parts may run at once), and hist_merge(a, b) then
 * translates b's ids there.  Nothing happens for other options.
 */
void hist_share_positions(struct hist *a, struct hist *b);

/*
 * May a pass over s with options o be cut in two (hist_add_range on each
 * part with a symbolizer of its own, then hist_merge) and give one pass's
 * rows?  If so, true with *mid the index position of a sample at or after
 * the middle.  False for Intel PT sessions (their samples are added after
 * the pass), the call graph, record_self without paths, and children over
 * DWARF-unwound stacks (inline names depend on the order a symbolizer is
 * asked in, and perf's entry tree on the order of every sample).
 */
bool hist_split_point(const struct session *s, const struct hist_opts *o, size_t *mid);
/*
 * Has s enough samples for a second core to pay (200,000; the environment
 * variable PERFNAV_PARALLEL_MIN, a sample count, 0: always, overrides it)?
 * hist_parallel_split: that, and hist_split_point's cut for options o.
 */
bool hist_parallel_worth(const struct session *s);
bool hist_parallel_split(const struct session *s, const struct hist_opts *o, size_t *mid);

/*
 * With record_self: the entry a sample at index position pos was credited
 * to as its own (self) entry, or UINT32_MAX (not a sample, not added yet,
 * skipped, branch mode, or record_self off).
 */
uint32_t hist_sample_entry(const struct hist *h, size_t pos);
/*
 * With record_self and paths: the period the sample at index position pos
 * was counted with (the one kept for recounts), or 0 when it has none.
 */
uint64_t hist_sample_period(const struct hist *h, size_t pos);

/*
 * Add one sample: its event (attr index; name used the first time), comm,
 * pid/tid/cpu, period, the frame of its ip (self) and its callchain frames
 * leaf first (chain, nchain; may be 0).
 */
struct hist_sample {
	int		 attr;
	const char	*event_name;
	const char	*comm;
	int32_t		 pid, tid;
	uint32_t	 cpu;
	bool		 has_cpu;	/* else the filter's cpus leave it out */
	uint32_t	 parallelism;	/* 0: none (latency 0, the filter's levels let it in) */
	uint64_t	 time;		/* 0: none (the filter's time ranges let it in) */
	uint64_t	 period;
	const struct frame *self;
	const struct frame *chain;
	size_t		 nchain;
	/*
	 * An unresolved self address gets a node of this event alone, and
	 * each row its own [k]/[.]: that of the row's first sample, as perf's
	 * per-event tables label them (for events made up from a trace, whose
	 * samples at one address may differ in mode).  hist_merge() refuses a
	 * hist with such nodes.
	 */
	bool		 own_nodes;
};
void hist_add(struct hist *h, const struct hist_sample *smp);

/*
 * Recount a finished hist for the samples filter f chooses (NULL: every
 * sample the hist was fed), from what it kept of each sample: no sample
 * is decoded and no frame resolved again.  Afterwards every count (the
 * events' totals, entries' self and children, the call paths' rows; so
 * hist_rows, hist_rows_merged, cpath_build and what is built on them) is
 * what a pass with hist_opts.filter f would give, over the samples the
 * first pass kept (its own filter applies first); entries without samples
 * in f leave the rows, events keep their places (an event may have no
 * samples in f).  Needs record_self with paths and the session walk
 * (hist_add_range) as the only source of samples; not with srcline keys,
 * perf's entry tree, address-keyed paths or branch mode, where one
 * sample's entries are not its path's, nor for f's DSOs and symbols (they
 * test a sample's own address, which is not kept).  f is read, not kept.  Returns 0,
 * or -1 (nothing changed) when this hist cannot be recounted.
 */
int hist_rescope(struct hist *h, const struct hist_filter *f);

/*
 * The same, and into rows only the samples whose own entry (the entry of
 * the sample's own address: its comm, thread, DSO and symbol) sel takes
 * (NULL: all), as f's pids, tids and comms: the others stay in their
 * event's totals, as perf's --pid, --tid, --comms, --dsos and --symbols
 * keep them.  Needs the keys sel tests (tid for pid and tid, comm, dso,
 * sym) in the hist.  Returns 0, or -1 (nothing changed).
 */
struct hist_select;
int hist_rescope_sel(struct hist *h, const struct hist_filter *f, const struct hist_select *sel);

/*
 * hist_rescope_sel in steps, for a caller that must not wait for it whole
 * (the browser's UI thread): begin zeroes the counts and returns the job
 * (NULL, nothing changed, where hist_rescope_sel returns -1); each step
 * counts at most npos more index positions and says whether all are;
 * end(finish) completes what is left and makes the counts whole, or (not
 * finish: the hist is about to be freed) leaves them partial.  Between
 * begin and end the hist's counts, rows and scope are not to be read; f
 * and sel must live until end.  done/total: the positions counted and to
 * count, for a progress.
 */
struct hist_rescope_job;
struct hist_rescope_job *hist_rescope_begin(struct hist *h, const struct hist_filter *f,
    const struct hist_select *sel);
bool hist_rescope_step(struct hist_rescope_job *j, size_t npos);
void hist_rescope_progress(const struct hist_rescope_job *j, size_t *done, size_t *total);
void hist_rescope_end(struct hist_rescope_job *j, bool finish);

/*
 * Is the sample at index position pos in the rows of the last recount
 * (hist_rescope, hist_rescope_sel), or before any, in the rows of the
 * finished hist (its filter's)?  False for a position that is no sample
 * the hist took; true for every position when the hist keeps no row per
 * sample (it cannot tell).
 */
bool hist_scope_has(const struct hist *h, size_t pos);
/* Can hist_scope_has tell (a finished hist that can be recounted: a row per sample, its path's)? */
bool hist_scope_known(const struct hist *h);

/* Sort rows, compute the call tree's order.  Call once after adding. */
void hist_finish(struct hist *h);

/*
 * Make what was added so far readable (events, rows, merged rows) before
 * hist_finish(), for showing a table that fills in while samples are
 * still being added; may be called any number of times, adding goes on
 * after it.  The call tree's sibling order is left to hist_finish().
 */
void hist_peek(struct hist *h);

/* The options h was made with (nkeys never 0: the default keys filled in). */
const struct hist_opts *hist_opts(const struct hist *h);

/* Events with samples, in attr order. */
size_t hist_nevents(const struct hist *h);
const struct hist_event *hist_event(const struct hist *h, size_t i);
/* Event index for a name, or -1. */
int hist_event_find(const struct hist *h, const char *name);
/* Is event ev a clock (cpu-clock, task-clock, with any modifier): its periods nanoseconds? */
bool hist_event_clock(const struct hist *h, size_t ev);
/* Are event ev's periods nanoseconds: a clock, or the off-CPU time (OFFCPU_EVENT_NAME)? */
bool hist_event_in_ns(const struct hist *h, size_t ev);

/*
 * The rows of event ev, sorted as perf sorts them (children, then self
 * overhead, descending; ties by key text), rows under min_pct percent of
 * the event's total hidden (children % when children are on).  Returns
 * the count; *rows (owned by the hist, valid until the next call) gets
 * entry ids.
 */
size_t hist_rows(struct hist *h, size_t ev, double min_pct, const uint32_t **rows);
const struct hist_entry *hist_entry_get(const struct hist *h, uint32_t id);
/* The values of e's keys beyond its own fields (e an entry of h, or of its rows). */
const struct hist_xkey *hist_entry_xkey(const struct hist *h, const struct hist_entry *e);

/*
 * Which entries hist_rows_merged() takes: every condition set must hold
 * (pid and tid need those keys in the hist; dso and node need dso / sym).
 */
struct hist_select {
	bool		 by_pid, by_tid, by_dso, by_node, by_comm, by_file;
	int32_t		 pid, tid;
	uint32_t	 dso;		/* DSO id or DSO_NONE */
	uint32_t	 node;		/* function node id */
	uint32_t	 comm;		/* string id */
	uint32_t	 file;		/* input (the key file's value; a hist with that key) */
};

/* Bits of hist_rows_merged()'s keep. */
#define HIST_KEEP(k)	(1u << (k))

/*
 * The rows of event ev over the entries sel takes (NULL: all), merged by
 * the keys in keep (HIST_KEEP(HIST_KEY_COMM) | ...): entries that agree
 * on those keys sum into one row.  Sums are exact for self and children
 * alike, since a sample has one comm, pid, tid and cpu and credits an
 * entry once; so a hist keyed comm,tid,dso,sym gives the comm,dso,sym
 * table of the whole recording, of one process or of one thread.  Keys
 * not kept are zero in a merged row, except pid and tid, which are those
 * of the biggest entry merged (by children, else self period) and
 * label_comm / label_tid, from the same entry.  Sorted and limited by
 * min_pct as hist_rows() (ties: the order the first entry was made).
 * Returns the count; *out (owned by the hist, valid until the next call)
 * gets pointers to the rows.
 */
size_t hist_rows_merged(struct hist *h, size_t ev, const struct hist_select *sel, unsigned keep,
    double min_pct, const struct hist_entry *const **out);
/*
 * The same in steps (a large hist's merge, off the UI's critical path):
 * begin (its ticket; sel is borrowed until the end), steps of n entries
 * each until one returns true, then the rows of hist_rows_merged().  One
 * merge at a time per hist: a begin, or a hist_rows_merged() or
 * hist_rows_self() call, ends the one under way, whose ticket then fails
 * (a step returns true, the end returns SIZE_MAX and no rows: begin
 * again).  hist_rows_progress: entries merged and to merge.
 */
unsigned hist_rows_begin(struct hist *h, size_t ev, const struct hist_select *sel, unsigned keep);
bool hist_rows_step(struct hist *h, unsigned ticket, size_t n);
size_t hist_rows_end(struct hist *h, unsigned ticket, double min_pct,
    const struct hist_entry *const **out);
void hist_rows_progress(const struct hist *h, unsigned ticket, size_t *done, size_t *total);

/*
 * hist_rows_merged()'s rows by self alone, as a table of overhead: only
 * rows with samples of their own (sel's, in the event), those under min_pct
 * percent of self hidden, sorted by self period, descending; ties by the
 * kept keys' text (hist_key_text, in key order), then as first made.
 * Same ownership as hist_rows_merged().
 */
size_t hist_rows_self(struct hist *h, size_t ev, const struct hist_select *sel, unsigned keep,
    double min_pct, const struct hist_entry *const **out);

/*
 * The string id of command name among h's rows (of any event, in the
 * counts as they are), or UINT32_MAX when no row is of it.
 */
uint32_t hist_comm_find(struct hist *h, const char *name);

/* Percentages of an entry against its event's total. */
double hist_self_pct(const struct hist *h, const struct hist_entry *e);
double hist_children_pct(const struct hist *h, const struct hist_entry *e);
/* The same of its latency against its event's total latency (perf's Latency columns). */
double hist_self_lat_pct(const struct hist *h, const struct hist_entry *e);
double hist_children_lat_pct(const struct hist *h, const struct hist_entry *e);

/*
 * Text of key k of an entry as perf report prints it (comm; "  6505:comm"
 * for pid/tid; short DSO name; "[.] name"; cpu number; "file.c:12").
 * As perf, a comm is cut to the Command column's width, which perf sizes
 * by the last comm of each row's thread (so "perf-exec" before an exec of
 * "lsattr" prints as "perf-ex").  Returns buf.
 */
const char *hist_key_text(const struct hist *h, const struct hist_entry *e, enum hist_key k,
    char *buf, size_t n);

/*
 * The name of input file (the key file: perfnav merge's input, core/origin.h;
 * the recording's path when it is not merged), "[no input]" past them.
 */
const char *hist_file_name(const struct hist *h, uint32_t file);
/* How many inputs the recording merges (1 when it is not merged). */
size_t hist_nfiles(const struct hist *h);
/* The input (the key file's value) of the record at location loc. */
uint32_t hist_file_of(const struct hist *h, uint64_t loc);
/* The recording's inputs (core/origin.h), owned by h: what the key file's values index. */
const struct origins *hist_origins(const struct hist *h);

/* An off-CPU span's prev_state as the state key shows it ("S", "D", "R+", "S|D"). */
void hist_state_text(uint32_t state, char *buf, size_t n);

/* A string by id. */
const char *hist_str(const struct hist *h, uint32_t id);
/* Function nodes. */
size_t hist_nnodes(const struct hist *h);
const struct hist_node *hist_node_get(const struct hist *h, uint32_t id);

/* Call tree (callgraph only): node by id; children come sorted by inc_period. */
const struct hist_tnode *hist_tnode_get(const struct hist *h, uint32_t id);

/*
 * Folded stacks of event ev ("comm;outer;...;inner COUNT"), one call per
 * line with the line's text (NUL-terminated, no newline) and its count
 * (samples, or period if use_period).  Stops when fn returns non-zero.
 */
typedef int (*hist_fold_fn)(void *arg, const char *line, uint64_t count);
int hist_folded(struct hist *h, size_t ev, bool use_period, hist_fold_fn fn, void *arg);

/* Per-DSO failure counts (every DSO with at least one failed frame). */
size_t hist_whys(const struct hist *h, const struct hist_why **out);

/* Branch mode: perf's branch statistics of the entries made rows (symbolize/brhist.h). */
struct brstat;
const struct brstat *hist_branch_stat(const struct hist *h);

#endif
