#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "symbolize/hist.h"
#include "symbolize/parallel.h"
#include "symbolize/pt/intel_pt.h"

/*
 * pt_report.c: what perf report makes of an Intel PT trace: the samples
 * it synthesizes, into a hist, and with callchains wanted (perf's default
 * for a trace) their chains and those of the session's own samples.
 */

/*
 * The frames of an item's chain into fv (PT_CHAIN_ROOM of them), resolved
 * at its time in the modes perf's context markers give; at most max (0: no
 * limit).  Returns the count.
 */
static size_t
chain_frames(struct symbolizer *z, const struct pt_item *it, const struct pt_chains *c,
    unsigned max, struct frame *fv)
{
	size_t n = it->nchain < PT_CHAIN_ROOM ? it->nchain : PT_CHAIN_ROOM;

	if (max != 0 && n > max)
		n = max;
	for (size_t k = 0; k < n; k++) {
		uint64_t ip = c->ips[it->chain + k];

		symbolizer_resolve(z, it->pid, it->tid, it->time, pt_chain_cpumode(ip), ip, &fv[k]);
	}
	return n;
}

size_t
pt_hist_add(struct hist *h, const struct session *s, struct symbolizer *z)
{
	const struct hist_opts *ho = hist_opts(h);
	bool chains = ho->paths && !ho->children;
	struct pt_opts po = { .script = false, .time = ho->filter };
	struct pt_chains c;
	struct pt_item *items;
	struct frame fv[PT_CHAIN_ROOM];
	size_t n, added = 0;

	memset(&c, 0, sizeof c);
	n = pt_synth_chains(s, z, &po, &items, chains ? &c : NULL);
	for (size_t i = 0; i < n; i++) {
		const struct pt_item *it = &items[i];
		struct hist_sample hs;
		struct frame f;
		char buf[32];

		if (it->kind != PT_ITEM_SAMPLE)
			continue;
		symbolizer_resolve(z, it->pid, it->tid, it->time, it->cpumode, it->ip, &f);
		memset(&hs, 0, sizeof hs);
		hs.attr = (int)session_attrs(s)->n + (int)it->event;
		hs.event_name = pt_event_name(it->event);
		hs.comm = pt_item_comm(s, it, buf, sizeof buf);
		hs.pid = it->pid;
		hs.tid = it->tid;
		hs.cpu = (uint32_t)it->cpu;
		hs.has_cpu = it->cpu >= 0;
		hs.time = it->time;
		hs.period = 1;
		hs.self = &f;
		hs.own_nodes = true;
		/* a synthesized sample has no index position: its parallelism by its time */
		if (ho->parallel != NULL)
			hs.parallelism = parallel_at_time(ho->parallel, it->time);
		if (chains) {
			hs.nchain = chain_frames(z, it, &c, ho->max_stack, fv);
			hs.chain = fv;
		}
		hist_add(h, &hs);
		added++;
	}
	free(items);
	pt_chains_free(&c);
	return added;
}

struct pt_chains *
pt_session_chains(const struct session *s, struct symbolizer *z)
{
	struct pt_opts po = { .script = false };
	struct pt_chains *c;
	struct pt_item *items;

	if (!pt_present(s))
		return NULL;
	c = calloc(1, sizeof *c);
	if (c == NULL)
		abort();
	pt_synth_chains(s, z, &po, &items, c);
	free(items);
	return c;
}
