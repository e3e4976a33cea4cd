/*
 * unwind.h: DWARF unwinding of --call-graph dwarf samples with libunwind's
 * remote API: the sample's user registers and stack copy are the "remote"
 * process; .eh_frame_hdr/.eh_frame of each DSO are read from its ELF file.
 *
 * The unwinder owns a cache of opened ELF files (mapped once, keyed by the
 * caller's file key, e.g. a DSO id); frames are returned as plain ips.
 * Which map covers an address, and which ELF file backs it, is the
 * caller's knowledge (the symbolizer's): it answers through a callback.
 * Nothing here prints.
 */
#ifndef PERFNAV_SYMBOLIZE_UNWIND_H
#define PERFNAV_SYMBOLIZE_UNWIND_H

#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "symbolize/symbolizer.h"

/* A mapping of a DSO in the sampled process, and the file to read. */
struct unwind_map {
	uint64_t	 start, end, pgoff;
	const char	*path;		/* ELF file on disk, NULL if not found */
	uint32_t	 key;		/* stable id of that file (cache key) */
};

/*
 * Which address space a find_map callback describes: the same value
 * promises the same answers (the same maps, so the same unwind info at an
 * address), e.g. a process and how many of its maps are in effect.
 * Unwinds in one space reuse the unwind rules parsed for it.
 */
struct unwind_space {
	uint64_t	proc, epoch;
};

/* Fill *out with the map covering addr; return 0, or -1 if none. */
typedef int (*unwind_find_map_fn)(void *arg, uint64_t addr, struct unwind_map *out);

#define UNWIND_STOPS(X) \
	X(END, "reached the outermost frame") \
	X(NO_REGS, "the sample has no user registers") \
	X(NO_STACK, "the sample has no user stack copy") \
	X(NO_MAP, "an address lies in no known mapping") \
	X(NO_FILE, "the DSO's file was not found") \
	X(NO_CFI, "no unwind information (.eh_frame) for an address") \
	X(STACK_END, "the stack copy ended (dyn_size reached)") \
	X(MAX, "the frame limit was reached") \
	X(ERROR, "libunwind gave up")

enum unwind_stop {
#define X(n, t) UNWIND_STOP_##n,
	UNWIND_STOPS(X)
#undef X
	UNWIND_STOP_COUNT
};
_Static_assert(UNWIND_STOP_COUNT == SYM_UNWIND_STOPS, "symbolizer.h counts every stop");

const char *unwind_stop_text(enum unwind_stop w);

struct unwinder;

struct unwinder *unwinder_new(void);
void unwinder_free(struct unwinder *u);

/*
 * Unwind the user stack of a decoded sample whose attr recorded
 * sample_regs_user = regs_mask: x86_64 registers (PERF_SAMPLE_REGS_ABI_64,
 * perf's numbering); other ABIs stop with UNWIND_STOP_NO_REGS.  Writes
 * up to max ips, leaf first: the sample's user ip, then each caller's
 * return address minus one (as perf and libdw do, so a call at the end
 * of a function resolves to it).  find_map(arg, ...) describes the
 * address space space names (NULL: one promised to no other unwind).
 * Returns the count; *stop says why it ended.  Thread-compatible: an
 * unwinder is used by one thread at a time; several may be used on one.
 */
size_t unwinder_unwind(struct unwinder *u, const struct sample *smp, uint64_t regs_mask,
    const struct unwind_space *space, unwind_find_map_fn find_map, void *arg, uint64_t *ips,
    size_t max, enum unwind_stop *stop);

#endif
