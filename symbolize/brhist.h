/*
 * brhist.h: perf report's --branch-history and its branch statistics.
 *
 * With --branch-history perf adds a sample's branch stack (LBR) to its
 * call chain: each branch entry, after loops are folded (a repeated run of
 * sources becomes one, with its iterations counted), is two frames, its
 * target and then its source; the recorded callchain follows.  In callee
 * order the newest branch comes first and callchain frames the branches
 * overlap are skipped; in caller order the oldest branch comes first.
 * Either way perf then drops as many callchain frames as there were
 * branches left (from the outer end in callee order, the inner end in
 * caller order).  Frames are keyed by address (perf's CCKEY_ADDRESS), and
 * every node of a call graph sums what its frames carried: for targets the
 * branch types, how many were predicted or aborted; for sources the cycles
 * and the loop iterations; callchain frames are "(calltrace)".
 *
 * perf's branch statistics (the footer of branch mode) count the types of
 * every branch entry made a row: conditional forward/backward, crossing a
 * 4K or 2M boundary, and each type.  Nothing here prints.
 */
#ifndef PERFNAV_SYMBOLIZE_BRHIST_H
#define PERFNAV_SYMBOLIZE_BRHIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/record.h"

/* perf's bounds: branch types (PERF_BR_MAX), the extended ones, an LBR's depth. */
#define BR_TYPES	16
#define BR_NEW_TYPES	8
#define BR_MAX_DEPTH	127

enum brh_kind {
	BRH_CHAIN,	/* a callchain frame */
	BRH_TO,		/* a branch target */
	BRH_FROM,	/* a branch source */
};

/* One frame of a sample's branch history. */
struct brh_frame {
	uint64_t	ip;
	uint64_t	from;		/* BRH_TO: its branch's source */
	uint64_t	flags;		/* the branch's flags (host bit order) */
	uint64_t	iter_cycles;	/* BRH_FROM: cycles of the loop folded into it */
	uint32_t	iter;		/* BRH_FROM: iterations of that loop */
	uint8_t		kind;		/* enum brh_kind */
};

/*
 * The branch frames of smp in perf's order for the call graph (caller or
 * callee), at most max_stack branch entries used, into out (room for
 * 2 * BR_MAX_DEPTH).  *chain_lo, *chain_hi: the part of the recorded
 * callchain perf adds after them (indexes into it; lo == hi: none), and
 * *mode_at the index whose nearest context marker at or before it sets
 * the cpumode of the first frame of that part (SIZE_MAX: user, perf's
 * start).  Returns the number of frames.
 */
size_t brhist_frames(const struct sample *smp, bool caller, unsigned max_stack,
    struct brh_frame *out, size_t *chain_lo, size_t *chain_hi, size_t *mode_at);

/* What a call-graph node's frames carried, summed (perf's callchain_list counts). */
struct brh_count {
	uint32_t	passes;		/* samples through it */
	uint32_t	to, from;	/* of which as a branch target, source */
	uint32_t	predicted, aborted;	/* targets predicted, aborted */
	uint32_t	iter;		/* sources: loop iterations */
	uint32_t	types;		/* targets: bit t for branch type t, BR_TYPES + t
					 * for extended type t, and BRH_COND_FWD... */
	uint64_t	cycles, iter_cycles;	/* sources */
};

#define BRH_COND_FWD	(1u << 24)
#define BRH_COND_BWD	(1u << 25)
#define BRH_CROSS_4K	(1u << 26)
#define BRH_CROSS_2M	(1u << 27)

/* Count one frame into c. */
void brhist_count(struct brh_count *c, const struct brh_frame *f);
/* Add b's counts into a. */
void brhist_sum(struct brh_count *a, const struct brh_count *b);

/*
 * perf's text after a frame's name in a call graph: " (COND_BWD
 * predicted:50.0%)", " (cycles:4 iter:2 avg_cycles:4)", " (calltrace)", or
 * "".  Returns buf.
 */
const char *brhist_text(const struct brh_count *c, char *buf, size_t n);

/* perf's branch statistics (branch mode's footer). */
struct brstat {
	uint64_t	counts[BR_TYPES], new_counts[BR_NEW_TYPES];
	uint64_t	cond_fwd, cond_bwd, cross_4k, cross_2m;
};

void brstat_add(struct brstat *st, uint64_t flags, uint64_t from, uint64_t to);
void brstat_sum(struct brstat *a, const struct brstat *b);

/* perf's names of branch types ("COND", "RET"; "" for 0) and extended types. */
const char *br_type_name(unsigned t);
const char *br_new_type_name(unsigned t);

#endif
