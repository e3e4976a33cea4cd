/*
 * cpath_diff.h: two call-path trees (symbolize/cpath.h) paired node by
 * node, for a diff of two recordings (perfnav OLD NEW).
 *
 * Each tree comes from its own hist (its own session and symbolizer), so
 * function node ids mean nothing across them: nodes pair along the path
 * of function names from the root (cpath_func_name: the symbol, "name
 * (inlined)", "0x..." when unresolved), never by address.  The pairing is
 * over the nodes of a base tree `a`: each gets the node of tree `b`
 * reached from the root by the same names, or CPATH_NONE (a path b does
 * not have); paths of b that a lacks are counted apart (their total, as
 * b_only).  Both trees must be built with the same query (direction,
 * transforms mapped by name) for the pairing to mean something.  Curses-
 * free, nothing printed; the trees and hists are borrowed while
 * cpath_diff_new runs only.
 */
#ifndef PERFNAV_SYMBOLIZE_CPATH_DIFF_H
#define PERFNAV_SYMBOLIZE_CPATH_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "symbolize/cpath.h"

/* A node of a with its pair's counts: [0] a's, [1] b's (0 when unpaired). */
struct cpath_dnode {
	uint32_t	pair;		/* node of b, CPATH_NONE */
	uint64_t	total[2], self[2];	/* periods */
	uint64_t	total_samples[2], self_samples[2];
};

struct cpath_diff;

/* Pair every node of a (over hist ha) with b's (over hist hb). */
struct cpath_diff *cpath_diff_new(const struct hist *ha, const struct cpath *a,
    const struct hist *hb, const struct cpath *b);
void cpath_diff_free(struct cpath_diff *d);

/* Node id of a (0 .. cpath_count(a) - 1): its counts and pair; 0, or -1 out of range. */
int cpath_diff_node(const struct cpath_diff *d, uint32_t id, struct cpath_dnode *out);
/* The period of b's paths that have no node in a (summed over b's nodes of
 * that kind nearest the root: their totals). */
uint64_t cpath_diff_b_only(const struct cpath_diff *d);

#endif
