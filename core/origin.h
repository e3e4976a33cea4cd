/*
 * origin.h: which input file each record of a merged recording came from
 * (perfnav merge writes them; the sort key "file" reads them).
 *
 * perfnav merge writes a feature section of its own, bit
 * PF_FEAT_PERFNAV_ORIGINS (255, far above perf's, which perf counts and
 * skips), in the file's byte order:
 *
 *	u64 nr;
 *	nr times: u64 start, end;	data bytes [start, end) of the file
 *		  u64 len;		bytes of name, NUL included, a multiple of 8
 *		  char name[len];	the input's name as given to merge
 *
 * the ranges in file order, not overlapping.  A recording without the
 * section has one origin, the recording itself (its path as given).
 * The table and its names are owned by struct origins.
 */
#ifndef PERFNAV_CORE_ORIGIN_H
#define PERFNAV_CORE_ORIGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

struct session;

#define ORIGINS_MAX	65536u	/* inputs a section may name */

struct origin {
	uint64_t	 start, end;	/* data bytes, [start, end) */
	char		*name;
};

struct origins {
	struct origin	*v;
	size_t		 n;
};

/*
 * Decode a section of n bytes at p (of a file of byte order swap; at file
 * offset base, for messages) into o.  Returns 0, or -1 with err naming the
 * offset and the fault (o then empty).
 */
int origins_decode(const uint8_t *p, uint64_t n, bool swap, uint64_t base, struct origins *o,
    struct perf_err *err);

/*
 * The origins of the session: its section's, or one named after the
 * recording (session_info().path) from 0 to UINT64_MAX.  A section that
 * cannot be read gives that one origin, named "PATH (origins section
 * damaged: why)", and -1 with err filled; else 0.  Never fails to fill o.
 */
int origins_load(const struct session *s, struct origins *o, struct perf_err *err);

/* Index of the origin holding location loc (a file-mode offset), or o->n. */
uint32_t origins_find(const struct origins *o, uint64_t loc);

void origins_free(struct origins *o);

#endif
