#include "config.h"

#include <linux/perf_event.h>
#include <stdint.h>

#include "symbolize/chainwalk.h"

/* The walk of a recorded callchain (symbolize/chainwalk.h). */

uint8_t
context_cpumode(uint64_t marker)
{
	switch (marker) {
	case (uint64_t)PERF_CONTEXT_HV:
		return PERF_RECORD_MISC_HYPERVISOR;
	case (uint64_t)PERF_CONTEXT_KERNEL:
		return PERF_RECORD_MISC_KERNEL;
	case (uint64_t)PERF_CONTEXT_USER:
		return PERF_RECORD_MISC_USER;
	case (uint64_t)PERF_CONTEXT_GUEST_KERNEL:
		return PERF_RECORD_MISC_GUEST_KERNEL;
	case (uint64_t)PERF_CONTEXT_GUEST_USER:
		return PERF_RECORD_MISC_GUEST_USER;
	default:
		return 0xff;	/* not a marker perf knows */
	}
}

enum step
chain_step(struct chain_walk *w, uint64_t ip, struct chain_ip *out, size_t *k)
{
	if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
		w->cpumode = context_cpumode(ip);
		/* as perf: an unknown marker voids the chain */
		return w->cpumode == 0xff ? STEP_VOID : STEP_NEXT;
	}
	/* --call-graph dwarf: the user part comes from unwinding. */
	if (w->dwarf && w->cpumode != PERF_RECORD_MISC_KERNEL &&
	    w->cpumode != PERF_RECORD_MISC_GUEST_KERNEL)
		return STEP_END;
	if (w->max_stack != 0 && *k >= w->max_stack)
		return STEP_FULL;
	out[*k].ip = ip;
	out[*k].unwound = false;
	out[(*k)++].cpumode = w->cpumode;
	return STEP_NEXT;
}

uint64_t
chain_lbr_user(const struct attr_table *at, const struct sample *smp, unsigned max_stack)
{
	uint64_t lim = smp->callchain_nr, user;

	if (smp->branch == NULL || smp->callchain == NULL || smp->attr < 0 ||
	    (size_t)smp->attr >= at->n ||
	    !(at->v[smp->attr].attr.branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK))
		return UINT64_MAX;
	if (max_stack != 0 && lim > max_stack)
		lim = max_stack;
	for (user = 0; user < lim && sample_callchain_ip(smp, user) != (uint64_t)PERF_CONTEXT_USER;
	    user++)
		;
	return user < lim ? user : UINT64_MAX;
}

size_t
chain_lbr(const struct attr_table *at, const struct sample *smp, struct chain_ip *out, size_t n,
    unsigned max_stack)
{
	struct chain_walk w = { PERF_RECORD_MISC_USER, false, 0 };
	uint64_t user = chain_lbr_user(at, smp, max_stack);
	size_t k = 0;

	if (user == UINT64_MAX)
		return SIZE_MAX;
	for (uint64_t i = 0; i <= user && k < n; i++)
		if (chain_step(&w, sample_callchain_ip(smp, i), out, &k) == STEP_VOID)
			return 0;
	/* the newest call's target, then every call's site */
	if (smp->branch_nr > 0 && k < n)
		out[k++] = (struct chain_ip){ sample_branch(smp, 0).to, PERF_RECORD_MISC_USER, false };
	for (uint64_t j = 0; j < smp->branch_nr && k < n; j++)
		out[k++] = (struct chain_ip){ sample_branch(smp, j).from, PERF_RECORD_MISC_USER, false };
	return k;
}
