/*
 * chainsrc.h: sources of chains for samples recorded without one, at the
 * histogram's edge.
 *
 * A sample of a trace (Intel PT's synthesized samples) has no callchain of
 * its own: perf report gives it its thread's stack as the trace decoded it.
 * The walk (hist_walk.c) knows only this interface: for a session where a
 * source is present, it asks it once for the chains (make) and then, for
 * each sample without a chain, the sample's (of_sample).  Adding a source:
 * an entry in chain_srcs[] (chainsrc.c).
 */
#ifndef PERFNAV_SYMBOLIZE_CHAINSRC_H
#define PERFNAV_SYMBOLIZE_CHAINSRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct session;
struct symbolizer;

struct chain_src {
	const char	*name;
	/* Does the session hold what it decodes (then a pass is not split
	 * in two: the chains are made over the whole session)? */
	bool		(*present)(const struct session *s);
	/* The session's chains (malloc'd, NULL: none to give). */
	void		*(*make)(const struct session *s, struct symbolizer *z);
	/* The chain of the sample at index position pos: its count, *ips
	 * (leaf first) valid while the chains are. */
	size_t		(*of_sample)(const void *chains, size_t pos, const uint64_t **ips);
	/* The cpumode an address of such a chain resolves in. */
	uint8_t		(*cpumode)(uint64_t ip);
	void		(*free)(void *chains);
};

/* The sources, NULL-terminated; the first whose make gives chains is used. */
extern const struct chain_src *const chain_srcs[];

/* Is any source present in s? */
bool chainsrc_present(const struct session *s);

#endif
