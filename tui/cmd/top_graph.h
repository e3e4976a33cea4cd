/*
 * top_graph.h: perf report's call graphs under the rows of 'perfnav top'
 * (-g/--call-graph TYPE,MIN,ORDER,KEY,VALUE and -G), laid out as
 * 'perf report --stdio' lays them out, from the hist's call paths
 * (symbolize/cpath.h).
 */
#ifndef PERFNAV_TUI_CMD_TOP_GRAPH_H
#define PERFNAV_TUI_CMD_TOP_GRAPH_H

#include <stdbool.h>
#include <stdio.h>

#include "symbolize/hist.h"

enum cg_mode { CG_NONE, CG_GRAPH, CG_FRACTAL, CG_FLAT, CG_FOLDED };
enum cg_value { CG_PERCENT, CG_PERIOD, CG_COUNT };

struct cg_opts {
	enum cg_mode	 mode;
	double		 min_pct;	/* hide call-graph nodes under this percent */
	unsigned long	 print_limit;	/* 0: no limit */
	bool		 caller;	/* caller order (root first); else callee */
	bool		 order_set;
	bool		 address;	/* key frames by address (accepted: shown by function) */
	enum cg_value	 value;
	bool		 branch_counts;	/* after each frame what its branches carried
					 * (perf's --branch-history on branch stacks) */
};

/* perf report's defaults: graph,0.5,callee,function,percent. */
void cg_defaults(struct cg_opts *o);

/*
 * Read perf's -g argument (words and numbers in any order, comma
 * separated: a mode, a minimum percent then a print limit, an order, a
 * key, a value; perf record's "fp", "dwarf", "lbr" and "branch" are
 * accepted and ignored) into o.  Returns 0, or -1 with *bad at the word
 * that is not one.
 */
int cg_parse(const char *arg, struct cg_opts *o, const char **bad);

/*
 * Print the call graph of entry id of event ev (hist built with paths)
 * after its row.  children: the hist has --children rows (perf's
 * cumulative call graph); skip_first: perf's --sort sym layout, where the
 * entry's own frame heading a single path is not repeated.
 */
void cg_print_entry(FILE *fp, struct hist *h, size_t ev, uint32_t id, const struct cg_opts *o,
    bool children, bool skip_first);

#endif
