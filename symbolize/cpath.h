/*
 * cpath.h: call paths and the trees made of them.
 *
 * A hist built with hist_opts.paths keeps, per event, every sample's call
 * path: its callchain frames as function nodes (hist_node_get), from the
 * outermost caller down to the frame the sample was taken in, inline
 * levels of DWARF-unwound frames included as perf shows them, recursion
 * kept as recorded.  A sample without a callchain has the one-frame path
 * of its own function.  The paths are stored once, as a tree keyed by
 * (parent, function), with per (path, own entry) the samples and period
 * that ended there; everything below is built from that on demand:
 *
 *   - the top-down tree (roots are the outermost callers), the bottom-up
 *     tree (roots are the functions samples were taken in, their children
 *     the callers), each node with self and total samples and period;
 *   - restricted to the samples of one own entry (perf report's per-entry
 *     call graph), or of the own entries a struct hist_select takes
 *     (a process, thread or DSO zoom);
 *   - after transforms, applied to every path in the order given: focus
 *     on a function, merge a function into its callers, drop the samples
 *     through a function, collapse direct recursion, keep the callers of
 *     a function.
 *
 * A node's total is the sum of the self of the nodes below it and its
 * own: no child ever counts more than its parent.  A struct cpath is a
 * snapshot: it borrows nothing from the hist but function node ids (valid
 * for the hist's life) and may outlive later additions to it.
 */
#ifndef PERFNAV_SYMBOLIZE_CPATH_H
#define PERFNAV_SYMBOLIZE_CPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symbolize/brhist.h"
#include "symbolize/hist.h"

#define CPATH_NONE	UINT32_MAX

/* One function in one calling context of a built tree.  Node 0 is the root. */
struct cpath_node {
	uint32_t	parent;		/* CPATH_NONE at the root */
	uint32_t	func;		/* function node id (with hist_opts.paths_address an
					 * address node: cpath_func_node, cpath_func_name);
					 * CPATH_NONE at the root */
	uint32_t	first_child;	/* children by total period, descending; CPATH_NONE ends */
	uint32_t	next_sibling;
	uint32_t	depth;		/* 0 at the root */
	uint64_t	self_period, self_samples;	/* paths that end here */
	uint64_t	total_period, total_samples;	/* paths through here (self included) */
};

/* A transform of every path (see cpath_query). */
enum cpath_op {
	CPATH_FOCUS,		/* keep the part from the outermost frame of func down;
				 * paths without func go */
	CPATH_MERGE,		/* remove func's frames: its callees and self go to its caller */
	CPATH_DROP,		/* paths through func go */
	CPATH_NORECURSE,	/* a run of frames of one function becomes one (func unused) */
	CPATH_CALLERS,		/* keep the part from the root down to the innermost frame of
				 * func (its callers); paths without func go */
};

struct cpath_xform {
	enum cpath_op	op;
	uint32_t	func;
};

/* Which paths of which samples, transformed how, in which direction. */
struct cpath_query {
	size_t			 ev;		/* event index (hist_event) */
	const struct hist_select *sel;		/* samples whose own entry sel takes; NULL: all */
	uint32_t		 entry;		/* only samples of this own entry; CPATH_NONE: any */
	/*
	 * With entry (of a hist with the sym key): also the samples of other
	 * own entries whose path passes through entry's function and that agree
	 * with entry on the keys that are not the frame's (event, comm, pid,
	 * tid, cpu), each with the part of its path from that function on:
	 * down to the leaf from its outermost frame (top-down), up to the root
	 * from its innermost one (bottom-up).  Samples of entry itself keep
	 * their whole path.  This is perf report's call graph of an entry with
	 * --children.
	 */
	bool			 through;
	bool			 chained_only;	/* leave out samples that had no callchain */
	const struct cpath_xform *xf;		/* applied to each path in order */
	size_t			 nxf;
	bool			 bottom_up;	/* paths inserted leaf first */
	/*
	 * with_ev2: the samples of event ev2 too, in the same tree (a wall
	 * view: an on-CPU event in ns and off-cpu); cpath_node_part() says
	 * how much of each node is ev2's.
	 */
	bool			 with_ev2;
	size_t			 ev2;
};

struct cpath;

/*
 * Build the tree a query asks for (hist built with paths; finished, or
 * peeked).  Returns it (never NULL: an empty tree has the root alone).
 */
struct cpath *cpath_build(struct hist *h, const struct cpath_query *q);
void cpath_free(struct cpath *t);

/*
 * The same build in steps, for a caller that must answer between them
 * (the browser's panes): cpath_job_new() copies the query (its selection
 * and transforms too) and finds the rows to take; cpath_job_step() takes
 * up to nrows of them, then links the tree: true once it is whole.  h
 * must not change between the steps (a new scope or symbols: free the
 * job, which touches nothing of h, and start another).  The share of the
 * rows taken (0..1) says how far it is; cpath_job_take() finishes the
 * build if need be and returns the tree, freeing the job.
 */
