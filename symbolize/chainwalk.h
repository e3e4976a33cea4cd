/*
 * chainwalk.h: the walk of a sample's recorded callchain, as perf 6.1
 * walks it: PERF_CONTEXT_* markers set the cpumode of the entries after
 * them (an unknown marker voids the chain), at most max_stack frames, and
 * with --call-graph dwarf the user part left to the unwinder.  And perf's
 * --call-graph lbr chains: for an event with PERF_SAMPLE_BRANCH_CALL_STACK,
 * the recorded chain up to its user marker (the kernel part), then the
 * user part from the branch stack, which holds the calls in flight: the
 * newest call's target (the function the sample is in), then each call's
 * source, innermost first; when the marker lies within max_stack entries
 * (else perf walks the chain as recorded).  Without perf's --stitch-lbr.
 * Used by symbolize/symbolizer.c; nothing here resolves.
 */
#ifndef PERFNAV_SYMBOLIZE_CHAINWALK_H
#define PERFNAV_SYMBOLIZE_CHAINWALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "symbolize/symbolizer.h"

/* One step of a callchain walk. */
enum step { STEP_NEXT, STEP_END, STEP_FULL, STEP_VOID };

struct chain_walk {
	uint8_t		cpumode;
	bool		dwarf;
	unsigned	max_stack;
};

/* The cpumode a context marker sets, 0xff for one perf does not know. */
uint8_t context_cpumode(uint64_t marker);

/* Walk one entry ip: a marker, or a frame appended to out[*k]. */
enum step chain_step(struct chain_walk *w, uint64_t ip, struct chain_ip *out, size_t *k);

/* --call-graph lbr: the index of smp's user marker, or UINT64_MAX when its chain is not one. */
uint64_t chain_lbr_user(const struct attr_table *at, const struct sample *smp, unsigned max_stack);

/* --call-graph lbr: smp's frames into out (room for n), or SIZE_MAX when its chain is not one. */
size_t chain_lbr(const struct attr_table *at, const struct sample *smp, struct chain_ip *out,
    size_t n, unsigned max_stack);

#endif
