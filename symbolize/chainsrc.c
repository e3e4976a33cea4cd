#include "config.h"

#include <stdlib.h>

#include "symbolize/chainsrc.h"
#include "symbolize/pt/intel_pt.h"

/* Intel PT: its samples get their thread's stack from the decoded trace. */
static void *
pt_make(const struct session *s, struct symbolizer *z)
{
	return pt_session_chains(s, z);
}

static size_t
pt_of_sample(const void *chains, size_t pos, const uint64_t **ips)
{
	return pt_chains_of_sample(chains, pos, ips);
}

static void
pt_free(void *chains)
{
	pt_chains_free(chains);
	free(chains);
}

static const struct chain_src pt_chain_src = {
	.name = "intel_pt",
	.present = pt_present,
	.make = pt_make,
	.of_sample = pt_of_sample,
	.cpumode = pt_chain_cpumode,
	.free = pt_free,
};

const struct chain_src *const chain_srcs[] = { &pt_chain_src, NULL };

bool
chainsrc_present(const struct session *s)
{
	for (size_t k = 0; chain_srcs[k] != NULL; k++)
		if (chain_srcs[k]->present(s))
			return true;
	return false;
}