struct cpath_job;
struct cpath_job *cpath_job_new(struct hist *h, const struct cpath_query *q);
bool cpath_job_step(struct cpath_job *j, size_t nrows);
double cpath_job_share(const struct cpath_job *j);
struct cpath *cpath_job_take(struct cpath_job *j);
void cpath_job_free(struct cpath_job *j);

/* Nodes: ids 0 (the root) .. cpath_count() - 1, parents before children. */
size_t cpath_count(const struct cpath *t);
const struct cpath_node *cpath_node(const struct cpath *t, uint32_t id);
/*
 * With hist_opts.branch_history (and no transforms): what the frames of
 * node id carried (brhist_text names it), else NULL.
 */
const struct brh_count *cpath_node_branch(const struct cpath *t, uint32_t id);
/*
 * Each node's place in perf's order of flat and folded paths of equal
 * self weight (by id): the nodes after those below them, siblings by perf's
 * key (as their equal-weight order), greatest first.  Made on first use.
 */
const uint32_t *cpath_flat_ranks(const struct hist *h, struct cpath *t);
/*
 * hist_rows_merged()'s table of event ev (the event t was built for) after
 * t's transforms, over the samples t took (its query's zoom and the hist's
 * scope): merged by the keys in keep, each row's self the samples whose
 * transformed path ends in its function, its children those whose path
 * passes through it (once per path).  With no transforms the counts are
 * hist_rows_merged()'s over the same samples (rows of equal counts may come
 * in another order).  t must be top-down.  Same ownership and sorting as
 * hist_rows_merged(); 0 rows for a bottom-up t.
 */
size_t cpath_rows_merged(struct hist *h, const struct cpath *t, size_t ev, unsigned keep,
    double min_pct, const struct hist_entry *const **out);
/* Of node id's total period, the part that is the query's ev2's (0 without with_ev2). */
uint64_t cpath_node_part(const struct cpath *t, uint32_t id);
/* Was the tree built bottom-up? */
bool cpath_bottom_up(const struct cpath *t);

/*
 * The self a view of the tree shows for node id, the samples taken in its
 * function on its path: top-down, the paths that end at the node (its
 * self_*); bottom-up, at the top level (the functions samples were taken
 * in), every path through it, which is the function's own self in the
 * query's scope, and below it nothing: a caller is where no sample of the
 * path was taken.  Writes *period and *samples (0 when there is none) and
 * returns whether the node has a self to show (false: a bottom-up caller).
 * The node's self_* fields keep perf's callchain meaning (the paths that
 * end there), which perf's callee graphs print.
 */
bool cpath_view_self(const struct cpath *t, uint32_t id, uint64_t *period, uint64_t *samples);

/*
 * The functions from the root's child down to node id (the path as the
 * tree reads it): writes at most max, returns the depth of id.
 */
size_t cpath_path(const struct cpath *t, uint32_t id, uint32_t *funcs, size_t max);

/* The node reached from the root by funcs[0..n), or CPATH_NONE. */
uint32_t cpath_find(const struct cpath *t, const uint32_t *funcs, size_t n);

/*
 * The node of t the path of the sample at index position pos ended in
 * (after t's transforms), or CPATH_NONE: not in t, or the hist was not
 * built with record_self and paths.
 */
uint32_t cpath_sample_node(const struct cpath *t, const struct hist *h, size_t pos);
/* A path element's address as recorded (hist_opts.paths_address), else 0. */
uint64_t cpath_addr_ip(const struct hist *h, uint32_t func);
/*
 * With hist_opts.offcpu_beside (and record_self, paths): the node of t the
 * path of off-CPU span k (of the hist's model) ended in, or CPATH_NONE.
 */
uint32_t cpath_span_node(const struct cpath *t, const struct hist *h, size_t k);
/* Does the path from the root down to node at pass through function func
 * (a function node: address nodes count as their function's)? */
bool cpath_through(const struct cpath *t, const struct hist *h, uint32_t at, uint32_t func);
/* Is node a node b or below it? */
bool cpath_within(const struct cpath *t, uint32_t a, uint32_t b);

/*
 * The function node of a path element: itself, or with paths_address the
 * function of its address node.
 */
uint32_t cpath_func_node(const struct hist *h, uint32_t func);

/*
 * The name perf report gives a function in a call graph: the symbol
 * ("name (inlined)" for an inline level), "0x..." (the address as
 * recorded) when unresolved.  Returns buf.
 */
const char *cpath_func_name(const struct hist *h, uint32_t func, char *buf, size_t n);

/* How many distinct (path, own entry) pairs and path nodes the hist keeps, and their bytes. */
struct cpath_stats {
	size_t	nodes, rows, bytes;
};
void cpath_stats(const struct hist *h, struct cpath_stats *st);

#endif
