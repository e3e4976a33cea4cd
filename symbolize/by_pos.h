/*
 * by_pos.h: the one binary search of the tables kept in index order
 * (off-CPU spans, parallelism steps): arrays of structs sorted by a
 * uint64_t index position.
 */
#ifndef PERFNAV_SYMBOLIZE_BY_POS_H
#define PERFNAV_SYMBOLIZE_BY_POS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * The first of the n elements of size bytes at v (sorted by the uint64_t
 * at byte offset off of each) whose position is not below pos; n if none.
 */
static inline size_t
by_pos_lower(const void *v, size_t n, size_t size, size_t off, uint64_t pos)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t at;

		memcpy(&at, (const char *)v + mid * size + off, sizeof at);
		if (at < pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#endif
